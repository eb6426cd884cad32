"""One drawing list, two backends (issue #21 items 6 and 7).

- The SVG the board, the pictures and the hit layer are made of is byte-for-byte what it was
  before the drawing list: tests/golden/drawing.json holds eleven scenes as data (the five
  games' start positions, War Chest for four, positions in play and players' views, with
  highlights) and the SHA-256 of the SVG the old code made of each. The scenes are stored,
  not recomputed, so a rules change elsewhere cannot move these goldens; a drawing change can.
  A deliberate change regenerates them: War Chest's three cases got their hexes' names (cell
  labels, issue #22 item 3) and coins named without the stack count, and their hashes anew;
  all eleven got new hashes when names were fitted to their shapes, coins grew to fill their
  hexes, the last move's tint moved under the tokens and empty piles said "empty" (issue #22
  items 10 and 11, tests/test_labels.py).
- The same list drives both backends: every op reaches the canvas as the calls it stands for.
- The heatmap counts on a hand-made actions frame, and the canvas commands a heatmap sends.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from ipycanvas import canvas as ipycanvas_module

from rules_kernel import heatmaps
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem
from widgets import draw, heatmap
from widgets.canvas import CanvasPainter, _runs, rgb
from widgets.layout import layout_scene
from widgets.svg import board_svg, highlight_body, hit_layer, scene_body, scene_to_svg, svg_elements

GOLDEN = json.loads((Path(__file__).parent / "golden" / "drawing.json").read_text(encoding="utf-8"))
COMMAND_NAMES = ipycanvas_module._CMD_LIST


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def scene_from(data: dict) -> Scene:
    def pairs(values):
        return tuple(tuple(v) if isinstance(v, list) else v for v in values)

    return Scene(
        **{
            **data,
            "cells": tuple(Cell(**c) for c in data["cells"]),
            "tokens": tuple(
                Token(**{**t, "flags": tuple(t["flags"]), "steps": pairs(t["steps"])}) for t in data["tokens"]
            ),
            "zones": tuple(
                Zone(**{**z, "items": tuple(ZoneItem(**i) for i in z["items"])}) for z in data["zones"]
            ),
            "players": tuple(data["players"]),
            "last_cells": tuple(data["last_cells"]),
        }
    )


def highlight_from(data: dict) -> dict:
    return {
        k: ({c: tuple(v) for c, v in value.items()} if k == "marks" else tuple(value))
        for k, value in data.items()
    }


@pytest.mark.parametrize("case", GOLDEN, ids=lambda case: case["name"])
def test_svg_is_what_it_was_before_the_drawing_list(case):
    scene = scene_from(case["scene"])
    layout = layout_scene(scene)
    assert sha(scene_to_svg(scene)) == case["svg"]
    assert sha(scene_body(scene, layout_scene(scene, room=390))) == case["narrow_body"]  # a phone's layout
    assert sha(hit_layer(scene, layout)) == case["hit_layer"]
    if case["highlight_body"]:
        assert sha(highlight_body(layout, **highlight_from(case["highlight"]))) == case["highlight_body"]


def test_the_golden_cases_cover_every_game_at_the_start():
    starts = {case["scene"]["game"] for case in GOLDEN if case["name"].endswith(" start")}
    assert starts == {"yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"}


# --- the drawing list is plain data and backend-neutral -----------------------------------------


def scene_named(name: str) -> Scene:
    return scene_from(next(case["scene"] for case in GOLDEN if case["name"] == name))


class Sent:
    """The canvas commands a painter sends (what would go to the browser), decoded by name."""

    def __init__(self, monkeypatch):
        self.batches: list[list] = []
        monkeypatch.setattr(
            ipycanvas_module._CANVAS_MANAGER,
            "_send_custom",
            lambda commands, buffers=(): self.batches.append(commands),
        )

    def commands(self, batch: int = -1) -> list[tuple[str, list]]:
        out = []
        for command in self.batches[batch]:
            name = COMMAND_NAMES[command[0]]
            out.append((name, command[1] if len(command) > 1 else []))
        return out

    def named(self, name: str, batch: int = -1) -> list[list]:
        return [args for n, args in self.commands(batch) if n == name]


def test_the_drawing_list_is_plain_data():
    ops = draw.draw_scene(
        scene_named("war-stories 12 plies, first player's view"),
        layout_scene(scene_named("war-stories 12 plies, first player's view")),
    )
    assert ops and all(isinstance(op, tuple) for op in ops)
    kinds = {type(op).__name__ for op in ops}
    assert {"Rect", "Polygon", "Text", "Group", "EndGroup"} <= kinds
    # numbers, strings and tuples only: the list survives JSON and compares equal by value
    again = [type(op)(*json.loads(json.dumps(op))) for op in ops]
    assert [tuple(map(_tuples, op)) for op in again] == [tuple(map(_tuples, op)) for op in ops]


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, (list, tuple)) else value


def test_one_list_drives_both_backends(monkeypatch):
    """The board's own drawing of a scene in play: the SVG is the list written out, and the
    canvas gets every text at its place, every shape and every style the list names."""
    sent = Sent(monkeypatch)
    scene = scene_named("yokai-3x4 6 plies, second player's view")
    layout = layout_scene(scene)
    ops = draw.draw_scene(scene, layout) + draw.draw_highlights(layout, last=scene.last_cells)
    assert svg_elements(ops).count("<") - svg_elements(ops).count("</") == len(ops)  # an element an op
    painter = CanvasPainter(layout.width, layout.height, scale=1)
    painter.paint(ops)
    texts = [op for op in ops if isinstance(op, draw.Text)]
    assert [(a[0], a[1], a[2]) for a in sent.named("fillText")] == [(t.text, t.x, t.y) for t in texts]
    polygons = [op for op in ops if isinstance(op, draw.Polygon)]
    filled = sum(a[0] for a in sent.named("fillStyledPolygons")) + len(sent.named("fillPolygon"))
    stroked = sum(a[0] for a in sent.named("strokeStyledPolygons")) + len(sent.named("strokePolygon"))
    assert filled == sum(1 for op in polygons if op.fill)
    assert stroked == sum(1 for op in polygons if op.stroke)
    circles = [op for op in ops if isinstance(op, draw.Circle)]
    # a styled batch of circles carries its x coordinates as an array: its length is the count
    assert len(sent.named("fillCircle")) + sum(
        a[0]["shape"][0] for a in sent.named("fillStyledCircles")
    ) == sum(1 for op in circles if op.fill)
    assert len(sent.named("strokeCircle")) == sum(1 for op in circles if op.stroke)
    colours = {args[1] for name, args in sent.commands() if name == "set" and args[0] in (0, 1)}
    wanted = {op.fill for op in ops if getattr(op, "fill", None) and rgb(op.fill) is None} | {
        op.color for op in texts
    }
    assert wanted <= colours  # fill and stroke styles as the list names them
    assert len(sent.batches) == 1  # hold_canvas: the whole drawing in one message


def test_only_neighbouring_ops_are_batched():
    red, blue = "#FF0000", "#0000FF"
    square = ((0, 0), (1, 0), (1, 1))
    ops = [
        draw.Polygon(square, fill=red),
        draw.Polygon(square, fill=blue),
        draw.Text(0, 0, "x"),
        draw.Polygon(square, fill=red),
        draw.Polygon(square, stroke=red, width=2),
        draw.Polygon(square, stroke=blue, width=2),
        draw.Polygon(square, stroke=red, width=3),
        draw.Polygon(square, fill="red"),
    ]  # not #RRGGBB: drawn on its own with its name
    assert [(how, len(run)) for how, run in _runs(ops)] == [
        ("fill", 2),
        ("one", 1),
        ("one", 1),
        ("stroke", 2),
        ("one", 1),
        ("one", 1),
    ]


def test_a_canvas_paints_again_when_a_browser_connects(monkeypatch):
    """A Voilà page meets the canvas after the notebook ran: the drawing is sent again then."""
    sent = Sent(monkeypatch)
    painter = CanvasPainter(100, 50)
    painter.paint([draw.Rect(0, 0, 100, 50, fill="#FFFFFF"), draw.Text(50, 25, "hello")])
    painter.canvas._handle_frontend_event(None, {"event": "client_ready"}, [])
    assert len(sent.batches) == 2
    assert sent.named("fillText", 0) == sent.named("fillText", 1) == [["hello", 50, 25]]
    assert sent.named("setTransform", 1) == [[2, 0, 0, 2, 0, 0]]  # two device pixels a unit


# --- heatmap data on a hand-made actions frame ---------------------------------------------------


def actions_frame(rows: list[tuple]) -> pd.DataFrame:
    columns = ["record", "game", "ply", "action", "chance", "player", "piece", "capture"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["player"] = frame["player"].astype("Int64")
    return frame


ACTIONS = actions_frame(
    [
        (0, "yokai-3x4", 0, "b2b3", False, 0, "Kodama", True),
        (0, "yokai-3x4", 1, "a4b3", False, 1, "Tanuki", True),
        (0, "yokai-3x4", 2, "C@a2", False, 0, "Kodama", False),
        (0, "yokai-3x4", 3, "b4c3", False, 1, "Koropokkuru", False),
        (0, "yokai-3x4", 4, "b1b2", False, 0, "Koropokkuru", False),
        (1, "yokai-3x4", 0, "b2b3", False, 0, "Kodama", True),
        (1, "yokai-3x4", 1, "c3c4+", False, 0, "Kodama", True),
        (2, "yokai-3x4", 0, "c1c2", False, 0, "Tanuki", False),  # a game without a capture
        (3, "yokai-5x6", 0, "b2b3", False, 0, "Kodama", True),  # another game: not counted
        (4, "war-chest", 0, "deal:a/b", True, None, None, False),
        (4, "war-chest", 1, "control pikeman 1,3", False, 0, "Pikeman", False),
        (4, "war-chest", 9, "control 1,3", False, 1, "Pikeman ×2", False),
        (4, "war-chest", 12, "move scout 2,1 2,2", False, 0, "Scout", False),
        (5, "war-chest", 30, "control scout 5,3", False, 1, "Scout", False),
        (6, "to-war", 0, "draw:KRI", True, None, None, False),
        (6, "to-war", 1, "KRI@b2", False, 0, "Krieger", False),
        (6, "to-war", 2, "c4c5", False, 0, "Krieger", False),  # into the camp
        (7, "to-war", 5, "a1a0", False, 1, "Ritter", False),
        (7, "to-war", 6, "a2a1", False, 1, "Ritter", False),
    ]
)


def test_capture_counts():
    result = heatmaps.captures(ACTIONS, "yokai-3x4")
    assert result.counts() == {"b3": 3, "c4": 1}
    assert (result.games, result.events) == (3, 4)
    assert result.cells.loc["b3", "games"] == 2
    assert result.cells.loc["b3", "first_ply"] == 0 and result.cells.loc["b3", "median_ply"] == 0


def test_piece_moves_seen_from_the_mover():
    turned = heatmaps.piece_moves(ACTIONS, "yokai-3x4", "Koropokkuru", files=3, ranks=4)
    assert turned.counts() == {"a2": 1, "b2": 1}  # the second player's c3 is the first's a2
    plain = heatmaps.piece_moves(ACTIONS, "yokai-3x4", "Koropokkuru", files=3, ranks=4, mover_view=False)
    assert plain.counts() == {"c3": 1, "b2": 1}


def test_control_and_breakthrough_counts():
    control = heatmaps.verb_cells(ACTIONS, "war-chest", "control")
    assert control.counts() == {"1,3": 2, "5,3": 1}
    assert (control.games, control.events) == (2, 3)
    assert control.cells.loc["1,3", "median_ply"] == 5
    board = [f"{f}{r}" for f in "abc" for r in range(1, 5)]
    breakthroughs = heatmaps.moves_off_board(ACTIONS, "to-war", board)
    assert breakthroughs.counts() == {"c4": 1, "a1": 1}


def test_a_frame_without_the_columns_says_which():
    with pytest.raises(heatmaps.HeatmapError, match="capture"):
        heatmaps.captures(ACTIONS.drop(columns="capture"), "yokai-3x4")
    with pytest.raises(heatmaps.HeatmapError, match="'chance'"):
        heatmaps.verb_cells(ACTIONS.drop(columns="chance"), "war-chest", "control")


# --- the heatmap on the canvas -------------------------------------------------------------------


def test_colour_scale_classes_cover_every_count():
    for top in (1, 2, 5, 6, 7, 13, 22, 589):
        scale = heatmap.ColourScale(top)
        classes = scale.classes
        assert classes[0][0] == 1 and classes[-1][1] == top
        assert all(a[1] + 1 == b[0] for a, b in zip(classes, classes[1:], strict=False))  # no gap, no overlap
        assert len(classes) <= len(heatmap.RAMP) and classes[-1][2] == heatmap.RAMP[-1]
        assert scale.colour(0) == heatmap.NONE
        assert [scale.colour(n) for n in range(1, top + 1)] == [
            c for low, high, c in classes for _ in range(low, high + 1)
        ]


def test_a_heatmap_is_one_fill_and_one_stroke_on_the_canvas(monkeypatch):
    sent = Sent(monkeypatch)
    figure = heatmap.HeatmapFigure(picture("yokai-3x4-captures"), ACTIONS)
    cells = len(figure.layout.cells)
    fills = [n for n, _ in sent.commands() if n.startswith("fill") and n != "fillText"]
    assert fills == ["fillRect", "fillStyledPolygons"]  # the background, then every cell at once
    (polygons,) = sent.named("fillStyledPolygons")
    assert polygons[0] == cells == 12
    (outlines,) = sent.named("strokeStyledPolygons")
    assert outlines[0] == cells
    texts = [(a[0], a[1]) for a in sent.named("fillText")]
    boxes = figure.layout.cells
    # the headline, 3 + 4 coordinates, and a count in each of the two cells that have one
    assert len(texts) == 1 + 7 + 2
    wanted = {
        ("3", boxes["b3"].cx),
        ("1", boxes["c4"].cx),
        ("4 captures in 3 games", figure.layout.width / 2),
    }
    assert wanted <= set(texts)
    assert figure.counts == {"b3": 3, "c4": 1}


def picture(key: str) -> heatmap.Picture:
    return next(p for p in heatmap.pictures() if p.key == key)


def test_the_statistics_page_draws_what_the_games_declare():
    """Each game declares its heatmaps (core.Game.HEATMAPS); the page lists them in order."""
    assert [p.key for p in heatmap.pictures()] == [
        "yokai-3x4-captures",
        "yokai-3x4-koropokkuru",
        "yokai-5x6-captures",
        "to-war-breakthroughs",
        "war-chest-control",
    ]
    assert picture("war-chest-control").title == "War Chest: which locations are taken"


def test_heatmap_figure_names_n_and_has_a_legend():
    figure = heatmap.HeatmapFigure(picture("war-chest-control"), ACTIONS)
    caption = figure.widget.children[-1].value
    assert "n = 2 games, 3 control actions" in caption
    assert "re-heatmap-legend" in caption and "b4 (2)" in caption  # the hex 1,3 by the map's name
    assert "re-heatmap-war-chest-control" in figure.painter.canvas._dom_classes
    still = figure.widget.children[2]  # the same picture for a page without a kernel, hidden here
    assert "re-static-only" in still._dom_classes and still.layout.display == "none"
    assert still.value.startswith("<svg") and ">b4</text>" in still.value


def test_the_heatmap_drawing_writes_as_svg_too():
    scene = picture("yokai-3x4-captures")
    import rules_kernel as rk

    board = rk.load_game(scene.game).initial_state().scene()
    ops, layout = heatmap.heatmap_drawing(board, {"b3": 3, "c4": 1}, "4 captures")
    svg = svg_elements(ops)
    assert svg.count("<polygon") == 2 * len(layout.cells)  # fills, then outlines
    assert f'fill="{heatmap.RAMP[-1]}"' in svg and ">3</text>" in svg


def test_thumbnails_are_the_board_alone():
    scene = scene_named("yokai-3x4 start")
    svg = board_svg(scene)
    assert svg.startswith("<svg") and "hand" not in svg and scene.status not in svg
    assert svg.count("Koro-") == 2  # both Koropokkuru are on it
    width = float(svg.split('width="')[1].split('"')[0])
    assert width < layout_scene(scene).width  # cut to the board


def test_rgb():
    assert rgb("#D55E00") == (213, 94, 0)
    assert rgb("red") is None and rgb("#FFF") is None
    assert np.array([rgb("#FFFFFF")], dtype=np.uint8).shape == (1, 3)
