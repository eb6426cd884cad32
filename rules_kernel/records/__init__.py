"""Game records: JSON Lines, one game per line; and a one-move-per-line text form.

A record line looks like this (keys in this order; `start`, `players`, `result`, `meta`
optional):

    {"format": "rules-explorer/1", "game": "yokai-3x4", "options": {"repetitions": 3},
     "players": [{"name": "random", "agent": "random", "seed": 1}, {"name": "me"}],
     "actions": ["b2b3", "c4b3", {"chance": "deal:..."}],
     "result": {"winner": 1, "reason": "...", "winners": [1], "finished": true},
     "meta": {"date": "2026-11-23"}}

Every action is its notation; a chance outcome is written {"chance": notation}. A game played
from another position than the game's initial one says where it starts: `"start"` holds
that position's text (`state.to_text()`, read back with `game.from_text` and nothing else);
without it the game starts from the initial position. The log of actions is the source of
truth: `Record.replay()` applies it again from the start and checks every action and every
recorded result field. Errors name the source, the
line, the ply and the reason (`RecordError`); a record is never loaded half-way. Nothing here
uses pickle or eval: only `json`, with bounds on nesting, numbers and line length, and with
duplicate keys refused.

A record is data, never a pointer to anything on the machine that reads it: options that a
local Python user may give as a file (To War!'s `units`) are carried inline, and a record
that names a file instead is refused without the file being touched (`check_options`).
`read_upload` is the one entry point for bytes from an untrusted visitor.

The text form, for one game, is a header and one action per line:

    # anything after '#' is a comment
    game: yokai-3x4
    options: {"repetitions": 3}
    start: gle/1c1/1C1/ELG[] w - - 0 1
    b2b3
    c4b3
    chance: deal:...

(the `start:` line only for a game from another position than the initial one).

Players' formats (PGN as pychess-variants writes it, KIF) live in `rules_kernel.formats`;
`read(source)` takes any of these files, its format told by content (`detect`).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple, overload

from rules_kernel import core, registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Action, Game, Outcome, RulesError, State

FORMAT = "rules-explorer/1"
#: a longer line is refused before it is parsed (a record of ~100k actions fits easily)
MAX_LINE_BYTES = 16 * 1024 * 1024
#: an upload (`read_upload`) larger than this is refused before it is read
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
#: the longest line an upload may have (a game of ~50k actions fits)
MAX_UPLOAD_LINE_BYTES = 1024 * 1024
#: an upload holding more actions in all is refused before any is replayed. Set from measured
#: memory (benchmarks/bench_uploads.py, docs/records.md): a Replay widget showing a long Yokai
#: game costs ~1-1.3 KiB per ply over an idle kernel (the repetition history), so 100,000
#: actions came to ~100 MiB and more on the 5x6 board; 50,000 keeps the worst near 60 MiB
MAX_UPLOAD_ACTIONS = 50_000
#: arrays and objects nested deeper are refused (a record needs 4; free `meta` gets room)
MAX_NESTING = 32
#: a number written with more characters is refused (seeds, indices and counts need far fewer;
#: Python refuses integers of more than 4300 digits with a ValueError of its own)
MAX_NUMBER_CHARS = 40
#: user text echoed in an error message is cut to this many characters
MAX_ECHO_CHARS = 120
#: a record's `start` (a position text) may hold at most this many characters (the games'
#: texts take under 1,000: War Chest's mid-game ones ~500, Yokai's ~40)
MAX_START_CHARS = 16 * 1024

_KEYS = ("format", "game", "options", "start", "players", "actions", "result", "meta")
_REQUIRED = ("format", "game", "options", "actions")
_RESULT_KEYS = ("winner", "reason", "winners", "finished")
_JSON_SUFFIXES = (".jsonl", ".json", ".ndjson")


class RecordError(RulesError):
    """A bad record: the message says where (source, line, ply) and why, on one line."""

    def __init__(
        self, reason: str, *, source: str | None = None, line: int | None = None, ply: int | None = None
    ) -> None:
        reason = one_line(reason, limit=600)
        source = None if source is None else one_line(str(source), limit=MAX_ECHO_CHARS)
        self.reason, self.source, self.line, self.ply = reason, source, line, ply
        where = []
        if source is not None:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if ply is not None:
            where.append(f"ply {ply}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)

    def at(self, *, source: str | None = None, line: int | None = None) -> RecordError:
        """The same error, placed in a file and line (keeping what it already names)."""
        return RecordError(
            self.reason,
            source=self.source or source,
            line=self.line if self.line is not None else line,
            ply=self.ply,
        )


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


#: on the static site, the package its build makes of data/*.jsonl (publish/static_site.py)
RECORDS_PACKAGE = "rules_explorer_records"


def shipped_records() -> Path:
    """The folder of the project's shipped records (data/*.jsonl): data/ beside the notebooks
    (../data from notebooks/, data from the checkout), or on the static site the package its
    build ships them in (a reader's browser has no server files to read)."""
    try:
        package = __import__(RECORDS_PACKAGE)
    except ImportError:
        return Path("../data") if Path("../data").exists() else Path("data")
    return Path(package.__file__).parent


def one_line(text: str, *, limit: int = MAX_ECHO_CHARS) -> str:
    """`text` without line breaks or control characters (escaped), cut to `limit` characters:
    error messages stay one line whatever a record contains."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _echo(value: Any) -> str:
    """A short, one-line repr of untrusted data for a message."""
    return one_line(repr(value), limit=MAX_ECHO_CHARS)


@dataclass(frozen=True)
class RecordedAction:
    notation: str
    chance: bool = False

    def to_json(self) -> str | dict[str, str]:
        return {"chance": self.notation} if self.chance else self.notation

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class Record:
    """One game: which game and options, where it starts (`start`: a position text; None:
    the game's initial position), who played, every action, the result."""

    game: str
    options: dict[str, Any]
    actions: tuple[RecordedAction, ...]
    players: tuple[dict[str, Any], ...] = ()
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: where it was read from, for error messages (not written)
    source: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    #: the position the game starts from, as its text (`state.to_text()`); None: the game's
    #: initial position. Data, read by `game.from_text` only (`check_start`)
    start: str | None = None

    # --- building ------------------------------------------------------------------
    @classmethod
    def from_actions(
        cls,
        game: Game,
        actions: Iterable[Action | str],
        players: Iterable[Any] = (),
        meta: dict[str, Any] | None = None,
        *,
        start: State | str | None = None,
    ) -> Record:
        """A record of `actions` played from `game`'s initial state, or from `start` (a state
        of `game` or its position text), replayed to check them and to find the result. The
        record's `start` is the start's text, None when it is the initial position."""
        state, text = _start_of(game, start)
        recorded = []
        for ply, action in enumerate(actions):
            chance = state.current_player == core.CHANCE
            try:
                state = state.apply(action)
            except RulesError as exc:
                raise RecordError(str(exc), ply=ply) from exc
            recorded.append(RecordedAction(str(action), chance))
        return cls(
            game.id,
            _options_json(game),
            tuple(recorded),
            _players(players),
            _result_json(state.outcome()),
            dict(meta or {}),
            start=text,
        )

    @classmethod
    def from_states(cls, states: list[State], actions: Iterable[Action | str], **kwargs: Any) -> Record:
        """A record of a game held as its states and the actions between them (from
        `states[0]`: the record says its start if that is not the initial position)."""
        return cls.from_actions(states[0].game, actions, start=states[0], **kwargs)

    # --- replaying -------------------------------------------------------------------
    def load_game(self) -> Game:
        """The record's game with its options; the options are checked as untrusted data
        (names first, no file paths) before the game sees them."""
        try:
            options = check_options(self.game, self.options)
            return registry.load_game(self.game, **options)
        except RecordError as exc:
            raise self._error(exc.reason) from exc
        except RulesError as exc:
            raise self._error(str(exc)) from exc
        except Exception as exc:  # a game's option code failing on odd data is still bad data
            raise self._error(
                f"options not accepted by {self.game} ({type(exc).__name__}: {one_line(str(exc))})"
            ) from exc

    def start_state(self) -> State:
        """The state the game starts from: the game's initial state, or the record's `start`
        read by `game.from_text` (a bad one: RecordError naming the field)."""
        game = self.load_game()
        if self.start is not None:
            try:
                return check_start(game, self.start)
            except RecordError as exc:
                raise self._error(exc.reason) from exc
        try:
            return game.initial_state()
        except RulesError as exc:
            raise self._error(str(exc)) from exc
        except Exception as exc:  # a game's code failing on odd options is still bad data
            raise self._error(
                f"{self.game} cannot start with these options ({type(exc).__name__}: {one_line(str(exc))})"
            ) from exc

    def replay(self) -> list[State]:
        """Every state of the game, from the start; checks each action and the result.
        A long game's states take memory: `check()` and `checkpoints()` check the same and
        keep less."""
        return list(self._states())

    def check(self) -> State:
        """Replay and check the whole record (every action, the result) holding one state at
        a time; returns the final state."""
        return deque(self._states(), maxlen=1)[0]

    def checkpoints(self, every: int = 64) -> list[State]:
        """Replay and check the whole record as `replay()` does, but keep only the states at
        plies 0, every, 2*every, ...: replaying forward from the nearest gives any other."""
        if not _is_int(every) or every < 1:
            raise ValueError(f"every must be a whole number of at least 1, not {every!r}")
        return [state for ply, state in enumerate(self._states()) if ply % every == 0]

    def _states(self) -> Iterator[State]:
        """The initial state and the state after every action, each checked; the result is
        checked once the last one has been handed out."""
        state = self.start_state()
        yield state
        for ply, action in enumerate(self.actions):
            state = self._replay_one(state, ply, action)
            yield state
        self._check_result(state)

    def _replay_one(self, state: State, ply: int, action: RecordedAction) -> State:
        at_chance = state.current_player == core.CHANCE
        if state.is_terminal():
            raise self._error(
                f"the game ended ({state.outcome().reason}) but the record "
                f"goes on with {_echo(action.notation)}",
                ply,
            )
        if action.chance != at_chance:
            expected = "a chance outcome" if at_chance else f"a move by player {state.current_player}"
            raise self._error(
                f"{_echo(action.notation)} is recorded as "
                f"{'a chance outcome' if action.chance else 'a move'}, "
                f"but {expected} is due here",
                ply,
            )
        try:
            return state.apply(action.notation)
        except RulesError as exc:
            raise self._error(str(exc), ply) from exc
        except Exception as exc:  # the kernel must not crash on data; name the action if it does
            raise self._error(
                f"{_echo(action.notation)} could not be applied ({type(exc).__name__}: {one_line(str(exc))})",
                ply,
            ) from exc

    def final_state(self) -> State:
        return self.replay()[-1]

    def _check_result(self, final: State) -> None:
        """Every result field the record gives must agree with the replay."""
        if self.result is None:
            return
        replayed = final.outcome()
        if self.result.get("finished", True):
            self._check_finished(replayed)
        else:
            self._check_unfinished(replayed)

    def _check_finished(self, replayed: Outcome | None) -> None:
        if replayed is None:
            raise self._error(
                f"the record ends after {len(self.actions)} actions while the "
                f"game goes on, but its result says it finished "
                f"({_echo(self.result.get('reason'))})"
            )
        if replayed.winner != self.result.get("winner"):
            raise self._error(
                f"the recorded winner {_echo(self.result.get('winner'))} differs "
                f"from the replayed one {replayed.winner!r} ({replayed.reason})"
            )
        if "winners" in self.result and list(self.result["winners"]) != list(replayed.winners):
            raise self._error(
                f"the recorded winners {_echo(self.result['winners'])} differ "
                f"from the replayed ones {list(replayed.winners)!r}"
            )
        if "reason" in self.result and self.result["reason"] != replayed.reason:
            raise self._error(
                f"the recorded reason {_echo(self.result['reason'])} differs "
                f"from the replayed one {replayed.reason!r}"
            )

    def _check_unfinished(self, replayed: Outcome | None) -> None:
        if replayed is not None:
            raise self._error(
                f"the result says the game did not finish, but the replay ends "
                f"after {len(self.actions)} actions: {replayed.reason}"
            )
        if self.result.get("winner") is not None or self.result.get("winners"):
            raise self._error("the result says the game did not finish, yet names a winner")

    def _error(self, reason: str, ply: int | None = None) -> RecordError:
        return RecordError(reason, source=self.source, line=self.line, ply=ply)

    @property
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(
            self.result.get("winner"),
            self.result.get("reason", ""),
            tuple(self.result.get("winners", ())),
            self.result.get("finished", True),
        )

    # --- JSON ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "game": self.game, "options": self.options}
        if self.start is not None:
            data["start"] = self.start
        if self.players:
            data["players"] = list(self.players)
        data["actions"] = [a.to_json() for a in self.actions]
        if self.result is not None:
            data["result"] = self.result
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_json(self) -> str:
        """One line of JSON (no newline inside), which `read_records` reads back: never NaN or
        Infinity (RecordError naming the field instead), and the characters the reader
        refuses raw (DEL, C1 controls, U+2028/U+2029) written as \\u escapes."""
        return _json_line(self.to_dict(), self._error)

    @classmethod
    def from_json(cls, text: str, *, source: str | None = None, line: int | None = None) -> Record:
        """Parse and check the shape of one record line (its moves are checked by replay)."""

        def fail(reason: str) -> RecordError:
            return RecordError(reason, source=source, line=line)

        return cls.from_dict(parse_json(text, fail), source=source, line=line)

    @classmethod
    def from_dict(cls, data: Any, *, source: str | None = None, line: int | None = None) -> Record:
        def fail(reason: str) -> RecordError:
            return RecordError(reason, source=source, line=line)

        _check_fields(data, fail)
        try:
            options = check_options(data["game"], data["options"])
        except RecordError as exc:
            raise fail(exc.reason) from exc
        actions = tuple(_parse_action(a, ply, source, line) for ply, a in enumerate(data["actions"]))
        result = data.get("result")
        if result is not None:
            _check_result_shape(result, fail)
        players = _players(data.get("players") or (), fail)
        record = cls(
            data["game"],
            options,
            actions,
            players,
            result,
            data.get("meta") or {},
            source=source,
            line=line,
            start=data.get("start"),
        )
        if record.start is not None:
            record.start_state()  # read now: a bad start is an error of the line, replayed or not
        return record


def _check_fields(data: Any, fail: Callable[[str], RecordError]) -> None:
    if not isinstance(data, dict):
        raise fail(f"a record must be a JSON object, not {_JSON_TYPE.get(type(data), 'that')}")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise fail(f"missing field {missing[0]!r}")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise fail(f"unknown field {_echo(unknown[0])} (fields: {', '.join(_KEYS)})")
    if data["format"] != FORMAT:
        raise fail(f"format {_echo(data['format'])} is not {FORMAT!r}")
    _expect(data, "game", str, fail)
    _expect(data, "options", dict, fail)
    _expect(data, "actions", list, fail)
    for key, kind in (("players", list), ("result", dict), ("meta", dict)):
        if data.get(key) is not None:
            _expect(data, key, kind, fail)
    if "start" in data:  # absent for the initial position; never null
        _expect(data, "start", str, fail)


_JSON_TYPE = {
    dict: "an object",
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true/false",
    type(None): "null",
}


def _expect(data: dict, key: str, kind: type, fail) -> None:
    if not isinstance(data[key], kind):
        raise fail(
            f"field {key!r} must be a JSON {_JSON_NAMES[kind]}, "
            f"not {_JSON_TYPE.get(type(data[key]), 'that')}: {_echo(data[key])}"
        )


_JSON_NAMES = {str: "string", dict: "object", list: "array"}


def check_options(game_id: Any, options: Any, *, paths: bool = False) -> dict[str, Any]:
    """Options from an untrusted source (a record, an upload, a dashboard box, the command
    line), checked before any game code sees them: a known game, an object, only the game's
    option names (so a key such as `game_id` or `self` is refused, not passed on as a
    keyword), a whole number where the option takes one (`4.0` and `true` are refused: JSON
    reads them as a float and a boolean, which the games' own checks may let through), and
    no file path where a local user could give one (To War!'s `units`: a record carries the
    table inline; `paths=True` lets a local command-line user give one). Returns the options
    as a dict; raises RecordError (without a location)."""
    if not isinstance(game_id, str) or game_id not in registry.list_games():
        raise RecordError(f"unknown game {_echo(game_id)}; known games: {', '.join(registry.list_games())}")
    if not isinstance(options, dict):
        raise RecordError(f"the options of {game_id} must be a JSON object, not {_echo(options)}")
    known = registry.game_class(game_id).OPTIONS
    for name, value in options.items():
        if not isinstance(name, str) or name not in known:
            raise RecordError(
                f"{game_id} has no option {_echo(name)} (its options: {', '.join(sorted(known)) or 'none'})"
            )
        if isinstance(value, (float, bool)) and _takes_whole_number(known[name]):
            raise RecordError(f"option {name!r} of {game_id} must be a whole number, not {_json_echo(value)}")
        # A data table (an option that reads a file's content: `Option.from_bytes`) travels
        # inline as its rows; one message whatever the value names: nothing is opened.
        table = known[name].from_bytes is not None
        if table and not paths and value is not None and not isinstance(value, list):
            raise RecordError(
                f"option {name!r} of {game_id} must be the table itself (a JSON array of rows); "
                "a file name or path is not accepted in a record or an upload"
            )
    return dict(options)


#: refused in a start: C0 (tab too), DEL, C1, the line and paragraph separators (a position
#: text is one line; the text form writes it on one)
_START_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def check_start(game: Game, text: Any) -> State:
    """The state a record's `start` gives in `game` (the game with the record's options):
    a string of at most MAX_START_CHARS characters without control characters, read by
    `game.from_text` and nothing else (it is data, never a path). Raises RecordError naming
    the field (without a location)."""
    if not isinstance(text, str):
        raise RecordError(
            f"field 'start' must be a JSON string (a position text), "
            f"not {_JSON_TYPE.get(type(text), 'that')}: {_echo(text)}"
        )
    if len(text) > MAX_START_CHARS:
        raise RecordError(
            f"field 'start' holds {len(text):,} characters; a position text may hold at most "
            f"{MAX_START_CHARS:,}"
        )
    found = _START_CONTROL.search(text)
    if found:
        raise RecordError(
            f"field 'start' holds a control character (U+{ord(found.group()):04X}) at column "
            f"{found.start() + 1}; a position text is one line"
        )
    try:
        return game.from_text(text)
    except RulesError as exc:
        raise RecordError(
            f"field 'start' is not a {game.id} position: {one_line(str(exc), limit=300)}"
        ) from exc
    except NotImplementedError:
        raise RecordError(f"field 'start': {game.id} has no position text") from None
    except Exception as exc:  # a game's reader failing on odd text is still bad data
        raise RecordError(
            f"field 'start' is not a {game.id} position ({type(exc).__name__}: {one_line(str(exc))})"
        ) from exc


def _start_of(game: Game, start: State | str | None) -> tuple[State, str | None]:
    """The state a game starts from and its text for a record (None: the initial position)."""
    initial = game.initial_state()
    if start is None:
        return initial, None
    if isinstance(start, State):
        if start.game != game:
            raise RecordError(f"the start is a position of {start.game!r}, not of {game!r}")
        state = start
    else:
        state = check_start(game, start)
    return state, None if state == initial else state.to_text()


def _takes_whole_number(option: core.Option) -> bool:
    """Whether an option's values are whole numbers: its kind says int (not float), or its
    choices or its default are ints (War Chest's players: 2 or 4)."""
    kinds = option.kind if isinstance(option.kind, tuple) else (option.kind,)
    if float in kinds or bool in kinds:
        return False
    if int in kinds:
        return True
    if option.choices is not None:
        return any(_is_int(choice) for choice in option.choices)
    return _is_int(option.default)


def _json_echo(value: Any) -> str:
    """A value as JSON writes it (true, 4.0, 1e+300), for messages about JSON input."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return _echo(value)


def _parse_action(value: Any, ply: int, source: str | None, line: int | None) -> RecordedAction:
    if isinstance(value, str):
        return RecordedAction(value)
    if isinstance(value, dict) and set(value) == {"chance"} and isinstance(value["chance"], str):
        return RecordedAction(value["chance"], chance=True)
    raise RecordError(
        f'action {_echo(value)} must be a notation string or {{"chance": notation}}',
        source=source,
        line=line,
        ply=ply,
    )


def _check_result_shape(result: dict, fail) -> None:
    unknown = [k for k in result if k not in _RESULT_KEYS]
    if unknown:
        raise fail(f"unknown result field {_echo(unknown[0])} (fields: {', '.join(_RESULT_KEYS)})")
    winner = result.get("winner")
    if winner is not None and not _is_int(winner):
        raise fail(f"result winner must be an integer or null, not {_echo(winner)}")
    winners = result.get("winners", [])
    if not isinstance(winners, list) or not all(_is_int(w) for w in winners):
        raise fail(f"result winners must be an array of integers, not {_echo(winners)}")
    if not isinstance(result.get("reason", ""), str):
        raise fail(f"result reason must be a string, not {_echo(result['reason'])}")
    if not isinstance(result.get("finished", True), bool):
        raise fail(f"result finished must be true or false, not {_echo(result['finished'])}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _players(players: Iterable[Any], fail=None) -> tuple[dict[str, Any], ...]:
    out = []
    for p in players:
        if isinstance(p, str):
            out.append({"name": p})
        elif isinstance(p, dict):
            out.append(dict(p))
        else:
            reason = f"a player must be a name or an object, not {_echo(p)}"
            raise fail(reason) if fail else RecordError(reason)
    return tuple(out)


def _options_json(game: Game) -> dict[str, Any]:
    options = dict(game.options)
    _json_line(options, lambda reason: RecordError(f"the options of {game.id}: {reason}"))
    return options


#: characters written as \\u escapes although JSON allows them raw: the reader refuses them
#: raw (they are control characters, or line breaks to str.splitlines and many editors)
_WRITE_ESCAPED = re.compile("[\x7f-\x9f\u2028\u2029]")


def _json_line(
    data: Any,
    fail: Callable[[str], RecordError],
    where: str = "",
    *,
    separators: tuple[str, str] = (",", ":"),
) -> str:
    """`data` (found at `where` in a record) as one line of JSON that the bounded reader
    accepts, or `fail(reason)`."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=separators, allow_nan=False)
    except ValueError:
        place = _non_finite_at(data, where) or "a number"
        raise fail(
            f"cannot be written: {place} is not a finite number (JSON has no NaN or "
            "Infinity; give a finite number or null)"
        ) from None
    except (TypeError, RecursionError) as exc:
        raise fail(f"cannot be written as JSON ({type(exc).__name__}: {one_line(str(exc))})") from None
    if _WRITE_ESCAPED.search(text):
        text = _WRITE_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _non_finite_at(data: Any, where: str = "") -> str | None:
    """The place of the first NaN or infinity in `data` ('meta.x', 'options.units[3].count')."""
    if isinstance(data, float) and not math.isfinite(data):
        return f"{where or 'the value'} ({data!r})"
    if isinstance(data, dict):
        items = [(f"{where}.{key}" if where else str(key), value) for key, value in data.items()]
    elif isinstance(data, (list, tuple)):
        items = [(f"{where}[{i}]", value) for i, value in enumerate(data)]
    else:
        return None
    for place, value in items:
        found = _non_finite_at(value, place)
        if found:
            return found
    return None


def _result_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_dict()


# --- bounded JSON ----------------------------------------------------------------------------


class _Refused(Exception):
    """Raised inside json's hooks; turned into a RecordError with the location outside."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_json(text: str, fail: Callable[[str], RecordError] = RecordError) -> Any:
    """JSON from untrusted text, with bounds: nesting at most MAX_NESTING deep, numbers of at
    most MAX_NUMBER_CHARS characters, no NaN/Infinity, no duplicate keys, no lone surrogates.
    Any refusal raises `fail(reason)`; nothing else escapes."""
    too_deep = f"arrays and objects nested more than {MAX_NESTING} deep"
    try:
        data = _DECODER.decode(text)
    except _Refused as exc:
        raise fail(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise fail(
            f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno}); is the line truncated?"
        ) from None
    except RecursionError:  # json's C parser guards its own stack: far deeper than the bound
        raise fail(too_deep) from None
    except ValueError as exc:  # bounded above; kept as a last guard
        raise fail(f"not readable JSON ({type(exc).__name__})") from None
    # a line with few brackets cannot be deep: only the others are walked
    if text.count("[") + text.count("{") > MAX_NESTING and _deeper_than(data, MAX_NESTING):
        raise fail(too_deep)
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(data):
        raise fail("a string holds an unpaired UTF-16 surrogate (\\ud800-\\udfff)")
    return data


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` deep (walked without recursion)."""
    stack = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Refused(f"duplicate key {_echo(duplicate)} in an object")
    return data


def _bounded_int(digits: str) -> int:
    if len(digits) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(digits)} characters (at most {MAX_NUMBER_CHARS})")
    return int(digits)


def _bounded_float(digits: str) -> float:
    if len(digits) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(digits)} characters (at most {MAX_NUMBER_CHARS})")
    value = float(digits)
    if not math.isfinite(value):  # 1e400 would be read as Infinity, which JSON has not
        raise _Refused(f"the number {digits} is too large (it would be infinite)")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object_without_duplicates,
    parse_int=_bounded_int,
    parse_float=_bounded_float,
    parse_constant=_no_constant,
)


