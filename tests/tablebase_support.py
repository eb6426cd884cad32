"""Compiling the tablebase's numba engine once per test run.

A new machine compiles each engine function the first time it runs (30-50 s for a large one;
about four minutes for all the tests use), and numba keeps the result in its on-disk cache.
Without care both test processes compile the same functions at the same time, and each file
that builds a table pays again. `warm_up` calls everything the tests call, in the shapes they
call it, so that the first process to ask compiles under a lock (conftest's `compiled_tablebase`)
and every later caller, subprocesses included, reads the cache."""

from __future__ import annotations

import numpy as np

from rules_kernel.tablebase import _build, _engine, _solve

# ours: Koropokkuru b1, Kodama a2; theirs: Koropokkuru b4 (not mirror-symmetric)
SMALL_START = (0, _engine.L, 0, _engine.C, 0, 0, 0, 0, 0, 0, _engine.L + _engine.THEM, 0)


def children(board, hands, ix, out, *, nodes=False, flag_catches=False) -> int:
    """engine.children with every argument given, one call shape for all tests: each shape is
    one more numba specialization to compile (30-60 s on a new machine). The builds' own calls
    pass literal flags, which numba compiles apart from any call from Python (plain booleans
    there made the full build 33 % slower: 287 s against 216 s)."""
    work = np.zeros(12, np.int64), np.zeros(6, np.int64)
    return _engine.children(board, hands, ix, out, *work, True, True, nodes, flag_catches)


def predecessors(board, hands, ix, out, *, nodes=False) -> int:
    """engine.predecessors with every argument given (see `children`)."""
    work = np.zeros(12, np.int64), np.zeros(6, np.int64)
    return _engine.predecessors(board, hands, ix, out, *work, nodes)


def warm_up() -> None:
    """Run each engine function the tests run once, on small tables (cheap once compiled)."""
    if not _engine.HAVE_NUMBA:
        return
    _solve.build_table((1, 0, 0), progress=False, start_board=SMALL_START)  # the walk
    _solve.build_table((0, 0, 1), progress=False)  # every position
    _build.build_table((0, 0, 1), progress=False, threads=1)  # the earlier build
    _build.build_table((1, 0, 0), progress=False, threads=2, start_board=SMALL_START)
    _build.reachable_counts(progress=False, material=(1, 0, 0), start_board=SMALL_START)
    ix = _engine.index_tables((2, 2, 2))
    board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
    _engine.unrank(12345, ix, board, hands)
    _engine.unrank_node(123, ix, board, hands)
    out = np.zeros(1024, np.int64)
    children(board, hands, ix, out)
    predecessors(board, hands, ix, out)
    _engine.count_moves(board, hands)
    _engine.can_capture_lion(board)
    _engine.try_status(board)
    _engine.rank(board, hands, ix)
    _engine.node_index(board, hands, ix)
