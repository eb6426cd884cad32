"""What a game is and which parts it brings, declared in one place (issue 45 item 1).

`rk.info("war-stories")` answers, for the widgets, the analysis, the formats and the
statistics, what they used to guess from which hooks a class overrides:

    >>> import rules_kernel as rk
    >>> info = rk.info("war-stories")
    >>> info.hidden_information, info.chance, info.memory
    (True, True, True)
    >>> info.has("editor"), info.formats
    (True, {})

A game declares it on its `Game` subclass: `HIDDEN_INFORMATION`, `CHANCE`, `MEMORY` (the
rules' facts) and `PARTS`, a mapping from each part it brings (the names of `PARTS` below) to
the object that implements it (issue 45 item 2): a module or an instance with plain functions
(`action_text(state, action, viewer)` and the words' others, `heuristic(state, player)`,
`scene(state, perspective)`, `edit_pieces(state)` and the editor's others, `reference(game)`,
`data_options(setting)` and `seat_holdings(record)`; `rules_kernel.parts` writes each set as a
Protocol), or, for the part that is hooks of the position (position text), the game's `State`
class.
`info.part("heuristic")` is the object. The rest of the info is what the class declares already
(`SOLVED_TABLE`, `FAIRY_STOCKFISH_VARIANT`, `HEATMAPS`, the formats' names).

A game written before these declarations existed keeps working: the info takes each missing
one from the hooks the class overrides, and a part from the methods it has (`Game.heuristic`,
`reference`, `data_options`, `seat_holdings`, and its State's `action_text`,
`forgotten_text`, `why_illegal`, `scene`, `edit_pieces` & co, as the earlier docs had them: an
adapter part calls them),
warns once (DeprecationWarning) and lists it in `undeclared`; `rules-explorer check-game`
names the lines to add.

This module imports only `rules_kernel.core` and the registry (docs/architecture.md).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules_kernel import registry
from rules_kernel.core import Game, Heatmap, State

__all__ = [
    "HOOK_METHODS",
    "PARTS",
    "STATE_HOOK_METHODS",
    "STATE_PARTS",
    "GameInfo",
    "HookPart",
    "derived_from_hooks",
    "hook_part",
    "info",
    "parts_line",
    "state_class",
]

#: the parts a game may bring besides its rules, and the functions (or hooks) that make each
PARTS: Mapping[str, str] = MappingProxyType(
    {
        "position text": "State.to_text and Game.from_text: a position written as text and read back",
        "words": "action_text(state, action, viewer), forgotten_text(...) and why_illegal(state, text): "
        "each action in words (the move list)",
        "scene": "scene(state, perspective): a drawing of the position (the board)",
        "editor": "edit_pieces(state), edit_hands(state), edit_to_move(state), edit_fields(state) and "
        "edit(state, ...): the board editor",
        "reference": "reference(game): the players' reference panel",
        "heuristic": "heuristic(state, player): the agents' estimate of a position",
        "statistics": "data_options(setting) and seat_holdings(record): the settings an experiment "
        "cycles through, and what each seat of a recorded game held",
    }
)

#: the parts that are hooks of the position: the game names its State class for them
STATE_PARTS = frozenset({"position text"})

#: the parts that were hooks of the position before they were objects (docs/kernel.md, "What
#: changed"), with the State methods that made each: a State class that still overrides them,
#: or a PARTS that names the State class for them, gets an adapter part
STATE_HOOK_METHODS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "words": ("action_text", "forgotten_text", "why_illegal"),
        "scene": ("scene",),
        "editor": ("edit_pieces", "edit_hands", "edit_to_move", "edit_fields", "edit"),
    }
)

#: the other parts, with the methods a game class had for them before it named its parts
#: (docs/kernel.md, "What changed"): a class that still has them gets an adapter part
HOOK_METHODS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "heuristic": ("heuristic",),
        "reference": ("reference",),
        "statistics": ("data_options", "seat_holdings"),
    }
)

#: the formats a game can be written in: the declaration that names the game there
FORMAT_NAMES: Mapping[str, str] = MappingProxyType({"PGN": "PGN_VARIANT", "KIF": "KIF_HANDICAP"})


@dataclass(frozen=True)
class GameInfo:
    """What a game is (its rules' facts) and which parts it brings."""

    id: str
    title: str
    #: the players with the default options, and every number the options allow
    players: int
    player_counts: tuple[int, ...]
    #: a player's view hides something (cards, hands, bags) in some setting of the game:
    #: views, curtains, determinize; `hides(options)` says whether it does in one setting
    hidden_information: bool
    #: chance acts (a deal, a draw from a bag): chance nodes in every line
    chance: bool
    #: a player's view forgets what it saw (War Stories' cards turned back)
    memory: bool
    #: which of `PARTS` the game brings
    parts: frozenset[str]
    #: engines: the solved table ("module:function") and the Fairy-Stockfish variant, or None
    solved_table: str | None
    fairy_stockfish_variant: str | None
    #: the formats it can be written in, with its name there: {"PGN": "dobutsu", "KIF": ...}
    formats: Mapping[str, str]
    #: statistics and agents: heatmaps, the cap on a recorded game, the search's exploration
    heatmaps: tuple[Heatmap, ...]
    data_max_plies: int
    search_exploration: float | None
    #: declarations the class lacks (taken from the hooks it overrides; see the module text)
    undeclared: tuple[str, ...] = ()
    #: the boolean option that turns the hidden information on, if only some settings hide
    hidden_when: str | None = None
    #: the object of each part (`part(name)`): what the class names in `PARTS`, or an adapter
    #: of its methods for a class written before (left out of equality: an adapter is made anew)
    part_objects: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, repr=False
    )

    def hides(self, options: Mapping[str, object]) -> bool:
        """Does a player's view hide anything in a game with these options? (To War! plain:
        no, both players see all there is; with the strategic variant's hands: yes.)"""
        if self.hidden_when is None:
            return self.hidden_information
        return self.hidden_information and bool(options.get(self.hidden_when))

    def has(self, part: str) -> bool:
        """Does the game bring this part? An unknown part's name is a ValueError (a typo)."""
        if part not in PARTS:
            raise ValueError(f"no part {part!r}; the parts are {', '.join(PARTS)}")
        return part in self.parts

    def part(self, name: str) -> Any:
        """The object the game names for part `name` (a module, an instance, or its State class
        for the position's parts); a LookupError naming the game and the parts it has when it
        brings no such part (`has(name)` first, or `rules_kernel.parts` for the defaults)."""
        if name not in PARTS:
            raise ValueError(f"no part {name!r}; the parts are {', '.join(PARTS)}")
        found = self.part_objects.get(name)
        if found is None:
            raise LookupError(
                f"{self.title} ({self.id}) brings no {name!r} part; its parts: "
                f"{', '.join(sorted(self.part_objects)) or 'none'}"
            )
        return found


