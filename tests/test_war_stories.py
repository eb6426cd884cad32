"""War Stories / Sengokuki: every rule of rules/war-stories-sengokuki.nl.txt and the rulings
of rules/NOTES.md, then properties over thousands of random games."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.games.war_stories import DECK, SQUARES, UNKNOWN, WarStoriesState
from rules_kernel.games.war_stories import notation as war_stories_words

GAME = rk.load_game("war-stories")
LETTERS = {"D": 1, "S": 2, "A": 3, "K": 4, "H": 5}


def position(
    pieces: dict[str, str],
    cards: dict[str, str] | None = None,
    *,
    side: int = 0,
    game: rk.Game = GAME,
    **fields,
) -> WarStoriesState:
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
    """ "De Daimyo mag 1 veld horizontaal, verticaal of diagonaal verplaatst worden/slaan"."""
    s = position({"c3": "D", "f7": "d"})
    assert targets(s, "c3") == {"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"}
    crowded = position({"c3": "D", "f7": "d", "c4": "S"}, {"b2": "ki", "d3": "he"})
    assert targets(crowded, "c3") == {"b3", "b4", "c2", "d2", "d4"}


def test_shinobi_slides_any_way_and_stops_at_cards_and_pieces():
    """ "De Shinobi mag 1 of meer velden horizontaal, verticaal of diagonaal"; "pionnen kunnen
    niet over andere pionnen of bordkaarten heenspringen"."""
    open_board = position({"c3": "S", **KINGS})
    assert targets(open_board, "c3") == {
        "c4",
        "c5",
        "c6",
        "c7",
        "c2",
        "c1",
        "b3",
        "a3",
        "d3",
        "e3",
        "f3",
        "d4",
        "e5",
        "f6",
        "b4",
        "a5",
        "d2",
        "e1",
        "b2",
    }
    crowded = position({"c3": "S", "c5": "a", **KINGS}, {"e3": "ki", "e5": "kbr"})
    t = targets(crowded, "c3")
    assert "c5" in t and "c6" not in t  # captures, then stops
    assert "d3" in t and "e3" not in t and "f3" not in t  # never onto or over a card
    assert "d4" in t and "e5" not in t


def test_ashigaru_orthogonal_and_kihei_diagonal():
    """ "De Ashigaru ... horizontaal of verticaal"; "De Kihei ... 1 of meer velden diagonaal"."""
    s = position({"c3": "A", "e5": "H", **KINGS}, {"c6": "he"})
    assert targets(s, "c3") == {"c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3", "f3"}
    assert targets(s, "e5") == {"d4", "f4", "f6", "d6", "c7"}  # the own Ashigaru on c3 blocks


def test_kibatai_jumps_but_never_lands_on_a_card():
    """ "De Kibatai mag 1 veld horizontaal óf verticaal, gevolgd door 1 veld diagonaal ...
    het enige spelstuk dat over andere pionnen en bordkaarten kan springen ... mag echter
    nooit eindigen op een veld bezet door een bordkaart"."""
    s = position(
        {"c3": "K", "c4": "S", "b3": "s", **KINGS}, {"d3": "ki", "c2": "he", "b5": "kbr", "e4": "asy"}
    )
    assert targets(s, "c3") == {"d5", "e2", "d1", "b1", "a2", "a4"}


def test_a_capture_removes_the_piece_and_ends_the_move():
    """ "de pion van de tegenstander [wordt] van het speelbord verwijderd ... er kan na het
    slaan dus niet doorgelopen worden"."""
    s = position({"c3": "A", "c5": "k", **KINGS}).apply("c3c5")
    assert s.pieces[SQUARES["c5"]] == 3 and 4 | 8 not in s.pieces
    assert s.current_player == 1


# --- flipping: "Twee bordkaarten omdraaien" --------------------------------------------------


def test_engun_places_the_piece_on_the_second_card():
    """ "Als een speler ... 2 dezelfde Legerkaarten om te draaien (pion én kamon hetzelfde),
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
    """ "Als de Legerkaarten verschillen draait hij ze weer dicht en is de volgende speler aan
    de beurt"; a different kamon is a different card."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbb", "f1": "ki"}).play("flip:c3", "flip:e5")
    assert s.cards[SQUARES["c3"]] == "kbr" and s.cards[SQUARES["e5"]] == "kbb"
    assert s.face_up is None and s.current_player == 1
    assert s.view(1).cards[SQUARES["e5"]] == "kbb"  # seen by both: in sight until the next action
    assert s.view(1).cards[SQUARES["f1"]] == UNKNOWN


def test_a_heiya_chain_is_removed_card_by_card():
    """ "Als er een Heiya omgedraaid wordt, wordt deze ... verwijderd, en wordt er daarvoor in de
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
    """ "Als een speler in zijn beurt 1 of 2 Ki omdraait, draait hij beide kaarten weer dicht
    ... Ki blijven dus tot het eind van het spel op tafel liggen"."""
    s = position(KINGS, {"b2": "ki", "b3": "ki", "b4": "asg"}).play("flip:b2", "flip:b3")
    assert s.cards[SQUARES["b2"]] == s.cards[SQUARES["b3"]] == "ki"
    assert s.two_ki == (True, False) and not s.is_terminal()


def test_yonhon_no_ki_loses_after_two_two_ki_turns_running():
    """ "Als een speler in 2 opeenvolgende beurten 2 Ki omdraait, heeft deze het spel
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
    """ "Kyousei: De Daimyo wordt gedwongen te bewegen ... als hij een veld bezet waar hij
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
    """ "Haisen: De Daimyo wordt gedwongen te bewegen, maar heeft geen mogelijkheid meer om naar
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


def test_views_hide_unrevealed_cards_and_label_the_card_in_sight():
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
    assert all(
        t.name == "?"
        for t in scene.tokens
        if t.kind == "card" and t.face_down and SQUARES[t.cell] not in after.revealed
    )
    assert any(t.name != "?" for t in after.scene().tokens if t.kind == "card")  # all-seeing


def test_bad_position_text():
    with pytest.raises(rk.PositionTextError, match="8 fields"):
        GAME.from_text("nonsense")
    good = GAME.initial_state().apply(GAME.initial_state().sample_chance(random.Random(3))).to_text()
    with pytest.raises(rk.PositionTextError, match="not a card code"):
        GAME.from_text(good.replace("ki", "kx", 1))


# --- properties over random games --------------------------------------------------------------


def check_invariants(states):
    for s in states[1:]:
        on_board = [c for c in s.cards if c is not None]
        removed = Counter(DECK) - Counter(on_board)
        assert Counter(on_board) + removed == Counter(DECK)  # nothing appears or vanishes
        assert not set(on_board) - set(DECK)
        assert all(not (code and card) for code, card in zip(s.pieces, s.cards, strict=True))
        for player in (0, 1):
            assert s.pieces.count(1 | player << 3) == 1  # each Daimyo always on the board
            assert not any(
                c not in (None, UNKNOWN) and sq not in s.revealed and sq != s.face_up
                for sq, c in enumerate(s.view(player).cards)
            )


def test_hundreds_of_random_games_end_and_keep_their_invariants():
    lengths = []
    for seed in range(300):
        options = {"shinobi_wo_tsukau": seed % 3 == 1, "nobori": seed % 2 == 1}
        states = rk.playout(
            rk.load_game("war-stories", **options).initial_state(), random.Random(seed), max_plies=4000
        )
        assert states[-1].is_terminal(), f"seed {seed} did not end in 4000 actions"
        if seed % 15 == 0:
            check_invariants(states)
        lengths.append(len(states))
    assert max(lengths) < 4000


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), shinobi=st.booleans(), nobori=st.booleans())
def test_random_games_keep_invariants_and_records_replay(seed, shinobi, nobori):
    game = rk.load_game("war-stories", shinobi_wo_tsukau=shinobi, nobori=nobori)
    states, actions = random_game(game, seed)
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
    states, _ = random_game(GAME, 11)
    for state in states[1:200:17]:
        view = state.view(0)
        world = view.determinize(random.Random(5))
        assert UNKNOWN not in world.cards
        assert Counter(c for c in world.cards if c) + Counter(world.removed) == Counter(DECK)
        assert all(world.cards[sq] == code for sq, code in enumerate(view.cards) if code != UNKNOWN)


# --- position text: only positions of the game (issue 14) ---------------------------------------

DEALT = GAME.initial_state().apply(GAME.initial_state().sample_chance(random.Random(3)))
DEALT_TEXT = DEALT.to_text()  # a1 holds an Ashigaru red (asr), b1 a Heiya, ...
FACE_UP_TEXT = DEALT.apply("flip:a1").to_text()  # 'asr*' on a1, turn '1x'


def with_field(text: str, index: int, value: str) -> str:
    fields = text.split()
    fields[index] = value
    return " ".join(fields)


def with_card(text: str, square: str, entry: str) -> str:
    cards = text.split()[1].split(".")
    cards[SQUARES[square]] = entry
    return with_field(text, 1, ".".join(cards))


@pytest.mark.parametrize(
    "text, field, reason",
    [
        (None, "position text", "must be a string"),
        (with_field(DEALT_TEXT, 6, "²"), "ply", "at most 9 digits"),  # '²'.isdigit() is True
        (with_field(DEALT_TEXT, 6, "9" * 5000), "ply", "at most 9 digits"),  # int() limit: 4,300
        # NOTES.md: 38 board cards = 24 army (3 kinds x 4 kamon x 2), 8 Heiya, 6 Ki
        (with_card(DEALT_TEXT, "a1", "ki"), "cards", "7 x Ki"),
        (with_card(DEALT_TEXT, "a1", "kbg"), "cards", "3 x Kibatai green"),
        (with_field(DEALT_TEXT, 7, "he"), "cards", "9 x Heiya"),
        (
            with_card(with_field(DEALT.view(0).to_text(), 4, "a1"), "a1", "-"),
            "cards",
            "37 cards on the board, 0 removed and 0 out of the game",
        ),
        (
            DEALT.view(0).to_text() + " out:" + ",".join(["ki"] * 7),
            "out",
            "7 x Ki on the board and removed and out",
        ),
        (DEALT_TEXT + " out:ki", "out", "only a text with hidden cards"),
        (with_card(FACE_UP_TEXT, "e1", "kbg*"), "cards", "two face-up cards"),
        (with_card(DEALT_TEXT, "c1", "-*"), "cards", "marks no face-up card"),
        (with_card(DEALT_TEXT, "e1", "?*"), "cards", "marks no face-up card"),
        (with_card(DEALT_TEXT, "c1", "-^"), "cards", "a Nobori lies on a flipped-back card"),
        (with_field(DEALT_TEXT, 3, "5x"), "turn", "means a card is face up"),
        (with_field(DEALT_TEXT, 3, "1h"), "turn", "1 Heiya flipped this turn but 0 removed"),
        (with_field(DEALT_TEXT, 3, "12x"), "turn", "flip count 1-9"),
        (with_field(FACE_UP_TEXT, 3, "-"), "turn", "must count it"),
        (with_card(with_field(DEALT_TEXT, 4, "e1"), "e1", "kbg^"), "cards", "nobori option is off"),
        (with_card(DEALT_TEXT, "c1", "ki"), "cards", "c1 is a start square"),
        (with_field(DEALT_TEXT, 0, "2dd2/6/6/6/6/6/2DS2"), "pieces", "Black has 2 Daimyo"),
        (with_field(DEALT_TEXT, 0, "2ds2/6/6/6/6/6/2DS²"), "pieces", "is no piece"),
        (with_field(DEALT_TEXT, 0, "2ds2/6/6/6/6/6/2DS9"), "pieces", "is no piece"),
        (DEALT_TEXT + " lost:0", "lost", "Yonhon no ki ends"),
        (with_field(DEALT_TEXT, 3, "deal"), "turn", "fits only the start position"),
        (with_field(DEALT_TEXT, 7, "ki"), "cards", "7 x Ki"),
        (with_field(DEALT_TEXT, 2, "x"), "side", "must be 'w' or 'b'"),
    ],
)
def test_impossible_positions_are_refused_naming_the_field(text, field, reason):
    """Issue 14's holes: each refused with PositionTextError naming the field."""
    with pytest.raises(rk.PositionTextError) as info:
        GAME.from_text(text)
    message = str(info.value)
    assert f": {field}: " in message and reason in message, message
    assert len(message) < 400


