"""Issue 44 item 8: an engine that misbehaves never hangs the analysis or stays dead.

Each test starts a stand-in engine: a small Python script written into tmp_path and made
executable, which either imitates UCI or wraps Debian's Fairy-Stockfish and misbehaves on
purpose (crashes on `go`, ignores `go` or `stop`, garbles its lines, answers `uci` never, dies
or closes its output mid-search). Each asserts the one-line EngineError, that no process and
no lock is left behind, and that the next analysis (with the real engine, or the stand-in
restored) works, from the same engine object. The default analysis falls back to the tree
search and says why. The deadlines are shortened where an engine hangs (the module's constants)
so the file runs in seconds; a regression hits the pytest-timeout instead of hanging the suite."""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

import rules_kernel as rk
from rules_kernel import analysis
from rules_kernel.analysis import EngineError, FairyStockfishEngine, Limit, analyse
from rules_kernel.analysis import fsf as fsf_module
from rules_kernel.cli import main

REAL = fsf_module.DEBIAN_BINARY
ANSWER_TIMEOUT = fsf_module.ANSWER_TIMEOUT  # the real one, for every start that must succeed
pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(
        not os.access(REAL, os.X_OK),
        reason="Fairy-Stockfish is not installed (apt-get install fairy-stockfish)",
    ),
]

GORO = rk.load_game("yokai-5x6")
START = GORO.initial_state()
LEGAL = {str(m) for m in START.legal_moves()}
#: the analyses that must work again after a failure: bounded by depth, so no deadline of
#: the shortened ones below can cut them on a loaded machine
AGAIN = Limit(seconds=None, depth=3, lines=2)

# A stand-in engine. MODE says how it misbehaves; "pass" forwards everything both ways.
# It writes its own pid and the wrapped engine's into PIDS, for the leftover check.
STAND_IN = r"""
import os, random, re, signal, subprocess, sys, threading, time

MODE, REAL, PIDS = {mode!r}, {real!r}, {pids!r}
out = sys.stdout.buffer
lock = threading.Lock()


def emit(data):
    with lock:
        out.write(data)
        out.flush()


with open(PIDS, "a") as f:
    f.write(f"{{os.getpid()}}\n")
if MODE == "slow-uciok":  # knows `uci` but takes an hour to say uciok
    for line in sys.stdin:
        if line.strip() == "uci":
            emit(b"id name Slow\n")
            time.sleep(3600)
    sys.exit(0)

engine = subprocess.Popen([REAL], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
with open(PIDS, "a") as f:
    f.write(f"{{engine.pid}}\n")
rng = random.Random(7)
checked = threading.Event()  # the wrapper's check at start is over (the first perft)


def noise():
    junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"")
    return junk + b"\xff\xfe\x00\r\n"


def pump():  # the engine's lines to us, garbled as MODE says
    pv_lines = 0
    for raw in engine.stdout:
        line = raw.rstrip(b"\n")
        info = line.startswith(b"info") and b" pv " in line
        pv_lines += info
        if MODE == "nodes-banana" and info:
            line = re.sub(rb"nodes \d+", b"nodes banana", line)
        elif MODE == "score-cp-x" and info:
            line = re.sub(rb"score cp -?\d+", b"score cp x", line)
        elif MODE == "perft-banana" and line.startswith(b"Nodes searched:"):
            line = b"Nodes searched: banana"
        elif MODE == "non-utf8-move" and info:
            line = re.sub(rb" pv (\S+)", b" pv \\1\xff\xfe", line)
        elif MODE == "huge-scores" and info:
            huge = lambda m: b"score cp %d" % (int(m.group(1)) * -(10**12) - 1)
            line = re.sub(rb"score cp (-?\d+)", huge, line)
        elif MODE == "random-bytes" and checked.is_set():
            line = noise().rstrip(b"\n")
        elif MODE == "noise-between-lines" and checked.is_set():
            emit(noise() + b"x" * 100_000 + b"\xff\n" + noise())
        elif MODE == "dies-mid-search" and pv_lines >= 2:
            os._exit(3)
        elif MODE == "closes-output-mid-search" and pv_lines >= 2:
            os.close(1)
            time.sleep(3600)
        emit(line + b"\n")
        if line.startswith(b"Nodes searched:"):
            checked.set()
    os._exit(0)


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin.buffer:  # our commands to the engine, dropped or changed as MODE says
    text = line.strip()
    is_go = text.startswith(b"go") and not text.startswith(b"go perft")
    if is_go and MODE == "crash-on-go":
        os.kill(os.getpid(), signal.SIGKILL)
    if is_go and MODE == "ignore-go":
        continue
    if text == b"stop" and MODE in ("ignore-go", "ignore-stop"):
        continue
    if is_go and MODE == "ignore-stop":
        moves = text.partition(b" searchmoves ")[2]
        line = b"go infinite" + (b" searchmoves " + moves if moves else b"") + b"\n"
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
"""


