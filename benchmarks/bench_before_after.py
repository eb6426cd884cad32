"""Kernel and explorer speed before and after a change, in one command: perft, random playouts
and the explorer's click-to-redraw, each measured on an earlier commit and on the checkout.

    python benchmarks/bench_before_after.py REV [--rounds 3] [--perft-depth 6] [--games 60]

REV (a commit, tag or branch) is checked out into a temporary git worktree; each measure then
runs in a fresh Python process over one tree or the other (the tree first on `sys.path`), the
two trees alternating round by round so that a machine busier for a while slows both alike.
Printed per measure: the median of the rounds for each tree and the ratio checkout / REV
(above 1: the checkout is faster; for the click, a time, below 1 is faster).

The measures use only the public API both trees offer: `rk.perft`, `rk.playout`, and the
explorer (`widgets.explorer.Explorer`) clicking the cells of random moves as the page does
(the kernel's side of a click that plays: the move, the automatic actions and the redraw).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PERFT = """
import json, time, rules_kernel as rk
state = rk.load_game("yokai-3x4").initial_state()
start = time.perf_counter()
leaves = rk.perft(state, {depth})
print(json.dumps(leaves / (time.perf_counter() - start)))
"""
PLAYOUTS = """
import json, random, time, rules_kernel as rk
game = rk.load_game({game!r}, **{options!r})
start = time.perf_counter()
for seed in range({games}):
    rk.playout(game.initial_state(), random.Random(seed), max_plies=2000)
print(json.dumps({games} / (time.perf_counter() - start)))
"""
CLICKS = """
import json, random, statistics, time, rules_kernel as rk
from widgets.explorer import ALL_SEEING, Explorer
explorer = Explorer(rk.load_game({game!r}, **{options!r}), seed=1)
explorer.perspective.value = ALL_SEEING
rng, times = random.Random(4), []
for _ in range({clicks}):
    state = explorer.state
    if state.is_terminal():
        break
    move = rng.choice(state.legal_moves())
    start = time.perf_counter()
    for cell in move.cells:
        explorer.click(cell)
    if explorer.state is state:  # several moves share the cells: the page offers buttons
        offered = [b for b in explorer.choices.children if getattr(b, "move", None) == move]
        if not offered:  # a tree before choice buttons named their move: by the notation
            offered = [b for b in explorer.choices.children if b.tooltip == str(move)]
        if not offered:  # the page asks otherwise (a confirmation): played, not timed
            explorer.play(move)
            continue
        offered[0].click()
    times.append(time.perf_counter() - start)
print(json.dumps(statistics.median(times) * 1000))
"""
PLAYOUT_GAMES = [
    ("yokai-3x4", {}),
    ("yokai-5x6", {}),
    ("war-stories", {}),
    ("to-war", {}),
    ("war-chest", {}),
]
CLICK_GAMES = [("yokai-3x4", {}), ("war-stories", {}), ("war-chest", {"players": 4})]


def measures(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """(name, unit, program) for each figure."""
    found = [(f"yokai-3x4 perft({args.perft_depth})", "leaves/s", PERFT.format(depth=args.perft_depth))]
    for game, options in PLAYOUT_GAMES:
        games = max(1, args.games // 6) if game in ("war-chest", "yokai-5x6") else args.games
        program = PLAYOUTS.format(game=game, options=options, games=games)
        found.append((f"{game} random playouts", "games/s", program))
    for game, options in CLICK_GAMES:
        name = game + (" 4p" if options else "")
        program = CLICKS.format(game=game, options=options, clicks=args.clicks)
        found.append((f"{name} click that plays", "ms (median)", program))
    return found


def run(tree: Path, program: str) -> float:
    """The figure `program` prints, run in a fresh process over `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=tree, env=env, capture_output=True, text=True, timeout=1800
    )
    if done.returncode != 0:
        raise SystemExit(f"a measure failed over {tree}:\n{done.stderr[-2000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rev", help="the earlier commit (or tag, branch) to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--perft-depth", type=int, default=6)
    parser.add_argument("--games", type=int, default=60, help="playouts per round (War Chest, 5x6: a sixth)")
    parser.add_argument("--clicks", type=int, default=30)
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", args.rev + "^{commit}"], cwd=ROOT, capture_output=True, text=True
    )
    if commit.returncode != 0:
        raise SystemExit(f"{args.rev!r} names no commit of this checkout")
    with tempfile.TemporaryDirectory() as scratch:
        before = Path(scratch) / "before"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(before), commit.stdout.strip()],
            cwd=ROOT,
            check=True,
        )
        try:
            compare(before, args)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)


def compare(before: Path, args: argparse.Namespace) -> None:
    print(f"{args.rev} against the checkout, {args.rounds} rounds, alternating:")
    for name, unit, program in measures(args):
        old, new = [], []
        for round_ in range(args.rounds):
            pair = [(before, old), (ROOT, new)]
            for tree, figures in pair if round_ % 2 == 0 else reversed(pair):
                figures.append(run(tree, program))
        was, now = statistics.median(old), statistics.median(new)
        figures = f"{args.rev}: {was:12,.1f}   checkout: {now:12,.1f}   ratio {now / was:.2f}"
        print(f"  {name:34s} {unit:12s} {figures}")


if __name__ == "__main__":
    main()
