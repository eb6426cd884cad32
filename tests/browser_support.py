"""A real Voilà server and Debian's Chromium under Playwright, for tests and benchmarks."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"  # screenshots and server logs (git-ignored)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def voila(notebook: str, timeout: float = 90) -> Iterator[str]:
    """Start `voila notebooks/<notebook>` on a free loopback port; yield its URL; stop it."""
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / f"voila-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(ROOT / "notebooks" / notebook), "--no-browser",
         f"--port={port}", "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
        cwd=ROOT / "notebooks", stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"voila exited with {proc.returncode}; see {log.name}")
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"voila did not answer on {url} within {timeout} s") from None
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)


PIXEL_JS = """([index, x, y]) => {
    const canvases = Array.from(document.querySelectorAll('canvas'));
    const c = canvases[index];
    const ratio = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
    return [d[0], d[1], d[2], d[3]];
}"""
