"""rules_kernel.analysis: the protocol, the solved-table engine (with the game's history) and
the game report. Fairy-Stockfish: test_analysis_fsf.py; the tree search: test_analysis_ismcts.py.

The table tests use a sub-game table (Kodama only besides the two Koropokkuru: material
(1, 0, 0), 5,544 positions, built in seconds); the full table's example runs only when the
full table is built (`rules-explorer solve yokai-3x4`)."""

from __future__ import annotations

import threading

import pandas as pd
import pytest

import rules_kernel as rk
from rules_kernel import analysis
from rules_kernel import parts as game_parts
from rules_kernel.analysis import Analysis, Limit, TableEngine, analyse, report, summary
from rules_kernel.records import Record
from rules_kernel.tablebase import Tablebase, TablebaseError, Value

GAME = rk.load_game("yokai-3x4")


@pytest.fixture(scope="module")
def table(tmp_path_factory, compiled_tablebase) -> Tablebase:
    return Tablebase.build(material=(1, 0, 0), directory=tmp_path_factory.mktemp("tb"), progress=False)


@pytest.fixture(scope="module")
def engine(table) -> TableEngine:
    return TableEngine(table)


def _values(table: Tablebase, state) -> dict[str, Value]:
    """Every move's value by the table alone, history ignored (each position afresh), for the
    mover."""
    return {
        str(m): table.value(GAME.from_text(state.apply(m).to_text())).after_move()
        for m in state.legal_moves()
    }


# --- the protocol ---------------------------------------------------------------------------------


def test_an_analysis_ranks_every_move_and_gives_the_line_and_what_was_searched(engine, table):
    state = GAME.from_text("3/1l1/3/L2[C] w - - 0 1")
    result = analyse(state, engine=engine)
    assert isinstance(result, Analysis) and result.player == 0
    assert sorted(m.move for m in result.moves) == sorted(str(m) for m in state.legal_moves())
    assert result.value == result.moves[0].value and str(result.value) == "win in 11"
    assert result.value.exact and result.value.margin == 0.0 and result.value.win_probability == 1.0
    assert result.values == (1.0, 0.0)
    assert result.search.engine == "table" and result.search.exact
    assert result.search.nodes >= len(result.moves)
    expected = _values(table, state)
    assert {m.move: (m.value.result, m.value.plies) for m in result.moves} == {
        k: (v.result, v.plies) for k, v in expected.items()
    }
    # the principal line is the table's: play it and the first player wins in 11 plies
    line = result.line
    end = state.play(*line) if len(line) == 11 else None
    assert end is not None and end.outcome().winner == 0


def test_progress_is_called_and_a_set_stop_flag_ends_the_search(engine):
    state = GAME.from_text("3/1l1/3/L2[C] w - - 0 1")
    seen: list[Analysis] = []
    analyse(state, engine=engine, progress=seen.append)
    assert seen and seen[-1].value.exact
    stop = threading.Event()
    stop.set()
    stopped = analyse(state, engine="ismcts", limit=Limit(seconds=5), stop=stop)
    assert stopped.search.stopped and stopped.search.playouts == 0 and stopped.search.seconds < 5
    # the table answers at once whatever the flag: its first lookup of every move is exact here
    assert analyse(state, engine=engine, stop=stop).value.exact


def test_limit_takes_seconds_or_a_limit_and_refuses_nonsense(monkeypatch):
    assert Limit.of(None) == Limit() and Limit.of(0.5) == Limit(seconds=0.5)
    for bad in (0, -1, "1", True):
        with pytest.raises(ValueError):
            Limit.of(bad)
    # a bound the engine has no use for (a depth for the tree search) leaves the default time:
    # on a clock of the test's own (each reading 1 ms later), not the machine's, whose load
    # decides how far past the second a search's last playout ends
    from rules_kernel.analysis import ismcts

    class Clock:
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.001
            return self.now

    monkeypatch.setattr(ismcts, "time", Clock())
    state = rk.load_game("to-war").initial_state()
    result = analyse(state, engine="ismcts", limit=Limit(seconds=None, depth=3))
    assert result.search.playouts > 0 and Limit().seconds <= result.search.seconds < Limit().seconds + 0.01


