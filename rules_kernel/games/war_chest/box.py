"""What is in the box: the unit types and their coins, the two maps (axial hexes), the draft
order; and the notation of an action (`Order`). Everything else of the game builds on these."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules_kernel.core import Move

Hex = tuple[int, int]
Unit = tuple[int, str, int]  # (owner, type, coins in the stack)
Pending = tuple[str, int, Any]  # (kind, player, detail): a follow-up inside the current turn

# --- the units: coins per type (NOTES.md), names as the cards say them -----------------------

COINS = {
    "archer": 4,
    "berserker": 5,
    "cavalry": 4,
    "crossbowman": 5,
    "ensign": 5,
    "footman": 5,
    "knight": 4,
    "lancer": 4,
    "light-cavalry": 5,
    "marshall": 5,
    "mercenary": 5,
    "pikeman": 4,
    "royal-guard": 5,
    "scout": 5,
    "swordsman": 5,
    "warrior-priest": 4,
}
UNITS = tuple(COINS)
ROYAL = "royal"
HIDDEN = "?"  # a coin another player cannot see (views)
NAMES = {u: u.replace("-", " ").title() for u in UNITS} | {ROYAL: "Royal coin"}
SYMBOLS = {
    "archer": "Ar",
    "berserker": "Be",
    "cavalry": "Ca",
    "crossbowman": "Cr",
    "ensign": "En",
    "footman": "Fo",
    "knight": "Kn",
    "lancer": "La",
    "light-cavalry": "LC",
    "marshall": "Ma",
    "mercenary": "Me",
    "pikeman": "Pi",
    "royal-guard": "RG",
    "scout": "Sc",
    "swordsman": "Sw",
    "warrior-priest": "WP",
    ROYAL: "♛",
}
FIRST_GAME = (
    ("swordsman", "pikeman", "crossbowman", "light-cavalry"),
    ("archer", "cavalry", "lancer", "scout"),
)
HAND_SIZE = 3

DRAFT_ORDER = {  # who picks the n-th card (rulebook "Voorbereiding voor Gevorderden" / 4 players)
    2: (0, 1, 1, 0, 0, 1, 1, 0),
    4: (0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0),
}
ARMY_SIZE = {2: 4, 4: 3}

# --- the maps (NOTES.md): axial hexes ---------------------------------------------------------

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class Map:
    hexes: frozenset[Hex]
    locations: frozenset[Hex]
    starts: tuple[tuple[Hex, ...], tuple[Hex, ...]]  # side A's and side B's starting locations
    markers: int  # control markers per side (player or team)

    @cached_property
    def neighbours(self) -> dict[Hex, tuple[Hex, ...]]:
        return {h: tuple(n for n in (step(h, d) for d in DIRECTIONS) if n in self.hexes) for h in self.hexes}


def step(h: Hex, d: Hex, k: int = 1) -> Hex:
    """The hex `k` steps from `h` in direction `d`."""
    return (h[0] + k * d[0], h[1] + k * d[1])


def distance(a: Hex, b: Hex) -> int:
    dx, dy = a[0] - b[0], a[1] - b[1]
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


def hex_name(h: Hex) -> str:
    """A hex in the notation: its axial coordinates, `4,0` (records and data files keep it)."""
    return f"{h[0]},{h[1]}"


def hex_label(h: Hex) -> str:
    """A hex as the map shows it and the move list names it: a letter for x (a..g) and a
    number for y + 1 (1..7), `4,0` -> `e1`. The numbers count the rows of hexes from side A's
    edge (row 1 at the bottom of the drawing, row 7 at side B's); a letter names a slanting
    line of hexes, up and to the right. Both maps use the same names (the 4-player map adds
    hexes round the 2-player one), and a name is the notation read another way."""
    return f"{'abcdefg'[h[0]]}{h[1] + 1}"


def parse_hex(text: str) -> Hex:
    x, y = text.split(",")
    return (int(x), int(y))


_NEUTRAL_2P = ((2, 1), (3, 2), (5, 3), (1, 3), (3, 4), (4, 5))
MAP_2P = Map(
    frozenset((x, y) for x in range(7) for y in range(7) if 3 <= x + y <= 9),
    frozenset(_NEUTRAL_2P + ((4, 0), (6, 1), (0, 5), (2, 6))),
    (((4, 0), (6, 1)), ((0, 5), (2, 6))),
    markers=6,
)
MAP_4P = Map(
    frozenset((x, y) for x in range(7) for y in range(7) if 1 <= x + y <= 11),
    frozenset(_NEUTRAL_2P + ((4, 0), (6, 1), (0, 5), (2, 6), (6, 4), (0, 2), (1, 0), (5, 6))),
    (((4, 0), (6, 1), (6, 4)), ((0, 5), (2, 6), (0, 2))),
    markers=8,
)


# --- the notation of an action -------------------------------------------------------------------


@dataclass(frozen=True, repr=False)  # repr: Order('attack swordsman 3,2 3,3')
class Order(Move):
    """One action: `verb [coin] [hexes...] [arg]`, e.g. `attack swordsman 3,2 3,3`."""

    verb: str
    coin: str = ""
    hexes: tuple[Hex, ...] = ()
    arg: str = ""
    cells: tuple[str, ...] = ()

    @property
    def choice_label(self) -> str:
        """Same coin, same hexes, another action (move or tactic, bolster or control)."""
        return self.verb.capitalize() + (f" {self.arg}" if self.arg else "")

    def __str__(self) -> str:
        text = self.__dict__.get("_notation")
        if text is None:  # written once: the tree search keys its nodes by the notation
            text = " ".join(
                [self.verb]
                + ([self.coin] if self.coin else [])
                + [hex_name(h) for h in self.hexes]
                + ([self.arg] if self.arg else [])
            )
            object.__setattr__(self, "_notation", text)  # a cache, not a field: not compared
        return text


FACE_DOWN = ("initiative", "recruit", "pass")
MANEUVERS = ("move", "control", "attack")
