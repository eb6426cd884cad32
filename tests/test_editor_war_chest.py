"""The board editor for War Chest (2 and 4 players): the kernel's edit hooks
(`war_chest/edit.py`), checked as a position text is, and the editor widget and the explorer's
Edit toggle on it. Rulebook: rules/war-chest.nl.txt (cited by line); the box and the units:
rules/NOTES.md, "War Chest"."""

from __future__ import annotations

import pytest

import rules_kernel as rk
import widgets
from widgets.editor import REMOVE, PositionEditor
from widgets.explorer import ALL_SEEING

GAME_2P = rk.load_game("war-chest", setup="first-game")
ARMIES_4P = [
    ["swordsman", "pikeman", "ensign"],
    ["archer", "cavalry", "lancer"],
    ["knight", "marshall", "scout"],
    ["footman", "mercenary", "berserker"],
]
GAME_4P = rk.load_game("war-chest", players=4, setup=ARMIES_4P)


def drawn(game: rk.Game, *draws: str) -> rk.State:
    """The first round after every seat's draw (rulebook l.131: three coins each)."""
    state = game.initial_state()
    for draw in draws:
        state = state.apply(draw)
    return state


# Side A holds Crossbowman, Royal coin, Swordsman; Side B Archer, Cavalry, Scout; A to act
PLAY_2P = drawn(GAME_2P, "draw:crossbowman,royal,swordsman", "draw:archer,cavalry,scout")
PLAY_4P = drawn(
    GAME_4P,
    "draw:ensign,royal,swordsman",
    "draw:archer,cavalry,royal",
    "draw:knight,marshall,royal",
    "draw:berserker,footman,royal",
)


def refusal(state: rk.State, **change) -> rk.PositionTextError:
    with pytest.raises(rk.PositionTextError) as caught:
        state.edit(**change)
    return caught.value


# --- what the editor offers -------------------------------------------------------------------------


def test_each_seat_is_offered_its_own_army_stacks_piles_and_the_markers():
    # rulebook l.69: each player gets the coins of their own 4 unit cards; l.191: a stack has no
    # height limit (the palette offers up to three, `edit` any); NOTES.md: the Royal coin is
    # used face down only, or for the Royal Guard's tactic, never recruited nor lost
    pieces = PLAY_2P.edit_pieces()
    on_map = {(p.owner, p.key) for p in pieces if p.on_board}
    assert (0, "swordsman") in on_map and (0, "swordsman×3") in on_map and (1, "archer×2") in on_map
    assert {p.key for p in pieces if p.on_board and p.owner == 0} >= {"marker-A"}
    assert not any(p.key.startswith("archer") for p in pieces if p.owner == 0)  # B's unit
    assert not any(p.key.startswith("knight") for p in pieces)  # in nobody's army
    counted = {(p.owner, p.key): p.pile for p in pieces if p.in_hand}
    assert all(not p.on_board for p in pieces if p.in_hand)
    assert counted[(0, "swordsman@bag")] == "bag" and counted[(1, "scout@supply")] == "supply"
    assert counted[(0, "pikeman@discard-up")] == "discard pile, face up"
    assert counted[(0, "pikeman@discard-down")] == "discard pile, face down"
    assert counted[(1, "lancer@removed")] == "removed from the game"
    assert {k for o, k in counted if o == 0 and k.startswith("royal@")} == {
        "royal@bag",
        "royal@hand",
        "royal@discard-down",
    }
    hands = PLAY_2P.edit_hands()
    assert set(hands) == set(counted)
    assert hands[(0, "swordsman@hand")] == 1 and hands[(0, "swordsman@supply")] == 3
    assert hands[(1, "archer@bag")] == 1 and hands[(1, "royal@bag")] == 1


def test_the_fields_are_the_phase_the_initiative_its_claim_and_the_follow_ups():
    # rulebook l.116-120: a round is "Muntstuk trekken" then "Muntstuk gebruiken"; l.151: the
    # initiative changes hands once a round
    assert PLAY_2P.edit_fields() == {
        "phase": ("use coins", ("draw coins", "use coins")),
        "initiative": ("Side A", ("Side A", "Side B")),
        "initiative claimed this round": ("no", ("no", "yes")),
        "follow-ups": ("none", ("none",)),
    }
    assert PLAY_4P.edit_fields()["initiative"][1] == ("Player A1", "Player B1", "Player A2", "Player B2")


