"""What a To War! position looks like, as plain data for the widgets (`ToWarState.scene`): the
3x4 field (each player's half shaded), the cards with their values and crowns in the army's
colour, each hand with the public counts of reserve and discards, the two camps a
breakthrough enters, the card waiting to push in, the status line. The state is the viewer's
view already: a hidden hand card shows face down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE
from rules_kernel.games.to_war.rules import FILES, PASS_KEY, RANKS, Pass, square_name
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.to_war.state import ToWarState


def _hand_zone(state: ToWarState, player: int) -> Zone:
    """A player's hand with the public counts beside it. In a view the opponent's hidden hand
    cards ('?') are pooled into the reserve counts (what the viewer knows is hand + reserve
    together), so the reserve's size is that pool less the hidden cards: a view may hide a
    card, never miscount one."""
    game, hand = state.game, state.hands[player]
    items = tuple(
        ZoneItem(
            zone_cell(f"hand-{player}", code),
            game.units[code].name if code in game.units else "face-down card",
            code,
            count=hand.count(code),
            owner=player,
            face_down=code == "?",
        )
        for code in sorted(set(hand))
    )
    if any(isinstance(move, Pass) for move in state.legal_moves()) and state.side == player:
        # a study position's empty-handed player: the pass is clicked here
        items += (ZoneItem(zone_cell(f"hand-{player}", PASS_KEY), "Pass: no card left", "–", owner=player),)
    reserve = sum(state.reserves[player]) - hand.count("?")
    discarded = len(state.discards[player])
    # short enough to stand whole above the hand on a phone (zone titles are cut to the board)
    title = f"{game.player_names[player]}: hand {len(hand)}, reserve {reserve}, discards {discarded}"
    return Zone(f"hand-{player}", title, player, items)


def scene(state: ToWarState, perspective: int | None = None) -> Scene:
    """The game's "scene" part (`ToWar.PARTS`, `rules_kernel.parts.ScenePart`): what is on the
    table in `state`, as `perspective` (None: all-seeing) sees it; secrets hidden there."""
    return scene_of(state if perspective is None else state.view(perspective), perspective)


def scene_of(state: ToWarState, perspective: int | None) -> Scene:
    game = state.game
    colours = {"western": "red", "northern": "blue", "far-eastern": "black", "southern": "yellow"}
    cells = tuple(
        Cell(square_name(sq), sq % FILES, sq // FILES, shade="start-0" if sq // FILES < 2 else "start-1")
        for sq in range(FILES * RANKS)
    )
    tokens = []
    for sq, unit in enumerate(state.grid):
        if unit is None:
            continue
        info = game.units.get(unit[1])
        flags = ("elite",) if info and info.elite else ()
        label = f"{info.name} {info.attack}/{info.defence}" if info else unit[1]
        tokens.append(
            Token(
                square_name(sq),
                label,
                unit[1],
                owner=unit[0],
                facing=unit[0],
                kind="card",
                color=colours[game.options["armies"][unit[0]]],
                flags=flags,
            )
        )
    zones = []
    for p in (0, 1):
        zones.append(_hand_zone(state, p))
        broke_in = state.breakthrough is not None and state.breakthrough[0] != p
        camp = ZoneItem(
            zone_cell(f"camp-{p}", "edge"),
            game.units[state.breakthrough[1]].name if broke_in else "Camp",
            "⚑",
            owner=1 - p if broke_in else p,
        )
        zones.append(Zone(f"camp-{p}", f"{game.player_names[p]}'s camp (break through here)", p, (camp,)))
    if state.entering is not None:  # the card that pushes in, waiting for the square to clear
        owner, code = state.entering
        name = game.units[code].name if code in game.units else code
        zones.append(
            Zone(
                "entering",
                f"Pushing onto {square_name(state.active)}",
                owner,
                (ZoneItem(zone_cell("entering", code), name, code, owner=owner),),
            )
        )
    outcome = state.outcome()
    if outcome is None:
        who = game.player_names[state.side]
        status = "A card is drawn" if state.current_player == CHANCE else f"{who} to move"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{game.player_names[outcome.winner]} wins — {outcome.reason}"
    return Scene(
        game=game.id,
        layout="square",
        cells=cells,
        tokens=tuple(tokens),
        zones=tuple(zones),
        players=game.player_names,
        to_move=None if outcome or state.current_player == CHANCE else state.side,
        status=status,
        perspective=perspective,
        last_cells=state.last,
    )
