"""The protocol every game follows: games, states, moves, chance, outcomes, errors.

A game is a small class (`Game`) holding validated options; a position is an immutable
`State`. Every action — a player's move or a chance outcome — is a hashable value whose
`str()` is its notation, so a whole game can be written as text and replayed without a
random generator (see `rules_kernel.records`).

Each game module subclasses `Game` and `State` and fills in a handful of hooks:

    Game:  initial_state(), from_text(text)
    State: current_player, legal_moves(), _successor(action), _compute_outcome(),
           to_text(), scene(perspective); for chance: chance_outcomes() or sample_chance();
           for secrets: view(player); for study positions: status()

Everything else (apply with legality checks, parse_move, outcome() computed once and cached,
is_terminal(), perft, repr) is shared. Position text: `rules_kernel.position_text`.
What the rest of the project needs of a game besides its rules (drawing hints, a solved
table, the formats' names) the Game subclass declares as class attributes; the parts it brings
(its agents' heuristic, its reference panel, the statistics' settings) are objects it names in
`PARTS`, asked through `rules_kernel.info` and `rules_kernel.parts`, never methods of `Game`:
this module is the rules (issue 45 item 2; docs/kernel.md, "Adding a game").
"""

from __future__ import annotations

import functools
import inspect
import operator
import random
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, ClassVar

#: `State.current_player` at a chance node (a deal, a shuffle, a draw from a bag).
CHANCE = -1


class _NotComputed:
    """A state's cached outcome before `outcome()` has worked it out (None means: not over)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_COMPUTED"


#: `State._outcome` until `outcome()` has computed it: the class default, which a state with
#: `__slots__` (Yōkai) sets in `__init__`, as a slot has no class default.
NOT_COMPUTED: Any = _NotComputed()


class RulesError(ValueError):
    """Base of every error the kernel raises about bad input."""


class IllegalMoveError(RulesError):
    """A move that is not legal in the position, or notation that names no move."""


class OptionError(RulesError):
    """An unknown game, an unknown option, or a value an option does not accept."""


class PositionTextError(RulesError):
    """Position text (`Game.from_text`) that does not describe a valid position. Where one
    field is at fault, `field` names it ("board") and `why` says what is wrong with it, so a
    page can put the reason in its own sentence."""

    def __init__(self, message: str, *, field: str | None = None, why: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.why = why


class ChanceNotEnumerableError(RulesError):
    """`chance_outcomes()` at a chance node with too many outcomes to list (a deal)."""


class SeatError(RulesError):
    """A player index that is no seat of the game (`view(7)`, `view(-1)`, `view('a')`)."""


class HiddenInformationError(RulesError):
    """An action on a view whose result depends on what that view does not know (flipping
    a card it has never seen): play it on the full state, or on `view.determinize(rng)`."""


def check_seat(game: Game, player: object) -> int:
    """`player` as a seat index of `game`, or SeatError naming the valid seats.

    Every game's `view(player)` calls this first, so a bad seat never yields a view that
    silently hides everything. A bool is refused although Python counts it as an int."""
    seats = range(game.num_players)
    valid = ", ".join(map(str, seats))
    if isinstance(player, bool):
        raise SeatError(f"{game.id} has no player {player!r}; its seats are {valid}")
    try:
        seat = operator.index(player)
    except TypeError:
        raise SeatError(
            f"{game.id} has no player {player!r} (a {type(player).__name__}); its seats are {valid}"
        ) from None
    if seat not in seats:
        raise SeatError(f"{game.id} has no player {seat}; its seats are {valid}")
    return seat


class Action:
    """A move or a chance outcome. Subclasses are hashable values; `str()` is the notation.

    `cells` names the scene cells the action touches, in the order a player would click
    them, so one generic widget can turn clicks into moves.
    """

    __slots__ = ()
    cells: tuple[str, ...] = ()
    is_chance: ClassVar[bool] = False

    @property
    def choice_label(self) -> str:
        """A few words that tell this action from others on the same cells ("Promote",
        "Don't promote"): what a button offering the choice says. Games override it."""
        return str(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


@dataclass(frozen=True)
class EditPiece:
    """A piece a board editor places: `key` (what `State.edit` takes), its `name` in the
    rulebook's words, its `owner` (a seat, or None), whether it may stand on the board
    (`on_board`: the editor's palette offers it) and whether it is also counted off the
    board (`in_hand`: the editor offers a counter for it, labelled with `pile`, the place
    it is counted in as the rulebook names it: "hand", "bag", "discards", "supply"...). A
    piece counted in two places is two EditPieces with two keys."""

    key: str
    name: str
    owner: int | None = None
    in_hand: bool = False
    pile: str = "hand"
    on_board: bool = True


class Move(Action):
    """A player's move."""

    __slots__ = ()


class ChanceOutcome(Action):
    """The result of a chance event."""

    __slots__ = ()
    is_chance: ClassVar[bool] = True


@dataclass(frozen=True, eq=True)
class TextChance(ChanceOutcome):
    """A chance outcome that is fully described by its notation (a deal, a draw)."""

    notation: str
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    `winner` is the winning player's index, or the winning team's index in team games;
    None means no winner: a draw, or (with `finished=False`) a game stopped by a cap.
    `winners` lists the winning players' indices (both teammates in a team game).
    """

    winner: int | None
    reason: str
    winners: tuple[int, ...] = ()
    finished: bool = True

    @property
    def is_draw(self) -> bool:
        return self.finished and self.winner is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "winners": list(self.winners),
            "finished": self.finished,
        }

    @classmethod
    def win(cls, player: int, reason: str) -> Outcome:
        return cls(player, reason, (player,))

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        return cls(None, reason)

    @classmethod
    def unfinished(cls, reason: str = "unfinished") -> Outcome:
        return cls(None, reason, (), finished=False)


@dataclass(frozen=True)
class Option:
    """A game option: its default (the project's ruling), and what it accepts."""

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    kind: type | tuple[type, ...] | None = None
    #: extra validation: returns the (normalised) value or raises ValueError saying why
    check: Callable[[Any], Any] | None = None
    #: a list option whose every item is one of these (an army per player): for forms
    items: tuple[Any, ...] | None = None
    #: the words an option takes besides lists (War Chest's setup: 'random', 'draft', ...)
    words: tuple[str, ...] | None = None
    #: a data table a visitor may upload (To War!'s units): turns a file's *content* and its
    #: name into the option's value (never opens anything); forms offer a file upload for it
    from_bytes: Callable[[bytes, str], Any] | None = None
    #: the largest such file `from_bytes` reads: a page refuses a larger one before sending it
    max_bytes: int | None = None

    def validate(self, game_id: str, name: str, value: Any) -> Any:
        where = f"option {name!r} of {game_id}"
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"{where} must be one of {allowed}; got {value!r}")
        if self.kind is not None:
            kinds = _as_tuple(self.kind)
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                raise OptionError(f"{where} must be {_kind_name(self.kind)}; got {value!r}")
        if self.check is not None:
            try:
                value = self.check(value)
            except OptionError:
                raise
            except (ValueError, TypeError) as exc:
                raise OptionError(f"{where}: {exc}") from exc
        return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in _as_tuple(kind))


