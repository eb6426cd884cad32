"""Study positions (issue #24 item 1): a position text may hold less than the box, like the
rulebooks' own diagrams of a few pieces; what is not listed is out of the game. `from_text`
reads it, `state.status()` says what is unusual about it, the game plays on from it, and what
is hidden is drawn only from what is still in the game. More than the box stays an error
naming the field.
"""

from __future__ import annotations

import random

import pytest
from playing import SETTINGS, random_game

import rules_kernel as rk

G3 = rk.load_game("yokai-3x4")
G5 = rk.load_game("yokai-5x6")


def play_to_the_end(state: rk.State, seed: int = 1, cap: int = 2000) -> rk.State:
    """A random game from `state` (chance by its probabilities) until it ends or `cap`."""
    rng = random.Random(seed)
    for _ in range(cap):
        if state.is_terminal():
            break
        if state.current_player == rk.CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    return state


def refused(game: rk.Game, text: str) -> rk.PositionTextError:
    with pytest.raises(rk.PositionTextError) as info:
        game.from_text(text)
    return info.value


# --- every game: positions play reaches have no remarks -----------------------------------------


@pytest.mark.parametrize("name, options", SETTINGS)
@pytest.mark.parametrize("seed", [1, 2])
def test_positions_reached_by_play_have_an_empty_status(name, options, seed):
    """`status()` remarks only on what no game from the start reaches: every position of a
    random game (and its text read back) has none."""
    game = rk.load_game(name, **options)
    states, _ = random_game(game, seed, cap=300)
    for state in states[::3] + [states[-1]]:
        assert state.status() == [], (state.to_text(), state.status())


# --- Yōkai no Mori --------------------------------------------------------------------------


def test_yokai_tsume_study_plays_and_ends():
    """A 5x6 study of three pieces: the rulebook's 5x6 "Spezifische Regeln" (royal
    Koropokkuru: no legal move = lost) apply to it as to a full game."""
    state = G5.from_text("2k2/5/1G+S2/5/5/2K2[] w - - 0 1")
    assert state.status() == ["12 pieces out of the game (6 Kodama, 3 Kirin, 3 Oni)"]
    assert state.legal_moves()
    mated = state.apply("c4c5")
    assert mated.is_terminal() and mated.outcome().winner == 0
    assert G5.from_text(state.to_text()) == state


def test_yokai_a_koropokkuru_left_attacked_can_be_taken_and_that_wins():
    """5x6: the game is won by capturing the Koropokkuru (rulebook: "Ziel des Spiels ist es,
    den Koropokkuru des Gegners zu schlagen"). Play never leaves one attacked; a study
    position may, and then taking it ends the game."""
    state = G5.from_text("2k2/2P2/5/5/5/2K2[] w - - 0 1")
    assert "the Koropokkuru of the side not to move (Second player) can be taken" in state.status()
    taken = state.apply("c5c6+")
    assert taken.outcome() == rk.Outcome.win(0, "the Koropokkuru was captured")
    assert G5.from_text(taken.to_text()) == taken


def test_yokai_without_a_koropokkuru():
    """A side without its Koropokkuru: in 3x4 the game is over (the capture ends it, NOTES.md);
    in 5x6 that side plays on (a tsume problem's attacker) and loses only by having no move."""
    over = G3.from_text("1l1/3/1C1/3[] w - - 0 1")
    assert "no Koropokkuru for the First player" in over.status()
    assert over.outcome().winner == 1
    study = G5.from_text("2k2/5/2+P2/5/5/5[G] w - - 0 1")
    assert "no Koropokkuru for the First player" in study.status()
    assert not study.is_terminal() and study.legal_moves()
    assert play_to_the_end(study).status()  # still a study position wherever it goes


def test_yokai_over_the_box_is_refused_naming_the_field():
    """The box: 2 Kodama in 3x4 (NOTES.md); one Koropokkuru a side."""
    error = refused(G3, "1l1/ccc/3/L2[] w - - 0 1")
    assert error.field == "board and hands" and "3 Kodama" in error.why
    error = refused(G5, "5/5/5/5/5/KK3[] w - - 0 1")
    assert error.field == "board" and "2 Koropokkuru" in error.why
