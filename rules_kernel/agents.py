"""Players for simulations and for the explorer: random, greedy and a search agent.

An agent only ever sees its player's view: `choose(view)` gets what that player may know,
nothing else. Whoever seats an agent (`simulate`, the ladder, the explorer's computer player)
hands it `agent_view(state, player)`, the view with perfect memory: a player forgets no card
they saw turned up (rules/NOTES.md, "Information"). Search over hidden information imagines
full states consistent with the view (`view.determinize(rng)`), the information-set Monte
Carlo tree search of Cowling, Powley and Whitehouse (2012). Every agent is seeded and
reproducible.

    agent = make_agent("mcts:200", seed=1)
    move = agent.choose(agent_view(state, state.current_player))

Agents over the analysis engines (`rules_kernel.analysis`) play the engine's best move on the
view they are given: `ismcts:<playouts>` (the analysis tree search) and `fsf:<depth>`
(Fairy-Stockfish, for the games that declare a variant it plays).
"""

from __future__ import annotations

import math
import random
from typing import Any

from rules_kernel import parts
from rules_kernel.core import CHANCE, Game, Move, RulesError, State

# `evaluate` lives below both this module and the analysis engines, which use it too (issue 45
# item 5: analysis never imports the agents); it stays a public name here
from rules_kernel.evaluation import evaluate as evaluate
from rules_kernel.info import info


def agent_view(state: State, player: int) -> State:
    """What an agent playing `player` is given to choose on: the player's view with perfect
    memory (`state.view(player, memory=True)`). Every War Stories flip is seen by both
    players and a player may remember it (rules/NOTES.md, "Information"); the other games
    forget nothing, so there it is `view(player)`. A board shown to a person keeps
    `view(player)`, what lies in sight."""
    return state.view(player, memory=True)


class Agent:
    """Chooses a legal move from a view. Subclasses override `choose`."""

    name = "agent"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: State) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class RandomAgent(Agent):
    """A legal move uniformly at random."""

    name = "random"

    def choose(self, view: State) -> Move:
        return self.rng.choice(view.legal_moves())


class GreedyAgent(Agent):
    """One ply: the move whose result scores best (over a few imagined full states when
    the view hides something); ties broken at random."""

    name = "greedy"

    def __init__(self, seed=None, samples: int = 3) -> None:
        super().__init__(seed)
        self.samples = samples

    def choose(self, view: State) -> Move:
        player = view.current_player
        worlds = [view.determinize(self.rng) for _ in range(self.samples)]
        best, best_score = [], -math.inf
        for move in view.legal_moves():
            score = sum(evaluate(_after(world, move, self.rng), player) for world in worlds)
            if score > best_score + 1e-12:
                best, best_score = [move], score
            elif abs(score - best_score) <= 1e-12:
                best.append(move)
        return self.rng.choice(best)


def _after(state: State, move: Move, rng: random.Random) -> State:
    state = state.apply(str(move))
    while state.current_player == CHANCE and not state.is_terminal():
        state = state.apply(state.sample_chance(rng))
    return state


