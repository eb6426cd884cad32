"""Load on the publishing mode (issue #13 item 4): concurrent Chromium sessions on the explorer,
then plain GETs, against `python -m publish` on 127.0.0.1.

    python benchmarks/bench_load.py [--sessions 20] [--gets 50] [--cull-idle-timeout 30]

Prints, for one session alone (the peer) and for N sessions at once: how many drew the board,
p50/p95 time-to-board (navigation start to the first board cell, measured in each page) and their
ratio to the lone session; memory per kernel (RSS and USS, psutil); how long the closed
sessions' kernels lived on (the culler, against the configured timeout); and for plain GETs (no
JavaScript, so no kernel connection ever) how many got the page, how many the busy page, the most
kernels alive at once, and how long until they were culled. All traffic goes to 127.0.0.1; the
number of sessions and requests and every wait are bounded.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import statistics
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import launch, published  # noqa: E402

BOARD = ".re-board [data-cell]"
# Each page notes when the explorer's board first has a cell (ms since its navigation started).
RECORD_BOARD_TIME = """
new MutationObserver((_, observer) => {
    if (document.querySelector('BOARD')) { window.__boardAt = performance.now(); observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
""".replace("BOARD", BOARD)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def kernel_memory(site) -> list[tuple[float, float]]:
    """(RSS, USS) in MiB of every live kernel."""
    import psutil

    sizes = []
    for pid in site.kernel_pids():
        try:
            info = psutil.Process(pid).memory_full_info()
        except psutil.Error:
            continue
        sizes.append((info.rss / 2**20, info.uss / 2**20))
    return sizes


def only_local(route) -> None:
    if route.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
        route.continue_()
    else:
        route.abort()


def open_sessions(browser, url: str, count: int, timeout_s: float):
    """Open `count` explorer pages at once, each in its own browser context (a visitor of its
    own: one context would share Chromium's six connections per host among all pages); return
    (contexts, times-to-board in s, failures)."""
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(count)]
    pages = []
    for context in contexts:
        context.add_init_script(RECORD_BOARD_TIME)
        context.route("**/*", only_local)
        pages.append(context.new_page())
    for page in pages:
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    deadline = time.monotonic() + timeout_s
    times, failures = [], 0
    for page in pages:
        remaining = max(1.0, deadline - time.monotonic())
        try:
            page.wait_for_selector(BOARD, timeout=remaining * 1000)
            times.append(page.evaluate("window.__boardAt") / 1000)
        except Exception:  # noqa: BLE001 - a page that never drew its board is counted, not fatal
            failures += 1
    return contexts, times, failures


def close_all(contexts) -> None:
    for context in contexts:
        context.close()


def plain_get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=300) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def run_gets(site, url: str, count: int) -> tuple[dict[int, int], int]:
    """`count` GETs, ten at a time; the answers by status and the most kernels seen alive."""
    most = 0
    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        futures = [pool.submit(plain_get, url) for _ in range(count)]
        while not all(f.done() for f in futures):
            most = max(most, len(site.kernel_pids()))
            time.sleep(0.5)
    codes: dict[int, int] = {}
    for future in futures:
        codes[future.result()] = codes.get(future.result(), 0) + 1
    return codes, max(most, len(site.kernel_pids()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--gets", type=int, default=50)
    parser.add_argument("--max-kernels", type=int, default=24)
    parser.add_argument("--cull-idle-timeout", type=int, default=10)
    parser.add_argument("--cull-interval", type=int, default=2)
    parser.add_argument(
        "--connect-timeout",
        type=int,
        default=300,
        help="seconds a never-connected kernel may live (publishing default: 120). "
        "Longer here: the 20 browsers run on the server's own cores and take "
        "up to ~220 s to load Voilà's JavaScript (docs/publishing.md)",
    )
    parser.add_argument("--page-timeout", type=float, default=420, help="seconds for all boards to appear")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    # Only the pages of this experiment are preheated (the default also preheats the
    # statistics and explainer pages, one idle kernel each, which no session here opens).
    options = [
        "--preheat",
        "index.ipynb",
        "--preheat",
        "explorer.ipynb",
        "--max-kernels",
        str(args.max_kernels),
        "--cull-idle-timeout",
        str(args.cull_idle_timeout),
        "--cull-interval",
        str(args.cull_interval),
        "--connect-timeout",
        str(args.connect_timeout),
    ]
    cull_deadline = max(args.cull_idle_timeout, args.connect_timeout) + 2 * args.cull_interval + 60
    with published(*options) as site, sync_playwright() as p:
        site.wait_for_log("is filled with 1 kernel(s)", timeout=180, count=2)
        preheated = len(site.kernel_pids())
        explorer = site.url + "voila/render/explorer.ipynb"
        browser = launch(p)

        alone, alone_times, _ = open_sessions(browser, explorer, 1, args.page_timeout)
        close_all(alone)
        site.wait_for_kernels(at_most=preheated, timeout=cull_deadline)
        site.wait_for_log("is filled with 1 kernel(s)", timeout=180, count=3)  # pool refilled

        contexts, times, failures = open_sessions(browser, explorer, args.sessions, args.page_timeout)
        memory = kernel_memory(site)
        alive = len(site.kernel_pids())
        close_all(contexts)
        culled_after = site.wait_for_kernels(at_most=preheated, timeout=cull_deadline)
        browser.close()

        codes, most = run_gets(site, explorer, args.gets)
        gets_culled_after = site.wait_for_kernels(at_most=preheated, timeout=cull_deadline)

    print(
        f"Publishing mode under load (max {args.max_kernels} kernels, cull after "
        f"{args.cull_idle_timeout} s idle, culler every {args.cull_interval} s)"
    )
    if alone_times:
        print(f"  1 session alone (peer):        time-to-board {alone_times[0]:6.2f} s")
    print(
        f"  {args.sessions} sessions at once:           {len(times)}/{args.sessions} drew the board, "
        f"{failures} did not"
    )
    if times:
        p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
        ratio = (
            f" = {p50 / alone_times[0]:.1f}x / {p95 / alone_times[0]:.1f}x the lone session"
            if alone_times
            else ""
        )
        print(f"  time-to-board p50 / p95:       {p50:6.2f} s / {p95:6.2f} s{ratio}")
        print(f"  (min {min(times):.2f} s, mean {statistics.fmean(times):.2f} s, max {max(times):.2f} s)")
    if memory:
        rss, uss = [m[0] for m in memory], [m[1] for m in memory]
        print(
            f"  memory per kernel ({len(memory)} alive): RSS median {statistics.median(rss):.0f} MiB "
            f"(max {max(rss):.0f}), USS median {statistics.median(uss):.0f} MiB (max {max(uss):.0f})"
        )
    print(f"  kernels alive with the sessions open: {alive} (preheated pool: {preheated})")
    print(
        f"  after the sessions closed: culled back to {preheated} in {culled_after:.0f} s "
        f"(configured: {args.cull_idle_timeout} s idle + up to 2 x {args.cull_interval} s)"
    )
    answers = ", ".join(f"{n} x HTTP {code}" for code, n in sorted(codes.items()))
    print(
        f"  {args.gets} plain GETs: {answers}; at most {most} kernels alive at once; "
        f"culled back to {preheated} in {gets_culled_after:.0f} s (configured: never-connected kernels "
        f"after {args.connect_timeout} s)"
    )


if __name__ == "__main__":
    main()
