"""The drawing list as SVG text: the playable board's layers, the picture a bare state shows in a
notebook and in exported HTML, the landing page's thumbnails.

Everything the project writes as board SVG is written here: the scene and highlight layers
(from `widgets/draw.py`'s drawing list) and the board's transparent hit layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape

from rules_kernel import parts as game_parts
from rules_kernel.scene import Scene
from widgets.draw import (
    Circle,
    EndGroup,
    Group,
    Line,
    Op,
    Polygon,
    Rect,
    Text,
    board_layout,
    board_only,
    cell_names,
    draw_highlights,
    draw_scene,
    item_words,
)
from widgets.layout import Layout, layout_scene

ANCHORS = {"center": "middle", "left": "start", "right": "end"}


def _style(fill, stroke, width, alpha) -> str:
    # colours can come from data (a user's unit table): attribute values are escaped too
    style = f'fill="{escape(fill or "none")}"'
    if stroke:
        style += f' stroke="{escape(stroke)}" stroke-width="{width:g}"'
    if alpha != 1:
        style += f' opacity="{alpha:g}"'
    return style


def _rect(op: Rect) -> str:
    return (
        f'<rect x="{op.x:.1f}" y="{op.y:.1f}" width="{op.w:.1f}" height="{op.h:.1f}" '
        f"{_style(op.fill, op.stroke, op.width, op.alpha)}/>"
    )


def _polygon(op: Polygon) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in op.points)
    return f'<polygon points="{pts}" {_style(op.fill, op.stroke, op.width, op.alpha)}/>'


def _circle(op: Circle) -> str:
    return (
        f'<circle cx="{op.x:.1f}" cy="{op.y:.1f}" r="{op.r:.1f}" '
        f"{_style(op.fill, op.stroke, op.width, op.alpha)}/>"
    )


def _line(op: Line) -> str:
    return (
        f'<line x1="{op.x1:.1f}" y1="{op.y1:.1f}" x2="{op.x2:.1f}" y2="{op.y2:.1f}" '
        f"{_style(None, op.stroke, op.width, op.alpha)}/>"
    )


def _text(op: Text) -> str:
    weight = ' font-weight="bold"' if op.bold else ""
    return (
        f'<text x="{op.x:.1f}" y="{op.y:.1f}" font-size="{op.size:.1f}" fill="{escape(op.color)}" '
        f'text-anchor="{ANCHORS[op.align]}" font-family="sans-serif"{weight}>'
        f"{escape(op.text)}</text>"
    )


def _group(op: Group) -> str:
    return f"<g><title>{escape(op.title)}</title>"


def _end_group(_op: EndGroup) -> str:
    return "</g>"


WRITERS = {
    Rect: _rect,
    Polygon: _polygon,
    Circle: _circle,
    Line: _line,
    Text: _text,
    Group: _group,
    EndGroup: _end_group,
}


def svg_elements(ops: Iterable[Op]) -> str:
    """The SVG elements of a drawing list, one a line (no <svg> wrapper)."""
    return "\n".join(WRITERS[type(op)](op) for op in ops)


def scene_body(scene: Scene, layout: Layout) -> str:
    """The SVG elements that draw a scene (no <svg> wrapper)."""
    return svg_elements(draw_scene(scene, layout))


def highlight_body(layout: Layout, **highlight: tuple[str, ...]) -> str:
    """The SVG elements of the highlight layer: last move, selection, targets."""
    return svg_elements(draw_highlights(layout, **highlight))


def hit_layer(scene: Scene, layout: Layout, words: Mapping[str, str] | None = None) -> str:
    """The board's hit layer: one transparent shape per clickable place (cells, zone items)
    with `data-cell`, an `aria-label` and a tooltip, in the words of the scene the viewer may
    see. `words`: what a click on a lit target does ("e1: deploy a Cavalry"), said first in its
    label and tooltip, then what stands there. (Not a drawing: a canvas has no such layer, so
    it is not in the drawing list.)"""
    names = cell_names(scene)
    words = words or {}
    parts = []
    for cid, box in layout.cells.items():
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in box.polygon)
        parts.append(
            _hit("polygon", f'points="{points}"', cid, _with_words(names.get(cid, cid), words.get(cid)))
        )
    for zone_box in layout.zones:
        for item, box in zip(zone_box.zone.items, zone_box.items, strict=True):
            shape = f'x="{box.x:.1f}" y="{box.y:.1f}" width="{box.w:.1f}" height="{box.h:.1f}"'
            count = f" ×{item.count}" if item.count > 1 else ""
            name = zone_item_name(zone_box.zone.title, item_words(item), count)
            name = _with_words(name, words.get(item.cell))
            parts.append(_hit("rect", shape, item.cell, name))
    return "\n".join(parts)


def zone_item_name(title: str, what: str, count: str = "") -> str:
    """A zone item's name for a screen reader and a tooltip: the zone's title, then the item,
    each said once. The zone's heading may already name the item, which the plain
    "title: item" would read twice ("Initiative: Initiative: Side A"): the item's leading
    words that repeat the title's ("Initiative: ") are dropped, so is a bracket of the title
    that lists the item or says what the item says ("supply (Berserker, Swordsman)", "hand
    (hidden)"), and an item that is the title's last word ("Camp" in "… camp") adds nothing.
    What follows a ";" in a title (markers left: 5) comes after the item."""
    head, semicolon, tail = title.partition("; ")
    said = what.lower()

    def bracket(match: re.Match[str]) -> str:
        inside = match.group(1).lower()
        listed = said in (entry.strip() for entry in inside.split(","))
        return "" if listed or all(word in said.split() for word in inside.split()) else match.group(0)

    head = re.sub(r"\s*\(([^()]*)\)", bracket, head)
    lead, colon, rest = what.partition(": ")
    if colon and rest and head.lower().startswith(lead.lower()):
        what = rest
    plain = re.sub(r"\s*\([^()]*\)", "", head).strip().lower()
    if plain == what.lower() or plain.endswith(f" {what.lower()}"):
        name = f"{head}{count}"
    else:
        name = f"{head}: {what}{count}"
    return f"{name}; {tail}" if semicolon else name


def _with_words(name: str, words: str | None) -> str:
    """A place's name, led by what a click on it does when it is a lit target."""
    if not words:
        return name
    place = words.partition(":")[0]
    return words if name == place else f"{words} (here: {name})"


def _hit(tag: str, shape: str, cell: str, name: str) -> str:
    label = escape(name, quote=True)
    return (
        f'<{tag} {shape} data-cell="{escape(cell, quote=True)}" aria-label="{label}">'
        f"<title>{escape(name)}</title></{tag}>"
    )


def svg_document(body: str, width: float, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">'
        f"\n{body}\n</svg>"
    )


def scene_to_svg(scene: Scene, *, highlight: bool = True) -> str:
    """An SVG picture of a scene (with the last move highlighted)."""
    layout = layout_scene(scene)
    body = scene_body(scene, layout)
    if highlight:
        body += "\n" + highlight_body(layout, last=scene.last_cells)
    return svg_document(body, layout.width, layout.height)


def board_svg(scene: Scene) -> str:
    """The board alone with what stands on it, cut to the board (the landing page's thumbnails)."""
    bare = board_only(scene)
    layout = board_layout(bare)
    return svg_document(svg_elements(draw_scene(bare, layout)), layout.width, layout.height)


def state_svg(state, perspective: int | None = None) -> str:
    return scene_to_svg(game_parts.scene(state, perspective))
