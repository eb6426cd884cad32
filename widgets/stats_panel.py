"""Statistics a reader can trust, as widgets: tables whose captions name the number of games,
every share with its 95% interval, plots with labelled axes. No frame reprs on the page.

    from rules_kernel import stats
    from widgets.stats_panel import StatsDashboard, seat_panel
    games = stats.read_games("data/games.parquet")
    seat_panel(games)                      # first-player advantage per game, table and plot
    StatsDashboard(games)                  # one game at a time, with "Run more games"

Every text that reaches HTML goes through `widgets.safe.html` (escaped); every callback
through `widgets.safe.guarded` (errors become one line on the page).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from rules_kernel import simulate, stats
from widgets import charts
from widgets.safe import error_line, guarded, html


def game_title(game_id: str) -> str:
    """A game's title as its module declares it (`Game.title`); an id no registered game has
    (a record of a game since removed) stands for itself."""
    try:
        return rk.game_class(str(game_id)).title or str(game_id)
    except rk.OptionError:
        return str(game_id)


def titles_of(games: pd.DataFrame) -> str:
    """The titles of the games a frame holds ("To War!"), in their declared order."""
    present = set(map(str, games["game"]))
    ordered = [g for g in rk.list_games(ordered=True) if g in present]
    return " and ".join(game_title(g) for g in ordered + sorted(present - set(ordered)))


# --- names as the games say them ---------------------------------------------------------------
#: the kinds of agent a data file names by id ("ismcts:5"): what each is, in words
_AGENT_KINDS = {
    "random": "random",
    "greedy": "greedy (one move ahead)",
    "mcts": "tree search ({n} iterations)",
    "ismcts": "playout search ({n} playouts)",
    "fsf": "Fairy-Stockfish (depth {n})",
    "perfect": "perfect (the solved game's table)",
}


def army_name(army: str) -> str:
    """A To War! army by its name on the box ("Nordische Armee"), not its id ("northern")."""
    from rules_kernel.games.to_war import ARMY_NAMES

    return ARMY_NAMES.get(str(army), str(army))


def unit_name(unit: str) -> str:
    """A War Chest unit by the name its card prints ("Light Cavalry"), not its id."""
    from rules_kernel.games.war_chest.box import NAMES

    return NAMES.get(str(unit), str(unit))


def agent_name(agent: str) -> str:
    """An agent in words ("tree search (5 iterations)"), not its id ("mcts:5"); the statistics
    page says what each kind is."""
    kind, _, n = str(agent).partition(":")
    words = _AGENT_KINDS.get(kind)
    return str(agent) if words is None else words.format(n=n or "some")


# --- numbers as text ------------------------------------------------------------------------


def percent(value: float) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.1f}%"


def share_text(share: float, low: float, high: float) -> str:
    """ "53.1% (95% CI 51.0–55.2%)", or a dash when there is nothing to share."""
    if share is None or math.isnan(share):
        return "–"
    return f"{percent(share)} ({100 * low:.1f}–{100 * high:.1f}%)"


@dataclass(frozen=True)
class Column:
    """A table column: its header, and how to make the cell's text from a row."""

    header: str
    text: Callable[[pd.Series], str]
    numeric: bool = True


def count(name: str, header: str) -> Column:
    return Column(header, lambda row: f"{int(row[name]):,}")


def label(name: str, header: str, names: dict[str, str] | None = None) -> Column:
    return Column(header, lambda row: (names or {}).get(str(row[name]), str(row[name])), numeric=False)


def game_label(name: str, header: str) -> Column:
    """A column of game ids shown as the games' titles."""
    return Column(header, lambda row: game_title(row[name]), numeric=False)


def share(name: str, header: str) -> Column:
    return Column(header, lambda row: share_text(row[name], row["ci_low"], row["ci_high"]))


def table_html(frame: pd.DataFrame, columns: Sequence[Column], caption: str) -> str:
    """An HTML table (every cell escaped) with a caption; the caption must say how many
    games the numbers stand on."""
    head = "".join(
        html(
            '<th scope="col" style="text-align:{align}">{h}</th>',
            h=c.header,
            align="right" if c.numeric else "left",
        )
        for c in columns
    )
    body = "".join(
        "<tr>"
        + "".join(
            html(
                '<td style="text-align:{align}">{t}</td>',
                t=c.text(row),
                align="right" if c.numeric else "left",
            )
            for c in columns
        )
        + "</tr>"
        for _, row in frame.iterrows()
    )
    return (
        html(
            '<table class="stats-table" style="border-collapse:collapse;margin:4px 0 12px">'
            '<caption style="caption-side:top;text-align:left;font-weight:600;padding:4px 0;'
            'max-width:calc(100vw - 40px)">'
            "{caption}</caption>",
            caption=caption,
        )
        + f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        + _TABLE_STYLE
    )


_TABLE_STYLE = (
    "<style>.stats-table th,.stats-table td{padding:3px 10px;border-bottom:1px solid #ddd;"
    "font-variant-numeric:tabular-nums}.stats-table thead th{border-bottom:2px solid #555}</style>"
)


def table(frame: pd.DataFrame, columns: Sequence[Column], caption: str) -> w.HTML:
    return w.HTML(table_html(frame, columns, caption), layout=w.Layout(overflow="auto", max_width="100%"))


def figure(svg: str, caption: str) -> w.HTML:
    """A chart (SVG text from `widgets.charts`, labels escaped there) with its caption."""
    return w.HTML(
        '<figure style="margin:4px 0 16px;max-width:100%">'
        + svg
        + html(
            '<figcaption style="font-size:90%;color:#333;max-width:46em">{caption}</figcaption>',
            caption=caption,
        )
        + "</figure>",
        layout=w.Layout(max_width="100%", overflow="auto"),
    )


