"""Yōkai no Mori: 3x4 (Dōbutsu shōgi, `yokai-3x4`) and 5x6 (Gorogoro shōgi, `yokai-5x6`).

Rulebook: rules/yokai-no-mori.de.txt; formulation and notation: rules/NOTES.md, which
follows Fairy-Stockfish (variants `dobutsu` and `gorogoro`) so positions and games move
freely between this project and Fairy-Stockfish tools.

The package, one module a concern (docs/architecture.md, "A game's package"):

- `rules`      the rules in the rulebook's words: pieces and their steps, moves, promotion,
               captures and drops, check, the end of the game; on raw tuples (the hot path)
- `state`      `YokaiState`: the position and the kernel protocol on it
- `game`       `YokaiGame` and the two variants (`YokaiNoMori3x4`, `YokaiNoMori5x6`): what
               differs between them, the option, reading a position text, the declarations
- `notation`   the position text (Fairy-Stockfish FEN) and its checks, the move list's words,
               why a move is illegal, and the public seams of the players' formats: `san`,
               `parse_san`, `in_check`, the KIF piece names and squares
- `scene`      what the position looks like (plain data for the widgets)
- `edit`       the board editor (the "editor" part)
- `hints`      the agents' heuristic and the statistics' heatmaps
- `reference`  the reference panel: each piece's steps, promotion, the drop

This module registers the games (`GAMES`) and re-exports the names other modules import from
`rules_kernel.games.yokai`.
"""

from __future__ import annotations

from rules_kernel.games.yokai.game import YokaiGame, YokaiNoMori3x4, YokaiNoMori5x6
from rules_kernel.games.yokai.hints import CAPTURES_HEATMAP
from rules_kernel.games.yokai.rules import (
    EMPTY,
    KIND_NAMES,
    KIRIN,
    KITSUNE,
    KODAMA,
    KODAMA_SAMURAI,
    KOROPOKKURU,
    ONI,
    OWNER_SHIFT,
    PROMOTES_TO,
    STEPS,
    SUPER_ONI,
    TANUKI,
    UNPROMOTED,
    YokaiMove,
    kind_of,
    owner_of,
    piece,
)

# The raw rules the kernel's own tests call (tests/test_reference.py, tests/test_analysis_fsf.py):
# private, kept importable from here as before the split.
from rules_kernel.games.yokai.rules import _is_drop_mate as _is_drop_mate
from rules_kernel.games.yokai.rules import _make as _make
from rules_kernel.games.yokai.rules import _pseudo_moves as _pseudo_moves
from rules_kernel.games.yokai.state import YokaiState

GAMES = [YokaiNoMori3x4, YokaiNoMori5x6]

__all__ = [
    "CAPTURES_HEATMAP",
    "EMPTY",
    "GAMES",
    "KIND_NAMES",
    "KIRIN",
    "KITSUNE",
    "KODAMA",
    "KODAMA_SAMURAI",
    "KOROPOKKURU",
    "ONI",
    "OWNER_SHIFT",
    "PROMOTES_TO",
    "STEPS",
    "SUPER_ONI",
    "TANUKI",
    "UNPROMOTED",
    "YokaiGame",
    "YokaiMove",
    "YokaiNoMori3x4",
    "YokaiNoMori5x6",
    "YokaiState",
    "kind_of",
    "owner_of",
    "piece",
]
