"""`./run dashboard`, the README's command, really started: the explorer dashboard answers on
127.0.0.1 and its page asks no other host for anything (issue #25 left this open: Voilà's own
page template linked a CDN for its icon font, which a machine without internet never
reaches; the dashboard now uses the publishing mode's template, publish/share).

Issue #44: the environment that `./run dashboard` and `./run publish` install (the runtime
lock) compiles the tablebase solver with numba, so a table built from the explorer or by the
README's `rules-explorer solve yokai-3x4` takes minutes, not days."""

from __future__ import annotations

import contextlib
import os
import subprocess

import pytest
from browser_support import ARTIFACTS, KERNEL_TRANSPORT, ROOT, chromium_path, free_port, stop, wait_listening

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="Debian's chromium is not installed")
LISTEN_TIMEOUT = 180  # s: the command first checks the environment is up to date
PAGE_TIMEOUT = 120_000  # ms: the notebook runs in a fresh kernel on a busy 2-core machine


@contextlib.contextmanager
def dashboard():
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"run-dashboard-{port}.log", "w") as log:
        command = ["./run", "dashboard", "--no-browser", f"--port={port}", *KERNEL_TRANSPORT]
        proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_listening(proc, port, LISTEN_TIMEOUT, "./run dashboard", log.name)
            yield f"http://127.0.0.1:{port}/"
        finally:
            stop(proc)


def test_the_dashboard_asks_no_other_host_and_draws_its_icons(browser):
    outside, failed = [], []
    with dashboard() as url:
        page = browser.new_page(viewport={"width": 1280, "height": 800})

        def route(request_route):
            if request_route.request.url.startswith((url, "data:", "blob:")):
                request_route.continue_()
            else:
                outside.append(request_route.request.url)
                request_route.abort()

        page.route("**/*", route)
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.goto(url)
        page.wait_for_selector(".re-board [data-cell]", timeout=PAGE_TIMEOUT)
        # the icon font comes from the page itself (voila-style.js carries Font Awesome 5)
        page.wait_for_function("() => document.fonts.check('900 16px \"Font Awesome 5 Free\"')")
        page.screenshot(path=str(ARTIFACTS / "run-dashboard.png"))
        page.close()
    assert outside == [], f"requests to other hosts: {outside[:5]}"
    assert failed == [], f"failed requests: {failed[:5]}"


def test_the_runtime_install_compiles_the_solver():
    """`./run setup runtime` (what dashboard and publish do first) leaves an environment whose
    tablebase engine runs under numba, and whose `rules-explorer` is the README's command."""
    env = {k: v for k, v in os.environ.items() if k not in ("RULES_EXPLORER_NO_NUMBA", "VIRTUAL_ENV")}
    setup = subprocess.run(
        ["./run", "setup", "runtime"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert setup.returncode == 0, setup.stderr[-3000:]
    python = setup.stdout.strip().splitlines()[-1]
    probe = "from rules_kernel.tablebase import _engine; print(_engine.HAVE_NUMBA)"
    result = subprocess.run([python, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "True", result.stdout
    scripts = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('scripts'))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert os.access(os.path.join(scripts, "rules-explorer"), os.X_OK)
