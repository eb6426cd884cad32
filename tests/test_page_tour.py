"""The page tour (issue #46 item 7): every published page, as a new player opens it.

One publishing-mode server (`python -m publish`, tests/browser_support.published) serves every
notebook; one Chromium holds two pages, one at 1280x800 and one at 390x844, which go through
the landing page, the explorer (a short game played by clicking cells in every game, 4-player
War Chest too, then a look back at the first move), the replay, the statistics, every rule
explainer, perfect play, Games from here, and any page a new landing card names. On each, the
whole visible text, every accessible name of what is rendered, the labels and each board's
texts and markers are read (tour_support.COLLECT) and checked by the rules of tour_support: no
move notation, no kebab-case id, no Python, no command, no file path, no label cut with "…",
no marker over a text, one turn count, no NaN and no statistics caption without its number of
games (checks that tests/test_browser_pages.py made on a server of its own per page, at one
size: the tour makes them on every page at both). A page not drawn within DRAWN_WITHIN_S is a
violation too (the tour goes on with the others). Screenshots: test-artifacts/tour/, and the time each
page took in test-artifacts/tour/timings.txt.

KNOWN would hold a violation the project accepts for now, exactly, with the issue item that
removes it; the tour fails on any violation not in KNOWN and on any KNOWN line that no longer
happens. Its first complete run (this session) found 27 and they were fixed instead: the
collection page's code and commands, the landing cards cut with "…", the To War! explainer's
army ids, and widgets whose tooltip read "null" on hover. KNOWN is empty.

Each rule is shown to fail on a page or a string made to break it, and to pass on a clean one.
"""

from __future__ import annotations

import contextlib
import random
import time

import pytest
from browser_support import ARTIFACTS, chromium_path, open_folded_tools, published
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_browser import click_cell, pick_game
from tour_support import (
    RULES,
    Seen,
    Violation,
    check,
    cut_labels,
    ids,
    lift_curtain,
    look,
    marker_covers,
    notation,
    numbers,
    paths,
    play_by_clicks,
    python,
    screenshot_whole,
    turn_count,
)
from tour_support import commands as command_rule

import rules_kernel as rk

pytestmark = [
    pytest.mark.skipif(
        chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
    ),
    # the tour is one fixture: about 3 minutes on a quiet machine, more beside a loaded run
    pytest.mark.timeout(1200),
]

SIZES = {"1280x800": {"width": 1280, "height": 800}, "390x844": {"width": 390, "height": 844}}
SHOTS = ARTIFACTS / "tour"
#: every page the tour must see (the landing page's cards add any new one)
PAGES = [
    "index.ipynb",
    "explorer.ipynb",
    "replay.ipynb",
    "statistics.ipynb",
    "statistics-dashboard.ipynb",
    "rules-yokai-3x4.ipynb",
    "rules-yokai-5x6.ipynb",
    "rules-war-stories.ipynb",
    "rules-to-war.ipynb",
    "rules-war-chest.ipynb",
    "perfect-play.ipynb",
    "collection.ipynb",
]
EXPLAINER_READY = (
    "() => document.querySelectorAll('.re-puzzle').length >= 3 && "
    "document.querySelectorAll('.re-board').length >= 5 && "
    "[...document.querySelectorAll('.re-board')].filter(b => b.querySelector('svg *')).length >= 5"
)
#: a page is there when its last kind of widget has arrived and drawn
READY = {
    "index.ipynb": "() => document.querySelectorAll('.landing-card').length >= 3",
    "explorer.ipynb": "() => document.querySelector('.re-board .re-hits [data-cell]')",
    "replay.ipynb": "() => document.querySelector('.re-board .re-hits [data-cell]')",
    "statistics.ipynb": "() => document.querySelectorAll('table.stats-table').length >= 7 && "
    "document.querySelectorAll('figure svg').length >= 5",
    "statistics-dashboard.ipynb": "() => document.querySelectorAll('table.stats-table').length >= 3 && "
    "document.querySelectorAll('figure svg').length >= 1",
    "perfect-play.ipynb": "() => document.querySelectorAll('.re-board .re-hits [data-cell]').length >= 48",
    "collection.ipynb": "() => document.querySelector('svg') && "
    "document.querySelectorAll('.re-games-from-here button.re-move').length >= 2",
}
#: the explorer's games: slug, title, options (the Options panel's words), actions to play
#: (chance included: the list's plies), a position to start from (None: New game's)
GAMES = [
    ("yokai-3x4", "Yōkai no Mori 3x4", {}, 4),
    ("yokai-5x6", "Yōkai no Mori 5x6", {}, 4),
    ("war-stories", "War Stories (Sengokuki)", {}, 4),
    ("to-war", "To War!", {}, 6),
    ("war-chest", "War Chest", {}, 3),
    ("war-chest-4p", "War Chest", {"Players": "4"}, 4),
]


