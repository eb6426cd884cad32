"""Issue #25: the static site `./run publish --static DIR` builds, served from a local folder by
a plain file server and read in Debian's Chromium with every request to another host aborted
and counted. The landing page links every page; the explorer plays a Yōkai move and a War
Stories flip in the reader's browser (Pyodide), analyses a position and opens the editor
there; a puzzle is solved by clicking; a shipped record replays. Each page: 0 requests
elsewhere, 0 failed requests, 0 console errors.

The build itself: every wheel the site ships is in Pyodide's lock with its real hash, the
kernel never falls back to PyPI, no page links a CDN, and a second build reads only the cache
(the network is made unreachable for it) and ships the same wheels and the same snapshot of
Python's memory byte for byte. That snapshot is restored where a page starts (in Chromium, and
in Node.js: each restore gets its own random state; without the snapshot Python starts as
usual)."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import re
import shutil
import subprocess
import tarfile
import threading
from pathlib import Path

import pytest
from browser_support import SIGNATURE, answered, chromium_path, open_folded_tools
from site_support import build_static_site as build

from publish.static_site import SiteHandler, notebook_kinds

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
PAGE_TIMEOUT = 120_000  # Pyodide starting on a busy 2-core machine


@pytest.fixture(scope="module")
def site(static_site) -> Path:
    return static_site


@pytest.fixture(scope="module")
def served(site):
    handler = functools.partial(SiteHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


class Watch:
    """A page whose requests to any other host are aborted and counted, with its failed
    requests (and answers of 400 or more) and console errors."""

    def __init__(self, browser, base: str, viewport=None) -> None:
        self.base, self.outside, self.failed, self.errors, self.warnings = base, [], [], [], []
        self.snapshots, self.wheels, self.workers = {}, [], []
        self.page = browser.new_page(viewport=viewport or {"width": 1280, "height": 800})
        self.page.on("worker", lambda worker: self.workers.append(worker.url))
        self.page.route("**/*", self._route)
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))
        self.page.on("console", self._console)
        self.page.on("response", self._response)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _response(self, response) -> None:
        name = response.url.rsplit("/", 1)[-1]
        if name in ("snapshot.bin.gz", "snapshot-files.tar.gz"):
            self.snapshots.setdefault(name, []).append(response.status)
        elif name.endswith(".whl"):
            self.wheels.append(name)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(message.text)
        elif message.type == "warning":
            self.warnings.append(message.text)

    def assert_python_came_from_the_snapshot(self) -> None:
        """Python's memory from snapshot.bin.gz, its packages' files from snapshot-files.tar.gz:
        no wheel fetched. Each file fetched once, by the page's early fetch (a worker of the
        page's): had the kernel's worker not been handed them, it would have fetched them again."""
        wanted = {"snapshot.bin.gz": [200], "snapshot-files.tar.gz": [200]}
        assert self.snapshots == wanted, f"the snapshot's files answered {self.snapshots}"
        early = [w for w in self.workers if w.endswith("/static/pyodide/load-snapshot.js#prefetch")]
        assert early, self.workers
        assert not [w for w in self.warnings if "snapshot" in w], self.warnings
        assert self.wheels == [], f"wheels fetched: {self.wheels[:5]}"

    def _route(self, route) -> None:
        url = route.request.url
        if url.startswith((self.base, "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self, path: str, ready: str = ".re-board [data-cell]"):
        self.page.goto(self.base + path)
        self.page.wait_for_selector(ready, timeout=PAGE_TIMEOUT)
        return self.page

    def assert_clean(self) -> None:
        assert self.outside == [], f"requests to other hosts: {self.outside[:5]}"
        assert self.failed == [], f"failed requests: {self.failed[:5]}"
        assert self.errors == [], f"console errors: {self.errors[:5]}"
        self.page.close()


pytestmark = pytest.mark.skipif(chromium_path() is None, reason="Debian's chromium is not installed")


def test_the_site_ships_exactly_its_lock_and_asks_no_one_else(site):
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((site / "static/pyodide/pyodide-lock.json").read_text())
    assert lock["info"]["version"] == "0.27.6"
    for name, entry in lock["packages"].items():
        wheel = site / "static/pyodide" / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= set(lock["packages"]), name
    boot = kernel["loadPyodideOptions"]["packages"]
    assert {"rules-explorer", "ipywidgets", "anywidget", "ipython", "sqlite3", "ssl"} <= set(boot)
    pages = [*site.glob("*.html"), *(site / "voici").rglob("*.html"), *(site / "pages").glob("*.html")]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'(?:src|href)="https?://', text), f"{page.relative_to(site)} links elsewhere"
    kinds = notebook_kinds()
    for path in kinds["kernel"]:
        assert (site / "voici/render" / f"{path.stem}.html").exists()
    for path in kinds["prerender"] + kinds["server"]:
        assert (site / "pages" / f"{path.stem}.html").exists()
    statistics = (site / "pages/statistics.html").read_text(encoding="utf-8")
    assert "<table" in statistics and "n = " in statistics
    heatmaps = statistics.split("Where it happens on the board")[1].split("Agent ladder")[0]
    assert heatmaps.count("<svg") >= 5  # each heatmap's picture, not only its legend and caption
    server_page = (site / "pages/perfect-play.html").read_text(encoding="utf-8")
    assert "cannot run in your browser alone" in server_page
    snapshot = (site / "static/pyodide/snapshot.bin.gz").read_bytes()
    assert snapshot[:2] == b"\x1f\x8b" and snapshot[4:8] == b"\0\0\0\0"  # gzip, no date in it
    with tarfile.open(site / "static/pyodide/snapshot-files.tar.gz") as tar:
        entries = tar.getmembers()
    # every package a page loads at start (the boot packages and what they need), unpacked:
    # its dist-info with INSTALLER, as Pyodide's loadPackage writes it
    loaded, todo = set(), [re.sub(r"[-_.]+", "-", name).lower() for name in boot]
    while todo:
        name = todo.pop()
        loaded.add(name)
        todo += [d for d in lock["packages"][name]["depends"] if d not in loaded]
    installed = {e.name.split("/")[-2] for e in entries if e.name.endswith(".dist-info/INSTALLER")}
    assert len(installed) == len(loaded), (sorted(installed), sorted(loaded))
    names = {e.name for e in entries}
    assert "lib/python3.12/site-packages/pyodide_kernel/__init__.pyc" in names
    assert "home/pyodide/.ipython/profile_default/startup/README" in names  # the kernel's IPython
    assert all(e.mtime == 0 and e.uid == 0 and (e.isfile() or e.isdir()) for e in entries)
    early_fetch = '<script>(function () {\n  const ASK = "rules-explorer: the snapshot fetched early";'
    for path in kinds["kernel"]:
        page = (site / "voici/render" / f"{path.stem}.html").read_text(encoding="utf-8")
        assert '"pyodideUrl": "../../static/pyodide/load-snapshot.js"' in page, path.name
        # the early fetch is the page's first script, before JupyterLite's own
        assert page.index("<script", page.index("<head>")) == page.index(early_fetch), path.name
        assert 'new Worker("../../static/pyodide/load-snapshot.js#prefetch")' in page, path.name
    assert "#prefetch" not in (site / "voici/index.html").read_text(encoding="utf-8")  # no kernel there


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_each_restore_of_the_snapshot_has_its_own_random_state_and_a_missing_one_falls_back(site):
    """Also from a host that sends snapshot.bin.gz gzip-encoded (some add Content-Encoding for
    .gz), where the browser hands over the bytes already unpacked."""
    done = subprocess.run(
        ["node", ROOT / "tests/static_snapshot_check.js", site], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    first, second, encoded, missing = json.loads(done.stdout.strip().splitlines()[-1])
    # restored: the imports snapshot_imports.py made are there before the page imports anything
    assert first["restored"] and second["restored"] and encoded["restored"] and not missing["restored"]
    assert first["random"] != second["random"]  # the snapshot's own state would be everyone's
    assert first["warnings"] == second["warnings"] == encoded["warnings"] == []
    assert missing["warnings"] == ["Python starts without its snapshot (Error: snapshot.bin.gz: HTTP 404)"]
    assert first["moves"] == second["moves"] == missing["moves"] > 0
    # the Pyodide kernel started in the snapshot, and what it holds of Pyodide's own answers
    assert first["kernel"] == encoded["kernel"] == "PyodideKernel" and first["found"] is True
    assert missing["kernel"] is None


def test_a_second_build_needs_no_network_and_ships_the_same_wheels_and_snapshot(site, tmp_path):
    unreachable = "http://127.0.0.1:9"  # nothing answers there: a download would fail
    done = build(tmp_path / "again", https_proxy=unreachable, http_proxy=unreachable, PIP_NO_INDEX="1")
    assert done.returncode == 0, done.stderr[-3000:]
    first = (site / "static/pyodide/pyodide-lock.json").read_text()
    assert (tmp_path / "again/static/pyodide/pyodide-lock.json").read_text() == first
    for snapshot in ("static/pyodide/snapshot.bin.gz", "static/pyodide/snapshot-files.tar.gz"):
        assert (tmp_path / "again" / snapshot).read_bytes() == (site / snapshot).read_bytes(), snapshot


def test_the_landing_page_links_every_page(browser, served, site):
    watch = Watch(browser, served)
    page = watch.open("index.html", ready=".landing-card")
    links = page.eval_on_selector_all("a.landing-card", "cards => cards.map(c => c.getAttribute('href'))")
    wanted = {p.stem for ps in notebook_kinds().values() for p in ps} - {"index"}
    assert {Path(link).stem for link in links} == wanted
    for link in links:
        assert (site / link).is_file(), link
        # every page leads back here (issue 46 item 6): a notebook's page from voici/render/,
        # a plain page from pages/
        back = "../../index.html" if link.startswith("voici/render/") else "../index.html"
        assert f'href="{back}"' in (site / link).read_text(encoding="utf-8"), link
    page.screenshot(path=str(ARTIFACTS / "static-landing.png"), full_page=True)
    watch.assert_clean()


def test_the_explorer_plays_a_yokai_move_and_a_war_stories_flip_in_the_browser(browser, served):
    watch = Watch(browser, served)
    page = watch.open("voici/render/explorer.html")
    page.locator('.re-board [data-cell="b2"]').dispatch_event("pointerdown")  # the Kodama
    page.locator('.re-board [data-cell="b3"]').dispatch_event("pointerdown")  # takes the Kodama
    page.wait_for_selector('.re-movelist .re-move[data-ply="1"]', state="attached", timeout=30_000)
    assert "Kodama b2–b3 takes Kodama" in page.locator(".re-movelist").inner_text()
    # Analysis in the browser's Python (no threads there): a short search in the click's turn
    page.get_by_role("button", name="Analysis").click()
    open_folded_tools(page)
    page.get_by_role("button", name="Edit position").click()  # shown again after hidden: see runtime.SHOWN
    page.locator(".re-editor").wait_for(state="visible", timeout=30_000)
    page.get_by_role("button", name="Edit position").click()
    page.locator(".re-analysis").get_by_text("done").wait_for(timeout=60_000)
    page.get_by_role("button", name="Analysis").click()
    page.locator("select").first.select_option(label="War Stories (Sengokuki)")
    page.get_by_role("button", name="New game").click()
    page.wait_for_selector('.re-board [data-cell="a1"]', timeout=30_000)
    curtain = page.get_by_role("button", name=re.compile("^Show .*'s view$"))
    if curtain.count() and curtain.first.is_visible():
        curtain.first.click()
    flipped = "() => document.querySelector('.re-movelist').innerText.includes('turns over a1')"
    for _ in range(2):  # a click chooses the card, a second turns it over where the page asks
        before = page.evaluate(SIGNATURE)
        page.locator('.re-board [data-cell="a1"]').dispatch_event("pointerdown")
        answered(page, before)  # the card lit, or turned over: a condition, not a fixed wait
        if page.evaluate(flipped):
            break
    page.wait_for_function(flipped, timeout=30_000)
    home = page.get_by_role("link", name="← All pages")  # the way back (issue 46 item 6)
    assert home.is_visible() and (served_path := home.get_attribute("href")) == "../../index.html", (
        served_path
    )
    page.screenshot(path=str(ARTIFACTS / "static-explorer.png"))
    watch.assert_python_came_from_the_snapshot()
    watch.assert_clean()


ASK_AS_A_SECOND_KERNEL = """() => new Promise((resolve) => {
    const asker = `const ASK = "rules-explorer: the snapshot fetched early";
        self.onmessage = (event) => postMessage({ answer: event.data[ASK], ports: event.ports.length });
        postMessage({ [ASK]: "port?" });`;
    const worker = new Worker(URL.createObjectURL(new Blob([asker])));
    worker.onmessage = ({ data }) => {
        if ("answer" in data) { resolve(data); worker.terminate(); }
    };
    setTimeout(() => resolve(null), 5000);
})"""


def test_the_early_fetch_goes_to_one_kernel_and_a_second_is_told_at_once(browser, served):
    """The page gives the early fetch's port to the first kernel's worker that asks, and the
    snapshot's files are moved to it over the port (Python came from the snapshot, each file
    fetched once: load_snapshot.js); a second worker that asks, as a restarted kernel's would,
    is told at once that there is none (no port), and fetches its own instead of waiting."""
    watch = Watch(browser, served)
    page = watch.open("voici/render/explorer.html")
    watch.assert_python_came_from_the_snapshot()
    assert page.evaluate(ASK_AS_A_SECOND_KERNEL) == {"answer": "port", "ports": 0}
    watch.assert_clean()


def test_a_puzzle_is_solved_by_clicking_in_the_browser(browser, served):
    watch = Watch(browser, served)
    page = watch.open("voici/render/rules-yokai-3x4.html", ready=".re-puzzle .re-hits [data-cell]")
    puzzle = page.locator(".re-puzzle").first
    puzzle.scroll_into_view_if_needed()
    for cell in ("b3", "c4"):  # the Kitsune takes the Koropokkuru ("Sieger des Spiels" 1.)
        puzzle.locator(f'.re-hits [data-cell="{cell}"]').first.click(force=True)
    puzzle.get_by_text("Right!").wait_for(timeout=30_000)
    puzzle.screenshot(path=str(ARTIFACTS / "static-puzzle.png"))
    watch.assert_python_came_from_the_snapshot()
    watch.assert_clean()


def test_a_second_visit_keeps_the_service_worker_and_fetches_the_files_past_it(browser, served):
    """JupyterLite registers its service worker on a reader's first visit without noting its
    version, so the second unregistered it and registered it again before the kernel started
    (at times 2.5 s); the pages note it (static_site.SERVICE_WORKER_VERSION). On the second
    visit, controlled by the worker, the page's scripts come past it (static_site.
    SERVICE_WORKER_ROUTES): handed over by it they were compiled again on every visit."""
    context = browser.new_context()
    messages, visits = [], []
    context.on("console", lambda m: messages.append(m.text))
    for _visit in range(2):
        responses = []
        page = context.new_page()
        page.on("response", lambda r, responses=responses: responses.append(r))
        page.goto(served + "voici/render/explorer.html")
        page.wait_for_selector(".re-board [data-cell]", timeout=PAGE_TIMEOUT)
        controlled = page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
        scripts = [r for r in responses if "/voici/build/" in r.url or "/extensions/" in r.url]
        visits.append((controlled, len(scripts), [r.url for r in scripts if r.from_service_worker]))
        page.close()
    context.close()
    assert sum("JupyterLite ServiceWorker was already registered" in m for m in messages) == 1
    assert not [m for m in messages if "New version, unregistering" in m], messages
    controlled, scripts, through_worker = visits[1]
    assert controlled  # the worker still answers the kernel's drive
    assert scripts > 50 and through_worker == [], through_worker[:5]


def test_the_service_worker_routes_every_file_but_the_kernels_api_past_it(site):
    worker = (site / "service-worker.js").read_text()
    names = json.loads(re.search(r"const routes = (\[.*?\])\.map", worker).group(1))
    everything = {p.name for p in site.iterdir()}
    assert {name for name, _folder in names} == everything - {"api", "service-worker.js"}
    assert all(folder == (site / name).is_dir() for name, folder in names)


def test_a_shipped_record_replays_in_the_browser(browser, served):
    watch = Watch(browser, served, viewport={"width": 390, "height": 844})
    page = watch.open("voici/render/replay.html")
    assert page.locator(".widget-slider").filter(has_text="Ply").count() == 1
    page.get_by_text("Result: ").first.wait_for(timeout=30_000)  # the record shown: its game and result
    page.screenshot(path=str(ARTIFACTS / "static-replay-phone.png"))
    watch.assert_python_came_from_the_snapshot()
    watch.assert_clean()


def test_without_the_snapshot_the_pages_load_pyodides_own_script(tmp_path):
    """`--no-snapshot` (12 MB less for a reader to fetch): no snapshot is written and each page's
    kernel loads Pyodide's own script, as a build on a machine without Node.js does."""
    from publish.static_site import PYODIDE_SCRIPT, localise_page, write_snapshot

    folder = tmp_path / "static/pyodide"
    folder.mkdir(parents=True)
    assert write_snapshot(folder, ["rules-explorer"], 0, wanted=False) == PYODIDE_SCRIPT
    assert list(folder.iterdir()) == []
    settings = {"litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": {}}}
    page = tmp_path / "voici/render/explorer.html"
    page.parent.mkdir(parents=True)
    config = f'<script id="jupyter-config-data" type="application/json">{json.dumps(settings)}</script>'
    page.write_text(config)
    localise_page(page, tmp_path, PYODIDE_SCRIPT, runs_notebook=True)
    assert '"pyodideUrl": "../../static/pyodide/pyodide.js"' in page.read_text()
    assert "#prefetch" not in page.read_text()  # no snapshot to fetch early
