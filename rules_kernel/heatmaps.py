"""Where things happen on the board, counted over recorded games: pure pandas over an actions
frame (`stats.actions_frame`, or `data/actions.parquet`; columns in docs/statistics.md).

Each function picks the actions of one game that count (a capture, a piece's move, a control
action, a move off the board) and the cell each one counts on, read from the action's
notation: a square is a letter and a rank (`b3`), a hex is `q,r` (`2,5`). The result is a
`CellCounts`: per cell the events, the games they happened in, and when (plies), with the
number of games and events behind the whole picture. Nothing here draws; the statistics page
draws the counts as a heatmap (`widgets/heatmap.py`).

    from rules_kernel import heatmaps
    actions = pd.read_parquet("data/actions.parquet")
    heatmaps.captures(actions, "yokai-3x4").cells        # events, games, first_ply, median_ply
    heatmaps.piece_moves(actions, "yokai-3x4", "Koropokkuru", files=3, ranks=4).cells
    heatmaps.verb_cells(actions, "war-chest", "control").cells
    heatmaps.moves_off_board(actions, "to-war", board).cells      # board: the cell ids
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

import pandas as pd

#: a cell in an action's notation: a square (file letter, rank) or an axial hex (q,r)
CELL = r"[a-z]\d+|-?\d+,-?\d+"
COLUMNS = ["events", "games", "first_ply", "median_ply"]


class HeatmapError(ValueError):
    """The actions frame cannot give this picture (a column is missing)."""


@dataclass(frozen=True)
class CellCounts:
    """Counts per cell. `cells`: a frame indexed by cell id with `events` (how many), `games`
    (in how many games), `first_ply` and `median_ply` (when), most events first; `games`: the
    games of that game in the frame (events or not); `events`: the events counted."""

    cells: pd.DataFrame
    games: int
    events: int

    def counts(self) -> dict[str, int]:
        return {cell: int(n) for cell, n in self.cells["events"].items()}


def _of_game(actions: pd.DataFrame, game: str) -> pd.DataFrame:
    missing = [c for c in ("record", "game", "ply", "action", "chance") if c not in actions]
    if missing:
        raise HeatmapError(f"the actions frame has no column {', '.join(map(repr, missing))}")
    return actions[(actions["game"] == game) & ~actions["chance"].astype(bool)]


def _count(rows: pd.DataFrame, cells: pd.Series, all_games: pd.DataFrame) -> CellCounts:
    """Group the chosen rows by the cell each counts on (rows without a cell are dropped)."""
    frame = pd.DataFrame({"cell": cells, "record": rows["record"], "ply": rows["ply"]}).dropna()
    table = frame.groupby("cell").agg(
        events=("ply", "size"),
        games=("record", "nunique"),
        first_ply=("ply", "min"),
        median_ply=("ply", "median"),
    )
    table = table.sort_values(["events", "games"], ascending=False)[COLUMNS]
    table.index.name = "cell"
    return CellCounts(table, games=int(all_games["record"].nunique()), events=int(table["events"].sum()))


def destination(notation: pd.Series) -> pd.Series:
    """The last cell an action names ('b2b3' -> 'b3', 'C@a2' -> 'a2', 'b3b4+' -> 'b4',
    'control pikeman 1,3' -> '1,3'); NaN where it names none ('pass')."""
    return notation.str.extract(rf"({CELL})\W*$", expand=False)


def origin(notation: pd.Series) -> pd.Series:
    """The first cell of a move written from-to ('c4c5' -> 'c4'); NaN for a drop or a verb."""
    return notation.str.extract(rf"^({CELL})(?:{CELL})", expand=False)


def captures(actions: pd.DataFrame, game: str) -> CellCounts:
    """Where captures happen: each capturing action counts on the square it moves to (the
    `capture` column: the other side has less on the board afterwards)."""
    if "capture" not in actions:
        raise HeatmapError("the actions frame has no column 'capture'")
    rows = _of_game(actions, game)
    chosen = rows[rows["capture"].astype(bool)]
    return _count(chosen, destination(chosen["action"]), rows)


def turned(cells: pd.Series, players: pd.Series, files: int, ranks: int) -> pd.Series:
    """Squares as the mover sees them: the second player's squares turned round (a1 <-> the
    far corner), so that for both players the far rank is the last rank."""
    parts = cells.str.extract(r"^([a-z])(\d+)$")
    file = parts[0].map(lambda f: ord(f) - ord("a"), na_action="ignore")
    rank = pd.to_numeric(parts[1])
    second = players.fillna(0).astype(int) == 1
    file = file.where(~second, files - 1 - file)
    rank = rank.where(~second, ranks + 1 - rank)
    out = file.map(lambda f: chr(ord("a") + int(f)), na_action="ignore") + rank.map(
        lambda r: str(int(r)), na_action="ignore"
    )
    return out.where(cells.notna())


def piece_moves(
    actions: pd.DataFrame, game: str, piece: str, *, files: int, ranks: int, mover_view: bool = True
) -> CellCounts:
    """Where a piece goes: each move of `piece` (the `piece` column) counts on its destination,
    seen from the mover's side when `mover_view` (the far rank is the last rank for both)."""
    if "piece" not in actions or "player" not in actions:
        raise HeatmapError("the actions frame needs the columns 'piece' and 'player'")
    rows = _of_game(actions, game)
    chosen = rows[rows["piece"].astype("string") == piece]
    cells = destination(chosen["action"])
    if mover_view:
        cells = turned(cells, chosen["player"], files, ranks)
    return _count(chosen, cells, rows)


def cells_of_actions(
    actions: pd.DataFrame, game: str, cell_of: Callable[[pd.Series], pd.Series]
) -> CellCounts:
    """The general heatmap: each action of `game` (chance left out) counts on the cell
    `cell_of(notation)` gives it (a Series of cell ids, NaN where an action counts nowhere).
    For a game whose heatmap the functions above do not draw (docs/kernel.md, "Adding a game")."""
    rows = _of_game(actions, game)
    return _count(rows, cell_of(rows["action"]), rows)


def verb_cells(actions: pd.DataFrame, game: str, verb: str) -> CellCounts:
    """Actions written `<verb> ... <cell>` ('control pikeman 1,3'), counted on that cell."""
    rows = _of_game(actions, game)
    chosen = rows[rows["action"].str.startswith(verb + " ")]
    return _count(chosen, destination(chosen["action"]), rows)


def moves_off_board(actions: pd.DataFrame, game: str, board: Collection[str]) -> CellCounts:
    """Moves from a board cell to a cell that is not on the board (`board`: the cell ids), such
    as a unit breaking through into the opponent's camp, counted on the cell they left."""
    rows = _of_game(actions, game)
    to, start = destination(rows["action"]), origin(rows["action"])
    on_board = set(board)
    leaving = start.isin(on_board) & to.notna() & ~to.isin(on_board)
    return _count(rows[leaving], start[leaving], rows)