class MCTSAgent(Agent):
    """Information-set MCTS: each iteration imagines a full state from the view, walks the
    tree by UCB1 among the moves legal there, plays randomly to the end (or a depth limit,
    then `evaluate`), and backs the result up for the player who moved at each node."""

    name = "mcts"

    def __init__(
        self, seed=None, iterations: int = 200, exploration: float = 1.4, rollout_depth: int = 80
    ) -> None:
        super().__init__(seed)
        self.iterations, self.exploration, self.rollout_depth = iterations, exploration, rollout_depth

    def choose(self, view: State) -> Move:
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        root = _Node(None)
        for _ in range(self.iterations):
            self._iterate(root, view.determinize(self.rng))
        by_text = {str(m): m for m in moves}
        visits = {key: child.visits for key, child in root.children.items() if key in by_text}
        most = max(visits.values())
        return by_text[self.rng.choice(sorted(k for k, v in visits.items() if v == most))]

    def _iterate(self, root: _Node, state: State) -> None:
        node, path = root, []
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state = state.apply(state.sample_chance(self.rng))
                continue
            legal = {str(m): m for m in state.legal_moves()}
            untried = [k for k in legal if k not in node.children]
            player = state.current_player
            if untried:
                key = self.rng.choice(sorted(untried))
                node.children[key] = _Node(player)
                node, state = node.children[key], state.apply(legal[key])
                path.append(node)
                break
            for key in legal:
                node.children[key].available += 1
            key = max(sorted(legal), key=lambda k: node.children[k].ucb(self.exploration))
            node, state = node.children[key], state.apply(legal[key])
            path.append(node)
        result = self._rollout(state)
        for visited in path:
            visited.visits += 1
            visited.value += result[visited.player]

    def _rollout(self, state: State) -> dict[int, float]:
        for _ in range(self.rollout_depth):
            if state.is_terminal():
                break
            if state.current_player == CHANCE:
                state = state.apply(state.sample_chance(self.rng))
            else:
                state = state.apply(self.rng.choice(state.legal_moves()))
        return {p: evaluate(state, p) for p in range(state.game.num_players)}


class _Node:
    __slots__ = ("player", "children", "visits", "value", "available")

    def __init__(self, player: int | None) -> None:
        self.player = player  # who chose the move leading here
        self.children: dict[str, _Node] = {}
        self.visits, self.value, self.available = 0, 0.0, 1

    def ucb(self, c: float) -> float:
        if self.visits == 0:
            return math.inf
        return self.value / self.visits + c * math.sqrt(math.log(max(1, self.available)) / self.visits)


class PerfectAgent(Agent):
    """Perfect play from the solved table of a game that declares one (`Game.SOLVED_TABLE`:
    Yōkai 3x4): a move chosen at random among those that keep the position's value. The table
    is built once (`rules-explorer solve <game>`); the first move opens it (a RulesError naming
    that command if it is missing)."""

    name = "perfect"

    def __init__(self, seed=None, tablebase=None) -> None:
        super().__init__(seed)
        self.tablebase = tablebase

    def choose(self, view: State) -> Move:
        if self.tablebase is None:
            self.tablebase = parts.open_solved_table(view.game)
        return self.rng.choice(self.tablebase.optimal_moves(view))


class AnalysisAgent(Agent):
    """The best move of an analysis engine (`rules_kernel.analysis.analyse`) on the view it is
    given, analysed as that view's player knows it. Subclasses say which engine and limit."""

    #: a bound on one analysis in wall time, far above what the budgets take: the budget
    #: (playouts, depth) decides, so the same seed gives the same moves on any machine
    SECONDS = 600.0

    def choose(self, view: State) -> Move:
        from rules_kernel.analysis import analyse  # here: the engines' imports are paid when played

        engine = self.engine(view)  # first: an agent that cannot play this game says so at once
        moves = view.legal_moves()
        if len(moves) == 1:
            return moves[0]
        found = analyse(view, viewer=view.current_player, engine=engine, limit=self.limit())
        return view.parse_move(found.best.move)

    def engine(self, view: State) -> Any:
        raise NotImplementedError

    def limit(self) -> Any:
        raise NotImplementedError


class TreeSearchAgent(AnalysisAgent):
    """`ismcts:<playouts>`: the analysis tree search (`TreeSearchEngine`, heuristic ordering
    and cut-off rollouts) with a number of playouts a move; each move is searched with a seed
    drawn from the agent's own generator, so a game is reproducible from the agent's seed."""

    name = "ismcts"

    def __init__(self, seed=None, playouts: int = 200) -> None:
        super().__init__(seed)
        self.playouts = playouts

    def engine(self, view: State) -> Any:
        from rules_kernel.analysis import TreeSearchEngine

        return TreeSearchEngine(seed=self.rng.getrandbits(64))

    def limit(self) -> Any:
        from rules_kernel.analysis import Limit

        return Limit(seconds=self.SECONDS, playouts=self.playouts)


