"""What a click on the board will do, in the game's words (issue 46 item 1).

The board lights the places a selection may go; this module names each of them for the
tooltips, the keyboard cursor, the line under the board and the screen reader: "e1: deploy a
Cavalry", "discard pile: pass (the coin goes face down: nothing else this turn)", "b5: move the
Oni, and promote it to Super-Oni, or move the Oni, and do not promote it". It also says what
comes next while a turn goes on (To War!'s pushes, a second card to turn over, a War Chest
follow-up) and which moves ask once before they are played (a pass with coins in hand).

The words are the game's: each game may declare, in its own package's `words` or `hints`
module, these functions (none is required; without them a move is named by
`State.action_text`, the move list's words):

- `target_words(state, move, viewer) -> str`: what playing `move` does, as an instruction;
- `turn_words(state, viewer) -> str`: one line on what the player does now, when the turn
  goes on or its one click is forced ('' otherwise);
- `played_from(state, move) -> str`: the zone item a move plays when its clicks do not name
  it (To War!'s card just drawn), so that a click on it lights where it may go ('' if none);
- `confirm_words(state, move, viewer) -> str`: a question to ask before `move` ('' if none).

The `state` they are given is the viewer's view (`state.view(viewer)`), so a word never
names what that viewer cannot see.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules_kernel import parts as game_parts
from rules_kernel.core import Move, RulesError, State
from rules_kernel.scene import Scene
from widgets.presentation import name_at

#: the modules of a game's package that may declare the functions above, in the order asked
WORD_MODULES = ("words", "hints")
#: how many targets the line under the board names one by one (the rest: on hover and cursor)
NAMED_IN_LINE = 8


@dataclass(frozen=True)
class GameWords:
    """A game's word functions (None where the game declares none)."""

    target: Callable[..., str] | None = None
    turn: Callable[..., str] | None = None
    played_from: Callable[..., str] | None = None
    confirm: Callable[..., str] | None = None


@lru_cache(maxsize=64)
def _words_of_class(state_class: type) -> GameWords:
    """The word functions the package of a state class declares (looked up once per class)."""
    package = state_class.__module__.rpartition(".")[0]
    found: dict[str, Callable[..., str]] = {}
    for name in WORD_MODULES:
        module_name = f"{package}.{name}"
        if not package or importlib.util.find_spec(module_name) is None:
            continue
        module = importlib.import_module(module_name)
        for attribute, field_name in (
            ("target_words", "target"),
            ("turn_words", "turn"),
            ("played_from", "played_from"),
            ("confirm_words", "confirm"),
        ):
            function = getattr(module, attribute, None)
            if callable(function) and field_name not in found:
                found[field_name] = function
    return GameWords(**found)


def game_words(state: State) -> GameWords:
    return _words_of_class(type(state))


def seen_state(state: State, viewer: int | None) -> State:
    """The state as `viewer` knows it (None: all-seeing): what the words are asked of."""
    if viewer is None:
        return state
    try:
        return state.view(viewer)
    except RulesError:
        return state


def move_words(state: State, move: Move, viewer: int | None) -> str:
    """What playing `move` does, in the game's words (`state`: the viewer's view)."""
    words = game_words(state).target
    if words is not None:
        try:
            return words(state, move, viewer)
        except RulesError:
            pass  # a view that cannot say it: the move list's words below
    try:
        return game_parts.action_text(state, move, viewer)
    except RulesError:
        return "play this move"


def turn_line(state: State, viewer: int | None) -> str:
    """One line on what the player does now ('' when the game has nothing to add)."""
    words = game_words(state).turn
    if words is None:
        return ""
    try:
        return words(state, viewer)
    except RulesError:
        return ""


def question(state: State, move: Move, viewer: int | None) -> str:
    """The question to ask before `move` is played ('' when it is played at once)."""
    words = game_words(state).confirm
    if words is None:
        return ""
    try:
        return words(state, move, viewer)
    except RulesError:
        return ""


def sources(state: State, moves: Iterable[Move]) -> dict[Move, str]:
    """For each move its clicks do not start from, the zone item it plays (To War!'s card)."""
    words = game_words(state).played_from
    if words is None:
        return {}
    found = {}
    for move in moves:
        cell = words(state, move)
        if cell:
            found[move] = cell
    return found


