"""Everything the comparison workbook shows, gathered once: the engine's figures for the scenario and
the recorded facts, in the shapes the sheets write."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import col

from quotetui.domain.economics.caveats import Caveats, for_offer
from quotetui.domain.economics.claims import Audit
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.negotiation import (
    OptionPosition,
    Savings,
    Target,
    option_positions,
    savings,
    target_price,
)
from quotetui.domain.economics.rounds import current_round
from quotetui.domain.enums import Metric
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.timeutil import utcnow
from quotetui.domain.verification.findings import Finding
from quotetui.io.compared import format_compared
from quotetui.language import _
from quotetui.language.lists import listed, quoted
from quotetui.services.acceptance import (
    Acceptance,
    amended_since_acceptance,
    as_accepted,
    build,
    contract_nodes,
    judged,
    machines_needed,
    sold_by,
    waivers_by_contract,
)
from quotetui.services.claims import audit_claims
from quotetui.services.contract_view import ContractView, load_contracts
from quotetui.services.export_ranking import ExportRanking
from quotetui.services.rent_buy import RentBuyAnswer, calc_rent_vs_buy, recorded_purchase
from quotetui.services.verification import LogOnRecord, market_findings
from quotetui.store.engine import Database, one_snapshot
from quotetui.store.models import (
    BenchmarkResult,
    ChangeLog,
    Discount,
    ExtraCost,
    FxRate,
    GpuModel,
    Offer,
    Provider,
    PurchaseOption,
    QuoteRevision,
    RevisionPrice,
    Scenario,
    SlaCreditTier,
    SlaTerm,
    Source,
)
from quotetui.store.rows import STREAM_BATCH, each_stored, record_type, stored


@dataclass(frozen=True, slots=True)
class Position:
    savings: Savings | None
    batna: Evaluation | None
    target: Target | None
    options: tuple[OptionPosition, ...] = ()  # every option of the current round, in its own unit


@dataclass(slots=True)
class ExportData:
    generated_at: datetime
    ranking: ExportRanking
    audits: list[Audit]
    # the recorded rows are Core rows of their tables (attributes named as the columns), read once
    providers: list[Any]  # provider
    offers: list[Any]  # offer
    provider_names: dict[int, str]
    gpu_names: dict[int, str]
    sources: dict[int, str]
    rounds: Streamed  # (quote_revision, revision_price), by offer, round and term: read as written
    discounts: Streamed  # the tables an offer has rows in are read as their sheets are written
    extras: Streamed
    slas: Streamed  # (sla_term, its credit tiers)
    claims: Streamed  # benchmark_result
    fx: list[Any]
    scenarios: list[Any]  # every scenario: a workbook imported into a fresh database ranks as this one did
    purchases: list[Any]  # every purchase option (the buy side of rent vs buy)
    contracts: list[ContractView]
    history: Streamed  # change_log, oldest first (``store/audit.py``): read as written
    offers_by_id: dict[int, Any] = field(default_factory=dict)
    current: dict[int, tuple[int, Any]] = field(default_factory=dict)  # offer: its current round's number, base price
    rent_buy: RentBuyAnswer | None = None
    rent_buy_why: str = ""  # why there is no rent-vs-buy answer
    pinned: list[int] = field(default_factory=list)
    findings: dict[int, list[Finding]] = field(default_factory=dict)  # by offer, worst first
    logs: dict[int, list[LogOnRecord]] = field(default_factory=dict)  # raw logs on record, by offer
    acceptance: list[Acceptance] = field(default_factory=list)  # each contract's checklist, then each offer's

    def position(self, e: Evaluation) -> Position:
        """An offer's negotiating position (made when its rows are written: 100,000 of them are never held)."""
        assumptions, fx = self.ranking.assumptions, self.ranking.fx
        batna = self.ranking.batna(e)
        options = option_positions(e, batna, fx, assumptions)
        target = None if batna is None else target_price(e, batna, fx, assumptions)  # over every way to buy
        return Position(savings(e.offer, assumptions), batna, target, options)

    def caveats(self, e: Evaluation) -> Caveats:
        """What qualifies ``e``'s figures in the sheets (``caveats.py``): its own, its critical findings, a
        lapsed quote."""
        return for_offer(e.caveats, e.offer, self.ranking.on, self.findings.get(e.offer.id, ()))

    @property
    def scenario_name(self) -> str:
        return self.ranking.scenario.name

    @property
    def currency(self) -> str:
        return self.ranking.scenario.home_currency

    def offer_key(self, offer_id: int | None) -> tuple[str, str]:
        """(provider name, offer name): the natural key the import matches on."""
        offer = self.offers_by_id.get(offer_id or 0)
        if offer is None:
            return "", ""
        return self.provider_names.get(offer.provider_id, ""), offer.name

    def compared(self, claim: Any) -> str:
        """A cheaper_than claim's compared offers as ``provider / offer; …`` (ids do not survive an import)."""
        if claim.metric is not Metric.CHEAPER_THAN or not claim.conditions:
            return ""
        ids = json.loads(claim.conditions).get("compared_offer_ids", [])
        return format_compared([self.offer_key(i) for i in ids])


