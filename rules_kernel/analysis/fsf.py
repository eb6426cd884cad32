"""Fairy-Stockfish over UCI: Debian's `fairy-stockfish` package as a real subprocess.

    with FairyStockfish("gorogoro") as fsf:          # starts /usr/games/fairy-stockfish
        fsf.perft(fen, 3)                           # (4166, {"a1a2": 235, ...})
        fsf.search(fen, depth=10, lines=3)          # an EngineSearch: scored lines, bestmove

`FairyStockfishEngine(game)` is the analysis engine built on it: positions go over as our
position text (which is Fairy-Stockfish FEN: checked by the tests through the engine's own
`d` command), moves come back as notation and are kept only when they are legal in our rules.
The root is restricted to our legal moves with `searchmoves`, which matters where the rules
differ (docs/analysis.md, "Fairy-Stockfish").

The process is shut down cleanly: `quit`, a wait, a kill after a timeout; a context manager,
`close()`, and a finalizer when the object is collected or the interpreter exits.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

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

#: where Debian's package puts the binary (not on a user's PATH: /usr/games)
DEBIAN_BINARY = "/usr/games/fairy-stockfish"
#: an environment variable naming another binary
BINARY_ENV = "RULES_EXPLORER_FAIRY_STOCKFISH"
INSTALL_HINT = "install Debian's package: apt-get install fairy-stockfish"
#: seconds to wait for an answer the engine gives at once (uciok, readyok, a perft)
ANSWER_TIMEOUT = 20.0
#: the lines Fairy-Stockfish ranks when the limit does not say (MultiPV)
DEFAULT_LINES = 5


class EngineError(RulesError):
    """The engine is missing, died, did not answer, or plays other rules than ours."""


def find_binary(path: str | os.PathLike | None = None) -> Path:
    """The Fairy-Stockfish binary: `path`, else $RULES_EXPLORER_FAIRY_STOCKFISH, else Debian's
    /usr/games/fairy-stockfish, else `fairy-stockfish` on the PATH. EngineError (one line,
    naming the install command) when there is none."""
    candidate = path or os.environ.get(BINARY_ENV)
    if candidate is None:
        candidate = DEBIAN_BINARY if os.access(DEBIAN_BINARY, os.X_OK) else shutil.which("fairy-stockfish")
    if candidate is None or not os.access(candidate, os.X_OK) or not Path(candidate).is_file():
        where = candidate or f"{DEBIAN_BINARY} or on the PATH"
        raise EngineError(f"Fairy-Stockfish not found at {where}: {INSTALL_HINT}")
    return Path(candidate)


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
    the engine's counters."""

    lines: list[ScoredLine] = field(default_factory=list)
    bestmove: str | None = None
    depth: int = 0
    nodes: int = 0
    nps: int = 0
    millis: int = 0
    stopped: bool = False


