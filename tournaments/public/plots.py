"""Plots of a player's record laid out for inline SVG: rating over time, points per deal.

Plain layout (coordinates and labels); the templates draw them (``public/_rating_plot.html``,
``public/_points_plot.html``) with text in the page's font, and every figure is also listed
in a table next to the plot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.people.careers import RatingPoint

NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10**9)
SERIES = 4
"""Line styles cycled through the rating lists (``plot-s0`` … ``plot-s3`` in the CSS)."""


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round values between ``low`` and ``high`` for the grid, about ``count`` of them."""
    step = next(s for s in NICE_STEPS if s >= (high - low) / count)
    first = -(-low // step) * step
    return [first + i * step for i in range(int((high - first) // step) + 1)]


@dataclass
class Frame:
    """The drawing area of a plot: ``width × height`` with room for the axis labels."""

    width: int = 440
    height: int = 240
    left: int = 52
    right: int = 14
    top: int = 18
    bottom: int = 40

    @property
    def x_end(self) -> int:
        """Where the plot ends on the right."""
        return self.width - self.right

    @property
    def y_end(self) -> int:
        """The baseline of the plot."""
        return self.height - self.bottom

    @property
    def label_y(self) -> int:
        """Where the labels under the x axis are written."""
        return self.height - self.bottom + 18


@dataclass
class RatingPlot:
    """Rating over time: one line per rating list (and pair), with the deviation band."""

    lines: Sequence[Sequence[RatingPoint]]
    frame: Frame = field(default_factory=Frame)
    series: list[dict[str, Any]] = field(default_factory=list)
    y_ticks: list[dict[str, Any]] = field(default_factory=list)
    x_ticks: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Place the points: the tournament's date on x, the rating on y."""
        points = [p for line in self.lines for p in line]
        if not points:
            return
        f = self.frame
        lows = [p.rating - (p.deviation or 0) for p in points]
        highs = [p.rating + (p.deviation or 0) for p in points]
        low, high = min(lows), max(highs)
        if high - low < 20:
            low, high = low - 10, high + 10
        ticks = _ticks(low, high)
        low, high = min(low, ticks[0]), max(high, ticks[-1])
        days = sorted({p.date.toordinal() for p in points})
        first, last = days[0], days[-1]

        def x(point: RatingPoint) -> float:
            span = (f.x_end - f.left)
            if last == first:
                return round(f.left + span / 2, 1)
            return round(f.left + span * (point.date.toordinal() - first) / (last - first), 1)

        def y(value: float) -> float:
            return round(f.y_end - (f.y_end - f.top) * (value - low) / (high - low), 1)

        self.y_ticks = [{"y": y(t), "label": f"{t:.0f}"} for t in ticks]
        shown = {first, last} if len(days) > 2 else set(days)
        by_day = {p.date.toordinal(): p for p in points if p.date.toordinal() in shown}
        self.x_ticks = [
            {"x": x(p), "label": p.date.isoformat(), "anchor": (
                "middle" if first == last else
                "start" if day == first else "end" if day == last else "middle"
            )}
            for day, p in sorted(by_day.items())
        ]
        for i, line in enumerate(self.lines):
            placed = [{"x": x(p), "y": y(p.rating), "point": p} for p in line]
            band = ""
            spread = [(p, p.deviation) for p in line if p.deviation is not None]
            if len(spread) == len(line) > 1:
                upper = [f"{x(p)},{y(p.rating + d)}" for p, d in spread]
                lower = [f"{x(p)},{y(p.rating - d)}" for p, d in reversed(spread)]
                band = " ".join(upper + lower)
            self.series.append({
                "style": f"plot-s{i % SERIES}",
                "name": line[0].list_name,
                "partner": line[0].partner,
                "points": placed,
                "polyline": " ".join(f"{p['x']},{p['y']}" for p in placed),
                "band": band,
                "last": line[-1],
            })


@dataclass
class BarPlot:
    """A bar chart of counts: the points per deal in bins."""

    bins: Sequence[tuple[int, int, int]]
    frame: Frame = field(default_factory=Frame)
    bars: list[dict[str, Any]] = field(default_factory=list)
    y_ticks: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        """One bar a bin, its count on top and its range below."""
        if not self.bins:
            return
        f = self.frame
        most = max(count for _low, _high, count in self.bins) or 1
        ticks = [t for t in _ticks(0, most) if t <= most]
        top = max(most, ticks[-1])
        slot = (f.x_end - f.left) / len(self.bins)

        def y(value: float) -> float:
            return round(f.y_end - (f.y_end - f.top) * value / top, 1)

        self.y_ticks = [{"y": y(t), "label": f"{t:.0f}"} for t in ticks]
        for i, (low, high, count) in enumerate(self.bins):
            x = f.left + slot * i
            self.bars.append({
                "x": round(x + slot * 0.1, 1),
                "width": round(slot * 0.8, 1),
                "y": y(count),
                "height": round(f.y_end - y(count), 1),
                "middle": round(x + slot / 2, 1),
                "count": count,
                "label": f"{low}" if low == high else f"{low}–{high}",
            })
