"""Requests for quotation (issue 17): write a requirement down once (``rfq new``), list and show it with where
each invited provider stands and which offers on record meet it (``rfq list``, ``rfq show``), and mark a
provider's decline (``rfq decline``). Both front ends save through these functions; a bad value saves nothing.

A requirement's GPU models are stored as catalog keys (any name or alias is accepted and resolved); its
acceptance checklist as the checklist's item names. The compliance of an offer is the domain's
(``domain/sourcing/requirement.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.inputs import OfferInput, lapsed
from quotetui.domain.entities import REQUIREMENT
from quotetui.domain.enums import AcceptanceCheck, InviteState, OfferStatus
from quotetui.domain.errors import BadInput, Conflict, FieldErrors, QuotetuiError
from quotetui.domain.fields import parse_record
from quotetui.domain.fx import FxTable
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.sourcing.requirement import Met, Requirement, Verdict, compliance
from quotetui.domain.text import name_key, shell_word
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import labelled, listed, quoted
from quotetui.services.rfq_views import (
    Figures,
    InviteView,
    OfferFit,
    RfqView,
    invite_view,
    named,
    no_rfq,
    plain_invites,
    plain_loaded,
    requirement_of,
)
from quotetui.store.engine import Database
from quotetui.store.reader import one_reading, reading, session_reader

if TYPE_CHECKING:
    from sqlmodel import Session

    from quotetui.services.form_spec import FormSpec
    from quotetui.store.models import Provider, Rfq
    from quotetui.store.reader import Reader


def _checked(session: Session, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The typed values, GPU names resolved to catalog keys and checklist items to their names; every problem
    at once, named by field (a share typed as text is a percentage: a form's or a flag's "99.5")."""
    from quotetui.store.catalog import load_catalog

    errors: dict[str, str] = {}
    try:
        values = parse_record(REQUIREMENT, raw)
    except FieldErrors as exc:
        values, errors = {}, dict(exc.errors)
    if "gpu_models" in values:
        catalog, _gpus = load_catalog(session)
        keys: list[str] = []
        for name in values["gpu_models"]:
            try:
                key = catalog.lookup(name).key
            except QuotetuiError as exc:
                errors["gpu_models"] = str(exc)
                break
            if key not in keys:
                keys.append(key)
        values["gpu_models"] = keys
        if not keys and "gpu_models" not in errors:
            errors["gpu_models"] = _("name at least one GPU model (any name or alias)")
    if "checklist" in values:
        items: list[str] = []
        for item in values["checklist"]:
            try:
                items.append(AcceptanceCheck.parse(item, what=N_("acceptance item")).value)
            except QuotetuiError as exc:
                errors["checklist"] = str(exc)
                break
        values["checklist"] = list(dict.fromkeys(items))
    if errors:
        raise FieldErrors(errors)
    return values


_COLUMNS = ("gpu_models", "gpus", "months", "start", "respond_by", "deliver_by", "min_availability", "intra_fabric",
            "inter_fabric", "job_gpus", "region", "checklist", "currency", "notes")  # fmt: skip
"""The requirement's columns a user gives (the name is the RFQ's key; the revision is quotetui's)."""


def new_rfq(db: Database, raw: Mapping[str, Any]) -> RfqView:
    """Write a requirement down (revision 1); its name is unique (compared as names are: case, width)."""
    from quotetui.store.catalog import load_catalog
    from quotetui.store.models import Rfq

    with db.write() as session:
        values = _checked(session, raw)
        twin = _by_name(session, values["name"])
        if twin is not None:
            raise FieldErrors({"name": _("an RFQ named {name} already exists").format(name=quoted(twin.name))})
        row = Rfq(name=values["name"], **{c: values[c] for c in _COLUMNS})
        session.add(row)
        session.flush()
        catalog, _gpus = load_catalog(session)
        assert row.id is not None
        return RfqView(row.id, requirement_of(row, catalog))


