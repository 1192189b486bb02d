"""What an RFQ is shown as (``rfq list``, ``rfq status``, ``rfq show``, the award, the sourcing screen): the views
of an RFQ, its invitations and the offers that fit it, and the RFQ's rows read as plain values in one snapshot,
without the ORM or the engine (``services/rfq.py`` writes RFQs and costs the offers that fit them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from quotetui.domain.enums import AcceptanceCheck, InterFabric, IntraFabric, InviteState
from quotetui.domain.errors import BadInput
from quotetui.domain.sourcing.requirement import Met, Requirement, Verdict, compliant
from quotetui.domain.text import name_key
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import listed, quoted
from quotetui.store.reader import reading

if TYPE_CHECKING:
    from fractions import Fraction

    from quotetui.domain.economics.caveats import Caveats
    from quotetui.domain.gpus import GpuCatalog
    from quotetui.store.engine import Database
    from quotetui.store.models import Rfq, RfqInvite
    from quotetui.store.reader import Reader


@dataclass(frozen=True, slots=True)
class InviteView:
    provider: str
    state: str  # sent, answered, declined, or overdue (sent, and the answers were due before today)
    revision: int  # the requirement's revision sent
    sent_at: datetime
    replied_at: datetime | None  # when it was answered, or declined
    outdated: bool  # the requirement changed since it was sent
    note: str | None = None  # what the provider said when declining

    def to_json(self) -> dict[str, Any]:
        replied = self.replied_at.isoformat() if self.replied_at else None
        return {
            "provider": self.provider,
            "state": self.state,
            "revision": self.revision,
            "sent_at": self.sent_at.isoformat(),
            "answered_at": replied if self.state == "answered" else None,
            "declined_at": replied if self.state == "declined" else None,
            "note": self.note,
            "outdated": self.outdated,
        }


@dataclass(frozen=True, slots=True)
class Figures:
    """An offer costed by the exact engine for the whole need (the requirement's GPUs and months, busy every
    hour, in its currency), and what the claims audit and the verification say of it."""

    price_per_gpu_hour: Fraction  # after the discounts that apply: the normalised price
    cost_per_pflop_hour: Fraction  # per delivered PFLOP-hour (peak × MFU × availability)
    term_total: Fraction  # the whole need for the whole term
    annualised_tco: Fraction
    caveats: Caveats  # what qualifies each figure (``caveats.py``): ≥ a cost not priced, ~, ✗ critical, ! lapsed
    claims: tuple[str, ...]  # claims audit verdicts that are not plausible ("optimistic: …")
    findings: tuple[str, ...]  # verification findings ("critical PCIE_AS_SXM: …")

    @property
    def lower_bound(self) -> bool:
        """A cost the need incurs is not priced: each figure is at least this."""
        return self.caveats.lower_bound

    def to_json(self, currency: str) -> dict[str, Any]:
        from quotetui.domain.economics.display import amount_text

        return {
            "price_per_gpu_hour": amount_text(self.price_per_gpu_hour, currency),
            "cost_per_pflop_hour": amount_text(self.cost_per_pflop_hour, currency),
            "term_total": amount_text(self.term_total, currency),
            "annualised_tco": amount_text(self.annualised_tco, currency),
            "lower_bound": self.lower_bound,
            "caveats": self.caveats.to_json(),
            "claims": list(self.claims),
            "findings": list(self.findings),
        }


MATRIX_FIGURES: tuple[tuple[str, str], ...] = (
    (N_("price per GPU-hour"), "price_per_gpu_hour"),
    (N_("per delivered PFLOP-hour"), "cost_per_pflop_hour"),
    (N_("whole need, whole term"), "term_total"),
    (N_("TCO a year"), "annualised_tco"),
)
"""The comparison's money rows, in order: (label, ``Figures`` attribute); the CLI and the sheet show these (each
label marked ``N_``: shown through ``_()``)."""
MATRIX_LISTS: tuple[tuple[str, str], ...] = ((N_("claims to push on"), "claims"), (N_("findings"), "findings"))
"""The comparison's rows of what to push on, after the money rows (labels marked ``N_``, as above)."""


@dataclass(frozen=True, slots=True)
class OfferFit:
    """An offer on record against the requirement: every line's verdict."""

    offer_id: int
    provider: str
    offer: str
    verdicts: tuple[Verdict, ...]
    currency: str
    answered: bool = False  # it came in as an answer to this RFQ's current revision (else: on record)
    figures: Figures | None = None  # None: not costed (``fit_rfq``), or it cannot be (``problem`` says why)
    problem: str | None = None
    rank: int | None = None  # compliant, costed and open ones, by cost per delivered PFLOP-hour; others: none
    closed: str | None = None  # "rejected" or "expired": the offer is off the table (never ranked or awarded)
    doubts: tuple[Verdict, ...] = ()  # about the quote itself (lapsed, estimates): questions, as ? lines are

    @property
    def compliant(self) -> bool:
        return compliant(self.verdicts)

    @property
    def questions(self) -> tuple[Verdict, ...]:
        """The lines that cannot be told from what is on record (?), and the doubts about the quote itself:
        questions to the provider, not a yes."""
        return tuple(v for v in self.verdicts if v.met is Met.UNKNOWN) + self.doubts

    @property
    def confirmed(self) -> bool:
        """Every line met (✓) on a firm, current quote: an offer that can be awarded without asking first."""
        return self.compliant and not self.questions and self.closed is None

    def to_json(self) -> dict[str, Any]:
        return {
            "offer_id": self.offer_id,
            "provider": self.provider,
            "offer": self.offer,
            "compliant": self.compliant,
            "confirmed": self.confirmed,
            "closed": self.closed,
            "quote_questions": [{"line": v.line, "why": v.why} for v in self.doubts],
            "answered": self.answered,
            "rank": self.rank,
            "figures": None if self.figures is None else self.figures.to_json(self.currency),
            "problem": self.problem,
            "lines": [{"line": v.line, "met": v.met.value, "why": v.why} for v in self.verdicts],
        }


