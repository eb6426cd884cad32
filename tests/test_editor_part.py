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
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_toy_game import Nim, NimState

import rules_kernel as rk
from rules_kernel import check, parts
from rules_kernel.core import EditPiece, State
from widgets.editor import PositionEditor, has_editor

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
def test_the_editor_through_the_conveniences_and_through_parts_is_as_before(game_id):
    golden = json.loads(GOLDEN.read_text())[game_id]
    assert editor_of_game(game_id, Conveniences) == golden
    assert editor_of_game(game_id, parts) == golden  # the widgets' way


def test_each_game_names_its_editor_and_no_state_class_edits_itself():
    for game_id in rk.list_games():
        state = rk.load_game(game_id).initial_state()
        part = rk.info(game_id).part("editor")
        assert isinstance(part, parts.EditorPart) and part.__name__.endswith(".edit"), game_id
        for name in ("edit_pieces", "edit_hands", "edit_to_move", "edit_fields", "edit"):
            assert getattr(type(state), name) is getattr(State, name), (game_id, name)


class CountingEditor:
    """An editor part that says what it was asked: the conveniences forward to it."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def edit_pieces(self, state):
        self.asked.append("edit_pieces")
        return (EditPiece("stick", "Firestick", None, in_hand=True, pile="pile", on_board=False),)

    def edit_hands(self, state):
        self.asked.append("edit_hands")
        return {(None, "stick"): state.left}

    def edit_to_move(self, state):
        self.asked.append("edit_to_move")
        return state.side

    def edit_fields(self, state):
        self.asked.append("edit_fields")
        return {}

    def edit(self, state, *, place=None, hands=None, to_move=None, fields=None):
        self.asked.append(f"edit {hands} {to_move}")
        return NimState(state.game, hands[None, "stick"], to_move)


def test_core_s_conveniences_forward_to_the_part_and_without_one_say_so(monkeypatch):
    state = Nim().initial_state()
    # no editor named: nothing to place, the player to move, and an edit names the part to declare
    assert (state.edit_pieces(), state.edit_hands(), state.edit_to_move(), state.edit_fields()) == (
        (),
        {},
        0,
        {},
    )
    assert (parts.edit_pieces(state), parts.edit_hands(state), parts.edit_fields(state)) == ((), {}, {})
    assert parts.edit_to_move(state) == 0 and not has_editor(state)
    with pytest.raises(NotImplementedError, match=r"toy-nim has no board editor yet: name an editor part"):
        state.edit(to_move=1)
    with pytest.raises(NotImplementedError, match=r"Toy Nim \(toy-nim\) brings no 'editor' part"):
        parts.edit(state, to_move=1)
    editor = CountingEditor()
    monkeypatch.setattr(Nim, "PARTS", {**Nim.PARTS, "editor": editor})
    parts.forget()
    try:
        assert state.edit_pieces()[0].key == "stick" and state.edit_hands() == {(None, "stick"): 7}
        assert state.edit_to_move() == 0 and state.edit_fields() == {}
        assert state.edit(hands={(None, "stick"): 4}, to_move=1).to_text() == "4 1"
        assert editor.asked == [
            "edit_pieces",
            "edit_hands",
            "edit_to_move",
            "edit_fields",
            "edit {(None, 'stick'): 4} 1",
        ]
        assert parts.edit(state, hands={(None, "stick"): 3}, to_move=0).to_text() == "3 0"
        assert has_editor(state) and rk.info(Nim).part("editor") is editor
    finally:
        monkeypatch.undo()
        parts.forget()


# --- a game written against the earlier docs: its editor as methods of its State ----------


@dataclass(frozen=True, repr=False)
class OldEditNimState(NimState):
    """The toy Nim's State with the editor's hooks, as the earlier docs had a game write them."""

    def edit_pieces(self):
        return (EditPiece("stick", "Firestick", None, in_hand=True, pile="pile", on_board=False),)

    def edit_hands(self):
        return {(None, "stick"): self.left}

    def edit(self, *, place=None, hands=None, to_move=None, fields=None):
        left = (hands or {}).get((None, "stick"), self.left)
        return OldEditNimState(self.game, left, self.side if to_move is None else to_move)


class OldEditNim(Nim):
    id = "old-edit-nim"
    title = "Nim with the earlier docs' editor"
    PARTS = {**Nim.PARTS, "position text": OldEditNimState, "editor": OldEditNimState}

    def initial_state(self):
        return OldEditNimState(self, self.options["sticks"], 0)

    def from_text(self, text):
        state = super().from_text(text)
        return OldEditNimState(self, state.left, state.side)


def test_a_state_of_the_earlier_docs_keeps_its_editor_with_one_warning(monkeypatch):
    monkeypatch.setattr(sys.modules["rules_kernel.info"], "_WARNED", set())  # warned in this test
    parts.forget()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = rk.info(OldEditNim)
            state = OldEditNim().initial_state()
            widget = PositionEditor(state, on_play=lambda _: None)
            widget.set_in_hand(None, "stick", 3)
            offered = [piece.key for piece in widget.pieces]
            edited = widget.state
        said = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
        assert len(said) == 1 and said[0].startswith("OldEditNim (old-edit-nim) does not declare PARTS")
        assert "OldEditNimState.edit_pieces, OldEditNimState.edit_hands, OldEditNimState.edit" in said[0]
        assert (
            found.has("editor") and has_editor(state) and isinstance(found.part("editor"), parts.EditorPart)
        )
        assert offered == ["stick"] and list(widget.counters) == [(None, "stick")]
        assert edited.to_text() == "3 0" and isinstance(edited, OldEditNimState)
        assert parts.edit_hands(edited) == {(None, "stick"): 3} and parts.edit_to_move(edited) == 0
        detail = rk.check_game(OldEditNim, games=2).result(check.INFO).detail
        assert (
            '"editor": <a module with edit_pieces(state), edit_hands(state), edit_to_move(state), '
            "edit_fields(state) and edit(state, ...)>"
        ) in detail
    finally:
        parts.forget()


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    _record()
