"""`ToWarState`: a To War! position and the kernel protocol on it. The rules themselves are in
`rules.py` (functions on this state); the text, the words, the scene and the editor in their
own modules, which this class hands each question to.

Two states are equal when the position is (what the rules depend on): the last-move highlight
and the action counter are kept for drawing and records but left out of equality and hashing,
and hands, discards and chain trails are stored in one canonical order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE, TURN_BEGINS, TURN_GOES_ON, Move, Outcome, State
from rules_kernel.games.to_war import notation
from rules_kernel.games.to_war.rules import (
    SETUP_CARDS,
    Draw,
    Unit_,
    _chance_outcomes,
    _compute_outcome,
    _determinize,
    _needs_draw,
    _placements,
    _steps,
    _successor,
    _view,
)

if TYPE_CHECKING:
    from rules_kernel.games.to_war.game import ToWar


@dataclass(frozen=True, repr=False)  # repr: the position text, as every state shows it
class ToWarState(State):
    game: ToWar
    grid: tuple[Unit_ | None, ...]
    reserves: tuple[tuple[int, ...], ...]  # cards left per unit code (the order is chance)
    hands: tuple[tuple[str, ...], ...] = ((), ())
    discards: tuple[tuple[str, ...], ...] = ((), ())
    side: int = 0
    placed: tuple[int, int] = (0, 0)  # cards placed during the set-up
    # a push chain in progress: the unit on `active` steps next; `entering` (the card that
    # pushed it) takes its square when it leaves; trails: squares each moved card stood on
    active: int | None = None
    must_step: bool = False
    entering: Unit_ | None = None
    entering_trail: frozenset[int] = frozenset()
    trails: tuple[tuple[int, frozenset[int]], ...] = ()
    breakthrough: Unit_ | None = None  # the unit that broke into the enemy camp
    # display and bookkeeping only, so not part of the position (equality, hash): the action
    # counter and the cells of the last action (highlighted when drawn)
    ply: int = field(default=0, compare=False)
    last: tuple[str, ...] = field(default=(), compare=False)

    # --- protocol ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return CHANCE if _needs_draw(self) else self.side

    @property
    def turn_part(self) -> str:
        """The rulebook's turn ("Wenn du am Zug bist, decke die oberste Karte deiner Reserve auf
        und lege sie ..."): the draw opens it, the card placed and every push it sets off go on
        in it, until a unit ends on a free square or a fight ends the turn. A placement right
        after its draw (no last action's cells yet) goes on in the draw's turn; one with nothing
        to draw begins its own."""
        if self.current_player == CHANCE:
            return TURN_BEGINS
        if self.active is not None or not self.last:
            return TURN_GOES_ON
        return TURN_BEGINS

    @property
    def chance_for(self) -> int | None:
        """A draw is the drawing player's: the move list names them beside "draws Mamluk"."""
        return self.side if self.current_player == CHANCE else None

    @property
    def setup_done(self) -> bool:
        return self.placed == (SETUP_CARDS, SETUP_CARDS)

    def legal_moves(self) -> list[Move]:
        if self.current_player == CHANCE or self.is_terminal():
            return []
        return list(self._move_list)

    @cached_property
    def _move_list(self) -> list[Move]:
        return _steps(self) if self.active is not None else _placements(self)

    def chance_outcomes(self) -> list[tuple[Draw, float]]:
        return _chance_outcomes(self)

    def parse_chance(self, text: str) -> Draw:
        return notation.parse_chance(self, text)

    def _successor(self, action) -> ToWarState:
        return _successor(self, action)

    def _compute_outcome(self) -> Outcome | None:
        return _compute_outcome(self)

    def view(self, player: int, *, memory: bool | None = None) -> ToWarState:
        """Reserves hold counts only (their order is chance, drawn card by card). In the
        strategic variant the opponent's hand is hidden: its cards go back into that
        reserve's counts (what is known is only hand + reserve together) and show as '?'."""
        super().view(player)  # the base view checks the seat: SeatError for a bad one
        # memory: no card is seen and then hidden again (a hand is drawn unseen), so it changes nothing
        return _view(self, player)

    def determinize(self, rng) -> ToWarState:
        """Deal the '?' hand cards at random from that player's reserve counts."""
        return _determinize(self, rng)

    def to_text(self) -> str:
        return notation.position_text(self)

    def status(self) -> list[str]:
        """What no game from the start reaches (`core.State.status`): cards out of the game
        (a study position lists fewer than the army), players who have not alternated, a
        hand larger than the rules deal."""
        return notation.status(self)
