"""Issue 30 point 3: each way to buy is (term, prepayment); a discount applies by its conditions; of several
tiers of one kind only the best that applies counts; a price the round quotes for a way is that way's price.

Every expected figure is worked by hand in the test, before the engine runs."""

from __future__ import annotations

from decimal import Decimal

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.costing import cost_option
from quotetui.domain.economics.evaluate import evaluate
from quotetui.domain.economics.inputs import DiscountTerm
from quotetui.domain.enums import DiscountKind, PriceUnit
from tests.econ_helpers import fx, offer, option, scenario

A = Assumptions()
NO_FX = fx()


def _d(id: int, kind: DiscountKind, rate: str, **kw) -> DiscountTerm:  # type: ignore[no-untyped-def]
    return DiscountTerm(id, kind, Decimal(rate), **kw)


def test_two_volume_tiers_of_equal_rate_do_not_stack() -> None:
    # 3 % from 64 GPUs and 3 % from 128: at 128 GPUs (16 nodes) the node-month is 100,000 × 0.97 = 97,000,
    # never 100,000 × 0.97 × 0.97 = 94,090 (×0.9409)
    o = offer(option("100000"), discounts=(_d(1, DiscountKind.VOLUME, "0.03", min_gpus=64),
                                           _d(2, DiscountKind.VOLUME, "0.03", min_gpus=128)))  # fmt: skip
    c = cost_option(o, o.options[0], scenario(gpus=128), NO_FX, A)
    assert c.effective_node_month == 97000
    assert c.compute_total == 97000 * 16 * 12  # 18,624,000
    applied = [s.discount.id for s in c.steps if s.applied]
    assert applied == [1]  # the first listed of equal rates
    assert "tiers do not stack" in c.steps[1].reason


def test_the_best_volume_tier_that_applies_counts() -> None:
    # 3 % from 64, 5 % from 128: 64 GPUs → 97,000; 128 → 95,000; 56 (7 nodes) → 100,000
    o = offer(option("100000"), discounts=(_d(1, DiscountKind.VOLUME, "0.03", min_gpus=64),
                                           _d(2, DiscountKind.VOLUME, "0.05", min_gpus=128)))  # fmt: skip
    node_month = {
        g: cost_option(o, o.options[0], scenario(gpus=g), NO_FX, A).effective_node_month for g in (56, 64, 128)
    }
    assert node_month == {56: 100000, 64: 97000, 128: 95000}


def test_discounts_of_different_kinds_each_apply() -> None:
    # a volume tier (5 % from 64) and a negotiated 10 %: 100,000 × 0.95 × 0.90 = 85,500 at 64 GPUs
    o = offer(option("100000"), discounts=(_d(1, DiscountKind.VOLUME, "0.05", min_gpus=64),
                                           _d(2, DiscountKind.NEGOTIATED, "0.10")))  # fmt: skip
    assert cost_option(o, o.options[0], scenario(gpus=64), NO_FX, A).effective_node_month == 85500


def test_a_quoted_prepaid_total_is_that_ways_price() -> None:
    # monthly 90,000 a node-month; a 12-month prepaid total of 1,080,000; 5 % off for annual prepay.
    # The round quotes the prepaid year: it costs 1,080,000, never a self-built 90,000 × 12 × 0.95 = 1,026,000.
    o = offer(option("90000"), option("1080000", PriceUnit.TERM_TOTAL, 12, prepay=True),
              discounts=(_d(1, DiscountKind.PREPAY, "0.05", min_term_months=12),))  # fmt: skip
    e = evaluate(o, scenario(), NO_FX, A)
    totals = sorted(c.total for c in e.options)
    assert 1026000 not in totals
    assert totals == [1080000, 1080000]  # monthly 12 × 90,000 and the prepaid year, tied
    assert e.best.option.term_months == 1  # a tie goes to the shorter term
    year = next(c for c in e.options if c.option.unit is PriceUnit.TERM_TOTAL)
    assert not any(s.applied for s in year.steps)


def test_an_unprepaid_quoted_total_gets_its_prepaid_variant_from_its_own_price() -> None:
    # a 12-month total of 1,140,000 paid as it goes; 5 % off for annual prepay: the prepaid year is
    # 1,140,000 × 0.95 = 1,083,000
    o = offer(option("100000"), option("1140000", PriceUnit.TERM_TOTAL, 12),
              discounts=(_d(1, DiscountKind.PREPAY, "0.05", min_term_months=12),))  # fmt: skip
    e = evaluate(o, scenario(), NO_FX, A)
    assert e.best.total == 1083000
    assert e.best.option.prepay and e.best.option.label == "annual prepaid · prepay discount"


def test_the_label_says_which_discount_made_the_way() -> None:
    # 2 % off for paying each month in advance: 12 × 100,000 × 0.98 = 1,176,000
    o = offer(option("100000"), discounts=(_d(1, DiscountKind.PREPAY, "0.02"),))
    e = evaluate(o, scenario(), NO_FX, A)
    assert e.best.total == 1176000
    assert e.best.label == "monthly prepaid · prepay discount"
    term = offer(option("100000"), discounts=(_d(1, DiscountKind.TERM, "0.10", min_term_months=12),))
    assert evaluate(term, scenario(), NO_FX, A).best.label == "annual · term discount"  # 1,080,000


def test_two_term_tiers_each_make_their_way_and_the_best_applies() -> None:
    # 10 % from 12 months, 15 % from 24: a 24-month need costs 24 × 100,000 × 0.85 = 2,040,000 on the 24-month
    # way (the 12-month tier does not stack on it), 2 × 12 × 90,000 = 2,160,000 on two annual terms
    o = offer(option("100000"), discounts=(_d(1, DiscountKind.TERM, "0.10", min_term_months=12),
                                           _d(2, DiscountKind.TERM, "0.15", min_term_months=24)))  # fmt: skip
    e = evaluate(o, scenario(months=24), NO_FX, A)
    totals = {c.label: c.total for c in e.options}
    assert totals["2-year · term discount"] == 2040000
    assert totals["annual · term discount"] == 2160000
    assert totals["monthly"] == 2400000
