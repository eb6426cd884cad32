"""Fixtures shared by the test files: one Chromium per test process for the tests that drive a
browser, and what is made once for the whole run (the static site, the tablebase engine's
compiled code)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_support import launch
from site_support import build_static_site
from tablebase_support import warm_up


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, started once for the module (the files skip without it); each test
    opens its own pages and closes them. Not once per test process: Playwright's sync API
    allows one `sync_playwright()` per thread, and the publishing tests start their own beside
    their servers (a session-wide browser made them fail: "Sync API inside the asyncio loop")."""
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
    the first process compiles into numba's cache (or the background compile below has), the
    other then reads it in seconds."""
    with once_per_run(WARM_UP, tmp_path_factory):
        warm_up()


# --- the compile in the background -----------------------------------------------------------
# On a new machine the compile takes about four minutes of one core. A test process that waits
# for it sits idle (a fresh-machine run: 108 s), so a run with xdist workers starts it at once
# in a process of its own, which holds the lock until it is done, and the tests that need the
# engine run last.

WARM_UP = "numba-tablebase"
WARM_UP_CODE = """
import sys, traceback
import tablebase_support
try:
    tablebase_support.warm_up()
except BaseException:
    with open(sys.argv[1], "w", encoding="utf-8") as failed:
        failed.write("the background compile of the engine failed: " + traceback.format_exc()[-3000:])
    raise
"""


def _needs_engine(item: pytest.Item) -> bool:
    return "compiled_tablebase" in getattr(item, "fixturenames", ())


#: the fixtures that start something real and slow: a browser, the static site's build, the
#: engine's compile (a test that asks for one is `slow`)
SLOW_FIXTURES = frozenset({"browser", "static_site", "site", "compiled_tablebase"})
#: the modules whose every test starts servers, builds, virtual environments or the project's
#: own commands as processes (the browser tests' modules are test_browser*.py)
SLOW_MODULES = frozenset(
    {
        "test_bench_static",
        "test_dashboard_command",
        "test_interrupts",
        "test_page_tour",
        "test_publish",
        "test_publish_headers",
        "test_run_script",
        "test_static_site",
    }
)


def is_slow(item: pytest.Item) -> bool:
    """Whether a test starts something real and slow (see SLOW_FIXTURES, SLOW_MODULES) or says
    it is slow itself (`@pytest.mark.slow`: a property test over many games, say)."""
    module = item.path.stem
    uses = set(getattr(item, "fixturenames", ()))
    return (
        item.get_closest_marker("slow") is not None
        or module in SLOW_MODULES
        or module.startswith("test_browser")
        or bool(uses & SLOW_FIXTURES)
    )


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)  # `./run tests -m "not slow"`: the quick loop
    items.sort(key=_needs_engine)  # stable: the engine's tests last, in their order


def pytest_sessionstart(session) -> None:
    config = session.config
    if os.environ.get("PYTEST_XDIST_WORKER") or not getattr(config.option, "numprocesses", None):
        return  # a worker, or one test process: the fixture compiles when a test first needs it
    shared = config._tmp_path_factory.getbasetemp()  # the workers' folders are inside it
    with open(shared / f"{WARM_UP}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # taken before any worker starts; the child keeps it
        config._rules_explorer_warm_up = subprocess.Popen(
            [sys.executable, "-c", WARM_UP_CODE, str(shared / f"{WARM_UP}.failed")],
            cwd=Path(__file__).parent,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,  # a failure is written to the .failed file the tests read
            pass_fds=(lock.fileno(),),
        )


def pytest_sessionfinish(session) -> None:
    child = getattr(session.config, "_rules_explorer_warm_up", None)
    if child is not None and child.poll() is None:
        child.kill()  # the run ended (or was interrupted) before the compile did
        child.wait()


# --- no test leaves Ctrl-C changed for the tests after it -------------------------------------


@pytest.fixture(autouse=True)
def _ctrl_c_as_it_was():
    """A test that changes how this process takes Ctrl-C (SIGINT's handler, or SIGINT blocked
    in the main thread's signal mask) and does not put it back fails here, by name: a later
    test of the interrupts (test_simulate's signals_deferred) would otherwise fail in its place,
    once in a while, depending on which tests a worker ran before it."""
    before = _ctrl_c_state()
    yield
    after = _ctrl_c_state()
    assert after == before, f"this test left Ctrl-C changed: {before} before, {after} after"


def _ctrl_c_state() -> tuple[object, bool]:
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return (None, False)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, []) if hasattr(signal, "pthread_sigmask") else set()
    blocked = signal.SIGINT in mask
    return (signal.getsignal(signal.SIGINT), blocked)
