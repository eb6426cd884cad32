"""The page tour's rules and its hands (tests/test_page_tour.py, issue #46 item 7).

Each rule is a small pure function over what a page shows — its visible text, its accessible
names, its labels, the boxes of a board's texts and markers, its move lists — and returns the
`Violation`s it finds. `COLLECT` reads all of that from a page in Chromium in one call;
`seen_from` turns it into a `Seen`; `check` runs every rule over it. The hands below play a
short game on a page's board by clicking cells, as a player would (tests/test_browser.py's
helpers choose the game and click; these find what to click).
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from browser_support import SIGNATURE, settle
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import rules_kernel as rk


@dataclass(frozen=True, order=True)
class Violation:
    """A rule broken on a page: `text` is the exact offending text (a match, a label, a phrase)."""

    page: str
    rule: str
    text: str


@dataclass
class Seen:
    """What one page shows, as `COLLECT` reads it."""

    text: str = ""  # document.body.innerText
    names: list[str] = field(default_factory=list)  # aria-label, title, alt (rendered), SVG <title>
    labels: list[str] = field(default_factory=list)  # zone headings, buttons, captions, links...
    boards: list[dict] = field(default_factory=list)  # {"texts": [[text, x, y, w, h]], "markers": [...]}
    lists: list[list[int]] = field(default_factory=list)  # each move list's turn numbers, in order
    captions: list[str] = field(default_factory=list)  # each statistics table's and figure's caption


# --- the words a page must not use ------------------------------------------------------------


def kebab_ids() -> tuple[str, ...]:
    """Every game id and every id among the games' option values that is written in kebab case
    (yokai-3x4, light-cavalry, warrior-priest, far-eastern, first-game), from the kernel's own
    registry and option declarations, so a new game or unit is covered without a line here."""
    ids = set(rk.list_games())
    for game_id in rk.list_games():
        for option in rk.load_game(game_id).OPTIONS.values():
            ids.update(str(v) for v in (*(option.items or ()), *(option.words or ())))
    return tuple(sorted((i for i in ids if "-" in i), key=len, reverse=True))


def _war_chest_unit_ids() -> tuple[str, ...]:
    return tuple(rk.load_game("war-chest").OPTIONS["setup"].items) + ("royal",)


#: the kernel's move notation (rules_kernel's `str(move)`): chance prefixes (deal:, draw:,
#: flip:), drops (C@c1, BED@b2), square pairs (b1c2, a3a4, b3b2+), War Chest's places (3,2 and
#: (1,3)) and its actions (deploy scout 6,1, pass pikeman)
NOTATION = [
    re.compile(r"(?<![\w-])(?:flip|draw|deal):\S*"),
    re.compile(r"(?<![\w@])[A-Z][A-Za-z]{0,2}@[a-i]\d{1,2}\b"),
    re.compile(r"(?<![\w-])[a-i][1-9][a-i][1-9]\+?(?![\w])"),
    re.compile(r"(?<![\w.,])\(\d,\d\)|(?<![\w.,(])\d,\d(?![\w,])"),
    re.compile(
        r"\b(?:deploy|bolster|recruit|pass|initiative|move|control|attack|tactic) (?:"
        + "|".join(re.escape(u) for u in sorted(_war_chest_unit_ids(), key=len, reverse=True))
        + r")\b"
    ),
]
ID = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(i) for i in kebab_ids()) + r")(?![\w-])")
#: Python on a page: reprs, calls, tracebacks, module paths, a bare None / null as a name
PYTHON = [
    re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>?"),
    re.compile(r"\b[A-Z]\w*\((?=[a-z_]\w*=|['\"])"),  # Move(cells=..., Text('...
    re.compile(r"\bMove\("),
    re.compile(r"Traceback \(most recent call last\)"),
    re.compile(r"There was an error when executing cell \[\d+\]"),  # Voilà's, for a cell that raised
    re.compile(r"\b[A-Z]\w*(?:Error|Exception): "),
    re.compile(r"\b[a-z_]\w*\.[a-z_]\w*\((?=[^)]*\))"),  # replay.jump(10), records.read_records(...)
    re.compile(r"\b(?:rules_kernel|widgets|publish)\.[a-z_]+\b|\brules_kernel\b"),
    re.compile(r"\bdtype: \w+"),  # a pandas Series printed
    re.compile(r"^[ \t]*(?:True|False|None)[ \t]*$", re.M),  # a cell's value printed alone
]
NAME_REPR = re.compile(r"\s*(?:None|null|undefined|NaN|True|False)\s*")
COMMAND = [
    re.compile(r"\bpython3? -m\b[ \w.-]*"),
    re.compile(r"(?<![\w/])\./run\b[ \w-]*"),
    re.compile(r"\bpip install\b"),
    re.compile(r"\brules-explorer (?:solve|simulate|check|ladder|draw|stats|make-data)\b"),
]
PATH = [
    re.compile(
        r"(?<![\w/.-])(?:docs|data|rules|notebooks|tests|widgets|publish|rules_kernel|benchmarks)/[\w./-]*"
    ),
    re.compile(r"(?<![\w/])[\w-]+(?:/[\w.-]+)*\.(?:py|md|ipynb|jsonl|txt|toml|csv|parquet)\b"),
]
#: a label cut short: a word ends in "…" (maybe before a closing bracket) and the label ends there
CUT = re.compile(r"\w…[)\]]?\s*$")
LOOKING_BACK = re.compile(r"\b(?:move|turn|ply|action) (\d+) of (\d+)\b")
#: a number that is not one: pandas' missing value printed, a share of it
NOT_A_NUMBER = re.compile(r"\bNaN\b|\bnan%")
#: how many games a statistics caption speaks of ("n = 10,000")
CAPTION_N = re.compile(r"\bn\s*=\s*[\d,]+")


def _matches(rule: str, page: str, patterns: Iterable[re.Pattern], strings: Iterable[str]) -> list[Violation]:
    return [
        Violation(page, rule, m.group(0).strip())
        for s in strings
        for pattern in patterns
        for m in pattern.finditer(s)
    ]


def notation(page: str, seen: Seen) -> list[Violation]:
    """No move notation of the kernel in the visible text or an accessible name."""
    return _matches("notation", page, NOTATION, [seen.text, *seen.names])


def ids(page: str, seen: Seen) -> list[Violation]:
    """No game, army or unit id in kebab case: a reader sees names (War Chest, Light Cavalry)."""
    return _matches("id", page, [ID], [seen.text, *seen.names])


def python(page: str, seen: Seen) -> list[Violation]:
    """No Python: reprs, calls, tracebacks, module names; no name that is a bare None/null."""
    found = _matches("python", page, PYTHON, [seen.text, *seen.names])
    return found + [Violation(page, "python", n) for n in seen.names if NAME_REPR.fullmatch(n)]


def commands(page: str, seen: Seen) -> list[Violation]:
    """No shell command (python -m, ./run, pip install, rules-explorer's commands)."""
    return _matches("command", page, COMMAND, [seen.text, *seen.names])


def paths(page: str, seen: Seen) -> list[Violation]:
    """No file path, no folder of the project (docs/, data/, rules/)."""
    return _matches("path", page, PATH, [seen.text, *seen.names])


def cut_labels(page: str, seen: Seen) -> list[Violation]:
    """No zone heading or label cut with "…" (names wrap, or the zone says how many)."""
    return [Violation(page, "cut", label.strip()) for label in seen.labels if CUT.search(label)]


def turn_count(page: str, seen: Seen) -> list[Violation]:
    """One numbering: each move list counts 1, 2, 3... once each, and a "move N of M" on the
    page speaks of the same count (M is a list's last number, N one of its numbers)."""
    found = []
    for numbers in seen.lists:
        for before, after in zip(numbers, numbers[1:], strict=False):
            if after != before + 1:
                found.append(Violation(page, "turn count", f"{before}. then {after}."))
    ends = {numbers[-1] for numbers in seen.lists if numbers}
    for m in LOOKING_BACK.finditer(seen.text):
        n, of = int(m.group(1)), int(m.group(2))
        if of not in ends or n > of:
            last = ", ".join(f"{e}." for e in sorted(ends)) or "no number"
            found.append(Violation(page, "turn count", f"{m.group(0)} (the list ends at {last})"))
    return found


def numbers(page: str, seen: Seen) -> list[Violation]:
    """No "NaN" shown for a number; every statistics table and figure says how many games it
    counts in its caption ("n = 10,000"): a share without its n cannot be weighed."""
    found = [Violation(page, "numbers", m.group(0)) for m in NOT_A_NUMBER.finditer(seen.text)]
    return found + [
        Violation(page, "numbers", f"no n in the caption {caption.strip()[:60]!r}")
        for caption in seen.captions
        if not CAPTION_N.search(caption)
    ]


# --- markers over texts: geometry on the page's pixels -----------------------------------------

#: how deep (px) a marker must reach into a text's box to count: a graze at the box's edge is
#: the box's empty line space, not the letters
OVERLAP_PX = 1.5


def _shrunk(box: tuple[float, float, float, float], by: float) -> tuple[float, float, float, float]:
    x, y, w, h = box
    return x + by, y + by, max(0.0, w - 2 * by), max(0.0, h - 2 * by)


def _point_to_box(px: float, py: float, box) -> float:
    x, y, w, h = box
    dx = max(x - px, 0.0, px - (x + w))
    dy = max(y - py, 0.0, py - (y + h))
    return math.hypot(dx, dy)


def _point_to_segment(px, py, x1, y1, x2, y2) -> float:
    vx, vy = x2 - x1, y2 - y1
    length2 = vx * vx + vy * vy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - x1) * vx + (py - y1) * vy) / length2))
    return math.hypot(px - (x1 + t * vx), py - (y1 + t * vy))


