"""The board editor of War Stories, the game's "editor" part (`WarStories.PARTS`,
`rules_kernel.parts.EditorPart`: `edit_pieces`, `edit_hands`, `edit_to_move`, `edit_fields`,
`edit`): the pieces ("Pionnen"), the board cards ("Bordkaarten", face down as
they lie) and the removed cards ("verwijderd") as the editor's palette, the turn and the
two-Ki flags as fields, and the position an edit asks for, read back through its position
text, so it is checked as any position text is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules_kernel.core import EditPiece, default_edit_to_move
from rules_kernel.games.war_stories import notation
from rules_kernel.games.war_stories.rules import (
    ARMY_CODES,
    DECK,
    DECK_COUNTS,
    HEIYA,
    KAMON,
    KI,
    LETTER_PIECES,
    PIECE_LETTERS,
    PIECE_NAMES,
    PLAYER_NAMES,
    SQUARES,
    UNKNOWN,
    _sorted_cards,
    card_name,
    square_name,
)
from rules_kernel.position_text import FieldError, read_edit

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.state import WarStoriesState

#: the board cards in the order the rulebook names them: army cards by pion and kamon, then Ki, Heiya
CARD_CODES = tuple(p + k for p in ARMY_CODES for k in KAMON) + (KI, HEIYA)
REMOVED_KEY = "removed:"  # the counter of a removed card: its own key (the card's code is the board's)
FACE_UP_FIELD = "face-up card"
HEIYA_FIELD = "Heiya turned over this turn"
TWO_KI_FIELDS = tuple(f"{name} turned up two Ki last turn" for name in PLAYER_NAMES)
NO_YES = ("no", "yes")
EDIT_PIECES = (
    tuple(
        EditPiece(letter if owner == 0 else letter.lower(), PIECE_NAMES[kind], owner)
        for owner in (0, 1)
        for kind, letter in PIECE_LETTERS.items()
    )
    + tuple(EditPiece(code, f"{card_name(code)} (face down)") for code in CARD_CODES)
    + tuple(
        EditPiece(REMOVED_KEY + code, card_name(code), in_hand=True, pile="removed", on_board=False)
        for code in CARD_CODES
    )
)


def edit_pieces(state: WarStoriesState) -> tuple[EditPiece, ...]:
    """Each side's pieces ("Pionnen", letters as the position text writes them: upper case
    White's), the board cards ("Bordkaarten", face down as they lie; keys are their card
    codes), and each card counted among the removed ones ("verwijderd")."""
    return EDIT_PIECES


def edit_hands(state: WarStoriesState) -> dict[tuple[int | None, str], int]:
    """How many of each card are removed, keyed (None, "removed:<code>")."""
    removed = Counter(state.removed)
    return {(None, REMOVED_KEY + code): removed[code] for code in CARD_CODES}


def edit_fields(state: WarStoriesState) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The turn (a card face up, Heiya turned over this turn) and the two-Ki flags of the
    Yonhon no ki rule."""
    # a card face up is a known card other than a Heiya (a Heiya leaves the board at once)
    squares = tuple(square_name(sq) for sq, c in enumerate(state.cards) if c not in (None, UNKNOWN, HEIYA))
    face_up = "none" if state.face_up is None else square_name(state.face_up)
    fields = {
        FACE_UP_FIELD: (face_up, ("none", *squares)),
        HEIYA_FIELD: (str(_heiya_this_turn(state)), tuple(str(n) for n in range(DECK_COUNTS[HEIYA] + 1))),
    }
    for player, name in enumerate(TWO_KI_FIELDS):
        fields[name] = (NO_YES[state.two_ki[player]], NO_YES)
    return fields


def _heiya_this_turn(state: WarStoriesState) -> int:
    return state.flips - (state.face_up is not None)


def edit_to_move(state: WarStoriesState) -> int | None:
    """The side to move, or the seat chance deals for (`core.default_edit_to_move`)."""
    return default_edit_to_move(state)


def edit(
    state: WarStoriesState,
    *,
    place: Mapping[str, str | None] | None = None,
    hands: Mapping[tuple[int | None, str], int] | None = None,
    to_move: int | None = None,
    fields: Mapping[str, str] | None = None,
) -> WarStoriesState:
    """`state` edited (core.State.edit); the result is read back from its text, so it is
    checked exactly as any position text is."""
    return read_edit(
        state.game,
        lambda: edited(state, place or {}, hands or {}, to_move, fields or {}),
        notation.position_text,
    )


