"""Game collections at scale: importing simulated Yōkai 3x4 games, beside pandas alone.

    python benchmarks/bench_collection.py                  # 5,000 games, about a minute
    python benchmarks/bench_collection.py --games 100000   # the issue's figure (issue 47 item 5)
    python benchmarks/bench_collection.py --work /tmp/bench-coll   # keep and reuse the games

The games are made first with `rules-explorer simulate yokai-3x4 -n N` (random agents, all
cores; not part of any figure; kept in --work and reused when it holds as many). Then, each
in a fresh process so that its peak memory (VmHWM) is its own:

- **collection import**: `rules_kernel.collection.import_collection` of the JSON Lines file:
  every game replayed and checked by the rules, each move put in words, each position's text,
  three Parquet tables written; on one process, then on all cores (`workers=0`);
- **pandas alone**: the same file into the same kind of tables with pandas and no rules: the
  lines parsed with `json.loads`, a games frame, a moves frame (one row per action's
  notation), written with `to_parquet`; nothing checked, no words, no positions (the rules are
  what it leaves out);
- **queries**: "which moves were played from this position, how often, how they scored" on
  the collection, for the start position and for a position of the middle game: with
  `Collection.from_position` (the panel's query: by key in from_here.parquet, the moves in
  words, the score's interval; no engine), with a plain DuckDB join over the three tables
  (`Collection.sql`), and with pandas on the loaded frames (`merge` and `groupby`), the best
  of 5 runs each.

Printed: games/s and peak memory of each load, the tables' sizes, the queries' milliseconds
(with the number of different moves and how often they were played from there).
The issue's goals (import ≥ 2,000 games/s on 2 cores, a from-position query ≤ 100 ms, under
1 GB) are printed beside the figures.

Figures on the development machine (2 cores, quiet), 2026-12-07, `--games 20000` (257,016
moves; the games reused from --work; each figure includes its process's start and imports):

    load of 20,000 games                 games/s  seconds  peak MiB  on disk MiB
    collection import, 1 process           2,964     6.75       485          6.3
    collection import, 2 processes         5,109     3.91       624          6.3
    pandas alone (no rules)               49,448     0.40       190          0.6

    moves from a position              ms (best of 5)  moves  played
    from_position start                           9.3      4  20,306
    duckdb sql start                             28.1      5  20,410
    from_position middle                          8.5      5   1,350
    duckdb sql middle                            24.1      5   1,361
    pandas start                                 21.8      5  20,410
    pandas middle                                16.7      5   1,361

And `--games 100000` (1,275,325 moves), the issue's size, the same day:

    load of 100,000 games                games/s  seconds  peak MiB  on disk MiB
    collection import, 1 process           3,229    30.97       556         30.2
    collection import, 2 processes         5,829    17.15       742         30.2
    pandas alone (no rules)               55,972     1.79       421          3.1

    moves from a position              ms (best of 5)  moves  played
    from_position start                          12.5      4 101,546
    duckdb sql start                             77.0      6 102,064
    from_position middle                         10.9      5   6,764
    duckdb sql middle                            68.1      5   6,816
    pandas start                                 67.8      6 102,064
    pandas middle                                43.1      5   6,816

(with the index's sort at 512 MB and 200,000 Yōkai positions kept, the 2-process peak was
1,170 MiB: over 1 GB.)

The import before Yōkai kept what the rules say of each position across games (commit
8ee3c93), run just before on the same machine: 1,993 games/s on 1 process and 3,107 on 2
(peak 520 and 646 MiB), so 1.49x and 1.64x faster now. Per process, the old and the new code
on the same four slices of 5,000 games, each in a fresh process with its imports done first,
interleaved: 2,216 and 3,346 games/s (1.51x). The earlier figures (770 and 1,233 games/s,
commit afcd226) were taken on a slower machine (pandas alone: 20,767 games/s there); the same
ratios make about 1,150 and 2,000 games/s on it. So on 2 cores the import passes the issue's
2,000 games/s here, and is at about that on the slower machine (an estimate, not a figure);
memory is under 1 GB; `from_position` (by key in from_here.parquet) is well under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
START = "gle/1c1/1C1/ELG[] w - -"
FROM_HERE = """
    select m.text, count(*) as n,
           avg(case when g.winner = m.mover then 1.0 when g.winner is null then 0.5 else 0 end) as score
    from positions p
    join moves m on m.game_id = p.game_id and m.ply = p.ply + 1
    join games g on g.game_id = p.game_id
    where p.position = ?
    group by m.text order by n desc"""


def peak_mib() -> float:
    """This process's peak resident memory (VmHWM), in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_import(source: str, output: str, workers: str) -> dict:
    import resource

    from rules_kernel.collection import import_collection

    began = time.perf_counter()
    report = import_collection([source], output, progress=False, workers=int(workers))
    seconds = time.perf_counter() - began
    # the largest worker process's peak (Linux: kilobytes); none with one process
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    processes = int(workers) or os.cpu_count() or 1
    peak = peak_mib() + (worker * processes if processes > 1 else 0)
    return {"seconds": seconds, "games": report.games, "moves": report.moves, "peak": peak}