def _has_lone_surrogate(data: Any) -> bool:
    if isinstance(data, str):
        return any("\ud800" <= ch <= "\udfff" for ch in data)
    if isinstance(data, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_has_lone_surrogate(v) for v in data)
    return False


# --- lines of a file ---------------------------------------------------------------------------

PathOrFile = str | os.PathLike | IO[str] | IO[bytes]


def _lines(stream: IO, name: str, limit: int) -> Iterator[tuple[int, str | RecordError]]:
    """(line number, text or the error of that line) for every line, split at '\\n' only
    (never at the form feeds, vertical tabs, U+2028 ... that str.splitlines also splits at).
    Bytes are decoded line by line, so a bad byte is reported on its own line and the lines
    before it are kept; a line over `limit` bytes (characters for a text stream) is skipped
    unread; a line holding a control character other than tab is an error of that line. A
    file in UTF-16 or UTF-32 is one error (line 1) and nothing more is read."""
    number = 0
    while True:
        number += 1
        try:
            raw = stream.readline(limit + 1)
        except UnicodeDecodeError as exc:  # a text stream the caller opened decodes by itself
            yield number, RecordError(f"not UTF-8 text ({exc.reason})", source=name, line=number)
            return
        if not raw:
            return
        if number == 1 and isinstance(raw, bytes):
            encoding = _wide_encoding(raw)
            if encoding:
                yield (
                    number,
                    RecordError(f"this file is {encoding}; save it as UTF-8", source=name, line=number),
                )
                return
        if len(raw) > limit and raw[-1:] not in ("\n", b"\n"):
            _skip_rest_of_line(stream)
            yield (
                number,
                RecordError(
                    f"line longer than {limit} "
                    f"{'characters' if isinstance(raw, str) else 'bytes'}; "
                    "not a record file?",
                    source=name,
                    line=number,
                ),
            )
            continue
        yield number, "\n" if raw in (b"\n", "\n") else _decoded(raw, name, number)


