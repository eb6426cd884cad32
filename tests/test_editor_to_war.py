"""The board editor for To War!: the kernel's `edit` hooks (each army's cards on the 3x4 field,
counted in reserve, hand and discards, the side to move, the phase and what a turn leaves
between its actions), each edit read back from its position text, so checked as one is; the
editor widget and the explorer's Edit toggle (all-seeing view only: the reserves are hidden).
A card put on the field is taken from its owner's reserve (then hand, then discards), and one
taken off goes back to the reserve, so a click never makes a card out of nothing.

The box (rules/to-war.de.txt, INHALT and KARTENÜBERSICHT): 17 cards per army; the default
armies are the Southern (Mamluk 6, Beduine 5, Saqāliba 4, Sarbaz 2) for the first player and
the Northern (Berserker 3, König 3, Reiter 3, Krieger 4, Bogenschütze 4) for the second."""

from __future__ import annotations

import random

import pytest

import rules_kernel as rk
import widgets
from rules_kernel.games.to_war import SQUARES as SQUARE
from widgets.editor import REMOVE, PositionEditor
from widgets.explorer import ALL_SEEING

GAME = rk.load_game("to-war")
START = GAME.initial_state()
#: every card of both reserves taken out: what is left is what an edit puts in
NO_RESERVES = {(p, f"{code}@reserve"): 0 for p in (0, 1) for code in GAME.army_codes(p)}
# the rulebook's first example as a diagram (as tests/test_study_positions.py's TW_STUDY), the
# Beduine drawn: Sarbaz b1, Saqāliba b2 before it, a Berserker on b4; one König left in reserve
STUDY_TEXT = (
    "-.0:SAR.-.-.0:SAQ.-.-.-.-.-.1:BER.- MAM=0,BED=0,SAQ=0,SAR=0/BER=0,KOE=1,REI=0,KRI=0,BOG=0 "
    "BED/- -/- w 6,6 - - 0"
)
STUDY = GAME.from_text(STUDY_TEXT)


def test_the_palette_is_each_armys_cards_on_the_field_and_in_three_piles():
    """ "wählt je eine Armee (ein Kartendeck einer Farbe) ... dies ist eure Reserve"; the drawn
    card is played from the hand ("decke die oberste Karte ... auf"); a beaten unit goes "auf
    den Ablagestapel" (the discards). Names as in the KARTENÜBERSICHT, each seat's own."""
    pieces = START.edit_pieces()
    on_field = {(p.key, p.name, p.owner) for p in pieces if p.on_board}
    assert on_field == {
        ("MAM", "Mamluk", 0),
        ("BED", "Beduine", 0),
        ("SAQ", "Saqāliba", 0),
        ("SAR", "Sarbaz", 0),
        ("BER", "Berserker", 1),
        ("KOE", "König", 1),
        ("REI", "Reiter", 1),
        ("KRI", "Krieger", 1),
        ("BOG", "Bogenschütze", 1),
    }
    counted = [p for p in pieces if p.in_hand]
    assert all(not p.on_board and p.key == f"{p.key.split('@')[0]}@{p.pile}" for p in counted)
    assert {p.pile for p in counted} == {"reserve", "hand", "discards"} and len(counted) == 3 * 9
    assert len({p.key for p in pieces}) == len(pieces)  # one key each (core.EditPiece)
    # the box: 17 cards an army, all in reserve before the set-up ("mischt sie")
    hands = START.edit_hands()
    assert sum(n for (p, key), n in hands.items() if p == 0 and key.endswith("@reserve")) == 17
    assert hands[(0, "MAM@reserve")] == 6 and hands[(1, "BER@reserve")] == 3


