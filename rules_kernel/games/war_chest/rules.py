"""War Chest's turn: the legal actions of a position, carrying one out, and how the turn and
the round go on; the draws from a bag. What each unit does is in `units`.

A round: every seat draws three coins (chance), then from the initiative holder the seats take
turns, one coin one action, until every hand is empty. Inside a turn follow-ups may wait
(`state.pending`, the last resolved first): a choice, a draw or maneuvers without a coin.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb
from typing import TYPE_CHECKING

from rules_kernel.core import IllegalMoveError, Move
from rules_kernel.games.war_chest.box import (
    ARMY_SIZE,
    COINS,
    FACE_DOWN,
    HAND_SIZE,
    HIDDEN,
    ROYAL,
    Hex,
    Order,
    Pending,
    hex_name,
)
from rules_kernel.games.war_chest.units import (
    TACTICS,
    berserk,
    empty_neighbours,
    follow_up,
    follow_up_moves,
    guard,
    guard_moves,
    maneuver,
    maneuver_moves,
    tactic_moves,
)
from rules_kernel.scene import zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.state import WarChestState


# --- the legal actions ------------------------------------------------------------------------


def legal_moves(state: WarChestState) -> list[Move]:
    """The actions of the player to act (not at chance, not at the end: the state checks)."""
    if state.phase == "draft":
        return [Order("pick", arg=u, cells=(zone_cell("draft", u),)) for u in sorted(state.pool)]
    if not state.pending:
        return coin_moves(state, state.turn, sorted(set(state.hands[state.turn])))
    kind, player, detail = state.pending[-1]
    if kind == "guard":
        return guard_moves()
    if kind == "priest-use":
        return coin_moves(state, player, [detail])
    return follow_up_moves(state, state.pending[-1]) + [Order("done", cells=(zone_cell("prompt", "done"),))]


def coin_moves(state: WarChestState, player: int, coins: list[str]) -> list[Move]:
    """Every action paid with one of `coins` from the player's hand."""
    moves: list[Move] = []
    for coin in coins:
        moves += face_down_moves(state, player, coin)
        if coin == ROYAL:  # the Royal coin pays the Royal Guard's tactic
            for h in state.unit_hexes(player, "royal-guard"):
                moves += tactic_moves(state, h, ROYAL)
            continue
        moves += placements(state, player, coin)
        for h in state.unit_hexes(player, coin):
            moves += maneuver_moves(state, h, coin) + tactic_moves(state, h, coin)
    return moves


def face_down_moves(state: WarChestState, player: int, coin: str) -> list[Move]:
    """Any coin, played face down: pass, claim the initiative, recruit."""
    hand = zone_cell(f"hand-{player}", coin)
    moves: list[Move] = [Order("pass", coin, cells=(hand, zone_cell(f"discard-{player}", "face-down")))]
    holder_side = state.game.team(state.initiative)
    if not state.claimed and holder_side != state.game.team(player):  # "at most once per round"
        moves.append(Order("initiative", coin, cells=(hand, zone_cell("initiative", "marker"))))
    for unit in sorted(set(state.supply[player])):
        moves.append(Order("recruit", coin, arg=unit, cells=(hand, zone_cell(f"supply-{player}", unit))))
    return moves


def placements(state: WarChestState, player: int, coin: str) -> list[Move]:
    """A unit coin, played face up onto the board: bolster the unit, or deploy it."""
    hand = zone_cell(f"hand-{player}", coin)
    mine = state.unit_hexes(player, coin)
    moves: list[Move] = [Order("bolster", coin, (h,), cells=(hand, hex_name(h))) for h in mine]
    if len(mine) < (2 if coin == "footman" else 1):  # Footman: two units may be on the board
        for h in deploy_hexes(state, player, coin):
            moves.append(Order("deploy", coin, (h,), cells=(hand, hex_name(h))))
    return moves


def deploy_hexes(state: WarChestState, player: int, coin: str) -> list[Hex]:
    side = state.game.team(player)
    hexes = {h for h, s in state.control if s == side and h not in state.board}
    if coin == "scout":  # "may also be deployed next to any friendly unit"
        for h, owner, _, _ in state.units:
            if state.game.team(owner) == side:
                hexes.update(empty_neighbours(state, h))
    return sorted(hexes)


# --- carrying an action out -----------------------------------------------------------------------


#: the fields a WorkingCopy takes apart only when an action first touches them (most actions
#: touch a few: a draw the bags and hands, a maneuver the units)
_PER_PLAYER = ("bags", "hands", "faceup", "facedown", "supply", "eliminated")