@dataclass(frozen=True)
class Heatmap:
    """A board heatmap a game declares for the statistics pages (`Game.HEATMAPS`): what is
    counted on which cell of the start position's board, over recorded games' actions.

    `count(actions, scene)` takes the actions DataFrame (`rules_kernel.stats`) and the start
    scene and returns a `rules_kernel.heatmaps.CellCounts`; it imports pandas only when called,
    so declaring a heatmap costs the kernel nothing."""

    name: str  # short, CSS-safe, unique within the game ("captures"): the picture's key
    title: str  # what the picture shows, after the game's title ("where captures happen")
    what: str  # the events counted, plural ("captures")
    explains: str  # how one event is counted, in a sentence without its full stop
    count: Callable[[Any, Any], Any]
    #: the statistics page also tabulates when each cell's events happened (first, median ply)
    when_table: bool = False


@dataclass(frozen=True)
class ReferenceEntry:
    """One entry of a game's reference panel (its "reference" part): a piece, a unit, a card or
    an action, with what it does in one line, in the rulebook's terms.

    `moves`: for a piece, the squares it reaches as (dx, dy) steps from where it stands, seen
    from its owner's side (dy > 0: forward), as `scene.Token.steps`; the panel draws them as a
    dot diagram. `slides`: the moves are directions it goes along any number of free squares
    (a rook's), not single steps. `short`: the mark drawn for it where the name does not fit
    (the board's symbol). `group`: the heading it stands under ("Pieces", "Cards")."""

    name: str
    line: str
    moves: tuple[tuple[int, int], ...] = ()
    slides: bool = False
    short: str = ""
    group: str = ""


#: What `game.heuristic`, `game.reference`, `game.data_options`, `game.seat_holdings`,
#: `game.open_solved_table` and `game.solved_table_availability` give on a game whose class
#: writes no such method: a function of the game returning the callable, which forwards to the
#: game's part and warns once (DeprecationWarning). They were methods of `Game` before the
#: parts (issue 45 item 2); `rules_kernel.parts` fills this in, as core knows no parts.
DEPRECATED_CONVENIENCES: dict[str, Callable[[Game], Callable[..., Any]]] = {}


