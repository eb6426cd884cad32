"""The work of an import, in units a process can do alone: a record file, or a piece of a
JSON Lines file (whole lines, with the number of its first line), replayed into the rows of
the three tables (`work`); `run_units` does them here or on worker processes, handing the
results back in order, so the collection is the same whatever the number of workers."""

from __future__ import annotations

import contextlib
import functools
import io
import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from rules_kernel import core, records, registry
from rules_kernel.collection.sources import CollectionError, Problem, Skipped, Source
from rules_kernel.collection.tables import (
    SCHEMAS,
    Positions,
    game_row,
    has_secrets,
    move_rows,
    options_text,
    position_key,
    view_rows,
)

#: a JSON Lines file is cut into pieces of about this many bytes (whole lines) for the workers:
#: small enough that the last ones keep every worker busy to the end
PIECE_BYTES = 512 * 1024
#: units under way per worker at most (memory stays bounded: a few MB of rows a unit); enough
#: that the workers never wait while the importing process writes what came back
UNITS_AHEAD = 8
#: the bytes read to tell a file's format
_HEAD = 64 * 1024


@dataclass(frozen=True)
class Unit:
    """One record file (`path` or `data`), or a piece of a JSON Lines file (`data` holding
    whole lines from line `first_line`; `first` false after the file's first piece)."""

    label: str
    path: Path | None = None
    data: bytes | None = None
    jsonl: bool = False
    first_line: int = 1
    first: bool = True


@dataclass
class Done:
    """A unit's rows (game ids from 0 within the unit) and its problems, as plain data."""

    label: str
    first: bool
    games: list[dict] = field(default_factory=list)
    moves: dict[str, list] = field(default_factory=lambda: {n: [] for n in SCHEMAS["moves"].names})
    positions: dict[str, list] = field(default_factory=lambda: {n: [] for n in SCHEMAS["positions"].names})
    views: dict[str, list] = field(default_factory=lambda: {n: [] for n in SCHEMAS["views"].names})
    problems: list[str] = field(default_factory=list)
    #: the counter fields this process has told: (game, options, width) -> field numbers
    counters: dict[tuple[str, str, int], list[int]] = field(default_factory=dict)


#: each process's positions (the counter fields it has told, by game, options and width)
_POSITIONS = Positions()
#: each process's position keys, by position text: openings repeat (the last KEYS_KEPT kept)
KEYS_KEPT = 200_000
_key_of = functools.lru_cache(maxsize=KEYS_KEPT)(position_key)


def units_of(source: Source) -> Iterator[Unit | Problem]:
    """The units of one record file: a JSON Lines file in pieces of whole lines, any other
    format whole (its reader reads it whole)."""
    try:
        if source.path is not None:
            with open(source.path, "rb") as stream:
                head = stream.read(_HEAD)
        else:
            head = source.data[:_HEAD]
    except OSError as exc:
        yield Problem(source.label, f"cannot open: {exc.strerror}")
        return
    if records.detect(head, source.label) != "jsonl":
        yield Unit(source.label, path=source.path, data=source.data)
        return
    try:
        with open(source.path, "rb") if source.path is not None else io.BytesIO(source.data) as stream:
            yield from _pieces(source.label, stream)
    except OSError as exc:
        yield Problem(source.label, f"cannot be read: {exc.strerror}")


def _pieces(label: str, stream) -> Iterator[Unit]:
    """Whole lines of about PIECE_BYTES each; a blank piece after the first is left out (the
    reader would call it an empty file). A line longer than a piece stays whole in one piece
    (the line reader refuses it if it is over its bound)."""
    line, carried, first = 1, b"", True
    while True:
        block = stream.read(PIECE_BYTES)
        data = carried + block
        if not block:
            if data or first:
                yield Unit(label, data=data, jsonl=True, first_line=line, first=first)
            return
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            carried = data
            continue
        piece, carried = data[:cut], data[cut:]
        if first or piece.strip():
            yield Unit(label, data=piece, jsonl=True, first_line=line, first=first)
            first = False
        line += piece.count(b"\n")


