"""The explorer's parts (widgets/explorer/*.py, issue 45 item 7), each driven on its own
without a browser and without an `Explorer`: a session, the part, what it shows and does."""

from __future__ import annotations

import html

import ipywidgets as w
import pytest

import rules_kernel as rk
import widgets
from rules_kernel import parts as game_parts
from rules_kernel import records
from rules_kernel.session import Session
from rules_kernel.tablebase import MoveValue, Value
from widgets import runtime
from widgets.board import Board
from widgets.controller import ClickController
from widgets.editor import PositionEditor
from widgets.explorer import building
from widgets.explorer import export as export_module
from widgets.explorer.clicks import Clicks
from widgets.explorer.common import AGENTS, ALL_SEEING, FOLLOW_TURN, PERFECT_AGENT, Page
from widgets.explorer.curtain import BEHIND_CURTAIN, HandOver
from widgets.explorer.editor_part import EditorPart
from widgets.explorer.explorer import ANSWERED
from widgets.explorer.export import ExportPart
from widgets.explorer.game_options import GameOptions
from widgets.explorer.history import History
from widgets.explorer.links_part import LinksPart
from widgets.explorer.perfect_play import PerfectPlay
from widgets.explorer.position import PositionPart
from widgets.explorer.seats import Seats
from widgets.looks import Looks
from widgets.presentation import present


