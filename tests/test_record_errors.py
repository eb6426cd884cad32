"""Every way a record can be bad (issue #14 item 4, issue #13 item 1, DESIGN.md "Records":
"A bad record gives an error naming the line, the ply and the reason, and never a silently
shortened game. Loading never uses pickle or eval.").

Each JSON Lines case is written as line 2 of a file between two good records and read three
ways: errors="raise" (the good line 1 arrives whole, then RecordError naming file, line 2
and the ply), errors="collect" (both good records and exactly that one error), and as an
untrusted upload (`read_upload`: one-line RecordError naming the upload, line 1 and ply).
"""

from __future__ import annotations

import builtins
import io
import json
import os
from pathlib import Path

import pytest

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.records import Record, RecordError
from tests.playing import random_game

YOKAI = rk.load_game("yokai-3x4")
LION_CAPTURE = ["b1a2", "a4a3", "a2a3", "b4a3"]  # Sente's Lion is taken at ply 3: Gote wins


def good() -> dict:
    return Record.from_actions(YOKAI, LION_CAPTURE, players=["Ann", "Bo"]).to_dict()


def line(**changes) -> bytes:
    data = good()
    data.update(changes)
    return json.dumps(data).encode()


def with_result(**changes) -> bytes:
    data = good()
    data["result"] = dict(data["result"], **changes)
    return json.dumps(data).encode()


def raw(text: str) -> bytes:
    return text.encode()


def war_stories_line() -> dict:
    game = rk.load_game("war-stories")
    _, actions = random_game(game, 1, cap=3)
    return Record.from_actions(game, actions).to_dict()


def war_stories(actions) -> bytes:
    data = war_stories_line()
    data["actions"] = actions
    return json.dumps(data).encode()


GOOD_HEAD = json.dumps(good())[:-1]  # an unclosed copy of a good line, to splice into

