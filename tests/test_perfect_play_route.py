"""Perfect play goes through the analysis protocol's table engine (issue 45, item 7): one route
to a move's value. The explorer's switch, status line, target marks and the perfect agent's
offer come from `rules_kernel.analysis`: `table.availability(game)` for readiness and
`get_engine(game, "table")` (one object per game, the analysis panel's) for the values; no
widget opens the solved table itself."""

from __future__ import annotations

import inspect
import threading
from pathlib import Path

import pytest

import widgets
from rules_kernel import analysis
from rules_kernel import parts as game_parts
from rules_kernel.analysis import table
from rules_kernel.tablebase import MoveValue, Value

WIDGETS = Path(__file__).resolve().parent.parent / "widgets"
RATES = [Value("win", 1), Value("draw", None), Value("loss", 2)]


def click(explorer: widgets.Explorer, cell: str) -> None:
    """Click a cell the way the browser does: a mouse-down at its centre on the canvas."""
    x, y = explorer.board.layout.center_of(cell)
    assert explorer.board.click_at(x, y) == cell


class StandInTable:
    """A solved table's questions answered without the 1.7 GB file: every position a loss in
    12 plies for the mover; the legal moves rated in turn win 1, draw, loss 2."""

    def value(self, state):
        return Value("loss", 12)

    def best_moves(self, state):
        return [MoveValue(move, RATES[i % 3]) for i, move in enumerate(state.legal_moves())]


class FakeTableEngine:
    """An engine that answers the table engine's quick questions with values no table holds
    (a draw everywhere, every move a win in 7), counting what it is asked."""

    name = "table"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def value(self, state):
        self.asked.append("value")
        return Value("draw", None)

    def move_values(self, state):
        self.asked.append("move_values")
        return [MoveValue(move, Value("win", 7)) for move in state.legal_moves()]

    def close(self) -> None:
        """Nothing held."""


@pytest.fixture
def engines():
    """No engine kept from another test, and none left for the next (a stand-in table engine
    kept by get_engine would answer a later test's real analysis)."""
    analysis.close_engines()
    yield
    analysis.close_engines()


@pytest.fixture
def ready(monkeypatch):
    """The solved table ready, as the game itself answers (rules_kernel.tablebase.availability)."""
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: "ready")


@pytest.fixture
def opened(monkeypatch, ready):
    """The game's table opener (`rules_kernel.parts.open_solved_table`, what `get_engine(game, "table")`
    calls) giving a StandInTable, recording the module of each caller."""
    callers: list[str] = []

    def open_stand_in(self):
        callers.append(inspect.stack()[1].frame.f_globals["__name__"])
        return StandInTable()

    monkeypatch.setattr(game_parts, "open_solved_table", open_stand_in)
    return callers


def test_the_switch_shows_what_the_protocols_table_engine_says(engines, ready, monkeypatch):
    """A fake table engine put where the protocol gives engines (`get_engine`) changes what the
    explorer shows: its status line and its targets' marks; the game's own table is never
    opened by the page."""
    fake = FakeTableEngine()
    given = analysis.get_engine
    monkeypatch.setattr(
        analysis, "get_engine", lambda game, name=None: fake if name == "table" else given(game, name)
    )

    def no_table(self):
        raise AssertionError("the page opened the solved table itself")

    monkeypatch.setattr(game_parts, "open_solved_table", no_table)
    ex = widgets.Explorer("yokai-3x4")
    ex.perfect.value = True
    assert ex.perfect.value and ex.message.value == "" and ex.perfect_play.engine is fake
    assert "perfect play: a draw" in ex.status.value
    click(ex, "b1")  # the Koropokkuru: a2 and c2
    assert ex.board.highlight["marks"] == {"a2": ("#009E73", "W 7"), "c2": ("#009E73", "W 7")}
    assert "value" in fake.asked and "move_values" in fake.asked


