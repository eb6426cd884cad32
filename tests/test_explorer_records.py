"""The explorer opens a record (issue 46 item 6): every shipped game from the "Open a record"
menu, or a file the reader uploads, with its whole line in the history, on its last position;
a bad upload is one line saying what and where, the game on show left as it was; a game with
hidden information opens in the player to move's view, nothing hidden named on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rules_kernel as rk
import widgets
from rules_kernel import records
from tests.test_curtain import labels, page_text
from widgets.explorer import FOLLOW_TURN
from widgets.layout import layout_scene
from widgets.presentation import line_of
from widgets.svg import hit_layer

FORMATS = Path(__file__).parent / "formats"


@pytest.fixture(scope="module")
def ex() -> widgets.Explorer:
    explorer = widgets.Explorer("yokai-3x4", seed=1)
    explorer.records.toggle.value = True  # "Open a record ▸": the menu is made on first opening
    return explorer


def upload(ex: widgets.Explorer, name: str, data: bytes) -> None:
    """A file chosen with "Open a record file", as the browser sends it."""
    ex.records.upload.value = ({"name": name, "type": "", "size": len(data), "content": memoryview(data)},)


def test_every_shipped_game_is_in_the_menu_in_words_and_opens_with_its_whole_line(ex):
    shipped = [r for path in sorted(records.shipped_records().glob("*.jsonl")) for r in records.load(path)]
    labels = [label for label, _ in ex.records.menu.options]
    assert len(labels) == len(shipped) == 118
    ids = rk.list_games()
    for label in labels:  # words: no file name, no game id
        assert ".jsonl" not in label and not any(game in label for game in ids), label
    assert "War Chest (4 players): greedy, random, greedy and random, game 1 of 10" in labels
    opened = set()
    for label, index in ex.records.menu.options:
        ex.records.menu.value = index
        ex.records.open_button.click()
        record = ex.records.entries[index][1]
        line = ex.session.main_line()
        assert [node.notation for node in line[1:]] == [a.notation for a in record.actions], label
        assert ex.session.node is line[-1], f"{label}: not on its last position"
        assert ex.game.id == record.game and ex.game_select.value == record.game
        assert "Opened" in ex.message.value and "color" not in ex.message.value, label
        opened.add(record.game)
    assert opened == set(ids)


def test_a_record_opened_is_walked_by_the_keys_and_played_on(ex):
    index = next(i for label, i in ex.records.menu.options if label.startswith("Yōkai no Mori 3x4: perfect"))
    ex.records.menu.value = index
    ex.records.open_button.click()
    end = ex.session.ply
    assert end == 78
    ex.history.history_key("PageUp")  # the board's key; ←/→ on the page step the same way
    assert ex.session.ply == end - 1
    ex.history.history_key("Home")
    assert ex.session.ply == 0
    ex.history.history_key("PageDown")
    assert ex.session.ply == 1 and len(ex.session.main_line()) == end + 1  # the line is kept


@pytest.mark.parametrize("name", ["dobutsu.kif", "gorogoro.pgn"])
def test_an_uploaded_kif_or_pgn_game_opens_and_joins_the_menu(ex, name):
    data = (FORMATS / name).read_bytes()
    expected = records.read_upload(data, name)[0]
    upload(ex, name, data)
    assert ex.game.id == expected.game
    assert [n.notation for n in ex.session.main_line()[1:]] == [a.notation for a in expected.actions]
    label = ex.records.menu.options[ex.records.menu.index][0]
    assert "from your file" in label and name not in label
    assert "color" not in ex.message.value  # no error line


def test_an_uploaded_json_lines_file_opens_its_first_game_and_lists_every_one(ex):
    path = records.shipped_records() / "yokai-5x6-random.jsonl"
    before = len(ex.records.menu.options)
    upload(ex, "my games.jsonl", path.read_bytes())
    assert len(ex.records.menu.options) == before + 2
    first = records.load(path)[0]
    assert ex.game.id == "yokai-5x6" and ex.session.ply == len(first.actions)
    assert ex.records.menu.options[-1][0].endswith("game 2 of 2")


def test_a_bad_upload_says_what_and_where_and_the_game_on_show_stays(ex):
    ex.records.menu.value = 0
    ex.records.open_button.click()
    session, game, ply = ex.session, ex.game.id, ex.session.ply
    options = ex.records.menu.options
    good = json.loads((records.shipped_records() / "yokai-3x4-random.jsonl").read_text().splitlines()[0])
    good["actions"][3] = "a1a4"  # an illegal move on the fourth ply
    upload(ex, "broken.jsonl", (json.dumps(good) + "\n").encode())
    message = ex.message.value
    assert "broken.jsonl" in message and "line 1" in message and "ply 3" in message
    assert "a1a4" in message and 'role="alert"' in message
    assert "Traceback" not in message and message.count("\n") == 0
    assert ex.session is session and ex.game.id == game and ex.session.ply == ply
    assert ex.records.menu.options == options  # nothing half-loaded joins the menu
    upload(ex, "notes.txt", b"\xff\xfe not a record")
    assert "notes.txt" in ex.message.value and 'role="alert"' in ex.message.value
    assert ex.session is session


def test_a_war_stories_record_opens_in_the_player_to_move_view_naming_nothing_hidden(ex):
    index = next(i for label, i in ex.records.menu.options if label.startswith("War Stories"))
    ex.records.menu.value = index
    ex.records.open_button.click()
    assert ex.game.id == "war-stories" and ex.perspective.value == FOLLOW_TURN
    viewer = ex.viewer
    assert viewer is not None
    state = ex.state
    everything = state.scene(None)  # the board all-seeing: each place and item as it truly is
    seen = labels(state, viewer)
    hidden = set(re.findall(r'aria-label="([^"]*)"', hit_layer(everything, layout_scene(everything)))) - seen
    shown_lines = {line.text for line in line_of(ex.session, viewer)}
    hidden |= {line.text for line in line_of(ex.session, None) if line.text not in shown_lines}
    assert hidden, "the record's last position hides nothing: this test would prove nothing"
    text = page_text(ex)
    assert not {secret for secret in hidden if secret in text}
