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

from rules_kernel.scene import Cell, Scene, Token, ZoneItem
from widgets.labels import MIN_TEXT, Label, Shape, fit, rect_shape, text_width
from widgets.layout import HEADING_SIZE, MARGIN, ZONE_TITLE, CellBox, Layout, layout_scene

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
PIECE_SCALE = 0.92  # a piece's size to its square's
COIN_SCALE = 0.462  # a coin's radius to its token size (1.5 hex radii): 0.8 of the hex's inner radius
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


class Arrow(NamedTuple):
    """A move drawn over the board (analysis: the best line): from its first cell to its last,
    or a ring on its one cell; `label` (the move's number in the line) at its head."""

    cells: tuple[str, ...]
    colour: str
    label: str = ""


class PlacedLabel(NamedTuple):
    """A token's or zone item's label where `draw_scene` put it: centred on (cx, cy), fitted
    into `shape` (relative to that centre); `title` names the thing in full."""

    title: str
    name: str
    label: Label
    shape: Shape
    cx: float
    cy: float


class Painter(list):
    """A drawing list being made: the drawing routines below call these methods, each appends
    one op. (It was a protocol each backend implemented; now the backends read the list.)
    `labels`: the labels placed so far (not drawn: the tests read them)."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.labels: list[PlacedLabel] = []

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


def draw_scene(scene: Scene, layout: Layout) -> Painter:
    """The board layer: background, cells, the last move's tint, coordinates, tokens, zones,
    status line. (The tint lies under the tokens, so a piece keeps its owner's colour.)"""
    p = Painter()
    p.rect(0, 0, layout.width, layout.height, fill="#FFFFFF")
    p.text(MARGIN, 17, scene.status, size=14, bold=True, align="left")
    cells = {c.id: c for c in scene.cells}
    occupied = {t.cell for t in scene.tokens}
    late_markers = layout.hexes  # on a hex map a control flag lies on the coin, not under it
    for cid, box in layout.cells.items():
        _draw_cell(
            p, box, cells[cid], occupied=cid in occupied, marker=not (late_markers and cid in occupied)
        )
    for cell in scene.last_cells:
        box = layout.cells.get(cell)
        if box is not None:
            p.polygon(_inset(box.polygon, box.cx, box.cy, 3), fill=LAST, alpha=0.22)
    for text, x, y in layout.labels:
        p.text(x, y + 4, text, size=11, color="#666666")
    for token in scene.tokens:
        box = layout.cells.get(token.cell)
        if box is not None:
            title = describe_token(token, scene)
            p.group(title)
            flag = cells[token.cell].marker is not None and late_markers
            avoid = _flag_keepout(box) if flag else ()
            size = box.size * (PIECE_SCALE if not layout.hexes else 1.5)
            draw_token(p, token, box.cx, box.cy, size, layout.flip, title=title, avoid=avoid)
            if flag:
                _draw_marker(p, box, cells[token.cell].marker)
            p.end_group()
    for zone_box in layout.zones:
        zone = zone_box.zone
        for i, line in enumerate(zone_box.heading_lines):
            top = zone_box.y + 12 + i * ZONE_TITLE
            p.text(zone_box.x, top, line, size=HEADING_SIZE, color=INK, align="left")
        if zone_box.separator is not None:
            x, top, bottom = zone_box.separator
            p.line(x, top + 4, x, bottom - 4, stroke=BOARD_LINE, width=1)
        for item, box in zip(zone.items, zone_box.items, strict=True):
            _draw_item(p, item, box.x, box.y, box.w, title=f"{zone.title}: {item.name}")
    return p


def placed_labels(scene: Scene, layout: Layout) -> list[PlacedLabel]:
    """Every token's and zone item's label as `draw_scene` places it, with the shape it was
    fitted into (the label-fitting tests read these)."""
    return list(draw_scene(scene, layout).labels)


def describe_token(token: Token, scene: Scene) -> str:
    """Words for a token as the scene shows it (tooltips, screen readers)."""
    whose = (
        "" if token.owner is None or token.owner >= len(scene.players) else f" ({scene.players[token.owner]})"
    )
    hidden = "face-down coin" if token.kind == "coin" else "face-down card"
    what = hidden if token.face_down and token.name in ("", "?") else token.name
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


def item_words(item: ZoneItem) -> str:
    """Words for a zone item (the hit layer): its name, "empty" for an empty pile, the game's
    words for what lies face down ("face-down coins"), else "face-down card"."""
    if item.count == 0:
        return "empty"
    if item.face_down:
        return item.name if item.name not in ("", "?") else "face-down card"
    return item.name


def _draw_cell(p: Painter, box, cell: Cell, *, occupied: bool = False, marker: bool = True) -> None:
    fill = SHADES.get(cell.shade or "", BOARD)
    if cell.shade and cell.shade.startswith("start-"):
        fill = _tint(owner_colour(int(cell.shade.split("-")[1])))
    p.polygon(box.polygon, fill=fill, stroke=BOARD_LINE, width=1)
    hexagon = len(box.polygon) == 6
    if cell.shade == "location":
        p.circle(box.cx, box.cy, box.size * 0.62, stroke="#7B6BA8", width=2)
    if cell.marker is not None and marker:
        _draw_marker(p, box, cell.marker)
    if cell.label and not (hexagon and occupied):  # a coin covers a hex: its tooltip names the hex
        below = max(0.82, 0.51 + 9 / box.size) if hexagon else 0.42
        p.text(box.cx, box.cy + box.size * below, cell.label, size=MIN_TEXT, color="#555555")


def _marker_corner(box) -> tuple[float, float]:
    square = len(box.polygon) == 4
    return box.polygon[0] if square else (box.cx - box.size * 0.55, box.cy - box.size * 0.7)


def _draw_marker(p: Painter, box, owner: int) -> None:
    """A control flag in the cell's top left corner, with its owner's letter."""
    x0, y0 = _marker_corner(box)
    flag = ((x0 + 2, y0 + 2), (x0 + 24, y0 + 2), (x0 + 2, y0 + 24))
    p.polygon(flag, fill=owner_colour(owner), stroke=INK, width=1)
    p.text(x0 + 9, y0 + 15, OWNER_MARKS[owner % 4], size=MIN_TEXT, bold=True)


def _flag_keepout(box) -> tuple:
    """The control flag's triangle as two rectangles, relative to the cell's centre."""
    x0, y0 = _marker_corner(box)
    x0, y0 = x0 - box.cx, y0 - box.cy
    return ((x0 + 2, y0 + 2, x0 + 24, y0 + 13), (x0 + 2, y0 + 13, x0 + 13, y0 + 24))


def _tint(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(v + (255 - v) * 0.7) for v in (r, g, b)))


