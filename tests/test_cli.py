"""The `rules-explorer` command line: perft, play, replay, games."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from rules_kernel.cli import main


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


def test_the_installed_command_runs():
    exe = shutil.which("rules-explorer")
    assert exe, "pip install -e . installs the rules-explorer command"
    out = subprocess.run([exe, "games"], capture_output=True, text=True, check=True).stdout
    assert "yokai-3x4" in out and "yokai-5x6" in out