class StandIn:
    """A stand-in engine script in tmp_path: `mode` sets how it misbehaves (rewritten in
    place: the file changes, as a user's fix would change it)."""

    def __init__(self, tmp_path: Path, mode: str) -> None:
        self.path = tmp_path / "stand-in-engine"
        self.pids = tmp_path / "pids"
        self.set(mode)

    def set(self, mode: str) -> None:
        script = STAND_IN.format(mode=mode, real=REAL, pids=str(self.pids))
        self.path.write_text(f"#!{sys.executable}\n{script}")
        self.path.chmod(0o755)

    def started(self) -> list[int]:
        return [int(p) for p in self.pids.read_text().split()] if self.pids.exists() else []


@pytest.fixture(autouse=True)
def fresh_engines(monkeypatch):
    """No engine kept from another test, and the binary found as a user's machine finds it."""
    monkeypatch.delenv(fsf_module.BINARY_ENV, raising=False)
    analysis.close_engines()
    yield
    analysis.close_engines()


@pytest.fixture
def short_deadlines(monkeypatch):
    """The search deadlines shortened for the stand-ins that hang (the behaviour is the same
    at any length); only they use it, so the real engine never races a short grace."""
    monkeypatch.setattr(fsf_module, "GRACE", 0.5)
    monkeypatch.setattr(fsf_module, "STOP_GRACE", 0.5)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def assert_nothing_left(stand_in: StandIn) -> None:
    """Every process the stand-in started (itself, the engine it wraps) is gone."""
    pids = stand_in.started()
    assert pids
    deadline = time.monotonic() + 10  # a SIGKILLed grandchild is reaped by init, not by us
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [p for p in pids if alive(p)]


def assert_lock_free(engine: FairyStockfishEngine) -> None:
    """Another thread can take the engine's lock (a failed search never keeps it)."""
    taken = []

    def take() -> None:
        if engine._one_at_a_time.acquire(blocking=False):
            taken.append(True)
            engine._one_at_a_time.release()

    thread = threading.Thread(target=take)
    thread.start()
    thread.join()
    assert taken


def assert_one_line(exc: BaseException) -> str:
    message = str(exc)
    assert "\n" not in message and message.isprintable() and "Traceback" not in message
    return message


def assert_works(engine: FairyStockfishEngine, *, restarted: str | None = None) -> None:
    result = analyse(START, engine=engine, limit=AGAIN)
    assert result.search.engine == "fairy-stockfish" and result.best.move in LEGAL
    assert result.search.depth >= 1 and 0.0 < result.value.win_probability < 1.0
    if restarted is not None:
        assert any(restarted in note for note in result.search.notes), result.search.notes


# --- crashes ------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_kill_9_of_the_real_engine_mid_search_raises_and_the_next_analysis_starts_a_fresh_one():
    """The issue's case: before the fix the search spun at 100% CPU for ever, holding the lock,
    and every later analysis failed "has exited (code -9)"."""
    with FairyStockfishEngine(GORO, "gorogoro", path=REAL) as engine:
        first = engine.fsf.pid

        def kill(_found) -> None:
            os.kill(engine.fsf.pid, signal.SIGKILL)

        with pytest.raises(EngineError) as caught:
            analyse(START, engine=engine, limit=Limit(seconds=30), progress=kill)
        message = assert_one_line(caught.value)
        assert message == f"Fairy-Stockfish ({REAL}) was killed by signal 9 (SIGKILL) while searching"
        assert not engine.fsf.running
        assert_lock_free(engine)
        assert_works(engine, restarted="killed by signal 9")
        assert engine.fsf.pid != first and engine.fsf.running
        assert_works(engine)  # and on, without a note


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("crash-on-go", "was killed by signal 9 (SIGKILL) while searching"),
        ("dies-mid-search", "exited with code 3 while searching"),
        ("closes-output-mid-search", "closed its output while searching"),
    ],
)
def test_an_engine_that_dies_mid_search_raises_and_the_restored_one_works(tmp_path, mode, said):
    stand_in = StandIn(tmp_path, mode)
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        with pytest.raises(EngineError) as caught:
            analyse(START, engine=engine, limit=Limit(seconds=5))
        assert assert_one_line(caught.value) == f"Fairy-Stockfish ({stand_in.path}) {said}"
        assert_nothing_left(stand_in)
        assert_lock_free(engine)
        stand_in.set("pass")
        assert_works(engine, restarted=said)


