"""What a War Stories position looks like, as plain data for the widgets
(`WarStoriesState.scene`): the squares (the start squares shaded), the pieces, the board cards
(face down, or face up with their kamon while in sight, a Nobori flagged), the count of
removed cards and the status line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.games.war_stories.rules import (
    ARMY_CODES,
    DECK,
    FILES,
    KAMON,
    PIECE_LETTERS,
    PIECE_NAMES,
    PLAYER_NAMES,
    SIZE,
    card_name,
    square_name,
)
from rules_kernel.scene import Cell, Scene, Token, Zone

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.state import WarStoriesState


def scene(state: WarStoriesState, perspective: int | None = None) -> Scene:
    """The game's "scene" part (`WarStories.PARTS`, `rules_kernel.parts.ScenePart`): what is on the
    table in `state`, as `perspective` (None: all-seeing) sees it; secrets hidden there."""
    shown = state if perspective is None else state.view(perspective)
    return scene_of(shown, state, perspective)


def scene_of(shown: WarStoriesState, true: WarStoriesState, perspective: int | None) -> Scene:
    """The scene of `true` as `shown` (its view from `perspective`, or itself) lets it be seen:
    the pieces and the cards of `shown` (face up where `true` has them face up), the start
    squares, the removed cards and the status of `true`."""
    cells = tuple(
        Cell(
            square_name(sq),
            sq % FILES,
            sq // FILES,
            shade="start-0"
            if sq in true.game.start_squares[:2]
            else "start-1"
            if sq in true.game.start_squares[2:]
            else None,
        )
        for sq in range(SIZE)
    )
    tokens = []
    for sq in range(SIZE):
        code, card = shown.pieces[sq], shown.cards[sq]
        if code:
            tokens.append(
                Token(
                    square_name(sq),
                    PIECE_NAMES[code & 7],
                    PIECE_LETTERS[code & 7],
                    owner=code >> 3,
                    facing=code >> 3,
                )
            )
        elif card is not None:
            face_up = sq == shown.face_up or sq in true.shown
            army = card[:2] in ARMY_CODES
            tokens.append(
                Token(
                    square_name(sq),
                    card_name(card),
                    card,
                    kind="card",
                    face_down=not face_up,
                    color=KAMON[card[2]] if army and face_up else None,
                    flags=("nobori",) if sq in shown.nobori else (),
                )
            )
    removed = len(DECK) - sum(1 for code in true.cards if code is not None)
    outcome = true.outcome()
    if not true.dealt:
        status = "The cards are to be dealt"
    elif outcome is None:
        status = f"{PLAYER_NAMES[true.side]} to move" + (" (flipping)" if true.flips else "")
    elif not outcome.finished:
        status = f"Unfinished — {outcome.reason}"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{PLAYER_NAMES[outcome.winner]} wins — {outcome.reason}"
    zone = Zone("removed", f"Removed cards: {removed}", None)
    return Scene(
        game=true.game.id,
        layout="square",
        cells=cells,
        tokens=tuple(tokens),
        zones=(zone,),
        players=PLAYER_NAMES,
        to_move=true.current_player if true.dealt and not outcome else None,
        status=status,
        perspective=perspective,
        last_cells=true.last,
    )
