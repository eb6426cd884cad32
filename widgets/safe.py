"""The dashboards' trust boundary on the drawing side: one way to build HTML, one way to run
a callback.

A published dashboard shows text that visitors control (an uploaded record's game name, an
error message quoting their input). Every such text goes into HTML through `html()`, which
escapes every value; widget callbacks go through `guarded()`, so no exception escapes to the
page unseen: the visitor gets one line saying what went wrong.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from html import escape
from typing import Any, TypeVar

import ipywidgets as w

log = logging.getLogger("widgets")

ERROR_COLOUR = "#B00020"
F = TypeVar("F", bound=Callable[..., Any])


def html(template: str, /, **values: Any) -> str:
    """`template.format(**values)` with every value escaped (the template is ours, the
    values may be anybody's): html("<b>{name}</b>", name=upload_name)."""
    return template.format(**{k: escape(str(v), quote=True) for k, v in values.items()})


def message_html(text: str, *, error: bool = False) -> str:
    """One line of feedback; errors in red and marked as alerts for screen readers."""
    if not text:
        return ""
    if error:
        return html(
            '<span role="alert" style="color:{colour}">{text}</span>',
            colour=ERROR_COLOUR,
            text=one_line(text),
        )
    return html("<span>{text}</span>", text=one_line(text))


def one_line(text: str, limit: int = 300) -> str:
    """An error message as one line of bounded length (hostile input can be huge)."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def guarded(show: Callable[[str], None]) -> Callable[[F], F]:
    """Wrap a callback so that any exception becomes `show(one line)` instead of escaping.

    Kernel errors (RulesError) say what is wrong in words; anything else is a bug, logged
    with its traceback on the server and shown to the visitor without internals."""
    from rules_kernel.core import RulesError

    def wrap(callback: F) -> F:
        @functools.wraps(callback)
        def safe(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except RulesError as exc:
                show(str(exc))
            except RecursionError:
                show("the input is nested too deeply to read")
            except Exception as exc:  # noqa: BLE001 - the visitor must see a line, not nothing
                log.exception("callback %s failed", getattr(callback, "__name__", callback))
                show(f"something went wrong ({type(exc).__name__}); the page is still usable")
            return None

        return safe  # type: ignore[return-value]

    return wrap


def error_line(target: w.HTML) -> Callable[[str], None]:
    """A `show` for `guarded`: the message as a red line in `target`."""

    def show(text: str) -> None:
        target.value = message_html(text, error=True)

    return show
