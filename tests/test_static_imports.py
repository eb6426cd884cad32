"""Issue #25 item 2: what the static site's pages run imports nothing Pyodide cannot have
here (numpy, pandas, scipy, pyarrow, matplotlib, numba, dask and Pillow have no WebAssembly
wheels reachable from this machine). A fresh interpreter with those hidden builds an explorer for
every game, plays a move in each, analyses a card game with the tree search, and opens a
replay and a puzzle."""

from __future__ import annotations

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
