"""The "Games from here" panel (widgets/games_from_here.py) over the shipped collection
(rules_kernel/data/collection): the table for the board's position, a click on a move plays
it, texts escaped, errors as one line, only the collections the author offers and the
visitor's own uploads."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as w
import pytest

import rules_kernel as rk
from rules_kernel.collection import SHIPPED, Collection, shipped
from widgets.games_from_here import SHIPPED_LABEL, GamesFromHere
from widgets.runtime import SHOWN

YOKAI = rk.load_game("yokai-3x4")


def test_the_shipped_collection_is_small_and_holds_every_kind_of_game():
    size = sum(p.stat().st_size for p in SHIPPED.iterdir())
    assert size < 500_000, f"the shipped collection is {size:,} bytes"
    found = shipped()
    counts = found.sql("select game, count(*) as n from games group by game").set_index("game")["n"]
    assert {"yokai-3x4", "yokai-5x6", "war-chest"} <= set(counts.index)
    sources = set(found.games["source"])
    assert any(s.endswith(".csa") for s in sources) and any(s.endswith(".ki2") for s in sources)
    assert found.info["problem_count"] == 0
    # the start of Yōkai 3x4 has games to show on a new machine
    assert shipped().from_position(YOKAI.initial_state())["n"].sum() > 10


def test_a_click_on_a_move_plays_it():
    played: list[str] = []
    panel = GamesFromHere(on_move=played.append)
    start = YOKAI.initial_state()
    panel.show(start)
    assert panel.table is not None and not panel.table.empty
    buttons = panel.buttons
    assert [b.description for b in buttons] == list(panel.table["move"])[: len(buttons)]
    second = buttons[1]
    second.click()
    assert played == [second.notation] and played[0] in {str(m) for m in start.legal_moves()}
    assert second.description == start.action_text(played[0])
    assert "went on from here" in panel.caption.value and SHIPPED_LABEL in panel.caption.value


def test_the_panel_plays_into_a_session():
    session = rk.Session(YOKAI)
    panel = GamesFromHere(on_move=session.play)
    panel.show(session.state)
    panel.buttons[0].click()
    assert session.ply == 1
    panel.show(session.state)  # the next position's table
    assert panel.table is not None


def test_a_position_nobody_reached_and_a_closed_panel():
    panel = GamesFromHere(opened=False)
    panel.show(YOKAI.initial_state())
    assert panel.table is None and panel.body.layout.display == "none"  # closed: no query
    panel.toggle.value = True
    assert panel.table is not None and panel.body.layout.display == SHOWN
    panel.show(YOKAI.initial_state().play("b1a2", "b4a3"))
    assert "No game of" in panel.caption.value and not panel.buttons


def test_texts_are_escaped_and_errors_are_one_line(tmp_path):
    bad = tmp_path / "<b>not a collection"
    bad.mkdir()
    panel = GamesFromHere({"<i>Club</i> & co": bad}, shipped=False)
    panel.show(YOKAI.initial_state())
    assert "not a collection" in panel.message.value and "Traceback" not in panel.message.value
    assert "<b>" not in panel.message.value and "&lt;b&gt;" in panel.message.value
    good = GamesFromHere({"<i>Club</i> & co": SHIPPED}, shipped=False)
    good.show(YOKAI.initial_state())
    assert "&lt;i&gt;Club&lt;/i&gt; &amp; co" in good.caption.value and "<i>Club" not in good.caption.value


def test_a_failing_move_is_one_line_not_a_traceback():
    def refuse(notation: str) -> None:
        raise rk.RulesError(f"{notation} is <not> allowed here")

    panel = GamesFromHere(on_move=refuse)
    panel.show(YOKAI.initial_state())
    panel.buttons[0].click()
    assert "is &lt;not&gt; allowed here" in panel.message.value


def test_only_the_offered_collections_open(tmp_path):
    panel = GamesFromHere()
    assert [value for _, value in panel.picker.options] == [str(SHIPPED)]
    with pytest.raises(Exception):  # noqa: B017 - the widget refuses a value it did not offer
        panel.picker.value = str(tmp_path)
    assert panel.collection.path == SHIPPED
    with pytest.raises(ValueError):
        GamesFromHere(shipped=False)
    assert isinstance(panel, w.VBox)


def test_the_page_walks_from_the_start_and_the_players_table_is_escaped():
    from widgets.collection_panel import GamesFromHerePage, players_frame, players_panel

    page = GamesFromHerePage()
    first = page.panel.buttons[0]
    first.click()
    assert page.moves == [first.description]
    assert len(page.states) == 2 and not page.back.disabled
    page.back.click()
    assert len(page.states) == 1 and page.back.disabled
    frame = players_frame(shipped())
    assert {"Player", "Score (95% interval)", "Elo (95% interval)", "Opening"} <= set(frame.columns)
    assert (frame["Player"] == "greedy 1").any()
    timed = frame[frame["Moves timed"].str.match(r"[1-9]")]
    assert not timed.empty and (timed["Seconds a move"] != "–").all()
    shown = players_panel(shipped()).value
    assert "<td>greedy 1</td>" in shown and "95% Wilson interval" in shown


def test_a_click_on_a_table_the_board_has_left_plays_nothing():
    played: list[str] = []
    panel = GamesFromHere(on_move=played.append)
    panel.show(YOKAI.initial_state())
    stale = panel.buttons[0]
    panel.show(YOKAI.initial_state().play(stale.notation))  # the board moved on (the first click)
    stale.click()  # the second click of a double click, on the old table's button
    assert played == [] and panel.message.value == ""


def test_no_position_hides_the_whole_panel():
    panel = GamesFromHere()
    panel.show(YOKAI.initial_state())
    assert panel.layout.display == SHOWN and panel.buttons
    panel.show(None)  # the explorer's hand-over curtain is down
    assert panel.layout.display == "none" and not panel.buttons and panel.table is None
    panel.show(YOKAI.initial_state())
    assert panel.layout.display == SHOWN and panel.buttons


# --- a visitor's own games (the issue: "pick a collection: the shipped ones, or one
# uploaded/imported") -----------------------------------------------------------------------

FORMATS = Path(__file__).parent / "formats"


def upload(panel: GamesFromHere, name: str, content: bytes) -> None:
    """What the browser's file chooser does: the Upload widget's value set."""
    panel.upload.value = [{"name": name, "size": len(content), "content": memoryview(content)}]


def test_an_uploaded_file_becomes_a_collection_to_pick_and_query():
    panel = GamesFromHere()
    panel.show(YOKAI.initial_state())
    games = (FORMATS / "dobutsu.kif").read_bytes()
    upload(panel, "../../etc/<b>club</b>.kif", games)  # the name labels it, never a path
    assert panel.message.value == ""
    label = dict((value, text) for text, value in panel.picker.options)[panel.picker.value]
    assert label.startswith("Your file: ../../etc/<b>club</b>.kif (1 games")
    assert "&lt;b&gt;club" in panel.caption.value and "<b>club" not in panel.caption.value
    folder = Path(panel.picker.value)
    assert folder.name == "collection" and folder.parent.name.startswith("games-from-here-")
    assert not (Path("/etc") / "<b>club</b>.kif").exists()
    first = Collection(folder).moves.sort_values(["game_id", "ply"]).iloc[0]["notation"]
    assert list(panel.table["notation"]) == [first]  # the one game's first move, from the start
    assert len(panel.picker.options) == 2  # the shipped games are still offered


def test_an_upload_with_no_readable_game_or_of_another_kind_is_one_line_and_adds_nothing():
    panel = GamesFromHere()
    panel.show(YOKAI.initial_state())
    upload(panel, "notes.kif", b"this is no game record at all\n")
    assert "no game of notes.kif could be read" in panel.message.value
    upload(panel, "picture.png", b"\x89PNG")
    assert "picture.png is not a record file or archive" in panel.message.value
    assert "Traceback" not in panel.message.value and len(panel.picker.options) == 1
