"""To War!: the rules in the rulebook's words (rules/to-war.de.txt; rulings: rules/NOTES.md):
the grid and its squares, the actions of a turn, the set-up, placing a card on the back rank,
the push, the fight, the draw, and the end of the game. Functions on a `ToWarState` (state.py
hands each question of the protocol here); the cards and armies are in `cards.py`.

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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE, ChanceOutcome, HiddenInformationError, Move, Outcome
from rules_kernel.scene import zone_cell

if TYPE_CHECKING:
    from rules_kernel.games.to_war.state import ToWarState

FILES, RANKS = 3, 4
SETUP_CARDS = 6
Unit_ = tuple[int, str]  # (owner, unit code)


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


# --- a turn ------------------------------------------------------------------------------------


def _needs_draw(state: ToWarState) -> bool:
    if state.breakthrough is not None or state.active is not None:
        return False
    want = 3 if state.game.options["strategic"] and state.setup_done else 1
    return len(state.hands[state.side]) < want and sum(state.reserves[state.side]) > 0


def _chance_outcomes(state: ToWarState) -> list[tuple[Draw, float]]:
    if state.current_player != CHANCE:
        return []
    counts = state.reserves[state.side]
    total = sum(counts)
    return [
        (Draw(code), n / total)
        for code, n in zip(state.game.army_codes(state.side), counts, strict=True)
        if n
    ]


def _successor(state: ToWarState, action) -> ToWarState:
    if isinstance(action, Draw):
        return _draw(state, action.code)
    if getattr(action, "code", None) == "?":  # a view's hidden card: nothing to put down
        raise HiddenInformationError(
            f"{action}: this card is hidden in this view; play on the full state or on view.determinize(rng)"
        )
    if isinstance(action, Place):
        after = _place(state, action)
    elif isinstance(action, Discard):
        after = _end_turn(
            state,
            _without_hand_card(state, action.code).replaced(
                discards=_add(state.discards, state.side, action.code)
            ),
        )
    elif isinstance(action, (Stop, Pass)):
        after = _end_turn(state, state)
    else:
        after = _step(state, action)
    return after.replaced(ply=state.ply + 1)


def _compute_outcome(state: ToWarState) -> Outcome | None:
    if state.breakthrough is not None:
        return Outcome.win(state.breakthrough[0], "breakthrough into the opponent's camp")
    if any(sum(r) for r in state.reserves) or any(state.hands) or state.active is not None:
        return None
    units = [sum(1 for u in state.grid if u and u[0] == p) for p in (0, 1)]
    if units[0] != units[1]:
        return Outcome.win(
            int(units[1] > units[0]), f"both reserves spent: {units[0]} to {units[1]} units on the field"
        )
    elite = [sum(1 for u in state.grid if u and u[0] == p and state.game.units[u[1]].elite) for p in (0, 1)]
    if elite[0] != elite[1]:
        return Outcome.win(
            int(elite[1] > elite[0]),
            f"both reserves spent: {units[0]} units each, {elite[0]} to {elite[1]} elite units",
        )
    return Outcome.draw(f"both reserves spent: {units[0]} units and {elite[0]} elite units each")


# --- what a player sees ----------------------------------------------------------------------


def _view(state: ToWarState, player: int) -> ToWarState:
    """Reserves hold counts only (their order is chance, drawn card by card). In the
    strategic variant the opponent's hand is hidden: its cards go back into that
    reserve's counts (what is known is only hand + reserve together) and show as '?'."""
    if not state.game.options["strategic"]:
        return state
    other = 1 - player
    hidden = [c for c in state.hands[other] if c != "?"]
    if not hidden:
        return state
    counts = list(state.reserves[other])
    codes = state.game.army_codes(other)
    for code in hidden:
        counts[codes.index(code)] += 1
    return state.replaced(
        reserves=_set(state.reserves, other, tuple(counts)),
        hands=_set(state.hands, other, ("?",) * len(state.hands[other])),
    )


def _determinize(state: ToWarState, rng) -> ToWarState:
    """Deal the '?' hand cards at random from that player's reserve counts."""
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


# --- placing -------------------------------------------------------------------------------


def _placements(state: ToWarState) -> list[Move]:
    hand = state.hands[state.side]
    if not hand and not sum(state.reserves[state.side]):
        # "Das Spiel endet, wenn ... Beide Reserven sind aufgebraucht": until then the
        # other plays on; this one has nothing to place (ruling, docs/games/to-war.md)
        return [Pass((zone_cell(f"hand-{state.side}", PASS_KEY),))]
    if not state.setup_done:
        targets = _setup_squares(state)
    else:
        back = 0 if state.side == 0 else RANKS - 1
        targets = [back * FILES + f for f in range(FILES) if _can_place(state, back * FILES + f)]
    strategic = state.game.options["strategic"]
    moves: list[Move] = [
        Place(code, sq, ((zone_cell(f"hand-{state.side}", code),) if strategic else ()) + (square_name(sq),))
        for code in sorted(set(hand))
        for sq in targets
    ]
    if not moves and hand:  # ruling: no legal placement, the card is discarded
        moves = [Discard(code, (zone_cell(f"hand-{state.side}", code),)) for code in sorted(set(hand))]
    return moves


