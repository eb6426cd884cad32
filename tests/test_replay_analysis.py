"""The Replay's game report: Analyse, the evaluation graph under the board, a click on it goes
to a ply (issue #23 item 3). Headless: the tree search at a few playouts a position, fast."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import widgets
from rules_kernel import records
from rules_kernel.analysis import Limit
from rules_kernel.cli import main
from widgets.evalgraph import Curve, Mark, default_seconds, graph_svg, summary_html

DATA = Path(__file__).resolve().parent.parent / "data"
FAST = Limit(seconds=None, playouts=4)


def analysed(replay: widgets.Replay) -> widgets.Replay:
    replay.analyse(engine="ismcts", limit=FAST, wait=True)
    return replay


def polyline_points(svg: str) -> list[tuple[float, float]]:
    points = re.search(r'<polyline points="([^"]+)"', svg).group(1).split()
    return [tuple(map(float, p.split(","))) for p in points]


def test_the_graph_has_a_point_a_ply_and_marks_the_bad_moves():
    rp = analysed(widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0))
    plies = len(rp.record.actions)
    assert plies == 18 and rp.graph.plies == plies
    assert len(rp.graph.points) == plies + 1 and all(0 <= p <= 1 for p in rp.graph.points)
    assert len(polyline_points(rp.graph.svg)) == plies + 1
    bad = rp.report.df["classification"].isin(["mistake", "blunder"]).sum()
    assert rp.graph.svg.count("<circle") == bad > 0
    assert 'stroke-dasharray="4 3"' in rp.graph.svg  # the 0.5 line
    assert "First player" in rp.report.caption.value
    assert rp.report.table.value.count("<tr>") == 3  # a head and a row per player
    assert "Analysed in" in rp.report.note.value and not rp.report.button.disabled


def test_a_click_on_the_graph_goes_to_its_ply_and_bad_messages_are_ignored():
    rp = analysed(widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0))
    rp.graph._on_message(rp.graph, {"event": "go", "ply": 7}, [])
    assert rp.session.ply == rp.slider.value == rp.graph.current == 7
    assert rp.moves.value == rp.moves.options[7]
    for bad in (
        {"event": "go", "ply": "3"},
        {"event": "go", "ply": True},
        {"event": "go", "ply": -1},
        {"event": "go", "ply": 19},
        {"event": "go", "ply": 2.0},
        {"event": "click", "ply": 2},
        {"ply": 2},
        ["go", 2],
        None,
    ):
        rp.graph._on_message(rp.graph, bad, [])
    assert rp.session.ply == 7 and "alert" not in rp.info.value
    rp.show(3)  # the replay moves the graph's ply line
    assert rp.graph.current == 3


def test_a_to_war_record_is_analysed_too(tmp_path):
    path = tmp_path / "to-war.jsonl"
    assert main(["play", "to-war", "--seed", "2", "--max-plies", "14", "-o", str(path)]) == 0
    rp = analysed(widgets.Replay(path))
    assert len(rp.graph.points) == 15 and "Südliche Armee" in rp.report.table.value
    rp.graph.go(14)
    assert rp.session.ply == 14


def test_analyse_runs_in_a_thread_and_stop_ends_it():
    rp = widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0)
    thread = rp.analyse(engine="ismcts", limit=FAST)
    thread.join(60)
    assert len(rp.graph.points) == 19 and rp.report.progress.layout.display == "none"
    rp.report.seconds.value = 1.0
    thread = rp.analyse(engine="ismcts")  # a second a position: 19 s unless stopped
    assert rp.report.button.disabled and rp.report.stop_button.layout.display == ""
    rp.report.stop()
    thread.join(10)
    assert not thread.is_alive() and "Stopped" in rp.report.note.value
    assert not rp.report.button.disabled


def test_loading_another_game_drops_the_graph_and_a_late_report():
    rp = widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0)
    rp.report.seconds.value = 1.0
    thread = rp.analyse(engine="ismcts")
    rp.load(DATA / "yokai-3x4-random.jsonl", index=1)
    thread.join(10)
    assert not thread.is_alive() and rp.graph.svg == "" and rp.report.df is None
    assert len(analysed(rp).graph.points) == len(rp.record.actions) + 1 == 11


@pytest.mark.parametrize("perspective, viewer", [(None, "mover"), (1, 1)])
def test_a_game_with_secrets_is_analysed_in_the_view_the_replay_shows(perspective, viewer, monkeypatch):
    """All-seeing: each ply as its mover knew it; in player 1's view: every ply as player 1
    knew it (the move words too), so the graph shows player 1 nothing player 1 did not see."""
    import rules_kernel.analysis as analysis

    asked = []
    real = analysis.report
    monkeypatch.setattr(analysis, "report", lambda *a, **k: asked.append(k["viewer"]) or real(*a, **k))
    record = records.load(DATA / "war-stories-greedy-vs-random.jsonl")[3]
    rp = widgets.Replay(record, perspective=perspective)
    assert rp.report.hidden and rp.report.viewer == viewer
    rp.analyse(engine="ismcts", limit=Limit(seconds=None, playouts=2), wait=True)
    assert asked == [viewer] and len(rp.graph.points) == len(record.actions) + 1
    if perspective is not None:
        assert (
            rp.report.df["move"].tolist()
            == real(record, engine="ismcts", limit=FAST, viewer=1)["move"].tolist()
        )


def test_every_text_in_the_graph_and_the_table_is_escaped():
    import pandas as pd

    curve = Curve((0.5, 0.2, 0.9), "<b>side</b>", (Mark(1, "blunder", '<script>x</script> "q"'),))
    svg = graph_svg(curve, 390)
    assert "<script>" not in svg and "&lt;script&gt;x&lt;/script&gt; &quot;q&quot;" in svg
    table = pd.DataFrame(
        {"player": ["<img src=x onerror=alert(1)>"], "moves": [3], "mean_loss": [0.1]}
        | {k: [0] for k in ("inaccuracy", "mistake", "blunder", "results_changed")}
    )
    assert "<img" not in summary_html(table) and "&lt;img" in summary_html(table)


def test_the_default_time_a_position_keeps_a_long_game_within_a_minute():
    assert default_seconds(19) == 0.1
    assert default_seconds(1200) == 0.05
    assert default_seconds(100_000) == 0.02


def test_a_failing_engine_is_one_line_on_the_page(monkeypatch):
    """An engine that fails in the thread: one red line under Analyse, the buttons back."""

    class Broken:
        name = "broken"

        def analyse(self, *args, **kwargs):
            raise ZeroDivisionError("inside the engine")

        def close(self) -> None:
            pass

    rp = widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0)
    rp.analyse(engine=Broken()).join(10)
    assert 'role="alert"' in rp.report.note.value and "ZeroDivisionError" in rp.report.note.value
    assert "inside the engine" not in rp.report.note.value and not rp.report.button.disabled
    assert rp.graph.svg == ""


def test_an_analysis_longer_than_the_bound_is_not_offered(monkeypatch):
    monkeypatch.setattr("widgets.evalgraph.MAX_SECONDS", 5)
    rp = widgets.Replay(DATA / "yokai-3x4-random.jsonl", index=0)  # 19 positions
    assert not rp.report.button.disabled  # 0.1 s each: 2 s
    rp.report.seconds.value = 1.0
    assert rp.report.button.disabled and "too long here" in rp.report.note.value
    assert rp.analyse(engine="ismcts") is None and rp.graph.svg == ""
    rp.report.seconds.value = 0.25
    assert not rp.report.button.disabled
