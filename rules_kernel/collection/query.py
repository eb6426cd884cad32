"""Questions asked of a collection: "games from here" (the moves played from a position, how
they scored, and the engine's value beside them), the players (games, score, Elo) and the
time they spent, by move and by phase of the game.

"Games from here" reads `from_here.parquet`, which every import writes beside the three
tables (`build_from_here`): one row per position from which a move was played (and, for a
game with hidden information, one per seat's view of it), with that move, the mover's points
in that game and the date, **sorted by a 64-bit key of the position text** and written in
small row groups. DuckDB reads only the row groups whose key range holds the key asked for
(Parquet's min/max statistics), so a query touches a few thousand rows whatever the size of
the collection.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_kernel import core, parts
from rules_kernel.collection.sources import CollectionError
from rules_kernel.collection.tables import Positions, _counter_fields, has_secrets, position_key
from rules_kernel.info import info
from rules_kernel.records import one_line

if TYPE_CHECKING:
    import pandas as pd

    from rules_kernel.collection import Collection

#: rows per row group of from_here.parquet: small, so a key's rows are read and little else
FROM_HERE_ROWS_PER_GROUP = 8192
#: the memory DuckDB may take to sort the index at the end of an import (it spills beyond):
#: the largest part of an import's peak; at 512 MB, 100,000 games on two processes peaked at
#: 1,170 MiB, at 256 MB at 972 MiB (benchmarks/bench_collection.py)
SORT_MEMORY = "256MB"
#: the seconds the tree search (or Fairy-Stockfish) is given by `from_position(engine=...)`
ENGINE_SECONDS = 0.5
#: `from_position`'s columns, in order
FROM_POSITION_COLUMNS = (
    "move",  # the move in words, as the viewer learns of it
    "notation",  # the move as the kernel writes it (`state.apply(notation)` plays it)
    "n",  # games that played it from this position (a game that played it twice here: once)
    "scored",  # of the n, those with a result
    "points",  # the mover's points in those: a win 1, a draw 1/2, a loss 0
    "score",  # points / scored
    "ci_low",  # its 95% interval (Wilson, rules_kernel.stats)
    "ci_high",
    "last_played",  # the latest date among the games' dates that read as one
    "engine",  # the engine's value of the move for the mover ("win in 7", "62.0% ± 4.1%")
    "engine_score",  # that value as an expected score in [0, 1]
)
#: the phase of a ply: the thirds of its game's plies
PHASES = ("opening", "middle", "end")


# --- the index ----------------------------------------------------------------------------


def _literal(path: Path) -> str:
    """A path (the user's own folder, or one we made) as an SQL string literal."""
    return "'" + str(path.resolve()).replace("'", "''") + "'"


#: a move's row: the position before it (ply - 1), its mover's points in its game, the date
_PLAYED = """
    select m.game_id, m.ply - 1 as ply, m.mover, m.notation, m.text, g.game,
           case when g.result = '*' or m.mover is null then null
                when g.result in ('1/2-1/2', 'draw') then 0.5
                else try_cast(split_part(g.result, '-', m.mover + 1) as double) end as points,
           try_cast(regexp_replace(regexp_extract(g.date, '^\\d{4}[./-]\\d{1,2}[./-]\\d{1,2}'),
                                   '[./]', '-', 'g') as date) as played_on
    from read_parquet(MOVES) m join read_parquet(GAMES) g using (game_id)
"""


def build_from_here(folder: Path) -> None:
    """Write `folder/from_here.parquet` from the collection's tables in `folder` (the end of
    an import): one row per position, game and move played from it there (all-seeing:
    `viewer` empty; for games with hidden information one more per seat's view, `viewer` the
    seat), sorted by key. DuckDB sorts it within SORT_MEMORY, spilling to `folder` beyond."""
    import duckdb

    table = {name: _literal(folder / f"{name}.parquet") for name in ("games", "moves", "positions", "views")}
    played = _PLAYED.replace("MOVES", table["moves"]).replace("GAMES", table["games"])
    # one row per game and move from a position (a game that came back and played the same
    # move again is one result): `ply` the first time, so from_position only counts rows
    query = f"""
        with played as ({played}),
        seen as (
            select p.key, null::integer as viewer, pl.*
            from read_parquet({table["positions"]}) p join played pl using (game_id, ply)
            union all
            select v.key, v.viewer, pl.*
            from read_parquet({table["views"]}) v join played pl using (game_id, ply))
        select key, viewer, game, game_id, notation, min(ply) as ply, any_value(mover) as mover,
               any_value(text) as text, any_value(points) as points, any_value(played_on) as played_on
        from seen
        group by key, viewer, game, game_id, notation
        order by key, game_id, ply
    """
    spill = folder / ".sorting"
    connection = duckdb.connect(":memory:")
    try:
        connection.execute(f"set temp_directory = {_literal(spill)}")
        connection.execute(f"set memory_limit = '{SORT_MEMORY}'")
        connection.execute("set enable_progress_bar = false")  # the import has its own
        connection.execute(
            f"copy ({query}) to {_literal(folder / 'from_here.parquet')} "
            f"(format parquet, compression zstd, row_group_size {FROM_HERE_ROWS_PER_GROUP})"
        )
    finally:
        connection.close()
        if spill.exists():
            import shutil

            shutil.rmtree(spill, ignore_errors=True)


# --- the key of a position -------------------------------------------------------------------


def match_text(
    state: core.State, counters: list[dict[str, Any]], viewer: int | str | None = "mover"
) -> tuple[str, int | None]:
    """(the text a position is looked up by, the viewer it is seen by or None).

    The kernel's position text without its move counters: the fields the import dropped
    for this game and width (`counters`, from collection.json), else those the kernel's rule
    tells on this state alone (`tables.Positions`). For a game with hidden information,
    what `viewer` sees (`state.view(viewer)`): "mover" (the default) is the player to move;
    None asks for the all-seeing position."""
    seen = state
    if has_secrets(state) and viewer is not None:
        if viewer == "mover":
            viewer = state.current_player if state.current_player >= 0 and not state.is_terminal() else None
        if viewer is not None:
            if not isinstance(viewer, int) or isinstance(viewer, bool):
                raise ValueError(f"viewer must be a seat number, 'mover' or None, not {viewer!r}")
            core.check_seat(state.game, viewer)
            seen = state.view(viewer)
    else:
        viewer = None
    fields = seen.to_text().split(" ")
    kind = "#view" if viewer is not None else ""
    known = [
        entry["drop"]
        for entry in counters
        if entry.get("game") == state.game.id
        and entry.get("width") == len(fields)
        and str(entry.get("options", "")).endswith("#view") == bool(kind)
    ]
    if known and all(drop == known[0] for drop in known):
        drop = frozenset(known[0])
    else:  # a collection that has never seen this game, or an older one: the kernel's rule
        drop = _counter_fields([seen], len(fields))
    return " ".join(f for i, f in enumerate(fields) if i not in drop), viewer


# --- games from here ---------------------------------------------------------------------------


def from_position(
    collection: Collection,
    state: core.State,
    *,
    viewer: int | str | None = "mover",
    engine: str | None = "table",
    seconds: float = ENGINE_SECONDS,
) -> pd.DataFrame:
    """One row per move played from `state`'s position in `collection` (FROM_POSITION_COLUMNS),
    the most played first. See `Collection.from_position`."""
    import pandas as pd

    if not collection.table_path("from_here").is_file():
        raise CollectionError(
            f"{collection.path.name} was imported before 'games from here' existed (no "
            "from_here.parquet): import its games again"
        )
    counters = collection.info.get("counters", [])
    text, seen_by = match_text(state, counters if isinstance(counters, list) else [], viewer)
    key = position_key(text, seen_by)
    viewer_test = "viewer is null" if seen_by is None else "viewer = $viewer"
    params: dict[str, Any] = {"key": key, "game": state.game.id}
    if seen_by is not None:
        params["viewer"] = seen_by
    # from_here holds one row per game and move from a position: counting rows counts games
    rows = collection.sql(
        f"""
        select notation, count(*) as n, count(points) as scored,
               coalesce(sum(points), 0) as points, max(played_on) as last_played
        from from_here
        where key = $key and game = $game and {viewer_test}
        group by notation order by n desc, notation""",
        params,
    )
    table = pd.DataFrame(
        {
            "move": [_words(state, notation, seen_by) for notation in rows["notation"]],
            "notation": rows["notation"].astype(str),
            "n": rows["n"].astype(int),
            "scored": rows["scored"].astype(int),
            "points": rows["points"].astype(float),
        }
    )
    _add_score(table)
    table["last_played"] = [None if pd.isna(d) else str(d)[:10] for d in rows["last_played"]]
    values, note = engine_values(state, list(table["notation"]), engine, seconds, viewer=seen_by)
    table["engine"] = [values.get(n, (None, None))[0] for n in table["notation"]]
    table["engine_score"] = [values.get(n, (None, math.nan))[1] for n in table["notation"]]
    table = table[list(FROM_POSITION_COLUMNS)]
    table.attrs.update(
        {"position": text, "viewer": seen_by, "engine_note": note, "games_here": int(table["n"].sum())}
    )
    return table


def _words(state: core.State, notation: str, viewer: int | None) -> str:
    """A move in words as `viewer` learns of it, from the position asked about. A move of
    another game whose hidden part differed may not be legal here: then its notation."""
    try:
        return parts.action_text(state, notation, viewer)
    except Exception:  # an illegal or unreadable move in this state: the notation says it
        return notation


def score_interval(points: float, trials: int) -> tuple[float, float]:
    """The 95% interval of a score (wins 1, draws 1/2) from `stats.proportion_ci` (Wilson):
    it takes whole successes, so a score with a half point is given the mean of the
    intervals of the whole numbers either side (NaN, NaN for no trials)."""
    from rules_kernel.stats import proportion_ci

    if trials == 0:
        return (math.nan, math.nan)
    low, high = math.floor(points), math.ceil(points)
    if low == high:
        return proportion_ci(int(low), trials)
    a, b = proportion_ci(int(low), trials), proportion_ci(int(high), trials)
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _add_score(table: pd.DataFrame, points: str = "points", trials: str = "scored") -> None:
    table["score"] = [p / n if n else math.nan for p, n in zip(table[points], table[trials], strict=True)]
    intervals = [score_interval(p, int(n)) for p, n in zip(table[points], table[trials], strict=True)]
    table["ci_low"] = [low for low, _ in intervals]
    table["ci_high"] = [high for _, high in intervals]


def engine_values(
    state: core.State,
    moves: list[str],
    engine: str | None,
    seconds: float = ENGINE_SECONDS,
    *,
    viewer: int | None = None,
) -> tuple[dict[str, tuple[str, float]], str]:
    """{notation: (value in words, expected score)} of `moves` for the player making them,
    and a note saying where the values come from (or why there are none).

    `engine`: "table" (the default) gives the solved table's exact values where the game has
    one and it is built here, and nothing otherwise (no search is started unasked); a name
    `rules_kernel.analysis` knows ("default", "ismcts", "fairy-stockfish") searches for
    `seconds`; None: no values."""
    if engine is None or not moves:
        return {}, "no engine asked" if engine is None else ""
    if state.is_terminal() or state.current_player < 0:
        return {}, "no engine value at a chance event or a finished game"
    from rules_kernel import analysis

    game = state.game
    if engine == "table":
        if info(game).solved_table is None:
            return {}, f"{game.title} has no solved table: no engine value (ask for engine='default')"
        availability = parts.solved_table_availability(game)
        if availability != "ready":
            return {}, f"the solved table of {game.title} is not built here ({availability}): no engine value"
        # exact, and quick: a lookup, or a short history search where repetitions matter
        limit: analysis.Limit | float = analysis.Limit(seconds=max(seconds, 1.0), nodes=100_000)
    else:
        limit = seconds
    name = None if engine == "default" else engine
    try:
        result = analysis.analyse(state, viewer=viewer, limit=limit, engine=name)
    except core.RulesError as exc:  # an engine missing or refusing: said, not raised
        return {}, f"no engine value: {one_line(str(exc))}"
    values = {line.move: (str(line.value), float(line.value.win_probability)) for line in result.moves}
    note = f"engine: {result.search.engine}" + (" (exact)" if result.search.exact else f", {seconds:g} s")
    return {m: values[m] for m in moves if m in values}, note


# --- players and clocks ---------------------------------------------------------------------------


#: one row per move with its phase: the thirds of its game's plies (ply <= plies/3: opening)
_PHASED = """
    select m.game_id, g.game, m.ply, m.mover, m.player, m.spent, g.plies,
           case when 3 * m.ply <= g.plies then 'opening'
                when 3 * m.ply <= 2 * g.plies then 'middle' else 'end' end as phase
    from moves m join games g using (game_id)
    where not m.chance and m.player is not null
"""


def move_phases(collection: Collection) -> pd.DataFrame:
    """The moves table's player moves with their game's id and `plies` and a `phase`:
    "opening", "middle" or "end" by thirds of the game's plies (ply 1 to plies/3, up to
    2·plies/3, the rest)."""
    return collection.sql(_PHASED + " order by game_id, ply")


def players(collection: Collection, *, anchor: str | None = None) -> pd.DataFrame:
    """One row per game and player name (two-seat games; a seat without a name is left out):

    games, wins, draws, losses, unfinished (no result), scored (games with a result),
    points, score (points / scored) with its 95% interval (ci_low, ci_high; Wilson, from
    `rules_kernel.stats`); elo with its 95% interval (elo_low, elo_high), fitted from the
    collection's results by `rules_kernel.ladder.ratings`, the agent ladder's own fit
    (maximum likelihood, draws as half points; relative: mean 0, or `anchor` at 0), games
    without a result left out; moves, timed_moves, seconds (spent in all), seconds_per_move
    and the mean seconds a move in each phase (opening_seconds, middle_seconds,
    end_seconds; NaN where no move was timed)."""
    import pandas as pd

    from rules_kernel import ladder

    games = collection.sql(
        """select game_id, game, player_1, player_2, result from games
           where len(players) = 2 and player_1 is not null and player_2 is not null"""
    )
    seats = []
    for seat, (me, other) in enumerate((("player_1", "player_2"), ("player_2", "player_1"))):
        part = games[["game_id", "game", me, other, "result"]].rename(
            columns={me: "player", other: "opponent"}
        )
        part["points"] = part["result"].map(lambda r, s=seat: _points(r, s))
        seats.append(part)
    both = pd.concat(seats, ignore_index=True)
    if both.empty:
        return pd.DataFrame(columns=list(PLAYER_COLUMNS))
    table = (
        both.groupby(["game", "player"], sort=True)
        .agg(
            games=("game_id", "size"),
            wins=("points", lambda p: int((p == 1.0).sum())),
            draws=("points", lambda p: int((p == 0.5).sum())),
            losses=("points", lambda p: int((p == 0.0).sum())),
            unfinished=("points", lambda p: int(p.isna().sum())),
            scored=("points", "count"),
            points=("points", "sum"),
        )
        .reset_index()
    )
    _add_score(table)
    decided = games[games["result"].map(lambda r: _points(r, 0) is not None)]
    elo = _elo(decided, anchor, ladder)
    table = table.merge(elo, on=["game", "player"], how="left")
    clocks = _clock_columns(collection)
    table = table.merge(clocks, on=["game", "player"], how="left")
    for column in ("moves", "timed_moves"):
        table[column] = table[column].fillna(0).astype(int)
    table = table.sort_values(["game", "elo", "score"], ascending=[True, False, False], kind="stable")
    return table[list(PLAYER_COLUMNS)].reset_index(drop=True)


PLAYER_COLUMNS = (
    "game",
    "player",
    "games",
    "wins",
    "draws",
    "losses",
    "unfinished",
    "scored",
    "points",
    "score",
    "ci_low",
    "ci_high",
    "elo",
    "elo_low",
    "elo_high",
    "moves",
    "timed_moves",
    "seconds",
    "seconds_per_move",
    *(f"{phase}_seconds" for phase in PHASES),
)


def _points(result: str, seat: int) -> float | None:
    """A two-seat result's points for `seat` ("1-0", "0-1", "1/2-1/2"); None for "*"."""
    if result == "1/2-1/2":
        return 0.5
    if result in ("1-0", "0-1"):
        return 1.0 if result[2 * seat] == "1" else 0.0
    return None


def _elo(decided: pd.DataFrame, anchor: str | None, ladder) -> pd.DataFrame:
    """Elo per game and player from the decided games, by the ladder's fit (a game whose
    games all have one player on both sides has no rating)."""
    import pandas as pd

    empty = pd.DataFrame(columns=["game", "player", "elo", "elo_low", "elo_high"])
    if decided.empty:
        return empty
    results = pd.DataFrame(
        {
            "game": decided["game"],
            "a": decided["player_1"],
            "b": decided["player_2"],
            "score_a": decided["result"].map(lambda r: _points(r, 0)),
        }
    )
    tables = []
    for game, group in results.groupby("game", sort=False):
        if len(set(group["a"]) | set(group["b"])) < 2:  # only self-play: nobody to rate against
            continue
        try:
            rated = ladder.ratings(group, anchor=anchor)
        except core.RulesError:  # the fit did not converge: no rating rather than a wrong one
            continue
        tables.append(
            pd.DataFrame(
                {
                    "game": game,
                    "player": rated["agent"],
                    "elo": rated["rating"],
                    "elo_low": rated["ci_low"],
                    "elo_high": rated["ci_high"],
                }
            )
        )
    return pd.concat(tables, ignore_index=True) if tables else empty


def _clock_columns(collection: Collection) -> pd.DataFrame:
    """Per game and player: moves, timed_moves, seconds, seconds_per_move, and the mean
    seconds a move in each phase."""
    phased = ", ".join(f"avg(spent) filter (where phase = '{phase}') as {phase}_seconds" for phase in PHASES)
    return collection.sql(
        f"""with phased as ({_PHASED})
            select game, player, count(*) as moves, count(spent) as timed_moves,
                   sum(spent) as seconds, avg(spent) as seconds_per_move, {phased}
            from phased group by game, player"""
    )


def shown(value: Any, fmt: Callable[[Any], str] = str) -> str:
    """A value as a page shows it: `fmt(value)`, or a dash for a missing one."""
    import pandas as pd

    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NaT:
        return "—"
    return fmt(value)


__all__ = [
    "FROM_POSITION_COLUMNS",
    "PHASES",
    "PLAYER_COLUMNS",
    "Positions",
    "build_from_here",
    "engine_values",
    "from_position",
    "match_text",
    "move_phases",
    "players",
    "score_interval",
]
