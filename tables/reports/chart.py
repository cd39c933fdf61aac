"""Bar charts as inline SVG, drawn on the server.

The admin runs offline and without a JavaScript library, so a chart is a
string of SVG built here and embedded in the page. Colours come from the
admin's CSS variables (styled in ``templates/admin/reports/base.html``), so the
chart follows the admin's light and dark themes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

# Room around the plot for the axis labels, in SVG units.
LEFT, RIGHT, TOP, BOTTOM = 64, 12, 12, 52
# The most x-axis labels that fit side by side without overlapping.
MAX_X_LABELS = 12


@dataclass(frozen=True)
class Bar:
    label: str  # under the bar (some are skipped when there are many)
    value: int
    tooltip: str  # the bar's own <title>: what a pointer or screen reader gets


@dataclass(frozen=True)
class Axes:
    title: str
    x_label: str
    y_label: str


def nice_step(top: int, ticks: int = 5) -> int:
    """The 1, 2 or 5 times a power of ten that splits ``0..top`` into at most ``ticks`` steps.

    >>> nice_step(0), nice_step(4), nice_step(23), nice_step(480), nice_step(1001)
    (1, 1, 5, 100, 500)
    """
    if top <= ticks:
        return 1
    rough = top / ticks
    power: int = 10 ** math.floor(math.log10(rough))  # rough > 1: a whole power
    return next(k * power for k in (1, 2, 5, 10) if k * power >= rough)


def bar_chart(
    bars: Sequence[Bar], axes: Axes, *, chart_id: str, width: int = 760, height: int = 260
) -> SafeString:
    """An SVG bar chart, one ``<rect class="bar">`` per bar, with labelled axes."""
    step = nice_step(max((bar.value for bar in bars), default=0))
    top = max(step, math.ceil(max((b.value for b in bars), default=0) / step) * step)
    plot = _Plot(width - LEFT - RIGHT, height - TOP - BOTTOM, top)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="report-chart" id="{chart_id}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc">',
        f'<title id="{chart_id}-title">{escape(axes.title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(_describe(bars, axes))}</desc>',
        *_y_axis(plot, step, axes.y_label),
        *_bars(plot, bars),
        *_x_axis(plot, bars, axes.x_label),
        "</svg>",
    ]
    # Every text above went through escape(), and the numbers are ours.
    return mark_safe("\n".join(parts))


@dataclass(frozen=True)
class _Plot:
    """The plotting area: ``width`` by ``height`` units, ``top`` the value at its top edge."""

    width: int
    height: int
    top: int

    def y(self, value: int) -> float:
        return round(TOP + self.height * (1 - value / self.top), 1)


def _describe(bars: Sequence[Bar], axes: Axes) -> str:
    if not bars:
        return "No data."
    highest = max(bars, key=lambda bar: bar.value)
    total = sum(bar.value for bar in bars)
    return (
        f"{len(bars)} bars from {bars[0].label} to {bars[-1].label}; "
        f"highest {highest.value} ({highest.label}); total {total}. "
        f"{axes.x_label} across, {axes.y_label.lower()} up."
    )


def _y_axis(plot: _Plot, step: int, label: str) -> list[str]:
    lines = ['<g class="axis y-axis">']
    for value in range(0, plot.top + 1, step):
        y = plot.y(value)
        lines.append(
            f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot.width}" y1="{y}" y2="{y}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{value}</text>'
        )
    middle = TOP + plot.height / 2
    lines.append(
        f'<text class="axis-label" x="14" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">{escape(label)}</text>'
    )
    lines.append("</g>")
    return lines


def _bars(plot: _Plot, bars: Sequence[Bar]) -> list[str]:
    if not bars:
        return []
    slot = plot.width / len(bars)
    # A gap between bars while they are wide enough to keep one; touching after that.
    width = slot * 0.8 if slot >= 4 else slot
    lines = ['<g class="bars">']
    for i, bar in enumerate(bars):
        x, y = round(LEFT + i * slot + (slot - width) / 2, 1), plot.y(bar.value)
        size = f'width="{round(width, 1)}" height="{round(TOP + plot.height - y, 1)}"'
        lines.append(
            f'<rect class="bar" x="{x}" y="{y}" {size}><title>{escape(bar.tooltip)}</title></rect>'
        )
    lines.append("</g>")
    return lines


def _x_axis(plot: _Plot, bars: Sequence[Bar], label: str) -> list[str]:
    base = TOP + plot.height
    lines = [
        '<g class="axis x-axis">',
        f'<line class="baseline" x1="{LEFT}" x2="{LEFT + plot.width}" y1="{base}" y2="{base}"/>',
    ]
    if bars:
        slot = plot.width / len(bars)
        every = math.ceil(len(bars) / MAX_X_LABELS)
        for i in range(0, len(bars), every):
            x = round(LEFT + (i + 0.5) * slot, 1)
            lines.append(
                f'<text x="{x}" y="{base + 16}" text-anchor="middle">{escape(bars[i].label)}</text>'
            )
    lines.append(
        f'<text class="axis-label" x="{LEFT + plot.width / 2}" y="{base + 42}" '
        f'text-anchor="middle">{escape(label)}</text>'
    )
    lines.append("</g>")
    return lines
