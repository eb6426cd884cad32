"""A view may hide, never misstate (issue #22 item 1): along random games of every game,
each player's view shows exactly the public counts the all-seeing state shows — hand and
reserve sizes, bag and discard counts, pieces on the table — and every number in a zone's
title is the same. Only identities may differ (a face-down card, a coin in a hidden hand).

Found wrong before: To War! (strategic), a player's view said "reserve: 10 cards" with one
face-down card for the opponent's hand, while the truth was two cards in hand and reserve 8.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playing import SETTINGS

import rules_kernel as rk

GAMES = SETTINGS
PLIES = 160  # long enough for every phase: set-up, play, draws and reshuffles of War Chest bags


def zone_total(zone) -> int:
    return sum(item.count for item in zone.items) + zone.hidden_count


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def misstatements(state: rk.State, player: int) -> list[str]:
    """What the player's scene says differently from the all-seeing scene, in counts."""
    full, view = state.scene(), state.scene(perspective=player)
    found = []
    if len(full.tokens) != len(view.tokens):
        found.append(f"{len(view.tokens)} pieces on the table, truly {len(full.tokens)}")
    seen = {zone.id: zone for zone in view.zones}
    for zone in full.zones:
        shown = seen.get(zone.id)
        if shown is None:
            found.append(f"zone {zone.id} missing")
        elif zone_total(shown) != zone_total(zone):
            found.append(f"{zone.id}: {zone_total(shown)} items, truly {zone_total(zone)}")
        elif numbers(shown.title) != numbers(zone.title):
            found.append(f"{zone.id}: {shown.title!r}, truly {zone.title!r}")
    return found


@pytest.mark.parametrize("game_id, options", GAMES, ids=[f"{g}{'-' + str(o) if o else ''}" for g, o in GAMES])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_view_states_the_public_counts_exactly(game_id, options, seed):
    game = rk.load_game(game_id, **options)
    rng = random.Random(seed)
    state = game.initial_state()
    for ply in range(PLIES):
        if state.is_terminal():
            break
        for player in range(game.num_players):
            wrong = misstatements(state, player)
            assert not wrong, f"ply {ply}, player {player}'s view: {'; '.join(wrong)} ({state.to_text()})"
        chance = state.current_player == rk.CHANCE
        state = state.apply(state.sample_chance(rng) if chance else rng.choice(state.legal_moves()))


def test_to_war_strategic_view_counts_the_opponents_hand_and_reserve():
    """The reported case: after the set-up and a few pushes, the opponent's two hidden hand
    cards show as two face-down cards and their reserve as its true size."""
    game = rk.load_game("to-war", strategic=True)
    rng, state = random.Random(3), game.initial_state()
    for _ in range(60):
        state = state.apply(
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
    truth = {z.id: z for z in state.scene().zones}["hand-1"]
    shown = {z.id: z for z in state.scene(perspective=0).zones}["hand-1"]
    assert len(state.hands[1]) == 2 and sum(state.reserves[1]) == 5
    assert [(i.face_down, i.count) for i in shown.items] == [(True, 2)]
    assert shown.title == truth.title == "Nordische Armee: hand 2, reserve 5, discards 3"