@pytest.mark.parametrize(
    "text, remark",
    [
        # NOTES.md: Engun removes both cards of a pair; Ki "blijven ... tot het eind van het
        # spel op tafel liggen"
        (with_field(with_card(with_field(DEALT_TEXT, 4, "a1"), "a1", "-"), 7, "asr"), "removed alone"),
        # a card off the board that no turn removed: out of the game (a study position)
        (with_card(with_card(DEALT_TEXT, "a1", "-"), "b1", "-"), "2 board cards out of the game"),
        (with_card(with_field(DEALT_TEXT, 4, "a1"), "a1", "-"), "1 board card out of the game"),
        # a reinforcement enters by Engun only; one Shinobi each (NOTES.md)
        (with_field(DEALT_TEXT, 0, "2ds2/6/6/6/6/6/2DA2"), "1 Ashigaru on the board but 0 Engun"),
        (with_field(DEALT_TEXT, 0, "2dS2/6/6/6/6/6/2DS2"), "2 Shinobi; one each"),
        (with_field(DEALT_TEXT, 0, "3s2/6/6/6/6/6/2DS2"), "no Daimyo for Black"),
        (with_field(DEALT_TEXT, 0, "2dD2/6/6/6/6/6/3S2"), "the Daimyos on d7 and c7 touch"),
    ],
)
def test_unusual_positions_are_accepted_and_told_by_status(text, remark):
    """Study positions (issue #24): read, played, and described by `status()`."""
    state = GAME.from_text(text)
    assert any(remark in line for line in state.status()), state.status()
    assert GAME.from_text(state.to_text()) == state


