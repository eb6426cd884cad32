"""The board on an ipycanvas MultiCanvas: a board layer, a highlight layer, clicks on top."""

from __future__ import annotations

from collections.abc import Callable

from ipycanvas import MultiCanvas, hold_canvas

from rules_kernel.scene import Scene
from widgets.draw import INK, draw_highlights, draw_scene
from widgets.layout import Layout, layout_scene


class CanvasPainter:
    def __init__(self, canvas) -> None:
        self.c = canvas

    def _paint(self, fill, stroke, width, alpha, do_fill, do_stroke) -> None:
        c = self.c
        c.global_alpha = alpha
        if fill:
            c.fill_style = fill
            do_fill()
        if stroke:
            c.stroke_style = stroke
            c.line_width = width
            do_stroke()
        if alpha != 1:
            c.global_alpha = 1

    def rect(self, x, y, w, h, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        self._paint(fill, stroke, width, alpha, lambda: self.c.fill_rect(x, y, w, h),
                    lambda: self.c.stroke_rect(x, y, w, h))

    def polygon(self, points, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        pts = [(float(x), float(y)) for x, y in points]
        self._paint(fill, stroke, width, alpha, lambda: self.c.fill_polygon(pts),
                    lambda: self.c.stroke_polygon(pts))

    def circle(self, x, y, r, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        self._paint(fill, stroke, width, alpha, lambda: self.c.fill_circle(x, y, r),
                    lambda: self.c.stroke_circle(x, y, r))

    def group(self, title: str) -> None:  # a canvas has no tooltips
        pass

    def end_group(self) -> None:
        pass

    def text(self, x, y, text, *, size=12, color=INK, bold=False, align="center") -> None:
        c = self.c
        c.font = f"{'bold ' if bold else ''}{size:.0f}px sans-serif"
        c.text_align = align
        c.fill_style = color
        c.fill_text(text, x, y)


class BoardCanvas:
    """Draws scenes; reports clicks as cell ids; redraws when a browser client connects."""

    def __init__(self) -> None:
        self.widget = MultiCanvas(2, width=420, height=420)
        # never stretched by a flex row: clicks are reported in CSS pixels, drawing is in
        # canvas pixels, and the two must agree
        self.widget.layout.align_self = "flex-start"
        self.widget.layout.flex = "0 0 auto"
        self.layout: Layout | None = None
        self.scene: Scene | None = None
        self.highlight: dict[str, tuple[str, ...]] = {}
        self._click_handlers: list[Callable[[str], None]] = []
        self.widget.on_mouse_down(self._on_mouse_down)
        self.widget.on_client_ready(self.redraw)

    def on_click(self, handler: Callable[[str], None]) -> None:
        self._click_handlers.append(handler)

    def show(self, scene: Scene, *, flip: bool | None = None, **highlight: tuple[str, ...]) -> None:
        self.scene, self.highlight = scene, highlight
        self.layout = layout_scene(scene, flip=flip)
        self.redraw()

    def set_highlight(self, **highlight: tuple[str, ...]) -> None:
        self.highlight = highlight
        self._draw_highlight()

    def redraw(self) -> None:
        if self.scene is None or self.layout is None:
            return
        width, height = int(self.layout.width), int(self.layout.height)
        with hold_canvas():
            if (self.widget.width, self.widget.height) != (width, height):
                self.widget.width, self.widget.height = width, height
            board = self.widget[0]
            board.clear()
            draw_scene(CanvasPainter(board), self.scene, self.layout)
            self._draw_highlight()

    def _draw_highlight(self) -> None:
        if self.layout is None:
            return
        with hold_canvas():
            top = self.widget[1]
            top.clear()
            draw_highlights(CanvasPainter(top), self.layout, **self.highlight)

    def click_at(self, x: float, y: float) -> str | None:
        """What a click at (x, y) hits; handlers are told (also used by headless tests)."""
        if self.layout is None:
            return None
        cell = self.layout.hit(x, y)
        if cell is not None:
            for handler in self._click_handlers:
                handler(cell)
        return cell

    def _on_mouse_down(self, x: float, y: float) -> None:
        self.click_at(x, y)
