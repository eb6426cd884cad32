"""Many games -> a JSON Lines stream of records: on one core, on all cores, or on a Dask
cluster, with a progress bar; reproducible from a seed and resumable.

    from rules_kernel.simulate import simulate
    simulate("yokai-3x4", 1000, agents=("random", "greedy"), seed=7, output="games.jsonl",
             workers=2)

Game i is played with its own seed derived from (seed, i), so the same call gives the same
records whatever the number of workers, and a stopped run can go on where it stopped
(`resume=True` keeps the records already in the file and plays the rest). Every record
carries its run's parameters (`meta.run`: seed, game, agents, max_plies; the options are the
record's own `options`), so resuming with other parameters is refused instead of mixing two
runs in one file, and a last line torn by a kill is cut off with a warning.

Ctrl-C raises `SimulationInterrupted` (a KeyboardInterrupt) after stopping the workers and
closing the file, which then holds only whole records, exactly the games the exception
counts; a crashed worker raises `SimulationError` (one line). The workers are this module's
own processes (`_Pool`): stopped and joined before `simulate` returns or raises, and ended
by the system when their parent dies, even by SIGKILL.

The games behind the statistics are experiments (`experiment_task`, `play_tasks`): the data
files' command (`python -m rules_kernel.make_data`) and the dashboard's "Run more games" play
them here, on the same process pool.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, NamedTuple

from tqdm.auto import tqdm

from rules_kernel import core, parts, registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.agents import agent_view, make_agent
from rules_kernel.records import Record, RecordError, RecordWriter, one_line, scan_records


class SimulationError(RuntimeError):
    """A game could not be played (a worker died or failed); the message is one line and
    says how many games the output file holds."""


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: the output file was closed holding `written` whole records."""

    def __init__(self, written: int, total: int, output: str | None) -> None:
        self.written, self.total, self.output = written, total, output
        where = f"; {output} holds them: run again with resume to go on" if output else ""
        super().__init__(f"interrupted after {written} of {total} games{where}")


class ResumeWarning(UserWarning):
    """Resume repaired the output file (a last line torn by a kill was cut off)."""


def game_seed(seed: int, index: int) -> str:
    """The seed of game `index` of a run: independent of workers and of order."""
    return f"{seed}:{index}"


def play_game(
    game: core.Game,
    agents: Sequence[str],
    seed: int | str,
    max_plies: int | None = None,
    index: int | None = None,
    run: dict[str, Any] | None = None,
) -> Record:
    """One game between agents (names as `make_agent` takes them), as a record. Each agent
    is given only its player's view of the state, with perfect memory (`agent_view`).
    `run`: the parameters of the simulation this game belongs to, kept in `meta.run`."""
    if len(agents) != game.num_players:
        raise core.OptionError(f"{game.id} needs {game.num_players} agents, got {len(agents)}")
    rng = random.Random(f"chance:{seed}")
    players = [make_agent(name, seed=f"{seed}:{i}") for i, name in enumerate(agents)]
    state = game.initial_state()
    actions: list[str] = []
    while not state.is_terminal() and (max_plies is None or len(actions) < max_plies):
        player = state.current_player
        if player == core.CHANCE:
            action = str(state.sample_chance(rng))
        else:
            action = str(players[player].choose(agent_view(state, player)))
        state = state.apply(action)
        actions.append(action)
    meta: dict[str, Any] = {"seed": str(seed)}
    if index is not None:
        meta["index"] = index
    if run is not None:
        meta["run"] = dict(run)
    if max_plies is not None and not state.is_terminal():
        meta["stopped_after"] = max_plies
    names = [{"name": f"{name} {i + 1}", "agent": name} for i, name in enumerate(agents)]
    record = Record.from_actions(game, actions, players=names, meta=meta)
    if record.result is None:
        record = Record(
            record.game,
            record.options,
            record.actions,
            record.players,
            core.Outcome.unfinished(f"stopped after {len(actions)} actions").to_dict(),
            record.meta,
        )
    return record


def _play_task(task: tuple) -> str:
    game_id, options, agents, seed, index, max_plies = task
    game = registry.load_game(game_id, **options)
    run = {"seed": seed, "game": game_id, "agents": list(agents), "max_plies": max_plies}
    return play_game(game, agents, game_seed(seed, index), max_plies, index, run).to_json()


