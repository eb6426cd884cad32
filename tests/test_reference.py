"""The reference panel (issue #22 item 5): each game declares its reference (its "reference"
part, `parts.reference(game)`, from its own tables), and `widgets.reference.reference_panel`
shows it, escaped, folded.

The content follows the rulebooks in rules/: Yōkai no Mori's pieces move "ein Feld weit in die
Richtungen die durch die farbigen Punkte vorgegeben sind" (the dots the diagrams draw); To
War!'s card numbers are "Angriffsstärke" and "Verteidigungsstärke" ("Greifst du seitwärts an
..., so erhöht sich deine Angriffsstärke um +2"); War Stories' "Pionnen" and "Bordkaarten";
War Chest's units (rules/NOTES.md, after the English rulebook) and the "Spelersacties
Samengevat".
"""

from __future__ import annotations

import re

import pytest
from test_toy_game import Nim

import rules_kernel as rk
from rules_kernel import parts
from rules_kernel.core import Game, ReferenceEntry
from rules_kernel.games import war_chest, yokai
from rules_kernel.games.war_chest import reference as war_chest_reference
from rules_kernel.games.war_chest.units import NO_NORMAL_ATTACK, TACTICS
from widgets.reference import NONE_YET, moves_in_words, reference_html, reference_panel


@pytest.mark.parametrize("game_id", rk.list_games())
def test_every_game_has_a_reference_and_the_panel_lists_it(game_id):
    game = rk.load_game(game_id)
    entries = parts.reference(game)
    assert entries and all(isinstance(e, ReferenceEntry) for e in entries)
    for entry in entries:
        assert entry.name.strip() and entry.line.strip()
        assert all(isinstance(dx, int) and isinstance(dy, int) for dx, dy in entry.moves)
    text = reference_html(game)
    assert text.count("<li ") == len(entries)
    assert text.count('role="img"') == sum(1 for e in entries if e.moves)
    panel = reference_panel(game)
    assert panel.titles == (f"Reference: {game.title}",)
    assert panel.selected_index is None and panel.children[0].value == ""  # folded: written when opened
    panel.selected_index = 0
    assert panel.children[0].value == text
    panel.selected_index = None
    assert panel.children[0].value == text  # kept when folded again
    # a phone of 390 px: nothing wider than a 5x5 diagram is fixed; the text wraps
    assert max(map(int, re.findall(r'<svg [^>]*width="(\d+)"', text)), default=0) <= 80
    assert "overflow-wrap:anywhere" in text