# --- places named --------------------------------------------------------------------------


def place_name(scene: Scene, cell: str) -> str:
    """A cell as the board names it ('e1', 'b3'), a zone item by its zone ('discard pile',
    'supply', 'hand', 'Initiative'): the owner's name and the zone's counts left out."""
    for board_cell in scene.cells:
        if board_cell.id == cell:
            return board_cell.label or cell
    for zone in scene.zones:
        if any(item.cell == cell for item in zone.items):
            title = zone.title
            for player in scene.players:
                title = title.removeprefix(f"{player}: ")
            title = re.split(r"[(;,]|\s\d", title, maxsplit=1)[0].strip()
            return title or "beside the board"
    return "beside the board"


def thing_name(scene: Scene, cell: str) -> str:
    """What stands on `cell` as the viewer sees it, with its place: 'Koropokkuru on b1',
    'Cavalry (hand)'; the place alone ('b1') where it is face down or empty."""
    name = name_at(scene, cell)
    place = place_name(scene, cell)
    if any(board_cell.id == cell for board_cell in scene.cells):
        return f"{name} on {place}" if name else f"{place}"
    return f"{name} ({place})" if name else place


def target_names(
    scene: Scene, state: State, candidates: Sequence[Move], depth: int, viewer: int | None
) -> dict[str, str]:
    """Each place a click may go next (the `depth`-th cell of the candidates), named with what
    it does: 'e1: deploy a Cavalry'. Where several moves share a place: the ones that end there
    as a choice ('b5: move the Oni, and promote it ..., or ...'), the ones that go on by their
    kinds ('c4: pick where next: move (3 places), attack (1 place)')."""
    by_cell: dict[str, list[Move]] = {}
    for move in candidates:
        if len(move.cells) > depth:
            by_cell.setdefault(move.cells[depth], []).append(move)
    named = {}
    for cell, moves in by_cell.items():
        ending = [m for m in moves if len(m.cells) == depth + 1]
        going_on = [m for m in moves if len(m.cells) > depth + 1]
        parts = _distinct(move_words(state, m, viewer) for m in ending)
        if going_on:
            kinds: dict[str, int] = {}
            for move in going_on:
                kind = _kind(move)
                kinds[kind] = kinds.get(kind, 0) + 1
            ways = ", ".join(f"{kind} ({n} place{'s' if n != 1 else ''})" for kind, n in kinds.items())
            parts.append(f"{'or ' if parts else ''}pick where next: {ways}")
        named[cell] = f"{place_name(scene, cell)}: {', or '.join(parts[:-1] if going_on else parts)}"
        if going_on:
            named[cell] += (" — " if len(parts) > 1 else "") + parts[-1]
    return named


def _kind(move: Move) -> str:
    """A move's kind in a few words (its choice label, when it is words and not notation)."""
    label = move.choice_label
    if label and label != str(move) and not any(ch.isdigit() for ch in label):
        return label.split(" ")[0].lower()
    return "a move"


def _distinct(texts: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for text in texts:
        if text not in seen:
            seen.append(text)
    return seen


def line_of_targets(named: dict[str, str], order: Sequence[str]) -> str:
    """The targets' names as one line for the page ('e1: deploy a Cavalry; g2: ...'), in the
    board's order; places whose click does the same are named together ('a1, a3 and 33 more
    places: turn over this card'); past `NAMED_IN_LINE` phrases, how many more are lit."""
    groups: dict[str, list[str]] = {}
    for cell in order:
        if cell in named:
            place, _, words = named[cell].partition(": ")
            groups.setdefault(words, []).append(place)
    texts = []
    for words, places in groups.items():
        unique = _distinct(places)
        if len(unique) > 3:
            where = f"{', '.join(unique[:2])} and {len(unique) - 2} more places"
        else:
            where = ", ".join(unique)
        texts.append(f"{where}: {words}")
    shown = texts[:NAMED_IN_LINE]
    more = len(texts) - len(shown)
    line = "; ".join(shown)
    if more:
        line += f"; and {more} more (point at a lit place, or move the cursor to it)"
    return line
