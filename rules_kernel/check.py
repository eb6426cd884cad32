"""`check_game(cls)`: does a game follow the kernel's protocol? The conformance suite a game's
author runs on their own `Game` subclass before the explorer, the simulations or the
statistics meet it; `rules-explorer check-game MODULE:CLASS` prints the same report.

It plays seeded random games to their end and checks, on the positions they visit, what the
rest of the project relies on. Each check says in words what failed (the position as text,
the action) and which hook to write or fix:

- the declared basics: an id, a title, the players, options whose defaults are accepted;
- random games end (chance drawn with `sample_chance`, as `rk.playout` and `simulate` do):
  a position not over has a legal move, a finished one an outcome;
- every legal move applies, as a Move and by its notation, and a move that is not legal
  here is refused with IllegalMoveError, leaving the position as it was;
- position text round-trips (`game.from_text(s.to_text()) == s`), where the game has it;
- `from_text` refuses garbage with PositionTextError and nothing else;
- views hide and never misstate: what a player's view shows is what the position holds,
  `view.determinize(rng)` is a full position that agrees with the view, a bad seat is a
  SeatError;
- records round-trip: `Record.from_actions` -> JSON -> `Record.from_json` -> the same
  states on replay;
- a drawable scene: `state.scene()` is a `Scene` whose tokens stand on its cells, and every
  legal move names cells of it.

The checks use the public protocol only (docs/kernel.md). A game that is not registered is
registered while it is checked (records replay through the registry) and taken out after.
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rules_kernel import records, registry
from rules_kernel.core import (
    CHANCE,
    Action,
    Game,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    PositionTextError,
    ReferenceEntry,
    SeatError,
    State,
)
from rules_kernel.info import (
    PARTS,
    STATE_HOOK_METHODS,
    STATE_PARTS,
    derived_from_hooks,
    info,
    parts_line,
    state_class,
)
from rules_kernel.parts import PROTOCOLS
from rules_kernel.scene import Scene, Token

__all__ = ["CheckResult", "GameCheck", "check_game"]

PASSED, FAILED, SKIPPED, WARNING = "passed", "failed", "skipped", "warning"

#: an id goes into links, file names, table columns and CSS keys: keep it to these
GAME_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

# How much of the random games each check looks at: enough to meet every kind of position a
# small game has, bounded so that a big game (hundreds of moves a position) is checked in
# seconds, not minutes.
MOVE_STATES = 150  # positions whose legal moves are all applied
MOVES_A_STATE = 30  # legal moves applied in each of them
TEXT_STATES = 1500  # positions whose text is read back
VIEW_STATES = 60  # positions whose views are compared with them
SCENE_STATES = 100  # positions whose scene is checked
GARBAGE_TEXTS = 8  # real texts mutated into garbage, 30 ways each


@dataclass(frozen=True)
class CheckResult:
    """One check: its `name`, its `status` ("passed", "failed", "skipped", "warning"), what
    it found in words (`detail`: what was checked, or what failed, where and how) and, when it
    did not pass, the hook to write or fix (`hook`)."""

    name: str
    status: str
    detail: str = ""
    hook: str = ""

    @property
    def failed(self) -> bool:
        return self.status == FAILED


@dataclass(frozen=True)
class GameCheck:
    """What `check_game` found: one result a check, in order. `passed` when none failed (a
    skipped check or a warning does not fail the game); `text()` is the report in words."""

    game: str
    settings: str
    results: tuple[CheckResult, ...]

    @property
    def passed(self) -> bool:
        return not any(result.failed for result in self.results)

    def failures(self) -> list[CheckResult]:
        return [result for result in self.results if result.failed]

    def result(self, name: str) -> CheckResult:
        """The result of the check called `name` (KeyError if there is none)."""
        for result in self.results:
            if result.name == name:
                return result
        raise KeyError(name)

    def text(self, width: int = 100) -> str:
        """The report: a line a check (its status, its name, what it found), the hook to write
        or fix under each check that did not pass, and a last line that sums up."""
        lines = [f"Checking {self.game}: {self.settings}", ""]
        labels = {PASSED: "ok", FAILED: "FAILED", SKIPPED: "skipped", WARNING: "warning"}
        for result in self.results:
            head = f"  {labels[result.status]:<8} {result.name}"
            lines.append(_wrap(f"{head}: {result.detail}" if result.detail else head, width, 11))
            if result.hook and result.status in (FAILED, WARNING):
                lines.append(_wrap(f"{' ' * 11}-> {result.hook}", width, 14))
        counts = {status: sum(r.status == status for r in self.results) for status in labels}
        summary = f"{counts[PASSED]} of {len(self.results)} checks passed"
        extra = [f"{counts[s]} {word}" for s, word in ((FAILED, "failed"), (SKIPPED, "skipped")) if counts[s]]
        if counts[WARNING]:
            extra.append(f"{counts[WARNING]} with a warning")
        verdict = (
            "fix the hook named under each failed check"
            if counts[FAILED]
            else "the game follows the protocol"
        )
        lines += ["", f"{summary}{', ' + ', '.join(extra) if extra else ''}: {verdict}."]
        return "\n".join(lines)

    __str__ = text


def _wrap(text: str, width: int, indent: int) -> str:
    import textwrap  # here: the kernel's import stays light (the report is printed rarely)

    # position texts are long words: never cut one in two
    return textwrap.fill(
        text, width, subsequent_indent=" " * indent, break_long_words=False, break_on_hyphens=False
    )


def check_game(
    cls: type[Game],
    *,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    games: int = 10,
    max_plies: int | None = None,
) -> GameCheck:
    """Run the protocol's conformance suite on the game class `cls` (with `options`, else its
    defaults): `games` random games seeded from `seed`, each to its end or `max_plies` actions
    (None: the game's `DATA_MAX_PLIES`); a game still going at the cap fails. Returns the
    results; nothing the game's code raises escapes (each is a failed check naming the hook
    it came from)."""
    name = getattr(cls, "__qualname__", repr(cls))
    game_id = getattr(cls, "id", None)
    label = f"{name} (id {game_id!r})" if isinstance(game_id, str) and game_id else name
    if games < 1:
        raise OptionError(f"check_game plays at least one game, not {games}")
    basics, game = _basics(cls, dict(options or {}))
    cap = max_plies if max_plies is not None else getattr(cls, "DATA_MAX_PLIES", 1000)
    settings = f"seed {seed}, {games} random game{'s' * (games != 1)} of at most {cap} actions"
    if game is None:
        rest = [CheckResult(check, SKIPPED, "not run: the game's basics failed") for check in _CHECKS]
        return GameCheck(label, settings, (basics, *rest))
    registered_here = game.id not in registry.list_games()
    if registered_here:
        registry.register_game(cls)  # records replay a game through the registry
    try:
        checker = _Checker(game, seed, games, cap)
        return GameCheck(label, settings, (basics, *checker.run()))
    finally:
        if registered_here:
            registry.unregister_game(game.id)


# --- failing a check -------------------------------------------------------------------------


class _Failed(Exception):
    """A check's failure: what (in words, with the position and the action) and the hook."""

    def __init__(self, detail: str, hook: str) -> None:
        super().__init__(detail)
        self.detail, self.hook = detail, hook


