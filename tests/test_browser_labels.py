"""Names that fit their pieces, measured in the real page (issue #22 items 10 and 11).

Voilà serves the explorer and Debian's Chromium draws it at 1280x800 and at a phone's
390x844; in each game (a position in play loaded by its text) every name on a token is
measured with `getBBox()` and each corner of its box must lie in its token's shape (the
pentagon, the coin, the card: `isPointInFill`). Screenshots: test-artifacts/labels-*.png.
The same rule is checked headless on the drawing list by tests/test_labels.py.
"""

from __future__ import annotations

import html
import re

import pytest
from browser_support import ARTIFACTS, chromium_path, open_folded_tools, voila
from playing import random_game
from test_browser import WAIT_MS, see_all_where_hidden, wait_for_start

import rules_kernel as rk
from rules_kernel.session import Session
from widgets.layout import layout_scene
from widgets.presentation import present
from widgets.svg import hit_layer

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAMES = [
    ("yokai-3x4", {}, "Yōkai no Mori 3x4"),
    ("yokai-5x6", {}, "Yōkai no Mori 5x6"),
    ("war-stories", {}, "War Stories (Sengokuki)"),
    ("to-war", {}, "To War!"),
    ("war-chest", {}, "War Chest"),
]

#: every name on a token whose box leaves the token's shape: [token, text, box] (the label's
#: texts are those after the token's shape, a colour band or other text; a stack's count
#: badge and a control flag, after their own white circle or flag, are no name)
MEASURE = """() => {
    const out = [];
    let names = 0;
    for (const g of document.querySelectorAll('.re-board .re-scene g')) {
        const title = g.querySelector('title');
        const shape = g.querySelector('polygon, circle, rect');
        if (!title || !shape) continue;
        let reading = false;
        for (const el of g.children) {
            if (el === shape) { reading = true; continue; }
            if (el.tagName === 'text') {
                if (!reading) continue;
                names += 1;
                const b = el.getBBox();
                const inset = 0.5;
                const corners = [[b.x + inset, b.y + inset], [b.x + b.width - inset, b.y + inset],
                                 [b.x + b.width - inset, b.y + b.height - inset],
                                 [b.x + inset, b.y + b.height - inset]];
                const inside = corners.every(([x, y]) => {
                    const p = new DOMPoint(x, y);
                    return shape.isPointInFill(p) || shape.isPointInStroke(p);
                });
                if (!inside) out.push([title.textContent, el.textContent, [b.x, b.y, b.width, b.height]]);
            } else {
                const fill = (el.getAttribute('fill') || '').toUpperCase();
                // a ring or a colour band: the name may follow; a badge or a flag: not a name
                reading = el.tagName !== 'polygon' && fill !== '#FFFFFF';
            }
        }
    }
    return {names, outside: out};
}"""


@pytest.fixture(scope="module")
def server():
    with voila("explorer.ipynb") as url:
        yield url


#: every name the hit layer gives a place of the position is on the board (a lit target's
#: label says first what a click on it does: "a1: turn over … (here: Ki on a1)", or "a1: …"
#: for an empty place; widgets/svg.py _with_words)
NAMED = """(labels) => {
    const shown = new Set();
    for (const e of document.querySelectorAll('.re-board [data-cell]')) {
        const label = e.getAttribute('aria-label') || '';
        const here = label.match(/ \\(here: (.*)\\)$/);
        shown.add(label).add(here ? here[1] : label.split(':')[0]);
    }
    return labels.every(label => shown.has(label));
}"""


def position_in_play(game_id: str) -> rk.State:
    """The last position of a random game (up to 40 plies) at which a player is to act: the
    explorer resolves a pending chance event at once, so the page would show another one."""
    states, _ = random_game(rk.load_game(game_id), 1, cap=40)
    return next(s for s in reversed(states) if s.is_terminal() or s.current_player != rk.CHANCE)


def names_of(state: rk.State) -> list[str]:
    """The names the hit layer gives the places of `state` in the all-seeing view."""
    scene = present(Session(state, seed=0), None).scene
    return sorted(
        {html.unescape(m) for m in re.findall(r'aria-label="([^"]*)"', hit_layer(scene, layout_scene(scene)))}
    )


def show(page, title: str, game_id: str) -> None:
    """The game in the all-seeing view (no curtain), at a position in play."""
    page.locator("select").first.select_option(label=title)  # a new game of it, at once
    wait_for_start(page, title)
    see_all_where_hidden(page)
    open_folded_tools(page)
    state = position_in_play(game_id)
    page.locator(
        "input[placeholder='paste a position text here'], textarea[placeholder='paste a position text here']"
    ).first.fill(state.to_text())
    page.get_by_role("button", name="Load position").click()
    page.wait_for_function(NAMED, arg=names_of(state), timeout=WAIT_MS)


@pytest.mark.parametrize("viewport, slug", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_every_name_lies_inside_its_token(browser, server, viewport, slug):
    page = browser.new_page(viewport=viewport)
    page.goto(server, timeout=180_000)
    page.wait_for_selector(".re-board [data-cell]", timeout=180_000)
    seen = {}
    for game_id, _options, title in GAMES:
        show(page, title, game_id)
        result = page.evaluate(MEASURE)
        page.locator(".re-board").first.screenshot(path=str(ARTIFACTS / f"labels-{game_id}-{slug}.png"))
        page.screenshot(path=str(ARTIFACTS / f"labels-{game_id}-{slug}-page.png"), full_page=True)
        seen[game_id] = result
    page.close()
    for game_id in ("yokai-3x4", "war-chest"):
        assert seen[game_id]["names"] > 0, f"{game_id}: no names measured ({slug})"
    outside = {g: r["outside"] for g, r in seen.items() if r["outside"]}
    assert not outside, outside