def test_one_table_engine_per_game_opened_once_and_shared_with_the_analysis(engines, opened):
    """Perfect play's engine is the protocol's (`get_engine(game, "table")`, which the analysis
    panel uses), opened once by the analysis package, never by a widget; its values are the
    status line's and the marks' words as they were."""
    ex = widgets.Explorer("yokai-3x4")
    assert opened == []  # nothing opened before the switch is ticked
    ex.perfect.value = True
    game = ex.game
    engine = ex.perfect_play.engine
    assert engine is analysis.get_engine(game, "table")
    assert engine is ex.perfect_play.analysis._engine_for(game)  # the analysis panel's route
    assert f"{game.player_names[1]} wins in 12 plies" in ex.status.value  # a loss for the mover
    click(ex, "b1")
    rated = {str(mv.move): mv.value for mv in StandInTable().best_moves(ex.state)}
    marks = ex.board.highlight["marks"]
    assert set(marks) == {"a2", "c2"}
    for target, (_, label) in marks.items():
        value = rated[f"b1{target}"]
        assert label == (
            value.result[0].upper() if value.plies is None else f"{value.result[0].upper()} {value.plies}"
        )
    ex.perfect.value = False
    ex.perfect.value = True
    ex.new_game()
    ex.perfect.value = True
    assert ex.perfect_play.engine is engine and "wins in 12 plies" in ex.status.value
    assert opened == ["rules_kernel.analysis"]  # once, by the protocol


def test_readiness_and_the_perfect_agent_come_from_the_table_engine(engines, monkeypatch):
    """The switch and the perfect agent follow `table.availability` (the table engine's
    readiness), whatever else might be asked."""
    states = {"now": "ready"}
    monkeypatch.setattr(
        table, "availability", lambda game: states["now"] if game.id == "yokai-3x4" else "absent"
    )
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: "absent")
    ex = widgets.Explorer("yokai-3x4")
    assert ex.perfect.layout.display != "none" and not ex.perfect.disabled
    assert "perfect" in [value for _, value in ex.agent_kind.options]
    states["now"] = "preparing"
    ex.new_game()
    assert ex.perfect.disabled and ex.perfect.description == "Perfect play: being prepared"
    assert "perfect" not in [value for _, value in ex.agent_kind.options]


def test_a_tick_before_the_table_is_ready_leaves_the_engine_to_be_opened_later(engines, opened, monkeypatch):
    """Ticked while the table is being prepared, the switch says so and asks no engine (a
    table refused by get_engine stays refused until close_engines: the analysis panel would
    lose it too); once ready, the same switch opens it."""
    states = {"now": "preparing"}
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: states["now"])
    ex = widgets.Explorer("yokai-3x4")
    ex.perfect.value = True
    assert not ex.perfect.value and "being prepared" in ex.message.value and opened == []
    states["now"] = "ready"
    ex.perfect.value = True
    assert ex.perfect.value and ex.perfect_play.engine is analysis.get_engine(ex.game, "table")
    assert opened == ["rules_kernel.analysis"]


def test_a_table_no_longer_ready_turns_the_switch_off_at_the_next_redraw(engines, opened, monkeypatch):
    """Perfect play on, then the table is prepared again (a rebuild): the next redraw turns the
    switch off and says "being prepared", and the status line no longer gives a value. (It
    turned the switch off while holding the switch's lock, whose own redraw then waited on
    that lock for ever: the redraw runs in a thread here so that a hang fails the test.)"""
    states = {"now": "ready"}
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: states["now"])
    ex = widgets.Explorer("yokai-3x4")
    ex.perfect.value = True
    assert "wins in 12 plies" in ex.status.value
    states["now"] = "preparing"
    redraw = threading.Thread(target=ex.refresh, daemon=True)
    redraw.start()
    redraw.join(timeout=120)  # a guard against a hang, not a measure: the redraw takes ~0.1 s
    assert not redraw.is_alive(), "the redraw hangs"
    assert not ex.perfect.value and ex.perfect.description == "Perfect play: being prepared"
    assert "perfect play" not in ex.status.value


def test_no_widget_opens_the_solved_table_itself():
    """The only route from a widget to a table's values is the analysis protocol."""
    sources = sorted(WIDGETS.rglob("*.py"))
    assert any(path.name == "perfect_play.py" for path in sources)
    opening = [str(path.relative_to(WIDGETS)) for path in sources if "open_solved_table" in path.read_text()]
    assert opening == []
