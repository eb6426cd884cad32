"""The shipped example records are valid: every one replays to its recorded result."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_kernel.records import read_records

FILES = sorted((Path(__file__).parent.parent / "data").glob("*.jsonl"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_records_replay(path):
    records = list(read_records(path, replay=True))
    assert records


def test_every_game_has_example_agent_games():
    names = {p.name for p in FILES}
    for game in ("yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest", "war-chest-4p"):
        assert f"{game}-greedy-vs-random.jsonl" in names


@pytest.mark.slow
def test_the_shipped_action_table_replays_under_todays_rules():
    """data/actions.parquet lists every action of a sample of the statistics' games; each game
    must still be legal, action by action, under the kernel's rules as they are now (a rules
    change, such as issue #20's Berserker ruling, must come with the data made again)."""
    import json

    import pandas as pd

    import rules_kernel as rk
    from rules_kernel import stats

    data = Path(__file__).parent.parent / "data"
    actions = pd.read_parquet(data / "actions.parquet")
    games = pd.read_parquet(data / "games.parquet")
    # the sample, in order: make_data's first `action_games_per_game` games of the seats experiment
    per_game = stats.table_metadata(data / "actions.parquet")["action_games_per_game"]
    games = games[(games["experiment"] == "seats") & (games["index"] < per_game)].reset_index(drop=True)
    assert sorted(actions["record"].unique()) == list(games.index)
    for record, rows in actions.groupby("record", sort=True):
        assert rows["game"].iloc[0] == games.loc[record, "game"]
        game = rk.load_game(rows["game"].iloc[0], **json.loads(games.loc[record, "options"]))
        state = game.initial_state()
        for ply, action in zip(rows["ply"], rows["action"], strict=True):
            try:
                state = state.apply(action)
            except rk.IllegalMoveError as exc:
                pytest.fail(f"actions.parquet, record {record} ({game.id}), ply {ply}: {exc}")
        assert len(rows) == games.loc[record, "actions"], f"record {record} is cut short"
