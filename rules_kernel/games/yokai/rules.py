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
        # what the rules say of each position met whatever the game's history, shared by the
        # states at it (state.py; by `position_key`, bounded there): the notations of the
        # moves allowed, how the position alone decides the game, its text up to the move
        # counters; plain strings where they can be, which the garbage collector need not
        # follow (an import keeps a hundred thousand positions)
        self.allowed_at: dict[bytes, dict[str, None]] = {}
        self.decided_at: dict[bytes, Outcome | None] = {}
        self.written_at: dict[bytes, str] = {}
        # the position text's ranks and hands as written, and the words of moves that do not
        # end the game, by what they depend on (notation.py)
        self.written_ranks: dict[bytes, str] = {}
        self.written_hands: dict[bytes, str] = {}
        self.move_words: dict[object, str] = {}
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

        every_move = (*self.step_moves.values(), *self.drops.values())
        self.by_notation = tuple(  # side -> notation -> the move
            {str(move): move for move in every_move if move.side == side} for side in (0, 1)
        )
        # move generation's tables: each piece's steps from each square with the moves each
        # step makes (whether it promotes is the piece's, the squares' and the variant's
        # alone), and each kind's drops by square
        self.step_table = {
            code: tuple(
                tuple((to, self._step_made(game, code, frm, to)) for to in self.dest[code][frm])
                for frm in range(n)
            )
            for code in self.dest
        }
        self.drop_rows = {
            (kind, side): tuple(self.drops[kind, to, side] for to in range(n))
            for kind, to, side in self.drops
            if to == 0
        }

    def _step_made(self, game: type[YokaiGame], code: int, frm: int, to: int) -> tuple[YokaiMove, ...]:
        """The moves a step of piece `code` from `frm` to `to` makes, in generation order: into
        or out of the promotion zone a promotable piece promotes (where promotion is a
        choice, it may also not, but a Kodama reaching the last rank must)."""
        kind, side = code & 15, code >> OWNER_SHIFT
        zone = self.zone[side]
        if kind in PROMOTES_TO and (to in zone or frm in zone):
            promotes = self.step_moves[frm, to, True, side]
            if not game.PROMOTION_OPTIONAL or (kind == KODAMA and to in self.far_rank[side]):
                return (promotes,)
            return (promotes, self.step_moves[frm, to, False, side])
        return (self.step_moves[frm, to, False, side],)

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


#: each of a variant's tables of what the rules say of a position (`_Tables.allowed_at`,
#: `decided_at`, `written_at`) keeps at most this many positions, then forgets
#: them all at once and gathers them again (the openings first). 20,000: a collection's
#: import is as fast as with 200,000 (the positions many games share are the openings), and a
#: published kernel whose searches meet millions of positions holds about 30 MiB of them, not
#: the 300 MiB that 200,000 5x6 positions take (its memory cap is 1 GiB)
POSITIONS_KEPT = 20_000


def _kept(table: dict, key: bytes, value):
    """`value`, kept in `table` (one of `_Tables`' by position) under the position `key`."""
    if len(table) >= POSITIONS_KEPT:
        table.clear()
    table[key] = value
    return value


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
    steps = t.step_table
    moves = []
    for frm, code in enumerate(board):
        if code == EMPTY or code >> OWNER_SHIFT != side:
            continue
        for to, made in steps[code][frm]:
            target = board[to]
            if target == EMPTY or target >> OWNER_SHIFT != side:
                moves += made
    hand = hands[side]
    empties = None
    restricted = game.DROP_RESTRICTIONS
    for kind in _HAND_ORDER:
        if not hand[kind] or kind == KOROPOKKURU:
            continue
        if empties is None:
            empties = [sq for sq, code in enumerate(board) if code == EMPTY]
        if restricted and kind == KODAMA:
            last = t.far_rank[side]
            files = {sq % t.files for sq, c in enumerate(board) if c == piece(KODAMA, side)}
            targets = [sq for sq in empties if sq not in last and sq % t.files not in files]
        else:
            targets = empties
        drops = t.drop_rows[kind, side]
        moves += [drops[to] for to in targets]
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
        if _KOROPOKKURU_OF[1 - player] not in board:
            return Outcome.win(player, "the Koropokkuru was captured")
    safe = [player for player in (0, 1) if _safe_on_far_rank(game, board, player)]
    if len(safe) == 2:
        # Both at once (reachable only by a capture that unblocks both): Fairy-Stockfish,
        # whose formulation NOTES.md adopts, scores it a draw.
        return Outcome.draw("try: both Koropokkuru stand safely on their far ranks")
    if safe:
        return Outcome.win(safe[0], "try: the Koropokkuru reached the far rank safely")
    return None


#: each player's Koropokkuru as a board code
_KOROPOKKURU_OF = (piece(KOROPOKKURU, 0), piece(KOROPOKKURU, 1))


def _safe_on_far_rank(game: YokaiGame, board, player: int) -> bool:
    sq = board.index(_KOROPOKKURU_OF[player])
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