class WorkingCopy:
    """The state taken apart into lists and dicts while one action is carried out. The lists
    and dicts are made on first use (`__getattr__`), and `freeze` builds anew only those, so
    an action pays for the parts it changes."""

    def __init__(self, state: WarChestState) -> None:
        self.state = state
        self.game = state.game
        self.initiative, self.claimed, self.turn = state.initiative, state.claimed, state.turn
        self.phase = state.phase
        self.pending = list(state.pending)

    def __getattr__(self, name: str):  # called only for a part not taken apart yet
        state = self.__dict__["state"]
        if name in _PER_PLAYER:
            value = [list(x) for x in getattr(state, name)]
        elif name == "armies":
            value = [list(a) for a in state.armies]
        elif name == "pool":
            value = list(state.pool)
        elif name == "units":
            value = {h: [o, k, n] for h, o, k, n in state.units}
        elif name == "control":
            value = dict(state.control)
        else:
            raise AttributeError(f"WorkingCopy has no part {name!r}")
        self.__dict__[name] = value
        return value

    def freeze(self) -> WarChestState:
        made = self.__dict__
        changes = {
            "phase": self.phase,
            "initiative": self.initiative,
            "claimed": self.claimed,
            "turn": self.turn,
            "pending": tuple(self.pending),
        }
        for name in _PER_PLAYER:
            if name in made:
                changes[name] = tuple(tuple(sorted(x)) for x in made[name])
        if "armies" in made:
            changes["armies"] = tuple(tuple(a) for a in made["armies"])
        if "pool" in made:
            changes["pool"] = tuple(made["pool"])
        if "units" in made:
            changes["units"] = tuple(sorted((h, o, k, n) for h, (o, k, n) in made["units"].items()))
        if "control" in made:
            changes["control"] = tuple(sorted(made["control"].items()))
        return self.state.replaced(**changes)

    def push(self, follow: list[Pending]) -> None:
        self.pending.extend(reversed(follow))  # the first follow-up is resolved first

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


def after_move(state: WarChestState, move: Order) -> WarChestState:
    """The position right after the player's action (before the turn moves on: `settled`)."""
    work = WorkingCopy(state)
    _perform(work, move, state.current_player)
    after = work.freeze()
    if after.phase == "draft" and not after.pool:  # the last card is picked
        after = armed(after, after.armies)
    return after


def _perform(work: WorkingCopy, move: Order, player: int) -> None:
    if move.verb == "pick":  # kept sorted: the order of the picks is no part of the position
        work.armies[player] = sorted(work.armies[player] + [move.arg])
        work.pool.remove(move.arg)
        return
    top = work.pending.pop() if work.pending else None
    if move.verb == "guard":
        guard(work, move, top)
        return
    if move.verb == "done":
        return
    if top is not None and top[0] != "priest-use":
        follow_up(work, top, move)
        return
    _use_coin(work, move, player)


def _use_coin(work: WorkingCopy, move: Order, player: int) -> None:
    coin, verb = move.coin, move.verb
    work.hands[player].remove(coin)
    if verb == "deploy":
        work.units[move.hexes[0]] = [player, coin, 1]
    elif verb == "bolster":
        work.units[move.hexes[0]][2] += 1
    elif verb in FACE_DOWN:
        work.facedown[player].append(coin)
        _face_down_action(work, move, player)
    else:
        work.faceup[player].append(coin)
        if verb == "tactic":
            work.push(TACTICS[coin].effect(work, move, player))
        else:
            follow, at = maneuver(work, move)
            work.push(berserk(work, follow, at))


def _face_down_action(work: WorkingCopy, move: Order, player: int) -> None:
    if move.verb == "initiative":
        work.initiative, work.claimed = player, True
    elif move.verb == "recruit":
        work.supply[player].remove(move.arg)
        work.faceup[player].append(move.arg)
        if move.arg == "mercenary":  # "the Mercenary unit may make a free maneuver"
            work.push([("mercenary", player, None)])


def after_chance(state: WarChestState, text: str) -> WarChestState:
    """The position right after a chance outcome: the deal, the draft cards, a draw."""
    if text.startswith("deal:"):
        return armed(state, parse_deal(state, text))
    if text.startswith("reveal:"):
        return state.replaced(phase="draft", pool=tuple(text[len("reveal:") :].split(",")))
    player, k = drawer(state)
    coins = tuple(text[len("draw:") :].split(","))
    work = WorkingCopy(state)
    work.draw(player, coins, k)
    if state.phase == "draw":
        work.turn += 1
    else:  # the Warrior Priest's coin: use it at once
        work.pending[-1] = ("priest-use", player, coins[0])
    return work.freeze()


def armed(state: WarChestState, armies: tuple[tuple[str, ...], ...]) -> WarChestState:
    """The armies are known: bags (two coins of each type and the Royal coin), supplies."""
    bags = tuple(tuple(sorted([u for u in a for _ in range(2)] + [ROYAL])) for a in armies)
    supply = tuple(tuple(sorted(u for u in a for _ in range(COINS[u] - 2))) for a in armies)
    first = 1 if state.game.options["setup"] == "draft" and state.game.num_players == 2 else 0
    return state.replaced(
        phase="draw", armies=armies, pool=(), bags=bags, supply=supply, initiative=first, turn=0
    )


