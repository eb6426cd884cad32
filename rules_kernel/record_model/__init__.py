"""The game record itself, below the formats and the records package: `Record` and
`RecordedAction` (`model`), `RecordError` and `one_line` (`errors`), JSON read with bounds and
the one-line JSON the writers write (`bounded_json`).

It sits here, and not in `rules_kernel.records`, so that imports run one way: the records
package reads and writes files through the formats (`records.read` dispatches to
`formats.pgn`/`formats.kif`), and the formats build `Record`s from this package without
importing `records`. Everyone else keeps importing these names from `rules_kernel.records`,
which re-exports them (docs/records.md)."""

from __future__ import annotations

from rules_kernel.record_model.errors import MAX_ECHO_CHARS, RecordError, one_line
from rules_kernel.record_model.model import (
    FORMAT,
    MAX_START_CHARS,
    Record,
    RecordedAction,
    check_options,
    check_start,
)

__all__ = [
    "FORMAT",
    "MAX_ECHO_CHARS",
    "MAX_START_CHARS",
    "Record",
    "RecordError",
    "RecordedAction",
    "check_options",
    "check_start",
    "one_line",
]
