"""Every click tells what it will do, in the game's words (issue 46 item 1), headless: a
selection lights its targets and names each (the hit layer's label and tooltip, the line under
the board, the screen reader's line); a step that continues is lit at once with a line saying
what comes next; To War!'s card just drawn lights where it may go; a pass with coins in hand
asks once; a choice appears right under the board and is announced by the piece's name.

Rulebooks: /work/shared/rules/*.txt (quoted where a rule decides what is said)."""

from __future__ import annotations

import html
import re

import rules_kernel as rk
import widgets
from rules_kernel.games.to_war.rules import Step
from rules_kernel.games.war_chest import compose
from rules_kernel.games.war_stories.rules import HEIYA, KI, Flip, square_name
from widgets import guidance
from widgets.explorer import ALL_SEEING

START_2P = "4,0:0;6,1:0;0,5:1;2,6:1"  # the 2-player map's start locations (tests/test_war_chest.py)


def words(value: str) -> str:
    """An HTML widget's text as read."""
    return html.unescape(re.sub(r"<[^>]+>", "", value))


def hit_label(ex: widgets.Explorer, cell: str) -> str:
    """The aria-label of `cell`'s shape in the board's hit layer (what hover and the cursor say)."""
    found = re.search(rf'data-cell="{re.escape(cell)}" aria-label="([^"]*)"', ex.board.widget.hit_svg)
    assert found, f"{cell} is not in the hit layer"
    return html.unescape(found.group(1))


def seated(ex: widgets.Explorer) -> widgets.Explorer:
    """The next player sits down (a game with hidden information hands the table over)."""
    if ex.curtain_for is not None:
        ex.curtain_button.click()
    return ex


def guide(ex: widgets.Explorer) -> str:
    return words(ex.clicks.guide.value)


# --- Yōkai no Mori 3x4 ----------------------------------------------------------------------------
def test_yokai_3x4_a_selection_names_each_target_on_hover_and_in_the_line_under_the_board():
    """ "Eine Figur auf ein vom Gegner besetztes Feld verschieben: Gefangennahme" — the captured
    piece goes to the captor's reserve (yokai-no-mori.de.txt): the Kodama's target says so."""
    ex = widgets.Explorer("yokai-3x4")
    ex.click("b2")
    assert ex.board.highlight["targets"] == ("b3",)
    target = "b3: move the Kodama and take the Kodama (it goes to your hand)"
    assert hit_label(ex, "b3").startswith(target)
    assert f"<title>{target}" in ex.board.widget.hit_svg  # the tooltip on hover
    assert guide(ex) == f"Kodama on b2 selected: 1 place to go. {target}."
    assert target in words(ex.announcer.value)
    ex.click("b1")
    assert "a2: move the Koropokkuru; c2: move the Koropokkuru" not in guide(ex)  # grouped: one phrase
    assert guide(ex) == "Koropokkuru on b1 selected: 2 places to go. a2, c2: move the Koropokkuru."
    assert hit_label(ex, "c2") == "c2: move the Koropokkuru"
    ex.clear_selection()  # Escape: the targets' words go with the selection
    assert ex.board.words == {} and hit_label(ex, "c2") == "c2" and guide(ex) == "Selection cleared."
    ex.click("a1")  # the Kitsune, hemmed in: the click says so instead of lighting nothing silently
    assert guide(ex) == "Selection cleared: Kitsune on a1 has no move now."
    ex.click("b4")  # the other side's piece
    assert guide(ex) == "Selection cleared: Koropokkuru on b4 is not yours (Second player)."


# --- Yōkai no Mori 5x6 ----------------------------------------------------------------------------
def test_yokai_5x6_the_promotion_choice_is_under_the_board_and_named_by_the_piece():
    """ "Eine Beförderung ist immer nur eine Kann-Beförderung" (yokai-no-mori.de.txt, 5x6): the
    Oni entering the zone may promote or not — two buttons right under the board, the
    announcement names the Oni, not "a face-down item on b5"."""
    ex = widgets.Explorer("yokai-5x6", position="2k2/5/1S3/5/5/2K2[] w - - 0 1")
    ex.click("b4")
    both = (
        "move the Oni, and promote it to Super-Oni, or move the Oni, and do not promote it (it stays an Oni)"
    )
    assert hit_label(ex, "b5") == f"b5: {both}"
    assert "a3, c3: move the Oni" in guide(ex)
    ex.click("b5")
    buttons = ex.clicks.choices.children
    assert [b.description for b in buttons] == ["Promote", "Don't promote"]
    assert [b.tooltip for b in buttons] == [
        "move the Oni, and promote it to Super-Oni",
        "move the Oni, and do not promote it (it stays an Oni)",
    ]
    said = words(ex.announcer.value)
    assert said.startswith("Oni on b4 to b5: choose “Promote” or “Don't promote”") and "face-down" not in said
    column = list(ex.board_column.children)  # the buttons directly under the board
    assert column.index(ex.clicks.under_board) == column.index(ex.board.widget) + 1
    assert ex.clicks.choices in ex.clicks.under_board.children
    buttons[0].click()
    assert str(ex.actions[-1]) == "b4b5+"


