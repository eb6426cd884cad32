"""CSA and KI2, KIF's endings and encodings, and what travels between the formats (issue 47
item 1): hand-made files after the published descriptions (tests/formats/*.csa, *.ki2), round
trips per format, every ending, each encoding, and the refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_kernel import records
from rules_kernel.cli import main
from rules_kernel.formats import ENDING_EFFECT, csa, ki2, kif, pgn, pgn_date
from rules_kernel.records.detection import detect
from rules_kernel.session import Session

HERE = Path(__file__).parent / "formats"
MODULES = {"csa": csa, "ki2": ki2, "kif": kif, "pgn": pgn}
SAMPLES = [
    "dobutsu.csa",
    "gorogoro.csa",
    "dobutsu.ki2",
    "gorogoro.ki2",
    "dobutsu.kif",
    "gorogoro.kif",
    "dobutsu.pgn",
    "gorogoro.pgn",
    "variations.kif",
]
#: the first moves of tests/formats/dobutsu.kif (the same game in every sample of Dōbutsu)
DOBUTSU_CSA_HEAD = "V2.2\nN+Ann\nN-Bo\nPI\n+\n+2433OU\n-2223FU\n"


def one(path=None, **kwargs) -> records.Record:
    found = records.read(path, **kwargs)
    assert len(found) == 1
    return found[0]


def carried(record: records.Record) -> dict:
    """What a round trip keeps: the moves, result, players and the meta every format holds."""
    meta = record.meta
    return {
        "game": record.game,
        "start": record.start,
        "actions": [a.notation for a in record.actions],
        "result": record.result,
        "players": record.players,
        "headers": meta.get("headers"),
        "ending": meta.get("ending"),
        "comments": meta.get("comments"),
        "times": meta.get("times"),
    }


# --- the hand-made samples --------------------------------------------------------------------


def test_a_csa_file_reads_its_headers_times_comments_and_resignation():
    record = one(HERE / "dobutsu.csa")
    kif_game = one(HERE / "dobutsu.kif")
    assert record.game == "yokai-3x4" and record.start is None  # PI: the game's start
    assert [a.notation for a in record.actions] == [a.notation for a in kif_game.actions][:16]
    assert record.players == ({"name": "Ann"}, {"name": "Bo"})
    assert record.meta["headers"] == {
        "event": "Dobutsu practice",
        "site": "Sapporo",
        "date": "2026/11/20 10:00:00",
        "end_date": "2026/11/20 10:05:00",
        "time_control": "00:05+10",
        "opening": "lion first",
    }
    # %TORYO with the first player to move: it resigns; the rules had not ended the game
    assert record.result is None
    assert record.meta["ending"] == {"reason": "resign", "winner": 1, "time": 4.0}
    assert (
        record.meta["times"]["1"] == 1 and record.meta["times"]["5"] == 3 and record.meta["times"]["16"] == 5
    )
    assert record.meta["comments"] == {
        "0": "both players know the opening",
        "5": "the lion takes the giraffe",
        "16": "the first player gives up",
    }


def test_a_csa_board_of_5x6_is_gorogoro_and_time_up_loses_for_the_side_to_move():
    record = one(HERE / "gorogoro.csa")
    assert record.game == "yokai-5x6" and len(record.actions) == 10
    assert record.meta["ending"] == {"reason": "time-up", "winner": 1}
    assert record.meta["times"]["10"] == 60
    assert record.meta["comments"] == {"7": "the king steps up"}


def test_ki2_files_read_with_same_square_drops_and_the_words_that_tell_pieces_apart():
    dobutsu = one(HERE / "dobutsu.ki2")
    assert [a.notation for a in dobutsu.actions] == [a.notation for a in one(HERE / "dobutsu.kif").actions]
    assert dobutsu.result["winner"] == 1
    assert dobutsu.meta["headers"] == {
        "date": "2026/11/20 10:00:00",
        "event": "Dobutsu practice",
        "site": "Sapporo",
    }
    gorogoro = one(HERE / "gorogoro.ki2")
    # 引, 左, 打 and 不成 read as the KIF (which gives the squares left) has them
    assert [a.notation for a in gorogoro.actions] == [a.notation for a in one(HERE / "gorogoro.kif").actions]
    assert gorogoro.meta["ending"] == {"winner": 1} and gorogoro.meta["comments"] == {
        "28": "the pawn stays a pawn"
    }


def test_ki2_writes_the_words_only_where_two_pieces_could_go():
    text = ki2.dumps(one(HERE / "gorogoro.kif"))
    assert "▲同　金引" in text and "▲３五金左" in text and "△４四銀打" in text and "△５五歩不成" in text
    assert "▲４五金　" in text  # a drop no piece on the board could make: no 打
    assert text.rstrip().endswith("まで40手で後手の勝ち")


@pytest.mark.parametrize("name", SAMPLES)
def test_the_format_is_told_by_content_without_the_suffix(name):
    data = (HERE / name).read_bytes()
    assert detect(data, "") == name.split(".")[1]
    assert one(data=data, name="upload").actions == one(HERE / name).actions


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("kind", ["csa", "ki2", "kif", "pgn"])
def test_read_write_read_keeps_moves_result_ending_headers_comments_and_times(tmp_path, name, kind):
    first = one(HERE / name)
    path = tmp_path / f"game.{kind}"
    records.write(path, first, format=kind)
    again = one(path)
    want, got = carried(first), carried(again)
    if kind == "ki2":  # KI2 has no time column
        want["times"] = got["times"] = None
    if kind == "pgn" and first.meta.get("times"):
        assert again.meta["times"] == first.meta["times"]  # written as [%emt]
    if want["ending"] and not got["ending"] and first.result is not None:
        want["ending"] = None  # the rules' end, which the moves say
    if got["ending"] and not want["ending"]:
        got["ending"] = None  # a word a format writes for the rules' end (詰み, %TSUMI)
    if want["ending"] != got["ending"] and want["ending"] and got["ending"]:
        # an ending the format has no word for keeps who won
        assert want["ending"].get("winner") == got["ending"].get("winner")
        want["ending"] = got["ending"] = None
    if kind != name.split(".")[1] and want["headers"]:
        # another format writes a date its own way (PGN without the time), a CSA time limit
        # as PGN's seconds; KIF, KI2 and CSA have no round
        def same(headers: dict) -> dict:
            return {k: pgn_date(v)[:10] if "date" in k else v for k, v in headers.items() if k != "round"}

        want["headers"], got["headers"] = same(want["headers"]), same(got["headers"] or {})
        if kind == "pgn" and "time_control" in want["headers"]:
            assert got["headers"].pop("time_control") and want["headers"].pop("time_control")
        if kind == "pgn":
            want["headers"].pop("end_date", None)
    assert got == want
    # and a second round is byte for byte the first
    path2 = tmp_path / f"again.{kind}"
    records.write(path2, again, format=kind)
    assert path2.read_bytes() == path.read_bytes()


def test_a_csa_round_trip_keeps_every_field_exactly():
    first = one(HERE / "dobutsu.csa")
    again = one(text=csa.dumps(first), name="x.csa")
    assert carried(again) == carried(first)
    assert csa.dumps(again) == csa.dumps(first)


def test_csa_files_may_hold_several_games_separated_by_a_slash(tmp_path):
    games = [one(HERE / "dobutsu.csa"), one(HERE / "gorogoro.csa")]
    path = tmp_path / "two.csa"
    assert records.write(path, games, format="csa") == 2
    back = records.read(path)
    assert [carried(r) for r in back] == [carried(r) for r in games]


# --- endings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "reason", "winner"),
    [
        ("TORYO", "resign", 1),
        ("CHUDAN", "abort", None),
        ("SENNICHITE", "repetition", "draw"),
        ("TIME_UP", "time-up", 1),
        ("ILLEGAL_MOVE", "illegal-move", 1),
        ("+ILLEGAL_ACTION", "illegal-action", 1),
        ("-ILLEGAL_ACTION", "illegal-action", 0),
        ("JISHOGI", "impasse", "draw"),
        ("KACHI", "declared-win", 0),
        ("HIKIWAKE", "draw", "draw"),
        ("TSUMI", "mate", 1),
        ("FUZUMI", "no-mate", None),
        ("ERROR", "error", None),
    ],
)
def test_every_csa_ending_reads_and_is_written_back(word, reason, winner):
    # after two moves the first player is to move: its %TORYO is its own resignation
    record = one(text=DOBUTSU_CSA_HEAD + f"%{word}\n", name="x.csa")
    assert record.meta.get("ending", {}).get("reason") == reason
    assert record.meta["ending"].get("winner") == winner
    assert csa.dumps(record).rstrip().endswith(f"%{word}")


KIF_HEAD = (
    "手合割：どうぶつしょうぎ\n手数----指手---------消費時間--\n   1 ３三ライオン(24)\n   2 ２三ひよこ(22)\n"
)


@pytest.mark.parametrize(("word", "reason"), sorted(kif.ENDINGS.items()))
def test_every_kif_ending_kakinokis_and_81dojos_reads_with_whom_it_makes_win(word, reason):
    record = one(text=KIF_HEAD + f"   3 {word}   ( 0:05/00:00:05)\n", name="x.kif")
    effect = ENDING_EFFECT[reason]
    expected = {0: 0, 1: 1}.get(effect, effect) if effect in (0, 1) else effect  # the first player moves
    assert record.meta["ending"].get("reason") == reason
    assert record.meta["ending"].get("winner") == expected
    assert record.meta["ending"]["time"] == 5
    written = kif.dumps(record)
    assert f"   3 {kif.ENDING_WORDS[reason]}" in written or reason == "illegal-win"
    assert carried(one(text=written, name="y.kif"))["ending"] == record.meta["ending"]


@pytest.mark.parametrize(("word", "reason"), sorted(kif.ENDINGS.items()))
def test_every_kif_ending_keeps_who_won_in_csa_ki2_and_pgn(word, reason):
    record = one(text=KIF_HEAD + f"   3 {word}\n", name="x.kif")
    winner = record.meta["ending"].get("winner")
    for kind in ("csa", "ki2", "pgn"):
        back = one(text=MODULES[kind].dumps(record), name=f"y.{kind}")
        assert back.meta.get("ending", {}).get("winner") == winner, kind


@pytest.mark.parametrize(
    ("words", "reason", "winner"),
    [
        ("後手の勝ち", None, 1),
        ("先手の勝ち", None, 0),
        ("千日手", "repetition", "draw"),
        ("持将棋", "impasse", "draw"),
        ("中断", "abort", None),
        ("時間切れにより後手の勝ち", "time-up", 1),
        ("後手の反則勝ち", "illegal-move", 1),
        ("先手の反則勝ち", "illegal-win", 0),
        ("詰み", "mate", 1),
        ("入玉で先手の勝ち", "declared-win", 0),
    ],
)
def test_the_made_line_of_ki2_says_the_ending_and_is_written_back(words, reason, winner):
    text = "手合割：どうぶつしょうぎ\n\n▲３三ライオン　△２三ひよこ\n" + f"まで2手で{words}\n"
    record = one(text=text, name="x.ki2")
    assert record.meta.get("ending", {}).get("reason") == reason
    assert record.meta.get("ending", {}).get("winner") == winner
    assert ki2.dumps(record).rstrip().endswith(f"まで2手で{words}")


# --- between the formats ----------------------------------------------------------------------


PGN_RESIGNED = """[Event "Club night"]
[Site "Tokyo"]
[Date "2026.11.24"]
[Round "3"]
[White "Ann"]
[Black "Bo"]
[Result "1-0"]
[TimeControl "300+2"]
[Variant "Dobutsu"]

