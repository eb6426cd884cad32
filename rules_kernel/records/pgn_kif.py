"""PGN, KIF, KI2 and CSA files read through `rules_kernel.formats` (imported when one is
read: the formats build `Record`s, so they import this package), after the same bounded line
reader as JSON Lines; KIF, KI2 and CSA in Shift_JIS or EUC-JP are re-encoded first (the
encoding told by `formats.decode` and named in each record's `meta["encoding"]`)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import IO

from rules_kernel.record_model.errors import RecordError
from rules_kernel.record_model.model import Record
from rules_kernel.records.detection import Format
from rules_kernel.records.lines import MAX_LINE_BYTES, _lines

#: a PGN or KIF file is read whole (its games are parsed as text): at most this many bytes
MAX_FORMAT_BYTES = MAX_LINE_BYTES


def _format_records(
    kind: Format, data: bytes, label: str, max_line_bytes: int, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """The games of a PGN or KIF file's bytes, read through the same bounded lines as JSON
    Lines (line length, control characters, UTF-16 refused); KIF may be Shift_JIS."""
    from rules_kernel.formats import csa, decode, ki2, kif, pgn

    encoding = "utf-8"
    if kind in ("kif", "ki2", "csa"):
        text, encoding = decode(data, kind.upper(), label)
        data = text.encode("utf-8", errors="surrogatepass")
    lines = []
    for number, text in _lines(io.BytesIO(data), label, max_line_bytes):
        if isinstance(text, RecordError):
            raise text
        lines.append((number, text.rstrip("\r\n")))
    if not any(text.strip() for _, text in lines):
        raise RecordError("no records: the file is empty", source=label)
    reader = {"pgn": pgn, "kif": kif, "ki2": ki2, "csa": csa}[kind].read_lines
    for found in reader(lines, label, max_actions=max_actions):
        if encoding != "utf-8" and isinstance(found, Record):
            found.meta["encoding"] = encoding  # named: the file was not UTF-8
        yield found


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
