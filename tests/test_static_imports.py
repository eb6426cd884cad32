"""Issue #25 item 2: what the static site's pages run imports nothing Pyodide cannot have
here (numpy, pandas, scipy, pyarrow, matplotlib, numba, dask and Pillow have no WebAssembly
wheels reachable from this machine). A fresh interpreter with those hidden builds an explorer for
every game, plays a move in each, analyses a card game with the tree search, and opens a
replay and a puzzle; with threads off, as in the browser, Analysis still answers (briefly,
in the click's turn), and the replay's report says it needs pandas."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ("numpy", "pandas", "scipy", "pyarrow", "matplotlib", "numba", "dask", "PIL")

SCRIPT = textwrap.dedent(
    f"""
    import importlib.abc, sys

    class Hidden(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in {HIDDEN!r}:
                raise ImportError(name + " is not in the static site's Pyodide")

    sys.meta_path.insert(0, Hidden())
    import rules_kernel as rk
    from rules_kernel.analysis import Limit, TreeSearchEngine, analyse
    from widgets.explorer import Explorer
    from widgets.puzzle import MovePuzzle, wins
    from widgets.replay import Replay

    for game in rk.list_games():
        explorer = Explorer(game, seed=1)
        explorer.play(explorer.state.legal_moves()[0])
    # no Pillow: the picture menu offers SVG only, and makes one
    assert [kind for _, kind in explorer.pictures.kind.options] == ["svg", "animated-svg"]
    assert "Download" in explorer.pictures.make()
    state = Explorer("war-stories", seed=2).state
    found = analyse(state, viewer=state.current_player, engine=TreeSearchEngine(seed=1),
                    limit=Limit(playouts=20, seconds=None))
    assert found.best is not None
    replay = Replay("data/yokai-3x4-random.jsonl")
    replay.show(3)
    assert replay.report.button.disabled and "pandas" in replay.report.note.value  # says so
    # the browser's Python starts no threads: Analysis searches in the click's turn, briefly
    from widgets import analysis_panel, runtime
    runtime.THREADS = False
    analysis_panel.FOREGROUND_SECONDS = 0.3
    explorer = Explorer("war-chest", seed=3)
    explorer.perspective.value = "all"
    explorer.analysis.switch.value = True
    assert explorer.analysis.result is not None and "done" in explorer.analysis.info.value
    puzzle = MovePuzzle("yokai-3x4", "g1l/1E1/1C1/L1G[] w - - 0 1", "Find the win.", goal=wins)
    print("loaded:", sorted({{m.split(".")[0] for m in sys.modules}} & set({HIDDEN!r})))
    """
)


def test_the_pages_run_without_numpy_pandas_and_the_rest():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("loaded: []")


def test_the_check_can_fail():
    """The same harness catches a page path that needs numpy (the solved table's own module)."""
    script = SCRIPT.replace("import rules_kernel as rk", "import rules_kernel.tablebase._table")
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode != 0 and "numpy is not in the static site's Pyodide" in done.stderr


def _nones(node: ast.AST) -> bool:
    """Whether an assigned value is, or may be, None (a conditional's branches too)."""
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, ast.IfExp):
        return _nones(node.body) or _nones(node.orelse)
    return False


def _display_set_to_none(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs = (
                zip(target.elts, node.value.elts, strict=False)
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                else [(target, node.value)]
            )
            for name, value in pairs:
                if isinstance(name, ast.Attribute) and name.attr == "display" and _nones(value):
                    lines.append(node.lineno)
    return lines


def test_no_widget_is_shown_by_setting_its_display_to_none():
    """The browser's kernel drops a None from a widget message (it becomes JavaScript's
    undefined), so a widget hidden with "none" and shown again with None stayed hidden on the
    static site (the editor, the analysis). Shown means `widgets.runtime.SHOWN` ("")."""
    found = {
        path.name: lines
        for path in sorted((ROOT / "widgets").glob("*.py"))
        if (lines := _display_set_to_none(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert found == {}
    assert _display_set_to_none(ast.parse("w.layout.display = None if shown else 'none'")) == [1]
