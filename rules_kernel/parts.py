"""The parts a game brings besides its rules, as the objects it names (issue 45 item 2).

A game's `PARTS` maps each part's name (`rules_kernel.info.PARTS`) to the object that
implements it: a module or an instance with the part's plain functions, which take the game,
the state or the record explicitly (the protocols below), or the game's State class for the
parts that are hooks of the position. `rk.info(game).part(name)` is that object. The functions
here are what the consumers call: each gives the part's answer, or the default a game without
the part has (no words: the notation; no scene: NotImplementedError; no editor: nothing to
place, the side to move, NotImplementedError for an edit; no heuristic: 0.0; no reference: [];
no statistics: {}; no solved table: "absent" or RulesError), so a consumer stays one line:

    >>> import rules_kernel as rk
    >>> from rules_kernel import parts
    >>> state = rk.load_game("yokai-3x4").initial_state()
    >>> parts.heuristic(state, 0), len(parts.reference(state.game)) > 0
    (0.0, True)
    >>> parts.data_options(rk.game_class("yokai-3x4"), 3)
    {}

The solved table stays declared as `Game.SOLVED_TABLE = "module:function"` (no part object:
the table lives in `rules_kernel.tablebase`, above the games, so a game can name it only as
text); `open_solved_table(game)` and `solved_table_availability(game)` read it.

This module imports only `rules_kernel.core` and `rules_kernel.info` (docs/architecture.md).
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rules_kernel import core
from rules_kernel.core import Action, EditPiece, Game, ReferenceEntry, RulesError, State
from rules_kernel.info import info

if TYPE_CHECKING:
    from rules_kernel.record_model import Record
    from rules_kernel.scene import Scene

__all__ = [
    "EditorPart",
    "HEURISTICS",
    "PROTOCOLS",
    "HeuristicPart",
    "ScenePart",
    "ReferencePart",
    "StatisticsPart",
    "WORDS",
    "WordsPart",
    "action_text",
    "data_options",
    "edit",
    "edit_fields",
    "edit_hands",
    "edit_pieces",
    "edit_to_move",
    "editor_of",
    "heuristic",
    "heuristic_of",
    "forget",
    "forgotten_text",
    "open_solved_table",
    "part_of",
    "recalled_text",
    "reference",
    "scene",
    "scene_of",
    "seat_holdings",
    "solved_table_availability",
    "why_illegal",
    "words_of",
]


@runtime_checkable
class HeuristicPart(Protocol):
    """The "heuristic" part: the agents' estimate of a position that is not over."""

    def heuristic(self, state: State, player: int) -> float:
        """For `player`, within about [-1, 1] (the agents clip it): material, control, ..."""
        ...


@runtime_checkable
class ReferencePart(Protocol):
    """The "reference" part: the players' reference panel (`widgets.reference`)."""

    def reference(self, game: Game) -> list[ReferenceEntry]:
        """The game's pieces or units, what a card's numbers mean, its actions, one line each,
        for the game with its options."""
        ...


@runtime_checkable
class StatisticsPart(Protocol):
    """The "statistics" part: the experiments' settings and what a recorded game's seats held."""

    def data_options(self, setting: int) -> dict[str, Any]:
        """The options of the `setting`-th game setting of an experiment ({}: the defaults)."""
        ...

    def seat_holdings(self, record: Record) -> dict[str, list[Any]]:
        """What each seat played with, by kind: {"army": ["western", "southern"]} ({}: none)."""
        ...


@runtime_checkable
class WordsPart(Protocol):
    """The "words" part: the game's actions in words, for the move list, the menus, the hints
    and the analysis' lines (issue #22). `action` is an action playable in `state` (the
    consumer functions below read a notation first); `viewer` None is the all-seeing list."""

    def action_text(self, state: State, action: Action, viewer: int | None) -> str:
        """`action`, about to be played in `state`, as `viewer` learns of it: a phrase in the
        rulebook's terms without the actor, whom the list names beside it ("Kitsune b1–c2
        takes Tanuki", "drops Tanuki on b2", "draws 3 coins"). It may look at the state after
        the action (`state.apply(action)`) to say what happened, and never reveals what
        `state.view(viewer)` hides, before or after the action. Cells are named as the board
        draws them."""
        ...

    def forgotten_text(self, state: State, action: Action, viewer: int | None) -> str:
        """The words once `viewer`'s view has forgotten what the action showed
        (`State.forgets`): War Stories' "turns over a2". A game whose views forget nothing
        gives `action_text`."""
        ...

    def why_illegal(self, state: State, text: str) -> str:
        """Why `text` names no legal move in `state`, in words (`State.apply` and
        `parse_move` raise it as an IllegalMoveError)."""
        ...


