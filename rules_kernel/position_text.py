"""What every game's position text shares: the scaffold of `Game.from_text`.

A position is one line of text in fields separated by spaces (docs/kernel.md, "Position
text"). A game's parsers and checks raise `FieldError(field, why)`, which knows nothing of the
text; `read_position` runs them and turns that error into the `PositionTextError` that quotes
the text, so no other exception escapes and every game words the shared errors the same way:

    def from_text(self, text):
        return read_position(self.id, text, lambda fields: _checked(_parse(self, fields)))

Numbers are read by one rule in every game: ASCII digits only, at most 9 of them
('²'.isdigit() is true, int() reads '١' and '1_0', and refuses more than 4,300 digits).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from rules_kernel.core import CHANCE, Game, PositionTextError, State

S = TypeVar("S", bound=State)

#: a count in a position text: ASCII digits only, and few (far below int()'s limit)
NUMBER = re.compile(r"[0-9]{1,9}")
#: how much of a bad text an error quotes
QUOTED = 60


class FieldError(Exception):
    """A field of a position text that does not fit the game, and why ("units: two units on
    hex 3,3"); `read_position` adds the text it came from."""

    def __init__(self, field: str, why: str) -> None:
        super().__init__(f"{field}: {why}")
        self.field = field
        self.why = why


def read_position(game_id: str, text: object, parse: Callable[[list[str]], S]) -> S:
    """`parse(fields)` of a position text split at spaces; its FieldError, and anything that
    is not a text, become PositionTextError naming the game, the text and the field."""
    if not isinstance(text, str):  # not even its repr is safe: an int of 5,000 digits
        raise PositionTextError(
            f"{game_id} position: position text: must be a string "
            f"(a text is expected, not {type(text).__name__})"
        )
    try:
        return parse(text.split())
    except FieldError as error:
        raise PositionTextError(
            f"{game_id} position {quote(text)}: {error}", field=error.field, why=error.why
        ) from None


def read_edit(game: Game, build: Callable[[], S], write: Callable[[S], str]) -> State:
    """A board editor's result (`State.edit`): `build()` makes the edited position, `write`
    its text, and `game.from_text` reads that back, so an edit is checked exactly as a typed
    position is; a FieldError from `build` becomes the PositionTextError naming the field,
    worded as `read_position` words it."""
    try:
        sketch = build()
    except FieldError as error:
        raise PositionTextError(f"{game.id} edit: {error}", field=error.field, why=error.why) from None
    return game.from_text(write(sketch))


def quote(text: str) -> str:
    """`text` for an error message, cut short: never echo a huge input in full."""
    return repr(text[:QUOTED]) + ("..." if len(text) > QUOTED else "")


def named_fields(fields: list[str], names: Sequence[str]) -> dict[str, str]:
    """The fields by name, when there are as many as names."""
    if len(fields) != len(names):
        raise FieldError("text", f"expected {len(names)} fields ({' '.join(names)}), got {len(fields)}")
    return dict(zip(names, fields, strict=True))


def split_field(text: str, separator: str, parts: int, field: str, what: str = "parts") -> list[str]:
    """A field's `parts` parts (`what` names them in the error: "lists (one per player)")."""
    items = text.split(separator)
    if len(items) != parts:
        raise FieldError(field, f"{parts} {what} separated by {separator!r} expected, got {len(items)}")
    return items


def whole_number(text: str, field: str) -> int:
    """A whole number in ASCII digits, at most 9 of them."""
    if not NUMBER.fullmatch(text):
        raise FieldError(field, f"{text[:20]!r} is not a whole number of at most 9 digits")
    return int(text)


def check_playable(
    state: State, stuck_field: str, can_happen: Callable[[], bool], impossible_chance: FieldError
) -> None:
    """Backstop: a game that is not over has a legal action, or a chance event that can
    happen (`can_happen()`; else `impossible_chance` is raised). A player to move with no
    legal action is an error of `stuck_field`."""
    if state.is_terminal():
        return
    if state.current_player == CHANCE:
        if not can_happen():
            raise impossible_chance
    elif not state.legal_moves():
        raise FieldError(stuck_field, "the player to move has no legal action and the game is not over")
