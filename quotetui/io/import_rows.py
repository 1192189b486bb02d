"""Typed records from a table: columns matched by header name, every cell converted or reported.

Every cell goes through the one parser of the field declarations (:func:`quotetui.domain.fields.parse_value`),
the same that forms and CLI flags use. Numbers from Excel are binary floats; a float cell is read through
its shortest decimal form (``repr``), which is the number the user typed, then held to the field's rules.

A record holds only the columns the table has: a column that is absent leaves that field of an existing row
as it is (see ``services/import_writer.py``), while a present, empty cell clears it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from quotetui.domain.errors import QuotetuiError, unnamed
from quotetui.domain.fields import Field, parse_value
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.money import plain
from quotetui.io.import_schema import Entity, header_names, norm
from quotetui.io.percent import PercentCell
from quotetui.io.problems import Problem
from quotetui.io.table_model import Table
from quotetui.language import _, ngettext
from quotetui.language.lists import listed, quoted


@dataclass(slots=True)
class Record:
    row: int
    values: dict[str, Any]  # the present columns' values, by field name
    #: the entity's cross-field rules this row breaks, by field name, where the writer judges them: a row matched to
    #: a stored one by its natural key that changes nothing of it enters nothing (``Writer._keyed``)
    broken: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Parsed:
    entity: Entity
    table: Table
    records: list[Record] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # headers not used
    columns: dict[str, int] = field(default_factory=dict)  # field name -> position in the header
    #: what rows with problems were about: ("provider", "offer") pairs and provider names; rows that refer to
    #: them are left out quietly (their problem is already reported, not repeated as "unknown offer")
    failed: set[tuple[str, str] | str] = field(default_factory=set)

    def has(self, name: str) -> bool:
        """Whether the table has the column of field ``name``."""
        return name in self.columns

    def about(self, cells: list[Any]) -> tuple[str, str] | str | None:
        def text(key: str) -> str | None:
            i = self.columns.get(key)
            value = cells[i] if i is not None and i < len(cells) else None
            return str(value).strip() if value not in (None, "") else None

        if self.entity.key == "providers":
            return text("name")
        provider, offer = text("provider"), text("name" if self.entity.key == "offers" else "offer")
        return (provider, offer) if provider and offer else provider


def cell_value(value: Any) -> Any:
    """A cell as the field parser takes it: floats through their shortest decimal text."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(_("{value} is not a finite number").format(value=quoted(value)))
        return Decimal(repr(value))
    return value


def convert(col: Field, value: Any, catalog: GpuCatalog) -> Any:
    """The typed value of one cell, or ValueError with a reason a user understands. A share is read as
    people type it (``io/percent.py``): a number in a percent-formatted cell is the fraction it holds; any
    other number is what was typed, a percentage (``60`` is 60 %, ``0.6`` is refused: "did you mean 60%?")."""
    try:
        if col.kind == "ratio" and isinstance(value, int | float) and not isinstance(value, bool | PercentCell):
            value = plain(Decimal(value) if isinstance(value, int) else cell_value(value))  # the text a person typed
        typed = parse_value(col, cell_value(value))
        if col.kind == "gpu" and typed is not None:
            return catalog.lookup(typed).key
        return typed
    except QuotetuiError as exc:
        raise ValueError(unnamed(str(exc))) from None


def parse_table(
    table: Table,
    entity: Entity,
    catalog: GpuCatalog,
    problems: list[Problem],
    warnings: list[Problem],
    tick: Callable[[], None] | None = None,
) -> Parsed:
    """Records of ``entity`` from ``table``; every bad cell and missing column becomes a problem. ``tick`` is
    called once per row checked (a progress count)."""
    parsed = Parsed(entity, table)
    wanted: dict[str, Field] = {}
    for col in entity.sheet_fields:
        for name in header_names(col):
            wanted.setdefault(norm(name), col)
    found: dict[str, int] = {}
    for position, header in enumerate(table.header):
        match = wanted.get(norm(header))
        if match is None:
            if header:
                parsed.ignored.append(header)
            continue
        if match.name in found:  # two columns for one field: which one holds the value is anybody's guess
            first = table.header[found[match.name]]
            twice = _("{header} and {first} are both the column {column}").format(
                header=quoted(header), first=quoted(first), column=quoted(match.column)
            )
            problems.append(table.where(1, position, twice))
            continue
        found[match.name] = position
    parsed.columns = found
    missing = [c.column for c in entity.sheet_fields if c.required and c.name not in found]
    if missing:
        problems.append(
            Problem(
                table.file,
                ngettext(
                    "missing column {columns} for {sheet}", "missing columns {columns} for {sheet}", len(missing)
                ).format(columns=listed(missing), sheet=entity.sheet),
                table.sheet,
                1,
            )
        )
        return parsed
    if parsed.ignored:
        warnings.append(
            Problem(
                table.file,
                ngettext("ignored column {columns}", "ignored columns {columns}", len(parsed.ignored)).format(
                    columns=listed(parsed.ignored)
                ),
                table.sheet,
                1,
            )
        )
    present = [c for c in entity.sheet_fields if c.name in found]
    for number, cells in table.rows:
        values: dict[str, Any] = {}
        ok = True
        for col in present:
            index = found[col.name]
            if (number, index) in table.bad:
                ok = False  # reported already (a formula without a value, control characters …)
                continue
            raw = cells[index] if index < len(cells) else None
            try:
                values[col.name] = convert(entity.reading(col, values), raw, catalog)
            except ValueError as exc:
                problems.append(table.where(number, index, str(exc)))
                ok = False
        broken: dict[str, str] = {}
        if ok:
            broken = entity.check(values)
            if not entity.natural_key:  # a keyed row is judged against the row it matches (Writer._keyed)
                for name, message in broken.items():
                    problems.append(table.where(number, found.get(name), message))
                    ok = False
        if ok:
            parsed.records.append(Record(number, values, broken))
        elif (about := parsed.about(cells)) is not None:
            parsed.failed.add(about)
        if tick is not None:
            tick()
    return parsed
