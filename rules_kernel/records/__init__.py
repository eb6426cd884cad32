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

Players' formats (PGN as pychess-variants writes it, KIF) live in `rules_kernel.formats`.
`read` is the one reader of any of these files, told what it gets and never guessing it:
`read(path)`, `read(data=b"...", name="x.kif")`, `read(text="...")`; the format is told by
content (`detect`). `write(target, records, format="jsonl")` is the one writer.

The record itself lives a layer lower, in `rules_kernel.record_model` (`errors`,
`bounded_json`, `model`: `Record`, `RecordedAction`, `RecordError`, `check_options`,
`check_start`, `FORMAT`), so that the formats, which build `Record`s, import it without
importing this package, whose reader imports the formats: one direction, records → formats
→ record_model. This package, one concern a module (each imports only those above it in this
list; the formats are imported by `pgn_kif` and `writer` when used):

- `lines`: the bounded line reader and the opening of regular files only;
- `jsonl`: JSON Lines: `scan_records`, `read_records`, `loads`, `RecordWriter`,
  `write_records`, `Collected`, `shipped_records`;
- `text_form`: the one-game text form: `read_text_game`, `to_text_game`;
- `detection`: `detect` (a file's format from its first bytes);
- `pgn_kif`: PGN and KIF files read through `rules_kernel.formats`;
- `reader`: `read` (the one reader) and `load`;
- `writer`: `write` (the one writer);
- `uploads`: `read_upload` and its limits (an untrusted visitor's file).

Every name is re-exported here: `from rules_kernel import records; records.Record` and
`from rules_kernel.records import Record` read as they did when this was one module, and
setting a limit here (`records.MAX_UPLOAD_ACTIONS = 10`) sets it where it is read.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from rules_kernel.record_model import (  # the record itself, re-exported as it always was
    FORMAT,
    MAX_ECHO_CHARS,
    MAX_START_CHARS,
    Record,
    RecordedAction,
    RecordError,
    bounded_json,
    check_options,
    check_start,
    errors,
    model,
    one_line,
)
from rules_kernel.record_model.bounded_json import MAX_NESTING, MAX_NUMBER_CHARS, parse_json
from rules_kernel.records import lines, pgn_kif, uploads
from rules_kernel.records.detection import Format, detect
from rules_kernel.records.jsonl import (
    RECORDS_PACKAGE,
    Collected,
    RecordWriter,
    loads,
    read_records,
    scan_records,
    shipped_records,
    write_records,
)
from rules_kernel.records.lines import MAX_LINE_BYTES, PathOrFile
from rules_kernel.records.pgn_kif import MAX_FORMAT_BYTES
from rules_kernel.records.reader import load, read
from rules_kernel.records.text_form import read_text_game, to_text_game
from rules_kernel.records.uploads import (
    MAX_UPLOAD_ACTIONS,
    MAX_UPLOAD_BYTES,
    MAX_UPLOAD_LINE_BYTES,
    read_upload,
)
from rules_kernel.records.writer import WriteFormat, write

__all__ = [
    "FORMAT",
    "MAX_ECHO_CHARS",
    "MAX_FORMAT_BYTES",
    "MAX_LINE_BYTES",
    "MAX_NESTING",
    "MAX_NUMBER_CHARS",
    "MAX_START_CHARS",
    "MAX_UPLOAD_ACTIONS",
    "MAX_UPLOAD_BYTES",
    "MAX_UPLOAD_LINE_BYTES",
    "RECORDS_PACKAGE",
    "Collected",
    "Format",
    "PathOrFile",
    "Record",
    "RecordError",
    "RecordWriter",
    "RecordedAction",
    "WriteFormat",
    "check_options",
    "check_start",
    "detect",
    "load",
    "loads",
    "one_line",
    "parse_json",
    "read",
    "read_records",
    "read_text_game",
    "read_upload",
    "scan_records",
    "shipped_records",
    "to_text_game",
    "write",
    "write_records",
]

#: each limit's module: the one whose code reads it when it runs (the others take it as a
#: default argument, fixed when the module is loaded, as they did when this was one module)
_LIMIT_HOMES: dict[str, types.ModuleType] = {
    "MAX_ECHO_CHARS": errors,
    "MAX_NESTING": bounded_json,
    "MAX_NUMBER_CHARS": bounded_json,
    "MAX_START_CHARS": model,
    "MAX_LINE_BYTES": lines,
    "MAX_FORMAT_BYTES": pgn_kif,
    "MAX_UPLOAD_ACTIONS": uploads,
    "MAX_UPLOAD_BYTES": uploads,
    "MAX_UPLOAD_LINE_BYTES": uploads,
}


class _Package(types.ModuleType):
    """This package's module: a limit set on it is set in its home module too, so that
    `records.MAX_UPLOAD_ACTIONS = 10` (or a test's monkeypatch of it) changes what the code
    checks, as it did when the limits and the code were one module."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        home = _LIMIT_HOMES.get(name)
        if home is not None:
            setattr(home, name, value)


sys.modules[__name__].__class__ = _Package
