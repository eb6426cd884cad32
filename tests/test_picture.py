"""Pictures of positions and games (issue #24 item 5): PNG decoded, GIF frames = plies + 1,
an animated SVG that is well-formed XML with one frame per position, and a player's view
that names no card it hides."""

from __future__ import annotations

import io
import random
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import rules_kernel as rk
from rules_kernel import records
from widgets import picture
from widgets.layout import layout_scene

SVG = "{http://www.w3.org/2000/svg}"


def short_game(game_id: str, plies: int, seed: int = 1) -> records.Record:
    state, actions, rng = rk.load_game(game_id).initial_state(), [], random.Random(seed)
    while len(actions) < plies and not state.is_terminal():
        action = (
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
        actions.append(action)
        state = state.apply(action)
    return records.Record.from_actions(state.game, actions)


def hidden_names(state: rk.State, viewer: int) -> set[str]:
    """The names of the cards face down in `viewer`'s scene that no face-up card shares."""
    everything, seen = state.scene(None), picture.scene_of(state, viewer)
    hidden = {
        everything.token_at(cell.id).name
        for cell in seen.cells
        if (token := seen.token_at(cell.id)) is not None and token.face_down
    }
    return hidden - {t.name for cell in seen.cells if (t := seen.token_at(cell.id)) and not t.face_down}


def named(names: set[str], svg: str) -> set[str]:
    """The names written in a picture as whole words ("Ki" is not found in "Kibatai")."""
    import re

    return {name for name in names if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", svg)}


@pytest.mark.parametrize("game_id", ["yokai-3x4", "war-chest"])
def test_a_png_decodes_at_the_boards_size(game_id):
    state = short_game(game_id, 6).final_state()
    layout = layout_scene(state.scene(None))
    for scale in (1, 2):
        image = Image.open(io.BytesIO(picture.png(state, scale=scale)))
        image.load()
        assert image.format == "PNG"
        assert image.size == (round(layout.width * scale), round(layout.height * scale))
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
        assert len(colours) > 20  # pieces, board, text: not a blank page


def test_a_gif_has_one_frame_per_ply_and_the_start():
    record = short_game("yokai-3x4", 7)
    image = Image.open(io.BytesIO(picture.gif(record, seconds=0.5)))
    assert image.format == "GIF" and image.n_frames == len(record.actions) + 1 == 8
    assert image.info["duration"] == 500
    image.seek(image.n_frames - 1)
    assert image.info["duration"] == 1000  # the last position stays twice as long


def test_an_animated_svg_is_well_formed_with_one_frame_per_position():
    record = short_game("to-war", 9)
    root = ET.fromstring(picture.animated_svg(record, seconds=0.4))
    frames = root.findall(f"{SVG}g[@visibility]")
    assert len(frames) == len(record.actions) + 1
    assert [f.get("visibility") for f in frames].count("visible") == 1  # the last, where SMIL is not played
    clocks = [f.find(f"{SVG}animate") for f in frames]
    assert all(c is not None and c.get("dur") == f"{0.4 * len(frames):g}s" for c in clocks)


def test_a_players_picture_hides_what_the_player_cannot_see():
    """War Stories in player 0's view: the cards face down on the table are not named in the
    picture (all-seeing, they are)."""
    state = short_game("war-stories", 2).final_state()
    hidden = hidden_names(state, 0)
    assert len(hidden) >= 5, hidden
    players_picture, all_seeing_picture = picture.svg(state, viewer=0), picture.svg(state)
    assert not named(hidden, players_picture)
    assert named(hidden, all_seeing_picture) == hidden


def test_save_picks_the_kind_by_suffix_and_refuses_others(tmp_path):
    record = short_game("yokai-3x4", 3)
    assert Image.open(picture.save(record, tmp_path / "game.gif")).n_frames == 4
    assert Image.open(picture.save(record, tmp_path / "last.png")).format == "PNG"
    assert ET.parse(picture.save(record.final_state(), tmp_path / "pos.svg")).getroot().tag == f"{SVG}svg"
    with pytest.raises(rk.RulesError, match=r"game\.jpg: a picture is \.svg, \.png or \.gif"):
        picture.save(record, tmp_path / "game.jpg")
    assert not (tmp_path / "game.jpg").exists()


def test_the_explorers_picture_is_drawn_in_the_pages_view():
    """The Export menu's pictures: a download link in the page's view (no hidden card named),
    the game so far with one frame per position, and nothing while the curtain is down."""
    import base64
    import re

    import widgets

    explorer = widgets.Explorer("war-stories", seed=2)
    state = explorer.state
    hidden = {
        state.scene(None).token_at(c.id).name for c in state.scene(0).cells if state.scene(0).token_at(c.id)
    }
    hidden -= {
        t.name for c in picture.scene_of(state, 0).cells if (t := picture.scene_of(state, 0).token_at(c.id))
    }
    explorer.pictures.kind.value = "svg"
    data = re.search(r"base64,([^\"]+)", explorer.pictures.make()).group(1)
    drawn = base64.b64decode(data).decode()
    assert hidden and not named(hidden, drawn)
    explorer.pictures.kind.value = "gif"
    data = re.search(r"base64,([^\"]+)", explorer.pictures.make()).group(1)
    assert Image.open(io.BytesIO(base64.b64decode(data))).n_frames == explorer.session.ply + 1

    explorer = widgets.Explorer("to-war", seed=1, strategic=True)  # hidden hands: a curtain
    explorer.play(explorer.state.legal_moves()[0])
    assert explorer.curtain_for is not None
    assert "Nothing to draw while the board is hidden" in explorer.pictures.make()


def test_the_draw_command_writes_pictures_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    """`rules-explorer draw` (a command of widgets/ the kernel's CLI finds by its entry point):
    a game as a GIF with plies + 1 frames, a position after --ply as PNG, errors as one line."""
    from rules_kernel import cli

    games = tmp_path / "games.jsonl"
    record = short_game("yokai-3x4", 5)
    records.write_records(games, [record])
    assert cli.main(["draw", str(games), "-o", str(tmp_path / "game.gif")]) == 0
    assert Image.open(tmp_path / "game.gif").n_frames == 6
    assert cli.main(["draw", str(games), "--ply", "2", "--scale", "2", "-o", str(tmp_path / "p.png")]) == 0
    assert Image.open(tmp_path / "p.png").format == "PNG"
    capsys.readouterr()
    assert cli.main(["draw", str(games), "--ply", "9", "-o", str(tmp_path / "q.png")]) == 2
    assert cli.main(["draw", str(games), "--view", "x", "-o", str(tmp_path / "q.png")]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert errors == [
        "rules-explorer: error: --ply 9: the game has plies 0 to 5",
        "rules-explorer: error: --view 'x': give a seat number (0 to 1) or 'all'",
    ]
    assert not (tmp_path / "q.png").exists()


def test_the_replays_picture_is_the_game_up_to_the_ply_shown_in_its_perspective():
    import base64
    import re

    from widgets.replay import Replay

    replay = Replay("data/war-stories-greedy-vs-random.jsonl", perspective=0)
    replay.show(6)
    replay.pictures.kind.value = "gif"
    data = re.search(r"base64,([^\"]+)", replay.pictures.make()).group(1)
    assert Image.open(io.BytesIO(base64.b64decode(data))).n_frames == 7
    replay.pictures.kind.value = "svg"
    drawn = base64.b64decode(re.search(r"base64,([^\"]+)", replay.pictures.make()).group(1)).decode()
    hidden = hidden_names(replay.states[6], 0)
    assert hidden and not named(hidden, drawn)