#: byte order marks, the longer first (UTF-32 LE starts as UTF-16 LE does)
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE"),
    (b"\xff\xfe", "UTF-16 LE"),
    (b"\xfe\xff", "UTF-16 BE"),
)


def _wide_encoding(first: bytes) -> str | None:
    """'UTF-16 LE (it starts with a UTF-16 LE byte order mark)' and the like when a file's
    first bytes say it is UTF-16 or UTF-32, else None. Without a mark, ASCII text in those
    encodings shows as zero bytes between the characters."""
    for mark, encoding in _BOMS:
        if first.startswith(mark):
            return f"{encoding} (it starts with a {encoding} byte order mark)"
    head = first[:4]
    if len(head) == 4 and head[0] and head[1:] == b"\0\0\0":
        return "UTF-32 LE (text with three zero bytes after each character; no byte order mark)"
    if len(head) == 4 and head[:3] == b"\0\0\0" and head[3]:
        return "UTF-32 BE (text with three zero bytes before each character; no byte order mark)"
    if len(head) == 4 and head[0] and head[2] and head[1] == head[3] == 0:
        return "UTF-16 LE (text with a zero byte after each character; no byte order mark)"
    if len(head) == 4 and head[1] and head[3] and head[0] == head[2] == 0:
        return "UTF-16 BE (text with a zero byte before each character; no byte order mark)"
    return None


