"""Rent vs buy (DESIGN.md section 3).

Owning: capex at month 0, opex every month, the residual value recovered at the horizon. Renting, as it is
paid: a monthly rent (in proportion to utilisation when it is usage-billed; owning costs the same idle or
busy), monthly charges that do not follow use (egress, storage, platform fees), and sums paid up front at the
start of a month (a prepaid term at the start of each term, one-off fees at signing). Outputs:

* break-even month: when cumulative rent, in cash, reaches what owning has cost so far, capex + opex ×
  months (monthly flows accrue through the month, sums up front at its start; the resale at the horizon
  is not a cost avoided month by month, so it does not move the month); without sums up front, capex ÷
  (rent paid a month − opex);
* break-even utilisation: the utilisation at which renting and owning cost the same over the horizon in
  present value at the discount rate (in cash at 0 %): (NPV of owning at rest − NPV of the rent that does not
  follow use) ÷ (NPV of the rent that does, at full use − NPV of owning's power above the idle draw, at full
  use); at 0 %, (capex + opex × horizon − residual − the rent
  that does not follow use) ÷ (the rent that does, over the horizon); none when no part of the rent
  follows use;
* NPV of both at an annual discount rate, compounded monthly (r ÷ 12 a month), monthly flows at month end,
  sums up front at the start of their month;
* the two cumulative-cost series, month by month, for charts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.economics.billing import EXTRA_RULES, Paid
from quotetui.domain.economics.costing import OptionCost
from quotetui.domain.economics.exact import ceil, dec
from quotetui.domain.errors import BadInput, noun
from quotetui.language import N_, _, ngettext
from quotetui.language.numbers import percent


@dataclass(frozen=True, slots=True)
class RentBuyInput:
    capex: Fraction
    opex_monthly: Fraction
    rent_monthly: Fraction  # rent for a month of full use
    currency: str
    residual: Fraction = Fraction(0)
    discount_rate: Fraction = Fraction(0)  # annual
    horizon_months: int = 36
    utilisation: Fraction = Fraction(1)
    rent_usage_billed: bool = True  # False: the rent is a fixed monthly bill whatever the use
    rent_fixed_monthly: Fraction = Fraction(0)  # charged every month whatever the use (egress, storage, fees)
    upfront: tuple[tuple[int, Fraction], ...] = ()  # (month, sum) paid at the start of that month (0: at signing)
    opex_by_use: Fraction = Fraction(0)  # owning's cost a month at full use that idling saves (power above idle)

    def validate(self) -> RentBuyInput:
        for name, value in (
            (N_("capex"), self.capex),
            (N_("opex"), self.opex_monthly),
            (N_("opex that follows use"), self.opex_by_use),
            (N_("rent"), self.rent_monthly),
            (N_("fixed monthly charges"), self.rent_fixed_monthly),
            (N_("residual"), self.residual),
            (N_("discount rate"), self.discount_rate),
            *((N_("a sum paid up front"), amount) for _month, amount in self.upfront),
        ):
            if value < 0:
                raise BadInput(_("{what} must not be negative").format(what=noun(name)))
        if self.rent_full_total == 0:
            raise BadInput(_("rent must be more than zero"))
        if self.horizon_months < 1:
            raise BadInput(_("the horizon must be at least one month"))
        if any(not 0 <= m < self.horizon_months for m, _amount in self.upfront):
            raise BadInput(_("a sum paid up front falls outside the horizon"))
        if not 0 < self.utilisation <= 1:
            raise BadInput(_("utilisation must be more than 0 and at most 1"))
        if self.residual > self.capex:
            raise BadInput(_("the residual value cannot exceed the capex"))
        return self

    @property
    def rent_paid_monthly(self) -> Fraction:
        """What renting costs each month at the utilisation, sums up front aside."""
        return self.rent_monthly * (self.utilisation if self.rent_usage_billed else 1) + self.rent_fixed_monthly

    @property
    def own_paid_monthly(self) -> Fraction:
        """What owning costs each month at the utilisation: ``opex_monthly`` whatever the use, and the power
        above the idle draw in proportion to use."""
        return self.opex_monthly + self.opex_by_use * self.utilisation

    @property
    def rent_full_total(self) -> Fraction:
        """Everything renting costs over the horizon at full use."""
        return (self.rent_monthly + self.rent_fixed_monthly) * self.horizon_months + sum(
            (a for _, a in self.upfront), Fraction(0)
        )

    def upfront_at(self, month: int) -> Fraction:
        return sum((a for m, a in self.upfront if m == month), Fraction(0))


@dataclass(frozen=True, slots=True)
class SeriesPoint:
    month: int
    rent: Fraction
    own: Fraction


@dataclass(frozen=True, slots=True)
class RentBuyResult:
    inputs: RentBuyInput
    breakeven_months: Fraction | None  # in cash, resale aside; None: renting stays cheaper over the horizon
    breakeven_utilisation: Fraction | None  # above 1: owning never pays; ≤ 0: renting never wins; None: n/a
    npv_rent: Fraction
    npv_buy: Fraction
    series: tuple[SeriesPoint, ...]

    @property
    def cheaper(self) -> str:
        """``buy`` or ``rent`` (a code: ``--json``'s ``cheaper``, compared by the front ends)."""
        return "buy" if self.npv_buy < self.npv_rent else "rent"


def utilisation_words(r: RentBuyResult) -> str:
    """The break-even utilisation in words, for every front end."""
    u = r.breakeven_utilisation
    if u is None and r.inputs.rent_usage_billed and r.inputs.rent_monthly and r.inputs.opex_by_use:
        return _(
            "no break-even utilisation: owning's power grows with use as fast as the rent or faster, so more use "
            "never favours owning"
        )
    if u is None:
        return _("no break-even utilisation: no part of the rent follows use, so utilisation changes nothing")
    rate = r.inputs.discount_rate
    # past 10×, the digits say nothing
    shown = _("more than 1,000 %") if u > 10 else percent(f"{float(u * 100):.1f}")
    if rate:
        shown = _("{share} (present values at {rate} a year)").format(
            share=shown, rate=percent(f"{float(rate * 100):g}")
        )
    if u <= 0:
        words = _("break-even utilisation {share}: renting costs more than owning at any utilisation")
    elif u > 1:
        words = _("break-even utilisation {share}: owning never pays at this rent")
    else:
        words = _("break-even utilisation {share}: below it, renting wins")
    return words.format(share=shown)


def breakeven_words(r: RentBuyResult) -> str:
    """The break-even month in words, for every front end: in cash, the resale aside."""
    i, m = r.inputs, r.breakeven_months
    if m is None:
        n = i.horizon_months
        if i.discount_rate:
            words = ngettext(
                "break-even: not within {n} month in cash (undiscounted): renting stays ahead month by month",
                "break-even: not within {n} months in cash (undiscounted): renting stays ahead month by month",
                n,
            )
        else:
            words = ngettext(
                "break-even: not within {n} month: renting stays ahead month by month",
                "break-even: not within {n} months: renting stays ahead month by month",
                n,
            )
        words = words.format(n=f"{n:,}")
        if r.series[-1].own <= r.series[-1].rent:
            words = _("{words}; counting the resale at month {month}, owning costs less in all").format(
                words=words, month=n
            )
        return words
    if i.discount_rate:
        words = _("break-even after {months} months in cash (undiscounted) (owning is ahead from month {month})")
    else:
        words = _("break-even after {months} months (owning is ahead from month {month})")
    return words.format(months=dec(m, 2), month=ceil(m))


def own_cumulative(i: RentBuyInput, month: int) -> Fraction:
    total = i.capex + i.own_paid_monthly * month
    return total - i.residual if month == i.horizon_months else total


def rent_cumulative(i: RentBuyInput, month: int) -> Fraction:
    """Rent paid by the end of ``month`` (and sums due at its start: month 0 is the signing)."""
    return i.rent_paid_monthly * month + sum((a for m, a in i.upfront if m <= month), Fraction(0))


def own_paid(i: RentBuyInput, month: int) -> Fraction:
    """What owning has cost by the end of ``month``, the resale at the horizon aside."""
    return i.capex + i.own_paid_monthly * month


def breakeven_month(i: RentBuyInput) -> Fraction | None:
    """When cumulative rent first reaches what owning has cost (in cash, resale aside); None: not within the
    horizon."""
    h, slope = i.horizon_months, i.rent_paid_monthly - i.own_paid_monthly
    if rent_cumulative(i, 0) >= own_paid(i, 0):
        return Fraction(0)
    for m in range(1, h + 1):
        start = rent_cumulative(i, m - 1) - own_paid(i, m - 1)  # after the sums due at its start
        end = start + slope  # before the next month's sums
        if end >= 0 and slope > 0:
            return (m - 1) + (-start) / slope
        if rent_cumulative(i, m) >= own_paid(i, m):  # a sum due at month m
            return Fraction(m)
    return None


def rent_vs_buy(i: RentBuyInput) -> RentBuyResult:
    i.validate()
    h = i.horizon_months
    monthly_rate = i.discount_rate / 12
    lumps = i.upfront_at(0)  # sums up front, in present value
    annuity = Fraction(0)  # a payment at each month's end, in present value
    factor = Fraction(1)
    for m in range(1, h + 1):
        factor /= 1 + monthly_rate
        annuity += factor
        lumps += i.upfront_at(m) * factor if m < h else 0
    npv_rent = i.rent_paid_monthly * annuity + lumps
    npv_buy = i.capex + i.own_paid_monthly * annuity - i.residual * factor
    following = i.rent_monthly * annuity if i.rent_usage_billed else Fraction(0)  # at full use
    fixed = i.rent_fixed_monthly * annuity + lumps
    owning_follows = i.opex_by_use * annuity  # at full use: the power above the idle draw
    owning_at_rest = npv_buy - owning_follows * i.utilisation
    gains = following - owning_follows  # what a point of use adds to renting over owning
    breakeven_utilisation = (owning_at_rest - fixed) / gains if following and gains > 0 else None
    series = tuple(SeriesPoint(m, rent_cumulative(i, m), own_cumulative(i, m)) for m in range(h + 1))
    return RentBuyResult(i, breakeven_month(i), breakeven_utilisation, npv_rent, npv_buy, series)


BILLED_BY_USE = N_("billed by use")
"""How a rent that follows use is paid, in words (:attr:`RentPlan.words`)."""


@dataclass(frozen=True, slots=True)
class RentPlan:
    """How an offer's way to buy is paid month by month (home currency), from its cost at full use."""

    monthly: Fraction  # follows utilisation when ``usage_billed``, else fixed
    usage_billed: bool
    fixed_monthly: Fraction  # extras that do not follow use
    upfront: tuple[tuple[int, Fraction], ...]
    words: str


def rent_plan(cost: OptionCost, horizon: int) -> RentPlan:
    """``cost`` must be the way to buy costed at full use for ``horizon`` months. On demand: compute and
    per-hour extras follow use; a committed term is a fixed monthly bill, or, prepaid, a sum at the start of
    each term; egress, storage and monthly fees are charged whatever the use; one-off fees are paid at
    signing. Mixed terms: each part so, the prepaid sums at the start of its own terms."""
    usage, bill, fixed, upfront, words, start = Fraction(0), Fraction(0), Fraction(0), [], [], 0
    for part in cost.segments or (cost,):
        o = part.option
        paid = o.billing.paid
        if paid is Paid.BY_USE:
            usage += part.compute_total / horizon
            words.append(_(BILLED_BY_USE))
        elif paid is Paid.UPFRONT:
            terms = part.billed_months // o.term_months
            upfront += [(start + k * o.term_months, part.compute_total / terms) for k in range(terms)]
            words.append(
                _("prepaid: {terms} × {months} months, each paid at its start").format(
                    terms=terms, months=o.term_months
                )
            )
        else:
            bill += part.compute_total / horizon  # whole terms' months spread over the horizon
            words.append(_("a fixed monthly bill whatever the use"))
        start += part.months
    usage_billed = usage > 0 or cost.option.usage_billed
    for line in cost.extras:
        if not line.included:
            continue
        if line.one_off:
            upfront.append((0, line.one_off))
        if line.monthly and EXTRA_RULES[line.extra.basis].follows_use and usage_billed and not cost.segments:
            usage += line.monthly
        elif line.monthly:
            fixed += line.monthly
    text = _(", then ").join(words)
    if usage_billed:  # the part that follows use, and everything else charged whatever the use
        return RentPlan(usage, True, bill + fixed, tuple(upfront), text)
    return RentPlan(bill, False, fixed, tuple(upfront), text)