def test_nothing_to_edit_before_the_armies_are_known():
    # rulebook l.67-69: the coins come with the dealt cards; before the deal there are none
    start = rk.load_game("war-chest").initial_state()
    assert start.edit_pieces() == () and start.edit_fields() == {} and start.edit_hands() == {}


def test_four_players_offer_three_units_a_seat_and_a_marker_per_team():
    # rulebook l.299-301: teams share 8 markers, each player has 3 unit cards
    pieces = PLAY_4P.edit_pieces()
    for seat, army in enumerate(ARMIES_4P):
        assert {p.key for p in pieces if p.on_board and p.owner == seat} - {"marker-A", "marker-B"} == {
            f"{unit}{suffix}" for unit in army for suffix in ("", "×2", "×3")
        }
    markers = [p for p in pieces if p.key.startswith("marker-")]
    assert [(p.key, p.owner, p.name) for p in markers] == [
        ("marker-A", 0, "Team A marker"),
        ("marker-B", 1, "Team B marker"),
    ]


# --- edits round-trip through the position text -----------------------------------------------------


def test_place_remove_count_and_set_the_turn_round_trip_through_the_text():
    # rulebook l.178 (a deployed coin stands on a location), l.143-148 (the initiative taken
    # face down); NOTES.md: a location keeps its marker when the unit leaves
    edited = PLAY_2P.edit(
        place={"3,2": "swordsman", "5,3": "marker-B", "0,5": None},
        hands={(1, "scout@bag"): 0, (1, "scout@discard-down"): 1},
        to_move=1,
        fields={"initiative": "Side B", "initiative claimed this round": "yes"},
    )
    assert "3,2:0:swordsman:1" in edited.to_text()
    assert edited.edit_hands()[(0, "swordsman@supply")] == 2  # the placed coin came from the supply
    assert edited.control == (((2, 6), 1), ((4, 0), 0), ((5, 3), 1), ((6, 1), 0))  # 0,5 emptied
    assert edited.edit_hands()[(1, "scout@discard-down")] == 1 and edited.edit_hands()[(1, "scout@bag")] == 0
    assert edited.current_player == 1 and edited.initiative == 1 and edited.claimed
    assert edited.ply == 0  # an edit starts a game: no history
    assert GAME_2P.from_text(edited.to_text()) == edited
    assert edited.status() == []  # every coin is somewhere: a position as real play reaches
    removed = edited.edit(place={"3,2": None}, hands={(0, "royal@hand"): 0})
    assert removed.units == () and removed.edit_hands()[(0, "swordsman@supply")] == 3
    assert removed.status() == ["1 coin of Side A out of the game (1 Royal coin)"]
    assert GAME_2P.from_text(removed.to_text()) == removed


def test_a_stack_and_a_marker_share_a_hex_and_a_taller_stack_is_taken_by_key():
    # rulebook l.191: no limit to a stack's height; l.254: the marker goes on the unit's location
    state = PLAY_2P.edit(place={"3,2": "swordsman×4"})  # the 3 coins of the supply, then the bag's
    assert state.edit_hands()[(0, "swordsman@supply")] == 0 and state.edit_hands()[(0, "swordsman@bag")] == 0
    state = state.edit(place={"3,2": "marker-A"})
    assert state.units == (((3, 2), 0, "swordsman", 4),) and ((3, 2), 0) in state.control
    assert state.edit(place={"3,2": None}).to_text().count("3,2") == 0  # Remove empties both


def test_switching_the_phase_asks_the_right_seat():
    # rulebook l.131: at a round's start each player draws (seat by seat here, docs "A round");
    # l.86: coins are used from the initiative holder on
    emptied = PLAY_2P.edit(hands={(1, key): 0 for key in ("archer@hand", "cavalry@hand", "scout@hand")})
    drawing = emptied.edit(fields={"phase": "draw coins"})
    assert drawing.phase == "draw" and drawing.turn == 1 and drawing.current_player == rk.CHANCE
    assert drawing.legal_moves() == [] and drawing.chance_outcomes()  # Side B draws next
    using = drawing.edit(fields={"phase": "use coins"})
    assert using.phase == "play" and using.current_player == 0


def test_follow_ups_are_kept_or_cleared():
    # NOTES.md: "Swordsman: after it attacks, it may move one hex" (a follow-up of the turn)
    state = PLAY_2P.edit(place={"3,2": "swordsman", "3,3": "archer"}).apply("attack swordsman 3,2 3,3")
    words = "Side A: the Swordsman on d3 may move"
    assert state.edit_fields()["follow-ups"] == (words, (words, "none"))
    kept = state.edit(hands={(0, "pikeman@bag"): 1})
    assert kept.pending == state.pending and kept.edit_hands()[(0, "pikeman@bag")] == 1
    cleared = state.edit(fields={"follow-ups": "none"})
    assert cleared.pending == () and cleared.current_player == 0
    assert GAME_2P.from_text(cleared.to_text()) == cleared


