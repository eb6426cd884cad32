"""The words part (issue 45 item 2, second slice): a game's actions in words are a part it names
(`PARTS["words"]`: its notation module), asked through `rules_kernel.parts` (and the State's
conveniences `state.action_text(m)`, like python-chess's `board.san(m)`).

The words every game gave before they were a part were recorded from the code before the change
into tests/golden/words_before.json: every legal move (or chance outcome) of five positions of a
seeded line of each game, for the all-seeing list and each seat, its words and its words once
forgotten; each action of the line as each seat recalls it at the line's end; why a text names
no move; each seat's menu in its view. The part gives the same.
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from test_toy_game import Nim, NimState

import rules_kernel as rk
from rules_kernel import parts
from rules_kernel.core import State
from rules_kernel.records import Record
from widgets.explorer.seats import move_words

GOLDEN = Path(__file__).parent / "golden" / "words_before.json"
#: the plies of each seeded line whose positions are recorded
PLIES = (0, 3, 8, 15, 30)
#: a text that names no action of any game
NONSENSE = "zz9-no-move"


def _line(game_id: str, seed: int = 7) -> tuple[list[State], list[Any]]:
    """The states of a seeded random line from the start (up to the last recorded ply), and
    the actions between them."""
    rng, state = random.Random(seed), rk.load_game(game_id).initial_state()
    states, actions = [state], []
    while not state.is_terminal() and len(states) <= PLIES[-1]:
        action = (
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


def _said(say: Any, *args: Any) -> str:
    """The words, or the error's kind and message (a viewer asked of what it may not name)."""
    try:
        return say(*args)
    except Exception as error:  # noqa: BLE001 - the golden records what was raised too
        return f"!{type(error).__name__}: {error}"


def words_of_game(game_id: str, words: Any) -> dict[str, Any]:
    """Everything the golden file holds for one game, as `words` (an object with the functions
    `action_text(state, action, viewer)`, `forgotten_text`, `recalled_text(state, action,
    viewer, now)` and `why_illegal(state, text)`) says it."""
    states, played = _line(game_id)
    seats = (None, *range(states[0].game.num_players))
    positions = []
    for ply in PLIES:
        if ply >= len(states):
            break
        state = states[ply]
        if state.is_terminal():
            actions = []
        elif state.current_player == rk.CHANCE:
            actions = _chance_actions(state)
        else:
            actions = state.legal_moves()
        positions.append(
            {
                "ply": ply,
                "actions": {
                    str(action): [
                        [_said(words.action_text, state, action, viewer) for viewer in seats],
                        [_said(words.forgotten_text, state, action, viewer) for viewer in seats],
                    ]
                    for action in actions
                },
                "why_illegal": _said(words.why_illegal, state, NONSENSE),
                # the menu of each seat: its view's moves in its view's words
                "menus": [
                    [_said(words.action_text, seen, move, seat) for move in _moves(seen)]
                    for seat, seen in ((seat, state.view(seat)) for seat in seats[1:])
                ],
            }
        )
    end = states[-1]
    recalled = []
    for viewer in seats:
        now = end if viewer is None else end.view(viewer)
        recalled.append(
            [
                _said(words.recalled_text, before, after_action, viewer, now)
                for before, after_action in zip(states, played, strict=False)
            ]
        )
    return {"positions": positions, "recalled": recalled}


def _moves(state: State) -> list[Any]:
    return [] if state.is_terminal() or state.current_player == rk.CHANCE else state.legal_moves()


def _chance_actions(state: State) -> list[Any]:
    """Up to 30 outcomes of the pending chance event: listed, or drawn (a deal too big to list)."""
    try:
        return [outcome for outcome, _ in state.chance_outcomes()][:30]
    except rk.ChanceNotEnumerableError:
        drawn = {str(o): o for o in (state.sample_chance(random.Random(seed)) for seed in range(10))}
        return list(drawn.values())


class StateWords:
    """The words as the State's methods say them (the conveniences, and before the part)."""

    @staticmethod
    def action_text(state: State, action: Any, viewer: int | None) -> str:
        return state.action_text(action, viewer)

    @staticmethod
    def forgotten_text(state: State, action: Any, viewer: int | None) -> str:
        return state.forgotten_text(action, viewer)

    @staticmethod
    def recalled_text(state: State, action: Any, viewer: int | None, now: State) -> str:
        return state.recalled_text(action, viewer, now)

    @staticmethod
    def why_illegal(state: State, text: str) -> str:
        return state.why_illegal(text)