def draw_token(
    p: Painter,
    token: Token,
    cx: float,
    cy: float,
    size: float,
    flip: bool = False,
    *,
    title: str = "",
    avoid: tuple = (),
) -> None:
    if token.kind == "card":
        _draw_card(p, token, cx, cy, size, title)
    elif token.kind == "coin":
        _draw_coin(p, token, cx, cy, size * COIN_SCALE, title, avoid)
    else:
        _draw_piece(p, token, cx, cy, size, flip, title)


def _rounded(points, cx: float, cy: float) -> tuple[tuple[float, float], ...]:
    return tuple((round(x - cx, 1), round(y - cy, 1)) for x, y in points)


def _label(
    p: Painter, name: str, symbol: str, shape: Shape, cx: float, cy: float, colour: str, title: str
) -> None:
    """`name` fitted into `shape` (relative to (cx, cy)) and drawn; kept for the tests."""
    label = fit(name, symbol, shape)
    for line, base in zip(label.lines, label.baselines, strict=True):
        p.text(cx, cy + base, line, size=label.size, color=colour, bold=True)
    p.labels.append(PlacedLabel(title or name, name, label, shape, cx, cy))


def _draw_piece(p: Painter, token: Token, cx: float, cy: float, size: float, flip: bool, title: str) -> None:
    """A shogi-style pentagon pointing the way its owner faces; dots for its steps."""
    up = (token.facing == 0) != flip
    h, w = size * 0.45, size * 0.42
    sign = -1 if up else 1
    points = (
        (cx, cy + sign * h),
        (cx + w, cy + sign * h * 0.55),
        (cx + w * 0.85, cy - sign * h),
        (cx - w * 0.85, cy - sign * h),
        (cx - w, cy + sign * h * 0.55),
    )
    # a promoted piece wears a thick vermillion rim (its name says it too)
    rim = 3.5 if token.promoted else 1.5
    p.polygon(points, fill=owner_colour(token.owner), stroke=PROMOTED if token.promoted else INK, width=rim)
    dots = []
    radius = max(2.0, size * 0.03)
    for dx, dy in token.steps:  # dots along the rim, as on the wooden pieces
        sx, sy = (-dx, dy) if flip else (dx, -dy)
        dots.append((cx + sx * w * (0.88 if sy == 0 else 0.78), cy + sy * h * 0.78))
    avoid = tuple((round(x - cx, 1), round(y - cy, 1), radius) for x, y in dots)
    shape = Shape(_rounded(points, cx, cy), pad=rim / 2 + 1, avoid=avoid)
    _label(p, token.name, token.symbol, shape, cx, cy, INK, title)
    for x, y in dots:
        p.circle(x, y, radius, fill=INK)


