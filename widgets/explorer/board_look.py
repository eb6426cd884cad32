"""How the explorer's board is drawn, at the reader's choice: "Turn the board" (a square
board seen from the other side) and "Hex names" (a hex map's names written over its coins).
Each toggle shows only where it means something: a hex map has no sides, a square board no
hex names."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

from widgets.runtime import SHOWN


class BoardLook:
    """The two toggles; `flip` and `cell_names` answer for a scene as the board draws it.
    `refresh` draws the page again when a toggle changes (guarded by the page's `acts`)."""

    def __init__(self, acts: Callable, refresh: Callable[[], None]) -> None:
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
        self.turn_board.observe(acts(lambda _: refresh()), names="value")
        self.hex_names.observe(acts(lambda _: refresh()), names="value")

    def flip(self, scene) -> bool | None:
        """The board from its own side for a seat's view (the layout's default), turned round
        when the reader asks; only square boards turn (a hex map has no sides)."""
        if scene.layout != "square":
            self.turn_board.layout.display = "none"
            return None
        self.turn_board.layout.display = SHOWN
        own_side = scene.perspective == 1
        return (not own_side) if self.turn_board.value else own_side

    def cell_names(self, scene) -> dict[str, str]:
        """A hex map's names written over the coins, while 'Hex names' is on."""
        if scene.layout != "hex":
            self.hex_names.layout.display = "none"
            return {}
        self.hex_names.layout.display = SHOWN
        if not self.hex_names.value:
            return {}
        # an empty hex shows its name already (at its foot): only those under a coin need it
        return {c.id: c.label for c in scene.cells if c.label and scene.token_at(c.id) is not None}
