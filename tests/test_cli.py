"""The `rules-explorer` command line: perft, play, replay, games."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from rules_kernel import records
from rules_kernel.cli import main
from rules_kernel.simulate import ResumeWarning, simulate


def test_perft(capsys):
    assert main(["perft", "yokai-3x4", "4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in out] == ["4", "17", "123", "976"]


def test_perft_from_a_position(capsys):
    assert main(["perft", "yokai-5x6", "1", "--fen", "4k/1P3/5/5/5/K4[] w - - 0 1"]) == 0
    assert "perft 1: 4 " in capsys.readouterr().out


def test_play_then_replay(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    for seed in (1, 2):
        assert main(["play", "yokai-3x4", "--seed", str(seed), "-o", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["meta"] == {"seed": 1}
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "2 game(s)" in capsys.readouterr().out
    # the same seed gives the same game
    assert main(["play", "yokai-3x4", "--seed", "1"]) == 0
    assert capsys.readouterr().out.strip() == lines[0]


def test_replay_reports_a_bad_record(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format":"rules-explorer/1","game":"yokai-3x4","options":{},"actions":["b2b4"]}\n')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 1, ply 0" in err and "cannot step to b4" in err


def test_options_are_validated(capsys):
    assert main(["play", "yokai-3x4", "-O", "repetitions=1"]) == 2
    assert "at least 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["perft"])


def installed_command() -> str:
    """The project's own `rules-explorer`, beside the interpreter running the tests (the
    project environment's bin), never whatever a PATH happens to hold (issue #20)."""
    exe = Path(sys.executable).parent / "rules-explorer"
    assert exe.is_file(), f"pip install -e . installs the rules-explorer command into {exe.parent}"
    return str(exe)


def test_the_installed_command_runs():
    exe = installed_command()
    out = subprocess.run([exe, "games"], capture_output=True, text=True, check=True).stdout
    assert "yokai-3x4" in out and "yokai-5x6" in out


# --- bad input: one line, no traceback (issue #14 item 7) ------------------------------------


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["simulate", "yokai-3x4", "-n", "0", "-o", "OUT"], "argument -n/--games: must be at least 1, not 0"),
        (
            ["simulate", "yokai-3x4", "-n", "-3", "-o", "OUT"],
            "argument -n/--games: must be at least 1, not -3",
        ),
        (["simulate", "yokai-3x4", "--workers", "-1", "-o", "OUT"], "argument --workers: must be at least 0"),
        (
            ["simulate", "yokai-3x4", "--max-plies", "0", "-o", "OUT"],
            "argument --max-plies: must be at least 1",
        ),
        (["perft", "yokai-3x4", "0"], "argument depth: must be at least 1, not 0"),
        (["perft", "yokai-3x4", "-2"], "argument depth: must be at least 1, not -2"),
        (["perft", "yokai-3x4", "two"], "argument depth: 'two' is not a whole number"),
        # ASCII digits only, as in links: int() alone would read these as 3 and 12
        (["perft", "yokai-3x4", "\u0663"], "argument depth: '\u0663' is not a whole number"),
        (["perft", "yokai-3x4", " 12 "], "argument depth: ' 12 ' is not a whole number"),
        (["play", "yokai-3x4", "--max-plies", "-5"], "argument --max-plies: must be at least 1, not -5"),
        (["play", "yokai-3x4", "--max-plies", "0"], "argument --max-plies: must be at least 1, not 0"),
    ],
)
def test_non_positive_numbers_are_refused_in_one_line(tmp_path, capsys, argv, fragment):
    out = tmp_path / "games.jsonl"
    argv = [str(out) if a == "OUT" else a for a in argv]
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    line = one_error_line(capsys)
    assert fragment in line and line.startswith("rules-explorer ") and "--help" in line
    assert not out.exists()  # nothing written, not even an empty file


@pytest.mark.parametrize(
    "option, fragment",
    [
        ("game_id=3", "yokai-3x4 has no option 'game_id'"),
        ("self=3", "yokai-3x4 has no option 'self'"),
        ("repetitions=" + "9" * 5000, "--option repetitions: a number of 5000 characters"),
        ("repetitions=" + "[" * 100_000, "--option repetitions: arrays and objects nested more than 32 deep"),
        ("repetitions=1", "at least 2"),
        ("repetitions", "write NAME=VALUE"),
    ],
)
def test_bad_options_are_refused_in_one_line(capsys, option, fragment):
    assert main(["play", "yokai-3x4", "-O", option]) == 2
    line = one_error_line(capsys)
    assert line.startswith("rules-explorer: error: ") and fragment in line


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "war-chest", "-O", "players=4.0"],
        ["simulate", "war-chest", "-n", "1", "-O", "players=4.0", "-o", "OUT"],
        ["perft", "war-chest", "1", "-O", "players=4.0"],
    ],
)
def test_a_float_for_a_whole_number_option_is_refused_in_one_line(tmp_path, capsys, argv):
    """Issue #20 item 5: `-O players=4.0` passed War Chest's own check (4.0 == 4) and crashed
    the command with an internal error (TypeError); it is refused as a whole-number option."""
    out = tmp_path / "games.jsonl"
    assert main([str(out) if a == "OUT" else a for a in argv]) == 2
    assert one_error_line(capsys) == (
        "rules-explorer: error: option 'players' of war-chest must be a whole number, not 4.0"
    )
    assert not out.exists()
    assert main(["play", "war-chest", "-O", "players=true"]) == 2
    assert one_error_line(capsys).endswith("must be a whole number, not true")
    assert main(["play", "war-chest", "-O", "players=1e400"]) == 2
    assert one_error_line(capsys).endswith(
        "--option players: the number 1e400 is too large (it would be infinite)"
    )


