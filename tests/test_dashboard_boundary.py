"""The dashboards' trust boundary, widget side (issue: publishable on the open internet):
uploads are data, every text shown as HTML is escaped, no callback lets an exception escape."""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

import widgets
from rules_kernel import OptionError
from widgets.options import read_table
from widgets.safe import guarded, html, message_html

NOW = datetime(2026, 11, 23, tzinfo=timezone.utc)
HOSTILE = "<img src=x onerror=alert(1)>"


def upload(replay: widgets.Replay, content: bytes, name: str = "game.jsonl") -> None:
    """What the browser does when a visitor picks a file."""
    replay.upload.value = (
        {
            "name": name,
            "type": "",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": NOW,
        },
    )


def record_line(**fields) -> bytes:
    base = {"format": "rules-explorer/1", "game": "yokai-3x4", "options": {}, "actions": ["b2b3"]}
    base.update(fields)
    return (json.dumps(base) + "\n").encode()


@pytest.mark.parametrize(
    "content, name, says",
    [
        (record_line(game=HOSTILE), "game.jsonl", "unknown game"),
        (record_line(options={"units": "/etc/passwd"}, game="to-war"), "game.jsonl", "units"),
        (record_line(options={"game_id": 1}), "game.jsonl", "game_id"),
        (b"[" * 100_000 + b"]" * 100_000, "deep.jsonl", ""),
        (b'{"format": 1' + b"9" * 5000 + b"}\n", "big.jsonl", ""),
        (b"\xff\xfe not text", "game.txt", ""),
        (record_line(actions=["b2b4"]), "game.jsonl", "ply 0"),
    ],
    ids=[
        "script-in-game-name",
        "path-as-unit-table",
        "option-named-game_id",
        "deep-nesting",
        "5000-digit-number",
        "not-utf8",
        "illegal-move",
    ],
)
def test_hostile_uploads_give_one_escaped_line_and_keep_the_page(content, name, says):
    replay = widgets.Replay(upload=True)
    upload(replay, content, name)
    shown = replay.info.value
    assert shown.startswith('<span role="alert"'), shown[:200]
    assert "<img" not in shown and "\n" not in shown and len(shown) < 600
    assert says in shown
    assert replay.states == []  # nothing half-loaded


def test_an_upload_asks_for_a_game_beyond_the_file():
    replay = widgets.Replay(upload=True)
    replay.record_index.value = 5
    upload(replay, record_line())
    assert "no game #5" in replay.info.value


def test_a_good_upload_replays():
    replay = widgets.Replay(upload=True)
    upload(replay, record_line(actions=["b2b3", "c4b3"]))
    assert replay.slider.max == 2 and "Yōkai no Mori 3x4" in replay.info.value


def test_the_escaping_helper_escapes_every_value():
    assert html("<b>{x}</b>", x=HOSTILE) == "<b>&lt;img src=x onerror=alert(1)&gt;</b>"
    assert "&quot;" in html('<a title="{t}">', t='" onmouseover="x')
    assert "<img" not in message_html(HOSTILE, error=True)


def test_guarded_callbacks_show_a_line_instead_of_raising():
    shown = []

    @guarded(shown.append)
    def broken(_):
        raise KeyError("internal detail")

    broken(None)
    assert shown and "KeyError" in shown[0] and "internal detail" not in shown[0]


def test_explorer_options_take_an_uploaded_unit_table_as_content_never_a_path():
    ex = widgets.Explorer("to-war")
    field = ex.form.fields["units"]
    field.upload.value = (
        {
            "name": "units.csv",
            "type": "",
            "size": 11,
            "content": memoryview(b"/etc/passwd"),
            "last_modified": NOW,
        },
    )
    before = ex.game
    ex.new_game()  # the text "/etc/passwd" is read as a (useless) table, never opened as a path
    assert 'role="alert"' in ex.message.value and "units file" in ex.message.value
    assert ex.game is before
    with pytest.raises(OptionError, match="limit"):
        read_table(field.option, "big.csv", b"x" * 600_000)