class Calls:
    """A callback that counts its calls (the explorer's redraw, refresh, ...)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *args) -> None:
        self.count += 1


@pytest.fixture
def page() -> Page:
    return Page(Looks(), w.HTML())


def seated(part, game: rk.Game, session: Session):
    """`part` given the game and the session, as the explorer gives them on a new game."""
    part.game, part.session = game, session
    return part


def perspective(views, value) -> w.Dropdown:
    return w.Dropdown(options=views, value=value)


# --- the hand-over (curtain.py) -----------------------------------------------------------------
def test_the_hand_over_hides_the_board_between_two_people_and_only_its_button_lifts_it(page):
    game = rk.load_game("war-chest", players=2)
    session = Session(game.initial_state(), seed=3, agents={})
    views = [("turn", FOLLOW_TURN), ("A", 0), ("B", 1), ("all", ALL_SEEING)]
    refresh = Calls()
    hand_over = seated(
        HandOver(page, Board(), perspective(views, FOLLOW_TURN), lambda: [], redraw=Calls(), refresh=refresh),
        game,
        session,
    )
    mover = session.state.current_player
    assert hand_over.viewer == mover and hand_over.follows_turn
    hand_over.shown_viewer = mover  # the page has shown the mover's view
    session.play(session.state.legal_moves()[0])  # their turn ends: the other seat's
    other = session.state.current_player
    assert other != mover
    hand_over.maybe_curtain()
    assert hand_over.curtain_for == other and page.curtain_down()

    side = w.VBox([w.Button(description="Undo")])
    hand_over.covered = [side]
    root = w.VBox([side, hand_over.curtain, hand_over.board.widget])
    hand_over.show(True)
    name = game.player_names[other]
    assert hand_over.curtain.layout.display == "flex" and hand_over.board.widget.layout.display == "none"
    assert hand_over.curtain_button.description == f"Show {name}'s view"
    forgotten = Calls()
    hand_over.cover(root, forgotten)
    undo = side.children[0]
    assert forgotten.count == 1 and BEHIND_CURTAIN in side._dom_classes
    assert undo.disabled and not hand_over.curtain_button.disabled
    pressed = Calls()
    page.acts(pressed)(None)  # a control's handler behind the curtain: dropped
    assert pressed.count == 0

    hand_over.curtain_button.click()  # the next player sits down
    assert hand_over.curtain_for is None and refresh.count == 1
    hand_over.uncover()
    assert not undo.disabled and BEHIND_CURTAIN not in side._dom_classes
    page.acts(pressed)(None)
    assert pressed.count == 1
    assert hand_over.viewer == other


def test_the_hand_over_s_viewer_is_the_menu_s_seat_or_nobody_all_seeing(page):
    game = rk.load_game("war-chest", players=2)
    session = Session(game.initial_state(), seed=3, agents={})
    menu = perspective([("A", 0), ("B", 1), ("all", ALL_SEEING)], 1)
    hand_over = HandOver(page, Board(), menu, lambda: [], redraw=Calls(), refresh=Calls())
    seated(hand_over, game, session)
    assert hand_over.viewer == 1 and not hand_over.follows_turn
    hand_over.maybe_curtain()
    assert hand_over.curtain_for is None
    menu.value = ALL_SEEING
    assert hand_over.viewer is None


# --- the history (history.py) -------------------------------------------------------------------
def eyes_of(page: Page, game: rk.Game, session: Session, view) -> HandOver:
    """A hand-over part whose menu offers every view of two seats, at `view`."""
    menu = perspective([("turn", FOLLOW_TURN), ("A", 0), ("B", 1), ("all", ALL_SEEING)], view)
    return seated(HandOver(page, Board(), menu, lambda: [], redraw=Calls(), refresh=Calls()), game, session)


def history_of(page: Page, game: rk.Game, session: Session, view) -> History:
    eyes = eyes_of(page, game, session, view)
    return seated(History(page, eyes, redraw=Calls(), refresh=Calls()), game, session)


def test_the_history_looks_back_without_undoing_and_steps_along_the_line(page):
    game = rk.load_game("yokai-3x4")
    session = Session(game.initial_state())
    history = history_of(page, game, session, ALL_SEEING)
    for move in ("b2b3", "c4b3", "b1c2"):
        session.play(move)
    history.look_at(1)
    assert session.ply == 1 and len(session.line()) == 4 and not history.at_the_end
    history.show(present(session, None), curtain=False)
    assert history.move_list.current == 1 and len(history.move_list.options) == 3
    assert history.looking_back.layout.display == "flex"
    assert "Showing the position after turn 1 of 3 (First player&#x27;s)." in history.looking_back_text.value
    assert not history.undo_button.disabled and not history.redo_button.disabled
    history.history_key("End")
    assert history.at_the_end and session.ply == 3
    history.undo()
    history.show(present(session, None), curtain=False)
    assert session.ply == 2 and not history.redo_button.disabled  # Undo keeps the line: Redo walks it
    assert history.undo_button.tooltip == "Take back the last move"
    history.back_to_the_game()
    history.show(present(session, None), curtain=False)
    assert session.ply == 3 and history.looking_back.layout.display == "none"
    history.reset()
    history.show(present(session, None), curtain=True)  # behind the curtain: nothing to step
    assert session.ply == 0 and history.undo_button.disabled and history.redo_button.disabled
    assert history.move_list.options == ()


def test_in_the_view_of_the_player_to_move_undo_takes_back_only_your_own_turn(page):
    game = rk.load_game("war-chest", players=2)
    session = Session(game.initial_state(), seed=3, agents={})
    history = history_of(page, game, session, FOLLOW_TURN)
    mover = session.state.current_player
    session.play(session.state.legal_moves()[0])
    assert session.state.current_player != mover and history.undo_target() is None
    history.show_steps(curtain=False)
    why = f"the last turn was {game.player_names[mover]}'s, and it stays hidden from you"
    assert history.undo_button.disabled and why in history.undo_button.tooltip
    ply = session.ply
    history.undo()
    assert session.ply == ply and why in html.unescape(page.message.value)  # nothing taken back: said why


# --- perfect play and analysis (perfect_play.py) ------------------------------------------------
class WinningTable:
    """A stand-in for the solved table (tests/test_widgets.py plays on a real one): every
    position a win in 3 plies for the mover, each move rated in turn win 1, draw, loss 2."""

    def value(self, state):
        return Value("win", 3)

    def best_moves(self, state):
        rates = [Value("win", 1), Value("draw", None), Value("loss", 2)]
        return [MoveValue(move, rates[i % 3]) for i, move in enumerate(state.legal_moves())]


def test_perfect_play_is_offered_when_the_table_is_ready_and_marks_each_target(page, monkeypatch):
    game = rk.load_game("yokai-3x4")
    session = Session(game.initial_state())
    availability = {"now": "preparing"}
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: availability["now"])
    monkeypatch.setattr(runtime, "THREADS", False)  # the next call asks again, as in a browser
    agents = w.Dropdown(options=AGENTS, value="greedy")
    controller = ClickController(session.state)
    eyes = eyes_of(page, game, session, ALL_SEEING)
    refresh = Calls()
    part = PerfectPlay(page, eyes, Board(), agents, lambda: controller, compact=True, refresh=refresh)
    seated(part, game, session)
    part.show_switch()
    assert part.perfect.disabled and part.perfect.description == "Perfect play: being prepared"
    assert PERFECT_AGENT not in agents.options
    availability["now"] = "ready"
    part.show_switch()
    assert not part.perfect.disabled and part.perfect.description == "Perfect play (solved table)"
    assert PERFECT_AGENT in agents.options and agents.value == "greedy"  # the choice kept

    part.tablebase = WinningTable()
    part.perfect.value = True
    assert refresh.count == 1 and part.on
    assert (
        part.status() == f" — perfect play: {game.player_names[session.state.current_player]} wins in 3 plies"
    )
    controller.click("b2")  # the Tanuki: its targets marked by the table's values
    rated = {str(mv.move): mv.value for mv in WinningTable().best_moves(session.state)}
    marks = part.marks()
    tanuki = [m for m in controller.candidates() if len(m.cells) == 2]
    assert tanuki and set(marks) == {m.cells[1] for m in tanuki}
    for move in tanuki:
        value = rated[str(move)]
        letter = value.result[0].upper()
        assert marks[move.cells[1]][1] == (letter if value.plies is None else f"{letter} {value.plies}")
    part.perfect.value = False  # the analysis' marks (none: it is not running)
    assert part.marks() == {} and part.status() == ""


# --- the board's clicks (clicks.py) ------------------------------------------------------------
def test_two_clicks_play_a_move_and_a_selection_is_said_for_a_screen_reader(page):
    game = rk.load_game("yokai-3x4")
    session = Session(game.initial_state())
    eyes = eyes_of(page, game, session, ALL_SEEING)
    values = PerfectPlay(page, eyes, Board(), w.Dropdown(options=AGENTS), lambda: None, refresh=Calls())
    played, board = [], Board()
    view = present(session, None)
    clicks = Clicks(page, eyes, board, values, play=played.append, shown=lambda: view, refresh=Calls())
    seated(clicks, game, session)
    clicks.start(view)
    clicks.show(view)
    assert board.scene is view.scene
    clicks.click("b2")  # the Tanuki: selected, its targets lit
    targets = {m.cells[1] for m in session.state.legal_moves() if m.cells[0] == "b2"}
    assert board.highlight["selected"] == ("b2",) and set(board.highlight["targets"]) == targets
    assert f"selected: {len(targets)} place" in clicks.announcer.value
    clicks.click("b3")
    assert [str(move) for move in played] == ["b2b3"]
    clicks.click("b1")
    clicks.clear_selection()
    assert board.highlight["selected"] == () and "Selection cleared." in clicks.announcer.value
    eyes.curtain_for = 1  # behind the curtain a click does nothing
    clicks.click("b2")
    assert clicks.controller.prefix == ()


# --- the table's menus (seats.py) ---------------------------------------------------------------
def test_the_seats_offer_the_views_of_the_game_and_an_agent_takes_a_seat_at_once(page):
    seats = Seats(page, play=Calls())
    chest = rk.load_game("war-chest", players=2)
    seats.set_views(chest, secrets=True)
    views = [value for _, value in seats.perspective.options]
    assert views == [FOLLOW_TURN, 0, 1, ALL_SEEING] and seats.perspective.value == FOLLOW_TURN
    game = rk.load_game("yokai-3x4")
    seats.set_views(game, secrets=False)
    assert seats.perspective.value == ALL_SEEING and len(seats.perspective.options) == 3
    session = Session(game.initial_state(), seed=1)
    seated(seats, game, session)
    seats.set_agents(game)
    assert [switch.description for switch in seats.agent_plays] == list(game.player_names)
    seats.agent_plays[0].value = True  # the first player's seat, whose turn it is: the agent plays
    assert seats.agent_seats == [0] and session.ply == 1 and session.state.current_player == 1
    seats.show_players(present(session, None), curtain=False)
    assert "(agent)" in seats.players.value and "◀ to move" in seats.players.value
    seats.set_agents(game)  # a new game of the same: the agent keeps its seat
    assert seats.agent_seats == [0]


# --- the position box (position.py) -------------------------------------------------------------
def test_a_position_text_is_loaded_or_refused_in_words_with_an_offer_of_its_game(page):
    game = rk.load_game("yokai-3x4")
    session = Session(game.initial_state())
    started, switched = [], []
    tools = w.ToggleButton(value=False)
    positions = PositionPart(page, tools, start=started.append, switch_game=switched.append)
    seated(positions, game, session)
    positions.set_position("  ")
    assert "Paste a position text" in positions.position_note.value and tools.value
    war_chest = rk.load_game("war-chest", players=2).initial_state().to_text()
    positions.set_position(war_chest)
    assert not started and f"This is not a {game.title} position" in positions.position_note.value
    (offer,) = positions.position_switch.children
    assert "Switch to War Chest" in offer.description
    study = "1l1/1C1/3/1L1[] w - - 0 1"
    positions.set_position(study)
    assert [state.to_text() for state in started] == [game.from_text(study).to_text()]
    assert positions.position_note.value == "" and positions.position_switch.children == ()
    session = Session(started[0])
    seated(positions, game, session)
    positions.show(present(session, None), curtain=False)
    assert "Study position:" in positions.study_status.value
    assert positions.position_text.value == session.state.to_text()
    positions.show(present(session, None), curtain=True)
    assert positions.study_status.value == "" and positions.position_text.value == ""


# --- the editor (editor_part.py) ----------------------------------------------------------------
def test_the_editor_opens_on_the_position_shown_but_never_in_a_player_s_view_of_secrets(page):
    game = rk.load_game("war-chest", players=2)
    session = Session(game.initial_state(), seed=3)
    eyes = eyes_of(page, game, session, 0)
    analysis = w.ToggleButton(value=False)
    loaded = []
    editor = seated(EditorPart(page, eyes, analysis, set_position=loaded.append), game, session)
    editor.edit_toggle.value = True  # in the first seat's view: it would show every coin
    assert not editor.edit_toggle.value and editor.editor_box.children == ()
    assert "open it in the all-seeing view" in page.message.value
    eyes.perspective.value = ALL_SEEING
    editor.edit_toggle.value = True
    (opened,) = editor.editor_box.children
    assert isinstance(opened, PositionEditor) and editor.editor_box.layout.display != "none"
    editor.analyse_edited(session.state)  # "Analyse": the position played from, the analysis on
    assert loaded == [session.state] and analysis.value and not editor.edit_toggle.value
    assert editor.editor_box.children == ()


# --- the record and the picture (export.py) -----------------------------------------------------
def test_the_record_is_offered_in_the_all_seeing_view_and_kept_from_a_player_s_view(page):
    game = rk.load_game("war-chest", players=2)
    session = Session(game.initial_state(), seed=3)
    session.play(session.state.legal_moves()[0])
    eyes = eyes_of(page, game, session, ALL_SEEING)
    exporter = seated(ExportPart(page, eyes, lambda: present(session, eyes.viewer)), game, session)
    line = exporter.export()
    (record,) = records.read(text=line)
    assert [a.notation for a in record.actions] == [node.notation for node in session.node.path()[1:]]
    assert f"Download the game as a record ({session.ply} actions)" in exporter.export_area.value
    assert session.ply > 1  # a move and the draws before it
    assert 'download="war-chest.jsonl"' in exporter.export_area.value  # the file's name
    eyes.perspective.value = 0  # a player's view: the record names every coin in the bags
    assert exporter.export() == "" and "names every hidden card" in exporter.export_area.value
    states, viewer, name = exporter.picture_source()
    assert viewer == 0 and len(states) == session.ply + 1 and name == f"war-chest-ply-{session.ply}"
    eyes.curtain_for = 1
    assert "hidden for the hand-over" in exporter.picture_source()


# --- links (links_part.py) ----------------------------------------------------------------------
def test_a_link_written_by_one_page_opens_the_same_line_on_another(page):
    game = rk.load_game("yokai-3x4")
    session = Session(game.initial_state())
    for move in ("b2b3", "c4b3", "b1c2"):
        session.play(move)
    session.go_to(2)
    sender = LinksPart(
        page,
        eyes_of(page, game, session, ALL_SEEING),
        open_game=Calls(),
        start=Calls(),
        seed=None,
        agents=dict,
        manual_chance=w.Checkbox(value=False),
    )
    seated(sender, game, session)
    query = sender.query()

    other = Page(Looks(), w.HTML())
    opened, started = [], []
    eyes = eyes_of(other, game, Session(game.initial_state()), 0)
    receiver = LinksPart(
        other,
        eyes,
        open_game=lambda game_id, options: opened.append((game_id, options)),
        start=lambda state, line: started.append((state, line)),
        seed=None,
        agents=dict,
        manual_chance=w.Checkbox(value=False),
    )
    receiver.open_link(query)
    assert opened == [("yokai-3x4", {})] and eyes.perspective.value == ALL_SEEING
    ((start, line),) = started
    assert start.to_text() == game.initial_state().to_text() and line.ply == 2
    assert [n.notation for n in line.line()] == [n.notation for n in session.line()]
    assert "Opened from the link." in other.message.value
    receiver.address._message(None, {"event": "address", "search": "?game=nonsense"}, [])
    assert opened == [("yokai-3x4", {})]  # refused whole: nothing opened
    assert "This link cannot be opened" in other.message.value


# --- the game's options (game_options.py) -------------------------------------------------------
def test_the_options_form_is_made_when_first_opened_and_a_new_game_reads_it(page):
    select = w.Dropdown(options=[("War Chest", "war-chest"), ("Yokai", "yokai-3x4")], value="war-chest")
    options = GameOptions(page, select)
    options.set("war-chest", {"players": 4})
    assert options._form is None and options.values()["players"] == 4  # read without the form
    assert options.options_form_box.layout.display == "none"
    options.options_toggle.value = True
    assert options._form is not None and options.options_form_box.children == (options.form.widget,)
    assert options.options_toggle.description == "Options of War Chest ▾"
    assert options.values()["players"] == 4 and "players" in options.option_widgets
    made = options.form.widget
    select.value = "yokai-3x4"
    options.set("yokai-3x4", {})  # another game: a form of its own, the last one closed
    assert options.form.widget is not made and made.comm is None
    assert options.options_form_box.children == (options.form.widget,) and "players" not in options.values()


def test_choosing_a_game_sets_its_menu_quietly_and_its_options(page):
    """A game the page opens (a link's, a position's) is set in the Game menu without the
    menu's observer starting another game, with the options its new game starts with."""
    select = w.Dropdown(options=[("Yokai", "yokai-3x4"), ("War Chest", "war-chest")], value="yokai-3x4")
    heard = []
    select.observe(page.acts(lambda ch: heard.append((ch["new"], bool(page.quiet)))), names="value")
    options = GameOptions(page, select)
    options.choose("war-chest", {"players": 4})
    assert select.value == "war-chest" and heard == [("war-chest", True)] and not page.quiet
    assert options.values()["players"] == 4


