"""Where everything of a scene goes, in pixels: cells (squares or hexes) and side zones.

One `Layout` places the drawing list of both backends (SVG, canvas) and answers hit tests for clicks.
The first player's side is at the bottom; with `flip` (the second player's perspective on a
square board) the board turns round.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rules_kernel.scene import Scene, Zone
from widgets.labels import text_width

MARGIN = 26  # room for coordinates
ZONE_TITLE = 18  # a zone heading's line (12 px text), and the room above its items per line
HEADING_SIZE = 12
STRIP_GAP = 14  # between two zones' items in a compact strip, a thin line in the middle
ITEM = 54  # zone item box
HEX_ITEM = 48  # the viewer's zone items beside a hex map
COMPACT_ITEM = 42  # other players' zone items there, one strip a player
ITEM_GAP = 6
STATUS = 26
NARROW_TALL = 1.4  # on a narrow screen a square board may be this much taller than wide


@dataclass(frozen=True)
class CellBox:
    id: str
    cx: float
    cy: float
    size: float  # square side, or hex radius
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class ItemBox:
    cell: str
    x: float
    y: float
    w: float
    h: float

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


@dataclass
class ZoneBox:
    zone: Zone
    x: float
    y: float
    items: list[ItemBox] = field(default_factory=list)
    #: the line drawn above the items ("" in a compact strip, whose summary says it all)
    title: str | None = None

    #: the room the heading may take, in pixels (a longer heading wraps at its spaces)
    room: float = 10_000
    #: in a compact strip, where the line between this zone's items and the previous
    #: zone's stands (x, top, bottom); None for the first zone and outside strips
    separator: tuple[float, float, float] | None = None

    @property
    def heading(self) -> str:
        if self.title is not None:
            return self.title
        hidden = f" — {self.zone.hidden_count} hidden" if self.zone.hidden_count else ""
        return f"{self.zone.title}{hidden}"

    @property
    def heading_lines(self) -> tuple[str, ...]:
        """The heading in lines that fit `room` (never cut: a zone's name or its list of units
        would lose what it says), broken at spaces."""
        return wrap(self.heading, self.room)


def wrap(text: str, room: float, size: float = HEADING_SIZE) -> tuple[str, ...]:
    """`text` in lines no wider than `room` at `size` px, broken at spaces (a word wider than
    the room stands on a line of its own). Widths are the bold face's, a little wider than the
    plain text drawn: a line never runs over."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return tuple(lines)


def _items_top(box: ZoneBox) -> float:
    """Where a zone's items start: under its heading's lines (none for an empty heading)."""
    return box.y + ZONE_TITLE * max(1, len(box.heading_lines))


@dataclass
class Layout:
    width: float
    height: float
    cells: dict[str, CellBox]
    zones: list[ZoneBox]
    board_top: float
    board_bottom: float
    flip: bool
    hexes: bool
    labels: list[tuple[str, float, float]]  # coordinate labels

    def hit(self, x: float, y: float) -> str | None:
        """The cell id or zone-item id under a point, or None."""
        for zone in self.zones:
            for item in zone.items:
                if item.x <= x <= item.x + item.w and item.y <= y <= item.y + item.h:
                    return item.cell
        best, best_d = None, float("inf")
        for box in self.cells.values():
            d = math.hypot(x - box.cx, y - box.cy)
            if d < best_d:
                best, best_d = box.id, d
        if best is not None and best_d <= self.cells[best].size * (0.5 if not self.hexes else 0.9):
            return best
        return None

    def center_of(self, cell: str) -> tuple[float, float] | None:
        if cell in self.cells:
            box = self.cells[cell]
            return box.cx, box.cy
        for zone in self.zones:
            for item in zone.items:
                if item.cell == cell:
                    return item.center
        return None


def layout_scene(
    scene: Scene,
    *,
    flip: bool | None = None,
    max_board: float = 460,
    room: float | None = None,
    beside: bool = False,
) -> Layout:
    """Where everything goes. `room`: the width the drawing will have on screen, when it is
    narrower than the drawing would like (a phone): then the board shrinks to fit and a hex
    map's zones go under it, so the text keeps its size instead of shrinking with the page.
    `beside`: a square board's zones in a column to its right (a wide page: the board can be
    shown large and the hands stay in view), the far side's beside its top rank, the near
    side's beside its bottom rank, like a shogi board's piece stands."""
    if flip is None:
        flip = scene.layout == "square" and scene.perspective == 1
    hexes = scene.layout == "hex"
    if room is not None:
        max_board = max(200.0, min(max_board, room - 2 * MARGIN))
    cells, board_w, board_h, labels = (
        _hex_cells(scene, max_board)
        if hexes
        else _square_cells(scene, max_board, flip, tall=1.0 if room is None else NARROW_TALL)
    )
    if hexes and room is None:
        return _beside(scene, cells, board_w, board_h)
    if beside and room is None and not hexes and scene.zones:
        return _square_beside(scene, cells, board_w, board_h, labels, flip)
    width = max(board_w + 2 * MARGIN, 420 if room is None else min(420, room))
    if hexes:
        return _under(scene, cells, board_w, board_h, width)
    bottom_owner = 1 if flip else 0
    top_zones = [z for z in scene.zones if z.owner is not None and z.owner % 2 != bottom_owner]
    bottom_zones = [z for z in scene.zones if z not in top_zones]
    zones: list[ZoneBox] = []
    y = STATUS
    y = _place_zones(top_zones, zones, y, MARGIN, width - MARGIN)
    board_top = y + 4
    offset_x = (width - board_w) / 2
    cells = {cid: _shift(box, offset_x, board_top) for cid, box in cells.items()}
    labels = [(text, x + offset_x, ly + board_top) for text, x, ly in labels]
    y = board_top + board_h + MARGIN
    y = _place_zones(bottom_zones, zones, y, MARGIN, width - MARGIN)
    return Layout(width, y + 8, cells, zones, board_top, board_top + board_h, flip, hexes, labels)


