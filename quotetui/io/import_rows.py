"""Typed records from a table: columns matched by header name, every cell converted or reported.

Numbers from Excel are binary floats; a float cell is read through its shortest decimal form
(``repr``), which is the number the user typed, then held to the 6-place money rule like any input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Any

from quotetui.domain.currency import currency_code
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.money import MONEY_PLACES, RATE_PLACES, check_places, exact_money_amount
from quotetui.domain.timeutil import parse_timestamp
from quotetui.io.import_schema import Col, Entity, norm
from quotetui.io.problems import Problem
from quotetui.io.tables import Table, cell_date

TRUE = {"yes", "y", "true", "1", "是", "有", "√", "x"}
FALSE = {"no", "n", "false", "0", "否", "无", ""}
MAX_INT = 10**9  # GPU counts, days, months: far beyond any real quote, far inside a 64-bit column
MAX_QUANTITY = Decimal(10) ** 30  # FLOPs of the largest training runs are ~1e26
MAX_RATE = Decimal(10) ** 8  # an exchange rate, stored with 10 places in a 64-bit column


@dataclass(slots=True)
class Record:
    row: int
    values: dict[str, Any]


@dataclass(slots=True)
class Parsed:
    entity: Entity
    table: Table
    records: list[Record] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # headers not used
    columns: dict[str, int] = field(default_factory=dict)  # column key -> position in the header
    #: what rows with problems were about: ("provider", "offer") pairs and provider names; rows that refer to
    #: them are left out quietly (their problem is already reported, not repeated as "unknown offer")
    failed: set[tuple[str, str] | str] = field(default_factory=set)

    def about(self, cells: list[Any]) -> tuple[str, str] | str | None:
        def text(key: str) -> str | None:
            i = self.columns.get(key)
            value = cells[i] if i is not None and i < len(cells) else None
            return str(value).strip() if value not in (None, "") else None

        if self.entity.key == "providers":
            return text("name")
        provider, offer = text("provider"), text("offer")
        return (provider, offer) if provider and offer else provider


def to_decimal(value: Any) -> Decimal:
    if isinstance(value, bool):
        raise ValueError("a yes/no value where a number belongs")
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, int):
        return Decimal(value)
    text = str(value).strip().replace(",", "").replace("，", "").replace("_", "")
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{str(value)!r} is not a number") from None
    if not number.is_finite():
        raise ValueError(f"{str(value)!r} is not a finite number")
    return number


def convert(col: Col, value: Any, catalog: GpuCatalog) -> Any:
    """The typed value of one cell, or ValueError with a reason a user understands (the domain's own
    checks — decimal places, amount limits, currency codes, GPU names — give theirs)."""
    try:
        return _convert(col, value, catalog)
    except QuotetuiError as exc:
        raise ValueError(str(exc)) from None


def _convert(col: Col, value: Any, catalog: GpuCatalog) -> Any:
    if col.kind == "bool":
        text = str(value).strip().casefold() if value is not None else ""
        if isinstance(value, bool):
            return value
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        raise ValueError(f"{value!r} is not yes or no")
    if col.kind in ("text", "list"):
        text = str(value).strip()
        if col.kind == "list":
            return [p.strip() for p in text.replace("，", ",").replace("、", ",").split(",") if p.strip()]
        return text
    if col.kind == "int":
        number = to_decimal(value)
        if number != number.to_integral_value() or number < 0:
            raise ValueError(f"{number} is not a whole number of zero or more")
        if number > MAX_INT:
            raise ValueError(f"{number} is too large (limit {MAX_INT:,})")
        return int(number)
    if col.kind in ("decimal", "rate"):
        number = to_decimal(value)
        if number < 0:
            raise ValueError("must not be negative")
        limit, places = (MAX_RATE, RATE_PLACES) if col.kind == "rate" else (MAX_QUANTITY, 12)
        if number >= limit:
            raise ValueError(f"{number} is too large (limit {limit:.0e})")
        return check_places(number, places, what="value")
    if col.kind == "money":
        number = to_decimal(value)
        if number < 0:
            raise ValueError("must not be negative")
        return exact_money_amount(number)
    if col.kind == "fraction":
        text = str(value).strip()
        number = to_decimal(text[:-1]) / 100 if isinstance(value, str) and text.endswith("%") else to_decimal(value)
        if not Decimal(0) <= number <= Decimal(1):
            raise ValueError(f"{number} is not a fraction between 0 and 1 (15 % is 0.15, or write 15%)")
        return check_places(number, MONEY_PLACES, what="fraction")
    if col.kind == "date":
        day = cell_date(value)
        if day is None:
            raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)")
        return day
    if col.kind == "datetime":
        if isinstance(value, datetime):
            return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        if isinstance(value, date):
            return datetime.combine(value, time(), tzinfo=UTC)
        day = cell_date(value)
        if day is not None:
            return datetime.combine(day, time(), tzinfo=UTC)
        try:
            return parse_timestamp(str(value))
        except QuotetuiError:
            raise ValueError(f"{value!r} is not a date or a date-time with an offset") from None
    if col.kind == "currency":
        return currency_code(str(value))
    if col.kind == "choice":
        assert col.choices is not None
        try:
            return col.choices.parse(str(value))
        except QuotetuiError:
            raise ValueError(f"{str(value)!r} is not one of: {', '.join(m.value for m in col.choices)}") from None
    if col.kind == "gpu":
        return catalog.lookup(str(value)).key
    raise ValueError(f"unknown column kind {col.kind}")


def parse_table(
    table: Table, entity: Entity, catalog: GpuCatalog, problems: list[Problem], warnings: list[Problem]
) -> Parsed:
    """Records of ``entity`` from ``table``; every bad cell and missing column becomes a problem."""
    parsed = Parsed(entity, table)
    wanted: dict[str, Col] = {}
    for col in entity.columns:
        for name in (col.label, col.key, *col.aliases):
            wanted.setdefault(norm(name), col)
    found: dict[str, int] = {}
    for position, header in enumerate(table.header):
        match = wanted.get(norm(header))
        if match is None or match.key in found:
            if header:
                parsed.ignored.append(header)
            continue
        found[match.key] = position
    parsed.columns = found
    missing = [c.label for c in entity.columns if c.required and c.key not in found]
    if missing:
        problems.append(
            Problem(table.file, f"missing column(s) {', '.join(missing)} for {entity.sheet}", table.sheet, 1)
        )
        return parsed
    if parsed.ignored:
        warnings.append(Problem(table.file, f"ignored column(s): {', '.join(parsed.ignored)}", table.sheet, 1))
    for number, cells in table.rows:
        values: dict[str, Any] = {}
        ok = True
        for col in entity.columns:
            index = found.get(col.key)
            raw = cells[index] if index is not None and index < len(cells) else None
            if index is not None and (number, index) in table.bad:
                ok = False  # reported already (a formula without a value, control characters …)
                continue
            if raw is None or (isinstance(raw, str) and not raw.strip()):
                if col.required:
                    problems.append(table.where(number, index, "required"))
                    ok = False
                empty: Any = [] if col.kind == "list" else (False if col.kind == "bool" else None)
                values[col.key] = col.default if col.default is not None else empty
                continue
            try:
                values[col.key] = convert(col, raw, catalog)
            except ValueError as exc:
                problems.append(table.where(number, index, str(exc)))
                ok = False
        if ok:
            parsed.records.append(Record(number, values))
        elif (about := parsed.about(cells)) is not None:
            parsed.failed.add(about)
    return parsed
