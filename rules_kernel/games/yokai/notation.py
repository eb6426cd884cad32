"""Yōkai no Mori in text: the position text (Fairy-Stockfish FEN) and its checks, the move list's
words, why a move is illegal, and the seams the players' formats use (rules_kernel/formats/:
SAN for PGN, the KIF piece names and squares). Moves are written `b2b3` (a step, `+` when it
promotes) and `C@a2` (a drop): rules/NOTES.md.

Public here, for the formats and anyone else: `san`, `parse_san`, `san_letter`, `in_check`,
`SHOGI_NAMES`, `KIF_PIECES_3X4`, `KIF_PIECES_5X6`, `PGN_LETTERS_3X4`, `PGN_LETTERS_5X6`,
`kif_square`, `square_of_kif`; the state's methods call `position_parts`, `position_text` and
`status`. The module is the game's "words" part (`YokaiGame.PARTS`, `rules_kernel.parts.WordsPart`):
`action_text`, `forgotten_text` and `why_illegal`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules_kernel.games.yokai.rules import (
    _HAND_ORDER,
    EMPTY,
    KIND_NAMES,
    KIRIN,
    KITSUNE,
    KODAMA,
    KODAMA_SAMURAI,
    KOROPOKKURU,
    ONI,
    PROMOTES_TO,
    SUPER_ONI,
    TANUKI,
    UNPROMOTED,
    YokaiMove,
    _decided,
    _in_check,
    _is_drop_mate,
    _kept,
    _legal_moves,
    _make,
    kind_of,
    owner_of,
    piece,
)
from rules_kernel.position_text import FieldError, whole_number

if TYPE_CHECKING:
    from rules_kernel.games.yokai.game import YokaiGame
    from rules_kernel.games.yokai.state import YokaiState

_MOVE_RE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)(\+?)$")
_DROP_RE = re.compile(r"^([A-Za-z])@([a-z])(\d+)$")


# --- position text (Fairy-Stockfish FEN) -------------------------------------------------

_FIELDS = {
    2: ("side to move",),
    4: ("side to move", "halfmove clock", "move number"),
    6: ("side to move", "castling", "en passant", "halfmove clock", "move number"),
}


def position_parts(
    game: YokaiGame, fields: list[str]
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]], int, int]:
    """(board, hands, side, ply) of FEN `board[hand] side [castling ep] [halfmove move]`, from
    its fields (the state built from them starts a game: no repetition history)."""
    if len(fields) not in _FIELDS:
        raise FieldError(
            "position text", f"expected 'board[hand] side ...' like {game.START!r}, got {len(fields)} fields"
        )
    m = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]", fields[0])
    if not m:
        raise FieldError("board", "the board must be followed by the hand in [...]")
    board = _parse_board(game, m.group(1))
    hands = _parse_hand(game, m.group(2))
    named = dict(zip(_FIELDS[len(fields)], fields[1:], strict=True))
    if named["side to move"] not in ("w", "b"):
        raise FieldError("side to move", f"must be 'w' or 'b', not {named['side to move'][:10]!r}")
    side = 0 if named["side to move"] == "w" else 1
    for field in ("castling", "en passant"):
        if named.get(field, "-") != "-":
            raise FieldError(field, f"{game.title} has none: write '-'")
    whole_number(named.get("halfmove clock", "0"), "halfmove clock")  # not kept: no rule needs it
    fullmove = whole_number(named.get("move number", "1"), "move number")
    if fullmove < 1:
        raise FieldError("move number", "must be at least 1")
    _check_position(game, board, hands, side)
    ply = 2 * (fullmove - 1) + side
    return tuple(board), (tuple(hands[0]), tuple(hands[1])), side, ply


def _parse_board(game: YokaiGame, placement: str) -> list[int]:
    t = game.tables
    rows = placement.split("/")
    if len(rows) != t.ranks:
        raise FieldError("board", f"{len(rows)} ranks, {game.id} has {t.ranks}")
    board = [EMPTY] * t.size
    for i, row in enumerate(rows):
        rank = t.ranks - 1 - i
        file = 0
        for token in re.findall(r"\+?[A-Za-z]|[0-9]+|.", row):
            if token.isascii() and token.isdigit():
                if len(token) > 2 or int(token) == 0:
                    raise FieldError(
                        "board",
                        f"rank {rank + 1} ({row[:20]!r}): {token[:10]!r} is no count of empty squares",
                    )
                file += int(token)
                continue
            code = _code_of_letter(game, token, "board")
            if file >= t.files:
                raise FieldError("board", f"rank {rank + 1} ({row[:20]!r}) has more than {t.files} files")
            board[rank * t.files + file] = code
            file += 1
        if file != t.files:
            raise FieldError("board", f"rank {rank + 1} ({row[:20]!r}) covers {file} files, not {t.files}")
    return board


def _parse_hand(game: YokaiGame, hand: str) -> list[list[int]]:
    hands = [[0] * 9, [0] * 9]
    for letter in re.findall(r"\+?[A-Za-z]|.", "" if hand == "-" else hand):
        code = _code_of_letter(game, letter, "hand")
        if kind_of(code) in UNPROMOTED:
            raise FieldError("hand", "a promoted piece cannot be in hand (captures unpromote)")
        hands[owner_of(code)][kind_of(code)] += 1
    return hands


def _square_of(game: YokaiGame, cell: str) -> int:
    if cell not in game.tables.names:
        raise FieldError("board", f"{cell[:10]!r} is no square of {game.id}")
    return game.tables.names.index(cell)


def _code_of_letter(game: YokaiGame, token: str, field: str) -> int:
    kind = game.tables.kind_of_letter.get(token.upper())
    if kind is None:
        raise FieldError(
            field, f"{token!r} is no piece of {game.id} (pieces: {', '.join(game.LETTERS.values())})"
        )
    return piece(kind, 0 if token.upper() == token else 1)


def _check_position(game: YokaiGame, board, hands, side: int) -> None:
    """Refuse what the box or the rules cannot hold (rules/NOTES.md, the rulebook): more
    pieces than the box, two Koropokkuru of one side, a Koropokkuru in hand while the game
    goes on. Less than the box, a side without its Koropokkuru, a Koropokkuru left attacked:
    a study position, accepted and described by `status()`."""
    _check_material(game, board, hands)
    _check_koropokkuru(game, board, hands, side)


def _check_material(game: YokaiGame, board, hands) -> None:
    counts = dict.fromkeys(game.MATERIAL, 0)
    for code in board:
        if code != EMPTY:
            counts[UNPROMOTED.get(kind_of(code), kind_of(code))] += 1
    for hand in hands:
        for kind, n in enumerate(hand):
            if n:
                counts[kind] += n
    for kind, n in counts.items():
        if n > game.MATERIAL[kind]:
            raise FieldError(
                "board and hands",
                f"{n} {KIND_NAMES[kind]} (promoted ones included); {game.title} has {game.MATERIAL[kind]}",
            )


def _check_koropokkuru(game: YokaiGame, board, hands, side: int) -> None:
    """At most one Koropokkuru each on the board. A captured one lies in the captor's hand,
    and then the game ended with that capture (the loser is to move): a Koropokkuru is never
    dropped. (In 5x6 only a study position that leaves one attacked lets it be taken.)"""
    names = game.player_names
    for player in (0, 1):
        on_board = board.count(piece(KOROPOKKURU, player))
        if on_board > 1:
            raise FieldError("board", f"{names[player]} has {on_board} Koropokkuru")
    for player in (0, 1):
        if hands[player][KOROPOKKURU] and (board.count(piece(KOROPOKKURU, 1 - player)) or side == player):
            raise FieldError(
                "hand",
                f"{names[player]} holds a captured Koropokkuru, so the game "
                f"ended with that capture: {names[1 - player]} has none on the board and "
                "is to move",
            )


def status(game: YokaiGame, board, hands, side: int) -> list[str]:
    """What no game from the start reaches, in words (`YokaiState.status`)."""
    remarks = []
    names = game.player_names
    counts = dict.fromkeys(game.MATERIAL, 0)
    for code in board:
        if code != EMPTY:
            counts[UNPROMOTED.get(kind_of(code), kind_of(code))] += 1
    for hand in hands:
        for kind in counts:
            counts[kind] += hand[kind]
    box = game.MATERIAL
    out = [(box[kind] - n, KIND_NAMES[kind]) for kind, n in counts.items() if n < box[kind]]
    if out:
        total = sum(n for n, _ in out)
        listed = ", ".join(f"{n} {name}" for n, name in out)
        remarks.append(f"{total} piece{'s' if total > 1 else ''} out of the game ({listed})")
    for player in (0, 1):
        if piece(KOROPOKKURU, player) not in board and not hands[1 - player][KOROPOKKURU]:
            remarks.append(f"no Koropokkuru for the {names[player]}")
    # A royal Koropokkuru is never left attacked by its own side's move; the side to move may
    # take it (and wins: the rulebook's "capture").
    if game.ROYAL and _in_check(game, board, 1 - side):
        remarks.append(f"the Koropokkuru of the side not to move ({names[1 - side]}) can be taken")
    if game.DROP_RESTRICTIONS:
        remarks.extend(_kodama_remarks(game, board))
    return remarks


def _kodama_remarks(game: YokaiGame, board) -> list[str]:
    """5x6 "Spezifische Regeln": a Kodama reaching the last rank must promote and may not be
    dropped there; two own unpromoted Kodama never share a file (no drop makes it, a Kodama
    never changes file). A study position may break both; the Kodama then stays put."""
    t = game.tables
    remarks = []
    for player in (0, 1):
        files = [sq % t.files for sq, code in enumerate(board) if code == piece(KODAMA, player)]
        remarks.extend(
            f"an unpromoted Kodama of the {game.player_names[player]} on {t.names[sq]}, its last rank "
            "(it never moves)"
            for sq in t.far_rank[player]
            if board[sq] == piece(KODAMA, player)
        )
        for file in sorted({f for f in files if files.count(f) > 1}):
            remarks.append(
                f"two unpromoted Kodama of the {game.player_names[player]} in file {chr(ord('a') + file)}"
            )
    return remarks


def position_text(state: YokaiState) -> str:
    """The position as Fairy-Stockfish FEN (`YokaiState.to_text`)."""
    written_at = state.game.tables.written_at  # the board, hands and side: once per position
    placement = written_at.get(state._key)
    if placement is None:
        placement = _kept(written_at, state._key, _placement(state))
    return f"{placement} - - 0 {state.ply // 2 + 1}"


def _placement(state: YokaiState) -> str:
    """The FEN's board, hands and side to move, from the ranks and hands written before (by
    their bytes in the packed position: no objects for the garbage collector to follow)."""
    t = state.game.tables
    key, size, files, ranks, hands = state._key, t.size, t.files, t.written_ranks, t.written_hands
    rows = []
    for start in range(size - files, -1, -files):  # from the top rank down
        row = key[start : start + files]
        text = ranks.get(row)
        if text is None:
            if len(ranks) >= _WRITTEN_KEPT:
                ranks.clear()
            text = ranks[row] = _rank_text(t, row)
        rows.append(text)
    held = key[size:-1]
    hand = hands.get(held)
    if hand is None:
        if len(hands) >= _WRITTEN_KEPT:
            hands.clear()
        hand = hands[held] = _hand_text(t, state.hands)
    return f"{'/'.join(rows)}[{hand}] {'wb'[state.side]}"


#: ranks and hands written are kept up to this many each (3x4 has about a thousand ranks)
_WRITTEN_KEPT = 20_000


def _hand_text(t, hands: tuple[tuple[int, ...], ...]) -> str:
    return "".join(
        t.letter[kind] if owner == 0 else t.letter[kind].lower()
        for owner in (0, 1)
        for kind in _HAND_ORDER
        for _ in range(hands[owner][kind])
    )


def _rank_text(t, row: bytes) -> str:
    """One rank of the FEN's board: its pieces' letters and counts of empty squares."""
    text, empty = "", 0
    for code in row:
        if code == EMPTY:
            empty += 1
            continue
        if empty:
            text, empty = text + str(empty), 0
        letter = t.letter[kind_of(code)]
        text += letter if owner_of(code) == 0 else letter.lower()
    return text + (str(empty) if empty else "")


# --- the move list's words ----------------------------------------------------------------

_ORDINALS = ("a first", "a second", "a third", "a fourth", "a fifth", "a sixth", "a seventh", "an eighth")


def action_text(state: YokaiState, move: YokaiMove, viewer: int | None = None) -> str:
    """The move in the rulebook's words, without the mover (the "words" part): "Kitsune b1–c2
    takes Tanuki", "drops Tanuki on b2", "Kodama b3–b4 becomes Kodama Samurai" ("stays Kodama"
    where promotion was a choice and the move declines it), and how it ends the game if it
    does ("reaches the far rank safely", "repeats the position a third time: a draw",
    ": checkmate ..."). A capture names the piece as it stood on the board (a Kodama Samurai
    goes to the hand as a Kodama). Everything is public: `viewer` changes nothing. IllegalMoveError
    if the move cannot be played here."""
    return move_text(state, move, state.apply(move))


def forgotten_text(state: YokaiState, move: YokaiMove, viewer: int | None = None) -> str:
    """A view forgets nothing in Yōkai (nothing is hidden): the words themselves."""
    return action_text(state, move, viewer)


def move_text(state: YokaiState, move: YokaiMove, after: YokaiState) -> str:
    """`action_text` of a move whose position after is known (`after`)."""
    t, game, side = state.game.tables, state.game, state.side
    outcome = after.outcome()
    if outcome is None:
        return move_words(state, move)
    mover, clauses, kind, captured = _move_clauses(state, move)
    ending = ""
    if kind_of(captured) != KOROPOKKURU:  # "takes Koropokkuru" says it all
        if outcome.is_draw and _decided(game, after.board, after.hands, after.side) is None:  # repetition
            n = game.options["repetitions"]
            clauses.append(
                f"repeats the position {_ORDINALS[n - 1]} time"
                if n <= 8
                else f"repeats the position, now {n} times"
            )
            ending = ": a draw"
        elif game.ROYAL:
            checkmate = _in_check(game, after.board, after.side)
            ending = (
                ": checkmate, the Koropokkuru cannot escape capture"
                if checkmate
                else ": no legal move is left to answer it"
            )
        elif outcome.is_draw:
            ending = ": both Koropokkuru stand safely on their far ranks, a draw"
        elif kind == KOROPOKKURU and outcome.winner == side and move.to in t.far_rank[side]:
            clauses.append("reaches the far rank safely")
        else:
            where = t.names[after.board.index(piece(KOROPOKKURU, outcome.winner))]
            ending = f": the Koropokkuru on {where} stands safely on its far rank"
    return _phrase(mover, clauses) + ending


#: the words of moves kept (`move_words`) up to this many (a variant's moves, pieces and
#: captures make a few thousand)
_WORDS_KEPT = 100_000


def move_words(state: YokaiState, move: YokaiMove) -> str:
    """The words of a legal move that does not end the game: the piece and its squares, what
    it takes, whether it promotes (or declines to). They depend on nothing else, so they are
    kept by those (`_Tables.move_words`): a collection's import words millions of moves."""
    t = state.game.tables
    if move.drop is not None:
        key: object = move._text
    else:
        board = state.board  # the kinds (`kind_of`) of the piece that moves and the one taken
        key = (move._text, board[move.frm] & 15, board[move.to] & 15, _declines(state, move))
    words = t.move_words.get(key)
    if words is None:
        if len(t.move_words) >= _WORDS_KEPT:
            t.move_words.clear()
        mover, clauses, _, _ = _move_clauses(state, move)
        words = t.move_words[key] = _phrase(mover, clauses)
    return words