#: the column of zones beside a square board: five items a row, room for a zone's title
SIDE_COLUMN = 5 * (ITEM + ITEM_GAP) + 24


def _square_beside(
    scene: Scene, cells: dict, board_w: float, board_h: float, labels: list, flip: bool
) -> Layout:
    """A square board with its zones in a column to the right: the far side's zones from the
    top rank down, the near side's ending level with the bottom rank (or below it, if long)."""
    bottom_owner = 1 if flip else 0
    top_zones = [z for z in scene.zones if z.owner is not None and z.owner % 2 != bottom_owner]
    bottom_zones = [z for z in scene.zones if z not in top_zones]
    board_top = STATUS + 4
    cells = {cid: _shift(box, MARGIN, board_top) for cid, box in cells.items()}
    labels = [(text, x + MARGIN, y + board_top) for text, x, y in labels]
    left = MARGIN + board_w + MARGIN / 2
    right = left + SIDE_COLUMN
    zones: list[ZoneBox] = []
    top_end = _place_zones(top_zones, zones, board_top, left, right)
    trial: list[ZoneBox] = []
    needed = _place_zones(bottom_zones, trial, 0, left, right)  # its height, to end at the bottom rank
    start = max(top_end + 8, board_top + board_h - needed)
    end = _place_zones(bottom_zones, zones, start, left, right)
    height = max(board_top + board_h + MARGIN, end + 8)
    return Layout(right + 8, height, cells, zones, board_top, board_top + board_h, flip, False, labels)


def _own_and_others(scene: Scene) -> tuple[list[Zone], list[Zone]]:
    """The viewer's (or the mover's) zones and shared ones first; everybody else's after."""
    own = scene.perspective if scene.perspective is not None else scene.to_move
    mine = [z for z in scene.zones if z.owner is None or z.owner == own or z.id == "initiative"]
    return mine, [z for z in scene.zones if z not in mine]


def _under(scene: Scene, cells: dict[str, CellBox], board_w: float, board_h: float, width: float) -> Layout:
    """A hex map with its zones under it (narrow screens)."""
    mine, others = _own_and_others(scene)
    board_top = STATUS + 4
    cells = {cid: _shift(box, (width - board_w) / 2, board_top) for cid, box in cells.items()}
    zones: list[ZoneBox] = []
    left, right = MARGIN / 2, width - MARGIN / 2
    y = _place_zones(mine, zones, board_top + board_h + 8, left, right, item=HEX_ITEM)
    for owner in sorted({z.owner for z in others}):
        y = _place_strip([z for z in others if z.owner == owner], zones, y + 2, left, right)
    return Layout(width, y + 8, cells, zones, board_top, board_top + board_h, False, True, [])


def _beside(scene: Scene, cells: dict[str, CellBox], board_w: float, board_h: float) -> Layout:
    """A hex map with the zones in a column beside it, so map and hand fit one screen: the
    viewer's (or the mover's) own zones full size first, everybody else's compact below."""
    mine, others = _own_and_others(scene)
    board_top = STATUS + 4
    cells = {cid: _shift(box, MARGIN / 2, board_top) for cid, box in cells.items()}
    x0 = board_w + MARGIN
    right = x0 + 6 * (HEX_ITEM + ITEM_GAP)
    zones: list[ZoneBox] = []
    y = _place_zones(mine, zones, STATUS, x0, right, item=HEX_ITEM)
    for owner in sorted({z.owner for z in others}):
        y = _place_strip([z for z in others if z.owner == owner], zones, y + 2, x0, right)
    height = max(board_top + board_h + 8, y + 8)
    return Layout(right + 8, height, cells, zones, board_top, board_top + board_h, False, True, [])


def _shift(box: CellBox, dx: float, dy: float) -> CellBox:
    return CellBox(
        box.id, box.cx + dx, box.cy + dy, box.size, tuple((x + dx, y + dy) for x, y in box.polygon)
    )


