"""To War!: two armies of 17 cards on a 3x4 grid; each turn a card enters the back rank and
pushes a chain of units until a fight, an empty square or a breakthrough (`to-war`).

Rulebook: rules/to-war.de.txt; rulings: rules/NOTES.md. The unit values are printed only on
the cards: they come from a table (`rules_kernel/data/to-war-units.csv`, PROVISIONAL) that a
user replaces with their own (option `units`: a CSV/JSON path, a pandas DataFrame or rows).

The package, one module a concern (docs/architecture.md, "A game's package"):

- `cards`      the cards and armies: the four armies, a unit's values (attack/defence,
               arrows, crown) and the unit table they come from, read and checked
- `rules`      the rules in the rulebook's words: the grid, the actions of a turn, the
               set-up, placing, the push, the fight, the draw, what a player sees, the end
- `state`      `ToWarState`: the position and the kernel protocol on it
- `game`       `ToWar`: the options, the units, reading a position text, the declarations
- `notation`   the position text and its checks, status, the move list's words, why an
               action is illegal, reading a draw
- `scene`      what the position looks like (plain data for the widgets)
- `edit`       the board editor (the "editor" part)
- `hints`      the agents' heuristic, the statistics' heatmap, the data defaults
- `reference`  the reference panel: what a card shows, and every unit of the table

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
from rules_kernel.games.to_war.game import ToWar
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
    square_name,
)
from rules_kernel.games.to_war.state import ToWarState

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
