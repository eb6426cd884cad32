"""To War!: two armies of 17 cards on a 3x4 grid; each turn a card enters the back rank and
pushes a chain of units until a fight, an empty square or a breakthrough.

Rulebook: rules/to-war.de.txt; rulings: rules/NOTES.md. The unit values are printed only on
the cards: they come from a table (`rules_kernel/data/to-war-units.csv`, PROVISIONAL) that a
user replaces with their own (option `units`: a CSV/JSON path, a pandas DataFrame or rows).

Turn structure (one action each, so every choice is the player's and every draw is chance):
1. chance: the player draws the top card of their reserve (`draw:BED`); the order of a
   shuffled reserve is uniformly random, so each draw is drawn from the remaining cards;
2. the player places it (`BED@b1`): during the set-up anywhere free in their own half (the
   first card in the middle of the front rank), in play on one of the three squares of their
   back rank ("Lege sie auf einen der drei Plätze in deiner unteren Reihe");
3. a displaced unit steps (`b1b2`): forward, or sideways if its card shows it; onto an empty
   square (a two-step unit may then step once more, or `stop`), onto an own unit (which is
   displaced in turn), onto an enemy (combat; +2 attacking from the side), or forward off
   the opponent's edge (breakthrough, `b4b5`: the game is won). No card enters a square it
   already stood on this turn. A step is offered only if the chain can still be completed.
Rulings where the rulebook is silent (NOTES.md and here): player 0 sets up and plays first;
a card may not be placed on an enemy unit; a player who cannot place their card discards it;
the two players never take the same army (one deck per army in the box); in the strategic
variant the game ends only when both reserves and both hands are spent.

Two states are equal when the position is (what the rules depend on): the last-move highlight
and the action counter are kept for drawing and records but left out of equality and hashing,
and hands, discards and chain trails are stored in one canonical order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from rules_kernel.core import (
    CHANCE,
    ChanceOutcome,
    EditPiece,
    Game,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Option,
    OptionError,
    Outcome,
    ReferenceEntry,
    State,
)
from rules_kernel.games.to_war import hints
from rules_kernel.games.to_war import reference as reference_panel
from rules_kernel.games.to_war.cards import (
    ARMIES,
    ARMY_NAMES,
    MAX_TABLE_BYTES,
    Unit,
    _check_armies,
    load_units,
    units_from_bytes,
)
from rules_kernel.position_text import (
    FieldError,
    check_playable,
    named_fields,
    read_edit,
    read_position,
    split_field,
    whole_number,
)
from rules_kernel.scene import Cell, Scene, Token, Zone, ZoneItem, zone_cell

if TYPE_CHECKING:
    from rules_kernel.records import Record

FILES, RANKS = 3, 4
SETUP_CARDS = 6


# --- actions ---------------------------------------------------------------------------------


def square_name(sq: int) -> str:
    return f"{'abc'[sq % FILES]}{sq // FILES + 1}"


SQUARES = {square_name(sq): sq for sq in range(FILES * RANKS)}


@dataclass(frozen=True)
class Draw(ChanceOutcome):
    code: str

    def __str__(self) -> str:
        return f"draw:{self.code}"


@dataclass(frozen=True)
class Place(Move):
    """Put a card from the hand on a square: `BED@b1`."""

    code: str
    square: int
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.code}@{square_name(self.square)}"


@dataclass(frozen=True)
class Step(Move):
    """The moving unit steps: `b1b2`; off the opponent's edge: `b4b5` (breakthrough)."""

    frm: int
    to: int | None  # None: off the grid (breakthrough)
    target: str = ""
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return square_name(self.frm) + self.target


@dataclass(frozen=True)
class Stop(Move):
    """A two-step unit declines its second step."""

    square: int
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Discard(Move):
    """No legal placement: the card goes to the discard pile and the turn passes."""

    code: str
    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"discard:{self.code}"


#: the hand zone's key of the pass (`Pass.cells`): what a click passes on
PASS_KEY = "pass"


@dataclass(frozen=True)
class Pass(Move):
    """No card left to play (reserve and hand empty) while the other player still has some:
    the turn passes. Only a study position with fewer cards than the army gets here. Its cell
    is the "Pass" entry of the player's empty hand zone."""

    cells: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "pass"


# --- the game --------------------------------------------------------------------------------


class ToWar(Game):
    id = "to-war"
    title = "To War!"
    # what the game is (rules_kernel.info): hands and draw piles are hidden, the piles shuffled
    HIDDEN_INFORMATION = True
    CHANCE = True
    MEMORY = False
    PARTS = frozenset({"position text", "words", "scene", "editor", "reference", "heuristic"})
    OPTIONS: ClassVar[dict[str, Option]] = {
        "armies": Option(
            ["southern", "northern"],
            "the first and the second player's army",
            kind=(list, tuple),
            check=_check_armies,
            items=ARMIES,
        ),
        "strategic": Option(
            False,
            "the variant for more strategy (the rulebook's 'Variante für mehr Strategie'): a hand of "
            "three cards, drawn back to three after each turn",
            kind=bool,
        ),
        "units": Option(
            None,
            "the unit table: the provisional one shipped with the package (None), or your own as "
            "rows, a DataFrame or a CSV/JSON file",
            check=load_units,
            from_bytes=units_from_bytes,
            max_bytes=MAX_TABLE_BYTES,
        ),
    }

    def _check_options(self, values: dict[str, Any]) -> dict[str, Any]:
        if values["units"] is None:
            values["units"] = load_units(None)
        for army in values["armies"]:
            if not any(r["army"] == army for r in values["units"]):
                raise OptionError(f"to-war: the unit table has no cards for the {army} army")
        return values

    @cached_property
    def units(self) -> dict[str, Unit]:
        return {
            r["code"]: Unit(
                r["army"],
                r["unit"],
                r["code"],
                r["count"],
                r["attack"],
                r["defence"],
                r["sideways"],
                r["steps"],
                r["elite"],
            )
            for r in self.options["units"]
        }

    def army_codes(self, player: int) -> tuple[str, ...]:
        army = self.options["armies"][player]
        return tuple(u.code for u in self.units.values() if u.army == army)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(ARMY_NAMES[a] for a in self.options["armies"])

    def initial_state(self) -> ToWarState:
        reserves = tuple(tuple(self.units[c].count for c in self.army_codes(p)) for p in (0, 1))
        return ToWarState(self, (None,) * (FILES * RANKS), reserves)

    def from_text(self, text: str) -> ToWarState:
        return _from_text(self, text)

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 40
    HEATMAPS = (hints.BREAKTHROUGHS_HEATMAP,)

    def heuristic(self, state: State, player: int) -> float:
        """Units on the grid, the player's minus the opponent's, over 12 (the squares)."""
        return hints.heuristic(state, player)

    @classmethod
    def data_options(cls, setting: int) -> dict[str, Any]:
        """The army pair cycles through the 12 pairs as seated, so every pair, and every army
        on each seat, gets the same share of the games."""
        return hints.data_options(setting)

    @classmethod
    def seat_holdings(cls, record: Record) -> dict[str, list[Any]]:
        """Each seat's army, from the record's options."""
        armies = record.options.get("armies")
        return {"army": list(armies)} if isinstance(armies, list) else {}

    def reference(self) -> list[ReferenceEntry]:
        """What a card's two numbers and its arrows mean ("Eigenschaften der Einheiten", "Der
        Kampf"), and every unit of this game's unit table, army by army (the armies in play
        first), with its values: the table is the truth (the shipped one is provisional)."""
        return reference_panel.entries(self)


