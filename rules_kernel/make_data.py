"""Make the precomputed statistics of data/: one command, one seed, recorded in the files.

    python -m rules_kernel.make_data                    # data/games.parquet, data/actions.parquet
    python -m rules_kernel.make_data --games 200 --agent-games 20 --out /tmp/small

Two experiments per game, so that seat, army/unit choice and agent stay apart:

- `seats`: random against random, `--games` games per game. Both seats play alike, so any
  difference is the seat's (the first-player advantage). To War! cycles through all 12 army
  pairs as seated, so every army sits first as often as second; War Chest deals the armies
  at random (its basic game).
- `agents`: greedy against random, half the games with greedy first and half with greedy
  second (`--agent-games` per seating), armies as above.

Game i of an experiment is played with the seed "<seed>:<experiment>:<game>:<i>", so a run
can be repeated exactly and more games can be added later (the dashboard's "Run more games"
plays the next indices). The command line and seed are written into each Parquet file's
metadata (`rules_kernel.stats.table_metadata`).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import product
from pathlib import Path
from typing import Any

import pandas as pd
from tqdm.auto import tqdm

import rules_kernel as rk
from rules_kernel import stats
from rules_kernel.records import Record
from rules_kernel.simulate import play_game

GAMES = ("yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest")
EXPERIMENTS = ("seats", "agents")
TO_WAR_ARMIES = ("western", "northern", "far-eastern", "southern")
#: the 12 pairs as seated (the two players never take the same army: one deck per army)
ARMY_PAIRS = tuple((a, b) for a, b in product(TO_WAR_ARMIES, TO_WAR_ARMIES) if a != b)
#: a cap on actions, so that no random game runs forever (it is then "unfinished")
MAX_PLIES = {"yokai-3x4": 1000, "yokai-5x6": 1000, "war-stories": 1000, "to-war": 1000, "war-chest": 2000}
DEFAULT_SEED = 2026


@dataclass(frozen=True)
class Task:
    """One game to play: which game and options, who sits where, and its seed."""

    game: str
    options: tuple[tuple[str, Any], ...]
    agents: tuple[str, ...]
    experiment: str
    index: int
    seed: str


def task(game: str, experiment: str, index: int, seed: int = DEFAULT_SEED) -> Task:
    """Game `index` of `experiment` for `game`: its seating, options and seed."""
    if game not in GAMES:
        raise rk.OptionError(f"make_data: unknown game {game!r}; games: {', '.join(GAMES)}")
    if experiment not in EXPERIMENTS:
        raise rk.OptionError(
            f"make_data: unknown experiment {experiment!r}; experiments: {', '.join(EXPERIMENTS)}"
        )
    options: dict[str, Any] = {}
    if game == "to-war":  # the army pair cycles, so every pair gets the same share of games
        pair_index = index if experiment == "seats" else index // 2
        options["armies"] = list(ARMY_PAIRS[pair_index % len(ARMY_PAIRS)])
    agents = ("random", "random")
    if experiment == "agents":  # greedy first in even games, second in odd ones
        agents = ("greedy", "random") if index % 2 == 0 else ("random", "greedy")
    return Task(
        game,
        tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()),
        agents,
        experiment,
        index,
        f"{seed}:{experiment}:{game}:{index}",
    )


def play(task: Task) -> Record:
    """Play one task to its end (or the cap of MAX_PLIES) and return its record."""
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in task.options}
    game = rk.load_game(task.game, **options)
    record = play_game(game, task.agents, task.seed, MAX_PLIES[task.game], task.index)
    meta = {**record.meta, "experiment": task.experiment}
    return Record(record.game, record.options, record.actions, record.players, record.result, meta)


def _play_line(task: Task) -> str:  # records cross process boundaries as JSON text
    return play(task).to_json()


def play_many(tasks: list[Task], workers: int = 1, bar: Any = None) -> Iterator[Record]:
    """The records of `tasks`, in order, on `workers` processes; `bar.update()` after each."""
    if workers <= 1:
        lines = map(_play_line, tasks)
        pool = None
    else:
        pool = ProcessPoolExecutor(workers)
        lines = pool.map(_play_line, tasks, chunksize=4)  # small chunks: a steady progress bar
    try:
        for line in lines:
            if bar is not None:
                bar.update()
            yield Record.from_json(line)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def games_table(records: list[Record]) -> pd.DataFrame:
    """The games frame of make_data's records, with the experiment of each game."""
    frame = stats.games_frame(records)
    frame.insert(1, "experiment", [r.meta.get("experiment", "") for r in records])
    return stats.typed_games(frame)


def _games_for(pairs: list[str]) -> dict[str, int]:
    counts = {}
    for pair in pairs:
        game, _, number = pair.partition("=")
        if game not in GAMES or not number.isdigit():
            raise rk.OptionError(f"--games-for {pair!r}: give GAME=N with GAME one of {', '.join(GAMES)}")
        counts[game] = int(number)
    return counts


def _without_out(argv: list[str]) -> list[str]:
    """The command line as recorded: where the files were written changes nothing in them."""
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--out":
            skip = True
        elif not arg.startswith("--out="):
            kept.append(arg)
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules_kernel.make_data", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=2000, help="random-vs-random games per game (seats)")
    parser.add_argument(
        "--agent-games",
        type=int,
        default=100,
        help="greedy-vs-random games per game, both seatings together (agents)",
    )
    parser.add_argument(
        "--action-games",
        type=int,
        default=20,
        help="games per game whose every action goes into actions.parquet",
    )
    parser.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="GAME=N",
        help="a different --games for one game (repeatable), e.g. war-chest=600",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: all cores)")
    parser.add_argument("--out", default="data", help="directory for games.parquet and actions.parquet")
    args = parser.parse_args(argv)
    workers = (os.cpu_count() or 1) if args.workers == 0 else args.workers
    seats = {game: args.games for game in GAMES} | _games_for(args.games_for)
    tasks = [
        task(g, e, i, args.seed)
        for g in GAMES
        for e, n in (("seats", seats[g]), ("agents", args.agent_games))
        for i in range(n)
    ]
    with tqdm(total=len(tasks), unit="game", desc="make_data") as bar:
        records = list(play_many(tasks, workers, bar))
    given = argv if argv is not None else sys.argv[1:]
    command = "python -m rules_kernel.make_data " + shlex.join(_without_out(given))
    metadata = {
        "command": command.strip(),
        "seed": args.seed,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "games_per_game": {"seats": seats, "agents": args.agent_games},
        "max_plies": MAX_PLIES,
        "rules_explorer_format": "rules-explorer/1",
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stats.write_table(games_table(records), out / "games.parquet", metadata)
    sample = [
        r
        for r in records
        if r.meta.get("experiment") == "seats" and r.meta.get("index", 0) < args.action_games
    ]
    stats.write_table(
        stats.actions_frame(sample, progress=True),
        out / "actions.parquet",
        {**metadata, "action_games_per_game": args.action_games},
    )
    print(f"wrote {out / 'games.parquet'} ({len(records)} games) and {out / 'actions.parquet'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
