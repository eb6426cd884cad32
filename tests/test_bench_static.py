"""benchmarks/bench_static.py's reader's figure (PlainChromium): Chromium started by the
benchmark and driven over its page's DevTools session alone must time the board as Playwright
does, from the request until a board cell is visible (a box, not visibility:hidden), and
leave no process behind. The page here shows its board at a known moment; the real pages are
timed by the benchmark itself (docs/publishing.md)."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

import psutil
import pytest
from browser_support import chromium_path

from publish.static_site import SiteHandler

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

pytestmark = pytest.mark.skipif(chromium_path() is None, reason="Debian's chromium is not installed")

#: a cell at once but hidden, the board box only after SHOWN ms
SHOWN = 900
PAGE = f"""<!DOCTYPE html><html><body><div class="re-board"></div><script>
const cell = document.createElement("div");
cell.dataset.cell = "a1";
cell.style.cssText = "width: 40px; height: 40px; visibility: hidden";
document.querySelector(".re-board").append(cell);
setTimeout(() => {{ cell.style.visibility = "visible"; }}, {SHOWN});
</script></body></html>"""


@pytest.fixture
def served(tmp_path):
    (tmp_path / "board.html").write_text(PAGE, encoding="utf-8")
    handler = functools.partial(SiteHandler, directory=str(tmp_path))  # the site's, no request log
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/board.html"
    server.shutdown()


def test_the_reader_s_browser_times_the_board_when_it_is_visible(served, tmp_path):
    import bench_static

    browser = bench_static.PlainChromium(str(tmp_path / "profile"))
    try:
        seconds, cpu = browser.time_to_board(served)
        again, _ = browser.time_to_board(served)  # a second visit, a new tab of the same profile
        chromium = psutil.Process(browser.proc.pid)
        started = [chromium, *chromium.children(recursive=True)]  # the tabs' processes too
    finally:
        browser.close()
    # the hidden cell is not the board: the time runs until it is shown, not far beyond
    assert SHOWN / 1000 <= seconds < SHOWN / 1000 + 5
    assert SHOWN / 1000 <= again < SHOWN / 1000 + 5
    assert cpu >= 0
    assert not [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
