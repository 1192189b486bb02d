"""The claims audit over the database: every claimed benchmark and training time, judged."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.claims import Audit, Claim, ComparedPrice, audit
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.units import to_gpu_hour
from quotetui.domain.enums import Metric, Provenance
from quotetui.domain.errors import DatabaseProblem
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import plain
from quotetui.language import _
from quotetui.services.engine_inputs import id_filter, offer_inputs
from quotetui.store.catalog import load_catalog_of
from quotetui.store.read_model import Column, Rows, fields_of
from quotetui.store.reader import reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


def _quoted(offer: OfferInput) -> ComparedPrice:
    option = base_option(offer.options)
    per_hour = to_gpu_hour(q(option.costed_amount), option.unit, offer.gpus_per_node, option.term_months)
    return ComparedPrice(f"{offer.provider} {offer.name}", per_hour, option.currency)


@functools.cache
def _claim_rows() -> Rows:
    """Every benchmark row but the verified ones, by name: the claims, and a row whose provenance another program
    changed to a value quotetui never writes (refused by name when read, never left out of the audit in silence).
    The exact figures are stored as decimal text (``model_params``, ``claimed_mfu``: ``store/models/evidence.py``)."""
    from quotetui.domain import entities as E

    decimal = ("value", "value_high", "model_params", "tokens", "flops", "claimed_mfu")
    return Rows(
        "ClaimRow",
        "benchmark_result b LEFT OUTER JOIN source s ON s.id = b.source_id "
        "LEFT OUTER JOIN provider p ON p.id = b.provider_id LEFT OUTER JOIN offer o ON o.id = b.offer_id",
        (
            Column("id", "b.id"),
            *fields_of(E.CLAIM, ("provenance", "metric"), "b."),
            *(Column(name, f"b.{name}", "decimal") for name in decimal),
            Column("qualifier", "b.qualifier", "text"),  # kept as written: the audit reads its words
            *fields_of(E.CLAIM, ("unit", "gpu_count", "workload", "quote"), "b."),
            Column("offer_id", "b.offer_id"),
            Column("gpu_model_id", "b.gpu_model_id"),
            Column("conditions", "b.conditions", "json"),
            Column("source", "s.title", "text"),
            Column("provider", "p.name", "text"),
            Column("offer", "o.name", "text"),
        ),
        "benchmark_result",
    )


def audit_claims(db: Database, only: list[int] | None = None) -> list[Audit]:
    """Every claimed figure, judged (``only``: the claims about those offers); read by name in one snapshot (on
    SQLite without SQLAlchemy)."""
    rows = _claim_rows()
    with reading(db) as reader:
        _catalog, gpus = load_catalog_of(reader)
        where, params = ("", {}) if only is None else id_filter("b.offer_id", only, reader.sqlite, "o")
        sql = " WHERE b.provenance <> :verified" + (" AND " + where if where else "") + " ORDER BY b.id"
        claims = list(rows.each(reader, sql, {"verified": Provenance.VERIFIED.value} | params))
        compared_ids: dict[int, list[int]] = {}
        for r in claims:
            if r.metric is Metric.CHEAPER_THAN and r.conditions and r.offer_id is not None:
                compared_ids[r.id] = [r.offer_id, *r.conditions.get("compared_offer_ids", [])]
        needed = {i for ids in compared_ids.values() for i in ids}
        offers = {o.id: o for o in offer_inputs(reader, gpus, needed)} if needed else {}

    audits = []
    for r in claims:
        own = compared = None
        if r.id in compared_ids:
            own_id, *others = compared_ids[r.id]
            own = _quoted(offers[own_id]) if own_id in offers else None
            compared = tuple(_quoted(offers[i]) for i in others if i in offers)
        claim = Claim(
            id=r.id,
            metric=r.metric,
            value=r.value,
            unit=r.unit,
            source=r.source or "",
            value_high=r.value_high,
            qualifier=r.qualifier,
            provider=r.provider,
            offer=r.offer,
            offer_id=r.offer_id,
            gpu=_gpu(gpus, r),
            gpu_count=r.gpu_count,
            workload=r.workload,
            model_params=r.model_params,
            tokens=r.tokens,
            flops=r.flops,
            claimed_mfu=r.claimed_mfu,
            quote=r.quote,
            own_price=own,
            compared=compared or (),
        )
        audits.append(audit(claim))
    return audits


def _gpu(gpus: dict[int, GpuSpec], r: Any) -> GpuSpec | None:
    """The claim's GPU model, or a database problem when its row names one the catalog does not hold."""
    if r.gpu_model_id is None:
        return None
    if r.gpu_model_id not in gpus:
        raise DatabaseProblem(
            _(
                "the database holds GPU model #{gpu} in benchmark_result #{id}, gpu_model_id, which the catalog does "
                "not hold: another program wrote it; correct it there, or restore a backup, and try again"
            ).format(gpu=r.gpu_model_id, id=r.id)
        )
    return gpus[r.gpu_model_id]


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
