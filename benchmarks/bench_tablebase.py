"""Yokai 3x4 tablebase speed: build throughput, size on disk and value() latency, each
printed beside a peer measured in the same run.

    python benchmarks/bench_tablebase.py                 # sub-game build + lookups (if built)
    python benchmarks/bench_tablebase.py --full          # also the whole table, built by the
                                                         # earlier code and by this one (about
                                                         # 52 minutes under load 8-9 here)

Peers: the build's positions per second against the kernel's own perft leaves per second
(both walk the same move rules); value() against a depth-limited alpha-beta search of the
kernel on the same positions (what a player without the table would run); with --full, the
whole table built by this code against the same build by the code before issue 44
(EARLIER_COMMIT, extracted with `git archive` into a temporary directory), each in a fresh
process of its own (time of `Tablebase.build`, the process's peak resident memory, CPU time),
one after the other, and their values compared entry by entry.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

import rules_kernel as rk
from rules_kernel.tablebase import Tablebase, TablebaseError
from rules_kernel.tablebase import _engine as engine
from rules_kernel.tablebase._table import _npy_header

GAME = rk.load_game("yokai-3x4")
ROOT = Path(__file__).resolve().parent.parent
# the code as it was before issue 44's compact build: uint16 values and a flags byte for every
# node of the folded index (392 s and 2.35 GB for the whole table in the report)
EARLIER_COMMIT = "f6d790205a0332fc198a74c25f43cfe7810df7b7"
GOAL_SECONDS, GOAL_MIB = 240, 1024  # issue 44: <= 4 minutes on 2 cores, <= 1 GB at the peak

# Run in a fresh interpreter: compile (or load numba's cache) on a tiny sub-game, then build
# the whole table into argv[1] and print the figures as JSON on the last line.
BUILD_IN_A_PROCESS = """
import json, os, resource, sys, tempfile, time
from rules_kernel.tablebase import Tablebase
with tempfile.TemporaryDirectory() as warm:
    Tablebase.build(material=(0, 0, 1), directory=warm, progress=False)
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
load = os.getloadavg()[0]
cpu_before, started = cpu(), time.perf_counter()
tb = Tablebase.build("yokai-3x4", directory=sys.argv[1], progress=False)
seconds = time.perf_counter() - started
print(json.dumps({
    "seconds": seconds,
    "cpu_seconds": cpu() - cpu_before,
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "load_before": load,
    "load_after": os.getloadavg()[0],
    "timings": tb.meta["timings"],
    "levels": tb.meta["levels"],
    "positions": tb.counts()["solved"]["positions"],
    "numba": tb.meta["numba"],
    "package": os.path.dirname(__import__("rules_kernel").__file__),
}))
"""


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def alpha_beta(state, depth: int, alpha: float = -2.0, beta: float = 2.0) -> float:
    """Plain negamax with alpha-beta to `depth` plies: 1 win, -1 loss, 0 unknown or draw."""
    outcome = state.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == state.current_player else -1.0)
    if depth == 0:
        return 0.0
    best = -2.0
    for move in state.legal_moves():
        score = -alpha_beta(state.apply(move), depth - 1, -beta, -alpha)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def positions_from_play(tb: Tablebase, count: int, seed: int) -> list:
    """Positions along games that mix perfect and random moves (all inside the table)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = GAME.initial_state()
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            optimal = tb.optimal_moves(state)
            state = state.apply(
                rng.choice(
                    optimal
                    if rng.random() < 0.6 or engine.can_capture_lion(_board(state))
                    else state.legal_moves()
                )
            )
    return found


def _board(state):
    from rules_kernel.tablebase import normalised

    return normalised(state)[0]


