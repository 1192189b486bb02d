"""Dated FX rates: recording them and listing them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlmodel import col, select

from quotetui.domain.entities import FX
from quotetui.domain.errors import FieldErrors
from quotetui.domain.fields import parse_record
from quotetui.domain.fx import dated_by
from quotetui.domain.money import plain
from quotetui.services.settings import local_today
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


def add_rate(db: Database, base: str, quote: str, rate: object, as_of: object, source: str) -> RateView:
    """Record 1 ``base`` = ``rate`` ``quote`` on ``as_of``; replaces the same pair on the same day. The values
    are checked as an FX rates sheet's row is (the same declared fields and rules)."""
    v = parse_record(FX, {"base": base, "quote": quote, "rate": rate, "as_of": as_of, "source": source})
    with db.write() as session:
        problems = dated_by(v["as_of"], local_today(session))
        if problems:
            raise FieldErrors(problems)
        key = (FxRate.base == v["base"], FxRate.quote == v["quote"], FxRate.as_of == v["as_of"])
        row = session.exec(select(FxRate).where(*key)).first()
        if row is None:
            session.add(FxRate(**v))
        else:
            row.rate, row.source = v["rate"], v["source"]
    return RateView(v["base"], v["quote"], v["rate"], v["as_of"], v["source"])


def list_rates(db: Database) -> list[RateView]:
    with db.session() as session:
        rows = session.exec(select(FxRate).order_by(col(FxRate.base), col(FxRate.quote), col(FxRate.as_of)))
        return [RateView(r.base, r.quote, r.rate, r.as_of, r.source) for r in rows]
