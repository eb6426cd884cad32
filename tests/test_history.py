"""The explorer's history and settings, headless (issue #22 items 4 and 7): the move list in
words numbered by turn, looking back by click and by key without undoing anything, a clear way
back to the game, a move from a past position starting a new line beside the old one, and
settings (the agents' seats, the view) that stick across New game, any seat an agent."""

from __future__ import annotations

import datetime

import pytest

import widgets
from rules_kernel import parts as game_parts
from rules_kernel.core import Turn
from widgets.explorer import ALL_SEEING, FOLLOW_TURN
from widgets.movelist import MoveList, turns_of
from widgets.presentation import MoveLine


def played(game: str, *moves: str, **options) -> widgets.Explorer:
    ex = widgets.Explorer(game, seed=3, **options)
    for move in moves:
        ex.play(move)
    return ex


def test_clicking_a_move_shows_its_position_and_undoes_nothing():
    ex = played("yokai-3x4", "b2b3", "a4a3", "a1b2")
    final = ex.state
    ex.move_list.go(1)  # what a click on the first move sends
    assert ex.session.ply == 1 and len(ex.session.line()) == 4
    assert ex.board.scene == ex.session.line()[1].state.scene(None)
    assert ex.move_list.current == 1 and ex.move_list.value == ex.move_list.options[0]
    assert ex.looking_back.layout.display == "flex"
    assert "Showing the position after turn 1 of 3 (First player&#x27;s)." in ex.looking_back_text.value
    ex.back_to_game.click()
    assert ex.state == final and ex.looking_back.layout.display == "none"


def test_board_keys_step_through_the_game():
    """PageUp/PageDown step, Home/End go to the start and the end (the arrows move the cursor)."""
    ex = played("yokai-3x4", "b2b3", "a4a3", "a1b2")
    ex.board._on_message(None, {"event": "history", "key": "Home"}, [])
    assert ex.session.ply == 0
    ex.board._on_message(None, {"event": "history", "key": "PageDown"}, [])
    ex.board._on_message(None, {"event": "history", "key": "PageDown"}, [])
    assert ex.session.ply == 2
    ex.board._on_message(None, {"event": "history", "key": "PageUp"}, [])
    assert ex.session.ply == 1
    ex.board._on_message(None, {"event": "history", "key": "Delete"}, [])  # not a history key
    assert ex.session.ply == 1
    ex.board._on_message(None, {"event": "history", "key": "End"}, [])
    assert ex.session.ply == 3 and ex.looking_back.layout.display == "none"


def test_the_list_ignores_what_is_not_a_ply():
    ex = played("yokai-3x4", "b2b3", "a4a3")
    for bad in ("1", True, -1, 3, 1.0, None, [1]):
        ex.move_list._on_message(None, {"event": "go", "ply": bad}, [])
        assert ex.session.ply == 2, bad
    ex.move_list._on_message(None, {"event": "go", "ply": 0}, [])
    assert ex.session.ply == 0


def test_a_move_from_a_past_position_starts_a_new_line_and_keeps_the_old():
    ex = played("yokai-3x4", "b2b3", "a4a3", "a1b2")
    ex.move_list.go(1)
    ex.play("c4b3")  # the Kitsune takes the Kodama instead of a4a3
    assert [str(n.action) for n in ex.session.line()[1:]] == ["b2b3", "c4b3"]
    ex.move_list.go(1)
    choices = [c for c in ex.lines_here.children if hasattr(c, "on_click")]
    assert [c.description for c in choices] == ["Tanuki a4–a3", "▶ Kitsune c4–b3 takes Kodama"]
    choices[0].click()  # back into the first line
    assert [str(n.action) for n in ex.session.line()[1:]] == ["b2b3", "a4a3", "a1b2"]


def test_looking_back_at_one_screen_keeps_the_eyes_and_drops_no_curtain():
    """In the hand-over view, history is seen with the eyes of the player at the table: no
    curtain comes down between the turns one looks through."""
    ex = widgets.Explorer("war-stories", seed=7)
    assert ex.perspective.value == FOLLOW_TURN
    for _ in range(3):
        ex.play(ex.state.legal_moves()[0])
        if ex.curtain_for is not None:
            ex.curtain_button.click()
    eyes = ex.viewer
    for ply in range(ex.session.ply, -1, -1):
        ex.move_list.go(ply)
        assert ex.curtain_for is None and ex.viewer == eyes
    ex.back_to_game.click()
    assert ex.session.ply == len(ex.session.line()) - 1


