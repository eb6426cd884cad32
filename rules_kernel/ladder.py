"""Agent ladder: round-robin matches between agents of one game, rated by Elo.

    from rules_kernel import ladder
    results = ladder.round_robin("war-stories", ["random", "greedy", "ismcts:50"], 10, seed=1)
    ladder.ratings(results)      # per game and agent: rating, 95% interval, n, score

Every pair of agents plays `games_per_pair` games, the seats alternating (the first agent of
the pair sits first in the even games); game i of the pair (a, b) is played with the seed
"<seed>:<game>:<a>:<b>:<i>" and the game's settings `data_options(i // 2)` (its "statistics" part) (To War!
cycles through its army pairs; both seatings of a setting are played), capped at the game's
`DATA_MAX_PLIES` actions or a given cap. A win scores 1, a draw or an unfinished game 1/2.
The ladder plays two-seat games only: 4-player War Chest (an option of the game, not a game
of its own) is not rated; its default, the 2-player game, is.

The ratings are the maximum-likelihood fit of the logistic (Bradley–Terry) model

    P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))

to the games, with a half point counted as a fractional outcome (half a win and half a
loss), by scipy. Ratings are relative: `random` is anchored at 0 when it played, else the
ratings have mean 0. The 95% intervals are Wald intervals from the inverse of the observed
information (the Hessian of the negative log-likelihood at the fit), relative to the anchor
(the anchor's own interval is 0 wide). When a group of agents won every point it played
against the rest (a perfect record, always possible with few games), the likelihood has no
maximum; then, and only then, a weak Gaussian prior on the centred ratings (standard
deviation `PRIOR_SD` = 1000 Elo, a ridge) is added, and the rows say so (`prior`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components
from scipy.stats import norm
from tqdm.auto import tqdm

from rules_kernel import core, parts, registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.agents import check_agent
from rules_kernel.core import RulesError
from rules_kernel.simulate import EXPERIMENT_SEED, play_game

#: one row per game played (`round_robin`)
RESULT_COLUMNS = (
    "game",  # the game id
    "a",  # the pair as listed: a before b in the agents given
    "b",
    "index",  # the game's number within its pair (a sits first when even)
    "agent_0",  # the agent in the first seat
    "agent_1",
    "seed",  # "<seed>:<game>:<a>:<b>:<index>"
    "options",  # the game's options (JSON) when the setting changes them, else "{}"
    "actions",  # actions played, chance included
    "finished",  # False: stopped at the cap (counts as a draw)
    "winner",  # the winning seat, <NA> for a draw or an unfinished game
    "reason",  # how it ended, the kernel's words
    "score_a",  # a's points: 1 win, 0.5 draw or unfinished, 0 loss
    "seconds",  # wall time of the game (both agents' thinking)
)
#: one row per game and agent (`ratings`)
RATING_COLUMNS = (
    "game",
    "agent",
    "rating",  # Elo, relative to the anchor
    "ci_low",  # the 95% interval (Wald, from the observed information)
    "ci_high",
    "se",  # the standard error
    "n",  # games played
    "wins",
    "draws",  # draws and unfinished games
    "losses",
    "score",  # points per game
    "anchor",  # this agent's rating is fixed at 0 (the others are relative to it)
    "prior",  # the weak prior was needed (a perfect record)
)
#: make_data's ladder: games per pair of agents, and the search agents' budget (mcts
#: iterations, ismcts playouts a move), chosen so the whole ladder takes about 20 minutes
#: on one core (docs/statistics.md, "Agent ladder")
DEFAULT_GAMES_PER_PAIR = 4
DEFAULT_BUDGET = 5
#: Fairy-Stockfish's depth in the ladder (a fraction of a second a move)
FSF_DEPTH = 2
#: the standard deviation of the weak prior on centred ratings, only used for perfect records
PRIOR_SD = 1000.0
#: 400 / ln 10: Elo points per unit of log-odds
ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Match:
    """One ladder game: the pair, who sits where, its seed and settings."""

    game: str
    a: str
    b: str
    index: int
    seated: tuple[str, str]
    seed: str
    options: dict[str, Any]


def matches(
    game: str, agents: Sequence[str], games_per_pair: int, seed: int = EXPERIMENT_SEED
) -> list[Match]:
    """The games of a round robin, pair by pair (in the order the agents are given), seats
    alternating, each with its seed and the game's setting `data_options(index // 2)`."""
    cls = registry.game_class(game)
    if len(set(agents)) != len(agents) or len(agents) < 2:
        raise RulesError(f"a round robin needs two or more different agents, got {list(agents)}")
    found = []
    for a, b in itertools.combinations(agents, 2):
        for i in range(games_per_pair):
            seated = (a, b) if i % 2 == 0 else (b, a)
            options = parts.data_options(cls, i // 2)
            found.append(Match(game, a, b, i, seated, f"{seed}:{game}:{a}:{b}:{i}", options))
    return found


def play_match(match: Match, max_plies: int | None = None) -> dict[str, Any]:
    """Play one ladder game (`simulate.play_game`: each agent sees only its view) and return
    its row of `RESULT_COLUMNS`."""
    game = registry.load_game(match.game, **match.options)
    cap = max_plies or game.DATA_MAX_PLIES
    started = time.perf_counter()
    record = play_game(game, match.seated, match.seed, cap, match.index)
    seconds = time.perf_counter() - started
    result = record.result or {}
    finished = bool(result.get("finished", False))
    winner = result.get("winner") if finished else None
    a_seat = match.seated.index(match.a)
    score_a = 0.5 if winner is None else float(winner == a_seat)
    return {
        "game": match.game,
        "a": match.a,
        "b": match.b,
        "index": match.index,
        "agent_0": match.seated[0],
        "agent_1": match.seated[1],
        "seed": match.seed,
        "options": json.dumps(match.options, sort_keys=True),
        "actions": len(record.actions),
        "finished": finished,
        "winner": winner,
        "reason": result.get("reason", ""),
        "score_a": score_a,
        "seconds": round(seconds, 3),
    }


def round_robin(
    game: str,
    agents: Sequence[str],
    games_per_pair: int = 10,
    *,
    seed: int = EXPERIMENT_SEED,
    max_plies: int | None = None,
    workers: int = 1,
    progress: bool = True,
    bar: Any = None,
) -> pd.DataFrame:
    """Every pair of `agents` plays `games_per_pair` games of `game` (two seats), seats
    alternating; one row per game (`RESULT_COLUMNS`), in the order of `matches`. Each agent is
    checked first (a RulesError if it cannot play the game here: `fsf` without a variant or
    an engine, `perfect` without a ready table). `workers`: processes (0: all cores); the
    rows are the same either way. A tqdm bar over the games, or `bar` (updated per game)."""
    loaded = registry.load_game(game)
    if loaded.num_players != 2:
        raise RulesError(f"the ladder rates two-seat games; {game} has {loaded.num_players}")
    for spec in agents:
        check_agent(spec, loaded)
    todo = matches(game, agents, games_per_pair, seed)
    own = bar is None
    bar = bar if bar is not None else tqdm(total=len(todo), unit="game", desc=game, disable=not progress)
    rows = []
    try:
        for row in _played(todo, max_plies, workers):
            rows.append(row)
            bar.update()
    finally:
        if own:
            bar.close()
    return results_frame(rows)


def _played(todo: list[Match], max_plies: int | None, workers: int) -> Iterator[dict[str, Any]]:
    """The rows of `todo` in order, on this process or a pool (games are independent)."""
    workers = (os.cpu_count() or 1) if workers == 0 else workers
    play = functools.partial(play_match, max_plies=max_plies)
    if workers <= 1 or len(todo) <= 1:
        yield from map(play, todo)
        return
    # spawn, not fork: a forked worker would inherit the engines opened here (a Fairy-Stockfish
    # process whose reader thread does not survive the fork)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            yield from pool.map(play, todo)  # one game a task: the search games are long
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def results_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Rows of games as the typed results table (also after reading it back from Parquet)."""
    frame = pd.DataFrame(list(rows), columns=list(RESULT_COLUMNS))
    frame["winner"] = pd.to_numeric(frame["winner"]).astype("Int64")
    frame["finished"] = frame["finished"].astype(bool)
    frame["score_a"] = frame["score_a"].astype(float)
    return frame


def default_agents(game: core.Game, budget: int = DEFAULT_BUDGET) -> list[str] | None:
    """make_data's line-up for `game`: random, greedy, mcts:<budget>, ismcts:<budget>, plus
    fsf:<FSF_DEPTH> when the game declares a Fairy-Stockfish variant and the engine is here,
    plus perfect when the game's solved table is ready (never built for this). None for a
    game of more than two seats."""
    if game.num_players != 2:
        return None
    agents = ["random", "greedy", f"mcts:{budget}", f"ismcts:{budget}"]
    for spec in (f"fsf:{FSF_DEPTH}", "perfect"):
        try:
            check_agent(spec, game)
        except RulesError:
            continue  # the game declares no such engine, or it is not installed or built here
        agents.append(spec)
    return agents


# --- ratings ----------------------------------------------------------------------------------


def ratings(results: pd.DataFrame, anchor: str | None = "random") -> pd.DataFrame:
    """Elo ratings per game and agent from ladder results (columns game, a, b, score_a),
    fitted by maximum likelihood (module docstring); one row per agent (`RATING_COLUMNS`),
    best first within each game. `anchor`: the agent fixed at 0 when it played (None, or an
    agent that did not play: the ratings have mean 0)."""
    missing = [c for c in ("game", "a", "b", "score_a") if c not in results.columns]
    if missing:
        raise RulesError(f"ratings: the results have no column {missing[0]!r}")
    tables = [_game_ratings(game, group, anchor) for game, group in results.groupby("game", sort=False)]
    if not tables:
        return pd.DataFrame(columns=list(RATING_COLUMNS))
    return pd.concat(tables, ignore_index=True)


def _game_ratings(game: str, results: pd.DataFrame, anchor: str | None) -> pd.DataFrame:
    agents = list(dict.fromkeys(itertools.chain.from_iterable(zip(results["a"], results["b"], strict=True))))
    index = {agent: k for k, agent in enumerate(agents)}
    first = results["a"].map(index).to_numpy()
    second = results["b"].map(index).to_numpy()
    scores = results["score_a"].to_numpy(dtype=float)
    fixed = index.get(anchor) if anchor is not None else None
    prior = not _has_maximum(len(agents), first, second, scores)
    fit, covariance = fit_elo(len(agents), first, second, scores, fixed=fixed, prior=prior)
    se = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    z = float(norm.ppf(0.975))
    table = pd.DataFrame(
        {
            "game": game,
            "agent": agents,
            "rating": fit,
            "ci_low": fit - z * se,
            "ci_high": fit + z * se,
            "se": se,
        }
    )
    table = table.join(_tally(agents, results), on="agent")
    table["anchor"] = [k == fixed for k in range(len(agents))]
    table["prior"] = prior
    return table.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)


def _tally(agents: list[str], results: pd.DataFrame) -> pd.DataFrame:
    """Games, wins, draws (and unfinished games), losses and points per game, per agent."""
    rows = []
    for agent in agents:
        as_a = results.loc[results["a"] == agent, "score_a"]
        as_b = 1.0 - results.loc[results["b"] == agent, "score_a"]
        points = pd.concat([as_a, as_b])
        rows.append(
            {
                "agent": agent,
                "n": len(points),
                "wins": int((points == 1.0).sum()),
                "draws": int(((points > 0.0) & (points < 1.0)).sum()),
                "losses": int((points == 0.0).sum()),
                "score": float(points.mean()) if len(points) else math.nan,
            }
        )
    return pd.DataFrame(rows).set_index("agent")


def _has_maximum(k: int, first: np.ndarray, second: np.ndarray, scores: np.ndarray) -> bool:
    """Whether the likelihood has a finite maximum: the graph with an edge a -> b whenever a
    took any point from b is strongly connected (no group won everything against the rest;
    Zermelo 1929, Ford 1957)."""
    took = np.concatenate([first[scores > 0], second[scores < 1]])
    gave = np.concatenate([second[scores > 0], first[scores < 1]])
    graph = csr_matrix((np.ones(len(took)), (took, gave)), shape=(k, k))
    count, _ = connected_components(graph, directed=True, connection="strong")
    return count == 1


def fit_elo(
    k: int,
    first: np.ndarray,
    second: np.ndarray,
    scores: np.ndarray,
    *,
    fixed: int | None = None,
    prior: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The maximum-likelihood Elo ratings of `k` agents from games (first[g] against
    second[g], first's score scores[g] in [0, 1]) and their covariance (the inverse observed
    information). `fixed`: the agent held at 0, else the ratings have mean 0. `prior`: add
    the weak Gaussian prior on the centred ratings (PRIOR_SD)."""
    centre = np.eye(k) - 1.0 / k  # projects onto ratings with mean 0
    free = [j for j in range(k) if j != (0 if fixed is None else fixed)]
    ridge = centre / (PRIOR_SD / ELO) ** 2 if prior else np.zeros((k, k))

    def full(theta: np.ndarray) -> np.ndarray:
        ratings = np.zeros(k)
        ratings[free] = theta
        return ratings

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        r = full(theta)
        x = r[first] - r[second]  # log-odds of the first agent's win
        nll = float(np.sum(scores * np.logaddexp(0.0, -x) + (1 - scores) * np.logaddexp(0.0, x)))
        residual = scores - _expit(x)
        grad = np.zeros(k)
        np.add.at(grad, first, -residual)
        np.add.at(grad, second, residual)
        grad += ridge @ r
        return nll + 0.5 * float(r @ ridge @ r), grad[free]

    def hessian(theta: np.ndarray) -> np.ndarray:
        return _information(k, first, second, full(theta))[np.ix_(free, free)] + ridge[np.ix_(free, free)]

    solved = minimize(objective, np.zeros(k - 1), jac=True, hess=hessian, method="trust-exact")
    if not solved.success and np.linalg.norm(solved.jac) > 1e-4:
        raise RulesError(f"the Elo fit did not converge: {solved.message}")
    ratings = full(solved.x)
    covariance = np.zeros((k, k))
    covariance[np.ix_(free, free)] = np.linalg.inv(hessian(solved.x))
    if fixed is None:  # the reference was agent 0 only to fit; report ratings with mean 0
        ratings, covariance = centre @ ratings, centre @ covariance @ centre
    return ratings * ELO, covariance * ELO**2


def _information(k: int, first: np.ndarray, second: np.ndarray, ratings: np.ndarray) -> np.ndarray:
    """The Hessian of the negative log-likelihood (log-odds units): it does not depend on the
    outcomes, only on p(1 - p) of each game."""
    p = _expit(ratings[first] - ratings[second])
    weight = p * (1 - p)
    info = np.zeros((k, k))
    np.add.at(info, (first, first), weight)
    np.add.at(info, (second, second), weight)
    np.add.at(info, (first, second), -weight)
    np.add.at(info, (second, first), -weight)
    return info


def _expit(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # the logistic function, without overflow
