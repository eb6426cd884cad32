"""Position text of To War! and War Chest (issue #14): hostile and careless texts.

- a hypothesis fuzz of `from_text`: texts of real random games (and their views), mutated by
  character edits, foreign tokens (huge numbers, Unicode digits, unknown cards) and fields or
  tokens swapped in from other positions; only `PositionTextError` may escape, an accepted text
  round-trips and its position can be played on;
- one scenario per hole the issue lists, each named by the field the error must name;
- the property that `from_text(s.to_text()) == s` with equal hashes along random games, and
  equality by position (transpositions, the last-move highlight).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import PositionTextError
from rules_kernel.core import HiddenInformationError

TO_WAR = rk.load_game("to-war")
TO_WAR_STRATEGIC = rk.load_game("to-war", armies=["western", "far-eastern"], strategic=True)
WAR_CHEST = rk.load_game("war-chest")
WAR_CHEST_4P = rk.load_game("war-chest", players=4, setup="draft")
WAR_CHEST_CAPPED = rk.load_game("war-chest", setup="first-game", max_actions=150)
GAMES = {
    "to-war": TO_WAR,
    "to-war-strategic": TO_WAR_STRATEGIC,
    "war-chest": WAR_CHEST,
    "war-chest-4p": WAR_CHEST_4P,
    "war-chest-capped": WAR_CHEST_CAPPED,
}
HUGE = "9" * 5000  # int() of more than 4,300 digits raises ValueError


@cache
def corpus(name: str) -> tuple[str, ...]:
    """Texts of positions from a few random games of `name`, and of the players' views."""
    game = GAMES[name]
    texts: list[str] = []
    for seed in range(6):
        states, _ = random_game(game, seed, cap=250)
        for state in states[::5] + [states[-1]]:
            texts.append(state.to_text())
            texts.extend(state.view(p).to_text() for p in range(game.num_players))
    return tuple(dict.fromkeys(texts))


# --- the fuzz -------------------------------------------------------------------------------

PIECES = [
    "-",
    ",",
    ";",
    "/",
    ":",
    ".",
    "+",
    "=",
    "*",
    "|",
    "?",
    " ",
    "0",
    "1",
    "2",
    "3",
    "7",
    "99",
    "-1",
    "²",
    "١",
    "1_0",
    HUGE,
    "XYZ",
    "0:XYZ",
    "1:MAM",
    "0:?",
    "z9",
    "must",
    "may",
    "royal",
    "archer",
    "knight",
    "3,3",
    "3,3:0:archer:1",
    "4,0:1",
    "guard:0:3,3",
    "priest-use:1:royal",
    "w",
    "b",
]


@st.composite
def mutated_text(draw, name: str) -> str:
    texts = corpus(name)
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(["char", "delete", "insert", "field", "token", "swap"]))
        text = EDITS[edit](draw, text, texts)
    return text


def _char(draw, text, texts):
    i = draw(st.integers(0, max(len(text) - 1, 0)))
    return text[:i] + draw(st.sampled_from("0123456789-,;/:.+=*|? abwXYZ²")) + text[i + 1 :]


def _delete(draw, text, texts):
    i = draw(st.integers(0, len(text)))
    return text[:i] + text[i + draw(st.integers(1, 6)) :]


def _insert(draw, text, texts):
    i = draw(st.integers(0, len(text)))
    return text[:i] + draw(st.sampled_from(PIECES)) + text[i:]


def _field(draw, text, texts):
    """A whole field from another position: well-formed, but maybe not consistent."""
    mine, other = text.split(" "), draw(st.sampled_from(texts)).split(" ")
    i = draw(st.integers(0, len(mine) - 1))
    if i < len(other):
        mine[i] = other[i]
    return " ".join(mine)


def _token(draw, text, texts):
    """One item of a list (a unit, a coin, a count) replaced by an item from another position."""
    separators = ".,;/|+"
    words = [w for w in _split_any(draw(st.sampled_from(texts)), separators + " ") if w]
    mine = _split_any(text, separators + " ", keep=True)
    slots = [i for i, w in enumerate(mine) if w and w not in separators + " "]
    if not slots or not words:
        return text
    mine[draw(st.sampled_from(slots))] = draw(st.sampled_from(words))
    return "".join(mine)


def _split_any(text: str, separators: str, keep: bool = False) -> list[str]:
    out, word = [], ""
    for ch in text:
        if ch in separators:
            out += [word, ch] if keep else [word]
            word = ""
        else:
            word += ch
    return out + [word]


