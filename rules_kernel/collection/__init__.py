"""A collection of games: folders, archives and record files of every format `records.read`
reads, imported into three Parquet tables and queried with pandas or DuckDB.

    rules-explorer collection import games/ more.zip old.tar.gz one.kif -o my-collection/

    import rules_kernel as rk
    games = rk.Collection("my-collection")
    games.games                      # pandas: one row per game
    games.moves                      # one row per ply
    games.positions                  # one row per position (ply 0: the start)
    games.sql("select result, count(*) from games group by result")   # DuckDB

The tables (columns in docs/collections.md): `games.parquet`, `moves.parquet`,
`positions.parquet`, and `collection.json` (what was imported, the counts, the problems).
Any Parquet reader (Dask, Polars, Spark, DuckDB's own command line) reads the same files.

An import is whole or nothing: it writes into a hidden partial folder beside the output and
renames it when done; a failure or an interrupt removes it. Each bad game is reported by
file, line and ply and left out, the good ones kept; see `sources` for what an archive may
hold (members are read in memory, never extracted).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_kernel import core, records
from rules_kernel.collection import sources as _sources
from rules_kernel.collection.sources import Problem, Skipped, Source
from rules_kernel.collection.tables import (
    SCHEMAS,
    Positions,
    TableWriter,
    game_row,
    move_rows,
    options_text,
)

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = ["FORMAT", "Collection", "CollectionError", "ImportReport", "Problem", "import_collection"]

#: what collection.json says the folder is
FORMAT = "rules-explorer-collection/1"
TABLES = ("games", "moves", "positions")
#: collection.json keeps at most this many problems (all are reported while importing)
MAX_KEPT_PROBLEMS = 1000


class CollectionError(core.RulesError):
    """A collection that cannot be made or opened (the output exists, not a collection...)."""


@dataclass
class ImportReport:
    """What an import did: the counts, the files read, every problem reported."""

    output: Path
    games: int = 0
    moves: int = 0
    positions: int = 0
    files: int = 0
    skipped: int = 0
    problems: list[Problem] = field(default_factory=list)

    def summary(self) -> str:
        bad = f"; {len(self.problems)} problem(s) reported" if self.problems else ""
        passed = f", {self.skipped} other file(s) passed over" if self.skipped else ""
        return (
            f"{self.games:,} game(s), {self.moves:,} moves, {self.positions:,} positions from "
            f"{self.files:,} file(s){passed} into {self.output}{bad}"
        )


def import_collection(
    inputs: Iterable[str | os.PathLike[str]],
    output: str | os.PathLike[str],
    *,
    progress: bool | None = None,
    on_problem: Callable[[Problem], None] | None = None,
) -> ImportReport:
    """Import the games of `inputs` (folders, .zip/.tar.gz archives, record files) into a new
    collection at `output` (a folder that must not exist, or be empty). Every game is replayed
    and checked; a bad one is reported (`on_problem`, and the report's `problems`) and left
    out. `progress`: a progress bar over the files (None: when stderr is a terminal).
    Whole or nothing: on any failure or interrupt no `output` is left (nor a partial one)."""
    inputs = list(inputs)
    out = Path(output)
    if not inputs:
        raise CollectionError("nothing to import: give folders, archives or record files")
    missing = [str(p) for p in inputs if not os.path.exists(p)]
    if missing:
        raise CollectionError(f"no such file or folder: {records.one_line(missing[0])}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CollectionError(
            f"{records.one_line(str(out))} exists: give a new folder (an import never adds to "
            "or overwrites a collection)"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    writers = {name: TableWriter(partial / f"{name}.parquet", SCHEMAS[name]) for name in TABLES}
    report = ImportReport(out)
    try:
        _import(inputs, writers, report, progress, on_problem)
        for writer in writers.values():
            writer.close()
        _write_manifest(partial, inputs, report)
        if out.exists():
            out.rmdir()  # the empty folder asked for
        os.rename(partial, out)
    except BaseException:
        for writer in writers.values():
            writer.abandon()
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return report


def _import(
    inputs: list,
    writers: dict[str, TableWriter],
    report: ImportReport,
    progress: bool | None,
    on_problem: Callable[[Problem], None] | None,
) -> None:
    from tqdm.auto import tqdm

    positions = Positions()

    def problem(found: Problem) -> None:
        report.problems.append(found)
        if on_problem is not None:
            on_problem(found)

    with tqdm(desc="files imported", unit="file", disable=None if progress is None else not progress) as bar:
        for item in _sources.sources(inputs):
            if isinstance(item, Skipped):
                report.skipped += 1
                continue
            if isinstance(item, Problem):
                problem(item)
                continue
            report.files += 1
            for index, found in enumerate(_games_of(item)):
                if isinstance(found, records.RecordError):
                    problem(Problem("", str(found)))
                    continue
                record, states = found
                _add_game(record, states, item.label, index, writers, positions, report)
            bar.update(1)
            bar.set_postfix(games=report.games, refresh=False)


def _games_of(source: Source) -> Iterator[tuple[records.Record, list[core.State]] | records.RecordError]:
    """Every game of one file, replayed (its states) or its error (file, line, ply)."""
    for item in _records_of(source):
        if isinstance(item, records.RecordError):
            yield item
            continue
        try:
            yield item, item.replay()
        except records.RecordError as exc:
            yield exc.at(source=source.label, line=item.line)
        except Exception as exc:  # a game's code failing on a record must not stop the import
            yield records.RecordError(
                f"the record could not be replayed ({type(exc).__name__}: {records.one_line(str(exc))})",
                source=source.label,
                line=item.line,
            )


def _records_of(source: Source) -> Iterator[records.Record | records.RecordError]:
    """The records of a file, as `records.read` reads them (format told by content), except
    that JSON Lines are streamed and replayed here once (not once by the reader and again)."""
    if source.path is not None:
        try:
            with open(source.path, "rb") as stream:
                head = stream.read(64 * 1024)
        except OSError as exc:
            yield records.RecordError(f"cannot open: {exc.strerror}", source=source.label)
            return
    else:
        head = source.data[: 64 * 1024]
    if records.detect(head, source.label) == "jsonl":
        stream = source.path if source.path is not None else io.BytesIO(source.data)
        yield from records.scan_records(stream, replay=False, name=source.label)
        return
    try:
        if source.path is not None:
            found = records.read(source.path, name=source.label, errors="collect")
        else:
            found = records.read(data=source.data, name=source.label, errors="collect")
    except Exception as exc:  # a reader failing on one file must not stop the import
        yield records.RecordError(
            f"the file could not be read ({type(exc).__name__}: {records.one_line(str(exc))})",
            source=source.label,
        )
        return
    yield from found.records
    yield from found.errors


def _add_game(
    record: records.Record,
    states: list[core.State],
    label: str,
    index: int,
    writers: dict[str, TableWriter],
    positions: Positions,
    report: ImportReport,
) -> None:
    game_id = report.games
    row = game_row(record, game_id, label, index, states)
    moves = writers["moves"]
    move_rows(record, game_id, states, moves.columns)
    texts = positions.texts(states, options_text(record))
    places = writers["positions"].columns
    places["game_id"].extend([game_id] * len(texts))
    places["ply"].extend(range(len(texts)))
    places["position"].extend(texts)
    writers["games"].add_row(row)
    moves.added(len(record.actions))
    writers["positions"].added(len(texts))
    report.games += 1
    report.moves += len(record.actions)
    report.positions += len(texts)


def _write_manifest(folder: Path, inputs: list, report: ImportReport) -> None:
    manifest = {
        "format": FORMAT,
        "inputs": [str(p) for p in inputs],
        "games": report.games,
        "moves": report.moves,
        "positions": report.positions,
        "files": report.files,
        "skipped": report.skipped,
        "problem_count": len(report.problems),
        "problems": [str(p) for p in report.problems[:MAX_KEPT_PROBLEMS]],
    }
    (folder / "collection.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")


class Collection:
    """A collection made by `import_collection` (or `rules-explorer collection import`):

    `.games`, `.moves`, `.positions` are pandas DataFrames (read when first asked for);
    `.sql(query)` runs DuckDB SQL over the Parquet files, whose views are named games, moves
    and positions, and returns a DataFrame; `.connection` is that DuckDB connection."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        for name in TABLES:
            if not (self.path / f"{name}.parquet").is_file():
                raise CollectionError(
                    f"{records.one_line(str(self.path))} is not a collection (no {name}.parquet): "
                    "make one with `rules-explorer collection import`"
                )
        self._frames: dict[str, pd.DataFrame] = {}
        self._connection: duckdb.DuckDBPyConnection | None = None

    def table_path(self, name: str) -> Path:
        """The Parquet file of a table ("games", "moves", "positions")."""
        if name not in TABLES:
            raise ValueError(f"a collection's tables are {', '.join(TABLES)}, not {name!r}")
        return self.path / f"{name}.parquet"

    def _frame(self, name: str) -> pd.DataFrame:
        if name not in self._frames:
            import pandas as pd

            self._frames[name] = pd.read_parquet(self.table_path(name))
        return self._frames[name]

    @property
    def games(self) -> pd.DataFrame:
        """One row per game: game_id, game, players, result, reason, date, plies, source..."""
        return self._frame("games")

    @property
    def moves(self) -> pd.DataFrame:
        """One row per ply: game_id, ply, mover, seat, player, notation, text, clock, spent."""
        return self._frame("moves")

    @property
    def positions(self) -> pd.DataFrame:
        """One row per position: game_id, ply (0: the start), position (no move counters)."""
        return self._frame("positions")

    @property
    def info(self) -> dict[str, Any]:
        """collection.json: what was imported, the counts, the problems reported."""
        return json.loads((self.path / "collection.json").read_text())

    @property
    def connection(self) -> duckdb.DuckDBPyConnection:
        """An in-memory DuckDB connection with a view per table over its Parquet file."""
        if self._connection is None:
            import duckdb

            connection = duckdb.connect(":memory:")
            for name in TABLES:
                # a path of the user's own; quoted as an SQL string literal
                quoted = str(self.table_path(name).resolve()).replace("'", "''")
                connection.execute(f"create view {name} as select * from read_parquet('{quoted}')")
            self._connection = connection
        return self._connection

    def sql(self, query: str, params: list | dict | None = None) -> pd.DataFrame:
        """The result of a DuckDB query over the views games, moves and positions, as a
        DataFrame; `params` fill `?` or `$name` placeholders (never format values in)."""
        return self.connection.execute(query, params).df()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Collection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Collection({str(self.path)!r})"
