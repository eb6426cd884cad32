"""`rules-explorer`: the command line.

    rules-explorer games                          the game ids and their options
    rules-explorer perft yokai-3x4 6              leaf counts for depths 1..6
    rules-explorer play yokai-5x6 --seed 7 -o game.jsonl   a random game to a record
    rules-explorer replay games.jsonl             validate a record file, print a summary
    rules-explorer simulate to-war -n 500 --agents greedy,random --workers 0 -o games.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

import rules_kernel as rk
from rules_kernel import records


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except rk.RulesError as exc:
        print(f"rules-explorer: error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rules-explorer", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(required=True, metavar="command")

    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(run=_games)

    perft = sub.add_parser("perft", help="count leaf positions (move-generator check)")
    perft.add_argument("game")
    perft.add_argument("depth", type=int)
    _option_args(perft)
    perft.add_argument("--fen", help="start from this position text instead")
    perft.set_defaults(run=_perft)

    play = sub.add_parser("play", help="play a random game and write it as a record")
    play.add_argument("game")
    _option_args(play)
    play.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    play.add_argument("--max-plies", type=int, default=None, help="stop an endless game here")
    play.add_argument("-o", "--output", help="append the record to this .jsonl file "
                      "(default: print it)")
    play.set_defaults(run=_play)

    sim = sub.add_parser("simulate", help="play many games between agents into a record file")
    sim.add_argument("game")
    _option_args(sim)
    sim.add_argument("-n", "--games", type=int, default=100)
    sim.add_argument("--agents", default="random,random",
                     help="comma-separated, one per player: random, greedy, mcts, mcts:<iterations>")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--workers", type=int, default=1, help="processes (0: all cores)")
    sim.add_argument("--max-plies", type=int, default=None)
    sim.add_argument("-o", "--output", required=True, help="the .jsonl file to write (or resume)")
    sim.add_argument("--resume", action="store_true", help="keep the games already in the file")
    sim.add_argument("--dask", metavar="ADDRESS", help="run on this dask.distributed scheduler")
    sim.set_defaults(run=_simulate)

    replay = sub.add_parser("replay", help="validate a record file and summarise it")
    replay.add_argument("file", help="a .jsonl record file, or a one-move-per-line game")
    replay.add_argument("--quiet", action="store_true", help="print only the summary")
    replay.set_defaults(run=_replay)
    return parser


def _option_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", "-O", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option; VALUE is JSON (players=4) or a plain word")


def _load(args: argparse.Namespace) -> rk.Game:
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise rk.OptionError(f"--option {item!r}: write NAME=VALUE")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return rk.load_game(args.game, **options)


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
        leaves = rk.perft(state, depth)
        seconds = time.perf_counter() - start
        rate = f"{leaves / seconds:,.0f} leaves/s" if seconds > 0 else ""
        print(f"perft {depth}: {leaves:,}  ({seconds:.3f} s, {rate})")
    return 0


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
    players = [{"name": f"random {i + 1}", "agent": "random", "seed": seed}
               for i in range(game.num_players)]
    record = records.Record.from_actions(game, actions, players, meta={"seed": seed})
    if args.output:
        records.write_records(args.output, [record], append=True)
        print(f"{len(actions)} actions, {_result_text(record)}; appended to {args.output}")
    else:
        print(record.to_json())
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from rules_kernel import stats
    from rules_kernel.simulate import simulate

    game = _load(args)
    client = None
    if args.dask:
        from dask.distributed import Client

        client = Client(args.dask)
    games = simulate(game, args.games, agents=args.agents.split(","), seed=args.seed,
                     output=args.output, workers=args.workers, client=client,
                     max_plies=args.max_plies, resume=args.resume)
    table = stats.first_player_advantage(stats.games_frame(games))
    print(table.to_string(index=False))
    return 0


def _replay(args: argparse.Namespace) -> int:
    games, plies = 0, 0
    results: Counter[str] = Counter()
    for record in _records_of(args.file):
        states = record.replay()
        games += 1
        plies += len(states) - 1
        results[_result_text(record)] += 1
        if not args.quiet:
            print(f"line {record.line or 1}: {record.game}, {len(states) - 1} actions, "
                  f"{_result_text(record)}")
    print(f"{games} game(s), {plies} actions, all replayed and valid")
    for text, count in results.most_common():
        print(f"  {count:>6}  {text}")
    return 0


def _records_of(path: str):
    if path.endswith((".jsonl", ".json", ".ndjson")):
        return records.read_records(path)
    return [records.read_text_game(path)]


def _result_text(record: records.Record) -> str:
    outcome = record.outcome
    if outcome is None:
        return "no result"
    if not outcome.finished:
        return f"unfinished ({outcome.reason})"
    if outcome.winner is None:
        return f"draw ({outcome.reason})"
    return f"winner {outcome.winner} ({outcome.reason})"


if __name__ == "__main__":
    sys.exit(main())
