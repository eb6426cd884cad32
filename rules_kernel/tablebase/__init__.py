"""Perfect play by table: Yōkai no Mori 3x4 solved by retrograde analysis.

    from rules_kernel.tablebase import Tablebase, availability
    availability("yokai-3x4")             # "ready", "preparing" or "absent"
    tb = Tablebase.open("yokai-3x4")      # after `rules-explorer solve yokai-3x4`
    tb.value(state)                       # Value(result='loss', plies=78) at the start
    tb.best_moves(state)                  # [MoveValue(move, value), ...] best first
    tb.counts()                           # positions and the win/draw/loss split

The table covers every placement of the pieces with both Koropokkuru on the board, the side
to move normalised (a superset of the positions reachable from the start); the build also
marks which are reachable and reports their counts. docs/tablebase.md explains the index,
the value convention and the figures.

This module itself is light (no numpy, no numba): where the tables live, whether one is
ready (`availability`, what a page asks before it offers perfect play) and the error. The
table (`Tablebase`, `Value`, `prepare`, ...) comes from `_table` on first use, so a page that
only asks `availability` does not pay for the solver's imports (~85 MiB, 0.5 s).
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rules_kernel.core import RulesError
from rules_kernel.games import yokai
from rules_kernel.tablebase.values import MoveValue, Value  # noqa: F401 (light: no numpy)

try:
    import fcntl
except ImportError:  # pragma: no cover - not Linux: no lock, partial files still tell
    fcntl = None

GAME_ID = yokai.YokaiNoMori3x4.id  # the game declares this table (its SOLVED_TABLE)
FULL_MATERIAL = (2, 2, 2)
#: "off": this site does not offer perfect play (`./run publish --no-perfect-play`)
PERFECT_PLAY_ENV = "RULES_EXPLORER_PERFECT_PLAY"
READY, PREPARING, ABSENT = "ready", "preparing", "absent"


class TablebaseError(RulesError):
    """A table is missing, does not fit the game or the position, or is damaged.

    `str(error)` is meant for anyone, a visitor of a published page included: it names no
    file, directory or command. `detail` is the developer's version (where the file is, the
    command that builds it); it is `str(error)` when there is nothing more to say."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail or message


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


@dataclass(frozen=True)
class TableFiles:
    """Where one table lives. `table` is the built table (compressed, what a build writes);
    `values` its values uncompressed, which `Tablebase.open` maps into memory read-only
    (written from `table` on first open); `lock` is held by whoever builds or unpacks it.
    Every file is written under a temporary name with "partial" in it and renamed when
    complete, so a half-written file is never opened."""

    table: Path
    values: Path
    lock: Path

    @classmethod
    def of(cls, material=FULL_MATERIAL, directory=None) -> TableFiles:
        """The files of the table of `material` in `directory` (default: the cache directory)."""
        base = Path(directory) if directory is not None else cache_dir()
        return cls.at(base / f"{_file_stem(tuple(material))}.npz")

    @classmethod
    def at(cls, table: Path) -> TableFiles:
        """The files that go with the table file `table` (`<stem>.npz`)."""
        table = Path(table)
        return cls(table, table.with_suffix(".values.npy"), table.with_suffix(".lock"))

    def partials(self) -> list[Path]:
        """Half-written files of this table (a build or an unpack under way, or killed)."""
        if not self.table.parent.is_dir():
            return []
        stem = self.table.name.removesuffix(".npz")
        return sorted(self.table.parent.glob(f"{glob.escape(stem)}.*partial*"))

    def being_written(self) -> bool:
        """Someone holds the lock (a build or an unpack under way), or a half-written file
        is there."""
        return _lock_is_held(self.lock) or bool(self.partials())

    @contextlib.contextmanager
    def locked(self, wait: bool = True) -> Iterator[bool]:
        """Hold the lock (flock) while writing; yields False without waiting when `wait` is
        False and another process holds it. The lock goes with the process that held it.

        The lock file is removed when the lock is let go (an interrupted `solve` leaves no
        `<stem>.lock` behind): removed while still held, so whoever was waiting on it wakes
        holding a file that is no longer the lock, sees that (its file is not the one at the
        path) and takes the lock on the path again."""
        self.lock.parent.mkdir(parents=True, exist_ok=True)
        if fcntl is None:  # pragma: no cover
            yield True
            return
        while True:
            handle = open(self.lock, "a")  # noqa: SIM115 - closed below, on every path
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                handle.close()
                yield False
                return
            except BaseException:  # an interrupt while waiting: nothing held, nothing to remove
                handle.close()
                raise
            if _is_current(handle, self.lock):
                break
            handle.close()  # locked a file its holder removed on the way out: try the path again
        try:
            yield True
        finally:
            try:
                self.lock.unlink(missing_ok=True)
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
                handle.close()


def _is_current(handle, path: Path) -> bool:
    """The open file `handle` is the file at `path` (not one removed since it was opened)."""
    try:
        here = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(handle.fileno())
    return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)


def _lock_is_held(lock: Path) -> bool:
    if fcntl is None:  # pragma: no cover
        return False
    try:
        handle = open(lock)  # noqa: SIM115 - closed below; a missing lock file: nobody holds it
    except OSError:
        return False
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def perfect_play_offered() -> bool:
    """False when this site does not offer perfect play (RULES_EXPLORER_PERFECT_PLAY=off,
    which `./run publish --no-perfect-play` gives its kernels)."""
    return os.environ.get(PERFECT_PLAY_ENV, "").strip().lower() not in ("off", "0", "no", "false")


def availability(game_id: str = GAME_ID, *, material=FULL_MATERIAL, directory=None) -> str:
    """Whether `game_id`'s solved table can be opened here, without opening it (cheap):

    - "ready": the table is built (`Tablebase.open` works);
    - "preparing": it is being built or unpacked (the publishing set-up does that in the
      background when the server starts), or a half-written file is there: ask again later;
    - "absent": no table, the game has none, or the site does not offer perfect play
      (RULES_EXPLORER_PERFECT_PLAY=off): do not offer the switch.
    """
    if game_id != GAME_ID or not perfect_play_offered():
        return ABSENT
    try:
        files = TableFiles.of(_check_material(material), directory)
    except TablebaseError:
        return ABSENT
    if files.being_written():
        return PREPARING
    return READY if files.table.is_file() else ABSENT


def __getattr__(name: str):
    """The table itself (Tablebase, Value, MoveValue, prepare, ...) from `_table`, imported
    on first use."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    table = importlib.import_module(f"{__name__}._table")
    try:
        return getattr(table, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
