"""Line charts as inline SVG, written here: a viewBox, a few grid lines with their figures,
one polyline a player and a legend. The page carries its numbers as a table beside the
chart (the text alternative); the SVG names itself by its <title>. No script, no font,
nothing fetched: it draws wherever the page opens.

Why not pygal: it would add a dependency (and lxml-free SVG of its own style) for what is
here sixty lines, and its charts want its JavaScript for tooltips, which a page that
opens offline must not fetch.
"""

from markupsafe import Markup, escape

from ..money import fmt

# Colours a colour-blind reader tells apart (Okabe-Ito), dark enough on white
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999933")
MOST_POINTS = 240  # a polyline keeps at most this many points (every figure is in the table)


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _ticks(low: int, high: int, count: int = 6) -> list:
    """Round values (cents) spanning low..high, about `count` of them."""
    span = max(high - low, 100)
    raw = span / count
    step = 1
    while step * 10 <= raw:
        step *= 10
    for k in (1, 2, 5, 10):
        if step * k >= raw:
            step *= k
            break
    first, last = (low // step) * step, -(-high // step) * step
    if last == first:  # every value the same (nothing won or lost): a band around it
        last = first + step
    return list(range(first, last + 1, step))


def _thin(values: list) -> list:
    """(index, value) of at most MOST_POINTS points of a series, its last point kept."""
    n = len(values)
    if n <= MOST_POINTS:
        return list(enumerate(values))
    every = -(-n // MOST_POINTS)
    points = [(i, values[i]) for i in range(0, n, every)]
    if points[-1][0] != n - 1:
        points.append((n - 1, values[-1]))
    return points


# One marker shape a series, drawn at its last point and in the legend: lines that run
# together (two players at the same net) are told apart by their ends and by the legend
MARKERS = ("circle", "square", "triangle", "diamond")
OVERLAP = 3  # user units between lines at the same value at a point (a small offset, not a lie)
NARROW = dict(width=360, height=250, ticks=4)  # the phone's chart: its labels ~12 px at 390 px wide


def marker(i: int, cx: float, cy: float, r: float = 5) -> str:
    """The SVG of series i's marker centred on (cx, cy)."""
    shape = MARKERS[i % len(MARKERS)]
    if shape == "circle":
        return f'<circle class="mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{colour(i)}"/>'
    if shape == "square":
        return (f'<rect class="mark" x="{cx - r:.1f}" y="{cy - r:.1f}" width="{2 * r}" height="{2 * r}" '
                f'fill="{colour(i)}"/>')
    if shape == "triangle":
        corners = [(0, -1.2), (1.1, 0.9), (-1.1, 0.9)]
    else:
        corners = [(0, -1.3), (1.1, 0), (0, 1.3), (-1.1, 0)]
    points = " ".join(f"{cx + dx * r:.1f},{cy + dy * r:.1f}" for dx, dy in corners)
    return f'<polygon class="mark" points="{points}" fill="{colour(i)}"/>'


def legend_marker(i: int) -> Markup:
    """Series i's marker, alone, for the legend beside the chart."""
    return Markup(f'<svg class="swatch" viewBox="0 0 14 14" aria-hidden="true">{marker(i, 7, 7)}</svg>')


def _offsets(series: list, points=None) -> list:
    """Per series, per point: the y offset (user units) that keeps lines at the same value
    apart — at each point the series sharing a value are spread OVERLAP apart, centred on it.
    `points`: only at these indices (the others stay 0: a chart draws at most MOST_POINTS)."""
    out = [[0.0] * len(v) for _name, v in series]
    n = max((len(v) for _name, v in series), default=0)
    for i in (range(n) if points is None else points):
        same: dict[float, list[int]] = {}  # a value -> the series at it
        for k, (_name, v) in enumerate(series):
            if i < len(v):
                same.setdefault(v[i], []).append(k)
        for ks in same.values():
            for j, k in enumerate(ks):
                out[k][i] = (j - (len(ks) - 1) / 2) * OVERLAP
    return out


def line_chart(title: str, series: list, x_label: str, width: int = 720, height: int = 300,
               ticks: int = 6, cls: str = "wide") -> Markup:
    """An SVG chart of `series`: [(name, [cents after each point])], every series as long
    as the first; the x axis counts the points (`x_label` names them). `ticks`: about how
    many figures the y axis has; `cls`: the chart's class beside `chart` (the page shows the
    `wide` one, a phone the `narrow` one: pages.chart makes both)."""
    left, right, top, bottom = (64, 12, 12, 40) if width >= 500 else (58, 10, 10, 38)
    n = max((len(v) for _name, v in series), default=0)
    values = [c for _name, v in series for c in v] or [0]
    marks = _ticks(min(min(values), 0), max(max(values), 0), ticks)
    low, high = marks[0], marks[-1]
    plot_w, plot_h = width - left - right, height - top - bottom
    drawn = {i for _name, v in series for i, _c in _thin(v)} | {len(v) - 1 for _name, v in series if v}
    offsets = _offsets(series, sorted(drawn))

    def x(i):
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(c):
        return top + plot_h * (high - c) / (high - low)

    out = [f'<svg class="chart {cls}" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
           f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>']
    for t in marks:
        line = "zero" if t == 0 else "grid"
        out.append(f'<line class="{line}" x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
                   f'<text class="tick" x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{fmt(t)}</text>')
    out.append(f'<text class="tick" x="{left}" y="{height - 22}">1</text>'
               f'<text class="tick" x="{width - right}" y="{height - 22}" text-anchor="end">{n}</text>'
               f'<text class="axis" x="{left + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle">'
               f'{escape(x_label)}</text>')
    for k, (name, v) in enumerate(series):
        points = " ".join(f"{x(i):.1f},{y(c) + offsets[k][i]:.1f}" for i, c in _thin(v))
        last = f"{escape(name)}: {fmt(v[-1]) if v else '0.00'}"
        out.append(f'<polyline fill="none" stroke="{colour(k)}" stroke-width="2" points="{points}">'
                   f'<title>{last}</title></polyline>')
        if v:
            out.append(f'<g>{marker(k, x(len(v) - 1), y(v[-1]) + offsets[k][len(v) - 1])}<title>{last}</title></g>')
    out.append("</svg>")
    return Markup("".join(out))
