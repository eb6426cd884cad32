"""The board editor of To War!, the game's "editor" part (`ToWar.PARTS`,
`rules_kernel.parts.EditorPart`: `edit_pieces`, `edit_hands`, `edit_to_move`, `edit_fields`,
`edit`): each seat's cards on the field and counted in reserve, hand and discards; the turn's
fields (phase, push, breakthrough); and an edit built here, then read back through the
position text, so it is checked as any position text is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_kernel.core import EditPiece, default_edit_to_move
from rules_kernel.games.to_war import notation
from rules_kernel.games.to_war.rules import SETUP_CARDS, SQUARES, Unit_, square_name
from rules_kernel.position_text import FieldError, read_edit

if TYPE_CHECKING:
    from rules_kernel.games.to_war.game import ToWar
    from rules_kernel.games.to_war.state import ToWarState

#: the piles a card is counted in off the field, and the position text's field of each
PILES = {"reserve": "reserves", "hand": "hands", "discards": "discards"}
PHASES = ("set-up", "in play")
NONE = "none"
PHASE_FIELD, PUSH_FIELD, BREAKTHROUGH_FIELD = "phase", "push", "breakthrough"
#: the position text's field an edit field is checked as (a refusal names it)
TEXT_FIELD = {PHASE_FIELD: "placed", PUSH_FIELD: "chain", BREAKTHROUGH_FIELD: "breakthrough"}


def edit_pieces(state: ToWarState) -> tuple[EditPiece, ...]:
    """Each seat's cards by the unit table's names (the rulebook's: Mamluk, Beduine ...),
    keyed by their codes: on the field (the 3x4 grid, the scene's cells one to one), and
    each counted in three piles, keyed `<code>@<pile>`: "reserve" (the rulebook's
    Reserve), "hand" (the drawn card; three in the strategic variant) and "discards" (the
    Ablagestapel)."""
    game = state.game
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


def edit_hands(state: ToWarState) -> dict[tuple[int | None, str], int]:
    """How many of each card each seat has in reserve, in hand and discarded, keyed
    (seat, "<code>@<pile>")."""
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


def edit_fields(state: ToWarState) -> dict[str, tuple[str, tuple[str, ...]]]:
    """The phase (set-up or in play), and what a turn leaves between actions: the push
    (a card of the mover's pushing onto the square of the mover's unit that must step
    on, or a two-step unit that may step again) and the unit that broke through (a game
    won); cards by name. These are the scene's zones "Pushing onto ..." and the camps:
    only the field's squares are cells."""
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


def edit_to_move(state: ToWarState) -> int | None:
    """The side to move, or the seat chance draws for (`core.default_edit_to_move`)."""
    return default_edit_to_move(state)


def edit(
    state: ToWarState,
    *,
    place: Mapping[str, str | None] | None = None,
    hands: Mapping[tuple[int | None, str], int] | None = None,
    to_move: int | None = None,
    fields: Mapping[str, str] | None = None,
) -> ToWarState:
    """`state` edited (core.State.edit), read back from its position text, so
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
        state.game,
        lambda: edited(state, place or {}, hands or {}, to_move, fields or {}),
        notation.position_text,
    )


def edited(
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
    known = edit_fields(state)
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
