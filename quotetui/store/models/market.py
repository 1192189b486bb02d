"""Providers, the GPU catalog, offers, negotiation rounds and their fine print."""

from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.enums import (
    BillingBasis,
    DiscountKind,
    ExtraBasis,
    ExtraKind,
    FormFactor,
    InterFabric,
    IntraFabric,
    Mover,
    OfferStatus,
    PreemptionRisk,
    PriceUnit,
    ProviderKind,
    SourceKind,
)
from quotetui.store.models.base import (
    created,
    currency,
    enum_field,
    exact,
    fk,
    fraction,
    money,
    row_version,
    timestamp,
)


class Source(SQLModel, table=True):
    """Where figures came from: an article, an email, a call, a website, a spreadsheet."""

    __tablename__ = "source"
    id: int | None = Field(default=None, primary_key=True)
    kind: SourceKind = enum_field(SourceKind)
    title: str = Field(max_length=300)
    reference: str | None = Field(default=None, max_length=500)  # URL, file name, mail id
    published: date | None = None
    note: str | None = None
    created_at: datetime = created()


class Provider(SQLModel, table=True):
    __tablename__ = "provider"
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    name: str = Field(max_length=120, unique=True)
    kind: ProviderKind = enum_field(ProviderKind)
    parent: str | None = Field(default=None, max_length=120)
    regions: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    certifications: list[str] = Field(default_factory=list, sa_type=sa.JSON, nullable=False)
    contacts: str | None = None
    website: str | None = Field(default=None, max_length=300)
    notes: str | None = None
    created_at: datetime = created()
    updated_at: datetime = created()


class GpuModel(SQLModel, table=True):
    """A catalog entry with datasheet figures (dense, no sparsity). Built-ins are seeded at open."""

    __tablename__ = "gpu_model"
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(max_length=40, unique=True)
    name: str = Field(max_length=80, unique=True)
    form_factor: FormFactor = enum_field(FormFactor)
    memory_gb: int
    memory_type: str = Field(max_length=16)
    memory_bw_tbs: Decimal = exact()
    bf16_tflops: Decimal = exact()
    fp8_tflops: Decimal | None = exact(nullable=True)
    fp64_tflops: Decimal | None = exact(nullable=True)
    nvlink_gbs: int | None = None
    nvlink_note: str = Field(default="", max_length=40)
    tdp_w: int
    topo_signature: str | None = Field(default=None, max_length=8)
    consumer: bool = False
    smi_memory_mib: int | None = None
    builtin: bool = False


class GpuAlias(SQLModel, table=True):
    __tablename__ = "gpu_alias"
    id: int | None = Field(default=None, primary_key=True)
    gpu_model_id: int = fk("gpu_model.id", ondelete="CASCADE")
    alias: str = Field(max_length=80)
    norm: str = Field(max_length=80, unique=True)  # normalised lookup key
    builtin: bool = False


class Offer(SQLModel, table=True):
    """One configuration a provider sells; its prices live in the quote revisions."""

    __tablename__ = "offer"
    __table_args__ = (
        sa.CheckConstraint("gpus_per_node > 0", name="gpus_per_node_positive"),
        sa.CheckConstraint("nodes_available IS NULL OR nodes_available >= 0", name="nodes_not_negative"),
    )
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    provider_id: int = fk("provider.id")
    gpu_model_id: int = fk("gpu_model.id")
    name: str = Field(max_length=200)
    form_factor: FormFactor = enum_field(FormFactor)
    gpus_per_node: int
    nodes_available: int | None = None
    cpu: str | None = Field(default=None, max_length=200)
    ram_gb: int | None = None
    nvme_tb: Decimal | None = exact(nullable=True)
    intra_fabric: IntraFabric = enum_field(IntraFabric, IntraFabric.UNKNOWN)
    inter_fabric: InterFabric = enum_field(InterFabric, InterFabric.UNKNOWN)
    inter_gbps_per_gpu: Decimal | None = exact(nullable=True)
    bare_metal: bool = True
    region: str | None = Field(default=None, max_length=120)
    stock_note: str | None = Field(default=None, max_length=200)
    lead_time_days: int | None = None
    billing_basis: BillingBasis = enum_field(BillingBasis)
    prorata_days: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    # monthly plans: False = whole months are billed; True = the provider bills part months by the day
    vat_rate: Decimal | None = fraction(nullable=True)  # the VAT the prices include (0.06, 0.13); None: unknown
    special_invoice: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})  # 专票
    status: OfferStatus = enum_field(OfferStatus, OfferStatus.DRAFT)
    valid_until: date | None = None
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")
    is_estimate: bool = False
    notes: str | None = None
    created_at: datetime = created()
    updated_at: datetime = created()


