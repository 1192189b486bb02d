"""Issue 30 point 2: an unverified claim never makes an offer cheaper than the default would. Rank on verified
evidence, else the default; a claim below the default may lower it (conservative); "if the claims hold" is a
second figure. The same for an SLA's availability without a credit schedule. Figures worked by hand."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from econ_helpers import fx, offer, option, scenario

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import evaluate, rank
from quotetui.domain.economics.inputs import Evidence
from quotetui.domain.enums import Metric, Provenance

A = Assumptions()


def _claim(value: str, id: int = 1, provenance: Provenance = Provenance.CLAIMED) -> Evidence:
    return Evidence(id, provenance, Metric.MFU, Decimal(value), gpu_count=8)


def test_a_big_claim_no_longer_outranks_a_cheaper_offer() -> None:
    # A: 84,000 a node-month claiming 55 % MFU; B: 80,000 with no claim. Old rule: A at the 50 % cap, 84,000 ÷
    # 0.5 = 168,000 per unit of MFU against B's 80,000 ÷ 0.4 = 200,000: A first. Now both rank at 40 %: B first.
    a = evaluate(offer(option("84000"), id=1, provider="A", evidence=(_claim("0.55"),)), scenario(), fx(), A)
    b = evaluate(offer(option("80000"), id=2, provider="B"), scenario(), fx(), A)
    assert [e.offer.id for e in rank([a, b])] == [2, 1]
    # A's figures: 84,000 ÷ 5,840 GPU-hours a month = 14.3836 a GPU-hour; ÷ (989 × 0.4 × 0.99 ÷ 1000) ranked,
    # ÷ (989 × 0.55 × 0.99 ÷ 1000) if the claim holds
    per_gpu_hour = Fraction(84000, 5840)
    assert a.cost_per_pflop_hour == per_gpu_hour / (989 * Fraction(4, 10) * Fraction(99, 100) / 1000)
    assert a.if_claims_hold == per_gpu_hour / (989 * Fraction(55, 100) * Fraction(99, 100) / 1000)
    assert b.if_claims_hold is None


def test_a_claim_below_the_default_lowers_the_mfu() -> None:
    e = evaluate(offer(evidence=(_claim("0.30"),)), scenario(), fx(), A)
    assert (e.mfu.source, e.mfu.value) == ("claimed", Fraction(3, 10)) and e.if_claims_hold is None


def test_verified_evidence_ranks_above_or_below_the_default() -> None:
    high = evaluate(offer(evidence=(_claim("0.55", provenance=Provenance.VERIFIED),)), scenario(), fx(), A)
    assert (high.mfu.source, high.mfu.value) == ("verified", Fraction(55, 100))
    assert high.if_claims_hold is None  # nothing unverified left


def test_availability_counts_only_with_a_credit_schedule() -> None:
    # 99.95 % with credits: used. Without: the default 99 %, 99.95 % as "if the claims hold". 98 % without
    # credits: below the default, used (conservative).
    credited = evaluate(offer(availability="0.9995", sla_credits=True), scenario(), fx(), A)
    assert (credited.availability.source, credited.availability.value) == ("sla", Fraction(9995, 10000))
    assert credited.if_claims_hold is None
    promise = evaluate(offer(availability="0.9995"), scenario(), fx(), A)
    assert promise.availability.value == Fraction(99, 100)
    per_gpu_hour = Fraction(80000, 5840)
    assert promise.if_claims_hold == per_gpu_hour / (989 * Fraction(4, 10) * Fraction(9995, 10000) / 1000)
    low = evaluate(offer(availability="0.98"), scenario(), fx(), A)
    assert (low.availability.source, low.availability.value) == ("claimed", Fraction(98, 100))


def test_a_question_open_ranks_after_the_confirmed_and_is_never_a_batna() -> None:
    """Issue 30 point 6: 16 GPUs are 2 nodes; A (cheapest) states no scale-out network: "?"."""
    from quotetui.domain.economics.evaluate import positions
    from quotetui.domain.economics.negotiation import find_batna
    from quotetui.domain.enums import InterFabric

    s = scenario(gpus=16)
    a = evaluate(offer(option("60000"), id=1, provider="A", inter=InterFabric.UNKNOWN), s, fx(), A)
    b = evaluate(offer(option("80000"), id=2, provider="B"), s, fx(), A)
    c = evaluate(offer(option("90000"), id=3, provider="C"), s, fx(), A)
    assert a.feasibility.mark == "?" and a.feasibility.ok and not a.feasibility.confirmed
    ranked = rank([a, b, c])
    assert [e.offer.id for e in ranked] == [2, 3, 1] and positions(ranked) == [1, 2, 3]
    batna = find_batna(c, [a, b, c])
    assert batna is not None and batna.offer.id == 2  # A is cheaper but not confirmed
