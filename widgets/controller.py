"""Clicks -> moves, for any game: a Move names the cells it touches in click order.

Click a cell: the moves starting there are the candidates, and the next cells they touch
light up. Click one of those: when exactly one move has exactly these cells, it is played;
when several do (promote or not), they are offered as choices. Clicking anything else
starts over from that cell.

Two more ways in (issue 46 item 1):
- a move may be played from a zone item its cells do not name (`sources`: To War!'s card just
  drawn goes where a square is clicked): clicking that item selects it and lights the cells
  its moves start from;
- when every move starts from one cell and goes on from it (a unit being pushed, a follow-up
  of one piece), `continue_forced` selects that cell at once, so its targets are lit without a
  click.
"""

from __future__ import annotations

from collections.abc import Mapping
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
        self.source = ""
        self.sources: Mapping[Move, str] = {}

    # the attributes a subclass made without `reset` may lack
    source: str = ""
    sources: Mapping[Move, str] = {}

    @property
    def selected(self) -> tuple[str, ...]:
        """The cells shown as chosen: the item played from (if any), then the cells clicked."""
        return ((self.source,) if self.source else ()) + self.prefix

    def _pool(self) -> list[Move]:
        if not self.source:
            return list(self.moves)
        return [m for m in self.moves if self.sources.get(m) == self.source]

    def candidates(self) -> list[Move]:
        n = len(self.prefix)
        return [m for m in self._pool() if tuple(m.cells[:n]) == self.prefix]

    def next_cells(self) -> tuple[str, ...]:
        n = len(self.prefix)
        cells = {m.cells[n] for m in self.candidates() if len(m.cells) > n}
        return tuple(sorted(cells))

    def first_cells(self) -> tuple[str, ...]:
        return tuple(sorted({m.cells[0] for m in self.moves if m.cells}))

    def source_cells(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.sources.values())))

    def click(self, cell: str) -> ClickResult:
        if (self.prefix or self.source) and cell in self.next_cells():
            self.prefix = self.prefix + (cell,)
        elif cell in self.first_cells():
            self.prefix, self.source = (cell,), ""
        elif cell in self.source_cells():
            self.prefix, self.source = (), cell
            return ClickResult("select")
        else:
            self.prefix, self.source = (), ""
            return ClickResult("clear")
        return self._settle()

    def clear(self) -> None:
        self.prefix, self.source = (), ""

    def continue_forced(self) -> ClickResult | None:
        """Select the one cell every move of more than one click starts from (the piece that
        goes on: its next cells are then lit at once); the moves of one click (take control
        there, Done, stop) are offered as choices. None when those moves start from several
        cells, or there are none."""
        firsts = {m.cells[0] for m in self.moves if len(m.cells) > 1}
        if len(firsts) != 1:
            return None
        self.prefix, self.source = (firsts.pop(),), ""
        complete = tuple(m for m in self.moves if len(m.cells) == 1)
        return ClickResult("choose", choices=complete) if complete else ClickResult("select")

    def _settle(self) -> ClickResult:
        candidates = self.candidates()
        complete = tuple(m for m in candidates if len(m.cells) == len(self.prefix))
        if len(complete) == 1 and len(candidates) == 1:
            self.prefix, self.source = (), ""
            return ClickResult("move", complete[0])
        if complete:  # some moves end here, others go on: offer the finished ones as choices
            return ClickResult("choose", choices=complete)
        return ClickResult("select")
