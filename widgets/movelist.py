"""The move list: the current line of a game in words, numbered by turn, to browse.

Each entry is the kernel's words for an action as the viewer learned of it
(`State.action_text`, through `widgets.presentation`); a turn is what the game's rulebook
calls one (`State.turn_part`, counted by `rules_kernel.core.turns`: War Stories' flips, a
To War! turn's draw and pushes, a War Chest coin's action and its follow-ups), one numbered
row marked with the side's name and colour. Chance between turns (a deal, a round's draws)
stands on its own unnumbered row; chance in mid-turn (War Chest's Warrior Priest draw) sits
in its turn's row. Clicking an action, or
the keys Left/Right/Home/End while the list has focus, asks for that position: the page that
owns the list moves its game session there (`on_go`).

    moves = MoveList()
    moves.show(presentation_lines, current=3)
    moves.on_go(lambda ply: session.go_to(ply))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import anywidget
import traitlets

from widgets.draw import owner_colour
from widgets.presentation import MoveLine

CSS = """
.re-movelist { max-height: 16em; overflow-y: auto; border: 1px solid #BBB; border-radius: 4px;
  padding: 4px 6px; line-height: 1.5; font-size: 14px; background: #FFF; position: relative;
  overflow-wrap: anywhere; }
.re-movelist:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.re-movelist .re-turn { padding: 1px 0 1px 2em; text-indent: -2em; }
.re-movelist .re-chance { color: #555; font-style: italic; }
.re-movelist .re-turn-no { display: inline-block; min-width: 2em; text-indent: 0; color: #555; }
.re-movelist .re-side-name { font-weight: 600; margin-right: 6px; }
.re-movelist .re-side-name::after { content: ":"; }
.re-movelist .re-swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #222;
  border-radius: 3px; vertical-align: -1px; margin-right: 4px; }
.re-movelist .re-move { cursor: pointer; border-radius: 3px; padding: 0 2px; }
.re-movelist .re-move:hover { background: #E8EEF6; }
.re-movelist .re-move[aria-selected="true"] { background: #0072B2; color: #FFF; }
.re-movelist .re-start { display: block; color: #555; }
.re-sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
"""


def turns_of(lines: Sequence[MoveLine], names: Sequence[str]) -> list[dict]:
    """The rows of the list: each turn as the rulebook counts them (`MoveLine.turn`, from
    rules_kernel.core.turns) one numbered row, its follow-ups and the chance inside it (a
    draw in mid-turn) in it; chance between turns (a deal, a round's draws) a row apart.

    A row is {"number": n or 0, "side": name, "colour": "#RRGGBB" or "", "chance": bool,
    "actions": [[ply, words], ...]} (plain data: the browser puts it in as text). An action
    of another player inside a turn (War Chest's Royal Guard's owner choosing) is named."""
    rows: list[dict] = []
    shown = None  # the turn of the last numbered row
    for line in lines:
        turn = line.turn
        if turn is None:
            rows.append({"number": 0, "side": line.side, "colour": "", "chance": True, "actions": []})
        elif turn != shown or rows[-1]["chance"]:
            rows.append(
                {
                    "number": turn.number,
                    "side": names[turn.player] if turn.player < len(names) else line.side,
                    "colour": owner_colour(turn.player),
                    "chance": False,
                    "actions": [],
                }
            )
        shown = turn
        other = turn is not None and line.player is not None and line.player != turn.player
        rows[-1]["actions"].append([line.number, f"{line.side}: {line.text}" if other else line.text])
    return rows


def turn_count(lines: Sequence[MoveLine]) -> int:
    """How many turns the line has (chance between turns counts none)."""
    return max((line.turn.number for line in lines if line.turn is not None), default=0)


def where(lines: Sequence[MoveLine], ply: int, names: Sequence[str] = ()) -> str:
    """The position after `ply` actions of `lines`, counted in turns as the list numbers them:
    "the start", "after turn 37 of 42 (Side A's)", "in turn 37 of 42 (Side A's), after:
    pushes Sarbaz from a1 to b1" (in mid-turn), "after turn 36 of 42 (Side B's), then:
    Side A draws ..." (chance between turns); the words are the list's own (the viewer's)."""
    if ply <= 0 or not lines:
        return "the start"
    line, total = lines[min(ply, len(lines)) - 1], turn_count(lines)

    def whose(turn) -> str:
        name = names[turn.player] if turn.player < len(names) else ""
        return f"turn {turn.number} of {total}" + (f" ({name}'s)" if name else "")

    if line.turn is not None:
        goes_on = ply < len(lines) and lines[ply].turn == line.turn
        if goes_on:
            return f"in {whose(line.turn)}, after: {line.text}"
        return f"after {whose(line.turn)}"
    before = next((other.turn for other in reversed(lines[: ply - 1]) if other.turn is not None), None)
    then = f"{line.side}: {line.text}" if line.side != "Chance" else line.text
    if before is None:
        return f"before turn 1 of {total}, after: {then}" if total else f"the start, after: {then}"
    return f"after {whose(before)}, then: {then}"


class MoveList(anywidget.AnyWidget):
    """The browser side draws `turns` and marks `current`; a choice comes back as a message."""

    _esm = Path(__file__).with_name("movelist.js")
    _css = CSS
    turns = traitlets.List().tag(sync=True)
    current = traitlets.Int(0).tag(sync=True)
    label = traitlets.Unicode("Moves").tag(sync=True)
    #: the entries as plain lines ("3. First player: Kitsune b1–c2"), for scripts and tests
    options = traitlets.Tuple()
    #: the line of the position shown (None at the start)
    value = traitlets.Unicode(None, allow_none=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._go_handlers: list[Callable[[int], None]] = []
        self.on_msg(self._on_message)

    def on_go(self, handler: Callable[[int], None]) -> None:
        self._go_handlers.append(handler)

    def show(self, lines: Sequence[MoveLine], current: int, names: Sequence[str] = ()) -> None:
        """Show `lines` (the whole current line) with the position after ply `current` marked."""
        with self.hold_sync():
            self.turns = turns_of(lines, names)
            self.current = current
            self.label = f"Moves, {turn_count(lines)} turns; shown: {where(lines, current, names)}"
        self.options = tuple(str(line) for line in lines)
        self.value = self.options[current - 1] if 0 < current <= len(self.options) else None

    def go(self, ply: int) -> None:
        """Ask for the position after `ply` (what a click or a key sends; also for tests)."""
        for handler in self._go_handlers:
            handler(ply)

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict) or content.get("event") != "go":
            return
        ply = content.get("ply")
        if isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= len(self.options):
            self.go(ply)