def edit_rfq(db: Database, name: str, changes: Mapping[str, Any], *, revision: int | None = None) -> RfqView:
    """Change the requirement (the values given; the others as they are), checked whole as a new one is; a
    change is a new revision, so answers to the revision sent before are refused. ``revision``: the one the
    changes were made against (a form's); another program's edit since then refuses them (:class:`Conflict`)."""
    if not changes:
        raise BadInput(_("give at least one value to change (`quotetui rfq edit --help` lists them)"))
    with db.write() as session:
        row, catalog, req = _loaded(session, name)
        if revision is not None and row.revision != revision:
            raise Conflict(
                _(
                    "RFQ {name} was changed elsewhere since this form was filled (revision {revision}, now {now}); "
                    "nothing was saved"
                ).format(name=quoted(row.name), revision=revision, now=row.revision)
            )
        raw = {c: getattr(row, c) for c in _COLUMNS} | {
            "name": row.name,
            "gpu_models": ", ".join(g.name for g in req.gpu_models),
            "checklist": ", ".join(row.checklist),
        }
        values = _checked(session, raw | dict(changes))
        changed = {c: values[c] for c in _COLUMNS if values[c] != getattr(row, c)}
        if not changed:
            raise BadInput(
                _("RFQ {name} already says that: nothing changed (still revision {revision})").format(
                    name=quoted(row.name), revision=row.revision
                )
            )
        for column, value in changed.items():
            setattr(row, column, value)
        row.revision += 1
        session.add(row)
        session.flush()
        assert row.id is not None
        invites = plain_invites(session_reader(session), [row], utcnow().date())[row.id]
        return RfqView(row.id, requirement_of(row, catalog), invites)


def requirement_form(db: Database, name: str | None = None) -> FormSpec:
    """The requirement's form: empty (with the defaults) for a new RFQ, or ``name``'s as stored (models and
    checklist items as names, shares as percentages; all but the name) with its revision as the version a
    save checks (:func:`edit_rfq`'s ``revision``). A choice that asks for nothing ("unknown") is not offered."""
    from quotetui.domain.entities import NOT_A_REQUIREMENT
    from quotetui.domain.fields import shown_value
    from quotetui.services.form_spec import FormSpec, choices_of

    fields = REQUIREMENT.fields if name is None else tuple(f for f in REQUIREMENT.fields if f.name != "name")
    options = {f.name: tuple(c for c in choices_of(f) if c[1] not in NOT_A_REQUIREMENT) for f in fields if f.choices}
    if name is None:
        defaults = {f.name: f.default for f in fields if f.default is not None}
        return FormSpec(_("New RFQ"), fields, defaults, options, REQUIREMENT)
    with db.session() as session:
        row, _catalog, req = _loaded(session, name)
        values = {f.name: shown_value(f, getattr(row, f.name), percent=True) for f in fields}
    values["gpu_models"] = ", ".join(g.name for g in req.gpu_models)
    title = _("Edit RFQ {name} (revision {revision}; a change is a new revision)").format(
        name=row.name, revision=row.revision
    )
    return FormSpec(title, fields, values, options, REQUIREMENT, version=row.revision)


def _by_name(session: Session, name: str) -> Rfq | None:
    from sqlmodel import select

    from quotetui.store.models import Rfq

    return named(session.exec(select(Rfq)), name)


def _loaded(session: Session, name: str) -> tuple[Rfq, GpuCatalog, Requirement]:
    """The RFQ called ``name``, the catalog, and its requirement as the domain reads it."""
    from quotetui.store.catalog import load_catalog

    row = find_rfq(session, name)
    catalog, _gpus = load_catalog(session)
    return row, catalog, requirement_of(row, catalog)


def find_rfq(session: Session, name: str) -> Rfq:
    from sqlmodel import col, select

    from quotetui.store.models import Rfq

    row = _by_name(session, name)
    if row is None:
        raise no_rfq(name, session.exec(select(Rfq.name).order_by(col(Rfq.id))))
    return row


@one_reading
def show_rfq(db: Database, name: str, on: date | None = None) -> RfqView:
    """The requirement, where each invitation stands, and every offer on record of an acceptable GPU model
    with its verdict on each line and its figures from the exact engine for the whole need: the answers
    first, then the compliant ones by rank (cost per delivered PFLOP-hour), then the others by offer id."""
    return _read(db, name, on, costed=True).view


