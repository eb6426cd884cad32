"""Make the precomputed statistics of data/: one command, one seed, recorded in the files.

    python -m rules_kernel.make_data                    # data/games.parquet, data/actions.parquet
    python -m rules_kernel.make_data --games 200 --agent-games 20 --out /tmp/small

Two experiments per game (`rules_kernel.simulate.experiment_task`), so that seat, army/unit
choice and agent stay apart:

- `seats`: random against random, `--games` games per game. Both seats play alike, so any
  difference is the seat's (the first-player advantage). A game may cycle its settings
  (`Game.data_options`): To War! cycles through all 12 army pairs as seated, so every army
  sits first as often as second; War Chest deals the armies at random (its basic game).
- `agents`: greedy against random, half the games with greedy first and half with greedy
  second (`--agent-games` per seating), settings as above.

Game i of an experiment is played with the seed "<seed>:<experiment>:<game>:<i>", so a run
can be repeated exactly and more games can be added later (the dashboard's "Run more games"
plays the next indices). Each game is capped at its `Game.DATA_MAX_PLIES` actions. The games
are the registered ones, in their declared order (`rk.list_games(ordered=True)`). The command
line and seed are written into each Parquet file's metadata (`rules_kernel.stats.table_metadata`).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

from tqdm.auto import tqdm

import rules_kernel as rk
from rules_kernel import stats
from rules_kernel.simulate import EXPERIMENT_SEED, experiment_task, play_tasks

#: the games of the data files, in the order their rows are written
GAMES = tuple(rk.list_games(ordered=True))
DEFAULT_SEED = EXPERIMENT_SEED


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
        default=200,  # the board heatmaps of the statistics page stand on these games
        help="games per game whose every action goes into actions.parquet",
    )
    parser.add_argument(
        "--games-for",
        action="append",
        default=[],
        metavar="GAME=N",
        help=f"a different --games for one game (repeatable), e.g. {GAMES[-1]}=600",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: all cores)")
    parser.add_argument("--out", default="data", help="directory for games.parquet and actions.parquet")
    args = parser.parse_args(argv)
    workers = (os.cpu_count() or 1) if args.workers == 0 else args.workers
    seats = {game: args.games for game in GAMES} | _games_for(args.games_for)
    tasks = [
        experiment_task(g, e, i, args.seed)
        for g in GAMES
        for e, n in (("seats", seats[g]), ("agents", args.agent_games))
        for i in range(n)
    ]
    with tqdm(total=len(tasks), unit="game", desc="make_data") as bar:
        records = list(play_tasks(tasks, workers, bar))
    given = argv if argv is not None else sys.argv[1:]
    command = "python -m rules_kernel.make_data " + shlex.join(_without_out(given))
    metadata = {
        "command": command.strip(),
        "seed": args.seed,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "games_per_game": {"seats": seats, "agents": args.agent_games},
        "max_plies": {game: rk.game_class(game).DATA_MAX_PLIES for game in GAMES},
        "rules_explorer_format": "rules-explorer/1",
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stats.write_table(stats.experiment_games(records), out / "games.parquet", metadata)
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