class FairyStockfishAgent(AnalysisAgent):
    """`fsf:<depth>`: Fairy-Stockfish searching to a depth, through the analysis wrapper (our
    rules at the root), for a game that declares its variant (`Game.FAIRY_STOCKFISH_VARIANT`).
    A RulesError on the first move for any other game, or when the engine is not installed.
    The engine is deterministic at a fixed depth; the seed only matters where the wrapper
    falls back to the tree search (a position the engine's rules end while ours go on)."""

    name = "fsf"

    def __init__(self, seed=None, depth: int = 4) -> None:
        super().__init__(seed)
        self.depth = depth

    def engine(self, view: State) -> Any:
        from rules_kernel.analysis import get_engine

        if type(view.game).FAIRY_STOCKFISH_VARIANT is None:
            raise RulesError(f"agent fsf:{self.depth}: Fairy-Stockfish does not play {view.game.id}")
        return get_engine(view.game, "fairy-stockfish")  # kept open: one process for a whole run

    def limit(self) -> Any:
        from rules_kernel.analysis import Limit

        # playouts bound the tree search of the wrapper's fallback; the engine ignores them
        return Limit(seconds=self.SECONDS, depth=self.depth, playouts=200)


AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "perfect": PerfectAgent,
    "ismcts": TreeSearchAgent,
    "fsf": FairyStockfishAgent,
}
#: the agents that take a number, and what it is
BUDGETS = {"mcts": "iterations", "ismcts": "playouts", "fsf": "depth"}
EXAMPLES = {"mcts": "mcts:400", "ismcts": "ismcts:50", "fsf": "fsf:4"}
#: the agents that need one: a bare 'ismcts' would hide its budget in a name
NEEDS_BUDGET = ("ismcts", "fsf")
SPECS = "random, greedy, perfect, mcts or mcts:<iterations>, ismcts:<playouts>, fsf:<depth>"


def make_agent(spec: str, seed: int | str | None = None) -> Agent:
    """An agent from its spec: 'random', 'greedy', 'perfect', 'mcts' or 'mcts:<iterations>',
    'ismcts:<playouts>', 'fsf:<depth>'. RulesError for anything else."""
    name, colon, arg = spec.partition(":")
    if name not in AGENTS:
        raise RulesError(f"unknown agent {spec!r}; agents: {SPECS}")
    if not colon and name not in NEEDS_BUDGET:
        return AGENTS[name](seed)
    if name not in BUDGETS:
        raise RulesError(
            f"agent {spec!r}: {name} takes no number (only mcts takes iterations, ismcts playouts "
            "and fsf a depth: mcts:400, ismcts:50, fsf:4)"
        )
    if not (arg.isascii() and arg.isdigit()) or int(arg) < 1:
        raise RulesError(
            f"agent {spec!r}: give {name}:<{BUDGETS[name]}>, a whole number >= 1, like {name}:50"
        )
    return AGENTS[name](seed, **{BUDGETS[name]: int(arg)})


def check_agent(spec: str, game: Game) -> None:
    """RulesError unless the agent `spec` can play `game` here: Fairy-Stockfish only for a game
    that declares its variant, with the engine installed; perfect play only where the game's
    solved table is ready. Nothing is opened for the others."""
    agent = make_agent(spec)
    if isinstance(agent, FairyStockfishAgent):
        agent.engine(game.initial_state())  # opens (and keeps) the engine, or says why not
    elif isinstance(agent, PerfectAgent) and info(game).solved_table is None:
        raise RulesError(f"agent perfect: {game.id} declares no solved table")
    elif isinstance(agent, PerfectAgent) and parts.solved_table_availability(game) != "ready":
        raise RulesError(f"agent perfect: the solved table of {game.id} is not ready here")
