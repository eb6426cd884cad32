"""The solved table as an engine: exact values, and exact with the game's history.

The table (rules_kernel.tablebase) ignores history: its values are those of a game that
starts at the position. A real game carries its history, and the repetition rule (the same
position `repetitions` times is a draw) can change a value. Three facts make that cheap:

1. A move that ends the game (capture, try, repetition) takes its value from the rules: the
   kernel's child state is over, and `outcome()` says how (a repetition is a draw).
2. A history can only turn a decisive value into a draw, never a draw into a win: the
   defender's drawing strategy still draws when some plays end earlier in a draw, and the
   winner's winning strategy can still not lose.
3. Along the winner's table strategy every position is closer to the end than the one
   before (win in d, loss in d-1, win in d-2, ...), so no position repeats within the line;
   only a position that already occurred `repetitions - 1` times (a *hot* position) can
   end it in a draw, and only one that sits on that ladder: the winner to move and a win in
   fewer than d plies, or the loser to move and a loss in fewer than d plies.

So a table value is exact with the history unless a hot position of the history fits the
ladder. Such a position (rare: a game that went round in circles) is searched ply by ply
over the kernel's own states, which carry the history and apply the rule, until every leaf
is safe or the limit is reached (then the value is marked not exact). Positions outside the
solved set (reached only after a player declined to take the Koropokkuru) are searched the
same way until the table settles them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from rules_kernel import parts
from rules_kernel.analysis._types import (
    DRAW,
    LOSS,
    WIN,
    Analysis,
    Estimate,
    Limit,
    MoveLine,
    Search,
    StopFlag,
    of_outcome,
)
from rules_kernel.core import Game, State
from rules_kernel.tablebase import MoveValue, TablebaseError, Value

if TYPE_CHECKING:  # the table itself needs numpy: imported where a table is opened
    from rules_kernel.tablebase import Tablebase

#: the principal line is followed this many plies at most (the rest is the same table walk)
LINE_PLIES = 40
UNKNOWN = Value("unknown", None)


class _Budget:
    """The limit as counters the search checks between positions."""

    def __init__(self, limit: Limit, stop: StopFlag | None) -> None:
        self.started = time.perf_counter()
        self.limit, self.stop = limit, stop
        self.nodes = 0
        self.stopped = False

    def spent(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            self.stopped = True
        elif self.limit.seconds is not None and time.perf_counter() - self.started > self.limit.seconds:
            self.stopped = True
        elif self.limit.nodes is not None and self.nodes >= self.limit.nodes:
            self.stopped = True
        return self.stopped


class TableEngine:
    """Exact analysis of Yōkai 3x4 from the solved table, with the game's history."""

    name = "table"

    def __init__(self, tablebase: Tablebase) -> None:
        self.tablebase = tablebase

    def close(self) -> None:
        """Nothing to release (the table is memory the garbage collector frees)."""

    # the quick questions: a page asks them on every redraw (perfect play's status line and
    # target marks, widgets/explorer/perfect_play.py), so they answer at once from the table,
    # in the calling thread, with no search and no limit
    def value(self, state: State) -> Value:
        """`state`'s value for the player to move, as the table stores it: a lookup, no
        search. The table ignores the history (module docstring); `analyse` gives the value
        with it. TablebaseError (a RulesError) for a position outside the solved set that a
        short search does not settle, or a state of another game."""
        return self.tablebase.value(state)

    def move_values(self, state: State) -> list[MoveValue]:
        """Every legal move of `state` with the value it leads to for its mover, as the table
        stores it, best first; a move that leaves the solved set unsettled is UNKNOWN (last).
        As `value`: no history, no search beyond the table's own; TablebaseError for a state
        of another game."""
        return self.tablebase.best_moves(state)

    def analyse(
        self,
        state: State,
        *,
        viewer: int | None = None,
        limit: Limit | None = None,
        progress: Callable[[Analysis], None] | None = None,
        stop: StopFlag | None = None,
    ) -> Analysis:
        limit = limit or Limit()
        state = state if viewer is None else state.view(viewer)  # the same: no secrets
        budget = _Budget(limit, stop)
        search = _HistorySearch(self.tablebase, state, budget)
        if state.is_terminal():
            return self._result(state, viewer, [], search, depth=0)
        moves = state.legal_moves()
        rated: list[tuple[str, Value, bool]] = []
        max_depth = limit.depth if limit.depth is not None else 64
        depth = 0
        while True:
            rated = [(str(m), *search.move_value(state, m, depth)) for m in moves]
            if all(ok for _, _, ok in rated) or depth >= max_depth or budget.spent():
                break
            depth += 1
            if progress is not None:
                progress(self._result(state, viewer, rated, search, depth))
        result = self._result(state, viewer, rated, search, depth)
        if progress is not None:
            progress(result)
        return result

    def _result(
        self,
        state: State,
        viewer: int | None,
        rated: list[tuple[str, Value, bool]],
        search: _HistorySearch,
        depth: int,
    ) -> Analysis:
        player = state.current_player if not state.is_terminal() else (viewer or 0)
        if state.is_terminal():
            value = of_outcome(state.outcome(), player)
            lines: list[MoveLine] = []
        else:
            ordered = sorted(rated, key=lambda r: (r[1].sort_key(), not r[2], r[0]))
            lines = [MoveLine(move, _estimate(v, ok)) for move, v, ok in ordered]
            value = lines[0].value
            best_line = (lines[0].move, *search.line(state.apply(lines[0].move)))
            lines[0] = MoveLine(lines[0].move, lines[0].value, best_line)
        exact_all = combine([(v, ok) for _, v, ok in rated])[1] if rated else True
        values = (value.win_probability, 1.0 - value.win_probability)
        if player == 1:
            values = values[::-1]
        spent = round(time.perf_counter() - search.budget.started, 6)
        return Analysis(
            state.game.id,
            state.to_text(),
            player,
            value,
            values,
            tuple(lines),
            lines[0].line if lines else (),
            Search(
                self.name,
                nodes=search.budget.nodes,
                depth=depth,
                seconds=spent,
                exact=exact_all,
                stopped=search.budget.stopped,
                notes=tuple(search.notes),
            ),
            viewer,
        )


