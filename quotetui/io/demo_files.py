"""The demo market's readable data files (``imports/demo``): schema and loading.

Layout: ``sources.toml``, ``providers/*.toml`` (a provider, its offers with revisions, discounts,
extras and SLA, and its claims), ``claims.toml`` (market-wide claims), ``scenarios.toml``,
``ownership.toml``. Money, ratios and large numbers are strings so that they stay exact.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import Field, ValidationError, model_validator

from quotetui.domain import enums as e
from quotetui.domain.errors import BadInput
from quotetui.io.fields import (
    Currency,
    Exact,
    MoneyAmount,
    Ratio,
    Strict,
    Timestamp,
    choice_of,
    explain,
)


class SourceEntry(Strict):
    key: str
    kind: choice_of(e.SourceKind)  # type: ignore[valid-type]
    title: str
    reference: str | None = None
    published: date | None = None
    note: str | None = None


class PriceEntry(Strict):
    term_months: int = Field(ge=0)
    unit: choice_of(e.PriceUnit)  # type: ignore[valid-type]
    amount: MoneyAmount
    amount_high: MoneyAmount | None = None
    currency: Currency | None = None
    prepay: bool = False
    is_estimate: bool = False
    note: str | None = None

    @model_validator(mode="after")
    def _range(self) -> PriceEntry:
        if self.amount < 0:
            raise ValueError("amount must not be negative")
        if self.amount_high is not None and self.amount_high < self.amount:
            raise ValueError(f"amount_high {self.amount_high} is below amount {self.amount}")
        return self


class RevisionEntry(Strict):
    mover: choice_of(e.Mover)  # type: ignore[valid-type]
    quoted_at: Timestamp
    source: str | None = None
    is_estimate: bool = False
    note: str | None = None
    price: list[PriceEntry] = Field(min_length=1)


class DiscountEntry(Strict):
    kind: choice_of(e.DiscountKind)  # type: ignore[valid-type]
    rate: Ratio | None = None
    min_term_months: int | None = Field(default=None, ge=0)
    min_gpus: int | None = Field(default=None, ge=0)
    requires_prepay: bool = False
    description: str | None = None
    is_estimate: bool = False
    source: str | None = None

    @model_validator(mode="after")
    def _below_one(self) -> DiscountEntry:
        if self.rate is not None and self.rate >= 1:
            raise ValueError(f'rate {self.rate} would make the price free; a 15 % discount is "0.15"')
        return self


class ExtraEntry(Strict):
    kind: choice_of(e.ExtraKind)  # type: ignore[valid-type]
    basis: choice_of(e.ExtraBasis)  # type: ignore[valid-type]
    amount: MoneyAmount | None = None
    currency: Currency | None = None
    refundable: bool = False
    description: str | None = None
    is_estimate: bool = False
    source: str | None = None


class CreditEntry(Strict):
    below: Ratio
    credit: Ratio


class SlaEntry(Strict):
    availability: Ratio | None = None
    response_minutes: int | None = Field(default=None, ge=0)
    replacement_hours: int | None = Field(default=None, ge=0)
    support_hours: str | None = None
    return_days: int | None = Field(default=None, ge=0)
    dc_tier: str | None = None
    pue: Exact | None = None
    power_redundancy: str | None = None
    preemption: choice_of(e.PreemptionRisk) = e.PreemptionRisk.UNKNOWN  # type: ignore[valid-type]
    notes: str | None = None
    is_estimate: bool = False
    source: str | None = None
    credits: list[CreditEntry] = Field(default_factory=list)


class OfferEntry(Strict):
    key: str
    name: str
    gpu: str
    gpus_per_node: int = Field(ge=1)
    form_factor: choice_of(e.FormFactor)  # type: ignore[valid-type]
    nodes_available: int | None = Field(default=None, ge=0)
    cpu: str | None = None
    ram_gb: int | None = Field(default=None, ge=0)
    nvme_tb: Exact | None = None
    intra_fabric: choice_of(e.IntraFabric) = e.IntraFabric.UNKNOWN  # type: ignore[valid-type]
    inter_fabric: choice_of(e.InterFabric) = e.InterFabric.UNKNOWN  # type: ignore[valid-type]
    inter_gbps_per_gpu: Exact | None = None
    bare_metal: bool = True
    region: str | None = None
    stock_note: str | None = None
    lead_time_days: int | None = Field(default=None, ge=0)
    billing_basis: choice_of(e.BillingBasis)  # type: ignore[valid-type]
    status: choice_of(e.OfferStatus) = e.OfferStatus.DRAFT  # type: ignore[valid-type]
    valid_until: date | None = None
    source: str | None = None
    is_estimate: bool = False
    notes: str | None = None
    revision: list[RevisionEntry] = Field(min_length=1)
    discount: list[DiscountEntry] = Field(default_factory=list)
    extra: list[ExtraEntry] = Field(default_factory=list)
    sla: SlaEntry | None = None


class ClaimEntry(Strict):
    offer: str | None = None
    metric: choice_of(e.Metric)  # type: ignore[valid-type]
    value: Exact
    value_high: Exact | None = None
    qualifier: Literal["", "about", "at_least", "at_most"] = ""
    unit: str
    gpu: str | None = None
    gpu_count: int | None = Field(default=None, ge=1)
    workload: str | None = None
    model_params: Exact | None = None
    tokens: Exact | None = None
    flops: Exact | None = None
    claimed_mfu: Exact | None = None
    seq_len: int | None = Field(default=None, ge=1)
    dtype: str | None = None
    conditions: str | None = None
    source: str
    quote: str | None = None
    compared: list[str] = Field(default_factory=list)  # offer keys, for cheaper_than claims


class ProviderEntry(Strict):
    name: str = Field(min_length=1, max_length=120)
    kind: choice_of(e.ProviderKind)  # type: ignore[valid-type]
    parent: str | None = None
    regions: list[str] = Field(default_factory=list)
    certifications: list[str] = Field(default_factory=list)
    contacts: str | None = None
    website: str | None = None
    currency: Currency
    notes: str | None = None


class ProviderFile(Strict):
    provider: ProviderEntry
    offer: list[OfferEntry] = Field(default_factory=list)
    claim: list[ClaimEntry] = Field(default_factory=list)


class ScenarioEntry(Strict):
    name: str
    description: str | None = None
    gpu: str | None = None
    gpu_count: int = Field(ge=1)
    months: int = Field(ge=1)
    utilisation: Ratio
    egress_tb_month: Exact = Decimal(0)
    storage_tb: Exact = Decimal(0)
    train_flops: Exact | None = None
    train_params: Exact | None = None
    train_tokens: Exact | None = None
    home_currency: Currency
    default: bool = False


class PurchaseEntry(Strict):
    name: str
    gpu: str
    gpu_count: int = Field(ge=1)
    currency: Currency
    capex: MoneyAmount
    capex_high: MoneyAmount | None = None
    colocation_month: MoneyAmount | None = None
    colocation_month_high: MoneyAmount | None = None
    power_kw: Exact | None = None
    pue: Exact | None = None
    tariff_per_kwh: MoneyAmount | None = None
    power_month: MoneyAmount | None = None
    power_month_high: MoneyAmount | None = None
    ops_month: MoneyAmount | None = None
    spares_pct_year: Ratio | None = None
    residual_pct: Ratio | None = None
    horizon_months: int | None = Field(default=None, ge=1)
    source: str | None = None
    notes: str | None = None


class SourcesFile(Strict):
    source: list[SourceEntry] = Field(default_factory=list)


class ClaimsFile(Strict):
    claim: list[ClaimEntry] = Field(default_factory=list)


class ScenariosFile(Strict):
    scenario: list[ScenarioEntry] = Field(default_factory=list)


class OwnershipFile(Strict):
    purchase: list[PurchaseEntry] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class DemoMarket:
    sources: list[SourceEntry]
    providers: list[tuple[str, ProviderFile]]  # (file name, content)
    claims: list[ClaimEntry]
    scenarios: list[ScenarioEntry]
    purchases: list[PurchaseEntry]


T = TypeVar("T", bound=Strict)


def read_toml(path: Path, schema: type[T], origin: str) -> T:
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except FileNotFoundError:
        raise BadInput(f"{origin}: file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{origin}: not valid TOML: {exc}") from None
    try:
        return schema.model_validate(raw)
    except ValidationError as exc:
        raise explain(exc, origin) from None


def load_demo_files(folder: Path) -> DemoMarket:
    """Parse and validate every demo file; raise :class:`BadInput` naming the file and field."""

    def rel(path: Path) -> str:
        return f"imports/demo/{path.relative_to(folder).as_posix()}"

    sources = read_toml(folder / "sources.toml", SourcesFile, rel(folder / "sources.toml")).source
    providers = [
        (rel(path), read_toml(path, ProviderFile, rel(path))) for path in sorted((folder / "providers").glob("*.toml"))
    ]
    claims = read_toml(folder / "claims.toml", ClaimsFile, rel(folder / "claims.toml")).claim
    scenarios = read_toml(folder / "scenarios.toml", ScenariosFile, rel(folder / "scenarios.toml")).scenario
    purchases = read_toml(folder / "ownership.toml", OwnershipFile, rel(folder / "ownership.toml")).purchase
    return DemoMarket(sources, providers, claims, scenarios, purchases)
