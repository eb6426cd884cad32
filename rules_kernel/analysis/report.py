"""Game reports: every ply of a game analysed, as a pandas DataFrame.

    df = report(record, limit=0.2)      # one row per ply
    summary(df)                         # one row per player

A move's *loss* is the drop of the mover's win probability (the expected score: a draw
counts half) from the position before it (its best move's value) to the position after it.
The classification follows lichess's thresholds, turned from its winning chances in [-1, 1]
to our [0, 1] scale (a drop of 0.1, 0.2, 0.3 there is 0.05, 0.10, 0.15 here):

    best        the engine's first choice, or a loss below 0.01 (exact: the best value kept)
    good        a loss below 0.05 (exact: the result kept, a slower win or a quicker loss)
    inaccuracy  0.05 to 0.10
    mistake     0.10 to 0.15
    blunder     0.15 or more (exact: every move that changes the result: a win into a draw
                or a loss, a draw into a loss)

Hidden information: by default each ply is analysed as its mover knew it (`viewer="mover"`):
a move is judged by what its player could know, never by the cards they could not see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tqdm.auto import tqdm

from rules_kernel import parts
from rules_kernel.analysis._types import DRAW, LOSS, WIN, Analysis, Engine, Estimate, Limit
from rules_kernel.core import CHANCE, Action, Game, RulesError, State, turns
from rules_kernel.info import info

if TYPE_CHECKING:  # pandas is imported when a report is made: the explorer never pays for it
    import pandas as pd

#: (name, the smallest loss of win probability it takes), worst last
CLASSIFICATION: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.01),
    ("inaccuracy", 0.05),
    ("mistake", 0.10),
    ("blunder", 0.15),
)
#: a report of this many plies or more shows a progress bar (progress=None)
PROGRESS_FROM = 20
_ORDER = {WIN: 2, DRAW: 1, LOSS: 0}


@dataclass
class _Line:
    """The game to report on: its states and the actions between them."""

    game: Game
    states: list[State]
    actions: list[Action]


def report(
    source: Any,
    *,
    engine: str | Engine | None = None,
    limit: Limit | float | None = 0.25,
    start: State | Game | None = None,
    viewer: int | str | None = "mover",
    progress: bool | None = None,
) -> pd.DataFrame:
    """One row per ply of a game: who moved, the turn it belongs to (as the move list numbers
    it: `rules_kernel.core.turns`), the move, the mover's value before and after,
    the loss and its classification, and (exact engines) the result before and after.

    `source`: a records.Record, a session (anything with `main_line()` whose nodes have
    `state` and `notation`), or a sequence of actions (their notation) played from `start`
    (a state, or a game whose initial state it is). `viewer`: "mover" (each ply as its mover
    knew it), a seat, or None (all-seeing). `limit`: per position analysed."""
    import pandas as pd

    from rules_kernel.analysis import get_engine

    line = _game_line(source, start)
    chosen = engine if engine is not None and not isinstance(engine, str) else get_engine(line.game, engine)
    limit = Limit.of(limit)
    cache: dict[tuple[int, str], Analysis] = {}

    def analysed(index: int, seat: int | None) -> Analysis:
        state = line.states[index]
        known = state if seat is None else state.view(seat)
        key = (index, known.to_text())  # a game without secrets: one analysis for every viewer
        if key not in cache:
            cache[key] = chosen.analyse(state, viewer=seat, limit=limit)
        return cache[key]

    show = len(line.actions) >= PROGRESS_FROM if progress is None else progress
    rows = []
    words = _words(line, viewer)
    with tqdm(total=len(line.actions), unit="ply", desc=f"report {line.game.id}", disable=not show) as bar:
        numbers = turns(line.states[: len(line.actions)])  # the move list's numbering
        for ply, action in enumerate(line.actions):
            row = _row(line, ply, action, viewer, analysed, words[ply])
            row["turn"] = numbers[ply].number if numbers[ply] is not None else None
            rows.append(row)
            bar.update(1)
    return pd.DataFrame(rows, columns=_COLUMNS)


_COLUMNS = [
    "ply",
    "mover",
    "player",
    "turn",  # the rulebook's turn the ply belongs to (core.turns; none for chance between turns)
    "move",
    "best",
    "value_before",
    "value_after",
    "loss",
    "classification",
    "result_before",
    "result_after",
    "result_change",
    "exact",
    "engine",
    "nodes",
    "playouts",
    "seconds",
]


def _row(
    line: _Line,
    ply: int,
    action: Action,
    viewer: int | str | None,
    analysed: Callable[[int, int | None], Analysis],
    text: str,
) -> dict[str, Any]:
    state = line.states[ply]
    mover = state.current_player
    seat = mover if viewer == "mover" else viewer
    row: dict[str, Any] = dict.fromkeys(_COLUMNS)
    row.update(ply=ply + 1, move=text)
    if mover == CHANCE:
        row.update(player="chance")
        return row
    before, after = analysed(ply, seat), analysed(ply + 1, seat)
    was, now = before.value, move_value(after, mover)
    loss = max(0.0, was.win_probability - now.win_probability)
    best = before.best.move if before.best else None
    exact = was.exact and now.exact
    row.update(
        mover=mover,
        player=line.game.player_names[mover],
        best=best,
        value_before=was.win_probability,
        value_after=now.win_probability,
        loss=loss,
        classification=classify(was, now, loss, str(action) == best),
        result_before=str(was) if was.result else None,
        result_after=str(now) if now.result else None,
        result_change=_change(was, now) if exact else None,
        exact=exact,
        engine=before.search.engine,
        nodes=before.search.nodes,
        playouts=before.search.playouts,
        seconds=before.search.seconds,
    )
    return row


def move_value(after: Analysis, seat: int) -> Estimate:
    """The value of the move that led to `after`, for the seat that made it, counted from
    the position before the move (one ply more)."""
    value = after.value
    if after.player == seat:
        return replace(value, plies=None if value.plies is None else value.plies + 1)
    if len(after.values) == 2:
        return value.flipped()
    return Estimate(after.values[seat], value.margin)


def classify(before: Estimate, after: Estimate, loss: float, engine_choice: bool) -> str:
    """best / good / inaccuracy / mistake / blunder (the module docstring's thresholds)."""
    if before.exact and after.exact:
        if (before.result, before.plies) == (after.result, after.plies):
            return "best"
        if before.result == after.result:
            return "good"
        return "blunder"
    if engine_choice:
        return "best"
    name = CLASSIFICATION[0][0]
    for label, threshold in CLASSIFICATION:
        if loss >= threshold:
            name = label
    return name


def _change(before: Estimate, after: Estimate) -> str | None:
    """'win → draw' and the like, when the move made the result worse for its mover."""
    if before.result in _ORDER and after.result in _ORDER and _ORDER[after.result] < _ORDER[before.result]:
        return f"{before.result} → {after.result}"
    return None


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per player: moves, mean and total loss, how many of each classification, and how many
    moves changed an exact result (won into drawn or lost, drawn into lost)."""
    import pandas as pd

    moves = df[df["mover"].notna()].copy()
    moves["mover"] = moves["mover"].astype(int)
    grouped = moves.groupby("mover")
    table = pd.DataFrame(
        {
            "player": grouped["player"].first(),
            "moves": grouped.size(),
            "mean_loss": grouped["loss"].mean(),
            "total_loss": grouped["loss"].sum(),
        }
    )
    for label, _ in CLASSIFICATION:
        table[label] = grouped["classification"].apply(lambda c, label=label: int((c == label).sum()))
    table["results_changed"] = grouped["result_change"].apply(lambda c: int(c.notna().sum()))
    table.index.name = "mover"
    return table


# --- the game's line --------------------------------------------------------------------------------


def _game_line(source: Any, start: State | Game | None) -> _Line:
    from rules_kernel.records import Record

    if isinstance(source, Record):
        states = source.replay()
        notations = [a.notation for a in source.actions]
    elif hasattr(source, "main_line"):
        nodes = source.main_line()
        states = [node.state for node in nodes]
        notations = [node.notation for node in nodes[1:]]
    else:
        if start is None:
            raise RulesError("report(actions): give the position they start from (start=state or game)")
        first = start.initial_state() if isinstance(start, Game) else start
        notations, states = [str(a) for a in source], [first]
        for ply, notation in enumerate(notations):
            try:
                states.append(states[-1].apply(notation))
            except RulesError as exc:
                raise RulesError(f"ply {ply + 1}: {exc}") from exc
    actions = [_action(state, notation) for state, notation in zip(states, notations, strict=False)]
    return _Line(states[0].game, states, actions)


def _action(state: State, notation: str) -> Action:
    """The action object of a notation (what action_text needs)."""
    if state.current_player == CHANCE:
        return state.parse_chance(notation)
    for move in state.legal_moves():
        if str(move) == notation:
            return move
    raise RulesError(f"{notation!r} is not a legal move in {state.to_text()!r}")


def _words(line: _Line, viewer: int | str | None) -> list[str]:
    """Each action of the line in words (the `move` column), as the report's viewer learned of
    it: all-seeing, or each ply as its mover knew it ("mover"), the game's words as they are.
    A seat's report of a game whose views forget (War Stories' `view(p)` turns cards back face
    down) is read beside every ply of the game at once (a replay's graph in that seat's view),
    so an action is written as the seat can tell of it at every position of the game: where
    the seat's view of any of them has forgotten it (`State.forgets`: a flip whose card lies
    face down there, before it was turned up or after it was turned back), its forgotten
    words (`parts.forgotten_text`: "turns over a2", "… — no match, both turned back")."""
    states = line.states
    seats = [
        None if state.current_player == CHANCE else state.current_player if viewer == "mover" else viewer
        for state in states
    ]
    if not isinstance(viewer, int) or not line.actions or not info(states[0].game).memory:
        return [parts.action_text(states[ply], action, seats[ply]) for ply, action in enumerate(line.actions)]
    views = [state.view(viewer) for state in states]
    words = []
    for ply, action in enumerate(line.actions):
        # the view just before the action first: a card not turned up yet is forgotten there
        forgotten = any(view.forgets(action) for view in views[ply::-1]) or any(
            view.forgets(action) for view in views[ply + 1 :]
        )
        state = states[ply]
        # the move as `viewer` learned of it (the game's words part, or the action itself for
        # a game without the "words" part)
        say = parts.forgotten_text if forgotten else parts.action_text
        words.append(say(state, action, viewer))
    return words


def plies_of(df: pd.DataFrame, classification: str) -> Sequence[int]:
    """The plies a report classified so (`plies_of(df, "blunder")`)."""
    return df.loc[df["classification"] == classification, "ply"].tolist()
