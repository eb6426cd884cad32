"""Game records: JSON Lines, one game per line; and a one-move-per-line text form.

A record line looks like this (keys in this order; `players`, `result`, `meta` optional):

    {"format": "rules-explorer/1", "game": "yokai-3x4", "options": {"repetitions": 3},
     "players": [{"name": "random", "agent": "random", "seed": 1}, {"name": "me"}],
     "actions": ["b2b3", "c4b3", {"chance": "deal:..."}],
     "result": {"winner": 1, "reason": "...", "winners": [1], "finished": true},
     "meta": {"date": "2026-11-23"}}

Every action is its notation; a chance outcome is written {"chance": notation}. The log of
actions is the source of truth: `Record.replay()` applies it again from the game's initial
state and checks every action and the recorded result. Errors name the source, the line,
the ply and the reason (`RecordError`); a record is never loaded half-way. Nothing here
uses pickle or eval: only `json`.

The text form, for one game, is a header and one action per line:

    # anything after '#' is a comment
    game: yokai-3x4
    options: {"repetitions": 3}
    b2b3
    c4b3
    chance: deal:...
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import rules_kernel as rk
from rules_kernel.core import Action, Game, Outcome, RulesError, State

FORMAT = "rules-explorer/1"
#: a longer line is refused before it is parsed (a record of ~100k actions fits easily)
MAX_LINE_BYTES = 16 * 1024 * 1024

_KEYS = ("format", "game", "options", "players", "actions", "result", "meta")
_REQUIRED = ("format", "game", "options", "actions")


class RecordError(RulesError):
    """A bad record: the message says where (source, line, ply) and why."""

    def __init__(self, reason: str, *, source: str | None = None, line: int | None = None,
                 ply: int | None = None) -> None:
        self.reason, self.source, self.line, self.ply = reason, source, line, ply
        where = []
        if source is not None:
            where.append(str(source))
        if line is not None:
            where.append(f"line {line}")
        if ply is not None:
            where.append(f"ply {ply}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


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
    """One game: which game and options, who played, every action, the result."""

    game: str
    options: dict[str, Any]
    actions: tuple[RecordedAction, ...]
    players: tuple[dict[str, Any], ...] = ()
    result: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    #: where it was read from, for error messages (not written)
    source: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    # --- building ------------------------------------------------------------------
    @classmethod
    def from_actions(cls, game: Game, actions: Iterable[Action | str], players: Iterable[Any] = (),
                     meta: dict[str, Any] | None = None) -> Record:
        """A record of `actions` played from `game`'s initial state (replayed to check them
        and to find the result)."""
        state = game.initial_state()
        recorded = []
        for ply, action in enumerate(actions):
            chance = state.current_player == rk.CHANCE
            try:
                state = state.apply(action)
            except RulesError as exc:
                raise RecordError(str(exc), ply=ply) from exc
            recorded.append(RecordedAction(str(action), chance))
        return cls(game.id, _options_json(game), tuple(recorded), _players(players),
                   _result_json(state.outcome()), dict(meta or {}))

    @classmethod
    def from_states(cls, states: list[State], actions: Iterable[Action | str], **kwargs: Any) -> Record:
        """A record of a game held as its states and the actions between them."""
        return cls.from_actions(states[0].game, actions, **kwargs)

    # --- replaying -------------------------------------------------------------------
    def load_game(self) -> Game:
        try:
            return rk.load_game(self.game, **self.options)
        except RulesError as exc:
            raise self._error(str(exc)) from exc

    def replay(self) -> list[State]:
        """Every state of the game, from the initial one; checks each action and the result."""
        states = [self.load_game().initial_state()]
        for ply, action in enumerate(self.actions):
            state = states[-1]
            at_chance = state.current_player == rk.CHANCE
            if state.is_terminal():
                raise self._error(f"the game ended ({state.outcome().reason}) but the record "
                                  f"goes on with {action.notation!r}", ply)
            if action.chance != at_chance:
                expected = "a chance outcome" if at_chance else f"a move by player {state.current_player}"
                raise self._error(f"{action.notation!r} is recorded as "
                                  f"{'a chance outcome' if action.chance else 'a move'}, "
                                  f"but {expected} is due here", ply)
            try:
                states.append(state.apply(action.notation))
            except RulesError as exc:
                raise self._error(str(exc), ply) from exc
        self._check_result(states[-1])
        return states

    def final_state(self) -> State:
        return self.replay()[-1]

    def _check_result(self, final: State) -> None:
        if self.result is None:
            return
        replayed = final.outcome()
        if self.result.get("finished", True):
            if replayed is None:
                raise self._error(f"the record ends after {len(self.actions)} actions while the "
                                  f"game goes on, but its result says it finished "
                                  f"({self.result.get('reason')!r})")
            if replayed.winner != self.result.get("winner"):
                raise self._error(f"the recorded winner {self.result.get('winner')!r} differs "
                                  f"from the replayed one {replayed.winner!r} ({replayed.reason})")

    def _error(self, reason: str, ply: int | None = None) -> RecordError:
        return RecordError(reason, source=self.source, line=self.line, ply=ply)

    @property
    def outcome(self) -> Outcome | None:
        if self.result is None:
            return None
        return Outcome(self.result.get("winner"), self.result.get("reason", ""),
                       tuple(self.result.get("winners", ())), self.result.get("finished", True))

    # --- JSON ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "game": self.game, "options": self.options}
        if self.players:
            data["players"] = list(self.players)
        data["actions"] = [a.to_json() for a in self.actions]
        if self.result is not None:
            data["result"] = self.result
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_json(self) -> str:
        """One line of JSON (no newline inside)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, *, source: str | None = None, line: int | None = None) -> Record:
        """Parse and check the shape of one record line (its moves are checked by replay)."""
        def fail(reason: str) -> RecordError:
            return RecordError(reason, source=source, line=line)

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise fail(f"not valid JSON ({exc.msg} at column {exc.colno}); "
                       "is the line truncated?") from exc
        return cls.from_dict(data, source=source, line=line)

    @classmethod
    def from_dict(cls, data: Any, *, source: str | None = None, line: int | None = None) -> Record:
        def fail(reason: str) -> RecordError:
            return RecordError(reason, source=source, line=line)

        if not isinstance(data, dict):
            raise fail(f"a record must be a JSON object, not {type(data).__name__}")
        missing = [k for k in _REQUIRED if k not in data]
        if missing:
            raise fail(f"missing field {missing[0]!r}")
        unknown = [k for k in data if k not in _KEYS]
        if unknown:
            raise fail(f"unknown field {unknown[0]!r} (fields: {', '.join(_KEYS)})")
        if data["format"] != FORMAT:
            raise fail(f"format {data['format']!r} is not {FORMAT!r}")
        _expect(data, "game", str, fail)
        _expect(data, "options", dict, fail)
        _expect(data, "actions", list, fail)
        for key, kind in (("players", list), ("result", dict), ("meta", dict)):
            if data.get(key) is not None:
                _expect(data, key, kind, fail)
        if data["game"] not in rk.list_games():
            raise fail(f"unknown game {data['game']!r}; known games: {', '.join(rk.list_games())}")
        actions = tuple(_parse_action(a, ply, source, line) for ply, a in enumerate(data["actions"]))
        result = data.get("result")
        if result is not None:
            _check_result_shape(result, fail)
        players = _players(data.get("players") or (), fail)
        return cls(data["game"], data["options"], actions, players, result,
                   data.get("meta") or {}, source, line)


