"""What the agents need of War Stories: the heuristic (the agents' and the tree search's
estimate of a position) and its weights. None of it is a rule: it weighs what wins the game
(Haisen, a Daimyo attacked with nowhere safe to go; Yonhon no ki) with material and mobility."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_kernel.core import RulesError
from rules_kernel.games.war_stories.rules import (
    _WALKS,
    ASHIGARU,
    DAIMYO,
    FILES,
    HEIYA,
    KI,
    KIBATAI,
    KIHEI,
    RANKS,
    SHINOBI,
    _flippable,
)

if TYPE_CHECKING:
    from rules_kernel.games.war_stories.state import WarStoriesState

#: the agents' material values; the Daimyo counts nothing, as Haisen ends the game
AGENT_VALUES: dict[int, int] = {DAIMYO: 0, SHINOBI: 5, ASHIGARU: 4, KIBATAI: 3, KIHEI: 3}

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


def heuristic(state: WarStoriesState, player: int) -> float:
    """The "heuristic" part (`WarStories.PARTS`). Material (the game's AGENT_VALUES, over 20),
    and what wins the game: Haisen, a Daimyo
    attacked with no square to flee to (rulebook, "Haisen"; "Einde van het spel"). For each
    Daimyo: the checks its enemy can give in one move (a piece moving onto a square from which
    it attacks the Daimyo), weighed by how few safe squares the Daimyo has to flee to (Kyousei:
    a free square next to it, no card, none of its own pieces, not attacked), so a Daimyo
    hemmed in by cards with an attacker a move away scores as nearly lost; its safe squares
    themselves; and the squares each side attacks (mobility). Each side's threat on the other
    counts for it, the other's on it against it."""
    values = state.game.AGENT_VALUES
    pieces, cards = state.pieces, state.cards
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
    left = [state.cards[sq] for sq in _flippable(state)]
    others = len(left) - left.count(HEIYA)
    return left.count(KI) / others if others else 0.0


# --- what a click does (the explorer's board names each target: widgets/guidance.py) ---------


def target_words(state: WarStoriesState, move: Any, viewer: int | None = None) -> str:
    """What playing `move` does, as an instruction for the square that plays it, as the
    viewer's view knows it (`state` is that view: a card it does not know stays unnamed):
    "move the Shinobi", "move the Kihei and take the Ashigaru (Kyousei)", "turn over this
    card", "turn over a second card: a pair brings Engun". Rulebook: "In een beurt mag een
    speler 2 bordkaarten op het speelveld één voor één omdraaien"."""
    from rules_kernel.games.war_stories.notation import _announcement
    from rules_kernel.games.war_stories.rules import PIECE_NAMES, UNKNOWN, PieceMove

    if isinstance(move, PieceMove):
        text = f"move the {PIECE_NAMES[state.pieces[move.frm] & 7]}"
        if state.pieces[move.to]:
            text += f" and take the {PIECE_NAMES[state.pieces[move.to] & 7]}"
        try:
            return text + _announcement(state, state.apply(move))
        except RulesError:  # a view that cannot play it through: the step itself is said
            return text
    card = state.cards[move.square]
    known = f" ({_card(card)})" if card not in (None, UNKNOWN) else ""
    if state.face_up is not None:
        return f"turn over this card{known} as the second of the turn"
    return f"turn over this card{known}"


def _card(code: str) -> str:
    from rules_kernel.games.war_stories.rules import card_name

    return card_name(code)


def turn_words(state: WarStoriesState, viewer: int | None = None) -> str:
    """One line saying what comes next while a flipping turn goes on: the second card after
    the first ("Turn over a second card: the same army card — kind and kamon — as the Kihei
    red on c3 brings Engun (reinforcements); otherwise both go face down again."), another
    after a Heiya ("Heiya ... wordt ... verwijderd, en wordt er daarvoor in de plaats een nieuwe
    kaart omgedraaid"); '' at the start of a turn."""
    from rules_kernel.games.war_stories.rules import square_name

    if state.is_terminal() or state.flips == 0:
        return ""
    if state.face_up is not None:
        first = f"the {_card(state.cards[state.face_up])} on {square_name(state.face_up)}"
        # "Als een speler in zijn beurt 1 of 2 Ki omdraait, draait hij beide kaarten weer dicht"
        if _card(state.cards[state.face_up]) == "Ki":
            return (
                f"Turn over a second card (a lit card): after {first} no pair can come, both go face down "
                "again; two Ki in this turn and in your last one lose the game (Yonhon no ki)."
            )
        return (
            f"Turn over a second card (a lit card): the same army card as {first} (kind and kamon) "
            "brings Engun, a new piece; otherwise both go face down again."
        )
    return "The Heiya is removed: turn over another card (a lit card); a Heiya does not count."
