"""Form descriptions and their validation, shared by any front end.

A form is a list of :class:`FieldSpec`; :func:`parse` turns the raw text of each field into typed values
or raises :class:`FieldErrors` naming every bad field at once, so nothing is saved from a half-valid form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, Literal

from quotetui.domain.currency import currency_code
from quotetui.domain.errors import BadInput, QuotetuiError
from quotetui.domain.money import MONEY_PLACES, check_places, exact_money_amount, to_decimal
from quotetui.domain.timeutil import parse_date, parse_timestamp

Kind = Literal["text", "int", "decimal", "money", "percent", "date", "datetime", "choice", "bool", "currency", "list"]


class FieldErrors(BadInput):
    """Several fields are invalid; ``errors`` maps each field name to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{name}: {message}" for name, message in errors.items()))


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    label: str
    kind: Kind = "text"
    required: bool = False
    choices: tuple[tuple[str, str], ...] = ()  # (label, value)
    help: str = ""
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    max_length: int = 300


@dataclass(frozen=True, slots=True)
class FormSpec:
    title: str
    fields: tuple[FieldSpec, ...]
    values: dict[str, Any] = field(default_factory=dict)  # initial values (as text, or bool)


def _number(spec: FieldSpec, text: str) -> Decimal:
    value = to_decimal(text, what="value")
    if spec.minimum is not None and value < spec.minimum:
        raise BadInput(f"must be at least {spec.minimum}")
    if spec.maximum is not None and value > spec.maximum:
        raise BadInput(f"must be at most {spec.maximum}")
    return value


def _one(spec: FieldSpec, raw: Any) -> Any:
    if spec.kind == "bool":
        return bool(raw)
    text = "" if raw is None else str(raw).strip()
    if not text:
        if spec.required:
            raise BadInput("required")
        return [] if spec.kind == "list" else None
    if spec.kind == "text":
        if len(text) > spec.max_length:
            raise BadInput(f"at most {spec.max_length} characters")
        return text
    if spec.kind == "list":
        return [part.strip() for part in text.replace("，", ",").split(",") if part.strip()]
    if spec.kind == "int":
        value = _number(spec, text)
        if value != value.to_integral_value():
            raise BadInput("a whole number")
        return int(value)
    if spec.kind == "decimal":
        return check_places(_number(spec, text), 6, what="value")
    if spec.kind == "money":
        return exact_money_amount(_number(spec, text))
    if spec.kind == "percent":
        value = _number(spec, text.removesuffix("%").strip())
        return check_places(value / 100, MONEY_PLACES, what="percentage")
    if spec.kind == "date":
        return parse_date(text)
    if spec.kind == "datetime":
        if len(text) == 10:  # a bare date means the start of that day, UTC
            return datetime.combine(parse_date(text), datetime.min.time(), tzinfo=UTC)
        return parse_timestamp(text)
    if spec.kind == "currency":
        return currency_code(text)
    if spec.kind == "choice":
        allowed = [value for _, value in spec.choices]
        if text not in allowed:
            raise BadInput("choose one of the listed values")
        return text
    raise BadInput(f"unknown field kind {spec.kind}")


def parse(fields: tuple[FieldSpec, ...], raw: dict[str, Any]) -> dict[str, Any]:
    """Typed values for every field, or :class:`FieldErrors` listing each bad one."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for spec in fields:
        try:
            values[spec.name] = _one(spec, raw.get(spec.name))
        except QuotetuiError as exc:
            errors[spec.name] = str(exc).removeprefix("value ")
    if errors:
        raise FieldErrors(errors)
    return values


def text_of(value: Any) -> str | bool:
    """A stored value as a form shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal):
        from quotetui.domain.money import plain

        return plain(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec="minutes").replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(getattr(value, "value", value))
