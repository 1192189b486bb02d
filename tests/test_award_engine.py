"""The award on the engine's own costs (issue 29): random markets with volume tiers, one-off fees, per-node fees,
prepaid and committed terms, mixed terms, several currencies and stock limits.

- ``cost_curve`` (what the optimiser is given) equals the engine's cheapest way at every node count;
- the optimiser's exact optimum equals the brute force's over every node count, for every scenario and
  constraint set, and each awarded line costs what ``evaluate`` says for its GPUs;
- a constrained scenario never beats the cheapest (no negative risk premium).
The seed is fixed (``derandomize``): a failure repeats on every machine."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction as F

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import cost_curve, evaluate, ways_to_buy
from quotetui.domain.economics.inputs import DiscountTerm, ExtraTerm
from quotetui.domain.enums import DiscountKind, ExtraBasis, ExtraKind, PriceUnit
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.sourcing.award import Need, brute_force, risk_premium, scenarios
from quotetui.domain.sourcing.requirement import Requirement
from quotetui.services.award import candidate_of
from tests.econ_helpers import fx, offer, option, scenario

RATES = fx(("USD", "CNY", "7.1234"), ("EUR", "CNY", "7.7001"))
ASSUME = Assumptions()
PLAN = settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def offers(draw, offer_id: int = 1, provider: str = "p0"):
    """One offer as a provider might quote it: a base price (per GPU-hour on demand, or per node-month on a
    monthly or longer commitment), maybe a prepaid year, a volume tier, a term or prepay discount, fees."""
    currency = draw(st.sampled_from(["CNY", "CNY", "USD", "EUR"]))
    gpn = draw(st.sampled_from([1, 2, 4, 8]))
    base = draw(st.sampled_from(["on-demand", "monthly", "quarterly"]))
    if base == "on-demand":
        opts = [option(str(draw(st.integers(100, 4000)) / 100), PriceUnit.GPU_HOUR, 0, currency=currency)]
    else:
        opts = [option(str(draw(st.integers(5_000, 150_000))), PriceUnit.NODE_MONTH, 1 if base == "monthly" else 3,
                       currency=currency)]  # fmt: skip
    if draw(st.booleans()):
        opts.append(option(str(draw(st.integers(50_000, 1_500_000))), PriceUnit.NODE_MONTH, 12, currency=currency,
                           prepay=draw(st.booleans())))  # fmt: skip
    discounts = []
    for i in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from([DiscountKind.VOLUME, DiscountKind.VOLUME, DiscountKind.TERM, DiscountKind.PREPAY]))
        rate = Decimal(draw(st.sampled_from(["0.05", "0.1", "0.15", "0.3"])))
        if kind is DiscountKind.VOLUME:
            discounts.append(DiscountTerm(i + 1, kind, rate, min_gpus=draw(st.integers(2, 24))))
        else:
            discounts.append(DiscountTerm(i + 1, kind, rate, min_term_months=draw(st.sampled_from([6, 12]))))
    extras = []
    for i in range(draw(st.integers(0, 2))):
        basis = draw(st.sampled_from([ExtraBasis.ONE_OFF, ExtraBasis.PER_MONTH, ExtraBasis.PER_NODE_MONTH]))
        kind = ExtraKind.SETUP_FEE if basis is ExtraBasis.ONE_OFF else ExtraKind.PLATFORM_FEE
        extras.append(ExtraTerm(i + 1, kind, basis, Decimal(draw(st.integers(100, 300_000))), currency))
    stock = draw(st.none() | st.integers(0, 6))
    return offer(*opts, id=offer_id, provider=provider, gpn=gpn, discounts=tuple(discounts), extras=tuple(extras),
                 nodes_available=stock)  # fmt: skip


def _scenario_at(gpn: int, months: int):  # type: ignore[no-untyped-def]
    return lambda n: scenario(n * gpn, months, currency="CNY")


@PLAN
@given(offers(), st.sampled_from([1, 3, 12, 13, 18]), st.integers(1, 40))
def test_the_cost_curve_is_the_engines_cheapest_way_at_every_count(o, months, most):
    curve = cost_curve(o, _scenario_at(o.gpus_per_node, months), most, RATES, ASSUME)
    assert len(curve) == most
    for n, cost in enumerate(curve, 1):
        assert cost == ways_to_buy(o, scenario(n * o.gpus_per_node, months), RATES, ASSUME)[0].total, n
    # given the offer already evaluated at one node (the award's case), its ways are reused: the same curve
    at = _scenario_at(o.gpus_per_node, months)
    one = evaluate(o, at(1), RATES, ASSUME)
    assert cost_curve(o, at, most, RATES, ASSUME, one) == curve


@st.composite
def markets(draw):
    providers = [f"p{i}" for i in range(draw(st.integers(1, 3)))]
    ids = draw(st.lists(st.integers(1, 50), min_size=1, max_size=4, unique=True))
    market = [draw(offers(i, draw(st.sampled_from(providers)))) for i in ids]
    gpus = draw(st.integers(1, 32))
    req = Requirement("R", (builtin_catalog().lookup("H100 SXM"),), gpus, draw(st.sampled_from([1, 6, 12, 13])),
                      date(2027, 1, 1), job_gpus=draw(st.none() | st.integers(1, gpus)))  # fmt: skip
    need = Need(
        gpus,
        req.job_gpus,
        max_share=draw(st.none() | st.sampled_from([F(1, 2), F(3, 5), F(1, 1)])),
        min_providers=draw(st.none() | st.integers(1, 3)),
    )
    if draw(st.booleans()):  # a budget near what things cost, so that it binds now and then
        need = replace(need, budget=F(draw(st.integers(1, 60))) * 100_000)
    return need, req, market


@PLAN
@given(markets())
def test_the_optimum_on_engine_costs_is_the_brute_force_optimum(market):
    need, req, offers_ = market
    made = [candidate_of(need, o, req, RATES, ASSUME) for o in offers_]
    candidates = [c for c in made if not isinstance(c, str)]
    by_id = {o.id: o for o in offers_}
    if any(cost != n * c.costs[0] for c in candidates for n, cost in enumerate(c.costs, 1)):
        event("a cost not proportional to nodes (a tier, a fee, a way to buy that wins from some count)")
    fast_all, slow_all = scenarios(need, candidates), scenarios(need, candidates, solve=brute_force)
    for (label, fast), (_, slow) in zip(fast_all, slow_all, strict=True):
        assert fast.feasible == slow.feasible and fast.total_cost == slow.total_cost, (label, fast, slow)
        assert (fast.lean is None) == (slow.lean is None)
        if fast.lean is not None and slow.lean is not None:
            assert fast.lean.total_cost == slow.lean.total_cost
        for award in (fast, fast.lean):
            for a in award.allocations if award is not None else ():
                engine = evaluate(by_id[a.offer_id], scenario(a.gpus, req.months), RATES, ASSUME).best.total
                assert a.total_cost == engine
    cheapest = fast_all[0][1]
    for _, award in fast_all[1:]:
        premium = risk_premium(award, cheapest)
        assert premium is None or premium >= 0


def _zero_priced_slopes(o, option_, s):  # type: ignore[no-untyped-def]
    """The oracle for ``ways_following``: every way costed again with ``option_``'s price at zero; the slope is
    the difference over the price (how the engine found it before ``OptionCost.following``)."""
    from quotetui.domain.economics.evaluate import _every_way
    from quotetui.domain.economics.exact import q

    zero = replace(option_, amount=Decimal(0), amount_high=None if option_.amount_high is None else Decimal(0))
    free = replace(o, options=tuple(zero if x is option_ else x for x in o.options))
    now, at_zero = _every_way(o, s, RATES, ASSUME), _every_way(free, s, RATES, ASSUME)
    current = q(option_.costed_amount)
    return [(c.total, (c.total - z.total) / current) for c, z in zip(now, at_zero, strict=True)]


@PLAN
@given(offers(), st.sampled_from([1, 3, 12, 13, 18]), st.integers(1, 40))
def test_a_way_moves_with_a_price_as_costing_it_at_zero_says(o, months, nodes):
    """The negotiation's slopes (``ways_following``: the part of each way bought on the option, over its price)
    are exactly what costing every way again with that price at zero gives, for every option of random offers
    with volume tiers, term and prepay discounts, fees, other currencies and mixed terms."""
    from quotetui.domain.economics.evaluate import ways_following

    s = scenario(nodes * o.gpus_per_node, months, currency="CNY")
    for option_ in o.options:
        got = [(c.total, slope) for c, slope in ways_following(o, option_, s, RATES, ASSUME)]
        assert got == _zero_priced_slopes(o, option_, s)
