"""The values every engine returns: estimates, ranked moves, what was searched, limits.

A value is always for one player and always on one scale: the *expected score* in [0, 1],
where a win counts 1, a draw 1/2 and a loss 0 (in a game without draws it is the win
probability; "win probability" below means this expected score). Engines that know more say
so: the table gives an exact result and its distance, Fairy-Stockfish its centipawns or a
mate, the tree search a 95% interval from its playouts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rules_kernel.core import Outcome, State

WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class Estimate:
    """A position's or a move's value for one player.

    `win_probability`: the expected score in [0, 1] (a draw counts half). `margin`: half the
    width of its 95% interval (tree search), 0.0 when the value is exact, None when the engine
    gives no uncertainty (a Fairy-Stockfish score). `result` and `plies`: the result with
    perfect play and the plies to the end, when the engine claims one (a table value, a mate);
    `exact` says whether that claim holds in this project's rules."""

    win_probability: float
    margin: float | None = None
    result: str | None = None
    plies: int | None = None
    exact: bool = False
    cp: int | None = None

    def __str__(self) -> str:
        if self.result is not None:
            decided = self.plies is not None and self.result != DRAW
            claim = f"{self.result} in {self.plies}" if decided else self.result
            return claim if self.exact else f"{claim} (engine)"
        shown = f"{self.win_probability:.1%}"
        if self.margin is not None:
            shown += f" ± {self.margin:.1%}"
        return shown if self.cp is None else f"{shown} ({self.cp:+d} cp)"

    def flipped(self) -> Estimate:
        """The same value for the opponent (two sides, zero sum): one ply earlier when it is
        the value of the position a move leads to."""
        result = {WIN: LOSS, LOSS: WIN}.get(self.result, self.result)
        plies = None if self.plies is None else self.plies + 1
        cp = None if self.cp is None else -self.cp
        return Estimate(1.0 - self.win_probability, self.margin, result, plies, self.exact, cp)

    def sort_key(self) -> tuple[int, float]:
        """Smaller is better for the player: quick wins, then by expected score (draws at
        1/2 among the estimates), then slow losses."""
        if self.result == WIN and self.plies is not None:
            return (0, self.plies)
        if self.result == LOSS and self.plies is not None:
            return (2, -self.plies)
        return (1, -self.win_probability)


def exact(result: str, plies: int | None) -> Estimate:
    """An exact result for the player: win, draw or loss in `plies` (None for a draw)."""
    score = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}[result]
    return Estimate(score, 0.0, result, None if result == DRAW else plies, True)


def of_outcome(outcome: Outcome, player: int) -> Estimate:
    """A finished game's value for `player` (0 plies); an unfinished game (a cap) scores 1/2
    without a result, as neither a win nor a draw."""
    if not outcome.finished:
        return Estimate(0.5, 0.0)
    if outcome.winner is None:
        return exact(DRAW, None)
    return exact(WIN if player in outcome.winners else LOSS, 0)


@dataclass(frozen=True)
class MoveLine:
    """One legal move with its value for the player who makes it and the line that follows.

    `move` is the notation (`state.apply(move)` plays it); `visits` counts the tree search's
    iterations through it (0 for the other engines)."""

    move: str
    value: Estimate
    line: tuple[str, ...] = ()
    visits: int = 0


@dataclass(frozen=True)
class Search:
    """What was searched: the engine, `nodes` (positions; a table lookup counts one),
    `playouts` (tree search iterations), `depth` (plies, Fairy-Stockfish's iteration or the
    table's history search), the wall time, whether the value is exact in this project's
    rules, and whether the search was cut short by the stop flag."""

    engine: str
    nodes: int = 0
    playouts: int = 0
    depth: int = 0
    seconds: float = 0.0
    exact: bool = False
    stopped: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """An engine's answer for one position.

    `player`: whose value `value` is (the player to move; at a chance node or a finished game
    the viewer, else player 0). `values`: the expected score of every seat. `moves`: the legal
    moves, best first, each valued for `player`. `line`: the principal line from here."""

    game: str
    position: str
    player: int
    value: Estimate
    values: tuple[float, ...]
    moves: tuple[MoveLine, ...]
    line: tuple[str, ...]
    search: Search
    viewer: int | None = None

    @property
    def best(self) -> MoveLine | None:
        return self.moves[0] if self.moves else None

    def move(self, notation: str) -> MoveLine | None:
        """The ranked entry of one move, by its notation."""
        return next((m for m in self.moves if m.move == notation), None)


@dataclass(frozen=True)
class Limit:
    """How much to search: stop at the first bound reached (None: no bound of that kind).

    `seconds` of wall time; `nodes` (Fairy-Stockfish nodes, table positions); `playouts`
    (tree search iterations); `depth` (Fairy-Stockfish iterations, table history-search
    plies). `lines`: how many moves Fairy-Stockfish ranks (MultiPV; None: every move)."""

    seconds: float | None = 1.0
    nodes: int | None = None
    playouts: int | None = None
    depth: int | None = None
    lines: int | None = None

    @classmethod
    def of(cls, limit: Limit | float | int | None) -> Limit:
        """A Limit from a Limit, a number of seconds, or None (the default: one second)."""
        if limit is None:
            return cls()
        if isinstance(limit, Limit):
            return limit
        if isinstance(limit, (int, float)) and not isinstance(limit, bool) and limit > 0:
            return cls(seconds=float(limit))
        raise ValueError(f"limit must be a Limit or a positive number of seconds, not {limit!r}")


@runtime_checkable
class StopFlag(Protocol):
    """A threading.Event or anything with is_set()."""

    def is_set(self) -> bool: ...


@runtime_checkable
class Engine(Protocol):
    """What every engine offers: `analyse` one position; `close` what it holds."""

    name: str

    def analyse(
        self, state: State, *, viewer: int | None, limit: Limit, progress=None, stop: StopFlag | None = None
    ) -> Analysis: ...

    def close(self) -> None: ...


def score_margin(mean: float, n: int) -> float:
    """Half the width of a 95% normal interval of a mean score in [0, 1] over n playouts;
    a playout's score is 0, 1/2 or 1, so its variance is at most mean * (1 - mean)."""
    if n <= 0:
        return 0.5
    return min(0.5, 1.96 * math.sqrt(max(mean * (1.0 - mean), 0.0) / n) + 0.5 / n)


def cp_to_win_probability(cp: int) -> float:
    """Centipawns to an expected score: the logistic curve lichess fitted on chess games
    (1 / (1 + exp(-0.00368208 cp))); a convention, not fitted on these games. Written so
    that no score overflows (an engine may claim any number of centipawns)."""
    x = 0.00368208 * cp
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    return math.exp(x) / (1.0 + math.exp(x))
