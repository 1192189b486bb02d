"""Building the engine's inputs from the database: offers (in bulk), scenarios and FX rates."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlmodel import Session, select

from quotetui.domain.economics.inputs import (
    DiscountTerm,
    Evidence,
    ExtraTerm,
    OfferInput,
    PriceOption,
    Revision,
    ScenarioInput,
)
from quotetui.domain.economics.rounds import current_round
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


def _scoped(items: list[tuple[int | None, T]], current_id: int | None) -> tuple[T, ...]:
    """Fine print that applies to every round, or to the current round only."""
    return tuple(item for revision_id, item in items if revision_id in (None, current_id))


def _table(model: type) -> sa.Table:
    return model.__table__  # type: ignore[attr-defined]


def _rows(
    model: type,
    *names: str,
    session: Session,
    ids: list[int] | None,
    by: str = "offer_id",
    extra: tuple[Any, ...] = (),
    joins: tuple[tuple[sa.Table, Any], ...] = (),
    order: tuple[str, ...] = ("id",),
) -> list[Any]:
    """Plain rows of ``model``'s named columns (no ORM objects: they cost ~20 µs each at 10,000 offers),
    restricted to ``ids`` through the ``by`` column when ids are given."""
    table = _table(model)
    query = sa.select(*(table.c[n] for n in names), *extra)
    frm: Any = table
    for other, on in joins:
        frm = frm.outerjoin(other, on)
    query = query.select_from(frm)
    if ids is not None:
        query = query.where(table.c[by].in_(ids))
    return list(session.execute(query.order_by(*(table.c[n] for n in order))).all())


def load_offer_inputs(
    session: Session, offer_ids: Iterable[int] | None = None, *, history: bool = True
) -> list[OfferInput]:
    """Every offer (or those named) with its revisions, fine print and evidence, in a handful of queries.

    Offers without any price are left out: there is nothing to compute for them yet. ``history=False``
    keeps only the current round (rankings need no more; at 10,000 offers it saves ~15 MiB).
    """
    ids = None if offer_ids is None else list(offer_ids)
    catalog, _ = load_catalog(session)
    keys = gpu_keys(session)

    revisions: dict[int, list[tuple[Any, list[PriceOption]]]] = defaultdict(list)
    by_revision: dict[int, list[PriceOption]] = {}
    for rev in _rows(
        QuoteRevision,
        "id",
        "offer_id",
        "seq",
        "mover",
        "quoted_at",
        "is_estimate",
        session=session,
        ids=ids,
        order=("offer_id", "seq"),
    ):
        by_revision[rev.id] = []
        revisions[rev.offer_id].append((rev, by_revision[rev.id]))
    price_ids = None if ids is None else list(by_revision)
    for p in _rows(
        RevisionPrice,
        "revision_id",
        "term_months",
        "unit",
        "amount",
        "currency",
        "amount_high",
        "prepay",
        "is_estimate",
        "note",
        session=session,
        ids=price_ids,
        by="revision_id",
        order=("term_months", "id"),
    ):
        by_revision[p.revision_id].append(
            PriceOption(p.term_months, p.unit, p.amount, p.currency, p.amount_high, p.prepay, p.is_estimate, p.note)
        )

    discounts: dict[int, list[tuple[int | None, DiscountTerm]]] = defaultdict(list)
    for d in _rows(
        Discount,
        "id",
        "offer_id",
        "revision_id",
        "kind",
        "rate",
        "min_term_months",
        "min_gpus",
        "requires_prepay",
        "description",
        session=session,
        ids=ids,
    ):
        term = DiscountTerm(d.id, d.kind, d.rate, d.min_term_months, d.min_gpus, d.requires_prepay, d.description)
        discounts[d.offer_id].append((d.revision_id, term))
    extras: dict[int, list[tuple[int | None, ExtraTerm]]] = defaultdict(list)
    for x in _rows(
        ExtraCost,
        "id",
        "offer_id",
        "revision_id",
        "kind",
        "basis",
        "amount",
        "currency",
        "refundable",
        "description",
        session=session,
        ids=ids,
    ):
        term_x = ExtraTerm(x.id, x.kind, x.basis, x.amount, x.currency, x.refundable, x.description)
        extras[x.offer_id].append((x.revision_id, term_x))
    availability = {
        r.offer_id: r.availability for r in _rows(SlaTerm, "offer_id", "availability", session=session, ids=ids)
    }
    evidence = _evidence(session, ids)

    providers = _table(Provider)
    result = []
    for o in _rows(
        Offer,
        "id",
        "name",
        "form_factor",
        "region",
        "valid_until",
        "gpu_model_id",
        "gpus_per_node",
        "billing_basis",
        "status",
        "nodes_available",
        "intra_fabric",
        "inter_fabric",
        "inter_gbps_per_gpu",
        "prorata_days",
        "vat_rate",
        "special_invoice",
        "is_estimate",
        session=session,
        ids=ids,
        by="id",
        extra=(providers.c.name.label("provider"), providers.c.kind.label("provider_kind")),
        joins=((providers, providers.c.id == _table(Offer).c.provider_id),),
    ):
        rounds = revisions.get(o.id, [])
        found = current_round(rounds, lambda r: r[0].mover, lambda r: bool(r[1]))
        if found is None:
            continue
        current, options = found
        result.append(
            OfferInput(
                id=o.id,
                provider=o.provider,
                name=o.name,
                gpu=catalog.get(keys[o.gpu_model_id]),
                gpus_per_node=o.gpus_per_node,
                billing_basis=o.billing_basis,
                status=o.status,
                options=tuple(options),
                nodes_available=o.nodes_available,
                intra_fabric=o.intra_fabric,
                inter_fabric=o.inter_fabric,
                inter_gbps_per_gpu=o.inter_gbps_per_gpu,
                prorata_days=o.prorata_days,
                quoted_at=current.quoted_at,
                vat_rate=o.vat_rate,
                special_invoice=bool(o.special_invoice),
                is_estimate=o.is_estimate,
                round_is_estimate=bool(current.is_estimate),
                discounts=_scoped(discounts.get(o.id, []), current.id),
                extras=_scoped(extras.get(o.id, []), current.id),
                availability=availability.get(o.id),
                evidence=tuple(evidence.get(o.id, [])),
                revisions=tuple(
                    Revision(rev.seq, rev.mover.value, rev.quoted_at.date(), tuple(opts))
                    for rev, opts in (rounds if history else ())
                ),
                provider_kind=o.provider_kind.value,
                form_factor=o.form_factor.value,
                region=o.region,
                valid_until=o.valid_until,
            )
        )
    return result


def _evidence(session: Session, ids: list[int] | None) -> dict[int, list[Evidence]]:
    found: dict[int, list[Evidence]] = defaultdict(list)
    sources, logs, results = _table(Source), _table(EvidenceRow), _table(BenchmarkResult)
    rows = _rows(
        BenchmarkResult,
        "id",
        "offer_id",
        "provenance",
        "metric",
        "value",
        "value_high",
        "qualifier",
        "workload",
        "source_id",
        "gpu_count",
        "model_params",
        session=session,
        ids=ids,
        extra=(sources.c.title, logs.c.tool, logs.c.host),
        joins=((sources, sources.c.id == results.c.source_id), (logs, logs.c.id == results.c.evidence_id)),
    )
    for b in rows:
        if b.offer_id is None:
            continue
        origin = b.title if b.source_id else " on ".join(x for x in (b.tool, b.host) if x) or None
        found[b.offer_id].append(
            Evidence(
                b.id,
                b.provenance,
                b.metric,
                b.value,
                b.value_high,
                b.qualifier,
                b.workload,
                origin,
                b.gpu_count,
                b.model_params,
            )
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