@dataclass(frozen=True, slots=True)
class Fitted:
    """An RFQ read without figures (:func:`fit_rfq`), with what its offers were read with, for the award."""

    view: RfqView
    inputs: dict[int, OfferInput]  # each listed offer's engine inputs, by offer id
    fx: FxTable
    assumptions: Assumptions


@one_reading
def fit_rfq(db: Database, name: str, on: date | None = None) -> Fitted:
    """As :func:`show_rfq` without the figures (no engine, claims audit or verification): which offers meet
    the requirement, for the award, which costs its candidates itself."""
    return _read(db, name, on, costed=False)


def _read(db: Database, name: str, on: date | None, *, costed: bool) -> Fitted:
    from quotetui.services.engine_inputs import (
        fx_day,
        fx_table_of,
        id_filter,
        load_assumptions_of,
        load_catalog_of,
        offer_inputs,
    )

    today = on or utcnow().date()
    with reading(db) as reader:
        row, _catalog, req = plain_loaded(reader, name)
        invites = plain_invites(reader, [row], today)[row.id]
        answered = _answered(reader, row)
        models = {g.key for g in req.gpu_models}
        _catalog, gpus = load_catalog_of(reader)
        acceptable = [gid for gid, spec in gpus.items() if spec.key in models]  # the requirement's models, in SQL
        where, params = id_filter("gpu_model_id", acceptable, reader.sqlite)
        wanted = {r[0] for r in reader.rows("SELECT id FROM offer WHERE " + where, params)} | set(answered)
        offers = offer_inputs(reader, gpus, sorted(wanted), history=False)
        fx, assumptions = fx_table_of(reader, fx_day(today)), load_assumptions_of(reader)
    listed = [o for o in offers if o.gpu.key in models or o.id in answered]
    if costed:
        judged = _judged(db, req, listed, today, fx, assumptions)
        fits = [_fit(req, o, o.id in answered, *judged.get(o.id, (None, _("not costed"))), today) for o in listed]
    else:
        fits = [_fit(req, o, o.id in answered, None, None, today) for o in listed]
    ranked = sorted((f for f in fits if f.compliant and f.figures is not None and f.closed is None), key=_by_cost)
    places = {f.offer_id: n for n, f in enumerate(ranked, 1)}
    fits = [replace(f, rank=places.get(f.offer_id)) for f in fits]
    fits.sort(key=lambda f: (not f.answered, f.rank is None, f.rank or 0, not f.compliant, f.offer_id))
    assert row.id is not None
    return Fitted(RfqView(row.id, req, invites, tuple(fits), compared=True), {o.id: o for o in listed}, fx, assumptions)


def _by_cost(f: OfferFit) -> tuple[Fraction, int]:
    assert f.figures is not None
    return f.figures.cost_per_pflop_hour, f.offer_id


def _judged(
    db: Database, req: Requirement, offers: list[OfferInput], day: date, fx: FxTable, assumptions: Assumptions
) -> dict[int, tuple[Figures | None, str | None]]:
    """Each offer's figures for the whole need (or why it has none), with its claims and findings."""
    from quotetui.domain.economics.caveats import for_offer
    from quotetui.domain.economics.evaluate import NOT_COMPARABLE, evaluate
    from quotetui.domain.economics.inputs import ScenarioInput
    from quotetui.services.claims import audit_claims
    from quotetui.services.verification import load_verifier

    if not offers:
        return {}
    audits = audit_claims(db, [o.id for o in offers])  # the claims about the offers shown, grouped once
    pushed: dict[int, list[str]] = {}
    for a in audits:
        if a.claim.offer_id is not None and a.verdict.value != "plausible":
            pushed.setdefault(a.claim.offer_id, []).append(a.flag)  # JSON: English
    verifier = load_verifier(db, offers, req.currency, day, fx, audits, only=[o.id for o in offers])
    need = ScenarioInput(f"RFQ {req.name}", req.gpus, req.months, Decimal(1), req.currency)
    judged: dict[int, tuple[Figures | None, str | None]] = {}
    for offer in offers:
        try:
            e = evaluate(offer, need, fx, assumptions)
        except NOT_COMPARABLE as exc:
            judged[offer.id] = (None, str(exc))
            continue
        claims = tuple(pushed.get(offer.id, ()))
        found = verifier.findings(offer)
        findings = tuple(labelled(f"{f.severity.word} {f.code.word}", f.title) for f in found)  # the severity's word
        caveats = for_offer(e.caveats, offer, day, found)
        figures = Figures(
            e.price_per_gpu_hour, e.cost_per_pflop_hour, e.best.total, e.annualised_tco, caveats, claims, findings
        )
        judged[offer.id] = (figures, None)
    return judged