def _setup_squares(state: ToWarState) -> list[int]:
    front = 1 if state.side == 0 else 2
    if state.placed[state.side] == 0:  # "Die beiden zuerst platzierten Karten ... in der Mitte"
        return [front * FILES + 1]
    half = range(0, 2) if state.side == 0 else range(2, 4)
    return [r * FILES + f for r in half for f in range(FILES) if state.grid[r * FILES + f] is None]


def _can_place(state: ToWarState, sq: int) -> bool:
    unit = state.grid[sq]
    if unit is None:
        return True
    if unit[0] != state.side:
        return False  # ruling: no card is placed on an enemy unit
    return _completable(state.replaced(active=sq, must_step=True, entering=(state.side, "?")))


def _place(before: ToWarState, move: Place) -> ToWarState:
    state = _without_hand_card(before, move.code).replaced(last=(square_name(move.square),))
    card = (before.side, move.code)
    if not before.setup_done:
        placed = list(before.placed)
        placed[before.side] += 1
        return state.replaced(
            grid=_put(before.grid, move.square, card), placed=tuple(placed), side=1 - before.side
        )
    if before.grid[move.square] is None:
        return _end_turn(before, state.replaced(grid=_put(before.grid, move.square, card)))
    return state.replaced(active=move.square, must_step=True, entering=card)  # "verdrängt"


# --- stepping --------------------------------------------------------------------------------


def _steps(state: ToWarState) -> list[Move]:
    moves: list[Move] = [] if state.must_step else [Stop(state.active, (square_name(state.active),))]
    for step in _raw_steps(state):
        if not _pushes(state, step) or _completable(_step(state, step)):
            moves.append(step)
    return moves


def _raw_steps(state: ToWarState) -> list[Step]:
    sq = state.active
    if state.entering is not None and sq in state.entering_trail:
        return []  # the waiting card may not re-enter a square it stood on this turn
    owner, code = state.grid[sq]
    unit = state.game.units[code] if code in state.game.units else None
    trail = dict(state.trails).get(sq, frozenset([sq]))
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


def _step(before: ToWarState, step: Step) -> ToWarState:
    """The active unit leaves its square (the waiting card takes it) and steps on."""
    mover = before.grid[step.frm]
    trails = dict(before.trails)
    trail = trails.pop(step.frm, frozenset([step.frm]))
    grid = _put(before.grid, step.frm, before.entering)
    if before.entering is not None:
        trails[step.frm] = before.entering_trail | {step.frm}
    state = before.replaced(entering=None, entering_trail=frozenset(), last=step.cells)
    if step.to is None:  # the game is won: the chain is over (the mover stays 'side')
        return state.replaced(grid=grid, breakthrough=mover, active=None, must_step=False, trails=())
    target = grid[step.to]
    if target is None:  # a free square: the move ends, or a two-step unit may go on
        trails[step.to] = trail | {step.to}
        moved = state.replaced(grid=_put(grid, step.to, mover), trails=_trail_tuple(trails))
        if before.must_step and before.game.units[mover[1]].steps == 2:
            return moved.replaced(active=step.to, must_step=False)
        return _end_turn(before, moved)
    if target[0] == mover[0]:  # an own unit: it is displaced in turn
        return state.replaced(
            grid=grid,
            active=step.to,
            must_step=True,
            entering=mover,
            entering_trail=trail,
            trails=_trail_tuple(trails),
        )
    return _fight(before, state.replaced(grid=grid), mover, step)


def _fight(before: ToWarState, state: ToWarState, attacker: Unit_, step: Step) -> ToWarState:
    """ "Greifst du seitwärts an ... erhöht sich deine Angriffsstärke um +2"; greater wins,
    smaller loses, equal: both leave the field. The turn ends."""
    defender = state.grid[step.to]
    sideways = step.frm // FILES == step.to // FILES
    attack = before.game.units[attacker[1]].attack + (2 if sideways else 0)
    defence = before.game.units[defender[1]].defence
    grid, discards = state.grid, state.discards
    if attack > defence:
        grid = _put(grid, step.to, attacker)
        discards = _add(discards, defender[0], defender[1])
    elif attack < defence:
        discards = _add(discards, attacker[0], attacker[1])
    else:
        grid = _put(grid, step.to, None)
        discards = _add(_add(discards, attacker[0], attacker[1]), defender[0], defender[1])
    return _end_turn(before, state.replaced(grid=grid, discards=discards))


# --- bookkeeping -----------------------------------------------------------------------------


def _draw(state: ToWarState, code: str) -> ToWarState:
    counts = list(state.reserves[state.side])
    counts[state.game.army_codes(state.side).index(code)] -= 1
    return state.replaced(
        reserves=_set(state.reserves, state.side, tuple(counts)),
        hands=_add(state.hands, state.side, code),
        last=(),
    )


def _without_hand_card(state: ToWarState, code: str) -> ToWarState:
    hand = list(state.hands[state.side])
    hand.remove(code)
    return state.replaced(hands=_set(state.hands, state.side, tuple(hand)))


def _end_turn(before: ToWarState, state: ToWarState) -> ToWarState:
    return state.replaced(
        side=1 - before.side,
        active=None,
        must_step=False,
        entering=None,
        entering_trail=frozenset(),
        trails=(),
    )


def _completable(state: ToWarState) -> bool:
    """Can the displaced unit's chain still end (empty square, fight or breakthrough)?"""
    for step in _raw_steps(state):
        if not _pushes(state, step) or _completable(_step(state, step)):
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
