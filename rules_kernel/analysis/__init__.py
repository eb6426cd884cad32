"""Analysis: one protocol over three engines, and game reports as DataFrames.

    from rules_kernel.analysis import analyse, report, summary, Limit
    result = analyse(state, viewer=None, limit=Limit(seconds=0.5))
    result.value            # Estimate for the player to move: win probability (a draw counts
                            # half) with its uncertainty, or an exact result and distance
    result.moves            # MoveLine(move, value, line, visits) for the legal moves, best first
    result.line             # the principal line
    result.search           # Search(engine, nodes, playouts, depth, seconds, exact, stopped)
    report(record)          # one row per ply: values before and after, loss, classification
    summary(report(record)) # per player

Engines (docs/analysis.md): "table" (a game that declares a solved table: Yōkai 3x4; exact,
with the game's history), "fairy-stockfish" (Debian's engine over UCI, for the games it plays
by our rules: Yōkai 5x6), "ismcts" (information-set Monte Carlo tree search: the card games,
and any game without a better engine). The default is chosen per game by what the game
declares and what is installed; `engine=` names one ("fsf" is short for "fairy-stockfish")
or passes an engine object. Engines that hold a resource (the 1.7 GB table, a subprocess) are
opened once and kept; `close_engines()` releases them (also at exit).

Where the default is Fairy-Stockfish, an analysis it cannot give (EngineError: not
installed, not a program, crashed, hung, garbage) is given by the tree search instead, with
the reason in `search.notes`; an engine named explicitly raises the EngineError.
"""

from __future__ import annotations

import atexit
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from rules_kernel import parts, registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.analysis import fsf as _fsf
from rules_kernel.analysis._types import (
    Analysis,
    Engine,
    Estimate,
    Limit,
    MoveLine,
    Search,
    StopFlag,
)
from rules_kernel.analysis.fsf import EngineError, FairyStockfish, FairyStockfishEngine
from rules_kernel.analysis.ismcts import TreeSearchEngine
from rules_kernel.analysis.report import CLASSIFICATION, report, summary
from rules_kernel.analysis.table import TableEngine
from rules_kernel.core import Game, RulesError, State, check_seat
from rules_kernel.info import info

__all__ = [
    "CLASSIFICATION",
    "fairy_stockfish_variants",
    "Analysis",
    "DefaultEngine",
    "Engine",
    "EngineError",
    "Estimate",
    "FairyStockfish",
    "FairyStockfishEngine",
    "Limit",
    "MoveLine",
    "Search",
    "TableEngine",
    "TreeSearchEngine",
    "analyse",
    "close_engines",
    "default_engine_name",
    "get_engine",
    "report",
    "summary",
]


# ------------------------------------------------------------------------------------------------
# DEFAULT TABLE (the one place here that names games). Games do not declare yet which
# Fairy-Stockfish variant plays them; until they do (hook requested: a class attribute such as
# `FAIRY_STOCKFISH_VARIANT` in rules_kernel/games/yokai.py), this table says it. The engine is
# checked at start (perft from the start position against ours): Yōkai 5x6 agrees; for
# Yōkai 3x4 Debian's Fairy-Stockfish 11.1 plays an older dobutsu (a royal Lion) whose
# differences the wrapper handles (fsf.KNOWN_OTHER_RULES), so it serves 3x4 only where no
# solved table is built, which is better (docs/analysis.md, "Yōkai 3x4 and Fairy-Stockfish").
def fairy_stockfish_variants() -> dict[str, str]:
    """Game id -> the Fairy-Stockfish variant that plays it, as the games declare it
    (`Game.FAIRY_STOCKFISH_VARIANT`)."""
    variants = {gid: registry.game_class(gid).FAIRY_STOCKFISH_VARIANT for gid in registry.list_games()}
    return {gid: variant for gid, variant in variants.items() if variant}


# ------------------------------------------------------------------------------------------------