def _swap(draw, text, texts):
    fields = text.split(" ")
    i, j = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields) - 1))
    fields[i], fields[j] = fields[j], fields[i]
    return " ".join(fields)


EDITS = {"char": _char, "delete": _delete, "insert": _insert, "field": _field, "token": _token, "swap": _swap}


def accepted_or_refused(game, text: str) -> bool:
    """Only PositionTextError may escape; an accepted position round-trips and can be played."""
    try:
        state = game.from_text(text)
    except PositionTextError as exc:
        assert "position" in str(exc)
        return False
    again = game.from_text(state.to_text())
    assert again == state and hash(again) == hash(state)
    assert again.to_text() == state.to_text()
    assert all(isinstance(remark, str) and remark for remark in state.status())  # says, never refuses
    play_on(state)
    return True


def play_on(state, steps: int = 3) -> None:
    rng = random.Random(0)
    state.scene()
    for _ in range(steps):
        if state.is_terminal():
            assert state.outcome() is not None and state.legal_moves() == []
            return
        if state.current_player == rk.CHANCE:
            action = state.sample_chance(rng)
        else:
            moves = state.legal_moves()
            assert moves, f"not over, but no legal move: {state.to_text()}"
            hidden = [m for m in moves if "?" in (getattr(m, "code", ""), getattr(m, "coin", ""))]
            for move in hidden[:1]:  # a view's hidden card or coin cannot be played: an error, no crash
                with pytest.raises(HiddenInformationError, match="hidden in this view"):
                    state.apply(move)
            moves = [m for m in moves if m not in hidden]
            if not moves:
                return
            action = rng.choice(moves)
        state = state.apply(action)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", ["to-war", "to-war-strategic"])
@FUZZ
@given(data=st.data())
def test_fuzz_to_war_texts_only_position_errors_escape(name, data):
    accepted_or_refused(GAMES[name], data.draw(mutated_text(name)))


@pytest.mark.parametrize("name", ["war-chest", "war-chest-4p", "war-chest-capped"])
@FUZZ
@given(data=st.data())
def test_fuzz_war_chest_texts_only_position_errors_escape(name, data):
    accepted_or_refused(GAMES[name], data.draw(mutated_text(name)))


def test_the_corpus_texts_are_all_accepted_and_the_fuzz_refuses_most_mutants():
    """The fuzz is only worth something if real texts pass and broken ones are caught."""
    for name, game in GAMES.items():
        assert all(accepted_or_refused(game, text) for text in corpus(name)[:40])
    game, texts = TO_WAR, corpus("to-war")
    refused = sum(not accepted_or_refused(game, t.replace("=", "=1", 1)) for t in texts[:30])
    assert refused == 30  # one card more in a reserve breaks the count of the box


# --- round trips and equality along random games -------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_text_round_trip_gives_an_equal_state_with_an_equal_hash(name, seed):
    game = GAMES[name]
    states, _ = random_game(game, seed, cap=300)
    for state in states:
        again = game.from_text(state.to_text())
        assert again == state and hash(again) == hash(state)
    for state in states[::10]:
        for player in range(game.num_players):
            view = state.view(player)
            assert game.from_text(view.to_text()) == view


def test_the_last_move_highlight_is_no_part_of_the_position():
    """Issue #14: `from_text(s.to_text()) != s` because of the last move; now equal, and the
    highlight is still there for drawing."""
    states, _ = random_game(TO_WAR, 3)
    moved = next(s for s in states if s.last)
    assert TO_WAR.from_text(moved.to_text()) == moved and moved.scene().last_cells == moved.last
    states, _ = random_game(WAR_CHEST, 3, cap=80)
    moved = next(s for s in reversed(states) if s.last)
    again = WAR_CHEST.from_text(moved.to_text())
    assert again == moved and hash(again) == hash(moved) and again.last == ()


def test_to_war_transposition_hands_drawn_in_another_order():
    """Strategic variant: the same three cards drawn in two orders are one position."""
    state = rk.load_game("to-war", strategic=True).from_text(
        "-.0:MAM.-.0:MAM.0:MAM.0:MAM.1:BER.1:BER.1:BER.1:KOE.-.1:KOE MAM=1,BED=5,SAQ=4,SAR=2/"
        "BER=0,KOE=1,REI=3,KRI=4,BOG=4 -/- MAM/- w 6,6 - - 40"
    )
    one = state.play("draw:BED", "draw:SAQ", "draw:SAR")
    other = state.play("draw:SAR", "draw:BED", "draw:SAQ")
    assert one == other and hash(one) == hash(other) and one.to_text() == other.to_text()


