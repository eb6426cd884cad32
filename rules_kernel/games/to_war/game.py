"""`ToWar`: the game's options (the two armies, the strategic variant, the unit table), its
units and each army's cards, reading a position text, and the declarations the rest of the
project reads (core.Game: list order, heatmaps) and the parts it names (`PARTS`: heuristic,
data defaults and seat holdings, reference), which live in `hints.py` and `reference.py`."""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

from rules_kernel.core import Game, Option, OptionError
from rules_kernel.games.to_war import edit, hints, notation, scene
from rules_kernel.games.to_war import reference as reference_panel
from rules_kernel.games.to_war.cards import (
    ARMIES,
    ARMY_NAMES,
    MAX_TABLE_BYTES,
    Unit,
    _check_armies,
    load_units,
    units_from_bytes,
)
from rules_kernel.games.to_war.rules import FILES, RANKS
from rules_kernel.games.to_war.state import ToWarState
from rules_kernel.position_text import read_position


class ToWar(Game):
    id = "to-war"
    title = "To War!"
    # what the game is (rules_kernel.info): the piles are shuffled (chance, hidden from both
    # alike); a player's hand is hidden from the other only in the strategic variant
    HIDDEN_INFORMATION = "strategic"
    CHANCE = True
    MEMORY = False
    # the parts besides the rules (rules_kernel.parts): the position's are ToWarState's hooks
    PARTS: ClassVar[dict[str, object]] = {
        "position text": ToWarState,
        "words": notation,  # draws, placings, fights in words, why an action is illegal
        "scene": scene,  # what the board shows
        "editor": edit,  # the board editor: its palette, counters, turn fields and an edit
        "reference": reference_panel,  # a card's numbers and arrows, every unit of the table
        "heuristic": hints,  # units on the grid
        "statistics": hints,  # the army pairs cycled through, each seat's army
    }
    OPTIONS: ClassVar[dict[str, Option]] = {
        "armies": Option(
            ["southern", "northern"],
            "the first and the second player's army",
            kind=(list, tuple),
            check=_check_armies,
            items=ARMIES,
        ),
        "strategic": Option(
            False,
            "the variant for more strategy (the rulebook's 'Variante für mehr Strategie'): a hand of "
            "three cards, drawn back to three after each turn",
            kind=bool,
        ),
        "units": Option(
            None,
            "the unit table: the provisional one shipped with the package (None), or your own as "
            "rows, a DataFrame or a CSV/JSON file",
            check=load_units,
            from_bytes=units_from_bytes,
            max_bytes=MAX_TABLE_BYTES,
        ),
    }

    def _check_options(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["units"] is None:
            values["units"] = load_units(None)
        for army in values["armies"]:
            if not any(r["army"] == army for r in values["units"]):
                raise OptionError(f"to-war: the unit table has no cards for the {army} army")
        return values

    @cached_property
    def units(self) -> dict[str, Unit]:
        return {
            r["code"]: Unit(
                r["army"],
                r["unit"],
                r["code"],
                r["count"],
                r["attack"],
                r["defence"],
                r["sideways"],
                r["steps"],
                r["elite"],
            )
            for r in self.options["units"]
        }

    def army_codes(self, player: int) -> tuple[str, ...]:
        army = self.options["armies"][player]
        return tuple(u.code for u in self.units.values() if u.army == army)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(ARMY_NAMES[a] for a in self.options["armies"])

    def initial_state(self) -> ToWarState:
        reserves = tuple(tuple(self.units[c].count for c in self.army_codes(p)) for p in (0, 1))
        return ToWarState(self, (None,) * (FILES * RANKS), reserves)

    def from_text(self, text: str) -> ToWarState:
        """Read a position and check it against the box and the rules; only PositionTextError escapes."""
        return read_position(
            self.id,
            text,
            lambda fields: notation.checked(ToWarState(self, *notation.position_parts(self, fields))),
        )

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 40
    HEATMAPS = (hints.BREAKTHROUGHS_HEATMAP,)
