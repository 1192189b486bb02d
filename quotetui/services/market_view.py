"""Everything the TUI's market screens show for the active scenario, computed once per load.

The figures come from the economics engine (`rank_offers`) and the claims audit; this module only
groups them: rows for the offers table, the dashboard's summaries, the contracts and their key dates.

A load has two steps, so that the offers table shows as soon as the offers are ranked:
:func:`load_offers_view` ranks the offers (a view with ``cards_ready`` False: no claims, findings, logs,
market medians or contracts yet), then :func:`complete_market_view` adds what the dashboard's cards need.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING

from quotetui.domain.contracts.dates import KeyDate
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats, with_findings
from quotetui.domain.economics.claims import Audit, Verdict
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.inputs import OPEN_STATUSES, OfferInput, ScenarioInput, lapsed
from quotetui.domain.enums import OfferStatus, Provenance, Tone
from quotetui.domain.fx import FxTable
from quotetui.domain.timeutil import utcnow
from quotetui.domain.verification.findings import Finding, Severity
from quotetui.language import N_, NP_, _, ngettext
from quotetui.language.lists import quoted
from quotetui.services.economics import rank_offers
from quotetui.services.ranking import Ranking
from quotetui.store.engine import Database, one_snapshot

if TYPE_CHECKING:
    from quotetui.services.contract_view import ContractView

EXPIRING_DAYS = 14
DEADLINE_DAYS = 90


VERIFICATION_WORDS = {
    "verified": NP_("verification", "verified"),
    "claimed": NP_("verification", "claimed"),
    "none": NP_("verification", "none"),
}
"""An offer's verification (:attr:`OfferRow.verification`, a code its JSON keeps) as people read it."""


@dataclass(frozen=True, slots=True)
class OfferRow:
    offer: OfferInput
    evaluation: Evaluation | None  # None: not comparable (see ``problem``)
    rank: int | None
    problem: str | None = None
    claims: tuple[Audit, ...] = ()
    findings: tuple[Finding, ...] = ()
    logs: int = 0  # raw logs on record
    lapsed: bool = False  # an open quote whose valid-until day has passed (as of the view's day)

    @property
    def verification(self) -> str:
        """verified (evidence on record), claimed (only the provider's word), or none."""
        if self.logs or any(e.provenance is Provenance.VERIFIED for e in self.offer.evidence):
            return "verified"
        return "claimed" if self.claims else "none"

    @property
    def verification_word(self) -> str:
        """:attr:`verification` as people read it, in the language in use (the code itself in English)."""
        return _(VERIFICATION_WORDS[self.verification])

    @property
    def flags(self) -> list[str]:
        """The offer's caveats as every front end says them (``Caveats.flags``: ``✗ 2× 宣称不可信``,
        ``! 3× 宣称不可信``, ``~ 估算``, ``! 已于 … 过期``), in the language in use. Why an offer cannot run the
        scenario is not among them: that is its feasibility (``Feasibility.note``)."""
        return self.caveats.flags()

    @property
    def critical(self) -> bool:
        return any(f.severity is Severity.CRITICAL for f in self.findings)

    @property
    def flags_tone(self) -> Tone:
        """How the flags read (:attr:`flags`, not counting ``~ estimate``): an error with a
        critical finding or an impossible claim, a warning with a warning's finding, an optimistic claim or a
        lapsed quote, else plain."""
        verdicts = {a.verdict for a in self.claims}
        if self.critical or Verdict.IMPOSSIBLE in verdicts:
            return Tone.ERROR
        warned = any(f.severity is Severity.WARNING for f in self.findings)
        if warned or Verdict.OPTIMISTIC in verdicts or (self.lapsed and self.offer.valid_until is not None):
            return Tone.WARNING
        return Tone.PLAIN

    @property
    def caveats(self) -> Caveats:
        """What qualifies this offer's figures (``caveats.py``): the evaluation's own, its findings (once the
        findings are computed) and a lapsed quote."""
        base = self.evaluation.caveats if self.evaluation is not None else NO_CAVEATS
        lapsed = self.offer.valid_until if self.lapsed else None
        return with_findings(replace(base, lapsed=lapsed), self.findings)


@dataclass(frozen=True, slots=True)
class BestForGpu:
    gpu: str
    cheapest_hour: Evaluation
    cheapest_compute: Evaluation
    market_median: Fraction | None = None  # per GPU-hour in public cloud catalogs, scenario currency


@dataclass(frozen=True, slots=True)
class Expiring:
    offer: OfferInput
    valid_until: date
    days_left: int


