"""The statistics' charts on a phone (issue 46 item 6: "on a phone the statistics charts'
labels are ~7 px"): a chart shrinks with a narrow page only down to where its labels are
11 px, and its box scrolls sideways beyond that."""

from __future__ import annotations

import re

import pytest

from widgets import charts

CHARTS = {
    "interval": lambda: charts.interval_plot(
        ["Random", "Greedy"], [40.0, 60.0], [35.0, 55.0], [45.0, 65.0], xlabel="score (%)", reference=50
    ),
    "heat map": lambda: charts.heat_map(
        ["a", "b"], ["x", "y"], {("a", "x"): (0.2, "20%"), ("b", "y"): (-0.4, "-40%")}, xlabel="x", ylabel="y"
    ),
    "box": lambda: charts.box_plot(["Yōkai no Mori 3x4"], [(1, 2, 3, 4, 5)], xlabel="plies"),
    "line": lambda: charts.line_plot(
        {"first": ([1, 2, 3], [1.0, 2.0, 4.0]), "second": ([1, 2, 3], [2.0, 1.0, 3.0])},
        xlabel="ply",
        ylabel="n",
    ),
    "no decided games": lambda: charts.interval_plot(
        ["Random"], [float("nan")], [float("nan")], [float("nan")], xlabel="score (%)"
    ),
}


@pytest.mark.parametrize("name", CHARTS)
def test_a_charts_smallest_label_is_eleven_pixels_on_any_page(name):
    html = CHARTS[name]()
    assert html.startswith('<div class="re-chart" style="overflow-x:auto')  # scrolls, not squeezed
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', html).group(1))
    least = float(re.search(r"min-width:([\d.]+)px", html).group(1))
    sizes = [float(s) for s in re.findall(r'<text [^>]*font-size="([\d.]+)"', html)]
    assert sizes, name
    # drawn at `least` px wide, a label of size s is s * least / width CSS pixels
    assert min(sizes) * least / width >= charts.MIN_LABEL_PX - 0.05, (name, min(sizes), least, width)
