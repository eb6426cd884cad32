"""The reference panel's entries (the game's "reference" part, `rules_kernel.parts`): every
unit of the box in one line, and the coin actions.

A unit's line is put together from the tables the rules run on: its coins (`box.COINS`), its
tactic if `units.TACTICS` has one (by the coin that pays for it: the Royal coin pays the Royal
Guard's), "no normal attack" for the units of `units.NO_NORMAL_ATTACK`; the words of each
tactic and property are here, in the unit cards' terms (rules/NOTES.md, after the English
rulebook; the Dutch rulebook's "Tactiek" and "Eigenschappen en Beperkingen"). tests/
test_reference.py checks that the words and the tables name the same units.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import ReferenceEntry
from rules_kernel.games.war_chest.box import COINS, NAMES, ROYAL, SYMBOLS, UNITS
from rules_kernel.games.war_chest.units import NO_NORMAL_ATTACK, TACTICS

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.game import WarChest

#: the unit whose tactic a coin other than its own pays for
TACTIC_OF_COIN = {ROYAL: "royal-guard"}

#: what each tactic of `units.TACTICS` does, by the unit whose card it is on
TACTIC_WORDS = {
    "archer": "attack a unit exactly two hexes away (the hex between may be occupied)",
    "crossbowman": "attack a unit two hexes away in a straight line, over an empty hex",
    "cavalry": "move, then attack",
    "lancer": (
        "move one or two hexes in a straight line over empty hexes, then attack the unit directly beyond"
    ),
    "light-cavalry": "move two hexes, both empty",
    "ensign": "another friendly unit within two hexes moves one hex, staying within two hexes of the Ensign",
    "marshall": "another friendly unit within two hexes makes a normal attack",
    "footman": "each Footman unit makes one maneuver",
}
#: the Royal Guard's tactic, by the card (option `royal_guard`)
ROYAL_GUARD_TACTIC = {
    "2018": "pay the Royal coin: it moves one hex",
    "revised": "pay the Royal coin: it moves up to two hexes, to a location you control",
}
#: properties and restrictions: what a unit does besides its actions
PROPERTY_WORDS = {
    "berserker": (
        "after it maneuvers it may maneuver again, paying a coin of its own stack (never the last); "
        "again and again"
    ),
    "footman": "two Footman units may be on the board",
    "knight": "only a bolstered unit (two coins or more) can attack it",
    "mercenary": "when you recruit a Mercenary coin, the Mercenary unit may make a free maneuver",
    "pikeman": "a unit attacking it from the next hex loses a coin too (a Knight as well)",
    "royal-guard": (
        "attacked, its owner may remove a Royal Guard coin from the supply instead of from the unit"
    ),
    "scout": "may also be deployed on an empty hex next to any friendly unit",
    "swordsman": "after it attacks, it may move one hex",
    "warrior-priest": (
        "after it attacks or takes control, its owner draws a coin from the bag and uses it at once"
    ),
}

#: the coin actions (the rulebook's "Spelersacties Samengevat")
ACTIONS = (
    ("Deploy", "a coin face up on an empty location you control, if its unit is not on the board yet"),
    ("Bolster", "a coin onto your unit of its type on the board (no limit to the stack)"),
    ("Claim initiative", "a coin face down: you start the next round (not if you hold it; once a round)"),
    (
        "Recruit",
        "a coin face down: take a coin of one of your units from the supply, face up into the discard",
    ),
    ("Pass", "a coin face down, and nothing else"),
    ("Move", "a coin face up: its unit moves to an adjacent empty hex"),
    ("Control", "a coin face up: its unit takes the location it stands on (an enemy marker goes back)"),
    ("Attack", "a coin face up: its unit takes one coin off an adjacent enemy unit, out of the game"),
    ("Tactic", "a coin face up: its unit does what its card says"),
    ("Royal coin", "only ever used face down (or for the Royal Guard's tactic)"),
)


def tactic_units() -> set[str]:
    """The units with a tactic, as `units.TACTICS` has them."""
    return {TACTIC_OF_COIN.get(coin, coin) for coin in TACTICS}


def unit_line(game: WarChest, unit: str) -> str:
    parts = [f"{COINS[unit]} coins"]
    if unit == "royal-guard":
        parts.append("tactic: " + ROYAL_GUARD_TACTIC[game.options["royal_guard"]])
    elif unit in tactic_units():
        parts.append("tactic: " + TACTIC_WORDS[unit])
    if unit in NO_NORMAL_ATTACK:
        parts.append("no normal attack")
    if unit in PROPERTY_WORDS:
        parts.append(PROPERTY_WORDS[unit])
    return "; ".join(parts)


def reference(game: WarChest) -> list[ReferenceEntry]:
    """The "reference" part (`WarChest.PARTS`): every unit of the box in one line (its coins,
    tactic and properties, from `units.TACTICS`), then the coin actions."""
    units = [ReferenceEntry(NAMES[u], unit_line(game, u), short=SYMBOLS[u], group="Units") for u in UNITS]
    markers = game.map.markers
    actions = [
        ReferenceEntry(name, line, short=SYMBOLS[ROYAL] if name == "Royal coin" else "", group="Coin actions")
        for name, line in ACTIONS
    ]
    goal = ReferenceEntry(
        "Goal",
        f"place all {markers} of your side's control markers on locations: the game ends at once",
        group="Coin actions",
    )
    return units + actions + [goal]
