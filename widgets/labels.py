"""Names that fit their pieces: how large a name can be, where it breaks, when a short form
stands instead — measured, not guessed from a count of letters.

A label is fitted into a shape (a piece's pentagon, a coin's circle, a card's face, a zone
item's square) around keep-out places (a stack's count, a control flag, a piece's step dots):
every line's box — its measured width by the advance widths of DejaVu Sans Bold (the widest of
the usual sans-serif faces, which Debian's browsers draw with) and the font's ascent and
descent — lies inside the shape. The ways, best first:

1. the whole name on one line, 13 px down to `MIN_TEXT` (11 px, never smaller);
2. the name broken where its game says (`Game.NAME_BREAKS`: "Koro-" / "pokkuru") or at its
   spaces, never inside a word at an arbitrary letter;
3. the name's one short form (`short_name`), the same in every place it stands: the declared
   break's first part ("Koro."), else its long words cut to four letters and a full stop
   ("Warr. Prie.", "Light Cava."), on one line or two;
4. only where not even that fits, the token's own mark (`symbol`: "Kn", "LC"), cut to what
   fits if need be.

The full name is always in the tooltip and the screen-reader label (`draw.describe_token`,
`svg.hit_layer`). Shapes are given relative to the label's centre, so one fit serves every
token of the same name and shape (`fit` is cached).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from rules_kernel import NAME_BREAKS

MIN_TEXT = 11  # no text on a board is smaller (at the drawing's own size)
MAX_LABEL = 13.0  # a name is never larger than this on a token
COMFORTABLE = 12.0  # a way of writing a name that reaches this size is taken at once
ASCENT, DESCENT = 0.928, 0.236  # DejaVu Sans (hhea), in em: a text's box around its baseline
LINE_PITCH = 1.1  # baseline to baseline, in em

# advance widths of DejaVu Sans Bold in em, grouped by width (from the font's hmtx table)
_WIDTH_GROUPS = {
    0.306: "'",
    0.343: "ijlíìï",
    0.348: " ",
    0.365: "/\\|",
    0.372: "IJ",
    0.38: ",.",
    0.4: ":;",
    0.415: "-",
    0.435: "f",
    0.456: "!",
    0.457: "()[]",
    0.478: "t",
    0.493: "r",
    0.5: "_`–",
    0.502: "▾",
    0.521: '"',
    0.523: "*",
    0.58: "?",
    0.582: "z",
    0.593: "cç",
    0.595: "s",
    0.637: "L",
    0.645: "x",
    0.652: "vy",
    0.665: "k",
    0.675: "aāäáàâ",
    0.678: "eéèêë",
    0.682: "T",
    0.683: "EF",
    0.687: "oöōóòô",
    0.696: "$0123456789",
    0.712: "hnu{}üūúùû",
    0.716: "bdgpq",
    0.719: "ß",
    0.72: "S",
    0.724: "Y",
    0.725: "Z",
    0.733: "P",
    0.734: "C",
    0.762: "B",
    0.77: "R",
    0.771: "X",
    0.774: "AVÄ",
    0.775: "K",
    0.812: "UÜ",
    0.821: "G",
    0.83: "D",
    0.837: "HN",
    0.838: "#+<=>^~×",
    0.85: "OQÖŌ",
    0.872: "&",
    0.896: "♛⚑",
    0.924: "w",
    0.995: "M",
    1.0: "@…",
    1.002: "%",
    1.042: "m",
    1.103: "W",
}
WIDTHS = {c: w for w, chars in _WIDTH_GROUPS.items() for c in chars}
UNKNOWN_WIDTH = 1.0  # a character not in the table: as wide as an em (on the safe side)


def text_width(text: str, size: float) -> float:
    """The width of `text` in bold sans-serif at `size` px (a slight overestimate elsewhere)."""
    return sum(WIDTHS.get(c, UNKNOWN_WIDTH) for c in text) * size


# --- shapes, relative to the label's centre ------------------------------------------------


class Shape(NamedTuple):
    """Where a label may go: inside `outline` (a convex polygon's points, or a circle's radius
    as a 1-tuple), `pad` pixels clear of its edge, and clear of each `avoid` circle
    (x, y, r) and rectangle (x0, y0, x1, y1). Coordinates relative to the label's centre."""

    outline: tuple
    pad: float = 1.5
    avoid: tuple = ()

    def holds(self, box: tuple[float, float, float, float]) -> bool:
        x0, y0, x1, y1 = box
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        if len(self.outline) == 1:
            (r,) = self.outline
            if any(x * x + y * y > (r - self.pad) ** 2 for x, y in corners):
                return False
        else:
            if not all(_inside(self.outline, x, y, self.pad) for x, y in corners):
                return False
        for shape in self.avoid:
            if len(shape) == 3:
                ax, ay, ar = shape
                nx, ny = min(max(ax, x0), x1), min(max(ay, y0), y1)
                if (nx - ax) ** 2 + (ny - ay) ** 2 < (ar + 1) ** 2:
                    return False
            elif not (x1 <= shape[0] or x0 >= shape[2] or y1 <= shape[1] or y0 >= shape[3]):
                return False
        return True

    def extent(self) -> float:
        if len(self.outline) == 1:
            return self.outline[0]
        return max(abs(y) for _, y in self.outline)


