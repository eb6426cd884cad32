"""Small charts as SVG text: interval (forest) plots, a heat map, box plots, lines. No
plotting library to import, so a statistics page opens at once; every label is escaped.

Each function returns an `<svg>` (in a box that scrolls sideways on a page too narrow for
its labels at 11 px) whose axes carry their units."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape

INK, GRID, BLUE, ORANGE = "#222", "#ccc", "#0072B2", "#E69F00"
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
FONT = 'font-family="sans-serif" font-size="12"'


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12, extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{INK}" {extra}>'
        f"{escape(str(text))}</text>"
    )


#: the smallest text a chart may show, in CSS pixels: a chart shrinks with a narrow page (a
#: phone) only down to where its 12-px labels are this size, and scrolls sideways beyond
MIN_LABEL_PX = 11
_SIZES = re.compile(r'font-size="([\d.]+)"')


def _svg(width: float, height: float, body: str, title: str) -> str:
    """The chart, as wide as the page allows but never so narrow that its labels fall under
    MIN_LABEL_PX (a 640-px chart on a 390-px phone drew them at 7 px): there its box scrolls."""
    smallest = min((float(size) for size in _SIZES.findall(body)), default=12.0)
    least = width * MIN_LABEL_PX / smallest
    return (
        '<div class="re-chart" style="overflow-x:auto;max-width:100%">'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" style="max-width:100%;min-width:{least:.0f}px;height:auto" role="img" {FONT}>'
        f"<title>{escape(title)}</title>{body}</svg></div>"
    )


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About `count` round values (1, 2, 2.5 or 5 times a power of ten apart) from `low` to
    `high`: where an axis of a chart puts its marks."""
    step = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(step)) if step > 0 else 1
    step = min((m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= step), default=step)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 1)]


def _x_axis(left: float, right: float, top: float, bottom: float, low: float, high: float, label: str) -> str:
    def x(v: float) -> float:
        return left + (v - low) / (high - low) * (right - left)

    parts = []
    for tick in ticks(low, high):
        parts.append(
            f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{top}" y2="{bottom}" stroke="{GRID}"/>'
        )
        parts.append(_text(x(tick), bottom + 14, f"{tick:g}", "middle", 11))
    parts.append(_text((left + right) / 2, bottom + 32, label, "middle"))
    return "".join(parts)


def interval_plot(
    labels: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    xlabel: str,
    reference: float | None = None,
    low: float = 0,
    high: float = 100,
    title: str = "",
) -> str:
    """One row per label: a dot at the value and a bar over its interval (values in the x
    axis's unit, e.g. percent)."""
    left, right, row = 170, 600, 24
    top, bottom = 10, 10 + row * len(labels)

    def x(v: float) -> float:
        return left + (min(max(v, low), high) - low) / (high - low) * (right - left)

    parts = [_x_axis(left, right, top, bottom, low, high, xlabel)]
    if reference is not None:
        parts.append(
            f'<line x1="{x(reference):.1f}" x2="{x(reference):.1f}" y1="{top}" y2="{bottom}" '
            f'stroke="#666" stroke-dasharray="4 3"/>'
        )
    for i, (name, value, lo, hi) in enumerate(zip(labels, values, lows, highs, strict=True)):
        y = top + row * i + row / 2
        parts.append(_text(left - 8, y + 4, name, "end"))
        if any(math.isnan(v) for v in (value, lo, hi)):
            parts.append(_text(left + 4, y + 4, "no decided games", size=12))
            continue
        parts.append(
            f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{BLUE}" '
            'stroke-width="2"/>'
        )
        parts.append(f'<circle cx="{x(value):.1f}" cy="{y:.1f}" r="4.5" fill="{BLUE}"/>')
    return _svg(right + 20, bottom + 42, "".join(parts), title)


def heat_map(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: dict[tuple[str, str], tuple[float, str]],
    *,
    xlabel: str,
    ylabel: str,
    title: str = "",
) -> str:
    """A grid: cells[(row, column)] = (value 0..1 for the colour, text to print)."""
    left, top, size = 120, 10, 92
    parts = []
    for i, r in enumerate(rows):
        parts.append(_text(left - 8, top + size * i + size / 2 + 4, r, "end"))
        for j, c in enumerate(columns):
            x, y = left + size * j, top + size * i
            if (r, c) not in cells:
                parts.append(
                    f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#eee" stroke="#fff"/>'
                )
                parts.append(_text(x + size / 2, y + size / 2 + 4, "—", "middle", 11))
                continue
            value, text = cells[(r, c)]
            parts.append(
                f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{_diverging(value)}" '
                'stroke="#fff"/>'
            )
            for k, line in enumerate(text.split("\n")):
                parts.append(_text(x + size / 2, y + size / 2 - 4 + 15 * k, line, "middle", 11))
    bottom = top + size * len(rows)
    for j, c in enumerate(columns):
        parts.append(_text(left + size * j + size / 2, bottom + 16, c, "middle", 11))
    parts.append(_text(left + size * len(columns) / 2, bottom + 36, xlabel, "middle"))
    parts.append(
        _text(
            14,
            top + size * len(rows) / 2,
            ylabel,
            "middle",
            extra=f'transform="rotate(-90 14 {top + size * len(rows) / 2:.0f})"',
        )
    )
    return _svg(left + size * len(columns) + 10, bottom + 46, "".join(parts), title)


