"""War Stories in text: the position text and its checks (what the box and the turn make
impossible), what makes a position unusual (`status`), the deal's text, the move list's words
(a piece move, a flip and what it did, Kyousei and Haisen announced) and why a move is illegal.

Notation (rules/NOTES.md): a piece move `c1c2` (a capture looks the same), a flip `flip:e4`,
the deal `deal:` + the 38 card codes in square order (a1, b1, ..., f7, skipping the start
squares). Card codes: army `<pion><kamon>` with pion kb (Kibatai), as (Ashigaru), kh (Kihei)
and kamon r, y, g, b (red, yellow, green, blue); landscape `ki` (Ki) and `he` (Heiya).

The state's methods call `position_parts` (with `check_position`), `position_text`, `status`
and `parse_deal`. The module is the game's "words" part (`WarStories.PARTS`,
`rules_kernel.parts.WordsPart`): `action_text`, `forgotten_text` and `why_illegal`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from rules_kernel.core import IllegalMoveError
from rules_kernel.games.war_stories.rules import (
    ARMY_CODES,
    ASHIGARU,
    DAIMYO,
    DECK,
    DECK_COUNTS,
    FILES,
    HEIYA,
    KI,
    KIBATAI,
    KIHEI,
    LETTER_PIECES,
    PIECE_LETTERS,
    PIECE_NAMES,
    PLAYER_NAMES,
    RANKS,
    SHINOBI,
    SIZE,
    SQUARES,
    UNKNOWN,
    Deal,
    Flip,
    PieceMove,
    _attacked,
    _daimyo,
    _sorted_cards,
    _targets,
    card_name,
    square_name,
)
from rules_kernel.position_text import FieldError, whole_number

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.state import WarStoriesState


# --- the deal ------------------------------------------------------------------------------


def parse_deal(state: WarStoriesState, text: str) -> Deal:
    """The deal written `deal:` and the 38 card codes separated by '.' (`State.parse_chance`)."""

    if state.dealt:
        raise IllegalMoveError(f"{text[:30]!r}: the cards are already dealt")
    if not text.startswith("deal:"):
        raise IllegalMoveError(
            f"{text[:30]!r}: the deal is pending; write it as 'deal:' and 38 card codes separated by '.'"
        )
    cards = tuple(text[5:].split("."))
    if tuple(sorted(cards)) != DECK:
        raise IllegalMoveError(
            f"{text[:30]!r}...: a deal must hold exactly the 38 board cards (24 army cards, 8 Heiya, 6 Ki)"
        )
    return Deal(cards)


# --- the move list's words ----------------------------------------------------------------


def action_text(state: WarStoriesState, action, viewer: int | None = None, *, memory: bool = True) -> str:
    """The move list's words (the "words" part), the actor left to the list: "Daimyo c1–c2
    takes Kihei", "turns over a3: Kibatai red", "turns over b4: Kihei blue — no match, both
    turned back", "turns over b4: Kibatai red — a pair: Engun, a Kibatai enters on b4",
    "turns over c3: Heiya — removed, another card to turn"; Kyousei and Haisen are announced
    as the rulebook has the threatening player do ("Shinobi d1–d6 (Kyousei)").

    Every flip is seen by both players (NOTES.md), and the card it turns is face up (or gone)
    in every view right after it, so a flip names its card for every viewer. The deal is face
    down: a player's view names no card of it ("the cards are dealt face down"); the
    all-seeing list gives the layout.

    Once a player's view has turned the card back face down (`WarStoriesState.forgets`), a
    move list writes the flip as `forgotten_text` does. `memory=False` (with a viewer): the
    words a player without memory keeps once the turn is over: those, unless the flip took
    its card off the board for all to see (a Heiya, the second card of an Engun pair)."""
    if not memory and viewer is not None and isinstance(action, Flip):
        if state.cards[action.square] == UNKNOWN or state.apply(action).cards[action.square] is not None:
            return forgotten_text(state, action, viewer)
    if action.is_chance:
        # in every view: the all-seeing board shows where each card lies, and the record
        # keeps the deal's notation; a list of card codes tells a reader nothing more
        return "the cards are dealt face down"
    if isinstance(action, PieceMove):
        return _piece_move_text(state, action)
    return flip_text(state, action.square, named=True)


def forgotten_text(state: WarStoriesState, action, viewer: int | None = None) -> str:
    """A flip's words once the card lies face down again (the "words" part): what happened
    without the card's name ("turns over a3", "turns over b4 — no match, both turned back",
    two Ki included: which cards they were is what is forgotten). A Heiya stays named (it
    leaves the board the moment it is seen: there is no face-down Heiya to forget); an Engun
    looked back on from before it says "a piece enters" (the pair's kind would name the
    cards). Anything else: `action_text`."""
    if isinstance(action, Flip):
        return flip_text(state, action.square, named=False)
    return action_text(state, action, viewer)


def _piece_move_text(state: WarStoriesState, move: PieceMove) -> str:
    name = PIECE_NAMES[state.pieces[move.frm] & 7]
    text = f"{name} {square_name(move.frm)}–{square_name(move.to)}"
    if state.pieces[move.to]:
        text += f" takes {PIECE_NAMES[state.pieces[move.to] & 7]}"
    return text + _announcement(state, state.apply(move))


def flip_text(state: WarStoriesState, sq: int, *, named: bool) -> str:
    """A flip's words; `named=False`: the card's identity left out (a Heiya's excepted). Made
    once per state and flip (the state's `_flip_texts`)."""
    texts = state._flip_texts.get(sq)
    if texts is None:
        texts = state._flip_texts[sq] = _flip_words(state, sq)
    return texts[0 if named else 1]


def _flip_words(state: WarStoriesState, sq: int) -> tuple[str, str]:
    """A flip's words with the card named, and without its identity (`forgotten_text`)."""
    cell, card = square_name(sq), state.cards[sq]
    if card == UNKNOWN:  # a view that does not know the card cannot say what it did
        return (f"turns over {cell}",) * 2
    after = state.apply(Flip(sq))
    name = f"{cell}: {card_name(card)}"
    still = after.side == state.side and after.flips > 0  # the flipping turn goes on
    said = _announcement(state, after)
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
    if state.face_up is None:  # the first card of the two
        if still or after.is_terminal():
            return f"turns over {name}{said}", f"turns over {cell}{said}"
        back = " — no card left to pair it with, turned back" + _nobori_words(after) + said
        return f"turns over {name}{back}", f"turns over {cell}{back}"
    if after.pieces[sq]:  # Engun
        kind = PIECE_NAMES[after.pieces[sq] & 7]
        what = f"a pair: Engun, a {kind} enters on {cell}", f"a pair: Engun, a piece enters on {cell}"
    elif after.lost == state.side:
        what = "two Ki again, the second turn running: Yonhon no ki (seppuku)", "Yonhon no ki (seppuku)"
    else:
        back = ", both turned back" + _nobori_words(after)
        what = (
            ("two Ki" if card == KI == state.cards[state.face_up] else "no match") + back,
            "no match" + back,
        )
    return f"turns over {name} — {what[0]}{said}", f"turns over {cell} — {what[1]}{said}"


def _announcement(state: WarStoriesState, after: WarStoriesState) -> str:
    """Kyousei and Haisen, announced by the player who threatens the Daimyo."""
    outcome = after.outcome()
    if outcome is not None and outcome.finished and outcome.reason.startswith("Haisen"):
        return " (Haisen of its own Daimyo)" if outcome.winner != state.side else " (Haisen)"
    if (
        outcome is None
        and after.side != state.side
        and _daimyo(after, after.side) is not None
        and _attacked(after, _daimyo(after, after.side), state.side)
    ):
        return " (Kyousei)"
    return ""


def _nobori_words(after: WarStoriesState) -> str:
    """The Nobori on the cards just turned back (the nobori option)."""
    return " under the Nobori" if after.nobori and after.nobori == frozenset(after.shown) else ""


# --- position text -------------------------------------------------------------------------


def position_text(state: WarStoriesState) -> str:
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


def position_parts(fields: list[str]) -> tuple:
    """The fields of a `WarStoriesState` after its game, in order, read from a position text's
    fields (`position_text`'s form); FieldError naming the field. `check_position` checks the
    state made of them."""
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
    return (
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


def check_position(state: WarStoriesState) -> None:
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


def status(state: WarStoriesState) -> list[str]:
    """`WarStoriesState.status`: what a game from the start never shows."""
    remarks = []
    if not state.dealt:
        return remarks
    out = state.out_of_game
    if out:
        remarks.append(f"{len(out)} board card{'s' if len(out) > 1 else ''} out of the game")
    daimyos = [_daimyo(state, player) for player in (0, 1)]
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


# --- explaining an illegal move --------------------------------------------------------------


def why_illegal(state: WarStoriesState, text: str) -> str:
    """Why `text` is no legal move here, in words (the "words" part)."""
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
    if to not in _targets(state, frm):
        return f"{text!r}: the {name} on {m.group(2)} cannot reach {m.group(3)}"
    if state.pieces[to] & 7 == DAIMYO:
        return f"{text!r}: a Daimyo is never captured (it is trapped instead: Haisen)"
    if code & 7 == DAIMYO:
        return f"{text!r}: the Daimyo never moves onto an attacked square"
    return f"{text!r}: the Daimyo is attacked: only Daimyo moves are allowed (Kyousei)"