def test_war_chest_transposition_draft_picks_in_another_order():
    """Draft: player 1 picks two cards in a row; either order gives one position."""
    state = rk.load_game("war-chest", setup="draft").initial_state()
    state = state.play("reveal:archer,cavalry,knight,lancer,marshall,pikeman,scout,swordsman", "pick archer")
    one, other = state.play("pick knight", "pick scout"), state.play("pick scout", "pick knight")
    assert one.last != other.last
    assert one == other and hash(one) == hash(other) and one.to_text() == other.to_text()


def test_war_chest_action_counter_counts_only_under_a_cap():
    """`ply` decides the end only with max_actions: only then two plies are two positions."""
    for game, counts in ((WAR_CHEST, False), (WAR_CHEST_CAPPED, True)):
        states, _ = random_game(game, 5, cap=30)
        text = states[-1].to_text().rsplit(" ", 1)[0]
        early, late = game.from_text(text + " 30"), game.from_text(text + " 31")
        assert (early != late) is counts


# --- the holes of issue #14, one by one -------------------------------------------------------


def to_war_chain_text() -> str:
    """A real position in the middle of a push chain (the Bedouin waits for c1)."""
    return (
        "0:MAM.0:SAR.0:SAQ.0:SAQ.0:MAM.0:SAR.1:REI.1:KOE.1:KRI.1:KRI.1:BER.1:BOG "
        "MAM=4,BED=4,SAQ=2,SAR=0/BER=2,KOE=2,REI=2,KRI=2,BOG=3 -/- -/- w 6,6 c1,must,0:BED,b1,b1=b1 - 14"
    )


def refused(game, text: str, field: str, words: str = "") -> str:
    with pytest.raises(PositionTextError) as info:
        game.from_text(text)
    message = str(info.value)
    assert f": {field}: " in message and words in message, message
    return message


def test_the_chain_text_is_valid_to_start_with():
    state = TO_WAR.from_text(to_war_chain_text())
    assert state.active is not None and [str(m) for m in state.legal_moves()] == ["c1c2"]


@pytest.mark.parametrize(
    "bad, replacement, field, words",
    [
        ("c1,must", "z9,must", "chain", "'z9' is not a square"),  # was KeyError
        ("b1=b1", "q0=b1", "chain", "'q0' is not a square"),  # was KeyError
        ("SAQ=2,", "SAQ=x,", "reserves", "'x' is not a whole number"),  # was ValueError from int()
        ("SAQ=2,SAR=0/", "SAQ=2/", "reserves", "how many SAR"),  # was ValueError from zip(strict)
        ("6,6", "6,six", "placed", "'six' is not a whole number"),
        ("c1,must", "a3,must", "chain", "stepping unit on a3 must be the mover's"),  # was TypeError later
        (" 14", " " + HUGE, "ply", "at most 9 digits"),  # was ValueError (4,300 digits)
        ("SAQ=2,", "SAQ=\u00b2,", "reserves", "not a whole number"),  # '²' passes isdigit()
        ("SAQ=2,", "SAQ=\u0661,", "reserves", "not a whole number"),  # int() reads Arabic-Indic digits
        ("SAQ=2,", "SAQ=" + HUGE + ",", "reserves", "at most 9 digits"),
        ("0:BED", "0:XYZ", "chain", "'XYZ' is no card of player 0's army"),
        ("1:BOG", "1:?", "grid", "'1:?'"),
    ],
)
def test_to_war_holes_in_the_text_are_refused_naming_the_field(bad, replacement, field, words):
    text = to_war_chain_text()
    assert bad in text
    refused(TO_WAR, text.replace(bad, replacement, 1), field, words)


#: Southern (player 0) to draw: 4 Mamluks on the field and one discarded; Northern: 5 units
MIDGAME = (
    "-.0:MAM.-.0:MAM.0:MAM.0:MAM.1:BER.1:BER.1:BER.1:KOE.-.1:KOE MAM=1,BED=5,SAQ=4,SAR=2/"
    "BER=0,KOE=1,REI=3,KRI=4,BOG=4 -/- MAM/- w 6,6 - - 40"
)


def test_to_war_unknown_card_is_no_longer_playable():
    """Issue #14: an unknown card `XYZ` in hand was accepted and then playable."""
    text = MIDGAME
    TO_WAR.from_text(text)  # the position before the draw is fine
    refused(
        TO_WAR,
        text.replace("MAM=1", "MAM=0").replace("-/- MAM/-", "XYZ/- MAM/-"),
        "hands",
        "'XYZ' is no card of player 0's army",
    )