def _diverging(value: float) -> str:
    """0 -> orange, 0.5 -> white, 1 -> blue (colour-blind safe)."""
    if math.isnan(value):
        return "#eee"
    a, b = ((230, 159, 0), (0, 114, 178))
    end = a if value < 0.5 else b
    t = abs(value - 0.5) * 2
    r, g, bl = (round(255 + (e - 255) * t * 0.8) for e in end)
    return f"rgb({r},{g},{bl})"


def box_plot(
    labels: Sequence[str],
    quartiles: Sequence[tuple[float, float, float, float, float]],
    *,
    xlabel: str,
    title: str = "",
) -> str:
    """One row per label: whiskers (low, high), a box from q1 to q3 and the median."""
    left, right, row = 170, 600, 28
    top, bottom = 10, 10 + row * len(labels)
    high = max(q[4] for q in quartiles) * 1.05 or 1

    def x(v: float) -> float:
        return left + v / high * (right - left)

    parts = [_x_axis(left, right, top, bottom, 0, high, xlabel)]
    for i, (name, (lo, q1, med, q3, hi)) in enumerate(zip(labels, quartiles, strict=True)):
        y = top + row * i + row / 2
        parts.append(_text(left - 8, y + 4, name, "end"))
        parts.append(f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{INK}"/>')
        parts.append(
            f'<rect x="{x(q1):.1f}" y="{y - 8:.1f}" width="{max(x(q3) - x(q1), 1):.1f}" height="16" '
            f'fill="#cfe3f1" stroke="{BLUE}"/>'
        )
        parts.append(
            f'<line x1="{x(med):.1f}" x2="{x(med):.1f}" y1="{y - 8:.1f}" y2="{y + 8:.1f}" '
            f'stroke="{ORANGE}" stroke-width="3"/>'
        )
    return _svg(right + 20, bottom + 42, "".join(parts), title)


def line_plot(
    series: dict[str, tuple[Sequence[float], Sequence[float]]],
    *,
    xlabel: str,
    ylabel: str,
    log_y: bool = False,
    title: str = "",
) -> str:
    """Lines (x, y) per name, with a legend; `log_y` for values over several magnitudes."""
    left, right, top, bottom = 60, 600, 10, 230
    xs = [v for x, _ in series.values() for v in x]
    ys = [v for _, y in series.values() for v in y if v > 0 or not log_y]
    x_high = max(xs) if xs else 1

    def fy(v: float) -> float:
        return math.log10(max(v, 1e-9)) if log_y else v

    y_low, y_high = (fy(min(ys)), fy(max(ys))) if ys else (0, 1)
    y_low, y_high = (math.floor(y_low), math.ceil(y_high)) if log_y else (0, y_high * 1.05 or 1)

    def px(v: float) -> float:
        return left + v / x_high * (right - left)

    def py(v: float) -> float:
        return bottom - (fy(v) - y_low) / ((y_high - y_low) or 1) * (bottom - top)

    parts = [_x_axis(left, right, top, bottom, 0, x_high, xlabel)]
    marks = [10**e for e in range(int(y_low), int(y_high) + 1)] if log_y else ticks(0, y_high)
    for tick in marks:
        parts.append(
            f'<line x1="{left}" x2="{right}" y1="{py(tick):.1f}" y2="{py(tick):.1f}" stroke="{GRID}"/>'
        )
        parts.append(_text(left - 6, py(tick) + 4, f"{tick:g}", "end", 11))
    parts.append(
        _text(
            14,
            (top + bottom) / 2,
            ylabel,
            "middle",
            extra=f'transform="rotate(-90 14 {(top + bottom) / 2:.0f})"',
        )
    )
    for k, (name, (x, y)) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{px(a):.1f},{py(b):.1f}" for a, b in zip(x, y, strict=True) if b > 0 or not log_y)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.8"/>')
        parts.append(
            f'<rect x="{right - 190}" y="{top + 4 + 16 * k}" width="12" height="3" fill="{colour}"/>'
        )
        parts.append(_text(right - 172, top + 10 + 16 * k, name, size=12))
    return _svg(right + 20, bottom + 42, "".join(parts), title)
