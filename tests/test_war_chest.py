"""War Chest: every action and every unit, each test citing the rule it checks.

"NL" cites rules/war-chest.nl.txt; "NOTES" cites the War Chest section of rules/NOTES.md
(the published English rules and unit texts, which rule where the translation is vague).
Positions are written in the position text of `rules_kernel.games.war_chest.text`.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel import records
from rules_kernel.games.war_chest import COINS, FACE_DOWN, MAP_2P, MAP_4P, ROYAL, compose, distance, hex_label
from rules_kernel.games.war_chest.rules import deadlocked, drawer

START_2P = "4,0:0;6,1:0;0,5:1;2,6:1"
START_4P = "4,0:0;6,1:0;6,4:0;0,5:1;2,6:1;0,2:1"


def position(
    units: str = "-",
    hands: tuple[str, ...] = ("-", "-"),
    *,
    players: int = 2,
    control: str | None = None,
    **fields,
):
    """A scenario position (`war_chest.compose`); keyword options go to the game."""
    options = {k: fields.pop(k) for k in list(fields) if k in ("royal_guard", "max_actions")}
    game = rk.load_game("war-chest", players=players, **options)
    return compose(game, units, hands, control=control or (START_2P if players == 2 else START_4P), **fields)


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def unit_at(state, hex_text: str):
    x, y = map(int, hex_text.split(","))
    return state.board.get((x, y))


# --- the map ---------------------------------------------------------------------------------


def test_the_maps_have_the_hexes_and_locations_of_the_notes():
    """NOTES: 2 players: 37 hexes, 0 <= x, y <= 6, 3 <= x+y <= 9, 10 locations; 4 players:
    47 hexes, 1 <= x+y <= 11, 4 locations more."""
    assert len(MAP_2P.hexes) == 37 and len(MAP_2P.locations) == 10
    assert len(MAP_4P.hexes) == 47 and len(MAP_4P.locations) == 14
    assert distance((3, 3), (4, 4)) == 2 and distance((0, 5), (6, 1)) == 6
    assert sorted(MAP_2P.neighbours[(3, 3)]) == [(2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)]


def test_every_hex_has_its_own_name_on_both_maps():
    """Issue #22 item 3: the map names each hex (letter a..g for x, number y + 1), the same
    hex by the same name on both maps (the 4-player map adds hexes round the 2-player one);
    the scene gives each cell its name as its label."""
    for players, hexes in ((2, MAP_2P.hexes), (4, MAP_4P.hexes)):
        names = {hex_label(h) for h in hexes}
        assert len(names) == len(hexes)
        assert all(re.fullmatch(r"[a-g][1-7]", name) for name in names)
        scene = rk.load_game("war-chest", players=players).initial_state().scene()
        assert sorted(c.label for c in scene.cells) == sorted(names)
    assert [hex_label(h) for h in ((4, 0), (6, 1), (0, 5), (2, 6), (3, 3))] == ["e1", "g2", "a6", "c7", "d4"]
    assert all(hex_label(h) in {hex_label(k) for k in MAP_4P.hexes} for h in MAP_2P.hexes)


def test_set_up_two_coins_of_each_type_and_the_royal_coin_in_the_bag():
    """NL "Voorbereiding": the bag holds two coins of each of the player's units and the Royal
    coin; the other coins of the type are the supply; two control markers on the starts."""
    state = rk.load_game("war-chest", setup="first-game").initial_state()
    assert Counter(state.bags[0]) == Counter(
        {"swordsman": 2, "pikeman": 2, "crossbowman": 2, "light-cavalry": 2, ROYAL: 1}
    )
    assert Counter(state.supply[1]) == Counter({"archer": 2, "cavalry": 2, "lancer": 2, "scout": 3})
    assert state.markers_left(0) == state.markers_left(1) == 4
    assert state.current_player == rk.CHANCE  # the first draw of the round


# --- deploy and bolster -----------------------------------------------------------------------


def test_deploy_on_an_empty_location_the_player_controls():
    """NL "Plaatsingsactie": face up on an empty controlled location ("waar je al een
    bezettingsmarkering hebt en er geen andere legers zijn")."""
    state = position("6,1:0:pikeman:1", ("swordsman", "-"), control=START_2P + ";3,2:0")
    deploys = {m for m in legal(state) if m.startswith("deploy")}
    assert deploys == {"deploy swordsman 4,0", "deploy swordsman 3,2"}  # 6,1 is occupied
    after = state.apply("deploy swordsman 3,2")
    assert unit_at(after, "3,2") == (0, "swordsman", 1) and after.hands[0] == ()


def test_deploy_only_while_that_unit_is_not_on_the_board_then_bolster():
    """NOTES: deploy only if that type is not on the board; bolster onto your unit of that type."""
    state = position("3,3:0:swordsman:1", ("swordsman", "-"))
    moves = legal(state)
    assert not any(m.startswith("deploy") for m in moves)
    assert "bolster swordsman 3,3" in moves
    assert unit_at(state.apply("bolster swordsman 3,3"), "3,3") == (0, "swordsman", 2)


def test_bolster_has_no_height_limit():
    """NOTES: "bolster (onto your unit of that type; no height limit)": all five Swordsman
    coins of the box may stand in one stack."""
    state = position("3,3:0:swordsman:4", ("swordsman", "-"))
    assert unit_at(state.apply("bolster swordsman 3,3"), "3,3") == (0, "swordsman", 5)


def test_footman_may_have_two_units_on_the_board():
    """NOTES Footman: "two Footman units may be on the board"."""
    armies = "footman,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position("4,0:0:footman:1", ("footman", "-"), armies=armies)
    assert "deploy footman 6,1" in legal(state) and "bolster footman 4,0" in legal(state)
    two = position(
        "4,0:0:footman:1;6,1:0:footman:1", ("footman", "-"), armies=armies, control=START_2P + ";3,2:0"
    )
    assert not any(m.startswith("deploy") for m in legal(two))


def test_scout_deploys_next_to_any_friendly_unit():
    """NOTES Scout: "may also be deployed on an empty hex next to any friendly unit"."""
    state = position("3,3:1:archer:1;4,3:0:pikeman:1", ("-", "scout"), turn=1)
    deploys = {m for m in legal(state) if m.startswith("deploy")}
    assert "deploy scout 3,4" in deploys and "deploy scout 0,5" in deploys
    assert "deploy scout 4,3" not in deploys  # occupied
    assert "deploy scout 5,3" not in deploys  # next to the enemy pikeman only


# --- face-down actions and the Royal coin -------------------------------------------------------


def test_the_royal_coin_is_only_used_face_down():
    """NL "Koningsmunt": only discarded face down (or for the Royal Guard's command)."""
    state = position("4,0:0:swordsman:1", ("royal", "-"), supply=("pikeman", "-"), initiative="1")
    assert legal(state) == {"pass royal", "initiative royal", "recruit royal pikeman"}


def test_recruit_puts_a_supply_coin_face_up_into_the_discard():
    """NL "Rekruteren": the used coin face down, a coin of your type from the supply face up."""
    state = position("-", ("swordsman", "-"), supply=("pikeman,pikeman", "-"))
    after = state.apply("recruit swordsman pikeman")
    assert after.facedown[0] == ("swordsman",) and after.faceup[0] == ("pikeman",)
    assert after.supply[0] == ("pikeman",)


def test_pass_discards_face_down():
    """NL: "Gooi de munt weg met de achterkant naar boven ... of pas"."""
    after = position("-", ("swordsman", "archer")).apply("pass swordsman")
    assert after.facedown[0] == ("swordsman",) and after.current_player == 1


def test_the_initiative_is_claimed_at_most_once_a_round():
    """NOTES: claim initiative "not if you hold it; at most once per round"."""
    state = position("-", ("royal,swordsman", "archer,royal"), initiative="0")
    assert not any(m.startswith("initiative") for m in legal(state))  # player 0 holds it
    state = state.apply("pass swordsman")
    assert "initiative archer" in legal(state)
    state = state.apply("initiative archer")
    assert state.initiative == 1 and state.claimed
    state = state.apply("pass royal")  # player 0 may not take it back this round
    assert state.current_player == 1 and not any(m.startswith("initiative") for m in legal(state))
    state = state.apply("pass royal")
    assert state.current_player == rk.CHANCE and not state.claimed  # a new round


def test_the_initiative_holder_acts_first_in_the_next_round():
    """NL "Muntgebruik": "Beginnend bij de speler met het initiatief token"."""
    state = position(
        "-", initiative="1", phase="draw", bags=("royal,swordsman,pikeman", "royal,archer,scout")
    )
    state = state.apply("draw:pikeman,royal,swordsman").apply("draw:archer,royal,scout")
    assert state.current_player == 1


def test_players_alternate_and_an_empty_hand_is_skipped():
    """NL: "voer je om de beurt een actie uit ... totdat je geen munten meer hebt"."""
    state = position("-", ("royal,swordsman,pikeman", "archer"))
    state = state.apply("pass royal").apply("pass archer")
    assert state.current_player == 0
    state = state.apply("pass swordsman")
    assert state.current_player == 0  # player 1 has no coins left


# --- drawing -------------------------------------------------------------------------------------


def test_the_draw_is_three_coins_with_hypergeometric_odds():
    """NL "Muntstuk trekken": three coins from the bag; outcomes are chance with a notation."""
    state = position("-", phase="draw", bags=("royal,swordsman,swordsman,pikeman", "royal,archer,scout"))
    odds = dict((str(o), p) for o, p in state.chance_outcomes())
    assert sum(odds.values()) == pytest.approx(1)
    assert odds["draw:pikeman,royal,swordsman"] == pytest.approx(2 / 4)
    assert odds["draw:pikeman,swordsman,swordsman"] == pytest.approx(1 / 4)
    after = state.apply("draw:pikeman,swordsman,swordsman")
    assert after.hands[0] == ("pikeman", "swordsman", "swordsman") and after.bags[0] == (ROYAL,)


def test_an_empty_bag_is_refilled_from_the_whole_discard_pile():
    """NOTES: "empty bag: the whole discard pile, both faces, goes back in and is shuffled";
    the coins still in the bag are drawn first."""
    state = position(
        "-",
        phase="draw",
        bags=("royal", "royal,archer,scout"),
        faceup=("pikeman,pikeman", "-"),
        facedown=("swordsman", "-"),
    )
    outcomes = [str(o) for o, _ in state.chance_outcomes()]
    assert all("royal" in o for o in outcomes)  # the bag's own coin comes first
    after = state.apply("draw:pikeman,royal,swordsman")
    assert after.bags[0] == ("pikeman",) and after.faceup[0] == () and after.facedown[0] == ()


def test_with_fewer_coins_a_player_draws_what_there_is():
    """NOTES: "with fewer coins, draw what there is"."""
    state = position(
        "3,3:0:swordsman:4", phase="draw", bags=("royal", "royal,archer,scout"), faceup=("pikeman", "-")
    )
    assert [str(o) for o, _ in state.chance_outcomes()] == ["draw:pikeman,royal"]


def test_a_sampled_draw_comes_as_often_as_the_listed_odds_say():
    """NL "Muntstuk trekken" with the NOTES refill: `sample_chance` draws without listing the
    draws (the tree search draws thousands of times a second), so it is checked against the
    listed odds: every sampled draw is listed, and over 6000 draws each comes within 0.025 of
    its probability (about 4 standard deviations at the largest, 1/2)."""
    full = position("-", phase="draw", bags=("royal,swordsman,swordsman,pikeman,pikeman", "royal,archer"))
    refill = position(
        "-",
        phase="draw",
        bags=("royal", "royal,archer,scout"),
        faceup=("pikeman,pikeman,swordsman", "-"),
        facedown=("swordsman,crossbowman", "-"),
    )
    for state in (full, refill):
        odds = {str(o): p for o, p in state.chance_outcomes()}
        rng = random.Random(7)
        seen = Counter(str(state.sample_chance(rng)) for _ in range(6000))
        assert set(seen) <= set(odds)
        for draw, p in odds.items():
            assert seen[draw] / 6000 == pytest.approx(p, abs=0.025), draw


@given(
    royal_in_bag=st.booleans(),
    bag=st.lists(st.sampled_from(["swordsman", "pikeman"]), max_size=4),
    discard=st.lists(st.sampled_from(["swordsman", "pikeman", "crossbowman"]), min_size=1, max_size=4),
)
@settings(max_examples=60, deadline=None)
def test_a_draw_is_accepted_exactly_when_it_is_one_of_the_listed_draws(royal_in_bag, bag, discard):
    """A draw's notation is checked by counting coins (bag first, then the discard pile:
    NOTES), not by listing the draws; it must accept exactly the draws `chance_outcomes`
    lists. Tried: every multiset of 0 to 4 of five coin names, in order and reversed."""
    assume(all(n <= COINS[coin] for coin, n in Counter(bag + discard).items()))  # the box's coins
    bag, discard = bag + ["royal"] * royal_in_bag, discard + ["royal"] * (not royal_in_bag)
    state = position(
        "-", phase="draw", bags=(",".join(sorted(bag)) or "-", "archer"), faceup=(",".join(discard), "-")
    )
    listed = {str(o) for o, _ in state.chance_outcomes()}
    names = ["crossbowman", "pikeman", "royal", "scout", "swordsman"]
    tried = [list(d) for n in range(5) for d in itertools.combinations_with_replacement(names, n)]
    for drawn in tried + [d[::-1] for d in tried if d != d[::-1]]:
        text = "draw:" + ",".join(drawn)
        if text in listed:
            assert state.apply(text).hands[0] == tuple(drawn)
        else:
            with pytest.raises(rk.IllegalMoveError, match="not a possible draw"):
                state.apply(text)


def test_the_heuristic_counts_markers_then_heights_and_closeness():
    """The agents' heuristic (`WarChest.heuristic`, docs/games/war-chest.md) on positions of
    random 2- and 4-player games, against its formula written out: control markers placed,
    then each unit's height / 180 and (6 - steps to the nearest location its side does not
    control) / 120, for the side and against the other."""
    for players in (2, 4):
        game = rk.load_game("war-chest", players=players)
        states, _ = random_game(game, seed=players, cap=600)
        for state in states[::25]:
            for player in range(players):
                side = game.team(player)
                expected = (state.markers_left(1 - side) - state.markers_left(side)) / game.map.markers
                for h, owner, _, height in state.units:
                    team = game.team(owner)
                    targets = [loc for loc in game.map.locations if state.controller.get(loc) != team]
                    near = min(min((distance(h, loc) for loc in targets), default=0), 6)
                    expected += (1 if team == side else -1) * (height / 180 + (6 - near) / 120)
                assert game_parts.heuristic(state, player) == pytest.approx(expected, abs=1e-12)


# --- maneuvers -----------------------------------------------------------------------------------


def test_move_to_an_adjacent_empty_hex():
    """NOTES: "move (to an adjacent empty hex)"."""
    state = position("3,3:0:swordsman:1;3,4:1:archer:1", ("swordsman", "-"))
    moves = {m for m in legal(state) if m.startswith("move")}
    assert moves == {f"move swordsman 3,3 {h}" for h in ("4,3", "2,3", "3,2", "4,2", "2,4")}


def test_control_returns_the_enemy_marker_and_the_marker_stays():
    """NOTES: control "on a location you do not control; an enemy marker goes back to its
    owner"; "A location keeps its marker when the unit leaves"."""
    state = position("0,5:0:swordsman:1", ("swordsman,swordsman", "-"))
    assert state.markers_left(1) == 4
    after = state.apply("control swordsman 0,5")
    assert after.controller[(0, 5)] == 0 and after.markers_left(1) == 5 and after.markers_left(0) == 3
    assert "control swordsman 0,5" not in legal(after)  # already controlled by the player
    later = after.apply("move swordsman 0,5 1,5")
    assert later.controller[(0, 5)] == 0


def test_attack_takes_one_coin_out_of_the_game_and_the_last_one_removes_the_unit():
    """NOTES: "attack (an adjacent enemy unit loses one coin, out of the game; its last coin
    removes the unit)"."""
    state = position("3,3:0:swordsman:1;3,4:1:scout:2", ("swordsman,swordsman", "-"))
    once = state.apply("attack swordsman 3,3 3,4").apply("done")
    assert unit_at(once, "3,4") == (1, "scout", 1) and once.eliminated[1] == ("scout",)
    twice = once.apply("attack swordsman 3,3 3,4").apply("done")
    assert unit_at(twice, "3,4") is None and twice.eliminated[1] == ("scout", "scout")


def test_the_game_ends_the_moment_a_side_places_its_last_marker():
    """NL "Overwinningsvoorwaarden": "Zodra een speler ... al zijn bezettingsmarkers op de
    bolwerken heeft geplaatst, eindigt het spel en wint die speler"."""
    control = START_2P + ";2,1:0;3,2:0;5,3:0"
    state = position("1,3:0:swordsman:1", ("swordsman,pikeman", "archer"), control=control)
    assert state.markers_left(0) == 1
    after = state.apply("control swordsman 1,3")
    assert after.is_terminal() and after.outcome().winner == 0 and after.outcome().winners == (0,)
    assert after.legal_moves() == []
    with pytest.raises(rk.IllegalMoveError, match="game is over"):
        after.apply("pass pikeman")


def test_an_unknown_or_unheld_coin_is_refused_with_a_reason():
    state = position("-", ("swordsman", "-"))
    with pytest.raises(rk.IllegalMoveError, match="no 'pikeman' coin in hand"):
        state.apply("pass pikeman")


# --- the units -----------------------------------------------------------------------------------


def test_archer_attacks_two_hexes_away_over_an_occupied_hex_never_adjacent():
    """NOTES Archer: "attack a unit exactly two hexes away (the hex between may be occupied);
    no normal attack"."""
    state = position(
        "3,3:1:archer:1;3,4:0:pikeman:1;3,5:0:swordsman:1;4,4:0:crossbowman:1", ("-", "archer"), turn=1
    )
    moves = legal(state)
    assert {"tactic archer 3,3 3,5", "tactic archer 3,3 4,4"} <= moves
    assert not any(m.startswith(("attack archer", "tactic archer 3,3 3,4")) for m in moves)
    after = state.apply("tactic archer 3,3 3,5")
    assert unit_at(after, "3,5") is None and unit_at(after, "3,3") == (1, "archer", 1)  # no Pikeman counter


def test_crossbowman_needs_a_straight_line_with_an_empty_middle_hex():
    """NOTES Crossbowman: "attack a unit two hexes away in a straight line with the hex between
    empty; normal attacks allowed too"."""
    state = position(
        "3,3:0:crossbowman:1;3,5:1:scout:1;5,1:1:archer:1;4,2:1:lancer:1;4,4:1:cavalry:1",
        ("crossbowman", "-"),
    )
    tactics = {m for m in legal(state) if m.startswith("tactic")}
    assert tactics == {"tactic crossbowman 3,3 3,5"}  # 5,1 is behind 4,2; 4,4 is off the line
    assert "attack crossbowman 3,3 4,2" in legal(state)


def test_cavalry_moves_then_attacks():
    """NOTES Cavalry: "tactic — move, then attack" (both, in this project's reading)."""
    state = position("3,3:1:cavalry:1;3,5:0:swordsman:2", ("-", "cavalry"), turn=1)
    tactics = {m for m in legal(state) if m.startswith("tactic")}
    assert tactics == {"tactic cavalry 3,3 3,4 3,5"}  # the only empty hex next to both
    after = state.apply("tactic cavalry 3,3 3,4 3,5")
    assert unit_at(after, "3,4") == (1, "cavalry", 1) and unit_at(after, "3,5") == (0, "swordsman", 1)
    alone = position("3,3:1:cavalry:1", ("-", "cavalry"), turn=1)
    assert not any(m.startswith("tactic") for m in legal(alone))


def test_lancer_charges_in_a_straight_line_and_needs_a_target():
    """NOTES Lancer: "move one or two hexes in a straight line over empty hexes, then attack the
    unit directly beyond in the same line; needs a target; no normal attack"."""
    state = position("3,3:1:lancer:1;3,6:0:swordsman:1;4,3:0:pikeman:1", ("-", "lancer"), turn=1)
    moves = legal(state)
    assert "tactic lancer 3,3 3,5 3,6" in moves
    assert not any(m.startswith("attack lancer") for m in moves)
    blocked = position("3,3:1:lancer:1;3,4:1:scout:1;3,6:0:swordsman:1", ("-", "lancer"), turn=1)
    assert not any(m.startswith("tactic") for m in legal(blocked))
    alone = position("3,3:1:lancer:1", ("-", "lancer"), turn=1)
    assert not any(m.startswith("tactic") for m in legal(alone))


def test_light_cavalry_moves_two_empty_hexes():
    """NOTES Light Cavalry: "tactic — move two hexes (both empty)"."""
    state = position(
        "3,3:0:light-cavalry:1;3,4:1:archer:1;2,4:1:scout:1;2,3:1:lancer:1;3,2:1:cavalry:1",
        ("light-cavalry", "-"),
    )
    tactics = {m.split()[-1] for m in legal(state) if m.startswith("tactic")}
    assert "4,4" in tactics and "5,3" in tactics and "5,1" in tactics
    assert "3,5" not in tactics  # both ways there pass an occupied hex
    after = state.apply("tactic light-cavalry 3,3 5,3")
    assert unit_at(after, "5,3") == (0, "light-cavalry", 1)


def test_ensign_moves_another_friendly_unit_within_two_to_a_hex_within_two():
    """NOTES Ensign: "another friendly unit within two hexes of the Ensign moves one hex, to a
    hex within two of the Ensign"."""
    armies = "ensign,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position("3,3:0:ensign:1;3,5:0:pikeman:1;3,6:0:crossbowman:1", ("ensign", "-"), armies=armies)
    tactics = {m for m in legal(state) if m.startswith("tactic")}
    assert {"tactic ensign 3,3 3,5 2,5", "tactic ensign 3,3 3,5 3,4", "tactic ensign 3,3 3,5 4,4"} <= tactics
    assert not any(m.startswith("tactic ensign 3,3 3,6") for m in tactics)  # three hexes away
    assert "tactic ensign 3,3 3,5 4,5" not in tactics  # ends three hexes from the Ensign


def test_marshall_lets_a_friendly_unit_within_two_make_a_normal_attack():
    """NOTES Marshall: "another friendly unit within two hexes makes a normal attack"."""
    armies = "marshall,swordsman,archer,light-cavalry/crossbowman,cavalry,lancer,scout"
    state = position(
        "3,3:0:marshall:1;3,5:0:swordsman:1;3,6:1:scout:1;1,5:0:archer:1;1,6:1:lancer:1",
        ("marshall", "-"),
        armies=armies,
    )
    tactics = {m for m in legal(state) if m.startswith("tactic")}
    assert tactics == {"tactic marshall 3,3 3,5 3,6"}  # the Archer has no normal attack
    after = state.apply("tactic marshall 3,3 3,5 3,6")
    assert unit_at(after, "3,6") is None
    assert after.current_player == 0 and "done" in legal(after)  # the Swordsman may move after it


def test_footman_tactic_each_footman_unit_maneuvers_once():
    """NOTES Footman: "Tactic — each Footman unit makes one maneuver"."""
    armies = "footman,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position("3,3:0:footman:1;5,1:0:footman:1;3,4:1:scout:1", ("footman", "-"), armies=armies)
    after = state.apply("tactic footman 3,3")
    moves = legal(after)
    assert "attack 3,3 3,4" in moves and "move 5,1 5,2" in moves and "done" in moves
    after = after.apply("attack 3,3 3,4")
    assert unit_at(after, "3,4") is None
    assert not any(m.startswith(("move 3,3", "attack 3,3")) for m in legal(after))  # once each
    after = after.apply("move 5,1 5,2")
    assert unit_at(after, "5,2") == (0, "footman", 1) and not after.pending
    assert after.current_player == rk.CHANCE  # every hand is empty: the next round's draws


def test_knight_is_attacked_only_by_bolstered_units():
    """NOTES Knight: "only bolstered units (stack of two or more) can attack it"."""
    blue_knight = "swordsman,pikeman,crossbowman,light-cavalry/archer,cavalry,knight,scout"
    state = position(
        "3,3:0:swordsman:1;3,4:1:knight:1;3,5:1:archer:1", ("swordsman", "-"), armies=blue_knight
    )
    assert "attack swordsman 3,3 3,4" not in legal(state)
    bolstered = position("3,3:0:swordsman:2;3,4:1:knight:1", ("swordsman", "-"), armies=blue_knight)
    assert "attack swordsman 3,3 3,4" in legal(bolstered)
    red_knight = "swordsman,pikeman,knight,light-cavalry/archer,cavalry,lancer,scout"
    archer = position("3,3:1:archer:1;3,5:0:knight:1", ("-", "archer"), turn=1, armies=red_knight)
    assert "tactic archer 3,3 3,5" not in legal(archer)


def test_pikeman_hits_back_even_an_attacking_knight():
    """NOTES Pikeman: "when attacked from an adjacent hex, the attacking unit loses a coin too
    (even a Knight)"."""
    armies = "knight,swordsman,crossbowman,light-cavalry/archer,cavalry,lancer,pikeman"
    state = position("3,3:0:knight:2;3,4:1:pikeman:2", ("knight", "-"), armies=armies)
    after = state.apply("attack knight 3,3 3,4")
    assert unit_at(after, "3,3") == (0, "knight", 1) and unit_at(after, "3,4") == (1, "pikeman", 1)
    assert after.eliminated == (("knight",), ("pikeman",))


def test_royal_guard_moves_for_the_royal_coin_2018_and_revised():
    """NOTES Royal Guard: "pay the Royal coin to move the Royal Guard (2018 card: one hex;
    revised card: up to two hexes to a location you control — an option)"."""
    armies = "royal-guard,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    units = "3,2:0:royal-guard:1"
    old = position(units, ("royal", "-"), armies=armies, control=START_2P + ";3,4:0")
    assert {m for m in legal(old) if m.startswith("tactic")} == {
        f"tactic royal 3,2 {h}" for h in ("4,2", "2,2", "3,3", "3,1", "4,1", "2,3")
    }
    new = position(
        units, ("royal", "-"), armies=armies, control=START_2P + ";3,4:0;2,1:0", royal_guard="revised"
    )
    assert {m for m in legal(new) if m.startswith("tactic")} == {
        "tactic royal 3,2 3,4",
        "tactic royal 3,2 2,1",
        "tactic royal 3,2 4,0",
    }  # not 6,1: three away
    after = old.apply("tactic royal 3,2 3,3")
    assert after.faceup[0] == (ROYAL,) and unit_at(after, "3,3") == (0, "royal-guard", 1)


def test_royal_guard_owner_may_take_the_lost_coin_from_the_supply():
    """NOTES Royal Guard: "When it is attacked, its owner may remove a Royal Guard coin from
    their supply instead of from the unit"."""
    armies = "swordsman,pikeman,crossbowman,light-cavalry/royal-guard,cavalry,lancer,scout"
    state = position(
        "3,3:0:swordsman:1;3,4:1:royal-guard:1",
        ("swordsman", "-"),
        armies=armies,
        supply=("-", "royal-guard,royal-guard"),
    )
    hit = state.apply("attack swordsman 3,3 3,4")
    assert hit.current_player == 1 and legal(hit) == {"guard supply", "guard unit"}
    saved = hit.apply("guard supply")
    assert unit_at(saved, "3,4") == (1, "royal-guard", 1) and saved.supply[1] == ("royal-guard",)
    assert saved.eliminated[1] == ("royal-guard",)
    assert saved.current_player == 0 and "done" in legal(saved)  # then the Swordsman's move
    lost = hit.apply("guard unit")
    assert unit_at(lost, "3,4") is None


def test_swordsman_may_move_one_hex_after_it_attacks():
    """NOTES Swordsman: "after it attacks, it may move one hex"."""
    state = position("3,3:0:swordsman:1;3,4:1:scout:2", ("swordsman", "archer"))
    after = state.apply("attack swordsman 3,3 3,4")
    assert after.current_player == 0
    assert legal(after) == {"done"} | {f"move 3,3 {h}" for h in ("4,3", "2,3", "3,2", "4,2", "2,4")}
    moved = after.apply("move 3,3 3,2")
    assert unit_at(moved, "3,2") == (0, "swordsman", 1) and moved.current_player == 1


def test_berserker_maneuvers_again_paying_a_coin_never_the_last():
    """NOTES Berserker: "after it maneuvers, it may maneuver again by paying one coin from its
    own stack (into its owner's discard), never the last; repeatable"."""
    armies = "berserker,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position("3,3:0:berserker:2", ("berserker", "-"), armies=armies)
    after = state.apply("move berserker 3,3 3,4")
    assert after.current_player == 0 and "move 3,4 3,5" in legal(after)
    again = after.apply("move 3,4 3,5")
    assert unit_at(again, "3,5") == (0, "berserker", 1) and again.faceup[0] == ("berserker", "berserker")
    assert not again.pending  # one coin left: it is never paid
    single = position("3,3:0:berserker:1", ("berserker", "archer"), armies=armies)
    assert single.apply("move berserker 3,3 3,4").current_player == 1


BERSERKER_ARMIES = "berserker,pikeman,marshall,ensign/archer,cavalry,lancer,scout"


def test_berserker_repeats_after_its_own_coin_and_its_repeats_and_done_declines():
    """NOTES Berserker ("after it maneuvers ... repeatable"); the ruling of issue #20 item 6
    (published War Chest FAQ) keeps the own-coin case: any maneuver, repeats included."""
    state = position("3,3:0:berserker:3;3,5:1:scout:3", ("berserker", "archer"), armies=BERSERKER_ARMIES)
    after = state.apply("move berserker 3,3 3,4")
    assert after.pending == (("berserk", 0, (3, 4)),) and "attack 3,4 3,5" in legal(after)
    again = after.apply("attack 3,4 3,5")  # a repeat: paid with a coin of the stack
    assert unit_at(again, "3,4") == (0, "berserker", 2) and unit_at(again, "3,5") == (1, "scout", 2)
    assert again.pending == (("berserk", 0, (3, 4)),)  # the repeat repeats
    declined = again.apply("done")
    assert not declined.pending and declined.current_player == 1
    assert unit_at(declined, "3,4") == (0, "berserker", 2)
    assert declined.faceup[0] == ("berserker", "berserker")


def test_berserker_repeats_after_an_ensign_moves_it():
    """Ruling, issue #20 item 6: the published War Chest FAQ answers that the Berserker's
    ability triggers after a move granted by an Ensign (AEG: a granted action may trigger a
    unit's ability). NOTES Berserker: "after it maneuvers, it may maneuver again by paying one
    coin from its own stack (into its owner's discard), never the last; repeatable"."""
    state = position("3,3:0:ensign:1;3,4:0:berserker:3", ("ensign", "archer"), armies=BERSERKER_ARMIES)
    moved = state.apply("tactic ensign 3,3 3,4 4,4")
    assert unit_at(moved, "4,4") == (0, "berserker", 3) and moved.current_player == 0
    assert legal(moved) == {"done"} | {f"move 4,4 {h}" for h in ("3,4", "3,5", "4,3", "4,5", "5,3", "5,4")}
    again = moved.apply("move 4,4 4,5")
    assert unit_at(again, "4,5") == (0, "berserker", 2) and again.faceup[0] == ("berserker", "ensign")
    assert "control 4,5" in legal(again) and "done" in legal(again)
    assert again.apply("control 4,5").current_player == 1  # one coin left: never paid
    declined = moved.apply("done")  # the way to decline, as after the Berserker's own coin
    assert not declined.pending and declined.current_player == 1 and declined.faceup[0] == ("ensign",)
    single = position("3,3:0:ensign:1;3,4:0:berserker:1", ("ensign", "archer"), armies=BERSERKER_ARMIES)
    assert not single.apply("tactic ensign 3,3 3,4 4,4").pending  # its last coin is never paid


def test_berserker_repeats_after_attacking_for_a_marshall():
    """Ruling, issue #20 item 6: a granted action may trigger a unit's ability, e.g. after a
    Marshall's attack (AEG's answer; the published War Chest FAQ for the Ensign's move); NOTES
    Marshall: "another friendly unit within two hexes makes a normal attack"."""
    state = position(
        "3,3:0:marshall:1;3,5:0:berserker:2;3,6:1:scout:2", ("marshall", "archer"), armies=BERSERKER_ARMIES
    )
    hit = state.apply("tactic marshall 3,3 3,5 3,6")
    assert unit_at(hit, "3,6") == (1, "scout", 1) and hit.pending == (("berserk", 0, (3, 5)),)
    assert hit.current_player == 0 and {"attack 3,5 3,6", "move 3,5 2,5", "done"} <= legal(hit)
    again = hit.apply("attack 3,5 3,6")
    assert unit_at(again, "3,6") is None and unit_at(again, "3,5") == (0, "berserker", 1)
    assert again.faceup[0] == ("berserker", "marshall") and again.current_player == 1
    pike = "berserker,crossbowman,marshall,ensign/archer,cavalry,lancer,pikeman"  # a Pikeman hits back:
    counter = position(
        "3,3:0:marshall:1;3,5:0:berserker:2;3,6:1:pikeman:2", ("marshall", "archer"), armies=pike
    )  # the Berserker's second coin is gone, its last is never paid
    struck = counter.apply("tactic marshall 3,3 3,5 3,6")
    assert unit_at(struck, "3,5") == (0, "berserker", 1) and not struck.pending


def test_a_teammates_berserker_moved_by_an_ensign_repeats_for_its_owner():
    """Ruling, issue #20 item 6 (the War Chest FAQ: the Ensign's move triggers the Berserker);
    NL 4 spelers: "Bij het uitvoeren van een tactiek worden de eenheden van hetzelfde team als
    bondgenoten beschouwd"; the follow-up and its coin are the unit's owner's."""
    armies = (
        "ensign,pikeman,archer/cavalry,lancer,scout/berserker,knight,marshall/footman,mercenary,swordsman"
    )
    state = position(
        "3,3:0:ensign:1;3,4:2:berserker:2",
        ("ensign", "cavalry", "knight", "footman"),
        players=4,
        armies=armies,
    )
    moved = state.apply("tactic ensign 3,3 3,4 4,4")
    assert moved.current_player == 2 and "move 4,4 4,5" in legal(moved)
    again = moved.apply("move 4,4 4,5")
    assert again.faceup[2] == ("berserker",) and again.faceup[0] == ("ensign",)
    assert unit_at(again, "4,5") == (2, "berserker", 1) and again.current_player == 1


def test_mercenary_maneuvers_free_after_a_mercenary_coin_is_recruited():
    """NOTES Mercenary: "after you recruit a Mercenary coin, the Mercenary unit (if on the
    board) may make a free maneuver"."""
    armies = "mercenary,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position("3,3:0:mercenary:1", ("royal", "-"), armies=armies, supply=("mercenary", "-"))
    after = state.apply("recruit royal mercenary")
    assert after.current_player == 0 and "move 3,3 3,4" in legal(after) and "done" in legal(after)
    assert unit_at(after.apply("move 3,3 3,4"), "3,4") == (0, "mercenary", 1)
    other = position("3,3:0:mercenary:1", ("royal", "-"), armies=armies, supply=("pikeman", "-"))
    assert not other.apply("recruit royal pikeman").pending


def test_warrior_priest_draws_a_coin_after_attacking_and_must_use_it():
    """NOTES Warrior Priest: "after it attacks or controls, its owner draws one coin from the bag
    and must use it at once for any action (passing counts)"."""
    armies = "warrior-priest,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position(
        "3,3:0:warrior-priest:1;3,4:1:scout:2",
        ("warrior-priest,pikeman", "-"),
        armies=armies,
        bags=("crossbowman,royal", "royal"),
    )
    after = state.apply("attack warrior-priest 3,3 3,4")
    assert after.current_player == rk.CHANCE
    assert {str(o) for o, _ in after.chance_outcomes()} == {"draw:crossbowman", "draw:royal"}
    drawn = after.apply("draw:royal")
    assert drawn.current_player == 0
    assert legal(drawn) == {"pass royal"}  # the Pikeman must wait; player 0 holds the initiative
    done = drawn.apply("pass royal")
    assert done.hands[0] == ("pikeman",) and done.current_player == 0  # player 1 has no coins


