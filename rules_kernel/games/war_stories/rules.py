"""War Stories / Sengokuki: the rules, in the rulebook's words (rules/war-stories-sengokuki.nl.txt;
the lost diagram and the gaps are ruled in rules/NOTES.md: board 6 files x 7 ranks; White:
Daimyo c1, Shinobi d1; Black: c7, d7).

A turn is either a piece move ("Een pion verplaatsen") or flipping cards ("Twee bordkaarten
omdraaien"), where every flip is its own decision, taken after seeing the card before:
- Heiya: removed, and another card is flipped (it does not count toward the two);
- after two non-Heiya cards: a matching army pair (same pion and kamon) is Engun: both
  cards go and the new piece enters on the second card's square; otherwise both are
  turned face down again (two Ki in a turn, twice in a row: Yonhon no ki, lost).
The deal (which card lies where) is the only chance event; every flip is seen by both
players (NOTES.md). What a player's view shows of it is a question of memory: `view(p)`
labels the cards face up now (the current turn's card, and the cards the last action turned
back, still in sight until the next action); `view(p, memory=True)` labels every card ever
revealed ("perfect memory"), an explicit choice of the caller.

Here: the pieces ("Pionnen") and how they move, the board cards ("Bordkaarten") and the box,
the actions, and the functions the state (`state.py`) hands each question to: the legal
moves (Kyousei, the Daimyo's safety), what an action does (a move, a flip, Heiya, Engun, the
end of a turn, the Nobori), how the game ends (Haisen, Yonhon no ki), the deal and what a
player's view shows. Each takes a `WarStoriesState` and returns new ones (`State.replaced`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules_kernel.core import (
    ChanceOutcome,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Outcome,
    check_seat,
)

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.state import WarStoriesState

# --- the board, the pieces ("Pionnen") and the board cards ("Bordkaarten") ------------------

FILES, RANKS = 6, 7
SIZE = FILES * RANKS
DAIMYO, SHINOBI, ASHIGARU, KIBATAI, KIHEI = 1, 2, 3, 4, 5
PIECE_NAMES = {DAIMYO: "Daimyo", SHINOBI: "Shinobi", ASHIGARU: "Ashigaru", KIBATAI: "Kibatai", KIHEI: "Kihei"}
PIECE_LETTERS = {DAIMYO: "D", SHINOBI: "S", ASHIGARU: "A", KIBATAI: "K", KIHEI: "H"}
LETTER_PIECES = {v: k for k, v in PIECE_LETTERS.items()}
ARMY_CODES = {"kb": KIBATAI, "as": ASHIGARU, "kh": KIHEI}
KAMON = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
KI, HEIYA = "ki", "he"
UNKNOWN = "?"  # a face-down card whose identity the viewer does not know
DECK = tuple(sorted([p + k for p in ARMY_CODES for k in KAMON] * 2 + [HEIYA] * 8 + [KI] * 6))
DECK_COUNTS = Counter(DECK)
PLAYER_NAMES = ("White", "Black")

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
SLIDES = {SHINOBI: ORTHOGONAL + DIAGONAL, ASHIGARU: ORTHOGONAL, KIHEI: DIAGONAL}


def square_name(sq: int) -> str:
    return f"{'abcdef'[sq % FILES]}{sq // FILES + 1}"


SQUARES = {square_name(sq): sq for sq in range(SIZE)}


def card_name(code: str) -> str:
    if code == KI:
        return "Ki"
    if code == HEIYA:
        return "Heiya"
    if code == UNKNOWN:
        return UNKNOWN
    return f"{PIECE_NAMES[ARMY_CODES[code[:2]]]} {KAMON[code[2]]}"


def _step(sq: int, df: int, dr: int) -> int | None:
    f, r = sq % FILES + df, sq // FILES + dr
    return r * FILES + f if 0 <= f < FILES and 0 <= r < RANKS else None


def _ray(sq: int, df: int, dr: int) -> tuple[int, ...]:
    out, to = [], _step(sq, df, dr)
    while to is not None:
        out.append(to)
        to = _step(to, df, dr)
    return tuple(out)


def _walks(kind: int, sq: int) -> tuple[tuple[int, ...], ...]:
    """Where a piece of `kind` on `sq` goes, walk by walk, outwards, in its directions' order
    (an empty walk where the board ends): a slider's rays (SLIDES), the Daimyo's one step and
    the Kibatai's jump (KNIGHT) each a walk of one square. A walk stops at a card or a piece."""
    if kind in SLIDES:
        return tuple(_ray(sq, df, dr) for df, dr in SLIDES[kind])
    steps = ORTHOGONAL + DIAGONAL if kind == DAIMYO else KNIGHT
    return tuple(() if (to := _step(sq, df, dr)) is None else (to,) for df, dr in steps)


