"""A game's rows in the collection's three tables (games, moves, positions), the position text
without its move counters, and the Parquet writers that take the rows in row groups (an import
of any size holds one row group of each table in memory, not the collection)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from rules_kernel import core, parts
from rules_kernel.formats import seconds_of_meta  # the readers' times and clocks, by ply
from rules_kernel.info import info
from rules_kernel.records import Record

#: the rows a table holds in memory before they are written as one Parquet row group
ROWS_PER_GROUP = 256 * 1024
#: how many states of the first game of a kind are probed for counter fields
PROBES = 8

GAMES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("game", pa.string()),
        ("options", pa.string()),
        ("players", pa.list_(pa.string())),
        ("player_1", pa.string()),
        ("player_2", pa.string()),
        ("result", pa.string()),
        ("winner", pa.int64()),
        ("reason", pa.string()),
        ("finished", pa.bool_()),
        ("date", pa.string()),
        ("event", pa.string()),
        ("site", pa.string()),
        ("time_control", pa.string()),
        ("plies", pa.int64()),
        ("start", pa.string()),
        ("source", pa.string()),
        ("source_index", pa.int64()),
        ("source_line", pa.int64()),
    ]
)
MOVES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("ply", pa.int32()),
        ("mover", pa.int32()),
        ("seat", pa.string()),
        ("player", pa.string()),
        ("notation", pa.string()),
        ("text", pa.string()),
        ("chance", pa.bool_()),
        ("clock", pa.float64()),
        ("spent", pa.float64()),
    ]
)
POSITIONS_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("ply", pa.int32()), ("position", pa.string()), ("key", pa.int64())]
)
#: games with hidden information: what each seat sees where a seat is to move (`State.view`)
VIEWS_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("ply", pa.int32()),
        ("viewer", pa.int32()),
        ("view", pa.string()),
        ("key", pa.int64()),
    ]
)
SCHEMAS = {"games": GAMES_SCHEMA, "moves": MOVES_SCHEMA, "positions": POSITIONS_SCHEMA, "views": VIEWS_SCHEMA}

#: where a header is found in a record's meta: `meta["headers"]` (every format's shared
#: fields), else the tags a PGN or KIF reader kept under its own name
_HEADER_PLACES = {
    "date": (("headers", "date"), ("pgn", "Date"), ("kif", "開始日時"), ("kif", "対局日")),
    "event": (("headers", "event"), ("pgn", "Event"), ("kif", "棋戦")),
    "site": (("headers", "site"), ("pgn", "Site"), ("kif", "場所")),
    "time_control": (("headers", "time_control"), ("pgn", "TimeControl"), ("kif", "持ち時間")),
}
#: the parts of meta that hold headers, and the columns of a record that has none
_HEADER_HOLDERS = frozenset(place for places in _HEADER_PLACES.values() for place, _ in places)
_NO_HEADERS = dict.fromkeys(_HEADER_PLACES)
_CLAIMS = {0: "1-0", 1: "0-1", "draw": "1/2-1/2"}


class Positions:
    """The position text of a state without the fields that only count moves (a move number,
    a clock of moves since a capture): told once per game, options and field count by the
    kernel's own rule, equality by position (docs/kernel.md): a whole-number field is a
    counter if the text with that number changed reads back (`game.from_text`) as a state
    equal to the original, in every one of up to PROBES states of the first game seen. So
    the same position reached in different orders or at different move numbers has one
    text. For games with hidden information the text is the all-seeing one (a record holds
    every card)."""

    def __init__(self) -> None:
        self.counters: dict[tuple[str, str, int], frozenset[int]] = {}

    def texts(self, states: list[core.State], options: str) -> list[str]:
        out = []
        game_id = states[0].game.id if states else ""
        cuts: dict[int, tuple[int, frozenset[int]]] = {}  # this game's, by field count
        for state in states:
            text = state.to_text()
            width = text.count(" ") + 1
            cut = cuts.get(width)
            if cut is None:
                cut = cuts[width] = self._cut((game_id, options, width), states)
            tail, drop = cut
            if tail:  # the counters end the text (Yōkai's FEN: its last two fields)
                out.append(text.rsplit(" ", tail)[0])
            else:
                out.append(_without(text, drop) if drop else text)
        return out

    def _cut(self, key: tuple[str, str, int], states: list[core.State]) -> tuple[int, frozenset[int]]:
        """(how many last fields are the counters, else 0; the counter fields) of a text of
        that game, options and width."""
        drop = self.counters.get(key)
        if drop is None:
            drop = self.counters[key] = _counter_fields(states, key[2])
        return _tail(drop, key[2]), drop


def _tail(drop: frozenset[int], width: int) -> int:
    """How many last fields `drop` numbers when it numbers the last fields and nothing else
    (then a text without them is its start up to that many spaces from the right); else 0."""
    return len(drop) if drop and drop == frozenset(range(width - len(drop), width)) else 0


def _without(text: str, drop: frozenset[int]) -> str:
    """`text` without the fields numbered in `drop`."""
    return " ".join(f for i, f in enumerate(text.split(" ")) if i not in drop)


def position_key(text: str, viewer: int | None = None) -> int:
    """The 64-bit key of a position text (what `from_here.parquet` is sorted and looked up by):
    blake2b, the same in every process and version (Python's `hash` and DuckDB's are not).
    A view's key names its viewer, so two seats' views never share one."""
    data = text.encode() if viewer is None else f"{viewer}|{text}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little", signed=True)


def has_secrets(state: core.State) -> bool:
    """Whether the game hides something from a player (what it declares, `rk.info`: War
    Chest's bags and hands, War Stories' face-down cards)."""
    return info(state.game).hidden_information


def view_rows(
    states: list[core.State], game_id: int, options: str, positions: Positions, columns: dict[str, list]
) -> None:
    """The views table's rows of a replayed game with hidden information: at every position
    where a seat is to move, what each seat sees (without the move counters)."""
    seats = range(states[0].game.num_players)
    for ply, state in enumerate(states):
        if state.is_terminal() or state.current_player == core.CHANCE:
            continue
        views = [state.view(seat) for seat in seats]
        for seat, text in zip(seats, positions.texts(views, options + "#view"), strict=True):
            columns["game_id"].append(game_id)
            columns["ply"].append(ply)
            columns["viewer"].append(seat)
            columns["view"].append(text)
            columns["key"].append(position_key(text, seat))


def _counter_fields(states: list[core.State], width: int) -> frozenset[int]:
    step = max(1, len(states) // PROBES)
    found: set[int] | None = None
    for state in states[::step][:PROBES]:
        fields = state.to_text().split(" ")
        if len(fields) != width:
            continue
        here = set()
        for i, field in enumerate(fields):
            if not (field.isascii() and field.isdigit()) or (found is not None and i not in found):
                continue
            changed = [*fields[:i], str(int(field) + 1), *fields[i + 1 :]]
            try:
                other = state.game.from_text(" ".join(changed))
            except Exception:  # the rules refuse the changed number: it is part of the position
                continue
            if other == state:
                here.add(i)
        found = here if found is None else found & here
    return frozenset(found or ())


def options_text(record: Record) -> str:
    return json.dumps(record.options, sort_keys=True, ensure_ascii=False)


def game_row(
    record: Record,
    game_id: int,
    source: str,
    index: int,
    states: list[core.State],
    options: str | None = None,
) -> dict:
    """The games table's row of a replayed record (`options`: its `options_text`, if known)."""
    names = [_player_name(p) for p in record.players]
    result, winner, reason, finished = _result(record, states[-1])
    row = {
        "game_id": game_id,
        "game": record.game,
        "options": options_text(record) if options is None else options,
        "players": names,
        "player_1": names[0] if names else None,
        "player_2": names[1] if len(names) > 1 else None,
        "result": result,
        "winner": winner,
        "reason": reason,
        "finished": finished,
        "plies": len(record.actions),
        "start": record.start,
        "source": source,
        "source_index": index,
        "source_line": record.line,
    }
    meta = record.meta if isinstance(record.meta, dict) else {}
    if any(isinstance(meta.get(place), dict) for place in _HEADER_HOLDERS):
        for column in _HEADER_PLACES:
            row[column] = _header(record, column)
    else:  # no headers at all (a simulated game's record)
        row.update(_NO_HEADERS)
    return row


