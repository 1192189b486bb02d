"""Each offer's caveats for a view (``domain/economics/caveats.py``): the evaluation's own (a lower bound, an
estimate, VAT not recorded) with the offer's findings (critical ones and warnings) and a lapsed quote. The
listing, ``explain``, the brief, the award, the comparison screens and the workbook all take them from here."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from quotetui.domain.economics.caveats import NONE, Caveats, for_offer, with_offer

if TYPE_CHECKING:
    from quotetui.domain.economics.evaluate import Evaluation
    from quotetui.domain.economics.inputs import OfferInput
    from quotetui.domain.fx import FxTable
    from quotetui.services.ranking import Ranking
    from quotetui.store.engine import Database


def market_caveats(db: Database, ranking: Ranking) -> dict[int, Caveats]:
    """Every ranked offer's caveats, with the findings the TUI and the export show (``market_findings``)."""
    from quotetui.services.claims import audit_claims
    from quotetui.services.verification import market_findings

    _, findings = market_findings(db, ranking, audit_claims(db))
    return {
        e.offer.id: for_offer(e.caveats, e.offer, ranking.on, findings.get(e.offer.id, ())) for e in ranking.evaluations
    }


def offers_caveats(db: Database, offers: list[OfferInput], currency: str, on: date, fx: FxTable) -> dict[int, Caveats]:
    """The offer-level caveats of ``offers`` (their critical findings, a lapsed quote as of ``on``), without
    an evaluation's: the award adds each line's own (its GPUs' lower bound and estimates)."""
    from quotetui.services.verification import load_verifier

    if not offers:
        return {}
    verifier = load_verifier(db, offers, currency, on, fx, only=[o.id for o in offers])
    return {o.id: for_offer(NONE, o, on, verifier.findings(o)) for o in offers}


def offer_caveats(db: Database, e: Evaluation, on: date, scenario: str | None = None) -> Caveats:
    """One offer's caveats (``calc rent-vs-buy --offer``): its own and its findings (``offers_caveats``)."""
    from quotetui.services.economics import resolve_context

    _, fx, _ = resolve_context(db, scenario, on)
    return with_offer(e.caveats, offers_caveats(db, [e.offer], e.currency, on, fx)[e.offer.id])
