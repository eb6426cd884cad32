"""Players' formats for the Yōkai games, read and written beside our JSON Lines
(docs/records.md, "Other formats"):

- `formats.pgn`: PGN as pychess-variants writes Dōbutsu shōgi (`[Variant "Dobutsu"]`) and its
  5x6 game (`[Variant "Gorogoroplus"]`), moves in Fairy-Stockfish's SAN;
- `formats.kif`: KIF as Japanese shogi programs write Dōbutsu shōgi (手合割：どうぶつしょうぎ);
- `formats.ki2`: KI2, KIF's moves without the squares they leave (▲２三ひよこ), the まで line;
- `formats.csa`: CSA 2.2, the shogi world's machine format (+2433OU, %TORYO).

What every format has a field for travels in `meta` under keys of our own (docs/records.md,
"Between the formats"): `headers`, `ending`, `times`, `clocks`, beside `comments`.

A game says which of these it is through class attributes in its own module (`PGN_VARIANT`,
`PGN_ALIASES`, `PGN_LETTERS`, `KIF_HANDICAP`, `KIF_PIECES`): nothing here names a game.
`records.read(path)` (or `data=`, `text=`) detects the format by content; the readers here take
text already split into bounded lines (`records` does the splitting, the size limits and the
decoding).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rules_kernel import registry  # the registry, not the package face: docs/architecture.md
from rules_kernel.core import Game, State
from rules_kernel.info import info

# the record model, which the formats build (one edge of the known records <-> formats circle,
# pyproject.toml's import contract: csa.py and ki2.py take these names from here)
from rules_kernel.record_model import Record, RecordedAction, RecordError, one_line
from rules_kernel.record_model import check_start as check_start  # re-exported for csa.py

#: what a claimed result is: the winner's seat, DRAW, or None (not known: `*`, 中断)
DRAW = "draw"
Claim = int | str | None


def games_with(format_name: str) -> Iterator[type[Game]]:
    """The game classes that can be written in a format ("PGN", "KIF"): their info names
    them there (`rules_kernel.info`)."""
    for game_id in registry.list_games():
        if format_name in info(game_id).formats:
            yield registry.game_class(game_id)


def known(format_name: str) -> str:
    """'dobutsu (yokai-3x4), ...' for messages: what a format's readers accept."""
    return ", ".join(f"{info(cls).formats[format_name]} ({cls.id})" for cls in games_with(format_name))


def claim_of(record: Record) -> Claim:
    """The result a record states (for a writer): a seat, DRAW, or None."""
    result = record.result
    if result is None or not result.get("finished", True):
        return None
    return DRAW if result.get("winner") is None else result["winner"]


def settle(final: State, claim: Claim, error: Callable[[str], RecordError]) -> dict[str, Any] | None:
    """The record's result: the replay's outcome, which a claimed result must not contradict
    (`error(reason)` makes the RecordError). A claim on a game our rules have not ended (a
    resignation, a lost clock) leaves the result out; the reader keeps the claim in `meta`."""
    outcome = final.outcome()
    if outcome is None:
        return None
    replayed: Claim = DRAW if outcome.winner is None else outcome.winner
    if claim is not None and claim != replayed:
        raise error(
            f"the game's result says {claim_words(claim)}, but the replay ends with "
            f"{claim_words(replayed)} ({outcome.reason})"
        )
    return outcome.to_dict()


def claim_words(claim: Claim) -> str:
    return {
        None: "no result",
        DRAW: "a draw",
        0: "a win of the first player",
        1: "a win of the second player",
    }[claim]


def build(
    game: Game,
    start: State,
    actions: list[str],
    *,
    players: Iterable[dict[str, Any]] = (),
    result: dict[str, Any] | None,
    meta: dict[str, Any],
    source: str,
    line: int | None,
) -> Record:
    """A record of a game read from a player's format (already replayed and checked)."""
    return Record(
        game.id,
        dict(game.options),
        tuple(RecordedAction(a) for a in actions),
        tuple(players),
        result,
        {key: value for key, value in meta.items() if value},
        source=source,
        line=line,
        start=None if start == game.initial_state() else start.to_text(),
    )


def comments_meta(pairs: list[list[Any]]) -> dict[str, str]:
    """[ply, text] pairs as a record's `meta["comments"]`: {"<ply>": text}, the comment after
    `ply` actions (the session's format, so a Replay shows them beside the board); two
    comments at one ply are joined by a blank line."""
    found: dict[str, list[str]] = {}
    for ply, text in pairs:
        found.setdefault(str(ply), []).append(text)
    return {key: "\n\n".join(texts) for key, texts in found.items()}  # joined once: no quadratic +=