class _MovedToParts:
    """A method `Game` had before the parts: on a game (`game.heuristic(state, p)`) the
    deprecated forward to its part; on a class nothing (AttributeError), so that the protocol
    has no such hook and a game class that writes one is a game of the earlier docs. A plain
    descriptor, not `Game.__getattr__`: a class with `__getattr__` makes every attribute of
    its instances slower to read (CPython no longer specialises the lookups), and the rules
    read `self.game.options` and the like in every move."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, game: Game | None, owner: type | None = None) -> Callable[..., Any]:
        if game is None:
            where = owner.__name__ if owner is not None else "Game"
            raise AttributeError(f"{where}.{self.name}: a game's part now (rules_kernel.parts), not a method")
        return DEPRECATED_CONVENIENCES[self.name](game)


class Game:
    """A game with its options. Subclasses set `id`, `title`, `OPTIONS` and the hooks."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    num_players: int = 2

    # --- what the game is: its rules' facts and the parts it brings (rules_kernel.info) -------
    # Declared, not guessed: `rk.info(game_id)` reads them. None: not declared (a game written
    # before they existed); the info then takes them from the hooks the class overrides.

    #: a player's view hides something (cards, hands, bags): the game overrides `State.view`;
    #: or the name of the boolean option that makes it hide something (To War!: "strategic",
    #: the variant with hidden hands; the plain game shows both players everything there is)
    HIDDEN_INFORMATION: ClassVar[bool | str | None] = None
    #: chance acts (a deal, a draw): the game has chance nodes (`State.chance_outcomes`)
    CHANCE: ClassVar[bool | None] = None
    #: a player's view forgets what it saw (`State.forgets`)
    MEMORY: ClassVar[bool | None] = None
    #: the parts it brings besides its rules: each name of `rules_kernel.info.PARTS` to the
    #: object that implements it (a module or an instance with the part's functions; the
    #: State class for the position's parts): {"heuristic": hints, "scene": NimState, ...}
    PARTS: ClassVar[Mapping[str, Any] | frozenset[str] | None] = None

    def team(self, player: int) -> int:
        """The side `player` plays for: its own seat, unless the game is played in teams
        (War Chest with four players: seats 0 and 2 against 1 and 3)."""
        return player

    # --- what the project needs of a game besides its rules ---------------------------------
    # Each game declares these in its own module, so no code outside rules_kernel/games/ tests
    # a game's id (docs/kernel.md, "Adding a game"). The defaults suit a game that has none.

    #: where the game stands when games are listed for people (statistics tables, the data
    #: files of make_data): smaller first, ties by id
    LIST_ORDER: ClassVar[int] = 1000
    #: a drawing hint: where long piece names break across lines ({"Koropokkuru": ("Koro-",
    #: "pokkuru")}); names not listed split at spaces
    NAME_BREAKS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: the game's solved table, as "module:function": the function of the game id that opens
    #: it (`rules_kernel.parts.open_solved_table`; the module's `availability(game_id)` says
    #: whether it is there); None: the game is not solved
    SOLVED_TABLE: ClassVar[str | None] = None
    #: the Fairy-Stockfish variant that plays this game (its UCI_Variant); None: the engine
    #: does not (rules_kernel.analysis then searches with the tree search)
    FAIRY_STOCKFISH_VARIANT: ClassVar[str | None] = None
    #: the formats: the game's name in PGN's Variant header (and other names read as it), and
    #: in KIF's 手合割 line; None: the game is not written in that format
    PGN_VARIANT: ClassVar[str | None] = None
    PGN_ALIASES: ClassVar[tuple[str, ...]] = ()
    KIF_HANDICAP: ClassVar[str | None] = None
    #: statistics: the cap on actions of a game played for the data files, so that no random
    #: game runs forever (it is then recorded as unfinished)
    DATA_MAX_PLIES: ClassVar[int] = 1000
    #: statistics: the board heatmaps drawn over recorded games, in the order shown
    HEATMAPS: ClassVar[tuple[Heatmap, ...]] = ()
    #: analysis: the tree search's UCB exploration constant where the game's heuristic calls
    #: for another than the search's default (`analysis.ismcts.EXPLORATION`); None: the default.
    #: It weighs exploring against the heuristic's differences between moves, which are of a
    #: different size in each game (docs/analysis.md, "Exploration per game")
    SEARCH_EXPLORATION: ClassVar[float | None] = None

    # the methods the parts replaced (issue 45 item 2), for code that calls them on a game:
    # each forwards to the game's part with a warning; none is a hook (`_MovedToParts`)
    heuristic = _MovedToParts()
    reference = _MovedToParts()
    data_options = _MovedToParts()
    seat_holdings = _MovedToParts()
    open_solved_table = _MovedToParts()
    solved_table_availability = _MovedToParts()

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(sorted(self.OPTIONS)) or "none"
            raise OptionError(f"{self.id} has no option {unknown[0]!r} (its options: {known})")
        values = {name: opt.default for name, opt in self.OPTIONS.items()}
        for name, value in options.items():
            values[name] = self.OPTIONS[name].validate(self.id, name, value)
        self.options: Mapping[str, Any] = MappingProxyType(self._check_options(values))

    def _check_options(self, values: dict[str, Any]) -> dict[str, Any]:
        """Hook: cross-check or normalise option values (raise OptionError)."""
        return values

    def initial_state(self) -> State:
        raise NotImplementedError

    def from_text(self, text: str) -> State:
        raise NotImplementedError

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(f"Player {i + 1}" for i in range(self.num_players))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.OPTIONS[k].default}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.id!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.id, dict(self.options)) == (other.id, dict(other.options))

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((k, repr(v)) for k, v in self.options.items()))))


