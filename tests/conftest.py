"""Fixtures shared by the test files: one Chromium per test module that drives a browser, and
the static site built once for the whole run."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from browser_support import launch
from site_support import build_static_site


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, started once for the module (the files skip without it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def static_site(tmp_path_factory) -> Path:
    """The static site, built once for the whole run: the first test process to ask builds it
    under a lock in the run's shared temporary folder, the other waits and reads it (a build
    takes a minute; each file that reads the site used to build its own)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, the same for every xdist worker of the run
    out = shared / "static-site"
    with open(shared / "static-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        failed = shared / "static-site.failed"
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"))
        if not (out / "index.html").is_file():
            done = build_static_site(out)
            if done.returncode != 0:
                failed.write_text(done.stderr[-3000:], encoding="utf-8")
                pytest.fail(done.stderr[-3000:])
    return out