def _kill(process: subprocess.Popen, timeout: float) -> None:
    """Shut the engine down: `quit`, wait, then kill; always reap it (no zombie)."""
    if process.poll() is None:
        try:
            process.stdin.write("quit\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdin, process.stdout):
        try:
            stream.close()
        except OSError:
            pass


class FairyStockfish:
    """One Fairy-Stockfish process playing one variant."""

    def __init__(
        self,
        variant: str,
        *,
        path: str | os.PathLike | None = None,
        hash_mb: int = 16,
        threads: int = 1,
        timeout: float = ANSWER_TIMEOUT,
    ) -> None:
        self.binary = find_binary(path)
        self.variant, self.timeout = variant, timeout
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._multipv = 1
        self._process = subprocess.Popen(
            [str(self.binary)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._finalizer = weakref.finalize(self, _kill, self._process, 2.0)
        self._reader = threading.Thread(target=self._read_all, name="fairy-stockfish-reader", daemon=True)
        self._reader.start()
        try:
            self._handshake(hash_mb, threads)
        except BaseException:
            self.close()
            raise

    # --- the process ------------------------------------------------------------------------
    def _read_all(self) -> None:
        """The reader thread: every output line into the queue, None at the end."""
        stream = self._process.stdout
        try:
            for line in stream:
                self._lines.put(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def send(self, command: str) -> None:
        if self._process.poll() is not None:
            raise EngineError(f"Fairy-Stockfish ({self.binary}) has exited (code {self._process.returncode})")
        try:
            self._process.stdin.write(command + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError) as exc:
            raise EngineError(f"Fairy-Stockfish ({self.binary}) stopped reading: {exc}") from exc

    def _line(self, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"Fairy-Stockfish did not answer within {timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # later reads see the end too
            raise EngineError(f"Fairy-Stockfish ({self.binary}) exited unexpectedly")
        return line

    def _until(self, done: Callable[[str], bool], timeout: float | None = None) -> list[str]:
        """Lines up to and including the first for which `done` is true."""
        deadline = time.monotonic() + (timeout or self.timeout)
        seen = []
        while True:
            line = self._line(max(0.0, deadline - time.monotonic()))
            seen.append(line)
            if done(line):
                return seen

    def ready(self) -> None:
        self.send("isready")
        self._until(lambda line: line == "readyok")

    def _handshake(self, hash_mb: int, threads: int) -> None:
        self.send("uci")
        lines = self._until(lambda line: line == "uciok")
        self.name = next((line[8:] for line in lines if line.startswith("id name ")), "Fairy-Stockfish")
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
        self._reader.join(timeout=2.0)

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
        lines = self._until(lambda line: line.startswith("Fen: "))
        self._until(lambda line: line.startswith("Checkers:"))
        return lines[-1][len("Fen: ") :]

    def perft(self, fen: str, depth: int) -> tuple[int, dict[str, int]]:
        """(leaves, {move: leaves below it}) from the engine's move generator."""
        self.set_position(fen)
        self.send(f"go perft {depth}")
        lines = self._until(lambda line: line.startswith("Nodes searched: "))
        split = {}
        for line in lines[:-1]:
            move, sep, count = line.partition(": ")
            if sep and count.isdigit():
                split[move] = int(count)
        return int(lines[-1].split()[-1]), split

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
        Event) ends it early; `on_iteration` gets the lines after each complete iteration."""
        if depth is None and nodes is None and seconds is None:
            raise ValueError("give the search a depth, nodes or seconds")
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
        return self._collect(lines, stop, on_iteration)

    def _collect(
        self, lines: int, stop: StopFlag | None, on_iteration: Callable[[EngineSearch], None] | None
    ) -> EngineSearch:
        """Read until `bestmove`. An iteration is complete when its last line (MultiPV
        `lines`, or fewer when the position has fewer moves: the next depth begins) is in."""
        result, latest = EngineSearch(), {}
        depths = {"pending": 0, "done": 0}  # the depth being received, the last one reported

        def complete() -> None:
            result.lines = [latest[k] for k in sorted(latest)]
            result.depth = depths["done"] = depths["pending"]
            if on_iteration is not None:
                on_iteration(result)

        while True:
            try:
                line = self._line(0.05)
            except EngineError:  # only a quiet moment: an engine's end arrives as None and raises
                if stop is not None and stop.is_set() and not result.stopped:
                    self.send("stop")
                    result.stopped = True
                continue
            if line.startswith("bestmove"):
                parts = line.split()
                result.bestmove = parts[1] if len(parts) > 1 and parts[1] != "(none)" else None
                if latest and depths["done"] < depths["pending"]:
                    complete()
                return result
            scored = _parse_info(line, result)
            if scored is None:
                continue
            if scored.rank == 1:
                if depths["done"] < depths["pending"] < scored.depth:
                    complete()  # fewer moves than lines: the last depth ended with its last move
                depths["pending"] = scored.depth
            latest[scored.rank] = scored
            if scored.rank == lines:
                complete()


def _parse_info(line: str, result: EngineSearch) -> ScoredLine | None:
    """A complete `info depth ... multipv k score ... pv ...` line (bounds are skipped); the
    counters go into `result`."""
    if not line.startswith("info ") or " pv " not in line or " bound" in line:
        return None
    tokens = line.split()
    values: dict[str, int] = {}
    cp = mate = None
    i = 1
    while i < len(tokens) and tokens[i] != "pv":
        key = tokens[i]
        if key == "score":
            kind, number = tokens[i + 1], int(tokens[i + 2])
            cp, mate = (number, None) if kind == "cp" else (None, number)
            i += 3
            continue
        if key in ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits"):
            values[key] = int(tokens[i + 1])
            i += 2
            continue
        i += 1
    pv = tuple(tokens[i + 1 :])
    result.nodes, result.nps = values.get("nodes", result.nodes), values.get("nps", result.nps)
    result.millis = values.get("time", result.millis)
    return ScoredLine(values.get("multipv", 1), values.get("depth", 0), cp, mate, pv)


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
    """Analysis by Fairy-Stockfish for a game it plays (`variant`), in our rules at the root."""

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
        # one engine process answers one search at a time: pages and reports in one kernel
        # (the explorer's Analysis, a Replay's report) share it through get_engine
        self._one_at_a_time = threading.RLock()
        self.fsf = FairyStockfish(variant, path=path)
        try:
            self.rules_match, self.check, known = self._check_rules()
            if not self.rules_match and (require_same_rules or known is None):
                raise EngineError(
                    f"{self.fsf.name} plays {variant} by other rules than {game.id}: {self.check}"
                )
        except BaseException:
            self.fsf.close()
            raise

    def _check_rules(self) -> tuple[bool, str, str | None]:
        """perft from the start position, the engine's against ours: (same, what was compared,
        the known difference it shows or None)."""
        depth = CHECK_DEPTH.get(self.variant, 3)
        start = self.game.initial_state()
        theirs = self.fsf.perft(start.to_text(), depth)[0]
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
            return self._analyse(state, viewer=viewer, limit=limit, progress=progress, stop=stop)

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
        to_engine = self.translation(state)
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
            return self._as_analysis(state, viewer, ruled, found, started, unvalued, from_engine)

        found = EngineSearch()
        if searched:
            found = self.fsf.search(
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
                theirs = self.fsf.legal_moves(state.to_text())
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
