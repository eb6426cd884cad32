"""The error of a bad record (`RecordError`: source, line, ply, reason, on one line) and the
helpers that keep untrusted text in a message short and on one line (`one_line`)."""

from __future__ import annotations

import re
from typing import Any

from rules_kernel.core import RulesError

#: user text echoed in an error message is cut to this many characters
MAX_ECHO_CHARS = 120


class RecordError(RulesError):
    """A bad record: the message says where (source, line, ply) and why, on one line."""

    def __init__(
        self, reason: str, *, source: str | None = None, line: int | None = None, ply: int | None = None
    ) -> None:
        reason = one_line(reason, limit=600)
        source = None if source is None else one_line(str(source), limit=MAX_ECHO_CHARS)
        self.reason, self.source, self.line, self.ply = reason, source, line, ply
        where = []
        if source is not None:
            where.append(source)
        if line is not None:
            where.append(f"line {line}")
        if ply is not None:
            where.append(f"ply {ply}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)

    def at(self, *, source: str | None = None, line: int | None = None) -> RecordError:
        """The same error, placed in a file and line (keeping what it already names)."""
        return RecordError(
            self.reason,
            source=self.source or source,
            line=self.line if self.line is not None else line,
            ply=self.ply,
        )


_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def one_line(text: str, *, limit: int = MAX_ECHO_CHARS) -> str:
    """`text` without line breaks or control characters (escaped), cut to `limit` characters:
    error messages stay one line whatever a record contains."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def echo(value: Any) -> str:
    """A short, one-line repr of untrusted data for a message."""
    return one_line(repr(value), limit=MAX_ECHO_CHARS)


def json_echo(value: Any) -> str:
    """A value as JSON writes it (true, 4.0, 1e+300), for messages about JSON input."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return echo(value)
