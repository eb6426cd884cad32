"""The published pages as a reader uses them: Voilà serves a rule explainer, Debian's Chromium
(Playwright) loads it. One puzzle is solved by clicking the board; the boards are laid out
again when the window narrows. What every page shows (no Python, no NaN, every statistics
caption naming its number of games, at 1280x800 and 390x844) is the page tour's
(tests/test_page_tour.py), which reads every published page on one server. How fast the pages
render (goals: statistics 5 s, explainers 8 s) is measured by benchmarks/bench_pages.py, not
asserted here: the project times nothing in tests."""

from __future__ import annotations

import time

import pytest
from browser_support import ARTIFACTS, chromium_path, voila

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

STATISTICS = ["statistics.ipynb", "statistics-dashboard.ipynb"]
EXPLAINERS = [
    "rules-yokai-3x4.ipynb",
    "rules-yokai-5x6.ipynb",
    "rules-war-stories.ipynb",
    "rules-to-war.ipynb",
    "rules-war-chest.ipynb",
]
BUDGET = {**dict.fromkeys(STATISTICS, 5.0), **dict.fromkeys(EXPLAINERS, 8.0)}

# the page is there when its last kind of widget has arrived and drawn
READY = {
    "statistics.ipynb": "() => document.querySelectorAll('table.stats-table').length >= 7 && "
    "document.querySelectorAll('figure svg').length >= 5",
    "statistics-dashboard.ipynb": "() => document.querySelectorAll('table.stats-table').length >= 3 && "
    "document.querySelectorAll('figure svg').length >= 1",
}
EXPLAINER_READY = (
    "() => document.querySelectorAll('.re-puzzle').length >= 3 && "
    "document.querySelectorAll('.re-rule').length >= 2 && "
    "[...document.querySelectorAll('.re-board')].length >= 5 && "
    "[...document.querySelectorAll('.re-board')].every(b => b.querySelector('svg *'))"
)


#: every board is laid out for the width it has (the kernel lays a board shrunk by more than a
#: tenth out again: widgets/board.py)
NARROW = """() => Array.from(document.querySelectorAll('.re-board')).every(board => {
    const svg = board.querySelector('svg');
    const room = Math.floor(board.getBoundingClientRect().width / 10) * 10;
    return !svg || svg.viewBox.baseVal.width <= room / 0.9 + 1;
})"""


def open_page(browser, url: str, notebook: str, viewport: dict) -> tuple[object, float]:
    """A new page of the session's browser on `url`, once rendered, and the seconds it took."""
    page = browser.new_page(viewport=viewport)
    start = time.monotonic()
    page.goto(url, timeout=120_000)
    page.wait_for_function(READY.get(notebook, EXPLAINER_READY), timeout=120_000)
    return page, time.monotonic() - start


def test_the_boards_are_laid_out_again_when_the_window_narrows(browser):
    """A phone turned, a window made narrow: every board of an explainer is drawn again for the
    width it has (widgets/board.py), not shrunk. The widest board, Yōkai 5x6's, from 1280 px
    to 390. (Each page's text, its numbers and captions at both sizes: the page tour.)"""
    notebook = "rules-yokai-5x6.ipynb"
    with voila(notebook) as url:
        page, elapsed = open_page(browser, url, notebook, {"width": 1280, "height": 800})
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function(NARROW, timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "rules-yokai-5x6-narrowed-390x844.png"), full_page=True)
        page.close()
    print(f"{notebook}: rendered in {elapsed:.1f} s (goal {BUDGET[notebook]:.0f} s; see bench_pages.py)")


#: the first puzzle's highlight layer as drawn now (the selection and its lit targets)
LIT = "() => (document.querySelector('.re-puzzle .re-highlight') || {}).innerHTML || ''"


def test_solve_a_puzzle_by_clicking(browser):
    """Yōkai 3x4, the first puzzle: a wrong move is called wrong; Undo; the Kitsune takes the
    Koropokkuru (b3 to c4, 'Sieger des Spiels' 1.) and the page says so."""
    with voila("rules-yokai-3x4.ipynb") as url:
        page, _ = open_page(browser, url, "rules-yokai-3x4.ipynb", {"width": 1280, "height": 800})
        puzzle = page.locator(".re-puzzle").first
        puzzle.scroll_into_view_if_needed()

        def click(cell: str) -> None:
            puzzle.locator(f'.re-hits [data-cell="{cell}"]').first.click(force=True)

        def select(cell: str) -> None:
            """Click a piece and wait until its targets are lit: the board is drawn again
            then, and a click sent before that (on a loaded machine) can land on the old
            drawing's hit layer as it is replaced, and be lost."""
            before = page.evaluate(LIT, None)
            click(cell)
            page.wait_for_function(f"before => ({LIT})() !== before", arg=before, timeout=30_000)

        select("b3")
        click("a4")  # takes the Tanuki: not the win
        puzzle.get_by_text("Not quite.").wait_for(timeout=30_000)
        puzzle.get_by_role("button", name="Undo").click()
        page.wait_for_function(
            "() => !document.querySelector('.re-puzzle').innerText.includes('Not quite.')", timeout=30_000
        )
        select("b3")
        click("c4")
        puzzle.get_by_text("Right!").wait_for(timeout=30_000)
        assert "Sieger des Spiels" in puzzle.inner_text()
        puzzle.screenshot(path=str(ARTIFACTS / "puzzle-solved.png"))
        page.close()
