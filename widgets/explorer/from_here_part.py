"""The explorer's "Games from here" (issue 47 item 3): the moves played from the position on
the board in a collection of real games (`widgets/games_from_here.py` over
`rk.Collection.from_position`), with each move's games, score and interval, and the engine's
value; a click on a move plays it here.

Folded, and made on first opening: the page starts with only its toggle (the explorer's
widget budget, tests/test_looks.py), and no collection is read until a reader asks. It
follows the position shown, in the view shown (a game with hidden information matches what
that view sees), and shows nothing behind the hand-over curtain (the side column it stands
in is covered)."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

from rules_kernel.core import State
from widgets.explorer.common import AUTO, Page, Part
from widgets.runtime import SHOWN, collections_readable, fold_title

TITLE = "Games from here"


class FromHerePart(Part):
    """`toggle` opens the panel (`panel`, made on first opening and put in `column` right
    under the toggle); `play(notation)` is what a click on a move does (the explorer's)."""

    def __init__(self, page: Page, *, play: Callable[[str], object]) -> None:
        super().__init__(page)
        self.play = play
        self.column: w.Box | None = None  # set by the page's building (the side column)
        self.panel = None  # a widgets.games_from_here.GamesFromHere, made on first opening
        self._shown: tuple[State | None, int | str | None] = (None, "mover")
        self.toggle = page.looks.make(
            w.ToggleButton,
            value=False,
            description=fold_title(TITLE, False),
            tooltip="the moves played from this position in a collection of real games",
            layout=AUTO,
        )
        self.toggle.observe(page.acts(lambda _: self.opened()), names="value")
        if not collections_readable():  # the static site's browser Python
            self.toggle.layout = w.Layout(display="none")

    def opened(self) -> None:
        opened = self.toggle.value
        self.toggle.description = fold_title(TITLE, opened)
        if opened and self.panel is None:
            self.build()
        if self.panel is not None:
            self.panel.layout.display = SHOWN if opened else "none"
            if opened:
                self.panel.show(*self._shown)

    def build(self) -> None:
        """The panel, opened (its own toggle hidden: this part's stands for it), under ours.
        Imported here: the collection reads with pandas and DuckDB, which the static site's
        browser Python has not (the explorer itself must start there)."""
        from widgets.games_from_here import GamesFromHere

        self.panel = GamesFromHere(on_move=self.play, opened=True)
        self.panel.toggle.layout.display = "none"
        if self.column is not None:
            children = list(self.column.children)
            children.insert(children.index(self.toggle) + 1, self.panel)
            self.column.children = tuple(children)

    def show(self, state: State | None, viewer: int | None) -> None:
        """The position on the board as `viewer` sees it (a seat, or None: all-seeing, which
        matches the whole position); `state` None behind the curtain. The collection is asked
        only while the panel is open."""
        self._shown = (state, viewer)
        if self.panel is not None and self.toggle.value:
            self.panel.show(*self._shown)
