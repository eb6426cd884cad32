"""A game in progress: the tree of actions from a start position, and where we stand in it.

The log of actions is the truth (boardgame.io, lichess): a session is a tree whose root is
the start position (the initial state, or any state a position text gives) and whose every
other node is one action — a player's move or a chance outcome — with its comment. The
first child of a node is the main continuation, the others are variations. One node is the
current one; every view (board, move list, replay slider) reads the session and redraws
when its observers are told of a change.

    session = Session("yokai-3x4")
    session.play("b1a2")                 # a new node; the current node moves to it
    session.back(); session.play("b2b3") # a new move from a past position: a variation
    session.main_line()                  # root, b1a2 (the old line stays the main one)
    session.comment = "the quiet move"
    session.to_record()                  # the main line as a records.Record

States are immutable and computed, not stored: each node keeps its state only every
`checkpoint_every` plies (and the session keeps the most recent few it computed), so a
node's state is its nearest stored ancestor's replayed forward. The actions in the tree
were checked when they entered it, so that replay applies them without checking again.

Lichess style, not a redo stack: `undo()` steps back and the line stays in the tree
(`redo()` walks it again); playing a different move from a past position starts a variation
beside the old line instead of erasing it. Nothing in the tree is lost but by `delete`.
"""

from __future__ import annotations

import dataclasses
import random
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rules_kernel.agents import Agent, agent_view, make_agent
from rules_kernel.core import (
    CHANCE,
    Action,
    Game,
    IllegalMoveError,
    Outcome,
    RulesError,
    State,
    Turn,
    check_seat,
    next_turn,
)
from rules_kernel.records import Record, RecordedAction, RecordError, one_line

#: a node keeps its state when its ply is a multiple of this (the root always does)
CHECKPOINT_EVERY = 64
#: how many recently computed states the session keeps besides those (stepping back is cheap)
RECENT_STATES = 256
#: automatic actions (chance, agents) one call may play: a game of agents stops here, never loops
MAX_AUTOMATIC = 10_000
#: the record's `meta` key for the exported line's comments: {"<ply>": text}
COMMENTS_KEY = "comments"
#: a record's other lines (a tree, as PGN's variations) live in its meta under this key:
#: [{"ply": p, "actions": [...], "variations": [...]}] where p is the ply the line branches
#: from (its first action is played in the position after p plies); nested lines branch from
#: this one's positions, at their own (absolute) ply. Their comments are in "comments" too,
#: as {"<ply>": text} per line.
VARIATIONS_KEY = "variations"
#: the actions of all the other lines of a record together, at most
MAX_VARIATION_ACTIONS = 20_000

#: what a `Change` may name: the current node moved, nodes were added, removed or reordered,
#: a comment changed, a setting (agents, chance by hand) changed
NODE, TREE, COMMENT, SETTINGS = "node", "tree", "comment", "settings"


class SessionError(RulesError):
    """A navigation or edit the tree cannot do: no such ply, a node of another session or one
    deleted, deleting the start, a record of a start that its position text does not give."""


@dataclass(frozen=True)
class Change:
    """What an observer is told: the session, and what changed in it (a set of NODE, TREE,
    COMMENT, SETTINGS). One call of a session method gives at most one Change."""

    session: Session
    kinds: frozenset[str]


