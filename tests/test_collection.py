"""Game collections (rules_kernel.collection, `rules-explorer collection import`): folders,
archives and record files of every format into games/moves/positions Parquet tables; bad games
reported by file and line; hostile archives read as data only; whole or nothing."""

from __future__ import annotations

import io
import json
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

import rules_kernel as rk
from rules_kernel import collection, records
from rules_kernel.cli import main
from rules_kernel.collection import CollectionError, import_collection, sources, tables, work


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> list[records.Record]:
    """Seven simulated Yōkai 3x4 games, made by the command line."""
    path = tmp_path_factory.mktemp("sim") / "games.jsonl"
    assert main(["simulate", "yokai-3x4", "-n", "7", "--seed", "4", "-o", str(path)]) == 0
    return records.read(path)


def _files(played: list[records.Record]) -> dict[str, bytes]:
    """A JSON Lines file of three games, a PGN of three, a KIF of one: name -> bytes."""
    out = {}
    buffer = io.StringIO()
    records.write(buffer, played[:3], format="jsonl")
    out["games.jsonl"] = buffer.getvalue().encode()
    buffer = io.StringIO()
    records.write(buffer, played[3:6], format="pgn")
    out["more/games.pgn"] = buffer.getvalue().encode()
    buffer = io.StringIO()
    records.write(buffer, played[6], format="kif")
    out["more/deeper/one.kif"] = buffer.getvalue().encode()
    return out