def test_placing_counting_and_the_turn_round_trip_through_the_position_text():
    """The rulebook's first example set up by editing: "Der Beduine (1) wird auf die Position
    des Sarbaz (2) gelegt" needs the Sarbaz on b1, the Saqāliba before it and the Beduine in
    hand; the rest of both armies is out of the game (a study position, NOTES.md). The cards
    placed come from the reserves; the counters, set after the placements, are exact."""
    state = START.edit(
        place={"b1": "SAR", "b2": "SAQ", "b4": "BER"},
        hands={**NO_RESERVES, (0, "BED@hand"): 1, (1, "KOE@reserve"): 1},
        fields={"phase": "in play"},
    )
    assert state.to_text() == STUDY_TEXT and state == STUDY
    assert GAME.from_text(state.to_text()) == state
    out = "14 cards of the Südliche Armee out of the game (6 Mamluk, 4 Beduine, 3 Saqāliba, 1 Sarbaz)"
    assert out in state.status()
    assert state.edit_hands()[(0, "BED@hand")] == 1 and state.edit_fields()["phase"][0] == "in play"
    assert "BED@b1" in [str(m) for m in state.legal_moves()]
    # a beaten Berserker on the Ablagestapel, the Saqāliba taken off (back to the reserve), Black to move
    edited = state.edit(place={"b2": None}, hands={(1, "BER@discards"): 1, (0, "BED@hand"): 0}, to_move=1)
    assert edited.to_text().startswith("-.0:SAR.-.-.-.-.-.-.-.-.1:BER.- MAM=0,BED=0,SAQ=1,SAR=0/")
    assert " -/- -/BER b 6,6 - - 0" in edited.to_text()
    assert edited.edit_hands()[(1, "BER@discards")] == 1 and edited.current_player == rk.CHANCE
    assert edited.chance_for == 1  # Black draws the König
    assert GAME.from_text(edited.to_text()) == edited


def test_the_set_up_phase_counts_the_cards_on_the_field():
    """ "Beginnst du, dann lege die oberste Karte deiner Reserve offen in die Tischmitte.
    Anschließend legt die Gegenseite ihre oberste Karte gegenüber an": a Mamluk in the middle
    of the first player's front rank (b2), the second to move; its first card goes on b3."""
    state = START.edit(place={"b2": "MAM"}, to_move=1)  # the Mamluk from the Reserve
    assert state.to_text().endswith(" -/- -/- b 1,0 - - 0") and state.status() == []
    assert state.edit_hands()[(0, "MAM@reserve")] == 5
    assert state.edit_fields()["phase"] == ("set-up", ("set-up", "in play"))
    assert [str(m) for m in state.apply("draw:BER").legal_moves()] == ["BER@b3"]
    alternating = START.edit(place={"b2": "MAM"})
    told = "cannot be with the Südliche Armee to move"  # told, not refused
    assert any(told in remark for remark in alternating.status())
    # "innerhalb eurer Hälfte": a first-player card in the second's half is no set-up
    with pytest.raises(rk.PositionTextError) as caught:
        state.edit(place={"a4": "SAR"})
    assert caught.value.field == "placed"
    assert state.edit(fields={"phase": "in play"}).to_text().endswith(" b 6,6 - - 0")


def test_a_push_in_progress_is_set_through_the_turn_fields():
    """ "Wenn sich dort bereits eine Einheit befindet, wird diese von der neuen Karte verdrängt.
    Bewege die verdrängte Einheit dann einen Schritt": the Beduine waiting for b1 while the
    Sarbaz steps on is the position the placement reaches (no history: ply 0)."""
    pushed = STUDY.edit(hands={(0, "BED@hand"): 0}, fields={"push": "Beduine pushing onto b1"})
    assert pushed == STUDY.apply("BED@b1") and pushed.ply == 0
    assert pushed.to_text().endswith(" w 6,6 b1,must,0:BED,-,- - 0")
    assert sorted(str(m) for m in pushed.legal_moves()) == ["b1a1", "b1b2", "b1c1"]  # the Sarbaz: ↕
    now, pushes = pushed.edit_fields()["push"]
    assert now == "Beduine pushing onto b1" and pushes[0] == "none" and "Mamluk pushing onto b2" in pushes
    assert GAME.from_text(pushed.to_text()) == pushed
    # the bar under the arrow ("einen zweiten Schritt machen darf"): only a two-step unit may go
    # on without a card pushing in; the Sarbaz has none (the provisional table: one step)
    assert "b1 may step again" not in pushes
    with pytest.raises(rk.PositionTextError) as caught:
        pushed.edit(fields={"push": "b1 may step again"})
    assert caught.value.field == "chain"
    back = pushed.edit(fields={"push": "none"}, hands={(0, "BED@hand"): 1})
    assert back == STUDY
    # "Der zweite Schritt kann in die gleiche oder eine andere Richtung oder gar nicht erfolgen"
    second = STUDY.edit(place={"a2": "BED"}, hands={(0, "BED@hand"): 0}, fields={"push": "a2 may step again"})
    assert second.to_text().endswith(" w 6,6 a2,may,-,-,- - 0")
    assert sorted(str(m) for m in second.legal_moves()) == ["a2a3", "a2b2", "stop"]