# --- the page (building.py) ---------------------------------------------------------------------
def test_the_folded_tools_are_built_on_first_opening_and_the_board_keeps_its_zoom():
    toggle, box, built = w.ToggleButton(value=False), w.VBox(layout=w.Layout(display="none")), Calls()
    toggle.observe(lambda _: building.show_folded_tools(toggle, box, built), names="value")
    toggle.value = True
    assert built.count == 1 and box.layout.display != "none" and toggle.description.endswith("▾")
    toggle.value = False
    assert built.count == 1 and box.layout.display == "none" and toggle.description.endswith("▸")
    board, column = Board(), w.VBox(layout=w.Layout())
    board.show(rk.load_game("yokai-3x4").initial_state().scene())
    zoom = building.fit_board(board, column, None, compact=False)
    assert zoom == building.board_zoom(board.natural_width, board.natural_height) > 1
    assert board.widget.zoom == zoom and column.layout.max_width == f"{board.natural_width * zoom:.0f}px"
    assert building.fit_board(board, column, 1.25, compact=False) == 1.25  # set once per game
    assert building.fit_board(board, column, None, compact=True) == 1.0  # a live diagram


# --- the explorer over its parts (explorer.py) --------------------------------------------------
def test_every_name_the_explorer_answers_for_is_read_and_set_on_its_part():
    ex = widgets.Explorer("war-chest", players=2)
    for part, names in ANSWERED.items():
        for name, _, attribute in (answered.partition("=") for answered in names.split()):
            assert getattr(ex, name) == getattr(getattr(ex, part), attribute or name), name
    table = WinningTable()
    ex.tablebase = table
    assert ex.perfect_play.tablebase is table
    parts = [getattr(ex, part) for part in ANSWERED]
    assert all(part.session is ex.session and part.game is ex.game for part in parts)
    ex.new_game()
    assert all(part.session is ex.session and part.game is ex.game for part in parts)