def _folder(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def _zip(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zipped:
        for name, data in files.items():
            zipped.writestr(name, data)
    return path


def _tar(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tarred:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tarred.addfile(info, io.BytesIO(data))
    return path


def _agrees(folder: Path, played: list[records.Record], report) -> rk.Collection:
    """The collection holds exactly `played`: counts, players, results, moves and positions."""
    found = rk.Collection(folder)
    games, moves, positions = found.games, found.moves, found.positions
    plies = sum(len(r.actions) for r in played)
    assert (report.games, report.moves, report.positions) == (len(played), plies, plies + len(played))
    assert (len(games), len(moves), len(positions)) == (len(played), plies, plies + len(played))
    assert sorted(games["plies"]) == sorted(len(r.actions) for r in played)
    assert set(games["player_1"]) == {"random 1"} and set(games["player_2"]) == {"random 2"}
    wins = {0: "1-0", 1: "0-1"}
    assert sorted(games["result"]) == sorted(wins[r.result["winner"]] for r in played)
    assert sorted(games["reason"]) == sorted(r.result["reason"] for r in played)
    # every game's moves, in order, are its record's notations, each with its words and mover
    by_plies = {}
    for record in played:
        by_plies.setdefault(len(record.actions), []).append([a.notation for a in record.actions])
    for _, rows in moves.groupby("game_id"):
        assert list(rows["ply"]) == list(range(1, len(rows) + 1))
        assert list(rows["notation"]) in by_plies[len(rows)]
        assert list(rows["mover"]) == [i % 2 for i in range(len(rows))]
        assert all(rows["text"].str.len() > 0)
    assert found.sql("select count(*) as n from moves")["n"][0] == plies
    assert found.sql("select count(*) as n from positions where ply = 0")["n"][0] == len(played)
    return found


def test_a_folder_of_jsonl_pgn_and_kif(tmp_path, played):
    root = _folder(tmp_path / "in", _files(played))
    (root / "README.md").write_text("not a record file: passed over")
    report = import_collection([root], tmp_path / "out", progress=False)
    assert report.problems == []
    assert (report.files, report.skipped) == (3, 1)
    found = _agrees(tmp_path / "out", played, report)
    assert sorted(set(found.games["source"])) == sorted(str(root / name) for name in _files(played))
    assert found.info["games"] == 7 and found.info["format"] == collection.FORMAT


def test_a_zip_and_a_tar_gz(tmp_path, played):
    files = _files(played)
    zipped = _zip(tmp_path / "games.zip", dict(list(files.items())[:2]))
    tarred = _tar(tmp_path / "games.tar.gz", dict(list(files.items())[2:]))
    report = import_collection([zipped, tarred], tmp_path / "out", progress=False)
    assert report.problems == []
    found = _agrees(tmp_path / "out", played, report)
    assert set(found.games["source"]) == {
        f"{zipped}!games.jsonl",
        f"{zipped}!more/games.pgn",
        f"{tarred}!more/deeper/one.kif",
    }
    # nothing was extracted beside the archives
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.tar.gz", "games.zip", "out"]


def test_bad_games_reported_by_file_and_line_the_good_ones_kept(tmp_path, played, capsys):
    lines = [record.to_json() for record in played[:4]]
    # line 3: the second move replaced by one that is illegal there (ply 1)
    bad = json.loads(lines[2])
    bad["actions"][1] = "a1a4"
    lines[2] = json.dumps(bad)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "games.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "in" / "broken.kif").write_text("手合割：どうぶつしょうぎ\n   1 ９九ひよこ(99)\n")
    status = main(["collection", "import", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--quiet"])
    assert status == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'in' / 'games.jsonl'}, line 3, ply 1:" in err
    assert f"{tmp_path / 'in' / 'broken.kif'}" in err
    assert "Traceback" not in err
    found = rk.Collection(tmp_path / "out")
    assert list(found.games["source_line"]) == [1, 2, 4]
    assert found.info["problem_count"] == 2
    assert len(found.moves) == sum(len(played[i].actions) for i in (0, 1, 3))


def _good_jsonl(played) -> bytes:
    return (played[0].to_json() + "\n").encode()


def test_a_hostile_zip_is_read_as_data_only(tmp_path, played, monkeypatch):
    monkeypatch.setattr(sources, "MAX_MEMBER_BYTES", 1024 * 1024)
    outside = tmp_path / "secret.jsonl"  # what a link member points at: must not be read
    outside.write_bytes(_good_jsonl(played))
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    archive = work / "hostile.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("fine.jsonl", _good_jsonl(played))
        zipped.writestr("../../etc/x", _good_jsonl(played))
        zipped.writestr("/abs/y.jsonl", _good_jsonl(played))
        link = zipfile.ZipInfo("link.jsonl")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zipped.writestr(link, str(outside))
        zipped.writestr("bomb.jsonl", b"\n" * (2 * 1024 * 1024))  # 2 MB of nothing, ~2 KB packed
        zipped.writestr("inner.zip", b"PK")
    assert archive.stat().st_size < 20_000
    monkeypatch.chdir(work)
    problems = []
    report = import_collection([archive], work / "out", progress=False, on_problem=problems.append)
    said = {p.where.rpartition("!")[2]: p.message for p in problems}
    assert "not a plain relative path" in said["../../etc/x"]
    assert "not a plain relative path" in said["/abs/y.jsonl"]
    assert "link" in said["link.jsonl"]
    assert "more than 1,048,576 bytes" in said["bomb.jsonl"]
    assert "archive inside an archive" in said["inner.zip"]
    assert report.games == 1  # fine.jsonl only
    assert not (tmp_path / "etc").exists() and not (work / "etc").exists()
    assert sorted(p.name for p in work.iterdir()) == ["hostile.zip", "out"]


def test_a_hostile_tar_is_read_as_data_only(tmp_path, played, monkeypatch):
    outside = tmp_path / "secret.jsonl"
    outside.write_bytes(_good_jsonl(played))
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    archive = work / "hostile.tar.gz"
    good = _good_jsonl(played)
    with tarfile.open(archive, "w:gz") as tarred:
        for name, kind in (
            ("fine.jsonl", tarfile.REGTYPE),
            ("../../etc/x", tarfile.REGTYPE),
            ("sym.jsonl", tarfile.SYMTYPE),
            ("hard.jsonl", tarfile.LNKTYPE),
            ("dev.jsonl", tarfile.CHRTYPE),
            ("fifo.jsonl", tarfile.FIFOTYPE),
        ):
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.REGTYPE:
                info.size = len(good)
                tarred.addfile(info, io.BytesIO(good))
            else:
                info.linkname = str(outside)
                tarred.addfile(info)
        big = tarfile.TarInfo("big.jsonl")
        big.size = 3 * 1024 * 1024
        tarred.addfile(big, io.BytesIO(b"\n" * big.size))
    monkeypatch.setattr(sources, "MAX_MEMBER_BYTES", 1024 * 1024)
    monkeypatch.chdir(work)
    problems = []
    report = import_collection([archive], work / "out", progress=False, on_problem=problems.append)
    said = {p.where.rpartition("!")[2]: p.message for p in problems}
    assert "not a plain relative path" in said["../../etc/x"]
    assert "link" in said["sym.jsonl"] and "link" in said["hard.jsonl"]
    assert "special file" in said["dev.jsonl"] and "special file" in said["fifo.jsonl"]
    assert "more than 1,048,576 bytes" in said["big.jsonl"]
    assert report.games == 1
    assert not (tmp_path / "etc").exists() and not (work / "etc").exists()
    assert sorted(p.name for p in work.iterdir()) == ["hostile.tar.gz", "out"]


def test_a_damaged_archive_is_reported_and_the_rest_imported(tmp_path, played):
    files = _files(played)
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really a zip")
    whole = _tar(tmp_path / "cut.tar.gz", {"games.jsonl": files["games.jsonl"]}).read_bytes()
    (tmp_path / "cut.tar.gz").write_bytes(whole[: len(whole) // 2])
    good = _zip(tmp_path / "good.zip", {"more/games.pgn": files["more/games.pgn"]})
    report = import_collection(
        [tmp_path / "bad.zip", tmp_path / "cut.tar.gz", good], tmp_path / "out", progress=False
    )
    where = [p.where for p in report.problems]
    assert str(tmp_path / "bad.zip") in where and str(tmp_path / "cut.tar.gz") in where
    assert report.games == 3


def test_positions_without_move_counters(tmp_path, played):
    root = _folder(tmp_path / "in", {"games.jsonl": _files(played)["games.jsonl"]})
    import_collection([root], tmp_path / "out", progress=False)
    found = rk.Collection(tmp_path / "out")
    start = rk.load_game("yokai-3x4").initial_state().to_text()  # 'gle/1c1/1C1/ELG[] w - - 0 1'
    assert set(found.positions.query("ply == 0")["position"]) == {start.rsplit(" ", 2)[0]}
    # a position keeps its fields but the two counters, whatever the move number
    first = played[0]
    states = first.replay()
    texts = found.sql(
        "select position from positions where game_id = 0 order by ply",
    )["position"]
    assert list(texts) == [s.to_text().rsplit(" ", 2)[0] for s in states]


def test_what_is_kept_by_position_carries_no_history(tmp_path):
    """Yōkai keeps what the rules say of a position for every game that meets it (its moves,
    its moves' words): a third repetition is a draw, said in the words, only in the game that
    made it; and a move legal where an earlier game played it is still refused, by line and
    ply, where it is not."""
    game = rk.load_game("yokai-3x4")
    shuffle = ["c1c2", "a4a3", "c2c1", "a3a4"]  # the two Tanuki out and back: the start again
    drawn = records.Record.from_actions(game, shuffle * 2)  # the start a third time
    going_on = records.Record.from_actions(game, shuffle)  # the same last move, a second time
    path = tmp_path / "games.jsonl"
    records.write(path, [drawn, going_on], format="jsonl")
    illegal = {"format": records.FORMAT, "game": game.id, "options": {}, "actions": [*shuffle[:2], "a3a4"]}
    with path.open("a") as out:  # a3a4 at ply 2: the second player's Tanuki, the first to move
        out.write(json.dumps(illegal) + "\n")
    report = import_collection([path], tmp_path / "out", progress=False)
    assert report.games == 2
    assert [str(p).split(": ")[0] for p in report.problems] == [f"{path}, line 3, ply 2"]
    found = rk.Collection(tmp_path / "out")
    last = found.moves.groupby("game_id")["text"].last()
    assert list(last) == ["Tanuki a3–a4 repeats the position a third time: a draw", "Tanuki a3–a4"]
    assert list(found.games["result"]) == ["1/2-1/2", "*"]


def test_counters_are_told_by_equality_in_every_game():
    """Yōkai's FEN drops its move counters; a game whose numbers are all part of the position
    keeps them; the probe never drops a field that tells two positions apart."""
    cases = {"yokai-3x4": {4, 5}, "yokai-5x6": {4, 5}}
    for game_id, expected in cases.items():
        game = rk.load_game(game_id)
        states = [game.initial_state()]
        for _ in range(6):
            states.append(states[-1].apply(states[-1].legal_moves()[0]))
        width = len(states[0].to_text().split(" "))
        assert tables._counter_fields(states, width) == expected
    for game_id in rk.list_games():
        game = rk.load_game(game_id)
        state = game.initial_state()
        fields = state.to_text().split(" ")
        for index in tables._counter_fields([state], len(fields)):
            changed = [*fields[:index], str(int(fields[index]) + 1), *fields[index + 1 :]]
            assert game.from_text(" ".join(changed)) == state


def test_a_game_with_hidden_information_stores_the_all_seeing_text(tmp_path):
    path = tmp_path / "war.jsonl"
    command = ["simulate", "war-chest", "-n", "2", "--seed", "1", "--max-plies", "25", "-o", str(path)]
    assert main(command) == 0
    played = records.read(path)
    import_collection([path], tmp_path / "out", progress=False)
    found = rk.Collection(tmp_path / "out")
    assert len(found.positions) == sum(len(r.actions) + 1 for r in played)
    states = played[0].replay()
    kept = list(found.positions.query("game_id == 0")["position"])
    drop = tables._counter_fields(states, len(states[0].to_text().split(" ")))
    assert kept == [
        " ".join(f for i, f in enumerate(s.to_text().split(" ")) if i not in drop) for s in states
    ]
    chance = found.moves.query("chance")
    assert len(chance) > 0 and set(chance["seat"]) == {"chance"} and chance["mover"].isna().all()


def test_an_interrupted_import_leaves_nothing(tmp_path, played, monkeypatch):
    root = _folder(tmp_path / "in", _files(played))
    real = tables.game_row
    seen = []

    def failing(*args, **kwargs):
        seen.append(1)
        if len(seen) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(work, "game_row", failing)
    with pytest.raises(KeyboardInterrupt):
        import_collection([root], tmp_path / "out", progress=False)
    assert len(seen) == 4
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]  # no partial folder either


def test_a_failing_write_leaves_nothing(tmp_path, played, monkeypatch):
    root = _folder(tmp_path / "in", _files(played))

    def failing(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(collection, "_write_manifest", failing)
    with pytest.raises(OSError):
        import_collection([root], tmp_path / "out", progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_the_output_must_be_new_and_a_collection_must_be_one(tmp_path, played, capsys):
    root = _folder(tmp_path / "in", _files(played))
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.md").write_text("mine")
    with pytest.raises(CollectionError, match="exists"):
        import_collection([root], tmp_path / "taken", progress=False)
    assert (tmp_path / "taken" / "keep.md").read_text() == "mine"
    assert main(["collection", "import", str(tmp_path / "nothing"), "-o", str(tmp_path / "o")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    with pytest.raises(CollectionError, match="not a collection"):
        rk.Collection(tmp_path / "in")
    (tmp_path / "empty").mkdir()  # an empty folder may be the output
    assert main(["collection", "import", str(root), "-o", str(tmp_path / "empty"), "--quiet"]) == 0
    assert "7 game(s), " in capsys.readouterr().out
    # a folder holding a collection is passed over by a later import of its parent
    again = import_collection([tmp_path], tmp_path / "again", progress=False)
    assert again.games == 7 and again.problems == []


def test_times_and_headers_from_meta(tmp_path, played):
    record = played[0]
    meta = {
        "headers": {"event": "Club night", "site": "Sapporo", "date": "2026/11/20", "time_control": "300+5"},
        "times": {"1": 3, "2": 4.5},
        "clocks": {"1": 302, "2": 300.5, "3": "junk"},
    }
    timed = records.Record(record.game, record.options, record.actions, record.players, record.result, meta)
    path = tmp_path / "timed.jsonl"
    records.write(path, [timed])
    import_collection([path], tmp_path / "out", progress=False)
    found = rk.Collection(tmp_path / "out")
    row = found.games.iloc[0]
    assert (row["event"], row["site"], row["date"], row["time_control"]) == (
        "Club night",
        "Sapporo",
        "2026/11/20",
        "300+5",
    )
    moves = found.moves
    assert list(moves["spent"][:2]) == [3.0, 4.5] and moves["spent"][2:].isna().all()
    assert list(moves["clock"][:2]) == [302.0, 300.5] and moves["clock"][2:].isna().all()


# dask's own Parquet reader calls a pandas method pandas 3.1 deprecates: its warning, not ours
@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index:DeprecationWarning")
def test_dask_reads_the_same_files(tmp_path, played):
    dd = pytest.importorskip("dask.dataframe")
    path = tmp_path / "games.jsonl"
    records.write(path, played)
    import_collection([path], tmp_path / "out", progress=False)
    moves = dd.read_parquet(str(tmp_path / "out" / "moves.parquet"))
    assert int(moves.groupby("game_id").ply.count().sum().compute()) == sum(len(r.actions) for r in played)


def test_files_named_on_the_command_line_and_not_found_ones(tmp_path, played):
    path = tmp_path / "odd-name.records"  # any name: a file given is read whatever its suffix
    records.write(path, played[:2])
    report = import_collection([path], tmp_path / "out", progress=False)
    assert report.games == 2
    with pytest.raises(CollectionError, match="no such file"):
        import_collection([tmp_path / "missing.pgn"], tmp_path / "out2", progress=False)
    assert sorted(os.listdir(tmp_path)) == ["odd-name.records", "out"]  # no out2, no partial one


def _tables(folder: Path) -> dict:
    found = rk.Collection(folder)
    return {name: getattr(found, name).astype(str).values.tolist() for name in collection.TABLES}


def test_workers_and_pieces_make_the_same_collection(tmp_path, played, monkeypatch):
    """Two worker processes, and JSON Lines cut into pieces of a few lines, give the tables of
    one process reading whole files; a bad line in a later piece is named by its file line."""
    files = _files(played)
    lines = [record.to_json() for record in played] * 3
    bad = json.loads(lines[17])
    bad["actions"][0] = "b1b4"
    lines[17] = json.dumps(bad)
    files["many.jsonl"] = ("\n".join(lines) + "\n").encode()
    root = _folder(tmp_path / "in", files)
    one = import_collection([root], tmp_path / "one", progress=False)
    monkeypatch.setattr(work, "PIECE_BYTES", 3000)  # a few lines a piece
    two = import_collection([root], tmp_path / "two", progress=False, workers=2)
    assert _tables(tmp_path / "one") == _tables(tmp_path / "two")
    assert [str(p) for p in one.problems] == [str(p) for p in two.problems]
    assert len(two.problems) == 1
    assert str(two.problems[0]).startswith(f"{root / 'many.jsonl'}, line 18, ply 0: 'b1b4'")
    assert len(list(work.units_of(sources.Source("many", path=root / "many.jsonl")))) >= 3
    many = rk.Collection(tmp_path / "two").games.query("source.str.endswith('many.jsonl')")
    assert list(many["source_line"]) == [n for n in range(1, 22) if n != 18]
    assert list(many["source_index"]) == list(range(20))
    assert (two.files, two.games) == (4, 7 + 20)


def test_a_failing_worker_leaves_nothing(tmp_path, played, monkeypatch):
    root = _folder(tmp_path / "in", _files(played))

    def failing(*args, **kwargs):
        raise RuntimeError("a bug in a worker")

    monkeypatch.setattr(work, "game_row", failing)  # the forked workers inherit it
    with pytest.raises(RuntimeError, match="a bug in a worker"):
        import_collection([root], tmp_path / "out", progress=False, workers=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_the_format_samples_import_with_headers_and_times(tmp_path):
    """The hand-made samples of every format (tests/formats: CSA, KI2, KIF, PGN) come in whole:
    players, headers and the time each move took, from the readers' meta."""
    samples = Path(__file__).parent / "formats"
    report = import_collection([samples], tmp_path / "out", progress=False)
    assert report.problems == []
    assert report.files == len(list(samples.iterdir()))
    found = rk.Collection(tmp_path / "out")
    games = found.games
    assert set(games["player_1"]) == {"Ann"} and set(games["player_2"]) == {"Bo"}
    csa = games[games["source"].str.endswith("dobutsu.csa")].iloc[0]
    assert (csa["event"], csa["site"]) == ("Dobutsu practice", "Sapporo")
    assert csa["date"].startswith("2026/11/20")
    spent = found.moves.query(f"game_id == {csa['game_id']}")["spent"]
    assert spent.notna().all() and (spent >= 0).all()
    suffixes = {Path(source).suffix for source in games["source"]}
    assert suffixes == {".csa", ".ki2", ".kif", ".pgn"}


def test_a_worker_that_dies_is_said_and_leaves_nothing(tmp_path, played, monkeypatch):
    root = _folder(tmp_path / "in", _files(played))

    def dying(*args, **kwargs):
        os._exit(9)  # as a worker killed by the system would end

    monkeypatch.setattr(work, "game_row", dying)  # the forked workers inherit it
    with pytest.raises(CollectionError, match="a worker process died"):
        import_collection([root], tmp_path / "out", progress=False, workers=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_an_interrupt_with_workers_ends_them_and_leaves_nothing(tmp_path, played, monkeypatch):
    import multiprocessing

    files = _files(played)
    files["many.jsonl"] = ("\n".join(r.to_json() for r in played * 6) + "\n").encode()
    root = _folder(tmp_path / "in", files)
    monkeypatch.setattr(work, "PIECE_BYTES", 2000)
    real, calls = collection._add, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(collection, "_add", interrupted)
    with pytest.raises(KeyboardInterrupt):
        import_collection([root], tmp_path / "out", progress=False, workers=2)
    assert len(calls) == 3
    assert multiprocessing.active_children() == []  # the workers were ended, not left running
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]
