"""War Chest's board editor, the game's "editor" part (`WarChest.PARTS`,
`rules_kernel.parts.EditorPart`: `edit_pieces`, `edit_hands`, `edit_to_move`, `edit_fields`,
`edit`): what an editor offers, and an edit
read back through the position text (`text.position_text`, then `WarChest.from_text`), so an
edited position is checked exactly as a typed one is: at most the box's coins (NOTES.md: coins
per type, one Royal coin each), study positions accepted (`status()` names the coins back in
the box), a refusal a PositionTextError naming the position text's field.

Keys the editor passes back:

- on the map (`place`): a unit, `archer` (one coin) or a bolstered stack `archer×2` (the
  palette offers up to ×3; `edit` takes any height). The type names the seat: the box has one
  card per unit, so a type is in one army only. `marker-A`, `marker-B`: a side's control
  marker (4 players: the team's, shared). A unit and a marker share a hex; placing one keeps
  the other, and None empties the hex of both.
  A stack is never made out of nothing (`_take`): its coins come from the seat's supply, then
  its bag, then its discard piles (face up, then face down); the coins a placement frees (the
  stack it replaces, the unit's stack elsewhere on the map: one unit of a type on the board,
  rulebook l.181, so placing it elsewhere moves it; the Footman's two units, NOTES.md, make a
  second Footman a second unit) and the coins of a stack taken off go back to the owner's
  supply (`_free`). Only when those piles are short is the placement refused (field `supply`).
  The counters are set after the placements, so they stay exact.
- counted per seat (`hands`, keyed (seat, key)): `<coin>@<pile>`, the pile one of `bag`,
  `hand`, `discard-up`, `discard-down`, `supply`, `removed` (coins an attack took out of the
  game, the text's `eliminated`).
- turn fields (`fields`): the phase of the round, the initiative holder, whether it was
  claimed this round, and the follow-ups pending inside the turn (keep them or none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules_kernel.core import EditPiece, default_edit_to_move
from rules_kernel.games.war_chest.box import COINS, NAMES, ROYAL, Hex, hex_label, hex_name
from rules_kernel.games.war_chest.text import position_text
from rules_kernel.position_text import FieldError, read_edit

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.state import WarChestState

STACK = "×"  # `archer×2`: a stack of two coins
PALETTE_HEIGHTS = (1, 2, 3)  # the palette's stacks; taller ones through `edit` or the text
MARKER = "marker-"  # `marker-A`: side A's control marker
SIDES = "AB"
#: pile key -> (the position text's field, the pile as the editor labels it)
PILES = {
    "bag": ("bags", "bag"),
    "hand": ("hands", "hand"),
    "discard-up": ("faceup", "discard pile, face up"),
    "discard-down": ("facedown", "discard pile, face down"),
    "supply": ("supply", "supply"),
    "removed": ("eliminated", "removed from the game"),
}
#: the round's two phases, as the rulebook calls them ("Muntstuk trekken", "Muntstuk gebruiken")
PHASES = {"draw": "draw coins", "play": "use coins"}
YES_NO = ("no", "yes")
NONE = "none"
PHASE, INITIATIVE, CLAIMED, FOLLOW_UPS = (
    "phase",
    "initiative",
    "initiative claimed this round",
    "follow-ups",
)
#: each editor field and the position text's field it sets (refusals name the latter)
TEXT_FIELD = {PHASE: "phase", INITIATIVE: "initiative", CLAIMED: "initiative", FOLLOW_UPS: "pending"}


# --- what the editor offers ----------------------------------------------------------------------


def edit_pieces(state: WarChestState) -> tuple[EditPiece, ...]:
    """Each seat's units on the map (its army only) and its coins counted per pile; the two
    sides' control markers. Nothing before the armies are known: the text then holds no coin."""
    if not all(state.armies):
        return ()
    pieces: list[EditPiece] = []
    for seat, army in enumerate(state.armies):
        pieces += [
            EditPiece(_stack_key(unit, height), _stack_name(unit, height), seat)
            for unit in army
            for height in PALETTE_HEIGHTS
        ]
        pieces += [
            EditPiece(f"{coin}@{pile}", NAMES[coin], seat, in_hand=True, pile=PILES[pile][1], on_board=False)
            for coin, pile in _counted(army)
        ]
    team = "Side" if state.game.num_players == 2 else "Team"
    pieces += [EditPiece(MARKER + SIDES[side], f"{team} {SIDES[side]} marker", side) for side in (0, 1)]
    return tuple(pieces)