def move_rows(record: Record, game_id: int, states: list[core.State], columns: dict[str, list]) -> None:
    """The moves table's rows of a replayed record, appended column by column."""
    # each seat's name and player, by the mover's number (none for another number)
    seat_of = {**dict(enumerate(states[0].game.player_names)), core.CHANCE: "chance"}
    player_of = {**dict(enumerate(_player_name(p) for p in record.players)), core.CHANCE: None}
    actions = record.actions[: len(states)]  # the actions before a state (all, from a replay)
    count = len(actions)
    plies = range(1, count + 1)
    movers = [state.current_player for state in states[:count]]
    columns["game_id"].extend([game_id] * count)
    columns["ply"].extend(plies)
    columns["mover"].extend([None if mover == core.CHANCE else mover for mover in movers])
    columns["seat"].extend(map(seat_of.get, movers))
    columns["player"].extend(map(player_of.get, movers))
    columns["notation"].extend([action.notation for action in actions])
    words = [parts.action_text(b, action.notation) for action, b in zip(actions, states, strict=False)]
    columns["text"].extend(words)
    columns["chance"].extend([action.chance for action in actions])
    for column, key in (("clock", "clocks"), ("spent", "times")):
        seconds = seconds_of_meta(record, key)
        columns[column].extend([seconds.get(ply) for ply in plies] if seconds else [None] * count)