class Node:
    """One position of the tree: the root (the start, `action` None) or the one after `action`.

    `children` are the actions played from here: the main continuation first, then the
    variations. Nodes are changed only through their session (which tells its observers)."""

    __slots__ = ("parent", "action", "ply", "_children", "_comment", "_chosen", "_state", "_store", "_turn")

    def __init__(self, parent: Node | None, action: Action | None, store: _StateStore) -> None:
        self.parent = parent
        self.action = action
        self.ply: int = 0 if parent is None else parent.ply + 1
        self._children: tuple[Node, ...] = ()
        self._comment = ""
        #: the child the current line goes on through. Every step down sets it, so the path to
        #: the current node always follows these: stepping back and forth keeps the line.
        self._chosen: Node | None = None
        self._state: State | None = None  # kept at checkpoints only
        self._store = store
        #: (the turn of this node's action, the turns begun up to it): `turn`, worked out once
        self._turn: tuple[Turn | None, int] | None = (None, 0) if parent is None else None

    @property
    def children(self) -> tuple[Node, ...]:
        return self._children

    @property
    def comment(self) -> str:
        return self._comment

    @property
    def state(self) -> State:
        """The position at this node (computed from the nearest stored ancestor)."""
        return self._store.state_of(self)

    @property
    def notation(self) -> str | None:
        return None if self.action is None else str(self.action)

    @property
    def is_chance(self) -> bool:
        return self.action is not None and self.action.is_chance

    @property
    def turn(self) -> Turn | None:
        """The rulebook's turn the action that led here belongs to (`core.turns`: numbered
        from the start of the tree, every player's turns together; a follow-up, a second flip,
        a push or a draw in the middle of a turn belongs to that turn); None at the root and
        for chance between turns (a deal, a round's draws). Worked out once per node, from
        the nearest node that knows its own."""
        return self._turn_and_count()[0]

    def _turn_and_count(self) -> tuple[Turn | None, int]:
        if self._turn is not None:
            return self._turn
        down: list[Node] = []
        node: Node = self
        while node._turn is None:
            down.append(node)
            node = node.parent  # the root always knows (None, 0)
        last, count = node._turn
        state = None
        for step in reversed(down):
            # the states walked forward here, as `Session.states` does: a long line's turns
            # cost one replay from the nearest stored state, not one per node
            before = step.parent
            state = self._store.peek(before) or (state._successor(before.action) if state else before.state)
            last, count = next_turn(state, last, count)
            step._turn = (last, count)
        return self._turn

    def path(self) -> list[Node]:
        """The nodes from the root to this one, both included (`path()[p].ply == p`)."""
        nodes = [self]
        while nodes[-1].parent is not None:
            nodes.append(nodes[-1].parent)
        return nodes[::-1]

    def is_main_line(self) -> bool:
        """Whether every step from the root to here is a first child."""
        node = self
        while node.parent is not None:
            if node.parent._children[0] is not node:
                return False
            node = node.parent
        return True

    def child(self, notation: str) -> Node | None:
        """The child reached by the action written `notation`, if it was played."""
        return next((c for c in self._children if str(c.action) == notation), None)

    def __repr__(self) -> str:
        what = "start" if self.action is None else f"{'chance ' if self.is_chance else ''}{self.action}"
        return f"<Node ply {self.ply}: {what}, {len(self._children)} children>"


class _StateStore:
    """Each node's state, computed lazily: checkpoints live on their nodes, recent states in
    a bounded LRU, anything else is replayed from its nearest known ancestor (and the states
    of that replay become the recent ones, so stepping back along it costs nothing)."""

    def __init__(self, every: int, recent: int) -> None:
        if every < 1 or recent < 1:
            raise ValueError(f"checkpoint_every and recent_states must be >= 1, not {every}, {recent}")
        self.every, self.size = every, recent
        self.recent: OrderedDict[Node, State] = OrderedDict()

    def state_of(self, node: Node) -> State:
        known = self._known(node)
        if known is not None:
            return known
        path = []
        while known is None:
            path.append(node)
            node = node.parent
            known = self._known(node)
        for step in reversed(path):
            known = known._successor(step.action)  # checked when the node was made
            self.remember(step, known)
        return known

    def peek(self, node: Node) -> State | None:
        """The state if it is known, without computing it or refreshing the LRU."""
        return node._state if node._state is not None else self.recent.get(node)

    def _known(self, node: Node) -> State | None:
        if node._state is not None:
            return node._state
        state = self.recent.get(node)
        if state is not None:
            self.recent.move_to_end(node)
        return state

    def remember(self, node: Node, state: State) -> None:
        if node.ply % self.every == 0:
            node._state = state
            return
        self.recent[node] = state
        self.recent.move_to_end(node)
        while len(self.recent) > self.size:
            self.recent.popitem(last=False)


AgentSpec = str | Agent