def test_warrior_priest_draws_after_controlling_too():
    """NOTES Warrior Priest: "after it attacks or controls"."""
    armies = "warrior-priest,pikeman,crossbowman,light-cavalry/archer,cavalry,lancer,scout"
    state = position(
        "3,2:0:warrior-priest:1", ("warrior-priest", "-"), armies=armies, bags=("royal", "royal")
    )
    assert state.apply("control warrior-priest 3,2").current_player == rk.CHANCE


# --- four players ----------------------------------------------------------------------------------


def test_four_players_take_turns_round_the_table_alternating_teams():
    """NL "Verloop van het spel" (4 spelers): "de tegenstander aan de linkerkant voert de
    volgende actie uit. Ga met de klok mee"; teammates sit opposite."""
    state = position("-", ("royal", "royal", "royal", "royal"), players=4)
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state = state.apply("pass royal")
    assert order == [0, 1, 2, 3]
    game = state.game
    assert [game.team(p) for p in range(4)] == [0, 1, 0, 1]


def test_four_players_teammates_share_locations_and_are_friendly_for_tactics():
    """NL "Teaminteractie": "Teams delen bezette controlepunten ... Bij het uitvoeren van een
    tactiek worden de eenheden van hetzelfde team als bondgenoten beschouwd"."""
    units = "3,3:0:ensign:1;3,4:2:knight:1;4,3:1:archer:1"
    state = position(units, ("ensign", "-", "knight", "-"), players=4)
    assert "tactic ensign 3,3 3,4 2,4" in legal(state)  # moves the teammate's Knight
    assert not any(m.startswith("attack ensign 3,3 3,4") for m in legal(state))  # no attack on a teammate
    teammate = position("-", ("-", "-", "knight", "-"), players=4, turn=2)
    assert "deploy knight 6,4" in legal(teammate)  # a location player 0's team controls


