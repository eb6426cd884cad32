"""The panels every game gets, whatever its seats hold: the first-player advantage, greedy
against random, how games end, how long they last, the branching factor; and the sentences
whose numbers come from the data (the seat effect, deadlocks, where the numbers come from).

    from rules_kernel import stats
    from widgets.stats import panels
    games = stats.read_games("data/games.parquet")
    seats = games[games["experiment"] == "seats"]
    panels.seat_table(seats)               # first-player advantage per game, with intervals
    panels.seat_plot(seats)                # the same as an interval plot

The panels of what a game's seats hold (To War!'s armies, War Chest's units) are in
`widgets.stats.holdings`; the ladder's in `widgets.stats.ladder`.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from rules_kernel import stats
from widgets import charts
from widgets.stats.tables import (
    Column,
    count,
    figure,
    game_label,
    game_title,
    label,
    prose,
    share,
    share_text,
    table,
)

#: the experiments of make_data (`rules_kernel.simulate`), in words
EXPERIMENT_NAMES = {
    "seats": "random against random (seat effect)",
    "agents": "greedy against random, both seatings (agent effect)",
}

# --- every game's panels ---------------------------------------------------------------------


def seat_table(games: pd.DataFrame) -> w.HTML:
    """First-player advantage per game from the random-vs-random games."""
    seats = stats.first_player_advantage(games)
    caption = (
        f"First-player advantage, random against random: n = {int(seats['games'].sum()):,} games "
        f"({', '.join(f'{int(g):,}' for g in seats['games'])} per game); share of decided games "
        "won by the first player, with 95% Wilson interval"
    )
    return table(
        seats,
        [
            game_label("game", "Game"),
            count("games", "Games (n)"),
            count("first_wins", "First wins"),
            count("second_wins", "Second wins"),
            count("draws", "Draws"),
            count("unfinished", "Unfinished"),
            share("first_share", "First player's share (95% interval)"),
        ],
        caption,
    )


def _per_game(games: pd.Series, counts: pd.Series) -> str:
    return ", ".join(f"{game_title(g)} {int(n):,}" for g, n in zip(games, counts, strict=True))


def seat_plot(games: pd.DataFrame) -> w.HTML:
    seats = stats.first_player_advantage(games)
    svg = charts.interval_plot(
        [game_title(g) for g in seats["game"]],
        list(100 * seats["first_share"]),
        list(100 * seats["ci_low"]),
        list(100 * seats["ci_high"]),
        xlabel="first player's share of decided games (%)",
        reference=50,
        title="First-player advantage per game",
    )
    caption = (
        f"Dots: the first player's share of decided games, bars: 95% Wilson interval; "
        f"n = {int(seats['decided'].sum()):,} decided games ({_per_game(seats['game'], seats['decided'])}). "
        "Dashed line: no advantage."
    )
    return figure(svg, caption)


def agent_table(games: pd.DataFrame) -> w.HTML:
    """Greedy against random in both seatings: the agent effect apart from the seat."""
    rows = []
    for game, group in games.groupby("game", observed=True):
        finished = group[group["finished"]]
        greedy_won = sum(
            int(a0 == "greedy" and win == 0 or a1 == "greedy" and win == 1)
            for a0, a1, win in zip(finished["agent_0"], finished["agent_1"], finished["winner"], strict=True)
            if not pd.isna(win)
        )
        first_greedy = group[group["agent_0"] == "greedy"]
        rows.append(
            {
                "game": game,
                "games": len(group),
                "decided": int(finished["winner"].notna().sum()),
                "greedy_wins": greedy_won,
                "greedy_first": len(first_greedy),
            }
        )
    frame = pd.DataFrame(rows)
    frame = stats.with_interval(frame, "greedy_wins", "decided", "greedy_share")
    caption = (
        f"Agent effect, greedy against random with each seating half the time: n = "
        f"{int(frame['games'].sum()):,} games; greedy's share of decided games, 95% Wilson interval"
    )
    return table(
        frame,
        [
            game_label("game", "Game"),
            count("games", "Games (n)"),
            count("greedy_first", "Greedy sat first"),
            count("decided", "Decided"),
            count("greedy_wins", "Greedy won"),
            share("greedy_share", "Greedy's share (95% interval)"),
        ],
        caption,
    )


def endings_table(games: pd.DataFrame, title: str) -> w.HTML:
    endings = stats.termination_reasons(games)
    caption = (
        f"How games end, {title}: n = {len(games):,} games; share of each game's games, 95% Wilson interval"
    )
    return table(
        endings,
        [
            game_label("game", "Game"),
            label("ending", "Ending"),
            count("games", "Games"),
            share("share", "Share (95% interval)"),
        ],
        caption,
    )


def length_table(games: pd.DataFrame, title: str) -> w.HTML:
    length = stats.game_length(games).reset_index()
    caption = f"Game length in actions (moves and chance draws), {title}: n = {len(games):,} games"
    return table(
        length,
        [
            game_label("game", "Game"),
            count("count", "Games (n)"),
            Column("Median", lambda r: f"{r['50%']:.0f}"),
            Column("Middle half", lambda r: f"{r['25%']:.0f}–{r['75%']:.0f}"),
            Column("Longest", lambda r: f"{r['max']:.0f}"),
        ],
        caption,
    )


def length_plot(games: pd.DataFrame, title: str) -> w.HTML:
    order = [g for g in rk.list_games(ordered=True) if g in set(map(str, games["game"]))]
    quantiles = [
        tuple(games.loc[games["game"] == g, "actions"].quantile([0.05, 0.25, 0.5, 0.75, 0.95])) for g in order
    ]
    svg = charts.box_plot(
        [game_title(g) for g in order],
        quantiles,
        xlabel="actions per game (moves and chance draws)",
        title="Game length",
    )
    counts = ", ".join(f"{game_title(g)} {int((games['game'] == g).sum()):,}" for g in order)
    caption = (
        f"Game length, {title}: boxes hold the middle half of the games, the orange line is the "
        f"median, whiskers reach from the 5th to the 95th percentile; n = {len(games):,} games ({counts})."
    )
    return figure(svg, caption)


def branching_plot(actions: pd.DataFrame, max_ply: int = 200) -> w.HTML:
    branching = stats.branching_by_ply(actions)
    branching = branching[(branching["ply"] < max_ply) & (branching["count"] >= 10)]
    games = actions.groupby("game", observed=True)["record"].nunique()
    series = {
        f"{game_title(game)} (n={games[game]})": (list(group["ply"]), list(group["mean"]))
        for game, group in branching.groupby("game", observed=True)
    }
    svg = charts.line_plot(
        series,
        xlabel="ply (actions since the start)",
        ylabel="legal moves (mean)",
        log_y=True,
        title="Branching factor by ply",
    )
    caption = (
        f"Branching factor: the mean number of legal moves at each ply (log scale), over n = "
        f"{int(games.sum())} random-vs-random games (n per game in the legend); plies reached by fewer "
        "than 10 games are left out."
    )
    return figure(svg, caption)


# --- sentences whose numbers come from the data ---------------------------------------------------


def seat_summary(games: pd.DataFrame) -> w.HTML:
    """One sentence per game on the seat effect: an advantage only where the interval leaves
    out 50%."""
    seats = stats.first_player_advantage(games)
    parts = []
    for _, row in seats.iterrows():
        name = game_title(row["game"])
        share = share_text(row["first_share"], row["ci_low"], row["ci_high"])
        if row["ci_low"] > 0.5:
            verdict = "the first player has the edge"
        elif row["ci_high"] < 0.5:
            verdict = "the second player has the edge"
        else:
            verdict = "no seat advantage can be told apart from chance"
        parts.append(
            f"{name}: the first player won {share} of {int(row['decided']):,} decided games — {verdict}."
        )
    return prose(" ".join(parts))


def deadlock_summary(games: pd.DataFrame) -> w.HTML:
    """The deadlock share per experiment, with its interval, of each game that ended in
    deadlock at least once among `games` (War Chest's draw); the game's title leads its
    sentences when there are several such games."""
    deadlocking = set(map(str, games.loc[games["ending"] == "deadlock", "game"]))
    parts = []
    for game in [g for g in rk.list_games(ordered=True) if g in deadlocking]:
        lead = f"{game_title(game)}, " if len(deadlocking) > 1 else ""
        for experiment, group in games[games["game"] == game].groupby("experiment", observed=True):
            deadlocks = int((group["ending"] == "deadlock").sum())
            low, high = stats.proportion_ci(deadlocks, len(group))
            share = share_text(deadlocks / len(group) if len(group) else math.nan, low, high)
            parts.append(
                f"{lead}{EXPERIMENT_NAMES.get(str(experiment), experiment)}: {deadlocks:,} of {len(group):,} "
                f"games ended in deadlock, {share}."
            )
    return prose(" ".join(parts))


def provenance(data: str | os.PathLike) -> w.HTML:
    """Where the numbers come from: the command, seed and time recorded in the Parquet files
    of make_data, and how many games of each kind."""
    made = stats.table_metadata(Path(data) / "games.parquet")
    replayed = stats.table_metadata(Path(data) / "actions.parquet").get("action_games_per_game", "some")
    seats = made["games_per_game"]["seats"]
    per_game = (
        ", ".join(f"{game_title(g)} {n:,}" for g, n in seats.items())
        if isinstance(seats, dict)
        else f"{seats:,} per game"
    )
    return prose(
        # the command that made them is in the files and in docs/statistics.md: a reader is told
        # that the games can be played again, not how to type it
        f"These games were played on {str(made['made'])[:10]} with seed {made['seed']} (the same seed "
        f"plays the same games again): random against "
        f"random {per_game}; greedy against random {made['games_per_game']['agents']:,} per game; the first "
        f"{replayed} random games of each game replayed action by action for the branching factor."
    )
