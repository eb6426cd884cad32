"""`rules-explorer`: the command line.

    rules-explorer games                          the game ids and their options
    rules-explorer perft yokai-3x4 6              leaf counts for depths 1..6
    rules-explorer play yokai-5x6 --seed 7 -o game.jsonl   a random game to a record
    rules-explorer replay games.jsonl             validate a record file, print a summary
    rules-explorer simulate to-war -n 500 --agents greedy,random --workers 0 -o games.jsonl
    rules-explorer analyse games.jsonl -o report.parquet   every ply's value and loss, a table
    rules-explorer analyse games.jsonl -o report.parquet --dask --workers 4   one task a game
    rules-explorer check-game mygame:MyGame       does your own game follow the protocol?
    rules-explorer draw games.jsonl -o game.gif   a picture (a command of widgets/, found by
                                                  its entry point: the kernel imports no widget)

Bad input ends with one line on stderr (`rules-explorer: error: ...`) and exit status 2; a
run that fails or is interrupted ends with one line too (status 1; 130 for Ctrl-C, 143 for
SIGTERM, after the command's clean-up: workers stopped, partial files and locks removed).
Set RULES_EXPLORER_TRACEBACK=1 to see the Python traceback of an unexpected failure.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import importlib
import os
import random
import re
import shlex
import signal
import sys
import threading
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

import rules_kernel as rk
from rules_kernel import records

PROG = "rules-explorer"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (0 ok, 1 failed, 2 bad input, 130 Ctrl-C,
    143 SIGTERM). `argv` None: the command line (`rules-explorer ...`), whose process exits
    next; a list: a call from Python, whose signal handlers are restored on return."""
    global _stop_signal, _running
    _stop_signal, _running = None, True
    previous = _catch_stop_signals()
    status: Any = 1
    try:
        status = _run_command(argv)
    except SystemExit as exc:  # argparse's --help and its refusals
        status = exc.code
        raise
    finally:
        _running = False
        if argv is None:
            _exit_at_once_on_a_late_signal(status)
        else:
            _restore_signals(previous)
    return status


def _run_command(argv: Sequence[str] | None) -> int:
    try:
        args = _parser().parse_args(argv)
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return args.run(args)
    except KeyboardInterrupt as exc:
        return _stopped(exc)
    except Exception as exc:
        if _stop_signal is not None:  # what an interrupt became on its way out (a closed pipe...)
            return _stopped(exc)
        return _failed(exc)


def _failed(exc: Exception) -> int:
    from rules_kernel.simulate import SimulationError

    if isinstance(exc, rk.RulesError):  # a developer's tool: the details (a table's file, the command)
        return _fail(f"error: {getattr(exc, 'detail', None) or exc}", 2)
    if isinstance(exc, OSError):
        return _fail(f"error: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}", 1)
    if isinstance(exc, SimulationError):
        return _fail(f"error: {exc}", 1)
    if os.environ.get("RULES_EXPLORER_TRACEBACK"):
        raise exc
    return _fail(
        f"internal error ({type(exc).__name__}: {records.one_line(str(exc))}); "
        "set RULES_EXPLORER_TRACEBACK=1 to see where",
        1,
    )


# --- Ctrl-C and SIGTERM: one line, whatever the moment ---------------------------------------
#
# Both signals raise KeyboardInterrupt in the command (SIGTERM is how a server or `timeout`
# stops it), so one path cleans up for both: each command's `finally` blocks stop workers,
# remove partial files and release locks, then `_stopped` closes the progress bars and
# prints one line. Only the first signal interrupts: a second one while that clean-up runs
# would cut it in half (workers left, a lock left, a traceback), so it is ignored; the
# clean-up is bounded (workers are killed, not waited for). A signal that lands inside a
# progress bar's drawing or an object's finalizer (where Python would print "Exception
# ignored" and swallow it) is sent again a moment later, once that code is left.

_stop_signal: int | None = None  # the signal that is stopping the command
_running = False  # main() is running (a signal sent again after it returned is not needed)
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
RETRY_SECONDS = 0.05


