"""A collection of games: folders, archives and record files of every format `records.read`
reads, imported into three Parquet tables and queried with pandas or DuckDB.

    rules-explorer collection import games/ more.zip old.tar.gz one.kif -o my-collection/

    import rules_kernel as rk
    games = rk.Collection("my-collection")
    games.games                      # pandas: one row per game
    games.moves                      # one row per ply
    games.positions                  # one row per position (ply 0: the start)
    games.sql("select result, count(*) from games group by result")   # DuckDB

    games.from_position(state)       # games from here: the moves played, score, engine value
    games.players()                  # per player: score, Elo, time per move and per phase

The tables (columns in docs/collections.md): `games.parquet`, `moves.parquet`,
`positions.parquet`, `views.parquet` (what each seat saw, games with hidden information),
`from_here.parquet` (the index "games from here" reads, sorted by position key), and
`collection.json` (what was imported, the counts, the problems, the counter fields dropped).
Any Parquet reader (Dask, Polars, Spark, DuckDB's own command line) reads the same files.

An import is whole or nothing: it writes into a hidden partial folder beside the output and
renames it when done; a failure or an interrupt removes it. Each bad game is reported by
file, line and ply and left out, the good ones kept; see `sources` for what an archive may
hold (members are read in memory, never extracted).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_kernel import core, records
from rules_kernel.collection import query as _query
from rules_kernel.collection import sources as _sources
from rules_kernel.collection.sources import CollectionError, Problem, Skipped, Source
from rules_kernel.collection.tables import SCHEMAS, TableWriter
from rules_kernel.collection.work import Done, Unit, run_units, units_of

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

__all__ = [
    "FORMAT",
    "SHIPPED",
    "Collection",
    "CollectionError",
    "ImportReport",
    "Problem",
    "import_collection",
    "shipped",
]

#: what collection.json says the folder is
FORMAT = "rules-explorer-collection/1"
TABLES = ("games", "moves", "positions")
#: written by every import since "games from here"; a collection without them still reads
OPTIONAL_TABLES = ("views", "from_here")
#: the small collection shipped with the package (docs/collections.md, "The shipped collection")
SHIPPED = Path(__file__).resolve().parent.parent / "data" / "collection"
#: collection.json keeps at most this many problems (all are reported while importing)
MAX_KEPT_PROBLEMS = 1000


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
    #: the fields dropped from position texts as move counters, by (game, options, width)
    counters: dict[tuple[str, str, int], list[int]] = field(default_factory=dict)

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
    workers: int = 1,
) -> ImportReport:
    """Import the games of `inputs` (folders, .zip/.tar.gz archives, record files) into a new
    collection at `output` (a folder that must not exist, or be empty). Every game is replayed
    and checked; a bad one is reported (`on_problem`, and the report's `problems`) and left
    out. `progress`: a progress bar over the files (None: when stderr is a terminal).
    `workers`: processes replaying the games (0: all cores); the collection is the same.
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
    if not isinstance(workers, int) or workers < 0:
        raise ValueError(f"workers must be a whole number of at least 0 (0: all cores), not {workers!r}")
    workers = workers or os.cpu_count() or 1
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    writers = {name: TableWriter(partial / f"{name}.parquet", SCHEMAS[name]) for name in (*TABLES, "views")}
    report = ImportReport(out)
    try:
        _import(inputs, writers, report, progress, on_problem, workers)
        for writer in writers.values():
            writer.close()
        _query.build_from_here(partial)
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
    workers: int,
) -> None:
    from tqdm.auto import tqdm

    imported: Counter[str] = Counter()  # games imported so far from each file (pieces add up)
    bar = tqdm(desc="files imported", unit="file", disable=None if progress is None else not progress)
    with bar, contextlib.closing(run_units(_units(inputs), workers)) as results:
        for item in results:
            if isinstance(item, Skipped):
                report.skipped += 1
            elif isinstance(item, Problem):
                _said(item, report, on_problem)
            else:
                for text in item.problems:
                    _said(Problem("", text), report, on_problem)
                _add(item, imported, writers, report)
                if item.first:
                    report.files += 1
                    bar.update(1)
                bar.set_postfix(games=report.games, refresh=False)


def _units(inputs: list) -> Iterator[Unit | Problem | Skipped]:
    for item in _sources.sources(inputs):
        if isinstance(item, Source):
            yield from units_of(item)
        else:
            yield item


