"""The explorer's Analysis switch: time to a first evaluation, how often it refreshes, and
what a search running in the background costs the page's clicks.

    python benchmarks/bench_explorer_analysis.py [--seconds 5] [--clicks 20]

For every game (the explorer headless, all-seeing, each game's default engine on this
machine):

- first: from switching Analysis on to the first evaluation shown (the bar filled), with the
  engine not yet open in this process (cold: Fairy-Stockfish starts and passes its check)
  and again on the next position (warm). Goal: <= 1 s.
- refresh: bar updates per second while the search deepens for `--seconds`.
- clicks: the time the page takes to answer a click on a piece (its legal targets found and
  drawn; where every move is one click, a redraw of the page), median over `--clicks`, with
  the search running in its thread beside the same clicks with Analysis off (the peer, in
  the same run): the ratio is what the background search costs the page (both share one
  interpreter).
Figures only: no test times anything.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

import rules_kernel as rk
from rules_kernel.analysis import close_engines
from widgets.explorer import ALL_SEEING, Explorer

GAMES = [("yokai-3x4", {}), ("yokai-5x6", {}), ("war-stories", {}), ("to-war", {}), ("war-chest", {})]


def wait_for_result(explorer: Explorer, timeout: float = 60.0) -> float:
    start = time.perf_counter()
    while explorer.analysis.result is None:
        if time.perf_counter() - start > timeout:
            raise TimeoutError("no evaluation")
        time.sleep(0.002)
    return time.perf_counter() - start


def refreshes_per_second(explorer: Explorer, seconds: float) -> tuple[float, str]:
    """Count the bar's changes while the search runs for `seconds`."""
    seen, changes, end = explorer.analysis.bar.value, 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        value = explorer.analysis.bar.value
        if value != seen:
            seen, changes = value, changes + 1
        time.sleep(0.005)
    return changes / seconds, explorer.analysis.info.value


def click_times(explorer: Explorer, clicks: int) -> tuple[list[float], str]:
    """Click the first cell of a move of two or more cells (a selection: its targets found and
    drawn), then clear it; a game whose moves are all one click (a flip, a placement) has its
    page redrawn instead (the work a click that plays asks of the page)."""
    cell = next((m.cells[0] for m in explorer.state.legal_moves() if len(m.cells) > 1), None)
    times = []
    for _ in range(clicks):
        start = time.perf_counter()
        if cell is None:
            explorer.refresh()
        else:
            explorer.click(cell)
        times.append(time.perf_counter() - start)
        if cell is not None:
            explorer.clear_selection()
    return times, "a redraw" if cell is None else "a click"


def measure(game_id: str, options: dict, seconds: float, clicks: int) -> None:
    explorer = Explorer(game_id, seed=1, analysis_seconds=max(seconds * 3, 30), **options)
    explorer.perspective.value = ALL_SEEING
    times, what = click_times(explorer, clicks)
    quiet = statistics.median(times)
    explorer.analysis.switch.value = True
    cold = wait_for_result(explorer)
    rate, info = refreshes_per_second(explorer, seconds)
    busy = statistics.median(click_times(explorer, clicks)[0])
    explorer.play(explorer.state.legal_moves()[0])
    warm = wait_for_result(explorer)
    explorer.analysis.switch.value = False
    engine = explorer.analysis.engine or "?"
    print(
        f"{game_id:12} {engine:16} first {cold * 1000:7.0f} ms cold, {warm * 1000:5.0f} ms warm;"
        f" {rate:4.1f} refreshes/s; {what} {busy * 1000:6.1f} ms while searching,"
        f" {quiet * 1000:6.1f} ms off (peer) ratio {busy / quiet:4.2f}"
    )
    print(f"{'':12} after {seconds:g} s: {strip_tags(info)}")


def strip_tags(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each search is watched")
    parser.add_argument("--clicks", type=int, default=20)
    args = parser.parse_args()
    print("== the explorer's Analysis switch: first evaluation (goal <= 1 s), refresh rate, clicks")
    for game_id, options in GAMES:
        rk.load_game(game_id)  # an unknown game fails before any timing
        measure(game_id, options, args.seconds, args.clicks)
    close_engines()


if __name__ == "__main__":
    main()