def _stack_key(unit: str, height: int) -> str:
    return unit if height == 1 else f"{unit}{STACK}{height}"


def _stack_name(unit: str, height: int) -> str:
    return NAMES[unit] if height == 1 else f"{NAMES[unit]} {STACK}{height}"


def _counted(army: tuple[str, ...]) -> list[tuple[str, str]]:
    """(coin, pile) an editor counts for a seat: its units in every pile; the Royal coin where
    it can be (NOTES.md: never recruited nor lost, so never in supply nor removed; face up only
    when the Royal Guard's tactic paid it)."""
    royal = ["bag", "hand", "discard-down"] + (["discard-up"] if "royal-guard" in army else [])
    return [(unit, pile) for unit in army for pile in PILES] + [(ROYAL, pile) for pile in royal]


def edit_hands(state: WarChestState) -> dict[tuple[int | None, str], int]:
    """How many of each counted coin lie in each pile, keyed (seat, `<coin>@<pile>`)."""
    counts: dict[tuple[int | None, str], int] = {}
    for piece in edit_pieces(state):
        if piece.in_hand and piece.owner is not None:
            coin, pile = piece.key.split("@")
            counts[(piece.owner, piece.key)] = getattr(state, PILES[pile][0])[piece.owner].count(coin)
    return counts


