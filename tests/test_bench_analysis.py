"""benchmarks/bench_analysis.py's strength games: each side chooses on its own view, with
perfect memory by default and on what lies in sight with --forgetful (docs/analysis.md,
"Strength")."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rules_kernel.analysis import Limit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_analysis  # noqa: E402


class Spy:
    """An opponent that records the views it is given and turns over a card at random."""

    def __init__(self) -> None:
        self.seen: list = []
        self.rng = random.Random(0)

    def choose(self, view):
        self.seen.append(view)
        return self.rng.choice(view.legal_moves())


@pytest.mark.parametrize("memory", [True, False])
def test_both_sides_choose_on_a_view_with_or_without_memory(memory, monkeypatch):
    spy, searched = Spy(), []
    monkeypatch.setattr(bench_analysis, "make_agent", lambda name, seed=None: spy)
    choose = bench_analysis.SearchAgent.choose

    def watched(agent, view):
        searched.append(view)
        return choose(agent, view)

    monkeypatch.setattr(bench_analysis.SearchAgent, "choose", watched)
    points, *_ = bench_analysis.play("war-stories", "spy", 0, 3, Limit(playouts=4), 40, {}, memory)
    assert points in (0.0, 0.5, 1.0)
    views = spy.seen + searched
    assert spy.seen and searched and {view.memory for view in views} == {memory}
    assert {v.current_player for v in searched} == {0} and {v.current_player for v in spy.seen} == {1}
