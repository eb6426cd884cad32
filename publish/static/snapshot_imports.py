"""What the static site's Python has done before its memory is written as the snapshot
(make_snapshot.js): the imports every page begins with, the slow part of a page's start, then
the Pyodide kernel's own start (what its worker runs after loadPyodide: piplite, then the
kernel with its IPython shell; 0.63 s in the browser), which the worker then finds done.

A snapshot cannot carry a browser object. The plain imports hold none; the kernel, piplite and
micropip hold some of Pyodide's own (loadPackage, loadPackagesFromImports, ...), which the
snapshot names and load_snapshot.js finds again on the browser's Pyodide, and the page's
`fetch`, which Pyodide itself finds again by its name.
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
import widgets.runtime

rules_kernel.list_games()  # imports every game's module
for optional in ("PIL", "pandas"):  # what the pages ask is there (found once, here: not there)
    widgets.runtime.importable(optional)

# the kernel's worker: initPackageManager, then initKernel (pyodide-kernel 0.6.1's worker.ts)
import piplite.piplite  # noqa: E402, F401
import pyodide_kernel  # noqa: E402, F401

gc.collect()
