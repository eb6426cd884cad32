"""The statistics widgets under their first address: a compatibility face over
`widgets/stats/` (issue 45 item 7), kept because notebooks and docs import it (a documented API
is a promise). Every name here is the same object as in its room:

- `widgets.stats.tables`: the toolkit (`Column`, `count`, `label`, `game_label`, `share`,
  `table_html`, `table`, `figure`, `prose`, `percent`, `share_text`, `game_title`,
  `titles_of`, `agent_name`);
- `widgets.stats.panels`: every game's panels and sentences (`seat_table`, `seat_plot`,
  `agent_table`, `endings_table`, `length_table`, `length_plot`, `branching_plot`,
  `seat_summary`, `deadlock_summary`, `provenance`, `EXPERIMENT_NAMES`);
- `widgets.stats.holdings`: what a game's seats hold (`army_*` for armies, To War!;
  `unit_*` for units, War Chest; `army_name`, `unit_name`, `army_summary`);
- `widgets.stats.dashboard`: `StatsDashboard`;
- `widgets.stats.ladder`: `ladder_table`, `ladder_plot`, `ladder_panel`.

New code imports from the rooms; this module adds nothing of its own.

    from widgets import stats_panel as sp
    sp.seat_table(games)                   # the same as widgets.stats.panels.seat_table(games)
"""

from __future__ import annotations

from widgets.stats.dashboard import StatsDashboard
from widgets.stats.holdings import (
    army_name,
    army_pair_plot,
    army_pair_table,
    army_summary,
    army_table,
    unit_name,
    unit_plot,
    unit_rates,
    unit_table,
)
from widgets.stats.ladder import ladder_panel, ladder_plot, ladder_table
from widgets.stats.panels import (
    EXPERIMENT_NAMES,
    agent_table,
    branching_plot,
    deadlock_summary,
    endings_table,
    length_plot,
    length_table,
    provenance,
    seat_plot,
    seat_summary,
    seat_table,
)
from widgets.stats.tables import (
    Column,
    agent_name,
    count,
    figure,
    game_label,
    game_title,
    label,
    percent,
    prose,
    share,
    share_text,
    table,
    table_html,
    titles_of,
)

__all__ = [
    "EXPERIMENT_NAMES",
    "Column",
    "StatsDashboard",
    "agent_name",
    "agent_table",
    "army_name",
    "army_pair_plot",
    "army_pair_table",
    "army_summary",
    "army_table",
    "branching_plot",
    "count",
    "deadlock_summary",
    "endings_table",
    "figure",
    "game_label",
    "game_title",
    "label",
    "ladder_panel",
    "ladder_plot",
    "ladder_table",
    "length_plot",
    "length_table",
    "percent",
    "prose",
    "provenance",
    "seat_plot",
    "seat_summary",
    "seat_table",
    "share",
    "share_text",
    "table",
    "table_html",
    "titles_of",
    "unit_name",
    "unit_plot",
    "unit_rates",
    "unit_table",
]