def _catch_stop_signals() -> dict[Any, Any]:
    """Install the handler for SIGINT and SIGTERM, and the hook that sees an interrupt Python
    swallowed (below); returns what they replaced (nothing outside the main thread, where
    Python cannot set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[Any, Any] = {signum: signal.signal(signum, _on_stop_signal) for signum in _STOP_SIGNALS}
    global _unraisable_before
    previous["unraisablehook"] = _unraisable_before = sys.unraisablehook
    sys.unraisablehook = _on_unraisable
    return previous


def _restore_signals(previous: dict[Any, Any]) -> None:
    for key, handler in previous.items():
        if key == "unraisablehook":
            sys.unraisablehook = handler
        elif handler is not None:
            signal.signal(key, handler)


def _on_unraisable(unraisable: Any) -> None:
    """Python's hook for an exception it cannot raise ("Exception ignored in ..."): the
    interrupt, raised where `_cannot_raise_here` did not foresee (a generator closed by the
    garbage collector, whose frames name nothing special), would be printed and lost, and the
    command would run on to its end (a fresh-machine run: status 0 and a traceback). It is
    sent again a moment later instead, and says nothing; anything else is printed as Python
    prints it."""
    global _stop_signal
    if issubclass(unraisable.exc_type, KeyboardInterrupt) and _running and _stop_signal is not None:
        signum, _stop_signal = _stop_signal, None
        timer = threading.Timer(RETRY_SECONDS, _send_again, (signum,))
        timer.daemon = True
        timer.start()
        return
    _unraisable_before(unraisable)


_unraisable_before: Any = sys.__unraisablehook__  # the hook `_on_unraisable` hands the rest to


def _on_stop_signal(signum: int, frame: Any) -> None:
    global _stop_signal
    if _stop_signal is not None:
        return  # already stopping: the first signal's clean-up runs to its end
    if _cannot_raise_here(frame):
        timer = threading.Timer(RETRY_SECONDS, _send_again, (signum,))
        timer.daemon = True
        timer.start()
        return
    _stop_signal = signum
    raise KeyboardInterrupt


def _send_again(signum: int) -> None:
    if _running and _stop_signal is None:
        os.kill(os.getpid(), signum)


# Code an exception must not cut in half: finalizers (an exception there is swallowed as
# "Exception ignored"), progress bars (left half drawn, closed without their newline), and
# numba's loading of compiled code into LLVM: an LLVM object whose wrapper was cut before
# its last attribute fails in its own finalizer later, after the command's line ("Exception
# ignored in ObjectRef.__del__", once in ~10 interrupted `solve` runs). Loading cached code
# takes under a second; compiling, in the compiler's other steps, stays interruptible.
_UNCUT_MODULES = ("weakref", "multiprocessing.util", "tqdm", "llvmlite.binding", "numba.core.codegen")


def _cannot_raise_here(frame: Any) -> bool:
    """The signal came while code that must not be cut in half ran (above)."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if frame.f_code.co_name == "__del__" or module.startswith(_UNCUT_MODULES):
            return True
        frame = frame.f_back
    return False


_EXITING_AS_COMMAND = False  # main() ran as the process's command (argv None): its exit is ours


def _ignore_signals_while_tearing_down() -> None:
    """An exit hook, registered when this module is imported, so that it runs after the
    command's own (last in, first out): from here the interpreter only tears itself down,
    and that resets every Python signal handler to the default, under which a Ctrl-C kills
    the process (status -2, no line) after the command had said everything (the interrupt
    test failed so in 1 of 3 local runs; 3 of 50 signal moments of a sweep).
    Ignored instead: the process ends with its status."""
    if _EXITING_AS_COMMAND and threading.current_thread() is threading.main_thread():
        for signum in _STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


atexit.register(_ignore_signals_while_tearing_down)


def _exit_at_once_on_a_late_signal(status: Any) -> None:
    """The command has done everything and said so; the interpreter exits next. A signal now
    ends the process at once with the command's status: nothing is left to clean up, and no
    exit hook is interrupted half-way (a traceback after the last line)."""
    global _EXITING_AS_COMMAND
    if threading.current_thread() is not threading.main_thread():
        return
    _EXITING_AS_COMMAND = True
    code = status if isinstance(status, int) else (0 if status is None else 1)

    def leave(signum: int, frame: Any) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)

    for signum in _STOP_SIGNALS:
        signal.signal(signum, leave)


def _stopped(exc: BaseException) -> int:
    """The one line of an interrupted command, on its own line: the progress bars are closed
    first (each ends its line), so none is drawn after it."""
    _close_progress_bars()
    return _fail(_interrupted_text(exc), 128 + (_stop_signal or signal.SIGINT))


def _close_progress_bars() -> None:
    if "tqdm" not in sys.modules:
        return
    from tqdm.std import tqdm

    for bar in list(getattr(tqdm, "_instances", ())):
        with contextlib.suppress(Exception):
            bar.close()


def _interrupted_text(exc: BaseException) -> str:
    word = "terminated (SIGTERM)" if _stop_signal == signal.SIGTERM else "interrupted"
    written, output = getattr(exc, "written", None), getattr(exc, "output", None)
    if written is None:
        return word
    kept = f"; {output} holds them: run the same command with --resume to go on" if output else ""
    return f"{word} after {written} of {exc.total} games{kept}"


