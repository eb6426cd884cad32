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


@pytest.mark.parametrize("game_id", rk.list_games())
def test_the_explorer_starts_with_fewer_widgets(game_id):
    """Each widget is a message and a model in the page; in the static site making them is
    most of the explorer cell's time (docs/publishing.md): 229 widgets at first, 170 with the
    folded tools built on first use, 126 with shared looks, 94 with the options' form, the
    hand-over and the looking-back note made on first use (and the form made once, not twice)."""
    assert _opened_widgets(lambda: widgets.Explorer(game_id)) <= 100


def _open_widgets() -> int:
    from ipywidgets.widgets.widget import _instances  # Widget.widgets, without its deprecation

    return sum(1 for widget in list(_instances.values()) if widget.comm is not None)


def test_replaced_options_and_references_are_closed():
    """Another game's options and New game's reference replace the old ones: the old widgets
    are closed, not left open in the page, so switching games never grows the page."""
    ex = widgets.Explorer("yokai-3x4")
    ex.options_toggle.value = True  # the form is made: each game's is then made and replaced

    def tour():
        for game_id in [*rk.list_games(), "yokai-3x4"]:
            ex.game_select.value = game_id
            ex.new_game()
            ex.new_game()

    tour()
    after_one = _open_widgets()
    tour()
    assert _open_widgets() == after_one
    assert all(look.comm is not None for look in ex.looks._made.values())


def test_closing_a_part_keeps_the_shared_looks():
    looks = Looks()
    kept = looks.make(w.HTML, value="stays")
    part = w.VBox([looks.make(w.HTML, value="goes"), w.Button(description="goes too")])
    inner = part.children
    looks.close(part)
    assert part.comm is None and all(child.comm is None for child in inner)
    assert inner[1].layout.comm is None and inner[1].style.comm is None  # its own look goes
    assert kept.comm is not None and kept.layout.comm is not None and kept.style.comm is not None


GIVEN_OPTIONS = [
    ("yokai-3x4", {"repetitions": 4}),
    ("war-stories", {"nobori": True, "shinobi_wo_tsukau": True}),
    ("to-war", {"strategic": True}),
    ("war-chest", {"setup": "first-game", "royal_guard": "revised"}),
    ("war-chest", {"players": 4}),
    (
        "war-chest",
        {
            "setup": (
                ("archer", "berserker", "cavalry", "knight"),
                ("lancer", "scout", "pikeman", "mercenary"),
            )
        },
    ),
]


@pytest.mark.parametrize(("game_id", "options"), [(g, {}) for g in rk.list_games()] + GIVEN_OPTIONS)
def test_a_game_starts_the_same_before_its_options_form_is_made(game_id, options):
    """The form is made when the options are first shown; before that, New game starts the game
    the form would start (the same options, checked by the game)."""
    ex = widgets.Explorer(game_id, **options)
    assert ex._form is None  # not made at start
    before = ex.game.options
    ex.options_toggle.value = True
    assert ex._form is not None and ex.options_form_box.children == (ex.form.widget,)
    ex.new_game()
    assert ex.game.options == before


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