def war_stories_deal() -> str:
    """A fixed deal of War Stories (the explorer deals at random): the tour's flips, and so its
    move list and turn count, are the same every run."""
    state = rk.load_game("war-stories").initial_state()
    return state.apply(state.sample_chance(random.Random(46))).to_text()


# --- KNOWN: today's violations, each with the #46 item that removes it --------------------------
# (page, rule, exact offending text) -> item. A fix deletes its line; a line whose violation
# no longer happens fails the tour. Pages: the notebook's name ("landing" for index), the
# explorer as explorer-<game>.
KNOWN: dict[tuple[str, str, str], int] = {}


# --- the rules, each failing on a page made to break it -----------------------------------------


def seen(text: str = "", **parts) -> Seen:
    return Seen(text=text, **parts)


CLEAN = seen(
    "1. First player: Koropokkuru b1–c2\nSide B deploys a Scout to g2 (the hex g2). "
    "First player's share: 51.5% (49.3–53.7%) of 1,973 decided games; n = 10,000. "
    "Light Cavalry, Warrior Priest, Far-Eastern army; a face-down card; 3x4 board; e.g. the try.",
    names=["Kodama (First player) on b2", "Side A: hand: Light Cavalry"],
    labels=["Side A: supply: 4 kinds", "Koro-", "pokkuru", "Thinking…  done"],
    lists=[[1, 2, 3]],
    captions=["Wins by seat; n = 10,000 games"],
)


@pytest.mark.parametrize(
    "rule, broken, offending",
    [
        (notation, seen("Any move: b1c2"), "b1c2"),
        (notation, seen("promotes: b3b2+"), "b3b2+"),
        (notation, seen("", names=["flip:a1"]), "flip:a1"),
        (notation, seen("(C@c1) drops"), "C@c1"),
        (notation, seen("BED@b2"), "BED@b2"),
        (notation, seen("strike the Swordsman on 3,5"), "3,5"),
        (notation, seen("the location (1,3)"), "(1,3)"),
        (notation, seen("Any move: pass pikeman"), "pass pikeman"),
        (notation, seen("deal: he khb asy"), "deal:"),
        (ids, seen("yokai-3x4 position 'gl1/1e+C/3/EL1[Cc] b - - 0 1'"), "yokai-3x4"),
        (ids, seen("15 coins of player 0 … light-cavalry"), "light-cavalry"),
        (ids, seen("", names=["warrior-priest"]), "warrior-priest"),
        (ids, seen("far-eastern won 26.3%"), "far-eastern"),
        (
            python,
            seen("<widgets.board.Board object at 0x7f16268cdda0>"),
            "<widgets.board.Board object at 0x7f16268cdda0>",
        ),
        (python, seen("Move(cells=('b1', 'c2'))"), "Move("),
        (python, seen("Traceback (most recent call last):"), "Traceback (most recent call last)"),
        (python, seen("ValueError: bad"), "ValueError:"),
        (
            python,
            seen("There was an error when executing cell [1]. Please"),
            "There was an error when executing cell [1]",
        ),
        (python, seen("replay.jump(10)      # the board"), "replay.jump("),
        (python, seen("its own rules kernel (rules_kernel.tablebase, ...)"), "rules_kernel.tablebase"),
        (python, seen("", names=["null"]), "null"),
        (python, seen("seat\n0    0.51\nName: share, dtype: float64"), "dtype: float64"),
        (python, seen("Wins by seat\nTrue\nthe table"), "True"),
        (
            command_rule,
            seen("python -m rules_kernel.make_data --only statistics"),
            "python -m rules_kernel.make_data --only statistics",
        ),
        (command_rule, seen("Run it with ./run publish."), "./run publish"),
        (paths, seen("see docs/tablebase.md"), "docs/tablebase.md"),
        (paths, seen("stored in data/ (Parquet)"), "data/"),
        (paths, seen("the rulebook (rules/war-chest.nl.txt)"), "rules/war-chest.nl.txt"),
        (paths, seen("README.md"), "README.md"),
        (
            cut_labels,
            seen(labels=["Side A: supply (Marshall, Mercenary, Pikeman, Wa…"]),
            "Side A: supply (Marshall, Mercenary, Pikeman, Wa…",
        ),
        (cut_labels, seen(labels=["Warri. Priest (Priest…)"]), "Warri. Priest (Priest…)"),
        (
            turn_count,
            seen("Showing the position after move 74 of 84", lists=[list(range(1, 56))]),
            "move 74 of 84 (the list ends at 55.)",
        ),
        (turn_count, seen("", lists=[[44, 45, 45, 46]]), "45. then 45."),
        (turn_count, seen("", lists=[[1, 2, 4]]), "2. then 4."),
        (numbers, seen("First player's share: NaN"), "NaN"),
        (numbers, seen("won nan% of the games"), "nan%"),
        (
            numbers,
            seen(captions=["Wins by seat (2-player games)"]),
            "no n in the caption 'Wins by seat (2-player games)'",
        ),
    ],
)
def test_a_rule_fails_on_a_text_made_to_break_it_and_passes_on_a_clean_one(rule, broken, offending):
    found = {v.text for v in rule("p", broken)}
    assert offending in found, found
    assert rule("p", CLEAN) == []