def edit_fields(state: WarChestState) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The round's phase, the initiative holder and whether it was claimed this round, the
    follow-ups of the turn (kept, or none); nothing before the armies are known (then the text
    fixes these: markers on the starts, player 0's initiative)."""
    if state.phase not in PHASES:
        return {}
    names = state.game.player_names
    pending = follow_up_words(state)
    return {
        PHASE: (PHASES[state.phase], tuple(PHASES.values())),
        INITIATIVE: (names[state.initiative], names),
        CLAIMED: (YES_NO[state.claimed], YES_NO),
        FOLLOW_UPS: (pending, (pending, NONE) if pending != NONE else (NONE,)),
    }


def follow_up_words(state: WarChestState) -> str:
    """The pending follow-ups in words, the one resolved first last ("none" without any)."""
    names = state.game.player_names
    return (
        "; ".join(f"{names[player]}: {_follow_up(kind, detail)}" for kind, player, detail in state.pending)
        or NONE
    )


def _follow_up(kind: str, detail) -> str:
    where = hex_label(detail) if isinstance(detail, tuple) and detail and isinstance(detail[0], int) else ""
    return {
        "guard": f"the Royal Guard on {where} is attacked",
        "sword": f"the Swordsman on {where} may move",
        "berserk": f"the Berserker on {where} may maneuver again",
        "mercenary": "the Mercenary's free maneuver",
        "footman": "the Footman units maneuver",
        "priest-draw": "the Warrior Priest's draw",
        "priest-use": "use the coin the Warrior Priest drew",
    }[kind]


# --- an edit --------------------------------------------------------------------------------------


def edit_to_move(state: WarChestState) -> int | None:
    """The seat to move, or the seat chance draws for (`core.default_edit_to_move`)."""
    return default_edit_to_move(state)


def edit(
    state: WarChestState,
    *,
    place: Mapping[str, str | None] | None = None,
    hands: Mapping[tuple[int | None, str], int] | None = None,
    to_move: int | None = None,
    fields: Mapping[str, str] | None = None,
) -> WarChestState:
    """`state` edited (core.State.edit), read back from its text: the text's own checks decide,
    and an edit starts a game (action count 0, no last action)."""
    return read_edit(
        state.game, lambda: _edited(state, place or {}, hands or {}, to_move, fields or {}), position_text
    )


def _edited(state, place, hands, to_move, fields) -> WarChestState:
    """The edited position, unchecked (only what is needed to write it as text). The
    placements come first, then the counters: a counter is exact, also beside a placement."""
    if state.phase not in PHASES:  # no coin is known yet: nothing to edit (was a KeyError)
        raise FieldError("turn", "the armies are not chosen yet (deal or draft); edit once they are")
    units = {unit[0]: unit for unit in state.units}
    control = dict(state.control)
    piles = {field: [list(coins) for coins in getattr(state, field)] for field, _ in PILES.values()}
    _place_all(state, units, control, piles, place)
    for (seat, key), count in hands.items():
        _count(state, piles, seat, key, count)
    changes = _turn_fields(state, fields)
    if fields.get(PHASE) not in (None, PHASES[state.phase]) and to_move is None:
        changes["turn"] = _first_seat(state, changes, piles["hands"])
    if to_move is not None:
        changes["turn"] = _seat(state, to_move, "turn")
    return replace(
        state,
        units=tuple(sorted(units.values())),
        control=tuple(sorted(control.items())),
        **{field: tuple(tuple(sorted(coins)) for coins in lists) for field, lists in piles.items()},
        **changes,
        ply=0,
        last=(),
    )


#: where a placed stack's coins come from, in this order (`_take`): the supply holds the coins
#: not yet in play (rulebook l.69: the coins beside the cards "dienen ze als voorraad"; l.161:
#: recruiting takes from it), so taking from it first leaves the bag, the discards and the
#: hand, what the seat draws and plays, as they were, as far as the supply reaches
TAKE_FROM = ("supply", "bags", "faceup", "facedown")


def _place_all(state, units: dict, control: dict, piles: dict, place: Mapping[str, str | None]) -> None:
    """The placements of one edit: every hex it names is emptied of its unit first (a marker
    placed keeps the unit), and a unit placed on a hex is lifted from where it stood (rulebook
    l.181: one unit of a type on the board; NOTES.md: Footman two, so a Footman placed
    elsewhere is a second unit), its coins back in the supply; then the stacks are put down,
    taking their coins. So a swap or a move needs no spare coin."""
    stacks: dict[Hex, tuple[int, str, int]] = {}
    named: set[Hex] = set()  # the hexes this edit places on or empties
    for cell, key in place.items():
        marker = isinstance(key, str) and key.startswith(MARKER)
        h = _hex(state, cell, "control" if marker else "units")
        named.add(h)
        if key is None:
            control.pop(h, None)
        elif marker:
            if key[len(MARKER) :] not in SIDES:
                raise FieldError("control", f"{key[:20]!r}: a marker is 'marker-A' or 'marker-B'")
            control[h] = SIDES.index(key[len(MARKER) :])
            continue
        else:
            unit, height = _stack(key)
            stacks[h] = (_owner(state, unit), unit, height)
        _free(units, piles, h)
    lifted = {(owner, unit) for owner, unit, _ in stacks.values() if unit != "footman"}
    for h in [h for h, (_, o, k, _) in units.items() if (o, k) in lifted and h not in named]:
        _free(units, piles, h)
    for h, (owner, unit, height) in stacks.items():
        _take(units, piles, h, owner, unit, height)
        units[h] = (h, owner, unit, height)


def _free(units: dict, piles: dict, h: Hex) -> None:
    """The stack on `h` (if any) taken off the map, its coins back in its owner's supply
    (where the coins not in play wait)."""
    if h in units:
        _, owner, unit, height = units.pop(h)
        piles["supply"][owner] += [unit] * height


def _take(units: dict, piles: dict, h: Hex, owner: int, unit: str, height: int) -> None:
    """`height` coins of `unit` out of the owner's piles, in the order of TAKE_FROM; refused
    (nothing taken: the edit is refused whole) when those piles hold fewer."""
    there = [piles[field][owner].count(unit) for field in TAKE_FROM]
    if sum(there) < height:
        on_map = sum(n for _, o, k, n in units.values() if (o, k) == (owner, unit))
        elsewhere = {
            "in hand": piles["hands"][owner].count(unit),
            "on the map": on_map,
            "removed from the game": piles["eliminated"][owner].count(unit),
        }
        rest = ", ".join(f"{n} {where}" for where, n in elsewhere.items() if n)
        raise FieldError(
            "supply",
            f"{hex_label(h)}: {_stack_name(unit, height)} takes {height} {NAMES[unit]} coin"
            f"{'s' if height > 1 else ''} and player {owner}'s supply, bag and discard piles hold "
            f"{sum(there)} (the box holds {COINS[unit]}{'; ' + rest if rest else ''})",
        )
    need = height
    for field, count in zip(TAKE_FROM, there, strict=True):
        taken = min(need, count)
        coins = piles[field][owner]
        for _ in range(taken):
            coins.remove(unit)
        need -= taken


def _hex(state, cell: object, field: str) -> Hex:
    hexes = {hex_name(h): h for h in state.game.map.hexes}
    if not isinstance(cell, str) or cell not in hexes:
        raise FieldError(field, f"{str(cell)[:20]!r} is no hex of the {state.game.num_players}-player map")
    return hexes[cell]


def _stack(key: object) -> tuple[str, int]:
    """`archer` or `archer×2`: the unit and its coins."""
    unit, _, height = key.partition(STACK) if isinstance(key, str) else ("", "", "")
    if unit not in COINS or not (height == "" or (height.isascii() and height.isdigit())):
        raise FieldError(
            "units", f"{str(key)[:20]!r} is no piece to place: a unit ('archer', 'archer×2') or a marker"
        )
    return unit, int(height or 1)


def _owner(state, unit: str) -> int:
    """The seat whose army holds `unit` (one card per unit in the box)."""
    for seat, army in enumerate(state.armies):
        if unit in army:
            return seat
    raise FieldError("units", f"no player has {NAMES[unit]} in their army")


def _count(state, piles: dict, seat: object, key: object, count: object) -> None:
    coin, _, pile = key.partition("@") if isinstance(key, str) else ("", "", "")
    field = PILES[pile][0] if pile in PILES else "hands"
    if pile not in PILES or (coin not in COINS and coin != ROYAL):
        raise FieldError(field, f"{str(key)[:30]!r} is no counted coin: '<coin>@<pile>', like 'archer@bag'")
    seat = _seat(state, seat, field)
    most = 1 if coin == ROYAL else COINS[coin]
    # a bound before the list is built (a count of a billion would fill the memory); the
    # text's check then weighs the piles together
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= most:
        raise FieldError(
            field, f"{count!r} {NAMES[coin]} coins: a count from 0 to {most} (the box holds {most})"
        )
    coins = piles[field][seat]
    coins[:] = [c for c in coins if c != coin] + [coin] * count


def _seat(state, seat: object, field: str) -> int:
    n = state.game.num_players
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise FieldError(field, f"no seat {str(seat)[:20]!r}: the seats are 0..{n - 1}")
    return seat


def _turn_fields(state, fields: Mapping[str, str]) -> dict:
    """The changes the turn fields ask for (as `edit_fields` words them)."""
    offered = edit_fields(state)
    changes: dict = {}
    for name, value in fields.items():
        if name not in offered:
            raise FieldError(
                "fields", f"{str(name)[:30]!r}: the fields are {', '.join(offered) or 'none now'}"
            )
        if value not in offered[name][1]:
            raise FieldError(TEXT_FIELD[name], f"{str(value)[:30]!r}: one of {', '.join(offered[name][1])}")
        changes.update(_field_change(state, name, value))
    return changes


def _field_change(state, name: str, value: str) -> dict:
    if name == PHASE:
        return {"phase": next(phase for phase, words in PHASES.items() if words == value)}
    if name == INITIATIVE:
        return {"initiative": state.game.player_names.index(value)}
    if name == CLAIMED:
        return {"claimed": value == "yes"}
    return {"pending": () if value == NONE else state.pending}


def _first_seat(state, changes: dict, hands: list[list[str]]) -> int:
    """The seat to move when an edit switches the phase (the editor changes one field at a
    time, and each phase asks another seat: no seat would be right for both). The draw goes
    seat by seat and the seats still to draw hold nothing (text._check_round): the first seat
    after which every hand is empty. The coins are used from the initiative holder on
    (rulebook, Muntgebruik: "Beginnend bij de speler met het initiatief token"), skipping an
    empty hand as the round does (rules.settled)."""
    n = state.game.num_players
    if changes["phase"] == "draw":
        return next(seat for seat in range(n + 1) if not any(hands[seat:])) % n
    holder = changes.get("initiative", state.initiative)
    return next((seat % n for seat in range(holder, holder + n) if hands[seat % n]), holder)