CLOSED = (OfferStatus.REJECTED, OfferStatus.EXPIRED)
"""Offers off the table: shown in the comparison, never ranked or awarded."""
QUOTE_LINE = N_("Quote")
"""The line a doubt about the quote itself is asked under (shown through ``_()``)."""
NOT_QUOTED = {
    OfferStatus.DRAFT: N_("a draft, not quoted yet: ask for their quote"),
    OfferStatus.REQUESTED: N_("quote requested, not received: ask for their quote"),
}
"""Offers whose figures are ours, not the provider's: a question before an award, like a ? line (what to ask,
shown through ``_()``)."""


def _fit(
    req: Requirement,
    offer: OfferInput,
    answered: bool,
    figures: Figures | None,
    problem: str | None,
    day: date,
) -> OfferFit:
    verdicts = compliance(req, offer)
    closed = offer.status.value if offer.status in CLOSED else None
    doubts = []
    line = _(QUOTE_LINE)
    if lapsed(offer, day):
        assert offer.valid_until is not None
        why = _("lapsed on {day}: ask to renew it").format(day=day_text(offer.valid_until))
        doubts.append(Verdict(line, Met.UNKNOWN, why))
    if offer.is_estimate or offer.round_is_estimate or any(o.is_estimate for o in offer.options):
        doubts.append(Verdict(line, Met.UNKNOWN, _("the figures are estimates: ask for a firm quote")))
    if offer.status in NOT_QUOTED:
        doubts.append(Verdict(line, Met.UNKNOWN, _(NOT_QUOTED[offer.status])))
    return OfferFit(
        offer.id, offer.provider, offer.name, verdicts, req.currency, answered, figures, problem,
        closed=closed, doubts=tuple(doubts),
    )  # fmt: skip


def _answered(reader: Reader, row: Any) -> set[int]:
    """The offers the answers to ``row``'s current revision came with."""
    from quotetui.store.reader import stored_json

    found = reader.rows(
        "SELECT offers FROM rfq_answer WHERE rfq_id = :r AND revision = :v", {"r": row.id, "v": row.revision}
    )
    return {int(offer_id) for (offers,) in found for offer_id in stored_json(offers)}


def decline(db: Database, name: str, provider: str, note: str | None = None) -> InviteView:
    """Record that ``provider`` declined the RFQ it was sent (``DECLINE``'s checks: a note is text, bounded)."""
    from sqlmodel import col, select

    from quotetui.domain.entities import DECLINE
    from quotetui.store.models import Provider, RfqInvite

    values = parse_record(DECLINE, {"provider": provider, "note": note or ""})
    provider, note = values["provider"], values["note"]
    with db.write() as session:
        row = find_rfq(session, name)
        key = name_key(provider)
        found = [
            (invite, pname)
            for invite, pname in session.exec(
                select(RfqInvite, Provider.name)
                .join(Provider, col(Provider.id) == col(RfqInvite.provider_id))
                .where(RfqInvite.rfq_id == row.id)
            )
            if name_key(pname) == key
        ]
        if not found:
            raise BadInput(
                _("RFQ {name} was not sent to {provider}; `quotetui rfq show {rfq}` lists whom").format(
                    name=quoted(row.name), provider=quoted(provider), rfq=shell_word(row.name)
                )
            )
        invite, pname = found[0]
        invite.state = InviteState.DECLINED
        invite.answered_at = utcnow()
        if note is not None:
            invite.note = note
        session.add(invite)
        session.flush()
        return invite_view(invite, pname, row, utcnow().date())


