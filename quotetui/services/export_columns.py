"""The data sheets' columns and cells, derived from the field declarations: the same headers the import
template has and the importer reads, in the same order, each value written as the importer parses it back."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from quotetui.domain.fields import Entity, Field
from quotetui.domain.timeutil import local_text
from quotetui.io.xlsx_write import DATE, DATETIME, INTEGER, MONEY_FINE, NUMBER, PERCENT, Column

FORMATS = {
    "money": MONEY_FINE,
    "ratio": PERCENT,
    "date": DATE,
    "datetime": DATETIME,
    "int": INTEGER,
    "decimal": NUMBER,
    "rate": NUMBER,
}
"""Each kind's number format in a workbook."""


def template_columns(entity: Entity, widths: dict[str, int] | None = None) -> list[Column]:
    widths = widths or {}
    return [
        Column(f.column, widths.get(f.name, max(10, len(f.column) + 3)), FORMATS.get(f.kind))
        for f in entity.sheet_fields
    ]


def cell(f: Field, value: Any, time_zone: str = "UTC") -> Any:
    """A stored value as its cell: enums by value, lists comma-separated, date-times as UTC (a cell has no
    zone; the importer reads a zone-less date-time as UTC) or, when the user shows dates in another time
    zone, as text in it with its offset (``2026-11-30 00:00+08:00``, read back to the same instant),
    everything else as it is."""
    if value is None:
        return None
    if isinstance(value, datetime):
        if time_zone != "UTC":
            return local_text(value, time_zone)
        return value.astimezone(UTC).replace(tzinfo=None)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or None
    if f.kind == "choice" or hasattr(value, "value"):
        return getattr(value, "value", value) or None
    return value


def data_row(entity: Entity, rows: tuple[object, ...], refs: Mapping[str, Any], time_zone: str = "UTC") -> list[Any]:
    """The sheet row of a record: a field's value from ``refs`` (names of what it refers to), else from the
    first of ``rows`` that has it as an attribute."""
    plan = _plan(entity, rows)
    return [
        cell(f, refs[f.name] if f.name in refs else getattr(rows[i], f.name) if i is not None else None, time_zone)
        for f, i in plan
    ]


_PLANS: dict[tuple[str, tuple[type, ...]], list[tuple[Field, int | None]]] = {}


def _plan(entity: Entity, rows: tuple[object, ...]) -> list[tuple[Field, int | None]]:
    """Each sheet field with the index of the first of ``rows`` that has it, worked out once per entity and
    kinds of rows (an export writes thousands of rows of the same kinds)."""
    key = (entity.key, tuple(type(r) for r in rows))
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = [
            (f, next((i for i, r in enumerate(rows) if hasattr(r, f.name)), None)) for f in entity.sheet_fields
        ]
    return plan
