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
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import combinations
from math import comb
from typing import Any, ClassVar

from rules_kernel.core import (
    CHANCE,
    ChanceNotEnumerableError,
    Game,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    PositionTextError,
    State,
    TextChance,
)
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

Hex = tuple[int, int]

# --- the units: coins per type (NOTES.md), names as the cards say them -----------------------

COINS = {"archer": 4, "berserker": 5, "cavalry": 4, "crossbowman": 5, "ensign": 5, "footman": 5,
         "knight": 4, "lancer": 4, "light-cavalry": 5, "marshall": 5, "mercenary": 5, "pikeman": 4,
         "royal-guard": 5, "scout": 5, "swordsman": 5, "warrior-priest": 4}
UNITS = tuple(COINS)
ROYAL = "royal"
NAMES = {u: u.replace("-", " ").title() for u in UNITS} | {ROYAL: "Royal coin"}
SYMBOLS = {"archer": "Ar", "berserker": "Be", "cavalry": "Ca", "crossbowman": "Cr", "ensign": "En",
           "footman": "Fo", "knight": "Kn", "lancer": "La", "light-cavalry": "LC", "marshall": "Ma",
           "mercenary": "Me", "pikeman": "Pi", "royal-guard": "RG", "scout": "Sc", "swordsman": "Sw",
           "warrior-priest": "WP", ROYAL: "♛"}
NO_NORMAL_ATTACK = {"archer", "lancer"}
FIRST_GAME = (("swordsman", "pikeman", "crossbowman", "light-cavalry"),
              ("archer", "cavalry", "lancer", "scout"))
HAND_SIZE = 3

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
        return {h: tuple(n for n in (_step(h, d) for d in DIRECTIONS) if n in self.hexes)
                for h in self.hexes}


def _step(h: Hex, d: Hex, k: int = 1) -> Hex:
    return (h[0] + k * d[0], h[1] + k * d[1])


def distance(a: Hex, b: Hex) -> int:
    dx, dy = a[0] - b[0], a[1] - b[1]
    return (abs(dx) + abs(dy) + abs(dx + dy)) // 2


def hex_name(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(text: str) -> Hex:
    x, y = text.split(",")
    return (int(x), int(y))


_NEUTRAL_2P = ((2, 1), (3, 2), (5, 3), (1, 3), (3, 4), (4, 5))
MAP_2P = Map(frozenset((x, y) for x in range(7) for y in range(7) if 3 <= x + y <= 9),
             frozenset(_NEUTRAL_2P + ((4, 0), (6, 1), (0, 5), (2, 6))),
             (((4, 0), (6, 1)), ((0, 5), (2, 6))), markers=6)
MAP_4P = Map(frozenset((x, y) for x in range(7) for y in range(7) if 1 <= x + y <= 11),
             frozenset(_NEUTRAL_2P + ((4, 0), (6, 1), (0, 5), (2, 6), (6, 4), (0, 2), (1, 0), (5, 6))),
             (((4, 0), (6, 1), (6, 4)), ((0, 5), (2, 6), (0, 2))), markers=8)

DRAFT_ORDER = {  # who picks the n-th card (rulebook "Voorbereiding voor Gevorderden" / 4 players)
    2: (0, 1, 1, 0, 0, 1, 1, 0),
    4: (0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0),
}
ARMY_SIZE = {2: 4, 4: 3}


# --- moves -------------------------------------------------------------------------------------

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
        return " ".join([self.verb] + ([self.coin] if self.coin else [])
                        + [hex_name(h) for h in self.hexes] + ([self.arg] if self.arg else []))


FACE_DOWN = ("initiative", "recruit", "pass")
MANEUVERS = ("move", "control", "attack")


# --- options -----------------------------------------------------------------------------------

def _check_setup(value: Any) -> Any:
    if isinstance(value, str):
        if value not in ("random", "draft", "first-game"):
            raise ValueError(f"{value!r} is not 'random', 'draft', 'first-game' or a list of armies")
        return value
    if not isinstance(value, (list, tuple)) or not all(isinstance(a, (list, tuple)) for a in value):
        raise ValueError("give 'random', 'draft', 'first-game' or one list of unit names per player")
    armies = [[str(u) for u in army] for army in value]
    seen: set[str] = set()
    for i, army in enumerate(armies):
        for unit in army:
            if unit not in COINS:
                raise ValueError(f"army {i + 1}: unknown unit {unit!r}; units: {', '.join(UNITS)}")
            if unit in seen:
                raise ValueError(f"army {i + 1}: {unit!r} is already in another army (one card per unit)")
            seen.add(unit)
    return armies


def _check_cap(value: Any) -> Any:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"must be None or a positive whole number of actions; got {value!r}")
    return value


class WarChest(Game):
    id = "war-chest"
    title = "War Chest"
    OPTIONS: ClassVar[dict[str, Option]] = {
        "players": Option(2, "2 players, or 4 in two teams of two (teammates sit opposite)",
                          choices=(2, 4)),
        "setup": Option("random", "'random' (the basic game: armies dealt), 'draft' (the rulebook's "
                        "pick order), 'first-game' (the suggested 2-player armies) or one list of "
                        "unit names per player", check=_check_setup,
                        words=("random", "draft", "first-game"), items=UNITS),
        "royal_guard": Option("2018", "the Royal Guard card: '2018' (tactic: move one hex) or "
                              "'revised' (up to two hexes to a location you control)",
                              choices=("2018", "revised")),
        "max_actions": Option(None, "stop after this many actions (chance included) as an "
                              "unfinished game; for simulations (None: play to the end)",
                              check=_check_cap),
    }

    def _check_options(self, values: dict[str, Any]) -> dict[str, Any]:
        players, setup = values["players"], values["setup"]
        if setup == "first-game" and players != 2:
            raise OptionError("war-chest: the 'first-game' armies are for 2 players; use 'random', "
                              "'draft' or explicit armies with 4")
        if isinstance(setup, list):
            size = ARMY_SIZE[players]
            if len(setup) != players or any(len(a) != size for a in setup):
                raise OptionError(f"war-chest: with {players} players give {players} armies of {size} "
                                  f"units each; got sizes {[len(a) for a in setup]}")
        self.num_players = players
        return values

    @property
    def map(self) -> Map:
        return MAP_2P if self.num_players == 2 else MAP_4P

    @property
    def player_names(self) -> tuple[str, ...]:
        if self.num_players == 2:
            return ("Side A", "Side B")
        return ("Player A1", "Player B1", "Player A2", "Player B2")

    def team(self, player: int) -> int:
        """The side (0 = A, 1 = B) a player fights for; in 2 players the player itself."""
        return player % 2

    def initial_state(self) -> WarChestState:
        n = self.num_players
        start = WarChestState(self, phase="deal", armies=((),) * n, pool=(), bags=((),) * n,
                              hands=((),) * n, faceup=((),) * n, facedown=((),) * n, supply=((),) * n,
                              eliminated=((),) * n, units=(),
                              control=tuple(sorted((h, side) for side in (0, 1)
                                                   for h in self.map.starts[side])),
                              initiative=0, claimed=False, turn=0, pending=())
        setup = self.options["setup"]
        if setup == "first-game":
            return start._armed(FIRST_GAME)
        if isinstance(setup, list):
            return start._armed(tuple(tuple(a) for a in setup))
        return start

    def from_text(self, text: str) -> WarChestState:
        return _from_text(self, text)

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 50
    DATA_MAX_PLIES = 2000  # chance draws count as actions: War Chest's games are the longest

    def heuristic(self, state: State, player: int) -> float:
        """Control markers placed (what wins), then coins on the board and units near locations
        to take, for the player's side."""
        side = self.team(player)
        score = (state.markers_left(1 - side) - state.markers_left(side)) / self.map.markers
        for h, owner, _, height in state.units:
            sign = 1 if self.team(owner) == side else -1
            targets = [loc for loc in self.map.locations if state.controller.get(loc) != self.team(owner)]
            near = min((distance(h, loc) for loc in targets), default=0)
            score += sign * (height / 180 + (6 - min(near, 6)) / 120)  # closer beats bolstering
        return score

    @classmethod
    def seat_holdings(cls, record: Any) -> dict[str, list[Any]]:
        """Each seat's unit types: from the options, or by replaying the deal or the draft."""
        state = record.load_game().initial_state()
        for action in record.actions:
            if state.phase not in ("deal", "draft"):
                break
            state = state.apply(action.notation)
        return {"unit": [list(units) for units in state.armies]}


