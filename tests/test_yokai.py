"""Yōkai no Mori 3x4 and 5x6: perft, Fairy-Stockfish differential games, rulebook scenarios,
properties. Rulebook: rules/yokai-no-mori.de.txt; formulation: rules/NOTES.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_kernel as rk
from rules_kernel import records

G3 = rk.load_game("yokai-3x4")
G5 = rk.load_game("yokai-5x6")


def moves(state) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# --- perft: NOTES.md "perft from the start position (Fairy-Stockfish)" --------------------


@pytest.mark.parametrize("depth, leaves", [(1, 4), (2, 17), (3, 123), (4, 976), (5, 8122), (6, 71677)])
def test_perft_3x4(depth, leaves):
    assert rk.perft(G3.initial_state(), depth) == leaves


@pytest.mark.parametrize("depth, leaves", [(1, 16), (2, 250), (3, 4166)])
def test_perft_5x6(depth, leaves):
    assert rk.perft(G5.initial_state(), depth) == leaves


@pytest.mark.parametrize("game", [G3, G5])
def test_fast_perft_equals_generic_perft(game):
    """The bulk-counting perft on raw tuples must count what the public API generates."""
    state = game.initial_state().play(*(["b2b3", "c4b3"] if game is G3 else ["c3c4", "d4d3"]))
    assert rk.perft(state, 3) == rk.core._generic_perft(state, 3)


# --- differential games against Fairy-Stockfish (pyffish) --------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id, max_plies, games", [("yokai-3x4", 200, 100), ("yokai-5x6", 80, 50)])
@pytest.mark.parametrize("block", range(3))
def test_random_games_agree_with_fairy_stockfish(game_id, max_plies, games, block):
    """Random games in 3 blocks (300 of the 3x4 game, 150 of the 5x6: each position there
    costs pyffish about 6 ms): at every position the same legal moves, terminal status and
    winner as Fairy-Stockfish (repetition draws aside)."""
    from fsf_oracle import compare_random_game

    disagreements = [
        d
        for seed in range(block * games, block * games + games)
        if (d := compare_random_game(game_id, seed, max_plies))
    ]
    assert not disagreements, "\n".join(map(str, disagreements[:3]))


def test_oracle_recognises_fsf_drop_mate_as_the_only_difference():
    """Fairy-Stockfish lists a mating Kodama drop as legal (and scores it as a loss for the
    dropper); the rulebook (5x6, "Spezifische Regeln" 4) forbids it. In this position (from
    a random game) P@a5 mates: ours refuses it, FSF offers it."""
    import pyffish
    from fsf_oracle import is_fsf_drop_mate

    fen = "k2ps/2G1p/Sp2g/p1sP1/G1SG1/4K[P] w - - 0 25"
    assert "P@a5" in pyffish.legal_moves("gorogoro", fen, [])
    assert is_fsf_drop_mate("gorogoro", fen, "P@a5")
    state = G5.from_text(fen)
    assert "P@a5" not in moves(state)
    with pytest.raises(rk.IllegalMoveError, match="may not give checkmate"):
        state.apply("P@a5")


# --- 3x4 scenarios --------------------------------------------------------------------------


def test_start_position_3x4():
    """Rulebook: "Die Startposition der Yōkai ist auf dem nebenstehenden Bild"; NOTES.md:
    Kitsune a1, Koropokkuru b1, Tanuki c1, Kodama b2, mirrored for the second player."""
    s = G3.initial_state()
    assert s.piece_at("a1") == ("Kitsune", 0)
    assert s.piece_at("b1") == ("Koropokkuru", 0)
    assert s.piece_at("c1") == ("Tanuki", 0)
    assert s.piece_at("b2") == ("Kodama", 0)
    assert s.piece_at("b3") == ("Kodama", 1)
    assert s.piece_at("a4") == ("Tanuki", 1)
    assert s.current_player == 0


def test_capture_goes_to_the_hand_and_can_be_dropped():
    """Rulebook 2. "legt die gefangen genommene Figur ... in seine so genannte Reserve";
    3. "eine Figur aus seiner Reserve holen und ... auf irgendein freies Feld legen"."""
    s = G3.initial_state().apply("b2b3")
    assert s.hands[0][1] == 1 and s.to_text().startswith("gle/1C1/3/ELG[C] b")
    s = s.apply("c4b3")  # the Tanuki recaptures
    assert {m for m in moves(s) if "@" in m} == {"C@a2", "C@a3", "C@b2", "C@c2", "C@c3", "C@c4"}


def test_kodama_promotes_on_the_last_rank_and_is_demoted_when_captured():
    """Rulebook 1.: the Kodama reaching the last rank "wird befördert" (no choice in 3x4);
    2. "Ein gefangener Kodama Samurai wird ... wieder in seinen ursprünglichen Zustand"."""
    s = G3.from_text("g1l/1C1/3/ELG[e] w - - 0 1")
    assert "b3b4+" in moves(s) and "b3b4" not in moves(s)
    s = s.apply("b3b4+")
    assert s.piece_at("b4") == ("Kodama Samurai", 0)
    # the Samurai moves like a gold: not diagonally backwards
    s = s.apply("c4c3")
    assert {m for m in moves(s) if m.startswith("b4")} == {"b4a4", "b4b3", "b4c4"}
    s = G3.from_text("gle/1+C1/3/ELG[] b - - 0 1").apply("c4b3")
    assert s.hands[1][1] == 1  # back in hand as a plain Kodama
    assert "+C" not in s.to_text().split("[")[1]


def test_dropped_kodama_on_the_last_rank_never_moves_or_promotes():
    """Rulebook: "Man kann einen Kodama direkt in die Beförderungszone des Gegners springen
    lassen. Er kann sich dann allerdings nicht mehr bewegen oder befördert werden"."""
    s = G3.from_text("g1l/3/3/ELG[C] w - - 0 1").apply("C@b4")
    assert s.piece_at("b4") == ("Kodama", 0)
    s = s.apply("c4c3")
    assert not {m for m in moves(s) if m.startswith("b4")}