def _corners(box) -> list[tuple[float, float]]:
    x, y, w, h = box
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


def _segments_cross(a, b, c, d) -> bool:
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _segment_to_box(x1, y1, x2, y2, box) -> float:
    if _point_to_box(x1, y1, box) == 0 or _point_to_box(x2, y2, box) == 0:
        return 0.0
    corners = _corners(box)
    edges = list(zip(corners, corners[1:] + corners[:1], strict=True))
    if any(_segments_cross((x1, y1), (x2, y2), c, d) for c, d in edges):
        return 0.0
    return min(
        [_point_to_segment(cx, cy, x1, y1, x2, y2) for cx, cy in corners]
        + [_point_to_box(x1, y1, box), _point_to_box(x2, y2, box)]
    )


def _polygon_meets_box(points: list[tuple[float, float]], box) -> bool:
    """Separating axes: a convex polygon (an arrowhead, a rectangle) and a box meet."""
    corners = _corners(box)
    axes = [(1.0, 0.0), (0.0, 1.0)]
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True):
        axes.append((ay - by, bx - ax))
    for nx, ny in axes:
        a = [x * nx + y * ny for x, y in points]
        b = [x * nx + y * ny for x, y in corners]
        if max(a) <= min(b) or max(b) <= min(a):
            return False
    return True


