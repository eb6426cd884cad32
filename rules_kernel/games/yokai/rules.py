"""Yōkai no Mori: the rules, in the rulebook's words (rules/yokai-no-mori.de.txt; formulation:
rules/NOTES.md, which follows Fairy-Stockfish's `dobutsu` and `gorogoro`).

The pieces and their steps (the dots on the wooden pieces), promotion, captures into the hand,
drops and their restrictions, check, the end of the game by capture, try or no legal move:
all on raw tuples, the hot path of play, perft and the solved table.

Representation (chosen for speed; a state is a few tuples):
- `board`: one int per square, square = rank * files + file (a1 = 0). 0 is empty; a piece
  is `kind | owner << 4` with the kinds below.
- `hands`: one tuple of counts per player, indexed by kind (captured pieces, unpromoted).
- `side`: the player to move (0 moves first, its pieces start on rank 1).

The two variants differ in a few class attributes of their Game subclass (`game.py`: board
size, start position, letters, promotion zone, royal Koropokkuru or try, drop restrictions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import Move, Outcome
from rules_kernel.scene import zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.yokai.game import YokaiGame

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


# Fairy-Stockfish lists hand pieces from the most valuable kind down; moves and drops are
# generated in this order too.
_HAND_ORDER = (KOROPOKKURU, TANUKI, KIRIN, KITSUNE, ONI, KODAMA)


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


#: one `_Tables` per variant class, built on first use and shared by every game of it
_TABLE_CACHE: dict[type, _Tables] = {}


def _tables_for(cls: type[YokaiGame]) -> _Tables:
    if cls not in _TABLE_CACHE:
        _TABLE_CACHE[cls] = _Tables(cls)
    return _TABLE_CACHE[cls]


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