def _move_clauses(state: YokaiState, move: YokaiMove) -> tuple[str, list[str], int, int]:
    """(the piece and its squares, the clauses: what it takes, how it promotes; the kind that
    moves, the code of the piece taken) of a legal move, before how the game ends."""
    t = state.game.tables
    if move.drop is not None:
        return "", [f"drops {KIND_NAMES[move.drop]} on {t.names[move.to]}"], move.drop, EMPTY
    kind, captured = kind_of(state.board[move.frm]), state.board[move.to]
    mover = f"{KIND_NAMES[kind]} {t.names[move.frm]}\u2013{t.names[move.to]}"
    clauses = [f"takes {KIND_NAMES[kind_of(captured)]}"] if captured else []
    if move.promote:
        clauses.append(f"becomes {KIND_NAMES[PROMOTES_TO[kind]]}")
    elif _declines(state, move):
        clauses.append(f"stays {KIND_NAMES[kind]}")
    return mover, clauses, kind, captured


def _declines(state: YokaiState, move: YokaiMove) -> bool:
    """Whether a step that does not promote could have promoted here: the promotion was a
    choice, declined (only a piece that promotes at all can have had the choice)."""
    if move.promote or kind_of(state.board[move.frm]) not in PROMOTES_TO:
        return False
    promoting = state.game.tables.step_moves[move.frm, move.to, True, state.side]
    return promoting._text in state._allowed_now()