def test_a_breakthrough_is_a_turn_field_and_ends_the_game():
    """ "Gelingt dir ... der Durchbruch ins gegnerische Lager, endet das Spiel sofort und du
    gewinnst": the unit that broke through is the mover's, and nothing steps on after it."""
    won = STUDY.edit(hands={(0, "BED@hand"): 0}, fields={"breakthrough": "Beduine"})
    assert won.outcome() == rk.Outcome.win(0, "breakthrough into the opponent's camp")
    assert won.to_text().endswith(" w 6,6 - 0:BED 0") and GAME.from_text(won.to_text()) == won
    pushed = STUDY.apply("BED@b1")
    with pytest.raises(rk.PositionTextError) as caught:
        pushed.edit(fields={"breakthrough": "Mamluk"})
    assert caught.value.field == "breakthrough"


def test_a_hand_larger_than_the_rules_deal_is_told_not_refused():
    """One card a turn ("decke die oberste Karte deiner Reserve auf"); three only in the
    "VARIANTE FÜR MEHR STRATEGIE" ("je drei Karten")."""
    two = STUDY.edit(hands={(0, "BED@hand"): 2})
    assert "player 0 holds 2 cards; at most 1 here (one card a turn)" in two.status()
    strategic = rk.load_game("to-war", strategic=True).from_text(STUDY_TEXT)
    three = strategic.edit(hands={(0, "MAM@hand"): 2})
    assert not any("holds" in remark for remark in three.status())
    assert three.to_text().split()[2] == "BED,MAM,MAM/-"


@pytest.mark.parametrize("strategic", [False, True])
def test_every_position_of_play_reads_back_from_an_edit_that_keeps_its_fields(strategic):
    """Random games, both rule sets: an edit that sets every counter and field to what it is
    gives the same position (mid-push ones included: the trails stay where the cards stand)."""
    game = rk.load_game("to-war", strategic=strategic)
    for seed in range(4):
        rng, state = random.Random(seed), game.initial_state()
        while not state.is_terminal():
            fields = {name: now for name, (now, _) in state.edit_fields().items()}
            same = state.edit(hands=state.edit_hands(), fields=fields, to_move=state.side)
            assert same == state and same.edit_fields() == state.edit_fields()
            if state.current_player == rk.CHANCE:
                state = state.apply(state.sample_chance(rng))
            else:
                state = state.apply(rng.choice(state.legal_moves()))
        assert state.edit() == state


