"""The explorer's Analysis switch (issue #23 item 2): what the engine is given, what the page
shows, and that the search runs in the background and stops on request.

Most tests replace the engine call by a spy (`widgets.analysis_panel.analyse`) that records
its input and answers at once with a known analysis, so what is checked is the page's own
work; one test runs the real tree search and stops it."""

from __future__ import annotations

import threading
import time

import pytest

import rules_kernel as rk
import widgets
import widgets.board as board_module
from rules_kernel.analysis import Analysis, Estimate, MoveLine, Search
from widgets import analysis_panel
from widgets.explorer import ALL_SEEING


def wait_for(condition, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the analysis did not answer in time"
        time.sleep(0.02)


class Spy:
    """Stands in for `analyse`: records what it was given, answers with `moves` (notation,
    estimate) ranked as given, the first move's line being `line`."""

    def __init__(self, moves=(), line=(), fail: Exception | None = None) -> None:
        self.moves, self.line, self.fail = moves, line, fail
        self.calls: list[tuple[rk.State, int | None]] = []
        # an earlier test's page may still be searching (its thread outlives that test): what
        # such a thread asks of the spy is answered but not recorded as this test's call
        self.strangers = {t for t in threading.enumerate() if t.name == "rules-explorer-analysis"}

    def __call__(self, state, *, viewer, limit, engine, progress, stop) -> Analysis:
        if threading.current_thread() not in self.strangers:
            self.calls.append((state, viewer))
        if self.fail is not None:
            raise self.fail
        ranked = tuple(
            MoveLine(move, value, self.line if i == 0 else (move,))
            for i, (move, value) in enumerate(self.moves)
        )
        first = ranked[0].value if ranked else Estimate(0.5)
        player = state.current_player
        values = tuple(first.win_probability if s == player else 1 - first.win_probability for s in range(2))
        result = Analysis(
            state.game.id, state.to_text(), player, first, values, ranked, self.line, Search("spy"), viewer
        )
        progress(result)
        return result


def analysing(explorer: widgets.Explorer) -> analysis_panel.AnalysisPanel:
    panel = explorer.analysis
    panel.switch.value = True
    wait_for(lambda: panel.result is not None or "stopped" in panel.info.value)
    panel._thread.join(10)
    return panel


def test_the_engine_is_given_the_players_view_never_the_true_state(monkeypatch):
    """In a player's view the engine's input is `state.view(player)`: the cards that player has
    not seen are not in it; all-seeing, it is the true state."""
    spy = Spy()
    monkeypatch.setattr(analysis_panel, "analyse", spy)
    explorer = widgets.Explorer("war-stories", seed=3)
    analysing(explorer)
    true = explorer.state
    (given, viewer), *_ = spy.calls
    assert viewer == true.current_player == explorer.viewer
    assert given.to_text() == true.view(viewer).to_text() != true.to_text()
    explorer.perspective.value = ALL_SEEING
    wait_for(lambda: len(spy.calls) == 2)
    given, viewer = spy.calls[1]
    assert viewer is None and given.to_text() == true.to_text()


def test_the_bar_line_and_targets_show_the_engines_values(monkeypatch):
    """The bar is the viewer's expected score; the best line is written in the move list's
    words and drawn as numbered arrows; a selected piece's targets carry their values."""
    spy = Spy(
        moves=[("b2b3", Estimate(0.62)), ("b1c2", Estimate(0.5, 0.0, "draw", None, True))],
        line=("b2b3", "c4b3", "b1b2", "a1a2"),  # a1a2: a Kitsune cannot: the line stops
    )
    monkeypatch.setattr(analysis_panel, "analyse", spy)
    explorer = widgets.Explorer("yokai-3x4")
    panel = analysing(explorer)
    assert 'aria-valuenow="62"' in panel.bar.value and "62.0%" in panel.bar.value
    assert "Kodama b2–b3 takes Kodama" in panel.words.value
    assert panel.words.value.count("<li>") == 3
    assert [a.cells for a in explorer.board.highlight["arrows"]] == [("b2", "b3"), ("c4", "b3"), ("b1", "b2")]
    assert [a.label for a in explorer.board.highlight["arrows"]] == ["1", "2", "3"]
    assert "Analysis: move 1 of the best line" in explorer.board.widget.highlight_svg
    explorer.click("b2")
    assert explorer.board.highlight["marks"]["b3"][1] == "62%"
    explorer.click("b1")
    assert explorer.board.highlight["marks"]["c2"][1] == "D"


def test_the_search_s_news_during_a_redraw_of_the_page_neither_deadlocks_nor_is_lost(monkeypatch):
    """The search thread posts its result while the page redraws the board (which reads the
    arrows from the panel): both finish, and the board ends with the arrows. Before, the
    panel called the page under its own lock while the page's drawing waited on that lock:
    a fresh-machine run lost the arrows, and the first fix deadlocked."""
    spy = Spy(moves=[("b2b3", Estimate(0.62))], line=("b2b3", "c4b3"))
    monkeypatch.setattr(analysis_panel, "analyse", spy)
    explorer = widgets.Explorer("yokai-3x4")
    panel = analysing(explorer)
    result, generation = panel.result, panel._generation
    with panel._lock:
        panel.result = None  # as if the news had not come yet
    posted: list[threading.Thread] = []
    hit_layer = board_module.hit_layer

    def hit_layer_meanwhile(scene, layout):  # inside the board's drawing
        if not posted:
            news = threading.Thread(
                target=panel._post, args=(generation, result), kwargs={"final": True}, daemon=True
            )
            posted.append(news)
            posted[0].start()
            posted[0].join(0.5)  # it comes now, or waits for the drawing to end
        return hit_layer(scene, layout)

    monkeypatch.setattr(board_module, "hit_layer", hit_layer_meanwhile)
    redraw = threading.Thread(target=explorer.refresh, daemon=True)
    redraw.start()
    redraw.join(20)
    assert not redraw.is_alive(), "the page's redraw and the search's news wait on each other"
    posted[0].join(20)
    assert not posted[0].is_alive()
    assert [a.cells for a in explorer.board.highlight["arrows"]] == [("b2", "b3"), ("c4", "b3")]
    assert "Analysis: move 1 of the best line" in explorer.board.widget.highlight_svg


def test_a_secret_games_line_is_the_players_own_next_move_in_its_own_words(monkeypatch):
    """War Stories in the player's view: the first move only (what follows happens in worlds
    the search imagined), written as the player knows it — the card is not named before it
    is turned. Not the viewer's turn: no line at all, the bar only."""
    explorer = widgets.Explorer("war-stories", seed=3)
    state, player = explorer.state, explorer.state.current_player
    flips = [str(m) for m in state.legal_moves()][:2]
    spy = Spy(moves=[(flips[0], Estimate(0.6, 0.1))], line=(flips[0], flips[1]))
    monkeypatch.setattr(analysis_panel, "analyse", spy)
    panel = analysing(explorer)
    cell = flips[0].split(":")[1]
    assert panel.words.value.count("<li>") == 1
    assert f"turns over {cell}</li>" in panel.words.value
    hidden = state.action_text(state.parse_move(flips[0]), None)  # "turns over a1: Ki" all-seeing
    assert ":" in hidden and hidden not in panel.words.value + panel.bar.value + panel.info.value
    assert len(explorer.board.highlight["arrows"]) == 1
    explorer.perspective.value = 1 - player
    wait_for(lambda: len(spy.calls) == 2 and panel.result is not None)
    panel._thread.join(10)
    assert "shown on your own turn" in panel.words.value
    assert explorer.board.highlight["arrows"] == ()


@pytest.mark.parametrize(
    ("fail", "shown"),
    [
        (ValueError("secret /srv/cards.txt"), "the engine failed"),
        (rk.RulesError("<b>no</b> engine"), "&lt;b&gt;no&lt;/b&gt; engine"),
    ],
)
def test_an_engine_failure_is_one_line_and_no_traceback(monkeypatch, fail, shown):
    monkeypatch.setattr(analysis_panel, "analyse", Spy(fail=fail))
    explorer = widgets.Explorer("to-war", seed=1)
    panel = analysing(explorer)
    assert shown in panel.info.value and "Analysis stopped" in panel.info.value
    assert "Traceback" not in panel.info.value and "/srv" not in panel.info.value
    assert panel.stop_button.disabled


def test_the_real_search_deepens_in_the_background_and_stop_ends_it():
    """The tree search on To War!: the page is answered while it runs (a move is played), the
    new position restarts it, and Stop ends it with what it found."""
    explorer = widgets.Explorer("to-war", seed=1, analysis_seconds=60)
    explorer.perspective.value = ALL_SEEING  # no hand-over curtain between the turns
    panel = explorer.analysis
    panel.switch.value = True
    wait_for(lambda: panel.result is not None)
    first = panel.result.search.playouts
    wait_for(lambda: panel.result.search.playouts > first)  # it deepens
    before = explorer.state.to_text()
    explorer.play(explorer.state.legal_moves()[0])  # the page answers while it searches
    wait_for(lambda: panel.result is not None and panel.subject.state.to_text() != before)
    assert panel.result.position == panel.subject.state.to_text()
    running = panel._thread
    panel.stop_button.click()
    running.join(5)
    assert not running.is_alive() and panel.result.search.stopped
    assert "stopped" in panel.info.value
    assert [t for t in threading.enumerate() if t.name == "rules-explorer-analysis" and t.is_alive()] == []


def test_switching_off_forgets_the_analysis_and_the_arrows(monkeypatch):
    monkeypatch.setattr(analysis_panel, "analyse", Spy(moves=[("b2b3", Estimate(0.6))], line=("b2b3",)))
    explorer = widgets.Explorer("yokai-3x4")
    panel = analysing(explorer)
    assert explorer.board.highlight["arrows"]
    panel.switch.value = False
    assert panel.result is None and panel.bar.value == ""
    assert explorer.board.highlight["arrows"] == ()


def test_behind_the_curtain_nothing_is_analysed_or_shown(monkeypatch):
    """Two players at one screen: while the board is hidden for the hand-over, the analysis
    shows nothing of the position (nor of the player who just moved)."""
    spy = Spy()
    monkeypatch.setattr(analysis_panel, "analyse", spy)
    explorer = widgets.Explorer("to-war", seed=1, strategic=True)  # hands hidden: a curtain
    panel = analysing(explorer)
    explorer.play(explorer.state.legal_moves()[0])
    assert explorer.curtain_for is not None
    assert panel.result is None and panel.bar.value == "" and "Hidden until" in panel.words.value
    assert len(spy.calls) == 1
