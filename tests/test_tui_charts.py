"""Charts: finite data only, and axes a buyer reads at a glance (round whole numbers with thousands separators,
never 1e6 or 1000000.0), on the rent-vs-buy and training screens and the negotiation tab, up to the largest
values the inputs allow."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from itertools import pairwise
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from quotetui.tui.widgets.chart import FILLER, Chart, Line, finite, nice_ticks
from tests.test_tui import RecordingApp, settle, text_of
from tests.test_tui_forms import calm

SEPARATED = re.compile(r"-?\d{1,3}(,\d{3})*")
LARGEST_MONEY = "999999999999.999999"  # money is bounded below a trillion (exclusive), 6 decimal places
NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        # 2,537,000 ÷ 5 = 507,400: of 100,000, 200,000, 500,000 and 1,000,000, a step of 500,000 gives the
        # count closest to 5 (5.07)
        (0, 2_537_000, [0, 500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000]),
        (0, 6_480_000, [0, 1_000_000, 2_000_000, 3_000_000, 4_000_000, 5_000_000, 6_000_000]),  # 6.48 vs 3.24
        (0, 1_000_000, [0, 200_000, 400_000, 600_000, 800_000, 1_000_000]),
        (0, 36, [0, 10, 20, 30]),  # months: 36 ÷ 5 = 7.2; 10 gives 3.6, 5 gives 7.2: 10 is closer to 5
        (0, 120, [0, 20, 40, 60, 80, 100, 120]),
        (1, 3, [1, 2, 3]),  # rounds: never 1.5
        (0, 7, [0, 2, 4, 6]),
        (-250, 1000, [-200, 0, 200, 400, 600, 800, 1000]),
        (1000, -250, [-200, 0, 200, 400, 600, 800, 1000]),  # either order
        (98_000, 120_000, [100_000, 105_000, 110_000, 115_000, 120_000]),  # not from zero: 22,000 ÷ 5 = 4,400
        (0, 999_999_999_999, [0, 200_000_000_000, 400_000_000_000, 600_000_000_000, 800_000_000_000]),
        (7, 7, [7]),
        (7.2, 7.4, [7]),  # under one apart: the middle, rounded
        (0, NAN, []),
        (-INF, 5, []),
    ],
)
def test_nice_ticks(low: float, high: float, ticks: list[int]) -> None:
    assert nice_ticks(low, high) == ticks
    assert all(isinstance(t, int) for t in ticks)


@pytest.mark.parametrize(
    ("value", "point"),
    [
        (3, 3.0),
        (Decimal("2537000.00"), 2537000.0),
        (NAN, None),
        (INF, None),
        (-INF, None),
        (Decimal("NaN"), None),
        (Decimal("sNaN"), None),
        (Decimal("Infinity"), None),
        (Decimal("1e400"), None),  # beyond a float's range
    ],
)
def test_only_finite_figures_become_points(value: object, point: float | None) -> None:
    assert finite(value) == point  # type: ignore[arg-type]


def drawn(chart: Chart) -> list[float]:
    m = chart.plt.monitor
    return [v for series in (*m.x, *m.y, *m.vcoord, *m.hcoord) for v in series]  # (v/h lines: one list a side)


def by_value(labels: list[str]) -> list[str]:
    return sorted(labels, key=lambda s: int(s.replace(",", "")))


def y_labels(chart: Chart) -> list[str]:
    return by_value(chart.plt.monitor.ylabels[0])


def test_a_chart_leaves_out_points_that_are_not_finite() -> None:
    chart = Chart()
    chart.lines(
        [Line("a", [0, 1, 2, 3, NAN], [1_000, NAN, INF, Decimal("4000"), 5]), Line("b", [0, 3], [Decimal("1e400"), 2])],
        title="t",
        vline=INF,
        hline=Decimal("NaN"),
    )
    m = chart.plt.monitor
    assert m.x == [[0.0, 3.0], [3.0]] and m.y == [[1000.0, 4000.0], [2.0]]
    assert m.vcoord == [[], []] and m.hcoord == [[], []]
    assert y_labels(chart) == ["1,000", "2,000", "3,000", "4,000"]  # 2 to 4,000: from the first round tick
    assert all(math.isfinite(v) for v in drawn(chart))

    chart.bars(["#1", "#2", "#3"], [Decimal("123456789"), INF, NAN], title="bars")
    [bar] = chart.plt.monitor.y  # one bar, #1's
    assert max(bar) == 123456789.0 and chart.plt.monitor.xlabels[0] == ["#1"]
    assert y_labels(chart)[-1] == "120,000,000"

    chart.lines([Line("gone", [0, 1], [NAN, INF])], title="nothing to draw")
    assert chart.plt.monitor.x == [] and chart.plt.monitor.ylabels == [None, None]


def assert_readable_axes(chart: Chart) -> None:
    """Every figure drawn is finite; every y tick is a whole number with separators, evenly spaced by a round
    step (1, 2 or 5 times a power of ten); the drawing itself shows no 1e+, no .0."""
    assert drawn(chart) and all(math.isfinite(v) for v in drawn(chart))
    labels = y_labels(chart)
    assert len(labels) >= 3 and all(SEPARATED.fullmatch(label) for label in labels), labels
    values = [int(label.replace(",", "")) for label in labels]
    steps = {b - a for a, b in pairwise(values)}
    assert len(steps) == 1, values
    (step,) = steps
    assert int(str(step)[0]) in (1, 2, 5) and set(str(step)[1:]) <= {"0"}, step
    picture = chart.render().plain  # type: ignore[union-attr]
    assert "e+" not in picture and not re.search(r"\d\.\d┤", picture), picture


async def _rent_buy_chart(app: RecordingApp, pilot: Pilot[None]) -> Chart:
    """The rent-vs-buy screen's chart, opened from the market (``b``) and drawn."""
    await settle(pilot)
    await pilot.press("b")
    await calm(pilot)
    return app.screen.query_one("#rb-chart", Chart)


