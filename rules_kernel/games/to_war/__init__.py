"""To War!: two armies of 17 cards on a 3x4 grid; each turn a card enters the back rank and
pushes a chain of units until a fight, an empty square or a breakthrough (`to-war`).

Rulebook: rules/to-war.de.txt; rulings: rules/NOTES.md. The game was one module; it moved
here as `rules.py` unchanged (issue 45 item 3), to be cut into one module a concern.

This module registers the game (`GAMES`) and re-exports the names other modules import from
`rules_kernel.games.to_war`.
"""

from __future__ import annotations

from rules_kernel.games.to_war.cards import (
    ARMIES,
    ARMY_NAMES,
    ARMY_PAIRS,
    COLUMNS,
    MAX_TABLE_BYTES,
    TABLE_PATH,
    Unit,
    load_units,
    parse_unit_table,
    units_from_bytes,
)
from rules_kernel.games.to_war.rules import (
    FILES,
    PASS_KEY,
    RANKS,
    SETUP_CARDS,
    SQUARES,
    Discard,
    Draw,
    Pass,
    Place,
    Step,
    Stop,
    ToWar,
    ToWarState,
    square_name,
)

GAMES = [ToWar]

__all__ = [
    "ARMIES",
    "ARMY_NAMES",
    "ARMY_PAIRS",
    "COLUMNS",
    "FILES",
    "GAMES",
    "MAX_TABLE_BYTES",
    "PASS_KEY",
    "RANKS",
    "SETUP_CARDS",
    "SQUARES",
    "TABLE_PATH",
    "Discard",
    "Draw",
    "Pass",
    "Place",
    "Step",
    "Stop",
    "ToWar",
    "ToWarState",
    "Unit",
    "load_units",
    "parse_unit_table",
    "square_name",
    "units_from_bytes",
]