# --- hangs --------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_an_engine_that_ignores_go_and_stop_raises_after_its_limit_and_the_grace(tmp_path, short_deadlines):
    stand_in = StandIn(tmp_path, "ignore-go")
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        with pytest.raises(EngineError) as caught:
            analyse(START, engine=engine, limit=Limit(seconds=0.2))
        assert assert_one_line(caught.value) == (
            f"Fairy-Stockfish ({stand_in.path}) did not end its search: no answer 0.7 s after "
            "'go' (its limit and a grace) nor 0.5 s after 'stop'"
        )
        assert_nothing_left(stand_in)
        assert_lock_free(engine)
        stand_in.set("pass")
        assert_works(engine, restarted="did not end its search")


@pytest.mark.timeout(30)
def test_an_engine_that_ignores_stop_raises_when_the_stop_flag_is_set(tmp_path, short_deadlines):
    """The stop flag still ends the analysis: the engine searches on (`go infinite`) and
    ignores `stop`; the analysis ends STOP_GRACE after the flag, not at the search limit."""
    stand_in = StandIn(tmp_path, "ignore-stop")
    stop = threading.Event()
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        with pytest.raises(EngineError) as caught:
            analyse(START, engine=engine, limit=Limit(seconds=600), stop=stop, progress=lambda _: stop.set())
        assert assert_one_line(caught.value) == (
            f"Fairy-Stockfish ({stand_in.path}) did not stop its search within 0.5 s of 'stop' "
            "(the stop flag)"
        )
        assert_nothing_left(stand_in)
        stand_in.set("pass")
        assert_works(engine)


@pytest.mark.timeout(30)
def test_a_real_engine_stopped_by_the_flag_answers_with_what_it_has():
    stop = threading.Event()
    with FairyStockfishEngine(GORO, "gorogoro", path=REAL) as engine:
        result = analyse(
            START, engine=engine, limit=Limit(seconds=600), stop=stop, progress=lambda _: stop.set()
        )
        assert result.search.stopped and result.best.move in LEGAL and engine.fsf.running


@pytest.mark.timeout(30)
def test_a_slow_uciok_is_refused_at_the_deadline_and_the_process_killed(tmp_path, monkeypatch):
    monkeypatch.setattr(fsf_module, "ANSWER_TIMEOUT", 1.0)
    stand_in = StandIn(tmp_path, "slow-uciok")
    with pytest.raises(EngineError) as caught:
        FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path)
    assert assert_one_line(caught.value) == (
        f"Fairy-Stockfish ({stand_in.path}) did not answer within 1 s while starting ('uci')"
    )
    assert_nothing_left(stand_in)
    stand_in.set("pass")
    monkeypatch.setattr(fsf_module, "ANSWER_TIMEOUT", ANSWER_TIMEOUT)  # a loaded machine starts slowly
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        assert_works(engine)


@pytest.mark.timeout(30)
def test_an_engine_slow_to_start_holds_up_no_other_engine(tmp_path, monkeypatch):
    """While one thread waits for a slow `uciok`, another gets its engine (here the table's
    refusal) at once; killing the slow one ends its wait with the crash's EngineError."""
    monkeypatch.setattr(fsf_module, "ANSWER_TIMEOUT", 25.0)
    stand_in = StandIn(tmp_path, "slow-uciok")
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(stand_in.path))
    failed: list[str] = []

    def open_slow() -> None:
        try:
            analysis.get_engine(GORO, "fsf")
        except EngineError as exc:
            failed.append(str(exc))

    waiting = threading.Thread(target=open_slow)
    waiting.start()
    while not stand_in.started():  # it is started: the thread now waits for uciok
        time.sleep(0.01)
    with pytest.raises(rk.RulesError, match="no solved table|tablebase"):
        analysis.get_engine(GORO, "table")
    assert waiting.is_alive()  # still waiting: the table's answer did not wait for it
    os.kill(stand_in.started()[0], signal.SIGKILL)
    waiting.join()
    assert failed == [
        f"Fairy-Stockfish ({stand_in.path}) was killed by signal 9 (SIGKILL) while starting ('uci')"
    ]


