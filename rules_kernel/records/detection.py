"""A record file's format told from its first bytes (`detect`): JSON Lines, the one-game
text form, PGN, KIF, KI2 or CSA. Used by the readers on content they are given; never on a name alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from rules_kernel.records.lines import _open_regular_file

#: how much of a file the format is told from
_HEAD_BYTES = 64 * 1024
_FORMAT_SUFFIXES = {
    ".pgn": "pgn",
    ".kif": "kif",
    ".kifu": "kif",
    ".ki2": "ki2",
    ".ki2u": "ki2",
    ".csa": "csa",
}
#: lines only a KIF file has (its header keys, the move list's heading, a board diagram)
_KIF_MARKS = (
    "手合割",
    "手数----",
    "先手：",
    "後手：",
    "下手：",
    "上手：",
    "開始日時：",
    "先手の持駒",
    "後手の持駒",
)
_KIF_MOVE = re.compile(r"\s*1\s+[１２３４５６７８９][一二三四五六七八九]")
_PGN_START = re.compile(r'\[[A-Za-z0-9_]+\s+"|1\.')
#: a CSA file's first statement: its version, a name, a header, a start, a move
_CSA_START = re.compile(r"V[1-3](\.[0-9])?$|N[+-]|\$[A-Z_]+:|PI|P[1-9+-]|[+-]$|[+-][0-9]{4}[A-Z]{2}")
#: a KI2 move: ▲ or △ (☗ ☖), a square or 同, a piece; KI2 has no move numbers
_KI2_MOVE = re.compile(r"[▲△☗☖](?:[１-９1-9][一二三四五六七八九]|同)")
_HALF_WIDTH_KANA = re.compile("[\uff61-\uff9f]")
_TEXT_HEADER = re.compile(r"(game|options|start)\s*:", re.IGNORECASE)

Format = Literal["jsonl", "text", "pgn", "kif", "ki2", "csa"]


def detect(head: bytes | str, filename: str = "") -> Format:
    """The format of a record file from its first bytes: JSON Lines (a line starting with
    '{'), PGN (a tag '[Name "' or '1.'), CSA (its first statement 'V2.2', 'N+', '$EVENT:',
    'PI', 'P1', '+2324HI'), KI2 (moves like '▲２三ひよこ' and no KIF move list), KIF (手合割,
    先手：, a move line like '1 ２二ひよこ'), else the one-game text form; a .pgn/.kif/.kifu/
    .ki2/.csa name decides only where the content does not (a PGN of bare moves)."""
    text = head if isinstance(head, str) else _head_text(head)
    for line in text.split("\n"):
        body = line.strip().lstrip("\ufeff")
        if not body or body[0] in "#%*&'":
            continue
        if body.startswith("{"):
            return "jsonl"
        if _PGN_START.match(body):
            return "pgn"
        if _TEXT_HEADER.match(body):
            return "text"
        if _CSA_START.match(body):
            return "csa"
        break
    if "手数" not in text and any(_KI2_MOVE.search(line) for line in text.split("\n")):
        return "ki2"
    if any(mark in text for mark in _KIF_MARKS) or any(_KIF_MOVE.match(line) for line in text.split("\n")):
        return "kif"
    return _FORMAT_SUFFIXES.get(Path(filename).suffix.lower(), "text")


def _head_text(head: bytes) -> str:
    """The first bytes as text: UTF-8 (a character cut at the end is dropped), else the
    Shift_JIS or EUC-JP that KIF, KI2 and CSA files are often saved in (the one that reads
    with the fewest half-width katakana, which EUC-JP bytes become in Shift_JIS)."""
    try:
        return head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(head) - 3:
            return head[: exc.start].decode("utf-8", errors="replace")
    readings = []
    for encoding in ("cp932", "euc-jp"):
        text = head.decode(encoding, errors="replace")
        readings.append((text.count("\ufffd") * 4 + len(_HALF_WIDTH_KANA.findall(text)), text))
    return min(readings, key=lambda reading: reading[0])[1]


def _detect_file(path: Path, label: str) -> Format:
    with _open_regular_file(path, label) as stream:
        return detect(stream.read(_HEAD_BYTES), str(path))
