"""Fixtures shared by the test files: one Chromium per test module that drives a browser, and
what is made once for the whole run (the static site, the tablebase engine's compiled code)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_support import launch
from site_support import build_static_site
from tablebase_support import warm_up


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, started once for the module (the files skip without it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@contextmanager
def once_per_run(name: str, tmp_path_factory) -> Iterator[Path]:
    """A folder shared by the run's test processes, held under a lock named `name`: the first
    process to enter does the work, the other waits for it and then finds it done."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, the same for every xdist worker of the run
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        failed = shared / f"{name}.failed"
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"))
        try:
            yield shared
        except Exception as exc:
            failed.write_text(f"{name} failed in the other test process: {exc!r}"[-3000:], encoding="utf-8")
            raise


@pytest.fixture(scope="session")
def static_site(tmp_path_factory) -> Path:
    """The static site, built once for the whole run (a build takes a minute; each file that
    reads the site used to build its own)."""
    with once_per_run("static-site", tmp_path_factory) as shared:
        out = shared / "static-site"
        if not (out / "index.html").is_file():
            done = build_static_site(out)
            if done.returncode != 0:
                raise RuntimeError(done.stderr[-3000:])
    return out


@pytest.fixture(scope="session")
def compiled_tablebase(tmp_path_factory) -> None:
    """The tablebase's numba engine compiled once for the run (tablebase_support.warm_up):
    the first process compiles into numba's cache, the other then reads it in seconds."""
    with once_per_run("numba-tablebase", tmp_path_factory):
        warm_up()
