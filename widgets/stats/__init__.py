"""The statistics panels, one room a concern (issue 45 item 7):

- `tables`: the toolkit every panel is made with: columns, an escaped table with its caption,
  a figure, a paragraph, numbers and shares as text, games and agents by their names.
- `panels`: the panels every game gets (seats, agents, endings, length, branching) and the
  sentences whose numbers come from the data.
- `holdings`: the panels of what a game's seats hold, as the game declares it
  (its "statistics" part's `seat_holdings`): armies (To War!) and units (War Chest).
- `dashboard`: `StatsDashboard`, one game at a time with "Run more games".
- `ladder`: the agents' Elo ladder.

`widgets.stats_panel` re-exports the public names of all five, as documented before the split.
"""