def test_views_and_positions_from_random_games_round_trip_equal_with_equal_hashes():
    for seed in range(6):
        states, _ = random_game(rk.load_game("war-stories", nobori=seed % 2 == 1), seed)
        game = states[0].game
        for state in states[:: max(1, len(states) // 30)] + [states[-1]]:
            for shown in [state] + ([state.view(0), state.view(1)] if state.dealt else []):
                again = game.from_text(shown.to_text())
                assert again == shown and hash(again) == hash(shown)
                assert again.to_text() == shown.to_text()


# --- equality by position, not by the last-move highlight (issue 14) ---------------------------


def test_two_move_orders_reach_one_position():
    """The last move is drawn (`last`) but is no part of the position: equal states, equal
    hashes; removed cards are a multiset, whatever order they left in."""
    start = position({"a1": "D", "c3": "S", "a7": "d"}, {"f1": "ki"})
    one = start.play("a1a2", "a7b7", "c3c4")
    other = start.play("c3c4", "a7b7", "a1a2")
    assert one.last != other.last
    assert one == other and hash(one) == hash(other) and one.to_text() == other.to_text()
    heiyas = position(KINGS, {"b2": "he", "b3": "he", "b4": "ki", "b5": "asg", "e5": "kbr"})
    first = heiyas.play("flip:b2", "flip:b3", "flip:b4", "flip:b5")
    second = heiyas.play("flip:b3", "flip:b2", "flip:b4", "flip:b5")
    assert first == second and hash(first) == hash(second)


# --- the move list in words; what a view shows of the memory game (issue #22) -------------------

SCRIPT_CARDS = {"c3": "kbr", "e5": "kbb", "b2": "he", "f1": "ki", "f2": "ki", "d4": "kbr", "b6": "asg"}
SCRIPT = [  # (mover, notation, the move list's words, the words without memory)
    (0, "flip:c3", "turns over c3: Kibatai red", "turns over c3"),
    (
        0,
        "flip:e5",
        "turns over e5: Kibatai blue — no match, both turned back",
        "turns over e5 — no match, both turned back",
    ),
    (1, "flip:b2", "turns over b2: Heiya — removed, another card to turn", None),
    (1, "flip:f1", "turns over f1: Ki", "turns over f1"),
    (
        1,
        "flip:f2",
        "turns over f2: Ki — two Ki, both turned back",
        "turns over f2 — no match, both turned back",  # which cards they were is forgotten (issue 44)
    ),
    (0, "flip:d4", "turns over d4: Kibatai red", "turns over d4"),
    (0, "flip:c3", "turns over c3: Kibatai red — a pair: Engun, a Kibatai enters on c3", None),
    (1, "a7a6", "Daimyo a7–a6", None),
    (0, "c3e4", "Kibatai c3–e4 takes Kihei", None),
    (1, "f7a2", "Shinobi f7–a2 (Kyousei)", None),
    (0, "a1a2", "Daimyo a1–a2 takes Shinobi", None),
]


def test_a_scripted_game_in_words_for_every_viewer():
    """The move list names what the rulebook names: "Twee bordkaarten omdraaien" card by card
    (every flip is seen by both players, NOTES.md, so every viewer reads the card); a Heiya
    "wordt ... verwijderd, en wordt er daarvoor in de plaats een nieuwe kaart omgedraaid";
    different cards: "draait hij ze weer dicht"; the pair: "Engun ... plaatst de gewonnen pion
    ... op de plek van de laatst omgedraaide bordkaart"; a capture ('slaan'); and "Kyousei en
    Haisen worden aangekondigd door de speler, die de Daimyo bedreigt". Without memory a
    card turned back again goes unnamed; a Heiya or a pair left the board for all to see."""
    s = position({"a1": "D", "a7": "d", "e4": "h", "f7": "s"}, SCRIPT_CARDS)
    for mover, notation, words, forgetful in SCRIPT:
        assert s.current_player == mover, notation
        action = s.parse_move(notation)
        for viewer in (None, 0, 1):
            assert s.action_text(action, viewer) == words, (notation, viewer)
            if viewer is not None:
                # `memory` is the War Stories words part's own keyword
                said = war_stories_words.action_text(s, action, viewer, memory=False)
                assert said == (forgetful or words), (notation, viewer)
        assert str(action) == notation  # the notation (records) stays
        s = s.apply(action)


def test_the_deal_is_face_down_in_a_players_words():
    """ "De bordkaarten worden met hun achterkant ... naar boven gelegd en geschud": no list
    names a card of the deal, the all-seeing one neither (its board shows the layout; the
    deal's card codes are notation, kept in the record)."""
    start = GAME.initial_state()
    deal = start.sample_chance(random.Random(3))
    assert start.action_text(deal, 0) == start.action_text(deal, 1) == "the cards are dealt face down"
    assert start.action_text(deal) == "the cards are dealt face down"
    assert str(deal).startswith("deal:")  # the notation (records) stays


def test_the_flipper_sees_the_second_card_after_the_flip_until_the_hand_over():
    """Every flip is seen by both players (NOTES.md); "Als de Legerkaarten verschillen draait hij
    ze weer dicht en is de volgende speler aan de beurt": the turn ends with the second card,
    but the pair lies in sight, labelled in every view, until the next action (the flipper's
    "Done — hand over" step: `hand_over_from`)."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbb", "f1": "ki", "f2": "ki"}).apply("flip:c3")
    assert s.flipping and s.cards_in_sight == ("c3",) and s.hand_over_from is None
    assert s.view(0).cards[SQUARES["c3"]] == s.view(1).cards[SQUARES["c3"]] == "kbr"
    s = s.apply("flip:e5")
    assert s.current_player == 1 and not s.flipping and s.face_up is None
    assert s.cards_in_sight == ("c3", "e5") and s.hand_over_from == 0
    for player in (0, 1):
        assert s.view(player).cards[SQUARES["e5"]] == "kbb" and s.view(player).cards[SQUARES["c3"]] == "kbr"
        token = s.scene(perspective=player).token_at("e5")
        assert not token.face_down and token.name == "Kibatai blue"
    engun = position(KINGS, {"c3": "kbr", "e5": "kbr", "f1": "ki"}).play("flip:c3", "flip:e5")
    assert engun.hand_over_from == 0 and engun.cards_in_sight == ()  # the pair left the board
    moved = position(KINGS, {"f1": "ki"}).apply("a1a2")
    assert moved.hand_over_from is None  # a piece move: nothing to look at before the hand-over


def test_a_card_turned_back_is_unlabelled_unless_the_view_asks_for_memory():
    """What a player remembers is memory, not rule: once the next action is made the cards
    turned back are card backs (`?`) in the default view, like cards never seen; perfect
    memory (the old NOTES.md view: "a player's view knows what was ever revealed") is the
    explicit `view(p, memory=True)`, and stays so when viewed again or drawn."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbb", "f1": "ki", "f2": "ki"}).play("flip:c3", "flip:e5", "a7a6")
    assert s.cards_in_sight == () and s.hand_over_from is None
    for player in (0, 1):
        plain, remembered = s.view(player), s.view(player, memory=True)
        assert plain.cards[SQUARES["c3"]] == plain.cards[SQUARES["e5"]] == UNKNOWN
        assert remembered.cards[SQUARES["c3"]] == "kbr" and remembered.cards[SQUARES["e5"]] == "kbb"
        assert remembered.cards[SQUARES["f1"]] == UNKNOWN  # never seen
        assert remembered.view(player) == remembered and plain.view(player, memory=True) == plain
        assert s.scene(perspective=player).token_at("c3").name == "?"
        assert remembered.scene(perspective=player).token_at("c3").name == "Kibatai red"
        assert plain.to_text().count("?") == 4 and remembered.to_text().count("?") == 2
    assert s.view(0) == s.view(1)  # both players saw the same flips