class OpenedFiles:
    """Every file Python opens while `watching` (an audit hook on the `open` event: io.open,
    os.open and everything built on them). Hooks cannot be removed, so one is installed
    once and switched on and off."""

    installed: OpenedFiles | None = None

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.watching = False
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if self.watching and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            self.paths.append(os.fsdecode(args[0]))

    @classmethod
    def watch(cls) -> OpenedFiles:
        if cls.installed is None:
            cls.installed = cls()
        cls.installed.paths.clear()
        return cls.installed


# Issue #20 item 2: an upload whose content names a file; each was once opened ("/dev/zero" read
# until a MemoryError at ~1.4 GB) because a JSON string went on to load_units as a path.
NAMED_FILES = ["/etc/passwd", "/dev/zero", "/proc/self/environ", "rules_kernel/data/to-war-units.csv"]


@pytest.mark.parametrize("named", NAMED_FILES)
@pytest.mark.parametrize(
    "filename, wrap",
    [("x.json", json.dumps), ("x.csv", str), ("x.txt", str)],
    ids=["json-string", "csv-text", "other-name"],
)
def test_an_upload_that_names_a_file_opens_nothing(named, filename, wrap):
    ex = widgets.Explorer("to-war")
    before = ex.game
    field = ex.form.fields["units"]
    content = wrap(named).encode()
    opened = OpenedFiles.watch()
    opened.watching = True
    try:
        field.upload.value = (
            {
                "name": filename,
                "type": "",
                "size": len(content),
                "content": memoryview(content),
                "last_modified": NOW,
            },
        )
        ex.new_game()
        with pytest.raises(OptionError) as refused:
            read_table(field.option, filename, content)
    finally:
        opened.watching = False
    leaked = [p for p in opened.paths if Path(p).name in {Path(n).name for n in NAMED_FILES}]
    assert not leaked, f"an upload's content was opened as a path: {leaked}"
    assert "\n" not in str(refused.value) and filename in str(refused.value)
    assert ex.game is before and 'role="alert"' in ex.message.value


def test_an_uploaded_table_is_read_from_its_bytes():
    """A real table, as CSV and as JSON rows, gives the game those units; nothing is opened."""
    from rules_kernel.games.to_war import TABLE_PATH, load_units

    csv_bytes = TABLE_PATH.read_bytes()
    rows = load_units()
    rows[0] = {**rows[0], "attack": rows[0]["attack"] + 1}
    field = widgets.Explorer("to-war").form.fields["units"]
    opened = OpenedFiles.watch()
    opened.watching = True
    try:
        from_csv = read_table(field.option, "mine.csv", csv_bytes)
        from_json = read_table(field.option, "mine.json", json.dumps(rows).encode())
    finally:
        opened.watching = False
    assert from_csv == load_units() and from_json == rows
    assert not [p for p in opened.paths if p.endswith((".csv", ".json"))]


def test_a_table_of_the_wrong_shape_is_one_line():
    field = widgets.Explorer("to-war").form.fields["units"]
    for name, content, says in [
        ("t.json", b'{"army": "western"}', "JSON array of row objects"),
        ("t.json", b"[1, 2]", "array with a non-object"),
        ("t.json", b"[", "not JSON"),
        ("t.csv", b"", "no rows"),
        ("t.csv", b"\xff\xfe", "not UTF-8"),
    ]:
        with pytest.raises(OptionError, match=says):
            read_table(field.option, name, content)


def test_a_bad_position_text_is_one_line_and_keeps_the_game():
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")
    ex.set_position(HOSTILE)
    note = ex.position_note.value  # under the position box (issue #22 item 9)
    assert "This is not a Yōkai no Mori 3x4 position" in note and "<img" not in note
    assert [str(a) for a in ex.actions] == ["b2b3"]


def test_an_unknown_game_is_the_kernels_message():
    from rules_kernel import OptionError

    with pytest.raises(OptionError, match="unknown game 'chess'"):
        widgets.Explorer("chess")