def _expect(data: dict, key: str, kind: type, fail) -> None:
    if not isinstance(data[key], kind):
        raise fail(f"field {key!r} must be a JSON {_JSON_NAMES[kind]}, "
                   f"not {type(data[key]).__name__}: {str(data[key])[:60]!r}")


_JSON_NAMES = {str: "string", dict: "object", list: "array"}


def _parse_action(value: Any, ply: int, source: str | None, line: int | None) -> RecordedAction:
    if isinstance(value, str):
        return RecordedAction(value)
    if isinstance(value, dict) and set(value) == {"chance"} and isinstance(value["chance"], str):
        return RecordedAction(value["chance"], chance=True)
    raise RecordError(f"action {value!r} must be a notation string or {{\"chance\": notation}}",
                      source=source, line=line, ply=ply)


def _check_result_shape(result: dict, fail) -> None:
    winner = result.get("winner")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool)):
        raise fail(f"result winner must be an integer or null, not {winner!r}")
    if not isinstance(result.get("reason", ""), str):
        raise fail("result reason must be a string")
    if not isinstance(result.get("finished", True), bool):
        raise fail("result finished must be true or false")


def _players(players: Iterable[Any], fail=None) -> tuple[dict[str, Any], ...]:
    out = []
    for p in players:
        if isinstance(p, str):
            out.append({"name": p})
        elif isinstance(p, dict):
            out.append(dict(p))
        else:
            reason = f"a player must be a name or an object, not {p!r}"
            raise fail(reason) if fail else RecordError(reason)
    return tuple(out)


def _options_json(game: Game) -> dict[str, Any]:
    options = dict(game.options)
    try:
        json.dumps(options)
    except TypeError as exc:
        raise RecordError(f"the options of {game.id} cannot be written as JSON: {exc}") from exc
    return options


