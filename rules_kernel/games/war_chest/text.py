"""War Chest's position text, and the checks a position read from text must pass.

`phase armies pool bags hands faceup facedown supply eliminated units control initiative turn
pending ply` (docs/games/war-chest.md, "Position text"); `compose` writes a scenario's text
from a few fields. Reading is `WarChest.from_text`: `parse_fields`, then `check_position` on
the state they make, inside `position_text.read_position`, so only PositionTextError escapes.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from rules_kernel.games.war_chest.box import (
    ARMY_SIZE,
    COINS,
    DRAFT_ORDER,
    FIRST_GAME,
    HAND_SIZE,
    HIDDEN,
    NAMES,
    ROYAL,
    UNITS,
    Hex,
    Pending,
    hex_name,
)
from rules_kernel.games.war_chest.rules import drawable, drawer
from rules_kernel.position_text import FieldError, check_playable, named_fields, split_field, whole_number

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.game import WarChest
    from rules_kernel.games.war_chest.state import WarChestState


# --- writing ------------------------------------------------------------------------------------


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


def position_text(s: WarChestState) -> str:
    """`phase armies pool bags hands faceup facedown supply eliminated units control initiative
    turn pending ply`: coin lists per player separated by '/', units `x,y:owner:type:height`
    separated by ';', control `x,y:side`, initiative `<seat>` (+ '*' once claimed this round),
    follow-ups `kind:player:detail` separated by '|' (the last resolves first)."""
    units = ";".join(f"{hex_name(h)}:{o}:{k}:{n}" for h, o, k, n in s.units) or "-"
    control = ";".join(f"{hex_name(h)}:{side}" for h, side in s.control) or "-"
    pending = "|".join(_pending_text(p) for p in s.pending) or "-"
    return " ".join(
        [
            s.phase,
            _coins(s.armies),
            ",".join(s.pool) or "-",
            _coins(s.bags),
            _coins(s.hands),
            _coins(s.faceup),
            _coins(s.facedown),
            _coins(s.supply),
            _coins(s.eliminated),
            units,
            control,
            f"{s.initiative}{'*' if s.claimed else ''}",
            str(s.turn),
            pending,
            str(s.ply),
        ]
    )


# --- reading ------------------------------------------------------------------------------------

PENDING_KINDS = {
    "guard": "hex",
    "sword": "hex",
    "berserk": "hex",
    "mercenary": "-",
    "footman": "hexes",
    "priest-draw": "-",
    "priest-use": "coin",
}
FIELDS = (
    "phase",
    "armies",
    "pool",
    "bags",
    "hands",
    "faceup",
    "facedown",
    "supply",
    "eliminated",
    "units",
    "control",
    "initiative",
    "turn",
    "pending",
    "ply",
)
COIN_FIELDS = FIELDS[3:9]
_HEX = re.compile(r"([0-9]{1,2}),([0-9]{1,2})")
_UNIT = re.compile(r"([0-9]{1,2},[0-9]{1,2}):([0-9]):([a-z-]+):([0-9]{1,3})")


def parse_fields(game: WarChest, fields: list[str]) -> dict[str, Any]:
    """The fields of a `WarChestState` from the fields of its text (`check_position` checks
    the state they make)."""
    value = named_fields(fields, FIELDS)
    n = game.num_players
    if value["phase"] not in ("deal", "draft", "draw", "play"):
        raise FieldError("phase", f"'deal', 'draft', 'draw' or 'play' expected, not {value['phase'][:20]!r}")
    armies = tuple(
        tuple(_coin_list(part, "armies", units_only=True))
        for part in _per_player(value["armies"], n, "armies")
    )
    pool = tuple(sorted(_coin_list(value["pool"], "pool", units_only=True)))
    state = {"phase": value["phase"], "armies": armies, "pool": pool}
    for name in COIN_FIELDS:
        hidden = name in ("hands", "facedown")  # another player's coins in a view
        state[name] = tuple(
            tuple(sorted(_coin_list(part, name, hidden=hidden))) for part in _per_player(value[name], n, name)
        )
    state["units"] = _parse_units(game, value["units"])
    state["control"] = _parse_control(game, value["control"])
    initiative = value["initiative"]
    state["claimed"] = initiative.endswith("*")
    state["initiative"] = _seat(initiative.removesuffix("*"), n, "initiative")
    state["turn"] = _seat(value["turn"], n, "turn")
    state["pending"] = _parse_pendings(game, value["pending"])
    state["ply"] = whole_number(value["ply"], "ply")
    return state


def _per_player(text: str, n: int, name: str) -> list[str]:
    return split_field(text, "/", n, name, what="lists (one per player)")


def _coin_list(text: str, name: str, units_only: bool = False, hidden: bool = False) -> list[str]:
    if text == "-":
        return []
    known = set(COINS) if units_only else set(COINS) | {ROYAL}
    out = text.split(",")
    for coin in out:
        if coin not in known and not (hidden and coin == HIDDEN):
            what = "unit" if units_only else "coin"
            raise FieldError(
                name,
                f"unknown {what} {coin[:20]!r} (units: {', '.join(UNITS)}"
                f"{'' if units_only else ', and royal'})",
            )
    return out


def _seat(text: str, n: int, name: str) -> int:
    seat = whole_number(text, name)
    if seat >= n:
        raise FieldError(name, f"no seat {seat}: the seats are 0..{n - 1}")
    return seat


def _hex(game: WarChest, text: str, name: str) -> Hex:
    match = _HEX.fullmatch(text)
    h = (int(match[1]), int(match[2])) if match else None
    if h is None or h not in game.map.hexes:
        raise FieldError(name, f"{text[:20]!r} is no hex of the {game.num_players}-player map")
    return h


def _parse_units(game: WarChest, text: str) -> tuple[tuple[Hex, int, str, int], ...]:
    units: dict[Hex, tuple[Hex, int, str, int]] = {}
    for item in [] if text == "-" else text.split(";"):
        match = _UNIT.fullmatch(item)
        if not match:
            raise FieldError(
                "units", f"{item[:30]!r}: a unit is 'x,y:seat:type:coins', like '3,3:0:archer:2'"
            )
        h, owner = _hex(game, match[1], "units"), int(match[2])
        kind, height = match[3], int(match[4])
        if owner >= game.num_players or kind not in COINS or height < 1:
            raise FieldError(
                "units", f"{item[:30]!r}: seat 0..{game.num_players - 1}, a unit type and at least one coin"
            )
        if h in units:
            raise FieldError("units", f"two units on hex {hex_name(h)}; a hex holds one unit")
        units[h] = (h, owner, kind, height)
    return tuple(sorted(units.values()))


def _parse_control(game: WarChest, text: str) -> tuple[tuple[Hex, int], ...]:
    control: dict[Hex, int] = {}
    for item in [] if text == "-" else text.split(";"):
        where, _, side = item.rpartition(":")
        h = _hex(game, where, "control")
        if h not in game.map.locations or side not in ("0", "1"):
            raise FieldError("control", f"{item[:20]!r}: a marker is 'x,y:side' on a location, side 0 or 1")
        if h in control:
            raise FieldError("control", f"two markers on location {hex_name(h)}; a location holds one")
        control[h] = int(side)
    return tuple(sorted(control.items()))


def _parse_pendings(game: WarChest, text: str) -> tuple[Pending, ...]:
    return () if text == "-" else tuple(_parse_pending(game, item) for item in text.split("|"))


def _parse_pending(game: WarChest, text: str) -> Pending:
    kind, _, rest = text.partition(":")
    player, _, detail = rest.partition(":")
    if kind not in PENDING_KINDS:
        raise FieldError("pending", f"unknown follow-up {kind[:20]!r} (one of {', '.join(PENDING_KINDS)})")
    seat = _seat(player, game.num_players, "pending")
    shape = PENDING_KINDS[kind]
    if shape == "-":
        if detail != "-":
            raise FieldError("pending", f"{text[:30]!r}: a {kind} follow-up has no detail ('-')")
        return kind, seat, None
    if shape == "coin":
        coins = _coin_list(detail, "pending", hidden=True)
        if len(coins) != 1:
            raise FieldError("pending", f"{text[:30]!r}: names the one coin the Warrior Priest drew")
        return kind, seat, coins[0]
    if shape == "hex":
        return kind, seat, _hex(game, detail, "pending")
    hexes = {_hex(game, h, "pending") for h in detail.split("+")}
    return kind, seat, tuple(sorted(hexes))


# --- does the position follow from the box and the rules? ---------------------------------------


def check_position(state: WarChestState) -> None:
    """Raises FieldError for what the box or the rules make impossible."""
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
        raise FieldError("ply", f"{state.ply} actions, past the cap of {cap} (max_actions)")
    check_playable(
        state,
        "pending" if state.pending else "hands",
        lambda: state.phase == "deal" or drawable(state, drawer(state)[0]) > 0,
        FieldError("pending", "a coin must be drawn, but bag and discard pile are empty"),
    )


def _check_set_up(state: WarChestState) -> None:
    """Before the armies are known nothing is in play: no coins, units, follow-ups; the markers
    on the starting locations; player 0 holds the initiative."""
    game, setup = state.game, state.game.options["setup"]
    if setup not in ("random", "draft") or (state.phase == "draft" and setup != "draft"):
        raise FieldError("phase", f"no {state.phase} phase in a game with setup {setup!r}")
    cards = len(DRAFT_ORDER[game.num_players])
    picks = sum(len(a) for a in state.armies)
    if state.phase == "deal" and (picks or state.pool):
        raise FieldError("armies", "before the deal nobody has an army and no card is revealed")
    if state.phase == "draft":
        order = DRAFT_ORDER[game.num_players][:picks]
        if not state.pool or len(state.pool) + picks != cards:
            raise FieldError("pool", f"a draft shows {cards} cards: those picked and those left")
        if any(len(a) != order.count(p) for p, a in enumerate(state.armies)):
            raise FieldError(
                "armies",
                f"after {picks} picks the players hold "
                f"{[order.count(p) for p in range(game.num_players)]} cards (the pick order)",
            )
        _check_distinct([u for a in state.armies for u in a] + list(state.pool), "pool")
    starts = tuple(sorted((h, side) for side in (0, 1) for h in game.map.starts[side]))
    if any(coins for name in COIN_FIELDS for coins in getattr(state, name)) or state.units or state.pending:
        raise FieldError(state.phase, "no coins, units or follow-ups before the armies are known")
    if state.control != starts or state.initiative or state.claimed or state.turn:
        raise FieldError(
            "control",
            "before the armies are known the markers lie on the starting "
            "locations and player 0 holds the initiative (turn 0, not claimed)",
        )


def _check_distinct(units: list[str], name: str) -> None:
    repeated = [u for u, k in Counter(units).items() if k > 1]
    if repeated:
        raise FieldError(name, f"{repeated[0]} appears twice; the box has one card per unit")


def _check_armies(state: WarChestState) -> None:
    game, setup = state.game, state.game.options["setup"]
    size = ARMY_SIZE[game.num_players]
    if state.pool or any(len(a) != size for a in state.armies):
        raise FieldError(
            "armies",
            f"every player has an army of {size} units once the game is on (and no draft card is left)",
        )
    _check_distinct([u for a in state.armies for u in a], "armies")
    fixed = FIRST_GAME if setup == "first-game" else setup if isinstance(setup, list) else None
    if fixed is not None and [sorted(a) for a in state.armies] != [sorted(a) for a in fixed]:
        raise FieldError(
            "armies", "this game's setup fixes the armies: " + "/".join(",".join(a) for a in fixed)
        )


def _check_coins(state: WarChestState, player: int) -> None:
    """Coins of the player's own types and the Royal coin only, never more than the box holds."""
    army = set(state.armies[player])
    totals: Counter[str] = Counter()
    for name in COIN_FIELDS:
        coins = [c for c in getattr(state, name)[player] if c != HIDDEN]
        royal_here = name not in ("supply", "eliminated")  # the Royal coin is never recruited or lost
        strange = [c for c in coins if c not in army and not (c == ROYAL and royal_here)]
        if strange:
            raise FieldError(
                name,
                f"{_seat_name(state, player)} has {_a_coin(strange[0])} here; their coins are "
                f"{', '.join(sorted(NAMES[u] for u in army))} and the Royal coin (never in supply "
                "or out of the game)",
            )
        totals.update(coins)
    for _, owner, kind, height in state.units:
        if owner == player:
            totals[kind] += height
    for coin, count in totals.items():
        most = 1 if coin == ROYAL else COINS[coin]
        if count > most:
            raise FieldError(
                "bags", f"{_seat_name(state, player)} has {_coin_count(coin, count)}; the box holds {most}"
            )
    hidden = state.hands[player].count(HIDDEN) + state.facedown[player].count(HIDDEN)
    if hidden > len(state.bags[player]):
        raise FieldError(
            "bags",
            f"{_seat_name(state, player)}'s hidden coins ('?') are counted in their bag, which "
            f"holds only {len(state.bags[player])}",
        )