def simulate(
    game: str | core.Game,
    games: int,
    *,
    agents: Sequence[str] = ("random", "random"),
    seed: int = 0,
    options: dict[str, Any] | None = None,
    output: str | os.PathLike | None = None,
    workers: int = 1,
    client: Any = None,
    max_plies: int | None = None,
    resume: bool = False,
    progress: bool = True,
) -> list[Record]:
    """Play `games` games and return their records (and write them to `output`).

    workers: processes on this machine (0: all cores); client: a dask.distributed Client
    to run on a cluster instead. The records come back in game order either way.
    resume: keep the records already in `output` (written by a run with the same game,
    options, agents, seed and max_plies; anything else is refused) and play the rest.
    """
    game_id, options = _checked_request(game, options, games, agents, workers, max_plies)
    run = {"seed": seed, "game": game_id, "agents": list(agents), "max_plies": max_plies}
    done: list[Record] = []
    if output is not None and resume:
        done = resume_records(output, options, run)[:games]
    tasks = [(game_id, options, tuple(agents), seed, i, max_plies) for i in range(len(done), games)]
    records = list(done)
    bar = writer = lines = None
    try:
        try:
            with signals_deferred():  # made together, so the clean-up below finds both or neither
                bar = tqdm(total=games, initial=len(done), desc=game_id, unit="game", disable=not progress)
                writer = RecordWriter(output, append=resume) if output is not None else None
                if writer:
                    writer.__enter__()
            lines = _run(tasks, workers, client)
            for line in _checked(lines, records, output):
                # written, counted and shown in one step: an interrupt comes before it or after
                # it, so the file holds exactly the games the message counts, each line whole
                with signals_deferred():
                    record = Record.from_json(line)
                    records.append(record)
                    if writer:
                        writer.write(record)
                    bar.update()
        finally:
            with signals_deferred():  # the clean-up runs to its end; an interrupt waits for it
                if lines is not None:
                    lines.close()  # stops the workers at once when the loop ended early
                if bar is not None:
                    bar.close()  # its last line ends here: a message after it starts a new line
                if writer:
                    writer.__exit__(None, None, None)
    except KeyboardInterrupt:
        raise SimulationInterrupted(len(records), games, None if output is None else str(output)) from None
    return records


def _checked_request(
    game: str | core.Game,
    options: dict[str, Any] | None,
    games: int,
    agents: Sequence[str],
    workers: int,
    max_plies: int | None,
) -> tuple[str, dict]:
    """Everything a run needs, checked before the first game (OptionError)."""
    for name, value, low in (("games", games, 0), ("workers", workers, 0), ("max_plies", max_plies, 1)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < low):
            raise core.OptionError(f"{name} must be a whole number >= {low}, got {value!r}")
    loaded = game if isinstance(game, core.Game) else registry.load_game(game, **dict(options or {}))
    if len(agents) != loaded.num_players:
        raise core.OptionError(f"{loaded.id} needs {loaded.num_players} agents, got {len(agents)}")
    for name in agents:
        make_agent(name)  # a bad agent name fails now, not in a worker
    return loaded.id, dict(loaded.options)


def _checked(lines: Iterator[str], records: list[Record], output: Any) -> Iterator[str]:
    """The workers' lines; a failed or dead worker becomes one SimulationError."""
    try:
        yield from lines
    except _PoolFailure as exc:  # a worker died, or a game failed in one: said in words there
        raise SimulationError(_failure(len(records), output, exc.what)) from None
    except (Exception, SystemExit) as exc:
        # a developer's tool: the details, where an error keeps them apart (TablebaseError)
        reason = f"{type(exc).__name__}: {one_line(str(getattr(exc, 'detail', None) or exc))}"
        raise SimulationError(_failure(len(records), output, f"a game failed ({reason})")) from exc


def _failure(index: int, output: Any, what: str) -> str:
    """Games are delivered in order, in chunks: `index` is the first one not delivered."""
    kept = f"; {output} holds the {index} games before it (resume goes on)" if output else ""
    return f"stopped at game {index}: {what}{kept}"


# --- resuming ----------------------------------------------------------------------------------