async def test_rent_vs_buy_axes_read_in_round_thousands(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        chart = await _rent_buy_chart(app, pilot)
        assert_readable_axes(chart)
        # rent 180,000 a month at full use for 36 months: 6,480,000 at the top; owning starts at 2,500,000
        assert y_labels(chart) == [f"{n:,}" for n in range(0, 6_000_001, 1_000_000)]
        assert by_value(chart.plt.monitor.xlabels[0]) == ["0", "10", "20", "30"]


async def test_money_axes_follow_the_money_style(demo_db_path: Path) -> None:
    """Under the 万 style every amount reads 万 (``display.money_number``), the axes of money too: the
    rent-vs-buy chart's 6,000,000 is 600.00万 at once on the switch, and back; its months stay plain."""
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        chart = await _rent_buy_chart(app, pilot)
        app.switch_money_style("wan")
        await calm(pilot)
        shown = sorted(label.replace(FILLER, "") for label in chart.plt.monitor.ylabels[0])
        assert shown == ["0", "100.00万", "200.00万", "300.00万", "400.00万", "500.00万", "600.00万"]
        assert by_value(chart.plt.monitor.xlabels[0]) == ["0", "10", "20", "30"]
        app.switch_money_style("plain")
        await calm(pilot)
        assert y_labels(chart) == [f"{n:,}" for n in range(0, 6_000_001, 1_000_000)]


async def test_rent_vs_buy_at_the_largest_allowed_values(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        typed = {
            "purchase": "",
            "capex": LARGEST_MONEY,
            "opex_monthly": LARGEST_MONEY,
            "rent_monthly": LARGEST_MONEY,
            "residual": LARGEST_MONEY,
            "utilisation": "0.0001%",
            "horizon_months": "120",
            "discount_rate": "0",
        }
        for name, value in typed.items():
            app.screen.query_one(f"#rb-{name}", Input).value = value
        await calm(pilot)
        assert "NPV over 120 months" in text_of(app, "#rb-result")
        chart = app.screen.query_one("#rb-chart", Chart)
        assert_readable_axes(chart)
        # owning a trillion a month for 120 months: about 1.2e14, ticks every 20 trillion
        assert y_labels(chart)[-1] == "120,000,000,000,000"


async def test_the_training_chart_at_the_largest_allowed_run(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await calm(pilot)
        chart = app.screen.query_one("#tr-chart", Chart)
        assert_readable_axes(chart)
        typed = {"flops": "1e30", "params": "", "tokens": "", "gpus": "1", "mfu": "0.0001%", "scaling": "0.0001%"}
        for name, value in typed.items():
            app.screen.query_one(f"#tr-{name}", Input).value = value
        await calm(pilot)
        assert "1.00E+30 FLOPs on 1 × H100 SXM5" in text_of(app, "#tr-result")
        assert_readable_axes(chart)


async def test_the_negotiation_chart_has_whole_rounds_and_round_prices(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(2)
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        chart = app.screen.query_one("#price-chart", Chart)
        assert_readable_axes(chart)
        assert all(SEPARATED.fullmatch(label) for label in chart.plt.monitor.xlabels[0])
