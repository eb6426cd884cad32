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


@pytest.mark.parametrize("game_id, options", GAMES, ids=lambda v: str(v))
def test_a_name_has_one_short_form_in_every_place(game_id, options):
    """Issue 46 item 5: "one short name per unit" — a unit read "Warri. Priest" in one box,
    "Warr. Prie." in another and "WP" on the map. Where a whole name does not fit, every place
    writes the same short form (`labels.short_name`); only where not even that fits, the mark."""
    shorts: dict[str, set[str]] = {}
    for scene in scenes(game_id, options):
        for room in (None, PHONE):
            for p in draw.placed_labels(scene, layout_scene(scene, room=room)):
                if p.label.short and " ".join(p.label.lines) not in (p.name, p.name[:2]):
                    shorts.setdefault(p.name, set()).add(" ".join(p.label.lines))
    for name, forms in shorts.items():
        marks = {f for f in forms if "." not in f}  # a mark ("WP", "Sw") is not a short name
        assert forms - marks <= {labels.short_name(name)}, (name, forms)


def test_short_names_keep_four_letters_of_each_long_word_or_the_declared_break():
    assert labels.short_name("Warrior Priest") == "Warr. Prie."
    assert labels.short_name("Light Cavalry") == "Light Cava."
    assert labels.short_name("Koropokkuru") == "Koro."  # Yōkai's declared break: "Koro-"/"pokkuru"
    assert labels.short_name("Royal Guard") == "Royal Guard"  # no word to cut: the name itself


def test_zone_headings_wrap_whole_and_strips_keep_their_zones_apart():
    """Issue 46 item 5: "Side A: supply (Marshall, Mercenary, Pikeman, Wa…" — a heading is
    never cut: it wraps at spaces within its room, every word kept, and the items start under
    its last line; in the compact strip of another player's zones, a line stands between one
    zone's items and the next's."""
    game = rk.load_game("war-chest", players=4)
    states, _ = random_game(game, 2, cap=40)
    scene = states[-1].scene()
    for room in (None, PHONE):
        layout = layout_scene(scene, room=room)
        for box in layout.zones:
            lines = box.heading_lines
            assert " ".join(lines) == " ".join(box.heading.split()) and not any("…" in x for x in lines)
            assert all(labels.text_width(line, 12) <= box.room for line in lines if " " in line)
            assert all(item.y >= box.y + 18 * len(lines) for item in box.items), box.zone.id
        assert any(len(box.heading_lines) > 1 for box in layout.zones), room  # the supply's list
        separated = [box for box in layout.zones if box.separator is not None]
        assert separated, room
        ops = draw.draw_scene(scene, layout)
        lines = [op for op in ops if isinstance(op, draw.Line)]
        for box in separated:
            x, top, bottom = box.separator
            assert any(op.x1 == op.x2 == x and top <= op.y1 < op.y2 <= bottom for op in lines), box.zone.id


@pytest.mark.parametrize("game_id, options", GAMES, ids=lambda v: str(v))
def test_target_dots_and_arrowheads_leave_names_and_values_readable(game_id, options):
    """Issue 46 item 5: "move dots and arrows cover names and values ('Kod●ama', '4/3' under
    an arrowhead)". Every cell and zone item lit as a target, with and without a value on it,
    and an arrow onto every occupied cell from its neighbour, drawn over a position in play: no
    filled dot, value box or arrowhead meets a name's box."""
    scene = scenes(game_id, options)[-1]
    layout = layout_scene(scene)
    placed = draw.placed_labels(scene, layout)  # on the board and in the zones
    cells = list(layout.cells)
    items = [item.cell for zone in layout.zones for item in zone.items]
    occupied = [t.cell for t in scene.tokens if t.cell in layout.cells]
    arrows = tuple(draw.Arrow((cells[(cells.index(c) + 1) % len(cells)], c), "#0072B2") for c in occupied)
    dots = draw.draw_highlights(layout, targets=(*cells, *items), arrows=arrows)
    values = draw.draw_highlights(
        layout, targets=(*cells, *items), marks={c: ("#009E73", "W 5") for c in occupied}
    )
    marks = [
        op for op in (*dots, *values) if (isinstance(op, (draw.Circle, draw.Polygon, draw.Rect)) and op.fill)
    ]
    assert marks and placed
    for op in marks:
        if isinstance(op, draw.Circle):
            box = (op.x - op.r, op.y - op.r, op.x + op.r, op.y + op.r)
        elif isinstance(op, draw.Rect):  # a value's white box ("W 5")
            box = (op.x, op.y, op.x + op.w, op.y + op.h)
        else:
            xs, ys = [x for x, _ in op.points], [y for _, y in op.points]
            box = (min(xs), min(ys), max(xs), max(ys))
        for p in placed:
            for x0, y0, x1, y1 in p.label.boxes(p.cx, p.cy):
                # boxes (an arrowhead's is its triangle's): 2 px or less is a corner passing near
                overlap_x = min(box[2], x1) - max(box[0], x0)
                overlap_y = min(box[3], y1) - max(box[1], y0)
                assert not (overlap_x > 2 and overlap_y > 2), (p.title, op)
