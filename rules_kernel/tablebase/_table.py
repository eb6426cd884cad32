"""The table: `Tablebase` (build, open, values, best moves), `prepare` (what the publishing
set-up runs) and the mapping between kernel states and the engine's positions. Imported by
`rules_kernel.tablebase` on first use (see its docstring and docs/tablebase.md).
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from rules_kernel.core import Move, State
from rules_kernel.games import yokai
from rules_kernel.tablebase import (
    FULL_MATERIAL,
    GAME_ID,
    TablebaseError,
    TableFiles,
    _check_game,
    _check_material,
)
from rules_kernel.tablebase import _engine as engine
from rules_kernel.tablebase._solve import file_dtype, solve, write_table
from rules_kernel.tablebase.values import UNKNOWN, MoveValue, Value  # noqa: F401 (re-exported)

FORMAT_VERSION = 1
SEARCH_DEPTH = 2  # plies searched from a position outside the table


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
        closed sub-game for tests; the default is the whole game. The build holds the table's
        lock, so `availability` says "preparing" meanwhile (`prepare` also unpacks it)."""
        _check_game(game_id)
        material = _check_material(material)
        files = TableFiles.of(material, directory)
        with files.locked():
            return cls._build_into(files, material, progress, threads)

    @classmethod
    def _build_into(cls, files: TableFiles, material, progress: bool, threads: int) -> Tablebase:
        """The build, its caller holding the lock: the compact build (`_solve`) solves, writes
        the table and its unpacked values straight from its arrays (never the whole layout in
        memory), and the table comes back mapped from the unpacked file."""
        _clear_partials(files)
        started = time.perf_counter()
        solved = solve(material, progress=progress, threads=threads)
        build_seconds = time.perf_counter() - started
        meta = dict(
            solved.meta,
            pair_slots=engine.PAIR_SLOT.tolist(),
            format=FORMAT_VERSION,
            game=GAME_ID,
            build_seconds=round(build_seconds, 1),
        )
        started = time.perf_counter()
        write_table(solved, meta, files.table, files.values, file_dtype(solved))
        del solved  # its arrays go before the table is mapped
        meta["timings"]["writing"] = round(time.perf_counter() - started, 1)
        values = np.load(files.values, mmap_mode="r", allow_pickle=False)
        return cls(values, meta, files.table)

    @classmethod
    def open(
        cls, game_id: str = GAME_ID, *, material=FULL_MATERIAL, directory=None, mapped: bool = True
    ) -> Tablebase:
        """Open a built table. Its values are mapped into memory read-only from the unpacked
        file next to the table (written from it on the first open, under the table's lock):
        the file's pages are shared by every process that opens it, read from disk as they
        are used, and are not the process's data (RLIMIT_DATA counts private writable
        memory), so a published kernel under its 1 GiB cap opens the 1.6 GiB table in 0.3 s.
        `mapped=False`, or a directory that cannot be written, loads the values into memory.

        TablebaseError when the table is missing, being prepared or unreadable: its message
        names no file and no command (a page may show it), its `detail` does."""
        _check_game(game_id)
        material = _check_material(material)
        files = TableFiles.of(material, directory)
        meta, header = _read_table(files, game_id, material)
        values = _mapped_values(files, header, game_id) if mapped else None
        if values is None:
            try:
                with np.load(files.table, allow_pickle=False) as data:
                    values = data["values"]
            except MemoryError as exc:
                raise TablebaseError(
                    "the solved table does not fit in this process's memory",
                    f"{files.table}: {exc}; open it mapped (Tablebase.open(..., mapped=True)) "
                    f"from a directory this process may write, or unpack it with "
                    f"`rules-explorer solve {game_id} --reuse`",
                ) from exc
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
                raise _unreadable(files, game_id, exc) from exc
        return cls(values, meta, files.table)

    def save(self, path: Path) -> None:
        """Write the table (compressed) under a partial name, then rename it; a stale
        unpacked copy of an earlier table goes first."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        files = TableFiles.at(path)
        partial = path.with_name(path.name + ".partial.npz")
        try:
            np.savez_compressed(partial, values=self._values, meta=np.array(json.dumps(self.meta)))
            files.values.unlink(missing_ok=True)
            partial.replace(path)
        finally:
            partial.unlink(missing_ok=True)
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


def prepare(
    game_id: str = GAME_ID,
    *,
    material=FULL_MATERIAL,
    directory=None,
    progress: bool = True,
    threads: int = 2,
    rebuild: bool = False,
) -> Path:
    """Make the table ready to open: what the publishing set-up runs (`rules-explorer solve
    <game> --reuse`) and `rules-explorer solve` does. Under the table's lock (another process
    preparing it: wait for that one), clear the half-written files a killed process left,
    build the table unless a current one is there (or `rebuild`), and unpack its values for
    `Tablebase.open`'s memory map. Meanwhile `availability` says "preparing", afterwards
    "ready". Returns the table's path."""
    _check_game(game_id)
    material = _check_material(material)
    files = TableFiles.of(material, directory)
    with files.locked():
        _clear_partials(files)
        header = None
        if not rebuild:
            try:
                header = _read_table(files, game_id, material)[1]
            except TablebaseError:
                pass  # missing, unreadable or of another version: built again
        if header is None:
            Tablebase._build_into(files, material, progress, threads)
            header = _read_table(files, game_id, material)[1]
        if not _unpacked_current(files, header):
            _unpack(files, progress)
    return files.table