GAMES = [WarChest]

Unit = tuple[int, str, int]  # (owner, type, coins in the stack)
Pending = tuple[str, int, Any]  # (kind, player, detail): a follow-up inside the current turn


@dataclass(frozen=True, repr=False, eq=False)  # equality: by position (`_position_key`)
class WarChestState(State):
    game: WarChest
    phase: str  # "deal" (armies or draft cards to come), "draft", "draw", "play"
    armies: tuple[tuple[str, ...], ...]
    pool: tuple[str, ...]  # draft cards not yet picked
    bags: tuple[tuple[str, ...], ...]  # each a sorted multiset of coin names
    hands: tuple[tuple[str, ...], ...]
    faceup: tuple[tuple[str, ...], ...]  # the public part of each discard pile
    facedown: tuple[tuple[str, ...], ...]  # its private part
    supply: tuple[tuple[str, ...], ...]
    eliminated: tuple[tuple[str, ...], ...]  # out of the game
    units: tuple[tuple[Hex, int, str, int], ...]  # (hex, owner, type, height), sorted by hex
    control: tuple[tuple[Hex, int], ...]  # controlled locations: (hex, side)
    initiative: int
    claimed: bool  # the initiative was claimed this round
    turn: int  # the seat acting (play) or drawing (draw)
    pending: tuple[Pending, ...]  # follow-ups; the last one is resolved first
    ply: int = 0  # actions so far, chance included; a position only under `max_actions`
    last: tuple[str, ...] = field(default=(), compare=False)  # cells of the last action, for drawing

    # --- equality: the position, not the display hints -----------------------------------
    def _position_key(self) -> tuple:
        """What the rules depend on: every field but the last-action highlight, and the action
        counter only when a cap (`max_actions`) makes it end the game."""
        key = tuple(getattr(self, name) for name in _POSITION_FIELDS)
        return key + (self.ply,) if self.game.options["max_actions"] is not None else key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WarChestState):
            return NotImplemented
        return self._position_key() == other._position_key()

    def __hash__(self) -> int:
        return hash(self._position_key())

    # --- protocol --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase in ("deal", "draw"):
            return CHANCE
        if self.phase == "draft":
            return DRAFT_ORDER[self.game.num_players][sum(map(len, self.armies))]
        if self.pending:
            kind, player, _ = self.pending[-1]
            return CHANCE if kind == "priest-draw" else player
        return self.turn

    def legal_moves(self) -> list[Move]:
        if self.current_player == CHANCE or self.is_terminal():
            return []
        return list(self._move_list)

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    @cached_property
    def _outcome(self) -> Outcome | None:
        game = self.game
        for side in (0, 1):
            if self.markers_left(side) == 0:
                who = f"{'Side' if game.num_players == 2 else 'Team'} {'AB'[side]}"
                reason = f"{who} placed its last control marker"
                if game.num_players == 2:
                    return Outcome.win(side, reason)
                return Outcome(side, reason, (side, side + 2))
        if self._deadlocked():
            return Outcome.draw("deadlock: no coin is left to act with, so no side can place "
                                "another marker")
        cap = game.options["max_actions"]
        if cap is not None and self.ply >= cap:
            return Outcome.unfinished(f"stopped after {cap} actions (max_actions)")
        return None

    def _deadlocked(self) -> bool:
        """Ruling: when every unit coin of every player is on the board or out of the game,
        only Royal coins are left to draw, and nothing can ever control a location again."""
        if self.phase not in ("play", "draw") or self.pending:
            return False
        for places in (self.bags, self.hands, self.faceup, self.facedown, self.supply):
            # a hidden coin of a view ('?') is one of its owner's bag coins, counted there
            if any(coin not in (ROYAL, HIDDEN) for coins in places for coin in coins):
                return False
        return True

    def _drawable(self, player: int) -> int:
        """Coins the player could draw now: the bag, and the discard pile that refills it."""
        return len(self.bags[player]) + len(self.faceup[player]) + len(self.facedown[player])

    def markers_left(self, side: int) -> int:
        """Control markers the side has not placed (a side wins when it has none left)."""
        return self.game.map.markers - sum(1 for _, s in self.control if s == side)

    # --- chance ------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[TextChance, float]]:
        if self.current_player != CHANCE or self.is_terminal():
            return []
        if self.phase == "deal":
            if self.game.options["setup"] == "random":
                raise ChanceNotEnumerableError("the deal of the armies has too many outcomes to "
                                               "list; use sample_chance")
            k = len(DRAFT_ORDER[self.game.num_players])
            total = comb(len(UNITS), k)
            return [(TextChance("reveal:" + ",".join(cards)), 1 / total)
                    for cards in combinations(sorted(UNITS), k)]
        player, k = self._drawer()
        return [(TextChance("draw:" + ",".join(coins)), p) for coins, p in self._draw_odds(player, k)]

    def sample_chance(self, rng: random.Random) -> TextChance:
        if self.phase == "deal" and self.game.options["setup"] == "random":
            units = rng.sample(UNITS, ARMY_SIZE[self.game.num_players] * self.game.num_players)
            size = ARMY_SIZE[self.game.num_players]
            armies = [sorted(units[i * size:(i + 1) * size]) for i in range(self.game.num_players)]
            return TextChance("deal:" + "/".join(",".join(a) for a in armies))
        if self.phase == "deal":
            cards = sorted(rng.sample(UNITS, len(DRAFT_ORDER[self.game.num_players])))
            return TextChance("reveal:" + ",".join(cards))
        return super().sample_chance(rng)

    def parse_chance(self, text: str) -> TextChance:
        if self.phase == "deal" and self.game.options["setup"] == "random":
            self._parse_deal(text)
            return TextChance(text)
        if self.phase == "deal":
            cards = text[len("reveal:"):].split(",") if text.startswith("reveal:") else []
            k = len(DRAFT_ORDER[self.game.num_players])
            if len(cards) != k or len(set(cards)) != k or any(c not in COINS for c in cards):
                raise IllegalMoveError(f"{text[:40]!r}: the draft starts with 'reveal:' and {k} different "
                                       "unit names, separated by ','")
            return TextChance("reveal:" + ",".join(sorted(cards)))
        for outcome, _ in self.chance_outcomes():
            if str(outcome) == text:
                return outcome
        player, k = self._drawer()
        bag = ", ".join(self.bags[player]) or "empty"
        raise IllegalMoveError(f"{text!r}: not a possible draw of {k} coin(s) for "
                               f"{self.game.player_names[player]} (bag: {bag})")

    def _parse_deal(self, text: str) -> tuple[tuple[str, ...], ...]:
        n, size = self.game.num_players, ARMY_SIZE[self.game.num_players]
        armies = [a.split(",") for a in text[len("deal:"):].split("/")] if text.startswith("deal:") else []
        units = [u for a in armies for u in a]
        if (len(armies) != n or any(len(a) != size for a in armies) or len(set(units)) != len(units)
                or any(u not in COINS for u in units)):
            raise IllegalMoveError(f"{text[:40]!r}: the deal is 'deal:' and {n} armies of {size} different "
                                   "units, like 'deal:archer,cavalry,lancer,scout/knight,...'")
        return tuple(tuple(sorted(a)) for a in armies)

    def _drawer(self) -> tuple[int, int]:
        """Who draws now, and how many coins."""
        if self.phase == "draw":
            return self.turn, HAND_SIZE
        return self.pending[-1][1], 1  # the Warrior Priest's draw

    def _draw_odds(self, player: int, k: int) -> list[tuple[tuple[str, ...], float]]:
        """Draw k: what is in the bag first; when it runs out, the whole discard pile goes in."""
        bag = self.bags[player]
        if len(bag) >= k:
            return _multiset_draws(bag, k)
        discard = self.faceup[player] + self.facedown[player]
        return [(tuple(sorted(bag + extra)), p) for extra, p in _multiset_draws(discard, k - len(bag))]

    # --- applying actions ----------------------------------------------------------------------
    def _successor(self, action) -> WarChestState:
        if action.is_chance:
            after = self._chance(str(action))
        elif getattr(action, "coin", None) == HIDDEN:  # a view's hidden coin: nothing to act with
            raise HiddenInformationError(f"{action}: this coin is hidden in this view; play on the full "
                                   "state or on view.determinize(rng)")
        else:
            work = _Work(self)
            work.perform(action, self.current_player)
            after = work.freeze()
            if after.phase == "draft" and not after.pool:  # the last card is picked
                after = after._armed(after.armies)
        return replace(after._settled(), ply=self.ply + 1, last=() if action.is_chance else action.cells)

    def _chance(self, text: str) -> WarChestState:
        if text.startswith("deal:"):
            return self._armed(self._parse_deal(text))
        if text.startswith("reveal:"):
            return replace(self, phase="draft", pool=tuple(text[len("reveal:"):].split(",")))
        player, k = self._drawer()
        coins = tuple(text[len("draw:"):].split(","))
        work = _Work(self)
        work.draw(player, coins, k)
        if self.phase == "draw":
            work.turn += 1
        else:  # the Warrior Priest's coin: use it at once
            work.pending[-1] = ("priest-use", player, coins[0])
        return work.freeze()

    def _armed(self, armies: tuple[tuple[str, ...], ...]) -> WarChestState:
        """The armies are known: bags (two coins of each type and the Royal coin), supplies."""
        bags = tuple(tuple(sorted([u for u in a for _ in range(2)] + [ROYAL])) for a in armies)
        supply = tuple(tuple(sorted(u for u in a for _ in range(COINS[u] - 2))) for a in armies)
        first = 1 if self.game.options["setup"] == "draft" and self.game.num_players == 2 else 0
        return replace(self, phase="draw", armies=armies, pool=(), bags=bags, supply=supply,
                       initiative=first, turn=0)

    def _settled(self) -> WarChestState:
        """Drop follow-ups that can no longer happen; then the turn, the round, the draws."""
        state = self
        while state.pending and not state._pending_live(state.pending[-1]):
            state = replace(state, pending=state.pending[:-1])
        if state.pending or state.is_terminal():
            return state
        n = self.game.num_players
        if state.phase == "draw":
            for seat in range(state.turn, n):
                if state.bags[seat] or state.faceup[seat] or state.facedown[seat]:
                    return replace(state, turn=seat)
            return replace(state, phase="play", turn=state._next_with_coins(state.initiative - 1))
        if state.phase == "play":
            nxt = state._next_with_coins(state.turn)
            if nxt is None:  # every hand is empty: a new round
                return replace(state, phase="draw", claimed=False, turn=0)._settled()
            return replace(state, turn=nxt)
        return state

    def _next_with_coins(self, seat: int) -> int | None:
        n = self.game.num_players
        for i in range(1, n + 1):
            if self.hands[(seat + i) % n]:
                return (seat + i) % n
        return None

    def _pending_live(self, pending: Pending) -> bool:
        kind, player, _ = pending
        if kind == "priest-draw":
            return bool(self.bags[player] or self.faceup[player] or self.facedown[player])
        if kind in ("guard", "priest-use"):
            return True
        return bool(self._follow_up_moves(pending))

    # --- who is where --------------------------------------------------------------------------
    @cached_property
    def board(self) -> dict[Hex, Unit]:
        return {h: (owner, kind, height) for h, owner, kind, height in self.units}

    @cached_property
    def controller(self) -> dict[Hex, int]:
        return dict(self.control)

    def unit_hexes(self, player: int, kind: str) -> list[Hex]:
        return [h for h, owner, k, _ in self.units if owner == player and k == kind]

    def _side(self, player: int) -> int:
        return self.game.team(player)

    def _enemy(self, player: int, h: Hex) -> bool:
        unit = self.board.get(h)
        return unit is not None and self._side(unit[0]) != self._side(player)

    def _friend(self, player: int, h: Hex) -> bool:
        unit = self.board.get(h)
        return unit is not None and self._side(unit[0]) == self._side(player)

    def _empty_neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in self.game.map.neighbours[h] if n not in self.board]

    # --- legal moves ---------------------------------------------------------------------------
    @cached_property
    def _move_list(self) -> list[Move]:
        if self.phase == "draft":
            return [Order("pick", arg=u, cells=(zone_cell("draft", u),)) for u in sorted(self.pool)]
        if not self.pending:
            return self._coin_moves(self.turn, sorted(set(self.hands[self.turn])))
        kind, player, detail = self.pending[-1]
        if kind == "guard":
            return [Order("guard", arg=a, cells=(zone_cell("prompt", f"guard-{a}"),))
                    for a in ("supply", "unit")]
        if kind == "priest-use":
            return self._coin_moves(player, [detail])
        return self._follow_up_moves(self.pending[-1]) + [Order("done", cells=(zone_cell("prompt", "done"),))]

    def _coin_moves(self, player: int, coins: list[str]) -> list[Move]:
        moves: list[Move] = []
        for coin in coins:
            moves += self._face_down_moves(player, coin)
            if coin == ROYAL:
                moves += self._royal_guard_tactics(player)
                continue
            moves += self._placements(player, coin)
            for h in self.unit_hexes(player, coin):
                moves += self._maneuvers(h, coin) + self._tactics(h, coin)
        return moves

    def _face_down_moves(self, player: int, coin: str) -> list[Move]:
        hand = zone_cell(f"hand-{player}", coin)
        moves: list[Move] = [Order("pass", coin, cells=(hand, zone_cell(f"discard-{player}", "face-down")))]
        holder_side = self._side(self.initiative)
        if not self.claimed and holder_side != self._side(player):  # "at most once per round"
            moves.append(Order("initiative", coin, cells=(hand, zone_cell("initiative", "marker"))))
        for unit in sorted(set(self.supply[player])):
            moves.append(Order("recruit", coin, arg=unit, cells=(hand, zone_cell(f"supply-{player}", unit))))
        return moves

    def _placements(self, player: int, coin: str) -> list[Move]:
        hand = zone_cell(f"hand-{player}", coin)
        mine = self.unit_hexes(player, coin)
        moves: list[Move] = [Order("bolster", coin, (h,), cells=(hand, hex_name(h))) for h in mine]
        if len(mine) < (2 if coin == "footman" else 1):  # Footman: two units may be on the board
            for h in self._deploy_hexes(player, coin):
                moves.append(Order("deploy", coin, (h,), cells=(hand, hex_name(h))))
        return moves

    def _deploy_hexes(self, player: int, coin: str) -> list[Hex]:
        side = self._side(player)
        hexes = {h for h, s in self.control if s == side and h not in self.board}
        if coin == "scout":  # "may also be deployed next to any friendly unit"
            for h, owner, _, _ in self.units:
                if self._side(owner) == side:
                    hexes.update(self._empty_neighbours(h))
        return sorted(hexes)

    def _can_attack(self, frm: Hex, target: Hex) -> bool:
        """Knight: only a bolstered unit (two coins or more) may attack it."""
        return self.board[target][1] != "knight" or self.board[frm][2] >= 2

    def _attack_targets(self, frm: Hex, owner: int) -> list[Hex]:
        return [n for n in self.game.map.neighbours[frm]
                if self._enemy(owner, n) and self._can_attack(frm, n)]

    def _maneuvers(self, h: Hex, coin: str) -> list[Move]:
        """Move, control, attack of the unit on h (coin "": a free or paid follow-up)."""
        owner, kind, _ = self.board[h]
        first = (zone_cell(f"hand-{owner}", coin),) if coin else ()
        moves: list[Move] = [Order("move", coin, (h, t), cells=first + (hex_name(h), hex_name(t)))
                             for t in self._empty_neighbours(h)]
        if h in self.game.map.locations and self.controller.get(h) != self._side(owner):
            moves.append(Order("control", coin, (h,), cells=first + (hex_name(h),)))
        if kind not in NO_NORMAL_ATTACK:
            moves += [Order("attack", coin, (h, t), cells=first + (hex_name(h), hex_name(t)))
                      for t in self._attack_targets(h, owner)]
        return moves

    def _tactics(self, h: Hex, coin: str) -> list[Move]:
        owner, kind, _ = self.board[h]
        hexes = getattr(self, "_tactic_" + kind.replace("-", "_"), None)
        if hexes is None:
            return []
        first = (zone_cell(f"hand-{owner}", coin), hex_name(h))
        return [Order("tactic", coin, (h,) + rest, cells=first + tuple(hex_name(x) for x in rest))
                for rest in dict.fromkeys(hexes(h, owner))]

    def _tactic_archer(self, h: Hex, owner: int):
        """Attack a unit exactly two hexes away; the hex between may be occupied."""
        for t in self.board:
            if distance(h, t) == 2 and self._enemy(owner, t) and self._can_attack(h, t):
                yield (t,)

    def _tactic_crossbowman(self, h: Hex, owner: int):
        """Attack two hexes away in a straight line, over an empty hex."""
        for d in DIRECTIONS:
            mid, t = _step(h, d), _step(h, d, 2)
            if mid in self.game.map.hexes and mid not in self.board and self._enemy(owner, t) \
                    and self._can_attack(h, t):
                yield (t,)

    def _tactic_cavalry(self, h: Hex, owner: int):
        """Move, then attack (the project reads it as both: no tactic without a target)."""
        moved = self._with_unit_moved(h)
        for t in self._empty_neighbours(h):
            for target in moved(t)._attack_targets(t, owner):
                yield (t, target)

    def _tactic_lancer(self, h: Hex, owner: int):
        """Move one or two hexes in a straight line over empty hexes, then attack the unit
        directly beyond on that line; no tactic without a target."""
        moved = self._with_unit_moved(h)
        for d in DIRECTIONS:
            for k in (1, 2):
                path = [_step(h, d, i) for i in range(1, k + 1)]
                if any(p not in self.game.map.hexes or p in self.board for p in path):
                    break
                target = _step(h, d, k + 1)
                if self._enemy(owner, target) and moved(path[-1])._can_attack(path[-1], target):
                    yield (path[-1], target)

    def _tactic_light_cavalry(self, h: Hex, owner: int):
        """Move two hexes, both empty."""
        for mid in self._empty_neighbours(h):
            for t in self._empty_neighbours(mid):
                if t != h:
                    yield (t,)

    def _tactic_ensign(self, h: Hex, owner: int):
        """Another friendly unit within two hexes moves one hex, to a hex within two of the Ensign."""
        for u in self.board:
            if u != h and distance(u, h) <= 2 and self._friend(owner, u):
                for t in self._empty_neighbours(u):
                    if distance(t, h) <= 2:
                        yield (u, t)

    def _tactic_marshall(self, h: Hex, owner: int):
        """Another friendly unit within two hexes makes a normal attack."""
        for u, (u_owner, kind, _) in self.board.items():
            if u != h and distance(u, h) <= 2 and self._friend(owner, u) and kind not in NO_NORMAL_ATTACK:
                for target in self._attack_targets(u, u_owner):
                    yield (u, target)

    def _tactic_footman(self, h: Hex, owner: int):
        """Each Footman unit makes one maneuver (offered as follow-ups)."""
        if any(self._maneuvers(f, "") for f in self.unit_hexes(owner, "footman")):
            yield ()

    def _royal_guard_tactics(self, player: int) -> list[Move]:
        """Pay the Royal coin to move the Royal Guard: one hex (2018) or up to two hexes to a
        location your side controls (revised)."""
        moves: list[Move] = []
        hand = zone_cell(f"hand-{player}", ROYAL)
        for h in self.unit_hexes(player, "royal-guard"):
            targets = set(self._empty_neighbours(h))
            if self.game.options["royal_guard"] == "revised":
                targets |= {t for m in targets for t in self._empty_neighbours(m)}
                side = self._side(player)
                targets = {t for t in targets if t != h and self.controller.get(t) == side}
            moves += [Order("tactic", ROYAL, (h, t), cells=(hand, hex_name(h), hex_name(t)))
                      for t in sorted(targets)]
        return moves

    def _with_unit_moved(self, h: Hex):
        """A look-ahead: this state with the unit on h moved to another hex."""
        def moved(t: Hex) -> WarChestState:
            units = tuple(sorted((t if x == h else x, o, k, n) for x, o, k, n in self.units))
            return replace(self, units=units)
        return moved

    def _follow_up_moves(self, pending: Pending) -> list[Move]:
        kind, player, detail = pending
        if kind == "sword":  # "after it attacks, it may move one hex"
            if self.board.get(detail, (None, ""))[:2] != (player, "swordsman"):
                return []
            return [m for m in self._maneuvers(detail, "") if m.verb == "move"]
        if kind == "berserk":  # pay a coin of the stack, never the last, to maneuver again
            unit = self.board.get(detail)
            if unit is None or unit[:2] != (player, "berserker") or unit[2] < 2:
                return []
            return self._maneuvers(detail, "")
        if kind == "mercenary":
            return [m for h in self.unit_hexes(player, "mercenary") for m in self._maneuvers(h, "")]
        if kind == "footman":
            return [m for h in detail if self.board.get(h, (None, ""))[:2] == (player, "footman")
                    for m in self._maneuvers(h, "")]
        raise AssertionError(kind)

    # --- secrets -------------------------------------------------------------------------------
    def action_text(self, action, viewer: int | None = None) -> str:
        """Draws go into a hidden hand, and a coin paid face down (pass, recruit, initiative)
        stays unknown: other players learn only how many coins and what was recruited."""
        if viewer is None:
            return str(action)
        if action.is_chance:
            if self.phase == "deal":
                return str(action)  # the armies are dealt face up
            player, _ = self._drawer()
            if player == viewer:
                return str(action)
            count = len(str(action).split(":", 1)[1].split(","))
            return f"{self.game.player_names[player]} draws {count} coin{'s' if count > 1 else ''}"
        if self.current_player == viewer or getattr(action, "verb", "") not in FACE_DOWN:
            return str(action)
        if action.verb == "recruit":
            return f"recruit {action.arg} (paid with a coin face down)"
        if action.verb == "initiative":
            return "initiative (a coin face down)"
        return "pass (a coin face down)"

    def view(self, player: int) -> WarChestState:
        """Another player's hand and face-down discards become '?'; the coins behind them are
        pooled into that player's bag counts, which is what counting tells you."""
        super().view(player)  # the base view checks the seat: SeatError for a bad one
        bags, hands, facedown = list(self.bags), list(self.hands), list(self.facedown)
        for other in range(self.game.num_players):
            if other == player:
                continue
            secret = [c for c in hands[other] + facedown[other] if c != "?"]
            if not secret:
                continue
            bags[other] = tuple(sorted(bags[other] + tuple(secret)))
            hands[other] = ("?",) * len(hands[other])
            facedown[other] = ("?",) * len(facedown[other])
        pending = tuple(("priest-use", p, "?") if k == "priest-use" and p != player else (k, p, d)
                        for k, p, d in self.pending)
        last = tuple(c for c in self.last if not c.startswith("hand-") or c.startswith(f"hand-{player}:"))
        return replace(self, bags=tuple(bags), hands=tuple(hands), facedown=tuple(facedown),
                       pending=pending, last=last)

    def determinize(self, rng: random.Random) -> WarChestState:
        """Deal every '?' from its owner's pooled bag counts at random."""
        bags, hands, facedown = list(self.bags), list(self.hands), list(self.facedown)
        pending = list(self.pending)
        for p in range(self.game.num_players):
            unknown_hand, unknown_down = hands[p].count("?"), facedown[p].count("?")
            if not unknown_hand + unknown_down:
                continue
            pool = list(bags[p])
            rng.shuffle(pool)
            dealt_hand, dealt_down = pool[:unknown_hand], pool[unknown_hand:unknown_hand + unknown_down]
            bags[p] = tuple(sorted(pool[unknown_hand + unknown_down:]))
            hands[p] = tuple(sorted([c for c in hands[p] if c != "?"] + dealt_hand))
            facedown[p] = tuple(sorted([c for c in facedown[p] if c != "?"] + dealt_down))
            pending = [(k, q, rng.choice(hands[p]) if k == "priest-use" and q == p and d == "?" else d)
                       for k, q, d in pending]
        return replace(self, bags=tuple(bags), hands=tuple(hands), facedown=tuple(facedown),
                       pending=tuple(pending))

    # --- text, drawing, messages -----------------------------------------------------------------
    def to_text(self) -> str:
        return _to_text(self)

    def scene(self, perspective: int | None = None) -> Scene:
        return _scene(self if perspective is None else self.view(perspective), perspective)

    def why_illegal(self, text: str) -> str:
        if self.current_player == CHANCE:
            return f"{text!r}: a chance event is pending (a deal or a draw from a bag)"
        legal = sorted(str(m) for m in self.legal_moves())
        shown = ", ".join(legal[:30]) + (" ..." if len(legal) > 30 else "")
        if self.phase == "draft":
            return f"{text!r}: the draft is on; cards left: {', '.join(self.pool)}"
        if self.pending:
            kind, player, detail = self.pending[-1]
            what = {"guard": "decide how the attacked Royal Guard takes the hit",
                    "priest-use": f"use the coin the Warrior Priest drew ({detail}) at once",
                    "sword": "the Swordsman may move one hex (or done)",
                    "berserk": "the Berserker may maneuver again, paying a coin of its stack (or done)",
                    "mercenary": "the Mercenary may make a free maneuver (or done)",
                    "footman": "each Footman unit may make one maneuver (or done)"}[kind]
            return f"{text!r}: {self.game.player_names[player]} must first {what}; legal: {shown}"
        words = text.split()
        hand = self.hands[self.turn]
        if len(words) > 1 and words[0] in FACE_DOWN + MANEUVERS + ("deploy", "bolster", "tactic") \
                and words[1] not in hand:
            return (f"{text!r}: {self.game.player_names[self.turn]} has no {words[1]!r} coin in hand "
                    f"(hand: {', '.join(hand)})")
        return f"{text!r} is not a legal action here; legal: {shown}"