def test_capturing_the_koropokkuru_wins():
    """Rulebook "Sieger des Spiels" 1.: "Wenn Sie den gegnerischen Koropokkuru gefangen
    nehmen gewinnen Sie"."""
    s = G3.initial_state().play("b1a2", "a4a3", "a2a3", "b4a3")
    assert s.is_terminal() and s.legal_moves() == []
    assert s.outcome().winner == 1 and "captured" in s.outcome().reason


def test_try_wins_when_the_koropokkuru_is_safe_on_the_far_rank():
    """Rulebook "Sieger" 2.: the Koropokkuru on the far rank "ohne dass dieser in dem darauf
    folgenden Spielzug gefangen genommen wird"; NOTES.md: safe = not attacked."""
    s = G3.from_text("2l/L2/3/3[] w - - 0 1")
    safe = s.apply("a3a4")
    assert safe.outcome() == rk.Outcome.win(0, "try: the Koropokkuru reached the far rank safely")
    attacked = G3.from_text("1l1/L2/3/3[] w - - 0 1").apply("a3a4")
    assert not attacked.is_terminal() and "b4a4" in moves(attacked)


def test_both_koropokkuru_safe_on_their_far_ranks_is_a_draw():
    """NOTES.md: the try is "checked for both sides in every position"; when both hold at
    once, Fairy-Stockfish (whose formulation NOTES.md adopts) scores a draw, and so do we."""
    import pyffish

    for fen in ("L2/3/3/2l[] w - - 0 1", "L2/3/3/2l[] b - - 0 1"):
        assert pyffish.is_immediate_game_end("dobutsu", fen, []) == (True, 0)
        outcome = G3.from_text(fen).outcome()
        assert outcome.is_draw and "both" in outcome.reason
    assert G3.from_text("3/L2/3/2l[] w - - 0 1").outcome().winner == 1


