"""Analysis engines: speed beside their peers measured in the same run, time to a first
evaluation, strength, and how Debian's Fairy-Stockfish agrees with the solved 3x4 table.

    python benchmarks/bench_analysis.py                 # every part, small numbers of games
    python benchmarks/bench_analysis.py --only strength --games 200 --playouts 20 --workers 2
    python benchmarks/bench_analysis.py --only strength --games 4 --seconds 1.0 --opponents greedy
    python benchmarks/bench_analysis.py --only speed,first,fsf,strength,agreement
    python benchmarks/bench_analysis.py --only agreement --positions 300 --material 110
    python benchmarks/bench_analysis.py --only agreement --table-dir ~/.cache/rules-explorer

- speed: tree-search playouts per second per card game, and the actions per second they
  apply, beside the kernel's own random-playout actions per second (the peer).
- fsf: Fairy-Stockfish nodes per second through the wrapper beside the bare engine (`go depth
  N` written straight to its pipe), and the analysis engine's time for the same depth.
- first: time from `analyse` to its first evaluation (the first progress call), per game,
  with a fresh engine (a process to start, a table to open) and a warm one. Goal: <= 1 s.
- strength: `ismcts` within `--playouts` or `--seconds` a move against `--opponents` (`greedy`,
  `mcts:100`: `agents.make_agent` names), seats alternating, game g seeded g; score with its
  95% Wilson interval (a draw or an unfinished game counts half), the seconds a game and the
  search's seconds and playouts a move. `--speed-seconds` is the speed part's time. Both
  sides play with perfect memory (`view(seat, memory=True)`: in War Stories every card seen
  turned up stays known, rules/NOTES.md "Information"); `--forgetful` plays both on what lies
  in sight now, the views the explorer's boards show.
- agreement: on random positions of a 3x4 (sub-)game, whether the engine's best move keeps
  the table's result and is among its optimal moves, and whether its mate claims are right;
  Fairy-Stockfish (Debian's older dobutsu, through the wrapper) beside the tree search.
Figures only: no test times anything.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

import rules_kernel as rk
from rules_kernel.agents import make_agent
from rules_kernel.analysis import (
    EngineError,
    FairyStockfish,
    FairyStockfishEngine,
    Limit,
    TableEngine,
    TreeSearchEngine,
    analyse,
)
from rules_kernel.analysis.fsf import find_binary
from rules_kernel.stats import proportion_ci

CARD_GAMES = ("war-stories", "to-war", "war-chest")


def mid_game(game_id: str, seed: int = 1, plies: int = 30, **options) -> rk.State:
    """A decision of a random game after about `plies` actions."""
    game = rk.load_game(game_id, **options)
    state, rng = game.initial_state(), random.Random(seed)
    while not state.is_terminal() and (
        state.ply < plies or state.current_player == rk.CHANCE or len(state.legal_moves()) < 2
    ):
        state = state.apply(
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
    return state


# --- speed ----------------------------------------------------------------------------------------


def kernel_actions_per_second(game_id: str, seconds: float) -> float:
    game, rng, actions = rk.load_game(game_id), random.Random(0), 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        actions += len(rk.playout(game.initial_state(), rng, max_plies=2000)) - 1
    return actions / (time.perf_counter() - started)


def speed(seconds: float) -> None:
    print(f"\n== tree search: playouts per second ({seconds:g} s each), kernel random playouts as the peer")
    for game_id in CARD_GAMES:
        state = mid_game(game_id)
        result = analyse(
            state, viewer=state.current_player, engine=TreeSearchEngine(seed=1), limit=Limit(seconds=seconds)
        )
        s = result.search
        ours = s.nodes / s.seconds
        peer = kernel_actions_per_second(game_id, seconds)
        print(
            f"{game_id:12s} {s.playouts / s.seconds:8.1f} playouts/s  {ours:9,.0f} actions/s   "
            f"kernel {peer:9,.0f} actions/s   ratio {ours / peer:.2f}"
        )


def bare_engine(variant: str, fen: str, depth: int) -> tuple[float, int, int]:
    """(wall seconds, nodes, nps) of `go depth` written straight to a fresh engine's pipe."""
    process = subprocess.Popen(
        [str(find_binary())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    try:
        process.stdin.write(f"uci\nsetoption name UCI_Variant value {variant}\nisready\n")
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith("readyok"):
                break
        started = time.perf_counter()
        process.stdin.write(f"position fen {fen}\ngo depth {depth}\n")
        process.stdin.flush()
        nodes = nps = 0
        for line in process.stdout:
            tokens = line.split()
            if "nodes" in tokens:
                nodes = int(tokens[tokens.index("nodes") + 1])
                nps = int(tokens[tokens.index("nps") + 1])
            if line.startswith("bestmove"):
                break
        return time.perf_counter() - started, nodes, nps
    finally:
        process.stdin.write("quit\n")
        process.stdin.flush()
        process.wait(5)


def wrapped_engine(variant: str, fen: str, depth: int) -> tuple[float, int]:
    """(wall seconds, nodes) of the same search through a fresh wrapper."""
    with FairyStockfish(variant) as fsf:
        started = time.perf_counter()
        found = fsf.search(fen, depth=depth)
        return time.perf_counter() - started, found.nodes


def fsf_speed(depth: int, repeats: int = 3) -> None:
    print(
        f"\n== Fairy-Stockfish, go depth {depth} from 5x6 positions: the wrapper beside the bare "
        f"engine (fresh processes, alternated, best of {repeats})"
    )
    game = rk.load_game("yokai-5x6")
    states = [game.initial_state()] + [mid_game("yokai-5x6", seed, plies=20) for seed in (1, 2)]
    with FairyStockfishEngine(game, "gorogoro") as engine:
        for state in states:
            fen = state.to_text()
            bare, wrapped = [], []
            for _ in range(repeats):
                bare.append(bare_engine("gorogoro", fen, depth))
                wrapped.append(wrapped_engine("gorogoro", fen, depth))
            bare_seconds, bare_nodes, _ = min(bare)
            seconds, nodes = min(wrapped)
            engine.fsf.send("ucinewgame")
            result = analyse(state, engine=engine, limit=Limit(seconds=None, depth=depth, lines=1))
            print(
                f"{fen[:32]:32s} bare {bare_nodes / bare_seconds:9,.0f} nodes/s ({bare_seconds:5.2f} s)  "
                f"wrapper {nodes / seconds:9,.0f} nodes/s ({seconds:5.2f} s)  "
                f"ratio {nodes / seconds / (bare_nodes / bare_seconds):.2f};  "
                f"analyse {result.search.seconds:5.2f} s"
            )


# --- time to a first evaluation ---------------------------------------------------------------------


def first_evaluation(state: rk.State, engine, viewer=None, limit: Limit | None = None) -> float:
    """Seconds from the call to the first progress report (or the answer, if sooner)."""
    first: list[float] = []
    stop = threading.Event()
    started = time.perf_counter()

    def seen(_analysis) -> None:
        if not first:
            first.append(time.perf_counter() - started)
        stop.set()

    analyse(state, viewer=viewer, engine=engine, limit=limit or Limit(seconds=5), progress=seen, stop=stop)
    return first[0] if first else time.perf_counter() - started


def first_evaluations(table_dir: str | None) -> None:
    print("\n== time to a first evaluation (goal <= 1 s): a fresh engine (cold) and a kept one (warm)")
    for game_id in CARD_GAMES:
        state = mid_game(game_id)
        cold = first_evaluation(state, TreeSearchEngine(), viewer=state.current_player)
        print(f"{game_id:12s} ismcts           {cold:6.3f} s (no resource to open)")
    for game_id, variant in (("yokai-5x6", "gorogoro"), ("yokai-3x4", "dobutsu")):
        state = mid_game(game_id, plies=10)
        started = time.perf_counter()
        try:
            engine = FairyStockfishEngine(rk.load_game(game_id), variant)
        except EngineError as exc:
            print(f"{game_id:12s} fairy-stockfish: {exc}")
            continue
        with engine:
            opened = time.perf_counter() - started
            warm = first_evaluation(state, engine)
        print(
            f"{game_id:12s} fairy-stockfish  {opened + warm:6.3f} s cold (start and perft check "
            f"{opened:.3f} s), {warm:.3f} s warm"
        )
    if table_dir:
        from rules_kernel.tablebase import Tablebase

        started = time.perf_counter()
        engine = TableEngine(Tablebase.open("yokai-3x4", directory=table_dir))
        opened = time.perf_counter() - started
        start = rk.load_game("yokai-3x4").initial_state()
        first = first_evaluation(start, engine)  # numba, where installed, loads its lookup here
        warm = first_evaluation(start.apply("b1a2"), engine)
        print(
            f"{'yokai-3x4':12s} table            {opened + first:6.3f} s cold (open {opened:.1f} s, "
            f"first lookup {first:.3f} s), {warm:.3f} s warm"
        )


# --- strength ------------------------------------------------------------------------------------------


class SearchAgent:
    """The analysis tree search as a player: `analyse` on the view it is given, in that view's
    seat, within a budget of playouts or seconds a move; it keeps the time it thinks."""

    def __init__(self, seed: int, limit: Limit, **options) -> None:
        self.engine, self.limit = TreeSearchEngine(seed=seed, **options), limit
        self.moves, self.seconds, self.playouts = 0, 0.0, 0

    def choose(self, view: rk.State):
        moves = view.legal_moves()
        if len(moves) == 1:  # no decision: not counted in the time a move
            return moves[0]
        result = analyse(view, viewer=view.current_player, engine=self.engine, limit=self.limit)
        self.moves, self.seconds = self.moves + 1, self.seconds + result.search.seconds
        self.playouts += result.search.playouts
        return result.best.move


def play(
    game_id: str,
    opponent: str,
    ismcts_seat: int,
    seed: int,
    limit: Limit,
    cap: int,
    options: dict,
    memory: bool = True,
):
    """One game, ismcts against `opponent` (an agents.make_agent name): (1 win, 1/2 draw or
    unfinished, 0 loss for ismcts; its decisions, seconds and playouts). Each side chooses on
    its view of the game, with perfect memory (`memory`: `state.view(seat, memory=True)`, a
    player who forgets no card it saw turned up) or without (what lies in sight now)."""
    game_options = {"max_actions": cap} if game_id == "war-chest" else {}
    state, rng = rk.load_game(game_id, **game_options).initial_state(), random.Random(seed)
    ours, theirs = SearchAgent(seed, limit, **options), make_agent(opponent, seed)
    actions = 0
    while not state.is_terminal() and actions < cap:
        seat = state.current_player
        if seat == rk.CHANCE:
            action = state.sample_chance(rng)
        else:
            action = (ours if seat == ismcts_seat else theirs).choose(state.view(seat, memory=memory))
        state = state.apply(action)
        actions += 1
    outcome = state.outcome()
    if outcome is None or not outcome.finished or outcome.winner is None:
        points = 0.5
    else:
        points = 1.0 if ismcts_seat in outcome.winners else 0.0
    return points, ours.moves, ours.seconds, ours.playouts


def _play(job):
    return play(*job)


def strength(
    games: int,
    limit: Limit,
    cap: int,
    options: dict,
    game_ids: list[str],
    opponents: list[str],
    workers: int,
    first: int = 0,
    memory: bool = True,
) -> None:
    budget = f"{limit.seconds:g} s" if limit.seconds is not None else f"{limit.playouts} playouts"
    print(
        f"\n== ismcts ({budget} a move; {', '.join(f'{k} {v}' for k, v in options.items()) or 'defaults'}) "
        f"against {' and '.join(opponents)}, {games} games each (seeds {first}-{first + games - 1}), "
        f"seats alternating, games stopped after {cap} actions, "
        f"{'both sides with perfect memory' if memory else 'both sides without memory (--forgetful)'}",
        flush=True,
    )
    pool = multiprocessing.Pool(workers) if workers > 1 else None
    try:
        for game_id in game_ids:
            for opponent in opponents:
                started = time.perf_counter()
                seeds = range(first, first + games)
                jobs = [(game_id, opponent, g % 2, g, limit, cap, options, memory) for g in seeds]
                results = []
                for result in pool.imap(_play, jobs) if pool else map(_play, jobs):
                    results.append(result)  # a running tally on stderr: a long run can be read early
                    tally = [r[0] for r in results]
                    print(
                        f"  {game_id} vs {opponent}: {len(tally)} games, wins {tally.count(1.0)}, "
                        f"draws {tally.count(0.5)}, losses {tally.count(0.0)}",
                        file=sys.stderr,
                        flush=True,
                    )
                points = [r[0] for r in results]
                moves, seconds, playouts = (sum(r[i] for r in results) for i in (1, 2, 3))
                wins, draws, losses = points.count(1.0), points.count(0.5), points.count(0.0)
                score = wins + draws / 2
                low, high = proportion_ci(round(score), games)
                print(
                    f"{game_id:12s} vs {opponent:9s} score {score / games:.3f} (wins {wins}, draws or "
                    f"unfinished {draws}, losses {losses}); 95% interval {low:.3f}-{high:.3f}; "
                    f"{(time.perf_counter() - started) / games * max(workers, 1):.1f} s a game; ismcts "
                    f"{seconds / max(moves, 1):.3f} s and {playouts / max(moves, 1):.0f} playouts a move",
                    flush=True,
                )
    finally:
        if pool:
            pool.close()
            pool.join()


# --- agreement with the solved table ------------------------------------------------------------------


def agreement(positions: int, material: str, table_dir: str | None, depth: int, playouts: int) -> None:
    from rules_kernel.tablebase import Tablebase, position_text
    from rules_kernel.tablebase import _engine as index

    mat = tuple(int(c) for c in material)
    with tempfile.TemporaryDirectory() as tmp:
        if table_dir:
            tb = Tablebase.open("yokai-3x4", directory=table_dir)
        else:
            tb = Tablebase.build(material=mat, directory=tmp, progress=False)
    game, rng = rk.load_game("yokai-3x4"), random.Random(1)
    sample = sample_full if table_dir else sample_sub
    states = sample(game, tb, positions, rng, mat, index, position_text)
    print(
        f"\n== agreement with the solved table: {len(states)} positions "
        f"({'the full game, from random play' if table_dir else f'the sub-game {mat}, random placements'})"
    )
    with FairyStockfishEngine(game, "dobutsu") as fsf:
        print(f"   engine check: {fsf.check}")
        engines = (
            ("fairy-stockfish", fsf, Limit(seconds=None, depth=depth)),
            ("ismcts", TreeSearchEngine(seed=1), Limit(seconds=None, playouts=playouts)),
        )
        for name, engine, limit in engines:
            kept = optimal = claims = right = 0
            started = time.perf_counter()
            for state in states:
                value = tb.value(state)
                result = analyse(state, engine=engine, limit=limit)
                move = result.best.move
                kept += tb.value(state.apply(move)).after_move().result == value.result
                optimal += move in {str(m) for m in tb.optimal_moves(state)}
                if result.value.result in ("win", "loss"):
                    claims += 1
                    right += result.value.result == value.result
            n = len(states)
            print(
                f"   {name:16s} keeps the result {kept}/{n} ({kept / n:.1%}), optimal move {optimal}/{n} "
                f"({optimal / n:.1%}), claims a result {claims}, right {right}; "
                f"{(time.perf_counter() - started) / n * 1000:.0f} ms a position ({limit})"
            )


def sample_sub(game, tb, count, rng, mat, index, position_text):
    ix = index.index_tables(mat)
    states = []
    while len(states) < count:
        board, hands = np.zeros(12, np.int64), np.zeros(6, np.int64)
        index.unrank(rng.randrange(index.table_size(ix)), ix, board, hands)
        state = game.from_text(position_text(board, hands))
        if not state.is_terminal() and rng.random() < 0.5:  # the second player to move too
            state = game.from_text(state.apply(rng.choice(state.legal_moves())).to_text())
        if not state.is_terminal() and tb.value(state).result != "unknown":
            states.append(state)
    return states


def sample_full(game, tb, count, rng, *_):
    """Positions of games mixing perfect and random moves (they stay in the solved set)."""
    states = []
    while len(states) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(2, 60)):
            if state.is_terminal():
                break
            moves = tb.optimal_moves(state) if rng.random() < 0.6 else state.legal_moves()
            state = state.apply(rng.choice(moves))
        if not state.is_terminal():
            state = game.from_text(state.to_text())
            if tb.value(state).result != "unknown":
                states.append(state)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="speed,fsf,first,strength,agreement")
    parser.add_argument("--speed-seconds", type=float, default=3.0, help="tree-search time per game (speed)")
    parser.add_argument("--depth", type=int, default=10, help="Fairy-Stockfish depth (fsf, agreement)")
    parser.add_argument("--games", type=int, default=6, help="games per card game (strength; use >= 200)")
    parser.add_argument("--playouts", type=int, default=20, help="ismcts playouts a move (strength)")
    parser.add_argument("--seconds", type=float, default=None, help="ismcts seconds a move (strength)")
    parser.add_argument("--opponents", default="greedy,mcts:100", help="agents to play (strength)")
    parser.add_argument("--cap", type=int, default=400, help="actions before a game is stopped (strength)")
    parser.add_argument("--rollout", type=int, default=None, help="ismcts rollout actions (strength)")
    parser.add_argument("--prior-weight", type=float, default=None, help="ismcts progressive bias (strength)")
    parser.add_argument("--exploration", type=float, default=None, help="ismcts UCB constant (strength)")
    parser.add_argument("--minimax-weight", type=float, default=None, help="ismcts implicit minimax share")
    parser.add_argument("--expand-leaf", type=int, choices=(0, 1), help="ismcts: leaf a ply deeper")
    parser.add_argument("--prior-worlds", type=int, default=None, help="ismcts: worlds a prior averages")
    parser.add_argument("--max-depth", type=int, default=None, help="ismcts: decisions the tree goes deep")
    parser.add_argument(
        "--forgetful",
        action="store_true",
        help="both sides choose on what lies in sight now, not with perfect memory (strength)",
    )
    parser.add_argument("--first-seed", type=int, default=0, help="the first game's seed (strength)")
    parser.add_argument("--workers", type=int, default=1, help="games in parallel processes (strength)")
    parser.add_argument("--card-games", default=",".join(CARD_GAMES), help="games (speed, strength)")
    parser.add_argument("--positions", type=int, default=100, help="positions (agreement)")
    parser.add_argument("--material", default="110", help="the 3x4 sub-game without --table-dir (agreement)")
    parser.add_argument("--table-dir", default=None, help="a directory with the full yokai-3x4 table")
    parser.add_argument("--agreement-playouts", type=int, default=100, help="ismcts playouts (agreement)")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if "speed" in parts:
        speed(args.speed_seconds)
    if "fsf" in parts:
        fsf_speed(args.depth)
    if "first" in parts:
        first_evaluations(args.table_dir)
    if "strength" in parts:
        limit = Limit(seconds=args.seconds, playouts=None if args.seconds else args.playouts)
        options = {
            name: value
            for name, value in (
                ("rollout_actions", args.rollout),
                ("prior_weight", args.prior_weight),
                ("exploration", args.exploration),
                ("minimax_weight", args.minimax_weight),
                ("expand_leaf", None if args.expand_leaf is None else bool(args.expand_leaf)),
                ("prior_worlds", args.prior_worlds),
                ("max_depth", args.max_depth),
            )
            if value is not None
        }
        games, opponents = args.card_games.split(","), args.opponents.split(",")
        strength(
            args.games,
            limit,
            args.cap,
            options,
            games,
            opponents,
            args.workers,
            args.first_seed,
            memory=not args.forgetful,
        )
    if "agreement" in parts:
        agreement(args.positions, args.material, args.table_dir, args.depth, args.agreement_playouts)


if __name__ == "__main__":
    main()