#: the fields of a position (`WarChestState._position_key`); `ply` joins them under a cap
_POSITION_FIELDS = tuple(f.name for f in fields(WarChestState) if f.compare and f.name != "ply")


def _multiset_draws(pool: tuple[str, ...], k: int) -> list[tuple[tuple[str, ...], float]]:
    """Every multiset of k coins drawn from `pool`, with its probability (hypergeometric)."""
    if k >= len(pool):
        return [(tuple(sorted(pool)), 1.0)]
    counts = sorted(Counter(pool).items())
    total = comb(len(pool), k)
    out: list[tuple[tuple[str, ...], float]] = []

    def pick(i: int, left: int, chosen: tuple[str, ...], ways: int) -> None:
        if left == 0:
            out.append((chosen, ways / total))
            return
        if i == len(counts):
            return
        coin, n = counts[i]
        for take in range(min(left, n), -1, -1):
            pick(i + 1, left - take, chosen + (coin,) * take, ways * comb(n, take))

    pick(0, k, (), 1)
    return out


# --- performing an action on mutable copies ------------------------------------------------------

class _Work:
    """The state taken apart into lists and dicts while one action is carried out."""

    def __init__(self, state: WarChestState) -> None:
        self.state = state
        self.game = state.game
        self.armies = [list(a) for a in state.armies]
        self.pool = list(state.pool)
        self.bags = [list(x) for x in state.bags]
        self.hands = [list(x) for x in state.hands]
        self.faceup = [list(x) for x in state.faceup]
        self.facedown = [list(x) for x in state.facedown]
        self.supply = [list(x) for x in state.supply]
        self.eliminated = [list(x) for x in state.eliminated]
        self.units = {h: [o, k, n] for h, o, k, n in state.units}
        self.control = dict(state.control)
        self.initiative, self.claimed, self.turn = state.initiative, state.claimed, state.turn
        self.phase = state.phase
        self.pending = list(state.pending)

    def freeze(self) -> WarChestState:
        def t(lists: list[list[str]]) -> tuple[tuple[str, ...], ...]:
            return tuple(tuple(sorted(x)) for x in lists)

        return replace(self.state, phase=self.phase, armies=tuple(tuple(a) for a in self.armies),
                       pool=tuple(self.pool), bags=t(self.bags), hands=t(self.hands), faceup=t(self.faceup),
                       facedown=t(self.facedown), supply=t(self.supply), eliminated=t(self.eliminated),
                       units=tuple(sorted((h, o, k, n) for h, (o, k, n) in self.units.items())),
                       control=tuple(sorted(self.control.items())), initiative=self.initiative,
                       claimed=self.claimed, turn=self.turn, pending=tuple(self.pending))

    def draw(self, player: int, coins: tuple[str, ...], k: int) -> None:
        drawn = list(coins)
        bag = self.bags[player]
        if len(bag) < k:  # all of the bag, then the whole discard pile goes back in for the rest
            for coin in bag:
                drawn.remove(coin)
            bag = self.faceup[player] + self.facedown[player]
            self.faceup[player], self.facedown[player] = [], []
        for coin in drawn:
            bag.remove(coin)
        self.bags[player] = bag
        self.hands[player] = sorted(self.hands[player] + list(coins))

    # the action
    def perform(self, move: Order, player: int) -> None:
        if move.verb == "pick":  # kept sorted: the order of the picks is no part of the position
            self.armies[player] = sorted(self.armies[player] + [move.arg])
            self.pool.remove(move.arg)
            return
        top = self.pending.pop() if self.pending else None
        if move.verb == "guard":
            _, owner, h = top
            if move.arg == "supply":  # "remove a Royal Guard coin from the supply instead"
                self.supply[owner].remove("royal-guard")
                self.eliminated[owner].append("royal-guard")
            else:
                self.lose_coin(h)
            return
        if move.verb == "done":
            return
        if top is not None and top[0] != "priest-use":
            self.follow_up(top, move)
            return
        self.use_coin(move, player)

    def follow_up(self, top: Pending, move: Order) -> None:
        kind, player, detail = top
        frm = move.hexes[0]
        if kind == "footman" and len(detail) > 1:
            self.pending.append(("footman", player, tuple(h for h in detail if h != frm)))
        if kind == "berserk":  # the price: one coin of its own stack, into the discard
            self.units[frm][2] -= 1
            self.faceup[player].append("berserker")
        follow, at = self.maneuver(move)
        self.push(self.berserk(follow, at))

    def use_coin(self, move: Order, player: int) -> None:
        coin, verb = move.coin, move.verb
        self.hands[player].remove(coin)
        if verb == "deploy":
            self.units[move.hexes[0]] = [player, coin, 1]
        elif verb == "bolster":
            self.units[move.hexes[0]][2] += 1
        elif verb in FACE_DOWN:
            self.facedown[player].append(coin)
            self.face_down_action(move, player)
        else:
            self.faceup[player].append(coin)
            if verb == "tactic":
                self.push(self.tactic(move, player))
            else:
                follow, at = self.maneuver(move)
                self.push(self.berserk(follow, at))

    def face_down_action(self, move: Order, player: int) -> None:
        if move.verb == "initiative":
            self.initiative, self.claimed = player, True
        elif move.verb == "recruit":
            self.supply[player].remove(move.arg)
            self.faceup[player].append(move.arg)
            if move.arg == "mercenary":  # "the Mercenary unit may make a free maneuver"
                self.push([("mercenary", player, None)])

    def push(self, follow: list[Pending]) -> None:
        self.pending.extend(reversed(follow))  # the first follow-up is resolved first

    def berserk(self, follow: list[Pending], at: Hex) -> list[Pending]:
        """A unit has just maneuvered and stands on `at`: a Berserker may maneuver again (its
        owner's follow-up, after the others), whatever made it maneuver: its own coin, its own
        repeat, an Ensign's move, a Marshall's attack (issue #20 item 6, the War Chest FAQ)."""
        unit = self.units.get(at)
        if unit is not None and unit[1] == "berserker":
            return follow + [("berserk", unit[0], at)]
        return follow

    def maneuver(self, move: Order) -> tuple[list[Pending], Hex]:
        h = move.hexes[0]
        if move.verb == "move":
            self.units[move.hexes[1]] = self.units.pop(h)
            return [], move.hexes[1]
        if move.verb == "control":
            owner, kind, _ = self.units[h]
            self.control[h] = self.game.team(owner)  # an enemy marker goes back to its side
            return ([("priest-draw", owner, None)] if kind == "warrior-priest" else []), h
        return self.attack(h, move.hexes[1], adjacent=True), h

    def tactic(self, move: Order, player: int) -> list[Pending]:
        kind = ROYAL if move.coin == ROYAL else self.units[move.hexes[0]][1]
        h, rest = move.hexes[0], move.hexes[1:]
        if kind in ("archer", "crossbowman"):
            return self.attack(h, rest[0], adjacent=False)
        if kind in ("cavalry", "lancer"):
            self.units[rest[0]] = self.units.pop(h)
            return self.attack(rest[0], rest[1], adjacent=True)
        if kind in ("light-cavalry", ROYAL):
            self.units[rest[0]] = self.units.pop(h)
            return []
        if kind == "ensign":  # the other unit moves: a maneuver of that unit
            self.units[rest[1]] = self.units.pop(rest[0])
            return self.berserk([], rest[1])
        if kind == "marshall":  # the other unit attacks: a maneuver of that unit
            return self.berserk(self.attack(rest[0], rest[1], adjacent=True), rest[0])
        if kind == "footman":
            return [("footman", player, tuple(sorted(x for x, (o, k, _) in self.units.items()
                                                     if o == player and k == "footman")))]
        raise AssertionError(kind)

    def attack(self, frm: Hex, target: Hex, adjacent: bool) -> list[Pending]:
        attacker, defender = self.units[frm], self.units[target]
        follow: list[Pending] = []
        if defender[1] == "royal-guard" and "royal-guard" in self.supply[defender[0]]:
            follow.append(("guard", defender[0], target))  # its owner chooses where the coin comes from
        else:
            self.lose_coin(target)
        if defender[1] == "pikeman" and adjacent:  # the attacker loses a coin too
            self.lose_coin(frm)
        if frm in self.units:  # what the attacking unit does next, if it is still there
            if attacker[1] == "swordsman":
                follow.append(("sword", attacker[0], frm))
            elif attacker[1] == "warrior-priest":
                follow.append(("priest-draw", attacker[0], None))
        return follow

    def lose_coin(self, h: Hex) -> None:
        """One coin of the stack leaves the game; the last one takes the unit with it."""
        owner, kind, _ = self.units[h]
        self.eliminated[owner].append(kind)
        self.units[h][2] -= 1
        if self.units[h][2] == 0:
            del self.units[h]