def test_every_rule_passes_on_the_clean_page_and_has_a_breaking_case():
    assert check("p", CLEAN) == set()
    assert {r.__name__ for r in RULES} == {
        "notation",
        "ids",
        "python",
        "commands",
        "paths",
        "cut_labels",
        "markers_over_text",
        "turn_count",
        "numbers",
    }


def test_a_marker_covers_a_box_by_its_paint_not_its_neighbourhood():
    name = (100.0, 100.0, 60.0, 16.0)  # "Kodama": x, y, w, h
    assert marker_covers({"kind": "circle", "cx": 130, "cy": 108, "r": 6}, name)  # "Kod●ama"
    assert not marker_covers({"kind": "circle", "cx": 130, "cy": 140, "r": 6}, name)  # a dot below
    assert not marker_covers({"kind": "circle", "cx": 130, "cy": 123, "r": 6}, name)  # grazes 1 px
    shaft = {"kind": "line", "x1": 60, "y1": 60, "x2": 200, "y2": 160, "w": 8}
    assert marker_covers(shaft, name)  # a shaft across the name
    assert not marker_covers({**shaft, "y1": 20, "y2": 60}, name)
    head = {"kind": "polygon", "points": [[150, 95], [170, 90], [165, 110]]}
    assert marker_covers(head, name)  # "4/3" under an arrowhead
    assert not marker_covers({"kind": "polygon", "points": [[170, 95], [190, 90], [185, 110]]}, name)


BROKEN_PAGE = """
<div class="re-board"><svg viewBox="0 0 300 200" width="300" height="200">
  <g class="re-scene"><text x="100" y="100" font-size="16">Kodama</text>
    <text x="200" y="180" font-size="12">Side A: supply (Marshall, Wa…</text></g>
  <g class="re-highlight"><circle cx="125" cy="95" r="7" fill="#2E7D32"/>
    <circle cx="40" cy="40" r="30" fill="none" stroke="#2E7D32" stroke-width="3"/></g>
  <g class="re-hits"><polygon points="0,0 10,0 10,10" data-cell="b2" aria-label="flip:b2"/></g>
</svg></div>
<div class="re-movelist"><div class="re-turn"><span class="re-turn-no">1.</span></div>
  <div class="re-turn"><span class="re-turn-no">2.</span></div></div>
<p>Showing the position after move 3 of 5. <button title="null">Play</button> yokai-3x4</p>
<p>Run python -m publish; see docs/publishing.md.</p>
<table class="stats-table"><caption>Wins by seat</caption><tr><td>NaN</td></tr></table>
"""


