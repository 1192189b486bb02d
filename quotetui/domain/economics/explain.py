"""Every figure of an evaluation in words a buyer understands: the value, the formula, the inputs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.caveats import LOWER_BOUND, Caveats, figure_text
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.costing import OptionCost, base_option
from quotetui.domain.economics.display import money_text, quantity, stored_text
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import dec, pct, q, share_text
from quotetui.domain.economics.inputs import PriceOption
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.money import plain


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    label: str
    value: Decimal | None
    unit: str
    formula: str
    inputs: list[str] = field(default_factory=list)
    caveats: Caveats = NO_CAVEATS  # a cost figure's (``caveats.py``): ≥ a lower bound, ~ an estimate …

    @property
    def at_least(self) -> bool:
        """A lower bound: a cost the scenario incurs is not priced."""
        return self.caveats.lower_bound

    def display(self) -> str:
        """The value for people: money to 2 places (4 per GPU-hour), ratios to 4, counts as they are; a cost
        with its caveats' marks (``caveats.figure_text``)."""
        if self.value is None:
            return ""
        if self.unit.startswith("fraction"):  # a share reads as a percentage: "40 % of peak", not "0.4 fraction"
            return f"{share_text(self.value)}{self.unit.removeprefix('fraction')}"
        if self.unit[:3].isupper() and self.unit[:3].isalpha():
            places = 4 if "/GPU-h" in self.unit else 2
            return f"{figure_text(self.value, self.caveats, places)} {self.unit}"
        return f"{plain(self.value)} {self.unit}".rstrip()

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "label": self.label,
            "value": None if self.value is None else str(self.value),
            "unit": self.unit,
            "formula": self.formula,
            "inputs": self.inputs,
            "at_least": self.at_least,
            "estimate": bool(self.caveats.estimates),
        }


def _nodes(n: int) -> str:
    return f"{n} node" if n == 1 else f"{n} nodes"


def quoted_option(o: PriceOption) -> str:
    amount = stored_text(o.amount, o.currency)
    if o.amount_high is not None:
        amount += f"–{stored_text(o.amount_high, o.currency)}"
    return f"quoted {amount} {o.currency} {UNIT_WORDS[o.unit]}, {o.label}"


def _option_lines(e: Evaluation, c: OptionCost) -> list[str]:
    if c.segments:  # mixed terms: each part over its months, then the sum
        long, short = c.segments
        lines = [f"mixed terms, {c.label}: whole terms for the first {long.months} months, the rest after"]
        start = 1
        for seg in c.segments:
            span = f"month {start}" if seg.months == 1 else f"months {start}–{start + seg.months - 1}"
            lines += [f"{span}: {line}" for line in _option_lines(e, seg)]
            start += seg.months
        home = e.currency
        lines.append(
            f"compute {money_text(long.compute_total, home)} + {money_text(short.compute_total, home)} = "
            f"{money_text(c.compute_total, home)}"
        )
        return lines
    o, cur, home = c.option, e.offer.currency, e.currency
    lines = [quoted_option(o)]
    if o.amount_high is not None:
        lines.append(
            f"a range is not a commitment: costed at the high end, {stored_text(o.amount_high, o.currency)}"
            f" {o.currency}"
        )
    if o.is_estimate:
        lines.append("the provider marks this price as an estimate")
    lines.append(f"= {money_text(c.list_node_month, cur)} per node-month before discounts")
    for step in c.steps:
        if step.applied:
            assert step.before is not None and step.after is not None
            lines.append(
                f"× (1 − {pct(q(step.discount.rate or 0), 2)} %) {step.discount.label}: "
                f"{money_text(step.before, cur)} → {money_text(step.after, cur)}"
            )
        else:
            lines.append(f"not applied: {step.discount.label}: {step.reason}")
    lines += _vat_lines(e, c)
    if c.fx is not None:
        lines.append(f"converted at {c.fx.text()}")
    lines.append(
        o.billing.compute_words(
            _nodes(e.nodes),
            money_text(c.effective_node_month, cur),
            pct(c.usage_factor, 1),
            c.billed_months,
            c.months,
            money_text(c.compute_total, home),
        )
    )
    return lines


