"""To War!: the rulebook's examples and rules (rules/to-war.de.txt), the rulings of
rules/NOTES.md, the unit table, and properties over thousands of random games."""

from __future__ import annotations

import json
import random
from collections import Counter

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.games.to_war import SQUARES, ToWarState, load_units

GAME = rk.load_game("to-war")  # Southern (player 0) against Northern (player 1)


def position(
    units: dict[str, str],
    *,
    hand: tuple[str, ...] = (),
    side: int = 0,
    reserves: tuple[tuple[int, ...], ...] | None = None,
    game=GAME,
) -> ToWarState:
    """A position in play: units like {"b1": "0:SAR", "b3": "1:BOG"}."""
    grid = [None] * 12
    for square, unit in units.items():
        owner, code = unit.split(":")
        grid[SQUARES[square]] = (int(owner), code)
    hands = (hand, ()) if side == 0 else ((), hand)
    if reserves is None:
        reserves = tuple(tuple(1 if i == 0 else 0 for i, _ in enumerate(game.army_codes(p))) for p in (0, 1))
    return ToWarState(game, tuple(grid), reserves, hands, side=side, placed=(6, 6))


def unit_at(state, square):
    return state.grid[SQUARES[square]]


def test_seventeen_cards_per_army():
    """ "KARTENÜBERSICHT": Ritter 3, Feldweibel 3, ... — 17 cards in every army."""
    for army in ("western", "northern", "far-eastern", "southern"):
        game = rk.load_game("to-war", armies=[army, "southern" if army == "northern" else "northern"])
        assert sum(game.initial_state().reserves[0]) == 17
    counts = {u.name: u.count for u in GAME.units.values()}
    assert counts["Mamluk"] == 6 and counts["Sarbaz"] == 2 and counts["Bogenschütze"] == 4


def test_the_rulebooks_push_chain_example():
    """ "Der Beduine (1) wird auf die Position des Sarbaz (2) gelegt und verdrängt diesen. Der
    Sarbaz (2) verdrängt anschließend den Saqāliba (3) vor sich. Der Saqāliba (1) bewegt sich
    auf den gegnerischen Bogenschützen (2) und greift diesen an.\""""
    s = position(
        {"a1": "0:MAM", "b1": "0:SAR", "c1": "0:MAM", "b2": "0:SAQ", "b3": "1:BOG", "b4": "1:KRI"},
        hand=("BED",),
    )
    s = s.apply("BED@b1")
    assert s.active == SQUARES["b1"] and unit_at(s, "b1") == (0, "SAR")  # the Sarbaz must step
    s = s.apply("b1b2")
    assert s.active == SQUARES["b2"] and unit_at(s, "b1") == (0, "BED")
    s = s.apply("b2b3")  # the Saqāliba attacks: 3 against the Bogenschütze's 2
    assert unit_at(s, "b3") == (0, "SAQ") and unit_at(s, "b2") == (0, "SAR")
    assert s.discards[1] == ("BOG",) and s.current_player == 1 or s.current_player == rk.CHANCE


def test_a_side_attack_gets_two_more():
    """ "Der Beduine (gelb) greift den Berserker (blau) von der Seite an und gewinnt, da seine
    Angriffsstärke um 2 auf insgesamt 6 erhöht wird"; from the front, 4 loses to 5."""
    side = position({"a1": "0:BED", "b1": "1:BER", "a4": "1:KRI"}, hand=("MAM",))
    s = side.play("MAM@a1", "a1b1")
    assert unit_at(s, "b1") == (0, "BED") and s.discards[1] == ("BER",)
    front = position({"a1": "0:BED", "a2": "1:BER", "a4": "1:KRI"}, hand=("MAM",))
    s = front.play("MAM@a1", "a1a2")
    assert unit_at(s, "a2") == (1, "BER") and s.discards[0] == ("BED",)


def test_equal_strength_removes_both():
    """ "Die Angriffsstärke und die Verteidigungsstärke sind gleich: Rückzug beider Einheiten"."""
    s = position({"a1": "0:SAQ", "a2": "1:KRI", "c4": "1:KRI"}, hand=("MAM",)).play("MAM@a1", "a1a2")
    assert unit_at(s, "a2") is None and Counter(s.discards[0] + s.discards[1]) == {"SAQ": 1, "KRI": 1}


