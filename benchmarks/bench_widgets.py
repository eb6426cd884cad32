"""Click-to-redraw latency of the explorer dashboard in a real browser (Voilà + Chromium).

    python benchmarks/bench_widgets.py [--clicks 30]

For every game: a click on a piece (a pointer-down on the board) goes to the kernel, which
finds the moves and sends the new highlight layer; we time, inside the page, from the
pointer-down to the next animation frame after the highlight changed in the DOM. The peer,
run in the same command: a bare ipywidgets button whose click updates a label (one kernel
round trip, no drawing), so the ratio shows what the board itself costs. Goals: Yokai
under 50 ms, War Chest with 4 players under 100 ms (median).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser_support import launch, voila  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

import rules_kernel as rk  # noqa: E402
from widgets.controller import ClickController  # noqa: E402

ROUNDTRIP = Path(__file__).resolve().parent / "roundtrip.ipynb"
GAMES = [("yokai-3x4", {}), ("yokai-5x6", {}), ("war-stories", {}), ("to-war", {"Strategic": "on"}),
         ("war-chest", {}), ("war-chest", {"Players": "4"})]
#: pointer-down on a cell, resolved with the milliseconds until the highlight layer changed
#: and a frame was painted (null if nothing changed within 5 s)
CLICK_JS = """(cell) => new Promise(resolve => {
    const layer = document.querySelector('.re-board svg');  // highlight or, for a move, the scene
    const t0 = performance.now();
    const done = (v) => { observer.disconnect(); resolve(v); };
    const observer = new MutationObserver(() => requestAnimationFrame(() => done(performance.now() - t0)));
    observer.observe(layer, {childList: true, subtree: true});
    document.querySelector(`.re-board [data-cell="${cell}"]`)
        .dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}));
    setTimeout(() => done(null), 5000);
})"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def pick_game(page, game_id: str, options: dict[str, str]) -> None:
    title = rk.game_class(game_id).title
    page.locator("select").first.select_option(label=title)
    page.wait_for_timeout(400)
    if options:
        page.get_by_text(f"Options of {title}").click()
        for label, value in options.items():
            field = page.locator(".widget-dropdown, .widget-checkbox").filter(has_text=label).first
            if value == "on":
                field.locator("input[type=checkbox]").check()
            else:
                field.locator("select").select_option(label=value)
    page.get_by_role("button", name="New game").click()
    page.wait_for_timeout(2000)


def show_all(page) -> None:
    """The all-seeing view (its position text is what the benchmark reads the position from)."""
    views = page.locator(".re-side select").filter(has_text="All-seeing")
    if views.count():
        views.first.select_option(label="All-seeing (analysis)")
        page.wait_for_timeout(800)


def clickable_cells(page, game_id: str, options: dict[str, str]) -> tuple[tuple[str, ...], bool]:
    """The cells to click now: those that select (their moves go on) if any, else cells
    whose click plays a move (War Stories' flips); and which of the two it is."""
    text = page.locator("input[placeholder='paste a position text here']").input_value()
    kernel_options = {"players": 4} if options.get("Players") == "4" else {}
    if options.get("Strategic"):
        kernel_options["strategic"] = True
    state = rk.load_game(game_id, **kernel_options).from_text(text)
    moves = ClickController(state).moves
    selecting = tuple(sorted({m.cells[0] for m in moves if len(m.cells) > 1}))
    return (selecting, False) if selecting else (tuple(sorted({m.cells[0] for m in moves})), True)


def board_latencies(page, game_id: str, options: dict[str, str], clicks: int) -> list[float]:
    pick_game(page, game_id, options)
    show_all(page)
    times: list[float] = []
    cells, plays = clickable_cells(page, game_id, options)
    for i in range(clicks):
        if not cells:
            break
        ms = page.evaluate(CLICK_JS, cells[i % len(cells)] if not plays else cells[0])
        if ms is not None:
            times.append(ms / 1000)
        if plays or i % 2:  # after a move, or every other click: ask the position again
            page.wait_for_timeout(300)
            cells, plays = clickable_cells(page, game_id, options)
    return times


PING_JS = """() => new Promise(resolve => {
    const label = document.querySelector('.widget-label');
    const t0 = performance.now();
    const done = (v) => { observer.disconnect(); resolve(v); };
    const observer = new MutationObserver(() => requestAnimationFrame(() => done(performance.now() - t0)));
    observer.observe(label, {childList: true, subtree: true, characterData: true});
    document.querySelector('button').click();
    setTimeout(() => done(null), 5000);
})"""


def button_latencies(page, clicks: int) -> list[float]:
    """The peer, timed the same way inside the page: click to the label's new text painted."""
    times = [page.evaluate(PING_JS) for _ in range(clicks)]
    return [t / 1000 for t in times if t is not None]


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, timeout=90_000)
    page.wait_for_selector(".re-board [data-cell], button", timeout=90_000)
    page.wait_for_timeout(1500)
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=30)
    args = parser.parse_args()
    results = {}
    with sync_playwright() as p:
        browser = launch(p)
        with voila("explorer.ipynb") as url:
            for game_id, options in GAMES:
                name = game_id + (" 4p" if options.get("Players") == "4" else "")
                name += " strategic" if options.get("Strategic") else ""
                results[name] = board_latencies(open_page(browser, url), game_id, options, args.clicks)
        with voila(str(ROUNDTRIP)) as url:
            button = button_latencies(open_page(browser, url), args.clicks)
        browser.close()
    peer = statistics.median(button)
    print(f"peer: button -> label: median {peer * 1000:.1f} ms, p95 {percentile(button, 0.95) * 1000:.1f} ms")
    for name, values in results.items():
        median = statistics.median(values)
        print(f"{name:22s} click -> highlight painted: median {median * 1000:6.1f} ms, "
              f"p95 {percentile(values, 0.95) * 1000:6.1f} ms, {len(values)} clicks, "
              f"{median / peer:.2f}x the plain round trip")


if __name__ == "__main__":
    main()