# --- a placement takes its coins, a removal gives them back -------------------------------------------


def counts(state: rk.State, seat: int, unit: str) -> dict[str, int]:
    """How many of a seat's `unit` coins lie in each pile."""
    return {pile: state.edit_hands()[(seat, f"{unit}@{pile}")] for pile in PILES}


PILES = ("bag", "hand", "discard-up", "discard-down", "supply", "removed")


def test_a_unit_placed_in_the_start_position_takes_a_coin_from_the_supply():
    # rulebook l.69 / NOTES.md set-up: 2 coins of each type in the bag, the rest is the supply
    # ("dienen ze als voorraad"); every coin is listed, so a coin on the map must come from a pile
    start = GAME_2P.initial_state()
    placed = start.edit(place={"3,3": "archer"})
    assert placed.units == (((3, 3), 1, "archer", 1),)
    assert counts(start, 1, "archer")["supply"] == 2 and counts(placed, 1, "archer")["supply"] == 1
    assert counts(placed, 1, "archer")["bag"] == counts(start, 1, "archer")["bag"] == 2
    assert placed.status() == []  # no coin made out of nothing, none lost: a position play reaches
    assert GAME_2P.from_text(placed.to_text()) == placed


def test_coins_come_from_the_supply_then_the_bag_then_the_discard_piles():
    # Archer: 4 coins (NOTES.md); here 1 in the bag, 1 in hand, 1 discarded face up, 1 face down
    state = PLAY_2P.edit(
        hands={(1, "archer@supply"): 0, (1, "archer@discard-up"): 1, (1, "archer@discard-down"): 1}
    )
    one = state.edit(place={"3,3": "archer"})
    assert counts(one, 1, "archer") == {**counts(state, 1, "archer"), "bag": 0}
    # the stack it replaces goes back to the supply first, and is taken again from there
    two = one.edit(place={"3,3": "archer×2"})
    assert counts(two, 1, "archer") == {**counts(one, 1, "archer"), "discard-up": 0}
    three = two.edit(place={"3,3": "archer×3"})
    assert counts(three, 1, "archer")["discard-down"] == 0 and counts(three, 1, "archer")["hand"] == 1
    assert three.units == (((3, 3), 1, "archer", 3),)  # the coin in hand is never taken


def test_placing_a_unit_elsewhere_moves_it_and_a_removal_returns_its_coins():
    # rulebook l.181: one unit of a type on the board, so a unit placed elsewhere is moved there;
    # NOTES.md: a location keeps its marker when the unit leaves
    here = PLAY_2P.edit(place={"3,3": "archer", "3,4": "marker-B"})
    moved = here.edit(place={"3,5": "archer×2"})
    assert moved.units == (((3, 5), 1, "archer", 2),) and ((3, 4), 1) in moved.control
    assert counts(moved, 1, "archer")["supply"] == 0 and counts(moved, 1, "archer")["bag"] == 1
    removed = moved.edit(place={"3,5": None})
    assert removed.units == () and counts(removed, 1, "archer") == counts(PLAY_2P, 1, "archer")
    assert removed.status() == []
    # a unit replaced by another (of either seat) goes back to its owner's supply
    replaced = here.edit(place={"3,3": "swordsman×2"})
    assert replaced.units == (((3, 3), 0, "swordsman", 2),)
    assert counts(replaced, 1, "archer") == counts(PLAY_2P, 1, "archer")
    assert counts(replaced, 0, "swordsman")["supply"] == 1


def test_a_swap_in_one_edit_needs_no_spare_coin():
    # the hexes of one edit are emptied before the stacks are put down: the Swordsman's three
    # coins (supply 0 once placed) come back and are taken again
    state = PLAY_2P.edit(place={"3,3": "archer", "3,4": "swordsman×3"})
    assert counts(state, 0, "swordsman")["supply"] == 0
    swapped = state.edit(place={"3,3": "swordsman×3", "3,4": "archer"})
    assert swapped.units == (((3, 3), 0, "swordsman", 3), ((3, 4), 1, "archer", 1))
    assert counts(swapped, 0, "swordsman") == counts(state, 0, "swordsman")