def _draw_card(p: Painter, token: Token, cx: float, cy: float, size: float, title: str) -> None:
    w, h = size * 0.8, size * 0.9
    top = cy - h / 2
    if token.face_down:
        p.rect(cx - w / 2, top, w, h, fill=CARD_BACK, stroke=INK, width=1)
        p.rect(cx - w / 2 + 4, top + 4, w - 8, h - 8, stroke="#CBB994", width=1)
        if token.name and token.name != "?":  # what the viewer remembers of it
            room = top + 1 + (8 if token.flags else 0)  # over the back's thin frame if need be
            _card_label(p, token, cx, room, cy + h / 2 - 1, w - 2, "#FFFFFF", title)
        _draw_flags(p, token, cx - w / 2, top)
        return
    p.rect(cx - w / 2, top, w, h, fill="#FFFFFF", stroke=INK, width=1)
    if token.color:
        p.rect(cx - w / 2, top, w, h * 0.22, fill=NAMED_COLOURS.get(token.color, token.color))
    room = top + max(h * 0.22 if token.color else 0, 8 if token.flags else 0)
    _card_label(p, token, cx, room, cy + h / 2, w, INK, title)
    _draw_flags(p, token, cx - w / 2, top)


def _card_label(
    p: Painter, token: Token, cx: float, top: float, bottom: float, w: float, colour: str, title: str
) -> None:
    """The name in the part of the card under its colour band and badges."""
    shape = rect_shape(round(w, 1), round(bottom - top, 1), pad=1.5)
    _label(p, token.name, token.symbol, shape, cx, (top + bottom) / 2, colour, title)


#: what a flag's pennant carries, where it is not the flag's first letter: the crown of To
#: War!'s elite units, as on the printed cards (its reference says so)
FLAG_MARKS = {"elite": "♛"}


def _draw_flags(p: Painter, token: Token, x: float, y: float) -> None:
    """Badges on a token: a Nobori pennant (War Stories, "N"), an elite unit's crown (To War!)."""
    for i, flag in enumerate(token.flags):
        fx = x + 2 + i * 20
        p.polygon(((fx, y - 8), (fx + 18, y), (fx, y + 8)), fill=PROMOTED, stroke=INK, width=1)
        mark = FLAG_MARKS.get(flag, flag[:1].upper())
        p.text(fx + 6, y + 4, mark, size=MIN_TEXT, color="#FFFFFF", bold=True)