def test_no_words_name_a_card_the_viewers_view_hides_after_the_action():
    """The contract of core.State.action_text, along random games with both options: a card
    the words name is labelled in the viewer's default view after the action, or gone."""
    for seed in range(4):
        game = rk.load_game("war-stories", shinobi_wo_tsukau=True, nobori=seed % 2 == 1)
        states, actions = random_game(game, seed)
        for before, action, after in zip(states, actions, states[1:], strict=False):
            if not str(action).startswith("flip:"):
                continue
            cell = str(action)[5:]
            for viewer in (0, 1):
                words = before.action_text(action, viewer)
                assert words.startswith(f"turns over {cell}: ")
                shown = after.view(viewer).cards[action.square]
                assert after.cards[action.square] is None or shown == before.cards[action.square], words


# --- playing on a view (issue 14) ----------------------------------------------------------------


def test_a_view_plays_what_it_knows_and_refuses_what_it_does_not():
    """A view knows the cards it labels (here the two just turned back, still in sight) and
    no other: flipping a known card or moving a piece works; flipping an unseen card raises
    HiddenInformationError (a RulesError), not a KeyError."""
    s = position(KINGS, {"c3": "kbr", "e5": "kbb", "f1": "ki", "f2": "ki"}).play("flip:c3", "flip:e5")
    view = s.view(1)
    assert view.apply("flip:c3").cards[SQUARES["c3"]] == "kbr"
    assert view.apply("a7a6").pieces[SQUARES["a6"]] == 1 | 8
    with pytest.raises(rk.core.HiddenInformationError, match="never seen the card on f1"):
        view.apply("flip:f1")
    with pytest.raises(rk.RulesError):
        view.apply("flip:c3").apply("flip:f2")
    dealt_view = DEALT.view(0)
    with pytest.raises(rk.RulesError):
        dealt_view.apply("flip:a1")