def test_replay_of_a_record_with_a_float_for_a_whole_number_reports_it_and_goes_on(tmp_path, capsys):
    """Issue #20 item 5: the whole file stopped with "internal error"; now that record is one
    error line and the records after it are replayed."""
    path = tmp_path / "wc.jsonl"
    bad = {"format": "rules-explorer/1", "game": "war-chest", "options": {"players": 4.0}, "actions": []}
    good = {"format": "rules-explorer/1", "game": "yokai-3x4", "options": {}, "actions": ["b1a2"]}
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"rules-explorer: error: {path}, line 1: option 'players' of war-chest must be "
        "a whole number, not 4.0\n"
    )
    assert "1 game(s), 1 actions, 1 error(s) reported above" in captured.out


def test_the_installed_command_refuses_a_named_pipe_at_once(tmp_path):
    """Issue #20 item 5: `rules-explorer replay` on a named pipe waited for a writer for ever."""
    pipe = tmp_path / "games.jsonl"
    os.mkfifo(pipe)
    done = run_command("replay", str(pipe), timeout=60)
    assert done.returncode == 2
    assert done.stderr == (
        f"rules-explorer: error: {pipe}: not a regular file (a named pipe); give a record file\n"
    )


@pytest.mark.parametrize("game", ["war-stories", "war-chest"])
def test_perft_on_a_dealt_game_explains_and_offers_a_position(capsys, game):
    assert main(["perft", game, "2"]) == 2
    line = one_error_line(capsys)
    assert f"{game} starts with a deal" in line and "perft needs a position after the deal" in line
    assert "sample_chance" not in line  # words for a user, not a hint for a programmer
    offered = shlex.split(line.split("for example ", 1)[1])
    assert offered[0] == "--fen"
    assert main(["perft", game, "1", *offered]) == 0  # the offered position works
    assert capsys.readouterr().out.startswith("perft 1: ")


def test_to_war_counts_its_draws_as_branches(capsys):
    assert main(["perft", "to-war", "1"]) == 0  # its start (a draw) is a chance node it can count
    assert capsys.readouterr().out.startswith("perft 1: ")


def test_unwritable_output_and_unreadable_input(tmp_path, capsys):
    assert main(["play", "yokai-3x4", "--seed", "1", "-o", str(tmp_path / "no" / "x.jsonl")]) == 2
    assert "cannot open: No such file or directory" in one_error_line(capsys)
    assert main(["perft", "yokai-3x4", "1", "--fen", "nonsense"]) == 2
    assert one_error_line(capsys).startswith("rules-explorer: error: ")


def test_replay_reports_every_bad_record_and_exits_non_zero(tmp_path, capsys):
    path = tmp_path / "mixed.jsonl"
    good = '{"format":"rules-explorer/1","game":"yokai-3x4","options":{},"actions":["b1a2"]}'
    path.write_bytes(
        "\n".join([good, good.replace("b1a2", "b1b4"), good, '{"game": 1', good]).encode() + b"\n\xff\n"
    )
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert [re.search(r"mixed\.jsonl, (line \d+)", e)[1] for e in errors] == ["line 2", "line 4", "line 6"]
    assert f"{path}, line 2, ply 0:" in errors[0] and "not UTF-8" in errors[2]
    assert "3 game(s), 3 actions, 3 error(s) reported above" in captured.out
    assert captured.out.count("yokai-3x4, 1 actions") == 3  # the good ones are all listed


