"""Nim, a whole game in one file: the example of docs/kernel.md, "Adding a game".

A pile of counters; the players take turns taking 1 to 3 of them (the option `most`);
whoever takes the last counter wins.

From the project's folder:

    rules-explorer check-game examples.nim:Nim

    import rules_kernel as rk
    from examples.nim import Nim

    rk.register_game(Nim)
    state = rk.load_game("nim", counters=7).initial_state().play("take 3", "take 1")
    state.to_text()                     # '3 0': 3 counters left, the first player to take
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from rules_kernel.core import Game, Move, Option, Outcome, State
from rules_kernel.position_text import FieldError, named_fields, read_position, whole_number
from rules_kernel.scene import Cell, Scene, Token


@dataclass(frozen=True, repr=False)  # repr: Take('take 1'), the notation (Action.__repr__)
class Take(Move):
    """Take `count` counters off the top of the pile. `cells`: what a player clicks to do it,
    the lowest counter taken (the board widget turns that click into this move)."""

    count: int
    cells: tuple[str, ...]

    def __str__(self) -> str:  # the notation: what records keep and `state.apply` takes
        return f"take {self.count}"


def _from(low: int, high: int) -> Callable[[int], int]:
    """An option's check: a number from `low` to `high` (a ValueError says what is wrong)."""

    def check(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"from {low} to {high}, not {value}")
        return value

    return check


@dataclass(frozen=True, repr=False)
class NimState(State):
    """A position: the counters left and the side to take. Immutable; equal by position."""

    game: Nim
    left: int
    side: int
    #: the counters the last move took: a drawing hint, not part of the position
    last: tuple[str, ...] = field(default=(), compare=False)

    @property
    def current_player(self) -> int:
        return self.side

    def legal_moves(self) -> list[Move]:
        most = min(self.game.options["most"], self.left)  # none once the pile is empty
        return [Take(k, (f"c{self.left - k + 1}",)) for k in range(1, most + 1)]

    def _successor(self, action: Move) -> NimState:
        assert isinstance(action, Take)  # apply has checked it is one of legal_moves()
        taken = tuple(f"c{i}" for i in range(self.left - action.count + 1, self.left + 1))
        return self.replaced(left=self.left - action.count, side=1 - self.side, last=taken)

    def _compute_outcome(self) -> Outcome | None:
        if self.left == 0:
            return Outcome.win(1 - self.side, "took the last counter")
        return None

    def to_text(self) -> str:
        return f"{self.left} {self.side}"


class NimBoard:
    """The "scene" part: what the board shows (rules_kernel.parts.ScenePart)."""

    @staticmethod
    def scene(state: NimState, perspective: int | None = None) -> Scene:
        """A row of cells c1, c2, ... with a counter on each one left."""
        names = state.game.player_names
        cells = tuple(Cell(f"c{i}", i - 1, 0) for i in range(1, state.game.options["counters"] + 1))
        tokens = tuple(Token(f"c{i}", "Counter", "o") for i in range(1, state.left + 1))
        outcome = state.outcome()
        if outcome is None:
            status = f"{names[state.side]} to take ({state.left} left)"
        else:
            status = f"{names[outcome.winner]} wins: {outcome.reason}"
        return Scene(
            state.game.id,
            "square",
            cells,
            tokens,
            players=names,
            to_move=None if outcome else state.side,
            status=status,
            perspective=perspective,
            last_cells=state.last,
        )


class NimTheory:
    """The "heuristic" part (optional), for the greedy agent: the side to move loses when the
    pile is a multiple of most + 1, so the greedy agent plays Nim perfectly."""

    def heuristic(self, state: State, player: int) -> float:
        assert isinstance(state, NimState)
        losing = state.left % (state.game.options["most"] + 1) == 0
        for_mover = -0.5 if losing else 0.5
        return for_mover if player == state.side else -for_mover


class Nim(Game):
    """The game and its options; `initial_state` and `from_text` make its positions."""

    id = "nim"
    title = "Nim"
    # what the game is (rk.info("nim")): nothing hidden, no chance, nothing forgotten; and the
    # parts it brings besides its rules (rules_kernel.info.PARTS), each named to its object:
    # the position text is NimState's hooks, the board NimBoard's, the heuristic NimTheory's
    HIDDEN_INFORMATION = False
    CHANCE = False
    MEMORY = False
    PARTS: ClassVar[dict[str, object]] = {
        "position text": NimState,
        "scene": NimBoard,
        "heuristic": NimTheory(),
    }
    OPTIONS: ClassVar[dict[str, Option]] = {
        "counters": Option(12, "counters in the pile at the start", kind=int, check=_from(1, 30)),
        "most": Option(3, "the most counters a turn may take", kind=int, check=_from(1, 9)),
    }

    def initial_state(self) -> NimState:
        return NimState(self, left=self.options["counters"], side=0)

    def from_text(self, text: str) -> NimState:
        """A position from its text, '7 1': the counters left and the side to take (0, 1).
        Anything else is a PositionTextError naming the field."""
        return read_position(self.id, text, self._parse)

    def _parse(self, fields: list[str]) -> NimState:
        named = named_fields(fields, ("left", "side"))
        left = whole_number(named["left"], "left")
        if left > self.options["counters"]:
            raise FieldError("left", f"{left} counters; the pile starts with {self.options['counters']}")
        if named["side"] not in ("0", "1"):
            raise FieldError("side", f"{named['side']!r}: 0 (the first player) or 1")
        return NimState(self, left=left, side=int(named["side"]))
