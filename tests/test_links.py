"""Shareable links (issue #24 item 3): a link opens the same game, options, position, line,
ply and view; a link is untrusted text (each fault one line, nothing else read); in a player's
view a link never carries what that player cannot see."""

from __future__ import annotations

import random
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import SETTINGS

import rules_kernel as rk
import widgets
from widgets.explorer import ALL_SEEING
from widgets.links import FIELDS, MAX_QUERY_CHARS, Link, LinkError, parse_link

NAMES = [f"{game}-{number}" for number, (game, _) in enumerate(SETTINGS)]


def explored(game_id: str, options: dict, plies: int, seed: int = 5) -> widgets.Explorer:
    explorer = widgets.Explorer(game_id, seed=seed, **options)
    if ALL_SEEING in [value for _, value in explorer.perspective.options]:
        explorer.perspective.value = ALL_SEEING
    rng = random.Random(seed)
    for _ in range(plies):
        if explorer.state.is_terminal():
            break
        explorer.play(rng.choice(explorer.state.legal_moves()))
    return explorer


@pytest.mark.parametrize(
    ("game_id", "options"), SETTINGS, ids=[f"{g}-{i}" for i, (g, _) in enumerate(SETTINGS)]
)
def test_a_link_opens_the_same_position_line_ply_and_view(game_id, options):
    sender = explored(game_id, options, 8)
    sender.look_at(len(sender.session.line()) - 3)  # a past position: the ply travels too
    receiver = widgets.Explorer()  # another page, on the default game
    receiver.address._message(None, {"event": "address", "search": "?" + sender.link_query()}, [])
    assert receiver.game.id == game_id and receiver.game.options == sender.game.options
    assert receiver.session.ply == sender.session.ply
    assert receiver.state.to_text() == sender.state.to_text()
    assert [n.notation for n in receiver.session.line()] == [n.notation for n in sender.session.line()]
    assert receiver.perspective.value == sender.perspective.value
    assert receiver.board.widget.scene_svg == sender.board.widget.scene_svg


def test_a_link_from_a_study_position_starts_there():
    start = "1l1/1C1/3/1L1[] w - - 0 1"
    sender = widgets.Explorer("yokai-3x4", position=start)
    sender.play("b3b4")
    receiver = widgets.Explorer("to-war")
    receiver.open_link(sender.link_query())
    assert (
        receiver.start_position
        == sender.start_position
        == rk.load_game("yokai-3x4").from_text(start).to_text()
    )
    assert receiver.state.to_text() == sender.state.to_text()


@pytest.mark.parametrize(
    ("game_id", "options", "given"),
    [
        ("war-stories", {}, ""),
        ("to-war", {"strategic": True}, "&options=%7B%22strategic%22:true%7D"),  # plain hides nothing
        ("war-chest", {}, ""),
    ],
)
def test_in_a_players_view_a_link_carries_the_game_and_the_view_only(game_id, options, given):
    explorer = widgets.Explorer(game_id, seed=2, **options)
    rng = random.Random(2)
    explorer.play(rng.choice(explorer.state.legal_moves()))
    query = explorer.link_query()
    assert query == f"game={game_id}{given}&view=turn"  # no position, no moves, no deal, no seed


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("?game=chess", "link field 'game': unknown game 'chess'"),
        ("?game=yokai-3x4&game=to-war", "link field 'game' is given 2 times"),
        ("?game=yokai-3x4&moves=b2b3;zz", "link field 'moves': move 2 'zz'"),
        ("?game=yokai-3x4&moves=b2b3&ply=2", "link field 'ply': 2 is past the last move (1)"),
        ("?game=yokai-3x4&ply=-1", "link field 'ply' must be a whole number of at most 6 digits, not '-1'"),
        ("?game=yokai-3x4&view=9", "link field 'view': the game has seats 0 to 1, not 9"),
        ("?game=yokai-3x4&view=<b>", "link field 'view' must be 'all', 'turn' or a seat's number"),
        ("?game=yokai-3x4&position=../../etc/passwd", "link field 'position' is not a yokai-3x4 position"),
        ('?game=war-chest&options={"players":5}', "link field 'options': option 'players'"),
        ('?game=war-chest&options={"__class__":1}', "link field 'options': war-chest has no option"),
        ('?game=to-war&options={"units":"/etc/passwd"}', "a file name or path is not accepted"),
        (
            "?game=war-chest&options=[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
            "options",
        ),
        ("?game=yokai-3x4&moves=" + ";".join(["b2b3"] * 4000), "holds 4,000 moves; at most 3,000"),
        ("?game=yokai-3x4&x=" + "a" * MAX_QUERY_CHARS, "characters long; at most"),
    ],
)
def test_a_bad_link_is_refused_whole_in_one_line(query, says):
    with pytest.raises(LinkError) as caught:
        parse_link(query)
    assert says in str(caught.value) and "\n" not in str(caught.value)
    explorer = widgets.Explorer("yokai-5x6")
    before = explorer.state.to_text()
    explorer.address._message(None, {"event": "address", "search": query}, [])
    assert explorer.game.id == "yokai-5x6" and explorer.state.to_text() == before  # nothing applied
    assert "This link cannot be opened" in explorer.message.value and "<b>" not in explorer.message.value


