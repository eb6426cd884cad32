"""Records -> tidy pandas DataFrames and the summary tables a reader can trust.

    from rules_kernel import stats
    games = stats.games_frame("games.jsonl")        # one row per game (streams the file)
    stats.first_player_advantage(games)             # seat effect, with 95% intervals
    actions = stats.actions_frame("games.jsonl")    # one row per action: player, piece, capture
    stats.branching_by_ply(actions)

    games = stats.read_games("data/games.parquet")  # the precomputed tables (make_data)

Every share comes with its count and a 95% Wilson interval computed by scipy
(`scipy.stats.binomtest(...).proportion_ci`), never by a formula of our own. Seat, army or
unit choice and agent are kept apart: `first_player_advantage` compares seats, `army_pairs`
the To War! armies seat by seat, `win_rates` anything a seat holds (agent, army, unit).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from scipy.stats import binomtest
from tqdm.auto import tqdm

from rules_kernel import parts
from rules_kernel.core import CHANCE, OptionError, RulesError
from rules_kernel.records import Record, read_records
from rules_kernel.registry import game_class

Records = str | os.PathLike | Iterable[Record]

#: columns of the games frame that hold one label per game or seat: stored as categories
CATEGORICAL = ("game", "agents", "ending", "experiment")
SEAT_CATEGORICAL = ("agent", "army")
#: the key under which make_data writes how a Parquet file was made (command, seed, ...)
METADATA_KEY = b"rules_explorer"


class StatsError(RulesError):
    """A table cannot be made from the data given: the message says which column or file."""


def _records(source: Records) -> Iterable[Record]:
    """A file's records: JSON Lines streamed (a file of many games), any other format the
    kernel reads (PGN, KIF, the one-game text form) detected by its content."""
    if isinstance(source, (str, os.PathLike)):
        if str(source).lower().endswith((".jsonl", ".json", ".ndjson")):
            return read_records(source)
        from rules_kernel import records

        return records.load(source)
    return source


# --- one row per game ----------------------------------------------------------------------


def games_frame(source: Records, *, progress: bool = False) -> pd.DataFrame:
    """One row per game, typed: record (int), game (category), players, options (JSON text),
    agents and agent_<seat> (categories), actions, moves, winner (nullable int), winners (a
    list: both players of a winning team), reason, ending (category: the reason before its
    details), finished, draw, seed and index (from the record's metadata, when simulated),
    plus what each seat held as its game declares it (its "statistics" part, `seat_holdings`): army_<seat> (To
    War!, category) or unit_<seat> (War Chest: a list of unit names)."""
    rows = [
        _game_row(i, record)
        for i, record in enumerate(tqdm(_records(source), disable=not progress, unit="game"))
    ]
    return typed_games(pd.DataFrame(rows))


def _game_row(i: int, record: Record) -> dict[str, Any]:
    result = record.result or {}
    agents = [p.get("agent", p.get("name", "")) for p in record.players]
    reason = result.get("reason", "no result")
    finished = bool(result.get("finished", bool(result)))
    row: dict[str, Any] = {
        "record": i,
        "game": record.game,
        "players": len(agents) or None,
        "options": _options_summary(record.options),
        "agents": " vs ".join(agents),
        "actions": len(record.actions),
        "moves": sum(1 for a in record.actions if not a.chance),
        "winner": result.get("winner"),
        "winners": list(result.get("winners", [])),
        "reason": reason,
        "ending": reason.split(":")[0],
        "finished": finished,
        "draw": finished and result.get("winner") is None,
        "seed": str(record.meta.get("seed", "")),
        "index": record.meta.get("index"),
    }
    if not row["winners"] and row["winner"] is not None:  # records without the winners list
        row["winners"] = [row["winner"]]
    for p, agent in enumerate(agents):
        row[f"agent_{p}"] = agent
    for kind, held in seat_holdings(record).items():
        for p, value in enumerate(held):
            row[f"{kind}_{p}"] = value
    return row


def seat_holdings(record: Record) -> dict[str, list[Any]]:
    """What each seat played with, as its game reads it from the record (its "statistics" part,
    `seat_holdings`: To War!'s armies, War Chest's units); nothing for a game no longer
    registered or without the part."""
    try:
        game = game_class(record.game)
    except OptionError:
        return {}
    return parts.seat_holdings(game, record)


def experiment_games(records: Iterable[Record]) -> pd.DataFrame:
    """The games frame of experiment records (`rules_kernel.simulate.play_tasks`: the data
    files, the dashboard's further games), with each game's experiment after its record."""
    records = list(records)
    frame = games_frame(records)
    frame.insert(1, "experiment", [r.meta.get("experiment", "") for r in records])
    return typed_games(frame)


def typed_games(frame: pd.DataFrame) -> pd.DataFrame:
    """Give a games frame its dtypes (again): labels as categories, counts as integers, the
    winner as a nullable integer. `pd.concat` of frames with different categories turns them
    back into plain objects; call this on the result."""
    frame = frame.copy()
    for column in frame.columns:
        seat_label = column.rsplit("_", 1)[0] in SEAT_CATEGORICAL and column.rsplit("_", 1)[-1].isdigit()
        if column in CATEGORICAL or seat_label:
            frame[column] = frame[column].astype("category")
    for column in ("winner", "index", "players"):
        if column in frame:
            frame[column] = pd.to_numeric(frame[column]).astype("Int64")
    for column in ("finished", "draw"):
        if column in frame:
            frame[column] = frame[column].astype(bool)
    return frame


def _options_summary(options: dict) -> str:
    """The options as JSON, tables (lists of rows, like To War!'s units) left out."""
    small = {k: v for k, v in options.items() if not (isinstance(v, list) and v and isinstance(v[0], dict))}
    return json.dumps(small, sort_keys=True, ensure_ascii=False)


# --- one row per action ----------------------------------------------------------------------


def actions_frame(source: Records, *, branching: bool = True, progress: bool = False) -> pd.DataFrame:
    """One row per action: record, game, ply, action (its notation), chance, and, by
    replaying (`branching=False` skips the replay and these columns): player (<NA> at a
    chance node), legal (the number of moves the player had), piece (what the move takes or
    turns: the hand item, the piece on its first cell, or what stands on its last cell
    afterwards) and capture (True when the other side has less on the board afterwards:
    a piece taken, a coin struck off a War Chest unit)."""
    rows: list[dict[str, Any]] = []
    for i, record in enumerate(tqdm(_records(source), disable=not progress, unit="game")):
        states = record.replay() if branching else None
        for ply, action in enumerate(record.actions):
            row: dict[str, Any] = {
                "record": i,
                "game": record.game,
                "ply": ply,
                "action": action.notation,
                "chance": action.chance,
            }
            if states is not None:
                row.update(_action_details(states[ply], states[ply + 1], action))
            rows.append(row)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    frame["game"] = frame["game"].astype("category")
    for column in ("player", "legal"):
        if column in frame:
            frame[column] = pd.to_numeric(frame[column]).astype("Int64")
    if "piece" in frame:
        frame["piece"] = frame["piece"].astype("category")
        frame["capture"] = frame["capture"].astype(bool)
    return frame


def _action_details(before, after, action) -> dict[str, Any]:
    if action.chance or before.current_player == CHANCE:
        return {"player": None, "legal": None, "piece": None, "capture": False}
    player = before.current_player
    move = before.parse_move(action.notation)
    scene_before, scene_after = parts.scene(before), parts.scene(after)
    return {
        "player": player,
        "legal": len(before.legal_moves()),
        "piece": _piece_of(move.cells, scene_before, scene_after),
        "capture": _material(scene_after, player) < _material(scene_before, player),
    }


def _piece_of(cells: Sequence[str], before, after) -> str | None:
    if not cells:
        return None
    for zone in before.zones:
        for item in zone.items:
            if item.cell == cells[0]:
                return item.name
    token = before.token_at(cells[0])
    if token is not None and not token.face_down:
        return token.name
    token = after.token_at(cells[-1])
    return token.name if token is not None else None


def _material(scene, player: int) -> int:
    """What the other side has on the board (teammates sit opposite: the other side is the
    other seat parity)."""
    return sum(
        t.height
        for t in scene.tokens
        if t.owner is not None and t.owner % 2 != player % 2 and t.kind in ("piece", "coin", "card")
    )


# --- intervals ------------------------------------------------------------------------------


def proportion_ci(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion, from scipy (NaN, NaN for no trials)."""
    if trials == 0:
        return (math.nan, math.nan)
    interval = binomtest(int(successes), int(trials)).proportion_ci(confidence, method="wilson")
    return (float(interval.low), float(interval.high))


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval (kept for older code; `z` other than 1.96 is not offered)."""
    if abs(z - 1.96) > 1e-9:
        raise StatsError(f"wilson: only the 95% interval (z=1.96) is offered, not z={z}")
    return proportion_ci(successes, trials)


def with_interval(table: pd.DataFrame, successes: str, trials: str, share: str) -> pd.DataFrame:
    """`table` with the column `share` (successes / trials, NaN where there are no trials) and
    its 95% Wilson interval as `ci_low` and `ci_high` (added in place; the table returned)."""
    table[share] = [k / n if n else math.nan for k, n in zip(table[successes], table[trials], strict=True)]
    intervals = [proportion_ci(k, n) for k, n in zip(table[successes], table[trials], strict=True)]
    table["ci_low"] = [low for low, _ in intervals]
    table["ci_high"] = [high for _, high in intervals]
    return table


# --- tables ---------------------------------------------------------------------------------


def first_player_advantage(games: pd.DataFrame, by: str | list[str] = "game") -> pd.DataFrame:
    """The seat effect per group: games, first-player wins, second-player wins, draws,
    unfinished, decided (first + second wins), and the first player's share of the decided
    games (`first_share`) with its 95% Wilson interval. Compare seats with everything else
    equal: random against random, or the same agents, or one army pair (`by=["army_0",
    "army_1"]`)."""
    _require(games, by if isinstance(by, list) else [by], "first_player_advantage")
    rows = []
    for key, group in games.groupby(by, sort=True, observed=True):
        finished = group[group["finished"]]
        first = int((finished["winner"] == 0).sum())
        second = int((finished["winner"] == 1).sum())
        rows.append(
            {
                **_key_columns(by, key),
                "games": len(group),
                "first_wins": first,
                "second_wins": second,
                "draws": int(finished["draw"].sum()),
                "unfinished": int((~group["finished"]).sum()),
                "decided": first + second,
            }
        )
    columns = [
        *([by] if isinstance(by, str) else by),
        "games",
        "first_wins",
        "second_wins",
        "draws",
        "unfinished",
        "decided",
    ]
    table = pd.DataFrame(rows, columns=columns)
    return with_interval(table, "first_wins", "decided", "first_share")


def army_pairs(games: pd.DataFrame) -> pd.DataFrame:
    """The games whose seats hold an army (To War!): one row per army pair as seated (army_0
    first), with the first seat's share of the decided games and its interval. A pair and its
    reverse (the same armies, seats swapped) side by side show army and seat apart: an army
    that wins from both seats is stronger; a pair whose first seat wins both ways shows the
    seat."""
    _require(games, ["army_0", "army_1"], "army_pairs")
    return first_player_advantage(holding(games, "army"), by=["army_0", "army_1"])


def holding(games: pd.DataFrame, kind: str) -> pd.DataFrame:
    """The games whose first two seats hold something of `kind` ("army", "unit"; columns
    <kind>_0 and <kind>_1): one game's rows out of a frame of several."""
    columns = [f"{kind}_0", f"{kind}_1"]
    if any(c not in games.columns for c in columns):
        return games.iloc[0:0]
    return games[games[columns].notna().all(axis=1)]


def _key_columns(by: str | list[str], key) -> dict:
    names = [by] if isinstance(by, str) else list(by)
    values = key if isinstance(key, tuple) else (key,)
    return dict(zip(names, values, strict=False))


def _require(games: pd.DataFrame, columns: Sequence[str], where: str) -> None:
    missing = [c for c in columns if c not in games.columns]
    if missing:
        raise StatsError(
            f"{where}: the games frame has no column {missing[0]!r} "
            f"(columns: {', '.join(map(str, games.columns))})"
        )


def game_length(games: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """Actions per game (chance included): count, mean, spread and quartiles, per group."""
    return games.groupby(by, observed=True)["actions"].describe()


def termination_reasons(games: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """How games ended: per group and kind of ending (the reason before its details), the
    number of games, their share of the group and its 95% interval."""
    reasons = games.groupby([by, "ending"], observed=True).size().rename("games").reset_index()
    reasons["total"] = reasons.groupby(by, observed=True)["games"].transform("sum")
    reasons = with_interval(reasons, "games", "total", "share")
    return reasons.sort_values([by, "games"], ascending=[True, False]).reset_index(drop=True)


def branching_by_ply(actions: pd.DataFrame, by: str = "game") -> pd.DataFrame:
    """Mean, min and max number of legal moves at each ply (players' decisions only), and
    how many games reached that ply."""
    decisions = actions[~actions["chance"]]
    return (
        decisions.groupby([by, "ply"], observed=True)["legal"]
        .agg(["mean", "min", "max", "count"])
        .reset_index()
    )


def win_rates(games: pd.DataFrame, column: str) -> pd.DataFrame:
    """Win rate of whatever `column` names per player (an agent, an army, a War Chest unit):
    the column is taken per seat (`<column>_0`, `<column>_1`, ...) and each seat's result
    counts once for each value it holds (a seat's `unit_0` lists four units). In team games a
    seat wins when it is among the winners. Unfinished games are left out; a draw is a seat
    that did not win (its count is in `draws`). Columns: seats, wins, draws, win_rate,
    ci_low, ci_high (95% Wilson)."""
    seats = sorted(c for c in games.columns if c.startswith(f"{column}_") and c[len(column) + 1 :].isdigit())
    if not seats:
        raise StatsError(f"win_rates: no seat columns {column}_0, {column}_1, ... in the games frame")
    finished = games[games["finished"]]
    rows = []
    for seat in seats:
        player = int(seat.rsplit("_", 1)[1])
        for values, winners, draw in zip(finished[seat], finished["winners"], finished["draw"], strict=True):
            if not isinstance(values, (list, tuple)) and hasattr(values, "tolist"):
                values = values.tolist()  # a list read back from Parquet is an array
            for value in values if isinstance(values, (list, tuple)) else [values]:
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    continue
                rows.append({column: value, "win": player in list(winners), "draw": bool(draw)})
    frame = pd.DataFrame(rows, columns=[column, "win", "draw"])
    table = (
        frame.groupby(column, observed=True)
        .agg(seats=("win", "size"), wins=("win", "sum"), draws=("draw", "sum"))
        .reset_index()
    )
    table[["seats", "wins", "draws"]] = table[["seats", "wins", "draws"]].astype(int)
    return with_interval(table, "wins", "seats", "win_rate")


def agent_results(games: pd.DataFrame) -> pd.DataFrame:
    """Agent against agent, seat by seat: per game and seating (agent_0, agent_1), the first
    seat's share of decided games. With both seatings of a pair, the agent effect shows
    apart from the seat effect."""
    _require(games, ["game", "agent_0", "agent_1"], "agent_results")
    two_players = games[games["players"] == 2] if "players" in games else games
    return first_player_advantage(two_players, by=["game", "agent_0", "agent_1"])


# --- Parquet ------------------------------------------------------------------------------


def write_table(frame: pd.DataFrame, path: str | os.PathLike, metadata: dict[str, Any]) -> None:
    """Write a frame to Parquet with `metadata` (how it was made: command, seed, counts) in
    the file's schema metadata under `METADATA_KEY`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    merged = {**(table.schema.metadata or {}), METADATA_KEY: json.dumps(metadata).encode()}
    pq.write_table(table.replace_schema_metadata(merged), path, compression="zstd")


def table_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """How a Parquet file of make_data was made (the dict given to `write_table`)."""
    import pyarrow.parquet as pq

    path = Path(path)
    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, ValueError) as exc:
        raise StatsError(f"{path}: not a readable Parquet file ({exc})") from exc
    if METADATA_KEY not in metadata:
        raise StatsError(f"{path}: no {METADATA_KEY.decode()!r} metadata; not written by make_data?")
    return json.loads(metadata[METADATA_KEY])


def read_games(path: str | os.PathLike) -> pd.DataFrame:
    """A games frame from Parquet, typed as `games_frame` makes it (lists come back as
    lists)."""
    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError) as exc:
        raise StatsError(f"{path}: not a readable Parquet file ({exc})") from exc
    for column in frame.columns:
        if column == "winners" or (column.startswith("unit_") and column[5:].isdigit()):
            frame[column] = [list(v) if v is not None else None for v in frame[column]]
    return typed_games(frame)
