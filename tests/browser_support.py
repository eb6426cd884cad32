"""A real Voilà server and Debian's Chromium under Playwright, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"  # screenshots and server logs (git-ignored)
#: kernels talk over Unix sockets, not TCP ports: servers started side by side (pytest-xdist)
#: otherwise race for the same free ports, and a kernel may bind another's port or fail to start
KERNEL_TRANSPORT = ["--KernelManager.transport=ipc"]
# nbclient's 4 s wait for a cell's output is too short on a loaded machine: pages rendered
# without the widget (the same setting as `./run dashboard` and the publishing mode).
PATIENT_EXECUTOR = ["--VoilaExecutor.iopub_timeout=120"]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def voila(notebook: str, timeout: float = 180, *, published: bool = False, preheat: int = 0) -> Iterator[str]:
    """Start `voila notebooks/<notebook>` (or a notebook's path) on a free loopback port; yield
    its URL once it listens; stop it. (Readiness is the open port, not a page: asking for the
    page would run the notebook in a kernel nobody uses, and the first page is the test's.)
    `published`: with the publishing mode's page template (publish/share), as `./run
    dashboard` starts it, instead of Voilà's own (which links a CDN for its icon font).
    `preheat`: that many kernels kept ready with the notebook run (Voilà's pool, as the
    publishing mode keeps them), for a module that opens many pages."""
    port = free_port()
    env, template = dict(os.environ), []
    if published:
        from publish.serve import TEMPLATE, use_project_template

        use_project_template(env)
        template = [f"--template={TEMPLATE}"]
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"voila-{Path(notebook).stem}-{port}.log", "w") as log:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "voila",
                str(ROOT / "notebooks" / notebook),
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
                "--show_tracebacks=True",
                *template,
                *(["--preheat_kernel=True", f"--pool_size={preheat}"] if preheat else []),
                *KERNEL_TRANSPORT,
                *PATIENT_EXECUTOR,
            ],
            cwd=ROOT / "notebooks",
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_listening(proc, port, timeout, "voila", log.name)
            yield f"http://127.0.0.1:{port}/"
        finally:
            stop(proc)


def wait_listening(proc: subprocess.Popen, port: int, timeout: float, what: str, log: str) -> None:
    """Wait until the server `proc` (`what`, logging to `log`) listens on 127.0.0.1:`port`;
    raise if it exits first or takes longer than `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}; see {log}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not listen on port {port} within {timeout} s; see {log}")
        time.sleep(0.2)


def stop(proc: subprocess.Popen, grace: float = 10) -> None:
    """Ask a server to stop; kill it if it has not within `grace` seconds."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


PIXEL_JS = """([index, x, y]) => {
    const canvases = Array.from(document.querySelectorAll('canvas'));
    const c = canvases[index];
    const ratio = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
    return [d[0], d[1], d[2], d[3]];
}"""


class PublishedSite:
    """A running `python -m publish` server: its URL and the kernels it has started."""

    def __init__(self, url: str, proc: subprocess.Popen, log_path: Path):
        self.url, self.proc, self.log_path = url, proc, log_path

    def kernel_pids(self) -> list[int]:
        """Process ids of the server's live kernels (ipykernel children of the server)."""
        import psutil

        pids = []
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if any("ipykernel" in part for part in child.cmdline()) and child.status() != "zombie":
                    pids.append(child.pid)
        return pids

    def wait_for_kernels(self, at_most: int, timeout: float) -> float:
        """Seconds until at most `at_most` kernels are alive; TimeoutError after `timeout`."""
        start = time.monotonic()
        while len(self.kernel_pids()) > at_most:
            if time.monotonic() - start > timeout:
                raise TimeoutError(
                    f"{len(self.kernel_pids())} kernels still alive after {timeout} s "
                    f"(wanted at most {at_most}); see {self.log_path}"
                )
            time.sleep(0.5)
        return time.monotonic() - start

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout: float, count: int = 1) -> None:
        """Wait until the server's log holds `text` `count` times (e.g. a kernel pool filled)."""
        deadline = time.monotonic() + timeout
        while self.log().count(text) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{text!r} not logged {count} times within {timeout} s; see {self.log_path}"
                )
            time.sleep(0.5)


