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

    class TwinWords:  # the game's words part: both tactics alike
        def action_text(self, state, move, viewer):
            return "the Footman tactic: each Footman unit may maneuver once"

    class TwinsGame(rk.Game):
        id, HIDDEN_INFORMATION, CHANCE, MEMORY = "twins", False, False, False
        PARTS = {"words": TwinWords()}

    class Twins:  # a position of it: the menu reads its view
        game = TwinsGame()

        def view(self, viewer):
            return self

        def _action_of(self, move):
            return move

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
    """ "+0 cp" and "by ismcts" were shown as they came from the engines."""
    scored = Estimate(0.5, None, cp=0)
    assert value_words(scored) == "50.0%" and "cp" not in value_words(scored)
    assert value_words(Estimate(0.0, 0.0, "loss", 26, True)) == "loss in 26"
    assert move_value_words(Estimate(0.0, 0.0, "loss", 26, True)) == "loses in 26"
    assert move_value_words(Estimate(0.62)) == "62% expected"
    assert all(not re.fullmatch(r"[a-z-]+", title) for title in ENGINE_TITLES.values())
    assert "ISMCTS" not in " ".join(ENGINE_TITLES.values())


# --- the statistics page: names, places and agents in the games' words ------------------------
DATA = Path(__file__).parent.parent / "data"
KEBAB_ID = re.compile(
    r"\b(?:light-cavalry|warrior-priest|royal-guard|far-eastern|northern|southern|western)\b"
)


def visible(widget) -> str:
    """The words a widget shows (markup dropped)."""
    return re.sub(r"<[^>]+>", " ", widget.value)


def test_the_statistics_name_armies_units_and_agents_as_the_games_do():
    """Once "far-eastern", "light-cavalry", "warrior-priest", "ismcts:5", "fsf:2"."""
    from rules_kernel import stats
    from widgets import stats_panel as sp

    games = stats.read_games(DATA / "games.parquet")
    seats = games[games["experiment"] == "seats"]
    war_chest = seats[seats["game"] == "war-chest"]
    shown = " ".join(
        visible(panel)
        for panel in (
            sp.army_pair_plot(seats),
            sp.army_summary(seats),
            sp.army_table(seats),
            sp.army_pair_table(seats),
            sp.unit_plot(war_chest, "random against random"),
            sp.unit_table(war_chest, "random against random"),
        )
    )
    assert "Fernöstliche Armee" in shown and "Light Cavalry" in shown and "Warrior Priest" in shown
    assert not KEBAB_ID.search(shown), KEBAB_ID.search(shown)
    assert "CI)" not in shown  # the interval said in words, not abbreviated
    assert sp.agent_name("ismcts:5") == "playout search (5 playouts)"
    assert sp.agent_name("fsf:2") == "Fairy-Stockfish (depth 2)"
    assert sp.agent_name("mcts:5") == "tree search (5 iterations)"


def test_the_statistics_say_no_command():
    """Once "(so anyone can play them again: python -m rules_kernel.make_data --only statistics)"."""
    from widgets import stats_panel as sp

    words = visible(sp.provenance(DATA)) + visible(sp.ladder_panel(DATA).children[0])
    assert "python" not in words and "make_data" not in words and "seed 2026" in words
    ladder = " ".join(visible(child) for child in sp.ladder_panel(DATA).children[1:])
    assert not re.search(r"\b(?:fsf|ismcts|mcts):\d", ladder) and "sd 1" not in ladder


def test_war_chest_places_are_named_by_the_map_in_the_heatmap():
    """Once "Most: 3,2 (117), 2,1 (104)" and a table of locations `3,2`: the map's names."""
    import pandas as pd

    from widgets import heatmap

    actions = pd.read_parquet(DATA / "actions.parquet")
    chosen = [p for p in heatmap.pictures() if p.game == "war-chest"]
    panel = heatmap.heatmap_panel(actions, chosen)
    figure, table = panel.children[0].children[0], panel.children[1]
    words = " ".join(visible(child) for child in figure.children if hasattr(child, "value")) + visible(table)
    assert re.search(r"Most: [a-g][1-7] \(\d", words) and not re.search(r"\b\d,\d\b", words), words[:400]
    drawing, _ = heatmap.heatmap_drawing(
        rk.load_game("war-chest").initial_state().scene(), {"3,2": 5}, "test"
    )
    texts = [op.text for op in drawing if type(op).__name__ == "Text"]
    assert "d3" in texts and "3,2" not in texts


# --- the explainers and the other published pages: no notation, file or command -------------------
PUBLISHED = ["perfect-play", "statistics", "statistics-dashboard", "replay"] + [
    p.stem for p in sorted(NOTEBOOKS.glob("rules-*.ipynb"))
]
#: what a page's reader must never see: moves and hexes in notation, files, commands, ids
DEVELOPER = re.compile(
    r"\b[a-g][1-7][a-g][1-7]\+?\b|[A-Z]{1,3}@[a-g]\d|\(\d,\d\)|\b\d,\d\b|`|docs/|\.md\b|\.txt\b"
    r"|python -m|\./run|\brules_kernel\b|\bNOTES\b"
)


def shown_texts(name: str) -> list[str]:
    """A notebook's markdown, and the string literals its code cells hand to the page (the
    puzzles' questions, answers and hints): what Voilà shows of it. Position texts (the
    arguments a board is built from, never shown) are left out."""
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    texts = [cell.source for cell in nb.cells if cell.cell_type == "markdown"]
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for keyword in ("explanation", "hint"):
            for found in re.finditer(keyword + r'=((?:\s*"(?:[^"\\]|\\.)*")+)', cell.source):
                texts.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', found.group(1))))
        for found in re.finditer(r'(?:MovePuzzle|ChoicePuzzle)\((?:[^"]*?)"([A-Z*][^"]*)"', cell.source):
            texts.append(found.group(1))
    return texts


@pytest.mark.parametrize("name", PUBLISHED)
def test_a_published_page_shows_no_notation_file_or_command(name):
    """The explainers' answers once opened with "a3a4:" and "(G@a5)", a War Chest puzzle named
    "the Swordsman on 3,5", the perfect-play page "*b1a2*" and `docs/tablebase.md`, the
    statistics page "`docs/games/war-chest.md`"."""
    texts = shown_texts(name)
    assert texts
    found = [(m.group(0), text[:80]) for text in texts for m in [DEVELOPER.search(text)] if m]
    assert not found, found


def test_the_static_site_says_what_a_server_page_needs_in_a_readers_words(tmp_path):
    from publish.static_pages import write_server_only

    out = tmp_path / "perfect-play.html"
    write_server_only(NOTEBOOKS / "perfect-play.ipynb", out, "../index.html")
    page = re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8").split("<body", 1)[-1])
    assert "cannot run in your browser alone" in page and "solved table" in page
    assert "./run" not in page and "docs/" not in page and "numpy" not in page
