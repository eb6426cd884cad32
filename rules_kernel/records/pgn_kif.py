"""PGN and KIF files read through `rules_kernel.formats` (imported when one is read: the
formats build `Record`s, so they import this package), after the same bounded line reader as
JSON Lines; KIF in Shift_JIS is re-encoded first."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import IO

from rules_kernel.records.detection import Format
from rules_kernel.records.errors import RecordError
from rules_kernel.records.lines import MAX_LINE_BYTES, _lines
from rules_kernel.records.model import Record

#: a PGN or KIF file is read whole (its games are parsed as text): at most this many bytes
MAX_FORMAT_BYTES = MAX_LINE_BYTES


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


def _read_whole(
    kind: Format, stream: IO[bytes], label: str, max_line_bytes: int
) -> Iterator[Record | RecordError]:
    """The games of an open PGN or KIF file, read whole (at most MAX_FORMAT_BYTES)."""
    data = stream.read(MAX_FORMAT_BYTES + 1)
    if len(data) > MAX_FORMAT_BYTES:
        raise RecordError(
            f"a {kind.upper()} file of more than {MAX_FORMAT_BYTES:,} bytes; split it", source=label
        )
    return _format_records(kind, data, label, max_line_bytes)