def test_four_players_no_claiming_the_initiative_from_a_teammate():
    """NL: "Een speler kan geen startspelerverklaring doen om de startspelermarker van zijn
    teamgenoot te krijgen"."""
    teammate = position("-", ("-", "-", "royal", "-"), players=4, turn=2, initiative="0")
    assert "initiative royal" not in legal(teammate)
    opponent = position("-", ("-", "royal", "-", "-"), players=4, turn=1, initiative="0")
    assert "initiative royal" in legal(opponent)


def test_four_players_recruit_only_own_units():
    """NL: "Een speler kan geen eenheden van een teamgenoot rekruteren"."""
    state = position("-", ("royal", "-", "-", "-"), players=4, supply=("swordsman", "-", "knight", "-"))
    assert {m for m in legal(state) if m.startswith("recruit")} == {"recruit royal swordsman"}


def test_four_players_the_team_wins_together():
    """NL: "Het team dat al zijn bezettingsmarkers heeft geplaatst, wint het spel" (8 markers)."""
    control = START_4P + ";2,1:0;3,2:0;5,3:0;1,3:0"
    state = position("3,4:2:knight:1", ("-", "-", "knight", "-"), players=4, turn=2, control=control)
    assert state.markers_left(0) == 1
    outcome = state.apply("control knight 3,4").outcome()
    assert outcome.winner == 0 and outcome.winners == (0, 2)