@contextlib.contextmanager
def published(
    *options: str,
    notebooks: Path | None = None,
    timeout: float = 120,
    ready: str = "voila/tree",
    perfect_play: bool = False,
) -> Iterator[PublishedSite]:
    """Start the publishing mode (`python -m publish`) on a free loopback port with `options`;
    wait until `ready` answers (the file list: it starts no kernel); stop the server after.
    Without `perfect_play`, `--no-perfect-play`: a test server does not build the solved
    table (minutes of both cores and 2 GB) in the user's cache."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"publish-{port}.log"
    log = open(log_path, "w")  # noqa: SIM115
    args = [
        sys.executable,
        "-m",
        "publish",
        "--ip",
        "127.0.0.1",
        "--port",
        str(port),
        *options,
        *([] if perfect_play else ["--no-perfect-play"]),
        *KERNEL_TRANSPORT,
    ]
    if notebooks is not None:
        args += ["--notebooks", str(notebooks)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    site = PublishedSite(f"http://127.0.0.1:{port}/", proc, log_path)
    try:
        _wait_until_answering(site.url + ready, proc, log_path, timeout)
        yield site
    finally:
        stop(proc, grace=20)
        log.close()


def _wait_until_answering(url: str, proc: subprocess.Popen, log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}; see {log_path}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (a 404 or 503 is an answer)
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no answer on {url} within {timeout} s") from None
            time.sleep(0.5)


def open_folded_tools(page) -> None:
    """Open the explorer's folded tools (the position box, Edit position, Export record, the
    picture, Copy link), built on first opening, unless they are open."""
    toggle = page.locator(".re-tools-toggle").first
    if "▸" in toggle.inner_text():
        toggle.click()
    page.get_by_role("button", name="Load position").first.wait_for(timeout=30_000)


# --- a page at rest -----------------------------------------------------------------------------

#: what a click may change: the move list's last ply, the highlight layer, the curtain and the
#: look before it, the live lines, and whether Play can be pressed
SIGNATURE = """() => JSON.stringify([
    Array.from(document.querySelectorAll('.re-movelist [data-ply]')).map(e => e.dataset.ply).pop(),
    Array.from(document.querySelectorAll('.re-board .re-highlight')).map(e => e.innerHTML),
    Array.from(document.querySelectorAll('.re-curtain-button, .re-done-button'))
        .map(e => e.offsetParent !== null),
    Array.from(document.querySelectorAll('[aria-live]')).map(e => e.textContent),
    Array.from(document.querySelectorAll('.re-side button'))
        .filter(b => b.textContent === 'Play').map(b => b.disabled),
])"""
#: a page is settled when its signature stays the same this long: a move redraws the page in
#: several messages (the highlight cleared, the list, the curtain coming down), and a page read
#: half-way offers cells that are gone a moment later
SETTLED_MS = 700


def settle(page, limit_ms: int = 20_000) -> None:
    """Wait until the page's signature stops changing (SETTLED_MS without a change), at most
    `limit_ms`."""
    deadline = time.monotonic() + limit_ms / 1000
    while time.monotonic() < deadline:
        before = page.evaluate(SIGNATURE)
        try:
            page.wait_for_function(f"() => ({SIGNATURE})() !== {json.dumps(before)}", timeout=SETTLED_MS)
        except PlaywrightTimeout:
            return


def answered(page, before: str, timeout_ms: int = 30_000) -> None:
    """Wait until the page answers what was done when its signature was `before` (every click
    answers: targets lit, a move played, a note), and the answer is drawn (`settle`)."""
    page.wait_for_function(f"() => ({SIGNATURE})() !== {json.dumps(before)}", timeout=timeout_ms)
    settle(page)