@pytest.mark.parametrize(
    ("change", "field"),
    [
        # KARTENÜBERSICHT: "Sarbaz (Soldat) 2"; b1 holds one, a1 and c1 would make three
        ({"place": {"a1": "SAR", "c1": "SAR"}}, "reserves"),
        ({"hands": {(0, "MAM@reserve"): 7}}, "reserves"),  # "Mamluk ... 6"
        ({"hands": {(1, "BER@discards"): 3}}, "reserves"),  # "Berserker 3", one on b4
        ({"hands": {(0, "MAM@reserve"): 10**100}}, "reserves"),
        # "wählt je eine Armee": a Western card is in neither army of this game
        ({"place": {"a1": "RIT"}}, "grid"),
        ({"place": {"z9": "MAM"}}, "grid"),
        ({"hands": {(0, "MAM@hand"): -1}}, "hands"),
        ({"hands": {(0, "MAM@bag"): 1}}, "hands"),
        ({"hands": {(1, "MAM@reserve"): 1}}, "hands"),  # "Ihr habt jeweils eine eigene Reserve"
        ({"to_move": 2}, "side"),
        ({"to_move": True}, "side"),
        ({"fields": {"phase": "battle"}}, "placed"),
        ({"fields": {"initiative": "w"}}, "fields"),
        # "Die beiden zuerst platzierten Karten müssen stets in der Mitte liegen": b3 is empty
        ({"fields": {"phase": "set-up"}}, "grid"),
        ({"fields": {"push": "Beduine pushing onto c1"}}, "chain"),  # no unit there to displace
        ({"fields": {"push": "Beduine pushing onto b4"}}, "chain"),  # the Berserker is not the mover's
        ({"fields": {"breakthrough": "Berserker"}}, "breakthrough"),
    ],
)
def test_an_edit_beyond_the_box_or_the_rules_is_refused_naming_the_field(change, field):
    with pytest.raises(rk.PositionTextError) as caught:
        STUDY.edit(**change)
    assert caught.value.field == field
    assert STUDY.to_text() == STUDY_TEXT


def test_a_refused_edit_applies_none_of_its_parts():
    """A valid placement (the Beduine from the hand) with an over-box count ("Beduine ... 5":
    five discarded and one on a1) is refused whole."""
    with pytest.raises(rk.PositionTextError) as caught:
        STUDY.edit(place={"a1": "BED"}, hands={(0, "BED@discards"): 5}, to_move=1)
    assert caught.value.field == "reserves"
    assert STUDY.grid[0] is None and STUDY.hands == (("BED",), ()) and STUDY.side == 0
    # a refused placement among good ones: the Mamluk has no copy left anywhere in the study
    with pytest.raises(rk.PositionTextError) as caught:
        STUDY.edit(place={"a1": "BED", "c1": "MAM"})
    assert caught.value.field == "reserves" and STUDY.to_text() == STUDY_TEXT


def test_a_placement_takes_the_card_from_its_owners_reserve():
    """ "legt sie verdeckt vor euch ab – dies ist eure Reserve": the start position has every
    card in reserve, and a card put on the field is one of them, so the first click works."""
    placed = START.edit(place={"b2": "MAM"})
    assert placed.grid[SQUARE["b2"]] == (0, "MAM")
    assert placed.edit_hands()[(0, "MAM@reserve")] == START.edit_hands()[(0, "MAM@reserve")] - 1 == 5
    assert {k: n for k, n in placed.edit_hands().items() if k != (0, "MAM@reserve")} == {
        k: n for k, n in START.edit_hands().items() if k != (0, "MAM@reserve")
    }
    assert not any("out of the game" in remark for remark in placed.status())  # no card made or lost
    # "Sarbaz (Soldat) 2": two clicks take both (in play: the set-up starts on b2), the third
    # finds none in any pile
    both = START.edit(fields={"phase": "in play"}).edit(place={"a1": "SAR", "c1": "SAR"})
    assert both.edit_hands()[(0, "SAR@reserve")] == 0
    with pytest.raises(rk.PositionTextError) as caught:
        both.edit(place={"b1": "SAR"})
    assert caught.value.field == "reserves" and "b1" in str(caught.value) and "SAR" in str(caught.value)


