"""CSA (the Computer Shogi Association's standard record format, version 2.2) for the Yōkai
games (docs/records.md, "CSA"):

    V2.2
    N+Ann
    N-Bo
    $EVENT:練習対局
    $START_TIME:2026/11/20 10:00:00
    $TIME_LIMIT:00:05+00
    P1-HI-OU-KA
    P2 *  -FU *
    P3 *  +FU *
    P4+KA+OU+HI
    +
    +2433OU
    T1
    '*a comment on the position after the move
    -2223FU
    T2
    %TORYO

Squares are shogi's, as in KIF (`formats.kif`): the file counted from the first player's
right, the rank from the second player's side, two digits `23`; `00` is the hand. A move is
the mover's sign, the square left (00 for a drop), the square reached and the piece's name
after the move (so `+2221TO` from a `FU` is a promotion). The board lines `P1`..`Pn` list a
rank from the highest file down (` * ` an empty square); `P+00FU` puts a piece in a hand,
`P-00AL` the rest of the pieces in the second player's; `PI` is the game's start (CSA's
handicap pieces after it are refused: the Yōkai games have no handicaps); the line `+` or
`-` says who moves first. `T` gives the seconds a move took; `%` lines end the game
(`%TORYO`, `%CHUDAN`, `%SENNICHITE`, `%TIME_UP`, `%ILLEGAL_MOVE`, `%+ILLEGAL_ACTION`,
`%-ILLEGAL_ACTION`, `%JISHOGI`, `%KACHI`, `%HIKIWAKE`, `%TSUMI`, `%FUZUMI`, `%ERROR`);
`'` lines are comments, of which `'*` lines (Kifu for Windows' convention) are a comment on the
position after the last move; `/` separates games in one file; a `,` joins statements of moves
and times on one line.

Pieces have CSA's names of the shogi piece that moves the same way (as the KIF reader reads
shogi's kanji, and as mini-shogi formats reuse CSA's names on smaller boards): Koropokkuru
OU, Tanuki HI (one step straight), Kitsune KA (one step diagonally), Kodama FU, Kodama
Samurai TO; on 5x6 Kirin KI, Oni GI, Super Oni NG. CSA has no line naming the game: a
board of 3x4 or 5x6 lines says it; after `PI` the moves' pieces and squares must fit exactly
one of the games (else the file is refused, asking for the board lines, which the writer
always writes).
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
    Record,
    RecordError,
    build,
    check_start,
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
    number_text,
    seconds_meta,
    settle,
    slash_date,
    spent_times,
    winner_of_ending,
    writable_comment,
)
from rules_kernel.games.yokai.notation import (
    SHOGI_NAMES,
    YokaiMove,
    kif_square,
    kind_of,
    owner_of,
    square_of_kif,
)

#: CSA's names of shogi's pieces, by the kanji the Yōkai notation maps to our piece kinds
_CSA_OF_KANJI = {
    "歩": "FU",
    "と": "TO",
    "角": "KA",
    "飛": "HI",
    "玉": "OU",
    "金": "KI",
    "銀": "GI",
    "成銀": "NG",
}
#: the ending words and their names (formats.ENDING_EFFECT)
ENDINGS = {
    "TORYO": "resign",
    "CHUDAN": "abort",
    "SENNICHITE": "repetition",
    "TIME_UP": "time-up",
    "ILLEGAL_MOVE": "illegal-move",
    "+ILLEGAL_ACTION": "illegal-action",
    "-ILLEGAL_ACTION": "illegal-action",
    "JISHOGI": "impasse",
    "KACHI": "declared-win",
    "HIKIWAKE": "draw",
    "TSUMI": "mate",
    "FUZUMI": "no-mate",
    "ERROR": "error",
}
#: CSA's headers for ours (meta["headers"]); the others are kept in meta["csa"]
HEADERS = {
    "EVENT": "event",
    "SITE": "site",
    "START_TIME": "date",
    "END_TIME": "end_date",
    "TIME_LIMIT": "time_control",
    "OPENING": "opening",
}
_MOVE = re.compile(r"([+-])(\d)(\d)(\d)(\d)([A-Z]{2})")
_TIME = re.compile(r"T(\d{1,9}(?:\.\d{1,6})?)")
_ROW = re.compile(r"P([1-9])(.*)")
_VERSION = re.compile(r"V(\d+(?:\.\d+)?)")


def csa_names(game: Game) -> dict[int, str]:
    """Our piece kinds of `game` -> their CSA names."""
    return {
        kind: _CSA_OF_KANJI[kanji]
        for kanji, kind in SHOGI_NAMES.items()
        if kind in game.LETTERS and kanji in _CSA_OF_KANJI
    }


def _kinds(game: Game) -> dict[str, int]:
    return {name: kind for kind, name in csa_names(game).items()}


# --- reading --------------------------------------------------------------------------------


class _Csa:
    """One game's statements, as the splitter found them."""

    def __init__(self, line: int) -> None:
        self.line = line
        self.names: list[str | None] = [None, None]
        self.headers: dict[str, tuple[str, int]] = {}
        self.initial: int | None = None  # the PI line
        self.rows: list[tuple[str, int]] = []
        self.placed: list[tuple[str, int]] = []  # P+ / P- statements
        self.side: tuple[int, int] | None = None
        self.moves: list[tuple[str, int]] = []
        self.times: dict[int, float] = {}
        self.comments: list[list[Any]] = []
        self.ending: tuple[str, int] | None = None
        self.ending_time: float | None = None
        self.version: str | None = None


