"""The real thing: Voilà serves the explorer dashboard, Chromium (Debian's, via Playwright)
opens it, clicks a piece, sees its legal moves lit, plays one and sees the board change."""

from __future__ import annotations

import re

import pytest
from browser_support import ARTIFACTS, PIXEL_JS, chromium_path, launch, voila

import rules_kernel as rk
from widgets.draw import TARGET
from widgets.layout import layout_scene

pytestmark = pytest.mark.skipif(chromium_path() is None,
                                reason="Debian's chromium is not installed (./run tests installs it)")


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def close(pixel, colour, tolerance=40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


def test_click_a_piece_see_its_moves_play_one():
    from playwright.sync_api import sync_playwright

    scene = rk.load_game("yokai-3x4").initial_state().scene()
    layout = layout_scene(scene)  # the same geometry the dashboard draws with
    koropokkuru, targets = layout.center_of("b1"), [layout.center_of(c) for c in ("a2", "c2")]
    size = layout.cells["c2"].size
    body_of_piece_on_c2 = (targets[1][0] + 0.15 * size, targets[1][1] + 0.25 * size)  # no text, no dot
    with voila("explorer.ipynb") as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(url, timeout=90_000)
        page.wait_for_selector("canvas", timeout=90_000)
        # ipycanvas composites the MultiCanvas layers (board, highlight) into one canvas
        page.wait_for_function(f"() => {{ const f = {PIXEL_JS}; return f([0, 60, 20])[3] > 0; }}",
                               timeout=30_000)  # the kernel's drawing arrived
        canvas = 0
        box = page.query_selector_all("canvas")[canvas].bounding_box()
        before = page.evaluate(PIXEL_JS, [canvas, *targets[1]])
        assert not close(before, rgb(TARGET)), "no highlight before the click"

        page.mouse.click(box["x"] + koropokkuru[0], box["y"] + koropokkuru[1])
        lit = rgb(TARGET)
        page.wait_for_function(
            f"() => {{ const f = {PIXEL_JS}; const px = f([{canvas}, {targets[1][0]}, {targets[1][1]}]);"
            f" return Math.abs(px[0] - {lit[0]}) + Math.abs(px[1] - {lit[1]}) < 80; }}", timeout=15_000)
        for target in targets:
            assert close(page.evaluate(PIXEL_JS, [canvas, *target]), lit), "target not lit"
        page.screenshot(path=str(ARTIFACTS / "explorer-highlight.png"))

        page.mouse.click(box["x"] + targets[1][0], box["y"] + targets[1][1])
        page.wait_for_selector("option:has-text('1. b1c2')", state="attached", timeout=15_000)
        page.wait_for_timeout(500)
        moved_to = page.evaluate(PIXEL_JS, [canvas, *body_of_piece_on_c2])
        assert close(moved_to, rgb("#E69F00")), f"the Koropokkuru is not drawn on c2: {moved_to}"
        assert page.get_by_text("Second player to move").count() >= 1
        page.screenshot(path=str(ARTIFACTS / "explorer-after-move.png"))
        browser.close()


def test_war_chest_in_the_dashboard_click_a_coin_deploy_it():
    """The hex map in the browser: pick War Chest, deal and draw with 'Sample chance', click a
    coin in the hand, see the locations it may deploy to lit, deploy it, see the coin drawn."""
    from playwright.sync_api import sync_playwright

    with voila("explorer.ipynb") as url, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1300, "height": 2000})
        page.goto(url, timeout=90_000)
        page.wait_for_selector("canvas", timeout=90_000)
        page.locator("select").first.select_option("war-chest")
        page.get_by_role("button", name="New game").click()
        for ply in (1, 2, 3):  # the deal, then each side's draw
            page.get_by_role("button", name="Sample chance").click()
            page.wait_for_selector(f"option:has-text('{ply}. ')", state="attached", timeout=15_000)
        texts = [t.replace("\xa0", " ") for t in page.locator("option").all_text_contents()]
        played = [t.split(". ", 1)[1] for t in texts if re.match(r"\d+\. ", t)]
        state = rk.load_game("war-chest").initial_state().play(*played)
        deploy = next(m for m in state.legal_moves() if str(m).startswith("deploy"))
        layout = layout_scene(state.scene())
        canvas = 0
        page.wait_for_timeout(500)
        box = page.query_selector_all("canvas")[canvas].bounding_box()
        scale = box["width"] / layout.width

        def click(cell: str) -> None:
            x, y = layout.center_of(cell)
            page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)

        hex_x, hex_y = layout.center_of(deploy.cells[1])
        edge = (hex_x, hex_y + 0.75 * layout.cells[deploy.cells[1]].size)  # the hex rim, not a token
        click(deploy.cells[0])
        lit = rgb(TARGET)
        page.wait_for_function(
            f"() => {{ const f = {PIXEL_JS}; const px = f([{canvas}, {edge[0]}, {edge[1]}]);"
            f" return Math.abs(px[0] - {lit[0]}) + Math.abs(px[1] - {lit[1]}) < 80; }}", timeout=15_000)
        page.screenshot(path=str(ARTIFACTS / "war-chest-highlight.png"))
        click(deploy.cells[1])
        page.wait_for_selector(f"option:has-text('4. {deploy}')", state="attached", timeout=15_000)
        page.wait_for_timeout(500)
        coin = page.evaluate(PIXEL_JS, [canvas, hex_x, hex_y + 0.3 * layout.cells[deploy.cells[1]].size])
        assert close(coin, rgb("#E69F00")), f"no coin of side A drawn on {deploy.cells[1]}: {coin}"
        page.screenshot(path=str(ARTIFACTS / "war-chest-after-deploy.png"))
        browser.close()
