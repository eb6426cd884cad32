"""War Stories / Sengokuki: every rule of rules/war-stories-sengokuki.nl.txt and the rulings
of rules/NOTES.md, then properties over thousands of random games."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playing import random_game as play

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.games.war_stories import DECK, SQUARES, UNKNOWN, WarStoriesState

GAME = rk.load_game("war-stories")
LETTERS = {"D": 1, "S": 2, "A": 3, "K": 4, "H": 5}


def position(pieces: dict[str, str], cards: dict[str, str] | None = None, *, side: int = 0,
             game: rk.Game = GAME, **fields) -> WarStoriesState:
    """A dealt position: pieces like {"c1": "D", "c7": "d"} (upper case White), cards by square."""
    board = [0] * 42
    for square, letter in pieces.items():
        board[SQUARES[square]] = LETTERS[letter.upper()] | (0 if letter.isupper() else 8)
    layout = [None] * 42
    for square, code in (cards or {}).items():
        layout[SQUARES[square]] = code
    return WarStoriesState(game, tuple(board), tuple(layout), side=side, **fields)


def targets(state, square: str) -> set[str]:
    return {str(m)[2:] for m in state.legal_moves() if str(m).startswith(square) and ":" not in str(m)}


KINGS = {"a1": "D", "a7": "d"}


# --- pieces: "Pionnen" -------------------------------------------------------------------

def test_daimyo_steps_one_square_any_way():
    """"De Daimyo mag 1 veld horizontaal, verticaal of diagonaal verplaatst worden/slaan"."""
    s = position({"c3": "D", "f7": "d"})
    assert targets(s, "c3") == {"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"}
    crowded = position({"c3": "D", "f7": "d", "c4": "S"}, {"b2": "ki", "d3": "he"})
    assert targets(crowded, "c3") == {"b3", "b4", "c2", "d2", "d4"}


def test_shinobi_slides_any_way_and_stops_at_cards_and_pieces():
    """"De Shinobi mag 1 of meer velden horizontaal, verticaal of diagonaal"; "pionnen kunnen
    niet over andere pionnen of bordkaarten heenspringen"."""
    open_board = position({"c3": "S", **KINGS})
    assert targets(open_board, "c3") == {"c4", "c5", "c6", "c7", "c2", "c1", "b3", "a3", "d3", "e3",
                                         "f3", "d4", "e5", "f6", "b4", "a5", "d2", "e1", "b2"}
    crowded = position({"c3": "S", "c5": "a", **KINGS}, {"e3": "ki", "e5": "kbr"})
    t = targets(crowded, "c3")
    assert "c5" in t and "c6" not in t  # captures, then stops
    assert "d3" in t and "e3" not in t and "f3" not in t  # never onto or over a card
    assert "d4" in t and "e5" not in t


def test_ashigaru_orthogonal_and_kihei_diagonal():
    """"De Ashigaru ... horizontaal of verticaal"; "De Kihei ... 1 of meer velden diagonaal"."""
    s = position({"c3": "A", "e5": "H", **KINGS}, {"c6": "he"})
    assert targets(s, "c3") == {"c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3", "f3"}
    assert targets(s, "e5") == {"d4", "f4", "f6", "d6", "c7"}  # the own Ashigaru on c3 blocks


def test_kibatai_jumps_but_never_lands_on_a_card():
    """"De Kibatai mag 1 veld horizontaal óf verticaal, gevolgd door 1 veld diagonaal ...
    het enige spelstuk dat over andere pionnen en bordkaarten kan springen ... mag echter
    nooit eindigen op een veld bezet door een bordkaart"."""
    s = position({"c3": "K", "c4": "S", "b3": "s", **KINGS},
                 {"d3": "ki", "c2": "he", "b5": "kbr", "e4": "asy"})
    assert targets(s, "c3") == {"d5", "e2", "d1", "b1", "a2", "a4"}


def test_a_capture_removes_the_piece_and_ends_the_move():
    """"de pion van de tegenstander [wordt] van het speelbord verwijderd ... er kan na het
    slaan dus niet doorgelopen worden"."""
    s = position({"c3": "A", "c5": "k", **KINGS}).apply("c3c5")
    assert s.pieces[SQUARES["c5"]] == 3 and 4 | 8 not in s.pieces
    assert s.current_player == 1


