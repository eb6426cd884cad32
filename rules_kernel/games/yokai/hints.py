"""What the agents and the statistics need of Yōkai no Mori: the agents' heuristic (material)
and the heatmaps the statistics offer. None of it is a rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_kernel.core import Heatmap
from rules_kernel.games.yokai.rules import (
    KIRIN,
    KITSUNE,
    KODAMA,
    KODAMA_SAMURAI,
    KOROPOKKURU,
    ONI,
    SUPER_ONI,
    TANUKI,
    kind_of,
    owner_of,
)

if TYPE_CHECKING:
    from rules_kernel.games.yokai.state import YokaiState

#: the agents' material values; the Koropokkuru counts nothing, as taking it ends the game
AGENT_VALUES: dict[int, int] = {
    KODAMA: 1,
    KITSUNE: 3,
    TANUKI: 3,
    KIRIN: 5,
    ONI: 4,
    KODAMA_SAMURAI: 5,
    SUPER_ONI: 5,
    KOROPOKKURU: 0,
}


def heuristic(state: YokaiState, player: int) -> float:
    """The "heuristic" part (`YokaiGame.PARTS`): material on the board and in hand, the
    player's minus the opponent's, over 20, with the piece values the game declares
    (`AGENT_VALUES`)."""
    values = state.game.AGENT_VALUES
    score = 0.0
    for code in state.board:
        if code:
            score += values[kind_of(code)] * (1 if owner_of(code) == player else -1)
    for owner in (0, 1):
        for kind, count in enumerate(state.hands[owner]):
            if count and kind in values:
                score += values[kind] * count * (1 if owner == player else -1)
    return score / 20


def _captures_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps  # pandas, only when a heatmap is drawn

    return heatmaps.captures(actions, scene.game)


def _koropokkuru_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps

    files = max(c.x for c in scene.cells) + 1
    ranks = max(c.y for c in scene.cells) + 1
    return heatmaps.piece_moves(actions, scene.game, "Koropokkuru", files=files, ranks=ranks)


CAPTURES_HEATMAP = Heatmap(
    "captures",
    "where captures happen",
    "captures",
    "each capture counts on the square the capturing piece moved to",
    _captures_heatmap,
)

KOROPOKKURU_HEATMAP = Heatmap(
    "koropokkuru",
    "where the Koropokkuru goes",
    "Koropokkuru moves",
    "each move of a Koropokkuru counts on its destination, seen from the mover's side (the "
    "second player's moves turned round): the top rank is the far rank, where a Koropokkuru "
    "that arrives safely wins by the try",
    _koropokkuru_heatmap,
)


# --- what a click does (the explorer's board names each target: widgets/guidance.py) ---------


def target_words(state: YokaiState, move: Any, viewer: int | None = None) -> str:
    """What playing `move` does, as an instruction for the square that plays it: "move the
    Tanuki", "move the Kodama and take the Kitsune (it goes to your hand)", "drop a Kodama
    from your hand", with a promotion ("becomes a Kodama Samurai", or the choice's two
    sides: "promote it to Super-Oni" / "do not promote it") and the end it brings."""
    from rules_kernel.games.yokai.rules import KIND_NAMES, PROMOTES_TO

    if move.drop is not None:
        text = f"drop a {KIND_NAMES[move.drop]} from your hand"
    else:
        kind, captured = kind_of(state.board[move.frm]), state.board[move.to]
        text = f"move the {KIND_NAMES[kind]}"
        if captured:
            text += f" and take the {KIND_NAMES[kind_of(captured)]} (it goes to your hand)"
        promoted = state.tables.step_moves.get((move.frm, move.to, True, state.side))
        chosen = promoted is not None and promoted in state._legal_set() and not move.promote
        if move.promote or chosen:
            unpromoted = state.tables.step_moves.get((move.frm, move.to, False, state.side))
            choice = unpromoted is not None and unpromoted in state._legal_set() and promoted is not None
            if move.promote and choice:
                text += f", and promote it to {KIND_NAMES[PROMOTES_TO[kind]]}"
            elif move.promote:
                text += f": it becomes the {KIND_NAMES[PROMOTES_TO[kind]]}"
            else:
                name = KIND_NAMES[kind]
                text += f", and do not promote it (it stays {'an' if name[0] in 'AEIOU' else 'a'} {name})"
    outcome = state.apply(move).outcome()
    if outcome is not None and outcome.finished:
        text += (
            " — a draw"
            if outcome.is_draw
            else (" — you win" if outcome.winner == state.side else " — you lose")
        )
    return text
