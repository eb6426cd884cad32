"""Simulation: reproducible from a seed whatever the workers, resumable, and the same on a
(local) Dask cluster."""

from __future__ import annotations

import pytest

import rules_kernel as rk
from rules_kernel.records import read_records
from rules_kernel.simulate import simulate


def lines(records):
    return [r.to_json() for r in records]


def test_same_seed_same_records_on_one_or_two_cores(tmp_path):
    one = simulate("war-stories", 8, seed=5, progress=False)
    two = simulate("war-stories", 8, seed=5, progress=False, workers=2)
    assert lines(one) == lines(two)
    assert lines(simulate("war-stories", 8, seed=6, progress=False)) != lines(one)
    path = tmp_path / "g.jsonl"
    simulate("war-stories", 8, seed=5, progress=False, output=path)
    assert lines(read_records(path, replay=True)) == lines(one)


def test_resume_goes_on_where_it_stopped(tmp_path):
    path = tmp_path / "g.jsonl"
    simulate("to-war", 5, seed=2, output=path, progress=False)
    resumed = simulate("to-war", 12, seed=2, output=path, progress=False, resume=True)
    straight = simulate("to-war", 12, seed=2, progress=False)
    assert lines(resumed) == lines(straight) == lines(read_records(path))


def test_capped_games_are_unfinished():
    records = simulate("yokai-5x6", 3, seed=1, progress=False, max_plies=10)
    assert all(r.result["finished"] is False and len(r.actions) == 10 for r in records)


def test_dask_gives_the_same_records():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    with cluster, Client(cluster) as client:
        on_dask = simulate("yokai-3x4", 10, seed=9, client=client, progress=False)
    assert lines(on_dask) == lines(simulate("yokai-3x4", 10, seed=9, progress=False))


def test_bad_requests_fail_before_any_game():
    with pytest.raises(rk.RulesError, match="unknown agent"):
        simulate("yokai-3x4", 2, agents=("random", "genius"), progress=False)
    with pytest.raises(rk.OptionError, match="needs 2 agents"):
        simulate("yokai-3x4", 2, agents=("random",), progress=False)
    with pytest.raises(rk.OptionError, match="no option"):
        simulate("yokai-3x4", 2, options={"board": 9}, progress=False)
