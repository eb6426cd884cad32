"""Yōkai no Mori speed: perft leaves per second and random playouts per second, each run
beside Fairy-Stockfish's Python binding (pyffish) in the same command, printed as ratios.

    python benchmarks/bench_yokai.py [--perft-depth 7] [--pyffish-depth 5] [--games 200]

pyffish answers one position per call (~2 ms each, whatever the position), so its perft is
run to a smaller depth and compared by leaves per second; its playouts use the same random
policy (uniform over the legal moves) from the same seeds.
"""

from __future__ import annotations

import argparse
import random
import time

import pyffish

import rules_kernel as rk

VARIANT = {"yokai-3x4": "dobutsu", "yokai-5x6": "gorogoro"}


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def pyffish_perft(variant: str, fen: str, depth: int) -> int:
    """Bulk-counting perft through pyffish (terminal positions are not expanded)."""
    moves = pyffish.legal_moves(variant, fen, [])
    if not moves or pyffish.is_immediate_game_end(variant, fen, [])[0]:
        return 0
    if depth == 1:
        return len(moves)
    return sum(pyffish_perft(variant, pyffish.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def our_playouts(game_id: str, games: int, max_plies: int) -> int:
    game = rk.load_game(game_id)
    plies = 0
    for seed in range(games):
        plies += len(rk.playout(game.initial_state(), random.Random(seed), max_plies)) - 1
    return plies


def pyffish_playouts(game_id: str, games: int, max_plies: int) -> int:
    variant = VARIANT[game_id]
    plies = 0
    for seed in range(games):
        rng = random.Random(seed)
        fen = pyffish.start_fen(variant)
        for _ in range(max_plies):
            moves = pyffish.legal_moves(variant, fen, [])
            if not moves or pyffish.is_immediate_game_end(variant, fen, [])[0]:
                break
            fen = pyffish.get_fen(variant, fen, [rng.choice(sorted(moves))])
            plies += 1
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--perft-depth", type=int, default=7)
    parser.add_argument("--pyffish-depth", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pyffish-games", type=int, default=30)
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args()

    start = rk.load_game("yokai-3x4").initial_state()
    leaves, seconds = timed(rk.perft, start, args.perft_depth)
    ours = leaves / seconds
    print(
        f"yokai-3x4 perft({args.perft_depth}): {leaves:,} leaves in {seconds:.2f} s "
        f"= {ours:,.0f} leaves/s (target 500,000)"
    )
    fsf_leaves, fsf_seconds = timed(
        pyffish_perft, "dobutsu", pyffish.start_fen("dobutsu"), args.pyffish_depth
    )
    theirs = fsf_leaves / fsf_seconds
    print(
        f"pyffish   perft({args.pyffish_depth}): {fsf_leaves:,} leaves in {fsf_seconds:.2f} s "
        f"= {theirs:,.0f} leaves/s"
    )
    print(f"ratio rules_kernel / pyffish (leaves per second): {ours / theirs:.1f}x\n")

    for game_id in VARIANT:
        plies, seconds = timed(our_playouts, game_id, args.games, args.max_plies)
        ours = args.games / seconds
        fsf_plies, fsf_seconds = timed(pyffish_playouts, game_id, args.pyffish_games, args.max_plies)
        theirs = args.pyffish_games / fsf_seconds
        print(
            f"{game_id} random playouts (max {args.max_plies} plies): "
            f"{ours:,.1f} games/s ({plies / seconds:,.0f} plies/s); "
            f"pyffish {theirs:,.2f} games/s ({fsf_plies / fsf_seconds:,.0f} plies/s); "
            f"ratio {ours / theirs:.1f}x "
            f"(plies/s ratio {plies / seconds / (fsf_plies / fsf_seconds):.1f}x)"
        )


if __name__ == "__main__":
    main()
