"""War Stories / Sengokuki (`war-stories`): a memory game of face-down board cards and a
chess-like fight.

Rulebook: rules/war-stories-sengokuki.nl.txt; the lost diagram and the gaps are ruled in
rules/NOTES.md (board 6 files x 7 ranks; White: Daimyo c1, Shinobi d1; Black: c7, d7).

The package, one module a concern (docs/architecture.md, "A game's package"):

- `rules`      the rules in the rulebook's words: the board, the pieces and how they move, the
               board cards and the box, the actions, the legal moves (Kyousei), a move, a flip
               (Heiya, Engun, the end of a turn, the Nobori), Haisen and Yonhon no ki, the deal
               and what a player's view shows
- `state`      `WarStoriesState`: the position and the kernel protocol on it, handing each
               question on
- `game`       `WarStories`: the options (the optional rules, the start squares, the cap, a move
               into one's own Haisen), the initial position, reading a position text, the
               declarations
- `notation`   the position text and its checks, `status`, the deal's text, the move list's
               words, why a move is illegal
- `scene`      what the position looks like (plain data for the widgets)
- `edit`       the board editor (the "editor" part)
- `hints`      the agents' heuristic and its weights
- `reference`  the reference panel: the pieces, the turn, the board cards, the optional rules

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
