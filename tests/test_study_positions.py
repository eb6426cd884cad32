"""Study positions (issue #24 item 1): a position text may hold less than the box, like the
rulebooks' own diagrams of a few pieces; what is not listed is out of the game. `from_text`
reads it, `state.status()` says what is unusual about it, the game plays on from it, and what
is hidden is drawn only from what is still in the game. More than the box stays an error
naming the field.
"""

from __future__ import annotations

import random

import pytest
from playing import SETTINGS, random_game

import rules_kernel as rk
from rules_kernel.games.war_stories import ASHIGARU

G3 = rk.load_game("yokai-3x4")
G5 = rk.load_game("yokai-5x6")


def play_to_the_end(state: rk.State, seed: int = 1, cap: int = 2000) -> rk.State:
    """A random game from `state` (chance by its probabilities) until it ends or `cap`."""
    rng = random.Random(seed)
    for _ in range(cap):
        if state.is_terminal():
            break
        if state.current_player == rk.CHANCE:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    return state


def refused(game: rk.Game, text: str) -> rk.PositionTextError:
    with pytest.raises(rk.PositionTextError) as info:
        game.from_text(text)
    return info.value


# --- every game: positions play reaches have no remarks -----------------------------------------


@pytest.mark.parametrize("name, options", SETTINGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_positions_reached_by_play_have_an_empty_status(name, options, seed):
    """`status()` remarks only on what no game from the start reaches: every position of a
    random game (and its text read back) has none."""
    game = rk.load_game(name, **options)
    states, _ = random_game(game, seed, cap=300)
    for state in states[::3] + [states[-1]]:
        assert state.status() == [], (state.to_text(), state.status())
        again = game.from_text(state.to_text())
        assert again.status() == []
        for player in range(game.num_players):  # a player's view of it too
            assert state.view(player).status() == [], (player, state.to_text())


# --- Yōkai no Mori --------------------------------------------------------------------------


def test_yokai_tsume_study_plays_and_ends():
    """A 5x6 study of three pieces: the rulebook's 5x6 "Spezifische Regeln" (royal
    Koropokkuru: no legal move = lost) apply to it as to a full game."""
    state = G5.from_text("2k2/5/1G+S2/5/5/2K2[] w - - 0 1")
    assert state.status() == ["12 pieces out of the game (6 Kodama, 3 Kirin, 3 Oni)"]
    assert state.legal_moves()
    mated = state.apply("c4c5")
    assert mated.is_terminal() and mated.outcome().winner == 0
    assert G5.from_text(state.to_text()) == state


def test_yokai_a_koropokkuru_left_attacked_can_be_taken_and_that_wins():
    """5x6: the game is won by capturing the Koropokkuru (rulebook: "Ziel des Spiels ist es,
    den Koropokkuru des Gegners zu schlagen"). Play never leaves one attacked; a study
    position may, and then taking it ends the game."""
    state = G5.from_text("2k2/2P2/5/5/5/2K2[] w - - 0 1")
    assert "the Koropokkuru of the side not to move (Second player) can be taken" in state.status()
    taken = state.apply("c5c6+")
    assert taken.outcome() == rk.Outcome.win(0, "the Koropokkuru was captured")
    assert G5.from_text(taken.to_text()) == taken


def test_yokai_without_a_koropokkuru():
    """A side without its Koropokkuru: in 3x4 the game is over (the capture ends it, NOTES.md);
    in 5x6 that side plays on (a tsume problem's attacker) and loses only by having no move."""
    over = G3.from_text("1l1/3/1C1/3[] w - - 0 1")
    assert "no Koropokkuru for the First player" in over.status()
    assert over.outcome().winner == 1
    study = G5.from_text("2k2/5/2+P2/5/5/5[G] w - - 0 1")
    assert "no Koropokkuru for the First player" in study.status()
    assert not study.is_terminal() and study.legal_moves()
    assert play_to_the_end(study).status()  # still a study position wherever it goes


def test_yokai_over_the_box_is_refused_naming_the_field():
    """The box: 2 Kodama in 3x4 (NOTES.md); one Koropokkuru a side."""
    error = refused(G3, "1l1/ccc/3/L2[] w - - 0 1")
    assert error.field == "board and hands" and "3 Kodama" in error.why
    error = refused(G5, "5/5/5/5/5/KK3[] w - - 0 1")
    assert error.field == "board" and "2 Koropokkuru" in error.why


# --- War Stories ---------------------------------------------------------------------------

WS = rk.load_game("war-stories")
WS_SQUARES = [f"{f}{r}" for r in range(1, 8) for f in "abcdef"]


def ws_text(
    pieces: str, cards: dict[str, str], side: str = "w", revealed: str = "-", removed: str = "-"
) -> str:
    """A War Stories position text: pieces FEN-like (rank 7 first), cards by square."""
    entries = ".".join(cards.get(square, "-") for square in WS_SQUARES)
    return f"{pieces} {entries} {side} - {revealed} 00 0 {removed}"


# a rulebook-like diagram: the Daimyos, a Shinobi, an Ashigaru, four cards
WS_STUDY = ws_text("2d3/6/6/6/6/2A3/2DS2", {"a3": "asr", "b5": "asr", "e5": "ki", "f6": "he"})


def test_war_stories_study_position_accepted_played_and_told():
    """A diagram with a few pieces and cards (the rulebook's "Spelvoorbereiding" lays out all
    38; a study lays out some): the rest is out of the game."""
    state = WS.from_text(WS_STUDY)
    assert state.status() == [
        "34 board cards out of the game",
        "1 Ashigaru on the board but 0 Engun of them removed",
    ]
    assert len(state.out_of_game) == 34 and "ki" in state.out_of_game
    assert "flip:a3" in map(str, state.legal_moves()) and "c2c6" in map(str, state.legal_moves())
    assert WS.from_text(state.to_text()) == state
    # Engun from the study's pair: "Als een speler er in zijn beurt in slaagt, 2 dezelfde
    # Legerkaarten om te draaien ... verdient daarmee de op de bordkaarten afgebeelde pion"
    engun = state.play("flip:a3", "flip:b5")
    assert engun.pieces.count(ASHIGARU) == 2
    play_to_the_end(state, cap=400)  # random play from the study: every move applies
    # Kyousei in a study: "een speler wiens Daimyo aangevallen wordt, moet de Daimyo verplaatsen"
    kyousei = WS.from_text(ws_text("2d3/6/2S3/6/6/6/2D3", {}, side="b"))
    assert kyousei.legal_moves() and all(str(m).startswith("c7") for m in kyousei.legal_moves())


def test_war_stories_haisen_ends_a_study():
    """ "Het spel is afgelopen, als een van de Daimyo's Haisen staat" (NOTES.md): the Daimyo
    attacked with nowhere safe to go, in a study position with two pieces."""
    state = WS.from_text(ws_text("d5/2S3/1S4/6/6/6/2D3", {}, side="w"))
    after = state.apply("b5b6")
    assert after.is_terminal() and after.outcome().winner == 0 and "Haisen" in after.outcome().reason


def test_war_stories_fewer_than_two_cards_flips_what_there_is():
    """NOTES.md ruling: "With fewer than two face-down cards left, the player flips what there
    is; no pair, no Engun. With none left, flipping is not a legal move." A study position
    with one card left, counted from the position (not from the box)."""
    state = WS.from_text(ws_text("2d3/6/6/6/6/6/2D3", {"a3": "asr"}))
    after = state.apply("flip:a3")
    assert after.side == 1 and after.cards[WS_SQUARES.index("a3")] == "asr"  # turned back: turn over
    assert after.pieces.count(ASHIGARU) == 0  # no pair, no Engun
    bare = WS.from_text(ws_text("2d3/6/6/6/6/6/2D3", {}))
    assert not [m for m in bare.legal_moves() if str(m).startswith("flip")]
    assert bare.status() == ["38 board cards out of the game"]


def test_war_stories_hidden_pool_never_deals_an_out_of_game_card():
    """The cards a hidden one may be: the box minus those seen, removed and out of the game
    (docs/games/war-stories.md). The view writes what is out (it cannot derive it)."""
    state = WS.from_text(WS_STUDY)
    view = state.view(1)
    assert view.out == state.out_of_game and "out:" in view.to_text()
    assert WS.from_text(view.to_text()) == view
    assert sorted(view.hidden_pool().elements()) == ["asr", "asr", "he", "ki"]
    for seed in range(20):
        dealt = view.determinize(random.Random(seed))
        assert sorted(c for c in dealt.cards if c) == ["asr", "asr", "he", "ki"]
        assert dealt.status() == state.status()


def test_war_stories_over_the_box_is_refused_naming_the_field():
    """NOTES.md: 6 Ki, 2 copies of each army card; one Daimyo a side; 4 reinforcements of a
    kind (12 for the 12 Engun pairs)."""
    cards = {square: "ki" for square in ["a2", "b2", "c2", "d2", "e2", "f2", "a3"]}
    error = refused(WS, ws_text("2d3/6/6/6/6/6/2D3", cards))
    assert error.field == "cards" and "7 x Ki" in error.why
    error = refused(WS, ws_text("2dd2/6/6/6/6/6/2D3", {}))
    assert error.field == "pieces" and "Black has 2 Daimyo" in error.why
    error = refused(WS, ws_text("2d3/6/6/6/AAAAA1/6/2D3", {}))
    assert error.field == "pieces" and "5 Ashigaru; the box has 4" in error.why
    error = refused(WS, WS.from_text(WS_STUDY).view(0).to_text().replace(" out:", " out:ki,ki,ki,ki,ki,ki,"))
    assert error.field == "out"


# --- To War! --------------------------------------------------------------------------------

TW = rk.load_game("to-war")  # southern (MAM, BED, SAQ, SAR) against northern (BER, KOE, REI, KRI, BOG)


def tw_text(grid: dict[str, str], reserves: str, hands: str = "-/-", side: str = "w") -> str:
    """A To War! text after the set-up: units by square like {"b2": "0:SAR"}."""
    squares = [f"{f}{r}" for r in range(1, 5) for f in "abc"]
    cells = ".".join(grid.get(square, "-") for square in squares)
    return f"{cells} {reserves} {hands} -/- {side} 6,6 - - 0"


# the rulebook's first example (Bedouin, Sarbaz, Saqāliba) as a diagram of four cards
TW_STUDY = tw_text(
    {"b1": "0:SAR", "b2": "0:SAQ", "b4": "1:BER"},
    "MAM=0,BED=1,SAQ=0,SAR=0/BER=0,KOE=1,REI=0,KRI=0,BOG=0",
)


def test_to_war_study_position_accepted_played_and_told():
    """The rulebook's example: "Der Beduine (1) wird auf die Position des Sarbaz (2) gelegt
    ... Der Sarbaz (2) verdrängt anschließend den Saqāliba (3) vor sich" (NOTES.md), from a
    diagram of four cards; the rest of both armies is out of the game."""
    state = TW.from_text(TW_STUDY)
    assert state.status() == [
        "14 cards of the Südliche Armee out of the game (6 Mamluk, 4 Beduine, 3 Saqāliba, 1 Sarbaz)",
        "15 cards of the Nordische Armee out of the game "
        "(2 Berserker, 2 König, 3 Reiter, 4 Krieger, 4 Bogenschütze)",
    ]
    assert TW.from_text(state.to_text()) == state
    placed = state.play("draw:BED", "BED@b1")
    assert placed.active == 1 and placed.entering == (0, "BED")  # the Sarbaz must step on, pushed
    ended = play_to_the_end(state)
    assert ended.is_terminal() and ended.status() == state.status()


def test_to_war_empty_reserve_passes_until_both_are_spent():
    """ "Das Spiel endet, wenn ... Beide Reserven sind aufgebraucht" (to-war.de.txt, SPIELENDE):
    the count follows the position. A player whose reserve and hand are empty while the other
    still has cards passes (ruling, docs/games/to-war.md); when both are spent, more units on
    the field win."""
    state = TW.from_text(
        tw_text(
            {"a1": "0:SAR", "c2": "0:SAQ", "b4": "1:BER"},
            "MAM=0,BED=0,SAQ=0,SAR=0/BER=0,KOE=2,REI=0,KRI=0,BOG=0",
        )
    )
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    (move,) = state.legal_moves()  # clicked on the "Pass" entry of the empty hand
    assert move.cells[0] in {item.cell for zone in state.scene().zones for item in zone.items}
    assert state.action_text("pass") == "passes: no card left in reserve or hand"
    after = state.apply("pass")
    assert after.current_player == rk.CHANCE and after.chance_for == 1
    ended = play_to_the_end(state)
    assert ended.is_terminal() and ended.outcome().reason.startswith("both reserves spent")
    spent = TW.from_text(
        tw_text(
            {"a1": "0:SAR", "b4": "1:BER", "c4": "1:KOE"},
            "MAM=0,BED=0,SAQ=0,SAR=0/BER=0,KOE=0,REI=0,KRI=0,BOG=0",
        )
    )
    assert spent.outcome() == rk.Outcome.win(1, "both reserves spent: 1 to 2 units on the field")


def test_to_war_hidden_pool_is_the_reserve_as_listed():
    """Strategic variant ("zieht ... je drei Karten von eurer Reserve"): the opponent's hand is
    hidden, drawn from that reserve's counts, which hold only what is in the game (the army
    minus what is seen and out of the game), so a study never deals an out-of-game card."""
    game = rk.load_game("to-war", strategic=True)
    state = game.from_text(
        tw_text(
            {"b1": "0:SAR", "b4": "1:BER"},
            "MAM=0,BED=2,SAQ=0,SAR=0/BER=0,KOE=1,REI=1,KRI=0,BOG=0",
            "-/BER,KOE",
        )
    )
    view = state.view(0)
    assert view.hands[1] == ("?", "?")
    assert game.from_text(view.to_text()) == view and view.status() == state.status()
    for seed in range(20):
        hand = view.determinize(random.Random(seed)).hands[1]
        assert len(hand) == 2 and set(hand) <= {"BER", "KOE", "REI"}


def test_to_war_over_the_box_is_refused_naming_the_field():
    """17 cards an army, 2 Sarbaz (the rulebook's card overview)."""
    error = refused(
        TW, tw_text({"a1": "0:SAR", "b1": "0:SAR"}, "MAM=0,BED=0,SAQ=0,SAR=1/BER=1,KOE=0,REI=0,KRI=0,BOG=0")
    )
    assert error.field == "reserves" and "3 Sarbaz cards" in error.why


# --- War Chest ------------------------------------------------------------------------------

WC = rk.load_game("war-chest")
# five markers of Side A placed, a Swordsman on the neutral location 3,2: a diagram of two units
WC_CONTROL = "4,0:0;6,1:0;2,1:0;5,3:0;1,3:0;0,5:1;2,6:1"


def wc_study() -> rk.State:
    from rules_kernel.games.war_chest.text import compose

    return compose(WC, "3,2:0:swordsman:1;3,5:1:archer:1", ("swordsman", "archer"), control=WC_CONTROL)


def test_war_chest_study_position_accepted_played_and_told():
    """ "Het spel eindigt zodra een speler zijn laatste controlemarker plaatst" (the game ends
    the moment a player places their last control marker, NOTES.md): a study of two units and a
    few coins, the rest back in the box, ends with one control action."""
    state = wc_study()
    assert state.status() == [
        "16 coins of Side A out of the game (5 Crossbowman, 5 Light Cavalry, 4 Pikeman, 2 Swordsman)",
        "14 coins of Side B out of the game (1 Archer, 4 Cavalry, 4 Lancer, 5 Scout)",
    ]
    assert WC.from_text(state.to_text()) == state
    won = state.apply("control swordsman 3,2")
    assert won.outcome().winner == 0 and won.status() == state.status()
    play_to_the_end(state, cap=300)  # random play from the study: every action applies


def test_war_chest_hidden_pool_is_the_bag_as_listed():
    """ "De inhoud van elke zak is bekend door te tellen" (the contents of each bag are known by
    counting, NOTES.md): another player's hand is drawn from their bag counts, which hold only
    the coins in the game, so a study never deals or draws a coin that is back in the box."""
    state = wc_study()
    view = state.view(1)
    assert view.hands[0] == ("?",) and sorted(view.bags[0]) == ["royal", "swordsman", "swordsman"]
    assert WC.from_text(view.to_text()) == view and view.status() == state.status()
    for seed in range(10):
        assert view.determinize(random.Random(seed)).hands[0][0] in ("royal", "swordsman")
    # the next round's draw comes from the bag as listed, never from the box: "Als er geen
    # munten meer in de zak zitten, vult de speler zijn zak opnieuw met munten uit het
    # verwerpkanaal" (its two coins, then the discard pile shuffled back in)
    draw = state.play("pass swordsman", "pass archer")
    assert [str(o) for o, _ in draw.chance_outcomes()] == ["draw:royal,swordsman,swordsman"]


def test_war_chest_over_the_box_is_refused_naming_the_field():
    """NOTES.md: 5 Swordsman coins in the box; one unit of a type on the board (Footman: two)."""
    from rules_kernel.games.war_chest.text import compose

    with pytest.raises(rk.PositionTextError) as info:
        compose(WC, "3,3:0:swordsman:4", ("swordsman",), bags=("swordsman,royal", "royal"))
    assert info.value.field == "bags" and "6 Swordsman coins; the box holds 5" in info.value.why
    with pytest.raises(rk.PositionTextError) as info:
        compose(WC, "3,3:0:swordsman:1;3,4:0:swordsman:1", ("swordsman",))
    assert info.value.field == "units"


def test_war_chest_a_hand_of_four_is_told_not_refused():
    """ "Bij het begin van elke ronde trekt elke speler ... drie munten uit zijn zak": a hand of
    four is no game's, but a study may show one; it plays (`status()` says it)."""
    from rules_kernel.games.war_chest.text import compose

    state = compose(
        WC,
        "3,2:0:swordsman:1;3,5:1:archer:1",
        ("swordsman,swordsman,royal,swordsman", "archer"),
        bags=("-", "royal"),
    )
    assert "Side A holds 4 coins; a hand is at most 3" in state.status()
    assert state.legal_moves() and WC.from_text(state.to_text()) == state


def test_the_explorer_shows_a_study_positions_status_and_nothing_for_a_real_one():
    """Issue #24 item 1 in the explorer: the status sentences of a study position stand under
    the status line as a notice (never an error); a position reached by play shows none, and
    a player's view reads the status of its own view."""
    import widgets

    explorer = widgets.Explorer("yokai-3x4", position="1l1/1C1/3/1L1[] w - - 0 1")
    assert "Study position:" in explorer.study_status.value
    assert "5 pieces out of the game" in explorer.study_status.value
    assert 'role="alert"' not in explorer.study_status.value
    explorer.play("b3b4")
    assert "out of the game" in explorer.study_status.value  # they stay out
    assert widgets.Explorer("yokai-3x4").study_status.value == ""
    cards = widgets.Explorer("war-stories", seed=1)
    assert cards.viewer is not None and cards.study_status.value == ""