def _square_cells(scene: Scene, max_board: float, flip: bool, tall: float = 1.0):
    """`tall`: how much taller than wide the board may be (a phone scrolls down, not across:
    its squares are as wide as the width allows, so the names on the pieces fit)."""
    files = max(c.x for c in scene.cells) + 1
    ranks = max(c.y for c in scene.cells) + 1
    size = max(44.0, min(84.0, max_board / files, max_board * tall / ranks))
    cells = {}
    for c in scene.cells:
        col = files - 1 - c.x if flip else c.x
        row = c.y if flip else ranks - 1 - c.y
        x0, y0 = col * size, row * size
        cells[c.id] = CellBox(
            c.id,
            x0 + size / 2,
            y0 + size / 2,
            size,
            ((x0, y0), (x0 + size, y0), (x0 + size, y0 + size), (x0, y0 + size)),
        )
    labels = []
    for f in range(files):
        col = files - 1 - f if flip else f
        labels.append((chr(ord("a") + f), col * size + size / 2, ranks * size + 14))
    for r in range(ranks):
        row = r if flip else ranks - 1 - r
        labels.append((str(r + 1), -13, row * size + size / 2))
    return cells, files * size, ranks * size, labels


def _hex_cells(scene: Scene, max_board: float):
    """Pointy-top hexes from axial (x, y); y grows upwards so side A (low y) is at the bottom."""
    raw = {c.id: (math.sqrt(3) * (c.x + c.y / 2), -1.5 * c.y) for c in scene.cells}
    xs = [p[0] for p in raw.values()]
    ys = [p[1] for p in raw.values()]
    span_x = max(xs) - min(xs) + math.sqrt(3)
    span_y = max(ys) - min(ys) + 2
    radius = min(40.0, max_board / span_x, max_board / span_y)
    cells = {}
    for c in scene.cells:
        px = (raw[c.id][0] - min(xs) + math.sqrt(3) / 2) * radius
        py = (raw[c.id][1] - min(ys) + 1) * radius
        corners = tuple(
            (
                px + radius * math.cos(math.radians(60 * k - 30)),
                py + radius * math.sin(math.radians(60 * k - 30)),
            )
            for k in range(6)
        )
        cells[c.id] = CellBox(c.id, px, py, radius, corners)
    return cells, span_x * radius, span_y * radius, []


def _place_strip(zones: list[Zone], out: list[ZoneBox], y: float, left: float, right: float) -> float:
    """One player's zones as one compact strip: a summary line, then all items in a row, each
    zone's items apart from the previous zone's by a gap with a thin line (hand, bag, discard
    pile and supply must not read as one pile)."""
    counts = [f"{_short_title(z)} {sum(i.count for i in z.items) + z.hidden_count}" for z in zones]
    first = None
    x = left
    for i, zone in enumerate(zones):
        owner_name = zone.title.split(":")[0] if ":" in zone.title else zone.title
        box = ZoneBox(
            zone, left, y, title=f"{owner_name}: " + " · ".join(counts) if i == 0 else "", room=right - left
        )
        if first is None:
            first = box
            row_y = _items_top(box)
        if zone.items and x > left:
            if x + STRIP_GAP + COMPACT_ITEM > right:
                x, row_y = left, row_y + COMPACT_ITEM + ITEM_GAP
            else:
                box.separator = (x + (STRIP_GAP - ITEM_GAP) / 2, row_y, row_y + COMPACT_ITEM)
                x += STRIP_GAP - ITEM_GAP
        for entry in zone.items:
            if x + COMPACT_ITEM > right:
                x, row_y = left, row_y + COMPACT_ITEM + ITEM_GAP
            box.items.append(ItemBox(entry.cell, x, row_y, COMPACT_ITEM, COMPACT_ITEM))
            x += COMPACT_ITEM + ITEM_GAP
        out.append(box)
    filled = any(z.items for z in zones)
    return row_y + (COMPACT_ITEM if filled else 0) + ITEM_GAP + 2


def _short_title(zone: Zone) -> str:
    """'Side B: discard pile' -> 'discard pile'; 'Side B: supply (...); markers left: 4' -> 'supply'."""
    words = zone.title.split(":", 1)[-1].strip()
    return words.split(" (")[0].split(";")[0]


def _place_zones(
    zones: list[Zone], out: list[ZoneBox], y: float, left: float, right: float, item: float = ITEM
) -> float:
    for zone in zones:
        box = ZoneBox(zone, left, y, room=right - left)
        x, row_y = left, _items_top(box)
        for entry in zone.items:
            if x + item > right:
                x, row_y = left, row_y + item + ITEM_GAP
            box.items.append(ItemBox(entry.cell, x, row_y, item, item))
            x += item + ITEM_GAP
        out.append(box)
        y = row_y + (item if zone.items else 4) + ITEM_GAP + 2
    return y
