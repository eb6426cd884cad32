"""Players' formats for the Yōkai games (issue #24 item 4): PGN as pychess-variants writes
Dōbutsu and Gorogoro+, KIF as Japanese programs write どうぶつしょうぎ; `records.read` tells
them from JSON Lines and the text form by content."""

from __future__ import annotations

from pathlib import Path

import pytest
from playing import random_game

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.formats import csa, ki2, kif, pgn

HERE = Path(__file__).parent / "formats"
GAMES = ("yokai-3x4", "yokai-5x6")
#: random games are cut at this many plies (a 5x6 game rarely ends sooner; its plies cost more)
CAP = {"yokai-3x4": 120, "yokai-5x6": 80}


def one(path=None, **kwargs) -> records.Record:
    """The one game `records.read` finds in a path, or in data= (bytes) or text= (a str)."""
    found = records.read(path, **kwargs)
    assert len(found) == 1
    return found[0]


# --- hand-written files -------------------------------------------------------------------


def test_a_pychess_dobutsu_pgn_reads_with_its_tags_comments_drops_and_result():
    record = one(HERE / "dobutsu.pgn")
    assert record.game == "yokai-3x4" and record.start is None
    assert len(record.actions) == 18
    assert "C@a2" in [a.notation for a in record.actions]  # 3... C@a2, a drop
    assert record.result["winner"] == 1 and record.result["reason"] == "the Koropokkuru was captured"
    assert record.players == ({"name": "Ann"}, {"name": "Bo"})
    assert record.meta["pgn"]["Site"] == "https://www.pychess.org/aBcDeFgH"
    # the session's format; a comment as it stands in the file, its line break kept (issue 44)
    assert record.meta["comments"]["6"] == "a chick dropped\nnext to the lion"
    assert record.meta["comments"]["0"] == "Ann opens with the lion"


def test_a_gorogoroplus_pgn_without_lance_or_knight_is_the_5x6_game():
    record = one(HERE / "gorogoro.pgn")
    assert record.game == "yokai-5x6" and len(record.actions) == 14
    assert record.actions[10].notation == "d4d5+"  # 6. Pxd5=G+: a promotion with check
    assert record.result is None  # "*": the game goes on
    # the variation (6. Sa3 Pc2) instead of the tenth move: the session's tree
    assert record.meta["variations"] == [{"ply": 10, "actions": ["a2a3", "c3c2"]}]


def test_a_dobutsu_kif_reads_with_comments_drops_same_square_and_result():
    record = one(HERE / "dobutsu.kif")
    assert record.game == "yokai-3x4" and len(record.actions) == 18
    notations = [a.notation for a in record.actions]
    assert notations[4] == "a2a3" and notations[5] == "C@a2"  # 同　ライオン(33), ３三ひよこ打
    assert record.result["winner"] == 1
    assert record.meta["comments"] == {
        "0": "both players know the opening",
        "5": "the lion takes the giraffe",
    }
    assert record.meta["kif"] == {"開始日時": "2026/11/20 10:00:00"}


def test_a_shift_jis_kif_with_shogi_kanji_reads_the_same():
    """KIF files are often Shift_JIS, and some writers name the pieces by shogi's kanji."""
    text = (HERE / "dobutsu.kif").read_text(encoding="utf-8")
    for animal, kanji in (("ライオン", "玉"), ("きりん", "飛"), ("ぞう", "角"), ("ひよこ", "歩")):
        text = text.replace(animal, kanji)
    record = one(data=text.encode("cp932"), name="shogi-names.kif")
    assert record.actions == one(HERE / "dobutsu.kif").actions


def test_a_kif_board_diagram_gives_the_start():
    text = (
        "手合割：どうぶつしょうぎ\n後手の持駒：ぞう\n  ３ ２ １\n+---------+\n|vき ・vぞ|一\n"
        "| ・ ひ ・|二\n| ・vラ ひ|三\n| ・ ラ き|四\n+---------+\n先手の持駒：なし\n後手番\n"
        "手数----指手---------消費時間--\n   1 ２一ぞう打\nまで1手で中断\n"
    )
    record = one(text=text)
    assert record.start == "g1e/1C1/1lC/1LG[e] b - - 0 1" and record.actions[0].notation == "E@b4"


# --- round trips --------------------------------------------------------------------------


