"""Fairy-Stockfish over UCI: Debian's `fairy-stockfish` package as a real subprocess.

    with FairyStockfish("gorogoro") as fsf:          # starts /usr/games/fairy-stockfish
        fsf.perft(fen, 3)                           # (4166, {"a1a2": 235, ...})
        fsf.search(fen, depth=10, lines=3)          # an EngineSearch: scored lines, bestmove

`FairyStockfishEngine(game)` is the analysis engine built on it: positions go over as our
position text (which is Fairy-Stockfish FEN: checked by the tests through the engine's own
`d` command), moves come back as notation and are kept only when they are legal in our rules.
The root is restricted to our legal moves with `searchmoves`, which matters where the rules
differ (docs/analysis.md, "Fairy-Stockfish").

The engine is another program, so nothing it does may hang or break the caller: every
exchange has a deadline (an answer the engine gives at once: ANSWER_TIMEOUT; a search: its
limit plus GRACE, then `stop`, then STOP_GRACE), its output is read as bytes by a reader
thread and parsed strictly (a line that should carry numbers and does not is an error, a
line nobody asked for is ignored, as UCI says), and whatever goes wrong — a crash, a hang,
garbage, a file that is not a program — raises `EngineError` in one line and kills the
process and its process group. `FairyStockfishEngine` then starts a fresh process for its
next analysis. The process is shut down cleanly otherwise: `quit`, a wait, a kill after a
timeout; a context manager, `close()`, and a finalizer when the object is collected or the
interpreter exits.
"""

from __future__ import annotations

import errno
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NoReturn

from rules_kernel.analysis._types import (
    LOSS,
    WIN,
    Analysis,
    Estimate,
    Limit,
    MoveLine,
    Search,
    StopFlag,
    cp_to_win_probability,
    exact,
    of_outcome,
)
from rules_kernel.core import Game, RulesError, State, perft
from rules_kernel.records import one_line

#: where Debian's package puts the binary (not on a user's PATH: /usr/games)
DEBIAN_BINARY = "/usr/games/fairy-stockfish"
#: an environment variable naming another binary
BINARY_ENV = "RULES_EXPLORER_FAIRY_STOCKFISH"
INSTALL_HINT = "install Debian's package: apt-get install fairy-stockfish"
#: seconds to wait for an answer the engine gives at once (uciok, readyok, a perft, its FEN),
#: and for it to take a command; read when a process starts (tests shorten it)
ANSWER_TIMEOUT = 20.0
#: seconds a search may run past its time limit before it is sent `stop`
GRACE = 2.0
#: seconds from `stop` to `bestmove` before the engine is given up as hung
STOP_GRACE = 2.0
#: the time allowed a search bounded only by depth or nodes; then it is stopped like one
#: whose stop flag was set, and its answer so far is kept (noted)
UNTIMED_SECONDS = 120.0
#: how often a search looks at its stop flag while the engine is quiet
POLL_SECONDS = 0.05
#: a longer output line is cut here (the longest real one, the variant list, is ~1.5 kB)
MAX_LINE_BYTES = 1 << 16
#: output lines held unread at most; then the reader waits, and so does the engine's output
MAX_QUEUED_LINES = 10_000
#: the lines Fairy-Stockfish ranks when the limit does not say (MultiPV)
DEFAULT_LINES = 5
#: a binary that failed to start is not tried again for this long unless the file changes
RETRY_AFTER = 30.0


class EngineError(RulesError):
    """The engine is missing, is not a program, died, did not answer in time, sent what UCI
    does not allow, or plays other rules than ours. The message is one line, in words."""


def find_binary(path: str | os.PathLike | None = None) -> Path:
    """The Fairy-Stockfish binary: `path`, else $RULES_EXPLORER_FAIRY_STOCKFISH, else Debian's
    /usr/games/fairy-stockfish, else `fairy-stockfish` on the PATH. EngineError (one line,
    naming the install command) when there is none or it cannot be a program."""
    candidate = path or os.environ.get(BINARY_ENV) or None
    if candidate is None:
        candidate = DEBIAN_BINARY if os.access(DEBIAN_BINARY, os.X_OK) else shutil.which("fairy-stockfish")
    shown = one_line(str(candidate), limit=200)  # a setting may hold any character: one line
    if candidate is None or not os.path.exists(candidate):
        where = shown if candidate else f"{DEBIAN_BINARY} or on the PATH"
        raise EngineError(f"Fairy-Stockfish not found at {where}: {INSTALL_HINT}")
    if not Path(candidate).is_file():
        raise EngineError(f"Fairy-Stockfish at {shown} is a directory, not a program: {INSTALL_HINT}")
    if not os.access(candidate, os.X_OK):
        raise EngineError(f"Fairy-Stockfish at {shown} is not executable (chmod +x it): {INSTALL_HINT}")
    return Path(candidate)


