"""War Stories / Sengokuki: a memory game of face-down board cards and a chess-like fight.

Rulebook: rules/war-stories-sengokuki.nl.txt; the lost diagram and the gaps are ruled in
rules/NOTES.md. The game's code is in `rules` (being split into one module a concern,
docs/architecture.md, "A game's package").

This module registers the game (`GAMES`) and re-exports the names other modules import from
`rules_kernel.games.war_stories`.
"""

from __future__ import annotations

from rules_kernel.games.war_stories.game import WarStories

# The heuristic's part the kernel's own tests call (tests/test_heuristics_war_stories.py):
# private, kept importable from here as before the split.
from rules_kernel.games.war_stories.hints import _engun_exposure as _engun_exposure
from rules_kernel.games.war_stories.rules import (
    ARMY_CODES,
    ASHIGARU,
    DAIMYO,
    DECK,
    DECK_COUNTS,
    FILES,
    HEIYA,
    KAMON,
    KI,
    KIBATAI,
    KIHEI,
    PIECE_LETTERS,
    PIECE_NAMES,
    PLAYER_NAMES,
    RANKS,
    SHINOBI,
    SIZE,
    SQUARES,
    UNKNOWN,
    Deal,
    Flip,
    PieceMove,
    card_name,
    square_name,
)
from rules_kernel.games.war_stories.state import WarStoriesState

GAMES = [WarStories]

__all__ = [
    "ARMY_CODES",
    "ASHIGARU",
    "DAIMYO",
    "DECK",
    "DECK_COUNTS",
    "FILES",
    "GAMES",
    "HEIYA",
    "KAMON",
    "KI",
    "KIBATAI",
    "KIHEI",
    "PIECE_LETTERS",
    "PIECE_NAMES",
    "PLAYER_NAMES",
    "RANKS",
    "SHINOBI",
    "SIZE",
    "SQUARES",
    "UNKNOWN",
    "Deal",
    "Flip",
    "PieceMove",
    "WarStories",
    "WarStoriesState",
    "card_name",
    "square_name",
]