@pytest.mark.parametrize("seat", [7, -1, 2, "a", None, 1.0, True])
def test_a_view_of_no_seat_is_refused(seat):
    with pytest.raises(rk.core.SeatError, match="its seats are 0, 1"):
        DEALT.view(seat)


# --- Haisen for both Daimyos after every action; option self_haisen (issue 14) -----------------

# White's Shinobi on d2 shields the Daimyo on a2 from the black Ashigaru on f2 (rank 2);
# a1, a3, b1 and b3 hold cards, so once rank 2 opens the Daimyo has nowhere to flee. Black's
# Daimyo on f7 has Ki on e7 and f6: only e6 is a way out.
SHIELD = {"a2": "D", "d2": "S", "f2": "a", "f7": "d"}
SHIELD_CARDS = {"a1": "ki", "a3": "ki", "b1": "ki", "b3": "ki", "e7": "ki", "f6": "ki"}


def test_a_move_into_own_haisen_loses_at_once():
    """NOTES.md: "Haisen is checked after every action, for BOTH Daimyos ... A move that leaves
    the mover's own Daimyo in Haisen (for example by ... moving a shielding piece away) loses
    at once"; the rulebook: "Het spel is afgelopen, als een van de Daimyo's Haisen staat"."""
    s = position(SHIELD, SHIELD_CARDS)
    assert not s.is_terminal() and "d2d3" in {str(m) for m in s.legal_moves()}  # "loses": offered
    after = s.apply("d2d3")
    assert after.is_terminal() and after.current_player == 1
    assert after.outcome().winner == 1 and "Haisen" in after.outcome().reason
    assert "own" in after.outcome().reason