# --- position text -------------------------------------------------------------------------------

def _coins(lists) -> str:
    return "/".join(",".join(x) or "-" for x in lists)


def _pending_text(p: Pending) -> str:
    kind, player, detail = p
    if detail is None:
        text = "-"
    elif isinstance(detail, str):
        text = detail
    elif detail and isinstance(detail[0], tuple):
        text = "+".join(hex_name(h) for h in detail)
    else:
        text = hex_name(detail)
    return f"{kind}:{player}:{text}"


def _to_text(s: WarChestState) -> str:
    """`phase armies pool bags hands faceup facedown supply eliminated units control initiative
    turn pending ply`: coin lists per player separated by '/', units `x,y:owner:type:height`
    separated by ';', control `x,y:side`, initiative `<seat>` (+ '*' once claimed this round),
    follow-ups `kind:player:detail` separated by '|' (the last resolves first)."""
    units = ";".join(f"{hex_name(h)}:{o}:{k}:{n}" for h, o, k, n in s.units) or "-"
    control = ";".join(f"{hex_name(h)}:{side}" for h, side in s.control) or "-"
    pending = "|".join(_pending_text(p) for p in s.pending) or "-"
    return " ".join([s.phase, _coins(s.armies), ",".join(s.pool) or "-", _coins(s.bags), _coins(s.hands),
                     _coins(s.faceup), _coins(s.facedown), _coins(s.supply), _coins(s.eliminated), units,
                     control, f"{s.initiative}{'*' if s.claimed else ''}", str(s.turn), pending, str(s.ply)])


