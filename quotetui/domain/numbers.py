"""The one number parser of every front end: forms, CLI flags, spreadsheet cells, CSV and TOML files.

Accepted: plain ``1234.5``, ``-3``, ``.5``, ``3.14e23``; thousands separators in the right places
(``1,234,567.25``); full-width digits, point and signs (``１２３４．５``), as CJK input methods type them.
Refused with a reason, never guessed: a decimal comma (``1.234,5``), commas that do not separate groups of
three (``1,2``, ``1,,2``, ``12,34``), a full-width comma (``1，5``), spaces inside the number, and
magnitudes no quote can have (``9e9999999``), which would otherwise make exact arithmetic run for hours.
Binary floats and booleans are refused too: a float is not exact, and ``True`` is not a number.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from quotetui.domain.errors import VALUE, BadInput, noun
from quotetui.language import _
from quotetui.language.lists import filled, quoted

MAX_DIGITS = 40
"""Significant digits a number may have (money keeps 19 at most; 1e30 FLOPs written out is 31)."""

MAX_EXPONENT = 60
"""A number's magnitude must lie within 10^-60 .. 10^60; beyond, it is an error, not a quote."""

# what a CJK input method types for digits, signs and the separators of numbers, dates and times: as ASCII
HALF_WIDTH = str.maketrans("０１２３４５６７８９．－＋ｅＥ／：ＴＺ", "0123456789.-+eE/:TZ")
_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # the minus sign and the en dash typed as minus
_PLAIN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")  # ASCII digits (after the
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?")  # full-width ones)


def parse_number(value: object, *, what: str = VALUE) -> Decimal:
    """``value`` (text, int or Decimal) as an exact, finite ``Decimal``, or :class:`BadInput` saying why
    (``what`` names the value, marked ``N_`` where it is given)."""
    if isinstance(value, bool):
        raise BadInput(filled(_("{what}: a yes/no value where a number belongs"), what=noun(what)))
    if isinstance(value, float):
        raise BadInput(
            _("{what} {value} is a binary float, which is not exact; give it as decimal text").format(
                what=noun(what), value=quoted(value)
            )
        )
    if isinstance(value, int):
        return _bounded(Decimal(value), str(value), what)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise BadInput(filled(_("{what} {value} is not a finite number"), what=noun(what), value=value))
        return _bounded(value, str(value), what)
    if not isinstance(value, str):
        raise BadInput(filled(_("{what} {value} is not a number"), what=noun(what), value=quoted(value)))
    text = value.strip().translate(HALF_WIDTH).translate(_SIGNS)
    if not text:
        raise BadInput(filled(_("{what} is empty"), what=noun(what)))
    if _PLAIN.fullmatch(text):
        number = text
    elif _GROUPED.fullmatch(text):
        number = text.replace(",", "")
    else:
        raise BadInput(filled(_why_not(text), what=noun(what), value=quoted(value.strip())))
    try:
        result = Decimal(number)
    except InvalidOperation:  # the patterns above admit only what Decimal reads; kept as a guard
        raise BadInput(
            filled(_("{what} {value} is not a number"), what=noun(what), value=quoted(value.strip()))
        ) from None
    return _bounded(result, value.strip(), what)


def _why_not(text: str) -> str:
    """Why ``text`` is not a number: a message with ``{what}`` and ``{value}`` to fill in."""
    if "，" in text or "、" in text:
        return _("{what} {value} has a full-width comma, which may separate two numbers: write 1.5, 15 or 1,500")
    if "," in text and "." in text and text.rfind(",") > text.rfind("."):
        return _("{what} {value} has a comma after the decimal point (a decimal comma?): write 1234.5")
    if "," in text:
        return _(
            "{what} {value} has commas that do not separate thousands (write 1,234.5, or 1.2 or 12 without a comma)"
        )
    if any(ch.isspace() for ch in text):
        return _("{what} {value} has a space inside: write the number without spaces (1234.5 or 1,234.5)")
    if text.lower() in ("inf", "infinity", "-inf", "nan", "+inf"):
        return _("{what} {value} is not a finite number")
    return _("{what} {value} is not a number")


def _bounded(number: Decimal, shown: str, what: str) -> Decimal:
    if number.is_zero():
        return number if abs(number.as_tuple().exponent) <= MAX_EXPONENT else Decimal(0)  # type: ignore[arg-type]
    _sign, digits, _exponent = number.as_tuple()
    if len(digits) > MAX_DIGITS:
        raise BadInput(
            _("{what} {value}… has more than {digits} digits").format(
                what=noun(what), value=quoted(shown[:30]), digits=MAX_DIGITS
            )
        )
    if abs(number.adjusted()) > MAX_EXPONENT:
        raise BadInput(
            _("{what} {value} is out of range (beyond 10^±{exponent})").format(
                what=noun(what), value=quoted(shown[:30]), exponent=MAX_EXPONENT
            )
        )
    return number


def parse_percent_text(value: str, *, what: str = VALUE) -> tuple[Decimal, bool]:
    """A number that may end in ``%`` (or ``％``): the number, and whether it was written as a percentage."""
    text = value.strip()
    if text.endswith(("%", "％")):
        return parse_number(text[:-1], what=what), True
    return parse_number(text, what=what), False