@dataclass(slots=True)
class MarketView:
    scenario: ScenarioInput
    on: date
    rows: list[OfferRow]
    audits: list[Audit]
    findings: list[tuple[OfferInput, Finding]] = field(default_factory=list)  # every offer's, worst first
    status_counts: list[tuple[str, int]] = field(default_factory=list)
    best_by_gpu: list[BestForGpu] = field(default_factory=list)
    expiring: list[Expiring] = field(default_factory=list)
    contracts: list[ContractView] = field(default_factory=list)
    due: dict[str, list[KeyDate]] = field(default_factory=dict)  # overdue, within 30 days, within 31-90 days
    fx: FxTable | None = None
    assumptions: Assumptions = field(default_factory=Assumptions)  # the ones the figures used
    data_version: int = 0  # the database's data version this view was read at (a later write changes it)
    cards_ready: bool = True  # False: only the offers are ranked; claims, findings and contracts are still coming
    cards_failed: str | None = None  # why the claims, findings and contracts could not be computed
    ranking: Ranking | None = field(default=None, repr=False)  # what the second step starts from

    @property
    def has_contracts(self) -> bool:
        return bool(self.contracts)

    @property
    def red_flags(self) -> list[Audit]:
        """Claims that cannot be true first, then optimistic ones."""
        bad = [a for a in self.audits if a.verdict in (Verdict.IMPOSSIBLE, Verdict.OPTIMISTIC)]
        return sorted(bad, key=lambda a: (a.verdict is not Verdict.IMPOSSIBLE, a.claim.id))

    def row(self, offer_id: int) -> OfferRow | None:
        return next((r for r in self.rows if r.offer.id == offer_id), None)

    def caveats(self, offer_id: int) -> Caveats:
        """An offer's caveats (``OfferRow.caveats``); none for an offer not in the view."""
        found = self.row(offer_id)
        return found.caveats if found is not None else NO_CAVEATS

    @property
    def why_no_best(self) -> str | None:
        """Why "best per GPU model" is empty (None when it is not): no offers, none comparable, none open,
        or none the scenario can run on (with the commonest reason)."""
        if self.best_by_gpu:
            return None
        if not self.rows:
            return _("no offers recorded yet: n in the offers table adds one, Ctrl+O imports a workbook")
        evaluated = [r.evaluation for r in self.rows if r.evaluation is not None]
        if not evaluated:
            n = len(self.rows)
            return ngettext(
                "none of the {n} offer can be compared (see the offers table's Flags)",
                "none of the {n} offers can be compared (see the offers table's Flags)",
                n,
            ).format(n=f"{n:,}")
        open_ones = [e for e in evaluated if e.offer.status in OPEN_STATUSES]
        if not open_ones:
            n = len(evaluated)
            return ngettext(
                "none of the {n} offer is open (all accepted, rejected or expired)",
                "none of the {n} offers is open (all accepted, rejected or expired)",
                n,
            ).format(n=f"{n:,}")
        reasons = Counter(b for e in open_ones for b in e.feasibility.blocking)
        commonest, blocked = reasons.most_common(1)[0]
        n = len(open_ones)
        return ngettext(
            "none of the {n} open offer can run scenario {scenario}; {blocked} of them because {reason}",
            "none of the {n} open offers can run scenario {scenario}; {blocked} of them because {reason}",
            n,
        ).format(n=f"{n:,}", scenario=quoted(self.scenario.name), blocked=blocked, reason=commonest)

    @property
    def evaluations(self) -> list[Evaluation]:
        return [r.evaluation for r in self.rows if r.evaluation is not None]


def load_offers_view(db: Database, scenario: str | None = None, on: date | None = None) -> MarketView:
    """The ranked offers, their status counts, best per GPU model and expiring quotes; the rows have no
    claims, findings or logs yet and the view has no contracts (``cards_ready`` is False). One snapshot: the
    ranking's own (on SQLite without SQLAlchemy); the view's data version is the one the ranking read."""
    ranking = rank_offers(db, scenario, on=on, history=False)  # rounds are loaded per offer, when opened
    version = ranking.data_version
    day = ranking.on
    rows = [OfferRow(e.offer, e, i, None, lapsed=lapsed(e.offer, day)) for i, e in ranking.ranked]
    rows += [OfferRow(o, None, None, why, lapsed=lapsed(o, day)) for o, why in ranking.skipped]
    view = MarketView(
        ranking.scenario,
        day,
        rows,
        [],
        fx=ranking.fx,
        assumptions=ranking.assumptions,
        data_version=version,
        cards_ready=False,
        ranking=ranking,
    )
    _summarise(view, ranking.evaluations, {})
    return view


@dataclass(frozen=True, slots=True)
class CardsStep:
    """A step of the dashboard's cards, as the TUI titles it while it runs and where it failed (marked N_)."""

    doing: str
    failed: str


CLAIMS_STEP = CardsStep(N_("Checking claims and findings"), N_("Checking claims and findings failed"))
MEDIANS_STEP = CardsStep(N_("Computing the market medians"), N_("Computing the market medians failed"))
CONTRACTS_STEP = CardsStep(N_("Loading the contracts"), N_("Loading the contracts failed"))


