"""Simulation: reproducible from a seed whatever the workers, resumable, and the same on a
(local) Dask cluster."""

from __future__ import annotations

import os
import re

import pytest

import rules_kernel as rk
from rules_kernel import simulate as simulate_module
from rules_kernel.records import Record, RecordError, read_records, write_records
from rules_kernel.simulate import ResumeWarning, SimulationError, simulate


def lines(records):
    return [r.to_json() for r in records]


def test_same_seed_same_records_on_one_or_two_cores(tmp_path):
    one = simulate("war-stories", 6, seed=5, progress=False, max_plies=120)
    two = simulate("war-stories", 6, seed=5, progress=False, max_plies=120, workers=2)
    assert lines(one) == lines(two)
    assert lines(simulate("war-stories", 6, seed=6, progress=False, max_plies=120)) != lines(one)
    path = tmp_path / "g.jsonl"
    simulate("war-stories", 6, seed=5, progress=False, max_plies=120, output=path)
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


# --- resume (issue #14 item 5) --------------------------------------------------------------


def straight(n, **kwargs):
    return lines(simulate("yokai-3x4", n, seed=4, progress=False, **kwargs))


def test_records_carry_their_run():
    (record,) = simulate("yokai-3x4", 1, seed=4, agents=("greedy", "random"), max_plies=30, progress=False)
    assert record.meta["run"] == {
        "seed": 4,
        "game": "yokai-3x4",
        "agents": ["greedy", "random"],
        "max_plies": 30,
    }
    assert record.meta["index"] == 0 and record.options == {"repetitions": 3}


def test_resume_cuts_off_a_torn_last_line_with_a_warning(tmp_path):
    path = tmp_path / "g.jsonl"
    simulate("yokai-3x4", 4, seed=4, output=path, progress=False)
    whole = path.read_bytes()
    fifth = straight(5)[4].encode()
    path.write_bytes(whole + fifth[: len(fifth) // 2])  # what a kill during the fifth write leaves
    with pytest.warns(ResumeWarning, match=r"g\.jsonl: the last line was cut off .* removed it"):
        resumed = simulate("yokai-3x4", 7, seed=4, output=path, progress=False, resume=True)
    assert lines(resumed) == straight(7) == path.read_text().splitlines()


def test_resume_keeps_a_whole_last_record_that_only_lacks_its_newline(tmp_path, recwarn):
    path = tmp_path / "g.jsonl"
    simulate("yokai-3x4", 3, seed=4, output=path, progress=False)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    resumed = simulate("yokai-3x4", 5, seed=4, output=path, progress=False, resume=True)
    assert lines(resumed) == straight(5) == path.read_text().splitlines()
    assert not [w for w in recwarn if issubclass(w.category, ResumeWarning)]


def test_resume_of_a_file_holding_only_a_torn_line(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(straight(1)[0].encode()[:50])
    with pytest.warns(ResumeWarning):
        resumed = simulate("yokai-3x4", 2, seed=4, output=path, progress=False, resume=True)
    assert lines(resumed) == straight(2) == path.read_text().splitlines()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"seed": 5}, "line 1: written by a run with seed 4, not 5"),
        ({"game": "yokai-5x6"}, "line 1: written by a run with game 'yokai-3x4', not 'yokai-5x6'"),
        (
            {"agents": ("random", "greedy")},
            "written by a run with agents ['random', 'random'], not ['random', 'greedy']",
        ),
        ({"max_plies": 9}, "written by a run with max_plies None, not 9"),
        ({"options": {"repetitions": 4}}, "line 1: written by a run with other options (repetitions)"),
    ],
)
def test_resume_refuses_a_file_from_another_run(tmp_path, change, message):
    path = tmp_path / "g.jsonl"
    simulate("yokai-3x4", 3, seed=4, output=path, progress=False)
    before = path.read_bytes()
    kwargs = {"seed": 4, **change}
    with pytest.raises(RecordError, match="resume needs the same game, options, agents, seed") as info:
        simulate(kwargs.pop("game", "yokai-3x4"), 6, output=path, progress=False, resume=True, **kwargs)
    assert str(info.value).startswith(f"{path}, ") and message in str(info.value)
    assert path.read_bytes() == before  # nothing mixed in, nothing lost


def test_a_refused_resume_leaves_even_a_torn_file_as_it_was(tmp_path):
    path = tmp_path / "g.jsonl"
    simulate("yokai-3x4", 3, seed=4, output=path, progress=False)
    path.write_bytes(path.read_bytes() + b'{"format": "rules-')
    before = path.read_bytes()
    with pytest.raises(RecordError, match="line 1: written by a run with seed 4, not 8"):
        simulate("yokai-3x4", 6, seed=8, output=path, progress=False, resume=True)
    assert path.read_bytes() == before


