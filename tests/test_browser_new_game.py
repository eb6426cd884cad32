"""Issue 44 item 3 in Chromium: New game leaves nothing of the old game on the page.

- The address bar: after Copy link it holds the link (game, moves, ply, view); New game takes
  the link's fields out (PageAddress.clear), so a reload opens a fresh page, not the old game.
- The screen-reader regions (every aria-live element, .re-sr-only, role=status/alert/log,
  the board's and the move list's own live lines): after a 4-player War Chest game with some
  moves, in which the board's cursor and the move list have spoken, New game (4 players again)
  leaves no text of that game in any of them (the fix is in widgets/board.js and
  widgets/movelist.js: a new drawing empties its live line)."""

from __future__ import annotations

import re

import pytest
from browser_support import chromium_path, open_folded_tools, voila
from playwright.sync_api import expect
from test_browser import (
    DESKTOP,
    MOVES,
    WAIT_MS,
    move_list,
    open_explorer,
    pick_game,
    play_any_move,
    see_all_where_hidden,
    wait_for_start,
)

from widgets.links import FIELDS

pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="Debian's chromium is not installed (./run tests installs it)"
)

#: the page's screen-reader regions and what each says: [which, text]; the board's and the
#: move list's own live lines are named, the others by their kind
REGIONS = """() => {
    const said = (e) => (e.textContent || '').replace(/\\s+/g, ' ').trim();
    const seen = new Set(), regions = [];
    const add = (which, e) => { if (!seen.has(e)) { seen.add(e); regions.push([which, said(e)]); } };
    document.querySelectorAll('.re-board > .re-sr-only').forEach(e => add('board', e));
    document.querySelectorAll('.re-movelist + .re-sr-only').forEach(e => add('move list', e));
    document.querySelectorAll('[aria-live], .re-sr-only, [role=status], [role=alert], [role=log]')
        .forEach(e => add(e.getAttribute('role') || e.getAttribute('aria-live') || e.className, e));
    return regions;
}"""
#: the query fields of the page's address now
QUERY_FIELDS = "() => Array.from(new URLSearchParams(window.location.search).keys())"


@pytest.fixture(scope="module")
def server():
    with voila("explorer.ipynb") as url:
        yield url


def said(page, which: str) -> str:
    return next(text for name, text in page.evaluate(REGIONS) if name == which)


def test_new_game_takes_the_copied_link_out_of_the_address_bar(browser, server):
    page = open_explorer(browser, server)
    for _ in range(3):
        play_any_move(page)
    old_moves = move_list(page)
    open_folded_tools(page)
    page.get_by_role("button", name="Copy link").click()
    page.locator("input.re-link").wait_for(timeout=15_000)
    page.wait_for_function("() => window.location.search.includes('moves=')", timeout=15_000)
    assert {"game", "moves", "ply", "view"} <= set(page.evaluate(QUERY_FIELDS))

    page.get_by_role("button", name="New game", exact=True).click()
    page.wait_for_function("() => !window.location.search.includes('game=')", timeout=15_000)
    assert not set(page.evaluate(QUERY_FIELDS)) & set(FIELDS), page.url
    expect(page.locator("input.re-link")).to_have_count(0)  # the note with the link is gone too
    address = page.url

    page.reload(timeout=180_000)  # what the address opens now: a fresh page
    page.wait_for_selector(".re-board [data-cell]", timeout=180_000)
    # the page's side sends its address once drawn (widgets/links.py: a link would open on
    # it); the kernel answers in order, so once it has built the folded tools, opened after
    # the side column is drawn, it has read the address
    page.locator(".re-tools-toggle").first.wait_for(timeout=WAIT_MS)
    open_folded_tools(page)
    assert page.url == address
    assert move_list(page) == [] and len(old_moves) == 3
    assert "Opened from the link" not in page.inner_text("body")
    page.close()


def test_new_game_leaves_no_text_of_the_last_game_in_the_screen_reader_regions(browser, server):
    page = open_explorer(browser, server, DESKTOP)
    pick_game(page, "War Chest", Players="4")
    see_all_where_hidden(page)  # the coin draws are written in the list too
    for _ in range(6):
        play_any_move(page)
    old_moves = page.eval_on_selector_all(MOVES, "els => els.map(e => e.textContent.trim())")
    assert len(old_moves) >= 6

    # the move list speaks: Home, then End (its last move), as a screen-reader user browses
    listbox = page.locator(".re-movelist")
    listbox.focus()
    listbox.press("Home")
    page.wait_for_function(
        "() => (document.querySelector('.re-movelist + .re-sr-only') || {}).textContent === 'Start'",
        timeout=15_000,
    )
    listbox.press("End")  # the kernel goes back to the last move, the list says it
    page.wait_for_function(
        "(move) => (document.querySelector('.re-movelist + .re-sr-only') || {}).textContent.endsWith(move)",
        arg=old_moves[-1],
        timeout=15_000,
    )
    last_said = said(page, "move list")
    # the board speaks: its cursor on a cell, named as the hit layer names it
    board = page.locator(".re-board")
    board.focus()
    for key in ("ArrowRight", "ArrowDown", "ArrowRight"):
        board.press(key)
    page.wait_for_function(
        "() => (document.querySelector('.re-board > .re-sr-only') || {}).textContent", timeout=15_000
    )
    cursor_said = said(page, "board")
    before = [text for _, text in page.evaluate(REGIONS) if text]
    assert last_said in before and cursor_said in before

    page.get_by_role("button", name="New game", exact=True).click()
    wait_for_start(page, "War Chest", Players="4")  # the list, drawn last, has the new game's draws
    page.wait_for_function(  # a new drawing empties the board's and the list's live lines
        "() => ['.re-board > .re-sr-only', '.re-movelist + .re-sr-only']"
        ".every(s => !(document.querySelector(s) || {}).textContent)",
        timeout=WAIT_MS,
    )
    new_moves = set(page.eval_on_selector_all(MOVES, "els => els.map(e => e.textContent.trim())"))
    after = page.evaluate(REGIONS)
    assert said(page, "board") == "" and said(page, "move list") == ""
    # a move of the last game named in a region now, unless the new game made the same one
    # (the start's coin draws of a game with the same seed)
    old = [move for move in old_moves if move not in new_moves]
    assert old, "the new game replays the old one: nothing would tell them apart"
    left = [(which, text) for which, text in after for move in old if text and move in text]
    assert not left, left
    assert not [(which, text) for which, text in after if text and text in (last_said, cursor_said)]
    assert not re.search(r"\bselected\b", " ".join(text for _, text in after))
    page.close()
