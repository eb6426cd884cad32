"""War Chest: bag building on a hex map. Each round every player draws three coins from their
bag; from the initiative holder the players take turns, one coin = one action, until all
hands are empty. A side wins the moment it places its last control marker.

Rulebook: rules/war-chest.nl.txt; where that translation is vague, the unit texts and the
board of rules/NOTES.md (after the English rulebook). One coin, one action:

- deploy   `deploy archer 4,0`      a coin face up on an empty controlled location
- bolster  `bolster archer 4,0`     a coin onto your unit of that type
- face down (any coin, the Royal coin too): `initiative royal`, `recruit royal archer`,
  `pass royal`
- face up, the coin's unit on the board ("maneuvers"): `move archer 4,0 4,1`,
  `control archer 4,0`, `attack swordsman 3,2 3,3`, `tactic <coin> <unit hex> ...`
- follow-ups of the same turn, by the player they belong to: a free or paid maneuver without
  a coin (`move 3,2 3,3`: Berserker, Mercenary, Footman, Swordsman), `guard supply` /
  `guard unit` (Royal Guard attacked), `done` (decline an optional follow-up)
- set-up: `pick archer` (draft)
Chance: `deal:<army>/<army>` (random armies), `reveal:<cards>` (draft), `draw:<coins>` (a
player's draw of the round, or the Warrior Priest's one coin).

Rulings where the texts leave a gap (also in docs/games/war-chest.md):
- seats: 2 players: 0 = side A, 1 = side B; 4 players round the table 0 (A), 1 (B), 2 (A),
  3 (B); teammates sit opposite. Player 0 wins the toss (first pick; initiative, except after
  a 2-player draft, where the second picker gets it as the rulebook says).
- a triggered ability fires whatever made the unit act: a Swordsman commanded by a Marshall
  may still move after its attack, a Warrior Priest draws after any attack or control; the
  Berserker's repeat follows every maneuver the Berserker makes: with its own coin, its own
  repeats, moved by an Ensign, attacking for a Marshall (issue #20 item 6: the published War
  Chest FAQ; AEG: a granted action may trigger a unit's ability). The follow-up belongs to
  the unit's owner. A unit that left the board triggers nothing.
- Cavalry's tactic needs both its move and its attack; the Footman tactic lets each Footman
  unit make one maneuver (move, control or attack) in the order the player likes; a Scout may
  deploy next to any unit of its team; "friendly" means the player's team.
- deadlock: when every unit coin of every player is on the board or out of the game, only
  Royal coins are left and no location can be controlled again: the game is a draw.

The package, one module a concern:

- `box`    the units and their coins, the maps, the draft order, hexes, the `Order` notation
- `game`   `WarChest`: options, map, seats, the first state, reading a position text
- `state`  `WarChestState`: the position and the kernel protocol on it
- `rules`  the turn: legal actions, carrying one out, the turn and round going on, draws
- `units`  what each unit does: maneuvers, the table of tactics (each one's orders beside its
           effect), follow-ups, the Royal Guard's choice
- `text`   the position text, its checks, `compose` for scenarios
- `scene`  what the position looks like (plain data for the widgets); hexes named as the map
           shows them (`hex_label`: `4,0` is `e1`)
- `words`  the actions in words for the move list (`WarChestState.action_text`)
- `hints`  the "heuristic" and "statistics" parts: the agents' estimate, each seat's units
- `reference` the "reference" part: every unit in one line, the coin actions
- `edit`   the "editor" part (`edit_pieces(state)`, ..., `edit(state, ...)`): an edit read back through the
           position text, so it is checked as any position text is
"""

from __future__ import annotations

from rules_kernel.games.war_chest.box import (
    ARMY_SIZE,
    COINS,
    DIRECTIONS,
    DRAFT_ORDER,
    FACE_DOWN,
    FIRST_GAME,
    HAND_SIZE,
    HIDDEN,
    MANEUVERS,
    MAP_2P,
    MAP_4P,
    NAMES,
    ROYAL,
    SYMBOLS,
    UNITS,
    Hex,
    Map,
    Order,
    distance,
    hex_label,
    hex_name,
    parse_hex,
)
from rules_kernel.games.war_chest.game import WarChest
from rules_kernel.games.war_chest.state import WarChestState
from rules_kernel.games.war_chest.text import compose

GAMES = [WarChest]

__all__ = [
    "ARMY_SIZE",
    "COINS",
    "DIRECTIONS",
    "DRAFT_ORDER",
    "FACE_DOWN",
    "FIRST_GAME",
    "GAMES",
    "HAND_SIZE",
    "HIDDEN",
    "MANEUVERS",
    "MAP_2P",
    "MAP_4P",
    "NAMES",
    "ROYAL",
    "SYMBOLS",
    "UNITS",
    "Hex",
    "Map",
    "Order",
    "WarChest",
    "WarChestState",
    "compose",
    "distance",
    "hex_label",
    "hex_name",
    "parse_hex",
]
