"""`ToWarState`: a To War! position and the kernel protocol on it. The rules themselves are in
`rules.py` (functions on this state); the text, the words, the scene and the editor in their
own modules, which this class hands each question to.

Two states are equal when the position is (what the rules depend on): the last-move highlight
and the action counter are kept for drawing and records but left out of equality and hashing,
and hands, discards and chain trails are stored in one canonical order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE, TURN_BEGINS, TURN_GOES_ON, EditPiece, Move, Outcome, State
from rules_kernel.games.to_war import edit as editor
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
from rules_kernel.position_text import read_edit

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

    # --- the board editor (core.State's hooks) ------------------------------------------
    def edit_pieces(self) -> tuple[EditPiece, ...]:
        """Each seat's cards by the unit table's names (the rulebook's: Mamluk, Beduine ...),
        keyed by their codes: on the field (the 3x4 grid, the scene's cells one to one), and
        each counted in three piles, keyed `<code>@<pile>`: "reserve" (the rulebook's
        Reserve), "hand" (the drawn card; three in the strategic variant) and "discards" (the
        Ablagestapel)."""
        return editor.edit_pieces(self.game)

    def edit_hands(self) -> dict[tuple[int | None, str], int]:
        """How many of each card each seat has in reserve, in hand and discarded, keyed
        (seat, "<code>@<pile>")."""
        return editor.edit_hands(self)

    def edit_fields(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The phase (set-up or in play), and what a turn leaves between actions: the push
        (a card of the mover's pushing onto the square of the mover's unit that must step
        on, or a two-step unit that may step again) and the unit that broke through (a game
        won); cards by name. These are the scene's zones "Pushing onto ..." and the camps:
        only the field's squares are cells."""
        return editor.edit_fields(self)

    def edit(
        self,
        *,
        place: Mapping[str, str | None] | None = None,
        hands: Mapping[tuple[int | None, str], int] | None = None,
        to_move: int | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> ToWarState:
        """This position edited (core.State.edit), read back from its position text, so
        checked exactly as one is.

        A card is never made out of nothing: `place` moves it. A card put on a square is
        taken from its owner's reserve first, then from the hand, then from the discards,
        the order in which cards come onto the field in play: every card starts in the
        reserve ("legt sie verdeckt vor euch ab – dies ist eure Reserve") and is played from
        it ("decke die oberste Karte deiner Reserve auf und lege sie auf einen der drei
        Plätze"), through the hand in the strategic variant ("zieht ... je drei Karten von
        eurer Reserve"); a card on the Ablagestapel has been beaten and is taken back only
        when nothing else is left. So a click on the field in the start position (all 17
        cards of each army in reserve) just works. The card a placement replaces, and a
        card taken off the field (None), goes back to its owner's reserve. The squares of
        one edit are emptied before any card is put down, so a swap or a move within the
        field needs no free card. Only when none of the owner's piles holds the card is the
        edit refused ("reserves", naming the square; a card out of the game in a study
        position comes back by a counter). The counters (`hands`) are then set to exactly
        the counts asked for, after the placements: `MAM@reserve` set to n is n.

        During the set-up each seat's set-up count is its cards on the field; in play it is
        six each. The turn's trails (squares the moving cards stood on) are kept where the
        same card still stands; the card pushing in keeps its own only while it is
        unchanged. It starts a game: ply 0, no last move."""
        return read_edit(
            self.game,
            lambda: editor.edited(self, place or {}, hands or {}, to_move, fields or {}),
            notation.position_text,
        )
