"""The real thing: Voilà serves the explorer dashboard and Debian's Chromium (Playwright)
uses it as a player would — by mouse, by keyboard, on a desktop and on a phone — and as a
curious visitor would: looking through the whole page for what a player's view hides.

One Voilà server serves the module; each test opens its own page (its own kernel)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from browser_support import ARTIFACTS, chromium_path, open_folded_tools, settle, voila
from playwright.sync_api import expect

import rules_kernel as rk
from rules_kernel.session import Session
from widgets.layout import layout_scene
from widgets.presentation import has_secrets, line_of

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000  # how long a condition may take to hold on a loaded machine (not a sleep)
#: everything a visitor's browser holds of the page: markup with every attribute, option and
#: link (style sheets left out), the values of inputs, and the visible text
PAGE_DUMP = """() => {
    const body = document.body.cloneNode(true);
    body.querySelectorAll('style, script').forEach(e => e.remove());
    const values = Array.from(document.querySelectorAll('input, textarea, select'))
        .map(e => e.value).join('\\n');
    return body.outerHTML + '\\n' + values + '\\n' + document.body.innerText;
}"""


@pytest.fixture(scope="module")
def server():
    # one kernel kept ready with the notebook run (Voilà's pool, as the publishing mode keeps
    # the explorer's): each of the module's pages starts its own, and the next one is made
    # while a test plays instead of after it asks
    with voila("explorer.ipynb", preheat=1) as url:
        yield url


def open_explorer(browser, server, viewport=DESKTOP):
    page = browser.new_page(viewport=viewport)
    page.goto(server, timeout=180_000)  # a busy machine (two test workers) can be slow
    page.wait_for_selector(".re-board [data-cell]", timeout=180_000)
    return page


MOVES = ".re-movelist .re-move:not(.re-start)"
#: the page shows the start of a game: its options' title, every cell of its board, the
#: status naming the player to move, the move list holding what comes before that player's
#: first turn (a deal, coins drawn), and the view menu exactly where the game hides anything
GAME_STARTED = (
    """([title, cells, mover, lines, hides]) => {
    const toggle = document.querySelector('.re-options-toggle');
    const board = document.querySelector('.re-board');
    const status = (document.querySelector('[role=status]') || {}).textContent || '';
    const views = Array.from(document.querySelectorAll('.re-side select option'))
        .some(o => o.textContent.startsWith('All-seeing') && o.closest('select').offsetParent !== null);
    return !!toggle && toggle.textContent.startsWith('Options of ' + title + ' ')
        && !!board && cells.every(c => board.querySelector(`[data-cell="${c}"]`))
        && status.startsWith(mover)
        && document.querySelectorAll('"""
    + MOVES
    + """').length === lines
        && views === hides;
}"""
)


@cache
def game_id_of(title: str) -> str:
    return next(gid for gid in rk.list_games() if rk.load_game(gid).title == title)


def option_values(options: dict[str, str]) -> dict[str, object]:
    """The Options panel's labels and values as the game's options ("Players": "4" is
    players=4, "Strategic": "on" is strategic=True)."""

    def value(v: str) -> object:
        return {"on": True, "off": False}.get(v, int(v) if v.isdigit() else v)

    return {label.lower().replace(" ", "_"): value(v) for label, v in options.items()}


def start_of(title: str, **options: str) -> list:
    """What the page shows at the start of a game (GAME_STARTED's argument), from the kernel:
    the number of lines before the first turn does not depend on the deal (any seed)."""
    game = rk.load_game(game_id_of(title), **option_values(options))
    session = Session(game.initial_state(), seed=0)
    cells = list(layout_scene(session.state.scene()).cells)
    mover = game.player_names[session.state.current_player]
    return [title, cells, mover, len(line_of(session, None)), has_secrets(game)]


def wait_for_start(page, title: str, **options: str) -> None:
    """Wait until the page shows a new game of `title` with `options` (GAME_STARTED)."""
    page.wait_for_function(GAME_STARTED, arg=start_of(title, **options), timeout=WAIT_MS)


def pick_game(page, title: str, **options: str) -> None:
    """Choose a game by its title: another game starts at once, with its options' defaults.
    With `options` (set in the Options panel), or when the game was on show already, press
    New game. Each time, wait until the page shows the new game's start."""
    shown = page.locator(".re-options-toggle").first.inner_text().startswith(f"Options of {title} ")
    page.locator("select").first.select_option(label=title)
    if not shown:
        wait_for_start(page, title)
        if not options:
            return
    if options:
        page.get_by_text(f"Options of {title}").click()
        for label, value in options.items():
            field = page.locator(".widget-dropdown, .widget-checkbox").filter(has_text=label).first
            if value in ("on", "off"):
                box = field.locator("input[type=checkbox]")
                if box.is_checked() != (value == "on"):
                    box.click()
            else:
                field.locator("select").select_option(label=value)
        page.get_by_text(f"Options of {title}").click()
    page.get_by_role("button", name="New game").click()
    wait_for_start(page, title, **options)


def see_all(page) -> None:
    """Choose the all-seeing view and wait until the page is drawn in it: nobody is "(you)"
    in the players' line any more."""
    page.locator(".re-side select").filter(has_text="All-seeing").select_option(label="All-seeing (analysis)")
    page.wait_for_function("() => !document.body.innerText.includes('(you)')", timeout=WAIT_MS)


def see_all_where_hidden(page) -> None:
    """The all-seeing view, where the game hides anything (its view menu offers it)."""
    if page.locator(".re-side select").filter(has_text="All-seeing").count():
        see_all(page)


def move_list(page) -> list[str]:
    """The move list as lines, '3. First player: Kitsune a1–b2' (the list's entries in words)."""
    return page.eval_on_selector_all(
        MOVES,
        "els => els.map(e => e.dataset.ply + '. ' + e.closest('.re-turn')"
        ".querySelector('.re-side-name').textContent + ': ' + e.textContent)",
    )


def wait_for_ply(page, ply: int) -> None:
    page.wait_for_selector(f'.re-movelist .re-move[data-ply="{ply}"]', state="attached", timeout=15_000)


def click_cell(page, cell: str) -> None:
    page.locator(f'.re-board [data-cell="{cell}"]').dispatch_event("pointerdown")


#: a selection's targets are lit on the board
LIT = "() => document.querySelectorAll('.re-board .re-highlight circle').length > 0"


#: the board is laid out for the width it has: the kernel lays the drawing out again for a
#: board shrunk by more than a tenth of its natural width (widgets/board.py, client_width)
LAID_OUT = """() => {
    const board = document.querySelector('.re-board');
    const svg = board && board.querySelector('svg');
    const room = board ? Math.floor(board.getBoundingClientRect().width / 10) * 10 : 0;
    return !!svg && svg.viewBox.baseVal.width > 0 && svg.viewBox.baseVal.width <= room / 0.9 + 1;
}"""


def lit_targets(page) -> int:
    """How many target rings the highlight layer holds now."""
    return page.locator(".re-board .re-highlight circle").count()


def test_click_a_piece_see_its_moves_play_one(browser, server):
    page = open_explorer(browser, server)
    assert lit_targets(page) == 0
    page.locator('.re-board [data-cell="b1"]').click()  # a real mouse click on the Koropokkuru
    page.wait_for_function("() => document.querySelectorAll('.re-board .re-highlight circle').length >= 4")
    page.screenshot(path=str(ARTIFACTS / "explorer-highlight.png"))
    page.locator('.re-board [data-cell="c2"]').click()
    wait_for_ply(page, 1)
    start = rk.load_game("yokai-3x4").initial_state()
    assert move_list(page) == [f"1. First player: {start.action_text(start.parse_move('b1c2'))}"]
    expect(page.locator('.re-board [data-cell="c2"]')).to_have_attribute(
        "aria-label", re.compile("Koropokkuru"), timeout=WAIT_MS
    )
    expect(page.locator("[role=status]").first).to_have_text("Second player to move", timeout=WAIT_MS)
    assert "Koropokkuru" in page.locator('.re-board [data-cell="c2"]').get_attribute("aria-label")
    assert page.locator("[role=status]").first.inner_text().strip() == "Second player to move"
    page.screenshot(path=str(ARTIFACTS / "explorer-after-move.png"))
    page.close()


def test_a_whole_yokai_game_by_keyboard_alone(browser, server):
    """Tab to the board, arrows move the cursor, Enter selects: b1c2, b4c3, c2c3 captures the
    second player's Koropokkuru (rulebook: "Wer den Koropokkuru des Gegners schlägt, gewinnt")."""
    line = ["b1c2", "b4c3", "c2c3"]
    state = rk.load_game("yokai-3x4").initial_state()
    assert state.play(*line).outcome().winner == 0
    page = open_explorer(browser, server)
    board = page.locator(".re-board")
    for _ in range(40):  # Tab through the page's controls until the board has the focus
        page.keyboard.press("Tab")
        if board.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the board")
    layout = layout_scene(state.scene())
    cursor = sorted({m.cells[0] for m in state.legal_moves()})[0]  # where the cursor starts
    for ply, move in enumerate(line, start=1):
        for cell in (move[:2], move[2:]):
            cursor = walk(page, layout, cursor, cell)
            if cell == move[:2]:
                page.keyboard.press("Enter")  # selected: its targets light up
                page.wait_for_function(LIT, timeout=WAIT_MS)
            else:
                page.keyboard.press("Space")
        wait_for_ply(page, ply)
    expect(page.locator("[role=status]").first).to_contain_text(
        re.compile("First player wins|captured"), timeout=WAIT_MS
    )
    status = page.locator("[role=status]").first.inner_text()
    assert "First player wins" in status or "captured" in status, status
    states = [state.play(*line[:i]) for i in range(len(line))]
    words = [before.action_text(before.parse_move(move)) for before, move in zip(states, line, strict=True)]
    assert [t.split(": ", 1)[1] for t in move_list(page)] == words
    page.keyboard.press("Tab")  # and the focus leaves the board again
    assert not board.evaluate("el => el === document.activeElement")
    page.screenshot(path=str(ARTIFACTS / "explorer-keyboard-game.png"))
    # Issue 46 item 6: Left/Right/Home/End go through the history wherever the focus is not
    # in something that reads those keys (here: nothing focused, as after a click on the page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for key, ply in (("ArrowLeft", 2), ("Home", 0), ("ArrowRight", 1), ("End", 3)):
        page.keyboard.press(key)
        page.wait_for_selector(f'.re-movelist [data-ply="{ply}"][aria-selected="true"]', timeout=15_000)
    page.close()


def walk(page, layout, start: str, goal: str) -> str:
    (x0, y0), (x1, y1) = layout.center_of(start), layout.center_of(goal)
    size = layout.cells[start].size
    for key, steps in (("ArrowRight", round((x1 - x0) / size)), ("ArrowDown", round((y1 - y0) / size))):
        back = {"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}[key]
        for _ in range(abs(steps)):
            page.keyboard.press(key if steps > 0 else back)
    return goal


@pytest.mark.parametrize(
    "title, options, slug",
    [
        ("War Stories (Sengokuki)", {}, "war-stories"),
        ("War Chest", {}, "war-chest"),
        ("War Chest", {"Players": "4"}, "war-chest-4p"),
        ("To War!", {"Strategic": "on"}, "to-war-strategic"),
    ],
)
def test_a_players_view_keeps_its_secrets_everywhere_on_the_page(browser, server, title, options, slug):
    """In the view of the player to move, the whole page — text, every option of every menu,
    every attribute, links — names no hidden chance result and no position text. The
    secrets are then read from the same page in the all-seeing analysis view."""
    page = open_explorer(browser, server)
    pick_game(page, title, **options)
    for _ in range(3):  # a few moves, so there are draws of both sides
        play_any_move(page)
    seen = page.evaluate(PAGE_DUMP)
    player_lines = move_list(page)
    own_moves = page.evaluate(OWN_MOVES)
    if slug == "war-stories":  # the deal is face down (War Chest deals its armies face up)
        assert not re.search(r"(?<![\w-])deal:", seen)
    page.screenshot(path=str(ARTIFACTS / f"view-{slug}.png"))
    see_all(page)
    open_folded_tools(page)  # drawn by the kernel after the all-seeing view: the list is too
    box = page.locator("input[placeholder='paste a position text here']")
    expect(box).not_to_have_value("", timeout=WAIT_MS)  # the all-seeing view shows the position
    all_lines = move_list(page)
    position = box.input_value()
    # a line the player saw differently (not just without the name of a card the flip showed)
    hidden = [
        full.split(": ", 1)[1] for mine, full in zip(player_lines, all_lines, strict=True) if mine != full
    ]
    # War Stories' list reads the same in every view (the deal is face down in every list,
    # issue 46 item 2): its secrets are the face-down cards, which the position text names
    assert (hidden or slug == "war-stories") and position, "the all-seeing view shows what the view hid"
    # words the player's own menu offers are theirs to see: each War Chest side has a Royal
    # coin, so "passes, paying with the Royal coin" is the other side's secret in the list and
    # the player's own move in the menu (the words name no side; the list names it beside them)
    assert own_moves, "the player to move is offered moves"
    secrets = [secret for secret in hidden if secret not in own_moves]
    for secret in secrets + [position]:
        assert secret not in seen, f"{secret[:40]!r} leaks into the player's view"
    page.close()


#: the words of the moves the 'Any move' menu offers the player to move
OWN_MOVES = """() => Array.from(document.querySelectorAll('.widget-dropdown'))
    .filter(d => (d.querySelector('label') || {}).textContent === 'Any move')
    .flatMap(d => Array.from(d.querySelectorAll('option')).map(o => o.textContent))"""


def play_any_move(page) -> None:
    """Play the first move of the 'Any move' menu, then hand over as players do: "Done — hand
    over" after a look at what the turn turned up, then lift the curtain.

    Each step reads the page at rest (`settle`): a move redraws the page in several messages,
    and Play read half-way is still enabled a moment before the look at a turned card disables
    it (a click then waited 30 s on a disabled button: CI, once in about ten runs)."""
    settle(page)
    n = len(move_list(page))
    button = page.get_by_role("button", name="Play", exact=True)
    played = button.is_enabled()
    if played:
        button.click()
        page.wait_for_function(PLAYED, arg=n, timeout=WAIT_MS)
        settle(page)
    done = page.locator(".re-done-button")
    if done.count() and done.first.is_visible():
        done.first.click()
        expect(page.locator(".re-curtain-button").first).to_be_visible(timeout=WAIT_MS)
        settle(page)
    curtain = page.get_by_role("button", name=re.compile("^Show .*'s view$"))
    if curtain.count() and curtain.first.is_visible():
        curtain.first.click()
        page.wait_for_function(LIFTED, arg=n if played else n - 1, timeout=WAIT_MS)
        settle(page)


#: a move was played (the list had `n` entries) and the page is drawn for what comes next:
#: the hand-over curtain, or the longer list with the next move to choose (Play, or the
#: look at what the turn turned up)
PLAYED = (
    """(n) => {
    const shown = (s) => Array.from(document.querySelectorAll(s)).some(e => e.offsetParent !== null);
    const named = (s) => Array.from(document.querySelectorAll(s))
        .some(e => e.offsetParent !== null && e.textContent.trim());
    const play = Array.from(document.querySelectorAll('.re-side button')).find(b => b.textContent === 'Play');
    return named('.re-curtain-button') || document.querySelectorAll('"""
    + MOVES
    + """').length > n
        && (shown('.re-done-button') || !!play && play.offsetParent !== null && !play.disabled);
}"""
)
#: the curtain is lifted and the next player's view drawn: board and the list (more than `n`)
LIFTED = (
    """(n) => !Array.from(document.querySelectorAll('.re-curtain-button'))
        .some(e => e.offsetParent !== null)
    && !!document.querySelector('.re-board [data-cell]')
    && document.querySelectorAll('"""
    + MOVES
    + """').length > n"""
)


@pytest.mark.parametrize("options, slug", [({}, "war-chest"), ({"Players": "4"}, "war-chest-4p")])
def test_war_chest_map_and_own_zones_fit_one_screen(browser, server, options, slug):
    """1280x800: the whole map and the mover's hand, bag and supply without scrolling; a coin
    clicked in the hand lights its deploy hexes, and a click there deploys it."""
    page = open_explorer(browser, server)
    pick_game(page, "War Chest", **options)
    page.evaluate("window.scrollTo(0, 0)")
    board = page.locator(".re-board")
    hexes = board.locator('[data-cell*=","]')
    own = board.locator('[data-cell^="hand-0:"], [data-cell^="supply-0:"]')
    assert hexes.count() in (37, 47) and own.count() >= 2
    for shape in hexes.all() + own.all():
        box = shape.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"] + 1, (slug, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"], (slug, box)
    page.screenshot(path=str(ARTIFACTS / f"{slug}-one-screen.png"))
    coin = own.first.get_attribute("data-cell")
    board.locator(f'[data-cell="{coin}"]').click()
    page.wait_for_function(LIT, timeout=WAIT_MS)
    assert lit_targets(page) >= 1
    page.screenshot(path=str(ARTIFACTS / f"{slug}-highlight.png"))
    page.close()


@pytest.mark.parametrize("title", ["Yōkai no Mori 3x4", "War Chest"])
def test_phone_every_control_inside_the_viewport(browser, server, title):
    """390x844: the controls stack under the board, nothing sticks out sideways."""
    page = open_explorer(browser, server, viewport=PHONE)
    pick_game(page, title)
    page.wait_for_function(LAID_OUT, timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    board = page.locator(".re-board svg").bounding_box()
    moves = page.locator(".re-movelist").bounding_box()
    assert moves["y"] >= board["y"] + board["height"] - 1, "the side panel is stacked under the board"
    controls = page.locator("button, select, input").all()
    assert len(controls) > 10
    for control in controls:
        if not control.is_visible():
            continue
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (
            control.evaluate("el => el.outerHTML.slice(0, 80)"),
            box,
        )
    page.screenshot(path=str(ARTIFACTS / f"phone-{title.split()[0].lower()}.png"), full_page=True)
    page.close()


def test_a_hostile_record_uploaded_to_the_replay_dashboard_is_one_escaped_line(browser):
    """A visitor uploads a record whose game name is markup: the page shows one line of text
    saying so, no element is injected, and the game on show stays."""
    hostile = (
        '{"format": "rules-explorer/1", "game": "<img src=x onerror=\\"document.title=\'pwned\'\\">", '
        '"options": {}, "actions": ["b2b3"]}\n'
    )
    with voila("replay.ipynb") as url:
        page = browser.new_page(viewport=DESKTOP)
        page.goto(url, timeout=90_000)
        page.wait_for_selector(".re-board [data-cell]", timeout=90_000)
        before = page.locator(".re-board .re-scene").inner_html()
        with page.expect_file_chooser() as chooser:  # the upload button opens the file picker
            page.get_by_role("button", name=re.compile("Load record")).click()
        chooser.value.set_files(
            files=[{"name": "evil.jsonl", "mimeType": "application/json", "buffer": hostile.encode()}]
        )
        alert = page.locator("[role=alert]")
        alert.wait_for(timeout=15_000)
        assert "unknown game" in alert.inner_text() and "<img" in alert.inner_text()  # shown as text
        assert page.locator("img[src=x]").count() == 0 and page.title() != "pwned"
        assert page.locator(".re-board .re-scene").inner_html() == before
        page.screenshot(path=str(ARTIFACTS / "replay-hostile-upload.png"))
        page.close()


def shown_ply(page) -> int:
    return int(page.eval_on_selector('.re-movelist [aria-selected="true"]', "e => Number(e.dataset.ply)"))


def test_history_by_click_and_by_keys(browser, server):
    """Issue #22 item 4: click a move to see its position; Left/Right/Home/End on the list,
    PageUp/Home/End on the board; 'Back to the game' returns; nothing is undone."""
    page = open_explorer(browser, server)
    for ply, (a, b) in enumerate((("b2", "b3"), ("a4", "a3"), ("a1", "b2")), start=1):
        click_cell(page, a)
        page.wait_for_function(LIT, timeout=WAIT_MS)
        click_cell(page, b)
        wait_for_ply(page, ply)  # the list is drawn after the board
    end = page.locator(".re-board .re-scene").inner_html()
    page.locator('.re-movelist .re-move[data-ply="1"]').click()
    page.wait_for_function(
        "() => document.querySelector('.re-movelist [aria-selected=\"true\"]').dataset.ply === '1'"
    )
    back = page.get_by_role("button", name="Back to the game")
    back.wait_for(state="visible", timeout=10_000)
    note = page.locator(".re-looking-back").inner_text()
    assert "Showing the position after turn 1 of 3 (First player's)" in note
    assert page.locator(".re-board .re-scene").inner_html() != end
    page.screenshot(path=str(ARTIFACTS / "history-looking-back-1280x800.png"))
    page.locator(".re-movelist").focus()
    for key, ply in (("ArrowRight", 2), ("ArrowLeft", 1), ("Home", 0), ("End", 3)):
        page.keyboard.press(key)
        page.wait_for_function(
            f"() => document.querySelector('.re-movelist [aria-selected=\"true\"]').dataset.ply === '{ply}'"
        )
    assert page.locator(".re-board .re-scene").inner_html() == end  # the game as it stood
    page.locator(".re-board").focus()
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('.re-movelist [aria-selected=\"true\"]').dataset.ply === '0'"
    )
    back.click()
    page.wait_for_function(
        "() => document.querySelector('.re-movelist [aria-selected=\"true\"]').dataset.ply === '3'"
    )
    assert shown_ply(page) == 3 and len(move_list(page)) == 3
    page.close()


def test_the_curtain_takes_the_focus_and_gives_it_to_the_board(browser, server):
    """Issue #22 item 8: when the hand-over curtain comes down, the focus goes to its button
    (not to the page's body), and to the board once the next player is sitting there."""
    page = open_explorer(browser, server)
    pick_game(page, "War Chest")
    curtain = page.locator(".re-curtain-button")
    play = page.get_by_role("button", name="Play", exact=True)
    for _ in range(12):
        if curtain.is_visible():
            break
        n = len(move_list(page))
        play.click()
        page.wait_for_function(PLAYED, arg=n, timeout=WAIT_MS)
    else:
        pytest.fail("no hand-over curtain in a dozen moves")
    page.wait_for_function(
        "() => document.activeElement.classList.contains('re-curtain-button')", timeout=10_000
    )
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.classList.contains('re-board')", timeout=10_000)
    page.close()


def test_tab_reaches_the_options_and_the_position_error_stands_under_the_box(browser, server):
    """Issue #22 items 8 and 9: Options is a Tab stop that opens with Enter; a position of
    another game is explained right under the box, with a button that switches and loads it."""
    page = open_explorer(browser, server)
    for _ in range(15):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('re-options-toggle')"):
            break
    else:
        pytest.fail("Tab never reached the Options button")
    page.keyboard.press("Enter")
    page.get_by_text("repetitions", exact=False).first.wait_for(timeout=10_000)
    pick_game(page, "Yōkai no Mori 5x6")
    open_folded_tools(page)
    box = page.locator("input[placeholder='paste a position text here']")
    box.fill("gle/1c1/1C1/ELG[] w - - 0 1")
    page.get_by_role("button", name="Load position").click()
    alert = page.locator(".re-side [role=alert]").first
    alert.wait_for(timeout=10_000)
    text = alert.inner_text()
    assert text.startswith("This is not a Yōkai no Mori 5x6 position") and "…" not in text
    below = alert.bounding_box()["y"] - box.bounding_box()["y"]
    assert 0 < below < 120, f"the error stands {below:.0f} px from the box"
    page.screenshot(path=str(ARTIFACTS / "position-error-1280x800.png"))
    page.get_by_role("button", name="Switch to Yōkai no Mori 3x4 and load it").click()
    page.wait_for_function(
        "() => document.querySelector(\"input[placeholder='paste a position text here']\").value"
        " === 'gle/1c1/1C1/ELG[] w - - 0 1'",
        timeout=15_000,
    )
    assert page.locator(".re-board [data-cell]").count() >= 12
    page.close()


@pytest.mark.parametrize(
    "title, options",
    [
        ("Yōkai no Mori 3x4", {}),
        ("Yōkai no Mori 5x6", {}),
        ("War Stories (Sengokuki)", {}),
        ("To War!", {}),
        ("War Chest", {}),
    ],
)
def test_the_move_list_in_the_page_is_the_kernels_words(browser, server, title, options):
    """Issue #22 item 3: a few actions of each game played in the page; the list the browser
    shows equals, line for line, the kernel's words (State.action_text) for the exported record."""
    import base64

    from rules_kernel import records
    from rules_kernel.session import Session
    from widgets.presentation import line_of

    page = open_explorer(browser, server)
    pick_game(page, title, **options)
    see_all_where_hidden(page)
    for _ in range(5):
        play_any_move(page)
    open_folded_tools(page)  # the record's download link is there
    link = page.locator("a[download]").first
    link.wait_for(timeout=15_000)
    data = link.get_attribute("href").split("base64,", 1)[1]
    record = records.Record.from_json(base64.b64decode(data).decode().strip())
    expected = [str(line) for line in line_of(Session.from_record(record), None)]
    assert len(expected) >= 5
    shown = move_list(page)
    # the list puts a chance event inside the turn it belongs to (To War!'s draw opens the
    # drawer's turn: issue 46 item 3), under that side's name, where a line says "Chance for"
    expected = [re.sub(r"^Chance for ", "", re.sub(r"^\d+\. ", "", e)) for e in expected]
    assert [re.sub(r"^\d+\. ", "", s) for s in shown] == expected
    page.close()


def test_a_too_large_unit_table_is_refused_in_the_browser(browser, server):
    """Issue #22 item 9: a 600 KB table is refused before it is sent, with its size and the limit."""
    page = open_explorer(browser, server)
    pick_game(page, "To War!")
    page.get_by_text("Options of To War!").click()
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name=re.compile("Units file")).click()
    chooser.value.set_files(files=[{"name": "huge.csv", "mimeType": "text/csv", "buffer": b"x" * 600_000}])
    alert = page.locator("[role=alert]").filter(has_text="huge.csv")
    alert.wait_for(timeout=15_000)
    assert "huge.csv is 586 KB; the limit is 512 KB. Nothing was sent." in alert.inner_text()
    assert (
        "(1)" not in page.get_by_role("button", name=re.compile("Units file")).inner_text()
    )  # nothing taken
    page.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_board_uses_the_screen(browser, server, viewport):
    """Issue #22 item 5: at 1280x800 the 3x4 board is at least 420 px tall with both hands in
    view; on a phone it takes the width it has and nothing sticks out sideways."""
    page = open_explorer(browser, server, viewport=viewport)
    page.wait_for_function(LAID_OUT, timeout=WAIT_MS)
    squares = [page.locator(f'.re-board [data-cell="{f}{r}"]').bounding_box() for f in "abc" for r in "1234"]
    top = min(b["y"] for b in squares)
    bottom = max(b["y"] + b["height"] for b in squares)
    left = min(b["x"] for b in squares)
    right = max(b["x"] + b["width"] for b in squares)
    if viewport is DESKTOP:
        assert bottom - top >= 420, f"the board is {bottom - top:.0f} px tall"
        zones = page.evaluate(
            "() => [...document.querySelectorAll('.re-board text')]"
            ".filter(t => t.textContent.includes('hand')).map(t => t.getBoundingClientRect().bottom)"
        )
        assert len(zones) == 2 and max(zones) <= viewport["height"], f"a hand's title is out of view: {zones}"
    else:
        assert right - left >= 0.6 * viewport["width"] and right <= viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.close()