def marker_covers(marker: dict, box: tuple[float, float, float, float]) -> bool:
    """Does `marker` ({"kind": "circle", "cx", "cy", "r"} | {"kind": "line", "x1", "y1", "x2",
    "y2", "w"} | {"kind": "polygon", "points"}) reach more than OVERLAP_PX into `box` (x, y, w, h)?"""
    inner = _shrunk(box, OVERLAP_PX)
    if inner[2] <= 0 or inner[3] <= 0:
        return False
    kind = marker["kind"]
    if kind == "circle":
        return _point_to_box(marker["cx"], marker["cy"], inner) < marker["r"]
    if kind == "line":
        return (
            _segment_to_box(marker["x1"], marker["y1"], marker["x2"], marker["y2"], inner) < marker["w"] / 2
        )
    if kind == "polygon":
        return _polygon_meets_box([tuple(p) for p in marker["points"]], inner)
    raise ValueError(f"unknown marker kind {kind!r}")


def markers_over_text(page: str, seen: Seen) -> list[Violation]:
    """No move dot, arrow or disc of a board's highlight layer drawn over a text of its scene
    (a name, a value, a zone heading): "Kod●ama" is unreadable."""
    found = []
    for board in seen.boards:
        for text, *box in board["texts"]:
            covering = [m for m in board["markers"] if marker_covers(m, tuple(box))]
            if covering:
                found.append(Violation(page, "marker over text", f"{covering[0]['kind']} over {text!r}"))
    return found


