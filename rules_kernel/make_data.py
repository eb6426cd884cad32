"""Make the precomputed statistics of data/: one command, one seed, recorded in the files.

    python -m rules_kernel.make_data                    # data/games.parquet, data/actions.parquet
    python -m rules_kernel.make_data --games 200 --agent-games 20 --out /tmp/small
    python -m rules_kernel.make_data --only ladder         # data/ladder.parquet alone

Two experiments per game (`rules_kernel.simulate.experiment_task`), so that seat, army/unit
choice and agent stay apart:

- `seats`: random against random, `--games` games per game. Both seats play alike, so any
  difference is the seat's (the first-player advantage). A game may cycle its settings
  (its "statistics" part, `data_options`): To War! cycles through all 12 army pairs as seated, so every army
  sits first as often as second; War Chest deals the armies at random (its basic game).
- `agents`: greedy against random, half the games with greedy first and half with greedy
  second (`--agent-games` per seating), settings as above.

Game i of an experiment is played with the seed "<seed>:<experiment>:<game>:<i>", so a run
can be repeated exactly and more games can be added later (the dashboard's "Run more games"
plays the next indices). Each game is capped at its `Game.DATA_MAX_PLIES` actions. The games
are the registered ones, in their declared order (`registry.list_games(ordered=True)`). The command
line and seed are written into each Parquet file's metadata (`rules_kernel.stats.table_metadata`).

The agent ladder (`rules_kernel.ladder`, data/ladder.parquet): per game, a round robin of
random, greedy, mcts:<budget> and ismcts:<budget>, plus fsf:2 where the game declares a
Fairy-Stockfish variant and the engine is installed, plus perfect where the game's solved
table is ready (nothing is built); `--ladder-games` games per pair, seats alternating, game i
of the pair (a, b) seeded "<seed>:<game>:<a>:<b>:<i>". It runs on one core (the search agents
dominate; docs/statistics.md gives its cost), after the statistics or alone (`--only
ladder`). A game of more than two seats would be left out (War Chest's 4-player game is an
option, not a registered game: the ladder plays its default, the 2-player game).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

# the registry, not the package face (which sits above the kernel): docs/architecture.md
from rules_kernel import core, ladder, registry, stats
from rules_kernel.simulate import EXPERIMENT_SEED, experiment_task, play_tasks

#: the games of the data files, in the order their rows are written
GAMES = tuple(registry.list_games(ordered=True))
DEFAULT_SEED = EXPERIMENT_SEED
#: what `--only` may make
PARTS = ("statistics", "ladder")


def _games_for(pairs: list[str]) -> dict[str, int]:
    counts = {}
    for pair in pairs:
        game, _, number = pair.partition("=")
        if game not in GAMES or not number.isdigit():
            raise core.OptionError(f"--games-for {pair!r}: give GAME=N with GAME one of {', '.join(GAMES)}")
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
    parser.add_argument(
        "--ladder-games",
        type=int,
        default=ladder.DEFAULT_GAMES_PER_PAIR,
        help="ladder games per pair of agents",
    )
    parser.add_argument(
        "--ladder-budget",
        type=int,
        default=ladder.DEFAULT_BUDGET,
        help="the ladder's mcts iterations and ismcts playouts a move",
    )
    parser.add_argument(
        "--only", choices=PARTS, help="make only the statistics (games, actions) or only the ladder"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: all cores)")
    parser.add_argument(
        "--out", default="data", help="directory for games.parquet, actions.parquet and ladder.parquet"
    )
    args = parser.parse_args(argv)
    given = argv if argv is not None else sys.argv[1:]
    command = ("python -m rules_kernel.make_data " + shlex.join(_without_out(given))).strip()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.only != "ladder":
        _statistics(args, command, out)
    if args.only != "statistics":
        _ladder(args, command, out)
    return 0


def _statistics(args: argparse.Namespace, command: str, out: Path) -> None:
    """data/games.parquet and data/actions.parquet: the experiments `seats` and `agents`."""
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
    metadata = {
        "command": command,
        "seed": args.seed,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "games_per_game": {"seats": seats, "agents": args.agent_games},
        "max_plies": {game: registry.game_class(game).DATA_MAX_PLIES for game in GAMES},
        "rules_explorer_format": "rules-explorer/1",
    }
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


def _ladder(args: argparse.Namespace, command: str, out: Path) -> None:
    """data/ladder.parquet: every game's agents in a round robin, one row per game played."""
    lineup = {game: ladder.default_agents(registry.load_game(game), args.ladder_budget) for game in GAMES}
    lineup = {game: agents for game, agents in lineup.items() if agents is not None}
    pairs = {game: len(agents) * (len(agents) - 1) // 2 for game, agents in lineup.items()}
    with tqdm(total=args.ladder_games * sum(pairs.values()), unit="game", desc="ladder") as bar:
        frames = [
            ladder.round_robin(game, agents, args.ladder_games, seed=args.seed, workers=args.workers, bar=bar)
            for game, agents in lineup.items()
        ]
    results = ladder.results_frame(pd.concat(frames, ignore_index=True).to_dict("records"))
    metadata = {
        "command": command,
        "seed": args.seed,
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "games_per_pair": args.ladder_games,
        "budget": args.ladder_budget,
        "agents": lineup,
        "skipped": sorted(set(GAMES) - set(lineup)),
        "max_plies": {game: registry.game_class(game).DATA_MAX_PLIES for game in lineup},
        "seconds": round(float(results["seconds"].sum()), 1),
        "rules_explorer_format": "rules-explorer/1",
    }
    stats.write_table(results, out / "ladder.parquet", metadata)
    print(f"wrote {out / 'ladder.parquet'} ({len(results)} games)")


if __name__ == "__main__":
    sys.exit(main())
