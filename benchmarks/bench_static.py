"""The static site against the server mode (issue #25 item 4): what a reader waits for, what the
site weighs, and what each visitor costs the server.

    python benchmarks/bench_static.py [--site DIR] [--repeat 5] [--skip-voila]

1. Page load to the explorer's first board (`.re-board [data-cell]` visible) on the static site
   (`voici/render/explorer.html`, Python on Pyodide in the reader's browser), as a reader's
   browser sees it: in a new browser profile (its own folder, as a reader's browser keeps
   one) the first visit (cold: empty caches), the second (the files in the HTTP cache; the
   browser compiles the scripts again and keeps the compiled code) and the third (warm: a
   returning reader, the files and their compiled code cached); and in a private window (a
   fresh browser context: an HTTP cache but no compiled-code cache) a first and a second
   visit. Median and min-max of --repeat each; beside them the peer, measured in the same run:
   the server mode's lone visitor (Voilà serving notebooks/explorer.ipynb), a first and a
   third visit in a new profile. The profile visits are measured twice, the two ways taking
   turns: driven by Playwright, and in Chromium started here and driven over the DevTools
   protocol's page session alone (PlainChromium). Playwright's driving makes each load longer
   (its own launch flags, every page and worker attached, every request reported), so the
   second is the reader's figure, which the goals are read on. Goals: static cold <= 8 s,
   warm <= 3 s.
2. The site's size on disk and compressed (each file gzipped at level 6, as a static host
   sends it), the largest files, and what a cold visitor fetched.
3. The server side per visitor: the static site's file server (publish.static_site.SiteHandler in
   a process of its own) against Voilà with its kernels (each visitor's page kept open, so each
   holds a kernel): CPU-seconds (user + system, psutil) and RSS after 0, 1, 2 and 3 sequential
   cold visitors.

Without --site the site is built into a temporary folder (publish.static_site.build). All
traffic goes to 127.0.0.1: Chromium resolves no other host name, and requests to other hosts
are counted. (Playwright's request routing is not used to block them: it turns off the HTTP
cache, which the warm loads measure.) Chromium runs on the same cores as the servers, as in
the project's other browser benchmarks.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import psutil  # noqa: E402
from browser_support import CHROMIUM_ARGS, chromium_path, stop, voila  # noqa: E402
from websockets.sync.client import connect  # noqa: E402 (Voilà's own dependency)

BOARD = ".re-board [data-cell]"
STATIC_PAGE = "voici/render/explorer.html"
VOILA_NOTEBOOK = "explorer.ipynb"
GOAL_COLD, GOAL_WARM = 8.0, 3.0  # seconds, issue #25
PAGE_TIMEOUT = 180_000  # ms: Pyodide starting on a busy 2-core machine
VIEWPORT = {"width": 1280, "height": 800}
VISITORS = 3
#: every host name but the loopback address resolves to nothing: a request elsewhere fails at once
NO_OTHER_HOSTS = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
SERVE_SITE = """
import functools, http.server, sys
from publish.static_site import SiteHandler
handler = functools.partial(SiteHandler, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def progress(text: str) -> None:
    print(f"bench_static: {text}", file=sys.stderr, flush=True)


# --- the servers -------------------------------------------------------------------------
@contextlib.contextmanager
def static_server(site: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """The built site served by SiteHandler in a process of its own; its URL and process."""
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVE_SITE, str(site)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        port = int(proc.stdout.readline())
        yield f"http://127.0.0.1:{port}/", proc
    finally:
        stop(proc)


def voila_pid(url: str) -> int:
    """The process id of the Voilà server browser_support.voila started for `url`."""
    port = urllib.parse.urlsplit(url).port
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if f"--port={port}" in child.cmdline():
                return child.pid
    raise RuntimeError(f"no Voilà process on port {port} among this process's children")


def processes(pid: int) -> list[psutil.Process]:
    """A server and every process under it (Voilà's kernels)."""
    server = psutil.Process(pid)
    return [server, *server.children(recursive=True)]


def usage(pid: int) -> tuple[float, float, int]:
    """CPU-seconds (user + system), RSS in MiB, and the number of processes, summed over a
    server and its children."""
    cpu = rss = 0.0
    count = 0
    for proc in processes(pid):
        with contextlib.suppress(psutil.Error):
            times = proc.cpu_times()
            rss += proc.memory_info().rss / 2**20
            cpu += times.user + times.system
            count += 1
    return cpu, rss, count


def settle(pid: int, quiet: float = 0.05, at_most: float = 30) -> None:
    """Wait until the server and its children used under `quiet` CPU-seconds in half a
    second (the visit's work is done: a kernel may still run cells after the board is drawn)."""
    deadline = time.monotonic() + at_most
    before = usage(pid)[0]
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = usage(pid)[0]
        if now - before < quiet:
            return
        before = now


# --- the browser -------------------------------------------------------------------------
def launch(playwright):
    return playwright.chromium.launch(executable_path=chromium_path(), args=[*CHROMIUM_ARGS, NO_OTHER_HOSTS])


class Visits:
    """Counts, over every page Playwright drives in the run, requests to other hosts and failed
    requests; notes the URLs fetched from the base while `fetched` is a set."""

    def __init__(self) -> None:
        self.outside: list[str] = []
        self.failed: list[str] = []
        self.fetched: set[str] | None = None

    def watch(self, context, base: str) -> None:
        def request(r) -> None:
            if not r.url.startswith((base, "data:", "blob:")):
                self.outside.append(r.url)
            elif self.fetched is not None:
                self.fetched.add(r.url)

        context.on("request", request)
        context.on("requestfailed", lambda r: self.failed.append(f"{r.failure} {r.url}"))
        context.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))

    def new_context(self, browser, base: str):
        context = browser.new_context(viewport=VIEWPORT)
        self.watch(context, base)
        return context

    @contextlib.contextmanager
    def new_profile(self, playwright, base: str):
        """A browser with a new profile of its own (a folder, removed afterwards), as a
        reader's: it keeps its HTTP cache and its compiled-code cache from visit to visit."""
        with tempfile.TemporaryDirectory() as folder:
            context = playwright.chromium.launch_persistent_context(
                folder,
                executable_path=chromium_path(),
                args=[*CHROMIUM_ARGS, NO_OTHER_HOSTS],
                viewport=VIEWPORT,
            )
            self.watch(context, base)
            try:
                yield context
            finally:
                context.close()


