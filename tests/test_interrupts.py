"""Interrupting a command never prints a traceback, and processes end with their parent
(issue 44 items 4 and 9).

`rules-explorer simulate` is interrupted at random moments (seeded, so a failure can be
replayed), by Ctrl-C (SIGINT) and SIGTERM, with 1 and 2 workers, while another process keeps
a core busy: every time the command ends with one line of its own (or, stopped after its
work was done, as a finished run), and the file holds whole records only, exactly the games
the line counts, from which `--resume` goes on. SIGKILL of the command leaves no worker
running. `solve`, `analyse` and `replay` end with one line too, and leave no lock file and
no partial output behind.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from rules_kernel.simulate import simulate

EXE = Path(sys.executable).parent / "rules-explorer"
BAD = ("Traceback", "Exception ignored", "Error")  # what a user must never see in stderr
GAMES = 120  # a chain of runs resumes the same file up to this many games, then starts another
SIGNALS = {signal.SIGINT: ("interrupted", 130), signal.SIGTERM: ("terminated (SIGTERM)", 143)}


class Command:
    """`rules-explorer ARGS` in the background; its stderr is read as it comes, so a test
    can wait for the first thing the command draws (its progress bar)."""

    def __init__(self, *args: str, env: dict | None = None) -> None:
        assert EXE.is_file(), f"pip install -e . installs rules-explorer into {EXE.parent}"
        # a shell without job control starts background commands with Ctrl-C ignored; undo that
        self.process = subprocess.Popen(
            [str(EXE), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**(os.environ if env is None else env), "PYTHONFAULTHANDLER": "1"},
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.out, self.err = bytearray(), bytearray()
        self.drew = threading.Event()  # something came on stderr (the progress bar)
        self.said = threading.Event()  # something came on stdout
        self.readers = [
            threading.Thread(target=self._read, args=(stream, into, event), daemon=True)
            for stream, into, event in (
                (self.process.stdout, self.out, self.said),
                (self.process.stderr, self.err, self.drew),
            )
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream, into: bytearray, event: threading.Event) -> None:
        while chunk := stream.read1(4096):
            into += chunk
            event.set()
        event.set()  # ended without a word: whoever waits stops waiting

    def wait_for(self, condition, timeout: float = 120) -> None:
        """Wait until condition() holds (or the command ended), polling; bounded."""
        deadline = time.monotonic() + timeout
        while not condition() and self.process.poll() is None:
            assert time.monotonic() < deadline, f"not reached in {timeout} s: {bytes(self.err)!r}"
            time.sleep(0.02)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        """The exit status, stdout and stderr once the command has ended (bounded). A command
        still running then fails the test with where each of its threads stood: the
        fault handler (PYTHONFAULTHANDLER, see __init__) prints them on SIGABRT."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGABRT)
            self.process.wait(30)
            for reader in self.readers:
                reader.join(10)
            pytest.fail(
                f"still running {timeout} s after the signal; its stderr:\n{bytes(self.err).decode()[-6000:]}"
            )
        for reader in self.readers:
            reader.join(timeout)
        return self.process.returncode, bytes(self.out).decode(), bytes(self.err).decode()


def assert_one_clean_line(err: str, returncode: int, signum: int, pattern: str) -> re.Match:
    """The command's last words: one line of its own, after everything else (no progress
    bar glued before it or drawn again after it), no traceback anywhere, the status of the
    signal."""
    word, status = SIGNALS[signum]
    assert not any(bad in err for bad in BAD), err
    assert returncode == status, (returncode, err)
    assert err.endswith("\n"), err
    last = err[:-1].split("\n")[-1]
    found = re.fullmatch(pattern.format(word=re.escape(word)), last)
    assert found, err
    assert err.count(f"rules-explorer: {word}") == 1, err
    return found


