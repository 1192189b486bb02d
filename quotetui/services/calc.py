"""Calculators: training-run planner, rent vs buy, term choice (scripting CLI and TUI calculators)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.economics.assumptions import MFU_IMPOSSIBLE, MFU_OPTIMISTIC, Assumptions
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats
from quotetui.domain.economics.claims import Verdict
from quotetui.domain.economics.display import amount_text, decimal_text
from quotetui.domain.economics.evaluate import Assumed, choose_mfu, offer_estimates, require_priced
from quotetui.domain.economics.exact import dec, pct, percent_text, q
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.scaling import job_scaling
from quotetui.domain.economics.terms import TermComparison, compare_terms
from quotetui.domain.economics.training import (
    RunCost,
    TrainingPlan,
    cost_run,
    implied_mfu,
    plan_training,
    training_flops,
)
from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.errors import BadInput, FieldErrors, QuotetuiError
from quotetui.domain.fields import parse_record, parse_value
from quotetui.domain.fx import FxTable
from quotetui.domain.money import plain
from quotetui.domain.timeutil import utcnow
from quotetui.language import _
from quotetui.services.caveats import offers_caveats
from quotetui.services.economics import exact_values
from quotetui.services.engine_inputs import fx_day, fx_table, load_offer_inputs
from quotetui.services.settings import load_assumptions
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class TrainResult:
    plan: TrainingPlan
    costs: list[RunCost]
    offer: str | None
    claimed_days: Fraction | None
    caveats: Caveats = NO_CAVEATS  # the offer's (its critical findings, a lapsed quote): every cost carries them

    def cost_caveats(self, c: RunCost) -> Caveats:
        """A cost of the run under one option: the offer's caveats, and an estimate where its price is one."""
        if not c.option.is_estimate:
            return self.caveats
        estimate = _("the {way} price is an estimate").format(way=c.option.shown)
        return replace(self.caveats, estimates=(*self.caveats.estimates, estimate))

    @property
    def implied_mfu(self) -> Fraction | None:
        if self.claimed_days is None:
            return None
        return implied_mfu(self.plan.flops, self.plan.gpus, self.plan.gpu, self.claimed_days, self.plan.scaling.value)

    @property
    def verdict(self) -> Verdict | None:
        m = self.implied_mfu
        if m is None:
            return None
        if m > MFU_IMPOSSIBLE:
            return Verdict.IMPOSSIBLE
        return Verdict.OPTIMISTIC if m > MFU_OPTIMISTIC else Verdict.PLAUSIBLE

    def to_json(self) -> dict[str, Any]:
        p = self.plan
        implied = self.implied_mfu
        return {
            "flops": str(dec(p.flops, 0).normalize()),
            "flops_source": p.flops_source,
            "gpu_model": p.gpu.name,
            "gpus": p.gpus,
            "mfu": decimal_text(p.mfu.value),
            "mfu_source": p.mfu.source,
            "mfu_note": p.mfu.note,
            "scaling": decimal_text(p.scaling.value),
            "scaling_source": p.scaling.source,
            "scaling_note": p.scaling.note,
            "wall_seconds": decimal_text(p.seconds, 0),
            "wall_hours": decimal_text(p.wall_hours, 2),
            "wall_days": decimal_text(p.wall_days, 2),
            "gpu_hours": decimal_text(p.gpu_hours, 2),
            "arithmetic": p.arithmetic(),
            "offer": self.offer,
            "cost": None
            if not self.costs
            else {
                "cheapest": amount_text(self.costs[0].total, self.costs[0].currency),
                "currency": self.costs[0].currency,
                "options": [
                    {
                        "term": c.option.label,
                        "billed": c.billed,
                        "nodes": c.nodes,
                        "total": amount_text(c.total, c.currency),
                        "caveats": self.cost_caveats(c).to_json(),
                    }
                    for c in self.costs
                ],
            },
            "claimed_days": None if self.claimed_days is None else decimal_text(self.claimed_days),
            "implied_mfu": None if implied is None else decimal_text(implied),
            "verdict": None if self.verdict is None else self.verdict.value,
        }


def _mfu_and_scaling(
    mfu: Fraction | None,
    scaling: Fraction | None,
    offer: OfferInput | None,
    gpus: int,
    assumptions: Assumptions,
    params: Fraction | None = None,
) -> tuple[Assumed, Assumed]:
    """The MFU a plan rests on (given, else the offer's evidence, else the default) and the scaling applied on
    top of it (given, else 1.0 for a whole-job MFU, the fabric's efficiency for a smaller-scale measurement)."""
    if mfu is not None:
        chosen = Assumed(mfu, "given", _("{share} given (a whole-job MFU)").format(share=percent_text(mfu, 1)))
    elif offer is not None:
        chosen = choose_mfu(offer.evidence, assumptions, offer.gpu.bf16_tflops, params)
    else:
        chosen = choose_mfu((), assumptions)
    if scaling is not None:
        return chosen, Assumed(scaling, "given", _("{share} given").format(share=percent_text(scaling, 1)))
    if offer is None:
        return chosen, job_scaling(chosen, gpus, None, IntraFabric.NVSWITCH, InterFabric.UNKNOWN)
    return chosen, job_scaling(chosen, gpus, offer.gpus_per_node, offer.intra_fabric, offer.inter_fabric)


