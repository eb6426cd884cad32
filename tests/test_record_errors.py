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
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.cli import main
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
    (
        "missing-format",
        raw(json.dumps({k: v for k, v in good().items() if k != "format"})),
        None,
        "missing field 'format'",
    ),
    (
        "missing-actions",
        raw(json.dumps({k: v for k, v in good().items() if k != "actions"})),
        None,
        "missing field 'actions'",
    ),
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
    (
        "move-marked-as-chance",
        line(actions=[{"chance": "b1a2"}]),
        0,
        "recorded as a chance outcome, but a move by player 0",
    ),
    ("chance-marked-as-move", war_stories(["deal:x"]), 0, "recorded as a move, but a chance outcome"),
    ("bad-chance-outcome", war_stories([{"chance": "deal:x"}]), 0, "deal"),
    ("moves-after-the-end", line(actions=LION_CAPTURE + ["c1c2"]), 4, "the game ended"),
    ("winner-contradicted", with_result(winner=0), None, "recorded winner 0 differs from the replayed one 1"),
    ("winners-contradicted", with_result(winners=[0]), None, "recorded winners [0] differ"),
    ("reason-contradicted", with_result(reason="resigned"), None, "recorded reason 'resigned' differs"),
    ("finished-but-goes-on", line(actions=LION_CAPTURE[:2]), None, "while the game goes on"),
    (
        "unfinished-but-ended",
        with_result(finished=False, winner=None, winners=[]),
        None,
        "did not finish, but the replay ends",
    ),
    (
        "unfinished-with-winner",
        line(actions=LION_CAPTURE[:2], result={"winner": 1, "finished": False}),
        None,
        "did not finish, yet names a winner",
    ),
    ("duplicate-key", raw(GOOD_HEAD + ', "game": "yokai-5x6"}'), None, "duplicate key 'game'"),
    (
        "duplicate-nested-key",
        line(options={"repetitions": 3}).replace(b'"repetitions": 3', b'"repetitions": 3, "repetitions": 4'),
        None,
        "duplicate key 'repetitions'",
    ),
    ("nesting-100k-deep", b"[" * 100_000 + b"]" * 100_000, None, "nested more than 32 deep"),
    (
        "nesting-in-meta",
        raw(GOOD_HEAD + ', "meta": {"x": ' + "[" * 40 + "]" * 40 + "}}"),
        None,
        "nested more than 32 deep",
    ),
    (
        "5000-digit-number",
        raw(GOOD_HEAD + ', "meta": {"n": ' + "9" * 5000 + "}}"),
        None,
        "a number of 5000 characters",
    ),
    (
        "41-digit-number",
        raw(GOOD_HEAD + ', "meta": {"n": ' + "1" * 41 + "}}"),
        None,
        "a number of 41 characters",
    ),
    (
        "long-float",
        raw(GOOD_HEAD + ', "meta": {"x": 0.' + "1" * 60 + "}}"),
        None,
        "a number of 62 characters",
    ),
    ("NaN", raw(GOOD_HEAD + ', "meta": {"x": NaN}}'), None, "NaN is not a JSON number"),
    ("Infinity", raw(GOOD_HEAD + ', "meta": {"x": -Infinity}}'), None, "-Infinity is not a JSON number"),
    ("lone-surrogate", raw(GOOD_HEAD + ', "meta": {"x": "\\ud800"}}'), None, "unpaired UTF-16 surrogate"),
    ("bad-utf8-byte", json.dumps(good()).encode().replace(b"Ann", b"A\xffn"), None, "not UTF-8"),
    (
        "units-a-path",
        raw(json.dumps({**good(), "game": "to-war", "options": {"units": "/etc/passwd"}})),
        None,
        "must be the table itself",
    ),
    (
        "units-inline-bad-row",
        raw(json.dumps({**good(), "game": "to-war", "actions": [], "options": {"units": [{"army": "x"}]}})),
        None,
        "units row 1: missing column",
    ),
    # issue #20 item 5: every field's type is checked before use (JSON's 4.0 is a float, true
    # a boolean: War Chest's own check let 4.0 through, and the replay crashed with TypeError)
    (
        "option-float-for-a-whole-number",
        line(game="war-chest", options={"players": 4.0}, actions=[]),
        None,
        "option 'players' of war-chest must be a whole number, not 4.0",
    ),
    (
        "option-boolean-for-a-whole-number",
        line(game="war-chest", options={"players": True}, actions=[]),
        None,
        "option 'players' of war-chest must be a whole number, not true",
    ),
    (
        "option-float-repetitions",
        line(options={"repetitions": 3.0}),
        None,
        "option 'repetitions' of yokai-3x4 must be a whole number, not 3.0",
    ),
    # non-finite numbers are refused on read (1e400 was read as Infinity, and written back so)
    (
        "number-beyond-float",
        raw(GOOD_HEAD + ', "meta": {"x": 1e400}}'),
        None,
        "the number 1e400 is too large (it would be infinite)",
    ),
    (
        "negative-number-beyond-float",
        raw(GOOD_HEAD + ', "meta": {"x": -1e400}}'),
        None,
        "the number -1e400 is too large",
    ),
    # control characters other than tab (a form feed line was skipped as blank)
    ("form-feed-line", b"\x0c", None, "a form feed at column 1; no control characters but tab"),
    ("vertical-tab-between-fields", raw(GOOD_HEAD + ',\x0b"meta": {}}'), None, "a vertical tab at column"),
    ("nul-byte", raw(GOOD_HEAD + ', "meta": {}}\x00'), None, "a NUL byte at column"),
    ("carriage-return-inside", raw(GOOD_HEAD + ',\r"meta": {}}'), None, "a carriage return inside the line"),
    (
        "line-separator-in-a-string",
        raw(GOOD_HEAD + ', "meta": {"x": "a\u2028b"}}'),
        None,
        "a line separator (U+2028) at column",
    ),
    (
        "next-line-in-a-string",
        raw(GOOD_HEAD + ', "meta": {"x": "a\x85b"}}'),
        None,
        "a next-line character (U+0085) at column",
    ),
    (
        "escape-character",
        raw(GOOD_HEAD + ', "meta": {"x": "\x1b[31m"}}'),
        None,
        "an escape character at column",
    ),
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
def test_the_one_reader_names_the_bad_line_alike_from_a_path_bytes_or_text(files, bad, ply, fragment):
    """records.read (issue 45 item 6: told a path, data= or text=) gives the streaming reader's
    error for every bad line, and collects the same good records and errors."""
    path = files(bad)
    expected = records.read_records(path, replay=True, errors="collect")
    (error,) = expected.errors
    content = path.read_bytes()
    calls = [(lambda **kw: records.read(path, **kw), str(path))]
    calls.append((lambda **kw: records.read(data=content, name="up.jsonl", **kw), "up.jsonl"))
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        text = None  # a line of bad bytes has no text form: data= only
    if text is not None:
        calls.append((lambda **kw: records.read(text=text, name="up.jsonl", **kw), "up.jsonl"))
    for call, label in calls:
        with pytest.raises(RecordError) as info:
            call()
        assert str(info.value) == str(error).replace(str(path), label, 1)
        found = call(errors="collect")
        assert found.records == expected.records
        assert [str(e) for e in found.errors] == [str(error).replace(str(path), label, 1)]


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


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"", "no records: the file is empty"),
        (b"\n\n  \n", "no records: the file is empty"),
    ],
)
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