@pytest.mark.parametrize(
    ("title", "viewport"),
    [
        ("Yōkai no Mori 3x4", DESKTOP),
        ("War Stories (Sengokuki)", DESKTOP),
        ("War Stories (Sengokuki)", PHONE),
    ],
    ids=["yokai-3x4", "war-stories", "war-stories-390x844"],
)
def test_analysis_shows_a_bar_and_the_best_line(browser, server, title, viewport):
    """Issue #23 item 2: the Analysis switch shows the viewer's evaluation bar, the best line
    as numbered arrows on the board and in words, and the search's figures; Stop ends it. In
    War Stories (the player's view) the line is the player's own move only."""
    page = open_explorer(browser, server, viewport=viewport)
    pick_game(page, title)
    page.get_by_role("button", name="Analysis").click()
    bar = page.locator(".re-eval[role=meter]")
    bar.wait_for(timeout=30_000)
    arrow = page.locator(".re-board title").filter(has_text="Analysis: move 1 of the best line")
    arrow.first.wait_for(state="attached", timeout=30_000)
    line = page.locator(".re-analysis-line li")
    line.first.wait_for(timeout=15_000)  # the panel is another widget's view than the board's arrows
    assert 0 <= float(bar.get_attribute("aria-valuenow")) <= 100
    if title.startswith("War Stories"):
        assert line.count() == 1 and re.fullmatch(r"White: turns over [a-f][1-7]", line.first.inner_text())
    page.get_by_role("button", name="Stop").click()
    page.locator(".re-analysis").filter(has_text=re.compile("stopped|done")).wait_for(timeout=15_000)
    slug = title.split()[0].lower() + ("-390x844" if viewport is PHONE else "")
    page.screenshot(path=str(ARTIFACTS / f"analysis-{slug}.png"))
    page.locator(".re-analysis").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"analysis-{slug}-panel.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.close()


