"""KI2 (Kakinoki's record format without the squares moves leave) for the Yōkai games
(docs/records.md, "KI2"):

    手合割：どうぶつしょうぎ
    先手：Ann
    後手：Bo

    ▲３三ライオン　△２三ひよこ　▲２四きりん
    *a comment on the position after ▲２四きりん
    △３二きりん　▲同　ライオン　△３三ひよこ打
    まで6手で中断

The headers are KIF's (`formats.kif`: 手合割, 先手, 後手, 棋戦, 開始日時, ..., a board diagram
for another start). A move is ▲ (first player) or △ (second; ☗ ☖ read too), the square
reached in KIF's way or 同 (the square of the move before), the piece's KIF name (as the piece
stands before the move), then what tells it from another piece of the same name that could
go there: 右 / 左 (the one on the mover's right / left), 直 (straight forward), 上 / 引 / 寄
(moving forward / backward / sideways), 打 (a drop where a piece on the board could go too),
成 / 不成 (a promotion, or one declined). Moves stand several to a line; `*` lines are a
comment on the position after the last move before them.

`変化：N手` blocks after the main line are its variations, as in KIF (`formats.kif`), read into
and written from `meta["variations"]`.

KI2 has no move numbers and no terminal move: the まで line ('まで18手で後手の勝ち') is the only
place the game's length is said, so a KI2 without one is refused (a file cut short would read
as a shorter game), as is one whose count differs from the moves read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from rules_kernel.core import State
from rules_kernel.formats import (
    DRAW,
    Record,
    RecordError,
    build,
    comments_meta,
    comments_of,
    echo,
    encoded,
    ending_meta,
    ending_of,
    fail,
    games_with,
    known,
    settle,
    variations_of,
    writable_comment,
)
from rules_kernel.formats import kif as kif_format
from rules_kernel.games.yokai.notation import YokaiMove, kif_square, kind_of

#: a move: the mover's mark, the square or 同, the piece's name, the words that tell it apart
_MOVE = re.compile(
    r"(?P<mark>[▲△☗☖])(?:(?P<file>[１-９1-9])(?P<rank>[一二三四五六七八九])|同[ 　]*)"
    r"(?P<piece>成銀|成香|成桂|[^右左直上引寄打成不\s　▲△☗☖]+?)"
    r"(?P<where>[右左直]?)(?P<way>[上引寄]?)(?P<how>不成|成|打)?"
)
_MARKS = "▲△☗☖"
#: the words that tell pieces apart, in the order the writer tries them
_TELLERS = ("上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄")


def read_lines(
    lines: Iterable[tuple[int, str]], source: str, *, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """The game of a KI2 text (its lines, numbered): one Record, or its RecordError."""
    try:
        yield _read(list(lines), source, max_actions)
    except RecordError as exc:
        yield exc
    except Exception as exc:  # a reader's slip on odd data is still that file's error
        yield RecordError(f"the KI2 game could not be read ({type(exc).__name__})", source=source)


def _read(lines: list[tuple[int, str]], source: str, max_actions: int | None) -> Record:
    header_lines: list[tuple[int, str]] = []
    moves: list[tuple[str, int]] = []
    comments: list[list[Any]] = []
    made: tuple[str, str, int] | None = None
    branches: list[kif_format.Branch] = []
    for number, raw in lines:
        text = raw.rstrip("\r\n").strip(" \t")
        if not text or text[0] in "#&":
            continue
        if text.startswith("変化") or branches:
            _take_branch_line(branches, text, raw, number, source, len(moves), max_actions)
            continue
        if text.startswith("*"):
            body = raw.rstrip("\r\n").lstrip(" \t")[1:]
            if comments and comments[-1][0] == len(moves):
                comments[-1][1].append(body)
            else:
                comments.append([len(moves), [body]])
            continue
        found = re.fullmatch(r"まで([0-9]{1,9})手で(.*)", text)
        if found:
            made = (found.group(1), found.group(2), number)
            continue
        if text[0] in _MARKS:
            if made is not None:
                raise RecordError(
                    f"KI2: a move after the line まで{made[0]}手で...", source=source, line=number
                )
            for token in re.split(r"[ 　\t]+(?=[▲△☗☖])", text):
                moves.append((token.strip(" 　\t"), number))
                if max_actions is not None and len(moves) > max_actions:
                    raise RecordError(
                        f"the game has more than {max_actions:,} actions", source=source, line=number
                    )
            continue
        if moves:
            raise RecordError(
                f"KI2: {echo(text)} is not a KI2 move (like ▲２三ひよこ)", source=source, line=number
            )
        header_lines.append((number, text))
    kif = kif_format._Kif()
    for number, text in header_lines:
        kif.first_line = kif.first_line or number
        kif_format._take_other(kif, text, number)
    first_line = header_lines[0][0] if header_lines else moves[0][1] if moves else 1
    kif.first_line = first_line
    if made is None:
        last = moves[-1][1] if moves else first_line
        raise RecordError(
            f"KI2: no まで line after the {len(moves)} moves read (like まで{len(moves)}手で中断): "
            "KI2 says the game's length only there, so a file cut short cannot be told from a game",
            source=source,
            line=last,
        )
    game = kif_format._game_of(kif, source)
    start = kif_format._start(game, kif, source)
    state, actions, previous = start, [], None
    states, targets = [start], []
    for ply, (text, number) in enumerate(moves):
        move = parse_move(state, text, previous, fail(source, number, ply))
        state, previous = state.apply(move), move.to
        actions.append(str(move))
        states.append(state)
        targets.append(move.to)
    variations = kif_format.variations_from(branches, states, targets, source, parse_move)
    count, words, number = made
    if int(count) != len(actions):
        raise RecordError(
            f"KI2: the line まで{count}手で{words} counts {count} moves, the file has {len(actions)}",
            source=source,
            line=number,
        )
    reason, claim = kif_format.made_claim(words, state.side)
    result = settle(state, claim, fail(source, number))
    extra = {key: value for key, (value, _) in kif.headers.items() if key not in kif_format._MAPPED and value}
    names = [kif.headers.get(key, ("", 0))[0] for key in ("先手", "後手")]
    names = [names[0] or kif.headers.get("下手", ("", 0))[0], names[1] or kif.headers.get("上手", ("", 0))[0]]
    players = ({"name": names[0]}, {"name": names[1]}) if any(names) else ()
    joined = [[ply, "\n".join(texts)] for ply, texts in comments]
    joined = [c for c in joined if c[1]]
    meta: dict[str, Any] = {
        "kif": extra,
        "headers": kif_format.headers_from(kif.headers),
        "ending": ending_meta(reason, claim),
        "variations": variations,
    }
    if joined:
        meta["comments"] = comments_meta(joined)
    return build(
        game, start, actions, players=players, result=result, meta=meta, source=source, line=first_line
    )


def _take_branch_line(
    branches: list[kif_format.Branch],
    text: str,
    raw: str,
    number: int,
    source: str,
    main: int,
    max_actions: int | None,
) -> None:
    """A line of the variations after the main line: `変化：N手`, moves, a `*` comment."""
    if text.startswith("変化"):
        found = kif_format._BRANCH.fullmatch(text)
        if not found:
            raise RecordError(
                f"KI2: {echo(text)}: a variation starts '変化：N手'", source=source, line=number
            )
        branches.append(kif_format.Branch(int(found.group(1)), number))
        return
    branch = branches[-1]
    if text.startswith("*"):
        body = raw.rstrip("\r\n").lstrip(" \t")[1:]
        if branch.comments and branch.comments[-1][0] == len(branch.moves):
            branch.comments[-1][1].append(body)
        else:
            branch.comments.append([len(branch.moves), [body]])
        return
    if text[0] not in _MARKS:
        return  # a まで line or a line of no known kind, as in KIF's variations
    for token in re.split(r"[ 　\t]+(?=[▲△☗☖])", text):
        branch.moves.append((number, None, token.strip(" 　\t")))
    if max_actions is not None and main + sum(len(b.moves) for b in branches) > max_actions:
        raise RecordError(f"the game has more than {max_actions:,} actions", source=source, line=number)


def parse_move(
    state: State, text: str, previous: int | None, error: Callable[[str], RecordError]
) -> YokaiMove:
    """The one legal move a KI2 move names."""
    found = _MOVE.fullmatch(text)
    if not found:
        raise error(f"KI2: {echo(text)} is not a KI2 move (like ▲２三ひよこ, △同　ぞう, ▲１二きりん打)")
    game = state.game
    mover = game.player_names[state.side].lower()
    if (found.group("mark") in "▲☗") != (state.side == 0):
        raise error(f"KI2: {echo(text)} is marked for the other player; the {mover} is to move")
    to, kind = kif_format.destination_and_piece(game, found, previous, text, error, "KI2")
    candidates = _candidates(state, to, kind, found.group("how"))
    candidates = tell(state, candidates, found.group("where") + found.group("way"))
    if not candidates:
        raise error(f"KI2: {echo(text)} is not a legal move of the {mover} here")
    if len(candidates) > 1:
        raise error(
            f"KI2: {echo(text)} could be {len(candidates)} moves of the {mover}: "
            "KI2 says which with 右, 左, 直, 上, 引 or 寄"
        )
    return candidates[0]


def _candidates(state: State, to: int, kind: int, how: str | None) -> list[YokaiMove]:
    """The legal moves to `to` of a piece of `kind` (a drop only with 打, or when no piece on
    the board can go there), filtered by 成 / 不成."""
    legal = [m for m in state.legal_moves() if m.to == to]
    board = [m for m in legal if m.drop is None and kind_of(state.board[m.frm]) == kind]
    drops = [m for m in legal if m.drop == kind]
    if how == "打":
        return drops
    if not board:
        return drops if how is None else []
    if how == "成":
        return [m for m in board if m.promote]
    if how == "不成" or len({m.promote for m in board}) > 1:
        return [m for m in board if not m.promote]
    return board


def tell(state: State, moves: list[YokaiMove], words: str) -> list[YokaiMove]:
    """The moves that `words` (右, 左, 直, 上, 引, 寄, or two of them) leave, from the mover's
    view: 右 the piece furthest to the mover's right, 上 one moving forward, ..."""
    if not words or len(moves) <= 1:
        return moves
    game = state.game
    sign = 1 if state.side == 0 else -1  # KIF's files and ranks as the mover sees them

    def place(sq: int) -> tuple[int, int]:
        file, rank = kif_square(game, sq)
        return file * sign, rank * sign  # smaller: further right, further forward

    for word in words:
        if word in "上引寄":
            wanted = {"上": -1, "引": 1, "寄": 0}[word]
            moves = [m for m in moves if _cmp(place(m.to)[1], place(m.frm)[1]) == wanted]
        elif word == "直":
            moves = [
                m for m in moves if place(m.to)[0] == place(m.frm)[0] and place(m.to)[1] < place(m.frm)[1]
            ]
        elif moves:
            files = [place(m.frm)[0] for m in moves]
            edge = min(files) if word == "右" else max(files)
            moves = [m for m in moves if place(m.frm)[0] == edge]
    return moves


