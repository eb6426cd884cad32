"""The explorer's board: clicks to moves (widgets/controller.py) over the moves the viewer may
make, the choices where several moves share the cells clicked, what a click will do in the
game's words (widgets/guidance.py: each lit target named on hover, under the keyboard cursor,
in the line under the board and for a screen reader; what comes next while a turn goes on; a
question before a move that gives up the turn), and the board's drawing with its highlights
(the last move, the selection, its targets and their values, the analysis' arrows), turned or
with a hex map's names as the reader asks (board_look.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rules_kernel.core import Move, State
from widgets import guidance
from widgets.board import Board
from widgets.controller import ClickController, ClickResult
from widgets.explorer.board_look import BoardLook
from widgets.explorer.common import AUTO, ROW, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.explorer.perfect_play import PerfectPlay
from widgets.presentation import Presentation, name_at
from widgets.safe import html

#: a choice button says the game's own label where it is a few plain words ("Promote")
PLAIN_LABEL = re.compile(r"[A-Z][a-z' ]{1,24}")
#: the line under the board: what the selection's lit places do, or what comes next
GUIDE = '<div class="re-guide" style="margin:4px 0">{text}</div>'


class Clicks(Part):
    """The click controller of the view shown (`controller`), the line under the board that
    says what the selection's lit places do and what comes next (`guide`), the choices' and a
    question's buttons (`choices`), the screen reader's line (`announcer`), and the board's
    look (`look`: "Turn the board", "Hex names"). `play` plays a move (the explorer's);
    `shown` is the presentation on the page; `values` marks the targets and draws the
    analysis' arrows; `refresh` draws the page again. `under_board` holds the guide and the
    choices: the page puts it right under the board, so a choice appears where the square was
    clicked, on a phone too."""

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
        #: what the selection's lit places do, or what comes next in the turn (seen by all)
        self.guide = page.looks.make(w.HTML)
        self.under_board = page.looks.make(
            w.VBox, children=[self.guide, self.choices], layout={"width": "100%"}
        )
        self.under_board.add_class("re-under-board")
        #: what a screen reader hears after a click or a move (visually hidden)
        self.announcer = page.looks.make(w.HTML)
        #: a move waiting for the player's yes (a pass with coins in hand), and its question
        self.asking: Move | None = None
        self._turn_line = ""  # what the player does now, when the game says it (turn_words)
        self._said = ""  # the announcer's last words
        #: "Turn the board" and "Hex names" (board_look.py)
        self.look = BoardLook(page.acts, refresh)
        self.turn_board, self.hex_names = self.look.turn_board, self.look.hex_names
        on = page.acts
        board.on_click(on(self.click))
        board.on_escape(on(self.clear_selection))

    # --- what the viewer knows ----------------------------------------------------------------
    def _seen(self) -> tuple[State | None, int | None]:
        """The position as the page's viewer knows it, and the viewer: what the words are asked of."""
        view = self.shown()
        if self.session is None or view is None:
            return None, None
        return guidance.seen_state(self.session.node.state, view.viewer), view.viewer

    # --- clicks ---------------------------------------------------------------------------------
    def click(self, cell: str) -> None:
        if self.controller is None or self.eyes.curtain_for is not None:
            return
        self.asking = None
        result = self.controller.click(cell)
        self.page.replace(self.choices, ())
        if result.kind == "move":
            self._play_or_ask(result.move)
            return
        self._offer(result)
        self.show_highlight()
        if result.kind == "clear":
            self._say(" ".join(part for part in (self._nothing_from(cell), self._turn_line) if part))
        else:
            self._announce_selection(result)

    def _nothing_from(self, cell: str) -> str:
        """What a click that starts no move says: the piece named, when one stands there."""
        view = self.shown()
        if view is None or not self.controller.moves:
            return "Selection cleared."
        scene = view.scene
        thing, token = guidance.thing_name(scene, cell), scene.token_at(cell)
        if not name_at(scene, cell):
            return "Selection cleared: nothing to play from here."
        if token is not None and token.owner is not None and token.owner != scene.to_move and scene.players:
            return f"Selection cleared: {thing} is not yours ({scene.players[token.owner]})."
        return f"Selection cleared: {thing} has no move now."

    def _play_or_ask(self, move: Move) -> None:
        """Play `move`, or ask once first where the game says it gives up the turn and could
        not be taken back at a table (a pass with coins in hand): Escape or Cancel says no."""
        state, viewer = self._seen()
        ask = guidance.question(state, move, viewer) if state is not None else ""
        if not ask:
            self.play(move)
            return
        self.asking = move
        label = self._label(state, move, viewer)
        yes = self.page.looks.make(
            w.Button, description=label, button_style="warning", tooltip=ask, layout=AUTO
        )
        no = self.page.looks.make(
            w.Button, description="Cancel", tooltip="Do not do it (Escape)", layout=AUTO
        )
        yes.on_click(self.page.acts(lambda _: self._answer(move)))
        yes.move, no.move = move, None  # the move each says yes or no to (scripts and tests)
        no.on_click(self.page.acts(lambda _: self.clear_selection()))
        self.page.replace(self.choices, (yes, no))
        self.show_highlight()
        self._say(f"{ask} Press “{label}” to do it, or Cancel (Escape) not to.")

    def _answer(self, move: Move) -> None:
        if self.asking == move:
            self.asking = None
            self.play(move)

    def _offer(self, result: ClickResult) -> None:
        if result.kind == "choose":
            state, viewer = self._seen()
            self.page.replace(
                self.choices, tuple(self._choice_button(state, m, viewer) for m in result.choices)
            )

    def _announce_selection(self, result: ClickResult) -> None:
        """What is selected, how many places it may go and what each does; or the choice."""
        view, controller = self.shown(), self.controller
        state, viewer = self._seen()
        if view is None or controller is None or state is None or not controller.selected:
            self._say("Selection cleared.")
            return
        scene = view.scene
        thing = guidance.thing_name(scene, controller.selected[0])
        if result.kind == "choose":
            words = [self._label(state, m, viewer) for m in result.choices]
            on_board = len(controller.selected) > 1 and any(
                c.id == controller.selected[0] for c in scene.cells
            )
            then = guidance.place_name(scene, controller.selected[-1]) if len(controller.selected) > 1 else ""
            where = f" to {then}" if on_board else f", then {then}" if then else ""
            then = f" Or click a lit place: {self._targets_line()}" if controller.next_cells() else ""
            options = " or ".join(f"“{word}”" for word in words)
            self._say(f"{thing}{where}: choose {options} (the buttons under the board).{then}")
            return
        targets = len(controller.next_cells())
        then = f"{targets} place{'s' if targets != 1 else ''} to go" if targets else "nowhere to go"
        self._say(f"{thing} selected: {then}. {self._targets_line()}")

    def _targets_line(self) -> str:
        named = self._target_names()
        return guidance.line_of_targets(named, self._targets()) + "." if named else ""

    def _say(self, text: str) -> None:
        """The line under the board and the screen reader's, at once."""
        self.guide.value = html(GUIDE, text=text) if text else ""
        self.announce(text)

    def announce(self, text: str) -> None:
        self._said = text
        self.announcer.value = html('<div class="re-sr-only" aria-live="polite">{text}</div>', text=text)

    def clear_selection(self) -> None:
        if self.controller is not None:
            self.asking = None
            self.controller.clear()
            self.page.replace(self.choices, ())
            self.show_highlight()
            self._say(" ".join(part for part in ("Selection cleared.", self._turn_line) if part))

    def _label(self, state: State | None, move: Move, viewer: int | None) -> str:
        """A choice's button: the game's label where it is a few plain words ("Promote", "Don't
        promote"), else what the move does, in the game's words."""
        label = move.choice_label
        if label != str(move) and PLAIN_LABEL.fullmatch(label):
            return label
        words = guidance.move_words(state, move, viewer) if state is not None else label
        return words[:1].upper() + words[1:]

    def _choice_button(self, state: State | None, move: Move, viewer: int | None) -> w.Button:
        words = guidance.move_words(state, move, viewer) if state is not None else move.choice_label
        button = self.page.looks.make(
            w.Button,
            description=self._label(state, move, viewer),
            button_style="success",
            tooltip=words,
            layout={"width": "auto", "max_width": "100%"},
        )
        button.on_click(self.page.acts(lambda _: self._play_or_ask(move)))
        button.move = move  # which move it offers (scripts and tests pick a choice by it)
        return button

    # --- showing -----------------------------------------------------------------------
    def start(self, view: Presentation) -> None:
        """Clicks over the moves of the view shown (none when it is not the viewer's turn); a
        step that continues (the game says what comes next: `turn_words`) is lit at once, the
        one piece that goes on selected, a move that ends the step offered as a button."""
        self.controller = _Controller(view.moves)
        self.asking = None
        self.page.replace(self.choices, ())
        # the last view's words go (behind a hand-over curtain they would tell the next player
        # which coin was passed with); `show` writes this view's
        self.guide.value = self._turn_line = ""
        state, viewer = self._seen()
        if state is None or not view.moves:
            return
        self.controller.sources = guidance.sources(state, view.moves)
        self._turn_line = guidance.turn_line(state, viewer)
        if self._turn_line:
            forced = self.controller.continue_forced()
            if forced is not None:
                self._offer(forced)

    def show(self, view: Presentation) -> None:
        """The view's scene on the board, its keyboard cursor on the first cell that moves, and
        the line under the board: what comes next (after the last move's words for a screen
        reader)."""
        first = self.controller.first_cells()
        targets = self._targets()
        self.board.show(
            view.scene,
            cursor=targets[0] if targets else first[0] if first else "",
            flip=self.look.flip(view.scene),
            words=self._target_names(),
            **self._highlight_cells(view),
        )
        line = self._turn_line
        if line and targets:
            line += " " + self._targets_line()
        self.guide.value = html(GUIDE, text=line) if line else ""
        if line:
            self.announce(" ".join(part for part in (self._said, line) if part))

    def _targets(self) -> tuple[str, ...]:
        """The places lit: the selection's next cells; with nothing selected, every cell a move
        starts from where each move is one click (the card drawn goes on a square, a card to
        turn over) or the game says the turn goes on."""
        controller = self.controller
        if controller is None:
            return ()
        if controller.selected:
            return controller.next_cells()
        moves = controller.moves
        if moves and (self._turn_line or all(len(m.cells) == 1 for m in moves)):
            return controller.first_cells()
        return ()

    def _target_names(self) -> dict[str, str]:
        """Each lit place named with what a click on it does ('e1: deploy a Cavalry')."""
        view, controller = self.shown(), self.controller
        state, viewer = self._seen()
        targets = self._targets()
        if view is None or controller is None or state is None or not targets:
            return {}
        candidates = controller.candidates() if controller.selected else controller.moves
        return guidance.target_names(view.scene, state, candidates, len(controller.prefix), viewer)

    def _highlight_cells(self, view: Presentation) -> dict:
        return {
            "last": view.scene.last_cells,
            "selected": self.controller.selected if self.controller else (),
            "targets": self._targets(),
            "names": self.look.cell_names(view.scene),
        }  # the arrows and values: the board reads them when it draws (PerfectPlay.live_highlight)

    def show_highlight(self) -> None:
        self.board.set_highlight(
            last=self.board.highlight.get("last", ()),
            selected=self.controller.selected,
            targets=self._targets(),
            names=self.board.highlight.get("names", {}),
        )
        self.board.set_target_words(self._target_names())


class _Controller(ClickController):
    """Clicks -> moves over the moves the viewer may make (none when it is not their turn)."""

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = list(moves)
        self.prefix = ()
        self.source = ""
        self.sources = {}
