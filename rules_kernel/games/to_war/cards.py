"""To War!'s cards and armies: the four armies of the box, what a card says (a unit's name,
attack/defence, arrows, the crown), and the unit table those values come from.

The unit values are printed only on the cards: they come from a table
(`rules_kernel/data/to-war-units.csv`, PROVISIONAL) that a user replaces with their own
(option `units`: a CSV/JSON path, a pandas DataFrame or rows). A table is untrusted data
(an upload, a file): it is read with size limits and every value checked, naming row and
column; nothing in it is a path or code.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

from rules_kernel.core import OptionError

ARMIES = ("western", "northern", "far-eastern", "southern")
#: the 12 army pairs as seated (the two players never take the same army: one deck per army)
ARMY_PAIRS = tuple((a, b) for a, b in product(ARMIES, ARMIES) if a != b)
ARMY_NAMES = {
    "western": "Westliche Armee",
    "northern": "Nordische Armee",
    "far-eastern": "Fernöstliche Armee",
    "southern": "Südliche Armee",
}
TABLE_PATH = Path(__file__).resolve().parent.parent.parent / "data" / "to-war-units.csv"
COLUMNS = ("army", "unit", "code", "count", "attack", "defence", "sideways", "steps", "elite")
_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")


# --- the unit table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    army: str
    name: str
    code: str
    count: int
    attack: int
    defence: int
    sideways: bool
    steps: int
    elite: bool


#: a unit table's file or upload larger than this is refused before it is parsed (the
#: shipped table is 1.5 KB; 68 rows of a few dozen bytes each fit many times over)
MAX_TABLE_BYTES = 512 * 1024


def load_units(source: Any = None) -> list[dict[str, Any]]:
    """The unit table as plain rows (JSON-serialisable), validated.

    `source`: None (the provisional table), a path to a .csv or .json file (local Python use
    only: records, uploads and widget values never reach here as paths), a pandas
    DataFrame, or a list of row dicts. A bad table raises OptionError naming row and column.
    """
    if source is None:
        source = TABLE_PATH
    if isinstance(source, (str, os.PathLike)):
        rows = _read_table_file(Path(source))
    elif hasattr(source, "to_dict") and hasattr(source, "columns"):  # a pandas DataFrame
        rows = source.to_dict(orient="records")
    elif isinstance(source, (list, tuple)):
        rows = [dict(r) if isinstance(r, dict) else r for r in source]
    else:
        raise OptionError(f"units: give a path, a DataFrame or a list of rows, not {type(source).__name__}")
    return _check_table([_check_row(i + 1, row) for i, row in enumerate(rows)])


def units_from_bytes(data: bytes, name: str = "table") -> list[dict[str, Any]]:
    """The unit table from a file's content (a dashboard upload): parsed from the bytes as
    a JSON array of row objects or a CSV table, then validated as `load_units` does.
    Whatever the bytes say, nothing is opened: a JSON string such as "/etc/passwd" is a
    table of the wrong shape, not a file name."""
    return load_units(parse_unit_table(data, name))


def parse_unit_table(data: bytes, name: str = "table") -> list[Any]:
    """The rows of a unit table file's bytes: JSON when the name ends in .json or the text
    starts with '[' or '{', else CSV (lines starting with '#' are comments). Raises
    OptionError naming the file for anything else."""
    where = f"units file {name!r}"
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise OptionError(f"{where}: the content must be bytes, not {type(data).__name__}")
    if len(data) > MAX_TABLE_BYTES:
        raise OptionError(f"{where} is {len(data):,} bytes; the limit is {MAX_TABLE_BYTES:,}")
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OptionError(f"{where} is not UTF-8 text (byte {exc.start})") from None
    if name.lower().endswith(".json") or text.lstrip()[:1] in ("[", "{", '"'):
        return _json_rows(text, where)
    lines = [line for line in text.split("\n") if not line.startswith("#")]
    try:
        rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    except csv.Error as exc:
        raise OptionError(f"{where} is not a readable CSV table ({exc})") from None
    if not rows:
        raise OptionError(f"{where} has no rows (a header line {','.join(COLUMNS)} and one row per unit)")
    return rows


def _json_rows(text: str, where: str) -> list[Any]:
    try:
        rows = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        nested = not isinstance(exc, json.JSONDecodeError)
        detail = "nested too deep" if nested else f"{exc.msg}, line {exc.lineno}"
        raise OptionError(f"{where} is not JSON ({detail})") from None
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        found = "an array with a non-object" if isinstance(rows, list) else f"a JSON {type(rows).__name__}"
        raise OptionError(f"{where} must hold a JSON array of row objects, not {found}")
    return rows


def _read_table_file(path: Path) -> list[Any]:
    try:
        if not path.is_file():
            raise OptionError(f"units: {path} is not a regular file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_TABLE_BYTES + 1)
    except OSError as exc:
        raise OptionError(f"units: cannot read {path}: {exc.strerror}") from exc
    return parse_unit_table(data, path.name)


def _check_row(number: int, row: Any) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise OptionError(f"units row {number}: a row must be an object with columns {', '.join(COLUMNS)}")
    missing = [c for c in COLUMNS if c not in row]
    if missing:
        raise OptionError(f"units row {number}: missing column {missing[0]!r}")
    out: dict[str, Any] = {}
    for column in COLUMNS:
        value = row[column]
        try:
            out[column] = _convert(column, value)
        except ValueError as exc:
            raise OptionError(f"units row {number}, column {column!r}: {exc}") from exc
    return out


def _convert(column: str, value: Any) -> Any:
    if column in ("army", "unit", "code"):
        text = str(value).strip()
        if not text:
            raise ValueError("must not be empty")
        if column == "army" and text not in ARMIES:
            raise ValueError(f"{text!r} is not one of {', '.join(ARMIES)}")
        if column == "code" and not text.isalnum():
            raise ValueError(f"{text!r} must be letters and digits only")
        return text
    if column in ("sideways", "elite"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"{value!r} is not true or false")
        return text in ("true", "1", "yes")
    if isinstance(value, int) and not isinstance(value, bool):
        number = value  # a huge int is refused by the range below, never turned into text
    else:
        text = str(value).strip()
        if not _INTEGER.fullmatch(text):  # ASCII digits, few of them (not '²', not 4,300 digits)
            raise ValueError(f"{text[:20]!r} is not a whole number")
        number = int(text)
    low, high = {"count": (1, 17), "attack": (0, 20), "defence": (0, 20), "steps": (1, 2)}[column]
    if not low <= number <= high:
        raise ValueError(f"{number if abs(number) < 10**9 else 'a huge number'} is outside {low}..{high}")
    return number


def _check_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    codes = [r["code"] for r in rows]
    if len(set(codes)) != len(codes):
        raise OptionError("units: the codes must be unique")
    for army in ARMIES:
        total = sum(r["count"] for r in rows if r["army"] == army)
        if total and total != 17:
            raise OptionError(f"units: the {army} army has {total} cards; an army has 17")
    return rows


def _check_armies(value: Any) -> list[str]:
    armies = list(value)
    if len(armies) != 2 or any(not isinstance(a, str) or a not in ARMIES for a in armies):
        raise ValueError(f"give two armies from {', '.join(ARMIES)}, like ['southern', 'northern']")
    if armies[0] == armies[1]:  # NOTES.md: the box holds one deck per army
        raise ValueError(
            f"both players chose the {armies[0]} army; the box holds one deck per "
            "army, so the two armies must differ"
        )
    return armies