# --- set-ups ---------------------------------------------------------------------------------------


def test_two_player_draft_picks_one_two_two_two_one_and_the_second_picker_starts():
    """NL "Voorbereiding voor Gevorderden": 8 cards; picks 1, 2, 2, 2 and the last card to the
    first picker; "De tweede speler ontvangt de startspelermarker"."""
    state = rk.load_game("war-chest", setup="draft").initial_state()
    state = state.apply(state.sample_chance(random.Random(1)))
    assert len(state.pool) == 8
    pickers = []
    while state.phase == "draft":
        pickers.append(state.current_player)
        state = state.apply(sorted(legal(state))[0])
    assert pickers == [0, 1, 1, 0, 0, 1, 1, 0]
    assert [len(a) for a in state.armies] == [4, 4] and state.initiative == 1


def test_four_player_draft_follows_the_rulebook_order():
    """NL "Draften in een spel voor 4 spelers": clockwise 1-2-3-4, back 4-3-2-1, then clockwise
    from the second player so that the first player takes the last card."""
    state = rk.load_game("war-chest", players=4, setup="draft").initial_state()
    state = state.apply(state.sample_chance(random.Random(2)))
    assert len(state.pool) == 12
    pickers = []
    while state.phase == "draft":
        pickers.append(state.current_player)
        state = state.apply(sorted(legal(state))[-1])
    assert pickers == [0, 1, 2, 3, 3, 2, 1, 0, 1, 2, 3, 0]
    assert [len(a) for a in state.armies] == [3, 3, 3, 3]
    assert all(len(state.bags[p]) == 7 for p in range(4))


