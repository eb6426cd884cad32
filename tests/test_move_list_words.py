"""The move list as the widgets write it, from each game's words (widgets.presentation): the
side, then the words, nothing added (the words name the piece or unit already). Widget tests,
kept out of the games' rules files (issue 45 item 9)."""

from __future__ import annotations

from test_to_war import BASIC_GAME_WORDS
from test_to_war import GAME as TO_WAR

import rules_kernel as rk
import widgets
from widgets.presentation import move_lines


def test_the_explorer_move_list_shows_the_words():
    """The move list names the piece once: the words already do (widgets.presentation)."""
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")
    ex.play("c4b3")
    ex.play("C@c3")
    assert ex.move_list.options == (
        "1. First player: Kodama b2–b3 takes Kodama",
        "2. Second player: Kitsune c4–b3 takes Kodama",
        "3. First player: drops Kodama on c3",
    )
    ex = widgets.Explorer("yokai-5x6")
    ex.set_position("2k2/5/1G+S2/5/5/2K2[] w - - 0 1")
    ex.play("c4c5")
    assert ex.move_list.options == (
        "1. First player: Super-Oni c4–c5: checkmate, the Koropokkuru cannot escape capture",
    )


def test_the_move_list_shows_the_words_as_they_are():
    """The move list (widgets) puts the side before the words and adds nothing: the words name
    the unit already (the board's label "Beduine 4/3" is not put before them)."""
    state, states, actions = TO_WAR.initial_state(), [], []
    for notation, _ in BASIC_GAME_WORDS[:28]:
        action = (
            state.parse_chance(notation) if state.current_player == rk.CHANCE else state.parse_move(notation)
        )
        states.append(state)
        actions.append(action)
        state = state.apply(action)
    lines = [str(line) for line in move_lines(states, actions, None)]
    assert lines[:2] == [
        "1. Chance for Südliche Armee: draws Beduine",  # numbered by turn: the draw opens it
        "1. Südliche Armee: places Beduine on b2",
    ]
    assert lines[25:] == [
        "13. Südliche Armee: places Saqāliba on b1, displacing Sarbaz",
        "13. Südliche Armee: pushes Sarbaz from b1 to b2, displacing Beduine",
        "13. Südliche Armee: pushes Beduine from b2 to b3, attacking Bogenschütze: attack 4 > defence 2, "
        "Bogenschütze discarded, Beduine takes b3",
    ]
    assert [str(line) for line in move_lines(states, actions, 1)] == lines  # the basic game hides nothing