@dataclass(frozen=True, slots=True)
class Sent:
    provider: str
    workbook: Path
    cover: Path
    reference: str = field(default="", repr=False)  # the code on the workbook that ties an answer to this invitation
    answered_at: datetime | None = None  # it had answered this revision already: its answer and state are kept

    def to_json(self) -> dict[str, Any]:
        answered = self.answered_at.isoformat() if self.answered_at else None
        return {"provider": self.provider, "workbook": str(self.workbook), "cover": str(self.cover),
                "answer_kept_from": answered}  # fmt: skip


def send_rfq(
    db: Database, name: str, providers: Sequence[str], out: Path, *, force: bool = False
) -> tuple[RfqView, list[Sent]]:
    """For each provider (by name, as recorded), a response workbook and a cover text (Markdown) in ``out``,
    and the invitation recorded as sent at the requirement's current revision. Sending again resends: the state
    goes back to sent, except for a provider that already answered this revision, whose answer and state
    (answered, with the day) are kept. Every name and file is checked before anything is written.

    The invitations are recorded first, in one transaction, then the files written: a workbook on disk always
    carries a reference code the database knows, even when the process is killed in between (SIGKILL runs no
    clean-up; a temporary file it leaves is removed by the next send to that folder). The files are written to
    temporary paths and renamed into place only once all are written, so a file that cannot be written (a full
    disk, Ctrl+C) replaces none of those already there, and the invitations are put back as they were."""
    from quotetui.io.rfq_workbook import cover_text, response_file_name, write_response_workbook
    from quotetui.system.atomic import check_target, replacing

    if not providers:
        raise BadInput(_("name at least one provider to send the RFQ to (--provider NAME)"))
    with db.session() as session:
        row, _catalog, req = _loaded(session, name)
        chosen = _providers(session, providers)
    assert row.id is not None
    folder = out.expanduser()
    if folder.exists() and not folder.is_dir():
        raise BadInput(_("{folder} is not a folder; give the folder the files go to (--out DIR)").format(folder=folder))
    folder.mkdir(parents=True, exist_ok=True)
    planned: list[Sent] = []
    for provider in chosen:
        book = check_target(folder / response_file_name(req, provider.name), force=force, suffixes=(".xlsx",))
        cover = check_target(book.with_suffix(".md"), force=force, suffixes=(".md",))
        clash = next((p for p in planned if p.workbook == book), None)
        if clash is not None:  # two names made safe alike ("a/b", "a\\b"): one file would replace the other
            raise BadInput(
                _(
                    "{first} and {second} would both be sent {file}; send them in two folders (two runs with "
                    "different --out). Nothing was sent"
                ).format(first=quoted(clash.provider), second=quoted(provider.name), file=book.name)
            )
        planned.append(Sent(provider.name, book, cover))
    _remove_left_parts(planned)
    ids = [p.id for p in chosen]
    with db.write() as session:  # the references are chosen under the RFQ's row lock: two sends agree on them
        before, references, kept = _record_sent(session, row.id, ids)
    planned = [
        replace(sent, reference=references[pid], answered_at=kept.get(pid))
        for sent, pid in zip(planned, ids, strict=True)
    ]
    try:
        with ExitStack() as stage:  # every file to a temporary path; renamed into place only once all are written
            for sent in planned:
                write_response_workbook(stage.enter_context(replacing(sent.workbook)), req, sent.provider, row.id,
                                        sent.reference)  # fmt: skip
                stage.enter_context(replacing(sent.cover)).write_text(
                    cover_text(req, sent.provider, row.id), encoding="utf-8"
                )
    except BaseException:
        with db.write() as session:  # no file was replaced: the invitations are put back as they were
            _restore(session, row.id, before)
        raise
    with reading(db) as reader:
        invites = plain_invites(reader, [row], utcnow().date())[row.id]
    return RfqView(row.id, req, invites), planned


