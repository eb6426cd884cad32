"""The one writer of record files (`write`), told the format: JSON Lines (the project's own,
the default), the one-game text form, PGN, KIF, KI2 or CSA. The writers it calls stay public
(`write_records`, `RecordWriter`, `to_text_game`, `formats.pgn.write`, `formats.kif.write`,
`formats.ki2.write`, `formats.csa.write`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from rules_kernel.record_model.errors import RecordError
from rules_kernel.record_model.model import Record
from rules_kernel.records.jsonl import write_records
from rules_kernel.records.lines import PathOrFile, _open
from rules_kernel.records.text_form import to_text_game

WriteFormat = Literal["jsonl", "text", "pgn", "kif", "ki2", "csa"]
_FORMATS = ("jsonl", "text", "pgn", "kif", "ki2", "csa")
#: the formats that hold one game a file
_ONE_GAME = ("text", "kif", "ki2")
#: the formats whose files have an encoding of their own (Shift_JIS for .kif, .ki2, .csa):
#: written to a path by the format's `write`
_OWN_ENCODING = ("kif", "ki2", "csa")


def write(
    target: PathOrFile,
    records: Record | Iterable[Record],
    *,
    format: WriteFormat = "jsonl",
    append: bool = False,
) -> int:
    """Write records to `target` (a path, or an open text stream) in `format`: "jsonl" (one
    record a line, the default; `append=True` adds to the file), "text" (the one-game text
    form), "pgn" (games separated by a blank line), "kif" or "ki2" (one game; to a path:
    Shift_JIS for .kif/.ki2, UTF-8 for .kifu/.ki2u) or "csa" (games separated by '/'). `records`: a Record
    or an iterable of them; the text form and KIF take exactly one. Returns how many records
    were written. Whatever `records.read` reads back: a record the format cannot hold raises
    RecordError naming the field, before anything of it is written."""
    if format not in _FORMATS:
        raise ValueError(f"format must be one of {', '.join(map(repr, _FORMATS))}, not {format!r}")
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
    if format in _OWN_ENCODING and isinstance(target, (str, os.PathLike)):
        from rules_kernel.formats import encoded

        Path(target).write_bytes(encoded(format, "/\n".join(texts), Path(target).suffix))
        return len(texts)
    with _open(target, "w") as (stream, _):
        stream.write(("/\n" if format == "csa" else "\n").join(texts))
    return len(texts)


def _text(format: WriteFormat, record: Record) -> str:
    if format == "text":
        return to_text_game(record)
    # the formats build Records, so they import this package: imported when used
    from rules_kernel.formats import csa, ki2, kif, pgn

    return {"pgn": pgn, "kif": kif, "ki2": ki2, "csa": csa}[format].dumps(record)
