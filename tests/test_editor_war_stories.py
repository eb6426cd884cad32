"""The board editor for War Stories / Sengokuki: the kernel's `edit` hooks (pieces and face-down
board cards on the squares, the removed cards counted, the side to move and the turn's fields),
each edit read back from its position text, so checked as one is; the editor widget and the
explorer's Edit toggle (all-seeing view only: the editor shows every card).

The box (rules/war-stories-sengokuki.nl.txt, "Spelmateriaal", and rules/NOTES.md, War Stories):
38 board cards = 24 army cards (3 kinds x 4 kamon x 2) + 8 Heiya + 6 Ki; 20 pieces = 2 Daimyo,
2 + 4 Shinobi, 12 reinforcements (4 of each kind)."""

from __future__ import annotations

import pytest

import rules_kernel as rk
import widgets
from rules_kernel.games.war_stories import DECK, SQUARES
from widgets.editor import REMOVE, PositionEditor
from widgets.explorer import ALL_SEEING

GAME = rk.load_game("war-stories")
# the deal in sorted order: e4, f4 hold the Kibatai red pair; a3..f3 and e2, f2 the Heiya
DEALT = GAME.initial_state().apply("deal:" + ".".join(DECK))


def study(pieces: str, cards: dict[str, str], rest: str = "w - - 00 0 -") -> rk.State:
    """A study position: `pieces` as the text writes them, only the `cards` on the board."""
    layout = ["-"] * len(SQUARES)
    for square, code in cards.items():
        layout[SQUARES[square]] = code
    return GAME.from_text(f"{pieces} {'.'.join(layout)} {rest}")


SMALL = study("2d3/6/6/6/6/6/2D3", {"a3": "kbr", "b5": "kbr", "e4": "he", "f6": "ki"})


def test_the_palette_is_the_rulebooks_pieces_and_board_cards():
    """ "Pionnen": Daimyo, Shinobi, Ashigaru, Kibatai, Kihei, each player's own; "Bordkaarten":
    the Legerkaarten (pion + kamon) and the Landschapskaarten Ki and Heiya, face down on the
    board ("met hun achterkant ... naar boven"), and counted when removed ("verwijdert")."""
    pieces = DEALT.edit_pieces()
    on_board = {(p.name, p.owner) for p in pieces if p.on_board}
    for owner in (0, 1):
        assert {name for name, seat in on_board if seat == owner} == {
            "Daimyo",
            "Shinobi",
            "Ashigaru",
            "Kibatai",
            "Kihei",
        }
    cards = {p.name for p in pieces if p.on_board and p.owner is None}
    assert len(cards) == 14 and {"Kibatai red (face down)", "Ki (face down)", "Heiya (face down)"} <= cards
    removed = [p for p in pieces if p.in_hand]
    assert all(p.pile == "removed" and not p.on_board and p.owner is None for p in removed)
    assert {p.name for p in removed} == {name.removesuffix(" (face down)") for name in cards}
    assert len({p.key for p in pieces}) == len(pieces)  # one key each (core.EditPiece)


def test_an_edit_like_an_engun_round_trips_and_is_a_position_play_reaches():
    """ "De speler verwijdert de omgedraaide bordkaarten en plaatst de gewonnen pion ... op de
    plek van de laatst omgedraaide bordkaart" (Engun): the Kibatai red pair leaves e4 and f4,
    counted as removed, and a White Kibatai stands on f4; Black to move."""
    state = DEALT.edit(place={"e4": None, "f4": "K"}, hands={(None, "removed:kbr"): 2}, to_move=1)
    assert state.to_text().startswith("2ds2/6/6/5K/6/6/2DS2 ")
    assert state.to_text().endswith(" b - e4,f4 00 0 kbr,kbr")  # a card that left was seen
    assert state.status() == []  # nothing a real game does not reach
    assert state.edit_hands()[(None, "removed:kbr")] == 2 and state.current_player == 1
    assert GAME.from_text(state.to_text()) == state
    assert state.legal_moves()


def test_placing_takes_what_stood_there_and_cards_out_of_the_game_are_told():
    """ "De pionnen kunnen alleen lopen of staan op velden ..., waar geen bordkaarten liggen":
    a square holds a piece or a card, so placing one takes the other; a card taken off without
    being counted as removed is out of the game (NOTES.md: a study position may lay out fewer)."""
    state = DEALT.edit(place={"a2": "k", "c1": None, "e2": "asr"})  # a2's Ashigaru red to e2
    assert state.cards[SQUARES["a2"]] is None and state.pieces[SQUARES["a2"]] == 4 | 8  # Black Kibatai
    assert state.cards[SQUARES["e2"]] == "asr" and state.pieces[SQUARES["c1"]] == 0
    assert "1 board card out of the game" in state.status()  # e2's Heiya
    assert "no Daimyo for White" in state.status()
    assert GAME.from_text(state.to_text()) == state


def test_the_turn_fields_a_face_up_card_heiya_turned_and_the_two_ki_flags():
    """A turn of flips goes on card by card ("één voor één omdraaien"): a Heiya turned is
    removed and does not count; the first other card lies face up until the second is turned
    (NOTES.md). Yonhon no ki: "in 2 opeenvolgende beurten 2 Ki" - the flag of the turn before."""
    state = DEALT.edit(
        hands={(None, "removed:he"): 1},
        place={"a3": None},
        fields={
            "face-up card": "e4",
            "Heiya turned over this turn": "1",
            "Black turned up two Ki last turn": "yes",
        },
    )
    text = state.to_text()
    assert ".kbr*." in text and " w 2x a3,e4 01 0 he" in text
    assert state.edit_fields()["face-up card"][0] == "e4"
    assert all(str(move).startswith("flip:") for move in state.legal_moves())  # the turn goes on
    assert GAME.from_text(text) == state
    assert state.apply("flip:f4").pieces[SQUARES["f4"]] == 4  # the pair: Engun, a Kibatai enters
    back = state.edit(fields={"face-up card": "none", "Heiya turned over this turn": "0"})
    assert " w - a3,e4 01 0 he" in back.to_text()


