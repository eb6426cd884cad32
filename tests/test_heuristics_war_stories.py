"""War Stories' heuristic (`WarStories.heuristic`, the agents' and the tree search's estimate):
besides material it knows what wins the game, Haisen (rules/war-stories-sengokuki.nl.txt,
"Haisen": "De Daimyo wordt gedwongen te bewegen, maar heeft geen mogelijkheid meer om naar een
veld te vluchten, waar hij niet geslagen kan worden in de volgende beurt"; "Einde van het
spel": the player whose Daimyo stands in Haisen has lost)."""

from __future__ import annotations

import pytest
from test_war_stories import position  # a dealt position from pieces and cards by square

from rules_kernel import parts as game_parts
from rules_kernel.games.war_stories import SQUARES


def test_it_is_the_same_position_seen_from_both_sides():
    s = position({"c1": "D", "d1": "S", "c7": "d", "f5": "h"}, {"c6": "ki", "b6": "he"}, side=1)
    assert game_parts.heuristic(s, 0) == -game_parts.heuristic(s, 1)


def test_an_enemy_daimyo_with_fewer_safe_squares_scores_better():
    """Kyousei: an attacked Daimyo must flee to a square where it cannot be taken; the fewer
    such squares, the nearer Haisen. The same pieces, the black Daimyo hemmed in by cards."""
    pieces = {"c1": "D", "f1": "S", "c7": "d", "a4": "s"}
    open_board = position(pieces, side=1)
    hemmed = position(pieces, {"b7": "he", "b6": "ki", "c6": "kbr", "d6": "he"}, side=1)
    assert game_parts.heuristic(hemmed, 0) > game_parts.heuristic(open_board, 0)


def test_a_check_at_hand_on_a_daimyo_that_cannot_flee_is_nearly_a_win():
    """The black Daimyo on c7 has no free square (cards and its own Shinobi around it): a
    white Kibatai that can jump to b5 or d5 ("het enige spelstuk dat over ... bordkaarten kan
    'springen'") gives Haisen next move; one on f1 cannot."""
    cards = {"b7": "he", "b6": "ki", "c6": "kbr", "d6": "he"}
    reaches = position({"c1": "D", "c3": "K", "c7": "d", "d7": "s"}, cards, side=1)
    far = position({"c1": "D", "f1": "K", "c7": "d", "d7": "s"}, cards, side=1)
    assert game_parts.heuristic(reaches, 0) > game_parts.heuristic(far, 0) + 0.2


def test_our_own_daimyo_in_danger_counts_against_us():
    """The same threat with colours swapped: White's Daimyo is the one that cannot flee."""
    cards = {"b1": "he", "b2": "ki", "c2": "kbr", "d2": "he"}
    threatened = position({"c1": "D", "d1": "S", "c7": "d", "c5": "k"}, cards, side=0)
    far = position({"c1": "D", "d1": "S", "c7": "d", "f7": "k"}, cards, side=0)
    assert game_parts.heuristic(threatened, 0) < game_parts.heuristic(far, 0) - 0.2


def test_a_piece_the_side_to_move_can_take_for_nothing_counts_for_it():
    """A capture ends the move and takes the piece off the board ("Een pion verplaatsen / een
    pion van de tegenstander 'slaan'"): an undefended Ashigaru in a white Shinobi's line,
    White to move, is worth most of its value to White; Black to move, it can step away."""
    pieces = {"a1": "D", "c3": "S", "f7": "d", "c6": "a"}
    white_to_move = game_parts.heuristic(position(pieces, side=0), 0)
    black_to_move = game_parts.heuristic(position(pieces, side=1), 0)
    assert white_to_move > black_to_move + 0.1


def test_a_second_ki_in_a_second_turn_running_is_counted_as_the_chance_of_losing():
    """Rulebook, "Yonhon no ki (4 bomen) regel": two Ki in two turns running lose ("De Daimyo
    pleegt seppuku"); a Heiya is removed and another card turned instead. White turned two Ki
    last turn and a Ki now: of the cards left, a Ki, an army card and two Heiya, the next
    non-Heiya card is the Ki half the time, so White's score is halfway to a loss."""
    pieces = {"c1": "D", "d1": "S", "c7": "d", "d7": "s"}
    cards = {"a3": "ki", "b3": "ki", "c3": "kbr", "d3": "he", "e3": "he"}
    calm = position(pieces, cards, side=0, face_up=SQUARES["a3"], flips=1)
    at_risk = position(pieces, cards, side=0, face_up=SQUARES["a3"], flips=1, two_ki=(True, False))
    white, black = game_parts.heuristic(calm, 0), game_parts.heuristic(calm, 1)
    assert game_parts.heuristic(at_risk, 0) == pytest.approx(white / 2 - 0.5)
    assert game_parts.heuristic(at_risk, 1) == pytest.approx(black / 2 + 0.5)
    black_had_two = position(pieces, cards, side=0, face_up=SQUARES["a3"], flips=1, two_ki=(False, True))
    assert game_parts.heuristic(black_had_two, 0) == white  # only the side turning cards can lose so


def test_a_hemmed_in_daimyo_next_to_cards_an_engun_may_fill_counts_against_it():
    """Engun: the pair's piece enters on the second card's square ("plaatst de gewonnen pion
    ... op de plek van de laatst omgedraaide bordkaart"); next to a Daimyo that has no square to
    flee to, a piece that attacks it is Haisen at once ("Einde van het spel"). White's Daimyo on
    a1 has its own pieces or cards on a2, b1 and b2, so nowhere to go, and is exposed to each
    kind an Engun brings by a card: c2 (a Kibatai's jump), b2 (a Kihei, diagonally), a2 or a
    card further up a free a-file (an Ashigaru, straight)."""
    from rules_kernel.games.war_stories import _engun_exposure

    def exposure(cards, pieces):
        state = position({"a1": "D", "b1": "S", "f7": "d"} | pieces, cards)
        return _engun_exposure(state.pieces, state.cards, SQUARES["a1"])

    assert exposure({}, {"a2": "S", "b2": "A"}) == 0
    assert exposure({"c2": "he"}, {"a2": "S", "b2": "A"}) == 1
    assert exposure({"c2": "he", "b2": "ki"}, {"a2": "S"}) == 2
    assert exposure({"c2": "he", "b2": "ki", "a2": "asr"}, {}) == 3
    assert exposure({"b2": "ki", "a5": "he"}, {}) == 2  # the a-file free up to a5's card
    assert exposure({"b2": "ki", "a5": "he"}, {"a3": "A"}) == 1  # its own Ashigaru blocks the line
    # in the heuristic: the card on c2 is a Kibatai's entry that would be Haisen at once
    pieces = {"a1": "D", "b1": "S", "a2": "S", "b2": "A", "f7": "d"}
    hemmed = game_parts.heuristic(position(pieces, {"c2": "he"}), 0)
    assert game_parts.heuristic(position(pieces), 0) - hemmed > 0.08
    # the same card with a square to flee to (b1 free) counts no such danger
    free = {"a1": "D", "a2": "S", "b2": "A", "f7": "d", "f1": "S"}
    assert (
        abs(game_parts.heuristic(position(free, {"c2": "he"}), 0) - game_parts.heuristic(position(free), 0))
        < 0.03
    )
