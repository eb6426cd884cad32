"""The widgets' Python side, headless: clicks through the canvas handler give the right
highlights and moves; the SVG picture; replay stepping; the explorer's controls."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules_kernel as rk
import widgets
from rules_kernel import parts as game_parts
from rules_kernel import records
from widgets.controller import ClickController
from widgets.explorer import ALL_SEEING
from widgets.layout import layout_scene


def click(explorer: widgets.Explorer, cell: str) -> None:
    """Click a cell the way the browser does: a mouse-down at its centre on the canvas."""
    x, y = explorer.board.layout.center_of(cell)
    assert explorer.board.click_at(x, y) == cell


def test_clicking_a_piece_lights_its_moves_and_a_target_plays():
    ex = widgets.Explorer("yokai-3x4")
    click(ex, "b1")  # the Koropokkuru
    assert ex.controller.prefix == ("b1",)
    assert ex.board.highlight["targets"] == ("a2", "c2")
    click(ex, "c2")
    assert [str(a) for a in ex.actions] == ["b1c2"]
    assert ex.state.current_player == 1
    assert ex.board.scene.token_at("c2").name == "Koropokkuru"
    assert ex.board.highlight["last"] == ("b1", "c2")
    assert ex.move_list.options == ("1. First player: Koropokkuru b1–c2",)  # numbered, side, piece
    assert ex.move_list.value == ex.move_list.options[-1]  # the last move stays in sight


def test_a_click_elsewhere_starts_over_and_an_empty_square_clears():
    ex = widgets.Explorer("yokai-3x4")
    click(ex, "b1")
    click(ex, "c1")  # another own piece: its moves instead
    assert ex.controller.prefix == ("c1",) and ex.board.highlight["targets"] == ("c2",)
    click(ex, "a3")
    assert ex.controller.prefix == () and ex.board.highlight["targets"] == ()
    assert ex.actions == []


def test_drops_start_from_the_hand_zone():
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")  # the first player captures a Kodama into the hand
    ex.play("c4b3")
    click(ex, "hand-0:C")
    assert set(ex.board.highlight["targets"]) == {"a2", "a3", "b2", "c2", "c3", "c4"}
    click(ex, "a3")
    assert str(ex.actions[-1]) == "C@a3"


def test_several_moves_on_the_same_cells_are_offered_as_choices():
    """5x6: a Kodama entering the zone may promote or not (rulebook: "Kann-Beförderung")."""
    ex = widgets.Explorer(rk.load_game("yokai-5x6"))
    ex.set_position("4k/5/1P3/5/5/K4[] w - - 0 1")
    click(ex, "b4")
    click(ex, "b5")
    labels = sorted((b.description, str(b.move)) for b in ex.choices.children)
    assert labels == [("Don't promote", "b4b5"), ("Promote", "b4b5+")] and ex.actions == []
    next(b for b in ex.choices.children if b.description == "Promote").click()
    assert ex.board.scene.token_at("b5").promoted


def test_undo_redo_and_illegal_input():
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")
    ex.play("c4b3")
    ex.undo()
    assert [str(a) for a in ex.actions] == ["b2b3"] and not ex.redo_button.disabled
    ex.redo()
    assert [str(a) for a in ex.actions] == ["b2b3", "c4b3"]
    ex.play("a1a4")
    assert "cannot step to a4" in ex.message.value and len(ex.actions) == 2


def test_agent_opponent_answers_and_export_gives_a_record():
    ex = widgets.Explorer("yokai-3x4", seed=1)
    ex.agent_plays[1].value = True
    ex.play("b1c2")
    assert len(ex.actions) == 2 and ex.state.current_player == 0
    line = ex.export()
    record = records.Record.from_json(line)
    assert [a.notation for a in record.actions] == [str(a) for a in ex.actions]
    assert record.replay()[-1] == ex.state
    assert "download=" in ex.export_area.value


def test_a_greedy_agent_takes_its_side_with_only_its_view():
    ex = widgets.Explorer("war-stories", seed=3)
    ex.sample_chance()  # the deal
    ex.agent_kind.value = "greedy"
    ex.agent_plays[1].value = True

    def flip():
        ex.play(next(m for m in ex.state.legal_moves() if str(m).startswith("flip:")))

    flip()
    while ex.state.flips:  # our flipping turn goes on until it ends; then the agent plays
        flip()
    assert ex.state.current_player == 0 or ex.state.is_terminal()
    assert any(str(a).startswith(("flip:", "c7", "d7")) for a in ex.actions[3:])  # the agent moved


def test_new_game_with_options_and_bad_options():
    ex = widgets.Explorer("yokai-3x4")
    ex.option_widgets["repetitions"].value = 4
    ex.new_game()
    assert ex.game.options["repetitions"] == 4
    ex.option_widgets["repetitions"].value = 1
    ex.new_game()
    assert "at least 2" in ex.message.value and ex.game.options["repetitions"] == 4


@pytest.mark.parametrize("game_id", rk.list_games())
def test_every_game_can_be_played_by_clicks(game_id):
    """For every game: each click on the first cell of a random legal move lights up that
    move's next cell, and following its cells plays it (or offers it as a choice)."""
    ex = widgets.Explorer(game_id, seed=2)
    ex.perspective.value = ALL_SEEING  # analysis: no hand-over curtain between the turns
    rng = random.Random(4)
    for _ in range(12):
        state = ex.state
        if state.is_terminal():
            break
        assert state.current_player != rk.CHANCE  # chance resolves itself
        move = rng.choice(state.legal_moves())
        before = list(ex.actions)
        for i, cell in enumerate(move.cells):
            click(ex, cell)
            if i + 1 < len(move.cells):
                assert move.cells[i + 1] in ex.board.highlight["targets"]
        if ex.state is state:  # several moves share these cells: pick ours
            button = next(b for b in ex.choices.children if b.move == move)
            button.click()
        played = [a for a in ex.actions[len(before) :] if not a.is_chance]  # chance may follow
        assert str(played[0]) == str(move)