SHOWN_STATES = ("sent", "answered", "overdue", "declined")
"""The invitation states as counted for people, in this order (overdue: sent, and the answers were due)."""
STATE_WORDS = {"sent": N_("sent"), "answered": N_("answered"), "overdue": N_("overdue"), "declined": N_("declined")}
"""Each state's word for people (the state itself is a code: JSON and the code compare it)."""
_COUNTED = {"sent": N_("{n} sent"), "answered": N_("{n} answered"), "overdue": N_("{n} overdue"),
            "declined": N_("{n} declined")}  # fmt: skip
"""How a count of invitations in a state reads ("2 sent")."""


def state_word(state: str) -> str:
    """An invitation's state in the language in use (a state not declared here: its code)."""
    return _(STATE_WORDS[state]) if state in STATE_WORDS else state


@dataclass(frozen=True, slots=True)
class RfqView:
    id: int
    requirement: Requirement
    invites: tuple[InviteView, ...] = ()
    offers: tuple[OfferFit, ...] = ()  # offers on record of an acceptable GPU model (``show`` only)
    compared: bool = False  # ``offers`` were read (``show_rfq``, ``fit_rfq``): else JSON leaves them out

    def invitations_text(self) -> str:
        """Where the invitations stand, as counts in a fixed order: "2 sent, 1 answered, 1 overdue"."""
        counts = dict.fromkeys(SHOWN_STATES, 0)
        for invite in self.invites:
            counts[invite.state] = counts.get(invite.state, 0) + 1
        shown = [
            _(_COUNTED[state]).format(n=n) if state in _COUNTED else f"{n} {state}" for state, n in counts.items() if n
        ]
        return listed(shown) or _("not sent")

    def due_text(self) -> str:
        due = self.requirement.respond_by
        return _("answers due {day}").format(day=day_text(due)) if due else _("no answers-due day")

    def to_json(self) -> dict[str, Any]:
        r = self.requirement
        return {
            "id": self.id,
            "name": r.name,
            "revision": r.revision,
            "gpu_models": [g.name for g in r.gpu_models],
            "gpus": r.gpus,
            "months": r.months,
            "start": r.start.isoformat(),
            "respond_by": r.respond_by.isoformat() if r.respond_by else None,
            "deliver_by": r.deliver_by.isoformat() if r.deliver_by else None,
            "min_availability": None if r.min_availability is None else str(r.min_availability.normalize()),
            "intra_fabric": r.intra_fabric.value if r.intra_fabric else None,
            "inter_fabric": r.inter_fabric.value if r.inter_fabric else None,
            "job_gpus": r.job_gpus,
            "region": r.region,
            "checklist": [c.value for c in r.checklist],
            "currency": r.currency,
            "notes": r.notes,
            "invites": [i.to_json() for i in self.invites],
        } | ({"offers": [o.to_json() for o in self.offers]} if self.compared else {})


def requirement_of(row: Rfq, catalog: GpuCatalog) -> Requirement:
    """The stored requirement as the domain reads it (models by catalog key, checklist items by name)."""
    return Requirement(
        name=row.name,
        gpu_models=tuple(catalog.lookup(key) for key in row.gpu_models),
        gpus=row.gpus,
        months=row.months,
        start=row.start,
        respond_by=row.respond_by,
        deliver_by=row.deliver_by,
        min_availability=row.min_availability,
        intra_fabric=IntraFabric.stored(row.intra_fabric, f"rfq {row.name!r}, intra_fabric")
        if row.intra_fabric
        else None,
        inter_fabric=InterFabric.stored(row.inter_fabric, f"rfq {row.name!r}, inter_fabric")
        if row.inter_fabric
        else None,
        job_gpus=row.job_gpus,
        region=row.region,
        checklist=tuple(AcceptanceCheck.stored(c, f"rfq {row.name!r}, checklist") for c in row.checklist),
        currency=row.currency,
        notes=row.notes,
        revision=row.revision,
    )


class _HasName(Protocol):
    name: str


R = TypeVar("R", bound=_HasName)


def named(rows: Iterable[R], name: str) -> R | None:
    """The RFQ among ``rows`` that ``name`` names, spelled any way its name key matches (case, width)."""
    key = name_key(name)
    return next((row for row in rows if name_key(row.name) == key), None)


