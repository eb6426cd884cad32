"""The compact build (the default since issue 44): the walk from the start marks the nodes it
reaches in a bitset, the values live only for those (`_engine`'s compact build section), the
retrograde levels update them in place with atomic instructions on all threads, and the file
is written straight from them, chunk by chunk. For the whole game: 1,126 MiB resident at the
peak against the earlier build's 2,225 MiB, the same values (docs/tablebase.md, "Figures").

The earlier build (`_build.build_table`: a uint16 value and a flags byte for every node of the
folded index) stays as the reference the tests compare this one with.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

import rules_kernel.tablebase._engine as engine
from rules_kernel.tablebase._build import FULL_MATERIAL, START_BOARD, _in_tasks, _named, _threads

WORDS_PER_TASK = 1 << 15  # bitset words (64 nodes each) per task of a pass over the table
BUFFER = 1 << 20  # entries a task may write before it hands its buffer over
FILE_STEP = 1 << 22  # nodes per step when the file is written (a multiple of 64)
# zlib level 1: the whole table written in 15 s (137.3 MB); the earlier build's default level
# 6 gave 94.5 MB in about 44 s of saving (docs/tablebase.md, "Figures")
COMPRESSION_LEVEL = 1


@dataclass
class Solved:
    """A solved sub-game: the bitset of the nodes it solves, the running counts of its words
    and their values in node order (`_engine.dense_of`); `meta` has the counts and timings."""

    ix: np.ndarray
    size: int  # nodes of the folded index
    bits: np.ndarray
    prefix: np.ndarray
    values: np.ndarray
    meta: dict
    largest_code: int  # the largest value code below the draws

    def chunks(self, step: int = FILE_STEP) -> Iterator[np.ndarray]:
        """The file's layout (a uint16 code per node, 0 outside the solved set), step nodes
        at a time (one buffer, reused: copy what you keep)."""
        buffer = np.zeros(min(step, self.size), np.uint16)
        for start in range(0, self.size, step):
            out = buffer[: min(step, self.size - start)]
            engine.scatter_dense(self.bits, self.prefix, self.values, start, out)
            yield out

    def full_values(self) -> np.ndarray:
        """The whole layout in one array (for tests and small sub-games)."""
        return np.concatenate([chunk.copy() for chunk in self.chunks()])


def build_table(
    material: tuple[int, int, int], progress: bool = True, threads: int = 2, start_board=None
) -> tuple[np.ndarray, dict]:
    """`_build.build_table`'s answer (the whole layout in memory, and the figures) from the
    compact build: for tests and small sub-games."""
    solved = solve(material, progress, threads, start_board)
    return solved.full_values(), solved.meta


def solve(
    material: tuple[int, int, int], progress: bool = True, threads: int = 2, start_board=None
) -> Solved:
    """Solve the sub-game with this material (the whole game: the positions reached from its
    start; a sub-game: every position, or with `start_board`, 12 engine codes, those reached
    from there)."""
    if not engine.HAVE_NUMBA:
        threads = 1  # pure Python: the GIL runs one thread anyway, and the atomics are plain
    ix = engine.index_tables(material)
    size = engine.node_count(ix)
    bits = np.zeros(engine.bitset_words(size), np.uint64)
    prefix = np.zeros(bits.size, np.uint32)
    timings = {}
    if tuple(material) == FULL_MATERIAL:
        start_board = START_BOARD
    with _threads(threads) as pool:
        started = time.perf_counter()
        if start_board is not None:
            walk(pool, ix, bits, threads, progress, start_board=start_board)
        else:  # a sub-game without a start position: every position is in the table
            engine.mark_all(bits, size)
        total = int(engine.count_prefix(bits, prefix))
        values = np.zeros(total, np.uint16)
        catches = sum(_over_words(pool, bits.size, lambda a, b: _classify(ix, bits, prefix, values, a, b)))
        timings["walk"] = time.perf_counter() - started
        started = time.perf_counter()
        levels = _retrograde(pool, ix, bits, prefix, values, threads, progress)
        timings["retrograde"] = time.perf_counter() - started
        started = time.perf_counter()
        stuck = sum(
            _over_words(pool, bits.size, lambda a, b: engine.finish_dense(ix, bits, prefix, values, a, b))
        )
        out = np.zeros((2, 2, 9), np.int64)
        for part in _over_words(pool, bits.size, lambda a, b: _tally(ix, bits, prefix, values, a, b)):
            out[:, :, :8] += part[:, :, :8]
            out[:, :, 8] = np.maximum(out[:, :, 8], part[:, :, 8])
        for field in (0, 4, 7):  # a Koropokkuru to take: a win in 1, not expanded
            out[1, :, field] -= catches
        counts = _counts(out, ix, size, int(stuck))
        timings["counts"] = time.perf_counter() - started
    counts["from_start"] = start_board is not None
    meta = {
        "material": list(material),
        "numba": engine.HAVE_NUMBA,
        "levels": levels,
        "timings": {name: round(seconds, 1) for name, seconds in timings.items()},
        "counts": counts,
    }
    return Solved(ix, size, bits, prefix, values, meta, int(out[0, 0, 8]))


def _counts(out: np.ndarray, ix, size: int, stuck: int) -> dict:
    """`_build._counts` from the tallies: `solved`, `non_terminal` and both `folded`."""
    counts = {"index_size": engine.table_size(ix), "nodes": size}
    folded = {}
    for m, name in enumerate(("solved", "non_terminal")):
        twice = out[m, 0] + out[m, 1]
        assert not (twice[:-1] % 2).any(), "a FOLDED node stands for two positions"
        counts[name] = _named(out[m, 0], out[m, 0, -1])
        folded[name] = _named(twice // 2, out[m, 0, -1])
    counts.update(positions_without_moves=stuck, folded=folded)
    return counts


def _classify(ix, bits, prefix, values, first_word: int, stop_word: int) -> np.ndarray:
    catches = np.zeros(2, np.int64)
    engine.classify_dense(ix, bits, prefix, values, first_word, stop_word, catches)
    return catches


def _tally(ix, bits, prefix, values, first_word: int, stop_word: int) -> np.ndarray:
    out = np.zeros((2, 2, 9), np.int64)
    engine.tally_dense(ix, bits, prefix, values, first_word, stop_word, out)
    return out


def _over_words(pool, words: int, work: Callable[[int, int], object]) -> list:
    """work(first_word, stop_word) over the bitset in tasks on the pool; their results.
    First on this thread with nothing to do: numba compiles a function at its first call
    (a minute on a fresh machine), and an interrupted build waits for its threads' running
    tasks, so a first call on a pool thread would hold Ctrl-C up for the whole compile; on
    this thread the interrupt comes between two steps of the compiler."""
    work(0, 0)
    return list(pool.map(lambda a: work(a, min(words, a + WORDS_PER_TASK)), range(0, words, WORDS_PER_TASK)))


def walk(
    pool, ix, bits, threads: int, progress: bool, far_rank_kodama_drops: bool = True, start_board=START_BOARD
) -> None:
    """Mark in `bits` the nodes reached from the start in the graph where a game ends as
    soon as a Koropokkuru can be taken or a try is made (docs/tablebase.md): passes over the
    bitset, each taking the nodes reached and not yet taken in node order
    (`_engine.walk_words`), until a pass finds none. Beside each word of the bitset, a word
    of the nodes taken: no frontier lists (they held up to 500 MB), and nodes taken in node
    order keep their children's bits close together."""
    board = np.array(start_board, np.int64)
    start = int(engine.node_index(board, np.zeros(6, np.int64), ix))
    marks = np.zeros(2 * bits.size, np.uint64)  # word w: reached at 2w, taken at 2w + 1
    marks[2 * (start >> 6)] |= np.uint64(1) << np.uint64(start & 63)
    del threads  # the pool decides: one task per WORDS_PER_TASK words
    # `with`: an interrupt closes the bar at once (its line ended)
    with tqdm(
        desc="positions reached from the start", unit="node", unit_scale=True, disable=not progress
    ) as bar:
        engine.walk_words(ix, marks, 0, 0, far_rank_kodama_drops)  # compiled here: see _over_words
        while True:
            found = 0
            for count in pool.map(
                lambda first: engine.walk_words(
                    ix, marks, first, min(bits.size, first + WORDS_PER_TASK), far_rank_kodama_drops
                ),
                range(0, bits.size, WORDS_PER_TASK),
            ):
                found += count
                bar.update(count)
            if not found:
                break
    bits[:] = marks[0::2]