def _fail(message: str, status: int) -> int:
    print(f"{PROG}: {records.one_line(message, limit=2000)}", file=sys.stderr)
    return status


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"{PROG}: warning: {records.one_line(str(message), limit=2000)}", file=sys.stderr)


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (no usage block) and do not exit with a traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def _whole(low: int, meaning: str = ""):
    """An argparse type: a whole number of at least `low`."""

    def convert(text: str) -> int:
        # ASCII digits only, as in links and position texts: int() would take '٣' or ' 12 '
        if not re.fullmatch(r"-?[0-9]{1,18}", text):
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}{meaning}, not {value}")
        return value

    convert.__name__ = f"whole number >= {low}"
    return convert


POSITIVE = _whole(1)


@functools.cache  # built once: argparse takes ~40 ms to build it, and parsing leaves it as it was
def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(required=True, metavar="command")

    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(run=_games)

    perft = sub.add_parser(
        "perft",
        help="count leaf positions (move-generator check)",
        description="Leaf counts for depths 1..DEPTH. A game that starts with a deal (cards "
        "or bags drawn by chance) needs a position after the deal: --fen.",
    )
    perft.add_argument("game")
    perft.add_argument("depth", type=POSITIVE, help="the deepest depth to count (at least 1)")
    _option_args(perft)
    perft.add_argument("--fen", help="start from this position text (`state.to_text()`) instead")
    perft.set_defaults(run=_perft)

    play = sub.add_parser("play", help="play a random game and write it as a record")
    play.add_argument("game")
    _option_args(play)
    play.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    play.add_argument(
        "--max-plies",
        type=POSITIVE,
        default=None,
        help="stop an endless game after this many actions (at least 1)",
    )
    play.add_argument("-o", "--output", help="append the record to this .jsonl file (default: print it)")
    play.set_defaults(run=_play)

    sim = sub.add_parser(
        "simulate",
        help="play many games between agents into a record file",
        description="Ctrl-C stops the run leaving only whole records in the file; "
        "--resume goes on (a last line cut off by a kill is removed, with a warning; "
        "a file from a run with other parameters is refused).",
    )
    sim.add_argument("game")
    _option_args(sim)
    sim.add_argument("-n", "--games", type=POSITIVE, default=100, help="how many games (at least 1)")
    sim.add_argument(
        "--agents",
        default="random,random",
        help="comma-separated, one per player: random, greedy, mcts, mcts:<iterations>",
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--workers", type=_whole(0, " (0: all cores)"), default=1, help="processes (0: all cores)"
    )
    sim.add_argument(
        "--max-plies", type=POSITIVE, default=None, help="stop each game after this many actions (at least 1)"
    )
    sim.add_argument("-o", "--output", required=True, help="the .jsonl file to write (or resume)")
    sim.add_argument(
        "--resume",
        action="store_true",
        help="keep the games already in the file (same game, options, agents, seed, "
        "max plies) and play the rest",
    )
    sim.add_argument("--dask", metavar="ADDRESS", help="run on this dask.distributed scheduler")
    sim.set_defaults(run=_simulate)

    replay = sub.add_parser(
        "replay",
        help="validate a record file and summarise it",
        description="Replays every record; reports every bad one (file, line, "
        "ply, reason) and exits with status 2 if there was any.",
    )
    replay.add_argument("file", help="a .jsonl record file, a one-move-per-line game, or a PGN or KIF file")
    replay.add_argument("--quiet", action="store_true", help="print only the summary and the errors")
    replay.set_defaults(run=_replay)
    _add_solve(sub)
    _add_analyse(sub)
    _add_check_game(sub)
    _add_collection(sub)
    _add_convert(sub)
    _add_plugins(sub)
    return parser


def _add_plugins(sub) -> None:
    """Commands other packages of the distribution declare (entry point group
    `rules_explorer.commands`: `widgets` adds `draw`), so the kernel's CLI offers them without
    importing them. A command that fails to load is left out with a warning."""
    from importlib.metadata import entry_points

    for point in entry_points(group="rules_explorer.commands"):
        try:
            point.load()(sub)
        except Exception as exc:  # a broken extra must not take the kernel's commands down
            warnings.warn(f"the command {point.name!r} could not be loaded: {exc}", stacklevel=2)