def test_the_counters_stay_exact_beside_a_placement():
    # the placement takes the Archer coin from the supply; the bag's counter then says 0
    state = PLAY_2P.edit(place={"3,3": "archer"}, hands={(1, "archer@bag"): 0})
    assert counts(state, 1, "archer")["bag"] == 0 and counts(state, 1, "archer")["supply"] == 1
    assert state.status() == ["1 coin of Side B out of the game (1 Archer)"]


def test_a_second_footman_unit_is_placed_beside_the_first():
    # NOTES.md: "Footman: two Footman units may be on the board" -- placing one elsewhere adds
    # the second unit (no move); a third is refused
    state = PLAY_4P.edit(place={"3,3": "footman"}).edit(place={"3,5": "footman"})
    assert [u[0] for u in state.units] == [(3, 3), (3, 5)] and counts(state, 3, "footman")["supply"] == 1
    assert refusal(state, place={"1,3": "footman"}).field == "units"


def test_a_placement_with_no_coin_left_is_refused_and_nothing_is_applied():
    # NOTES.md: Swordsman 5 coins; with 4 on the map and the fifth in hand, no pile holds one
    state = PLAY_2P.edit(place={"3,4": "swordsman×4"})
    error = refusal(state, place={"3,4": "swordsman×5", "5,3": "marker-A"})
    assert error.field == "supply" and "d5: Swordsman" in str(error) and "1 in hand" in str(error)
    assert refusal(state, place={"3,2": "swordsman×5"}).field == "supply"  # moving it frees only 4
    assert ((5, 3), 0) not in state.control and state.units == (((3, 4), 0, "swordsman", 4),)


# --- refusals: the field named, nothing half-applied -------------------------------------------------


SIX_NEUTRAL = ("2,1", "3,2", "5,3", "1,3", "3,4")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        # NOTES.md: Swordsman 5 coins (1 bag + 1 hand + 3 supply here: the hand's is not taken)
        ({"place": {"3,2": "swordsman×5"}}, "supply"),
        ({"place": {"3,2": "swordsman×6"}}, "supply"),
        # rulebook l.69: only the coins of one's own cards
        ({"place": {"3,2": "knight"}}, "units"),
        ({"hands": {(0, "archer@bag"): 1}}, "bags"),
        ({"place": {"9,9": "swordsman"}}, "units"),  # no hex of the 2-player map (NOTES.md)
        ({"place": {"3,2": "dragon"}}, "units"),
        # rulebook l.254-256: markers on control points, one each
        ({"place": {"3,3": "marker-A"}}, "control"),
        ({"place": dict.fromkeys(SIX_NEUTRAL, "marker-A")}, "control"),  # 7 of 6 markers
        # rulebook l.181: one unit of a type on the board
        ({"place": {"3,2": "archer", "3,4": "archer"}}, "units"),
        # NOTES.md: the Royal coin is never recruited (never in the supply); one a player
        ({"hands": {(0, "royal@supply"): 1}}, "supply"),
        ({"hands": {(0, "royal@bag"): 2}}, "bags"),
        ({"hands": {(0, "swordsman@bag"): -1}}, "bags"),
        ({"hands": {(2, "swordsman@bag"): 1}}, "bags"),  # no third seat in 2 players
        ({"hands": {(0, "swordsman@pocket"): 1}}, "hands"),
        # rulebook l.86: the player to act acts with a coin
        ({"hands": {(0, k): 0 for k in ("crossbowman@hand", "royal@hand", "swordsman@hand")}}, "turn"),
        ({"to_move": 2}, "turn"),
        ({"fields": {"weather": "fine"}}, "fields"),
        ({"fields": {"initiative": "Side C"}}, "initiative"),
        ({"fields": {"phase": "draw coins"}}, "hands"),  # l.131: who draws holds no coin yet
    ],
)
def test_an_edit_past_the_box_or_the_rules_is_refused_naming_the_field(change, field):
    before = PLAY_2P.to_text()
    assert refusal(PLAY_2P, **change).field == field
    assert PLAY_2P.to_text() == before


def test_a_refused_edit_applies_none_of_its_parts():
    # NOTES.md: the Royal coin is never in the supply; the good half (a marker) is not kept
    error = refusal(PLAY_2P, place={"3,2": "marker-A"}, hands={(0, "royal@supply"): 1})
    assert error.field == "supply"
    assert ((3, 2), 0) not in PLAY_2P.control


# --- the editor widget ----------------------------------------------------------------------------------


