"""Whose eyes the explorer shows, and the hand-over between people at one screen.

In the view of the player to move (a game with secrets, people handing the screen over), the
page is seen with the eyes of the person at the screen; between their turns a curtain hides
the board until the next player says they sit there, and the player whose turn turned
something up looks at it first ("Done — hand over"). Behind the curtain only its button acts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import ipywidgets as w

from widgets.board import Board
from widgets.explorer.common import ALL_SEEING, AUTO, FOLLOW_TURN, OnFirstUse, Page, Part
from widgets.focus import FocusMover
from widgets.runtime import SHOWN
from widgets.safe import html

#: the class that hides a part of the page while the hand-over curtain is down (a class, not the
#: part's layout: a layout may be shared with other controls, widgets/looks.py)
BEHIND_CURTAIN = "re-behind-curtain"


class HandOver(Part):
    """The viewer (`viewer`), the curtain (`curtain_for`: the seat it waits for) and the look
    before it (`handing_over`). `redraw` and `refresh` draw the page again (the explorer's)."""

    curtain_text = OnFirstUse("build")
    curtain_button = OnFirstUse("build")
    done_text = OnFirstUse("build")
    done_button = OnFirstUse("build")

    def __init__(
        self,
        page: Page,
        board: Board,
        perspective: w.Dropdown,
        agent_seats: Callable[[], list[int]],
        *,
        redraw: Callable[[], None],
        refresh: Callable[[], None],
    ) -> None:
        super().__init__(page)
        self.board, self.perspective, self.agent_seats = board, perspective, agent_seats
        self.redraw, self.refresh = redraw, refresh
        self.curtain_for: int | None = None
        self.shown_viewer: int | None = None  # the viewer of the last view drawn
        #: while looking back in the "player to move" view: the seat whose eyes the history is seen with
        self.looking_viewer: int | None = None
        #: the seat looking at what its turn turned up before it hands over ("Done — hand over")
        self.handing_over: int | None = None
        self.done_at = None  # the node whose result was looked at: no second "Done" for it
        #: the controls the curtain disabled (they are enabled again when it lifts)
        self.frozen: list[w.Widget] = []
        #: what the curtain hides besides the board (the explorer's layout fills it)
        self.covered: list[w.Widget] = []
        # its button as wide as its words, under the text (not stretched across the board's width)
        self.curtain = w.VBox(layout=w.Layout(display="none", align_items="center"))
        self.curtain.add_class("re-curtain")  # its text and button: build
        # the curtain takes the focus when it comes down, the board after (it draws nothing)
        self.focus = FocusMover(layout=page.looks.shared(w.Layout, {}))
        # before the curtain: the player whose turn just ended looks at what it turned up
        self.done_box = w.VBox(layout=w.Layout(display="none"))
        self.done_box.add_class("re-hand-over")
        page.curtain_down = lambda: self.curtain_for is not None

    def build(self) -> None:
        """The curtain's and the hand-over's text and button: once, when a game with secrets
        first hands the screen over in the view of the player to move."""
        if self.curtain.children:
            return
        make = self.page.looks.make
        self.curtain_text = make(w.HTML)
        self.curtain_button = make(w.Button, button_style="primary", layout=AUTO)
        self.curtain_button.add_class("re-curtain-button")
        # the one control that acts while the curtain is down
        self.curtain_button.on_click(self.page.guarded(lambda _: self.lift()))
        self.curtain.children = (self.curtain_text, self.curtain_button)
        self.done_text = make(w.HTML)
        self.done_button = make(w.Button, description="Done — hand over", button_style="primary")
        self.done_button.add_class("re-done-button")
        self.done_button.on_click(self.page.acts(lambda _: self.done_looking()))
        self.done_box.children = (self.done_text, self.done_button)

    def start(self) -> None:
        """A new session: no curtain, nobody seen yet."""
        self.curtain_for = self.shown_viewer = self.looking_viewer = self.handing_over = None
        self.done_at = None

    def forget(self) -> None:
        """Nothing of the last game's hand-over on the page."""
        if self.curtain.children:
            self.curtain_text.value = self.done_text.value = self.curtain_button.description = ""

    # --- whose eyes ----------------------------------------------------------------------
    @property
    def follows_turn(self) -> bool:
        """Is the page in the view of the player to move (people handing the screen over)?"""
        return self.perspective.value == FOLLOW_TURN

    @property
    def viewer(self) -> int | None:
        """The seat whose view the page shows; None for all-seeing."""
        mode = self.perspective.value
        if mode in (None, ALL_SEEING):
            return None
        if mode == FOLLOW_TURN:
            if self.looking_viewer is not None:
                return self.looking_viewer
            return self.turn_viewer() if self.handing_over is None else self.handing_over
        return mode

    def turn_viewer(self) -> int:
        humans = [p for p in range(self.game.num_players) if p not in self.agent_seats()] or [0]
        node = self.session.node
        while node is not None:  # at chance or the agent's turn: the last person to act
            if node.state.current_player in humans:
                return node.state.current_player
            node = node.parent
        return humans[0]

    def keep_looking(self) -> None:
        """Looking back in the view of the player to move: the history is seen with the eyes
        at the table."""
        if self.follows_turn and self.looking_viewer is None:
            self.looking_viewer = self.viewer

    def stop_looking(self) -> None:
        self.looking_viewer = None

    def maybe_curtain(self) -> None:
        """Two people at one screen: between their turns, hide the board until the next
        player says they are sitting there."""
        if not self.follows_turn or self.session.state.is_terminal():
            self.curtain_for = None
            return
        if self.looking_viewer is not None:
            return  # looking back through the game: the same eyes, no hand-over
        self.handing_over = None
        viewer = self.turn_viewer()
        shown = self.shown_viewer
        if shown is None or viewer == shown:
            return
        if self.session.state.hand_over_from == shown and self.done_at is not self.session.node:
            self.handing_over = shown  # they look at what they turned up, then say "done"
            return
        self.curtain_for = viewer

    def done_looking(self) -> None:
        """The player whose turn ended has seen its result: now the curtain, then the next player."""
        self.done_at = self.session.node
        self.redraw()

    def lift(self) -> None:
        self.curtain_for = None
        self.refresh()
        self.focus.move_to("re-board")

    def view_changed(self) -> None:
        if self.page.quiet or self.session is None:
            return
        self.curtain_for = None
        self.shown_viewer = None
        self.refresh()

    # --- showing -----------------------------------------------------------------------
    def show(self, curtain: bool) -> None:
        """The look before the hand-over, and the curtain in place of the board (or not)."""
        self._show_done()
        if curtain and self.curtain.layout.display == "none":
            # the board it had is about to be hidden; the button may be made just below (the
            # mover waits for it)
            self.focus.move_to("re-curtain-button")
        if curtain:
            # emptied before the curtain shows: the page never holds both the curtain and the
            # last view's hit layer (its names), not even for the messages in between
            self.clear_board()
        if curtain:  # its words first: the curtain never shows a button without a name
            name = self.game.player_names[self.curtain_for]
            self.curtain_text.value = html(
                "<p><b>{name} to play.</b> Pass the screen to {name}; the board stays hidden "
                "until {name} is ready.</p>",
                name=name,
            )
            self.curtain_button.description = f"Show {name}'s view"
        self.board.widget.layout.display = "none" if curtain else SHOWN
        self.curtain.layout.display = "flex" if curtain else "none"

    def _show_done(self) -> None:
        looking = self.handing_over is not None
        was = self.done_box.layout.display
        self.done_box.layout.display = "flex" if looking else "none"
        if looking:
            name = self.game.player_names[self.handing_over]
            self.done_text.value = html(
                "<p><b>{name}: your turn is over.</b> Look at what you turned up; then hand over.</p>",
                name=name,
            )
            if was == "none":
                self.focus.move_to("re-done-button")

    def cover(self, page_root: w.Widget, forget: Callable[[], None]) -> None:
        """The hand-over curtain is down: every control under `page_root` but its button is
        hidden and disabled, and nothing of the view shown before stays on the page (the
        board's drawing; `forget` empties the rest: the screen-reader lines, the notes, the
        picture and link made in it, an open editor)."""
        for part in self.covered:
            part.add_class(BEHIND_CURTAIN)
        self.clear_board()
        forget()
        keep = self.curtain_button
        for widget in walk(page_root):
            if widget is not keep and getattr(widget, "disabled", True) is False:
                widget.disabled = True
                self.frozen.append(widget)

    def uncover(self) -> None:
        """The curtain lifted: the page's parts come back and the controls it disabled are
        enabled again (the redraw then disables what has nothing to do)."""
        for part in self.covered:
            part.remove_class(BEHIND_CURTAIN)
        frozen, self.frozen = self.frozen, []
        for widget in frozen:
            widget.disabled = False

    def freeze(self, widget: w.Widget) -> None:
        """Disable `widget` behind the curtain (usable once it lifts), once."""
        if not any(frozen is widget for frozen in self.frozen):
            widget.disabled = True
            self.frozen.append(widget)

    def clear_board(self) -> None:
        """Nothing of the last view on the board: its drawing, hit layer (names and tooltips)
        and label go, so that neither the page nor its accessibility tree holds them."""
        board = self.board
        board.scene = board.layout = None
        board.highlight, board.cursor = {}, ""
        with board.widget.hold_sync():
            board.widget.scene_svg = board.widget.hit_svg = board.widget.highlight_svg = ""
            board.widget.cursor_start = ""
            board.widget.label = "Game board (hidden for the hand-over)"


def walk(root: w.Widget) -> Iterator[w.Widget]:
    """Every widget under `root`, `root` first."""
    seen: set[int] = set()
    todo: list[w.Widget] = [root]
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        todo.extend(reversed(getattr(widget, "children", ()) or ()))