def _phrase(mover: str, clauses: list[str]) -> str:
    words = ", ".join(clauses[:-1]) + " and " + clauses[-1] if len(clauses) > 1 else "".join(clauses)
    return " ".join(part for part in (mover, words) if part)


# --- explaining an illegal move ----------------------------------------------------------


def why_illegal(state: YokaiState, text: str) -> str:
    """Why `text` is no legal move here, in words (`rules_kernel.parts.why_illegal`)."""
    t, game = state.tables, state.game
    who = game.player_names[state.side]
    if len(text) > 12:  # no move is that long; do not echo a huge text
        return f"{text[:20]!r}...: not {game.title} notation (a step like 'b2b3', a drop like 'C@a2')"
    m, d = _MOVE_RE.match(text), _DROP_RE.match(text)
    if not m and not d:
        return (
            f"{text!r} is not {game.title} notation: write a step like 'b2b3' "
            f"(with '+' to promote) or a drop like 'C@a2'"
        )
    squares = [m.group(1) + m.group(2), m.group(3) + m.group(4)] if m else [d.group(2) + d.group(3)]
    for sq in squares:
        if sq not in t.index:
            return f"{text!r}: {sq} is not a square of the {t.files}x{t.ranks} board"
    if d:
        return _why_drop_illegal(state, text, d.group(1).upper(), t.index[squares[0]], who)
    frm, to = t.index[squares[0]], t.index[squares[1]]
    code = state.board[frm]
    if code == EMPTY:
        return f"{text!r}: there is no piece on {squares[0]}"
    name = KIND_NAMES[kind_of(code)]
    if owner_of(code) != state.side:
        return f"{text!r}: the {name} on {squares[0]} belongs to the opponent; {who} is to move"
    if to not in t.dest[code][frm]:
        return f"{text!r}: the {name} on {squares[0]} cannot step to {squares[1]}"
    if state.board[to] != EMPTY and owner_of(state.board[to]) == state.side:
        return f"{text!r}: {squares[1]} is occupied by your own {KIND_NAMES[kind_of(state.board[to])]}"
    same_squares = [str(mv) for mv in state.legal_moves() if mv.frm == frm and mv.to == to]
    if same_squares:
        return f"{text!r}: this step must be written {' or '.join(same_squares)} (promotion)"
    return f"{text!r}: it would leave your Koropokkuru attacked"


