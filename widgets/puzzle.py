"""Rule explainers: live diagrams beside the rule they show, and small puzzles that check the
reader's answer. Everything here is a widget, so a notebook cell ends with it and Voilà shows
nothing but the page.

    from widgets.puzzle import RuleBoard, MovePuzzle, ChoicePuzzle, wins
    RuleBoard("yokai-3x4", "Capture", "A Yōkai moving onto an enemy ...", "Spielregeln 3x4, *2.*",
              position="gle/1C1/3/ELG[] w - - 0 1")
    MovePuzzle("yokai-3x4", "2l/L2/3/3[] w - - 0 1", "Find the move that wins.", goal=wins,
               explanation="The *try*: ...")
    ChoicePuzzle("Which card is under d4?", ["Ki", "Heiya"], "Ki", explanation="...")

Rule text is ours but goes through `widgets.safe.html` all the same: `*x*` becomes italics
(original names), `**x**` bold; nothing else is markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel.core import State
from widgets.explorer import ALL_SEEING, Explorer
from widgets.safe import error_line, guarded, html

Goal = Callable[[State, State], bool]
RIGHT, WRONG = "#007A3D", "#B00020"


def wins(start: State, end: State) -> bool:
    """The goal of "find the move that wins": the game is over and the solver won (with
    teams: the solver is among the winners)."""
    outcome = end.outcome()
    if outcome is None or outcome.winner is None:
        return False
    return start.current_player in (outcome.winners or (outcome.winner,))


def _on_board(state: State, side_of: int, same_side: bool) -> int:
    """Pieces (or coins) on the board of `side_of`'s side, or of the other side; teammates
    sit opposite, so a side is a seat parity."""
    return sum(
        t.height
        for t in game_parts.scene(state).tokens
        if t.owner is not None
        and t.kind in ("piece", "coin", "card")
        and (t.owner % 2 == side_of % 2) == same_side
    )


def captures(start: State, end: State) -> bool:
    """The goal "take something": the other side has less on the board after the turn (a
    piece captured, a unit beaten, a coin struck off)."""
    solver = start.current_player
    return _on_board(end, solver, same_side=False) < _on_board(start, solver, same_side=False)


def reinforces(start: State, end: State) -> bool:
    """The goal "gain a piece": the solver's side has more on the board after the turn."""
    solver = start.current_player
    return _on_board(end, solver, same_side=True) > _on_board(start, solver, same_side=True)


def rich(text: str) -> str:
    """Our small markup, escaped first: *italic* for original names, **bold**."""
    escaped = html("{t}", t=text)
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)
    return re.sub(r"\*(.+?)\*", r"<i>\1</i>", escaped)


def live_board(
    game: str | rk.Game,
    position: str | State | None = None,
    *,
    perspective: int | None = None,
    seed: int | None = 1,
) -> Explorer:
    """A compact Explorer: board, status, move list, Undo/Reset; from `position` (its text or
    a state), seen whole (or by seat `perspective`); chance is drawn by itself. A bad position
    raises here (the Explorer would only show the error on the page)."""
    if isinstance(position, str):
        position = (game if isinstance(game, rk.Game) else rk.load_game(game)).from_text(position)
    explorer = Explorer(game, position=position, compact=True, seed=seed)
    # a diagram shows everything (no hand-over curtain between turns) unless it is one seat's view
    explorer.perspective.value = ALL_SEEING if perspective is None else perspective
    return explorer


def _side_text(title: str, text: str, source: str) -> w.HTML:
    return w.HTML(
        '<div style="max-width:30em;line-height:1.45;margin:0 16px 8px 0">'
        f'<h3 style="margin:0 0 6px">{rich(title)}</h3>'
        f"<p>{rich(text)}</p>"
        f'<p style="font-size:88%;color:#444">Rulebook: {rich(source)}</p></div>'
    )


