"""Negotiation maths: savings across rounds, the BATNA, and the price that would beat it.

* Savings compare the base price option (shortest term) of the current round with the first round and
  with the latest published list price, per node-month, high end of any range.
* The BATNA is the best feasible offer from *another* provider for the same scenario, by cost per delivered
  PFLOP-hour (the fair yardstick across GPU generations); rejected and expired offers do not count.
* The target price is this offer's base price, in its own unit and currency, at which its cost per
  delivered PFLOP-hour would fall just below the BATNA's; everything else (discounts, extras, MFU,
  availability) stays as it is. The offer's cost is linear in that price, so the target is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.currency import minor_units
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.billing import cheapest_first
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.display import money_number, target_number
from quotetui.domain.economics.evaluate import Evaluation, costed, every_way_of, ways_following
from quotetui.domain.economics.exact import percent_text, q
from quotetui.domain.economics.inputs import OfferInput, PriceOption, Revision, lapsed
from quotetui.domain.economics.rounds import current_round, is_ours
from quotetui.domain.economics.units import UNIT_WORDS, to_node_month
from quotetui.domain.enums import Mover, OfferStatus
from quotetui.domain.fx import FxTable
from quotetui.language import _


@dataclass(frozen=True, slots=True)
class PricePoint:
    seq: int
    mover: str
    option: PriceOption
    node_month: Fraction  # offer currency


@dataclass(frozen=True, slots=True)
class Savings:
    current: PricePoint
    first: PricePoint
    list_price: PricePoint | None

    @staticmethod
    def _pct(old: PricePoint, new: PricePoint) -> Fraction | None:
        if old.option.currency != new.option.currency or old.node_month == 0:
            return None
        return (old.node_month - new.node_month) / old.node_month

    @property
    def vs_first(self) -> Fraction | None:
        return self._pct(self.first, self.current)

    @property
    def vs_list(self) -> Fraction | None:
        return None if self.list_price is None else self._pct(self.list_price, self.current)


def _point(offer: OfferInput, rev: Revision, assumptions: Assumptions) -> PricePoint:
    option = base_option(rev.options)
    nm = to_node_month(
        q(option.costed_amount), option.unit, offer.gpus_per_node, option.term_months, assumptions.hours_per_month
    )
    return PricePoint(rev.seq, rev.mover, option, nm)


def price_history(offer: OfferInput, assumptions: Assumptions) -> list[PricePoint]:
    """Every priced round, counters included, as node-month prices (for the chart of price over rounds)."""
    return [_point(offer, r, assumptions) for r in offer.revisions if r.options]


def _rounds(offer: OfferInput) -> tuple[Revision, Revision, Revision | None] | None:
    """The current round, the provider's first priced round (a list price when there is nothing else) and
    the latest list price, by the one definition of the current round."""
    current = current_round(offer.revisions, lambda r: r.mover, lambda r: bool(r.options))
    if current is None:
        return None
    priced = [r for r in offer.revisions if r.options and not is_ours(r.mover)]
    lists = [r for r in priced if r.mover == Mover.LIST]
    providers = [r for r in priced if r.mover != Mover.LIST] or priced
    return current, providers[0], lists[-1] if lists else None


def savings(offer: OfferInput, assumptions: Assumptions) -> Savings | None:
    found = _rounds(offer)
    if found is None:
        return None
    current, first, listed = found
    return Savings(
        current=_point(offer, current, assumptions),
        first=_point(offer, first, assumptions),
        list_price=_point(offer, listed, assumptions) if listed else None,
    )


@dataclass(frozen=True, slots=True)
class OptionPosition:
    """One option of the current round, in its own unit and currency: what it saves against the same option
    (term and unit) in the first offer and the list price, and the price that would beat the BATNA."""

    option: PriceOption
    vs_first: Fraction | None
    vs_list: Fraction | None
    target: Target | None


def _saved(old: Revision | None, current: Revision, option: PriceOption) -> Fraction | None:
    if old is None or old.seq == current.seq:
        return None
    same = [o for o in old.options if (o.term_months, o.unit) == (option.term_months, option.unit)]
    if not same or same[0].currency != option.currency or same[0].costed_amount == 0:
        return None
    was = q(same[0].costed_amount)
    return (was - q(option.costed_amount)) / was


def option_positions(
    this: Evaluation, batna: Evaluation | None, fx: FxTable, assumptions: Assumptions
) -> tuple[OptionPosition, ...]:
    """Every option of the current round with its savings and target."""
    found = _rounds(this.offer)
    if found is None:
        return ()
    current, first, listed = found
    return tuple(
        OptionPosition(
            o,
            _saved(first, current, o),
            _saved(listed, current, o),
            target_for(this, o, batna, fx, assumptions) if batna is not None else None,
        )
        for o in current.options
    )


def _candidate(e: Evaluation, on: date | None = None) -> bool:
    """A BATNA is an alternative one can rely on: confirmed feasible (no question open), still on the table
    (not rejected or expired, and, as of ``on``, its quote not lapsed)."""
    return (
        e.feasibility.confirmed
        and e.offer.status not in (OfferStatus.REJECTED, OfferStatus.EXPIRED)
        and (on is None or not lapsed(e.offer, on))
    )


def batnas(evaluations: list[Evaluation], on: date | None = None) -> dict[int, Evaluation | None]:
    """The BATNA of every offer at once (same rule as :func:`find_batna`), in one pass: the best
    candidate of the best provider, or of the second-best provider for that provider's own offers."""
    leaders = BatnaLeaders(on)
    for e in evaluations:
        leaders.add(e)
    return {e.offer.id: leaders.of(e) for e in evaluations}


