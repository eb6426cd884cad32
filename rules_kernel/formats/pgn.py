"""PGN for the Yōkai games, as pychess-variants writes it (server/utils.py `pgn`, game.py):

    [Event "PyChess casual game"]
    [Site "https://www.pychess.org/abcdefgh"]
    [Date "2026.11.24"]
    [Round "-"]
    [White "Ann"]
    [Black "Bo"]
    [Result "1-0"]
    [TimeControl "300+0"]
    [WhiteElo "1500"]
    [BlackElo "1500"]
    [Variant "Dobutsu"]
    [FEN "gle/1c1/1C1/ELG[-] w 0 1"]
    [SetUp "1"]

    1. Cxb3 Exb3 2. Lc2 ... 1-0

Moves are Fairy-Stockfish's SAN (pyffish `get_san_moves(..., NOTATION_SAN)`, which pychess
calls): the piece's letter always (`C` for the chick too), a file, rank or square only when
another piece of the same letter could go there with the same kind of move, `x` for a
capture, `=H` / `=G` for a promotion (the letter of what it becomes), drops as `C@b2`, and
`+` / `#` for check and mate in the 5x6 game, whose Koropokkuru is royal. A promoted piece
moves under its new letter: the hen is `H`; on 5x6 a promoted Kodama or Oni moves as a gold,
`G`. Our own notation (`b2b3`, `C@a2`) is read too.

The reader takes any PGN: many games in a file, comments kept in `meta["comments"]` as
{"<ply>": text} (the session's comments, shown by the Replay), NAGs and variations `(...)`
skipped, move numbers ignored.

Comments, by the PGN standard (section 5, "Commentary"): a brace comment runs from `{` to the
next `}` (across lines; braces do not nest, and PGN has no escape for `}`); a rest-of-line
comment runs from `;` to the end of the line; a line starting with `%` is an escape line. A
comment's text is read as it stands: between the braces, or after the `;`, newlines, tabs and
edge spaces kept; rest-of-line comments on consecutive lines (`;` at the start of the next
line) are one comment of several lines; two comments at one ply are joined by a blank line.
The writer writes a comment as one brace comment, unless it holds a `}` or a line starting
with `%`: then as rest-of-line comments, one a line, which hold those. So every comment comes
back exactly as written, but for what no line of a file holds (`formats.writable_comment`:
control characters, line breaks of other conventions, unpaired surrogates).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from rules_kernel import registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Game, State
from rules_kernel.formats import (
    DRAW,
    Claim,
    build,
    claim_of,
    clock_text,
    comments_meta,
    comments_of,
    echo,
    ending_meta,
    ending_of,
    fail,
    games_with,
    headers_of,
    known,
    pgn_date,
    seconds_meta,
    seconds_of,
    seconds_of_meta,
    settle,
    variations_of,
    writable_comment,
)

# SAN is the Yōkai notation's (its public seams); `san` and `parse_san` stay importable from here
from rules_kernel.games.yokai.notation import parse_san, san
from rules_kernel.info import info
from rules_kernel.record_model import Record, RecordError, check_start

#: pychess-variants writes these tags first, in this order (then Variant, FEN, SetUp)
PYCHESS_TAGS = (
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "TimeControl",
    "WhiteElo",
    "BlackElo",
)
#: what a PGN tag holds when it says nothing ("?" unknown, "-" none); not kept in `meta`
UNKNOWN = frozenset({"", "?", "-", "????.??.??"})
#: tags that map to a record's own fields; the others travel in `meta["pgn"]`
MAPPED = frozenset({"Variant", "FEN", "SetUp", "White", "Black", "Result"})
RESULTS: dict[str, Claim] = {"1-0": 0, "0-1": 1, "1/2-1/2": DRAW, "*": None}
#: PGN's tags for ours (meta["headers"]); they stay in meta["pgn"] too
HEADERS = {
    "Event": "event",
    "Site": "site",
    "Date": "date",
    "Round": "round",
    "TimeControl": "time_control",
    "Opening": "opening",
}
#: [Termination] values (lichess's, pychess's) and the ending each names
TERMINATIONS = {
    "time forfeit": "time-up",
    "abandoned": "abort",
    "rules infraction": "illegal-move",
    "resignation": "resign",
    "checkmate": "mate",
    "repetition": "repetition",
}
#: the PGN export format's line length for movetext
WIDTH = 80

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TOKEN = re.compile(
    r"""(?P<space>\s+)
      |(?P<comment>\{[^}]*\})
      |(?P<open>\{)
      |(?P<line_comment>;[^\n]*)
      |(?P<nag>\$[0-9]+)
      |(?P<rav>[()])
      |(?P<result>1-0|0-1|1/2-1/2|\*)(?![^\s{}();])
      |(?P<number>[0-9]+\.+)
      |(?P<move>[^\s{}();$]+)""",
    re.X,
)


# --- reading --------------------------------------------------------------------------------


class _Game:
    """One game's lines as the splitter found them: tags, movetext, a malformed tag line."""

    def __init__(self) -> None:
        self.tags: dict[str, tuple[str, int]] = {}
        self.text: list[tuple[int, str]] = []
        self.error: RecordError | None = None
        self.line: int | None = None
        self.clocks: dict[str, dict[int, float]] = {}
        self.variations: list[dict[str, Any]] = []


def _split(lines: Iterable[tuple[int, str]], source: str) -> Iterator[_Game]:
    """The games of a PGN file: a tag section, then movetext; a tag line after movetext
    starts the next game (a '[' inside a {comment} does not)."""
    game, in_comment = _Game(), False
    for number, text in lines:
        stripped = text.strip()
        if not in_comment and (not stripped or stripped.startswith("%")):
            continue  # a blank line inside a {comment} is the comment's
        if stripped.startswith("[") and not in_comment:
            if game.text:
                yield game
                game = _Game()
            game.line = game.line or number
            _take_tag(game, stripped, number, source)
            continue
        game.line = game.line or number
        game.text.append((number, text))
        in_comment = _still_open(text, in_comment)
    if game.tags or game.text or game.error:
        yield game


def _take_tag(game: _Game, text: str, number: int, source: str) -> None:
    if game.error:
        return
    found = _TAG.fullmatch(text)
    if not found:
        game.error = RecordError(
            f'malformed PGN tag {echo(text)}: a tag is [Name "value"]', source=source, line=number
        )
        return
    name, value = found.group(1), re.sub(r"\\(.)", r"\1", found.group(2))
    if name in game.tags:
        game.error = RecordError(f"the tag [{name}] is given twice", source=source, line=number)
        return
    game.tags[name] = (value, number)


def _still_open(text: str, in_comment: bool) -> bool:
    """Whether a {comment} is still open at the end of this movetext line."""
    for ch in text:
        if in_comment:
            in_comment = ch != "}"
        elif ch == "{":
            in_comment = True
        elif ch == ";":
            break
    return in_comment


def read_lines(
    lines: Iterable[tuple[int, str]], source: str, *, max_actions: int | None = None
) -> Iterator[Record | RecordError]:
    """Every game of a PGN text (its lines, numbered) as a Record, or the RecordError of that
    game (naming the line, and the ply for a move): one bad game does not stop the others."""
    budget = [max_actions]
    for game in _split(lines, source):
        try:
            yield _read_game(game, source, budget)
        except RecordError as exc:
            yield exc
            if budget[0] is not None and budget[0] < 0:
                return
        except Exception as exc:  # a reader's slip on odd data is still that game's error
            yield RecordError(
                f"the PGN game could not be read ({type(exc).__name__})", source=source, line=game.line
            )


def _read_game(found: _Game, source: str, budget: list[int | None]) -> Record:
    if found.error:
        raise found.error
    game = _game_of(found, source)
    start = _start(game, found, source)
    actions, comments, token_result, final = _moves(game, start, found, source, budget)
    claim = _claim(found, token_result, source)
    result = settle(final, claim, fail(source, found.tags.get("Result", ("", found.line))[1]))
    tags = {
        name: value for name, (value, _) in found.tags.items() if name not in MAPPED and value not in UNKNOWN
    }
    ending: dict[str, Any] = {}
    if result is None:
        if claim is not None:
            tags["Result"] = found.tags["Result"][0] if "Result" in found.tags else token_result
        termination = found.tags.get("Termination", ("", 0))[0].strip().lower()
        ending = ending_meta(TERMINATIONS.get(termination), claim)
    headers = {
        ours: found.tags[tag][0]
        for tag, ours in HEADERS.items()
        if tag in found.tags and found.tags[tag][0] not in UNKNOWN
    }
    white, black = (found.tags.get(side, ("?", 0))[0] for side in ("White", "Black"))
    players = () if {white, black} <= UNKNOWN else ({"name": white}, {"name": black})
    return build(
        game,
        start,
        actions,
        players=players,
        result=result,
        meta={
            "pgn": tags,
            "headers": headers,
            "ending": ending,
            "clocks": seconds_meta(found.clocks.get("clk", {})),
            "times": seconds_meta(found.clocks.get("emt", {})),
            "variations": found.variations,
            **({"comments": comments_meta(comments)} if comments else {}),
        },
        source=source,
        line=found.line,
    )


def _game_of(found: _Game, source: str) -> Game:
    """The game the [Variant] tag names (pychess writes it capitalised: "Dobutsu")."""
    if "Variant" not in found.tags:
        raise RecordError(
            f"no [Variant] tag: a PGN game without one is chess; this reader takes {known('PGN')}",
            source=source,
            line=found.line,
        )
    value, number = found.tags["Variant"]
    wanted = value.strip().lower()
    for cls in games_with("PGN"):
        if wanted in (cls.PGN_VARIANT, *cls.PGN_ALIASES):
            return registry.load_game(cls.id)
    raise RecordError(
        f"[Variant {echo(value)}] is another game: this reader takes {known('PGN')}",
        source=source,
        line=number,
    )


def _start(game: Game, found: _Game, source: str) -> State:
    if "FEN" not in found.tags:
        return game.initial_state()
    text, number = found.tags["FEN"]
    try:
        return check_start(game, text)
    except RecordError as exc:
        reason = exc.reason.replace("field 'start'", f"[FEN {echo(text)}]", 1)
        raise RecordError(reason, source=source, line=number) from exc


def _claim(found: _Game, token_result: str | None, source: str) -> Claim:
    """The result the game states: its [Result] tag, else the movetext's last token."""
    if "Result" in found.tags:
        value, number = found.tags["Result"]
        if value.strip() not in RESULTS:
            raise RecordError(
                f"[Result {echo(value)}]: a result is 1-0, 0-1, 1/2-1/2 or *", source=source, line=number
            )
        return RESULTS[value.strip()]
    return RESULTS.get(token_result or "*")


def _moves(
    game: Game, start: State, found: _Game, source: str, budget: list[int | None]
) -> tuple[list[str], list[list[Any]], str | None, State]:
    """Replay the movetext: (our notations, comments as [ply, text], the result token, the
    final state). A move that is no legal move names its line and ply."""
    text = "\n".join(line for _, line in found.text)
    starts = _line_starts(found.text)

    def line_of(token: re.Match) -> int:
        return _line_at(starts, found.text, token)

    state, actions, comments, result, depth = start, [], [], None, 0
    clocks: dict[str, dict[int, float]] = {"clk": {}, "emt": {}}
    states = [start]
    lines: list[_Line] = []  # the variations open at this point, innermost last
    rest_of_line_end = None  # where the last ;comment ended, while nothing else came after it
    variations: list[dict[str, Any]] = []
    for token in _TOKEN.finditer(text):
        kind, value = token.lastgroup, token.group()
        if depth and kind in ("comment", "line_comment"):
            _comment_in(lines[-1], value[1:-1] if kind == "comment" else value[1:])
            continue
        if kind == "line_comment" and not depth:
            if rest_of_line_end is not None and text[rest_of_line_end : token.start()] == "\n":
                comments[-1][1].append(value[1:])  # the next line of a comment in ;lines
            else:
                comments.append([len(actions), [value[1:]]])
            rest_of_line_end = token.end()
            continue
        if kind != "space":
            rest_of_line_end = None
        if kind == "open":
            raise RecordError("a {comment} is not closed", source=source, line=line_of(token))
        if kind == "rav":
            depth += 1 if value == "(" else -1
            if depth < 0:
                raise RecordError("a ')' closes no variation", source=source, line=line_of(token))
            if value == "(":
                lines.append(
                    _open_line(lines[-1] if lines else None, states, variations, source, line_of(token))
                )
            else:
                _close_line(lines.pop())
            continue
        if kind in ("space", "nag", "number"):
            continue
        if depth:
            if kind == "result":
                raise RecordError(
                    f"the result {value} inside a variation", source=source, line=line_of(token)
                )
            inner = lines[-1]
            ply = inner.start + len(inner.actions)
            moved = _play(inner.states[-1], value, ply, source, line_of(token), budget)
            inner.actions.append(str(moved.last_move))
            inner.states.append(moved)
            continue
        if kind == "comment":
            body = _take_commands(value[1:-1], len(actions), clocks)
            if body is not None:
                comments.append([len(actions), [body]])  # as it stands: lines, tabs, edge spaces
            continue
        line = line_of(token)  # found for moves and errors only: comments may be many
        if result is not None:
            raise RecordError(f"{echo(value)} after the result {result}", source=source, line=line)
        if kind == "result":
            result = value
            continue
        state = _play(state, value, len(actions), source, line, budget)
        actions.append(str(state.last_move))
        states.append(state)
    if depth:
        raise RecordError("a variation '(' is not closed", source=source, line=found.text[-1][0])
    joined = [[ply, "\n".join(texts)] for ply, texts in comments]  # joined once: no quadratic +=
    found.clocks = clocks
    found.variations = variations
    return actions, [c for c in joined if c[1]], result, state


class _Line:
    """A variation being read: where it leaves (after `start` plies), its states and actions,
    its entry in meta["variations"] and the list that holds the entry, the line it stands in."""

    def __init__(self, start: int, state: State, outer: _Line | None, siblings: list[dict[str, Any]]) -> None:
        self.start, self.states, self.outer, self.siblings = start, [state], outer, siblings
        self.actions: list[str] = []
        self.comments: dict[str, list[str]] = {}
        self.variations: list[dict[str, Any]] = []
        self.entry: dict[str, Any] = {"ply": start, "actions": self.actions}
        siblings.append(self.entry)  # in the order the '(' come


def _open_line(
    outer: _Line | None, main_states: list[State], variations: list[dict[str, Any]], source: str, line: int
) -> _Line:
    """A '(': another move instead of the last one played in the line it stands in. One that
    leaves where its outer line does is that line's sibling, as the session has it."""
    states = outer.states if outer is not None else main_states
    base = outer.start if outer is not None else 0
    if len(states) < 2:
        raise RecordError("a variation '(' before any move of its line", source=source, line=line)
    start = base + len(states) - 2
    holder = outer
    while holder is not None and holder.start == start:
        holder = holder.outer
    return _Line(start, states[-2], outer, holder.variations if holder is not None else variations)


def _comment_in(line: _Line, text: str) -> None:
    """A comment inside a variation: on the position after its last move (a comment before its
    first move is the outer line's position, which has its own: not kept); clocks dropped."""
    body = _take_commands(text, 1, {"clk": {}, "emt": {}})
    if body and line.actions:
        line.comments.setdefault(str(line.start + len(line.actions)), []).append(body)


def _close_line(line: _Line) -> None:
    """A ')': the variation's comments and own variations into its entry; an empty one out."""
    if not line.actions:
        line.siblings[:] = [entry for entry in line.siblings if entry is not line.entry]
        return
    if line.comments:
        line.entry["comments"] = {ply: "\n\n".join(texts) for ply, texts in line.comments.items()}
    if line.variations:
        line.entry["variations"] = line.variations


#: a command in a comment, as chess programs embed clocks: [%clk 0:04:58], [%emt 0:00:02]
_COMMAND = re.compile(r" ?\[%(clk|emt)\s+([0-9:.]{1,20})\] ?")


def _take_commands(text: str, ply: int, clocks: dict[str, dict[int, float]]) -> str | None:
    """A comment's clock commands taken into `clocks` ([%clk]: the mover's clock after the
    move; [%emt]: the time the move took); the rest of the comment, or None if nothing is
    left of it."""
    if "[%" not in text:
        return text
    rest = text
    for found in _COMMAND.finditer(text):
        seconds = seconds_of(found.group(2))
        if seconds is None or not ply:
            continue
        clocks[found.group(1)][ply] = seconds
        rest = rest.replace(found.group(), "", 1)
    return rest or None


def _play(state: State, token: str, ply: int, source: str, line: int, budget: list[int | None]) -> State:
    if budget[0] is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise RecordError(
                "the file holds more actions than an upload may; replay fewer games", source=source, line=line
            )
    where = fail(source, line, ply)
    if state.is_terminal():
        raise where(f"PGN: the game ended ({state.outcome().reason}) but the PGN goes on with {echo(token)}")
    move = parse_san(state, token)
    if move is None:
        mover = state.game.player_names[state.side]
        raise where(f"PGN: {echo(token)} is not a legal move of the {mover.lower()} here")
    return state.apply(move)


def _line_starts(text: list[tuple[int, str]]) -> list[int]:
    starts, at = [], 0
    for _, line in text:
        starts.append(at)
        at += len(line) + 1
    return starts


def _line_at(starts: list[int], text: list[tuple[int, str]], token: re.Match) -> int:
    """The file's line number where `token` starts."""
    return text[bisect_right(starts, token.start()) - 1][0]


# --- writing --------------------------------------------------------------------------------


def dumps(record: Record) -> str:
    """One game as PGN, with pychess-variants' tags (unknown ones as "?" or "-") and Fairy-
    Stockfish's SAN. The record is replayed (RecordError if it is bad)."""
    game = record.load_game()
    if "PGN" not in info(game).formats:
        raise RecordError(f"{game.id} has no PGN form; PGN is written for {known('PGN')}")
    states = record.replay()
    return _tags(record, game, states[0]) + "\n" + _movetext(record, states) + "\n"


def _tags(record: Record, game: Game, start: State) -> str:
    extra = _extra_tags(record)
    names = [p.get("name") if isinstance(p.get("name"), str) else None for p in record.players]
    names += [None] * (2 - len(names))
    values = {
        "Event": "?",
        "Site": "?",
        "Date": "????.??.??",
        "Round": "-",
        "White": names[0] or "?",
        "Black": names[1] or "?",
        "Result": _result_text(record),
        "TimeControl": "-",
        "WhiteElo": "?",
        "BlackElo": "?",
    }
    headers = headers_of(record)
    for tag, ours in HEADERS.items():
        if ours in headers and tag not in extra:
            values[tag] = _pgn_header(ours, headers[ours])
    reason, _ = ending_of(record)
    if record.result is None and reason and "Termination" not in extra:
        word = {value: key for key, value in TERMINATIONS.items()}.get(reason)
        if word:
            values["Termination"] = word
    values.update({name: value for name, value in extra.items() if name not in MAPPED})
    values["Variant"] = game.PGN_VARIANT.capitalize()
    values["FEN"] = game.START if record.start is None else start.to_text()
    values["SetUp"] = "1"
    order = [*PYCHESS_TAGS, "Variant", "FEN", "SetUp"]
    order += [name for name in values if name not in order]
    return "".join(f'[{name} "{_escaped(values[name])}"]\n' for name in order)


def _pgn_header(key: str, value: str) -> str:
    """A header as PGN writes it: a date '2026.11.20', a CSA time limit '00:05+10' as
    TimeControl's seconds '300+10' (CSA's byoyomi written as PGN's increment)."""
    if key == "date":
        return pgn_date(value)[:10]
    if key == "time_control":
        found = re.fullmatch(r"(\d{1,3}):(\d{2})\+(\d{1,4})", value)
        if found:
            return f"{int(found.group(1)) * 3600 + int(found.group(2)) * 60}+{int(found.group(3))}"
    return value


def _extra_tags(record: Record) -> dict[str, str]:
    """The tags a record read from PGN kept in `meta["pgn"]` (well-formed names only)."""
    extra = record.meta.get("pgn") if isinstance(record.meta, dict) else None
    if not isinstance(extra, dict):
        return {}
    return {
        name: str(value)
        for name, value in extra.items()
        if isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9_]+", name)
    }