def _vat_lines(e: Evaluation, c: OptionCost) -> list[str]:
    """How VAT enters the price: only when costs are shown net of recoverable VAT (a setting)."""
    o, a = e.offer, e.assumptions
    if not a.net_of_vat:
        return []
    factor = a.vat_factor(o.vat_rate, o.special_invoice)
    if factor == 1:
        why = "no VAT rate recorded" if o.vat_rate is None else "no 专票: the VAT cannot be recovered"
        return [f"costs net of recoverable VAT: {why}, costed as invoiced"]
    gross = c.effective_node_month / factor
    return [
        f"÷ (1 + {pct(q(o.vat_rate or 0), 2)} %) VAT recovered with the 专票: "
        f"{money_text(gross, o.currency)} → {money_text(c.effective_node_month, o.currency)} (extras alike)"
    ]


def explain(e: Evaluation) -> list[Figure]:
    s, cur, best = e.scenario, e.currency, e.best
    hpm = e.assumptions.hours_per_month
    figures = [
        Figure(
            "nodes",
            "Nodes needed",
            Decimal(e.nodes),
            "",
            "⌈GPUs needed ÷ GPUs per node⌉",
            [f"{s.gpu_count} GPUs in scenario {s.name!r}", f"{e.offer.gpus_per_node} GPUs per node"],
        ),
        Figure(
            "quoted_price_per_gpu_hour",
            "Quoted price per GPU-hour",
            dec(e.quoted_gpu_hour),
            f"{e.offer.currency}/GPU-h",
            f"current quote converted at {hpm} hours a month, before discounts",
            [quoted_option(base_option(e.offer.options))],
        ),
    ]
    extras_lines = []
    for line in best.extras:
        if line.included:
            amount = (
                f"{money_text(line.monthly, cur)} a month" if line.monthly else f"{money_text(line.one_off, cur)} once"
            )
            extras_lines.append(
                f"{line.extra.label}: {line.extra.amount} {line.extra.currency} × {line.reason} = {amount}"
            )
        else:
            extras_lines.append(f"{line.extra.label}: {line.reason}")
    figures += [
        Figure(
            "price_per_gpu_hour",
            "Effective price per GPU-hour",
            dec(e.price_per_gpu_hour),
            f"{cur}/GPU-h",
            "effective node-month price (after the discounts that apply) ÷ (GPUs per node × hours a month)",
            _option_lines(e, best),
        ),
        Figure(
            "extras",
            "Extra costs over the scenario",
            dec(best.extras_total),
            cur,
            "recurring extras × months + one-off fees; unpriced items are not included",
            extras_lines or ["none"],
        ),
        Figure(
            "total",
            "Total for the scenario",
            dec(best.total),
            cur,
            "compute + extras",
            [
                f"compute {money_text(best.compute_total, cur)}",
                f"extras {money_text(best.extras_total, cur)}",
                f"cheapest way to buy: {best.label}",
            ],
        ),
        Figure(
            "monthly_cost",
            "Monthly cost",
            dec(best.monthly),
            cur,
            "total ÷ months",
            [f"{money_text(best.total, cur)} ÷ {s.months} months"],
        ),
        Figure(
            "annualized_tco",
            "Annualised TCO",
            dec(e.annualised_tco),
            cur,
            "a year of the need: recurring costs × 12 ÷ months, one-off fees spread over the months (counted once "
            "when the need is shorter than a year)",
            [
                f"{money_text(best.total, cur)} × 12 ÷ {s.months}"
                if not best.one_off_total
                else f"({money_text(best.total, cur)} − {money_text(best.one_off_total, cur)} one-off) × 12 ÷ "
                f"{s.months} + {money_text(best.one_off_total, cur)} × 12 ÷ {max(s.months, 12)}",
                f"committed in all: {money_text(best.total, cur)} for the {s.months} months of need"
                + (f" ({best.billed_months} months billed: whole terms)" if best.billed_months > s.months else ""),
            ],
        ),
        Figure(
            "term_options",
            "Term options",
            None,
            "",
            "each way to buy, for this scenario's months; cheapest first",
            [f"{c.label}: {money_text(c.total, cur)} ({money_text(c.monthly, cur)} a month)" for c in e.options],
        ),
        Figure(
            "cost_per_gpu_hour",
            "All-in cost per used GPU-hour",
            dec(e.cost_per_gpu_hour),
            f"{cur}/GPU-h",
            "total ÷ (GPUs × hours a month × utilisation × months)",
            [
                f"{money_text(best.total, cur)} ÷ ({s.gpu_count} × {hpm} × {share_text(s.utilisation)} × {s.months})"
                f" = {money_text(best.total, cur)} ÷ {quantity(e.used_gpu_hours)} GPU-hours"
            ],
        ),
        Figure(
            "mfu",
            "MFU",
            dec(e.effective_mfu, 4),
            "fraction of peak",
            f"source: {e.mfu.source}",
            [e.mfu.note]
            + (
                [
                    f"{pct(e.mfu.value, 1)} % × {dec(e.scaling.value, 2)} scaling = {pct(e.effective_mfu, 1)} %: "
                    f"{e.scaling.note}"
                ]
                if e.scaling.value != 1
                else []
            ),
        ),
        Figure(
            "availability",
            "Availability",
            dec(e.availability.value, 6),
            "fraction",
            f"source: {e.availability.source}",
            [e.availability.note],
        ),
        Figure(
            "downtime_hours_per_year",
            "Expected downtime",
            dec(e.downtime_hours_per_year, 2),
            "hours/year",
            "(1 − availability) × 8,760 h",
            [f"(1 − {share_text(e.availability.value)}) × {e.assumptions.hours_per_year:,}"],
        ),
        Figure(
            "cost_per_pflop_hour",
            "Cost per delivered PFLOP-hour",
            dec(e.cost_per_pflop_hour),
            f"{cur}/PFLOP-h",
            "cost per used GPU-hour ÷ (peak dense BF16 TFLOPS × MFU × availability ÷ 1000)",
            [
                f"{money_text(e.cost_per_gpu_hour, cur, 4)} ÷ ({e.offer.gpu.bf16_tflops} × "
                f"{share_text(e.effective_mfu)} × {share_text(e.availability.value)} ÷ 1000) — "
                f"{e.offer.gpu.name} peak from the catalog"
            ],
        ),
        *_claims_figure(e),
        Figure(
            "feasibility",
            "Feasibility",
            None,
            "ok" if e.feasibility.confirmed else e.feasibility.state,  # "ok" as explain --json has always said
            "enough GPUs and nodes on offer, a network for multi-node jobs, memory for the training run",
            [f"blocking: {b}" for b in e.feasibility.blocking]
            + [f"ask: {q} (ranked after the confirmed offers until answered)" for q in e.feasibility.questions]
            + [f"note: {w}" for w in e.feasibility.warnings]
            or ["nothing stands in the way"],
        ),
    ]
    if e.unknowns:
        figures.append(
            Figure(
                "unknowns",
                "Not yet known",
                None,
                "",
                (
                    "costs the scenario incurs that the offer does not price make every cost figure a lower "
                    f"bound ({LOWER_BOUND}): ask before comparing"
                    if e.lower_bound
                    else "fine print without a figure: ask before comparing"
                ),
                list(e.unknowns),
            )
        )
    if e.caveats:
        figures = [replace(f, caveats=e.caveats) if f.key in COST_FIGURES else f for f in figures]
    return figures


