"""Charts (plotext through textual-plotext) that only ever draw finite numbers, on axes a buyer reads at a
glance: round whole-number ticks with thousands separators (1,000,000, never 1e6 or 1000000.0).

Every chart of the TUI is a :class:`Chart`; its :meth:`Chart.lines` and :meth:`Chart.bars` are the one place
where figures become points. A point that is not a finite number (NaN, an infinity, a figure beyond a float's
range) is left out, never drawn as 0 (a zero cost would look like the cheapest offer), and plotext never sees
it (an infinite axis makes it loop). The ticks come from :func:`nice_ticks`. Words plotext draws (a title, a
legend, a bar's label) are laid out by terminal cells (:func:`drawn`), so a Chinese caption stays on its row.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from rich.console import RenderableType
from rich.text import Text
from textual_plotext import PlotextPlot

from quotetui.domain.economics.display import money_number
from quotetui.language.cells import width

TICKS = 5
"""About how many ticks an axis gets (a chart is 10 to 20 rows high)."""

NICE_STEPS = (1, 2, 5, 10)
"""A tick step is one of these times a power of ten: 500,000 and 20, never 300,000 or 7."""

Number = int | float | Decimal


def nice_ticks(low: float, high: float, count: int = TICKS) -> list[int]:
    """Round whole-number ticks between ``low`` and ``high`` (both included if they fall on a tick), about
    ``count`` of them: the step is 1, 2 or 5 times a power of ten, whichever puts the number of ticks closest to
    ``count``, and never below 1 (an axis of months or rounds has no 2.5). ``0–2,537,000`` → ``0, 500,000, …,
    2,500,000``. An empty or non-finite range has no ticks; a single value is its own tick (rounded)."""
    if not (math.isfinite(low) and math.isfinite(high)) or count < 1:
        return []
    low, high = min(low, high), max(low, high)
    if high - low < 1:
        inside = range(math.ceil(low), math.floor(high) + 1)
        return list(inside) if inside else [round((low + high) / 2)]
    raw = (high - low) / count
    power = 10 ** max(0, math.floor(math.log10(raw)))
    step = min((s * power for s in NICE_STEPS), key=lambda s: (abs((high - low) / s - count), -s))
    first, last = math.ceil(low / step), math.floor(high / step)
    return [int(k * step) for k in range(first, last + 1)]


def tick_label(value: int, money: bool = False) -> str:
    """A tick as a buyer writes it: ``1,000,000``; on an axis of money, as every amount is written in the money
    style in use (``display.money_number``: ``100.00万`` under the 万 style)."""
    return drawn(money_number(value, 0)) if money else f"{value:,}"


def finite(value: Number) -> float | None:
    """``value`` as a chart coordinate, or None if it has none (NaN, an infinity, beyond a float's range)."""
    try:
        point = float(value)
    except (OverflowError, ValueError, InvalidOperation):  # a signalling NaN, a Decimal too large for a float
        return None
    return point if math.isfinite(point) else None


FILLER = "\u200b"
"""What follows a wide character in the words plotext draws, and is taken out of the drawing
(:meth:`Chart.render`): plotext gives each character one column and a Chinese character takes two, so a
caption overran its row and broke onto the next (the negotiation chart's, inside "BATNA"); with the filler
in the second column plotext centres, fits and places the words by the cells they take."""


def drawn(words: str) -> str:
    """``words`` as plotext is given them: each wide character followed by a :data:`FILLER`."""
    if words.isascii():
        return words
    return "".join(c + FILLER if width(c) == 2 else c for c in words)


@dataclass(frozen=True, slots=True)
class Line:
    """One curve: its label and points (x, y), as exact or float figures."""

    label: str
    xs: Sequence[Number]
    ys: Sequence[Number]
    marker: str | None = None


def _points(xs: Iterable[Number], ys: Iterable[Number]) -> tuple[list[float], list[float]]:
    """The points whose both coordinates are finite."""
    pairs = [(x, y) for x, y in zip(map(finite, xs), map(finite, ys), strict=True) if x is not None and y is not None]
    return [x for x, _ in pairs], [y for _, y in pairs]


class Chart(PlotextPlot):
    """A plotext chart drawn from finite numbers only, with round, separated ticks."""

    def render(self) -> RenderableType:
        """plotext's drawing without the :data:`FILLER` of wide characters (:func:`drawn`)."""
        drawing = super().render()
        if not isinstance(drawing, Text) or FILLER not in drawing.plain:
            return drawing
        pieces = drawing.divide(i for i, char in enumerate(drawing.plain) if char == FILLER)
        shown = drawing.blank_copy()
        for i, piece in enumerate(pieces):
            shown.append_text(piece[1:] if i else piece)
        return shown

    def clear(self) -> None:
        """Nothing drawn (the figures of inputs that no longer hold would mislead)."""
        self.plt.clear_data()
        self.plt.clear_figure()
        self.refresh()

    def lines(
        self,
        lines: Sequence[Line],
        *,
        title: str,
        xlabel: str = "",
        vline: Number | None = None,
        hline: Number | None = None,
        money: bool = False,
    ) -> None:
        """Curves on one pair of axes; ``vline`` and ``hline`` mark a value (a break-even, a target) in red;
        ``money``: the y-axis is an amount of money (its ticks in the money style)."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        all_x: list[float] = []
        all_y: list[float] = []
        for line in lines:
            xs, ys = _points(line.xs, line.ys)
            if xs:
                plt.plot(xs, ys, label=drawn(line.label), marker=line.marker)
                all_x += xs
                all_y += ys
        if all_x:
            v, h = finite(vline) if vline is not None else None, finite(hline) if hline is not None else None
            if v is not None:
                plt.vline(v, "red")
                all_x.append(v)
            if h is not None:
                plt.hline(h, "red")
                all_y.append(h)
            self._ticks(all_x, all_y, money)
        plt.title(drawn(title))
        if xlabel:
            plt.xlabel(drawn(xlabel))
        self.refresh()

    def bars(self, labels: Sequence[str], values: Sequence[Number], *, title: str, money: bool = False) -> None:
        """One bar a label; a label whose value is not finite gets no bar; ``money``: as :meth:`lines`."""
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        kept = [(label, y) for label, y in zip(labels, map(finite, values), strict=True) if y is not None]
        if kept:
            ys = [y for _, y in kept]
            plt.bar([drawn(label) for label, _ in kept], ys)
            ticks = nice_ticks(min(0.0, *ys), max(0.0, *ys))  # bars stand on zero
            plt.yticks(ticks, [tick_label(t, money) for t in ticks])
        plt.title(drawn(title))
        self.refresh()

    def _ticks(self, xs: list[float], ys: list[float], money: bool) -> None:
        x_ticks, y_ticks = nice_ticks(min(xs), max(xs)), nice_ticks(min(ys), max(ys))
        self.plt.xticks(x_ticks, [tick_label(t) for t in x_ticks])
        self.plt.yticks(y_ticks, [tick_label(t, money) for t in y_ticks])
