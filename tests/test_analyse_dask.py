"""`rules-explorer analyse FILE -o report.parquet --dask`: one Dask task a game (issue #23 item 3).

The tree search is seeded per position, so with a playout limit (not a time) the Dask run's
table is the local run's row for row; only the wall times (`seconds`) differ."""

from __future__ import annotations

import pandas as pd
import pytest

from rules_kernel.cli import main

BAD_LINE = '{"format": "rules-explorer/1", "game": "chess", "options": {}, "actions": []}\n'


@pytest.fixture
def three_games(tmp_path, capsys):
    """Three short Yōkai 3x4 games and a bad record after them (line 4)."""
    path = tmp_path / "games.jsonl"
    for seed in (1, 2, 3):
        assert main(["play", "yokai-3x4", "--seed", str(seed), "--max-plies", "12", "-o", str(path)]) == 0
    with path.open("a") as file:
        file.write(BAD_LINE)
    capsys.readouterr()
    return path


def without_wall_time(path) -> pd.DataFrame:
    return pd.read_parquet(path).drop(columns="seconds")


def test_the_dask_run_makes_the_local_runs_table(three_games, tmp_path, capsys):
    """A local cluster of 2 worker processes (processes=True, as the command starts it: about
    4 s here, most of it starting the processes)."""
    common = ["analyse", str(three_games), "--engine", "ismcts", "--playouts", "8"]
    assert main([*common, "-o", str(tmp_path / "local.parquet")]) == 2
    local_said = capsys.readouterr()
    assert main([*common, "-o", str(tmp_path / "dask.parquet"), "--dask", "--workers", "2"]) == 2
    dask_said = capsys.readouterr()
    for said in (local_said, dask_said):
        assert "line 4" in said.err and "unknown game 'chess'" in said.err  # reported, skipped
        assert "3 game(s), 26 plies analysed" in said.out
    assert dask_said.out.splitlines()[1:] == local_said.out.splitlines()[1:]  # the summary
    local, dask = without_wall_time(tmp_path / "local.parquet"), without_wall_time(tmp_path / "dask.parquet")
    assert local["game"].unique().tolist() == [1, 2, 3]
    pd.testing.assert_frame_equal(dask, local)


def test_an_existing_cluster_by_its_address_and_a_workers_error_in_one_line(three_games, tmp_path, capsys):
    """--scheduler ADDRESS: a running cluster (here one in this process, processes=False, to
    start in a second). An engine the game lacks fails on the worker and ends the command with
    one line and status 2, as the local run does."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        common = ["analyse", str(three_games), "--scheduler", address]
        out = tmp_path / "r.csv"
        assert main([*common, "-o", str(out), "--engine", "ismcts", "--playouts", "4", "--games", "2"]) == 2
        assert "2 game(s), 22 plies analysed" in capsys.readouterr().out
        assert pd.read_csv(out)["game"].unique().tolist() == [1, 2]
        assert main([*common, "-o", str(tmp_path / "t.csv"), "--engine", "fsf-or-nothing"]) == 2
        err = capsys.readouterr().err
        last = err.strip().splitlines()[-1]
        assert last.startswith("rules-explorer: error: unknown engine 'fsf-or-nothing'")
        assert "Traceback" not in err and not (tmp_path / "t.csv").exists()


def test_workers_without_dask_is_refused(three_games, tmp_path, capsys):
    assert main(["analyse", str(three_games), "-o", str(tmp_path / "r.csv"), "--workers", "2"]) == 2
    assert "--workers is for --dask" in capsys.readouterr().err