def comments_of(record: Record) -> dict[int, str]:
    """The comments a record carries in `meta["comments"]` ({"<ply>": text}: after `ply`
    actions), by ply, each whole (a writer writes it as one comment, so nothing in it, a
    blank line included, is lost or split); anything else there is ignored."""
    found: dict[int, str] = {}
    held = record.meta.get("comments") if isinstance(record.meta, dict) else None
    for key, text in held.items() if isinstance(held, dict) else ():
        if (
            isinstance(key, str)
            and key.isascii()
            and key.isdigit()
            and len(key) <= 9
            and isinstance(text, str)
            and text
        ):
            found[int(key)] = text
    return found


#: line breaks of every convention (those str.splitlines breaks at): a comment keeps its lines
_LINE_BREAK = re.compile("\r\n|[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
#: the other characters no line of a PGN or KIF file may hold (records' line reader refuses
#: them): C0 controls but tab and line feed, DEL, C1 controls
_UNLINEABLE = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")
#: a surrogate code point in a str is an unpaired one: UTF-8 cannot hold it
_SURROGATE = re.compile("[\ud800-\udfff]")


def writable_comment(text: str) -> str:
    """A comment as a line-based format (PGN, KIF) can hold it, written in UTF-8 and read back
    through records' line reader: a line break of any other convention ('\\r\\n', '\\r',
    U+2028, form feed, ...) becomes '\\n', any other control character but tab a space, an
    unpaired surrogate U+FFFD. Everything else (tabs, edge spaces, blank lines) is kept."""
    text = _LINE_BREAK.sub("\n", text)
    return _SURROGATE.sub("\ufffd", _UNLINEABLE.sub(" ", text))


def fail(source: str, line: int | None = None, ply: int | None = None) -> Callable[[str], RecordError]:
    """A maker of RecordErrors placed at one spot."""

    def error(reason: str) -> RecordError:
        return RecordError(reason, source=source, line=line, ply=ply)

    return error


def echo(text: str) -> str:
    return one_line(repr(text), limit=60)


# --- what travels between the formats (meta keys; docs/records.md, "Between the formats") ---

#: the ways a game may end in a player's format, by a name of our own (`meta["ending"]["reason"]`),
#: and whom each makes win: the side to move (0), the other side (1), a draw, or nobody (None).
#: CSA and KIF write the ending as a move of the side to move: 投了 / %TORYO is its resignation.
ENDING_EFFECT: dict[str, int | str | None] = {
    "resign": 1,  # 投了, %TORYO, Resigns
    "abort": None,  # 中断, %CHUDAN
    "repetition": DRAW,  # 千日手, %SENNICHITE
    "impasse": DRAW,  # 持将棋, %JISHOGI
    "time-up": 1,  # 切れ負け, %TIME_UP, Time-up
    "illegal-move": 1,  # 反則負け, %ILLEGAL_MOVE: the side to move lost by an illegal move
    "illegal-win": 0,  # 反則勝ち: the side to move wins by the other side's illegal move
    "illegal-action": None,  # %+ILLEGAL_ACTION / %-ILLEGAL_ACTION: the sign names the loser
    "mate": 1,  # 詰み, %TSUMI
    "no-mate": None,  # 不詰, %FUZUMI (a mating problem without a solution)
    "declared-win": 0,  # 入玉勝ち, %KACHI
    "draw": DRAW,  # 引き分け, %HIKIWAKE
    "error": None,  # %ERROR
    "forfeit-win": 0,  # 不戦勝
    "forfeit-loss": 1,  # 不戦敗
}

#: the headers every format has a field for, by our key in `meta["headers"]`
HEADER_KEYS = ("event", "site", "date", "end_date", "round", "time_control", "opening")

#: a time in a format's text: seconds, m:ss, h:mm:ss (a fraction allowed on the seconds)
_TIME = re.compile(r"(?:(\d{1,4}):)?(?:(\d{1,4}):)?(\d{1,7}(?:\.\d{1,6})?)")


def seconds_of(text: str) -> float | None:
    """Seconds of '75', '1:15', '0:01:15' or '1:15.5'; None if it is none of them."""
    found = _TIME.fullmatch(text.strip())
    if not found:
        return None
    parts = [float(p) for p in found.groups() if p is not None]
    total = 0.0
    for part in parts:
        total = total * 60 + part
    return total


def clock_text(seconds: float, *, hours: bool = True) -> str:
    """'h:mm:ss' (or 'm:ss' when hours=False, minutes unbounded); a fraction is kept."""
    whole = int(seconds)
    fraction = seconds - whole
    tail = f"{whole % 60:02d}" + (f"{fraction:.3f}"[1:].rstrip("0").rstrip(".") if fraction else "")
    if not hours:
        return f"{whole // 60}:{tail}"
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{tail}"


def number_text(seconds: float) -> str:
    """Seconds as CSA's T writes them: an integer when whole, else with its fraction."""
    return str(int(seconds)) if seconds == int(seconds) else f"{seconds:.3f}".rstrip("0")


def seconds_meta(pairs: dict[int, float]) -> dict[str, float]:
    """{ply: seconds} as meta keeps it: {"<ply>": seconds} (ints where whole)."""
    return {str(ply): (int(s) if s == int(s) else s) for ply, s in sorted(pairs.items())}


def seconds_of_meta(record: Record, key: str) -> dict[int, float]:
    """`meta[key]` ("times": the seconds the move that made ply p took; "clocks": the seconds
    left on the mover's clock after it) by ply; anything malformed there is passed over."""
    held = record.meta.get(key) if isinstance(record.meta, dict) else None
    found: dict[int, float] = {}
    for ply, value in held.items() if isinstance(held, dict) else ():
        if (
            isinstance(ply, str)
            and ply.isascii()
            and ply.isdigit()
            and len(ply) <= 9
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
            and 0 <= value < 10**9
        ):
            found[int(ply)] = float(value)
    return found


def spent_times(record: Record) -> dict[int, float]:
    """The seconds each move took: `meta["times"]`, else worked out from `meta["clocks"]`
    (the mover's clock before minus after; the first two moves from the time control's base
    when it is 'base+increment' in seconds, with the increment added back)."""
    times = seconds_of_meta(record, "times")
    if times:
        return times
    clocks = seconds_of_meta(record, "clocks")
    if not clocks:
        return {}
    control = headers_of(record).get("time_control", "")
    found = re.fullmatch(r"(\d{1,7})(?:\+(\d{1,5}))?", control)
    base = float(found.group(1)) if found else None
    increment = float(found.group(2) or 0) if found else 0.0
    spent: dict[int, float] = {}
    for ply, left in clocks.items():
        before = clocks.get(ply - 2, base if ply <= 2 else None)
        if before is not None and before + increment - left >= 0:
            spent[ply] = round(before + increment - left, 3)
    return spent


def headers_of(record: Record) -> dict[str, str]:
    """`meta["headers"]` (the headers every format has a field for: HEADER_KEYS), well-formed
    entries only."""
    held = record.meta.get("headers") if isinstance(record.meta, dict) else None
    return {
        key: value
        for key, value in (held.items() if isinstance(held, dict) else ())
        if key in HEADER_KEYS and isinstance(value, str) and value
    }


def ending_of(record: Record) -> tuple[str | None, Claim]:
    """(the ending's name or None, the claimed result) a writer writes: the record's result
    when the rules ended the game (its ending: `meta["ending"]["reason"]` if it agrees, else
    none: the rules' end is the moves themselves), else the claim kept in `meta["ending"]`."""
    held = record.meta.get("ending") if isinstance(record.meta, dict) else None
    reason = held.get("reason") if isinstance(held, dict) else None
    reason = reason if reason in ENDING_EFFECT else None
    kept: Claim = None
    if isinstance(held, dict):
        winner = held.get("winner")
        kept = winner if winner in (0, 1, DRAW) else None
    if record.result is not None and record.result.get("finished", True):
        claim = claim_of(record)
        return (reason if kept == claim else None), claim
    return reason, kept


def ending_meta(reason: str | None, claim: Claim) -> dict[str, Any]:
    """`meta["ending"]`: {"reason": one of ENDING_EFFECT, "winner": 0, 1 or "draw"} (each
    only when known)."""
    found: dict[str, Any] = {}
    if reason:
        found["reason"] = reason
    if claim is not None:
        found["winner"] = claim
    return found


def winner_of_ending(reason: str, mover: int) -> Claim:
    """The result an ending written as a move of `mover` claims."""
    effect = ENDING_EFFECT[reason]
    if effect in (0, 1):
        return (mover + effect) % 2
    return effect


def pgn_date(text: str) -> str:
    """A date as PGN writes it ('2026.11.20') from KIF's or CSA's '2026/11/20 10:00:00'."""
    found = re.match(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text)
    return f"{found.group(1)}.{int(found.group(2)):02d}.{int(found.group(3)):02d}" if found else text


def slash_date(text: str) -> str:
    """A date as KIF and CSA write it ('2026/11/20', a time kept) from PGN's '2026.11.20'."""
    found = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})(.*)", text)
    return f"{found.group(1)}/{found.group(2)}/{found.group(3)}{found.group(4)}" if found else text


