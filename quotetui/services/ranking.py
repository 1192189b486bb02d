"""A ranking: every offer evaluated for one scenario on one day, best first (``services/economics.py:
rank_offers`` makes it, ``services/ranking_cache.py`` keeps it)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import date

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import Evaluation, positions
from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
from quotetui.domain.fx import FxTable

Key = tuple[Hashable, ...]
"""What a ranking is kept under (``ranking_cache.ranking_key``)."""


@dataclass(slots=True)
class Ranking:
    scenario: ScenarioInput
    on: date
    evaluations: list[Evaluation]
    skipped: list[tuple[OfferInput, str]] = field(default_factory=list)  # cannot be compared, and why
    fx: FxTable | None = None  # the rates the figures were converted with
    assumptions: Assumptions = field(default_factory=Assumptions)  # the ones every figure used
    data_version: int = 0  # the database's data version the figures were read at (a later write changes it)
    key: Key | None = field(default=None, repr=False, compare=False)  # what it is kept under (ranking_cache)

    @property
    def offers(self) -> list[OfferInput]:
        """Every offer: the ranked ones, then those that cannot be compared."""
        return [e.offer for e in self.evaluations] + [o for o, _ in self.skipped]

    @property
    def ranked(self) -> list[tuple[int | None, Evaluation]]:
        """Each evaluation with its rank (None for an offer the scenario cannot run on: ``positions``)."""
        return list(zip(positions(self.evaluations), self.evaluations, strict=True))
