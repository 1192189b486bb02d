"""Exact rationals in, rounded ``Decimal`` out."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from quotetui.domain.money import MONEY_PLACES, plain
from quotetui.language.numbers import percent

_SEEN: dict[Decimal | int | str | Fraction, Fraction] = {}
_SEEN_MAX = 100_000
"""Each stored value is converted once (a ranking converts the same prices and shares again for every offer;
``Fraction(Decimal)`` is slow). Equal keys have equal exact values, so a hit is the very same figure."""


def q(value: Decimal | int | str | Fraction) -> Fraction:
    """An exact rational from a Decimal, int, decimal text or Fraction (never from a float)."""
    if isinstance(value, float):
        raise TypeError("floats are not exact")
    try:
        return _SEEN[value]
    except (KeyError, TypeError):  # not seen yet; or not hashable (a signalling NaN), refused below as before
        pass
    out = Fraction(Decimal(value)) if isinstance(value, str) else Fraction(value)
    if len(_SEEN) >= _SEEN_MAX:
        _SEEN.clear()
    _SEEN[value] = out
    return out


def dec(value: Fraction, places: int = MONEY_PLACES, *, down: bool = False) -> Decimal:
    """Round half-even to ``places`` decimal places: the one documented rounding point. ``down``: round down
    instead (toward minus infinity), for an upper bound shown (a target price must still be met as written)."""
    # ``round(value * 10**places)`` in integers: the same floor and remainder, without a Fraction's gcd (an
    # export rounds every figure of every offer through here)
    top, bottom = value.as_integer_ratio()  # a Fraction, an int or a Decimal, exactly
    whole, rest = divmod(top * 10**places, bottom)
    twice = 2 * rest
    if not down and (twice > bottom or (twice == bottom and whole & 1)):
        whole += 1
    return Decimal(whole).scaleb(-places)


def ceil(value: Fraction) -> int:
    return -((-value.numerator) // value.denominator)


def pct(value: Fraction, places: int = 2) -> Decimal:
    """A ratio as a percentage, e.g. 0.2898 -> 28.98."""
    return dec(value * 100, places)


def percent_text(value: Fraction | Decimal, places: int = 2) -> str:
    """A share as a percentage with exactly ``places`` decimals: 0.2898 → ``28.98 %`` (``28.98%`` in Chinese);
    :func:`share_text` drops needless zeros instead."""
    return percent(pct(value, places))


def share_text(value: Decimal | Fraction, places: int = 4) -> str:
    """A share as a percentage for people: 0.4 → ``40 %``, 0.999 → ``99.9 %`` (``40%`` in Chinese:
    ``language/numbers.py``); up to ``places`` decimals, no needless zeros. The one way every front end and
    message writes a share."""
    return percent(plain(pct(q(value), places).normalize()))


def sci(value: Fraction, digits: int = 3) -> str:
    """Scientific notation for large counts (FLOPs): ``3.14E+23``."""
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.{digits - 1}E}"
