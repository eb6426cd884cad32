"""Issue 44 item 3: New game leaves nothing of the old one on the page (every live region, note,
export and link is cleared or rebuilt), and item 5's explorer part: the perfect-play switch
becomes usable by itself when the solved table turns ready while the page is open."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from test_curtain import page

import rules_kernel as rk
import widgets
from widgets.explorer import PERFECT_AGENT, perfect_play
from widgets.presentation import line_of


def texts(ex) -> Counter:
    """Every text on the page, counted (which widget holds it does not matter); the focus
    mover's last target (a class name of the page, never a game's text) left out."""
    shown = page(ex).items()
    return Counter(text for (owner, _), values in shown if owner != id(ex.focus) for text in values)


def play_a_while(ex, plies: int) -> None:
    """Play as the people at the screen would: lifting the curtain, saying done."""
    while ex.session.ply < plies and not ex.state.is_terminal():
        if ex.curtain_for is not None:
            ex.curtain_button.click()
        elif ex._handing_over is not None:
            ex.done_button.click()
        else:
            ex.play(ex.state.legal_moves()[-1])


def used(game_id: str, options: dict) -> tuple[widgets.Explorer, set[str]]:
    """An explorer after a game with everything that writes notes used: moves, the curtain, a
    picture, a copied link, the record, looking back; and the texts only that game wrote."""
    ex = widgets.Explorer(game_id, seed=5, **options)
    ex.tools_toggle.value = True
    play_a_while(ex, 14)
    if ex._handing_over is not None:
        ex.done_button.click()
    if ex.curtain_for is not None:  # behind the curtain nothing acts: the next player sits down
        ex.curtain_button.click()
    ex.pictures.kind.value = "png"
    ex.pictures.button.click()
    ex.copy_link.click()
    ex._link_copied("http://localhost/explorer?game=" + game_id, True)  # what the page answers
    ex.export()
    ex.look_at(max(0, ex.session.ply - 2))
    old = {line.text for line in line_of(ex.session, ex.viewer)}
    old |= {str(line) for line in ex.presentation().lines}
    old |= {
        ex.announcer.value,
        ex.link_note.value,
        ex.pictures.link.value,
        ex.export_area.value,
        ex.looking_back_text.value,
        ex.status.value,
    }
    return ex, {text for text in old if text}


CASES = [
    ("war-chest", {"players": 4}, "war-chest", {"players": 4}),  # a 4-player game after one
    ("war-stories", {}, "yokai-3x4", {}),  # switched in the game menu
    ("yokai-3x4", {}, "yokai-3x4", {}),
    ("to-war", {"strategic": True}, "war-chest", {}),
]


@pytest.mark.parametrize(("first", "first_options", "second", "second_options"), CASES)
def test_new_game_leaves_no_text_of_the_previous_game(first, first_options, second, second_options):
    ex, old = used(first, first_options)
    assert old, "the first game wrote nothing to check"
    if second != first:
        ex.game_select.value = second
    if second_options:
        for name, value in second_options.items():
            ex.option_widgets[name].value = value
    ex.new_button.click()
    fresh = widgets.Explorer(second, seed=5, **second_options)
    fresh.tools_toggle.value = True
    fresh.pictures.kind.value = ex.pictures.kind.value
    fresh.options_toggle.value = ex.options_toggle.value
    fresh.option_widgets  # noqa: B018 (the parts the used page built on first use, built here too)
    fresh._build_hand_over()
    fresh._build_looking_back()
    after, clean = texts(ex), texts(fresh)
    left = after - clean
    assert not left, f"texts only the page after New game holds: {sorted(left)[:8]}"
    everything = "\n".join(after)
    assert not {text for text in old if text in everything and text not in "\n".join(clean)}
    assert ex.session.ply == fresh.session.ply and ex.state == fresh.state


def test_a_new_four_player_game_forgets_the_coin_draws_said_before():
    """The report: after a 4-player War Chest game, a new one's screen-reader line and list say
    only its own draws."""
    ex, _ = used("war-chest", {"players": 4})
    draws = {line.text for line in line_of(ex.session, ex.viewer) if "draws" in line.text}
    ex.new_button.click()
    now = {line.text for line in line_of(ex.session, ex.viewer)}
    said = ex.announcer.value + "\n".join(now)
    assert draws and not {d for d in draws - now if d in said}
    assert ex.session.ply == len(ex.session.line()) - 1 == ex.session.node.ply


@pytest.fixture
def table_state(monkeypatch):
    """The solved table's readiness as the test sets it (rules_kernel.tablebase.availability)."""
    state = {"now": "preparing"}
    monkeypatch.setattr(rk.tablebase, "availability", lambda game_id, **_: state["now"])
    monkeypatch.setattr(perfect_play, "PERFECT_POLL_SECONDS", 0.02)
    return state


def wait_for(condition, seconds: float = 20.0) -> bool:
    """Wait for `condition()` (a thread sets it), at most `seconds`: no fixed sleep."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_the_perfect_play_switch_turns_usable_when_the_table_becomes_ready(table_state):
    ex = widgets.Explorer("yokai-3x4")
    assert ex.perfect.disabled and ex.perfect.description == "Perfect play: being prepared"
    assert PERFECT_AGENT not in ex.agent_kind.options
    table_state["now"] = "ready"  # the server's background preparation ends; nobody clicks
    assert wait_for(lambda: not ex.perfect.disabled)
    assert ex.perfect.description == "Perfect play (solved table)" and PERFECT_AGENT in ex.agent_kind.options
    assert ex.perfect.layout.display != "none"


def test_without_threads_the_next_redraw_sees_the_table_ready(table_state, monkeypatch):
    """The browser's Python starts no thread: a redraw (any move) asks again."""
    monkeypatch.setattr(widgets.runtime, "THREADS", False)
    ex = widgets.Explorer("yokai-3x4")
    assert ex.perfect.disabled
    table_state["now"] = "ready"
    assert ex.perfect.disabled  # nothing asks until the page redraws
    ex.play(ex.state.legal_moves()[0])
    assert not ex.perfect.disabled and ex.perfect.description == "Perfect play (solved table)"
    assert PERFECT_AGENT in ex.agent_kind.options