def test_a_placement_takes_from_the_hand_then_the_discards_when_the_reserve_has_none():
    """The reserve first (where every card is played from: "decke die oberste Karte deiner
    Reserve auf und lege sie ..."), then the drawn card in hand, and only then a card from the
    Ablagestapel (a beaten unit, out of play)."""
    state = STUDY.edit(hands={(0, "BED@discards"): 1})  # BED: none in reserve, one in hand, one discarded
    from_hand = state.edit(place={"a1": "BED"})
    assert from_hand.hands[0] == () and from_hand.discards[0] == ("BED",)
    from_discards = from_hand.edit(place={"c1": "BED"})
    assert from_discards.hands[0] == () and from_discards.discards[0] == ()
    with pytest.raises(rk.PositionTextError) as caught:  # all five out of the game but two on the field
        from_discards.edit(place={"a2": "BED"})
    assert caught.value.field == "reserves" and "a2" in str(caught.value)
    # the counters are set after the placements, so one in the same edit cannot supply the card;
    # a study position's card out of the game comes back by a counter first, then a click
    with pytest.raises(rk.PositionTextError):
        from_discards.edit(place={"a2": "BED"}, hands={(0, "BED@reserve"): 1})
    back = from_discards.edit(hands={(0, "BED@reserve"): 1}).edit(place={"a2": "BED"})
    assert back.grid[SQUARE["a2"]] == (0, "BED") and back.edit_hands()[(0, "BED@reserve")] == 0


def test_a_replaced_or_removed_card_goes_back_to_its_owners_reserve():
    """Replacing the Sarbaz on b1 by the Beduine in hand: the Sarbaz goes back to the reserve
    (it is no beaten unit: no "Ablagestapel"), and so does a card taken off; a card of the
    other army replacing it comes from that army's own reserve ("eine eigene Reserve")."""
    replaced = STUDY.edit(place={"b1": "BED"})
    assert replaced.grid[SQUARE["b1"]] == (0, "BED") and replaced.hands[0] == ()
    assert replaced.edit_hands()[(0, "SAR@reserve")] == 1
    removed = replaced.edit(place={"b1": None})
    assert removed.grid[SQUARE["b1"]] is None and removed.edit_hands()[(0, "BED@reserve")] == 1
    black = STUDY.edit(place={"b1": "KOE"})
    assert black.grid[SQUARE["b1"]] == (1, "KOE")
    assert black.edit_hands()[(1, "KOE@reserve")] == 0 and black.edit_hands()[(0, "SAR@reserve")] == 1
    # the squares of one edit are emptied first: a swap needs no spare card
    swapped = STUDY.edit(place={"b1": "SAQ", "b2": "SAR"})
    assert swapped.grid[SQUARE["b1"]] == (0, "SAQ") and swapped.grid[SQUARE["b2"]] == (0, "SAR")
    assert swapped.reserves == STUDY.reserves and swapped.hands == STUDY.hands
    # the same card put back where it stands changes nothing
    assert STUDY.edit(place={"b1": "SAR"}) == STUDY


def test_the_counters_keep_their_exact_meaning_beside_a_placement():
    """A counter is the count after the edit: set with a placement of the same card, it wins."""
    exact = START.edit(place={"b2": "MAM"}, hands={(0, "MAM@reserve"): 2}, to_move=1)
    assert exact.edit_hands()[(0, "MAM@reserve")] == 2
    assert "3 cards of the Südliche Armee out of the game (3 Mamluk)" in exact.status()
    with pytest.raises(rk.PositionTextError) as caught:  # "Mamluk ... 6": six in reserve, one on b2
        START.edit(place={"b2": "MAM"}, hands={(0, "MAM@reserve"): 6})
    assert caught.value.field == "reserves"