#: each game class's words, scene and editor parts as `part_named` found them (None: the game has
#: none). Filled on first asking, cleared by `rules_kernel.parts.forget()`: a move list asks
#: for every line, a redraw for its scene.
NAMED_PARTS: dict[tuple[type[Game], str], Any] = {}


def default_edit_to_move(state: State) -> int | None:
    """The side to move as an editor shows it for a game whose editor says no other: the
    player to move, or while chance acts before a player's turn (a draw) that player
    (`State.chance_for`); None when no seat is meant (a deal)."""
    if 0 <= state.current_player < state.game.num_players:
        return state.current_player
    return state.chance_for


def part_named(cls: type[Game], name: str) -> Any | None:
    """The object a game class names for part `name` (`PARTS["words"]`, `["scene"]`,
    `["editor"]`), or None: no such part, or a State class named for it (the earlier docs':
    its methods are the part, and a State subclass's own override is what its conveniences
    call). Core reads the declaration itself, as it imports no info nor parts."""
    try:
        return NAMED_PARTS[cls, name]
    except KeyError:
        pass
    named = cls.PARTS.get(name) if isinstance(cls.PARTS, Mapping) else None
    state_class = isinstance(named, type) and issubclass(named, State)
    found = NAMED_PARTS[cls, name] = None if named is None or state_class else named
    return found


def default_why_illegal(state: State, text: str) -> str:
    """Why `text` names no legal move, for a game whose words do not say: the legal moves."""
    moves = sorted(str(m) for m in state.legal_moves())
    shown = ", ".join(moves[:40]) + (" ..." if len(moves) > 40 else "")
    return f"{_cut(text)!r} is not a legal move here; legal moves: {shown or 'none'}"


@functools.cache
def _field_names(state_class: type) -> frozenset[str]:
    """The dataclass fields of a state class (`State.replaced`)."""
    return frozenset(f.name for f in fields(state_class))


