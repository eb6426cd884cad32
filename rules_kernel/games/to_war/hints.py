"""What the agents and the statistics need of To War!: the agents' heuristic (units on the
grid), the heatmap the statistics offer (where breakthroughs come from), and the data
defaults (`make_data` cycles through the army pairs). None of it is a rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_kernel.core import Heatmap
from rules_kernel.games.to_war.cards import ARMY_PAIRS

if TYPE_CHECKING:
    from rules_kernel.games.to_war.state import ToWarState
    from rules_kernel.record_model import Record


def heuristic(state: ToWarState, player: int) -> float:
    """The "heuristic" part (`ToWar.PARTS`; its "statistics" part is `data_options` and
    `seat_holdings` below). Units on the grid, the player's minus the opponent's, over 12 (the squares)."""
    units = [sum(1 for u in state.grid if u and u[0] == p) for p in (0, 1)]
    return (units[player] - units[1 - player]) / 12


def _breakthrough_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps  # pandas, only when a heatmap is drawn

    return heatmaps.moves_off_board(actions, scene.game, scene.cell_ids())


BREAKTHROUGHS_HEATMAP = Heatmap(
    "breakthroughs",
    "where breakthroughs come from",
    "breakthroughs",
    "each move into the opponent's camp counts on the square the unit left: the first player "
    "breaks through from the top rank, the second from the bottom rank",
    _breakthrough_heatmap,
)


def data_options(setting: int) -> dict[str, Any]:
    """The army pair cycles through the 12 pairs as seated, so every pair, and every army
    on each seat, gets the same share of the games."""
    return {"armies": list(ARMY_PAIRS[setting % len(ARMY_PAIRS)])}


def seat_holdings(record: Record) -> dict[str, list[Any]]:
    """Each seat's army, from the record's options."""
    armies = record.options.get("armies")
    return {"army": list(armies)} if isinstance(armies, list) else {}


# --- what a click does (the explorer's board names each target: widgets/guidance.py) ---------


def target_words(state: ToWarState, move: Any, viewer: int | None = None) -> str:
    """What playing `move` does, as an instruction for the square that plays it, in the
    move list's words (notation.action_text) said as an instruction: "place the Saqāliba
    here, displacing the Mamluk", "push the Sarbaz from b1 to b2, attacking the König: attack
    3 < defence 6, ...", "stop: no second step". Rulebook: "lege sie auf einen der drei
    Plätze in deiner unteren Reihe ... Wenn sich dort bereits eine Einheit befindet, wird
    diese von der neuen Karte verdrängt"."""
    text = state.action_text(move, viewer)
    first, _, rest = text.partition(" ")
    instead = {"places": "place", "pushes": "push", "discards": "discard", "passes": "pass"}.get(first)
    if instead is not None:
        return f"{instead} {rest}"
    if text.startswith("stop") or " stays on " in text:
        return "stop here: " + text.partition(": ")[2] if ": " in text else "stop here"
    return "step: " + text  # a free second step ("Reiter a2–a3"), or a breakthrough


def played_from(state: ToWarState, move: Any) -> str:
    """The card in the hand a placing move plays, when its clicks do not name it (the basic
    game: the card just drawn goes where the square is clicked), so a click on that card
    lights where it may go; '' for every other move."""
    from rules_kernel.games.to_war.rules import Place
    from rules_kernel.scene import zone_cell

    if isinstance(move, Place) and len(move.cells) == 1:
        return zone_cell(f"hand-{state.side}", move.code)
    return ""


def turn_words(state: ToWarState, viewer: int | None = None) -> str:
    """One line saying what the player does now: place the card drawn ("Wenn du am Zug bist,
    decke die oberste Karte deiner Reserve auf und lege sie auf einen der drei Plätze in deiner
    unteren Reihe"), push the displaced unit on ("Bewege die verdrängte Einheit dann einen
    Schritt in eine der erlaubten Richtungen"), or take a second step or stop."""
    if state.is_terminal() or state.current_player != state.side:
        return ""
    units = state.game.units
    if state.active is not None:
        name = units[state.grid[state.active][1]].name
        from rules_kernel.games.to_war.rules import square_name

        where = square_name(state.active)
        if state.entering is not None:
            pusher = units[state.entering[1]].name
            return f"The {pusher} displaced the {name} on {where}: push it one step on (a lit square)."
        return f"The {name} on {where} may take a second step (a lit square), or stop."
    hand = state.hands[state.side]
    if len(hand) == 1:
        card = units[hand[0]].name
        if not state.setup_done:
            return f"Set-up: place the {card} you drew on a lit square of your half."
        return f"Place the {card} you drew on a lit square of your bottom row."
    return ""
