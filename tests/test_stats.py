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
    return [
        Record.from_actions(G, SECOND_WINS, players=["x", "y"]),
        Record.from_actions(G, FIRST_WINS, players=["x", "y"]),
        Record.from_actions(G, SECOND_WINS, players=["x", "y"]),
        Record.from_actions(G, SHUFFLE, players=["x", "y"]),
        Record.from_actions(G, ["b2b3"], players=["x", "y"]),
    ]  # unfinished: no result


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
    # Wilson interval for 1 of 3: centre (p + z²/2n)/(1 + z²/n), computed by hand with the exact
    # 97.5% normal quantile (scipy's; 1.96 is its rounding)
    from statistics import NormalDist

    z, n, p = NormalDist().inv_cdf(0.975), 3, 1 / 3
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


# --- the tidy frames, the intervals and the precomputed tables --------------------------------


def test_games_frame_is_typed(records):
    games = stats.games_frame(records)
    assert games["game"].dtype == "category" and games["agent_0"].dtype == "category"
    assert games["ending"].dtype == "category" and str(games["winner"].dtype) == "Int64"
    assert games["finished"].dtype == bool and games["actions"].dtype.kind == "i"
    assert list(games["winners"]) == [[1], [0], [1], [], []]


def test_actions_frame_names_pieces_and_captures(records):
    """Yokai rulebook, '2. Einen gegnerischen Yōkai gefangen nehmen': in SECOND_WINS the
    first player's Koropokkuru steps to a2, then takes the Tanuki on a3 (a2a3); the second
    player's Koropokkuru takes it there (b4a3)."""
    actions = stats.actions_frame(records[:1])
    assert list(actions["action"]) == SECOND_WINS
    assert list(actions["player"]) == [0, 1, 0, 1]
    assert list(actions["piece"].astype(str)) == ["Koropokkuru", "Tanuki", "Koropokkuru", "Koropokkuru"]
    assert list(actions["capture"]) == [False, False, True, True]


def test_to_war_fight_is_a_capture():
    """To War! 'Der Kampf', the rulebook's example: the Beduine attacking the Berserker from
    the side (+2) wins, so the turn that ends in that fight takes a card off the field."""
    from playing import random_game

    game = rk.load_game("to-war")
    states, actions = random_game(game, 5, cap=400)
    record = Record.from_actions(game, actions)
    frame = stats.actions_frame([record])
    before = [sum(1 for t in s.scene().tokens if t.owner == 1) for s in states[:-1]]
    after = [sum(1 for t in s.scene().tokens if t.owner == 1) for s in states[1:]]
    mover = [s.current_player for s in states[:-1]]
    expected = [m == 0 and a < b for m, b, a in zip(mover, before, after, strict=True)]
    got = [bool(c) and p == 0 for c, p in zip(frame["capture"], frame["player"].fillna(-1), strict=True)]
    assert got == expected and any(expected)


def test_intervals_come_from_scipy():
    from scipy.stats import binomtest

    ci = binomtest(37, 80).proportion_ci(0.95, method="wilson")
    assert stats.proportion_ci(37, 80) == pytest.approx((ci.low, ci.high))
    assert all(math.isnan(x) for x in stats.proportion_ci(0, 0))
    with pytest.raises(stats.StatsError, match="z=2.58"):
        stats.wilson(1, 2, z=2.58)


def test_army_pairs_and_agent_results():
    """Hand-made To War! and agent rows: the first seat's share per pairing."""
    import pandas as pd

    rows = [
        ("northern", "southern", 0),
        ("northern", "southern", 0),
        ("northern", "southern", 1),
        ("southern", "northern", 1),
        ("southern", "northern", None),
    ]
    games = stats.typed_games(
        pd.DataFrame(
            {
                "game": "to-war",
                "players": 2,
                "army_0": [r[0] for r in rows],
                "army_1": [r[1] for r in rows],
                "agent_0": ["greedy", "greedy", "random", "random", "random"],
                "agent_1": ["random", "random", "greedy", "greedy", "greedy"],
                "winner": [r[2] for r in rows],
                "finished": True,
                "draw": [r[2] is None for r in rows],
                "winners": [[r[2]] if r[2] is not None else [] for r in rows],
                "actions": 10,
            }
        )
    )
    pairs = stats.army_pairs(games).set_index(["army_0", "army_1"])
    assert pairs.loc[("northern", "southern"), ["games", "first_wins", "decided"]].tolist() == [3, 2, 3]
    assert pairs.loc[("southern", "northern"), ["games", "second_wins", "draws"]].tolist() == [2, 1, 1]
    armies = stats.win_rates(games, "army").set_index("army")
    assert armies.loc["northern", ["seats", "wins"]].tolist() == [5, 3]  # 2 first + 1 second
    agents = stats.agent_results(games).set_index(["agent_0", "agent_1"])
    assert agents.loc[("greedy", "random"), "first_share"] == 1.0


def test_a_missing_column_is_named():
    import pandas as pd

    with pytest.raises(stats.StatsError, match="army_0"):
        stats.army_pairs(pd.DataFrame({"game": ["to-war"], "finished": [True]}))
    with pytest.raises(stats.StatsError, match="unit_0"):
        stats.win_rates(pd.DataFrame({"finished": [True]}), "unit")


def test_parquet_tables_keep_types_lists_and_how_they_were_made(tmp_path, records):
    games = stats.games_frame(records)
    path = tmp_path / "games.parquet"
    stats.write_table(games, path, {"command": "python -m rules_kernel.make_data --games 5", "seed": 9})
    back = stats.read_games(path)
    assert stats.table_metadata(path) == {"command": "python -m rules_kernel.make_data --games 5", "seed": 9}
    assert back["game"].dtype == "category" and list(back["winners"]) == [[1], [0], [1], [], []]
    games.to_parquet(tmp_path / "plain.parquet")
    with pytest.raises(stats.StatsError, match="no 'rules_explorer' metadata"):
        stats.table_metadata(tmp_path / "plain.parquet")
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(stats.StatsError, match="bad.parquet"):
        stats.read_games(tmp_path / "bad.parquet")