class BatnaLeaders:
    """:func:`batnas`' rule over evaluations seen one at a time (each provider's best candidate is all it keeps):
    an export of 100,000 offers reads them a chunk at a time."""

    def __init__(self, on: date | None = None) -> None:
        self.on = on
        self.best: dict[str, Evaluation] = {}
        self._top: tuple[Evaluation | None, Evaluation | None] | None = None  # the best two, once asked

    def add(self, e: Evaluation) -> None:
        if _candidate(e, self.on):
            self._top = None
            current = self.best.get(e.offer.provider)
            if current is None or (e.cost_per_pflop_hour, e.offer.id) < (current.cost_per_pflop_hour, current.offer.id):
                self.best[e.offer.provider] = e

    def of(self, e: Evaluation) -> Evaluation | None:
        """``e``'s BATNA once every evaluation is added."""
        if self._top is None:
            ranked = sorted(self.best.values(), key=lambda b: (b.cost_per_pflop_hour, b.offer.id))[:2]
            self._top = (ranked[0] if ranked else None, ranked[1] if len(ranked) > 1 else None)
        first, second = self._top
        return second if first is not None and e.offer.provider == first.offer.provider else first


def find_batna(this: Evaluation, others: list[Evaluation], on: date | None = None) -> Evaluation | None:
    candidates = [e for e in others if e.offer.provider != this.offer.provider and _candidate(e, on)]
    return min(candidates, key=lambda e: (e.cost_per_pflop_hour, e.offer.id), default=None)


@dataclass(frozen=True, slots=True)
class Target:
    batna: Evaluation
    option: PriceOption  # the option the target is for (the current base price)
    exact: Fraction  # price at which the two tie, in the option's unit and currency
    amount: Decimal  # rounded down to the currency's minor unit, strictly beating the BATNA
    current: Decimal  # the current costed amount of that option
    node_month: Fraction  # the target expressed per node-month (for charts next to the rounds)
    way: str = ""  # the way to buy that reaches the target (the headline target: every way is considered)
    way_shown: str = ""  # that way in the language in use (``OptionCost.shown``): ``way`` is compared, this is shown
    whatever_price: bool = False  # a way that does not follow this price already beats the BATNA

    @property
    def already_beats(self) -> bool:
        return self.whatever_price or self.current <= self.amount

    @property
    def cut(self) -> Fraction:
        """The reduction asked for, as a fraction of the current price (negative: headroom)."""
        return (q(self.current) - q(self.amount)) / q(self.current)


def _target(
    this: Evaluation, option: PriceOption, exact: Fraction, batna: Evaluation, assumptions: Assumptions, **kw: Any
) -> Target:
    step = Decimal(1).scaleb(-minor_units(option.currency))
    amount = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(step, rounding=ROUND_FLOOR)
    if q(amount) >= exact:  # a tie is not a win
        amount -= step
    amount = max(amount, Decimal(0))
    node_month = to_node_month(
        q(amount), option.unit, this.offer.gpus_per_node, option.term_months, assumptions.hours_per_month
    )
    return Target(batna, option, exact, amount, option.costed_amount, node_month, **kw)


