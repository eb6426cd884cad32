"""The agent ladder (issue #23 item 4): agents over the analysis engines, round robins, Elo
ratings with intervals, and the precomputed data/ladder.parquet."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import rules_kernel as rk
from rules_kernel import ladder, stats
from rules_kernel.agents import FairyStockfishAgent, TreeSearchAgent, check_agent, make_agent
from rules_kernel.analysis import TreeSearchEngine, close_engines

DATA = Path(__file__).resolve().parent.parent / "data" / "ladder.parquet"


# --- agents ---------------------------------------------------------------------------------


def test_agent_specs_parse():
    assert isinstance(make_agent("ismcts:7"), TreeSearchAgent) and make_agent("ismcts:7").playouts == 7
    assert isinstance(make_agent("fsf:3"), FairyStockfishAgent) and make_agent("fsf:3").depth == 3
    assert make_agent("mcts:5").iterations == 5 and make_agent("mcts").iterations == 200
    assert make_agent("perfect").name == "perfect" and make_agent("random").name == "random"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ismcts:0", r"'ismcts:0': give ismcts:<playouts>, a whole number >= 1"),
        ("ismcts", r"give ismcts:<playouts>"),
        ("fsf:x", r"'fsf:x': give fsf:<depth>, a whole number >= 1"),
        ("fsf:-2", r"give fsf:<depth>"),
        ("fsf:²", r"give fsf:<depth>"),  # a digit to str.isdigit, not a number
        ("greedy:4", r"greedy takes no number"),
        ("alphabeta:3", r"unknown agent 'alphabeta:3'; agents: random, greedy"),
    ],
)
def test_bad_specs_fail_clearly(spec, message):
    with pytest.raises(rk.RulesError, match=message):
        make_agent(spec)


def test_fsf_is_refused_for_a_game_without_a_variant():
    game = next(rk.load_game(g) for g in rk.list_games() if rk.game_class(g).FAIRY_STOCKFISH_VARIANT is None)
    with pytest.raises(rk.RulesError, match=f"Fairy-Stockfish does not play {game.id}"):
        check_agent("fsf:2", game)
    state = _decision(game.initial_state(), random.Random(1))
    with pytest.raises(rk.RulesError, match="does not play"):
        make_agent("fsf:2").choose(state.view(state.current_player))


def test_fsf_is_refused_when_the_engine_is_absent(monkeypatch):
    game = rk.load_game("yokai-5x6")
    close_engines()  # an engine opened by another test would be reused
    monkeypatch.setenv("RULES_EXPLORER_FAIRY_STOCKFISH", "/nonexistent/fairy-stockfish")
    try:
        with pytest.raises(rk.RulesError, match="Fairy-Stockfish not found at /nonexistent"):
            check_agent("fsf:2", game)
        with pytest.raises(rk.RulesError, match="Fairy-Stockfish not found"):
            make_agent("fsf:2").choose(game.initial_state())
        assert "fsf:2" not in ladder.default_agents(game)
    finally:
        close_engines()  # forget the refusal: later tests may find the real engine


def test_perfect_is_refused_where_no_table_is_ready():
    game = next(rk.load_game(g) for g in rk.list_games() if rk.game_class(g).SOLVED_TABLE is None)
    with pytest.raises(rk.RulesError, match="declares no solved table"):
        check_agent("perfect", game)


def _decision(state: rk.State, rng: random.Random, plies: int = 0) -> rk.State:
    """The first position (after `plies` random actions) where a player chooses."""
    done = 0
    while state.current_player == rk.CHANCE or done < plies:
        if state.current_player == rk.CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state, done = state.apply(rng.choice(state.legal_moves())), done + 1
    return state


def test_ismcts_agent_analyses_only_the_view_it_is_given(monkeypatch):
    """The engine is handed the very view the agent got, as its player; the agent keeps no
    reference to any true state (it never gets one), and two true states with the same view
    give the same move."""
    state = _decision(rk.load_game("war-stories").initial_state(), random.Random(3), plies=4)
    player = state.current_player
    view = state.view(player)
    seen = []
    real = TreeSearchEngine.analyse

    def spy(engine, analysed, **kwargs):
        seen.append((analysed, kwargs["viewer"], kwargs["limit"].playouts))
        return real(engine, analysed, **kwargs)

    monkeypatch.setattr(TreeSearchEngine, "analyse", spy)
    first = make_agent("ismcts:12", seed=5).choose(view)
    assert seen == [(view, player, 12)]
    other_truth = view.determinize(random.Random(99))
    assert other_truth.view(player) == view and other_truth != state  # the secrets differ
    second = make_agent("ismcts:12", seed=5).choose(other_truth.view(player))
    assert str(first) == str(second) and first in view.legal_moves()


def test_ismcts_agent_is_reproducible_from_its_seed():
    state = _decision(rk.load_game("to-war").initial_state(), random.Random(2), plies=6)
    view = state.view(state.current_player)
    picks = {str(make_agent("ismcts:15", seed=8).choose(view)) for _ in range(3)}
    assert len(picks) == 1


# --- ratings on synthetic results -------------------------------------------------------------


def synthetic(true: dict[str, float], games_per_pair: int, seed: int) -> pd.DataFrame:
    """Round-robin results drawn from the logistic model with known ratings."""
    rng = np.random.default_rng(seed)
    rows = []
    names = list(true)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = 1.0 / (1.0 + 10.0 ** ((true[b] - true[a]) / 400.0))
            for score in (rng.random(games_per_pair) < p).astype(float):
                rows.append({"game": "g", "a": a, "b": b, "score_a": score})
    return pd.DataFrame(rows)


TRUE = {"random": 0.0, "greedy": 150.0, "mcts:50": 400.0}


def test_ratings_recover_known_strengths_inside_their_intervals():
    fit = ladder.ratings(synthetic(TRUE, 300, seed=1)).set_index("agent")
    assert list(fit.columns) == [c for c in ladder.RATING_COLUMNS if c != "agent"]
    for agent, rating in TRUE.items():
        assert fit.loc[agent, "ci_low"] <= rating <= fit.loc[agent, "ci_high"], agent
    assert fit.loc["random", "rating"] == 0.0 and fit.loc["random", "anchor"]
    assert fit.loc["random", "ci_low"] == fit.loc["random", "ci_high"] == 0.0
    assert (fit["n"] == 600).all() and not fit["prior"].any()
    assert list(fit.index) == ["mcts:50", "greedy", "random"]  # best first


def test_the_intervals_cover_about_95_percent():
    """Over 60 synthetic ladders the 95% interval of greedy's rating holds the truth about
    57 times (binomial: 52 or more with probability > 0.99 if the coverage is right)."""
    covered = 0
    for seed in range(60):
        fit = ladder.ratings(synthetic(TRUE, 40, seed)).set_index("agent")
        covered += fit.loc["greedy", "ci_low"] <= TRUE["greedy"] <= fit.loc["greedy", "ci_high"]
    assert covered >= 52


def test_intervals_shrink_with_n():
    """The standard error falls as 1/sqrt(n): 16 times the games, a quarter of the width."""
    small = ladder.ratings(synthetic(TRUE, 50, seed=4)).set_index("agent")
    large = ladder.ratings(synthetic(TRUE, 800, seed=4)).set_index("agent")
    ratio = small.loc["greedy", "se"] / large.loc["greedy", "se"]
    assert 3.2 < ratio < 4.8


def test_half_points_count_half_and_mean_zero_without_random():
    even = pd.DataFrame({"game": "g", "a": "x", "b": "y", "score_a": [1.0, 0.0, 0.5, 0.5]})
    fit = ladder.ratings(even).set_index("agent")
    assert fit.loc["x", "rating"] == pytest.approx(0.0, abs=1e-6)  # mean 0: no random played
    assert fit.loc["x", "draws"] == 2 and fit.loc["x", "score"] == 0.5
    ahead = even.assign(score_a=[1.0, 0.0, 1.0, 0.5])  # 2.5 of 4: odds 5:3
    fit = ladder.ratings(ahead).set_index("agent")
    assert fit.loc["x", "rating"] - fit.loc["y", "rating"] == pytest.approx(400 * np.log10(5 / 3), abs=0.01)


def test_a_perfect_record_gets_the_weak_prior_and_a_finite_rating():
    perfect = synthetic({"random": 0.0, "greedy": 100.0}, 30, seed=2)
    perfect = pd.concat(
        [perfect, pd.DataFrame({"game": "g", "a": "random", "b": "fsf:2", "score_a": [0.0] * 10})]
    )
    perfect = pd.concat(
        [perfect, pd.DataFrame({"game": "g", "a": "greedy", "b": "fsf:2", "score_a": [0.0] * 10})]
    )
    fit = ladder.ratings(perfect).set_index("agent")
    assert fit["prior"].all() and np.isfinite(fit["rating"]).all()
    assert fit.loc["fsf:2", "rating"] > fit.loc["greedy", "rating"] + 300
    one_draw = perfect.copy()
    one_draw.iloc[-1, one_draw.columns.get_loc("score_a")] = 0.5  # greedy took half a point
    assert not ladder.ratings(one_draw)["prior"].any()


def test_ratings_name_a_missing_column():
    with pytest.raises(rk.RulesError, match="no column 'score_a'"):
        ladder.ratings(pd.DataFrame({"game": ["g"], "a": ["x"], "b": ["y"]}))


# --- a real round robin -----------------------------------------------------------------------


def test_a_tiny_round_robin():
    agents = ["random", "greedy", "ismcts:5"]
    results = ladder.round_robin("yokai-3x4", agents, 2, seed=11, max_plies=30, progress=False)
    assert list(results.columns) == list(ladder.RESULT_COLUMNS)
    assert len(results) == 6 and (results["game"] == "yokai-3x4").all()
    assert set(zip(results["a"], results["b"], strict=True)) == {
        ("random", "greedy"),
        ("random", "ismcts:5"),
        ("greedy", "ismcts:5"),
    }
    first = results[results["index"] == 0]
    assert (first["agent_0"] == first["a"]).all()  # seats alternate: a first in even games
    second = results[results["index"] == 1]
    assert (second["agent_0"] == second["b"]).all()
    assert list(results["seed"])[:2] == ["11:yokai-3x4:random:greedy:0", "11:yokai-3x4:random:greedy:1"]
    assert set(results["score_a"]) <= {0.0, 0.5, 1.0} and (results["actions"] <= 30).all()
    decided = results[results["winner"].notna()]
    a_won = decided["winner"] == [
        s.index(a) for s, a in zip(decided[["agent_0", "agent_1"]].values.tolist(), decided["a"], strict=True)
    ]
    assert (decided["score_a"] == a_won.astype(float)).all()
    again = ladder.round_robin("yokai-3x4", agents, 2, seed=11, max_plies=30, progress=False)
    assert again.drop(columns="seconds").equals(results.drop(columns="seconds"))
    table = ladder.ratings(results)
    assert set(table["agent"]) == set(agents) and (table["n"] == 4).all()


def test_a_round_robin_refuses_an_agent_that_cannot_play():
    game = next(g for g in rk.list_games() if rk.game_class(g).FAIRY_STOCKFISH_VARIANT is None)
    with pytest.raises(rk.RulesError, match="does not play"):
        ladder.round_robin(game, ["random", "fsf:2"], 2, progress=False)


# --- the precomputed ladder -------------------------------------------------------------------


def test_the_precomputed_ladder_has_every_game_and_its_making():
    results = ladder.results_frame(pd.read_parquet(DATA).to_dict("records"))
    assert list(pd.read_parquet(DATA).columns) == list(ladder.RESULT_COLUMNS)
    assert set(results["game"]) == set(rk.list_games())
    made = stats.table_metadata(DATA)
    assert made["command"].startswith("python -m rules_kernel.make_data") and made["seed"] == 2026
    for game, agents in made["agents"].items():
        rows = results[results["game"] == game]
        assert len(rows) == made["games_per_pair"] * len(agents) * (len(agents) - 1) // 2, game
        assert {"random", "greedy"} <= set(agents)
        table = ladder.ratings(rows)
        assert (table["n"] == made["games_per_pair"] * (len(agents) - 1)).all()
        assert np.isfinite(table["rating"]).all() and (table["ci_low"] <= table["ci_high"]).all()
