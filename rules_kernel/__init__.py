"""Rules Explorer's rules kernel: the games, exactly, as pure Python.

    import rules_kernel as rk
    game = rk.load_game("yokai-3x4")
    state = game.initial_state()
    state = state.apply("b2b3")

See `rules_kernel.core` for the protocol every game follows.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from rules_kernel.core import (
    CHANCE,
    Action,
    ChanceNotEnumerableError,
    ChanceOutcome,
    Game,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    PositionTextError,
    RulesError,
    SeatError,
    State,
    perft,
    playout,
)

__all__ = [
    "CHANCE", "Action", "ChanceNotEnumerableError", "ChanceOutcome", "Game", "HiddenInformationError",
    "IllegalMoveError", "Move", "Option", "OptionError", "Outcome", "PositionTextError",
    "RulesError", "SeatError", "State", "game_class", "list_games", "load_game", "perft", "playout",
]

_REGISTRY: dict[str, type[Game]] = {}


def _discover() -> dict[str, type[Game]]:
    """Every module in rules_kernel.games lists its Game classes in `GAMES`."""
    if not _REGISTRY:
        from rules_kernel import games

        for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
            module = importlib.import_module(f"rules_kernel.games.{info.name}")
            for cls in getattr(module, "GAMES", ()):
                _REGISTRY[cls.id] = cls
    return _REGISTRY


def list_games() -> list[str]:
    """The ids of all games, e.g. ['to-war', 'war-chest', 'war-stories', 'yokai-3x4', ...]."""
    return sorted(_discover())


def game_class(game_id: str) -> type[Game]:
    registry = _discover()
    if game_id not in registry:
        raise OptionError(f"unknown game {game_id!r}; known games: {', '.join(sorted(registry))}")
    return registry[game_id]


def load_game(game_id: str, **options: Any) -> Game:
    """A game with options; an unknown game, option or value raises OptionError."""
    return game_class(game_id)(**options)
