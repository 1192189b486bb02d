"""Signed contracts (snapshots of an accepted revision), their incidents and invoices."""

from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.enums import BillingCadence, PriceUnit
from quotetui.store.models.base import created, currency, enum_field, fk, money, row_version, timestamp


class Contract(SQLModel, table=True):
    """The agreed deal. ``snapshot`` freezes discounts, extras and SLA so later offer edits don't leak in."""

    __tablename__ = "contract"
    __table_args__ = (
        sa.CheckConstraint("term_months > 0", name="term_positive"),
        sa.CheckConstraint("end_date > start_date", name="end_after_start"),
        sa.CheckConstraint("gpu_count > 0", name="gpu_count_positive"),
    )
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    offer_id: int = fk("offer.id")
    revision_id: int = fk("quote_revision.id")
    reference: str | None = Field(default=None, max_length=120, unique=True)
    signed_date: date | None = None
    start_date: date
    term_months: int
    end_date: date
    billing_cadence: BillingCadence = enum_field(BillingCadence)
    gpu_count: int
    price: Decimal = money()
    price_unit: PriceUnit = enum_field(PriceUnit)
    currency: str = currency()
    committed_spend: Decimal | None = money(nullable=True)
    prepayment: Decimal | None = money(nullable=True)
    auto_renew: bool = False
    renewal_term_months: int | None = None
    notice_days: int | None = None
    notice_deadline: date | None = None
    early_termination: str | None = None
    snapshot: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON, nullable=False)
    accepted_on: date | None = None  # the day the buyer accepted the delivery (the acceptance gate let it)
    created_at: datetime = created()


class AcceptanceWaiver(SQLModel, table=True):
    """A written waiver of one acceptance item that failed or has no evidence (see
    ``quotetui/domain/verification/acceptance.py``): who waived it, when and why."""

    __tablename__ = "acceptance_waiver"
    __table_args__ = (
        sa.UniqueConstraint("contract_id", "item"),
        sa.CheckConstraint("length(reason) > 0", name="reason_given"),
    )
    id: int | None = Field(default=None, primary_key=True)
    contract_id: int = fk("contract.id", ondelete="CASCADE")
    item: str = Field(max_length=32)  # an ``acceptance.Check``; the form's bounds: ``entities.WAIVER``
    reason: str = Field(max_length=2000)
    waived_by: str = Field(max_length=120)
    waived_on: date
    waived_status: str | None = Field(default=None, max_length=16)  # what it was waived as: failed or missing
    created_at: datetime = created()


class Incident(SQLModel, table=True):
    __tablename__ = "incident"
    __table_args__ = (sa.CheckConstraint("ended_at IS NULL OR ended_at >= started_at", name="ends_after_start"),)
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    contract_id: int = fk("contract.id", ondelete="CASCADE")
    started_at: datetime = timestamp()
    ended_at: datetime | None = timestamp(nullable=True)
    affected_gpus: int | None = None
    affected_nodes: int | None = None
    description: str = ""
    credit_claimed: bool = False
    credit_received: Decimal | None = money(nullable=True)
    created_at: datetime = created()


class Invoice(SQLModel, table=True):
    __tablename__ = "invoice"
    __table_args__ = (sa.CheckConstraint("period_end >= period_start", name="period_ordered"),)
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    contract_id: int = fk("contract.id", ondelete="CASCADE")
    period_start: date
    period_end: date
    amount: Decimal = money()
    currency: str = currency()
    issued_on: date | None = None
    reference: str | None = Field(default=None, max_length=120)
    paid: bool = False
    note: str | None = None
    created_at: datetime = created()
