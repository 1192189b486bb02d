"""How numbers read in the language in use, decided once and checked against Babel's CLDR data by the tests
(``tests/test_language_numbers.py``), so that printing a figure never loads Babel: the separators of both
languages are the same (``1,234,567.89``), and a percentage is ``40 %`` in quotetui's English (its house style
since the first release) and ``40%`` in Chinese, as CLDR writes it."""

from __future__ import annotations

from quotetui.language import current

SYMBOLS: dict[str, tuple[str, str]] = {"en": (",", "."), "zh-CN": (",", ".")}
"""Each language's thousands separator and decimal point (CLDR's, for en and zh_Hans_CN)."""
_PERCENT = {"en": "{} %", "zh-CN": "{}%"}


def percent(number: object, tag: str | None = None) -> str:
    """``number`` (already written: ``40``, ``99.9``, ``45.0–52.0``) as a percentage in the language in use, or in
    ``tag`` (English for a text that is itself a message id, such as a command's help)."""
    return _PERCENT.get(tag or current(), "{} %").format(number)