def test_random_set_up_deals_four_or_three_units_each():
    """NL: "elke speler krijgt 4 kaarten"; 4 players: "geef elke speler er 3"."""
    for players, size in ((2, 4), (4, 3)):
        state = rk.load_game("war-chest", players=players).initial_state()
        with pytest.raises(rk.ChanceNotEnumerableError):
            state.chance_outcomes()
        dealt = state.apply(state.sample_chance(random.Random(players)))
        units = [u for a in dealt.armies for u in a]
        assert all(len(a) == size for a in dealt.armies) and len(set(units)) == len(units)
        with pytest.raises(rk.IllegalMoveError, match="deal"):
            state.apply("deal:archer,archer,scout,knight/lancer")


def test_explicit_armies_and_option_errors():
    state = rk.load_game(
        "war-chest",
        setup=[["archer", "knight", "scout", "lancer"], ["footman", "ensign", "marshall", "pikeman"]],
    ).initial_state()
    assert state.armies[1] == ("footman", "ensign", "marshall", "pikeman")
    with pytest.raises(rk.OptionError, match="unknown unit 'wizard'"):
        rk.load_game("war-chest", setup=[["wizard"], ["archer"]])
    with pytest.raises(rk.OptionError, match="2 armies of 4"):
        rk.load_game("war-chest", setup=[["archer"], ["knight"]])
    with pytest.raises(rk.OptionError, match="already in another army"):
        rk.load_game(
            "war-chest",
            setup=[["archer", "knight", "scout", "lancer"], ["archer", "ensign", "marshall", "pikeman"]],
        )
    with pytest.raises(rk.OptionError, match="first-game"):
        rk.load_game("war-chest", players=4, setup="first-game")
    with pytest.raises(rk.OptionError, match="one of 2, 4"):
        rk.load_game("war-chest", players=3)
    with pytest.raises(rk.OptionError, match="max_actions"):
        rk.load_game("war-chest", max_actions=0)