def _retrograde(pool, ix, bits, prefix, values, threads: int, progress: bool) -> int:
    """Level by level: the nodes decided in d plies decide their predecessors in d + 1, all
    threads writing the values at once. Returns the number of levels."""
    pending: dict[int, list[np.ndarray]] = {}
    for level, codes in ((0, (1, 2)), (2, (6,))):  # tries; every move hangs the Koropokkuru
        codes = np.array(codes, np.uint16)
        out = np.zeros(64 * WORDS_PER_TASK, np.uint32)
        for first in range(0, bits.size, WORDS_PER_TASK):
            n = engine.collect_dense(
                bits, prefix, values, first, min(bits.size, first + WORDS_PER_TASK), codes, out
            )
            if n:
                pending.setdefault(level, []).append(out[:n].copy())
    buffers = [np.zeros(BUFFER, np.int64) for _ in range(threads + 1)]
    with tqdm(desc="retrograde levels", unit="level", disable=not progress) as bar:
        return _levels(pool, ix, bits, prefix, values, pending, buffers, bar)


def _levels(pool, ix, bits, prefix, values, pending, buffers, bar) -> int:
    """The retrograde loop, level after level, until no level is pending."""
    # compiled on this thread, as in _over_words
    engine.retrograde_nodes(ix, bits, prefix, values, np.zeros(0, np.uint32), 0, 0, 0, buffers[0])
    level = 0
    while True:
        if 2 * level + 4 >= engine.UNDECIDED:
            raise OverflowError("distances beyond the value codes")
        nodes = np.concatenate(pending.pop(level, [np.zeros(0, np.uint32)]))
        # in node order: the predecessors of nodes close together lie close together (their
        # bits, counts and values stay in the cache): the retrograde step of the whole game
        # took 150 s in the order the level was found, 111 s sorted (docs/tablebase.md)
        nodes.sort()

        def work(start, stop, buffer, nodes=nodes, level=level):
            return engine.retrograde_nodes(ix, bits, prefix, values, nodes, start, stop, level, buffer)

        _in_tasks(pool, work, nodes.size, buffers, lambda buffer, count: _file(pending, buffer[:count]))
        level += 1
        bar.update(1)
        bar.set_postfix(plies=level, nodes=nodes.size)
        # levels 1 and 2 may be empty before others (wins and losses by one move)
        if level > 2 and level not in pending:
            return level


