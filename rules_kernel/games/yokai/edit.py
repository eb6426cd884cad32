"""The board editor of Yōkai no Mori, the game's "editor" part (`YokaiGame.PARTS`,
`rules_kernel.parts.EditorPart`: `edit_pieces`, `edit_hands`, `edit_to_move`, `edit_fields`,
`edit`):
every piece of the box for each side, what a hand may hold, and an edit read back through the
position text, so it is checked as any position text is (too many pieces, two Koropokkuru...)."""

from __future__ import annotations

from rules_kernel.core import EditPiece, PositionTextError, default_edit_to_move
from rules_kernel.games.yokai import notation
from rules_kernel.games.yokai.notation import _code_of_letter, _square_of
from rules_kernel.games.yokai.rules import EMPTY, KIND_NAMES, KOROPOKKURU, UNPROMOTED, kind_of
from rules_kernel.games.yokai.state import YokaiState
from rules_kernel.persistent import Counts
from rules_kernel.position_text import FieldError, read_edit


def edit_pieces(state: YokaiState) -> tuple[EditPiece, ...]:
    """Every piece of the box for each side (letters as the position text writes them:
    upper case the first player's); those a hand may hold also counted in hand (not a
    promoted piece: captures unpromote; not the Koropokkuru: taking it ends the game)."""
    letters = state.game.tables.letter
    return tuple(
        EditPiece(
            letters[kind] if owner == 0 else letters[kind].lower(),
            KIND_NAMES[kind],
            owner,
            in_hand=kind not in UNPROMOTED and kind != KOROPOKKURU,
        )
        for owner in (0, 1)
        for kind in letters
    )


def edit_hands(state: YokaiState) -> dict[tuple[int, str], int]:
    letters = state.game.tables.letter
    return {
        (owner, letters[kind] if owner == 0 else letters[kind].lower()): state.hands[owner][kind]
        for owner in (0, 1)
        for kind in letters
        if kind not in UNPROMOTED and kind != KOROPOKKURU
    }


def edit_to_move(state: YokaiState) -> int | None:
    """The side to move (`core.default_edit_to_move`)."""
    return default_edit_to_move(state)


def edit_fields(state: YokaiState) -> dict[str, tuple[str, tuple[str, ...]]]:
    """None: the position has no turn fields besides the side to move."""
    return {}


def edit(state: YokaiState, *, place=None, hands=None, to_move=None, fields=None) -> YokaiState:
    """`state` edited (core.State.edit), read back from its position text, so checked as any
    is (too many pieces, two Koropokkuru...); no fields to set."""
    refuse_fields(state, fields)
    side = state.side if to_move is None else to_move
    return read_edit(state.game, lambda: _made(state, place or {}, hands or {}, side), notation.position_text)


def _made(state: YokaiState, place, hands, side) -> YokaiState:
    board, held, side = edited(state, place, hands, side)
    return YokaiState(state.game, board, held, side, side, Counts())


def refuse_fields(state: YokaiState, fields) -> None:
    """The position has no turn fields besides the side to move: an edit may set none."""
    if fields:
        raise PositionTextError(
            f"{state.game.id} edit: fields: {sorted(fields)!r}: the game has none to set",
            field="fields",
            why="the game has none to set",
        )


def edited(
    state: YokaiState, place, hands, side
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]], int]:
    """(board, hands, side) of `state` with the edit made; FieldError on a bad value."""
    board = list(state.board)
    for cell, key in place.items():
        code = EMPTY if key is None else _code_of_letter(state.game, key, "board")
        board[_square_of(state.game, cell)] = code
    held = [list(hand) for hand in state.hands]
    for (owner, key), count in hands.items():
        code = _code_of_letter(state.game, key, "hand")
        if owner not in (0, 1) or not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise FieldError("hand", f"seat {owner!r} holding {count!r} {key!r}: not a count of a seat")
        held[owner][kind_of(code)] = count
    if side not in (0, 1):
        raise FieldError("side to move", f"seat {side!r}: {state.game.id} has seats 0 and 1")
    return tuple(board), (tuple(held[0]), tuple(held[1])), side
