"""The board draws one thing at a time, and what a search thread finds is drawn whatever the
moment it lands (a fresh-machine run: the analysis' arrows were in `board.highlight` but not
on the board, its redraw having landed inside the page's own redraw)."""

from __future__ import annotations

import threading

import pytest

import rules_kernel as rk
import widgets.board as board_module
from widgets.board import Board

SCENE = rk.load_game("yokai-3x4").initial_state().scene()


@pytest.fixture
def board() -> Board:
    board = Board()
    board.show(SCENE)
    assert board.widget.highlight_svg == ""  # nothing to highlight yet
    return board


def test_a_search_thread_s_news_landing_inside_a_redraw_is_drawn(board, monkeypatch):
    """The search's news (here: a target to mark) arrives while the page redraws the board
    from a highlight it worked out before the news: the board ends showing the news."""
    found: dict = {}
    board.live_highlight = lambda: dict(found)
    news: list[threading.Thread] = []
    hit_layer = board_module.hit_layer

    def hit_layer_meanwhile(scene, layout):
        if not news:  # in the middle of the redraw, the search finds something and redraws
            found["targets"] = ("b3",)
            news.append(threading.Thread(target=board.redraw_highlight))
            news[0].start()
            news[0].join(0.5)  # done at once if nothing holds it back
        return hit_layer(scene, layout)

    monkeypatch.setattr(board_module, "hit_layer", hit_layer_meanwhile)
    board.show(SCENE, targets=())  # the page's redraw, from before the news
    news[0].join(10)
    assert board.highlight["targets"] == ("b3",)
    assert 'stroke="#009E73"' in board.widget.highlight_svg  # drawn, not only remembered


def test_the_live_part_is_read_at_each_drawing(board):
    targets: list[str] = []
    board.live_highlight = lambda: {"targets": tuple(targets)}
    board.set_highlight(selected=("b2",))
    assert board.highlight == {"selected": ("b2",), "targets": ()}
    targets.append("b3")
    board.redraw_highlight()
    assert board.highlight == {"selected": ("b2",), "targets": ("b3",)}
    assert 'stroke="#009E73"' in board.widget.highlight_svg