@pytest.mark.parametrize(
    "title",
    ["Yōkai no Mori 3x4", "Yōkai no Mori 5x6", "War Stories (Sengokuki)", "To War!", "War Chest"],
)
def test_a_copied_link_opens_the_same_board_and_log_in_a_new_page(browser, server, title):
    """Issue #24 item 3: play a few moves, Copy link, open the link in a new page: the same
    board (its drawing, byte for byte) and the same move list; all-seeing where the game has
    secrets (a player's view links the game and the view only)."""
    page = open_explorer(browser, server)
    pick_game(page, title)
    see_all_where_hidden(page)
    for _ in range(4):
        play_any_move(page)
    open_folded_tools(page)
    page.get_by_role("button", name="Copy link").click()
    field = page.locator("input.re-link")
    field.wait_for(timeout=15_000)
    url = field.input_value()
    assert url.startswith(server.rstrip("/")) and "moves=" in url
    shown = move_list(page)
    board = page.inner_html(".re-board svg")
    other = browser.new_page(viewport=DESKTOP)
    other.goto(url, timeout=180_000)
    other.get_by_text("Opened from the link.").wait_for(timeout=60_000)
    other.wait_for_function(  # the list is drawn after the board and the note
        f"() => document.querySelectorAll('{MOVES}').length === {len(shown)}", timeout=WAIT_MS
    )
    assert move_list(other) == shown and len(shown) >= 4
    assert other.inner_html(".re-board svg") == board
    other.close()
    page.close()


