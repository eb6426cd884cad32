"""The drawing list painted on an ipycanvas canvas: the backend for many marks at once.

`widgets/draw.py` makes a drawing list (plain ops); `widgets/svg.py` writes it as SVG for the
playable board, and this module sends the same list to a browser canvas — for board heatmaps
over recorded games (`widgets/heatmap.py`), where the page is a picture, not a control.

Every op becomes canvas calls inside one `hold_canvas()`, so a whole drawing travels as one
message. Runs of fill-only polygons, rectangles or circles are sent as one batched command
each (ipycanvas's `fill_styled_*`: one colour per shape in a byte array), and runs of
stroke-only polygons of one line width as one `stroke_styled_polygons`: a heatmap's cells are
one fill and one stroke, however many cells there are. Only neighbouring ops are batched, so
what is drawn over what stays as in the list.

The canvas is painted at `scale` device pixels per drawing unit (2: sharp on phones and HiDPI
screens) and scaled down by CSS to its container. A canvas keeps no drawing for a browser
that connects later (a Voilà page renders after the notebook ran), so the painter paints
again when a browser's canvas says it is ready (`on_client_ready`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from ipycanvas import Canvas, hold_canvas

from widgets.draw import Circle, EndGroup, Group, Line, Op, Polygon, Rect, Text

_HEX = re.compile(r"#([0-9a-fA-F]{6})")


def rgb(colour: str) -> tuple[int, int, int] | None:
    """'#D55E00' -> (213, 94, 0); None for any other CSS colour (it is then set as a style)."""
    match = _HEX.fullmatch(colour)
    if match is None:
        return None
    value = match.group(1)
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _fill_only(op: Op) -> bool:
    return op.fill is not None and op.stroke is None and rgb(op.fill) is not None


def _stroke_only(op: Op) -> bool:
    return op.fill is None and op.stroke is not None and rgb(op.stroke) is not None


def _runs(ops: Sequence[Op]) -> Iterable[tuple[str, list[Op]]]:
    """The ops cut into batches: ("fill", [polygons...]), ("fill", [rects...]), ("fill",
    [circles...]), ("stroke", [polygons of one line width]), or ("one", [op]) — a shape
    without neighbours of its kind is drawn by itself, which costs no array buffer."""
    i = 0
    while i < len(ops):
        op = ops[i]
        kind = type(op)
        how, j = "one", i + 1
        if kind in (Polygon, Rect, Circle) and _fill_only(op):
            while j < len(ops) and type(ops[j]) is kind and _fill_only(ops[j]):
                j += 1
            how = "fill"
        elif kind is Polygon and _stroke_only(op):
            while (
                j < len(ops) and type(ops[j]) is Polygon and _stroke_only(ops[j]) and ops[j].width == op.width
            ):
                j += 1
            how = "stroke"
        yield (how if j - i > 1 else "one"), list(ops[i:j])
        i = j


class CanvasPainter:
    """Paints drawing lists on one ipycanvas `Canvas` (made here unless one is given)."""

    def __init__(self, width: float, height: float, *, scale: float = 2.0, canvas: Canvas | None = None):
        self.width, self.height, self.scale = width, height, scale
        self.canvas = canvas if canvas is not None else Canvas()
        self.canvas.width, self.canvas.height = round(width * scale), round(height * scale)
        # the drawing's own size at most, narrower on a phone: CSS scales the pixels down
        self.canvas.layout.width = "100%"
        self.canvas.layout.max_width = f"{width:.0f}px"
        self.canvas.layout.height = "auto"
        self.ops: list[Op] = []
        self.canvas.on_client_ready(self._repaint)
        self._styles: dict[str, object] = {}

    def paint(self, ops: Iterable[Op]) -> None:
        """Clear the canvas and draw `ops` (kept, to draw again for a browser that connects)."""
        self.ops = list(ops)
        self._repaint()

    def _repaint(self) -> None:
        c = self.canvas
        self._styles = {}  # a new message: set every style it uses again
        with hold_canvas():
            c.reset_transform()
            c.clear()
            c.set_transform(self.scale, 0, 0, self.scale, 0, 0)
            for how, ops in _runs(self.ops):
                if how == "fill":
                    self._fill_batch(ops)
                elif how == "stroke":
                    self._stroke_batch(ops)
                else:
                    self._one(ops[0])

    def _set(self, name: str, value: object) -> None:
        """Set a canvas style only when it changes (each set is a command in the message)."""
        if self._styles.get(name, object()) != value:
            setattr(self.canvas, name, value)
            self._styles[name] = value

    def _fill_batch(self, ops: list[Op]) -> None:
        c = self.canvas
        self._set("global_alpha", 1.0)  # the batch carries each shape's own alpha
        colours = np.array([rgb(op.fill) for op in ops], dtype=np.uint8)
        alphas = np.array([op.alpha for op in ops], dtype=float)
        first = ops[0]
        if isinstance(first, Polygon):
            c.fill_styled_polygons([np.array(op.points, dtype=float) for op in ops], colours, alphas)
        elif isinstance(first, Rect):
            xs, ys, ws, hs = (
                np.array(v, dtype=float) for v in zip(*((o.x, o.y, o.w, o.h) for o in ops), strict=True)
            )
            c.fill_styled_rects(xs, ys, ws, hs, colours, alphas)
        else:
            xs, ys, rs = (np.array(v, dtype=float) for v in zip(*((o.x, o.y, o.r) for o in ops), strict=True))
            c.fill_styled_circles(xs, ys, rs, colours, alphas)

    def _stroke_batch(self, ops: list[Polygon]) -> None:
        self._set("global_alpha", 1.0)
        self._set("line_width", float(ops[0].width))
        colours = np.array([rgb(op.stroke) for op in ops], dtype=np.uint8)
        alphas = np.array([op.alpha for op in ops], dtype=float)
        self.canvas.stroke_styled_polygons([np.array(op.points, dtype=float) for op in ops], colours, alphas)

    def _one(self, op: Op) -> None:
        painter = _SINGLE.get(type(op))
        if painter is not None:
            painter(self, op)

    def _shape(self, op: Op, fill: Callable[[], None], stroke: Callable[[], None]) -> None:
        self._set("global_alpha", float(op.alpha))
        if op.fill:
            self._set("fill_style", op.fill)
            fill()
        if op.stroke:
            self._set("stroke_style", op.stroke)
            self._set("line_width", float(op.width))
            stroke()

    def _rect(self, op: Rect) -> None:
        c = self.canvas
        self._shape(
            op, lambda: c.fill_rect(op.x, op.y, op.w, op.h), lambda: c.stroke_rect(op.x, op.y, op.w, op.h)
        )

    def _polygon(self, op: Polygon) -> None:
        c, points = self.canvas, [tuple(p) for p in op.points]
        self._shape(op, lambda: c.fill_polygon(points), lambda: c.stroke_polygon(points))

    def _circle(self, op: Circle) -> None:
        c = self.canvas
        self._shape(op, lambda: c.fill_circle(op.x, op.y, op.r), lambda: c.stroke_circle(op.x, op.y, op.r))

    def _line(self, op: Line) -> None:
        self._set("global_alpha", float(op.alpha))
        self._set("stroke_style", op.stroke)
        self._set("line_width", float(op.width))
        self.canvas.stroke_line(op.x1, op.y1, op.x2, op.y2)

    def _text(self, op: Text) -> None:
        self._set("global_alpha", 1.0)
        self._set("fill_style", op.color)
        self._set("font", f"{'bold ' if op.bold else ''}{op.size:.1f}px sans-serif")
        self._set("text_align", op.align)  # "center", "left", "right": the canvas's own words
        self.canvas.fill_text(op.text, op.x, op.y)


# Group/EndGroup name a thing for tooltips; a canvas has none (the page says it in words)
_SINGLE: dict[type, Callable[[CanvasPainter, Op], None]] = {
    Rect: CanvasPainter._rect,
    Polygon: CanvasPainter._polygon,
    Circle: CanvasPainter._circle,
    Line: CanvasPainter._line,
    Text: CanvasPainter._text,
    Group: lambda *_: None,
    EndGroup: lambda *_: None,
}