def _why_drop_illegal(state: YokaiState, text: str, letter: str, to: int, who: str) -> str:
    t, game = state.tables, state.game
    kind = t.kind_of_letter.get(letter)
    if kind is None or kind in UNPROMOTED:
        return f"{text!r}: {letter!r} is not a piece that can be dropped in {game.title}"
    name = KIND_NAMES[kind]
    if not state.hands[state.side][kind]:
        return f"{text!r}: {who} has no {name} in hand"
    if state.board[to] != EMPTY:
        return f"{text!r}: {t.names[to]} is not empty (a drop goes on a free square)"
    if game.DROP_RESTRICTIONS and kind == KODAMA:
        if to in t.far_rank[state.side]:
            return f"{text!r}: a Kodama may not be dropped on the last rank (it could never move)"
        if any(state.board[sq] == piece(KODAMA, state.side) for sq in range(to % t.files, t.size, t.files)):
            return f"{text!r}: two of your Kodama may not stand in the same file"
        board, hands = _make(state.board, state.hands, t.drops[kind, to, state.side], state.side)
        if not _in_check(game, board, state.side) and _is_drop_mate(game, board, hands, state.side, to):
            return f"{text!r}: a Kodama drop may not give checkmate"
    return f"{text!r}: it would leave your Koropokkuru attacked"


