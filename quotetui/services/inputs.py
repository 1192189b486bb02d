"""Building the engine's inputs from the database: offers (in bulk), scenarios and FX rates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlmodel import Session, col, select

from quotetui.domain.economics.inputs import (
    DiscountTerm,
    Evidence,
    ExtraTerm,
    OfferInput,
    PriceOption,
    Revision,
    ScenarioInput,
)
from quotetui.domain.enums import Mover
from quotetui.domain.fx import FxRateFact, FxTable
from quotetui.domain.gpus import GpuCatalog
from quotetui.store.catalog import load_catalog
from quotetui.store.models import (
    BenchmarkResult,
    Discount,
    ExtraCost,
    FxRate,
    GpuModel,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    Scenario,
    SlaTerm,
    Source,
)
from quotetui.store.models import (
    Evidence as EvidenceRow,
)

T = TypeVar("T")


def _in(column: Any, ids: list[int] | None) -> Any:
    """``column IN ids``, or no restriction when ``ids`` is None."""
    return sa.true() if ids is None else col(column).in_(ids)


def _scoped(items: list[tuple[int | None, T]], current_id: int | None) -> tuple[T, ...]:
    """Fine print that applies to every round, or to the current round only."""
    return tuple(item for revision_id, item in items if revision_id in (None, current_id))


def load_offer_inputs(session: Session, offer_ids: Iterable[int] | None = None) -> list[OfferInput]:
    """Every offer (or those named) with its revisions, fine print and evidence, in a handful of queries.

    Offers without any price are left out: there is nothing to compute for them yet.
    """
    ids = None if offer_ids is None else list(offer_ids)
    catalog, _ = load_catalog(session)
    keys = gpu_keys(session)

    revisions: dict[int, list[tuple[QuoteRevision, list[PriceOption]]]] = defaultdict(list)
    by_revision: dict[int, list[PriceOption]] = {}
    for rev in session.exec(
        select(QuoteRevision).where(_in(QuoteRevision.offer_id, ids)).order_by(col(QuoteRevision.seq))
    ):
        assert rev.id is not None
        by_revision[rev.id] = []
        revisions[rev.offer_id].append((rev, by_revision[rev.id]))
    prices = select(RevisionPrice).join(QuoteRevision).where(_in(QuoteRevision.offer_id, ids))
    for p in session.exec(prices.order_by(col(RevisionPrice.term_months), col(RevisionPrice.id))):
        by_revision[p.revision_id].append(
            PriceOption(p.term_months, p.unit, p.amount, p.currency, p.amount_high, p.prepay, p.is_estimate, p.note)
        )

    discounts: dict[int, list[tuple[int | None, DiscountTerm]]] = defaultdict(list)
    for d in session.exec(select(Discount).where(_in(Discount.offer_id, ids)).order_by(col(Discount.id))):
        term = DiscountTerm(d.id or 0, d.kind, d.rate, d.min_term_months, d.min_gpus, d.requires_prepay, d.description)
        discounts[d.offer_id].append((d.revision_id, term))
    extras: dict[int, list[tuple[int | None, ExtraTerm]]] = defaultdict(list)
    for x in session.exec(select(ExtraCost).where(_in(ExtraCost.offer_id, ids)).order_by(col(ExtraCost.id))):
        term_x = ExtraTerm(x.id or 0, x.kind, x.basis, x.amount, x.currency, x.refundable, x.description)
        extras[x.offer_id].append((x.revision_id, term_x))
    availability = {
        sla.offer_id: sla.availability for sla in session.exec(select(SlaTerm).where(_in(SlaTerm.offer_id, ids)))
    }
    evidence = _evidence(session, ids)

    result = []
    rows = session.exec(
        select(Offer, Provider.name).join(Provider).where(_in(Offer.id, ids)).order_by(col(Offer.id))
    ).all()
    for offer, provider in rows:
        assert offer.id is not None
        history = revisions.get(offer.id, [])
        priced = [(rev, opts) for rev, opts in history if opts and rev.mover is not Mover.COUNTER]
        if not priced:
            continue
        current, options = priced[-1]

        result.append(
            OfferInput(
                id=offer.id,
                provider=provider,
                name=offer.name,
                gpu=catalog.get(keys[offer.gpu_model_id]),
                gpus_per_node=offer.gpus_per_node,
                billing_basis=offer.billing_basis,
                status=offer.status,
                options=tuple(options),
                nodes_available=offer.nodes_available,
                intra_fabric=offer.intra_fabric,
                inter_fabric=offer.inter_fabric,
                prorata_days=offer.prorata_days,
                is_estimate=offer.is_estimate,
                discounts=_scoped(discounts.get(offer.id, []), current.id),
                extras=_scoped(extras.get(offer.id, []), current.id),
                availability=availability.get(offer.id),
                evidence=tuple(evidence.get(offer.id, [])),
                revisions=tuple(
                    Revision(rev.seq, rev.mover.value, rev.quoted_at.date(), tuple(opts)) for rev, opts in history
                ),
            )
        )
    return result


def _evidence(session: Session, ids: list[int] | None) -> dict[int, list[Evidence]]:
    found: dict[int, list[Evidence]] = defaultdict(list)
    query = (
        select(BenchmarkResult, Source.title, EvidenceRow.tool, EvidenceRow.host)
        .outerjoin(Source, col(Source.id) == col(BenchmarkResult.source_id))
        .outerjoin(EvidenceRow, col(EvidenceRow.id) == col(BenchmarkResult.evidence_id))
        .where(col(BenchmarkResult.offer_id).is_not(None), _in(BenchmarkResult.offer_id, ids))
        .order_by(col(BenchmarkResult.id))
    )
    for b, title, tool, host in session.exec(query):
        origin = title if b.source_id else " on ".join(x for x in (tool, host) if x) or None
        assert b.offer_id is not None and b.id is not None
        found[b.offer_id].append(
            Evidence(b.id, b.provenance, b.metric, b.value, b.value_high, b.qualifier, b.workload, origin)
        )
    return found


def gpu_keys(session: Session) -> dict[int, str]:
    """Catalog key of each GPU model row id."""
    return {row.id: row.key for row in session.exec(select(GpuModel)) if row.id is not None}


def scenario_input(row: Scenario, catalog: GpuCatalog, keys: dict[int, str]) -> ScenarioInput:
    return ScenarioInput(
        name=row.name,
        gpu_count=row.gpu_count,
        months=row.months,
        utilisation=row.utilisation,
        home_currency=row.home_currency,
        egress_tb_month=row.egress_tb_month,
        storage_tb=row.storage_tb,
        train_flops=row.train_flops,
        train_params=row.train_params,
        train_tokens=row.train_tokens,
        gpu=catalog.get(keys[row.gpu_model_id]) if row.gpu_model_id is not None else None,
    )


def fx_table(session: Session, on: date) -> FxTable:
    rates = [FxRateFact(r.base, r.quote, r.rate, r.as_of, r.source) for r in session.exec(select(FxRate))]
    return FxTable(rates, on)