#: the encodings a Japanese record file comes in, tried in this order after a BOM and the
#: file's own encoding line
ENCODINGS = ("utf-8", "cp932", "euc-jp")
_ENCODING_NAMES = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "cp932": "cp932",
    "windows-31j": "cp932",
    "euc-jp": "euc-jp",
    "eucjp": "euc-jp",
}
#: `#KIF version=2.0 encoding=UTF-8` (KIF), `'CSA encoding=UTF-8` (CSA 3.0, read in 2.2 files too)
_HALF_WIDTH_KANA = re.compile("[\uff61-\uff9f]")
_ENCODING_LINE = re.compile(
    rb"^(?:\xef\xbb\xbf)?(?:#KIF|#KI2|'CSA)[^\n]*?encoding=([A-Za-z0-9_-]{1,20})", re.M
)


def decode(data: bytes, kind: str, source: str) -> tuple[str, str]:
    """(text, encoding name) of a record file's bytes: a UTF-8 BOM, else the encoding line
    (`#KIF ... encoding=`, `'CSA encoding=`), else UTF-8, Shift_JIS (cp932), EUC-JP tried in
    turn. RecordError naming the format and the encodings tried if none reads it."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8"
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"the {kind} file starts with a UTF-8 mark but is not UTF-8 (byte {exc.start})", source=source
            ) from exc
    said = _ENCODING_LINE.search(data[:4096])
    if said:
        name = said.group(1).decode("ascii").lower()
        if name not in _ENCODING_NAMES:
            raise RecordError(
                f"the {kind} file says encoding={echo(name)}; this reader takes UTF-8, Shift_JIS, EUC-JP",
                source=source,
                line=data[: said.start()].count(b"\n") + 1,
            )
        encoding = _ENCODING_NAMES[name]
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise RecordError(
                f"the {kind} file says encoding={name} but line {line} is not {encoding}",
                source=source,
                line=line,
            ) from exc
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # EUC-JP bytes often decode as cp932 too (as half-width katakana, which no record writer
    # writes): of those that decode, the one with the fewest of them
    readings = []
    for encoding in ENCODINGS[1:]:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        readings.append((len(_HALF_WIDTH_KANA.findall(text)), ENCODINGS.index(encoding), text, encoding))
    if readings:
        _, _, text, encoding = min(readings)
        return text, encoding
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
    raise RecordError(
        f"the {kind} file is not text in UTF-8, Shift_JIS (cp932) or EUC-JP (line {line} is none of them)",
        source=source,
        line=line,
    )


def encoded(kind: str, text: str, suffix: str = "") -> bytes:
    """A KIF, KI2 or CSA file's bytes as the format's descriptions have them: Shift_JIS
    (cp932) with CRLF line ends for .kif, .ki2 and .csa, with KIF's `#KIF version=2.0
    encoding=Shift_JIS` line first; UTF-8 for .kifu and .ki2u (Kakinoki's 'u' suffixes), KIF
    with `#KIF version=2.0 encoding=UTF-8`. A text Shift_JIS cannot hold (a name in another
    script) is written as UTF-8 with the encoding line (CSA: `'CSA encoding=UTF-8`)."""
    line = {"kif": "#KIF version=2.0 encoding={}\n", "csa": "'CSA encoding={}\n"}.get(kind, "")
    if suffix.lower() not in (".kifu", ".ki2u"):
        try:
            shift_jis = (line.format("Shift_JIS") if kind == "kif" else "") + text
            return shift_jis.replace("\n", "\r\n").encode("cp932")
        except UnicodeEncodeError:
            pass  # written as UTF-8, saying so
    if kind == "ki2" and suffix.lower() != ".ki2u":
        return ("\ufeff" + text).encode("utf-8")  # KI2 has no encoding line: a BOM says it
    return (line.format("UTF-8") + text).encode("utf-8")


def variations_of(record: Record) -> list[dict[str, Any]]:
    """`meta["variations"]` (the session's tree), checked for its shape: RecordError naming
    the field if it is not a list of {"ply": int, "actions": [str, ...], ...}."""
    held = record.meta.get("variations") if isinstance(record.meta, dict) else None
    if held is None:
        return []
    _check_lines(held, "meta.variations")
    return held


def _check_lines(lines: Any, field: str) -> None:
    if not isinstance(lines, list):
        raise RecordError(f"{field} is not a list of lines")
    for at, line in enumerate(lines):
        where = f"{field}[{at}]"
        if (
            not isinstance(line, dict)
            or not isinstance(line.get("ply"), int)
            or isinstance(line.get("ply"), bool)
            or not isinstance(line.get("actions"), list)
            or not line["actions"]
            or not all(isinstance(a, str) for a in line["actions"])
        ):
            raise RecordError(f"{where} is not a line {{'ply': n, 'actions': [...]}} of this game's moves")
        if "variations" in line:
            _check_lines(line["variations"], f"{where}.variations")
