"""Perfect play by table: Yōkai no Mori 3x4 solved by retrograde analysis.

    from rules_kernel.tablebase import Tablebase
    tb = Tablebase.open("yokai-3x4")      # after `rules-explorer solve yokai-3x4`
    tb.value(state)                       # Value(result='loss', plies=78) at the start
    tb.best_moves(state)                  # [MoveValue(move, value), ...] best first
    tb.counts()                           # positions and the win/draw/loss split

The table covers every placement of the pieces with both Koropokkuru on the board, the side
to move normalised (a superset of the positions reachable from the start); the build also
marks which are reachable and reports their counts. docs/tablebase.md explains the index,
the value convention and the figures.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rules_kernel.core import Move, RulesError, State
from rules_kernel.games import yokai
from rules_kernel.tablebase import _engine as engine
from rules_kernel.tablebase._build import build_table

GAME_ID = yokai.YokaiNoMori3x4.id  # the game declares this table (its SOLVED_TABLE)
FULL_MATERIAL = (2, 2, 2)
FORMAT_VERSION = 1
SEARCH_DEPTH = 2  # plies searched from a position outside the table


class TablebaseError(RulesError):
    """A table is missing, does not fit the game or the position, or is damaged."""


@dataclass(frozen=True)
class Value:
    """A position's value for the player to move: 'win', 'draw' or 'loss', and the plies to
    the end under perfect play (the winner hurries, the loser delays; None for a draw; 0 when
    the game is over)."""

    result: str
    plies: int | None

    def __str__(self) -> str:
        return "draw" if self.plies is None else f"{self.result} in {self.plies}"

    def after_move(self) -> Value:
        """The value one ply earlier, for the player who made the move that led here."""
        if self.plies is None:
            return self
        return Value("loss" if self.result == "win" else "win", self.plies + 1)

    def sort_key(self) -> tuple[int, int]:
        """Smaller is better for the mover: quick wins, then draws, then slow losses (then
        the unknown)."""
        if self.result == "win":
            return (0, self.plies)
        if self.result == "draw":
            return (1, 0)
        if self.result == "loss":
            return (2, -self.plies)
        return (3, 0)


# best_moves only: a move out of the solved set that a short search does not settle
UNKNOWN = Value("unknown", None)


@dataclass(frozen=True)
class MoveValue:
    """A legal move and the value it leads to, from the side of the player who makes it."""

    move: Move
    value: Value


def cache_dir() -> Path:
    """RULES_EXPLORER_CACHE, else the user's cache directory (XDG_CACHE_HOME or ~/.cache)."""
    configured = os.environ.get("RULES_EXPLORER_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "rules-explorer"


def _file_stem(material: tuple[int, int, int]) -> str:
    if material == FULL_MATERIAL:
        return GAME_ID
    return f"{GAME_ID}-material-{''.join(map(str, material))}"


def _check_game(game_id: str) -> None:
    if game_id != GAME_ID:
        raise TablebaseError(f"no tablebase for {game_id!r}: only {GAME_ID!r} is solved")


def _check_material(material) -> tuple[int, int, int]:
    material = tuple(int(k) for k in material)
    if len(material) != 3 or not all(0 <= k <= 2 for k in material):
        raise TablebaseError(f"material {material!r}: give three counts 0..2 (Kodama, Kitsune, Tanuki)")
    return material


class Tablebase:
    """A solved game: one value per position of the index (see docs/tablebase.md)."""

    def __init__(self, values: np.ndarray, meta: dict, path: Path | None = None) -> None:
        self.material = tuple(meta["material"])
        self.ix = engine.index_tables(self.material)
        self.meta = meta
        self.path = path
        self._values = values

    # -- building and opening --
    @classmethod
    def build(
        cls,
        game_id: str = GAME_ID,
        *,
        material=FULL_MATERIAL,
        directory=None,
        progress: bool = True,
        threads: int = 2,
    ) -> Tablebase:
        """Solve the game by retrograde analysis and save the table in the cache directory
        (or `directory`). `material` (Kodama, Kitsune, Tanuki pieces, 0..2 each) selects a
        closed sub-game for tests; the default is the whole game."""
        _check_game(game_id)
        material = _check_material(material)
        started = time.perf_counter()
        values, meta = build_table(material, progress=progress, threads=threads)
        meta["build_seconds"] = round(time.perf_counter() - started, 1)
        path = Path(directory) if directory is not None else cache_dir()
        tb = cls._from_build(values, meta)
        tb.save(path / f"{_file_stem(material)}.npz")
        return tb

    @classmethod
    def _from_build(cls, values: np.ndarray, meta: dict) -> Tablebase:
        """The build's values are already in the file's layout: one slab per kept pair of
        mirror-image Koropokkuru placements (files a and c swapped; the other's values are
        the same), about half the plain index."""
        meta = dict(meta, pair_slots=engine.PAIR_SLOT.tolist(), format=FORMAT_VERSION, game=GAME_ID)
        return cls(_narrow(values), meta)

    @classmethod
    def open(cls, game_id: str = GAME_ID, *, material=FULL_MATERIAL, directory=None) -> Tablebase:
        """Load a built table (a clear error naming the build command when it is missing)."""
        _check_game(game_id)
        material = _check_material(material)
        base = Path(directory) if directory is not None else cache_dir()
        path = base / f"{_file_stem(material)}.npz"
        if not path.exists():
            raise TablebaseError(
                f"no {game_id} tablebase at {path}: build it with `rules-explorer solve {game_id}` "
                f"(or Tablebase.build({game_id!r})); set RULES_EXPLORER_CACHE to use another directory"
            )
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                values = data["values"]
        except (OSError, ValueError, KeyError) as exc:
            raise TablebaseError(
                f"{path}: not a readable tablebase ({exc}); rebuild it with `rules-explorer solve {game_id}`"
            ) from exc
        if (
            meta.get("format") != FORMAT_VERSION
            or tuple(meta.get("material", ())) != material
            or meta.get("pair_slots") != engine.PAIR_SLOT.tolist()
        ):
            raise TablebaseError(
                f"{path}: made by another version; rebuild it with `rules-explorer solve {game_id}`"
            )
        return cls(values, meta, path)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial.npz")
        np.savez_compressed(partial, values=self._values, meta=np.array(json.dumps(self.meta)))
        partial.replace(path)
        self.path = path

    # -- questions --
    def value(self, state: State) -> Value:
        """The value of a Yokai 3x4 position for the player to move."""
        outcome = self._outcome(state)
        if outcome is not None:
            return outcome
        return self._lookup(state)

    def best_moves(self, state: State) -> list[MoveValue]:
        """Every legal move with the value it leads to (mover's side), best first. A move
        that declines to take the Koropokkuru leaves the solved set; when a short search does
        not settle it, its value is UNKNOWN (listed last)."""
        self._check_state(state)
        rated = [MoveValue(move, self._move_value(state, move)) for move in state.legal_moves()]
        return sorted(rated, key=lambda mv: (mv.value.sort_key(), str(mv.move)))

    def _move_value(self, state: State, move: Move) -> Value:
        try:
            return self.value(state.apply(move)).after_move()
        except TablebaseError:
            return UNKNOWN

    def optimal_moves(self, state: State) -> list[Move]:
        """The legal moves that keep the position's value (all of them equally perfect)."""
        rated = self.best_moves(state)
        return [mv.move for mv in rated if rated and mv.value == rated[0].value]

    def counts(self) -> dict:
        """Positions and win/draw/loss splits: of the whole index, of the positions reachable
        from the start (the kernel's rules) and in Tanaka's convention (docs/tablebase.md)."""
        return json.loads(json.dumps(self.meta["counts"]))

    @property
    def nbytes(self) -> int:
        return int(self._values.nbytes)

    # -- internals --
    def _check_state(self, state: State) -> None:
        game = getattr(state, "game", None)
        if getattr(game, "id", None) != GAME_ID:
            raise TablebaseError(
                f"this tablebase answers {GAME_ID} positions, not {getattr(game, 'id', type(state).__name__)}"
            )

    def _outcome(self, state: State) -> Value | None:
        self._check_state(state)
        outcome = state.outcome()
        if outcome is None:
            return None
        if outcome.winner is None:
            return Value("draw", None)
        return Value("win" if outcome.winner == state.current_player else "loss", 0)

    def _lookup(self, state: State, depth: int = SEARCH_DEPTH) -> Value:
        """The stored value; for a position outside the table (reached only by declining to
        take a Koropokkuru) a short search down to positions in the table."""
        board, hands = normalised(state)
        material = _material_of(board, hands)
        if material != self.material:
            raise TablebaseError(
                f"{state.to_text()!r}: material {material} (Kodama, Kitsune, "
                f"Tanuki), this table is for {self.material}"
            )
        code = int(self._values[self._position(board, hands)])
        value = decode(code, DRAW_CODES[0] if self._values.dtype == np.uint8 else engine.DRAW)
        if value is not None:
            return value
        if engine.can_capture_lion(board):
            return Value("win", 1)  # nothing is quicker
        if depth > 0:
            children = [self._searched(state.apply(move), depth - 1) for move in state.legal_moves()]
            if children and None not in children:
                return min((child.after_move() for child in children), key=Value.sort_key)
        raise TablebaseError(
            f"{state.to_text()!r} is outside the table (it is reached only after a player "
            f"declined to take the Koropokkuru) and a {SEARCH_DEPTH}-ply search does not settle it"
        )

    def _searched(self, state: State, depth: int) -> Value | None:
        outcome = self._outcome(state)
        if outcome is not None:
            return outcome
        try:
            return self._lookup(state, depth)
        except TablebaseError:
            return None

    def _position(self, board: np.ndarray, hands: np.ndarray) -> int:
        """The entry of a position: its node in the folded index (its mirror image's if its
        pair is not kept)."""
        return int(engine.node_index(board, hands, self.ix))


def decode(code: int, draw_from: int = 254) -> Value | None:
    """A stored value code as a Value; None for a position outside the table. Codes from
    `draw_from` up are draws (254 in a uint8 table, 0xFFFE in a uint16 one)."""
    if code == 0:
        return None
    if code >= draw_from:
        return Value("draw", None)
    plies = (code - 1) // 2
    return Value("win" if code % 2 == 1 else "loss", plies)


# uint8 tables: 254 a draw by endless play, 255 the try draw (uint16: 0xFFFE, 0xFFFF)
DRAW_CODES = (254, 255)


def _narrow(values: np.ndarray) -> np.ndarray:
    """uint8 when every distance fits below the draw codes."""
    longest = int(np.max(values, where=values < engine.DRAW, initial=0))
    if longest < DRAW_CODES[0]:
        narrow = values.astype(np.uint8)
        narrow[values == engine.DRAW] = DRAW_CODES[0]
        narrow[values == engine.DRAW_TERMINAL] = DRAW_CODES[1]
        return narrow
    return values  # longer distances: keep uint16


def mirrored(board: np.ndarray) -> np.ndarray:
    """The board with files a and c swapped."""
    return board.reshape(4, 3)[:, ::-1].reshape(12).copy()


_KERNEL_TO_ENGINE = {
    yokai.KODAMA: engine.C,
    yokai.KODAMA_SAMURAI: engine.H,
    yokai.KITSUNE: engine.E,
    yokai.TANUKI: engine.G,
    yokai.KOROPOKKURU: engine.L,
}
#: the kinds a hand may hold, in the engine's order of hand counts
_HAND_KINDS = (yokai.KODAMA, yokai.KITSUNE, yokai.TANUKI)


def normalised(state: State) -> tuple[np.ndarray, np.ndarray]:
    """The engine's board and hands for a kernel state (side to move normalised)."""
    side = state.current_player
    board = np.zeros(12, np.int64)
    for sq, code in enumerate(state.board):
        if code:
            kind, owner = yokai.kind_of(code), yokai.owner_of(code)
            mine = _KERNEL_TO_ENGINE[kind]
            target = sq if side == 0 else 11 - sq
            board[target] = mine if owner == side else mine + engine.THEM
    ours, theirs = state.hands[side], state.hands[1 - side]
    hands = np.array([ours[k] for k in _HAND_KINDS] + [theirs[k] for k in _HAND_KINDS], np.int64)
    return board, hands


def _material_of(board: np.ndarray, hands: np.ndarray) -> tuple[int, int, int]:
    kinds = [0, 0, 0]
    for code in board:
        kind = int(code) & 7
        if kind in (engine.C, engine.H):
            kinds[0] += 1
        elif kind == engine.E:
            kinds[1] += 1
        elif kind == engine.G:
            kinds[2] += 1
    return (
        kinds[0] + int(hands[0] + hands[3]),
        kinds[1] + int(hands[1] + hands[4]),
        kinds[2] + int(hands[2] + hands[5]),
    )


_LETTERS = {engine.C: "C", engine.H: "+C", engine.E: "E", engine.G: "G", engine.L: "L"}


def position_text(board: np.ndarray, hands: np.ndarray) -> str:
    """The kernel's position text (first player to move) of an engine position."""
    rows = []
    for rank in range(3, -1, -1):
        row, empty = "", 0
        for sq in range(rank * 3, rank * 3 + 3):
            code = int(board[sq])
            if code == 0:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            letter = _LETTERS[code & 7]
            row += letter.lower() if code & engine.THEM else letter
        rows.append(row + (str(empty) if empty else ""))
    hand = "".join(letter * int(hands[k]) for k, letter in enumerate("CEG"))
    hand += "".join(letter * int(hands[3 + k]) for k, letter in enumerate("ceg"))
    return f"{'/'.join(rows)}[{hand}] w - - 0 1"
