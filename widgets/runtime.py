"""What the Python that runs the page can do. On the static site it is Pyodide in the
reader's browser (docs/publishing.md, "The static site"): it starts no threads, so work the
server's kernel does in the background runs in the click's own turn there, for a short
budget; and it has no pandas, so what builds a DataFrame says it needs the server mode."""

from __future__ import annotations

import importlib.util
import sys

#: False in the browser's Python (Pyodide: `threading.Thread.start` raises RuntimeError)
THREADS = sys.platform != "emscripten"


def importable(module: str) -> bool:
    """Whether `module` can be imported here, found without importing it (pandas or Pillow
    would cost a page's start); a finder that refuses it counts as absent."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


#: the `layout.display` that shows a widget: the empty string, never None. The browser's
#: kernel turns a None in a widget message into JavaScript's `undefined`, which the message
#: then leaves out, so a widget hidden with "none" and shown with None stayed hidden there.
SHOWN = ""