#: _walks for every piece kind and square, made once: move generation and the agents' heuristic
_WALKS = {kind: tuple(_walks(kind, sq) for sq in range(SIZE)) for kind in (*SLIDES, DAIMYO, KIBATAI)}


# --- actions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PieceMove(Move):
    """Move (or capture with) a piece: `c1c2`."""

    frm: int
    to: int

    @property
    def cells(self) -> tuple[str, ...]:
        return (square_name(self.frm), square_name(self.to))

    def __str__(self) -> str:
        return square_name(self.frm) + square_name(self.to)


@dataclass(frozen=True)
class Flip(Move):
    """Turn one board card face up: `flip:e4`."""

    square: int

    @property
    def cells(self) -> tuple[str, ...]:
        return (square_name(self.square),)

    def __str__(self) -> str:
        return f"flip:{square_name(self.square)}"


@dataclass(frozen=True)
class Deal(ChanceOutcome):
    """Where the 38 shuffled board cards lie, in square order."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "deal:" + ".".join(self.cards)


# --- the board -----------------------------------------------------------------------------


def _daimyo(state: WarStoriesState, player: int) -> int | None:
    """The square of `player`'s Daimyo; None in a study position without it."""
    code = DAIMYO | player << 3
    return state.pieces.index(code) if code in state.pieces else None


def _last_actor(state: WarStoriesState) -> int:
    """Who made the last action: the player still flipping, else the one before."""
    return state.side if state.flips else 1 - state.side


def _leaves_own_haisen(state: WarStoriesState, move: PieceMove) -> bool:
    pieces = list(state.pieces)
    pieces[move.to], pieces[move.frm] = pieces[move.frm], 0
    return _haisen(state, tuple(pieces), state.side)


def _flippable(state: WarStoriesState) -> list[int]:
    return [
        sq
        for sq, code in enumerate(state.cards)
        if code is not None and sq != state.face_up and sq not in state.nobori
    ]


def _targets(state: WarStoriesState, sq: int, pieces: tuple[int, ...] | None = None) -> list[int]:
    """Squares the piece on `sq` moves to: not onto cards or own pieces; sliders stop at
    cards and pieces; the Kibatai jumps."""
    pieces = pieces or state.pieces
    code = pieces[sq]
    owner, out = code >> 3, []
    for walk in _WALKS[code & 7][sq]:
        for to in walk:
            if state.cards[to] is not None:
                break
            if pieces[to]:
                if pieces[to] >> 3 != owner:
                    out.append(to)
                break
            out.append(to)
    return out


def _attacked(state: WarStoriesState, sq: int, by: int, pieces: tuple[int, ...] | None = None) -> bool:
    pieces = pieces or state.pieces
    for df, dr in ORTHOGONAL + DIAGONAL:
        to, distance = _step(sq, df, dr), 1
        while to is not None and state.cards[to] is None:
            code = pieces[to]
            if code:
                if code >> 3 == by:
                    kind = code & 7
                    line = ASHIGARU if (df, dr) in ORTHOGONAL else KIHEI
                    if kind in (SHINOBI, line) or (kind == DAIMYO and distance == 1):
                        return True
                break
            to, distance = _step(to, df, dr), distance + 1
    for df, dr in KNIGHT:
        to = _step(sq, df, dr)
        if to is not None and pieces[to] == KIBATAI | by << 3:
            return True
    return False


def _daimyo_moves(state: WarStoriesState, daimyo: int, pieces: tuple[int, ...] | None = None):
    """The Daimyo never steps onto an attacked square, nor captures the other Daimyo."""
    pieces = pieces or state.pieces
    owner = pieces[daimyo] >> 3
    for to in _targets(state, daimyo, pieces):
        if pieces[to] & 7 == DAIMYO:
            continue
        after = list(pieces)
        after[to], after[daimyo] = after[daimyo], 0
        if not _attacked(state, to, 1 - owner, tuple(after)):
            yield PieceMove(daimyo, to)


def _other_piece_moves(state: WarStoriesState) -> list[Move]:
    moves: list[Move] = []
    for sq, code in enumerate(state.pieces):
        if code and code >> 3 == state.side and code & 7 != DAIMYO:
            moves.extend(PieceMove(sq, to) for to in _targets(state, sq) if state.pieces[to] & 7 != DAIMYO)
    return moves


