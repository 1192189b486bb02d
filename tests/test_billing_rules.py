"""The billing rules (``billing.py``): each way to buy bills as its rule says, in the engine, the training planner,
rent vs buy and the TCO sheet's formulas; one order picks the cheapest way everywhere; the offer's billing basis
means something to the engine (spot). Figures worked out by hand in the comments, before the code ran."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.billing import (
    EXTRA_RULES,
    Billing,
    OnDemand,
    Paid,
    Prepaid,
    Usage,
    billing,
    cheapest_first,
)
from quotetui.domain.economics.costing import cost_option
from quotetui.domain.economics.evaluate import SPOT_ESTIMATE, evaluate
from quotetui.domain.economics.inputs import ExtraTerm
from quotetui.domain.economics.terms import compare_terms
from quotetui.domain.economics.units import UNITS
from quotetui.domain.enums import BillingBasis, ExtraBasis, ExtraKind, PriceUnit
from quotetui.domain.fx import FxTable
from tests.econ_helpers import TODAY, offer, option, scenario

A = Assumptions()
NO_FX = FxTable([], TODAY)


def test_a_way_to_buy_is_its_term_and_its_prepayment() -> None:
    assert billing(0, False) == OnDemand(0) and billing(0, True) == OnDemand(0)  # nothing to prepay on demand
    assert billing(12, False) == Billing(12) and type(billing(12, False)) is Billing
    assert billing(12, True) == Prepaid(12)
    assert [billing(t, p).paid for t, p in ((0, False), (1, False), (12, True))] == [
        Paid.BY_USE,
        Paid.MONTHLY,
        Paid.UPFRONT,
    ]
    assert option("1", term=0).billing.follows_use and not option("1", term=3, prepay=True).billing.follows_use


def test_months_paid_and_the_share_billed() -> None:
    # on demand: the 13 months needed, at 60 % use; a year's term: 2 whole years for 13 months; a quarter: 15
    assert OnDemand(0).billed_months(13) == 13 and OnDemand(0).use_factor(Fraction(3, 5)) == Fraction(3, 5)
    assert Billing(12).billed_months(13) == 24 and Billing(12).use_factor(Fraction(3, 5)) == 1
    assert Prepaid(3).billed_months(13) == 15 and Billing(1).billed_months(13) == 13


def test_a_training_run_is_billed_as_its_way_to_buy_bills() -> None:
    # 438.9 hours: on demand 439 hours = 439/730 node-months; a monthly plan by the day: ⌈438.9 ÷ 24⌉ = 19 days
    # = 456 hours = 456/730; without days, 1 month; a year's term: 12 months; 1,000 hours: 2 months, 1 year
    hours = Fraction(4389, 10)
    assert OnDemand(0).run(hours, 730, False) == (Fraction(439, 730), "439 hours")
    assert Billing(1).run(hours, 730, True) == (Fraction(456, 730), "19 days pro rata")
    assert Billing(1).run(hours, 730, False) == (Fraction(1), "1 month")
    assert Billing(12).run(hours, 730, True) == (Fraction(12), "12 months")  # days only for a monthly plan
    assert Billing(1).run(Fraction(1000), 730, False) == (Fraction(2), "2 months")
    assert OnDemand(0).run(Fraction(1, 10), 730, False) == (Fraction(1, 730), "1 hour")  # at least an hour


def test_the_sheet_bills_with_the_same_rules() -> None:
    assert OnDemand(0).sheet_months_paid("$B$4", "H9") == "$B$4" and OnDemand(0).sheet_use("$B$6") == "$B$6"
    assert Billing(12).sheet_months_paid("$B$4", "H9") == "ROUNDUP($B$4/H9,0)*H9"
    assert Prepaid(12).sheet_use("$B$6") == "1"
    assert UNITS[PriceUnit.GPU_HOUR].sheet_node_month("J9", "F9", "H9", "$B$3") == "J9*F9*$B$3"
    assert UNITS[PriceUnit.TERM_TOTAL].sheet_node_month("J9", "F9", "H9", "$B$3") == "J9/H9"
    cells = Usage("$B$7*$B$9", "$B$8", "P9", "$B$3*R9")
    assert EXTRA_RULES[ExtraBasis.PER_HOUR].sheet_usage(cells) == "*P9*$B$3*R9"
    assert EXTRA_RULES[ExtraBasis.PER_MONTH].sheet_usage(cells) == ""


def test_every_unit_converts_by_its_declared_rule() -> None:
    # 5,840 a GPU-hour on 8 GPUs at 730 h: 5,840 × 8 × 730 a node-month; a 12-month total: 5,840 ÷ 12
    from quotetui.domain.economics.units import to_node_month

    amount = Fraction(5840)
    expected = {
        PriceUnit.GPU_HOUR: amount * 8 * 730,
        PriceUnit.NODE_HOUR: amount * 730,
        PriceUnit.GPU_MONTH: amount * 8,
        PriceUnit.NODE_MONTH: amount,
        PriceUnit.TERM_TOTAL: amount / 12,
    }
    for unit, value in expected.items():
        assert to_node_month(amount, unit, 8, 12, 730) == value, unit


def test_one_order_of_ways_to_buy_everywhere() -> None:
    # equal cost: one option before a mix, then the shorter term; a lower cost first whatever the term
    keys = [
        cheapest_first(Fraction(100), 12),
        cheapest_first(Fraction(100), 1, mixed=True),
        cheapest_first(Fraction(100), 1),
    ]
    assert sorted(keys) == [keys[2], keys[0], keys[1]]
    assert cheapest_first(Fraction(99), 36, True) < cheapest_first(Fraction(100), 0)
    # the term comparison breaks a tie the same way: 12,000 a month or 144,000 a year → monthly (less committed)
    assert compare_terms({1: Fraction(12000), 12: Fraction(144000)}).cheapest.months == 1


def test_the_engine_costs_through_the_rule() -> None:
    # 3 nodes (24 GPUs) on demand at 100,000 a node-month, 60 % use, 13 months: 3 × 100,000 × 0.6 × 13 = 2,340,000;
    # an annual term at 90,000: 24 months paid: 3 × 90,000 × 24 = 6,480,000; per-hour support 2 a node-hour on
    # demand: 2 × 3 × 730 × 0.6 × 13 = 34,164
    support = ExtraTerm(1, ExtraKind.SUPPORT, ExtraBasis.PER_HOUR, Decimal(2), "CNY")
    o = offer(option("100000", term=0), option("90000", term=12), extras=(support,))
    s = scenario(gpus=24, months=13, utilisation="0.6")
    by_use = cost_option(o, o.options[0], s, NO_FX, A)
    assert (by_use.billed_months, by_use.usage_factor, by_use.compute_total) == (13, Fraction(3, 5), 2340000)
    assert by_use.extras[0].monthly * 13 == 34164 and by_use.extras[0].reason == "3 nodes × billed hours"
    annual = cost_option(o, o.options[1], s, NO_FX, A)
    assert (annual.billed_months, annual.compute_total) == (24, 6480000)


def test_a_spot_offer_is_an_estimate_whatever_its_prices() -> None:
    s = scenario()
    spot = evaluate(offer(billing=BillingBasis.SPOT), s, NO_FX, A)
    monthly = evaluate(offer(billing=BillingBasis.MONTHLY), s, NO_FX, A)
    assert spot.estimates == (SPOT_ESTIMATE,) and spot.caveats.prefix == "~"
    assert monthly.estimates == () and not monthly.caveats
    assert spot.best.total == monthly.best.total  # the basis does not bill: the price option's rule does


def test_by_the_day_never_costs_more_than_the_whole_months() -> None:
    # 722.4 hours: ⌈722.4 ÷ 24⌉ = 31 days = 744 hours, more than one 730-hour month: the month is billed;
    # 37 days (880 h) = 888/730 node-months, less than the 2 whole months the run spans
    assert Billing(1).run(Fraction(7224, 10), 730, True) == (Fraction(1), "1 month")
    assert Billing(1).run(Fraction(880), 730, True) == (Fraction(888, 730), "37 days pro rata")


def test_a_prepay_discount_needs_a_way_paid_up_front() -> None:
    # an on-demand price flagged prepaid has nothing to prepay: 10 % off for prepaying does not apply to it
    from quotetui.domain.economics.costing import discount_applies
    from quotetui.domain.economics.inputs import DiscountTerm
    from quotetui.domain.enums import DiscountKind

    prepay = DiscountTerm(1, DiscountKind.PREPAY, Decimal("0.1"), requires_prepay=True)
    assert discount_applies(prepay, option("100", term=0, prepay=True), 8) == (False, "needs prepayment")
    assert discount_applies(prepay, option("100", term=12, prepay=True), 8)[0]


def test_the_offers_own_estimates_whichever_way_it_is_bought() -> None:
    from quotetui.domain.economics.evaluate import offer_estimates

    assert offer_estimates(offer(billing=BillingBasis.SPOT)) == (SPOT_ESTIMATE,)
    assert offer_estimates(offer(billing=BillingBasis.RESERVED)) == ()