def test_missing_file(tmp_path):
    target = tmp_path / "nope.jsonl"
    found = records.read_records(target, errors="collect")
    assert found.records == [] and [str(e) for e in found.errors] == [
        f"{target}: cannot open: No such file or directory"
    ]


def test_errors_must_be_raise_or_collect():
    with pytest.raises(ValueError, match="'raise' or 'collect'"):
        records.read_records(io.StringIO(""), errors="ignore")


# --- the text form ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content, line_no, ply, fragment",
    [
        (b"game: yokai-3x4\nb1a2\n\xffa4a3\n", 3, None, "not UTF-8"),
        (b"game: go\nb1a2\n", 1, None, "unknown game 'go'"),
        (b"game: yokai-3x4\noptions: [3]\nb1a2\n", 2, None, "options: must be a JSON object"),
        (b"game: yokai-3x4\noptions: {oops}\n", 2, None, "options: not valid JSON"),
        (b'game: yokai-3x4\noptions: {"game_id": 1}\nb1a2\n', 2, None, "has no option 'game_id'"),
        (b'game: yokai-3x4\noptions: {"repetitions": 1, "repetitions": 3}\n', 2, None, "duplicate key"),
        (b'game: yokai-3x4\noptions: {"repetitions": ' + b"7" * 5000 + b"}\n", 2, None, "5000 characters"),
        (b"game: yokai-3x4\n# a comment\nb1a2\na4a3\nb2b4\n", 5, 2, "cannot step to b4"),
        (b'game: to-war\noptions: {"units": "/etc/passwd"}\n', 2, None, "must be the table itself"),
    ],
)
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