ENGINE_NAMES = ("table", "fairy-stockfish", "ismcts")
#: other names accepted for an engine (`rules-explorer analyse --engine fsf`, the agent's name)
ENGINE_ALIASES = {"fsf": "fairy-stockfish"}

_OPEN: dict[tuple[str, str], Engine] = {}
# why an engine could not be opened: (the message, what it depended on, when). A table's
# refusal holds until close_engines(); Fairy-Stockfish's while its binary is the same file
# (binary_identity) and for RETRY_AFTER seconds, so a binary replaced or fixed is found again
_UNAVAILABLE: dict[tuple[str, str], tuple[RulesError, tuple | None, float]] = {}
_LOCK = threading.Lock()
_OPENING: dict[tuple[str, str], threading.Lock] = {}


def analyse(
    state: State,
    *,
    viewer: int | None = None,
    limit: Limit | float | None = None,
    engine: str | Engine | None = None,
    progress: Callable[[Analysis], None] | None = None,
    stop: StopFlag | None = None,
) -> Analysis:
    """Analyse `state` for the player to move, as `viewer` knows it (None: all-seeing).

    `limit`: a Limit or seconds (default 1 s). `engine`: None (the game's default, which
    falls back to the tree search where Fairy-Stockfish fails), a name ("table",
    "fairy-stockfish" or "fsf", "ismcts") or an engine object. `progress(analysis)` is called
    as the search deepens; `stop` (a threading.Event) ends it early with what it has."""
    if viewer is not None:
        check_seat(state.game, viewer)
    chosen = engine if engine is not None and not isinstance(engine, str) else get_engine(state.game, engine)
    return chosen.analyse(state, viewer=viewer, limit=Limit.of(limit), progress=progress, stop=stop)


def default_engine_name(game: Game) -> str:
    """The engine `analyse` uses for `game`: its solved table when it declares one and the
    table is built, else Fairy-Stockfish when the game declares FAIRY_STOCKFISH_VARIANT and the
    engine is installed and plays our rules, else the tree search."""
    for name in ENGINE_NAMES[:2]:
        try:
            get_engine(game, name)
            return name
        except RulesError:
            continue
    return "ismcts"


def get_engine(game: Game, name: str | None = None) -> Engine:
    """The engine `name` for `game` (opened once and kept); RulesError saying why it cannot
    serve (the table not built, Fairy-Stockfish not installed, a game it does not play).
    Without a name: the game's default (`default_engine_name`); for a game that declares a
    Fairy-Stockfish variant and has no table ready, a DefaultEngine (Fairy-Stockfish, the
    tree search where it fails)."""
    if name is None:
        name = default_engine_name(game)
        if name != "table" and type(game).FAIRY_STOCKFISH_VARIANT is not None:
            return DefaultEngine(game)
    name = ENGINE_ALIASES.get(name, name)
    if name == "ismcts":
        return TreeSearchEngine()
    if name not in ENGINE_NAMES:
        names = ", ".join(f"{n} ({a})" if a else n for n, a in _names_with_aliases())
        raise RulesError(f"unknown engine {name!r}; engines: {names}")
    key = (name, _engine_key(game, name))
    identity = _fsf.binary_identity() if name == "fairy-stockfish" else None
    with _LOCK:
        opening = _OPENING.setdefault(key, threading.Lock())
    # one engine opens at a time per key; others (a table while Fairy-Stockfish takes its
    # start-up deadline) are not held up
    with opening:
        with _LOCK:
            if key in _OPEN:
                return _OPEN[key]
            if key in _UNAVAILABLE:
                refusal, depended, when = _UNAVAILABLE[key]
                if name == "table" or (depended == identity and time.monotonic() - when < _fsf.RETRY_AFTER):
                    kind = EngineError if isinstance(refusal, EngineError) else RulesError
                    raise kind(str(refusal))
        try:
            opened = _open_table(game) if name == "table" else _open_fairy_stockfish(game)
        except RulesError as exc:
            with _LOCK:
                _UNAVAILABLE[key] = (exc, identity, time.monotonic())
            raise
        with _LOCK:
            _UNAVAILABLE.pop(key, None)
            _OPEN[key] = opened
        return opened