def out_of_game(state: WarChestState, player: int) -> Counter[str]:
    """The player's coins that are nowhere in the position: back in the box (a study position,
    `compose`'s "coins named nowhere"). Coins lost to attacks are listed (`eliminated`), so a
    game from the start has none; a view's hidden coins ('?') are counted in the bag."""
    listed: Counter[str] = Counter()
    for name in COIN_FIELDS:
        listed.update(c for c in getattr(state, name)[player] if c != HIDDEN)
    for _, owner, kind, height in state.units:
        if owner == player:
            listed[kind] += height
    box = Counter({kind: COINS[kind] for kind in state.armies[player]}) + Counter({ROYAL: 1})
    return box - listed


def status(state: WarChestState) -> list[str]:
    """`WarChestState.status`: what a game from the start never shows (coins back in the box, a
    hand larger than the draw of three)."""
    if state.phase in ("deal", "draft"):
        return []
    remarks = []
    most_in_hand = HAND_SIZE + (1 if state.game.num_players == 4 else 0)  # + a teammate's Priest draw
    for player in range(state.game.num_players):
        if len(state.hands[player]) > most_in_hand:
            remarks.append(
                f"{_seat_name(state, player)} holds {len(state.hands[player])} coins; "
                f"a hand is at most {most_in_hand}"
            )
        out = out_of_game(state, player)
        if out:
            n = sum(out.values())
            listed = ", ".join(f"{k} {NAMES[coin]}" for coin, k in sorted(out.items()))
            remarks.append(
                f"{n} coin{'s' if n > 1 else ''} of {_seat_name(state, player)} out of the game ({listed})"
            )
    return remarks