@one_snapshot
def gather(
    db: Database, scenario: str | None = None, pinned: list[int] | None = None, on: date | None = None
) -> ExportData:
    ranking = ExportRanking(db, scenario, on)
    ranked = set(ranking.order)
    unknown = [p for p in pinned or [] if p not in ranked]
    if unknown:
        raise BadInput(
            _("no offer {ids} in the ranking (see `quotetui offers`)").format(ids=listed(f"#{p}" for p in unknown))
        )
    audits = audit_claims(db)
    with db.session() as session:

        def rows(model: Any, *order: Any) -> list[Any]:  # every row once, as records: no ORM object
            return stored(session, model, order_by=order)

        providers = rows(Provider, col(Provider.id))
        offers = rows(Offer, col(Offer.id))
        tiers: dict[int, list[Any]] = {}
        for t in rows(SlaCreditTier, col(SlaCreditTier.below).desc()):
            tiers.setdefault(t.sla_term_id, []).append(t)
        data = ExportData(
            generated_at=utcnow(),
            ranking=ranking,
            audits=audits,
            providers=providers,
            offers=offers,
            provider_names={p.id: p.name for p in providers if p.id is not None},
            gpu_names={g.id: g.name for g in rows(GpuModel) if g.id is not None},
            sources={s.id: s.title for s in rows(Source) if s.id is not None},
            rounds=Streamed(db, _rounds),
            discounts=_streamed(db, Discount, col(Discount.offer_id), col(Discount.id)),
            extras=_streamed(db, ExtraCost, col(ExtraCost.offer_id), col(ExtraCost.id)),
            slas=Streamed(
                db,
                lambda s: (
                    (t, tiers.get(t.id, [])) for t in each_stored(s, SlaTerm, order_by=(col(SlaTerm.offer_id),))
                ),
            ),
            claims=_streamed(db, BenchmarkResult, col(BenchmarkResult.id)),
            fx=rows(FxRate, col(FxRate.base), col(FxRate.quote), col(FxRate.as_of)),
            scenarios=rows(Scenario, col(Scenario.id)),
            purchases=rows(PurchaseOption, col(PurchaseOption.id)),
            contracts=[],
            history=_streamed(db, ChangeLog, col(ChangeLog.at), col(ChangeLog.id)),
        )
    data.offers_by_id = {o.id: o for o in offers if o.id is not None}
    data.current = _current(data.rounds)
    data.contracts = load_contracts(db, data.generated_at)
    verifier, data.findings = market_findings(db, ranking, audits)
    data.logs = verifier.logs
    data.acceptance = _acceptance(db, data, verifier.catalog)
    data.rent_buy, data.rent_buy_why = _rent_buy(db, data)
    data.pinned = list(dict.fromkeys(pinned or []))
    return data


class Streamed:
    """Rows read from the database each time they are iterated, a batch at a time (inside the export's snapshot:
    the same rows as the rest of the workbook), never held whole."""

    def __init__(self, db: Database, read: Callable[[Any], Iterator[Any]]) -> None:
        self.db, self.read = db, read

    def __iter__(self) -> Iterator[Any]:
        with self.db.session() as session:
            yield from self.read(session)


def _streamed(db: Database, model: Any, *order: Any) -> Streamed:
    return Streamed(db, lambda session: each_stored(session, model, order_by=order))


