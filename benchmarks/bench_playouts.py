"""Random playouts per second for each game, beside yokai-3x4 playouts run in the same
command as the peer: random actions per second and full games per second.

    python benchmarks/bench_playouts.py [--games N] [game ...]
        (default: war-stories to-war war-chest war-chest/4; `war-chest/4` is 4 players)

War Chest games are long under random play (most end in the deadlock ruling, when every
unit coin is on the board or out), so they default to 40 games; the others to 200. A game
still going after 20,000 actions is stopped and counted as "capped".
"""

from __future__ import annotations

import argparse
import random
import time

import rules_kernel as rk

DEFAULT_GAMES = {"war-chest": 40}
CAP = 20_000


def load(spec: str) -> rk.Game:
    """`game` or `game/<players>`."""
    game_id, _, players = spec.partition("/")
    return rk.load_game(game_id, players=int(players)) if players else rk.load_game(game_id)


def playouts(spec: str, games: int) -> tuple[float, float, int]:
    """(games per second, actions per second, games capped) of uniformly random games from
    seeds 0.."""
    game = load(spec)
    actions = capped = 0
    start = time.perf_counter()
    for seed in range(games):
        states = rk.playout(game.initial_state(), random.Random(seed), max_plies=CAP)
        actions += len(states) - 1
        capped += not states[-1].is_terminal()
    seconds = time.perf_counter() - start
    return games / seconds, actions / seconds, capped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "games_ids", nargs="*", default=["war-stories", "to-war", "war-chest", "war-chest/4"], metavar="game"
    )
    parser.add_argument(
        "--games", type=int, default=None, help="games per game id (default 200; War Chest 40)"
    )
    args = parser.parse_args()
    peer, peer_actions, _ = playouts("yokai-3x4", args.games or 200)
    print(f"{'yokai-3x4 (peer)':18s} {peer:10,.1f} games/s {peer_actions:10,.0f} actions/s")
    for spec in args.games_ids:
        count = args.games or DEFAULT_GAMES.get(spec.partition("/")[0], 200)
        ours, ours_actions, capped = playouts(spec, count)
        print(
            f"{spec:18s} {ours:10,.1f} games/s {ours_actions:10,.0f} actions/s   "
            f"ratio to the peer: {ours / peer:.3f} (games/s), "
            f"{ours_actions / peer_actions:.2f} (actions/s)" + (f"; {capped} capped" if capped else "")
        )


if __name__ == "__main__":
    main()
