"""Read models of the market for listings: providers, offers with their current price, GPUs.

The *current price* of an offer is the first price option (shortest term) of its latest revision
that the provider put forward (list, provider or final; never our own counter-offer).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, func, select

from quotetui.domain.enums import Mover
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import Money, plain
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database, one_snapshot
from quotetui.store.models import GpuModel, Offer, Provider, QuoteRevision, RevisionPrice

UNIT_LABELS = {
    "gpu_hour": "/GPU-h",
    "node_hour": "/node-h",
    "gpu_month": "/GPU-month",
    "node_month": "/node-month",
    "term_total": "/term",
}


@dataclass(frozen=True, slots=True)
class PriceView:
    amount: Money
    amount_high: Money | None
    unit: str
    term_months: int
    is_estimate: bool

    def amount_text(self) -> str:
        """``88,000`` or ``80,000–120,000``, with ``~`` in front of an estimate."""
        high = f"–{self.amount_high.display()}" if self.amount_high is not None else ""
        return f"{'~' if self.is_estimate else ''}{self.amount.display()}{high}"

    def unit_text(self) -> str:
        return f"{self.amount.currency}{UNIT_LABELS[self.unit]}"

    def text(self) -> str:
        return f"{self.amount_text()} {self.unit_text()}"

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.amount.text(),
            "amount_high": self.amount_high.text() if self.amount_high is not None else None,
            "currency": self.amount.currency,
            "unit": self.unit,
            "term_months": self.term_months,
            "is_estimate": self.is_estimate,
        }


@dataclass(frozen=True, slots=True)
class ProviderView:
    id: int
    name: str
    kind: str
    parent: str | None
    regions: list[str]
    certifications: list[str]
    offers: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "parent": self.parent,
            "regions": self.regions,
            "certifications": self.certifications,
            "offers": self.offers,
        }


@dataclass(frozen=True, slots=True)
class OfferView:
    id: int
    provider: str
    name: str
    gpu: str
    gpus_per_node: int
    form_factor: str
    billing_basis: str
    status: str
    valid_until: date | None
    is_estimate: bool
    price: PriceView | None
    revisions: int
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "provider": self.provider,
            "name": self.name,
            "gpu": self.gpu,
            "gpus_per_node": self.gpus_per_node,
            "form_factor": self.form_factor,
            "billing_basis": self.billing_basis,
            "status": self.status,
            "valid_until": self.valid_until.isoformat() if self.valid_until else None,
            "is_estimate": self.is_estimate,
            "price": self.price.to_json() if self.price else None,
            "revisions": self.revisions,
            "updated_at": self.updated_at.isoformat(),
        }


@one_snapshot
def list_providers(db: Database) -> list[ProviderView]:
    with db.session() as session:
        counts = dict(session.exec(select(Offer.provider_id, func.count()).group_by(col(Offer.provider_id))).all())
        return [
            ProviderView(
                p.id or 0,
                p.name,
                p.kind.value,
                p.parent,
                list(p.regions),
                list(p.certifications),
                counts.get(p.id or 0, 0),
            )
            for p in session.exec(select(Provider).order_by(col(Provider.id)))
        ]


def _current_prices(session: Session) -> tuple[dict[int, PriceView], dict[int, int]]:
    """Per offer id: its current price, and its number of revisions. Two queries for all offers."""
    counted = select(QuoteRevision.offer_id, func.count()).group_by(col(QuoteRevision.offer_id))
    revisions = {offer_id: n for offer_id, n in session.exec(counted).all()}
    latest = (
        select(QuoteRevision.offer_id, func.max(QuoteRevision.seq).label("seq"))
        .where(col(QuoteRevision.mover) != Mover.COUNTER)
        .group_by(col(QuoteRevision.offer_id))
        .subquery()
    )
    rows = session.exec(
        select(QuoteRevision.offer_id, RevisionPrice)
        .join(latest, (col(QuoteRevision.offer_id) == latest.c.offer_id) & (col(QuoteRevision.seq) == latest.c.seq))
        .join(RevisionPrice, col(RevisionPrice.revision_id) == col(QuoteRevision.id))
        .order_by(col(RevisionPrice.term_months), col(RevisionPrice.id))
    ).all()
    prices: dict[int, PriceView] = {}
    for offer_id, p in rows:
        if offer_id in prices:
            continue
        high = Money(p.amount_high, p.currency) if p.amount_high is not None else None
        prices[offer_id] = PriceView(Money(p.amount, p.currency), high, p.unit.value, p.term_months, p.is_estimate)
    return prices, revisions


def list_offers(db: Database) -> list[OfferView]:
    with db.session() as session:
        prices, revisions = _current_prices(session)
        rows = session.exec(
            select(Offer, Provider.name, GpuModel.name)
            .join(Provider, col(Provider.id) == col(Offer.provider_id))
            .join(GpuModel, col(GpuModel.id) == col(Offer.gpu_model_id))
            .order_by(col(Offer.id))
        ).all()
        return [
            OfferView(
                o.id or 0,
                provider,
                o.name,
                gpu,
                o.gpus_per_node,
                o.form_factor.value,
                o.billing_basis.value,
                o.status.value,
                o.valid_until,
                o.is_estimate,
                prices.get(o.id or 0),
                revisions.get(o.id or 0, 0),
                o.updated_at,
            )
            for o, provider, gpu in rows
        ]


def list_gpus(db: Database) -> list[GpuSpec]:
    with db.session() as session:
        catalog, _ = load_catalog(session)
    return list(catalog)


def gpu_to_json(spec: GpuSpec) -> dict[str, Any]:
    def num(value: Decimal | None) -> str | None:
        return None if value is None else plain(value)

    return {
        "key": spec.key,
        "name": spec.name,
        "form_factor": spec.form_factor.value,
        "memory_gb": spec.memory_gb,
        "memory_type": spec.memory_type,
        "memory_bw_tbs": num(spec.memory_bw_tbs),
        "bf16_tflops": num(spec.bf16_tflops),
        "fp8_tflops": num(spec.fp8_tflops),
        "fp64_tflops": num(spec.fp64_tflops),
        "nvlink_gbs": spec.nvlink_gbs,
        "nvlink_note": spec.nvlink_note,
        "tdp_w": spec.tdp_w,
        "topo_signature": spec.topo_signature,
        "consumer": spec.consumer,
        "nvidia_smi_memory_mib": spec.smi_memory_mib,
        "aliases": list(dict.fromkeys(spec.aliases)),
    }