def record() -> None:
    """Write the golden file from the code as it is (run once, before the change)."""
    golden = {game_id: words_of_game(game_id, StateWords) for game_id in rk.list_games()}
    GOLDEN.write_text(json.dumps(golden, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


BEFORE = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game_id", sorted(BEFORE))
def test_the_states_words_are_what_they_were(game_id):
    """`state.action_text(m)` & co, as callers write them, say what they said before."""
    assert words_of_game(game_id, StateWords) == BEFORE[game_id]


class PartWords:
    """The words as the consumers ask them: `rules_kernel.parts`."""

    action_text = staticmethod(parts.action_text)
    forgotten_text = staticmethod(parts.forgotten_text)
    recalled_text = staticmethod(parts.recalled_text)
    why_illegal = staticmethod(parts.why_illegal)


@pytest.mark.parametrize("game_id", sorted(BEFORE))
def test_the_words_part_says_what_the_state_said(game_id):
    """The game's words part, through `rules_kernel.parts`, says what the State's methods said."""
    assert isinstance(rk.info(game_id).part("words"), parts.WordsPart)
    assert words_of_game(game_id, PartWords) == BEFORE[game_id]


# --- the State's words are conveniences, and a game of the earlier docs is still heard ---------


def test_the_state_keeps_no_words_hook_only_conveniences_that_ask_the_part(monkeypatch):
    """None of our State classes writes the words; core.State's methods forward to the part the
    game names (python-chess's `board.san(m)`): a game naming another words object is heard
    through `state.action_text`, `forgotten_text`, `recalled_text`, and `apply`'s error."""
    for game_id in rk.list_games():
        state_class = type(rk.load_game(game_id).initial_state())
        for name in ("action_text", "forgotten_text", "recalled_text", "why_illegal"):
            assert getattr(state_class, name) is getattr(State, name), (game_id, name)

    class Loud:
        def action_text(self, state, action, viewer):
            return f"TAKES {action.count} for {viewer}"

        def forgotten_text(self, state, action, viewer):
            return "takes something"

        def why_illegal(self, state, text):
            return f"no {text} in Nim"

    monkeypatch.setattr(Nim, "PARTS", {**Nim.PARTS, "words": Loud()})
    parts.forget()
    try:
        state = Nim().initial_state()
        assert state.action_text("take 2", 1) == "TAKES 2 for 1" == parts.action_text(state, "take 2", 1)
        assert state.forgotten_text("take 1") == "takes something"
        assert state.recalled_text("take 1", None, state) == "TAKES 1 for None"
        with pytest.raises(rk.IllegalMoveError, match="no take 9 in Nim"):
            state.apply("take 9")
    finally:
        monkeypatch.undo()
        parts.forget()
    # without the part: the notation, the legal moves
    state = Nim().initial_state()
    assert state.action_text("take 2") == "take 2" == parts.action_text(state, "take 2")
    with pytest.raises(rk.IllegalMoveError, match="legal moves: take 1, take 2"):
        state.apply("take 9")


class WordyNimState(NimState):
    """A State of the earlier docs: the words as its methods."""

    def action_text(self, action, viewer=None):
        action = self._action_of(action)
        return f"takes {action.count} firestick{'s' if action.count > 1 else ''}"

    def _successor(self, action):
        after = super()._successor(action)
        return WordyNimState(self.game, after.left, after.side, after.last)


class WordyNim(Nim):
    id = "wordy-nim"
    title = "Nim with the words of the earlier docs"

    def initial_state(self):
        return WordyNimState(self, self.options["sticks"], 0)

    def from_text(self, text):
        left, side = map(int, text.split())
        return WordyNimState(self, left, side)


def test_a_state_of_the_earlier_docs_keeps_its_words_with_one_warning(monkeypatch):
    """Its override wins on the convenience; the info's adapter part calls it for the move
    list, the menus and the collection's tables; one DeprecationWarning; check-game names the
    line to write."""
    monkeypatch.setattr(sys.modules["rules_kernel.info"], "_WARNED", set())
    rk.register_game(WordyNim)
    parts.forget()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            state = WordyNim().initial_state()
            menu = move_words(state, state.legal_moves(), None)
            said = [parts.action_text(state, m) for m in state.legal_moves()]
            record = Record.from_actions(WordyNim(), ["take 2", "take 1"])
            replayed = [
                parts.action_text(s, a.notation)
                for s, a in zip(record.replay(), record.actions, strict=False)
            ]
        warned = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
        assert len(warned) == 1 and "WordyNimState.action_text" in warned[0], warned
        assert menu == said == ["takes 1 firestick", "takes 2 firesticks"]
        assert replayed == ["takes 2 firesticks", "takes 1 firestick"]
        assert state.action_text("take 2") == "takes 2 firesticks"  # the override wins
        found = rk.info(WordyNim)
        assert found.undeclared == ("PARTS",) and "words" in found.parts
        detail = rk.check_game(WordyNim, games=2).result("the info complete").detail
        assert '"words": <a module with action_text(state, action, viewer) and forgotten_text(' in detail
    finally:
        rk.unregister_game(WordyNim.id)
        parts.forget()
