"""The explorer's "Games from here" (issue 47 item 3: "In the explorer and the replay, a Games
from here panel shows it for the position on the board ... a click on a row plays that move"),
over the shipped collection: folded at first (no widget but its toggle, no query), it follows
the board, a click plays the move, and behind the hand-over curtain it shows nothing."""

from __future__ import annotations

import random

import rules_kernel as rk
import widgets


def test_folded_at_first_then_the_moves_from_the_board_and_a_click_plays_one():
    ex = widgets.Explorer("yokai-3x4")
    assert ex.from_here.panel is None  # nothing made, nothing read until opened
    ex.from_here.toggle.value = True
    panel = ex.from_here.panel
    start = ex.state
    table = panel.table
    assert table is not None and len(table) >= 2 and table["n"].sum() > 0
    assert set(table["notation"]) <= {str(m) for m in start.legal_moves()}
    words = {start.action_text(start.parse_move(n)) for n in table["notation"]}
    assert set(table["move"]) == words  # the moves in the game's words
    played = table.iloc[0]["notation"]
    panel.play(played)  # what a click on the row does
    assert ex.session.ply == 1 and str(ex.session.node.action) == played
    assert panel._state is ex.state  # the panel follows the board
    ex.from_here.toggle.value = False
    assert panel.layout.display == "none"


def test_behind_the_curtain_the_panel_shows_nothing():
    ex = widgets.Explorer("war-chest", seed=3)
    ex.from_here.toggle.value = True
    rng = random.Random(3)
    for _ in range(30):
        if ex.curtain_for is not None:
            break
        if ex.state.current_player == rk.CHANCE:
            ex.session.play(ex.state.sample_chance(rng))
        else:
            ex.play(rng.choice(ex.state.legal_moves()))
    assert ex.curtain_for is not None
    assert ex.from_here.panel.layout.display == "none" and ex.from_here.panel._state is None


# --- the Replay's panel (the issue: "In the explorer and the replay") ---------------------

SHIPPED_GAMES = "data/yokai-3x4-random.jsonl"


def test_the_replay_folds_the_panel_and_it_follows_the_ply_on_show():
    replay = widgets.Replay(SHIPPED_GAMES)
    folded = replay.games_from_here
    assert not folded.toggle.value and folded.panel is None  # folded: nothing made, nothing read
    folded.toggle.value = True
    panel = folded.panel
    start = replay.states[0]
    assert panel._state is start and panel.table["n"].sum() > 0
    replay.show(3)
    assert panel._state is replay.states[3]  # it follows the slider
    assert set(panel.table["notation"]) <= {str(m) for m in replay.states[3].legal_moves()}


def test_a_click_on_the_games_own_next_move_steps_along_the_game():
    replay = widgets.Replay(SHIPPED_GAMES)
    replay.games_from_here.toggle.value = True
    panel = replay.games_from_here.panel
    record_next = replay._nodes[1].notation
    assert record_next in list(panel.table["notation"]), "the shipped collection holds this game"
    length = replay.slider.max
    panel.play(record_next)
    assert replay.session.ply == 1 and replay.slider.value == 1
    assert replay.slider.max == length and replay.main_line_button.layout.display == "none"


def test_another_move_becomes_a_line_of_its_own_and_the_main_line_comes_back():
    replay = widgets.Replay(SHIPPED_GAMES)
    replay.games_from_here.toggle.value = True
    panel = replay.games_from_here.panel
    record_next = replay._nodes[1].notation
    other = next(n for n in panel.table["notation"] if n != record_next)
    panel.play(other)
    assert replay.session.ply == 1 and replay._nodes[1].notation == other
    assert replay.main_line_button.layout.display != "none"  # "Back to the main line" offered
    assert replay.board.scene == replay.scenes[1]  # the board shows the move played
    replay.enter_line(None)
    assert replay._nodes[1].notation == record_next
