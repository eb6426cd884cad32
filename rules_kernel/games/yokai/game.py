"""The two Yōkai no Mori games: what differs between them (board, start, letters, promotion
zone, royal Koropokkuru or try, drop restrictions: the rulebook's two versions), the game's one
option, reading a position text, and the declarations the rest of the project reads (core.Game:
list order, solved table, Fairy-Stockfish variant, heatmaps, the players' formats' names) and
the parts it names (`PARTS`: heuristic, reference), whose values live in `hints.py`,
`notation.py`, `scene.py` and `reference.py`."""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import ClassVar

from rules_kernel.core import Game, Option
from rules_kernel.games.yokai import edit, hints, notation, scene
from rules_kernel.games.yokai import reference as reference_panel
from rules_kernel.games.yokai.rules import (
    KIRIN,
    KITSUNE,
    KODAMA,
    KODAMA_SAMURAI,
    KOROPOKKURU,
    ONI,
    SUPER_ONI,
    TANUKI,
    _Tables,
    _tables_for,
)
from rules_kernel.games.yokai.scene import NAME_BREAKS
from rules_kernel.games.yokai.state import YokaiState
from rules_kernel.persistent import Counts
from rules_kernel.position_text import read_position


@lru_cache(maxsize=32)
def _start_parts(variant: type[YokaiGame], options: tuple) -> tuple:
    """The start position's board, hands, side and ply, read from the variant's START."""
    start = variant(**dict(options)).from_text(variant.START)
    return start.board, start.hands, start.side, start.ply


class YokaiGame(Game):
    """Shared rules; the two variants below set the class attributes."""

    # what the game is (rules_kernel.info): both players see everything, no chance
    HIDDEN_INFORMATION = False
    CHANCE = False
    MEMORY = False
    # the parts besides the rules (rules_kernel.parts): the position's are YokaiState's hooks
    PARTS: ClassVar[dict[str, object]] = {
        "position text": YokaiState,
        "words": notation,  # the moves in the rulebook's words, why a text is no move
        "scene": scene,  # what the board shows
        "editor": edit,  # the board editor: its palette, counters, turn fields and an edit
        "reference": reference_panel,  # the pieces with their steps, promotion, the drop
        "heuristic": hints,  # material, with the variant's AGENT_VALUES
    }

    FILES: ClassVar[int]
    RANKS: ClassVar[int]
    START: ClassVar[str]  # Fairy-Stockfish FEN of the start position
    LETTERS: ClassVar[dict[int, str]]  # Fairy-Stockfish letters (first player's, upper case)
    ZONE_DEPTH: ClassVar[int]  # ranks in the promotion zone
    ROYAL: ClassVar[bool]  # Koropokkuru may not be left attacked; no legal move = lost
    TRY: ClassVar[bool]  # Koropokkuru safe on the far rank wins
    PROMOTION_OPTIONAL: ClassVar[bool]
    DROP_RESTRICTIONS: ClassVar[bool]  # no dead Kodama drop, no two Kodama in a file, no drop mate
    MATERIAL: ClassVar[dict[int, int]]  # pieces in the box per unpromoted kind, both players
    OPTIONS: ClassVar[dict[str, Option]] = {
        "repetitions": Option(
            3,
            "the same position this many times is a draw (the rulebook's "
            "'drei Mal hintereinander hin und zurück')",
            kind=int,
            check=lambda n: _at_least(2, n),
        ),
    }

    @cached_property
    def tables(self) -> _Tables:
        return _tables_for(type(self))

    def initial_state(self) -> YokaiState:
        # read once per variant and options: a collection's import starts 100,000 games
        board, hands, side, ply = _start_parts(type(self), tuple(sorted(self.options.items())))
        return YokaiState(self, board, hands, side, ply, Counts())

    def from_text(self, text: str) -> YokaiState:
        """A position from Fairy-Stockfish FEN; anything that is not a position this game
        can reach (too many pieces, the side not to move in check, ...) raises
        PositionTextError naming the field. The repetition history starts afresh."""
        return read_position(
            self.id, text, lambda fields: YokaiState(self, *notation.position_parts(self, fields), Counts())
        )

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("First player", "Second player")

    # --- what the rest of the project needs (core.Game's declarations) ---
    NAME_BREAKS: ClassVar[dict[str, tuple[str, ...]]] = NAME_BREAKS
    #: the agents' material values (hints.py)
    AGENT_VALUES: ClassVar[dict[int, int]] = hints.AGENT_VALUES


