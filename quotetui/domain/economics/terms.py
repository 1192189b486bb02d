"""Term choice: what each way of committing costs per year, the cheapest, and the saving in %.

Each option is the amount paid for one term (a month, a quarter, a year …). The saving is measured against
the shortest term on the table, e.g. 88,000 a month (1,056,000 a year) vs 750,000 prepaid for a year:
(1,056,000 − 750,000) ÷ 1,056,000 = 28.98 %. At a discount rate, each term paid at its start, the present
values over a common horizon (the least common multiple of the terms) give the present-value saving: money
paid later is worth less, so prepaying saves less than its nominal figure (26.35 % at 8 % a year here).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from quotetui.domain.economics.billing import cheapest_first
from quotetui.domain.economics.inputs import term_name, term_words
from quotetui.domain.errors import BadInput
from quotetui.language import _


@dataclass(frozen=True, slots=True)
class TermCost:
    months: int
    price: Fraction  # paid per term

    @property
    def name(self) -> str:
        """The term's name in English, as ``--json`` gives it (:func:`term_words` shows it)."""
        return term_name(self.months)

    @property
    def per_month(self) -> Fraction:
        return self.price / self.months

    @property
    def per_year(self) -> Fraction:
        return self.price * 12 / self.months


@dataclass(frozen=True, slots=True)
class TermComparison:
    options: tuple[TermCost, ...]  # shortest term first
    cheapest: TermCost
    baseline: TermCost
    discount_rate: Fraction = Fraction(0)  # a year, compounded monthly

    @property
    def horizon(self) -> int:
        """The months over which every option pays whole terms."""
        return lcm(*(o.months for o in self.options))

    def present_value(self, option: TermCost) -> Fraction:
        """Each term paid at its start over :attr:`horizon`, discounted at the monthly rate."""
        v = 1 / (1 + self.discount_rate / 12)
        return sum((option.price * v**start for start in range(0, self.horizon, option.months)), Fraction(0))

    @property
    def pv_saving(self) -> Fraction:
        """The cheapest option's saving against the shortest term, in present value."""
        base = self.present_value(self.baseline)
        return (base - self.present_value(self.cheapest)) / base

    @property
    def saving(self) -> Fraction:
        """Saving of the cheapest option per year against the shortest term, as a fraction."""
        return (self.baseline.per_year - self.cheapest.per_year) / self.baseline.per_year


def compare_terms(prices: dict[int, Fraction], discount_rate: Fraction = Fraction(0)) -> TermComparison:
    if not prices:
        raise BadInput(_("give at least one term price, e.g. --monthly 88000 --annual 750000"))
    for months, price in prices.items():
        if months < 1:
            raise BadInput(_("a term is at least one month"))
        if price <= 0:
            raise BadInput(_("the {term} price must be more than zero").format(term=term_words(months)))
    options = tuple(TermCost(m, p) for m, p in sorted(prices.items()))
    cheapest = min(options, key=lambda t: cheapest_first(t.per_year, t.months))
    if discount_rate < 0:
        raise BadInput(_("the discount rate must not be negative"))
    return TermComparison(options, cheapest, options[0], discount_rate)
