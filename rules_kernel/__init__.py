"""Rules Explorer's rules kernel: the games, exactly, as pure Python.

    import rules_kernel as rk
    game = rk.load_game("yokai-3x4")
    state = game.initial_state()
    state = state.apply("b2b3")

See `rules_kernel.core` for the protocol every game follows.
"""

from __future__ import annotations

from typing import Any

from rules_kernel import parts as parts  # the parts' functions, and the deprecated game.heuristic & co
from rules_kernel.core import (
    CHANCE,
    Action,
    ChanceNotEnumerableError,
    ChanceOutcome,
    EditPiece,
    Game,
    Heatmap,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    PositionTextError,
    ReferenceEntry,
    RulesError,
    SeatError,
    State,
    perft,
    playout,
)
from rules_kernel.info import PARTS, GameInfo, info
from rules_kernel.registry import (
    NAME_BREAKS,
    game_class,
    list_games,
    load_game,
    register_game,
    unregister_game,
)
from rules_kernel.session import Session as Session  # a game in progress: a tree of actions

__all__ = [
    "CHANCE",
    "NAME_BREAKS",
    "PARTS",
    "Action",
    "ChanceNotEnumerableError",
    "ChanceOutcome",
    "CheckResult",
    "Collection",
    "EditPiece",
    "Game",
    "GameCheck",
    "GameInfo",
    "Heatmap",
    "HiddenInformationError",
    "IllegalMoveError",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "PositionTextError",
    "ReferenceEntry",
    "RulesError",
    "SeatError",
    "State",
    "check_game",
    "game_class",
    "info",
    "list_games",
    "load_game",
    "perft",
    "playout",
    "register_game",
    "unregister_game",
]

#: the conformance suite's names (rules_kernel.check), imported when first asked for
_CHECK_NAMES = frozenset({"CheckResult", "GameCheck", "check_game"})


def __getattr__(name: str) -> Any:
    """`rk.check_game` (and its results' classes) from `rules_kernel.check`, imported on first
    use: a game's author runs it, the rest of the kernel never needs it."""
    if name in _CHECK_NAMES:
        from rules_kernel import check

        return getattr(check, name)
    if name == "Collection":  # a game collection (Parquet, DuckDB): loaded when first used
        from rules_kernel.collection import Collection

        return Collection
    raise AttributeError(f"module 'rules_kernel' has no attribute {name!r}")
