"""How fast the published pages render for a reader (Voilà + Debian's Chromium).

    python benchmarks/bench_pages.py [--repeat 2]

For each statistics dashboard and rule explainer: from the page request to the moment its
last table, chart, board and puzzle has arrived (the same readiness check as
tests/test_browser_pages.py). Goals (issue 15): statistics under 5 s, explainers under 8 s.
The peer, in the same run: a notebook with one button and one label
(benchmarks/roundtrip.ipynb), i.e. what Voilà and a kernel cost before any of our work.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_support import launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser_pages import BUDGET, EXPLAINERS, STATISTICS, open_page, voila  # noqa: E402


def peer_seconds(p, repeat: int) -> list[float]:
    times = []
    with voila(str(HERE / "roundtrip.ipynb")) as url:
        for _ in range(repeat):
            browser = launch(p)
            page = browser.new_page()
            start = time.monotonic()
            page.goto(url, timeout=120_000)
            page.wait_for_selector("button:has-text('ping')", timeout=120_000)
            times.append(time.monotonic() - start)
            browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="page loads per notebook")
    args = parser.parse_args()
    with sync_playwright() as p:
        peer = statistics.median(peer_seconds(p, args.repeat))
        print(f"peer: a one-button notebook renders in {peer:.1f} s (median of {args.repeat})")
        for notebook in STATISTICS + EXPLAINERS:
            times = []
            with voila(notebook) as url:
                for _ in range(args.repeat):
                    browser, _page, elapsed = open_page(p, url, notebook, {"width": 1280, "height": 800})
                    browser.close()
                    times.append(elapsed)
            median = statistics.median(times)
            verdict = "within" if median <= BUDGET[notebook] else "OVER"
            print(f"{notebook:28s} {median:5.1f} s  ({verdict} the {BUDGET[notebook]:.0f} s goal), "
                  f"{median / peer:.1f}x the peer")


if __name__ == "__main__":
    main()