def games(game_id: str, count: int, cap: int):
    """Random games, every third from a position after a few moves (a `start`)."""
    game = rk.load_game(game_id)
    for seed in range(count):
        states, actions = random_game(game, seed, cap=cap)
        cut = 5 if seed % 3 == 0 and len(actions) > 6 else 0
        yield records.Record.from_actions(game, actions[cut:], start=states[cut], players=["Ann", "Bo"])


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("module", [pgn, kif, ki2, csa], ids=["pgn", "kif", "ki2", "csa"])
def test_a_hundred_random_games_come_back_the_same(game_id, module):
    for record in games(game_id, 100, cap=CAP[game_id]):
        text = module.dumps(record)
        back = one(data=text.encode("utf-8"), name=f"game.{module.__name__.rsplit('.', 1)[1]}")
        assert back.game == record.game
        assert back.actions == record.actions
        assert back.start_state() == record.start_state()
        assert back.result == record.result
        assert back.players == record.players
        if module is pgn:  # PGN's FEN keeps the move number too
            assert back.start == record.start


@pytest.mark.parametrize("game_id, variant", [("yokai-3x4", "dobutsu"), ("yokai-5x6", "gorogoro")])
def test_our_san_is_fairy_stockfish_san(game_id, variant):
    """pychess-variants writes its moves with pyffish's get_san_moves: ours are the same."""
    sf = pytest.importorskip("pyffish")
    for record in games(game_id, 30, cap=150):
        if record.start is not None:
            continue
        movetext = pgn.dumps(record).split("\n\n", 1)[1].split()
        ours = [t for t in movetext if not t[0].isdigit() and t != "*"]
        moves = [a.notation for a in record.actions]
        assert ours == sf.get_san_moves(variant, sf.start_fen(variant), moves, False, sf.NOTATION_SAN)


def test_several_pgn_games_and_comments_round_trip():
    found = [one(HERE / "dobutsu.pgn"), one(HERE / "gorogoro.pgn")]
    text = "".join(pgn.dumps(r) + "\n" for r in found)
    back = records.read(text=text)
    assert [r.actions for r in back] == [r.actions for r in found]
    assert [r.meta for r in back] == [r.meta for r in found]
    assert one(text=kif.dumps(found[0])).meta["comments"] == found[0].meta["comments"]


def test_the_write_helpers_write_files_that_read_back(tmp_path):
    found = [one(HERE / "dobutsu.pgn"), one(HERE / "gorogoro.pgn")]
    assert pgn.write(tmp_path / "two.pgn", found) == 2
    assert [r.actions for r in records.load(tmp_path / "two.pgn")] == [r.actions for r in found]
    kif.write(tmp_path / "one.kif", found[1])
    assert records.read(tmp_path / "one.kif")[0].actions == found[1].actions


# --- errors -------------------------------------------------------------------------------

PGN_HEAD = '[Event "x"]\n[Variant "{}"]\n\n'


@pytest.mark.parametrize("variant", ["shogi", "minishogi", "chess"])
def test_a_pgn_of_another_variant_is_refused_naming_its_line(variant):
    with pytest.raises(records.RecordError) as error:
        records.read(text=PGN_HEAD.format(variant) + "1. e4 e5 *\n", name="other.pgn")
    assert str(error.value).startswith("other.pgn, line 2: [Variant ")
    assert "is another game" in str(error.value) and "dobutsu (yokai-3x4)" in str(error.value)


def test_a_kif_of_standard_shogi_is_refused():
    with pytest.raises(records.RecordError, match=r"x.kif, line 1: 手合割 '平手' is another game"):
        records.read(data="手合割：平手\n手数----指手--\n   1 ７六歩(77)\n".encode(), name="x.kif")


def test_an_illegal_move_names_its_line_and_ply():
    text = PGN_HEAD.format("Dobutsu") + "1. Cxb3 Exb3\n2. Lc4 *\n"
    with pytest.raises(records.RecordError, match=r"bad.pgn, line 5, ply 2: PGN: 'Lc4' is not a legal move"):
        records.read(text=text, name="bad.pgn")
    kif_text = "手合割：どうぶつしょうぎ\n   1 ２二ひよこ(23)\n   2 ２一ライオン(21)\n"
    with pytest.raises(records.RecordError, match=r"bad.kif, line 3, ply 1: "):
        records.read(text=kif_text, name="bad.kif")


def test_malformed_headers_and_contradicted_results_are_refused():
    with pytest.raises(records.RecordError, match=r"line 2: malformed PGN tag"):
        records.read(text='[Event "x"]\n[Variant Dobutsu]\n\n1. Cxb3 *\n')
    with pytest.raises(records.RecordError, match=r"line 1: \[Result 'white'\]"):
        records.read(text='[Result "white"]\n[Variant "dobutsu"]\n\n1. Cxb3 *\n')
    game = PGN_HEAD.format("dobutsu").replace('[Event "x"]', '[Result "1-0"]')
    with pytest.raises(records.RecordError, match=r"says a win of the first player, but the replay ends"):
        moves = (HERE / "dobutsu.pgn").read_text().split("\n\n", 1)[1]
        records.read(text=game + moves.replace("0-1", "1-0"))