def _result_text(record: Record) -> str:
    """1-0, 0-1, 1/2-1/2 or *: the record's result, or the claim a PGN game made that our
    rules did not end (a resignation: kept in meta["pgn"]["Result"])."""
    claim = claim_of(record)
    if record.result is None:
        kept = _extra_tags(record).get("Result")
        claim = RESULTS.get(kept, None) if kept else ending_of(record)[1]
    return next(text for text, value in RESULTS.items() if value == claim)


def _escaped(value: str) -> str:
    value = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", value)
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _movetext(record: Record, states: list[State]) -> str:
    comments = comments_of(record)
    clocks = seconds_of_meta(record, "clocks")
    times = seconds_of_meta(record, "times") if not clocks else {}
    variations = variations_of(record)
    tokens = [_comment(comments[0])] if 0 in comments else []
    numbered = False  # whether the next move of the second player needs its number again
    for ply, action in enumerate(record.actions):
        state = states[ply]
        move = state.parse_move(action.notation)
        if state.side == 0 or ply == 0 or numbered:
            tokens.append(_number(state))
        tokens.append(san(state, move))
        numbered = False
        if ply + 1 in clocks or ply + 1 in times:
            which, seconds = ("clk", clocks[ply + 1]) if ply + 1 in clocks else ("emt", times[ply + 1])
            tokens.append(f"{{[%{which} {clock_text(seconds)}]}}")
            numbered = True
        if ply + 1 in comments:
            tokens.append(_comment(comments[ply + 1]))
            numbered = True
        for variation in variations:
            if variation["ply"] == ply:
                tokens += _variation_tokens(state, variation)
                numbered = True
    tokens.append(_result_text(record))
    return _wrapped(tokens)


