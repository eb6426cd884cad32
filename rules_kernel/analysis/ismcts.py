"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

For games with hidden cards, hands and bags (War Stories, To War!, War Chest), and for any
game as the fallback engine. Each iteration imagines one full state consistent with what the
analysis may know — `view.determinize(rng)` of the viewer's view, never the true state —
walks the tree among the moves legal in that world, adds one node, plays at random for at
most `rollout_actions` actions (none by default) and scores the end: a finished game by its
result (1 win, 1/2 draw, 0 loss for each seat), a cut-off one by the game's heuristic
(`rules_kernel.evaluation.evaluate`, as the agents use it, mapped from [-1, 1] to [0, 1]).
Chance events are sampled where they occur
and do not branch the tree (a node is a sequence of decisions); a player's sub-decisions (a War
Stories flip, a War Chest follow-up) are nodes of that player like any other.

Progressive bias (Chaslot et al., 2008): the first time a node is reached in a world, each of
its moves is played once and its position scored by the heuristic for the mover (the greedy
agent's look); that score, the move's *prior*, counts as `prior_weight` imagined playouts in
the move's mean, so its weight fades as 1 / (visits + prior_weight). With few playouts and
dozens of near-equal moves (War Chest) the search then spends them deepening the moves the
heuristic likes instead of trying each once with a noisy random rollout.

Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014), off by default: each
node also keeps the heuristic's value backed up by minimax over the moves tried below it (the
best for whoever chooses there), and selection mixes it into the playouts' mean with weight
`minimax_weight`; with `expand_leaf` a new leaf is expanded at once and scored by its best move,
a ply deeper, so even one playout a move sees the reply that takes a piece left hanging. Against
the greedy agent neither helped (docs/analysis.md has the figures): in a world dealt at random a
best reply also knows the cards nobody has seen, and War Chest's heuristic, searched deeper,
plays for safety where greedy races for the locations.

Seeded: the same seed, position and number of playouts give the same analysis.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace

from rules_kernel.analysis._types import (
    Analysis,
    Estimate,
    Limit,
    MoveLine,
    Search,
    StopFlag,
    of_outcome,
    score_margin,
)
from rules_kernel.core import CHANCE, Game, State
from rules_kernel.evaluation import evaluate

#: a random playout stops after this many actions (chance included) and is scored by the
#: heuristic. None by default: the new leaf is scored by the heuristic at once. Against the
#: greedy agent (20 playouts a move, 20 games) War Chest went from 0 of 20 with 10 random actions
#: to 8 of 20 without, at a quarter of the time a move: random coin plays mostly add noise
ROLLOUT_ACTIONS = 0
#: UCB1's exploration constant for scores in [0, 1], unless the game declares its own
#: (`Game.SEARCH_EXPLORATION`: where the heuristic's differences between moves are smaller)
EXPLORATION = 0.2
#: how many imagined playouts a move's heuristic prior counts for (0: no progressive bias)
PRIOR_WEIGHT = 2.0
#: how much of a move's value is its implicit minimax value (the rest: the playouts' mean with
#: the prior); 0 is the search without minimax backups (the default: see the module's text)
MINIMAX_WEIGHT = 0.0
#: a new leaf's moves are scored at once and its value is the best of them (a ply deeper)
EXPAND_LEAF = False
#: a prior is the heuristic's mean over this many worlds the mover may be in (1: the playout's)
PRIOR_WORLDS = 1
#: the tree goes at most this many decisions below the root (None: no bound); a move at the
#: bound is scored by the heuristic in every world it is played in, so its value is the mean
#: over the worlds rather than one world's
MAX_DEPTH = None
#: the principal line follows children visited at least this often
LINE_MIN_VISITS = 4
#: progress reports at most this often (seconds)
PROGRESS_EVERY = 0.1


class _Node:
    """A decision point: statistics of the move that led here, for every seat."""

    __slots__ = (
        "mover",
        "children",
        "visits",
        "totals",
        "available",
        "entered",
        "won_at_once",
        "prior",
        "minimax",
    )

    def __init__(self, mover: int | None, seats: int, prior: float = 0.5) -> None:
        self.mover = mover  # the seat that chose the move leading here
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * seats
        self.available = 0  # iterations in which the move was legal (ISMCTS' subset-armed UCB)
        self.entered = self.won_at_once = 0  # times played; times it ended the game, won
        self.prior = prior  # the heuristic's score in [0, 1] for the mover after the move
        self.minimax = prior  # the same backed up by minimax over the moves tried below

    @property
    def proven(self) -> bool:
        """The move won the game on the spot in every world it was played in."""
        return self.entered > 0 and self.won_at_once == self.entered

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.5

    def ucb(self, exploration: float, prior_weight: float, minimax_weight: float) -> float:
        """UCB1 on the mean with the prior counted as `prior_weight` playouts (progressive
        bias: its weight fades as the move's own playouts accumulate), mixed with the implicit
        minimax value by `minimax_weight`."""
        explore = exploration * math.sqrt(math.log(max(self.available, 1)) / (self.visits + 1))
        if prior_weight == 0.0:
            if self.visits == 0:
                return math.inf
            mean = self.totals[self.mover] / self.visits
        else:
            mean = (self.totals[self.mover] + prior_weight * self.prior) / (self.visits + prior_weight)
        return (1.0 - minimax_weight) * mean + minimax_weight * self.minimax + explore


