"""A random game through the public API, shared by the tests of every game."""

from __future__ import annotations

import random

import rules_kernel as rk

#: every game setting the tests go through: each game, To War! strategic, War Chest 4p
SETTINGS = [
    ("yokai-3x4", {}),
    ("yokai-5x6", {}),
    ("war-stories", {}),
    ("to-war", {}),
    ("to-war", {"strategic": True}),
    ("war-chest", {}),
    ("war-chest", {"players": 4}),
]


def random_game(game: str | rk.Game, seed: int, cap: int | None = None):
    """States and actions of a uniformly random game (chance by its own probabilities),
    played to the end or for `cap` actions."""
    game = rk.load_game(game) if isinstance(game, str) else game
    rng = random.Random(seed)
    state = game.initial_state()
    states, actions = [state], []
    while not state.is_terminal() and (cap is None or len(actions) < cap):
        if state.current_player == rk.CHANCE:
            action = state.sample_chance(rng)
            assert action.is_chance
        else:
            moves = state.legal_moves()
            assert moves, f"{game.id}: a non-terminal state without legal moves: {state!r}"
            action = rng.choice(moves)
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions
