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

A figure with marks (``≥ ~ ✗``): ``caveats.figure_text``; whether a figure is money, and so written in the money
style: :func:`is_money` (its unit names a currency), the one test every figure asks.

The money style (:func:`use_money_style`) is how amounts of money are written for people: ``plain``
(``960,000.00 CNY``) or ``wan``, as Chinese buyers write large amounts: from 1万 up in 万 (``96.00万 CNY``), from
1亿 up in 亿 (``1.23亿 CNY``), a computed figure to 2 places of that unit, an amount as typed exact
(``123.456789万``). JSON and the workbook's cells keep the exact number whatever the style. The style can change
while a program runs (the TUI's settings): text kept for later is keyed by :func:`style_key`.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.currency import MINOR_UNITS, minor_units
from quotetui.domain.economics.exact import dec, q
from quotetui.domain.money import decimal_places, plain

Number = Fraction | Decimal | int
MONEY_STYLES = ("plain", "wan")
STYLE_EXAMPLES = {"plain": "960,000.00", "wan": "96.00万"}
"""How each money style writes 960,000 (``quotetui config`` shows it beside the style's name)."""
_money_style: list[str | None] = ["plain"]  # None: not decided yet (``decide_money_style_by``)
_decider: list[Callable[[], str | None]] = [lambda: None]
_UNITS = ((10**8, "亿"), (10**4, "万"))


def use_money_style(style: str) -> None:
    """Write amounts of money in ``style`` (one of :data:`MONEY_STYLES`) from now on."""
    if style not in MONEY_STYLES:
        raise ValueError(f"unknown money style {style!r}")
    _money_style[0] = style


def decide_money_style_by(decide: Callable[[], str | None]) -> None:
    """Let ``decide`` say the style (the config file's ``money_style``) the first time an amount is written: a
    command that writes no amount never reads it."""
    _money_style[0] = None
    _decider[0] = decide


def money_style() -> str:
    style = _money_style[0]
    if style is None:
        try:
            decided = _decider[0]()
        except Exception:  # the preferences are a convenience: an amount is always written
            decided = None
        style = _money_style[0] = decided if decided in MONEY_STYLES else "plain"
    return style


def _unit(value: Number) -> tuple[int, str] | None:
    """The 万/亿 unit ``value`` is written in under the ``wan`` style, or None (plain, or below 1万)."""
    if _money_style[0] != "wan" and (_money_style[0] is not None or money_style() != "wan"):
        return None
    size = abs(value)
    return next(((step, word) for step, word in _UNITS if size >= step), None)


def style_key() -> tuple[str, str]:
    """What words and figures written now depend on besides the data: the language in use and the money style.
    Text kept for later (a ranking, stored evaluations, a listing on disk) is keyed by it, so a switch of
    either (the TUI switches both while it runs) never serves text written the old way."""
    from quotetui.language import current

    return current(), money_style()


def is_money(unit: str) -> bool:
    """Whether a figure in ``unit`` is an amount of money, written in the money style: its unit is a currency
    (``CNY``) or a currency per something (``CNY/GPU-h``, ``CNY/PFLOP-h``). Hours, PFLOP, shares and counts are
    not: they never read 万."""
    return unit.partition("/")[0] in MINOR_UNITS


def money_number(value: Number, places: int = 2, *, at_most: bool = False) -> str:
    """An amount of money for people, its currency named beside it or in its column's heading, in the money
    style in use: ``places`` decimals (``960,000.00``), or 2 places of 万/亿 (``96.00万``). ``at_most``: an upper
    bound (a target price to stay under) is rounded down, so the figure as written still meets it."""
    rounded = dec(value, places, down=at_most)  # type: ignore[arg-type]
    unit = _unit(rounded)  # 9,999.996 is written 1.00万, as it rounds to 10,000.00
    if unit is None:
        return f"{rounded:,}"
    exact = Fraction(value)
    shown = dec(exact / unit[0], 2, down=at_most)
    if unit[0] < _UNITS[0][0] and abs(shown) >= _UNITS[0][0] // unit[0]:  # 9,999.995万 rounds to 1.00亿
        unit = _UNITS[0]
        shown = dec(exact / unit[0], 2, down=at_most)
    return f"{shown:,}{unit[1]}"


def target_number(amount: Number, currency: str) -> str:
    """A price to stay under (a negotiation's target), without its currency, in the money style: the currency's
    minor units (``25,237.61``) or 2 places of 万/亿, rounded down (``2.52万``): as written it still beats what it
    must."""
    return money_number(amount, minor_units(currency), at_most=True)


def grouped(value: Number, places: int) -> str:
    """``value`` for people: rounded half-even to ``places``, with thousands separators (``1,234.57``)."""
    return f"{dec(value, places):,}"  # type: ignore[arg-type]


def quantity(value: Fraction) -> str:
    """A count of hours or units for people: separators, 2 places only where it has a fraction (70,080)."""
    d = dec(value, 2)
    return f"{d.to_integral_value():,}" if d == d.to_integral_value() else f"{d:,}"


def money_text(value: Number, currency: str, places: int | None = None, *, at_most: bool = False) -> str:
    """An amount with its currency (:func:`money_number`): ``places`` decimals, by default the currency's minor
    units."""
    digits = minor_units(currency) if places is None else places
    return f"{money_number(value, digits, at_most=at_most)} {currency}"


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


def with_sign(amount: Decimal, shown: Callable[[Decimal], str]) -> str:
    """A difference as every list of them writes it: its size ``shown`` (with or without its currency) after
    its sign, ``+5,161.29``, ``−79,999.00`` (a minus sign, U+2212); none on zero."""
    return ("+" if amount > 0 else "−" if amount < 0 else "") + shown(abs(amount))


def stored_text(amount: Decimal, currency: str) -> str:
    """An amount as stored and typed, for people: thousands separators and the currency's minor units (2 places
    for CNY, none for JPY), more only where the amount has them: never rounded, it is what was agreed."""
    places = max(decimal_places(amount), minor_units(currency))
    unit = _unit(amount)
    if unit is None:
        return f"{amount:,.{places}f}"
    shifted = amount.scaleb(-len(str(unit[0])) + 1)  # exact: the decimal point moves, nothing is rounded
    return f"{shifted:,.{max(decimal_places(shifted), 2)}f}{unit[1]}"