1. La2 {[%clk 0:04:58]} Cxb2 {[%clk 0:04:55] a pawn's worth} 2. Gb1 {[%clk 0:04:57]} 1-0
"""


def test_a_pgn_result_becomes_the_kif_and_csa_ending_and_clocks_their_times():
    record = one(text=PGN_RESIGNED, name="x.pgn")
    assert record.result is None and record.meta["ending"] == {"winner": 0}
    assert record.meta["clocks"] == {"1": 298, "2": 295, "3": 297}
    assert record.meta["comments"] == {"2": "a pawn's worth"}  # the clock is no comment
    assert record.meta["headers"] == {
        "event": "Club night",
        "site": "Tokyo",
        "date": "2026.11.24",
        "round": "3",
        "time_control": "300+2",
    }
    kif_text = kif.dumps(record)
    # the second player is to move when the first wins: it resigned
    assert "   4 投了" in kif_text and kif_text.rstrip().endswith("まで3手で先手の勝ち")
    assert "[%clk" not in kif_text
    assert "棋戦：Club night" in kif_text and "場所：Tokyo" in kif_text and "開始日時：2026/11/24" in kif_text
    assert "持ち時間：300+2" in kif_text
    # the time each move took, from the clocks and the time control (2 s increment)
    assert "   1 ３三ライオン(24)" in kif_text and "( 0:04/00:00:04)" in kif_text
    csa_text = csa.dumps(record)
    assert csa_text.rstrip().endswith("%TORYO")
    assert "$EVENT:Club night" in csa_text and "$START_TIME:2026/11/24" in csa_text
    assert "+2433OU\nT4\n-2223FU\nT7\n'*a pawn's worth\n+1424HI\nT3\n" in csa_text
    back = one(text=pgn.dumps(record), name="y.pgn")
    assert back.meta["clocks"] == record.meta["clocks"] and back.meta["comments"] == record.meta["comments"]


def test_a_kif_ending_becomes_the_pgn_result_and_its_headers_pgn_tags():
    text = (
        "開始日時：2026/11/20 10:00:00\n棋戦：練習対局\n場所：Sapporo\n持ち時間：各5分\n"
        + KIF_HEAD
        + "   3 切れ負け\nまで2手で後手の勝ち\n"
    )
    record = one(text=text, name="x.kif")
    written = pgn.dumps(record)
    assert '[Result "0-1"]' in written and written.rstrip().endswith("0-1")
    assert (
        '[Event "練習対局"]' in written and '[Site "Sapporo"]' in written and '[Date "2026.11.20"]' in written
    )
    assert '[TimeControl "各5分"]' in written and '[Termination "time forfeit"]' in written
    back = one(text=written, name="y.pgn")
    assert back.meta["ending"] == {"reason": "time-up", "winner": 1}
    assert kif.dumps(back).count("切れ負け") == 1


def test_a_csa_game_keeps_its_names_event_and_times_in_kif_and_pgn():
    record = one(HERE / "dobutsu.csa")
    kif_text = kif.dumps(record)
    assert "先手：Ann" in kif_text and "棋戦：Dobutsu practice" in kif_text and "場所：Sapporo" in kif_text
    assert "   5 同　ライオン(33)" in kif_text and "( 0:03/00:00:05)" in kif_text
    assert "  17 投了" in kif_text and "まで16手で後手の勝ち" in kif_text
    pgn_text = pgn.dumps(record)
    assert (
        '[Result "0-1"]' in pgn_text and '[TimeControl "300+10"]' in pgn_text and "[%emt 0:00:03]" in pgn_text
    )


def test_a_promotion_written_with_the_promoted_pieces_name_reads_as_a_promotion():
    moves = ["２二ひよこ(23)", "１二ライオン(21)", "２一にわとり(22)"]
    body = "".join(f"{n:>4} {m}\n" for n, m in enumerate(moves, 1))
    record = one(text="手合割：どうぶつしょうぎ\n手数----指手---------消費時間--\n" + body, name="x.kif")
    assert record.actions[-1].notation == "b3b4+"  # the Kodama reaches the last rank, promoted
    assert "２一ひよこ成(22)" in kif.dumps(record)  # written as Kakinoki's description has it


def test_kif_variations_read_into_the_sessions_tree_and_are_written_back(tmp_path):
    record = one(HERE / "variations.kif")
    assert [a.notation for a in record.actions] == ["b1a2", "b3b2", "c1b1", "a4a3", "a2a3", "C@a2"]
    assert record.meta["variations"] == [  # by the ply they leave at, as a session exports them
        {"ply": 1, "actions": ["b4a3", "b2b3"], "comments": {"3": "the chick takes the chick"}},
        {
            "ply": 2,  # 変化：3手: another third move
            "actions": ["a2b2", "c4b3", "b2b3", "b4b3"],
            "comments": {"3": "the lion takes at once"},
            "variations": [{"ply": 4, "actions": ["b2c2"]}],  # 変化：5手 leaves that line
        },
    ]
    written = kif.dumps(record)
    assert "   2 ２三ひよこ(22)+" in written and "変化：3手\n   3 同　ライオン(33)" in written
    assert written.index("変化：3手") < written.index("変化：5手") < written.index("変化：2手")
    assert one(text=written, name="x.kif").meta["variations"] == record.meta["variations"]
    # KI2 holds them as KIF does, PGN as ( ... ) after the move each replaces
    as_ki2 = ki2.dumps(record)
    assert (
        "変化：3手\n▲同　ライオン\n*the lion takes at once\n△２二ぞう　▲同　ライオン　△同　ライオン" in as_ki2
    )
    assert one(text=as_ki2, name="x.ki2").meta["variations"] == record.meta["variations"]
    as_pgn = pgn.dumps(record)
    assert "Cxb2 ( 1... La3 2. Cxb3 {the chick takes the chick} ) 2. Gb1" in as_pgn
    assert one(text=as_pgn, name="x.pgn").meta["variations"] == record.meta["variations"]
    session = Session.from_record(record)
    first = session.root.children[0]
    assert [n.notation for n in first.children] == ["b3b2", "b4a3"]  # the main line, then the variation


def test_a_bad_kif_variation_is_named_by_its_line():
    text = (HERE / "variations.kif").read_text(encoding="utf-8")
    with pytest.raises(records.RecordError, match=r"line 28, ply 2: KIF: '２二ひよこ\(22\)' is not a legal"):
        one(text=text.replace("   3 ２二ひよこ(23)", "   3 ２二ひよこ(22)"), name="x.kif")
    with pytest.raises(records.RecordError, match=r"line 26: 変化：9手 leaves no line that has a move 9"):
        one(text=text.replace("変化：2手\n   2", "変化：9手\n   9"), name="x.kif")


def test_a_pgn_variation_reads_nested_and_a_bad_move_in_it_is_named():
    head = '[Variant "Dobutsu"]\n\n'
    record = one(text=head + "1. La2 (1. Cxb3 (1. Lc2) Lxb3 {no} (1... Exb3)) Cxb2 *\n", name="x.pgn")
    assert [a.notation for a in record.actions] == ["b1a2", "b3b2"]
    assert record.meta["variations"] == [
        {
            "ply": 0,
            "actions": ["b2b3", "b4b3"],
            "comments": {"2": "no"},
            "variations": [{"ply": 1, "actions": ["c4b3"]}],
        },
        {"ply": 0, "actions": ["b1c2"]},  # an alternative to the variation's first move: its sibling
    ]
    with pytest.raises(records.RecordError, match=r"x\.pgn, line 5, ply 2: PGN: 'Lxa4' is not a legal move"):
        one(text=head + "1. La2 Cxb2\n(1... Ga3\n2. Lxa4) *\n", name="x.pgn")
    with pytest.raises(records.RecordError, match=r"a variation '\(' before any move of its line"):
        one(text=head + "(1. La2) 1. Gb1 *\n", name="x.pgn")


# --- encodings --------------------------------------------------------------------------------


def test_kif_is_written_as_shift_jis_for_kif_and_utf8_for_kifu(tmp_path):
    record = one(HERE / "dobutsu.kif")
    records.write(tmp_path / "a.kif", record, format="kif")
    records.write(tmp_path / "a.kifu", record, format="kif")
    shift_jis = (tmp_path / "a.kif").read_bytes()
    assert shift_jis.startswith(b"#KIF version=2.0 encoding=Shift_JIS\r\n")
    assert "手合割：どうぶつしょうぎ\r\n" in shift_jis.decode("cp932")
    utf8 = (tmp_path / "a.kifu").read_bytes()
    assert utf8.startswith(b"#KIF version=2.0 encoding=UTF-8\n") and "ライオン" in utf8.decode("utf-8")
    assert one(tmp_path / "a.kif").meta["encoding"] == "cp932"
    assert "encoding" not in one(tmp_path / "a.kifu").meta


def test_a_name_shift_jis_lacks_is_written_as_utf8_saying_so(tmp_path):
    record = one(text=kif.dumps(one(HERE / "dobutsu.kif")).replace("先手：Ann", "先手：Ann 🦁"), name="x.kif")
    records.write(tmp_path / "a.kif", record, format="kif")
    assert (tmp_path / "a.kif").read_bytes().startswith(b"#KIF version=2.0 encoding=UTF-8\n")
    assert one(tmp_path / "a.kif").players[0]["name"] == "Ann 🦁"
    records.write(tmp_path / "a.csa", record, format="csa")
    assert (tmp_path / "a.csa").read_bytes().startswith(b"'CSA encoding=UTF-8\n")
    assert one(tmp_path / "a.csa").players[0]["name"] == "Ann 🦁"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932", "euc-jp"])
@pytest.mark.parametrize("name", ["dobutsu.kif", "dobutsu.ki2", "gorogoro.csa"])
def test_each_encoding_is_detected_and_named(name, encoding):
    text = (HERE / name).read_text(encoding="utf-8")
    record = one(data=text.replace("\n", "\r\n").encode(encoding), name="upload")
    assert carried(record) == carried(one(HERE / name))
    named = {"utf-8": None, "utf-8-sig": None, "cp932": "cp932", "euc-jp": "euc-jp"}[encoding]
    assert record.meta.get("encoding") == named


def test_the_encoding_line_is_honoured_and_a_lie_in_it_is_named():
    text = "#KIF version=2.0 encoding=EUC-JP\n" + (HERE / "dobutsu.kif").read_text(encoding="utf-8")
    assert one(data=text.encode("euc-jp"), name="x.kif").meta["encoding"] == "euc-jp"
    with pytest.raises(records.RecordError, match=r"says encoding=euc-jp but line \d+ is not euc-jp"):
        one(data=text.encode("utf-8"), name="x.kif")
    with pytest.raises(records.RecordError, match=r"encoding='latin-9'"):
        one(data=text.replace("EUC-JP", "latin-9").encode("euc-jp"), name="x.kif")


def test_bytes_in_no_japanese_encoding_are_refused_naming_the_format_and_the_encodings():
    data = "手合割：どうぶつしょうぎ\n".encode() + b"\x80\xff\xfe\x85 broken\n"
    with pytest.raises(
        records.RecordError, match=r"the KIF file is not text in UTF-8, Shift_JIS \(cp932\) or EUC-JP"
    ):
        one(data=data, name="x.kif")


# --- refusals ---------------------------------------------------------------------------------


def test_a_csa_move_that_is_not_one_of_the_games_is_named_by_line_and_ply():
    with pytest.raises(
        records.RecordError, match=r"x\.csa, line 8, ply 2: CSA: '\+9999XX' is not a move of yokai-3x4"
    ):
        one(text=DOBUTSU_CSA_HEAD + "+9999XX\n", name="x.csa")
    with pytest.raises(
        records.RecordError, match=r"line 8, ply 2: CSA: '\+2423OU': the first player has no piece on 24"
    ):
        one(text=DOBUTSU_CSA_HEAD + "+2423OU\n", name="x.csa")  # the lion stands on 33
    with pytest.raises(
        records.RecordError, match=r"line 8, ply 2: CSA: '\+3331OU' is not a legal move of the first"
    ):
        one(text=DOBUTSU_CSA_HEAD + "+3331OU\n", name="x.csa")  # two squares at once
    with pytest.raises(
        records.RecordError, match=r"line 8, ply 2: CSA: '-3332HI' is a move of the second player"
    ):
        one(text=DOBUTSU_CSA_HEAD + "-3332HI\n", name="x.csa")


def test_a_truncated_csa_file_is_refused_at_its_last_line():
    text = (HERE / "dobutsu.csa").read_text(encoding="utf-8")
    cut = text[: text.index("+3423KA") + 4]
    with pytest.raises(records.RecordError, match=r"CSA: '\+342' is not a move"):
        one(text=cut, name="x.csa")


def test_another_games_csa_file_is_refused_saying_what_it_is():
    shogi = "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n" + "".join(
        f"P{n} *  *  *  *  *  *  *  *  * \n" for n in range(2, 10)
    )
    with pytest.raises(records.RecordError, match=r"CSA: a board of 9x9 squares is no board .* 9x9 is shogi"):
        one(text=shogi + "+\n", name="x.csa")
    with pytest.raises(records.RecordError, match=r"takes pieces off \(a handicap\)"):
        one(text="V2.2\nPI82HI22KA\n+\n", name="x.csa")
    with pytest.raises(records.RecordError, match=r"the moves fit none"):
        one(text="V2.2\nPI\n+\n+7776FU\n", name="x.csa")


def test_a_ki2_without_its_made_line_is_refused_not_read_as_a_shorter_game():
    text = (HERE / "dobutsu.ki2").read_text(encoding="utf-8")
    cut = text[: text.index("まで")]
    with pytest.raises(records.RecordError, match=r"KI2: no まで line after the 18 moves read"):
        one(text=cut, name="x.ki2")
    with pytest.raises(records.RecordError, match=r"counts 17 moves, the file has 18"):
        one(text=text.replace("まで18手", "まで17手"), name="x.ki2")


def test_a_ki2_move_illegal_or_ambiguous_is_named_by_line_and_ply():
    text = "手合割：どうぶつしょうぎ\n\n▲３三ライオン　△２三ひよこ\n▲１一ライオン\nまで3手で中断\n"
    with pytest.raises(records.RecordError, match=r"line 4, ply 2: KI2: '▲１一ライオン' is not a legal move"):
        one(text=text, name="x.ki2")
    gorogoro = (HERE / "gorogoro.ki2").read_text(encoding="utf-8")
    with pytest.raises(records.RecordError, match=r"line 13, ply 30: KI2: '▲３五金' could be 2 moves"):
        one(text=gorogoro.replace("▲３五金左", "▲３五金"), name="x.ki2")


def test_a_kif_ending_and_made_line_that_disagree_are_refused():
    with pytest.raises(records.RecordError, match=r"the result line says a win of the first player"):
        one(text=KIF_HEAD + "   3 投了\nまで2手で先手の勝ち\n", name="x.kif")


@pytest.mark.parametrize("name", ["dobutsu.csa", "gorogoro.ki2"])
def test_an_upload_of_csa_or_ki2_is_read_as_its_format(name):
    found = records.read_upload((HERE / name).read_bytes(), "upload")
    assert [carried(r) for r in found] == [carried(one(HERE / name))]
    cut = (HERE / name).read_text(encoding="utf-8").replace("+1424HI", "+1424XX").replace("まで40手", "")
    with pytest.raises(records.RecordError, match=r"upload, line \d+(, ply \d+)?: (CSA|KI2): "):
        records.read_upload(cut.encode("utf-8"), "upload")


# --- rules-explorer convert --------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".csa", ".ki2", ".kif", ".kifu", ".pgn", ".jsonl"])
def test_convert_writes_the_format_out_names(tmp_path, capsys, suffix):
    out = tmp_path / f"game{suffix}"
    assert main(["convert", str(HERE / "dobutsu.csa"), str(out)]) == 0
    assert "1 game(s) written" in capsys.readouterr().out
    ending = carried(one(out))["ending"]
    assert ending["winner"] == 1 and ending.get("reason", "resign") == "resign"  # KI2: 後手の勝ち
    if suffix in (".csa", ".kif", ".kifu", ".jsonl"):  # PGN and KI2 have no time for the ending
        assert ending == {"reason": "resign", "winner": 1, "time": 4.0}


def test_convert_refuses_an_unknown_suffix_and_a_bad_game_without_writing(tmp_path, capsys):
    assert main(["convert", str(HERE / "dobutsu.csa"), str(tmp_path / "game.xyz")]) == 2
    assert "--to" in capsys.readouterr().err
    assert main(["convert", str(HERE / "dobutsu.csa"), str(tmp_path / "game.xyz"), "--to", "ki2"]) == 0
    bad = tmp_path / "bad.csa"
    bad.write_text(DOBUTSU_CSA_HEAD + "+9999XX\n", encoding="utf-8")
    assert main(["convert", str(bad), str(tmp_path / "out.kif")]) == 2
    assert "CSA: '+9999XX' is not a move of yokai-3x4" in capsys.readouterr().err
    assert not (tmp_path / "out.kif").exists()


# --- the Replay widget -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "plies"), [("dobutsu.csa", 16), ("gorogoro.ki2", 40)])
def test_the_replay_widget_offers_and_replays_a_csa_or_ki2_upload(name, plies):
    import widgets

    replay = widgets.Replay(upload=True)
    assert f".{name.split('.')[1]}" in replay.upload.accept.split(",")
    content = (HERE / name).read_bytes()
    replay.upload.value = (
        {
            "name": name,
            "type": "",
            "size": len(content),
            "content": memoryview(content),
            "last_modified": None,
        },
    )
    assert replay.slider.max == plies