def _add_analyse(sub) -> None:
    analyse = sub.add_parser(
        "analyse",
        help="analyse recorded games into a report table (one row per ply)",
        description="Every game of FILE analysed ply by ply (rules_kernel.analysis.report): "
        "the mover's value before and after, the loss and its classification. The rows of all "
        "games go to OUTPUT (.parquet or .csv) with the columns game (its line in FILE) and "
        "game_id first; a table per player is printed. Bad records are reported and skipped "
        "(status 2 at the end).",
    )
    analyse.add_argument("file", help="a .jsonl record file, or a one-move-per-line game")
    analyse.add_argument("-o", "--output", required=True, help="the report: a .parquet or .csv file")
    analyse.add_argument(
        "--engine",
        help="table, fairy-stockfish, fsf or ismcts (default: the best the game has; fsf is short "
        "for fairy-stockfish; a position Fairy-Stockfish fails on goes to the tree search: engine ismcts)",
    )
    analyse.add_argument(
        "--seconds", type=float, default=0.25, help="time per position analysed (default 0.25)"
    )
    analyse.add_argument(
        "--playouts", type=POSITIVE, help="tree search: this many playouts per position instead of a time"
    )
    analyse.add_argument("--games", type=POSITIVE, help="analyse only the first GAMES games")
    analyse.add_argument(
        "--all-seeing",
        action="store_true",
        help="analyse every ply with all cards known (default: as its mover knew it)",
    )
    analyse.add_argument(
        "--dask",
        action="store_true",
        help="one task a game on a Dask cluster of this machine's processes (see --workers)",
    )
    analyse.add_argument(
        "--workers", type=POSITIVE, help="--dask: worker processes (default: the machine's cores)"
    )
    analyse.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="one task a game on a running Dask cluster (tcp://host:8786) instead of this machine's",
    )
    analyse.set_defaults(run=_analyse)


def _option_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        "-O",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option; VALUE is JSON (players=4) or a plain word",
    )


def _load(args: argparse.Namespace) -> rk.Game:
    """The game with the -O options; names and value types are checked before any call (a
    name such as `game_id` is an unknown option, not a Python keyword; `players=4.0` is not
    a whole number) by the check every untrusted option source goes through. Local use: a
    To War! `units` path is read, as `rk.load_game` does."""
    known = rk.game_class(args.game).OPTIONS
    options: dict[str, Any] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise rk.OptionError(f"--option {item!r}: write NAME=VALUE")
        if name not in known:
            raise rk.OptionError(
                f"{args.game} has no option {name!r} (its options: {', '.join(sorted(known)) or 'none'})"
            )
        options[name] = _option_value(name, value)
    options = records.check_options(args.game, options, paths=True)
    return rk.load_game(args.game, **options)


def _option_value(name: str, value: str) -> Any:
    def fail(reason: str) -> records.RecordError:
        return records.RecordError(f"--option {name}: {reason}")

    try:
        return records.parse_json(value, fail)
    except records.RecordError as exc:
        if "not valid JSON" in exc.reason:
            return value  # a plain word
        raise


def _games(args: argparse.Namespace) -> int:
    for game_id in rk.list_games():
        cls = rk.game_class(game_id)
        print(f"{game_id}: {cls.title}")
        for name, option in cls.OPTIONS.items():
            print(f"    {name} (default {option.default!r}): {option.doc}")
    return 0


def _perft(args: argparse.Namespace) -> int:
    game = _load(args)
    state = game.from_text(args.fen) if args.fen else game.initial_state()
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        try:
            leaves = rk.perft(state, depth)
        except rk.ChanceNotEnumerableError:
            raise rk.OptionError(_perft_needs_a_position(game, from_start=not args.fen)) from None
        seconds = time.perf_counter() - start
        rate = f"{leaves / seconds:,.0f} leaves/s" if seconds > 0 else ""
        print(f"perft {depth}: {leaves:,}  ({seconds:.3f} s, {rate})")
    return 0


def _perft_needs_a_position(game: rk.Game, *, from_start: bool) -> str:
    """Why perft cannot count here, in words, with a position to start from instead."""
    where = f"{game.id} starts with a deal" if from_start else "this position reaches a deal or draw"
    example = _position_after_chance(game.initial_state())
    offer = f"; for example --fen {shlex.quote(example)}" if example else ""
    return (
        f"perft counts every line of play, and {where} with too many outcomes to count "
        f"them all; perft needs a position after the deal: give one with --fen{offer}"
    )


def _position_after_chance(state: rk.State) -> str | None:
    """The text of a position after the chance events at the start (seeded, so repeatable)."""
    rng = random.Random(0)
    for _ in range(100):
        if state.current_player != rk.CHANCE or state.is_terminal():
            return state.to_text()
        state = state.apply(state.sample_chance(rng))
    return None