def test_the_editor_widget_builds_the_rulebooks_example_and_plays_from_it():
    """The rulebook's first example ("Der Beduine (1) wird auf die Position des Sarbaz (2)
    gelegt ... Der Sarbaz (2) verdrängt anschließend den Saqāliba (3)") set up by clicking
    (each card from the reserve) and counting, then played: the Beduine placed on b1 pushes
    the Sarbaz on."""
    played = []
    editor = PositionEditor(START, played.append)
    editor.fields["phase"].value = "in play"
    for key, cell in (("SAR", "b1"), ("SAQ", "b2"), ("BER", "b4"), ("SAR", "a1")):
        editor.choose(key)
        editor.click(cell)
        assert 'role="alert"' not in editor.status.value
    assert editor.counters[(0, "SAR@reserve")].value == 0 and editor.counters[(0, "SAQ@reserve")].value == 3
    assert editor.counters[(1, "BER@reserve")].value == 2
    before = editor.state
    editor.click("c1")  # a third Sarbaz: the army has two, both on the field
    assert editor.state == before and 'role="alert"' in editor.status.value
    editor.counters[(0, "SAR@discards")].value = 1  # a third again, discarded
    assert editor.counters[(0, "SAR@discards")].value == 0 and editor.state == before
    editor.choose(REMOVE)
    editor.click("a1")  # the Sarbaz back to the reserve
    assert editor.counters[(0, "SAR@reserve")].value == 1
    for (_, key), counter in editor.counters.items():  # the rest out of the game
        if key.endswith("@reserve"):
            counter.value = 0
    editor.counters[(0, "BED@hand")].value = 1
    editor.counters[(1, "KOE@reserve")].value = 1
    assert editor.text.value == STUDY_TEXT and "out of the game" in editor.status.value
    editor.to_move.value = 1
    editor.to_move.value = 0
    editor.play.click()
    (start,) = played
    assert start == STUDY
    pushed = start.apply("BED@b1")
    assert pushed.entering == (0, "BED") and "b1b2" in [str(m) for m in pushed.legal_moves()]


def test_the_editor_widget_sets_the_turn_fields():
    """The push in progress as a dropdown (the Sarbaz "verdrängt", the Beduine waiting)."""
    editor = PositionEditor(STUDY, lambda state: None)
    editor.counters[(0, "BED@hand")].value = 0
    editor.fields["push"].value = "Beduine pushing onto b1"
    assert editor.state == STUDY.apply("BED@b1")
    assert editor.text.value == editor.state.to_text()
    editor.choose(REMOVE)
    editor.click("b1")  # the pushed Sarbaz taken away: the push has no unit to step on
    assert editor.state == STUDY.apply("BED@b1") and 'role="alert"' in editor.status.value
    editor.fields["push"].value = "none"
    assert editor.state.active is None and editor.fields["push"].value == "none"


def test_the_explorer_offers_the_editor_in_the_all_seeing_view_and_plays_from_it():
    hidden_hands = widgets.Explorer("to-war", strategic=True)
    hidden_hands.edit_toggle.value = True  # a player's view: the editor would show the other's hand
    assert hidden_hands.edit_toggle.value is False and hidden_hands.editor_box.children == ()
    explorer = widgets.Explorer("to-war")
    # plain To War! hides nothing from either player (issue 46 item 5): the whole board at once
    assert explorer.perspective.value == ALL_SEEING
    assert explorer.edit_toggle.layout.display != "none"
    explorer.edit_toggle.value = True
    (editor,) = explorer.editor_box.children
    editor.load_text(START.to_text())  # the explorer has drawn the first card: back to the start
    assert editor.state == START
    editor.choose("MAM")
    editor.click("b2")  # "lege die oberste Karte deiner Reserve offen in die Tischmitte": no counter touched
    assert 'role="alert"' not in editor.status.value and editor.counters[(0, "MAM@reserve")].value == 5
    editor.to_move.value = 1
    edited = editor.state
    assert edited.to_text().endswith(" -/- -/- b 1,0 - - 0") and edited.status() == []
    editor.play.click()
    assert explorer.edit_toggle.value is False and explorer.editor_box.children == ()
    # the explorer draws for the second player, whose first card goes "gegenüber" (b3)
    assert explorer.state.grid == edited.grid and explorer.state.current_player == 1
    assert {str(m).split("@")[1] for m in explorer.state.legal_moves()} == {"b3"}
