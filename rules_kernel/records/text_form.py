"""The one-game text form: a `game:`/`options:`/`start:` header and one action a line
(`read_text_game`, `to_text_game`)."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from rules_kernel import registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Game
from rules_kernel.record_model.bounded_json import json_line, parse_json
from rules_kernel.record_model.errors import RecordError, echo
from rules_kernel.record_model.model import START_CONTROL, Record, RecordedAction, check_options, check_start
from rules_kernel.records.lines import MAX_LINE_BYTES, PathOrFile, _lines, _open


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
                    f"unknown game {echo(value)}; known games: {', '.join(registry.list_games())}",
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
        return json_line(data, record._error, where, separators=(", ", ": "))

    lines = [f"game: {record.game}", f"options: {dumps(record.options, 'options')}"]
    if record.start is not None:
        text = record.start
        if "#" in text or text != text.strip(" \t\r\n") or START_CONTROL.search(text):
            raise record._error(
                "field 'start' cannot be written in the text form (it holds '#', a control "
                "character or blanks at an end); write the record as JSON Lines"
            )
        lines.append(f"start: {text}")
    lines += [f"chance: {a.notation}" if a.chance else a.notation for a in record.actions]
    if record.result is not None:
        lines.append(f"# result: {dumps(record.result, 'result')}")
    return "\n".join(lines) + "\n"
