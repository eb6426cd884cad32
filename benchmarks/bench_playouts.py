"""Random playouts per second for each game, beside yokai-3x4 playouts run in the same
command as the peer.

    python benchmarks/bench_playouts.py [--games 200] [game ...]    (default: war-stories to-war)
"""

from __future__ import annotations

import argparse
import random
import time

import rules_kernel as rk


def playouts(game_id: str, games: int) -> tuple[float, float]:
    """(games per second, actions per second) of uniformly random games from seeds 0.."""
    game = rk.load_game(game_id)
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        actions += len(rk.playout(game.initial_state(), random.Random(seed))) - 1
    seconds = time.perf_counter() - start
    return games / seconds, actions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games_ids", nargs="*", default=["war-stories", "to-war"], metavar="game")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    peer, peer_actions = playouts("yokai-3x4", args.games)
    print(f"{'yokai-3x4 (peer)':18s} {peer:10,.1f} games/s {peer_actions:10,.0f} actions/s")
    for game_id in args.games_ids:
        ours, ours_actions = playouts(game_id, args.games)
        print(f"{game_id:18s} {ours:10,.1f} games/s {ours_actions:10,.0f} actions/s   "
              f"ratio to the peer: {ours / peer:.3f} (games/s), "
              f"{ours_actions / peer_actions:.2f} (actions/s)")


if __name__ == "__main__":
    main()
