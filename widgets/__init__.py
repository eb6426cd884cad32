"""Rules Explorer's drawing room: board widgets for notebooks and Voilà dashboards.

Importing this package makes every game state show itself as a picture (SVG) in a notebook,
in JupyterLab and in exported HTML:

    import rules_kernel as rk
    import widgets
    rk.load_game("yokai-3x4").initial_state()     # shows the board
"""

from __future__ import annotations

from rules_kernel.core import State
from widgets.board import Board
from widgets.explorer import Explorer
from widgets.replay import Replay
from widgets.svg import scene_to_svg, state_svg


def _repr_svg_(self: State) -> str:
    return state_svg(self)


State._repr_svg_ = _repr_svg_  # rich display for every game's states

__all__ = ["Board", "Explorer", "Replay", "scene_to_svg", "state_svg"]