def test_threefold_repetition_is_a_draw():
    """Rulebook "Sieger" 3.: "Wenn die Yōkai drei Mal hintereinander hin und zurück kommen,
    endet die Partie unentschieden"; NOTES.md: the same position three times."""
    s = G3.initial_state()
    shuffle = ["c1c2", "a4a3", "c2c1", "a3a4"]
    s = s.play(*shuffle)
    assert not s.is_terminal() and s.repetition_count() == 2
    s = s.play(*shuffle)
    assert s.repetition_count() == 3
    assert s.is_terminal() and s.outcome().is_draw and "repetition" in s.outcome().reason
    # the option changes the count
    longer = rk.load_game("yokai-3x4", repetitions=4).initial_state().play(*shuffle * 2)
    assert not longer.is_terminal()


# --- 5x6 scenarios --------------------------------------------------------------------------


def test_start_position_5x6():
    """NOTES.md: Oni a1, Kirin b1, Koropokkuru c1, Kirin d1, Oni e1, Kodama b3 c3 d3."""
    s = G5.initial_state()
    row = [s.piece_at(f"{f}1") for f in "abcde"]
    assert row == [("Oni", 0), ("Kirin", 0), ("Koropokkuru", 0), ("Kirin", 0), ("Oni", 0)]
    assert [s.piece_at(f"{f}3") for f in "bcd"] == [("Kodama", 0)] * 3
    assert s.piece_at("c6") == ("Koropokkuru", 1) and s.piece_at("c4") == ("Kodama", 1)


def test_promotion_is_optional_in_the_zone_and_forced_on_the_last_rank():
    """5x6 "Spezifische Regeln" 2.: "Eine Beförderung ist immer nur eine Kann-Beförderung,
    außer ein Kodama erreicht die letzte Reihe"; entering, leaving or moving in the zone
    (the far two ranks) may promote."""
    s = G5.from_text("4k/5/1P3/5/5/K4[] w - - 0 1")
    assert {"b4b5", "b4b5+"} <= moves(s)
    s = G5.from_text("4k/1P3/5/5/5/K4[] w - - 0 1")
    assert "b5b6+" in moves(s) and "b5b6" not in moves(s)
    oni = G5.from_text("4k/1S3/5/5/5/K4[] w - - 0 1")  # leaving the zone may promote too
    assert {"b5a4", "b5a4+", "b5c4+", "b5b6", "b5b6+"} <= moves(oni)
    assert G5.from_text("4k/5/5/1G3/5/K4[] w - - 0 1").apply("b3b4").piece_at("b4") == ("Kirin", 0)
    assert "b3b4+" not in moves(G5.from_text("4k/5/5/1G3/5/K4[] w - - 0 1"))


def test_kodama_drop_restrictions():
    """5x6 "Spezifische Regeln" 1.: a dropped piece must be able to move ("ein Kodama kann
    somit nie in die letzte Reihe springen"); 3.: "Zwei Kodama eines Spielers können sich
    nicht auf der gleichen Spalte ... befinden ... ein Kodama und ein Kodama Samurai" may."""
    s = G5.from_text("4k/5/5/5/1P3/K1+P2[P] w - - 0 1")
    drops = {m for m in moves(s) if m.startswith("P@")}
    assert not any(m.endswith("6") for m in drops)  # not on the last rank
    assert not any(m[2] == "b" for m in drops)  # b-file already has a Kodama
    assert "P@c3" in drops  # c-file holds only a Kodama Samurai
    with pytest.raises(rk.IllegalMoveError, match="same file"):
        s.apply("P@b4")
    with pytest.raises(rk.IllegalMoveError, match="last rank"):
        s.apply("P@a6")


def test_kodama_drop_mate_is_illegal_but_other_drop_mates_are_fine():
    """5x6 "Spezifische Regeln" 4.: "Das Spiel kann nicht dadurch beendet werden, dass ein
    Kodama vor dem gegnerischen Koropokkuru springt wenn dieser schachmatt ist"."""
    fen = "k4/2G2/S4/5/5/4K[PG] w - - 0 1"
    s = G5.from_text(fen)
    assert "P@a5" not in moves(s)
    assert "G@a5" in moves(s) and s.apply("G@a5").outcome().winner == 0