def target_price(this: Evaluation, batna: Evaluation, fx: FxTable, assumptions: Assumptions) -> Target | None:
    """The headline target: the highest price of the current round's base option at which the offer, bought
    its cheapest way, costs strictly less per delivered PFLOP-hour than the BATNA. Every way to buy counts
    (``evaluate.ways_following``): those built on the base price move with it (a prepaid year at 15 % off),
    the others stay as quoted; a way that stays and already beats the BATNA beats it whatever the base price."""
    option = base_option(this.offer.options)
    current = q(option.costed_amount)
    if current == 0:
        return None
    goal_total = batna.cost_per_pflop_hour * this.delivered_pflop_hours
    ways = ways_following(this.offer, option, this.scenario, fx, assumptions, every_way_of(this, fx, assumptions))
    fixed = [c for c, slope in ways if slope == 0]
    beating = [c for c in fixed if c.total < goal_total]
    moving = [(current + (goal_total - c.total) / slope, c) for c, slope in ways if slope > 0]
    if not moving:
        way = min(fixed, key=lambda c: cheapest_first(c.total, c.option.term_months, bool(c.segments)))
        return _target(
            this, option, current, batna, assumptions, way=way.label, way_shown=way.shown, whatever_price=bool(beating)
        )
    exact, way = max(moving, key=lambda m: (m[0], -m[1].option.term_months))
    if beating:
        best = min(beating, key=lambda c: cheapest_first(c.total, c.option.term_months, bool(c.segments)))
        return _target(
            this,
            option,
            max(exact, current),
            batna,
            assumptions,
            way=best.label,
            way_shown=best.shown,
            whatever_price=True,
        )
    return _target(this, option, exact, batna, assumptions, way=way.label, way_shown=way.shown)


def target_for(
    this: Evaluation, option: PriceOption, batna: Evaluation, fx: FxTable, assumptions: Assumptions
) -> Target | None:
    """The highest price of ``option`` (in its own unit and currency, rounded down to the minor unit) at which
    buying the scenario through it alone costs strictly less per delivered PFLOP-hour than the BATNA."""
    current = q(option.costed_amount)
    if current == 0:
        return None
    cost = costed(this, option, fx, assumptions)
    per_unit = cost.following(option) / current  # home currency of compute per unit of quoted price
    goal_total = batna.cost_per_pflop_hour * this.delivered_pflop_hours
    exact = (goal_total - cost.extras_total) / per_unit
    return _target(this, option, exact, batna, assumptions, way=option.label, way_shown=option.shown)


def target_words(t: Target | None) -> str:
    """The headline target in words (``target_price``: every way to buy counts, and the way that reaches it is
    named), as ``explain`` and the brief show it."""
    if t is None:
        return _("no target: the current price is zero")
    if t.amount <= 0 and not t.whatever_price:
        if t.exact > 0:  # beats it only below a cent
            return _("price alone cannot beat the BATNA: it would take less than one {currency} cent").format(
                currency=t.option.currency
            )
        return _("price alone cannot beat the BATNA: the extra costs are already more than its whole cost")
    unit, amount = _(UNIT_WORDS[t.option.unit]), target_number(t.amount, t.option.currency)
    if t.whatever_price:
        return _("already beats the BATNA bought as {way}, whatever the {option} price").format(
            way=t.way_shown or t.way, option=t.option.shown
        )
    if t.already_beats:
        return _(
            "already beats the BATNA bought as {way}; it would still beat it up to {amount} {currency} {unit} "
            "({option}, {headroom} headroom)"
        ).format(
            way=t.way_shown or t.way,
            amount=amount,
            currency=t.option.currency,
            unit=unit,
            option=t.option.shown,
            headroom=percent_text(-t.cut, 1),
        )
    return _(
        "target: at most {amount} {currency} {unit} ({option}), {cut} below the current {current}, bought as {way}"
    ).format(
        amount=amount,
        currency=t.option.currency,
        unit=unit,
        option=t.option.shown,
        cut=percent_text(t.cut, 1),
        current=money_number(t.current, 2),
        way=t.way_shown or t.way,
    )