def _at_least(minimum: int, value: int) -> int:
    if value < minimum:
        raise ValueError(f"must be at least {minimum}, got {value}")
    return value


class YokaiNoMori3x4(YokaiGame):
    """The standard game on 12 squares (Dōbutsu shōgi)."""

    id = "yokai-3x4"
    title = "Yōkai no Mori 3x4"
    LIST_ORDER = 10
    SOLVED_TABLE = "rules_kernel.tablebase:Tablebase.open"  # retrograde analysis: docs/tablebase.md
    FAIRY_STOCKFISH_VARIANT = "dobutsu"  # Debian's build: the older formulation (docs/analysis.md)
    HEATMAPS = (hints.CAPTURES_HEATMAP, hints.KOROPOKKURU_HEATMAP)
    FILES, RANKS = 3, 4
    START = "gle/1c1/1C1/ELG[-] w 0 1"
    LETTERS = {KODAMA: "C", KITSUNE: "E", TANUKI: "G", KOROPOKKURU: "L", KODAMA_SAMURAI: "+C"}
    ZONE_DEPTH = 1
    ROYAL = False
    TRY = True
    PROMOTION_OPTIONAL = False
    DROP_RESTRICTIONS = False
    MATERIAL = {KODAMA: 2, KITSUNE: 2, TANUKI: 2, KOROPOKKURU: 2}
    # Players' formats (rules_kernel/formats/, docs/records.md "Other formats"): the variant
    # pychess-variants writes in PGN, the SAN letter of a piece whose FEN letter is not one
    # (the hen), KIF's 手合割 and the piece names Japanese programs (lishogi) write
    PGN_VARIANT = "dobutsu"
    PGN_LETTERS = notation.PGN_LETTERS_3X4
    KIF_HANDICAP = "どうぶつしょうぎ"
    KIF_PIECES = notation.KIF_PIECES_3X4


class YokaiNoMori5x6(YokaiGame):
    """The version on 30 squares (Gorogoro shōgi)."""

    id = "yokai-5x6"
    title = "Yōkai no Mori 5x6"
    LIST_ORDER = 20
    HEATMAPS = (hints.CAPTURES_HEATMAP,)
    FAIRY_STOCKFISH_VARIANT = "gorogoro"
    FILES, RANKS = 5, 6
    START = "sgkgs/5/1ppp1/1PPP1/5/SGKGS[-] w 0 1"
    LETTERS = {KODAMA: "P", KIRIN: "G", ONI: "S", KOROPOKKURU: "K", KODAMA_SAMURAI: "+P", SUPER_ONI: "+S"}
    ZONE_DEPTH = 2
    ROYAL = True
    TRY = False
    PROMOTION_OPTIONAL = True
    DROP_RESTRICTIONS = True
    MATERIAL = {KODAMA: 6, KIRIN: 4, ONI: 4, KOROPOKKURU: 2}
    # pychess-variants has no plain gorogoro: its 5x6 game is Gorogoro+ (Fairy-Stockfish's
    # gorogoro with a lance and a knight in each hand at the start), which is this game when
    # the FEN holds neither; Fairy-Stockfish's own name is read too
    PGN_VARIANT = "gorogoroplus"
    PGN_ALIASES = ("gorogoro",)
    PGN_LETTERS = notation.PGN_LETTERS_5X6  # promoted pieces move as golds
    KIF_HANDICAP = "ゴロゴロ将棋"  # 81Dojo's name of the 5x6 game
    KIF_PIECES = notation.KIF_PIECES_5X6