def prose(text: str) -> w.HTML:
    """A paragraph whose numbers come from the data (escaped; **bold** is not parsed)."""
    return w.HTML(html('<p style="max-width:46em;line-height:1.45">{text}</p>', text=text))


# --- the panels -----------------------------------------------------------------------------


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
    return table(
        armies,
        [
            Column("Army", lambda row: army_name(row["army"]), numeric=False),
            count("seats", "Seats (n)"),
            count("wins", "Won"),
            count("draws", "Drawn"),
            share("win_rate", "Win rate (95% interval)"),
        ],
        caption,
    )


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
    return table(
        units,
        [
            Column("Unit", lambda row: unit_name(row["unit"]), numeric=False),
            count("seats", "Seats (n)"),
            count("wins", "Won"),
            count("draws", "Drawn"),
            share("win_rate", "Win rate (95% interval)"),
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


# --- the dashboard ---------------------------------------------------------------------------

EXPERIMENT_NAMES = {
    "seats": "random against random (seat effect)",
    "agents": "greedy against random, both seatings (agent effect)",
}


class StatsDashboard(w.VBox):
    """One game's statistics from the precomputed games, and a "Run more games" control
    that plays the next games of the same experiment (`rules_kernel.simulate`, the seeds
    make_data would use) into the tables, with one progress bar. `game`: the one shown first
    (None: the first of the games in their declared order)."""

    def __init__(
        self,
        games: pd.DataFrame,
        *,
        game: str | None = None,
        experiment: str = "seats",
        seed: int = simulate.EXPERIMENT_SEED,
    ) -> None:
        self.games, self.seed = games, seed
        present = [g for g in rk.list_games(ordered=True) if g in set(map(str, games["game"]))]
        self.game = w.Dropdown(
            options=[(game_title(g), g) for g in present],
            value=present[0] if game is None and present else game,
            description="Game",
        )
        self.experiment = w.Dropdown(
            options=[(v, k) for k, v in EXPERIMENT_NAMES.items()],
            value=experiment,
            description="Games",
            layout=w.Layout(width="420px"),
        )
        self.more = w.BoundedIntText(
            value=20,
            min=1,
            max=500,
            description="How many",
            tooltip="how many games to play",
            layout=w.Layout(width="170px"),
        )
        self.run = w.Button(description="Run more games", icon="play", button_style="primary")
        self.progress = w.IntProgress(value=0, min=0, max=1, description="", layout=w.Layout(width="300px"))
        self.progress_label = w.HTML()
        self.message = w.HTML()
        self.panels = w.VBox()
        self._wire()
        controls = w.HBox(
            [self.more, self.run, self.progress, self.progress_label],
            layout=w.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(
            [
                w.HBox([self.game, self.experiment], layout=w.Layout(flex_flow="row wrap")),
                controls,
                self.message,
                self.panels,
            ]
        )
        self.show()

    def _wire(self) -> None:
        show = error_line(self.message)
        self.game.observe(guarded(show)(lambda _: self.show()), names="value")
        self.experiment.observe(guarded(show)(lambda _: self.show()), names="value")
        self.run.on_click(guarded(show)(lambda _: self.run_more(self.more.value)))

    def selected(self) -> pd.DataFrame:
        g = self.games
        return g[(g["game"] == self.game.value) & (g["experiment"] == self.experiment.value)]

    def show(self, figures: bool = True) -> None:
        """Draw the panels of the chosen game and experiment (tables only while games stream)."""
        self.message.value = ""
        games, title = self.selected(), EXPERIMENT_NAMES[self.experiment.value]
        panels: list[w.Widget] = []
        if games.empty:
            self.panels.children = (prose("No games of this kind yet: press Run more games."),)
            return
        if self.experiment.value == "seats":
            panels.append(seat_table(games))
        else:
            panels.append(agent_table(games))
        panels += [endings_table(games, title), length_table(games, title)]
        # the panels follow what the game's seats hold (Game.seat_holdings), not its id
        if self.experiment.value == "seats" and not stats.holding(games, "army").empty:
            panels.append(army_pair_table(games))
            if figures:
                panels.insert(1, army_pair_plot(games))
        if not stats.holding(games, "unit").empty:
            panels.append(unit_table(games, title))
            if figures:
                panels.insert(1, unit_plot(games, title))
        self.panels.children = tuple(panels)

    def run_more(self, how_many: int) -> None:
        """Play `how_many` more games of the chosen kind, streaming them into the tables."""
        game, experiment = self.game.value, self.experiment.value
        done = self.selected()
        start = int(done["index"].max()) + 1 if len(done) and done["index"].notna().any() else 0
        self.run.disabled = True
        self.progress.max, self.progress.value = how_many, 0
        last_shown = time.monotonic()
        batch = []
        tasks = [
            simulate.experiment_task(game, experiment, i, self.seed) for i in range(start, start + how_many)
        ]
        try:
            for record in simulate.play_tasks(tasks):  # in this kernel, one game after another
                batch.append(record)
                self.progress.value += 1
                self.progress_label.value = html(
                    "{n} of {total} games", n=self.progress.value, total=how_many
                )
                if time.monotonic() - last_shown > 2:  # stream into the tables every few seconds
                    self._add(batch)
                    batch, last_shown = [], time.monotonic()
                    self.show(figures=False)
            self._add(batch)
        finally:
            self.run.disabled = False
            self.show()

    def _add(self, records: list) -> None:
        if not records:
            return
        new = stats.experiment_games(records)
        new["record"] = new["record"] + (int(self.games["record"].max()) + 1 if len(self.games) else 0)
        self.games = stats.typed_games(pd.concat([self.games, new], ignore_index=True))


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


# --- the agent ladder -----------------------------------------------------------------------


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
