"""Any scene as a drawing list: plain data that both backends draw.

`draw_scene` and `draw_highlights` turn a scene (and a layout) into a list of primitive ops —
`Rect`, `Polygon`, `Circle`, `Line`, `Text`, with their styles, and `Group`/`EndGroup` around
what belongs to one thing (a tooltip where the backend has them). The list knows no backend:
`widgets/svg.py` writes it as SVG text (the playable board, a bare state's picture, the landing
page's thumbnails), `widgets/canvas.py` paints it on an ipycanvas canvas (board heatmaps).

Colours: the Okabe–Ito palette, distinguishable with the common colour-vision deficiencies;
owners also differ by the pieces' facing and by a letter on coins and markers, never by
colour alone.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple, Union

# where long names break on a piece, as each game declares it (`Game.NAME_BREAKS`, read live
# from the registry); anything else splits at spaces
from rules_kernel import NAME_BREAKS
from rules_kernel.scene import Cell, Scene, Token, ZoneItem
from widgets.layout import MARGIN, CellBox, Layout, layout_scene

OWNER_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7")  # orange, sky blue, green, pink
OWNER_MARKS = ("A", "B", "C", "D")
INK = "#222222"
BOARD = "#F4EBD0"
BOARD_LINE = "#8A7A5A"
SHADES = {"zone-0": "#FBE3B0", "zone-1": "#D6ECF8", "location": "#E8E2F4"}
CARD_BACK = "#6B5B45"
PROMOTED = "#D55E00"  # vermillion
TARGET = "#009E73"
SELECTED = "#0072B2"
LAST = "#C9A800"  # a dark yellow outline: the last move's cells
MIN_TEXT = 11  # no text on a board is smaller (at the drawing's own size)
NAMED_COLOURS = {
    "red": "#D55E00",
    "yellow": "#F0E442",
    "green": "#009E73",
    "blue": "#0072B2",
    "black": "#333333",
    "white": "#FFFFFF",
}


# --- the drawing list: one op a primitive, plain data (tuples of numbers and strings) --------


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1
    alpha: float = 1


class Polygon(NamedTuple):
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1
    alpha: float = 1


class Circle(NamedTuple):
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1
    alpha: float = 1


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = INK
    width: float = 1
    alpha: float = 1


class Text(NamedTuple):
    """`y` is the baseline (SVG's and the canvas's default alike)."""

    x: float
    y: float
    text: str
    size: float = 12
    color: str = INK
    bold: bool = False
    align: str = "center"  # "center", "left", "right"


class Group(NamedTuple):
    """What follows, up to the matching EndGroup, is one thing; `title` names it (a tooltip)."""

    title: str


class EndGroup(NamedTuple):
    pass


Op = Union[Rect, Polygon, Circle, Line, Text, Group, EndGroup]  # noqa: UP007 (a runtime alias)


class Painter(list):
    """A drawing list being made: the drawing routines below call these methods, each appends
    one op. (It was a protocol each backend implemented; now the backends read the list.)"""

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1,
        alpha: float = 1,
    ) -> None:
        self.append(Rect(x, y, w, h, fill, stroke, width, alpha))

    def polygon(
        self,
        points,
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1,
        alpha: float = 1,
    ) -> None:
        self.append(Polygon(tuple(points), fill, stroke, width, alpha))

    def circle(
        self,
        x: float,
        y: float,
        r: float,
        *,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1,
        alpha: float = 1,
    ) -> None:
        self.append(Circle(x, y, r, fill, stroke, width, alpha))

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: str = INK,
        width: float = 1,
        alpha: float = 1,
    ) -> None:
        self.append(Line(x1, y1, x2, y2, stroke, width, alpha))

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: float = 12,
        color: str = INK,
        bold: bool = False,
        align: str = "center",
    ) -> None:
        self.append(Text(x, y, text, size, color, bold, align))

    def group(self, title: str) -> None:
        self.append(Group(title))

    def end_group(self) -> None:
        self.append(EndGroup())


def owner_colour(owner: int | None) -> str:
    return "#BBBBBB" if owner is None else OWNER_COLOURS[owner % len(OWNER_COLOURS)]


def draw_scene(scene: Scene, layout: Layout) -> list[Op]:
    """The board layer: background, cells, coordinates, tokens, zones, status line."""
    p = Painter()
    p.rect(0, 0, layout.width, layout.height, fill="#FFFFFF")
    p.text(MARGIN, 17, scene.status, size=14, bold=True, align="left")
    cells = {c.id: c for c in scene.cells}
    for cid, box in layout.cells.items():
        _draw_cell(p, box, cells[cid])
    for text, x, y in layout.labels:
        p.text(x, y + 4, text, size=11, color="#666666")
    for token in scene.tokens:
        box = layout.cells.get(token.cell)
        if box is not None:
            p.group(describe_token(token, scene))
            draw_token(p, token, box.cx, box.cy, box.size * (0.86 if not layout.hexes else 1.5), layout.flip)
            p.end_group()
    for zone_box in layout.zones:
        zone = zone_box.zone
        if zone_box.heading:
            p.text(zone_box.x, zone_box.y + 12, zone_box.heading, size=12, color=INK, align="left")
        for item, box in zip(zone.items, zone_box.items, strict=True):
            _draw_item(p, item, box.x, box.y, box.w)
    return p


def describe_token(token: Token, scene: Scene) -> str:
    """Words for a token as the scene shows it (tooltips, screen readers)."""
    whose = (
        "" if token.owner is None or token.owner >= len(scene.players) else f" ({scene.players[token.owner]})"
    )
    what = "face-down card" if token.face_down and token.name in ("", "?") else token.name
    height = f", {token.height} coins" if token.height > 1 else ""
    # the cell as the map names it (its label), else its id
    where = next((c.label for c in scene.cells if c.id == token.cell and c.label), token.cell)
    return f"{what}{whose} on {where}{height}"


def cell_names(scene: Scene) -> dict[str, str]:
    """Words for each board cell: its coordinate and what stands on it (the hit layer's
    tooltips and screen-reader labels)."""
    names = {c.id: c.label or c.id for c in scene.cells}
    for token in scene.tokens:
        if token.cell in names:
            names[token.cell] = describe_token(token, scene)
    return names


def _draw_cell(p: Painter, box, cell: Cell) -> None:
    fill = SHADES.get(cell.shade or "", BOARD)
    if cell.shade and cell.shade.startswith("start-"):
        fill = _tint(owner_colour(int(cell.shade.split("-")[1])))
    p.polygon(box.polygon, fill=fill, stroke=BOARD_LINE, width=1)
    if cell.shade == "location":
        p.circle(box.cx, box.cy, box.size * 0.62, stroke="#7B6BA8", width=2)
    if cell.marker is not None:
        square = len(box.polygon) == 4
        x0, y0 = box.polygon[0] if square else (box.cx - box.size * 0.55, box.cy - box.size * 0.7)
        flag = ((x0 + 2, y0 + 2), (x0 + 24, y0 + 2), (x0 + 2, y0 + 24))
        p.polygon(flag, fill=owner_colour(cell.marker), stroke=INK, width=1)
        p.text(x0 + 9, y0 + 15, OWNER_MARKS[cell.marker % 4], size=MIN_TEXT, bold=True)
    if cell.label:  # low in the cell, under a hex map's coin (radius 0.51 of the cell's)
        below = max(0.82, 0.51 + 9 / box.size) if len(box.polygon) == 6 else 0.42
        p.text(box.cx, box.cy + box.size * below, cell.label, size=MIN_TEXT, color="#555555")


def _tint(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(v + (255 - v) * 0.7) for v in (r, g, b)))


def draw_token(p: Painter, token: Token, cx: float, cy: float, size: float, flip: bool = False) -> None:
    if token.kind == "card":
        _draw_card(p, token, cx, cy, size)
    elif token.kind == "coin":
        _draw_coin(p, token, cx, cy, size)
    else:
        _draw_piece(p, token, cx, cy, size, flip)


def _draw_piece(p: Painter, token: Token, cx: float, cy: float, size: float, flip: bool) -> None:
    """A shogi-style pentagon pointing the way its owner faces; dots for its steps."""
    up = (token.facing == 0) != flip
    h, w = size * 0.46, size * 0.40
    sign = -1 if up else 1
    points = (
        (cx, cy + sign * h),
        (cx + w, cy + sign * h * 0.55),
        (cx + w * 0.85, cy - sign * h),
        (cx - w * 0.85, cy - sign * h),
        (cx - w, cy + sign * h * 0.55),
    )
    # a promoted piece wears a thick vermillion rim (its name says it too)
    p.polygon(
        points,
        fill=owner_colour(token.owner),
        stroke=PROMOTED if token.promoted else INK,
        width=3.5 if token.promoted else 1.5,
    )
    _name_lines(p, token.name, cx, cy, w * 1.9, INK, token.symbol)
    for dx, dy in token.steps:  # dots along the rim, as on the wooden pieces
        sx, sy = (-dx, dy) if flip else (dx, -dy)
        p.circle(cx + sx * w * 0.78, cy + sy * h * 0.78, max(2.0, size * 0.03), fill=INK)


def _name_lines(
    p: Painter, name: str, cx: float, cy: float, width: float, colour: str, short: str = ""
) -> None:
    """A name in up to three lines, as large as fits `width`; never under MIN_TEXT pixels:
    where the name does not fit even broken up, its short mark stands instead (the tooltip
    and the screen-reader label name it in full)."""
    lines, size = _fit(name, width)
    if size < MIN_TEXT:
        lines, size = [short or name[:3]], max(MIN_TEXT, min(15.0, width / (0.65 * len(short or "abc"))))
    start = cy - (len(lines) - 1) * size * 0.55
    for i, line in enumerate(lines):
        p.text(cx, start + i * size * 1.1 + size * 0.35, line, size=size, color=colour, bold=True)


def _fit(name: str, width: float) -> tuple[list[str], float]:
    """The first way of breaking `name` whose text is comfortably large, else the largest."""

    def size_of(lines: list[str]) -> float:
        return min(13.0, width / (0.62 * max(len(line) for line in lines)))  # bold sans-serif

    words = name.split()
    ways = [[name]]
    if name in NAME_BREAKS:
        ways.append(list(NAME_BREAKS[name]))
    if len(words) > 1:
        ways += [[words[0], " ".join(words[1:])], words[:3]]
    longest = max(words, key=len) if words else name
    if len(longest) > 5:  # hyphenate the longest word in the middle
        half = (len(longest) + 1) // 2
        at = words.index(longest) if words else 0
        broken = words[:at] + [longest[:half] + "-", longest[half:]] + words[at + 1 :]
        if len(broken) <= 3:
            ways.append(broken)
    for lines in ways:
        if size_of(lines) >= 12:
            return lines, size_of(lines)
    best = max(ways, key=size_of)
    return best, size_of(best)


def _draw_card(p: Painter, token: Token, cx: float, cy: float, size: float) -> None:
    w, h = size * 0.8, size * 0.9
    if token.face_down:
        p.rect(cx - w / 2, cy - h / 2, w, h, fill=CARD_BACK, stroke=INK, width=1)
        p.rect(cx - w / 2 + 4, cy - h / 2 + 4, w - 8, h - 8, stroke="#CBB994", width=1)
        if token.name and token.name != "?":  # what the viewer remembers of it
            _name_lines(p, token.name, cx, cy, w * 0.95, "#FFFFFF", token.symbol)
        _draw_flags(p, token, cx - w / 2, cy - h / 2)
        return
    p.rect(cx - w / 2, cy - h / 2, w, h, fill="#FFFFFF", stroke=INK, width=1)
    if token.color:
        p.rect(cx - w / 2, cy - h / 2, w, h * 0.22, fill=NAMED_COLOURS.get(token.color, token.color))
    _name_lines(p, token.name, cx, cy + 4, w, INK, token.symbol)
    _draw_flags(p, token, cx - w / 2, cy - h / 2)


def _draw_flags(p: Painter, token: Token, x: float, y: float) -> None:
    """Badges on a token: a Nobori pennant (War Stories), an elite crown mark, ..."""
    for i, flag in enumerate(token.flags):
        fx = x + 2 + i * 20
        p.polygon(((fx, y - 8), (fx + 18, y), (fx, y + 8)), fill=PROMOTED, stroke=INK, width=1)
        p.text(fx + 6, y + 4, flag[:1].upper(), size=MIN_TEXT, color="#FFFFFF", bold=True)


def _draw_coin(p: Painter, token: Token, cx: float, cy: float, size: float) -> None:
    r = size * 0.34
    p.circle(cx, cy, r, fill=owner_colour(token.owner), stroke=INK, width=2)
    p.circle(cx, cy, r * 0.8, stroke=INK, width=1)
    _name_lines(p, token.name, cx, cy, r * 1.8, INK, token.symbol)
    if token.height > 1:
        p.circle(cx + r * 0.8, cy - r * 0.8, 9, fill="#FFFFFF", stroke=INK)
        p.text(cx + r * 0.8, cy - r * 0.8 + 4, str(token.height), size=11, bold=True)


def _draw_item(p: Painter, item: ZoneItem, x: float, y: float, size: float) -> None:
    p.rect(x, y, size, size, fill=_tint(owner_colour(item.owner)), stroke=BOARD_LINE)
    if item.face_down:
        p.rect(x + 5, y + 5, size - 10, size - 10, fill=CARD_BACK)
    else:
        _name_lines(p, item.name, x + size / 2, y + size / 2, size * 0.92, INK, item.symbol)
    if item.count > 1:
        p.circle(x + size - 3, y + 3, 9, fill="#FFFFFF", stroke=INK)
        p.text(x + size - 3, y + 7, str(item.count), size=MIN_TEXT, bold=True)


def draw_highlights(
    layout: Layout,
    *,
    last: tuple[str, ...] = (),
    selected: tuple[str, ...] = (),
    targets: tuple[str, ...] = (),
    marks: dict[str, tuple[str, str]] | None = None,
) -> list[Op]:
    """The highlight layer: last move (a filled yellow tint), chosen cells (blue ring),
    targets (green); `marks` gives a target its own colour and label (perfect play:
    "W 5" in green, "D" in blue, "L 12" in vermillion), words beside the colour."""
    p = Painter()
    for cell in last:
        box = layout.cells.get(cell)
        if box is not None:
            inset = _inset(box.polygon, box.cx, box.cy, 3)
            p.polygon(inset, fill=LAST, alpha=0.22)
            p.polygon(inset, stroke=LAST, width=4)
    for cell in selected:
        centre = layout.center_of(cell)
        if centre:
            p.circle(*centre, _radius(layout, cell), stroke=SELECTED, width=4)
    for cell in targets:
        centre = layout.center_of(cell)
        if not centre:
            continue
        colour, label = (marks or {}).get(cell, (TARGET, ""))
        radius = _radius(layout, cell)
        p.circle(*centre, radius, stroke=colour, width=3)
        if label:
            x, y = centre
            p.rect(x - radius * 0.62, y - 11, radius * 1.24, 22, fill="#FFFFFF", stroke=colour, width=2)
            p.text(x, y + 5, label, size=13, color=INK, bold=True)
        else:
            p.circle(*centre, radius * 0.3, fill=colour, alpha=0.85)
    return p


def _inset(points, cx: float, cy: float, by: float):
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1
        out.append((x + (cx - x) / d * by, y + (cy - y) / d * by))
    return tuple(out)


def _radius(layout: Layout, cell: str) -> float:
    box = layout.cells.get(cell)
    return box.size * (0.45 if not layout.hexes else 0.8) if box else 20


# --- the board alone: thumbnails and heatmaps ------------------------------------------------


def board_only(scene: Scene, *, tokens: bool = True) -> Scene:
    """The scene's board and (with `tokens`) what stands on it; no side zones, no status line,
    no last-move mark, no control markers without tokens: a picture to recognise, not to play."""
    if tokens:
        return replace(scene, zones=(), status="", last_cells=())
    return replace(
        scene,
        tokens=(),
        zones=(),
        status="",
        last_cells=(),
        cells=tuple(replace(c, marker=None) for c in scene.cells),
    )


def board_layout(scene: Scene, *, top: float = 8, min_width: float = 0, room: float = 460) -> Layout:
    """Where a board-only scene goes, cut to the board and its coordinates (no room kept for
    zones or a status line): `top` pixels above the board, at least `min_width` wide."""
    full = layout_scene(scene, room=room)  # `room`: a hex map's (empty) zones go under it, not beside
    xs = [x for box in full.cells.values() for x, _ in box.polygon]
    pad = MARGIN if full.labels else 8
    width = max(max(xs) - min(xs) + pad + 8, min_width)
    dx = (width - (max(xs) - min(xs) + pad + 8)) / 2 + pad - min(xs)
    dy = top - full.board_top
    bottom = full.board_bottom + (MARGIN if full.labels else 8)

    def moved(box: CellBox) -> CellBox:
        return CellBox(
            box.id, box.cx + dx, box.cy + dy, box.size, tuple((x + dx, y + dy) for x, y in box.polygon)
        )

    return replace(
        full,
        width=width,
        height=bottom + dy,
        zones=[],
        cells={cid: moved(box) for cid, box in full.cells.items()},
        labels=[(text, x + dx, y + dy) for text, x, y in full.labels],
        board_top=full.board_top + dy,
        board_bottom=full.board_bottom + dy,
    )