GAMES = [ToWar]


Unit_ = tuple[int, str]  # (owner, unit code)


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
        return CHANCE if self._needs_draw() else self.side

    @property
    def chance_for(self) -> int | None:
        """A draw is the drawing player's: the move list names them beside "draws Mamluk"."""
        return self.side if self.current_player == CHANCE else None

    def _needs_draw(self) -> bool:
        if self.breakthrough is not None or self.active is not None:
            return False
        want = 3 if self.game.options["strategic"] and self.setup_done else 1
        return len(self.hands[self.side]) < want and sum(self.reserves[self.side]) > 0

    @property
    def setup_done(self) -> bool:
        return self.placed == (SETUP_CARDS, SETUP_CARDS)

    def legal_moves(self) -> list[Move]:
        if self.current_player == CHANCE or self.is_terminal():
            return []
        return list(self._move_list)

    @cached_property
    def _move_list(self) -> list[Move]:
        return self._steps() if self.active is not None else self._placements()

    def chance_outcomes(self) -> list[tuple[Draw, float]]:
        if self.current_player != CHANCE:
            return []
        counts = self.reserves[self.side]
        total = sum(counts)
        return [
            (Draw(code), n / total)
            for code, n in zip(self.game.army_codes(self.side), counts, strict=True)
            if n
        ]

    def parse_chance(self, text: str) -> Draw:
        for outcome, _ in self.chance_outcomes():
            if str(outcome) == text:
                return outcome
        draws = ", ".join(str(o) for o, _ in self.chance_outcomes())
        raise IllegalMoveError(
            f"{text!r}: the reserve of {self.game.player_names[self.side]} holds "
            f"no such card (possible draws: {draws or 'none'})"
        )

    def _successor(self, action) -> ToWarState:
        if isinstance(action, Draw):
            return self._draw(action.code)
        if getattr(action, "code", None) == "?":  # a view's hidden card: nothing to put down
            raise HiddenInformationError(
                f"{action}: this card is hidden in this view; play on the full "
                "state or on view.determinize(rng)"
            )
        if isinstance(action, Place):
            after = self._place(action)
        elif isinstance(action, Discard):
            after = self._end_turn(
                self._without_hand_card(action.code).replaced(
                    discards=_add(self.discards, self.side, action.code)
                )
            )
        elif isinstance(action, (Stop, Pass)):
            after = self._end_turn(self)
        else:
            after = self._step(action)
        return after.replaced(ply=self.ply + 1)

    def _compute_outcome(self) -> Outcome | None:
        if self.breakthrough is not None:
            return Outcome.win(self.breakthrough[0], "breakthrough into the opponent's camp")
        if any(sum(r) for r in self.reserves) or any(self.hands) or self.active is not None:
            return None
        units = [sum(1 for u in self.grid if u and u[0] == p) for p in (0, 1)]
        if units[0] != units[1]:
            return Outcome.win(
                int(units[1] > units[0]), f"both reserves spent: {units[0]} to {units[1]} units on the field"
            )
        elite = [sum(1 for u in self.grid if u and u[0] == p and self.game.units[u[1]].elite) for p in (0, 1)]
        if elite[0] != elite[1]:
            return Outcome.win(
                int(elite[1] > elite[0]),
                f"both reserves spent: {units[0]} units each, {elite[0]} to {elite[1]} elite units",
            )
        return Outcome.draw(f"both reserves spent: {units[0]} units and {elite[0]} elite units each")

    def action_text(self, action, viewer: int | None = None) -> str:
        """The action in the rulebook's words, without the actor (the move list names the side),
        the units by the names of the unit table: "draws Saqāliba", "places Beduine on b1,
        displacing Sarbaz", "pushes Sarbaz from b1 to b2, displacing Saqāliba", "Reiter
        a2–a3", fights with both numbers and the result ("... attacks Berserker from the side:
        attack 4 + 2 = 6 > defence 5, Berserker discarded, Beduine takes c2"), breakthroughs,
        discards, "stays on a2: no second step", and the end of the game when it comes.

        A card shows two strengths: the attacker's Angriffsstärke (attack) against the
        defender's Verteidigungsstärke (defence), +2 attacking sideways ("Greifst du seitwärts
        an ... um +2"); greater wins, smaller loses, equal: both retreat to the discard pile.
        What the viewer learns is read from `view(viewer)` after the action: in the strategic
        variant the opponent's hand is hidden, so a draw into it is "draws a card"; a placed
        card lies face up, so it is named. `str(action)` (the notation) stays for records."""
        action = self._action_of(action)
        try:
            after = self.apply(action)
        except HiddenInformationError:  # a view's hidden card ('?'): nothing more is known
            return (
                f"places a card on {square_name(action.square)}" if isinstance(action, Place) else str(action)
            )
        seen = after if viewer is None else after.view(viewer)
        if isinstance(action, Draw):
            drawn = action.code in seen.hands[self.side]
            return f"draws {self._name(action.code)}" if drawn else "draws a card"
        if isinstance(action, Place):
            text = self._place_text(action, seen)
        elif isinstance(action, Discard):
            shown = action.code in seen.discards[self.side]
            text = f"discards {self._name(action.code) if shown else 'a card'}: no square to place it on"
        elif isinstance(action, Pass):
            text = "passes: no card left in reserve or hand"
        elif isinstance(action, Stop):
            name = self._name(self.grid[action.square][1])
            text = f"{name} stays on {square_name(action.square)}: no second step"
        else:
            text = self._step_text(action, after)
        return text + _end_text(after)

    def _name(self, code: str) -> str:
        unit = self.game.units.get(code)
        return unit.name if unit else "a card"

    def _place_text(self, move: Place, seen: ToWarState) -> str:
        card, square = (self.side, move.code), square_name(move.square)
        named = seen.grid[move.square] == card or seen.entering == card  # lies face up: seen
        text = f"places {self._name(move.code) if named else 'a card'} on {square}"
        displaced = self.grid[move.square] if self.setup_done else None
        return text + (f", displacing {self._name(displaced[1])}" if displaced else "")

    def _step_text(self, step: Step, after: ToWarState) -> str:
        """A pushed unit's step ("pushes Sarbaz from b1 to b2") or a free one ("Reiter
        a2–a3"), and what it met: an own unit (displaced in turn), an enemy (a fight), the
        opponent's camp (a breakthrough), or a free square."""
        mover = self.grid[step.frm]
        name, frm = self._name(mover[1]), square_name(step.frm)
        pushed = self.entering is not None
        if step.to is None:
            camp = f"the camp of the {self.game.player_names[1 - mover[0]]}"
            if pushed:
                return f"pushes {name} from {frm} into {camp}: breakthrough, the game is won"
            return f"{name} {frm} breaks through into {camp}: the game is won"
        to = square_name(step.to)
        moved = f"pushes {name} from {frm} to {to}" if pushed else f"{name} {frm}–{to}"
        target = self.grid[step.to]
        if target is None:
            again = after.active == step.to and not after.must_step
            return moved + ("; it may step once more" if again else "")
        if target[0] == mover[0]:
            return f"{moved}, displacing {self._name(target[1])}"
        attacks = f"{moved}, attacking " if pushed else f"{moved} attacks "
        return attacks + self._fight_text(step, mover, target, after)

    def _fight_text(self, step: Step, attacker: Unit_, defender: Unit_, after: ToWarState) -> str:
        """ "Berserker from the side: attack 4 + 2 = 6 > defence 5, Berserker discarded, Beduine takes c2"."""
        a, d = self._name(attacker[1]), self._name(defender[1])
        attack, defence = self.game.units[attacker[1]].attack, self.game.units[defender[1]].defence
        sideways = step.frm // FILES == step.to // FILES
        total = attack + 2 if sideways else attack
        compare = ">" if total > defence else "<" if total < defence else "="
        sums = f"attack {attack} + 2 = {total}" if sideways else f"attack {attack}"
        to, held = square_name(step.to), after.grid[step.to]
        if held == attacker:
            result = f"{d} discarded, {a} takes {to}"
        elif held == defender:
            result = f"{a} discarded, {d} holds {to}"
        else:
            result = f"both retreat to the discard pile, {to} is free"
        return f"{d}{' from the side' if sideways else ''}: {sums} {compare} defence {defence}, {result}"

    def view(self, player: int, *, memory: bool | None = None) -> ToWarState:
        """Reserves hold counts only (their order is chance, drawn card by card). In the
        strategic variant the opponent's hand is hidden: its cards go back into that
        reserve's counts (what is known is only hand + reserve together) and show as '?'."""
        super().view(player)  # the base view checks the seat: SeatError for a bad one
        # memory: no card is seen and then hidden again (a hand is drawn unseen), so it changes nothing
        if not self.game.options["strategic"]:
            return self
        other = 1 - player
        hidden = [c for c in self.hands[other] if c != "?"]
        if not hidden:
            return self
        counts = list(self.reserves[other])
        codes = self.game.army_codes(other)
        for code in hidden:
            counts[codes.index(code)] += 1
        return self.replaced(
            reserves=_set(self.reserves, other, tuple(counts)),
            hands=_set(self.hands, other, ("?",) * len(self.hands[other])),
        )

    def determinize(self, rng) -> ToWarState:
        """Deal the '?' hand cards at random from that player's reserve counts."""
        state = self
        for player in (0, 1):
            unknown = state.hands[player].count("?")
            if not unknown:
                continue
            codes = state.game.army_codes(player)
            pool = [code for code, n in zip(codes, state.reserves[player], strict=True) for _ in range(n)]
            drawn = rng.sample(pool, unknown)
            counts = list(state.reserves[player])
            for code in drawn:
                counts[codes.index(code)] -= 1
            hand = tuple(sorted(tuple(c for c in state.hands[player] if c != "?") + tuple(drawn)))
            state = state.replaced(
                reserves=_set(state.reserves, player, tuple(counts)),
                hands=_set(state.hands, player, hand),
            )
        return state

    def to_text(self) -> str:
        return _to_text(self)

    def status(self) -> list[str]:
        """What no game from the start reaches (`core.State.status`): cards out of the game
        (a study position lists fewer than the army), players who have not alternated, a
        hand larger than the rules deal."""
        return _status(self)

    # --- the board editor (core.State's hooks) ------------------------------------------
    def edit_pieces(self) -> tuple[EditPiece, ...]:
        """Each seat's cards by the unit table's names (the rulebook's: Mamluk, Beduine ...),
        keyed by their codes: on the field (the 3x4 grid, the scene's cells one to one), and
        each counted in three piles, keyed `<code>@<pile>`: "reserve" (the rulebook's
        Reserve), "hand" (the drawn card; three in the strategic variant) and "discards" (the
        Ablagestapel)."""
        return _edit_pieces(self.game)

    def edit_hands(self) -> dict[tuple[int | None, str], int]:
        """How many of each card each seat has in reserve, in hand and discarded, keyed
        (seat, "<code>@<pile>")."""
        return _edit_hands(self)

    def edit_fields(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The phase (set-up or in play), and what a turn leaves between actions: the push
        (a card of the mover's pushing onto the square of the mover's unit that must step
        on, or a two-step unit that may step again) and the unit that broke through (a game
        won); cards by name. These are the scene's zones "Pushing onto ..." and the camps:
        only the field's squares are cells."""
        return _edit_fields(self)

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
            self.game, lambda: _edited(self, place or {}, hands or {}, to_move, fields or {}), _to_text
        )

    def scene(self, perspective: int | None = None) -> Scene:
        return _scene(self if perspective is None else self.view(perspective), perspective)

    def why_illegal(self, text: str) -> str:
        if self.current_player == CHANCE:
            return f"{text!r}: a card must be drawn first (a chance event)"
        legal = ", ".join(str(m) for m in self.legal_moves()) or "none"
        if self.active is not None:
            return (
                f"{text!r}: the unit on {square_name(self.active)} "
                f"{'must' if self.must_step else 'may'} step now; legal: {legal}"
            )
        return f"{text!r} is not a legal placement here; legal: {legal}"

    # --- placing -------------------------------------------------------------------------
    def _placements(self) -> list[Move]:
        hand = self.hands[self.side]
        if not hand and not sum(self.reserves[self.side]):
            # "Das Spiel endet, wenn ... Beide Reserven sind aufgebraucht": until then the
            # other plays on; this one has nothing to place (ruling, docs/games/to-war.md)
            return [Pass((zone_cell(f"hand-{self.side}", PASS_KEY),))]
        if not self.setup_done:
            targets = self._setup_squares()
        else:
            back = 0 if self.side == 0 else RANKS - 1
            targets = [back * FILES + f for f in range(FILES) if self._can_place(back * FILES + f)]
        strategic = self.game.options["strategic"]
        moves: list[Move] = [
            Place(
                code, sq, ((zone_cell(f"hand-{self.side}", code),) if strategic else ()) + (square_name(sq),)
            )
            for code in sorted(set(hand))
            for sq in targets
        ]
        if not moves and hand:  # ruling: no legal placement, the card is discarded
            moves = [Discard(code, (zone_cell(f"hand-{self.side}", code),)) for code in sorted(set(hand))]
        return moves

    def _setup_squares(self) -> list[int]:
        front = 1 if self.side == 0 else 2
        if self.placed[self.side] == 0:  # "Die beiden zuerst platzierten Karten ... in der Mitte"
            return [front * FILES + 1]
        half = range(0, 2) if self.side == 0 else range(2, 4)
        return [r * FILES + f for r in half for f in range(FILES) if self.grid[r * FILES + f] is None]

    def _can_place(self, sq: int) -> bool:
        unit = self.grid[sq]
        if unit is None:
            return True
        if unit[0] != self.side:
            return False  # ruling: no card is placed on an enemy unit
        return _completable(self.replaced(active=sq, must_step=True, entering=(self.side, "?")))

    def _place(self, move: Place) -> ToWarState:
        state = self._without_hand_card(move.code).replaced(last=(square_name(move.square),))
        card = (self.side, move.code)
        if not self.setup_done:
            placed = list(self.placed)
            placed[self.side] += 1
            return state.replaced(
                grid=_put(self.grid, move.square, card), placed=tuple(placed), side=1 - self.side
            )
        if self.grid[move.square] is None:
            return self._end_turn(state.replaced(grid=_put(self.grid, move.square, card)))
        return state.replaced(active=move.square, must_step=True, entering=card)  # "verdrängt"

    # --- stepping --------------------------------------------------------------------------
    def _steps(self) -> list[Move]:
        moves: list[Move] = [] if self.must_step else [Stop(self.active, (square_name(self.active),))]
        for step in self._raw_steps():
            if not _pushes(self, step) or _completable(self._step(step)):
                moves.append(step)
        return moves

    def _raw_steps(self) -> list[Step]:
        sq = self.active
        if self.entering is not None and sq in self.entering_trail:
            return []  # the waiting card may not re-enter a square it stood on this turn
        owner, code = self.grid[sq]
        unit = self.game.units[code] if code in self.game.units else None
        trail = dict(self.trails).get(sq, frozenset([sq]))
        f, r = sq % FILES, sq // FILES
        forward = 1 if owner == 0 else -1
        directions = [(0, forward)] + ([(-1, 0), (1, 0)] if unit and unit.sideways else [])
        out = []
        for df, dr in directions:
            nf, nr = f + df, r + dr
            if not 0 <= nf < FILES:
                continue
            if not 0 <= nr < RANKS:  # off the grid: only forward, over the opponent's edge
                out.append(
                    Step(
                        sq,
                        None,
                        f"{'abc'[nf]}{nr + 1}",
                        (square_name(sq), zone_cell(f"camp-{1 - owner}", "edge")),
                    )
                )
                continue
            to = nr * FILES + nf
            if to not in trail:  # "Keine Karte darf ein Feld betreten, auf dem sie ... bereits war"
                out.append(Step(sq, to, square_name(to), (square_name(sq), square_name(to))))
        return out

    def _step(self, step: Step) -> ToWarState:
        """The active unit leaves its square (the waiting card takes it) and steps on."""
        mover = self.grid[step.frm]
        trails = dict(self.trails)
        trail = trails.pop(step.frm, frozenset([step.frm]))
        grid = _put(self.grid, step.frm, self.entering)
        if self.entering is not None:
            trails[step.frm] = self.entering_trail | {step.frm}
        state = self.replaced(entering=None, entering_trail=frozenset(), last=step.cells)
        if step.to is None:  # the game is won: the chain is over (the mover stays 'side')
            return state.replaced(grid=grid, breakthrough=mover, active=None, must_step=False, trails=())
        target = grid[step.to]
        if target is None:  # a free square: the move ends, or a two-step unit may go on
            trails[step.to] = trail | {step.to}
            moved = state.replaced(grid=_put(grid, step.to, mover), trails=_trail_tuple(trails))
            if self.must_step and self.game.units[mover[1]].steps == 2:
                return moved.replaced(active=step.to, must_step=False)
            return self._end_turn(moved)
        if target[0] == mover[0]:  # an own unit: it is displaced in turn
            return state.replaced(
                grid=grid,
                active=step.to,
                must_step=True,
                entering=mover,
                entering_trail=trail,
                trails=_trail_tuple(trails),
            )
        return self._fight(state.replaced(grid=grid), mover, step)

    def _fight(self, state: ToWarState, attacker: Unit_, step: Step) -> ToWarState:
        """ "Greifst du seitwärts an ... erhöht sich deine Angriffsstärke um +2"; greater wins,
        smaller loses, equal: both leave the field. The turn ends."""
        defender = state.grid[step.to]
        sideways = step.frm // FILES == step.to // FILES
        attack = self.game.units[attacker[1]].attack + (2 if sideways else 0)
        defence = self.game.units[defender[1]].defence
        grid, discards = state.grid, state.discards
        if attack > defence:
            grid = _put(grid, step.to, attacker)
            discards = _add(discards, defender[0], defender[1])
        elif attack < defence:
            discards = _add(discards, attacker[0], attacker[1])
        else:
            grid = _put(grid, step.to, None)
            discards = _add(_add(discards, attacker[0], attacker[1]), defender[0], defender[1])
        return self._end_turn(state.replaced(grid=grid, discards=discards))

    # --- bookkeeping -----------------------------------------------------------------------
    def _draw(self, code: str) -> ToWarState:
        counts = list(self.reserves[self.side])
        counts[self.game.army_codes(self.side).index(code)] -= 1
        return self.replaced(
            reserves=_set(self.reserves, self.side, tuple(counts)),
            hands=_add(self.hands, self.side, code),
            last=(),
        )

    def _without_hand_card(self, code: str) -> ToWarState:
        hand = list(self.hands[self.side])
        hand.remove(code)
        return self.replaced(hands=_set(self.hands, self.side, tuple(hand)))

    def _end_turn(self, state: ToWarState) -> ToWarState:
        return state.replaced(
            side=1 - self.side,
            active=None,
            must_step=False,
            entering=None,
            entering_trail=frozenset(),
            trails=(),
        )


