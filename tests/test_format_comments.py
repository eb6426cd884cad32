"""Comments round-trip through PGN and KIF (issue 44, build item 11): a comment on a move, and
the one before the first move, comes back from writing and reading exactly where the format
can hold it; what no line of a file can hold changes as `formats.writable_comment` says, and
docs/records.md lists it. Before: 11 of 24 PGN and 7 of 12 KIF comments changed (newlines,
tabs and edge spaces lost, whitespace-only comments dropped, PGN's leading ';' eaten, '}'
turned into ')')."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.formats import kif, pgn, writable_comment
from rules_kernel.session import Session

FORMATS = {"pgn": pgn, "kif": kif}
GAME = rk.load_game("yokai-3x4")
_, ACTIONS = random_game(GAME, 0, cap=10)  # 10 plies, the game not over
PLIES = len(ACTIONS)

#: what no line of a PGN or KIF file holds (records' line reader refuses it in a line, or
#: UTF-8 cannot encode it): C0 controls but tab and line feed, DEL, C1, U+2028/U+2029
UNHOLDABLE = {chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029]} - {"\t", "\n"}
#: the characters that broke comments before, and the formats' own markers, often
TRICKY = list("\n\t }{;%*[]()$#&\\\"'") + ["\u3000", "\u00a0", "\ufeff", "変化", "まで", "1.", "*"]
HOLDABLE_TEXT = st.lists(
    st.one_of(
        st.sampled_from(TRICKY),
        st.characters(exclude_categories=("Cs",), exclude_characters="".join(UNHOLDABLE)),
    ),
    min_size=1,
    max_size=30,
).map("".join)
ANY_TEXT = st.text(min_size=1, max_size=40)  # surrogates and control characters too
#: comments on some of the plies 0 (the start) .. PLIES (after the last move)
COMMENTS = st.dictionaries(st.integers(0, PLIES), HOLDABLE_TEXT, min_size=1, max_size=4)


def record_with(comments: dict[int, str]) -> records.Record:
    return records.Record.from_actions(
        GAME, ACTIONS, meta={"comments": {str(ply): text for ply, text in comments.items()}}
    )


def round_trip(module, comments: dict[int, str]) -> dict[str, str]:
    """The comments of the record `module` writes, read back as an upload is."""
    text = module.dumps(record_with(comments))
    (back,) = records.read(data=text.encode("utf-8"), name=f"game.{module.__name__.rsplit('.', 1)[1]}")
    assert [a.notation for a in back.actions] == [str(a) for a in ACTIONS]
    return back.meta.get("comments", {})


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(comments=COMMENTS)
def test_a_comment_a_format_can_hold_comes_back_exactly(name, comments):
    """Newlines, blank lines, tabs, edge spaces, whitespace only, a leading ';' or '*',
    braces, '%' at a line's start: written and read, the same text at the same ply."""
    assert round_trip(FORMATS[name], comments) == {str(ply): text for ply, text in comments.items()}


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ANY_TEXT, ply=st.integers(0, PLIES))
def test_any_other_text_comes_back_as_writable_comment_says(name, text, ply):
    """What a format cannot hold changes exactly as documented, and nothing else does."""
    assert round_trip(FORMATS[name], {ply: text}) == {str(ply): writable_comment(text)}


@settings(max_examples=200, deadline=None)
@given(HOLDABLE_TEXT)
def test_writable_comment_keeps_every_holdable_text(text):
    assert writable_comment(text) == text


def test_what_no_line_can_hold_changes_so():
    """Line breaks of other conventions become a newline (the comment keeps its lines); other
    control characters a space; an unpaired surrogate U+FFFD."""
    assert writable_comment("a\r\nb\rc\x0bd\x0ce\x1cf\x85g\u2028h\u2029i") == "a\nb\nc\nd\ne\nf\ng\nh\ni"
    assert writable_comment("a\x00b\x1bc\x7fd\x9fe\tf") == "a b c d e\tf"
    assert writable_comment("a\ud800b") == "a\ufffdb"


