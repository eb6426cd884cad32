"""The editor part (issue 45 item 2, third slice): a game's board editor is a part it names
(`PARTS["editor"]`: its edit.py), asked through `rules_kernel.parts` (and the State's
conveniences `state.edit_pieces()`, `state.edit(...)`).

What every game's editor gave before it was a part was recorded from the code before the change
into tests/golden/editor_before.json: the pieces, counts, side to move and turn fields of three
positions of a seeded line of each game, and the position text of a few edits of each (a piece
placed, a cell emptied, a count changed, the side to move, a turn field) with the refusal of an
edit asking for more than the box holds. The part gives the same.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import rules_kernel as rk
from rules_kernel.core import State

GOLDEN = Path(__file__).parent / "golden" / "editor_before.json"
#: the plies of each seeded line whose positions are recorded
PLIES = (0, 5, 12)


def _positions(game_id: str, seed: int = 11) -> list[State]:
    """The states of a seeded random line at the recorded plies (those it reaches)."""
    rng, state = random.Random(seed), rk.load_game(game_id).initial_state()
    found = []
    for ply in range(PLIES[-1] + 1):
        if ply in PLIES:
            found.append(state)
        if state.is_terminal():
            break
        action = (
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
        state = state.apply(action)
    return found


def _edited(edit: Any, state: State, **change: Any) -> str:
    """The position text of the edit, or the refusal's kind and message."""
    try:
        return edit(state, **change).to_text()
    except Exception as error:  # noqa: BLE001 - the golden records what was refused too
        return f"!{type(error).__name__}: {error}"


def _edits(state: State, editor: Any) -> dict[str, dict[str, Any]]:
    """A few edits of `state` an editor's controls make: each as {change, its text}."""
    pieces = [p for p in editor.edit_pieces(state) if p.on_board]
    cells = [cell.id for cell in state.scene().cells]
    taken = {token.cell for token in state.scene().tokens}
    empty = [cell for cell in cells if cell not in taken]
    hands = editor.edit_hands(state)
    fields = editor.edit_fields(state)
    to_move = editor.edit_to_move(state)
    changes: dict[str, dict[str, Any]] = {}
    if pieces and empty:
        changes["placing"] = {"place": {empty[0]: pieces[0].key}}
    if taken:
        changes["emptying"] = {"place": {sorted(taken)[0]: None}}
    if hands:
        key = sorted(hands, key=repr)[0]
        changes["hands"] = {"hands": {key: max(0, hands[key] - 1)}}
        changes["refused"] = {"hands": {key: 99}}
    changes["to_move"] = {"to_move": 1 if to_move == 0 else 0}
    for name, (now, values) in sorted(fields.items()):
        other = [value for value in values if value != now]
        if other:
            changes["field"] = {"fields": {name: other[0]}}
            break
    return changes


def _plain(change: dict[str, Any]) -> dict[str, Any]:
    """A change as JSON holds it (hands' (owner, key) keys as their repr)."""
    return {
        kind: {repr(k) if isinstance(k, tuple) else k: v for k, v in what.items()}
        if isinstance(what, dict)
        else what
        for kind, what in change.items()
    }


def editor_of_game(game_id: str, editor: Any) -> list[dict[str, Any]]:
    """Everything the golden file holds for one game, as `editor` (an object with the functions
    `edit_pieces(state)`, `edit_hands`, `edit_to_move`, `edit_fields` and `edit(state, ...)`)
    gives it."""
    recorded = []
    for state in _positions(game_id):
        edits = _edits(state, editor)
        recorded.append(
            {
                "position": state.to_text(),
                "pieces": [repr(piece) for piece in editor.edit_pieces(state)],
                "hands": {repr(k): v for k, v in sorted(editor.edit_hands(state).items(), key=repr)},
                "to_move": editor.edit_to_move(state),
                "fields": {k: [v, list(vs)] for k, (v, vs) in sorted(editor.edit_fields(state).items())},
                "edits": {
                    kind: {"change": _plain(change), "text": _edited(editor.edit, state, **change)}
                    for kind, change in edits.items()
                },
            }
        )
    return recorded


class Conveniences:
    """The editor as the State's methods give it (the conveniences)."""

    edit_pieces = staticmethod(lambda state: state.edit_pieces())
    edit_hands = staticmethod(lambda state: state.edit_hands())
    edit_to_move = staticmethod(lambda state: state.edit_to_move())
    edit_fields = staticmethod(lambda state: state.edit_fields())
    edit = staticmethod(lambda state, **change: state.edit(**change))


def _record() -> None:
    """Write the golden file (run once, from the code before the editor was a part)."""
    golden = {game_id: editor_of_game(game_id, Conveniences) for game_id in rk.list_games()}
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("game_id", rk.list_games())
def test_the_editor_through_the_conveniences_is_as_before(game_id):
    golden = json.loads(GOLDEN.read_text())[game_id]
    assert editor_of_game(game_id, Conveniences) == golden


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    _record()