def test_a_page_without_a_link_keeps_its_game_and_reads_nothing_else():
    assert parse_link("") is None and parse_link("?utm_source=forum&x=1") is None
    explorer = widgets.Explorer("war-stories", seed=1)
    before = explorer.state.to_text()
    explorer.address._message(None, {"event": "address", "search": "?utm_source=forum"}, [])
    explorer.address._message(
        None, {"event": "address", "search": "?game=yokai-3x4"}, []
    )  # a second: ignored
    assert explorer.game.id == "war-stories" and explorer.state.to_text() == before


def test_the_copied_link_is_shown_escaped():
    explorer = widgets.Explorer("yokai-3x4")
    explorer.address._message(
        None,
        {"event": "copied", "url": 'http://h/explorer?game=yokai-3x4"><script>x</script>', "copied": False},
        [],
    )
    assert "<script>" not in explorer.link_note.value and "&lt;script&gt;" in explorer.link_note.value
    assert "Copy this link:" in explorer.link_note.value


def test_the_replay_opens_a_linked_game_at_its_ply_and_writes_links():
    """'Ply 23 of that game': the replay's link carries the game's line and the ply; a replay
    opened with it shows the same position; in a player's view of a game with hidden cards the
    replay offers no link."""
    from widgets.replay import Replay

    sender = Replay("data/war-chest-greedy-vs-random.jsonl")
    sender.show(23)
    receiver = Replay("data/yokai-3x4-random.jsonl")
    receiver.address._message(None, {"event": "address", "search": "?" + sender.link_query()}, [])
    assert receiver.session.ply == 23
    assert receiver.states[23].to_text() == sender.states[23].to_text()
    assert receiver.record.actions == sender.record.actions
    other = Replay("data/yokai-3x4-random.jsonl")  # a bad link: one line, the game on show stays
    other.address._message(None, {"event": "address", "search": "?game=war-chest&moves=nonsense"}, [])
    assert "This link cannot be opened: link field 'moves'" in other.info.value.replace("&#x27;", "'")
    assert other.record.game == "yokai-3x4"
    hidden = Replay("data/war-stories-greedy-vs-random.jsonl", perspective=0)
    assert hidden.link_query() is None
    hidden.copy_link.click()
    assert "No link in a player's view" in hidden.link_note.value.replace("&#x27;", "'")


# --- numbers in links: ASCII digits only (issue 44) ----------------------------------------

#: what `str.isdigit()` or `int()` takes and a link must not: a superscript ('²'.isdigit() is
#: true, int('²') raises), Arabic-Indic, full-width and Devanagari digits (int() reads them),
#: signs, spaces, an underscore (int('1_0') is 10), a huge number
NOT_ASCII_NUMBERS = ["²", "٣", "３", "१", "+1", "-0", " 1", "1 ", "1_0", "1\n", "0x1", "9" * 5000]