def _skip_rest_of_line(stream: IO) -> None:
    while True:
        chunk = stream.readline(1 << 20)
        if not chunk or chunk[-1:] in ("\n", b"\n"):
            return


#: control characters refused in a line: C0 but tab (a '\\r' only ends a line), DEL, C1, and
#: the line and paragraph separators (str.splitlines and editors break lines at several)
_LINE_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_NAMES = {
    "\x00": "a NUL byte",
    "\x0b": "a vertical tab",
    "\x0c": "a form feed",
    "\r": "a carriage return inside the line",
    "\x1b": "an escape character",
    "\x7f": "a delete character",
    "\x85": "a next-line character (U+0085)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
}


def _decoded(raw: str | bytes, name: str, number: int) -> str | RecordError:
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return RecordError(
                f"not UTF-8 text (byte {exc.start + 1} of the line is {raw[exc.start : exc.start + 1]!r})",
                source=name,
                line=number,
            )
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is no content
    body = text[:-1] if text.endswith("\n") else text
    found = _LINE_CONTROL.search(body[:-1] if body.endswith("\r") else body)
    if found:
        char = found.group()
        what = _CONTROL_NAMES.get(char, f"a control character (U+{ord(char):04X})")
        return RecordError(
            f"{what} at column {found.start() + 1}; no control characters but tab may stand in a line",
            source=name,
            line=number,
        )
    return text


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _open_regular_file(path: Path, name: str) -> IO[bytes]:
    """`path` opened for reading in binary, if it is a regular file; a directory, a pipe, a
    device or a socket is refused at once (RecordError), never read. The file is opened
    without blocking and then looked at (fstat on what was opened, so it cannot be swapped
    in between): opening a named pipe would otherwise wait for a writer for ever."""
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RecordError(f"cannot open: {exc.strerror}", source=name) from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((kind for test, kind in _FILE_KINDS if test(mode)), "not a file")
            raise RecordError(f"not a regular file ({kind}); give a record file", source=name)
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class _open:
    """Open a path (binary, for exact line numbers; only a regular file, for reading) or pass
    through an open stream (text or binary), and know its name for errors."""

    def __init__(self, source: PathOrFile, mode: str = "rb", name: str | None = None) -> None:
        self.source, self.mode, self.name, self.owned = source, mode, name, False

    def __enter__(self) -> tuple[IO, str]:
        if isinstance(self.source, (str, os.PathLike)):
            path = Path(self.source)
            name = self.name or str(path)
            if "r" in self.mode:
                self.stream = _open_regular_file(path, name)
            else:
                try:
                    self.stream = open(path, self.mode, encoding="utf-8", newline="\n")  # noqa: SIM115
                except OSError as exc:
                    raise RecordError(f"cannot open: {exc.strerror}", source=name) from exc
            self.owned = True
            return self.stream, name
        self.stream = self.source
        return self.stream, self.name or str(getattr(self.source, "name", "<stream>"))

    def __exit__(self, *exc: object) -> None:
        if self.owned:
            self.stream.close()


