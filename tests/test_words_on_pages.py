"""Issue 46 item 2: no notation, no id, no developer text on a page. The explorer's "Any move"
menu and chance by hand list moves in the game's words; the Replay names the game by its title
and its page shows no Python; the analysis speaks of values in words (no centipawns, no engine
ids) and explains the labels it puts on the board."""

from __future__ import annotations

import random
import re
from pathlib import Path

import nbformat
import pytest

import rules_kernel as rk
import widgets
from rules_kernel.analysis import Estimate
from widgets.analysis_panel import ENGINE_TITLES, move_value_words, value_words
from widgets.explorer import ALL_SEEING
from widgets.explorer.seats import move_words

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
#: the kernel's move notation: square pairs (b1c2), drops and places (C@c1, BED@b2), flips,
#: War Chest's orders (deploy royal-guard 4,0), hex coordinates (3,2), chance codes (draw:MAM)
NOTATION = re.compile(
    r"\b[a-g][1-7][a-g][1-7]\b|@[a-g]\d|\bflip:|\b\d,\d\b|\w+:\w+|\b[a-z]+-[a-z]+\b|^(pass|recruit|deploy) "
)


def menu_after(game_id: str, plies: int, seed: int = 3) -> widgets.Explorer:
    ex = widgets.Explorer(game_id, seed=seed)
    ex.perspective.value = ALL_SEEING
    rng = random.Random(seed)
    for _ in range(plies):
        if ex.state.is_terminal():
            break
        ex.play(rng.choice(ex.state.legal_moves()))
    return ex


@pytest.mark.parametrize("game_id", ["to-war", "war-chest", "war-stories", "yokai-3x4", "yokai-5x6"])
def test_the_any_move_menu_lists_moves_in_the_games_words(game_id):
    """Once `b1c2`, `C@c1`, `flip:a1`, `BED@b2`, `pass pikeman`: each entry now says what the
    move does, as the move list would, and plays the move it names."""
    for plies in (0, 3, 9):
        ex = menu_after(game_id, plies)
        if ex.state.is_terminal():
            continue
        options = ex.all_moves.options
        assert options and len({label for label, _ in options}) == len(options)  # one entry, one move
        for label, move in options:
            assert label != str(move) and not NOTATION.search(label), (label, str(move))
        label, move = options[-1]
        before = len(ex.actions)
        ex.all_moves.value = move
        ex.play_button.click()
        assert str(ex.actions[before]) == str(move)  # the entry plays the move it names


def test_a_flip_in_the_menu_does_not_tell_the_card_before_it_is_turned():
    """A player's menu words a flip as that player sees the board: "turns over a1", never
    "turns over a1: Ki — no match" (the card is face down until the flip)."""
    ex = widgets.Explorer("war-stories", seed=5)
    assert ex.viewer == 0  # the view of the player to move
    state = ex.state
    labels = [label for label, _ in ex.all_moves.options]
    assert labels and all(re.fullmatch(r"turns over [a-f][1-7]", label) for label in labels), labels
    names = [state.action_text(move) for move in state.legal_moves()]
    assert any(":" in name for name in names)  # the all-seeing words would have named the cards


def test_words_the_menu_cannot_tell_apart_are_numbered():
    """Two War Chest Footman tactics do the same in words (one for each Footman's coin)."""
    class Twins:
        def action_text(self, move, viewer=None):
            return "the Footman tactic: each Footman unit may maneuver once"

        def view(self, viewer):
            return self

    labels = move_words(Twins(), ["tactic footman 4,0", "tactic footman 6,1"], 0)  # type: ignore[arg-type]
    assert labels == [
        "the Footman tactic: each Footman unit may maneuver once (way 1 of 2)",
        "the Footman tactic: each Footman unit may maneuver once (way 2 of 2)",
    ]


def test_chance_by_hand_lists_the_outcomes_in_words():
    """Once "draw:MAM (8%)": the outcomes of a To War! draw as the move list says them."""
    ex = widgets.Explorer("to-war", seed=2)
    ex.perspective.value = ALL_SEEING
    ex.manual_chance.value = True
    ex.play(ex.state.legal_moves()[0])  # the card drawn is placed; the next draw waits
    assert ex.state.current_player == rk.CHANCE
    options = ex.chance_select.options
    assert options, "a draw is pending in the all-seeing view"
    assert all(label.startswith("draws ") and "draw:" not in label for label, _ in options), options[:3]


def test_the_war_stories_deal_is_not_spelled_out_as_card_codes():
    """The Replay of a War Stories record began "1. Chance: the cards are dealt: he khb asy …"."""
    replay = widgets.Replay(rk.records.shipped_records() / "war-stories-greedy-vs-random.jsonl")
    first = replay.moves.options[1]
    assert first.endswith("the cards are dealt face down"), first


@pytest.mark.parametrize(
    "record, title",
    [
        ("to-war-greedy-vs-random.jsonl", "To War!"),
        ("war-chest-4p-greedy-vs-random.jsonl", "War Chest</b>, 4 players"),
        ("yokai-3x4-perfect.jsonl", "Yōkai no Mori 3x4"),
    ],
)
def test_the_replay_names_the_game_by_its_title(record, title):
    replay = widgets.Replay(rk.records.shipped_records() / record)
    assert title in replay.info.value
    assert not re.search(r"\b[a-z]+-[a-z0-9]+\b", re.sub("<[^>]+>", "", replay.info.value))


def test_the_replay_page_shows_no_python():
    """Voilà hides the code cells but shows their printed output and every markdown cell: the
    page keeps the widget and the players' words; the Python examples live in docs/widgets.md."""
    nb = nbformat.read(NOTEBOOKS / "replay.ipynb", as_version=4)
    code = [cell.source for cell in nb.cells if cell.cell_type == "code"]
    text = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    assert "```" not in text and "replay." not in text and "JSON Lines" not in text
    assert not any("print(" in source for source in code)
    assert len(code) == 1 and code[0].rstrip().endswith("replay")  # the widget is all it shows


def test_values_are_in_words_without_centipawns_or_engine_ids():
    """"+0 cp" and "by ismcts" were shown as they came from the engines."""
    scored = Estimate(0.5, None, cp=0)
    assert value_words(scored) == "50.0%" and "cp" not in value_words(scored)
    assert value_words(Estimate(0.0, 0.0, "loss", 26, True)) == "loss in 26"
    assert move_value_words(Estimate(0.0, 0.0, "loss", 26, True)) == "loses in 26"
    assert move_value_words(Estimate(0.62)) == "62% expected"
    assert all(not re.fullmatch(r"[a-z-]+", title) for title in ENGINE_TITLES.values())
    assert "ISMCTS" not in " ".join(ENGINE_TITLES.values())
