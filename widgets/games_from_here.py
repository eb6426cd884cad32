"""The "Games from here" panel: the moves played from the position on the board in a game
collection, how often, how they scored for their mover (with the 95% interval), when last,
and the engine's value beside them; a click on a move plays it.

    from widgets.games_from_here import GamesFromHere
    panel = GamesFromHere({"My club": "my-games/"}, on_move=print)   # shipped one first
    panel.show(state)                       # the table for this position

The collections offered are the shipped one (`rules_kernel.collection.SHIPPED`), the ones
the page's author names in code, and the visitor's own uploads ("Add your games": record
files or an archive, imported into a temporary folder of the panel's own). Nothing a visitor
sends (an upload's name, a link, a widget value) becomes a path: an upload is written under a
name the panel makes, and the picker's values are the panel's list, checked again on every
change.
Every text reaching HTML goes through `widgets.safe.html`; every callback through `guarded`
(an error is one line on the panel, never a traceback).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import ipywidgets as w
import pandas as pd

from rules_kernel import records
from rules_kernel.collection import SHIPPED, Collection, CollectionError, import_collection
from rules_kernel.collection.sources import ARCHIVE_SUFFIXES, RECORD_SUFFIXES
from rules_kernel.core import State
from widgets.runtime import SHOWN
from widgets.safe import error_line, guarded, html, message_html
from widgets.upload import Upload

SHIPPED_LABEL = "Shipped games (simulated, and sample records)"
#: the most moves listed (the most played first); the rest are counted in the caption
MAX_ROWS = 12
COLUMNS = "minmax(9em, 2.2fr) 3.5em minmax(8em, 1.4fr) 6em minmax(5em, 1fr)"
HEADINGS = ("Move", "Games", "Mover's score (95%)", "Last played", "Engine")
#: a move's button shows its whole name, wrapped, not cut with an ellipsis
STYLE = (
    "<style>.re-games-from-here .re-move { white-space: normal; height: auto; min-height: 28px;"
    " text-align: left; line-height: 1.3; padding: 2px 8px; }</style>"
)


def _percent(value: float) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.0f}%"


def score_text(row: pd.Series) -> str:
    """ "50% (9–91%)", with "of 2" when fewer of the games that played the move have a
    result, or a dash when none has."""
    if not row["scored"]:
        return "– (no result)"
    of = f" of {row['scored']}" if row["scored"] != row["n"] else ""
    low, high = _percent(row["ci_low"]), _percent(row["ci_high"])
    return f"{_percent(row['score'])} ({low.removesuffix('%')}–{high}){of}"


class GamesFromHere(w.VBox):
    """The panel. `collections`: {label: folder} the author offers besides the shipped one
    (`shipped=False`: only those). `on_move(notation)`: what a click on a move does (the
    explorer plays it). `engine`: passed to `Collection.from_position` ("table": the solved
    table's values where there is one)."""

    def __init__(
        self,
        collections: Mapping[str, str | os.PathLike[str]] | None = None,
        *,
        on_move: Callable[[str], object] | None = None,
        engine: str | None = "table",
        shipped: bool = True,
        opened: bool = True,
        max_rows: int = MAX_ROWS,
    ) -> None:
        offered = [(SHIPPED_LABEL, str(SHIPPED))] if shipped else []
        offered += [(str(label), str(Path(path))) for label, path in (collections or {}).items()]
        if not offered:
            raise ValueError("GamesFromHere: no collection offered (shipped=False and none given)")
        self._offered = dict((path, label) for label, path in offered)
        self.on_move, self.engine, self.max_rows = on_move, engine, max_rows
        self._open: dict[str, Collection] = {}
        self._state: State | None = None
        self._viewer: int | str | None = "mover"
        self.table: pd.DataFrame | None = None  # the last table shown
        self.toggle = w.ToggleButton(
            value=opened,
            description="Games from here",
            icon="table",
            tooltip="moves played from this position",
        )
        self.picker = w.Dropdown(
            options=offered, description="Collection:", style={"description_width": "initial"}
        )
        self.picker.layout.max_width = "100%"
        self.caption = w.HTML()
        self.grid = w.GridBox(
            layout=w.Layout(grid_template_columns=COLUMNS, grid_gap="2px 8px", width="100%")
        )
        self.note = w.HTML()
        self.message = w.HTML()
        #: a visitor's own games: record files or an archive, imported into a folder of the
        #: panel's own (the file's name only labels it), then offered in the picker
        self.upload = Upload(
            "Add your games",
            accept=",".join((*RECORD_SUFFIXES, *ARCHIVE_SUFFIXES)),
            limit=records.MAX_UPLOAD_BYTES,
        )
        self.upload.on_refused(lambda line: setattr(self.message, "value", message_html(line, error=True)))
        self.body = w.VBox(
            [
                w.HTML(STYLE),
                w.VBox([self.picker, self.upload]),  # one under the other: a phone has no room beside
                self.caption,
                self.grid,
                self.note,
                self.message,
            ]
        )
        self.body.layout.overflow_x = "auto"
        self.body.layout.display = SHOWN if opened else "none"
        say = error_line(self.message)
        self.toggle.observe(guarded(say)(lambda _: self._opened()), names="value")
        self.picker.observe(guarded(say)(lambda _: self._draw()), names="value")
        self.upload.observe(guarded(say)(lambda _: self._uploaded()), names="value")
        #: the uploads' collections, removed with the panel
        self._folders: list[tempfile.TemporaryDirectory] = []
        super().__init__([self.toggle, self.body])
        self.add_class("re-games-from-here")

    # --- what the page calls -------------------------------------------------------------
    def show(self, state: State | None, viewer: int | str | None = "mover") -> None:
        """The table for `state`, as `viewer` sees it in a game with hidden information
        ("mover": the player to move). None: the whole panel hidden, its toggle too (behind
        a hand-over curtain nothing of the page but the curtain's button may show)."""
        self._state, self._viewer = state, viewer
        self.layout.display = "none" if state is None else SHOWN
        if self.toggle.value:
            guarded(error_line(self.message))(self._draw)()

    @property
    def collection(self) -> Collection:
        """The collection picked, opened once (only a folder the author offered)."""
        path = self.picker.value
        if path not in self._offered:  # a value the page did not offer: refused, never opened
            raise ValueError("that collection is not one this page offers")
        if path not in self._open:
            self._open[path] = Collection(path)
        return self._open[path]

    def add_upload(self, name: str, content: bytes) -> None:
        """Import an uploaded file (`name` only labels it and tells its format by its ending)
        into a collection of the panel's own, and show it. Its bad games are counted in one
        line; a file with no good game adds nothing."""
        if len(content) > records.MAX_UPLOAD_BYTES:  # the browser's check is never trusted
            raise CollectionError(self.upload.refusal(name, len(content)))
        ending = next((e for e in (*ARCHIVE_SUFFIXES, *RECORD_SUFFIXES) if name.lower().endswith(e)), None)
        if ending is None:
            raise CollectionError(f"{name[:60]} is not a record file or archive this panel reads")
        folder = tempfile.TemporaryDirectory(prefix="games-from-here-")
        source = Path(folder.name, "upload" + ending)  # our name, never the visitor's
        source.write_bytes(content)
        try:
            report = import_collection([source], Path(folder.name, "collection"), progress=False)
            if not report.games:
                first = f": {report.problems[0]}" if report.problems else ""
                raise CollectionError(f"no game of {name[:60]} could be read{first[:200]}")
        except BaseException:
            folder.cleanup()  # nothing of a refused upload is kept
            raise
        self._folders.append(folder)
        path = str(Path(folder.name, "collection"))
        bad = f", {len(report.problems)} left out" if report.problems else ""
        label = f"Your file: {name[:60]} ({report.games:,} games{bad})"
        self._offered[path] = label
        self.picker.options = [(text, value) for value, text in self._offered.items()]
        self.picker.value = path

    def _uploaded(self) -> None:
        files = self.upload.value
        if files:
            self.add_upload(str(files[0]["name"]), bytes(files[0]["content"]))

    def play(self, notation: str) -> None:
        """What a click on a move's row does: `on_move(notation)`."""
        if self.on_move is None:
            self.message.value = message_html("this panel is not connected to a board")
            return
        self.on_move(notation)

    def _clicked(self, notation: str, drawn: State) -> None:
        # a click that reaches us after the board has moved on (a double click, a slow
        # connection) is for a position no longer shown: ignored, not played elsewhere
        if drawn is self._state:
            self.play(notation)

    # --- drawing ---------------------------------------------------------------------------
    def _opened(self) -> None:
        self.body.layout.display = SHOWN if self.toggle.value else "none"
        if self.toggle.value:
            self._draw()

    def _draw(self) -> None:
        self.message.value = ""
        state = self._state
        if state is None:
            self.table = None
            self.caption.value, self.note.value, self.grid.children = "", "", ()
            return
        table = self.table = self.collection.from_position(state, viewer=self._viewer, engine=self.engine)
        label = self._offered[self.picker.value]
        if table.empty:
            self.caption.value = html("<p>No game of <i>{label}</i> reached this position.</p>", label=label)
            self.grid.children, self.note.value = (), ""
            return
        shown = table.head(self.max_rows)
        more = len(table) - len(shown)
        self.caption.value = html(
            "<p>{games} game(s) of <i>{label}</i> went on from here with {moves} different move(s){more}. "
            "Click a move to play it.</p>",
            games=f"{int(table['n'].sum()):,}",
            label=label,
            moves=len(table),
            more=f"; the {len(shown)} most played are shown" if more else "",
        )
        cells: list[w.Widget] = [w.HTML(html("<b>{h}</b>", h=h)) for h in HEADINGS]
        for _, row in shown.iterrows():
            button = w.Button(
                description=str(row["move"]),
                tooltip=f"play {row['move']}",
                layout=w.Layout(width="auto", justify_content="flex-start"),
            )
            button.add_class("re-move")
            click = guarded(error_line(self.message))(
                lambda _, n=str(row["notation"]), here=state: self._clicked(n, here)
            )
            button.on_click(click)
            button.notation = str(row["notation"])  # what the click plays (tests read it)
            cells += [
                button,
                w.HTML(html("{n}", n=f"{int(row['n']):,}")),
                w.HTML(html("{s}", s=score_text(row))),
                w.HTML(html("{d}", d=row["last_played"] if isinstance(row["last_played"], str) else "–")),
                w.HTML(html("{e}", e=row["engine"] if isinstance(row["engine"], str) else "–")),
            ]
        self.grid.children = tuple(cells)
        note = table.attrs.get("engine_note") or ""
        self.note.value = html(
            '<p style="font-size:smaller">Games: how many games played the move here (a position '
            "reached by other move orders counts as the same). Score: the mover's points "
            "(a win 1, a draw ½) over the games with a result, with its 95% interval. {note}</p>",
            note=note[:1].upper() + note[1:] + "." if note else "",
        )

    @property
    def buttons(self) -> list[w.Button]:
        """The moves' buttons, in the table's order."""
        return [c for c in self.grid.children if isinstance(c, w.Button)]