def info(game: str | Game | type[Game]) -> GameInfo:
    """The info of a game, by id, instance or class (a class need not be registered)."""
    if isinstance(game, str):
        cls = registry.game_class(game)
    elif isinstance(game, Game):
        cls = type(game)
    elif isinstance(game, type) and issubclass(game, Game):
        cls = game
    else:
        raise TypeError(f"info takes a game id, a Game or a Game class, not {game!r}")
    return _info_of(cls)


_WARNED: set[type[Game]] = set()


def _info_of(cls: type[Game]) -> GameInfo:
    # built on each call (a dataclass of the class's declarations: cheap), so that a
    # declaration changed later (a test's monkeypatch) is seen; only the hooks' reading is kept
    game = cls()
    declared = _declarations(cls)
    objects, adapted = _part_objects(cls, declared["PARTS"])
    # PARTS as names alone (a frozenset, as the earlier docs had it) or parts taken from
    # methods: the objects are not declared
    objects_missing = bool(adapted) or not isinstance(cls.PARTS, Mapping)
    undeclared = tuple(
        name for name, value in declared.items() if value is None or (name == "PARTS" and objects_missing)
    )
    derived = derived_from_hooks(cls) if undeclared else {}
    if undeclared and cls not in _WARNED:
        _WARNED.add(cls)
        warnings.warn(_warning(cls, undeclared, adapted), DeprecationWarning, stacklevel=3)
    facts = {name: derived[name] if value is None else value for name, value in declared.items()}
    counts = cls.OPTIONS["players"].choices if "players" in cls.OPTIONS else None
    return GameInfo(
        id=cls.id,
        title=cls.title,
        players=game.num_players,
        player_counts=tuple(counts) if counts else (game.num_players,),
        hidden_information=bool(facts["HIDDEN_INFORMATION"]),
        hidden_when=_hidden_when(cls, facts["HIDDEN_INFORMATION"]),
        chance=bool(facts["CHANCE"]),
        memory=bool(facts["MEMORY"]),
        parts=frozenset(facts["PARTS"]) | frozenset(adapted),
        solved_table=cls.SOLVED_TABLE,
        fairy_stockfish_variant=cls.FAIRY_STOCKFISH_VARIANT,
        formats=MappingProxyType(
            {
                name: getattr(cls, attribute)
                for name, attribute in FORMAT_NAMES.items()
                if getattr(cls, attribute)
            }
        ),
        heatmaps=tuple(cls.HEATMAPS),
        data_max_plies=cls.DATA_MAX_PLIES,
        search_exploration=cls.SEARCH_EXPLORATION,
        undeclared=undeclared,
        part_objects=MappingProxyType(objects),
    )


