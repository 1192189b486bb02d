"""Numbers by locale (issue 35): the symbols and percent pattern quotetui writes without loading Babel are
Babel's (CLDR's) for each language it speaks; the money display keeps its exact grouping in both."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from babel import Locale
from babel.numbers import format_decimal, format_percent

from quotetui import language
from quotetui.domain.economics.display import grouped, money_shown
from quotetui.domain.economics.exact import share_text
from quotetui.language.numbers import SYMBOLS

CLDR = {"en": "en", "zh-CN": "zh_Hans_CN"}


@pytest.mark.parametrize("tag", list(language.LANGUAGES))
def test_the_separators_are_cldrs(tag: str) -> None:
    symbols = Locale.parse(CLDR[tag]).number_symbols["latn"]
    assert SYMBOLS[tag] == (symbols["group"], symbols["decimal"])
    assert format_decimal(Decimal("1234567.891"), locale=CLDR[tag], decimal_quantization=False) == "1,234,567.891"


def test_a_share_reads_as_each_language_writes_a_percentage() -> None:
    assert share_text(Fraction(2, 5)) == "40 %"  # quotetui's English, as ever
    language.use("zh-CN")
    assert share_text(Fraction(2, 5)) == "40%" == format_percent(Decimal("0.4"), locale="zh_Hans_CN")
    assert share_text(Fraction(999, 1000)) == "99.9%"
    assert money_shown(Fraction(1234567891, 1000), "CNY") == "1,234,567.89 CNY"
    assert grouped(Fraction(-12345), 0) == "-12,345"