def test_a_finished_game_is_valued_by_its_outcome(engine):
    over = GAME.from_text("3/1l1/3/L2[C] w - - 0 1").play("a1a2", "b3a2")
    assert over.is_terminal()
    result = analyse(over, engine=engine, viewer=1)
    assert result.moves == () and result.player == 1 and str(result.value) == "win in 0"


def test_the_default_engines_by_game(monkeypatch):
    """The card games use the tree search; a game with no built table and Fairy-Stockfish
    refused falls through to the tree search too."""
    for game_id in ("war-stories", "to-war", "war-chest"):
        assert analysis.default_engine_name(rk.load_game(game_id)) == "ismcts"
    with pytest.raises(rk.RulesError, match="unknown engine"):
        analysis.get_engine(GAME, "deep-thought")
    with pytest.raises(rk.RulesError, match="does not analyse"):
        analysis.get_engine(rk.load_game("to-war"), "fairy-stockfish")


def test_a_game_declaring_its_solved_table_gets_the_table_engine(monkeypatch, table):
    if getattr(type(GAME), "SOLVED_TABLE", None) is None:
        pytest.skip("this kernel's games do not declare SOLVED_TABLE yet")
    monkeypatch.setattr(game_parts, "open_solved_table", lambda game: table)
    analysis.close_engines()
    try:
        assert analysis.default_engine_name(GAME) == "table"
        assert analysis.get_engine(GAME).tablebase is table
    finally:
        analysis.close_engines()


# --- exact with the game's history ----------------------------------------------------------------

# The first player wins in 5 with a1a2 and only with it; the two Koropokkuru go round once
# (c2c3 a2a1 c3c2 a1a2 ...), so after 7 plies a1a2 would make the third occurrence of its
# position: a draw by the rules.
CYCLE_START = "3/3/L1l/2c[] b - - 0 1"
CYCLE = ("c2c3", "a2a1", "c3c2", "a1a2", "c2c3", "a2a1", "c3c2")


def test_a_move_completing_a_threefold_repetition_is_a_draw(engine, table):
    fresh = GAME.from_text("3/3/2l/L1c[] w - - 0 1")
    assert _values(table, fresh)["a1a2"] == Value("win", 5)
    assert [v.result for k, v in _values(table, fresh).items() if k != "a1a2"] == ["loss", "loss"]
    state = GAME.from_text(CYCLE_START).play(*CYCLE)
    assert state == fresh and state.repetition_count() == 2
    assert state.apply("a1a2").outcome().is_draw
    result = analyse(state, engine=engine)
    assert str(result.move("a1a2").value) == "draw" and result.move("a1a2").value.exact
    # the position's value follows from its moves' values: a draw now, not a win in 5
    assert str(result.value) == "draw" and result.value.exact and result.search.exact
    assert str(analyse(fresh, engine=engine).value) == "win in 5"


def test_a_hot_position_on_the_ladder_is_searched_until_the_table_settles(engine):
    """3/l2/1C1/L2[] w (a win in 9 by a1b1 alone) after both Koropokkuru went round once: a1b1
    now repeats a position a third time (a draw), and b2b3, a loss in 8 by the table, has
    positions seen twice on its ladder, so a lookup cannot tell whether the loser might draw
    through them. The search over the kernel's states settles it: still a loss in 8."""
    start = GAME.from_text("3/l2/1C1/L2[] w - - 0 1")
    state = GAME.from_text(start.apply("a1b1").to_text()).play(
        "a3a2", "b1a1", "a2a3", "a1b1", "a3a2", "b1a1", "a2a3"
    )
    assert state == start and state.repetition_count() == 2
    looked_up = analyse(state, engine=engine, limit=Limit(seconds=60, depth=0))
    assert str(looked_up.move("b2b3").value) == "loss in 8 (engine)"  # not exact from a lookup
    assert str(looked_up.move("a1b1").value) == "draw"
    # the position's value is exact already: a loss may at best become a draw
    assert str(looked_up.value) == "draw" and looked_up.search.exact
    searched = analyse(state, engine=engine, limit=Limit(seconds=60, depth=6))
    assert str(searched.move("b2b3").value) == "loss in 8" and searched.move("b2b3").value.exact
    assert searched.search.depth >= 1 and searched.search.nodes > looked_up.search.nodes
    assert any("hot position" in note for note in searched.search.notes)


