"""Record reading speed: the checked, bounded parse against plain `json.loads`.

    python benchmarks/bench_records.py [--repeat 5]

For every example file in data/: microseconds per line for `json.loads` (the peer, no
checks), `records.parse_json` (bounded: nesting, numbers, duplicate keys, surrogates) and
`Record.from_json` (plus the record's shape and options), and the ratio to the peer; the
best of `--repeat` runs, measured side by side in this process. Replaying (the legality of
every action) is not included: it costs far more than parsing and is the games' own figure.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import rules_kernel as rk
from rules_kernel import records

DATA = Path(__file__).resolve().parent.parent / "data"


def best_per_line(fn, lines: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for line in lines:
            fn(line)
        best = min(best, time.perf_counter() - start)
    return best / len(lines) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rk.list_games()  # import the games first: not part of any figure
    print(f"{'file':42} {'bytes/line':>10} {'json.loads':>11} {'parse_json':>17} {'from_json':>17}")
    for path in sorted(DATA.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        peer = best_per_line(json.loads, lines, args.repeat)
        bounded = best_per_line(records.parse_json, lines, args.repeat)
        checked = best_per_line(records.Record.from_json, lines, args.repeat)
        size = sum(len(line.encode()) for line in lines) / len(lines)
        print(
            f"{path.name:42} {size:>10,.0f} {peer:>9.1f}us {bounded:>9.1f}us ({bounded / peer:4.1f}x)"
            f" {checked:>9.1f}us ({checked / peer:4.1f}x)"
        )


if __name__ == "__main__":
    main()
