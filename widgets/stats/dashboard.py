"""The statistics dashboard: one game and experiment at a time from the precomputed games, and
"Run more games", which plays the next games of the same experiment into the tables.

    from rules_kernel import stats
    from widgets.stats.dashboard import StatsDashboard
    StatsDashboard(stats.read_games("data/games.parquet"), game="to-war")

The panels it shows are `widgets.stats.panels`' (every game) and `widgets.stats.holdings`'
(what the game's seats hold, as the game declares it). Every callback goes through
`widgets.safe.guarded` (errors become one line on the page).
"""

from __future__ import annotations

import time

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from rules_kernel import simulate, stats
from widgets.safe import error_line, guarded, html
from widgets.stats.holdings import holding_panels
from widgets.stats.panels import EXPERIMENT_NAMES, agent_table, endings_table, length_table, seat_table
from widgets.stats.tables import game_title, prose


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
        if games.empty:
            self.panels.children = (prose("No games of this kind yet: press Run more games."),)
            return
        seats = self.experiment.value == "seats"
        first = seat_table(games) if seats else agent_table(games)
        # the panels follow what the game's seats hold (its statistics part's seat_holdings), not its id
        plots, tables = holding_panels(games, title, seats=seats, figures=figures)
        panels = [first, *plots, endings_table(games, title), length_table(games, title), *tables]
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