def test_turns_group_a_sides_actions_and_keep_chance_apart():
    lines = [  # numbered by the rulebook's turns (rules_kernel.core.turns)
        MoveLine(1, None, "Chance", "the cards are dealt face down"),
        MoveLine(2, 0, "White", "turns over a3", Turn(1, 0)),
        MoveLine(3, 0, "White", "turns over b4", Turn(1, 0)),
        MoveLine(4, 1, "Black", "Daimyo e5–e4", Turn(2, 1)),
        MoveLine(5, 0, "White", "turns over c1", Turn(3, 0)),
    ]
    rows = turns_of(lines, ("White", "Black"))
    assert [(r["number"], r["side"], r["chance"], [a[0] for a in r["actions"]]) for r in rows] == [
        (0, "Chance", True, [1]),
        (1, "White", False, [2, 3]),
        (2, "Black", False, [4]),
        (3, "White", False, [5]),
    ]
    assert rows[1]["colour"].startswith("#") and rows[0]["colour"] == ""


def test_the_list_shows_text_never_markup():
    """The browser puts every entry in as text; the Python side carries it as plain data."""
    moves = MoveList()
    moves.show([MoveLine(1, 0, "<b>White</b>", "<img src=x onerror=alert(1)>")], 1, ("<b>White</b>",))
    assert moves.turns[0]["side"] == "<b>White</b>"  # data; movelist.js sets textContent only
    script = (widgets.movelist.Path(widgets.movelist.__file__).with_name("movelist.js")).read_text()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script


def test_settings_stick_across_new_game():
    ex = widgets.Explorer("yokai-3x4")
    ex.agent_kind.value = "greedy"
    ex.agent_plays[1].value = True
    ex.perspective.value = 1
    ex.new_button.click()
    assert [s.value for s in ex.agent_plays] == [False, True]
    assert ex.agent_kind.value == "greedy" and ex.perspective.value == 1
    ex.play("b2b3")
    assert ex.session.ply == 2  # the agent answered


@pytest.mark.parametrize("seats", [(0, 3), (1, 2, 3)])
def test_any_seat_of_four_player_war_chest_can_be_an_agent(seats):
    ex = widgets.Explorer("war-chest", seed=5, players=4)
    assert len(ex.agent_plays) == 4
    ex.perspective.value = ALL_SEEING
    for seat in seats:
        ex.agent_plays[seat].value = True
    assert sorted(ex.session.agents) == list(seats)
    assert all(f"{ex.game.player_names[s]} (agent)" in ex.players.value for s in seats)
    mover = ex.state.current_player
    assert mover not in seats or ex.state.is_terminal()  # the agents played on to a person's turn


NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def upload(field, name: str, content: bytes) -> None:
    field.upload.value = (
        {
            "name": name,
            "type": "",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": NOW,
        },
    )


def test_an_uploaded_table_is_read_as_soon_as_it_is_chosen():
    """Issue #22 item 9: feedback when the file is chosen, not at New game."""
    from rules_kernel.games import to_war

    ex = widgets.Explorer("to-war")
    field = ex.form.fields["units"]
    upload(field, "broken.csv", b"/etc/passwd")
    assert 'role="alert"' in field.note.value and "broken.csv" in field.note.value
    rows = to_war.load_units()
    header = list(rows[0])
    text = ",".join(header) + "\n" + "\n".join(",".join(str(r[k]) for k in header) for r in rows)
    upload(field, "mine.csv", text.encode())
    assert field.note.value == f"<span>mine.csv: {len(rows)} rows read; New game plays with them.</span>"
    field.clear.click()
    assert field.note.value == ""


def test_a_players_item_is_named_in_the_singular():
    ex = widgets.Explorer("to-war")
    labels = [d.description for d in ex.form.fields["armies"].inputs]
    assert labels == ["First player's army", "Second player's army"]


def test_another_game_opens_in_its_own_default_view():
    """The whole-board view of a game without secrets never carries over into a game with
    secrets: War Chest opens in the view of the player to move."""
    ex = widgets.Explorer("yokai-3x4")
    assert ex.perspective.value == ALL_SEEING
    ex.game_select.value = "war-chest"
    ex.new_button.click()
    assert ex.perspective.value == FOLLOW_TURN


