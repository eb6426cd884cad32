"""The collection page's widgets (notebooks/collection.ipynb): a board to walk from a start
with the "Games from here" panel beside it, and the players' table (games, score, Elo, time
per move and per phase).

    from rules_kernel.collection import shipped
    from widgets.collection_panel import GamesFromHerePage, players_panel
    GamesFromHerePage()                 # the shipped collection; a click on a move plays it
    players_panel(shipped())            # one row per game and player

Texts reach HTML through `widgets.safe.html` only; callbacks go through `guarded`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from rules_kernel import parts
from rules_kernel.collection import Collection
from rules_kernel.core import State
from widgets.games_from_here import GamesFromHere
from widgets.safe import error_line, guarded, html
from widgets.svg import state_svg


def walked_games() -> tuple[str, ...]:
    """The games the page walks from the start: those without hidden information or chance
    (what the games declare, `rk.info`), whose every position one board shows whole."""
    return tuple(
        g for g in rk.list_games(ordered=True) if not rk.info(g).hidden_information and not rk.info(g).chance
    )


class GamesFromHerePage(w.VBox):
    """A game's board from its start, the moves played so far, Back and Start buttons, and
    the Games from here panel: a click on one of its moves plays it on this board."""

    def __init__(
        self,
        collections: Mapping[str, str | os.PathLike[str]] | None = None,
        *,
        games: tuple[str, ...] | None = None,
        engine: str | None = "table",
    ) -> None:
        self.game_select = w.Dropdown(
            options=[(rk.game_class(g).title or g, g) for g in games or walked_games()], description="Game:"
        )
        self.back = w.Button(description="Back", icon="arrow-left", tooltip="take the last move back")
        self.restart = w.Button(description="Start", icon="fast-backward", tooltip="back to the start")
        self.picture = w.HTML()
        self.line = w.HTML()
        self.message = w.HTML()
        self.panel = GamesFromHere(collections, on_move=self.play, engine=engine)
        say = guarded(error_line(self.message))
        self.game_select.observe(say(lambda _: self.start()), names="value")
        self.back.on_click(say(lambda _: self.take_back()))
        self.restart.on_click(say(lambda _: self.start()))
        board = w.VBox([w.HBox([self.game_select, self.back, self.restart]), self.picture, self.line])
        board.layout.min_width = "min(100%, 320px)"
        self.panel.layout.flex = "1 1 420px"
        super().__init__([w.HBox([board, self.panel], layout=w.Layout(flex_flow="row wrap")), self.message])
        self.start()

    @property
    def state(self) -> State:
        return self.states[-1]

    def start(self) -> None:
        self.states: list[State] = [rk.load_game(self.game_select.value).initial_state()]
        self.moves: list[str] = []
        self._show()

    def play(self, notation: str) -> None:
        """Play `notation` here (what the panel's click does)."""
        text = parts.action_text(self.state, notation)
        self.states.append(self.state.apply(notation))
        self.moves.append(text)
        self._show()

    def take_back(self) -> None:
        if len(self.states) > 1:
            self.states.pop()
            self.moves.pop()
        self._show()

    def _show(self) -> None:
        self.message.value = ""
        state = self.state
        self.picture.value = state_svg(state)  # our drawing of the kernel's scene
        said = "; ".join(f"{i}. {text}" for i, text in enumerate(self.moves, start=1)) or "the start"
        ended = state.outcome()
        self.line.value = html(
            "<p><b>Moves:</b> {said}{end}</p>",
            said=said,
            end=f" — {ended.reason}" if ended is not None and ended.finished else "",
        )
        self.back.disabled = len(self.states) == 1
        self.panel.show(state)


def _number(value: float, digits: int = 0) -> str:
    return (
        "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:,.{digits}f}"
    )


def _elo(value: float) -> str:
    return f"{round(value) + 0:+d}"  # + 0: no "-0"


def players_frame(collection: Collection) -> pd.DataFrame:
    """`Collection.players()` as a page shows it: one text column each, intervals beside."""
    table = collection.players()
    titles = {g: rk.game_class(g).title or g for g in table["game"].unique() if g in rk.list_games()}
    rows = []
    for _, r in table.iterrows():
        score = (
            f"{_number(100 * r['score'])}% ({_number(100 * r['ci_low'])}–{_number(100 * r['ci_high'])}%)"
            if r["scored"]
            else "–"
        )
        elo = (
            "–" if pd.isna(r["elo"]) else f"{_elo(r['elo'])} ({_elo(r['elo_low'])} to {_elo(r['elo_high'])})"
        )
        rows.append(
            {
                "Game": titles.get(r["game"], r["game"]),
                "Player": r["player"],
                "Games": int(r["games"]),
                "Won–drawn–lost": f"{r['wins']}–{r['draws']}–{r['losses']}"
                + (f" ({r['unfinished']} unfinished)" if r["unfinished"] else ""),
                "Score (95% interval)": score,
                "Elo (95% interval)": elo,
                "Moves timed": f"{r['timed_moves']} of {r['moves']}",
                "Seconds a move": _number(r["seconds_per_move"], 1),
                "Opening": _number(r["opening_seconds"], 1),
                "Middle game": _number(r["middle_seconds"], 1),
                "Endgame": _number(r["end_seconds"], 1),
            }
        )
    return pd.DataFrame(rows)


def players_panel(collection: Collection) -> w.HTML:
    """The players' table as one escaped HTML table, with its caption."""
    frame = players_frame(collection)
    head = "".join(html("<th>{c}</th>", c=c) for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(html("<td>{v}</td>", v=v) for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    caption = html(
        "<caption style='text-align:left'>{n} player(s) in {g} game(s). Score: points (a win 1, a draw ½) "
        "over the games with a result, with the 95% Wilson interval. Elo: fitted from the results by the "
        "agent ladder's method (maximum likelihood, relative: the players of a game average 0). Seconds: "
        "the mean time a move took, where the record says it; phases are thirds of each game's plies."
        "</caption>",
        n=len(frame),
        g=f"{len(collection.games):,}",
    )
    table = f"<table class='re-players'>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return w.HTML(f"<div style='overflow-x:auto'>{table}</div>")
