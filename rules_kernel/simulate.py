"""Many games -> a JSON Lines stream of records: on one core, on all cores, or on a Dask
cluster, with a progress bar; reproducible from a seed and resumable.

    from rules_kernel.simulate import simulate
    simulate("yokai-3x4", 1000, agents=("random", "greedy"), seed=7, output="games.jsonl",
             workers=2)

Game i is played with its own seed derived from (seed, i), so the same call gives the same
records whatever the number of workers, and a stopped run can go on where it stopped
(`resume=True` keeps the records already in the file and plays the rest).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

import rules_kernel as rk
from rules_kernel.agents import make_agent
from rules_kernel.records import Record, RecordWriter, read_records


def game_seed(seed: int, index: int) -> str:
    """The seed of game `index` of a run: independent of workers and of order."""
    return f"{seed}:{index}"


def play_game(game: rk.Game, agents: Sequence[str], seed: int | str, max_plies: int | None = None,
              index: int | None = None) -> Record:
    """One game between agents (names as `make_agent` takes them), as a record. Each agent
    is given only its player's view of the state."""
    if len(agents) != game.num_players:
        raise rk.OptionError(f"{game.id} needs {game.num_players} agents, got {len(agents)}")
    rng = random.Random(f"chance:{seed}")
    players = [make_agent(name, seed=f"{seed}:{i}") for i, name in enumerate(agents)]
    state = game.initial_state()
    actions: list[str] = []
    while not state.is_terminal() and (max_plies is None or len(actions) < max_plies):
        player = state.current_player
        if player == rk.CHANCE:
            action = str(state.sample_chance(rng))
        else:
            action = str(players[player].choose(state.view(player)))
        state = state.apply(action)
        actions.append(action)
    meta: dict[str, Any] = {"seed": str(seed)}
    if index is not None:
        meta["index"] = index
    if max_plies is not None and not state.is_terminal():
        meta["stopped_after"] = max_plies
    names = [{"name": f"{name} {i + 1}", "agent": name} for i, name in enumerate(agents)]
    record = Record.from_actions(game, actions, players=names, meta=meta)
    if record.result is None:
        record = Record(record.game, record.options, record.actions, record.players,
                        rk.Outcome.unfinished(f"stopped after {len(actions)} actions").to_dict(),
                        record.meta)
    return record


def _play_task(task: tuple) -> str:
    game_id, options, agents, seed, index, max_plies = task
    game = rk.load_game(game_id, **options)
    return play_game(game, agents, game_seed(seed, index), max_plies, index).to_json()


def simulate(game: str | rk.Game, games: int, *, agents: Sequence[str] = ("random", "random"),
             seed: int = 0, options: dict[str, Any] | None = None, output: str | os.PathLike | None = None,
             workers: int = 1, client: Any = None, max_plies: int | None = None, resume: bool = False,
             progress: bool = True) -> list[Record]:
    """Play `games` games and return their records (and append them to `output`).

    workers: processes on this machine (0: all cores); client: a dask.distributed Client
    to run on a cluster instead. The records come back in game order either way.
    """
    if isinstance(game, rk.Game):
        game_id, options = game.id, dict(game.options)
    else:
        game_id, options = game, dict(options or {})
        options = dict(rk.load_game(game_id, **options).options)  # validate before starting
    if len(agents) != rk.load_game(game_id, **options).num_players:
        raise rk.OptionError(f"{game_id} needs {rk.load_game(game_id, **options).num_players} agents")
    for name in agents:
        make_agent(name)  # a bad agent name fails now, not in a worker
    done: list[Record] = []
    if output is not None and resume and Path(output).exists() and Path(output).stat().st_size:
        done = list(read_records(output))
    tasks = [(game_id, options, tuple(agents), seed, i, max_plies) for i in range(len(done), games)]
    lines = _run(tasks, workers, client)
    records = list(done)
    bar = tqdm(total=games, initial=len(done), desc=f"{game_id}", unit="game", disable=not progress)
    writer = RecordWriter(output, append=resume) if output is not None else None
    try:
        if writer:
            writer.__enter__()
        for line in lines:
            record = Record.from_json(line)
            records.append(record)
            if writer:
                writer.write(record)
            bar.update()
    finally:
        bar.close()
        if writer:
            writer.__exit__(None, None, None)
    return records


def _run(tasks: list[tuple], workers: int, client: Any) -> Iterator[str]:
    if client is not None:
        futures = client.map(_play_task, tasks, pure=False)
        for future in futures:  # in game order
            yield future.result()
        return
    workers = os.cpu_count() or 1 if workers == 0 else workers
    if workers <= 1 or len(tasks) <= 1:
        yield from map(_play_task, tasks)
        return
    with ProcessPoolExecutor(workers) as pool:
        yield from pool.map(_play_task, tasks, chunksize=max(1, len(tasks) // (workers * 8)))
