"""Per offer, per scenario: cost per delivered PFLOP-hour and the assumptions it rests on."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from econ_helpers import fx, offer, option, scenario

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import evaluate
from quotetui.domain.economics.explain import explain
from quotetui.domain.economics.inputs import Evidence
from quotetui.domain.enums import Metric, Provenance

A = Assumptions()


def _evidence(value: str, provenance: Provenance, id: int = 1, high: str | None = None) -> Evidence:
    return Evidence(
        id, provenance, Metric.MFU, Decimal(value), None if high is None else Decimal(high), source="test source"
    )


def test_cost_per_delivered_pflop_hour_follows_the_formula() -> None:
    e = evaluate(offer(option("58400"), availability="0.999", sla_credits=True), scenario(), fx(), A)
    assert e.cost_per_gpu_hour == 10  # 58,400 ÷ (8 × 730)
    assert e.cost_per_pflop_hour == Fraction(10) / (989 * Fraction(4, 10) * Fraction(999, 1000) / 1000)
    assert e.downtime_hours_per_year == Fraction(876, 100)
    assert e.annualised_tco == 58400 * 12


def test_mfu_source_order_verified_then_default_and_a_claim_only_below_it() -> None:
    claimed = _evidence("0.45", Provenance.CLAIMED, 1, high="0.52")
    verified = _evidence("0.38", Provenance.VERIFIED, 2)
    assert evaluate(offer(), scenario(), fx(), A).mfu.source == "default"
    c = evaluate(offer(evidence=(claimed,)), scenario(), fx(), A)
    assert (c.mfu.source, c.mfu.value) == ("default", Fraction(40, 100))  # a claim above the default buys nothing
    assert c.claimed_mfu is not None and c.claimed_mfu.value == Fraction(45, 100) and "low end" in c.claimed_mfu.note
    low = evaluate(offer(evidence=(_evidence("0.33", Provenance.CLAIMED, 3),)), scenario(), fx(), A).mfu
    assert (low.source, low.value) == ("claimed", Fraction(33, 100))  # below the default: conservative, used
    v = evaluate(offer(evidence=(claimed, verified)), scenario(), fx(), A).mfu
    assert (v.source, v.value) == ("verified", Fraction(38, 100))


def test_an_impossible_mfu_claim_is_not_used() -> None:
    m = evaluate(offer(evidence=(_evidence("0.9", Provenance.CLAIMED),)), scenario(), fx(), A).mfu
    assert m.source == "default" and "ignored" in m.note


def test_availability_from_sla_else_a_named_default() -> None:
    assert evaluate(offer(availability="0.9995", sla_credits=True), scenario(), fx(), A).availability.source == "sla"
    promise = evaluate(offer(availability="0.9995"), scenario(), fx(), A)  # no credit schedule: a claim
    assert (promise.availability.source, promise.availability.value) == ("default", Fraction(99, 100))
    assert promise.claimed_availability is not None and promise.claimed_availability.value == Fraction(9995, 10000)
    d = evaluate(offer(), scenario(), fx(), A).availability
    assert (d.source, d.value) == ("default", Fraction(99, 100)) and "no SLA" in d.note


def test_feasibility_stock_and_training_memory() -> None:
    short = evaluate(offer(nodes_available=2), scenario(gpus=32), fx(), A)
    assert not short.feasibility.ok and "only 2 nodes" in short.feasibility.blocking[0]
    # 175B parameters × 16 bytes = 2,800 GB; 32 × 80 GB = 2,560 GB is not enough, 40 GPUs are
    s32 = scenario(gpus=32, train_params=Decimal("175e9"))
    assert any("2,800 GB" in b for b in evaluate(offer(), s32, fx(), A).feasibility.blocking)
    assert evaluate(offer(), scenario(gpus=40, train_params=Decimal("175e9")), fx(), A).feasibility.ok


def test_every_figure_explains_itself() -> None:
    e = evaluate(offer(option("80000", amount_high=Decimal("120000")), availability="0.999"), scenario(), fx(), A)
    figures = {f.key: f for f in explain(e)}
    assert {"price_per_gpu_hour", "annualized_tco", "cost_per_pflop_hour", "mfu", "availability"} <= set(figures)
    assert any("high end" in line for line in figures["price_per_gpu_hour"].inputs)
    # an SLA of 99.9 % with no credit schedule is a claim: ranked at the default 99 %, 120,000 ÷ 5,840 ÷ 0.391644
    assert figures["cost_per_pflop_hour"].value == Decimal("52.465875")
    # and if the promise holds: 120,000 ÷ 5,840 ÷ (989 × 0.4 × 0.999 ÷ 1000 = 0.3952044)
    assert figures["cost_per_pflop_hour_if_claims_hold"].value == Decimal("51.993210")
    assert "peak dense BF16" in figures["cost_per_pflop_hour"].formula
    assert figures["mfu"].formula == "source: default"
