"""The replay dashboard under Voilà in Debian's Chromium: Analyse draws the evaluation graph
under the board, and a click on the graph moves the replay to that ply (issue #23 item 3).
Screenshots: test-artifacts/replay-graph-1280x800.png, replay-graph-390x844.png."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, chromium_path, voila

from widgets.evalgraph import LEFT, RIGHT

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def slider_ply(page) -> int:
    return int(page.locator(".widget-slider").filter(has_text="Ply").locator(".widget-readout").inner_text())


def test_analyse_draws_the_graph_and_a_click_on_it_goes_to_that_ply(browser):
    with voila("replay.ipynb") as url:
        page = browser.new_page(viewport=DESKTOP)
        page.goto(url, timeout=180_000)
        page.wait_for_selector(".re-board [data-cell]", timeout=180_000)
        assert "about" in page.get_by_text("Every position with the game's engine").inner_text()
        page.locator(".widget-dropdown").filter(has_text="Time a position").locator("select").select_option(
            label="0.02 s"
        )
        page.get_by_role("button", name="Analyse").click()
        page.wait_for_selector(".re-evalgraph svg polyline", timeout=180_000)
        graph = page.locator(".re-evalgraph")
        plies = int(graph.get_attribute("aria-valuemax"))
        assert plies > 20 and graph.get_attribute("aria-valuenow") == "0"
        # the table per player: sent before the graph, but drawn by another widget view, so awaited
        page.wait_for_selector("th:has-text('Blunders')", timeout=15_000)
        assert page.locator("th").filter(has_text="Blunders").count() == 1

        # a click three fifths along the plot: the replay goes to the ply under it (the graph
        # scrolled into sight first: under the board, a mouse click outside the window is lost)
        page.locator(".re-evalgraph svg").scroll_into_view_if_needed()
        box = page.locator(".re-evalgraph svg").bounding_box()
        width = page.evaluate("() => document.querySelector('.re-evalgraph svg').viewBox.baseVal.width")
        left, right = LEFT / width, (width - RIGHT) / width  # the plot's edges, as parts of the width
        fraction = left + 0.6 * (right - left)
        page.mouse.click(box["x"] + fraction * box["width"], box["y"] + box["height"] / 2)
        wanted = round(0.6 * plies)
        page.wait_for_function(
            f"() => document.querySelector('.re-evalgraph').getAttribute('aria-valuenow') === '{wanted}'",
            timeout=15_000,
        )
        assert slider_ply(page) == wanted
        line_x = float(page.locator(".re-eval-current").get_attribute("x1"))
        assert abs(line_x - (LEFT + wanted / plies * (width - LEFT - RIGHT))) < 1  # the ply line moved there
        page.locator("tbody tr").last.evaluate("e => e.scrollIntoView({block: 'end'})")  # graph and table
        page.screenshot(path=str(ARTIFACTS / "replay-graph-1280x800.png"))

        page.set_viewport_size(PHONE)
        page.wait_for_function(  # the graph is drawn again as wide as the phone
            "() => { const svg = document.querySelector('.re-evalgraph svg');"
            " return Math.abs(svg.viewBox.baseVal.width - svg.getBoundingClientRect().width) < 40; }",
            timeout=30_000,
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        svg_box = page.locator(".re-evalgraph svg").bounding_box()
        assert svg_box["x"] >= 0 and svg_box["x"] + svg_box["width"] <= PHONE["width"]
        width = page.evaluate("() => document.querySelector('.re-evalgraph svg').viewBox.baseVal.width")
        assert abs(width - svg_box["width"]) < 40  # drawn at its size: its labels stay 12 px
        page.locator(".re-evalgraph").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "replay-graph-390x844.png"), full_page=True)
        page.close()
