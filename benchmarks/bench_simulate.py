"""Simulation and statistics speed.

    python benchmarks/bench_simulate.py [--games 400]

1. Random-agent games per second for each game on one core and on all cores; the ratio is
   the scaling of the process pool (same seeds, same records).
2. Records -> DataFrame rows per second (`stats.games_frame`, validating every line) against
   plain `json.loads` of the same file, in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import rules_kernel as rk
from rules_kernel import stats
from rules_kernel.simulate import simulate


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    for game_id in rk.list_games():
        slow = game_id in ("war-stories", "war-chest")  # long games: a tenth as many
        n = max(20, args.games // 10) if slow else args.games
        _, one = timed(simulate, game_id, n, seed=1, progress=False, max_plies=1000)
        _, many = timed(simulate, game_id, n, seed=1, progress=False, max_plies=1000, workers=0)
        print(
            f"{game_id:12s} {n / one:9.1f} games/s on 1 core, {n / many:9.1f} on {cores} cores: "
            f"scaling {one / many:.2f}x"
        )
    path = Path(tempfile.mkdtemp()) / "games.jsonl"
    simulate("to-war", args.games, seed=2, progress=False, output=path)
    text = path.read_text()
    rows, plain = timed(lambda: [json.loads(line) for line in text.splitlines()])
    frame, ours = timed(stats.games_frame, path)
    print(
        f"records -> DataFrame: {len(frame) / ours:,.0f} rows/s; "
        f"plain json.loads: {len(rows) / plain:,.0f} rows/s; "
        f"ratio {ours / plain:.2f} (time of ours / time of json.loads)"
    )


if __name__ == "__main__":
    main()