def test_an_empty_comment_is_no_comment():
    """A comment of no text is none (the session keeps none either): not written, not read."""
    assert round_trip(pgn, {0: "", 2: "x"}) == {"2": "x"} == round_trip(kif, {0: "", 2: "x"})
    assert "{}" not in pgn.dumps(record_with({1: ""}))


# --- the exact forms written ------------------------------------------------------------------


def movetext(comments: dict[int, str]) -> str:
    return pgn.dumps(record_with(comments)).split("\n\n", 1)[1]


def test_pgn_writes_a_comment_in_braces_as_it_stands():
    text = movetext({0: " before\n\n\tthe start ", 1: "  "})
    assert text.startswith("{ before\n\n\tthe start } 1. ")
    assert "{  }" in text


def test_pgn_writes_a_comment_holding_a_brace_or_an_escape_line_as_rest_of_line_comments():
    """PGN has no escape for '}' in a brace comment, and a line starting with '%' is its
    escape line; ';' comments hold both (the standard: braces in them lose their meaning)."""
    text = movetext({1: "a } b\n%c", 2: "{x}"})
    assert " ;a } b\n;%c\n" in text  # ends its line: the next move starts the next one
    assert " ;{x}\n" in text and "{{x}" not in text


def test_pgn_movetext_lines_stay_within_80_characters_but_a_comment_is_never_broken():
    long = "w" * 100
    lines = movetext({4: long}).split("\n")
    assert any(line.endswith("{" + long + "}") for line in lines)
    assert all(len(line) <= 80 for line in lines if long not in line)


def test_kif_writes_a_comment_as_star_lines_one_a_line():
    text = kif.dumps(record_with({0: "first\n\n  indented\t", 2: " "}))
    assert "\n*first\n*\n*  indented\t\n" in text
    assert "\n* \n" in text


# --- reading others' files ----------------------------------------------------------------------


def test_pgn_rest_of_line_comments_are_read_without_their_semicolon():
    text = (
        '[Variant "Dobutsu"]\n\n'
        "1. La2 ;the lion steps out \n"  # a trailing space is the comment's
        ";and goes on here\n"
        "1... Cxb2 ; spaced ;{x}\n"
        "  ;indented: another comment\n"
        "{a} {b} *\n"
    )
    (record,) = records.read(text=text)
    assert record.meta["comments"] == {
        "1": "the lion steps out \nand goes on here",
        "2": " spaced ;{x}\n\nindented: another comment\n\na\n\nb",
    }


def test_a_blank_line_inside_a_pgn_brace_comment_is_the_comments():
    (record,) = records.read(text='[Variant "Dobutsu"]\n\n{one\n\n  \ntwo} 1. La2 *\n')
    assert record.meta["comments"] == {"0": "one\n\n  \ntwo"}


def test_kif_star_lines_after_a_move_are_one_comment():
    text = (
        "手合割：どうぶつしょうぎ\n手数----指手---------消費時間--\n"
        "*\tbefore the start \n   1 ３三ライオン(24)\n*one\n#skipped\n*\n* two\n*\n"
        "   2 ２三ひよこ(22)\n*\n"
    )
    (record,) = records.read(text=text)
    assert record.meta["comments"] == {"0": "\tbefore the start ", "1": "one\n\n two\n"}


# --- the session's comments --------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS)
def test_a_sessions_comments_survive_an_export_and_an_upload(name):
    """Where comments live: a node's comment (the start's, and each move's); a session written
    to PGN or KIF and read back holds the same comments on the same nodes."""
    session = Session(GAME.initial_state(), agents={})
    texts = [" the start\n\tindented ", "x } y", "\n", ";leading semicolon", "*leading star"]
    session.comment = texts[0]
    for action, text in zip(ACTIONS, texts[1:], strict=False):
        session.play(action)
        session.comment = text
    written = FORMATS[name].dumps(session.to_record())
    (record,) = records.read(data=written.encode("utf-8"), name=f"game.{name}")
    again = Session.from_record(record, agents={})
    assert [node.comment for node in again.main_line()][: len(texts)] == texts
