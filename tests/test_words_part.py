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
from pathlib import Path
from typing import Any

import pytest

import rules_kernel as rk
from rules_kernel.core import State

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
