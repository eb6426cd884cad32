"""The record format (DESIGN.md "Records"): round trips, streaming, and bad input."""

from __future__ import annotations

import io
import itertools
import json
import random
import warnings
from pathlib import Path

import pytest

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.records import Record, RecordError

GAME = rk.load_game("yokai-3x4")
LION_CAPTURE = ["b1a2", "a4a3", "a2a3", "b4a3"]


def good_record(**meta) -> Record:
    return Record.from_actions(
        GAME, LION_CAPTURE, players=["Ann", {"name": "Bo", "agent": "random"}], meta=meta
    )


def test_a_record_holds_the_game_and_its_result():
    record = good_record(event="club night")
    data = json.loads(record.to_json())
    assert data["format"] == "rules-explorer/1"
    assert data["game"] == "yokai-3x4" and data["options"] == {"repetitions": 3}
    assert data["actions"] == LION_CAPTURE
    assert data["players"] == [{"name": "Ann"}, {"name": "Bo", "agent": "random"}]
    assert data["result"] == {
        "winner": 1,
        "reason": "the Koropokkuru was captured",
        "winners": [1],
        "finished": True,
    }
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


@pytest.mark.parametrize(
    "change, message",
    [
        ({"actions": "b1a2 a4a3"}, "field 'actions' must be a JSON array"),
        ({"options": []}, "field 'options' must be a JSON object"),
        ({"game": 3}, "field 'game' must be a JSON string"),
        ({"actions": ["b1a2", 7]}, "action 7 must be a notation string"),
        ({"format": "rules-explorer/9"}, "format 'rules-explorer/9'"),
        ({"result": {"winner": "Ann"}}, "winner must be an integer"),
        ({"players": [3]}, "a player must be a name or an object"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
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
    binary.write_bytes(b"\xc3\x28garbage\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        list(records.read_records(binary))


def test_the_text_form(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("# a short game\ngame: yokai-3x4\n\nb1a2\na4a3  # the Tanuki steps\na2a3\nb4a3\n")
    record = records.read_text_game(path)
    assert [a.notation for a in record.actions] == LION_CAPTURE
    assert record.final_state().outcome().winner == 1
    assert (
        records.read_text_game(io.StringIO(records.to_text_game(good_record()))).actions
        == good_record().actions
    )
    path.write_text("game: yokai-3x4\nb1a2\na4a3\nb2b4\n")
    with pytest.raises(RecordError) as info:
        records.read_text_game(path)
    assert (info.value.line, info.value.ply) == (4, 2)
    path.write_text("b1a2\n")
    with pytest.raises(RecordError, match="no 'game: <id>' line"):
        records.read_text_game(path)
    assert records.read_text_game(io.StringIO("b2b3\n"), game=GAME).actions[0].notation == "b2b3"


# --- long games, checked without holding every state (issue #20 item 5) -------------------------


def long_yokai(plies: int) -> tuple[Record, list]:
    """A Yokai game of `plies` random moves that avoid ending (a huge repetition limit)."""
    game = rk.load_game("yokai-3x4", repetitions=10**6)
    rng = random.Random(2)
    state, actions = game.initial_state(), []
    while len(actions) < plies:
        moves = state.legal_moves()
        rng.shuffle(moves)
        following = next(s for s in map(state.apply, moves) if not s.is_terminal())
        actions.append(following.last_move)
        state = following
    return Record.from_actions(game, actions), actions


def test_check_and_checkpoints_check_what_replay_checks():
    record, _ = long_yokai(150)
    states = record.replay()
    assert record.check() == states[-1]
    assert record.checkpoints(64) == states[::64] and len(record.checkpoints(64)) == 3
    assert record.checkpoints(1) == states
    illegal = Record(record.game, record.options, record.actions[:100] + (records.RecordedAction("a1a1"),))
    wrong_result = Record(
        record.game,
        record.options,
        record.actions,
        result={"winner": 0, "reason": "x", "winners": [0], "finished": True},
    )
    for bad_record, says in ((illegal, "ply 100: "), (wrong_result, "while the game goes on")):
        for method in (bad_record.replay, bad_record.check, bad_record.checkpoints):
            with pytest.raises(RecordError, match=says):
                method()
    with pytest.raises(ValueError, match="at least 1"):
        record.checkpoints(0)


def test_the_replay_widget_keeps_checkpoints_not_every_state():
    """Issue #20 item 5: a 100,000-action upload took the kernel to 852 MiB: the Replay widget
    kept every state and scene. Its session keeps a checkpoint every 64 plies and the 256
    states last computed, and replays forward."""
    import widgets
    from rules_kernel import session as session_module
    from widgets.presentation import move_lines

    record, actions = long_yokai(300)
    states = record.replay()
    rp = widgets.Replay(record)
    assert len(rp.states) == len(rp.scenes) == 301 and rp.slider.max == 300
    checkpoints = [node.ply for node in rp.session.main_line() if node._state is not None]
    assert checkpoints == [0, 64, 128, 192, 256]
    for ply in (0, 63, 64, 65, 255, 256, 299, 300, 150, -1):
        assert rp.states[ply] == states[ply]
    assert rp.states[10:13] == states[10:13]
    rp.jump(200)
    assert rp.board.scene == states[200].scene() and rp.session.ply == 200
    assert len(rp.session._store.recent) <= session_module.RECENT_STATES
    # the move list holds the plies around the one on show, as the whole list would say them
    every_line = ["start"] + [str(line) for line in move_lines(states, actions, None)]
    assert rp.moves.options == tuple(every_line[129:301])
    assert rp.moves.options[rp.moves.index].startswith("200. ")
    assert "moves 129–300 of 300" in rp.window_note.value
    rp.moves.index = 0  # a click on the first entry
    assert rp.slider.value == 129 and rp.board.scene == states[129].scene()
    rp.jump(3)
    assert rp.moves.options == tuple(every_line[:129]) and rp.moves.index == 3
    rp.slider.value = 64
    assert rp.moves.options == tuple(every_line[:193]) and rp.moves.index == 64


def test_an_uploaded_game_is_replayed_once_and_every_record_is_checked(monkeypatch):
    """The Replay widget builds the session of the game it shows while `read_upload` checks
    it (`check=`), so an upload at the action limit is replayed once, not twice; the other
    records of the upload are checked all the same."""
    from datetime import datetime, timezone

    import widgets
    from rules_kernel.session import Session

    record, _ = long_yokai(130)
    other = good_record()
    replayed: list[int] = []
    real = Record._states
    monkeypatch.setattr(Record, "_states", lambda self: (replayed.append(len(self.actions)), real(self))[1])
    real_session = Session.from_record.__func__
    monkeypatch.setattr(
        Session,
        "from_record",
        classmethod(lambda cls, r, **kw: (replayed.append(-len(r.actions)), real_session(cls, r, **kw))[1]),
    )
    rp = widgets.Replay(upload=True)
    rp.record_index.value = 1
    data = "\n".join(r.to_json() for r in (other, record, other)).encode()
    rp.upload.value = (
        {
            "name": "three.jsonl",
            "type": "",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": datetime.now(timezone.utc),
        },
    )
    assert rp.slider.max == 130 and "Yōkai no Mori 3x4" in rp.info.value
    assert [node.ply for node in rp.session.main_line() if node._state is not None] == [0, 64, 128]
    # each record once, in order (the game shown as its session: -130); showing plies replays blocks only
    assert replayed == [4, -130, 4]
    bad = data.replace(b'"b4a3"]', b'"b4b1"]', 1)  # the first record's last move made illegal
    rp.upload.value = (
        {
            "name": "bad.jsonl",
            "type": "",
            "size": len(bad),
            "content": memoryview(bad),
            "last_modified": datetime.now(timezone.utc),
        },
    )
    assert 'role="alert"' in rp.info.value and "bad.jsonl, line 1, ply 3" in rp.info.value
    assert rp.slider.max == 130  # the game on show stays


# --- a record from any position: `start` (issue #22 item 9) -------------------------------------

#: every game with a position text
POSITION_GAMES = ["yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"]


def random_action(state: rk.State, rng: random.Random) -> rk.Action:
    return state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())


def mid_game(game_id: str, plies: int = 9, seed: int = 4) -> rk.State:
    """A state `plies` random actions in (chance resolved by the same generator), whose
    position text reads back as the same state."""
    state, rng = rk.load_game(game_id).initial_state(), random.Random(seed)
    for _ in range(plies):
        state = state.apply(random_action(state, rng))
    assert not state.is_terminal() and state.game.from_text(state.to_text()) == state
    return state


def played_from(start: rk.State, plies: int = 6, seed: int = 5) -> list[rk.Action]:
    state, rng, actions = start, random.Random(seed), []
    while len(actions) < plies and not state.is_terminal():
        action = random_action(state, rng)
        actions.append(action)
        state = state.apply(action)
    return actions


@pytest.mark.parametrize("game_id", POSITION_GAMES)
def test_a_record_may_start_from_any_position(game_id):
    start = mid_game(game_id)
    game = start.game
    actions = played_from(start)
    record = Record.from_actions(game, actions, players=game.player_names, start=start)
    assert record.start == start.to_text()
    line = record.to_json()
    data = json.loads(line)
    assert list(data)[:4] == ["format", "game", "options", "start"] and data["start"] == start.to_text()
    read = records.loads(line + "\n")[0]
    assert read == record and read.to_json() == line
    states = read.replay()
    assert states[0] == start and read.start_state() == start
    expected = [start]
    for action in actions:
        expected.append(expected[-1].apply(action))
    assert states == expected and read.check() == expected[-1]
    assert list(records.read_records(io.StringIO(line + "\n"), replay=True)) == [record]
    assert records.read_upload((line + "\n").encode(), "up.jsonl") == [record]
    assert Record.from_states(expected, actions, players=game.player_names) == record
    # the one-game text form carries it as a `start:` line
    text = records.to_text_game(record)
    assert f"\nstart: {start.to_text()}\n" in text
    again = records.read_text_game(io.StringIO(text))
    assert again.start == record.start and again.actions == record.actions and again.replay() == states


def test_a_record_from_the_initial_position_has_no_start():
    for start in (GAME.initial_state(), GAME.initial_state().to_text()):
        record = Record.from_actions(GAME, LION_CAPTURE, start=start)
        assert record.start is None and "start" not in json.loads(record.to_json())
        assert record == Record.from_actions(GAME, LION_CAPTURE)
        assert "start:" not in records.to_text_game(record)
    with pytest.raises(RecordError, match="not of load_game"):
        Record.from_actions(GAME, [], start=rk.load_game("yokai-5x6").initial_state())


@pytest.mark.parametrize("path", sorted((Path(__file__).parent.parent / "data").glob("*.jsonl")), ids=str)
def test_records_without_a_start_are_written_again_byte_for_byte(path):
    with path.open(encoding="utf-8") as lines:
        for line in itertools.islice(lines, 3):
            record = Record.from_json(line.rstrip("\n"))
            assert record.start is None and record.to_json() == line.rstrip("\n")


START_LINE = Record.from_actions(GAME, ["a2a3"], start=GAME.initial_state().play("b1a2", "a4a3")).to_json()
OTHER_POSITION = rk.load_game("yokai-5x6").initial_state().to_text()


@pytest.mark.parametrize(
    "start, message",
    [
        (1, "field 'start' must be a JSON string, not a number"),
        (None, "field 'start' must be a JSON string, not null"),
        (["gle/1c1/1C1/ELG[] w - - 0 1"], "field 'start' must be a JSON string, not an array"),
        ({"path": "/etc/passwd"}, "field 'start' must be a JSON string, not an object"),
        ("", "field 'start' is not a yokai-3x4 position"),
        ("not a position", "field 'start' is not a yokai-3x4 position"),
        ("/etc/passwd", "field 'start' is not a yokai-3x4 position"),
        (OTHER_POSITION, "field 'start' is not a yokai-3x4 position: .*6 ranks"),
        (mid_game("war-chest").to_text(), "field 'start' is not a yokai-3x4 position"),
        (
            "gle/1c1/1C1/ELG[] w - - 0 1\nb1a2",
            r"field 'start' holds a control character \(U\+000A\) at column 28",
        ),
        ("gle/1c1/1C1/ELG[] w - - 0 1\u2028", r"field 'start' holds a control character \(U\+2028\)"),
        ("x" * (records.MAX_START_CHARS + 1), "field 'start' holds 16,385 characters; .* at most 16,384"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else type(v).__name__,
)
def test_a_bad_start_is_refused_naming_the_field(start, message, tmp_path):
    data = json.loads(START_LINE)
    data["start"] = start
    line = json.dumps(data)
    with pytest.raises(RecordError, match=f"^games.jsonl, line 3: {message}"):
        Record.from_json(line, source="games.jsonl", line=3)
    path = tmp_path / "games.jsonl"
    path.write_text(START_LINE + "\n" + line + "\n" + START_LINE + "\n")
    found = records.read_records(path, errors="collect")  # read, not replayed: refused all the same
    assert len(found.records) == 2 and [e.line for e in found.errors] == [2]
    assert "field 'start'" in str(found.errors[0])
    with pytest.raises(RecordError, match="^up.jsonl, line 1: .*field 'start'"):
        records.read_upload((line + "\n").encode(), "up.jsonl")
    if isinstance(start, str):  # a Record built in Python is checked when replayed
        with pytest.raises(RecordError, match="field 'start'"):
            Record("yokai-3x4", {}, (), start=start).replay()


def test_a_bad_start_in_the_text_form_names_its_line():
    text = "# from a position\ngame: yokai-3x4\nstart: {}\na2a3\n"
    with pytest.raises(RecordError, match="^g.txt, line 3: field 'start' is not a yokai-3x4 position"):
        records.read_text_game(io.StringIO(text.format("1l1/3/1G1")), name="g.txt")
    with pytest.raises(RecordError, match="^g.txt, line 3: field 'start' is not a yokai-3x4 position"):
        records.read_text_game(io.StringIO(text.format(OTHER_POSITION)), name="g.txt")
    with pytest.raises(RecordError, match=r"^g.txt, line 4, ply 0: 'a2a3'"):
        records.read_text_game(io.StringIO(text.format(GAME.initial_state().to_text())), name="g.txt")
    good = records.read_text_game(io.StringIO(text.format(json.loads(START_LINE)["start"])), name="g.txt")
    assert good.start == json.loads(START_LINE)["start"]
    with pytest.raises(RecordError, match="cannot be written in the text form"):
        records.to_text_game(Record("yokai-3x4", {}, (), start="gle/1c1/1C1/ELG[] w - - 0 1 # x"))


def test_the_replay_widget_replays_from_the_start():
    import widgets

    record = Record.from_json(START_LINE)
    rp = widgets.Replay(record)
    assert rp.slider.max == 1 and rp.states[0] == record.start_state() and rp.states[1] == record.replay()[1]
    assert rp.session.to_record().start == record.start


# --- issue 45 item 6: records as a package, one reader told what it gets, one writer ------------

FORMATS = Path(__file__).parent / "formats"


def test_the_reader_is_told_a_path_bytes_or_text_and_each_reads_the_same(tmp_path):
    """records.read(path), read(data=...) and read(text=...) read one file alike, without a
    warning; `name` labels bytes and text, and its suffix decides where the content does not."""
    path = tmp_path / "games.jsonl"
    records.write_records(path, [good_record(), good_record(n=2)])
    content = path.read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the explicit forms warn of nothing
        by_path = records.read(path)
        assert records.read(str(path)) == by_path
        assert records.read(data=content.encode(), name="up.jsonl") == by_path
        assert records.read(data=bytearray(content.encode())) == by_path
        assert records.read(text=content) == by_path
        assert by_path == [good_record(), good_record(n=2)] and by_path[0].source == str(path)
        assert records.read(text=content, name="mine.jsonl")[1].source == "mine.jsonl"
        assert records.read(data=content.encode())[0].source == "<text>"
        pgn = (FORMATS / "dobutsu.pgn").read_bytes()
        assert records.read(data=pgn, name="x.pgn") == records.read(FORMATS / "dobutsu.pgn")
        kif = (FORMATS / "dobutsu.kif").read_text()
        assert records.read(text=kif)[0].actions == records.read(FORMATS / "dobutsu.kif")[0].actions
        # bare moves are PGN only by their name (the content alone is the text form's)
        bare = "La2 Cxb2 *\n"
        with pytest.raises(RecordError, match="^bare.pgn, line 1: no .Variant. tag"):
            records.read(text=bare, name="bare.pgn")
        with pytest.raises(RecordError, match="^<text>: no 'game: <id>' line"):
            records.read(text=bare)
        found = records.read(text=content + "{\n", errors="collect")
        assert found.records == by_path and [e.line for e in found.errors] == [3]


def test_a_str_or_a_path_object_is_always_a_path(tmp_path, monkeypatch):
    """What is given as a path is opened as one: a one-line str that names no file is that
    file's error, never read as content; a Path is never looked into, even one whose name
    starts with '[' (which a positional str is still read as content for, deprecated)."""
    with pytest.raises(RecordError, match="^b1a2: cannot open: No such file"):
        records.read("b1a2")
    monkeypatch.chdir(tmp_path)
    Path("[club] games.pgn").write_bytes((FORMATS / "dobutsu.pgn").read_bytes())
    expected = records.read(FORMATS / "dobutsu.pgn", name="[club] games.pgn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert records.read(Path("[club] games.pgn")) == expected
        assert records.load("[club] games.pgn") == expected  # load's str is a path, always
    with (
        pytest.warns(DeprecationWarning, match="text="),
        pytest.raises(RecordError, match="^<text>: no 'game"),
    ):
        records.read("[club] games.pgn")  # the old guess, kept while it is deprecated
    with pytest.raises(RecordError, match="not a regular file"):
        records.read(tmp_path)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: records.read(), "exactly one of a path, data= .bytes. or text= .str.; got none"),
        (lambda: records.read("a.jsonl", text="{}"), "got a path and text="),
        (lambda: records.read(data=b"", text=""), "got data= and text="),
        (lambda: records.read(data="game: yokai-3x4\n"), "data= takes bytes, not str; give a str as text="),
        (
            lambda: records.read(text=b"game: yokai-3x4\n"),
            "text= takes a str, not bytes; give bytes as data=",
        ),
        (lambda: records.read(3), "takes a path .str or os.PathLike., not int"),
        (lambda: records.read(io.StringIO("{}")), "takes a path .str or os.PathLike., not StringIO"),
    ],
)
def test_a_reader_call_that_does_not_say_what_it_gives_is_a_type_error(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_content_given_as_the_path_still_reads_with_one_deprecation_warning(tmp_path):
    """The call the docs showed before issue 45 item 6 (`records.read(text)`, `records.read(
    file_bytes, name=...)`) reads as it did, and warns once, saying how to pass it now."""
    line = good_record().to_json() + "\n"
    pgn = (FORMATS / "dobutsu.pgn").read_text()
    for old, new, form in (
        (lambda: records.read(line), lambda: records.read(text=line), "text="),
        (lambda: records.read(pgn), lambda: records.read(text=pgn), "text="),
        (lambda: records.read("  [Event"), lambda: records.read(text="  [Event"), "text="),
        (lambda: records.read(pgn.encode(), name="x.pgn"), lambda: records.read(data=pgn.encode()), "data="),
    ):
        with pytest.warns(DeprecationWarning) as caught:
            found = _result(old)
        assert len(caught) == 1, [str(w.message) for w in caught]
        message = str(caught[0].message)
        assert "records.read(text=...)" in message and "records.read(data=...)" in message
        assert form in message and caught[0].filename == __file__  # it points at the caller
        assert found == _result(new)


def _result(call):
    """What a reader call gives: its records, or its error's message."""
    try:
        return call()
    except RecordError as exc:
        return str(exc)


def test_the_one_writer_writes_each_format_and_read_reads_it_back(tmp_path):
    record = good_record()
    empty = Record("yokai-3x4", {}, ())
    assert records.write(tmp_path / "a.jsonl", [record, empty]) == 2
    assert records.write(tmp_path / "a.jsonl", record, append=True) == 1
    assert records.read(tmp_path / "a.jsonl") == [record, empty, record]
    assert records.write(tmp_path / "a.txt", record, format="text") == 1
    assert (tmp_path / "a.txt").read_text() == records.to_text_game(record)
    assert records.read(tmp_path / "a.txt")[0].actions == record.actions
    assert records.write(tmp_path / "a.pgn", [record, record], format="pgn") == 2
    assert [r.actions for r in records.read(tmp_path / "a.pgn")] == [record.actions] * 2
    assert records.write(tmp_path / "a.kif", [record], format="kif") == 1
    assert records.read(tmp_path / "a.kif")[0].actions == record.actions
    stream = io.StringIO()
    assert records.write(stream, record, format="text") == 1 and stream.getvalue() == records.to_text_game(
        record
    )
    with pytest.raises(RecordError, match="a kif file holds one game; 2 given"):
        records.write(tmp_path / "b.kif", [record, record], format="kif")
    with pytest.raises(ValueError, match="append=True writes JSON Lines only"):
        records.write(tmp_path / "a.pgn", record, format="pgn", append=True)
    with pytest.raises(ValueError, match="format must be"):
        records.write(tmp_path / "a.csv", record, format="csv")
    bad = Record("yokai-3x4", {}, (), start="gle/1c1/1C1/ELG[] w - - 0 1 # x")
    with pytest.raises(RecordError, match="cannot be written in the text form"):
        records.write(tmp_path / "bad.txt", bad, format="text")
    assert not (tmp_path / "bad.txt").exists() and not (tmp_path / "b.kif").exists()


#: the package's modules, in the order of its docstring: each imports only those before it
#: (the formats, which build Records, are imported inside the functions that read or write them;
#: the record itself is rules_kernel.record_model, a layer below the formats)
PACKAGE_ORDER = (
    "lines",
    "jsonl",
    "text_form",
    "detection",
    "pgn_kif",
    "reader",
    "writer",
    "uploads",
)


def test_the_package_re_exports_every_name_and_its_modules_import_downwards():
    import ast

    folder = Path(records.__file__).parent
    assert sorted(p.stem for p in folder.glob("*.py")) == sorted(("__init__", *PACKAGE_ORDER))
    for name in records.__all__:
        assert getattr(records, name) is not None, name
    for position, module in enumerate(PACKAGE_ORDER):
        tree = ast.parse((folder / f"{module}.py").read_text(encoding="utf-8"))
        used = {
            node.module.rsplit(".", 1)[1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rules_kernel.records.")
        }
        assert used <= set(PACKAGE_ORDER[:position]), (module, used - set(PACKAGE_ORDER[:position]))


def test_a_limit_set_on_the_package_is_the_one_the_code_checks(monkeypatch):
    deep = "[" * 4 + "]" * 4
    assert records.parse_json(deep) == [[[[]]]]
    monkeypatch.setattr(records, "MAX_NESTING", 3)
    with pytest.raises(RecordError, match="nested more than 3 deep"):
        records.parse_json(deep)
    monkeypatch.setattr(records, "MAX_START_CHARS", 10)
    with pytest.raises(RecordError, match="at most 10"):
        records.check_start(GAME, GAME.initial_state().to_text())