T = TypeVar("T")

_HERE = Path(__file__).resolve()


def _call(what: str, function: Callable[..., T], *args: Any, hook: str, **kwargs: Any) -> T:
    """`function(*args, **kwargs)`; anything it raises becomes a failure saying `what` raised
    it (and where in the game's code), with the hook to fix."""
    try:
        return function(*args, **kwargs)
    except _Failed:
        raise
    except Exception as exc:
        raise _Failed(f"{what} raised {_exception(exc)}", hook) from exc


def _exception(exc: BaseException) -> str:
    """`TypeError: the message (nim.py, line 40)`: where the game's code raised it."""
    message = records.one_line(str(exc), limit=300)
    return f"{type(exc).__name__}{': ' + message if message else ''}{_origin(exc)}"


def _origin(exc: BaseException) -> str:
    """The game's line that raised `exc`: the last frame of its traceback outside this module
    and the standard library (where a game calls `int()` or `re`, the game's own line)."""
    import sysconfig
    import traceback

    library = Path(sysconfig.get_paths()["stdlib"]).resolve()
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() != _HERE]
    own = [f for f in frames if library not in Path(f.filename).resolve().parents]
    frame = (own or frames or [None])[-1]
    if frame is None:
        return ""
    path = Path(frame.filename)
    try:
        path = path.resolve().relative_to(Path.cwd())
    except ValueError:
        pass
    return f" ({path}, line {frame.lineno})"


def _cut(text: str, most: int = 120) -> str:
    text = records.one_line(text, limit=10 * most)
    return text if len(text) <= most else text[: most - 3] + "..."


def _shown(value: object, most: int = 60) -> str:
    """A test input for a message: never a huge one in full."""
    if isinstance(value, str):
        return repr(value) if len(value) <= most else f"{value[:most]!r}... ({len(value)} characters)"
    return _cut(f"{type(value).__name__} {value!r}", most)


# --- the games played ------------------------------------------------------------------------


@dataclass
class _Line:
    """One random game: its number (from 1), the states it went through and the actions."""

    number: int
    states: list[State]
    actions: list[Action]

    def where(self, ply: int) -> str:
        """The position after `ply` actions, for a message: the game, the last actions that led
        there, and its position text where the game has one."""
        played = [str(a) for a in self.actions[:ply]]
        line = ", ".join(played[-6:]) if played else ""
        led = f" ({'..., ' if len(played) > 6 else ''}{line})" if played else ""
        start = "at the start" if ply == 0 else f"after {ply} action{'s' * (ply != 1)}{led}"
        return f"random game {self.number}, {start}, {_position(self.states[ply])}"


class _Place:
    """Where a random game stands (`_Line.where`), worked out only when a message is written:
    the position text of every ply of every game would cost as much as the game."""

    def __init__(self, line: _Line, ply: int) -> None:
        self.line, self.ply = line, ply

    def __str__(self) -> str:
        return self.line.where(self.ply)


def _has_text(state: State) -> bool:
    return type(state).to_text is not State.to_text


def _position(state: State) -> str:
    if _has_text(state):
        try:
            return f"position {_cut(state.to_text())!r}"
        except Exception:
            pass
    return f"a {type(state).__name__}"


#: the facts a game declares, with the hook that makes each true
FACT_HOOKS = {
    "HIDDEN_INFORMATION": "State.view (what a player sees)",
    "CHANCE": "State.chance_outcomes or State.sample_chance",
    "MEMORY": "State.forgets (what a view forgets)",
}


def _declaration(cls: type[Game], name: str, value: object) -> str:
    """The line to write: `CHANCE = True`, `PARTS = {"scene": NimState, ...}`."""
    if name == "PARTS":
        return parts_line(cls)
    return f"{name} = {value!r}"