# --- the names the players' formats give the pieces (game.py declares them) -------------

#: the SAN letter Fairy-Stockfish gives a piece whose FEN letter is not one: the hen is `H`;
#: on 5x6 a promoted Kodama or Oni moves as a gold, `G`
PGN_LETTERS_3X4 = {KODAMA_SAMURAI: "H"}
PGN_LETTERS_5X6 = {KODAMA_SAMURAI: "G", SUPER_ONI: "G"}
#: the piece names Japanese programs write in KIF: lishogi's animals for 3x4, shogi's kanji
#: (81Dojo's Gorogoro) for 5x6
KIF_PIECES_3X4 = {
    KODAMA: "ひよこ",
    KITSUNE: "ぞう",
    TANUKI: "きりん",
    KOROPOKKURU: "ライオン",
    KODAMA_SAMURAI: "にわとり",
}
KIF_PIECES_5X6 = {
    KODAMA: "歩",
    ONI: "銀",
    KIRIN: "金",
    KOROPOKKURU: "玉",
    KODAMA_SAMURAI: "と",
    SUPER_ONI: "成銀",
}


# --- the seams of the players' formats (rules_kernel/formats/) -----------------------------


def in_check(state: YokaiState) -> bool:
    """Whether the side to move's Koropokkuru stands attacked (in 3x4, where it is not royal,
    this is a threat, not a check: the rules never refuse a move for it)."""
    return _in_check(state.game, state.board, state.side)


