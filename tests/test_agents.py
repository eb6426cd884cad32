"""Agents: seeded and reproducible, stronger than random where they should be, and never
given more than their player's view."""

from __future__ import annotations

import random

import pytest

import rules_kernel as rk
from rules_kernel.agents import Agent, GreedyAgent, MCTSAgent, RandomAgent, agent_view, evaluate, make_agent
from rules_kernel.simulate import play_game


def test_same_seed_same_choices():
    state = rk.load_game("yokai-5x6").initial_state()
    for spec in ("random", "greedy", "mcts:20"):
        picks = {str(make_agent(spec, seed=4).choose(state)) for _ in range(3)}
        assert len(picks) == 1, spec


@pytest.mark.parametrize("spec, games, at_least", [("greedy", 40, 30), ("mcts:40", 12, 9)])
def test_search_beats_random_at_yokai_3x4(spec, games, at_least):
    game = rk.load_game("yokai-3x4")
    wins = sum(play_game(game, (spec, "random"), seed=i).result["winner"] == 0 for i in range(games))
    assert wins >= at_least


def test_evaluation_scores_results_and_material():
    game = rk.load_game("yokai-3x4")
    won = game.initial_state().play("b1a2", "a4a3", "a2a3", "b4a3")
    assert evaluate(won, 1) == 1.0 and evaluate(won, 0) == -1.0
    up = game.initial_state().apply("b2b3")  # the first player has taken a Kodama
    assert evaluate(up, 0) > 0 > evaluate(up, 1)


class Spy(Agent):
    """Records what it is shown, then plays randomly."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.seen = []

    def choose(self, view):
        self.seen.append(view)
        return self.rng.choice(view.legal_moves())


@pytest.mark.parametrize(
    "game_id, options", [("war-stories", {}), ("to-war", {"strategic": True}), ("war-chest", {"players": 4})]
)
def test_agents_are_only_shown_their_view(game_id, options, monkeypatch):
    spies = []

    def spy_agent(name, seed=None):
        spies.append(Spy(seed))
        return spies[-1]

    monkeypatch.setattr("rules_kernel.simulate.make_agent", spy_agent)
    game = rk.load_game(game_id, **options)
    record = play_game(game, ("spy",) * game.num_players, seed=3, max_plies=80)
    states = record.replay()
    shown = [view for spy in spies for view in spy.seen]
    assert shown
    hidden_in_truth = remembered = 0
    for view in shown:
        truth = next(
            s
            for s in states
            if s.ply == view.ply
            and s.current_player == view.current_player
            and agent_view(s, view.current_player) == view
        )
        assert view == truth.view(view.current_player, memory=True)
        hidden_in_truth += view != truth
        remembered += view != truth.view(view.current_player)
    assert hidden_in_truth > 0  # the truth had secrets the agents never saw
    # a player remembers what it saw (rules/NOTES.md, "Information"): only War Stories' view
    # forgets without memory, so only there does the agents' view differ from what lies in sight
    assert (remembered > 0) == (game_id == "war-stories")


@pytest.mark.parametrize("agent_class", [RandomAgent, GreedyAgent, MCTSAgent])
def test_decisions_depend_only_on_the_view(agent_class):
    """Two true states with the same view (different hidden cards) get the same decision."""
    game = rk.load_game("war-stories")
    state = game.initial_state()
    state = state.apply(state.sample_chance(random.Random(8)))
    view = state.view(0)
    other_truth = view.determinize(random.Random(99))
    assert other_truth.cards != state.cards and other_truth.view(0) == view
    kwargs = {"iterations": 15} if agent_class is MCTSAgent else {}
    first = agent_class(seed=5, **kwargs).choose(state.view(0))
    second = agent_class(seed=5, **kwargs).choose(other_truth.view(0))
    assert str(first) == str(second)


def test_unknown_agents_are_refused():
    with pytest.raises(rk.RulesError, match="unknown agent 'alphazero'"):
        make_agent("alphazero")
    with pytest.raises(rk.RulesError, match="only mcts takes"):
        make_agent("greedy:4")


def test_greedy_beats_random_at_war_chest():
    """The War Chest evaluation (markers, then coins and closeness to locations to take) is
    enough for one-ply greedy play to win against random play."""
    game = rk.load_game("war-chest", max_actions=1500)
    wins = sum(play_game(game, ("greedy", "random"), seed=i).result["winner"] == 0 for i in range(6))
    assert wins >= 5


@pytest.mark.parametrize("game_id", rk.list_games())
def test_every_game_gives_a_view_with_memory(game_id):
    """`view(p, memory=True)` is the view of a player who forgets nothing (docs/kernel.md). Only
    War Stories' view forgets (a card turned back is `?` again); every other game takes the
    keyword and gives the same view, and a bad seat is refused either way."""
    game = rk.load_game(game_id)
    record = play_game(game, ("random",) * game.num_players, seed=2, max_plies=40)
    for state in record.replay()[::5]:
        for seat in range(game.num_players):
            if game_id != "war-stories":
                assert state.view(seat, memory=True) == state.view(seat)
    with pytest.raises(rk.SeatError):
        game.initial_state().view(game.num_players, memory=True)


def test_a_war_stories_view_with_memory_keeps_the_cards_turned_back():
    """NOTES.md, War Stories, "Information": every flip is seen by both players, so a player
    who forgets nothing knows each card turned up; the view in sight labels a card turned back
    only until the next action."""
    state = rk.load_game("war-stories").initial_state()
    state = state.apply(state.sample_chance(random.Random(8)))

    def army_card(*besides):  # a flip of an army card on another square, of another card
        return next(
            m
            for m in state.legal_moves()
            if state.cards[m.square] not in ("he", "ki", *(state.cards[b.square] for b in besides))
            and m not in besides
        )

    first = army_card()
    state = state.apply(first)
    second = army_card(first)
    state = state.apply(second)  # no pair: both turned back
    assert state.current_player == 1 and state.view(0).cards[first.square] != "?"  # still in sight
    state = state.apply(army_card(first, second))  # the next action: Black turns a card over
    for seat in (0, 1):
        assert state.view(seat, memory=True).cards[first.square] == state.cards[first.square]
        assert state.view(seat).cards[first.square] == "?"