# --- flipping: "Twee bordkaarten omdraaien" --------------------------------------------------

def test_engun_places_the_piece_on_the_second_card():
    """"Als een speler ... 2 dezelfde Legerkaarten om te draaien (pion én kamon hetzelfde),
    heeft deze speler Engun ... plaatst de gewonnen pion ... op de plek van de laatst
    omgedraaide bordkaart"."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbr", "f1": "ki"})
    s = s.apply("flip:c3")
    assert s.current_player == 0 and s.legal_moves() == [m for m in s.legal_moves() if ":" in str(m)]
    s = s.apply("flip:e5")
    assert s.pieces[SQUARES["e5"]] == 4  # a White Kibatai
    assert s.cards[SQUARES["c3"]] is None and s.cards[SQUARES["e5"]] is None
    assert s.current_player == 1


def test_different_cards_are_turned_back():
    """"Als de Legerkaarten verschillen draait hij ze weer dicht en is de volgende speler aan
    de beurt"; a different kamon is a different card."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbb", "f1": "ki"}).play("flip:c3", "flip:e5")
    assert s.cards[SQUARES["c3"]] == "kbr" and s.cards[SQUARES["e5"]] == "kbb"
    assert s.face_up is None and s.current_player == 1
    assert s.view(1).cards[SQUARES["e5"]] == "kbb"  # seen by both: remembered
    assert s.view(1).cards[SQUARES["f1"]] == UNKNOWN


def test_a_heiya_chain_is_removed_card_by_card():
    """"Als er een Heiya omgedraaid wordt, wordt deze ... verwijderd, en wordt er daarvoor in de
    plaats een nieuwe kaart omgedraaid. Dit gaat net zolang door tot er geen Heiya meer wordt
    omgedraaid"."""
    s = position(KINGS, {"b2": "he", "b3": "he", "b4": "ki", "b5": "asg"})
    s = s.apply("flip:b2")
    assert s.cards[SQUARES["b2"]] is None and s.current_player == 0
    s = s.apply("flip:b3")  # a second Heiya: still not one of the two cards
    assert s.cards[SQUARES["b3"]] is None and s.current_player == 0
    s = s.apply("flip:b4").apply("flip:b5")
    assert s.current_player == 1 and s.cards[SQUARES["b4"]] == "ki"


def test_ki_is_turned_back_and_stays():
    """"Als een speler in zijn beurt 1 of 2 Ki omdraait, draait hij beide kaarten weer dicht
    ... Ki blijven dus tot het eind van het spel op tafel liggen"."""
    s = position(KINGS, {"b2": "ki", "b3": "ki", "b4": "asg"}).play("flip:b2", "flip:b3")
    assert s.cards[SQUARES["b2"]] == s.cards[SQUARES["b3"]] == "ki"
    assert s.two_ki == (True, False) and not s.is_terminal()


def test_yonhon_no_ki_loses_after_two_two_ki_turns_running():
    """"Als een speler in 2 opeenvolgende beurten 2 Ki omdraait, heeft deze het spel
    verloren"."""
    cards = {"b2": "ki", "b3": "ki", "b4": "asg", "e4": "asb"}
    s = position(KINGS, cards).play("flip:b2", "flip:b3", "a7a6", "flip:b3", "flip:b2")
    assert s.is_terminal() and s.outcome().winner == 1 and "Yonhon no ki" in s.outcome().reason
    # a piece move in between breaks the run
    s = position(KINGS, cards).play("flip:b2", "flip:b3", "a7a6", "a1a2", "a6a7", "flip:b3", "flip:b2")
    assert not s.is_terminal()


def test_fewer_than_two_cards_left():
    """NOTES.md: with fewer than two face-down cards the player flips what there is; none
    left, flipping is not a legal move."""
    s = position(KINGS, {"c4": "kbr"}).apply("flip:c4")
    assert s.current_player == 1 and s.cards[SQUARES["c4"]] == "kbr"
    assert not any(":" in str(m) for m in position(KINGS, {}).legal_moves())


# --- Kyousei and Haisen ----------------------------------------------------------------------

def test_kyousei_allows_only_daimyo_moves_to_safety():
    """"Kyousei: De Daimyo wordt gedwongen te bewegen ... als hij een veld bezet waar hij
    geslagen kan worden"; NOTES.md: to a square not attacked."""
    s = position({"c1": "D", "c7": "d", "c5": "a", "f2": "S"}, {"e5": "ki"})
    moves = {str(m) for m in s.legal_moves()}
    assert moves == {"c1b1", "c1b2", "c1d1", "c1d2"}
    with pytest.raises(rk.IllegalMoveError, match="Kyousei"):
        s.apply("flip:e5")
    with pytest.raises(rk.IllegalMoveError, match="Kyousei"):
        s.apply("f2f3")


def test_the_daimyo_never_steps_into_attack_nor_captures_a_daimyo():
    """NOTES.md: "A Daimyo never moves onto an attacked square ... a Daimyo is never captured"."""
    s = position({"c1": "D", "c3": "d", "e2": "h"}, side=0)
    # b2, c2, d2 touch the other Daimyo; the Kihei on e2 covers d1
    assert targets(s, "c1") == {"b1"}
    with pytest.raises(rk.IllegalMoveError):
        s.apply("c1d2")


def test_haisen_ends_the_game():
    """"Haisen: De Daimyo wordt gedwongen te bewegen, maar heeft geen mogelijkheid meer om naar
    een veld te vluchten ... De speler die Haisen staat ... heeft verloren"."""
    # the Shinobi on c3 attacks a1 and b2; b1 and a2 hold cards: nowhere to flee
    s = position({"a1": "D", "c3": "s", "f7": "d"}, {"b1": "ki", "a2": "ki"})
    assert s.is_terminal()
    assert s.outcome().winner == 1 and "Haisen" in s.outcome().reason


# --- options ---------------------------------------------------------------------------------

def test_shinobi_wo_tsukau():
    """Optional rule: "als eerste 2 kaarten 2 Heiya ... verdient de speler een extra Shinobi op
    de plek van de laatst opgedraaide Heiya, waarna zijn beurt voorbij is"; a Heiya after
    another first card does not count."""
    game = rk.load_game("war-stories", shinobi_wo_tsukau=True)
    cards = {"b2": "he", "b3": "he", "b4": "kbr", "b5": "he", "e4": "asg"}
    s = position(KINGS, cards, game=game).play("flip:b2", "flip:b3")
    assert s.pieces[SQUARES["b3"]] == 2 and s.current_player == 1  # a White Shinobi
    s = position(KINGS, cards, game=game).play("flip:b4", "flip:b5")
    assert s.pieces[SQUARES["b5"]] == 0 and s.current_player == 0  # no Shinobi: flip again
    plain = position(KINGS, cards).play("flip:b2", "flip:b3")
    assert plain.current_player == 0 and 2 not in plain.pieces


def test_nobori():
    """Optional rule: "De bordkaarten waar de nobori op liggen, mogen niet omgedraaid worden";
    they are removed at the end of a turn that did not end with turned-back cards."""
    game = rk.load_game("war-stories", nobori=True)
    s = position(KINGS, {"b2": "kbr", "b3": "asg", "e4": "khy"}, game=game).play("flip:b2", "flip:b3")
    assert s.nobori == {SQUARES["b2"], SQUARES["b3"]}
    assert {str(m) for m in s.legal_moves() if ":" in str(m)} == {"flip:e4"}
    with pytest.raises(rk.IllegalMoveError, match="Nobori"):
        s.apply("flip:b2")
    s = s.apply("a7a6")
    assert s.nobori == frozenset() and "flip:b2" in {str(m) for m in s.legal_moves()}


def test_start_squares_option():
    s = rk.load_game("war-stories", start="a1 b1 a7 b7").initial_state()
    assert s.pieces[SQUARES["a1"]] == 1 and s.pieces[SQUARES["b7"]] == 2 | 8
    with pytest.raises(rk.OptionError, match="four different squares"):
        rk.load_game("war-stories", start="a1 a1 a7 b7")


# --- the deal, views, text ---------------------------------------------------------------------

def test_the_deal_is_a_chance_outcome_with_a_notation():
    s = GAME.initial_state()
    assert s.current_player == rk.CHANCE and s.legal_moves() == []
    with pytest.raises(rk.ChanceNotEnumerableError):
        s.chance_outcomes()
    deal = s.sample_chance(random.Random(1))
    dealt = s.apply(str(deal))
    assert dealt == s.apply(deal) and dealt.current_player == 0
    assert Counter(c for c in dealt.cards if c) == Counter(DECK) and len(DECK) == 38
    with pytest.raises(rk.IllegalMoveError, match="38 board cards"):
        s.apply("deal:ki.ki")
    with pytest.raises(rk.IllegalMoveError, match="deal is pending"):
        s.apply("c1c2")