def availability(game: Game) -> str:
    """Whether the table engine can serve `game` here, without opening anything (a few file
    checks): "ready" (`get_engine(game, "table")` opens it), "preparing" (being built or
    unpacked: ask again later) or "absent" (the game declares no solved table, or this site
    has none or does not offer perfect play). Ask it before `get_engine(game, "table")`: a
    table refused there stays refused until `close_engines()`."""
    return parts.solved_table_availability(game)


def _estimate(value: Value, exact: bool) -> Estimate:
    if value.result == "unknown":
        return Estimate(0.5, None, None, None, False)
    score = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}[value.result]
    return Estimate(score, 0.0 if exact else None, value.result, value.plies, exact)


class _HistorySearch:
    """Values of kernel states by the table, checked against the history (module docstring)."""

    def __init__(self, tablebase: Tablebase, root: State, budget: _Budget) -> None:
        self.tb, self.budget = tablebase, budget
        self.needed = root.game.options["repetitions"] - 1  # a position seen this often is hot
        self.history = dict(root.position_counts())  # the game so far: the kernel's repetition counts
        self.hot_values: dict[bytes, Value] = {}
        self.notes: list[str] = []

    def move_value(self, state: State, move, depth: int) -> tuple[Value, bool]:
        """The value of `move` for the player who makes it, and whether it is exact."""
        child = state.apply(move)
        value, ok = self.value(child, depth, (child.position_key,))
        return value.after_move(), ok

    def value(self, state: State, depth: int, path: tuple[bytes, ...]) -> tuple[Value, bool]:
        """(value for the player to move, exact?) searching `depth` plies where needed."""
        self.budget.nodes += 1
        if state.is_terminal():
            return self.tb.value(state), True
        try:
            stored = self.tb.value(state)
        except TablebaseError:
            stored = UNKNOWN  # outside the solved set: only a search can say
        if stored.result != "unknown" and self._safe(state, stored, path):
            return stored, True
        if depth <= 0 or self.budget.spent():
            return stored, False
        children = []
        for move in state.legal_moves():
            child = state.apply(move)
            value, ok = self.value(child, depth - 1, (*path, child.position_key))
            children.append((value.after_move(), ok))
        return combine(children)

    def _safe(self, state: State, value: Value, path: tuple[bytes, ...]) -> bool:
        """True when no hot position lies on the winner's ladder below `value` (a draw is
        always safe)."""
        if value.result == DRAW:
            return True
        winner = state.current_player if value.result == WIN else 1 - state.current_player
        here = path[-1] if path else state.position_key
        for key in self._hot(path):
            if key == here:
                continue  # the ladder never comes back to where it starts
            hot = self._hot_value(key, state)
            if hot.result == "unknown":
                return False
            mover = key[-1]
            on_ladder = hot.result == WIN if mover == winner else hot.result == LOSS
            if on_ladder and hot.plies is not None and hot.plies < value.plies:
                return False
        return True

    def _hot(self, path: tuple[bytes, ...]) -> Iterator[bytes]:
        """Positions seen `repetitions - 1` times or more by the end of `path`."""
        extra: dict[bytes, int] = {}
        for key in path:
            extra[key] = extra.get(key, 0) + 1
        for key, count in self.history.items():
            if count + extra.pop(key, 0) >= self.needed:
                yield key
        for key, count in extra.items():
            if count >= self.needed:
                yield key

    def _hot_value(self, key: bytes, like: State) -> Value:
        if key not in self.hot_values:
            try:
                self.hot_values[key] = self.tb.value(type(like).from_position_key(like.game, key))
            except TablebaseError:
                self.hot_values[key] = UNKNOWN
            position = type(like).from_position_key(like.game, key).to_text()
            self.notes.append(f"hot position {position}: {self.hot_values[key]}")
        return self.hot_values[key]

    def line(self, state: State) -> tuple[str, ...]:
        """The principal line from `state`: the best move by the table at each ply (moves
        that end the game valued by the rules), until the end or LINE_PLIES."""
        moves: list[str] = []
        while not state.is_terminal() and len(moves) < LINE_PLIES:
            rated = [(self.move_value(state, m, 0)[0], str(m), m) for m in state.legal_moves()]
            _, notation, move = min(rated, key=lambda r: (r[0].sort_key(), r[1]))
            moves.append(notation)
            state = state.apply(move)
        return tuple(moves)


def upper_bound(value: Value) -> Value:
    """The best a move's true value can be when `value` (for its mover) is not exact: a
    history only turns decisive values into draws and never speeds a win up (module
    docstring), so a loss may be a draw at best and a win stays the best case; a move
    the table could not value may be anything."""
    if value.result == "unknown":
        return Value(WIN, 1)
    return Value(DRAW, None) if value.result == LOSS else value


def combine(children: list[tuple[Value, bool]]) -> tuple[Value, bool]:
    """A position's value from its moves' (values for its mover, exact?): the best, exact
    when the best exact move is at least as good as the best case of every other."""
    best = min((value for value, _ in children), key=Value.sort_key)
    exact_values = [value for value, ok in children if ok]
    if not exact_values:
        return best, False
    sure = min(exact_values, key=Value.sort_key)
    settled = all(upper_bound(value).sort_key() >= sure.sort_key() for value, ok in children if not ok)
    return (sure, True) if settled else (best, False)