def resume_records(output: str | os.PathLike, options: dict[str, Any], run: dict[str, Any]) -> list[Record]:
    """The records already in `output`, each checked to come from the run described by `run`
    and `options` (RecordError naming the line if not; the file is then left as it was).
    A last line torn by a kill is then cut off, with a ResumeWarning."""
    path = Path(output)
    if not path.exists() or path.stat().st_size == 0:
        return []
    torn = _torn_tail(path)
    done = _whole_records(path, skip_last_error=torn is not None and not torn.whole)
    for index, record in enumerate(done):
        _check_same_run(record, index, options, run)
    if torn is not None:
        _repair(path, torn)
    return done


class _Tail(NamedTuple):
    start: int  # the offset where the last line starts
    size: int  # its length in bytes (no newline at its end)
    whole: bool  # a whole record that only lacks its newline


def _torn_tail(path: Path) -> _Tail | None:
    """The last line if the file does not end with a newline (what a kill during a write
    leaves), else None."""
    size = path.stat().st_size
    start = _start_of_last_line(path, size)
    with open(path, "rb") as stream:
        stream.seek(start)
        tail = stream.read()
    if tail.endswith(b"\n"):
        return None
    return _Tail(start, len(tail), _is_whole_record(tail))


def _whole_records(path: Path, *, skip_last_error: bool) -> list[Record]:
    """Every record of the file; a bad line raises, except a torn last line when asked."""
    done: list[Record] = []
    pending: RecordError | None = None
    for item in scan_records(path):
        if pending is not None:
            raise pending
        if isinstance(item, RecordError):
            pending = item
        else:
            done.append(item)
    if pending is not None and not skip_last_error:
        raise pending
    return done


def _repair(path: Path, tail: _Tail) -> None:
    with open(path, "rb+") as stream:
        if tail.whole:
            stream.seek(0, os.SEEK_END)
            stream.write(b"\n")
            return
        stream.truncate(tail.start)
    warnings.warn(
        f"{path}: the last line was cut off by a stopped run ({tail.size:,} bytes); "
        f"removed it and resuming after the whole records before it",
        ResumeWarning,
        stacklevel=2,
    )


def _start_of_last_line(path: Path, size: int, chunk: int = 1 << 16) -> int:
    """The offset just after the last newline before the file's final byte (0 if none)."""
    with open(path, "rb") as stream:
        end = size - 1  # the final byte may be the newline that ends the last line
        while end > 0:
            begin = max(0, end - chunk)
            stream.seek(begin)
            found = stream.read(end - begin).rfind(b"\n")
            if found >= 0:
                return begin + found + 1
            end = begin
    return 0


def _is_whole_record(tail: bytes) -> bool:
    try:
        Record.from_json(tail.decode("utf-8"))
    except (RecordError, UnicodeDecodeError):
        return False
    return True


def _check_same_run(record: Record, index: int, options: dict[str, Any], run: dict[str, Any]) -> None:
    def refuse(what: str) -> RecordError:
        return RecordError(
            f"{what}; resume needs the same game, options, agents, seed and "
            "max plies (or another output file)",
            source=record.source,
            line=record.line,
        )

    theirs = record.meta.get("run")
    if not isinstance(theirs, dict):
        raise refuse("this record does not say which run wrote it (no meta.run)")
    for key in ("game", "agents", "seed", "max_plies"):
        if theirs.get(key) != run[key]:
            raise refuse(f"written by a run with {key} {theirs.get(key)!r}, not {run[key]!r}")
    changed = sorted(
        k
        for k in set(options) | set(record.options)
        if _canonical(options.get(k)) != _canonical(record.options.get(k))
    )
    if changed:
        raise refuse(f"written by a run with other options ({', '.join(changed)})")
    if record.meta.get("index") != index:
        raise refuse(f"game {record.meta.get('index')!r} where game {index} was expected")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


# --- experiments: the games behind the statistics ----------------------------------------------

#: seats: random against random, so any difference is the seat's (the first-player advantage);
#: agents: greedy against random, greedy on each seat in turn (the agent effect apart from the seat)
EXPERIMENTS = ("seats", "agents")
#: the seed of the shipped data files (make_data) and of the dashboard's further games
EXPERIMENT_SEED = 2026