PENDING_KINDS = {"guard": "hex", "sword": "hex", "berserk": "hex", "mercenary": "-", "footman": "hexes",
                 "priest-draw": "-", "priest-use": "coin"}
FIELDS = ("phase", "armies", "pool", "bags", "hands", "faceup", "facedown", "supply", "eliminated", "units",
          "control", "initiative", "turn", "pending", "ply")
COIN_FIELDS = FIELDS[3:9]
HIDDEN = "?"  # a coin another player cannot see (views)
_NUMBER = re.compile(r"[0-9]{1,9}")  # ASCII digits only, and few: int() takes '١', '1_0', 4,000 digits
_HEX = re.compile(r"([0-9]{1,2}),([0-9]{1,2})")
_UNIT = re.compile(r"([0-9]{1,2},[0-9]{1,2}):([0-9]):([a-z-]+):([0-9]{1,3})")


class _FieldError(Exception):
    """A bad field of a position text (turned into PositionTextError with the text)."""

    def __init__(self, field_name: str, why: str) -> None:
        super().__init__(f"{field_name}: {why}")


def _from_text(game: WarChest, text: str) -> WarChestState:
    """Read a position and check it against the box and the rules; only PositionTextError escapes."""
    if not isinstance(text, str):
        raise PositionTextError(f"war-chest position: a text is expected, not {type(text).__name__}")
    try:
        state = _parse_position(game, text.split())
        _check_position(state)
    except _FieldError as exc:
        raise PositionTextError(f"war-chest position {text[:60]!r}: {exc}") from None
    return state


