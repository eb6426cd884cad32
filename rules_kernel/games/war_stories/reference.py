"""The reference panel of War Stories (`Game.reference`): the rulebook's "Pionnen" (each piece
with its moves, from the tables the moves are generated from) and "Bordkaarten" (the turn, each
kind of board card with its count in the deck), and the optional rules when chosen."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules_kernel.core import ReferenceEntry
from rules_kernel.games.war_stories.rules import (
    ARMY_CODES,
    ASHIGARU,
    DAIMYO,
    DECK,
    DIAGONAL,
    HEIYA,
    KAMON,
    KI,
    KIBATAI,
    KIHEI,
    KNIGHT,
    ORTHOGONAL,
    PIECE_LETTERS,
    PIECE_NAMES,
    SHINOBI,
    SLIDES,
)

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.game import WarStories

_PIECE_LINES = {
    DAIMYO: "warlord: one square in any direction. Attacked, it must flee (Kyousei); with nowhere "
    "safe to go it stands in Haisen and its player has lost",
    SHINOBI: "mercenary: any number of free squares straight or diagonally",
    ASHIGARU: "swordsman: any number of free squares straight",
    KIBATAI: "horseman: one square straight, then one diagonally onwards; the only piece that "
    "jumps over pieces and cards, but it never lands on a card",
    KIHEI: "spearman: any number of free squares diagonally",
}


def reference(game: WarStories) -> list[ReferenceEntry]:
    """The "reference" part (`WarStories.PARTS`): the pieces ("Pionnen") with their moves, then
    the turn and the board cards with their counts in the deck, and the optional rules `game` plays with."""
    entries = []
    for kind, line in _PIECE_LINES.items():
        if kind in SLIDES:
            moves, slides = SLIDES[kind], True
        else:
            moves, slides = (ORTHOGONAL + DIAGONAL if kind == DAIMYO else KNIGHT), False
        entries.append(
            ReferenceEntry(
                PIECE_NAMES[kind], line, moves, slides=slides, short=PIECE_LETTERS[kind], group="Pieces"
            )
        )
    counts = Counter(DECK)
    armies = sum(n for code, n in counts.items() if code[:2] in ARMY_CODES)
    kinds = ", ".join(PIECE_NAMES[k] for k in ARMY_CODES.values())
    kamon = ", ".join(KAMON.values())
    cards = [
        (
            "Turn",
            "move one piece (a capture ends its move), or turn board cards face up one at a time, "
            "two that are not Heiya",
        ),
        (
            f"Army card ({armies})",
            f"a piece ({kinds}) and a kamon ({kamon}), each pair twice: two alike in one turn is "
            "Engun, both cards go and that piece enters on the second card's square; otherwise "
            "both are turned face down again",
        ),
        (
            f"Heiya ({counts[HEIYA]})",
            "plain: removed from the board, and another card is turned (it does not count)",
        ),
        (
            f"Ki ({counts[KI]})",
            "tree: turned face down again and stays; two Ki in a turn in two of your turns in a "
            "row is Yonhon no ki: you have lost",
        ),
    ]
    if game.options["shinobi_wo_tsukau"]:
        cards.append(
            (
                "Shinobi wo tsukau",
                "two Heiya as the first two cards of a turn: both go, and an extra Shinobi enters "
                "on the second one's square; the turn ends",
            )
        )
    if game.options["nobori"]:
        cards.append(
            (
                "Nobori",
                "the cards turned back at the end of a turn carry a banner and may not be turned "
                "in the next turn",
            )
        )
    entries.extend(ReferenceEntry(name, line, group="Cards") for name, line in cards)
    return entries
