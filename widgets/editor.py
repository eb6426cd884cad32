"""The board editor: set up a position by clicking, then play or analyse from it.

    editor = PositionEditor(state, on_play=explorer.set_position)

A palette of the game's pieces (each seat's in its colour; `parts.edit_pieces(state)`),
**Remove**, a click on a square to put the chosen piece there or empty it, a counter for each piece a
hand, bag, supply or discard pile may hold (`EditPiece.pile`), the side to move and the
game's other turn fields (`parts.edit_fields(state)`); the status line says what makes the
position odd (`state.status()`) or why an edit was refused (nothing is half-applied: the position stays
as it was); the position text stays in step, and a text typed there is loaded. **Play from
here** hands the position to `on_play` (**Analyse** to `on_analyse`, where given). The
game's knowledge is all in its "editor" part (`rules_kernel.parts.EditorPart`, asked through
`rules_kernel.parts`); nothing here names a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel.core import EditPiece, State
from rules_kernel.info import info
from widgets.board import Board
from widgets.draw import owner_colour
from widgets.runtime import SHOWN
from widgets.safe import guarded, html, message_html

REMOVE = "remove"
MAX_IN_HAND = 99  # more than any box holds of one piece: the kernel's check says the real bound


#: more counters than this are folded by owner (`PositionEditor._counted`)
FEW_COUNTERS = 12


def _row(children: list[w.Widget]) -> w.HBox:
    return w.HBox(children, layout=w.Layout(flex_flow="row wrap"))


def has_editor(state: State) -> bool:
    """Does the game bring a board editor (its info's parts)?"""
    return info(state.game).has("editor")


class PositionEditor(w.VBox):
    """Set up a position of `state`'s game; `on_play(state)` when the reader is done."""

    def __init__(
        self,
        state: State,
        on_play: Callable[[State], None],
        on_analyse: Callable[[State], None] | None = None,
    ) -> None:
        self.state = state
        self.on_play = on_play
        self.on_analyse = on_analyse
        self.pieces = game_parts.edit_pieces(state)
        self.chosen: str = REMOVE
        self._showing = False  # True while the controls are set from the position
        self.board = Board()
        self.status = w.HTML()
        self.buttons = {REMOVE: self._button("Remove", REMOVE, None)}
        self.buttons.update(
            {
                piece.key: self._button(piece.name, piece.key, piece.owner)
                for piece in self.pieces
                if piece.on_board
            }
        )
        counted = [piece for piece in self.pieces if piece.in_hand]
        grouped = len(counted) > FEW_COUNTERS
        self.counters = {(piece.owner, piece.key): self._counter(piece, grouped) for piece in counted}
        names = state.game.player_names
        self.to_move = w.Dropdown(
            options=[(name, seat) for seat, name in enumerate(names)],
            description="To move",
            layout=w.Layout(width="auto"),
        )
        self.fields = {
            name: w.Dropdown(
                options=list(values),
                description=name[:1].upper() + name[1:],
                style={"description_width": "initial"},
            )
            for name, (_, values) in game_parts.edit_fields(state).items()
        }
        self.text = w.Text(description="Position", layout=w.Layout(width="96%", max_width="420px"))
        self.load = w.Button(description="Load text", layout=w.Layout(width="auto"))
        self.play = w.Button(
            description="Play from here", button_style="primary", layout=w.Layout(width="auto")
        )
        self.analyse = w.Button(description="Analyse", layout=w.Layout(width="auto"))
        self.analyse.layout.display = SHOWN if on_analyse else "none"
        self._wire()
        palette = w.HBox(list(self.buttons.values()), layout=w.Layout(flex_flow="row wrap"))
        self.counted = self._counted(counted) if grouped else _row(list(self.counters.values()))
        super().__init__(
            [
                w.HTML("<b>Set up a position</b>: choose a piece, then click a square (Remove empties it)"),
                palette,
                self.board.widget,
                self.counted,
                w.HBox([self.to_move, *self.fields.values()], layout=w.Layout(flex_flow="row wrap")),
                self.status,
                w.HBox([self.text, self.load], layout=w.Layout(flex_flow="row wrap")),
                w.HBox([self.play, self.analyse], layout=w.Layout(flex_flow="row wrap")),
            ]
        )
        self.add_class("re-editor")
        self._show()

    # --- building ----------------------------------------------------------------------
    def _button(self, name: str, key: str, owner: int | None) -> w.Button:
        side = "" if owner is None else f" ({self.state.game.player_names[owner]})"
        button = w.Button(description=name, tooltip=f"Place {name}{side}", layout=w.Layout(width="auto"))
        if owner is not None:
            button.style.button_color = owner_colour(owner)
        button.add_class("re-palette")
        button.on_click(lambda _: self.choose(key))
        return button

    def _owner_name(self, owner: int | None) -> str:
        return "Off the board" if owner is None else self.state.game.player_names[owner]

    def _counter(self, piece: EditPiece, grouped: bool) -> w.BoundedIntText:
        """A count of one piece in one pile; labelled with its pile and owner unless it
        stands in their group (see `_counted`)."""
        owner = piece.owner
        pile = piece.pile if owner is None else f"{self.state.game.player_names[owner]}'s {piece.pile}"
        return w.BoundedIntText(
            value=0,
            min=0,
            max=MAX_IN_HAND,
            description=piece.name if grouped else f"{pile}: {piece.name}",
            tooltip=f"{pile}: {piece.name}",
            style={"description_width": "initial"},
            layout=w.Layout(width="auto", max_width="300px"),
        )

    def _counted(self, counted: list[EditPiece]) -> w.Accordion:
        """Many counters (War Chest: each unit in bag, hand, discards and supply) folded by
        owner, a line per pile inside, so the page stays short; every fold starts closed."""
        owners: dict[int | None, dict[str, list[w.Widget]]] = {}
        for piece in counted:
            piles = owners.setdefault(piece.owner, {})
            piles.setdefault(piece.pile, []).append(self.counters[(piece.owner, piece.key)])
        sections = [
            w.VBox(
                [w.VBox([w.HTML(html("<b>{p}</b>", p=pile)), _row(boxes)]) for pile, boxes in piles.items()]
            )
            for piles in owners.values()
        ]
        titles = tuple(f"{self._owner_name(owner)}: counted pieces" for owner in owners)
        folds = w.Accordion(
            children=sections, titles=titles, layout=w.Layout(width="100%", max_width="640px")
        )
        folds.selected_index = None
        return folds

    def _wire(self) -> None:
        safe = guarded(self._say_error)
        self.board.on_click(safe(self.click))
        for (owner, key), counter in self.counters.items():
            counter.observe(safe(lambda ch, o=owner, k=key: self.set_in_hand(o, k, ch["new"])), names="value")
        self.to_move.observe(safe(lambda ch: self.set_to_move(ch["new"])), names="value")
        for name, dropdown in self.fields.items():
            dropdown.observe(safe(lambda ch, n=name: self.set_field(n, ch["new"])), names="value")
        self.load.on_click(safe(lambda _: self.load_text(self.text.value)))
        self.play.on_click(safe(lambda _: self.on_play(self.state)))
        if self.on_analyse is not None:
            self.analyse.on_click(safe(lambda _: self.on_analyse(self.state)))

    # --- editing -----------------------------------------------------------------------
    def choose(self, key: str) -> None:
        """The palette's piece the next click places (REMOVE: the click empties the square)."""
        self.chosen = key
        for name, button in self.buttons.items():
            button.button_style = "info" if name == key and key == REMOVE else ""
            button.icon = "check" if name == key else ""

    def click(self, cell: str) -> None:
        """Put the chosen piece on `cell`, or empty it; a click off the board does nothing."""
        if cell not in {c.id for c in self.board.scene.cells}:
            return
        self._apply(place={cell: None if self.chosen == REMOVE else self.chosen})

    def set_in_hand(self, owner: int, key: str, count: int) -> None:
        if not self._showing:
            self._apply(hands={(owner, key): count})

    def set_to_move(self, seat: int) -> None:
        if not self._showing and seat != game_parts.edit_to_move(self.state):
            self._apply(to_move=seat)

    def set_field(self, name: str, value: str) -> None:
        if not self._showing and value != game_parts.edit_fields(self.state)[name][0]:
            self._apply(fields={name: value})

    def load_text(self, text: str) -> None:
        try:
            state = self.state.game.from_text(text.strip())
        except rk.RulesError as exc:
            self._say_error(refusal_words(exc, self.state.game))
            return
        self.state = state
        self._show()

    def _apply(self, **change) -> None:
        """One edit; a refusal leaves the position as it was and says why."""
        try:
            self.state = game_parts.edit(self.state, **change)
        except rk.RulesError as exc:
            self._show()  # the controls go back to the position as it is
            self._say_error(refusal_words(exc, self.state.game))
            return
        self._show()

    # --- showing -----------------------------------------------------------------------
    def _show(self) -> None:
        """Every control from the position (their observers wait: this is not an edit)."""
        state = self.state
        self._showing = True
        try:
            self.board.show(game_parts.scene(state, None), flip=False)
            counts = game_parts.edit_hands(state)
            for place, counter in self.counters.items():
                counter.value = counts.get(place, 0)
            seat = game_parts.edit_to_move(state)
            self.to_move.value = seat  # None (a deal): no side is chosen
            for name, (value, values) in game_parts.edit_fields(state).items():
                self.fields[name].options, self.fields[name].value = list(values), value
            self.text.value = state.to_text()
        finally:
            self._showing = False
        remarks = state.status()
        self.status.value = html(
            '<div style="color:#5a4a00;line-height:1.4;max-width:32em">{text}</div>',
            text="Study position: " + "; ".join(remarks) if remarks else "A position as real play reaches.",
        )

    def _say_error(self, text: str) -> None:
        self.status.value = message_html(text, error=True)


def refusal_words(exc: rk.RulesError, game: rk.Game) -> str:
    """Why an edit or a typed text was refused, as a sentence about the position: what is
    wrong with it ("3 Kodama (promoted ones included); ... has 2"), never the position text nor
    the game's id that the kernel's message starts with (`yokai-3x4 position '...': ...`);
    a seat by its name ("player 0" is the text format's way of naming it)."""
    if isinstance(exc, rk.PositionTextError) and exc.why:
        # the field's name is the text format's ("placed", "pending"): the reason says enough
        text = f"This position cannot be set up: {exc.why}"
    else:  # the kernel's message without its opening "<game id> position '<text>': "
        text = "This position cannot be set up: " + _PREFIX.sub("", str(exc), count=1)
    return _SEAT.sub(lambda m: _seat_name(game, int(m.group(1))), text)


#: the kernel's opening of a position refusal: the game's id, and the text it quotes
_PREFIX = re.compile(r"^[a-z0-9-]+ (?:position|edit)(?: '.*?'(?:\.\.\.)?)?: ")
#: a seat as the text format names it
_SEAT = re.compile(r"\bplayer (\d)\b")


def _seat_name(game: rk.Game, seat: int) -> str:
    names = game.player_names
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
