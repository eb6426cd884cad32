"""The Yokai 3x4 tablebase (rules_kernel.tablebase).

Rules checked (rules/NOTES.md, "3x4 rules as the standard computer formulation plays them"):
the game ends when a Koropokkuru is captured; the try (a Koropokkuru standing unattacked on
its far rank wins, checked for both sides in every position; both at once is a draw); a
Kodama reaching the far rank promotes; captured pieces go to the captor's hand unpromoted;
drops on any empty square. Solved result: "the start position is lost in 78 plies for the
first player".

Small sub-games (fewer pieces; closed under play) are solved by the table and, independently,
by a plain minimax fixpoint over the kernel's own states and moves; the two must agree on
every position. The full table is a benchmark (benchmarks/bench_tablebase.py); its tests
run only when it has been built (`rules-explorer solve yokai-3x4`).
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from tablebase_support import SMALL_START, children, predecessors

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel import tablebase
from rules_kernel.tablebase import (
    Tablebase,
    TablebaseError,
    Value,
    _build,
    _solve,
    decode,
    mirrored,
    normalised,
    position_text,
)
from rules_kernel.tablebase import _engine as engine
from rules_kernel.tablebase._solve import build_table

GAME = rk.load_game("yokai-3x4")
FULL = (2, 2, 2)
pytestmark = pytest.mark.usefixtures("compiled_tablebase")


def _position(index: int, ix) -> tuple[np.ndarray, np.ndarray]:
    board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
    engine.unrank(index, ix, board, hands)
    return board, hands


def _state(index: int, ix):
    return GAME.from_text(position_text(*_position(index, ix)))


def _key(state) -> int:
    board, hands = normalised(state)
    return int(engine.rank(board, hands, engine.index_tables(_material(state))))


def _material(state) -> tuple[int, int, int]:
    from rules_kernel.tablebase import _material_of

    return _material_of(*normalised(state))


# --- the index -------------------------------------------------------------------------------


def _placements(material) -> int:
    """Brute force: distinct placements with both Koropokkuru on the board, any hands."""
    states_per_kind = (4, 2, 2)  # Kodama (C, H, c, h), Kitsune (E, e), Tanuki (G, g)
    seen = set()
    for ours, theirs in itertools.permutations(range(12), 2):
        free = [sq for sq in range(12) if sq not in (ours, theirs)]
        per_kind = []
        for states, count in zip(states_per_kind, material, strict=True):
            hands = [(-1, 0), (-2, 0)]  # in a hand: ours, theirs
            places = hands + [(sq, s) for sq in free for s in range(states)]
            per_kind.append(list(itertools.combinations_with_replacement(places, count)))
        for choice in itertools.product(*per_kind):
            squares = [p[0] for kind in choice for p in kind if p[0] >= 0]
            if len(squares) == len(set(squares)):
                seen.add((ours, theirs, choice))
    return len(seen)


@pytest.mark.parametrize("material", [(1, 0, 0), (0, 1, 1), (2, 0, 0)])
def test_index_is_a_bijection_onto_all_placements(material):
    ix = engine.index_tables(material)
    size = engine.table_size(ix)
    assert size == _placements(material)
    for index in range(size):
        board, hands = _position(index, ix)
        assert engine.rank(board, hands, ix) == index


def test_full_index_size_and_round_trip_on_positions_reached_by_play():
    ix = engine.index_tables(FULL)
    assert engine.table_size(ix) == 1_567_925_964
    rng = random.Random(16)
    for _ in range(40):
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        board, hands = normalised(state)
        index = engine.rank(board, hands, ix)
        assert 0 <= index < engine.table_size(ix)
        again_board, again_hands = _position(index, ix)
        assert (again_board == board).all() and (again_hands == hands).all()
        # the engine's position text is the same position for the kernel
        again = GAME.from_text(position_text(again_board, again_hands))
        again_board, again_hands = normalised(again)
        assert (again_board == board).all() and (again_hands == hands).all()


# --- moves and unmoves against the kernel ------------------------------------------------------


def _random_indices(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    size = engine.table_size(engine.index_tables(FULL))
    return [rng.randrange(size) for _ in range(count)]


def _kernel_children(state) -> tuple[set[int], bool]:
    """Indices of the children that stay in the table, and whether a move takes the
    Koropokkuru (the child is over: not in the table)."""
    ix = engine.index_tables(FULL)
    keys, takes = set(), False
    for move in state.legal_moves():
        child = state.apply(move)
        if child.outcome() is not None and "captured" in child.outcome().reason:
            takes = True
            continue
        board, hands = normalised(child)
        keys.add(int(engine.rank(board, hands, ix)))
    return keys, takes


def test_children_and_move_counts_match_the_kernel():
    ix = engine.index_tables(FULL)
    out = np.zeros(128, np.int64)
    checked = 0
    for index in _random_indices(400, seed=1):
        board, hands = _position(index, ix)
        state = _state(index, ix)
        if state.is_terminal():
            assert engine.try_status(board) != 0
            continue
        assert engine.try_status(board) == 0
        expected, takes = _kernel_children(state)
        n = children(board, hands, ix, out)
        assert set(out[:n].tolist()) == expected and n == len(expected)
        moves, _hanging, takes_lion = engine.count_moves(board, hands)
        assert takes_lion == takes == bool(engine.can_capture_lion(board))
        if not takes:
            assert moves == len(state.legal_moves())
        checked += 1
    assert checked > 100


def test_predecessors_are_exactly_the_positions_with_a_move_here():
    ix = engine.index_tables(FULL)
    out = np.zeros(128, np.int64)
    preds = np.zeros(1024, np.int64)
    for index in _random_indices(150, seed=2):
        board, hands = _position(index, ix)
        if engine.try_status(board) != 0:
            continue
        n = children(board, hands, ix, out)
        for child in out[:n].tolist():  # completeness: every parent is found from its child
            child_board, child_hands = _position(child, ix)
            m = predecessors(child_board, child_hands, ix, preds)
            assert index in preds[:m].tolist()
        m = predecessors(board, hands, ix, preds)
        found = preds[:m].tolist()
        assert len(found) == len(set(found))  # each (position, move) once
        for parent in found:  # soundness: every predecessor has a move to here
            parent_board, parent_hands = _position(parent, ix)
            assert engine.try_status(parent_board) == 0
            k = children(parent_board, parent_hands, ix, out)
            assert index in out[:k].tolist()


# --- sub-games against a plain minimax over the kernel ----------------------------------------


def _minimax_fixpoint(material) -> dict[int, Value]:
    """Every position of a sub-game solved with the kernel's states and moves only: values
    by increasing distance (win in n if some move leads to a loss in n-1; loss in n if every
    move leads to a win and the longest is n-1); what never resolves is a draw."""
    ix = engine.index_tables(material)
    size = engine.table_size(ix)
    fixed, moves = {}, {}
    for index in range(size):
        state = _state(index, ix)
        outcome = state.outcome()
        if outcome is not None:
            fixed[index] = _outcome_value(outcome, state)
            continue
        after = []
        for move in state.legal_moves():
            child = state.apply(move)
            if child.outcome() is not None:
                after.append(_outcome_value(child.outcome(), child))
            else:
                after.append(_key(child))
        moves[index] = after
    values = dict(fixed)
    plies = 1
    while True:
        decided = {}
        for index, after in moves.items():
            if index in values:
                continue
            seen = [values.get(a) if isinstance(a, int) else a for a in after]
            if any(v == Value("loss", plies - 1) for v in seen):
                decided[index] = Value("win", plies)
            elif (
                seen
                and all(v is not None and v.result == "win" for v in seen)
                and max(v.plies for v in seen) == plies - 1
            ):
                decided[index] = Value("loss", plies)
        if not decided:
            break
        values.update(decided)
        plies += 1
    return {index: values.get(index, Value("draw", None)) for index in range(size)}


def _outcome_value(outcome, state) -> Value:
    if outcome.winner is None:
        return Value("draw", None)
    return Value("win" if outcome.winner == state.current_player else "loss", 0)


@pytest.mark.parametrize("material", [(0, 0, 1), (1, 0, 0), (0, 1, 0)])
def test_sub_game_table_equals_minimax_over_the_kernel(material, tmp_path):
    tb = Tablebase.build(material=material, directory=tmp_path, progress=False)
    ix = engine.index_tables(material)
    expected = _minimax_fixpoint(material)
    assert {expected[i].result for i in expected} >= {"win", "loss"}
    for index, value in expected.items():
        assert tb.value(_state(index, ix)) == value, position_text(*_position(index, ix))
    reopened = Tablebase.open(material=material, directory=tmp_path)
    assert reopened.counts() == tb.counts()


def _pure_python_engine():
    """A second copy of the engine module, loaded with numba switched off."""
    path = Path(engine.__file__)
    spec = importlib.util.spec_from_file_location("tablebase_engine_pure_python", path)
    module = importlib.util.module_from_spec(spec)
    return spec, module


def test_pure_python_fallback_builds_the_same_table(monkeypatch):
    if not engine.HAVE_NUMBA:
        pytest.skip("numba is not installed: the default path is already pure Python")
    monkeypatch.setenv("RULES_EXPLORER_NO_NUMBA", "1")
    spec, pure = _pure_python_engine()
    spec.loader.exec_module(pure)
    assert pure.HAVE_NUMBA is False

    compiled = build_table((0, 1, 1), progress=False)[0]
    walked = build_table((1, 0, 0), progress=False, start_board=SMALL_START)[0]
    monkeypatch.setattr(_solve, "engine", pure)
    python = _solve.build_table((0, 1, 1), progress=False, threads=2)[0]  # runs one thread
    assert python.dtype == compiled.dtype and (python == compiled).all()
    python = _solve.build_table((1, 0, 0), progress=False, start_board=SMALL_START)[0]
    assert (python == walked).all()  # the walk from a start too
    monkeypatch.setattr(_build, "engine", pure)  # and the earlier build's
    assert (_build.build_table((0, 1, 1), progress=False, threads=1)[0] == compiled).all()


# --- the API ---------------------------------------------------------------------------------


# What may never reach a visitor's page: a path of the server, a developer's command.
SERVER_DETAIL = re.compile(
    r"/home/|/root/|/tmp/|\.cache|rules-explorer solve|Tablebase\.|RULES_EXPLORER|\.npz"
)


def _visitor_safe(exc: Exception, *extra: Path) -> bool:
    text = str(exc)
    return not SERVER_DETAIL.search(text) and not any(str(path) in text for path in extra)


def test_open_without_a_table_tells_the_visitor_no_path_and_the_developer_the_command(tmp_path):
    with pytest.raises(TablebaseError) as info:
        Tablebase.open("yokai-3x4", directory=tmp_path)
    assert str(info.value) == "the solved table is not available here"
    assert _visitor_safe(info.value, tmp_path)
    assert "rules-explorer solve yokai-3x4" in info.value.detail and str(tmp_path) in info.value.detail


def test_unreadable_or_foreign_tables_tell_the_visitor_no_path(tmp_path):
    (tmp_path / "yokai-3x4-material-001.npz").write_bytes(b"not a zip file at all")
    with pytest.raises(TablebaseError) as info:
        Tablebase.open(material=(0, 0, 1), directory=tmp_path)
    assert str(info.value) == "the solved table could not be read" and _visitor_safe(info.value, tmp_path)
    assert str(tmp_path) in info.value.detail
    Tablebase.build(material=(0, 0, 1), directory=tmp_path, progress=False)
    (tmp_path / "yokai-3x4-material-001.npz").rename(tmp_path / "yokai-3x4-material-100.npz")
    with pytest.raises(TablebaseError) as info:  # the file of another sub-game
        Tablebase.open(material=(1, 0, 0), directory=tmp_path)
    assert str(info.value) == "the solved table could not be read" and _visitor_safe(info.value, tmp_path)
    assert "another version" in info.value.detail


def test_the_cli_gives_the_developer_the_detail(tmp_path, monkeypatch, capsys):
    from rules_kernel.cli import main

    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path))
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "yokai-3x4", "-n", "1", "--agents", "perfect,perfect", "-o", str(out)]) == 1
    assert "rules-explorer solve yokai-3x4" in capsys.readouterr().err


def test_only_yokai_3x4_has_a_table(tmp_path):
    with pytest.raises(TablebaseError, match="only 'yokai-3x4'"):
        Tablebase.open("yokai-5x6", directory=tmp_path)
    with pytest.raises(TablebaseError, match="material"):
        Tablebase.build(material=(3, 0, 0), directory=tmp_path, progress=False)


def test_best_moves_rate_every_move_from_the_movers_side(tmp_path):
    tb = Tablebase.build(material=(0, 0, 1), directory=tmp_path, progress=False)
    ix = engine.index_tables((0, 0, 1))
    for index in range(0, engine.table_size(ix), 37):
        state = _state(index, ix)
        if state.is_terminal():
            assert tb.value(state).plies in (0, None)
            continue
        rated = tb.best_moves(state)
        assert sorted(str(mv.move) for mv in rated) == sorted(map(str, state.legal_moves()))
        assert rated[0].value == tb.value(state)  # the best move keeps the value
        assert all(mv.value.sort_key() >= rated[0].value.sort_key() for mv in rated)
        assert set(tb.optimal_moves(state)) == {mv.move for mv in rated if mv.value == rated[0].value}


def test_a_table_does_not_answer_other_material(tmp_path):
    tb = Tablebase.build(material=(0, 0, 1), directory=tmp_path, progress=False)
    with pytest.raises(TablebaseError, match="material"):
        tb.value(GAME.initial_state())


# --- availability, preparation and opening by memory map ----------------------------------------

SMALL = (0, 0, 1)  # the smallest sub-game worth a table: 2,904 positions, built in about a second


@pytest.fixture
def small_cache(tmp_path, monkeypatch):
    """A cache directory holding nothing yet; RULES_EXPLORER_CACHE points there."""
    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path))
    monkeypatch.delenv(tablebase.PERFECT_PLAY_ENV, raising=False)
    return tmp_path


def test_availability_absent_preparing_ready(small_cache, monkeypatch):
    files = tablebase.TableFiles.of(SMALL)
    assert tablebase.availability(material=SMALL) == "absent"
    with files.locked():  # a build under way (the publishing set-up holds the lock meanwhile)
        assert tablebase.availability(material=SMALL) == "preparing"
    assert tablebase.availability(material=SMALL) == "absent"
    assert not files.lock.exists()  # let go: the lock file goes too (issue 44 item 9)
    # a half-written table (its writer killed, or still writing): never opened, "preparing"
    files.table.with_name(files.table.name + ".partial.npz").write_bytes(b"PK\x03\x04 half")
    assert tablebase.availability(material=SMALL) == "preparing"
    tablebase.prepare(material=SMALL, progress=False)  # clears it, builds, unpacks
    assert tablebase.availability(material=SMALL) == "ready" and not files.partials()
    assert files.values.is_file()
    # a half-written unpacked copy next to a ready table: "preparing" too
    partial = files.values.with_name("yokai-3x4-material-001.values.99.partial.npy")
    partial.write_bytes(b"\x93NUMPY half")
    assert tablebase.availability(material=SMALL) == "preparing"
    partial.unlink()
    monkeypatch.setenv(tablebase.PERFECT_PLAY_ENV, "off")  # ./run publish --no-perfect-play
    assert tablebase.availability(material=SMALL) == "absent"
    monkeypatch.delenv(tablebase.PERFECT_PLAY_ENV)
    assert tablebase.availability("yokai-5x6") == "absent"
    assert game_parts.solved_table_availability(rk.load_game("yokai-5x6")) == "absent"  # declares no table
    assert game_parts.solved_table_availability(GAME) == "absent"  # the whole game's table: not here


def test_availability_imports_neither_numpy_nor_the_solver():
    code = (
        "import sys, rules_kernel as rk\n"
        "available = rk.parts.solved_table_availability(rk.load_game('yokai-3x4'))\n"
        "assert available in ('ready', 'preparing', 'absent')\n"
        "print(sorted(m for m in ('numpy', 'numba', 'rules_kernel.tablebase._table') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_open_maps_the_unpacked_values_read_only(small_cache):
    built = Tablebase.build(material=SMALL, progress=False)
    files = tablebase.TableFiles.of(SMALL)
    # a build writes the compressed table and its unpacked values, and answers from the map
    assert files.values.is_file() and isinstance(built._values, np.memmap)
    assert files.values.stat().st_mtime_ns >= files.table.stat().st_mtime_ns
    stamp = files.values.stat().st_mtime_ns
    tb = Tablebase.open(material=SMALL)
    assert isinstance(tb._values, np.memmap) and not tb._values.flags.writeable
    assert np.array_equal(tb._values, built._values) and tb.counts() == built.counts()
    assert files.values.stat().st_mtime_ns == stamp  # current: reused, not unpacked again
    in_memory = Tablebase.open(material=SMALL, mapped=False)
    assert not isinstance(in_memory._values, np.memmap)
    assert np.array_equal(in_memory._values, built._values)
    files.values.unlink()
    Tablebase.open(material=SMALL)  # the first open unpacks when the file is not there
    assert np.array_equal(np.load(files.values), built._values)
    stamp = files.values.stat().st_mtime_ns
    time.sleep(0.01)
    Tablebase.build(material=SMALL, progress=False)  # a new table: a new unpacked copy
    assert files.values.stat().st_mtime_ns > stamp
    assert files.values.stat().st_mtime_ns >= files.table.stat().st_mtime_ns


def test_open_during_a_preparation_says_so_without_a_path(small_cache):
    Tablebase.build(material=SMALL, progress=False)
    files = tablebase.TableFiles.of(SMALL)
    files.values.unlink()  # as the earlier build left its tables: compressed only
    with files.locked(), pytest.raises(TablebaseError) as info:  # not unpacked yet, someone is at it
        Tablebase.open(material=SMALL)
    assert "being prepared" in str(info.value) and _visitor_safe(info.value, small_cache)
    assert Tablebase.open(material=SMALL).value is not None


def test_prepare_reuses_a_current_table_and_rebuilds_a_foreign_one(small_cache):
    files = tablebase.TableFiles.of(SMALL)
    tablebase.prepare(material=SMALL, progress=False)
    stamp = files.table.stat().st_mtime_ns
    tablebase.prepare(material=SMALL, progress=False)
    assert files.table.stat().st_mtime_ns == stamp  # reused, not rebuilt
    files.table.write_bytes(b"damaged")
    tablebase.prepare(material=SMALL, progress=False)
    assert Tablebase.open(material=SMALL).counts()["solved"]["positions"] == 2904


def test_the_cli_prepares_a_table_for_the_publishing_set_up(small_cache, capsys):
    from rules_kernel.cli import main

    assert main(["solve", "yokai-3x4", "--material", "001", "--reuse"]) == 0
    assert "ready" in capsys.readouterr().out
    assert tablebase.availability(material=SMALL) == "ready"
    assert tablebase.TableFiles.of(SMALL).values.is_file()


# A kernel under a memory cap (RLIMIT_DATA, what publish.serve sets on every published kernel):
# the values of a table larger than what is left under the cap open mapped, not in memory.
CAPPED_OPEN = """
import resource, sys
from pathlib import Path
import rules_kernel as rk
from rules_kernel.tablebase import Tablebase, TablebaseError