def test_the_koropokkuru_may_not_be_left_attacked_and_mate_ends_the_game():
    """5x6 "Beispiel für das Ende der Partie": the Super-Oni "setzt den gegnerischen
    Koropokkuru schachmatt. Weder kann er den Super-Oni fangen noch fliehen" -> player 1
    wins; NOTES.md: the Koropokkuru is royal."""
    s = G5.from_text("2k2/5/1G+S2/5/5/2K2[] w - - 0 1")
    assert "c4c5" in moves(s)
    mated = s.apply("c4c5")
    assert mated.is_terminal()
    assert mated.outcome().winner == 0 and "checkmate" in mated.outcome().reason
    # a black Oni on b3 attacks a2, b2 and c2 (its forward squares): the Koropokkuru on c1
    # may not step into them
    exposed = G5.from_text("2k2/5/5/1s3/5/2K2[] w - - 0 1")
    assert {m for m in moves(exposed) if m.startswith("c1")} == {"c1b1", "c1d1", "c1d2"}
    with pytest.raises(rk.IllegalMoveError, match="leave your Koropokkuru attacked"):
        exposed.apply("c1c2")


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, reason",
    [
        ("zz", "not Yōkai no Mori 3x4 notation"),
        ("a1a9", "not a square"),
        ("a3a2", "no piece on a3"),
        ("b3b2", "belongs to the opponent"),
        ("b2c3", "cannot step to c3"),
        ("c1b1", "occupied by your own Koropokkuru"),
        ("C@a2", "has no Kodama in hand"),
    ],
)
def test_illegal_moves_say_why(text, reason):
    with pytest.raises(rk.IllegalMoveError, match=reason):
        G3.initial_state().apply(text)


def test_an_illegal_move_changes_nothing():
    s = G3.initial_state()
    before = s.to_text()
    with pytest.raises(ValueError):
        s.apply("b2c3")
    assert s.to_text() == before and s.apply("b2b3").to_text() != before


def test_no_move_after_the_end():
    s = G3.initial_state().play("b1a2", "a4a3", "a2a3", "b4a3")
    with pytest.raises(rk.IllegalMoveError, match="the game is over"):
        s.apply("c1c2")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("gle/1c1/1C1 w", "followed by the hand"),
        ("gle/1c1/ELG[] w", "3 ranks"),
        ("glx/1c1/1C1/ELG[] w", "no piece"),
        ("gle/1c1/1C1/ELGG[] w", "more than 3 files"),
        ("gle/1c1/1C1/EL[] w", "covers 2 files"),
        ("gle/1c1/1C1/ELG[] x", "side to move"),
        ("gl1/1c1/1C1/EL1[+C] w", "promoted piece cannot be in hand"),
    ],
)
def test_bad_position_text(text, reason):
    with pytest.raises(rk.PositionTextError, match=reason):
        G3.from_text(text)


def test_unknown_options_and_games():
    with pytest.raises(rk.OptionError, match="no option 'colour'"):
        rk.load_game("yokai-3x4", colour="red")
    with pytest.raises(rk.OptionError, match="at least 2"):
        rk.load_game("yokai-3x4", repetitions=1)
    with pytest.raises(rk.OptionError, match="must be int"):
        rk.load_game("yokai-3x4", repetitions="3")
    with pytest.raises(rk.OptionError, match="unknown game 'chess'"):
        rk.load_game("chess")


# --- properties (hypothesis) ---------------------------------------------------------------


def random_line(game, seed: int, plies: int):
    rng = random.Random(seed)
    state = game.initial_state()
    states, actions = [state], []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        states.append(state)
        actions.append(move)
    return states, actions


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from([G3, G5]), plies=st.integers(0, 120))
def test_every_legal_move_applies_and_states_stay_unchanged(seed, game, plies):
    states, _ = random_line(game, seed, plies)
    state = states[-1]
    snapshot = state.to_text()
    for move in state.legal_moves():
        after = state.apply(move)
        assert after.current_player == 1 - state.current_player
        assert str(move) in {str(m) for m in state.legal_moves()}
        hash(after)
    assert state.to_text() == snapshot
    with pytest.raises(AttributeError):
        state.side = 1


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from([G3, G5]), plies=st.integers(0, 120))
def test_position_text_round_trips(seed, game, plies):
    states, _ = random_line(game, seed, plies)
    for state in states[-5:]:
        again = game.from_text(state.to_text())
        assert again.to_text() == state.to_text()
        assert again.board == state.board and again.hands == state.hands
        assert repr(state) == f"YokaiState({state.to_text()!r})"
        if state.repetition_count() == 1:
            assert moves(again) == moves(state)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from([G3, G5]), plies=st.integers(0, 150))
