"""Peak memory of the largest accepted upload of each kind, beside an idle kernel (issue #20).

    python benchmarks/bench_uploads.py [--only jsonl,text,table] [--keep DIR]

Every figure comes from a fresh interpreter (one subprocess per measurement) that imports
what a dashboard kernel imports (`rules_kernel` with every game, `records`, `widgets`) and
then takes one upload the way the browser hands it over: a Replay widget's upload button for
records (then the visitor scrubs: the last ply, the middle, 200 steps of Play, 64 jumps), the
To War! options form for a unit table. The peer figure is the same interpreter with the same
imports doing nothing ("idle"). Peak RSS is the process's high-water mark (VmHWM in
/proc/self/status; `resource.getrusage` elsewhere); CPU is user + system seconds after the
imports.

The uploads, each the largest the limits accept (records.MAX_UPLOAD_BYTES,
MAX_UPLOAD_LINE_BYTES, MAX_UPLOAD_ACTIONS; to_war.MAX_TABLE_BYTES):
  jsonl-<game>   one game of as many actions as are accepted (JSON Lines: the line limit
                 may stop a game before the action limit)
  jsonl-many     as many one-action games as fit (every record is replayed on upload)
  text-<game>    the same long game in the one-move-per-line text form
  text-blank     a short game padded with blank lines to the byte limit
  text-comments  the same, padded with comment lines
  table          To War!'s unit table padded with comment lines to the byte limit

The long games are random games that avoid ending (Yokai with a huge repetition limit); War
Chest's take tens of seconds to make, so `--keep DIR` keeps the inputs for the next run.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the long games: (name, game id, options)
LONG_GAMES = [
    ("yokai-3x4", "yokai-3x4", {"repetitions": 10**9}),
    ("yokai-5x6", "yokai-5x6", {"repetitions": 10**9}),
    ("war-chest", "war-chest", {}),
    ("war-chest-4p", "war-chest", {"players": 4}),
]


# --- the measured side (a fresh interpreter per case) ------------------------------------------


def _imports():
    import rules_kernel as rk
    import widgets
    from rules_kernel import records

    rk.list_games()  # every game module, as a kernel that has shown a game list
    return rk, records, widgets


def _usage() -> tuple[float, float]:
    """(peak RSS in MiB, CPU seconds) of this process. The peak is /proc's VmHWM where there
    is one: getrusage's ru_maxrss survives exec on Linux, so a child started by a large
    parent would report at least the parent's size."""
    use = resource.getrusage(resource.RUSAGE_SELF)
    peak = use.ru_maxrss / 1024  # Linux: KiB
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    return peak, use.ru_utime + use.ru_stime


def child(case: str, path: str) -> None:
    rk, records, widgets = _imports()
    idle, cpu0 = _usage()
    accepted, note = True, ""
    if case != "idle":
        data = Path(path).read_bytes()
        name = Path(path).name
        if case == "table":
            accepted, note = _take_table(widgets, data, name)
        else:
            accepted, note = _take_record(widgets, data, name)
    peak, cpu = _usage()
    print(json.dumps({"idle": idle, "peak": peak, "cpu": cpu - cpu0, "accepted": accepted, "note": note}))


def _browser_file(data: bytes, name: str) -> tuple[dict, ...]:
    from datetime import datetime, timezone

    return (
        {
            "name": name,
            "type": "",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": datetime.now(timezone.utc),
        },
    )