class Session:
    """A game in progress (see the module's docstring).

        Session("war-stories", seed=7, agents={1: "mcts:100"})
        Session(rk.load_game("yokai-5x6"), position="...")   # from a position text
        Session(state)                                      # from any state
        Session.from_record(record)

    Chance is resolved with `rng` (seeded by `seed`) unless `manual_chance`; a seat in
    `agents` is played by its agent, which sees only that seat's view, with perfect memory
    (`agents.agent_view`: a War Stories player remembers the cards it saw). Automatic actions run
    at the start (unless `auto=False`), after `play` and on `run_automatic()`, at most
    `max_automatic` per call: a War Stories session begins dealt."""

    def __init__(
        self,
        start: Game | State | str,
        *,
        position: str | None = None,
        seed: int | str | None = None,
        agents: Mapping[int, AgentSpec] | None = None,
        manual_chance: bool = False,
        max_automatic: int = MAX_AUTOMATIC,
        players: tuple[dict[str, Any], ...] | None = None,
        meta: Mapping[str, Any] | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
        recent_states: int = RECENT_STATES,
        auto: bool = True,
    ) -> None:
        state = _start_state(start, position)
        self.game: Game = state.game
        self._store = _StateStore(checkpoint_every, recent_states)
        self.root = Node(None, None, self._store)
        self.root._state = state
        self._node = self.root
        self._observers: list[Callable[[Change], None]] = []
        self._depth = 0
        self._pending: set[str] = set()
        self.seed = seed
        self.rng = random.Random(seed)
        self._agents: dict[int, AgentSpec] = {}
        self.agents = agents or {}
        self._manual_chance = bool(manual_chance)
        self.max_automatic = max_automatic
        #: the record's players; None: the seats' names (and agents' specs) when exporting
        self.players = None if players is None else tuple(players)
        self.meta: dict[str, Any] = dict(meta or {})
        if auto:
            self.run_automatic()

    # --- where we are ----------------------------------------------------------------------
    @property
    def node(self) -> Node:
        return self._node

    @property
    def state(self) -> State:
        return self._node.state

    @property
    def ply(self) -> int:
        return self._node.ply

    @property
    def comment(self) -> str:
        return self._node.comment

    @comment.setter
    def comment(self, text: str) -> None:
        self.set_comment(self._node, text)

    def set_comment(self, node: Node, text: str) -> None:
        if not isinstance(text, str):
            raise SessionError(f"a comment is text, not {type(text).__name__}")
        self._check_mine(node)
        if node._comment != text:
            with self.batch():
                node._comment = text
                self._changed(COMMENT)

    def line(self) -> list[Node]:
        """The current line: the root, the nodes to the current one, and on beyond it along
        the continuation last walked (else the main one). `line()[p].ply == p`."""
        nodes = self._node.path()
        nodes.extend(self._continuation(self._node))
        return nodes

    def main_line(self) -> list[Node]:
        """The root and the first child of each node after it."""
        nodes = [self.root]
        while nodes[-1]._children:
            nodes.append(nodes[-1]._children[0])
        return nodes

    def variations(self) -> tuple[Node, ...]:
        """The actions played from the current node: the main continuation first."""
        return self._node.children

    def nodes(self) -> Iterator[Node]:
        """Every node of the tree, depth first, main continuations before variations."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node._children))

    def states(self, node: Node | None = None) -> Iterator[State]:
        """The states from the root to `node` (default: the current one), computed as they
        are walked: a long game is never held in memory as a list of states."""
        path = (node or self._node).path()
        state = path[0].state
        yield state
        for step in path[1:]:
            known = self._store.peek(step)
            state = state._successor(step.action) if known is None else known
            yield state

    # --- navigation ------------------------------------------------------------------------
    def go(self, node: Node) -> None:
        """Make `node` (any node of this session) the current one; the current line becomes
        the line through it."""
        self._check_mine(node)
        with self.batch():
            child = node
            while child.parent is not None:
                child.parent._chosen = child
                child = child.parent
            self._move_to(node)

    def go_to(self, ply: int) -> None:
        """Go to ply `ply` of the current line (0 is the start)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise SessionError(f"a ply is a number from 0, not {ply!r}")
        node = self._node
        while node.ply > ply:
            node = node.parent
        while node.ply < ply:
            following = self._next_on_line(node)
            if following is None:
                raise SessionError(f"no ply {ply} on the current line: it ends at ply {node.ply}")
            node = following
        with self.batch():
            self._move_to(node)

    def back(self) -> bool:
        """One ply back; False at the start."""
        if self._node.parent is None:
            return False
        with self.batch():  # the parent's `_chosen` is this node already: the line stays
            self._move_to(self._node.parent)
        return True

    def forward(self, variation: int | None = None) -> bool:
        """One ply on along the current line, or into the `variation`-th child (0 is the
        main continuation); False where the line ends."""
        if variation is None:
            child = self._next_on_line(self._node)
        elif 0 <= variation < len(self._node._children):
            child = self._node._children[variation]
        else:
            raise SessionError(
                f"no variation {variation} here: {len(self._node._children)} "
                f"continuation(s) were played from ply {self.ply}"
            )
        if child is None:
            return False
        with self.batch():
            self._node._chosen = child
            self._move_to(child)
        return True

    def start(self) -> None:
        with self.batch():
            self._move_to(self.root)

    def end(self) -> None:
        """The last node of the current line."""
        with self.batch():
            self._move_to(self.line()[-1])

    def undo(self) -> bool:
        """Take back the last move and the automatic actions (chance, agents) before it: back
        to the last position where someone at the table was to act. The line stays in the
        tree (redo walks it again). False at the start."""
        if self._node.parent is None:
            return False
        with self.batch():
            self.back()
            while self._node.parent is not None and self.is_automatic(self.state):
                self.back()
        return True

    def redo(self) -> bool:
        """Walk the current line on again: one ply, then the automatic actions after it (what
        `undo` took back). False where the line ends."""
        with self.batch():
            if not self.forward():
                return False
            while self.is_automatic(self.state) and self.forward():
                pass
        return True

    # --- playing ---------------------------------------------------------------------------
    def play(self, action: Action | str, *, auto: bool = True) -> Node:
        """Play a move or chance outcome (or its notation) from the current node, checked by
        the rules (IllegalMoveError says why); then, with `auto`, the automatic actions.

        An action already played from here is walked into, not repeated; a new one from a
        node that has a continuation becomes a variation beside it."""
        with self.batch():
            self._advance(action)
            if auto:
                self.run_automatic()
        return self._node

    def sample_chance(self) -> Node:
        """Resolve the pending chance event with `rng` (for chance by hand: a die roll)."""
        state = self.state
        if state.is_terminal() or state.current_player != CHANCE:
            raise SessionError(f"no chance event is pending at ply {self.ply}")
        return self.play(state.sample_chance(self.rng), auto=False)

    def run_automatic(self, limit: int | None = None) -> int:
        """Play automatic actions (chance unless by hand, agents' seats) until someone at the
        table is to act, the game ends, or `limit` (default `max_automatic`) actions were
        played; returns how many. Where the tree already goes on, the line is followed (the
        log is the truth), and only past its end are chance drawn and agents asked."""
        limit = self.max_automatic if limit is None else limit
        played = 0
        with self.batch():
            while played < limit and self.is_automatic(self.state):
                following = self._next_on_line(self._node)
                if following is not None:
                    self._move_to(following)
                else:
                    self._advance(self._automatic_action(self.state))
                played += 1
        return played

    def is_automatic(self, state: State) -> bool:
        """Whether nobody at the table acts in `state`: a chance event the session resolves,
        or the turn of a seat an agent plays."""
        if state.is_terminal():
            return False
        if state.current_player == CHANCE:
            return not self._manual_chance
        return state.current_player in self._agents

    def _automatic_action(self, state: State) -> Action:
        player = state.current_player
        if player == CHANCE:
            return state.sample_chance(self.rng)
        agent = self._agents[player]
        if isinstance(agent, str):  # a fresh agent per move, seeded from the session: replayable
            agent = make_agent(agent, seed=self.rng.randrange(2**31))
        return agent.choose(agent_view(state, player))

    def _advance(self, action: Action | str) -> None:
        node = self._node
        action, state = _checked(node.state, action)
        child = node.child(str(action))
        if child is None:
            child = Node(node, action, self._store)
            node._children += (child,)
            self._store.remember(child, state)
            self._changed(TREE)
        node._chosen = child
        self._move_to(child)

    # --- settings --------------------------------------------------------------------------
    @property
    def agents(self) -> dict[int, AgentSpec]:
        """Seat -> agent: a spec for `make_agent` ("random", "greedy", "mcts:100"; a fresh agent
        seeded from `rng` for each move) or an Agent (used as it is)."""
        return dict(self._agents)

    @agents.setter
    def agents(self, agents: Mapping[int, AgentSpec]) -> None:
        checked = {}
        for seat, agent in agents.items():
            if isinstance(agent, str):
                make_agent(agent)  # an unknown spec fails here, not at the agent's first turn
            elif not isinstance(agent, Agent):
                raise SessionError(
                    f"seat {seat}: an agent is a spec such as 'random' or an Agent, "
                    f"not {type(agent).__name__}"
                )
            checked[check_seat(self.game, seat)] = agent
        with self.batch():
            self._agents = checked
            self._changed(SETTINGS)

    def set_agent(self, seat: int, agent: AgentSpec | None) -> None:
        """Let `agent` play `seat` (None: a person plays it)."""
        agents = self.agents
        agents.pop(check_seat(self.game, seat), None)
        if agent is not None:
            agents[seat] = agent
        self.agents = agents

    @property
    def manual_chance(self) -> bool:
        """Whether chance waits for someone to resolve it (`play(outcome)`, `sample_chance()`)."""
        return self._manual_chance

    @manual_chance.setter
    def manual_chance(self, value: bool) -> None:
        with self.batch():
            self._manual_chance = bool(value)
            self._changed(SETTINGS)

    # --- editing the tree ------------------------------------------------------------------
    def promote(self, node: Node | None = None) -> None:
        """Move `node`'s variation one place up among its siblings."""
        node = self._editable(node)
        siblings = list(node.parent._children)
        at = siblings.index(node)
        if at > 0:
            siblings[at - 1], siblings[at] = siblings[at], siblings[at - 1]
            self._reorder(node.parent, siblings)

    def promote_to_main(self, node: Node | None = None) -> None:
        """Make the line through `node` the main line: it and every ancestor first child."""
        node = self._editable(node)
        with self.batch():
            while node.parent is not None:
                siblings = [node, *(c for c in node.parent._children if c is not node)]
                self._reorder(node.parent, siblings)
                node = node.parent

    def delete(self, node: Node | None = None) -> None:
        """Remove `node` and everything after it (the rest of that line and its variations).
        If the current node was among them, the current node becomes `node`'s parent."""
        node = self._editable(node)
        parent = node.parent
        with self.batch():
            inside = any(n is node for n in self._node.path())
            parent._children = tuple(c for c in parent._children if c is not node)
            if parent._chosen is node:
                parent._chosen = None
            self._changed(TREE)
            if inside:
                self._move_to(parent)

    def _editable(self, node: Node | None) -> Node:
        node = self._node if node is None else node
        self._check_mine(node)
        if node.parent is None:
            raise SessionError("the start position is no variation: it cannot be promoted or deleted")
        return node

    def _reorder(self, parent: Node, children: list[Node]) -> None:
        if tuple(children) != parent._children:
            with self.batch():
                parent._children = tuple(children)
                self._changed(TREE)

    # --- observers -------------------------------------------------------------------------
    def observe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call `callback(change)` after every change (once per session call, however many
        nodes it made); returns a function that stops it."""
        self._observers.append(callback)

        def stop() -> None:
            if callback in self._observers:
                self._observers.remove(callback)

        return stop

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several calls into one notification:  with session.batch(): ..."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0 and self._pending:
                change = Change(self, frozenset(self._pending))
                self._pending.clear()
                self._notify(change)

    def _notify(self, change: Change) -> None:
        failure = None
        for callback in list(self._observers):  # every observer hears, even if one fails
            try:
                callback(change)
            except Exception as exc:  # re-raised below, after the others have heard
                failure = failure or exc
        if failure is not None:
            raise failure

    def _changed(self, kind: str) -> None:
        self._pending.add(kind)

    def _move_to(self, node: Node) -> None:
        if node is not self._node:
            self._node = node
            self._changed(NODE)

    # --- helpers ---------------------------------------------------------------------------
    def _next_on_line(self, node: Node) -> Node | None:
        chosen = node._chosen
        if chosen is not None and chosen.parent is node:
            return chosen
        return node._children[0] if node._children else None

    def _continuation(self, node: Node) -> list[Node]:
        nodes = []
        following = self._next_on_line(node)
        while following is not None:
            nodes.append(following)
            following = self._next_on_line(following)
        return nodes

    def _check_mine(self, node: Node) -> None:
        """`node` is in this session's tree (not another session's, not deleted)."""
        if node is self._node:  # the current node is always in the tree
            return
        if not isinstance(node, Node) or node._store is not self._store:
            raise SessionError(f"{node!r} is not a node of this session")
        while node.parent is not None:
            if not any(c is node for c in node.parent._children):
                raise SessionError(f"{node!r} was deleted from this session")
            node = node.parent

    def __repr__(self) -> str:
        return (
            f"<Session {self.game.id}: ply {self.ply} of {len(self.line()) - 1}, "
            f"{sum(1 for _ in self.nodes()) - 1} actions in the tree>"
        )

    # --- records ---------------------------------------------------------------------------
    @property
    def starts_at_initial(self) -> bool:
        """Whether the start is the game's initial position (a record of it needs no `start`)."""
        return self.root.state == self.game.initial_state()

    def to_record(
        self, end: Node | None = None, *, players: Any = None, meta: Mapping[str, Any] | None = None
    ) -> Record:
        """The line from the start to `end` (default: the end of the main line) as a record,
        with the comments on it in `meta["comments"]` ({"<ply>": text}).

        A session from another position than the game's initial one gives a record whose
        `start` is that position's text (`root.state.to_text()`); SessionError if the text
        does not give that position back (a state no position text describes)."""
        start = None if self.starts_at_initial else self._start_text()
        path = (end or self.main_line()[-1]).path()
        self._check_mine(path[-1])
        meta = dict(self.meta if meta is None else meta)
        comments = {str(n.ply): n.comment for n in path if n.comment}
        if comments:
            meta[COMMENTS_KEY] = comments
        variations = _lines_off(path)
        if variations:
            meta[VARIATIONS_KEY] = variations
        # the options and players as records write them; the actions need no second replay
        record = Record.from_actions(self.game, [], self._players() if players is None else players, meta)
        outcome = path[-1].state.outcome()
        return dataclasses.replace(
            record,
            actions=tuple(RecordedAction(n.notation, n.is_chance) for n in path[1:]),
            result=None if outcome is None else outcome.to_dict(),
            start=start,
        )

    def _start_text(self) -> str:
        """The start's position text, checked to read back as the start (what a record keeps)."""
        start = self.root.state
        try:
            text = start.to_text()
            back = self.game.from_text(text)
        except (RulesError, NotImplementedError) as exc:
            raise SessionError(f"the start position has no position text to record ({exc})") from exc
        if back != start:
            raise SessionError(
                f"the start position's text {one_line(text)!r} gives another position back: "
                "a record could not start from it"
            )
        return text

    def _players(self) -> list[dict[str, Any]]:
        if self.players is not None:
            return list(self.players)
        players = []
        for seat, name in enumerate(self.game.player_names):
            agent = self._agents.get(seat)
            players.append({"name": name, "agent": agent} if isinstance(agent, str) else {"name": name})
        return players

    @classmethod
    def from_record(cls, record: Record, **settings: Any) -> Session:
        """A session holding `record`'s game as its main line, the current node at its end,
        starting from the record's start (its `start` position, else the initial one).

        Every action is replayed and checked, and the result the record gives must agree;
        a bad one raises RecordError naming the record's source, line and ply. `settings`
        are Session's keywords (seed, agents, ...) for going on from there."""
        meta = dict(record.meta)
        comments = _comments_of(meta.get(COMMENTS_KEY), len(record.actions))
        if comments is not None:
            del meta[COMMENTS_KEY]
        variations = meta.pop(VARIATIONS_KEY, None)
        session = cls(record.start_state(), players=record.players, meta=meta, auto=False, **settings)
        for ply, recorded in enumerate(record.actions):
            session._replay(record, ply, recorded)
        _check_result(record, session.state)
        line = session.line()
        for ply, text in (comments or {}).items():
            line[ply]._comment = text
        if variations is not None:
            session._add_lines(record, line, variations, budget=[MAX_VARIATION_ACTIONS])
            session.go(line[-1])  # the main line's end, as without variations
        return session

    def _add_lines(self, record: Record, line: list[Node], entries: Any, budget: list[int]) -> None:
        """The other lines of a record's meta, branching from the positions of `line` (each
        action checked where it is played; a bad one names the line and the ply)."""

        def fail(reason: str) -> RecordError:
            return RecordError(f"meta.variations: {reason}", source=record.source, line=record.line)

        if not isinstance(entries, list):
            raise fail("must be a list of lines")
        first = line[0].ply
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) - {"ply", "actions", "comments", "variations"}:
                raise fail('a line is an object with "ply", "actions", optionally "comments", "variations"')
            ply, actions = entry.get("ply"), entry.get("actions")
            if not isinstance(ply, int) or isinstance(ply, bool) or not first <= ply < first + len(line):
                raise fail(f"a line branches at ply {one_line(repr(ply))}, which this line does not reach")
            if not isinstance(actions, list) or not actions:
                raise fail(f"the line at ply {ply} has no actions")
            budget[0] -= len(actions)
            if budget[0] < 0:
                raise fail(f"more than {MAX_VARIATION_ACTIONS:,} actions in the other lines")
            self.go(line[ply - first])
            branch = [self._node]
            for number, action in enumerate(actions, start=1):
                self._play_in_line(action, ply + number, fail)
                branch.append(self._node)
            for at, text in (_comments_of(entry.get("comments"), ply + len(actions)) or {}).items():
                if at > ply:
                    branch[at - ply]._comment = text
            if entry.get("variations") is not None:
                self._add_lines(record, branch, entry["variations"], budget)

    def _play_in_line(self, action: Any, ply: int, fail) -> None:
        if isinstance(action, dict) and set(action) == {"chance"}:
            notation, chance = action["chance"], True
        else:
            notation, chance = action, False
        if not isinstance(notation, str):
            raise fail(
                f'ply {ply}: an action is a notation or {{"chance": notation}}, not {one_line(repr(action))}'
            )
        state = self.state
        if state.is_terminal() or chance != (state.current_player == CHANCE):
            due = "the game is over" if state.is_terminal() else "that is not what is due there"
            raise fail(f"ply {ply}: {one_line(notation)!r}: {due}")
        try:
            self._advance(state.parse_chance(notation) if chance else notation)
        except RulesError as exc:
            raise fail(f"ply {ply}: {one_line(str(exc))}") from None

    def _replay(self, record: Record, ply: int, recorded: RecordedAction) -> None:
        def fail(reason: str) -> RecordError:
            return RecordError(reason, source=record.source, line=record.line, ply=ply)

        state = self.state
        if state.is_terminal():
            raise fail(
                f"the game ended ({state.outcome().reason}) but the record goes on "
                f"with {one_line(recorded.notation)!r}"
            )
        at_chance = state.current_player == CHANCE
        if recorded.chance != at_chance:
            due = "a chance outcome" if at_chance else f"a move by player {state.current_player}"
            raise fail(
                f"{one_line(recorded.notation)!r} is recorded as "
                f"{'a chance outcome' if recorded.chance else 'a move'}, but {due} is due here"
            )
        try:
            self._advance(recorded.notation)
        except RulesError as exc:
            raise fail(str(exc)) from exc
        except Exception as exc:  # the kernel must not crash on data; name the action if it does
            raise fail(
                f"{one_line(recorded.notation)!r} could not be applied "
                f"({type(exc).__name__}: {one_line(str(exc))})"
            ) from exc


