"""The evaluation graph of a game report: the first player's expected score ply by ply.

    df = rules_kernel.analysis.report(record, limit=0.1)
    graph = EvalGraph()
    graph.show(curve_of(df, game))
    graph.on_go(lambda ply: replay.show(ply))     # a click (or an arrow key) asks for a ply

x is the ply (0 = the start), y the expected score in [0, 1] of seat 0's side (a draw counts
half; in War Chest's four-player game the side is seat 0's team), with the 0.5 line drawn;
the ply on show is a vertical line, mistakes and blunders are dots with their move in a
tooltip. The SVG is built here, every text in it escaped; the browser only moves the ply
line and turns a click into a ply (`model.send`), which comes back checked.
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import anywidget
import ipywidgets as w
import traitlets

from rules_kernel.core import Game, RulesError
from widgets import runtime
from widgets.analysis_panel import ENGINE_TITLES
from widgets.charts import GRID, INK, ticks
from widgets.safe import error_line, guarded, html, message_html

if TYPE_CHECKING:
    import pandas as pd

log = logging.getLogger("widgets")

LINE, FILL = "#0072B2", "#0072B233"
#: how a mark is drawn: (colour, radius); Okabe-Ito colours, told apart by size as well
MARKS = {"mistake": ("#E69F00", 3.5), "blunder": ("#D55E00", 4.5)}
HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 164, 34, 14, 8, 38
MIN_WIDTH, MAX_WIDTH = 280, 1000

CSS = """
.re-evalgraph { position: relative; width: 100%; max-width: 100%; }
.re-evalgraph svg { display: block; width: 100%; height: auto; cursor: pointer; touch-action: manipulation; }
.re-evalgraph:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
"""


@dataclass(frozen=True)
class Mark:
    """A move worth a dot: the ply it led to, its classification and its words."""

    ply: int
    classification: str
    text: str


@dataclass(frozen=True)
class Curve:
    """What the graph draws: `points[p]` is seat 0's expected score after ply p (p = 0 the
    start), so there are plies + 1 points; `side` names whose score it is."""

    points: tuple[float, ...]
    side: str
    marks: tuple[Mark, ...] = field(default=())

    @property
    def plies(self) -> int:
        return len(self.points) - 1


def curve_of(df: pd.DataFrame, game: Game) -> Curve:
    """The curve of a report (`rules_kernel.analysis.report`): after each ply the mover's
    value of the position it left (`value_after`), turned to seat 0's side; where a ply has
    none (the start, a chance event) the next mover's value before its move; where neither
    (a chance event at the end), the point before it carried on."""
    points: list[float | None] = [None] * (len(df) + 1)
    marks = []
    for i, row in enumerate(df.itertuples(index=False)):
        if _missing(row.mover):
            continue
        mover = int(row.mover)
        points[i + 1] = _for_seat_0(game, mover, row.value_after)
        if points[i] is None:
            points[i] = _for_seat_0(game, mover, row.value_before)
        if row.classification in MARKS:
            words = f"{row.ply}. {row.player}: {row.move}: {row.classification}, lost {row.loss:.2f}"
            marks.append(Mark(i + 1, row.classification, words))
    return Curve(tuple(_filled(points)), _side_name(game), tuple(marks))


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _for_seat_0(game: Game, mover: int, value: float | None) -> float | None:
    """The mover's expected score as seat 0's side's: its own when the mover is on that side
    (seat 0 or its teammate), else the rest of the one point (zero sum between two sides)."""
    if _missing(value):
        return None
    same = game.team(mover) == game.team(0)
    return float(value) if same else 1.0 - float(value)


def _filled(points: list[float | None]) -> list[float]:
    known = next((p for p in points if p is not None), 0.5)
    filled = []
    for point in points:
        known = known if point is None else point
        filled.append(min(1.0, max(0.0, known)))
    return filled


def _side_name(game: Game) -> str:
    name = game.player_names[0]
    teams = len({game.team(seat) for seat in range(game.num_players)}) < game.num_players
    return f"{name}'s side" if teams else name


# --- the drawing ----------------------------------------------------------------------------------


def graph_svg(curve: Curve, width: float = 640) -> str:
    """The graph as an SVG `width` units wide (the widget's width in CSS pixels, so its text
    keeps its size on a phone). The ply line is `.re-eval-current`, moved by the browser."""
    width = min(MAX_WIDTH, max(MIN_WIDTH, width))
    right, bottom = width - RIGHT, HEIGHT - BOTTOM
    span = max(1, curve.plies)

    def x(ply: float) -> float:
        return LEFT + ply / span * (right - LEFT)

    def y(score: float) -> float:
        return TOP + (1 - score) * (bottom - TOP)

    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{right - LEFT:.1f}" height="{bottom - TOP}" fill="#FFF"/>']
    for score, label in ((1, "1"), (0.5, "0.5"), (0, "0")):
        dash = ' stroke-dasharray="4 3"' if score == 0.5 else ""
        colour = "#888" if score == 0.5 else GRID
        parts.append(
            f'<line x1="{LEFT}" x2="{right:.1f}" y1="{y(score):.1f}" y2="{y(score):.1f}" '
            f'stroke="{colour}"{dash}/>'
        )
        parts.append(_label(LEFT - 4, y(score) + 4, label, "end"))
    for tick in ticks(0, span, max(2, min(8, int((right - LEFT) // 70)))):
        if tick == int(tick):
            parts.append(_label(x(tick), bottom + 15, f"{int(tick)}", "middle"))
    parts.append(_label((LEFT + right) / 2, HEIGHT - 4, "ply", "middle"))
    line = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v in enumerate(curve.points))
    area = f"{x(0):.1f},{y(0.5):.1f} {line} {x(curve.plies):.1f},{y(0.5):.1f}"
    parts.append(f'<polygon points="{area}" fill="{FILL}" stroke="none"/>')
    parts.append(f'<polyline points="{line}" fill="none" stroke="{LINE}" stroke-width="2"/>')
    for mark in curve.marks:
        colour, radius = MARKS[mark.classification]
        parts.append(
            f'<circle cx="{x(mark.ply):.1f}" cy="{y(curve.points[mark.ply]):.1f}" r="{radius}" '
            f'fill="{colour}" stroke="#222" data-ply="{mark.ply}"><title>{escape(mark.text)}</title></circle>'
        )
    parts.append(
        f'<line class="re-eval-current" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{bottom}" '
        f'stroke="{INK}" stroke-width="2"/>'
    )
    title = f"Expected score of {curve.side}, ply by ply; click to go to a ply"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {HEIGHT}" '
        f'font-family="sans-serif" font-size="12" role="img"><title>{escape(title)}</title>'
        + "".join(parts)
        + "</svg>"
    )


def _label(x: float, y: float, text: str, anchor: str) -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{INK}">{escape(text)}</text>'


# --- the widget -----------------------------------------------------------------------------------


class EvalGraph(anywidget.AnyWidget):
    """The browser shows `svg`, moves the ply line to `current` and sends a clicked ply."""

    _esm = Path(__file__).with_name("evalgraph.js")
    _css = CSS
    svg = traitlets.Unicode("").tag(sync=True)
    plies = traitlets.Int(0).tag(sync=True)
    current = traitlets.Int(0).tag(sync=True)
    #: the plot's left and right edges in the SVG's units (ply 0 and the last ply)
    plot = traitlets.List([LEFT, 640 - RIGHT]).tag(sync=True)
    label = traitlets.Unicode("Evaluation graph").tag(sync=True)
    #: the width the browser gives the graph (CSS pixels): the SVG is drawn that wide
    client_width = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.curve: Curve | None = None
        self._go_handlers: list[Callable[[int], None]] = []
        self.on_msg(self._on_message)
        self.observe(lambda _: self._draw(), names="client_width")
        self.observe(lambda _: self._label(), names="current")

    @property
    def points(self) -> Sequence[float]:
        return self.curve.points if self.curve else ()

    def show(self, curve: Curve | None) -> None:
        """Draw `curve` (None: nothing)."""
        self.curve = curve
        self._draw()

    def on_go(self, handler: Callable[[int], None]) -> None:
        self._go_handlers.append(handler)

    def go(self, ply: int) -> None:
        """Ask for ply `ply` (what a click sends; also for tests)."""
        for handler in self._go_handlers:
            handler(ply)

    def _draw(self) -> None:
        if self.curve is None:
            with self.hold_sync():
                self.svg, self.plies = "", 0
            return
        width = min(MAX_WIDTH, max(MIN_WIDTH, self.client_width or 640))
        with self.hold_sync():
            self.svg = graph_svg(self.curve, width)
            self.plies = self.curve.plies
            self.plot = [LEFT, width - RIGHT]
            self._label()

    def _label(self) -> None:
        if self.curve is None or not 0 <= self.current <= self.curve.plies:
            return
        score = self.curve.points[self.current]
        self.label = (
            f"Evaluation graph: ply {self.current} of {self.curve.plies}, expected score of "
            f"{self.curve.side} {score:.2f}. Arrow keys or a click go to a ply."
        )

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("event") != "go":
            return
        ply = content.get("ply")
        if isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= self.plies and self.curve:
            self.go(ply)


# --- the panel under the replay's board -------------------------------------------------------------

#: the time per position offered (seconds); the default is the longest of these up to
#: DEFAULT_SECONDS that keeps the whole analysis within about MINUTE_BUDGET seconds
SECONDS_CHOICES = (0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
DEFAULT_SECONDS, MINUTE_BUDGET = 0.1, 60
#: a game longer than this is not analysed here (the command line does it: `rules-explorer analyse`)
MAX_PLIES = 3000
#: nor at a time a position that makes it longer than this (seconds): a published page's
#: visitor may not hold a core for an hour
MAX_SECONDS = 600
#: the progress bar is updated at most this often (a table engine answers in microseconds)
PROGRESS_EVERY = 0.25


class Stopped(Exception):
    """The user pressed Stop (or another game was loaded): the report is abandoned."""


class _Watched:
    """An engine that counts the positions it analyses and ends the report when told to:
    its search stops early on the flag, and the next position raises Stopped."""

    def __init__(self, engine, stop: threading.Event, step: Callable[[], None]) -> None:
        self.engine, self.stop, self.step = engine, stop, step
        self.name = getattr(engine, "name", "engine")

    def analyse(self, state, *, viewer, limit, progress=None, stop=None):
        if self.stop.is_set():
            raise Stopped
        result = self.engine.analyse(state, viewer=viewer, limit=limit, progress=progress, stop=self.stop)
        self.step()
        return result

    def close(self) -> None:  # the engine is shared (rules_kernel.analysis keeps it open)
        pass


class ReportPanel(w.VBox):
    """Analyse (with the time per position and how long it will take), a progress bar and Stop
    while it runs in a thread, then the evaluation graph and a table per player.

    `go(ply)` is called when the graph asks for a ply. `set_game` tells it the game on show."""

    def __init__(self, go: Callable[[int], None]) -> None:
        self.graph = EvalGraph()
        self.button = w.Button(description="Analyse", icon="line-chart", tooltip="Analyse every position")
        self.seconds = w.Dropdown(
            options=[(f"{s:g} s", s) for s in SECONDS_CHOICES],
            value=DEFAULT_SECONDS,
            description="Time a position",
            style={"description_width": "initial"},
            layout=w.Layout(width="190px"),
        )
        self.stop_button = w.Button(description="Stop", icon="stop", layout=w.Layout(display="none"))
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(display="none", width="160px"))
        self.note = w.HTML()
        self.caption = w.HTML()
        self.table = w.HTML()
        on = guarded(error_line(self.note))
        self.button.on_click(on(lambda _: self.analyse()))
        self.stop_button.on_click(on(lambda _: self.stop()))
        self.seconds.observe(on(lambda _: self._estimate()), names="value")
        self.graph.on_go(on(go))
        controls = w.HBox(
            [self.button, self.seconds, self.stop_button, self.progress],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            [controls, self.note, self.caption, self.graph, self.table],
            layout=w.Layout(width="100%", max_width="900px"),
        )
        self.record = None
        self.game: Game | None = None
        self.viewer: int | str | None = "mover"
        self.hidden = False
        self.df: pd.DataFrame | None = None
        self._flag = threading.Event()
        self._thread: threading.Thread | None = None
        self._token = 0  # which game a running analysis belongs to: a stale one is dropped
        self._done = 0

    def set_game(self, record, game: Game, viewer: int | str | None, hidden: bool) -> None:
        """A game is on show: stop an analysis of the one before, clear the graph, offer the
        default time per position for this game's length."""
        self.stop()
        self._token += 1
        self.record, self.game, self.viewer, self.hidden = record, game, viewer, hidden
        self.df = None
        self.graph.show(None)
        self.caption.value = self.table.value = ""
        self.seconds.value = default_seconds(self.positions(1.0))
        self._estimate()

    def positions(self, seconds: float) -> float:
        """About how many positions the report analyses, times `seconds`: each ply's position
        once; twice in a game with secrets analysed in each mover's view (the position after
        a move is seen by its mover and by the next)."""
        plies = len(self.record.actions) if self.record is not None else 0
        return (plies + 1) * (2 if self.hidden and self.viewer == "mover" else 1) * seconds

    def _estimate(self) -> None:
        if self.record is None or self.running:
            return
        if not runtime.importable("pandas"):  # the static site's browser Python
            self.note.value = html(
                "<small>The game report is a pandas table, which this page's Python (in your "
                "browser) does not have: the server mode (<code>./run publish</code>) and "
                "<code>rules-explorer analyse</code> make it.</small>"
            )
            self.button.disabled = True
            return
        plies = len(self.record.actions)
        if plies > MAX_PLIES:
            self.note.value = html(
                "<small>{n} plies: too long to analyse here; "
                "<code>rules-explorer analyse</code> does it from the command line.</small>",
                n=f"{plies:,}",
            )
            self.button.disabled = True
            return
        seconds = self.positions(self.seconds.value)
        self.button.disabled = seconds > MAX_SECONDS
        self.note.value = html(
            "<small>Every position with the game's engine, up to {s} s each: about {t}{more}.</small>",
            s=f"{self.seconds.value:g}",
            t=_duration(seconds),
            more="; too long here: choose a shorter time a position" if self.button.disabled else "",
        )

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def analyse(self, *, engine=None, limit=None, wait: bool = False) -> threading.Thread | None:
        """Analyse the game on show (`rules_kernel.analysis.report`) in a thread, or here with
        `wait=True`; `engine`/`limit` as report's (default: the game's engine, the time chosen)."""
        if self.record is None or self.running or self.button.disabled:
            return None  # nothing to analyse, already analysing, or too long (the note says so)
        from rules_kernel.analysis import Limit

        limit = Limit(seconds=self.seconds.value) if limit is None else limit
        self._flag = threading.Event()
        self._started(limit)
        job = functools.partial(self._run, self._token, self._flag, engine, limit)
        if wait or not runtime.THREADS:  # the browser's Python starts no threads: the page waits
            job()
            return None
        self._thread = threading.Thread(target=job, name="replay-report", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        self._flag.set()

    def _started(self, limit) -> None:
        self._done = 0
        self.progress.max = max(1, round(self.positions(1.0)))
        self.progress.value = 0
        self.button.disabled = self.seconds.disabled = True
        self.stop_button.layout.display = self.progress.layout.display = ""
        self.note.value = html("<small>Analysing… (Stop ends it)</small>")

    def _run(self, token: int, flag: threading.Event, engine, limit) -> None:
        """The thread's work: the report, then the graph; any failure is one line in the note.
        A report of a game no longer on show (`token` is old) is dropped."""
        started, df, message = time.monotonic(), None, ""
        try:
            df = self._report(flag, engine, limit)
        except Stopped:
            message = html("<small>Stopped; Analyse starts again.</small>")
        except RulesError as exc:
            message = message_html(str(exc), error=True)
        except Exception as exc:  # noqa: BLE001 - a thread's failure must reach the page as a line
            log.exception("the replay's report failed")
            message = message_html(
                f"the analysis failed ({type(exc).__name__}); the page is still usable", error=True
            )
        finally:
            self.button.disabled = self.seconds.disabled = False
            self.stop_button.layout.display = self.progress.layout.display = "none"
        if token != self._token:
            return
        if df is None:
            self.note.value = message
        else:
            guarded(error_line(self.note))(self._show)(df, time.monotonic() - started)

    def _report(self, flag: threading.Event, engine, limit) -> pd.DataFrame:
        from rules_kernel.analysis import get_engine, report

        chosen = (
            engine if engine is not None and not isinstance(engine, str) else get_engine(self.game, engine)
        )
        last = [0.0]

        def step() -> None:
            self._done += 1
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                self.progress.value = min(self.progress.max, self._done)

        watched = _Watched(chosen, flag, step)
        return report(self.record, engine=watched, limit=limit, viewer=self.viewer, progress=False)

    def _show(self, df: pd.DataFrame, seconds: float) -> None:
        from rules_kernel.analysis import summary

        self.df = df
        curve = curve_of(df, self.game)
        # each engine by its name in words (the report's column holds its id: "ismcts")
        engines = ", ".join(sorted({ENGINE_TITLES.get(str(e), str(e)) for e in df["engine"].dropna()}))
        engines = engines or "no engine"
        self.caption.value = html(
            '<div style="font-size:13px;line-height:1.4">Expected score of <b>{side}</b> '
            '(0 to 1; 0.5: even), by {engines}; <span style="color:{m}">●</span> mistake, '
            '<span style="color:{b}">●</span> blunder. Click the graph to go to a ply.</div>',
            side=curve.side,
            engines=engines,
            m=MARKS["mistake"][0],
            b=MARKS["blunder"][0],
        )
        self.table.value = summary_html(summary(df))  # before the graph: a page that sees the graph
        self.graph.show(curve)  # drawn has the table per player too (sent first, in order)
        self.note.value = html("<small>Analysed in {t}.</small>", t=_duration(seconds))


def default_seconds(positions: float) -> float:
    """The longest time per position, up to DEFAULT_SECONDS, that keeps the whole report
    within about MINUTE_BUDGET seconds (the shortest choice for a long game)."""
    fitting = [s for s in SECONDS_CHOICES if s <= DEFAULT_SECONDS and positions * s <= MINUTE_BUDGET]
    return max(fitting, default=SECONDS_CHOICES[0])


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    return f"{seconds / 60:.0f} min" if seconds >= 600 else f"{seconds // 60:.0f} min {seconds % 60:.0f} s"


def summary_html(table: pd.DataFrame) -> str:
    """The per-player table of `summary` as a small HTML table, every cell escaped (narrow
    enough for a phone; the headings' tooltips say what they count)."""
    columns = [
        ("player", "Player", "the seat"),
        ("moves", "Moves", "moves made"),
        ("mean_loss", "Mean loss", "the mean loss of expected score a move"),
        ("inaccuracy", "Inaccuracies", "a loss of 0.05 to 0.10"),
        ("mistake", "Mistakes", "a loss of 0.10 to 0.15"),
        ("blunder", "Blunders", "a loss of 0.15 or more, or a result thrown away"),
    ]
    if "results_changed" in table and table["results_changed"].sum():
        columns.append(("results_changed", "Results thrown", "a win or a draw made worse (exact engines)"))
    cell = 'style="padding:2px 5px;text-align:{align};border-bottom:1px solid #ddd"'
    head = "".join(
        html(
            f'<th {cell} title="{{tip}}">{{label}}</th>', align="right" if i else "left", label=label, tip=tip
        )
        for i, (_, label, tip) in enumerate(columns)
    )
    rows = []
    for _, row in table.iterrows():
        cells = []
        for i, (key, _, _) in enumerate(columns):
            value = f"{row[key]:.3f}" if key == "mean_loss" else row[key]
            cells.append(html(f"<td {cell}>{{value}}</td>", align="right" if i else "left", value=value))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        '<div style="overflow-x:auto;max-width:100%"><table style="border-collapse:collapse;font-size:12px;'
        f'line-height:1.35;margin-top:4px"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        "</table></div>"
    )
