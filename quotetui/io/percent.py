"""Shares in spreadsheet cells: one convention with what people type (docs/ECONOMICS.md, "Shares").

A cell a person typed ``60`` in is 60 %; a cell whose number format shows a percentage (``0.00%``, as
quotetui's exports and Excel's percent style write shares) holds the fraction itself, 0.6, and is read as
that value. CSV has no formats, so a share is written there with its sign (``60%``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

_QUOTED = re.compile(r'"[^"]*"|\\.|\[[^\]]*\]')  # literal text, an escaped character, a [colour] or [condition]


def is_percent_format(code: str | None) -> bool:
    """Whether a number format shows a share (never negative) as a percentage: a ``%`` outside quoted literal
    text in its first section, the one Excel uses for a positive number (``0;-0%`` shows 0.6 as 1)."""
    return bool(code) and "%" in _QUOTED.sub("", code or "").split(";")[0]


class PercentCell(float):
    """A number read from a cell formatted as a percentage: the fraction it holds (``0.6`` shown as 60%)."""

    __slots__ = ()


def percent_text(value: Any) -> Any:
    """A share as CSV writes it: ``0.6`` → ``60%`` (exact: a Decimal's digits times 100); anything else as is."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return value
    from quotetui.domain.money import plain

    number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    return f"{plain((number * 100).normalize())}%"