def child_pandas(source: str, output: str) -> dict:
    import pandas as pd

    began = time.perf_counter()
    games, moves = [], {"game_id": [], "ply": [], "notation": []}
    with open(source, encoding="utf-8") as lines:
        for game_id, line in enumerate(lines):
            data = json.loads(line)
            result = data.get("result") or {}
            players = [p.get("name") for p in data.get("players", [])]
            actions = data["actions"]
            games.append(
                {
                    "game_id": game_id,
                    "game": data["game"],
                    "player_1": players[0] if players else None,
                    "player_2": players[1] if len(players) > 1 else None,
                    "winner": result.get("winner"),
                    "reason": result.get("reason"),
                    "plies": len(actions),
                }
            )
            moves["game_id"].extend([game_id] * len(actions))
            moves["ply"].extend(range(1, len(actions) + 1))
            moves["notation"].extend(a if isinstance(a, str) else a["chance"] for a in actions)
    os.makedirs(output, exist_ok=True)
    pd.DataFrame(games).to_parquet(Path(output, "games.parquet"), index=False)
    pd.DataFrame(moves).to_parquet(Path(output, "moves.parquet"), index=False)
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "games": len(games), "moves": len(moves["ply"]), "peak": peak_mib()}


def child_queries(collection: str) -> dict:
    import rules_kernel as rk

    found = rk.Collection(collection)
    # a position of the middle game: the one most often reached at ply 6
    middle = found.sql(
        "select position from positions where ply = 6 group by position order by count(*) desc limit 1"
    )["position"][0]
    timings = {}
    game = rk.load_game("yokai-3x4")
    for label, position in (("start", START), ("middle", middle)):
        state = game.from_text(position + " 0 1")  # the table's text has no move counters
        found.from_position(state, engine=None)  # its first call imports scipy.stats: not timed
        best = float("inf")
        for _ in range(5):
            began = time.perf_counter()
            rows = found.from_position(state, engine=None)
            best = min(best, time.perf_counter() - began)
        timings[f"from_position {label}"] = (best * 1000, len(rows), int(rows["n"].sum()))
        best = float("inf")
        for _ in range(5):
            began = time.perf_counter()
            rows = found.sql(FROM_HERE, [position])
            best = min(best, time.perf_counter() - began)
        timings[f"duckdb sql {label}"] = (best * 1000, len(rows), int(rows["n"].sum()))
    began = time.perf_counter()
    positions, moves, games = found.positions, found.moves, found.games
    load = time.perf_counter() - began
    for label, position in (("start", START), ("middle", middle)):
        best = float("inf")
        for _ in range(5):
            began = time.perf_counter()
            here = positions[positions["position"] == position][["game_id", "ply"]]
            here = here.assign(ply=here["ply"] + 1)
            played = here.merge(moves, on=["game_id", "ply"]).merge(
                games[["game_id", "winner"]], on="game_id"
            )
            mover_won = (played["winner"] == played["mover"]).astype(float)
            score = mover_won.where(played["winner"].notna(), 0.5)
            rows = played.assign(score=score).groupby("text").agg(n=("ply", "size"), score=("score", "mean"))
            best = min(best, time.perf_counter() - began)
        timings[f"pandas {label}"] = (best * 1000, len(rows), int(rows["n"].sum()))
    return {"timings": timings, "pandas_load": load * 1000, "peak": peak_mib()}


