"""War Stories / Sengokuki: a memory game of face-down board cards and a chess-like fight.

Rulebook: rules/war-stories-sengokuki.nl.txt; the lost diagram and the gaps are ruled in
rules/NOTES.md (board 6 files x 7 ranks; White: Daimyo c1, Shinobi d1; Black: c7, d7).

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

Notation: a piece move `c1c2` (a capture looks the same), a flip `flip:e4`, the deal
`deal:` + the 38 card codes in square order (a1, b1, ..., f7, skipping the start squares).
Card codes: army `<pion><kamon>` with pion kb (Kibatai), as (Ashigaru), kh (Kihei) and kamon
r, y, g, b (red, yellow, green, blue); landscape `ki` (Ki) and `he` (Heiya).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from rules_kernel.core import (
    CHANCE,
    ChanceNotEnumerableError,
    ChanceOutcome,
    EditPiece,
    Game,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Option,
    Outcome,
    ReferenceEntry,
    State,
    check_seat,
)
from rules_kernel.position_text import FieldError, read_edit, read_position, whole_number
from rules_kernel.scene import Cell, Scene, Token, Zone

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


def _positive_or_none(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise ValueError(f"must be at least 1 (or None for no cap), got {value}")
    return value


def _parse_start(value: str) -> tuple[int, int, int, int]:
    names = value.split()
    if len(names) != 4 or any(n not in SQUARES for n in names) or len(set(names)) != 4:
        raise ValueError(
            "give four different squares: White Daimyo, White Shinobi, Black Daimyo, "
            f"Black Shinobi (like 'c1 d1 c7 d7'), not {value[:40]!r}"
        )
    squares = tuple(SQUARES[n] for n in names)
    (wf, wr), (bf, br) = ((sq % FILES, sq // FILES) for sq in (squares[0], squares[2]))
    if max(abs(wf - bf), abs(wr - br)) == 1:
        raise ValueError(
            f"the Daimyos on {names[0]} and {names[2]} would touch (each attacked by the other at the start)"
        )
    return squares


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


# --- the game ----------------------------------------------------------------------------


class WarStories(Game):
    id = "war-stories"
    title = "War Stories (Sengokuki)"
    # what the game is (rules_kernel.info): the cards lie face down, shuffled; a player's
    # view forgets the cards turned back
    HIDDEN_INFORMATION = True
    CHANCE = True
    MEMORY = True
    PARTS = frozenset({"position text", "words", "scene", "editor", "reference", "heuristic"})
    OPTIONS: ClassVar[dict[str, Option]] = {
        "shinobi_wo_tsukau": Option(
            False,
            "optional rule: two Heiya as the first two cards of a "
            "turn earn an extra Shinobi on the second one's square",
            kind=bool,
        ),
        "nobori": Option(
            False,
            "optional rule: cards flipped back at the end of a turn carry a "
            "Nobori and may not be flipped in the next turn",
            kind=bool,
        ),
        "start": Option(
            "c1 d1 c7 d7",
            "start squares: White Daimyo, White Shinobi, Black Daimyo, Black Shinobi",
            kind=str,
            check=lambda v: (_parse_start(v), v)[1],
        ),
        "max_plies": Option(
            None,
            "stop an endless game after this many actions, as unfinished "
            "(None: no cap; the rulebook has no draw rule)",
            kind=(int, type(None)),
            check=_positive_or_none,
        ),
        "self_haisen": Option(
            "loses",
            "a move that leaves the mover's own Daimyo in Haisen: "
            "'loses' (the rulebook: the game ends when either Daimyo stands in "
            "Haisen) or 'illegal' (not offered, as in chess)",
            choices=("loses", "illegal"),
        ),
    }

    @property
    def start_squares(self) -> tuple[int, int, int, int]:
        return _parse_start(self.options["start"])

    @property
    def card_squares(self) -> tuple[int, ...]:
        taken = set(self.start_squares)
        return tuple(sq for sq in range(SIZE) if sq not in taken)

    @property
    def player_names(self) -> tuple[str, ...]:
        return PLAYER_NAMES

    def initial_state(self) -> WarStoriesState:
        pieces = [0] * SIZE
        wd, ws, bd, bs = self.start_squares
        pieces[wd], pieces[ws] = DAIMYO, SHINOBI
        pieces[bd], pieces[bs] = DAIMYO | 8, SHINOBI | 8
        cards = tuple(UNKNOWN if sq in self.card_squares else None for sq in range(SIZE))
        return WarStoriesState(self, tuple(pieces), cards, dealt=False)

    def from_text(self, text: str) -> WarStoriesState:
        return _from_text(self, text)

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 30
    #: the agents' material values; the Daimyo counts nothing, as Haisen ends the game
    AGENT_VALUES: ClassVar[dict[int, int]] = {DAIMYO: 0, SHINOBI: 5, ASHIGARU: 4, KIBATAI: 3, KIHEI: 3}

    def heuristic(self, state: State, player: int) -> float:
        """Material (pieces on the board, the player's minus the opponent's, over 20) and each
        Daimyo's danger: the checks its enemy has in one move, by how few safe squares it has
        to flee to (`_heuristic`)."""
        return _heuristic(state, player)

    def reference(self) -> list[ReferenceEntry]:
        """The pieces ("Pionnen") with their moves (the tables the moves are generated from),
        and the board cards with their counts in the deck; the optional rules when chosen."""
        return _reference(self)


# --- the reference panel (core.Game.reference): the rulebook's "Pionnen" and "Bordkaarten" ---

_PIECE_LINES = {
    DAIMYO: "warlord: one square in any direction. Attacked, it must flee (Kyousei); with nowhere "
    "safe to go it stands in Haisen and its player has lost",
    SHINOBI: "mercenary: any number of free squares straight or diagonally",
    ASHIGARU: "swordsman: any number of free squares straight",
    KIBATAI: "horseman: one square straight, then one diagonally onwards; the only piece that "
    "jumps over pieces and cards, but it never lands on a card",
    KIHEI: "spearman: any number of free squares diagonally",
}


def _reference(game: WarStories) -> list[ReferenceEntry]:
    entries = []
    for kind, line in _PIECE_LINES.items():
        if kind in SLIDES:
            moves, slides = SLIDES[kind], True
        else:
            moves, slides = (ORTHOGONAL + DIAGONAL if kind == DAIMYO else KNIGHT), False
        entries.append(
            ReferenceEntry(
                PIECE_NAMES[kind], line, moves, slides=slides, short=PIECE_LETTERS[kind], group="Pieces"
            )
        )
    counts = Counter(DECK)
    armies = sum(n for code, n in counts.items() if code[:2] in ARMY_CODES)
    kinds = ", ".join(PIECE_NAMES[k] for k in ARMY_CODES.values())
    kamon = ", ".join(KAMON.values())
    cards = [
        (
            "Turn",
            "move one piece (a capture ends its move), or turn board cards face up one at a time, "
            "two that are not Heiya",
        ),
        (
            f"Army card ({armies})",
            f"a piece ({kinds}) and a kamon ({kamon}), each pair twice: two alike in one turn is "
            "Engun, both cards go and that piece enters on the second card's square; otherwise "
            "both are turned face down again",
        ),
        (
            f"Heiya ({counts[HEIYA]})",
            "plain: removed from the board, and another card is turned (it does not count)",
        ),
        (
            f"Ki ({counts[KI]})",
            "tree: turned face down again and stays; two Ki in a turn in two of your turns in a "
            "row is Yonhon no ki: you have lost",
        ),
    ]
    if game.options["shinobi_wo_tsukau"]:
        cards.append(
            (
                "Shinobi wo tsukau",
                "two Heiya as the first two cards of a turn: both go, and an extra Shinobi enters "
                "on the second one's square; the turn ends",
            )
        )
    if game.options["nobori"]:
        cards.append(
            (
                "Nobori",
                "the cards turned back at the end of a turn carry a banner and may not be turned "
                "in the next turn",
            )
        )
    entries.extend(ReferenceEntry(name, line, group="Cards") for name, line in cards)
    return entries


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

    # --- protocol ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return CHANCE if not self.dealt else self.side

    def legal_moves(self) -> list[Move]:
        if not self.dealt or self.is_terminal():
            return []
        return list(self._move_list)

    def _moves(self) -> list[Move]:
        return self._move_list

    @cached_property
    def _move_list(self) -> list[Move]:
        flips: list[Move] = [Flip(sq) for sq in self._flippable()]
        if self.flips:  # a flipping turn goes on with flips only
            return flips
        daimyo = self._daimyo(self.side)
        if daimyo is None:  # a study position without this side's Daimyo: no Kyousei
            return self._other_piece_moves() + flips
        if self._attacked(daimyo, 1 - self.side):  # Kyousei: only the Daimyo, to safety
            return list(self._daimyo_moves(daimyo))
        others = self._other_piece_moves()
        if self.game.options["self_haisen"] == "illegal":
            others = [m for m in others if not self._leaves_own_haisen(m)]
        return list(self._daimyo_moves(daimyo)) + others + flips

    def _successor(self, action) -> WarStoriesState:
        if isinstance(action, Deal):
            cards = list(self.cards)
            for sq, code in zip(self.game.card_squares, action.cards, strict=True):
                cards[sq] = code
            return self.replaced(cards=tuple(cards), dealt=True, last=())
        base = self.replaced(shown=(), hand_over_from=None)  # the last action's display ends
        after = base._flip(action.square) if isinstance(action, Flip) else base._move_piece(action)
        return after.replaced(ply=self.ply + 1)  # the ply counts every player action

    def _compute_outcome(self) -> Outcome | None:
        if not self.dealt:
            return None
        if self.lost is not None:
            return Outcome.win(1 - self.lost, "Yonhon no ki: two Ki turned up in two turns running (seppuku)")
        cap = self.game.options["max_plies"]
        # NOTES.md: Haisen is checked after every action for both Daimyos; when both stand
        # in Haisen, the player who just acted loses
        in_haisen = [player for player in (0, 1) if _haisen(self, self.pieces, player)]
        if in_haisen:
            loser = in_haisen[0] if len(in_haisen) == 1 else self._last_actor
            own = " (by its own player's action)" if loser == self._last_actor else ""
            return Outcome.win(1 - loser, f"Haisen: the Daimyo is attacked and cannot flee{own}")
        if self.flips == 0 and not self._moves():
            return Outcome.draw("no legal move (a case the rulebook does not cover)")
        if cap is not None and self.ply >= cap:
            return Outcome.unfinished(f"stopped after {cap} actions")
        return None

    def chance_outcomes(self):
        if self.dealt:
            return []
        raise ChanceNotEnumerableError("the deal has 38!/(2!^12 8! 6!) outcomes; use sample_chance")

    def sample_chance(self, rng: random.Random) -> Deal:
        if self.dealt:
            raise IllegalMoveError("the cards are already dealt")
        cards = list(DECK)
        rng.shuffle(cards)
        return Deal(tuple(cards))

    def parse_chance(self, text: str) -> Deal:
        if self.dealt:
            raise IllegalMoveError(f"{text[:30]!r}: the cards are already dealt")
        if not text.startswith("deal:"):
            raise IllegalMoveError(
                f"{text[:30]!r}: the deal is pending; write it as 'deal:' and 38 card codes separated by '.'"
            )
        cards = tuple(text[5:].split("."))
        if tuple(sorted(cards)) != DECK:
            raise IllegalMoveError(
                f"{text[:30]!r}...: a deal must hold exactly the 38 board cards "
                "(24 army cards, 8 Heiya, 6 Ki)"
            )
        return Deal(cards)

    def action_text(self, action, viewer: int | None = None, *, memory: bool = True) -> str:
        """The move list's words (core.State.action_text), the actor left to the list:
        "Daimyo c1–c2 takes Kihei", "turns over a3: Kibatai red", "turns over b4: Kihei
        blue — no match, both turned back", "turns over b4: Kibatai red — a pair: Engun, a
        Kibatai enters on b4", "turns over c3: Heiya — removed, another card to turn";
        Kyousei and Haisen are announced as the rulebook has the threatening player do
        ("Shinobi d1–d6 (Kyousei)").

        Every flip is seen by both players (NOTES.md), and the card it turns is face up (or
        gone) in every view right after it, so a flip names its card for every viewer. The
        deal is face down: a player's view names no card of it ("the cards are dealt face
        down"); the all-seeing list gives the layout.

        Once a player's view has turned the card back face down (`forgets`), a move list
        writes the flip as `forgotten_text` does. `memory=False` (with a viewer): the words a
        player without memory keeps once the turn is over: those, unless the flip took its
        card off the board for all to see (a Heiya, the second card of an Engun pair)."""
        action = self._action_of(action)
        if not memory and viewer is not None and isinstance(action, Flip):
            if self.cards[action.square] == UNKNOWN or self.apply(action).cards[action.square] is not None:
                return self.forgotten_text(action, viewer)
        if action.is_chance:
            if viewer is not None:
                return "the cards are dealt face down"
            return "the cards are dealt: " + " ".join(action.cards)
        if isinstance(action, PieceMove):
            return self._piece_move_text(action)
        return self._flip_text(action.square, named=True)

    def forgets(self, action) -> bool:
        """A flip is forgotten where its card lies face down again in this view, a `?`
        (core.State.forgets): a card turned back earlier in `view(p)`, or, looking back, a card
        not turned up yet. Never in the all-seeing state nor with `memory=True` (they label
        every card seen), nor once the card left the board (a Heiya, an Engun pair: removed
        for all to see); a piece move or the deal shows no card to forget."""
        return isinstance(action, Flip) and self.cards[action.square] == UNKNOWN

    def forgotten_text(self, action, viewer: int | None = None) -> str:
        """A flip's words once the card lies face down again (core.State.forgotten_text): what
        happened without the card's name ("turns over a3", "turns over b4 — no match, both
        turned back", two Ki included: which cards they were is what is forgotten). A Heiya
        stays named (it leaves the board the moment it is seen: there is no face-down Heiya
        to forget); an Engun looked back on from before it says "a piece enters" (the pair's
        kind would name the cards). Anything else: `action_text`."""
        action = self._action_of(action)
        if isinstance(action, Flip):
            return self._flip_text(action.square, named=False)
        return self.action_text(action, viewer)

    def _piece_move_text(self, move: PieceMove) -> str:
        name = PIECE_NAMES[self.pieces[move.frm] & 7]
        text = f"{name} {square_name(move.frm)}–{square_name(move.to)}"
        if self.pieces[move.to]:
            text += f" takes {PIECE_NAMES[self.pieces[move.to] & 7]}"
        return text + self._announcement(self.apply(move))

    def _flip_text(self, sq: int, *, named: bool) -> str:
        """A flip's words; `named=False`: the card's identity left out (a Heiya's excepted)."""
        texts = self._flip_texts.get(sq)
        if texts is None:
            texts = self._flip_texts[sq] = self._flip_words(sq)
        return texts[0 if named else 1]

    @cached_property
    def _flip_texts(self) -> dict[int, tuple[str, str]]:
        """Each flip's two forms of words once made: a move list in a view that forgets asks
        for both (one apply and one outcome for the two; strings only, no state is kept)."""
        return {}

    def _flip_words(self, sq: int) -> tuple[str, str]:
        """A flip's words with the card named, and without its identity (`forgotten_text`)."""
        cell, card = square_name(sq), self.cards[sq]
        if card == UNKNOWN:  # a view that does not know the card cannot say what it did
            return (f"turns over {cell}",) * 2
        after = self.apply(Flip(sq))
        name = f"{cell}: {card_name(card)}"
        still = after.side == self.side and after.flips > 0  # the flipping turn goes on
        said = self._announcement(after)
        if card == HEIYA:  # removed at once, for all to see: named in both forms
            if after.pieces[sq]:
                what = "two Heiya first: both removed, a Shinobi enters on " + cell + " (Shinobi wo tsukau)"
            elif after.is_terminal():
                what = "removed"
            elif still:
                what = "removed, another card to turn"
            elif after.shown:
                what = "removed; no card left to turn, " + square_name(after.shown[0]) + " turned back"
            else:
                what = "removed; no card left to turn"
            return (f"turns over {name} — {what}{said}",) * 2
        if self.face_up is None:  # the first card of the two
            if still or after.is_terminal():
                return f"turns over {name}{said}", f"turns over {cell}{said}"
            back = " — no card left to pair it with, turned back" + _nobori_words(after) + said
            return f"turns over {name}{back}", f"turns over {cell}{back}"
        if after.pieces[sq]:  # Engun
            kind = PIECE_NAMES[after.pieces[sq] & 7]
            what = f"a pair: Engun, a {kind} enters on {cell}", f"a pair: Engun, a piece enters on {cell}"
        elif after.lost == self.side:
            what = "two Ki again, the second turn running: Yonhon no ki (seppuku)", "Yonhon no ki (seppuku)"
        else:
            back = ", both turned back" + _nobori_words(after)
            what = (
                ("two Ki" if card == KI == self.cards[self.face_up] else "no match") + back,
                "no match" + back,
            )
        return f"turns over {name} — {what[0]}{said}", f"turns over {cell} — {what[1]}{said}"

    def _announcement(self, after: WarStoriesState) -> str:
        """Kyousei and Haisen, announced by the player who threatens the Daimyo."""
        outcome = after.outcome()
        if outcome is not None and outcome.finished and outcome.reason.startswith("Haisen"):
            return " (Haisen of its own Daimyo)" if outcome.winner != self.side else " (Haisen)"
        if (
            outcome is None
            and after.side != self.side
            and after._daimyo(after.side) is not None
            and after._attacked(after._daimyo(after.side), self.side)
        ):
            return " (Kyousei)"
        return ""

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
        check_seat(self.game, player)
        memory = self.memory if memory is None else bool(memory)
        seen = (self.revealed if memory else frozenset(self.shown)) | {self.face_up}
        hidden = tuple(code if code is None or sq in seen else UNKNOWN for sq, code in enumerate(self.cards))
        out = self.out_of_game if UNKNOWN in hidden else ()  # the view cannot derive them
        return self.replaced(cards=hidden, memory=memory, out=out)

    def determinize(self, rng: random.Random) -> WarStoriesState:
        """Deal the unknown cards at random from the box minus the cards seen on the board,
        the removed ones and those out of the game (a study position's): an out-of-game card
        is never dealt."""
        unknown = [sq for sq, code in enumerate(self.cards) if code == UNKNOWN]
        if not unknown or not self.dealt:
            return self
        cards_left = list(self.hidden_pool().elements())
        rng.shuffle(cards_left)
        cards = list(self.cards)
        for sq, code in zip(unknown, cards_left, strict=False):
            cards[sq] = code
        return self.replaced(cards=tuple(cards), out=())

    def hidden_pool(self) -> Counter[str]:
        """The cards a hidden (`?`) card may be: the box minus every card seen on the board,
        removed, or out of the game."""
        seen = Counter(c for c in self.cards if c not in (None, UNKNOWN))
        return DECK_COUNTS - seen - Counter(self.removed) - Counter(self.out_of_game)

    @property
    def out_of_game(self) -> tuple[str, ...]:
        """The board cards that are out of the game (sorted): none in a game from the start;
        in a study position, what its text does not list. A full state derives them (the box
        minus the cards on the board and removed); a view keeps them (`out`)."""
        if UNKNOWN in self.cards or not self.dealt:
            return self.out
        listed = Counter(c for c in self.cards if c is not None) + Counter(self.removed)
        return tuple(sorted((DECK_COUNTS - listed).elements()))

    def status(self) -> list[str]:
        """What no game from the start reaches (`core.State.status`): cards out of the game,
        a side without its Daimyo, Daimyos side by side, more reinforcements than Engun pairs
        removed, more Shinobi than the rules give, removed cards that no turn removes."""
        return _status(self)

    def to_text(self) -> str:
        return _to_text(self)

    # --- the board editor (core.State's hooks) ------------------------------------------
    def edit_pieces(self) -> tuple[EditPiece, ...]:
        """Each side's pieces ("Pionnen", letters as the position text writes them: upper
        case White's), the board cards ("Bordkaarten", face down as they lie; keys are their
        card codes), and each card counted among the removed ones ("verwijderd")."""
        return _EDIT_PIECES

    def edit_hands(self) -> dict[tuple[int | None, str], int]:
        """How many of each card are removed, keyed (None, "removed:<code>")."""
        removed = Counter(self.removed)
        return {(None, REMOVED_KEY + code): removed[code] for code in CARD_CODES}

    def edit_fields(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """The turn (a card face up, Heiya turned over this turn) and the two-Ki flags of
        the Yonhon no ki rule."""
        return _edit_fields(self)

    def edit(
        self,
        *,
        place: Mapping[str, str | None] | None = None,
        hands: Mapping[tuple[int | None, str], int] | None = None,
        to_move: int | None = None,
        fields: Mapping[str, str] | None = None,
    ) -> WarStoriesState:
        """This position edited (core.State.edit); the result is read back from its text, so
        it is checked exactly as any position text is."""
        return read_edit(
            self.game, lambda: _edited(self, place or {}, hands or {}, to_move, fields or {}), _to_text
        )

    def scene(self, perspective: int | None = None) -> Scene:
        shown = self if perspective is None else self.view(perspective)
        return _scene(shown, self, perspective)

    def why_illegal(self, text: str) -> str:
        return _why_illegal(self, text)

    # --- the board -----------------------------------------------------------------------
    def _owner(self, sq: int) -> int | None:
        code = self.pieces[sq]
        return None if code == 0 else code >> 3

    def _daimyo(self, player: int) -> int | None:
        """The square of `player`'s Daimyo; None in a study position without it."""
        code = DAIMYO | player << 3
        return self.pieces.index(code) if code in self.pieces else None

    @property
    def _last_actor(self) -> int:
        """Who made the last action: the player still flipping, else the one before."""
        return self.side if self.flips else 1 - self.side

    def _leaves_own_haisen(self, move: PieceMove) -> bool:
        pieces = list(self.pieces)
        pieces[move.to], pieces[move.frm] = pieces[move.frm], 0
        return _haisen(self, tuple(pieces), self.side)

    def _flippable(self) -> list[int]:
        return [
            sq
            for sq, code in enumerate(self.cards)
            if code is not None and sq != self.face_up and sq not in self.nobori
        ]

    def _targets(self, sq: int, pieces: tuple[int, ...] | None = None) -> list[int]:
        """Squares the piece on `sq` moves to: not onto cards or own pieces; sliders stop at
        cards and pieces; the Kibatai jumps."""
        pieces = pieces or self.pieces
        code = pieces[sq]
        owner, out = code >> 3, []
        for walk in _WALKS[code & 7][sq]:
            for to in walk:
                if self.cards[to] is not None:
                    break
                if pieces[to]:
                    if pieces[to] >> 3 != owner:
                        out.append(to)
                    break
                out.append(to)
        return out

    def _attacked(self, sq: int, by: int, pieces: tuple[int, ...] | None = None) -> bool:
        pieces = pieces or self.pieces
        for df, dr in ORTHOGONAL + DIAGONAL:
            to, distance = _step(sq, df, dr), 1
            while to is not None and self.cards[to] is None:
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

    def _daimyo_moves(self, daimyo: int, pieces: tuple[int, ...] | None = None):
        """The Daimyo never steps onto an attacked square, nor captures the other Daimyo."""
        pieces = pieces or self.pieces
        owner = pieces[daimyo] >> 3
        for to in self._targets(daimyo, pieces):
            if pieces[to] & 7 == DAIMYO:
                continue
            after = list(pieces)
            after[to], after[daimyo] = after[daimyo], 0
            if not self._attacked(to, 1 - owner, tuple(after)):
                yield PieceMove(daimyo, to)

    def _other_piece_moves(self) -> list[Move]:
        moves: list[Move] = []
        for sq, code in enumerate(self.pieces):
            if code and code >> 3 == self.side and code & 7 != DAIMYO:
                moves.extend(PieceMove(sq, to) for to in self._targets(sq) if self.pieces[to] & 7 != DAIMYO)
        return moves

    # --- turns ---------------------------------------------------------------------------
    def _move_piece(self, move: PieceMove) -> WarStoriesState:
        pieces = list(self.pieces)
        pieces[move.to], pieces[move.frm] = pieces[move.frm], 0
        after = self.replaced(pieces=tuple(pieces), last=move.cells)
        return after._end_turn(flipped_back=(), two_ki=False)

    def _flip(self, sq: int) -> WarStoriesState:
        card = self.cards[sq]
        if card == UNKNOWN:
            raise HiddenInformationError(
                f"flip:{square_name(sq)}: this view has never seen the card on {square_name(sq)}, "
                "so what the flip does is unknown; flip on the full state or on determinize(rng)"
            )
        state = self.replaced(flips=self.flips + 1, revealed=self.revealed | {sq}, last=(square_name(sq),))
        if card == HEIYA:
            return state._heiya(sq)
        state = state.replaced(all_heiya=False)
        if self.face_up is None:
            state = state.replaced(face_up=sq)
            return state if state._flippable() else state._end_turn(flipped_back=(sq,), two_ki=False)
        return state._second_card(self.face_up, sq)

    def _heiya(self, sq: int) -> WarStoriesState:
        """A Heiya leaves the board and another card is flipped (or, with Shinobi wo tsukau,
        two Heiya as the first two cards bring an extra Shinobi)."""
        cards = list(self.cards)
        cards[sq] = None
        state = self.replaced(cards=tuple(cards), removed=_sorted_cards(self.removed + (HEIYA,)))
        if self.game.options["shinobi_wo_tsukau"] and self.flips == 2 and self.all_heiya:
            pieces = list(state.pieces)
            pieces[sq] = SHINOBI | self.side << 3
            return state.replaced(pieces=tuple(pieces))._end_turn(flipped_back=(), two_ki=False)
        if state._flippable():
            return state
        pending = (state.face_up,) if state.face_up is not None else ()
        return state._end_turn(flipped_back=pending, two_ki=False)

    def _second_card(self, first: int, second: int) -> WarStoriesState:
        a, b = self.cards[first], self.cards[second]
        if a == b and a not in (KI, HEIYA):  # Engun: the pion enters on the second card
            cards, pieces = list(self.cards), list(self.pieces)
            cards[first] = cards[second] = None
            pieces[second] = ARMY_CODES[a[:2]] | self.side << 3
            state = self.replaced(
                cards=tuple(cards),
                pieces=tuple(pieces),
                removed=_sorted_cards(self.removed + (a, b)),
                last=(square_name(first), square_name(second)),
            )
            return state._end_turn(flipped_back=(), two_ki=False)
        return self._end_turn(flipped_back=(first, second), two_ki=a == KI and b == KI)

    def _end_turn(self, flipped_back: tuple[int, ...], two_ki: bool) -> WarStoriesState:
        two = list(self.two_ki)
        lost = self.side if two_ki and two[self.side] else None  # Yonhon no ki
        two[self.side] = two_ki
        nobori = frozenset(flipped_back) if self.game.options["nobori"] else frozenset()
        return self.replaced(
            side=1 - self.side,
            face_up=None,
            flips=0,
            all_heiya=True,
            nobori=nobori,
            two_ki=tuple(two),
            lost=lost,
            shown=flipped_back,
            hand_over_from=self.side if self.flips else None,
        )


def _nobori_words(after: WarStoriesState) -> str:
    """The Nobori on the cards just turned back (the nobori option)."""
    return " under the Nobori" if after.nobori and after.nobori == frozenset(after.shown) else ""


def _haisen(state: WarStoriesState, pieces: tuple[int, ...], player: int) -> bool:
    """Haisen: `player`'s Daimyo is attacked and has no square to flee to."""
    if DAIMYO | player << 3 not in pieces:  # a study position without it: never in Haisen
        return False
    daimyo = pieces.index(DAIMYO | player << 3)
    return state._attacked(daimyo, 1 - player, pieces) and not any(state._daimyo_moves(daimyo, pieces))


def _sorted_cards(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The removed cards as a multiset (sorted): the order they left in is history, not
    position, so two move orders reaching the same table give equal states."""
    return tuple(sorted(cards))


# --- the agents' heuristic (Game.heuristic) ------------------------------------------------------

#: for each square: the squares one step away (the Daimyo's) and a Kibatai's jump away
_NEIGHBOURS = tuple(tuple(to for walk in walks for to in walk) for walks in _WALKS[DAIMYO])
_JUMPS = tuple(tuple(to for walk in walks for to in walk) for walks in _WALKS[KIBATAI])
#: the heuristic's weights: a threat on a Daimyo (checks its enemy can give, weighed by how
#: few squares it has to flee to), its flight squares, the squares each side controls
_THREAT_WEIGHT, _FLIGHT_WEIGHT, _CONTROL_WEIGHT = 0.3, 0.03, 0.004
_MOP_UP_WEIGHT = 0.02
_HANGING_WEIGHT = 0.7
#: a Daimyo with no safe square, for each kind an Engun could bring onto a card that attacks it
_ENGUN_WEIGHT = 0.1


def _reach(pieces: tuple[int, ...], cards: tuple[str | None, ...], player: int):
    """What `player`'s pieces attack (squares, own pieces' included: they are defended) and
    where each of its non-Daimyo pieces may go, as (kind, square) pairs."""
    attacked: set[int] = set()
    goes: list[tuple[int, int]] = []
    for sq, code in enumerate(pieces):
        if not code or code >> 3 != player:
            continue
        kind = code & 7
        for walk in _WALKS[kind][sq]:
            for to in walk:
                if cards[to] is not None:
                    break
                attacked.add(to)
                own = pieces[to] and pieces[to] >> 3 == player
                if kind != DAIMYO and not own:
                    goes.append((kind, to))
                if pieces[to]:
                    break
    return attacked, goes


def _checking_squares(pieces: tuple[int, ...], cards: tuple[str | None, ...], daimyo: int):
    """For each attacker kind, the squares from which it would attack the Daimyo on `daimyo`
    (the lines from it up to the first card or piece, that piece's square included; the
    Kibatai's jumps without a card)."""
    rays = _WALKS[SHINOBI][daimyo]  # the eight lines, orthogonal first (SLIDES)
    lines = (set(), set())  # orthogonal, diagonal
    for i in range(8):
        for to in rays[i]:
            if cards[to] is not None:
                break
            lines[i >= 4].add(to)
            if pieces[to]:
                break
    jumps = {to for to in _JUMPS[daimyo] if cards[to] is None}
    return {SHINOBI: lines[0] | lines[1], ASHIGARU: lines[0], KIHEI: lines[1], KIBATAI: jumps}


def _engun_exposure(pieces: tuple[int, ...], cards: tuple[str | None, ...], daimyo: int) -> int:
    """How many of the kinds an Engun brings (Ashigaru, Kihei, Kibatai) would attack the
    Daimyo on `daimyo` from a card square, where the pair's piece enters ("plaatst de gewonnen
    pion ... op de plek van de laatst omgedraaide bordkaart"): the first card along a free
    line (straight: an Ashigaru; diagonal: a Kihei) and a card a Kibatai's jump away."""
    kinds = set()
    for i, ray in enumerate(_WALKS[SHINOBI][daimyo]):  # the eight lines, straight ones first
        for to in ray:
            if cards[to] is not None:
                kinds.add(KIHEI if i >= 4 else ASHIGARU)
                break
            if pieces[to]:
                break
    if any(cards[to] is not None for to in _JUMPS[daimyo]):
        kinds.add(KIBATAI)
    return len(kinds)


def _heuristic(state: WarStoriesState, player: int) -> float:
    """Material (the agents' values, over 20), and what wins the game: Haisen, a Daimyo
    attacked with no square to flee to (rulebook, "Haisen"; "Einde van het spel"). For each
    Daimyo: the checks its enemy can give in one move (a piece moving onto a square from which
    it attacks the Daimyo), weighed by how few safe squares the Daimyo has to flee to (Kyousei:
    a free square next to it, no card, none of its own pieces, not attacked), so a Daimyo
    hemmed in by cards with an attacker a move away scores as nearly lost; its safe squares
    themselves; and the squares each side attacks (mobility). Each side's threat on the other
    counts for it, the other's on it against it."""
    pieces, cards = state.pieces, state.cards
    values = WarStories.AGENT_VALUES
    material = sum(values[c & 7] * (1 if c >> 3 == player else -1) for c in pieces if c) / 20
    reach = (_reach(pieces, cards, 0), _reach(pieces, cards, 1))
    squares: list[int | None] = [None, None]
    score = material + _CONTROL_WEIGHT * (len(reach[player][0]) - len(reach[1 - player][0]))
    for side in (0, 1):
        code = DAIMYO | side << 3
        if code not in pieces:  # a study position without it
            continue
        daimyo = pieces.index(code)
        enemy_attacks, enemy_goes = reach[1 - side]
        flights = sum(
            1
            for to in _NEIGHBOURS[daimyo]
            if cards[to] is None and (not pieces[to] or pieces[to] >> 3 != side) and to not in enemy_attacks
        )
        targets = _checking_squares(pieces, cards, daimyo)
        checks = sum(1 for kind, to in enemy_goes if to in targets[kind])
        danger = _THREAT_WEIGHT * min(checks, 3) / 3 / (1 + flights) - _FLIGHT_WEIGHT * min(flights, 4)
        if not flights:  # hemmed in: a piece an Engun brings next to it may be Haisen at once
            danger += _ENGUN_WEIGHT * _engun_exposure(pieces, cards, daimyo)
        score += -danger if side == player else danger
        squares[side] = daimyo
    mover = state.side
    if _HANGING_WEIGHT and not state.flips and squares[mover] is not None:
        attacks, defended = reach[mover][0], reach[1 - mover][0]
        if squares[mover] not in defended:  # not in Kyousei: the side to move may take a piece
            hanging = max(
                (
                    values[c & 7]
                    for sq, c in enumerate(pieces)
                    if c and c >> 3 != mover and sq in attacks and sq not in defended
                ),
                default=0,
            )
            score += _HANGING_WEIGHT * hanging / 20 * (1 if mover == player else -1)
    if _MOP_UP_WEIGHT and None not in squares and material:
        # the side ahead drives the other Daimyo to the edge and brings its own Daimyo near
        weak = squares[1 - player] if material > 0 else squares[player]
        f, r = weak % FILES, weak // FILES
        edge = min(f, FILES - 1 - f, r, RANKS - 1 - r)
        (f0, r0), (f1, r1) = ((sq % FILES, sq // FILES) for sq in squares)
        near = max(abs(f0 - f1), abs(r0 - r1))
        mop = _MOP_UP_WEIGHT * ((2 - edge) + (6 - near) / 2)
        score += mop if material > 0 else -mop
    risk = _yonhon_no_ki_risk(state)
    return score * (1 - risk) + (-risk if player == state.side else risk)


def _yonhon_no_ki_risk(state: WarStoriesState) -> float:
    """The chance that the side to move loses by Yonhon no ki on its next flip: it turned up
    two Ki last turn and a Ki now, and must turn a second card (a Heiya is removed and another
    turned instead), so it loses if that card is a Ki (rulebook, "Yonhon no ki (4 bomen)
    regel"). The cards left are counted as the state has them: in an imagined world its deal,
    on average the chance the view allows."""
    if state.face_up is None or not state.two_ki[state.side] or state.cards[state.face_up] != KI:
        return 0.0
    left = [state.cards[sq] for sq in state._flippable()]
    others = len(left) - left.count(HEIYA)
    return left.count(KI) / others if others else 0.0


# --- position text -------------------------------------------------------------------------


def _to_text(state: WarStoriesState) -> str:
    """`<pieces> <cards> <side> <turn> <revealed> <two-ki> <ply> <removed>`; pieces FEN-like (rank 7
    first, White upper case); cards in square order a1..f7: code, '?' hidden, '-' none,
    '*' face up this turn, '^' under a Nobori; turn: 'deal' (pending), '-' or
    '<flips><h|x>' (h: all Heiya so far); revealed squares; two-Ki flags; ply; the removed
    cards; a trailing 'lost:<player>' after Yonhon no ki, and 'out:<cards>' for the cards out of
    the game of a study position's view (a text with '?' cards cannot derive them)."""
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            code = state.pieces[rank * FILES + f]
            if not code:
                empty += 1
                continue
            row += (str(empty) if empty else "") + (
                PIECE_LETTERS[code & 7] if code >> 3 == 0 else PIECE_LETTERS[code & 7].lower()
            )
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    cards = ".".join(
        "-" if c is None else c + ("*" if sq == state.face_up else "") + ("^" if sq in state.nobori else "")
        for sq, c in enumerate(state.cards)
    )
    turn = (
        "deal"
        if not state.dealt
        else "-"
        if not state.flips
        else f"{state.flips}{'h' if state.all_heiya else 'x'}"
    )
    revealed = ",".join(square_name(sq) for sq in sorted(state.revealed)) or "-"
    ki = "".join("1" if k else "0" for k in state.two_ki)
    removed = ",".join(state.removed) or "-"
    text = f"{'/'.join(rows)} {cards} {'wb'[state.side]} {turn} {revealed} {ki} {state.ply} {removed}"
    text += f" lost:{state.lost}" if state.lost is not None else ""
    # only a text with hidden cards names what is out of the game; any other derives it
    return text + (f" out:{','.join(state.out)}" if state.out else "")


_TURN = re.compile(r"deal|-|([1-9])([hx])")
_CARD_ENTRY = re.compile(r"(-|\?|ki|he|(?:kb|as|kh)[rygb])(\*?)(\^?)")
DECK_COUNTS = Counter(DECK)


def _from_text(game: WarStories, text: str) -> WarStoriesState:
    """A position from `to_text`'s form; PositionTextError naming the field for anything
    that is not a position of this game (rules/NOTES.md: the box, the turn, the markers)."""
    return read_position(game.id, text, lambda fields: _parse_position(game, fields))


def _parse_position(game: WarStories, fields: list[str]) -> WarStoriesState:
    if len(fields) not in (8, 9, 10):
        raise FieldError(
            "position text",
            "expected 8 fields: pieces cards side turn revealed two-ki ply "
            "removed (and lost:<player> after Yonhon no ki, out:<cards> in a view)",
        )
    pieces = _parse_pieces(fields[0])
    cards, face_up, nobori = _parse_cards(fields[1])
    if fields[2] not in ("w", "b"):
        raise FieldError("side", f"must be 'w' or 'b', not {fields[2][:10]!r}")
    turn = _TURN.fullmatch(fields[3])
    if not turn:
        raise FieldError(
            "turn", f"must be 'deal', '-' or a flip count 1-9 and h/x like '1x', not {fields[3][:10]!r}"
        )
    revealed = _parse_squares(fields[4])
    if not re.fullmatch(r"[01]{2}", fields[5]):
        raise FieldError("two-Ki flags", f"must be two digits 0/1 like '01', not {fields[5][:10]!r}")
    ply = whole_number(fields[6], "ply")
    removed = () if fields[7] == "-" else tuple(fields[7].split(","))
    if not set(removed) <= set(DECK):
        raise FieldError("removed", "must list card codes (like 'he,kbr,kbr') or '-'")
    lost, out, extra = None, (), fields[8:]
    if extra and extra[-1].startswith("out:"):
        out = tuple(extra.pop()[4:].split(","))
        if not set(out) <= set(DECK):
            raise FieldError("out", "must list card codes (like 'out:he,kbr') after 'out:'")
    if extra:
        if extra != ["lost:0"] and extra != ["lost:1"]:
            raise FieldError("lost", "the field after the removed cards may only be lost:0 or lost:1")
        lost = int(extra[0][-1])
    state = WarStoriesState(
        game,
        tuple(pieces),
        tuple(cards),
        0 if fields[2] == "w" else 1,
        ply,
        fields[3] != "deal",
        face_up,
        int(turn.group(1)) if turn.group(1) else 0,
        turn.group(2) != "x",
        revealed,
        frozenset(nobori),
        (fields[5][0] == "1", fields[5][1] == "1"),
        _sorted_cards(removed),
        lost,
        _sorted_cards(out),
    )
    _check_position(state)
    return state


def _parse_pieces(text: str) -> list[int]:
    rows = text.split("/")
    if len(rows) != RANKS:
        raise FieldError("pieces", f"{len(rows)} ranks, the board has {RANKS}")
    pieces = [0] * SIZE
    for i, row in enumerate(rows):
        rank, f = RANKS - 1 - i, 0
        for ch in row:
            if ch in "123456":
                f += int(ch)
            elif ch in "DSAKHdsakh" and f < FILES:
                pieces[rank * FILES + f] = LETTER_PIECES[ch.upper()] | (0 if ch.isupper() else 8)
                f += 1
            else:
                raise FieldError(
                    "pieces",
                    f"{ch!r} in rank {rank + 1} is no piece (D, S, A, K, H), no "
                    f"count 1-6 of empty squares, or one file too many",
                )
            if f > FILES:
                raise FieldError("pieces", f"rank {rank + 1} covers more than {FILES} files")
        if f != FILES:
            raise FieldError("pieces", f"rank {rank + 1} covers {f} files, not {FILES}")
    return pieces


def _parse_cards(text: str) -> tuple[list[str | None], int | None, set[int]]:
    tokens = text.split(".")
    if len(tokens) != SIZE:
        raise FieldError("cards", f"{len(tokens)} card entries, the board has {SIZE} squares")
    cards: list[str | None] = []
    face_up, nobori = None, set()
    for sq, token in enumerate(tokens):
        m = _CARD_ENTRY.fullmatch(token)
        if not m:
            raise FieldError("cards", f"entry {token[:10]!r} on {square_name(sq)} is not a card code")
        card = None if m.group(1) == "-" else m.group(1)
        cards.append(card)
        if m.group(2):
            if face_up is not None:
                raise FieldError(
                    "cards",
                    f"two face-up cards ({square_name(face_up)}, {square_name(sq)}); "
                    "a turn has at most one card face up",
                )
            if card in (None, UNKNOWN):
                raise FieldError(
                    "cards",
                    f"'*' on {square_name(sq)} marks no face-up card (a face-up "
                    "card is seen by both players)",
                )
            face_up = sq
        if m.group(3):
            if card is None:
                raise FieldError("cards", f"'^' on {square_name(sq)}: a Nobori lies on a flipped-back card")
            nobori.add(sq)  # on '?' too: a view without memory of the card under it
    return cards, face_up, nobori


def _parse_squares(text: str) -> frozenset[int]:
    names = [] if text == "-" else text.split(",")
    if not set(names) <= set(SQUARES) or len(set(names)) != len(names):
        raise FieldError("revealed", "must list different squares like 'a2,e4', or '-'")
    return frozenset(SQUARES[name] for name in names)


def _check_position(state: WarStoriesState) -> None:
    """What the box (rules/NOTES.md) and the turn structure make impossible."""
    game = state.game
    if not state.dealt:
        if state != game.initial_state():
            raise FieldError("turn", "'deal' (cards not yet dealt) fits only the start position")
        return
    for player in (0, 1):
        if state.pieces.count(DAIMYO | player << 3) > 1:
            raise FieldError(
                "pieces", f"{PLAYER_NAMES[player]} has {state.pieces.count(DAIMYO | player << 3)} Daimyo"
            )
    _check_cards(state)
    _check_pieces(state)
    _check_turn(state)


def _check_cards(state: WarStoriesState) -> None:
    """The box: 38 board cards (NOTES.md). A study position may lay out fewer; the rest are
    out of the game (derived, or named by `out:` where cards are hidden)."""
    start = set(state.game.start_squares)
    for sq, card in enumerate(state.cards):
        if card is not None and sq in start:
            raise FieldError("cards", f"{square_name(sq)} is a start square: no card lies there")
        if card is not None and state.pieces[sq]:
            raise FieldError("cards", f"a piece stands on the card on {square_name(sq)}")
    if not state.revealed.isdisjoint(start):
        raise FieldError("revealed", "a start square never held a card")
    if state.out and UNKNOWN not in state.cards:
        raise FieldError("out", "only a text with hidden cards ('?') names them; any other derives them")
    known = Counter(c for c in state.cards if c not in (None, UNKNOWN)) + Counter(state.removed)
    for name, listed in (("cards", known), ("out", known + Counter(state.out))):
        for code, n in sorted(listed.items()):
            if n > DECK_COUNTS[code]:
                where = "on the board and removed" + (" and out of the game" if name == "out" else "")
                raise FieldError(name, f"{n} x {card_name(code)} {where}; the game has {DECK_COUNTS[code]}")
    on_board = sum(1 for c in state.cards if c is not None)
    if UNKNOWN in state.cards and on_board + len(state.removed) + len(state.out) != len(DECK):
        raise FieldError(
            "cards",
            f"{on_board} cards on the board, {len(state.removed)} removed and {len(state.out)} out of "
            f"the game; with hidden cards ('?') the {len(DECK)} board cards are all accounted for "
            "(name those out of the game in a last field 'out:<cards>')",
        )


def _check_pieces(state: WarStoriesState) -> None:
    """The box of pieces (NOTES.md: 2 Daimyo, 2 + 4 Shinobi, 12 reinforcements, one per Engun
    pair of the 24 army cards: 4 of each kind)."""
    for kind, most in ((SHINOBI, 6), (ASHIGARU, 4), (KIBATAI, 4), (KIHEI, 4)):
        count = sum(1 for p in state.pieces if p and p & 7 == kind)
        if count > most:
            raise FieldError("pieces", f"{count} {PIECE_NAMES[kind]}; the box has {most}")


def _status(state: WarStoriesState) -> list[str]:
    """`WarStoriesState.status`: what a game from the start never shows."""
    remarks = []
    if not state.dealt:
        return remarks
    out = state.out_of_game
    if out:
        remarks.append(f"{len(out)} board card{'s' if len(out) > 1 else ''} out of the game")
    daimyos = [state._daimyo(player) for player in (0, 1)]
    for player, sq in enumerate(daimyos):
        if sq is None:
            remarks.append(f"no Daimyo for {PLAYER_NAMES[player]}")
    if None not in daimyos and _step_distance(daimyos[0], daimyos[1]) == 1:
        # a Daimyo never steps next to the other: it would be attacked
        remarks.append(f"the Daimyos on {square_name(daimyos[0])} and {square_name(daimyos[1])} touch")
    removed = Counter(state.removed)
    # Engun: one reinforcement enters per pair of matching army cards removed
    for code, kind in ARMY_CODES.items():
        pairs = sum(n for card, n in removed.items() if card.startswith(code)) // 2
        count = sum(1 for p in state.pieces if p and p & 7 == kind)
        if count > pairs:
            remarks.append(f"{count} {PIECE_NAMES[kind]} on the board but {pairs} Engun of them removed")
    extra = removed[HEIYA] // 2 if state.game.options["shinobi_wo_tsukau"] else 0
    shinobi = [state.pieces.count(SHINOBI | player << 3) for player in (0, 1)]
    if max(shinobi) > 1 + extra or sum(shinobi) > 2 + extra:
        remarks.append(
            f"{sum(shinobi)} Shinobi; one each, and {extra} more from two Heiya each (shinobi_wo_tsukau)"
        )
    if removed[KI]:
        remarks.append("a Ki among the removed cards (a Ki stays on the table to the end)")
    odd = [code for code, n in removed.items() if code not in (HEIYA, KI) and n % 2]
    if odd:
        remarks.append(f"one {card_name(odd[0])} removed alone (army cards leave in pairs: Engun)")
    empty = [sq for sq in state.game.card_squares if state.cards[sq] is None and sq not in state.revealed]
    if empty and not out:
        remarks.append(f"the card on {square_name(empty[0])} is gone but its square was never revealed")
    return remarks


def _check_turn(state: WarStoriesState) -> None:
    game, flips = state.game, state.flips
    heiya_removed = Counter(state.removed)[HEIYA]
    if state.face_up is not None:
        if not flips or state.all_heiya:
            raise FieldError("turn", "a card is face up ('*'), so the turn must count it, like '1x'")
        if state.cards[state.face_up] == HEIYA or state.face_up not in state.revealed:
            raise FieldError(
                "cards",
                "the face-up card must be a revealed card other than a Heiya "
                "(a Heiya leaves the board at once)",
            )
    elif flips and not state.all_heiya:
        raise FieldError("turn", f"'{flips}x' means a card is face up: mark it with '*'")
    heiyas_this_turn = flips - (state.face_up is not None)
    if heiyas_this_turn > heiya_removed:
        raise FieldError("turn", f"{heiyas_this_turn} Heiya flipped this turn but {heiya_removed} removed")
    if game.options["shinobi_wo_tsukau"] and state.all_heiya and flips >= 2:
        raise FieldError("turn", "two Heiya as the first two cards end the turn (shinobi_wo_tsukau)")
    if state.nobori:
        if not game.options["nobori"]:
            raise FieldError("cards", "'^' marks a Nobori, but the nobori option is off")
        if len(state.nobori) > 2 or not state.nobori <= state.revealed or state.face_up in state.nobori:
            raise FieldError("cards", "at most 2 Nobori, on revealed face-down cards")
    if state.lost is not None:
        loser = state.lost
        if not state.two_ki[loser] or state.side != 1 - loser or flips:
            raise FieldError(
                "lost",
                f"Yonhon no ki ends {PLAYER_NAMES[loser]}'s turn with two Ki: its "
                "two-Ki flag is set and the other player is to move",
            )


def _step_distance(a: int, b: int) -> int:
    return max(abs(a % FILES - b % FILES), abs(a // FILES - b // FILES))


# --- the board editor -------------------------------------------------------------------------

#: the board cards in the order the rulebook names them: army cards by pion and kamon, then Ki, Heiya
CARD_CODES = tuple(p + k for p in ARMY_CODES for k in KAMON) + (KI, HEIYA)
REMOVED_KEY = "removed:"  # the counter of a removed card: its own key (the card's code is the board's)
FACE_UP_FIELD = "face-up card"
HEIYA_FIELD = "Heiya turned over this turn"
TWO_KI_FIELDS = tuple(f"{name} turned up two Ki last turn" for name in PLAYER_NAMES)
NO_YES = ("no", "yes")
_EDIT_PIECES = (
    tuple(
        EditPiece(letter if owner == 0 else letter.lower(), PIECE_NAMES[kind], owner)
        for owner in (0, 1)
        for kind, letter in PIECE_LETTERS.items()
    )
    + tuple(EditPiece(code, f"{card_name(code)} (face down)") for code in CARD_CODES)
    + tuple(
        EditPiece(REMOVED_KEY + code, card_name(code), in_hand=True, pile="removed", on_board=False)
        for code in CARD_CODES
    )
)


def _edit_fields(state: WarStoriesState) -> dict[str, tuple[str, tuple[str, ...]]]:
    # a card face up is a known card other than a Heiya (a Heiya leaves the board at once)
    squares = tuple(square_name(sq) for sq, c in enumerate(state.cards) if c not in (None, UNKNOWN, HEIYA))
    face_up = "none" if state.face_up is None else square_name(state.face_up)
    fields = {
        FACE_UP_FIELD: (face_up, ("none", *squares)),
        HEIYA_FIELD: (str(_heiya_this_turn(state)), tuple(str(n) for n in range(DECK_COUNTS[HEIYA] + 1))),
    }
    for player, name in enumerate(TWO_KI_FIELDS):
        fields[name] = (NO_YES[state.two_ki[player]], NO_YES)
    return fields


def _heiya_this_turn(state: WarStoriesState) -> int:
    return state.flips - (state.face_up is not None)


def _edited(
    state: WarStoriesState,
    place: Mapping[str, str | None],
    hands: Mapping[tuple[int | None, str], int],
    to_move: int | None,
    fields: Mapping[str, str],
) -> WarStoriesState:
    """The position asked for, not yet checked (`from_text` of its text checks it). It starts
    a game: no ply count, no last action, and no Yonhon no ki loss (how a game ended is its
    history; the two-Ki flags that lead to it are fields)."""
    sketch = _placed(state, place)
    sketch = replace(sketch, removed=_removed(state, hands))
    if to_move is not None:
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise FieldError("side", f"seat {to_move!r}: War Stories has seats 0 (White) and 1 (Black)")
        sketch = replace(sketch, side=to_move)
    sketch = _with_fields(sketch, fields)
    out = sketch.out if UNKNOWN in sketch.cards else ()  # only a text with hidden cards names them
    return replace(sketch, ply=0, lost=None, out=out, last=(), shown=(), hand_over_from=None, memory=False)


def _placed(state: WarStoriesState, place: Mapping[str, str | None]) -> WarStoriesState:
    """A square holds a piece or a card: placing one takes away the other. A card that leaves
    a square was seen (Heiya and Engun show it), so its square counts as revealed."""
    pieces, cards = list(state.pieces), list(state.cards)
    revealed = set(state.revealed)
    for cell, key in place.items():
        if not isinstance(cell, str) or cell not in SQUARES:
            raise FieldError("board", f"{str(cell)[:10]!r} is no square of the board (a1-f7)")
        sq = SQUARES[cell]
        if cards[sq] is not None and key not in CARD_CODES:
            revealed.add(sq)
        pieces[sq], cards[sq] = _square_holds(key)
    kept = [sq for sq in sorted(state.nobori) if cards[sq] is not None]  # a Nobori lies on a card
    face_up = state.face_up if state.face_up is not None and cards[state.face_up] is not None else None
    sketch = replace(
        state, pieces=tuple(pieces), cards=tuple(cards), revealed=frozenset(revealed), nobori=frozenset(kept)
    )
    return _turned(sketch, face_up, _heiya_this_turn(state))


def _square_holds(key: str | None) -> tuple[int, str | None]:
    """(piece code, card) of a square the key is placed on."""
    if key is None:
        return 0, None
    if isinstance(key, str) and key in CARD_CODES:
        return 0, key
    if isinstance(key, str) and key.upper() in LETTER_PIECES and len(key) == 1:
        return LETTER_PIECES[key.upper()] | (0 if key.isupper() else 8), None
    raise FieldError(
        "board", f"{str(key)[:10]!r} is no piece (D, S, A, K, H; Black's lower case) and no card code"
    )


def _removed(state: WarStoriesState, hands: Mapping[tuple[int | None, str], int]) -> tuple[str, ...]:
    removed = Counter(state.removed)
    for counter, count in hands.items():
        owner, key = counter if isinstance(counter, tuple) and len(counter) == 2 else (0, None)
        code = key[len(REMOVED_KEY) :] if isinstance(key, str) and key.startswith(REMOVED_KEY) else None
        if owner is not None or code not in CARD_CODES:
            raise FieldError("removed", f"{str(counter)[:30]!r} is no card counter (None, 'removed:<code>')")
        # a count past the whole deck is no count at all (and never builds a huge tuple)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= len(DECK):
            raise FieldError("removed", f"{str(count)[:10]!r} {card_name(code)}: not a count of board cards")
        removed[code] = count
    return _sorted_cards(tuple(removed.elements()))


def _with_fields(state: WarStoriesState, fields: Mapping[str, str]) -> WarStoriesState:
    known = _edit_fields(state)
    for name, value in fields.items():
        if name not in known:
            raise FieldError("fields", f"{str(name)[:40]!r}: the fields are {', '.join(known)}")
        if value not in known[name][1]:
            field = "two-Ki flags" if name in TWO_KI_FIELDS else "turn"
            raise FieldError(field, f"{name} {str(value)[:10]!r}: one of {', '.join(known[name][1])}")
    face_up = state.face_up
    if FACE_UP_FIELD in fields:
        face_up = None if fields[FACE_UP_FIELD] == "none" else SQUARES[fields[FACE_UP_FIELD]]
    heiya = int(fields.get(HEIYA_FIELD, _heiya_this_turn(state)))
    flags = zip(TWO_KI_FIELDS, state.two_ki, strict=True)
    two_ki = tuple(fields.get(name, NO_YES[flag]) == "yes" for name, flag in flags)
    return _turned(replace(state, two_ki=two_ki), face_up, heiya)


def _turned(state: WarStoriesState, face_up: int | None, heiya: int) -> WarStoriesState:
    """The turn: `heiya` Heiya turned over (and removed) so far, and the card face up; a
    face-up card is a revealed one."""
    revealed = state.revealed if face_up is None else state.revealed | {face_up}
    flips = heiya + (face_up is not None)
    return replace(state, face_up=face_up, flips=flips, all_heiya=face_up is None, revealed=revealed)


# --- explaining an illegal move --------------------------------------------------------------


def _why_illegal(state: WarStoriesState, text: str) -> str:
    who = PLAYER_NAMES[state.side]
    text = text if len(text) <= 20 else text[:20] + "..."  # never echo a huge text
    m = re.fullmatch(r"flip:([a-f][1-7])|([a-f][1-7])([a-f][1-7])", text)
    if not m:
        return f"{text!r} is not War Stories notation: a piece move like 'c1c2' or a flip like 'flip:e4'"
    if m.group(1):
        sq = SQUARES[m.group(1)]
        if state.cards[sq] is None:
            return f"{text!r}: there is no card on {m.group(1)}"
        if sq == state.face_up:
            return f"{text!r}: the card on {m.group(1)} is already face up"
        if sq in state.nobori:
            return f"{text!r}: the card on {m.group(1)} carries a Nobori and may not be flipped this turn"
        return f"{text!r}: the Daimyo is attacked: only Daimyo moves are allowed (Kyousei)"
    frm, to = SQUARES[m.group(2)], SQUARES[m.group(3)]
    if state.flips:
        return f"{text!r}: {who} is flipping cards this turn and must flip another card"
    code = state.pieces[frm]
    if not code or code >> 3 != state.side:
        return f"{text!r}: no piece of {who}'s on {m.group(2)}"
    name = PIECE_NAMES[code & 7]
    if state.cards[to] is not None:
        return f"{text!r}: {m.group(3)} holds a card; pieces never stand on cards"
    if to not in state._targets(frm):
        return f"{text!r}: the {name} on {m.group(2)} cannot reach {m.group(3)}"
    if state.pieces[to] & 7 == DAIMYO:
        return f"{text!r}: a Daimyo is never captured (it is trapped instead: Haisen)"
    if code & 7 == DAIMYO:
        return f"{text!r}: the Daimyo never moves onto an attacked square"
    return f"{text!r}: the Daimyo is attacked: only Daimyo moves are allowed (Kyousei)"


# --- scene -----------------------------------------------------------------------------------


def _scene(shown: WarStoriesState, true: WarStoriesState, perspective: int | None) -> Scene:
    cells = tuple(
        Cell(
            square_name(sq),
            sq % FILES,
            sq // FILES,
            shade="start-0"
            if sq in true.game.start_squares[:2]
            else "start-1"
            if sq in true.game.start_squares[2:]
            else None,
        )
        for sq in range(SIZE)
    )
    tokens = []
    for sq in range(SIZE):
        code, card = shown.pieces[sq], shown.cards[sq]
        if code:
            tokens.append(
                Token(
                    square_name(sq),
                    PIECE_NAMES[code & 7],
                    PIECE_LETTERS[code & 7],
                    owner=code >> 3,
                    facing=code >> 3,
                )
            )
        elif card is not None:
            face_up = sq == shown.face_up or sq in true.shown
            army = card[:2] in ARMY_CODES
            tokens.append(
                Token(
                    square_name(sq),
                    card_name(card),
                    card,
                    kind="card",
                    face_down=not face_up,
                    color=KAMON[card[2]] if army and face_up else None,
                    flags=("nobori",) if sq in shown.nobori else (),
                )
            )
    removed = len(DECK) - sum(1 for code in true.cards if code is not None)
    outcome = true.outcome()
    if not true.dealt:
        status = "The cards are to be dealt"
    elif outcome is None:
        status = f"{PLAYER_NAMES[true.side]} to move" + (" (flipping)" if true.flips else "")
    elif not outcome.finished:
        status = f"Unfinished — {outcome.reason}"
    elif outcome.winner is None:
        status = f"Draw — {outcome.reason}"
    else:
        status = f"{PLAYER_NAMES[outcome.winner]} wins — {outcome.reason}"
    zone = Zone("removed", f"Removed cards: {removed}", None)
    return Scene(
        game=true.game.id,
        layout="square",
        cells=cells,
        tokens=tuple(tokens),
        zones=(zone,),
        players=PLAYER_NAMES,
        to_move=true.current_player if true.dealt and not outcome else None,
        status=status,
        perspective=perspective,
        last_cells=true.last,
    )