def _end_text(after: ToWarState) -> str:
    """How the game ended, when this action ended it by the spent reserves (a breakthrough
    says so itself)."""
    outcome = after.outcome()
    if outcome is None or after.breakthrough is not None:
        return ""
    result = "a draw" if outcome.winner is None else f"the {after.game.player_names[outcome.winner]} wins"
    return f"; game over — {outcome.reason}; {result}"


def _completable(state: ToWarState) -> bool:
    """Can the displaced unit's chain still end (empty square, fight or breakthrough)?"""
    for step in state._raw_steps():
        if not _pushes(state, step) or _completable(state._step(step)):
            return True
    return False


def _pushes(state: ToWarState, step: Step) -> bool:
    """Does the step go onto a unit of the stepping unit's own side?"""
    target = None if step.to is None else state.grid[step.to]
    return target is not None and target[0] == state.grid[state.active][0]


def _put(grid, sq: int, unit):
    out = list(grid)
    out[sq] = unit
    return tuple(out)


def _set(pair, player: int, value):
    return (value, pair[1]) if player == 0 else (pair[0], value)


def _add(pair, player: int, code: str):
    """A card into a hand or discard pile; kept sorted, since their order is no part of the
    position (two move orders reaching the same cards give equal states)."""
    return _set(pair, player, tuple(sorted(pair[player] + (code,))))


