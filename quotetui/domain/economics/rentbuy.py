"""Rent vs buy (DESIGN.md section 3).

Owning: capex at month 0, opex every month, the residual value recovered at the horizon. Renting: the
monthly rent for full use, paid in proportion to utilisation when the rent is usage-billed (owning costs the
same idle or busy). Outputs:

* break-even month: when cumulative rent reaches cumulative ownership, capex ÷ (rent paid a month − opex);
* break-even utilisation: where owned cost per used GPU-hour equals the rental price,
  (capex + opex × horizon − residual) ÷ (rent × horizon);
* NPV of both at an annual discount rate, compounded monthly (r ÷ 12 a month), cash flows at month end;
* the two cumulative-cost series, month by month, for charts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.errors import BadInput


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

    def validate(self) -> RentBuyInput:
        for name, value in (
            ("capex", self.capex),
            ("opex", self.opex_monthly),
            ("rent", self.rent_monthly),
            ("residual", self.residual),
            ("discount rate", self.discount_rate),
        ):
            if value < 0:
                raise BadInput(f"{name} must not be negative")
        if self.rent_monthly == 0:
            raise BadInput("rent must be more than zero")
        if self.horizon_months < 1:
            raise BadInput("the horizon must be at least one month")
        if not 0 < self.utilisation <= 1:
            raise BadInput("utilisation must be more than 0 and at most 1")
        if self.residual > self.capex:
            raise BadInput("the residual value cannot exceed the capex")
        return self

    @property
    def rent_paid_monthly(self) -> Fraction:
        return self.rent_monthly * (self.utilisation if self.rent_usage_billed else 1)


@dataclass(frozen=True, slots=True)
class SeriesPoint:
    month: int
    rent: Fraction
    own: Fraction


@dataclass(frozen=True, slots=True)
class RentBuyResult:
    inputs: RentBuyInput
    breakeven_months: Fraction | None  # None: renting stays cheaper over the horizon
    breakeven_utilisation: Fraction  # above 1: owning never pays at this rent
    npv_rent: Fraction
    npv_buy: Fraction
    series: tuple[SeriesPoint, ...]

    @property
    def cheaper(self) -> str:
        return "buy" if self.npv_buy < self.npv_rent else "rent"


def own_cumulative(i: RentBuyInput, month: int) -> Fraction:
    total = i.capex + i.opex_monthly * month
    return total - i.residual if month == i.horizon_months else total


def rent_vs_buy(i: RentBuyInput) -> RentBuyResult:
    i.validate()
    rent = i.rent_paid_monthly
    h = i.horizon_months
    breakeven: Fraction | None = None
    if rent > i.opex_monthly and i.capex / (rent - i.opex_monthly) <= h:
        breakeven = i.capex / (rent - i.opex_monthly)
    elif rent * h >= own_cumulative(i, h):
        breakeven = Fraction(h)  # only the residual at the horizon tips it
    ownership_total = i.capex + i.opex_monthly * h - i.residual
    breakeven_utilisation = ownership_total / (i.rent_monthly * h)

    monthly_rate = i.discount_rate / 12
    npv_rent = npv_buy = Fraction(0)
    factor = Fraction(1)
    for _ in range(h):
        factor /= 1 + monthly_rate
        npv_rent += rent * factor
        npv_buy += i.opex_monthly * factor
    npv_buy += i.capex - i.residual * factor
    series = tuple(SeriesPoint(m, rent * m, own_cumulative(i, m)) for m in range(h + 1))
    return RentBuyResult(i, breakeven, breakeven_utilisation, npv_rent, npv_buy, series)