def test_a_resignation_is_kept_as_the_game_s_claim():
    record = one(text=PGN_HEAD.format("Dobutsu").replace('[Event "x"]', '[Result "1-0"]') + "1. Cxb3 1-0\n")
    assert record.result is None and record.meta["pgn"]["Result"] == "1-0"
    assert '[Result "1-0"]' in pgn.dumps(record)


# --- detection by content -----------------------------------------------------------------


def test_the_format_is_told_by_content_not_by_name():
    data = (HERE / "dobutsu.pgn").read_bytes()
    assert records.detect(data) == "pgn" and records.detect((HERE / "dobutsu.kif").read_bytes()) == "kif"
    assert records.detect(b'{"format": "rules-explorer/1"}\n') == "jsonl"
    assert records.detect(b"game: yokai-3x4\nb2b3\n") == "text"
    assert len(records.read_upload(data, "game.txt")[0].actions) == 18
    assert len(records.read_upload((HERE / "dobutsu.kif").read_bytes(), "upload")[0].actions) == 18
    assert len(records.load(HERE / "dobutsu.kif")[0].actions) == 18


def test_read_takes_json_lines_and_the_text_form_too():
    record = records.Record.from_actions(rk.load_game("yokai-3x4"), ["b2b3", "b4b3"])
    assert records.read(text=record.to_json() + "\n") == [record]
    assert records.read(data=records.to_text_game(record).encode())[0].actions == record.actions


def test_an_upload_in_pgn_or_kif_is_bounded_by_actions(monkeypatch):
    """The games are replayed while read: the bound stops them before, as for the text form."""
    monkeypatch.setattr(records, "MAX_UPLOAD_ACTIONS", 40)
    text = pgn.dumps(one(HERE / "dobutsu.pgn")).encode()
    assert len(records.read_upload(text * 2, "two.pgn")) == 2
    with pytest.raises(records.RecordError, match=r"many.pgn, line 49: the file holds more actions"):
        records.read_upload(text * 3, "many.pgn")
    long_kif = (HERE / "dobutsu.kif").read_bytes()
    monkeypatch.setattr(records, "MAX_UPLOAD_ACTIONS", 10)
    with pytest.raises(records.RecordError, match=r"line 19: the game has more than 10 actions"):
        records.read_upload(long_kif, "long.kif")


@pytest.mark.parametrize("name", ["dobutsu.pgn", "dobutsu.kif", "gorogoro.pgn"])
def test_damaged_files_give_a_record_error_or_a_game_never_a_crash(name):
    """Upload-style bytes cut, doubled and overwritten at random: read and read_upload answer
    with records or one RecordError, whatever is left of the file."""
    import random

    data = (HERE / name).read_bytes()
    rng = random.Random(name)
    for _ in range(150):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(damaged))
            choice = rng.random()
            if choice < 0.4:
                del damaged[at : at + rng.randint(1, 12)]
            elif choice < 0.7:
                damaged[at:at] = damaged[rng.randrange(len(damaged)) :][: rng.randint(1, 12)]
            else:
                damaged[at] = rng.choice(b'[]{}()"\\;*#1-0/ \n\xe5\x90\x8c\x80')
        for reader in (
            lambda d: records.read(data=bytes(d), name=name),
            lambda d: records.read_upload(bytes(d), name),
        ):
            try:
                assert all(isinstance(r, records.Record) for r in reader(damaged))
            except records.RecordError as error:
                assert "\n" not in str(error)


def test_a_gorogoro_kif_reads_promotions_refusals_and_a_resignation():
    record = one(HERE / "gorogoro.kif")
    assert record.game == "yokai-5x6" and len(record.actions) == 40
    notations = [a.notation for a in record.actions]
    assert notations[27] == "a3a2" and notations[39] == "b3b2+"  # ５五歩不成(54), 同　銀成(44)
    assert notations[19] == "P@e6"  # １一歩打
    assert record.result is None  # 投了: a resignation, which our rules do not end a game by
    assert record.meta["kif"] == {"棋戦": "練習対局", "result": "まで40手で後手の勝ち"}
    assert record.meta["comments"] == {"28": "the pawn stays a pawn"}
    assert kif.dumps(record).endswith("まで40手で後手の勝ち\n")


def test_the_statistics_read_pgn_and_kif_files():
    """Issue #24 item 4: "analysing recorded games with pandas" takes a player's own games."""
    from rules_kernel import stats

    for name in ("dobutsu.pgn", "dobutsu.kif", "gorogoro.kif"):
        games = stats.games_frame(HERE / name)
        assert len(games) == 1 and games.loc[0, "actions"] == len(one(HERE / name).actions)