def _trail_tuple(trails: dict[int, frozenset[int]]) -> tuple[tuple[int, frozenset[int]], ...]:
    return tuple(sorted(trails.items(), key=lambda item: item[0]))


# --- the board editor --------------------------------------------------------------------------

#: the piles a card is counted in off the field, and the position text's field of each
PILES = {"reserve": "reserves", "hand": "hands", "discards": "discards"}
PHASES = ("set-up", "in play")
NONE = "none"
PHASE_FIELD, PUSH_FIELD, BREAKTHROUGH_FIELD = "phase", "push", "breakthrough"
#: the position text's field an edit field is checked as (a refusal names it)
TEXT_FIELD = {PHASE_FIELD: "placed", PUSH_FIELD: "chain", BREAKTHROUGH_FIELD: "breakthrough"}


def _edit_pieces(game: ToWar) -> tuple[EditPiece, ...]:
    on_field = tuple(
        EditPiece(code, game.units[code].name, player)
        for player in (0, 1)
        for code in game.army_codes(player)
    )
    counted = tuple(
        EditPiece(f"{code}@{pile}", game.units[code].name, player, in_hand=True, pile=pile, on_board=False)
        for player in (0, 1)
        for pile in PILES
        for code in game.army_codes(player)
    )
    return on_field + counted