# -- the files (their layout: rules_kernel.tablebase.TableFiles) --

NOT_HERE = "the solved table is not available here"
BEING_PREPARED = "the solved table is being prepared: try again in a few minutes"
UNREADABLE = "the solved table could not be read"


def _how_to_build(game_id: str, files: TableFiles) -> str:
    return (
        f"build it with `rules-explorer solve {game_id}` (or Tablebase.build({game_id!r})); "
        f"it goes to {files.table} (RULES_EXPLORER_CACHE sets another directory)"
    )


def _unreadable(files: TableFiles, game_id: str, why) -> TablebaseError:
    return TablebaseError(
        UNREADABLE,
        f"{files.table}: not a readable tablebase ({why}); rebuild it with `rules-explorer solve {game_id}`",
    )


def _read_table(files: TableFiles, game_id: str, material) -> tuple[dict, tuple]:
    """The table's meta and its values' header (shape, Fortran order, dtype), without
    decompressing the values; TablebaseError when missing, unreadable or of another version."""
    if not files.table.is_file():
        raise TablebaseError(NOT_HERE, f"no {game_id} tablebase: {_how_to_build(game_id, files)}")
    try:
        with zipfile.ZipFile(files.table) as archive:
            with archive.open("meta.npy") as member:
                meta = json.loads(str(np.lib.format.read_array(member, allow_pickle=False)))
            with archive.open("values.npy") as member:
                header = _npy_header(member)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise _unreadable(files, game_id, exc) from exc
    if (
        meta.get("format") != FORMAT_VERSION
        or tuple(meta.get("material", ())) != tuple(material)
        or meta.get("pair_slots") != engine.PAIR_SLOT.tolist()
        or len(header[0]) != 1
    ):
        raise TablebaseError(
            UNREADABLE,
            f"{files.table}: made by another version; rebuild it with `rules-explorer solve {game_id}`",
        )
    return meta, header


def _npy_header(stream) -> tuple:
    version = np.lib.format.read_magic(stream)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
    return tuple(shape), bool(fortran), np.dtype(dtype)


def _unpacked_current(files: TableFiles, header: tuple) -> bool:
    """The unpacked values are there, newer than the table and of its shape and type."""
    try:
        if files.values.stat().st_mtime_ns < files.table.stat().st_mtime_ns:
            return False
        with open(files.values, "rb") as stream:
            return _npy_header(stream) == header
    except (OSError, ValueError):
        return False


def _mapped_values(files: TableFiles, header: tuple, game_id: str) -> np.ndarray | None:
    """The values mapped read-only from the unpacked file (unpacked first when needed); None
    when that cannot be written (then the caller loads them into memory)."""
    if not _unpacked_current(files, header):
        try:
            with files.locked(wait=False) as mine:
                if not mine:
                    raise TablebaseError(
                        BEING_PREPARED, f"another process holds {files.lock} (building or unpacking)"
                    )
                if not _unpacked_current(files, header):
                    _unpack(files, progress=False)
        except OSError:
            return None  # a read-only directory, a full disk: in memory instead
    try:
        return np.load(files.values, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        return None


UNPACK_STEP = 1 << 20  # entries per step: a few MiB of buffer, whatever the table's size


def _unpack(files: TableFiles, progress: bool) -> None:
    """Decompress the table's values into the unpacked file, step by step through a memory map
    (little memory of the process's own), under a partial name, then rename it."""
    partial = files.values.with_name(f"{files.values.stem}.{os.getpid()}.partial.npy")
    try:
        with zipfile.ZipFile(files.table) as archive, archive.open("values.npy") as member:
            shape, fortran, dtype = _npy_header(member)
            out = np.lib.format.open_memmap(
                partial, mode="w+", dtype=dtype, shape=shape, fortran_order=fortran
            )
            size = int(np.prod(shape))
            bar = tqdm(
                total=size * dtype.itemsize,
                desc="unpacking the table",
                unit="B",
                unit_scale=True,
                disable=not progress,
            )
            with bar:
                for start in range(0, size, UNPACK_STEP):
                    count = min(UNPACK_STEP, size - start)
                    chunk = member.read(count * dtype.itemsize)
                    if len(chunk) != count * dtype.itemsize:
                        raise EOFError(f"{files.table}: the values end early")
                    out[start : start + count] = np.frombuffer(chunk, dtype)
                    bar.update(len(chunk))
            out.flush()
            del out
        partial.replace(files.values)
    finally:
        partial.unlink(missing_ok=True)


def _clear_partials(files: TableFiles) -> None:
    """Half-written files a killed build or unpack left (the caller holds the lock)."""
    for path in files.partials():
        path.unlink(missing_ok=True)


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