def work(unit: Unit) -> Done:
    """A unit's games replayed into rows; each bad game a problem (file, line, ply)."""
    done = Done(unit.label, unit.first)
    secrets: dict[type, bool] = {}  # what each game declares, asked once per unit
    for found in _games(unit):
        if isinstance(found, records.RecordError):
            done.problems.append(str(found))
            continue
        record, states = found
        game_id = len(done.games)
        options = options_text(record)
        done.games.append(game_row(record, game_id, unit.label, game_id, states, options))
        move_rows(record, game_id, states, done.moves)
        texts = _POSITIONS.texts(states, options)
        done.positions["game_id"].extend([game_id] * len(texts))
        done.positions["ply"].extend(range(len(texts)))
        done.positions["position"].extend(texts)
        done.positions["key"].extend(map(_key_of, texts))
        kind = type(states[0].game)
        if kind not in secrets:
            secrets[kind] = has_secrets(states[0])
        if secrets[kind]:
            view_rows(states, game_id, options, _POSITIONS, done.views)
    done.counters = {key: sorted(drop) for key, drop in _POSITIONS.counters.items()}
    return done


def _games(unit: Unit) -> Iterator[tuple[records.Record, list[core.State]] | records.RecordError]:
    for item in _records(unit):
        if isinstance(item, records.RecordError):
            yield item
            continue
        try:
            yield item, item.replay()
        except records.RecordError as exc:
            yield exc.at(source=unit.label, line=item.line)
        except Exception as exc:  # a game's code failing on a record must not stop the import
            yield records.RecordError(
                f"the record could not be replayed ({type(exc).__name__}: {records.one_line(str(exc))})",
                source=unit.label,
                line=item.line,
            )


def _records(unit: Unit) -> Iterator[records.Record | records.RecordError]:
    """A unit's records as `records.read` reads them (format told by content), except that
    JSON Lines are read here without replaying (`work` replays each game once, not twice)."""
    if unit.jsonl:
        data = io.BytesIO(unit.data)
        yield from records.scan_records(data, replay=False, name=unit.label, first_line=unit.first_line)
        return
    try:
        if unit.path is not None:
            found = records.read(unit.path, name=unit.label, errors="collect")
        else:
            found = records.read(data=unit.data, name=unit.label, errors="collect")
    except Exception as exc:  # a reader failing on one file must not stop the import
        yield records.RecordError(
            f"the file could not be read ({type(exc).__name__}: {records.one_line(str(exc))})",
            source=unit.label,
        )
        return
    yield from found.records
    yield from found.errors


def run_units(items: Iterable[Unit | Problem | Skipped], workers: int) -> Iterator[Done | Problem | Skipped]:
    """`work` of every unit, in order, here (workers <= 1) or on `workers` processes, at most
    UNITS_AHEAD units a worker under way (memory stays bounded); problems and skipped files pass
    through in their place. Closing the iterator (an interrupt, a failure) ends the workers;
    a worker that dies (killed, out of memory) is a CollectionError, not a wait for ever."""
    if workers <= 1:
        for item in items:
            yield work(item) if isinstance(item, Unit) else item
        return
    # fork where there is fork: a worker starts in milliseconds with the kernel imported,
    # and the games' modules (which the first record would make each worker import)
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    registry.list_games()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_signals)
    finished = False
    try:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(work, item) if isinstance(item, Unit) else item)
            while len(pending) > UNITS_AHEAD * workers:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
        finished = True
    finally:
        processes = list(getattr(pool, "_processes", {}).values())
        if not finished:  # the import stopped: the workers are killed, not waited for
            for process in processes:
                with contextlib.suppress(Exception):
                    process.kill()
        pool.shutdown(wait=finished, cancel_futures=True)
        for process in processes:  # reaped (a killed process ends at once): none left behind
            with contextlib.suppress(Exception):
                process.join(timeout=5)


def _result(item):
    if not isinstance(item, Future):
        return item
    try:
        return item.result()
    except BrokenProcessPool:
        raise CollectionError(
            "a worker process died (killed, or out of memory?): nothing was imported; "
            "try again with fewer --workers"
        ) from None


def _worker_signals() -> None:
    """Ctrl-C and SIGTERM are the importing process's to handle: it ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