def _cmp(a: int, b: int) -> int:
    return (a > b) - (a < b)


# --- writing --------------------------------------------------------------------------------


def move_text(state: State, move: YokaiMove, previous: int | None) -> str:
    """A move as KI2 writes it: ▲２三ひよこ, △同　ぞう, ▲１一きりん打, ▲２一ひよこ成, with
    右/左/直/上/引/寄 where another piece of the same name could go there too."""
    game = state.game
    mark = "▲" if state.side == 0 else "△"
    file, rank = kif_square(game, move.to)
    where = "同　" if move.to == previous else kif_format.DIGITS[file] + kif_format.KANJI[rank]
    if move.drop is not None:
        name = game.KIF_PIECES[move.drop]
        board = _candidates(state, move.to, move.drop, None)
        needs = any(m.drop is None for m in board)
        return f"{mark}{where}{name}{'打' if needs else ''}"
    kind = kind_of(state.board[move.frm])
    how = "成" if move.promote else ""
    if not move.promote and any(
        m.frm == move.frm and m.to == move.to and m.promote for m in state.legal_moves()
    ):
        how = "不成"
    rivals = _candidates(state, move.to, kind, how or None)
    words = ""
    if len(rivals) > 1:
        words = next((w for w in _TELLERS if tell(state, rivals, w) == [move]), "")
    return f"{mark}{where}{game.KIF_PIECES[kind]}{words}{how}"


