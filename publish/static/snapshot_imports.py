"""What the static site's Python has done before its memory is written as the snapshot
(make_snapshot.js): the imports every page begins with, the slow part of a page's start.

Only imports of modules that hold no browser object: a snapshot cannot carry one (the Pyodide
kernel itself, piplite and micropip hold some, and are imported in the browser as before). What
they import from the standard library and IPython holds none, and is imported here: without it
piplite's import took twice as long in the browser (0.67 s, 0.34 s with them; unittest.mock,
which piplite imports, was most of it).
"""

# gc, and what piplite (with micropip) and the Pyodide kernel import from the standard library
import _strptime  # noqa: F401
import difflib  # noqa: F401
import gc
import getpass  # noqa: F401
import html.parser  # noqa: F401
import unittest.mock  # noqa: F401

import anywidget  # noqa: F401
import comm  # noqa: F401
import IPython  # noqa: F401
import IPython.core.completerlib  # noqa: F401
import ipywidgets  # noqa: F401

import rules_kernel
import widgets.explorer  # noqa: F401
import widgets.puzzle  # noqa: F401
import widgets.replay  # noqa: F401

rules_kernel.list_games()  # imports every game's module
gc.collect()