def _number(state: State) -> str:
    return f"{state.ply // 2 + 1}{'.' if state.side == 0 else '...'}"


def _variation_tokens(state: State, variation: dict[str, Any]) -> list[str]:
    """A variation as PGN writes it after the move it replaces: ( 3. Lb3 {comment} ... ),
    with its own variations inside it after the moves they replace."""
    tokens = ["("]
    comments = variation.get("comments") if isinstance(variation.get("comments"), dict) else {}
    nested = variation.get("variations") or []
    numbered = True
    for index, notation in enumerate(variation["actions"]):
        ply = variation["ply"] + index
        try:
            move = state.parse_move(notation)
        except Exception as exc:
            raise RecordError(f"meta.variations: {echo(notation)} is not a legal move at ply {ply}") from exc
        if state.side == 0 or numbered:
            tokens.append(_number(state))
        tokens.append(san(state, move))
        numbered = False
        text = comments.get(str(ply + 1))
        if isinstance(text, str) and text:
            tokens.append(_comment(writable_comment(text)))
            numbered = True
        for inner in nested:
            if inner["ply"] == ply:
                tokens += _variation_tokens(state, inner)
                numbered = True
        state = state.apply(move)
    return [*tokens, ")"]


def _comment(text: str) -> str:
    """A comment as it stands, in braces; one that holds a '}' (a brace comment ends at the
    first, and PGN has no escape for it) or a line starting with '%' (PGN's escape line, which
    readers pass over) as rest-of-line comments, ';' before each of its lines."""
    text = writable_comment(text)
    if "}" in text or "\n%" in text:
        return "\n".join(";" + line for line in text.split("\n"))
    return "{" + text + "}"