RULES: list[Callable[[str, Seen], list[Violation]]] = [
    notation,
    ids,
    python,
    commands,
    paths,
    cut_labels,
    markers_over_text,
    turn_count,
    numbers,
]


def check(page: str, seen: Seen) -> set[Violation]:
    """Every rule over what `page` shows."""
    return {v for rule in RULES for v in rule(page, seen)}


# --- reading a page ---------------------------------------------------------------------------

#: everything the rules read, from the page in one call: the visible text, every accessible
#: name, the labels (board texts, buttons, options, headings, captions, links), each board's
#: scene texts and highlight markers in page pixels, each move list's turn numbers, the
#: statistics tables' and figures' captions
COLLECT = """() => {
    const names = [];
    for (const el of document.body.querySelectorAll('[aria-label], [title], [alt]')) {
        // an element not rendered (display: none, or inside such) is neither seen nor read
        // aloud: ipywidgets leaves title="null" on every hidden description label
        if (!el.getClientRects().length) continue;
        for (const a of ['aria-label', 'title', 'alt']) {
            const v = el.getAttribute(a);
            if (v !== null) names.push(v);
        }
    }
    for (const t of document.body.querySelectorAll('svg title')) names.push(t.textContent);
    const labels = [];
    for (const t of document.body.querySelectorAll('svg text')) labels.push(t.textContent);
    const LABELS = 'label, .widget-label, button, option, th, caption, figcaption, summary, legend, '
        + 'h1, h2, h3, h4, h5, h6, a';
    for (const el of document.body.querySelectorAll(LABELS)) labels.push(el.innerText || el.textContent);
    const boards = [];
    for (const svg of document.querySelectorAll('.re-board svg')) {
        const texts = [];
        for (const t of svg.querySelectorAll('.re-scene text')) {
            const r = t.getBoundingClientRect();
            if (t.textContent.trim() && r.width > 0) texts.push([t.textContent, r.x, r.y, r.width, r.height]);
        }
        const markers = [];
        for (const el of svg.querySelectorAll('.re-highlight *')) {
            const m = el.getScreenCTM();
            if (!m) continue;
            const at = (x, y) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; };
            const style = getComputedStyle(el);
            const filled = style.fill !== 'none' && Number(style.fillOpacity) > 0;
            const n = (a) => Number(el.getAttribute(a) || 0);
            if (el.tagName === 'circle' && filled) {
                const [cx, cy] = at(n('cx'), n('cy'));
                markers.push({kind: 'circle', cx, cy, r: n('r') * m.a});
            } else if (el.tagName === 'line' && Number(el.getAttribute('stroke-width') || 1) >= 4) {
                const [x1, y1] = at(n('x1'), n('y1'));
                const [x2, y2] = at(n('x2'), n('y2'));
                const w = Number(el.getAttribute('stroke-width')) * m.a;
                markers.push({kind: 'line', x1, y1, x2, y2, w});
            } else if (el.tagName === 'polygon' && filled) {
                markers.push({kind: 'polygon', points: Array.from(el.points).map(p => at(p.x, p.y))});
            } else if (el.tagName === 'rect' && filled) {
                const x = n('x'), y = n('y'), w = n('width'), h = n('height');
                const points = [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)];
                markers.push({kind: 'polygon', points});
            }
        }
        boards.push({texts, markers});
    }
    const lists = Array.from(document.querySelectorAll('.re-movelist')).map(
        l => Array.from(l.querySelectorAll('.re-turn-no')).map(e => parseInt(e.textContent, 10)));
    const captions = Array.from(document.querySelectorAll('table.stats-table caption, figcaption'))
        .filter(e => e.getClientRects().length).map(e => e.innerText);
    return {text: document.body.innerText, names, labels, boards, lists, captions};
}"""