def _take_record(widgets, data: bytes, name: str) -> tuple[bool, str]:
    replay = widgets.Replay(upload=True)
    replay.upload.value = _browser_file(data, name)
    if 'role="alert"' in replay.info.value:
        return False, replay.info.value
    last = replay.slider.max
    replay.jump(last)
    replay.jump(last // 2)
    for _ in range(200):  # Play: one step at a time
        replay.show(min(replay.slider.value + 1, last))
    rng = random.Random(0)
    for _ in range(64):
        replay.jump(rng.randrange(last + 1))
    return True, f"{len(replay.record.actions):,} actions shown"


def _take_table(widgets, data: bytes, name: str) -> tuple[bool, str]:
    explorer = widgets.Explorer("to-war")
    field = explorer.form.fields["units"]
    field.upload.value = _browser_file(data, name)
    before = explorer.game
    explorer.new_game()
    if explorer.game is before:
        return False, explorer.message.value
    return True, f"{len(explorer.game.options['units'])} rows"


# --- the inputs ----------------------------------------------------------------------------


def long_game(game_id: str, options: dict, limit: int, seconds: float = 120.0):
    """A random game of up to `limit` actions that avoids ending while it can."""
    import rules_kernel as rk

    game = rk.load_game(game_id, **options)
    rng = random.Random(1)
    state, actions = game.initial_state(), []
    deadline = time.monotonic() + seconds
    while len(actions) < limit and not state.is_terminal() and time.monotonic() < deadline:
        if state.current_player == rk.CHANCE:
            action = state.sample_chance(rng)
            following = state.apply(action)
        else:
            moves = state.legal_moves()
            rng.shuffle(moves)
            for action in moves:
                following = state.apply(action)
                if not following.is_terminal():
                    break
        actions.append(action)
        state = following
    return game, actions


def make_inputs(folder: Path, only: set[str]) -> list[tuple[str, Path]]:
    """(case, file) for every upload measured; files already in `folder` are reused."""
    from rules_kernel import records
    from rules_kernel.games import to_war

    cases = []

    def keep(case: str, filename: str, make) -> None:
        path = folder / filename
        if not path.exists():
            path.write_bytes(make())
        cases.append((case, path))

    if only & {"jsonl", "text"}:
        for name, game_id, options in LONG_GAMES:
            path = folder / f"long-{name}.jsonl"
            if not path.exists():
                started = time.perf_counter()
                game, actions = long_game(game_id, options, records.MAX_UPLOAD_ACTIONS)
                record = records.Record.from_actions(game, actions)
                path.write_text(record.to_json() + "\n")
                print(
                    f"(made a {name} game of {len(actions):,} actions in "
                    f"{time.perf_counter() - started:.0f} s)",
                    file=sys.stderr,
                )
            record = next(records.read_records(path))
            if "jsonl" in only:
                keep(f"jsonl-{name}", f"upload-{name}.jsonl", lambda r=record: _fit_line(records, r))
            if "text" in only:
                keep(f"text-{name}", f"upload-{name}.txt", lambda r=record: _fit_text(records, r))
    if "jsonl" in only:
        keep("jsonl-many", "upload-many.jsonl", lambda: _many_games(records))
    if "text" in only:
        head = b"game: yokai-3x4\nb2b3\n"
        keep("text-blank", "upload-blank.txt", lambda: head + b"\n" * (records.MAX_UPLOAD_BYTES - len(head)))
        comment = b"# a comment line of some length, as a visitor's editor might leave\n"
        keep(
            "text-comments",
            "upload-comments.txt",
            lambda: head + comment * ((records.MAX_UPLOAD_BYTES - len(head)) // len(comment)),
        )
    if "table" in only:
        table = to_war.TABLE_PATH.read_bytes()
        pad = b"# padding: a comment line of a unit table, as long as a visitor likes\n"
        keep(
            "table",
            "upload-units.csv",
            lambda: table + pad * ((to_war.MAX_TABLE_BYTES - len(table)) // len(pad)),
        )
    return cases


def _fit_line(records, record) -> bytes:
    """The record cut to the most actions one upload line and the action limit accept."""
    actions = record.actions[: records.MAX_UPLOAD_ACTIONS]
    low, high = 0, len(actions)
    while low < high:  # the longest prefix whose line fits
        middle = (low + high + 1) // 2
        if len(_line(records, record, actions[:middle])) <= records.MAX_UPLOAD_LINE_BYTES:
            low = middle
        else:
            high = middle - 1
    return _line(records, record, actions[:low])


def _line(records, record, actions) -> bytes:
    return (_cut(records, record, actions).to_json() + "\n").encode()


def _cut(records, record, actions):
    """The record's first `actions`: its result when that is all of them, else unfinished."""
    result = (
        record.result
        if len(actions) == len(record.actions)
        else {"winner": None, "reason": "", "winners": [], "finished": False}
    )
    return records.Record(record.game, record.options, tuple(actions), result=result)


def _fit_text(records, record) -> bytes:
    """The record in the text form, cut to the most actions the limits accept."""
    actions = record.actions[: records.MAX_UPLOAD_ACTIONS]
    budget = getattr(records, "MAX_UPLOAD_LINE_BYTES", records.MAX_UPLOAD_BYTES)
    low, high = 0, len(actions)
    while low < high:  # the action lines may hold at most one record line's bytes in all
        middle = (low + high + 1) // 2
        size = sum(len(str(a).encode()) + 8 * a.chance + 1 for a in actions[:middle])
        if (
            size <= budget
            and len(records.to_text_game(_cut(records, record, actions[:middle])).encode())
            <= records.MAX_UPLOAD_BYTES
        ):
            low = middle
        else:
            high = middle - 1
    return records.to_text_game(_cut(records, record, actions[:low])).encode()


def _many_games(records) -> bytes:
    """One-action Yokai games up to the byte limit (and within the action limit)."""
    line = b'{"format":"rules-explorer/1","game":"yokai-3x4","options":{},"actions":["b2b3"]}\n'
    count = min(records.MAX_UPLOAD_BYTES // len(line), records.MAX_UPLOAD_ACTIONS)
    return line * count


# --- the measuring side ----------------------------------------------------------------------


def measure(case: str, path: Path | None) -> dict:
    command = [sys.executable, __file__, "--child", case, str(path or "")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{case}: the measurement failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="jsonl,text,table", help="kinds: jsonl, text, table")
    parser.add_argument("--keep", type=Path, help="make (or reuse) the inputs in this folder")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from rules_kernel import records
    from rules_kernel.games import to_war

    only = set(args.only.split(","))
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-uploads-"))
    folder.mkdir(parents=True, exist_ok=True)
    cases = make_inputs(folder, only)
    print(
        f"limits: upload {records.MAX_UPLOAD_BYTES:,} bytes, line {records.MAX_UPLOAD_LINE_BYTES:,} "
        f"bytes, {records.MAX_UPLOAD_ACTIONS:,} actions; unit table {to_war.MAX_TABLE_BYTES:,} bytes"
    )
    idle = measure("idle", None)
    print(f"{'upload':22} {'bytes':>10} {'peak RSS':>10} {'over idle':>10} {'CPU':>8}  accepted")
    print(f"{'idle (same imports)':22} {'':>10} {idle['peak']:>7.0f} MiB {'':>10} {'':>8}")
    for case, path in cases:
        got = measure(case, path)
        over = got["peak"] - idle["peak"]
        verdict = got["note"] if got["accepted"] else f"REFUSED: {got['note'][:100]}"
        print(
            f"{case:22} {path.stat().st_size:>10,} {got['peak']:>7.0f} MiB {over:>6.0f} MiB "
            f"{got['cpu']:>6.1f} s  {verdict}",
            flush=True,
        )
    if not args.keep:
        for _, path in cases:
            path.unlink(missing_ok=True)
        for leftover in folder.glob("long-*.jsonl"):
            leftover.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