def _draw_coin(p: Painter, token: Token, cx: float, cy: float, r: float, title: str, avoid: tuple) -> None:
    """A coin filling most of its hex; a stack's height in a badge on its rim, which the name
    keeps clear of (as of a control flag lying on it)."""
    p.circle(cx, cy, r, fill=owner_colour(token.owner), stroke=INK, width=2)
    p.circle(cx, cy, r * 0.92, stroke=INK, width=1)
    badge = (round(r * 0.74, 1), round(-r * 0.74, 1), 9)
    keep = avoid + ((badge,) if token.height > 1 else ())
    shape = Shape((round(r * 0.92 - 0.5, 1),), pad=1.5, avoid=keep)
    _label(p, token.name, token.symbol, shape, cx, cy, INK, title)
    if token.height > 1:
        bx, by = cx + badge[0], cy + badge[1]
        p.circle(bx, by, 9, fill="#FFFFFF", stroke=INK)
        p.text(bx, by + 4, str(token.height), size=11, bold=True)


def _draw_item(p: Painter, item: ZoneItem, x: float, y: float, size: float, title: str = "") -> None:
    if item.count == 0:  # an empty pile: an empty place, not a face-down coin
        p.rect(x, y, size, size, fill="#FFFFFF", stroke=BOARD_LINE)
        # plain DejaVu Sans is about 0.9 of its bold width
        word = "empty" if text_width("empty", MIN_TEXT) * 0.9 <= size - 2 else "0"
        p.text(x + size / 2, y + size / 2 + 4, word, size=MIN_TEXT, color="#666666")
        return
    p.rect(x, y, size, size, fill=_tint(owner_colour(item.owner)), stroke=BOARD_LINE)
    if item.face_down:
        p.rect(x + 5, y + 5, size - 10, size - 10, fill=CARD_BACK)
    else:
        badge = ((round(size / 2 - 3, 1), round(-size / 2 + 3, 1), 9),) if item.count > 1 else ()
        shape = rect_shape(round(size, 1), round(size, 1), pad=1, avoid=badge)
        _label(p, item.name, item.symbol, shape, x + size / 2, y + size / 2, INK, title)
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
    names: dict[str, str] | None = None,
    arrows: tuple[Arrow, ...] = (),
) -> list[Op]:
    """The highlight layer: last move (a yellow outline; its tint is in the scene layer, under
    the tokens), chosen cells (blue ring),
    targets (green); `marks` gives a target its own colour and label (perfect play:
    "W 5" in green, "D" in blue, "L 12" in vermillion), words beside the colour; `names`: a
    name written on every cell, over its tokens (a hex map's names, on request); `arrows`:
    moves drawn over everything (the analysis's best line, first move boldest)."""
    p = Painter()
    for cell in last:
        box = layout.cells.get(cell)
        if box is not None:
            p.polygon(_inset(box.polygon, box.cx, box.cy, 3), stroke=LAST, width=4)
    for cell in selected:
        item = _item_box(layout, cell)
        if item is not None:  # a zone item: its box outlined (a ring would cross its name)
            p.rect(item.x - 2, item.y - 2, item.w + 4, item.h + 4, stroke=SELECTED, width=4)
            continue
        centre = layout.center_of(cell)
        if centre:
            p.circle(*centre, _radius(layout, cell), stroke=SELECTED, width=4)
    for cell in targets:
        centre = layout.center_of(cell)
        if not centre:
            continue
        colour, label = (marks or {}).get(cell, (TARGET, ""))
        item = _item_box(layout, cell)
        if item is not None:
            p.rect(item.x - 2, item.y - 2, item.w + 4, item.h + 4, stroke=colour, width=3)
            corner, radius = (item.x + item.w, item.y + item.h), item.w / 2
        else:
            radius = _radius(layout, cell)
            p.circle(*centre, radius, stroke=colour, width=3)
            corner = (centre[0] + radius * 0.7, centre[1] + radius * 0.7)
        if label:  # the value in a cell's upper band or on an item's lower edge, off the name
            x, y = centre[0], (item.y + item.h if item is not None else centre[1] - radius * 0.76)
            p.rect(x - radius * 0.62, y - 9, radius * 1.24, 18, fill="#FFFFFF", stroke=colour, width=2)
            p.text(x, y + 4.5, label, size=12, color=INK, bold=True)
        else:  # a dot on the lower right: at the centre it covered a piece's name ("Kod●ama")
            p.circle(*corner, max(5.0, radius * 0.16), fill=colour, alpha=0.9)
    for cell, name in (names or {}).items():  # every cell's name, over what stands on it
        box = layout.cells.get(cell)
        if box is None or not name:
            continue
        y = box.cy - box.size * 0.42
        width = text_width(name, MIN_TEXT) + 6
        p.rect(
            box.cx - width / 2,
            y - MIN_TEXT + 1,
            width,
            MIN_TEXT + 3,
            fill="#FFFFFF",
            stroke="#555555",
            width=1,
        )
        p.text(box.cx, y + 2, name, size=MIN_TEXT, color=INK)
    for rank, arrow in enumerate(arrows):
        p.group(f"Analysis: move {arrow.label or rank + 1} of the best line")
        _draw_arrow(p, layout, arrow, alpha=max(0.45, 0.85 - 0.2 * rank))
        p.end_group()
    return p