def _names_with_aliases() -> list[tuple[str, str]]:
    return [(n, "/".join(a for a, full in ENGINE_ALIASES.items() if full == n)) for n in ENGINE_NAMES]


#: the default analysis gives Fairy-Stockfish a rest after this many failures in a row
FAILURES_BEFORE_A_REST = 2
# the default analysis' Fairy-Stockfish failures per variant: (why, the binary, when, in a row)
_FAILED: dict[str, tuple[str, tuple, float, int]] = {}


class DefaultEngine:
    """The default analysis of a game that declares a Fairy-Stockfish variant: the engine
    when it can answer, else the tree search, with the reason in `search.notes` (the engine
    not installed, not a program, crashed, hung, or sent garbage: every EngineError). The
    next analysis asks the engine again (after a crash: a fresh process); after
    FAILURES_BEFORE_A_REST failures in a row the tree search answers at once for RETRY_AFTER
    seconds (a game's report must not wait out a hung engine's deadline at every position),
    unless the binary changes."""

    name = "fairy-stockfish"

    def __init__(self, game: Game) -> None:
        self.game = game
        self.fallback = TreeSearchEngine()

    def analyse(
        self,
        state: State,
        *,
        viewer: int | None = None,
        limit: Limit | None = None,
        progress: Callable[[Analysis], None] | None = None,
        stop: StopFlag | None = None,
    ) -> Analysis:
        variant = type(self.game).FAIRY_STOCKFISH_VARIANT
        identity = _fsf.binary_identity()
        why, binary, when, failures = _FAILED.get(variant, (None, None, 0.0, 0))
        resting = (
            failures >= FAILURES_BEFORE_A_REST
            and binary == identity
            and time.monotonic() - when < _fsf.RETRY_AFTER
        )
        if not resting:
            try:
                engine = get_engine(self.game, "fairy-stockfish")
                result = engine.analyse(state, viewer=viewer, limit=limit, progress=progress, stop=stop)
                _FAILED.pop(variant, None)
                return result
            except EngineError as exc:
                why, failures = str(exc), (failures if binary == identity else 0) + 1
                _FAILED[variant] = (why, identity, time.monotonic(), failures)
        result = self.fallback.analyse(state, viewer=viewer, limit=limit, progress=progress, stop=stop)
        note = f"Fairy-Stockfish could not answer, so the tree search did: {why}"
        return replace(result, search=replace(result.search, notes=(*result.search.notes, note)))

    def close(self) -> None:
        """Nothing of its own: the engine it uses is kept by get_engine (close_engines)."""


def _engine_key(game: Game, name: str) -> str:
    return game.id if name == "table" else (type(game).FAIRY_STOCKFISH_VARIANT or game.id)


def _open_table(game: Game) -> TableEngine:
    """The game's declared solved table (`Game.SOLVED_TABLE`, opened by `parts.open_solved_table`)."""
    if info(game).solved_table is None:
        raise RulesError(f"{game.id} declares no solved table")
    return TableEngine(parts.open_solved_table(game))


def _open_fairy_stockfish(game: Game) -> FairyStockfishEngine:
    variant = type(game).FAIRY_STOCKFISH_VARIANT
    if variant is None:
        raise RulesError(
            f"Fairy-Stockfish does not analyse {game.id} here "
            f"(it does: {', '.join(sorted(fairy_stockfish_variants()))})"
        )
    return FairyStockfishEngine(game, variant)


def close_engines() -> None:
    """Close every engine `get_engine` opened (the subprocesses quit; the tables are freed)
    and forget which were unavailable (an engine installed since is found again)."""
    with _LOCK:
        engines = list(_OPEN.values())
        _OPEN.clear()
        _UNAVAILABLE.clear()
        _FAILED.clear()
    for engine in engines:
        engine.close()


atexit.register(close_engines)
