"""The build: initialise, retrograde levels, forward reachability, counts (with progress bars).

The passes walk the index in chunks so that tqdm can show progress; the first pass runs its
chunks on `threads` threads (numba releases the GIL; each chunk writes only its own range).
The retrograde and reachability passes write to other positions' entries and so run on one
thread.
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from tqdm.auto import tqdm

from rules_kernel.tablebase import _engine as engine

CHUNK = 1 << 22
BUFFER = 1 << 22  # predecessors gathered per hand-over
FULL_MATERIAL = (2, 2, 2)
# The start position of yokai-3x4 in the engine's frame (first player to move):
# Kitsune a1, Koropokkuru b1, Tanuki c1, Kodama b2; theirs mirrored on ranks 4 and 3.
START_BOARD = (engine.E, engine.L, engine.G, 0, engine.C, 0,
               0, engine.C + engine.THEM, 0, engine.G + engine.THEM, engine.L + engine.THEM,
               engine.E + engine.THEM)


def _chunks(size: int) -> list[tuple[int, int]]:
    return [(start, min(size, start + CHUNK)) for start in range(0, size, CHUNK)]


def build_table(material: tuple[int, int, int], progress: bool = True,
                threads: int = 2) -> tuple[np.ndarray, dict]:
    """Solve the sub-game with this material; returns the values (uint16 codes, one per
    index) and the build's figures."""
    ix = engine.index_tables(material)
    size = engine.table_size(ix)
    timings = {}
    started = time.perf_counter()
    flags = _reachability(ix, material, size, progress, threads)
    timings["reachability"] = time.perf_counter() - started
    values = np.zeros(size, np.uint16)
    counters = np.zeros(size, np.uint8)
    started = time.perf_counter()
    stuck = _initialise(ix, values, counters, flags, threads, progress)
    timings["initialise"] = time.perf_counter() - started
    started = time.perf_counter()
    levels = _retrograde(ix, values, counters, flags, progress, threads)
    timings["retrograde"] = time.perf_counter() - started
    del counters
    # what no level decided is a draw: play can go round forever (or the try-draw)
    values[(values == 0) & (flags & engine.REACHED != 0)] = engine.DRAW
    meta = {
        "material": list(material),
        "numba": engine.HAVE_NUMBA,
        "levels": levels,
        "timings": {name: round(seconds, 1) for name, seconds in timings.items()},
        "counts": _counts(values, flags, stuck, material),
    }
    return values, meta


def _initialise(ix, values, counters, flags, threads: int, progress: bool) -> int:
    chunks = _chunks(values.size)
    bar = tqdm(total=values.size, desc="terminal positions and moves", unit="pos",
               unit_scale=True, disable=not progress)
    stuck = 0

    def run(chunk):
        return engine.initialise(ix, values, counters, flags, *chunk), chunk

    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for found, (start, stop) in pool.map(run, chunks):
            stuck += int(found)
            bar.update(stop - start)
    bar.close()
    return stuck


def _retrograde(ix, values, counters, flags, progress: bool, threads: int = 2) -> int:
    """Level by level: positions decided in d plies decide their predecessors in d + 1."""
    chunks = _chunks(values.size)
    bar = tqdm(desc="retrograde levels", unit="level", disable=not progress)
    buffers = [np.zeros(BUFFER, np.int64) for _ in range(threads + 1)]
    level = 0
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        while True:
            if 2 * level + 4 >= engine.DRAW:
                raise OverflowError("distances beyond the value codes")
            decided = _retrograde_level(pool, ix, values, counters, flags, level, chunks, buffers)
            level += 1
            bar.update(1)
            bar.set_postfix(plies=level, decided=decided)
            # levels 1 and 2 also get values from the first pass (wins and losses in one move)
            if level > 2 and decided == 0 and not any(
                    engine.count_level(values, level, start, stop) for start, stop in chunks):
                break
    bar.close()
    return level


def _retrograde_level(pool, ix, values, counters, flags, level, chunks, buffers) -> int:
    """Threads gather predecessors chunk by chunk; this thread applies them in turn."""
    tasks = deque(chunks)
    free = list(buffers)
    running = deque()
    decided = 0
    while tasks or running:
        while tasks and free:
            start, stop = tasks.popleft()
            buffer = free.pop()
            future = pool.submit(engine.gather_predecessors, ix, values, flags, level, start, stop,
                                 buffer)
            running.append((future, buffer, stop))
        future, buffer, stop = running.popleft()
        resume, count = future.result()
        decided += engine.apply_predecessors(values, counters, buffer, count, level)
        free.append(buffer)
        if resume < stop:
            tasks.appendleft((resume, stop))
    return decided


