"""Public market prices (cloud catalogs): per-model medians per GPU-hour, in the scenario's currency."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from sqlmodel import select

from quotetui.domain.economics.exact import q
from quotetui.domain.fx import FxTable, MissingFxRate
from quotetui.services.economics import amount_text
from quotetui.services.inputs import fx_table
from quotetui.store.engine import Database
from quotetui.store.models import GpuModel, MarketPrice


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


def market_medians(
    db: Database, currency: str, on: date, fx: FxTable | None = None
) -> tuple[list[MarketMedian], list[str]]:
    """Median on-demand price per GPU-hour of each model over every stored listing (regions included),
    converted with the dated FX rate; models whose currency cannot be converted are reported."""
    with db.session() as session:
        if fx is None:  # a caller that ranked offers for ``on`` already holds the rates
            fx = fx_table(session, on)
        names = {g.id: (g.name, g.key) for g in session.exec(select(GpuModel))}
        rows = list(session.exec(select(MarketPrice)))
    by_gpu: dict[int, list[MarketPrice]] = {}
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
    return medians, [f"{', '.join(models)}: {reason}" for reason, models in missing.items()]


__all__ = ["MarketMedian", "market_medians"]