def test_the_record_s_link_counts_its_actions_in_words():
    assert [export_module._actions(n) for n in (1, 2, 1200)] == ["1 action", "2 actions", "1,200 actions"]


# --- the board's look (board_look.py) -----------------------------------------------------------
def test_the_board_s_look_turns_square_boards_and_names_hexes():
    from playing import random_game

    from widgets.explorer.board_look import BoardLook

    refreshed = []
    look = BoardLook(lambda f: f, lambda: refreshed.append(1))
    yokai = rk.load_game("yokai-3x4").initial_state()
    assert look.flip(yokai.scene(1)) is True  # the second seat's view: from its own side
    look.turn_board.value = True
    assert refreshed == [1] and look.flip(yokai.scene(1)) is False and look.flip(yokai.scene(0)) is True
    assert look.cell_names(yokai.scene()) == {} and look.hex_names.layout.display == "none"
    chest = rk.load_game("war-chest").initial_state()
    assert look.flip(chest.scene()) is None and look.turn_board.layout.display == "none"
    assert look.cell_names(chest.scene()) == {}  # off: the map's own names only
    look.hex_names.value = True
    assert refreshed == [1, 1]
    assert look.cell_names(chest.scene()) == {}  # no coin on the map yet: each hex shows its name
    states, _ = random_game("war-chest", 1, cap=60)
    named = [look.cell_names(state.scene()) for state in states]
    assert any(named) and all(label for names in named for label in names.values())
