"""Games from here (issue 47 item 3) and players and clocks (item 4): `Collection.from_position`
over a real collection (DuckDB over real Parquet files made by the import), transpositions
counted as one position, hidden information matched by what the viewer sees, the intervals
from rules_kernel.stats, Elo by the agent ladder's fit, time by phase."""

from __future__ import annotations

import io
import math
import random
from pathlib import Path

import pandas as pd
import pytest

import rules_kernel as rk
from rules_kernel import ladder, records, stats
from rules_kernel import parts as game_parts
from rules_kernel.collection import CollectionError, import_collection, query

YOKAI = rk.load_game("yokai-3x4")
# three ways to one position (Yōkai 3x4 "1le/g2/1cL/EG1[c] w - -"): two move orders at ply 4,
# and the first order with a Koropokkuru and a Kodama stepping out and back (ply 8, move 5)
TO_P = ("b1c2", "b3b2", "c1b1", "a4a3")
OTHER_ORDER = ("b1c2", "a4a3", "c1b1", "b3b2")
LONG_WAY = (*TO_P, "b1c1", "a3a2", "c1b1", "a2a3")
P_TEXT = "1le/g2/1cL/EG1[c] w - -"


def _game(actions, *, winner=None, date=None, players=("Ann", "Bo"), times=None) -> records.Record:
    """A Yōkai 3x4 record of `actions`, which the rules do not end: its result a claimed
    resignation (`winner` 0 or 1), a draw ("draw") or none (None)."""
    meta: dict = {}
    if winner is not None:
        meta["ending"] = {"winner": winner, "reason": "resign" if winner != "draw" else "agreement"}
    if date is not None:
        meta["headers"] = {"date": date}
    if times is not None:
        meta["times"] = {str(ply): seconds for ply, seconds in times.items()}
    names = [{"name": name} for name in players]
    return records.Record.from_actions(YOKAI, actions, names, meta)


def _collection(folder: Path, games: list[records.Record]) -> rk.Collection:
    buffer = io.StringIO()
    records.write(buffer, games, format="jsonl")
    source = folder / "games.jsonl"
    source.write_text(buffer.getvalue())
    report = import_collection([source], folder / "collection", progress=False)
    assert not report.problems
    return rk.Collection(folder / "collection")


@pytest.fixture(scope="module")
def yokai(tmp_path_factory) -> rk.Collection:
    games = [
        _game((*TO_P, "c2c3"), winner=0, date="2024/03/05 10:00:00"),  # Ann (first) wins
        _game((*OTHER_ORDER, "c2c3"), winner=1, date="2025.01.02"),  # Bo wins
        _game((*LONG_WAY, "b1c1"), winner="draw"),  # no date
        _game((*TO_P, "b1c1")),  # no result
        _game(("b2b3",), winner=0, date="2026/01/01"),  # never reaches the position
    ]
    with _collection(tmp_path_factory.mktemp("yokai"), games) as found:
        yield found


def test_transpositions_and_move_numbers_are_one_position(yokai):
    here = YOKAI.initial_state().play(*TO_P)
    later = YOKAI.initial_state().play(*LONG_WAY)
    assert here.to_text() != later.to_text()  # the move counters differ (move 3, move 5)
    table = yokai.from_position(later)
    assert table.attrs["position"] == P_TEXT
    assert list(table["notation"]) == ["b1c1", "c2c3"]  # n 2 each: by notation then
    rows = table.set_index("notation")
    # c2c3: after the first order (Ann won) and the other order (Bo won)
    assert (rows.loc["c2c3", "n"], rows.loc["c2c3", "scored"]) == (2, 2)
    assert rows.loc["c2c3", "points"] == 1.0 and rows.loc["c2c3", "score"] == 0.5
    # b1c1: after the first order (no result: not scored) and the long way, a draw, which
    # played it here twice (plies 5 and 9) and counts once
    assert (rows.loc["b1c1", "n"], rows.loc["b1c1", "scored"], rows.loc["b1c1", "points"]) == (2, 1, 0.5)
    assert rows.loc["c2c3", "move"] == here.action_text("c2c3")
    assert rows.loc["c2c3", "last_played"] == "2025-01-02"  # the later of 2024/03/05 and 2025.01.02
    assert pd.isna(rows.loc["b1c1", "last_played"])
    # the same answer from the position reached the other way
    assert yokai.from_position(YOKAI.initial_state().play(*OTHER_ORDER)).equals(table)