def _draw_arrow(p: Painter, layout: Layout, arrow: Arrow, *, alpha: float) -> None:
    """A thick arrow from the move's first cell to its last, its number in a disc at the head;
    a move on one cell (a flip, a drop from a hand off the board) is a ring with its number."""
    points = [c for c in (layout.center_of(cell) for cell in arrow.cells) if c is not None]
    if not points:
        return
    (x1, y1), (x2, y2) = points[0], points[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    radius = _radius(layout, arrow.cells[-1]) if arrow.cells[-1] in layout.cells else 14
    if length < 1:
        p.circle(x2, y2, radius * 0.8, stroke=arrow.colour, width=6, alpha=alpha)
        number_at = (x2 + radius * 0.55, y2 - radius * 0.55)  # on the ring, off the piece's name
    else:
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        start = min(radius * 0.55, length / 3)  # from the piece's edge, not over its name
        stop = min(radius * 0.75, length / 3)  # the head ends at the target's edge, off its name
        x2, y2, length = x2 - ux * stop, y2 - uy * stop, length - stop
        head = min(22.0, length / 2)
        bx, by = x2 - ux * head, y2 - uy * head  # where the head's base meets the shaft
        p.line(x1 + ux * start, y1 + uy * start, bx, by, stroke=arrow.colour, width=8, alpha=alpha)
        wing = head * 0.6
        p.polygon(
            ((x2, y2), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)),
            fill=arrow.colour,
            stroke=INK,
            width=1,
            alpha=alpha,
        )
        number_at = ((x1 + bx) / 2 + uy * 12, (y1 + by) / 2 - ux * 12)  # beside the shaft's middle
    if arrow.label:
        x, y = number_at
        p.circle(x, y, 9, fill="#FFFFFF", stroke=arrow.colour, width=2)
        p.text(x, y + 4, arrow.label, size=MIN_TEXT, color=INK, bold=True)


def _inset(points, cx: float, cy: float, by: float):
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1
        out.append((x + (cx - x) / d * by, y + (cy - y) / d * by))
    return tuple(out)


def _item_box(layout: Layout, cell: str):  # -> layout.ItemBox | None
    """The zone item `cell` names, if it is one (a hand's card, a supply's coin)."""
    if cell in layout.cells:
        return None
    return next((item for zone in layout.zones for item in zone.items if item.cell == cell), None)


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
