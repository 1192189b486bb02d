"""Every figure of an evaluation in words a buyer understands: the value, the formula, the inputs."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.assumptions import Assumed
from quotetui.domain.economics.caveats import LOWER_BOUND, Caveats, figure_text
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.costing import OptionCost, base_option
from quotetui.domain.economics.display import is_money, money_text, quantity, stored_text
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import dec, pct, percent_text, q, share_text
from quotetui.domain.economics.inputs import PriceOption
from quotetui.domain.economics.units import PER_GPU_HOUR, PER_PFLOP_HOUR, UNIT_WORDS, rate_unit, rate_unit_words
from quotetui.domain.money import plain
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import labelled, quoted


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
        if self.unit == OF_PEAK:  # a share reads as a percentage: "40 % of peak", not "0.4 fraction"
            return _("{share} of peak").format(share=share_text(self.value))
        if self.unit.startswith("fraction"):
            return f"{share_text(self.value)}{self.unit.removeprefix('fraction')}"
        if is_money(self.unit):
            places = 4 if self.unit.endswith("/" + PER_GPU_HOUR) else 2
            return f"{figure_text(self.value, self.caveats, places, money=True)} {rate_unit_words(self.unit)}"
        return f"{plain(self.value)} {_(self.unit) if self.unit else ''}".rstrip()

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


OF_PEAK = "fraction of peak"
"""The MFU figure's unit (as ``explain --json`` has it): shown as "40 % of peak"."""
HOURS_A_YEAR = N_("hours/year")
"""The downtime figure's unit, shown in the language in use."""


def _nodes(n: int) -> str:
    return ngettext("{n} node", "{n} nodes", n).format(n=n)


def quoted_option(o: PriceOption) -> str:
    amount = stored_text(o.amount, o.currency)
    if o.amount_high is not None:
        amount += f"–{stored_text(o.amount_high, o.currency)}"
    return _("quoted {amount} {currency} {unit}, {way}").format(
        amount=amount, currency=o.currency, unit=_(UNIT_WORDS[o.unit]), way=o.shown
    )


def _option_lines(e: Evaluation, c: OptionCost) -> list[str]:
    if c.segments:  # mixed terms: each part over its months, then the sum
        long, short = c.segments
        lines = [
            _("mixed terms, {way}: whole terms for the first {months} months, the rest after").format(
                way=c.shown, months=long.months
            )
        ]
        start = 1
        for seg in c.segments:
            span = (
                _("month {first}").format(first=start)
                if seg.months == 1
                else _("months {first}–{last}").format(first=start, last=start + seg.months - 1)
            )
            lines += [f"{span}: {line}" for line in _option_lines(e, seg)]
            start += seg.months
        home = e.currency
        lines.append(
            _("compute {first} + {rest} = {total}").format(
                first=money_text(long.compute_total, home),
                rest=money_text(short.compute_total, home),
                total=money_text(c.compute_total, home),
            )
        )
        return lines
    o, cur, home = c.option, e.offer.currency, e.currency
    lines = [quoted_option(o)]
    if o.amount_high is not None:
        lines.append(
            _("a range is not a commitment: costed at the high end, {amount} {currency}").format(
                amount=stored_text(o.amount_high, o.currency), currency=o.currency
            )
        )
    if o.is_estimate:
        lines.append(_("the provider marks this price as an estimate"))
    lines.append(_("= {amount} per node-month before discounts").format(amount=money_text(c.list_node_month, cur)))
    for step in c.steps:
        if step.applied:
            assert step.before is not None and step.after is not None
            lines.append(
                _("× (1 − {rate}) {discount}: {before} → {after}").format(
                    rate=percent_text(q(step.discount.rate or 0), 2),
                    discount=step.discount.shown,
                    before=money_text(step.before, cur),
                    after=money_text(step.after, cur),
                )
            )
        else:
            lines.append(
                _("not applied: {discount}: {reason}").format(discount=step.discount.shown, reason=step.reason)
            )
    lines += _vat_lines(e, c)
    if c.fx is not None:
        lines.append(_("converted at {rate}").format(rate=c.fx.text()))
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
        why = _("no VAT rate recorded") if o.vat_rate is None else _("no 专票: the VAT cannot be recovered")
        return [_("costs net of recoverable VAT: {why}, costed as invoiced").format(why=why)]
    gross = c.effective_node_month / factor
    return [
        _("÷ (1 + {rate}) VAT recovered with the 专票: {gross} → {net} (extras alike)").format(
            rate=percent_text(q(o.vat_rate or 0), 2),
            gross=money_text(gross, o.currency),
            net=money_text(c.effective_node_month, o.currency),
        )
    ]