@pytest.mark.parametrize(
    ("title", "remove", "kodama", "viewport"),
    [("Yōkai no Mori 3x4", "b2", "C", DESKTOP), ("Yōkai no Mori 5x6", "c3", "P", PHONE)],
    ids=["yokai-3x4", "yokai-5x6-390x844"],
)
def test_the_board_editor_builds_a_position_and_plays_from_it(
    browser, server, title, remove, kodama, viewport
):
    """Issue #24 item 2: Edit position, Remove, click a square, a Kodama into the hand, Play
    from here: the explorer's position text and study status follow, and a move is played."""
    page = open_explorer(browser, server, viewport=viewport)
    pick_game(page, title)
    open_folded_tools(page)
    page.get_by_role("button", name="Edit position").click()
    editor = page.locator(".re-editor")
    editor.wait_for(timeout=15_000)
    editor.get_by_role("button", name="Remove").click()
    expect(editor.get_by_role("button", name="Remove").locator(".fa-check")).to_have_count(1, timeout=WAIT_MS)
    editor.locator(f'.re-board [data-cell="{remove}"]').dispatch_event("pointerdown")
    editor.get_by_text("1 piece out of the game").wait_for(timeout=15_000)
    counter = editor.locator(".widget-inline-hbox").filter(has_text="First player's hand: Kodama")
    counter.locator("input").fill("1")
    counter.locator("input").press("Enter")
    box = editor.locator("input[type=text]")
    expect(box).to_have_value(re.compile(rf"\[{kodama}\] w "), timeout=15_000)
    text = box.input_value()
    page.screenshot(path=str(ARTIFACTS / f"editor-{title.split()[-1]}-{viewport['width']}.png"))
    editor.get_by_role("button", name="Play from here").click()
    position = page.locator("input[placeholder='paste a position text here']")
    page.wait_for_function(
        "(t) => document.querySelector(\"input[placeholder='paste a position text here']\").value === t",
        arg=text,
        timeout=15_000,
    )
    expect(page.locator(".re-editor")).to_have_count(0, timeout=15_000)  # closed (its own widget view)
    play_any_move(page)
    assert len(move_list(page)) == 1 and position.input_value() != text
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.close()