def test_records_round_trip_and_replay_identically(seed, game, plies):
    states, actions = random_line(game, seed, plies)
    record = records.Record.from_actions(game, actions, players=["a", "b"])
    again = records.Record.from_json(record.to_json())
    assert again == record
    replayed = again.replay()
    assert replayed == states
    assert [s.to_text() for s in replayed] == [s.to_text() for s in states]


def test_random_games_end():
    """Every random 3x4 game ends (capture, try or repetition) well within 2000 plies."""
    for seed in range(200):
        states = rk.playout(G3.initial_state(), random.Random(seed), max_plies=2000)
        assert states[-1].is_terminal()


def test_scene_describes_the_board():
    s = G3.initial_state().apply("b2b3")
    scene = s.scene()
    assert scene.layout == "square" and len(scene.cells) == 12
    assert scene.token_at("b3").name == "Kodama" and scene.token_at("b3").owner == 0
    assert scene.token_at("a4").facing == 1
    # the pieces' dots: "er bewegt sich ... in die Richtungen die durch die farbigen Punkte
    # vorgegeben sind"; the second player's Kodama steps towards rank 1
    assert scene.token_at("b3").steps == ((0, 1),)
    assert set(scene.token_at("a4").steps) == {(0, -1), (1, 0), (0, 1), (-1, 0)}
    assert G3.initial_state().scene().token_at("b3").steps == ((0, -1),)
    hand = next(z for z in scene.zones if z.id == "hand-0")
    assert [(i.name, i.count) for i in hand.items] == [("Kodama", 1)]
    assert scene.last_cells == ("b2", "b3")
    drop = next(m for m in s.apply("c4b3").legal_moves() if str(m) == "C@a2")
    assert drop.cells == ("hand-0:C", "a2")
    assert s.view(1) is s  # no secrets in Yōkai no Mori


# --- the move list's words (issue #22 item 3) ----------------------------------------------


def sentences(state, line: list[str]) -> list[str]:
    """Each move's words as the move list shows them, checking both seats see the same words
    (no secrets) and the notation stays what records keep."""
    said = []
    for notation in line:
        move = state.parse_move(notation)
        words = state.action_text(move)
        assert state.action_text(move, 0) == state.action_text(move, 1) == words
        assert state.action_text(notation) == words and str(move) == notation
        said.append(words)
        state = state.apply(move)
    return said


def test_a_3x4_game_in_words():
    """Rulebook 3x4, "Mögliche Züge": 2. "Gefangennahme" (the piece moves onto an opponent's
    square); 3. "Sprung eines Gefangenen" (a piece from the Reserve onto a free square); 1. the
    Kodama reaching the last rank "wird befördert ... Kodama Samurai"; "Ein gefangener Kodama
    Samurai wird ... wieder in seinen ursprünglichen Zustand" (the words name what stood on the
    board); "Sieger des Spiels" 1.: "den gegnerischen Koropokkuru gefangen nehmen"."""
    line = ["b2b3", "c4b3", "C@c3", "a4a3", "c3c4+", "b4c4", "a1b2", "c4c3", "b2c3"]
    assert sentences(G3.initial_state(), line) == [
        "Kodama b2–b3 takes Kodama",
        "Kitsune c4–b3 takes Kodama",
        "drops Kodama on c3",
        "Tanuki a4–a3",
        "Kodama c3–c4 becomes Kodama Samurai",
        "Koropokkuru b4–c4 takes Kodama Samurai",
        "Kitsune a1–b2",
        "Koropokkuru c4–c3",
        "Kitsune b2–c3 takes Koropokkuru",
    ]
    assert G3.initial_state().play(*line).hands[1][1] == 2  # the Samurai went to the hand a Kodama
    # Anmerkung: "Ein Kodama kann gleichzeitig befördert werden und einen Gegner gefangen nehmen"
    assert G3.from_text("gel/1C1/3/ELG[] w - - 0 1").action_text("b3b4+") == (
        "Kodama b3–b4 takes Kitsune and becomes Kodama Samurai"
    )