def test_history_keys_are_the_kernels_repetition_keys():
    """The engine reads the game's history through the state's public seam
    (`position_counts`, `position_key`, `from_position_key`; issue 45 item 4): the keys must be
    the kernel's repetition keys, or no repetition would ever be found."""
    state = GAME.from_text(CYCLE_START).play(*CYCLE)
    counts = dict(state.position_counts())
    assert counts[state.position_key] == state.repetition_count() == 2
    assert sum(counts.values()) == len(CYCLE) + 1
    for key in counts:  # each key is a position the game passed through, rebuilt exactly
        again = type(state).from_position_key(state.game, key)
        assert again.position_key == key and again.repetition_count() == 1
    with pytest.raises(ValueError, match="bytes"):
        type(state).from_position_key(state.game, b"\x00\x01")


def test_the_full_table_example_from_the_issue():
    """`g1e/lc1/1C1/ELG[] b - - 0 4` after the start occurred twice: its only winning move
    a3b4 completes a threefold repetition and draws."""
    try:
        full = TableEngine(Tablebase.open("yokai-3x4"))
    except TablebaseError:
        pytest.skip("the full table is not built (rules-explorer solve yokai-3x4)")
    state = GAME.initial_state().play("b1a2", "b4a3", "a2b1", "a3b4", "b1a2", "b4a3", "a2b1")
    assert state.to_text().startswith("g1e/lc1/1C1/ELG[] b")
    table_values = _values(full.tablebase, state)
    assert [k for k, v in table_values.items() if v.result == "win"] == ["a3b4"]
    result = full.analyse(state)
    assert str(result.move("a3b4").value) == "draw"
    assert result.value == result.moves[0].value and result.value.result in ("draw", "loss")


# --- the report -----------------------------------------------------------------------------------

# A hand-made game of the sub-game: the first player wins in 11, takes a slower win (ply 3),
# throws the win away with a drop that only draws (ply 5); later the second player turns the
# draw into a loss (ply 10).
REPORT_START = "3/1l1/3/L2[C] w - - 0 1"
REPORT_MOVES = ["a1b1", "b3a3", "b1a1", "a3b3", "C@c1", "b3a3", "a1b1", "a3b3", "b1a1", "b3a4", "a1a2"]