def test_two_step_units_go_on_after_a_free_square_but_stop_after_a_fight():
    """ "Der Strich unter dem Pfeil zeigt an, dass die Einheit einen zweiten Schritt machen darf,
    wenn der erste Schritt auf einem freien Platz endet ... oder gar nicht"; "Nach dem Kampf
    endet dein Zug"."""
    s = position({"b1": "0:BED", "c4": "1:KRI"}, hand=("MAM",)).play("MAM@b1", "b1b2")
    assert s.active == SQUARES["b2"] and not s.must_step
    assert {str(m) for m in s.legal_moves()} == {"stop", "b2b3", "b2a2", "b2c2"}
    assert s.apply("stop").current_player != 0
    fight = position({"b1": "0:BED", "b2": "1:BOG", "c4": "1:KRI"}, hand=("MAM",)).play("MAM@b1", "b1b2")
    assert fight.active is None and unit_at(fight, "b2") == (0, "BED")


def test_no_card_enters_a_square_twice_in_a_turn():
    """ "Keine Karte darf ein Feld betreten, auf dem sie in diesem Zug bereits war"."""
    s = position({"a1": "0:BED", "c4": "1:KRI"}, hand=("MAM",)).play("MAM@a1", "a1b1")
    assert s.active == SQUARES["b1"]
    assert {str(m) for m in s.legal_moves()} == {"stop", "b1b2", "b1c1"}  # not back to a1


def test_breakthrough_wins_at_once():
    """ "Führt die Bewegung deiner Einheit ... über die Grenze des Feldes hinaus (Durchbruch ins
    gegnerische Lager), so gewinnst du das Spiel"."""
    s = position({"b1": "0:MAM", "b2": "0:MAM", "b3": "0:MAM", "b4": "0:SAQ", "a4": "1:KRI"}, hand=("MAM",))
    s = s.play("MAM@b1", "b1b2", "b2b3", "b3b4", "b4b5")
    assert s.is_terminal() and s.outcome().winner == 0 and "breakthrough" in s.outcome().reason


def test_no_step_off_the_sides_or_backwards():
    """Units move "vorwärts oder seitwärts"; "Einheiten dürfen das ... Feld ... nicht verlassen"
    except by the breakthrough."""
    s = position({"a1": "0:SAR", "a2": "1:BER", "c4": "1:KRI"}, hand=("MAM",)).apply("MAM@a1")
    assert {str(m) for m in s.legal_moves()} == {"a1a2", "a1b1"}


def test_placement_rules_and_the_discard_ruling():
    """The card goes on "einen der drei Plätze in deiner unteren Reihe"; rulings: never on an
    enemy unit; with no legal placement the card is discarded and the turn passes."""
    s = position({"a1": "1:KRI", "b1": "0:MAM", "c4": "1:KRI"}, hand=("SAQ",))
    assert {str(m) for m in s.legal_moves()} == {"SAQ@b1", "SAQ@c1"}
    blocked = position({"a1": "1:KRI", "b1": "1:KRI", "c1": "1:KRI"}, hand=("SAQ",))
    assert [str(m) for m in blocked.legal_moves()] == ["discard:SAQ"]
    after = blocked.apply("discard:SAQ")
    assert after.discards[0] == ("SAQ",) and after.side == 1


def test_set_up_first_cards_in_the_middle_then_free_in_the_own_half():
    """ "Beginnst du, dann lege die oberste Karte ... in die Tischmitte. Anschließend legt die
    Gegenseite ihre oberste Karte gegenüber an ... innerhalb eurer Hälfte"."""
    s = GAME.initial_state()
    assert s.current_player == rk.CHANCE
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1)
    s = s.apply("draw:MAM")
    assert [str(m) for m in s.legal_moves()] == ["MAM@b2"]
    s = s.play("MAM@b2", "draw:BER")
    assert [str(m) for m in s.legal_moves()] == ["BER@b3"]
    s = s.play("BER@b3", "draw:SAQ")
    assert {str(m)[4:] for m in s.legal_moves()} == {"a1", "b1", "c1", "a2", "c2"}


