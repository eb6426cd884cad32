"""The agents' ladder: per game, every agent's Elo rating with its 95% interval, in a table and
an interval plot, from data/ladder.parquet (`rules_kernel.ladder`, made by make_data).

    from widgets.stats.ladder import ladder_panel
    ladder_panel("data")                   # a line on how it was made, then each game's ladder
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import ipywidgets as w
import pandas as pd

from rules_kernel import stats
from widgets import charts
from widgets.stats.tables import Column, agent_name, count, figure, game_title, percent, prose, table


def ladder_table(ratings: pd.DataFrame, game: str, games_per_pair: int) -> w.HTML:
    """One game's agents by Elo rating (`rules_kernel.ladder.ratings`), best first."""
    rows = ratings[ratings["game"] == game]
    prior = (
        " A perfect record: a weak prior (a spread of 1,000 Elo points) keeps the ratings finite."
        if rows["prior"].any()
        else ""
    )
    caption = (
        f"{game_title(game)}: Elo ratings from a round robin, {games_per_pair} games per pair with the "
        f"seats alternating, n = {int(rows['n'].sum()) // 2:,} games; {_anchor(rows)}, 95% interval "
        f"from the likelihood's curvature.{prior}"
    )
    return table(
        rows,
        [
            Column("Agent", lambda row: agent_name(row["agent"]), numeric=False),
            Column("Rating (95% interval)", _rating_text),
            count("n", "Games (n)"),
            Column("Won–drawn–lost", lambda r: f"{int(r['wins'])}–{int(r['draws'])}–{int(r['losses'])}"),
            Column("Score", lambda r: percent(r["score"])),
        ],
        caption,
    )


def _anchor(rows: pd.DataFrame) -> str:
    anchored = rows[rows["anchor"]]
    if not len(anchored):
        return "mean 0"
    return f"{agent_name(anchored['agent'].iloc[0])} = 0 (the others relative to it)"


def _rating_text(row: pd.Series) -> str:
    if row["anchor"]:
        return "0 (anchor)"
    return f"{row['rating']:+.0f} ({row['ci_low']:+.0f} to {row['ci_high']:+.0f})"


def ladder_plot(ratings: pd.DataFrame, game: str) -> w.HTML:
    """One game's ratings with their 95% intervals, best on top."""
    rows = ratings[ratings["game"] == game]
    low = 200 * math.floor(min(0.0, rows["ci_low"].min()) / 200)
    high = 200 * math.ceil(max(200.0, rows["ci_high"].max()) / 200)
    svg = charts.interval_plot(
        [agent_name(a) for a in rows["agent"]],
        list(rows["rating"]),
        list(rows["ci_low"]),
        list(rows["ci_high"]),
        xlabel=f"Elo rating ({_anchor(rows).split(' (')[0]})",
        reference=0,
        low=low,
        high=high,
        title=f"{game_title(game)}: agent ratings",
    )
    caption = (
        f"Dots: Elo rating, bars: 95% interval; n = {int(rows['n'].sum()) // 2:,} games. "
        "A 200-point lead means winning about 76% of games against the other."
    )
    return figure(svg, caption)


def ladder_panel(data: str | os.PathLike) -> w.VBox:
    """Every game's agent ladder from data/ladder.parquet (make_data): a line on how it was
    made, then per game its table and plot."""
    from rules_kernel import ladder  # the ladder's fit needs scipy's optimiser: only here

    path = Path(data) / "ladder.parquet"
    made = stats.table_metadata(path)
    results = ladder.results_frame(pd.read_parquet(path).to_dict("records"))
    ratings = ladder.ratings(results)
    intro = prose(
        f"These {len(results):,} games were played on {str(made['made'])[:10]} with seed {made['seed']} "
        f"(the same seed plays the same games again); the search agents with {made['budget']} "
        "iterations or playouts a move, so the whole ladder is made in minutes."
    )
    parts: list[w.Widget] = [intro]
    for game in made["agents"]:
        parts += [ladder_table(ratings, game, made["games_per_pair"]), ladder_plot(ratings, game)]
    return w.VBox(parts)