def dumps(record: Record) -> str:
    """One game as KI2 (the record is replayed: RecordError if it is bad)."""
    game = record.load_game()
    if game.id not in {cls.id for cls in games_with("KIF")}:
        raise RecordError(f"{game.id} has no KI2 form; KI2 is written for {known('KIF')}")
    states = record.replay()
    lines = [f"手合割：{game.KIF_HANDICAP}"]
    if record.start is not None:
        lines += kif_format._diagram(states[0])
    names = [p.get("name") if isinstance(p.get("name"), str) else "" for p in record.players] + ["", ""]
    lines += [f"先手：{kif_format._one_line(names[0])}", f"後手：{kif_format._one_line(names[1])}"]
    lines += kif_format.header_lines(record)
    lines.append("")
    comments = comments_of(record)
    lines += _comment_lines(comments.get(0))
    row: list[str] = []
    previous = None
    for ply, action in enumerate(record.actions):
        state = states[ply]
        move = state.parse_move(action.notation)
        row.append(move_text(state, move, previous))
        previous = move.to
        if ply + 1 in comments or len(row) == 6:
            lines.append("　".join(row))
            row = []
        lines += _comment_lines(comments.get(ply + 1))
    if row:
        lines.append("　".join(row))
    reason, claim = ending_of(record)
    final = states[-1]
    if reason is None and claim is not None and final.outcome() is not None:
        if claim == DRAW and final.repetition_count() >= final.game.options["repetitions"]:
            reason = "repetition"
    lines.append(kif_format.made_line(reason, claim, len(record.actions)))
    targets = [states[ply].parse_move(a.notation).to for ply, a in enumerate(record.actions)]
    lines += _variation_lines(variations_of(record), 0, states, targets)
    return "\n".join(lines) + "\n"