@runtime_checkable
class ScenePart(Protocol):
    """The "scene" part: what the board shows (`rules_kernel.scene.Scene`, plain data every
    widget draws)."""

    def scene(self, state: State, perspective: int | None) -> Scene:
        """`state` as `perspective` (None: all-seeing) sees it: its view's cells, tokens and
        zones, the secrets hidden (a card back, a `?` hand); `Scene.perspective` says whose."""
        ...


@runtime_checkable
class EditorPart(Protocol):
    """The "editor" part: the board editor's palette and counters, and a position edited
    (widgets/editor.py). The names are the State's conveniences' (`state.edit_pieces()`)."""

    def edit_pieces(self, state: State) -> tuple[EditPiece, ...]:
        """What the editor offers to place, each seat's in its colour."""
        ...

    def edit_hands(self, state: State) -> dict[tuple[int | None, str], int]:
        """How many of each counted piece (`EditPiece.in_hand`) there are: (owner, key) -> count."""
        ...

    def edit_to_move(self, state: State) -> int | None:
        """The side to move as the editor shows it (None: no seat is meant, a deal);
        `core.default_edit_to_move` for a game whose draws say `chance_for`."""
        ...

    def edit_fields(self, state: State) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The turn fields besides the side to move: name -> (its value now, the values it
        may take), as words the rulebook uses."""
        ...

    def edit(
        self,
        state: State,
        *,
        place: Mapping[str, str | None] | None = None,
        hands: Mapping[tuple[int | None, str], int] | None = None,
        to_move: int | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> State:
        """`state` changed as the editor asks (`core.State.edit` says how), checked as a
        position text is: a refusal is a PositionTextError naming the field."""
        ...


#: the protocol of each part whose object is not the game's State class (`check-game` holds
#: the object a game names to it)
PROTOCOLS: dict[str, type] = {
    "words": WordsPart,
    "scene": ScenePart,
    "editor": EditorPart,
    "heuristic": HeuristicPart,
    "reference": ReferencePart,
    "statistics": StatisticsPart,
}


def _zero(state: State, player: int) -> float:
    return 0.0


@functools.cache
def part_of(cls: type[Game], name: str) -> Any | None:
    """The object of a game class's part `name`, or None without it, looked up once a class:
    the statistics ask it for every record (`rk.info` makes a game to answer, a To War! game
    reads its unit table). Kept for the process's life: a class's PARTS does not change once
    its games are played (`forget()` for a test that changes one)."""
    found = info(cls)
    return found.part(name) if found.has(name) else None


#: each game class's heuristic function, as `heuristic_of` found it: the playouts' hot path
#: (`evaluation.evaluate`) reads it for every position it scores, and a dict's `get` is a
#: third of a `functools.cache` call (110 ns against 330 ns here). Read it; `forget()` clears it.
HEURISTICS: dict[type[Game], Callable[[State, int], float]] = {}


def heuristic_of(cls: type[Game]) -> Callable[[State, int], float]:
    """The heuristic function of a game class, looked up once a class (kept in `HEURISTICS`);
    0.0 everywhere for a game without the part."""
    found = HEURISTICS.get(cls)
    if found is None:
        part = part_of(cls, "heuristic")
        found = HEURISTICS[cls] = part.heuristic if part is not None else _zero
    return found


class DefaultWords:
    """The words of a game without the part: the notation, the legal moves."""

    @staticmethod
    def action_text(state: State, action: Action, viewer: int | None) -> str:
        return str(action)

    @staticmethod
    def forgotten_text(state: State, action: Action, viewer: int | None) -> str:
        return str(action)

    @staticmethod
    def why_illegal(state: State, text: str) -> str:
        return core.default_why_illegal(state, text)


#: each game class's words part, as `words_of` found it: every line of a move list and every
#: entry of a menu asks for it, so it is read by subscript (as `HEURISTICS`); `forget()` clears it
WORDS: dict[type[Game], WordsPart] = {}


def words_of(cls: type[Game]) -> WordsPart:
    """The words part of a game class, looked up once a class (kept in `WORDS`); the notation
    for a game without one."""
    found = WORDS.get(cls)
    if found is None:
        part = part_of(cls, "words")
        found = WORDS[cls] = part if part is not None else DefaultWords()
    return found


def scene_of(cls: type[Game]) -> ScenePart | None:
    """The scene part of a game class (None: no board), looked up once a class by `part_of`:
    a redraw asks a few times, so its cache is fast enough. The part's `scene` is read from it
    at each call (a test may count or stub it)."""
    return part_of(cls, "scene")


def editor_of(cls: type[Game]) -> EditorPart | None:
    """The editor part of a game class (None: no editor), looked up once a class by `part_of`."""
    return part_of(cls, "editor")


def forget() -> None:
    """Look the parts up again (a test that changes a class's PARTS, or registers a class
    again under the same name)."""
    part_of.cache_clear()
    HEURISTICS.clear()
    WORDS.clear()
    core.NAMED_PARTS.clear()


def heuristic(state: State, player: int) -> float:
    """The game's estimate of `state` for `player` (0.0 without a heuristic)."""
    return heuristic_of(type(state.game))(state, player)


