"""What is on the table, as plain data: the only thing a game tells the drawing code.

A game's scene part (`rules_kernel.parts.scene(state, perspective)`) returns a `Scene`. The
widgets draw any scene: square grids and hex maps, tokens on cells (pieces, cards, coin
stacks), and side zones (hands, reserves, bags, discard piles, supplies). Cells and zone items
have string ids; a Move's `cells` names those ids in click order, which is all the generic
explorer needs.

Coordinates: on a square layout `Cell.x` is the file (0 = the first player's left) and
`Cell.y` the rank (0 = the first player's side). On a hex layout they are axial (x, y)
as in `rules/NOTES.md` (War Chest). The drawing code turns them into pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: Zone-item ids are "zone-id:item-key"; these helpers keep the convention in one place.
ZONE_SEPARATOR = ":"


def zone_cell(zone_id: str, key: str) -> str:
    return f"{zone_id}{ZONE_SEPARATOR}{key}"


@dataclass(frozen=True)
class Cell:
    """A board cell. `shade` marks special cells ("zone", "location", "start-0", ...)."""

    id: str
    x: int
    y: int
    shade: str | None = None
    #: owner of a control marker or similar on the cell (None: nobody)
    marker: int | None = None
    label: str = ""


@dataclass(frozen=True)
class Token:
    """Something on a cell: a piece, a card, a coin stack."""

    cell: str
    name: str  # full name, in the rulebook's words ("Kodama Samurai")
    symbol: str  # a short mark for the drawing ("C", "+C", "Ar")
    owner: int | None = None
    facing: int = 0  # 0: towards the far side (the first player's pieces), 1: towards rank 0
    promoted: bool = False
    face_down: bool = False
    height: int = 1  # coins in a stack
    kind: str = "piece"  # "piece", "card", "coin", "marker"
    color: str | None = None  # a suit/kamon/army colour name, when the game has one
    flags: tuple[str, ...] = ()  # small badges ("nobori", "elite", ...)
    #: the directions the piece steps, as (dx, dy) on the board (dy > 0: towards the last
    #: rank), for games whose pieces show them (Yōkai pieces carry dots for them)
    steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ZoneItem:
    """One entry of a side zone: a piece type in hand with its count, a coin, a card."""

    cell: str  # clickable id (zone_cell(zone, key)); moves from here name it first
    name: str
    symbol: str
    count: int = 1
    owner: int | None = None
    face_down: bool = False
    color: str | None = None


@dataclass(frozen=True)
class Zone:
    """A named area beside the board: a hand, a reserve, a bag, a discard pile, a supply."""

    id: str
    title: str
    owner: int | None = None
    items: tuple[ZoneItem, ...] = ()
    #: shown when the items are hidden (a bag of 7 coins; a reserve of 11 cards)
    hidden_count: int = 0


@dataclass(frozen=True)
class Scene:
    game: str
    layout: Literal["square", "hex"]
    cells: tuple[Cell, ...]
    tokens: tuple[Token, ...] = ()
    zones: tuple[Zone, ...] = ()
    players: tuple[str, ...] = ()
    to_move: int | None = None  # None at a chance node or the end
    status: str = ""  # a line of text: whose turn, or how the game ended
    perspective: int | None = None
    #: the last action's cells, for a "last move" highlight
    last_cells: tuple[str, ...] = field(default=())

    def token_at(self, cell: str) -> Token | None:
        for token in self.tokens:
            if token.cell == cell:
                return token
        return None

    def cell_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cells)