def _result_json(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_dict()


# --- JSON Lines files ----------------------------------------------------------------------

PathOrFile = str | os.PathLike | IO[str]


def read_records(source: PathOrFile, *, replay: bool = False,
                 max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[Record]:
    """Stream the records of a JSON Lines file, one at a time (millions of games are fine).

    Blank lines are skipped. With `replay=True` every record is also replayed and checked.
    A bad line raises RecordError naming it; an empty file is an error too.
    """
    with _open(source) as (stream, name):
        seen = 0
        number = 0
        while True:
            number += 1
            text = _read_line(stream, name, number, max_line_bytes)
            if text is None:
                break
            if not text.strip():
                continue
            record = Record.from_json(text, source=name, line=number)
            if replay:
                record.replay()
            seen += 1
            yield record
        if seen == 0:
            raise RecordError("no records: the file is empty", source=name)


def _read_line(stream: IO[str], name: str, number: int, limit: int) -> str | None:
    try:
        text = stream.readline(limit + 1)
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text ({exc.reason})", source=name, line=number) from exc
    if text == "":
        return None
    if len(text) > limit and not text.endswith("\n"):
        raise RecordError(f"line longer than {limit} characters; not a record file?",
                          source=name, line=number)
    return text


class _open:
    """Open a path (or pass through an open text stream) and know its name for errors."""

    def __init__(self, source: PathOrFile, mode: str = "r") -> None:
        self.source, self.mode, self.owned = source, mode, False

    def __enter__(self) -> tuple[IO[str], str]:
        if isinstance(self.source, (str, os.PathLike)):
            path = Path(self.source)
            try:
                self.stream = open(path, self.mode, encoding="utf-8", newline="\n")  # noqa: SIM115
            except OSError as exc:
                raise RecordError(f"cannot open: {exc.strerror}", source=str(path)) from exc
            self.owned = True
            return self.stream, str(path)
        self.stream = self.source
        return self.stream, getattr(self.source, "name", "<stream>")

    def __exit__(self, *exc: object) -> None:
        if self.owned:
            self.stream.close()


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
        self.stream.write(record.to_json() + "\n")
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

def read_text_game(source: PathOrFile, *, game: Game | None = None) -> Record:
    """A single game written one action per line, with `game:` and `options:` headers
    (or pass `game`). Every action is checked by replaying; errors name the line."""
    with _open(source) as (stream, name):
        lines = stream.read().splitlines()
    game_id, options = (game.id, dict(game.options)) if game else (None, {})
    actions: list[tuple[int, RecordedAction]] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        key, _, value = text.partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "game" and not actions:
            game_id = value
        elif key == "options" and not actions:
            options = _parse_options_line(value, name, number)
        elif key == "chance" and value:
            actions.append((number, RecordedAction(value, chance=True)))
        else:
            actions.append((number, RecordedAction(text)))
    if not any(line.split("#", 1)[0].strip() for line in lines):
        raise RecordError("no records: the file is empty", source=name)
    if game_id is None:
        raise RecordError("no 'game: <id>' line before the first action", source=name)
    record = Record(game_id, options, tuple(a for _, a in actions), source=name)
    try:
        record.replay()
    except RecordError as exc:
        line = actions[exc.ply][0] if exc.ply is not None else None
        raise RecordError(exc.reason, source=name, line=line, ply=exc.ply) from exc
    return record


def _parse_options_line(value: str, name: str, number: int) -> dict[str, Any]:
    try:
        options = json.loads(value)
    except json.JSONDecodeError as exc:
        raise RecordError(f"options must be a JSON object ({exc.msg})", source=name, line=number) from exc
    if not isinstance(options, dict):
        raise RecordError("options must be a JSON object", source=name, line=number)
    return options


def to_text_game(record: Record) -> str:
    """The one-action-per-line text form of a record."""
    lines = [f"game: {record.game}", f"options: {json.dumps(record.options)}"]
    lines += [f"chance: {a.notation}" if a.chance else a.notation for a in record.actions]
    if record.result is not None:
        lines.append(f"# result: {json.dumps(record.result)}")
    return "\n".join(lines) + "\n"


def load(source: str | os.PathLike) -> list[Record]:
    """Records from a file: JSON Lines (.jsonl/.json) or the one-game text form (else)."""
    path = Path(source)
    if path.suffix in (".jsonl", ".json", ".ndjson"):
        return list(read_records(path))
    return [read_text_game(path)]


def loads(text: str) -> list[Record]:
    """Records from JSON Lines text in memory."""
    return list(read_records(io.StringIO(text)))