# --- the turn and the round go on -----------------------------------------------------------------


def settled(state: WarChestState) -> WarChestState:
    """Drop follow-ups that can no longer happen; then the turn, the round, the draws."""
    while state.pending and not _pending_live(state, state.pending[-1]):
        state = state.replaced(pending=state.pending[:-1])
    if state.pending or state.is_terminal():
        return state
    n = state.game.num_players
    if state.phase == "draw":
        for seat in range(state.turn, n):
            if state.bags[seat] or state.faceup[seat] or state.facedown[seat]:
                return state.replaced(turn=seat)
        return state.replaced(phase="play", turn=_next_with_coins(state, state.initiative - 1))
    if state.phase == "play":
        nxt = _next_with_coins(state, state.turn)
        if nxt is None:  # every hand is empty: a new round
            return settled(state.replaced(phase="draw", claimed=False, turn=0))
        return state.replaced(turn=nxt)
    return state


def _next_with_coins(state: WarChestState, seat: int) -> int | None:
    n = state.game.num_players
    for i in range(1, n + 1):
        if state.hands[(seat + i) % n]:
            return (seat + i) % n
    return None


def _pending_live(state: WarChestState, pending: Pending) -> bool:
    kind, player, _ = pending
    if kind == "priest-draw":
        return bool(state.bags[player] or state.faceup[player] or state.facedown[player])
    if kind in ("guard", "priest-use"):
        return True
    return bool(follow_up_moves(state, pending))


def deadlocked(state: WarChestState) -> bool:
    """Ruling: when every unit coin of every player is on the board or out of the game,
    only Royal coins are left to draw, and nothing can ever control a location again."""
    if state.phase not in ("play", "draw") or state.pending:
        return False
    for places in (state.bags, state.hands, state.faceup, state.facedown, state.supply):
        # a hidden coin of a view ('?') is one of its owner's bag coins, counted there
        if any(coin not in (ROYAL, HIDDEN) for coins in places for coin in coins):
            return False
    return True


# --- chance: the deal and the draws -----------------------------------------------------------------


def parse_deal(state: WarChestState, text: str) -> tuple[tuple[str, ...], ...]:
    n, size = state.game.num_players, ARMY_SIZE[state.game.num_players]
    armies = [a.split(",") for a in text[len("deal:") :].split("/")] if text.startswith("deal:") else []
    units = [u for a in armies for u in a]
    if (
        len(armies) != n
        or any(len(a) != size for a in armies)
        or len(set(units)) != len(units)
        or any(u not in COINS for u in units)
    ):
        raise IllegalMoveError(
            f"{text[:40]!r}: the deal is 'deal:' and {n} armies of {size} different "
            "units, like 'deal:archer,cavalry,lancer,scout/knight,...'"
        )
    return tuple(tuple(sorted(a)) for a in armies)


def drawer(state: WarChestState) -> tuple[int, int]:
    """Who draws now, and how many coins."""
    if state.phase == "draw":
        return state.turn, HAND_SIZE
    return state.pending[-1][1], 1  # the Warrior Priest's draw


def drawable(state: WarChestState, player: int) -> int:
    """Coins the player could draw now: the bag, and the discard pile that refills it."""
    return len(state.bags[player]) + len(state.faceup[player]) + len(state.facedown[player])


def draw_odds(state: WarChestState, player: int, k: int) -> list[tuple[tuple[str, ...], float]]:
    """Draw k: what is in the bag first; when it runs out, the whole discard pile goes in."""
    bag = state.bags[player]
    if len(bag) >= k:
        return _multiset_draws(bag, k)
    discard = state.faceup[player] + state.facedown[player]
    return [(tuple(sorted(bag + extra)), p) for extra, p in _multiset_draws(discard, k - len(bag))]


def sample_draw(state: WarChestState, player: int, k: int, rng: random.Random) -> tuple[str, ...]:
    """One draw of k coins with `rng`, as likely as `draw_odds` says: the coins taken at random
    from the bag (the discard pile refilling it when it runs out), without listing every draw
    (the tree search draws thousands of times a second)."""
    bag = state.bags[player]
    if len(bag) >= k:
        return tuple(sorted(rng.sample(bag, k)))
    discard = state.faceup[player] + state.facedown[player]
    return tuple(sorted(bag + tuple(rng.sample(discard, min(k - len(bag), len(discard))))))


def possible_draw(state: WarChestState, player: int, k: int, coins: tuple[str, ...]) -> bool:
    """Whether drawing k coins can give `coins` (one of `draw_odds`' draws), by counting."""
    drawn, bag = Counter(coins), Counter(state.bags[player])
    if len(state.bags[player]) >= k:
        return len(coins) == k and not drawn - bag
    discard = Counter(state.faceup[player] + state.facedown[player])
    refill = min(k - bag.total(), discard.total())  # the whole bag, then this many from the discard
    return len(coins) == bag.total() + refill and not bag - drawn and not drawn - bag - discard


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