# (id, line 2's bytes, the ply named (None: the line as a whole), a fragment of the reason)
CASES = [
    ("truncated", json.dumps(good())[:-9].encode(), None, "not valid JSON"),
    ("not-an-object", b"[1, 2]", None, "must be a JSON object, not an array"),
    ("a-string", b'"hello"', None, "must be a JSON object, not a string"),
    ("missing-format", raw(json.dumps({k: v for k, v in good().items() if k != "format"})), None,
     "missing field 'format'"),
    ("missing-actions", raw(json.dumps({k: v for k, v in good().items() if k != "actions"})), None,
     "missing field 'actions'"),
    ("unknown-field", line(extra=1), None, "unknown field 'extra'"),
    ("wrong-format", line(format="rules-explorer/9"), None, "format 'rules-explorer/9'"),
    ("game-not-string", line(game=3), None, "field 'game' must be a JSON string"),
    ("options-not-object", line(options=[]), None, "field 'options' must be a JSON object"),
    ("actions-not-array", line(actions="b1a2 a4a3"), None, "field 'actions' must be a JSON array"),
    ("action-a-number", line(actions=["b1a2", 7]), 1, "action 7 must be a notation string"),
    ("chance-with-extra-key", line(actions=[{"chance": "x", "why": 1}]), 0, "must be a notation string"),
    ("players-not-array", line(players={"a": 1}), None, "field 'players' must be a JSON array"),
    ("player-a-number", line(players=[3]), None, "a player must be a name or an object"),
    ("meta-not-object", line(meta=[1]), None, "field 'meta' must be a JSON object"),
    ("result-not-object", line(result=1), None, "field 'result' must be a JSON object"),
    ("unknown-game", line(game="go"), None, "unknown game 'go'"),
    ("unknown-option", line(options={"colour": "red"}), None, "has no option 'colour'"),
    ("option-named-game_id", line(options={"game_id": "x"}), None, "has no option 'game_id'"),
    ("option-named-self", line(options={"self": 1}), None, "has no option 'self'"),
    ("option-value-refused", line(options={"repetitions": 0}), None, "at least 2"),
    ("option-wrong-type", line(options={"repetitions": "three"}), None, "repetitions"),
    ("winner-not-integer", with_result(winner="Ann"), None, "winner must be an integer"),
    ("winner-a-boolean", with_result(winner=True), None, "winner must be an integer"),
    ("winners-not-array", with_result(winners=1), None, "winners must be an array of integers"),
    ("finished-not-boolean", with_result(finished="yes"), None, "finished must be true or false"),
    ("reason-not-string", with_result(reason=5), None, "reason must be a string"),
    ("unknown-result-field", with_result(score=3), None, "unknown result field 'score'"),
    ("illegal-move", line(actions=["b1a2", "a4a3", "a2a4", "b4a3"]), 2, "cannot step to a4"),
    ("nonsense-notation", line(actions=["b1a2", "zz"]), 1, "'zz'"),
    ("move-marked-as-chance", line(actions=[{"chance": "b1a2"}]), 0,
     "recorded as a chance outcome, but a move by player 0"),
    ("chance-marked-as-move", war_stories(["deal:x"]), 0, "recorded as a move, but a chance outcome"),
    ("bad-chance-outcome", war_stories([{"chance": "deal:x"}]), 0, "deal"),
    ("moves-after-the-end", line(actions=LION_CAPTURE + ["c1c2"]), 4, "the game ended"),
    ("winner-contradicted", with_result(winner=0), None, "recorded winner 0 differs from the replayed one 1"),
    ("winners-contradicted", with_result(winners=[0]), None, "recorded winners [0] differ"),
    ("reason-contradicted", with_result(reason="resigned"), None, "recorded reason 'resigned' differs"),
    ("finished-but-goes-on", line(actions=LION_CAPTURE[:2]), None, "while the game goes on"),
    ("unfinished-but-ended", with_result(finished=False, winner=None, winners=[]), None,
     "did not finish, but the replay ends"),
    ("unfinished-with-winner", line(actions=LION_CAPTURE[:2], result={"winner": 1, "finished": False}),
     None, "did not finish, yet names a winner"),
    ("duplicate-key", raw(GOOD_HEAD + ', "game": "yokai-5x6"}'), None, "duplicate key 'game'"),
    ("duplicate-nested-key", line(options={"repetitions": 3}).replace(
        b'"repetitions": 3', b'"repetitions": 3, "repetitions": 4'), None, "duplicate key 'repetitions'"),
    ("nesting-100k-deep", b"[" * 100_000 + b"]" * 100_000, None, "nested more than 32 deep"),
    ("nesting-in-meta", raw(GOOD_HEAD + ', "meta": {"x": ' + "[" * 40 + "]" * 40 + "}}"), None,
     "nested more than 32 deep"),
    ("5000-digit-number", raw(GOOD_HEAD + ', "meta": {"n": ' + "9" * 5000 + "}}"), None,
     "a number of 5000 characters"),
    ("41-digit-number", raw(GOOD_HEAD + ', "meta": {"n": ' + "1" * 41 + "}}"), None,
     "a number of 41 characters"),
    ("long-float", raw(GOOD_HEAD + ', "meta": {"x": 0.' + "1" * 60 + "}}"), None,
     "a number of 62 characters"),
    ("NaN", raw(GOOD_HEAD + ', "meta": {"x": NaN}}'), None, "NaN is not a JSON number"),
    ("Infinity", raw(GOOD_HEAD + ', "meta": {"x": -Infinity}}'), None, "-Infinity is not a JSON number"),
    ("lone-surrogate", raw(GOOD_HEAD + ', "meta": {"x": "\\ud800"}}'), None, "unpaired UTF-16 surrogate"),
    ("bad-utf8-byte", json.dumps(good()).encode().replace(b"Ann", b"A\xffn"), None, "not UTF-8"),
    ("units-a-path", raw(json.dumps({**good(), "game": "to-war", "options": {"units": "/etc/passwd"}})),
     None, "must be the unit table itself"),
    ("units-inline-bad-row", raw(json.dumps({**good(), "game": "to-war", "actions": [],
                                             "options": {"units": [{"army": "x"}]}})),
     None, "units row 1: missing column"),
]


@pytest.fixture
def files(tmp_path):
    def write(bad: bytes) -> Path:
        path = tmp_path / "games.jsonl"
        path.write_bytes(line() + b"\n" + bad + b"\n" + line() + b"\n")
        return path
    return write


def where(source: str, line: int, ply: int | None) -> str:
    return f"{source}, line {line}" + (f", ply {ply}" if ply is not None else "") + ": "


def test_at_least_forty_kinds_of_bad_record():
    assert len({case[0] for case in CASES}) == len(CASES) >= 40


