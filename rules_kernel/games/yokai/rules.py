"""Yōkai no Mori: 3x4 (Dōbutsu shōgi) and 5x6 (Gorogoro shōgi).

Rulebook: rules/yokai-no-mori.de.txt; formulation and notation: rules/NOTES.md, which
follows Fairy-Stockfish (variants `dobutsu` and `gorogoro`) so positions and games move
freely between this project and Fairy-Stockfish tools.

Representation (chosen for speed; a state is a few tuples):
- `board`: one int per square, square = rank * files + file (a1 = 0). 0 is empty; a piece
  is `kind | owner << 4` with the kinds below.
- `hands`: one tuple of counts per player, indexed by kind (captured pieces, unpromoted).
- `side`: the player to move (0 moves first, its pieces start on rank 1).

The two variants differ in a few class attributes of their Game subclass (board size,
start position, letters, promotion zone, royal Koropokkuru or try, drop restrictions).
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any, ClassVar

from rules_kernel.core import (
    NOT_COMPUTED,
    EditPiece,
    Game,
    Heatmap,
    Move,
    Option,
    Outcome,
    PositionTextError,
    ReferenceEntry,
    State,
)
from rules_kernel.persistent import Counts
from rules_kernel.position_text import FieldError, read_edit, read_position, whole_number
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

# Piece kinds, in the rulebook's names.
KODAMA, KITSUNE, TANUKI, KOROPOKKURU, KIRIN, ONI, KODAMA_SAMURAI, SUPER_ONI = range(1, 9)
KIND_NAMES = {
    KODAMA: "Kodama",
    KITSUNE: "Kitsune",
    TANUKI: "Tanuki",
    KOROPOKKURU: "Koropokkuru",
    KIRIN: "Kirin",
    ONI: "Oni",
    KODAMA_SAMURAI: "Kodama Samurai",
    SUPER_ONI: "Super-Oni",
}
PROMOTES_TO = {KODAMA: KODAMA_SAMURAI, ONI: SUPER_ONI}
UNPROMOTED = {KODAMA_SAMURAI: KODAMA, SUPER_ONI: ONI}
OWNER_SHIFT = 4
EMPTY = 0

# Steps (file, rank) for the first player; the second player's are mirrored in rank.
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
_GOLD = ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1))  # all but the backward diagonals
STEPS = {
    KODAMA: ((0, 1),),
    KITSUNE: _DIAGONAL,
    TANUKI: _ORTHOGONAL,
    KOROPOKKURU: _ORTHOGONAL + _DIAGONAL,
    KIRIN: _GOLD,
    ONI: ((-1, 1), (0, 1), (1, 1), (-1, -1), (1, -1)),  # diagonals or straight forward
    KODAMA_SAMURAI: _GOLD,
    SUPER_ONI: _GOLD,
}

_MOVE_RE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)(\+?)$")
_DROP_RE = re.compile(r"^([A-Za-z])@([a-z])(\d+)$")


def piece(kind: int, owner: int) -> int:
    return kind | owner << OWNER_SHIFT


def owner_of(code: int) -> int:
    return code >> OWNER_SHIFT


def kind_of(code: int) -> int:
    return code & 15


class YokaiMove(Move):
    """A step (`b2b3`, with `+` when it promotes) or a drop from the hand (`C@a2`).

    Moves are interned per variant (see `_Tables`), so generating them allocates nothing.
    """

    __slots__ = ("frm", "to", "drop", "promote", "side", "cells", "_text")

    def __init__(
        self,
        text: str,
        frm: int | None,
        to: int,
        drop: int | None,
        promote: bool,
        side: int,
        cells: tuple[str, ...],
    ) -> None:
        for name, value in (
            ("_text", text),
            ("frm", frm),
            ("to", to),
            ("drop", drop),
            ("promote", promote),
            ("side", side),
            ("cells", cells),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __str__(self) -> str:
        return self._text

    @property
    def choice_label(self) -> str:
        """A step into the promotion zone may promote or not: the two buttons' words."""
        return "Promote" if self.promote else "Don't promote"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, YokaiMove) and (self._text, self.side) == (other._text, other.side)

    def __hash__(self) -> int:
        return hash(self._text)


