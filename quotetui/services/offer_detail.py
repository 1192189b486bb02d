"""One offer with everything recorded about it, for the detail view (its figures come from the engine)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select

from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.domain.verification.findings import Sold
from quotetui.language import _
from quotetui.services.settings import load_assumptions
from quotetui.services.verification import LogOnRecord, offer_logs
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database, one_snapshot
from quotetui.store.models import (
    BenchmarkResult,
    Contract,
    Discount,
    Evidence,
    ExtraCost,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    SlaCreditTier,
    SlaTerm,
    Source,
)


@dataclass(frozen=True, slots=True)
class Round:
    revision: QuoteRevision
    prices: list[RevisionPrice]
    source: str | None


@dataclass(frozen=True, slots=True)
class BenchmarkLine:
    result: BenchmarkResult
    source: str | None
    evidence: Evidence | None


@dataclass(frozen=True, slots=True)
class OfferDetail:
    offer: Offer
    provider: Provider
    gpu: GpuSpec
    source: str | None
    rounds: list[Round]
    discounts: list[Discount]
    extras: list[ExtraCost]
    sla: SlaTerm | None
    credits: list[SlaCreditTier]
    benchmarks: list[BenchmarkLine]
    contracts: list[Contract]
    logs: list[LogOnRecord]
    time_zone: str = "UTC"  # the days of the rounds are shown in it (the user's setting)
    sold: Sold | None = None  # what the rules judge the logs against
    catalog: GpuCatalog | None = None


@one_snapshot
def load_offer_detail(db: Database, offer_id: int) -> OfferDetail:
    with db.session() as session:
        offer = session.get(Offer, offer_id)
        if offer is None:
            raise BadInput(_("no offer with id {id}").format(id=offer_id))
        provider = session.get(Provider, offer.provider_id)
        assert provider is not None
        catalog, ids = load_catalog(session)
        gpu = catalog.get(next(key for key, gid in ids.items() if gid == offer.gpu_model_id))
        titles = {s.id: s.title for s in session.exec(select(Source))}
        revisions = list(
            session.exec(
                select(QuoteRevision).where(QuoteRevision.offer_id == offer_id).order_by(col(QuoteRevision.seq))
            )
        )
        prices = list(
            session.exec(
                select(RevisionPrice)
                .where(col(RevisionPrice.revision_id).in_([r.id for r in revisions]))
                .order_by(col(RevisionPrice.term_months))
            )
        )
        rounds = [Round(r, [p for p in prices if p.revision_id == r.id], titles.get(r.source_id)) for r in revisions]
        sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == offer_id)).first()
        credits = (
            list(
                session.exec(
                    select(SlaCreditTier)
                    .where(SlaCreditTier.sla_term_id == sla.id)
                    .order_by(col(SlaCreditTier.below).desc())
                )
            )
            if sla
            else []
        )
        benchmarks = [
            BenchmarkLine(b, titles.get(b.source_id), session.get(Evidence, b.evidence_id) if b.evidence_id else None)
            for b in session.exec(
                select(BenchmarkResult).where(BenchmarkResult.offer_id == offer_id).order_by(col(BenchmarkResult.id))
            )
        ]
        sold = Sold.of(gpu, offer)
        return OfferDetail(
            sold=sold,
            catalog=catalog,
            time_zone=load_assumptions(session).time_zone,
            logs=offer_logs(db, offer_id, sold),
            offer=offer,
            provider=provider,
            gpu=gpu,
            source=titles.get(offer.source_id),
            rounds=rounds,
            discounts=list(
                session.exec(select(Discount).where(Discount.offer_id == offer_id).order_by(col(Discount.id)))
            ),
            extras=list(
                session.exec(select(ExtraCost).where(ExtraCost.offer_id == offer_id).order_by(col(ExtraCost.id)))
            ),
            sla=sla,
            credits=credits,
            benchmarks=benchmarks,
            contracts=list(session.exec(select(Contract).where(Contract.offer_id == offer_id))),
        )
