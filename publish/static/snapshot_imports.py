"""What the static site's Python has done before its memory is written as the snapshot
(make_snapshot.js): the imports every page begins with, the slow part of a page's start.

Only imports of modules that hold no browser object: a snapshot cannot carry one (the Pyodide
kernel itself, piplite and micropip hold some, and are imported in the browser as before).
"""

import gc

import anywidget  # noqa: F401
import comm  # noqa: F401
import IPython  # noqa: F401
import ipywidgets  # noqa: F401

import rules_kernel
import widgets.explorer  # noqa: F401
import widgets.puzzle  # noqa: F401
import widgets.replay  # noqa: F401

rules_kernel.list_games()  # imports every game's module
gc.collect()