class _Tables:
    """Everything derived once per variant: squares, steps, interned moves."""

    def __init__(self, game: type[YokaiGame]) -> None:
        self.files, self.ranks = game.FILES, game.RANKS
        n = self.files * self.ranks
        self.size = n
        self.names = tuple(self.square_name(sq) for sq in range(n))
        self.index = {name: sq for sq, name in enumerate(self.names)}
        self.letter = game.LETTERS
        self.kind_of_letter = {v: k for k, v in game.LETTERS.items()}
        last = self.ranks - 1
        depth = game.ZONE_DEPTH
        # promotion zone of each player: the far `depth` ranks
        self.zone = (
            frozenset(sq for sq in range(n) if sq // self.files > last - depth),
            frozenset(sq for sq in range(n) if sq // self.files < depth),
        )
        self.far_rank = (
            frozenset(sq for sq in range(n) if sq // self.files == last),
            frozenset(sq for sq in range(n) if sq // self.files == 0),
        )
        self.dest = self._destinations()
        self.neighbours = tuple(
            tuple(d for d in self._steps_from(sq, STEPS[KOROPOKKURU], 0)) for sq in range(n)
        )
        self.step_moves = {}  # (frm, to, promote, side) -> move
        self.drops = {}  # (kind, to, side) -> move
        for side in (0, 1):
            for frm in range(n):
                for to in self.neighbours[frm]:
                    for promote in (False, True):
                        text = f"{self.names[frm]}{self.names[to]}{'+' if promote else ''}"
                        self.step_moves[frm, to, promote, side] = YokaiMove(
                            text, frm, to, None, promote, side, (self.names[frm], self.names[to])
                        )
            for kind, letter in game.LETTERS.items():
                if kind in UNPROMOTED:
                    continue
                for to in range(n):
                    self.drops[kind, to, side] = YokaiMove(
                        f"{letter}@{self.names[to]}",
                        None,
                        to,
                        kind,
                        False,
                        side,
                        (zone_cell(f"hand-{side}", letter), self.names[to]),
                    )

    def square_name(self, sq: int) -> str:
        return f"{chr(ord('a') + sq % self.files)}{sq // self.files + 1}"

    def _steps_from(self, sq: int, steps, owner: int):
        f, r = sq % self.files, sq // self.files
        sign = 1 if owner == 0 else -1
        for df, dr in steps:
            nf, nr = f + df, r + dr * sign
            if 0 <= nf < self.files and 0 <= nr < self.ranks:
                yield nr * self.files + nf

    def _destinations(self) -> dict[int, tuple[tuple[int, ...], ...]]:
        """dest[code][sq]: the squares a piece `code` on `sq` steps to."""
        return {
            piece(kind, owner): tuple(tuple(self._steps_from(sq, steps, owner)) for sq in range(self.size))
            for kind, steps in STEPS.items()
            for owner in (0, 1)
        }


class YokaiGame(Game):
    """Shared rules; the two variants below set the class attributes."""

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
        return self.from_text(self.START)

    def from_text(self, text: str) -> YokaiState:
        """A position from Fairy-Stockfish FEN; anything that is not a position this game
        can reach (too many pieces, the side not to move in check, ...) raises
        PositionTextError naming the field. The repetition history starts afresh."""
        return read_position(self.id, text, lambda fields: _parse_fen(self, fields))

    @property
    def player_names(self) -> tuple[str, ...]:
        return ("First player", "Second player")

    # --- what the rest of the project needs (core.Game's declarations) ---
    NAME_BREAKS: ClassVar[dict[str, tuple[str, ...]]] = {
        "Koropokkuru": ("Koro-", "pokkuru"),
        "Super-Oni": ("Super-", "Oni"),
    }
    #: the agents' material values; the Koropokkuru counts nothing, as taking it ends the game
    AGENT_VALUES: ClassVar[dict[int, int]] = {
        KODAMA: 1,
        KITSUNE: 3,
        TANUKI: 3,
        KIRIN: 5,
        ONI: 4,
        KODAMA_SAMURAI: 5,
        SUPER_ONI: 5,
        KOROPOKKURU: 0,
    }

    def heuristic(self, state: State, player: int) -> float:
        """Material on the board and in hand, the player's minus the opponent's, over 20."""
        values = self.AGENT_VALUES
        score = 0.0
        for code in state.board:
            if code:
                score += values[kind_of(code)] * (1 if owner_of(code) == player else -1)
        for owner in (0, 1):
            for kind, count in enumerate(state.hands[owner]):
                if count and kind in values:
                    score += values[kind] * count * (1 if owner == player else -1)
        return score / 20

    def reference(self) -> list[ReferenceEntry]:
        """Each piece of the variant with its steps (`STEPS`: the dots on the wooden pieces,
        "er bewegt sich ein Feld weit in die Richtungen die durch die farbigen Punkte vorgegeben
        sind"), what promotes and how, and the drop."""
        return _reference(self)


def _at_least(minimum: int, value: int) -> int:
    if value < minimum:
        raise ValueError(f"must be at least {minimum}, got {value}")
    return value


# --- the reference panel (core.Game.reference) ----------------------------------------------

_REFERENCE_ORDER = (KOROPOKKURU, KIRIN, TANUKI, KITSUNE, ONI, SUPER_ONI, KODAMA, KODAMA_SAMURAI)
_STEP_WORDS = {
    frozenset(_ORTHOGONAL + _DIAGONAL): "one square in any direction",
    frozenset(_ORTHOGONAL): "one square straight: forward, back, left or right",
    frozenset(_DIAGONAL): "one square diagonally, in any of the four directions",
    frozenset(_GOLD): "one square in any direction but diagonally back",
    frozenset(STEPS[ONI]): "one square diagonally or straight forward",
    frozenset(STEPS[KODAMA]): "one square straight forward",
}


def _reference(game: YokaiGame) -> list[ReferenceEntry]:
    far = "the last rank" if game.ZONE_DEPTH == 1 else f"the far {game.ZONE_DEPTH} ranks"
    if game.PROMOTION_OPTIONAL:
        promotes = f"moving into, out of or inside the promotion zone ({far}) it may promote to {{to}}"
    else:
        promotes = f"reaching the promotion zone ({far}) it promotes to {{to}}"
    if game.ROYAL:
        king = "the master: a move that leaves it attacked is not allowed; no legal move loses the game"
    else:
        king = "the master: capturing it wins; reaching the last rank without being captured next turn wins"
    entries = []
    for kind in _REFERENCE_ORDER:
        if kind not in game.LETTERS:
            continue
        notes = [_STEP_WORDS[frozenset(STEPS[kind])]]
        if kind == KOROPOKKURU:
            notes.append(king)
        if kind in PROMOTES_TO:
            notes.append(promotes.format(to=KIND_NAMES[PROMOTES_TO[kind]]))
            if kind == KODAMA and game.PROMOTION_OPTIONAL:
                notes.append("reaching the last rank it must")
        if kind in UNPROMOTED:
            notes.append(
                f"a promoted {KIND_NAMES[UNPROMOTED[kind]]}; captured, it goes to the hand unpromoted"
            )
        entries.append(
            ReferenceEntry(
                KIND_NAMES[kind], "; ".join(notes), STEPS[kind], short=game.LETTERS[kind], group="Pieces"
            )
        )
    drop = "instead of a move, put a captured piece from your hand on any empty square, unpromoted"
    if game.DROP_RESTRICTIONS:
        drop += (
            "; it must be able to move from there, no two own Kodama in one file, and a Kodama "
            "drop may not checkmate"
        )
    else:
        drop += "; a Kodama dropped on the last rank never moves or promotes"
    entries.append(ReferenceEntry("Drop", drop, group="Moves"))
    return entries


_TABLE_CACHE: dict[type, _Tables] = {}


def _tables_for(cls: type[YokaiGame]) -> _Tables:
    if cls not in _TABLE_CACHE:
        _TABLE_CACHE[cls] = _Tables(cls)
    return _TABLE_CACHE[cls]


def _captures_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps  # pandas, only when a heatmap is drawn

    return heatmaps.captures(actions, scene.game)


def _koropokkuru_heatmap(actions: Any, scene: Any) -> Any:
    from rules_kernel import heatmaps

    files = max(c.x for c in scene.cells) + 1
    ranks = max(c.y for c in scene.cells) + 1
    return heatmaps.piece_moves(actions, scene.game, "Koropokkuru", files=files, ranks=ranks)


CAPTURES_HEATMAP = Heatmap(
    "captures",
    "where captures happen",
    "captures",
    "each capture counts on the square the capturing piece moved to",
    _captures_heatmap,
)


class YokaiNoMori3x4(YokaiGame):
    """The standard game on 12 squares (Dōbutsu shōgi)."""

    id = "yokai-3x4"
    title = "Yōkai no Mori 3x4"
    LIST_ORDER = 10
    SOLVED_TABLE = "rules_kernel.tablebase:Tablebase.open"  # retrograde analysis: docs/tablebase.md
    FAIRY_STOCKFISH_VARIANT = "dobutsu"  # Debian's build: the older formulation (docs/analysis.md)
    HEATMAPS = (
        CAPTURES_HEATMAP,
        Heatmap(
            "koropokkuru",
            "where the Koropokkuru goes",
            "Koropokkuru moves",
            "each move of a Koropokkuru counts on its destination, seen from the mover's side (the "
            "second player's moves turned round): the top rank is the far rank, where a Koropokkuru "
            "that arrives safely wins by the try",
            _koropokkuru_heatmap,
        ),
    )
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
    PGN_LETTERS = {KODAMA_SAMURAI: "H"}
    KIF_HANDICAP = "どうぶつしょうぎ"
    KIF_PIECES = {
        KODAMA: "ひよこ",
        KITSUNE: "ぞう",
        TANUKI: "きりん",
        KOROPOKKURU: "ライオン",
        KODAMA_SAMURAI: "にわとり",
    }


class YokaiNoMori5x6(YokaiGame):
    """The version on 30 squares (Gorogoro shōgi)."""

    id = "yokai-5x6"
    title = "Yōkai no Mori 5x6"
    LIST_ORDER = 20
    HEATMAPS = (CAPTURES_HEATMAP,)
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
    PGN_LETTERS = {KODAMA_SAMURAI: "G", SUPER_ONI: "G"}  # promoted pieces move as golds
    KIF_HANDICAP = "ゴロゴロ将棋"  # 81Dojo's name of the 5x6 game
    KIF_PIECES = {
        KODAMA: "歩",
        ONI: "銀",
        KIRIN: "金",
        KOROPOKKURU: "玉",
        KODAMA_SAMURAI: "と",
        SUPER_ONI: "成銀",
    }


GAMES = [YokaiNoMori3x4, YokaiNoMori5x6]


# --- position text (Fairy-Stockfish FEN) -------------------------------------------------

_FIELDS = {
    2: ("side to move",),
    4: ("side to move", "halfmove clock", "move number"),
    6: ("side to move", "castling", "en passant", "halfmove clock", "move number"),
}


def _parse_fen(game: YokaiGame, fields: list[str]) -> YokaiState:
    """The state of FEN `board[hand] side [castling ep] [halfmove move]`, from its fields; it
    starts a game (no repetition history)."""
    if len(fields) not in _FIELDS:
        raise FieldError(
            "position text", f"expected 'board[hand] side ...' like {game.START!r}, got {len(fields)} fields"
        )
    m = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", fields[0])
    if not m:
        raise FieldError("board", "the board must be followed by the hand in [...]")
    board = _parse_board(game, m.group(1))
    hands = _parse_hand(game, m.group(2))
    named = dict(zip(_FIELDS[len(fields)], fields[1:], strict=True))
    if named["side to move"] not in ("w", "b"):
        raise FieldError("side to move", f"must be 'w' or 'b', not {named['side to move'][:10]!r}")
    side = 0 if named["side to move"] == "w" else 1
    for field in ("castling", "en passant"):
        if named.get(field, "-") != "-":
            raise FieldError(field, f"{game.title} has none: write '-'")
    whole_number(named.get("halfmove clock", "0"), "halfmove clock")  # not kept: no rule needs it
    fullmove = whole_number(named.get("move number", "1"), "move number")
    if fullmove < 1:
        raise FieldError("move number", "must be at least 1")
    _check_position(game, board, hands, side)
    ply = 2 * (fullmove - 1) + side
    return YokaiState(game, tuple(board), (tuple(hands[0]), tuple(hands[1])), side, ply, Counts())


def _parse_board(game: YokaiGame, placement: str) -> list[int]:
    t = game.tables
    rows = placement.split("/")
    if len(rows) != t.ranks:
        raise FieldError("board", f"{len(rows)} ranks, {game.id} has {t.ranks}")
    board = [EMPTY] * t.size
    for i, row in enumerate(rows):
        rank = t.ranks - 1 - i
        file = 0
        for token in re.findall(r"\+?[A-Za-z]|[0-9]+|.", row):
            if token.isascii() and token.isdigit():
                if len(token) > 2 or int(token) == 0:
                    raise FieldError(
                        "board",
                        f"rank {rank + 1} ({row[:20]!r}): {token[:10]!r} is no count of empty squares",
                    )
                file += int(token)
                continue
            code = _code_of_letter(game, token, "board")
            if file >= t.files:
                raise FieldError("board", f"rank {rank + 1} ({row[:20]!r}) has more than {t.files} files")
            board[rank * t.files + file] = code
            file += 1
        if file != t.files:
            raise FieldError("board", f"rank {rank + 1} ({row[:20]!r}) covers {file} files, not {t.files}")
    return board


def _parse_hand(game: YokaiGame, hand: str) -> list[list[int]]:
    hands = [[0] * 9, [0] * 9]
    for letter in re.findall(r"\+?[A-Za-z]|.", "" if hand == "-" else hand):
        code = _code_of_letter(game, letter, "hand")
        if kind_of(code) in UNPROMOTED:
            raise FieldError("hand", "a promoted piece cannot be in hand (captures unpromote)")
        hands[owner_of(code)][kind_of(code)] += 1
    return hands


def _square_of(game: YokaiGame, cell: str) -> int:
    if cell not in game.tables.names:
        raise FieldError("board", f"{cell[:10]!r} is no square of {game.id}")
    return game.tables.names.index(cell)


def _code_of_letter(game: YokaiGame, token: str, field: str) -> int:
    kind = game.tables.kind_of_letter.get(token.upper())
    if kind is None:
        raise FieldError(
            field, f"{token!r} is no piece of {game.id} (pieces: {', '.join(game.LETTERS.values())})"
        )
    return piece(kind, 0 if token.upper() == token else 1)


def _check_position(game: YokaiGame, board, hands, side: int) -> None:
    """Refuse what the box or the rules cannot hold (rules/NOTES.md, the rulebook): more
    pieces than the box, two Koropokkuru of one side, a Koropokkuru in hand while the game
    goes on. Less than the box, a side without its Koropokkuru, a Koropokkuru left attacked:
    a study position, accepted and described by `status()`."""
    _check_material(game, board, hands)
    _check_koropokkuru(game, board, hands, side)


def _check_material(game: YokaiGame, board, hands) -> None:
    counts = dict.fromkeys(game.MATERIAL, 0)
    for code in board:
        if code != EMPTY:
            counts[UNPROMOTED.get(kind_of(code), kind_of(code))] += 1
    for hand in hands:
        for kind, n in enumerate(hand):
            if n:
                counts[kind] += n
    for kind, n in counts.items():
        if n > game.MATERIAL[kind]:
            raise FieldError(
                "board and hands",
                f"{n} {KIND_NAMES[kind]} (promoted ones included); {game.title} has {game.MATERIAL[kind]}",
            )


def _check_koropokkuru(game: YokaiGame, board, hands, side: int) -> None:
    """At most one Koropokkuru each on the board. A captured one lies in the captor's hand,
    and then the game ended with that capture (the loser is to move): a Koropokkuru is never
    dropped. (In 5x6 only a study position that leaves one attacked lets it be taken.)"""
    names = game.player_names
    for player in (0, 1):
        on_board = board.count(piece(KOROPOKKURU, player))
        if on_board > 1:
            raise FieldError("board", f"{names[player]} has {on_board} Koropokkuru")
    for player in (0, 1):
        if hands[player][KOROPOKKURU] and (board.count(piece(KOROPOKKURU, 1 - player)) or side == player):
            raise FieldError(
                "hand",
                f"{names[player]} holds a captured Koropokkuru, so the game "
                f"ended with that capture: {names[1 - player]} has none on the board and "
                "is to move",
            )


def _status(game: YokaiGame, board, hands, side: int) -> list[str]:
    """What no game from the start reaches, in words (`YokaiState.status`)."""
    remarks = []
    names = game.player_names
    counts = dict.fromkeys(game.MATERIAL, 0)
    for code in board:
        if code != EMPTY:
            counts[UNPROMOTED.get(kind_of(code), kind_of(code))] += 1
    for hand in hands:
        for kind in counts:
            counts[kind] += hand[kind]
    box = game.MATERIAL
    out = [(box[kind] - n, KIND_NAMES[kind]) for kind, n in counts.items() if n < box[kind]]
    if out:
        total = sum(n for n, _ in out)
        listed = ", ".join(f"{n} {name}" for n, name in out)
        remarks.append(f"{total} piece{'s' if total > 1 else ''} out of the game ({listed})")
    for player in (0, 1):
        if piece(KOROPOKKURU, player) not in board and not hands[1 - player][KOROPOKKURU]:
            remarks.append(f"no Koropokkuru for the {names[player]}")
    # A royal Koropokkuru is never left attacked by its own side's move; the side to move may
    # take it (and wins: the rulebook's "capture").
    if game.ROYAL and _in_check(game, board, 1 - side):
        remarks.append(f"the Koropokkuru of the side not to move ({names[1 - side]}) can be taken")
    if game.DROP_RESTRICTIONS:
        remarks.extend(_kodama_remarks(game, board))
    return remarks


def _kodama_remarks(game: YokaiGame, board) -> list[str]:
    """5x6 "Spezifische Regeln": a Kodama reaching the last rank must promote and may not be
    dropped there; two own unpromoted Kodama never share a file (no drop makes it, a Kodama
    never changes file). A study position may break both; the Kodama then stays put."""
    t = game.tables
    remarks = []
    for player in (0, 1):
        files = [sq % t.files for sq, code in enumerate(board) if code == piece(KODAMA, player)]
        remarks.extend(
            f"an unpromoted Kodama of the {game.player_names[player]} on {t.names[sq]}, its last rank "
            "(it never moves)"
            for sq in t.far_rank[player]
            if board[sq] == piece(KODAMA, player)
        )
        for file in sorted({f for f in files if files.count(f) > 1}):
            remarks.append(
                f"two unpromoted Kodama of the {game.player_names[player]} in file {chr(ord('a') + file)}"
            )
    return remarks


def _fen(state: YokaiState) -> str:
    t = state.tables
    rows = []
    for rank in range(t.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(t.files):
            code = state.board[rank * t.files + file]
            if code == EMPTY:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            letter = t.letter[kind_of(code)]
            row += letter if owner_of(code) == 0 else letter.lower()
        rows.append(row + (str(empty) if empty else ""))
    hand = "".join(
        t.letter[kind] if owner == 0 else t.letter[kind].lower()
        for owner in (0, 1)
        for kind in _HAND_ORDER
        for _ in range(state.hands[owner][kind])
    )
    side = "wb"[state.side]
    return f"{'/'.join(rows)}[{hand}] {side} - - 0 {state.ply // 2 + 1}"


# Fairy-Stockfish lists hand pieces from the most valuable kind down.
_HAND_ORDER = (KOROPOKKURU, TANUKI, KIRIN, KITSUNE, ONI, KODAMA)


# --- the state -------------------------------------------------------------------------


class YokaiState(State):
    """An immutable Yōkai no Mori position and the repetition counts of its game.

    Equality and hash are by position: board, hands and side to move (what the rules play
    on). The move number and the repetition history are not part of it: two states reached
    by different move orders are equal, and `from_text(s.to_text()) == s` always holds,
    although a repetition draw can be reached in one and not (yet) in the other. A cache
    that stores outcomes should key on `(state, state.repetition_count())`.
    """

    __slots__ = (
        "game",
        "board",
        "hands",
        "side",
        "ply",
        "last_move",
        "_key",
        "_counts",
        "_repeats",
        "_legal",
        "_outcome",
    )  # _outcome: core.State.outcome's cache

    def __init__(
        self,
        game: YokaiGame,
        board: tuple[int, ...],
        hands: tuple[tuple[int, ...], ...],
        side: int,
        ply: int,
        counts: Counts,
        last_move: YokaiMove | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "game", game)
        set_(self, "board", board)
        set_(self, "hands", hands)
        set_(self, "side", side)
        set_(self, "ply", ply)
        set_(self, "last_move", last_move)  # for drawing only: not part of the position
        # the position as 2 * 9 + squares + 1 small numbers, packed: exact and compact
        key = bytes((*board, *hands[0], *hands[1], side))
        set_(self, "_key", key)
        # counts of every position of the game so far, shared with the parent (no parent
        # chain is kept): O(log32 n) per ply instead of a walk along the whole history
        counts, repeats = counts.add(key)
        set_(self, "_counts", counts)
        set_(self, "_repeats", repeats)
        set_(self, "_legal", None)
        set_(self, "_outcome", NOT_COMPUTED)  # a slot has no class default

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("states are immutable; apply() returns a new one")

    @property
    def tables(self) -> _Tables:
        return self.game.tables

    # -- protocol --
    @property
    def current_player(self) -> int:
        return self.side

    def legal_moves(self) -> list[YokaiMove]:
        return [] if self.is_terminal() else list(self._moves())

    def _moves(self) -> list[YokaiMove]:
        """The moves the rules allow here, ignoring whether the game has ended (cached)."""
        if self._legal is None:
            object.__setattr__(self, "_legal", _legal_moves(self.game, self.board, self.hands, self.side))
        return self._legal

    def _legal_set(self) -> set[YokaiMove]:
        return set() if self.is_terminal() else set(self._moves())

    def _successor(self, move: YokaiMove) -> YokaiState:
        board, hands = _make(self.board, self.hands, move, self.side)
        return YokaiState(self.game, board, hands, 1 - self.side, self.ply + 1, self._counts, move)

    def _compute_outcome(self) -> Outcome | None:
        game = self.game
        result = _decided(game, self.board, self.hands, self.side)
        if result is not None:
            return result
        if self.repetition_count() >= game.options["repetitions"]:
            return Outcome.draw(f"repetition: the same position {game.options['repetitions']} times")
        if game.ROYAL and not self._moves():
            reason = (
                "checkmate: the Koropokkuru cannot escape capture"
                if _in_check(game, self.board, self.side)
                else "no legal move"
            )
            return Outcome.win(1 - self.side, reason)
        return None

    def status(self) -> list[str]:
        """What makes this position unusual (`core.State.status`): pieces out of the game, a
        side without its Koropokkuru, and in 5x6 a Koropokkuru the side to move can take, an
        unpromoted Kodama on its last rank or two in one file. Empty for every position play
        reaches."""
        return _status(self.game, self.board, self.hands, self.side)

    def repetition_count(self) -> int:
        """How many times this position (board, hands, side to move) has occurred in the
        game so far, this time included (a state from `from_text` starts a new game: 1)."""
        return self._repeats

    def to_text(self) -> str:
        return _fen(self)

    # -- the board editor --
    def edit_pieces(self) -> tuple[EditPiece, ...]:
        """Every piece of the box for each side (letters as the position text writes them:
        upper case the first player's); those a hand may hold also counted in hand (not a
        promoted piece: captures unpromote; not the Koropokkuru: taking it ends the game)."""
        letters = self.game.tables.letter
        return tuple(
            EditPiece(
                letters[kind] if owner == 0 else letters[kind].lower(),
                KIND_NAMES[kind],
                owner,
                in_hand=kind not in UNPROMOTED and kind != KOROPOKKURU,
            )
            for owner in (0, 1)
            for kind in letters
        )

    def edit_hands(self) -> dict[tuple[int, str], int]:
        letters = self.game.tables.letter
        return {
            (owner, letters[kind] if owner == 0 else letters[kind].lower()): self.hands[owner][kind]
            for owner in (0, 1)
            for kind in letters
            if kind not in UNPROMOTED and kind != KOROPOKKURU
        }

    def edit(self, *, place=None, hands=None, to_move=None, fields=None) -> YokaiState:
        if fields:  # the position has no turn fields besides the side to move
            raise PositionTextError(
                f"{self.game.id} edit: fields: {sorted(fields)!r}: the game has none to set",
                field="fields",
                why="the game has none to set",
            )
        side = self.side if to_move is None else to_move
        return read_edit(self.game, lambda: self._edited(place or {}, hands or {}, side), _fen)

    def _edited(self, place, hands, side) -> YokaiState:
        board = list(self.board)
        for cell, key in place.items():
            code = EMPTY if key is None else _code_of_letter(self.game, key, "board")
            board[_square_of(self.game, cell)] = code
        held = [list(hand) for hand in self.hands]
        for (owner, key), count in hands.items():
            code = _code_of_letter(self.game, key, "hand")
            if owner not in (0, 1) or not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise FieldError("hand", f"seat {owner!r} holding {count!r} {key!r}: not a count of a seat")
            held[owner][kind_of(code)] = count
        if side not in (0, 1):
            raise FieldError("side to move", f"seat {side!r}: {self.game.id} has seats 0 and 1")
        return YokaiState(self.game, tuple(board), (tuple(held[0]), tuple(held[1])), side, side, Counts())

    def scene(self, perspective: int | None = None):
        return _scene(self, perspective)

    def why_illegal(self, text: str) -> str:
        return _why_illegal(self, text)

    def action_text(self, action: YokaiMove | str, viewer: int | None = None) -> str:
        """The move in the rulebook's words, without the mover: "Kitsune b1–c2 takes Tanuki",
        "drops Tanuki on b2", "Kodama b3–b4 becomes Kodama Samurai" ("stays Kodama" where
        promotion was a choice and the move declines it), and how it ends the game if it
        does ("reaches the far rank safely", "repeats the position a third time: a draw",
        ": checkmate ..."). A capture names the piece as it stood on the board (a Kodama
        Samurai goes to the hand as a Kodama). Everything is public: `viewer` changes nothing."""
        return _action_text(self, self._action_of(action))

    def _perft(self, depth: int) -> int:
        """Bulk-counting perft on raw tuples (repetition is ignored, as in Fairy-Stockfish)."""
        if depth == 0:
            return 1
        return _perft(self.game, self.board, self.hands, self.side, depth)

    # -- values --
    def __eq__(self, other: object) -> bool:
        return isinstance(other, YokaiState) and self._key == other._key and self.game == other.game

    def __hash__(self) -> int:
        return hash((self.game.id, self._key))

    def piece_at(self, square: str) -> tuple[str, int] | None:
        """(name, owner) of the piece on a square like 'b2', or None."""
        code = self.board[self.tables.index[square]]
        return (KIND_NAMES[kind_of(code)], owner_of(code)) if code else None


# --- rules on raw tuples (the hot path) ----------------------------------------------------


def _pseudo_moves(game: YokaiGame, board, hands, side) -> list[YokaiMove]:
    """Every step and drop, before the royal-Koropokkuru and drop-mate checks."""
    t = game.tables
    steps, dest, zone = t.step_moves, t.dest, t.zone[side]
    last = t.far_rank[side]
    optional = game.PROMOTION_OPTIONAL
    moves = []
    for frm, code in enumerate(board):
        if code == EMPTY or code >> OWNER_SHIFT != side:
            continue
        kind = code & 15
        promotable = kind in PROMOTES_TO
        for to in dest[code][frm]:
            target = board[to]
            if target != EMPTY and target >> OWNER_SHIFT == side:
                continue
            if promotable and (to in zone or frm in zone):
                if not optional:
                    moves.append(steps[frm, to, True, side])
                    continue
                moves.append(steps[frm, to, True, side])
                if not (kind == KODAMA and to in last):
                    moves.append(steps[frm, to, False, side])
            else:
                moves.append(steps[frm, to, False, side])
    hand = hands[side]
    empties = [sq for sq, code in enumerate(board) if code == EMPTY]
    restricted = game.DROP_RESTRICTIONS
    for kind in _HAND_ORDER:
        if not hand[kind] or kind == KOROPOKKURU:
            continue
        if restricted and kind == KODAMA:
            files = {sq % t.files for sq, c in enumerate(board) if c == piece(KODAMA, side)}
            targets = [sq for sq in empties if sq not in last and sq % t.files not in files]
        else:
            targets = empties
        drops = t.drops
        moves.extend(drops[kind, to, side] for to in targets)
    return moves


def _legal_moves(game: YokaiGame, board, hands, side) -> list[YokaiMove]:
    moves = _pseudo_moves(game, board, hands, side)
    if not game.ROYAL:
        return moves
    legal = []
    for move in moves:
        new_board, new_hands = _make(board, hands, move, side)
        if _in_check(game, new_board, side):
            continue
        if move.drop == KODAMA and _is_drop_mate(game, new_board, new_hands, side, move.to):
            continue
        legal.append(move)
    return legal


def _is_drop_mate(game: YokaiGame, board, hands, side, to) -> bool:
    """Rulebook 5x6, rule 4: a Kodama drop may not give checkmate."""
    enemy_king = piece(KOROPOKKURU, 1 - side)
    if enemy_king not in [board[sq] for sq in game.tables.dest[piece(KODAMA, side)][to]]:
        return False
    return not _legal_moves(game, board, hands, 1 - side)


def _make(board, hands, move: YokaiMove, side: int):
    new_board = list(board)
    if move.drop is not None:
        new_board[move.to] = move.drop | side << OWNER_SHIFT
        hand = list(hands[side])
        hand[move.drop] -= 1
        new_hands = (tuple(hand), hands[1]) if side == 0 else (hands[0], tuple(hand))
        return tuple(new_board), new_hands
    code = board[move.frm]
    captured = board[move.to]
    new_board[move.frm] = EMPTY
    new_board[move.to] = PROMOTES_TO[code & 15] | side << OWNER_SHIFT if move.promote else code
    if captured == EMPTY:
        return tuple(new_board), hands
    hand = list(hands[side])
    kind = captured & 15
    hand[UNPROMOTED.get(kind, kind)] += 1
    new_hands = (tuple(hand), hands[1]) if side == 0 else (hands[0], tuple(hand))
    return tuple(new_board), new_hands


def _attacked(game: YokaiGame, board, sq: int, by: int) -> bool:
    dest = game.tables.dest
    for n in game.tables.neighbours[sq]:
        code = board[n]
        if code != EMPTY and code >> OWNER_SHIFT == by and sq in dest[code][n]:
            return True
    return False


def _in_check(game: YokaiGame, board, side: int) -> bool:
    king = piece(KOROPOKKURU, side)
    return king in board and _attacked(game, board, board.index(king), 1 - side)


def _decided(game: YokaiGame, board, hands, side: int) -> Outcome | None:
    """Capture and try (the try in 3x4 only; the royal 5x6 ends by having no legal move, or
    by taking a Koropokkuru that a study position left attacked)."""
    if game.ROYAL:
        for player in (0, 1):
            if hands[player][KOROPOKKURU]:
                return Outcome.win(player, "the Koropokkuru was captured")
        return None
    for player in (1 - side, side):
        if piece(KOROPOKKURU, 1 - player) not in board:
            return Outcome.win(player, "the Koropokkuru was captured")
    safe = [player for player in (0, 1) if _safe_on_far_rank(game, board, player)]
    if len(safe) == 2:
        # Both at once (reachable only by a capture that unblocks both): Fairy-Stockfish,
        # whose formulation NOTES.md adopts, scores it a draw.
        return Outcome.draw("try: both Koropokkuru stand safely on their far ranks")
    if safe:
        return Outcome.win(safe[0], "try: the Koropokkuru reached the far rank safely")
    return None


def _safe_on_far_rank(game: YokaiGame, board, player: int) -> bool:
    sq = board.index(piece(KOROPOKKURU, player))
    return sq in game.tables.far_rank[player] and not _attacked(game, board, sq, 1 - player)


def _perft(game: YokaiGame, board, hands, side, depth: int) -> int:
    if _decided(game, board, hands, side) is not None:
        return 0
    moves = _legal_moves(game, board, hands, side)
    if depth == 1:
        return len(moves)
    total = 0
    other = 1 - side
    for move in moves:
        new_board, new_hands = _make(board, hands, move, side)
        total += _perft(game, new_board, new_hands, other, depth - 1)
    return total


# --- the move list's words ----------------------------------------------------------------

_ORDINALS = ("a first", "a second", "a third", "a fourth", "a fifth", "a sixth", "a seventh", "an eighth")


def _action_text(state: YokaiState, move: YokaiMove) -> str:
    t, game, side = state.tables, state.game, state.side
    if move.drop is not None:
        mover, kind, captured = "", move.drop, EMPTY
        clauses = [f"drops {KIND_NAMES[move.drop]} on {t.names[move.to]}"]
    else:
        kind, captured = kind_of(state.board[move.frm]), state.board[move.to]
        mover = f"{KIND_NAMES[kind]} {t.names[move.frm]}\u2013{t.names[move.to]}"
        clauses = [f"takes {KIND_NAMES[kind_of(captured)]}"] if captured else []
        if move.promote:
            clauses.append(f"becomes {KIND_NAMES[PROMOTES_TO[kind]]}")
        elif t.step_moves[move.frm, move.to, True, side] in state._legal_set():
            clauses.append(f"stays {KIND_NAMES[kind]}")  # the promotion was a choice, declined
    ending = ""
    after = state.apply(move)
    outcome = after.outcome()
    if outcome is not None and kind_of(captured) != KOROPOKKURU:  # "takes Koropokkuru" says it all
        if outcome.is_draw and _decided(game, after.board, after.hands, after.side) is None:  # repetition
            n = game.options["repetitions"]
            clauses.append(
                f"repeats the position {_ORDINALS[n - 1]} time"
                if n <= 8
                else f"repeats the position, now {n} times"
            )
            ending = ": a draw"
        elif game.ROYAL:
            checkmate = _in_check(game, after.board, after.side)
            ending = (
                ": checkmate, the Koropokkuru cannot escape capture"
                if checkmate
                else ": no legal move is left to answer it"
            )
        elif outcome.is_draw:
            ending = ": both Koropokkuru stand safely on their far ranks, a draw"
        elif kind == KOROPOKKURU and outcome.winner == side and move.to in t.far_rank[side]:
            clauses.append("reaches the far rank safely")
        else:
            where = t.names[after.board.index(piece(KOROPOKKURU, outcome.winner))]
            ending = f": the Koropokkuru on {where} stands safely on its far rank"
    words = ", ".join(clauses[:-1]) + " and " + clauses[-1] if len(clauses) > 1 else "".join(clauses)
    return " ".join(part for part in (mover, words) if part) + ending


# --- explaining an illegal move ----------------------------------------------------------


def _why_illegal(state: YokaiState, text: str) -> str:
    t, game = state.tables, state.game
    who = game.player_names[state.side]
    if len(text) > 12:  # no move is that long; do not echo a huge text
        return f"{text[:20]!r}...: not {game.title} notation (a step like 'b2b3', a drop like 'C@a2')"
    m, d = _MOVE_RE.match(text), _DROP_RE.match(text)
    if not m and not d:
        return (
            f"{text!r} is not {game.title} notation: write a step like 'b2b3' "
            f"(with '+' to promote) or a drop like 'C@a2'"
        )
    squares = [m.group(1) + m.group(2), m.group(3) + m.group(4)] if m else [d.group(2) + d.group(3)]
    for sq in squares:
        if sq not in t.index:
            return f"{text!r}: {sq} is not a square of the {t.files}x{t.ranks} board"
    if d:
        return _why_drop_illegal(state, text, d.group(1).upper(), t.index[squares[0]], who)
    frm, to = t.index[squares[0]], t.index[squares[1]]
    code = state.board[frm]
    if code == EMPTY:
        return f"{text!r}: there is no piece on {squares[0]}"
    name = KIND_NAMES[kind_of(code)]
    if owner_of(code) != state.side:
        return f"{text!r}: the {name} on {squares[0]} belongs to the opponent; {who} is to move"
    if to not in t.dest[code][frm]:
        return f"{text!r}: the {name} on {squares[0]} cannot step to {squares[1]}"
    if state.board[to] != EMPTY and owner_of(state.board[to]) == state.side:
        return f"{text!r}: {squares[1]} is occupied by your own {KIND_NAMES[kind_of(state.board[to])]}"
    same_squares = [str(mv) for mv in state.legal_moves() if mv.frm == frm and mv.to == to]
    if same_squares:
        return f"{text!r}: this step must be written {' or '.join(same_squares)} (promotion)"
    return f"{text!r}: it would leave your Koropokkuru attacked"


def _why_drop_illegal(state: YokaiState, text: str, letter: str, to: int, who: str) -> str:
    t, game = state.tables, state.game
    kind = t.kind_of_letter.get(letter)
    if kind is None or kind in UNPROMOTED:
        return f"{text!r}: {letter!r} is not a piece that can be dropped in {game.title}"
    name = KIND_NAMES[kind]
    if not state.hands[state.side][kind]:
        return f"{text!r}: {who} has no {name} in hand"
    if state.board[to] != EMPTY:
        return f"{text!r}: {t.names[to]} is not empty (a drop goes on a free square)"
    if game.DROP_RESTRICTIONS and kind == KODAMA:
        if to in t.far_rank[state.side]:
            return f"{text!r}: a Kodama may not be dropped on the last rank (it could never move)"
        if any(state.board[sq] == piece(KODAMA, state.side) for sq in range(to % t.files, t.size, t.files)):
            return f"{text!r}: two of your Kodama may not stand in the same file"
        board, hands = _make(state.board, state.hands, t.drops[kind, to, state.side], state.side)
        if not _in_check(game, board, state.side) and _is_drop_mate(game, board, hands, state.side, to):
            return f"{text!r}: a Kodama drop may not give checkmate"
    return f"{text!r}: it would leave your Koropokkuru attacked"


# --- scene ------------------------------------------------------------------------------


def _board_steps(code: int) -> tuple[tuple[int, int], ...]:
    """The piece's dots: its step directions on the board (the second player's mirrored)."""
    sign = 1 if owner_of(code) == 0 else -1
    return tuple((df, dr * sign) for df, dr in STEPS[kind_of(code)])


def _scene(state: YokaiState, perspective: int | None) -> Scene:
    t, game = state.tables, state.game
    cells = tuple(
        Cell(
            t.names[sq],
            sq % t.files,
            sq // t.files,
            shade=("zone-1" if sq in t.zone[1] else "zone-0" if sq in t.zone[0] else None),
        )
        for sq in range(t.size)
    )
    tokens = tuple(
        Token(
            t.names[sq],
            KIND_NAMES[kind_of(code)],
            t.letter[kind_of(code)],
            owner=owner_of(code),
            facing=owner_of(code),
            promoted=kind_of(code) in UNPROMOTED,
            steps=_board_steps(code),
        )
        for sq, code in enumerate(state.board)
        if code != EMPTY
    )
    zones = tuple(
        Zone(
            f"hand-{owner}",
            f"{game.player_names[owner]}'s hand",
            owner,
            tuple(
                ZoneItem(
                    zone_cell(f"hand-{owner}", t.letter[kind]),
                    KIND_NAMES[kind],
                    t.letter[kind],
                    count=state.hands[owner][kind],
                    owner=owner,
                )
                for kind in _HAND_ORDER
                if state.hands[owner][kind]
            ),
        )
        for owner in (0, 1)
    )
    outcome = state.outcome()
    if outcome is None:
        status = f"{game.player_names[state.side]} to move"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{game.player_names[outcome.winner]} wins — {outcome.reason}"
    last = state.last_move
    return Scene(
        game=game.id,
        layout="square",
        cells=cells,
        tokens=tokens,
        zones=zones,
        players=game.player_names,
        to_move=None if outcome else state.side,
        status=status,
        perspective=perspective,
        last_cells=last.cells if last is not None else (),
    )