def test_report_classifies_a_game_with_known_blunders(engine, table):
    df = report(REPORT_MOVES, start=GAME.from_text(REPORT_START), engine=engine)
    assert isinstance(df, pd.DataFrame) and list(df["ply"]) == list(range(1, 12))
    assert list(df["mover"]) == [0, 1] * 5 + [0]
    assert list(df["move"]) == [  # the move list's words (State.action_text), not the notation
        "Koropokkuru a1–b1",
        "Koropokkuru b3–a3",
        "Koropokkuru b1–a1",
        "Koropokkuru a3–b3",
        "drops Kodama on c1",
        "Koropokkuru b3–a3",
        "Koropokkuru a1–b1",
        "Koropokkuru a3–b3",
        "Koropokkuru b1–a1",
        "Koropokkuru b3–a4",
        "Koropokkuru a1–a2",
    ]
    assert dict(zip(df["ply"], df["classification"], strict=True)) == {
        1: "best",
        2: "best",
        3: "good",
        4: "best",
        5: "blunder",
        6: "best",
        7: "best",
        8: "best",
        9: "best",
        10: "blunder",
        11: "best",
    }
    changes = df.dropna(subset=["result_change"])
    assert dict(zip(changes["ply"], changes["result_change"], strict=True)) == {
        5: "win → draw",
        10: "draw → loss",
    }
    row = df.set_index("ply").loc[5]
    assert (row.value_before, row.value_after, row.loss) == (1.0, 0.5, 0.5)
    assert (row.result_before, row.result_after, row.best) == ("win in 11", "draw", "a1b1")
    assert df["exact"].all() and (df["engine"] == "table").all()
    # every value agrees with the table alone here (no position repeats three times)
    states = [GAME.from_text(REPORT_START)]
    for move in REPORT_MOVES:
        states.append(states[-1].apply(move))
    for ply, state in enumerate(states[:-1], start=1):
        assert df.set_index("ply").loc[ply, "result_before"] == str(table.value(state))


def test_summary_counts_per_player(engine):
    df = report(REPORT_MOVES, start=GAME.from_text(REPORT_START), engine=engine)
    table = summary(df)
    assert list(table.index) == [0, 1]
    assert table.loc[0, "moves"] == 6 and table.loc[1, "moves"] == 5
    assert (table.loc[0, "blunder"], table.loc[0, "good"], table.loc[0, "best"]) == (1, 1, 4)
    assert (table.loc[1, "blunder"], table.loc[1, "best"]) == (1, 4)
    assert table.loc[0, "results_changed"] == 1 and table.loc[1, "results_changed"] == 1
    assert table.loc[0, "mean_loss"] == pytest.approx(0.5 / 6)


def test_report_reads_a_record_and_marks_chance_plies():
    game = rk.load_game("to-war")
    state, actions = game.initial_state(), []
    import random

    rng = random.Random(2)
    while len(actions) < 6:
        chance = state.current_player == rk.CHANCE
        action = state.sample_chance(rng) if chance else rng.choice(state.legal_moves())
        actions.append(str(action))
        state = state.apply(action)
    record = Record.from_actions(game, actions)
    df = report(
        record,
        engine=analysis.TreeSearchEngine(seed=1, rollout_actions=4),
        limit=Limit(seconds=None, playouts=4),
    )
    assert len(df) == 6 and df.loc[0, "player"] == "chance" and pd.isna(df.loc[0, "classification"])
    moved = df[df["mover"].notna()]
    assert len(moved) and moved["classification"].isin([c for c, _ in analysis.CLASSIFICATION]).all()
    with pytest.raises(rk.RulesError, match="start"):
        report(actions)


def test_classification_thresholds():
    from rules_kernel.analysis import Estimate
    from rules_kernel.analysis.report import classify

    def at(loss: float) -> str:
        return classify(Estimate(0.6), Estimate(0.6 - loss), loss, False)

    assert [at(x) for x in (0.0, 0.009, 0.02, 0.05, 0.099, 0.10, 0.149, 0.15, 0.5)] == [
        "best",
        "best",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert classify(Estimate(0.6), Estimate(0.2), 0.4, True) == "best"  # the engine's own choice


def test_report_reads_a_session_from_a_position(engine):
    """A session (rules_kernel.session) started from a position: its main line is reported
    like the same actions given with start=."""
    from rules_kernel.session import Session

    session = Session(GAME.from_text(REPORT_START))
    for move in REPORT_MOVES:
        session.play(move)
    session.go_to(3)  # where the session stands does not matter: the main line is reported
    from_session = report(session, engine=engine)
    from_actions = report(REPORT_MOVES, start=GAME.from_text(REPORT_START), engine=engine)
    columns = ["ply", "mover", "move", "classification", "result_before", "result_after", "result_change"]
    assert from_session[columns].equals(from_actions[columns])
