"""What an offer costs for a scenario: each price option, its discounts step by step, and the extras.

Definitions (DESIGN.md section 3):

* nodes needed = ⌈GPUs ÷ GPUs per node⌉;
* effective node-month price = list node-month price × Π(1 − dᵢ) over the discounts whose conditions the
  option and the scenario meet;
* each option is billed by its way to buy's rule (``billing.py``): a committed option of ``t`` months in whole
  terms, ⌈months ÷ t⌉ × t months paid; an on-demand option (no commitment) for the hours used, 730 ×
  utilisation a month;
* extras at the scenario's usage: egress GB (TB × 1000), storage TB-months, flat fees, per node-hour fees;
  one-off fees once (spread over the months); refundable deposits are not a cost;
* annualised TCO = total over the scenario × 12 ÷ months;
* mixed terms: whole terms of a committed option, then the months left on a shorter option (13 months =
  one annual term + one month), a way to buy beside each option alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from quotetui.domain.economics.assumptions import GB_PER_TB, Assumptions
from quotetui.domain.economics.billing import EXTRA_RULES, Paid
from quotetui.domain.economics.exact import q
from quotetui.domain.economics.inputs import DiscountTerm, ExtraTerm, OfferInput, PriceOption, ScenarioInput
from quotetui.domain.economics.lazy import slot_cached
from quotetui.domain.economics.units import to_node_month
from quotetui.domain.enums import DiscountKind, ExtraBasis, ExtraKind, PriceUnit
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import RATE_DAY_ZONE, FxQuote, FxTable
from quotetui.domain.timeutil import local_day
from quotetui.domain.wording import plural
from quotetui.language import N_, _


@dataclass(frozen=True, slots=True)
class DiscountStep:
    discount: DiscountTerm
    applied: bool
    reason: str
    before: Fraction | None = None  # node-month price before this step (offer currency)
    after: Fraction | None = None


@dataclass(frozen=True, slots=True)
class ExtraLine:
    extra: ExtraTerm
    included: bool
    reason: str
    monthly: Fraction = Fraction(0)  # recurring, home currency
    one_off: Fraction = Fraction(0)  # once, home currency
    fx: FxQuote | None = None


@dataclass(frozen=True, slots=True)
class OptionCost:
    option: PriceOption
    list_node_month: Fraction  # offer currency, before discounts
    steps: tuple[DiscountStep, ...]
    effective_node_month: Fraction  # offer currency, after discounts
    billed_months: int  # months paid: whole terms for a commitment, the scenario's months on demand
    usage_factor: Fraction  # utilisation for usage-billed options, else 1
    compute_total: Fraction  # home currency, whole scenario
    extras: tuple[ExtraLine, ...]
    extras_total: Fraction  # home currency, whole scenario
    months: int  # the scenario's months
    fx: FxQuote | None
    segments: tuple[OptionCost, ...] = ()  # mixed terms: the long option's whole terms, then the short one's
    _label: Any = field(default=None, init=False, repr=False, compare=False)
    _home_node_month: Any = field(default=None, init=False, repr=False, compare=False)
    _is_estimate: Any = field(default=None, init=False, repr=False, compare=False)
    _total: Any = field(default=None, init=False, repr=False, compare=False)
    _monthly: Any = field(default=None, init=False, repr=False, compare=False)
    _one_off_total: Any = field(default=None, init=False, repr=False, compare=False)
    _annualised: Any = field(default=None, init=False, repr=False, compare=False)
    _per_year: Any = field(default=None, init=False, repr=False, compare=False)

    @slot_cached
    def label(self) -> str:
        """The way to buy in English (the option's label, or for mixed terms how many of each), as ``--json``'s
        ``term`` and the negotiation compare it; :attr:`shown` is what people read."""
        if not self.segments:
            return self.option.label
        return " + ".join(_part_label(s) for s in self.segments)

    @property
    def shown(self) -> str:
        """:attr:`label` in the language in use (``PriceOption.shown``; mixed terms as ``Billing.part_label``
        words them). Not cached: the language can change while the figures are kept."""
        if not self.segments:
            return self.option.shown
        return " + ".join(s.option.billing.part_label(s.option.shown, s.billed_months, s.months) for s in self.segments)

    @slot_cached
    def home_node_month(self) -> Fraction:
        """The node-month price after discounts in the scenario's currency; for mixed terms the average over
        the months paid."""
        if not self.segments:
            return self.effective_node_month * (self.fx.rate if self.fx else 1)
        paid = sum((seg.billed_months for seg in self.segments), 0)
        return sum((seg.home_node_month * seg.billed_months for seg in self.segments), Fraction(0)) / paid

    @slot_cached
    def is_estimate(self) -> bool:
        return any(seg.option.is_estimate for seg in self.segments) or self.option.is_estimate

    @slot_cached
    def total(self) -> Fraction:
        return self.compute_total + self.extras_total

    def following(self, option: PriceOption) -> Fraction:
        """The part of ``compute_total`` bought on ``option`` (the option's own way, a way a discount implies at
        its price, or such a segment of mixed terms): ``option``'s price times node-months, discounts, VAT and the
        FX rate, all multiplied, so it moves in proportion to that price while every other part of ``total``
        (extras, another option's months) stays. Divided by the price, it is how much the total moves per unit of
        the price (the negotiation's targets)."""
        if self.segments:
            return sum((s.following(option) for s in self.segments), Fraction(0))
        mine = self.option is option or self.option.priced_as is option
        return self.compute_total if mine else Fraction(0)

    @slot_cached
    def monthly(self) -> Fraction:
        return self.total / self.months

    @slot_cached
    def one_off_total(self) -> Fraction:
        return sum((line.one_off for line in self.extras), Fraction(0))

    @slot_cached
    def annualised(self) -> Fraction:
        """A year of the need: recurring costs × 12 ÷ months; a one-off fee spread over the months when the
        need is a year or longer, counted once (never twice) when it is shorter."""
        recurring = self.total - self.one_off_total
        return recurring * 12 / self.months + self.one_off_total * 12 / max(self.months, 12)

    @slot_cached
    def per_year(self) -> Fraction:
        """What a year of this option costs with the scenario's usage (for comparing terms)."""
        return self.annualised


def _part_label(segment: OptionCost) -> str:
    """A segment of mixed terms in English, as ``Billing.part_label`` says it in the language in use: how many
    terms of a committed option, or the months on demand."""
    option = segment.option
    if option.billing.follows_use:
        return f"{option.label} for {plural(segment.months, 'month')}"
    return f"{segment.billed_months // option.term_months} × {option.label}"


def mixed_ways(options: Sequence[Q], months: int | None = None) -> list[tuple[Q, Q]]:
    """(long, short) pairs to mix: whole terms of a committed ``long`` option, then the months left on a
    shorter ``short`` one; for ``months`` only the pairs that mix (at least one long term, some months
    left), else every pair (the TCO sheet, where the months can change). Longs by term, then shorts."""
    ordered = sorted(options, key=lambda o: o.term_months)
    pairs = []
    for long in ordered:
        t = long.term_months
        if t < 2 or (months is not None and (months // t == 0 or months % t == 0)):
            continue
        pairs += [(long, short) for short in ordered if short.term_months < t]
    return pairs


def cost_mixed(
    offer: OfferInput,
    long: PriceOption,
    short: PriceOption,
    scenario: ScenarioInput,
    fx: FxTable,
    assumptions: Assumptions,
) -> OptionCost:
    """Whole terms of ``long`` for as many months of need as they cover, then ``short`` for the rest; the
    extras over each part's months, one-off fees once."""
    covered = scenario.months // long.term_months * long.term_months
    first = cost_option(offer, long, replace(scenario, months=covered), fx, assumptions)
    rest = cost_option(offer, short, replace(scenario, months=scenario.months - covered), fx, assumptions)
    return OptionCost(
        long,
        first.list_node_month,
        first.steps,
        first.effective_node_month,
        first.billed_months + rest.billed_months,
        first.usage_factor,
        first.compute_total + rest.compute_total,
        first.extras,
        first.extras_total + rest.extras_total - rest.one_off_total,
        scenario.months,
        first.fx,
        (first, rest),
    )


def nodes_needed(gpu_count: int, gpus_per_node: int) -> int:
    return -(-gpu_count // gpus_per_node)


class Quoted(Protocol):
    """Anything with a price unit and a term: a domain price option or a stored one."""

    @property
    def unit(self) -> PriceUnit: ...

    @property
    def term_months(self) -> int: ...


Q = TypeVar("Q", bound=Quoted)


def base_option(options: Sequence[Q]) -> Q:
    """The headline price of a round: the shortest-term option quoted per hour or month (not a whole-term
    total; the first listed when two have the same term)."""
    periodic = [o for o in options if o.unit is not PriceUnit.TERM_TOTAL]
    return min(periodic or options, key=lambda o: o.term_months)


def price_options(offer: OfferInput) -> tuple[PriceOption, ...]:
    """The current options plus the ways to buy a term or prepay discount implies.

    A way to buy is a term and whether it is prepaid. A price the round quotes for a way is that way's price:
    a discount never builds a second, cheaper price for it (a quoted 12-month prepaid total of 1,080,000 stays
    1,080,000). A discount for a way the round does not quote adds it, at the price the round quotes for that
    term ("95,000 a node-month on a 12-month term, 5 % off for annual prepay" is 12 × 95,000 × 0.95), else at
    the base (shortest-term) price; the discounts whose conditions it meets then apply (``discount_steps``)."""
    options = list(offer.options)
    base = base_option(offer.options)
    for d in offer.discounts:
        if d.kind not in (DiscountKind.TERM, DiscountKind.PREPAY) or d.rate is None:
            continue
        term = d.min_term_months or max(base.term_months, 1)
        same = [o for o in options if o.term_months == term]
        if any(o.prepay == d.needs_prepay for o in same):
            continue  # the way is quoted (or already implied): its price is that way's price
        unprepaid = sorted((o for o in same if not o.prepay), key=lambda o: o.unit is PriceUnit.TERM_TOTAL)
        template = unprepaid[0] if unprepaid else base  # never a prepaid price for a way paid as it goes
        if template.unit is PriceUnit.TERM_TOTAL and template.term_months != term:
            continue  # a whole-term total of another term says nothing about this term's price
        options.append(
            PriceOption(
                term_months=term,
                unit=template.unit,
                amount=template.amount,
                amount_high=template.amount_high,
                currency=template.currency,
                prepay=d.needs_prepay,
                is_estimate=template.is_estimate,
                note=d.description,
                from_discount=d.id,
                discount_kind=d.kind,
                priced_as=template.priced_as or template,
            )
        )
    return tuple(options)


TIERED = (DiscountKind.VOLUME, DiscountKind.TERM, DiscountKind.PREPAY)
"""Kinds whose discounts are tiers of one schedule (3 % from 64 GPUs, 5 % from 128): of several of one kind
only the best that applies counts. Discounts of other kinds (negotiated, promotion) each apply, one after the
other."""
TIER_KINDS = {DiscountKind.VOLUME: N_("volume"), DiscountKind.TERM: N_("term"), DiscountKind.PREPAY: N_("prepay")}
"""A tiered kind as a message names it ("the better volume tier applies"; ``_()`` where shown)."""


def discount_applies(d: DiscountTerm, option: PriceOption, billed_gpus: int) -> tuple[bool, str]:
    """Whether ``d``'s conditions hold for ``option`` when ``billed_gpus`` are rented (whole nodes: the GPUs the
    provider bills and counts towards a volume tier, not the GPUs the scenario needs), on its own; of several
    tiers of one kind only the best counts (``discount_steps``)."""
    if d.rate is None:
        return False, _("ask the provider for the rate")
    if d.kind is DiscountKind.ACADEMIC:
        return False, _("needs academic status, which the scenario does not claim")
    if (
        d.kind in (DiscountKind.TERM, DiscountKind.PREPAY)
        and option.unit is PriceUnit.TERM_TOTAL
        and option.from_discount != d.id
    ):
        return False, _("the option is already a price for the whole term")
    if d.min_term_months is not None and option.term_months < d.min_term_months:
        return False, _("needs a commitment of at least {months} months (option: {option})").format(
            months=d.min_term_months, option=option.shown
        )
    if d.needs_prepay and option.billing.paid is not Paid.UPFRONT:  # on demand there is nothing to prepay
        return False, _("needs prepayment")
    if d.min_gpus is not None and billed_gpus < d.min_gpus:
        return False, _("needs at least {gpus} GPUs ({billed} billed)").format(gpus=d.min_gpus, billed=billed_gpus)
    return True, _("conditions met")


def discount_steps(
    discounts: Sequence[DiscountTerm], option: PriceOption, billed_gpus: int
) -> list[tuple[DiscountTerm, bool, str]]:
    """Each discount with whether it applies to ``option`` and why: its conditions (``discount_applies``), and
    of several tiers of one kind (``TIERED``) whose conditions hold only the best (the first listed of equal
    rates)."""
    found = [(d, *discount_applies(d, option, billed_gpus)) for d in discounts]
    best: dict[DiscountKind, DiscountTerm] = {}
    for d, applies, _reason in found:
        if applies and d.kind in TIERED and d.rate is not None:
            held = best.get(d.kind)
            if held is None or (held.rate is not None and d.rate > held.rate):
                best[d.kind] = d
    out = []
    for d, applies, reason in found:
        held = best.get(d.kind)
        if applies and held is not None and held is not d:
            why = _("tiers do not stack: the better {kind} tier applies ({discount})")
            out.append((d, False, why.format(kind=_(TIER_KINDS[d.kind]), discount=held.shown)))
        else:
            out.append((d, applies, reason))
    return out


def node_breakpoints(offer: OfferInput) -> tuple[int, ...]:
    """The node counts from which a discount's GPU condition holds (``min_gpus`` reached by the GPUs billed, in
    whole nodes: ``discount_applies``). They are the only counts at which a way to buy's price per node
    changes: between two of them its cost is affine in the nodes (``evaluate.cost_curve`` relies on it)."""
    g = offer.gpus_per_node
    return tuple(sorted({-(-d.min_gpus // g) for d in offer.discounts if d.min_gpus}))


def quote_day(offer: OfferInput, assumptions: Assumptions) -> date | None:
    """The day an offer's current round was quoted, in the rate source's zone (``fx.RATE_DAY_ZONE``: a PBOC
    central parity is Beijing's day): its prices (and extras) convert at that day's exchange rate. Never the
    display zone (``assumptions.time_zone``): where a buyer sits does not move what a quote costs."""
    return None if offer.quoted_at is None else local_day(offer.quoted_at, RATE_DAY_ZONE)


def _extra_line(
    x: ExtraTerm,
    scenario: ScenarioInput,
    nodes: int,
    usage: Callable[[str], Fraction | int],
    fx: FxTable,
    vat: Fraction,
    day: date | None,
) -> ExtraLine:
    if x.amount is None:
        return ExtraLine(x, False, _("charged but not priced yet: ask for it (not included)"))
    if x.kind is ExtraKind.DEPOSIT and x.refundable:
        return ExtraLine(x, False, _("refundable deposit: cash tied up, not a cost"))
    amount, quote = fx.convert(q(x.amount) * vat, x.currency, scenario.home_currency, day)
    if x.basis is ExtraBasis.ONE_OFF:
        return ExtraLine(x, True, _("one-off"), one_off=amount, fx=quote)
    rule = EXTRA_RULES.get(x.basis)
    if rule is None:  # a basis added to the enum without its rule: an error, never a silent flat fee
        raise BadInput(f"no costing rule for the extra-cost basis {x.basis!r}")
    words = rule.words(scenario, nodes)
    return ExtraLine(x, True, words, monthly=amount * rule.usage(usage), fx=quote)


def effective_node_month(
    offer: OfferInput, option: PriceOption, scenario: ScenarioInput, assumptions: Assumptions
) -> tuple[Fraction, tuple[DiscountStep, ...], Fraction]:
    """(list node-month price, discount steps, effective node-month price), in the offer's currency; the
    effective price net of recoverable VAT when the assumptions say so (``Assumptions.vat_factor``)."""
    list_nm = to_node_month(
        q(option.costed_amount), option.unit, offer.gpus_per_node, option.term_months, assumptions.hours_per_month
    )
    price = list_nm
    steps = []
    billed_gpus = nodes_needed(scenario.gpu_count, offer.gpus_per_node) * offer.gpus_per_node
    for d, applies, reason in discount_steps(offer.discounts, option, billed_gpus):
        if applies:
            assert d.rate is not None
            after = price * (1 - q(d.rate))
            steps.append(DiscountStep(d, True, reason, price, after))
            price = after
        else:
            steps.append(DiscountStep(d, False, reason))
    return list_nm, tuple(steps), price * assumptions.vat_factor(offer.vat_rate, offer.special_invoice)


def cost_option(
    offer: OfferInput, option: PriceOption, scenario: ScenarioInput, fx: FxTable, assumptions: Assumptions
) -> OptionCost:
    nodes = nodes_needed(scenario.gpu_count, offer.gpus_per_node)
    list_nm, steps, price = effective_node_month(offer, option, scenario, assumptions)
    rule = option.billing
    usage_factor = rule.use_factor(q(scenario.utilisation))
    billed_months = rule.billed_months(scenario.months)
    day = quote_day(offer, assumptions)
    home_nm, quote = fx.convert(price, option.currency, scenario.home_currency, day)
    compute_total = home_nm * (nodes * billed_months)  # the integers multiplied first: one Fraction product
    if usage_factor != 1:
        compute_total *= usage_factor
    billed_hours_month = assumptions.hours_per_month * usage_factor
    vat = assumptions.vat_factor(offer.vat_rate, offer.special_invoice)
    extras: tuple[ExtraLine, ...] = ()
    if offer.extras:

        def usage(name: str) -> Fraction | int:  # a month's usage by its ``billing.Usage`` name, when an extra asks
            if name == "egress_gb":
                return q(scenario.egress_tb_month) * GB_PER_TB
            if name == "storage_tb":
                return q(scenario.storage_tb)
            return nodes if name == "nodes" else billed_hours_month

        extras = tuple(_extra_line(x, scenario, nodes, usage, fx, vat, day) for x in offer.extras)
    extras_total = sum((e.monthly * scenario.months + e.one_off for e in extras), Fraction(0))
    return OptionCost(
        option,
        list_nm,
        steps,
        price,
        billed_months,
        usage_factor,
        compute_total,
        extras,
        extras_total,
        scenario.months,
        quote,
    )
