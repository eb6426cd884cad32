"""The record format (DESIGN.md "Records"): round trips, streaming, and bad input."""

from __future__ import annotations

import io
import json

import pytest

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.records import Record, RecordError

GAME = rk.load_game("yokai-3x4")
LION_CAPTURE = ["b1a2", "a4a3", "a2a3", "b4a3"]


def good_record(**meta) -> Record:
    return Record.from_actions(GAME, LION_CAPTURE, players=["Ann", {"name": "Bo", "agent": "random"}],
                               meta=meta)


def test_a_record_holds_the_game_and_its_result():
    record = good_record(event="club night")
    data = json.loads(record.to_json())
    assert data["format"] == "rules-explorer/1"
    assert data["game"] == "yokai-3x4" and data["options"] == {"repetitions": 3}
    assert data["actions"] == LION_CAPTURE
    assert data["players"] == [{"name": "Ann"}, {"name": "Bo", "agent": "random"}]
    assert data["result"] == {"winner": 1, "reason": "the Koropokkuru was captured",
                              "winners": [1], "finished": True}
    assert data["meta"] == {"event": "club night"}
    assert "\n" not in record.to_json()


def test_write_and_stream_read(tmp_path):
    path = tmp_path / "games.jsonl"
    unfinished = Record.from_actions(GAME, ["b2b3"])
    assert records.write_records(path, [good_record(), unfinished]) == 2
    with records.RecordWriter(path, append=True) as out:
        out.write(good_record(n=3))
    read = records.read_records(path, replay=True)
    first = next(read)  # a generator: records arrive one at a time
    assert first == good_record() and first.line == 1 and first.source == str(path)
    rest = list(read)
    assert [r.line for r in rest] == [2, 3] and rest[0].result is None
    assert rest[1].meta == {"n": 3}
    assert records.load(path)[2].final_state().is_terminal()


def test_chance_actions_are_marked():
    record = Record("yokai-3x4", {}, (records.RecordedAction("deal:x", chance=True),))
    assert json.loads(record.to_json())["actions"] == [{"chance": "deal:x"}]
    with pytest.raises(RecordError, match="recorded as a chance outcome, but a move by player 0"):
        record.replay()


def bad(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        list(records.read_records(io.StringIO(text), replay=True))
    return info.value


def line_of(**changes) -> str:
    data = good_record().to_dict()
    data.update(changes)
    return json.dumps(data)


def test_truncated_json_names_the_line():
    text = good_record().to_json() + "\n" + good_record().to_json()[:-9] + "\n"
    error = bad(text)
    assert error.line == 2 and "not valid JSON" in str(error) and "truncated" in str(error)


def test_unknown_game_and_option():
    assert "unknown game 'go'" in str(bad(line_of(game="go")))
    error = bad(line_of(options={"colour": "red"}))
    assert error.line == 1 and "no option 'colour'" in str(error)
    assert "at least 2" in str(bad(line_of(options={"repetitions": 0})))


@pytest.mark.parametrize("change, message", [
    ({"actions": "b1a2 a4a3"}, "field 'actions' must be a JSON array"),
    ({"options": []}, "field 'options' must be a JSON object"),
    ({"game": 3}, "field 'game' must be a JSON string"),
    ({"actions": ["b1a2", 7]}, "action 7 must be a notation string"),
    ({"format": "rules-explorer/9"}, "format 'rules-explorer/9'"),
    ({"result": {"winner": "Ann"}}, "winner must be an integer"),
    ({"players": [3]}, "a player must be a name or an object"),
    ({"extra": 1}, "unknown field 'extra'"),
])
def test_wrong_types(change, message):
    assert message in str(bad(line_of(**change)))


def test_missing_field_and_non_object():
    data = good_record().to_dict()
    del data["actions"]
    assert "missing field 'actions'" in str(bad(json.dumps(data)))
    assert "must be a JSON object, not an array" in str(bad("[1, 2]"))


def test_an_illegal_move_names_its_ply_and_nothing_is_half_loaded():
    lines = [good_record().to_json(), line_of(actions=["b1a2", "a4a3", "a2a4", "b4a3"])]
    stream = records.read_records(io.StringIO("\n".join(lines)), replay=True)
    assert next(stream) == good_record()  # the good first record is delivered whole
    with pytest.raises(RecordError) as info:
        next(stream)
    error = info.value
    assert (error.line, error.ply) == (2, 2)
    assert "line 2, ply 2" in str(error) and "cannot step to a4" in str(error)


def test_moves_after_the_end_and_a_wrong_result():
    error = bad(line_of(actions=LION_CAPTURE + ["c1c2"]))
    assert error.ply == 4 and "the game ended" in str(error)
    wrong = good_record().to_dict()
    wrong["result"] = dict(wrong["result"], winner=0)
    assert "recorded winner 0 differs from the replayed one 1" in str(bad(json.dumps(wrong)))
    short = good_record().to_dict()
    short["actions"] = LION_CAPTURE[:2]
    assert "while the game goes on" in str(bad(json.dumps(short)))


def test_empty_file(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(RecordError, match="empty"):
        list(records.read_records(empty))
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n")
    with pytest.raises(RecordError, match="empty"):
        records.load(blank)


def test_a_huge_line_is_refused_before_parsing():
    text = '{"format": "' + "x" * 5000
    with pytest.raises(RecordError, match="line longer than 1000 characters") as info:
        list(records.read_records(io.StringIO(text), max_line_bytes=1000))
    assert info.value.line == 1


def test_missing_file_and_bad_encoding(tmp_path):
    with pytest.raises(RecordError, match="cannot open"):
        list(records.read_records(tmp_path / "nope.jsonl"))
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        list(records.read_records(binary))


def test_the_text_form(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# a short game\ngame: yokai-3x4\n\nb1a2\na4a3  # the Tanuki steps\na2a3\nb4a3\n")
    record = records.read_text_game(path)
    assert [a.notation for a in record.actions] == LION_CAPTURE
    assert record.final_state().outcome().winner == 1
    assert records.read_text_game(io.StringIO(records.to_text_game(good_record()))).actions \
        == good_record().actions
    path.write_text("game: yokai-3x4\nb1a2\na4a3\nb2b4\n")
    with pytest.raises(RecordError) as info:
        records.read_text_game(path)
    assert (info.value.line, info.value.ply) == (4, 2)
    path.write_text("b1a2\n")
    with pytest.raises(RecordError, match="no 'game: <id>' line"):
        records.read_text_game(path)
    assert records.read_text_game(io.StringIO("b2b3\n"), game=GAME).actions[0].notation == "b2b3"