@pytest.mark.parametrize(
    "data, name, limits, start",
    [
        (
            b"x" * 101,
            "big.jsonl",
            {"max_bytes": 100},
            "big.jsonl: the file has 101 bytes; at most 100 are accepted",
        ),
        (b"game: yokai-3x4\n\xc3\x28\n", "game.txt", {}, "game.txt, line 2: not UTF-8"),
        (b"game: yokai-3x4\nb1a2\nb2b4\n", "game.txt", {}, "game.txt, line 3, ply 1: "),
        (b"", "nothing.jsonl", {}, "nothing.jsonl: no records: the file is empty"),
        ("text, not bytes", "a.jsonl", {}, "a.jsonl: an upload must be bytes, not str"),
        (
            line() + b"\n" + b"y" * 2000 + b"\n",
            "long.jsonl",
            {"max_line_bytes": 1000},
            "long.jsonl, line 2: line longer than 1000 bytes",
        ),
    ],
)
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
    assert str(info.value) == (
        "many.jsonl, line 3: the file holds more than 10 actions in all; replay fewer games at a time"
    )
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
        monkeypatch.setattr(
            Path, name, lambda self, *a, _real=real, **k: (opened.append(str(self)), _real(self, *a, **k))[1]
        )
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
    assert messages == {
        "visitor.jsonl, line 1: option 'units' of to-war must be the table itself (a JSON "
        "array of rows); a file name or path is not accepted in a record or an upload"
    }
    assert no_file_opened == []
    # the watch works: local Python use still reads a path (and is seen doing so)
    table = Path(rk.__file__).parent / "data" / "to-war-units.csv"
    assert rk.load_game("to-war", units=str(table)).options["units"]
    assert any(str(table) in opened for opened in no_file_opened)


def test_a_units_path_in_a_python_record_or_text_form_is_refused_too(no_file_opened):
    for path in PATHS:
        with pytest.raises(RecordError, match="must be the table itself"):
            Record("to-war", {"units": path}, ()).replay()
        with pytest.raises(RecordError, match="must be the table itself"):
            records.read_upload(f'game: to-war\noptions: {{"units": "{path}"}}\n'.encode(), "g.txt")
        with pytest.raises(RecordError, match="must be the table itself"):
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


# --- issue #20 item 5: found by an attacker / a new user -----------------------------------------


def test_non_finite_numbers_are_never_written(tmp_path):
    """Issue #20 item 5: `write_records` wrote Infinity, which its own reader refuses."""
    path = tmp_path / "out.jsonl"
    record = Record.from_actions(YOKAI, LION_CAPTURE)
    bad = Record(
        record.game,
        record.options,
        record.actions,
        result=record.result,
        meta={"run": {"scores": [1.5, float("inf")]}},
    )
    with pytest.raises(RecordError) as info:
        records.write_records(path, [record, bad])
    assert str(info.value) == (
        f"{path}: cannot be written: meta.run.scores[1] (inf) is not a finite "
        "number (JSON has no NaN or Infinity; give a finite number or null)"
    )
    assert path.read_bytes() == record.to_json().encode() + b"\n"  # the good record, no torn line
    with pytest.raises(RecordError, match=r"meta.x \(nan\) is not a finite number"):
        Record("yokai-3x4", {}, (), meta={"x": float("nan")}).to_json()
    with pytest.raises(RecordError, match=r"options.repetitions \(inf\) is not a finite number"):
        records.to_text_game(Record("yokai-3x4", {"repetitions": float("inf")}, ()))


