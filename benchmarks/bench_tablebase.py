"""Yokai 3x4 tablebase speed: build throughput, size on disk and value() latency, each
printed beside a peer measured in the same run.

    python benchmarks/bench_tablebase.py                 # sub-game build + lookups (if built)
    python benchmarks/bench_tablebase.py --full          # also the full build (minutes: see
                                                         # docs/tablebase.md for its figures)

Peers: the build's positions per second against the kernel's own perft leaves per second
(both walk the same move rules); value() against a depth-limited alpha-beta search of the
kernel on the same positions (what a player without the table would run).
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

import numpy as np

import rules_kernel as rk
from rules_kernel.tablebase import Tablebase, TablebaseError
from rules_kernel.tablebase import _engine as engine

GAME = rk.load_game("yokai-3x4")


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def alpha_beta(state, depth: int, alpha: float = -2.0, beta: float = 2.0) -> float:
    """Plain negamax with alpha-beta to `depth` plies: 1 win, -1 loss, 0 unknown or draw."""
    outcome = state.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == state.current_player else -1.0)
    if depth == 0:
        return 0.0
    best = -2.0
    for move in state.legal_moves():
        score = -alpha_beta(state.apply(move), depth - 1, -beta, -alpha)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def positions_from_play(tb: Tablebase, count: int, seed: int) -> list:
    """Positions along games that mix perfect and random moves (all inside the table)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            optimal = tb.optimal_moves(state)
            state = state.apply(
                rng.choice(
                    optimal
                    if rng.random() < 0.6 or engine.can_capture_lion(_board(state))
                    else state.legal_moves()
                )
            )
    return found


def _board(state):
    from rules_kernel.tablebase import normalised

    return normalised(state)[0]


def bench_build(material, perft_depth: int) -> Tablebase:
    with tempfile.TemporaryDirectory() as directory:
        Tablebase.build(material=(0, 0, 1), directory=directory, progress=False)  # compile
        tb, seconds = timed(Tablebase.build, material=material, directory=directory, progress=False)
        size = os.path.getsize(tb.path)
    positions = tb.counts()["solved"]["positions"]
    leaves, perft_seconds = timed(rk.perft, GAME.initial_state(), perft_depth)
    ours, peer = positions / seconds, leaves / perft_seconds
    nodes = tb.counts()["nodes"]
    print(
        f"build of the sub-game {material} (Kodama, Kitsune, Tanuki): {positions:,} positions "
        f"({nodes:,} nodes of the folded index) in {seconds:.1f} s = {ours:,.0f} positions/s, "
        f"{size / 1e6:.1f} MB on disk; phases {tb.meta['timings']} s"
    )
    print(
        f"kernel perft {perft_depth}: {leaves:,} leaves in {perft_seconds:.1f} s = {peer:,.0f} "
        f"leaves/s; ratio {ours / peer:.1f} (table positions solved per perft leaf)"
    )
    return tb


def sub_game_positions(tb: Tablebase, count: int, seed: int) -> list:
    """Random positions of a sub-game table (the full table is not built)."""
    from rules_kernel.tablebase import position_text

    rng = random.Random(seed)
    size = engine.table_size(tb.ix)
    board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
    found = []
    while len(found) < count:
        engine.unrank(rng.randrange(size), tb.ix, board, hands)
        state = GAME.from_text(position_text(board, hands))
        if not state.is_terminal():
            found.append(state)
    return found


def bench_lookups(count: int, depth: int, sub_game: Tablebase) -> None:
    try:
        tb, open_seconds = timed(Tablebase.open, "yokai-3x4")
    except TablebaseError as exc:
        print(f"full table: not built ({exc.__class__.__name__}); lookups on the sub-game table")
        tb = sub_game
        positions = sub_game_positions(tb, count, seed=1)
    else:
        print(
            f"open: {open_seconds:.1f} s; {os.path.getsize(tb.path) / 1e6:,.1f} MB on disk, "
            f"{tb.nbytes / 1e6:,.0f} MB in memory"
        )
        positions = positions_from_play(tb, count, seed=1)
    _, lookup_seconds = timed(lambda: [tb.value(s) for s in positions])
    _, search_seconds = timed(lambda: [alpha_beta(s, depth) for s in positions])
    per_value = lookup_seconds / len(positions) * 1e3
    per_search = search_seconds / len(positions) * 1e3
    print(f"value(): {per_value:.3f} ms per position ({len(positions)} positions from play)")
    print(
        f"alpha-beta to depth {depth} on the same positions: {per_search:.2f} ms; "
        f"ratio {per_search / per_value:,.0f}x slower, and it only sees {depth} plies"
    )
    _, best_seconds = timed(lambda: [tb.best_moves(s) for s in positions[:200]])
    print(f"best_moves(): {best_seconds / min(200, len(positions)) * 1e3:.2f} ms per position")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--material", default="111", help="sub-game material (3 digits 0..2)")
    parser.add_argument("--perft-depth", type=int, default=6)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=4, help="alpha-beta depth of the peer")
    parser.add_argument("--full", action="store_true", help="also build the full table")
    args = parser.parse_args()
    print(f"numba: {engine.HAVE_NUMBA}")
    sub_game = bench_build(tuple(int(c) for c in args.material), args.perft_depth)
    if args.full:
        load = os.getloadavg()[0]
        tb, seconds = timed(Tablebase.build, "yokai-3x4")
        print(
            f"full build: {seconds / 60:.1f} min (target <= 30), "
            f"{os.path.getsize(tb.path) / 1e6:,.1f} MB; phases {tb.meta['timings']} s; "
            f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
        )
        folded = tb.counts()["folded"]["non_terminal"]
        print(
            f"non-terminal, a position and its mirror image once: {folded['positions']:,} "
            f"({folded['wins']:,} wins, {folded['draws']:,} draws, {folded['losses']:,} "
            f"losses); Tanaka (2009): 99,485,568 (56,474,473, 2,682,700, 40,328,395)"
        )
    bench_lookups(args.positions, args.depth, sub_game)


if __name__ == "__main__":
    main()