def _seat_name(state: WarChestState, player: int) -> str:
    """A seat as the board names it ("Side A", "Player A1"): the words a page shows."""
    return state.game.player_names[player]


def _a_coin(coin: str) -> str:
    """'a Knight coin', 'an Archer coin', 'the Royal coin'."""
    if coin == ROYAL:
        return "the Royal coin"
    return f"{'an' if NAMES[coin][0] in 'AEIOU' else 'a'} {NAMES[coin]} coin"


def _coin_count(coin: str, count: int) -> str:
    """'6 Swordsman coins', '2 Royal coins'."""
    return f"{count} {'Royal' if coin == ROYAL else NAMES[coin]} coin{'s' if count != 1 else ''}"


def _check_units(state: WarChestState) -> None:
    for _, owner, kind, _ in state.units:
        if kind not in state.armies[owner]:
            unit = NAMES[kind]
            raise FieldError(
                "units", f"{_seat_name(state, owner)} has a {unit} unit but no {unit} in their army"
            )
    for (owner, kind), count in Counter((o, k) for _, o, k, _ in state.units).items():
        if count > (2 if kind == "footman" else 1):
            raise FieldError(
                "units",
                f"{_seat_name(state, owner)} has {count} {NAMES[kind]} units; one of a type (Footman: two) "
                "may be on the board",
            )


