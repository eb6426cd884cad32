"""What a War Chest position looks like: the hex map with its units and control markers, and
the side zones (draft cards, a follow-up's prompt, the initiative, each player's hand, bag,
discard pile, supply and coins out of the game). Plain data (`rules_kernel.scene`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE
from rules_kernel.games.war_chest.box import HIDDEN, NAMES, SYMBOLS, hex_label, hex_name
from rules_kernel.games.war_chest.rules import drawer
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.state import WarChestState


def scene(state: WarChestState, perspective: int | None = None) -> Scene:
    """The game's "scene" part (`WarChest.PARTS`, `rules_kernel.parts.ScenePart`): what is on the
    table in `state`, as `perspective` (None: all-seeing) sees it; secrets hidden there."""
    return scene_of(state if perspective is None else state.view(perspective), perspective)


def scene_of(state: WarChestState, perspective: int | None) -> Scene:
    """What is on the table in `state` (already the view of `perspective`, if any)."""
    game, m = state.game, state.game.map
    cells = tuple(
        Cell(
            hex_name(h),
            h[0],
            h[1],
            shade="location" if h in m.locations else None,
            marker=state.controller.get(h),
            label=hex_label(h),
        )
        for h in sorted(m.hexes)
    )
    # the name is the unit's; the coins in the stack are its height (a badge on the drawing)
    tokens = tuple(
        Token(hex_name(h), NAMES[k], SYMBOLS[k], owner=o, kind="coin", height=n) for h, o, k, n in state.units
    )
    zones: list[Zone] = []
    if state.phase == "draft":
        zones.append(
            Zone(
                "draft",
                "Draft: cards to pick",
                None,
                tuple(ZoneItem(zone_cell("draft", u), NAMES[u], SYMBOLS[u]) for u in state.pool),
            )
        )
    if state.pending and state.current_player != CHANCE:
        zones.append(_prompt_zone(state))
    holder = state.initiative
    zones.append(
        Zone(
            "initiative",
            "Initiative" + (" (claimed this round)" if state.claimed else ""),
            holder,
            (
                ZoneItem(
                    zone_cell("initiative", "marker"),
                    f"Initiative: {game.player_names[holder]}",
                    "⚑",
                    owner=holder,
                ),
            ),
        )
    )
    for p in range(game.num_players):
        zones += _player_zones(state, p)
    return Scene(
        game=game.id,
        layout="hex",
        cells=cells,
        tokens=tokens,
        zones=tuple(zones),
        players=game.player_names,
        to_move=None if state.is_terminal() or state.current_player == CHANCE else state.current_player,
        status=_status(state),
        perspective=perspective,
        last_cells=state.last,
    )


def _prompt_zone(state: WarChestState) -> Zone:
    kind, player, detail = state.pending[-1]
    if kind == "guard":
        items = (
            ZoneItem(zone_cell("prompt", "guard-supply"), "Take the coin from the supply", "S", owner=player),
            ZoneItem(zone_cell("prompt", "guard-unit"), "Take the coin from the unit", "U", owner=player),
        )
        return Zone("prompt", f"Royal Guard on {hex_label(detail)} attacked", player, items)
    if kind == "priest-use":
        return Zone("prompt", f"Use the drawn coin ({NAMES.get(detail, '?')}) at once", player)
    titles = {
        "sword": "Swordsman: move one hex?",
        "berserk": "Berserker: pay a coin to maneuver again?",
        "mercenary": "Mercenary: a free maneuver?",
        "footman": "Footman: maneuver each unit",
    }
    done = ZoneItem(zone_cell("prompt", "done"), "Done", "✓", owner=player)
    return Zone("prompt", titles[kind], player, (done,))


def _player_zones(state: WarChestState, p: int) -> list[Zone]:
    name = state.game.player_names[p]

    def items(zone: str, coins, face_down: bool = False) -> tuple[ZoneItem, ...]:
        return tuple(
            ZoneItem(
                zone_cell(zone, c),
                NAMES.get(c, "hidden coin"),
                SYMBOLS.get(c, "?"),
                count=k,
                owner=p,
                face_down=face_down or c == HIDDEN,
            )
            for c, k in sorted(Counter(coins).items())
        )

    hidden_hand = HIDDEN in state.hands[p]
    bag_size = len(state.bags[p]) - (state.hands[p].count(HIDDEN) + state.facedown[p].count(HIDDEN))
    discard = items(f"discard-{p}", state.faceup[p]) + (
        ZoneItem(
            zone_cell(f"discard-{p}", "face-down"),
            "face-down coins",
            "▾",
            count=len(state.facedown[p]),
            owner=p,
            face_down=True,
        ),
    )
    army = ", ".join(NAMES[u] for u in state.armies[p]) or "none yet"
    side = state.game.team(p)
    zones = [
        Zone(
            f"hand-{p}",
            f"{name}: hand" + (" (hidden)" if hidden_hand else ""),
            p,
            items(f"hand-{p}", state.hands[p]),
        ),
        Zone(f"bag-{p}", f"{name}: bag", p, (), hidden_count=bag_size),
        Zone(f"discard-{p}", f"{name}: discard pile", p, discard),
        Zone(
            f"supply-{p}",
            f"{name}: supply ({army}); markers left: {state.markers_left(side)}",
            p,
            tuple(
                ZoneItem(
                    zone_cell(f"supply-{p}", u), NAMES[u], SYMBOLS[u], count=state.supply[p].count(u), owner=p
                )
                for u in state.armies[p]
                if u in state.supply[p]
            ),
        ),
    ]
    if state.eliminated[p]:
        zones.append(
            Zone(
                f"eliminated-{p}",
                f"{name}: out of the game",
                p,
                items(f"eliminated-{p}", state.eliminated[p]),
            )
        )
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
        return f"{names[drawer(state)[0]]} draws"
    if state.phase == "draft":
        return f"{names[state.current_player]} picks a unit"
    return f"{names[state.current_player]} to act"