def test_the_words_say_how_a_3x4_move_ends_the_game():
    """Rulebook 3x4 "Sieger des Spiels" 2.: the Koropokkuru in the far rank "ohne dass dieser in
    dem darauf folgenden Spielzug gefangen genommen wird" (NOTES.md: safe = not attacked; the
    try is checked for both sides in every position); 3.: "drei Mal hintereinander hin und
    zurück ... unentschieden" (NOTES.md: the same position three times)."""
    assert sentences(G3.from_text("2l/L2/3/3[] w - - 0 1"), ["a3a4"]) == [
        "Koropokkuru a3–a4 reaches the far rank safely"
    ]
    assert sentences(G3.from_text("1l1/L2/3/3[] w - - 0 1"), ["a3a4"]) == ["Koropokkuru a3–a4"]  # attacked
    # the attacker taken: the Koropokkuru already on the far rank is safe now
    assert sentences(G3.from_text("Lg1/E2/2l/3[] w - - 0 1"), ["a3b4"]) == [
        "Kitsune a3–b4 takes Tanuki: the Koropokkuru on a4 stands safely on its far rank"
    ]
    shuffle = ["c1c2", "a4a3", "c2c1", "a3a4"]
    assert sentences(G3.initial_state(), shuffle * 2)[3:] == [
        "Tanuki a3–a4",
        "Tanuki c1–c2",
        "Tanuki a4–a3",
        "Tanuki c2–c1",
        "Tanuki a3–a4 repeats the position a third time: a draw",
    ]
    longer = rk.load_game("yokai-3x4", repetitions=4).initial_state().play(*shuffle * 2, *shuffle[:3])
    assert longer.action_text("a3a4") == "Tanuki a3–a4 repeats the position a fourth time: a draw"


def test_a_5x6_game_in_words():
    """Rulebook 5x6, "Mögliche Spielzüge": entering the zone (the far two ranks) allows the
    Kodama to be "befördert"; "Spezifische Regeln" 2.: "Eine Beförderung ist immer nur eine
    Kann-Beförderung" (a declined one "stays Kodama"); "Der Sprung einer gefangen genommenen
    Figur erfolgt immer auf seine orange gepunktete Ausgangsseite" (the Kodama Samurai taken
    is dropped as a Kodama); "Beispiel für das Ende der Partie": the Super-Oni "setzt den
    gegnerischen Koropokkuru schachmatt"."""
    line = ["c3c4", "d4d3", "c4c5", "d6c5", "P@c4", "d3d2+", "d1d2", "c5c4", "b3b4", "P@b3", "b4b5+"]
    assert sentences(G5.initial_state(), line) == [
        "Kodama c3–c4 takes Kodama",
        "Kodama d4–d3 takes Kodama",
        "Kodama c4–c5 stays Kodama",
        "Kirin d6–c5 takes Kodama",
        "drops Kodama on c4",
        "Kodama d3–d2 becomes Kodama Samurai",
        "Kirin d1–d2 takes Kodama Samurai",
        "Kirin c5–c4 takes Kodama",
        "Kodama b3–b4 takes Kodama",
        "drops Kodama on b3",
        "Kodama b4–b5 becomes Kodama Samurai",
    ]
    assert sentences(G5.from_text("2k2/5/1G+S2/5/5/2K2[] w - - 0 1"), ["c4c5"]) == [
        "Super-Oni c4–c5: checkmate, the Koropokkuru cannot escape capture"
    ]
    assert sentences(G5.from_text("k4/2G2/S4/5/5/4K[PG] w - - 0 1"), ["G@a5"]) == [
        "drops Kirin on a5: checkmate, the Koropokkuru cannot escape capture"
    ]
    oni = G5.from_text("4k/1S3/5/5/5/K4[] w - - 0 1")  # leaving the zone may promote too
    assert sentences(oni, ["b5a4"]) == ["Oni b5–a4 stays Oni"]
    assert sentences(oni, ["b5a4+"]) == ["Oni b5–a4 becomes Super-Oni"]


