"""The training-run planner and rent vs buy, with the DESIGN.md checks."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from econ_helpers import fx, offer, option

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import Assumed
from quotetui.domain.economics.exact import dec, q
from quotetui.domain.economics.rentbuy import RentBuyInput, rent_vs_buy
from quotetui.domain.economics.scaling import default_scaling, job_scaling
from quotetui.domain.economics.training import cost_run, implied_mfu, plan_training, training_flops
from quotetui.domain.enums import InterFabric, IntraFabric, PriceUnit
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import builtin_catalog

H100 = builtin_catalog().lookup("H100 SXM")
HALF = Assumed(Fraction(1, 2), "given", "")
PERFECT = Assumed(Fraction(1), "given", "")


def test_design_check_gpt3_on_32_h100_takes_229_7_days() -> None:
    plan = plan_training(q("3.14e23"), "given", 32, H100, HALF, PERFECT)
    assert dec(plan.seconds, 0) == Decimal("19843276")
    assert dec(plan.wall_days, 1) == Decimal("229.7")
    assert plan.gpu_hours == 32 * plan.wall_hours


def test_scaling_applies_only_to_an_mfu_measured_on_fewer_nodes_than_the_plan() -> None:
    ib, nvs = InterFabric.INFINIBAND_NDR, IntraFabric.NVSWITCH
    whole_job = Assumed(Fraction(1, 2), "given", "")
    assert job_scaling(whole_job, 32, 8, nvs, ib).value == 1  # given or default: communication included
    on_one_node = Assumed(Fraction(1, 2), "claimed", "", measured_gpus=8)
    extrapolated = job_scaling(on_one_node, 32, 8, nvs, ib)
    assert extrapolated.value == Fraction(95, 100) and "measured on 8 GPUs, extrapolated to 32" in extrapolated.note
    assert job_scaling(on_one_node, 8, 8, nvs, ib).value == 1  # the plan runs at the measured scale
    assert job_scaling(Assumed(Fraction(1, 2), "claimed", "", measured_gpus=64), 32, 8, nvs, ib).value == 1
    assert job_scaling(Assumed(Fraction(1, 2), "claimed", "", measured_gpus=4), 8, 8, nvs, ib).value == 1  # one node
    with pytest.raises(BadInput, match="no scale-out network"):
        job_scaling(whole_job, 16, 8, nvs, InterFabric.NONE)
    # the GPT-3 check with a single-node claim on RoCE: 229.67 days ÷ 0.90 = 255.19 days
    plan = plan_training(q("3.14e23"), "given", 32, H100, on_one_node, job_scaling(on_one_node, 32, 8, nvs,
                         InterFabric.ROCE_V2))  # fmt: skip
    assert dec(plan.wall_days, 2) == Decimal("255.19")


def test_flops_from_parameters_and_tokens() -> None:
    flops, words = training_flops(None, q("7e9"), q("2e12"))
    assert flops == 6 * 7 * 10**9 * 2 * 10**12 and "6 ×" in words
    with pytest.raises(BadInput):
        training_flops(None, q("7e9"), None)


def test_implied_mfu_of_a_claimed_duration() -> None:
    assert dec(implied_mfu(q("3.14e23"), 32, H100, q(21)), 2) == Decimal("5.47")


def test_default_scaling_by_fabric() -> None:
    assert default_scaling(8, 8, IntraFabric.NVSWITCH, InterFabric.NONE).value == 1
    assert default_scaling(32, 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR).value == Fraction(95, 100)
    assert default_scaling(32, 8, IntraFabric.NVSWITCH, InterFabric.ROCE_V2).value == Fraction(90, 100)
    assert default_scaling(32, 8, IntraFabric.NVSWITCH, InterFabric.ETHERNET).value == Fraction(70, 100)
    with pytest.raises(BadInput, match="no scale-out network"):
        default_scaling(16, 8, IntraFabric.NVSWITCH, InterFabric.NONE)


def test_billing_granularity_hours_months_and_pro_rata_days() -> None:
    plan = plan_training(q("3.14e23"), "given", 32, H100, HALF, PERFECT)  # 5,512.02 hours
    hourly = offer(option("160", PriceUnit.NODE_HOUR, 0))
    [od] = cost_run(plan, hourly, fx(), "CNY", Assumptions())
    assert od.billed == "5,513 hours" and od.total == 4 * 160 * 5513
    monthly = offer(option("80000"))
    [m] = cost_run(plan, monthly, fx(), "CNY", Assumptions())
    assert m.billed == "8 months" and m.total == 4 * 80000 * 8
    prorata = offer(option("80000"), prorata_days=True)
    [d] = cost_run(plan, prorata, fx(), "CNY", Assumptions())
    assert d.billed == "230 days pro rata" and d.total == 4 * Fraction(80000) * 230 * 24 / 730


def test_design_check_rent_vs_buy_breaks_even_after_15_5_months() -> None:
    r = rent_vs_buy(RentBuyInput(q(2500000), q(19000), q(180000), "CNY"))
    assert r.breakeven_months == Fraction(2500000, 161000)
    assert dec(r.breakeven_months, 1) == Decimal("15.5")
    assert r.series[15].rent < r.series[15].own and r.series[16].rent >= r.series[16].own
    assert r.npv_rent == 180000 * 36 and r.npv_buy == 2500000 + 19000 * 36  # no discounting
    assert r.breakeven_utilisation == Fraction(2500000 + 19000 * 36, 180000 * 36)


def test_rent_vs_buy_with_utilisation_residual_and_discounting() -> None:
    idle = rent_vs_buy(RentBuyInput(q(2500000), q(19000), q(180000), "CNY", utilisation=Fraction(1, 4)))
    assert idle.breakeven_months is None  # renting at 25 % use stays cheaper
    resale = rent_vs_buy(RentBuyInput(q(2500000), q(19000), q(180000), "CNY", residual=q(500000)))
    assert resale.series[-1].own == 2500000 + 19000 * 36 - 500000
    npv = rent_vs_buy(RentBuyInput(q(2500000), q(19000), q(180000), "CNY", discount_rate=Fraction(8, 100)))
    assert npv.npv_rent < 180000 * 36 and npv.npv_buy < 2500000 + 19000 * 36
    with pytest.raises(BadInput):
        rent_vs_buy(RentBuyInput(q(-1), q(19000), q(180000), "CNY"))


def test_sums_paid_up_front_move_the_break_even_to_the_month_they_fall_due() -> None:
    # own: 1,500,000 + 10,000 a month; rent: 1,000,000 at the start of months 0, 12 and 24 plus 50,000 a month.
    # By hand: 1,000,000 − 1,500,000 + 40,000 × 12 = −20,000 at the end of month 12; the second sum makes renting
    # dearer at once, so owning breaks even at month 12 (not 12.5, where the monthly flows alone would cross)
    i = RentBuyInput(q(1500000), q(10000), q(0), "CNY", rent_usage_billed=False, rent_fixed_monthly=q(50000),
                     upfront=((0, q(1000000)), (12, q(1000000)), (24, q(1000000))))  # fmt: skip
    r = rent_vs_buy(i)
    assert r.breakeven_months == 12
    assert [p.rent for p in r.series[11:14]] == [1550000, 2600000, 2650000]
    assert r.breakeven_utilisation is None  # no part of this rent follows use
    # an on-demand rent with a fixed charge beside it (offer #13: 116,800 at full use + 500 egress a month)
    # against 2,500,000 + 19,000 a month over 36 months: (3,184,000 − 500 × 36) ÷ (116,800 × 36) = 75.295 %
    mixed = rent_vs_buy(RentBuyInput(q(2500000), q(19000), q(116800), "CNY", rent_fixed_monthly=q(500)))
    assert mixed.breakeven_utilisation == Fraction(3184000 - 18000, 116800 * 36)
    with pytest.raises(BadInput, match="outside the horizon"):
        rent_vs_buy(RentBuyInput(q(1), q(1), q(1), "CNY", upfront=((36, q(1)),)))
