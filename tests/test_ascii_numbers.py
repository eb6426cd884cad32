"""Numbers in untrusted text are ASCII digits only (issue 44, build item 9: "numbers in links
are ASCII digits only (as in position texts)"). `str.isdigit()` is true of '²' (which int()
refuses: a ValueError where a one-line refusal was due) and of '١' and '３' (which int() reads:
a number the reader never meant to accept); int() also reads '1_0' and ' 1 ' and refuses
more than 4,300 digits. Links are tested in test_links.py; here the other readers."""

from __future__ import annotations

import pytest

import rules_kernel as rk
from rules_kernel import cli, records
from rules_kernel.core import PositionTextError
from rules_kernel.games.war_chest.text import compose

NOT_ASCII = ["²", "١", "٣", "３", "१", "1_0", "9" * 5000]
IDS = [repr(n[:6]) for n in NOT_ASCII]


@pytest.mark.parametrize("number", NOT_ASCII, ids=IDS)
def test_the_draw_commands_view_is_a_seat_in_ascii_digits(number, tmp_path, capsys):
    """`rules-explorer draw ... --view ²` printed "internal error (ValueError ...)", and
    `--view ١` drew seat 1's view."""
    start = rk.load_game("yokai-3x4").initial_state().to_text()
    target = tmp_path / "p.svg"
    assert cli.main(["draw", "yokai-3x4", "--position", start, "--view", number, "-o", str(target)]) == 2
    said = capsys.readouterr().err
    assert said.startswith("rules-explorer: error: --view ") and "give a seat number (0 to 1)" in said
    assert "internal error" not in said and not target.exists()


@pytest.mark.parametrize("number", NOT_ASCII, ids=IDS)
def test_a_war_chest_unit_height_in_digits_of_another_script_is_refused(number):
    """compose() counted a unit's coins with isdigit()/int() before the position text was read:
    '²' raised ValueError; now the text reader refuses the unit in its own words."""
    game = rk.load_game("war-chest")
    with pytest.raises(PositionTextError, match="a unit is 'x,y:seat:type:coins'"):
        compose(game, f"3,3:0:swordsman:{number}", ("swordsman", "-"))
    assert compose(game, "3,3:0:swordsman:1", ("swordsman", "-")).to_text()  # ASCII still reads


@pytest.mark.parametrize("game_id", ["yokai-3x4", "war-stories", "to-war", "war-chest"])
@pytest.mark.parametrize("number", NOT_ASCII, ids=IDS)
def test_a_position_texts_ply_is_ascii_digits(game_id, number):
    """Every game's position text ends with its ply count: in another script's digits it is
    a PositionTextError naming the field, never a ValueError and never read as a number."""
    game = rk.load_game(game_id)
    text = game.initial_state().to_text()
    fields = text.split(" ")
    index = max(i for i, field in enumerate(fields) if field.isascii() and field.isdigit())
    fields[index] = number
    with pytest.raises(PositionTextError):
        game.from_text(" ".join(fields))


@pytest.mark.parametrize("number", ["١", "٣", "３"])
def test_move_numbers_in_pgn_and_kif_are_ascii_digits(number):
    """A PGN move number in another script's digits is not taken for a number (it is read as
    a move, and refused); a KIF line numbered so is no move line (KIF readers pass over the
    lines they do not know), so nothing is played."""
    pgn = f'[Variant "Dobutsu"]\n\n{number}. Cxb3 *\n'
    with pytest.raises(records.RecordError, match="is not a legal move"):
        records.read(text=pgn)
    kif = f"手合割：どうぶつしょうぎ\n手数----指手---------消費時間--\n   {number} ２三ひよこ(22)\n"
    assert records.read(text=kif)[0].actions == ()  # no move line: nothing is played