@pytest.mark.parametrize("field", ["ply", "view"])
@pytest.mark.parametrize("number", NOT_ASCII_NUMBERS, ids=[repr(n[:6]) for n in NOT_ASCII_NUMBERS])
def test_a_number_in_a_link_is_ascii_digits_or_the_link_is_refused(field, number):
    """'?game=yokai-3x4&ply=²' raised ValueError ("something went wrong" on the page) and
    '?view=٣' opened seat 3's view: now each is that field's one-line refusal, and the page
    that was open stays as it was."""
    query = f"?game=yokai-3x4&moves=b2b3&{field}={quote(number)}"
    with pytest.raises(LinkError) as caught:
        parse_link(query)
    said = str(caught.value)
    assert said.startswith(f"link field {field!r} must be") and "\n" not in said
    explorer = widgets.Explorer("yokai-5x6")
    before = explorer.state.to_text()
    explorer.address._message(None, {"event": "address", "search": query}, [])
    assert explorer.game.id == "yokai-5x6" and explorer.state.to_text() == before
    assert "This link cannot be opened: link field" in explorer.message.value.replace("&#x27;", "'")


def test_ascii_numbers_in_a_link_still_open_it():
    link = parse_link("?game=war-chest&options=%7B%22players%22%3A4%7D&view=3&ply=0")
    assert link is not None and link.view == "3" and link.ply == 0
    assert parse_link("?game=yokai-3x4&moves=b2b3;c4b3&ply=000001").ply == 1


GAME_IDS = sorted(rk.list_games())
#: the pieces of a hostile query: field names (ours and others), known values, numbers of
#: every script, separators and escapes of the query string itself
QUERY_ALPHABET = "0123456789²٣３१+-_ .,;:=&%?#[]{}\"'<>/\\\x00\tabcdefghijklmnopqrstuvwxyzçé€😀"
PIECES = st.one_of(
    st.sampled_from([f"{name}=" for name in FIELDS] + ["&", "=", "%", "%2", "%FF", "%00", "?"]),
    st.sampled_from(GAME_IDS + ["all", "turn", "b2b3", "c4b3", "C@a2", '{"players":4}', '{"players":"٣"}']),
    st.sampled_from(NOT_ASCII_NUMBERS[:-1] + ["0", "1", "9", "99", "999999", "1000000", "1e3", "1.0"]),
    st.text(alphabet=QUERY_ALPHABET, max_size=8),
)


def _check_outcome(query: str) -> None:
    """What parse_link documents: None (no game named), a Link whose line replays and
    whose numbers are ASCII, or a one-line LinkError; nothing else escapes."""
    try:
        link = parse_link(query)
    except LinkError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    if link is None:
        return
    assert isinstance(link, Link) and link.game in GAME_IDS
    states, actions = link.line()  # checked whole by parse_link: it replays
    assert len(actions) == len(link.moves) and len(states) == len(actions) + 1
    assert link.ply is None or 0 <= link.ply <= len(link.moves)
    assert link.view in (None, "all", "turn") or (
        link.view in "0123456789" and int(link.view) < states[0].game.num_players
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_parse_link_on_any_text_returns_none_a_link_or_one_line_link_error(query):
    _check_outcome(query)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(GAME_IDS),
    st.lists(
        st.tuples(st.sampled_from([*FIELDS[1:], "x"]), st.lists(PIECES, max_size=4)),
        max_size=5,
        unique_by=lambda field: field[0],  # a field given twice is refused early: seldom, then
    ),
    st.booleans(),
)
def test_parse_link_on_hostile_queries_naming_a_game(game_id, fields, escaped):
    """Queries built of fields and values a careless or hostile sender would put in a link,
    raw or percent-escaped: the same three outcomes."""
    parts = [f"game={game_id}"]
    for name, pieces in fields:
        value = "".join(pieces)
        parts.append(f"{name}={quote(value, safe='') if escaped else value}")
    _check_outcome("?" + "&".join(parts))