def _play(args: argparse.Namespace) -> int:
    game = _load(args)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    rng = random.Random(seed)
    states = [game.initial_state()]
    actions = []
    while not states[-1].is_terminal() and (args.max_plies is None or len(actions) < args.max_plies):
        state = states[-1]
        if state.current_player == rk.CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_moves())
        actions.append(action)
        states.append(state.apply(action))
    players = [{"name": f"random {i + 1}", "agent": "random", "seed": seed} for i in range(game.num_players)]
    record = records.Record.from_actions(game, actions, players, meta={"seed": seed})
    if record.result is None:  # stopped by --max-plies: say so, so the record replays as written
        record = records.Record(
            record.game,
            record.options,
            record.actions,
            record.players,
            rk.Outcome.unfinished(f"stopped after {len(actions)} actions").to_dict(),
            record.meta,
        )
    if args.output:
        records.write_records(args.output, [record], append=True)
        print(f"{len(actions)} actions, {_result_text(record)}; appended to {args.output}")
    else:
        print(record.to_json())
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from rules_kernel.simulate import SimulationInterrupted, simulate

    game = _load(args)
    client = None
    if args.dask:
        from dask.distributed import Client

        client = Client(args.dask, timeout=10)
    games = None
    try:
        try:
            games = simulate(
                game,
                args.games,
                agents=args.agents.split(","),
                seed=args.seed,
                output=args.output,
                workers=args.workers,
                client=client,
                max_plies=args.max_plies,
                resume=args.resume,
            )
        finally:
            if client is not None:
                client.close()
        from rules_kernel import stats  # after the run: its imports (pandas, scipy) take seconds

        print(stats.first_player_advantage(stats.games_frame(games)).to_string(index=False))
    except KeyboardInterrupt as exc:
        if games is None or isinstance(exc, SimulationInterrupted):
            raise
        # after the run, up to the summary's last line (a fresh-machine run saw a bare
        # "interrupted" from there): every game is in the file, say so as a stopped run does
        raise SimulationInterrupted(len(games), args.games, args.output) from None
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Replay every record, go on past bad ones, report each; status 2 if any was bad."""
    games, plies, bad = 0, 0, 0
    results: Counter[str] = Counter()
    for item in _scan(args.file):
        if isinstance(item, records.RecordError):
            bad += 1
            print(f"{PROG}: error: {item}", file=sys.stderr)
            continue
        games += 1
        plies += len(item.actions)
        results[_result_text(item)] += 1
        if not args.quiet:
            print(f"line {item.line or 1}: {item.game}, {len(item.actions)} actions, {_result_text(item)}")
    verdict = "all replayed and valid" if not bad else f"{bad} error(s) reported above"
    print(f"{games} game(s), {plies} actions, {verdict}")
    for text, count in results.most_common():
        print(f"  {count:>6}  {text}")
    return 2 if bad else 0


def _analyse(args: argparse.Namespace) -> int:
    """Every game of the file analysed into one table; a progress bar over the games. With
    --dask or --scheduler each game is one task on a Dask cluster; the table is the same."""
    import pandas as pd

    from rules_kernel import analysis

    if not args.output.endswith((".parquet", ".csv")):
        return _fail(f"--output {args.output!r}: give a .parquet or .csv file", 2)
    if args.seconds <= 0:
        return _fail(f"--seconds must be more than 0, not {args.seconds}", 2)
    if args.workers and not args.dask:
        return _fail("--workers is for --dask (a cluster of this machine's processes)", 2)
    settings = _ReportSettings(
        args.engine, None if args.playouts else args.seconds, args.playouts, args.all_seeing
    )
    items = list(_scan(args.file))
    bad = [item for item in items if isinstance(item, records.RecordError)]
    games = [item for item in items if not isinstance(item, records.RecordError)][: args.games]
    for error in bad:
        print(f"{PROG}: error: {error}", file=sys.stderr)
    try:
        if args.dask or args.scheduler:
            frames = _analyse_on_dask(games, settings, args)
        else:
            frames = [_report_of(record, settings) for record in _bar(games)]
    finally:
        analysis.close_engines()
    if not frames:
        return _fail("no game to analyse" + (" (every record was bad)" if bad else ""), 2)
    table = pd.concat(frames, ignore_index=True)
    _write_report(table, args.output)
    print(f"{len(frames)} game(s), {len(table)} plies analysed into {args.output}")
    by_player = analysis.summary(table).reset_index()
    print(by_player.to_string(index=False))
    return 2 if bad else 0


def _write_report(table, output: str) -> None:
    """The report under a partial name beside OUTPUT, renamed when whole: an interrupt or a
    failure while it is written leaves no half a file (the partial one is removed)."""
    directory, name = os.path.split(os.path.abspath(output))
    partial = os.path.join(directory, f".{name}.{os.getpid()}.partial")
    try:
        if output.endswith(".csv"):
            table.to_csv(partial, index=False)
        else:
            table.to_parquet(partial, index=False)
        os.replace(partial, output)
    except OSError as exc:  # said of OUTPUT, the file asked for, not of the partial name
        raise OSError(exc.errno, exc.strerror or str(exc), output) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(partial)


class _ReportSettings(NamedTuple):
    """What `analyse` asks of every game: plain values, the same on every Dask worker."""

    engine: str | None
    seconds: float | None
    playouts: int | None
    all_seeing: bool


def _report_of(record: records.Record, settings: _ReportSettings):
    """One game's report rows, its line in the file and its game id first. The tree search is
    seeded per position (rules_kernel/analysis/ismcts.py), so with --playouts the rows are the
    same wherever and in whatever order the games run; only the wall times differ."""
    from rules_kernel import analysis
    from rules_kernel.analysis import Limit

    frame = analysis.report(
        record,
        engine=settings.engine,
        limit=Limit(seconds=settings.seconds, playouts=settings.playouts),
        viewer=None if settings.all_seeing else "mover",
        progress=False,
    )
    frame.insert(0, "game_id", record.game)
    frame.insert(0, "game", record.line or 1)
    return frame


def _report_task(task: tuple[str, int, _ReportSettings]):
    """A Dask task: a game sent as its record line (text, checked again here), its report
    back; a rules error comes back as its message (an exception class of ours need not
    survive the trip between processes), and the command reports it as the local run does."""
    text, line, settings = task
    try:
        return _report_of(records.Record.from_json(text, line=line), settings)
    except rk.RulesError as exc:
        return f"{getattr(exc, 'detail', None) or exc}"


def _analyse_on_dask(games: list[records.Record], settings: _ReportSettings, args: argparse.Namespace):
    """The games' reports in file order, one Dask task a game: on the cluster at --scheduler,
    or on a local cluster of --workers processes (one thread each: the engines are Python)."""
    from dask.distributed import Client, LocalCluster, as_completed

    if args.scheduler:
        client, cluster = Client(args.scheduler, timeout=10), None
    else:
        workers = args.workers or os.cpu_count() or 1
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        tasks = [(record.to_json(), record.line or 1, settings) for record in games]
        futures = client.map(_report_task, tasks, pure=False)
        found = {}
        try:
            for future in _bar(as_completed(futures), total=len(futures)):
                found[future.key] = future.result()
        finally:
            client.cancel(futures)
        frames = [found[future.key] for future in futures]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for frame in frames:
        if isinstance(frame, str):
            raise rk.RulesError(frame)
    return frames


def _bar(items, total: int | None = None):
    """A progress bar over the games (none for one game)."""
    from tqdm import tqdm

    total = len(items) if total is None else total
    return tqdm(items, total=total, desc="games analysed", unit="game", disable=total < 2)


def _scan(path: str):
    if path.endswith((".jsonl", ".json", ".ndjson")):
        return records.scan_records(path, replay=True)
    found = records.load(path, errors="collect")
    return [*found.records, *found.errors]


def _result_text(record: records.Record) -> str:
    outcome = record.outcome
    if outcome is None:
        return "no result"
    if not outcome.finished:
        return f"unfinished ({outcome.reason})"
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"winner {outcome.winner} ({outcome.reason})"


# --- solve (the tablebase) ------------------------------------------------------------------


def _add_solve(sub) -> None:
    solve = sub.add_parser(
        "solve",
        help="solve a game by retrograde analysis into a table",
        description="Builds the perfect-play table of a game that declares one ("
        + ", ".join(g for g in rk.list_games() if rk.info(g).solved_table)
        + ") into the cache "
        "directory (RULES_EXPLORER_CACHE, default ~/.cache/rules-explorer), unpacks it for "
        "opening by memory map, and prints the time, the size on disk and the counts. "
        "While it runs, pages that offer perfect play say it is being prepared.",
    )
    solve.add_argument("game")
    solve.add_argument("--threads", type=_whole(1), default=2, help="threads for the first pass")
    solve.add_argument(
        "--reuse",
        action="store_true",
        help="keep a table already built by this version (build only when there is none); "
        "what the publishing set-up runs",
    )
    solve.add_argument(
        "--material",
        default=None,
        metavar="KTG",
        help="a closed sub-game for tests: Kodama, Kitsune and Tanuki counts, 0-2 each (e.g. 001)",
    )
    solve.set_defaults(run=_solve)


def _solve(args: argparse.Namespace) -> int:
    from rules_kernel.tablebase import FULL_MATERIAL, Tablebase, prepare

    material = FULL_MATERIAL if args.material is None else _material(args.material)
    # Ctrl-C, or SIGTERM from the publishing server (main's handler): the build's `finally`
    # blocks remove the half-written files and the lock file (rules_kernel.tablebase)
    started = time.perf_counter()
    path = prepare(args.game, material=material, threads=args.threads, rebuild=not args.reuse)
    seconds = time.perf_counter() - started
    tb = Tablebase.open(args.game, material=material)
    size = os.path.getsize(path)
    built = tb.meta.get("build_seconds")
    print(
        f"{args.game}: ready in {seconds:,.0f} s (the build took {built:,.0f} s); "
        f"{path} ({size / 1e6:,.1f} MB, {tb.nbytes / 1e6:,.0f} MB unpacked)"
    )
    counts = tb.counts()
    for name in ("solved", "non_terminal"):
        c = counts[name]
        print(
            f"{name}: {c['positions']:,} positions; for the mover {c['wins']:,} wins, "
            f"{c['draws']:,} draws, {c['losses']:,} losses (longest {c['longest']} plies)"
        )
    if material != FULL_MATERIAL:
        return 0
    start = rk.load_game(args.game).initial_state()
    print(f"start position: {tb.value(start)} for the first player")
    return 0


def _material(text: str) -> tuple[int, int, int]:
    if len(text) != 3 or any(c not in "012" for c in text):
        raise rk.RulesError(f"--material {text!r}: three digits 0-2 (Kodama, Kitsune, Tanuki), e.g. 001")
    return tuple(int(c) for c in text)


# --- check-game: a user's own game through the conformance suite -------------------------------

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def _add_check_game(sub) -> None:
    check = sub.add_parser(
        "check-game",
        help="check that a game class (your own) follows the protocol",
        description="Imports MODULE from the current folder (or the installed packages) and runs "
        "the protocol's conformance suite on its Game subclass CLASS: random games to their end, "
        "legal moves applied and illegal ones refused, position text read back, garbage text "
        "refused, views, records, the scene. Prints each check and, for one that fails, what "
        "failed and the hook to write or fix. Exit status 0: every check passed; 1: one failed "
        "(or MODULE failed to import); 2: MODULE:CLASS names no game class.",
    )
    check.add_argument("target", metavar="MODULE:CLASS", help="the game class, e.g. mygame:MyGame")
    check.add_argument("--seed", type=int, default=0, help="the random games' seed (default 0)")
    check.add_argument("--games", type=POSITIVE, default=10, help="random games to play (default 10)")
    check.add_argument(
        "--max-plies",
        type=POSITIVE,
        default=None,
        help="a game not over after this many actions fails (default: the game's DATA_MAX_PLIES)",
    )
    check.set_defaults(run=_check_game)


def _check_game(args: argparse.Namespace) -> int:
    from rules_kernel.check import check_game

    found = _game_class_named(args.target)
    if isinstance(found, int):  # the module failed to import: said in one line
        return found
    report = check_game(found, seed=args.seed, games=args.games, max_plies=args.max_plies)
    print(report.text())
    return 0 if report.passed else 1


def _game_class_named(target: str) -> type[rk.Game] | int:
    """The class `MODULE:CLASS` names, imported as `python -m` would from the current folder.
    A name that names no game class is a RulesError (status 2); a module that raises while it
    is imported (the game's own code) is one line and status 1. The names are the user's own,
    given on their own command line: importing them runs their code, as `python -m` does."""
    module_name, colon, class_name = target.partition(":")
    if not colon or not _DOTTED.fullmatch(module_name) or not _DOTTED.fullmatch(class_name):
        raise rk.RulesError(f"check-game takes MODULE:CLASS, e.g. mygame:MyGame, not {target[:80]!r}")
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)  # the user's module beside them, as `python -m` finds it
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default", DeprecationWarning)  # the kernel's word on old hooks
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise rk.RulesError(
                f"no module {module_name!r}: run the command in the folder that holds it "
                f"({module_name.replace('.', '/')}.py), here {here}"
            ) from None
        return _import_failed(module_name, exc)
    except Exception as exc:
        return _import_failed(module_name, exc)
    found: Any = module
    for part in class_name.split("."):
        if not hasattr(found, part):
            classes = sorted(
                name
                for name, value in vars(module).items()
                if isinstance(value, type) and issubclass(value, rk.Game) and value is not rk.Game
            )
            known = f"; its Game classes: {', '.join(classes)}" if classes else "; it defines no Game class"
            raise rk.RulesError(f"module {module_name} has no {class_name!r}{known}")
        found = getattr(found, part)
    if not (isinstance(found, type) and issubclass(found, rk.Game)):
        raise rk.RulesError(
            f"{target} is {type(found).__name__} {found!r:.60}, not a subclass of rules_kernel.Game"
        )
    return found


def _import_failed(module_name: str, exc: BaseException) -> int:
    """One line for a module that raised while imported: what, and the line of the user's file."""
    where = ""
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f" ({exc.filename}, line {exc.lineno})"
    else:
        frames = traceback.extract_tb(exc.__traceback__)
        own = [f for f in frames if "importlib" not in f.filename and f.filename != __file__]
        if own:
            where = f" ({own[-1].filename}, line {own[-1].lineno})"
    message = records.one_line(str(exc), limit=300)
    return _fail(f"error: importing {module_name} failed: {type(exc).__name__}: {message}{where}", 1)


# --- collection: games from folders and archives into Parquet tables ----------------------------


def _add_collection(sub) -> None:
    collection = sub.add_parser(
        "collection",
        help="bring folders, archives and record files into a game collection (Parquet)",
        description="A collection of games (docs/collections.md): three Parquet tables (games, "
        "moves, positions) read by rules_kernel.Collection, DuckDB, pandas or Dask.",
    )
    actions = collection.add_subparsers(required=True, metavar="action")
    imports = actions.add_parser(
        "import",
        help="import the games of folders, .zip/.tar.gz archives and record files",
        description="Reads folders (recursively: their record files and archives), .zip and "
        ".tar.gz archives (members read in memory, never extracted; links, special files, "
        "climbing names and oversized members refused) and record files of every format the "
        "reader knows. Every game is replayed; each bad one is reported (file, line, ply) and "
        "left out, the good ones kept (exit status 2 if anything was reported). Whole or "
        "nothing: an interrupted or failed import leaves no OUTPUT.",
    )
    imports.add_argument("inputs", nargs="+", metavar="DIR_OR_ARCHIVE_OR_FILE")
    imports.add_argument("-o", "--output", required=True, help="the new collection's folder (must not exist)")
    imports.add_argument("--quiet", action="store_true", help="no progress bar")
    imports.add_argument(
        "--workers",
        type=_whole(0, " (0: all cores)"),
        default=1,
        help="processes replaying the games (0: all cores; default 1); the collection is the same",
    )
    imports.set_defaults(run=_collection_import)


def _collection_import(args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm

    from rules_kernel.collection import import_collection

    def said(problem) -> None:
        tqdm.write(f"{PROG}: error: {records.one_line(str(problem), limit=2000)}", file=sys.stderr)

    report = import_collection(
        args.inputs,
        args.output,
        progress=False if args.quiet else None,
        on_problem=said,
        workers=args.workers,
    )
    print(report.summary())
    return 2 if report.problems else 0


# --- convert: a record file into another format -------------------------------------------------

#: the formats `convert` writes, by the output's suffix
_CONVERT_SUFFIXES = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
    ".txt": "text",
    ".pgn": "pgn",
    ".kif": "kif",
    ".kifu": "kif",
    ".ki2": "ki2",
    ".ki2u": "ki2",
    ".csa": "csa",
}


def _add_convert(sub) -> None:
    convert = sub.add_parser(
        "convert",
        help="convert a record file into another format (JSON Lines, PGN, KIF, KI2, CSA, text)",
        description="Reads IN (any record format, told by content), replays every game, and writes "
        "them to OUT in the format its suffix names (.jsonl, .pgn, .kif/.kifu, .ki2/.ki2u, .csa, "
        ".txt) or --to says. Result, ending, players, headers, comments and times are carried into "
        "the new format's own fields (docs/records.md). A bad game stops the conversion before "
        "OUT is written (status 2); KIF, KI2 and the text form hold one game: a file of several "
        "is refused.",
    )
    convert.add_argument("input", metavar="IN")
    convert.add_argument("output", metavar="OUT")
    convert.add_argument(
        "--to", choices=sorted(set(_CONVERT_SUFFIXES.values())), help="the format (default: OUT's suffix)"
    )
    convert.set_defaults(run=_convert)


def _convert(args: argparse.Namespace) -> int:
    from pathlib import Path

    kind = args.to or _CONVERT_SUFFIXES.get(Path(args.output).suffix.lower())
    if kind is None:
        return _fail(
            f"error: {args.output!r}: say the format with --to, or end the name with one of "
            f"{', '.join(sorted(_CONVERT_SUFFIXES))}",
            2,
        )
    if Path(args.output).exists() and Path(args.output).resolve() == Path(args.input).resolve():
        return _fail("error: OUT is IN; write the conversion to another file", 2)
    found = records.read(Path(args.input), name=args.input)
    records.write(args.output, found, format=kind)
    print(f"{len(found)} game(s) written to {args.output} as {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