def _said(problem: Problem, report: ImportReport, on_problem: Callable[[Problem], None] | None) -> None:
    report.problems.append(problem)
    if on_problem is not None:
        on_problem(problem)


def _add(done: Done, imported: Counter[str], writers: dict[str, TableWriter], report: ImportReport) -> None:
    """A unit's rows into the tables, its game ids (0... in the unit) made the collection's."""
    offset, index = report.games, imported[done.label]
    for row in done.games:
        row["game_id"] += offset
        row["source_index"] += index
        writers["games"].add_row(row)
    writers["games"].batch()  # a unit's rows made Arrow while the workers replay more
    for name in ("moves", "positions", "views"):
        columns = writers[name].columns
        for column, values in getattr(done, name).items():
            if column == "game_id":
                columns[column].extend(game_id + offset for game_id in values)
            else:
                columns[column].extend(values)
        writers[name].added(len(getattr(done, name)["game_id"]))
    report.counters.update(done.counters)
    imported[done.label] += len(done.games)
    report.games += len(done.games)
    report.moves += len(done.moves["game_id"])
    report.positions += len(done.positions["game_id"])


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
        # what `from_position` drops from a position's text to look it up as the import did
        "counters": [
            {"game": game, "options": options, "width": width, "drop": drop}
            for (game, options, width), drop in sorted(report.counters.items())
        ],
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
        """The Parquet file of a table ("games", "moves", "positions"; "views" and
        "from_here", which collections imported before them lack)."""
        if name not in TABLES + OPTIONAL_TABLES:
            raise ValueError(f"a collection's tables are {', '.join(TABLES + OPTIONAL_TABLES)}, not {name!r}")
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
            # the files' footers read once, not on every query (games from here asks often)
            connection.execute("set parquet_metadata_cache = true")
            for name in TABLES + tuple(n for n in OPTIONAL_TABLES if self.table_path(n).is_file()):
                # a path of the user's own; quoted as an SQL string literal
                quoted = str(self.table_path(name).resolve()).replace("'", "''")
                connection.execute(f"create view {name} as select * from read_parquet('{quoted}')")
            self._connection = connection
        return self._connection

    def sql(self, query: str, params: list | dict | None = None) -> pd.DataFrame:
        """The result of a DuckDB query over the views games, moves and positions, as a
        DataFrame; `params` fill `?` or `$name` placeholders (never format values in)."""
        return self.connection.execute(query, params).df()

    def from_position(
        self,
        state: core.State,
        *,
        viewer: int | str | None = "mover",
        engine: str | None = "table",
        seconds: float = _query.ENGINE_SECONDS,
    ) -> pd.DataFrame:
        """Games from here: one row per move played from `state`'s position in this
        collection, the most played first: the move in words, its notation, n (times
        played), games, the mover's points and score over the games with a result with its
        95% interval, the last date played, and the engine's value of the move for the mover.

        Positions match by the kernel's position text without the move counters (the same
        position reached by other move orders is the same position); for a game with hidden
        information, by what `viewer` sees ("mover": the player to move; a seat; None: the
        all-seeing position). `engine`: "table" gives the solved table's exact values where
        the game has one built here, else no values (the note in `.attrs["engine_note"]`
        says why); "default", "ismcts" or "fairy-stockfish" search for `seconds`; None: no
        values. Columns: `query.FROM_POSITION_COLUMNS`."""
        return _query.from_position(self, state, viewer=viewer, engine=engine, seconds=seconds)

    def players(self, *, anchor: str | None = None) -> pd.DataFrame:
        """One row per game and player: games, wins/draws/losses, score with its 95%
        interval, Elo fitted from the results with the agent ladder's method (and its
        interval), and the time spent per move and per phase (opening, middle, end: thirds
        of each game's plies). Columns: `query.PLAYER_COLUMNS`."""
        return _query.players(self, anchor=anchor)

    def move_phases(self) -> pd.DataFrame:
        """The players' moves with their game's plies and phase ("opening", "middle", "end"
        by thirds of the game's plies), for time per phase by any grouping."""
        return _query.move_phases(self)

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


def shipped() -> Collection:
    """The small collection shipped with the package: the simulated games of data/ (Yōkai
    3x4 and 5x6, War Chest) and the hand-made format samples (KIF, KI2, CSA, PGN)."""
    return Collection(SHIPPED)