def test_what_the_writer_writes_the_reader_reads(tmp_path):
    """Characters the reader refuses raw (C1 controls, U+2028/9, DEL) are written escaped."""
    meta = {"name": "a\u2028b\u2029c\x85d\x7fe\x9f", "tab": "x\ty", "note": "é ☃ \U0001f600"}
    record = Record.from_actions(YOKAI, LION_CAPTURE, meta=meta)
    line = record.to_json()
    assert "\\u2028" in line and "\\u0085" in line and "\u2028" not in line and "é ☃" in line
    path = tmp_path / "esc.jsonl"
    records.write_records(path, [record])
    (again,) = records.read_records(path, replay=True)
    assert again.meta == meta


def fifo(tmp_path) -> Path:
    path = tmp_path / "pipe.jsonl"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind", ["named pipe", "character device", "directory"])
def test_a_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    """Issue #20 item 5: a named pipe given to `replay` hung (open waits for a writer); a
    device or a directory is no record file either. Refused at once, by every reader."""
    target = {
        "named pipe": lambda: fifo(tmp_path),
        "character device": lambda: Path("/dev/zero"),
        "directory": lambda: tmp_path,
    }[kind]()
    expected = f"{target}: not a regular file (a {kind}); give a record file"
    for read in (
        lambda: list(records.read_records(target)),
        lambda: records.load(target),
        lambda: records.read_text_game(target),
        lambda: list(records.scan_records(target))[0],
    ):
        try:
            found = read()
        except RecordError as exc:
            found = exc
        assert str(found) == expected
    assert [str(e) for e in records.read_records(target, errors="collect").errors] == [expected]


@pytest.mark.parametrize(
    "kind, name",
    [
        ("named pipe", "pipe.jsonl"),
        ("named pipe", "pipe.txt"),
        ("character device", "/dev/null"),
        ("directory", ""),
    ],
)
def test_the_command_refuses_a_path_that_is_not_a_regular_file(tmp_path, kind, name):
    if kind == "named pipe":
        target = tmp_path / name
        os.mkfifo(target)
    else:
        target = Path(name) if name else tmp_path
    done = subprocess.run(
        [sys.executable, "-m", "rules_kernel.cli", "replay", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
    )  # the old code never returned
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"rules-explorer: error: {target}: not a regular file (a {kind}); give a record file"
    ]