def _edit_hands(state: ToWarState) -> dict[tuple[int | None, str], int]:
    counts: dict[tuple[int | None, str], int] = {}
    for player in (0, 1):
        codes = state.game.army_codes(player)
        for code, left in zip(codes, state.reserves[player], strict=True):
            counts[(player, f"{code}@reserve")] = left
            counts[(player, f"{code}@hand")] = state.hands[player].count(code)
            counts[(player, f"{code}@discards")] = state.discards[player].count(code)
    return counts


def _unit_words(game: ToWar, player: int) -> dict[str, str]:
    """The player's cards as an editor field names them: word -> code (the unit's name; with
    its code too where a user's table gives two units of one army the same name)."""
    codes = game.army_codes(player)
    names = [game.units[code].name for code in codes]
    return {
        (name if names.count(name) == 1 else f"{name} ({code})"): code
        for name, code in zip(names, codes, strict=True)
    }


def _edit_fields(state: ToWarState) -> dict[str, tuple[str, tuple[str, ...]]]:
    words = _unit_words(state.game, state.side)
    word_of = {code: word for word, code in words.items()}
    pushes = _push_values(state)
    now = (state.active, state.entering)
    push = next((value for value, chain in pushes.items() if chain == now), NONE)
    won = NONE if state.breakthrough is None else word_of.get(state.breakthrough[1], state.breakthrough[1])
    return {
        PHASE_FIELD: (PHASES[state.setup_done], PHASES),
        PUSH_FIELD: (push, tuple(pushes)),
        BREAKTHROUGH_FIELD: (won, (NONE, *words)),
    }


def _push_values(state: ToWarState) -> dict[str, tuple[int | None, Unit_ | None]]:
    """The push field's values -> (the square of the unit that steps next, the card waiting to
    take it): none; a card of the mover's pushing onto a square of the mover's unit (the
    scene's "Pushing onto ..."), or a two-step unit that may step again (the bar under the
    arrow)."""
    pushes: dict[str, tuple[int | None, Unit_ | None]] = {NONE: (None, None)}
    words = _unit_words(state.game, state.side)
    for sq, unit in enumerate(state.grid):
        if not unit or unit[0] != state.side:
            continue
        for word, code in words.items():
            pushes[f"{word} pushing onto {square_name(sq)}"] = (sq, (state.side, code))
        if unit[1] in state.game.units and state.game.units[unit[1]].steps == 2:
            pushes[f"{square_name(sq)} may step again"] = (sq, None)
    return pushes


def _edited(
    state: ToWarState,
    place: Mapping[str, str | None],
    hands: Mapping[tuple[int | None, str], int],
    to_move: int | None,
    fields: Mapping[str, str],
) -> ToWarState:
    """The position asked for, not yet checked (`from_text` of its text checks it)."""
    sketch = _counted(_placed(state.replaced(ply=0, last=()), place), hands)
    if to_move is not None:
        if type(to_move) is not int or to_move not in (0, 1):  # not True, not 1.0: a seat
            raise FieldError("side", f"seat {str(to_move)[:10]!r}: To War! has seats 0 and 1")
        sketch = sketch.replaced(side=to_move)
    return _with_fields(state, sketch, fields)


def _placed(state: ToWarState, place: Mapping[str, str | None]) -> ToWarState:
    """The cards moved as `place` asks (`ToWarState.edit`): every square named emptied, its
    card back in its owner's reserve; then each card put down taken from its owner's reserve,
    hand or discards, in that order. The card counts stay what they were."""
    game = state.game
    asked: dict[int, Unit_ | None] = {}
    for cell, key in place.items():
        if not isinstance(cell, str) or cell not in SQUARES:
            raise FieldError("grid", f"{str(cell)[:10]!r} is no square of the field (a1..c4)")
        asked[SQUARES[cell]] = None if key is None else _card_of(game, key)
    grid = list(state.grid)
    reserves = [list(state.reserves[player]) for player in (0, 1)]
    hands = [list(state.hands[player]) for player in (0, 1)]
    discards = [list(state.discards[player]) for player in (0, 1)]
    for sq in asked:  # a card taken off the field goes back to its owner's Reserve
        if grid[sq] is not None:
            owner, code = grid[sq]
            reserves[owner][game.army_codes(owner).index(code)] += 1
            grid[sq] = None
    for sq, card in asked.items():
        if card is None:
            continue
        owner, code = card
        index = game.army_codes(owner).index(code)
        if reserves[owner][index]:  # "die oberste Karte deiner Reserve ... lege sie auf einen der ... Plätze"
            reserves[owner][index] -= 1
        elif code in hands[owner]:  # the drawn card (three in the "VARIANTE FÜR MEHR STRATEGIE")
            hands[owner].remove(code)
        elif code in discards[owner]:  # beaten ("auf den Ablagestapel"), taken back only as a last resort
            discards[owner].remove(code)
        else:
            unit, standing = game.units[code], grid.count(card)
            raise FieldError(
                "reserves",
                f"{square_name(sq)}: player {owner} has no {code} ({unit.name}) left in reserve, hand or "
                f"discards to put there (the army has {unit.count}, {standing} on the field; "
                "raise a counter to bring one out of the game back)",
            )
        grid[sq] = card
    return state.replaced(
        grid=tuple(grid),
        reserves=tuple(tuple(r) for r in reserves),
        hands=tuple(tuple(sorted(h)) for h in hands),
        discards=tuple(tuple(sorted(d)) for d in discards),
    )