@pytest.mark.parametrize("game_id", rk.list_games())
def test_bare_states_show_as_svg(game_id):
    state = rk.load_game(game_id).initial_state()
    svg = state._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    scene = state.scene()
    for token in scene.tokens:  # each token carries a tooltip naming it and its cell
        assert f"on {token.cell}" in svg


def test_layout_hit_tests_cells_and_zones():
    scene = rk.load_game("yokai-3x4").initial_state().play("b2b3").scene()
    layout = layout_scene(scene)
    for cell in scene.cells:
        assert layout.hit(*layout.center_of(cell.id)) == cell.id
    assert layout.hit(*layout.center_of("hand-0:C")) == "hand-0:C"
    assert layout.hit(1, 1) is None
    flipped = layout_scene(scene, flip=True)
    assert flipped.center_of("a1")[1] < flipped.center_of("a4")[1]  # a1 at the top when flipped


def test_controller_alone():
    state = rk.load_game("yokai-3x4").initial_state()
    c = ClickController(state)
    assert c.first_cells() == ("b1", "b2", "c1")
    assert c.click("b2").kind == "select" and c.next_cells() == ("b3",)
    result = c.click("b3")
    assert result.kind == "move" and str(result.move) == "b2b3"


def test_replay_steps_through_precomputed_states(tmp_path):
    game = rk.load_game("yokai-3x4")
    states = rk.playout(game.initial_state(), random.Random(5), max_plies=40)
    actions = [s.last_move for s in states[1:]]
    path = tmp_path / "g.jsonl"
    records.write_records(path, [records.Record.from_actions(game, actions)])
    rp = widgets.Replay(path)
    assert rp.slider.max == len(actions) and len(rp.scenes) == len(states)
    rp.slider.value = 3
    assert rp.board.scene == states[3].scene() and rp.moves.index == 3
    rp.moves.index = 1
    assert rp.slider.value == 1
    rp.jump(len(actions))
    assert rp.board.scene.status == states[-1].scene().status
    assert rp.player.value == rp.slider.value == len(actions)  # both ends of the browser link
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        json.dumps({"format": "rules-explorer/1", "game": "yokai-3x4", "options": {}, "actions": ["b2b4"]})
        + "\n"
    )
    rp.load(bad)
    assert "line 1, ply 0" in rp.info.value and rp.slider.max == len(actions)  # old game kept


def test_replay_is_a_view_of_its_session(tmp_path):
    """Issue #21 item 4: Replay's history is its Session's (Session.from_record): the main line
    holds every ply of the record, and the slider, jump and move list move the session."""
    game = rk.load_game("yokai-3x4")
    states = rk.playout(game.initial_state(), random.Random(7), max_plies=30)
    actions = [s.last_move for s in states[1:]]
    path = tmp_path / "g.jsonl"
    records.write_records(path, [records.Record.from_actions(game, actions)])
    rp = widgets.Replay(path)
    line = rp.session.main_line()
    assert len(line) == len(actions) + 1 and rp.session.ply == 0
    assert [node.notation for node in line[1:]] == [str(a) for a in actions]
    rp.slider.value = 4
    assert rp.session.ply == 4 and rp.session.state == states[4] and rp.states[4] is line[4].state
    rp.jump(len(actions))
    assert rp.session.ply == len(actions) and rp.slider.value == len(actions)
    rp.session.go_to(2)  # the session moved by other hands: the view follows
    assert rp.slider.value == 2 and rp.board.scene == states[2].scene() and rp.moves.index == 2


