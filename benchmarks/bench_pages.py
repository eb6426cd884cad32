"""How fast the published pages render for a reader (Voilà + Debian's Chromium).

    python benchmarks/bench_pages.py [--repeat 2]        # plain `voila <notebook>`, one kernel a visit
    python benchmarks/bench_pages.py --published         # the publishing mode, as a visitor gets them

For each statistics dashboard and rule explainer: from the page request to the moment its
last table, chart, board and puzzle has arrived (the same readiness check as
tests/test_browser_pages.py). Goals (issue 15): statistics under 5 s, explainers under 8 s.
The peer, in the same run: a notebook with one button and one label
(benchmarks/roundtrip.ipynb), i.e. what Voilà and a kernel cost before any of our work.

With --published the pages come from `python -m publish` with its defaults, where these
pages are preheated (a kernel has run the notebook before the visitor asks); each visit
comes `--settle` seconds after the pool has its next kernel, as a visitor arriving a little
later would. (Voilà logs "pool is filled" when the kernel has started, before it has run the
notebook: a visitor right behind another gets a page still being computed.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_support import launch, published, voila  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser_pages import BUDGET, EXPLAINERS, STATISTICS, open_page  # noqa: E402

VIEWPORT = {"width": 1280, "height": 800}


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


def plain_seconds(p, notebook: str, repeat: int) -> list[float]:
    times = []
    with voila(notebook) as url:
        for _ in range(repeat):
            browser, _page, elapsed = open_page(p, url, notebook, VIEWPORT)
            browser.close()
            times.append(elapsed)
    return times


def published_seconds(p, site, notebook: str, repeat: int, settle: float) -> list[float]:
    times = []
    filled = f"Kernel pool of {notebook} is filled"
    for _ in range(repeat):
        before = site.log().count(filled)
        browser, _page, elapsed = open_page(p, site.url + "voila/render/" + notebook, notebook, VIEWPORT)
        browser.close()
        times.append(elapsed)
        site.wait_for_log(filled, timeout=180, count=before + 1)  # the pool's next kernel...
        time.sleep(settle)  # ...has run the notebook
    return times


def report(notebook: str, times: list[float], peer: float) -> None:
    median = statistics.median(times)
    verdict = "within" if median <= BUDGET[notebook] else "OVER"
    print(
        f"{notebook:28s} {median:5.1f} s  ({verdict} the {BUDGET[notebook]:.0f} s goal), "
        f"{median / peer:.1f}x the peer",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=2, help="page loads per notebook")
    parser.add_argument(
        "--published",
        action="store_true",
        help="through the publishing mode (preheated pages) instead of plain voila",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=15,
        help="with --published: seconds between a pool's refill and the next visit",
    )
    args = parser.parse_args()
    pages = STATISTICS + EXPLAINERS
    with sync_playwright() as p:
        peer = statistics.median(peer_seconds(p, args.repeat))
        print(f"peer: a one-button notebook renders in {peer:.1f} s (median of {args.repeat})", flush=True)
        if not args.published:
            for notebook in pages:
                report(notebook, plain_seconds(p, notebook, args.repeat), peer)
            return
        with published() as site:
            for notebook in pages:
                site.wait_for_log(f"Kernel pool of {notebook} is filled", timeout=300)
            time.sleep(4 * args.settle)  # nine pools ran their notebooks side by side
            print(f"publishing mode, every page preheated, visits {args.settle:.0f} s apart:", flush=True)
            for notebook in pages:
                report(notebook, published_seconds(p, site, notebook, args.repeat, args.settle), peer)


if __name__ == "__main__":
    main()