def test_the_flipper_sees_the_second_card_and_says_done_before_the_curtain():
    """Issue #22 item 2 (War Stories rulebook: a turned card is shown to both players; NOTES.md):
    after the turn's second card, the board stays in the flipper's view with both cards face
    up and the log naming them, until "Done — hand over"; then the curtain; then the next view."""
    ex = widgets.Explorer("war-stories", seed=7)
    ex.play("flip:a1")
    assert ex.done_box.layout.display == "none" and ex.curtain_for is None
    ex.play("flip:b1")
    assert ex.state.current_player == 1 and ex.state.hand_over_from == 0
    assert ex.viewer == 0 and ex.curtain_for is None and ex.done_box.layout.display == "flex"
    cards = {t.cell: t for t in ex.board.scene.tokens if t.cell in ("a1", "b1")}
    assert all(not t.face_down and t.name not in ("", "?") for t in cards.values())
    assert ex.move_list.options[-1].startswith("1. White: turns over b1: ")  # the log names it
    assert ex.all_moves.options == ()  # looking only: it is not their turn any more
    ex.done_button.click()
    assert ex.curtain_for == 1 and ex.done_box.layout.display == "none"
    ex.curtain_button.click()
    assert ex.viewer == 1 and ex.curtain_for is None and ex.all_moves.options


def test_a_position_error_stands_under_the_box_in_one_sentence():
    """Issue #22 item 9: the error right under the box, whole, with the game's own example."""
    ex = widgets.Explorer("yokai-3x4")
    before = ex.state
    ex.set_position("gle/1c1/1C1/ELG w <b>")
    note = ex.position_note.value
    assert note.startswith('<div role="alert"') and "This is not a Yōkai no Mori 3x4 position: in its" in note
    assert "<b>" not in note  # whatever of the pasted text is echoed, it is text
    assert note.count("reads: ") == 1 and ex.game.initial_state().to_text() in note
    assert ex.message.value == "" and ex.state == before  # the game on show stays
    ex.set_position(ex.game.initial_state().to_text())
    assert ex.position_note.value == ""


def test_a_position_of_another_game_offers_to_switch():
    ex = widgets.Explorer("yokai-5x6")
    text = "gle/1c1/1C1/ELG[] w - - 0 1"  # Yōkai no Mori 3x4's start
    ex.set_position(text)
    (switch,) = ex.position_switch.children
    assert switch.description == "Switch to Yōkai no Mori 3x4 and load it"
    switch.click()
    assert ex.game.id == "yokai-3x4" and ex.state.to_text() == text
    assert ex.game_select.value == "yokai-3x4" and ex.position_switch.children == ()


@pytest.mark.parametrize("availability", ["absent", "preparing", "ready"])
def test_the_perfect_play_switch_follows_the_tables_availability(monkeypatch, availability):
    """Issue #22 item 6: offered when ready, 'being prepared' and off while the server builds
    it, not offered at all where there is none; never a path or a command on the page."""

    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: availability)
    ex = widgets.Explorer("yokai-3x4")
    shown = ex.perfect.layout.display != "none"
    assert shown == (availability != "absent")
    assert ex.perfect.disabled == (availability == "preparing")
    assert ("being prepared" in ex.perfect.description) == (availability == "preparing")
    assert ("perfect" in [v for _, v in ex.agent_kind.options]) == (availability == "ready")


def test_the_board_turns_round_on_request():
    ex = widgets.Explorer("yokai-3x4")
    below = ex.board.layout.center_of("a1")[1]
    ex.turn_board.value = True
    assert ex.board.layout.center_of("a1")[1] < below  # the first player's rank now on top
    ex.perspective.value = 1  # the second player's view starts from its own side: turned ...
    ex.turn_board.value = False
    assert ex.board.layout.center_of("a1")[1] < below
    ex.game_select.value = "war-chest"
    ex.new_button.click()
    assert ex.turn_board.layout.display == "none"  # a hex map has no sides


@pytest.mark.parametrize(
    "game, options",
    [("yokai-3x4", {}), ("yokai-5x6", {}), ("war-stories", {}), ("to-war", {}), ("war-chest", {})],
)
def test_a_wide_page_shows_the_board_large_with_its_zones_beside_it(game, options):
    """Issue #22 item 5: at 1280x800 the 3x4 board is at least 420 px tall, the drawing fits
    beside the controls (880 px) and under the page's header (600 px), zones in view."""
    from widgets.explorer import ROOM_HEIGHT, ROOM_WIDTH

    ex = played(game, **options)
    for _ in range(6):  # a few actions: hands and piles fill
        if ex.state.is_terminal():
            break
        if ex.state.legal_moves():
            ex.play(ex.state.legal_moves()[0])
        if ex.curtain_for is not None:
            ex.curtain_button.click()
    layout, zoom = ex.board.layout, ex.board.widget.zoom
    assert layout.width * zoom <= ROOM_WIDTH + 1
    board_height = (layout.board_bottom - layout.board_top) * zoom
    if game == "yokai-3x4":
        assert board_height >= 420
    if layout.hexes:
        return
    right_of_board = max(box.cx + box.size / 2 for box in layout.cells.values())
    assert all(zone.x >= right_of_board for zone in layout.zones)  # beside, not above or below
    assert layout.height * zoom <= ROOM_HEIGHT + 1 or zoom == 1.0


