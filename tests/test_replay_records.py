"""The Replay page's menu of games (issue 46 item 6: "the Replay page offers only one of the 9
shipped records"): every game of every shipped record file, named in words, and the games of
every file a visitor uploads; choosing one shows it."""

from __future__ import annotations

import re

from test_dashboard_boundary import record_line, upload

import rules_kernel as rk
import widgets
from rules_kernel import records


def shipped_games() -> list[records.Record]:
    return [r for path in sorted(records.shipped_records().glob("*.jsonl")) for r in records.load(path)]


def test_the_menu_lists_every_shipped_game_in_words_and_shows_the_one_chosen():
    everything = shipped_games()
    replay = widgets.Replay(upload=True)
    labels = [label for label, _ in replay.record_menu.options]
    assert len(labels) == len(everything) > 9  # every game of the 9 files, not one file's first
    assert {r.game for r in everything} == {rk.game_class(r.game).id for _, r in replay._entries}
    for label in labels:  # no file name, no game id, no agent code: the game's title and words
        assert not re.search(r"\.jsonl|yokai-|war-chest|war-stories|to-war|fsf:|ismcts", label), label
    chess = next(i for i, label in enumerate(labels) if label.startswith("War Chest (4 players)"))
    replay.record_menu.value = chess
    record = replay._entries[chess][1]
    assert "War Chest" in replay.info.value and replay.record is record
    assert replay.slider.max == len(record.actions)


def test_the_game_loaded_first_is_marked_in_the_menu():
    replay = widgets.Replay(records.shipped_records() / "yokai-5x6-random.jsonl", index=1, upload=True)
    assert replay.record_menu.label == "Yōkai no Mori 5x6: random against random, game 2 of 2"


def test_an_uploads_games_join_the_menu_and_a_bad_upload_changes_nothing():
    replay = widgets.Replay(upload=True)
    before = len(replay.record_menu.options)
    upload(replay, record_line(actions=["b2b3", "c4b3"]) + record_line(actions=["b2b3"]))
    labels = [label for label, _ in replay.record_menu.options]
    assert labels[before:] == [
        "Your file: Yōkai no Mori 3x4, game 1 of 2",
        "Your file: Yōkai no Mori 3x4, game 2 of 2",
    ]
    assert replay.record_menu.value == before and replay.slider.max == 2
    shown = replay.record
    upload(replay, record_line(actions=["b2b3", "zz"]), name="bad.jsonl")
    assert "zz" in replay.info.value and replay.record is shown
    assert len(replay.record_menu.options) == before + 2