# --- JSON Lines files ----------------------------------------------------------------------


class Collected(NamedTuple):
    """What `read_records(..., errors="collect")` returns: every good record, every error."""

    records: list[Record]
    errors: list[RecordError]


def scan_records(
    source: PathOrFile, *, replay: bool = False, max_line_bytes: int = MAX_LINE_BYTES, name: str | None = None
) -> Iterator[Record | RecordError]:
    """Every record of a JSON Lines file and every error, in line order, without stopping at
    a bad line (streams: one line in memory at a time). `name` labels the source in errors."""
    try:
        with _open(source, name=name) as (stream, label):
            seen = 0
            for number, text in _lines(stream, label, max_line_bytes):
                if isinstance(text, RecordError):
                    yield text
                    seen += 1
                    continue
                if not text.strip(" \t\r\n"):  # a line of U+00A0 is not blank: JSON says why
                    continue
                seen += 1
                yield _record_of_line(text, label, number, replay)
    except RecordError as exc:  # the file cannot be opened
        yield exc
        return
    if seen == 0:
        yield RecordError("no records: the file is empty", source=label)


def _record_of_line(text: str, name: str, number: int, replay: bool) -> Record | RecordError:
    try:
        record = Record.from_json(text.rstrip("\r\n"), source=name, line=number)
        if replay:
            record.check()
    except RecordError as exc:
        return exc.at(source=name, line=number)
    except Exception as exc:  # no record may stop the reading of the others (or crash a caller)
        return RecordError(
            f"the record could not be read ({type(exc).__name__}: {one_line(str(exc))})",
            source=name,
            line=number,
        )
    return record