class State:
    """An immutable position. `apply` returns a new state; the old one is untouched."""

    __slots__ = ()
    game: Game
    #: `outcome()`'s cache: `is_terminal`, `legal_moves` and `apply` all ask for the outcome,
    #: and working it out may search the moves (no legal move, Haisen), so once per state
    _outcome: Any = NOT_COMPUTED
    #: the player whose turn the last action ended while its result is still face up for them
    #: to see (War Stories' second card); a one-screen table lets them look and say "done"
    #: before the hand-over. None: nothing to look at (every game without such a moment).
    hand_over_from: int | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A `view(self, player)` written as the docs had it before `memory` joined the protocol
        is adapted as its class is made, with a DeprecationWarning saying what to write: the
        kernel calls `view(player, memory=True)` for an agent (`agents.agent_view`)."""
        super().__init_subclass__(**kwargs)
        view = cls.__dict__.get("view")
        if inspect.isfunction(view) and not _takes_memory(view):
            cls.view = _view_taking_memory(cls, view)  # type: ignore[method-assign]

    #: how the action to come here stands to the rulebook's turns: TURN_BEGINS (a player's
    #: action that starts their turn; at chance, a draw that opens the turn of `chance_for`),
    #: TURN_GOES_ON (it belongs to the turn under way: a follow-up, a second flip, a push, a
    #: draw in the middle of a turn) or BETWEEN_TURNS (chance that is no one's turn: a deal, a
    #: round's draws). A game whose turns are more than one action overrides it; the default:
    #: every player's action is a turn, every chance event stands between turns. Read through
    #: `turns` (one numbering for the move list, the Replay and the report).
    @property
    def turn_part(self) -> str:
        return BETWEEN_TURNS if self.current_player == CHANCE else TURN_BEGINS

    @property
    def chance_for(self) -> int | None:
        """The player a pending chance event happens to (the one who draws), when its words do
        not say so; None for a chance event of nobody's (a deal). A move list puts that
        player's name beside it."""
        return None

    # --- hooks every game implements -------------------------------------------------
    @property
    def current_player(self) -> int:
        raise NotImplementedError

    def legal_moves(self) -> list[Move]:
        """The player's legal moves; [] at a terminal state and at a chance node."""
        raise NotImplementedError

    def _successor(self, action: Action) -> State:
        """The state after a legal action (no legality check: `apply` did it)."""
        raise NotImplementedError

    def _compute_outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on (`outcome()` calls it once per state)."""
        raise NotImplementedError

    def to_text(self) -> str:
        raise NotImplementedError

    def scene(self, perspective: int | None = None) -> Any:
        """Plain data for drawing (`rules_kernel.scene.Scene`), as the game's "scene" part
        draws this position (`rules_kernel.parts.ScenePart`); a perspective hides secrets. A
        convenience, not a hook: the widgets call `rules_kernel.parts.scene(state, p)`.
        NotImplementedError naming the game for one that names no scene part."""
        found = part_named(type(self.game), "scene")
        if found is None:
            raise NotImplementedError(
                f"{self.game.title} ({self.game.id}) has no board: name a scene part in "
                f'{type(self.game).__name__}.PARTS, "scene": <a module with scene(state, perspective)>'
            )
        return found.scene(self, perspective)

    # --- chance and secrets: defaults for games without them ---------------------------
    def chance_outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        """[(outcome, probability)] at a chance node; [] elsewhere."""
        return []

    def sample_chance(self, rng: random.Random) -> ChanceOutcome:
        """One chance outcome drawn with `rng`; games with huge outcome sets override this."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise RulesError("sample_chance() called where no chance event is pending")
        actions = [action for action, _ in outcomes]
        weights = [weight for _, weight in outcomes]
        return rng.choices(actions, weights=weights)[0]

    def view(self, player: int, *, memory: bool | None = None) -> State:
        """What `player` may know. Perfect-information games: the state itself.

        `memory=True`: what a player who forgets nothing knows (every card it saw turned up),
        for an agent; the default is what lies in sight now, as a player's board shows it.
        Only a game whose view forgets (War Stories turns cards back face down) tells the two
        apart; the others take the keyword and give the same view.

        Every override starts with `check_seat(self.game, player)`."""
        check_seat(self.game, player)
        return self

    # --- the game's words, as conveniences (issue 45 item 2): not hooks ----------------------
    # A game's actions in words are its "words" part (`PARTS["words"]`: an object with
    # `action_text(state, action, viewer)`, `forgotten_text(...)` and `why_illegal(state, text)`,
    # `rules_kernel.parts.WordsPart`). These methods forward to it, so that callers may write
    # `state.action_text(m)` as python-chess's `board.san(m)`; the consumers in the kernel and the
    # widgets call `rules_kernel.parts.action_text(state, m)`. A game of the earlier docs whose
    # State class overrides one of them is still heard (its override wins here, and the info's
    # adapter part calls it, with a DeprecationWarning).
    def action_text(self, action: Action | str, viewer: int | None = None) -> str:
        """`action`, about to be played here, in words, as `viewer` learns of it (None:
        all-seeing): what a move list shows (issue #22), as the game's words part says it
        (`rules_kernel.parts.WordsPart.action_text`: a phrase in the rulebook's terms without
        the actor). A game without the part: the notation (`str(action)`); records always keep
        the notation. `action` may be given as its notation (IllegalMoveError if it names none
        here)."""
        action = self._action_of(action)
        words = part_named(type(self.game), "words")
        return str(action) if words is None else words.action_text(self, action, viewer)

    # --- views that forget (issue 44): what a viewer can still tell of an action ----------
    def forgets(self, action: Action) -> bool:
        """Has this position, as its view shows it, forgotten what `action` showed? `action`
        is one played elsewhere on this state's line: before it (a move list's past entries)
        or after it (looking back: the entries still to come). Only a view that forgets says
        yes: War Stories' `view(p)` shows a card turned back as a card back again, so a flip
        of a card that is face down (`?`) here is forgotten. The all-seeing state, a view with
        `memory=True` and every game whose views keep what they saw forget nothing: the
        default is False. A move list writes a forgotten action as `forgotten_text` words it
        (`recalled_text` picks the one or the other)."""
        return False

    def forgotten_text(self, action: Action | str, viewer: int | None = None) -> str:
        """`action`, about to be played here, in words for `viewer` once its view has forgotten
        what the action showed (`forgets`): the words part's `forgotten_text` ("turns over a2",
        "turns over b2 — no match, both turned back"). A game without the part: `action_text`."""
        action = self._action_of(action)
        words = part_named(type(self.game), "words")
        if words is None:
            return self.action_text(action, viewer)
        return words.forgotten_text(self, action, viewer)

    def recalled_text(self, action: Action | str, viewer: int | None, now: State) -> str:
        """`action`, played here, in words as `viewer` can still tell of it when its view shows
        `now`: `now` is `viewer`'s view (or the all-seeing state) of the position the reader is
        at, on the same line, later than the action or, looking back, earlier. The words a
        move list shows beside that position: `forgotten_text` where `now.forgets(action)`,
        else `action_text`. Not a hook: a game overrides `forgets` and its words part says
        `forgotten_text` (`rules_kernel.parts.recalled_text` is the same for the consumers)."""
        action = self._action_of(action)
        if now.forgets(action):
            return self.forgotten_text(action, viewer)
        return self.action_text(action, viewer)

    def _action_of(self, action: Action | str) -> Action:
        """The action itself, or the one its notation names here: a legal move, or the
        pending chance event's outcome (IllegalMoveError saying why when it names none)."""
        if not isinstance(action, str):
            return action
        return self._resolve_chance(action) if self.current_player == CHANCE else self.parse_move(action)

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this one (a view), its unknowns drawn with `rng`:
        what a searching agent imagines. Perfect-information games: the state itself."""
        return self

    def parse_chance(self, text: str) -> ChanceOutcome:
        """A chance outcome from its notation; games with huge outcome sets override this."""
        for outcome, _ in self.chance_outcomes():
            if str(outcome) == text:
                return outcome
        raise IllegalMoveError(f"{_cut(text)!r} is not a possible chance outcome here")

    def status(self) -> list[str]:
        """What makes this position unreachable or unusual in a real game, as short sentences
        ("3 cards out of the game", "no Daimyo for Black"), like python-chess's
        `Board.status()`: a study position (a rulebook's diagram, a puzzle) is accepted by
        `Game.from_text` and played, and this says what is odd about it instead of refusing
        it. Every position reached by play from the start has none. The default: none."""
        return []

    # --- the board editor: conveniences forwarding to the game's "editor" part -------------
    # (not hooks: the widgets call `rules_kernel.parts.edit_pieces(state)` & co; a game that
    # names no editor part has the defaults below: no editor yet)
    def edit_pieces(self) -> tuple[EditPiece, ...]:
        """What a board editor offers to place in this game, each seat's in its colour, as the
        game's "editor" part says (`rules_kernel.parts.EditorPart`; none: nothing, the game
        has no editor yet)."""
        found = part_named(type(self.game), "editor")
        return () if found is None else found.edit_pieces(self)

    def edit_hands(self) -> dict[tuple[int | None, str], int]:
        """How many of each counted piece (`EditPiece.in_hand`) there are, keyed as
        `edit(hands=...)` takes them: (owner, piece key) -> count (no editor part: none)."""
        found = part_named(type(self.game), "editor")
        return {} if found is None else found.edit_hands(self)

    def edit_to_move(self) -> int | None:
        """The side to move as an editor shows it (`edit(to_move=...)` sets it), as the editor
        part says; without one `default_edit_to_move`: the player to move, or `chance_for`."""
        found = part_named(type(self.game), "editor")
        return default_edit_to_move(self) if found is None else found.edit_to_move(self)

    def edit_fields(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The position's turn fields besides the side to move that an editor sets (a
        phase, who holds the initiative...): name -> (its value now, the values it may
        take), all as words the rulebook uses (no editor part: none)."""
        found = part_named(type(self.game), "editor")
        return {} if found is None else found.edit_fields(self)

    def edit(
        self,
        *,
        place: Mapping[str, str | None] | None = None,
        hands: Mapping[tuple[int | None, str], int] | None = None,
        to_move: int | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> State:
        """This position changed as a board editor asks, by the game's "editor" part: `place`
        puts the piece `key` (an `EditPiece.key`) on each cell, None empties it; `hands` sets
        how many of a counted piece there are; `to_move` the side to move; `fields` the turn
        fields of `edit_fields`. The result is checked as a position text is
        (`Game.from_text`: at most the box, `status()` saying what is odd), so a refusal is a
        PositionTextError naming the field. It starts a game: no history.
        NotImplementedError naming the game for one that names no editor part."""
        found = part_named(type(self.game), "editor")
        if found is None:
            raise NotImplementedError(
                f"{self.game.id} has no board editor yet: name an editor part in "
                f'{type(self.game).__name__}.PARTS, "editor": <a module with edit_pieces(state), '
                "edit_hands(state), edit_to_move(state), edit_fields(state) and edit(state, ...)>"
            )
        return found.edit(self, place=place, hands=hands, to_move=to_move, fields=fields)

    def why_illegal(self, text: str) -> str:
        """The reason `text` names no legal move, as the game's words part says it; a game
        without the part lists the legal moves (`default_why_illegal`). `apply` and
        `parse_move` put it in their IllegalMoveError."""
        words = part_named(type(self.game), "words")
        return default_why_illegal(self, text) if words is None else words.why_illegal(self, text)

    # --- shared behaviour ------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on; worked out once per state (cached)."""
        outcome = self._outcome
        if outcome is NOT_COMPUTED:
            outcome = self._compute_outcome()
            object.__setattr__(self, "_outcome", outcome)  # a cache, not a change: states are frozen
        return outcome

    def is_terminal(self) -> bool:
        """Whether the game is over: it has an outcome."""
        return self.outcome() is not None

    def apply(self, action: Action | str) -> State:
        """The state after `action` (a Move, a chance outcome, or either's notation).

        Anything else (a list, None, a number) is IllegalMoveError, never a TypeError."""
        if not isinstance(action, (Action, str)):
            raise IllegalMoveError(
                f"{_describe(action)} is not an action: give a Move, a chance "
                "outcome or the notation of either"
            )
        if self.is_terminal():
            raise IllegalMoveError(
                f"the game is over ({self.outcome().reason}); no move {_cut(str(action))!r} can be played"
            )
        if self.current_player == CHANCE:
            return self._successor(self._resolve_chance(action))
        if isinstance(action, str):
            return self._successor(self.parse_move(action))
        if getattr(action, "is_chance", False):
            raise IllegalMoveError(
                f"chance outcome {str(action)!r} given where player {self.current_player} is to move"
            )
        if action not in self._legal_set():
            raise IllegalMoveError(self.why_illegal(str(action)))
        return self._successor(action)

    def _resolve_chance(self, action: Action | str) -> ChanceOutcome:
        if isinstance(action, str):
            return self.parse_chance(action)
        if not getattr(action, "is_chance", False):
            raise IllegalMoveError(
                f"a chance event is pending; move {str(action)!r} cannot be played until it is resolved"
            )
        return self.parse_chance(str(action))

    def parse_move(self, text: str) -> Move:
        """The legal move whose notation is `text` (spaces around it ignored), for the player
        to move; IllegalMoveError saying why (`why_illegal`) when `text` names none."""
        text = text.strip()
        for move in self.legal_moves():
            if str(move) == text:
                return move
        raise IllegalMoveError(self.why_illegal(text))

    def _legal_set(self) -> frozenset[Move]:
        """The legal moves as a set, for `apply`'s check: made once and kept by a state that
        can keep it (one with a `__dict__`), since a search applies many moves of one state."""
        kept = getattr(self, "__dict__", None)
        if kept is None:
            return frozenset(self.legal_moves())
        moves = kept.get("_legal_set_kept")
        if moves is None:
            moves = kept["_legal_set_kept"] = frozenset(self.legal_moves())  # a cache, not a field
        return moves

    def replaced(self, **changes: Any) -> State:
        """`dataclasses.replace(self, **changes)` for a state that is a dataclass, without
        running `__init__` field by field: the new state shares the unchanged fields and none
        of the caches (outcome, moves). The rules make several states per action, and
        `replace` was a sixth (War Chest) to a quarter (War Stories) of the tree search's time.
        TypeError for a name that is no field."""
        names = _field_names(type(self))
        if not changes.keys() <= names:
            raise TypeError(f"{type(self).__name__} has no field {sorted(changes.keys() - names)[0]!r}")
        new = object.__new__(type(self))
        values = self.__dict__
        new.__dict__.update({name: values[name] for name in names}, **changes)
        return new

    def play(self, *actions: Action | str) -> State:
        """Apply several actions in turn (a convenience for scenarios and docs)."""
        state = self
        for action in actions:
            state = state.apply(action)
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_text()!r})"