def test_hex_maps_lay_out_and_draw():
    """The hex path of the drawing code, on the 2-player War Chest map of rules/NOTES.md
    (37 hexes, 0 <= x, y <= 6, 3 <= x + y <= 9), with coins, markers and locations."""
    from rules_kernel.scene import Cell, Scene, Token

    locations = {(4, 0), (6, 1), (0, 5), (2, 6), (2, 1), (3, 2), (5, 3), (1, 3), (3, 4), (4, 5)}
    cells = tuple(
        Cell(
            f"{x},{y}",
            x,
            y,
            shade="location" if (x, y) in locations else None,
            marker=0 if (x, y) in {(4, 0), (6, 1)} else 1 if (x, y) in {(0, 5), (2, 6)} else None,
        )
        for x in range(7)
        for y in range(7)
        if 3 <= x + y <= 9
    )
    archer = Token("3,2", "Archer", "Ar", owner=0, kind="coin", height=3)
    scene = Scene("hex-demo", "hex", cells, tokens=(archer,), players=("A", "B"), status="A to move")
    assert len(cells) == 37
    layout = layout_scene(scene)
    for cell in cells:
        assert layout.hit(*layout.center_of(cell.id)) == cell.id
    # side A's start (low y) is drawn at the bottom
    assert layout.center_of("4,0")[1] > layout.center_of("2,6")[1]
    svg = widgets.scene_to_svg(scene)
    assert svg.count("<polygon") >= 37 and "Archer (A) on 3,2, 3 coins" in svg


def test_replay_of_a_four_player_war_chest_record():
    """A shipped 4-player record: the draft at the start, a team's win at the end."""
    path = Path(__file__).parent.parent / "data" / "war-chest-4p-greedy-vs-random.jsonl"
    rp = widgets.Replay(path, index=0)
    assert rp.board.scene.layout == "hex" and len(rp.board.scene.cells) == 47
    rp.jump(rp.slider.max)
    assert rp.board.scene.status.startswith("Team ") and "wins" in rp.board.scene.status


def test_options_are_real_inputs_with_help_text():
    """Armies as one dropdown per player, War Chest armies chosen unit by unit, caps as
    'stop after N', each with its Option's doc as help text."""
    ex = widgets.Explorer("to-war")
    armies = ex.form.fields["armies"]
    assert [d.value for d in armies.inputs] == ["southern", "northern"]
    armies.inputs[1].value = "western"
    ex.new_game()
    assert ex.game.options["armies"] == ["southern", "western"]
    assert "first and the second player&#x27;s army" in armies.widget.children[-1].value  # escaped

    ex = widgets.Explorer("war-chest")
    setup = ex.form.fields["setup"]
    setup.mode.value = setup.CHOOSE
    for row, army in enumerate(
        (["archer", "berserker", "cavalry", "crossbowman"], ["ensign", "footman", "knight", "lancer"])
    ):
        for column, unit in enumerate(army):
            setup.rows[row][column].value = unit
    cap = ex.form.fields["max_actions"]
    cap.enabled.value, cap.number.value = True, 300
    ex.new_game()
    assert ex.game.options["setup"][1] == ["ensign", "footman", "knight", "lancer"]
    assert ex.game.options["max_actions"] == 300
    setup.rows[1][3].value = None  # an army one unit short: the kernel's words, one line
    ex.new_game()
    assert "armies of 4 units" in ex.message.value and ex.game.options["max_actions"] == 300


def test_hand_over_curtain_between_two_people_at_one_screen():
    ex = widgets.Explorer("war-stories", seed=5)
    assert ex.viewer == 0 and ex.curtain_for is None  # opens in the view of the player to move
    while ex.state.current_player == 0:
        ex.play(next(m for m in ex.state.legal_moves()))
    if ex.state.hand_over_from == 0:  # a flipping turn: first a look at what it turned up
        assert ex.curtain_for is None and ex.viewer == 0
        ex.done_button.click()
    assert ex.curtain_for == 1 and ex.board.widget.layout.display == "none"
    assert ex.move_list.options == () and ex.all_moves.options == ()  # nothing of either view
    ex.curtain_button.click()
    assert ex.curtain_for is None and ex.viewer == 1 and ex.board.scene.perspective == 1


def test_no_text_on_any_board_is_under_11_pixels():
    import re

    games = (
        ("yokai-3x4", {}),
        ("yokai-5x6", {}),
        ("war-stories", {}),
        ("to-war", {"strategic": True}),
        ("war-chest", {}),
        ("war-chest", {"players": 4}),
    )
    for game_id, options in games:
        state = rk.load_game(game_id, **options).initial_state()
        rng = random.Random(1)
        for _ in range(14):
            if state.is_terminal():
                break
            state = state.apply(
                state.sample_chance(rng)
                if state.current_player == rk.CHANCE
                else rng.choice(state.legal_moves())
            )
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', state._repr_svg_())]
        assert sizes and min(sizes) >= 11, game_id