def _check_round(state: WarChestState) -> None:
    """The draw goes seat by seat before anyone acts; in play the seat to act has a coin."""
    n = state.game.num_players
    if state.phase == "draw":
        if state.pending or state.claimed:
            raise FieldError("phase", "a round starts with the draw: no follow-ups, initiative unclaimed")
        if any(state.hands[seat] for seat in range(state.turn, n)):
            raise FieldError(
                "hands", f"seats {state.turn}..{n - 1} have not drawn yet; their hands are empty"
            )
        if drawable(state, state.turn) == 0:
            raise FieldError("turn", f"seat {state.turn} draws but has no coin in bag or discard pile")
    elif not state.pending and not state.hands[state.turn] and not state.is_terminal():
        raise FieldError("turn", f"seat {state.turn} is to act with an empty hand")


def _check_pending(state: WarChestState) -> None:
    for kind, player, detail in state.pending:
        where = f"{kind}:{player}"
        if kind == "guard" and (
            state.board.get(detail, (None, ""))[:2] != (player, "royal-guard")
            or "royal-guard" not in state.supply[player]
        ):
            raise FieldError(
                "pending",
                f"{where}: an attacked Royal Guard of that player stands on "
                f"{hex_name(detail)} and a Royal Guard coin is in their supply",
            )
        if kind == "priest-use" and detail not in state.hands[player] and HIDDEN not in state.hands[player]:
            raise FieldError("pending", f"{where}: the coin to use ({detail}) is in that player's hand")
    # an attacked Royal Guard's choice comes first; right after it, the attacker's draw
    for depth, (kind, player, _) in enumerate(reversed(state.pending)):
        if (
            (kind == "guard" and depth > 0)
            or (kind == "priest-draw" and depth > 1)
            or (kind == "priest-draw" and depth == 1 and state.pending[-1][0] != "guard")
        ):
            raise FieldError(
                "pending",
                f"{kind}:{player}: happens at once (the last follow-up, or a "
                "Warrior Priest's draw right under the Royal Guard's choice)",
            )