def _claims_figure(e: Evaluation) -> list[Figure]:
    """The second figure: the cost per delivered PFLOP-hour if the unverified claims hold (never ranked on)."""
    claimed = e.if_claims_hold
    if claimed is None:
        return []
    mfu = (e.claimed_mfu or e.mfu).value * (e.claimed_scaling or e.scaling).value
    availability = (e.claimed_availability or e.availability).value
    notes = [a.note for a in (e.claimed_mfu, e.claimed_availability) if a is not None]
    return [
        Figure(
            "cost_per_pflop_hour_if_claims_hold",
            "If the claims hold",
            dec(claimed),
            f"{e.currency}/PFLOP-h",
            "the same cost with the unverified claims taken as stated; ranked on the figure above until a log "
            "verifies them",
            [
                f"{money_text(e.cost_per_gpu_hour, e.currency, 4)} ÷ ({e.offer.gpu.bf16_tflops} × {share_text(mfu)} × "
                f"{share_text(availability)} ÷ 1000)",
                *notes,
            ],
        )
    ]


COST_FIGURES = frozenset(
    {
        "extras",
        "total",
        "monthly_cost",
        "annualized_tco",
        "cost_per_gpu_hour",
        "cost_per_pflop_hour",
        "cost_per_pflop_hour_if_claims_hold",
    }
)
"""The figures an unpriced cost makes lower bounds."""


def cost_text(e: Evaluation, value: Fraction, places: int) -> str:
    """A cost figure of ``e`` with its own caveats (``caveats.figure_text``): ``≥ ~1,234.56``."""
    return figure_text(value, e.caveats, places)
