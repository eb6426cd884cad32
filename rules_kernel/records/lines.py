"""The bounded line reader every record file goes through: a path opened only if it is a
regular file (never blocking on a pipe), lines split at '\n' only, decoded one by one (a bad
byte is the error of its line), at most a given length, no control character but tab, UTF-16
and UTF-32 named once."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from rules_kernel.record_model.errors import RecordError

#: a longer line is refused before it is parsed (a record of ~100k actions fits easily)
MAX_LINE_BYTES = 16 * 1024 * 1024

PathOrFile = str | os.PathLike | IO[str] | IO[bytes]


def _lines(stream: IO, name: str, limit: int, first: int = 1) -> Iterator[tuple[int, str | RecordError]]:
    """(line number, text or the error of that line) for every line, split at '\\n' only
    (never at the form feeds, vertical tabs, U+2028 ... that str.splitlines also splits at).
    Bytes are decoded line by line, so a bad byte is reported on its own line and the lines
    before it are kept; a line over `limit` bytes (characters for a text stream) is skipped
    unread; a line holding a control character other than tab is an error of that line. A
    file in UTF-16 or UTF-32 is one error (line 1) and nothing more is read. `first`: the
    number of the stream's first line (a piece of a file: its lines keep the file's numbers)."""
    number = first - 1
    while True:
        number += 1
        try:
            raw = stream.readline(limit + 1)
        except UnicodeDecodeError as exc:  # a text stream the caller opened decodes by itself
            yield number, RecordError(f"not UTF-8 text ({exc.reason})", source=name, line=number)
            return
        if not raw:
            return
        if number == first and isinstance(raw, bytes):
            encoding = _wide_encoding(raw)
            if encoding:
                yield (
                    number,
                    RecordError(f"this file is {encoding}; save it as UTF-8", source=name, line=number),
                )
                return
        if len(raw) > limit and raw[-1:] not in ("\n", b"\n"):
            _skip_rest_of_line(stream)
            yield (
                number,
                RecordError(
                    f"line longer than {limit} "
                    f"{'characters' if isinstance(raw, str) else 'bytes'}; "
                    "not a record file?",
                    source=name,
                    line=number,
                ),
            )
            continue
        yield number, "\n" if raw in (b"\n", "\n") else _decoded(raw, name, number, number == first)


#: byte order marks, the longer first (UTF-32 LE starts as UTF-16 LE does)
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE"),
    (b"\xff\xfe", "UTF-16 LE"),
    (b"\xfe\xff", "UTF-16 BE"),
)


def _wide_encoding(first: bytes) -> str | None:
    """'UTF-16 LE (it starts with a UTF-16 LE byte order mark)' and the like when a file's
    first bytes say it is UTF-16 or UTF-32, else None. Without a mark, ASCII text in those
    encodings shows as zero bytes between the characters."""
    for mark, encoding in _BOMS:
        if first.startswith(mark):
            return f"{encoding} (it starts with a {encoding} byte order mark)"
    head = first[:4]
    if len(head) == 4 and head[0] and head[1:] == b"\0\0\0":
        return "UTF-32 LE (text with three zero bytes after each character; no byte order mark)"
    if len(head) == 4 and head[:3] == b"\0\0\0" and head[3]:
        return "UTF-32 BE (text with three zero bytes before each character; no byte order mark)"
    if len(head) == 4 and head[0] and head[2] and head[1] == head[3] == 0:
        return "UTF-16 LE (text with a zero byte after each character; no byte order mark)"
    if len(head) == 4 and head[1] and head[3] and head[0] == head[2] == 0:
        return "UTF-16 BE (text with a zero byte before each character; no byte order mark)"
    return None


def _skip_rest_of_line(stream: IO) -> None:
    while True:
        chunk = stream.readline(1 << 20)
        if not chunk or chunk[-1:] in ("\n", b"\n"):
            return


#: control characters refused in a line: C0 but tab (a '\\r' only ends a line), DEL, C1, and
#: the line and paragraph separators (str.splitlines and editors break lines at several)
_LINE_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_NAMES = {
    "\x00": "a NUL byte",
    "\x0b": "a vertical tab",
    "\x0c": "a form feed",
    "\r": "a carriage return inside the line",
    "\x1b": "an escape character",
    "\x7f": "a delete character",
    "\x85": "a next-line character (U+0085)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
}


def _decoded(raw: str | bytes, name: str, number: int, first: bool) -> str | RecordError:
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return RecordError(
                f"not UTF-8 text (byte {exc.start + 1} of the line is {raw[exc.start : exc.start + 1]!r})",
                source=name,
                line=number,
            )
    if first and text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is no content
    body = text[:-1] if text.endswith("\n") else text
    found = _LINE_CONTROL.search(body[:-1] if body.endswith("\r") else body)
    if found:
        char = found.group()
        what = _CONTROL_NAMES.get(char, f"a control character (U+{ord(char):04X})")
        return RecordError(
            f"{what} at column {found.start() + 1}; no control characters but tab may stand in a line",
            source=name,
            line=number,
        )
    return text


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _open_regular_file(path: Path, name: str) -> IO[bytes]:
    """`path` opened for reading in binary, if it is a regular file; a directory, a pipe, a
    device or a socket is refused at once (RecordError), never read. The file is opened
    without blocking and then looked at (fstat on what was opened, so it cannot be swapped
    in between): opening a named pipe would otherwise wait for a writer for ever."""
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise RecordError(f"cannot open: {exc.strerror}", source=name) from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((kind for test, kind in _FILE_KINDS if test(mode)), "not a file")
            raise RecordError(f"not a regular file ({kind}); give a record file", source=name)
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class _open:
    """Open a path (binary, for exact line numbers; only a regular file, for reading) or pass
    through an open stream (text or binary), and know its name for errors."""

    def __init__(self, source: PathOrFile, mode: str = "rb", name: str | None = None) -> None:
        self.source, self.mode, self.name, self.owned = source, mode, name, False

    def __enter__(self) -> tuple[IO, str]:
        if isinstance(self.source, (str, os.PathLike)):
            path = Path(self.source)
            name = self.name or str(path)
            if "r" in self.mode:
                self.stream = _open_regular_file(path, name)
            else:
                try:
                    self.stream = open(path, self.mode, encoding="utf-8", newline="\n")  # noqa: SIM115
                except OSError as exc:
                    raise RecordError(f"cannot open: {exc.strerror}", source=name) from exc
            self.owned = True
            return self.stream, name
        self.stream = self.source
        return self.stream, self.name or str(getattr(self.source, "name", "<stream>"))

    def __exit__(self, *exc: object) -> None:
        if self.owned:
            self.stream.close()
