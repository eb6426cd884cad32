"""Board heatmaps over recorded games: counts per cell (`rules_kernel.heatmaps`) drawn on the
game's own board by the canvas backend (`widgets/canvas.py`), with the number of games and
events, a colour legend with its numbers, and the count written in every cell (the colour is
never the only carrier of a number).

    import pandas as pd
    from widgets import heatmap
    actions = pd.read_parquet("data/actions.parquet")
    heatmap.heatmap_panel(actions)          # every heatmap the games declare, side by side (wraps)

The drawing is a drawing list like the board's (`heatmap_drawing`), so the same picture can
be written as SVG too (`widgets.svg.svg_elements`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel.heatmaps import CellCounts
from rules_kernel.scene import Scene
from widgets.canvas import CanvasPainter, rgb
from widgets.draw import BOARD_LINE, INK, MIN_TEXT, Op, Painter, board_layout, board_only
from widgets.layout import Layout
from widgets.safe import html
from widgets.stats import tables  # the statistics' table toolkit: escaped cells, a caption
from widgets.svg import svg_document, svg_elements

#: a sequential scale, light (few) to dark (many): viridis, read the same with the common
#: colour-vision deficiencies and in greyscale
RAMP = ("#FDE725", "#8FD744", "#35B779", "#21908C", "#31688E", "#443A83")
NONE = "#FFFFFF"  # a cell where nothing was counted: the background's own colour
LOCATION = "#7B6BA8"


@dataclass(frozen=True)
class ColourScale:
    """Counts 1..top in at most len(RAMP) classes of equal integer width; 0 has its own colour."""

    top: int

    @property
    def step(self) -> int:
        return max(1, math.ceil(self.top / len(RAMP)))

    @property
    def classes(self) -> list[tuple[int, int, str]]:
        """(low, high, colour) per class, spread over the whole ramp."""
        n = max(1, math.ceil(self.top / self.step))
        out = []
        for i in range(n):
            low, high = 1 + i * self.step, min(self.top, (i + 1) * self.step)
            shade = RAMP[round(i * (len(RAMP) - 1) / (n - 1))] if n > 1 else RAMP[-1]
            out.append((low, high, shade))
        return out

    def colour(self, count: int) -> str:
        if count <= 0:
            return NONE
        return self.classes[min(len(self.classes) - 1, (count - 1) // self.step)][2]


def ink_on(colour: str) -> str:
    """Dark or white text, whichever reads on `colour` (relative luminance)."""
    r, g, b = rgb(colour) or (255, 255, 255)
    return INK if 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 else "#FFFFFF"


def heatmap_drawing(
    scene: Scene, counts: dict[str, int], headline: str, scale: ColourScale | None = None
) -> tuple[list[Op], Layout]:
    """The drawing list of a heatmap on `scene`'s board: every cell filled by its count's colour
    (one run of fill-only polygons, then one of outlines: one batched command each on a canvas),
    location rings on a hex map, the count in each counted cell, coordinates, `headline` on top.
    The board's layout is cut to the board and its coordinates (no room kept for zones)."""
    layout = board_layout(board_only(scene, tokens=False), top=26, min_width=250)
    scale = scale or ColourScale(max(counts.values(), default=0))
    shades = {c.id: c.shade for c in scene.cells}
    names = place_names(scene)
    p = Painter()
    p.rect(0, 0, layout.width, layout.height, fill="#FFFFFF")
    p.text(layout.width / 2, 17, headline, size=13, bold=True)
    for cid, box in layout.cells.items():
        p.polygon(box.polygon, fill=scale.colour(counts.get(cid, 0)))
    for box in layout.cells.values():
        p.polygon(box.polygon, stroke=BOARD_LINE, width=1)
    for cid, box in layout.cells.items():
        if shades.get(cid) == "location":
            p.circle(box.cx, box.cy, box.size * 0.62, stroke=LOCATION, width=2)
    for text, x, y in layout.labels:
        p.text(x, y + 4, text, size=MIN_TEXT, color="#666666")
    for cid, box in layout.cells.items():
        n = counts.get(cid, 0)
        named = layout.hexes and shades.get(cid) == "location"  # a hex map has no coordinates:
        size = max(MIN_TEXT, min(18.0, box.size * 0.4))  # its locations carry the map's names
        if n:
            baseline = box.cy - 1 if named else box.cy + size * 0.35
            p.text(box.cx, baseline, f"{n:,}", size=size, bold=True, color=ink_on(scale.colour(n)))
        if named:
            p.text(
                box.cx, box.cy + (12 if n else 4), names[cid], size=MIN_TEXT, color=ink_on(scale.colour(n))
            )
    return p, layout


def place_names(scene: Scene) -> dict[str, str]:
    """Each cell by the name the board shows (War Chest's hexes a1–g7, not the notation's
    `3,2`; a square's name is its id)."""
    return {c.id: c.label or c.id for c in scene.cells}


