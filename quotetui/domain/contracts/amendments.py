"""A contract amendment as a record: the terms it changed, each before and after, from its effective day;
and the monthly charges in force that amendments make (``charges.timeline``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from quotetui.domain.contracts.charges import Charge, timeline
from quotetui.domain.economics.exact import q

TERMS = ("gpus", "monthly_charge", "term_months", "notice_days", "gpu", "acceptance_sample", "acceptance_sample_min")
"""The terms an amendment can change, in the order they are said."""

TITLES = {
    "gpus": "GPUs",
    "monthly_charge": "monthly charge",
    "term_months": "term (months)",
    "end": "ends",
    "notice_days": "notice (days)",
    "notice_deadline": "notice by",
    "gpu": "GPU model",
    "acceptance_sample": "acceptance sample",
    "acceptance_sample_min": "acceptance sample at least",
    "nodes": "nodes",
    "discounts": "discounts",
}


@dataclass(frozen=True, slots=True)
class Amendment:
    seq: int
    effective: date
    reason: str
    recorded_by: str
    changes: dict[str, list[Any]]  # term: [before, after], as text

    def summary(self, money: Callable[[str], str] = str) -> str:
        """``GPUs 16 → 32; monthly charge 100,000.00 → 190,000.00`` (``money`` shows an amount)."""

        def shown(key: str, value: Any) -> str:
            return "—" if value is None else money(value) if key == "monthly_charge" else str(value)

        return "; ".join(f"{TITLES.get(k, k)} {shown(k, b)} → {shown(k, a)}" for k, (b, a) in self.changes.items())

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "effective": self.effective.isoformat(),
            "reason": self.reason,
            "recorded_by": self.recorded_by,
            "changes": self.changes,
        }


def charges_of(start: date, monthly: Fraction, amendments: list[Amendment]) -> list[Charge]:
    """The monthly charges in force over a contract's term: as signed, then as amended."""
    amended = [
        (a.effective, q(a.changes["monthly_charge"][0]), q(a.changes["monthly_charge"][1]))
        for a in amendments
        if "monthly_charge" in a.changes
    ]
    return timeline(start, monthly, amended)


def term_on(amendments: list[Amendment], term: str, current: Any, day: date) -> Any:
    """A term's value on ``day``: the value before the first amendment of it that was not yet in force then,
    else its value now (``current``)."""
    for a in amendments:
        if term in a.changes and a.effective > day:
            return a.changes[term][0]
    return current
