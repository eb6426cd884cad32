"""The record model: `Record` (one game: game, options, start, players, actions, result,
meta), `RecordedAction`, and the checks every untrusted record goes through before any game
code sees it (`check_options`, `check_start`). A record is data, never a pointer to a file."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules_kernel import core, registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Action, Game, Outcome, RulesError, State
from rules_kernel.record_model.bounded_json import json_line, parse_json
from rules_kernel.record_model.errors import RecordError, echo, json_echo, one_line

FORMAT = "rules-explorer/1"
#: a record's `start` (a position text) may hold at most this many characters (the games'
#: texts take under 1,000: War Chest's mid-game ones ~500, Yokai's ~40)
MAX_START_CHARS = 16 * 1024

_KEYS = ("format", "game", "options", "start", "players", "actions", "result", "meta")
_REQUIRED = ("format", "game", "options", "actions")
_RESULT_KEYS = ("winner", "reason", "winners", "finished")


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
                f"goes on with {echo(action.notation)}",
                ply,
            )
        if action.chance != at_chance:
            expected = "a chance outcome" if at_chance else f"a move by player {state.current_player}"
            raise self._error(
                f"{echo(action.notation)} is recorded as "
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
                f"{echo(action.notation)} could not be applied ({type(exc).__name__}: {one_line(str(exc))})",
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
                f"({echo(self.result.get('reason'))})"
            )
        if replayed.winner != self.result.get("winner"):
            raise self._error(
                f"the recorded winner {echo(self.result.get('winner'))} differs "
                f"from the replayed one {replayed.winner!r} ({replayed.reason})"
            )
        if "winners" in self.result and list(self.result["winners"]) != list(replayed.winners):
            raise self._error(
                f"the recorded winners {echo(self.result['winners'])} differ "
                f"from the replayed ones {list(replayed.winners)!r}"
            )
        if "reason" in self.result and self.result["reason"] != replayed.reason:
            raise self._error(
                f"the recorded reason {echo(self.result['reason'])} differs "
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
        return json_line(self.to_dict(), self._error)

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
        actions = _actions(data["actions"], source, line)
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
        raise fail(f"unknown field {echo(unknown[0])} (fields: {', '.join(_KEYS)})")
    if data["format"] != FORMAT:
        raise fail(f"format {echo(data['format'])} is not {FORMAT!r}")
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
            f"not {_JSON_TYPE.get(type(data[key]), 'that')}: {echo(data[key])}"
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
        raise RecordError(f"unknown game {echo(game_id)}; known games: {', '.join(registry.list_games())}")
    if not isinstance(options, dict):
        raise RecordError(f"the options of {game_id} must be a JSON object, not {echo(options)}")
    known = registry.game_class(game_id).OPTIONS
    for name, value in options.items():
        if not isinstance(name, str) or name not in known:
            raise RecordError(
                f"{game_id} has no option {echo(name)} (its options: {', '.join(sorted(known)) or 'none'})"
            )
        if isinstance(value, (float, bool)) and _takes_whole_number(known[name]):
            raise RecordError(f"option {name!r} of {game_id} must be a whole number, not {json_echo(value)}")
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
START_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def check_start(game: Game, text: Any) -> State:
    """The state a record's `start` gives in `game` (the game with the record's options):
    a string of at most MAX_START_CHARS characters without control characters, read by
    `game.from_text` and nothing else (it is data, never a path). Raises RecordError naming
    the field (without a location)."""
    if not isinstance(text, str):
        raise RecordError(
            f"field 'start' must be a JSON string (a position text), "
            f"not {_JSON_TYPE.get(type(text), 'that')}: {echo(text)}"
        )
    if len(text) > MAX_START_CHARS:
        raise RecordError(
            f"field 'start' holds {len(text):,} characters; a position text may hold at most "
            f"{MAX_START_CHARS:,}"
        )
    found = START_CONTROL.search(text)
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


#: the moves read so far, by notation: an action is an immutable value, so one object serves
#: every record that plays it (a collection's import reads millions of moves, of a few
#: thousand notations); forgotten at once past this many
_READ_MOVES: dict[str, RecordedAction] = {}
_READ_MOVES_KEPT = 100_000


def _actions(values: list, source: str | None, line: int | None) -> tuple[RecordedAction, ...]:
    read = _READ_MOVES
    out = []
    for ply, value in enumerate(values):
        action = read.get(value) if type(value) is str else None
        if action is None:
            action = _parse_action(value, ply, source, line)
            if type(value) is str:
                if len(read) >= _READ_MOVES_KEPT:
                    read.clear()
                read[value] = action
        out.append(action)
    return tuple(out)


def _parse_action(value: Any, ply: int, source: str | None, line: int | None) -> RecordedAction:
    if isinstance(value, str):
        return RecordedAction(value)
    if isinstance(value, dict) and set(value) == {"chance"} and isinstance(value["chance"], str):
        return RecordedAction(value["chance"], chance=True)
    raise RecordError(
        f'action {echo(value)} must be a notation string or {{"chance": notation}}',
        source=source,
        line=line,
        ply=ply,
    )


def _check_result_shape(result: dict, fail) -> None:
    unknown = [k for k in result if k not in _RESULT_KEYS]
    if unknown:
        raise fail(f"unknown result field {echo(unknown[0])} (fields: {', '.join(_RESULT_KEYS)})")
    winner = result.get("winner")
    if winner is not None and not _is_int(winner):
        raise fail(f"result winner must be an integer or null, not {echo(winner)}")
    winners = result.get("winners", [])
    if not isinstance(winners, list) or not all(_is_int(w) for w in winners):
        raise fail(f"result winners must be an array of integers, not {echo(winners)}")
    if not isinstance(result.get("reason", ""), str):
        raise fail(f"result reason must be a string, not {echo(result['reason'])}")
    if not isinstance(result.get("finished", True), bool):
        raise fail(f"result finished must be true or false, not {echo(result['finished'])}")


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
            reason = f"a player must be a name or an object, not {echo(p)}"
            raise fail(reason) if fail else RecordError(reason)
    return tuple(out)


def _options_json(game: Game) -> dict[str, Any]:
    options = dict(game.options)
    json_line(options, lambda reason: RecordError(f"the options of {game.id}: {reason}"))
    return options


def _result_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_dict()
