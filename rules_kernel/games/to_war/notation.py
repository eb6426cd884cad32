"""To War! in text: the position text and its checks against the box and the rules, what a
position no game reaches says of itself (`status`), the move list's words, why an action is
illegal, and reading a draw. Actions are written `BED@b1` (place), `b1b2` (a step; `b4b5` off
the opponent's edge: the breakthrough), `stop`, `discard:BED`, `pass`, and `draw:BED` (chance).

The state's methods call `position_text`, `position_parts` (with `checked`), `status` and
`parse_chance`. The module is the game's "words" part (`ToWar.PARTS`,
`rules_kernel.parts.WordsPart`): `action_text`, `forgotten_text` and `why_illegal`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rules_kernel.core import CHANCE, HiddenInformationError, IllegalMoveError, Move
from rules_kernel.games.to_war.rules import (
    FILES,
    RANKS,
    SETUP_CARDS,
    SQUARES,
    Discard,
    Draw,
    Pass,
    Place,
    Step,
    Stop,
    Unit_,
    _trail_tuple,
    square_name,
)
from rules_kernel.position_text import FieldError, check_playable, named_fields, split_field, whole_number

if TYPE_CHECKING:
    from rules_kernel.games.to_war.game import ToWar
    from rules_kernel.games.to_war.state import ToWarState


# --- the move list's words -------------------------------------------------------------------


def action_text(state: ToWarState, action: Move, viewer: int | None = None) -> str:
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
    try:
        after = state.apply(action)
    except HiddenInformationError:  # a view's hidden card ('?'): nothing more is known
        return f"places a card on {square_name(action.square)}" if isinstance(action, Place) else str(action)
    seen = after if viewer is None else after.view(viewer)
    if isinstance(action, Draw):
        drawn = action.code in seen.hands[state.side]
        return f"draws {_name(state, action.code)}" if drawn else "draws a card"
    if isinstance(action, Place):
        text = _place_text(state, action, seen)
    elif isinstance(action, Discard):
        shown = action.code in seen.discards[state.side]
        text = f"discards {_name(state, action.code) if shown else 'a card'}: no square to place it on"
    elif isinstance(action, Pass):
        text = "passes: no card left in reserve or hand"
    elif isinstance(action, Stop):
        name = _name(state, state.grid[action.square][1])
        text = f"{name} stays on {square_name(action.square)}: no second step"
    else:
        text = _step_text(state, action, after)
    return text + _end_text(after)


def _name(state: ToWarState, code: str) -> str:
    unit = state.game.units.get(code)
    return unit.name if unit else "a card"


def _place_text(state: ToWarState, move: Place, seen: ToWarState) -> str:
    card, square = (state.side, move.code), square_name(move.square)
    named = seen.grid[move.square] == card or seen.entering == card  # lies face up: seen
    text = f"places {_name(state, move.code) if named else 'a card'} on {square}"
    displaced = state.grid[move.square] if state.setup_done else None
    return text + (f", displacing {_name(state, displaced[1])}" if displaced else "")


def _step_text(state: ToWarState, step: Step, after: ToWarState) -> str:
    """A pushed unit's step ("pushes Sarbaz from b1 to b2") or a free one ("Reiter
    a2–a3"), and what it met: an own unit (displaced in turn), an enemy (a fight), the
    opponent's camp (a breakthrough), or a free square."""
    mover = state.grid[step.frm]
    name, frm = _name(state, mover[1]), square_name(step.frm)
    pushed = state.entering is not None
    if step.to is None:
        camp = f"the camp of the {state.game.player_names[1 - mover[0]]}"
        if pushed:
            return f"pushes {name} from {frm} into {camp}: breakthrough, the game is won"
        return f"{name} {frm} breaks through into {camp}: the game is won"
    to = square_name(step.to)
    moved = f"pushes {name} from {frm} to {to}" if pushed else f"{name} {frm}–{to}"
    target = state.grid[step.to]
    if target is None:
        again = after.active == step.to and not after.must_step
        return moved + ("; it may step once more" if again else "")
    if target[0] == mover[0]:
        return f"{moved}, displacing {_name(state, target[1])}"
    attacks = f"{moved}, attacking " if pushed else f"{moved} attacks "
    return attacks + _fight_text(state, step, mover, target, after)


def _fight_text(state: ToWarState, step: Step, attacker: Unit_, defender: Unit_, after: ToWarState) -> str:
    """ "Berserker from the side: attack 4 + 2 = 6 > defence 5, Berserker discarded, Beduine takes c2"."""
    a, d = _name(state, attacker[1]), _name(state, defender[1])
    attack, defence = state.game.units[attacker[1]].attack, state.game.units[defender[1]].defence
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


def _end_text(after: ToWarState) -> str:
    """How the game ended, when this action ended it by the spent reserves (a breakthrough
    says so itself)."""
    outcome = after.outcome()
    if outcome is None or after.breakthrough is not None:
        return ""
    result = "a draw" if outcome.winner is None else f"the {after.game.player_names[outcome.winner]} wins"
    return f"; game over — {outcome.reason}; {result}"


def forgotten_text(state: ToWarState, action: Move, viewer: int | None = None) -> str:
    """A view forgets nothing in To War! (a hand is drawn unseen, never seen and hidden
    again): the words themselves."""
    return action_text(state, action, viewer)


def why_illegal(state: ToWarState, text: str) -> str:
    """Why `text` is no legal action here, in words (the "words" part)."""
    if state.current_player == CHANCE:
        return f"{text!r}: a card must be drawn first (a chance event)"
    legal = ", ".join(str(m) for m in state.legal_moves()) or "none"
    if state.active is not None:
        return (
            f"{text!r}: the unit on {square_name(state.active)} "
            f"{'must' if state.must_step else 'may'} step now; legal: {legal}"
        )
    return f"{text!r} is not a legal placement here; legal: {legal}"


def parse_chance(state: ToWarState, text: str) -> Draw:
    """The draw `text` names (`draw:BED`), or IllegalMoveError naming the cards that can be drawn."""
    for outcome, _ in state.chance_outcomes():
        if str(outcome) == text:
            return outcome
    draws = ", ".join(str(o) for o, _ in state.chance_outcomes())
    raise IllegalMoveError(
        f"{text!r}: the reserve of {state.game.player_names[state.side]} holds "
        f"no such card (possible draws: {draws or 'none'})"
    )


# --- position text ---------------------------------------------------------------------------


def position_text(state: ToWarState) -> str:
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


def position_parts(game: ToWar, fields: list[str]) -> tuple[Any, ...]:
    """The fields of a `ToWarState` after its game, in order, read from the position text's
    fields (`ToWar.from_text` builds the state and has `checked` check it)."""
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
    return (
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


def checked(state: ToWarState) -> ToWarState:
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
                f"{game.player_names[player]} has {total} {game.units[code].name} cards in reserve, "
                f"hand, field and discards; the army has {game.units[code].count}",
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


def status(state: ToWarState) -> list[str]:
    """What no game from the start reaches (`ToWarState.status`): cards out of the game (a study
    position lists fewer than the army), players who have not alternated, a hand larger than
    the rules deal."""
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