def _inside(points, x: float, y: float, pad: float) -> bool:
    """Is (x, y) inside the convex polygon, at least `pad` from every edge?"""
    n = len(points)
    area = sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)
    )
    sign = 1 if area > 0 else -1
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1
        if sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length < pad:
            return False
    return True


def rect_shape(w: float, h: float, pad: float = 1.5, avoid: tuple = ()) -> Shape:
    return Shape(((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)), pad, avoid)


# --- a fitted label ----------------------------------------------------------------------------


class Label(NamedTuple):
    """Lines at `size` px, centred on x = 0, their baselines at `baselines` (relative to the
    shape's centre); `short`: a short form stands for the name."""

    lines: tuple[str, ...]
    size: float
    baselines: tuple[float, ...]
    short: bool = False

    def boxes(self, cx: float = 0, cy: float = 0) -> list[tuple[float, float, float, float]]:
        """Each line's box (x0, y0, x1, y1) as the browser measures text, at centre (cx, cy)."""
        out = []
        for line, base in zip(self.lines, self.baselines, strict=True):
            half = text_width(line, self.size) / 2
            out.append(
                (cx - half, cy + base - ASCENT * self.size, cx + half, cy + base + DESCENT * self.size)
            )
        return out


def _place(lines: tuple[str, ...], size: float, shape: Shape) -> Label | None:
    """The lines at `size` in `shape`: centred if they fit there, else moved up or down a
    little; None if they fit nowhere."""
    block = (len(lines) - 1) * LINE_PITCH * size + (ASCENT + DESCENT) * size
    step = max(1.0, shape.extent() / 12)
    for k in (0, 1, -1, 2, -2, 3, -3, 4, -4):
        first = k * step - block / 2 + ASCENT * size
        label = Label(lines, size, tuple(first + i * LINE_PITCH * size for i in range(len(lines))))
        if all(shape.holds(box) for box in label.boxes()):
            return label
    return None


def _largest(lines: tuple[str, ...], shape: Shape, top: float) -> Label | None:
    size = top
    while size >= MIN_TEXT:
        label = _place(lines, size, shape)
        if label is not None:
            return label
        size -= 0.5
    return None


def _whole_ways(name: str, breaks: tuple[str, ...]) -> list[tuple[str, ...]]:
    words = name.split()
    ways = [(name,)]
    if breaks:
        ways.append(breaks)
    if len(words) > 1:
        ways.append((words[0], " ".join(words[1:])))
        if len(words) > 2:
            ways.append((" ".join(words[:-1]), words[-1]))
        if len(words) == 3:
            ways.append(tuple(words))
    return list(dict.fromkeys(ways))


#: a word longer than this is cut in a short name ("Cavalry" -> "Cava."), shorter ones stay
SHORT_WORD = 5


def short_name(name: str) -> str:
    """A name's one short form, the same wherever the whole name does not fit (the hand, the
    supply, the map): its game's declared break's first part ("Koropokkuru" -> "Koro."), else
    every word of letters longer than SHORT_WORD cut to four letters and a full stop ("Warrior
    Priest" -> "Warr. Prie.", "Light Cavalry" -> "Light Cava."); the name itself when no word
    is that long."""
    breaks = NAME_BREAKS.get(name, ())
    if breaks and breaks[0].rstrip("-").isalpha():
        return breaks[0].rstrip("-") + "."
    words = name.split()
    return " ".join(w[:4] + "." if w.isalpha() and len(w) > SHORT_WORD else w for w in words)


def _short_ways(name: str) -> list[tuple[str, ...]]:
    """The one short name on a line, or broken at its spaces."""
    short = short_name(name)
    if short == name:
        return []
    words = short.split()
    ways = [(short,)]
    if len(words) > 1:
        ways.append((words[0], " ".join(words[1:])))
    return ways


def fit(name: str, symbol: str, shape: Shape, top: float = MAX_LABEL) -> Label:
    """`name` as large as it fits `shape`, whole if it can (one line, or broken where its game
    says or at spaces), else a short form, else the token's `symbol`; never under MIN_TEXT.
    (If not even the symbol's first letter fits, that letter at MIN_TEXT: a test catches it.)"""
    return _fit(name, tuple(NAME_BREAKS.get(name, ())), symbol, shape, top)


@lru_cache(maxsize=4096)
def _fit(name: str, breaks: tuple[str, ...], symbol: str, shape: Shape, top: float) -> Label:
    best: Label | None = None
    for lines in _whole_ways(name, breaks):
        label = _largest(lines, shape, top)
        if label is None:
            continue
        if label.size >= COMFORTABLE:
            return label
        if best is None or label.size > best.size:
            best = label
    if best is not None:
        return best
    for lines in _short_ways(name):
        label = _largest(lines, shape, top)
        if label is not None:
            return label._replace(short=True)
    mark = symbol or name
    for n in range(len(mark), 0, -1):
        label = _largest((mark[:n],), shape, top)
        if label is not None:
            return label._replace(short=True)
    return Label((mark[:1],), MIN_TEXT, ((ASCENT - DESCENT) * MIN_TEXT / 2,), short=True)