@dataclass(frozen=True)
class Task:
    """One game of an experiment: which game and options, who sits where, and its seed."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agents: tuple[str, ...]
    experiment: str
    index: int
    seed: str


def experiment_task(game: str, experiment: str, index: int, seed: int = EXPERIMENT_SEED) -> Task:
    """Game `index` of `experiment` for `game`: its seating, options and seed.

    The options are the game's for a setting (its "statistics" part, `data_options`: To War!
    cycles through its army pairs): setting `index` in `seats`; in `agents` the games 2k and
    2k+1 share setting k and swap the seats (greedy first in even games), so every setting is
    played from both. Game i's seed is "<seed>:<experiment>:<game>:<i>": a run can be repeated
    exactly and more games added later."""
    cls = registry.game_class(game)
    if experiment not in EXPERIMENTS:
        raise core.OptionError(f"unknown experiment {experiment!r}; experiments: {', '.join(EXPERIMENTS)}")
    seats = cls(**parts.data_options(cls, 0)).num_players  # settings never change the number of seats
    options = parts.data_options(cls, index if experiment == "seats" else index // seats)
    agents = ("random",) * seats
    if experiment == "agents":
        agents = tuple("greedy" if p == index % seats else "random" for p in range(seats))
    frozen = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())
    return Task(game, frozen, agents, experiment, index, f"{seed}:{experiment}:{game}:{index}")


def play_task(task: Task) -> Record:
    """Play one experiment game to its end (or its game's cap, `Game.DATA_MAX_PLIES`); the
    record's meta names the experiment."""
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in task.options}
    game = registry.load_game(task.game, **options)
    record = play_game(game, task.agents, task.seed, game.DATA_MAX_PLIES, task.index)
    meta = {**record.meta, "experiment": task.experiment}
    return Record(record.game, record.options, record.actions, record.players, record.result, meta)


def _play_experiment_task(task: Task) -> str:  # records cross process boundaries as JSON text
    return play_task(task).to_json()


def play_tasks(tasks: Sequence[Task], workers: int = 1, bar: Any = None) -> Iterator[Record]:
    """The records of `tasks`, in order, on `workers` processes (0: all cores; the pool of
    `simulate`); `bar.update()` after each."""
    lines = _run(list(tasks), workers, None, _play_experiment_task)
    try:
        for line in lines:
            if bar is not None:
                bar.update()
            yield Record.from_json(line)
    finally:
        lines.close()  # stops the workers at once when the caller stopped early


# --- running the games -------------------------------------------------------------------------


def _run(tasks: list, workers: int, client: Any, play: Callable[[Any], str] | None = None) -> Iterator[str]:
    """The games' record lines in game order (a generator: closing it stops the workers).
    `play` turns a task into its record line: `_play_task` (looked up now, so a test may
    replace it) unless given."""
    play = play or _play_task
    if client is not None:
        yield from _run_dask(tasks, client, play)
        return
    workers = (os.cpu_count() or 1) if workers == 0 else workers
    if workers <= 1 or len(tasks) <= 1:
        yield from map(play, tasks)
        return
    yield from _run_pool(tasks, workers, play)


def _run_dask(tasks: list, client: Any, play: Callable[[Any], str]) -> Iterator[str]:
    futures = client.map(play, tasks, pure=False)
    try:
        for future in futures:  # in game order
            yield future.result()
    finally:
        client.cancel(futures)


def _run_pool(tasks: list, workers: int, play: Callable[[Any], str]) -> Iterator[str]:
    pool = _Pool(tasks, workers, play)
    try:
        pool.start()
        yield from pool.lines()
    finally:
        pool.stop()