class CardsFailed(Exception):
    """A step of :func:`complete_market_view` failed: ``step`` says which, ``cause`` why (a bad contract row is
    the contracts' read, not the claims' check)."""

    def __init__(self, step: CardsStep, cause: Exception) -> None:
        super().__init__(str(cause))
        self.step, self.cause = step, cause


@contextmanager
def _step(step: CardsStep) -> Iterator[None]:
    try:
        yield
    except Exception as exc:  # Cancelled is not one: a load given up stays given up
        raise CardsFailed(step, exc) from exc


@one_snapshot
def complete_market_view(db: Database, first: MarketView) -> MarketView:
    """``first`` (from :func:`load_offers_view`) with the claims audit, the verification findings, the logs
    on record, the market medians and the contracts: a new view with ``cards_ready``; ``first`` is left as it
    was (a screen may be drawing it). A step that fails raises :class:`CardsFailed` naming it."""
    from quotetui.domain.cancel import check_cancelled
    from quotetui.services.market_prices import market_medians  # the cards' modules: not on the first rows' path

    with _step(CLAIMS_STEP):
        view = _checked_view(db, first)
    with _step(MEDIANS_STEP):
        ranking = first.ranking
        assert ranking is not None, "a view from load_offers_view"
        medians, _sources = market_medians(db, ranking.scenario.home_currency, ranking.on, ranking.fx)
        check_cancelled()
        _summarise(view, ranking.evaluations, {m.gpu: m.median_gpu_hour for m in medians})
    with _step(CONTRACTS_STEP):
        _contracts(db, view)
    return view


def _checked_view(db: Database, first: MarketView) -> MarketView:
    """``first``'s rows with their claims' audits, findings and logs on record, and the market's findings."""
    from quotetui.domain.cancel import check_cancelled
    from quotetui.services.claims import audit_claims  # the cards' modules: not on the first rows' path
    from quotetui.services.verification import market_findings

    ranking = first.ranking
    assert ranking is not None, "a view from load_offers_view"
    audits = audit_claims(db)
    check_cancelled()  # each step of the cards is long at 100,000 offers: the TUI quit meanwhile stops here
    by_offer: dict[int, list[Audit]] = defaultdict(list)
    for a in audits:
        if a.claim.offer_id is not None:
            by_offer[a.claim.offer_id].append(a)
    verifier, findings = market_findings(db, ranking, audits)
    check_cancelled()

    def row(r: OfferRow) -> OfferRow:
        oid = r.offer.id
        found = tuple(findings.get(oid, ()))
        logs = len(verifier.logs.get(oid, ()))
        return OfferRow(r.offer, r.evaluation, r.rank, r.problem, tuple(by_offer.get(oid, ())), found, logs, r.lapsed)

    rows = [row(r) for r in first.rows]
    view = MarketView(
        first.scenario,
        first.on,
        rows,
        audits,
        fx=first.fx,
        assumptions=first.assumptions,
        data_version=first.data_version,
        ranking=ranking,
    )
    view.findings = sorted(
        ((r.offer, f) for r in rows for f in r.findings),
        key=lambda of: (of[1].severity.order, of[0].id),
    )
    check_cancelled()
    return view


def _summarise(view: MarketView, evaluations: list[Evaluation], medians: dict[str, Fraction]) -> None:
    counts = Counter(r.offer.status.value for r in view.rows)
    view.status_counts = [(s.value, counts[s.value]) for s in OfferStatus if counts[s.value]]
    by_gpu: dict[str, list[Evaluation]] = defaultdict(list)
    for e in evaluations:
        if e.feasibility.ok and e.offer.status in OPEN_STATUSES:
            by_gpu[e.offer.gpu.name].append(e)
    view.best_by_gpu = [
        BestForGpu(
            gpu,
            min(items, key=lambda e: e.price_per_gpu_hour),
            min(items, key=lambda e: e.cost_per_pflop_hour),
            medians.get(gpu),
        )
        for gpu, items in sorted(by_gpu.items())
    ]
    horizon = view.on + timedelta(days=EXPIRING_DAYS)
    view.expiring = sorted(
        (
            Expiring(r.offer, r.offer.valid_until, (r.offer.valid_until - view.on).days)
            for r in view.rows
            if r.offer.valid_until is not None
            and r.offer.valid_until <= horizon  # lapsed ones too (days left below 0): still open, no longer valid
            and r.offer.status in OPEN_STATUSES
        ),
        key=lambda x: x.valid_until,
    )


def _contracts(db: Database, view: MarketView) -> None:
    """Every contract with its availability, credits and invoices, and the key dates by urgency."""
    from quotetui.services.contract_view import due, load_contracts

    now = datetime.combine(view.on, utcnow().time(), tzinfo=UTC)
    view.contracts = load_contracts(db, now)
    view.due = due(db, view.on, now, DEADLINE_DAYS, view.contracts)
