"""The kernel protocol (DESIGN.md "The kernel protocol"), checked on every registered game:
whatever a game module does inside, these hold for all of them."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.scene import Scene

GAME_IDS = rk.list_games()
PLY_CAP = 400


def test_the_games_are_registered():
    expected = {"yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"}
    assert set(GAME_IDS) == expected


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_unknown_options_are_refused(game_id):
    with pytest.raises(rk.OptionError, match="no option 'no_such_option'"):
        rk.load_game(game_id, no_such_option=1)


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_games_follow_the_protocol(game_id, seed):
    states, actions = random_game(game_id, seed, PLY_CAP)
    game = states[0].game
    for state, action in zip(states, actions, strict=False):
        # moves are hashable values whose notation names them
        if state.current_player != rk.CHANCE:
            moves = state.legal_moves()
            assert len(set(moves)) == len(moves)
            assert all(isinstance(str(m), str) and str(m) for m in moves)
            assert state.apply(str(action)) == state.apply(action)
        else:
            assert state.legal_moves() == []
        # position text round-trips; repr shows it
        assert game.from_text(state.to_text()).to_text() == state.to_text()
        assert state.to_text() in repr(state)
        hash(state)
    final = states[-1]
    if final.is_terminal():
        outcome = final.outcome()
        assert isinstance(outcome, rk.Outcome) and outcome.reason
        assert final.legal_moves() == []
        with pytest.raises(rk.IllegalMoveError):
            final.apply("anything")


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_records_round_trip_and_replay_identically(game_id, seed):
    states, actions = random_game(game_id, seed, cap=150)
    record = records.Record.from_actions(states[0].game, actions)
    again = records.Record.from_json(record.to_json())
    assert again == record
    assert again.replay() == states


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_scenes_and_views(game_id):
    states, _ = random_game(game_id, seed=7, cap=60)
    game = states[0].game
    for state in states[:: max(1, len(states) // 10)]:
        scene = state.scene()
        assert isinstance(scene, Scene) and scene.game == game_id
        cell_ids = set(scene.cell_ids())
        zone_cells = {item.cell for zone in scene.zones for item in zone.items}
        assert all(token.cell in cell_ids for token in scene.tokens)
        for move in state.legal_moves():
            assert move.cells, f"{move} names no cells"
            assert set(move.cells) <= cell_ids | zone_cells, f"{move} names unknown cells"
        for player in range(game.num_players):
            view = state.view(player)
            assert isinstance(view.scene(), Scene)
            assert state.scene(perspective=player).perspective == player
            if state.current_player == player:
                assert set(map(str, view.legal_moves())) == set(map(str, state.legal_moves()))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_illegal_move_raises_and_changes_nothing(game_id):
    state = rk.load_game(game_id).initial_state()
    rng = random.Random(3)
    while state.current_player == rk.CHANCE:
        state = state.apply(state.sample_chance(rng))
    before = state.to_text()
    with pytest.raises(rk.IllegalMoveError) as info:
        state.apply("xyzzy")
    assert "xyzzy" in str(info.value)
    assert isinstance(info.value, ValueError)
    assert state.to_text() == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_perft_counts_the_legal_moves(game_id):
    state = rk.load_game(game_id).initial_state()
    rng = random.Random(5)
    while state.current_player == rk.CHANCE:
        state = state.apply(state.sample_chance(rng))
    assert rk.perft(state, 1) == len(state.legal_moves())
    assert rk.perft(state, 0) == 1


# --- issue 14: positions equal by content, seats checked, non-actions refused -----------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_position_text_round_trips_to_an_equal_state_with_an_equal_hash(game_id, seed):
    """`from_text(s.to_text()) == s` with equal hashes at every state of a random game: the
    position is what the rules depend on, not a display hint such as the last move."""
    states, _ = random_game(game_id, seed, cap=200)
    game = states[0].game
    for state in states:
        again = game.from_text(state.to_text())
        assert again == state, f"{game_id}: {state.to_text()!r} reads back unequal"
        assert hash(again) == hash(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seat", [7, -1, "a", None, 1.5, True])
def test_a_view_of_no_seat_is_refused_naming_the_seats(game_id, seat):
    state = rk.load_game(game_id).initial_state()
    seats = ", ".join(str(p) for p in range(state.game.num_players))
    with pytest.raises(rk.RulesError, match=f"its seats are {seats}") as info:
        state.view(seat)
    assert isinstance(info.value, rk.core.SeatError)
    for player in range(state.game.num_players):
        state.view(player)  # every real seat has a view


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("not_an_action", [["b2b3"], None, 3, {"move": "b2b3"}, b"b2b3", 2.5])
def test_apply_of_a_non_action_is_an_illegal_move(game_id, not_an_action):
    states, _ = random_game(game_id, seed=1, cap=3)
    for state in states:
        if state.is_terminal():
            continue
        with pytest.raises(rk.IllegalMoveError, match="is not an action"):
            state.apply(not_an_action)


@pytest.mark.parametrize(
    "game_id", [g for g in GAME_IDS if dataclasses.is_dataclass(rk.load_game(g).initial_state())]
)
def test_replaced_is_dataclasses_replace_without_the_caches(game_id):
    """`State.replaced`, the rules' fast copy of a dataclass state (War Stories, To War!, War
    Chest), gives the same position as `dataclasses.replace` for every field changed to another
    state's value, keeps no cached outcome or legal moves of the old state (a finished state's
    fields copied into a live one make it finished), and refuses a name that is no field."""
    states, _ = random_game(game_id, seed=1, cap=1000)  # seed 1 finishes in each of them
    live = next(s for s in states if s.current_player != rk.CHANCE and s.legal_moves())
    final = states[-1]
    assert final.is_terminal()
    assert live.legal_moves() and not live.is_terminal()  # both kept by `live` now
    for f in dataclasses.fields(live):
        changes = {f.name: getattr(final, f.name)}
        assert live.replaced(**changes) == dataclasses.replace(live, **changes), f.name
    everything = {f.name: getattr(final, f.name) for f in dataclasses.fields(final)}
    copy = live.replaced(**everything)
    assert copy == final and copy.outcome() == final.outcome()
    assert copy.is_terminal() and copy.legal_moves() == []
    with pytest.raises(TypeError, match="has no field 'colour'"):
        live.replaced(colour=1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_action_in_words_may_be_given_by_its_notation(game_id):
    """`State.action_text` takes the action or its notation (a move an agent or a record gives
    as text), with the same words, all-seeing and in each seat's view; notation that names no
    action here is an IllegalMoveError, not an AttributeError."""
    states, actions = random_game(game_id, seed=2, cap=60)
    for state, action in zip(states, actions, strict=False):
        for viewer in (None, *range(state.game.num_players)):
            assert state.action_text(str(action), viewer) == state.action_text(action, viewer)
    with pytest.raises(rk.IllegalMoveError):
        states[-1].action_text("no such move")