# --- garbage ------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("mode", "said"),
    [
        (
            "nodes-banana",
            r"sent 'info depth .*nodes banana.* while searching: 'nodes' is followed by a count",
        ),
        (
            "score-cp-x",
            r"sent 'info depth .*score cp x.* while searching: a score is 'cp' or 'mate' and a whole",
        ),
        ("non-utf8-move", r"answered with '\S+\ufffd\ufffd', a move it was not asked to search"),
        ("random-bytes", r"did not answer within 1 s while counting moves \('go perft 1'\)"),
    ],
)
def test_garbage_from_the_engine_raises_and_the_restored_one_works(tmp_path, mode, said):
    stand_in = StandIn(tmp_path, mode)
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        if mode == "random-bytes":  # it never answers: wait 1 s, not 20 (this process only)
            engine.fsf.timeout = 1.0
        with pytest.raises(EngineError) as caught:
            analyse(START, engine=engine, limit=Limit(seconds=2))
        message = assert_one_line(caught.value)
        assert re.fullmatch(f"Fairy-Stockfish \\({re.escape(str(stand_in.path))}\\) {said}.*", message), (
            message
        )
        # what the engine sent is cut short; the binary's path (tmp_path's, of any length) is not
        assert len(message) - len(str(stand_in.path)) < 200
        assert_nothing_left(stand_in)
        assert_lock_free(engine)
        stand_in.set("pass")
        assert_works(engine)


@pytest.mark.timeout(30)
def test_a_garbled_count_at_start_is_refused_in_words(tmp_path):
    stand_in = StandIn(tmp_path, "perft-banana")
    with pytest.raises(EngineError) as caught:
        FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path)
    assert assert_one_line(caught.value) == (
        f"Fairy-Stockfish ({stand_in.path}) sent 'Nodes searched: banana' while counting moves "
        "('go perft 3'): a count was due"
    )
    assert_nothing_left(stand_in)


@pytest.mark.timeout(30)
def test_noise_between_the_engines_lines_is_ignored_as_uci_says(tmp_path):
    """Lines UCI does not know (random bytes, not UTF-8, a 100 kB one) are skipped; the
    analysis is the real engine's."""
    stand_in = StandIn(tmp_path, "noise-between-lines")
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        assert_works(engine)
        plain = analyse(START, engine=engine, limit=AGAIN)
    with FairyStockfishEngine(GORO, "gorogoro", path=REAL) as real:
        assert_works(real)  # the same history of searches (its hash table) as the stand-in's
        expected = analyse(START, engine=real, limit=AGAIN)
    assert [(m.move, m.value) for m in plain.moves] == [(m.move, m.value) for m in expected.moves]


@pytest.mark.timeout(30)
def test_scores_beyond_any_scale_do_not_overflow(tmp_path):
    stand_in = StandIn(tmp_path, "huge-scores")
    with FairyStockfishEngine(GORO, "gorogoro", path=stand_in.path) as engine:
        result = analyse(START, engine=engine, limit=AGAIN)
    assert result.best.move in LEGAL and all(0.0 <= m.value.win_probability <= 1.0 for m in result.moves)


# --- files that are not programs, and the default analysis' fallback ----------------------------


def _text_file(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a program\n")
    path.chmod(0o755)
    return path


def _not_executable(tmp_path: Path) -> Path:
    path = tmp_path / "engine-without-x"
    path.write_text(f"#!{sys.executable}\n")
    path.chmod(0o644)
    return path


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("make", "said"),
    [
        (_text_file, "is not a program this machine can run (Exec format error)"),
        (lambda tmp_path: tmp_path, "is a directory, not a program"),
        (_not_executable, "is not executable (chmod +x it)"),
    ],
)
def test_a_file_that_is_not_a_program_is_refused_and_the_default_falls_back(
    tmp_path, monkeypatch, make, said
):
    binary = make(tmp_path)
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(binary))
    with pytest.raises(EngineError) as caught:
        analyse(START, engine="fsf", limit=AGAIN)
    message = assert_one_line(caught.value)
    assert str(binary) in message and said in message and "apt-get install fairy-stockfish" in message
    fallen = analyse(START, limit=Limit(seconds=None, playouts=20))  # the default: the tree search
    assert fallen.search.engine == "ismcts" and fallen.best.move in LEGAL
    assert fallen.search.notes[-1] == f"Fairy-Stockfish could not answer, so the tree search did: {message}"
    monkeypatch.delenv(fsf_module.BINARY_ENV)  # the real engine again: found at once
    assert analyse(START, limit=AGAIN).search.engine == "fairy-stockfish"
    assert analyse(START, engine="fsf", limit=AGAIN).search.engine == "fairy-stockfish"