def test_the_action_cap_ends_a_game_as_unfinished_not_as_a_win():
    states, actions = random_game(rk.load_game("war-chest", max_actions=60), seed=3)
    assert len(actions) == 60
    outcome = states[-1].outcome()
    assert outcome.finished is False and outcome.winner is None and "60" in outcome.reason


def test_bad_position_text_is_refused_with_a_reason():
    game = rk.load_game("war-chest")
    good = position("3,3:0:swordsman:1", ("swordsman", "-")).to_text()
    with pytest.raises(rk.PositionTextError, match="15 fields"):
        game.from_text("play -")
    with pytest.raises(rk.PositionTextError, match="units: '0,0' is no hex of the 2-player map"):
        game.from_text(good.replace("3,3:0:swordsman", "0,0:0:swordsman"))
    with pytest.raises(rk.PositionTextError, match="armies: unknown unit .wizard."):
        game.from_text(good.replace("swordsman,pikeman", "wizard,pikeman", 1))


# --- the move list in words (issue #22 item 3) ------------------------------------------------------

#: a scripted game: (action, all-seeing, side A's view, side B's view); None: as all-seeing
WORDS_GAME = [
    # NL "Bezetting": the unit on a neutral control point places its owner's marker there
    ("control pikeman 3,2", "the Pikeman takes control of d3", None, None),
    # NL "Tactiek": "de tactiek van de cavalerie is om te bewegen en daarna aan te vallen";
    # NOTES Pikeman: "when attacked from an adjacent hex, the attacking unit loses a coin too"
    (
        "tactic cavalry 3,4 3,3 3,2",
        "the Cavalry moves d5–d4 and attacks the Pikeman on d3 (tactic): the Pikeman loses a coin; "
        "the Cavalry is removed too",
        None,
        None,
    ),
    # NL "Aanval": one coin of the target leaves the game
    (
        "attack swordsman 2,3 1,4",
        "the Swordsman on c4 attacks the Archer on b5: the Archer loses a coin",
        None,
        None,
    ),
    # NOTES Swordsman: "after it attacks, it may move one hex"
    ("move 2,3 2,4", "the Swordsman moves c4–c5 after its attack", None, None),
    # NOTES Archer: "attack a unit exactly two hexes away"; NL "Aanval" 4: the last coin removes it
    (
        "tactic archer 1,4 3,2",
        "the Archer on b5 attacks the Pikeman on d3, two hexes away (tactic): the Pikeman is removed",
        None,
        None,
    ),
    # NL "Werving": the coin paid goes face down "zodat de tegenstander hem niet kan zien"; the
    # recruited coin goes face up into the discard pile
    (
        "recruit royal pikeman",
        "recruits a Pikeman, paying with the Royal coin",
        None,
        "recruits a Pikeman (pays with a coin face down)",
    ),
    # NL "Plaatsing": a coin face up on an empty control point of one's own
    ("deploy scout 2,6", "deploys a Scout to c7", None, None),
    # NL "Munten trekken": three coins "zonder ze aan de tegenstander te tonen"; an empty bag is
    # refilled from the discard pile
    (
        "draw:crossbowman,light-cavalry,swordsman",
        "Side A draws Crossbowman, Light Cavalry, Swordsman",
        None,
        "Side A draws 3 coins",
    ),
    (
        "draw:archer,lancer,royal",
        "Side B draws Archer, Lancer, Royal coin (the discard pile goes back into the bag first)",
        "Side B draws 3 coins (the discard pile goes back into the bag first)",
        None,
    ),
    ("deploy light-cavalry 4,0", "deploys a Light Cavalry to e1", None, None),
    # NL "Startspeler": "een muntstuk ... zodat de tegenstander het niet kan zien"
    (
        "initiative royal",
        "takes the initiative, paying with the Royal coin",
        "takes the initiative (pays with a coin face down)",
        None,
    ),
    # NL "Beweging": the unit moves to an adjacent empty hex
    ("move swordsman 2,4 2,5", "moves the Swordsman c5–c6", None, None),
]


