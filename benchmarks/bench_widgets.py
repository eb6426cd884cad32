"""Click-to-redraw latency of the explorer dashboard in a real browser (Voilà + Chromium), and
the kernel's own work for a click that plays a move (headless, no browser).

    python benchmarks/bench_widgets.py [--clicks 30]
    python benchmarks/bench_widgets.py --headless [--clicks 40]

For every game: a click on a piece (a pointer-down on the board) goes to the kernel, which
finds the moves and sends the new highlight layer; we time, inside the page, from the
pointer-down to the next animation frame after the highlight changed in the DOM. The peer,
run in the same command: a bare ipywidgets button whose click updates a label (one kernel
round trip, no drawing), so the ratio shows what the board itself costs. Goals: Yokai
under 50 ms, War Chest with 4 players under 100 ms (median).

Headless: for every game, an Explorer (all-seeing) plays `--clicks` random moves by clicking
their cells, as the page does; we time each click that plays (the move, the automatic
actions after it, and the redraw: presentation, scene, board, move list, menus, export) and
count the calls of `present` and of the game's scene part (`scene(state, p)`) per such click.
The peer: applying the same move to the state alone (`state.apply`), so the ratio is the
Explorer's cost per move over the rules' own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import rules_kernel as rk  # noqa: E402
from widgets.controller import ClickController  # noqa: E402

ROUNDTRIP = Path(__file__).resolve().parent / "roundtrip.ipynb"
GAMES = [
    ("yokai-3x4", {}),
    ("yokai-5x6", {}),
    ("war-stories", {}),
    ("to-war", {"Strategic": "on"}),
    ("war-chest", {}),
    ("war-chest", {"Players": "4"}),
]
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


HEADLESS_GAMES = [
    ("yokai-3x4", {}),
    ("yokai-5x6", {}),
    ("war-stories", {}),
    ("to-war", {"strategic": True}),
    ("war-chest", {}),
    ("war-chest", {"players": 4}),
]


class _Counter:
    """Counts the calls of a function it wraps (installed on a module or a class)."""

    def __init__(self, owner: object, name: str) -> None:
        self.owner, self.name, self.calls = owner, name, 0
        self.original = getattr(owner, name)

    def __enter__(self) -> _Counter:
        original = self.original

        def counted(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        setattr(self.owner, self.name, counted)
        return self

    def __exit__(self, *_: object) -> None:
        setattr(self.owner, self.name, self.original)


def _click_move(explorer, move) -> None:
    """Click the move's cells as the page would; pick it among choices if several share them."""
    state = explorer.state
    for cell in move.cells:
        explorer.click(cell)
    if explorer.state is state:
        next(b for b in explorer.choices.children if getattr(b, "move", None) == move).click()


def headless(clicks: int) -> None:
    import widgets.explorer.explorer as explorer_module  # the module whose refresh calls present
    from widgets.explorer import ALL_SEEING, Explorer

    for game_id, options in HEADLESS_GAMES:
        explorer = Explorer(rk.load_game(game_id, **options), seed=1)
        explorer.perspective.value = ALL_SEEING
        scene_of = rk.info(explorer.state.game).part("scene")  # the game's scene part (parts.scene)
        rng = random.Random(4)
        times, peer, presents, scenes = [], [], 0, 0
        for _ in range(clicks):
            state = explorer.state
            if state.is_terminal():
                break
            move = rng.choice(state.legal_moves())
            start = time.perf_counter()
            state.apply(move)
            peer.append(time.perf_counter() - start)
            with _Counter(explorer_module, "present") as present, _Counter(scene_of, "scene") as scene:
                start = time.perf_counter()
                _click_move(explorer, move)
                times.append(time.perf_counter() - start)
            presents, scenes = presents + present.calls, scenes + scene.calls
        name = game_id + (" 4p" if options.get("players") == 4 else "") + (" strategic" if options else "")
        name = name.replace(" 4p strategic", " 4p")
        print(
            f"{name:22s} click that plays: median {statistics.median(times) * 1000:6.1f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:6.1f} ms over {len(times)} moves "
            f"({statistics.median(times) / statistics.median(peer):.0f}x state.apply); per click "
            f"{presents / len(times):.2f} present, {scenes / len(times):.2f} scene"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=None)
    parser.add_argument("--headless", action="store_true", help="the kernel side of a move, no browser")
    args = parser.parse_args()
    if args.headless:
        headless(args.clicks or 40)
        return
    from browser_support import launch, voila
    from playwright.sync_api import sync_playwright

    args.clicks = args.clicks or 30
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
        print(
            f"{name:22s} click -> highlight painted: median {median * 1000:6.1f} ms, "
            f"p95 {percentile(values, 0.95) * 1000:6.1f} ms, {len(values)} clicks, "
            f"{median / peer:.2f}x the plain round trip"
        )


if __name__ == "__main__":
    main()