@pytest.fixture(scope="module")
def small_tablebase(tmp_path_factory, compiled_tablebase):
    """A real table of a closed sub-game (the Koropokkuru and one Tanuki), built here."""
    from rules_kernel.tablebase import Tablebase

    return Tablebase.build(material=(0, 0, 1), directory=tmp_path_factory.mktemp("tb"), progress=False)


def test_perfect_play_colours_targets_by_value(small_tablebase, monkeypatch):
    """Yokai 3x4 is solved: each target of the selected piece shows its move's value for the
    mover (W/D/L and plies), the status names who wins in how many plies."""
    monkeypatch.setattr(game_parts, "solved_table_availability", lambda game: "ready")
    ex = widgets.Explorer("yokai-3x4", position="1l1/3/1G1/1L1[] w - - 0 1")
    assert ex.perfect.layout.display == "" and not ex.perfect.disabled
    ex.tablebase = small_tablebase
    ex.perfect.value = True
    best = small_tablebase.best_moves(ex.state)
    assert f"First player wins in {best[0].value.plies} plies" in ex.status.value
    click(ex, "b2")  # the Tanuki
    marks = ex.board.highlight["marks"]
    for rated in best:
        if rated.move.cells[0] == "b2":
            colour, label = marks[rated.move.cells[1]]
            assert label == f"{rated.value.result[0].upper()} {rated.value.plies}"
    assert "perfect" in [value for _, value in ex.agent_kind.options]
    ex.perfect.value = False
    click(ex, "b2")
    assert ex.board.highlight["marks"] == {}


def test_perfect_play_without_a_table_says_so_without_path_or_command(tmp_path, monkeypatch):
    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path))
    ex = widgets.Explorer("yokai-3x4")
    ex.perfect.value = True
    assert "not available" in ex.message.value and not ex.perfect.value
    assert "rules-explorer" not in ex.message.value and str(tmp_path) not in ex.message.value


class _Calls:
    """Counts the calls of a function while passing them on."""

    def __init__(self, function):
        self.function, self.count = function, 0

    def __call__(self, *args, **kwargs):
        self.count += 1
        return self.function(*args, **kwargs)


def test_a_refresh_computes_the_presentation_once_and_the_scene_once(monkeypatch):
    """The Explorer is a view of its session: a click that plays a move, an undo, a redo, a
    refresh each compute one presentation and at most one scene (issue #21 item 4)."""
    import widgets.explorer.explorer as explorer_module  # the module whose refresh calls present

    ex = widgets.Explorer("yokai-3x4")
    present = _Calls(explorer_module.present)
    scene_part = rk.info(ex.state.game).part("scene")  # the game's scene.py, asked by parts.scene
    scene = _Calls(scene_part.scene)
    monkeypatch.setattr(explorer_module, "present", present)
    monkeypatch.setattr(scene_part, "scene", scene)

    def calls(action) -> tuple[int, int]:
        present.count = scene.count = 0
        action()
        return present.count, scene.count

    assert calls(lambda: click(ex, "b1")) == (0, 0)  # a selection only lights targets
    assert calls(lambda: click(ex, "c2")) == (1, 1)  # the move: one presentation, one new scene
    assert calls(lambda: ex.play("a4a3")) == (1, 1)
    assert ex.move_list.options == ("1. First player: Koropokkuru b1–c2", "2. Second player: Tanuki a4–a3")
    assert calls(ex.undo) == (1, 0)  # the position shown before: its scene is known
    assert calls(ex.redo) == (1, 0)
    assert calls(ex.refresh) == (1, 0)
    assert calls(lambda: ex.play("a1a4")) == (0, 0) and "cannot" in ex.message.value  # illegal: no redraw


def test_the_explorer_is_a_view_of_its_session():
    """Undo keeps the line (lichess): a different move from a past position is a variation,
    Reset goes to the start and Redo walks the game again; a loaded position is the record's start."""
    ex = widgets.Explorer("yokai-3x4")
    ex.play("b2b3")
    ex.play("c4b3")
    ex.undo()
    ex.play("a4a3")
    assert [str(a) for a in ex.actions] == ["b2b3", "a4a3"] and ex.redo_button.disabled
    assert [n.notation for n in ex.session.main_line()] == [None, "b2b3", "c4b3"]
    ex.reset()
    assert ex.actions == [] and ex.undo_button.disabled and not ex.redo_button.disabled
    ex.redo()
    assert [str(a) for a in ex.actions] == ["b2b3"]
    ex.set_position("1l1/3/1G1/1L1[] w - - 0 1")
    assert json.loads(ex.export())["start"] == "1l1/3/1G1/1L1[] w - - 0 1"  # a record from there
