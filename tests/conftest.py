"""Fixtures shared by the test files: one Chromium per test module that drives a browser."""

from __future__ import annotations

import pytest
from browser_support import launch


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, started once for the module (the files skip without it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()
