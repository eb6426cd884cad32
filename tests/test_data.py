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