def test_a_screen_reader_hears_the_selection_and_the_last_action():
    """Issue #22 item 8: the live region says what is selected, how many places it may go, and
    the last action in words."""
    ex = widgets.Explorer("yokai-3x4")
    ex.click("b1")
    assert "Koropokkuru on b1 selected: 2 places to go." in ex.announcer.value
    assert 'aria-live="polite"' in ex.announcer.value
    ex.clear_selection()
    assert "Selection cleared." in ex.announcer.value
    ex.click("b1")
    ex.click("c2")
    assert "First player: Koropokkuru b1–c2." in ex.announcer.value


def test_options_open_from_a_button_and_the_reference_is_the_games():
    ex = widgets.Explorer("war-chest")
    assert ex.options_form_box.layout.display == "none"
    assert ex.options_toggle.description == "Options of War Chest ▸"
    ex.options_toggle.value = True
    assert ex.options_form_box.layout.display == "" and ex.options_toggle.description.endswith("▾")
    assert ex.reference_box.children[0].get_title(0) == "Reference: War Chest"
    ex.game_select.value = "to-war"
    ex.new_button.click()
    assert ex.reference_box.children[0].get_title(0) == "Reference: To War!"
    assert ex.options_toggle.description == "Options of To War! ▾"


def test_a_too_large_upload_is_refused_before_it_is_sent():
    """Issue #22 item 9: the browser sends only a too-large file's name and size; the page says
    it in one line. A file the browser did send is checked again; other messages change nothing."""
    ex = widgets.Explorer("to-war")
    field = ex.form.fields["units"]
    upload = field.upload
    assert upload.limit == 512 * 1024
    for bad in (
        {"event": "too-large", "name": 3, "size": 10**7},
        {"event": "too-large", "name": "x", "size": 10},
    ):
        upload._on_message(None, bad, [])
        assert field.note.value == "" and upload.value == ()
    upload._on_message(None, {"event": "too-large", "name": "<b>big</b>.csv", "size": 3 * 1024 * 1024}, [])
    assert field.note.value.startswith('<span role="alert"')
    assert "&lt;b&gt;big&lt;/b&gt;.csv is 3.0 MB; the limit is 512 KB. Nothing was sent." in field.note.value
    upload._on_message(None, {"event": "file", "name": "liar.csv", "size": 10}, [b"x" * 600_000])
    assert upload.value == () and "liar.csv is 586 KB" in field.note.value
    upload._on_message(None, {"event": "file", "name": "t.csv", "size": 7, "last_modified": 0}, [b"/etc/pa"])
    assert upload.value[0]["name"] == "t.csv" and bytes(upload.value[0]["content"]) == b"/etc/pa"
    assert upload.chosen == "t.csv" and 'role="alert"' in field.note.value  # read at once: not a table
    replay = widgets.Replay(upload=True)
    replay.upload._on_message(None, {"event": "too-large", "name": "game.jsonl", "size": 6 * 1024 * 1024}, [])
    assert "game.jsonl is 6.0 MB; the limit is 5.0 MB" in replay.info.value


def test_hex_names_can_be_written_over_the_coins():
    """Issue #22 item 3: the move list names hexes as the map does ('e1'); 'Hex names' writes
    every name on the map, over the coins; a square board has its coordinates already."""
    ex = widgets.Explorer("war-chest", seed=2)
    ex.perspective.value = ALL_SEEING
    while not any(str(m).startswith("deploy") for m in ex.state.legal_moves()):
        ex.play(ex.state.legal_moves()[0])
    deploy = next(m for m in ex.state.legal_moves() if str(m).startswith("deploy"))
    ex.play(deploy)
    assert ex.hex_names.layout.display == "" and ex.board.highlight["names"] == {}
    ex.hex_names.value = True
    names = ex.board.highlight["names"]
    scene = ex.board.scene
    occupied = {c.id: c.label for c in scene.cells if scene.token_at(c.id) is not None}
    assert names == occupied and len(names) == 1  # the deployed coin's hex, by the map's name
    (label,) = names.values()
    assert f">{label}</text>" in ex.board.widget.highlight_svg and label in ex.move_list.options[-1]
    ex.hex_names.value = False
    assert f">{label}</text>" not in ex.board.widget.highlight_svg
    assert widgets.Explorer("yokai-3x4").hex_names.layout.display == "none"
