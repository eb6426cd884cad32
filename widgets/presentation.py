"""What one viewer may see of a game, decided in one place for every widget.

A `Presentation` is a game session (rules_kernel.session: its current line up to the current
node) as seen by a viewer:
a player's seat, or None for the all-seeing analysis view. It holds the scene drawn from
`state.view(viewer)`, the move list as that viewer saw it (`State.action_text`), the moves
that viewer may make now (none when it is not their turn), and whether the position text
and the record may be shown (they hold every secret, so only all-seeing or after the end).
Widgets draw from a Presentation and never read the full state when a viewer is set.

`present(session, viewer)` reads the session's nodes, not a list of every past state: each
node's move-list entry and the last scenes are kept beside the session by (node, viewer)
(and go with it), so a refresh after
one more move builds one scene (the new position's; the previous one's, needed to name the
piece that moved, was built when it was shown) and replays no past position.

What the board forgets, the list forgets (issue 44): in a view that forgets (War Stories'
`view(p)` turns a card back face down) an entry is written as the viewer can still tell of
it at the position shown (`State.recalled_text`): a flip whose card lies face down there
again loses the card's name. So an entry has two forms, each kept for good once made: the
words as the action was learned, and the words once forgotten (`State.forgotten_text`);
which one a list shows is asked of the viewer's view of the position shown
(`State.forgets`, a look at one square), never worked out again. The all-seeing view, a
game whose views forget nothing, and every entry's first form read exactly as before.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from weakref import WeakKeyDictionary

import rules_kernel as rk
from rules_kernel import parts
from rules_kernel.core import Action, Move, State, Turn, turns
from rules_kernel.info import info
from rules_kernel.scene import Scene
from rules_kernel.session import Node, Session

#: how many (node, viewer) scenes a session's presentations keep: the last positions shown
SCENES_KEPT = 256


@dataclass(frozen=True)
class MoveLine:
    """One entry of the move list: an action, numbered by the turn it belongs to."""

    number: int  # its ply: 1 for the first action
    player: int | None  # who acted; None for chance (a deal, a draw)
    side: str  # the player's name, or "Chance"
    text: str  # the action as the viewer learned of it, with the piece named in words
    #: the rulebook's turn it belongs to (rules_kernel.core.turns); None: chance between turns
    turn: Turn | None = None

    def __str__(self) -> str:
        """'37. Side A: deploys a Pikeman to d4' (the turn's number, as the move list has it);
        chance between turns unnumbered: 'Chance: Side A draws ...'."""
        return f"{self.turn.number}. {self.side}: {self.text}" if self.turn else f"{self.side}: {self.text}"


@dataclass(frozen=True)
class Presentation:
    viewer: int | None
    scene: Scene
    lines: tuple[MoveLine, ...]
    moves: tuple[Move, ...]  # the viewer's legal moves now
    chance_pending: bool
    secrets_visible: bool  # may the position text and the full record be shown?

    @property
    def status(self) -> str:
        return self.scene.status


def has_secrets(game: rk.Game) -> bool:
    """Does the game, with its options, hide anything from a player (cards, hands, bags)?
    Asked of the game, not of a position: before the deal nothing is hidden yet. (Plain To
    War! hides nothing: it opens on the whole board, with no curtain between turns.)"""
    return info(game).hides(game.options)


def present(session: Session, viewer: int | None) -> Presentation:
    """The session's current line, up to its current node, as `viewer` (None: all-seeing) sees
    it: each entry as the viewer can still tell of it at the current node."""
    node = session.node
    state = node.state
    mover = state.current_player
    at_chance = mover == rk.CHANCE and not state.is_terminal()
    may_move = viewer is None or viewer == mover
    moves = tuple(state.legal_moves()) if may_move and not at_chance else ()
    shown = shown_to(session)
    now = shown.now(node, viewer)
    lines = tuple(shown.line(step, viewer, now) for step in node.path()[1:])
    return Presentation(
        viewer, shown.scene(node, viewer), lines, moves, at_chance, viewer is None or state.is_terminal()
    )


def line_of(session: Session, viewer: int | None, at: Node | None = None) -> tuple[MoveLine, ...]:
    """The move-list entries of the session's whole current line (beyond the current node
    too, when one looks back), as `viewer` can tell of each action at the position shown
    (`at`, default the current node)."""
    shown = shown_to(session)
    now = shown.now(session.node if at is None else at, viewer)
    return tuple(shown.line(step, viewer, now) for step in session.line()[1:])


def line_of_node(session: Session, node: Node, viewer: int | None, at: Node | None = None) -> str:
    """The words of the one action that led to `node`, as `viewer` can tell of it at the
    position shown (`at`, default the current node: a line from here is a move not played yet)."""
    shown = shown_to(session)
    return shown.line(node, viewer, shown.now(session.node if at is None else at, viewer)).text


def forgetting(state: State) -> bool:
    """Can a view of this game forget what it saw (its info's `memory`)? Only then does an
    entry's words depend on the position shown."""
    return info(state.game).memory


class _Shown:
    """What a session's viewers were shown: each node's move-list entry (for good: a long game's
    list is built once) and the last scenes, by (node, viewer). A node's state never changes,
    so the scene shown now is the one that names the next move's piece later.

    In a view that forgets, an entry also has its forgotten form (`forgotten`, made the first
    time a position shown has forgotten the action, then kept for good like the first), and
    which form a list shows is asked of the viewer's view of the position shown (`now`,
    kept for the last positions shown as the scenes are)."""

    def __init__(self) -> None:
        self.lines: dict[tuple[Node, int | None], MoveLine] = {}
        self.forgotten: dict[tuple[Node, int | None], MoveLine] = {}
        self.scenes: OrderedDict[tuple[Node, int | None], Scene] = OrderedDict()
        self.views: OrderedDict[tuple[Node, int], State] = OrderedDict()
        self.forgets: bool | None = None  # does this session's game have views that forget?

    def now(self, node: Node, viewer: int | None) -> State | None:
        """`viewer`'s view of the position at `node`, which the entries are recalled against;
        None where nothing is ever forgotten (all-seeing, or a game whose views keep all)."""
        if viewer is None:
            return None
        if self.forgets is None:
            self.forgets = forgetting(node.state)
        if not self.forgets:
            return None
        key = (node, viewer)
        view = self.views.get(key)
        if view is None:
            view = self.views[key] = node.state.view(viewer)
            if len(self.views) > SCENES_KEPT:
                self.views.popitem(last=False)
        self.views.move_to_end(key)
        return view

    def scene(self, node: Node, viewer: int | None) -> Scene:
        key = (node, viewer)
        scene = self.scenes.get(key)
        if scene is None:
            state = node.state
            scene = self.scenes[key] = parts.scene(state if viewer is None else state.view(viewer), viewer)
            if len(self.scenes) > SCENES_KEPT:
                self.scenes.popitem(last=False)
        self.scenes.move_to_end(key)
        return scene

    def line(self, node: Node, viewer: int | None, now: State | None = None) -> MoveLine:
        """The entry of the action that led to `node`, as `viewer` can tell of it where its
        view shows `now` (`self.now`; None: as it learned of it)."""
        key = (node, viewer)
        forms = self.forgotten if now is not None and now.forgets(node.action) else self.lines
        line = forms.get(key)
        if line is None:
            # in a view that forgets, both forms are made at once, while the state before the
            # action is at hand (a new node's is): the other one is asked for later, when the
            # card is turned back or up again, and its state may be long out of the session's
            # recent states by then (replayed from a checkpoint, up to 63 actions)
            if key not in self.lines:
                self.lines[key] = self._line(node, viewer)
            if now is not None and key not in self.forgotten:
                self.forgotten[key] = self._line(node, viewer, forgotten=True)
            line = forms[key]
        return line

    def _line(self, node: Node, viewer: int | None, *, forgotten: bool = False) -> MoveLine:
        """The move-list entry of the action that led to `node`, as `viewer` learned of it
        (`forgotten`: once its view forgot what the action showed)."""
        before = node.parent.state
        player = before.current_player
        words = parts.forgotten_text if forgotten else parts.action_text
        text = words(before, node.action, viewer)
        if player == rk.CHANCE:
            return MoveLine(node.ply, None, _chance_side(before), text, node.turn)
        if getattr(node.action, "cells", ()) and text == str(node.action):
            # a piece moved, in the notation: name it as the viewer saw it (the game's own
            # words name it themselves, so their scene is not needed)
            text = _piece_named(self.scene(node.parent, viewer), node.action, text)
        return MoveLine(node.ply, player, before.game.player_names[player], text, node.turn)


def _chance_side(before: State) -> str:
    """'Chance', or 'Chance for <player>' where the event is one player's (a draw)."""
    drawer = before.chance_for
    return "Chance" if drawer is None else f"Chance for {before.game.player_names[drawer]}"


#: each session's `_Shown`, kept as long as the session lives (a new game lets the old one go)
_SHOWN: WeakKeyDictionary[Session, _Shown] = WeakKeyDictionary()


def shown_to(session: Session) -> _Shown:
    """What the session's viewers were shown (the move list's entries, the last scenes),
    kept beside the session for as long as it lives: the explorer and the Replay share it."""
    shown = _SHOWN.get(session)
    if shown is None:
        shown = _SHOWN[session] = _Shown()
    return shown


def move_lines(
    states: Sequence[State], actions: Sequence[Action], viewer: int | None, now: State | None = None
) -> list[MoveLine]:
    """The move list of a game given as its states and actions (what a Replay without a session
    reads), as `viewer` can tell of each action where its view shows `now` (that viewer's view
    of the position shown; default: the position after the last action)."""
    names = states[0].game.player_names if states else ()
    if now is None and viewer is not None and states and forgetting(states[0]):
        last = states[len(actions)] if len(states) > len(actions) else states[-1].apply(actions[-1])
        now = last.view(viewer)
    lines = []
    played = list(zip(states, actions, strict=False))
    numbered = zip(played, turns(before for before, _ in played), strict=True)
    for number, ((before, action), turn) in enumerate(numbered, start=1):
        forgotten = viewer is not None and now is not None and now.forgets(action)
        player, text = _seen(before, action, viewer, forgotten)
        side = names[player] if player is not None else _chance_side(before)
        lines.append(MoveLine(number, player, side, text, turn))
    return lines


@lru_cache(maxsize=8192)
def _seen(
    before: State, action: Action, viewer: int | None, forgotten: bool = False
) -> tuple[int | None, str]:
    """Who acted and what `viewer` learned of it (`forgotten`: what it can still tell once its
    view forgot it). Cached: states are immutable values equal by position, so every refresh
    of a long game does not build a scene per past ply again."""
    player = before.current_player
    text = (parts.forgotten_text if forgotten else parts.action_text)(before, action, viewer)
    if player == rk.CHANCE:
        return None, text
    return player, _with_piece_name(before, action, text, viewer)


def _with_piece_name(before: State, action: Action, text: str, viewer: int | None) -> str:
    """'b1c2' -> 'Koropokkuru b1c2': the piece on the first cell, as the viewer saw it."""
    if not getattr(action, "cells", ()) or text != str(action):
        return text  # nothing to name, or the game's own words name it (`_piece_named`)
    return _piece_named(parts.scene(before if viewer is None else before.view(viewer), viewer), action, text)


def _piece_named(scene: Scene, action: Action, text: str) -> str:
    """'b1c2' -> 'Koropokkuru b1c2', from the scene before the action (as its viewer saw it).
    A game's own words (anything but the notation: State.action_text) name the piece
    themselves, as the board's label may not ("Beduine 4/3"): they stay as they are."""
    cells = getattr(action, "cells", ())
    if not cells or text != str(action):
        return text
    name = name_at(scene, cells[0])
    if not name or name in ("?", "") or name.lower() in text.lower().replace("-", " "):
        return text
    return f"{name} {text}"


def name_at(scene: Scene, cell: str) -> str:
    """What the scene's viewer sees on `cell` (a board cell or a zone item), named; '' where it
    is face down or nothing stands."""
    token = scene.token_at(cell)
    if token is not None:
        return "" if token.face_down and token.name in ("", "?") else token.name
    for zone in scene.zones:
        for item in zone.items:
            if item.cell == cell:
                return "" if item.face_down else item.name
    return ""