small, padded = Path(sys.argv[1]), Path(sys.argv[2])
state = rk.load_game("yokai-3x4").from_text(sys.argv[3])
expected = Tablebase.open(material=(0, 0, 1), directory=small).value(state)  # imports, numba
data_mib = int(open("/proc/self/status").read().split("VmData:")[1].split()[0]) // 1024
cap = (data_mib + 24) * 2**20  # 24 MiB to spare, the padded table holds 64 MiB of values
resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
try:
    Tablebase.open(material=(0, 0, 1), directory=padded, mapped=False)
    print("in memory: opened")
except TablebaseError as exc:
    print("in memory:", exc)
tb = Tablebase.open(material=(0, 0, 1), directory=padded)
print("mapped:", tb.value(state) == expected, tb.nbytes // 2**20, "MiB")
"""


def test_a_table_larger_than_the_memory_left_opens_mapped_under_the_cap(tmp_path):
    small, padded = tmp_path / "small", tmp_path / "padded"
    tb = Tablebase.build(material=SMALL, directory=small, progress=False)
    values = np.zeros(64 * 2**20 // tb._values.itemsize, tb._values.dtype)
    values[: tb._values.size] = tb._values  # the real table, then entries never looked up
    padded.mkdir()
    np.savez_compressed(
        padded / "yokai-3x4-material-001.npz", values=values, meta=np.array(json.dumps(tb.meta))
    )
    ix = engine.index_tables(SMALL)
    state = next(s for s in (_state(i, ix) for i in range(0, 5000, 11)) if not s.is_terminal())
    run = subprocess.run(
        [sys.executable, "-c", CAPPED_OPEN, str(small), str(padded), state.to_text()],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines() == [
        "in memory: the solved table does not fit in this process's memory",
        "mapped: True 64 MiB",
    ]


# --- the full table (only when built) ---------------------------------------------------------


@pytest.fixture(scope="module")
def full_table():
    try:
        return Tablebase.open("yokai-3x4")
    except TablebaseError:
        pytest.skip(
            "the full table is not built in the cache (rules-explorer solve yokai-3x4: 8 minutes on "
            "2 quiet cores, over an hour on a loaded machine)"
        )


FULL_UNDER_THE_CAP = """
import resource, sys
import rules_kernel as rk
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))  # as publish.serve sets it on each kernel
game = rk.load_game("yokai-3x4")
print(rk.parts.solved_table_availability(game), rk.parts.open_solved_table(game).value(game.initial_state()))
"""


def test_the_full_table_opens_under_the_published_memory_cap(full_table):
    """The 1.6 GiB of values under the published kernels' 1 GiB RLIMIT_DATA: mapped (the first
    open, in the fixture, unpacked them)."""
    from publish.serve import KERNEL_MEMORY_MIB

    cap = KERNEL_MEMORY_MIB * 2**20
    assert full_table.nbytes > cap
    run = subprocess.run(
        [sys.executable, "-c", FULL_UNDER_THE_CAP, str(cap)], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["ready", "loss", "in", "78"]


def test_start_is_lost_in_78_for_the_first_player(full_table):
    # NOTES.md: "the start position is lost in 78 plies for the first player"
    assert full_table.value(GAME.initial_state()) == Value("loss", 78)


def test_full_values_agree_with_one_ply_minimax_along_random_games(full_table):
    """Along games mixing perfect and random moves, each value is the best of the values its
    moves lead to. Where the Koropokkuru can be taken the game is won in 1 and the capture is
    played (declining it leaves the solved set: docs/tablebase.md)."""
    rng = random.Random(78)
    checked = 0
    while checked < 400:
        state = GAME.initial_state()
        while not state.is_terminal():
            value = full_table.value(state)
            if engine.can_capture_lion(normalised(state)[0]):
                assert value == Value("win", 1)
                state = state.apply(rng.choice(full_table.optimal_moves(state)))
                continue
            children = [full_table.value(state.apply(m)).after_move() for m in state.legal_moves()]
            assert min(children, key=Value.sort_key) == value, state.to_text()
            checked += 1
            moves = full_table.optimal_moves(state) if rng.random() < 0.7 else state.legal_moves()
            state = state.apply(rng.choice(moves))


def test_perfect_play_from_the_start_lasts_78_plies(full_table):
    state = GAME.initial_state()
    rng = random.Random(5)
    plies = 0
    while not state.is_terminal():
        state = state.apply(rng.choice(full_table.optimal_moves(state)))
        plies += 1
    assert plies == 78 and state.outcome().winner == 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def test_perfect_agent_plays_a_random_optimal_move_reproducibly(tmp_path):
    from rules_kernel.agents import PerfectAgent, make_agent

    tb = Tablebase.build(material=(1, 0, 0), directory=tmp_path, progress=False)
    ix = engine.index_tables((1, 0, 0))
    state = next(
        s
        for s in (_state(i, ix) for i in range(0, 5544, 7))
        if not s.is_terminal() and len(tb.optimal_moves(s)) > 1
    )
    choices = {str(PerfectAgent(seed, tablebase=tb).choose(state)) for seed in range(20)}
    assert choices <= {str(m) for m in tb.optimal_moves(state)} and len(choices) > 1
    again = [str(PerfectAgent(3, tablebase=tb).choose(state)) for _ in range(3)]
    assert len(set(again)) == 1
    assert make_agent("perfect", seed=1).name == "perfect"


def test_perfect_agent_without_a_table_says_how_to_build_it(tmp_path, monkeypatch):
    from rules_kernel.agents import PerfectAgent

    monkeypatch.setenv("RULES_EXPLORER_CACHE", str(tmp_path))
    with pytest.raises(rk.RulesError) as info:
        PerfectAgent(0).choose(GAME.initial_state())
    assert "rules-explorer solve yokai-3x4" in info.value.detail and _visitor_safe(info.value, tmp_path)


def test_cli_solve_refuses_games_without_a_table(capsys):
    from rules_kernel.cli import main

    assert main(["solve", "yokai-5x6"]) == 2
    assert "only 'yokai-3x4' is solved" in capsys.readouterr().err


# --- the folded index, the walk and the counts ------------------------------------------------


def _mirror_node(board, hands, ix) -> int:
    return int(engine.node_index(mirrored(board), hands, ix))


def test_folded_index_gives_a_position_and_its_mirror_image_one_node():
    material = (1, 0, 1)
    ix = engine.index_tables(material)
    nodes = set()
    for index in range(engine.table_size(ix)):
        board, hands = _position(index, ix)
        node = int(engine.node_index(board, hands, ix))
        pair = index // int(ix[engine.IX_REST])
        if engine.PAIR_CLASS[pair] != engine.SELF:  # a SELF pair keeps both images apart
            assert _mirror_node(board, hands, ix) == node
        again_board, again_hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
        engine.unrank_node(node, ix, again_board, again_hands)
        assert int(engine.node_index(again_board, again_hands, ix)) == node
        nodes.add(node)
    assert nodes == set(range(engine.node_count(ix)))


@pytest.mark.parametrize("material", [(1, 0, 0), (0, 1, 0)])
def test_folded_predecessors_count_every_move_into_a_node(material):
    """predecessors(nodes=True) of a node gives each node once per move of its position into
    the node (the retrograde step counts moves), against the moves themselves."""
    from collections import Counter

    ix = engine.index_tables(material)
    out = np.zeros(256, np.int64)
    moves_into = {}
    board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
    for node in range(engine.node_count(ix)):
        engine.unrank_node(node, ix, board, hands)
        if engine.try_status(board) != 0:
            continue
        n = children(board, hands, ix, out)
        for child in out[:n].tolist():
            child_board, child_hands = _position(child, ix)
            key = int(engine.node_index(child_board, child_hands, ix))
            moves_into.setdefault(key, Counter())[node] += 1
    preds = np.zeros(1024, np.int64)
    for node in range(engine.node_count(ix)):
        engine.unrank_node(node, ix, board, hands)
        m = predecessors(board, hands, ix, preds, nodes=True)
        assert Counter(preds[:m].tolist()) == moves_into.get(node, Counter())


def _reached_from(start_board, ix) -> tuple[set[int], set[int]]:
    """Nodes reached from a start and its mirror image, position by position over the plain
    index; and those expanded (no try made, no Koropokkuru to take)."""
    board = np.array(start_board, np.int64)
    hands = np.zeros(6, np.int64)
    todo = [int(engine.rank(board, hands, ix)), int(engine.rank(mirrored(board), hands, ix))]
    seen, expanded = set(todo), set()
    out = np.zeros(256, np.int64)
    while todo:
        board, hands = _position(todo.pop(), ix)
        if engine.try_status(board) != 0 or engine.can_capture_lion(board):
            continue
        expanded.add(int(engine.node_index(board, hands, ix)))
        n = children(board, hands, ix, out)
        for child in out[:n].tolist():
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return {int(engine.node_index(*_position(i, ix), ix)) for i in seen}, expanded


def test_walk_from_a_start_reaches_its_positions_and_solves_them_as_the_whole_sub_game():
    from concurrent.futures import ThreadPoolExecutor

    from rules_kernel.tablebase._build import _walk

    material = (1, 0, 0)
    ix = engine.index_tables(material)
    values = np.zeros(engine.node_count(ix), np.uint16)
    flags = np.zeros(engine.node_count(ix), np.uint8)
    with ThreadPoolExecutor(2) as pool:
        _walk(pool, ix, values, flags, 2, False, start_board=SMALL_START)
    reached, expanded = _reached_from(SMALL_START, ix)
    assert set(np.flatnonzero(flags & engine.REACHED).tolist()) == reached
    assert set(np.flatnonzero(flags & engine.EXPANDED).tolist()) == expanded
    assert 0 < len(expanded) < len(reached) < values.size
    # the reached positions are closed under play: their values are the whole sub-game's
    walked, meta = build_table(material, progress=False, start_board=SMALL_START)
    whole, _ = build_table(material, progress=False)
    solved = walked != 0
    assert solved.sum() == len(reached) and (walked[solved] == whole[solved]).all()
    assert meta["counts"]["solved"]["positions"] < meta["counts"]["index_size"]
    from rules_kernel.tablebase._build import reachable_counts

    walked = reachable_counts(progress=False, material=material, start_board=SMALL_START)
    for name in ("solved", "non_terminal"):
        assert walked[name] == {
            "positions": meta["counts"][name]["positions"],
            "folded": meta["counts"]["folded"][name]["positions"],
        }


def test_counts_in_both_conventions(tmp_path):
    """`solved` counts a position and its mirror image apart (the plain index); `folded`
    once (Tanaka's convention); both against the positions themselves."""
    from collections import Counter

    material = (1, 0, 1)
    tb = Tablebase.build(material=material, directory=tmp_path, progress=False)
    ix = engine.index_tables(material)
    plain, folded, orbits = Counter(), Counter(), set()
    for index in range(engine.table_size(ix)):
        board, hands = _position(index, ix)
        if engine.try_status(board) != 0 or engine.can_capture_lion(board):
            continue  # over, or a win in 1 by capture: not counted as non-terminal
        value = decode(int(tb._values[tb._position(board, hands)]))
        plain[value.result] += 1
        orbit = min(index, int(engine.rank(mirrored(board), hands, ix)))
        if orbit not in orbits:
            orbits.add(orbit)
            folded[value.result] += 1
    counts = tb.counts()
    assert counts["solved"]["positions"] == engine.table_size(ix)
    assert counts["folded"]["solved"]["positions"] < engine.table_size(ix)
    for got, expected in ((counts["non_terminal"], plain), (counts["folded"]["non_terminal"], folded)):
        assert (got["wins"], got["draws"], got["losses"]) == (
            expected["win"],
            expected["draw"],
            expected["loss"],
        )


# --- the compact build against the earlier one ---------------------------------------------------

# a start with one piece of each kind beside the Koropokkuru (material (1, 1, 1)): ours Kitsune
# a1, Koropokkuru b1, Kodama b2; theirs Koropokkuru b4, Tanuki c4
MIXED_START = (
    engine.E,
    engine.L,
    0,
    0,
    engine.C,
    0,
    0,
    0,
    0,
    0,
    engine.L + engine.THEM,
    engine.G + engine.THEM,
)


@pytest.mark.parametrize(
    ("material", "start", "threads"),
    [
        ((0, 1, 1), None, 2),  # every position of a sub-game
        ((1, 1, 1), None, 2),
        ((1, 0, 0), SMALL_START, 1),  # the walk from a start
        ((1, 1, 1), MIXED_START, 2),
        ((1, 1, 1), MIXED_START, 1),
    ],
)
def test_compact_build_equals_the_earlier_build(material, start, threads):
    """The compact build (bitset, dense values, atomic updates by all threads) gives the same
    values, counts and levels as the earlier build (a value and a flags byte per node)."""
    ours, meta = build_table(material, progress=False, threads=threads, start_board=start)
    earlier, earlier_meta = _build.build_table(material, progress=False, threads=2, start_board=start)
    assert ours.dtype == earlier.dtype == np.uint16 and np.array_equal(ours, earlier)
    assert meta["counts"] == earlier_meta["counts"] and meta["levels"] == earlier_meta["levels"]
    assert meta["counts"]["non_terminal"]["wins"] > 0 and meta["counts"]["non_terminal"]["losses"] > 0
    if start is not None:  # only the reached nodes have values: the rest are 0, as before
        assert 0 < np.count_nonzero(ours) < ours.size


@pytest.mark.parametrize("threads", [1, 2])
def test_the_compact_walk_marks_each_reached_node_once(monkeypatch, threads):
    """The bitset walk: exactly the nodes a plain breadth-first search over the engine's
    moves reaches, in whole passes (small tasks, so that the threads' words meet), the last
    of which finds nothing. Every node is taken (or, where a Koropokkuru can be taken,
    marked) once: exactly once with one thread; with two, a catch may rarely be taken by its
    word's owner as well (harmless: it is over)."""
    from concurrent.futures import ThreadPoolExecutor

    material = (1, 0, 0)
    ix = engine.index_tables(material)
    size = engine.node_count(ix)
    bits = np.zeros(engine.bitset_words(size), np.uint64)
    passes = []
    original = engine.walk_words

    def recording(ix, marks, first, stop, far):
        count = original(ix, marks, first, stop, far)
        passes.append(count)
        return count

    monkeypatch.setattr(engine, "walk_words", recording)
    monkeypatch.setattr(_solve, "WORDS_PER_TASK", 64)
    with ThreadPoolExecutor(threads) as pool:
        _solve.walk(pool, ix, bits, threads, False, start_board=SMALL_START)
    marked = {node for node in range(size) if (int(bits[node >> 6]) >> (node & 63)) & 1}
    reached, _expanded = _reached_from(SMALL_START, ix)
    assert marked == reached
    tasks = -(-bits.size // 64)
    assert len(passes) % tasks == 0 and len(passes) > tasks  # whole passes, more than one
    assert sum(passes[-tasks:]) == 0
    if threads == 1:
        assert sum(passes) == len(reached)
    else:
        assert len(reached) <= sum(passes) <= len(reached) * 1.01


def test_children_flag_exactly_the_children_where_the_koropokkuru_can_be_taken():
    """children(flag_catches=True), which the walk uses to leave those positions unpacked:
    the same nodes as without the flag, CATCH on exactly those whose player can take the
    other Koropokkuru."""
    ix = engine.index_tables(FULL)
    plain, flagged = np.zeros(256, np.int64), np.zeros(256, np.int64)
    seen = {False: 0, True: 0}
    for index in _random_indices(300, seed=3):
        board, hands = _position(index, ix)
        if engine.try_status(board) != 0 or engine.can_capture_lion(board):
            continue
        n = children(board, hands, ix, plain, nodes=True)
        assert children(board, hands, ix, flagged, nodes=True, flag_catches=True) == n
        assert ((flagged[:n] & (engine.CATCH - 1)) == plain[:n]).all()
        child_board, child_hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
        for entry in flagged[:n].tolist():
            engine.unrank_node(entry & (engine.CATCH - 1), ix, child_board, child_hands)
            catch = bool(engine.can_capture_lion(child_board))
            assert bool(entry & engine.CATCH) == catch
            seen[catch] += 1
    assert seen[True] > 100 and seen[False] > 100


def test_written_tables_read_as_numpy_files_and_tables_of_the_earlier_writer_still_open(tmp_path):
    """The build streams the table file (format 1, what the earlier build's np.savez_compressed
    wrote); np.load reads it, and a table in the earlier writer's file opens and answers alike."""
    material = (1, 0, 1)
    tb = Tablebase.build(material=material, directory=tmp_path / "new", progress=False)
    earlier = _build.build_table(material, progress=False)[0]
    narrow = earlier.astype(np.uint8)  # the sub-game's distances fit a byte: 254, 255 the draws
    narrow[earlier == engine.DRAW], narrow[earlier == engine.DRAW_TERMINAL] = 254, 255
    with np.load(tb.path, allow_pickle=False) as data:
        assert data["values"].dtype == np.uint8 and np.array_equal(data["values"], narrow)
        meta = json.loads(str(data["meta"]))
    assert meta["format"] == 1 and meta["counts"] == tb.counts() and meta["material"] == list(material)
    old_dir = tmp_path / "earlier"
    Tablebase(np.array(narrow), dict(tb.meta)).save(tablebase.TableFiles.of(material, old_dir).table)
    assert not tablebase.TableFiles.of(material, old_dir).values.exists()
    old = Tablebase.open(material=material, directory=old_dir)  # unpacks on the first open
    assert np.array_equal(old._values, tb._values)
    ix = engine.index_tables(material)
    for index in range(0, engine.table_size(ix), 97):
        state = _state(index, ix)
        assert old.value(state) == tb.value(state)
