"""Column types that keep money exact and time in UTC on every backend.

* :class:`ScaledDecimal` stores a ``Decimal`` as a 64-bit integer count of 10^-scale units on
  SQLite (whose NUMERIC affinity is a binary float) and as ``NUMERIC(38, scale)`` elsewhere.
  Values with more places than ``scale`` are refused, never rounded.
* :class:`DecimalText` stores a ``Decimal`` of any magnitude as its exact text (benchmark values,
  FLOP counts such as ``3.14E+23``); it is not summed in SQL.
* :class:`UTCDateTime` refuses naive datetimes and returns aware UTC ones.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from quotetui.domain.errors import BadInput
from quotetui.domain.money import check_places, to_decimal
from quotetui.domain.timeutil import as_utc
from quotetui.language import _

_INT64_MAX = 2**63 - 1


class ScaledDecimal(TypeDecorator[Decimal]):
    impl = sa.BigInteger
    cache_ok = True

    def __init__(self, scale: int = 6) -> None:
        super().__init__()
        self.scale = scale

    def __repr__(self) -> str:  # alembic renders column types with repr()
        return f"{type(self).__name__}(scale={self.scale})"

    def load_dialect_impl(self, dialect: Dialect) -> sa.types.TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(sa.BigInteger())
        return dialect.type_descriptor(sa.Numeric(38, self.scale, asdecimal=True))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        amount = check_places(to_decimal(value), self.scale)
        units = amount.scaleb(self.scale)
        if abs(units) > _INT64_MAX:
            raise BadInput(_("amount {amount} is too large to store exactly").format(amount=amount))
        if dialect.name == "sqlite":
            return int(units)
        return amount

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        if value is None:
            return None
        if dialect.name == "sqlite":
            return Decimal(int(value)).scaleb(-self.scale)
        return Decimal(value)

    @property
    def python_type(self) -> type:
        return Decimal


class DecimalText(TypeDecorator[Decimal]):
    impl = sa.String(64)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        return str(to_decimal(value))

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(value)

    @property
    def python_type(self) -> type:
        return Decimal


class UTCDateTime(TypeDecorator[datetime]):
    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        utc = as_utc(value)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    @property
    def python_type(self) -> type:
        return datetime


class _Choice(sa.Enum):
    """SQLAlchemy's enum type, whose read of a value quotetui never writes (another program wrote it) is a
    database problem naming the value and the allowed ones, as the stdlib reads' ``Choice.stored`` is."""

    cache_ok = True
    where: str | None = None
    """The table and the column (``sla_term, preemption``), set when the column joins its table and kept by
    every copy SQLAlchemy makes of the type (one per dialect); the row is not known here (``db check`` says)."""

    def _set_table(self, column: Any, table: Any) -> None:
        super()._set_table(column, table)
        self.where = f"{table.name}, {column.name}"

    def adapt(self, cls: Any, **kw: Any) -> Any:
        made = super().adapt(cls, **kw)
        made.where = self.where
        return made

    def copy(self, **kw: Any) -> Any:
        made = super().copy(**kw)
        made.where = self.where
        return made

    def _object_value_for_elem(self, elem: str) -> Any:
        try:
            return super()._object_value_for_elem(elem)
        except LookupError:
            enum = self.enum_class
            assert enum is not None and hasattr(enum, "stored")
            where = self.where or f"a column of type {enum.__name__}"
            return enum.stored(elem, where)  # raises, naming the allowed values


def choice(enum: type[StrEnum]) -> sa.Enum:
    """A VARCHAR column holding an enum's values; unknown strings are refused when bound, named when read."""
    return _Choice(
        enum,
        native_enum=False,
        create_constraint=False,
        validate_strings=True,
        values_callable=lambda e: [m.value for m in e],
        length=24,
    )