def _rounds(session: Any) -> Iterator[tuple[Any, Any]]:
    """Every priced round's options as (round, option) records, by offer, round, term and option; a round's
    options share its record."""
    r, p = QuoteRevision.__table__, RevisionPrice.__table__
    statement = (
        sa.select(*r.c, *p.c)
        .join_from(p, r, p.c.revision_id == r.c.id)
        .order_by(r.c.offer_id, r.c.seq, p.c.term_months, p.c.id)
    )
    make_round = record_type(r.name, tuple(r.c.keys()))
    make_price = record_type(p.name, tuple(p.c.keys()))
    n, last = len(r.c), None
    for row in session.execute(statement, execution_options={"yield_per": STREAM_BATCH}):
        if last is None or last.id != row[0]:
            last = make_round(row[:n])
        yield last, make_price(row[n:])


def _current(rounds: Iterable[tuple[Any, Any]]) -> dict[int, tuple[int, Any]]:
    """Each offer's current round (the domain's one definition): its number and its headline price option."""
    out: dict[int, tuple[int, Any]] = {}
    for offer_id, options in itertools.groupby(rounds, key=lambda rp: rp[0].offer_id):
        by_round: list[tuple[Any, list[Any]]] = []
        for rev, price in options:
            if not by_round or by_round[-1][0] is not rev:  # a round's options share its record
                by_round.append((rev, []))
            by_round[-1][1].append(price)
        found = current_round(by_round, lambda r: r[0].mover, lambda r: bool(r[1]))
        if found is not None:
            out[offer_id] = (found[0].seq, base_option(found[1]))
    return out


def _acceptance(db: Database, data: ExportData, catalog: GpuCatalog) -> list[Acceptance]:
    """Each contract's checklist (its nodes, its waivers), then each offer's with logs on record (one node)."""
    wanted = [v.contract.offer_id for v in data.contracts] + sorted(data.logs)
    inputs = {e.offer.id: e.offer for e in data.ranking.of(dict.fromkeys(wanted))}
    with db.session() as session:
        waivers = waivers_by_contract(session)
    found = []
    for v in data.contracts:
        offer = inputs.get(v.contract.offer_id)
        if offer is None or v.contract.id is None:
            continue
        kept = judged(v.contract, v.amendments, v.on)  # on the export's day, as the contract's terms
        nodes = contract_nodes(v.contract, kept, offer.gpus_per_node)
        logs, after = as_accepted(v.contract, data.logs.get(offer.id, []))
        items = build(offer, logs, data.findings.get(offer.id, []), catalog, nodes, waivers.get(v.contract.id, ()),
                      sold_by(v.contract, kept, catalog), machines_needed(kept, nodes))  # fmt: skip
        found.append(Acceptance(offer.id, f"{offer.provider} {offer.name}", nodes, items, v.contract.id,
                                v.contract.accepted_on, after, amended_since_acceptance(v.contract), kept))  # fmt: skip
    for offer_id, logs in sorted(data.logs.items()):
        offer = inputs.get(offer_id)
        if offer is not None and logs:
            items = build(offer, logs, data.findings.get(offer_id, []), catalog)
            found.append(Acceptance(offer_id, f"{offer.provider} {offer.name}", 1, items))
    return found


def _rent_buy(db: Database, data: ExportData) -> tuple[RentBuyAnswer | None, str]:
    """Owning as recorded (the first purchase option, part by part) against renting the best feasible offer of
    the scenario at full use, for the GPUs the purchase buys; else why not (the sheet says it, and the rest of
    the workbook is written)."""
    first = data.ranking.evaluations[:1]  # the feasible offers rank first (``rank_key``)
    best = first[0] if first and first[0].feasibility.ok else None
    terms = recorded_purchase(db)
    if terms is None:
        return None, _("No purchase option recorded: nothing to compare.")
    if best is None:
        return None, _("No offer can run scenario {scenario}: nothing to compare.").format(
            scenario=quoted(data.scenario_name)
        )
    if terms.currency != data.currency:  # the two sides are never converted into each other
        return None, _(
            "Not compared: the purchase option {purchase} is in {currency} and scenario {scenario} in "
            "{home_currency}; export a scenario in {currency}, or record the purchase in {home_currency}."
        ).format(
            purchase=quoted(terms.name),
            currency=terms.currency,
            scenario=quoted(data.scenario_name),
            home_currency=data.currency,
        )
    answer = calc_rent_vs_buy(db, {}, offer_id=best.offer.id, scenario=data.scenario_name, purchase=terms.name)
    return answer, ""


__all__ = ["ExportData", "Position", "gather"]