def seen_from(collected: dict) -> Seen:
    return Seen(**collected)


def look(page) -> Seen:
    """What the page in Chromium shows now."""
    return seen_from(page.evaluate(COLLECT))


# --- playing by clicks --------------------------------------------------------------------------

#: the lit targets' cells: each filled dot of the highlight layer (or the ring it sits on),
#: matched to the smallest clickable shape of the hit layer under its centre
LIT_CELLS = """() => {
    const out = [];
    for (const board of document.querySelectorAll('.re-board')) {
        const hits = Array.from(board.querySelectorAll('.re-hits [data-cell]'));
        const circles = Array.from(board.querySelectorAll('.re-highlight circle')).map(c => {
            const r = c.getBoundingClientRect();
            return {x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2,
                    ring: getComputedStyle(c).fill === 'none'};
        });
        for (const dot of circles) {
            if (dot.ring) continue;
            // the dot may sit on its target's ring, off the centre (not over a name): the
            // target is the ring's centre
            const ring = circles.find(c => c.ring && Math.hypot(c.x - dot.x, c.y - dot.y) <= c.r + 1);
            const x = ring ? ring.x : dot.x, y = ring ? ring.y : dot.y;
            let best = null, area = Infinity;
            for (const h of hits) {
                const r = h.getBoundingClientRect();
                if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom && r.width * r.height < area) {
                    best = h.dataset.cell; area = r.width * r.height;
                }
            }
            if (best !== null && !out.includes(best)) out.push(best);
        }
    }
    return out;
}"""
HITS = """() => Array.from(document.querySelectorAll('.re-board .re-hits [data-cell]'))
    .map(e => [e.dataset.cell, e.getAttribute('aria-label') || ''])"""
#: how long a click may stay unanswered before the next cell is tried. Every click answers
#: (targets lit, or "Selection cleared: the Kodama on b2 has no move now.", issue 46 item 1),
#: so this bounds a slow answer on a loaded machine, not a silence: a short bound there took
#: a slow answer for none and clicked on (the tour's War Chest game stopped that way)
QUIET_MS = 12_000
LAST_PLY = """() => Number(Array.from(document.querySelectorAll('.re-movelist [data-ply]'))
    .map(e => e.dataset.ply).pop() || 0)"""


def mover(page) -> str:
    """The side to move, from the status line ("White to move", "Side A to act")."""
    # read at once, not awaited: behind a hand-over the page may have no status line
    status = page.evaluate("() => (document.querySelector('[role=status]') || {}).innerText || ''")
    m = re.search(r"^(.*?) to (?:move|act)\b", status.strip(), re.M)
    return m.group(1).strip() if m else ""


def candidates(hits: list[list[str]], side: str) -> list[str]:
    """Cells worth a first click, best first: a one-click action (lay a card, turn a card
    over), the mover's pieces and hand, then anything else."""

    def rank(hit: list[str]) -> int:
        cell, label = hit
        if ": place " in label or "turn over this card" in label or label.startswith("face-down card"):
            return 0
        if side and (f"({side})" in label or label.startswith(f"{side}: hand:")):
            return 1
        return 2

    return [cell for cell, _ in sorted(hits, key=rank) if rank([cell, _]) < 2]


