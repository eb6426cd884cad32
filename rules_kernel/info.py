"""What a game is and which parts it brings, declared in one place (issue 45 item 1).

`rk.info("war-stories")` answers, for the widgets, the analysis, the formats and the
statistics, what they used to guess from which hooks a class overrides:

    >>> import rules_kernel as rk
    >>> info = rk.info("war-stories")
    >>> info.hidden_information, info.chance, info.memory
    (True, True, True)
    >>> info.has("editor"), info.formats
    (True, {})

A game declares it on its `Game` subclass: `HIDDEN_INFORMATION`, `CHANCE`, `MEMORY` (the
rules' facts) and `PARTS` (which of `PARTS` below it brings); the rest of the info is what the
class declares already (`SOLVED_TABLE`, `FAIRY_STOCKFISH_VARIANT`, `HEATMAPS`, the formats'
names). A game written before these declarations existed keeps working: the info takes each
missing one from the hooks the class overrides, warns once (DeprecationWarning) and lists it in
`undeclared`; `rules-explorer check-game` names the lines to add.

This module imports only `rules_kernel.core` and the registry (docs/architecture.md).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules_kernel import registry
from rules_kernel.core import Game, Heatmap, State

__all__ = ["PARTS", "GameInfo", "derived_from_hooks", "info"]

#: the parts a game may bring besides its rules, and the hooks that make each
PARTS: Mapping[str, str] = MappingProxyType(
    {
        "position text": "State.to_text and Game.from_text: a position written as text and read back",
        "words": "State.action_text: each action in words (the move list)",
        "scene": "State.scene: a drawing of the position (the board)",
        "editor": "State.edit_pieces and State.edit: the board editor",
        "reference": "Game.reference: the players' reference panel",
        "heuristic": "Game.heuristic: the agents' estimate of a position",
    }
)

#: the formats a game can be written in: the declaration that names the game there
FORMAT_NAMES: Mapping[str, str] = MappingProxyType({"PGN": "PGN_VARIANT", "KIF": "KIF_HANDICAP"})


@dataclass(frozen=True)
class GameInfo:
    """What a game is (its rules' facts) and which parts it brings."""

    id: str
    title: str
    #: the players with the default options, and every number the options allow
    players: int
    player_counts: tuple[int, ...]
    #: a player's view hides something (cards, hands, bags) in some setting of the game:
    #: views, curtains, determinize; `hides(options)` says whether it does in one setting
    hidden_information: bool
    #: chance acts (a deal, a draw from a bag): chance nodes in every line
    chance: bool
    #: a player's view forgets what it saw (War Stories' cards turned back)
    memory: bool
    #: which of `PARTS` the game brings
    parts: frozenset[str]
    #: engines: the solved table ("module:function") and the Fairy-Stockfish variant, or None
    solved_table: str | None
    fairy_stockfish_variant: str | None
    #: the formats it can be written in, with its name there: {"PGN": "dobutsu", "KIF": ...}
    formats: Mapping[str, str]
    #: statistics and agents: heatmaps, the cap on a recorded game, the search's exploration
    heatmaps: tuple[Heatmap, ...]
    data_max_plies: int
    search_exploration: float | None
    #: declarations the class lacks (taken from the hooks it overrides; see the module text)
    undeclared: tuple[str, ...] = ()
    #: the boolean option that turns the hidden information on, if only some settings hide
    hidden_when: str | None = None

    def hides(self, options: Mapping[str, object]) -> bool:
        """Does a player's view hide anything in a game with these options? (To War! plain:
        no, both players see all there is; with the strategic variant's hands: yes.)"""
        if self.hidden_when is None:
            return self.hidden_information
        return self.hidden_information and bool(options.get(self.hidden_when))

    def has(self, part: str) -> bool:
        """Does the game bring this part? An unknown part's name is a ValueError (a typo)."""
        if part not in PARTS:
            raise ValueError(f"no part {part!r}; the parts are {', '.join(PARTS)}")
        return part in self.parts


def info(game: str | Game | type[Game]) -> GameInfo:
    """The info of a game, by id, instance or class (a class need not be registered)."""
    if isinstance(game, str):
        cls = registry.game_class(game)
    elif isinstance(game, Game):
        cls = type(game)
    elif isinstance(game, type) and issubclass(game, Game):
        cls = game
    else:
        raise TypeError(f"info takes a game id, a Game or a Game class, not {game!r}")
    return _info_of(cls)


_WARNED: set[type[Game]] = set()


def _info_of(cls: type[Game]) -> GameInfo:
    # built on each call (a dataclass of the class's declarations: cheap), so that a
    # declaration changed later (a test's monkeypatch) is seen; only the hooks' reading is kept
    game = cls()
    declared = _declarations(cls)
    undeclared = tuple(name for name, value in declared.items() if value is None)
    derived = derived_from_hooks(cls) if undeclared else {}
    if undeclared and cls not in _WARNED:
        _WARNED.add(cls)
        warnings.warn(
            f"{cls.__qualname__} ({cls.id}) does not declare {', '.join(undeclared)}; they are taken "
            "from the hooks it overrides (rules-explorer check-game says what to write)",
            DeprecationWarning,
            stacklevel=3,
        )
    facts = {name: derived[name] if value is None else value for name, value in declared.items()}
    counts = cls.OPTIONS["players"].choices if "players" in cls.OPTIONS else None
    return GameInfo(
        id=cls.id,
        title=cls.title,
        players=game.num_players,
        player_counts=tuple(counts) if counts else (game.num_players,),
        hidden_information=bool(facts["HIDDEN_INFORMATION"]),
        hidden_when=_hidden_when(cls, facts["HIDDEN_INFORMATION"]),
        chance=bool(facts["CHANCE"]),
        memory=bool(facts["MEMORY"]),
        parts=frozenset(facts["PARTS"]),
        solved_table=cls.SOLVED_TABLE,
        fairy_stockfish_variant=cls.FAIRY_STOCKFISH_VARIANT,
        formats=MappingProxyType(
            {
                name: getattr(cls, attribute)
                for name, attribute in FORMAT_NAMES.items()
                if getattr(cls, attribute)
            }
        ),
        heatmaps=tuple(cls.HEATMAPS),
        data_max_plies=cls.DATA_MAX_PLIES,
        search_exploration=cls.SEARCH_EXPLORATION,
        undeclared=undeclared,
    )


def _hidden_when(cls: type[Game], declared: object) -> str | None:
    """The option named by `HIDDEN_INFORMATION = "<option>"`, checked to be one of the game's
    boolean options (a typo would make the game show every secret)."""
    if not isinstance(declared, str):
        return None
    option = cls.OPTIONS.get(declared)
    if option is None or not isinstance(option.default, bool):
        raise ValueError(
            f"{cls.__qualname__}.HIDDEN_INFORMATION names {declared!r}, which is not one of its "
            f"boolean options ({', '.join(n for n, o in cls.OPTIONS.items() if isinstance(o.default, bool))})"
        )
    return declared


def _declarations(cls: type[Game]) -> dict[str, object]:
    parts = cls.PARTS
    if parts is not None:
        unknown = sorted(set(parts) - set(PARTS))
        if unknown:
            raise ValueError(f"{cls.__qualname__}.PARTS names {unknown}; the parts are {', '.join(PARTS)}")
    return {
        "HIDDEN_INFORMATION": cls.HIDDEN_INFORMATION,
        "CHANCE": cls.CHANCE,
        "MEMORY": cls.MEMORY,
        "PARTS": parts,
    }


@functools.cache
def derived_from_hooks(cls: type[Game]) -> dict[str, object]:
    """The declarations as the hooks a class overrides suggest them: what the widgets and
    formats used to guess each time; the info of a class that lacks a declaration, and what
    `check-game` compares the declarations with."""
    state = type(cls().initial_state())

    def overrides(kind: type, name: str) -> bool:
        return getattr(state if kind is State else cls, name) is not getattr(kind, name)

    parts = {
        "position text": overrides(State, "to_text") and overrides(Game, "from_text"),
        "words": overrides(State, "action_text"),
        "scene": overrides(State, "scene"),
        "editor": overrides(State, "edit_pieces"),
        "reference": overrides(Game, "reference"),
        "heuristic": overrides(Game, "heuristic"),
    }
    return {
        "HIDDEN_INFORMATION": overrides(State, "view"),
        "CHANCE": overrides(State, "chance_outcomes") or overrides(State, "sample_chance"),
        "MEMORY": overrides(State, "forgets"),
        "PARTS": frozenset(name for name, present in parts.items() if present),
    }
