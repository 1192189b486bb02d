"""Pydantic field types shared by file schemas: exact decimals, enum choices, aware timestamps.

TOML and JSON floats are refused for money and ratios: ``0.1`` as a float is not 0.1. Write such
values as strings (``amount = "0.5"``) or integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError

from quotetui.domain.currency import currency_code
from quotetui.domain.enums import Choice
from quotetui.domain.errors import BadInput, QuotetuiError
from quotetui.domain.money import exact_money_amount, to_decimal
from quotetui.domain.timeutil import as_utc, parse_timestamp


def _decimal(value: Any) -> Decimal:
    if isinstance(value, float):
        raise ValueError(f'{value!r} is a float, which is not exact; write it as a string: "{value}"')
    try:
        return to_decimal(value, what="value")
    except QuotetuiError as exc:
        raise ValueError(str(exc)) from None


def _money(value: Any) -> Decimal:
    amount = _decimal(value)
    try:
        return exact_money_amount(amount)
    except QuotetuiError as exc:
        raise ValueError(str(exc)) from None


def _ratio(value: Any) -> Decimal:
    ratio = _decimal(value)
    if not Decimal(0) <= ratio <= Decimal(1):
        raise ValueError(f'{ratio} is not a fraction between 0 and 1 (write 15 % as "0.15")')
    return ratio


def _currency(value: Any) -> str:
    try:
        return currency_code(str(value))
    except QuotetuiError as exc:
        raise ValueError(str(exc)) from None


def _timestamp(value: Any) -> datetime:
    try:
        if isinstance(value, datetime):
            return as_utc(value)
        return parse_timestamp(str(value))
    except QuotetuiError as exc:
        raise ValueError(str(exc)) from None


def choice_of(enum: type[Choice]) -> Any:
    def parse(value: Any) -> Choice:
        try:
            return enum.parse(value)
        except QuotetuiError as exc:
            raise ValueError(str(exc)) from None

    return Annotated[enum, BeforeValidator(parse)]


Exact = Annotated[Decimal, BeforeValidator(_decimal)]
MoneyAmount = Annotated[Decimal, BeforeValidator(_money)]
Ratio = Annotated[Decimal, BeforeValidator(_ratio)]
Currency = Annotated[str, BeforeValidator(_currency)]
Timestamp = Annotated[datetime, BeforeValidator(_timestamp)]


class Strict(BaseModel):
    """Unknown keys are errors (a typo must not silently drop a figure)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


def _where(loc: Sequence[int | str]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts[-1] = f"{parts[-1]} {item + 1}" if parts else f"#{item + 1}"
        else:
            parts.append(str(item))
    return " › ".join(parts) or "(top level)"


def explain(error: ValidationError, origin: str) -> BadInput:
    """All problems of a pydantic error as one message naming the file and the field."""
    lines = []
    for item in error.errors():
        message = str(item["msg"]).removeprefix("Value error, ")
        lines.append(f"{origin}: {_where(item['loc'])}: {message}")
    return BadInput("\n".join(lines))