def _haisen(state: WarStoriesState, pieces: tuple[int, ...], player: int) -> bool:
    """Haisen: `player`'s Daimyo is attacked and has no square to flee to."""
    if DAIMYO | player << 3 not in pieces:  # a study position without it: never in Haisen
        return False
    daimyo = pieces.index(DAIMYO | player << 3)
    return _attacked(state, daimyo, 1 - player, pieces) and not any(_daimyo_moves(state, daimyo, pieces))


# --- legal moves ---------------------------------------------------------------------------


def _legal_moves(state: WarStoriesState) -> list[Move]:
    """The moves the rules allow, whether or not the game has ended (the state caches them):
    a flipping turn goes on with flips; a Daimyo under attack must flee (Kyousei)."""
    flips: list[Move] = [Flip(sq) for sq in _flippable(state)]
    if state.flips:  # a flipping turn goes on with flips only
        return flips
    daimyo = _daimyo(state, state.side)
    if daimyo is None:  # a study position without this side's Daimyo: no Kyousei
        return _other_piece_moves(state) + flips
    if _attacked(state, daimyo, 1 - state.side):  # Kyousei: only the Daimyo, to safety
        return list(_daimyo_moves(state, daimyo))
    others = _other_piece_moves(state)
    if state.game.options["self_haisen"] == "illegal":
        others = [m for m in others if not _leaves_own_haisen(state, m)]
    return list(_daimyo_moves(state, daimyo)) + others + flips


# --- turns ---------------------------------------------------------------------------------


def _successor(state: WarStoriesState, action) -> WarStoriesState:
    if isinstance(action, Deal):
        cards = list(state.cards)
        for sq, code in zip(state.game.card_squares, action.cards, strict=True):
            cards[sq] = code
        return state.replaced(cards=tuple(cards), dealt=True, last=())
    base = state.replaced(shown=(), hand_over_from=None)  # the last action's display ends
    after = _flip(base, action.square) if isinstance(action, Flip) else _move_piece(base, action)
    return after.replaced(ply=state.ply + 1)  # the ply counts every player action


def _move_piece(state: WarStoriesState, move: PieceMove) -> WarStoriesState:
    pieces = list(state.pieces)
    pieces[move.to], pieces[move.frm] = pieces[move.frm], 0
    after = state.replaced(pieces=tuple(pieces), last=move.cells)
    return _end_turn(after, flipped_back=(), two_ki=False)


def _flip(state: WarStoriesState, sq: int) -> WarStoriesState:
    card = state.cards[sq]
    if card == UNKNOWN:
        raise HiddenInformationError(
            f"flip:{square_name(sq)}: this view has never seen the card on {square_name(sq)}, "
            "so what the flip does is unknown; flip on the full state or on determinize(rng)"
        )
    after = state.replaced(flips=state.flips + 1, revealed=state.revealed | {sq}, last=(square_name(sq),))
    if card == HEIYA:
        return _heiya(after, sq)
    after = after.replaced(all_heiya=False)
    if state.face_up is None:
        after = after.replaced(face_up=sq)
        return after if _flippable(after) else _end_turn(after, flipped_back=(sq,), two_ki=False)
    return _second_card(after, state.face_up, sq)


def _heiya(state: WarStoriesState, sq: int) -> WarStoriesState:
    """A Heiya leaves the board and another card is flipped (or, with Shinobi wo tsukau,
    two Heiya as the first two cards bring an extra Shinobi)."""
    cards = list(state.cards)
    cards[sq] = None
    after = state.replaced(cards=tuple(cards), removed=_sorted_cards(state.removed + (HEIYA,)))
    if state.game.options["shinobi_wo_tsukau"] and state.flips == 2 and state.all_heiya:
        pieces = list(after.pieces)
        pieces[sq] = SHINOBI | state.side << 3
        return _end_turn(after.replaced(pieces=tuple(pieces)), flipped_back=(), two_ki=False)
    if _flippable(after):
        return after
    pending = (after.face_up,) if after.face_up is not None else ()
    return _end_turn(after, flipped_back=pending, two_ki=False)