def _median(values: Sequence[int]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _spread(items: Sequence[T], most: int) -> list[T]:
    """At most `most` of `items`, spread evenly (the starts, middles and ends of games)."""
    if len(items) <= most:
        return list(items)
    step = len(items) / most
    return [items[int(i * step)] for i in range(most)]


# --- the checks ------------------------------------------------------------------------------

BASICS = "the declared basics"
PLAYOUTS = "random games reach their end"
MOVES = "legal moves apply, others are refused"
TEXT = "position text reads back"
GARBAGE = "from_text refuses garbage with PositionTextError"
VIEWS = "views hide, never misstate"
RECORDS = "records round-trip"
SCENE = "a drawable scene"
INFO = "the info complete"
_CHECKS = (PLAYOUTS, MOVES, TEXT, GARBAGE, VIEWS, RECORDS, SCENE, INFO)


def _basics(cls: Any, options: dict[str, Any]) -> tuple[CheckResult, Game | None]:
    """The id, title, options and players a game declares; the game made with `options`."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        what = f"a {type(cls).__name__}" if not isinstance(cls, type) else f"the class {cls.__qualname__}"
        detail = f"{_cut(repr(cls), 60)} is {what}, not a subclass of rules_kernel.Game"
        return CheckResult(BASICS, FAILED, detail, "class YourGame(rules_kernel.Game) with its State"), None
    problems: list[tuple[str, str]] = []
    game_id, title = cls.id, cls.title
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        problems.append(
            (
                f"the id is {game_id!r}: give the class an id of lowercase letters, digits and "
                'hyphens, `id = "my-game"` (links, file names and tables carry it)',
                "Game.id",
            )
        )
    elif game_id in registry.list_games() and registry.game_class(game_id) is not cls:
        holder = registry.game_class(game_id).__qualname__
        problems.append((f"the id {game_id!r} is registered for another game ({holder})", "Game.id"))
    if not isinstance(title, str) or not title.strip():
        problems.append((f'the title is {title!r}: give the class `title = "My Game"`', "Game.title"))
    declared = cls.OPTIONS
    if not isinstance(declared, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Option) for k, v in declared.items()
    ):
        problems.append(("OPTIONS must map each option's name to an rules_kernel.Option", "Game.OPTIONS"))
    game = None
    if not problems:
        try:
            game = cls(**options)
        except OptionError as exc:
            problems.append(
                (f"the game cannot be made with {options or 'its defaults'}: {exc}", "Game.OPTIONS")
            )
        except Exception as exc:
            problems.append(
                (f"{cls.__qualname__}() raised {_exception(exc)}", "Game.__init__ / Game._check_options")
            )
    if game is not None:
        seats = game.num_players
        if not isinstance(seats, int) or isinstance(seats, bool) or seats < 1:
            problems.append((f"num_players is {seats!r}: give the number of seats", "Game.num_players"))
        else:
            try:
                names = tuple(game.player_names)
            except Exception as exc:
                names = ()
                problems.append((f"player_names raised {_exception(exc)}", "Game.player_names"))
            if len(names) != seats or not all(isinstance(n, str) and n.strip() for n in names):
                problems.append(
                    (f"player_names is {names!r}: one name a seat, {seats} in all", "Game.player_names")
                )
            elif len(set(names)) != seats:
                problems.append((f"two players share a name: {names!r}", "Game.player_names"))
    if problems:
        detail = "; ".join(text for text, _ in problems)
        hooks = ", ".join(dict.fromkeys(hook for _, hook in problems))
        return CheckResult(BASICS, FAILED, detail, f"fix {hooks}"), None
    assert game is not None
    listed = ", ".join(f"{k}={_cut(repr(v), 40)}" for k, v in game.options.items()) or "none"
    detail = (
        f"id {game.id!r}, title {game.title!r}, {game.num_players} players "
        f"({', '.join(game.player_names)}), options: {listed}"
    )
    return CheckResult(BASICS, PASSED, detail), game


class _Checker:
    """The checks after the basics, on one game made with its options."""

    def __init__(self, game: Game, seed: int, games: int, cap: int) -> None:
        self.game, self.seed, self.games, self.cap = game, seed, games, cap
        self.seats = range(game.num_players)
        self.lines: list[_Line] = []

    def run(self) -> list[CheckResult]:
        results = [self._check(PLAYOUTS, self._playouts)]
        if results[0].failed or not self.lines:
            return results + [
                CheckResult(check, SKIPPED, "not run: it needs random games that end")
                for check in _CHECKS[1:]
            ]
        for name, check in (
            (MOVES, self._moves),
            (TEXT, self._text),
            (GARBAGE, self._garbage),
            (VIEWS, self._views),
            (RECORDS, self._records),
            (SCENE, self._scene),
            (INFO, self._info),
        ):
            results.append(self._check(name, check))
        return results

    def _check(self, name: str, check: Callable[[], CheckResult | str]) -> CheckResult:
        try:
            found = check()
        except _Failed as failure:
            return CheckResult(name, FAILED, failure.detail, failure.hook)
        except Exception as exc:  # a hook called where no message names it: where it raised
            return CheckResult(
                name, FAILED, f"the game's code raised {_exception(exc)}", "the hook at that line"
            )
        return found if isinstance(found, CheckResult) else CheckResult(name, PASSED, found)

    def _positions(self) -> list[tuple[_Line, int]]:
        return [(line, ply) for line in self.lines for ply in range(len(line.states))]

    # --- random games -------------------------------------------------------------------------
    def _playouts(self) -> CheckResult | str:
        for number in range(1, self.games + 1):
            self.lines.append(self._play(number))
        going = [line for line in self.lines if not line.states[-1].is_terminal()]
        hook = (
            "State._compute_outcome: does the game see its end? (a game that random play makes "
            "longer: give DATA_MAX_PLIES on the Game, or --max-plies)"
        )
        first = going[0] if going else None
        if first is not None and len(going) == len(self.lines):
            raise _Failed(f"no random game ended in {self.cap} actions: {first.where(self.cap)}", hook)
        lengths = [len(line.actions) for line in self.lines if line not in going]
        ends: dict[str, int] = {}
        for line in self.lines:
            outcome = line.states[-1].outcome()
            if outcome is None:
                key = f"still going after {self.cap} actions"
            elif not outcome.finished:
                key = "unfinished"
            elif outcome.winner is None:
                key = "drawn"
            else:
                names = self.game.player_names
                key = f"won by {' and '.join(names[w] for w in outcome.winners) or outcome.winner}"
            ends[key] = ends.get(key, 0) + 1
        told = ", ".join(f"{count} {key}" for key, count in sorted(ends.items()))
        detail = (
            f"{len(lengths)} of {len(self.lines)} games ended after {min(lengths)} to {max(lengths)} "
            f"actions (median {_median(lengths):g}): {told}"
        )
        if first is None:
            return detail
        # random play may wander in a game that ends (the checks go on with these games too)
        return CheckResult(PLAYOUTS, WARNING, f"{detail}; {first.where(self.cap)}", hook)

    def _play(self, number: int) -> _Line:
        """One random game: uniform moves, chance by the game's own `sample_chance`."""
        rng = random.Random(f"{self.seed}:{number}")
        game = self.game
        state = _call("initial_state()", game.initial_state, hook="Game.initial_state")
        if not isinstance(state, State):
            raise _Failed(f"initial_state() returned {_shown(state)}, not a State", "Game.initial_state")
        line = _Line(number, [state], [])
        while True:
            # the hook being called, named if it raises (the place is worked out only then)
            step, hook = "is_terminal()", "State._compute_outcome"
            try:
                if state.is_terminal():
                    self._check_end(state, line.where(len(line.actions)))
                    return line
                if len(line.actions) >= self.cap:
                    return line  # still going: `_playouts` says whether that is a fault
                step, hook = "current_player", "State.current_player"
                player = state.current_player
                step, hook = "legal_moves()", "State.legal_moves"
                moves = state.legal_moves()
                if player == CHANCE:
                    action = self._chance(state, moves, rng, line)
                elif isinstance(player, int) and not isinstance(player, bool) and player in self.seats:
                    action = rng.choice(self._moves_listed(moves, _Place(line, len(line.actions))))
                else:
                    raise _Failed(
                        f"{line.where(len(line.actions))}: current_player is {player!r}, where the "
                        f"game is not over: a seat (0 to {game.num_players - 1}) or rk.CHANCE",
                        "State.current_player",
                    )
                step, hook = f"applying {str(action)!r}", "State._successor"
                after = state.apply(action)
            except _Failed:
                raise
            except IllegalMoveError as exc:
                if not step.startswith("applying"):
                    raise _Failed(
                        f"{step} in {line.where(len(line.actions))} raised {_exception(exc)}", hook
                    ) from exc
                raise _Failed(
                    f"{line.where(len(line.actions))}: legal_moves() lists {str(action)!r} but apply "
                    f"refuses it ({_cut(str(exc))})",
                    "State.legal_moves, or the game's own State.apply (keep the kernel's)",
                ) from exc
            except Exception as exc:
                raise _Failed(
                    f"{step} in {line.where(len(line.actions))} raised {_exception(exc)}", hook
                ) from exc
            if not isinstance(after, State):
                raise _Failed(
                    f"{line.where(len(line.actions))}: applying {str(action)!r} gave {_shown(after)}",
                    "State._successor",
                )
            line.states.append(after)
            line.actions.append(action)
            state = after

    def _chance(self, state: State, moves: object, rng: random.Random, line: _Line) -> Action:
        """The outcome of a chance event, drawn as `rk.playout` and `simulate` draw it."""
        where = _Place(line, len(line.actions))
        if moves:
            raise _Failed(
                f"{where}: chance is to act (current_player is CHANCE) but legal_moves() lists "
                f"{_cut(', '.join(map(str, moves)), 80)}",  # type: ignore[call-overload]
                "State.legal_moves: [] at a chance node",
            )
        hook = "State.sample_chance (or State.chance_outcomes)"
        try:
            action = state.sample_chance(rng)
        except Exception as exc:
            raise _Failed(f"sample_chance(rng) in {where} raised {_exception(exc)}", hook) from exc
        if not (isinstance(action, Action) and action.is_chance):
            raise _Failed(f"{where}: sample_chance gave {_shown(action)}, not a ChanceOutcome", hook)
        return action

    def _moves_listed(self, moves: object, where: _Place) -> list[Move]:
        """The legal moves of a player's position, checked: Moves, hashable, each notation one
        move's, and at least one (a position not over has a move)."""
        hook = "State.legal_moves"
        if not isinstance(moves, (list, tuple)):
            raise _Failed(f"{where}: legal_moves() returned {_shown(moves)}, not a list of Moves", hook)
        if not moves:
            raise _Failed(
                f"{where}: the game is not over (outcome() is None) but the player to move has no "
                "legal move: either the rules give a move here or the game ends here",
                "State.legal_moves or State._compute_outcome",
            )
        notations: dict[str, Move] = {}
        for move in moves:
            if not isinstance(move, Move) or move.is_chance:
                raise _Failed(f"{where}: legal_moves() lists {_shown(move)}, which is not a Move", hook)
            try:
                hash(move)
            except TypeError as exc:
                raise _Failed(
                    f"{where}: the move {str(move)!r} is not hashable ({exc})",
                    f"{type(move).__name__}: make it a frozen dataclass (a Move is a value)",
                ) from exc
            text = str(move)
            if not isinstance(text, str) or not text.strip() or text != text.strip() or "\n" in text:
                raise _Failed(
                    f"{where}: a move's notation is {_shown(text)}: one line of text without "
                    "spaces around it",
                    f"{type(move).__name__}.__str__",
                )
            if text in notations:
                raise _Failed(
                    f"{where}: two legal moves are written {text!r}: a record could not tell them apart",
                    f"{type(move).__name__}.__str__ (or State.legal_moves lists one move twice)",
                )
            notations[text] = move
        return list(moves)

    def _check_end(self, state: State, where: str) -> None:
        outcome = _call(f"outcome() in {where}", state.outcome, hook="State._compute_outcome")
        hook = "State._compute_outcome: an rk.Outcome (Outcome.win(player, reason), Outcome.draw(reason))"
        if not isinstance(outcome, Outcome):
            raise _Failed(f"{where}: the game is over but outcome() is {_shown(outcome)}", hook)
        if not isinstance(outcome.reason, str) or not outcome.reason.strip():
            raise _Failed(f"{where}: the outcome gives no reason ({outcome!r})", hook)
        if outcome.winner is not None and outcome.winner not in self.seats:
            raise _Failed(f"{where}: the outcome's winner is {outcome.winner!r}, no seat of the game", hook)
        if not set(outcome.winners) <= set(self.seats):
            raise _Failed(f"{where}: the outcome's winners {outcome.winners!r} are not all seats", hook)
        moves = _call(f"legal_moves() in {where}", state.legal_moves, hook="State.legal_moves")
        if list(moves):
            raise _Failed(
                f"{where}: the game is over ({outcome.reason}) but legal_moves() lists "
                f"{_cut(', '.join(map(str, moves)), 80)}",
                "State.legal_moves: [] once the game is over",
            )

    # --- moves applied and refused ----------------------------------------------------------
    def _moves(self) -> str:
        """Every legal move applies, as itself and by its notation, to the same position; a move
        of another position that is not legal here, notation naming no move, a non-action, a
        move at a chance node or after the end: IllegalMoveError, the position unchanged."""
        seen: dict[str, Move] = {}  # a move object for each notation met in the random games
        for line, ply in _spread(self._positions(), 4 * MOVE_STATES):
            state = line.states[ply]
            if ply < len(line.actions) and state.current_player != CHANCE:
                for move in state.legal_moves():
                    seen.setdefault(str(move), move)
        applied = refused = 0
        sampled = _spread(self._positions(), MOVE_STATES)
        for line, ply in sampled:
            state, where = line.states[ply], line.where(ply)
            before = state.to_text() if _has_text(state) else None
            if state.is_terminal() or state.current_player == CHANCE:
                others = list(seen.values())[:3]
            else:
                legal = state.legal_moves()
                for move in _spread(legal, MOVES_A_STATE):
                    one = _call(
                        f"applying {str(move)!r} in {where}", state.apply, move, hook="State._successor"
                    )
                    two = _call(
                        f"applying the notation {str(move)!r} in {where}",
                        state.apply,
                        str(move),
                        hook="State.parse_move (keep the kernel's) and the move's __str__",
                    )
                    if one != two:
                        raise _Failed(
                            f"{where}: {str(move)!r} applied as a Move and by its notation gives two "
                            f"positions: {_position(one)} and {_position(two)}",
                            "State.__eq__ (positions equal by what they hold) or State.parse_move",
                        )
                    applied += 1
                notations = {str(m) for m in legal}
                others = [m for text, m in seen.items() if text not in notations][:5]
            # at a chance node a move's notation might name an outcome: refuse the Move objects
            texts = [str(m) for m in others] if state.current_player != CHANCE else []
            for action in [*others, *texts]:
                self._refused(state, action, where)
                refused += 1
            if before is not None and state.to_text() != before:
                raise _Failed(
                    f"{where}: refusing moves changed the position to {_position(state)}",
                    "State.apply / State._successor: never change a state, make a new one",
                )
        # then what names no move at all (after the moves: a game that takes any Move given is
        # told so, not that None makes its rules raise)
        for line, ply in sampled:
            for action in ("no such move 0", None):
                self._refused(line.states[ply], action, line.where(ply))
                refused += 1
        return f"{applied} legal moves applied as Moves and by notation; {refused} illegal ones refused"

    def _refused(self, state: State, action: Action | str | None, where: str) -> None:
        shown = _shown(action if action is None or isinstance(action, str) else str(action))
        kind = "the notation" if isinstance(action, str) else "the move" if action is not None else ""
        asked = f"{kind} {shown}".strip()
        hook = (
            "State.apply: keep the kernel's (it checks every move against legal_moves() and "
            "raises IllegalMoveError); the rules of a move go in State._successor"
        )
        try:
            after = state.apply(action)  # type: ignore[arg-type]
        except IllegalMoveError:
            return
        except Exception as exc:
            raise _Failed(
                f"{where}: apply({asked}) raised {_exception(exc)} where it should refuse it "
                "with IllegalMoveError",
                "State.why_illegal / State.apply: a move that is not legal is an rk.IllegalMoveError",
            ) from exc
        raise _Failed(
            f"{where}: apply({asked}) is not legal there but was applied (it gave {_position(after)})", hook
        )

    # --- position text ------------------------------------------------------------------------
    def _text(self) -> CheckResult | str:
        state = self.lines[0].states[0]
        writes, reads = _has_text(state), type(self.game).from_text is not Game.from_text
        if not writes and not reads:
            return CheckResult(
                TEXT,
                SKIPPED,
                "the game has no position text (State.to_text, Game.from_text): links to a "
                "position, the board editor and study positions need it (docs/kernel.md, 'Position text')",
            )
        if not (writes and reads):
            raise _Failed(
                f"the game {'writes' if writes else 'reads'} position text but does not "
                f"{'read' if writes else 'write'} it",
                "Game.from_text" if writes else "State.to_text",
            )
        count = 0
        for line, ply in _spread(self._positions(), TEXT_STATES):
            state, where = line.states[ply], line.where(ply)
            text = _call(f"to_text() in {where}", state.to_text, hook="State.to_text")
            if not isinstance(text, str) or "\n" in text or not text.strip():
                raise _Failed(
                    f"{where}: to_text() gave {_shown(text)}, not one line of text", "State.to_text"
                )
            again = _call(
                f"from_text({_shown(text)}), the text of {where},",
                self.game.from_text,
                text,
                hook="Game.from_text (it must read every text to_text writes)",
            )
            if again != state:
                shown = again.to_text() if isinstance(again, State) else _shown(again)
                raise _Failed(
                    f"{where}: from_text of its text gives another position, {_shown(shown, 120)}, "
                    "not equal to it",
                    "State.to_text (all a rule needs) / Game.from_text, or State.__eq__ (a display "
                    "hint such as the last move: field(compare=False))",
                )
            if hash(again) != hash(state):
                raise _Failed(
                    f"{where}: the position read back from its text is equal to it but hashes differently",
                    "State.__hash__: equal positions hash equal",
                )
            count += 1
        return f"{count} positions written as text and read back equal"

    def _garbage(self) -> CheckResult | str:
        if type(self.game).from_text is Game.from_text:
            return CheckResult(GARBAGE, SKIPPED, "the game reads no position text (Game.from_text)")
        rng = random.Random(f"{self.seed}:garbage")
        texts = [
            _call(f"to_text() in {line.where(ply)}", line.states[ply].to_text, hook="State.to_text")
            for line, ply in _spread(self._positions(), GARBAGE_TEXTS)
        ]
        accepted = 0
        inputs = [*_GARBAGE, *(g for text in texts if text for g in _mutations(text, rng))]
        for value in inputs:
            hook = (
                "Game.from_text: refuse a bad text with rk.PositionTextError naming the field "
                "(rules_kernel.position_text.read_position turns a FieldError into one)"
            )
            try:
                state = self.game.from_text(value)  # type: ignore[arg-type]
            except PositionTextError:
                continue
            except Exception as exc:
                raise _Failed(f"from_text({_shown(value)}) raised {_exception(exc)}", hook) from exc
            if not isinstance(value, str) or not isinstance(state, State):
                raise _Failed(f"from_text({_shown(value)}) gave {_shown(state)} instead of refusing it", hook)
            where = f"the text {_shown(value)}, which from_text accepts,"
            self._accepted(state, where)
            accepted += 1
        return (
            f"{len(inputs) - accepted} bad texts refused with PositionTextError; {accepted} "
            "changed texts accepted as positions, each reads back and can go on"
        )

    def _accepted(self, state: State, where: str) -> None:
        """A text from_text accepts (a changed one may name a real position) is a position like
        any other: it reads back, and a game not over has someone to act."""
        text = _call(f"to_text() of {where}", state.to_text, hook="State.to_text")
        again = _call(f"from_text of {where} written again", self.game.from_text, text, hook="Game.from_text")
        if again != state:
            raise _Failed(
                f"{where} reads back as another position, {_shown(text)}", "State.to_text / Game.from_text"
            )
        if _call(f"is_terminal() of {where}", state.is_terminal, hook="State._compute_outcome"):
            return
        if state.current_player != CHANCE and not _call(
            f"legal_moves() of {where}", state.legal_moves, hook="State.legal_moves"
        ):
            raise _Failed(
                f"{where} is a position not over where the player to move has no legal move",
                "Game.from_text: refuse a position where the game cannot go on (PositionTextError; "
                "rules_kernel.position_text.check_playable), or end the game there (State._compute_outcome)",
            )

    # --- views --------------------------------------------------------------------------------
    def _views(self) -> CheckResult | str:
        first = self.lines[0].states[0]
        hook = "State.view: start it with check_seat(self.game, player) (rules_kernel.core.check_seat)"
        for seat in (self.game.num_players, -1, "a", None, True):
            try:
                first.view(seat)  # type: ignore[arg-type]
            except SeatError:
                continue
            except Exception as exc:
                raise _Failed(
                    f"view({seat!r}) raised {_exception(exc)} instead of rk.SeatError", hook
                ) from exc
            raise _Failed(f"view({seat!r}) gave a view of a seat the game does not have", hook)
        view_method = type(first).view
        if view_method is State.view:
            return (
                "no hidden information (State.view is the kernel's): every seat's view is the "
                "position; a seat the game does not have is refused"
            )
        compared = 0
        rng = random.Random(f"{self.seed}:views")
        for line, ply in _spread(self._positions(), VIEW_STATES):
            state, where = line.states[ply], line.where(ply)
            truth = _call(f"scene() in {where}", state.scene, hook="State.scene")
            for player in self.seats:
                board = _call(
                    f"scene(perspective={player}) in {where}", state.scene, player, hook="State.scene"
                )
                self._no_misstatement(board, truth, f"{where}: the board shown to player {player}")
                for memory in (None, True):
                    call = f"view({player}{', memory=True' if memory else ''})"
                    view = _call(
                        f"{call} in {where}",
                        state.view,
                        player,
                        memory=memory,
                        hook="State.view(self, player, *, memory=None)",
                    )
                    self._agrees(state, truth, view, player, memory, f"{where}: {call}", rng)
                    compared += 1
        detail = f"{compared} views of {self.game.num_players} seats compared with their positions"
        if getattr(view_method, "kernel_adapted_view", False):
            return CheckResult(
                VIEWS,
                WARNING,
                detail + "; the view takes no 'memory' (the earlier signature), adapted by the kernel",
                "State.view: write it as `def view(self, player, *, memory=None)` (a view that forgets "
                "nothing ignores memory); the old signature is deprecated",
            )
        return detail

    def _agrees(
        self,
        state: State,
        truth: Scene,
        view: State,
        player: int,
        memory: bool | None,
        where: str,
        rng: random.Random,
    ) -> None:
        """A view of `state`: the same game, the same player to act, the same end and, for its
        own player, the same moves; what its scene shows is what the position holds; its
        determinization is a full position that agrees with it."""
        hook = "State.view: hide what the player may not know, change nothing else"
        if not isinstance(view, State):
            raise _Failed(f"{where} gave {_shown(view)}, not a State", hook)
        self._same_play(state, view, player, where, hook)
        shown = _call(f"scene() of {where}", view.scene, player, hook="State.scene")
        self._no_misstatement(shown, truth, where)
        imagined = _call(f"determinize(rng) of {where}", view.determinize, rng, hook="State.determinize")
        hook = "State.determinize: draw what the view hides, keep what it shows"
        if not isinstance(imagined, State):
            raise _Failed(f"{where}: determinize gave {_shown(imagined)}, not a State", hook)
        self._same_play(view, imagined, player, f"{where}, determinized,", hook)
        full = _call(f"scene() of {where}, determinized", imagined.scene, hook="State.scene")
        self._no_misstatement(shown, full, f"{where} (against its determinization)")
        again = _call(
            f"view({player}) of {where}, determinized",
            imagined.view,
            player,
            memory=memory,
            hook="State.view",
        )
        if again != view:
            raise _Failed(
                f"{where}: the view of its determinization is not the view itself: the imagined "
                "position shows something the view did not, or hides something it showed",
                hook,
            )

    def _same_play(self, state: State, other: State, player: int, where: str, hook: str) -> None:
        if other.game != state.game:
            raise _Failed(f"{where} is of another game ({other.game!r})", hook)
        if other.current_player != state.current_player:
            raise _Failed(
                f"{where} has {other.current_player!r} to act where the position has "
                f"{state.current_player!r}",
                hook,
            )
        if other.outcome() != state.outcome():
            raise _Failed(
                f"{where} ends as {other.outcome()!r} where the position ends as {state.outcome()!r}", hook
            )
        if state.current_player == player and not state.is_terminal():
            mine = {str(m) for m in _call(f"legal_moves() of {where}", other.legal_moves, hook=hook)}
            true = {str(m) for m in state.legal_moves()}
            if mine != true:
                differ = sorted(mine ^ true)[:4]
                raise _Failed(
                    f"{where} gives its player other legal moves than the position ({', '.join(differ)})",
                    hook,
                )

    @staticmethod
    def _no_misstatement(shown: object, truth: Scene, where: str) -> None:
        """Everything `shown` (a view's scene) puts face up is in `truth` (the position's scene)
        as shown: a token on its cell, a zone's item with its count. What it hides (a face-down
        card, a count in a bag) it may draw any way."""
        hook = "State.view (or State.scene with a perspective): hide a secret, never change or invent one"
        if not isinstance(shown, Scene):
            raise _Failed(
                f"{where}: its scene is {_shown(shown)}, not a rules_kernel.scene.Scene", "State.scene"
            )
        tokens: dict[str, list[Token]] = {}
        for token in truth.tokens:
            tokens.setdefault(token.cell, []).append(token)
        for token in shown.tokens:
            there = tokens.get(token.cell, [])
            if not there:
                raise _Failed(
                    f"{where} shows {token.name} on {token.cell}, where the position has nothing", hook
                )
            if not token.face_down and not any(_same_token(token, t) for t in there):
                held = ", ".join(t.name for t in there)
                raise _Failed(
                    f"{where} shows {token.name} on {token.cell}, where the position has {held}", hook
                )
        items = {item.cell: item for zone in truth.zones for item in zone.items}
        for zone in shown.zones:
            for item in zone.items:
                if item.face_down:
                    continue
                true = items.get(item.cell)
                if true is None:
                    raise _Failed(
                        f"{where} shows {item.name} at {item.cell}, which the position does not have", hook
                    )
                if (item.name, item.count, item.owner) != (true.name, true.count, true.owner):
                    raise _Failed(
                        f"{where} shows {item.count} x {item.name} at {item.cell}, where the position "
                        f"has {true.count} x {true.name}",
                        hook,
                    )

    # --- records --------------------------------------------------------------------------------
    def _records(self) -> str:
        hook = (
            "the actions' notation: Move.__str__ and, for chance, State.parse_chance (a record "
            "keeps each action as text and replays it with state.apply(text))"
        )
        plies = 0
        for line in self.lines:
            where = f"random game {line.number} ({len(line.actions)} actions)"
            record = _call(
                f"Record.from_actions of {where}",
                records.Record.from_actions,
                self.game,
                line.actions,
                hook=hook,
            )
            text = _call(f"to_json() of the record of {where}", record.to_json, hook=hook)
            again = _call(
                f"Record.from_json of the record of {where}", records.Record.from_json, text, hook=hook
            )
            if again != record:
                raise _Failed(f"the record of {where} reads back from JSON as another record", hook)
            states = _call(f"replaying the record of {where}", again.replay, hook=hook)
            for ply, (replayed, played) in enumerate(zip(states, line.states, strict=False)):
                if replayed != played:
                    raise _Failed(
                        f"the record of {where} replays to {_position(replayed)} where the game was at "
                        f"{line.where(ply)}",
                        hook,
                    )
            if len(states) != len(line.states):
                raise _Failed(f"the record of {where} replays {len(states) - 1} actions", hook)
            plies += len(line.actions)
        return (
            f"{len(self.lines)} games ({plies} actions) written as records, read back and "
            "replayed identically"
        )

    # --- the scene --------------------------------------------------------------------------------
    def _scene(self) -> str:
        checked = 0
        for line, ply in _spread(self._positions(), SCENE_STATES):
            state, where = line.states[ply], line.where(ply)
            scene = _call(f"scene() in {where}", state.scene, hook="State.scene(perspective=None)")
            self._drawable(scene, state, where)
            for player in self.seats:
                seen = _call(
                    f"scene(perspective={player}) in {where}", state.scene, player, hook="State.scene"
                )
                if not isinstance(seen, Scene) or seen.perspective != player:
                    raise _Failed(
                        f"{where}: scene(perspective={player}) is not a Scene drawn for that player "
                        f"(its perspective is {getattr(seen, 'perspective', '?')!r})",
                        "State.scene: pass the perspective on, Scene(..., perspective=perspective)",
                    )
            checked += 1
        return f"{checked} scenes: cells, tokens on them, zones, and the cells every legal move names"

    # --- the info -----------------------------------------------------------------------------
    def _info(self) -> str:
        """The game declares what it is (rules_kernel.info), and the declarations agree with
        what it has: a position's part declared has its hooks, a hook written is declared, and
        each other part's object has the part's functions (`rules_kernel.parts.PROTOCOLS`)."""
        cls = type(self.game)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the check says it instead
            found = info(cls)
        hooks = derived_from_hooks(cls)
        bare = sorted(_named_to_bare_state(cls))
        if bare:
            raise _Failed(f"PARTS names {bare[0]!r}, but the game lacks {PARTS[bare[0]]}", PARTS[bare[0]])
        if found.undeclared:
            lines = "; ".join(_declaration(cls, name, hooks[name]) for name in found.undeclared)
            raise _Failed(
                f"the game does not declare what it is (its info takes it from its hooks meanwhile): "
                f"add to {cls.__qualname__} {lines}",
                "Game.HIDDEN_INFORMATION, CHANCE, MEMORY and PARTS (docs/kernel.md, 'What a game is')",
            )
        for name, hook in FACT_HOOKS.items():  # a fact declared needs its hook (a hook alone
            if getattr(cls, name) and not hooks[name]:  # proves nothing: a view may hide nothing)
                raise _Failed(f"{name} = True, but the game has no {hook}", hook)
        if not cls.CHANCE and any(s.current_player == CHANCE for line in self.lines for s in line.states):
            raise _Failed("CHANCE = False, but the random games met chance nodes", "Game.CHANCE = True")
        for part in sorted((found.parts ^ hooks["PARTS"]) & STATE_PARTS):
            if part in found.parts:
                raise _Failed(f"PARTS names {part!r}, but the game lacks {PARTS[part]}", PARTS[part])
            raise _Failed(f"the game has {PARTS[part]}, but PARTS leaves {part!r} out", "Game.PARTS")
        for part in sorted(found.parts):
            self._part_object(part, found.part(part))
        facts = [name.lower().replace("_", " ") for name in FACT_HOOKS if getattr(cls, name)]
        return (
            f"declares {', '.join(facts) or 'no hidden information, chance or memory'}; "
            f"parts: {', '.join(sorted(found.parts)) or 'none'}"
        )

    def _part_object(self, part: str, thing: object) -> None:
        """The object named for `part` is what the part needs: the State class for the
        position's parts; for the others an object with the part's functions, which answer
        (a heuristic a number on the random games' positions, a reference a list of entries,
        the statistics' first setting options the game takes)."""
        cls = type(self.game)
        if part in STATE_PARTS:
            # the State class whose hooks make the part: the game's positions are its instances
            # (a subclass of a game may keep its parent's PARTS with a State subclass of its own)
            if not (isinstance(thing, type) and issubclass(state_class(cls), thing)):
                raise _Failed(
                    f"PARTS[{part!r}] is {_shown(thing)}; the position's parts name the game's State "
                    f"class, {state_class(cls).__name__}",
                    f'Game.PARTS: "{part}": {state_class(cls).__name__}',
                )
            return
        protocol = PROTOCOLS[part]
        if not isinstance(thing, protocol):
            raise _Failed(
                f"PARTS[{part!r}] is {_shown(thing)}, which lacks {PARTS[part].split(': ')[0]}",
                f"Game.PARTS[{part!r}]: a module or object with {PARTS[part].split(': ')[0]}",
            )
        hook = f"PARTS[{part!r}]: {PARTS[part]}"
        if part == "heuristic":
            for line in self.lines:
                for state in line.states:
                    if state.is_terminal() or state.current_player == CHANCE:
                        continue
                    value = _call("heuristic(state, 0)", thing.heuristic, state, 0, hook=hook)
                    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
                        where = f"random game {line.number}, position {_shown(state.to_text())}"
                        raise _Failed(
                            f"{where}: heuristic(state, 0) gave {_shown(value)}, not a number", hook
                        )
        elif part == "reference":
            entries = _call("reference(game)", thing.reference, self.game, hook=hook)
            if not isinstance(entries, list) or not all(isinstance(e, ReferenceEntry) for e in entries):
                raise _Failed(f"reference(game) gave {_shown(entries)}, not a list of ReferenceEntry", hook)
        elif part == "statistics":
            options = _call("data_options(0)", thing.data_options, 0, hook=hook)
            if not isinstance(options, dict):
                raise _Failed(f"data_options(0) gave {_shown(options)}, not a dict of options", hook)
            _call(f"the game with data_options(0) = {options!r}", cls, **options, hook=hook)

    def _drawable(self, scene: object, state: State, where: str) -> None:
        hook = "State.scene: a rules_kernel.scene.Scene (cells, tokens on them, zones)"
        if not isinstance(scene, Scene):
            raise _Failed(f"{where}: scene() gave {_shown(scene)}, not a rules_kernel.scene.Scene", hook)
        if scene.game != self.game.id:
            raise _Failed(f"{where}: the scene names the game {scene.game!r}, not {self.game.id!r}", hook)
        if scene.layout not in ("square", "hex"):
            raise _Failed(f"{where}: the scene's layout is {scene.layout!r}: 'square' or 'hex'", hook)
        cells = [cell.id for cell in scene.cells]
        if not cells:
            raise _Failed(f"{where}: the scene has no cells to draw", hook)
        if len(set(cells)) != len(cells):
            twice = sorted({c for c in cells if cells.count(c) > 1})[:3]
            raise _Failed(f"{where}: the scene has two cells called {', '.join(map(repr, twice))}", hook)
        for token in scene.tokens:
            if token.cell not in cells:
                raise _Failed(
                    f"{where}: the scene puts {token.name} on {token.cell!r}, which is no cell", hook
                )
        items = [item.cell for zone in scene.zones for item in zone.items]
        if len(set(items)) != len(items) or set(items) & set(cells):
            raise _Failed(f"{where}: two things of the scene share an id (zone items, cells)", hook)
        if scene.to_move is not None and scene.to_move not in self.seats:
            raise _Failed(f"{where}: the scene's to_move is {scene.to_move!r}, no seat", hook)
        if state.is_terminal() or state.current_player == CHANCE:
            return
        known = set(cells) | set(items)
        for move in state.legal_moves():
            if not move.cells:
                raise _Failed(
                    f"{where}: the move {str(move)!r} names no cell: the board could not be "
                    "clicked to make it",
                    f"{type(move).__name__}.cells: the cells a player clicks, in order",
                )
            unknown = [c for c in move.cells if c not in known]
            if unknown:
                raise _Failed(
                    f"{where}: the move {str(move)!r} names {unknown[0]!r}, which the scene does not have",
                    f"{type(move).__name__}.cells / State.scene",
                )


def _same_token(shown: Token, true: Token) -> bool:
    """The same thing on a cell: what it is and whose (how it is drawn may differ)."""
    return (shown.name, shown.symbol, shown.owner, shown.promoted, shown.height) == (
        true.name,
        true.symbol,
        true.owner,
        true.promoted,
        true.height,
    )


# --- garbage for from_text -----------------------------------------------------------------

#: inputs no game reads as a position: not texts, empty, control characters, digits that are
#: not ASCII ('²'.isdigit() is true), a number int() refuses (more than 4,300 digits)
_GARBAGE: tuple[object, ...] = (
    None,
    b"bytes",
    12,
    1.5,
    ["a", "list"],
    "",
    " ",
    "\n",
    "garbage",
    "\x00\x01",
    "²",
    "٣ ٣",
    "-1",
    "9" * 5000,
    "🙂" * 20,
    "x" * 10_000,
)

_ODD = "0123456789-+/[](){}.,:;?*#|_ \t²٣🙂xyzXYZ"


def _mutations(text: str, rng: random.Random) -> Iterable[str]:
    """31 texts a slip of a finger (or a forger) makes of `text`: characters dropped, added,
    changed, swapped, the text cut, doubled, its numbers made huge, negative or non-ASCII."""
    alphabet = sorted(set(text) | set(_ODD))
    for _ in range(5):
        i = rng.randrange(len(text))
        yield text[:i] + text[i + 1 :]
        yield text[:i] + rng.choice(alphabet) + text[i:]
        yield text[:i] + rng.choice(alphabet) + text[i + 1 :]
        j = rng.randrange(len(text))
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        yield "".join(chars)
        yield text[:i]
    yield text + " " + text
    yield text + " x"
    yield text.replace(" ", "")
    for huge in ("9" * 5000, "-1", "²"):
        yield re.sub(r"[0-9]+", huge, text, count=1) if re.search(r"[0-9]", text) else text + " " + huge


def _named_to_bare_state(cls: type) -> set[str]:
    """The parts that were hooks of the position (words, scene, editor) which the class's PARTS
    names to its State class while the State writes none of their methods: the earlier docs'
    declaration of a part the game lacks (an adapter would stand in with the defaults)."""
    named = cls.PARTS if isinstance(cls.PARTS, Mapping) else {}
    state = state_class(cls)
    return {
        part
        for part, methods in STATE_HOOK_METHODS.items()
        if isinstance(named.get(part), type)
        and issubclass(state, named[part])
        and all(getattr(state, m) is getattr(State, m) for m in methods)
    }
