"""widgets.looks: the controls of a page that look alike share one layout and one style
widget, and nothing the explorer does later changes a shared one (it would change them all)."""

from __future__ import annotations

import random

import ipywidgets as w
import pytest

import rules_kernel as rk
import widgets
from widgets.explorer import ALL_SEEING, FOLLOW_TURN
from widgets.looks import Looks


def test_one_layout_and_one_style_per_look():
    looks = Looks()
    undo = looks.make(w.Button, description="Undo", layout={"width": "90px"})
    redo = looks.make(w.Button, description="Redo", layout={"width": "90px"})
    wide = looks.make(w.Button, description="Play", layout={"width": "auto"})
    assert undo.layout is redo.layout and undo.style is redo.style
    assert wide.layout is not undo.layout and wide.style is undo.style
    assert undo.layout.width == "90px" and wide.layout.width == "auto"
    label = looks.make(w.Dropdown, description="View", style={"description_width": "initial"})
    assert label.style.description_width == "initial" and type(label.style).__name__ == "DescriptionStyle"
    assert len(looks) == 5  # three layouts (90px, auto, the default), a button style, a label style


def test_a_style_for_a_control_without_one_is_refused():
    with pytest.raises(TypeError, match="Box has no style"):
        Looks().make(w.Box, style={"description_width": "initial"})


def test_two_pages_share_nothing():
    first, second = Looks(), Looks()
    assert first.make(w.HTML).layout is not second.make(w.HTML).layout


def _opened_widgets(make) -> int:
    opened = []
    original = w.Widget.open

    def counting(widget):
        opened.append(widget)
        return original(widget)

    w.Widget.open = counting
    try:
        make()
    finally:
        w.Widget.open = original
    return len(opened)


def test_the_explorer_starts_with_fewer_widgets():
    """Each widget is a message and a model in the page; in the static site making them is
    most of the explorer cell's time (docs/publishing.md): 229 widgets at first, 170 with the
    folded tools built on first use, 126 with shared looks."""
    assert _opened_widgets(lambda: widgets.Explorer("yokai-3x4")) <= 130


def _shared_looks(explorer) -> list[w.Widget]:
    """Every layout and style widget that more than one control of the page holds."""
    holders: dict[str, list] = {}
    seen = set()

    def walk(widget):
        if widget.model_id in seen:
            return
        seen.add(widget.model_id)
        for name in widget.keys:
            value = getattr(widget, name, None)
            for part in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(part, w.Widget):
                    if name in ("layout", "style"):
                        holders.setdefault(part.model_id, []).append(part)
                    walk(part)

    walk(explorer)
    return [parts[0] for parts in holders.values() if len(parts) > 1]


@pytest.mark.parametrize("game_id", rk.list_games())
def test_nothing_the_explorer_does_changes_a_shared_look(game_id):
    """Played, undone, looked back at, seen in each view (the curtain and the hand-over in a
    game with secrets), the options and the folded tools opened: no shared layout or style
    changes, so no control is hidden, resized or recoloured with another."""
    ex = widgets.Explorer(game_id, seed=5)
    shared = _shared_looks(ex)
    assert len(shared) >= 5
    changes = []
    for look in shared:
        look.observe(lambda change: changes.append((type(change["owner"]).__name__, change["name"])))
    rng = random.Random(1)
    for view in [ALL_SEEING, FOLLOW_TURN, *[value for _, value in ex.perspective.options]]:
        if view in [value for _, value in ex.perspective.options]:
            ex.perspective.value = view
        for _ in range(4):
            if ex.state.is_terminal() or ex.state.current_player == rk.CHANCE:
                break
            ex.play(rng.choice(ex.state.legal_moves()))
    ex.undo()
    ex.look_at(0)
    ex.turn_board.value = ex.hex_names.value = True
    ex.options_toggle.value = ex.tools_toggle.value = True
    ex.new_game()
    assert changes == []