def test_to_war_material_turn_order_and_hand_size_follow_the_box():
    """17 cards an army (the card overview): more is refused. Fewer is a study position (the
    rest out of the game), and turns that did not alternate or a hand of two are unusual, not
    wrong: `status()` says so (issue #24)."""
    text = MIDGAME
    refused(TO_WAR, text.replace("SAR=2", "SAR=3"), "reserves", "3 SAR cards")  # a third Sarbaz
    study = TO_WAR.from_text(text.replace("MAM=1", "MAM=0"))  # a Mamluk out of the game
    assert study.status() == ["1 card of the Südliche Armee out of the game (1 Mamluk)"]
    assert TO_WAR.from_text(text.replace(" w ", " b ")).status() == [
        "the players have played 5 and 5 cards, which cannot be with the Nordische Armee to move "
        "(they alternate, one card a turn)"
    ]
    two = text.replace("MAM=1,BED=5", "MAM=0,BED=4").replace("-/- MAM/-", "BED,MAM/- MAM/-")
    assert "player 0 holds 2 cards; at most 1 here (one card a turn)" in TO_WAR.from_text(two).status()
    with pytest.raises(PositionTextError, match="a text is expected, not NoneType"):
        TO_WAR.from_text(None)
    with pytest.raises(PositionTextError, match="a text is expected, not int"):
        TO_WAR.from_text(10**5000)  # not even str() of it is safe


def test_to_war_set_up_rules_bind_the_text():
    """ "Die beiden zuerst platzierten Karten müssen stets in der Mitte liegen"; each in their
    own half; a player with nothing to play and the game not over cannot be."""
    start = TO_WAR.initial_state().play("draw:MAM", "MAM@b2", "draw:BER")
    text = start.to_text()
    assert TO_WAR.from_text(text) == start
    assert text.startswith("-.-.-.-.0:MAM.-.-.-.-.-.-.- ")
    refused(
        TO_WAR, text.replace("-.-.-.-.0:MAM.-", "0:MAM.-.-.-.-.-", 1), "grid", "first set-up card lies on b2"
    )
    refused(TO_WAR, text.replace("-.-.-.-.0:MAM.-.-.-", "-.-.-.-.-.-.-.0:MAM", 1), "placed", "own half")
    refused(TO_WAR, text.replace(" 1,0 ", " 2,0 "), "placed", "own half")


# --- War Chest ----------------------------------------------------------------------------------


def war_chest_text(
    units: str = "3,3:0:swordsman:1;3,5:1:archer:1",
    hands: str = "swordsman/-",
    turn: str = "0",
    control: str = "4,0:0;6,1:0;0,5:1;2,6:1",
    supply: str = "-/-",
    bags: str = "royal/royal",
) -> str:
    return (
        f"play swordsman,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout - {bags} "
        f"{hands} -/- -/- {supply} -/- {units} {control} 0 {turn} - 0"
    )


def test_the_war_chest_scenario_text_is_valid_to_start_with():
    state = WAR_CHEST.from_text(war_chest_text())
    assert "move swordsman 3,3 3,4" in {str(m) for m in state.legal_moves()}


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"units": "3,3:0:swordsman:1;3,3:1:archer:1"}, "units", "two units on hex 3,3"),
        ({"control": "4,0:0;4,0:1;6,1:0;0,5:1;2,6:1"}, "control", "two markers on location 4,0"),
        ({"hands": "knight/-"}, "hands", "Side A has a Knight coin"),
        ({"hands": "archer/-"}, "hands", "Side A has an Archer coin"),
        ({"supply": "swordsman,swordsman,swordsman,swordsman/-"}, "bags", "6 Swordsman coins"),
        ({"bags": "royal,royal/royal"}, "bags", "2 Royal coins"),
        ({"supply": "royal/-"}, "supply", "Side A has the Royal coin"),
        ({"turn": "1"}, "turn", "seat 1 is to act with an empty hand"),
        ({"units": "3,3:0:swordsman:1;3,5:1:archer:1;4,4:1:archer:1"}, "units", "2 Archer units"),
        ({"units": "3,3:0:swordsman:1;3,5:1:knight:1"}, "units", "no Knight in their army"),
        ({"units": "3,3:0:swordsman:" + HUGE}, "units", "a unit is 'x,y:seat:type:coins'"),
        ({"units": "3,3:0:swordsman:0"}, "units", "at least one coin"),
        ({"turn": HUGE}, "turn", "at most 9 digits"),
        ({"turn": "\u0661"}, "turn", "not a whole number"),
        ({"control": "3,3:0"}, "control", "on a location"),
        ({"control": "4,0:0;6,1:0;2,1:0;3,2:0;5,3:0;1,3:0;0,5:1;2,6:1;3,4:1;4,5:1;3,3:1"}, "control", "3,3"),
    ],
)
def test_war_chest_holes_in_the_text_are_refused_naming_the_field(change, field, words):
    refused(WAR_CHEST, war_chest_text(**change), field, words)