def test_the_page_reader_and_every_rule_fail_on_a_page_made_to_break_them(browser):
    """The same rules over a page read in Chromium (tour_support.COLLECT): the dot drawn over
    "Kodama", the cut zone heading, the notation in a name, the kebab id, the bare null, the
    command, the path, the count that disagrees with the list, the NaN and the caption without
    its n are each found; the ring
    around a cell (no paint over the name) is not; the page with them fixed is clean."""
    page = browser.new_page(viewport=SIZES["1280x800"])
    page.set_content(BROKEN_PAGE)
    found = check("broken", look(page))
    rules = {v.rule for v in found}
    assert rules == {
        "marker over text",
        "cut",
        "notation",
        "id",
        "python",
        "command",
        "path",
        "turn count",
        "numbers",
    }, found
    assert Violation("broken", "marker over text", "circle over 'Kodama'") in found
    assert Violation("broken", "turn count", "move 3 of 5 (the list ends at 2.)") in found
    fixed = (
        BROKEN_PAGE.replace('cy="95" r="7"', 'cy="160" r="7"')
        .replace("Marshall, Wa…", "4 kinds")
        .replace("flip:b2", "b2: turn over this card")
        .replace("move 3 of 5", "move 1 of 2")
        .replace(' title="null"', "")
        .replace(" yokai-3x4", "")
        .replace("Run python -m publish; see docs/publishing.md.", "Ask the site's host.")
        .replace("Wins by seat</caption><tr><td>NaN", "Wins by seat; n = 200</caption><tr><td>51%")
    )
    page.set_content(fixed)
    assert check("fixed", look(page)) == set()
    page.close()


# --- the tour ----------------------------------------------------------------------------------


def page_name(notebook: str) -> str:
    return "landing" if notebook == "index.ipynb" else notebook.removesuffix(".ipynb")


def load_position(page, text: str) -> None:
    """Load a position text in the explorer's folded tools (the all-seeing view takes one that
    names every card), back to the view the page had; wait until the list starts afresh."""
    view = page.locator(".re-side select").filter(has_text="All-seeing")
    before = view.evaluate("s => s.options[s.selectedIndex].text") if view.count() else None
    if before is not None:
        view.select_option(label="All-seeing (analysis)")
    open_folded_tools(page)
    page.locator(
        "input[placeholder='paste a position text here'], textarea[placeholder='paste a position text here']"
    ).first.fill(text)
    page.get_by_role("button", name="Load position").first.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.re-movelist .re-move:not(.re-start)').length === 0",
        timeout=30_000,
    )
    page.locator(".re-tools-toggle").first.click()  # folded again: the board is in view
    if before is not None:
        view.select_option(label=before)


#: the first move can be clicked, or a hand-over asks first (an agent's or chance's action may
#: still bring it down after the last click)
FIRST_MOVE_OR_HAND_OVER = """() => {
    const first = document.querySelector('.re-movelist .re-move[data-ply="1"]');
    const handing = Array.from(document.querySelectorAll('.re-curtain-button, .re-done-button'))
        .some(e => e.offsetParent !== null);
    return handing || (first !== null && first.offsetParent !== null);
}"""


def look_back_at_the_first_move(page) -> None:
    """Click the list's first move (the history is seen by the player at the screen: any
    hand-over first); wait for the note that a past position is shown."""
    first = page.locator('.re-movelist .re-move[data-ply="1"]').first
    for _ in range(5):
        page.wait_for_function(FIRST_MOVE_OR_HAND_OVER, timeout=30_000)
        lift_curtain(page)
        with contextlib.suppress(PlaywrightTimeout):
            first.click(timeout=5_000)
            page.locator(".re-looking-back").first.wait_for(state="visible", timeout=15_000)
            return
    raise AssertionError("the first move of the list could not be clicked")


def tour_explorer(page, size: str, found: set[Violation]) -> None:
    """Each game of the explorer: chosen, a short game played by clicks (the page read once
    while targets are lit, for the markers), a look back at move 1; read; screenshot."""
    page.set_default_timeout(10_000)  # a cell gone from a redrawn board is looked for again
    for slug, title, options, actions in GAMES:
        name = f"explorer-{slug}"
        if slug != "yokai-3x4":  # the page opens on Yōkai 3x4
            pick_game(page, title, **options)
        if slug == "war-stories":
            load_position(page, war_stories_deal())
        play_by_clicks(
            page, actions, click_cell, on_lit=lambda name=name: found.update(check(name, look(page)))
        )
        look_back_at_the_first_move(page)
        found.update(check(name, look(page)))
        screenshot_whole(page, str(SHOTS / f"{name}-{size}.png"))


#: a page the tour does not know yet (a new card on the landing page): its cells are shown and
#: no widget is still loading
GENERIC_READY = (
    "() => document.readyState === 'complete' && document.querySelector('.jp-OutputArea-output') && "
    "!document.body.innerText.includes('Loading widget')"
)


#: how long a page may take to be drawn (its kernel runs the notebook first)
DRAWN_WITHIN_S = 180