def edited(
    state: WarStoriesState,
    place: Mapping[str, str | None],
    hands: Mapping[tuple[int | None, str], int],
    to_move: int | None,
    fields: Mapping[str, str],
) -> WarStoriesState:
    """The position asked for, not yet checked (`from_text` of its text checks it). It starts
    a game: no ply count, no last action, and no Yonhon no ki loss (how a game ended is its
    history; the two-Ki flags that lead to it are fields)."""
    sketch = _placed(state, place)
    sketch = replace(sketch, removed=_removed(state, hands))
    if to_move is not None:
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise FieldError("side", f"seat {to_move!r}: War Stories has seats 0 (White) and 1 (Black)")
        sketch = replace(sketch, side=to_move)
    sketch = _with_fields(sketch, fields)
    out = sketch.out if UNKNOWN in sketch.cards else ()  # only a text with hidden cards names them
    return replace(sketch, ply=0, lost=None, out=out, last=(), shown=(), hand_over_from=None, memory=False)


def _placed(state: WarStoriesState, place: Mapping[str, str | None]) -> WarStoriesState:
    """A square holds a piece or a card: placing one takes away the other. A card that leaves
    a square was seen (Heiya and Engun show it), so its square counts as revealed."""
    pieces, cards = list(state.pieces), list(state.cards)
    revealed = set(state.revealed)
    for cell, key in place.items():
        if not isinstance(cell, str) or cell not in SQUARES:
            raise FieldError("board", f"{str(cell)[:10]!r} is no square of the board (a1-f7)")
        sq = SQUARES[cell]
        if cards[sq] is not None and key not in CARD_CODES:
            revealed.add(sq)
        pieces[sq], cards[sq] = _square_holds(key)
    kept = [sq for sq in sorted(state.nobori) if cards[sq] is not None]  # a Nobori lies on a card
    face_up = state.face_up if state.face_up is not None and cards[state.face_up] is not None else None
    sketch = replace(
        state, pieces=tuple(pieces), cards=tuple(cards), revealed=frozenset(revealed), nobori=frozenset(kept)
    )
    return _turned(sketch, face_up, _heiya_this_turn(state))


def _square_holds(key: str | None) -> tuple[int, str | None]:
    """(piece code, card) of a square the key is placed on."""
    if key is None:
        return 0, None
    if isinstance(key, str) and key in CARD_CODES:
        return 0, key
    if isinstance(key, str) and key.upper() in LETTER_PIECES and len(key) == 1:
        return LETTER_PIECES[key.upper()] | (0 if key.isupper() else 8), None
    raise FieldError(
        "board", f"{str(key)[:10]!r} is no piece (D, S, A, K, H; Black's lower case) and no card code"
    )


def _removed(state: WarStoriesState, hands: Mapping[tuple[int | None, str], int]) -> tuple[str, ...]:
    removed = Counter(state.removed)
    for counter, count in hands.items():
        owner, key = counter if isinstance(counter, tuple) and len(counter) == 2 else (0, None)
        code = key[len(REMOVED_KEY) :] if isinstance(key, str) and key.startswith(REMOVED_KEY) else None
        if owner is not None or code not in CARD_CODES:
            raise FieldError("removed", f"{str(counter)[:30]!r} is no card counter (None, 'removed:<code>')")
        # a count past the whole deck is no count at all (and never builds a huge tuple)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= len(DECK):
            raise FieldError("removed", f"{str(count)[:10]!r} {card_name(code)}: not a count of board cards")
        removed[code] = count
    return _sorted_cards(tuple(removed.elements()))


def _with_fields(state: WarStoriesState, fields: Mapping[str, str]) -> WarStoriesState:
    known = edit_fields(state)
    for name, value in fields.items():
        if name not in known:
            raise FieldError("fields", f"{str(name)[:40]!r}: the fields are {', '.join(known)}")
        if value not in known[name][1]:
            field = "two-Ki flags" if name in TWO_KI_FIELDS else "turn"
            raise FieldError(field, f"{name} {str(value)[:10]!r}: one of {', '.join(known[name][1])}")
    face_up = state.face_up
    if FACE_UP_FIELD in fields:
        face_up = None if fields[FACE_UP_FIELD] == "none" else SQUARES[fields[FACE_UP_FIELD]]
    heiya = int(fields.get(HEIYA_FIELD, _heiya_this_turn(state)))
    flags = zip(TWO_KI_FIELDS, state.two_ki, strict=True)
    two_ki = tuple(fields.get(name, NO_YES[flag]) == "yes" for name, flag in flags)
    return _turned(replace(state, two_ki=two_ki), face_up, heiya)


def _turned(state: WarStoriesState, face_up: int | None, heiya: int) -> WarStoriesState:
    """The turn: `heiya` Heiya turned over (and removed) so far, and the card face up; a
    face-up card is a revealed one."""
    revealed = state.revealed if face_up is None else state.revealed | {face_up}
    flips = heiya + (face_up is not None)
    return replace(state, face_up=face_up, flips=flips, all_heiya=face_up is None, revealed=revealed)