def test_the_board_editor_places_a_to_war_card_from_its_reserve_and_plays_from_it(browser, server):
    """Issue #24 item 2 in a card game: To War! in the all-seeing view, the phase set to "in
    play" (in the set-up the first card must lie on b2), the Mamluk put on a1 comes out of the
    Southern army's reserve (its counter, folded under the army, drops by one), Play from
    here, and the game goes on from it."""
    page = open_explorer(browser, server, viewport=PHONE)
    pick_game(page, "To War!")
    see_all_where_hidden(page)
    open_folded_tools(page)
    page.get_by_role("button", name="Edit position").click()
    editor = page.locator(".re-editor")
    editor.wait_for(timeout=15_000)
    box = editor.locator("input[type=text]")
    set_up = box.input_value()
    editor.locator(".widget-dropdown").filter(has_text="Phase").locator("select").select_option("in play")
    expect(box).not_to_have_value(set_up, timeout=WAIT_MS)  # the position text says the phase
    editor.get_by_text("Südliche Armee: counted pieces").click()
    reserve = editor.locator(".widget-inline-hbox").filter(has_text="Mamluk").first.locator("input")
    before = int(reserve.input_value())  # 6, or 5 when the first draw was a Mamluk
    editor.get_by_role("button", name="Mamluk").click()
    expect(editor.get_by_role("button", name="Mamluk").locator(".fa-check")).to_have_count(1, timeout=WAIT_MS)
    editor.locator('.re-board [data-cell="a1"]').dispatch_event("pointerdown")
    expect(box).to_have_value(re.compile(r"^0:MAM\."), timeout=15_000)
    expect(reserve).to_have_value(str(before - 1), timeout=15_000)
    page.screenshot(path=str(ARTIFACTS / "editor-to-war-390.png"), full_page=True)
    text = box.input_value()
    editor.get_by_role("button", name="Play from here").click()
    page.wait_for_function(  # the explorer shows the edited position before a move is played
        "(t) => document.querySelector(\"input[placeholder='paste a position text here']\").value === t"
        " && !document.querySelector('.re-editor')",
        arg=text,
        timeout=30_000,
    )
    play_any_move(page)
    assert len(move_list(page)) >= 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def test_the_reference_is_written_when_first_opened(browser, server):
    """The game's reference is folded at the foot of the page and written only when a reader
    opens it (widgets/reference.py): then it is there, the pieces' lines and their diagrams."""
    page = open_explorer(browser, server)
    body = page.locator(".re-reference-body")
    assert body.count() == 0  # not written yet
    page.get_by_text("Reference: Yōkai no Mori 3x4").click()
    body.locator("li").first.wait_for(timeout=30_000)
    assert "Koropokkuru" in body.inner_text()
    page.close()