def _check_markers(state: WarChestState) -> None:
    markers = state.game.map.markers
    for side in (0, 1):
        if state.markers_left(side) < 0:
            raise FieldError("control", f"side {side} has placed more than its {markers} markers")
    if state.markers_left(0) == 0 and state.markers_left(1) == 0:
        raise FieldError("control", "both sides have placed every marker; the game ends at the first")


def compose(
    game: WarChest,
    units: str = "-",
    hands: tuple[str, ...] = (),
    *,
    turn: int = 0,
    armies: str | None = None,
    bags: tuple[str, ...] | None = None,
    faceup: tuple[str, ...] = (),
    facedown: tuple[str, ...] = (),
    supply: tuple[str, ...] = (),
    control: str | None = None,
    initiative: str = "0",
    pending: str = "-",
    phase: str = "play",
) -> WarChestState:
    """A position for a scenario or an explainer, in the fields of the position text; per-player
    fields are tuples of comma lists ('-' or missing: empty). Defaults: the first-game armies
    (4 players: a fixed set of three each), the starting markers, and in each bag the player's
    first unit coin and the Royal coin (each only if the box has that coin to spare). Coins
    named nowhere are back in the box; the position is checked like any position text.

        compose(game, "3,3:0:archer:1;3,5:1:knight:2", ("archer", "-"))
    """
    n = game.num_players
    first = (
        "/".join(",".join(a) for a in FIRST_GAME)
        if n == 2
        else "swordsman,pikeman,ensign/archer,cavalry,lancer/knight,marshall,scout/"
        "footman,mercenary,berserker"
    )
    armies = armies or first

    def per_player(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(values) + ("-",) * (n - len(values))

    if bags is None:
        placed = (per_player(hands), per_player(faceup), per_player(facedown), per_player(supply))
        bags = tuple(
            _default_bag(p, army.split(",")[0], units, [lists[p] for lists in placed])
            for p, army in enumerate(armies.split("/"))
        )
    starts = ";".join(f"{hex_name(h)}:{side}" for side in (0, 1) for h in game.map.starts[side])
    return game.from_text(
        " ".join(
            [
                phase,
                armies,
                "-",
                *("/".join(per_player(x)) for x in (bags, hands, faceup, facedown, supply, ())),
                units,
                control or starts,
                initiative,
                str(turn),
                pending,
                "0",
            ]
        )
    )


def _default_bag(player: int, unit: str, units: str, lists: list[str]) -> str:
    """compose's bag: the player's first unit coin and the Royal coin, if the box has them to spare."""
    named = Counter(c for coins in lists for c in coins.split(","))
    for item in [] if units == "-" else units.split(";"):
        where_owner_kind_height = item.split(":")
        if (
            len(where_owner_kind_height) == 4
            and where_owner_kind_height[1:3] == [str(player), unit]
            and re.fullmatch("[0-9]{1,3}", where_owner_kind_height[3])  # as _UNIT reads it
        ):
            named[unit] += int(where_owner_kind_height[3])
    bag = ([unit] if named[unit] < COINS.get(unit, 0) else []) + ([ROYAL] if not named[ROYAL] else [])
    return ",".join(bag) or "-"
