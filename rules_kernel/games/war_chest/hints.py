"""What the agents and the statistics need of War Chest: the agents' heuristic (control, then
coins on the board and units near locations to take) and what each seat of a recorded game
held (its units). None of it is a rule. The game names this module for its "heuristic" and
"statistics" parts (`WarChest.PARTS`)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rules_kernel.games.war_chest.box import Hex, Map, distance

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.state import WarChestState


@lru_cache(maxsize=1024)
def _closeness(map_: Map, control: tuple[tuple[Hex, int], ...], team: int) -> dict[Hex, float]:
    """What the heuristic counts for a unit of `team` on each hex: (6 - steps to the nearest
    location its side does not control, at most 6) / 120. The same few control layouts come
    back all game, so each is worked out once, not once per unit and position."""
    controller = dict(control)
    targets = [loc for loc in map_.locations if controller.get(loc) != team]
    return {h: (6 - min(min((distance(h, loc) for loc in targets), default=0), 6)) / 120 for h in map_.hexes}


def heuristic(state: WarChestState, player: int) -> float:
    """Control markers placed (what wins), then coins on the board and units near locations
    to take, for the player's side."""
    game = state.game
    side = game.team(player)
    score = (state.markers_left(1 - side) - state.markers_left(side)) / game.map.markers
    closeness = [_closeness(game.map, state.control, team) for team in (0, 1)]
    for h, owner, _, height in state.units:
        team = game.team(owner)
        value = height / 180 + closeness[team][h]  # closer beats bolstering
        score += value if team == side else -value
    return score


def data_options(setting: int) -> dict[str, Any]:
    """Every setting of an experiment plays the default options (the armies are dealt)."""
    return {}


def seat_holdings(record: Any) -> dict[str, list[Any]]:
    """Each seat's unit types: from the options, or by replaying the deal or the draft."""
    state = record.load_game().initial_state()
    for action in record.actions:
        if state.phase not in ("deal", "draft"):
            break
        state = state.apply(action.notation)
    return {"unit": [list(units) for units in state.armies]}
