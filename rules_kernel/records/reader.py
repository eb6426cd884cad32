"""The one reader of record files, told what it gets (`read`): a path, the file's bytes
(`data=`) or its text (`text=`); the format (JSON Lines, the one-game text form, PGN, KIF, KI2,
CSA) is told by content (`detect`). And `load`, a path's records as the command line reads them."""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import IO, Literal

from rules_kernel.record_model.errors import RecordError
from rules_kernel.record_model.model import Record
from rules_kernel.records.detection import _HEAD_BYTES, Format, _detect_file, detect
from rules_kernel.records.jsonl import _JSON_SUFFIXES, Collected, _collect, read_records, scan_records
from rules_kernel.records.lines import MAX_LINE_BYTES, _open_regular_file
from rules_kernel.records.pgn_kif import _read_whole
from rules_kernel.records.text_form import read_text_game

_BYTES = (bytes, bytearray, memoryview)
#: how the content a positional argument held (before issue 45 item 6) is passed now
_MIGRATE = (
    "records.read(x) reads x as a path; pass a file's content by name: "
    "records.read(text=...) for a str, records.read(data=...) for bytes"
)


def read(
    path: str | os.PathLike[str] | None = None,
    *,
    data: bytes | bytearray | memoryview | None = None,
    text: str | None = None,
    name: str | None = None,
    errors: Literal["raise", "collect"] = "raise",
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[Record] | Collected:
    """Records from any record file: JSON Lines, the one-game text form, PGN (pychess-variants'
    Dōbutsu and Gorogoro+), KIF or KI2 (どうぶつしょうぎ, ゴロゴロ将棋) or CSA, the format told by
    content (`detect`).

    Give exactly one of: `path` (a `str` or `os.PathLike`: always a path, opened only if it is
    a regular file), `data=` (the file's bytes) or `text=` (its text). `name` labels bytes and
    text in errors (default "<text>"), and its suffix (.pgn, .kif, .kifu, .ki2, .csa) decides the format
    where the content does not. Every record is replayed and checked. errors="raise": a list,
    the first bad record raises RecordError (source, line, ply, reason); errors="collect":
    `Collected(records, errors)`.

    Deprecated, still read as before with a DeprecationWarning: content passed as `path` (a
    str holding a line break or starting with '{' or '[', which the reader used to take for
    text, and bytes). A wrong call (nothing to read, two of them, a wrong type) is a TypeError.
    """
    given = [
        label for label, value in (("a path", path), ("data=", data), ("text=", text)) if value is not None
    ]
    if len(given) != 1:
        raise TypeError(
            "records.read() takes exactly one of a path, data= (bytes) or text= (str); "
            + (f"got {' and '.join(given)}" if given else "got none")
        )
    if path is not None:
        data, text, path = _legacy_content(path)
    if text is not None:
        if not isinstance(text, str):
            raise TypeError(f"text= takes a str, not {type(text).__name__}; give bytes as data=")
        # as the reader always read text: its UTF-8 bytes, through the same bounded lines
        data = text.encode("utf-8", errors="surrogatepass")
    if data is not None:
        if not isinstance(data, _BYTES):
            raise TypeError(f"data= takes bytes, not {type(data).__name__}; give a str as text=")
        content = bytes(data)
        label = name or "<text>"
        kind = detect(content[:_HEAD_BYTES], label)
        opener: Callable[[], IO[bytes]] = lambda: io.BytesIO(content)  # noqa: E731
    else:
        file = Path(path)
        label = name or str(path)
        kind = _detect_file(file, label)
        opener = lambda: _open_regular_file(file, label)  # noqa: E731
    try:
        found = _read_kind(kind, opener, label, max_line_bytes)
    except RecordError as exc:
        found = Collected([], [exc])
    if errors == "collect":
        return found
    if found.errors:
        raise found.errors[0]
    return found.records


def _legacy_content(path: object) -> tuple[bytes | None, str | None, str | os.PathLike[str] | None]:
    """(data, text, path) for what was passed as `path`: a path stays one; content that the
    reader took for content before it was told (bytes; a str with a line break or starting
    with '{' or '[': no record file's name does) is still read so, with a DeprecationWarning
    saying how to pass it now."""
    if isinstance(path, _BYTES):
        warnings.warn(f"{_MIGRATE} (bytes given)", DeprecationWarning, stacklevel=3)
        return bytes(path), None, None
    if isinstance(path, str) and ("\n" in path or path.lstrip()[:1] in ("{", "[")):
        warnings.warn(f"{_MIGRATE} (a str holding a file's content given)", DeprecationWarning, stacklevel=3)
        return None, path, None
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(
            f"records.read() takes a path (str or os.PathLike), not {type(path).__name__}; "
            "give a file's content as data= (bytes) or text= (str)"
        )
    return None, None, path


def _read_kind(kind: Format, opener: Callable[[], IO[bytes]], label: str, max_line_bytes: int) -> Collected:
    with opener() as stream:
        if kind == "jsonl":
            return _collect(scan_records(stream, replay=True, max_line_bytes=max_line_bytes, name=label))
        if kind == "text":
            return Collected([read_text_game(stream, max_line_bytes=max_line_bytes, name=label)], [])
        return _collect(_read_whole(kind, stream, label, max_line_bytes))


def load(
    source: str | os.PathLike,
    *,
    errors: Literal["raise", "collect"] = "raise",
    replay: bool = False,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> list[Record] | Collected:
    """Records from a file: JSON Lines (.jsonl/.json/.ndjson), a PGN, KIF, KI2 or CSA file (told
    by its content, or by .pgn/.kif/.kifu/.ki2/.csa), or the one-game text form (else).
    errors="raise": a list of records; errors="collect": `Collected(records, errors)`."""
    if Path(source).suffix in _JSON_SUFFIXES:
        found = read_records(source, replay=replay, errors=errors, max_line_bytes=max_line_bytes)
        return found if errors == "collect" else list(found)
    try:
        kind = _detect_file(Path(source), str(source))
        if kind in ("pgn", "kif", "ki2", "csa"):  # a Path: read as a path whatever its name looks like
            return read(Path(source), name=str(source), errors=errors, max_line_bytes=max_line_bytes)
        one = [read_text_game(source, max_line_bytes=max_line_bytes)]
    except RecordError as exc:
        if errors == "collect":
            return Collected([], [exc])
        raise
    return Collected(one, []) if errors == "collect" else one