def test_the_text_form_is_streamed(tmp_path):
    """Issue #20 item 5: 100 MB of newlines in the text form ended in a MemoryError (every
    line was kept); JSON Lines streamed. Blank and comment lines are now read past."""
    path = tmp_path / "blank.txt"
    path.write_bytes(b"game: yokai-3x4\n" + b"\n" * 40_000 + b"# c\n" * 10_000 + b"b2b3\n")
    tracemalloc.start()
    try:
        record = records.read_text_game(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [a.notation for a in record.actions] == ["b2b3"]
    assert peak < 512 * 1024, f"{peak:,} bytes for 50,000 blank lines: are lines kept?"  # was 4.7 MB


def test_the_text_form_has_the_limits_of_json_lines(tmp_path, monkeypatch):
    """A text-form game is bounded as one JSON Lines record is: each line, and its action
    lines in all, at most max_line_bytes; an upload at most MAX_UPLOAD_ACTIONS actions,
    refused before any is replayed."""
    path = tmp_path / "game.txt"
    path.write_bytes(b"game: yokai-3x4\n" + b"b2b3   \n" + b"x" * 300 + b"\n")
    with pytest.raises(RecordError, match=r"game\.txt, line 3: line longer than 100 bytes"):
        records.read_text_game(path, max_line_bytes=100)
    path.write_bytes(b"game: yokai-3x4\n" + b"b1a2\na4a3\n" * 20)
    with pytest.raises(RecordError) as info:
        records.read_text_game(path, max_line_bytes=50)
    assert str(info.value) == (
        f"{path}, line 12: the game's action lines hold more than 50 bytes, the most one record may hold"
    )
    monkeypatch.setattr(records, "MAX_UPLOAD_ACTIONS", 3)
    replayed = []
    monkeypatch.setattr(Record, "check", lambda self: replayed.append(self))
    with pytest.raises(RecordError) as info:
        records.read_upload(b"game: yokai-3x4\n# four moves\nb1a2\na4a3\na2a3\nb4a3\n", "g.txt")
    assert str(info.value) == "g.txt, line 6: the game has more than 3 actions; replay fewer at a time"
    assert replayed == []


@pytest.mark.parametrize(
    "char, name",
    [
        ("\x0c", "a form feed"),
        ("\x0b", "a vertical tab"),
        ("\x1c", "a control character (U+001C)"),
        ("\x1d", "a control character (U+001D)"),
        ("\x1e", "a control character (U+001E)"),
        ("\x85", "a next-line character (U+0085)"),
        ("\u2028", "a line separator (U+2028)"),
        ("\u2029", "a paragraph separator (U+2029)"),
        ("\x00", "a NUL byte"),
        ("\x7f", "a delete character"),
        ("\r", "a carriage return inside the line"),
    ],
)
def test_control_characters_are_refused_with_their_line(tmp_path, char, name):
    """Issue #20 item 5: a line holding a form feed or a vertical tab was skipped silently
    (str.splitlines and str.strip treat them, \\x1c-\\x1e, \\x85, U+2028/9 as line breaks or
    blanks). Lines are split at '\\n' only; any control character but tab is an error."""
    path = tmp_path / "game.txt"
    path.write_bytes(f"game: yokai-3x4\nb1a2\n{char}a4a3\n".encode())
    with pytest.raises(RecordError) as info:
        records.read_text_game(path)
    assert str(info.value) == (
        f"{path}, line 3: {name} at column 1; no control characters but tab may stand in a line"
    )
    path.write_bytes(f"game: yokai-3x4\nb1a2  # Ann{char}s move\n".encode())
    with pytest.raises(RecordError, match=rf"line 2: {re.escape(name)} at column 12;"):
        records.read_text_game(path)
    with pytest.raises(RecordError, match=rf"^up\.jsonl, line 2: {re.escape(name)} at column 1;"):
        records.read_upload(line() + b"\n" + char.encode() + line() + b"\n", "up.jsonl")


def test_tabs_and_crlf_line_ends_are_fine(tmp_path):
    path = tmp_path / "game.txt"
    path.write_bytes(b"game:\tyokai-3x4\r\nb1a2\t# a tab\r\n\t\r\na4a3\r\n")
    assert [a.notation for a in records.read_text_game(path).actions] == ["b1a2", "a4a3"]
    path = tmp_path / "crlf.jsonl"
    path.write_bytes(line() + b"\r\n\t \r\n" + line() + b"\r\n")
    assert [r.line for r in records.read_records(path, replay=True)] == [1, 3]


@pytest.mark.parametrize(
    "encoding, named",
    [
        ("utf-16", "UTF-16 LE (it starts with a UTF-16 LE byte order mark)"),
        ("utf-16-be-bom", "UTF-16 BE (it starts with a UTF-16 BE byte order mark)"),
        ("utf-32", "UTF-32 LE (it starts with a UTF-32 LE byte order mark)"),
        ("utf-32-be-bom", "UTF-32 BE (it starts with a UTF-32 BE byte order mark)"),
        ("utf-16-le", "UTF-16 LE (text with a zero byte after each character; no byte order mark)"),
        ("utf-16-be", "UTF-16 BE (text with a zero byte before each character; no byte order mark)"),
    ],
)
def test_a_utf16_or_utf32_file_is_named_as_such_in_one_error(tmp_path, encoding, named):
    """Issue #20 item 5: a UTF-16 file gave two errors (a bad byte, then 'line 2 not valid
    JSON'); it is one error saying what the file is."""
    text = line().decode() + "\n" + line().decode() + "\n"
    if encoding.endswith("-bom"):
        data = "\ufeff".encode(encoding.removesuffix("-bom")) + text.encode(encoding.removesuffix("-bom"))
    else:
        data = text.encode(encoding)
    message = f"line 1: this file is {named}; save it as UTF-8"
    path = tmp_path / "wide.jsonl"
    path.write_bytes(data)
    found = records.read_records(path, replay=True, errors="collect")
    assert found.records == [] and [str(e) for e in found.errors] == [f"{path}, {message}"]
    path = tmp_path / "wide.txt"
    path.write_bytes(data)
    with pytest.raises(RecordError, match=f"^{re.escape(str(path))}, {re.escape(message)}$"):
        records.read_text_game(path)
    with pytest.raises(RecordError, match=f"^up.jsonl, {re.escape(message)}$"):
        records.read_upload(data, "up.jsonl")


# arbitrary JSON values, with the ones that once crashed a reader: floats for whole numbers,
# booleans for numbers, huge numbers, empty containers, strings where objects are due
ODD = st.sampled_from(
    [
        4.0,
        2.0,
        3.0,
        True,
        False,
        1e300,
        -1,
        0,
        10**30,
        "",
        "x",
        "/dev/zero",
        [],
        {},
        None,
        [1.0],
        [{}],
        [None],
        ["Archer"] * 4,
        [["Archer"] * 4] * 2,
    ]
)
JSON = st.recursive(
    ODD
    | st.none()
    | st.booleans()
    | st.integers(-(10**9), 10**9)
    | st.text(max_size=6)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
OPTION_NAMES = sorted({n for g in rk.list_games() for n in rk.game_class(g).OPTIONS}) + ["x", "game_id"]
NOTATIONS = ["b1a2", "a4a3", "a2a3", "b4a3", "b2b3", "deal:x", "", "zz", "a1a1"]
ACTION = st.sampled_from(NOTATIONS) | st.builds(lambda n: {"chance": n}, st.sampled_from(NOTATIONS)) | JSON
GAME_ID = st.sampled_from(rk.list_games())
RECORD_LIKE = st.fixed_dictionaries(
    {
        "format": st.just(records.FORMAT) | JSON,
        "game": GAME_ID | JSON,
        "options": st.dictionaries(st.sampled_from(OPTION_NAMES), JSON, max_size=3) | JSON,
        "actions": st.lists(ACTION, max_size=5) | JSON,
    },
    optional={
        "players": JSON,
        "meta": JSON,
        "result": st.fixed_dictionaries(
            {}, optional={k: JSON for k in ("winner", "reason", "winners", "finished")}
        )
        | JSON,
    },
)
JSON_LINE = st.builds(lambda d: json.dumps(d).encode(), RECORD_LIKE)
TEXT_LINE = (
    st.builds(lambda g: f"game: {g}".encode(), GAME_ID | st.text(max_size=8))
    | st.builds(
        lambda o: b"options: " + json.dumps(o).encode(),
        st.dictionaries(st.sampled_from(OPTION_NAMES), JSON, max_size=2) | JSON,
    )
    | st.sampled_from(NOTATIONS).map(str.encode)
    | st.just(b"# c")
)
SEPARATOR = st.sampled_from([b"\n", b"\r\n", b"\x0c", b"\x0b", b"\r", b"\x85", "\u2028".encode(), b"\x00"])


@st.composite
def record_files(draw) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from([".jsonl", ".txt"]))
    part = st.binary(max_size=40) | (JSON_LINE if suffix == ".jsonl" else TEXT_LINE)
    parts = draw(st.lists(part, max_size=5))
    seps = draw(st.lists(SEPARATOR, min_size=len(parts), max_size=len(parts)))
    head = draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00"]))
    return suffix, head + b"".join(p + s for p, s in zip(parts, seps, strict=True))


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(record_files())
@example((".jsonl", line(game="war-chest", options={"players": 4.0}, actions=[]) + b"\n"))
@example((".txt", b'game: war-chest\noptions: {"players": 4.0}\n'))
@example((".jsonl", raw(GOOD_HEAD + ', "meta": {"x": 1e400}}\n')))
def test_replay_never_gives_an_internal_error(tmp_path, file):
    """Issue #20 item 5: `rules-explorer replay` on any bytes ends with status 0 or 2 and one
    line per error, never an internal error or a traceback (War Chest's "players": 4.0 once
    stopped the whole file with "internal error (TypeError ...)")."""
    suffix, data = file
    path = tmp_path / f"game{suffix}"  # the same file for every example: written afresh
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", str(path)])
    errors = err.getvalue().splitlines()
    assert status in (0, 2) and (status == 2) == bool(errors), err.getvalue()
    for message in errors:
        assert message.startswith(f"rules-explorer: error: {path}"), message
        assert "internal error" not in message and "Traceback" not in message
    assert f"{len(errors)} error(s) reported above" in out.getvalue() or status == 0