def test_emptying_the_face_up_cards_square_ends_the_face_up_card():
    """Only a card lies face up ("'*' marks no face-up card" otherwise): a square emptied of
    it leaves the turn without one, the rest of the turn as it was."""
    state = DEALT.edit(fields={"face-up card": "e4"})
    assert state.face_up == SQUARES["e4"] and state.flips == 1
    emptied = state.edit(place={"e4": None})
    assert emptied.face_up is None and emptied.flips == 0 and emptied.revealed == {SQUARES["e4"]}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        # NOTES.md: each army card twice ("x 2 copies"); a third Kibatai red is refused
        ({"place": {"a2": "kbr"}}, "cards"),
        # NOTES.md: 8 Heiya; all eight lie on the board, a ninth counted as removed is refused
        ({"hands": {(None, "removed:he"): 1}}, "cards"),
        # NOTES.md: "20 pieces in the box = 2 Daimyo + 2 Shinobi + 12 ... + 4 extra Shinobi"
        ({"place": {sq: "S" for sq in ("a2", "b2", "c2", "d2", "e2")}}, "pieces"),
        ({"place": {"a2": "D"}}, "pieces"),  # a second White Daimyo
        # "op de overige velden van het bord": no card lies on a start square
        ({"place": {"c1": "ki"}}, "cards"),
        # a Heiya turned this turn is removed at once ("wordt ... verwijderd"): none is
        ({"fields": {"Heiya turned over this turn": "1"}}, "turn"),
        # a face-up card is never a Heiya (it leaves the board at once)
        ({"fields": {"face-up card": "a3"}}, "turn"),
        ({"fields": {"White turned up two Ki last turn": "maybe"}}, "two-Ki flags"),
        ({"fields": {"phase": "x"}}, "fields"),
        ({"place": {"z9": "D"}}, "board"),
        ({"place": {"a2": "Q"}}, "board"),
        ({"hands": {(0, "removed:he"): 0}}, "removed"),
        ({"hands": {(None, "removed:kbr"): -1}}, "removed"),
        ({"hands": {(None, "removed:kbr"): 10**100}}, "removed"),
        ({"to_move": 2}, "side"),
    ],
)
def test_an_edit_beyond_the_box_or_the_board_is_refused_naming_the_field(change, field):
    before = DEALT.to_text()
    with pytest.raises(rk.PositionTextError) as caught:
        DEALT.edit(**change)
    assert caught.value.field == field
    assert DEALT.to_text() == before


def test_a_refused_edit_applies_none_of_its_parts():
    """A valid placement with an over-box count (NOTES.md: 2 of each army card) is refused whole."""
    with pytest.raises(rk.PositionTextError) as caught:
        SMALL.edit(place={"c4": "S"}, hands={(None, "removed:kbr"): 1})
    assert caught.value.field == "cards"
    assert SMALL.pieces[SQUARES["c4"]] == 0 and SMALL.removed == ()


def test_the_cards_not_yet_dealt_are_not_edited():
    """Voorbereiding 4: the cards are shuffled and laid out (the deal) before any turn; a text
    with 'deal' fits only the start position (NOTES.md: the layout is chance)."""
    with pytest.raises(rk.PositionTextError) as caught:
        GAME.initial_state().edit(place={"a2": None})
    assert caught.value.field == "turn"


def test_the_editor_widget_builds_a_study_and_plays_an_engun_from_it():
    """The Engun of the rulebook ("2 dezelfde Legerkaarten ... de gewonnen pion ... op de plek
    van de laatst omgedraaide bordkaart") played from a position set up by clicking."""
    played = []
    editor = PositionEditor(SMALL, played.append)
    editor.choose("S")
    editor.click("d1")  # White's Shinobi
    editor.choose("khg")
    editor.click("a4")
    editor.choose(REMOVE)
    editor.click("f6")  # the Ki goes out of the game
    editor.counters[(None, "removed:he")].value = 1
    assert editor.state.edit_hands()[(None, "removed:he")] == 1
    assert editor.text.value == editor.state.to_text() and "out of the game" in editor.status.value
    before = editor.state
    editor.choose("kbr")
    editor.click("c4")  # a third Kibatai red: the box has two
    assert editor.state == before and 'role="alert"' in editor.status.value
    editor.counters[(None, "removed:kbr")].value = 1  # a third again, counted as removed
    assert editor.counters[(None, "removed:kbr")].value == 0 and editor.state == before
    editor.to_move.value = 1
    editor.to_move.value = 0
    editor.play.click()
    (start,) = played
    assert start.to_text() == editor.state.to_text()
    after = start.apply("flip:a3").apply("flip:b5")
    assert after.pieces[SQUARES["b5"]] == 4 and after.current_player == 1  # White's Kibatai entered


def test_the_explorer_offers_the_editor_in_the_all_seeing_view_and_plays_from_it():
    explorer = widgets.Explorer("war-stories", seed=1)
    explorer.perspective.value = ALL_SEEING
    assert explorer.edit_toggle.layout.display != "none"
    explorer.edit_toggle.value = True
    (editor,) = explorer.editor_box.children
    editor.choose(REMOVE)
    editor.click("a2")
    editor.play.click()
    assert explorer.edit_toggle.value is False and explorer.editor_box.children == ()
    assert explorer.state.to_text() == editor.state.to_text()
    assert "1 board card out of the game" in explorer.study_status.value
