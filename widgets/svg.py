"""Scene -> SVG text: the picture a bare state shows in a notebook and in exported HTML."""

from __future__ import annotations

from html import escape

from rules_kernel.scene import Scene
from widgets.draw import INK, draw_highlights, draw_scene
from widgets.layout import Layout, layout_scene


class SvgPainter:
    def __init__(self) -> None:
        self.parts: list[str] = []

    @staticmethod
    def _style(fill, stroke, width, alpha) -> str:
        # colours can come from data (a user's unit table): attribute values are escaped too
        style = f'fill="{escape(fill or "none")}"'
        if stroke:
            style += f' stroke="{escape(stroke)}" stroke-width="{width:g}"'
        if alpha != 1:
            style += f' opacity="{alpha:g}"'
        return style

    def rect(self, x, y, w, h, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                          f'{self._style(fill, stroke, width, alpha)}/>')

    def polygon(self, points, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.parts.append(f'<polygon points="{pts}" {self._style(fill, stroke, width, alpha)}/>')

    def circle(self, x, y, r, *, fill=None, stroke=None, width=1, alpha=1) -> None:
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" '
                          f'{self._style(fill, stroke, width, alpha)}/>')

    def group(self, title: str) -> None:
        self.parts.append(f"<g><title>{escape(title)}</title>")

    def end_group(self) -> None:
        self.parts.append("</g>")

    def text(self, x, y, text, *, size=12, color=INK, bold=False, align="center") -> None:
        anchor = {"center": "middle", "left": "start", "right": "end"}[align]
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" fill="{escape(color)}" '
                          f'text-anchor="{anchor}" font-family="sans-serif"{weight}>'
                          f"{escape(text)}</text>")


def scene_body(scene: Scene, layout: Layout) -> str:
    """The SVG elements that draw a scene (no <svg> wrapper)."""
    painter = SvgPainter()
    draw_scene(painter, scene, layout)
    return "\n".join(painter.parts)


def highlight_body(layout: Layout, **highlight: tuple[str, ...]) -> str:
    """The SVG elements of the highlight layer: last move, selection, targets."""
    painter = SvgPainter()
    draw_highlights(painter, layout, **highlight)
    return "\n".join(painter.parts)


def scene_to_svg(scene: Scene, *, highlight: bool = True) -> str:
    """An SVG picture of a scene (with the last move highlighted)."""
    layout = layout_scene(scene)
    body = scene_body(scene, layout)
    if highlight:
        body += "\n" + highlight_body(layout, last=scene.last_cells)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width:.0f}" '
            f'height="{layout.height:.0f}" viewBox="0 0 {layout.width:.0f} {layout.height:.0f}">'
            f"\n{body}\n</svg>")


def state_svg(state, perspective: int | None = None) -> str:
    return scene_to_svg(state.scene(perspective))
