"""What the Python that runs the page can do. On the static site it is Pyodide in the
reader's browser (docs/publishing.md, "The static site"): it starts no threads, so work the
server's kernel does in the background runs in the click's own turn there, for a short
budget; and it has no pandas, so what builds a DataFrame says it needs the server mode."""

from __future__ import annotations

import importlib.util
import sys

#: False in the browser's Python (Pyodide: `threading.Thread.start` raises RuntimeError)
THREADS = sys.platform != "emscripten"


#: importable's answers in the browser's Python, where they cannot change (a static site's
#: kernel installs nothing but the site's own wheels). The site's snapshot holds them, asked at
#: build time (publish/static/snapshot_imports.py): a page's search began in the kernel's
#: working folder, the page's contents, where each look is a request to the page (~0.1 s).
_FOUND: dict[str, bool] = {}


def collections_readable() -> bool:
    """Whether game collections can be read here (Games from here): pandas and DuckDB, which
    the static site's browser Python has not."""
    return importable("duckdb") and importable("pandas")


def importable(module: str) -> bool:
    """Whether `module` can be imported here, found without importing it (pandas or Pillow
    would cost a page's start); a finder that refuses it counts as absent."""
    if module in _FOUND:
        return _FOUND[module]
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:
        found = False
    if sys.platform == "emscripten":
        _FOUND[module] = found
    return found


#: the `layout.display` that shows a widget: the empty string, never None. The browser's
#: kernel turns a None in a widget message into JavaScript's `undefined`, which the message
#: then leaves out, so a widget hidden with "none" and shown with None stayed hidden there.
SHOWN = ""


def fold_title(title: str, opened: bool) -> str:
    """A folded section's toggle: its title and whether it is open ("Open a record ▸", "▾")."""
    return f"{title} {'▾' if opened else '▸'}"
