"""FX rates as listed (``fx list``, the TUI's FX rates screen, what a save returns): read as plain tuples
(``store/reader.py``), so listing them needs no ORM (on SQLite, no SQLAlchemy)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from quotetui.domain.money import RATE_PLACES, plain
from quotetui.store.reader import Reader, reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class RateView:
    base: str
    quote: str
    rate: Decimal
    as_of: date
    source: str
    id: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "quote": self.quote,
            "rate": plain(self.rate),
            "as_of": self.as_of.isoformat(),
            "source": self.source,
        }


def rate_views(reader: Reader, rate_id: int | None = None) -> list[RateView]:
    """Every rate (or the one with ``rate_id``) by pair, then date."""
    where, params = ("", {}) if rate_id is None else (" WHERE id = :id", {"id": rate_id})
    return [
        RateView(b, q, reader.money(r, RATE_PLACES), reader.day(a), s, i)  # type: ignore[arg-type]
        for b, q, r, a, s, i in reader.rows(
            "SELECT base, quote, rate, as_of, source, id FROM fx_rate" + where + " ORDER BY base, quote, as_of",
            params,
        )
    ]


def list_rates(db: Database) -> list[RateView]:
    with reading(db) as reader:
        return rate_views(reader)


__all__ = ["RateView", "list_rates", "rate_views"]