class _PoolFailure(Exception):
    """A worker died or a game failed in one; `what` says which, in words."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


# The pool is our own, not concurrent.futures' ProcessPoolExecutor (issue 44): the executor
# runs a manager thread and registers an interpreter-exit hook that writes into a wake-up
# pipe the thread may already have closed (an "Exception ignored ... Bad file descriptor"
# traceback after Ctrl-C, at random), and it offers no way to end running tasks. Here the
# parent's main thread does everything itself: it starts the workers, hands each one chunk
# of games at a time over its own pipe, waits on the pipes and on the processes' sentinels
# (a dead worker is seen at once), and on the way out kills and joins every worker before
# it returns. No helper thread, no exit hook, nothing left running: the order of the
# shutdown is fixed. A worker dies with its parent however the parent dies (`_die_with`).


@dataclass
class _Worker:
    process: Any  # a multiprocessing Process
    conn: Any  # the parent's end of its pipe
    chunk: tuple[int, int] | None = None  # the games it is playing, [start, stop)


class _Pool:
    """Worker processes playing `tasks` in chunks; `lines()` gives the record lines in game
    order; `stop()` ends every worker (always call it: `_run_pool` does)."""

    def __init__(self, tasks: list, workers: int, play: Callable[[Any], str]) -> None:
        self.tasks, self.play = tasks, play
        # small chunks: records reach the file steadily, and Ctrl-C or a crash loses little work
        size = max(1, min(len(tasks) // (workers * 8), 16))
        self.chunks = deque((start, min(len(tasks), start + size)) for start in range(0, len(tasks), size))
        self.count = min(workers, len(self.chunks))
        self.workers: list[_Worker] = []
        self.finished = False

    def start(self) -> None:
        # fork where there is fork (Linux): the tasks and `play` are inherited, not pickled (a
        # test may replace `_play_task`), and a worker starts in milliseconds
        fork = sys.platform.startswith("linux")
        context = multiprocessing.get_context("fork" if fork else None)
        for std in (sys.stdout, sys.stderr):  # what a forked child would otherwise write again
            with contextlib.suppress(Exception):
                std.flush()
        parent = os.getpid()
        for _ in range(self.count):
            ours, theirs = context.Pipe()
            # a forked child holds copies of the parent's ends of every pipe made so far; it
            # closes them, or a worker would never see its own pipe close (its end of the run)
            inherited = [w.conn.fileno() for w in self.workers] + [ours.fileno()] if fork else []
            process = context.Process(
                target=_worker, args=(self.play, self.tasks, theirs, parent, inherited), daemon=True
            )
            # Signals are held while the process is made: a Ctrl-C between the fork and the
            # worker's own signal set-up must not reach the parent's handler copied into the
            # child (a KeyboardInterrupt traceback from the worker), and the parent must not be
            # interrupted before it knows the worker (which stop() then ends).
            with signals_deferred(), _signals_blocked():
                process.start()
                self.workers.append(_Worker(process, ours))
            theirs.close()
        for worker in self.workers:
            self._hand_out(worker)

    def _hand_out(self, worker: _Worker) -> None:
        """Give the worker the next chunk, or close its pipe (it then exits) if none is left."""
        if not self.chunks:
            worker.chunk = None
            worker.conn.close()
            return
        worker.chunk = self.chunks.popleft()
        # a worker already gone (killed from outside): its sentinel tells lines() so
        with contextlib.suppress(OSError):
            worker.conn.send_bytes(json.dumps(worker.chunk).encode())

    def lines(self) -> Iterator[str]:
        """The record lines in game order. A dead worker or a failed game raises _PoolFailure
        once every game before it is delivered (the file then ends just before it)."""
        done: dict[int, tuple[int, list[str], str | None]] = {}  # start -> (stop, lines, failure)
        failing = False  # after a failure no chunk is handed out; those before it still come in
        next_game = 0
        while next_game < len(self.tasks):
            if next_game in done:
                stop, lines, failure = done.pop(next_game)
                yield from lines
                if failure is not None:
                    raise _PoolFailure(failure)
                next_game = stop
                continue
            # the chunk of next_game was handed out (chunks go out in order, and after a
            # failure only the failed chunk's followers are held back): someone is busy
            busy = [w for w in self.workers if w.chunk is not None]
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.conn in ready:
                    try:
                        answer = json.loads(worker.conn.recv_bytes())
                    except (EOFError, OSError):  # died while answering, or its pipe broke
                        answer = None
                elif worker.process.sentinel in ready:
                    answer = None  # exited without an answer
                else:
                    continue
                start, stop = worker.chunk
                worker.chunk = None
                if answer is None:
                    done[start] = (stop, [], "a worker process died")
                    failing = True
                    continue
                failure = answer["failure"]
                done[start] = (
                    stop,
                    answer["lines"],
                    None if failure is None else f"a game failed ({failure})",
                )
                failing = failing or failure is not None
                if not failing:
                    self._hand_out(worker)
        self.finished = True

    def stop(self) -> None:
        """End every worker and wait for it: at once after an interrupt or a failure (SIGKILL:
        their games in progress are given up), after their last chunk when the run finished
        (they exit when their pipe closes). Signals wait until this is done, so the shutdown
        always runs to its end; it is bounded (a worker that does not exit is killed)."""
        with signals_deferred():
            for worker in self.workers:
                if not self.finished:
                    _kill(worker.process)
                with contextlib.suppress(OSError):
                    worker.conn.close()
            for worker in self.workers:
                worker.process.join(timeout=STOP_SECONDS)
                if worker.process.exitcode is None:  # did not exit: no longer asked
                    _kill(worker.process)
                    worker.process.join(timeout=STOP_SECONDS)
                if worker.process.exitcode is not None:
                    worker.process.close()
            self.workers = []


STOP_SECONDS = 5.0  # how long stop() waits for a worker to exit (a killed one takes milliseconds)


def _kill(process: Any) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        process.kill()


def _worker(play: Callable[[Any], str], tasks: list, conn: Any, parent: int, inherited: list[int]) -> None:
    """A worker's life: play the chunks its parent hands it, answer each with its record lines
    (JSON text: nothing is unpickled from the pipe), exit when the pipe closes. Ctrl-C is left
    to the parent, which reaches the whole terminal's process group: the parent stops the
    workers itself, so no worker prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler a fork copied
    _unblock_signals()  # held by the parent while it made this process (_Pool.start)
    _die_with(parent)
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    try:
        while True:
            try:
                start, stop = json.loads(conn.recv_bytes())
            except (EOFError, OSError):  # the parent closed the pipe (no more games) or is gone
                break
            lines: list[str] = []
            failure = None
            try:
                for index in range(start, stop):
                    lines.append(play(tasks[index]))
            except (Exception, SystemExit) as exc:
                # a developer's tool: the details, where an error keeps them apart (TablebaseError)
                failure = f"{type(exc).__name__}: {one_line(str(getattr(exc, 'detail', None) or exc))}"
            conn.send_bytes(json.dumps({"lines": lines, "failure": failure}).encode())
            if failure is not None:
                break
    except (OSError, ValueError):
        pass  # the parent went away while we answered: nothing to say to anyone
    finally:
        # straight out: no exit hooks, and no flushing of buffers a fork copied from the parent
        # (its stdout, its output file), which would write them a second time
        os._exit(0)


PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_SECONDS = 0.5


def _die_with(parent: int) -> None:
    """End this worker when its parent dies, however it dies (SIGKILL included, when no
    clean-up of the parent's runs). On Linux the kernel does it: prctl(PR_SET_PDEATHSIG)
    sends this process SIGKILL when the parent's thread that made it exits. Everywhere, and
    in case that is unavailable, a thread polls the parent's id: an orphan is adopted by
    another process (init or a subreaper), so a changed parent id means the parent is gone.
    Checked once at once too: the parent may have died before prctl was called."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# --- signals: clean-ups that run to their end ------------------------------------------------

_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and SIGTERM while the block runs, then act on the first one held
    as the handler that was in place would have (KeyboardInterrupt for Ctrl-C; the command
    line's handler; SIGTERM's default ends the process). For the steps that must not be cut
    in half: a record and its newline written and counted together, the workers stopped and
    joined. Python runs signal handlers in the main thread only; elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous: dict[int, Any] = {}
    try:
        for signum in _STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if handler is None:  # installed outside Python: left alone
                continue
            previous[signum] = handler
            signal.signal(signum, lambda number, frame: held.append(number))
        yield
    finally:
        _restore_handlers(previous)
        if held:
            signal.raise_signal(held[0])  # handled at once, here, by the handler restored above


def _restore_handlers(previous: dict[int, Any]) -> None:
    """Put every handler back, even if a signal comes half-way and the handler put back first
    raises (KeyboardInterrupt): the rest are put back too, then that exception goes on. A
    handler left out would swallow its signal for good."""
    todo = dict(previous)
    raised: BaseException | None = None
    while todo:
        try:
            while todo:
                signum = next(iter(todo))
                signal.signal(signum, todo[signum])
                del todo[signum]
        except BaseException as exc:  # noqa: B036 - re-raised below, once all are back
            raised = raised or exc
    if raised is not None:
        raise raised


@contextlib.contextmanager
def _signals_blocked() -> Iterator[None]:
    """Block SIGINT and SIGTERM in this thread at the system level (a forked child inherits
    the mask and unblocks them once its own handlers are set); Python still sees them after."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _unblock_signals() -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