def legend_html(scale: ColourScale) -> str:
    """The colour scale as swatches with their numbers; a flex row that wraps on a phone."""
    entries = [(0, 0, NONE)] + scale.classes
    items = "".join(
        html(
            '<span style="display:inline-flex;align-items:center;gap:4px;white-space:nowrap">'
            '<span style="display:inline-block;width:18px;height:14px;background:{c};'
            'border:1px solid {line}"></span>{t}</span>',
            c=colour,
            line=BOARD_LINE,
            t=str(low) if low == high else f"{low}–{high}",
        )
        for low, high, colour in entries
    )
    return (
        '<div class="re-heatmap-legend" role="list" aria-label="colour scale: events per cell" '
        'style="display:flex;flex-wrap:wrap;gap:4px 12px;margin:4px 0;font-size:90%">'
        + html("<span>{t}</span>", t="events per cell:")
        + items
        + "</div>"
    )


@dataclass(frozen=True)
class Picture:
    """One heatmap of the page: a game and one of the heatmaps it declares (`Game.HEATMAPS`)."""

    game: str
    declared: rk.Heatmap

    @property
    def key(self) -> str:
        """A CSS-safe name (the canvas carries it as a class: re-heatmap-<key>)."""
        return f"{self.game}-{self.declared.name}"

    @property
    def title(self) -> str:
        return f"{rk.game_class(self.game).title}: {self.declared.title}"

    @property
    def what(self) -> str:
        return self.declared.what

    @property
    def explains(self) -> str:
        return self.declared.explains

    def count(self, actions: pd.DataFrame, scene: Scene) -> CellCounts:
        return self.declared.count(actions, scene)


def pictures() -> list[Picture]:
    """Every heatmap every registered game declares, games in their listing order."""
    return [
        Picture(game_id, declared)
        for game_id in rk.list_games(ordered=True)
        for declared in rk.game_class(game_id).HEATMAPS
    ]


class HeatmapFigure:
    """One heatmap: title, canvas, legend and a caption naming n (games) and the events."""

    def __init__(self, picture: Picture, actions: pd.DataFrame, *, experiment: str = "random against random"):
        self.picture = picture
        scene = game_parts.scene(rk.load_game(picture.game).initial_state())
        self.names = place_names(scene)
        self.data = picture.count(actions, scene)
        self.counts = self.data.counts()
        self.scale = ColourScale(max(self.counts.values(), default=0))
        headline = f"{self.data.events:,} {picture.what} in {self.data.games:,} games"
        ops, self.layout = heatmap_drawing(scene, self.counts, headline, self.scale)
        self.painter = CanvasPainter(self.layout.width, self.layout.height)
        self.painter.canvas.add_class("re-heatmap-canvas")
        self.painter.canvas.add_class(f"re-heatmap-{picture.key}")
        self.painter.paint(ops)
        top = ", ".join(f"{self.names.get(cell, cell)} ({n:,})" for cell, n in list(self.counts.items())[:3])
        caption = (
            f"{picture.title}, {experiment}: n = {self.data.games:,} games, "
            f"{self.data.events:,} {picture.what}; {picture.explains}." + (f" Most: {top}." if top else "")
        )
        words = html(
            '<figcaption style="font-size:90%;line-height:1.4;color:#333;max-width:30em">{c}</figcaption>',
            c=caption,
        )
        title = html('<div style="font-weight:600;line-height:1.3;margin:4px 0">{t}</div>', t=picture.title)
        # the same picture as SVG, hidden here: a page made without a kernel (the static site's
        # pre-rendered statistics, publish/static_pages.py) shows it where the canvas was
        still = w.HTML(
            svg_document(svg_elements(ops), self.layout.width, self.layout.height),
            layout=w.Layout(display="none"),
        )
        still.add_class("re-static-only")
        self.widget = w.VBox(
            [
                w.HTML(title),
                self.painter.canvas,
                still,
                w.HTML(f'<figure style="margin:0">{legend_html(self.scale)}{words}</figure>'),  # last
            ],
            layout=w.Layout(width="100%", max_width=f"{self.layout.width:.0f}px", margin="0 0 16px 0"),
        )
        self.widget.add_class("re-heatmap")

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def when_table(figure: HeatmapFigure) -> w.HTML:
    """Per cell: how often, in how many games, and when (plies) — the 'when' of a heatmap."""
    frame = figure.data.cells.reset_index()
    columns = [
        tables.label("cell", "Location", figure.names),
        tables.count("events", figure.picture.what.capitalize()),
        tables.count("games", "In games"),
        tables.Column("First at ply", lambda r: f"{int(r['first_ply']):,}"),
        tables.Column("Median ply", lambda r: f"{r['median_ply']:,.0f}"),
    ]
    caption = (
        f"{figure.picture.title}, and when: n = {figure.data.games:,} games, "
        f"{figure.data.events:,} {figure.picture.what}"
    )
    return tables.table(frame, columns, caption)


def heatmap_panel(actions: pd.DataFrame, chosen: list[Picture] | None = None) -> w.Box:
    """Every heatmap side by side (they wrap onto new rows on a narrow page); under them, the
    table of when for each heatmap that asks for one (War Chest's: when each location was taken)."""
    figures = [HeatmapFigure(p, actions) for p in (pictures() if chosen is None else chosen)]
    row = w.Box(
        [f.widget for f in figures],
        # grid_gap: ipywidgets' Layout has no `gap` (it was dropped with a warning, and the
        # heatmaps touched); CSS reads grid-gap as the gap of a flex row too
        layout=w.Layout(display="flex", flex_flow="row wrap", grid_gap="0 24px", width="100%"),
    )
    tables = [when_table(f) for f in figures if f.picture.declared.when_table]
    return w.VBox([row, *tables], layout=w.Layout(width="100%"))