def table(rows: Sequence[Sequence[object]], headers: Sequence[str], caption: str) -> w.HTML:
    """A small reference table (unit values, glossary), every cell escaped."""
    head = "".join(html("<th style='text-align:left;padding:2px 8px'>{h}</th>", h=h) for h in headers)
    body = "".join(
        "<tr>" + "".join(html("<td style='padding:2px 8px'>{c}</td>", c=c) for c in row) + "</tr>"
        for row in rows
    )
    return w.HTML(
        html(
            "<table style='border-collapse:collapse'><caption style='text-align:left;"
            "font-weight:600'>{caption}</caption>",
            caption=caption,
        )
        + f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


class RuleBoard(w.Box):
    """A live diagram with the rule it shows beside it (below it on a narrow screen)."""

    def __init__(
        self,
        game: str | rk.Game,
        title: str,
        text: str,
        source: str,
        *,
        position: str | State | None = None,
        perspective: int | None = None,
        seed: int | None = 1,
    ) -> None:
        self.board = live_board(game, position, perspective=perspective, seed=seed)
        self.text = _side_text(title, text, source)
        _beside(self.text, self.board)
        super().__init__(
            [self.text, self.board],
            layout=w.Layout(
                display="flex", flex_flow="row wrap", align_items="flex-start", margin="8px 0 24px"
            ),
        )
        self.add_class("re-rule")


def _beside(text: w.Widget, board: w.Widget | None) -> None:
    """Text and board share a row on a wide screen (the text narrow, the board the rest) and
    stack on a phone."""
    text.layout.flex, text.layout.min_width = "0 1 340px", "240px"
    if board is not None:
        board.layout.flex, board.layout.min_width = "1 1 560px", "280px"


def _feedback(right: bool, text: str) -> str:
    colour, word = (RIGHT, "Right!") if right else (WRONG, "Not quite.")
    return (
        f'<div role="status" style="color:{colour};font-weight:600">{word}</div>'
        f'<div style="max-width:30em">{rich(text)}</div>'
    )


class MovePuzzle(w.Box):
    """ "Find the move that wins" (or another goal) on a live board. The reader plays the
    solver's turn by clicking; when the turn is over (another player to move, or the end) —
    or, with `judge="action"`, after the first action (War Chest: one coin) — `goal(start,
    end)` decides. Undo or Reset tries again."""

    def __init__(
        self,
        game: str | rk.Game,
        position: str | State,
        question: str,
        *,
        goal: Goal = wins,
        explanation: str = "",
        hint: str = "",
        perspective: int | None = None,
        judge: str = "turn",
    ) -> None:
        if judge not in ("turn", "action"):
            raise rk.RulesError(f"MovePuzzle: judge must be 'turn' or 'action', not {judge!r}")
        self.goal, self.explanation, self.hint, self.judge = goal, explanation, hint, judge
        self.board = live_board(game, position, perspective=perspective)
        self.start = self.board.state
        self.solved: bool | None = None  # None: not answered yet
        self.feedback = w.HTML()
        self.answer_button = w.Button(
            description="Show the answer", icon="eye", layout=w.Layout(width="auto")
        )
        show = error_line(self.feedback)
        self.answer_button.on_click(guarded(show)(lambda _: self.reveal()))
        self.board.move_list.observe(guarded(show)(lambda _: self.check()), names=["options", "current"])
        side = w.VBox(
            [
                w.HTML(
                    f'<div style="max-width:30em;margin-right:16px"><h3 style="margin:0 0 6px">Puzzle</h3>'
                    f"<p>{rich(question)}</p></div>"
                ),
                self.feedback,
                self.answer_button,
            ]
        )
        _beside(side, self.board)
        super().__init__(
            [side, self.board],
            layout=w.Layout(
                display="flex",
                flex_flow="row wrap",
                align_items="flex-start",
                margin="8px 0 24px",
                padding="8px",
                border="1px solid #ccc",
            ),
        )
        self.add_class("re-puzzle")

    def check(self) -> bool | None:
        """Judge the reader's turn once it is over; clear the verdict when they go back."""
        state = self.board.state
        if state == self.start or self.board.session.ply == 0:
            self.solved, self.feedback.value = None, ""
            return None
        turn_over = (
            state.is_terminal() or state.current_player != self.start.current_player or self.judge == "action"
        )
        if not turn_over:
            return None
        self.solved = bool(self.goal(self.start, state))
        text = self.explanation if self.solved else (self.hint or "That is not it; press Undo and try again.")
        self.feedback.value = _feedback(self.solved, text)
        return self.solved

    def reveal(self) -> None:
        self.feedback.value = f'<div style="max-width:30em"><b>Answer:</b> {rich(self.explanation)}</div>'


class ChoicePuzzle(w.Box):
    """A question with a few answers to pick ("which card is under here?"), beside an optional
    live board."""

    def __init__(
        self,
        question: str,
        choices: Sequence[str],
        answer: str,
        *,
        explanation: str = "",
        board: w.Widget | None = None,
    ) -> None:
        if answer not in choices:
            raise rk.RulesError(
                f"ChoicePuzzle: the answer {answer!r} is not among the choices {list(choices)!r}"
            )
        self.answer, self.explanation, self.board = answer, explanation, board
        self.chosen: str | None = None
        self.feedback = w.HTML()
        self.buttons = [w.Button(description=c, layout=w.Layout(width="auto")) for c in choices]
        show = error_line(self.feedback)
        for button in self.buttons:
            button.on_click(guarded(show)(lambda b: self.choose(b.description)))
        side = w.VBox(
            [
                w.HTML(
                    f'<div style="max-width:30em;margin-right:16px"><h3 style="margin:0 0 6px">Puzzle</h3>'
                    f"<p>{rich(question)}</p></div>"
                ),
                w.HBox(self.buttons, layout=w.Layout(flex_flow="row wrap")),
                self.feedback,
            ]
        )
        _beside(side, board)
        super().__init__(
            [side] + ([board] if board is not None else []),
            layout=w.Layout(
                display="flex",
                flex_flow="row wrap",
                align_items="flex-start",
                margin="8px 0 24px",
                padding="8px",
                border="1px solid #ccc",
            ),
        )
        self.add_class("re-puzzle")

    def choose(self, choice: str) -> bool:
        self.chosen = choice
        right = choice == self.answer
        for button in self.buttons:
            button.button_style = (
                ("success" if button.description == choice else "")
                if right
                else ("danger" if button.description == choice else "")
            )
        self.feedback.value = _feedback(right, self.explanation if right else "Look again and pick another.")
        return right
