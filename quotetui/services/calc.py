"""Calculators: training-run planner, rent vs buy, term choice (scripting CLI and TUI calculators)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.currency import currency_code
from quotetui.domain.economics.assumptions import MFU_IMPOSSIBLE, MFU_OPTIMISTIC, Assumptions
from quotetui.domain.economics.claims import Verdict
from quotetui.domain.economics.evaluate import Assumed, choose_mfu, require_priced, unpriced_costs
from quotetui.domain.economics.exact import ceil, dec, pct, q
from quotetui.domain.economics.explain import LOWER_BOUND
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.rentbuy import RentBuyInput, RentBuyResult, RentPlan, rent_plan, rent_vs_buy
from quotetui.domain.economics.terms import TermComparison, compare_terms
from quotetui.domain.economics.training import (
    RunCost,
    TrainingPlan,
    cost_run,
    implied_mfu,
    job_scaling,
    plan_training,
    training_flops,
)
from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.errors import BadInput, FieldErrors, QuotetuiError
from quotetui.domain.fields import parse_record, parse_value
from quotetui.domain.fx import FxTable
from quotetui.domain.money import plain
from quotetui.domain.timeutil import utcnow
from quotetui.services.economics import amount_text, decimal_text, evaluate_offer
from quotetui.services.inputs import fx_table, load_offer_inputs
from quotetui.services.settings import load_assumptions
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class TrainResult:
    plan: TrainingPlan
    costs: list[RunCost]
    offer: str | None
    claimed_days: Fraction | None

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
                    }
                    for c in self.costs
                ],
            },
            "claimed_days": None if self.claimed_days is None else decimal_text(self.claimed_days),
            "implied_mfu": None if implied is None else decimal_text(implied),
            "verdict": None if self.verdict is None else self.verdict.value,
        }


def _mfu_and_scaling(
    mfu: Fraction | None, scaling: Fraction | None, offer: OfferInput | None, gpus: int, assumptions: Assumptions
) -> tuple[Assumed, Assumed]:
    """The MFU a plan rests on (given, else the offer's evidence, else the default) and the scaling applied on
    top of it (given, else 1.0 for a whole-job MFU, the fabric's efficiency for a smaller-scale measurement)."""
    if mfu is not None:
        chosen = Assumed(mfu, "given", f"{pct(mfu, 1)} % given (a whole-job MFU)")
    elif offer is not None:
        chosen = choose_mfu(offer.evidence, assumptions, offer.gpu.bf16_tflops)
    else:
        chosen = choose_mfu((), assumptions)
    if scaling is not None:
        return chosen, Assumed(scaling, "given", f"{dec(scaling, 2)} given")
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
    v = _exact(parse_record(E.TRAIN, raw | {"claimed_days": claimed_days}))
    total, source = training_flops(v["flops"], v["params"], v["tokens"])
    mfu_value, scaling_value, days, gpus = v["mfu"], v["scaling"], v["claimed_days"], int(v["gpus"])
    with db.session() as session:
        assumptions = load_assumptions(session)
        catalog, _ = load_catalog(session)
        spec = catalog.lookup(gpu) if gpu is not None else None
        offer = None
        if offer_id is not None:
            found = load_offer_inputs(session, [offer_id])
            if not found:
                raise BadInput(f"no priced offer with id {offer_id}; `quotetui offers` lists them")
            offer = found[0]
            if spec is not None and spec.key != offer.gpu.key:
                raise BadInput(f"offer {offer_id} sells {offer.gpu.name}, not {spec.name}")
            spec = require_priced(offer).gpu
        fx = fx_table(session, utcnow().date())
    if spec is None:
        raise BadInput("name the GPU with --gpu MODEL, or give --offer ID")
    chosen_mfu, chosen_scaling = _mfu_and_scaling(mfu_value, scaling_value, offer, gpus, assumptions)
    plan = plan_training(total, source, gpus, spec, chosen_mfu, chosen_scaling)
    costs = cost_run(plan, offer, fx, offer.currency, assumptions) if offer is not None else []
    label = f"#{offer.id} {offer.provider} {offer.name}" if offer is not None else None
    return TrainResult(plan, costs, label, days)


def rent_buy_json(r: RentBuyResult) -> dict[str, Any]:
    i = r.inputs
    return {
        "currency": i.currency,
        "capex": amount_text(i.capex, i.currency),
        "opex_monthly": amount_text(i.opex_monthly, i.currency),
        "rent_monthly": amount_text(i.rent_monthly, i.currency),
        "rent_fixed_monthly": amount_text(i.rent_fixed_monthly, i.currency),
        "rent_paid_monthly": amount_text(i.rent_paid_monthly, i.currency),
        "rent_upfront": [{"month": m, "amount": amount_text(a, i.currency)} for m, a in i.upfront],
        "utilization": decimal_text(i.utilisation),
        "residual": amount_text(i.residual, i.currency),
        "discount_rate": decimal_text(i.discount_rate),
        "horizon_months": i.horizon_months,
        "breakeven_months": None if r.breakeven_months is None else decimal_text(r.breakeven_months, 2),
        "breakeven_month": None if r.breakeven_months is None else ceil(r.breakeven_months),
        "breakeven_utilization": None if r.breakeven_utilisation is None else decimal_text(r.breakeven_utilisation, 4),
        "npv_rent": amount_text(r.npv_rent, i.currency),
        "npv_buy": amount_text(r.npv_buy, i.currency),
        "cheaper": r.cheaper,
        "series": [
            {"month": p.month, "rent": amount_text(p.rent, i.currency), "own": amount_text(p.own, i.currency)}
            for p in r.series
        ],
    }


def calc_rent_vs_buy(
    db: Database | None,
    *,
    capex: str,
    opex_monthly: str,
    rent_monthly: str | None = None,
    offer_id: int | None = None,
    scenario: str | None = None,
    residual: str = "0",
    discount_rate: str = "0",
    horizon_months: int | str = 36,
    utilisation: str = "1",
    currency: str | None = None,
    gpus: int | str | None = None,
) -> tuple[RentBuyResult, str | None]:
    """Typed rent, or an offer rented as it is paid (in the scenario's currency) for the capacity the capex
    buys: ``gpus`` (default one node of the offer), never the scenario's GPUs against one server's capex."""
    if (rent_monthly is None) == (offer_id is None):
        raise BadInput("give the rent side as --rent-monthly AMOUNT or --offer ID (one of them)")
    raw = {"capex": capex, "opex_monthly": opex_monthly, "rent_monthly": rent_monthly, "residual": residual}
    raw |= {"discount_rate": discount_rate, "horizon_months": horizon_months, "utilisation": utilisation}
    v = _exact(parse_record(E.RENT_BUY, raw | {"gpus": gpus}))
    u, horizon_months, gpus = v["utilisation"], int(v["horizon_months"]), v["gpus"]
    note = None
    plan = RentPlan(v["rent_monthly"] or Fraction(0), True, Fraction(0), (), "billed by use")
    if offer_id is not None:
        assert db is not None
        e = evaluate_offer(db, offer_id, scenario, full_use_months=horizon_months, gpus=gpus)
        if currency is not None and currency_code(currency) != e.currency:
            raise BadInput(
                f"the offer is costed in {e.currency} (scenario {e.scenario.name!r}); give --capex and "
                f"--opex-monthly in {e.currency}, or leave --currency out"
            )
        plan = rent_plan(e.best, horizon_months)
        currency = e.currency
        given = "" if gpus is not None else "; --gpus sets the capacity the capex buys"
        note = (
            f"rent: #{e.offer.id} {e.offer.provider} {e.offer.name} for {e.scenario.gpu_count} GPUs "
            f"({e.nodes} node{'s' if e.nodes != 1 else ''}{given}), {e.best.option.label}, {plan.words}; "
            f"{dec(e.best.total, 2):,} {currency} over {horizon_months} months at full use"
        )
        if e.lower_bound:  # renting costs at least this: say so beside any verdict
            unpriced = "; ".join(unpriced_costs(e.offer, e.scenario))
            note += f"; {LOWER_BOUND} a lower bound: the rent leaves out {unpriced}"
    inputs = RentBuyInput(
        capex=v["capex"],
        opex_monthly=v["opex_monthly"],
        rent_monthly=plan.monthly,
        currency=currency or "CNY",
        residual=v["residual"],
        discount_rate=v["discount_rate"],
        horizon_months=horizon_months,
        utilisation=u,
        rent_usage_billed=plan.usage_billed,
        rent_fixed_monthly=plan.fixed_monthly,
        upfront=plan.upfront,
    )
    return rent_vs_buy(inputs), note


def _exact(values: dict[str, Any]) -> dict[str, Any]:
    """Parsed values for the engine: decimals as exact fractions."""
    return {k: q(v) if isinstance(v, Decimal) else v for k, v in values.items()}


TERM_FLAGS = {"monthly": 1, "quarterly": 3, "half_year": 6, "annual": 12, "two_year": 24, "three_year": 36}


def calc_term(prices: dict[str, str | None], discount_rate: str | None = None) -> TermComparison:
    v = _exact(parse_record(E.TERM_PRICES, prices))
    rate_field = E.RENT_BUY.field("discount_rate")
    try:
        rate = q(parse_value(rate_field, discount_rate or "0"))
    except BadInput as exc:
        raise FieldErrors({"discount_rate": str(exc)}) from None
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
    v = _exact(parse_record(E.TRAIN, raw))
    total, source = training_flops(v["flops"], v["params"], v["tokens"])
    mfu_value, scaling_value, gpus = v["mfu"], v["scaling"], int(v["gpus"])
    runs, skipped = [], []
    for offer in offers:
        try:
            chosen_mfu, chosen_scaling = _mfu_and_scaling(mfu_value, scaling_value, offer, gpus, assumptions)
            plan = plan_training(total, source, gpus, offer.gpu, chosen_mfu, chosen_scaling)
            runs.append(OfferRun(offer, plan, cost_run(plan, offer, fx, currency, assumptions)))
        except QuotetuiError as exc:
            skipped.append((offer, str(exc)))
    runs.sort(key=lambda r: (r.cheapest.total if r.cheapest else Fraction(10**30), r.plan.seconds))
    return runs, skipped


def purchase_defaults(db: Database) -> dict[str, str]:
    """Starting values for the rent-vs-buy calculator from the first recorded purchase option: the middle of
    each range (capex; colocation + power make the monthly opex)."""
    from sqlmodel import col, select

    from quotetui.store.models import PurchaseOption

    with db.session() as session:
        p = session.exec(select(PurchaseOption).order_by(col(PurchaseOption.id))).first()
    if p is None:
        return {}

    def middle(low: Decimal | None, high: Decimal | None) -> Fraction:
        if low is None:
            return Fraction(0)
        return (q(low) + q(high if high is not None else low)) / 2

    opex = (
        middle(p.colocation_month, p.colocation_month_high)
        + middle(p.power_month, p.power_month_high)
        + (q(p.ops_month) if p.ops_month is not None else 0)
    )
    return {
        "name": p.name,
        "capex": plain(dec(middle(p.capex, p.capex_high), 2)),
        "opex_monthly": plain(dec(opex, 2)),
        "horizon_months": str(p.horizon_months or 36),
        "currency": p.currency,
        "gpus": str(p.gpu_count),
    }
