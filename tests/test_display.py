"""The one display of amounts and figures (``domain/economics/display.py``): places, separators and currency
decided once, rounded half-even for display only. Every figure below is worked by hand."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from quotetui.domain.economics.display import (
    amount_text,
    decimal_text,
    grouped,
    money_shown,
    money_text,
    quantity,
    sheet_format,
)

ROOT = Path(__file__).resolve().parent.parent


def test_figures_for_people() -> None:
    assert grouped(Fraction(2469137, 2000), 2) == "1,234.57"  # 1234.5685
    assert grouped(Fraction(5, 1000), 2) == "0.00" and grouped(Fraction(15, 1000), 2) == "0.02"  # half-even
    assert grouped(Decimal("-1.005"), 2) == "-1.00" and grouped(Decimal("1234567.5"), 0) == "1,234,568"
    assert grouped(7, 1) == "7.0"
    assert money_text(Fraction(1344000), "CNY") == "1,344,000.00 CNY"
    assert money_text(Fraction(1344000), "JPY") == "1,344,000 JPY"  # the yen has no minor unit
    assert money_shown(Decimal("0.125"), "CNY") == "0.12 CNY"  # 2 places, half-even
    assert quantity(Fraction(70080)) == "70,080" and quantity(Fraction(25, 2)) == "12.50"


def test_exact_strings_for_json() -> None:
    assert amount_text(Fraction(1344000), "CNY") == "1344000.00"
    assert amount_text(Fraction(98107142857, 3000000), "CNY") == "32702.380952"  # 32702.3809523…
    assert amount_text(Fraction(5), "JPY") == "5"
    assert decimal_text(Fraction(1, 3)) == "0.333333" and decimal_text(Fraction(2, 3), 2) == "0.67"


def test_sheet_formats_look_as_the_text_does() -> None:
    assert sheet_format(2) == "#,##0.00" and sheet_format(0) == "#,##0"
    assert sheet_format(2, "CNY") == '#,##0.00 "CNY"' and sheet_format(0, optional=6) == "#,##0.######"


def test_no_printer_formats_a_figure_by_itself() -> None:
    """``f"{dec(x, 2):,}"`` or ``f"{amount:,}"`` outside the display is a second way to show a figure (counts,
    ``f"{n:,} offers"``, are words: ``wording.plural``)."""
    found = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in (ROOT / "quotetui").rglob("*.py")
        if p.name != "display.py"
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\{[^{}]*(dec\(|amount|price|cost)[^{}]*:,\}", line)
    ]
    assert found == []


def test_a_stored_amount_keeps_its_places_and_its_currencys() -> None:
    from quotetui.domain.economics.display import stored_text

    assert stored_text(Decimal("250000"), "CNY") == "250,000.00"  # at least the minor units
    assert stored_text(Decimal("0.125"), "CNY") == "0.125"  # a quoted 0.125 CNY/GB is never rounded
    assert stored_text(Decimal("250000"), "JPY") == "250,000"  # no minor units
    assert stored_text(Decimal("1234.5"), "USD") == "1,234.50"
