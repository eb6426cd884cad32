"""The build: the walk from the start, the retrograde levels, the counts (with progress bars).

Everything runs on the folded index (`_engine`: a position and its mirror image share a
node), the layout the file stores, so the build does half the work of the plain index and
its values array is the table itself.

Threads: numba releases the GIL, so the engine's loops run on `threads` worker threads over
chunks of a list of nodes; each chunk writes what it found to its own buffer, and this thread
takes the buffers in order (the walk's next frontier; the retrograde step's writing half).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tqdm.auto import tqdm

from rules_kernel.tablebase import _engine as engine

CHUNK = 1 << 22  # nodes per chunk of a sequential pass over the whole index
LIST_CHUNK = 1 << 13  # nodes of a frontier or level list per task
BUFFER = 1 << 21  # entries a task may write before it hands its buffer over
FULL_MATERIAL = (2, 2, 2)
# The start position of yokai-3x4 in the engine's frame (first player to move):
# Kitsune a1, Koropokkuru b1, Tanuki c1, Kodama b2; theirs mirrored on ranks 4 and 3.
START_BOARD = (
    engine.E,
    engine.L,
    engine.G,
    0,
    engine.C,
    0,
    0,
    engine.C + engine.THEM,
    0,
    engine.G + engine.THEM,
    engine.L + engine.THEM,
    engine.E + engine.THEM,
)


def _chunks(size: int) -> list[tuple[int, int]]:
    return [(start, min(size, start + CHUNK)) for start in range(0, size, CHUNK)]


def build_table(
    material: tuple[int, int, int], progress: bool = True, threads: int = 2, start_board=None
) -> tuple[np.ndarray, dict]:
    """Solve the sub-game with this material; returns the values (uint16 codes, one per node
    of the folded index: the file's layout) and the build's figures. The whole game solves
    the positions reached from its start; a sub-game every position, or with `start_board`
    (12 engine codes, for tests) those reached from there."""
    ix = engine.index_tables(material)
    size = engine.node_count(ix)
    values = np.zeros(size, np.uint16)
    flags = np.zeros(size, np.uint8)
    timings = {}
    with _threads(threads) as pool:
        started = time.perf_counter()
        if tuple(material) == FULL_MATERIAL:
            start_board = START_BOARD
        if start_board is not None:
            _walk(pool, ix, values, flags, threads, progress, start_board=start_board)
        else:  # a sub-game without a start position: every position is in the table
            _visit_all(pool, ix, values, flags, progress)
        timings["walk"] = time.perf_counter() - started
        started = time.perf_counter()
        levels = _retrograde(pool, ix, values, threads, progress)
        timings["retrograde"] = time.perf_counter() - started
    started = time.perf_counter()
    stuck = sum(engine.finish(ix, values, flags, *chunk) for chunk in _chunks(size))
    counts = _counts(ix, values, flags, int(stuck))
    timings["counts"] = time.perf_counter() - started
    meta = {
        "material": list(material),
        "numba": engine.HAVE_NUMBA,
        "levels": levels,
        "timings": {name: round(seconds, 1) for name, seconds in timings.items()},
        "counts": counts,
    }
    counts["from_start"] = start_board is not None
    return values, meta


@contextlib.contextmanager
def _threads(threads: int) -> Iterator[ThreadPoolExecutor]:
    """The build's worker threads. Left by an exception (Ctrl-C, SIGTERM), the tasks not yet
    started are dropped and the running ones (one chunk each, milliseconds) are waited for,
    so the build's threads have stopped writing before its caller removes the files."""
    pool = ThreadPoolExecutor(max_workers=max(1, threads))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _in_tasks(
    pool, work: Callable, size: int, buffers: list[np.ndarray], take: Callable[[np.ndarray, int], None]
) -> None:
    """Run work(start, stop, buffer) -> (resume, count) over [0, size) in chunks of
    LIST_CHUNK on the pool, one task per free buffer, and take(buffer, count) each result on
    this thread, in order; a task that stopped early (its buffer full) goes on from `resume`."""
    tasks = deque((start, min(size, start + LIST_CHUNK)) for start in range(0, size, LIST_CHUNK))
    free = list(buffers)
    running = deque()
    while tasks or running:
        while tasks and free:
            start, stop = tasks.popleft()
            buffer = free.pop()
            running.append((pool.submit(work, start, stop, buffer), buffer, stop))
        future, buffer, stop = running.popleft()
        resume, count = future.result()
        take(buffer, count)
        free.append(buffer)
        if resume < stop:
            tasks.appendleft((resume, stop))


def _visit_all(pool, ix, values, flags, progress: bool) -> None:
    def visit(chunk):
        engine.visit_all(ix, values, flags, *chunk)
        return chunk[1] - chunk[0]

    # `with`: an interrupt closes the bar at once (its line ended), not at some later collection
    with tqdm(total=values.size, desc="positions", unit="pos", unit_scale=True, disable=not progress) as bar:
        for done in pool.map(visit, _chunks(values.size)):
            bar.update(done)


def _walk(
    pool,
    ix,
    values,
    flags,
    threads: int,
    progress: bool,
    far_rank_kodama_drops: bool = True,
    start_board=START_BOARD,
) -> None:
    """Which positions the table solves: those reached from the start in the graph where a
    game ends as soon as a Koropokkuru can be taken or a try is made (docs/tablebase.md),
    breadth first, one frontier (a list of nodes) at a time. The walk visits each node it
    reaches once: it classifies it (try, Koropokkuru to take, or its move counter) on the way."""
    board = np.array(start_board, np.int64)
    start = engine.node_index(board, np.zeros(6, np.int64), ix)
    flags[start] = engine.REACHED
    frontier = np.array([start], np.uint32)
    buffers = [np.zeros(BUFFER, np.uint32) for _ in range(threads + 1)]
    with tqdm(
        desc="positions reached from the start", unit="node", unit_scale=True, disable=not progress
    ) as bar:
        while frontier.size:
            bar.update(frontier.size)
            found = []

            def work(start, stop, buffer, frontier=frontier):
                return engine.expand(ix, values, flags, frontier, start, stop, buffer, far_rank_kodama_drops)

            _in_tasks(
                pool,
                work,
                frontier.size,
                buffers,
                lambda buffer, count, found=found: found.append(buffer[:count].copy()),
            )
            frontier = np.concatenate(found) if found else np.zeros(0, np.uint32)


def _retrograde(pool, ix, values, threads: int, progress: bool) -> int:
    """Level by level: the nodes decided in d plies decide their predecessors in d + 1.
    Each level is a list of nodes (no pass over the whole index). Returns the number of
    levels."""
    pending: dict[int, list[np.ndarray]] = {}
    out = np.zeros(CHUNK, np.uint32)
    for start, stop in _chunks(values.size):
        _file(pending, values, out[: engine.collect_decided(values, start, stop, out)].copy())
    buffers = [np.zeros(BUFFER, np.int64) for _ in range(threads + 1)]
    decided_buffer = np.zeros(BUFFER, np.uint32)
    with tqdm(desc="retrograde levels", unit="level", disable=not progress) as bar:
        return _levels(pool, ix, values, pending, buffers, decided_buffer, bar)


def _levels(pool, ix, values, pending, buffers, decided_buffer, bar) -> int:
    """The retrograde loop, level after level, until no level is pending."""
    level = 0
    while True:
        if 2 * level + 4 >= engine.UNDECIDED:
            raise OverflowError("distances beyond the value codes")
        nodes = np.concatenate(pending.pop(level, [np.zeros(0, np.uint32)]))
        decided = []

        def work(start, stop, buffer, nodes=nodes, level=level):
            return engine.gather(ix, values, nodes, start, stop, level, buffer)

        def take(buffer, count, level=level, decided=decided):
            n = engine.apply(values, buffer, count, level, decided_buffer)
            decided.append(decided_buffer[:n].copy())

        _in_tasks(pool, work, nodes.size, buffers, take)
        for found in decided:
            _file(pending, values, found)
        level += 1
        bar.update(1)
        bar.set_postfix(plies=level, nodes=nodes.size)
        # levels 1 and 2 may be empty before others (wins and losses by one move)
        if level > 2 and level not in pending:
            break
    return level


def _file(pending: dict[int, list[np.ndarray]], values: np.ndarray, nodes: np.ndarray) -> None:
    """Put decided nodes on the list of their level (value 2d + 1 or 2d + 2: level d)."""
    if nodes.size == 0:
        return
    levels = (values[nodes].astype(np.int64) - 1) >> 1
    for level in np.unique(levels).tolist():
        pending.setdefault(level, []).append(nodes[levels == level])


def reachable_counts(
    far_rank_kodama_drops: bool = True,
    threads: int = 2,
    progress: bool = True,
    material=FULL_MATERIAL,
    start_board=START_BOARD,
) -> dict:
    """Positions reached from the start and those expanded (not decided on the spot), without
    solving, in both conventions (`positions` and, a position and its mirror image counted
    once, `folded`). far_rank_kodama_drops=False forbids Kodama drops on the far rank: not
    the kernel's rule, another solver's convention, for comparing counts (docs/tablebase.md).
    `material` and `start_board` are for tests."""
    ix = engine.index_tables(material)
    size = engine.node_count(ix)
    values = np.zeros(size, np.uint16)
    flags = np.zeros(size, np.uint8)
    with _threads(threads) as pool:
        _walk(pool, ix, values, flags, threads, progress, far_rank_kodama_drops, start_board)
    counts = _counts(ix, values, flags, 0)
    return {
        name: {"positions": counts[name]["positions"], "folded": counts["folded"][name]["positions"]}
        for name in ("solved", "non_terminal")
    }


_FIELDS = (
    "positions",
    "terminal_wins",
    "terminal_losses",
    "terminal_draws",
    "wins",
    "draws",
    "losses",
    "wins_in_one",
    "longest",
)


def _counts(ix, values, flags, stuck: int) -> dict:
    """`solved`: every position with a value; `non_terminal`: those where play goes on (no
    try made, no Koropokkuru to take: Tanaka's non-terminal positions); `folded`: both with a
    position and its mirror image counted once (Tanaka's convention)."""
    out = np.zeros((2, 2, len(_FIELDS)), np.int64)
    for start, stop in _chunks(values.size):
        engine.tally(ix, values, flags, start, stop, out)
    counts = {"index_size": engine.table_size(ix), "nodes": int(values.size)}
    folded = {}
    for m, name in enumerate(("solved", "non_terminal")):
        plain = _named(out[m, 0], out[m, 0, -1])
        twice = out[m, 0] + out[m, 1]
        assert not (twice[:-1] % 2).any(), "a FOLDED node stands for two positions"
        counts[name] = plain
        folded[name] = _named(twice // 2, out[m, 0, -1])
    counts.update(positions_without_moves=stuck, folded=folded)
    return counts


def _named(row: np.ndarray, largest_code: int) -> dict:
    counts = dict(zip(_FIELDS, (int(n) for n in row), strict=True))
    counts["longest"] = (int(largest_code) - 1) // 2 if largest_code else 0
    counts["non_terminal"] = counts["wins"] + counts["draws"] + counts["losses"]
    return counts
