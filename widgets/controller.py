"""Clicks -> moves, for any game: a Move names the cells it touches in click order.

Click a cell: the moves starting there are the candidates, and the next cells they touch
light up. Click one of those: when exactly one move has exactly these cells, it is played;
when several do (promote or not), they are offered as choices. Clicking anything else
starts over from that cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_kernel.core import Move, State


@dataclass(frozen=True)
class ClickResult:
    kind: str  # "select", "move", "choose", "clear"
    move: Move | None = None
    choices: tuple[Move, ...] = ()


class ClickController:
    def __init__(self, state: State) -> None:
        self.reset(state)

    def reset(self, state: State) -> None:
        self.state = state
        self.moves = state.legal_moves()
        self.prefix: tuple[str, ...] = ()

    def candidates(self) -> list[Move]:
        n = len(self.prefix)
        return [m for m in self.moves if tuple(m.cells[:n]) == self.prefix]

    def next_cells(self) -> tuple[str, ...]:
        n = len(self.prefix)
        cells = {m.cells[n] for m in self.candidates() if len(m.cells) > n}
        return tuple(sorted(cells))

    def first_cells(self) -> tuple[str, ...]:
        return tuple(sorted({m.cells[0] for m in self.moves if m.cells}))

    def click(self, cell: str) -> ClickResult:
        if self.prefix and cell in self.next_cells():
            self.prefix = self.prefix + (cell,)
        elif cell in self.first_cells():
            self.prefix = (cell,)
        else:
            self.prefix = ()
            return ClickResult("clear")
        return self._settle()

    def _settle(self) -> ClickResult:
        candidates = self.candidates()
        complete = tuple(m for m in candidates if len(m.cells) == len(self.prefix))
        if len(complete) == 1 and len(candidates) == 1:
            self.prefix = ()
            return ClickResult("move", complete[0])
        if complete:  # some moves end here, others go on: offer the finished ones as choices
            return ClickResult("choose", choices=complete)
        return ClickResult("select")