def no_rfq(name: str, known: Iterable[str]) -> BadInput:
    return BadInput(
        _("no RFQ named {name} (known: {known}); `quotetui rfq new NAME …` writes one").format(
            name=quoted(name), known=listed(known) or _("none yet")
        )
    )


def invite_view(invite: RfqInvite, provider: str, row: Rfq, today: date) -> InviteView:
    """Where one invitation stands: overdue when still sent after the answers were due."""
    state = InviteState.stored(invite.state, f"rfq_invite (RFQ {row.name!r} to {provider}), state")
    shown = state.value
    if state is InviteState.SENT and row.respond_by is not None and today > row.respond_by:
        shown = "overdue"
    outdated = invite.revision != row.revision
    return InviteView(provider, shown, invite.revision, invite.sent_at, invite.answered_at, outdated, invite.note)


RFQ_COLUMNS = (
    "id, name, revision, gpu_models, gpus, months, start, respond_by, deliver_by, min_availability, intra_fabric, "
    "inter_fabric, job_gpus, region, checklist, currency, notes"
)
INVITE_COLUMNS = "i.rfq_id, p.name, i.revision, i.sent_at, i.state, i.answered_at, i.note"


def plain_rfqs(reader: Reader) -> list[Any]:
    """Every RFQ as plain values (attributes named as the model's columns), by id: what the read commands
    need, read without the ORM (on SQLite through the stdlib)."""
    from types import SimpleNamespace

    from quotetui.store.reader import stored_json

    out = []
    for r in reader.rows(f"SELECT {RFQ_COLUMNS} FROM rfq ORDER BY id"):
        row = SimpleNamespace(**dict(zip(RFQ_COLUMNS.split(", "), r, strict=True)))
        row.gpu_models, row.checklist = stored_json(row.gpu_models), stored_json(row.checklist)
        row.start, row.respond_by, row.deliver_by = map(reader.day, (row.start, row.respond_by, row.deliver_by))
        row.min_availability = reader.money(row.min_availability, 6)
        out.append(row)
    return out


def plain_invites(reader: Reader, rows: list[Any], today: date) -> dict[int, tuple[InviteView, ...]]:
    """Where each RFQ's invitations stand, by RFQ id (providers by name)."""
    from types import SimpleNamespace

    by_id = {row.id: row for row in rows}
    found: dict[int, list[InviteView]] = {row.id: [] for row in rows}
    sql = f"SELECT {INVITE_COLUMNS} FROM rfq_invite i JOIN provider p ON p.id = i.provider_id ORDER BY p.name"
    for rfq_id, provider, revision, sent_at, state, answered_at, note in reader.rows(sql):
        if rfq_id in by_id:
            invite = SimpleNamespace(
                revision=revision, sent_at=reader.when(sent_at), state=state, answered_at=reader.when(answered_at),
                note=note,
            )  # fmt: skip
            found[rfq_id].append(invite_view(invite, provider, by_id[rfq_id], today))  # type: ignore[arg-type]
    return {k: tuple(v) for k, v in found.items()}


def plain_loaded(reader: Reader, name: str) -> tuple[Any, GpuCatalog, Requirement]:
    """As ``rfq._loaded`` (through the ORM), read as plain rows: the RFQ called ``name`` (any spelling its name
    key matches), the catalog, and its requirement."""
    from quotetui.store.catalog import load_catalog_of

    rows = plain_rfqs(reader)
    row = named(rows, name)
    if row is None:
        raise no_rfq(name, (r.name for r in rows))
    catalog, _ = load_catalog_of(reader)
    return row, catalog, requirement_of(row, catalog)


def list_rfqs(db: Database, on: date | None = None) -> list[RfqView]:
    """Every RFQ with where its invitations stand, read as plain rows in one snapshot (on SQLite without
    SQLAlchemy: ``rfq list`` starts like a small script)."""
    from quotetui.store.catalog import load_catalog_of

    today = on or utcnow().date()
    with reading(db) as reader:
        catalog, _ = load_catalog_of(reader)
        rows = plain_rfqs(reader)
        invites = plain_invites(reader, rows, today)
    return [RfqView(row.id, requirement_of(row, catalog), invites[row.id]) for row in rows]


def rfq_status(db: Database, name: str, on: date | None = None) -> RfqView:
    """The requirement and where each invitation stands (sent, answered, declined, overdue), without the
    offers: what ``rfq status`` shows."""
    with reading(db) as reader:
        row, _, req = plain_loaded(reader, name)
        return RfqView(row.id, req, plain_invites(reader, [row], on or utcnow().date())[row.id])


__all__ = [
    "INVITE_COLUMNS",
    "MATRIX_FIGURES",
    "MATRIX_LISTS",
    "RFQ_COLUMNS",
    "SHOWN_STATES",
    "STATE_WORDS",
    "Figures",
    "InviteView",
    "OfferFit",
    "RfqView",
    "invite_view",
    "list_rfqs",
    "named",
    "no_rfq",
    "plain_invites",
    "plain_loaded",
    "plain_rfqs",
    "requirement_of",
    "rfq_status",
    "state_word",
]