def explain(e: Evaluation) -> list[Figure]:
    s, cur, best = e.scenario, e.currency, e.best
    hpm = e.assumptions.hours_per_month
    figures = [
        Figure(
            "nodes",
            _("Nodes needed"),
            Decimal(e.nodes),
            "",
            _("⌈GPUs needed ÷ GPUs per node⌉"),
            [
                _("{n} GPUs in scenario {name}").format(n=s.gpu_count, name=quoted(s.name)),
                _("{n} GPUs per node").format(n=e.offer.gpus_per_node),
            ],
        ),
        Figure(
            "quoted_price_per_gpu_hour",
            _("Quoted price per GPU-hour"),
            dec(e.quoted_gpu_hour),
            rate_unit(e.offer.currency, PER_GPU_HOUR),
            _("current quote converted at {hours} hours a month, before discounts").format(hours=hpm),
            [quoted_option(base_option(e.offer.options))],
        ),
    ]
    extras_lines = []
    for line in best.extras:
        if line.included:
            assert line.extra.amount is not None  # an extra without an amount is never included
            amount = (
                _("{amount} a month").format(amount=money_text(line.monthly, cur))
                if line.monthly
                else _("{amount} once").format(amount=money_text(line.one_off, cur))
            )
            extras_lines.append(
                _("{extra}: {amount} {currency} × {usage} = {total}").format(
                    extra=line.extra.shown,
                    amount=stored_text(line.extra.amount, line.extra.currency),
                    currency=line.extra.currency,
                    usage=line.reason,
                    total=amount,
                )
            )
        else:
            extras_lines.append(labelled(line.extra.shown, line.reason))
    committed = (
        _("committed in all: {total} for the {months} months of need ({billed} months billed: whole terms)")
        if best.billed_months > s.months
        else _("committed in all: {total} for the {months} months of need")
    ).format(total=money_text(best.total, cur), months=s.months, billed=best.billed_months)
    figures += [
        Figure(
            "price_per_gpu_hour",
            _("Effective price per GPU-hour"),
            dec(e.price_per_gpu_hour),
            rate_unit(cur, PER_GPU_HOUR),
            _("effective node-month price (after the discounts that apply) ÷ (GPUs per node × hours a month)"),
            _option_lines(e, best),
        ),
        Figure(
            "extras",
            _("Extra costs over the scenario"),
            dec(best.extras_total),
            cur,
            _("recurring extras × months + one-off fees; unpriced items are not included"),
            extras_lines or [_("none")],
        ),
        Figure(
            "total",
            _("Total for the scenario"),
            dec(best.total),
            cur,
            _("compute + extras"),
            [
                _("compute {amount}").format(amount=money_text(best.compute_total, cur)),
                _("extras {amount}").format(amount=money_text(best.extras_total, cur)),
                _("cheapest way to buy: {way}").format(way=best.shown),
            ],
        ),
        Figure(
            "monthly_cost",
            _("Monthly cost"),
            dec(best.monthly),
            cur,
            _("total ÷ months"),
            [_("{total} ÷ {months} months").format(total=money_text(best.total, cur), months=s.months)],
        ),
        Figure(
            "annualized_tco",
            _("Annualised TCO"),
            dec(e.annualised_tco),
            cur,
            _(
                "a year of the need: recurring costs × 12 ÷ months, one-off fees spread over the months (counted "
                "once when the need is shorter than a year)"
            ),
            [
                f"{money_text(best.total, cur)} × 12 ÷ {s.months}"
                if not best.one_off_total
                else _("({total} − {one_off} one-off) × 12 ÷ {months} + {one_off} × 12 ÷ {spread}").format(
                    total=money_text(best.total, cur),
                    one_off=money_text(best.one_off_total, cur),
                    months=s.months,
                    spread=max(s.months, 12),
                ),
                committed,
            ],
        ),
        Figure(
            "term_options",
            _("Term options"),
            None,
            "",
            _("each way to buy, for this scenario's months; cheapest first"),
            [
                _("{way}: {total} ({monthly} a month)").format(
                    way=c.shown, total=money_text(c.total, cur), monthly=money_text(c.monthly, cur)
                )
                for c in e.options
            ],
        ),
        Figure(
            "cost_per_gpu_hour",
            _("All-in cost per used GPU-hour"),
            dec(e.cost_per_gpu_hour),
            rate_unit(cur, PER_GPU_HOUR),
            _("total ÷ (GPUs × hours a month × utilisation × months)"),
            [
                _("{total} ÷ ({gpus} × {hours} × {use} × {months}) = {total} ÷ {gpu_hours} GPU-hours").format(
                    total=money_text(best.total, cur),
                    gpus=s.gpu_count,
                    hours=hpm,
                    use=share_text(s.utilisation),
                    months=s.months,
                    gpu_hours=quantity(e.used_gpu_hours),
                )
            ],
        ),
        Figure(
            "mfu",
            _("MFU"),
            dec(e.effective_mfu, 4),
            OF_PEAK,
            _source(e.mfu),
            [e.mfu.note]
            + (
                [
                    _("{mfu} × {scaling} scaling = {effective}: {note}").format(
                        mfu=percent_text(e.mfu.value, 1),
                        scaling=dec(e.scaling.value, 2),
                        effective=percent_text(e.effective_mfu, 1),
                        note=e.scaling.note,
                    )
                ]
                if e.scaling.value != 1
                else []
            ),
        ),
        Figure(
            "availability",
            _("Availability"),
            dec(e.availability.value, 6),
            "fraction",
            _source(e.availability),
            [e.availability.note],
        ),
        Figure(
            "downtime_hours_per_year",
            _("Expected downtime"),
            dec(e.downtime_hours_per_year, 2),
            HOURS_A_YEAR,
            _("(1 − availability) × {hours} h a year").format(hours=f"{e.assumptions.hours_per_year:,}"),
            [f"(1 − {share_text(e.availability.value)}) × {e.assumptions.hours_per_year:,}"],
        ),
        Figure(
            "cost_per_pflop_hour",
            _("Cost per delivered PFLOP-hour"),
            dec(e.cost_per_pflop_hour),
            rate_unit(cur, PER_PFLOP_HOUR),
            _("cost per used GPU-hour ÷ (peak dense BF16 TFLOPS × MFU × availability ÷ 1000)"),
            [
                _("{cost} ÷ ({peak} × {mfu} × {availability} ÷ 1000) — {gpu} peak from the catalog").format(
                    cost=money_text(e.cost_per_gpu_hour, cur, 4),
                    peak=e.offer.gpu.bf16_tflops,
                    mfu=share_text(e.effective_mfu),
                    availability=share_text(e.availability.value),
                    gpu=e.offer.gpu.name,
                )
            ],
        ),
        *_claims_figure(e),
        Figure(
            "feasibility",
            _("Feasibility"),
            None,
            "ok" if e.feasibility.confirmed else e.feasibility.state,  # "ok" as explain --json has always said
            _("enough GPUs and nodes on offer, a network for multi-node jobs, memory for the training run"),
            [_("blocking: {reason}").format(reason=b) for b in e.feasibility.blocking]
            + [
                _("ask: {question} (ranked after the confirmed offers until answered)").format(question=q)
                for q in e.feasibility.questions
            ]
            + [_("note: {warning}").format(warning=w) for w in e.feasibility.warnings]
            or [_("nothing stands in the way")],
        ),
    ]
    if e.unknowns:
        figures.append(
            Figure(
                "unknowns",
                _("Not yet known"),
                None,
                "",
                (
                    _(
                        "costs the scenario incurs that the offer does not price make every cost figure a lower "
                        "bound ({mark}): ask before comparing"
                    ).format(mark=LOWER_BOUND)
                    if e.lower_bound
                    else _("fine print without a figure: ask before comparing")
                ),
                list(e.unknowns),
            )
        )
    if e.caveats:
        figures = [replace(f, caveats=e.caveats) if f.key in COST_FIGURES else f for f in figures]
    return figures


def _source(assumed: Assumed) -> str:
    """The formula line of where an assumed figure's value comes from (``source: verified``)."""
    return _("source: {source}").format(source=assumed.source_word)


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
            _("If the claims hold"),
            dec(claimed),
            rate_unit(e.currency, PER_PFLOP_HOUR),
            _(
                "the same cost with the unverified claims taken as stated; ranked on the figure above until a log "
                "verifies them"
            ),
            [
                _("{cost} ÷ ({peak} × {mfu} × {availability} ÷ 1000)").format(
                    cost=money_text(e.cost_per_gpu_hour, e.currency, 4),
                    peak=e.offer.gpu.bf16_tflops,
                    mfu=share_text(mfu),
                    availability=share_text(availability),
                ),
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
    """A cost figure of ``e`` with its own caveats (``caveats.figure_text``), in the money style: ``≥ ~1,234.56``
    (its currency is named beside it or in its column's heading)."""
    return figure_text(value, e.caveats, places, money=True)