@overload
def read_records(
    source: PathOrFile,
    *,
    replay: bool = ...,
    errors: Literal["raise"] = ...,
    max_line_bytes: int = ...,
    name: str | None = ...,
) -> Iterator[Record]: ...


@overload
def read_records(
    source: PathOrFile,
    *,
    replay: bool = ...,
    errors: Literal["collect"],
    max_line_bytes: int = ...,
    name: str | None = ...,
) -> Collected: ...


def read_records(
    source: PathOrFile,
    *,
    replay: bool = False,
    errors: Literal["raise", "collect"] = "raise",
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
) -> Iterator[Record] | Collected:
    """The records of a JSON Lines file.

    errors="raise" (the default): a generator streaming one record at a time (millions of
    games are fine); the first bad line raises RecordError naming it, after every good
    record before it was delivered. errors="collect": reads on past bad lines and returns
    `Collected(records, errors)`: every good record and every error, in line order.

    Blank lines are skipped; an empty file is an error. With `replay=True` every record is
    also replayed and checked. `source`: a path, or an open text or binary stream.
    """
    if errors not in ("raise", "collect"):
        raise ValueError(f"errors must be 'raise' or 'collect', not {errors!r}")
    items = scan_records(source, replay=replay, max_line_bytes=max_line_bytes, name=name)
    if errors == "collect":
        return _collect(items)
    return _raise_first(items)


def _raise_first(items: Iterator[Record | RecordError]) -> Iterator[Record]:
    for item in items:
        if isinstance(item, RecordError):
            raise item
        yield item


def _collect(items: Iterable[Record | RecordError]) -> Collected:
    good, bad = [], []
    for item in items:
        (bad if isinstance(item, RecordError) else good).append(item)
    return Collected(good, bad)


class RecordWriter:
    """Write records one line at a time (while simulating); flushes after every record.

    with RecordWriter("games.jsonl") as out:
        out.write(record)
    """

    def __init__(self, target: PathOrFile, *, append: bool = False) -> None:
        self._opener = _open(target, "a" if append else "w")
        self.count = 0

    def __enter__(self) -> RecordWriter:
        self.stream, self.name = self._opener.__enter__()
        return self

    def write(self, record: Record) -> None:
        try:
            line = record.to_json()
        except RecordError as exc:  # nothing of it is written
            raise exc.at(source=self.name) from exc
        # one write call per line: a kill can tear only the last line (resume repairs it)
        self.stream.write(line + "\n")
        self.stream.flush()
        self.count += 1

    def __exit__(self, *exc: object) -> None:
        self._opener.__exit__(*exc)


def write_records(target: PathOrFile, records: Iterable[Record], *, append: bool = False) -> int:
    """Write records as JSON Lines; returns how many were written."""
    with RecordWriter(target, append=append) as out:
        for record in records:
            out.write(record)
        return out.count


# --- the one-game text form ----------------------------------------------------------------


def read_text_game(
    source: PathOrFile,
    *,
    game: Game | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_actions: int | None = None,
    name: str | None = None,
    check: Callable[[Record], object] = Record.check,
) -> Record:
    """A single game written one action per line, with `game:` and `options:` headers
    (or pass `game`) and, for a game from another position than the initial one, a `start:`
    header (its position text). Every action is checked by replaying; errors name the line.

    Read as JSON Lines are: streamed (blank and comment lines are read past, never kept),
    each line at most `max_line_bytes`, and the game as a whole bounded as one record line
    is: its action lines may hold at most `max_line_bytes` in all. `max_actions` (uploads)
    refuses a longer game before any action is replayed. `check(record)` replays and checks
    it (`Record.check`; `Record.checkpoints` keeps some states), its errors named by line."""
    with _open(source, name=name) as (stream, label):
        header = _TextHeader(label, game)
        actions: list[RecordedAction] = []
        numbers = array("Q")  # the line of every action, for errors: 8 bytes each
        size, content = 0, False
        for number, text in _lines(stream, label, max_line_bytes):
            if text == "\n":
                continue
            if isinstance(text, RecordError):
                raise text
            body = text.split("#", 1)[0].strip(" \t\r\n")
            if not body:
                continue
            content = True
            if header.take(body, number, before_actions=not actions):
                continue
            size += len(body.encode()) + 1
            if size > max_line_bytes:
                raise RecordError(
                    f"the game's action lines hold more than {max_line_bytes:,} bytes, "
                    "the most one record may hold",
                    source=label,
                    line=number,
                )
            if max_actions is not None and len(actions) >= max_actions:
                raise RecordError(
                    f"the game has more than {max_actions:,} actions; replay fewer at a time",
                    source=label,
                    line=number,
                )
            actions.append(_text_action(body))
            numbers.append(number)
    if not content:
        raise RecordError("no records: the file is empty", source=label)
    record = header.record(tuple(actions))
    del actions
    try:
        check(record)
    except RecordError as exc:
        line = numbers[exc.ply] if exc.ply is not None else header.options_line
        raise RecordError(exc.reason, source=label, line=line, ply=exc.ply) from exc
    return record


