"""A game's reference panel: what its pieces, units, cards and actions do, one line each.

`reference_panel(game)` is a folded Accordion, "Reference: <title>", holding the entries the
game declares (its "reference" part, rules_kernel/parts.py) as a list under their headings: the
name in bold (with its short mark), the line, and for a piece that moves by steps a small dot
diagram (3x3 for single steps, 5x5 for longer ones and for sliders), whose `aria-label` says
the moves in words. It names no game: everything comes from the declaration. Every text goes
through `widgets.safe.html`; the list wraps, so it reads on a 390 px phone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from html import escape

import ipywidgets as w

from rules_kernel import parts as game_parts
from rules_kernel.core import Game, ReferenceEntry
from widgets.draw import BOARD, BOARD_LINE, INK, OWNER_COLOURS, Circle, Line, Polygon, Rect
from widgets.safe import html
from widgets.svg import svg_elements

CELL = 12  # px a square of a dot diagram
NONE_YET = "This game has no reference yet: its rules are in its rulebook."

_NAMES = {
    (0, 1): "forward",
    (1, 1): "forward-right",
    (1, 0): "right",
    (1, -1): "back-right",
    (0, -1): "back",
    (-1, -1): "back-left",
    (-1, 0): "left",
    (-1, 1): "forward-left",
}


def _reading_order(moves: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Forward first, then round the clock: forward, forward-right, right, ..."""
    return sorted(set(moves), key=lambda m: (math.atan2(m[0], m[1]) % (2 * math.pi), abs(m[0]) + abs(m[1])))


def _step_words(dx: int, dy: int) -> str:
    if (dx, dy) in _NAMES:
        return _NAMES[dx, dy]
    parts = []
    if dy:
        parts.append(f"{abs(dy)} {'forward' if dy > 0 else 'back'}")
    if dx:
        parts.append(f"{abs(dx)} {'right' if dx > 0 else 'left'}")
    return " and ".join(parts)


def _or_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def moves_in_words(entry: ReferenceEntry) -> str:
    """The moves of a piece in words (what a screen reader says of the diagram):
    'one square forward, right, back or left'; 'any number of squares forward, ...';
    'jumps 2 forward and 1 right, ...'."""
    moves = _reading_order(entry.moves)
    words = _or_list([_step_words(dx, dy) for dx, dy in moves])
    if entry.slides:
        return f"any number of squares {words}"
    if all(max(abs(dx), abs(dy)) == 1 for dx, dy in moves):
        return f"one square {words}"
    return f"to the square {words}"


def dot_diagram(entry: ReferenceEntry) -> str:
    """The piece in the middle of a 3x3 (or 5x5) grid, pointing forward (up), a dot on each
    square it reaches, a line along each direction it slides; an SVG `role="img"` labelled
    with the moves in words."""
    reach = max((max(abs(dx), abs(dy)) for dx, dy in entry.moves), default=1)
    half = 2 if entry.slides or reach > 1 else 1
    n = 2 * half + 1
    size = n * CELL
    ops: list = [
        Rect(x * CELL, y * CELL, CELL, CELL, fill=BOARD, stroke=BOARD_LINE, width=0.5)
        for y in range(n)
        for x in range(n)
    ]

    def centre(dx: int, dy: int) -> tuple[float, float]:
        return ((half + dx + 0.5) * CELL, (half - dy + 0.5) * CELL)

    cx, cy = centre(0, 0)
    r = CELL * 0.38
    ops.append(
        Polygon(
            (
                (cx, cy - r),
                (cx + r, cy - r * 0.2),
                (cx + r * 0.8, cy + r),
                (cx - r * 0.8, cy + r),
                (cx - r, cy - r * 0.2),
            ),
            fill=OWNER_COLOURS[0],
            stroke=INK,
            width=1,
        )
    )
    for dx, dy in entry.moves:
        if entry.slides:
            ops.append(Line(cx, cy, *centre(dx * half, dy * half), stroke=INK, width=1.2))
            ops.extend(Circle(*centre(dx * k, dy * k), CELL * 0.18, fill=INK) for k in range(1, half + 1))
        elif max(abs(dx), abs(dy)) <= half:
            ops.append(Circle(*centre(dx, dy), CELL * 0.2, fill=INK))
    label = f"{entry.name}: {moves_in_words(entry)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(label, quote=True)}" '
        f'width="{size}" height="{size}" viewBox="0 0 {size} {size}" style="flex:none">'
        f"<title>{escape(label)}</title>{svg_elements(ops)}</svg>"
    )


def _entry_html(entry: ReferenceEntry) -> str:
    short = (
        html(' <span style="font-weight:normal">({short})</span>', short=entry.short) if entry.short else ""
    )
    text = html("<b>{name}</b>", name=entry.name) + short + html(": {line}", line=entry.line)
    picture = dot_diagram(entry) if entry.moves else ""
    return (
        '<li style="display:flex;gap:8px;align-items:flex-start;margin:0 0 6px 0">'
        f'{picture}<span style="min-width:0;overflow-wrap:anywhere">{text}</span></li>'
    )


def reference_html(game: Game) -> str:
    """The panel's content: the entries under their headings, or a line saying there is none."""
    entries = game_parts.reference(game)
    if not entries:
        return html('<p class="re-reference-none">{text}</p>', text=NONE_YET)
    parts = ['<div class="re-reference-body" style="max-width:100%;overflow-wrap:anywhere;line-height:1.35">']
    group: str | None = None
    for entry in entries:
        if entry.group != group:
            if group is not None:
                parts.append("</ul>")
            group = entry.group
            if group:
                parts.append(html('<h4 style="margin:8px 0 4px 0;font-size:1em">{group}</h4>', group=group))
            parts.append('<ul style="list-style:none;padding:0;margin:0">')
        parts.append(_entry_html(entry))
    parts.append("</ul></div>")
    return "".join(parts)


def reference_panel(game: Game) -> w.Accordion:
    """A folded Accordion "Reference: <game title>" with the game's reference in it, written
    when it is first opened (a page that is never asked for it neither makes nor sends it).

    The title is plain text (the Accordion shows it as text, never as HTML)."""
    body = w.HTML("", layout=w.Layout(width="100%"))
    panel = w.Accordion(
        children=[body],
        titles=(f"Reference: {game.title or game.id}",),
        selected_index=None,
        layout=w.Layout(width="96%", max_width="640px"),
    )
    panel.add_class("re-reference")

    def write(change) -> None:
        if change["new"] is not None and not body.value:
            body.value = reference_html(game)

    panel.observe(write, names="selected_index")
    return panel