def test_own_haisen_loses_even_when_the_other_daimyo_is_in_haisen_too():
    """NOTES.md: "... loses at once, even if it also puts the other Daimyo in Haisen". The
    Shinobi leaves d2 for d5: rank 2 opens on White's Daimyo, and from d5 the Shinobi covers
    e6 and f7, so Black's Daimyo is trapped as well."""
    after = position(SHIELD, SHIELD_CARDS).apply("d2d5")
    assert after.outcome().winner == 1 and "own" in after.outcome().reason
    only_black = position({**SHIELD, "c2": "A"}, SHIELD_CARDS).apply("d2d5")  # c2 still shields
    assert only_black.outcome().winner == 0 and "own" not in only_black.outcome().reason


def test_self_haisen_illegal_is_an_option():
    """NOTES.md: option `self_haisen`: "illegal" (such a move is not offered, as in chess)."""
    game = rk.load_game("war-stories", self_haisen="illegal")
    s = position(SHIELD, SHIELD_CARDS, game=game)
    moves = {str(m) for m in s.legal_moves()}
    assert not {"d2d3", "d2d5", "d2e3", "d2c1"} & moves
    assert {"d2c2", "d2b2", "d2e2", "d2f2"} <= moves  # along rank 2 the shield stays
    with pytest.raises(rk.IllegalMoveError):
        s.apply("d2d3")
    with pytest.raises(rk.OptionError, match="'loses', 'illegal'"):
        rk.load_game("war-stories", self_haisen="maybe")


def test_a_heiya_that_opens_a_line_ends_the_game_mid_turn():
    """Haisen is checked after every action, a flip included: a Heiya on a3 leaves the board
    and opens the a-file on White's own Daimyo. The card was unknown before the flip, so even
    with self_haisen="illegal" the flip is offered (and loses)."""
    cards = {"b1": "ki", "b2": "ki", "a3": "he", "a2": "ki", "e7": "ki", "f6": "ki"}
    pieces = {"a1": "D", "a5": "a", "f7": "d"}
    for rule in ("loses", "illegal"):
        game = rk.load_game("war-stories", self_haisen=rule)
        s = position(pieces, cards, game=game)
        with_ki_gone = position(pieces, {**cards, "a2": "he"}, game=game)
        assert "flip:a3" in {str(m) for m in s.legal_moves()}
        after = with_ki_gone.play("flip:a2", "flip:a3")  # two Heiya in a row: still White's turn
        assert after.flips == 2 and after.is_terminal()
        assert after.outcome().winner == 1 and "own" in after.outcome().reason


def test_a_daimyo_merely_attacked_by_its_own_move_is_kyousei_next_turn():
    """NOTES.md: "A move that leaves the own Daimyo merely attacked (it can still flee) is
    legal; that player is in Kyousei on their next turn"."""
    cards = {k: v for k, v in SHIELD_CARDS.items() if k != "b1"}  # b1 free: a way out
    s = position(SHIELD, cards).apply("d2d3")
    assert not s.is_terminal()
    s = s.apply("f7e6")
    assert {str(m) for m in s.legal_moves()} == {"a2b1"}  # Kyousei: the Daimyo, to safety


def test_max_plies_counts_at_least_one_action():
    for bad in (0, -5):
        with pytest.raises(rk.OptionError, match="at least 1"):
            rk.load_game("war-stories", max_plies=bad)
    assert rk.load_game("war-stories", max_plies=1).options["max_plies"] == 1


def test_start_daimyos_may_not_touch():
    """A Daimyo never stands next to the other (it would be attacked by it)."""
    with pytest.raises(rk.OptionError, match="would touch"):
        rk.load_game("war-stories", start="c1 d1 c2 d7")