def browser_cpu() -> float:
    """CPU-seconds (user + system) of every Chromium process this benchmark started."""
    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "chrom" in proc.name().lower():
                times = proc.cpu_times()
                total += times.user + times.system
    return total


def time_to_board(context, url: str):
    """Seconds from the request for `url` until the first board cell is visible, the reader's
    CPU-seconds meanwhile (every Chromium process), and the page."""
    page = context.new_page()
    cpu = browser_cpu()
    start = time.monotonic()
    page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(BOARD, state="visible", timeout=PAGE_TIMEOUT)
    return time.monotonic() - start, max(0.0, browser_cpu() - cpu), page


# --- a browser nothing is attached to ----------------------------------------------------
#: the board's first cell, visible as Playwright means it (a box, not visibility:hidden): the
#: page's clock then (ms since the navigation started), else 0
BOARD_SHOWN = """(() => { const cell = document.querySelector('.re-board [data-cell]');
    if (!cell) return 0; const box = cell.getBoundingClientRect();
    const shown = box.width > 0 && box.height > 0 && getComputedStyle(cell).visibility !== 'hidden';
    return shown ? performance.now() : 0; })()"""
POLL = 0.02  # seconds between two looks at the page


class PlainChromium:
    """Chromium started by this benchmark in a profile folder of its own, with the project's
    flags, and driven over the DevTools protocol's session of each page alone, as near a
    reader's browser as a benchmark gets: nothing attaches to the page's workers, no event is
    sent out. (Playwright launches Chromium with flags of its own, attaches to every page and
    worker, holding each new worker until its instrumentation is set up, and reports every
    request: here that made a page load 0.8-1 s longer, the static site's and Voilà's alike;
    see docs/publishing.md.)"""

    def __init__(self, folder: str) -> None:
        self.proc = subprocess.Popen(
            [
                chromium_path(),
                "--headless",
                *CHROMIUM_ARGS,
                NO_OTHER_HOSTS,
                "--remote-debugging-port=0",  # Chromium writes the port it took into the profile
                f"--user-data-dir={folder}",
                f"--window-size={VIEWPORT['width']},{VIEWPORT['height']}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.devtools = self._devtools(Path(folder) / "DevToolsActivePort")
        self.ids = itertools.count(1)

    def _devtools(self, port_file: Path) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, IndexError):
                address = f"http://127.0.0.1:{int(port_file.read_text().split()[0])}"
                urllib.request.urlopen(f"{address}/json/version", timeout=5).close()
                return address
            time.sleep(0.05)
        raise RuntimeError("bench_static: Chromium opened no DevTools port within 60 s")

    def _ask(self, path: str, method: str = "GET") -> bytes:
        """An answer of Chromium's DevTools HTTP endpoints (JSON, or a line of text)."""
        request = urllib.request.Request(self.devtools + path, method=method)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.read()

    def _call(self, socket, method: str, **params) -> dict:
        """Send one DevTools command to a page and return its answer (events are dropped)."""
        sent = next(self.ids)
        socket.send(json.dumps({"id": sent, "method": method, "params": params}))
        while True:
            message = json.loads(socket.recv())
            if message.get("id") == sent:
                if "error" in message:
                    raise RuntimeError(f"bench_static: {method}: {message['error']}")
                return message["result"]

    def time_to_board(self, url: str) -> tuple[float, float]:
        """In a new tab: seconds from the request for `url` until the first board cell is
        visible (looked at every POLL seconds), and the reader's CPU-seconds meanwhile; the tab
        is closed a second after the board."""
        tab = json.loads(self._ask("/json/new?about:blank", method="PUT"))
        try:
            with connect(tab["webSocketDebuggerUrl"], max_size=None) as socket:
                cpu = browser_cpu()
                start = time.monotonic()
                self._call(socket, "Page.navigate", url=url)
                while time.monotonic() - start < PAGE_TIMEOUT / 1000:
                    answer = self._call(
                        socket, "Runtime.evaluate", expression=BOARD_SHOWN, returnByValue=True
                    )
                    if answer["result"].get("value"):
                        elapsed, cpu = time.monotonic() - start, max(0.0, browser_cpu() - cpu)
                        time.sleep(1)  # the page's work after the board (a kernel's last cells)
                        return elapsed, cpu
                    time.sleep(POLL)
                raise RuntimeError(f"bench_static: no board at {url} within {PAGE_TIMEOUT / 1000:.0f} s")
        finally:
            self._ask(f"/json/close/{tab['id']}")  # "Target is closing"

    def close(self) -> None:
        """Stop Chromium and wait for every process it started (they write to the profile
        until they end)."""
        helpers = []
        with contextlib.suppress(psutil.Error):
            helpers = psutil.Process(self.proc.pid).children(recursive=True)
        stop(self.proc)
        psutil.wait_procs(helpers, timeout=10)


def plain_profile(url: str, loads: list[Loads], label: str) -> None:
    """One new profile in PlainChromium visiting `url` once for each of `loads` (a new tab
    each, the last one closed)."""
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        browser = PlainChromium(folder)
        try:
            for visit, into in enumerate(loads, 1):
                elapsed, cpu = browser.time_to_board(url)
                into.add(elapsed, cpu)
                progress(f"{label}, visit {visit}: {elapsed:.2f} s, {cpu:.1f} CPU-s")
                time.sleep(1)  # a closed page's kernel (server mode) is shut down
        finally:
            browser.close()


#: (resources the page fetched, how many of them came from the browser's cache: 0 bytes sent)
CACHED = """() => { const r = performance.getEntriesByType('resource');
    return [r.length, r.filter(e => e.transferSize === 0).length]; }"""


class Loads:
    """Page loads: seconds to the board and the reader's CPU-seconds, per load."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.cpu: list[float] = []

    def add(self, seconds: float, cpu: float) -> None:
        self.seconds.append(seconds)
        self.cpu.append(cpu)


def static_loads(browser, visits: Visits, base: str, repeat: int) -> tuple[Loads, Loads, set[str], list[int]]:
    """`repeat` cold loads (each in a fresh context), each followed by a warm one in the same
    context (the cold page closed, a new page opened); the files the first cold load fetched,
    and over the warm loads [resources, of which from the cache]."""
    cold, warm, cached = Loads(), Loads(), [0, 0]
    url = base + STATIC_PAGE
    fetched: set[str] = set()
    for i in range(repeat):
        context = visits.new_context(browser, base)
        visits.fetched = fetched if i == 0 else None
        elapsed, cpu, page = time_to_board(context, url)
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=15_000)
        visits.fetched = None
        cold.add(elapsed, cpu)
        progress(f"static cold load {i + 1}/{repeat}: {elapsed:.2f} s, browser {cpu:.1f} CPU-s")
        page.close()
        elapsed, cpu, page = time_to_board(context, url)
        warm.add(elapsed, cpu)
        cached = [a + b for a, b in zip(cached, page.evaluate(CACHED), strict=True)]
        progress(f"static warm load {i + 1}/{repeat}: {elapsed:.2f} s, browser {cpu:.1f} CPU-s")
        context.close()
    return cold, warm, fetched, cached


VISITS_IN_A_PROFILE = 3  # the first, the second and a returning reader's


def playwright_profile(
    playwright, visits: Visits, base: str, url: str, loads: list[Loads], label: str
) -> None:
    """One new browser profile driven by Playwright visiting `url` once for each of `loads`
    (each page closed before the next visit)."""
    with visits.new_profile(playwright, base) as context:
        for visit, into in enumerate(loads, 1):
            elapsed, cpu, page = time_to_board(context, url)
            into.add(elapsed, cpu)
            progress(f"{label}, visit {visit}: {elapsed:.2f} s, {cpu:.1f} CPU-s")
            with contextlib.suppress(Exception):
                page.wait_for_load_state("networkidle", timeout=15_000)
            page.close()
            time.sleep(1)  # a closed page's kernel (server mode) is shut down


def profile_loads(
    playwright, visits: Visits, base: str, url: str, repeat: int, name: str
) -> tuple[list[Loads], list[Loads]]:
    """`repeat` new browser profiles driven by Playwright and `repeat` in PlainChromium, taking
    turns (the machine's speed drifts), each visiting `url` VISITS_IN_A_PROFILE times: the
    loads of each visit (first, second, third), Playwright's and PlainChromium's."""
    driven = [Loads() for _ in range(VISITS_IN_A_PROFILE)]
    plain = [Loads() for _ in range(VISITS_IN_A_PROFILE)]
    for i in range(repeat):
        playwright_turn = functools.partial(
            playwright_profile, playwright, visits, base, url, driven, f"{name}, Playwright, profile {i + 1}"
        )
        plain_turn = functools.partial(
            plain_profile, url, plain, f"{name}, nothing attached, profile {i + 1}"
        )
        for turn in (playwright_turn, plain_turn) if i % 2 == 0 else (plain_turn, playwright_turn):
            turn()
    return driven, plain


def visitor_costs(
    browser, visits: Visits, base: str, url: str, pid: int, keep_open: bool, name: str
) -> list[tuple[float, float, int]]:
    """Usage of the server at `pid` before and after each of VISITORS sequential cold visitors
    (fresh contexts), each visit's work done first; with `keep_open` every page stays open
    until the last has been measured (each holds a kernel)."""
    settle(pid)
    samples = [usage(pid)]
    contexts = []
    for i in range(VISITORS):
        context = visits.new_context(browser, base)
        elapsed, _cpu, page = time_to_board(context, url)
        with contextlib.suppress(Exception):
            page.wait_for_load_state("networkidle", timeout=15_000)
        settle(pid)
        samples.append(usage(pid))
        progress(
            f"{name} visitor {i + 1}/{VISITORS}: board in {elapsed:.2f} s, server "
            f"{samples[-1][0]:.2f} CPU-s, {samples[-1][1]:.0f} MiB, {samples[-1][2]} process(es)"
        )
        if keep_open:
            contexts.append(context)
        else:
            context.close()
    for context in contexts:
        context.close()
    return samples


# --- the site on disk --------------------------------------------------------------------
def site_files(site: Path) -> dict[str, tuple[int, int]]:
    """Every file of the site (path relative to it) with its size and its gzip -6 size."""
    sizes = {}
    for folder, _dirs, names in os.walk(site):
        for name in names:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            data = path.read_bytes()
            sizes[path.relative_to(site).as_posix()] = (len(data), len(gzip.compress(data, compresslevel=6)))
    return sizes


def mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def fetched_files(urls: set[str], base: str, sizes: dict[str, tuple[int, int]]) -> tuple[int, int, int]:
    """How many of `urls` are files of the site, and their sizes (raw, gzipped)."""
    count = raw = packed = 0
    for url in urls:
        path = urllib.parse.unquote(urllib.parse.urlsplit(url[len(base) - 1 :]).path).lstrip("/")
        if path in sizes:
            count += 1
            raw += sizes[path][0]
            packed += sizes[path][1]
    return count, raw, packed


# --- the report --------------------------------------------------------------------------
def spread(loads: Loads) -> str:
    times = loads.seconds
    return (
        f"{statistics.median(times):6.2f} s  (min {min(times):.2f}, max {max(times):.2f}, n={len(times)}); "
        f"browser {statistics.median(loads.cpu):4.1f} CPU-s"
    )


def verdict(loads: Loads, goal: float) -> str:
    met = statistics.median(loads.seconds) <= goal
    return f"goal <= {goal:.0f} s: {'met' if met else 'NOT met'}"


def load_average() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


def cost_table(name: str, samples: list[tuple[float, float, int]]) -> None:
    print(f"  {name}")
    print("    visitors   server CPU-s total   server memory MiB   processes")
    for visitors, (cpu, rss, count) in enumerate(samples):
        print(f"    {visitors:8d}   {cpu:18.2f}   {rss:17.0f}   {count:9d}")
    first_cpu, first_rss = samples[1][0] - samples[0][0], samples[1][1] - samples[0][1]
    extra_cpu = (samples[-1][0] - samples[1][0]) / (len(samples) - 2)
    extra_rss = (samples[-1][1] - samples[1][1]) / (len(samples) - 2)
    print(
        f"    first visitor: +{first_cpu:.2f} CPU-s, {first_rss:+.0f} MiB; "
        f"each extra visitor: +{extra_cpu:.2f} CPU-s, {extra_rss:+.0f} MiB"
    )


def profile_report(static: list[Loads], server: list[Loads] | None) -> None:
    """The static site's three visits in new profiles, each against its goal, and beside them
    the server mode's lone visitor (first and third visit) with the ratios."""
    first, second, returning = static
    print(f"    static, first visit (cold):           {spread(first)}   {verdict(first, GOAL_COLD)}")
    print(f"    static, second visit:                 {spread(second)}")
    print(f"    static, third visit (warm, returning): {spread(returning)}   {verdict(returning, GOAL_WARM)}")
    if server:
        print(f"    server mode, lone visitor, first visit (peer): {spread(server[0])}")
        print(f"    server mode, lone visitor, third visit (peer): {spread(server[2])}")
        medians = [
            (statistics.median(a.seconds), statistics.median(b.seconds))
            for a, b in zip(static, server, strict=True)
        ]
        ratios = [mine / theirs for mine, theirs in medians]
        print(f"    static cold / warm = {ratios[0]:.1f}x / {ratios[2]:.1f}x the server mode's lone visitor")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--site", type=Path, help="an already built site (default: build one into a temp dir)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="page loads per figure (default 5)")
    parser.add_argument("--skip-voila", action="store_true", help="measure the static site only")
    args = parser.parse_args()
    if chromium_path() is None:
        sys.exit("bench_static: Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        if args.site:
            site, built = args.site.resolve(), None
            if not (site / STATIC_PAGE).is_file():
                sys.exit(
                    f"bench_static: {site} holds no {STATIC_PAGE}: build it with python -m publish --static"
                )
        else:
            from publish.static_site import build

            site = Path(stack.enter_context(tempfile.TemporaryDirectory())) / "site"
            progress(f"building the static site into {site}")
            start = time.monotonic()
            build(site)
            built = time.monotonic() - start
        loads_before = load_average()
        progress(f"sizing the site's files ({loads_before})")
        sizes = site_files(site)

        static_visits, voila_visits = Visits(), Visits()
        p = stack.enter_context(sync_playwright())
        browser = launch(p)
        with static_server(site) as (base, proc):
            driven, plain = profile_loads(p, static_visits, base, base + STATIC_PAGE, args.repeat, "static")
            cold, warm, fetched, cached = static_loads(browser, static_visits, base, args.repeat)
            fetched_count, fetched_raw, fetched_packed = fetched_files(fetched, base, sizes)
        with static_server(site) as (base, proc):
            static_costs = visitor_costs(
                browser, static_visits, base, base + STATIC_PAGE, proc.pid, False, "static"
            )
        lone = voila_costs = plain_lone = None
        if not args.skip_voila:
            # `voila notebooks/explorer.ipynb` serves the notebook itself at its root; the published
            # page template, as ./run dashboard and ./run publish serve it
            with voila(VOILA_NOTEBOOK, published=True) as url:
                lone, plain_lone = profile_loads(p, voila_visits, url, url, args.repeat, "Voilà")
            with voila(VOILA_NOTEBOOK, published=True) as url:
                voila_costs = visitor_costs(browser, voila_visits, url, url, voila_pid(url), True, "Voilà")
        browser.close()

    print(f"Static site (issue #25): {site}" + (f", built in {built:.0f} s" if built is not None else ""))
    print(f"  machine: {loads_before} at the start, {load_average()} at the end")
    print()
    print("1. Page load to the explorer's first board")
    for how, static, server in (
        ("driven by Playwright (its flags; every page and worker attached)", driven, lone),
        ("driven over the page's DevTools session alone (PlainChromium)", plain, plain_lone),
    ):
        print(f"  in a browser profile {how}:")
        profile_report(static, server)
    print("  in a private window (an HTTP cache, no compiled-code cache):")
    print(f"    static, cold (fresh context):         {spread(cold)}")
    print(f"    static, again (same context):         {spread(warm)}")
    print(
        f"    the second loads: {cached[1]} of {cached[0]} resources came from the HTTP cache (0 bytes sent)"
    )
    print("  (browser CPU-s: every Chromium process, from the request to the board, median)")
    for name, visits in (("static", static_visits), ("server mode", voila_visits))[
        : 1 if args.skip_voila else 2
    ]:
        print(
            f"  {name}, every page Playwright drove: {len(visits.outside)} requests to other hosts, "
            f"{len(visits.failed)} failed requests"
        )
        for failure in list(dict.fromkeys(visits.outside + visits.failed))[:5]:
            print(f"    {failure}")
    print()
    raw, packed = sum(s[0] for s in sizes.values()), sum(s[1] for s in sizes.values())
    print("2. The site's size")
    print(f"  {len(sizes)} files, {mb(raw)} on disk, {mb(packed)} gzipped (each file at level 6)")
    print(
        f"  a cold visitor of the explorer fetched {fetched_count} of them: {mb(fetched_raw)}, "
        f"{mb(fetched_packed)} gzipped"
    )
    print("  largest files:")
    for path, (size, gz) in sorted(sizes.items(), key=lambda item: -item[1][0])[:5]:
        print(f"    {mb(size):>9s}  ({mb(gz)} gzipped)  {path}")
    print()
    print(f"3. The server per visitor ({VISITORS} sequential cold visitors, fresh contexts)")
    cost_table("static: SiteHandler file server (own process; pages closed after each visit)", static_costs)
    if voila_costs:
        cost_table("server mode: Voilà + its kernels (each visitor's page kept open)", voila_costs)


if __name__ == "__main__":
    main()
