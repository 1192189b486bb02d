"""Dated exchange rates. Amounts keep their currency; a conversion always names the rate it used."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.errors import BadInput
from quotetui.domain.money import plain
from quotetui.domain.timeutil import after_today
from quotetui.language import N_, _
from quotetui.language.dates import day_text

RATE_DAY_ZONE = "Asia/Shanghai"
"""The zone a rate's day is counted in: the rates buyers record are the PBOC's central parity (中间价), published
for Beijing's day. A quote converts at the rate of its instant's day there (``costing.quote_day``), whatever
zone the user displays dates in."""


class MissingFxRate(BadInput):
    def __init__(self, base: str, quote: str, on: date) -> None:
        self.base, self.quote, self.on = base, quote, on
        super().__init__(
            _(
                "no {base}→{quote} exchange rate dated on or before {day}; add one with "
                "`quotetui fx add {base} {quote} RATE --date YYYY-MM-DD --source TEXT`"
            ).format(base=base, quote=quote, day=day_text(on))
        )


def dated_by(as_of: date, today: date) -> dict[str, str]:
    """A rate is recorded once it is known: one dated after ``today`` (the user's day) would be used for
    conversions as if it had been, silently, from its day on. One rule for ``fx add`` and the FX rates sheet."""
    if after_today(as_of, today) is None:
        return {}
    return {
        "as_of": _("{day} is after today ({today}): record a rate once it is known").format(
            day=as_of.isoformat(), today=today.isoformat()
        )
    }


RATE_ON = N_("1 {base} = {rate} {quote} on {day} ({source})")
"""A rate in words (``1 USD = 7.1 CNY on 2026-01-02 (PBOC)``): ``fx add`` and a conversion say it."""
RATE_AFTER = N_("1 {base} = {rate} {quote} on {day} ({source}), the first rate after the quote day {wanted}")


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
    wanted: date | None = None  # the quote day asked for, when the rate is the first recorded after it

    def text(self) -> str:
        """The rate used, in English: what JSON says (:meth:`said` says it in the language in use)."""
        return self._words(str, date.isoformat)

    def said(self) -> str:
        """The rate used, in the language in use."""
        return self._words(_, day_text)

    def _words(self, language: Callable[[str], str], day: Callable[[date], str]) -> str:
        f = self.fact
        values = {"base": f.base, "rate": plain(f.rate), "quote": f.quote, "day": day(f.as_of)}
        if self.wanted is None:
            return language(RATE_ON).format(**values, source=f.source)
        return language(RATE_AFTER).format(**values, source=f.source, wanted=day(self.wanted))


def _pair(a: str, b: str) -> tuple[str, str]:
    """A currency pair whichever way round its rate is stored."""
    return (a, b) if a <= b else (b, a)


class FxTable:
    """Dated rates, answered for a day: the latest rate on or before it (the quote day of a price, else the
    day of the figures, ``on``), the first after it when none is older but one is known by ``on``; the
    inverse pair is used when only it exists or it is more recent."""

    def __init__(self, rates: Iterable[FxRateFact], on: date) -> None:
        self.on = on
        self._facts = sorted((f for f in rates if f.as_of <= on), key=lambda f: f.as_of)
        self._pairs: dict[tuple[str, str], list[FxRateFact]] = {}
        for f in self._facts:
            self._pairs.setdefault(_pair(f.base, f.quote), []).append(f)

    @property
    def known(self) -> tuple[FxRateFact, ...]:
        """The rates known by ``on``: every rate :meth:`quote` picks is among them, and which one it picks for a
        day depends on them alone (the latest on or before that day, else the first after; for no day or a day
        after ``on``, the latest known), so two tables that know the same rates convert every amount alike."""
        return tuple(self._facts)

    def facts_among(self, currencies: set[str]) -> list[FxRateFact]:
        """The rates known by ``on`` between the given currencies (what a contract keeps of the table)."""
        return [f for f in self._facts if f.base in currencies and f.quote in currencies]

    def _pick(self, base: str, quote: str, day: date) -> tuple[FxRateFact, bool] | None:
        """(fact, inverse?) on or before ``day``, else the first after it."""
        facts = self._pairs.get(_pair(base, quote), [])
        pair = [(f, f.base != base) for f in facts]
        before = [p for p in pair if p[0].as_of <= day]
        if before:
            latest = before[-1][0].as_of
            same_day = [p for p in before if p[0].as_of == latest]
            return next((p for p in same_day if not p[1]), same_day[0])  # the direct pair wins a tie
        return pair[0] if pair else None

    def quote(self, base: str, quote: str, day: date | None = None) -> FxQuote | None:
        """``None`` for the same currency; raises :class:`MissingFxRate` when no rate is known by ``on``."""
        if base == quote:
            return None
        wanted = min(day, self.on) if day is not None else self.on
        found = self._pick(base, quote, wanted)
        if found is None:
            raise MissingFxRate(base, quote, self.on)
        fact, inverse = found
        rate = 1 / Fraction(fact.rate) if inverse else Fraction(fact.rate)
        return FxQuote(base, quote, rate, fact, wanted if fact.as_of > wanted else None)

    def shifted(self, home: str, factor: Fraction) -> FxTable:
        """The same rates with every other currency worth ``factor`` times as much in ``home`` (for the
        sensitivity of a figure to the exchange rate: 0.95 and 1.05 are ±5 %)."""
        facts = []
        for f in self._facts:
            if f.quote == home:
                rate = f.rate * Decimal(factor.numerator) / Decimal(factor.denominator)
            elif f.base == home:
                rate = f.rate * Decimal(factor.denominator) / Decimal(factor.numerator)
            else:
                rate = f.rate
            facts.append(FxRateFact(f.base, f.quote, rate, f.as_of, f"{f.source} × {float(factor):g}"))
        return FxTable(facts, self.on)

    def convert(
        self, amount: Fraction, base: str, quote: str, day: date | None = None
    ) -> tuple[Fraction, FxQuote | None]:
        """``amount`` in ``quote`` at the rate for ``day`` (a price's quote day; default the figures' day)."""
        fx = self.quote(base, quote, day)
        return (amount if fx is None else amount * fx.rate), fx
