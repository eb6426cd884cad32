"""War Chest's actions in words, for the move list (issue #22): the game's "words" part
(`WarChest.PARTS`, `rules_kernel.parts.WordsPart`: `action_text`, `forgotten_text`,
`why_illegal`).

A phrase in the rulebook's terms without the actor (the list names the side beside it; a
chance line names whoever draws), hexes by the names the map shows (`box.hex_label`: `e1`),
unit names as the cards say them: "deploys a Pikeman to e1", "moves the Cavalry c4–d5",
"the Cavalry on d5 attacks the Pikeman on e5: the Pikeman loses a coin". What the action set
off is read from the position after it (`state.apply`): a coin lost, a unit removed, a
Pikeman hitting back, the end of the game.

Secrets stay where the view keeps them: another player's draw is a count, and a coin paid face
down (pass, recruit, initiative) is "a coin face down"; the mover and the all-seeing name it.
A phrase names the unit of the coin paid (or of the hex acted from) wherever the viewer can
see that coin, so the move list never needs to put a name in front of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import CHANCE, RulesError
from rules_kernel.games.war_chest.box import FACE_DOWN, MANEUVERS, NAMES, ROYAL, Hex, Order, hex_label
from rules_kernel.games.war_chest.rules import drawer

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.state import WarChestState


def action_text(state: WarChestState, action, viewer: int | None = None) -> str:
    """`action`, about to be played in `state`, as `viewer` (None: all-seeing) learns of it:
    "deploys a Pikeman to e1", "moves the Cavalry c4–d5", hexes by the names the map shows.
    Draws go into a hidden hand and a coin paid face down (pass, recruit, initiative) stays
    unknown: other players learn only how many coins were drawn and what was recruited."""
    if action.is_chance:
        return _chance_words(state, str(action), viewer)
    text = _move_words(state, action, viewer)
    after = _after(state, action)
    if after is not None and after.is_terminal():
        text += f" — the game ends: {after.outcome().reason}"
    return text


def forgotten_text(state: WarChestState, action, viewer: int | None = None) -> str:
    """A view forgets nothing in War Chest (a coin seen stays in sight or in the counts): the
    words themselves."""
    return action_text(state, action, viewer)


def why_illegal(state: WarChestState, text: str) -> str:
    """Why `text` is no legal action here, in words (the "words" part): a chance event
    pending, the draft, a follow-up the rules ask first, a coin not in hand; else the legal
    actions."""
    if state.current_player == CHANCE:
        return f"{text!r}: a chance event is pending (a deal or a draw from a bag)"
    legal = sorted(str(m) for m in state.legal_moves())
    shown = ", ".join(legal[:30]) + (" ..." if len(legal) > 30 else "")
    if state.phase == "draft":
        return f"{text!r}: the draft is on; cards left: {', '.join(state.pool)}"
    if state.pending:
        kind, player, detail = state.pending[-1]
        what = {
            "guard": "decide how the attacked Royal Guard takes the hit",
            "priest-use": f"use the coin the Warrior Priest drew ({detail}) at once",
            "sword": "say whether the Swordsman moves one hex after its attack ('done': it stays)",
            "berserk": (
                "say whether the Berserker maneuvers again, paying a coin of its stack ('done': it does not)"
            ),
            "mercenary": "say whether the Mercenary makes its free maneuver ('done': it does not)",
            "footman": "maneuver each Footman unit once ('done': no more)",
        }[kind]
        return f"{text!r}: {state.game.player_names[player]} must first {what}; legal: {shown}"
    words = text.split()
    hand = state.hands[state.turn]
    if (
        len(words) > 1
        and words[0] in FACE_DOWN + MANEUVERS + ("deploy", "bolster", "tactic")
        and words[1] not in hand
    ):
        return (
            f"{text!r}: {state.game.player_names[state.turn]} has no {words[1]!r} coin in hand "
            f"(hand: {', '.join(hand)})"
        )
    return f"{text!r} is not a legal action here; legal: {shown}"


def _after(state: WarChestState, action) -> WarChestState | None:
    """The position after the action; None where it cannot be played here (on a view that
    does not know the coin: the words then say what the action is, not what came of it)."""
    try:
        return state.apply(action)
    except RulesError:
        return None


# --- chance: the deal, the draft cards, the draws ----------------------------------------------------


def _chance_words(state: WarChestState, text: str, viewer: int | None) -> str:
    names = state.game.player_names
    if state.phase == "deal" and text.startswith("deal:"):  # the armies are dealt face up
        armies = text[len("deal:") :].split("/")
        return "the armies are dealt: " + "; ".join(
            f"{names[p]} {_unit_list(army.split(','))}" for p, army in enumerate(armies)
        )
    if state.phase == "deal":
        return "the draft cards are revealed: " + _unit_list(text[len("reveal:") :].split(","))
    player, k = drawer(state)
    coins = text[len("draw:") :].split(",")
    refilled = len(state.bags[player]) < k and (state.faceup[player] or state.facedown[player])
    refill = " (the discard pile goes back into the bag first)" if refilled else ""
    if state.phase == "draw":
        what = _unit_list(coins) if viewer in (None, player) else _count(len(coins))
        return f"{names[player]} draws {what}{refill}"
    what = _coin(coins[0]) if viewer in (None, player) else "a coin"
    return f"{names[player]} draws {what} for the Warrior Priest, to use at once{refill}"


def _unit_list(units: list[str]) -> str:
    return ", ".join(NAMES[u] for u in units)


def _count(n: int) -> str:
    return f"{n} coin{'s' if n != 1 else ''}"


# --- a player's action -------------------------------------------------------------------------------


def _move_words(state: WarChestState, order: Order, viewer: int | None) -> str:
    verb, coin = order.verb, order.coin
    if verb == "pick":
        return f"picks the {NAMES[order.arg]} card"
    if verb == "guard":
        return _guard_words(state, order)
    if verb == "done":
        return _DONE[state.pending[-1][0]]
    if state.pending and state.pending[-1][0] != "priest-use":  # a maneuver without a coin
        return _follow_up_words(state, order)
    if verb in ("initiative", "recruit", "pass"):
        what = {"initiative": "takes the initiative", "pass": "passes"}.get(verb) or (
            f"recruits {_a(NAMES[order.arg])}"
        )
        if viewer is not None and viewer != state.current_player:
            return f"{what} (pays with a coin face down)"
        return f"{what}, paying with {_coin(coin)}"
    unit = NAMES[coin]
    if verb == "deploy":
        return f"deploys {_a(unit)} to {hex_label(order.hexes[0])}"
    if verb == "bolster":
        return f"bolsters the {unit} on {hex_label(order.hexes[0])}"
    if verb == "tactic":
        return _tactic_words(state, order)
    if verb == "move":
        return f"moves the {unit} {_path(order.hexes)}"
    return _maneuver_words(state, order)


def _a(name: str) -> str:
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def _coin(coin: str) -> str:
    return "the Royal coin" if coin == ROYAL else f"{_a(NAMES[coin])} coin"


def _path(hexes) -> str:
    return "–".join(hex_label(h) for h in hexes)


def _maneuver_words(state: WarChestState, order: Order, note: str = "", paid: int = 0) -> str:
    """Move, control or attack of the unit on the order's first hex, as one sentence; `note`
    says what let it maneuver, `paid`: coins of its stack that paid for it (no loss)."""
    h = order.hexes[0]
    unit = NAMES[state.board[h][1]]
    if order.verb == "move":
        return f"the {unit} moves {_path(order.hexes)}{note}"
    if order.verb == "control":
        return f"the {unit} takes control of {hex_label(h)}{_from_whom(state, h)}{note}"
    victim, result = _attack(state, order, h, h, order.hexes[1], paid)
    return f"the {unit} on {hex_label(h)} attacks {victim}{note}: {result}"


def _from_whom(state: WarChestState, h: Hex) -> str:
    """An enemy marker goes back to its side."""
    side = state.controller.get(h)
    if side is None:
        return ""
    return " from " + (state.game.player_names[side] if state.game.num_players == 2 else f"Team {'AB'[side]}")


def _attack(
    state: WarChestState, order: Order, frm: Hex, at: Hex, target: Hex, paid: int = 0
) -> tuple[str, str]:
    """The unit attacked ('the Pikeman on e5') and what came of it ('the Pikeman loses a
    coin'), read from the position after the order. The attacker stood on `frm` and attacks
    from `at`; `paid`: coins it paid from its stack first (a Berserker's repeat), no loss."""
    after = _after(state, order)
    victim = NAMES[state.board[target][1]]
    if after is None:
        return f"the {victim} on {hex_label(target)}", f"the {victim} loses a coin"
    if any(kind == "guard" and detail == target for kind, _, detail in after.pending):
        result = "its owner chooses where the lost coin comes from (the supply or the unit)"
    elif target not in after.board:
        result = f"the {victim} is removed"
    else:
        result = f"the {victim} loses a coin"
    attacker = after.board.get(at)
    if attacker is None or attacker[2] < state.board[frm][2] - paid:  # a Pikeman hit back
        name = NAMES[state.board[frm][1]]
        result += f"; the {name} {'is removed' if attacker is None else 'loses a coin'} too"
    return f"the {victim} on {hex_label(target)}", result


def _tactic_words(state: WarChestState, order: Order) -> str:
    coin, hexes = order.coin, order.hexes
    here = hex_label(hexes[0])
    if coin in ("archer", "crossbowman"):
        victim, result = _attack(state, order, hexes[0], hexes[0], hexes[1])
        how = "two hexes away" if coin == "archer" else "two hexes away in a line"
        return f"the {NAMES[coin]} on {here} attacks {victim}, {how} (tactic): {result}"
    if coin in ("cavalry", "lancer"):
        victim, result = _attack(state, order, hexes[0], hexes[1], hexes[2])
        how = "moves" if coin == "cavalry" else "charges"
        return f"the {NAMES[coin]} {how} {_path(hexes[:2])} and attacks {victim} (tactic): {result}"
    if coin == "light-cavalry":
        return f"the Light Cavalry moves {_path(hexes)} (tactic: two steps)"
    if coin == ROYAL:
        return f"the Royal Guard moves {_path(hexes)} (tactic, paying with the Royal coin)"
    if coin == "ensign":
        moved = NAMES[state.board[hexes[1]][1]]
        return f"the Ensign on {here} moves the {moved} {_path(hexes[1:])} (tactic)"
    if coin == "marshall":
        unit = NAMES[state.board[hexes[1]][1]]
        victim, result = _attack(state, order, hexes[1], hexes[1], hexes[2])
        there = hex_label(hexes[1])
        return f"the Marshall on {here} has the {unit} on {there} attack {victim} (tactic): {result}"
    if coin == "footman":
        return "the Footman tactic: each Footman unit may maneuver once"
    return f"the {NAMES[coin]} on {here} uses its tactic"  # (every tactic is named above)


# --- follow-ups inside the turn -----------------------------------------------------------------------


_NOTES = {  # what let a unit maneuver without a coin
    "sword": " after its attack",
    "berserk": " (maneuvering again, paying a coin of its stack)",
    "mercenary": " (a free maneuver)",
    "footman": " (Footman tactic)",
}


def _follow_up_words(state: WarChestState, order: Order) -> str:
    kind = state.pending[-1][0]
    return _maneuver_words(state, order, _NOTES[kind], paid=1 if kind == "berserk" else 0)


_DONE = {
    "sword": "done: the Swordsman stays after its attack",
    "berserk": "done: the Berserker does not maneuver again",
    "mercenary": "done: the Mercenary makes no free maneuver",
    "footman": "done: no more Footman maneuvers",
}


def _guard_words(state: WarChestState, order: Order) -> str:
    """The Royal Guard attacked: its owner chose where the lost coin comes from."""
    h = state.pending[-1][2]
    where = hex_label(h)
    if order.arg == "supply":
        return f"chooses to take the coin from the supply: the Royal Guard on {where} keeps its coins"
    after = _after(state, order)
    loss = "loses a coin" if after is None or h in after.board else "is removed"
    return f"chooses to take the coin from the unit: the Royal Guard on {where} {loss}"


# --- what a click does (the explorer's board names each target: widgets/guidance.py) -----------------


def _imperative(phrase: str) -> str:
    """'the Cavalry moves c4–d5' / 'moves the Cavalry c4–d5' as an instruction: 'move the
    Cavalry c4–d5'; 'the Cavalry on c4 attacks the Pikeman on d5: ...' as 'attack the
    Pikeman on d5 with the Cavalry on c4: ...'."""
    verbs = {
        "moves": "move",
        "takes": "take",
        "attacks": "attack",
        "chooses": "choose",
        "bolsters": "bolster",
    }
    first, _, rest = phrase.partition(" ")
    if first in verbs:
        return f"{verbs[first]} {rest}"
    for verb, instead in verbs.items():  # 'the Cavalry on c4 attacks X: result'
        subject, found, after = phrase.partition(f" {verb} ")
        if found and subject.startswith("the "):
            head, colon, result = after.partition(":")
            if verb == "moves":
                return f"move {subject} {head}{colon}{result}"
            if verb == "takes":
                return f"take {head} with {subject}{colon}{result}"
            return f"{instead} {head} with {subject}{colon}{result}"
    return phrase


def target_words(state: WarChestState, order: Order, viewer: int | None = None) -> str:
    """What playing `order` does, as an instruction for the place that plays it (a hex, the
    supply, the discard pile, the initiative marker, a prompt), in the rulebook's terms:
    "deploy a Pikeman", "bolster the Pikeman (one more coin on its stack)", "recruit a
    Crossbowman", "pass (the coin goes face down: nothing else
    this turn)", "take the initiative (...)", "move the Cavalry c4–d5", "attack the Pikeman on d5
    with the Cavalry on c4: the Pikeman loses a coin"; the end of the game when it comes."""
    verb = order.verb
    if verb == "pick":
        text = f"pick the {NAMES[order.arg]} card"
    elif verb == "done":
        text = _DONE[state.pending[-1][0]]
    elif verb == "guard":
        text = "take the lost coin from the " + ("supply" if order.arg == "supply" else "Royal Guard itself")
    elif state.pending and state.pending[-1][0] != "priest-use":  # what let it go on: the turn's line says
        text = _imperative(_maneuver_words(state, order, paid=1 if state.pending[-1][0] == "berserk" else 0))
    elif verb == "deploy":
        text = f"deploy {_a(NAMES[order.coin])}"
    elif verb == "bolster":
        text = f"bolster the {NAMES[order.coin]} (one more coin on its stack)"
    elif verb == "recruit":
        text = f"recruit {_a(NAMES[order.arg])}"
    elif verb == "pass":
        text = "pass (the coin goes face down: nothing else this turn)"
    elif verb == "initiative":
        text = "take the initiative (the coin paid goes face down)"
    elif verb == "tactic":
        text = "use the tactic: " + _tactic_words(state, order)
    else:
        text = _imperative(_move_words(state, order, viewer))
    after = _after(state, order)
    if after is not None and after.is_terminal():
        text += f" — the game ends: {after.outcome().reason}"
    return text


#: what a player does next inside a turn, by the follow-up waiting (the rulebook's unit cards)
_NEXT = {
    "sword": "The Swordsman attacked: it may now move one hex (a lit hex), or click Done.",
    "berserk": (
        "The Berserker may maneuver again, paying with a coin of its stack (a lit hex), or click Done."
    ),
    "mercenary": "The Mercenary may make a free maneuver (a lit hex), or click Done.",
    "footman": "Footman tactic: each Footman may maneuver once (a lit hex), or click Done.",
    "guard": "Your Royal Guard was attacked: choose where the lost coin comes from (the supply or the unit).",
    "priest-use": "The Warrior Priest drew a coin: use it now (it is selected in your hand, its places lit).",
}


def turn_words(state: WarChestState, viewer: int | None = None) -> str:
    """One line saying what comes next when the action goes on (a follow-up: the Swordsman's
    move after its attack, the Berserker's repeat, a Royal Guard's loss, the Warrior Priest's
    coin) or when the game asks for a choice (the draft); '' at an ordinary coin's action."""
    if state.phase == "draft":
        return "Pick a unit card (a lit card): its coins join your army."
    if state.pending and state.phase == "play":
        return _NEXT.get(state.pending[-1][0], "")
    return ""


def confirm_words(state: WarChestState, order: Order, viewer: int | None = None) -> str:
    """A question to ask before `order` when it gives up the action and cannot be taken back at
    a table: a pass while other coins stay in the hand (the coin goes face down: "Gooi de munt
    om en pas een beurt"); '' for every other order."""
    if order.verb != "pass" or state.pending:
        return ""
    others = len(state.hands[state.current_player]) - 1
    if others <= 0:
        return ""
    return (
        f"Pass with {_coin(order.coin)}? It goes face down on your discard pile and you do nothing "
        f"with it this turn; you keep {_count(others)} in your hand."
    )
