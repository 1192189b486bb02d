"""Requests for quotation: what the buyer asked (a requirement, revised as it changes) and whom (invitations)."""

from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.enums import InterFabric, IntraFabric, InviteState
from quotetui.store.models.base import created, currency, enum_field, fk, fraction, row_version, timestamp
from quotetui.store.types import choice


class Rfq(SQLModel, table=True):
    """One requirement sent to several providers (fields: ``domain/entities.py: REQUIREMENT``). ``revision`` moves
    with every change to the requirement: an answer names the revision it answers."""

    __tablename__ = "rfq"
    __table_args__ = (
        sa.CheckConstraint("gpus > 0", name="gpus_positive"),
        sa.CheckConstraint("months > 0", name="months_positive"),
        sa.CheckConstraint("revision > 0", name="revision_positive"),
    )
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    name: str = Field(max_length=120, unique=True)
    revision: int = Field(default=1, nullable=False)
    gpu_models: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # catalog keys
    gpus: int
    months: int
    start: date
    respond_by: date | None = None
    deliver_by: date | None = None
    min_availability: Decimal | None = fraction(nullable=True)
    intra_fabric: IntraFabric | None = Field(default=None, sa_type=choice(IntraFabric), nullable=True)
    inter_fabric: InterFabric | None = Field(default=None, sa_type=choice(InterFabric), nullable=True)
    job_gpus: int | None = None
    region: str | None = Field(default=None, max_length=120)
    checklist: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    currency: str = currency()
    notes: str | None = None
    created_at: datetime = created()


class RfqInvite(SQLModel, table=True):
    """An RFQ sent to one provider: when, at which revision, and where it stands (overdue is derived: still
    sent after the requirement's respond-by day)."""

    __tablename__ = "rfq_invite"
    __table_args__ = (sa.UniqueConstraint("rfq_id", "provider_id"),)
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    rfq_id: int = fk("rfq.id", ondelete="CASCADE")
    provider_id: int = fk("provider.id", ondelete="CASCADE")
    revision: int  # the requirement's revision sent
    sent_at: datetime = timestamp()
    state: InviteState = enum_field(InviteState, default=InviteState.SENT)
    answered_at: datetime | None = timestamp(nullable=True)
    note: str | None = Field(default=None, max_length=2000)
    reference: str | None = Field(default=None, max_length=32)  # the code on this provider's workbook (not a name)


class RfqAnswer(SQLModel, table=True):
    """A provider's filled response workbook, read in: the provenance of the offers, rounds and SLA it wrote
    (which RFQ and revision it answered, when it was read, from which file: its name and SHA-256)."""

    __tablename__ = "rfq_answer"
    __table_args__ = (sa.UniqueConstraint("rfq_id", "sha256"),)
    id: int | None = Field(default=None, primary_key=True)
    rfq_id: int = fk("rfq.id", ondelete="CASCADE")
    provider_id: int = fk("provider.id", ondelete="CASCADE")
    revision: int  # the requirement's revision answered
    received_at: datetime = timestamp()
    file_name: str = Field(max_length=255)
    sha256: str = Field(max_length=64)
    offers: list[int] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)  # the offers it answered with
