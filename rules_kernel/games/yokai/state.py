"""`YokaiState`: a Yōkai no Mori position and the kernel protocol on it. The rules themselves are
in `rules.py` (on raw tuples); the text, the words, the scene and the editor in their own
modules, which this class hands each question to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rules_kernel.core import NOT_COMPUTED, Outcome, State
from rules_kernel.games.yokai import notation
from rules_kernel.games.yokai.rules import (
    KIND_NAMES,
    YokaiMove,
    _decided,
    _in_check,
    _kept,
    _legal_moves,
    _make,
    _perft,
    _Tables,
    kind_of,
    owner_of,
)
from rules_kernel.persistent import Counts

if TYPE_CHECKING:
    from rules_kernel.games.yokai.game import YokaiGame


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
        "_legal_kept",
        "_next",
    )  # caches: _outcome (core.State.outcome's), the moves as a list and the legal ones as a
    # set, the last successor; what the rules say of the position whatever the game's history
    # is kept by position for every state at it (`_Tables.allowed_at`, `decided_at`, ...)

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
        # each slot set by its own descriptor (`_SLOT_SETTERS`): faster than object.__setattr__,
        # and a replay makes a state per ply
        game_, board_, hands_, side_, ply_, last_move_, key_, counts_, repeats_, *caches = _SLOT_SETTERS
        legal_, outcome_, legal_kept_, next_ = caches
        game_(self, game)
        board_(self, board)
        hands_(self, hands)
        side_(self, side)
        ply_(self, ply)
        last_move_(self, last_move)  # for drawing only: not part of the position
        # the position as 2 * 9 + squares + 1 small numbers, packed: exact and compact
        key = bytes((*board, *hands[0], *hands[1], side))
        key_(self, key)
        # counts of every position of the game so far, shared with the parent (no parent
        # chain is kept): O(log32 n) per ply instead of a walk along the whole history
        counts, repeats = counts.add(key)
        counts_(self, counts)
        repeats_(self, repeats)
        legal_(self, None)
        outcome_(self, NOT_COMPUTED)  # a slot has no class default
        legal_kept_(self, None)
        next_(self, None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("states are immutable; apply() returns a new one")

    @property
    def tables(self) -> _Tables:
        return self.game.tables

    # -- protocol --
    @property
    def current_player(self) -> int:
        return self.side

    def is_terminal(self) -> bool:
        # core.State's, one call shorter: a replay asks it several times a ply
        outcome = self._outcome
        return (self.outcome() if outcome is NOT_COMPUTED else outcome) is not None

    def legal_moves(self) -> list[YokaiMove]:
        return [] if self.is_terminal() else list(self._moves())

    def _moves(self) -> list[YokaiMove]:
        """The moves the rules allow here, ignoring whether the game has ended (cached)."""
        if self._legal is None:
            move_of = self.game.tables.by_notation[self.side]
            object.__setattr__(self, "_legal", [move_of[text] for text in self._allowed()])
        return self._legal

    def _allowed(self) -> dict[str, None]:
        """The notations of the moves the rules allow here (a dict's keys, in the rules'
        order), ignoring whether the game has ended: worked out once per position and kept
        as plain strings, which the garbage collector need not follow."""
        t = self.game.tables
        allowed = t.allowed_at.get(self._key)
        if allowed is None:
            found = _legal_moves(self.game, self.board, self.hands, self.side)
            allowed = _kept(t.allowed_at, self._key, dict.fromkeys([move._text for move in found]))
        return allowed

    def _legal_set(self) -> frozenset[YokaiMove]:
        if self._legal_kept is None:
            moves = frozenset() if self.is_terminal() else frozenset(self._moves())
            object.__setattr__(self, "_legal_kept", moves)
        return self._legal_kept

    def _allowed_now(self) -> dict[str, None]:
        """The notations of the legal moves (none once the game has ended)."""
        return {} if self.is_terminal() else self._allowed()

    def parse_move(self, text: str) -> YokaiMove:
        """`core.State.parse_move`, by the notations of the legal moves found once per
        position: a record's replay and its words (`action_text`) each read the same move."""
        notation_ = text.strip()
        if notation_ in self._allowed() and not self.is_terminal():
            return self.game.tables.by_notation[self.side][notation_]
        return super().parse_move(text)

    def _successor(self, move: YokaiMove) -> YokaiState:
        # the last successor is kept: the move's words (`action_text`) apply it again right
        # after a replay or a click did; one entry, so a search keeps no more than its line
        kept = self._next
        if kept is not None and (kept[0] is move or kept[0] == move):
            return kept[1]
        board, hands = _make(self.board, self.hands, move, self.side)
        after = YokaiState(self.game, board, hands, 1 - self.side, self.ply + 1, self._counts, move)
        object.__setattr__(self, "_next", (move, after))
        return after

    def _compute_outcome(self) -> Outcome | None:
        game = self.game
        decided_at = game.tables.decided_at  # by capture or try: the position's alone
        result = decided_at.get(self._key, NOT_COMPUTED)
        if result is NOT_COMPUTED:
            result = _kept(decided_at, self._key, _decided(game, self.board, self.hands, self.side))
        if result is not None:
            return result
        if self.repetition_count() >= game.options["repetitions"]:
            return Outcome.draw(f"repetition: the same position {game.options['repetitions']} times")
        if game.ROYAL and not self._allowed():
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
        return notation.status(self.game, self.board, self.hands, self.side)

    def repetition_count(self) -> int:
        """How many times this position (board, hands, side to move) has occurred in the
        game so far, this time included (a state from `from_text` starts a new game: 1)."""
        return self._repeats

    def to_text(self) -> str:
        return notation.position_text(self)

    # -- positions as keys (the repetition rule's; the solved table's history search) --
    @property
    def position_key(self) -> bytes:
        """The position (board, hands, side to move) packed as bytes: what the repetition
        rule counts, equal for equal positions."""
        return self._key

    def position_counts(self) -> Iterator[tuple[bytes, int]]:
        """Every position of this game so far (`position_key`) with how often it occurred."""
        return self._counts.items()

    @classmethod
    def from_position_key(cls, game: YokaiGame, key: bytes) -> YokaiState:
        """A state of `game` at the position `key` (from `position_key`), starting a new game
        there (no earlier positions, move number 0)."""
        size = game.tables.size
        if len(key) != size + 19:
            raise ValueError(f"a {game.id} position key has {size + 19} bytes, not {len(key)}")
        board = tuple(key[:size])
        hands = (tuple(key[size : size + 9]), tuple(key[size + 9 : size + 18]))
        return cls(game, board, hands, key[-1], 0, Counts())

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


#: the setter of each of YokaiState's slots (the class refuses `state.x = ...`), in the order
#: `__init__` takes them
_SLOT_SETTERS = tuple(
    YokaiState.__dict__[name].__set__
    for name in (
        *("game", "board", "hands", "side", "ply", "last_move", "_key", "_counts", "_repeats"),
        *("_legal", "_outcome", "_legal_kept", "_next"),
    )
)
