"""Click-to-redraw latency of the explorer dashboard in a real browser (Voilà + Chromium).

    python benchmarks/bench_widgets.py [--clicks 40]

A click on a piece goes to the kernel, which finds the moves and redraws the highlight
layer; we time from the mouse-down to the moment the target square turns green on screen.
The peer, run in the same command: a bare ipywidgets button whose click updates a label
(one kernel round trip, no drawing), so the ratio shows what the board itself costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser_support import PIXEL_JS, launch, voila  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import rules_kernel as rk  # noqa: E402
from widgets.draw import TARGET  # noqa: E402
from widgets.layout import layout_scene  # noqa: E402

ROUNDTRIP = Path(__file__).resolve().parent / "roundtrip.ipynb"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def board_latencies(page, clicks: int) -> list[float]:
    layout = layout_scene(rk.load_game("yokai-3x4").initial_state().scene())
    piece, empty, target = layout.center_of("b1"), layout.center_of("a3"), layout.center_of("c2")
    lit = tuple(int(TARGET[i:i + 2], 16) for i in (1, 3, 5))
    is_lit = (f"() => {{ const f = {PIXEL_JS}; const p = f([0, {target[0]}, {target[1]}]);"
              f" return Math.abs(p[0] - {lit[0]}) + Math.abs(p[1] - {lit[1]}) < 80; }}")
    box = page.query_selector_all("canvas")[0].bounding_box()
    times = []
    for _ in range(clicks):
        start = time.perf_counter()
        page.mouse.click(box["x"] + piece[0], box["y"] + piece[1])
        page.wait_for_function(is_lit, polling="raf", timeout=15_000)
        times.append(time.perf_counter() - start)
        page.mouse.click(box["x"] + empty[0], box["y"] + empty[1])  # clear again
        page.wait_for_function(f"() => !({is_lit})()", polling="raf", timeout=15_000)
    return times


def button_latencies(page, clicks: int) -> list[float]:
    times = []
    for i in range(1, clicks + 1):
        start = time.perf_counter()
        page.click("button:has-text('ping')")
        page.wait_for_selector(f"text='{i}'", timeout=15_000)
        times.append(time.perf_counter() - start)
    return times


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(url, timeout=90_000)
    page.wait_for_selector("canvas, button", timeout=90_000)
    page.wait_for_timeout(1500)
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=40)
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = launch(p)
        with voila("explorer.ipynb") as url:
            board = board_latencies(open_page(browser, url), args.clicks)
        with voila(str(ROUNDTRIP)) as url:
            button = button_latencies(open_page(browser, url), args.clicks)
        browser.close()
    for name, values in (("board click -> highlight drawn", board), ("peer: button -> label", button)):
        print(f"{name}: median {statistics.median(values) * 1000:.1f} ms, "
              f"p95 {percentile(values, 0.95) * 1000:.1f} ms over {len(values)} clicks")
    ratio = statistics.median(board) / statistics.median(button)
    print(f"ratio board / plain round trip (median): {ratio:.2f}x (target: board median under 100 ms)")


if __name__ == "__main__":
    main()