#: `State.turn_part`'s answers
TURN_BEGINS, TURN_GOES_ON, BETWEEN_TURNS = "begins", "goes on", "between turns"


@dataclass(frozen=True)
class Turn:
    """A turn as the rulebook counts them: the `number`-th of the line (1 for its first, every
    player's turns counted together, as the move list numbers them) and whose it is."""

    number: int
    player: int


def next_turn(before: State, last: Turn | None, count: int) -> tuple[Turn | None, int]:
    """The turn of the action played in `before`, after an action of turn `last` (None: the line's
    start, or chance between turns) when `count` turns have begun: (its turn or None for chance
    between turns, the turns begun with it). The step `turns` and the session's cache take."""
    part = before.turn_part
    actor = before.current_player
    if actor == CHANCE:
        actor = before.chance_for if part == TURN_BEGINS or last is None else last.player
        if actor is None or part == BETWEEN_TURNS:
            return None, count
    elif part == BETWEEN_TURNS:
        part = TURN_BEGINS  # a player's action is always part of a turn
    if part == TURN_GOES_ON and last is not None:
        return last, count
    return Turn(count + 1, actor), count + 1  # a line from a position in mid-turn begins with it


def turns(befores: Iterable[State]) -> list[Turn | None]:
    """The turn of each action of a line, given the state each was played in, from the line's
    start: `turns(states[:-1])`. None for chance between turns (a deal, a round's draws)."""
    found: list[Turn | None] = []
    last, count = None, 0
    for before in befores:
        last, count = next_turn(before, last, count)
        found.append(last)
    return found


