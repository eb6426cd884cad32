"""The statistics page's board heatmaps in a real browser: Voilà serves the notebook, Debian's
Chromium (Playwright) opens it, and the canvases' own pixels (getImageData) are read back.

Each heatmap must have drawn every cell: the cells where something was counted in the colour
of their count's class, the others left white — as many coloured cells as the recorded games
(data/actions.parquet) give. The pixel read is a point well inside each cell, between the
count written at its centre and its outline. Screenshots of the heatmaps at 1280x800 and
390x844 go to test-artifacts/ (heatmap-1280x800.png, heatmap-390x844.png)."""

from __future__ import annotations

import pandas as pd
import pytest
from browser_support import ARTIFACTS, ROOT, chromium_path, voila

import rules_kernel as rk
from widgets import heatmap

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

#: [class, [[x, y], ...]] -> the RGB at each point of that canvas, in its own pixels
PIXELS_JS = """([name, points]) => {
    const c = document.querySelector('canvas.' + name);
    const ctx = c.getContext('2d');
    return points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
}"""


def expected_cells():
    """Per heatmap: its canvas class, and per cell a sample point (canvas pixels) and the
    colour the cell must have."""
    actions = pd.read_parquet(ROOT / "data" / "actions.parquet")
    out = []
    for picture in heatmap.pictures():
        scene = rk.load_game(picture.game).initial_state().scene()
        counts = picture.count(actions, scene).counts()
        scale = heatmap.ColourScale(max(counts.values(), default=0))
        _, layout = heatmap.heatmap_drawing(scene, counts, "", scale)
        cells = {}
        for cid, box in layout.cells.items():
            vx, vy = box.polygon[0]  # 85% of the way from the centre to a corner: clear of
            x = box.cx + 0.85 * (vx - box.cx)  # the count, its ring and the outline
            y = box.cy + 0.85 * (vy - box.cy)
            cells[cid] = ((round(x * 2), round(y * 2)), scale.colour(counts.get(cid, 0)))  # 2 px a unit
        out.append((f"re-heatmap-{picture.key}", cells, counts))
    return out


def test_heatmaps_colour_their_cells(browser):
    wanted = expected_cells()
    with voila("statistics.ipynb") as url:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url, timeout=120_000)
        page.wait_for_function(
            f"() => document.querySelectorAll('canvas.re-heatmap-canvas').length === {len(wanted)}",
            timeout=120_000,
        )
        for name, cells, counts in wanted:
            points = [list(point) for point, _ in cells.values()]
            # drawn once the browser's canvas said it was ready and the kernel painted again
            page.wait_for_function(
                "([name, x, y]) => { const c = document.querySelector('canvas.' + name);"
                " return c.getContext('2d').getImageData(x, y, 1, 1).data[3] > 0; }",
                arg=[name, *points[0]],
                timeout=60_000,
            )
            seen = page.evaluate(PIXELS_JS, [name, points])
            got = {cid: "#{:02X}{:02X}{:02X}".format(*rgb) for cid, rgb in zip(cells, seen, strict=True)}
            assert got == {cid: colour for cid, (_, colour) in cells.items()}, name
            coloured = [cid for cid, colour in got.items() if colour != heatmap.NONE]
            assert len(coloured) == sum(1 for n in counts.values() if n > 0) > 0, name
        page.locator(".re-heatmap").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "heatmap-1280x800.png"))
        page.set_viewport_size({"width": 390, "height": 844})  # CSS lays the page out again at once
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # no sideways scroll
        widths = page.evaluate(
            "() => [...document.querySelectorAll('canvas.re-heatmap-canvas')]"
            ".map(c => c.getBoundingClientRect().right)"
        )
        assert max(widths) <= 390  # the canvases scaled down by CSS, inside the phone's width
        legend = page.locator(".re-heatmap-legend").nth(2)
        assert legend.bounding_box()["width"] <= 390
        page.locator(".re-heatmap").nth(3).scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "heatmap-390x844.png"))
        page.close()
