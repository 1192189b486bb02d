"""The claims audit over the database: every claimed benchmark and training time, judged."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.claims import Audit, Claim, ComparedPrice, audit
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.units import to_gpu_hour
from quotetui.domain.enums import Metric, Provenance
from quotetui.domain.money import plain
from quotetui.services.engine_inputs import id_filter, load_catalog_of, offer_inputs
from quotetui.store.reader import reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


def _quoted(offer: OfferInput) -> ComparedPrice:
    option = base_option(offer.options)
    per_hour = to_gpu_hour(q(option.costed_amount), option.unit, offer.gpus_per_node, option.term_months)
    return ComparedPrice(f"{offer.provider} {offer.name}", per_hour, option.currency)


_CLAIMS = (
    "SELECT b.id, b.metric, b.value, b.unit, b.value_high, b.qualifier, b.offer_id, b.gpu_model_id, b.gpu_count, "
    "b.workload, b.model_params, b.tokens, b.flops, b.claimed_mfu, b.quote, b.conditions, s.title, p.name, o.name, "
    "b.provenance FROM benchmark_result b LEFT OUTER JOIN source s ON s.id = b.source_id "
    "LEFT OUTER JOIN provider p ON p.id = b.provider_id LEFT OUTER JOIN offer o ON o.id = b.offer_id "
    "WHERE b.provenance <> :verified"
)
"""Every row but the verified ones: the claims, and a row whose provenance another program changed to a value
quotetui never writes (refused by name when read, never left out of the audit in silence)."""


def audit_claims(db: Database, only: list[int] | None = None) -> list[Audit]:
    """Every claimed figure, judged (``only``: the claims about those offers); read as plain tuples in one
    snapshot (on SQLite without SQLAlchemy)."""
    with reading(db) as reader:
        _, gpus = load_catalog_of(reader)
        where, params = ("", {}) if only is None else id_filter("b.offer_id", only, reader.sqlite, "o")
        sql = _CLAIMS + (" AND " + where if where else "") + " ORDER BY b.id"
        rows = reader.rows(sql, {"verified": Provenance.VERIFIED.value} | params)
        compared_ids: dict[int, list[int]] = {}
        for r in rows:
            Provenance.stored(r[19], f"benchmark_result #{r[0]}, provenance")
            if r[1] == Metric.CHEAPER_THAN.value and r[15] and r[6] is not None:
                compared_ids[r[0]] = [r[6], *json.loads(r[15]).get("compared_offer_ids", [])]
        needed = {i for ids in compared_ids.values() for i in ids}
        offers = {o.id: o for o in offer_inputs(reader, gpus, needed)} if needed else {}

    d = reader.text_decimal
    audits = []
    for r in rows:
        own = compared = None
        if r[0] in compared_ids:
            own_id, *others = compared_ids[r[0]]
            own = _quoted(offers[own_id]) if own_id in offers else None
            compared = tuple(_quoted(offers[i]) for i in others if i in offers)
        claim = Claim(
            id=r[0],
            metric=Metric.stored(r[1], f"benchmark_result #{r[0]}, metric"),
            value=d(r[2]),  # type: ignore[arg-type]
            unit=r[3],
            source=r[16] or "",
            value_high=d(r[4]),
            qualifier=r[5],
            provider=r[17],
            offer=r[18],
            offer_id=r[6],
            gpu=gpus[r[7]] if r[7] is not None else None,
            gpu_count=r[8],
            workload=r[9],
            model_params=d(r[10]),
            tokens=d(r[11]),
            flops=d(r[12]),
            claimed_mfu=d(r[13]),
            quote=r[14],
            own_price=own,
            compared=compared or (),
        )
        audits.append(audit(claim))
    return audits


def audit_json(a: Audit) -> dict[str, Any]:
    c = a.claim
    return {
        "id": c.id,
        "offer_id": c.offer_id,  # None: a market-wide claim
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
