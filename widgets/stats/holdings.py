"""The panels of what a game's seats hold, as the game declares it (its "statistics" part, read
into the games frame by `rules_kernel.stats` as the columns <kind>_0, <kind>_1): armies, a
seat's one army (To War!), and units, a seat's four unit types (War Chest). A panel here serves
whichever games declare its kind; none is chosen by a game's id.

    from rules_kernel import stats
    from widgets.stats import holdings
    seats = games[games["experiment"] == "seats"]
    holdings.army_pair_plot(seats)                         # the games whose seats hold an army
    holdings.unit_table(stats.holding(seats, "unit"), "random against random")
    figures, tables = holdings.holding_panels(seats, "random against random", seats=True)
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w
import pandas as pd

from rules_kernel import stats
from widgets import charts
from widgets.stats.tables import Column, count, figure, percent, prose, share, share_text, table, titles_of


def holding_panels(
    games: pd.DataFrame, title: str, *, seats: bool, figures: bool = True
) -> tuple[list[w.Widget], list[w.Widget]]:
    """The panels of every kind the games' seats hold, as (figures, tables): the dashboard
    shows the figures after its first table and the tables last. `seats`: the games are the
    seat experiment (random against random, every army pair from both seats), the only one
    where army pairs as seated say something; `figures=False` while games stream in."""
    armies = seats and not stats.holding(games, "army").empty
    units = not stats.holding(games, "unit").empty
    tables = [army_pair_table(games)] if armies else []
    tables += [unit_table(games, title)] if units else []
    if not figures:
        return [], tables
    plots = [unit_plot(games, title)] if units else []
    plots += [army_pair_plot(games)] if armies else []
    return plots, tables


# --- armies: a seat holds one (To War!) ----------------------------------------------------------


def army_name(army: str) -> str:
    """A To War! army by its name on the box ("Nordische Armee"), not its id ("northern")."""
    from rules_kernel.games.to_war import ARMY_NAMES

    return ARMY_NAMES.get(str(army), str(army))


def army_pair_plot(games: pd.DataFrame) -> w.HTML:
    """The first seat's share for each army pair as seated, as a heat map, over the games
    whose seats hold an army (To War!)."""
    pairs, name = stats.army_pairs(games), titles_of(stats.holding(games, "army"))
    ids = sorted({*map(str, pairs["army_0"]), *map(str, pairs["army_1"])})
    armies = [army_name(a) for a in ids]
    cells = {
        (army_name(r["army_0"]), army_name(r["army_1"])): (
            r["first_share"],
            f"{percent(r['first_share'])}\nn={int(r['decided'])}",
        )
        for _, r in pairs.iterrows()
    }
    svg = charts.heat_map(
        armies,
        armies,
        cells,
        xlabel="second player's army",
        ylabel="first player's army",
        title=f"{name} by army pair",
    )
    caption = (
        f"{name}, random against random: n = {int(pairs['games'].sum()):,} games, "
        f"{int(pairs['games'].min())}–{int(pairs['games'].max())} per army pair. Each square: the first "
        "player's share of the decided games (blue: the first player wins more, orange: fewer) and their "
        "number n; the 95% intervals are in the table below."
    )
    return figure(svg, caption)


def army_pair_table(games: pd.DataFrame) -> w.HTML:
    pairs, name = stats.army_pairs(games), titles_of(stats.holding(games, "army"))
    caption = (
        f"{name} by army pair, random against random: n = {int(pairs['games'].sum()):,} games; "
        "first player's share of decided games with 95% Wilson interval"
    )
    return table(
        pairs,
        [
            Column("First player's army", lambda row: army_name(row["army_0"]), numeric=False),
            Column("Second player's army", lambda row: army_name(row["army_1"]), numeric=False),
            count("games", "Games (n)"),
            count("draws", "Draws"),
            share("first_share", "First player's share (95% interval)"),
        ],
        caption,
    )


def army_table(games: pd.DataFrame) -> w.HTML:
    armies = stats.win_rates(games, "army").sort_values("win_rate", ascending=False)
    caption = (
        f"{titles_of(stats.holding(games, 'army'))} army win rates over both seats: "
        f"n = {int(armies['seats'].sum()) // 2:,} "
        "games (each counts once for each side); share of seats won, 95% Wilson interval"
    )
    return table(armies, _rate_columns("Army", "army", army_name), caption)


def _number_word(n: int) -> str:
    words = (
        "no",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    )
    return words[n] if 0 <= n < len(words) else f"{n:,}"


def _rate(row: pd.Series) -> str:
    return share_text(row["win_rate"], row["ci_low"], row["ci_high"])


def army_summary(games: pd.DataFrame) -> w.HTML:
    """The seat effect pooled over the army pairs of the games whose seats hold an army (To
    War!: every pair is played from both seats), then the strongest and the weakest army over
    both seats; whether the armies differ more than the seats is read off the intervals, not
    assumed."""
    with_armies = stats.holding(games, "army")
    armies = stats.win_rates(with_armies, "army").sort_values("win_rate")
    seat = stats.first_player_advantage(with_armies).iloc[0]
    pairs = _number_word(len(stats.army_pairs(with_armies)))
    best, worst = armies.iloc[-1], armies.iloc[0]
    apart = best["ci_low"] > worst["ci_high"]
    seat_text = share_text(seat["first_share"], seat["ci_low"], seat["ci_high"])
    verdict = (
        "The armies differ: their intervals do not overlap."
        if apart
        else "Their intervals overlap: these games do not tell the armies apart."
    )
    return prose(
        f"Over the {pairs} army pairs, each played from both seats, the first player won {seat_text} of "
        f"{int(seat['decided']):,} decided games. By army over both seats, {army_name(best['army'])} won "
        f"{_rate(best)} of its {int(best['seats']):,} seats and {army_name(worst['army'])} {_rate(worst)} of "
        f"{int(worst['seats']):,}. {verdict}"
    )


# --- units: a seat holds four types (War Chest) ---------------------------------------------------


def unit_name(unit: str) -> str:
    """A War Chest unit by the name its card prints ("Light Cavalry"), not its id."""
    from rules_kernel.games.war_chest.box import NAMES

    return NAMES.get(str(unit), str(unit))


def unit_rates(games: pd.DataFrame) -> pd.DataFrame:
    return stats.win_rates(games, "unit").sort_values("win_rate")


def unit_plot(games: pd.DataFrame, title: str) -> w.HTML:
    """Win rate by unit over one game's games whose seats hold units (War Chest)."""
    units = unit_rates(games).sort_values("win_rate", ascending=False)
    name = titles_of(stats.holding(games, "unit"))
    svg = charts.interval_plot(
        [unit_name(u) for u in units["unit"]],
        list(100 * units["win_rate"]),
        list(100 * units["ci_low"]),
        list(100 * units["ci_high"]),
        xlabel="win rate of the seats holding the unit (%)",
        title=f"{name} win rate by unit",
    )
    finished = int(games["finished"].sum())
    caption = (
        f"{name}, {title}: win rate by unit over n = {finished:,} finished games "
        f"({int(units['seats'].min())}–{int(units['seats'].max())} seats per unit); "
        "bars: 95% Wilson interval. "
        "A draw (deadlock) counts as a seat that did not win."
    )
    return figure(svg, caption)


def unit_table(games: pd.DataFrame, title: str) -> w.HTML:
    units = unit_rates(games).sort_values("win_rate", ascending=False)
    caption = (
        f"{titles_of(stats.holding(games, 'unit'))}, {title}: n = {int(games['finished'].sum()):,} "
        "finished games; win rate of the "
        "seats holding each unit, 95% Wilson interval"
    )
    return table(units, _rate_columns("Unit", "unit", unit_name), caption)


def _rate_columns(header: str, kind: str, name_of: Callable[[str], str]) -> list[Column]:
    """The columns of a win-rate table by what the seats held (`stats.win_rates`)."""
    return [
        Column(header, lambda row: name_of(row[kind]), numeric=False),
        count("seats", "Seats (n)"),
        count("wins", "Won"),
        count("draws", "Drawn"),
        share("win_rate", "Win rate (95% interval)"),
    ]