def test_the_editor_widget_builds_a_2_player_study_and_plays_from_it():
    played = []
    editor = PositionEditor(PLAY_2P, played.append)
    editor.choose("swordsman")
    editor.click("3,2")  # no counter touched: the coin comes from the supply (NOTES.md set-up)
    assert editor.counters[(0, "swordsman@supply")].value == 2 and 'role="alert"' not in editor.status.value
    editor.choose("archer")
    editor.click("3,3")
    assert editor.counters[(1, "archer@supply")].value == 1
    editor.choose("marker-A")
    editor.click("3,2")
    editor.counters[(0, "pikeman@bag")].value = 0
    assert "2 coins of Side A out of the game (2 Pikeman)" in editor.status.value  # a study
    editor.fields["initiative"].value = "Side B"
    state = editor.state
    assert state.initiative == 1 and state.current_player == 0 and editor.text.value == state.to_text()
    assert "3,2:0:swordsman:1;3,3:1:archer:1" in state.to_text() and ((3, 2), 0) in state.control
    # rulebook l.181: one Swordsman unit on the board, so placing it on 3,4 moves it there
    editor.choose("swordsman×3")
    editor.click("3,4")
    moved = editor.state
    assert "3,3:1:archer:1;3,4:0:swordsman:3" in moved.to_text() and ((3, 2), 0) in moved.control
    assert editor.counters[(0, "swordsman@supply")].value == 0
    editor.choose("swordsman×5")
    editor.click("3,4")  # the fifth coin is in hand: no pile holds it, refused, nothing changes
    assert editor.state == moved and 'role="alert"' in editor.status.value
    assert editor.counters[(0, "swordsman@supply")].value == 0
    editor.choose(REMOVE)
    editor.click("off the map")
    assert editor.state == moved
    editor.play.click()
    assert played == [moved]
    # rulebook l.211-212: the attacked unit loses a coin; with one coin it leaves the board
    after = moved.apply("attack swordsman 3,4 3,3")
    assert (3, 3) not in after.board and after.eliminated[1] == ("archer",)
    # Remove gives the coins back: the supply holds the three again
    editor.click("3,4")
    assert editor.counters[(0, "swordsman@supply")].value == 3 and "3,4" not in editor.text.value


def test_the_editor_widget_builds_a_4_player_study_and_plays_from_it():
    played = []
    editor = PositionEditor(PLAY_4P, played.append)
    editor.choose("scout")
    editor.click("3,3")  # the coin comes from the supply, no counter touched
    editor.choose("archer")
    editor.click("3,5")
    editor.choose("marker-B")
    editor.click("3,4")  # rulebook l.299: the team's markers, shared
    editor.fields["initiative"].value = "Player B1"
    editor.to_move.value = 1
    state = editor.state
    assert state.current_player == 1 and state.initiative == 1 and ((3, 4), 1) in state.control
    assert GAME_4P.from_text(editor.text.value) == state
    editor.play.click()
    assert played == [state]
    # NOTES.md: the Archer's tactic attacks a unit exactly two hexes away
    assert "tactic archer 3,5 3,3" in [str(m) for m in state.legal_moves()]
    after = state.apply("tactic archer 3,5 3,3")
    assert (3, 3) not in after.board and after.eliminated[2] == ("scout",)


@pytest.mark.parametrize("players", [2, 4])
def test_the_explorer_offers_the_editor_in_the_all_seeing_view(players):
    # NOTES.md "Hidden information": hands and face-down discards are private, so the editor
    # (which shows every coin) opens only in the all-seeing view
    explorer = widgets.Explorer("war-chest", players=players, seed=1)
    explorer.edit_toggle.value = True  # a player's view: refused
    assert explorer.edit_toggle.value is False and explorer.editor_box.children == ()
    explorer.perspective.value = ALL_SEEING
    assert explorer.edit_toggle.layout.display != "none"
    explorer.edit_toggle.value = True
    (editor,) = explorer.editor_box.children
    assert editor.state == explorer.state and editor.counters
    editor.play.click()
    assert explorer.edit_toggle.value is False and explorer.state.to_text() == editor.state.to_text()


def test_an_edit_before_the_armies_are_chosen_says_so_by_field():
    """At the deal (and in the draft) no coin is known yet: an edit is refused as a position
    text is, naming the turn, never a KeyError reaching the page (it was KeyError: 'deal')."""
    start = rk.load_game("war-chest").initial_state()
    with pytest.raises(rk.PositionTextError, match="armies are not chosen yet") as refused:
        start.edit(to_move=0)
    assert refused.value.field == "turn"