def _parse_position(game: WarChest, parts: list[str]) -> WarChestState:
    if len(parts) != len(FIELDS):
        raise _FieldError("text", f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}")
    value = dict(zip(FIELDS, parts, strict=True))
    n = game.num_players
    if value["phase"] not in ("deal", "draft", "draw", "play"):
        raise _FieldError("phase", f"'deal', 'draft', 'draw' or 'play' expected, not {value['phase'][:20]!r}")
    armies = tuple(tuple(_coin_list(part, "armies", units_only=True))
                   for part in _per_player(value["armies"], n, "armies"))
    pool = tuple(sorted(_coin_list(value["pool"], "pool", units_only=True)))
    coins = [tuple(tuple(sorted(_coin_list(part, name, hidden=name in ("hands", "facedown"))))
                   for part in _per_player(value[name], n, name)) for name in COIN_FIELDS]
    initiative = value["initiative"]
    claimed = initiative.endswith("*")
    return WarChestState(game, value["phase"], armies, pool, *coins, _parse_units(game, value["units"]),
                         _parse_control(game, value["control"]),
                         _seat(initiative[:-1] if claimed else initiative, n, "initiative"), claimed,
                         _seat(value["turn"], n, "turn"), _parse_pendings(game, value["pending"]),
                         _number(value["ply"], "ply"))


def _per_player(text: str, n: int, name: str) -> list[str]:
    parts = text.split("/")
    if len(parts) != n:
        raise _FieldError(name, f"{n} lists (one per player) separated by '/' expected, got {len(parts)}")
    return parts


def _coin_list(text: str, name: str, units_only: bool = False, hidden: bool = False) -> list[str]:
    if text == "-":
        return []
    known = set(COINS) if units_only else set(COINS) | {ROYAL}
    out = text.split(",")
    for coin in out:
        if coin not in known and not (hidden and coin == HIDDEN):
            what = "unit" if units_only else "coin"
            raise _FieldError(name, f"unknown {what} {coin[:20]!r} (units: {', '.join(UNITS)}"
                              f"{'' if units_only else ', and royal'})")
    return out


