"""Issue 44 item 3, the address bar: after New game the page's address no longer names the game
before (a link copied, or the link the page was opened from), so a reload opens a fresh page.
`PageAddress.clear()` sends the page's side a message to drop the link's fields; New game
sends it, opening a link does not (the page shows that link's game), and options the game
refuses keep the game and its link. The address bar itself is checked in Chromium
(tests/test_browser_new_game.py)."""

from __future__ import annotations

import pytest

import widgets
from widgets.links import ESM, FIELDS, PageAddress

LINK = "?game=yokai-3x4&moves=b2b3;c4b3&ply=2"


@pytest.fixture
def explorer(monkeypatch):
    """A Yōkai 3x4 page whose address widget records what it sends its page."""
    ex = widgets.Explorer("yokai-3x4", seed=1)
    ex.sent = []
    monkeypatch.setattr(ex.address, "send", lambda content, buffers=None: ex.sent.append(content))
    return ex


def copied(ex: widgets.Explorer) -> str:
    """Copy link, and the page's answer: the link in the address bar and on the page."""
    ex.address.copy(ex.link_query())
    url = "http://127.0.0.1:8866/voila/render/explorer.ipynb?" + ex.sent[-1]["query"]
    ex.address._message(None, {"event": "copied", "url": url, "copied": True}, [])
    return url


def test_new_game_clears_the_address_a_link_was_copied_to(explorer):
    explorer.play(explorer.state.legal_moves()[0])
    url = copied(explorer)
    assert "moves=" in url and explorer.address.address == url and "re-link" in explorer.link_note.value
    explorer.new_button.click()
    assert explorer.sent[-1] == {"event": "clear"}
    assert explorer.address.address == "" and explorer.link_note.value == ""
    assert explorer.session.ply == 0


def test_new_game_clears_the_link_the_page_was_opened_from(explorer):
    explorer.address._message(None, {"event": "address", "search": LINK}, [])
    assert explorer.session.ply == 2 and "Opened from the link." in explorer.message.value
    assert {"event": "clear"} not in explorer.sent  # the link's own game stays linked
    explorer.new_button.click()
    assert explorer.sent == [{"event": "clear"}] and explorer.session.ply == 0


def test_options_the_game_refuses_keep_the_game_and_its_address(explorer):
    explorer.game_select.value = "war-chest"  # shown at once (issue 46 item 4)
    explorer.perspective.value = "all"  # no hand-over curtain after the move
    assert explorer.sent == [{"event": "clear"}]  # the switch dropped the Yōkai game's address
    explorer.sent.clear()
    explorer.play(explorer.state.legal_moves()[0])
    copied(explorer)
    session = explorer.session
    explorer._set_options("war-chest", {"players": 5})  # War Chest is for 2 or 4
    explorer.new_button.click()
    assert "must be one of 2, 4" in explorer.message.value
    assert explorer.session is session and {"event": "clear"} not in explorer.sent
    assert explorer.address.address


def test_the_page_side_drops_exactly_the_links_fields():
    """The script takes out every field a link is read from, by name, and keeps the rest."""
    assert 'msg.event === "clear"' in ESM and "replaceState" in ESM
    for name in FIELDS:
        assert f'"{name}"' in ESM
    assert "__FIELDS__" not in ESM
    address = PageAddress()
    address.address = "http://x/?game=war-chest"
    address.clear()
    assert address.address == ""