def read_lines(
    lines: Iterable[tuple[int, str]], source: str, *, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """The games of a CSA text (its lines, numbered, games separated by `/` lines): a
    Record, or its RecordError, each."""
    budget = [max_actions, max_actions]
    for found in _split(lines, source):
        try:
            if isinstance(found, RecordError):
                raise found
            yield _read(found, source, budget)
        except RecordError as exc:
            yield exc
        except Exception as exc:  # a reader's slip on odd data is still that game's error
            yield RecordError(f"the CSA game could not be read ({type(exc).__name__})", source=source)


def _split(lines: Iterable[tuple[int, str]], source: str) -> Iterator[_Csa | RecordError]:
    game: _Csa | None = None
    error: RecordError | None = None
    for number, raw in lines:
        text = raw.rstrip("\r\n")
        if text.strip() == "/":
            if game is not None or error is not None:
                yield error or game
            game, error = None, None
            continue
        if not text.strip():
            continue
        if game is None:
            game = _Csa(number)
        if error is not None:
            continue
        try:
            _take(game, text, number, source)
        except RecordError as exc:
            error = exc
    if game is not None or error is not None:
        yield error or game


def _take(game: _Csa, text: str, number: int, source: str) -> None:
    if text.startswith("'"):
        if text.startswith("'*"):
            _comment(game, text[2:])
        return
    # a comma joins statements, but a name or a header value may hold one: those lines are whole
    statements = [text] if text[0] in "N$" else text.split(",")
    for statement in statements:
        _statement(game, statement.strip(), number, source)


def _comment(game: _Csa, text: str) -> None:
    ply = len(game.moves)
    if game.comments and game.comments[-1][0] == ply:
        game.comments[-1][1].append(text)
    else:
        game.comments.append([ply, [text]])


def _statement(game: _Csa, text: str, number: int, source: str) -> None:
    error = fail(source, number)
    if not text:
        return
    if game.ending is not None and not _TIME.fullmatch(text):
        raise error(f"CSA: {echo(text)} after the ending %{game.ending[0]}")
    if _MOVE.fullmatch(text):
        game.moves.append((text, number))
    elif _TIME.fullmatch(text):
        seconds = float(text[1:])
        if game.ending is not None:
            game.ending_time = seconds
        elif not game.moves:
            raise error(f"CSA: a time {echo(text)} before the first move")
        else:
            game.times[len(game.moves)] = seconds
    elif text.startswith("%"):
        word = text[1:]
        if word not in ENDINGS:
            raise error(f"CSA: {echo(text)} is not an ending of CSA 2.2 (%TORYO, %CHUDAN, %SENNICHITE, ...)")
        game.ending = (word, number)
    elif game.moves:
        raise error(f"CSA: {echo(text)} is not a move (like +2324HI), a time (T5) or an ending (%TORYO)")
    elif text.startswith("N") and text[1:2] in ("+", "-"):
        game.names[0 if text[1] == "+" else 1] = text[2:]
    elif text.startswith("$"):
        key, colon, value = text[1:].partition(":")
        if not colon:
            raise error(f"CSA: the header {echo(text)} has no ':' ($KEY:value)")
        game.headers.setdefault(key, (value, number))
    elif _VERSION.fullmatch(text):
        game.version = text
    elif text.startswith("PI"):
        if text[2:]:
            raise error(f"CSA: {echo(text)} takes pieces off (a handicap); the Yōkai games have none")
        game.initial = number
    elif text[:2] in ("P+", "P-"):
        game.placed.append((text, number))
    elif _ROW.fullmatch(text):
        game.rows.append((text, number))
    elif text in ("+", "-"):
        game.side = (0 if text == "+" else 1, number)
    else:
        raise error(f"CSA: {echo(text)} is no line of a CSA record")


def _read(found: _Csa, source: str, budget: list[int | None]) -> Record:
    game = _game_of(found, source)
    start = _start(game, found, source)
    state, actions = start, []
    for ply, (text, number) in enumerate(found.moves):
        if budget[0] is not None:
            budget[0] -= 1
            if budget[0] < 0:
                raise RecordError(f"the file has more than {budget[1]:,} actions", source=source, line=number)
        move = _move(state, text, fail(source, number, ply))
        state = state.apply(move)
        actions.append(str(move))
    reason: str | None = None
    claim: Claim = None
    where = found.line
    if found.ending:
        word, where = found.ending
        reason = ENDINGS[word]
        if word in ("+ILLEGAL_ACTION", "-ILLEGAL_ACTION"):
            claim = 1 if word[0] == "+" else 0  # the sign names who acted illegally
        else:
            claim = winner_of_ending(reason, (start.side + len(actions)) % 2)
    result = settle(state, claim, fail(source, where))
    headers = {HEADERS[key]: value for key, (value, _) in found.headers.items() if key in HEADERS and value}
    extra = {key: value for key, (value, _) in found.headers.items() if key not in HEADERS and value}
    if found.version:
        extra["version"] = found.version[1:]
    names = [name or "" for name in found.names]
    players = ({"name": names[0]}, {"name": names[1]}) if any(names) else ()
    comments = [[ply, "\n".join(lines)] for ply, lines in found.comments]
    comments = [c for c in comments if c[1]]
    ending = ending_meta(reason, claim)
    if ending and found.ending_time is not None:
        ending["time"] = found.ending_time
    meta: dict[str, Any] = {
        "csa": extra,
        "headers": headers,
        "ending": ending,
        "times": seconds_meta(found.times),
    }
    if comments:
        meta["comments"] = comments_meta(comments)
    return build(
        game, start, actions, players=players, result=result, meta=meta, source=source, line=found.line
    )


def _game_of(found: _Csa, source: str) -> Game:
    """The game whose board the P1.. lines have, else the one the moves fit (after PI)."""
    classes = list(games_with("KIF"))  # the Yōkai games: those with shogi's squares and names
    if found.rows:
        size = (_row_width(found.rows[0][0]), len(found.rows))
        for cls in classes:
            if (cls.FILES, cls.RANKS) == size:
                return registry.load_game(cls.id)
        raise RecordError(
            f"CSA: a board of {size[0]}x{size[1]} squares is no board of a game this reader takes "
            f"({known('KIF')}: 3x4, 5x6); 9x9 is shogi",
            source=source,
            line=found.rows[0][1],
        )
    if found.initial is None:
        raise RecordError(
            "CSA: no start position (PI, or the board's P1.. lines) before the moves",
            source=source,
            line=found.moves[0][1] if found.moves else found.line,
        )
    fitting = [
        game
        for game in (registry.load_game(cls.id) for cls in classes)
        if found.moves and _fits(game, found.moves[0][0])
    ]
    if len(fitting) > 1:
        # told by how far the moves replay in each: the game they go furthest in (a move that
        # is none of its moves is then the error of its own line)
        reach = [_reach(game, found.moves) for game in fitting]
        fitting = [game for game, far in zip(fitting, reach, strict=True) if far == max(reach)]
    if len(fitting) == 1:
        return fitting[0]
    raise RecordError(
        "CSA: PI starts a game but CSA names no game, and "
        + ("the moves fit none" if found.moves and not fitting else "the moves do not tell which")
        + f" of {known('KIF')}; give the board as P1.. lines",
        source=source,
        line=found.initial,
    )


def _reach(game: Game, moves: list[tuple[str, int]]) -> int:
    """How many of the moves replay legally from `game`'s start."""
    state = game.initial_state()
    for count, (text, _) in enumerate(moves):
        try:
            move = _move(state, text, lambda reason: RecordError(reason)) if _fits(game, text) else None
        except RecordError:
            move = None
        if move is None:
            return count
        state = state.apply(move)
        if state.is_terminal():
            return count + 1
    return len(moves)


def _fits(game: Game, text: str) -> bool:
    """Whether a move's squares are on `game`'s board and its piece is one of `game`'s."""
    _, f1, r1, f2, r2, name = _MOVE.fullmatch(text).groups()
    on_board = [square_of_kif(game, int(f), int(r)) is not None for f, r in ((f1, r1), (f2, r2))]
    return name in _kinds(game) and on_board[1] and (on_board[0] or f1 == r1 == "0")


def _cells(text: str) -> list[str]:
    """A board line's cells, three characters each: ' * ', '+FU', '-OU'."""
    body = text[2:].rstrip()
    width = -(-len(body) // 3)
    return [body[i * 3 : i * 3 + 3].ljust(3) for i in range(width)]


def _row_width(text: str) -> int:
    return len(_cells(text))


def _start(game: Game, found: _Csa, source: str) -> State:
    if not found.rows and not found.placed:
        start = game.initial_state()
        if found.side and found.side[0] != start.side:
            return _checked(game, start.to_text().replace(" w ", " b ", 1), source, found.side[1])
        return start
    t = game.tables
    kinds = _kinds(game)
    board: list[list[str]] = [["" for _ in range(t.files)] for _ in range(t.ranks)]
    if found.rows:
        for rank, (text, number) in enumerate(found.rows, start=1):
            if int(text[1]) != rank:
                raise RecordError(
                    f"CSA: the board line P{text[1]} where P{rank} was due", source=source, line=number
                )
            cells = _cells(text)
            if len(cells) != t.files:
                raise RecordError(
                    f"CSA: a rank of {len(cells)} squares; {game.id} has {t.files} files",
                    source=source,
                    line=number,
                )
            for column, cell in enumerate(cells):
                if cell.strip() in ("*", ""):
                    continue
                if cell[0] not in "+-" or cell[1:] not in kinds:
                    raise RecordError(
                        f"CSA: {echo(cell)} is no piece of {game.id}", source=source, line=number
                    )
                board[rank - 1][column] = _letter(game, kinds[cell[1:]], cell[0])
    elif found.initial is not None:
        placement = game.initial_state().to_text().split("[")[0].split(" ")[0]
        board = _expand(placement, t.files)
    hands = ""
    for text, number in found.placed:
        sign, body = text[1], text[2:]
        if len(body) % 4:
            raise RecordError(
                f"CSA: {echo(text)}: pieces are given as square and name (00FU)", source=source, line=number
            )
        for at in range(0, len(body), 4):
            square, name = body[at : at + 2], body[at + 2 : at + 4]
            if square == "00" and name == "AL":
                hands += _rest(game, board, hands, sign)
                continue
            if name not in kinds:
                raise RecordError(f"CSA: {echo(name)} is no piece of {game.id}", source=source, line=number)
            if square == "00":
                hands += _letter(game, kinds[name], sign)
                continue
            file, rank = int(square[0]), int(square[1])
            if square_of_kif(game, file, rank) is None:
                raise RecordError(
                    f"CSA: {square} is no square of the {t.files}x{t.ranks} board", source=source, line=number
                )
            board[rank - 1][t.files - file] = _letter(game, kinds[name], sign)
    side = found.side[0] if found.side else 0
    placement = "/".join(_rank_text(row) for row in board)
    fen = f"{placement}[{hands}] {'b' if side else 'w'} - - 0 1"
    return _checked(game, fen, source, (found.rows or found.placed)[0][1])


def _checked(game: Game, fen: str, source: str, line: int) -> State:
    """The start position through the game's own checks (as a record's `start`)."""
    try:
        return check_start(game, fen)
    except RecordError as exc:
        reason = exc.reason.replace("field 'start'", "the CSA start position", 1)
        raise RecordError(reason, source=source, line=line) from exc


def _letter(game: Game, kind: int, sign: str) -> str:
    letter = game.LETTERS[kind]
    return letter if sign == "+" else letter.lower()


def _expand(placement: str, files: int) -> list[list[str]]:
    rows = []
    for rank in placement.split("/"):
        row: list[str] = []
        for token in re.findall(r"\+?[A-Za-z]|\d+", rank):
            row += [""] * int(token) if token.isdigit() else [token]
        rows.append(row + [""] * (files - len(row)))
    return rows


def _rank_text(row: list[str]) -> str:
    text, empty = "", 0
    for cell in row:
        if not cell:
            empty += 1
            continue
        text += (str(empty) if empty else "") + cell
        empty = 0
    return text + (str(empty) if empty else "")


def _rest(game: Game, board: list[list[str]], hands: str, sign: str) -> str:
    """`00AL`: every piece of the game's set not on the board or in a hand yet."""
    initial = game.initial_state().to_text().split(" ")[0]
    letters = [c.upper() for c in re.findall(r"[A-Za-z]", initial)]
    for cell in [c for row in board for c in row if c] + list(hands):
        base = cell.lstrip("+").upper()
        if base in letters:
            letters.remove(base)
    royal = game.LETTERS[_kinds(game)["OU"]]  # a Koropokkuru is never in a hand
    return "".join(c if sign == "+" else c.lower() for c in letters if c != royal)


def _move(state: State, text: str, error: Callable[[str], RecordError]) -> YokaiMove:
    """The legal move a CSA move names (its sign, squares and piece checked)."""
    game = state.game
    sign, f1, r1, f2, r2, name = _MOVE.fullmatch(text).groups()
    mover = game.player_names[state.side].lower()
    if (sign == "+") != (state.side == 0):
        raise error(
            f"CSA: {echo(text)} is a move of the {'first' if sign == '+' else 'second'} player, "
            f"but the {mover} is to move"
        )
    kinds = _kinds(game)
    if name not in kinds:
        raise error(
            f"CSA: {echo(text)} is not a move of {game.id}: {name} is none of its pieces ({', '.join(kinds)})"
        )
    to = square_of_kif(game, int(f2), int(r2))
    t = game.tables
    if to is None:
        raise error(
            f"CSA: {echo(text)} is not a move of {game.id}: {f2}{r2} is no square of the "
            f"{t.files}x{t.ranks} board"
        )
    kind = kinds[name]
    legal = [m for m in state.legal_moves() if m.to == to]
    if f1 == r1 == "0":
        candidates = [m for m in legal if m.drop == kind]
    else:
        frm = square_of_kif(game, int(f1), int(r1))
        if frm is None:
            raise error(f"CSA: {echo(text)} is not a move of {game.id}: {f1}{r1} is no square of the board")
        code = state.board[frm]
        if not code or owner_of(code) != state.side:
            raise error(f"CSA: {echo(text)}: the {mover} has no piece on {f1}{r1}")
        before = kind_of(code)
        candidates = [m for m in legal if m.frm == frm]
        promoted = [m for m in candidates if m.promote]
        if kind == before:
            candidates = [m for m in candidates if not m.promote]
        elif promoted and game.LETTERS[kind] == "+" + game.LETTERS[before]:
            candidates = promoted
        else:
            names = csa_names(game)
            raise error(
                f"CSA: {echo(text)}: the piece on {f1}{r1} is {names[before]}, which does not become {name}"
            )
    if len(candidates) != 1:
        raise error(f"CSA: {echo(text)} is not a legal move of the {mover} here")
    return candidates[0]


# --- writing --------------------------------------------------------------------------------


def dumps(record: Record) -> str:
    """One game as CSA 2.2 (the record is replayed: RecordError if it is bad)."""
    game = record.load_game()
    if game.id not in {cls.id for cls in games_with("KIF")}:
        raise RecordError(f"{game.id} has no CSA form; CSA is written for {known('KIF')}")
    states = record.replay()
    lines = ["V2.2"]
    names = [p.get("name") if isinstance(p.get("name"), str) else "" for p in record.players] + ["", ""]
    for sign, name in zip("+-", names[:2], strict=True):
        if name:
            lines.append(f"N{sign}{_one_line(name)}")
    headers = headers_of(record)
    for key, ours in HEADERS.items():
        if ours in headers:
            value = headers[ours]
            if ours in ("date", "end_date"):
                value = slash_date(value)
            lines.append(f"${key}:{_one_line(value)}")
    extra = record.meta.get("csa") if isinstance(record.meta, dict) else None
    for key, value in (extra or {}).items():
        if isinstance(key, str) and re.fullmatch(r"[A-Z_]{1,40}", key) and key not in HEADERS:
            lines.append(f"${key}:{_one_line(str(value))}")
    lines += _board(states[0])
    comments = comments_of(record)
    lines += _comment_lines(comments.get(0))
    times = spent_times(record)
    for ply, action in enumerate(record.actions):
        state = states[ply]
        lines.append(move_text(state, state.parse_move(action.notation)))
        if ply + 1 in times:
            lines.append(f"T{number_text(times[ply + 1])}")
        lines += _comment_lines(comments.get(ply + 1))
    lines += _ending(record, states)
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)


def _board(state: State) -> list[str]:
    game, t = state.game, state.tables
    names = csa_names(game)
    lines = []
    for rank in range(t.ranks - 1, -1, -1):
        cells = ""
        for file in range(t.files):
            code = state.board[rank * t.files + file]
            cells += ("+" if owner_of(code) == 0 else "-") + names[kind_of(code)] if code else " * "
        lines.append(f"P{t.ranks - rank}{cells}")
    for side, sign in ((0, "+"), (1, "-")):
        held = "".join(
            f"00{names[kind]}" * state.hands[side][kind]
            for kind in names
            if kind < len(state.hands[side]) and state.hands[side][kind]
        )
        if held:
            lines.append(f"P{sign}{held}")
    lines.append("+" if state.side == 0 else "-")
    return lines


def move_text(state: State, move: YokaiMove) -> str:
    """A move as CSA writes it: `+2324HI`, `+0023FU` (a drop), `+2221TO` (a promotion)."""
    game = state.game
    names = csa_names(game)
    sign = "+" if state.side == 0 else "-"
    to = "".join(map(str, kif_square(game, move.to)))
    if move.drop is not None:
        return f"{sign}00{to}{names[move.drop]}"
    kind = kind_of(state.board[move.frm])
    if move.promote:
        kind = next(k for k, letter in game.LETTERS.items() if letter == "+" + game.LETTERS[kind])
    return f"{sign}{''.join(map(str, kif_square(game, move.frm)))}{to}{names[kind]}"


def _comment_lines(text: str | None) -> list[str]:
    return [] if text is None else ["'*" + line for line in writable_comment(text).split("\n")]


#: the ending written for each of our ending names (illegal-action: by its sign, below)
_WORDS = {reason: word for word, reason in ENDINGS.items() if reason != "illegal-action"}


def _ending(record: Record, states: list[State]) -> list[str]:
    reason, claim = ending_of(record)
    final = states[-1]
    mover = final.side
    if reason is None and claim is not None and final.outcome() is not None:
        # the rules ended the game: CSA's word for it where it has one (a mate, a repetition);
        # a captured or trying Koropokkuru is in the moves themselves
        if claim == DRAW and final.repetition_count() >= final.game.options["repetitions"]:
            reason = "repetition"
        elif claim != DRAW and final.game.ROYAL:
            reason = "mate"
    elif claim is not None and (reason is None or reason in ("forfeit-win", "forfeit-loss")):
        # a claim without its reason: the side to move lost (it resigned), else the other side
        # did something the rules forbid (CSA's only ending that names the loser)
        reason = "resign" if claim == 1 - mover else "draw" if claim == DRAW else "illegal-action"
    if reason is None:
        return []
    if reason == "illegal-action":
        loser = 1 - claim if claim in (0, 1) else mover
        word = f"{'+' if loser == 0 else '-'}ILLEGAL_ACTION"
    elif reason == "illegal-win":
        word = f"{'+' if mover == 1 else '-'}ILLEGAL_ACTION"  # the side not to move acted illegally
    else:
        word = _WORDS[reason]
    lines = [f"%{word}"]
    held = record.meta.get("ending") if isinstance(record.meta, dict) else None
    seconds = held.get("time") if isinstance(held, dict) else None
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 <= seconds < 10**9:
        lines.append(f"T{number_text(float(seconds))}")
    return lines


def write(target: str | os.PathLike | IO[str], records: Record | Iterable[Record]) -> int:
    """Write games as a CSA file, separated by '/' lines: Shift_JIS (cp932) with CRLF, as CSA
    files have been (CSA 3.0 says so of a file without an encoding line); UTF-8 with the
    line `'CSA encoding=UTF-8` first when a name or comment has a character Shift_JIS lacks.
    Returns how many games were written."""
    many = [records] if isinstance(records, Record) else list(records)
    text = "/\n".join(dumps(record) for record in many)
    if isinstance(target, (str, os.PathLike)):
        Path(target).write_bytes(encoded("csa", text, Path(target).suffix))
    else:
        target.write(text)
    return len(many)