@pytest.fixture
def busy_core():
    """A second process keeping a core busy, as other work on the machine does."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


@pytest.fixture(scope="module")
def straight():
    """The records of the run every interrupted chain must add up to."""
    return [r.to_json() for r in simulate("yokai-3x4", GAMES, seed=5, progress=False)]


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate_interrupted_at_random_moments_ends_in_one_line_and_resumes(
    tmp_path, busy_core, straight, workers
):
    rng = random.Random(f"interrupts:{workers}")  # the moments and signals: the same every run
    chain, finished, interrupted = 0, 0, 0
    for run in range(10):
        out = tmp_path / f"chain-{chain}.jsonl"
        before = len(out.read_text().splitlines()) if out.exists() else 0
        signum = rng.choice(list(SIGNALS))
        delay = rng.uniform(0, 1.5)
        command = Command(
            "simulate", "yokai-3x4", "-n", str(GAMES), "--seed", "5", "--workers", str(workers),
            "-o", str(out), "--resume",
        )  # fmt: skip
        command.wait_for(command.drew.is_set)  # the bar is drawn: the command's handlers are set
        # the random moment is the test's point: at once, during the games, as the workers
        # stop, or after the last game (the summary's imports take a while)
        time.sleep(delay)
        if command.process.poll() is None:
            command.process.send_signal(signum)
        returncode, said, err = command.finish()
        kept = out.read_text().splitlines() if out.exists() else []
        where = f"run {run}: {signal.Signals(signum).name} after {delay:.2f} s"
        if returncode == 0:  # it had finished before the signal came, or the signal came too late
            assert not any(bad in err for bad in BAD), f"{where}; its stderr:\n{err}"
            assert "first_wins" in said and kept == straight, where
            finished += 1
            chain += 1
            continue
        found = assert_one_clean_line(
            err,
            returncode,
            signum,
            rf"rules-explorer: {{word}} after (\d+) of {GAMES} games; {re.escape(str(out))} "
            r"holds them: run the same command with --resume to go on",
        )
        interrupted += 1
        # whole records only, exactly the games the line counts: nothing lost, nothing twice
        assert int(found[1]) == len(kept) >= before, f"{where}; its stderr:\n{err}"
        assert kept == straight[: len(kept)], where
        if len(kept) == GAMES:
            chain += 1
    assert interrupted >= 5, (interrupted, finished)  # the moments are mostly during the run
    # the last chain goes on to its end with --resume
    out = tmp_path / f"chain-{chain}.jsonl"
    simulate("yokai-3x4", GAMES, seed=5, progress=False, output=out, resume=True, workers=workers)
    assert out.read_text().splitlines() == straight


def test_sigkill_of_simulate_leaves_no_worker_running(tmp_path):
    out = tmp_path / "run.jsonl"
    command = Command("simulate", "yokai-3x4", "-n", "100000", "--workers", "2", "-o", str(out))
    command.wait_for(lambda: out.exists() and out.read_bytes().count(b"\n") >= 20)
    workers = psutil.Process(command.process.pid).children(recursive=True)
    assert len(workers) == 2, workers
    command.process.kill()  # SIGKILL: no clean-up of the parent runs
    gone, alive = psutil.wait_procs(workers, timeout=30)
    for worker in alive:  # never leave them behind, even when the test fails
        worker.kill()
    assert not alive, f"{len(alive)} of 2 workers outlived their parent"
    returncode, _, _ = command.finish()
    assert returncode == -signal.SIGKILL


def test_a_dead_parent_is_seen_by_a_worker_even_without_the_kernel_s_help():
    """The portable half of `_die_with` (no prctl): the thread that watches the parent's id
    ends the worker when the parent is gone."""
    code = (
        "import os, signal, sys, time\n"
        "from rules_kernel import simulate\n"
        "simulate.sys.platform = 'other'  # not Linux: no prctl\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    parent = os.getpid()\n"
        "    grandchild = os.fork()\n"
        "    if grandchild == 0:\n"
        "        simulate._die_with(parent)\n"
        "        time.sleep(600)\n"
        "        os._exit(0)\n"
        "    print(grandchild, flush=True)\n"
        "    os._exit(0)  # the worker's parent dies at once\n"
        "os.waitpid(child, 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    worker = psutil.Process(int(done.stdout))
    gone, alive = psutil.wait_procs([worker], timeout=30)
    for process in alive:
        process.kill()
    assert not alive


def test_solve_interrupted_leaves_no_lock_and_no_partial_file(compiled_tablebase, tmp_path):
    """The build of the whole table takes minutes: stopped while it runs, the command says so
    in one line, after its progress bar, and its cache holds nothing half-made, no lock file."""
    cache = tmp_path / "cache"
    env = {**os.environ, "RULES_EXPLORER_CACHE": str(cache)}
    for signum in SIGNALS:
        command = Command("solve", "yokai-3x4", env=env)
        command.wait_for(lambda c=command: (cache / "yokai-3x4.lock").exists() and b"positions" in c.err)
        command.process.send_signal(signum)
        returncode, _, err = command.finish()
        assert_one_clean_line(err, returncode, signum, r"rules-explorer: {word}")
        assert sorted(p.name for p in cache.iterdir()) == [], err


@pytest.fixture(scope="module")
def games_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("games") / "games.jsonl"
    simulate("yokai-3x4", 6, seed=1, progress=False, output=path)
    return path


def test_analyse_interrupted_leaves_no_report_and_no_partial_file(tmp_path, games_file):
    for signum in SIGNALS:
        report = tmp_path / "out" / "report.csv"
        report.parent.mkdir(exist_ok=True)
        command = Command(
            "analyse", str(games_file), "-o", str(report), "--engine", "ismcts", "--seconds", "0.5"
        )
        command.wait_for(lambda c=command: b"games analysed" in c.err)
        command.process.send_signal(signum)
        returncode, _, err = command.finish()
        assert_one_clean_line(err, returncode, signum, r"rules-explorer: {word}")
        assert list(report.parent.iterdir()) == []


def test_a_report_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """The report goes to a partial name and is renamed when whole: a failure (or an
    interrupt) while it is written leaves neither the report nor the partial file."""
    import pandas as pd

    from rules_kernel import cli

    def fail_half_way(self, path, **kwargs):
        Path(path).write_text("game,ply\n1,")
        raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_csv", fail_half_way)
    with pytest.raises(KeyboardInterrupt):
        cli._write_report(pd.DataFrame({"game": [1]}), str(tmp_path / "report.csv"))
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    cli._write_report(pd.DataFrame({"game": [1]}), str(tmp_path / "report.csv"))
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]


def test_replay_interrupted_ends_in_one_line(tmp_path, games_file):
    many = tmp_path / "many.jsonl"
    many.write_text(games_file.read_text() * 3000)  # long enough to be stopped half-way
    for signum in SIGNALS:
        command = Command("replay", str(many))
        command.wait_for(lambda c=command: b"line 7: yokai-3x4" in c.out)  # it is replaying
        command.process.send_signal(signum)
        returncode, said, err = command.finish()
        assert_one_clean_line(err, returncode, signum, r"rules-explorer: {word}")
        assert "game(s)" not in said  # stopped before its summary


def blocked_on(path: Path, timeout: float = 60) -> None:
    """Wait until some process or thread waits for an flock on `path` (Linux: /proc/locks
    lists waiters with "->" and the file's inode)."""
    inode = os.stat(path).st_ino
    deadline = time.monotonic() + timeout
    while not any(
        "-> FLOCK" in line and f":{inode} " in line for line in Path("/proc/locks").read_text().splitlines()
    ):
        assert time.monotonic() < deadline, "nobody waits for the lock"
        time.sleep(0.01)


def test_the_lock_file_goes_with_the_lock_and_a_waiter_takes_the_lock_again(tmp_path):
    """`TableFiles.locked` removes its file when it lets go (no `yokai-3x4.lock` left behind).
    Whoever was waiting then holds a removed file: it must notice and lock the path again, or
    two processes would build at once (one on the removed file, one on a new one)."""
    from rules_kernel import tablebase

    files = tablebase.TableFiles.of(directory=tmp_path)
    waiting, holding, done = threading.Event(), threading.Event(), threading.Event()

    def waiter() -> None:
        waiting.set()
        with files.locked():  # waits for the test's lock below
            holding.set()
            done.wait(60)

    thread = threading.Thread(target=waiter, daemon=True)
    try:
        with files.locked() as mine:
            assert mine and files.lock.exists()
            thread.start()
            waiting.wait(60)
            blocked_on(files.lock)  # the waiter sleeps in flock on this very file
        assert holding.wait(60)
        assert files.lock.exists()  # the waiter holds the lock on the file at the path
        with files.locked(wait=False) as mine:
            assert not mine  # held: nobody else gets it
        assert tablebase.availability(directory=tmp_path) == "preparing"
    finally:
        done.set()
        thread.join(60)
    assert not files.lock.exists()
    with files.locked(wait=False) as mine:
        assert mine
    assert not files.lock.exists()


class SignalledCode:
    """Code that sends itself SIGINT (from another thread) and runs on a while after the
    handler has seen it, as if it belonged to `module`: the handler decides by the modules
    of the frames it interrupts."""

    def __init__(self, module: str) -> None:
        self.sent = threading.Event()

        def run(sent, after):
            threading.Thread(target=lambda: (os.kill(os.getpid(), signal.SIGINT), sent.set())).start()
            while not sent.is_set():
                time.sleep(0.01)
            time.sleep(after)  # the handler runs in here (the sleep is woken by the signal)
            return "returned"

        self.run = type(run)(
            run.__code__,
            {"__name__": module, "time": time, "threading": threading, "os": os, "signal": signal},
        )

    def __call__(self, after: float) -> str:
        return self.run(self.sent, after)


@pytest.fixture
def stop_handler(monkeypatch):
    """The command's SIGINT handler, installed as main() installs it."""
    from rules_kernel import cli

    monkeypatch.setattr(cli, "_stop_signal", None)
    monkeypatch.setattr(cli, "_running", True)
    previous = cli._catch_stop_signals()
    yield cli
    cli._restore_signals(previous)


@pytest.mark.parametrize("module", ["llvmlite.binding.ffi", "numba.core.codegen", "tqdm.std"])
def test_a_signal_inside_code_that_must_not_be_cut_is_put_off_until_it_returns(module, stop_handler):
    """A Ctrl-C while numba loads compiled code into LLVM (or a progress bar draws itself)
    is raised a moment later, in the caller: cut inside, an LLVM wrapper left half made
    printed "Exception ignored in ObjectRef.__del__" after the command's line."""
    try:
        SignalledCode(module)(after=0.3)
    except KeyboardInterrupt:
        pytest.fail(f"cut inside {module}")
    with pytest.raises(KeyboardInterrupt):
        time.sleep(10)  # raised here, once that code has returned (sent again 50 ms later)
    assert stop_handler._stop_signal == signal.SIGINT


def test_a_signal_in_the_command_s_own_code_interrupts_it_at_once(stop_handler):
    with pytest.raises(KeyboardInterrupt) as raised:
        SignalledCode("rules_kernel.tablebase._solve")(after=10)
    assert "run" in [entry.name for entry in raised.traceback]  # cut inside, not after


def test_a_signal_swallowed_by_a_generator_closed_in_collection_is_sent_again(stop_handler):
    """A generator's clean-up, run when the garbage collector closes it, is a place where
    Python swallows an exception ("Exception ignored in: <generator ...>") and no frame says
    so: the interrupt raised there is not lost (a fresh-machine run: `simulate` printed the
    traceback and ran on to status 0); it comes again a moment later, in the command."""
    sent = threading.Event()
    unraisable: list = []

    def cleaning_up():
        try:
            yield
        finally:  # the signal comes in here, while the collector closes the generator
            threading.Thread(target=lambda: (os.kill(os.getpid(), signal.SIGINT), sent.set())).start()
            while not sent.is_set():
                time.sleep(0.01)
            time.sleep(0.3)

    before = stop_handler._unraisable_before
    stop_handler._unraisable_before = unraisable.append  # what Python would have printed
    try:
        generator = cleaning_up()
        next(generator)
        del generator  # closed now, by the collector (reference counting)
        assert sent.is_set() and unraisable == []  # swallowed, and said nothing
        with pytest.raises(KeyboardInterrupt):
            time.sleep(10)  # sent again: raised here
    finally:
        stop_handler._unraisable_before = before
    assert stop_handler._stop_signal == signal.SIGINT
