"""JSON Lines files, one record a line: streamed reading (`scan_records`, `read_records`,
`loads`) and writing (`RecordWriter`, `write_records`), and where the shipped records are."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal, NamedTuple, overload

from rules_kernel.record_model.errors import RecordError, one_line
from rules_kernel.record_model.model import Record
from rules_kernel.records.lines import MAX_LINE_BYTES, PathOrFile, _lines, _open

_JSON_SUFFIXES = (".jsonl", ".json", ".ndjson")

#: on the static site, the package its build makes of data/*.jsonl (publish/static_site.py)
RECORDS_PACKAGE = "rules_explorer_records"


def shipped_records() -> Path:
    """The folder of the project's shipped records (data/*.jsonl): data/ beside the notebooks
    (../data from notebooks/, data from the checkout), or on the static site the package its
    build ships them in (a reader's browser has no server files to read)."""
    try:
        package = __import__(RECORDS_PACKAGE)
    except ImportError:
        return Path("../data") if Path("../data").exists() else Path("data")
    return Path(package.__file__).parent


class Collected(NamedTuple):
    """What `read_records(..., errors="collect")` returns: every good record, every error."""

    records: list[Record]
    errors: list[RecordError]


def scan_records(
    source: PathOrFile,
    *,
    replay: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
    first_line: int = 1,
) -> Iterator[Record | RecordError]:
    """Every record of a JSON Lines file and every error, in line order, without stopping at
    a bad line (streams: one line in memory at a time). `name` labels the source in errors;
    `first_line` numbers the first line (a piece of a longer file: the file's numbers)."""
    try:
        with _open(source, name=name) as (stream, label):
            seen = 0
            for number, text in _lines(stream, label, max_line_bytes, first_line):
                if isinstance(text, RecordError):
                    yield text
                    seen += 1
                    continue
                if not text.strip(" \t\r\n"):  # a line of U+00A0 is not blank: JSON says why
                    continue
                seen += 1
                yield _record_of_line(text, label, number, replay)
    except RecordError as exc:  # the file cannot be opened
        yield exc
        return
    if seen == 0:
        yield RecordError("no records: the file is empty", source=label)


def _record_of_line(text: str, name: str, number: int, replay: bool) -> Record | RecordError:
    try:
        record = Record.from_json(text.rstrip("\r\n"), source=name, line=number)
        if replay:
            record.check()
    except RecordError as exc:
        return exc.at(source=name, line=number)
    except Exception as exc:  # no record may stop the reading of the others (or crash a caller)
        return RecordError(
            f"the record could not be read ({type(exc).__name__}: {one_line(str(exc))})",
            source=name,
            line=number,
        )
    return record


@overload
def read_records(
    source: PathOrFile,
    *,
    replay: bool = ...,
    errors: Literal["raise"] = ...,
    max_line_bytes: int = ...,
    name: str | None = ...,
) -> Iterator[Record]: ...


@overload
def read_records(
    source: PathOrFile,
    *,
    replay: bool = ...,
    errors: Literal["collect"],
    max_line_bytes: int = ...,
    name: str | None = ...,
) -> Collected: ...


def read_records(
    source: PathOrFile,
    *,
    replay: bool = False,
    errors: Literal["raise", "collect"] = "raise",
    max_line_bytes: int = MAX_LINE_BYTES,
    name: str | None = None,
) -> Iterator[Record] | Collected:
    """The records of a JSON Lines file.

    errors="raise" (the default): a generator streaming one record at a time (millions of
    games are fine); the first bad line raises RecordError naming it, after every good
    record before it was delivered. errors="collect": reads on past bad lines and returns
    `Collected(records, errors)`: every good record and every error, in line order.

    Blank lines are skipped; an empty file is an error. With `replay=True` every record is
    also replayed and checked. `source`: a path, or an open text or binary stream.
    """
    if errors not in ("raise", "collect"):
        raise ValueError(f"errors must be 'raise' or 'collect', not {errors!r}")
    items = scan_records(source, replay=replay, max_line_bytes=max_line_bytes, name=name)
    if errors == "collect":
        return _collect(items)
    return _raise_first(items)


def _raise_first(items: Iterator[Record | RecordError]) -> Iterator[Record]:
    for item in items:
        if isinstance(item, RecordError):
            raise item
        yield item


def _collect(items: Iterable[Record | RecordError]) -> Collected:
    good, bad = [], []
    for item in items:
        (bad if isinstance(item, RecordError) else good).append(item)
    return Collected(good, bad)


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
        try:
            line = record.to_json()
        except RecordError as exc:  # nothing of it is written
            raise exc.at(source=self.name) from exc
        # one write call per line: a kill can tear only the last line (resume repairs it)
        self.stream.write(line + "\n")
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


def loads(text: str) -> list[Record]:
    """Records from JSON Lines text in memory."""
    return list(read_records(io.StringIO(text)))