def reachable_counts(far_rank_kodama_drops: bool = True, flip_ranks: bool = False,
                     tablebase=None, threads: int = 2, progress: bool = True) -> dict:
    """Positions reached from the start and those expanded (not decided on the spot), without
    solving; with a solved `tablebase`, also the win/draw/loss split of the expanded ones.
    The options are not the kernel's rules; they reproduce other solvers' conventions for
    comparing counts (docs/tablebase.md): far_rank_kodama_drops=False forbids Kodama drops
    on the far rank; flip_ranks=True normalises the side to move by flipping the ranks
    instead of turning the board."""
    ix = engine.index_tables(FULL_MATERIAL)
    flags = _reachability(ix, FULL_MATERIAL, engine.table_size(ix), progress, threads,
                          far_rank_kodama_drops, flip_ranks)
    chunks = _chunks(flags.size)
    counts = {
        "positions": sum(int(np.count_nonzero(flags[a:b] & engine.REACHED)) for a, b in chunks),
        "non_terminal": sum(int(np.count_nonzero(flags[a:b] & engine.EXPANDED)) for a, b in chunks),
    }
    if tablebase is not None:
        out = np.zeros(4, np.int64)
        stored = tablebase._values
        draw_from = 254 if stored.dtype == np.uint8 else engine.DRAW
        for a, b in chunks:
            engine.tally_stored(ix, flags, engine.EXPANDED, stored, tablebase._slot, draw_from,
                                a, b, out)
        counts.update(zip(("wins", "draws", "losses", "unsolved"), (int(n) for n in out),
                          strict=True))
    return counts


def _reachability(ix, material, size: int, progress: bool, threads: int,
                  far_rank_kodama_drops: bool = True, flip_ranks: bool = False) -> np.ndarray:
    """Which positions the table solves. The whole game: the positions reached from the
    start in the graph where a game ends as soon as a Koropokkuru can be taken or a try is
    made (docs/tablebase.md). A sub-game (no start position): every position."""
    if tuple(material) != FULL_MATERIAL:
        return np.full(size, engine.REACHED | engine.EXPANDED, np.uint8)
    flags = np.zeros(size, np.uint8)
    board = np.array(START_BOARD, np.int64)
    hands = np.zeros(6, np.int64)
    flags[engine.rank(board, hands, ix)] = engine.REACHED | engine.PENDING
    chunks = _chunks(size)
    bar = tqdm(desc="positions reached from the start", unit="pos", unit_scale=True,
               disable=not progress)
    # Threads sweep disjoint ranges: a thread only sets bits on positions not reached yet, to
    # the same value whoever sets them, and clears bits only in its own range.
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        while True:
            taken = 0
            for found in pool.map(lambda chunk: engine.reach_sweep(
                    ix, flags, *chunk, far_rank_kodama_drops, flip_ranks), chunks):
                bar.update(found)
                taken += found
            if taken == 0:
                break
    bar.close()
    return flags


_FIELDS = ("positions", "terminal_wins", "terminal_losses", "terminal_draws", "wins", "draws",
           "losses", "wins_in_one", "longest")


def _tally(values, flags, mask) -> dict:
    out = np.zeros(len(_FIELDS), np.int64)
    for start, stop in _chunks(values.size):
        engine.tally(values, flags, mask, start, stop, out)
    counts = dict(zip(_FIELDS, (int(n) for n in out), strict=True))
    counts["longest"] = (counts["longest"] - 1) // 2 if counts["longest"] else 0
    counts["non_terminal"] = counts["wins"] + counts["draws"] + counts["losses"]
    return counts


def _counts(values, flags, stuck: int, material) -> dict:
    """`solved`: every position with a value; `non_terminal`: those where play goes on
    (no try made, no Koropokkuru to take: Tanaka's non-terminal positions)."""
    return {
        "index_size": int(values.size),
        "solved": _tally(values, flags, engine.REACHED),
        "non_terminal": _tally(values, flags, engine.EXPANDED),
        "positions_without_moves": stuck,
        "from_start": tuple(material) == FULL_MATERIAL,
    }
