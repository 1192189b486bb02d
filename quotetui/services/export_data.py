"""Everything the comparison workbook shows, gathered once: the engine's figures for the scenario and
the recorded facts, in the shapes the sheets write."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import col

from quotetui.domain.economics.caveats import Caveats, for_offer
from quotetui.domain.economics.claims import Audit
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.negotiation import (
    OptionPosition,
    Savings,
    Target,
    batnas,
    option_positions,
    savings,
    target_price,
)
from quotetui.domain.enums import Metric
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.timeutil import utcnow
from quotetui.domain.verification.findings import Finding
from quotetui.io.compared import format_compared
from quotetui.services.acceptance import (
    Acceptance,
    amended_since_acceptance,
    as_accepted,
    build,
    judged,
    machines_needed,
    nodes_of,
    sold_by,
    waivers_by_contract,
)
from quotetui.services.caveats import critical_codes
from quotetui.services.claims import audit_claims
from quotetui.services.contract_view import ContractView, load_contracts
from quotetui.services.economics import Ranking, rank_offers
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
from quotetui.store.rows import records, stored


@dataclass(frozen=True, slots=True)
class Position:
    savings: Savings | None
    batna: Evaluation | None
    target: Target | None
    options: tuple[OptionPosition, ...] = ()  # every option of the current round, in its own unit


@dataclass(slots=True)
class ExportData:
    generated_at: datetime
    ranking: Ranking
    audits: list[Audit]
    # the recorded rows are Core rows of their tables (attributes named as the columns), read once
    providers: list[Any]  # provider
    offers: list[Any]  # offer
    provider_names: dict[int, str]
    gpu_names: dict[int, str]
    sources: dict[int, str]
    rounds: list[tuple[Any, Any]]  # (quote_revision, revision_price)
    discounts: list[Any]
    extras: list[Any]
    slas: list[tuple[Any, list[Any]]]  # (sla_term, its credit tiers)
    claims: list[Any]  # benchmark_result
    fx: list[Any]
    scenarios: list[Any]  # every scenario: a workbook imported into a fresh database ranks as this one did
    purchases: list[Any]  # every purchase option (the buy side of rent vs buy)
    contracts: list[ContractView]
    history: list[Any]  # change_log, oldest first (``store/audit.py``)
    offers_by_id: dict[int, Any] = field(default_factory=dict)
    positions: dict[int, Position] = field(default_factory=dict)
    rent_buy: RentBuyAnswer | None = None
    pinned: list[int] = field(default_factory=list)
    findings: dict[int, list[Finding]] = field(default_factory=dict)  # by offer, worst first
    logs: dict[int, list[LogOnRecord]] = field(default_factory=dict)  # raw logs on record, by offer
    acceptance: list[Acceptance] = field(default_factory=list)  # each contract's checklist, then each offer's
    current_rounds: dict[int, tuple[Any, list[Any]]] | None = None  # made once by the sheets that need it

    def caveats(self, e: Evaluation) -> Caveats:
        """What qualifies ``e``'s figures in the sheets (``caveats.py``): its own, its critical findings, a
        lapsed quote."""
        return for_offer(e.caveats, e.offer, self.ranking.on, critical_codes(self.findings.get(e.offer.id, ())))

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
    ranking = rank_offers(db, scenario, on=on)
    ranked = {e.offer.id for e in ranking.evaluations}
    unknown = [p for p in pinned or [] if p not in ranked]
    if unknown:
        raise BadInput(f"no offer {', '.join(f'#{p}' for p in unknown)} in the ranking (see `quotetui offers`)")
    audits = audit_claims(db)
    with db.session() as session:

        def rows(model: Any, *order: Any) -> list[Any]:  # every row once, as records: no ORM object
            return stored(session, model, order_by=order)

        providers = rows(Provider, col(Provider.id))
        offers = rows(Offer, col(Offer.id))
        revisions = {r.id: r for r in rows(QuoteRevision)}
        prices = records(
            "revision_price",
            session.execute(
                sa.select(RevisionPrice.__table__)
                .join(QuoteRevision.__table__, col(RevisionPrice.revision_id) == col(QuoteRevision.id))
                .order_by(
                    col(QuoteRevision.offer_id),
                    col(QuoteRevision.seq),
                    col(RevisionPrice.term_months),
                    col(RevisionPrice.id),
                )
            ),
        )
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
            rounds=[(revisions[p.revision_id], p) for p in prices],
            discounts=rows(Discount, col(Discount.offer_id), col(Discount.id)),
            extras=rows(ExtraCost, col(ExtraCost.offer_id), col(ExtraCost.id)),
            slas=[(s, tiers.get(s.id or 0, [])) for s in rows(SlaTerm, col(SlaTerm.offer_id))],
            claims=rows(BenchmarkResult, col(BenchmarkResult.id)),
            fx=rows(FxRate, col(FxRate.base), col(FxRate.quote), col(FxRate.as_of)),
            scenarios=rows(Scenario, col(Scenario.id)),
            purchases=rows(PurchaseOption, col(PurchaseOption.id)),
            contracts=[],
            history=rows(ChangeLog, col(ChangeLog.at), col(ChangeLog.id)),
        )
    data.offers_by_id = {o.id: o for o in offers if o.id is not None}
    data.contracts = load_contracts(db, data.generated_at)
    verifier, data.findings = market_findings(db, ranking, audits)
    data.logs = verifier.logs
    data.acceptance = _acceptance(db, data, verifier.catalog)
    data.rent_buy = _rent_buy(db, data)
    data.pinned = list(dict.fromkeys(pinned or []))
    _positions(data)
    return data


def _acceptance(db: Database, data: ExportData, catalog: GpuCatalog) -> list[Acceptance]:
    """Each contract's checklist (its nodes, its waivers), then each offer's with logs on record (one node)."""
    inputs = {e.offer.id: e.offer for e in data.ranking.evaluations}
    with db.session() as session:
        waivers = waivers_by_contract(session)
    found = []
    for v in data.contracts:
        offer = inputs.get(v.contract.offer_id)
        if offer is None or v.contract.id is None:
            continue
        sold = sold_by(v.contract, catalog)
        kept = judged(v.contract).get("nodes")
        nodes = int(kept) if kept else nodes_of(v.contract.gpu_count, offer.gpus_per_node)
        logs, after = as_accepted(v.contract, data.logs.get(offer.id, []))
        items = build(offer, logs, data.findings.get(offer.id, []), catalog, nodes,
                      waivers.get(v.contract.id, ()), sold, machines_needed(v.contract, nodes))  # fmt: skip
        found.append(Acceptance(offer.id, f"{offer.provider} {offer.name}", nodes, items, v.contract.id,
                                v.contract.accepted_on, after, amended_since_acceptance(v.contract)))  # fmt: skip
    for offer_id, logs in sorted(data.logs.items()):
        offer = inputs.get(offer_id)
        if offer is not None and logs:
            items = build(offer, logs, data.findings.get(offer_id, []), catalog)
            found.append(Acceptance(offer_id, f"{offer.provider} {offer.name}", 1, items))
    return found


def _rent_buy(db: Database, data: ExportData) -> RentBuyAnswer | None:
    """Owning as recorded (the first purchase option, part by part) against renting the best feasible offer of
    the scenario at full use, for the GPUs the purchase buys."""
    best = next((e for e in data.ranking.evaluations if e.feasibility.ok), None)
    terms = recorded_purchase(db)
    if terms is None or best is None:
        return None
    return calc_rent_vs_buy(db, {}, offer_id=best.offer.id, scenario=data.scenario_name, purchase=terms.name)


def _positions(data: ExportData) -> None:
    assumptions = data.ranking.assumptions
    evaluations = data.ranking.evaluations
    fx = data.ranking.fx
    assert fx is not None
    best = batnas(evaluations, data.ranking.on)
    for e in evaluations:
        batna = best.get(e.offer.id)
        options = option_positions(e, batna, fx, assumptions)
        target = None if batna is None else target_price(e, batna, fx, assumptions)  # over every way to buy
        data.positions[e.offer.id] = Position(savings(e.offer, assumptions), batna, target, options)


__all__ = ["ExportData", "Position", "gather"]