def _second_card(state: WarStoriesState, first: int, second: int) -> WarStoriesState:
    a, b = state.cards[first], state.cards[second]
    if a == b and a not in (KI, HEIYA):  # Engun: the pion enters on the second card
        cards, pieces = list(state.cards), list(state.pieces)
        cards[first] = cards[second] = None
        pieces[second] = ARMY_CODES[a[:2]] | state.side << 3
        after = state.replaced(
            cards=tuple(cards),
            pieces=tuple(pieces),
            removed=_sorted_cards(state.removed + (a, b)),
            last=(square_name(first), square_name(second)),
        )
        return _end_turn(after, flipped_back=(), two_ki=False)
    return _end_turn(state, flipped_back=(first, second), two_ki=a == KI and b == KI)


def _end_turn(state: WarStoriesState, flipped_back: tuple[int, ...], two_ki: bool) -> WarStoriesState:
    two = list(state.two_ki)
    lost = state.side if two_ki and two[state.side] else None  # Yonhon no ki
    two[state.side] = two_ki
    nobori = frozenset(flipped_back) if state.game.options["nobori"] else frozenset()
    return state.replaced(
        side=1 - state.side,
        face_up=None,
        flips=0,
        all_heiya=True,
        nobori=nobori,
        two_ki=tuple(two),
        lost=lost,
        shown=flipped_back,
        hand_over_from=state.side if state.flips else None,
    )


def _sorted_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The removed cards as a multiset (sorted): the order they left in is history, not
    position, so two move orders reaching the same table give equal states."""
    return tuple(sorted(cards))


# --- the end of the game -------------------------------------------------------------------


def _outcome(state: WarStoriesState) -> Outcome | None:
    if not state.dealt:
        return None
    if state.lost is not None:
        return Outcome.win(1 - state.lost, "Yonhon no ki: two Ki turned up in two turns running (seppuku)")
    cap = state.game.options["max_plies"]
    # NOTES.md: Haisen is checked after every action for both Daimyos; when both stand
    # in Haisen, the player who just acted loses
    in_haisen = [player for player in (0, 1) if _haisen(state, state.pieces, player)]
    if in_haisen:
        loser = in_haisen[0] if len(in_haisen) == 1 else _last_actor(state)
        own = " (by its own player's action)" if loser == _last_actor(state) else ""
        return Outcome.win(1 - loser, f"Haisen: the Daimyo is attacked and cannot flee{own}")
    if state.flips == 0 and not state._moves():
        return Outcome.draw("no legal move (a case the rulebook does not cover)")
    if cap is not None and state.ply >= cap:
        return Outcome.unfinished(f"stopped after {cap} actions")
    return None


# --- the deal and what a player sees -------------------------------------------------------


def _deal(state: WarStoriesState, rng: random.Random) -> Deal:
    if state.dealt:
        raise IllegalMoveError("the cards are already dealt")
    cards = list(DECK)
    rng.shuffle(cards)
    return Deal(tuple(cards))


def _view(state: WarStoriesState, player: int, memory: bool | None) -> WarStoriesState:
    """`WarStoriesState.view`: the cards `player` sees (and with `memory` remembers) labelled,
    every other card a `?`."""
    check_seat(state.game, player)
    memory = state.memory if memory is None else bool(memory)
    seen = (state.revealed if memory else frozenset(state.shown)) | {state.face_up}
    hidden = tuple(code if code is None or sq in seen else UNKNOWN for sq, code in enumerate(state.cards))
    out = _out_of_game(state) if UNKNOWN in hidden else ()  # the view cannot derive them
    return state.replaced(cards=hidden, memory=memory, out=out)


def _determinize(state: WarStoriesState, rng: random.Random) -> WarStoriesState:
    unknown = [sq for sq, code in enumerate(state.cards) if code == UNKNOWN]
    if not unknown or not state.dealt:
        return state
    cards_left = list(_hidden_pool(state).elements())
    rng.shuffle(cards_left)
    cards = list(state.cards)
    for sq, code in zip(unknown, cards_left, strict=False):
        cards[sq] = code
    return state.replaced(cards=tuple(cards), out=())


def _hidden_pool(state: WarStoriesState) -> Counter[str]:
    seen = Counter(c for c in state.cards if c not in (None, UNKNOWN))
    return DECK_COUNTS - seen - Counter(state.removed) - Counter(_out_of_game(state))


def _out_of_game(state: WarStoriesState) -> tuple[str, ...]:
    if UNKNOWN in state.cards or not state.dealt:
        return state.out
    listed = Counter(c for c in state.cards if c is not None) + Counter(state.removed)
    return tuple(sorted((DECK_COUNTS - listed).elements()))