def test_a_scripted_game_in_words_as_each_side_and_the_all_seeing_read_it():
    """The move list in words: the rulebook's terms, the hexes by the names the map shows,
    and nothing of another player's draw or face-down coin (issue #22 item 3)."""
    state = position(
        "3,2:0:pikeman:2;2,3:0:swordsman:1;3,4:1:cavalry:1;1,4:1:archer:2",
        ("pikeman,swordsman,royal", "archer,cavalry,scout"),
        bags=("crossbowman,light-cavalry,swordsman", "lancer,royal"),
        supply=("pikeman", "-"),
    )
    for notation, everyone, side_a, side_b in WORDS_GAME:
        if state.current_player == rk.CHANCE:
            action = state.parse_chance(notation)
        else:
            action = next(m for m in state.legal_moves() if str(m) == notation)
        seen = [state.action_text(action, viewer) for viewer in (None, 0, 1)]
        assert seen == [everyone, side_a or everyone, side_b or everyone], notation
        state = state.apply(action)
        assert str(action) == notation  # the notation stays (records, data files)


def test_the_last_marker_ends_the_game_in_words():
    """NL "Bezetting" 5: "Als je al jouw bezettingsmarkers op het bord hebt geplaatst, win je
    het spel"; an enemy marker goes back to its owner (3)."""
    state = position(
        "3,2:0:pikeman:1;0,5:0:swordsman:1",
        ("pikeman,swordsman", "-"),
        control="4,0:0;6,1:0;2,1:0;5,3:0;0,5:1;2,6:1",
    )
    move = next(m for m in state.legal_moves() if str(m) == "control swordsman 0,5")
    assert state.action_text(move) == "the Swordsman takes control of a6 from Side B"
    state = state.apply(move)
    last = next(m for m in state.legal_moves() if str(m) == "control pikeman 3,2")
    assert state.action_text(last, 1) == (
        "the Pikeman takes control of d3 — the game ends: Side A placed its last control marker"
    )


