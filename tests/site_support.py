"""The static site's build as the tests run it (`./run publish --static OUT`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC_BUILD_TIMEOUT = 1500  # the first build downloads the build tools, Pyodide and the wheels


def build_static_site(out: Path, **env: str) -> subprocess.CompletedProcess:
    """`./run publish --static OUT`, as the README's command runs it."""
    return subprocess.run(
        [sys.executable, "-m", "publish", "--static", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=STATIC_BUILD_TIMEOUT,
        env={**os.environ, **env},
    )
