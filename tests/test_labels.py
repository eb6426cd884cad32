"""Names that fit their pieces (issue #22 items 10 and 11): headless, on the drawing list.

For every game's start and a few random positions in play (War Chest for two and four, To
War! strategic), at the natural layout and at a phone's (390 px), every token's and zone
item's label is measured (`widgets.labels.text_width`, DejaVu Sans Bold's advance widths)
and each line's box must lie inside its piece, coin, card or item; no text is under 11 px;
no word is broken at an arbitrary letter. The browser measures the same in the real page
(tests/test_browser_labels.py).
"""

from __future__ import annotations

import math

import pytest
from playing import SETTINGS, random_game

import rules_kernel as rk
from widgets import draw, labels
from widgets.layout import layout_scene
from widgets.svg import highlight_body, hit_layer, scene_body

GAMES = SETTINGS
PHONE = 390


def scenes(game_id: str, options: dict) -> list:
    game = rk.load_game(game_id, **options)
    out = [game.initial_state().scene()]
    for seed in (1, 2):
        states, _ = random_game(game, seed, cap=50)
        for state in (states[len(states) // 2], states[-1]):
            out.append(state.scene())
            if state.current_player >= 0:
                out.append(state.scene(state.current_player))  # a player's view
    return out


def inside(shape: labels.Shape, x: float, y: float) -> bool:
    if len(shape.outline) == 1:
        return math.hypot(x, y) <= shape.outline[0] + 1e-6
    points = shape.outline
    n = len(points)
    crosses = [
        (points[(i + 1) % n][0] - points[i][0]) * (y - points[i][1])
        - (points[(i + 1) % n][1] - points[i][1]) * (x - points[i][0])
        for i in range(n)
    ]
    return all(c >= -1e-6 for c in crosses) or all(c <= 1e-6 for c in crosses)


def check_labels(scene, layout, where: str) -> list:
    placed = draw.placed_labels(scene, layout)
    assert placed or not (scene.tokens or any(z.items for z in scene.zones)), where
    for p in placed:
        label = p.label
        assert label.size >= labels.MIN_TEXT, (where, p.title, label)
        for x0, y0, x1, y1 in label.boxes():
            corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
            assert all(inside(p.shape, x, y) for x, y in corners), (where, p.title, label, p.shape)
        breaks = rk.NAME_BREAKS.get(p.name, ())
        for line in label.lines:
            # a hyphen at a line's end only where the game declares that break
            assert not line.endswith("-") or line in breaks or p.name.startswith(line), (where, line)
        if not label.short:
            joined = " ".join(label.lines)
            assert joined == p.name or label.lines == breaks, (where, p.name, label.lines)
    return placed


@pytest.mark.parametrize("game_id, options", GAMES, ids=lambda v: str(v))
def test_every_label_lies_inside_its_shape(game_id, options):
    for i, scene in enumerate(scenes(game_id, options)):
        for room in (None, PHONE):
            check_labels(scene, layout_scene(scene, room=room), f"{game_id} {options} scene {i} room {room}")


def test_yokai_names_are_whole_on_a_desktop_and_on_a_phone():
    """'Tanuki', 'Kodama', 'Kitsune' and 'Koro-'/'pokkuru' whole, never 'L' or 'Kits-une'."""
    for scene in scenes("yokai-3x4", {}):
        for room in (None, PHONE, 370, 340):  # 340: the board's width on a 390 px phone
            placed = check_labels(scene, layout_scene(scene, room=room), f"room {room}")
            on_board = [p for p in placed if " on " in p.title]
            assert on_board and not any(p.label.short for p in on_board), room


def test_war_chest_coins_fill_their_hex_and_read_whole_names():
    game = rk.load_game("war-chest")
    states, _ = random_game(game, 1, cap=50)
    scene = states[-1].scene()
    layout = layout_scene(scene)
    coins = [p for p in draw.placed_labels(scene, layout) if " on " in p.title]
    assert coins
    hex_inner = next(iter(layout.cells.values())).size * math.sqrt(3) / 2
    ops = draw.draw_scene(scene, layout)
    radii = {round(op.r, 1) for op in ops if isinstance(op, draw.Circle) and op.fill and op.width == 2}
    assert radii and all(r >= 0.75 * hex_inner for r in radii)
    for name in ("Knight", "Archer", "Scout", "Lancer", "Ensign"):
        shape = coins[0].shape._replace(avoid=())
        assert not labels.fit(name, name[:2], shape).short, name


def test_a_stack_count_keeps_clear_of_the_name():
    shape = labels.Shape((24.0,), avoid=((17.8, -17.8, 9),))
    label = labels.fit("Knight", "Kn", shape)
    assert label.lines == ("Knight",)
    for box in label.boxes():
        assert shape.holds(box)


def test_short_forms_are_words_cut_with_a_full_stop_or_the_mark():
    tiny = labels.rect_shape(40, 40)
    (short,) = labels.fit("Kitsune", "E", tiny).lines
    assert short.endswith(".") and "Kitsune".startswith(short[:-1]) and len(short) >= 4
    assert labels.fit("Koropokkuru", "L", tiny).lines == ("Koro.",)
    assert labels.fit("Crossbowman", "Cr", labels.Shape((12.0,))).lines == ("Cr",)


def test_the_last_move_tints_under_the_tokens():
    """A blue piece on the last move's square stays blue: the tint is in the scene layer,
    before the tokens; the highlight layer draws only the outline over them."""
    game = rk.load_game("yokai-3x4")
    state = game.initial_state()
    state = state.apply(state.parse_move("b1c2"))
    state = state.apply(state.legal_moves()[0])
    scene = state.scene()
    assert scene.last_cells
    layout = layout_scene(scene)
    ops = list(draw.draw_scene(scene, layout))
    tints = [i for i, op in enumerate(ops) if isinstance(op, draw.Polygon) and op.fill == draw.LAST]
    tokens = [i for i, op in enumerate(ops) if isinstance(op, draw.Group)]
    assert tints and max(tints) < min(tokens)
    over = draw.draw_highlights(layout, last=scene.last_cells)
    assert over and all(getattr(op, "fill", None) is None for op in over)
    assert 'fill="none"' in highlight_body(layout, last=scene.last_cells)


def test_an_empty_discard_pile_is_no_face_down_coin():
    scene = rk.load_game("war-chest").initial_state().scene()
    layout = layout_scene(scene)
    body, hits = scene_body(scene, layout), hit_layer(scene, layout)
    assert ">empty</text>" in body
    assert "discard pile: empty" in hits and "face-down coin" not in hits
    assert draw.item_words(rk.scene.ZoneItem("x:y", "?", "?", face_down=True)) == "face-down card"
