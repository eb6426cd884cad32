"""How good a position is for a player, for the agents and the analysis engines alike.

`evaluate` lives here, below both `rules_kernel.agents` and `rules_kernel.analysis`, so that
neither imports the other for it (issue 45 item 5: the agents use the analysis engines; the
analysis never imports the agents). `rules_kernel.agents.evaluate` stays a public name.
"""

from __future__ import annotations

from rules_kernel.core import State
from rules_kernel.parts import HEURISTICS, heuristic_of

__all__ = ["evaluate"]


def evaluate(state: State, player: int) -> float:
    """A score in [-1, 1] for `player`: the result if the game is over, else the game's own
    estimate (its "heuristic" part, `rules_kernel.parts`: material, control; 0 for a game
    without one), kept inside (-1, 1) so that no estimate counts as much as a result. The
    part's function is looked up once a game class (`parts.HEURISTICS`): this runs in playouts."""
    outcome = state.outcome()
    if outcome is not None:
        if not outcome.finished or outcome.winner is None:
            return 0.0
        return 1.0 if player in outcome.winners else -1.0
    try:  # found once a class; a subscript is the cheapest read (a `get` call costs ~10 ns more)
        estimate = HEURISTICS[type(state.game)]
    except KeyError:
        estimate = heuristic_of(type(state.game))
    return max(-0.99, min(0.99, estimate(state, player)))
