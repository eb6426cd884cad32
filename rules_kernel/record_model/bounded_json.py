"""JSON from untrusted text with bounds (`parse_json`: nesting, number length, no NaN, no
duplicate keys, no lone surrogates), and JSON written as one line that reader accepts
(`json_line`, which `Record.to_json` and the text form use). Only `json`: never pickle or eval."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from rules_kernel.record_model.errors import RecordError, echo, one_line

#: arrays and objects nested deeper are refused (a record needs 4; free `meta` gets room)
MAX_NESTING = 32
#: a number written with more characters is refused (seeds, indices and counts need far fewer;
#: Python refuses integers of more than 4300 digits with a ValueError of its own)
MAX_NUMBER_CHARS = 40


#: characters written as \\u escapes although JSON allows them raw: the reader refuses them
#: raw (they are control characters, or line breaks to str.splitlines and many editors)
_WRITE_ESCAPED = re.compile("[\x7f-\x9f\u2028\u2029]")


def json_line(
    data: Any,
    fail: Callable[[str], RecordError],
    where: str = "",
    *,
    separators: tuple[str, str] = (",", ":"),
) -> str:
    """`data` (found at `where` in a record) as one line of JSON that the bounded reader
    accepts, or `fail(reason)`."""
    try:
        text = json.dumps(data, ensure_ascii=False, separators=separators, allow_nan=False)
    except ValueError:
        place = _non_finite_at(data, where) or "a number"
        raise fail(
            f"cannot be written: {place} is not a finite number (JSON has no NaN or "
            "Infinity; give a finite number or null)"
        ) from None
    except (TypeError, RecursionError) as exc:
        raise fail(f"cannot be written as JSON ({type(exc).__name__}: {one_line(str(exc))})") from None
    if _WRITE_ESCAPED.search(text):
        text = _WRITE_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _non_finite_at(data: Any, where: str = "") -> str | None:
    """The place of the first NaN or infinity in `data` ('meta.x', 'options.units[3].count')."""
    if isinstance(data, float) and not math.isfinite(data):
        return f"{where or 'the value'} ({data!r})"
    if isinstance(data, dict):
        items = [(f"{where}.{key}" if where else str(key), value) for key, value in data.items()]
    elif isinstance(data, (list, tuple)):
        items = [(f"{where}[{i}]", value) for i, value in enumerate(data)]
    else:
        return None
    for place, value in items:
        found = _non_finite_at(value, place)
        if found:
            return found
    return None


# --- bounded JSON ----------------------------------------------------------------------------


class _Refused(Exception):
    """Raised inside json's hooks; turned into a RecordError with the location outside."""


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_json(text: str, fail: Callable[[str], RecordError] = RecordError) -> Any:
    """JSON from untrusted text, with bounds: nesting at most MAX_NESTING deep, numbers of at
    most MAX_NUMBER_CHARS characters, no NaN/Infinity, no duplicate keys, no lone surrogates.
    Any refusal raises `fail(reason)`; nothing else escapes."""
    too_deep = f"arrays and objects nested more than {MAX_NESTING} deep"
    try:
        data = _DECODER.decode(text)
    except _Refused as exc:
        raise fail(str(exc)) from None
    except json.JSONDecodeError as exc:
        raise fail(
            f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno}); is the line truncated?"
        ) from None
    except RecursionError:  # json's C parser guards its own stack: far deeper than the bound
        raise fail(too_deep) from None
    except ValueError as exc:  # bounded above; kept as a last guard
        raise fail(f"not readable JSON ({type(exc).__name__})") from None
    # a line with few brackets cannot be deep: only the others are walked
    if text.count("[") + text.count("{") > MAX_NESTING and _deeper_than(data, MAX_NESTING):
        raise fail(too_deep)
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(data):
        raise fail("a string holds an unpaired UTF-16 surrogate (\\ud800-\\udfff)")
    return data


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` deep (walked without recursion)."""
    stack = [(data, 1)] if isinstance(data, (dict, list)) else []
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        duplicate = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Refused(f"duplicate key {echo(duplicate)} in an object")
    return data


def _bounded_int(digits: str) -> int:
    if len(digits) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(digits)} characters (at most {MAX_NUMBER_CHARS})")
    return int(digits)


def _bounded_float(digits: str) -> float:
    if len(digits) > MAX_NUMBER_CHARS:
        raise _Refused(f"a number of {len(digits)} characters (at most {MAX_NUMBER_CHARS})")
    value = float(digits)
    if not math.isfinite(value):  # 1e400 would be read as Infinity, which JSON has not
        raise _Refused(f"the number {digits} is too large (it would be infinite)")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object_without_duplicates,
    parse_int=_bounded_int,
    parse_float=_bounded_float,
    parse_constant=_no_constant,
)


def _has_lone_surrogate(data: Any) -> bool:
    if isinstance(data, str):
        return any("\ud800" <= ch <= "\udfff" for ch in data)
    if isinstance(data, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_has_lone_surrogate(v) for v in data)
    return False
