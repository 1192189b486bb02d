"""The one rounding point (``domain/economics/exact.dec``): half-even of the exact rational, at any places."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.exact import dec


def _reference(value: Fraction, places: int) -> Decimal:
    return Decimal(round(value * 10**places)).scaleb(-places)  # Fraction.__round__ is half-even


def test_ties_go_to_the_even_neighbour_on_both_signs() -> None:
    assert dec(Fraction(5, 2), 0) == 2 and dec(Fraction(7, 2), 0) == 4
    assert dec(Fraction(-5, 2), 0) == -2 and dec(Fraction(-7, 2), 0) == -4
    assert str(dec(Fraction(1, 8), 2)) == "0.12" and str(dec(Fraction(3, 8), 2)) == "0.38"
    assert str(dec(Fraction(-1, 8), 2)) == "-0.12"
    assert str(dec(Fraction(1, 3))) == "0.333333" and str(dec(Fraction(2, 3))) == "0.666667"


def test_every_rounding_is_the_exact_half_even_one() -> None:
    rng = random.Random(16)
    for _ in range(20_000):
        value = Fraction(
            rng.randint(-(10**15), 10**15), rng.choice([1, 2, 3, 8, 10**6, 2 * 10**6, rng.randint(1, 10**9)])
        )
        places = rng.choice([0, 1, 2, 4, 6])
        got, want = dec(value, places), _reference(value, places)
        assert got == want and str(got) == str(want), (value, places)
    assert str(dec(7, 2)) == "7.00"  # an int is a rational too, and so is a Decimal
    assert str(dec(Decimal("2.345"), 2)) == "2.34" and str(dec(Decimal("-0.0000005"))) == "0.000000"