def action_text(state: State, action: Action | str, viewer: int | None = None) -> str:
    """`action` (or its notation), about to be played in `state`, in words as `viewer` (None:
    all-seeing) learns of it; the notation for a game without words."""
    try:
        words = WORDS[type(state.game)]
    except KeyError:
        words = words_of(type(state.game))
    if isinstance(action, str):
        action = state._action_of(action)  # IllegalMoveError if it names nothing here
    return words.action_text(state, action, viewer)


def forgotten_text(state: State, action: Action | str, viewer: int | None = None) -> str:
    """`action` in words once `viewer`'s view has forgotten what it showed."""
    try:
        words = WORDS[type(state.game)]
    except KeyError:
        words = words_of(type(state.game))
    if isinstance(action, str):
        action = state._action_of(action)
    return words.forgotten_text(state, action, viewer)


def recalled_text(state: State, action: Action | str, viewer: int | None, now: State) -> str:
    """`action`, played in `state`, in words as `viewer` can still tell of it when its view
    shows `now` (a later or, looking back, earlier position of the same line): `forgotten_text`
    where `now.forgets(action)`, else `action_text`."""
    if isinstance(action, str):
        action = state._action_of(action)
    if now.forgets(action):
        return forgotten_text(state, action, viewer)
    return action_text(state, action, viewer)


def why_illegal(state: State, text: str) -> str:
    """Why `text` names no legal move in `state` (without words: the legal moves listed)."""
    return words_of(type(state.game)).why_illegal(state, text)


def scene(state: State, perspective: int | None = None) -> Scene:
    """`state` drawn as `perspective` (None: all-seeing) sees it, by the game's scene part;
    NotImplementedError naming the game for one without a board."""
    found = scene_of(type(state.game))
    if found is None:
        game = state.game
        raise NotImplementedError(
            f"{game.title} ({game.id}) brings no 'scene' part: name one in {type(game).__name__}.PARTS, "
            '"scene": <a module with scene(state, perspective)>'
        )
    return found.scene(state, perspective)


def edit_pieces(state: State) -> tuple[EditPiece, ...]:
    """What the game's board editor offers to place (nothing without an editor)."""
    found = editor_of(type(state.game))
    return () if found is None else found.edit_pieces(state)


def edit_hands(state: State) -> dict[tuple[int | None, str], int]:
    """How many of each counted piece there are, as the editor keys them ({} without one)."""
    found = editor_of(type(state.game))
    return {} if found is None else found.edit_hands(state)


def edit_to_move(state: State) -> int | None:
    """The side to move as the editor shows it (without one: the player to move, or
    `chance_for`)."""
    found = editor_of(type(state.game))
    return core.default_edit_to_move(state) if found is None else found.edit_to_move(state)


