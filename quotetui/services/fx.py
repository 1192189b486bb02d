"""Dated FX rates: recording them and listing them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlmodel import col, select

from quotetui.domain.currency import currency_code
from quotetui.domain.errors import BadInput
from quotetui.domain.money import RATE_PLACES, check_places, plain, to_decimal
from quotetui.store.engine import Database
from quotetui.store.models import FxRate


@dataclass(frozen=True, slots=True)
class RateView:
    base: str
    quote: str
    rate: Decimal
    as_of: date
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "quote": self.quote,
            "rate": plain(self.rate),
            "as_of": self.as_of.isoformat(),
            "source": self.source,
        }


def add_rate(db: Database, base: str, quote: str, rate: str, as_of: date, source: str) -> RateView:
    """Record 1 ``base`` = ``rate`` ``quote`` on ``as_of``; replaces the same pair on the same day."""
    b, qc = currency_code(base), currency_code(quote)
    if b == qc:
        raise BadInput("an exchange rate needs two different currencies")
    value = check_places(to_decimal(rate, what="rate"), RATE_PLACES, what="rate")
    if value <= 0:
        raise BadInput(f"rate must be more than zero, not {value}")
    if not source.strip():
        raise BadInput("say where the rate comes from (--source)")
    with db.write() as session:
        row = session.exec(select(FxRate).where(FxRate.base == b, FxRate.quote == qc, FxRate.as_of == as_of)).first()
        if row is None:
            row = FxRate(base=b, quote=qc, rate=value, as_of=as_of, source=source.strip())
            session.add(row)
        else:
            row.rate, row.source = value, source.strip()
    return RateView(b, qc, value, as_of, source.strip())


def list_rates(db: Database) -> list[RateView]:
    with db.session() as session:
        rows = session.exec(select(FxRate).order_by(col(FxRate.base), col(FxRate.quote), col(FxRate.as_of)))
        return [RateView(r.base, r.quote, r.rate, r.as_of, r.source) for r in rows]
