"""One style for the whole tree (issue #21 item 7): `ruff check` (lint) and `ruff format`
(the one formatter) both pass. Ruff is the project environment's, beside the interpreter
running the tests, never whatever a PATH holds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_the_tree_is_ruff_clean(command):
    assert RUFF.is_file(), f"the test extras install ruff into {RUFF.parent}"
    result = subprocess.run([str(RUFF), *command], cwd=ROOT, capture_output=True, text=True, timeout=120)
    said = result.stdout[-3000:] + result.stderr[-1000:]
    assert result.returncode == 0, f"ruff {' '.join(command)}:\n{said}"
