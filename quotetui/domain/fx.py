"""Dated exchange rates. Amounts keep their currency; a conversion always names the rate it used."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.errors import BadInput
from quotetui.domain.money import plain


class MissingFxRate(BadInput):
    def __init__(self, base: str, quote: str, on: date) -> None:
        self.base, self.quote, self.on = base, quote, on
        super().__init__(
            f"no {base}→{quote} exchange rate dated on or before {on.isoformat()}; add one with "
            f"`quotetui fx add {base} {quote} RATE --date YYYY-MM-DD --source TEXT`"
        )


@dataclass(frozen=True, slots=True)
class FxRateFact:
    base: str
    quote: str
    rate: Decimal  # 1 base = rate quote
    as_of: date
    source: str


@dataclass(frozen=True, slots=True)
class FxQuote:
    base: str
    quote: str
    rate: Fraction
    fact: FxRateFact  # the stored rate used (possibly the inverse pair)

    def text(self) -> str:
        f = self.fact
        return f"1 {f.base} = {plain(f.rate)} {f.quote} on {f.as_of.isoformat()} ({f.source})"


class FxTable:
    """The latest rate on or before ``on`` for each pair; the inverse pair is used when only it exists."""

    def __init__(self, rates: Iterable[FxRateFact], on: date) -> None:
        self.on = on
        self._latest: dict[tuple[str, str], FxRateFact] = {}
        for fact in rates:
            if fact.as_of > on:
                continue
            key = (fact.base, fact.quote)
            current = self._latest.get(key)
            if current is None or fact.as_of > current.as_of:
                self._latest[key] = fact

    def quote(self, base: str, quote: str) -> FxQuote | None:
        """``None`` for the same currency; raises :class:`MissingFxRate` when no rate is known."""
        if base == quote:
            return None
        direct = self._latest.get((base, quote))
        inverse = self._latest.get((quote, base))
        if direct is not None and (inverse is None or direct.as_of >= inverse.as_of):
            return FxQuote(base, quote, Fraction(direct.rate), direct)
        if inverse is not None:
            return FxQuote(base, quote, 1 / Fraction(inverse.rate), inverse)
        raise MissingFxRate(base, quote, self.on)

    def shifted(self, home: str, factor: Fraction) -> FxTable:
        """The same rates with every other currency worth ``factor`` times as much in ``home`` (for the
        sensitivity of a figure to the exchange rate: 0.95 and 1.05 are ±5 %)."""
        facts = []
        for f in self._latest.values():
            if f.quote == home:
                rate = f.rate * Decimal(factor.numerator) / Decimal(factor.denominator)
            elif f.base == home:
                rate = f.rate * Decimal(factor.denominator) / Decimal(factor.numerator)
            else:
                rate = f.rate
            facts.append(FxRateFact(f.base, f.quote, rate, f.as_of, f"{f.source} × {float(factor):g}"))
        return FxTable(facts, self.on)

    def convert(self, amount: Fraction, base: str, quote: str) -> tuple[Fraction, FxQuote | None]:
        fx = self.quote(base, quote)
        return (amount if fx is None else amount * fx.rate), fx
