"""Comparing offers for a scenario: ranking, one offer's figures, and their JSON form."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from quotetui.domain.cancel import EVERY, check_cancelled
from quotetui.domain.economics.costing import OptionCost, base_option
from quotetui.domain.economics.display import amount_text, decimal_text
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate, rank
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import ScenarioInput
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import FxTable
from quotetui.domain.gc_pause import gc_paused
from quotetui.domain.money import Money
from quotetui.domain.timeutil import utcnow
from quotetui.language import _
from quotetui.services.engine_inputs import (
    fx_day,
    fx_table_of,
    load_assumptions_of,
    load_catalog_of,
    load_offer_inputs,
    offer_inputs,
)
from quotetui.services.ranking import Ranking
from quotetui.services.ranking_cache import (
    KEY_DATA_VERSION,
    RANKINGS,
    file_stamp,
    keyed,
    scenario_input,
)
from quotetui.store.engine import Database, one_snapshot
from quotetui.store.reader import reading, session_reader


def resolve_context(db: Database, scenario: str | None, on: date | None) -> tuple[ScenarioInput, FxTable, date]:
    day = on or utcnow().date()
    with reading(db) as reader:
        _catalog, gpus = load_catalog_of(reader)
        return scenario_input(db, reader, scenario, gpus), fx_table_of(reader, fx_day(day)), day


def rank_offers(
    db: Database,
    scenario: str | None = None,
    gpu: str | None = None,
    on: date | None = None,
    *,
    history: bool = True,
    stamp: Hashable | None = None,
) -> Ranking:
    """Every priced offer evaluated for the scenario, best first; offers that cannot be compared
    (an FX rate missing) are listed with the reason instead of being silently converted.

    Read as plain tuples in one snapshot (the caller's, else its own: ``store/reader.py: reading``; on SQLite
    without SQLAlchemy), the cyclic GC paused while tens of thousands of objects are made;
    kept in this process under the data version and everything else the figures depend on
    (``services/ranking_cache.py``), so asking again before anything changed is instant."""
    day = on or utcnow().date()
    if stamp is None:  # else the caller's, taken before the first read of the snapshot it calls this in
        stamp = file_stamp(db)  # before the snapshot's first read: a later write is then a new stamp
    with reading(db) as reader, gc_paused():
        catalog, gpus, scenario_input, key = keyed(db, reader, stamp, scenario, gpu, day, history)
        version = key[KEY_DATA_VERSION]
        cached = RANKINGS.get(key)
        if cached is not None:
            return cached
        fx = fx_table_of(reader, fx_day(day))
        assumptions = load_assumptions_of(reader)
        offers = offer_inputs(reader, gpus, history=history)
        if gpu is not None:
            key_of_gpu = catalog.lookup(gpu).key
            offers = [o for o in offers if o.gpu.key == key_of_gpu]
        evaluations, skipped = [], []
        for n, offer in enumerate(offers):
            if not n % EVERY:
                check_cancelled()  # the TUI quit meanwhile: nothing is cached
            try:
                evaluations.append(evaluate(offer, scenario_input, fx, assumptions))
            except NOT_COMPARABLE as exc:
                skipped.append((offer, str(exc)))
        ranking = Ranking(scenario_input, day, rank(evaluations), skipped, fx, assumptions, version, key)
        RANKINGS.put(key, ranking)
        return ranking


@one_snapshot
def evaluate_offer(
    db: Database,
    offer_id: int,
    scenario: str | None = None,
    on: date | None = None,
    full_use_months: int | None = None,
    gpus: int | None = None,
) -> Evaluation:
    """One offer for the scenario; ``full_use_months`` re-costs it busy every hour for that many months, for
    ``gpus`` GPUs (default with it: one node of the offer)."""
    scenario_input, fx, _day = resolve_context(db, scenario, on)
    if full_use_months is not None:
        scenario_input = replace(scenario_input, utilisation=Decimal(1), months=full_use_months)
    with db.session() as session:
        offers = load_offer_inputs(session, [offer_id])
        assumptions = load_assumptions_of(session_reader(session))
    if not offers:
        raise BadInput(_("no priced offer with id {id}; `quotetui offers` lists them").format(id=offer_id))
    if full_use_months is not None or gpus is not None:
        scenario_input = replace(scenario_input, gpu_count=gpus or offers[0].gpus_per_node)
    return evaluate(offers[0], scenario_input, fx, assumptions)


def exact_values(values: dict[str, Any]) -> dict[str, Any]:
    """A parsed record for the engine: its decimals as exact fractions (``parse_record`` gives Decimals)."""
    return {k: q(v) if isinstance(v, Decimal) else v for k, v in values.items()}


def _segment_json(c: OptionCost, currency: str) -> dict[str, Any]:
    return {
        "term": c.option.label,
        "term_months": c.option.term_months,
        "months_covered": c.months,
        "billed_months": c.billed_months,
        "compute": amount_text(c.compute_total, currency),
    }


def evaluation_json(e: Evaluation, position: int | None = None) -> dict[str, Any]:
    best, cur = e.best, e.currency
    base = base_option(e.offer.options)
    return {
        "rank": position,
        "id": e.offer.id,
        "provider": e.offer.provider,
        "name": e.offer.name,
        "gpu_model": e.offer.gpu.name,
        "gpus_per_node": e.offer.gpus_per_node,
        "billing_basis": e.offer.billing_basis.value,
        "status": e.offer.status.value,
        "currency": e.currency,
        "quoted_price": {
            "amount": Money(base.amount, base.currency).text(),
            "amount_high": None if base.amount_high is None else Money(base.amount_high, base.currency).text(),
            "currency": base.currency,
            "unit": base.unit.value,
            "term_months": base.term_months,
            "is_estimate": base.is_estimate,
        },
        "is_estimate": bool(e.estimates),  # the figures below, not only the headline price
        "estimates": list(e.estimates),
        "quoted_price_per_gpu_hour": {
            "amount": amount_text(e.quoted_gpu_hour, e.offer.currency),
            "currency": e.offer.currency,
        },
        "price_per_gpu_hour": amount_text(e.price_per_gpu_hour, cur),
        "monthly_cost": amount_text(best.monthly, cur),
        "total_cost": amount_text(best.total, cur),
        "committed_total": amount_text(best.total, cur),  # what the need commits to, whole terms included
        "billed_months": best.billed_months,
        "annualized_tco": amount_text(e.annualised_tco, cur),
        "cost_per_gpu_hour": amount_text(e.cost_per_gpu_hour, cur),
        "cost_per_pflop_hour": amount_text(e.cost_per_pflop_hour, cur),
        "cost_per_pflop_hour_if_claims_hold": None  # unverified claims as stated: never ranked on
        if e.if_claims_hold is None
        else amount_text(e.if_claims_hold, cur),
        "mfu_if_claims_hold": None  # the claimed MFU × its scaling, where a claim differs from the ranking's
        if e.claimed_mfu is None
        else decimal_text(e.claimed_mfu.value * (e.claimed_scaling or e.scaling).value, 6),
        "availability_if_claims_hold": None  # an SLA's availability without a credit schedule
        if e.claimed_availability is None
        else decimal_text(e.claimed_availability.value, 6),
        "mfu": decimal_text(e.effective_mfu, 6),  # the MFU the ranking uses: chosen × scaling
        "mfu_scaling": decimal_text(e.scaling.value, 6),
        "mfu_scaling_note": e.scaling.note,
        "mfu_source": e.mfu.source,
        "mfu_note": e.mfu.note,
        "availability": decimal_text(e.availability.value, 6),
        "availability_source": e.availability.source,
        "downtime_hours_per_year": decimal_text(e.downtime_hours_per_year, 2),
        "best_option": {
            "term": best.label,
            "term_months": best.option.term_months,
            "billed_months": best.billed_months,
            "total": amount_text(best.total, cur),
            "mixed": [_segment_json(seg, cur) for seg in best.segments],  # empty: one option alone
        },
        "term_options": [
            {
                "term": c.label,
                "term_months": c.option.term_months,
                "total": amount_text(c.total, cur),
                "per_year": amount_text(c.per_year, cur),
            }
            for c in e.options
        ],
        "nodes": e.nodes,
        "feasible": e.feasibility.ok,
        "blocking": list(e.feasibility.blocking),
        "warnings": list(e.feasibility.warnings),
        "questions": list(e.feasibility.questions),  # feasible only once answered: ranked after the confirmed
        "feasibility": e.feasibility.state,
        "unknown_costs": list(e.unknowns),
        "assumptions": {
            "hours_per_month": e.assumptions.hours_per_month,
            "default_mfu": decimal_text(e.assumptions.default_mfu),
            "default_availability": decimal_text(e.assumptions.default_availability),
            "time_zone": e.assumptions.time_zone,
            "discount_rate": decimal_text(e.assumptions.discount_rate),
            "net_of_vat": e.assumptions.net_of_vat,
        },
        "vat": {
            "rate": None if e.offer.vat_rate is None else decimal_text(q(e.offer.vat_rate)),
            "special_invoice": e.offer.special_invoice,
            "recovered": e.assumptions.vat_factor(e.offer.vat_rate, e.offer.special_invoice) != 1,
        },
        "lower_bound": e.lower_bound,  # a cost the scenario incurs is not priced: the cost figures are minimums
        "fx": best.fx.text() if best.fx else None,
    }


def ranking_json(r: Ranking) -> dict[str, Any]:
    return {
        "scenario": r.scenario.name,
        "as_of": r.on.isoformat(),
        "currency": r.scenario.home_currency,
        "offers": [evaluation_json(e, i) for i, e in r.ranked],
        "not_compared": [{"id": o.id, "provider": o.provider, "name": o.name, "reason": why} for o, why in r.skipped],
    }


__all__ = [
    "Ranking",
    "decimal_text",
    "evaluate_offer",
    "evaluation_json",
    "q",
    "rank_offers",
    "ranking_json",
]
