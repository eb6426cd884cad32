"""Statistics on a hand-made set of records give hand-computed numbers."""

from __future__ import annotations

import math

import pytest

import rules_kernel as rk
from rules_kernel import stats
from rules_kernel.records import Record

G = rk.load_game("yokai-3x4")
SECOND_WINS = ["b1a2", "a4a3", "a2a3", "b4a3"]  # the Koropokkuru is captured: player 1
FIRST_WINS = ["b1c2", "b4a3", "c2c3", "a3a2", "c1c2", "a2b2", "c3b2"]  # ... by player 0
SHUFFLE = ["c1c2", "a4a3", "c2c1", "a3a4"] * 2  # the same position three times: a draw


@pytest.fixture
def records():
    return [Record.from_actions(G, SECOND_WINS, players=["x", "y"]),
            Record.from_actions(G, FIRST_WINS, players=["x", "y"]),
            Record.from_actions(G, SECOND_WINS, players=["x", "y"]),
            Record.from_actions(G, SHUFFLE, players=["x", "y"]),
            Record.from_actions(G, ["b2b3"], players=["x", "y"])]  # unfinished: no result


def test_games_frame(records):
    games = stats.games_frame(records)
    assert list(games["actions"]) == [4, 7, 4, 8, 1]
    assert list(games["winner"].astype(object).where(games["winner"].notna(), None)) == [1, 0, 1, None, None]
    assert list(games["draw"]) == [False, False, False, True, False]
    assert list(games["finished"]) == [True, True, True, True, False]


def test_first_player_advantage_by_hand(records):
    table = stats.first_player_advantage(stats.games_frame(records)).iloc[0]
    counts = (table.games, table.first_wins, table.second_wins, table.draws, table.unfinished)
    assert counts == (5, 1, 2, 1, 1)
    assert table.first_share == pytest.approx(1 / 3)
    # Wilson interval for 1 of 3: centre (p + z²/2n)/(1 + z²/n), computed by hand
    z, n, p = 1.96, 3, 1 / 3
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert (table.ci_low, table.ci_high) == pytest.approx((centre - half, centre + half))
    assert stats.wilson(1, 2) == pytest.approx((0.0945, 0.9055), abs=1e-4)


def test_lengths_endings_and_branching(records):
    games = stats.games_frame(records)
    length = stats.game_length(games).loc["yokai-3x4"]
    assert (length["count"], length["mean"], length["max"]) == (5, 24 / 5, 8)
    endings = stats.termination_reasons(games).set_index("ending")["games"].to_dict()
    assert endings == {"the Koropokkuru was captured": 3, "repetition": 1, "no result": 1}
    actions = stats.actions_frame(records)
    assert len(actions) == 24
    first_ply = stats.branching_by_ply(actions).set_index("ply").loc[0]
    assert (first_ply["mean"], first_ply["count"]) == (4, 5)  # four moves at the start (perft 1)


def test_win_rates_by_seat_column(records):
    games = stats.games_frame(records)
    table = stats.win_rates(games, "agent").set_index("agent")
    assert table.loc["x", "wins"] == 1 and table.loc["y", "wins"] == 2 and table.loc["x", "seats"] == 4


def test_parquet_round_trip(records, tmp_path):
    games = stats.games_frame(records)
    games.to_parquet(tmp_path / "games.parquet")
    import pandas as pd

    assert pd.read_parquet(tmp_path / "games.parquet")["actions"].tolist() == games["actions"].tolist()


def test_war_chest_win_rates_by_unit():
    """Each seat's units come from the deal or the draft in the record; a unit's seat wins when
    its player (or, with four players, its team) wins. Checked against the final states."""
    from playing import random_game

    recs, expected = [], {}
    for players, seed, setup in ((2, 3, "random"), (2, 4, "random"), (4, 0, "random"), (4, 2, "random")):
        states, actions = random_game(rk.load_game("war-chest", players=players, setup=setup), seed, cap=3000)
        final = states[-1]
        assert final.is_terminal()
        recs.append(Record.from_actions(final.game, actions))
        for p, army in enumerate(final.armies):
            for unit in army:
                seats, wins = expected.get(unit, (0, 0))
                expected[unit] = (seats + 1, wins + (p in final.outcome().winners))
    games = stats.games_frame(recs)
    assert [len(u) for u in games["unit_0"]] == [4, 4, 3, 3]
    table = stats.win_rates(games, "unit").set_index("unit")
    got = {unit: (int(row.seats), int(row.wins)) for unit, row in table.iterrows()}
    assert got == expected