def edit_fields(state: State) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The turn fields the editor sets: name -> (value now, values) ({} without one)."""
    found = editor_of(type(state.game))
    return {} if found is None else found.edit_fields(state)


def edit(
    state: State,
    *,
    place: Mapping[str, str | None] | None = None,
    hands: Mapping[tuple[int | None, str], int] | None = None,
    to_move: int | None = None,
    fields: Mapping[str, str] | None = None,
) -> State:
    """`state` edited by the game's editor part (`core.State.edit` says how); a refusal is a
    PositionTextError, a game without an editor a NotImplementedError naming it."""
    found = editor_of(type(state.game))
    if found is None:
        game = state.game
        raise NotImplementedError(
            f"{game.title} ({game.id}) brings no 'editor' part: name one in {type(game).__name__}.PARTS, "
            '"editor": <a module with edit_pieces(state), edit_hands(state), edit_to_move(state), '
            "edit_fields(state) and edit(state, ...)>"
        )
    return found.edit(state, place=place, hands=hands, to_move=to_move, fields=fields)


def reference(game: Game) -> list[ReferenceEntry]:
    """The game's reference panel's entries ([] without the part)."""
    found = info(game)
    return list(found.part("reference").reference(game)) if found.has("reference") else []


def data_options(cls: type[Game], setting: int) -> dict[str, Any]:
    """The options of the `setting`-th setting of an experiment ({}: the defaults)."""
    found = part_of(cls, "statistics")
    return found.data_options(setting) if found is not None else {}


def seat_holdings(cls: type[Game], record: Record) -> dict[str, list[Any]]:
    """What each seat of a recorded game held ({} without the part)."""
    found = part_of(cls, "statistics")
    return found.seat_holdings(record) if found is not None else {}


def open_solved_table(game: Game) -> Any:
    """The solved table the game declares (`SOLVED_TABLE`), opened; RulesError if it has none,
    and whatever the table raises when it is not ready (a RulesError whose message names no
    file or command, fit for a page; its `detail` does)."""
    declared = info(game).solved_table
    if declared is None:
        raise RulesError(f"{game.id} has no solved table")
    module_name, _, function = declared.partition(":")
    opener: Any = importlib.import_module(module_name)
    for name in function.split("."):
        opener = getattr(opener, name)
    return opener(game.id)


def solved_table_availability(game: Game) -> str:
    """Whether `open_solved_table` would work, without opening anything (cheap): "ready",
    "preparing" (being built or unpacked, e.g. by the publishing set-up: ask again later) or
    "absent" (no table, none declared, or the site does not offer perfect play). Asks the
    `availability(game_id)` function of the module `SOLVED_TABLE` names."""
    declared = info(game).solved_table
    if declared is None:
        return "absent"
    return importlib.import_module(declared.partition(":")[0]).availability(game.id)


# --- the methods `Game` had before the parts, kept for code that calls them (deprecated) --------

#: what to write instead of each
_INSTEAD = {
    "heuristic": "rules_kernel.parts.heuristic(state, player)",
    "reference": "rules_kernel.parts.reference(game)",
    "data_options": "rules_kernel.parts.data_options(type(game), setting)",
    "seat_holdings": "rules_kernel.parts.seat_holdings(type(game), record)",
    "open_solved_table": "rules_kernel.parts.open_solved_table(game)",
    "solved_table_availability": "rules_kernel.parts.solved_table_availability(game)",
}
_WARNED: set[str] = set()


def _convenience(name: str, call: Callable[..., Any]) -> Callable[[Game], Callable[..., Any]]:
    def bound(game: Game) -> Callable[..., Any]:
        def forward(*args: Any) -> Any:
            if name not in _WARNED:
                _WARNED.add(name)
                warnings.warn(
                    f"game.{name}(...) is deprecated: the game's parts answer it; write {_INSTEAD[name]}",
                    DeprecationWarning,
                    stacklevel=2,
                )
            return call(game, *args)

        return forward

    return bound


core.DEPRECATED_CONVENIENCES.update(
    {
        "heuristic": _convenience("heuristic", lambda game, state, player: heuristic(state, player)),
        "reference": _convenience("reference", reference),
        "data_options": _convenience("data_options", lambda game, setting: data_options(type(game), setting)),
        "seat_holdings": _convenience(
            "seat_holdings", lambda game, record: seat_holdings(type(game), record)
        ),
        "open_solved_table": _convenience("open_solved_table", open_solved_table),
        "solved_table_availability": _convenience("solved_table_availability", solved_table_availability),
    }
)