# --- position text: what the box and the rules make impossible (issue 14) ----------------------


@pytest.mark.parametrize(
    "game, text, field, reason",
    [
        # the box: 2 Kodama in 3x4 (NOTES.md: "first player: ... Kodama b2"), 6 in 5x6
        (G3, "ccc/ccc/ccc/L1l[] w - - 0 1", "board and hands", "9 Kodama"),
        (G3, "gle/1c1/1C1/ELG[CCCCCCccccc] w - - 0 1", "board and hands", "has 2"),
        (G5, "sgkgs/5/1ppp1/1PPP1/5/SGKGS[PPPPPPpppppp] w - - 0 1", "board and hands", "18 Kodama"),
        # one Koropokkuru each
        (G3, "gll/1c1/1C1/E1G[] w - - 0 1", "board", "has 2 Koropokkuru"),
        (G5, "sgkgs/5/1ppp1/1PPP1/5/SGKGS[K] w - - 0 1", "board and hands", "3 Koropokkuru"),
        (G5, "sg1gs/5/1ppp1/1PPP1/5/SGKGS[K] w - - 0 1", "hand", "ended with that capture"),
        # 3x4: a captured Koropokkuru ended the game; the loser is to move
        (G3, "g1e/1c1/1C1/ELG[L] w - - 0 1", "hand", "ended with that capture"),
        # numbers: ASCII digits, bounded (int() refuses more than 4,300 digits with a ValueError)
        (G3, "gle/1c1/1C1/ELG[] w - - 0 " + "9" * 5000, "move number", "at most 9 digits"),
        (G3, "gle/1c1/1C1/ELG[] w - - 0 ²", "move number", "at most 9 digits"),
        (G3, "gle/1c1/1C1/ELG[] w - - 0 0", "move number", "at least 1"),
        (G3, "gle/1" + "0" * 5000 + "1c1/1C1/ELG[] w", "board", "no count of empty squares"),
        (G3, "gle/1c1/1C1/ELG[] w K - 0 1", "castling", "has none"),
        (G3, "gle/1c1/1C1/ELG[] w - - 0", "position text", "5 fields"),
        (G3, None, "position text", "must be a string"),
    ],
)
def test_impossible_positions_are_refused_naming_the_field(game, text, field, reason):
    with pytest.raises(rk.PositionTextError) as info:
        game.from_text(text)
    message = str(info.value)
    assert f": {field}: " in message and reason in message
    assert len(message) < 400  # a huge text is cut in the message


@pytest.mark.parametrize(
    "game, text, remark",
    [
        # no Koropokkuru: a tsume-like study (3x4: the game is over, the Koropokkuru is gone)
        (G3, "gle/1c1/1C1/E1G[] w - - 0 1", "no Koropokkuru for the First player"),
        # 5x6, royal: the side that just moved cannot have left its Koropokkuru attacked
        (G5, "2k2/2P2/5/5/5/2K2[] w - - 0 1", "the Koropokkuru of the side not to move"),
        # 5x6 "Spezifische Regeln" 1. and 2.: no unpromoted Kodama on the last rank
        (G5, "1Pk2/5/5/5/5/2K2[] w - - 0 1", "on b6, its last rank"),
        (G5, "2k2/5/5/5/5/1pK2[] w - - 0 1", "on b1, its last rank"),
        # 5x6 "Spezifische Regeln" 3.: "Zwei Kodama eines Spielers können sich nicht auf der
        # gleichen Spalte befinden"
        (G5, "2k2/5/1P3/1P3/5/2K2[] w - - 0 1", "two unpromoted Kodama of the First player in file b"),
    ],
)
def test_unusual_positions_are_accepted_and_told_by_status(game, text, remark):
    """Study positions that no game from the start reaches are read, not refused (issue #24,
    like python-chess's `Board.status()`); `status()` names what is unusual."""
    state = game.from_text(text)
    assert any(remark in line for line in state.status()), state.status()
    assert game.from_text(state.to_text()) == state


