"""The explorer's Analysis panel on a misbehaving Fairy-Stockfish (issue 44 item 8 on the page):
the panel asks the default analysis, never Fairy-Stockfish by name, so an engine that crashes,
hangs or is not a program gives way to the tree search. The page shows the tree search's
values with a note in a player's words (no "EngineError", no path of the binary, no
traceback) and asks the engine again at the next analysis, which uses it once it works.

The stand-in engines are those of tests/test_engine_misbehaviour.py (a script wrapping Debian's
engine that misbehaves on purpose), named by RULES_EXPLORER_FAIRY_STOCKFISH."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from test_engine_misbehaviour import REAL, StandIn, fresh_engines  # noqa: F401 (autouse fixture)

import widgets
from rules_kernel.analysis import EngineError
from rules_kernel.analysis import fsf as fsf_module
from widgets import analysis_panel

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        not os.access(REAL, os.X_OK),
        reason="Fairy-Stockfish is not installed (apt-get install fairy-stockfish)",
    ),
]


def wait_for(condition, timeout: float = 90.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the analysis did not answer in time"
        time.sleep(0.02)


def analysed(panel: analysis_panel.AnalysisPanel) -> None:
    """Switch the panel on (off first: a switch turned on again searches anew) and wait for the
    search to end."""
    panel.switch.value = False
    panel.switch.value = True
    thread = panel._thread
    assert thread is not None
    thread.join(90)
    assert not thread.is_alive()


def page_text(panel: analysis_panel.AnalysisPanel) -> str:
    return " ".join((panel.bar.value, panel.words.value, panel.info.value))


def not_a_program(tmp_path: Path) -> tuple[Path, None]:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a program\n")
    path.chmod(0o755)
    return path, None


def stand_in(mode: str):
    def make(tmp_path: Path) -> tuple[Path, StandIn]:
        engine = StandIn(tmp_path, mode)
        return engine.path, engine

    return make


@pytest.mark.parametrize(
    ("make", "trouble"),
    [
        (stand_in("crash-on-go"), "stopped working (it crashed)"),
        (stand_in("ignore-go"), "did not answer in time"),
        (not_a_program, "could not be started"),
    ],
    ids=["crash-on-go", "ignore-go", "not-a-program"],
)
def test_the_panel_falls_back_to_the_tree_search_in_words_and_uses_the_engine_again(
    tmp_path, monkeypatch, make, trouble
):
    monkeypatch.setattr(fsf_module, "GRACE", 0.5)  # a hung engine is given up sooner
    monkeypatch.setattr(fsf_module, "STOP_GRACE", 0.5)
    binary, engine = make(tmp_path)
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(binary))
    explorer = widgets.Explorer("yokai-5x6", seed=1, analysis_seconds=1.0)
    panel = explorer.analysis

    analysed(panel)
    shown = page_text(panel)
    assert panel.result is not None and panel.result.search.engine == "ismcts"
    assert panel.result.best is not None and "Best line" in panel.words.value
    assert 'role="meter"' in panel.bar.value
    assert "tree search · " in panel.info.value and "done" in panel.info.value
    assert (
        f"Fairy-Stockfish {trouble}, so these values come from the tree search instead. "
        "It will be tried again." in panel.info.value
    )
    for never in ("EngineError", "Traceback", "Analysis stopped", str(tmp_path), binary.name, "SIGKILL"):
        assert never not in shown
    assert explorer.board.highlight["arrows"]  # the tree search's line is drawn

    # the engine works again (the stand-in passes everything on; a real engine where a file
    # that was no program stood): the next analysis uses it, and the note is gone
    if engine is not None:
        engine.set("pass")
    else:
        monkeypatch.setenv(fsf_module.BINARY_ENV, REAL)
    analysed(panel)
    assert panel.result is not None and panel.result.search.engine == "fairy-stockfish"
    assert "Fairy-Stockfish" in panel.info.value and "re-analysis-note" not in panel.info.value
    assert "tree search" not in page_text(panel)


def test_an_engine_not_installed_is_said_without_a_promise(tmp_path, monkeypatch):
    monkeypatch.setenv(fsf_module.BINARY_ENV, str(tmp_path / "no-such-engine"))
    explorer = widgets.Explorer("yokai-5x6", seed=1, analysis_seconds=0.5)
    analysed(explorer.analysis)
    info = explorer.analysis.info.value
    assert (
        "Fairy-Stockfish is not installed on this machine, so these values come from the tree search" in info
    )
    assert "tried again" not in info and "no-such-engine" not in info and "apt-get" not in info


def test_a_working_engine_shows_no_note():
    explorer = widgets.Explorer("yokai-5x6", seed=1, analysis_seconds=0.5)
    analysed(explorer.analysis)
    assert explorer.analysis.result.search.engine == "fairy-stockfish"
    assert "re-analysis-note" not in explorer.analysis.info.value


def test_an_engine_error_reaching_the_panel_is_said_without_its_path(monkeypatch):
    """An engine error the default analysis does not absorb (none today: the guard for a
    future engine) is told in words too, never with the binary's path or the engine's text."""

    def failing(*_args, **_kwargs):
        raise EngineError(f"Fairy-Stockfish ({sys.executable}) sent 'nodes banana' while searching: x")

    monkeypatch.setattr(analysis_panel, "analyse", failing)
    explorer = widgets.Explorer("yokai-5x6", seed=1)
    analysed(explorer.analysis)
    info = explorer.analysis.info.value
    assert "Analysis stopped: Fairy-Stockfish sent an answer that could not be read" in info
    assert sys.executable not in info and "banana" not in info