def calc_train(
    db: Database,
    *,
    gpus: int | str,
    flops: str | None = None,
    params: str | None = None,
    tokens: str | None = None,
    gpu: str | None = None,
    mfu: str | None = None,
    scaling: str | None = None,
    offer_id: int | None = None,
    claimed_days: str | None = None,
) -> TrainResult:
    raw = {"gpus": gpus, "flops": flops, "params": params, "tokens": tokens, "mfu": mfu, "scaling": scaling}
    v = exact_values(parse_record(E.TRAIN, raw | {"claimed_days": claimed_days}))
    total, source = training_flops(v["flops"], v["params"], v["tokens"])
    mfu_value, scaling_value, days, gpus = v["mfu"], v["scaling"], v["claimed_days"], int(v["gpus"])
    with db.session() as session:
        assumptions = load_assumptions(session)
        catalog, _ids = load_catalog(session)
        spec = catalog.lookup(gpu) if gpu is not None else None
        offer = None
        if offer_id is not None:
            found = load_offer_inputs(session, [offer_id])
            if not found:
                raise BadInput(_("no priced offer with id {id}; `quotetui offers` lists them").format(id=offer_id))
            offer = found[0]
            if spec is not None and spec.key != offer.gpu.key:
                raise BadInput(
                    _("offer {id} sells {gpu}, not {wanted}").format(id=offer_id, gpu=offer.gpu.name, wanted=spec.name)
                )
            spec = require_priced(offer).gpu
        fx = fx_table(session, fx_day(utcnow().date()))
    if spec is None:
        raise BadInput(_("name the GPU with --gpu MODEL, or give --offer ID"))
    chosen_mfu, chosen_scaling = _mfu_and_scaling(mfu_value, scaling_value, offer, gpus, assumptions, v["params"])
    plan = plan_training(total, source, gpus, spec, chosen_mfu, chosen_scaling)
    costs = cost_run(plan, offer, fx, offer.currency, assumptions) if offer is not None else []
    label = f"#{offer.id} {offer.provider} {offer.name}" if offer is not None else None
    if offer is None:
        return TrainResult(plan, costs, label, days)
    held = offers_caveats(db, [offer], offer.currency, utcnow().date(), fx)[offer.id]
    held = replace(held, estimates=(*held.estimates, *offer_estimates(offer)))  # the offer's own, as ranked
    return TrainResult(plan, costs, label, days, held)


TERM_FLAGS = {"monthly": 1, "quarterly": 3, "half_year": 6, "annual": 12, "two_year": 24, "three_year": 36}


def calc_term(
    prices: dict[str, str | None], discount_rate: str | None = None, assumptions: Assumptions | None = None
) -> TermComparison:
    """``discount_rate`` typed, else the setting's (``assumptions``), else none."""
    v = exact_values(parse_record(E.TERM_PRICES, prices))
    rate_field = E.RENT_BUY.field("discount_rate")
    try:
        rate = q(parse_value(rate_field, discount_rate)) if discount_rate is not None else None
    except BadInput as exc:
        raise FieldErrors({"discount_rate": str(exc)}) from None
    if rate is None:
        rate = assumptions.discount_rate if assumptions is not None else Fraction(0)
    return compare_terms({TERM_FLAGS[k]: value for k, value in v.items() if value is not None}, rate)


def term_json(t: TermComparison, currency: str | None) -> dict[str, Any]:
    def money(value: Fraction) -> str:
        return amount_text(value, currency) if currency else decimal_text(value)

    return {
        "currency": currency,
        "options": [
            {
                "term": o.name,
                "months": o.months,
                "price": money(o.price),
                "per_month": money(o.per_month),
                "per_year": money(o.per_year),
            }
            for o in t.options
        ],
        "cheapest": t.cheapest.name,
        "cheapest_per_year": money(t.cheapest.per_year),
        "baseline": t.baseline.name,
        "saving_pct": plain(pct(t.saving, 4)),
        "discount_rate": decimal_text(t.discount_rate),
        "horizon_months": t.horizon,
        "pv_saving_pct": plain(pct(t.pv_saving, 4)),
    }


@dataclass(frozen=True, slots=True)
class OfferRun:
    """A training run planned on one offer: its own MFU evidence and fabric, its billing."""

    offer: OfferInput
    plan: TrainingPlan
    costs: list[RunCost]

    @property
    def cheapest(self) -> RunCost | None:
        return self.costs[0] if self.costs else None


def training_runs(
    offers: list[OfferInput],
    *,
    gpus: int | str,
    flops: str | None = None,
    params: str | None = None,
    tokens: str | None = None,
    mfu: str | None = None,
    scaling: str | None = None,
    fx: FxTable,
    currency: str,
    assumptions: Assumptions,
) -> tuple[list[OfferRun], list[tuple[OfferInput, str]]]:
    """The same run on each offer, cheapest first; offers it cannot run on are returned with the reason."""
    raw = {"gpus": gpus, "flops": flops, "params": params, "tokens": tokens, "mfu": mfu, "scaling": scaling}
    v = exact_values(parse_record(E.TRAIN, raw))
    total, source = training_flops(v["flops"], v["params"], v["tokens"])
    mfu_value, scaling_value, gpus = v["mfu"], v["scaling"], int(v["gpus"])
    runs, skipped = [], []
    for offer in offers:
        try:
            chosen = _mfu_and_scaling(mfu_value, scaling_value, offer, gpus, assumptions, v["params"])
            chosen_mfu, chosen_scaling = chosen
            plan = plan_training(total, source, gpus, offer.gpu, chosen_mfu, chosen_scaling)
            runs.append(OfferRun(offer, plan, cost_run(plan, offer, fx, currency, assumptions)))
        except QuotetuiError as exc:
            skipped.append((offer, str(exc)))
    runs.sort(key=lambda r: (r.cheapest.total if r.cheapest else Fraction(10**30), r.plan.seconds))
    return runs, skipped