def _file(pending: dict[int, list[np.ndarray]], entries: np.ndarray) -> None:
    """Put decided nodes (node | level << 32) on the list of their level."""
    if entries.size == 0:
        return
    levels = entries >> 32
    nodes = (entries & 0xFFFFFFFF).astype(np.uint32)
    first = int(levels[0])
    if (levels == first).all():  # the usual case: all of them at the next level
        pending.setdefault(first, []).append(nodes)
        return
    for level in np.unique(levels).tolist():
        pending.setdefault(level, []).append(nodes[levels == level])


# -- writing the table --


def write_table(solved: Solved, meta: dict, table: Path, values: Path | None, dtype) -> None:
    """Write the table file (numpy's .npz: `values.npy` and `meta.npy`, what np.load and the
    readers of format 1 read) and, if `values` is given, its unpacked values (what
    `Tablebase.open` maps), both streamed from the compact build chunk by chunk, under
    partial names, then renamed: the unpacked file last and newer than the table."""
    dtype = np.dtype(dtype)
    partial = table.with_name(table.name + ".partial.npz")
    unpacked = None if values is None else values.with_name(f"{values.stem}.{os.getpid()}.partial.npy")
    header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": (solved.size,)}
    try:
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=COMPRESSION_LEVEL) as archive:
            with archive.open("values.npy", "w", force_zip64=True) as member:
                raw = open(unpacked, "wb") if unpacked is not None else None  # noqa: SIM115
                try:
                    for stream in (member, raw):
                        if stream is not None:
                            np.lib.format.write_array_header_1_0(stream, header)
                    for chunk in solved.chunks():
                        data = memoryview(_narrowed(chunk, dtype))
                        member.write(data)
                        if raw is not None:
                            raw.write(data)
                finally:
                    if raw is not None:
                        raw.close()
            with archive.open("meta.npy", "w") as member:
                np.lib.format.write_array(member, np.array(json.dumps(meta)), allow_pickle=False)
        if values is not None:
            values.unlink(missing_ok=True)
        partial.replace(table)
        if unpacked is not None:
            os.utime(unpacked)  # newer than the table: current (`_table._unpacked_current`)
            unpacked.replace(values)
    finally:
        partial.unlink(missing_ok=True)
        if unpacked is not None:
            unpacked.unlink(missing_ok=True)


def file_dtype(solved: Solved) -> np.dtype:
    """uint8 when every distance fits below its draw codes (254, 255), else uint16 (the whole
    game: its longest distance is 173 plies, code 348)."""
    return np.dtype(np.uint8 if solved.largest_code < 254 else np.uint16)


def _narrowed(chunk: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype == np.uint16:
        return chunk
    narrow = chunk.astype(np.uint8)
    narrow[chunk == engine.DRAW] = 254
    narrow[chunk == engine.DRAW_TERMINAL] = 255
    return narrow