#: shogi's kanji for the piece that moves the same way (KIF reads them, never writes them for 3x4)
SHOGI_NAMES = {
    "歩": KODAMA,
    "と": KODAMA_SAMURAI,
    "角": KITSUNE,
    "飛": TANUKI,
    "玉": KOROPOKKURU,
    "王": KOROPOKKURU,
    "金": KIRIN,
    "銀": ONI,
    "成銀": SUPER_ONI,
    "全": SUPER_ONI,
}


def kif_square(game: YokaiGame, sq: int) -> tuple[int, int]:
    """(KIF file, KIF rank) of our square: files counted from the first player's right, ranks
    from the second player's side (our top rank is 1)."""
    t = game.tables
    return t.files - sq % t.files, t.ranks - sq // t.files


def square_of_kif(game: YokaiGame, file: int, rank: int) -> int | None:
    """Our square of a KIF file and rank, or None off the board."""
    t = game.tables
    if not (1 <= file <= t.files and 1 <= rank <= t.ranks):
        return None
    return (t.ranks - rank) * t.files + (t.files - file)


_DEST = re.compile(r"([a-z][0-9]+)(=[A-Z])?$")
_OURS = re.compile(r"[a-z][0-9]+[a-z][0-9]+\+?|[A-Z]@[a-z][0-9]+")


def san_letter(game: YokaiGame, kind: int) -> str:
    """A piece's SAN letter: its FEN letter, or the one Fairy-Stockfish gives what it became."""
    return game.PGN_LETTERS.get(kind) or game.LETTERS[kind]


def san(state: YokaiState, move: YokaiMove, legal: list[YokaiMove] | None = None) -> str:
    """The move in Fairy-Stockfish's SAN (pyffish `get_san_moves(..., NOTATION_SAN)`), check and
    mate marks included; `legal`: the state's legal moves, when the caller has them."""
    return _san_core(state, move, state.legal_moves() if legal is None else legal) + _check_mark(state, move)


def _san_core(state: YokaiState, move: YokaiMove, legal: list[YokaiMove]) -> str:
    game, names = state.game, state.tables.names
    if move.drop is not None:
        return f"{san_letter(game, move.drop)}@{names[move.to]}"
    kind = kind_of(state.board[move.frm])
    mine = san_letter(game, kind)
    text = mine + _disambiguation(state, move, legal, mine)
    if state.board[move.to]:
        text += "x"
    text += names[move.to]
    if move.promote:
        text += "=" + san_letter(game, PROMOTES_TO[kind])
    return text


def _disambiguation(state: YokaiState, move: YokaiMove, legal: list[YokaiMove], mine: str) -> str:
    """Fairy-Stockfish's rule: other pieces of the same letter with the same kind of move to
    the same square; the file if it tells them apart, else the rank, else the square."""
    files = state.tables.files
    others = [
        m.frm
        for m in legal
        if m.drop is None
        and m.to == move.to
        and m.frm != move.frm
        and m.promote == move.promote
        and san_letter(state.game, kind_of(state.board[m.frm])) == mine
    ]
    if not others:
        return ""
    name = state.tables.names[move.frm]
    if all(sq % files != move.frm % files for sq in others):
        return name[0]
    if all(sq // files != move.frm // files for sq in others):
        return name[1:]
    return name


def _check_mark(state: YokaiState, move: YokaiMove) -> str:
    """'+' for check, '#' for mate: only where the Koropokkuru is royal (Fairy-Stockfish's
    dobutsu king is not, so it never marks a check there)."""
    game = state.game
    if not game.ROYAL:
        return ""
    after = state.apply(move)
    if not in_check(after):
        return ""
    return "+" if _legal_moves(game, after.board, after.hands, after.side) else "#"


def parse_san(state: YokaiState, token: str) -> YokaiMove | None:
    """The legal move a SAN token (or our own notation) names, or None."""
    core = token.rstrip("+#!?")
    legal = state.legal_moves()
    found = _DEST.search(core)
    if found:
        for move in legal:
            if state.tables.names[move.to] == found.group(1) and _san_core(state, move, legal) == core:
                return move
    if _OURS.fullmatch(token):
        return next((m for m in legal if str(m) == token), None)
    return None