def _start_state(start: Game | State | str, position: str | None) -> State:
    if isinstance(start, State):
        if position is not None:
            raise SessionError("give a start state or a position text, not both")
        return start
    if isinstance(start, str):
        from rules_kernel.registry import load_game

        start = load_game(start)
    if not isinstance(start, Game):
        raise SessionError(f"a session starts from a game, a game id or a state, not {type(start).__name__}")
    return start.initial_state() if position is None else start.from_text(position)


def _checked(state: State, action: Action | str) -> tuple[Action, State]:
    """The state after `action`, with every check of the kernel (its errors and messages), and
    the kernel's own object for the action, found by its notation: what a record keeps must
    name this very action, and replaying uses that object."""
    after = state.apply(action)
    text = str(action)
    own = state.parse_chance(text) if state.current_player == CHANCE else state.parse_move(text)
    if isinstance(action, Action) and own != action:
        raise IllegalMoveError(
            f"{one_line(text)!r} names another action here ({own!r}): its notation would not replay it"
        )
    return own, after


def _check_result(record: Record, final: State) -> None:
    """Every result field the record gives must agree with the replay (as Record.replay)."""
    claimed, replayed = record.outcome, final.outcome()
    if claimed is None:
        return
    given = record.result
    if not claimed.finished:
        agrees = replayed is None and claimed.winner is None and not claimed.winners
    else:
        agrees = replayed is not None and _same_outcome(given, claimed, replayed)
    if not agrees:
        said = replayed.reason if replayed else "the game goes on"
        raise RecordError(
            f"the recorded result {one_line(repr(given))} differs from the replayed one ({said})",
            source=record.source,
            line=record.line,
        )


