"""The registry of games: which games exist and how to load one (issue 45 item 5).

It imports only `rules_kernel.core` (and, when first asked, the game modules of
`rules_kernel.games`, which register themselves by listing their classes in `GAMES`), so every
module of the kernel can ask it for a game without importing the package face
`rules_kernel/__init__.py`, which sits above them all (it re-exports these names for users:
`rk.load_game`, `rk.register_game`, ...). docs/architecture.md: the layers.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any

from rules_kernel.core import Game, OptionError

__all__ = [
    "NAME_BREAKS",
    "game_class",
    "list_games",
    "load_game",
    "register_game",
    "unregister_game",
]

_REGISTRY: dict[str, type[Game]] = {}
_DISCOVERED = False
#: bumped whenever the registry changes, so tables merged from all games are rebuilt
_GENERATION = 0


def _discover() -> dict[str, type[Game]]:
    """Every module in rules_kernel.games lists its Game classes in `GAMES`; games registered
    from outside (`register_game`) join them."""
    global _DISCOVERED, _GENERATION
    if not _DISCOVERED:
        # on first use: importing every game costs time a module that never asks should not pay
        from rules_kernel import games

        for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
            module = importlib.import_module(f"rules_kernel.games.{info.name}")
            for cls in getattr(module, "GAMES", ()):
                _REGISTRY[cls.id] = cls
        _DISCOVERED = True
        _GENERATION += 1
    return _REGISTRY


def register_game(cls: type[Game]) -> type[Game]:
    """Add a game defined outside the package (a Game subclass with its id); returns the class,
    so it serves as a decorator. An id another class holds is refused (OptionError)."""
    global _GENERATION
    if not (isinstance(cls, type) and issubclass(cls, Game)) or not cls.id:
        raise OptionError(f"register_game takes a Game subclass with an id, not {cls!r}")
    registry = _discover()
    if registry.get(cls.id, cls) is not cls:
        holder = registry[cls.id].__name__
        raise OptionError(f"a game with the id {cls.id!r} is registered already ({holder})")
    registry[cls.id] = cls
    _GENERATION += 1
    return cls


def unregister_game(game_id: str) -> None:
    """Take a game out of the registry (a test's teardown); an unknown id raises OptionError."""
    global _GENERATION
    game_class(game_id)
    del _REGISTRY[game_id]
    _GENERATION += 1


def list_games(*, ordered: bool = False) -> list[str]:
    """The ids of all games, e.g. ['to-war', 'war-chest', 'war-stories', 'yokai-3x4', ...];
    `ordered=True`: in the order the games declare for people (`Game.LIST_ORDER`, then id),
    the order of statistics tables and data files."""
    registry = _discover()
    if ordered:
        return sorted(registry, key=lambda game_id: (registry[game_id].LIST_ORDER, game_id))
    return sorted(registry)


def game_class(game_id: str) -> type[Game]:
    registry = _discover()
    if game_id not in registry:
        raise OptionError(f"unknown game {game_id!r}; known games: {', '.join(sorted(registry))}")
    return registry[game_id]


def load_game(game_id: str, **options: Any) -> Game:
    """A game with options; an unknown game, option or value raises OptionError."""
    return game_class(game_id)(**options)


class _NameBreaks(Mapping[str, tuple[str, ...]]):
    """Every registered game's `NAME_BREAKS` as one read-only table for the drawing code,
    rebuilt when the registry changes (a game registered later counts)."""

    def __init__(self) -> None:
        self._generation, self._merged = -1, {}

    def _table(self) -> dict[str, tuple[str, ...]]:
        registry = _discover()
        if self._generation != _GENERATION:
            merged: dict[str, tuple[str, ...]] = {}
            for game_id in sorted(registry):
                merged.update(registry[game_id].NAME_BREAKS)
            self._generation, self._merged = _GENERATION, merged
        return self._merged

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return self._table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


#: where long piece names break across lines, as the games declare it (`Game.NAME_BREAKS`)
NAME_BREAKS: Mapping[str, tuple[str, ...]] = _NameBreaks()
