"""The explorer's history: the move list, looking back through the game, the other lines from
the position shown, and Undo/Redo/Reset. In the view of the player to move, Undo and Redo take
back and walk only the player at the screen's own turn (widgets/explorer/curtain.py says whose
eyes those are)."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

from rules_kernel.session import Node
from widgets.explorer.common import AUTO, FITS, ROW, STEP, OnFirstUse, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.movelist import MoveList, where
from widgets.presentation import Presentation, line_of, line_of_node
from widgets.runtime import SHOWN
from widgets.safe import html


class History(Part):
    """The move list and the steps through the session's tree. `redraw` and `refresh` draw the
    page again (the explorer's); a live diagram (`compact`) shows its list once a move is made."""

    looking_back_text = OnFirstUse("build")
    back_to_game = OnFirstUse("build")

    def __init__(
        self,
        page: Page,
        eyes: HandOver,
        *,
        compact: bool = False,
        redraw: Callable[[], None],
        refresh: Callable[[], None],
    ) -> None:
        super().__init__(page)
        self.eyes, self.compact, self.redraw, self.refresh = eyes, compact, redraw, refresh
        make = page.looks.make
        self.moves_heading = w.HTML("<b>Moves</b>")
        self.move_list = MoveList(layout=w.Layout(width="96%", max_width="420px"))
        #: looking back: a past position is shown ("Back to the game" returns to the end of the line)
        self.looking_back = w.HBox(
            layout=w.Layout(display="none", flex_flow="row wrap", align_items="center")
        )
        self.looking_back.add_class("re-looking-back")  # its text and button: build
        self.lines_here = make(w.HBox, layout=ROW)
        self.undo_button = make(w.Button, description="Undo", layout=STEP)
        self.redo_button = make(w.Button, description="Redo", layout=STEP)
        self.reset_button = make(
            w.Button, description="Reset", layout=STEP, tooltip="Back to the starting position"
        )
        on = page.acts
        self.move_list.on_go(on(self.look_at))
        self.undo_button.on_click(on(lambda _: self.undo()))
        self.redo_button.on_click(on(lambda _: self.redo()))
        self.reset_button.on_click(on(lambda _: self.reset()))

    def build(self) -> None:
        """The note that a past position is shown, with "Back to the game": once, when a past
        position is first shown."""
        if self.looking_back.children:
            return
        make = self.page.looks.make
        self.looking_back_text = make(w.HTML)
        self.back_to_game = make(w.Button, description="Back to the game", layout=AUTO)
        self.back_to_game.on_click(self.page.acts(lambda _: self.back_to_the_game()))
        self.looking_back.children = (self.looking_back_text, self.back_to_game)

    def forget(self) -> None:
        """Nothing of the position looked at before on the page."""
        if self.looking_back.children:
            self.looking_back_text.value = ""

    # --- looking back through the game ------------------------------------------------------
    @property
    def at_the_end(self) -> bool:
        """Is the position shown the last of the current line (the game as it stands)?"""
        return self.session.ply == len(self.session.line()) - 1

    def look_at(self, ply: int) -> None:
        """Show the position after `ply` of the current line (0: the start); nothing is undone."""
        if self.eyes.curtain_for is not None:
            return  # the history is seen with the eyes at the table: none until the curtain lifts
        line_end = len(self.session.line()) - 1
        ply = max(0, min(line_end, ply))
        self.eyes.keep_looking()  # the history is seen with the eyes at the table
        self.eyes.curtain_for = None
        if ply == self.session.ply:
            return
        self.session.go_to(ply)
        if self.at_the_end:
            self.eyes.stop_looking()
            self.redraw()

    def back_to_the_game(self) -> None:
        """Back to the last position of the current line, where the game stands."""
        if self.at_the_end:
            self.eyes.stop_looking()
            self.refresh()
        else:
            self.look_at(len(self.session.line()) - 1)

    def history_key(self, key: str) -> None:
        """The board's history keys: PageUp/PageDown step, Home/End go to the start or the end."""
        steps = {"PageUp": self.session.ply - 1, "PageDown": self.session.ply + 1, "Home": 0}
        self.look_at(steps.get(key, len(self.session.line()) - 1))

    def into_line(self, at: Node, variation: int) -> None:
        if self.session.node is at:
            self.eyes.keep_looking()
            self.session.forward(variation)

    # --- undo, redo, reset -------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last move (and the chance and agent actions after it). In the view of
        the player to move (people handing the screen over), the player at the screen takes
        back their own whole turn (War Stories: both flips), with the agents' replies and the
        chance after it, and nothing of another person's turn: that would show a position in
        the other seat's view. Nothing behind the curtain."""
        if self.eyes.curtain_for is not None:
            return
        if not self.eyes.follows_turn:
            self.eyes.stop_looking()
            self.session.undo()
            return
        target = self.undo_target()
        if target is None:
            self.page.say(self.why_no_undo())
            return
        self.eyes.stop_looking()
        self.eyes.done_at = None
        self.session.go(target)

    def redo(self) -> None:
        """Walk the current line on again: what `undo` took back. In the view of the player to
        move, the player at the screen's own turn and the automatic actions after it."""
        if self.eyes.curtain_for is not None:
            return
        if not self.eyes.follows_turn:
            self.eyes.stop_looking()
            self.session.redo()
            return
        target = self.redo_target()
        if target is not None:
            self.eyes.stop_looking()
            self.session.go(target)

    def reset(self) -> None:
        """Back to the start (the initial state, or the position the explorer was given); the
        moves stay in the session's tree (Redo walks them again), automatic ones included.
        Nothing behind the curtain."""
        if self.eyes.curtain_for is not None:
            return
        self.page.say("")
        with self.session.batch():
            self.session.start()
            self.session.run_automatic()

    def undo_target(self) -> Node | None:
        """Where Undo goes in the view of the player to move: back over the automatic actions
        (an agent's reply, chance) to the viewer's last action, then to the start of the
        viewer's run of actions (their turn). None where the last turn is another person's."""
        viewer, session = self.eyes.viewer, self.session
        node = session.node
        while node.parent is not None:
            before = node.parent.state
            if before.current_player == viewer or not session.is_automatic(before):
                break
            node = node.parent
        if node.parent is None or node.parent.state.current_player != viewer:
            return None
        while node.parent is not None and node.parent.state.current_player == viewer:
            node = node.parent
        return node

    def redo_target(self) -> Node | None:
        """Where Redo goes in the view of the player to move: along the current line over the
        viewer's own turn and the automatic actions after it, up to the next person's turn
        (the viewer's own next turn included). None where the line goes on with another
        person's action."""
        viewer, session = self.eyes.viewer, self.session
        line, ply = session.line(), session.ply
        if ply >= len(line) - 1 or line[ply].state.current_player != viewer:
            return None
        end, left = ply, False
        while end + 1 < len(line):
            state = line[end].state
            if state.current_player == viewer and not left:
                end += 1
            elif session.is_automatic(state):
                left, end = True, end + 1
            else:
                break
        return line[end]

    def why_no_undo(self) -> str:
        """Why Undo takes nothing back in the view of the player to move."""
        if self.session.node.parent is None:
            return "Nothing to take back: the game is at its start."
        node = self.session.node
        while node.parent is not None and self.session.is_automatic(node.parent.state):
            node = node.parent
        if node.parent is None:
            return "Nothing of yours to take back yet."
        mover = node.parent.state.current_player
        names = self.game.player_names
        whose = f"{names[mover]}'s" if 0 <= mover < len(names) else "another player's"
        return f"Nothing of yours to take back: the last turn was {whose}, and it stays hidden from you."

    # --- showing -----------------------------------------------------------------------
    def show(self, view: Presentation, curtain: bool) -> None:
        """The move list (the whole current line, the shown position marked), the note that a
        past position is shown, the other lines played from it, and the steps."""
        session = self.session
        lines = () if curtain else line_of(session, view.viewer)
        self.move_list.show(lines, 0 if curtain else session.ply, self.game.player_names)
        hide = self.compact and not lines  # a live diagram shows its list once a move is made
        self.move_list.layout.display = self.moves_heading.layout.display = "none" if hide else SHOWN
        last = len(lines)
        looking = not curtain and session.ply < last
        self.looking_back.layout.display = "flex" if looking else "none"
        if looking:  # counted in turns, as the list numbers them (rules_kernel.core.turns)
            here = where(lines, session.ply, self.game.player_names)
            shown = here if here.startswith("the start") else f"the position {here}"
            self.looking_back_text.value = html(
                '<div style="line-height:1.4;margin:4px 8px 4px 0">Showing {shown}. A move '
                "played here starts a new line; the moves after it stay in the game's tree.</div>",
                shown=shown,
            )
        others = () if curtain else session.variations()
        buttons = []
        if len(others) > 1:
            before = session.node
            chosen = session.line()[session.ply + 1] if looking else None
            for i, node in enumerate(others):
                words = line_of_node(session, node, view.viewer)
                button = self.page.looks.make(
                    w.Button,
                    description=("▶ " if node is chosen else "") + words,
                    tooltip=f"Line {i + 1} from here" + (" (the main line)" if i == 0 else ""),
                    layout=FITS,
                )
                button.on_click(self.page.acts(lambda _, i=i, at=before: self.into_line(at, i)))
                buttons.append(button)
            buttons.insert(0, self.page.looks.make(w.HTML, value="Lines from here:"))
        self.page.replace(self.lines_here, tuple(buttons))
        self.show_steps(curtain)

    def show_steps(self, curtain: bool) -> None:
        """Undo and Redo, enabled where they take something back or walk it again; in the view
        of the player to move, only the player at the screen's own turn (the tooltip says why
        not)."""
        session, mine = self.session, self.eyes.follows_turn
        if curtain:
            undo = redo = False
        elif mine:
            undo, redo = self.undo_target() is not None, self.redo_target() is not None
        else:
            undo, redo = session.ply > 0, session.ply < len(session.line()) - 1
        self.undo_button.disabled, self.redo_button.disabled = not undo, not redo
        if mine and not undo and not curtain and session.ply > 0:
            self.undo_button.tooltip = self.why_no_undo()
        else:
            self.undo_button.tooltip = "Take back your turn" if mine else "Take back the last move"


__all__ = ["History"]