def bench_build(material, perft_depth: int) -> Tablebase:
    with tempfile.TemporaryDirectory() as directory:
        Tablebase.build(material=(0, 0, 1), directory=directory, progress=False)  # compile
        tb, seconds = timed(Tablebase.build, material=material, directory=directory, progress=False)
        size = os.path.getsize(tb.path)
    positions = tb.counts()["solved"]["positions"]
    leaves, perft_seconds = timed(rk.perft, GAME.initial_state(), perft_depth)
    ours, peer = positions / seconds, leaves / perft_seconds
    nodes = tb.counts()["nodes"]
    print(
        f"build of the sub-game {material} (Kodama, Kitsune, Tanuki): {positions:,} positions "
        f"({nodes:,} nodes of the folded index) in {seconds:.1f} s = {ours:,.0f} positions/s, "
        f"{size / 1e6:.1f} MB on disk; phases {tb.meta['timings']} s"
    )
    print(
        f"kernel perft {perft_depth}: {leaves:,} leaves in {perft_seconds:.1f} s = {peer:,.0f} "
        f"leaves/s; ratio {ours / peer:.1f} (table positions solved per perft leaf)"
    )
    return tb


def sub_game_positions(tb: Tablebase, count: int, seed: int) -> list:
    """Random positions of a sub-game table (the full table is not built)."""
    from rules_kernel.tablebase import position_text

    rng = random.Random(seed)
    size = engine.table_size(tb.ix)
    board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
    found = []
    while len(found) < count:
        engine.unrank(rng.randrange(size), tb.ix, board, hands)
        state = GAME.from_text(position_text(board, hands))
        if not state.is_terminal():
            found.append(state)
    return found


def bench_lookups(count: int, depth: int, sub_game: Tablebase, directory: Path | None = None) -> None:
    try:
        tb, open_seconds = timed(Tablebase.open, "yokai-3x4", directory=directory)
    except TablebaseError as exc:
        print(f"full table: not built ({exc.__class__.__name__}); lookups on the sub-game table")
        tb = sub_game
        positions = sub_game_positions(tb, count, seed=1)
    else:
        print(
            f"open: {open_seconds:.1f} s; {os.path.getsize(tb.path) / 1e6:,.1f} MB on disk, "
            f"{tb.nbytes / 1e6:,.0f} MB in memory"
        )
        positions = positions_from_play(tb, count, seed=1)
    _, lookup_seconds = timed(lambda: [tb.value(s) for s in positions])
    _, search_seconds = timed(lambda: [alpha_beta(s, depth) for s in positions])
    per_value = lookup_seconds / len(positions) * 1e3
    per_search = search_seconds / len(positions) * 1e3
    print(f"value(): {per_value:.3f} ms per position ({len(positions)} positions from play)")
    print(
        f"alpha-beta to depth {depth} on the same positions: {per_search:.2f} ms; "
        f"ratio {per_search / per_value:,.0f}x slower, and it only sees {depth} plies"
    )
    _, best_seconds = timed(lambda: [tb.best_moves(s) for s in positions[:200]])
    print(f"best_moves(): {best_seconds / min(200, len(positions)) * 1e3:.2f} ms per position")


def earlier_code() -> Path:
    """The package as of EARLIER_COMMIT, extracted once into the temporary directory (kept:
    numba's cache of it lives there too, so a second run does not compile it again)."""
    where = Path(tempfile.gettempdir()) / f"rules-explorer-earlier-{EARLIER_COMMIT[:12]}"
    if not (where / "rules_kernel" / "tablebase" / "_build.py").is_file():
        partial = where.with_name(where.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        try:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", EARLIER_COMMIT, "rules_kernel"],
                check=True,
                capture_output=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(partial)], input=archive, check=True)
            shutil.rmtree(where, ignore_errors=True)
            partial.rename(where)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    return where