@pytest.mark.parametrize("bad, ply, fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_line_is_named_and_the_good_ones_are_kept(files, bad, ply, fragment):
    path = files(bad)
    stream = records.read_records(path, replay=True)
    assert next(stream).line == 1  # the good line before it arrives whole
    with pytest.raises(RecordError) as info:
        next(stream)
    error = info.value
    assert (error.source, error.line, error.ply) == (str(path), 2, ply)
    assert str(error).startswith(where(str(path), 2, ply)) and fragment in str(error)
    assert "\n" not in str(error)

    found = records.read_records(path, replay=True, errors="collect")
    assert [r.line for r in found.records] == [1, 3]
    assert [str(e) for e in found.errors] == [str(error)]


@pytest.mark.parametrize("bad, ply, fragment", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_same_line_uploaded_gives_one_line(bad, ply, fragment):
    with pytest.raises(RecordError) as info:
        records.read_upload(bad + b"\n", "visitor.jsonl")
    message = str(info.value)
    assert message.startswith(where("visitor.jsonl", 1, ply)) and fragment in message
    assert "\n" not in message and "Traceback" not in message


def test_nesting_up_to_the_bound_is_fine():
    # the record is level 1, meta level 2: 30 more arrays make 32 levels, one more is too deep
    assert records.parse_json(GOOD_HEAD + ', "meta": {"x": ' + "[" * 30 + "]" * 30 + "}}")
    with pytest.raises(RecordError, match="nested more than 32 deep"):
        records.parse_json(GOOD_HEAD + ', "meta": {"x": ' + "[" * 31 + "]" * 31 + "}}")
    assert records.parse_json("7") == 7 and records.parse_json('"[[["') == "[[["


def test_collect_reports_every_bad_line_in_order(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join([line(), b"{", line(game="go"), line(), b"\xff\xfe", b"", line()]) + b"\n")
    found = records.read_records(path, replay=True, errors="collect")
    assert [r.line for r in found.records] == [1, 4, 7]
    assert [e.line for e in found.errors] == [2, 3, 5]
    assert records.load(path, errors="collect").errors[2].reason.startswith("not UTF-8")


def test_a_bad_byte_is_reported_on_its_own_line_far_into_the_file(tmp_path):
    # more than 8 KiB of good lines first: the old reader decoded in chunks and blamed line 1
    path = tmp_path / "big.jsonl"
    good_lines = [line()] * 40
    path.write_bytes(b"\n".join(good_lines) + b"\n" + b'{"format": "\xe9"}\n')
    assert path.stat().st_size > 8192
    stream = records.read_records(path)
    assert len([next(stream) for _ in range(40)]) == 40
    with pytest.raises(RecordError, match=r"line 41: not UTF-8 text \(byte 13 of the line"):
        next(stream)


def test_a_long_line_is_skipped_unread_and_reading_goes_on(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_bytes(line() + b"\n" + b'{"x": "' + b"y" * 5000 + b'"}\n' + line() + b"\n")
    found = records.read_records(path, errors="collect", max_line_bytes=2000)
    assert [r.line for r in found.records] == [1, 3]
    assert str(found.errors[0]) == f"{path}, line 2: line longer than 2000 bytes; not a record file?"


@pytest.mark.parametrize("content, fragment", [
    (b"", "no records: the file is empty"),
    (b"\n\n  \n", "no records: the file is empty"),
])
def test_empty_files(tmp_path, content, fragment):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=fragment) as info:
        list(records.read_records(path))
    assert info.value.source == str(path)


def test_a_byte_order_mark_is_not_content(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line() + b"\n")
    assert records.load(path)[0].game == "yokai-3x4"


def test_missing_file_and_directory(tmp_path):
    for target in (tmp_path / "nope.jsonl", tmp_path):
        found = records.read_records(target, errors="collect")
        assert found.records == [] and str(found.errors[0]).startswith(f"{target}: cannot open")


def test_a_device_is_not_read(tmp_path):
    for device in ("/dev/zero", "/dev/null"):
        with pytest.raises(RecordError, match=f"^{device}: not a regular file$"):
            records.load(device)
        with pytest.raises(RecordError, match=f"^{device}: not a regular file$"):
            list(records.read_records(device))


def test_errors_must_be_raise_or_collect():
    with pytest.raises(ValueError, match="'raise' or 'collect'"):
        records.read_records(io.StringIO(""), errors="ignore")


# --- the text form ---------------------------------------------------------------------------

@pytest.mark.parametrize("content, line_no, ply, fragment", [
    (b"game: yokai-3x4\nb1a2\n\xffa4a3\n", 3, None, "not UTF-8"),
    (b"game: go\nb1a2\n", 1, None, "unknown game 'go'"),
    (b"game: yokai-3x4\noptions: [3]\nb1a2\n", 2, None, "options: must be a JSON object"),
    (b"game: yokai-3x4\noptions: {oops}\n", 2, None, "options: not valid JSON"),
    (b'game: yokai-3x4\noptions: {"game_id": 1}\nb1a2\n', 2, None, "has no option 'game_id'"),
    (b'game: yokai-3x4\noptions: {"repetitions": 1, "repetitions": 3}\n', 2, None, "duplicate key"),
    (b'game: yokai-3x4\noptions: {"repetitions": ' + b"7" * 5000 + b"}\n", 2, None, "5000 characters"),
    (b"game: yokai-3x4\n# a comment\nb1a2\na4a3\nb2b4\n", 5, 2, "cannot step to b4"),
    (b'game: to-war\noptions: {"units": "/etc/passwd"}\n', 2, None, "must be the unit table itself"),
])
def test_text_form_errors_name_the_line(tmp_path, content, line_no, ply, fragment):
    path = tmp_path / "game.txt"
    path.write_bytes(content)
    with pytest.raises(RecordError) as info:
        records.read_text_game(path)
    assert str(info.value).startswith(where(str(path), line_no, ply)) and fragment in str(info.value)


def test_text_form_without_game_or_content(tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(b"b1a2\n")
    with pytest.raises(RecordError, match=r"game\.txt: no 'game: <id>' line"):
        records.read_text_game(path)
    path.write_bytes(b"# only a comment\n")
    with pytest.raises(RecordError, match="the file is empty"):
        records.read_text_game(path)


# --- uploads (issue #13 item 1) ------------------------------------------------------------------

@pytest.mark.parametrize("data, name, limits, start", [
    (b"x" * 101, "big.jsonl", {"max_bytes": 100},
     "big.jsonl: the file has 101 bytes; at most 100 are accepted"),
    (b"game: yokai-3x4\n\xc3\x28\n", "game.txt", {}, "game.txt, line 2: not UTF-8"),
    (b"game: yokai-3x4\nb1a2\nb2b4\n", "game.txt", {}, "game.txt, line 3, ply 1: "),
    (b"", "nothing.jsonl", {}, "nothing.jsonl: no records: the file is empty"),
    ("text, not bytes", "a.jsonl", {}, "a.jsonl: an upload must be bytes, not str"),
    (line() + b"\n" + b"y" * 2000 + b"\n", "long.jsonl", {"max_line_bytes": 1000},
     "long.jsonl, line 2: line longer than 1000 bytes"),
])
def test_upload_refusals(data, name, limits, start):
    with pytest.raises(RecordError) as info:
        records.read_upload(data, name, **limits)
    assert str(info.value).startswith(start) and "\n" not in str(info.value)


def test_an_upload_reads_both_forms_and_replays_them():
    two = line() + b"\n" + line() + b"\n"
    assert len(records.read_upload(two, "games.jsonl")) == 2
    text = records.to_text_game(Record.from_actions(YOKAI, LION_CAPTURE)).encode()
    (record,) = records.read_upload(text, "game.txt")
    assert [a.notation for a in record.actions] == LION_CAPTURE and record.source == "game.txt"


def test_the_upload_name_is_a_label_never_a_path():
    hostile = "../../etc/passwd\n<img src=x onerror=alert(1)>.jsonl"
    with pytest.raises(RecordError) as info:
        records.read_upload(b"[1]\n", hostile)
    message = str(info.value)
    assert "\n" not in message and "../" not in message  # only the last path part, on one line
    assert message.startswith("passwd\\x0a<img src=x onerror=alert(1)>.jsonl, line 1:")


def test_an_upload_with_too_many_actions_is_refused_before_replaying(monkeypatch):
    monkeypatch.setattr(records, "MAX_UPLOAD_ACTIONS", 10)
    replayed = []
    monkeypatch.setattr(Record, "replay", lambda self: replayed.append(self))
    data = line() + b"\n" + line() + b"\n" + line() + b"\n"  # 4 actions each
    with pytest.raises(RecordError) as info:
        records.read_upload(data, "many.jsonl")
    assert str(info.value) == ("many.jsonl, line 3: the file holds more than 10 actions in all; "
                               "replay fewer games at a time")
    assert replayed == []


def test_upload_limits_are_sensible_constants():
    assert records.MAX_UPLOAD_BYTES == 5 * 1024 * 1024
    assert records.MAX_UPLOAD_LINE_BYTES == 1024 * 1024
    with pytest.raises(RecordError, match="at most 5,242,880"):
        records.read_upload(b" " * (records.MAX_UPLOAD_BYTES + 1), "x.jsonl")


# --- the trust boundary: a record never names a file (issue #13 item 1) --------------------------

@pytest.fixture
def no_file_opened(monkeypatch):
    """Every way Python opens a file, watched: the list of what was opened."""
    rk.list_games()  # the game modules are imported before watching
    opened: list[str] = []

    def watch(real):
        def opener(target, *args, **kwargs):
            opened.append(str(target))
            return real(target, *args, **kwargs)
        return opener

    monkeypatch.setattr(builtins, "open", watch(builtins.open))
    monkeypatch.setattr(io, "open", watch(io.open))
    monkeypatch.setattr(os, "open", watch(os.open))
    for name in ("open", "read_text", "read_bytes"):
        real = getattr(Path, name)
        monkeypatch.setattr(Path, name, lambda self, *a, _real=real, **k: (opened.append(str(self)),
                                                                          _real(self, *a, **k))[1])
    return opened


PATHS = ["/etc/passwd", "/nonexistent/units.csv", "/dev/zero", "rules_kernel/data/to-war-units.csv"]


def units_line(units) -> bytes:
    data = {"format": records.FORMAT, "game": "to-war", "options": {"units": units}, "actions": []}
    return json.dumps(data).encode() + b"\n"


def test_a_units_path_is_refused_with_one_message_and_nothing_opened(no_file_opened):
    messages = set()
    for path in PATHS:
        with pytest.raises(RecordError) as info:
            records.read_upload(units_line(path), "visitor.jsonl")
        messages.add(str(info.value))
    assert messages == {"visitor.jsonl, line 1: option 'units' of to-war must be the unit table "
                        "itself (a JSON array of rows); a file name or path is not accepted in a "
                        "record or an upload"}
    assert no_file_opened == []
    # the watch works: local Python use still reads a path (and is seen doing so)
    with pytest.raises(rk.OptionError, match="cannot read"):
        rk.load_game("to-war", units=PATHS[1])
    assert no_file_opened and PATHS[1] in no_file_opened[0]


def test_a_units_path_in_a_python_record_or_text_form_is_refused_too(no_file_opened):
    for path in PATHS:
        with pytest.raises(RecordError, match="must be the unit table itself"):
            Record("to-war", {"units": path}, ()).replay()
        with pytest.raises(RecordError, match="must be the unit table itself"):
            records.read_upload(f'game: to-war\noptions: {{"units": "{path}"}}\n'.encode(), "g.txt")
        with pytest.raises(RecordError, match="must be the unit table itself"):
            records.check_options("to-war", {"units": Path(path)})
    assert no_file_opened == []


def test_records_carry_the_unit_table_inline_and_replay_anywhere(tmp_path):
    table = tmp_path / "my-units.csv"
    table.write_text(Path(rk.__file__).parent.joinpath("data", "to-war-units.csv").read_text())
    game = rk.load_game("to-war", units=table)  # local Python use: a path is fine
    _, actions = random_game(game, 3, cap=6)
    text = Record.from_actions(game, actions).to_json()
    table.unlink()  # the record does not need the file
    (again,) = records.read_upload(text.encode(), "to-war.jsonl")
    assert isinstance(again.options["units"], list) and again.options["units"] == game.options["units"]
    assert again.load_game() == game


def test_check_options_for_a_dashboard_box():
    assert records.check_options("yokai-3x4", {"repetitions": 4}) == {"repetitions": 4}
    with pytest.raises(RecordError, match="unknown game '<b>chess</b>'"):
        records.check_options("<b>chess</b>", {})
    with pytest.raises(RecordError, match="must be a JSON object"):
        records.check_options("yokai-3x4", [("repetitions", 3)])
