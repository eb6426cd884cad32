"""`WarStoriesState`: a War Stories position and the kernel protocol on it. The rules themselves
are in `rules.py`; the text, the words, the scene and the editor in their own modules, which
this class hands each question to."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from rules_kernel.core import (
    BETWEEN_TURNS,
    CHANCE,
    TURN_BEGINS,
    TURN_GOES_ON,
    ChanceNotEnumerableError,
    Move,
    Outcome,
    State,
)
from rules_kernel.games.war_stories import notation, rules
from rules_kernel.games.war_stories.rules import UNKNOWN, Deal, square_name

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.game import WarStories


@dataclass(frozen=True, repr=False)  # repr: the position text, as every state shows it
class WarStoriesState(State):
    """A position. `cards[sq]` is a card code, UNKNOWN (hidden from this view) or None."""

    game: WarStories
    pieces: tuple[int, ...]  # 0 or kind | owner << 3
    cards: tuple[str | None, ...]
    side: int = 0
    ply: int = 0
    dealt: bool = True
    face_up: int | None = None  # the first non-Heiya card of this turn, while the turn goes on
    flips: int = 0  # cards flipped this turn, Heiya included
    all_heiya: bool = True  # every flip of this turn so far was a Heiya (Shinobi wo tsukau)
    revealed: frozenset[int] = frozenset()  # squares whose card was ever seen
    nobori: frozenset[int] = frozenset()
    two_ki: tuple[bool, bool] = (False, False)  # the player's last turn turned up two Ki
    removed: tuple[str, ...] = ()  # cards taken off the board (seen by both players)
    lost: int | None = None  # Yonhon no ki: this player lost
    # A view's board cards out of the game (a study position's: not in its text), sorted.
    # Only a state with hidden cards holds them: a full state derives them (`out_of_game`:
    # the box minus what is on the board and removed), so it has one form and one equality.
    out: tuple[str, ...] = ()
    # the cells of the last action, for drawing only: not part of the position (equality,
    # hash and position text leave it out, so transpositions are one position)
    last: tuple[str, ...] = field(default=(), compare=False)
    # what the table shows right after the last action, not part of the position either:
    # the cards it turned face down again (both players saw them turned: they stay in sight,
    # labelled in every view, until the next action), and the player whose flipping turn it
    # ended (who looks at the result and hands over: the widget's "Done - hand over" step)
    shown: tuple[int, ...] = field(default=(), compare=False)
    hand_over_from: int | None = field(default=None, compare=False)
    # a view made with memory=True stays one when viewed again (scene(perspective) of it)
    memory: bool = field(default=False, compare=False)

    # --- protocol (the rules: rules.py) --------------------------------------------------
    @property
    def current_player(self) -> int:
        return CHANCE if not self.dealt else self.side

    @property
    def turn_part(self) -> str:
        """The rulebook's turn: a piece's move, or flipping cards one at a time until the turn
        ends (a pair, no match, Shinobi wo tsukau); the deal stands before the first turn."""
        if not self.dealt:
            return BETWEEN_TURNS
        return TURN_GOES_ON if self.flips > 0 else TURN_BEGINS

    def legal_moves(self) -> list[Move]:
        if not self.dealt or self.is_terminal():
            return []
        return list(self._move_list)

    def _moves(self) -> list[Move]:
        return self._move_list

    @cached_property
    def _move_list(self) -> list[Move]:
        return rules._legal_moves(self)

    def _successor(self, action) -> WarStoriesState:
        return rules._successor(self, action)

    def _compute_outcome(self) -> Outcome | None:
        return rules._outcome(self)

    def chance_outcomes(self):
        if self.dealt:
            return []
        raise ChanceNotEnumerableError("the deal has 38!/(2!^12 8! 6!) outcomes; use sample_chance")

    def sample_chance(self, rng: random.Random) -> Deal:
        return rules._deal(self, rng)

    def parse_chance(self, text: str) -> Deal:
        return notation.parse_deal(self, text)

    @property
    def flipping(self) -> bool:
        """The player to move is in a flipping turn: their face-up card lies in sight and they
        must turn another (no hand-over yet)."""
        return self.flips > 0

    @property
    def cards_in_sight(self) -> tuple[str, ...]:
        """The cells of the cards face up on the table now, labelled in every view: the
        current turn's card, and the cards the last action turned back (until the next
        action)."""
        squares = sorted(((self.face_up,) if self.face_up is not None else ()) + self.shown)
        return tuple(square_name(sq) for sq in squares)

    def view(self, player: int, *, memory: bool | None = None) -> WarStoriesState:
        """What `player` sees, and with `memory=True` remembers.

        Every flip is seen by both players (NOTES.md), so both views label the same cards.
        The default (`memory=False`) labels the cards face up now: the current turn's card and
        the cards the last action turned back, which lie in sight until the next action (the
        flipper looks at the pair before handing over); a card turned back earlier is a card
        back again, `?`, like a card never seen. `memory=True` is perfect memory: every card
        ever revealed stays labelled. `memory=None` keeps the kind of view this state is (a
        true state: False), so `view(p, memory=True).view(p)` and its scene stay as they are.

        Piece moves and flips of labelled cards play on a view; flipping a `?` card raises
        HiddenInformationError (use `determinize` to imagine it)."""
        return rules._view(self, player, memory)

    def determinize(self, rng: random.Random) -> WarStoriesState:
        """Deal the unknown cards at random from the box minus the cards seen on the board,
        the removed ones and those out of the game (a study position's): an out-of-game card
        is never dealt."""
        return rules._determinize(self, rng)

    def hidden_pool(self) -> Counter[str]:
        """The cards a hidden (`?`) card may be: the box minus every card seen on the board,
        removed, or out of the game."""
        return rules._hidden_pool(self)

    @property
    def out_of_game(self) -> tuple[str, ...]:
        """The board cards that are out of the game (sorted): none in a game from the start;
        in a study position, what its text does not list. A full state derives them (the box
        minus the cards on the board and removed); a view keeps them (`out`)."""
        return rules._out_of_game(self)

    # --- text and words (notation.py) ----------------------------------------------------
    def status(self) -> list[str]:
        """What no game from the start reaches (`core.State.status`): cards out of the game,
        a side without its Daimyo, Daimyos side by side, more reinforcements than Engun pairs
        removed, more Shinobi than the rules give, removed cards that no turn removes."""
        return notation.status(self)

    def to_text(self) -> str:
        return notation.position_text(self)

    def forgets(self, action) -> bool:
        """A flip is forgotten where its card lies face down again in this view, a `?`
        (core.State.forgets): a card turned back earlier in `view(p)`, or, looking back, a card
        not turned up yet. Never in the all-seeing state nor with `memory=True` (they label
        every card seen), nor once the card left the board (a Heiya, an Engun pair: removed
        for all to see); a piece move or the deal shows no card to forget."""
        return isinstance(action, rules.Flip) and self.cards[action.square] == UNKNOWN

    @cached_property
    def _flip_texts(self) -> dict[int, tuple[str, str]]:
        """Each flip's two forms of words once made: a move list in a view that forgets asks
        for both (one apply and one outcome for the two; strings only, no state is kept)."""
        return {}