class _TextHeader:
    """The `game:` and `options:` lines of the text form, checked where they stand."""

    def __init__(self, name: str, game: Game | None) -> None:
        self.name = name
        self.game_id, self.options = (game.id, dict(game.options)) if game else (None, {})
        self.options_line: int | None = None
        self.start: str | None = None
        self.start_line: int | None = None

    def take(self, text: str, number: int, *, before_actions: bool) -> bool:
        """Whether `text` was a header line (and is now read)."""
        key, _, value = text.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not before_actions or key not in ("game", "options", "start"):
            return False
        if key == "start":
            self.start, self.start_line = value, number
            return True
        if key == "game":
            if value not in registry.list_games():
                raise RecordError(
                    f"unknown game {_echo(value)}; known games: {', '.join(registry.list_games())}",
                    source=self.name,
                    line=number,
                )
            self.game_id = value
        else:
            self.options = _parse_options_line(value, self.name, number)
        self.options_line = number
        return True

    def record(self, actions: tuple[RecordedAction, ...]) -> Record:
        if self.game_id is None:
            raise RecordError("no 'game: <id>' line before the first action", source=self.name)
        try:
            options = check_options(self.game_id, self.options)
        except RecordError as exc:
            raise RecordError(exc.reason, source=self.name, line=self.options_line) from exc
        record = Record(self.game_id, options, actions, source=self.name, start=self.start)
        if self.start is not None:
            try:
                game = record.load_game()
            except RecordError as exc:
                raise RecordError(exc.reason, source=self.name, line=self.options_line) from exc
            try:
                check_start(game, self.start)
            except RecordError as exc:
                raise RecordError(exc.reason, source=self.name, line=self.start_line) from exc
        return record


def _text_action(text: str) -> RecordedAction:
    key, _, value = text.partition(":")
    if key.strip().lower() == "chance" and value.strip():
        return RecordedAction(value.strip(), chance=True)
    return RecordedAction(text)


def _parse_options_line(value: str, name: str, number: int) -> dict[str, Any]:
    def fail(reason: str) -> RecordError:
        return RecordError(f"options: {reason}", source=name, line=number)

    options = parse_json(value, fail)
    if not isinstance(options, dict):
        raise fail("must be a JSON object")
    return options


def to_text_game(record: Record) -> str:
    """The one-action-per-line text form of a record."""

    def dumps(data: Any, where: str) -> str:
        return _json_line(data, record._error, where, separators=(", ", ": "))

    lines = [f"game: {record.game}", f"options: {dumps(record.options, 'options')}"]
    if record.start is not None:
        text = record.start
        if "#" in text or text != text.strip(" \t\r\n") or _START_CONTROL.search(text):
            raise record._error(
                "field 'start' cannot be written in the text form (it holds '#', a control "
                "character or blanks at an end); write the record as JSON Lines"
            )
        lines.append(f"start: {text}")
    lines += [f"chance: {a.notation}" if a.chance else a.notation for a in record.actions]
    if record.result is not None:
        lines.append(f"# result: {dumps(record.result, 'result')}")
    return "\n".join(lines) + "\n"