@pytest.mark.parametrize("game_class", yokai.GAMES)
def test_yokai_steps_are_the_moves_of_a_lone_piece_in_the_centre(game_class):
    """Each piece's declared steps are what the module's move generation gives a lone piece
    of the first player in the middle of an empty board (below the promotion zone, so no
    promotion doubles a move; the pseudo-legal generation, as there is no Koropokkuru to
    guard)."""
    game = game_class()
    files, ranks = game.FILES, game.RANKS
    square = (ranks - game.ZONE_DEPTH) // 2 * files + files // 2
    kinds = {name: kind for kind, name in yokai.KIND_NAMES.items()}
    pieces = [e for e in parts.reference(game) if e.moves]
    assert {e.name for e in pieces} == {yokai.KIND_NAMES[k] for k in game.LETTERS}
    for entry in pieces:
        board = [yokai.EMPTY] * (files * ranks)
        board[square] = yokai.piece(kinds[entry.name], 0)
        hands = ((0,) * 9, (0,) * 9)
        moves = [m for m in yokai._pseudo_moves(game, tuple(board), hands, 0) if m.frm == square]
        reached = {(m.to % files - square % files, m.to // files - square // files) for m in moves}
        assert reached == set(entry.moves), entry.name
        assert len(moves) == len(entry.moves)  # one move a step: no promotion doubles here
        assert entry.short == game.LETTERS[kinds[entry.name]]
    promoted = {e.name: e.line for e in pieces}
    assert (
        "promote to Kodama Samurai" in promoted["Kodama"]
        or "promotes to Kodama Samurai" in promoted["Kodama"]
    )


def test_yokai_moves_in_words_for_the_screen_reader():
    entries = {e.name: e for e in parts.reference(rk.load_game("yokai-3x4"))}
    assert moves_in_words(entries["Kodama"]) == "one square forward"
    assert moves_in_words(entries["Tanuki"]) == "one square forward, right, back or left"
    assert moves_in_words(entries["Kodama Samurai"]) == (
        "one square forward, forward-right, right, back, left or forward-left"
    )
    knight = next(e for e in parts.reference(rk.load_game("war-stories")) if e.name == "Kibatai")
    assert moves_in_words(knight).startswith(
        "to the square 2 forward and 1 right, 1 forward and 2 right, 1 back"
    )


def test_war_chest_has_one_line_per_unit_of_the_box_from_its_tables():
    game = rk.load_game("war-chest")
    units = [e for e in parts.reference(game) if e.group == "Units"]
    assert [e.name for e in units] == [war_chest.NAMES[u] for u in war_chest.UNITS]
    lines = dict(zip(war_chest.UNITS, (e.line for e in units), strict=True))
    for unit, line in lines.items():
        assert line.startswith(f"{war_chest.COINS[unit]} coins")
        assert ("tactic:" in line) == (unit in war_chest_reference.tactic_units())
        assert ("no normal attack" in line) == (unit in NO_NORMAL_ATTACK)
        assert "\n" not in line
    # the words and the table of tactics name the same units
    assert set(war_chest_reference.TACTIC_WORDS) | {"royal-guard"} == war_chest_reference.tactic_units()
    assert set(war_chest_reference.TACTIC_OF_COIN) <= set(TACTICS)
    revised = {e.name: e.line for e in parts.reference(rk.load_game("war-chest", royal_guard="revised"))}
    assert "to a location you control" in revised["Royal Guard"]
    assert "to a location you control" not in lines["royal-guard"]
    actions = [e.name for e in parts.reference(game) if e.group == "Coin actions"]
    assert {"Deploy", "Bolster", "Recruit", "Move", "Control", "Attack", "Tactic"} <= set(actions)


def test_to_war_explains_the_two_numbers_and_lists_each_armys_units_from_the_table():
    game = rk.load_game("to-war")
    entries = parts.reference(game)
    numbers = entries[0]
    assert numbers.name == "Attack/defence" and "+2 from the side" in numbers.line
    for unit in game.units.values():
        entry = next(e for e in entries if e.short == unit.code)
        assert entry.name == unit.name
        assert f"attack {unit.attack}, defence {unit.defence}" in entry.line
        assert set(entry.moves) == ({(-1, 0), (0, 1), (1, 0)} if unit.sideways else {(0, 1)})
    assert entries[4].group.endswith("(first player)")  # the armies in play first
    rows = [dict(r) for r in game.options["units"]]
    for row in rows:
        if row["code"] == "BED":
            row["attack"] = 9
    own = parts.reference(rk.load_game("to-war", units=rows))
    assert "attack 9, defence 3" in next(e.line for e in own if e.short == "BED")
    assert "provisional" not in own[0].line and "provisional" in numbers.line


class Hostile(Game):
    """A game whose reference holds markup: the panel shows it as text. Written the earlier
    docs' way, its reference a method of the game (an adapter part, deprecated)."""

    id = "hostile-reference"
    title = "<b>Bold</b> & co"

    def reference(self) -> list[ReferenceEntry]:
        return [
            ReferenceEntry(
                '<img src=x onerror="alert(1)">',
                '"><script>alert(1)</script>',
                ((0, 1), (2, 1)),
                short="<i>",
                group="</ul><script>",
            )
        ]


# Hostile is written the earlier docs' way on purpose: its one deprecation warning is expected
@pytest.mark.filterwarnings("ignore:Hostile \\(hostile-reference\\):DeprecationWarning")
def test_the_panel_escapes_every_text_of_an_entry():
    text = reference_html(Hostile())
    assert "<script" not in text and "<img" not in text and "<i>" not in text
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in text
    assert "&lt;/ul&gt;&lt;script&gt;" in text
    assert 'aria-label="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;: to the square' in text
    # the Accordion shows its title as text (textContent), so it is passed as it is
    assert reference_panel(Hostile()).titles == ("Reference: <b>Bold</b> & co",)


def test_a_game_without_a_reference_says_so():
    """The toy Nim of test_toy_game declares none: the default is empty, the panel says so."""
    nim = Nim()
    assert parts.reference(nim) == []
    panel = reference_panel(nim)
    assert panel.titles == ("Reference: Toy Nim",)
    panel.selected_index = 0
    assert NONE_YET in panel.children[0].value and "<li " not in panel.children[0].value


def test_to_war_reference_describes_exactly_the_marks_its_cards_carry():
    """Issue 46 item 5: the reference spoke of arrows and a crown while the cards showed an
    orange "E" pennant and no arrows. A card on the board carries its name, its two numbers
    and, for an elite unit, a crown on a pennant (the printed cards' crown); the reference
    names that crown and gives moves in words, not as arrows to look for."""
    import dataclasses

    from rules_kernel.scene import Token
    from widgets import draw
    from widgets.layout import layout_scene

    game = rk.load_game("to-war")
    text = " ".join(f"{e.name}: {e.line}" for e in parts.reference(game))
    assert "♛" in text and "arrows; here" in text and "↑" not in text and "↕" not in text
    start = game.initial_state().scene()
    for elite in (True, False):
        unit = next(u for u in game.units.values() if u.elite is elite)
        card = Token(
            "b2",
            f"{unit.name} {unit.attack}/{unit.defence}",
            unit.code,
            owner=0,
            kind="card",
            flags=("elite",) if elite else (),
        )
        scene = dataclasses.replace(start, tokens=(card,))
        drawn = [op.text for op in draw.draw_scene(scene, layout_scene(scene)) if isinstance(op, draw.Text)]
        assert ("♛" in drawn) is elite and "E" not in drawn, (unit.name, drawn)
