"""Workload scenarios, ownership (buy) options, FX rates and settings."""

from datetime import date, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from quotetui.domain.enums import PowerBasis
from quotetui.domain.money import RATE_PLACES
from quotetui.store.models.base import created, currency, exact, fk, fraction, money, row_version
from quotetui.store.types import ScaledDecimal, choice


class Scenario(SQLModel, table=True):
    """What the team needs; every comparison is made for one scenario."""

    __tablename__ = "scenario"
    __table_args__ = (
        sa.CheckConstraint("gpu_count > 0", name="gpu_count_positive"),
        sa.CheckConstraint("months > 0", name="months_positive"),
        sa.CheckConstraint("utilisation > 0", name="utilisation_positive"),
    )
    id: int | None = Field(default=None, primary_key=True)
    version: int = row_version()
    name: str = Field(max_length=120, unique=True)
    description: str | None = None
    gpu_model_id: int | None = fk("gpu_model.id", nullable=True, ondelete="SET NULL")
    gpu_count: int
    months: int
    utilisation: Decimal = fraction()  # 1 = busy every hour
    egress_tb_month: Decimal = exact(default=Decimal(0))
    storage_tb: Decimal = exact(default=Decimal(0))
    train_flops: Decimal | None = exact(nullable=True)
    train_params: Decimal | None = exact(nullable=True)
    train_tokens: Decimal | None = exact(nullable=True)
    home_currency: str = currency()
    is_default: bool = False
    created_at: datetime = created()


class PurchaseOption(SQLModel, table=True):
    """Owning the hardware instead of renting it (the buy side of rent vs buy)."""

    __tablename__ = "purchase_option"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120, unique=True)
    gpu_model_id: int = fk("gpu_model.id")
    gpu_count: int
    currency: str = currency()
    capex: Decimal = money()
    capex_high: Decimal | None = money(nullable=True)
    capex_vat_rate: Decimal | None = fraction(nullable=True)
    capex_special_invoice: bool = False
    colocation_month: Decimal | None = money(nullable=True)
    colocation_month_high: Decimal | None = money(nullable=True)
    power_kw: Decimal | None = exact(nullable=True)
    pue: Decimal | None = exact(nullable=True)
    tariff_per_kwh: Decimal | None = money(nullable=True)
    power_month: Decimal | None = money(nullable=True)
    power_month_high: Decimal | None = money(nullable=True)
    power_basis: PowerBasis | None = Field(default=None, sa_type=choice(PowerBasis), nullable=True)
    ops_month: Decimal | None = money(nullable=True)
    spares_pct_year: Decimal | None = fraction(nullable=True)
    idle_pct: Decimal | None = fraction(nullable=True)
    residual_pct: Decimal | None = fraction(nullable=True)
    depreciation_years: int | None = None
    horizon_months: int | None = None
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")
    notes: str | None = None


class FxRate(SQLModel, table=True):
    """1 ``base`` = ``rate`` ``quote`` on ``as_of``; conversions always name the rate they used."""

    __tablename__ = "fx_rate"
    __table_args__ = (
        sa.UniqueConstraint("base", "quote", "as_of"),
        sa.CheckConstraint("rate > 0", name="rate_positive"),
    )
    id: int | None = Field(default=None, primary_key=True)
    base: str = currency()
    quote: str = currency()
    rate: Decimal = Field(sa_type=ScaledDecimal(RATE_PLACES), nullable=False)
    as_of: date
    source: str = Field(max_length=300)


class Setting(SQLModel, table=True):
    __tablename__ = "setting"
    key: str = Field(primary_key=True, max_length=60)
    value: str


class MarketPrice(SQLModel, table=True):
    """A public list price from a cloud catalog (e.g. SkyPilot's): a market reference, not an offer."""

    __tablename__ = "market_price"
    __table_args__ = (
        sa.UniqueConstraint("catalog", "instance_type", "region"),
        sa.CheckConstraint("price >= 0", name="price_not_negative"),
        sa.CheckConstraint("gpu_count > 0", name="gpu_count_positive"),
    )
    id: int | None = Field(default=None, primary_key=True)
    source_id: int | None = fk("source.id", nullable=True, ondelete="SET NULL")
    catalog: str = Field(max_length=60)  # the cloud, e.g. "lambda"
    instance_type: str = Field(max_length=120)
    gpu_model_id: int = fk("gpu_model.id")
    gpu_count: int
    vcpus: Decimal | None = exact(nullable=True)
    memory_gib: Decimal | None = exact(nullable=True)
    region: str = Field(max_length=80)
    price: Decimal = money()  # per instance-hour, on demand
    spot_price: Decimal | None = money(nullable=True)
    currency: str = currency()
    as_of: date
    imported_at: datetime = created()