class TreeSearchEngine:
    """ISMCTS over the viewer's information set; seeded."""

    name = "ismcts"

    def __init__(
        self,
        *,
        seed: int | str = 0,
        exploration: float | None = None,
        rollout_actions: int = ROLLOUT_ACTIONS,
        ordered: bool = True,
        heuristic: Callable[[State, int], float] = evaluate,
        prior_weight: float = PRIOR_WEIGHT,
        minimax_weight: float = MINIMAX_WEIGHT,
        expand_leaf: bool = EXPAND_LEAF,
        prior_worlds: int = PRIOR_WORLDS,
        max_depth: int | None = MAX_DEPTH,
    ) -> None:
        """`exploration`: UCB1's constant; None takes the game's (`Game.SEARCH_EXPLORATION`),
        else `EXPLORATION`. `ordered`: score every move of a node by the heuristic when the
        node is first reached (its prior), try untried moves best prior first (else at random),
        and with `prior_weight` > 0 count the prior as that many playouts of the move
        (progressive bias).
        `minimax_weight`: the share of the implicit minimax value in a move's value (ordered
        only); `expand_leaf`: score a new leaf by its best move a ply deeper (ordered only).
        `prior_worlds`: a prior is the mean score over this many worlds the mover may be in
        (the playout's and others dealt from the mover's view of it), as greedy averages three.
        `max_depth`: the tree's decisions below the root at most (None: no bound); a move at the
        bound is a leaf for good, scored by the heuristic in each world it is played in."""
        self.seed, self.exploration = seed, exploration
        self.rollout_actions, self.heuristic, self.ordered = rollout_actions, heuristic, ordered
        self.prior_weight = prior_weight if ordered else 0.0
        self.minimax_weight = minimax_weight if ordered else 0.0
        self.expand_leaf = expand_leaf and ordered
        self.backs_up = self.minimax_weight > 0.0 or self.expand_leaf  # keeps minimax values
        self.prior_worlds = max(1, prior_worlds)
        if max_depth is not None and max_depth < 1:
            raise ValueError(f"max_depth must be None (no bound) or at least 1 decision, not {max_depth}")
        self.max_depth = max_depth

    def close(self) -> None:
        """Nothing to release."""

    def analyse(
        self,
        state: State,
        *,
        viewer: int | None = None,
        limit: Limit | None = None,
        progress: Callable[[Analysis], None] | None = None,
        stop: StopFlag | None = None,
    ) -> Analysis:
        """Analyse what `viewer` knows of `state` (`state.view(viewer)`: the only thing read
        from `state`), or the state itself when viewer is None (all-seeing)."""
        limit = limit or Limit()
        if limit.seconds is None and limit.playouts is None and limit.nodes is None:
            limit = replace(limit, seconds=Limit().seconds)  # a depth alone bounds no playout
        info = state if viewer is None else state.view(viewer)
        run = _Run(self, info, viewer, limit, stop)
        if not info.is_terminal():
            run.search(progress)
        result = run.analysis()
        if progress is not None:
            progress(result)
        return result


def exploration_for(engine: TreeSearchEngine, game: Game) -> float:
    """UCB1's constant for a search of `game`: the engine's own, else the game's declaration
    (`Game.SEARCH_EXPLORATION`), else `EXPLORATION`."""
    if engine.exploration is not None:
        return engine.exploration
    declared = type(game).SEARCH_EXPLORATION
    return EXPLORATION if declared is None else declared


