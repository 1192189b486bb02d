"""Scenarios as listed (``scenario list``, the TUI's scenario picker, what a save returns): read as plain tuples
(``store/reader.py``), so listing them needs no ORM (on SQLite, no SQLAlchemy)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from quotetui.domain.money import plain
from quotetui.store.reader import Reader, reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class ScenarioView:
    name: str
    description: str | None
    gpu: str | None
    gpu_count: int
    months: int
    utilisation: Decimal
    egress_tb_month: Decimal
    storage_tb: Decimal
    train_flops: Decimal | None
    train_params: Decimal | None
    train_tokens: Decimal | None
    home_currency: str
    is_default: bool
    id: int | None = None

    def to_json(self) -> dict[str, Any]:
        def num(value: Decimal | None) -> str | None:
            return None if value is None else plain(value)

        return {
            "name": self.name,
            "description": self.description,
            "gpu_model": self.gpu,
            "gpu_count": self.gpu_count,
            "months": self.months,
            "utilization": num(self.utilisation),
            "egress_tb_month": num(self.egress_tb_month),
            "storage_tb": num(self.storage_tb),
            "train_flops": None if self.train_flops is None else f"{self.train_flops.normalize():E}",
            "train_params": num(self.train_params),
            "train_tokens": num(self.train_tokens),
            "currency": self.home_currency,
            "default": self.is_default,
        }


_SCENARIOS = (
    "SELECT s.name, s.description, g.name, s.gpu_count, s.months, s.utilisation, s.egress_tb_month, s.storage_tb, "
    "s.train_flops, s.train_params, s.train_tokens, s.home_currency, s.is_default, s.id "
    "FROM scenario s LEFT OUTER JOIN gpu_model g ON g.id = s.gpu_model_id"
)


def scenario_views(reader: Reader, scenario_id: int | None = None) -> list[ScenarioView]:
    """Every scenario (or the one with ``scenario_id``), oldest first."""
    where, params = ("", {}) if scenario_id is None else (" WHERE s.id = :id", {"id": scenario_id})
    d = reader.text_decimal
    return [
        ScenarioView(r[0], r[1], r[2], r[3], r[4], reader.money(r[5]), d(r[6]), d(r[7]), d(r[8]), d(r[9]),  # type: ignore[arg-type]
                     d(r[10]), r[11], bool(r[12]), r[13])
        for r in reader.rows(_SCENARIOS + where + " ORDER BY s.id", params)
    ]  # fmt: skip


def list_scenarios(db: Database) -> list[ScenarioView]:
    with reading(db) as reader:
        return scenario_views(reader)


__all__ = ["ScenarioView", "list_scenarios", "scenario_views"]