def test_the_intervals_are_the_stats_ones(yokai):
    rows = yokai.from_position(YOKAI.initial_state().play(*TO_P)).set_index("notation")
    # 1 point in 2 games: rules_kernel.stats' Wilson interval of 1 in 2
    low, high = stats.proportion_ci(1, 2)
    assert (rows.loc["c2c3", "ci_low"], rows.loc["c2c3", "ci_high"]) == pytest.approx((low, high))
    assert (low, high) == pytest.approx((0.0945, 0.9055), abs=1e-4)
    # a half point in 1 game: between the intervals of 0 in 1 and 1 in 1
    zero, one = stats.proportion_ci(0, 1), stats.proportion_ci(1, 1)
    assert rows.loc["b1c1", "ci_low"] == pytest.approx((zero[0] + one[0]) / 2)
    assert rows.loc["b1c1", "ci_high"] == pytest.approx((zero[1] + one[1]) / 2)


def test_the_start_and_a_position_nobody_reached(yokai):
    start = yokai.from_position(YOKAI.initial_state())
    assert set(start["notation"]) == {"b1c2", "b2b3"} and start["n"].sum() == 5
    assert start.attrs["games_here"] == 5
    nowhere = yokai.from_position(YOKAI.initial_state().play("b1a2"))
    assert nowhere.empty and list(nowhere.columns) == list(query.FROM_POSITION_COLUMNS)


def test_no_engine_value_without_a_table_and_a_note_saying_why(yokai, monkeypatch):
    state = YOKAI.initial_state().play(*TO_P)
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: "absent")
    table = yokai.from_position(state)
    assert table["engine"].isna().all() and table["engine_score"].isna().all()
    assert "not built here" in table.attrs["engine_note"]
    assert yokai.from_position(state, engine=None).attrs["engine_note"] == "no engine asked"


def test_the_tree_search_values_the_moves_when_asked(yokai):
    state = YOKAI.initial_state().play(*TO_P)
    table = yokai.from_position(state, engine="ismcts", seconds=0.2)
    assert table["engine"].notna().all()
    assert all(0.0 <= v <= 1.0 for v in table["engine_score"])
    assert "ismcts" in table.attrs["engine_note"]


def test_the_solved_table_values_the_moves_where_it_is_built(yokai):
    if game_parts.solved_table_availability(YOKAI) != "ready":
        pytest.skip("the Yōkai 3x4 table is not built here (rules-explorer solve yokai-3x4)")
    state = YOKAI.initial_state().play(*TO_P)
    table = yokai.from_position(state).set_index("notation")
    best = {str(mv.move): str(mv.value) for mv in game_parts.open_solved_table(YOKAI).best_moves(state)}
    for notation, value in table["engine"].items():
        assert value.startswith(best[notation].split(" (")[0].split(" in ")[0])


def test_a_collection_made_before_from_here_says_so(yokai, tmp_path):
    old = tmp_path / "old"
    old.mkdir()
    for name in ("games", "moves", "positions"):
        (old / f"{name}.parquet").write_bytes(yokai.table_path(name).read_bytes())
    (old / "collection.json").write_text("{}")
    with pytest.raises(CollectionError, match="import its games again"):
        rk.Collection(old).from_position(YOKAI.initial_state())


# --- hidden information --------------------------------------------------------------------


@pytest.fixture(scope="module")
def war_chest(tmp_path_factory):
    game = rk.load_game("war-chest")
    rng = random.Random(7)
    games, states = [], []
    for _ in range(2):
        state, actions = game.initial_state(), []
        while len(actions) < 14 and not state.is_terminal():
            action = (
                state.sample_chance(rng)
                if state.current_player == rk.CHANCE
                else rng.choice(state.legal_moves())
            )
            actions.append(action)
            state = state.apply(action)
        games.append(records.Record.from_actions(game, actions, [{"name": "Ann"}, {"name": "Bo"}]))
        states.append(records.Record.from_actions(game, actions).replay())
    with _collection(tmp_path_factory.mktemp("war-chest"), games) as found:
        yield found, states


def _hidden_position(states):
    """A position of the first game where a seat is to move and the seats see different things."""
    for ply, state in enumerate(states[:-1]):
        if state.current_player >= 0 and state.view(0).to_text() != state.view(1).to_text():
            return ply, state
    raise AssertionError("no position with hidden information")


def test_hidden_information_is_matched_by_what_the_viewer_sees(war_chest):
    found, games = war_chest
    ply, state = _hidden_position(games[0])
    played = games[0][ply + 1]
    mover = state.current_player
    other = 1 - mover
    # another full state the mover cannot tell from this one: the unknowns drawn again
    rng = random.Random(1)
    twin = next(
        t
        for t in (state.view(mover).determinize(rng) for _ in range(50))
        if t.to_text() != state.to_text() and t.view(mover).to_text() == state.view(mover).to_text()
    )
    for asked in (state, twin):
        table = found.from_position(asked)  # viewer: the player to move
        assert table.attrs["viewer"] == mover
        assert table["n"].sum() == 1
    assert found.from_position(twin, viewer=None).empty  # all-seeing: not the same position
    assert found.from_position(state, viewer=None)["n"].sum() == 1
    # the other seat sees less: it finds the move by its own view, in its own words
    seen = found.from_position(state, viewer=other)
    assert seen["n"].sum() == 1 and seen.attrs["viewer"] == other
    assert seen["move"].iloc[0] == state.action_text(seen["notation"].iloc[0], other)
    assert played is not None