def test_views_hide_unrevealed_cards_and_remember_revealed_ones():
    s = GAME.initial_state().apply(GAME.initial_state().sample_chance(random.Random(2)))
    first = next(m for m in s.legal_moves() if ":" in str(m))
    after = s.apply(first)
    for player in (0, 1):
        view = after.view(player)
        known = {sq for sq, c in enumerate(view.cards) if c not in (None, UNKNOWN)}
        assert known <= set(after.revealed) | {after.face_up}
        assert UNKNOWN in view.cards
        text = view.to_text()
        hidden = [c for sq, c in enumerate(after.cards) if c and sq not in known]
        assert text.count("?") == len(hidden)
    scene = after.scene(perspective=1)
    assert all(t.name == "?" for t in scene.tokens if t.kind == "card" and t.face_down
               and SQUARES[t.cell] not in after.revealed)
    assert any(t.name != "?" for t in after.scene().tokens if t.kind == "card")  # all-seeing


def test_bad_position_text():
    with pytest.raises(rk.PositionTextError, match="8 fields"):
        GAME.from_text("nonsense")
    good = GAME.initial_state().apply(GAME.initial_state().sample_chance(random.Random(3))).to_text()
    with pytest.raises(rk.PositionTextError, match="not a card code"):
        GAME.from_text(good.replace("ki", "kx", 1))


# --- properties over random games --------------------------------------------------------------

def random_game(seed: int, game=GAME, cap: int = 4000):
    return rk.playout(game.initial_state(), random.Random(seed), max_plies=cap)


def random_game_with_actions(seed: int, game=GAME):
    return play(game, seed)


def check_invariants(states):
    for s in states[1:]:
        on_board = [c for c in s.cards if c is not None]
        removed = Counter(DECK) - Counter(on_board)
        assert Counter(on_board) + removed == Counter(DECK)  # nothing appears or vanishes
        assert not set(on_board) - set(DECK)
        assert all(not (code and card) for code, card in zip(s.pieces, s.cards, strict=True))
        for player in (0, 1):
            assert s.pieces.count(1 | player << 3) == 1  # each Daimyo always on the board
            assert not any(c not in (None, UNKNOWN) and sq not in s.revealed and sq != s.face_up
                           for sq, c in enumerate(s.view(player).cards))


def test_thousands_of_random_games_end_and_keep_their_invariants():
    lengths = []
    for seed in range(1000):
        options = {"shinobi_wo_tsukau": seed % 3 == 1, "nobori": seed % 2 == 1}
        states = random_game(seed, rk.load_game("war-stories", **options))
        assert states[-1].is_terminal(), f"seed {seed} did not end in 4000 actions"
        if seed % 50 == 0:
            check_invariants(states)
        lengths.append(len(states))
    assert max(lengths) < 4000


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), shinobi=st.booleans(), nobori=st.booleans())
def test_random_games_keep_invariants_and_records_replay(seed, shinobi, nobori):
    game = rk.load_game("war-stories", shinobi_wo_tsukau=shinobi, nobori=nobori)
    states, actions = random_game_with_actions(seed, game)
    check_invariants(states)
    record = records.Record.from_actions(game, actions)
    again = records.Record.from_json(record.to_json())
    assert again.replay() == states
    assert again.result["winner"] == states[-1].outcome().winner


def test_replace_keeps_states_immutable():
    s = GAME.initial_state()
    with pytest.raises(AttributeError):
        s.side = 1
    assert replace(s, side=1) != s


def test_determinize_deals_only_the_unseen_cards():
    """A searching agent imagines the hidden cards from those neither seen nor removed."""
    states, _ = random_game_with_actions(11)
    for state in states[1:200:17]:
        view = state.view(0)
        world = view.determinize(random.Random(5))
        assert UNKNOWN not in world.cards
        assert Counter(c for c in world.cards if c) + Counter(world.removed) == Counter(DECK)
        assert all(world.cards[sq] == code for sq, code in enumerate(view.cards) if code != UNKNOWN)