def _variation_lines(
    variations: list[dict[str, Any]], start: int, states: list[State], targets: list[int]
) -> list[str]:
    """The 変化 blocks of a line's variations, as KIF's (the latest branch first, each followed
    by its own), the moves in rows."""
    lines: list[str] = []
    for variation in sorted(variations, key=lambda v: -v["ply"]):
        ply = variation["ply"]
        if not start <= ply < start + len(targets):
            raise RecordError(f"a variation at ply {ply} does not leave its line (plies {start}..)")
        state = states[ply - start]
        previous = targets[ply - start - 1] if ply > start else None
        comments = variation.get("comments") if isinstance(variation.get("comments"), dict) else {}
        lines += ["", f"変化：{ply + 1}手"]
        own_states, own_targets, row = [state], [], []
        for index, notation in enumerate(variation["actions"]):
            try:
                move = state.parse_move(notation)
            except Exception as exc:
                raise RecordError(
                    f"meta.variations: {echo(notation)} is not a legal move at ply {ply + index}"
                ) from exc
            row.append(move_text(state, move, previous))
            state, previous = state.apply(move), move.to
            own_states.append(state)
            own_targets.append(move.to)
            text = comments.get(str(ply + index + 1))
            if isinstance(text, str) and text:
                lines.append("　".join(row))
                row = []
                lines += _comment_lines(text)
            elif len(row) == 6:
                lines.append("　".join(row))
                row = []
        if row:
            lines.append("　".join(row))
        lines += _variation_lines(variation.get("variations") or [], ply, own_states, own_targets)
    return lines


def _comment_lines(text: str | None) -> list[str]:
    return [] if text is None else ["*" + line for line in writable_comment(text).split("\n")]


def write(target: str | os.PathLike | IO[str], record: Record) -> None:
    """Write one game as a KI2 file: to a path, Shift_JIS (cp932) with CRLF for .ki2, UTF-8
    for .ki2u (or with a BOM when a name or comment has a character Shift_JIS lacks)."""
    text = dumps(record)
    if isinstance(target, (str, os.PathLike)):
        Path(target).write_bytes(encoded("ki2", text, Path(target).suffix))
    else:
        target.write(text)