def test_resume_refuses_a_file_without_run_parameters_or_with_a_bad_line(tmp_path):
    path = tmp_path / "g.jsonl"
    old = Record.from_actions(rk.load_game("yokai-3x4"), ["b1a2"])
    write_records(path, [old])
    with pytest.raises(RecordError, match=r"line 1: this record does not say which run wrote it"):
        simulate("yokai-3x4", 2, seed=4, output=path, progress=False, resume=True)
    simulate("yokai-3x4", 3, seed=4, output=path, progress=False)
    text = path.read_text().splitlines()
    path.write_text("\n".join([text[0], "{oops", text[2]]) + "\n")  # not a torn write: refuse
    with pytest.raises(RecordError, match=r"line 2: not valid JSON"):
        simulate("yokai-3x4", 5, seed=4, output=path, progress=False, resume=True)
    assert path.read_text().splitlines()[1] == "{oops"


def test_bad_numbers_are_refused_before_any_game():
    for kwargs, name in (({"workers": -1}, "workers"), ({"max_plies": 0}, "max_plies")):
        with pytest.raises(rk.OptionError, match=f"{name} must be a whole number"):
            simulate("yokai-3x4", 2, progress=False, **kwargs)
    with pytest.raises(rk.OptionError, match="games must be a whole number >= 0"):
        simulate("yokai-3x4", -1, progress=False)


# --- failures: a worker that dies or fails is one line, and the file stays resumable --------

_REAL_TASK = simulate_module._play_task


def _die_on_game_5(task):
    """Stands in for the worker's task: the process dies on game 5 (like a segfault)."""
    if task[4] == 5:
        os._exit(3)
    return _REAL_TASK(task)


def _fail_on_game_2(task):
    if task[4] == 2:
        raise KeyError("boom")
    return _REAL_TASK(task)


def test_a_dead_worker_ends_in_one_line_and_the_file_resumes(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    monkeypatch.setattr(simulate_module, "_play_task", _die_on_game_5)
    with pytest.raises(SimulationError) as info:
        simulate("yokai-3x4", 40, seed=4, output=path, progress=False, workers=2)
    message = str(info.value)
    found = re.fullmatch(
        rf"stopped at game (\d+): a worker process died; {re.escape(str(path))} "
        r"holds the (\d+) games before it \(resume goes on\)",
        message,
    )
    assert found and found[1] == found[2] and int(found[1]) <= 5  # 5's chunk-mates may be lost too
    assert path.read_text().splitlines() == straight(int(found[1]))
    monkeypatch.setattr(simulate_module, "_play_task", _REAL_TASK)
    resumed = simulate("yokai-3x4", 8, seed=4, output=path, progress=False, resume=True, workers=2)
    assert lines(resumed) == straight(8) == path.read_text().splitlines()


def test_a_failing_game_ends_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(simulate_module, "_play_task", _fail_on_game_2)
    with pytest.raises(SimulationError, match=r"^stopped at game 2: a game failed \(KeyError: 'boom'\)"):
        simulate("yokai-3x4", 5, seed=4, output=tmp_path / "g.jsonl", progress=False)
    assert len((tmp_path / "g.jsonl").read_text().splitlines()) == 2


def test_a_game_failing_in_a_worker_ends_in_one_line_after_the_games_before_it(tmp_path, monkeypatch):
    """On the pool the failing game is named as in one process, and the games of its chunk
    before it still reach the file."""
    monkeypatch.setattr(simulate_module, "_play_task", _fail_on_game_2)
    path = tmp_path / "g.jsonl"
    with pytest.raises(SimulationError, match=r"^stopped at game 2: a game failed \(KeyError: 'boom'\); "):
        simulate("yokai-3x4", 40, seed=4, output=path, progress=False, workers=2)
    assert path.read_text().splitlines() == straight(2)


def children(before: frozenset = frozenset()) -> list[int]:
    """The ids of this process's children that were not there `before` (other tests' may be)."""
    import psutil

    return sorted({p.pid for p in psutil.Process().children(recursive=True)} - before)


def test_no_worker_outlives_the_run_however_it_ends(tmp_path, monkeypatch):
    """Finished, failed or stopped half-way by its caller: the workers were joined before
    simulate (or the caller's loop) went on, none is left running or unreaped."""
    before = frozenset(children())
    assert lines(simulate("yokai-3x4", 30, seed=4, progress=False, workers=2)) == straight(30)
    assert children(before) == []
    tasks = [simulate_module.experiment_task("yokai-3x4", "seats", i) for i in range(40)]
    for index, _record in enumerate(simulate_module.play_tasks(tasks, workers=2)):
        if index == 3:
            assert len(children(before)) == 2
            break  # the generator is closed here: its workers are killed and joined
    assert children(before) == []
    monkeypatch.setattr(simulate_module, "_play_task", _die_on_game_5)
    with pytest.raises(SimulationError):
        simulate("yokai-3x4", 40, seed=4, progress=False, workers=2)
    assert children(before) == []


def test_signals_wait_for_the_end_of_a_step_that_must_not_be_cut(monkeypatch):
    """`signals_deferred`: a Ctrl-C inside the block is acted on as it leaves it, by the
    handler in place (KeyboardInterrupt), never half-way through."""
    import signal

    steps = []
    with pytest.raises(KeyboardInterrupt):
        with simulate_module.signals_deferred():
            signal.raise_signal(signal.SIGINT)
            steps.append("after the signal")  # still run: the signal waits
    assert steps == ["after the signal"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    with simulate_module.signals_deferred():
        steps.append("no signal")
    assert steps[-1] == "no signal"