def load(
    source: str | os.PathLike,
    *,
    errors: Literal["raise", "collect"] = "raise",
    replay: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[Record] | Collected:
    """Records from a file: JSON Lines (.jsonl/.json/.ndjson), a PGN or KIF file (told by its
    content, or by .pgn/.kif/.kifu), or the one-game text form (else).
    errors="raise": a list of records; errors="collect": `Collected(records, errors)`."""
    if Path(source).suffix in _JSON_SUFFIXES:
        found = read_records(source, replay=replay, errors=errors, max_line_bytes=max_line_bytes)
        return found if errors == "collect" else list(found)
    try:
        kind = _detect_file(Path(source), str(source))
        if kind in ("pgn", "kif"):
            return read(source, errors=errors, max_line_bytes=max_line_bytes)
        one = [read_text_game(source, max_line_bytes=max_line_bytes)]
    except RecordError as exc:
        if errors == "collect":
            return Collected([], [exc])
        raise
    return Collected(one, []) if errors == "collect" else one


def loads(text: str) -> list[Record]:
    """Records from JSON Lines text in memory."""
    return list(read_records(io.StringIO(text)))


# --- players' formats: PGN and KIF (rules_kernel/formats/) ----------------------------------

#: a PGN or KIF file is read whole (its games are parsed as text): at most this many bytes
MAX_FORMAT_BYTES = MAX_LINE_BYTES
#: how much of a file the format is told from
_HEAD_BYTES = 64 * 1024
_FORMAT_SUFFIXES = {".pgn": "pgn", ".kif": "kif", ".kifu": "kif"}
#: lines only a KIF file has (its header keys, the move list's heading, a board diagram)
_KIF_MARKS = (
    "手合割",
    "手数----",
    "先手：",
    "後手：",
    "下手：",
    "上手：",
    "開始日時：",
    "先手の持駒",
    "後手の持駒",
)
_KIF_MOVE = re.compile(r"\s*1\s+[１２３４５６７８９][一二三四五六七八九]")
_PGN_START = re.compile(r'\[[A-Za-z0-9_]+\s+"|1\.')
_TEXT_HEADER = re.compile(r"(game|options|start)\s*:", re.IGNORECASE)

Format = Literal["jsonl", "text", "pgn", "kif"]


def detect(head: bytes | str, filename: str = "") -> Format:
    """The format of a record file from its first bytes: JSON Lines (a line starting with
    '{'), PGN (a tag '[Name "' or '1.'), KIF (手合割, 先手：, a move line like '1 ２二ひよこ'),
    else the one-game text form; a .pgn/.kif/.kifu name decides only where the content does
    not (a PGN of bare moves)."""
    text = head if isinstance(head, str) else _head_text(head)
    for line in text.split("\n"):
        body = line.strip().lstrip("\ufeff")
        if not body or body[0] in "#%*&":
            continue
        if body.startswith("{"):
            return "jsonl"
        if _PGN_START.match(body):
            return "pgn"
        if _TEXT_HEADER.match(body):
            return "text"
        break
    if any(mark in text for mark in _KIF_MARKS) or any(_KIF_MOVE.match(line) for line in text.split("\n")):
        return "kif"
    return _FORMAT_SUFFIXES.get(Path(filename).suffix.lower(), "text")


def _head_text(head: bytes) -> str:
    """The first bytes as text: UTF-8 (a character cut at the end is dropped), else the
    Shift_JIS that KIF files are often saved in."""
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3:
            return head[: exc.start].decode("utf-8", errors="replace")
        return head.decode("cp932", errors="replace")


def _detect_file(path: Path, label: str) -> Format:
    with _open_regular_file(path, label) as stream:
        return detect(stream.read(_HEAD_BYTES), str(path))


def read(
    source: str | os.PathLike | bytes | bytearray | memoryview,
    *,
    name: str | None = None,
    errors: Literal["raise", "collect"] = "raise",
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[Record] | Collected:
    """Records from any record file, its format told by content (`detect`): JSON Lines, the
    one-game text form, PGN (pychess-variants' Dōbutsu and Gorogoro+) or KIF (どうぶつしょうぎ).
    `source`: a path; or the file's bytes; or its text (a str holding a line break, or
    starting with '{' or '[': a one-line str is a path). `name` labels it in errors. Every
    record is replayed and checked. errors="raise": a list, the first bad record raises
    RecordError (source, line, ply, reason); errors="collect": `Collected(records, errors)`."""
    if isinstance(source, str) and ("\n" in source or source.lstrip()[:1] in ("{", "[")):
        source = source.encode("utf-8", errors="surrogatepass")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        label = name or "<text>"
        kind = detect(data[:_HEAD_BYTES], label)
        opener: Callable[[], IO[bytes]] = lambda: io.BytesIO(data)  # noqa: E731
    else:
        path = Path(source)
        label = name or str(source)
        kind = _detect_file(path, label)
        opener = lambda: _open_regular_file(path, label)  # noqa: E731
    try:
        found = _read_kind(kind, opener, label, max_line_bytes)
    except RecordError as exc:
        found = Collected([], [exc])
    if errors == "collect":
        return found
    if found.errors:
        raise found.errors[0]
    return found.records


def _read_kind(kind: Format, opener: Callable[[], IO[bytes]], label: str, max_line_bytes: int) -> Collected:
    if kind == "jsonl":
        with opener() as stream:
            return _collect(scan_records(stream, replay=True, max_line_bytes=max_line_bytes, name=label))
    if kind == "text":
        with opener() as stream:
            return Collected([read_text_game(stream, max_line_bytes=max_line_bytes, name=label)], [])
    with opener() as stream:
        data = stream.read(MAX_FORMAT_BYTES + 1)
    if len(data) > MAX_FORMAT_BYTES:
        raise RecordError(
            f"a {kind.upper()} file of more than {MAX_FORMAT_BYTES:,} bytes; split it", source=label
        )
    return _collect(_format_records(kind, data, label, max_line_bytes))


def _format_records(
    kind: Format, data: bytes, label: str, max_line_bytes: int, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """The games of a PGN or KIF file's bytes, read through the same bounded lines as JSON
    Lines (line length, control characters, UTF-16 refused); KIF may be Shift_JIS."""
    from rules_kernel.formats import kif, pgn

    if kind == "kif":
        data = _as_utf8(data)
    lines = []
    for number, text in _lines(io.BytesIO(data), label, max_line_bytes):
        if isinstance(text, RecordError):
            raise text
        lines.append((number, text.rstrip("\r\n")))
    if not any(text.strip() for _, text in lines):
        raise RecordError("no records: the file is empty", source=label)
    reader = pgn.read_lines if kind == "pgn" else kif.read_lines
    yield from reader(lines, label, max_actions=max_actions)


def _as_utf8(data: bytes) -> bytes:
    """KIF files are often Shift_JIS (cp932): such bytes are re-encoded as UTF-8; bytes that
    are neither stay as they are (the line reader names the bad line)."""
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp932").encode("utf-8")
    except UnicodeDecodeError:
        return data


# --- uploads from untrusted visitors ---------------------------------------------------------


def _check_upload_size(found: list[Record], label: str) -> None:
    total = 0
    for record in found:
        total += len(record.actions)
        if total > MAX_UPLOAD_ACTIONS:
            raise RecordError(
                f"the file holds more than {MAX_UPLOAD_ACTIONS:,} actions in all; "
                "replay fewer games at a time",
                source=label,
                line=record.line,
            )


def _check_whole(_: int, record: Record) -> None:
    record.check()


def read_upload(
    data: bytes,
    filename: str,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    max_line_bytes: int = MAX_UPLOAD_LINE_BYTES,
    check: Callable[[int, Record], object] | None = None,
) -> list[Record]:
    """Records from an uploaded file's bytes (a dashboard visitor's file): JSON Lines when
    `filename` ends in .jsonl/.json/.ndjson; else PGN or KIF when the content is (`detect`),
    else the one-game text form. Every record is
    replayed and checked; a record that names a file (To War!'s `units`) is refused and no
    file is opened. `filename` is only a label in messages, never a path.

    Raises only RecordError, whose message is one line (name, line, ply, reason), for every
    bad input: too large, a line too long, not UTF-8, too deep, huge numbers, duplicate keys,
    unknown game or option, more than MAX_UPLOAD_ACTIONS actions in all (replay time), an
    illegal action, a result the replay contradicts, ... Every line is read and checked
    before any record is replayed.

    `check(i, record)`, if given, replays and checks record i (from 0) instead of
    `record.check()`, and must check it whole: the Replay widget builds the session of the
    game it is about to show (`Session.from_record`, which checks as `check` does), so that
    game is not replayed twice.
    """
    check = check or _check_whole
    label = one_line(Path(str(filename)).name or "upload", limit=60)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RecordError(f"an upload must be bytes, not {type(data).__name__}", source=label)
    if len(data) > max_bytes:
        raise RecordError(
            f"the file has {len(data):,} bytes; at most {max_bytes:,} are accepted", source=label
        )
    stream = io.BytesIO(bytes(data))
    try:
        if label.lower().endswith(_JSON_SUFFIXES):
            found = list(read_records(stream, max_line_bytes=max_line_bytes, name=label))
            _check_upload_size(found, label)
            for i, record in enumerate(found):
                check(i, record)
            return found
        kind = detect(bytes(data[:_HEAD_BYTES]), label)
        if kind in ("pgn", "kif"):  # replayed while read: bounded by actions before that
            found = list(
                _raise_first(_format_records(kind, bytes(data), label, max_line_bytes, MAX_UPLOAD_ACTIONS))
            )
            _check_upload_size(found, label)
            for i, record in enumerate(found):
                check(i, record)
            return found
        return [
            read_text_game(
                stream,
                max_line_bytes=max_line_bytes,
                max_actions=MAX_UPLOAD_ACTIONS,
                name=label,
                check=lambda record: check(0, record),
            )
        ]
    except RecordError:
        raise
    except Exception as exc:  # a visitor must get a message, never a traceback
        raise RecordError(f"the file could not be read ({type(exc).__name__})", source=label) from exc
