"""To War! random playouts per second, beside yokai-3x4 playouts run in the same command.

    python benchmarks/bench_to_war.py [--games 300]
"""

from __future__ import annotations

import argparse
import random
import time

import rules_kernel as rk


def playouts(game_id: str, games: int) -> tuple[float, float]:
    game = rk.load_game(game_id)
    plies = 0
    start = time.perf_counter()
    for seed in range(games):
        plies += len(rk.playout(game.initial_state(), random.Random(seed))) - 1
    seconds = time.perf_counter() - start
    return games / seconds, plies / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    ours, ours_actions = playouts("to-war", args.games)
    peer, peer_actions = playouts("yokai-3x4", args.games)
    print(f"to-war random playouts:  {ours:,.1f} games/s ({ours_actions:,.0f} actions/s)")
    print(f"peer yokai-3x4 playouts: {peer:,.1f} games/s ({peer_actions:,.0f} actions/s)")
    print(f"ratio to-war / yokai-3x4: {ours / peer:.3f} (games/s), "
          f"{ours_actions / peer_actions:.2f} (actions/s)")


if __name__ == "__main__":
    main()