def _card_of(game: ToWar, key: object) -> Unit_:
    for player in (0, 1):
        if isinstance(key, str) and key in game.army_codes(player):
            return player, key
    codes = ", ".join(game.army_codes(0) + game.army_codes(1))
    raise FieldError("grid", f"{str(key)[:20]!r} is no card of either army ({codes})")


def _counted(state: ToWarState, hands: Mapping[tuple[int | None, str], int]) -> ToWarState:
    """The piles with the counts asked for; a view's hidden hand cards ('?') stay as they are."""
    game = state.game
    piles = {
        (player, pile): list(cards)
        for player in (0, 1)
        for pile, cards in (("hand", state.hands[player]), ("discards", state.discards[player]))
    }
    reserves = [list(state.reserves[player]) for player in (0, 1)]
    for counter, count in hands.items():
        player, code, pile = _counter_of(game, counter)
        army = sum(game.units[c].count for c in game.army_codes(player))
        # a count past the whole army is no count at all (and never builds a huge tuple)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= army:
            raise FieldError(PILES[pile], f"{str(count)[:10]!r} {code}: not a count of cards of an army")
        if pile == "reserve":
            reserves[player][game.army_codes(player).index(code)] = count
        else:
            kept = [c for c in piles[player, pile] if c != code]
            piles[player, pile] = kept + [code] * count
    return state.replaced(
        reserves=tuple(tuple(r) for r in reserves),
        hands=tuple(tuple(sorted(piles[p, "hand"])) for p in (0, 1)),
        discards=tuple(tuple(sorted(piles[p, "discards"])) for p in (0, 1)),
    )


def _counter_of(game: ToWar, counter: object) -> tuple[int, str, str]:
    """(seat, code, pile) of a counter's key (seat, "<code>@<pile>")."""
    if isinstance(counter, tuple) and len(counter) == 2 and isinstance(counter[1], str):
        owner, key = counter
        code, _, pile = key.partition("@")
        if type(owner) is int and owner in (0, 1) and pile in PILES and code in game.army_codes(owner):
            return owner, code, pile
    raise FieldError(
        "hands", f"{str(counter)[:30]!r} is no card counter (seat, '<code>@<reserve|hand|discards>')"
    )


def _with_fields(before: ToWarState, state: ToWarState, fields: Mapping[str, str]) -> ToWarState:
    """The turn fields asked for (the others as they were); the set-up count follows the field."""
    known = _edit_fields(state)
    for name, value in fields.items():
        if name not in known:
            raise FieldError("fields", f"{str(name)[:40]!r}: the fields are {', '.join(known)}")
        if value not in known[name][1]:
            values = known[name][1]
            choices = ", ".join(values[:12]) + (" ..." if len(values) > 12 else "")
            raise FieldError(TEXT_FIELD[name], f"{name} {str(value)[:20]!r}: one of {choices}")
    active, entering = (
        _push_values(state)[fields[PUSH_FIELD]] if PUSH_FIELD in fields else (state.active, state.entering)
    )
    now = (before.active, before.entering)  # the waiting card's trail is its own: kept while it waits
    won = fields.get(BREAKTHROUGH_FIELD)
    breakthrough = state.breakthrough if won is None else _won(state, won)
    in_play = fields.get(PHASE_FIELD, PHASES[state.setup_done]) == PHASES[1]
    on_field = tuple(sum(1 for unit in state.grid if unit and unit[0] == p) for p in (0, 1))
    return state.replaced(
        placed=(SETUP_CARDS, SETUP_CARDS) if in_play else on_field,
        active=active,
        must_step=entering is not None,
        entering=entering,
        entering_trail=state.entering_trail if (active, entering) == now else frozenset(),
        trails=tuple((sq, trail) for sq, trail in state.trails if state.grid[sq] == before.grid[sq]),
        breakthrough=breakthrough,
    )


def _won(state: ToWarState, word: str) -> Unit_ | None:
    return None if word == NONE else (state.side, _unit_words(state.game, state.side)[word])


# --- position text ---------------------------------------------------------------------------


def _to_text(state: ToWarState) -> str:
    """`<grid> <reserves> <hands> <discards> <side> <placed> <chain> <breakthrough> <ply>`: grid squares
    a1..c4 as `0:BED` / `1:BER` / `-`; reserves as counts per code; chain `-` or
    `<active>,<must|may>,<entering owner:code or ->,<entering trail>,<trails>`."""
    grid = ".".join("-" if u is None else f"{u[0]}:{u[1]}" for u in state.grid)
    reserves = "/".join(
        ",".join(f"{c}={n}" for c, n in zip(state.game.army_codes(p), state.reserves[p], strict=True))
        for p in (0, 1)
    )
    hands = "/".join(",".join(h) or "-" for h in state.hands)
    discards = "/".join(",".join(d) or "-" for d in state.discards)
    chain = "-"
    if state.active is not None:
        entering = "-" if state.entering is None else f"{state.entering[0]}:{state.entering[1]}"
        trails = (
            ";".join(
                f"{square_name(sq)}={'+'.join(square_name(t) for t in sorted(tr))}"
                for sq, tr in sorted(state.trails)
            )
            or "-"
        )
        chain = (
            f"{square_name(state.active)},{'must' if state.must_step else 'may'},{entering},"
            f"{'+'.join(square_name(t) for t in sorted(state.entering_trail)) or '-'},{trails}"
        )
    winner = "-" if state.breakthrough is None else f"{state.breakthrough[0]}:{state.breakthrough[1]}"
    return (
        f"{grid} {reserves} {hands} {discards} {'wb'[state.side]} {state.placed[0]},{state.placed[1]} "
        f"{chain} {winner} {state.ply}"
    )


FIELDS = ("grid", "reserves", "hands", "discards", "side", "placed", "chain", "breakthrough", "ply")
_UNIT = re.compile(r"([01]):([A-Za-z0-9]+)")


def _from_text(game: ToWar, text: str) -> ToWarState:
    """Read a position and check it against the box and the rules; only PositionTextError escapes."""
    return read_position(game.id, text, lambda fields: _checked(_parse_position(game, fields)))


def _parse_position(game: ToWar, fields: list[str]) -> ToWarState:
    value = named_fields(fields, FIELDS)
    grid = tuple(
        None if token == "-" else _parse_unit(game, token, "grid")
        for token in split_field(value["grid"], ".", FILES * RANKS, "grid")
    )
    reserves = tuple(
        _parse_reserve(game, p, part)
        for p, part in enumerate(split_field(value["reserves"], "/", 2, "reserves"))
    )
    hidden = game.options["strategic"]  # a view hides the opponent's hand only in the variant
    hands = tuple(
        _parse_cards(game, p, part, "hands", hidden)
        for p, part in enumerate(split_field(value["hands"], "/", 2, "hands"))
    )
    discards = tuple(
        _parse_cards(game, p, part, "discards", False)
        for p, part in enumerate(split_field(value["discards"], "/", 2, "discards"))
    )
    if value["side"] not in ("w", "b"):
        raise FieldError("side", f"'w' (the first player) or 'b' expected, not {value['side'][:20]!r}")
    placed = tuple(whole_number(n, "placed") for n in split_field(value["placed"], ",", 2, "placed"))
    chain = _parse_chain(game, value["chain"])
    winner = value["breakthrough"]
    breakthrough = None if winner == "-" else _parse_unit(game, winner, "breakthrough")
    return ToWarState(
        game,
        grid,
        reserves,
        hands,
        discards,
        "wb".index(value["side"]),
        placed,
        *chain,
        breakthrough,
        whole_number(value["ply"], "ply"),
    )


