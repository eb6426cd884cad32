"""KIF (Kakinoki's kifu format) for the Yōkai games, as Japanese shogi programs write Dōbutsu
shōgi (lishogi's KIF writer: 手合割：どうぶつしょうぎ, animal names):

    手合割：どうぶつしょうぎ
    先手：Ann
    後手：Bo
    手数----指手---------消費時間--
       1 ２二ひよこ(23)
       2 同　ぞう(11)
    *a comment on the move before
       3 ２三ライオン(24)
    まで3手で中断

Squares are shogi's: the file in full-width digits counted from the first player's right
(our file a is ３ on 3x4, ５ on 5x6), the rank in kanji from the second player's side (our
top rank is 一). `(23)` is the square a piece left (ASCII digits), `打` a drop, `成` a
promotion, `不成` a promotion declined, `同　` the square of the move before. Lines starting
with `*` are comments, `#` file comments, `&` bookmarks; a `変化：` line starts a variation,
which is not read.

A comment is the `*` lines after a move (before the first move: on the start), one line of
the comment each: read as they stand after the `*` (tabs and edge spaces kept, an empty `*`
line an empty line of the comment) and joined by newlines. So every comment written comes
back exactly, but for what no line of a file holds (`formats.writable_comment`: control
characters, line breaks of other conventions, unpaired surrogates), and a comment that is
nothing (`*` alone, no text) is none. A game from another position than the initial one has a board diagram
(`後手の持駒：`, `|vきvラvぞ|一`, `先手の持駒：`, `後手番`).

Pieces are read by the animal names, their first characters (diagrams), or the shogi kanji of
the piece that moves the same way: ライオン 玉/王 (our Koropokkuru), きりん 飛 (Tanuki: one
step straight), ぞう 角 (Kitsune: one step diagonally), ひよこ 歩 (Kodama), にわとり と (Kodama
Samurai); on 5x6 金 (Kirin), 銀 (Oni), 成銀/全 (Super-Oni). Files are read as UTF-8 or
Shift_JIS (cp932), as KIF files often are; written as UTF-8.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from rules_kernel import registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Game, State
from rules_kernel.formats import (
    DRAW,
    Claim,
    build,
    claim_words,
    clock_text,
    comments_meta,
    comments_of,
    echo,
    encoded,
    ending_meta,
    ending_of,
    fail,
    games_with,
    headers_of,
    known,
    seconds_meta,
    seconds_of,
    settle,
    slash_date,
    spent_times,
    variations_of,
    winner_of_ending,
    writable_comment,
)

# the Yōkai notation's public seams: piece codes, the KIF names of shogi's kanji, KIF squares
from rules_kernel.games.yokai.notation import (
    SHOGI_NAMES,
    UNPROMOTED,
    YokaiMove,
    kif_square,
    kind_of,
    owner_of,
    square_of_kif,
)
from rules_kernel.info import info
from rules_kernel.record_model import Record, RecordError, check_start

DIGITS = "０１２３４５６７８９"
KANJI = "〇一二三四五六七八九十"
#: a diagram writes one character a piece: the name's first, but 全 for 成銀 (shogi's custom)
DIAGRAM_CHAR = {"成銀": "全"}
HEADER = "手数----指手---------消費時間--"
#: terminal words of a move line (Kakinoki's list, and 81Dojo's English ones), by our name of
#: the ending (formats.ENDING_EFFECT says whom each makes win)
ENDINGS: dict[str, str] = {
    "投了": "resign",
    "中断": "abort",
    "千日手": "repetition",
    "持将棋": "impasse",
    "切れ負け": "time-up",
    "反則勝ち": "illegal-win",
    "反則負け": "illegal-move",
    "詰み": "mate",
    "不詰": "no-mate",
    "不戦勝": "forfeit-win",
    "不戦敗": "forfeit-loss",
    "入玉勝ち": "declared-win",
    # 81Dojo's English records
    "Resigns": "resign",
    "Resign": "resign",
    "Time-up": "time-up",
    "Timeup": "time-up",
    "Abort": "abort",
    "Sennichite": "repetition",
    "Jishogi": "impasse",
    "Checkmate": "mate",
    "Illegal": "illegal-move",
    "Illegal-move": "illegal-move",
    "Declare": "declared-win",
    "Entering-king": "declared-win",
}
#: the word written for each ending (Kakinoki's)
ENDING_WORDS = {reason: word for word, reason in reversed(ENDINGS.items())}
ENDING_WORDS.update({"resign": "投了", "abort": "中断", "time-up": "切れ負け", "mate": "詰み"})
#: words of the まで line (KIF's and KI2's) and the ending each says, looked for in order
MADE_WORDS = (
    ("千日手", "repetition"),
    ("持将棋", "impasse"),
    ("引き分け", "draw"),
    ("中断", "abort"),
    ("時間切れ", "time-up"),
    ("切れ負け", "time-up"),
    ("反則", "illegal-move"),
    ("不戦", "forfeit-win"),
    ("入玉", "declared-win"),
    ("不詰", "no-mate"),
    ("詰み", "mate"),
)

#: a move line: its number (ASCII digits), the move, and the time used, which is passed over
#: (never read as a number: a digit of another script there does no harm)
_MOVE_LINE = re.compile(
    r"\s*([0-9]{1,9})\s+(同[ 　]*\S+?|\S+?)"
    r"(?:\s+\(\s*([0-9]{1,4}:[0-9]{1,2}(?:\.[0-9]{1,6})?)?[\d:/. ]*\))?\s*\+?\s*"
)
_MOVE = re.compile(
    r"(?:(?P<file>[１-９1-9])(?P<rank>[一二三四五六七八九])|同\s*　?\s*)(?P<piece>.+?)"
    r"(?P<how>不成|成|打)?(?:\((?P<from>[0-9][0-9])\))?"
)
_RESULT = re.compile(r"まで([0-9]{1,9})手で(.*)")
_ROW = re.compile(r"\|(.*)\|\s*([一二三四五六七八九]+)\s*")
_HEADER_LINE = re.compile(r"([^：:]+)[：:](.*)")


# --- names ----------------------------------------------------------------------------------


def names_of(game: Game) -> dict[str, int]:
    """Every name a KIF may give a piece of `game`: its KIF name, the diagram character, the
    shogi kanji of the piece that moves the same way."""
    found = {name: kind for name, kind in SHOGI_NAMES.items() if kind in game.LETTERS}
    for kind, name in game.KIF_PIECES.items():
        found[name] = kind
        found[DIAGRAM_CHAR.get(name, name[0])] = kind
    return found


def _number(text: str) -> int | None:
    """A count in kanji (二, 十, 十二) or ASCII digits; None if it is neither."""
    found = re.fullmatch(r"([一二三四五六七八九]?)(十?)([一二三四五六七八九]?)|([0-9]{1,3})", text)
    if not found or not text or (found.group(3) and not found.group(2)):
        return None
    if found.group(4):
        return int(found.group(4))
    tens = (KANJI.index(found.group(1)) if found.group(1) else 1) if found.group(2) else 0
    if found.group(1) and not found.group(2):
        return KANJI.index(found.group(1))
    return tens * 10 + (KANJI.index(found.group(3)) if found.group(3) else 0)


# --- reading --------------------------------------------------------------------------------


class _Kif:
    """What the lines before and among the moves said."""

    def __init__(self) -> None:
        self.headers: dict[str, tuple[str, int]] = {}
        self.rows: list[tuple[str, int]] = []
        self.second_to_move = False
        self.moves: list[tuple[int, int, str]] = []  # (line, number, text)
        self.comments: list[list[Any]] = []  # [ply, [line, ...]]: a comment's lines
        self.ending: tuple[str, int] | None = None
        self.times: dict[int, float] = {}  # ply -> the seconds its move took
        self.ending_time: float | None = None
        self.result: tuple[str, str, int] | None = None
        self.first_line: int | None = None
        self.branches: list[Branch] = []  # the 変化 blocks after the main line, in order


class Branch:
    """A `変化：N手` block: another move N and the moves after it."""

    def __init__(self, number: int, line: int) -> None:
        self.number, self.line = number, line
        self.moves: list[tuple[int, int | None, str]] = []  # (line, number: None in KI2, text)
        self.comments: list[list[Any]] = []  # [moves before it, [line, ...]]


_BRANCH = re.compile(r"変化[：:]\s*([0-9]{1,9})手")


def read_lines(
    lines: Iterable[tuple[int, str]], source: str, *, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """The game of a KIF text (its lines, numbered): one Record, or its RecordError."""
    try:
        yield _read(_scan(lines, source, max_actions), source)
    except RecordError as exc:
        yield exc
    except Exception as exc:  # a reader's slip on odd data is still that file's error
        yield RecordError(f"the KIF game could not be read ({type(exc).__name__})", source=source)


def _scan(lines: Iterable[tuple[int, str]], source: str, max_actions: int | None) -> _Kif:
    kif = _Kif()
    for number, raw in lines:
        text = raw.rstrip("\r\n").strip(" \t")
        if not text or text[0] in "#&":
            continue
        kif.first_line = kif.first_line or number
        if text.startswith("変化") or kif.branches:
            _take_branch_line(kif, text, raw, number, source, max_actions)
            continue
        if text.startswith("*"):
            _take_comment(kif, raw.rstrip("\r\n").lstrip(" \t")[1:])
            continue
        if _take_move(kif, text, number, source, max_actions):
            continue
        _take_other(kif, text, number)
    return kif


def _take_branch_line(
    kif: _Kif, text: str, raw: str, number: int, source: str, max_actions: int | None
) -> None:
    """A line of the variations after the main line: `変化：N手`, a move, a `*` comment."""
    if text.startswith("変化"):
        found = _BRANCH.fullmatch(text)
        if not found:
            raise RecordError(f"{echo(text)}: a variation starts '変化：N手'", source=source, line=number)
        kif.branches.append(Branch(int(found.group(1)), number))
        return
    branch = kif.branches[-1]
    if text.startswith("*"):
        body = raw.rstrip("\r\n").lstrip(" \t")[1:]
        if branch.comments and branch.comments[-1][0] == len(branch.moves):
            branch.comments[-1][1].append(body)
        else:
            branch.comments.append([len(branch.moves), [body]])
        return
    found = _MOVE_LINE.fullmatch(text)
    if not found:
        return  # a まで line or a line of no known kind: not read, as in the main line
    move = re.sub(r"同[\s　]+", "同", found.group(2))
    if move in ENDINGS:
        return  # how the variation ended: not kept
    total = len(kif.moves) + sum(len(b.moves) for b in kif.branches)
    if max_actions is not None and total >= max_actions:
        raise RecordError(f"the game has more than {max_actions:,} actions", source=source, line=number)
    branch.moves.append((number, int(found.group(1)), move))


def _take_comment(kif: _Kif, text: str) -> None:
    """A `*` line: the next line of the comment after the last move (or on the start)."""
    if kif.comments and kif.comments[-1][0] == len(kif.moves):
        kif.comments[-1][1].append(text)
    else:
        kif.comments.append([len(kif.moves), [text]])


def _take_move(kif: _Kif, text: str, number: int, source: str, max_actions: int | None) -> bool:
    found = _MOVE_LINE.fullmatch(text)
    if not found:
        found_result = _RESULT.fullmatch(text)
        if found_result:
            kif.result = (found_result.group(1), found_result.group(2), number)
            return True
        return False
    if kif.ending is not None:
        raise RecordError(f"a move after {kif.ending[0]}", source=source, line=number)
    move = re.sub(r"同[\s　]+", "同", found.group(2))
    spent = seconds_of(found.group(3)) if found.group(3) else None
    if move in ENDINGS:
        kif.ending = (move, number)
        kif.ending_time = spent
        return True
    if max_actions is not None and len(kif.moves) >= max_actions:
        raise RecordError(f"the game has more than {max_actions:,} actions", source=source, line=number)
    kif.moves.append((number, int(found.group(1)), move))
    if spent is not None:
        kif.times[len(kif.moves)] = spent
    return True


def _take_other(kif: _Kif, text: str, number: int) -> None:
    """Header lines, the diagram and whose turn it is; anything else is not read (KIF
    writers add lines of their own)."""
    row = _ROW.fullmatch(text)
    if row:
        kif.rows.append((row.group(1), number))
    elif text in ("後手番", "上手番"):
        kif.second_to_move = True
    else:
        header = _HEADER_LINE.fullmatch(text)
        if header and not text.startswith(HEADER[:4]):
            kif.headers.setdefault(header.group(1).strip(), (header.group(2).strip(), number))


def _read(kif: _Kif, source: str) -> Record:
    game = _game_of(kif, source)
    start = _start(game, kif, source)
    state, actions, previous = start, [], None
    states, targets = [start], []
    for ply, (line, number, text) in enumerate(kif.moves):
        expected = kif.moves[0][1] + ply
        if number != expected:
            raise RecordError(f"KIF: move number {number} where {expected} was due", source=source, line=line)
        move = _move(state, text, previous, fail(source, line, ply))
        state, previous = state.apply(move), move.to
        actions.append(str(move))
        states.append(state)
        targets.append(move.to)
    variations = _variations(kif, states, targets, source)
    reason, claim = _claim(kif, start, len(actions), source)
    where = kif.result[2] if kif.result else kif.ending[1] if kif.ending else kif.first_line
    result = settle(state, claim, fail(source, where))
    meta = {key: value for key, (value, _) in kif.headers.items() if key not in _MAPPED and value}
    if result is None and kif.result:
        meta["result"] = f"まで{kif.result[0]}手で{kif.result[1]}"
    ending = ending_meta(reason, claim)
    if ending and kif.ending_time is not None:
        ending["time"] = kif.ending_time
    names = [kif.headers.get(key, ("", 0))[0] for key in ("先手", "後手")]
    names = [names[0] or kif.headers.get("下手", ("", 0))[0], names[1] or kif.headers.get("上手", ("", 0))[0]]
    players = ({"name": names[0]}, {"name": names[1]}) if any(names) else ()
    comments = [[ply, "\n".join(lines)] for ply, lines in kif.comments]  # joined once: no quadratic +=
    comments = [c for c in comments if c[1]]
    return build(
        game,
        start,
        actions,
        players=players,
        result=result,
        meta={
            "kif": meta,
            "headers": headers_from(kif.headers),
            "ending": ending,
            "times": seconds_meta(kif.times),
            "variations": variations,
            **({"comments": comments_meta(comments)} if comments else {}),
        },
        source=source,
        line=kif.first_line,
    )


class _Line:
    """A line read so far (the main line or a variation), to branch from: where it starts, its
    states, the squares its moves went to, its entry in meta["variations"]."""

    def __init__(
        self, start: int, states: list[State], targets: list[int], node: dict | None, parent
    ) -> None:
        self.start, self.states, self.targets, self.node, self.parent = start, states, targets, node, parent


def _variations(kif: _Kif, states: list[State], targets: list[int], source: str) -> list[dict[str, Any]]:
    return variations_from(kif.branches, states, targets, source, _move)


def variations_from(
    branches: list[Branch],
    states: list[State],
    targets: list[int],
    source: str,
    parse: Callable[[State, str, int | None, Callable[[str], RecordError]], YokaiMove],
) -> list[dict[str, Any]]:
    """The 変化 blocks (KIF's or KI2's: `parse` reads a move) as meta["variations"] (the
    session's tree: each line leaves its parent after `ply` actions). A block for move N
    leaves the most recently read line that has a move N (Kakinoki's programs write a line's
    variations after it, the latest branch first)."""
    main = _Line(0, states, targets, None, None)
    found: list[dict[str, Any]] = []
    current = main
    for branch in branches:
        ply = branch.number - 1
        line = current
        while line is not main and not (line.start < ply < line.start + len(line.targets)):
            line = line.parent
        if not 0 <= ply - line.start < len(line.targets):
            raise RecordError(
                f"変化：{branch.number}手 leaves no line that has a move {branch.number}",
                source=source,
                line=branch.line,
            )
        state = line.states[ply - line.start]
        # 同 in the first move: the square the move before it went to (none at the start)
        previous = line.targets[ply - line.start - 1] if ply > line.start else None
        node: dict[str, Any] = {"ply": ply, "actions": []}
        own_states, own_targets = [state], []
        for index, (number, said, text) in enumerate(branch.moves):
            if said is not None and said != branch.number + index:
                raise RecordError(
                    f"move number {said} where {branch.number + index} was due", source=source, line=number
                )
            move = parse(state, text, previous, fail(source, number, ply + index))
            state, previous = state.apply(move), move.to
            node["actions"].append(str(move))
            own_states.append(state)
            own_targets.append(move.to)
        if not node["actions"]:
            raise RecordError(f"変化：{branch.number}手 has no moves", source=source, line=branch.line)
        comments = [[ply + at, "\n".join(texts)] for at, texts in branch.comments]
        comments = [c for c in comments if c[1] and c[0] > ply]
        if comments:
            node["comments"] = comments_meta(comments)
        (found if line is main else line.node.setdefault("variations", [])).append(node)
        current = _Line(ply, own_states, own_targets, node, line)
    return _by_ply(found)


def _by_ply(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lines in the order of the plies they leave at (as a session exports them), nested ones
    too; lines leaving at one ply keep the file's order."""
    for line in lines:
        if "variations" in line:
            line["variations"] = _by_ply(line["variations"])
    return sorted(lines, key=lambda line: line["ply"])


#: KIF's headers for ours (meta["headers"]); they stay in meta["kif"] too
HEADERS = {
    "棋戦": "event",
    "場所": "site",
    "開始日時": "date",
    "終了日時": "end_date",
    "持ち時間": "time_control",
    "戦型": "opening",
}


def headers_from(found: dict[str, tuple[str, int]]) -> dict[str, str]:
    """meta["headers"] from KIF's (or KI2's) header lines."""
    return {HEADERS[key]: value for key, (value, _) in found.items() if key in HEADERS and value}


_MAPPED = frozenset(
    {"手合割", "先手", "後手", "下手", "上手", "先手の持駒", "後手の持駒", "上手の持駒", "下手の持駒"}
)


def _game_of(kif: _Kif, source: str) -> Game:
    """The game 手合割 names, else the one whose board the diagram has."""
    if "手合割" in kif.headers:
        value, number = kif.headers["手合割"]
        wanted = re.sub(r"[(（].*?[)）]", "", value).strip()
        for cls in games_with("KIF"):
            if wanted == cls.KIF_HANDICAP:
                return registry.load_game(cls.id)
        raise RecordError(
            f"手合割 {echo(value)} is another game: this reader takes {known('KIF')}",
            source=source,
            line=number,
        )
    if kif.rows:
        size = (len(_cells(kif.rows[0][0])), len(kif.rows))
        for cls in games_with("KIF"):
            if (cls.FILES, cls.RANKS) == size:
                return registry.load_game(cls.id)
    raise RecordError(
        f"no 手合割 line and no board of a game this reader takes ({known('KIF')}); "
        "a KIF without one is standard shogi (平手)",
        source=source,
        line=kif.first_line,
    )


def _cells(row: str) -> list[str]:
    """A diagram row's cells: ' X' (first player), 'vX' (second player), ' ・' (empty)."""
    return re.findall(r"[ v^]?(?:成.|\S)", row.replace("　", " "))


def _start(game: Game, kif: _Kif, source: str) -> State:
    """The initial position, or the diagram's (read through a FEN, so our position checks
    apply to it)."""
    if not kif.rows:
        return game.initial_state()
    line = kif.rows[0][1]
    if len(kif.rows) != game.tables.ranks:
        raise RecordError(
            f"the board has {len(kif.rows)} ranks, {game.id} has {game.tables.ranks}",
            source=source,
            line=line,
        )
    names = names_of(game)
    ranks = [_fen_rank(game, row, names, number, source) for row, number in kif.rows]
    hands = "".join(_fen_hand(game, kif, side, names, source) for side in (0, 1))
    fen = f"{'/'.join(ranks)}[{hands}] {'b' if kif.second_to_move else 'w'} - - 0 1"
    try:
        return check_start(game, fen)
    except RecordError as exc:
        reason = exc.reason.replace("field 'start'", "the board diagram", 1)
        raise RecordError(reason, source=source, line=line) from exc


def _fen_rank(game: Game, row: str, names: dict[str, int], number: int, source: str) -> str:
    cells = _cells(row)
    if len(cells) != game.tables.files:
        raise RecordError(
            f"a rank of {len(cells)} squares; {game.id} has {game.tables.files} files",
            source=source,
            line=number,
        )
    text, empty = "", 0
    for cell in cells:
        body = cell.lstrip(" v^")
        if body == "・":
            empty += 1
            continue
        if body not in names:
            raise RecordError(f"{echo(body)} is no piece of {game.id}", source=source, line=number)
        letter = game.LETTERS[names[body]]
        text += (str(empty) if empty else "") + (letter.lower() if cell.startswith("v") else letter)
        empty = 0
    return text + (str(empty) if empty else "")


def _fen_hand(game: Game, kif: _Kif, side: int, names: dict[str, int], source: str) -> str:
    keys = ("先手の持駒", "下手の持駒") if side == 0 else ("後手の持駒", "上手の持駒")
    value, number = next((kif.headers[key] for key in keys if key in kif.headers), ("なし", 0))
    if value in ("なし", ""):
        return ""
    text = ""
    for item in re.split(r"[\s　]+", value.strip()):
        found = re.fullmatch(r"(.+?)([一二三四五六七八九十]+|\d+)?", item)
        if not found or found.group(1) not in names:
            raise RecordError(f"{echo(item)} is no piece of {game.id} in hand", source=source, line=number)
        letter = game.LETTERS[names[found.group(1)]]
        count = _number(found.group(2)) if found.group(2) else 1
        if count is None:
            raise RecordError(f"{echo(item)}: not a count of pieces in hand", source=source, line=number)
        text += (letter if side == 0 else letter.lower()) * min(count, 64)
    return text


def _move(state: State, text: str, previous: int | None, error: Callable[[str], RecordError]) -> YokaiMove:
    """The legal move a KIF move text names (its piece checked against the board)."""
    found = _MOVE.fullmatch(text)
    if not found:
        raise error(f"KIF: {echo(text)} is not a KIF move (like ２二ひよこ(23), ２三ぞう打, 同　きりん(12))")
    game = state.game
    to, kind = destination_and_piece(game, found, previous, text, error, "KIF")
    candidates = _candidates(state, found, to, kind, error)
    how = found.group("how")
    if how == "成":
        candidates = [m for m in candidates if m.promote]
    elif how == "不成" or len({m.promote for m in candidates}) > 1:
        candidates = [m for m in candidates if not m.promote]
    if len(candidates) != 1:
        mover = game.player_names[state.side].lower()
        raise error(f"KIF: {echo(text)} is not a legal move of the {mover} here")
    return candidates[0]


def destination_and_piece(
    game: Game,
    found: re.Match,
    previous: int | None,
    text: str,
    error: Callable[[str], RecordError],
    fmt: str,
) -> tuple[int, int]:
    """The square a KIF or KI2 move goes to and the kind of piece it names (`found`: the
    move's match, with the groups file, rank and piece), or the format's refusal."""
    to = _destination(game, found, previous)
    if to is None:
        t = game.tables
        board = f"no such square on the {t.files}x{t.ranks} board"
        where = board if found.group("file") else "同 with no move before"
        raise error(f"{fmt}: {echo(text)}: {where}")
    kind = names_of(game).get(found.group("piece"))
    if kind is None:
        raise error(f"{fmt}: {echo(found.group('piece'))} is no piece of {game.title}")
    return to, kind


def _destination(game: Game, found: re.Match, previous: int | None) -> int | None:
    """The square a move goes to: its file and rank, or 同 (the square of the move before)."""
    file = found.group("file")
    if not file:
        return previous
    return square_of_kif(
        game, DIGITS.index(file) if file in DIGITS else int(file), KANJI.index(found.group("rank"))
    )


def _candidates(
    state: State, found: re.Match, to: int, kind: int, error: Callable[[str], RecordError]
) -> list[YokaiMove]:
    legal = [m for m in state.legal_moves() if m.to == to]
    if found.group("how") == "打" or not found.group("from"):
        return [m for m in legal if m.drop == kind]
    frm = square_of_kif(state.game, int(found.group("from")[0]), int(found.group("from")[1]))
    if frm is None:
        raise error(f"KIF: ({found.group('from')}) is no square of the board")
    code = state.board[frm]
    letters = state.game.LETTERS
    if code and owner_of(code) == state.side and letters[kind] == "+" + letters[kind_of(code)]:
        # a promotion written with the promoted piece's name, as some programs do: にわとり(24)
        return [m for m in legal if m.frm == frm and m.promote]
    if code and owner_of(code) == state.side and kind_of(code) != kind:
        on_it = state.game.KIF_PIECES[kind_of(code)]
        raise error(f"KIF: the piece on ({found.group('from')}) is a {on_it}, not {found.group('piece')}")
    return [m for m in legal if m.frm == frm]


def _claim(kif: _Kif, start: State, plies: int, source: str) -> tuple[str | None, Claim]:
    """(the ending, the result) the KIF states: its terminal move (投了 ...) and its まで
    line, which must agree with each other when both say who won."""
    reason, claim = None, None
    if kif.ending:
        reason = ENDINGS[kif.ending[0]]
        claim = winner_of_ending(reason, (start.side + plies) % 2)
    if kif.result:
        count, words, number = kif.result
        if int(count) != plies:
            raise RecordError(
                f"KIF: the result line counts {count} moves, the game has {plies}", source=source, line=number
            )
        said_reason, said = made_claim(words, (start.side + plies) % 2)
        if kif.ending and said is not None and claim is not None and said != claim:
            raise RecordError(
                f"the result line says {claim_words(said)}, the move {kif.ending[0]} {claim_words(claim)}",
                source=source,
                line=number,
            )
        if not kif.ending or claim is None:
            reason, claim = reason or said_reason, said if said is not None else claim
    return reason, claim


def made_claim(words: str, mover: int) -> tuple[str | None, Claim]:
    """(the ending, the result) the words of a まで line say ('後手の勝ち', '千日手',
    '時間切れにより先手の勝ち'); `mover` is the side that was to move."""
    reason = next((name for word, name in MADE_WORDS if word in words), None)
    if "勝" in words or "負" in words:
        first = "先手" in words or "下手" in words
        second = "後手" in words or "上手" in words
        if first or second:
            claim: Claim = (0 if first else 1) if "勝" in words else (1 if first else 0)
            if reason == "forfeit-win" and claim != mover:
                reason = "forfeit-loss"
            if reason == "illegal-move" and claim == mover:
                reason = "illegal-win"
            return reason, claim
    if reason is None:
        return None, None
    return reason, winner_of_ending(reason, mover)


def made_line(reason: str | None, claim: Claim, plies: int) -> str:
    """The まで line of an ending: 'まで18手で後手の勝ち', 'まで40手で千日手', ..."""
    if reason == "mate" and claim in (0, 1):
        words = "詰み"  # the side to move is mated: the words say who won
    elif claim is None:
        words = "不詰" if reason == "no-mate" else "中断"
    elif claim == DRAW:
        words = {"repetition": "千日手", "impasse": "持将棋"}.get(reason or "", "引き分け")
    else:
        side = "先手" if claim == 0 else "後手"
        words = {
            "time-up": f"時間切れにより{side}の勝ち",
            "illegal-move": f"{side}の反則勝ち",
            "illegal-win": f"{side}の反則勝ち",
            "illegal-action": f"{side}の反則勝ち",
            "forfeit-win": f"{side}の不戦勝",
            "forfeit-loss": f"{side}の不戦勝",
            "declared-win": f"入玉で{side}の勝ち",
        }.get(reason or "", f"{side}の勝ち")
    return f"まで{plies}手で{words}"


# --- writing --------------------------------------------------------------------------------


def dumps(record: Record) -> str:
    """One game as KIF (the record is replayed: RecordError if it is bad)."""
    game = record.load_game()
    if "KIF" not in info(game).formats:
        raise RecordError(f"{game.id} has no KIF form; KIF is written for {known('KIF')}")
    states = record.replay()
    lines = [f"手合割：{game.KIF_HANDICAP}"]
    if record.start is not None:
        lines += _diagram(states[0])
    names = [p.get("name") if isinstance(p.get("name"), str) else "" for p in record.players] + ["", ""]
    lines += [f"先手：{_one_line(names[0])}", f"後手：{_one_line(names[1])}"]
    lines += header_lines(record)
    lines.append(HEADER)
    lines += _moves(record, states)
    return "\n".join(lines) + "\n"


def header_lines(record: Record) -> list[str]:
    """The header lines a KIF (or KI2) writes beside 手合割 and the players: those kept in
    meta["kif"], then meta["headers"] in KIF's own fields (a PGN date as KIF writes it)."""
    extra = record.meta.get("kif") if isinstance(record.meta, dict) else None
    extra = extra if isinstance(extra, dict) else {}
    lines = []
    for key, value in extra.items():
        if isinstance(key, str) and key not in _MAPPED and key != "result" and "：" not in key:
            lines.append(f"{_one_line(key)}：{_one_line(str(value))}")
    ours = {value: key for key, value in HEADERS.items()}
    for key, value in headers_of(record).items():
        if key in ours and ours[key] not in extra:
            value = slash_date(value) if key in ("date", "end_date") else value
            lines.append(f"{ours[key]}：{_one_line(value)}")
    return lines


def _one_line(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)


def _diagram(state: State) -> list[str]:
    game, t = state.game, state.tables
    lines = [f"後手の持駒：{_hand(state, 1)}", "  " + " ".join(DIGITS[n] for n in range(t.files, 0, -1))]
    lines.append("+" + "-" * (3 * t.files) + "+")
    for rank in range(t.ranks - 1, -1, -1):
        cells = ""
        for file in range(t.files):
            code = state.board[rank * t.files + file]
            name = game.KIF_PIECES[kind_of(code)] if code else "・"
            cells += ("v" if code and owner_of(code) == 1 else " ") + DIAGRAM_CHAR.get(name, name[0])
        lines.append(f"|{cells}|{KANJI[t.ranks - rank]}")
    lines += ["+" + "-" * (3 * t.files) + "+", f"先手の持駒：{_hand(state, 0)}"]
    if state.side == 1:
        lines.append("後手番")
    return lines


def _hand(state: State, side: int) -> str:
    items = []
    for kind, name in state.game.KIF_PIECES.items():
        count = state.hands[side][kind] if kind not in UNPROMOTED else 0
        if count:
            items.append(name + (KANJI[count] if count > 1 else ""))
    return "　".join(items) or "なし"


def _moves(record: Record, states: list[State]) -> list[str]:
    comments = comments_of(record)
    times = spent_times(record)
    totals = [0.0, 0.0]
    variations = variations_of(record)
    branching = {v["ply"] for v in variations}
    lines = _comment_lines(comments.get(0))
    previous = None
    targets = []
    for ply, action in enumerate(record.actions):
        state = states[ply]
        move = state.parse_move(action.notation)
        text = f"{ply + 1:>4} {_move_text(state, move, previous)}"
        if times:
            totals[state.side] += times.get(ply + 1, 0.0)
            text = _timed(text, times.get(ply + 1, 0.0), totals[state.side])
        lines.append(text + ("+" if ply in branching else ""))
        lines += _comment_lines(comments.get(ply + 1))
        previous = move.to
        targets.append(move.to)
    lines += _ending(record, states[-1], len(record.actions), bool(times), totals)
    lines += _variation_lines(variations, 0, states, targets)
    return lines


def _variation_lines(
    variations: list[dict[str, Any]], start: int, states: list[State], targets: list[int]
) -> list[str]:
    """The 変化 blocks of a line's variations (the line starts at ply `start`; `states` and
    `targets` along it), the latest branch first, each followed by its own variations: the
    order in which the reader finds each block's line again."""
    lines: list[str] = []
    for variation in sorted(variations, key=lambda v: -v["ply"]):  # stable: siblings in order
        ply = variation["ply"]
        if not start <= ply < start + len(targets):
            raise RecordError(f"a variation at ply {ply} does not leave its line (plies {start}..)")
        state = states[ply - start]
        previous = targets[ply - start - 1] if ply > start else None
        comments = {int(k): v for k, v in (variation.get("comments") or {}).items() if str(k).isdigit()}
        nested = variation.get("variations") or []
        branching = {v["ply"] for v in nested}
        lines += ["", f"変化：{ply + 1}手"]
        own_states, own_targets = [state], []
        for index, notation in enumerate(variation["actions"]):
            try:
                move = state.parse_move(notation)
            except Exception as exc:
                raise RecordError(
                    f"meta.variations: {echo(notation)} is not a legal move at ply {ply + index}"
                ) from exc
            text = f"{ply + index + 1:>4} {_move_text(state, move, previous)}"
            lines.append(text + ("+" if ply + index in branching else ""))
            state, previous = state.apply(move), move.to
            lines += _comment_lines(
                comments.get(ply + index + 1) if isinstance(comments.get(ply + index + 1), str) else None
            )
            own_states.append(state)
            own_targets.append(move.to)
        lines += _variation_lines(nested, ply, own_states, own_targets)
    return lines


def _timed(text: str, spent: float, total: float) -> str:
    """A move line with KIF's time column: ( m:ss/hh:mm:ss), the move's time and the mover's
    total (padded so the column lines up, as Kifu for Windows writes it)."""
    width = len(text) + sum(1 for ch in text if ord(ch) > 0x7F)  # full-width characters: two columns
    return f"{text}{' ' * max(1, 14 - width)}   ({clock_text(spent, hours=False):>5}/{_hms(total)})"


def _hms(seconds: float) -> str:
    text = clock_text(seconds)
    return text if len(text.split(":")[0]) >= 2 else "0" + text


def _comment_lines(text: str | None) -> list[str]:
    """A comment as `*` lines, one a line of it, each as it stands."""
    return [] if text is None else ["*" + line for line in writable_comment(text).split("\n")]


def _move_text(state: State, move: YokaiMove, previous: int | None) -> str:
    game = state.game
    file, rank = kif_square(state.game, move.to)
    where = "同　" if move.to == previous else DIGITS[file] + KANJI[rank]
    if move.drop is not None:
        return f"{where}{game.KIF_PIECES[move.drop]}打"
    kind = kind_of(state.board[move.frm])
    how = "成" if move.promote else ""
    if not move.promote and any(
        m.frm == move.frm and m.to == move.to and m.promote for m in state.legal_moves()
    ):
        how = "不成"
    frm = kif_square(state.game, move.frm)
    return f"{where}{game.KIF_PIECES[kind]}{how}({frm[0]}{frm[1]})"


def _ending(record: Record, final: State, plies: int, timed: bool, totals: list[float]) -> list[str]:
    """The terminal move line where KIF has a word for the ending, and the まで line."""
    if record.result is None and isinstance(record.meta.get("kif"), dict):
        kept = record.meta["kif"].get("result")
        old = not isinstance(record.meta.get("ending"), dict)
        if isinstance(kept, str) and _RESULT.fullmatch(kept) and old:
            return [kept]  # a record read before meta["ending"] existed
    reason, claim = ending_of(record)
    if reason is None and claim is not None and final.outcome() is not None:
        # the rules ended the game: the words Kakinoki's list has for it
        if claim == DRAW and final.repetition_count() >= final.game.options["repetitions"]:
            reason = "repetition"
        elif claim != DRAW and final.game.ROYAL:
            reason = "mate"
    elif reason is None and claim in (0, 1):
        reason = "resign" if claim != final.side else None
    elif reason is None and claim is None:
        reason = "abort"  # a game that has not ended: Kakinoki's 中断, as its まで line says
    lines = []
    word = ENDING_WORDS.get(reason or "")
    if reason == "forfeit-win" and claim != final.side:
        word = "不戦敗"
    if reason == "illegal-move" and claim == final.side:
        word = "反則勝ち"
    if word and reason not in ("draw", "illegal-action"):
        text = f"{plies + 1:>4} {word}"
        held = record.meta.get("ending") if isinstance(record.meta, dict) else None
        spent = held.get("time") if isinstance(held, dict) else None
        if timed or isinstance(spent, (int, float)):
            spent = float(spent) if isinstance(spent, (int, float)) and not isinstance(spent, bool) else 0.0
            text = _timed(text, spent, totals[final.side] + spent)
        lines.append(text)
    return [*lines, made_line(reason, claim, plies)]


def write(target: str | os.PathLike | IO[str], record: Record) -> None:
    """Write one game as a KIF file: to a path, Shift_JIS (cp932) with CRLF and the line
    `#KIF version=2.0 encoding=Shift_JIS` for .kif (and any other suffix), UTF-8 with
    `#KIF version=2.0 encoding=UTF-8` for .kifu (and when a name or comment has a character
    Shift_JIS lacks); to an open text stream, the text as it is."""
    text = dumps(record)
    if isinstance(target, (str, os.PathLike)):
        Path(target).write_bytes(encoded("kif", text, Path(target).suffix))
    else:
        target.write(text)
