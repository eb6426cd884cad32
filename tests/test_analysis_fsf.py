"""Fairy-Stockfish over UCI (rules_kernel.analysis.fsf): Debian's binary as a real subprocess.

The wrapper starts, checks the engine's rules by perft from the start position, translates
positions and moves both ways (checked over a thousand random positions against the engine's
own FEN and move generator), keeps only moves legal in our rules, finds a mate in one,
stops on request, shuts down without leaving a process, and refuses clearly when the binary
is missing. `./run tests` installs the binary (apt-get install fairy-stockfish)."""

from __future__ import annotations

import os
import random
import sys
import threading

import pytest

import rules_kernel as rk
from rules_kernel.analysis import EngineError, FairyStockfish, FairyStockfishEngine, Limit, analyse
from rules_kernel.analysis.fsf import find_binary, ruled_value
from rules_kernel.games import yokai

try:
    find_binary()
    HAVE_ENGINE = True
except EngineError:
    HAVE_ENGINE = False
needs_engine = pytest.mark.skipif(
    not HAVE_ENGINE, reason="Fairy-Stockfish is not installed (apt-get install fairy-stockfish)"
)

GORO = rk.load_game("yokai-5x6")
DOBUTSU = rk.load_game("yokai-3x4")
# White to move: P@e2 would mate (the Kodama on e2 attacks the Koropokkuru on e3, which has
# no way out) and the rulebook forbids it; S@e2 mates and is allowed.
DROP_MATE = "s3+P/2+S2/KpG1p/3pk/G4/2g1S[GSPP] w - - 0 24"


@pytest.fixture(scope="module")
def goro():
    with FairyStockfishEngine(GORO, "gorogoro") as engine:
        yield engine


@pytest.fixture(scope="module")
def dobutsu():
    with FairyStockfishEngine(DOBUTSU, "dobutsu") as engine:
        yield engine