def _warning(cls: type[Game], undeclared: tuple[str, ...], adapted: tuple[str, ...]) -> str:
    text = (
        f"{cls.__qualname__} ({cls.id}) does not declare {', '.join(undeclared)}; they are taken "
        "from the hooks it overrides"
    )
    if adapted:
        methods = ", ".join(
            [f"{cls.__qualname__}.{m}" for part in adapted for m in _hooks_of(cls, part)]
            + [f"{state_class(cls).__qualname__}.{m}" for part in adapted for m in _state_hooks_of(cls, part)]
        )
        text += f"; its methods {methods} are no longer the kernel's hooks: write {parts_line(cls)}"
    return text + " (rules-explorer check-game says what to write)"


def _part_objects(cls: type[Game], declared: frozenset[str] | None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Each part's object, and the parts adapted from the methods of a class written before
    the parts were objects. A method counts when the class's PARTS does not name its part, or
    when a subclass wrote it below the PARTS it inherits (a game built on one of ours the old
    way): what the class wrote last is what it meant."""
    named = cls.PARTS if isinstance(cls.PARTS, Mapping) else {}
    if named:
        objects = dict(named)
    else:  # names, or nothing: the position's parts are its State's hooks
        names = declared if declared is not None else derived_from_hooks(cls)["PARTS"]
        objects = {part: state_class(cls) for part in STATE_PARTS & set(names)}
    parts_at = _defined_at(cls, "PARTS")
    adapted = []
    for part in STATE_HOOK_METHODS:
        # the State overrides the old hooks (what the class wrote last is what it meant), or
        # PARTS names the part to nothing but the State class, or by name alone
        thing = objects.get(part, State)
        old_way = isinstance(thing, type) and issubclass(thing, State)
        if _state_hooks_of(cls, part) or (old_way and part in (declared or ())):
            objects[part] = hook_part(cls)
            adapted.append(part)
    for part in HOOK_METHODS:
        at = min((_defined_at(cls, method) for method in HOOK_METHODS[part]), default=None)
        if _hooks_of(cls, part) and (part not in named or (at is not None and at < parts_at)):
            objects[part] = hook_part(cls)
            adapted.append(part)
    return objects, tuple(adapted)


def _defined_at(cls: type, name: str) -> int:
    """How far up the class's MRO `name` is written (0: the class itself); past the end: never."""
    return next((at for at, owner in enumerate(cls.__mro__) if name in vars(owner)), len(cls.__mro__))


def _state_hooks_of(cls: type[Game], part: str) -> tuple[str, ...]:
    """The methods of `part` (`STATE_HOOK_METHODS`) the game's State class overrides: the
    earlier docs' hooks of the position."""
    state = state_class(cls)
    return tuple(
        name for name in STATE_HOOK_METHODS.get(part, ()) if getattr(state, name) is not getattr(State, name)
    )


def _hooks_of(cls: type[Game], part: str) -> tuple[str, ...]:
    """The methods of `part` (`HOOK_METHODS`) the class has: the earlier docs' hooks."""
    return tuple(name for name in HOOK_METHODS.get(part, ()) if callable(getattr(cls, name, None)))


@functools.cache
def state_class(cls: type[Game]) -> type[State]:
    """The class of the game's positions: the object of the position's parts (the base State
    for a class that makes none, as a test's stand-in may: it has none of their hooks)."""
    try:
        return type(cls().initial_state())
    except NotImplementedError:
        return State


class HookPart:
    """The part of a game class written before parts were objects: its methods `heuristic`,
    `reference`, `data_options`, `seat_holdings`, and its State's `action_text`,
    `forgotten_text`, `why_illegal`, `scene`, `edit_pieces`, `edit_hands`, `edit_to_move`,
    `edit_fields`, `edit` (deprecated; `hook_part(cls)`)."""

    def __init__(self, cls: type[Game]) -> None:
        self.game_class = cls

    def __repr__(self) -> str:
        return f"HookPart({self.game_class.__qualname__})"

    def heuristic(self, state: State, player: int) -> float:
        return state.game.heuristic(state, player)  # type: ignore[attr-defined]

    def reference(self, game: Game) -> list[Any]:
        return game.reference()  # type: ignore[attr-defined]

    def data_options(self, setting: int) -> dict[str, Any]:
        method = getattr(self.game_class, "data_options", None)
        return method(setting) if method is not None else {}

    def seat_holdings(self, record: Any) -> dict[str, list[Any]]:
        method = getattr(self.game_class, "seat_holdings", None)
        return method(record) if method is not None else {}

    # the State's methods: its override where it wrote one, else core.State's convenience
    # (which finds no words part for such a game: the notation, the legal moves)
    def action_text(self, state: State, action: Any, viewer: int | None) -> str:
        return state.action_text(action, viewer)

    def forgotten_text(self, state: State, action: Any, viewer: int | None) -> str:
        return state.forgotten_text(action, viewer)

    def why_illegal(self, state: State, text: str) -> str:
        return state.why_illegal(text)

    def scene(self, state: State, perspective: int | None) -> Any:
        return state.scene(perspective)

    def edit_pieces(self, state: State) -> tuple[Any, ...]:
        return state.edit_pieces()

    def edit_hands(self, state: State) -> dict[tuple[int | None, str], int]:
        return state.edit_hands()

    def edit_to_move(self, state: State) -> int | None:
        return state.edit_to_move()

    def edit_fields(self, state: State) -> dict[str, tuple[str, tuple[str, ...]]]:
        return state.edit_fields()

    def edit(self, state: State, **change: Any) -> State:
        return state.edit(**change)


@functools.cache
def hook_part(cls: type[Game]) -> HookPart:
    """One adapter a class, so that each asking gets the same object."""
    return HookPart(cls)


def parts_line(cls: type[Game]) -> str:
    """The PARTS to write for a class: each part it has, named to its object (the State class
    for the position's parts; for a part still made of methods, the module to move them to)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        found = info(cls)
    entries = []
    for part in sorted(found.parts):
        thing = found.part_objects.get(part)
        if isinstance(thing, HookPart) or thing is None:
            methods = HOOK_METHODS.get(part, ()) or STATE_HOOK_METHODS.get(part, ())
            written = [f"{m}({_ARGUMENTS[m]})" for m in methods]
            # a long list (the editor's five) in commas, as a sentence would have it
            long = len(written) > 3
            functions = ", ".join(written[:-1]) + " and " + written[-1] if long else " and ".join(written)
            where = f"<a module with {functions}>" if functions else "<its object>"
        else:
            where = getattr(thing, "__name__", None) or type(thing).__name__
        entries.append(f'"{part}": {where}')
    return "PARTS = {" + ", ".join(entries) + "}"


#: the arguments of each part's functions, as the lines to write name them
_ARGUMENTS = {
    "heuristic": "state, player",
    "reference": "game",
    "data_options": "setting",
    "seat_holdings": "record",
    "action_text": "state, action, viewer",
    "forgotten_text": "state, action, viewer",
    "why_illegal": "state, text",
    "scene": "state, perspective",
    "edit_pieces": "state",
    "edit_hands": "state",
    "edit_to_move": "state",
    "edit_fields": "state",
    "edit": "state, ...",
}


def _hidden_when(cls: type[Game], declared: object) -> str | None:
    """The option named by `HIDDEN_INFORMATION = "<option>"`, checked to be one of the game's
    boolean options (a typo would make the game show every secret)."""
    if not isinstance(declared, str):
        return None
    option = cls.OPTIONS.get(declared)
    if option is None or not isinstance(option.default, bool):
        raise ValueError(
            f"{cls.__qualname__}.HIDDEN_INFORMATION names {declared!r}, which is not one of its "
            f"boolean options ({', '.join(n for n, o in cls.OPTIONS.items() if isinstance(o.default, bool))})"
        )
    return declared


def _declarations(cls: type[Game]) -> dict[str, object]:
    parts = cls.PARTS
    names = frozenset(parts) if parts is not None else None
    if names is not None:
        unknown = sorted(names - set(PARTS))
        if unknown:
            raise ValueError(f"{cls.__qualname__}.PARTS names {unknown}; the parts are {', '.join(PARTS)}")
    if isinstance(parts, Mapping):
        empty = sorted(part for part, thing in parts.items() if thing is None)
        if empty:
            raise ValueError(f"{cls.__qualname__}.PARTS names {empty} with no object (None)")
    return {
        "HIDDEN_INFORMATION": cls.HIDDEN_INFORMATION,
        "CHANCE": cls.CHANCE,
        "MEMORY": cls.MEMORY,
        # names alone (a frozenset, as the earlier docs had it): declared, but not the objects
        "PARTS": names,
    }


@functools.cache
def derived_from_hooks(cls: type[Game]) -> dict[str, object]:
    """The declarations as the hooks a class overrides suggest them: what the widgets and
    formats used to guess each time; the info of a class that lacks a declaration, and what
    `check-game` compares the declarations with. The parts besides the position's come from
    the methods the earlier docs had on the Game class (`HOOK_METHODS`)."""
    state = state_class(cls)

    def overrides(name: str) -> bool:
        return getattr(state, name) is not getattr(State, name)

    parts = {
        "position text": overrides("to_text") and cls.from_text is not Game.from_text,
        # the earlier docs' hooks: a State that overrides them (ours name a words part)
        "words": bool(_state_hooks_of(cls, "words")),
        "scene": bool(_state_hooks_of(cls, "scene")),
        "editor": bool(_state_hooks_of(cls, "editor")),
    }
    parts.update({part: bool(_hooks_of(cls, part)) for part in HOOK_METHODS})
    return {
        "HIDDEN_INFORMATION": overrides("view"),
        "CHANCE": overrides("chance_outcomes") or overrides("sample_chance"),
        "MEMORY": overrides("forgets"),
        "PARTS": frozenset(name for name, present in parts.items() if present),
    }
