"""The statistics' table toolkit: tables whose captions name the number of games, every share
with its 95% interval, figures with their captions, paragraphs, and games and agents by their
names. Every panel (`panels`, `holdings`, `ladder`, `widgets.heatmap`) is made of these.

    from widgets.stats.tables import count, share, table
    table(frame, [count("games", "Games (n)"), share("first_share", "First player's share")],
          "n = 2,000 games; ...")

Every text that reaches HTML goes through `widgets.safe.html` (escaped).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as w
import pandas as pd

import rules_kernel as rk
from widgets.safe import html

# --- games and agents by their names ------------------------------------------------------------


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


#: the kinds of agent a data file names by id ("ismcts:5"): what each is, in words
_AGENT_KINDS = {
    "random": "random",
    "greedy": "greedy (one move ahead)",
    "mcts": "tree search ({n} iterations)",
    "ismcts": "playout search ({n} playouts)",
    "fsf": "Fairy-Stockfish (depth {n})",
    "perfect": "perfect (the solved game's table)",
}


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


# --- columns --------------------------------------------------------------------------------


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


# --- tables, figures and paragraphs ------------------------------------------------------------


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
