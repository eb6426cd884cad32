"""What the units do, each rule's move generation beside its effect.

- the three maneuvers every unit on the board makes with a coin of its type (move, control,
  attack), and what an attack sets off (Pikeman, Royal Guard, Swordsman, Warrior Priest);
- `TACTICS`: each unit's tactic, by the coin that pays for it: which orders it offers
  (`targets`) and what one does (`effect`);
- `FOLLOW_UPS`: the maneuvers offered inside a turn without a coin (Swordsman, Berserker,
  Mercenary, Footman): which ones, and what making one costs besides the maneuver;
- the Royal Guard's choice when it is attacked.

Generation reads a `WarChestState`; effects change a `rules.WorkingCopy` (the state taken apart
while one action is carried out) and return the follow-ups they start, first one first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules_kernel.core import Move
from rules_kernel.games.war_chest.box import DIRECTIONS, ROYAL, Hex, Order, Pending, distance, hex_name, step
from rules_kernel.scene import zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.rules import WorkingCopy
    from rules_kernel.games.war_chest.state import WarChestState

#: their cards have no normal attack (the Archer shoots, the Lancer charges: both tactics)
NO_NORMAL_ATTACK = {"archer", "lancer"}


# --- who stands where ---------------------------------------------------------------------------


def enemy(state: WarChestState, player: int, h: Hex) -> bool:
    unit = state.board.get(h)
    return unit is not None and state.game.team(unit[0]) != state.game.team(player)


def friend(state: WarChestState, player: int, h: Hex) -> bool:
    unit = state.board.get(h)
    return unit is not None and state.game.team(unit[0]) == state.game.team(player)


def empty_neighbours(state: WarChestState, h: Hex) -> list[Hex]:
    return [n for n in state.game.map.neighbours[h] if n not in state.board]


def can_attack(state: WarChestState, frm: Hex, target: Hex) -> bool:
    """Knight: only a bolstered unit (two coins or more) may attack it."""
    return state.board[target][1] != "knight" or state.board[frm][2] >= 2


def attack_targets(state: WarChestState, frm: Hex, owner: int) -> list[Hex]:
    return [n for n in state.game.map.neighbours[frm] if enemy(state, owner, n) and can_attack(state, frm, n)]


def with_unit_moved(state: WarChestState, h: Hex) -> Callable[[Hex], WarChestState]:
    """A look-ahead: the state with the unit on h moved to another hex."""

    def moved(t: Hex) -> WarChestState:
        units = tuple(sorted((t if x == h else x, o, k, n) for x, o, k, n in state.units))
        return replace(state, units=units)

    return moved


# --- the maneuvers: move, control, attack ---------------------------------------------------------


def maneuver_moves(state: WarChestState, h: Hex, coin: str) -> list[Move]:
    """Move, control, attack of the unit on h (coin "": a free or paid follow-up)."""
    owner, kind, _ = state.board[h]
    first = (zone_cell(f"hand-{owner}", coin),) if coin else ()
    moves: list[Move] = [
        Order("move", coin, (h, t), cells=first + (hex_name(h), hex_name(t)))
        for t in empty_neighbours(state, h)
    ]
    if h in state.game.map.locations and state.controller.get(h) != state.game.team(owner):
        moves.append(Order("control", coin, (h,), cells=first + (hex_name(h),)))
    if kind not in NO_NORMAL_ATTACK:
        moves += [
            Order("attack", coin, (h, t), cells=first + (hex_name(h), hex_name(t)))
            for t in attack_targets(state, h, owner)
        ]
    return moves


def maneuver(work: WorkingCopy, move: Order) -> tuple[list[Pending], Hex]:
    """Carry out a maneuver: its follow-ups, and the hex the unit stands on after it."""
    h = move.hexes[0]
    if move.verb == "move":
        work.units[move.hexes[1]] = work.units.pop(h)
        return [], move.hexes[1]
    if move.verb == "control":
        owner, kind, _ = work.units[h]
        work.control[h] = work.game.team(owner)  # an enemy marker goes back to its side
        return ([("priest-draw", owner, None)] if kind == "warrior-priest" else []), h
    return attack(work, h, move.hexes[1], adjacent=True), h


def attack(work: WorkingCopy, frm: Hex, target: Hex, adjacent: bool) -> list[Pending]:
    attacker, defender = work.units[frm], work.units[target]
    follow: list[Pending] = []
    if defender[1] == "royal-guard" and "royal-guard" in work.supply[defender[0]]:
        follow.append(("guard", defender[0], target))  # its owner chooses where the coin comes from
    else:
        lose_coin(work, target)
    if defender[1] == "pikeman" and adjacent:  # the attacker loses a coin too
        lose_coin(work, frm)
    if frm in work.units:  # what the attacking unit does next, if it is still there
        if attacker[1] == "swordsman":
            follow.append(("sword", attacker[0], frm))
        elif attacker[1] == "warrior-priest":
            follow.append(("priest-draw", attacker[0], None))
    return follow


def lose_coin(work: WorkingCopy, h: Hex) -> None:
    """One coin of the stack leaves the game; the last one takes the unit with it."""
    owner, kind, _ = work.units[h]
    work.eliminated[owner].append(kind)
    work.units[h][2] -= 1
    if work.units[h][2] == 0:
        del work.units[h]


def berserk(work: WorkingCopy, follow: list[Pending], at: Hex) -> list[Pending]:
    """A unit has just maneuvered and stands on `at`: a Berserker may maneuver again (its
    owner's follow-up, after the others), whatever made it maneuver: its own coin, its own
    repeat, an Ensign's move, a Marshall's attack (issue #20 item 6, the War Chest FAQ)."""
    unit = work.units.get(at)
    if unit is not None and unit[1] == "berserker":
        return follow + [("berserk", unit[0], at)]
    return follow


# --- tactics ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tactic:
    """A unit's tactic. `targets(state, h, owner)`: for the unit on h, the hexes an order
    names after h, one tuple per order; `effect(work, order, player)`: carries an order out and
    returns the follow-ups it starts."""

    targets: Callable[[WarChestState, Hex, int], Iterator[tuple[Hex, ...]]]
    effect: Callable[[WorkingCopy, Order, int], list[Pending]]


def tactic_moves(state: WarChestState, h: Hex, coin: str) -> list[Move]:
    """The tactic orders of the unit on h, paid with `coin` (`TACTICS` by that coin)."""
    tactic = TACTICS.get(coin)
    if tactic is None:
        return []
    owner = state.board[h][0]
    first = (zone_cell(f"hand-{owner}", coin), hex_name(h))
    return [
        Order("tactic", coin, (h,) + rest, cells=first + tuple(hex_name(x) for x in rest))
        for rest in dict.fromkeys(tactic.targets(state, h, owner))
    ]


def _ranged_attack(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    """Archer, Crossbowman: an attack from afar, so a Pikeman cannot hit back."""
    h, target = order.hexes
    return attack(work, h, target, adjacent=False)


def _move_unit(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    """Light Cavalry, Royal Guard: the unit moves to the hex named."""
    h, to = order.hexes
    work.units[to] = work.units.pop(h)
    return []


def _move_then_attack(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    """Cavalry, Lancer: the unit moves, then attacks from where it stands."""
    h, to, target = order.hexes
    work.units[to] = work.units.pop(h)
    return attack(work, to, target, adjacent=True)


def _archer_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Attack a unit exactly two hexes away; the hex between may be occupied."""
    for t in state.board:
        if distance(h, t) == 2 and enemy(state, owner, t) and can_attack(state, h, t):
            yield (t,)


def _crossbowman_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Attack two hexes away in a straight line, over an empty hex."""
    for d in DIRECTIONS:
        mid, t = step(h, d), step(h, d, 2)
        if (
            mid in state.game.map.hexes
            and mid not in state.board
            and enemy(state, owner, t)
            and can_attack(state, h, t)
        ):
            yield (t,)


def _cavalry_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Move, then attack (the project reads it as both: no tactic without a target)."""
    moved = with_unit_moved(state, h)
    for t in empty_neighbours(state, h):
        for target in attack_targets(moved(t), t, owner):
            yield (t, target)


def _lancer_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Move one or two hexes in a straight line over empty hexes, then attack the unit
    directly beyond on that line; no tactic without a target."""
    moved = with_unit_moved(state, h)
    for d in DIRECTIONS:
        for k in (1, 2):
            path = [step(h, d, i) for i in range(1, k + 1)]
            if any(p not in state.game.map.hexes or p in state.board for p in path):
                break
            target = step(h, d, k + 1)
            if enemy(state, owner, target) and can_attack(moved(path[-1]), path[-1], target):
                yield (path[-1], target)


def _light_cavalry_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Move two hexes, both empty."""
    for mid in empty_neighbours(state, h):
        for t in empty_neighbours(state, mid):
            if t != h:
                yield (t,)


def _ensign_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Another friendly unit within two hexes moves one hex, to a hex within two of the Ensign."""
    for u in state.board:
        if u != h and distance(u, h) <= 2 and friend(state, owner, u):
            for t in empty_neighbours(state, u):
                if distance(t, h) <= 2:
                    yield (u, t)


def _ensign_effect(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    """The other unit moves: a maneuver of that unit (a Berserker may go again)."""
    _, unit, to = order.hexes
    work.units[to] = work.units.pop(unit)
    return berserk(work, [], to)


def _marshall_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Another friendly unit within two hexes makes a normal attack."""
    for u, (u_owner, kind, _) in state.board.items():
        if u != h and distance(u, h) <= 2 and friend(state, owner, u) and kind not in NO_NORMAL_ATTACK:
            for target in attack_targets(state, u, u_owner):
                yield (u, target)


def _marshall_effect(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    """The other unit attacks: a maneuver of that unit (a Berserker may go again)."""
    _, unit, target = order.hexes
    return berserk(work, attack(work, unit, target, adjacent=True), unit)


def _footman_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Each Footman unit makes one maneuver (offered as follow-ups)."""
    if any(maneuver_moves(state, f, "") for f in state.unit_hexes(owner, "footman")):
        yield ()


def _footman_effect(work: WorkingCopy, order: Order, player: int) -> list[Pending]:
    footmen = sorted(h for h, (owner, kind, _) in work.units.items() if owner == player and kind == "footman")
    return [("footman", player, tuple(footmen))]


def _royal_guard_targets(state: WarChestState, h: Hex, owner: int) -> Iterator[tuple[Hex, ...]]:
    """Paid with the Royal coin: the Royal Guard moves one hex (2018), or up to two hexes to a
    location its side controls (revised)."""
    targets = set(empty_neighbours(state, h))
    if state.game.options["royal_guard"] == "revised":
        targets |= {t for m in targets for t in empty_neighbours(state, m)}
        side = state.game.team(owner)
        targets = {t for t in targets if t != h and state.controller.get(t) == side}
    for t in sorted(targets):
        yield (t,)


#: each tactic by the coin that pays for it: a unit's own coin, or the Royal coin for the
#: Royal Guard's; units not listed have none
TACTICS: dict[str, Tactic] = {
    "archer": Tactic(_archer_targets, _ranged_attack),
    "crossbowman": Tactic(_crossbowman_targets, _ranged_attack),
    "cavalry": Tactic(_cavalry_targets, _move_then_attack),
    "lancer": Tactic(_lancer_targets, _move_then_attack),
    "light-cavalry": Tactic(_light_cavalry_targets, _move_unit),
    "ensign": Tactic(_ensign_targets, _ensign_effect),
    "marshall": Tactic(_marshall_targets, _marshall_effect),
    "footman": Tactic(_footman_targets, _footman_effect),
    ROYAL: Tactic(_royal_guard_targets, _move_unit),
}


# --- follow-ups: maneuvers without a coin --------------------------------------------------------


def _nothing_more(work: WorkingCopy, player: int, detail: Any, frm: Hex) -> None:
    """Most follow-ups cost nothing and leave nothing to do besides the maneuver."""


@dataclass(frozen=True)
class FollowUp:
    """Maneuvers a unit may make inside the turn without a coin. `moves(state, player,
    detail)`: the maneuvers offered (the `detail` of the pending follow-up); `before(work,
    player, detail, frm)`: what making one from `frm` costs or leaves to do, besides it."""

    moves: Callable[[WarChestState, int, Any], list[Move]]
    before: Callable[[WorkingCopy, int, Any, Hex], None] = _nothing_more


def follow_up_moves(state: WarChestState, pending: Pending) -> list[Move]:
    kind, player, detail = pending
    return FOLLOW_UPS[kind].moves(state, player, detail)


def follow_up(work: WorkingCopy, pending: Pending, move: Order) -> None:
    """Make the follow-up maneuver `move` (a Berserker that made it may go again)."""
    kind, player, detail = pending
    FOLLOW_UPS[kind].before(work, player, detail, move.hexes[0])
    follow, at = maneuver(work, move)
    work.push(berserk(work, follow, at))


def _sword_moves(state: WarChestState, player: int, h: Hex) -> list[Move]:
    """Swordsman: "after it attacks, it may move one hex"."""
    if state.board.get(h, (None, ""))[:2] != (player, "swordsman"):
        return []
    return [m for m in maneuver_moves(state, h, "") if m.verb == "move"]


def _berserk_moves(state: WarChestState, player: int, h: Hex) -> list[Move]:
    """Berserker: maneuver again, paying a coin of its stack, never the last."""
    unit = state.board.get(h)
    if unit is None or unit[:2] != (player, "berserker") or unit[2] < 2:
        return []
    return maneuver_moves(state, h, "")


def _pay_berserk(work: WorkingCopy, player: int, h: Hex, frm: Hex) -> None:
    """The price: one coin of its own stack, into the discard pile."""
    work.units[frm][2] -= 1
    work.faceup[player].append("berserker")


def _mercenary_moves(state: WarChestState, player: int, _: None) -> list[Move]:
    """Mercenary, just recruited: "the Mercenary unit may make a free maneuver"."""
    return [m for h in state.unit_hexes(player, "mercenary") for m in maneuver_moves(state, h, "")]


def _footman_moves(state: WarChestState, player: int, hexes: tuple[Hex, ...]) -> list[Move]:
    """Footman tactic: each Footman unit that has not yet maneuvered."""
    return [
        m
        for h in hexes
        if state.board.get(h, (None, ""))[:2] == (player, "footman")
        for m in maneuver_moves(state, h, "")
    ]


def _footmen_left(work: WorkingCopy, player: int, hexes: tuple[Hex, ...], frm: Hex) -> None:
    """The other Footman unit still has its maneuver to come."""
    if len(hexes) > 1:
        work.pending.append(("footman", player, tuple(h for h in hexes if h != frm)))


FOLLOW_UPS: dict[str, FollowUp] = {
    "sword": FollowUp(_sword_moves),
    "berserk": FollowUp(_berserk_moves, _pay_berserk),
    "mercenary": FollowUp(_mercenary_moves),
    "footman": FollowUp(_footman_moves, _footmen_left),
}


# --- the Royal Guard attacked --------------------------------------------------------------------


def guard_moves() -> list[Move]:
    """Its owner chooses: a Royal Guard coin from the supply, or one from the unit."""
    return [Order("guard", arg=a, cells=(zone_cell("prompt", f"guard-{a}"),)) for a in ("supply", "unit")]


def guard(work: WorkingCopy, order: Order, pending: Pending) -> None:
    _, owner, h = pending
    if order.arg == "supply":  # "remove a Royal Guard coin from the supply instead"
        work.supply[owner].remove("royal-guard")
        work.eliminated[owner].append("royal-guard")
    else:
        lose_coin(work, h)
