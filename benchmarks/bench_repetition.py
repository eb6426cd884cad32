"""Repetition bookkeeping over a long Yōkai no Mori game: time per ply and memory kept by the
final state, for 1,000, 5,000 and 10,000 plies, beside the old way measured in the same run.

    python benchmarks/bench_repetition.py [--plies 1000 5000 10000] [--game yokai-5x6]

The old kernel (before issue 14) linked every state to its parent's history and, at every ply,
walked the whole chain to count the current position: O(n) per ply, O(n^2) per game, and the
newest state kept every earlier position alive. Its walk is kept here as the peer. The kernel
now keeps a persistent count map (rules_kernel/persistent.py): one insertion per ply (a few
small tuples copied, depth log32 n) and no parent chain.

The game: uniformly random legal moves that do not end the game, with `repetitions` set so
high that no repetition draw stops it (5x6 has no try, so it rarely ends by itself).
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

import rules_kernel as rk
from rules_kernel.persistent import Counts


def long_line(game: rk.Game, plies: int, seed: int = 1) -> list:
    """Moves of a game that goes on for `plies` plies (a random move that does not end it)."""
    rng = random.Random(seed)
    state, moves = game.initial_state(), []
    while len(moves) < plies:
        candidates = state.legal_moves()
        rng.shuffle(candidates)
        for move in candidates:
            after = state.apply(move)
            if not after.is_terminal():
                break
        else:
            raise SystemExit(f"seed {seed}: every move ends the game at ply {len(moves)}")
        state = after
        moves.append(move)
    return moves


def replay(game: rk.Game, moves: list) -> rk.State:
    """The kernel as users run it: apply each move and ask whether the game is over (which
    counts the repetitions)."""
    state = game.initial_state()
    for move in moves:
        state = state.apply(move)
        state.is_terminal()
    return state


def positions(game: rk.Game, moves: list) -> list[tuple]:
    """(board, hands, side) of every position: the old kernel's history keys."""
    state, keys = game.initial_state(), []
    keys.append((state.board, state.hands, state.side))
    for move in moves:
        state = state._successor(move)
        keys.append((state.board, state.hands, state.side))
    return keys


def old_walk(keys: list[tuple]) -> int:
    """The peer: the old kernel's history, a linked list walked from the newest node at every
    ply to count how often the current position occurred."""
    node, most = None, 0
    for key in keys:
        node = (key, node)
        count, walk = 0, node
        while walk is not None:
            if walk[0] == key:
                count += 1
            walk = walk[1]
        most = max(most, count)
    return most


def new_counts(keys: list[bytes]) -> int:
    """The kernel's bookkeeping alone: one insertion into the persistent count map per ply."""
    counts, most = Counts(), 0
    for key in keys:
        counts, count = counts.add(key)
        most = max(most, count)
    return most


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def kept_bytes(build) -> int:
    """Bytes still allocated after `build()` while its result is alive."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    result = build()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del result
    return after - before


def old_chain(game: rk.Game, moves: list):
    """What the old kernel's final state kept: a node per ply holding that ply's position."""
    state, node = game.initial_state(), None
    for move in moves:
        state = state._successor(move)
        node = ((state.board, state.hands, state.side), node)
    return node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--game", default="yokai-5x6", choices=["yokai-3x4", "yokai-5x6"])
    args = parser.parse_args()
    if any(n < 1 for n in args.plies):
        parser.error("--plies must be positive")

    game = rk.load_game(args.game, repetitions=10**9)
    moves = long_line(game, max(args.plies))
    print(f"{args.game}: a random game of {len(moves):,} plies (repetitions={10**9:,}: no draw)\n")
    print(
        f"{'plies':>7} | {'kernel: apply + is_terminal':>27} | {'count map alone':>15} | "
        f"{'old walk (peer)':>15} | {'old / map':>9}"
    )
    for n in sorted(args.plies):
        final, seconds = timed(replay, game, moves[:n])
        keys = positions(game, moves[:n])
        packed = [bytes((*b, *h[0], *h[1], s)) for b, h, s in keys]
        most_new, new_seconds = timed(new_counts, packed)
        most_old, old_seconds = timed(old_walk, keys)
        assert most_new == most_old, "the two bookkeepings disagree"
        assert final.repetition_count() == sum(1 for k in keys if k == keys[-1])
        per = 1e6 / n
        print(
            f"{n:>7,} | {seconds * per:>22.1f} µs/ply | {new_seconds * per:>9.2f} µs/ply | "
            f"{old_seconds * per:>9.1f} µs/ply | {old_seconds / new_seconds:>8.0f}x"
        )

    n = max(args.plies)
    kernel = kept_bytes(lambda: replay(game, moves[:n]))
    chain = kept_bytes(lambda: old_chain(game, moves[:n]))
    distinct = len(set(positions(game, moves[:n])))
    print(f"\nmemory kept by the final state after {n:,} plies ({distinct:,} distinct positions):")
    print(
        f"  kernel (count map, no parent chain): {kernel / 1e6:.2f} MB "
        f"({kernel / distinct:.0f} bytes per distinct position)"
    )
    print(f"  old parent chain of positions:       {chain / 1e6:.2f} MB ({chain / n:.0f} bytes per ply)")
    print(
        "Per-ply time stays flat for the kernel (linear in plies per game); the old walk's grows "
        "with the game (quadratic per game). The count map grows with the distinct positions: an "
        "exact repetition rule must remember them (a capture or drop is not irreversible in the "
        "shogi family), but it keeps no earlier state and no earlier board."
    )


if __name__ == "__main__":
    main()
