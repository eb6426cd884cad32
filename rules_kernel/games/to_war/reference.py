"""The reference panel of To War! (`ToWar.reference`): what a card's two numbers and its
crown mean, how units move (the printed cards' arrows, in words) ("Eigenschaften der
Einheiten", "Der Kampf"), the turn in one line, and every unit of this game's unit table, army
by army (the armies in play first), with its values: the table is the truth (the shipped one
is provisional)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import ReferenceEntry
from rules_kernel.games.to_war.cards import ARMIES, ARMY_NAMES, load_units

if TYPE_CHECKING:
    from rules_kernel.games.to_war.game import ToWar


def reference(game: ToWar) -> list[ReferenceEntry]:
    """The "reference" part (`ToWar.PARTS`): what a card's two numbers and its arrows mean
    ("Eigenschaften der Einheiten", "Der Kampf"), and every unit of this game's unit table,
    army by army (the armies in play first), with its values: the table is the truth (the
    shipped one is provisional)."""
    first = game.units[game.army_codes(0)[0]]
    values = "this game's unit table"
    if game.options["units"] == load_units(None):
        values = "the shipped unit table, provisional: the printed cards are the truth (rules/NOTES.md)"
    entries = [
        ReferenceEntry(
            "Attack/defence",
            f"a card shows two numbers, attack/defence (on the board: '{first.name} {first.attack}/"
            f"{first.defence}'). A unit that steps onto an enemy attacks with its attack, +2 from the "
            "side (not forward), against the enemy's defence: greater wins and takes the square, "
            f"smaller loses, equal: both leave the grid. Values: {values}",
            group="Cards",
        ),
        ReferenceEntry(
            "Moves",
            "the printed cards show them with arrows; here each unit's line below says them: forward "
            "only, or forward, left or right (never back); one step, or two (after a step onto a free "
            "square, a second step or none)",
            group="Cards",
        ),
        ReferenceEntry(
            "Crown ♛",
            "an elite unit, marked by a crown on the pennant at its card's corner: when both reserves "
            "are spent, more units on the grid win, then more elite units",
            group="Cards",
        ),
        ReferenceEntry(
            "Turn",
            "place your card on one of the three squares of your bottom rank; the unit there is "
            "pushed one step, pushing the next, until a fight or a free square; stepping forward "
            "off the opponent's edge is the breakthrough and wins",
            group="Cards",
        ),
    ]
    in_play = list(dict.fromkeys(game.options["armies"]))
    armies = in_play + [a for a in ARMIES if a not in in_play]
    for army in armies:
        units = [u for u in game.units.values() if u.army == army]
        if not units:
            continue
        group = ARMY_NAMES[army]
        if army in in_play:
            group += (" (first player)", " (second player)")[in_play.index(army)]
        for unit in units:
            moves = ((-1, 0), (0, 1), (1, 0)) if unit.sideways else ((0, 1),)
            words = [
                f"attack {unit.attack}, defence {unit.defence}",
                "forward, left or right" if unit.sideways else "forward only",
                "two steps" if unit.steps == 2 else "one step",
            ]
            if unit.elite:
                words.append("elite (♛)")
            words.append(f"{unit.count} card{'s' if unit.count != 1 else ''}")
            entries.append(ReferenceEntry(unit.name, "; ".join(words), moves, short=unit.code, group=group))
    return entries