def run_child(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, str(HERE), "--child", *args], check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def make_games(work: Path, count: int) -> Path:
    path = work / f"yokai-3x4-{count}.jsonl"
    if path.exists() and sum(1 for _ in path.open("rb")) == count:
        print(f"games: {count:,} in {path} (reused)")
        return path
    path.unlink(missing_ok=True)
    began = time.perf_counter()
    command = [sys.executable, "-m", "rules_kernel.cli", "simulate", "yokai-3x4", "-n", str(count)]
    subprocess.run(
        [*command, "--seed", "1", "--workers", "0", "-o", str(path)], check=True, capture_output=True
    )
    print(f"games: {count:,} simulated into {path} in {time.perf_counter() - began:.1f} s (not measured)")
    return path


def size_mib(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.iterdir()) / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="how many games (default 5,000)")
    parser.add_argument("--work", help="a folder to keep the simulated games in (default: a temporary one)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        found = {"import": child_import, "pandas": child_pandas, "queries": child_queries}[kind](*rest)
        print(json.dumps(found))
        return
    with tempfile.TemporaryDirectory(prefix="bench-collection-") as scratch:
        work = Path(args.work) if args.work else Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        source = make_games(work, args.games)
        collection, plain = Path(scratch, "collection"), Path(scratch, "pandas")
        ours = run_child("import", str(source), str(collection), "1")
        cores = os.cpu_count() or 1
        spread = run_child("import", str(source), str(Path(scratch, "spread")), "0")
        peer = run_child("pandas", str(source), str(plain))
        title = f"load of {args.games:,} games"
        print(f"\n{title:34} {'games/s':>9} {'seconds':>8} {'peak MiB':>9} {'on disk MiB':>12}")
        for label, found, folder in (
            ("collection import, 1 process", ours, collection),
            (f"collection import, {cores} processes", spread, Path(scratch, "spread")),
            ("pandas alone (no rules)", peer, plain),
        ):
            rate, seconds, peak = found["games"] / found["seconds"], found["seconds"], found["peak"]
            print(f"{label:34} {rate:>9,.0f} {seconds:>8.2f} {peak:>9.0f} {size_mib(folder):>12.1f}")
        ratio = min(ours["seconds"], spread["seconds"]) / peer["seconds"]
        print(f"  pandas alone is {ratio:.1f}x faster than the faster import; {ours['moves']:,} moves")
        print("  peak MiB with processes: the importing process's + each worker's (the largest one's)")
        print("  goals (issue 47 item 5): >= 2,000 games/s on 2 cores, under 1,024 MiB")
        queries = run_child("queries", str(collection))
        print(f"\n{'moves from a position':34} {'ms (best of 5)':>14} {'moves':>6} {'played':>7}")
        for label, (ms, rows, played) in queries["timings"].items():
            print(f"{label:34} {ms:>14.1f} {rows:>6} {played:>7,}")
        load, peak = queries["pandas_load"], queries["peak"]
        print(f"  pandas first loads the three tables: {load:.0f} ms; peak {peak:.0f} MiB")
        print("  goal (issue 47 item 5): a from-position query <= 100 ms")


if __name__ == "__main__":
    main()