def _number(text: str, name: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise _FieldError(name, f"{text[:20]!r} is not a whole number of at most 9 digits")
    return int(text)


def _seat(text: str, n: int, name: str) -> int:
    seat = _number(text, name)
    if seat >= n:
        raise _FieldError(name, f"no seat {seat}: the seats are 0..{n - 1}")
    return seat


def _hex(game: WarChest, text: str, name: str) -> Hex:
    match = _HEX.fullmatch(text)
    h = (int(match[1]), int(match[2])) if match else None
    if h is None or h not in game.map.hexes:
        raise _FieldError(name, f"{text[:20]!r} is no hex of the {game.num_players}-player map")
    return h


def _parse_units(game: WarChest, text: str) -> tuple[tuple[Hex, int, str, int], ...]:
    units: dict[Hex, tuple[Hex, int, str, int]] = {}
    for item in ([] if text == "-" else text.split(";")):
        match = _UNIT.fullmatch(item)
        if not match:
            raise _FieldError("units", f"{item[:30]!r}: a unit is 'x,y:seat:type:coins', "
                              "like '3,3:0:archer:2'")
        h, owner = _hex(game, match[1], "units"), int(match[2])
        kind, height = match[3], int(match[4])
        if owner >= game.num_players or kind not in COINS or height < 1:
            raise _FieldError("units", f"{item[:30]!r}: seat 0..{game.num_players - 1}, a unit type and at "
                              "least one coin")
        if h in units:
            raise _FieldError("units", f"two units on hex {hex_name(h)}; a hex holds one unit")
        units[h] = (h, owner, kind, height)
    return tuple(sorted(units.values()))


def _parse_control(game: WarChest, text: str) -> tuple[tuple[Hex, int], ...]:
    control: dict[Hex, int] = {}
    for item in ([] if text == "-" else text.split(";")):
        where, _, side = item.rpartition(":")
        h = _hex(game, where, "control")
        if h not in game.map.locations or side not in ("0", "1"):
            raise _FieldError("control", f"{item[:20]!r}: a marker is 'x,y:side' on a location, side 0 or 1")
        if h in control:
            raise _FieldError("control", f"two markers on location {hex_name(h)}; a location holds one")
        control[h] = int(side)
    return tuple(sorted(control.items()))


def _parse_pendings(game: WarChest, text: str) -> tuple[Pending, ...]:
    return () if text == "-" else tuple(_parse_pending(game, item) for item in text.split("|"))


def _parse_pending(game: WarChest, text: str) -> Pending:
    kind, _, rest = text.partition(":")
    player, _, detail = rest.partition(":")
    if kind not in PENDING_KINDS:
        raise _FieldError("pending", f"unknown follow-up {kind[:20]!r} (one of {', '.join(PENDING_KINDS)})")
    seat = _seat(player, game.num_players, "pending")
    shape = PENDING_KINDS[kind]
    if shape == "-":
        if detail != "-":
            raise _FieldError("pending", f"{text[:30]!r}: a {kind} follow-up has no detail ('-')")
        return kind, seat, None
    if shape == "coin":
        coins = _coin_list(detail, "pending", hidden=True)
        if len(coins) != 1:
            raise _FieldError("pending", f"{text[:30]!r}: names the one coin the Warrior Priest drew")
        return kind, seat, coins[0]
    if shape == "hex":
        return kind, seat, _hex(game, detail, "pending")
    hexes = {_hex(game, h, "pending") for h in detail.split("+")}
    return kind, seat, tuple(sorted(hexes))


# --- does the position follow from the box and the rules? ---------------------------------------

def _check_position(state: WarChestState) -> None:
    if state.phase in ("deal", "draft"):
        _check_set_up(state)
    else:
        _check_armies(state)
        for p in range(state.game.num_players):
            _check_coins(state, p)
        _check_units(state)
        _check_round(state)
        _check_pending(state)
    _check_markers(state)
    cap = state.game.options["max_actions"]
    if cap is not None and state.ply > cap:
        raise _FieldError("ply", f"{state.ply} actions, past the cap of {cap} (max_actions)")
    _check_playable(state)


def _check_set_up(state: WarChestState) -> None:
    """Before the armies are known nothing is in play: no coins, units, follow-ups; the markers
    on the starting locations; player 0 holds the initiative."""
    game, setup = state.game, state.game.options["setup"]
    if setup not in ("random", "draft") or (state.phase == "draft" and setup != "draft"):
        raise _FieldError("phase", f"no {state.phase} phase in a game with setup {setup!r}")
    cards = len(DRAFT_ORDER[game.num_players])
    picks = sum(len(a) for a in state.armies)
    if state.phase == "deal" and (picks or state.pool):
        raise _FieldError("armies", "before the deal nobody has an army and no card is revealed")
    if state.phase == "draft":
        order = DRAFT_ORDER[game.num_players][:picks]
        if not state.pool or len(state.pool) + picks != cards:
            raise _FieldError("pool", f"a draft shows {cards} cards: those picked and those left")
        if any(len(a) != order.count(p) for p, a in enumerate(state.armies)):
            raise _FieldError("armies", f"after {picks} picks the players hold "
                              f"{[order.count(p) for p in range(game.num_players)]} cards (the pick order)")
        _check_distinct([u for a in state.armies for u in a] + list(state.pool), "pool")
    starts = tuple(sorted((h, side) for side in (0, 1) for h in game.map.starts[side]))
    if any(coins for name in COIN_FIELDS for coins in getattr(state, name)) or state.units or state.pending:
        raise _FieldError(state.phase, "no coins, units or follow-ups before the armies are known")
    if state.control != starts or state.initiative or state.claimed or state.turn:
        raise _FieldError("control", "before the armies are known the markers lie on the starting "
                          "locations and player 0 holds the initiative (turn 0, not claimed)")


def _check_distinct(units: list[str], name: str) -> None:
    repeated = [u for u, k in Counter(units).items() if k > 1]
    if repeated:
        raise _FieldError(name, f"{repeated[0]} appears twice; the box has one card per unit")


def _check_armies(state: WarChestState) -> None:
    game, setup = state.game, state.game.options["setup"]
    size = ARMY_SIZE[game.num_players]
    if state.pool or any(len(a) != size for a in state.armies):
        raise _FieldError("armies", f"every player has an army of {size} units once the game is on "
                          "(and no draft card is left)")
    _check_distinct([u for a in state.armies for u in a], "armies")
    fixed = FIRST_GAME if setup == "first-game" else setup if isinstance(setup, list) else None
    if fixed is not None and [sorted(a) for a in state.armies] != [sorted(a) for a in fixed]:
        raise _FieldError("armies", "this game's setup fixes the armies: "
                          + "/".join(",".join(a) for a in fixed))


def _check_coins(state: WarChestState, player: int) -> None:
    """Coins of the player's own types and the Royal coin only, never more than the box holds."""
    army = set(state.armies[player])
    totals: Counter[str] = Counter()
    for name in COIN_FIELDS:
        coins = [c for c in getattr(state, name)[player] if c != HIDDEN]
        royal_here = name not in ("supply", "eliminated")  # the Royal coin is never recruited or lost
        strange = [c for c in coins if c not in army and not (c == ROYAL and royal_here)]
        if strange:
            raise _FieldError(name, f"player {player} has a {strange[0]} coin here; their coins are "
                              f"{', '.join(sorted(army))} and the Royal coin (never in supply or out "
                              "of the game)")
        totals.update(coins)
    for _, owner, kind, height in state.units:
        if owner == player:
            totals[kind] += height
    for coin, count in totals.items():
        most = 1 if coin == ROYAL else COINS[coin]
        if count > most:
            raise _FieldError("bags", f"player {player} has {count} {coin} coins; the box holds {most}")
    hidden = state.hands[player].count(HIDDEN) + state.facedown[player].count(HIDDEN)
    if hidden > len(state.bags[player]):
        raise _FieldError("bags", f"player {player}'s hidden coins ('?') are counted in their bag, which "
                          f"holds only {len(state.bags[player])}")
    most_in_hand = HAND_SIZE + (1 if state.game.num_players == 4 else 0)  # + a teammate's Priest draw
    if len(state.hands[player]) > most_in_hand:
        raise _FieldError("hands", f"player {player} holds {len(state.hands[player])} coins; at most "
                          f"{most_in_hand}")


def _check_units(state: WarChestState) -> None:
    for _, owner, kind, _ in state.units:
        if kind not in state.armies[owner]:
            raise _FieldError("units", f"player {owner} has a {kind} unit but no {kind} in their army")
    for (owner, kind), count in Counter((o, k) for _, o, k, _ in state.units).items():
        if count > (2 if kind == "footman" else 1):
            raise _FieldError("units", f"player {owner} has {count} {kind} units; one of a type "
                              "(Footman: two) may be on the board")


def _check_round(state: WarChestState) -> None:
    """The draw goes seat by seat before anyone acts; in play the seat to act has a coin."""
    n = state.game.num_players
    if state.phase == "draw":
        if state.pending or state.claimed:
            raise _FieldError("phase", "a round starts with the draw: no follow-ups, initiative unclaimed")
        if any(state.hands[seat] for seat in range(state.turn, n)):
            raise _FieldError("hands", f"seats {state.turn}..{n - 1} have not drawn yet; their hands "
                              "are empty")
        if state._drawable(state.turn) == 0:
            raise _FieldError("turn", f"seat {state.turn} draws but has no coin in bag or discard pile")
    elif not state.pending and not state.hands[state.turn] and not state.is_terminal():
        raise _FieldError("turn", f"seat {state.turn} is to act with an empty hand")


def _check_pending(state: WarChestState) -> None:
    for kind, player, detail in state.pending:
        where = f"{kind}:{player}"
        if kind == "guard" and (state.board.get(detail, (None, ""))[:2] != (player, "royal-guard")
                                or "royal-guard" not in state.supply[player]):
            raise _FieldError("pending", f"{where}: an attacked Royal Guard of that player stands on "
                              f"{hex_name(detail)} and a Royal Guard coin is in their supply")
        if kind == "priest-use" and detail not in state.hands[player] and HIDDEN not in state.hands[player]:
            raise _FieldError("pending", f"{where}: the coin to use ({detail}) is in that player's hand")
    # an attacked Royal Guard's choice comes first; right after it, the attacker's draw
    for depth, (kind, player, _) in enumerate(reversed(state.pending)):
        if (kind == "guard" and depth > 0) or (kind == "priest-draw" and depth > 1) or \
                (kind == "priest-draw" and depth == 1 and state.pending[-1][0] != "guard"):
            raise _FieldError("pending", f"{kind}:{player}: happens at once (the last follow-up, or a "
                              "Warrior Priest's draw right under the Royal Guard's choice)")


def _check_markers(state: WarChestState) -> None:
    markers = state.game.map.markers
    for side in (0, 1):
        if state.markers_left(side) < 0:
            raise _FieldError("control", f"side {side} has placed more than its {markers} markers")
    if state.markers_left(0) == 0 and state.markers_left(1) == 0:
        raise _FieldError("control", "both sides have placed every marker; the game ends at the first")


def _check_playable(state: WarChestState) -> None:
    """Backstop: a game that is not over always has a legal action or a chance event."""
    if state.is_terminal() or state.phase == "deal":
        return
    if state.current_player == CHANCE:
        if state._drawable(state._drawer()[0]) == 0:
            raise _FieldError("pending", "a coin must be drawn, but bag and discard pile are empty")
    elif not state.legal_moves():
        raise _FieldError("pending" if state.pending else "hands",
                          "the player to act has no legal action and the game is not over")


def compose(game: WarChest, units: str = "-", hands: tuple[str, ...] = (), *, turn: int = 0,
            armies: str | None = None, bags: tuple[str, ...] | None = None,
            faceup: tuple[str, ...] = (), facedown: tuple[str, ...] = (), supply: tuple[str, ...] = (),
            control: str | None = None, initiative: str = "0", pending: str = "-",
            phase: str = "play") -> WarChestState:
    """A position for a scenario or an explainer, in the fields of the position text; per-player
    fields are tuples of comma lists ('-' or missing: empty). Defaults: the first-game armies
    (4 players: a fixed set of three each), the starting markers, and in each bag the player's
    first unit coin and the Royal coin (each only if the box has that coin to spare). Coins
    named nowhere are back in the box; the position is checked like any position text.

        compose(game, "3,3:0:archer:1;3,5:1:knight:2", ("archer", "-"))
    """
    n = game.num_players
    first = "/".join(",".join(a) for a in FIRST_GAME) if n == 2 else \
        "swordsman,pikeman,ensign/archer,cavalry,lancer/knight,marshall,scout/footman,mercenary,berserker"
    armies = armies or first

    def per_player(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(values) + ("-",) * (n - len(values))

    if bags is None:
        placed = (per_player(hands), per_player(faceup), per_player(facedown), per_player(supply))
        bags = tuple(_default_bag(p, army.split(",")[0], units, [lists[p] for lists in placed])
                     for p, army in enumerate(armies.split("/")))
    starts = ";".join(f"{hex_name(h)}:{side}" for side in (0, 1) for h in game.map.starts[side])
    return game.from_text(" ".join([
        phase, armies, "-", *("/".join(per_player(x)) for x in (bags, hands, faceup, facedown, supply, ())),
        units, control or starts, initiative, str(turn), pending, "0"]))


def _default_bag(player: int, unit: str, units: str, lists: list[str]) -> str:
    """compose's bag: the player's first unit coin and the Royal coin, if the box has them to spare."""
    named = Counter(c for coins in lists for c in coins.split(","))
    for item in ([] if units == "-" else units.split(";")):
        where_owner_kind_height = item.split(":")
        if len(where_owner_kind_height) == 4 and where_owner_kind_height[1:3] == [str(player), unit] \
                and where_owner_kind_height[3].isdigit():
            named[unit] += int(where_owner_kind_height[3])
    bag = ([unit] if named[unit] < COINS.get(unit, 0) else []) + ([ROYAL] if not named[ROYAL] else [])
    return ",".join(bag) or "-"


# --- scene ----------------------------------------------------------------------------------------

def _scene(state: WarChestState, perspective: int | None) -> Scene:
    game, m = state.game, state.game.map
    cells = tuple(Cell(hex_name(h), h[0], h[1], shade="location" if h in m.locations else None,
                       marker=state.controller.get(h)) for h in sorted(m.hexes))
    tokens = tuple(Token(hex_name(h), NAMES[k] + (f" ×{n}" if n > 1 else ""), SYMBOLS[k], owner=o,
                         kind="coin", height=n) for h, o, k, n in state.units)
    zones: list[Zone] = []
    if state.phase == "draft":
        zones.append(Zone("draft", "Draft: cards to pick", None,
                          tuple(ZoneItem(zone_cell("draft", u), NAMES[u], SYMBOLS[u]) for u in state.pool)))
    if state.pending and state.current_player != CHANCE:
        zones.append(_prompt_zone(state))
    holder = state.initiative
    zones.append(Zone("initiative", "Initiative" + (" (claimed this round)" if state.claimed else ""), holder,
                      (ZoneItem(zone_cell("initiative", "marker"), f"Initiative: {game.player_names[holder]}",
                                "⚑", owner=holder),)))
    for p in range(game.num_players):
        zones += _player_zones(state, p)
    return Scene(game=game.id, layout="hex", cells=cells, tokens=tokens, zones=tuple(zones),
                 players=game.player_names, to_move=None if state.is_terminal()
                 or state.current_player == CHANCE else state.current_player,
                 status=_status(state), perspective=perspective, last_cells=state.last)


def _prompt_zone(state: WarChestState) -> Zone:
    kind, player, detail = state.pending[-1]
    if kind == "guard":
        items = (ZoneItem(zone_cell("prompt", "guard-supply"), "Take the coin from the supply", "S",
                          owner=player),
                 ZoneItem(zone_cell("prompt", "guard-unit"), "Take the coin from the unit", "U",
                          owner=player))
        return Zone("prompt", f"Royal Guard on {hex_name(detail)} attacked", player, items)
    if kind == "priest-use":
        return Zone("prompt", f"Use the drawn coin ({NAMES.get(detail, '?')}) at once", player)
    titles = {"sword": "Swordsman: move one hex?", "berserk": "Berserker: pay a coin to maneuver again?",
              "mercenary": "Mercenary: a free maneuver?", "footman": "Footman: maneuver each unit"}
    done = ZoneItem(zone_cell("prompt", "done"), "Done", "✓", owner=player)
    return Zone("prompt", titles[kind], player, (done,))


def _player_zones(state: WarChestState, p: int) -> list[Zone]:
    name = state.game.player_names[p]

    def items(zone: str, coins, face_down: bool = False) -> tuple[ZoneItem, ...]:
        return tuple(ZoneItem(zone_cell(zone, c), NAMES.get(c, "hidden coin"), SYMBOLS.get(c, "?"),
                              count=k, owner=p, face_down=face_down or c == "?")
                     for c, k in sorted(Counter(coins).items()))

    hidden_hand = "?" in state.hands[p]
    bag_size = len(state.bags[p]) - (state.hands[p].count("?") + state.facedown[p].count("?"))
    discard = items(f"discard-{p}", state.faceup[p]) + (ZoneItem(
        zone_cell(f"discard-{p}", "face-down"), "face-down coins", "▾", count=len(state.facedown[p]), owner=p,
        face_down=True),)
    army = ", ".join(NAMES[u] for u in state.armies[p]) or "none yet"
    side = state.game.team(p)
    zones = [
        Zone(f"hand-{p}", f"{name}: hand" + (" (hidden)" if hidden_hand else ""), p,
             items(f"hand-{p}", state.hands[p])),
        Zone(f"bag-{p}", f"{name}: bag", p, (), hidden_count=bag_size),
        Zone(f"discard-{p}", f"{name}: discard pile", p, discard),
        Zone(f"supply-{p}", f"{name}: supply ({army}); markers left: {state.markers_left(side)}", p,
             tuple(ZoneItem(zone_cell(f"supply-{p}", u), NAMES[u], SYMBOLS[u], count=state.supply[p].count(u),
                            owner=p) for u in state.armies[p] if u in state.supply[p])),
    ]
    if state.eliminated[p]:
        zones.append(Zone(f"eliminated-{p}", f"{name}: out of the game", p,
                          items(f"eliminated-{p}", state.eliminated[p])))
    return zones


def _status(state: WarChestState) -> str:
    names = state.game.player_names
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return f"Unfinished — {outcome.reason}"
        who = names[outcome.winner] if state.game.num_players == 2 else f"Team {'AB'[outcome.winner]}"
        return f"{who} wins — {outcome.reason}"
    if state.phase == "deal":
        random_setup = state.game.options["setup"] == "random"
        return "The armies are dealt" if random_setup else "The draft cards are revealed"
    if state.current_player == CHANCE:
        return f"{names[state._drawer()[0]]} draws"
    if state.phase == "draft":
        return f"{names[state.current_player]} picks a unit"
    return f"{names[state.current_player]} to act"
