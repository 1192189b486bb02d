"""The claims audit over the database: every claimed benchmark and training time, judged."""

from __future__ import annotations

import json
from typing import Any

from quotetui.domain.economics.claims import Audit, Claim, ComparedPrice, audit
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.units import to_gpu_hour
from quotetui.domain.enums import Metric, Provenance
from quotetui.domain.money import plain
from quotetui.store.engine import Database, one_snapshot


def _quoted(offer: OfferInput) -> ComparedPrice:
    option = base_option(offer.options)
    per_hour = to_gpu_hour(q(option.costed_amount), option.unit, offer.gpus_per_node, option.term_months)
    return ComparedPrice(f"{offer.provider} {offer.name}", per_hour, option.currency)


@one_snapshot
def audit_claims(db: Database) -> list[Audit]:
    from sqlmodel import col, select  # the ORM only when the claims are read: listing offers needs none

    from quotetui.services.inputs import gpu_keys, load_offer_inputs
    from quotetui.store.catalog import load_catalog
    from quotetui.store.models import BenchmarkResult, Offer, Provider, Source

    with db.session() as session:
        catalog, _ = load_catalog(session)
        keys = gpu_keys(session)
        rows = session.exec(
            select(BenchmarkResult, Source.title, Provider.name, Offer.name)
            .outerjoin(Source, col(Source.id) == col(BenchmarkResult.source_id))
            .outerjoin(Provider, col(Provider.id) == col(BenchmarkResult.provider_id))
            .outerjoin(Offer, col(Offer.id) == col(BenchmarkResult.offer_id))
            .where(BenchmarkResult.provenance == Provenance.CLAIMED)
            .order_by(col(BenchmarkResult.id))
        ).all()
        compared_ids: dict[int, list[int]] = {}
        for b, *_ in rows:
            if b.metric is Metric.CHEAPER_THAN and b.conditions and b.id is not None and b.offer_id is not None:
                compared_ids[b.id] = [b.offer_id, *json.loads(b.conditions).get("compared_offer_ids", [])]
        needed = {i for ids in compared_ids.values() for i in ids}
        offers = {o.id: o for o in load_offer_inputs(session, needed)} if needed else {}

    audits = []
    for b, source, provider, offer_name in rows:
        assert b.id is not None
        own = compared = None
        if b.id in compared_ids:
            own_id, *others = compared_ids[b.id]
            own = _quoted(offers[own_id]) if own_id in offers else None
            compared = tuple(_quoted(offers[i]) for i in others if i in offers)
        claim = Claim(
            id=b.id,
            metric=b.metric,
            value=b.value,
            unit=b.unit,
            source=source or "",
            value_high=b.value_high,
            qualifier=b.qualifier,
            provider=provider,
            offer=offer_name,
            offer_id=b.offer_id,
            gpu=catalog.get(keys[b.gpu_model_id]) if b.gpu_model_id is not None else None,
            gpu_count=b.gpu_count,
            workload=b.workload,
            model_params=b.model_params,
            tokens=b.tokens,
            flops=b.flops,
            claimed_mfu=b.claimed_mfu,
            quote=b.quote,
            own_price=own,
            compared=compared or (),
        )
        audits.append(audit(claim))
    return audits


def audit_json(a: Audit) -> dict[str, Any]:
    c = a.claim
    return {
        "id": c.id,
        "provider": c.provider,
        "offer": c.offer,
        "metric": c.metric.value,
        "claimed": plain(c.value) + (f"–{plain(c.value_high)}" if c.value_high is not None else ""),
        "qualifier": c.qualifier,
        "unit": c.unit,
        "gpu_model": c.gpu.name if c.gpu else None,
        "gpu_count": c.gpu_count,
        "workload": c.workload,
        "source": c.source,
        "quote": c.quote,
        "implied": None if a.implied is None else plain(a.implied),
        "implied_label": a.implied_label,
        "verdict": a.verdict.value,
        "arithmetic": a.arithmetic,
        "explanation": a.explanation,
    }
