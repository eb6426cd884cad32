"""What a Yōkai no Mori position looks like, as plain data for the widgets (`YokaiState.scene`):
the squares (the promotion zones shaded), the pieces with their dots, both hands, the status
line. Nothing is hidden: the perspective is handed on to the drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.games.yokai.rules import (
    _HAND_ORDER,
    EMPTY,
    KIND_NAMES,
    STEPS,
    UNPROMOTED,
    kind_of,
    owner_of,
)
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.yokai.state import YokaiState


#: where the long piece names break across lines on a small board (`Game.NAME_BREAKS`)
NAME_BREAKS: dict[str, tuple[str, ...]] = {
    "Koropokkuru": ("Koro-", "pokkuru"),
    "Super-Oni": ("Super-", "Oni"),
}


def _board_steps(code: int) -> tuple[tuple[int, int], ...]:
    """The piece's dots: its step directions on the board (the second player's mirrored)."""
    sign = 1 if owner_of(code) == 0 else -1
    return tuple((df, dr * sign) for df, dr in STEPS[kind_of(code)])


def scene(state: YokaiState, perspective: int | None = None) -> Scene:
    """The game's "scene" part (`YokaiGame.PARTS`, `rules_kernel.parts.ScenePart`): what is on the
    table in `state`, as `perspective` (None: all-seeing) sees it; secrets hidden there."""
    return scene_of(state, perspective)


def scene_of(state: YokaiState, perspective: int | None) -> Scene:
    t, game = state.tables, state.game
    cells = tuple(
        Cell(
            t.names[sq],
            sq % t.files,
            sq // t.files,
            shade=("zone-1" if sq in t.zone[1] else "zone-0" if sq in t.zone[0] else None),
        )
        for sq in range(t.size)
    )
    tokens = tuple(
        Token(
            t.names[sq],
            KIND_NAMES[kind_of(code)],
            t.letter[kind_of(code)],
            owner=owner_of(code),
            facing=owner_of(code),
            promoted=kind_of(code) in UNPROMOTED,
            steps=_board_steps(code),
        )
        for sq, code in enumerate(state.board)
        if code != EMPTY
    )
    zones = tuple(
        Zone(
            f"hand-{owner}",
            f"{game.player_names[owner]}'s hand",
            owner,
            tuple(
                ZoneItem(
                    zone_cell(f"hand-{owner}", t.letter[kind]),
                    KIND_NAMES[kind],
                    t.letter[kind],
                    count=state.hands[owner][kind],
                    owner=owner,
                )
                for kind in _HAND_ORDER
                if state.hands[owner][kind]
            ),
        )
        for owner in (0, 1)
    )
    outcome = state.outcome()
    if outcome is None:
        status = f"{game.player_names[state.side]} to move"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{game.player_names[outcome.winner]} wins — {outcome.reason}"
    last = state.last_move
    return Scene(
        game=game.id,
        layout="square",
        cells=cells,
        tokens=tokens,
        zones=zones,
        players=game.player_names,
        to_move=None if outcome else state.side,
        status=status,
        perspective=perspective,
        last_cells=last.cells if last is not None else (),
    )
