"""The game: its options (checked), its map and seats, its first state, its position text."""

from __future__ import annotations

from typing import Any, ClassVar

from rules_kernel.core import Game, Heatmap, Option, OptionError
from rules_kernel.games.war_chest import edit, hints, reference, scene, words
from rules_kernel.games.war_chest.box import (
    ARMY_SIZE,
    COINS,
    FIRST_GAME,
    MAP_2P,
    MAP_4P,
    UNITS,
    Map,
)
from rules_kernel.games.war_chest.rules import armed
from rules_kernel.games.war_chest.state import WarChestState
from rules_kernel.games.war_chest.text import check_position, parse_fields
from rules_kernel.position_text import read_position


def _check_setup(value: Any) -> Any:
    if isinstance(value, str):
        if value not in ("random", "draft", "first-game"):
            raise ValueError(f"{value!r} is not 'random', 'draft', 'first-game' or a list of armies")
        return value
    if not isinstance(value, (list, tuple)) or not all(isinstance(a, (list, tuple)) for a in value):
        raise ValueError("give 'random', 'draft', 'first-game' or one list of unit names per player")
    armies = [[str(u) for u in army] for army in value]
    seen: set[str] = set()
    for i, army in enumerate(armies):
        for unit in army:
            if unit not in COINS:
                raise ValueError(f"army {i + 1}: unknown unit {unit!r}; units: {', '.join(UNITS)}")
            if unit in seen:
                raise ValueError(f"army {i + 1}: {unit!r} is already in another army (one card per unit)")
            seen.add(unit)
    return armies


def _check_cap(value: Any) -> Any:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"must be None or a positive whole number of actions; got {value!r}")
    return value


def _control_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps  # pandas, only when a heatmap is drawn

    return heatmaps.verb_cells(actions, scene.game, "control")


class WarChest(Game):
    id = "war-chest"
    title = "War Chest"
    # what the game is (rules_kernel.info): hands and bags are hidden, coins drawn from the bag
    HIDDEN_INFORMATION = True
    CHANCE = True
    MEMORY = False
    # the parts besides the rules (rules_kernel.parts): the position's are WarChestState's hooks
    PARTS: ClassVar[dict[str, Any]] = {
        "position text": WarChestState,
        "words": words,  # the actions in words, why a text is no action
        "scene": scene,  # what the board shows
        "editor": edit,  # the board editor: its palette, counters, turn fields and an edit
        "reference": reference,  # every unit from units.TACTICS, then the coin actions
        "heuristic": hints,  # control, coins on the board, units near locations
        "statistics": hints,  # the units each seat held
    }
    OPTIONS: ClassVar[dict[str, Option]] = {
        "players": Option(2, "2 players, or 4 in two teams of two (teammates sit opposite)", choices=(2, 4)),
        "setup": Option(
            "random",
            "'random' (the basic game: armies dealt), 'draft' (the rulebook's "
            "pick order), 'first-game' (the suggested 2-player armies) or one list of "
            "unit names per player",
            check=_check_setup,
            words=("random", "draft", "first-game"),
            items=UNITS,
        ),
        "royal_guard": Option(
            "2018",
            "the Royal Guard card: '2018' (tactic: move one hex) or "
            "'revised' (up to two hexes to a location you control)",
            choices=("2018", "revised"),
        ),
        "max_actions": Option(
            None,
            "stop after this many actions (chance included) as an "
            "unfinished game; for simulations (None: play to the end)",
            check=_check_cap,
        ),
    }

    def _check_options(self, values: dict[str, Any]) -> dict[str, Any]:
        players, setup = values["players"], values["setup"]
        if setup == "first-game" and players != 2:
            raise OptionError(
                "war-chest: the 'first-game' armies are for 2 players; use 'random', "
                "'draft' or explicit armies with 4"
            )
        if isinstance(setup, list):
            size = ARMY_SIZE[players]
            if len(setup) != players or any(len(a) != size for a in setup):
                raise OptionError(
                    f"war-chest: with {players} players give {players} armies of {size} "
                    f"units each; got sizes {[len(a) for a in setup]}"
                )
        self.num_players = players
        return values

    @property
    def map(self) -> Map:
        return MAP_2P if self.num_players == 2 else MAP_4P

    @property
    def player_names(self) -> tuple[str, ...]:
        if self.num_players == 2:
            return ("Side A", "Side B")
        return ("Player A1", "Player B1", "Player A2", "Player B2")

    def team(self, player: int) -> int:
        """The side (0 = A, 1 = B) a player fights for; in 2 players the player itself."""
        return player % 2

    def initial_state(self) -> WarChestState:
        n = self.num_players
        start = WarChestState(
            self,
            phase="deal",
            armies=((),) * n,
            pool=(),
            bags=((),) * n,
            hands=((),) * n,
            faceup=((),) * n,
            facedown=((),) * n,
            supply=((),) * n,
            eliminated=((),) * n,
            units=(),
            control=tuple(sorted((h, side) for side in (0, 1) for h in self.map.starts[side])),
            initiative=0,
            claimed=False,
            turn=0,
            pending=(),
        )
        setup = self.options["setup"]
        if setup == "first-game":
            return armed(start, FIRST_GAME)
        if isinstance(setup, list):
            return armed(start, tuple(tuple(a) for a in setup))
        return start

    def from_text(self, text: str) -> WarChestState:
        """A position from its text (`text.position_text`), checked against the box and the
        rules; PositionTextError naming the field for anything else."""
        return read_position(self.id, text, self._checked_position)

    def _checked_position(self, fields: list[str]) -> WarChestState:
        state = WarChestState(self, **parse_fields(self, fields))
        check_position(state)
        return state

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 50
    HEATMAPS = (
        Heatmap(
            "control",
            "which locations are taken",
            "control actions",
            "each control action counts on the location taken (ringed); the table below says when",
            _control_heatmap,
            when_table=True,
        ),
    )
    DATA_MAX_PLIES = 2000  # chance draws count as actions: War Chest's games are the longest
    # the heuristic tells moves apart by hundredths (a unit a hex nearer a location: 1/240 of
    # [0, 1]), so the search explores less than its default 0.2: against greedy at 1 s a move,
    # 0.715 over 200 games, 0.633 over 120 with 0.2 (docs/analysis.md, "Exploration per game")
    SEARCH_EXPLORATION = 0.03