def test_war_chest_two_units_on_a_hex_no_longer_lose_one_in_a_move():
    """Issue #14: two units on one hex were accepted, and a move then deleted one."""
    text = war_chest_text(units="3,3:0:swordsman:1;3,3:1:archer:1")
    with pytest.raises(PositionTextError, match="a hex holds one unit"):
        WAR_CHEST.from_text(text)


def test_war_chest_markers_and_phases_follow_the_rules():
    won = WAR_CHEST.from_text(war_chest_text(control="4,0:0;6,1:0;2,1:0;3,2:0;5,3:0;1,3:0;0,5:1;2,6:1"))
    assert won.is_terminal() and won.outcome().winner == 0
    draw = war_chest_text().replace("play ", "draw ", 1)
    refused(WAR_CHEST, draw, "hands", "have not drawn yet")
    refused(
        WAR_CHEST,
        draw.replace("royal/royal swordsman/-", "-/royal -/-"),
        "turn",
        "seat 0 draws but has no coin",
    )
    refused(
        WAR_CHEST,
        war_chest_text().replace(" 0 0 - 0", " 0 0 guard:0:3,3 0"),
        "pending",
        "an attacked Royal Guard",
    )
    refused(WAR_CHEST_CAPPED, war_chest_text().replace(" - 0", " - 151"), "ply", "past the cap of 150")
    refused(
        WAR_CHEST,
        war_chest_text().replace("play swordsman,pikeman", "play swordsman,archer"),
        "armies",
        "archer appears twice",
    )


def test_war_chest_follow_ups_in_the_order_play_leaves_them():
    """A Warrior Priest attacks a Royal Guard whose owner has a Royal Guard coin in supply
    (NOTES: Royal Guard, Warrior Priest): the guard's choice first, then the Priest's draw.
    That stack round-trips; the same follow-ups in the other order cannot arise."""
    from rules_kernel.games.war_chest import compose

    armies = "warrior-priest,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,royal-guard"
    state = compose(
        WAR_CHEST,
        "3,3:0:warrior-priest:1;3,4:1:royal-guard:1",
        ("warrior-priest", "-"),
        armies=armies,
        supply=("-", "royal-guard"),
    ).apply("attack warrior-priest 3,3 3,4")
    text = state.to_text()
    assert "priest-draw:0:-|guard:1:3,4" in text and WAR_CHEST.from_text(text) == state
    refused(
        WAR_CHEST,
        text.replace("priest-draw:0:-|guard:1:3,4", "guard:1:3,4|priest-draw:0:-"),
        "pending",
        "happens at once",
    )
    refused(WAR_CHEST, text.replace("guard:1:3,4", "guard:1:3,3"), "pending", "an attacked Royal Guard")


def test_a_views_hidden_card_or_coin_cannot_be_played():
    """Issue #14: acting on a view either works or raises a RulesError subclass. The opponent's
    hidden hand (`?`) offers moves in the view, but playing one is HiddenInformationError
    (before, a `?` card went onto the field and a later fight crashed with KeyError)."""
    states, _ = random_game(TO_WAR_STRATEGIC, 2)
    state = next(s for s in states if s.setup_done and s.current_player == 1 and s.active is None)
    view = state.view(0)
    assert set(view.hands[1]) == {"?"}
    with pytest.raises(HiddenInformationError, match="hidden in this view"):
        view.apply(view.legal_moves()[0])
    assert view.determinize(random.Random(1)).apply(view.determinize(random.Random(1)).legal_moves()[0])
    states, _ = random_game(WAR_CHEST, 2, cap=80)
    state = next(s for s in states if s.phase == "play" and s.current_player == 1 and not s.pending)
    with pytest.raises(HiddenInformationError, match="'pass \\?'|pass \\?"):
        state.view(0).apply("pass ?")