def _wrapped(tokens: list[str]) -> str:
    """The movetext in lines of at most WIDTH characters where the tokens allow (a comment is
    never broken: its line breaks are its own); a ;comment ends its line."""
    out: list[str] = []
    line: str | None = None  # the last line so far; None before the first token
    ends_line = False  # the last token was a ;comment: the next starts a line
    for token in tokens:
        first = token.split("\n", 1)[0]
        if line is None:
            separator = ""
        elif ends_line or len(line) + 1 + len(first) > WIDTH:
            separator = "\n"
        else:
            separator = " "
        out += [separator, token]
        if "\n" in token:
            line = token.rsplit("\n", 1)[-1]
        else:
            line = f"{line} {token}" if separator == " " else token
        ends_line = token.startswith(";")
    return "".join(out)


def write(target: str | os.PathLike | IO[str], records: Iterable[Record]) -> int:
    """Write records as PGN games separated by a blank line; returns how many."""
    texts = (dumps(record) for record in records)
    if isinstance(target, (str, os.PathLike)):
        with Path(target).open("w", encoding="utf-8", newline="\n") as stream:
            return _write_all(stream, texts)
    return _write_all(target, texts)


def _write_all(stream: IO[str], texts: Iterator[str]) -> int:
    count = 0
    for text in texts:
        stream.write(("\n" if count else "") + text)
        count += 1
    return count