def test_replay_of_a_text_form_game(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text("game: yokai-3x4\nb1a2\na4a3\na2a4\n")
    assert main(["replay", str(path)]) == 2
    assert f"{path}, line 4, ply 2:" in one_error_line(capsys)


def test_play_with_a_cap_writes_an_unfinished_result_that_replays(tmp_path, capsys):
    path = tmp_path / "capped.jsonl"
    assert main(["play", "yokai-5x6", "--seed", "3", "--max-plies", "4", "-o", str(path)]) == 0
    (record,) = records.read_records(path, replay=True)
    assert len(record.actions) == 4 and record.result["finished"] is False


# --- the installed command: no traceback, Ctrl-C leaves a resumable file ------------------------


def run_command(*args, timeout=60):
    return subprocess.run([installed_command(), *args], capture_output=True, text=True, timeout=timeout)


def test_the_command_gives_one_line_for_bad_input(tmp_path):
    out = tmp_path / "x.jsonl"
    done = run_command("simulate", "yokai-3x4", "-n", "0", "-o", str(out))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_ends_in_one_line_and_leaves_a_resumable_file(tmp_path, workers):
    out = tmp_path / "run.jsonl"
    command = [
        installed_command(),
        "simulate",
        "yokai-3x4",
        "-n",
        "100000",
        "--seed",
        "3",
        "--workers",
        workers,
        "-o",
        str(out),
    ]
    # a shell without job control starts background commands with Ctrl-C ignored; undo that
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 20):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in err and "Exception ignored" not in err, err
    # one line of its own, the last: the progress bar ended its line before it, never drawn after
    assert err.endswith("\n"), err
    last = err[:-1].split("\n")[-1]
    found = re.fullmatch(
        rf"rules-explorer: interrupted after (\d+) of 100000 games; {re.escape(str(out))} "
        r"holds them: run the same command with --resume to go on",
        last,
    )
    assert found, err
    kept = int(found[1])
    assert kept >= 20
    more = kept + 3  # what `--resume` does, in this process (the command's summary imports take seconds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResumeWarning)  # Ctrl-C may have torn the last line
        simulate("yokai-3x4", more, seed=3, progress=False, output=out, resume=True, workers=int(workers))
    straight = [r.to_json() for r in simulate("yokai-3x4", more, seed=3, progress=False)]
    assert out.read_text().splitlines() == straight


def test_resume_warns_in_one_line_when_it_cuts_off_a_torn_line(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    simulate("yokai-3x4", 2, seed=3, output=out, progress=False)
    out.write_bytes(out.read_bytes() + b'{"format":"rules-exp')
    assert main(["simulate", "yokai-3x4", "-n", "3", "--seed", "3", "-o", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"rules-explorer: warning: {out}: the last line was cut off by a stopped run (20 bytes)" in err
    assert "Traceback" not in err and "ResumeWarning" not in err
    assert out.read_text().splitlines() == [
        r.to_json() for r in simulate("yokai-3x4", 3, seed=3, progress=False)
    ]


def test_resume_of_another_run_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "run.jsonl"
    simulate("yokai-3x4", 2, seed=3, output=out, progress=False)
    assert main(["simulate", "yokai-3x4", "-n", "3", "--seed", "4", "-o", str(out), "--resume"]) == 2
    assert f"{out}, line 1: written by a run with seed 3, not 4" in one_error_line(capsys)


def test_a_dead_worker_ends_the_command_in_one_line(tmp_path, capsys, monkeypatch):
    from tests import test_simulate  # its stand-in task kills the worker on game 5

    monkeypatch.setattr("rules_kernel.simulate._play_task", test_simulate._die_on_game_5)
    out = tmp_path / "run.jsonl"
    assert main(["simulate", "yokai-3x4", "-n", "40", "--workers", "2", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert "Traceback" not in err and re.fullmatch(
        rf"rules-explorer: error: stopped at game \d: a worker process died; {re.escape(str(out))} "
        r"holds the \d games before it \(resume goes on\)",
        last,
    ), err


def test_analyse_writes_one_row_per_ply_and_reports_bad_records(tmp_path, capsys):
    """Issue #23 item 3: `rules-explorer analyse games.jsonl -o report.parquet`: every ply of
    every good game in one table (the game's line and id first), a table per player printed,
    a bad record reported and skipped with status 2."""
    import pandas as pd

    path = tmp_path / "games.jsonl"
    for seed in (1, 2):
        assert main(["play", "to-war", "--seed", str(seed), "--max-plies", "10", "-o", str(path)]) == 0
    with path.open("a") as file:
        file.write('{"format": "rules-explorer/1", "game": "chess", "options": {}, "actions": []}\n')
    capsys.readouterr()
    out = tmp_path / "report.parquet"
    assert main(["analyse", str(path), "-o", str(out), "--playouts", "4"]) == 2
    said = capsys.readouterr()
    assert "line 3" in said.err and "unknown game 'chess'" in said.err
    assert "2 game(s), 20 plies analysed" in said.out and "Südliche Armee" in said.out
    table = pd.read_parquet(out)
    assert list(table.columns[:4]) == ["game", "game_id", "ply", "mover"]
    assert table.groupby("game")["ply"].apply(list).tolist() == [list(range(1, 11))] * 2
    played = table[table["mover"].notna()]
    assert played["classification"].notna().all() and (played["engine"] == "ismcts").all()
    assert (played["playouts"] == 4).all()


def test_analyse_refuses_what_it_cannot_do(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    assert main(["play", "to-war", "--seed", "1", "--max-plies", "4", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["analyse", str(path), "-o", str(tmp_path / "r.txt")]) == 2
    assert "give a .parquet or .csv file" in capsys.readouterr().err
    assert main(["analyse", str(path), "-o", str(tmp_path / "r.csv"), "--engine", "table"]) == 2
    assert "to-war declares no solved table" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists()
