"""Public market prices (cloud catalogs): per-model medians per GPU-hour, in the scenario's currency."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.display import amount_text
from quotetui.domain.economics.exact import q
from quotetui.domain.fx import FxTable, MissingFxRate
from quotetui.language.lists import labelled, listed
from quotetui.services.engine_inputs import fx_table_of
from quotetui.store.reader import reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class MarketMedian:
    gpu: str
    gpu_key: str
    median_gpu_hour: Fraction  # in ``currency``
    currency: str
    listings: int
    catalogs: tuple[str, ...]
    as_of: date

    def to_json(self) -> dict[str, Any]:
        return {
            "gpu_model": self.gpu,
            "median_price_per_gpu_hour": amount_text(self.median_gpu_hour, self.currency),
            "currency": self.currency,
            "listings": self.listings,
            "catalogs": list(self.catalogs),
            "as_of": self.as_of.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class _Listing:
    """One stored listing, as much of it as a median needs."""

    gpu_model_id: int
    price: Decimal  # per instance-hour, on demand
    gpu_count: int
    currency: str
    catalog: str
    as_of: date


def market_medians(
    db: Database, currency: str, on: date, fx: FxTable | None = None
) -> tuple[list[MarketMedian], list[str]]:
    """Median on-demand price per GPU-hour of each model over every stored listing (regions included),
    converted with the dated FX rate; models whose currency cannot be converted are reported."""
    with reading(db) as reader:
        if fx is None:  # a caller that ranked offers for ``on`` already holds the rates
            fx = fx_table_of(reader, on)
        names = {i: (name, key) for i, name, key in reader.rows('SELECT id, name, "key" FROM gpu_model')}
        rows = [
            _Listing(gpu, reader.money(price), count, currency_, catalog, reader.day(as_of))  # type: ignore[arg-type]
            for gpu, price, count, currency_, catalog, as_of in reader.rows(
                "SELECT gpu_model_id, price, gpu_count, currency, catalog, as_of FROM market_price ORDER BY id"
            )
        ]
    by_gpu: dict[int, list[_Listing]] = {}
    for row in rows:
        by_gpu.setdefault(row.gpu_model_id, []).append(row)
    medians: list[MarketMedian] = []
    missing: dict[str, list[str]] = {}  # the reason -> the models it leaves out
    for gpu_id, items in sorted(by_gpu.items(), key=lambda kv: names[kv[0]][0]):
        try:
            values = [fx.convert(q(i.price) / i.gpu_count, i.currency, currency)[0] for i in items]
        except MissingFxRate as exc:
            missing.setdefault(str(exc), []).append(names[gpu_id][0])
            continue
        name, key = names[gpu_id]
        medians.append(
            MarketMedian(
                name,
                key,
                statistics.median(values),
                currency,
                len(items),
                tuple(sorted({i.catalog for i in items})),
                max(i.as_of for i in items),
            )
        )
    return medians, [labelled(listed(models), reason) for reason, models in missing.items()]


__all__ = ["MarketMedian", "market_medians"]
