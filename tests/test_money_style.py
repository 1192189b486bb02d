"""The 万/亿 money style (issue 35): large amounts written as Chinese buyers write them, through the one display
(``domain/economics/display.py``). Expected texts are written by hand."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotetui.domain.economics import display


@pytest.fixture
def wan() -> None:
    display.use_money_style("wan")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Fraction(960000), "96.00万 CNY"),  # the issue's own example
        (Fraction(123456789), "1.23亿 CNY"),
        (Fraction(9999), "9,999.00 CNY"),  # below 1万: as ever
        (Fraction(10000), "1.00万 CNY"),
        (Fraction(9999996, 1000), "1.00万 CNY"),  # rounds to 10,000.00 first: not "10,000.00 CNY"
        (Fraction(9999994, 1000), "9,999.99 CNY"),
        (Fraction(99994999), "9,999.50万 CNY"),
        (Fraction(99999999), "1.00亿 CNY"),  # 9,999.9999万 rounds up to a whole 亿, written so
        (Fraction(-25000), "-2.50万 CNY"),
        (Fraction(10**12), "10,000.00亿 CNY"),
        (Fraction(1, 3) * 10**6, "33.33万 CNY"),
    ],
)
def test_large_amounts_are_written_in_wan_and_yi(wan: None, value: Fraction, shown: str) -> None:
    assert display.money_shown(value, "CNY") == shown


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [
        ("1234567.89", "CNY", "123.456789万"),  # as typed: exact, the point moves, nothing is rounded
        ("80000", "CNY", "8.00万"),
        ("120000000", "CNY", "1.20亿"),
        ("0.125", "CNY", "0.125"),
        ("9999.99", "CNY", "9,999.99"),
        ("250000", "JPY", "25.00万"),
    ],
)
def test_an_amount_as_typed_stays_exact_in_wan(wan: None, amount: str, currency: str, shown: str) -> None:
    assert display.stored_text(Decimal(amount), currency) == shown


def test_the_plain_style_is_unchanged_and_is_the_default() -> None:
    assert display.money_style() == "plain"
    assert display.money_shown(Fraction(960000), "CNY") == "960,000.00 CNY"
    assert display.stored_text(Decimal("1234567.89"), "CNY") == "1,234,567.89"
    with pytest.raises(ValueError):
        display.use_money_style("lakh")


@given(st.decimals(min_value=-(10**13), max_value=10**13, places=2, allow_nan=False, allow_infinity=False))
def test_an_amount_as_typed_reads_back_exactly(amount: Decimal) -> None:
    display.use_money_style("wan")
    try:
        text = display.stored_text(amount, "CNY")
    finally:
        display.use_money_style("plain")
    number = text.replace(",", "")
    unit = {"万": Decimal(10**4), "亿": Decimal(10**8)}.get(number[-1:], Decimal(1))
    assert Decimal(number.rstrip("万亿")) * unit == amount