@pytest.mark.timeout(30)
def test_the_default_analysis_falls_back_when_the_engine_crashes_and_uses_it_again_after(
    tmp_path, monkeypatch
):
    stand_in = StandIn(tmp_path, "crash-on-go")
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(stand_in.path))
    assert analysis.default_engine_name(GORO) == "fairy-stockfish"  # it starts and passes its check
    quick = Limit(seconds=None, depth=2, playouts=20)
    note = (
        "Fairy-Stockfish could not answer, so the tree search did: "
        f"Fairy-Stockfish ({stand_in.path}) was killed by signal 9 (SIGKILL) while searching"
    )
    # the engine default_engine_name opened; after its failure a fresh one; after two, a rest
    for starts_one in (False, True, False):
        started = len(stand_in.started())
        fallen = analyse(START, limit=quick)
        assert fallen.search.engine == "ismcts" and fallen.best.move in LEGAL
        assert fallen.search.notes[-1] == note
        assert (len(stand_in.started()) > started) == starts_one
    with pytest.raises(EngineError, match="killed by signal 9"):  # named: no rest, the error
        analyse(START, engine="fairy-stockfish", limit=AGAIN)
    stand_in.set("pass")  # a changed binary ends the rest
    again = analyse(START, limit=AGAIN)
    assert again.search.engine == "fairy-stockfish" and "a fresh engine was started" in again.search.notes[-1]


# --- the command's engine names -----------------------------------------------------------------


def _game_file(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "games.jsonl"
    assert main(["play", game, "--seed", "3", "--max-plies", "1", "-o", str(path)]) == 0
    return path


@pytest.mark.timeout(60)
def test_every_engine_name_analyse_help_documents_is_accepted(tmp_path, capsys):
    """The names the option's help lists before "(default": each runs the command, "fsf" and
    "fairy-stockfish" alike (before the fix "fsf" was an unknown engine)."""
    with pytest.raises(SystemExit) as done:
        main(["analyse", "--help"])
    assert done.value.code == 0
    helped = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    listed = re.search(r"--engine ENGINE (.*?) \(default", helped).group(1)
    names = re.split(r", | or ", listed)
    assert {"fsf", "fairy-stockfish", "ismcts", "table"} <= set(names), listed
    games = _game_file(tmp_path, "yokai-3x4")
    capsys.readouterr()
    for name in names:
        out = tmp_path / f"report-{name}.csv"
        status = main(["analyse", str(games), "-o", str(out), "--engine", name, "--seconds", "0.05"])
        said = capsys.readouterr()
        if name == "table" and status == 2:  # the table is not built on this machine: said so
            assert "tablebase" in said.err and "unknown" not in said.err and "invalid" not in said.err
            continue
        assert status == 0, said.err
        engines = set(__import__("pandas").read_csv(out)["engine"].dropna())
        assert engines == {"fairy-stockfish" if name == "fsf" else name}


@pytest.mark.timeout(60)
def test_analyse_ends_in_one_line_when_the_named_engine_crashes_and_falls_back_by_default(
    tmp_path, monkeypatch, capsys
):
    games = _game_file(tmp_path, "yokai-5x6")
    stand_in = StandIn(tmp_path, "crash-on-go")
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(stand_in.path))
    capsys.readouterr()
    out = tmp_path / "report.csv"
    assert main(["analyse", str(games), "-o", str(out), "--engine", "fsf", "--seconds", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"rules-explorer: error: Fairy-Stockfish ({stand_in.path}) was killed by signal 9 (SIGKILL) "
        "while searching\n"
    )
    assert not out.exists()
    assert main(["analyse", str(games), "-o", str(out), "--seconds", "0.05"]) == 0
    rows = __import__("pandas").read_csv(out)
    assert set(rows["engine"].dropna()) == {"ismcts"} and len(rows) == 1
    assert_nothing_left(stand_in)