def random_positions(game: rk.Game, count: int, seed: int):
    """Every position along random games until `count` (terminal ones left out); each
    position starts a fresh history, as the engine sees it."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.initial_state()
        while not state.is_terminal() and len(found) < count and state.ply < 120:
            found.append(game.from_text(state.to_text()))
            state = state.apply(rng.choice(state.legal_moves()))
    return found


def hands_sorted(fen: str) -> str:
    board, _, rest = fen.partition("[")
    hand, _, tail = rest.partition("]")
    return f"{board}[{''.join(sorted(hand))}]{tail}"


# --- start, rules check, refusal, shutdown ---------------------------------------------------------


@needs_engine
def test_the_engine_starts_and_plays_our_5x6_rules(goro):
    assert goro.fsf.name.startswith("Fairy-Stockfish") and "gorogoro" in goro.fsf.variants
    assert goro.rules_match and goro.check == "perft 3 from the start: engine 4166, ours 4166"
    total, split = goro.fsf.perft(GORO.initial_state().to_text(), 2)
    assert total == rk.perft(GORO.initial_state(), 2) == 250 and len(split) == 16


@needs_engine
def test_debians_older_dobutsu_is_recognised_and_an_unknown_difference_refused(dobutsu):
    assert not dobutsu.rules_match and "royal Lion" in dobutsu.check
    with pytest.raises(EngineError, match="other rules"):
        FairyStockfishEngine(DOBUTSU, "dobutsu", require_same_rules=True)
    with pytest.raises(EngineError, match="other rules"):  # 5x6 rules played as 3x4: refused
        FairyStockfishEngine(DOBUTSU, "gorogoro")


def test_a_missing_binary_is_refused_in_one_line_naming_the_install(monkeypatch, tmp_path):
    with pytest.raises(EngineError) as caught:
        FairyStockfish("gorogoro", path=tmp_path / "no-such-engine")
    message = str(caught.value)
    assert "\n" not in message and "apt-get install fairy-stockfish" in message
    assert str(tmp_path / "no-such-engine") in message
    monkeypatch.setenv("RULES_EXPLORER_FAIRY_STOCKFISH", "/nonexistent/fairy-stockfish")
    with pytest.raises(EngineError, match="/nonexistent/fairy-stockfish.*apt-get install"):
        FairyStockfishEngine(GORO, "gorogoro")


@needs_engine
def test_close_quits_and_reaps_the_process():
    with FairyStockfish("gorogoro") as fsf:
        pid = fsf.pid
        assert fsf.running
    assert not fsf.running
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # already reaped: no zombie left
    fsf.close()  # twice is harmless
    with pytest.raises(EngineError, match="exited"):
        fsf.send("isready")


FAKE_ENGINE = """\
import sys
for line in sys.stdin:
    line = line.strip()
    if line == "uci":
        print("id name Stubborn")
        print("option name UCI_Variant type combo default chess var gorogoro")
        print("uciok", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    # 'quit' is ignored: the wrapper must kill it
"""


@pytest.mark.timeout(30)  # a close that waited for ever fails here instead of hanging
def test_an_engine_that_ignores_quit_is_killed_on_close(tmp_path):
    script = tmp_path / "stubborn-engine"
    script.write_text(f"#!{sys.executable}\n{FAKE_ENGINE}")
    script.chmod(0o755)
    fsf = FairyStockfish("gorogoro", path=script)
    assert fsf.name == "Stubborn" and fsf.running
    fsf.close()
    assert not fsf.running
    with pytest.raises(ValueError, match="one UCI command a line"):  # no command can smuggle another
        fsf.send("isready\nquit")


# --- translation ------------------------------------------------------------------------------------


@needs_engine
def test_positions_and_moves_translate_exactly_on_a_thousand_5x6_positions(goro):
    fsf, drop_mates = goro.fsf, 0
    for state in random_positions(GORO, 1000, seed=5):
        text = state.to_text()
        assert hands_sorted(fsf.fen(text)) == hands_sorted(text)  # the engine read our FEN
        theirs = fsf.legal_moves(text)
        ours = {str(m) for m in state.legal_moves()}
        assert goro.translation(state, theirs) == {m: m for m in ours}  # every move, unchanged
        for extra in theirs - ours:  # only the Kodama drop that mates, which our rules forbid
            assert extra.startswith("P@") and is_drop_mate(state, extra)
            drop_mates += 1
        assert ours <= theirs
    assert drop_mates < 20


def is_drop_mate(state, notation: str) -> bool:
    """The kernel's own test of the rule (rules_kernel.games.yokai)."""
    pseudo = yokai._pseudo_moves(GORO, state.board, state.hands, state.side)
    move = next(m for m in pseudo if str(m) == notation)
    board, hands = yokai._make(state.board, state.hands, move, state.side)
    return yokai._is_drop_mate(GORO, board, hands, state.side, move.to)


@needs_engine
def test_3x4_moves_translate_and_the_moves_the_old_engine_lacks_lose_at_once(dobutsu):
    """Debian's dobutsu writes a forced promotion without '+' and has a royal Lion: every
    engine move maps to one of ours; every move of ours it lacks leaves the Koropokkuru to be
    taken (valued by our rules: a loss in 2)."""
    lacking = ended = 0
    for state in random_positions(DOBUTSU, 500, seed=7):
        theirs = dobutsu.fsf.legal_moves(state.to_text())
        mapping = dobutsu.translation(state, theirs)
        assert set(mapping.values()) <= theirs
        assert all(ours == engine or ours == engine + "+" for ours, engine in mapping.items())
        for extra in theirs - set(mapping.values()):  # its optional non-promotion: never ours
            assert extra + "+" in mapping and extra not in mapping
        if not theirs:  # its rules end the game here (a Lion on the far rank, even attacked)
            ended += 1
            result = dobutsu.analyse(state, limit=Limit(seconds=None, playouts=5))
            if all(ruled_value(state, m, deep=True) for m in state.legal_moves()):
                assert result.value.exact  # our rules value every move: the game ends, or soon
            else:
                assert result.search.engine == "ismcts" and "sees no move" in result.search.notes[-1]
            continue
        for move in state.legal_moves():
            if str(move) not in mapping and not state.apply(move).is_terminal():
                assert str(ruled_value(state, move, deep=True)) == "loss in 2"
                lacking += 1
    assert lacking > 100 and ended < 50


# --- analysis -----------------------------------------------------------------------------------------


@needs_engine
def test_the_mating_kodama_drop_is_never_suggested_and_the_mate_in_one_is_found(goro):
    state = GORO.from_text(DROP_MATE)
    assert "P@e2" not in {str(m) for m in state.legal_moves()}
    # the bare engine offers it (and scores it lost for the dropper, the mated side winning)
    raw = goro.fsf.search(state.to_text(), depth=4, lines=80)
    assert "P@e2" in {line.pv[0] for line in raw.lines}
    assert raw.lines[0].mate == 1  # the engine sees the mate in 1 itself
    result = analyse(state, engine=goro, limit=Limit(seconds=None, depth=6, lines=80))
    assert "P@e2" not in {m.move for m in result.moves}
    assert {m.move for m in result.moves} <= {str(m) for m in state.legal_moves()}
    assert str(result.value) == "win in 1" and result.value.exact
    assert state.apply(result.best.move).outcome().winner == 0  # checkmate by our rules
    searched = [m for m in result.moves if not m.value.exact]
    assert searched and all(m.line and m.line[0] == m.move for m in searched)


@needs_engine
@pytest.mark.timeout(60)  # without the stop the search would run its 30 s: `stopped` false
def test_a_search_reports_progress_and_stops_on_request(goro):
    seen = []
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    result = analyse(
        GORO.initial_state(), engine=goro, limit=Limit(seconds=30), progress=seen.append, stop=stop
    )
    assert result.search.stopped
    assert len(seen) >= 2 and seen[-1] is result
    assert [a.search.depth for a in seen[:-1]] == sorted(a.search.depth for a in seen[:-1])
    assert result.best.move in {str(m) for m in GORO.initial_state().legal_moves()}
    assert 0.0 < result.value.win_probability < 1.0 and result.value.cp is not None


@needs_engine
def test_3x4_analysis_by_the_old_engine_keeps_to_our_rules(dobutsu):
    state = DOBUTSU.initial_state().play("b2b3", "b4b3")  # the Kodama trade
    result = analyse(state, engine=dobutsu, limit=Limit(seconds=None, depth=8, lines=20))
    legal = {str(m) for m in state.legal_moves()}
    assert {m.move for m in result.moves} <= legal and result.best.move in legal
    ruled = [m for m in result.moves if m.value.exact]
    assert all(str(m.value) in ("loss in 2", "win in 1", "draw") for m in ruled)


@needs_engine
def test_two_threads_sharing_the_engine_each_get_their_own_positions_answer(goro):
    """The explorer's Analysis and a Replay's report may ask the one engine process at once:
    each search waits for the other, and each answer is about its own position."""
    positions = [s for s in random_positions(GORO, 6, seed=11) if not s.is_terminal()][:4]
    answers: dict[int, object] = {}

    def ask(index: int) -> None:
        answers[index] = analyse(positions[index], engine=goro, limit=Limit(depth=5))

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(positions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(answers) == list(range(len(positions)))
    for index, state in enumerate(positions):
        assert answers[index].position == state.to_text()
        assert answers[index].best.move in {str(m) for m in state.legal_moves()}