def binary_identity(path: str | os.PathLike | None = None) -> tuple:
    """What identifies the binary `find_binary` would choose now (its path and the file's
    identity and change time, or why there is none): a failure to start is remembered only
    while this stays the same."""
    try:
        binary = find_binary(path)
        status = binary.stat()
    except (EngineError, OSError) as exc:
        return ("none", str(exc))
    return (str(binary), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


@dataclass(frozen=True)
class ScoredLine:
    """One MultiPV line of a finished iteration: score for the side to move, and its moves."""

    rank: int
    depth: int
    cp: int | None
    mate: int | None
    pv: tuple[str, ...]

    def estimate(self) -> Estimate:
        """As an Estimate for the side to move: a mate claims a result and its plies (mate
        in n moves: 2n - 1 plies; mated in n: 2n plies); not exact in our rules."""
        if self.mate is not None:
            if self.mate > 0:
                return Estimate(1.0, None, WIN, 2 * self.mate - 1, False)
            return Estimate(0.0, None, LOSS, -2 * self.mate, False)
        return Estimate(cp_to_win_probability(self.cp or 0), None, cp=self.cp)


@dataclass
class EngineSearch:
    """What one `go` produced: the lines of the last complete iteration, the best move, and
    the engine's counters. `stopped`: ended by the stop flag; `overran`: the engine was sent
    `stop` at its deadline (a time limit plus GRACE, or UNTIMED_SECONDS) and answered."""

    lines: list[ScoredLine] = field(default_factory=list)
    bestmove: str | None = None
    depth: int = 0
    nodes: int = 0
    nps: int = 0
    millis: int = 0
    stopped: bool = False
    overran: float | None = None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _kill(process: subprocess.Popen, timeout: float) -> None:
    """Shut the engine down: `quit`, wait `timeout`, then kill its process group (a wrapper
    script's children too); always reap it (no zombie). Its output stays open for the reader
    thread, which closes it at the end (closing it under a blocked read could wait forever)."""
    if process.poll() is None and timeout > 0:
        try:
            os.write(process.stdin.fileno(), b"quit\n")
        except (OSError, ValueError):
            pass
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the engine leads its own group (start_new_session)
    except (ProcessLookupError, PermissionError):
        pass
    if process.poll() is None:
        process.kill()
    process.wait()
    try:
        process.stdin.close()
    except (OSError, ValueError):
        pass


def _quoted(line: str) -> str:
    """An engine's line in a message: one line, printable, short (it is untrusted data)."""
    return one_line(repr(line), limit=80)


class _Garbled(ValueError):
    """A line that should carry a number (or a score kind) and does not."""


_INT = re.compile(r"-?[0-9]{1,18}")
_COUNT = re.compile(r"[0-9]{1,18}")
#: a line of `go perft`: a move (printable ASCII, no space), ": ", its count
_MOVE_LINE = re.compile(r"([!-~]{2,12}): (.*)")


class FairyStockfish:
    """One Fairy-Stockfish process playing one variant. Any EngineError it raises has
    already killed the process (`running` is False): its state is unknown after one."""

    def __init__(
        self,
        variant: str,
        *,
        path: str | os.PathLike | None = None,
        hash_mb: int = 16,
        threads: int = 1,
        timeout: float | None = None,
    ) -> None:
        """`timeout`: seconds for an answer the engine gives at once (default ANSWER_TIMEOUT)."""
        self.binary = find_binary(path)
        self.variant = variant
        self.timeout = ANSWER_TIMEOUT if timeout is None else timeout
        self.name = "Fairy-Stockfish"
        self._lines: queue.Queue[str | None] = queue.Queue(MAX_QUEUED_LINES)
        self._multipv = 1
        try:
            self._process = subprocess.Popen(
                [str(self.binary)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # its own process group: killed whole, and no Ctrl-C of ours
            )
        except OSError as exc:
            why = "not a program this machine can run" if exc.errno == errno.ENOEXEC else "cannot be started"
            raise EngineError(f"{self._who} is {why} ({exc.strerror or exc}): {INSTALL_HINT}") from None
        self._stdin = self._process.stdin.fileno()
        os.set_blocking(self._stdin, False)  # a write that would block waits with a deadline instead
        self._finalizer = weakref.finalize(self, _kill, self._process, 2.0)
        self._reader = threading.Thread(target=self._read_all, name="fairy-stockfish-reader", daemon=True)
        self._reader.start()
        try:
            self._handshake(hash_mb, threads)
        except BaseException:
            self.close()
            raise

    @property
    def _who(self) -> str:
        return f"Fairy-Stockfish ({one_line(str(self.binary), limit=200)})"

    # --- the process ------------------------------------------------------------------------
    def _read_all(self) -> None:
        """The reader thread: every output line, decoded (bytes that are not UTF-8 become
        U+FFFD) and cut at MAX_LINE_BYTES, into the queue; None at the end."""
        stream = self._process.stdout
        try:
            while chunk := stream.readline(MAX_LINE_BYTES):
                rest = chunk
                while rest and not rest.endswith(b"\n"):  # an over-long line: its start is kept
                    rest = stream.readline(MAX_LINE_BYTES)
                self._lines.put(chunk.rstrip(b"\r\n").decode("utf-8", "replace"))
        except (OSError, ValueError):
            pass
        finally:
            try:
                stream.close()
            except OSError:
                pass
            self._lines.put(None)

    def _ended(self) -> str:
        """How the process ended, in words (it may still be running with its output closed)."""
        try:
            code = self._process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            return f"was killed by signal {-code} ({_signal_name(-code)})"
        return f"exited with code {code}"

    def _fail(self, what: str) -> NoReturn:
        """Kill the process (its state is unknown now) and raise EngineError(`what`)."""
        self._finalizer.detach()
        _kill(self._process, 0.0)
        raise EngineError(f"{self._who} {what}")

    def send(self, command: str) -> None:
        """Write one UCI command; EngineError when the engine has exited or does not take it
        within the answer timeout."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"one UCI command a line: {command!r}")
        if self._process.poll() is not None:
            self._fail(f"has exited: it {self._ended()}")
        data = memoryview((command + "\n").encode())
        deadline = time.monotonic() + self.timeout
        while data:
            try:
                data = data[os.write(self._stdin, data) :]
            except BlockingIOError:  # its input is full: it has stopped reading
                left = deadline - time.monotonic()
                if left <= 0:
                    self._fail(f"stopped reading its input (a command not taken in {self.timeout:g} s)")
                select.select([], [self._stdin], [], min(left, POLL_SECONDS))
            except OSError as exc:
                self._fail(f"stopped reading its input ({exc.strerror or exc}; it {self._ended()})")

    def _next(self, timeout: float, doing: str) -> str | None:
        """The next line, or None when none came within `timeout`; EngineError at the end of
        the output (a crash)."""
        try:
            line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put_nowait(None)  # later reads see the end too
            self._fail(f"{self._ended()} while {doing}")  # "was killed by signal 9 (SIGKILL) while ..."
        return line

    def _until(self, done: Callable[[str], bool], doing: str, timeout: float | None = None) -> list[str]:
        """Lines up to and including the first for which `done` is true; EngineError when it
        does not come within `timeout` (default: the answer timeout)."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self._next(deadline - time.monotonic(), doing)
            if line is None:
                if time.monotonic() >= deadline:
                    self._fail(f"did not answer within {timeout:g} s while {doing}")
                continue
            seen.append(line)
            if done(line):
                return seen

    def ready(self) -> None:
        self.send("isready")
        self._until(lambda line: line == "readyok", "answering 'isready'")

    def _handshake(self, hash_mb: int, threads: int) -> None:
        self.send("uci")
        lines = self._until(lambda line: line == "uciok", "starting ('uci')")
        name = next((line[8:] for line in lines if line.startswith("id name ")), "")
        self.name = one_line(name, limit=60) or "Fairy-Stockfish"  # shown on pages: untrusted
        variant_line = next((line for line in lines if line.startswith("option name UCI_Variant ")), "")
        self.variants = tuple(variant_line.split(" var ")[1:])
        if self.variant not in self.variants:
            raise EngineError(
                f"{self.name} does not know the variant {self.variant!r} "
                f"(it knows {len(self.variants)} others)"
            )
        self.send(f"setoption name UCI_Variant value {self.variant}")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send(f"setoption name Threads value {threads}")
        self.ready()

    def close(self) -> None:
        """Quit the engine and reap the process (idempotent)."""
        self._finalizer()
        _kill(self._process, 0.0)  # when _fail detached the finalizer: reaped already, harmless
        # the reader may wait on a full queue: empty it until the reader sees the end
        deadline = time.monotonic() + 2.0
        while self._reader.is_alive() and time.monotonic() < deadline:
            self._drain()
            self._reader.join(POLL_SECONDS)

    def _drain(self) -> None:
        try:
            while self._lines.get_nowait() is not None:
                pass
        except queue.Empty:
            return
        self._lines.put_nowait(None)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._process.poll() is None

    def __enter__(self) -> FairyStockfish:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- questions ----------------------------------------------------------------------------
    def set_position(self, fen: str, moves: tuple[str, ...] = ()) -> None:
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def fen(self, fen: str, moves: tuple[str, ...] = ()) -> str:
        """The engine's own FEN of a position (its `d` command): how it read ours."""
        self.set_position(fen, moves)
        self.send("d")
        lines = self._until(lambda line: line.startswith("Fen: "), "showing a position ('d')")
        self._until(lambda line: line.startswith("Checkers:"), "showing a position ('d')")
        return lines[-1][len("Fen: ") :]

    def perft(self, fen: str, depth: int) -> tuple[int, dict[str, int]]:
        """(leaves, {move: leaves below it}) from the engine's move generator."""
        self.set_position(fen)
        self.send(f"go perft {depth}")
        doing = f"counting moves ('go perft {depth}')"
        lines = self._until(lambda line: line.startswith("Nodes searched:"), doing)
        total = lines[-1][len("Nodes searched:") :].strip()
        if not _COUNT.fullmatch(total):
            self._fail(f"sent {_quoted(lines[-1])} while {doing}: a count was due")
        split = {}
        for line in lines[:-1]:
            found = _MOVE_LINE.fullmatch(line)
            if found is None:
                continue  # not a move's line (an `info string`, a blank line)
            move, count = found.groups()
            if not _COUNT.fullmatch(count):
                self._fail(f"sent {_quoted(line)} while {doing}: a count was due")
            split[move] = int(count)
        if split and sum(split.values()) != int(total):
            self._fail(f"counted {total} moves in all but {sum(split.values())} move by move")
        return int(total), split

    def legal_moves(self, fen: str) -> set[str]:
        return set(self.perft(fen, 1)[1])

    def search(
        self,
        fen: str,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        seconds: float | None = None,
        lines: int = 1,
        searchmoves: list[str] | None = None,
        stop: StopFlag | None = None,
        on_iteration: Callable[[EngineSearch], None] | None = None,
    ) -> EngineSearch:
        """Search the position; the limits combine (the first reached ends it). `stop` (an
        Event) ends it early; `on_iteration` gets the lines after each complete iteration.

        Deadline: `seconds` plus GRACE (UNTIMED_SECONDS without `seconds`); then `stop`, and
        STOP_GRACE for the answer. An engine that answers neither raises EngineError."""
        if depth is None and nodes is None and seconds is None:
            raise ValueError("give the search a depth, nodes or seconds")
        try:
            if lines != self._multipv:
                self.send(f"setoption name MultiPV value {lines}")
                self._multipv = lines
            self.set_position(fen)
            go = (
                "go"
                + (f" depth {depth}" if depth is not None else "")
                + (f" nodes {nodes}" if nodes is not None else "")
                + (f" movetime {max(1, round(seconds * 1000))}" if seconds is not None else "")
            )
            self.send(go + (" searchmoves " + " ".join(searchmoves) if searchmoves else ""))
            budget = (UNTIMED_SECONDS if seconds is None else seconds) + GRACE
            return self._collect(lines, stop, on_iteration, budget, set(searchmoves or ()))
        except EngineError:
            raise  # the process is killed already
        except BaseException:
            # an interruption (Ctrl-C) or a failing callback mid-search: the engine may still be
            # searching and its lines would reach the next question; it is not used again
            self.close()
            raise

    def _collect(
        self,
        lines: int,
        stop: StopFlag | None,
        on_iteration: Callable[[EngineSearch], None] | None,
        budget: float,
        searchmoves: set[str],
    ) -> EngineSearch:
        """Read until `bestmove`. An iteration is complete when its last line (MultiPV
        `lines`, or fewer when the position has fewer moves: the next depth begins) is in.
        `stop` is sent when the stop flag is set or `budget` seconds have passed; the engine
        then has STOP_GRACE to answer."""
        result, latest = EngineSearch(), {}
        depths = {"pending": 0, "done": 0}  # the depth being received, the last one reported
        started = time.monotonic()
        stop_by: float | None = None  # when `stop` was sent: the deadline for `bestmove`

        def complete() -> None:
            result.lines = [latest[k] for k in sorted(latest)]
            result.depth = depths["done"] = depths["pending"]
            if on_iteration is not None:
                on_iteration(result)

        while True:
            now = time.monotonic()
            if stop_by is None and stop is not None and stop.is_set():
                self.send("stop")
                result.stopped, stop_by = True, now + STOP_GRACE
            elif stop_by is None and now - started >= budget:
                self.send("stop")
                result.overran, stop_by = budget, now + STOP_GRACE
            elif stop_by is not None and now >= stop_by:
                if result.stopped:
                    self._fail(f"did not stop its search within {STOP_GRACE:g} s of 'stop' (the stop flag)")
                self._fail(
                    f"did not end its search: no answer {budget:g} s after 'go' (its limit and a "
                    f"grace) nor {STOP_GRACE:g} s after 'stop'"
                )
            line = self._next(POLL_SECONDS, "searching")
            if line is None:
                continue
            if line.startswith("bestmove"):
                parts = line.split()
                result.bestmove = parts[1] if len(parts) > 1 and parts[1] != "(none)" else None
                if latest and depths["done"] < depths["pending"]:
                    complete()
                return result
            try:
                scored = _parse_info(line, result, lines)
            except _Garbled as exc:
                self._fail(f"sent {_quoted(line)} while searching: {exc}")
            if scored is None:
                continue
            if searchmoves and scored.pv[0] not in searchmoves:
                self._fail(f"answered with {_quoted(scored.pv[0])}, a move it was not asked to search")
            if scored.rank == 1:
                if depths["done"] < depths["pending"] < scored.depth:
                    complete()  # fewer moves than lines: the last depth ended with its last move
                depths["pending"] = scored.depth
            latest[scored.rank] = scored
            if scored.rank == lines:
                complete()


#: the counters of an `info` line that are read as numbers (each one never negative)
_COUNTERS = ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits")


def _parse_info(line: str, result: EngineSearch, lines: int) -> ScoredLine | None:
    """A complete `info depth ... multipv k score ... pv ...` line (bounds, `info string`
    and lines without a move are skipped); the counters go into `result`. _Garbled when a
    number or a score kind is not one, or the line's rank is not one asked for."""
    if not line.startswith("info ") or line.startswith("info string") or " pv " not in line:
        return None
    if " bound" in line:
        return None
    tokens = line.split()
    values: dict[str, int] = {}
    cp = mate = None
    i = 1
    while i < len(tokens) and tokens[i] != "pv":
        key = tokens[i]
        if key == "score":
            kind = tokens[i + 1] if i + 1 < len(tokens) else ""
            number = tokens[i + 2] if i + 2 < len(tokens) else ""
            if kind not in ("cp", "mate") or not _INT.fullmatch(number):
                raise _Garbled("a score is 'cp' or 'mate' and a whole number")
            cp, mate = (int(number), None) if kind == "cp" else (None, int(number))
            i += 3
            continue
        if key in _COUNTERS:
            number = tokens[i + 1] if i + 1 < len(tokens) else ""
            if not _COUNT.fullmatch(number):
                raise _Garbled(f"'{key}' is followed by a count")
            values[key] = int(number)
            i += 2
            continue
        i += 1
    pv = tuple(tokens[i + 1 :])
    if not pv:
        return None
    rank = values.get("multipv", 1)
    if not 1 <= rank <= lines:
        raise _Garbled(f"line {rank} of {lines}")
    result.nodes, result.nps = values.get("nodes", result.nodes), values.get("nps", result.nps)
    result.millis = values.get("time", result.millis)
    return ScoredLine(rank, values.get("depth", 0), cp, mate, pv)


# --- the analysis engine --------------------------------------------------------------------------

#: the perft depth checked at start, per variant (docs/analysis.md)
CHECK_DEPTH = {"dobutsu": 4, "gorogoro": 3}
#: engines whose rules differ from ours in ways this module handles, recognised by their
#: perft from the start: Debian's Fairy-Stockfish 11.1 plays the older dobutsu (a royal Lion:
#: no move may leave it attacked; a forced promotion written without '+'). Moves it lacks are
#: valued by our rules (the Koropokkuru left to be taken: a loss in 2); its distances are
#: counted in its rules. Measured against the solved table: docs/analysis.md.
KNOWN_OTHER_RULES = {("dobutsu", 4, 412): "the older dobutsu of Fairy-Stockfish 11.1 (a royal Lion)"}


class FairyStockfishEngine:
    """Analysis by Fairy-Stockfish for a game it plays (`variant`), in our rules at the root.

    An analysis the engine fails (EngineError: a crash, a hang, garbage) leaves its process
    killed; the next analysis starts a fresh one (and checks its rules again), so one crash
    never makes the engine unusable for the rest of a session. A restart that fails is not
    tried again for RETRY_AFTER seconds unless the binary changes."""

    name = "fairy-stockfish"

    def __init__(
        self,
        game: Game,
        variant: str,
        *,
        path: str | os.PathLike | None = None,
        require_same_rules: bool = False,
    ) -> None:
        """`require_same_rules`: refuse an engine whose perft differs from ours even where the
        difference is a known one (KNOWN_OTHER_RULES); an unknown difference is always refused."""
        self.game, self.variant = game, variant
        self.path, self.require_same_rules = path, require_same_rules
        # one engine process answers one search at a time: pages and reports in one kernel
        # (the explorer's Analysis, a Replay's report) share it through get_engine
        self._one_at_a_time = threading.RLock()
        self._last_failure: str | None = None  # why the previous process was given up
        self._failed_start: tuple[tuple, str, float] | None = None  # (binary, why, when)
        self.fsf = self._start()

    def _start(self) -> FairyStockfish:
        """A new process whose rules are checked; EngineError (the process closed) if not."""
        fsf = FairyStockfish(self.variant, path=self.path)
        try:
            self.rules_match, self.check, known = self._check_rules(fsf)
            if not self.rules_match and (self.require_same_rules or known is None):
                raise EngineError(
                    f"{fsf.name} plays {self.variant} by other rules than {self.game.id}: {self.check}"
                )
        except BaseException:
            fsf.close()
            raise
        return fsf

    def _running(self) -> FairyStockfish:
        """The engine's process, started afresh when the last one ended (called holding the
        lock). The reason the last one was given up goes into the next analysis' notes."""
        if self.fsf.running:
            return self.fsf
        identity = binary_identity(self.path)
        if self._failed_start is not None:
            binary, why, when = self._failed_start
            if binary == identity and time.monotonic() - when < RETRY_AFTER:
                raise EngineError(why)
        self.fsf.close()
        try:
            self.fsf = self._start()
        except EngineError as exc:
            self._failed_start = (identity, str(exc), time.monotonic())
            raise
        self._failed_start = None
        return self.fsf

    def _check_rules(self, fsf: FairyStockfish | None = None) -> tuple[bool, str, str | None]:
        """perft from the start position, the engine's against ours: (same, what was compared,
        the known difference it shows or None)."""
        fsf = fsf or self.fsf
        depth = CHECK_DEPTH.get(self.variant, 3)
        start = self.game.initial_state()
        theirs = fsf.perft(start.to_text(), depth)[0]
        ours = perft(start, depth)
        known = KNOWN_OTHER_RULES.get((self.variant, depth, theirs))
        what = f"perft {depth} from the start: engine {theirs}, ours {ours}"
        return theirs == ours, what + (f" ({known})" if known and theirs != ours else ""), known

    def close(self) -> None:
        self.fsf.close()

    def __enter__(self) -> FairyStockfishEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def analyse(
        self,
        state: State,
        *,
        viewer: int | None = None,
        limit: Limit | None = None,
        progress: Callable[[Analysis], None] | None = None,
        stop: StopFlag | None = None,
    ) -> Analysis:
        with self._one_at_a_time:
            try:
                return self._analyse(state, viewer=viewer, limit=limit, progress=progress, stop=stop)
            except EngineError as exc:
                if not self.fsf.running:  # given up (killed): the next analysis starts another
                    self._last_failure = str(exc)
                raise

    def _analyse(
        self,
        state: State,
        *,
        viewer: int | None,
        limit: Limit | None,
        progress: Callable[[Analysis], None] | None,
        stop: StopFlag | None,
    ) -> Analysis:
        limit = limit or Limit()
        if limit.seconds is None and limit.depth is None and limit.nodes is None:
            limit = replace(limit, seconds=Limit().seconds)  # playouts alone bound no search
        state = state if viewer is None else state.view(viewer)  # the same: no secrets
        started = time.perf_counter()
        if state.is_terminal():
            player = viewer or 0
            return _analysis(
                state, player, of_outcome(state.outcome(), player), [], viewer, Search(self.name, exact=True)
            )
        legal = {str(m): m for m in state.legal_moves()}
        fsf = self._running()
        restarted, self._last_failure = self._last_failure, None
        to_engine = self.translation(state, fsf.legal_moves(state.to_text()))
        # moves that end the game are valued by our rules (a repetition Fairy-Stockfish cannot
        # see in a FEN, a checkmate), and so are moves the engine does not play (where the
        # rules differ); the engine searches the others, and only those (searchmoves)
        ruled = {
            text: ruled_value(state, move, deep=text not in to_engine)
            for text, move in legal.items()
            if text not in to_engine or state.apply(move).is_terminal()
        }
        ruled = {text: value for text, value in ruled.items() if value is not None}
        searched = sorted(to_engine[text] for text in legal if text in to_engine and text not in ruled)
        wanted = min(len(searched), limit.lines or DEFAULT_LINES)
        unvalued = sorted(set(legal) - set(ruled) - set(to_engine))
        if not to_engine and unvalued:
            return self._fallback(state, viewer, limit, progress, stop)
        from_engine = {theirs: ours for ours, theirs in to_engine.items()}

        def snapshot(found: EngineSearch) -> Analysis:
            return self._as_analysis(state, viewer, ruled, found, started, unvalued, from_engine, restarted)

        found = EngineSearch()
        if searched:
            found = fsf.search(
                state.to_text(),
                depth=limit.depth,
                nodes=limit.nodes,
                seconds=limit.seconds,
                lines=wanted,
                searchmoves=searched,
                stop=stop,
                on_iteration=None if progress is None else (lambda s: progress(snapshot(s))),
            )
        result = snapshot(found)
        if progress is not None:
            progress(result)
        return result

    def _fallback(
        self,
        state: State,
        viewer: int | None,
        limit: Limit,
        progress: Callable[[Analysis], None] | None,
        stop: StopFlag | None,
    ) -> Analysis:
        """A position the engine's rules end (Debian's dobutsu: a Lion on the far rank even
        where ours says it can be taken) while ours go on: the tree search answers."""
        from rules_kernel.analysis.ismcts import TreeSearchEngine

        result = TreeSearchEngine().analyse(state, viewer=viewer, limit=limit, progress=progress, stop=stop)
        note = f"{self.fsf.name} sees no move here (its rules end the game); the tree search answered"
        return replace(result, search=replace(result.search, notes=(*result.search.notes, note)))

    def translation(self, state: State, theirs: set[str] | None = None) -> dict[str, str]:
        """Our notation -> the engine's, for every legal move the engine plays too. The
        notations agree but for one thing: Debian's dobutsu may write a forced promotion
        without the '+' ours has (`b3b4` for `b3b4+`, when it has no `b3b4+`). Moves the
        engine lacks are left out; moves only the engine has (a mating Kodama drop in 5x6, a
        Kodama that does not promote in its dobutsu) are never searched (`searchmoves`)."""
        if theirs is None:
            with self._one_at_a_time:
                theirs = self._running().legal_moves(state.to_text())
        ours = {str(m) for m in state.legal_moves()}
        mapping = {}
        for text in ours:
            if text in theirs:
                mapping[text] = text
            elif text.endswith("+") and text[:-1] in theirs and text[:-1] not in ours:
                mapping[text] = text[:-1]
        return mapping

    def _as_analysis(
        self,
        state: State,
        viewer: int | None,
        ruled: dict[str, Estimate],
        found: EngineSearch,
        started: float,
        unvalued: list[str],
        from_engine: dict[str, str],
        restarted: str | None = None,
    ) -> Analysis:
        player = state.current_player
        lines = [MoveLine(move, value, (move,)) for move, value in ruled.items()]
        for scored in found.lines:
            line = our_line(state, scored.pv, from_engine)
            if line and line[0] not in ruled:
                lines.append(MoveLine(line[0], scored.estimate(), line))
        lines.sort(key=lambda m: (m.value.sort_key(), m.move))
        value = lines[0].value if lines else Estimate(0.5)
        notes = (f"{self.fsf.name}, variant {self.variant}; {self.check}",)
        if unvalued:
            notes += (f"not searched (the engine's rules lack them): {', '.join(unvalued)}",)
        if found.overran is not None:
            notes += (f"the engine was sent 'stop' {found.overran:g} s after 'go' (its limit and a grace)",)
        if restarted is not None:
            notes += (f"a fresh engine was started; the last one failed: {restarted}",)
        search = Search(
            self.name,
            nodes=found.nodes,
            depth=found.depth,
            seconds=round(time.perf_counter() - started, 6),
            # a ruled value beats the engine's claims only as a win in 1
            exact=bool(lines)
            and lines[0].value.exact
            and (not found.lines or (lines[0].value.result, lines[0].value.plies) == (WIN, 1)),
            stopped=found.stopped,
            notes=notes,
        )
        return _analysis(state, player, value, lines, viewer, search)


def ruled_value(state: State, move, *, deep: bool = False) -> Estimate | None:
    """A move's value by our rules alone, when they settle it: the move ends the game; or
    (`deep`) the opponent then wins at once (3x4: a Koropokkuru left where it can be taken),
    a loss in 2. None otherwise."""
    child = state.apply(move)
    if child.is_terminal():
        value = of_outcome(child.outcome(), state.current_player)
        return replace(value, plies=1) if value.result in (WIN, LOSS) else value
    if deep and child.current_player != state.current_player:
        for reply in child.legal_moves():
            after = child.apply(reply)
            if after.is_terminal() and after.outcome().winner == child.current_player:
                return exact(LOSS, 2)
    return None


def our_line(state: State, pv: tuple[str, ...], first: dict[str, str]) -> tuple[str, ...]:
    """The engine's line in our notation: its first move through `first` (engine notation ->
    ours, this position's translation), the rest as far as each move is ours literally (a
    move our rules forbid, one whose notation is ambiguous — Debian's dobutsu writes both its
    forced and its optional Kodama promotion `b3b4` —, or a position our rules end: it stops)."""
    kept = []
    for ply, text in enumerate(pv):
        if state.is_terminal():
            break
        legal = {str(m): m for m in state.legal_moves()}
        move = legal.get(first.get(text, "")) if ply == 0 else legal.get(text)
        if move is None:
            break
        kept.append(str(move))
        state = state.apply(move)
    return tuple(kept)


def _analysis(
    state: State, player: int, value: Estimate, lines: list[MoveLine], viewer: int | None, search: Search
) -> Analysis:
    values = (value.win_probability, 1.0 - value.win_probability)
    return Analysis(
        state.game.id,
        state.to_text(),
        player,
        value,
        values if player == 0 else values[::-1],
        tuple(lines),
        lines[0].line if lines else (),
        search,
        viewer,
    )