# --- War Stories --------------------------------------------------------------------------------
def test_war_stories_the_second_flip_is_lit_at_once_and_played_by_one_click():
    """ "In een beurt mag een speler 2 bordkaarten op het speelveld één voor één omdraaien" and a
    pair of the same army card gives Engun (war-stories-sengokuki.nl.txt): after the first card
    every face-down card is lit, a line says what comes next, one click turns the second over.
    The player's view names no card it has not seen."""
    ex = seated(widgets.Explorer("war-stories", seed=2))
    state = ex.session.state
    first = next(
        m for m in state.legal_moves() if isinstance(m, Flip) and state.cards[m.square] not in (HEIYA, KI)
    )
    ex.click(first.cells[0])
    seated(ex)
    assert ex.session.state.face_up == first.square and ex.session.state.current_player == 0
    lit = ex.board.highlight["targets"]
    flips = sorted(m.cells[0] for m in ex.session.state.legal_moves())
    assert sorted(lit) == flips and len(lit) > 30 and ex.board.highlight["selected"] == ()
    line = guide(ex)
    assert line.startswith("Turn over a second card (a lit card): the same army card as the ")
    assert "brings Engun, a new piece; otherwise both go face down again." in line
    assert (
        f"{lit[0]}, {lit[1]} and {len(lit) - 2} more places: turn over this card as the second of the turn"
        in line
    )
    assert line in words(ex.announcer.value)
    hidden = ex.session.state.cards[ex.session.state.legal_moves()[0].square]
    label = hit_label(ex, lit[0])
    assert label.startswith(f"{lit[0]}: turn over this card as the second of the turn")
    assert hidden not in label and "red" not in label and "blue" not in label  # no card named unseen
    second = lit[0]
    ex.click(second)  # one click: played
    assert isinstance(ex.actions[-1], Flip) and square_name(ex.actions[-1].square) == second


# --- To War! --------------------------------------------------------------------------------------
def test_to_war_the_card_drawn_lights_where_it_may_go():
    """ "decke die oberste Karte deiner Reserve auf und lege sie auf einen der drei Plätze in
    deiner unteren Reihe" (to-war.de.txt): the drawn card's squares are lit from the start, and
    a click on the card selects it, lights them and names them (it said "Selection cleared.")."""
    ex = seated(widgets.Explorer("to-war", seed=1))
    squares = tuple(sorted(m.cells[-1] for m in ex.session.state.legal_moves()))
    assert ex.board.highlight["targets"] == squares
    assert guide(ex).startswith("Set-up: place the Mamluk you drew on a lit square of your half.")
    ex.click("hand-0:MAM")
    assert ex.board.highlight["selected"] == ("hand-0:MAM",) and ex.board.highlight["targets"] == squares
    said = words(ex.announcer.value)
    assert said == "Mamluk (hand) selected: 1 place to go. b2: place Mamluk on b2." and "cleared" not in said
    assert hit_label(ex, "b2") == "b2: place Mamluk on b2"
    ex.click("b2")
    assert "MAM@b2" in [str(action) for action in ex.actions]  # (the next draw follows it)


def test_to_war_the_pushed_unit_is_lit_at_once_and_each_push_takes_one_click():
    """ "Bewege die verdrängte Einheit dann einen Schritt in eine der erlaubten Richtungen"
    (to-war.de.txt): after a card displaces a unit, that unit is selected and its steps lit with
    no click, a line says what to do, and one click on a lit square pushes it."""
    ex = seated(widgets.Explorer("to-war", seed=1))
    for _ in range(40):  # play the lit squares until a card displaces a unit
        if "displaced" in guide(ex):
            break
        ex.click(ex.board.highlight["targets"][-1])
        seated(ex)
    line = guide(ex)
    state = ex.session.state
    active = square_name(state.active)
    pushed, pusher = (
        state.game.units[state.grid[state.active][1]].name,
        state.game.units[state.entering[1]].name,
    )
    assert line.startswith(
        f"The {pusher} displaced the {pushed} on {active}: push it one step on (a lit square)."
    )
    steps = {m.cells[1] for m in state.legal_moves()}
    assert ex.board.highlight["selected"] == (active,) and set(ex.board.highlight["targets"]) == steps
    target = sorted(steps)[0]
    assert hit_label(ex, target).startswith(f"{target}: push {pushed} from {active} to {target}")
    before = len(ex.actions)
    ex.click(target)  # one click pushes
    assert len(ex.actions) == before + 1 and isinstance(ex.actions[-1], Step)


