"""Records from an untrusted visitor's upload (`read_upload`): bytes and a file name that is
only a label, held to the upload limits (`MAX_UPLOAD_BYTES`, `MAX_UPLOAD_LINE_BYTES`,
`MAX_UPLOAD_ACTIONS`); raises only `RecordError`."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rules_kernel.record_model.errors import RecordError, one_line
from rules_kernel.record_model.model import Record
from rules_kernel.records.detection import _HEAD_BYTES, detect
from rules_kernel.records.jsonl import _JSON_SUFFIXES, _raise_first, read_records
from rules_kernel.records.pgn_kif import _format_records
from rules_kernel.records.text_form import read_text_game

#: an upload (`read_upload`) larger than this is refused before it is read
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
#: the longest line an upload may have (a game of ~50k actions fits)
MAX_UPLOAD_LINE_BYTES = 1024 * 1024
#: an upload holding more actions in all is refused before any is replayed. Set from measured
#: memory (benchmarks/bench_uploads.py, docs/records.md): a Replay widget showing a long Yokai
#: game costs ~1-1.3 KiB per ply over an idle kernel (the repetition history), so 100,000
#: actions came to ~100 MiB and more on the 5x6 board; 50,000 keeps the worst near 60 MiB
MAX_UPLOAD_ACTIONS = 50_000


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
    `filename` ends in .jsonl/.json/.ndjson; else PGN, KIF, KI2 or CSA when the content is (`detect`),
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
        if kind in ("pgn", "kif", "ki2", "csa"):  # replayed while read: bounded by actions before that
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