def build_in_a_process(code: Path, directory: Path) -> dict:
    """The whole table built by the package in `code` (a fresh interpreter, the same one as
    this), into `directory`; its figures."""
    env = dict(os.environ, PYTHONPATH=str(code))
    env.pop("RULES_EXPLORER_NO_NUMBA", None)
    done = subprocess.run(
        [sys.executable, "-c", BUILD_IN_A_PROCESS, str(directory)],
        cwd=code,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def same_values(first: Path, second: Path, step: int = 1 << 24) -> tuple[bool, int]:
    """Whether two tables' values are equal entry by entry (read from both files step by step,
    as stored: same dtype, same codes), and their number."""
    with zipfile.ZipFile(first) as a, zipfile.ZipFile(second) as b:
        with a.open("values.npy") as one, b.open("values.npy") as two:
            headers = [_npy_header(stream) for stream in (one, two)]
            if headers[0] != headers[1]:
                return False, 0
            (size,), _, dtype = headers[0]
            left = size * dtype.itemsize
            while left:
                n = min(step, left)
                if one.read(n) != two.read(n):
                    return False, size
                left -= n
    return True, size


def bench_full(keep: Path | None) -> Path:
    """The whole table by this code and by the earlier one; returns the directory of this
    one's table (deleted at exit unless it goes to `keep`)."""
    work = Path(tempfile.mkdtemp(prefix="rules-explorer-bench-"))
    earlier_dir, ours_dir = work / "earlier", work / "ours"
    print(
        f"earlier build: the code at {EARLIER_COMMIT[:12]} (git archive) in a fresh process ...", flush=True
    )
    earlier = build_in_a_process(earlier_code(), earlier_dir)
    print("this build: the working tree in a fresh process ...", flush=True)
    ours = build_in_a_process(ROOT, ours_dir)
    for name, figures in (("earlier build", earlier), ("this build", ours)):
        print(
            f"{name:>13}: {figures['seconds']:6.1f} s = {figures['seconds'] / 60:.1f} min, "
            f"peak {figures['peak_mib']:,.0f} MiB resident, {figures['cpu_seconds']:.0f} s of CPU; "
            f"phases {figures['timings']} s; load average {figures['load_before']:.1f} before, "
            f"{figures['load_after']:.1f} after; numba {figures['numba']}; {figures['package']}"
        )
    ratios = {name: earlier[name] / ours[name] for name in ("seconds", "peak_mib", "cpu_seconds")}
    print(
        f"ratio (earlier / this): time {ratios['seconds']:.2f}x, peak memory "
        f"{ratios['peak_mib']:.2f}x, CPU {ratios['cpu_seconds']:.2f}x"
    )
    met = ours["seconds"] <= GOAL_SECONDS and ours["peak_mib"] <= GOAL_MIB
    print(
        f"goals (issue 44): <= {GOAL_SECONDS} s and <= {GOAL_MIB} MiB on 2 cores: "
        f"{'met' if met else 'NOT met'} ({ours['seconds']:.0f} s, {ours['peak_mib']:,.0f} MiB)"
    )
    same, size = same_values(earlier_dir / "yokai-3x4.npz", ours_dir / "yokai-3x4.npz")
    print(
        f"values: {'identical' if same else 'DIFFERENT'} ({size:,} entries); levels "
        f"{earlier['levels']} and {ours['levels']}; positions solved {earlier['positions']:,} and "
        f"{ours['positions']:,}"
    )
    shutil.rmtree(earlier_dir)
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        for path in sorted(ours_dir.glob("yokai-3x4.*")):  # the table first, its values newer
            if path.suffix != ".lock":
                shutil.move(path, keep / path.name)
        print(f"this build's table kept in {keep}")
        shutil.rmtree(work, ignore_errors=True)  # what is left: the lock file
        return keep
    return ours_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--material", default="111", help="sub-game material (3 digits 0..2)")
    parser.add_argument("--perft-depth", type=int, default=6)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=4, help="alpha-beta depth of the peer")
    parser.add_argument("--full", action="store_true", help="also build the full table, earlier and now")
    parser.add_argument("--keep", type=Path, help="with --full: keep this build's table in this directory")
    args = parser.parse_args()
    print(f"numba: {engine.HAVE_NUMBA}")
    sub_game = bench_build(tuple(int(c) for c in args.material), args.perft_depth)
    directory = None
    if args.full:
        directory = bench_full(args.keep)
        tb = Tablebase.open("yokai-3x4", directory=directory)
        folded = tb.counts()["folded"]["non_terminal"]
        print(
            f"non-terminal, a position and its mirror image once: {folded['positions']:,} "
            f"({folded['wins']:,} wins, {folded['draws']:,} draws, {folded['losses']:,} "
            f"losses); Tanaka (2009): 99,485,568 (56,474,473, 2,682,700, 40,328,395)"
        )
        print(f"the start: {tb.value(GAME.initial_state())} for the first player")
    try:
        bench_lookups(args.positions, args.depth, sub_game, directory)
    finally:
        if directory is not None and args.keep is None:
            shutil.rmtree(directory.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
