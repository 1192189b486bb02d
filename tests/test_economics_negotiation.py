"""Negotiation maths: savings across rounds, the BATNA and a target price that really beats it."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from econ_helpers import TODAY, fx, offer, option, scenario

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import evaluate
from quotetui.domain.economics.inputs import ExtraTerm, Revision
from quotetui.domain.economics.negotiation import find_batna, savings, target_price
from quotetui.domain.enums import ExtraBasis, ExtraKind, InterFabric, OfferStatus, PriceUnit

A = Assumptions()


def test_savings_against_the_first_offer_and_the_list_price() -> None:
    rounds = (
        Revision(1, "list", TODAY, (option("120000"),)),
        Revision(2, "provider", TODAY, (option("100000"),)),
        Revision(3, "counter", TODAY, (option("80000"),)),
        Revision(4, "provider", TODAY, (option("90000"),)),
    )
    s = savings(offer(option("90000"), revisions=rounds), A)
    assert s is not None
    assert (s.current.seq, s.first.seq, s.list_price and s.list_price.seq) == (4, 2, 1)
    assert s.vs_first == Fraction(1, 10) and s.vs_list == Fraction(1, 4)


def test_batna_is_the_best_feasible_offer_of_another_provider() -> None:
    s = scenario(gpus=16)
    this = evaluate(offer(option("90000"), id=1, provider="A"), s, fx(), A)
    sibling = evaluate(offer(option("10000"), id=2, provider="A"), s, fx(), A)  # same provider: no leverage
    lonely = evaluate(offer(option("5000"), id=3, provider="B", gpn=1, inter=InterFabric.NONE), s, fx(), A)
    rejected = evaluate(offer(option("20000"), id=4, provider="C", status=OfferStatus.REJECTED), s, fx(), A)
    real = evaluate(offer(option("70000"), id=5, provider="D"), s, fx(), A)
    worse = evaluate(offer(option("75000"), id=6, provider="E"), s, fx(), A)
    batna = find_batna(this, [this, sibling, lonely, rejected, real, worse])
    assert batna is not None and batna.offer.id == 5


def test_target_price_in_the_offers_own_unit_beats_the_batna_by_a_cent() -> None:
    from quotetui.domain.enums import PriceUnit

    s = scenario(gpus=16, months=6, egress_tb_month=Decimal(3))
    egress = (ExtraTerm(1, ExtraKind.EGRESS, ExtraBasis.PER_GB, Decimal("0.5"), "CNY"),)
    this_offer = offer(option("160", PriceUnit.NODE_HOUR, 0), id=1, provider="A", extras=egress, availability="0.999")
    this = evaluate(this_offer, s, fx(), A)
    batna = evaluate(offer(option("70000"), id=2, provider="B"), s, fx(), A)
    t = target_price(this, batna, fx(), A)
    assert t is not None and not t.already_beats
    assert t.option.unit is PriceUnit.NODE_HOUR and t.amount == t.amount.quantize(Decimal("0.01"))

    def cost_at(price: Decimal) -> Fraction:
        cheaper = replace(this_offer, options=(option(str(price), PriceUnit.NODE_HOUR, 0),))
        return evaluate(cheaper, s, fx(), A).cost_per_pflop_hour

    assert cost_at(t.amount) < batna.cost_per_pflop_hour <= cost_at(t.amount + Decimal("0.01"))


def test_an_offer_that_already_wins_shows_its_headroom() -> None:
    s = scenario()
    this = evaluate(offer(option("60000"), id=1, provider="A"), s, fx(), A)
    batna = evaluate(offer(option("70000"), id=2, provider="B"), s, fx(), A)
    t = target_price(this, batna, fx(), A)
    assert t is not None and t.already_beats and t.cut < 0
    assert t.amount == Decimal("69999.99")


def test_every_batna_at_once_agrees_with_one_at_a_time() -> None:
    from quotetui.domain.economics.negotiation import batnas

    s = scenario(gpus=16)
    prices = {1: ("A", "90000"), 2: ("A", "60000"), 3: ("B", "70000"), 4: ("C", "65000"), 5: ("C", "99000")}
    evaluations = [evaluate(offer(option(p), id=i, provider=who), s, fx(), A) for i, (who, p) in prices.items()]
    fast = batnas(evaluations)
    for e in evaluations:
        slow = find_batna(e, evaluations)
        assert (fast[e.offer.id].offer.id if fast[e.offer.id] else None) == (slow.offer.id if slow else None)


def _annual_prepay(price: str, pid: int = 1, provider: str = "A"):  # type: ignore[no-untyped-def]
    from quotetui.domain.economics.inputs import DiscountTerm
    from quotetui.domain.enums import DiscountKind

    d = DiscountTerm(1, DiscountKind.TERM, Decimal("0.15"), min_term_months=12, requires_prepay=True)
    return offer(option(price), id=pid, provider=provider, discounts=(d,))


def test_the_headline_target_counts_every_way_to_buy() -> None:
    """Issue 30 point 4, worked by hand. This offer: 85,000 a node-month, 15 % off an annual prepaid term:
    12 × 85,000 × 0.85 = 867,000 for a year of one node. The BATNA: 80,000 a month, 960,000. Same GPU, MFU and
    availability, so the goal is a total under 960,000: the annual prepaid way already beats it, and it keeps
    beating it up to 960,000 ÷ (12 × 0.85) = 94,117.647… a node-month → 94,117.64."""
    s = scenario()
    this = evaluate(_annual_prepay("85000"), s, fx(), A)
    batna = evaluate(offer(option("80000"), id=2, provider="B"), s, fx(), A)
    assert this.best.total == 867000 and batna.best.total == 960000
    t = target_price(this, batna, fx(), A)
    assert t is not None and t.already_beats
    assert t.amount == Decimal("94117.64") and t.way == "annual prepaid · term discount"
    assert t.exact == Fraction(960000, 1) / Fraction(102, 10)
    # the monthly option alone would have to come down to 79,999.99 (12 × 80,000 is a tie, not a win)
    from quotetui.domain.economics.negotiation import target_for

    alone = target_for(this, this.offer.options[0], batna, fx(), A)
    assert alone is not None and alone.amount == Decimal("79999.99") and not alone.already_beats


def test_the_headline_target_really_beats_the_batna_at_every_price_tried() -> None:
    """Brute force: at the target the offer (re-evaluated with that price) beats the BATNA, a cent above it
    does not, for several prices and BATNAs."""
    s = scenario(gpus=16)
    for price, rival in (("120000", "80000"), ("85000", "80000"), ("60000", "90000"), ("100000", "70000")):
        this = evaluate(_annual_prepay(price), s, fx(), A)
        batna = evaluate(offer(option(rival), id=2, provider="B"), s, fx(), A)
        t = target_price(this, batna, fx(), A)
        assert t is not None
        at = evaluate(_annual_prepay(str(t.amount)), s, fx(), A)
        above = evaluate(_annual_prepay(str(t.amount + Decimal("0.01"))), s, fx(), A)
        assert at.cost_per_pflop_hour < batna.cost_per_pflop_hour <= above.cost_per_pflop_hour, (price, rival)
        assert t.already_beats == (this.cost_per_pflop_hour < batna.cost_per_pflop_hour)


def test_a_quoted_way_that_already_beats_beats_whatever_the_base_price() -> None:
    # a quoted prepaid year of 700,000 (not built on the monthly price) beats a 960,000 BATNA: whatever the
    # monthly price, the offer beats it
    s = scenario()
    this = evaluate(
        offer(option("200000"), option("700000", PriceUnit.TERM_TOTAL, 12, prepay=True), id=1, provider="A"), s, fx(), A
    )
    batna = evaluate(offer(option("80000"), id=2, provider="B"), s, fx(), A)
    t = target_price(this, batna, fx(), A)
    assert t is not None and t.whatever_price and t.already_beats and t.way == "annual prepaid"


def test_an_options_target_at_other_rates_than_its_evaluation_is_costed_at_those_rates() -> None:
    """``target_for`` takes the option's cost from the evaluation only when it was costed at the very rates and
    assumptions asked for; at other rates it is costed again (the USD price: 8 CNY a dollar, not 7)."""
    from quotetui.domain.economics.costing import cost_option
    from quotetui.domain.economics.negotiation import option_positions

    s = scenario(gpus=16)
    this_offer = offer(option("10000", currency="USD"), id=1, provider="A")
    at7, at8 = fx(("USD", "CNY", "7")), fx(("USD", "CNY", "8"))
    this = evaluate(this_offer, s, at7, A)
    batna = evaluate(offer(option("70000"), id=2, provider="B"), s, at7, A)
    goal = batna.cost_per_pflop_hour * this.delivered_pflop_hours
    for rates, rate in ((at7, 7), (at8, 8)):
        [position] = option_positions(this, batna, rates, A)
        assert position.target is not None
        # by hand: 2 nodes × 10,000 USD a node-month × the rate × 12 months of compute per USD of price
        compute_per_usd = Fraction(2 * 10000 * rate * s.months, 10000)
        assert cost_option(this_offer, this_offer.options[0], s, rates, A).compute_total == compute_per_usd * 10000
        assert position.target.exact == goal / compute_per_usd