def _parse_unit(game: ToWar, token: str, field_name: str) -> Unit_:
    match = _UNIT.fullmatch(token)
    if not match:
        raise FieldError(field_name, f"{token[:20]!r}: a unit is '<player 0 or 1>:<card code>', like '0:MAM'")
    owner, code = int(match[1]), match[2]
    _check_code(game, owner, code, field_name)
    return owner, code


def _check_code(game: ToWar, player: int, code: str, field_name: str) -> None:
    if code not in game.army_codes(player):
        raise FieldError(
            field_name,
            f"{code[:20]!r} is no card of player {player}'s army "
            f"({game.options['armies'][player]}: {', '.join(game.army_codes(player))})",
        )


def _parse_reserve(game: ToWar, player: int, part: str) -> tuple[int, ...]:
    codes = game.army_codes(player)
    counts: dict[str, int] = {}
    for item in part.split(","):
        code, equals, number = item.partition("=")
        if not equals:
            raise FieldError("reserves", f"{item[:20]!r}: each entry is '<code>=<cards left>'")
        _check_code(game, player, code, "reserves")
        if code in counts:
            raise FieldError("reserves", f"{code} is listed twice for player {player}")
        counts[code] = whole_number(number, "reserves")
        if counts[code] > game.units[code].count:
            raise FieldError(
                "reserves", f"{counts[code]} {code} cards left, but the army has {game.units[code].count}"
            )
    missing = [c for c in codes if c not in counts]
    if missing:
        raise FieldError("reserves", f"player {player}'s reserve does not say how many {missing[0]} are left")
    return tuple(counts[c] for c in codes)


def _parse_cards(game: ToWar, player: int, part: str, field_name: str, hidden: bool) -> tuple[str, ...]:
    if part == "-":
        return ()
    cards = part.split(",")
    for code in cards:
        if not (hidden and code == "?"):
            _check_code(game, player, code, field_name)
    return tuple(sorted(cards))


def _parse_chain(game: ToWar, text: str):
    """`-`, or `<active>,<must|may>,<entering unit or ->,<entering trail>,<trails>`."""
    if text == "-":
        return None, False, None, frozenset(), ()
    parts = split_field(text, ",", 5, "chain")
    active, mode, entering, entering_trail, trails = parts
    if mode not in ("must", "may"):
        raise FieldError("chain", f"'must' or 'may' (step) expected, not {mode[:20]!r}")
    unit = None if entering == "-" else _parse_unit(game, entering, "chain")
    parsed: dict[int, frozenset[int]] = {}
    for item in [] if trails == "-" else trails.split(";"):
        square, equals, squares = item.partition("=")
        key = _square(square)
        if not equals or key in parsed:
            raise FieldError("chain", f"trail {item[:20]!r}: '<square>=<square>+<square>', one per square")
        parsed[key] = _squares(squares)
    return (
        _square(active),
        mode == "must",
        unit,
        _squares(entering_trail, empty_ok=True),
        _trail_tuple(parsed),
    )


def _square(name: str) -> int:
    if name not in SQUARES:
        raise FieldError("chain", f"{name[:20]!r} is not a square (a1..c4)")
    return SQUARES[name]


def _squares(text: str, empty_ok: bool = False) -> frozenset[int]:
    if text == "-" and empty_ok:
        return frozenset()
    return frozenset(_square(name) for name in text.split("+"))


# --- does the position follow from the box and the rules? ---------------------------------------


def _checked(state: ToWarState) -> ToWarState:
    _check_position(state)
    return state


def _check_position(state: ToWarState) -> None:
    for player in (0, 1):
        _check_material(state, player)
    if not state.setup_done:
        _check_setup(state)
    if state.active is not None:
        _check_chain(state)
    if state.breakthrough is not None and state.active is not None:  # "endet das Spiel sofort"
        raise FieldError("breakthrough", "a breakthrough ends the game at once: no unit steps on after it")
    if state.breakthrough is not None and state.breakthrough[0] != state.side:
        raise FieldError(
            "breakthrough", "the unit that broke through belongs to the player whose turn it was"
        )
    check_playable(
        state,
        "chain" if state.active is not None else "hands",
        lambda: bool(state.chance_outcomes()),
        FieldError("reserves", "a card must be drawn, but the reserve is empty"),
    )


def _played(state: ToWarState, player: int) -> list[str]:
    """The player's cards out of reserve and hand: on the field, discarded, the waiting card,
    the breakthrough."""
    played = [u[1] for u in state.grid if u and u[0] == player] + list(state.discards[player])
    return played + [u[1] for u in (state.entering, state.breakthrough) if u and u[0] == player]


def _check_material(state: ToWarState, player: int) -> None:
    """No card of the army is in more places than the army has copies of it (reserve, hand,
    field, discards, the waiting card, the breakthrough). Fewer is a study position: the
    rest are out of the game (`_out_of_game`)."""
    game = state.game
    for code, total in _listed(state, player).items():
        if total > game.units[code].count:
            raise FieldError(
                "reserves",
                f"player {player} has {total} {code} cards in reserve, hand, "
                f"field and discards; the army has {game.units[code].count}",
            )
    if state.hands[player].count("?") > sum(state.reserves[player]):
        raise FieldError(
            "hands", f"player {player}'s hidden cards ('?') are more than the reserve they are counted in"
        )


def _listed(state: ToWarState, player: int) -> dict[str, int]:
    """How many of each of the player's cards the position shows, anywhere (a view's hidden
    hand cards are counted in the reserve they were pooled into)."""
    played = _played(state, player)
    hand = [c for c in state.hands[player] if c != "?"]
    return {
        code: left + hand.count(code) + played.count(code)
        for code, left in zip(state.game.army_codes(player), state.reserves[player], strict=True)
    }


def _out_of_game(state: ToWarState, player: int) -> dict[str, int]:
    """The player's cards out of the game: the army minus what the position shows."""
    units = state.game.units
    return {
        code: units[code].count - n for code, n in _listed(state, player).items() if n < units[code].count
    }