def test_a_pending_follow_up_is_named_in_a_whole_sentence():
    """The reason a move is refused while a follow-up waits reads as a sentence."""
    state = position("3,3:0:berserker:3;4,3:1:archer:1", ("berserker", "archer"), armies=BERSERKER_ARMIES)
    state = state.apply("move berserker 3,3 3,4")
    with pytest.raises(
        rk.IllegalMoveError, match="Side A must first say whether the Berserker maneuvers again"
    ):
        state.apply("pass berserker")


def test_words_never_show_what_a_view_hides_nor_the_notation():
    """Along random games, a player learns the same words whichever coins another player drew
    or paid face down (every outcome of the draw, every coin of the hand that could pay); and
    no line names a hex by its coordinates."""
    for players in (2, 4):
        game = rk.load_game("war-chest", players=players)
        for seed in range(8):
            states, actions = random_game(game, seed, cap=150)
            for state, action in zip(states, actions, strict=False):
                if state.phase == "deal":  # the armies and draft cards are dealt face up
                    continue
                actor = drawer(state)[0] if state.current_player == rk.CHANCE else state.current_player
                for viewer in range(players):
                    text = state.action_text(action, viewer)
                    assert not re.search(r"\\d,\\d", text), text
                    if viewer == actor or not (action.is_chance or action.verb in FACE_DOWN):
                        continue
                    if action.is_chance:
                        others = [o for o, _ in state.chance_outcomes()]
                    else:
                        others = [
                            m for m in state.legal_moves() if (m.verb, m.arg) == (action.verb, action.arg)
                        ]
                    assert {state.action_text(o, viewer) for o in others} == {text}


# --- properties over many random games --------------------------------------------------------------


def _coins_of(state, p: int) -> Counter:
    coins = Counter()
    for place in (state.bags, state.hands, state.faceup, state.facedown, state.supply, state.eliminated):
        coins.update(place[p])
    for _, owner, kind, height in state.units:
        if owner == p:
            coins[kind] += height
    return coins


def _check_invariants(states) -> None:
    game = states[0].game
    expected = None
    for state in states:
        if not state.armies[0] or state.phase == "draft":
            continue
        if expected is None:
            expected = [Counter({u: COINS[u] for u in a} | {ROYAL: 1}) for a in state.armies]
        for p in range(game.num_players):
            # every coin in exactly one place; totals fixed (eliminated coins are a place too)
            assert _coins_of(state, p) == expected[p], state
            assert ROYAL not in state.eliminated[p] and ROYAL not in state.supply[p]
        for _, owner, kind, height in state.units:
            assert height >= 1 and kind in state.armies[owner]
        for side in (0, 1):
            assert state.markers_left(side) >= 0


def _check_views(state, rng: random.Random) -> None:
    for p in range(state.game.num_players):
        view = state.view(p)
        for q in range(state.game.num_players):
            if q != p:
                assert set(view.hands[q]) <= {"?"} and set(view.facedown[q]) <= {"?"}
                assert len(view.hands[q]) == len(state.hands[q])
        assert view.hands[p] == state.hands[p] and view.facedown[p] == state.facedown[p]
        # a view says nothing more than the view: any world consistent with it looks the same
        assert view.determinize(rng).view(p) == view
        assert state.view(p).scene().perspective is None


@pytest.mark.parametrize("players", [2, 4])
def test_coins_are_conserved_and_views_do_not_leak_over_many_random_games(players):
    """Hundreds of random games (400 per player count, 120 actions each): every coin is in
    exactly one place, per-type totals change only by elimination, and no view shows another
    player's hand or face-down discards."""
    game = rk.load_game("war-chest", players=players, setup="draft" if players == 4 else "random")
    rng = random.Random(players)
    for seed in range(400):
        states, _ = random_game(game, seed, cap=120)
        _check_invariants(states)
        for state in states[::40]:
            _check_views(state, rng)
        eliminated = [sum(len(e) for e in s.eliminated) for s in states]
        assert eliminated == sorted(eliminated)  # coins only ever leave the game


@pytest.mark.parametrize("players", [2, 4])
def test_records_round_trip_and_replay_identically(players):
    for seed in range(20):
        game = rk.load_game("war-chest", players=players, setup="draft")
        states, actions = random_game(game, seed, cap=300)
        record = records.Record.from_actions(states[0].game, actions)
        again = records.Record.from_json(record.to_json())
        assert again == record and again.replay() == states


def test_finished_random_games_end_on_the_last_marker_or_in_deadlock():
    """Random games end: a side out of markers (NL "Overwinningsvoorwaarden"), or the deadlock
    ruling when no unit coin is left to act with."""
    endings = Counter()
    for seed in range(12):
        states, _ = random_game(rk.load_game("war-chest"), seed, cap=5000)
        final = states[-1]
        assert final.is_terminal()
        outcome = final.outcome()
        if outcome.winner is not None:
            assert final.markers_left(outcome.winner) == 0
            endings["marker"] += 1
        else:
            assert outcome.is_draw and deadlocked(final)
            endings["deadlock"] += 1
    assert endings["marker"] >= 1 and endings["deadlock"] >= 1


def test_a_deadlock_with_only_royal_coins_left_is_a_draw():
    """Ruling (docs/games/war-chest.md): when every unit coin is on the board or out of the
    game, only Royal coins are drawn and no location can be controlled again: a draw."""
    state = position("3,3:0:swordsman:5;3,5:1:archer:4", ("royal", "-"), bags=("-", "royal"))
    assert state.is_terminal() and state.outcome().is_draw and "deadlock" in state.outcome().reason
    alive = position("3,3:0:swordsman:4;3,5:1:archer:4", ("royal", "-"), bags=("swordsman", "royal"))
    assert not alive.is_terminal()


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_actions": 0}, "positive whole number of actions; got 0"),
        ({"max_actions": -5}, "positive whole number of actions; got -5"),
        ({"max_actions": True}, "positive whole number of actions; got True"),
        ({"max_actions": 2.5}, "positive whole number of actions; got 2.5"),
        ({"max_actions": "60"}, "positive whole number of actions; got '60'"),
        ({"players": 0}, "one of 2, 4"),
        ({"players": -2}, "one of 2, 4"),
        ({"setup": [[], []]}, "2 armies of 4 units"),
        ({"setup": "draft", "royal_guard": "2020"}, "'2018', 'revised'"),
    ],
)
def test_options_refuse_non_positive_and_malformed_counts(options, message):
    """Issue #14, item 5: `max_actions` of 0 or less is refused with OptionError, as is every
    count an option holds that is not a positive whole number."""
    with pytest.raises(rk.OptionError, match=message.replace("(", r"\(")):
        rk.load_game("war-chest", **options)
    assert rk.load_game("war-chest", max_actions=1).options["max_actions"] == 1