class QuoteRevision(SQLModel, table=True):
    """One round of negotiation on an offer: who moved, when, and the price options on the table."""

    __tablename__ = "quote_revision"
    __table_args__ = (sa.UniqueConstraint("offer_id", "seq"), sa.CheckConstraint("seq > 0", name="seq_positive"))
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    offer_id: int = fk("offer.id", ondelete="CASCADE")
    seq: int
    quoted_at: datetime = timestamp()
    mover: Mover = enum_field(Mover)
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")
    is_estimate: bool = False
    note: str | None = None
    created_at: datetime = created()


class RevisionPrice(SQLModel, table=True):
    """A price option of a round: e.g. 88,000/node-month monthly, or 750,000 for an annual prepay.

    ``amount_high`` is set when the source gives a range (8-12万); ``term_months`` 0 means no
    commitment (on-demand).
    """

    __tablename__ = "revision_price"
    __table_args__ = (
        sa.UniqueConstraint("revision_id", "term_months", "unit"),
        sa.CheckConstraint("amount >= 0", name="amount_not_negative"),
        sa.CheckConstraint("amount_high IS NULL OR amount_high >= amount", name="range_ordered"),
        sa.CheckConstraint("term_months >= 0", name="term_not_negative"),
    )
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    revision_id: int = fk("quote_revision.id", ondelete="CASCADE")
    term_months: int
    unit: PriceUnit = enum_field(PriceUnit)
    amount: Decimal = money()
    amount_high: Decimal | None = money(nullable=True)
    currency: str = currency()
    prepay: bool = False
    is_estimate: bool = False
    note: str | None = None


class Discount(SQLModel, table=True):
    """A discount with its condition. ``rate`` None: offered but not yet quantified."""

    __tablename__ = "discount"
    # the upper bound (< 1) is checked by the service: stored units differ between backends
    __table_args__ = (sa.CheckConstraint("rate IS NULL OR rate >= 0", name="rate_not_negative"),)
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    offer_id: int = fk("offer.id", ondelete="CASCADE")
    revision_id: int | None = fk("quote_revision.id", nullable=True, ondelete="CASCADE")
    kind: DiscountKind = enum_field(DiscountKind)
    rate: Decimal | None = fraction(nullable=True)
    min_term_months: int | None = None
    min_gpus: int | None = None
    requires_prepay: bool = False
    description: str | None = None
    is_estimate: bool = False
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")


class ExtraCost(SQLModel, table=True):
    """A cost on top of the GPU price. ``amount`` None: charged, but the price is not known yet."""

    __tablename__ = "extra_cost"
    __table_args__ = (sa.CheckConstraint("amount IS NULL OR amount >= 0", name="amount_not_negative"),)
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    offer_id: int = fk("offer.id", ondelete="CASCADE")
    revision_id: int | None = fk("quote_revision.id", nullable=True, ondelete="CASCADE")
    kind: ExtraKind = enum_field(ExtraKind)
    basis: ExtraBasis = enum_field(ExtraBasis)
    amount: Decimal | None = money(nullable=True)
    currency: str = currency()
    refundable: bool = False
    description: str | None = None
    is_estimate: bool = False
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")


class SlaTerm(SQLModel, table=True):
    __tablename__ = "sla_term"
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    offer_id: int = Field(foreign_key="offer.id", ondelete="CASCADE", unique=True)
    availability: Decimal | None = fraction(nullable=True)  # 0.999 = 99.9 %
    response_minutes: int | None = None
    replacement_hours: int | None = None
    support_hours: str | None = Field(default=None, max_length=40)  # e.g. 7x24
    return_days: int | None = None  # trial / no-questions return period
    dc_tier: str | None = Field(default=None, max_length=20)
    pue: Decimal | None = exact(nullable=True)
    power_redundancy: str | None = Field(default=None, max_length=120)
    preemption: PreemptionRisk = enum_field(PreemptionRisk, PreemptionRisk.UNKNOWN)
    notes: str | None = None
    is_estimate: bool = False
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")


class SlaCreditTier(SQLModel, table=True):
    """Below ``below`` availability in a month, ``credit`` of that month's fee is owed."""

    __tablename__ = "sla_credit_tier"
    __table_args__ = (sa.UniqueConstraint("sla_term_id", "below"),)
    id: int | None = Field(default=None, primary_key=True)
    sla_term_id: int = fk("sla_term.id", ondelete="CASCADE")
    below: Decimal = fraction()
    credit: Decimal = fraction()