def _same_outcome(given: dict[str, Any], claimed: Outcome, replayed: Outcome) -> bool:
    return (
        claimed.winner == replayed.winner
        and ("winners" not in given or tuple(claimed.winners) == replayed.winners)
        and ("reason" not in given or claimed.reason == replayed.reason)
    )


def _lines_off(path: list[Node]) -> list[dict[str, Any]]:
    """The lines that leave `path` (each child of a node on it that is not the path's next
    node), each followed through its first children, with their own lines nested."""
    lines = []
    for node, onward in zip(path, [*path[1:], None], strict=True):
        if onward is None:
            break  # what follows the record's last position is not part of it
        lines.extend(_line_json(child) for child in node.children if child is not onward)
    return lines


def _line_json(first: Node) -> dict[str, Any]:
    line = [first]
    while line[-1].children:
        line.append(line[-1].children[0])
    entry: dict[str, Any] = {
        "ply": first.ply - 1,
        "actions": [{"chance": n.notation} if n.is_chance else n.notation for n in line],
    }
    comments = {str(n.ply): n.comment for n in line if n.comment}
    if comments:
        entry["comments"] = comments
    nested = _lines_off(line)  # lines leaving this one after its first action
    if nested:
        entry["variations"] = nested
    return entry


def _comments_of(value: Any, plies: int) -> dict[int, str] | None:
    """The comments a record's meta holds ({"<ply>": text}, plies 0..plies), or None if the
    key is absent or holds something else (then it stays in meta as any other metadata)."""
    if not isinstance(value, dict):
        return None
    comments = {}
    for key, text in value.items():
        if not (
            isinstance(key, str)
            and key.isascii()
            and key.isdigit()
            and len(key) <= 9
            and int(key) <= plies
            and isinstance(text, str)
        ):
            return None
        comments[int(key)] = text
    return comments


__all__ = [
    "CHECKPOINT_EVERY",
    "COMMENT",
    "Change",
    "MAX_AUTOMATIC",
    "NODE",
    "Node",
    "RECENT_STATES",
    "SETTINGS",
    "Session",
    "SessionError",
    "TREE",
]
