"""A table's values: `Value` (a result and its distance) and `MoveValue`. Light on purpose
(no numpy): the analysis engine and the pages import them without the table itself, as a
static site's kernel (Pyodide, where numpy is not shipped) must.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kernel.core import Move


@dataclass(frozen=True)
class Value:
    """A position's value for the player to move: 'win', 'draw' or 'loss', and the plies to
    the end under perfect play (the winner hurries, the loser delays; None for a draw; 0 when
    the game is over)."""

    result: str
    plies: int | None

    def __str__(self) -> str:
        return "draw" if self.plies is None else f"{self.result} in {self.plies}"

    def after_move(self) -> Value:
        """The value one ply earlier, for the player who made the move that led here."""
        if self.plies is None:
            return self
        return Value("loss" if self.result == "win" else "win", self.plies + 1)

    def sort_key(self) -> tuple[int, int]:
        """Smaller is better for the mover: quick wins, then draws, then slow losses (then
        the unknown)."""
        if self.result == "win":
            return (0, self.plies)
        if self.result == "draw":
            return (1, 0)
        if self.result == "loss":
            return (2, -self.plies)
        return (3, 0)


# best_moves only: a move out of the solved set that a short search does not settle
UNKNOWN = Value("unknown", None)


@dataclass(frozen=True)
class MoveValue:
    """A legal move and the value it leads to, from the side of the player who makes it."""

    move: Move
    value: Value