def test_the_end_by_spent_reserves_and_its_tie_breaks():
    """ "Beide Reserven sind aufgebraucht ... Wer mehr Einheiten auf dem Feld hat ... gewinnt.
    Herrscht Gleichstand, gewinnt, wer mehr Elite-Einheiten (👑) ... ebenfalls gleich, so endet
    das Spiel mit einem Gleichstand"."""
    empty = ((0,) * 4, (0,) * 5)
    more = position({"a1": "0:MAM", "b1": "0:MAM", "a4": "1:KRI"}, reserves=empty)
    assert more.outcome().winner == 0 and "2 to 1 units" in more.outcome().reason
    elite = position({"a1": "0:SAQ", "a4": "1:BER"}, reserves=empty)  # the Berserker is elite
    assert elite.outcome().winner == 1 and "elite" in elite.outcome().reason
    draw = position({"a1": "0:SAQ", "a4": "1:KRI"}, reserves=empty)
    assert draw.outcome().is_draw


def test_strategic_variant_keeps_a_hand_of_three_hidden_from_the_opponent():
    """ "VARIANTE FÜR MEHR STRATEGIE": three cards in hand, drawn back to three each turn."""
    game = rk.load_game("to-war", strategic=True)
    state = game.initial_state()
    rng = random.Random(1)
    while not state.setup_done or state.current_player == rk.CHANCE:
        state = state.apply(
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
    assert len(state.hands[state.side]) == 3
    assert state.view(1 - state.side).hands[state.side] == ("?", "?", "?")
    assert "?" not in state.view(state.side).hands[state.side]


# --- the unit table ----------------------------------------------------------------------------


def test_the_provisional_table_agrees_with_the_rulebook_examples():
    units = GAME.units
    assert units["BED"].attack == 4 and units["BED"].sideways  # attacks from the side with 4 + 2
    assert units["BER"].defence == 5  # 6 beats it, 4 does not
    assert units["SAR"].sideways is not None


def test_a_user_table_from_csv_json_or_dataframe(tmp_path):
    rows = load_units()
    rows[0] = dict(rows[0], attack=9)
    frame = pd.DataFrame(rows)
    assert rk.load_game("to-war", units=frame).units["RIT"].attack == 9
    path = tmp_path / "units.json"
    path.write_text(json.dumps(rows))
    assert rk.load_game("to-war", units=str(path)).units["RIT"].attack == 9
    csv_path = tmp_path / "units.csv"
    frame.to_csv(csv_path, index=False)
    game = rk.load_game("to-war", units=str(csv_path))
    assert game.units["RIT"].attack == 9
    record = records.Record.from_actions(game, ["draw:MAM"])
    assert records.Record.from_json(record.to_json()).load_game().units["RIT"].attack == 9


@pytest.mark.parametrize(
    "change, message",
    [
        ({"attack": "strong"}, "row 1, column 'attack': 'strong' is not a whole number"),
        ({"steps": 3}, "row 1, column 'steps': 3 is outside 1..2"),
        ({"army": "eastern"}, "row 1, column 'army': 'eastern' is not one of"),
        ({"sideways": "maybe"}, "row 1, column 'sideways'"),
        ({"count": 4}, "the western army has 18 cards"),
        ({"count": 0}, "row 1, column 'count': 0 is outside 1..17"),  # no non-positive counts
        ({"count": -3}, "row 1, column 'count': -3 is outside 1..17"),
        ({"count": "-3"}, "row 1, column 'count': -3 is outside 1..17"),
        ({"steps": 0}, "row 1, column 'steps': 0 is outside 1..2"),
        ({"attack": -1}, "row 1, column 'attack': -1 is outside 0..20"),
        ({"defence": 10**5000}, "row 1, column 'defence': a huge number is outside 0..20"),
        ({"defence": "9" * 5000}, "row 1, column 'defence': '99999999999999999999' is not a whole number"),
        ({"attack": "²"}, "row 1, column 'attack': '²' is not a whole number"),
        ({"count": True}, "row 1, column 'count': 'True' is not a whole number"),
    ],
)
def test_a_bad_table_says_where(change, message):
    rows = load_units()
    rows[0] = dict(rows[0], **change)
    with pytest.raises(rk.OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rk.load_game("to-war", units=rows)
    with pytest.raises(rk.OptionError, match="missing column 'elite'"):
        rk.load_game("to-war", units=[{k: v for k, v in load_units()[0].items() if k != "elite"}])
    with pytest.raises(rk.OptionError, match="armies"):
        rk.load_game("to-war", armies=["southern"])


# --- properties --------------------------------------------------------------------------------


def conserved(state) -> bool:
    """Reserve + hand + grid + discard = 17 per army, card by card."""
    for p in (0, 1):
        codes = state.game.army_codes(p)
        total = Counter(dict(zip(codes, state.reserves[p], strict=True)))
        total += Counter(state.hands[p]) + Counter(state.discards[p])
        total += Counter(u[1] for u in state.grid if u and u[0] == p)
        for unit in (state.entering, state.breakthrough):
            if unit is not None and unit[0] == p:
                total += Counter([unit[1]])
        if total != Counter({c: state.game.units[c].count for c in codes}):
            return False
    return True


@pytest.mark.slow
def test_thousands_of_random_games_end_and_conserve_the_cards():
    armies = ["western", "northern", "far-eastern", "southern"]
    for seed in range(2000):
        first = seed % 4
        game = rk.load_game(
            "to-war",
            armies=[armies[first], armies[(first + 1 + (seed // 4) % 3) % 4]],
            strategic=seed % 5 == 0,
        )
        states, _ = random_game(game, seed)
        assert states[-1].is_terminal() and len(states) < 400
        if seed % 20 == 0:
            assert all(conserved(s) for s in states)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), strategic=st.booleans())
def test_records_round_trip_and_views_hide_hands(seed, strategic):
    game = rk.load_game("to-war", strategic=strategic)
    states, actions = random_game(game, seed)
    record = records.Record.from_json(records.Record.from_actions(game, actions).to_json())
    assert record.replay() == states
    for state in states[::7]:
        for player in (0, 1):
            view = state.view(player)
            other = 1 - player
            if strategic:
                assert set(view.hands[other]) <= {"?"}
                # hand + reserve together is all the opponent can know
                assert sum(view.reserves[other]) == sum(state.reserves[other]) + len(state.hands[other])
            else:
                assert view.reserves == state.reserves  # counts only: the order is never stored
            assert view.hands[player] == state.hands[player]
            if state.current_player == player:
                assert set(map(str, view.legal_moves())) == set(map(str, state.legal_moves()))


# --- the rulings of NOTES.md (issue #14), on positions given as text --------------------------


def position_text(
    units: dict[str, str],
    *,
    left: tuple[dict[str, int], dict[str, int]] = ({}, {}),
    hands: tuple[str, str] = ("-", "-"),
    side: str = "w",
    game=GAME,
) -> str:
    """A position after the set-up as text: `left` is each reserve; every other card of the army
    that is not on the field or in the hand is in the discard pile (17 cards an army)."""
    grid = ["-"] * 12
    for square, unit in units.items():
        grid[SQUARES[square]] = unit
    reserves, discards = [], []
    for p in (0, 1):
        rest = Counter({code: game.units[code].count for code in game.army_codes(p)})
        rest -= Counter(u.split(":")[1] for u in units.values() if u.startswith(f"{p}:"))
        rest -= Counter([] if hands[p] == "-" else hands[p].split(",")) + Counter(left[p])
        reserves.append(",".join(f"{c}={left[p].get(c, 0)}" for c in game.army_codes(p)))
        discards.append(",".join(sorted(rest.elements())) or "-")
    return f"{'.'.join(grid)} {'/'.join(reserves)} {'/'.join(hands)} {'/'.join(discards)} {side} 6,6 - - 0"


def test_ruling_the_elite_units_are_the_crowned_names_of_the_card_overview():
    """NOTES To War!: "exactly the names that carried one keep a trailing space in the text:
    Ritter, Feldweibel (Western); Berserker, König (Northern); Hatamoto, Gokenin (Far-Eastern);
    Mamluk, Beduine (Southern). Ruling: these eight are the elite units of the default table"."""
    elite = {u.name for u in GAME.units.values() if u.elite}
    assert elite == {"Ritter", "Feldweibel", "Berserker", "König", "Hatamoto", "Gokenin", "Mamluk", "Beduine"}
    assert not GAME.units["SAR"].elite


@pytest.mark.parametrize(
    "southern, northern, winner",
    [
        ("MAM", "KRI", 0),  # a crowned Mamluk against an uncrowned Krieger
        ("BED", "KRI", 0),
        ("SAR", "KRI", None),  # the Sarbaz carries no crown: a draw
        ("MAM", "BER", None),  # crown against crown
        ("SAQ", "KOE", 1),
    ],
)
def test_ruling_elite_units_break_a_tie_at_the_end(southern, northern, winner):
    """ "Herrscht Gleichstand, gewinnt, wer mehr Elite-Einheiten (👑) auf dem Feld hat"; with
    NOTES' elite units (Mamluk and Beduine for the Southern army, not Sarbaz)."""
    state = GAME.from_text(position_text({"b1": f"0:{southern}", "b4": f"1:{northern}"}))
    outcome = state.outcome()
    assert state.is_terminal() and outcome.winner == winner
    assert ("elite" in outcome.reason) if winner is not None else outcome.is_draw


def test_ruling_the_same_army_twice_is_refused():
    """NOTES To War!: "Both players may not pick the same army (the box holds one deck per army)"."""
    with pytest.raises(rk.OptionError, match="the two armies must differ"):
        rk.load_game("to-war", armies=["northern", "northern"])
    assert rk.load_game("to-war", armies=("northern", "western")).options["armies"] == ["northern", "western"]


def test_ruling_the_strategic_game_ends_when_the_hands_are_played_out():
    """NOTES To War!: "Strategic variant (option): a hand of three, draw back to three after each
    turn; the game ends when both reserves AND both hands are empty (the hands are played out)"."""
    game = rk.load_game("to-war", strategic=True)
    state = game.from_text(
        position_text(
            {"a1": "0:MAM", "b2": "0:SAQ", "b3": "1:KRI", "c4": "1:BOG"},
            hands=("BED,MAM", "BER,KRI"),
            game=game,
        )
    )
    rng = random.Random(4)
    turns = 0
    while not state.is_terminal():
        assert any(state.hands) or state.active is not None  # cards left to play: not over
        state = state.apply(rng.choice(state.legal_moves()))
        turns += state.active is None
    assert state.hands == ((), ()) and turns >= 4 and "both reserves spent" in state.outcome().reason


def test_ruling_no_card_is_placed_on_an_enemy_unit_else_it_is_discarded():
    """NOTES To War!: "A card may not be placed on a square of one's own back rank that holds an
    ENEMY unit (a push moves one's own units only); if no placement is legal, the drawn card is
    discarded and the turn passes"."""
    left = ({"BED": 3}, {"BOG": 4})
    state = GAME.from_text(
        position_text({"a1": "1:KRI", "b1": "0:MAM", "c4": "1:KRI"}, left=left, hands=("SAQ", "-"))
    )
    assert {str(m) for m in state.legal_moves()} == {"SAQ@b1", "SAQ@c1"}  # a1 holds an enemy
    blocked = GAME.from_text(
        position_text(
            {"a1": "1:KRI", "b1": "1:KRI", "c1": "1:REI"}, left=({"BED": 3}, {"BOG": 4}), hands=("SAQ", "-")
        )
    )
    assert [str(m) for m in blocked.legal_moves()] == ["discard:SAQ"]
    after = blocked.apply("discard:SAQ")
    assert after.discards[0].count("SAQ") == 4 and after.side == 1 and after.current_player == rk.CHANCE


# --- the move list in words (issue #22 item 3) -------------------------------------------------

#: a basic game from the set-up to a breakthrough: each action and its words, the same for
#: everyone (in the basic game the drawn card is played at once, in the open). The set-up:
#: "Beginnst du, dann lege die oberste Karte deiner Reserve offen in die Tischmitte.
#: Anschließend legt die Gegenseite ihre oberste Karte gegenüber an" ... "bis ihr je 6 Karten
#: ausliegen habt". In play: "decke die oberste Karte deiner Reserve auf und lege sie auf einen
#: der drei Plätze in deiner unteren Reihe. Wenn sich dort bereits eine Einheit befindet, wird
#: diese von der neuen Karte verdrängt. Bewege die verdrängte Einheit dann einen Schritt ...
#: Dadurch verdrängt sie ggf. eine weitere Einheit, usw." (the push chain); "DER KAMPF":
#: "vergleichst du deine Angriffsstärke mit der Verteidigungsstärke der gegnerischen Einheit.
#: Greifst du seitwärts an ... um +2": greater — "Die verteidigende Einheit verliert: Legt sie
#: auf den Ablagestapel. Die angreifende Einheit nimmt ihre Position ein"; smaller — "Die
#: angreifende Einheit verliert ... Die verteidigende Einheit bleibt auf ihrem Platz"; equal —
#: "Rückzug beider Einheiten: Legt beide Einheiten vom Feld auf den Ablagestapel; dadurch wird
#: ein Platz auf dem Feld frei". A unit with the bar under its arrow "darf einen zweiten Schritt
#: machen, wenn der erste Schritt auf einem freien Platz endet"; "Führt die Bewegung deiner
#: Einheit auf der gegnerischen Seite über die Grenze des Feldes hinaus (Durchbruch ins
#: gegnerische Lager), so gewinnst du das Spiel". Unit values: the provisional table
#: (Beduine 4/3, two steps, sideways; Berserker 6/5; Bogenschütze 2/2; Saqāliba 3/3; ...).
BASIC_GAME_WORDS = [
    ("draw:BED", "draws Beduine"),
    ("BED@b2", "places Beduine on b2"),
    ("draw:BOG", "draws Bogenschütze"),
    ("BOG@b3", "places Bogenschütze on b3"),
    ("draw:SAR", "draws Sarbaz"),
    ("SAR@b1", "places Sarbaz on b1"),
    ("draw:BER", "draws Berserker"),
    ("BER@c3", "places Berserker on c3"),
    ("draw:MAM", "draws Mamluk"),
    ("MAM@a1", "places Mamluk on a1"),
    ("draw:KRI", "draws Krieger"),
    ("KRI@b4", "places Krieger on b4"),
    ("draw:MAM", "draws Mamluk"),
    ("MAM@c1", "places Mamluk on c1"),
    ("draw:KRI", "draws Krieger"),
    ("KRI@a3", "places Krieger on a3"),
    ("draw:SAQ", "draws Saqāliba"),
    ("SAQ@a2", "places Saqāliba on a2"),
    ("draw:KRI", "draws Krieger"),
    ("KRI@a4", "places Krieger on a4"),
    ("draw:SAQ", "draws Saqāliba"),
    ("SAQ@c2", "places Saqāliba on c2"),
    ("draw:REI", "draws Reiter"),
    ("REI@c4", "places Reiter on c4"),
    # the set-up is done; the rulebook's chain: the new card pushes the Sarbaz, which pushes
    # the unit in front of it, which attacks the Bogenschütze
    ("draw:SAQ", "draws Saqāliba"),
    ("SAQ@b1", "places Saqāliba on b1, displacing Sarbaz"),
    ("b1b2", "pushes Sarbaz from b1 to b2, displacing Beduine"),
    (
        "b2b3",
        "pushes Beduine from b2 to b3, attacking Bogenschütze: attack 4 > defence 2, "
        "Bogenschütze discarded, Beduine takes b3",
    ),
    ("draw:KRI", "draws Krieger"),
    ("KRI@a4", "places Krieger on a4, displacing Krieger"),
    ("a4a3", "pushes Krieger from a4 to a3, displacing Krieger"),
    (
        "a3a2",
        "pushes Krieger from a3 to a2, attacking Saqāliba: attack 3 = defence 3, "
        "both retreat to the discard pile, a2 is free",
    ),
    ("draw:MAM", "draws Mamluk"),
    ("MAM@b1", "places Mamluk on b1, displacing Saqāliba"),
    ("b1b2", "pushes Saqāliba from b1 to b2, displacing Sarbaz"),
    ("b2b3", "pushes Sarbaz from b2 to b3, displacing Beduine"),
    (  # the rulebook's second example: "Der Beduine (gelb) greift den Berserker (blau) von der Seite an"
        "b3c3",
        "pushes Beduine from b3 to c3, attacking Berserker from the side: attack 4 + 2 = 6 > defence 5, "
        "Berserker discarded, Beduine takes c3",
    ),
    ("draw:BER", "draws Berserker"),
    ("BER@c4", "places Berserker on c4, displacing Reiter"),
    ("c4b4", "pushes Reiter from c4 to b4, displacing Krieger"),
    (
        "b4b3",
        "pushes Krieger from b4 to b3, attacking Sarbaz: attack 3 < defence 4, "
        "Krieger discarded, Sarbaz holds b3",
    ),
    ("draw:MAM", "draws Mamluk"),
    ("MAM@b1", "places Mamluk on b1, displacing Mamluk"),
    ("b1b2", "pushes Mamluk from b1 to b2, displacing Saqāliba"),
    ("b2b3", "pushes Saqāliba from b2 to b3, displacing Sarbaz"),
    ("b3c3", "pushes Sarbaz from b3 to c3, displacing Beduine"),
    ("c3b3", "pushes Beduine from c3 to b3, displacing Saqāliba"),
    (
        "b3b4",
        "pushes Saqāliba from b3 to b4, attacking Reiter: attack 3 = defence 3, "
        "both retreat to the discard pile, b4 is free",
    ),
    ("draw:KOE", "draws König"),
    ("KOE@a4", "places König on a4, displacing Krieger"),
    ("a4a3", "pushes Krieger from a4 to a3, displacing Krieger"),
    ("a3a2", "pushes Krieger from a3 to a2"),
    ("draw:BED", "draws Beduine"),
    ("BED@b1", "places Beduine on b1, displacing Mamluk"),
    ("b1b2", "pushes Mamluk from b1 to b2, displacing Mamluk"),
    ("b2b3", "pushes Mamluk from b2 to b3, displacing Beduine"),
    ("b3b4", "pushes Beduine from b3 to b4; it may step once more"),  # onto a free square
    ("b4b5", "Beduine b4 breaks through into the camp of the Nordische Armee: the game is won"),
]


def test_a_basic_game_in_words():
    state = GAME.initial_state()
    for notation, words in BASIC_GAME_WORDS:
        action = (
            state.parse_chance(notation) if state.current_player == rk.CHANCE else state.parse_move(notation)
        )
        assert str(action) == notation  # the notation stays: records use it
        assert [state.action_text(action, viewer) for viewer in (None, 0, 1)] == [words] * 3, notation
        assert state.action_text(notation) == words  # the notation is read as the action
        state = state.apply(action)
    assert state.outcome().winner == 0 and state.breakthrough == (0, "BED")


#: the end of a strategic game (a seeded random one), from the Nordische Armee's draw to the last
#: card: "zieht nach der Aufstellung der Armeen je drei Karten von eurer Reserve. In eurem Zug
#: wählt ihr eine davon ... Zieht am Ende eures Zuges wieder eine Karte nach". A hand is
#: secret, so the opponent learns only that a card was drawn; a card played is face up. The
#: end: "Beide Reserven sind aufgebraucht ... Herrscht Gleichstand, gewinnt, wer mehr
#: Elite-Einheiten (👑) auf dem Feld hat" (NOTES: the hands are played out first). A unit with a
#: second step may also not take it: "Der zweite Schritt kann ... gar nicht erfolgen".
STRATEGIC_START = (
    "-.0:SAQ.0:MAM.1:BER.0:BED.0:BED.1:KRI.0:SAQ.0:SAR.1:REI.0:MAM.1:KOE "
    "MAM=0,BED=0,SAQ=1,SAR=0/BER=0,KOE=1,REI=0,KRI=0,BOG=1 MAM,SAQ/KOE,KRI "
    "BED,BED,BED,MAM,MAM,MAM,SAR/BER,BER,BOG,BOG,BOG,KRI,KRI,REI,REI b 6,6 - - 65"
)
STRATEGIC_GAME_WORDS = [
    ("draw:KOE", "draws König"),
    ("KOE@c4", "places König on c4, displacing König"),
    (
        "c4c3",
        "pushes König from c4 to c3, attacking Sarbaz: attack 4 = defence 4, "
        "both retreat to the discard pile, c3 is free",
    ),
    ("draw:SAQ", "draws Saqāliba"),
    ("MAM@c1", "places Mamluk on c1, displacing Mamluk"),
    ("c1c2", "pushes Mamluk from c1 to c2, displacing Beduine"),
    ("c2b2", "pushes Beduine from c2 to b2, displacing Beduine"),
    ("b2c2", "pushes Beduine from b2 to c2, displacing Mamluk"),
    ("c2c3", "pushes Mamluk from c2 to c3"),
    ("draw:BOG", "draws Bogenschütze"),
    ("KOE@a4", "places König on a4, displacing Reiter"),
    (
        "a4b4",
        "pushes Reiter from a4 to b4, attacking Mamluk from the side: attack 4 + 2 = 6 > defence 4, "
        "Mamluk discarded, Reiter takes b4",
    ),
    ("SAQ@a1", "places Saqāliba on a1"),
    ("BOG@c4", "places Bogenschütze on c4, displacing König"),
    (
        "c4c3",
        "pushes König from c4 to c3, attacking Mamluk: attack 4 = defence 4, "
        "both retreat to the discard pile, c3 is free",
    ),
    ("SAQ@a1", "places Saqāliba on a1, displacing Saqāliba"),
    (
        "a1a2",
        "pushes Saqāliba from a1 to a2, attacking Berserker: attack 3 < defence 5, "
        "Saqāliba discarded, Berserker holds a2",
    ),
    ("KRI@c4", "places Krieger on c4, displacing Bogenschütze"),
    ("c4c3", "pushes Bogenschütze from c4 to c3; it may step once more"),
    (
        "stop",
        "Bogenschütze stays on c3: no second step; game over — both reserves spent: "
        "6 units each, 3 to 2 elite units; the Südliche Armee wins",
    ),
]


def test_a_strategic_game_in_words_as_each_player_learns_it():
    game = rk.load_game("to-war", strategic=True)
    state = game.from_text(STRATEGIC_START)
    # the opponent's draws go into a secret hand: in that player's view, only "draws a card"
    hidden = {"draw:KOE": 0, "draw:SAQ": 1, "draw:BOG": 0}  # the draw -> the viewer it is hidden from
    seen = {None: [], 0: [], 1: []}
    for notation, _ in STRATEGIC_GAME_WORDS:
        action = (
            state.parse_chance(notation) if state.current_player == rk.CHANCE else state.parse_move(notation)
        )
        for viewer, said in seen.items():
            said.append(state.action_text(action, viewer))
        state = state.apply(action)
    everything = [words for _, words in STRATEGIC_GAME_WORDS]
    assert seen[None] == everything
    for viewer in (0, 1):
        expected = [
            "draws a card" if hidden.get(notation) == viewer else words
            for notation, words in STRATEGIC_GAME_WORDS
        ]
        assert seen[viewer] == expected
        assert expected.count("draws a card") == list(hidden.values()).count(viewer)
    assert state.outcome().winner == 0 and state.hands == ((), ())


def test_a_second_step_and_a_discard_in_words():
    """A two-step unit's own second step reads as a move, with an en dash ("darf einen
    zweiten Schritt machen, wenn der erste Schritt auf einem freien Platz endet"); NOTES To
    War!: with no legal placement "the drawn card is discarded and the turn passes"."""
    pushed = position({"a1": "0:BED", "a4": "1:KRI"}, hand=("MAM",)).play("MAM@a1", "a1a2")
    assert pushed.action_text("a2a3") == "Beduine a2–a3"
    assert pushed.action_text("a2b2", 1) == "Beduine a2–b2"
    blocked = GAME.from_text(
        position_text(
            {"a1": "1:KRI", "b1": "1:KRI", "c1": "1:REI"}, left=({"BED": 3}, {"BOG": 4}), hands=("SAQ", "-")
        )
    )
    assert blocked.action_text("discard:SAQ", 1) == "discards Saqāliba: no square to place it on"
