"""What the agents and the statistics need of To War!: the agents' heuristic (units on the
grid), the heatmap the statistics offer (where breakthroughs come from), and the data
defaults (`make_data` cycles through the army pairs). None of it is a rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_kernel.core import Heatmap
from rules_kernel.games.to_war.cards import ARMY_PAIRS

if TYPE_CHECKING:
    from rules_kernel.games.to_war.state import ToWarState


def heuristic(state: ToWarState, player: int) -> float:
    """Units on the grid, the player's minus the opponent's, over 12 (the squares)."""
    units = [sum(1 for u in state.grid if u and u[0] == p) for p in (0, 1)]
    return (units[player] - units[1 - player]) / 12


def _breakthrough_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps  # pandas, only when a heatmap is drawn

    return heatmaps.moves_off_board(actions, scene.game, scene.cell_ids())


BREAKTHROUGHS_HEATMAP = Heatmap(
    "breakthroughs",
    "where breakthroughs come from",
    "breakthroughs",
    "each move into the opponent's camp counts on the square the unit left: the first player "
    "breaks through from the top rank, the second from the bottom rank",
    _breakthrough_heatmap,
)


def data_options(setting: int) -> dict[str, Any]:
    """The army pair cycles through the 12 pairs as seated, so every pair, and every army
    on each seat, gets the same share of the games."""
    return {"armies": list(ARMY_PAIRS[setting % len(ARMY_PAIRS)])}
