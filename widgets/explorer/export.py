"""The explorer's records and pictures: the game so far as a record (a download link rebuilt on
every change) and the position shown or the game as a picture, both in the page's view: in a
player's view of a game with hidden cards the record is offered only after the end."""

from __future__ import annotations

from base64 import b64encode
from collections.abc import Callable

import ipywidgets as w

from rules_kernel import records
from rules_kernel.core import State
from rules_kernel.session import SessionError
from widgets.explorer.common import AUTO, OnFirstUse, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.export_menu import PictureExport
from widgets.presentation import Presentation
from widgets.safe import html


class ExportPart(Part):
    """ "Export record" and its link (`export_button`, `export_area`) and the picture's menu
    (`pictures`), made with the folded tools (`build`). `shown` is the presentation the page
    shows (the explorer's last, or a new one)."""

    export_button = OnFirstUse("folded")
    export_area = OnFirstUse("folded")
    pictures = OnFirstUse("folded")

    def __init__(self, page: Page, eyes: HandOver, shown: Callable[[], Presentation]) -> None:
        super().__init__(page)
        self.eyes, self.shown = eyes, shown
        self.built = False
        #: makes the folded tools, this part's among them (the explorer's: all of them at once)
        self.folded: Callable[[], None] = self.build

    def build(self) -> None:
        """The widgets, once (with the folded tools)."""
        if self.built:
            return
        self.built = True
        make = self.page.looks.make
        self.export_button = make(
            w.Button,
            description="Export record",
            layout=AUTO,
            tooltip="Rebuilt on every change; this re-renders the link",
        )
        self.export_area = make(w.HTML)
        #: the position shown or the game so far as a picture, in the page's view
        self.pictures = PictureExport(self.picture_source)
        self.export_button.on_click(self.page.acts(lambda _: self.export()))

    def forget(self) -> None:
        """No picture made in a view gone."""
        if self.built:
            self.pictures.link.value = ""

    def record(self) -> records.Record:
        """The game so far as a record (rules_kernel.records); from a loaded position the record
        carries that position as its start."""
        return self.session.to_record(
            self.session.node, players=self.game.player_names, meta={"source": "explorer"}
        )

    def export(self, view: Presentation | None = None) -> str:
        """The game as a record line; the page's download link is rebuilt from it. In a
        player's view the record (it names every card) is offered only after the end."""
        view = view or self.shown()
        try:
            line = self.record().to_json() if view.secrets_visible else ""
        except SessionError:
            line, why = "", "this start has no position text to record it from"
        else:
            why = "the record names every hidden card: it is offered after the game or in the all-seeing view"
        if not line:
            self.export_area.value = html('<span style="color:#555">Export: {why}</span>', why=why)
            return ""
        data = b64encode((line + "\n").encode()).decode()
        self.export_area.value = html(
            # the words say what it is; the file's name (the game's id) is only the download's
            '<a download="{name}.jsonl" href="data:application/x-ndjson;base64,'
            '{data}">Download the game as a record ({n})</a>',
            name=self.game.id,
            data=data,
            n=_actions(len(self.session.node.path()) - 1),
        )
        return line

    def picture_source(self) -> tuple[list[State], int | None, str] | str:
        """The line up to the position shown and the page's viewer, for a picture."""
        if self.eyes.curtain_for is not None:
            return "Nothing to draw while the board is hidden for the hand-over."
        states = [node.state for node in self.session.node.path()]
        return states, self.eyes.viewer, f"{self.game.id}-ply-{self.session.ply}"


def _actions(n: int) -> str:
    return "1 action" if n == 1 else f"{n:,} actions"
