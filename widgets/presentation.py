"""What one viewer may see of a game, decided in one place for every widget.

A `Presentation` is a game (its states and the actions between them) as seen by a viewer:
a player's seat, or None for the all-seeing analysis view. It holds the scene drawn from
`state.view(viewer)`, the move list as that viewer saw it (`State.action_text`), the moves
that viewer may make now (none when it is not their turn), and whether the position text
and the record may be shown (they hold every secret, so only all-seeing or after the end).
Widgets draw from a Presentation and never read the full state when a viewer is set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import rules_kernel as rk
from rules_kernel.core import Action, Move, State
from rules_kernel.scene import Scene


@dataclass(frozen=True)
class MoveLine:
    """One numbered entry of the move list."""

    number: int  # 1 for the first action
    player: int | None  # who acted; None for chance (a deal, a draw)
    side: str  # the player's name, or "Chance"
    text: str  # the action as the viewer learned of it, with the piece named in words

    def __str__(self) -> str:
        return f"{self.number}. {self.side}: {self.text}"


@dataclass(frozen=True)
class Presentation:
    viewer: int | None
    scene: Scene
    lines: tuple[MoveLine, ...]
    moves: tuple[Move, ...]  # the viewer's legal moves now
    chance_pending: bool
    secrets_visible: bool  # may the position text and the full record be shown?

    @property
    def status(self) -> str:
        return self.scene.status


def present(states: Sequence[State], actions: Sequence[Action], viewer: int | None) -> Presentation:
    """The game `states[0] --actions--> states[-1]` as `viewer` (None: all-seeing) sees it."""
    state = states[-1]
    seen = state if viewer is None else state.view(viewer)
    scene = seen.scene(viewer)
    mover = state.current_player
    at_chance = mover == rk.CHANCE and not state.is_terminal()
    may_move = viewer is None or viewer == mover
    moves = tuple(state.legal_moves()) if may_move and not at_chance else ()
    return Presentation(viewer, scene, tuple(move_lines(states, actions, viewer)), moves, at_chance,
                        viewer is None or state.is_terminal())


def move_lines(states: Sequence[State], actions: Sequence[Action], viewer: int | None) -> list[MoveLine]:
    names = states[0].game.player_names if states else ()
    lines = []
    for number, (before, action) in enumerate(zip(states, actions, strict=False), start=1):
        player, text = _seen(before, action, viewer)
        side = "Chance" if player is None else names[player]
        lines.append(MoveLine(number, player, side, text))
    return lines


@lru_cache(maxsize=8192)
def _seen(before: State, action: Action, viewer: int | None) -> tuple[int | None, str]:
    """Who acted and what `viewer` learned of it. Cached: states are immutable values equal by
    position, so every refresh of a long game does not build a scene per past ply again."""
    player = before.current_player
    if player == rk.CHANCE:
        return None, before.action_text(action, viewer)
    return player, _with_piece_name(before, action, before.action_text(action, viewer), viewer)


def _with_piece_name(before: State, action: Action, text: str, viewer: int | None) -> str:
    """'b1c2' -> 'Koropokkuru b1c2': the piece on the first cell, as the viewer saw it."""
    cells = getattr(action, "cells", ())
    if not cells:
        return text
    scene = (before if viewer is None else before.view(viewer)).scene(viewer)
    name = _name_at(scene, cells[0])
    if not name or name in ("?", "") or name.lower() in text.lower().replace("-", " "):
        return text
    return f"{name} {text}"


def _name_at(scene: Scene, cell: str) -> str:
    token = scene.token_at(cell)
    if token is not None:
        return "" if token.face_down and token.name in ("", "?") else token.name
    for zone in scene.zones:
        for item in zone.items:
            if item.cell == cell:
                return "" if item.face_down else item.name
    return ""
