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


def line_chart(title: str, series: list, x_label: str, width: int = 720, height: int = 300) -> Markup:
    """An SVG chart of `series`: [(name, [cents after each point])], every series as long
    as the first; the x axis counts the points (`x_label` names them)."""
    left, right, top, bottom = 64, 12, 12, 40
    n = max((len(v) for _name, v in series), default=0)
    values = [c for _name, v in series for c in v] or [0]
    ticks = _ticks(min(min(values), 0), max(max(values), 0))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(i):
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(c):
        return top + plot_h * (high - c) / (high - low)

    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
           f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>']
    for t in ticks:
        cls = "zero" if t == 0 else "grid"
        out.append(f'<line class="{cls}" x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}"/>'
                   f'<text class="tick" x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{fmt(t)}</text>')
    out.append(f'<text class="tick" x="{left}" y="{height - 22}">1</text>'
               f'<text class="tick" x="{width - right}" y="{height - 22}" text-anchor="end">{n}</text>'
               f'<text class="axis" x="{left + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle">'
               f'{escape(x_label)}</text>')
    for k, (name, v) in enumerate(series):
        points = " ".join(f"{x(i):.1f},{y(c):.1f}" for i, c in _thin(v))
        out.append(f'<polyline fill="none" stroke="{colour(k)}" stroke-width="2" points="{points}">'
                   f'<title>{escape(name)}: {fmt(v[-1]) if v else "0.00"}</title></polyline>')
    out.append("</svg>")
    return Markup("".join(out))