# --- War Chest ------------------------------------------------------------------------------------
def test_war_chest_a_coin_names_each_target_and_a_pass_with_coins_in_hand_asks_once():
    """ "Plaatsingsactie", "Werving" (recruit) and "Passeren: Gooi de munt om en pas een beurt"
    (war-chest.nl.txt): each target of a coin says which action it is; a pass with coins still
    in hand asks first; Escape (or Cancel) keeps the coin, the button passes."""
    ex = seated(widgets.Explorer("war-chest", seed=3))
    ex.click("hand-0:cavalry")
    assert hit_label(ex, "4,0").startswith("e1: deploy a Cavalry")
    assert hit_label(ex, "supply-0:lancer").startswith("supply: recruit a Lancer")
    passing = "discard pile: pass (the coin goes face down: nothing else this turn)"
    assert hit_label(ex, "discard-0:face-down").startswith(passing)
    line = guide(ex)
    assert line.startswith("Cavalry (hand) selected: 7 places to go. e1, g2: deploy a Cavalry; ")
    assert passing in line and "supply: recruit a Light Cavalry" in line and "light-cavalry" not in line
    before = ex.session.ply
    ex.click("discard-0:face-down")
    assert ex.session.ply == before  # asked, not played
    question = (
        "Pass with a Cavalry coin? It goes face down on your discard pile and you do nothing with it "
        "this turn; you keep 2 coins in your hand."
    )
    assert guide(ex).startswith(question) and question in words(ex.announcer.value)
    assert [b.description for b in ex.clicks.choices.children] == ["Pass", "Cancel"]
    ex.clear_selection()  # Escape
    assert ex.session.ply == before and ex.clicks.choices.children == () and ex.clicks.asking is None
    ex.click("hand-0:cavalry")
    ex.click("discard-0:face-down")
    ex.clicks.choices.children[0].click()
    assert ex.session.ply > before and str(ex.actions[before]) == "pass cavalry"
    # the hand-over: nothing under the board tells the next player which coin was passed with
    assert ex.curtain_for == 1 and guide(ex) == "" and ex.clicks.choices.children == ()
    assert "Cavalry" not in words(ex.announcer.value)


def test_war_chest_a_follow_up_is_lit_at_once_with_done_beside_it():
    """The Berserker's card: after it maneuvers it may maneuver again, paying with a coin of its
    stack (rules/NOTES.md, War Chest's units): after its move the Berserker is selected, its
    maneuvers lit with no click, Done offered under the board, and a line says so."""
    game = rk.load_game("war-chest", players=2)
    armies = "berserker,pikeman,marshall,ensign/archer,cavalry,lancer,scout"
    start = compose(
        game, "3,3:0:berserker:3;3,5:1:scout:3", ("berserker", "archer"), control=START_2P, armies=armies
    )
    ex = widgets.Explorer(game, position=start.to_text())
    ex.perspective.value = ALL_SEEING
    ex.click("hand-0:berserker")
    ex.click("3,3")
    ex.click("3,4")  # the Berserker moves d4-d5: its repeat is pending
    state = ex.session.state
    assert state.pending == (("berserk", 0, (3, 4)),)
    line = guide(ex)
    assert line.startswith(
        "The Berserker may maneuver again, paying with a coin of its stack (a lit hex), or click Done."
    )
    going_on = [m for m in state.legal_moves() if len(m.cells) > 1]
    assert ex.board.highlight["selected"] == ("3,4",)
    assert set(ex.board.highlight["targets"]) == {m.cells[1] for m in going_on}
    assert "d6: attack the Scout on d6 with the Berserker on d5" in line
    buttons = {b.description: b.tooltip for b in ex.clicks.choices.children}  # the one-click moves
    assert buttons == {
        "Control": "take control of d5 with the Berserker",
        "Done": "done: the Berserker does not maneuver again",
    }
    ex.click("3,5")  # one click: the repeat attack
    assert str(ex.actions[-1]) == "attack 3,4 3,5"


def test_the_words_come_from_the_game_and_fall_back_to_the_move_list():
    """A game whose package declares no word functions is named by its move list's words
    (the game's words part, `parts.action_text`); each of the five games declares its own."""
    for game in ("yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"):
        assert guidance.game_words(rk.load_game(game).initial_state()).target is not None

    class PlainWords:  # the game's words part (the move list's words)
        def action_text(self, state, move, viewer):
            return f"plays {move}"

    class PlainGame(rk.Game):
        id, HIDDEN_INFORMATION, CHANCE, MEMORY = "plain", False, False, False
        PARTS = {"words": PlainWords()}

    class Plain:  # a state of a package with no `words` or `hints` module
        game = PlainGame()

        def _action_of(self, move):
            return move

    Plain.__module__ = "json.state"
    assert guidance.game_words(Plain()) == guidance.GameWords()
    assert guidance.move_words(Plain(), "x1", None) == "plays x1"