def test_the_views_table_holds_each_seats_view(war_chest):
    found, games = war_chest
    ply, state = _hidden_position(games[0])
    views = found.sql("select viewer, view from views where game_id = 0 and ply = ? order by viewer", [ply])
    assert len(views) == 2
    for seat in (0, 1):
        text = views["view"][seat]
        assert state.view(seat).to_text().startswith(text)


# --- players and clocks ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> rk.Collection:
    """Ann, Bo and Cy, eight games of 6 plies: Ann 3 wins, 1 draw, 2 losses; one game
    unfinished; two games with times per ply."""
    short = ("b1c2", "b3b2", "c1b1", "a4a3", "c2c3", "a3a2")  # 6 plies: 2 a phase
    games = [
        _game(short, winner=0, players=("Ann", "Bo"), times={1: 3, 2: 5, 3: 1, 4: 2, 5: 7, 6: 4}),
        _game(short, winner=1, players=("Bo", "Ann")[::-1]),  # Ann first, Bo wins
        _game(short, winner="draw", players=("Bo", "Ann"), times={1: 10, 3: 20, 5: 30}),
        _game(short, winner=0, players=("Bo", "Cy")),
        _game(short, winner=1, players=("Ann", "Cy")),
        _game(short, winner=0, players=("Ann", "Cy")),
        _game(short, winner=0, players=("Ann", "Bo")),
        _game(short, players=("Cy", "Bo")),  # unfinished
    ]
    with _collection(tmp_path_factory.mktemp("league"), games) as found:
        yield found


def test_players_scores_and_intervals(league):
    table = league.players().set_index("player")
    assert table.loc["Ann", ["games", "wins", "draws", "losses", "unfinished"]].tolist() == [6, 3, 1, 2, 0]
    assert table.loc["Ann", "points"] == 3.5 and table.loc["Ann", "score"] == pytest.approx(3.5 / 6)
    low3, high3 = stats.proportion_ci(3, 6)
    low4, high4 = stats.proportion_ci(4, 6)
    assert table.loc["Ann", "ci_low"] == pytest.approx((low3 + low4) / 2)
    assert table.loc["Ann", "ci_high"] == pytest.approx((high3 + high4) / 2)
    assert table.loc["Cy", ["games", "scored", "unfinished"]].tolist() == [4, 3, 1]
    assert set(table["game"]) == {"yokai-3x4"}


def test_elo_is_the_ladders_fit_of_the_results(league):
    table = league.players().set_index("player")
    decided = league.games[league.games["result"] != "*"]
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    results = pd.DataFrame(
        {
            "game": decided["game"],
            "a": decided["player_1"],
            "b": decided["player_2"],
            "score_a": decided["result"].map(points),
        }
    )
    expected = ladder.ratings(results, anchor=None).set_index("agent")
    for player in ("Ann", "Bo", "Cy"):
        assert table.loc[player, "elo"] == pytest.approx(expected.loc[player, "rating"])
        assert table.loc[player, "elo_low"] == pytest.approx(expected.loc[player, "ci_low"])
    assert table["elo"].sum() == pytest.approx(0.0, abs=1e-6)  # mean 0: no anchor
    assert table.loc["Ann", "elo"] > table.loc["Cy", "elo"]
    anchored = league.players(anchor="Cy").set_index("player")
    assert anchored.loc["Cy", "elo"] == pytest.approx(0.0, abs=1e-9)


def test_time_per_move_and_per_phase(league):
    table = league.players().set_index("player")
    # game 0: Ann (first) spent 3, 1, 7 at plies 1, 3, 5 (one a phase); game 2: Ann second, no times
    # game 2: Bo first spent 10, 20, 30
    assert table.loc["Ann", "timed_moves"] == 3 and table.loc["Ann", "seconds"] == 11
    assert table.loc["Ann", ["opening_seconds", "middle_seconds", "end_seconds"]].tolist() == [3, 1, 7]
    # Bo: 5, 2, 4 (game 0, plies 2, 4, 6) and 10, 20, 30 (game 2, plies 1, 3, 5)
    assert table.loc["Bo", "timed_moves"] == 6 and table.loc["Bo", "seconds_per_move"] == pytest.approx(
        71 / 6
    )
    assert table.loc["Bo", "opening_seconds"] == pytest.approx((5 + 10) / 2)
    assert table.loc["Bo", "end_seconds"] == pytest.approx((4 + 30) / 2)
    assert math.isnan(table.loc["Cy", "seconds_per_move"]) and table.loc["Cy", "moves"] == 12
    phases = league.move_phases()
    assert phases.groupby("phase").size().to_dict() == {"opening": 16, "middle": 16, "end": 16}