def _takes_memory(view: Callable[..., Any]) -> bool:
    """Whether a `view` override takes the `memory` keyword (by name, or as **kwargs)."""
    try:
        parameters = inspect.signature(view).parameters.values()
    except (TypeError, ValueError):  # nothing to read: leave it as written
        return True
    return any(p.name == "memory" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def _view_taking_memory(state_class: type, view: Callable[..., State]) -> Callable[..., State]:
    """`view(self, player)`, the earlier documented signature, taking `memory` and leaving it
    unused: such a view forgets nothing (forgetting came with `memory`), so with memory or
    without it is the same view. Deprecated: the warning points at the class's definition."""
    warnings.warn(
        f"{state_class.__qualname__}.view(self, player) takes no 'memory': the kernel calls "
        "view(player, memory=True) for agents; write it as `def view(self, player, *, memory=None)` "
        "(a view that forgets nothing ignores memory). The kernel adapts it for now; the old "
        "signature is deprecated (docs/kernel.md, 'Adding a game')",
        DeprecationWarning,
        stacklevel=3,  # _view_taking_memory <- __init_subclass__ <- the class statement
    )

    def view_with_memory(self: State, player: int, *, memory: bool | None = None) -> State:
        return view(self, player)

    for name in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(view_with_memory, name, getattr(view, name))
    view_with_memory.kernel_adapted_view = True  # type: ignore[attr-defined]  # check_game says so
    return view_with_memory


def _cut(text: str, most: int = 60) -> str:
    """`text` for an error message: never echo a huge input in full."""
    return text if len(text) <= most else text[:most] + "..."


def _describe(value: object) -> str:
    """A short, safe description of a bad argument for an error message."""
    text = repr(value)
    return f"{type(value).__name__} {text[:40]}{'...' if len(text) > 40 else ''}"


def perft(state: State, depth: int) -> int:
    """Number of leaf positions `depth` plies ahead; terminal positions are not expanded.

    At the last ply the legal moves are counted, not applied (bulk counting, as perft
    programs do). Chance nodes count each outcome as a branch. Games may provide a faster
    `_perft(depth)` that must give the same numbers.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    fast = getattr(state, "_perft", None)
    if fast is not None:
        return fast(depth)
    return _generic_perft(state, depth)


def _generic_perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.current_player == CHANCE:
        branches: Iterable[Action] = [o for o, _ in state.chance_outcomes()]
    else:
        branches = state.legal_moves()
    if depth == 1:
        return sum(1 for _ in branches)
    return sum(_generic_perft(state._successor(a), depth - 1) for a in branches)


def playout(state: State, rng: random.Random, max_plies: int | None = None) -> list[State]:
    """A random game from `state`: uniform moves, chance by its probabilities.

    Returns every state visited (the first is `state`). Stops at a terminal state or after
    `max_plies` actions.
    """
    states = [state]
    while not state.is_terminal() and (max_plies is None or len(states) <= max_plies):
        if state.current_player == CHANCE:
            action: Action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_moves())
        state = state._successor(action)
        states.append(state)
    return states


def notation_list(actions: Sequence[Action]) -> list[str]:
    return [str(a) for a in actions]