def test_possible_positions_are_accepted():
    """Problem positions with fewer pieces (the scenarios above), a 3x4 game ended by a
    capture (the Koropokkuru in the captor's hand), Fairy-Stockfish's short start FEN, a
    Kodama dropped on the last rank in 3x4 (NOTES.md: "a Kodama even on the far rank")."""
    ended = G3.initial_state().play("b1a2", "a4a3", "a2a3", "b4a3")
    assert G3.from_text(ended.to_text()) == ended and ended.is_terminal()
    assert G3.from_text("gle/1c1/1C1/ELG[-] w 0 1") == G3.initial_state()
    assert G3.from_text("gCe/1l1/3/ELG[c] b - - 0 3").piece_at("b4") == ("Kodama", 0)
    assert G5.from_text("2k2/5/5/5/1P3/1+PK2[] w - - 0 1").piece_at("b1") == ("Kodama Samurai", 0)


# --- equality and repetition (issue 14) ---------------------------------------------------------


def test_states_are_equal_by_position_and_round_trip():
    """Two move orders to one position: one position (transpositions, caching)."""
    a = G3.initial_state().play("c1c2", "a4a3", "b1a2")
    b = G3.initial_state().play("b1a2", "a4a3", "c1c2")
    assert a == b and hash(a) == hash(b) and a.last_move != b.last_move
    assert G3.from_text(a.to_text()) == a and hash(G3.from_text(a.to_text())) == hash(a)
    assert a != G3.initial_state() and a != G5.initial_state()


CAPTURE_AND_BACK = ["b2b3", "b4a3", "C@a2", "a3a2", "b1b2", "C@b1", "b2b1", "a2a3"]


def test_captures_and_drops_do_not_cut_the_repetition_history():
    """Why the counts keep every position (rules_kernel/persistent.py): after b2b3 b4a3 the
    same position comes back although captures and drops happened in between (found by a
    random search), so a window cut at captures or drops would miss this repetition."""
    game = rk.load_game("yokai-3x4", repetitions=100)
    states = [game.initial_state()]
    for move in CAPTURE_AND_BACK:
        states.append(states[-1].apply(move))
    assert states[8] == states[2] and states[8].repetition_count() == 2
    in_hand = [sum(map(sum, s.hands)) for s in states[2:]]
    assert in_hand != sorted(in_hand) and len(set(in_hand)) > 1  # captured, then dropped


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), game_id=st.sampled_from(["yokai-3x4", "yokai-5x6"]))
def test_repetition_counts_equal_a_count_over_the_whole_history(seed, game_id):
    game = rk.load_game(game_id, repetitions=4)
    states, _ = random_line(game, seed, 300)
    seen: dict = {}
    for state in states:
        key = (state.board, state.hands, state.side)
        seen[key] = seen.get(key, 0) + 1
        assert state.repetition_count() == seen[key]
    assert states[-1].is_terminal() == (states[-1].outcome() is not None)


def reachable_objects(root) -> int:
    """How many objects the state keeps alive beyond what the game itself holds (ints
    aside: a count of 200 is an object, a count of 5 is Python's shared small int)."""
    import gc

    stop = {id(root.game)}
    seen, todo = set(), [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in stop or isinstance(obj, (type, rk.Game, int)):
            continue
        seen.add(id(obj))
        todo.extend(gc.get_referents(obj))
    return len(seen)


def test_memory_does_not_grow_with_a_repeating_history():
    """Issue 14: every state kept its parent chain alive (4 MB at ply 10,000). Shuffling
    back and forth adds plies but no new positions: what a state keeps stays the same."""
    game = rk.load_game("yokai-3x4", repetitions=10**6)
    shuffle = ["c1c2", "a4a3", "c2c1", "a3a4"]
    short = game.initial_state().play(*shuffle * 5)
    long = game.initial_state().play(*shuffle * 200)
    assert long.ply == 800 and long.repetition_count() == 201
    assert reachable_objects(long) == reachable_objects(short)
