"""The data sheets' columns and cells, derived from the field declarations: the same headers the import
template has and the importer reads, in the same order, each value written as the importer parses it back."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from quotetui.domain.fields import Entity, Field
from quotetui.domain.timeutil import local_text
from quotetui.io.import_schema import header_names, norm
from quotetui.io.xlsx_write import DATE, DATETIME, INTEGER, MONEY_FINE, NUMBER, PERCENT, Column
from quotetui.language import _

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


def figure_header(entity: Entity, header: str, **values: object) -> str:
    """The header of a column of figures after a data sheet's template columns (an import ignores it), in the
    language in use: ``header`` is its English message id (marked ``N_`` at the call), ``values`` fill its
    placeholders. A translation that an import would read as one of the entity's own columns (a Chinese alias)
    gives the English header instead, which never does."""
    said = _(header).format(**values)
    if norm(said) in {norm(name) for f in entity.sheet_fields for name in header_names(f)}:
        return header.format(**values)
    return said


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
    out = []
    for f, i, j, as_is in _plan(entity, rows):
        if f.name in refs:
            value = refs[f.name]
        elif i is None:
            value = None
        else:
            value = rows[i][j] if j is not None else getattr(rows[i], f.name)  # type: ignore[index]
        out.append(value if as_is and type(value) in _AS_IS else cell(f, value, time_zone))
    return out


_AS_IS = frozenset({type(None), str, int, bool, float, Decimal, date})
"""Types :func:`cell` gives back as they are (outside choice fields): checked first, without the call."""
Plan = list[tuple[Field, int | None, int | None, bool]]
_PLANS: dict[tuple[str, tuple[object, ...]], Plan] = {}


def _plan(entity: Entity, rows: tuple[object, ...]) -> Plan:
    """Each sheet field with the index of the first of ``rows`` that has it (and its index in that row when
    the row is a named tuple: an index is faster than an attribute), and whether :func:`cell`
    can be skipped for plain values; worked out once per entity and kinds of rows (an export writes thousands
    of rows of the same kinds)."""
    key = (entity.key, tuple(type(r) for r in rows))
    plan = _PLANS.get(key)
    if plan is None:
        plan = []
        for f in entity.sheet_fields:
            i = next((i for i, r in enumerate(rows) if hasattr(r, f.name)), None)
            names = getattr(type(rows[i]), "_fields", None) if i is not None else None  # a named tuple's type
            j = names.index(f.name) if isinstance(names, tuple) and f.name in names else None
            plan.append((f, i, j, f.kind != "choice"))
        _PLANS[key] = plan
    return plan
