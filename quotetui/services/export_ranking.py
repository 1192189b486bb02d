"""The ranking as the export reads it: the engine's figures for every offer, in the engine's order, without
holding 100,000 evaluations at once.

A market of up to :data:`HELD` offers is ranked once (``economics.rank_offers``, kept in the process as the
TUI's is) and held. A bigger one is evaluated a chunk at a time: once to put it in order (each offer's rank key
and the BATNA leaders are all that is kept), then again by each sheet that reads its figures, in the order that
sheet writes them. The engine is deterministic, so every pass gives the same figures; the export reads every pass
inside its one snapshot (``transfer.export_file``), so every pass reads the same rows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date
from fractions import Fraction
from typing import Any, overload

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate, numbered, rank_key
from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
from quotetui.domain.economics.negotiation import BatnaLeaders
from quotetui.domain.fx import FxTable
from quotetui.services.economics import rank_offers, resolve_context
from quotetui.services.engine_inputs import load_assumptions_of, offer_inputs
from quotetui.services.ranking import Ranking
from quotetui.services.ranking_cache import file_stamp
from quotetui.store.catalog import load_catalog_of
from quotetui.store.engine import Database
from quotetui.store.reader import reading

HELD = 20_000
"""Up to this many offers the export holds every evaluation (about 4.5 KB each); beyond, it evaluates a chunk
at a time, once per sheet that reads the figures."""

CHUNK = 5_000
"""Offers read and evaluated at a time beyond :data:`HELD`."""

LOWER_IS_BETTER: dict[str, Callable[[Evaluation], Fraction]] = {
    "pflop": lambda e: e.cost_per_pflop_hour,
    "gpu_hour": lambda e: e.price_per_gpu_hour,
    "all_in": lambda e: e.cost_per_gpu_hour,
    "tco": lambda e: e.annualised_tco,
    "monthly": lambda e: e.best.monthly,
    "downtime": lambda e: e.downtime_hours_per_year,
}
HIGHER_IS_BETTER: dict[str, Callable[[Evaluation], Fraction]] = {
    "mfu": lambda e: e.effective_mfu,
    "availability": lambda e: e.availability.value,
}
"""The figures whose best value among the confirmed offers the workbook marks (the Summary's green)."""


class ExportRanking:
    """What the sheets ask of the ranking: the context (scenario, day, rates, assumptions), the evaluations best
    first (:attr:`evaluations`, :attr:`ranked`) or by offer id (:meth:`by_id`), some of them (:meth:`of`), the
    offers that cannot be compared (:attr:`skipped`) and each offer's BATNA (:meth:`batna`)."""

    scenario: ScenarioInput
    on: date
    fx: FxTable
    assumptions: Assumptions

    def __init__(self, db: Database, scenario: str | None = None, on: date | None = None) -> None:
        self.db = db
        stamp = file_stamp(db)  # before this snapshot's first read (``rank_offers``: what its ranking is kept under)
        with reading(db) as reader:
            count = int(reader.one("SELECT count(*) FROM offer")[0])  # type: ignore[index]
            _, self.gpus = load_catalog_of(reader)  # each GPU model's datasheet, by id
        self._held: Ranking | None = None
        if count <= HELD:
            ranking = self._held = rank_offers(db, scenario, on=on, stamp=stamp)
            assert ranking.fx is not None
            self.scenario, self.on, self.fx, self.assumptions = (
                ranking.scenario, ranking.on, ranking.fx, ranking.assumptions)  # fmt: skip
            self.skipped = ranking.skipped
            self.order = [e.offer.id for e in ranking.evaluations]
            self._ranks = {e.offer.id: rank for rank, e in ranking.ranked}
            self._by_id = {e.offer.id: e for e in ranking.evaluations}
            for _ in self._watch(ranking.evaluations):
                pass
            return
        self.scenario, self.fx, self.on = resolve_context(db, scenario, on)
        with reading(db) as reader:
            self.assumptions = load_assumptions_of(reader)
            ids = [int(row[0]) for row in reader.rows("SELECT id FROM offer ORDER BY id")]
        keys: list[tuple[Any, ...]] = []
        self.skipped: list[tuple[OfferInput, str]] = []
        for e in self._watch(self._evaluate(ids, self.skipped)):
            keys.append(rank_key(e))
        keys.sort()
        self.order = [key[-1] for key in keys]  # the key ends with the offer's id: no two are equal
        self._ranks = dict(zip(self.order, numbered(not key[0] for key in keys), strict=True))

    def _watch(self, evaluations: Iterable[Evaluation]) -> Iterator[Evaluation]:
        """What the workbook needs of every evaluation before its rows, kept as ``evaluations`` go by: the BATNA
        leaders, each offer's downtime (the SLA sheet), the best value of each marked figure (confirmed offers)."""
        self.leaders = BatnaLeaders(self.on)
        self.downtime: dict[int, Fraction] = {}
        self.lows: dict[str, Fraction | None] = dict.fromkeys(LOWER_IS_BETTER)
        self.highs: dict[str, Fraction | None] = dict.fromkeys(HIGHER_IS_BETTER)
        for e in evaluations:
            self.leaders.add(e)
            self.downtime[e.offer.id] = e.downtime_hours_per_year
            if e.feasibility.confirmed:
                for key, f in LOWER_IS_BETTER.items():
                    low = self.lows[key]
                    self.lows[key] = f(e) if low is None else min(low, f(e))
                for key, f in HIGHER_IS_BETTER.items():
                    high = self.highs[key]
                    self.highs[key] = f(e) if high is None else max(high, f(e))
            yield e

    # -- what the sheets read ----------------------------------------------------------------------------------
    @property
    def evaluations(self) -> Evaluations:
        """Every evaluation, best first (read again each time it is iterated, beyond :data:`HELD`)."""
        return Evaluations(self, self.order)

    @property
    def ranked(self) -> Iterator[tuple[int | None, Evaluation]]:
        """Each evaluation with its rank (None for an offer the scenario cannot run on: ``evaluate.positions``)."""
        for e in self.evaluations:
            yield self._ranks[e.offer.id], e

    def ranks(self) -> dict[int, int | None]:
        """Each ranked offer's rank, by id (known from the order: nothing is evaluated again)."""
        return self._ranks

    def by_id(self) -> Iterator[Evaluation]:
        """Every evaluation in offer-id order (the order of the Offers and Negotiation sheets)."""
        return iter(Evaluations(self, sorted(self.order)))

    def of(self, ids: Iterable[int]) -> list[Evaluation]:
        """The evaluations of ``ids`` that are ranked, in the order given."""
        ranked = set(self.order)
        return list(Evaluations(self, [i for i in ids if i in ranked]))

    def priced(self) -> set[int]:
        """The offers with a current price: the ranked ones and those that cannot be compared."""
        return set(self.order) | {o.id for o, _ in self.skipped}

    def batna(self, e: Evaluation) -> Evaluation | None:
        return self.leaders.of(e)

    @property
    def offers(self) -> OfferInputs:
        """Every offer's inputs: the ranked ones best first, then those that cannot be compared (``Ranking.offers``)."""
        return OfferInputs(self)

    # -- reading ------------------------------------------------------------------------------------------------
    def _evaluate(
        self, ids: Sequence[int], skipped: list[tuple[OfferInput, str]] | None = None
    ) -> Iterator[Evaluation]:
        if self._held is not None:
            yield from (self._by_id[i] for i in ids)
            return
        for offers in self._inputs(ids):
            for offer in offers:
                try:
                    yield evaluate(offer, self.scenario, self.fx, self.assumptions)
                except NOT_COMPARABLE as exc:
                    if skipped is None:
                        raise
                    skipped.append((offer, str(exc)))

    def _inputs(self, ids: Sequence[int]) -> Iterator[list[OfferInput]]:
        """The inputs of ``ids`` (priced ones only, in the order given), a chunk at a time."""
        for start in range(0, len(ids), CHUNK):
            chunk = list(ids[start : start + CHUNK])
            with reading(self.db) as reader:
                found = {o.id: o for o in offer_inputs(reader, self.gpus, chunk, history=True)}
            yield [found[i] for i in chunk if i in found]


class Evaluations:
    """Evaluations of some offers, in a given order: iterated (read a chunk at a time beyond :data:`HELD`),
    counted, or sliced."""

    def __init__(self, ranking: ExportRanking, ids: list[int]) -> None:
        self.ranking, self.ids = ranking, ids

    def __iter__(self) -> Iterator[Evaluation]:
        return self.ranking._evaluate(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __bool__(self) -> bool:
        return bool(self.ids)

    @overload
    def __getitem__(self, index: int) -> Evaluation: ...
    @overload
    def __getitem__(self, index: slice) -> list[Evaluation]: ...
    def __getitem__(self, index: int | slice) -> Evaluation | list[Evaluation]:
        if isinstance(index, slice):
            return list(self.ranking._evaluate(self.ids[index]))
        return next(self.ranking._evaluate([self.ids[index]]))


class OfferInputs:
    """Every offer's inputs (``ExportRanking.offers``), read again each time they are iterated."""

    def __init__(self, ranking: ExportRanking) -> None:
        self.ranking = ranking

    def __iter__(self) -> Iterator[OfferInput]:
        r = self.ranking
        if r._held is not None:
            yield from r._held.offers
            return
        for offers in r._inputs(r.order):
            yield from offers
        yield from (o for o, _ in r.skipped)


__all__ = ["CHUNK", "HELD", "Evaluations", "ExportRanking", "OfferInputs"]
