"""Records -> pandas DataFrames and summary tables.

    from rules_kernel import stats
    games = stats.games_frame("games.jsonl")        # one row per game (streams the file)
    stats.first_player_advantage(games)             # win rates with 95% Wilson intervals
    actions = stats.actions_frame("games.jsonl")    # one row per action, with branching
    stats.branching_by_ply(actions)

Large tables go to Parquet: `games.to_parquet("games.parquet")`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable

import pandas as pd
from tqdm.auto import tqdm

from rules_kernel.core import CHANCE
from rules_kernel.records import Record, read_records

Records = str | os.PathLike | Iterable[Record]


def _records(source: Records) -> Iterable[Record]:
    if isinstance(source, (str, os.PathLike)):
        return read_records(source)
    return source


def games_frame(source: Records) -> pd.DataFrame:
    """One row per game: game, options, agents, actions, winner, winners (both players of a
    winning team), reason, finished, draw, plus the armies (To War!: `army_<seat>`) or the
    units (War Chest: `unit_<seat>`, a list) when the game has them."""
    rows = []
    for i, record in enumerate(_records(source)):
        result = record.result or {}
        agents = [p.get("agent", p.get("name", "")) for p in record.players]
        row = {
            "record": i,
            "game": record.game,
            "options": _options_summary(record.options),
            "agents": " vs ".join(agents),
            "actions": len(record.actions),
            "moves": sum(1 for a in record.actions if not a.chance),
            "winner": result.get("winner"),
            "reason": result.get("reason", "no result"),
            "ending": result.get("reason", "no result").split(":")[0],
            "finished": bool(result.get("finished", bool(result))),
        }
        row["draw"] = row["finished"] and row["winner"] is None
        for p, agent in enumerate(agents):
            row[f"agent_{p}"] = agent
        row["winners"] = list(result.get("winners", []))
        armies = record.options.get("armies")
        if isinstance(armies, list):
            for p, army in enumerate(armies):
                row[f"army_{p}"] = army
        if record.game == "war-chest":
            for p, units in enumerate(war_chest_units(record)):
                row[f"unit_{p}"] = list(units)
        rows.append(row)
    frame = pd.DataFrame(rows)
    if not frame.empty:
        frame["winner"] = frame["winner"].astype("Int64")
    return frame


def war_chest_units(record: Record) -> tuple[tuple[str, ...], ...]:
    """The unit types each War Chest player fought with: from the options, or by replaying
    the deal or the draft at the start of the record."""
    state = record.load_game().initial_state()
    for action in record.actions:
        if state.phase not in ("deal", "draft"):
            break
        state = state.apply(action.notation)
    return state.armies


def _options_summary(options: dict) -> str:
    """The options as JSON, tables (lists of rows, like To War!'s units) left out."""
    small = {k: v for k, v in options.items()
             if not (isinstance(v, list) and v and isinstance(v[0], dict))}
    return json.dumps(small, sort_keys=True, ensure_ascii=False)


def actions_frame(source: Records, *, branching: bool = True, progress: bool = False) -> pd.DataFrame:
    """One row per action: record, ply, player ('chance' marked), notation, and the number
    of choices the player had there (`legal`, by replaying; `branching=False` skips it)."""
    rows = []
    for i, record in enumerate(tqdm(list(_records(source)), disable=not progress, unit="game")):
        states = record.replay() if branching else None
        for ply, action in enumerate(record.actions):
            row = {"record": i, "game": record.game, "ply": ply, "action": action.notation,
                   "chance": action.chance}
            if states is not None:
                state = states[ply]
                row["player"] = None if state.current_player == CHANCE else state.current_player
                row["legal"] = None if action.chance else len(state.legal_moves())
            rows.append(row)
    frame = pd.DataFrame(rows)
    for column in ("player", "legal"):
        if column in frame:
            frame[column] = frame[column].astype("Int64")
    return frame


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return (math.nan, math.nan)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (centre - half, centre + half)


def first_player_advantage(games: pd.DataFrame, by: str | list[str] = "game") -> pd.DataFrame:
    """Per group: games, first-player wins, second-player wins, draws, unfinished, and the
    first player's share of the decided games with its 95% Wilson interval."""
    rows = []
    for key, group in games.groupby(by, sort=True):
        finished = group[group["finished"]]
        first = int((finished["winner"] == 0).sum())
        second = int((finished["winner"] == 1).sum())
        decided = first + second
        low, high = wilson(first, decided)
        rows.append({**_key_columns(by, key), "games": len(group), "first_wins": first,
                     "second_wins": second, "draws": int(finished["draw"].sum()),
                     "unfinished": int((~group["finished"]).sum()),
                     "first_share": first / decided if decided else math.nan,
                     "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


def _key_columns(by: str | list[str], key) -> dict:
    names = [by] if isinstance(by, str) else list(by)
    values = key if isinstance(key, tuple) else (key,)
    return dict(zip(names, values, strict=False))


def game_length(games: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """Actions per game: count, mean, spread and quartiles, per group."""
    return games.groupby(by)["actions"].describe()


def termination_reasons(games: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """How games ended: counts per kind of ending (the reason before its details), per
    group, with shares."""
    reasons = games.groupby([by, "ending"]).size().rename("games").reset_index()
    reasons["share"] = reasons["games"] / reasons.groupby(by)["games"].transform("sum")
    return reasons.sort_values([by, "games"], ascending=[True, False]).reset_index(drop=True)


def branching_by_ply(actions: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """Mean, min and max number of legal moves at each ply (players' decisions only)."""
    decisions = actions[~actions["chance"]]
    return decisions.groupby([by, "ply"])["legal"].agg(["mean", "min", "max", "count"]).reset_index()


def win_rates(games: pd.DataFrame, column: str) -> pd.DataFrame:
    """Win rate of whatever `column` names per player (an agent, an army, a War Chest unit):
    the column is taken per seat (`<column>_0`, `<column>_1`, ...) and each seat's result
    counts once for each value it holds (a seat's `unit_0` lists four units). In team games a
    seat wins when it is among the winners."""
    seats = sorted(c for c in games.columns if c.startswith(f"{column}_") and c[len(column) + 1:].isdigit())
    rows = []
    for seat in seats:
        player = int(seat.rsplit("_", 1)[1])
        for _, game in games[games["finished"]].iterrows():
            winners = list(game["winners"]) if "winners" in game.index else []
            if not winners and not pd.isna(game["winner"]):  # records without the winners list
                winners = [int(game["winner"])]
            values = game[seat] if isinstance(game[seat], (list, tuple)) else [game[seat]]
            for value in values:
                rows.append({column: value, "win": player in winners, "draw": bool(game["draw"])})
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=[column, "seats", "wins", "draws", "win_rate", "ci_low", "ci_high"])
    table = frame.groupby(column).agg(seats=("win", "size"), wins=("win", "sum"), draws=("draw", "sum"))
    table["win_rate"] = table["wins"] / table["seats"]
    intervals = [wilson(int(w), int(n)) for w, n in zip(table["wins"], table["seats"], strict=True)]
    table["ci_low"] = [low for low, _ in intervals]
    table["ci_high"] = [high for _, high in intervals]
    return table.reset_index()
