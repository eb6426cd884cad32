"""The dashboards' trust boundary, widget side (issue: publishable on the open internet):
uploads are data, every text shown as HTML is escaped, no callback lets an exception escape."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

import widgets
from widgets.options import read_table
from widgets.safe import guarded, html, message_html

NOW = datetime(2026, 11, 23, tzinfo=timezone.utc)
HOSTILE = "<img src=x onerror=alert(1)>"


def upload(replay: widgets.Replay, content: bytes, name: str = "game.jsonl") -> None:
    """What the browser does when a visitor picks a file."""
    replay.upload.value = ({"name": name, "type": "", "size": len(content), "content": memoryview(content),
                            "last_modified": NOW},)


def record_line(**fields) -> bytes:
    base = {"format": "rules-explorer/1", "game": "yokai-3x4", "options": {}, "actions": ["b2b3"]}
    base.update(fields)
    return (json.dumps(base) + "\n").encode()


@pytest.mark.parametrize("content, name, says", [
    (record_line(game=HOSTILE), "game.jsonl", "unknown game"),
    (record_line(options={"units": "/etc/passwd"}, game="to-war"), "game.jsonl", "units"),
    (record_line(options={"game_id": 1}), "game.jsonl", "game_id"),
    (b"[" * 100_000 + b"]" * 100_000, "deep.jsonl", ""),
    (b"{\"format\": 1" + b"9" * 5000 + b"}\n",
     "big.jsonl", ""),
    (b"\xff\xfe not text", "game.txt", ""),
    (record_line(actions=["b2b4"]), "game.jsonl", "ply 0"),
], ids=["script-in-game-name", "path-as-unit-table", "option-named-game_id", "deep-nesting",
        "5000-digit-number", "not-utf8", "illegal-move"])
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
    assert replay.slider.max == 2 and "yokai-3x4" in replay.info.value


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
    field.upload.value = ({"name": "units.csv", "type": "", "size": 11, "content": memoryview(b"/etc/passwd"),
                           "last_modified": NOW},)
    before = ex.game
    ex.new_game()  # the text "/etc/passwd" is read as a (useless) table, never opened as a path
    assert 'role="alert"' in ex.message.value and "unit table" in ex.message.value
    assert ex.game is before
    with pytest.raises(Exception, match="limit"):
        read_table("big.csv", b"x" * 600_000)


def test_a_bad_position_text_is_one_line_and_keeps_the_game():
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")
    ex.set_position(HOSTILE)
    assert "not a Yōkai no Mori 3x4 position" in ex.message.value and "<img" not in ex.message.value
    assert [str(a) for a in ex.actions] == ["b2b3"]


def test_an_unknown_game_is_the_kernels_message():
    from rules_kernel import OptionError

    with pytest.raises(OptionError, match="unknown game 'chess'"):
        widgets.Explorer("chess")
