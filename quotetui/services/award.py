"""The award (issue 17, point 4): split an RFQ's need across the compliant candidates in whole nodes at the
least total cost, under the buyer's risk constraints, with every figure from the exact engine.

Candidates are the offers on record that meet every line of the requirement (``services/rfq.py: fit_rfq``;
a line that cannot be told is a question, not a failure). Each one's cost of one node for the requirement's
term comes from the engine (``domain/economics/evaluate.py``: the offer evaluated for one node, the term's
months, busy every hour, in the requirement's currency). The optimiser (``domain/sourcing/award.py``) splits the
need on those node costs; then each allocation is evaluated again by the engine for the GPUs it was awarded,
so volume discounts and one-off fees are counted as the offer prices them, and that exact figure is the one
shown and added up (``engine_cost``; the optimiser's linear figure is ``linear_cost``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.economics.evaluate import NOT_COMPARABLE, evaluate
from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
from quotetui.domain.errors import BadInput
from quotetui.domain.sourcing.award import Award, Candidate, Need, scenarios
from quotetui.domain.sourcing.requirement import Requirement
from quotetui.domain.timeutil import utcnow
from quotetui.services.rfq import RfqView
from quotetui.store.engine import Database, one_snapshot


@dataclass(frozen=True, slots=True)
class AwardLine:
    offer_id: int
    provider: str
    offer: str
    nodes: int
    gpus: int
    linear_cost: Fraction  # nodes × one node's cost: what the optimiser minimised
    engine_cost: Fraction  # the engine's cost of these GPUs for the term: the figure shown and added up
    lower_bound: bool = False  # a cost the need incurs is not priced by the offer: the cost is at least this


@dataclass(frozen=True, slots=True)
class AwardScenario:
    label: str
    feasible: bool
    reason: str  # why not, when infeasible
    lines: tuple[AwardLine, ...]
    gpus: int
    total_cost: Fraction | None  # the engine's, added up
    premium: Fraction | None  # what this scenario's risk constraint costs against the cheapest (engine figures)
    cost_per_pflop_hour: Fraction | None
    lower_bound: bool = False  # some allocation's cost is a lower bound (a cost not priced): the total is too


@dataclass(frozen=True, slots=True)
class AwardResult:
    requirement: Requirement
    currency: str
    candidates: int
    scenarios: tuple[AwardScenario, ...]
    view: RfqView  # the requirement, the invitations and each offer's verdicts (``fit_rfq``: no figures)


def _scenario_of(req: Requirement, gpus: int) -> ScenarioInput:
    return ScenarioInput(f"award: {req.name}", gpus, req.months, Decimal(1), req.currency)


@one_snapshot
def award(
    db: Database,
    name: str,
    *,
    max_share: Decimal = Decimal("0.6"),
    min_providers: int = 2,
    budget: Decimal | None = None,
    include_market: bool = False,
    on: date | None = None,
) -> AwardResult:
    """The three award scenarios (cheapest; at most ``max_share`` per provider; at least ``min_providers``
    providers) for the RFQ ``name``, each within ``budget`` if given."""
    from quotetui.services.rfq import fit_rfq

    day = on or utcnow().date()
    fitted = fit_rfq(db, name, day)
    view, fx, assumptions = fitted.view, fitted.fx, fitted.assumptions
    req = view.requirement
    compliant = [f.offer_id for f in view.offers if f.compliant and (include_market or f.answered)]
    if not compliant and include_market:
        raise BadInput(
            f"neither an answer nor an offer on record meets every line of RFQ {req.name!r}: `quotetui rfq show` "
            "says why"
        )
    if not compliant:
        raise BadInput(
            f"no answer to RFQ {req.name!r} that meets every line is read in yet (`quotetui import ANSWER.xlsx`); "
            "--include-market adds the offers on record that meet it"
        )
    offers = [fitted.inputs[offer_id] for offer_id in sorted(compliant)]
    candidates, by_id = [], {}
    for offer in offers:
        try:
            one = evaluate(offer, _scenario_of(req, offer.gpus_per_node), fx, assumptions)
        except NOT_COMPARABLE:
            continue  # no FX rate to the requirement's currency, or nothing to compare: not a candidate
        if not one.feasibility.ok or one.best.total <= 0:
            continue
        pflops = one.effective_pflops_per_gpu * offer.gpus_per_node
        candidates.append(
            Candidate(offer.id, offer.provider, offer.gpus_per_node, offer.nodes_available, one.best.total, pflops)
        )
        by_id[offer.id] = offer
    if not candidates:
        raise BadInput(f"no candidate of RFQ {req.name!r} can be costed (an FX rate missing?): `quotetui rfq show`")
    hours = Fraction(req.months * assumptions.hours_per_month)
    need = Need(req.gpus, req.job_gpus, budget=None if budget is None else Fraction(budget), hours=hours)
    found = scenarios(need, candidates, max_share=Fraction(max_share), min_providers=min_providers)
    shown = [_exact(label, a, by_id, req, fx, assumptions, candidates, hours) for label, a in found]
    base = shown[0].total_cost  # the cheapest scenario's engine total: what each risk constraint is measured against
    priced = tuple(replace(s, premium=_premium(s.total_cost, base)) for s in shown)
    return AwardResult(req, req.currency, len(candidates), priced, view)


def _premium(total: Fraction | None, base: Fraction | None) -> Fraction | None:
    return None if total is None or base is None else total - base


def _exact(
    label: str,
    found: Award,
    offers: dict[int, OfferInput],
    req: Requirement,
    fx: Any,
    assumptions: Any,
    candidates: list[Candidate],
    hours: Fraction,
) -> AwardScenario:
    if not found.feasible:
        return AwardScenario(label, False, found.reason, (), 0, None, None, None)
    lines = []
    for a in found.allocations:
        offer = offers[a.offer_id]
        e = evaluate(offer, _scenario_of(req, a.gpus), fx, assumptions)
        lines.append(
            AwardLine(a.offer_id, a.provider, offer.name, a.nodes, a.gpus, a.total_cost, e.best.total, e.lower_bound)
        )
    total = sum((line.engine_cost for line in lines), Fraction(0))
    per_pflop = replace(found, total_cost=total).cost_per_pflop_hour(candidates, hours)
    lower = any(line.lower_bound for line in lines)
    return AwardScenario(label, True, "", tuple(lines), found.gpus, total, None, per_pflop, lower)