def _player_name(player: Any) -> str | None:
    if not isinstance(player, dict):
        return None
    name = player.get("name") or player.get("agent")
    return name if isinstance(name, str) else None


def _result(record: Record, final: core.State) -> tuple[str, int | None, str | None, bool | None]:
    """(result, winner, reason, finished): "1-0", "0-1", "1/2-1/2" or "*" for two seats ("1-0-0"
    for more, the winners 1), from the record's result (checked against the replay) or, for a
    game the rules did not end (a resignation, a lost clock), the claim the record keeps in
    meta["ending"]."""
    outcome = record.outcome
    if outcome is None:
        outcome = final.outcome()  # a record without a result field: the replay's
    if outcome is not None and outcome.finished:
        seats = final.game.num_players
        if outcome.winner is None and not outcome.winners:
            text = "1/2-1/2" if seats == 2 else "draw"
        else:
            won = set(outcome.winners) or {outcome.winner}
            text = "-".join("1" if seat in won else "0" for seat in range(seats))
        return text, outcome.winner, outcome.reason or None, True
    ending = record.meta.get("ending") if isinstance(record.meta, dict) else None
    if isinstance(ending, dict):
        claim = ending.get("winner")
        reason = ending.get("reason") if isinstance(ending.get("reason"), str) else None
        if claim in _CLAIMS:
            return _CLAIMS[claim], claim if claim in (0, 1) else None, reason, False
        return "*", None, reason, False
    return "*", None, (outcome.reason or None) if outcome else None, False


def _header(record: Record, column: str) -> str | None:
    meta = record.meta if isinstance(record.meta, dict) else {}
    for place, key in _HEADER_PLACES[column]:
        held = meta.get(place)
        value = held.get(key) if isinstance(held, dict) else None
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


class TableWriter:
    """One table's rows into a Parquet file, a row group at a time. Rows come as Python values
    (`add_row`, or appended to `columns` and told by `added`), are made Arrow columns a
    unit's worth at a time (`batch`: while worker processes replay the next units), and are
    written as a row group once ROWS_PER_GROUP have come."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.path, self.schema = path, schema
        self.columns: dict[str, list] = {name: [] for name in schema.names}
        self.batches: list[pa.RecordBatch] = []  # rows made Arrow, not yet written
        self.rows = 0  # written or waiting
        self._held = 0  # rows in `batches`
        self._writer: pq.ParquetWriter | None = None

    def add_row(self, row: dict) -> None:
        for name, values in self.columns.items():
            values.append(row[name])
        self.rows += 1
        self.maybe_flush()

    def added(self, count: int) -> None:
        """`count` rows were appended to `columns` directly (a unit's): made Arrow now."""
        self.rows += count
        self.batch()
        self.maybe_flush()

    def batch(self) -> None:
        """The rows waiting in `columns` made an Arrow batch."""
        waiting = len(self.columns["game_id"])
        if waiting:
            self.batches.append(pa.RecordBatch.from_pydict(self.columns, schema=self.schema))
            self._held += waiting
            for values in self.columns.values():
                values.clear()

    def maybe_flush(self) -> None:
        if self._held + len(self.columns["game_id"]) >= ROWS_PER_GROUP:
            self.flush()

    def flush(self) -> None:
        if self._writer is None:
            self._writer = pq.ParquetWriter(self.path, self.schema, compression="zstd")
        self.batch()
        if self.batches:
            self._writer.write_table(pa.Table.from_batches(self.batches, schema=self.schema))
            self.batches.clear()
            self._held = 0

    def close(self) -> None:
        self.flush()  # an empty table is written too: its schema, no rows
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def abandon(self) -> None:
        """Close without caring for the file (it is removed with the partial collection)."""
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:  # the import has already failed: its own error is the one said
                pass
            self._writer = None
