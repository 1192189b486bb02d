"""The one display of amounts and figures: how many places each is shown with, its separators and its currency,
decided here once; every printer asks it — the CLI, the TUI's cells, the brief, the award, the sheets' text, and
JSON's exact strings. Figures are rounded half-even here for display only (``exact.dec``, the one rounding
point); the engine's values stay exact. A locale (issue 35) plugs in here.

* :func:`grouped` — a figure for people: ``1,234.57`` (``places`` decimals, thousands separators);
* :func:`money_text` / :func:`money_shown` — an amount with its currency: the currency's minor units, or 2;
* :func:`quantity` — a count of hours or units: places only where it has a fraction (``70,080``, ``12.5``);
* :func:`sheet_format` — a spreadsheet cell's number format, the same look for a number that stays a number;
* :func:`decimal_text` / :func:`amount_text` — JSON's exact strings: half-even to at most 6 places, an amount
  with at least its currency's minor units (``"1344000.00"``, ``"32702.380952"``).

* :func:`stored_text` — an amount as stored and typed (a quote, an invoice): the places it has, at least its
  currency's minor units (a quoted 0.125 CNY/GB stays exact; 250,000 JPY has none).

A figure with marks (``≥ ~ ✗``): ``caveats.figure_text``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.currency import minor_units
from quotetui.domain.economics.exact import dec, q
from quotetui.domain.money import decimal_places, plain

Number = Fraction | Decimal | int


def grouped(value: Number, places: int) -> str:
    """``value`` for people: rounded half-even to ``places``, with thousands separators (``1,234.57``)."""
    return f"{dec(value, places):,}"  # type: ignore[arg-type]


def quantity(value: Fraction) -> str:
    """A count of hours or units for people: separators, 2 places only where it has a fraction (70,080)."""
    d = dec(value, 2)
    return f"{d.to_integral_value():,}" if d == d.to_integral_value() else f"{d:,}"


def money_text(value: Fraction, currency: str, places: int | None = None) -> str:
    """An amount with its currency: ``places`` decimals, by default the currency's minor units."""
    digits = minor_units(currency) if places is None else places
    return f"{grouped(value, digits)} {currency}"


def money_shown(amount: Any, currency: str) -> str:
    """An amount for people: 2 places, thousands separators, its currency (``250,000.00 CNY``); exact values
    are rounded half-even for display only. The command line and the screens both show money so."""
    return money_text(q(amount), currency, 2)


def sheet_format(places: int, currency: str | None = None, optional: int = 0) -> str:
    """A spreadsheet number format showing numbers as :func:`grouped` does: thousands separators, ``places``
    decimals always and ``optional`` more where the number has them, then its currency (``#,##0.00 "CNY"``). The
    cell keeps the exact number; only its look is set here."""
    decimals = "0" * places + "#" * optional
    return f"#,##0{'.' + decimals if decimals else ''}" + (f' "{currency}"' if currency else "")


def decimal_text(value: Fraction, places: int = 6) -> str:
    """A computed figure for JSON: rounded half-even to ``places``, exact decimal text."""
    return plain(dec(value, places))


def amount_text(value: Fraction, currency: str) -> str:
    """A computed amount of money for JSON: 6 places at most, at least the currency's minor units."""
    return plain(dec(value), minor_units(currency))


def stored_text(amount: Decimal, currency: str) -> str:
    """An amount as stored and typed, for people: thousands separators and the currency's minor units (2 places
    for CNY, none for JPY), more only where the amount has them: never rounded, it is what was agreed."""
    places = max(decimal_places(amount), minor_units(currency))
    return f"{amount:,.{places}f}"
