"""Players' formats for the Yōkai games, read and written beside our JSON Lines
(docs/records.md, "Other formats"):

- `formats.pgn`: PGN as pychess-variants writes Dōbutsu shōgi (`[Variant "Dobutsu"]`) and its
  5x6 game (`[Variant "Gorogoroplus"]`), moves in Fairy-Stockfish's SAN;
- `formats.kif`: KIF as Japanese shogi programs write Dōbutsu shōgi (手合割：どうぶつしょうぎ).

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
from rules_kernel.records import Record, RecordedAction, RecordError, one_line

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
