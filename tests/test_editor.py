"""The board editor (issue #24 item 2), for the games whose states have `edit` hooks (the
Yōkai games): the kernel's edits checked as a position text is, and the editor widget and
its place in the explorer. What a box holds is the rulebook's: 3x4 "2 Kodama, 2 Kitsune, 2
Tanuki, 2 Koropokkuru" per box (Spielmaterial); more is refused naming the field."""

from __future__ import annotations

import re

import ipywidgets as widgets_module
import pytest

import rules_kernel as rk
import widgets
from widgets.editor import REMOVE, PositionEditor
from widgets.explorer import ALL_SEEING

START_3X4 = rk.load_game("yokai-3x4").initial_state()


def test_edits_place_remove_fill_hands_and_set_the_side_to_move():
    state = START_3X4.edit(place={"b2": None}, hands={(0, "C"): 1}, to_move=1)
    assert state.to_text() == "gle/1c1/3/ELG[C] b - - 0 1"  # as if the Kodama had been taken
    assert state.status() == []
    moved = START_3X4.edit(place={"b2": None, "a2": "C"})
    assert moved.to_text() == "gle/1c1/C2/ELG[] w - - 0 1"
    assert state.edit_hands()[(0, "C")] == 1 and state.current_player == 1
    assert state.legal_moves()  # a position to play from
    again = rk.load_game("yokai-3x4").from_text(state.to_text())
    assert again == state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"place": {"a2": "E"}}, "board and hands"),  # a third Kitsune: the box has two
        ({"hands": {(0, "L"): 1}}, "board and hands"),  # a third Koropokkuru
        ({"place": {"z9": "C"}}, "board"),
        ({"place": {"a2": "Q"}}, "board"),
        ({"hands": {(0, "C"): -1}}, "hand"),
        ({"to_move": 2}, "side to move"),
    ],
)
def test_an_edit_beyond_the_box_or_the_board_is_refused_naming_the_field(change, field):
    with pytest.raises(rk.PositionTextError) as caught:
        START_3X4.edit(**change)
    assert caught.value.field == field


def test_the_5x6_editor_offers_every_piece_and_promoted_ones_only_on_the_board():
    state = rk.load_game("yokai-5x6").initial_state()
    pieces = state.edit_pieces()
    assert {p.name for p in pieces} == {
        "Kodama",
        "Kirin",
        "Oni",
        "Koropokkuru",
        "Kodama Samurai",
        "Super-Oni",
    }
    assert {p.name for p in pieces if p.in_hand} == {"Kodama", "Kirin", "Oni"}
    edited = state.edit(place={"a1": None, "c4": "+S"})  # an Oni leaves a1, a Super-Oni takes c4
    assert edited.to_text().startswith("sgkgs/5/1p+Sp1/1PPP1/5/1GKGS[]")


def test_the_editor_widget_builds_a_study_and_refuses_without_half_applying():
    played = []
    editor = PositionEditor(START_3X4, played.append)
    editor.choose(REMOVE)
    editor.click("b2")
    editor.click("b3")
    assert "2 pieces out of the game" in editor.status.value
    before = editor.state
    editor.choose("L")
    editor.click("a2")  # a third Koropokkuru
    assert editor.state == before and "Koropokkuru" in editor.status.value
    assert 'role="alert"' in editor.status.value
    editor.counters[(0, "C")].value = 1
    assert editor.state.edit_hands()[(0, "C")] == 1 and editor.text.value == editor.state.to_text()
    editor.counters[(0, "C")].value = 3  # the box has two Kodama
    assert editor.counters[(0, "C")].value == 1 and editor.state.edit_hands()[(0, "C")] == 1
    editor.load_text("not a position")
    assert 'role="alert"' in editor.status.value and editor.state.edit_hands()[(0, "C")] == 1
    editor.play.click()
    assert played == [editor.state]


def test_the_explorer_plays_and_analyses_from_the_edited_position():
    explorer = widgets.Explorer("yokai-5x6")
    explorer.edit_toggle.value = True
    (editor,) = explorer.editor_box.children
    editor.choose(REMOVE)
    editor.click("c3")
    editor.play.click()
    assert explorer.edit_toggle.value is False and explorer.editor_box.children == ()
    assert explorer.state.to_text() == editor.state.to_text()
    assert "1 piece out of the game" in explorer.study_status.value
    explorer.edit_toggle.value = True
    explorer.editor_box.children[0].analyse.click()
    assert explorer.analysis.switch.value is True
    explorer.analysis.switch.value = False


def test_no_editor_where_the_game_has_none_or_the_view_hides_cards():
    cards = widgets.Explorer("war-stories", seed=1)  # a player's view: the editor would show every card
    cards.edit_toggle.value = True
    assert cards.edit_toggle.value is False and cards.editor_box.children == ()
    yokai = widgets.Explorer("yokai-3x4")
    yokai.perspective.value = 0  # a player's view of a perfect-information game shows everything
    yokai.edit_toggle.value = True
    assert yokai.editor_box.children
    assert ALL_SEEING in [v for _, v in yokai.perspective.options]


def test_the_side_to_move_is_the_drawing_player_and_many_counters_fold_by_owner():
    """To War! starts with the first player's draw (a chance event for seat 0, "Spielablauf":
    draw a card, then lay it): the editor's To move names that player, not a stale seat; its
    27 counters (each card kind in reserve, hand and discards) fold by owner, closed."""
    start = rk.load_game("to-war").initial_state()
    assert start.current_player == rk.CHANCE and start.edit_to_move() == 0
    editor = PositionEditor(start, lambda _: None)
    assert editor.to_move.value == 0
    assert isinstance(editor.counted, widgets_module.Accordion) and editor.counted.selected_index is None
    assert editor.counted.titles == ("Südliche Armee: counted pieces", "Nordische Armee: counted pieces")
    few = PositionEditor(START_3X4, lambda _: None)
    assert not isinstance(few.counted, widgets_module.Accordion)  # six hand counters stay in a row


def test_a_refusal_is_a_sentence_about_the_position_without_its_text():
    """Issue 46: the refusal once read "yokai-3x4 position 'gle/1c1/1C1/ELL[] w - - 0 1': board:
    First player has 2 Koropokkuru"; a player is told what is wrong, not the text format."""
    editor = PositionEditor(START_3X4, lambda state: None)
    editor.choose("L")
    editor.click("a2")  # a second Koropokkuru of the first player
    shown = re.sub("<[^>]+>", "", editor.status.value)  # the words on the page
    assert "This position cannot be set up: " in shown and "Koropokkuru" in shown
    assert "yokai-3x4" not in shown and "/" not in shown and "[" not in shown
    editor.load_text("gle/1c1/1C1/ELL[] w - - 0 1")  # the same, typed
    assert "cannot be set up" in editor.status.value and "gle/" not in editor.status.value


def test_a_war_chest_refusal_names_the_side_and_the_unit():
    """Not "player 0 has 6 archer coins": the side and the unit as the board names them."""
    from rules_kernel.games.war_chest.text import compose
    from widgets.editor import refusal_words

    game = rk.load_game("war-chest")
    with pytest.raises(rk.PositionTextError) as info:
        compose(game, "3,3:0:swordsman:4", ("swordsman",), bags=("swordsman,royal", "royal"))
    words = refusal_words(info.value, game)
    assert words == "This position cannot be set up: Side A has 6 Swordsman coins; the box holds 5"
