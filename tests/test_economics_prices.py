"""Prices: unit conversions, discounts, extras, FX, options and terms (DESIGN.md section 3)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from econ_helpers import fx, offer, option, scenario
from hypothesis import given
from hypothesis import strategies as st

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.costing import cost_option, price_options
from quotetui.domain.economics.evaluate import evaluate, rank
from quotetui.domain.economics.exact import dec, q
from quotetui.domain.economics.inputs import DiscountTerm, ExtraTerm
from quotetui.domain.economics.terms import compare_terms
from quotetui.domain.economics.units import from_node_month, to_gpu_hour, to_node_month
from quotetui.domain.enums import DiscountKind, ExtraBasis, ExtraKind, PriceUnit
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import MissingFxRate

A = Assumptions()
NO_FX = fx()
prices = st.decimals(min_value=Decimal("0.000001"), max_value=Decimal("1e9"), places=6)


@given(amount=prices, unit=st.sampled_from(list(PriceUnit)), gpn=st.integers(1, 16), term=st.integers(1, 60))
def test_unit_conversions_round_trip_exactly(amount: Decimal, unit: PriceUnit, gpn: int, term: int) -> None:
    node_month = to_node_month(q(amount), unit, gpn, term)
    assert from_node_month(node_month, unit, gpn, term) == q(amount)
    per_gpu_hour = to_gpu_hour(q(amount), unit, gpn, term)
    assert per_gpu_hour * gpn * 730 == node_month


def test_reserved_aliyun_a100_is_7_19_per_gpu_hour() -> None:
    per_hour = to_gpu_hour(q("42000"), PriceUnit.NODE_MONTH, 8)
    assert per_hour == Fraction(42000, 8 * 730)
    assert dec(per_hour, 2) == Decimal("7.19")


def test_every_unit_lands_on_the_same_node_month() -> None:
    expected = Fraction(58400)  # 8 GPUs × 730 h × 10 per GPU-hour
    assert to_node_month(q(10), PriceUnit.GPU_HOUR, 8) == expected
    assert to_node_month(q(80), PriceUnit.NODE_HOUR, 8) == expected
    assert to_node_month(q(7300), PriceUnit.GPU_MONTH, 8) == expected
    assert to_node_month(q(58400), PriceUnit.NODE_MONTH, 8) == expected
    assert to_node_month(q(700800), PriceUnit.TERM_TOTAL, 8, term_months=12) == expected
    with pytest.raises(BadInput):
        to_node_month(q(1), PriceUnit.TERM_TOTAL, 8, term_months=0)


def _discount(rate: str | None, kind: DiscountKind = DiscountKind.NEGOTIATED, id: int = 1, **kw) -> DiscountTerm:  # type: ignore[no-untyped-def]
    return DiscountTerm(id, kind, None if rate is None else Decimal(rate), **kw)


def test_discounts_stack_multiplicatively_and_each_step_is_visible() -> None:
    o = offer(option("100000"), discounts=(_discount("0.10", id=1), _discount("0.05", id=2)))
    c = cost_option(o, o.options[0], scenario(), NO_FX, A)
    assert [(s.before, s.after) for s in c.steps] == [(100000, 90000), (90000, 85500)]
    assert c.effective_node_month == 85500  # 100,000 × 0.9 × 0.95, not × 0.85


def test_discount_conditions_are_checked_against_option_and_scenario() -> None:
    volume = _discount("0.10", DiscountKind.VOLUME, id=1, min_gpus=64)
    unknown = _discount(None, DiscountKind.PROMOTION, id=2)
    academic = _discount("0.20", DiscountKind.ACADEMIC, id=3)
    o = offer(option("100000"), discounts=(volume, unknown, academic))
    small = cost_option(o, o.options[0], scenario(gpus=8), NO_FX, A)
    assert small.effective_node_month == 100000
    reasons = [s.reason for s in small.steps]
    assert "needs at least 64 GPUs (8 billed)" in reasons[0]
    assert "ask the provider for the rate" in reasons[1] and "academic" in reasons[2]
    big = cost_option(o, o.options[0], scenario(gpus=64), NO_FX, A)
    assert big.effective_node_month == 90000
    # 60 GPUs are billed as 8 whole nodes = 64 GPUs: the volume tier counts what is billed
    billed = cost_option(o, o.options[0], scenario(gpus=60), NO_FX, A)
    assert billed.effective_node_month == 90000 and "conditions met" in billed.steps[0].reason
    assert cost_option(o, o.options[0], scenario(gpus=56), NO_FX, A).effective_node_month == 100000  # 7 nodes


def test_a_term_discount_becomes_its_own_option() -> None:
    annual = _discount("0.15", DiscountKind.TERM, min_term_months=12, requires_prepay=True)
    o = offer(option("80000", amount_high=Decimal("120000")), discounts=(annual,))
    options = price_options(o)
    assert [(x.term_months, x.prepay, x.from_discount) for x in options] == [(1, False, None), (12, True, 1)]
    e = evaluate(o, scenario(months=12), NO_FX, A)
    assert e.best.option.term_months == 12
    assert e.best.total == 12 * 120000 * Fraction(85, 100)  # a range is costed at its high end
    monthly = next(c for c in e.options if c.option.term_months == 1)
    assert monthly.total == 12 * 120000 and not any(s.applied for s in monthly.steps)


def test_a_whole_term_price_is_never_discounted_twice() -> None:
    annual = _discount("0.15", DiscountKind.TERM, min_term_months=12)
    o = offer(option("88000"), option("750000", PriceUnit.TERM_TOTAL, 12, prepay=True), discounts=(annual,))
    costs = {(c.option.term_months, c.option.unit): c for c in evaluate(o, scenario(), NO_FX, A).options}
    assert costs[(12, PriceUnit.TERM_TOTAL)].total == 750000
    assert costs[(12, PriceUnit.NODE_MONTH)].total == 12 * 88000 * Fraction(85, 100)


def test_commitments_are_paid_in_whole_terms() -> None:
    o = offer(option("88000"), option("750000", PriceUnit.TERM_TOTAL, 12, prepay=True))
    e = evaluate(o, scenario(months=6), NO_FX, A)
    assert e.best.option.term_months == 1 and e.best.total == 6 * 88000  # the annual prepay wastes 6 months
    annual = next(c for c in e.options if c.option.term_months == 12)
    assert annual.billed_months == 12 and annual.total == 750000


def test_term_choice_of_the_design_check() -> None:
    t = compare_terms({1: q(88000), 12: q(750000)})
    assert t.cheapest.months == 12 and t.cheapest.per_month == 62500
    assert dec(t.saving * 100, 2) == Decimal("28.98")
    e = evaluate(offer(option("88000"), option("750000", PriceUnit.TERM_TOTAL, 12)), scenario(), NO_FX, A)
    assert e.best.total == 750000 and e.annualised_tco == 750000


def test_on_demand_pays_for_used_hours_only() -> None:
    od = offer(option("160", PriceUnit.NODE_HOUR, 0))
    e = evaluate(od, scenario(utilisation="0.6"), NO_FX, A)
    assert e.best.total == 160 * 730 * Fraction(6, 10) * 12
    assert e.price_per_gpu_hour == 20  # 160 per node-hour ÷ 8 GPUs
    assert e.cost_per_gpu_hour == 20  # paid only for the hours used
    reserved = evaluate(offer(option("85000")), scenario(utilisation="0.6"), NO_FX, A)
    assert reserved.cost_per_gpu_hour == Fraction(85000 * 12, 8 * 730 * Fraction(6, 10) * 12)


def test_extras_at_the_scenarios_usage() -> None:
    extras = (
        ExtraTerm(1, ExtraKind.EGRESS, ExtraBasis.PER_GB, Decimal("0.5"), "CNY"),
        ExtraTerm(2, ExtraKind.STORAGE, ExtraBasis.PER_TB_MONTH, Decimal("100"), "CNY"),
        ExtraTerm(3, ExtraKind.SETUP_FEE, ExtraBasis.ONE_OFF, Decimal("3000"), "CNY"),
        ExtraTerm(4, ExtraKind.DEPOSIT, ExtraBasis.ONE_OFF, Decimal("50000"), "CNY", refundable=True),
        ExtraTerm(5, ExtraKind.PLATFORM_FEE, ExtraBasis.PER_MONTH, None, "CNY"),
        ExtraTerm(6, ExtraKind.PUBLIC_IP, ExtraBasis.PER_NODE_MONTH, Decimal("20"), "CNY"),
    )
    s = scenario(gpus=16, months=6, egress_tb_month=Decimal("2"), storage_tb=Decimal("10"))
    e = evaluate(offer(option("80000"), extras=extras), s, NO_FX, A)
    lines = {line.extra.id: line for line in e.best.extras}
    assert lines[1].monthly == 1000  # 2 TB × 1000 GB × 0.5
    assert lines[2].monthly == 1000
    assert lines[3].one_off == 3000 and lines[3].monthly == 0
    assert not lines[4].included and not lines[5].included
    assert lines[6].monthly == 40  # 2 nodes
    assert e.best.extras_total == (1000 + 1000 + 40) * 6 + 3000
    assert any("amount not quoted" in u for u in e.unknowns)


def test_fx_is_dated_explicit_and_never_a_silent_one() -> None:
    usd = offer(option("2.49", PriceUnit.GPU_HOUR, 0, currency="USD"), gpn=8)
    with pytest.raises(MissingFxRate, match="no USD→CNY exchange rate dated on or before 2026-11-30"):
        evaluate(usd, scenario(), NO_FX, A)
    e = evaluate(usd, scenario(), fx(("USD", "CNY", "7.1234")), A)
    assert e.best.fx is not None and "1 USD = 7.1234 CNY on 2026-11-30" in e.best.fx.text()
    assert e.price_per_gpu_hour == q("2.49") * q("7.1234")
    inverse = evaluate(usd, scenario(), fx(("CNY", "USD", "0.125")), A)
    assert inverse.price_per_gpu_hour == q("2.49") * 8


@given(small=st.decimals(0, "0.9", places=3), extra=st.decimals(0, "0.09", places=3), price=prices)
def test_a_larger_discount_never_raises_a_cost(small: Decimal, extra: Decimal, price: Decimal) -> None:
    s = scenario(gpus=24, months=7, utilisation="0.7")

    def total(rate: Decimal) -> Fraction:
        o = offer(option(str(price)), discounts=(_discount(str(rate)),))
        return evaluate(o, s, NO_FX, A).best.total

    assert total(small + extra) <= total(small)


@given(cheap=prices, dearer=prices)
def test_a_cheaper_price_never_ranks_worse(cheap: Decimal, dearer: Decimal) -> None:
    if cheap > dearer:
        cheap, dearer = dearer, cheap
    s = scenario(gpus=16, months=3)
    a = evaluate(offer(option(str(dearer)), id=1, provider="A"), s, NO_FX, A)
    b = evaluate(offer(option(str(cheap)), id=2, provider="B"), s, NO_FX, A)
    order = [e.offer.id for e in rank([a, b])]
    assert order.index(2) <= order.index(1) or cheap == dearer


def test_rank_puts_feasible_offers_first() -> None:
    from quotetui.domain.enums import InterFabric

    lonely = offer(option("1000"), id=1, gpn=1, inter=InterFabric.NONE)  # cheap, but 8 separate boxes
    real = offer(option("90000"), id=2)
    ranked = rank([evaluate(o, scenario(), NO_FX, A) for o in (lonely, real)])
    assert [e.offer.id for e in ranked] == [2, 1]
    assert "without a scale-out network" in ranked[1].feasibility.blocking[0]


def test_every_price_unit_and_extra_basis_has_its_rule_label_and_formula() -> None:
    """A member added to an enum without its conversion, label or workbook formula fails here, not in a
    buyer's export (an unknown basis used to be a silent flat fee in the app and a KeyError in the export)."""
    from quotetui.domain.economics.billing import EXTRA_RULES
    from quotetui.domain.economics.units import UNITS, to_node_month
    from quotetui.domain.enums import ExtraBasis, PriceUnit

    for unit in PriceUnit:
        assert to_node_month(Fraction(730 * 8), unit, 8, 12) > 0, unit
        assert unit in UNITS, unit
    assert set(EXTRA_RULES) | {ExtraBasis.ONE_OFF} == set(ExtraBasis)
    o = offer(option("100000"))
    for basis in ExtraBasis:  # each basis has its own costing rule (none falls through to an error)
        x = replace(o, extras=(ExtraTerm(1, ExtraKind.OTHER, basis, Decimal(2), "CNY"),))
        used = scenario(egress_tb_month=Decimal(1), storage_tb=Decimal(1))
        c = cost_option(x, x.options[0], used, NO_FX, A)
        assert c.extras[0].included and (c.extras[0].monthly or c.extras[0].one_off), basis


def test_a_one_off_fee_is_never_counted_twice_when_a_short_need_is_annualised() -> None:
    setup = ExtraTerm(1, ExtraKind.SETUP_FEE, ExtraBasis.ONE_OFF, Decimal(12000), "CNY")
    o = replace(offer(option("100000")), extras=(setup,))
    half = cost_option(o, o.options[0], scenario(months=6), NO_FX, A)
    assert half.total == 612000  # 6 × 100,000 + 12,000 committed
    assert half.annualised == 1212000  # 600,000 × 12 ÷ 6 + 12,000 once, not 612,000 × 2 = 1,224,000
    two_years = cost_option(o, o.options[0], scenario(months=24), NO_FX, A)
    assert two_years.annualised == 1206000  # 2,400,000 × 12 ÷ 24 + 12,000 × 12 ÷ 24
