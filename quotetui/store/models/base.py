"""Shared column helpers and the metadata naming convention (needed by alembic batch mode)."""

from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.money import MONEY_PLACES
from quotetui.domain.timeutil import utcnow
from quotetui.store.types import DecimalText, ScaledDecimal, UTCDateTime, choice

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def money(*, nullable: bool = False, default: Any = ...) -> Any:
    """An exact amount column (6 decimal places); its currency lives in a sibling column."""
    if nullable and default is ...:
        default = None
    return Field(default=default, sa_type=ScaledDecimal(MONEY_PLACES), nullable=nullable)


def fraction(*, nullable: bool = False, default: Any = ...) -> Any:
    """A ratio such as a discount (0.15) or availability (0.999), kept exactly to 6 places."""
    if nullable and default is ...:
        default = None
    return Field(default=default, sa_type=ScaledDecimal(6), nullable=nullable)


def exact(*, nullable: bool = False, default: Any = ...) -> Any:
    """A measured or planned quantity of any magnitude, stored as exact decimal text."""
    if nullable and default is ...:
        default = None
    return Field(default=default, sa_type=DecimalText(), nullable=nullable)


def currency() -> Any:
    return Field(max_length=3, nullable=False)


def enum_field(enum: type[StrEnum], default: Any = ...) -> Any:
    return Field(default=default, sa_type=choice(enum), nullable=False)


def row_version() -> Any:
    """``version``: 1 for a new row, bumped by every change (``store/versions.py``)."""
    return Field(default=1, nullable=False, sa_column_kwargs={"server_default": sa.text("1")})


def created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime(), nullable=False)


def timestamp(*, nullable: bool = False) -> Any:
    return Field(default=None if nullable else ..., sa_type=UTCDateTime(), nullable=nullable)


OnDelete = Literal["CASCADE", "SET NULL", "RESTRICT"]


def fk(target: str, *, nullable: bool = False, ondelete: OnDelete = "RESTRICT") -> Any:
    default: Any = None if nullable else ...
    return Field(default=default, foreign_key=target, nullable=nullable, ondelete=ondelete, index=True)


__all__ = [
    "Decimal",
    "SQLModel",
    "created",
    "currency",
    "datetime",
    "enum_field",
    "exact",
    "fk",
    "fraction",
    "money",
    "row_version",
    "timestamp",
]