def wait_until_drawn(tab, notebook: str, size: str) -> Violation | None:
    """None once the page is drawn (READY); a page not drawn in time is a violation of its
    own (the tour goes on with the other pages, and the screenshot shows how far it got)."""
    explainer = EXPLAINER_READY if notebook.startswith("rules-") else GENERIC_READY
    # a tab asked for ahead is in the background, where Chromium stops drawing frames:
    # to the front, and the condition polled by the clock, not by frames
    tab.bring_to_front()
    try:
        tab.wait_for_function(READY.get(notebook, explainer), polling=250, timeout=DRAWN_WITHIN_S * 1000)
        return None
    except PlaywrightTimeout:
        screenshot_whole(tab, str(SHOTS / f"{page_name(notebook)}-{size}-not-drawn.png"))
        return Violation(page_name(notebook), "drawn", f"not drawn within {DRAWN_WITHIN_S} s at {size}")


@pytest.fixture(scope="module")
def tour(browser) -> dict:
    """The tour, once for the module, in the module's Chromium (conftest's `browser`), one
    context per size: {"found": violations, "pages": pages seen, "shots": screenshot files}.
    Each page is asked for at both sizes while the one before it is read."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: set[Violation] = set()
    pages_seen: list[str] = []
    start = time.monotonic()
    timings = []
    with published("--pool-size", "0") as site:
        contexts = {size: browser.new_context(viewport=viewport) for size, viewport in SIZES.items()}

        def ask_for(notebook: str) -> dict:
            tabs = {size: context.new_page() for size, context in contexts.items()}
            for tab in tabs.values():
                tab.goto(site.url + "voila/render/" + notebook, wait_until="commit", timeout=120_000)
            return tabs

        opened = {"index.ipynb": ask_for("index.ipynb")}
        landing = opened["index.ipynb"]["1280x800"]
        late = wait_until_drawn(landing, "index.ipynb", "1280x800")
        assert late is None, "the landing page, which names every other page, was not drawn"
        cards = landing.eval_on_selector_all(".landing-card", "cs => cs.map(c => c.getAttribute('href'))")
        linked = [href.rsplit("/", 1)[-1] for href in cards]
        pages_seen.append(f"landing links: {sorted(linked)}")
        notebooks = PAGES + [n for n in linked if n not in PAGES]
        for i, notebook in enumerate(notebooks):
            # the next page is asked for now: its kernels run the notebook while this one is
            # read (more at once swamp two cores: the pages then wait on each other)
            for later in notebooks[i + 1 : i + 2]:
                opened[later] = ask_for(later)
            for size, tab in opened.pop(notebook).items():
                late = wait_until_drawn(tab, notebook, size)
                if late is not None:
                    found.add(late)
                elif notebook == "explorer.ipynb":
                    tour_explorer(tab, size, found)
                else:
                    name = page_name(notebook)
                    found.update(check(name, look(tab)))
                    screenshot_whole(tab, str(SHOTS / f"{name}-{size}.png"))
                tab.close()
            pages_seen.append(notebook)
            timings.append(f"{time.monotonic() - start:6.1f} s  {notebook} read at both sizes")
        for context in contexts.values():
            context.close()
    # how long the tour takes, for whoever keeps the suite in its budget (not asserted)
    (SHOTS / "timings.txt").write_text("\n".join(timings) + "\n", encoding="utf-8")
    return {"found": found, "pages": pages_seen, "shots": sorted(f.name for f in SHOTS.glob("*.png"))}


def test_the_tour_sees_every_published_page_at_both_sizes(tour):
    linked = next(p for p in tour["pages"] if p.startswith("landing links"))
    assert all(nb in linked for nb in PAGES if nb != "index.ipynb"), linked
    assert all(nb in tour["pages"] for nb in PAGES)
    names = [page_name(nb) for nb in PAGES if nb != "explorer.ipynb"]
    names += [f"explorer-{slug}" for slug, *_ in GAMES]
    wanted = {f"{name}-{size}.png" for name in names for size in SIZES}
    assert wanted <= set(tour["shots"]), sorted(wanted - set(tour["shots"]))


def test_every_page_keeps_the_rules_but_the_known_violations(tour):
    """A violation not in KNOWN fails; so does a KNOWN line that no longer happens (delete it)."""
    found = {(v.page, v.rule, v.text) for v in tour["found"]}
    new = sorted(found - set(KNOWN))
    gone = sorted(set(KNOWN) - found)
    assert not new and not gone, "\n".join(
        ["new violations:"] + [f"  {v!r}," for v in new] + ["no longer seen (delete):"]
    ) + "\n".join(f"  {v!r}," for v in gone)