def lift_curtain(page) -> None:
    """The hand-over, where the view of the player to move asks for it: "Done — hand over"
    after a turn, then the curtain's button when the next player sits at the screen."""
    for selector in (".re-done-button", ".re-curtain-button"):
        button = page.locator(f"{selector}:visible").first
        if button.count():
            before = page.evaluate(SIGNATURE)
            # the page may lift it itself meanwhile (an agent's or chance's turn redraws it)
            with contextlib.suppress(PlaywrightTimeout):
                button.click(timeout=5_000)
                page.wait_for_function(f"() => ({SIGNATURE})() !== {json.dumps(before)}", timeout=15_000)


def play_by_clicks(page, actions: int, click: Callable, *, on_lit: Callable | None = None) -> list[str]:
    """Play `actions` more actions on the page's board by clicking cells: a lit target if there
    is one, else the next untried candidate. `click(page, cell)` clicks a cell (test_browser's
    click_cell); `on_lit()` is called once, the first time targets are lit. Each click waits
    until the page answers (the list, the highlight or the curtain changes). The cells clicked."""
    goal = page.evaluate(LAST_PLY) + actions
    clicked: list[str] = []
    tried: set[str] = set()
    ply = page.evaluate(LAST_PLY)
    for _ in range(actions * 8):
        if page.evaluate(LAST_PLY) >= goal:
            return clicked
        lift_curtain(page)
        if page.evaluate(LAST_PLY) != ply:
            ply, tried = page.evaluate(LAST_PLY), set()
        lit = page.evaluate(LIT_CELLS)
        if lit and on_lit is not None:
            on_lit()
            on_lit = None
        if lit:
            cell = sorted(lit, key=lambda c: ":" in c)[0]  # a place on the board before a zone
        else:
            fresh = [c for c in candidates(page.evaluate(HITS), mover(page)) if c not in tried]
            if not fresh:  # between two states (a hand-over on its way): wait for the next
                before = page.evaluate(SIGNATURE)
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function(
                        f"() => ({SIGNATURE})() !== {json.dumps(before)}", timeout=QUIET_MS
                    )
                continue
            cell = fresh[0]
            tried.add(cell)
        before = page.evaluate(SIGNATURE)
        try:
            click(page, cell)
        except PlaywrightTimeout:
            continue  # the board was redrawn without it meanwhile (a hand-over): look again
        clicked.append(cell)
        try:
            page.wait_for_function(
                f"() => ({SIGNATURE})() !== {json.dumps(before)}", timeout=15_000 if lit else QUIET_MS
            )
        except PlaywrightTimeout:
            if lit:
                raise AssertionError(f"a click on the lit target {cell} changed nothing") from None
            # a piece that has no move here: nothing to light (tried; the next one)
        settle(page)
    raise AssertionError(f"{actions} actions not played by clicking; clicked {clicked}")


# --- screenshots ----------------------------------------------------------------------------------

#: the page's whole height: Voilà's page scrolls inside a container, so a full-page screenshot
#: of the window alone shows the first screen only
PAGE_HEIGHT = """() => {
    let height = document.documentElement.scrollHeight;
    for (const el of document.querySelectorAll('body, body div, body main')) {
        const style = getComputedStyle(el);
        if (/(auto|scroll)/.test(style.overflowY) && el.clientHeight >= 0.8 * window.innerHeight) {
            height = Math.max(height, el.scrollHeight + el.getBoundingClientRect().top);
        }
    }
    return Math.ceil(height);
}"""
#: Chromium draws no taller screenshot
MAX_SHOT_HEIGHT = 16_000


def screenshot_whole(page, path: str) -> None:
    """The whole page at its width: the window made as tall as the page for the picture, then
    set back (a width's layout does not depend on the window's height)."""
    size = page.viewport_size
    height = min(page.evaluate(PAGE_HEIGHT), MAX_SHOT_HEIGHT)
    if height > size["height"]:
        page.set_viewport_size({"width": size["width"], "height": height})
    try:
        page.screenshot(path=path, full_page=True)
    finally:
        page.set_viewport_size(size)