def _status(state: ToWarState) -> list[str]:
    """`ToWarState.status`: what a game from the start never shows."""
    remarks = []
    out = [_out_of_game(state, player) for player in (0, 1)]
    for player in (0, 1):
        if out[player]:
            n = sum(out[player].values())
            listed = ", ".join(f"{k} {state.game.units[code].name}" for code, k in out[player].items())
            names = state.game.player_names[player]
            remarks.append(f"{n} card{'s' if n > 1 else ''} of the {names} out of the game ({listed})")
    # The players alternate, one card a turn, player 0 first: at the start of player 0's turn
    # both have played as many cards, at player 1's player 0 has played one more; once the
    # mover's card is down (a chain, a breakthrough) the mover has played one more. With
    # cards out of the game nobody can tell how many were played.
    used = [len(_played(state, player)) for player in (0, 1)]
    moved = state.active is not None or state.breakthrough is not None
    lead = (1 if moved else 0) if state.side == 0 else (0 if moved else 1)
    if not any(out) and used[0] - used[1] != lead:
        remarks.append(
            f"the players have played {used[0]} and {used[1]} cards, which cannot be with the "
            f"{state.game.player_names[state.side]} to move (they alternate, one card a turn)"
        )
    strategic = state.game.options["strategic"] and state.setup_done
    size = 3 if strategic else 1  # the hand the mover draws to
    for player in (0, 1):
        moving = player == state.side and state.active is None and state.breakthrough is None
        most = size if moving else size - 1
        if len(state.hands[player]) > most:
            remarks.append(
                f"player {player} holds {len(state.hands[player])} cards; at most {most} here "
                f"({'a hand of three' if strategic else 'one card a turn'})"
            )
    return remarks


def _check_setup(state: ToWarState) -> None:
    """Set-up: six cards each, alternately; the first in the middle of the front rank, the rest
    in the own half; nothing has moved, fought or been discarded yet."""
    for player in (0, 1):
        if state.placed[player] > SETUP_CARDS:
            raise FieldError("placed", f"{state.placed[player]} set-up cards; the set-up has {SETUP_CARDS}")
        squares = [sq for sq, u in enumerate(state.grid) if u and u[0] == player]
        half = (0, 1) if player == 0 else (2, 3)
        middle = (1 if player == 0 else 2) * FILES + 1
        if len(squares) != state.placed[player] or any(sq // FILES not in half for sq in squares):
            raise FieldError(
                "placed",
                f"during the set-up player {player}'s {state.placed[player]} cards "
                "lie in their own half, and nothing else of theirs is on the field",
            )
        if squares and middle not in squares:
            raise FieldError("grid", f"player {player}'s first set-up card lies on {square_name(middle)}")
    if any(state.discards) or state.active is not None or state.breakthrough is not None:
        raise FieldError("placed", "nothing is discarded, pushed or broken through during the set-up")


def _check_chain(state: ToWarState) -> None:
    owner_of = {sq: u[0] for sq, u in enumerate(state.grid) if u}
    if owner_of.get(state.active) != state.side:
        raise FieldError("chain", f"the stepping unit on {square_name(state.active)} must be the mover's")
    if state.must_step != (state.entering is not None):
        raise FieldError(
            "chain",
            "a pushed unit ('must') has a card waiting for its square, a unit on "
            "its second step ('may') has none",
        )
    if state.entering is not None and state.entering[0] != state.side:
        raise FieldError("chain", "the waiting card is the mover's")
    if not state.must_step and state.game.units[state.grid[state.active][1]].steps != 2:
        raise FieldError("chain", "only a two-step unit may take a second step ('may')")
    for sq, trail in state.trails:
        if owner_of.get(sq) != state.side or sq not in trail:
            raise FieldError(
                "chain",
                f"the trail of {square_name(sq)} belongs to a unit of the mover "
                "standing there, and includes that square",
            )


# --- scene -------------------------------------------------------------------------------------


def _hand_zone(state: ToWarState, player: int) -> Zone:
    """A player's hand with the public counts beside it. In a view the opponent's hidden hand
    cards ('?') are pooled into the reserve counts (what the viewer knows is hand + reserve
    together), so the reserve's size is that pool less the hidden cards: a view may hide a
    card, never miscount one."""
    game, hand = state.game, state.hands[player]
    items = tuple(
        ZoneItem(
            zone_cell(f"hand-{player}", code),
            game.units[code].name if code in game.units else "face-down card",
            code,
            count=hand.count(code),
            owner=player,
            face_down=code == "?",
        )
        for code in sorted(set(hand))
    )
    if any(isinstance(move, Pass) for move in state.legal_moves()) and state.side == player:
        # a study position's empty-handed player: the pass is clicked here
        items += (ZoneItem(zone_cell(f"hand-{player}", PASS_KEY), "Pass: no card left", "–", owner=player),)
    reserve = sum(state.reserves[player]) - hand.count("?")
    discarded = len(state.discards[player])
    # short enough to stand whole above the hand on a phone (zone titles are cut to the board)
    title = f"{game.player_names[player]}: hand {len(hand)}, reserve {reserve}, discards {discarded}"
    return Zone(f"hand-{player}", title, player, items)


def _scene(state: ToWarState, perspective: int | None) -> Scene:
    game = state.game
    colours = {"western": "red", "northern": "blue", "far-eastern": "black", "southern": "yellow"}
    cells = tuple(
        Cell(square_name(sq), sq % FILES, sq // FILES, shade="start-0" if sq // FILES < 2 else "start-1")
        for sq in range(FILES * RANKS)
    )
    tokens = []
    for sq, unit in enumerate(state.grid):
        if unit is None:
            continue
        info = game.units.get(unit[1])
        flags = ("elite",) if info and info.elite else ()
        label = f"{info.name} {info.attack}/{info.defence}" if info else unit[1]
        tokens.append(
            Token(
                square_name(sq),
                label,
                unit[1],
                owner=unit[0],
                facing=unit[0],
                kind="card",
                color=colours[game.options["armies"][unit[0]]],
                flags=flags,
            )
        )
    zones = []
    for p in (0, 1):
        zones.append(_hand_zone(state, p))
        broke_in = state.breakthrough is not None and state.breakthrough[0] != p
        camp = ZoneItem(
            zone_cell(f"camp-{p}", "edge"),
            game.units[state.breakthrough[1]].name if broke_in else "Camp",
            "⚑",
            owner=1 - p if broke_in else p,
        )
        zones.append(Zone(f"camp-{p}", f"{game.player_names[p]}'s camp (break through here)", p, (camp,)))
    if state.entering is not None:  # the card that pushes in, waiting for the square to clear
        owner, code = state.entering
        name = game.units[code].name if code in game.units else code
        zones.append(
            Zone(
                "entering",
                f"Pushing onto {square_name(state.active)}",
                owner,
                (ZoneItem(zone_cell("entering", code), name, code, owner=owner),),
            )
        )
    outcome = state.outcome()
    if outcome is None:
        who = game.player_names[state.side]
        status = "A card is drawn" if state.current_player == CHANCE else f"{who} to move"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{game.player_names[outcome.winner]} wins — {outcome.reason}"
    return Scene(
        game=game.id,
        layout="square",
        cells=cells,
        tokens=tuple(tokens),
        zones=tuple(zones),
        players=game.player_names,
        to_move=None if outcome or state.current_player == CHANCE else state.side,
        status=status,
        perspective=perspective,
        last_cells=state.last,
    )