def _remove_left_parts(planned: Sequence[Sent]) -> None:
    """The temporary files a killed send left beside its targets (``system/atomic.py: left_behind``)."""
    from quotetui.system.atomic import left_behind

    for sent in planned:
        for target in (sent.workbook, sent.cover):
            for part in left_behind(target):
                part.unlink(missing_ok=True)


def _providers(session: Session, names: Sequence[str]) -> list[Provider]:
    from sqlmodel import col, select

    from quotetui.store.models import Provider

    rows = list(session.exec(select(Provider).order_by(col(Provider.id))))
    by_key = {name_key(r.name): r for r in rows}
    chosen: list[Provider] = []
    unknown = []
    for name in names:
        row = by_key.get(name_key(name))
        if row is None:
            unknown.append(name)
        elif row not in chosen:
            chosen.append(row)
    if unknown:
        known = listed(r.name for r in rows) or _("none yet")
        raise BadInput(
            _("no provider named {names} (known: {known}); nothing was sent").format(
                names=listed(map(repr, unknown)), known=known
            )
        )
    return chosen


Saved = dict[int, "tuple[int, datetime, InviteState, datetime | None, str | None, str | None] | None"]


def _record_sent(
    session: Session, rfq_id: int, provider_ids: Sequence[int | None]
) -> tuple[Saved, dict[int, str], dict[int, datetime]]:
    """Each invitation recorded as sent at the requirement's revision, with its reference code (the one it
    already has, else a new one: chosen here, under the RFQ's row lock); one that answered this revision keeps
    its answer and state. Returns what each was before (None: new), each one's reference, and the day each kept
    answer came in."""
    from sqlmodel import select

    from quotetui.store.models import Rfq, RfqInvite

    row = session.get(Rfq, rfq_id, with_for_update=True)
    if row is None:
        raise BadInput(_("the RFQ was deleted meanwhile; nothing was recorded"))
    now = utcnow()
    existing = {i.provider_id: i for i in session.exec(select(RfqInvite).where(RfqInvite.rfq_id == rfq_id))}
    before: Saved = {}
    references: dict[int, str] = {}
    kept: dict[int, datetime] = {}
    for provider_id in provider_ids:
        assert provider_id is not None
        old = existing.get(provider_id)
        before[provider_id] = (
            None if old is None else (old.revision, old.sent_at, old.state, old.answered_at, old.note, old.reference)
        )
        references[provider_id] = (old.reference if old is not None else None) or secrets.token_hex(8)
        if (
            old is not None
            and old.revision == row.revision
            and InviteState.stored(old.state, f"rfq_invite #{old.id}, state") is InviteState.ANSWERED
        ):
            assert old.answered_at is not None
            kept[provider_id] = old.answered_at
            continue
        invite = old or RfqInvite(rfq_id=rfq_id, provider_id=provider_id, revision=row.revision, sent_at=now)
        invite.reference = references[provider_id]
        invite.revision, invite.sent_at, invite.state, invite.answered_at = row.revision, now, InviteState.SENT, None
        session.add(invite)
    session.flush()
    return before, references, kept


def _restore(session: Session, rfq_id: int, before: Saved) -> None:
    """The invitations as they were before a send whose files could not be written."""
    from sqlmodel import select

    from quotetui.store.models import RfqInvite

    existing = {i.provider_id: i for i in session.exec(select(RfqInvite).where(RfqInvite.rfq_id == rfq_id))}
    for provider_id, saved in before.items():
        invite = existing.get(provider_id)
        if invite is None:
            continue
        if saved is None:
            session.delete(invite)
            continue
        invite.revision, invite.sent_at, invite.state, invite.answered_at, invite.note, invite.reference = saved
        session.add(invite)
    session.flush()


__all__ = [
    "Fitted",
    "Sent",
    "decline",
    "edit_rfq",
    "find_rfq",
    "fit_rfq",
    "new_rfq",
    "requirement_form",
    "send_rfq",
    "show_rfq",
]
