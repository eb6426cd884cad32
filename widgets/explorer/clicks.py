"""The explorer's board: clicks to moves (widgets/controller.py) over the moves the viewer may
make, the choices where several moves share the cells clicked, what a screen reader hears of a
selection, and the board's drawing with its highlights (the last move, the selection, its
targets and their values, a hex map's names, the analysis' arrows), turned or not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rules_kernel.core import Move
from widgets.board import Board
from widgets.controller import ClickController
from widgets.explorer.common import AUTO, ROW, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.explorer.perfect_play import PerfectPlay
from widgets.presentation import Presentation, name_at
from widgets.runtime import SHOWN
from widgets.safe import html


class Clicks(Part):
    """The click controller of the view shown (`controller`), the choices' buttons
    (`choices`), the screen reader's line (`announcer`), "Turn the board" and "Hex names".
    `play` plays a move (the explorer's); `shown` is the presentation on the page; `values`
    marks the targets and draws the analysis' arrows; `refresh` draws the page again."""

    def __init__(
        self,
        page: Page,
        eyes: HandOver,
        board: Board,
        values: PerfectPlay,
        *,
        play: Callable[[Move], Any],
        shown: Callable[[], Presentation | None],
        refresh: Callable[[], None],
    ) -> None:
        super().__init__(page)
        self.eyes, self.board, self.values, self.play, self.shown = eyes, board, values, play, shown
        self.controller: ClickController | None = None
        self.choices = page.looks.make(w.HBox, layout=ROW)
        #: what a screen reader hears after a click or a move (visually hidden)
        self.announcer = page.looks.make(w.HTML)
        self.turn_board = w.ToggleButton(
            value=False,
            description="Turn the board",
            tooltip="See the board from the other side (a seat's view starts from its own side)",
            layout=w.Layout(width="auto"),
        )
        self.hex_names = w.ToggleButton(
            value=False,
            description="Hex names",
            tooltip="Write every hex's name on the map, over the coins (the move list names hexes so)",
            layout=w.Layout(width="auto"),
        )
        on = page.acts
        board.on_click(on(self.click))
        board.on_escape(on(self.clear_selection))
        self.turn_board.observe(on(lambda _: refresh()), names="value")
        self.hex_names.observe(on(lambda _: refresh()), names="value")

    def click(self, cell: str) -> None:
        if self.controller is None or self.eyes.curtain_for is not None:
            return
        result = self.controller.click(cell)
        self.page.replace(self.choices, ())
        if result.kind == "move":
            self.play(result.move)
            return
        if result.kind == "choose":
            self.page.replace(self.choices, tuple(self._choice_button(m) for m in result.choices))
        self.show_highlight()
        self._announce_selection()

    def _announce_selection(self) -> None:
        """For a screen reader: what is selected and how many places it may go."""
        prefix = self.controller.prefix if self.controller else ()
        view = self.shown()
        if not prefix or view is None:
            self.announce("Selection cleared." if self.controller else "")
            return
        scene = view.scene
        where = prefix[-1]
        name = name_at(scene, where) or "a face-down item"
        targets = len(self.controller.next_cells())
        choices = len(self.choices.children)
        then = f"{targets} place{'s' if targets != 1 else ''} to go" if targets else f"{choices} choices"
        self.announce(f"{name} on {cell_name(scene, where)} selected: {then}.")

    def announce(self, text: str) -> None:
        self.announcer.value = html('<div class="re-sr-only" aria-live="polite">{text}</div>', text=text)

    def clear_selection(self) -> None:
        if self.controller is not None:
            self.announce("Selection cleared.")
            self.controller.prefix = ()
            self.page.replace(self.choices, ())
            self.show_highlight()

    def _choice_button(self, move: Move) -> w.Button:
        button = self.page.looks.make(
            w.Button, description=move.choice_label, button_style="success", tooltip=str(move), layout=AUTO
        )
        button.on_click(self.page.acts(lambda _: self.play(move)))
        return button

    # --- showing -----------------------------------------------------------------------
    def start(self, view: Presentation) -> None:
        """Clicks over the moves of the view shown (none when it is not the viewer's turn)."""
        self.controller = _Controller(view.moves)

    def show(self, view: Presentation) -> None:
        """The view's scene on the board, its keyboard cursor on the first cell that moves."""
        first = self.controller.first_cells()
        self.board.show(
            view.scene,
            cursor=first[0] if first else "",
            flip=self._flip(view.scene),
            **self._highlight_cells(view),
        )

    def _flip(self, scene) -> bool | None:
        """The board from its own side for a seat's view (the layout's default), turned round
        when the reader asks; only square boards turn (a hex map has no sides)."""
        if scene.layout != "square":
            self.turn_board.layout.display = "none"
            return None
        self.turn_board.layout.display = SHOWN
        own_side = scene.perspective == 1
        return (not own_side) if self.turn_board.value else own_side

    def _highlight_cells(self, view: Presentation) -> dict:
        prefix = self.controller.prefix if self.controller else ()
        targets = self.controller.next_cells() if prefix else ()
        return {
            "last": view.scene.last_cells,
            "selected": prefix,
            "targets": targets,
            "names": self._cell_names(view.scene),
        }  # the arrows and values: the board reads them when it draws (PerfectPlay.live_highlight)

    def _cell_names(self, scene) -> dict[str, str]:
        """A hex map's names written over the coins, while 'Hex names' is on."""
        if scene.layout != "hex":
            self.hex_names.layout.display = "none"
            return {}
        self.hex_names.layout.display = SHOWN
        if not self.hex_names.value:
            return {}
        # an empty hex shows its name already (at its foot): only those under a coin need it
        return {c.id: c.label for c in scene.cells if c.label and scene.token_at(c.id) is not None}

    def show_highlight(self) -> None:
        prefix = self.controller.prefix
        self.board.set_highlight(
            last=self.board.highlight.get("last", ()),
            selected=prefix,
            targets=self.controller.next_cells() if prefix else (),
            names=self.board.highlight.get("names", {}),
        )


def cell_name(scene, cell: str) -> str:
    """A cell as the board names it (a War Chest hex's label), a zone item as 'the hand'."""
    for board_cell in scene.cells:
        if board_cell.id == cell:
            return board_cell.label or cell
    return "the side of the board"


class _Controller(ClickController):
    """Clicks -> moves over the moves the viewer may make (none when it is not their turn)."""

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = list(moves)
        self.prefix = ()
