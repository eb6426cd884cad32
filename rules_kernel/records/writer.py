"""The one writer of record files (`write`), told the format: JSON Lines (the project's own,
the default), the one-game text form, PGN or KIF. The writers it calls stay public
(`write_records`, `RecordWriter`, `to_text_game`, `formats.pgn.write`, `formats.kif.write`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from rules_kernel.records.errors import RecordError
from rules_kernel.records.jsonl import write_records
from rules_kernel.records.lines import PathOrFile, _open
from rules_kernel.records.model import Record
from rules_kernel.records.text_form import to_text_game

WriteFormat = Literal["jsonl", "text", "pgn", "kif"]
#: the formats that hold one game a file
_ONE_GAME = ("text", "kif")


def write(
    target: PathOrFile,
    records: Record | Iterable[Record],
    *,
    format: WriteFormat = "jsonl",
    append: bool = False,
) -> int:
    """Write records to `target` (a path, or an open text stream) in `format`: "jsonl" (one
    record a line, the default; `append=True` adds to the file), "text" (the one-game text
    form), "pgn" (games separated by a blank line) or "kif" (one game). `records`: a Record
    or an iterable of them; the text form and KIF take exactly one. Returns how many records
    were written. Whatever `records.read` reads back: a record the format cannot hold raises
    RecordError naming the field, before anything of it is written."""
    if format not in ("jsonl", "text", "pgn", "kif"):
        raise ValueError(f"format must be 'jsonl', 'text', 'pgn' or 'kif', not {format!r}")
    if append and format != "jsonl":
        raise ValueError(f"append=True writes JSON Lines only; a {format} file is written whole")
    many = [records] if isinstance(records, Record) else records
    if format == "jsonl":
        return write_records(target, many, append=append)
    many = list(many)
    if format in _ONE_GAME and len(many) != 1:
        raise RecordError(f"a {format} file holds one game; {len(many)} given: write them as jsonl or pgn")
    # made before the file is opened: a record the format refuses leaves no file behind
    texts = [_text(format, record) for record in many]
    with _open(target, "w") as (stream, _):
        stream.write("\n".join(texts))
    return len(texts)


def _text(format: WriteFormat, record: Record) -> str:
    if format == "text":
        return to_text_game(record)
    # the formats build Records, so they import this package: imported when used
    from rules_kernel.formats import kif, pgn

    return (pgn if format == "pgn" else kif).dumps(record)