class _Run:
    """One analysis: the tree, the random generator and the counters."""

    def __init__(
        self, engine: TreeSearchEngine, info: State, viewer: int | None, limit: Limit, stop: StopFlag | None
    ) -> None:
        self.engine, self.info, self.viewer = engine, info, viewer
        self.limit, self.stop = limit, stop
        self.rng = random.Random(f"ismcts:{engine.seed}")
        self.seats = info.game.num_players
        self.side: Callable[[int], int] = info.game.team  # who fights for which side
        self.root = _Node(None, self.seats)
        self.exploration = exploration_for(engine, info.game)
        self.floor = math.inf if engine.max_depth is None else engine.max_depth  # the deepest level
        self.started = time.perf_counter()
        self.playouts = self.actions = 0
        self.stopped = False

    def _more(self) -> bool:
        limit = self.limit
        if self.stop is not None and self.stop.is_set():
            self.stopped = True
            return False
        if limit.playouts is not None and self.playouts >= limit.playouts:
            return False
        if limit.nodes is not None and self.actions >= limit.nodes:
            return False
        if limit.seconds is not None and time.perf_counter() - self.started >= limit.seconds:
            return False
        return True

    def search(self, progress: Callable[[Analysis], None] | None) -> None:
        reported = time.perf_counter()
        while self._more():
            self._iterate(self.info.determinize(self.rng))
            self.playouts += 1
            if progress is not None and time.perf_counter() - reported >= PROGRESS_EVERY:
                progress(self.analysis())
                reported = time.perf_counter()

    # --- one iteration -------------------------------------------------------------------------
    def _iterate(self, world: State) -> None:
        node, path, levels = self.root, [self.root], []
        while not world.is_terminal():
            if world.current_player == CHANCE:
                world = self._step(world, world.sample_chance(self.rng))
                continue
            legal = {str(m): m for m in world.legal_moves()}
            keys = sorted(legal)  # the kernel's move order may follow string hashes
            after = self._expand(node, world, legal, keys)
            for key in keys:
                node.children[key].available += 1
            levels.append((node, keys))
            key = self._select(node, keys)
            child = node.children[key]
            path.append(child)
            world = after[key] if key in after else self._enter(child, world, legal[key])
            if child.visits == 0 or len(levels) >= self.floor:  # a new leaf, or the deepest: score it
                break
            node = child
        world, leaf = self._settle(world), path[-1]
        deeper = self.engine.expand_leaf and leaf is not self.root and not world.is_terminal()
        if deeper:
            legal = {str(m): m for m in world.legal_moves()}
            keys = sorted(legal)
            self._expand(leaf, world, legal, keys)
            levels.append((leaf, keys))
        if self.engine.backs_up:
            for visited, keys in reversed(levels):
                self._back_up(visited, keys)
        if deeper and self.engine.rollout_actions == 0:
            scores = [self._for_seat(leaf.minimax, leaf.mover, seat) for seat in range(self.seats)]
        else:
            scores = self._rollout(world)
        for visited in path:
            visited.visits += 1
            for seat in range(self.seats):
                visited.totals[seat] += scores[seat]

    def _back_up(self, node: _Node, keys: list[str]) -> None:
        """The node's implicit minimax value: the best of its moves legal in this world for
        whoever chooses among them, seen from the node's own mover."""
        if node.mover is None:
            return
        children = [node.children[key] for key in keys]
        best = max(child.minimax for child in children)
        node.minimax = self._for_seat(best, children[0].mover, node.mover)

    def _for_seat(self, value: float, mover: int, seat: int) -> float:
        """A value for `mover` seen by `seat`: the same for a partner, its complement for an
        opponent (the heuristic and the results are zero-sum between the sides)."""
        return value if self.side(mover) == self.side(seat) else 1.0 - value

    def _expand(self, node: _Node, world: State, legal: dict, keys: list[str]) -> dict[str, State]:
        """Add a child for each move legal here that has none. Ordered, each is played once in
        this world (its chance events settled, as the greedy agent does) and scored by the
        heuristic for the mover: its prior. Returns those worlds, to go on from without
        playing the chosen move again."""
        new = [k for k in keys if k not in node.children]
        if not new:
            return {}
        mover = world.current_player
        # a forced move needs no prior to be chosen, only to be backed up
        if not self.engine.ordered or (len(keys) == 1 and not self.engine.backs_up):
            for key in new:
                node.children[key] = _Node(mover, self.seats)
            return {}
        after, others = {}, self._worlds_of(world, mover)
        for key in new:
            node.children[key] = child = _Node(mover, self.seats)
            after[key] = self._settle(self._enter(child, world, legal[key]))
            score = self.engine.heuristic(after[key], mover)
            for other in others:
                score += self.engine.heuristic(self._settle(self._step(other, legal[key])), mover)
            child.prior = child.minimax = (score / (1 + len(others)) + 1.0) / 2.0
        return after

    def _worlds_of(self, world: State, mover: int) -> list[State]:
        """Other worlds the mover may be in, dealt from its view of this one, for the priors
        (none when the mover sees everything, or with one prior world)."""
        if self.engine.prior_worlds == 1:
            return []
        view = world.view(mover)
        if view is world:
            return []
        return [view.determinize(self.rng) for _ in range(self.engine.prior_worlds - 1)]

    def _select(self, node: _Node, keys: list[str]) -> str:
        """The move to play: by UCB1 with the progressive bias; without it, an untried move
        first (the best prior, ties at random), as in plain ISMCTS."""
        children = node.children
        if self.engine.prior_weight == 0.0:
            untried = [k for k in keys if children[k].visits == 0]
            if untried:
                best = max(children[k].prior for k in untried)
                return self.rng.choice([k for k in untried if children[k].prior >= best - 1e-12])
        engine = self.engine
        weights = self.exploration, engine.prior_weight, engine.minimax_weight
        return max(keys, key=lambda k: children[k].ucb(*weights))

    def _enter(self, node: _Node, world: State, move) -> State:
        """Play the node's move in this world, noting whether it won on the spot."""
        world = self._step(world, move)
        node.entered += 1
        outcome = world.outcome()
        node.won_at_once += outcome is not None and outcome.finished and node.mover in outcome.winners
        return world

    def _settle(self, world: State) -> State:
        """Sample the chance events up to the next decision (or the end)."""
        while world.current_player == CHANCE and not world.is_terminal():
            world = self._step(world, world.sample_chance(self.rng))
        return world

    def _step(self, world: State, action) -> State:
        self.actions += 1
        return world.apply(action)

    def _rollout(self, world: State) -> list[float]:
        rng = self.rng
        for _ in range(self.engine.rollout_actions):
            if world.is_terminal():
                break
            if world.current_player == CHANCE:
                world = self._step(world, world.sample_chance(rng))
            else:  # sorted: the kernel's move order may follow string hashes, which vary by process
                world = self._step(world, rng.choice(sorted(world.legal_moves(), key=str)))
        outcome = world.outcome()
        if outcome is not None:
            return [of_outcome(outcome, seat).win_probability for seat in range(self.seats)]
        return [(self.engine.heuristic(world, seat) + 1.0) / 2.0 for seat in range(self.seats)]

    # --- the answer ----------------------------------------------------------------------------
    def analysis(self) -> Analysis:
        info = self.info
        deciding = not info.is_terminal() and info.current_player != CHANCE
        player = info.current_player if deciding else (self.viewer or 0)
        ranked = sorted(
            self.root.children.items(),
            key=lambda kv: (not kv[1].proven, -kv[1].visits, -kv[1].mean(player), kv[0]),
        )
        lines = (
            [MoveLine(key, self._estimate(child, player), visits=child.visits) for key, child in ranked]
            if deciding
            else []
        )
        if lines:
            lines[0] = MoveLine(lines[0].move, lines[0].value, self._line(ranked[0][0]), lines[0].visits)
        if info.is_terminal():
            value = of_outcome(info.outcome(), player)
            values = tuple(of_outcome(info.outcome(), s).win_probability for s in range(self.seats))
        elif lines:
            best = ranked[0][1]
            value = lines[0].value
            values = tuple(best.mean(s) for s in range(self.seats))
        else:
            value = self._estimate(self.root, player)
            values = tuple(self.root.mean(s) for s in range(self.seats))
        search = Search(
            self.engine.name,
            nodes=self.actions,
            playouts=self.playouts,
            depth=self._depth(),
            seconds=round(time.perf_counter() - self.started, 6),
            exact=info.is_terminal(),
            stopped=self.stopped,
            notes=(
                f"seed {self.engine.seed}; rollouts cut after {self.engine.rollout_actions} actions; "
                f"prior weight {self.engine.prior_weight:g}; exploration {self.exploration:g}"
                + ("" if self.engine.max_depth is None else f"; tree at most {self.engine.max_depth} deep"),
            ),
        )
        return Analysis(
            info.game.id,
            info.to_text(),
            player,
            value,
            values,
            tuple(lines),
            lines[0].line if lines else (),
            search,
            self.viewer,
        )

    @staticmethod
    def _estimate(node: _Node, player: int) -> Estimate:
        mean = node.mean(player)
        return Estimate(mean, score_margin(mean, node.visits))

    def _line(self, best: str) -> tuple[str, ...]:
        """The best move, then the most visited child, again and again, while it is visited
        often enough (the line starts with the move ranked first, whatever its ties)."""
        line, node = [best], self.root.children[best]
        while node.children:
            key, child = max(node.children.items(), key=lambda kv: (kv[1].proven, kv[1].visits, kv[0]))
            if child.visits < LINE_MIN_VISITS:
                break
            line.append(key)
            node = child
        return tuple(line)

    def _depth(self) -> int:
        """The deepest node of the tree (decisions below the root)."""
        deepest, stack = 0, [(self.root, 0)]
        while stack:
            node, depth = stack.pop()
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in node.children.values())
        return deepest
