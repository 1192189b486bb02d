"""Creating, editing and deleting what the buyer records: providers, offers, rounds, fine print.

Each ``*_form`` returns the form to show (with current values when editing), its fields taken from the
declarations in ``domain/entities.py``; each ``save_*`` validates everything first (``FieldErrors`` names
every bad field, with the same messages as an import) and then writes in one transaction.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlmodel import Session, col, func, select

from quotetui.domain import entities as E
from quotetui.domain import enums as e
from quotetui.domain.economics.rounds import rounds_in_order
from quotetui.domain.errors import BadInput, FieldErrors, QuotetuiError, noun
from quotetui.domain.fields import Entity
from quotetui.domain.text import clean_name, name_key
from quotetui.domain.timeutil import local_text, stamp_now, utcnow
from quotetui.language import N_, _
from quotetui.language.lists import filled, quoted
from quotetui.services.form_defaults import (
    NEW_DISCOUNT_VALUES,
    NEW_EXTRA_VALUES,
    NEW_OFFER_VALUES,
    NEW_PROVIDER_VALUES,
    NEW_ROUND_VALUES,
)
from quotetui.services.form_spec import FormSpec, parse, shown
from quotetui.services.settings import load_assumptions, local_today
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import (
    Contract,
    Discount,
    ExtraCost,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    SlaCreditTier,
    SlaTerm,
)
from quotetui.store.rows import columns_only
from quotetui.store.versions import check_version


def _set(row: Any, values: dict[str, Any]) -> Any:
    """Set the values that are columns of the row; a row whose values all stay the same is left untouched
    (its version and its ``updated_at`` do not move for a save that changed nothing)."""
    changed = False
    for name, value in columns_only(type(row), values).items():
        if getattr(row, name, None) != value:
            setattr(row, name, value)
            changed = True
    if changed and hasattr(row, "updated_at"):
        row.updated_at = utcnow()
    return row


def _parse_all(spec: FormSpec, raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Every field's value and every problem, so checks on references can add theirs before failing."""
    try:
        return parse(spec, raw), {}
    except FieldErrors as exc:
        return {}, dict(exc.errors)


# -- providers -------------------------------------------------------------------------------------------
def provider_form(db: Database, provider_id: int | None = None) -> FormSpec:
    fields = E.PROVIDER.form_fields
    values: dict[str, Any] = dict(NEW_PROVIDER_VALUES)
    if provider_id is not None:
        with db.session() as session:
            row = _get(session, Provider, provider_id, N_("provider"))
            values, version = shown(row, fields), row.version
    title = _("Edit provider") if provider_id else _("New provider")
    return FormSpec(title, fields, values, entity=E.PROVIDER, version=version if provider_id else None)


def save_provider(db: Database, raw: dict[str, Any], provider_id: int | None = None, version: object = None) -> int:
    values = parse(FormSpec("Provider", E.PROVIDER.form_fields, entity=E.PROVIDER), raw)
    with db.write() as session:
        key = name_key(values["name"])
        for other_id, other in session.exec(select(Provider.id, Provider.name)):
            if other_id != provider_id and name_key(other) == key:
                if other == values["name"]:
                    said = _("a provider named {name} already exists").format(name=quoted(values["name"]))
                else:
                    said = _("a provider named {name} already exists (written {other})").format(
                        name=quoted(values["name"]), other=quoted(other)
                    )
                raise FieldErrors({"name": said})
        row = Provider() if provider_id is None else _get(session, Provider, provider_id, N_("provider"), lock=True)
        check_version(N_("provider"), row.version if provider_id else None, version)
        _set(row, values)
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id


# -- offers ----------------------------------------------------------------------------------------------
def _offer_spec(session: Session, new: bool, title: str = "", values: dict[str, Any] | None = None) -> FormSpec:
    entity = E.NEW_OFFER if new else E.OFFER
    providers = tuple((p.name, p.name) for p in session.exec(select(Provider).order_by(col(Provider.name))))
    return FormSpec(title, entity.form_fields, values or {}, {"provider": providers}, entity)


class NoProvider(str):
    """The message of a provider name that names none (the CLI adds where the providers are listed and how to
    add one): told apart by its type, whatever the language it is in."""

    __slots__ = ()


def offer_form(db: Database, offer_id: int | None = None) -> FormSpec:
    with db.session() as session:
        if offer_id is None:
            return _offer_spec(session, True, _("New offer"), dict(NEW_OFFER_VALUES))
        o = _get(session, Offer, offer_id, N_("offer"))
        catalog, ids = load_catalog(session)
        gpu = next(key for key, gid in ids.items() if gid == o.gpu_model_id)
        provider = session.get(Provider, o.provider_id)
        values = shown(o, E.OFFER.form_fields) | {"gpu": catalog.get(gpu).name, "provider": provider.name}
        return replace(_offer_spec(session, False, _("Edit offer"), values), version=o.version)


def contracts_kept(db: Database, offer_id: int) -> list[str]:
    """For each contract on the offer whose snapshot sold something else than the offer now says: that the
    contract keeps what was sold (``acceptance.sold_by``), in words, so an edit never passes for an amendment."""
    with db.session() as session:
        return kept_by_contracts(session, offer_id).get(offer_id, [])


def kept_by_contracts(session: Session, offer_id: int | None = None) -> dict[int, list[str]]:
    """``contracts_kept`` for every offer under contract (or ``offer_id``'s only), in one read (an import says
    what it changed). Only the contracts' snapshots are read: a contract's other columns have no say here (a
    value another program wrote in one is refused where it is used, not after an edit of an offer was saved)."""
    from quotetui.store.models import Contract

    out: dict[int, list[str]] = {}
    _catalog, ids = load_catalog(session)
    keys = {v: k for k, v in ids.items()}
    query = select(Contract.id, Contract.offer_id, Contract.snapshot).order_by(col(Contract.id))
    if offer_id is not None:
        query = query.where(Contract.offer_id == offer_id)
    for contract_id, contract_offer, snapshot in session.exec(query):
        sold = (snapshot or {}).get("sold")
        offer = session.get(Offer, contract_offer)
        if not sold or offer is None:
            continue
        current = (
            keys.get(offer.gpu_model_id),
            offer.gpus_per_node,
            offer.intra_fabric.value,
            offer.inter_fabric.value,
        )
        if current != (sold["gpu"], sold["gpus_per_node"], sold["intra_fabric"], sold["inter_fabric"]):
            out.setdefault(contract_offer, []).append(
                _(
                    "contract #{contract} keeps what was sold ({gpu}, {gpus} GPUs a node, {intra}, {inter}): this "
                    "edit changes the offer, not the contract, and acceptance still judges what was sold "
                    "(`quotetui contracts amend` changes the contract)"
                ).format(
                    contract=contract_id,
                    gpu=sold["gpu_name"],
                    gpus=sold["gpus_per_node"],
                    intra=e.IntraFabric(sold["intra_fabric"]).shown,
                    inter=e.InterFabric(sold["inter_fabric"]).shown,
                )
            )
    return out


def save_offer(db: Database, raw: dict[str, Any], offer_id: int | None = None, version: object = None) -> int:
    with db.session() as session:
        spec = _offer_spec(session, offer_id is None)
        catalog, ids = load_catalog(session)
        providers = {name_key(p.name): (p.id, p.name) for p in session.exec(select(Provider))}
    values, errors = _parse_all(spec, raw)
    gpu_id = provider_id = None
    if "gpu" not in errors:  # the GPU and the provider are checked too, so every problem shows at once
        try:
            gpu_id = ids[catalog.lookup(str(raw.get("gpu"))).key]
        except QuotetuiError as exc:
            errors["gpu"] = str(exc)
    if "provider" not in errors:  # named as everywhere: 'lambda labs' and 'ＬＡＭＢＤＡ Labs' are 'Lambda Labs'
        typed = str(raw.get("provider"))
        provider_id, provider_name = providers.get(name_key(typed), (None, None))
        if provider_id is None:
            errors["provider"] = NoProvider(_("no provider named {name}").format(name=quoted(clean_name(typed))))
    if errors:
        raise FieldErrors(errors)
    values["provider"] = provider_name  # as recorded, not as typed
    spec_gpu = catalog.get(next(k for k, v in ids.items() if v == gpu_id))
    values |= {"provider_id": provider_id, "gpu_model_id": gpu_id}
    E.offer_form_factor(values, spec_gpu.form_factor)
    with db.write() as session:
        siblings = session.exec(select(Offer.id, Offer.name).where(Offer.provider_id == provider_id))
        for other_id, other in siblings:
            if other_id != offer_id and name_key(other) == name_key(values["name"]):
                said = _("{provider} already has an offer named {name}")
                raise FieldErrors({"name": said.format(provider=quoted(values["provider"]), name=quoted(other))})
        if offer_id is None:
            row = Offer(**columns_only(Offer, values))
        else:
            row = _get(session, Offer, offer_id, N_("offer"), lock=True)
            check_version(N_("offer"), row.version, version)
        _set(row, values)
        session.add(row)
        session.flush()
        assert row.id is not None
        if offer_id is None:
            _add_round(session, row.id, e.Mover.PROVIDER, stamp_now(), None, values)
        return row.id


def _add_round(
    session: Session, offer_id: int, mover: e.Mover, when: Any, note: str | None, price: dict[str, Any]
) -> int:
    # the offer's row lock makes two writers number their rounds one after the other (SQLite's write lock
    # already does; PostgreSQL needs FOR UPDATE, which SQLite's dialect leaves out)
    session.exec(select(Offer.id).where(Offer.id == offer_id).with_for_update()).one()
    seq = (session.exec(select(func.max(QuoteRevision.seq)).where(QuoteRevision.offer_id == offer_id)).one() or 0) + 1
    rev = QuoteRevision(offer_id=offer_id, seq=seq, quoted_at=when, mover=mover, note=note)
    session.add(rev)
    session.flush()
    assert rev.id is not None
    session.add(RevisionPrice(revision_id=rev.id, **{f.name: price[f.name] for f in E.PRICE.fields}))
    return rev.id


# -- negotiation rounds ------------------------------------------------------------------------------------
def _round_spec(title: str, values: dict[str, Any]) -> FormSpec:
    return FormSpec(title, E.ROUND.form_fields, values, entity=E.ROUND)


def revision_form(db: Database, offer_id: int, mover: e.Mover) -> FormSpec:
    """A new round, pre-filled with the latest price so the buyer edits only what moved."""
    with db.session() as session:
        _get(session, Offer, offer_id, N_("offer"))
        zone = load_assumptions(session).time_zone
        last = session.exec(
            select(RevisionPrice)
            .join(QuoteRevision)
            .where(QuoteRevision.offer_id == offer_id)
            .order_by(col(QuoteRevision.seq).desc(), col(RevisionPrice.term_months))
        ).first()
    values: dict[str, Any] = {
        "mover": mover.value,
        "quoted_at": local_text(stamp_now(), zone),  # now, as `offer add` stamps its first round: never ahead
        **NEW_ROUND_VALUES,
    }
    if last is not None:
        values |= shown(last, E.PRICE.fields)
        values.pop("amount_high")
    title = {e.Mover.COUNTER: N_("Our counter-offer"), e.Mover.PROVIDER: N_("Provider's new offer")}.get(
        mover, N_("New round")
    )
    return _round_spec(_(title), values)


def _dated_in_order(session: Session, offer_id: int, quoted_at: Any, revision: QuoteRevision | None = None) -> None:
    """``FieldErrors`` on ``quoted_at`` when the round (``revision``, else a new last round) would be dated out
    of the order of the offer's rounds (``rounds_in_order``)."""
    others = session.exec(
        select(QuoteRevision.seq, QuoteRevision.quoted_at).where(
            QuoteRevision.offer_id == offer_id, QuoteRevision.id != (revision.id if revision else None)
        )
    ).all()
    seq = revision.seq if revision is not None else max((s for s, _ in others), default=0) + 1
    zone = load_assumptions(session).time_zone
    problems = rounds_in_order(seq, quoted_at, others, zone, local_today(session), utcnow())
    if problems:
        raise FieldErrors(problems)


def save_revision(db: Database, offer_id: int, raw: dict[str, Any]) -> int:
    values = parse(_round_spec("", {}), raw)
    with db.write() as session:
        offer = _get(session, Offer, offer_id, N_("offer"))
        _dated_in_order(session, offer_id, values["quoted_at"])
        rev_id = _add_round(session, offer_id, values["mover"], values["quoted_at"], values["round_note"], values)
        if offer.status in (e.OfferStatus.DRAFT, e.OfferStatus.REQUESTED, e.OfferStatus.QUOTED):
            offer.status = e.OfferStatus.NEGOTIATING
        offer.updated_at = utcnow()
        return rev_id


def revision_edit_form(db: Database, revision_id: int) -> FormSpec:
    """A recorded round with its headline price (the shortest-term option), to correct a typo."""
    with db.session() as session:
        rev = _get(session, QuoteRevision, revision_id, N_("round"))
        price = session.exec(
            select(RevisionPrice)
            .where(RevisionPrice.revision_id == revision_id)
            .order_by(col(RevisionPrice.term_months))
        ).first()
    values = shown(rev, (E.MOVER, E.QUOTED_AT)) | {"round_note": rev.note or ""}
    if price is not None:
        values |= shown(price, E.PRICE.fields)
    return replace(_round_spec(_("Round {seq}").format(seq=rev.seq), values), version=_round_version(rev, price))


def round_number(db: Database, revision_id: int) -> int:
    """Which round of its offer a recorded round is (``第 2 轮``), as against its id (what ``round edit`` takes)."""
    with db.session() as session:
        return _get(session, QuoteRevision, revision_id, N_("round")).seq


def _round_version(rev: QuoteRevision, price: RevisionPrice | None) -> tuple[int, int | None]:
    """A round form shows the round and its headline price: it is stale if either changed."""
    return rev.version, price.version if price is not None else None


def update_revision(db: Database, revision_id: int, raw: dict[str, Any], version: object = None) -> int:
    values = parse(_round_spec("", {}), raw)
    with db.write() as session:
        rev = _get(session, QuoteRevision, revision_id, N_("round"), lock=True)
        headline = session.exec(
            select(RevisionPrice)
            .where(RevisionPrice.revision_id == revision_id)
            .order_by(col(RevisionPrice.term_months))
        ).first()
        check_version(N_("round"), _round_version(rev, headline), version)
        _dated_in_order(session, rev.offer_id, values["quoted_at"], rev)
        others = session.exec(select(RevisionPrice).where(RevisionPrice.revision_id == revision_id)).all()
        if any(
            p is not headline and (p.term_months, p.unit) == (values["term_months"], values["unit"]) for p in others
        ):
            said = _("the round already has a {months}-month {unit} price option; change that one").format(
                months=values["term_months"], unit=values["unit"].value.replace("_", "-")
            )
            raise FieldErrors({"term_months": said})
        _set(rev, values).note = values["round_note"]
        row = headline or RevisionPrice(revision_id=rev.id)
        session.add(_set(row, {f.name: values[f.name] for f in E.PRICE.fields}))
        return revision_id


# -- discounts and extra costs ---------------------------------------------------------------------------
def _fine_print_form(db: Database, entity: Entity, starts: dict[str, Any], row_id: int | None) -> FormSpec:
    """The form of a new discount or extra cost (its declared starting values) or of the one with ``row_id``."""
    fields = entity.form_fields
    new, edit = _FINE_PRINT_TITLES[entity.key]
    if row_id is None:
        return FormSpec(_(new), fields, dict(starts), entity=entity)
    with db.session() as session:
        row = _get(session, FINE_PRINT[entity.key], row_id, entity.one)
        return FormSpec(_(edit), fields, shown(row, fields), entity=entity, version=row.version)


_FINE_PRINT_TITLES = {
    E.DISCOUNT.key: (N_("New discount"), N_("Edit discount")),
    E.EXTRA.key: (N_("New extra cost"), N_("Edit extra cost")),
}
"""The titles of the forms of a new and a recorded discount or extra cost."""


def discount_form(db: Database, discount_id: int | None = None) -> FormSpec:
    return _fine_print_form(db, E.DISCOUNT, NEW_DISCOUNT_VALUES, discount_id)


def save_discount(
    db: Database, offer_id: int, raw: dict[str, Any], discount_id: int | None = None, version: object = None
) -> int:
    return _save_fine_print(db, offer_id, raw, Discount, E.DISCOUNT, N_("discount"), discount_id, version)


def extra_form(db: Database, extra_id: int | None = None) -> FormSpec:
    return _fine_print_form(db, E.EXTRA, NEW_EXTRA_VALUES, extra_id)


def save_extra(
    db: Database, offer_id: int, raw: dict[str, Any], extra_id: int | None = None, version: object = None
) -> int:
    return _save_fine_print(db, offer_id, raw, ExtraCost, E.EXTRA, N_("extra cost"), extra_id, version)


def _save_fine_print(
    db: Database,
    offer_id: int,
    raw: dict[str, Any],
    model: Any,
    entity: Entity,
    what: str,
    row_id: int | None,
    version: object,
) -> int:
    """Save a discount or an extra cost of an offer: a new row, or the row ``row_id`` if it is still at
    ``version`` (else "changed since you opened it"); ``what``: the row in words (marked ``N_``)."""
    values = parse(FormSpec(what.capitalize(), entity.form_fields, entity=entity), raw)
    with db.write() as session:
        _get(session, Offer, offer_id, N_("offer"))
        if row_id is None:
            row = model(offer_id=offer_id)
        else:
            row = _get(session, model, row_id, what, lock=True)
            check_version(what, row.version, version)
        _set(row, values)
        key = tuple(getattr(row, f) for f in entity.natural_key)
        twin = next(
            (x for x in session.exec(select(model).where(model.offer_id == offer_id))
             if x.id != row.id and tuple(getattr(x, f) for f in entity.natural_key) == key),
            None,
        )  # fmt: skip
        if twin is not None:  # an import could never tell the two apart: one row per key
            named = " / ".join(str(getattr(v, "value", v)) for v in key if v not in (None, False))
            said = _(
                "offer #{offer} already has a {key} {what} (#{id}), and an import could not tell two apart: record "
                "their total in that one"
            ).format(offer=offer_id, key=named, what=noun(what), id=twin.id)
            raise FieldErrors({entity.natural_key[0]: said})
        session.add(row)
        session.flush()
        assert row.id is not None
        return int(row.id)


# -- SLA -------------------------------------------------------------------------------------------------
def credits_text(tiers: list[SlaCreditTier]) -> str:
    return E.credits_text([(t.below, t.credit) for t in tiers])


def sla_form(db: Database, offer_id: int) -> FormSpec:
    fields = E.SLA.form_fields
    values: dict[str, Any] = {"preemption": e.PreemptionRisk.UNKNOWN.value}
    with db.session() as session:
        _get(session, Offer, offer_id, N_("offer"))
        sla, version = _sla_of(session, offer_id)
        if sla is not None:
            values = shown(sla, fields) | {"credits": version[1]}
    return FormSpec(_("SLA terms"), fields, values, entity=E.SLA, version=version)


def _sla_of(session: Session, offer_id: int) -> tuple[SlaTerm | None, tuple[int, str] | None]:
    """An offer's SLA and what its form's freshness is judged by (the row's version, the credit schedule)."""
    sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == offer_id)).first()
    if sla is None:
        return None, None
    tiers = list(session.exec(select(SlaCreditTier).where(SlaCreditTier.sla_term_id == sla.id)))
    return sla, (sla.version, credits_text(tiers))


def save_sla(db: Database, offer_id: int, raw: dict[str, Any], version: object = None) -> None:
    values, errors = _parse_all(FormSpec("SLA terms", E.SLA.form_fields, entity=E.SLA), raw)
    try:
        tiers = E.parse_credits(raw.get("credits"))
    except QuotetuiError as exc:
        errors["credits"] = str(exc)
    if errors:
        raise FieldErrors(errors)
    with db.write() as session:
        _get(session, Offer, offer_id, N_("offer"), lock=True)
        current, now = _sla_of(session, offer_id)
        check_version(N_("SLA"), now, version)
        sla = current or SlaTerm(offer_id=offer_id)
        session.add(_set(sla, values))
        if current is not None:
            sla.version = current.version + 1  # the credits may be all that changed: the SLA changed
        session.flush()
        assert sla.id is not None
        for old in session.exec(select(SlaCreditTier).where(SlaCreditTier.sla_term_id == sla.id)):
            session.delete(old)
        session.flush()
        for below, credit in tiers:
            session.add(SlaCreditTier(sla_term_id=sla.id, below=below, credit=credit))


# -- deleting ----------------------------------------------------------------------------------------------
def delete_offer(db: Database, offer_id: int) -> None:
    with db.write() as session:
        offer = _get(session, Offer, offer_id, N_("offer"))
        if session.exec(select(Contract.id).where(Contract.offer_id == offer_id)).first() is not None:
            raise BadInput(_("a contract was signed on this offer; it cannot be deleted"))
        session.delete(offer)


def delete_provider(db: Database, provider_id: int) -> None:
    with db.write() as session:
        provider = _get(session, Provider, provider_id, N_("provider"))
        if session.exec(select(Offer.id).where(Offer.provider_id == provider_id)).first() is not None:
            raise BadInput(_("the provider still has offers; delete them first"))
        session.delete(provider)


FINE_PRINT: dict[str, type[QuoteRevision] | type[Discount] | type[ExtraCost]] = {
    E.ROUND.key: QuoteRevision,
    E.DISCOUNT.key: Discount,
    E.EXTRA.key: ExtraCost,
}
"""An offer's records a buyer picks and deletes one by one (the offer's screen), by their entity's key."""


def fine_print_offer(db: Database, entity: Entity, row_id: int) -> int:
    """The offer that the discount or extra cost ``row_id`` belongs to (:class:`BadInput` when there is none)."""
    with db.session() as session:
        return int(_get(session, FINE_PRINT[entity.key], row_id, entity.one).offer_id)


def delete_fine_print(db: Database, entity: Entity, row_id: int) -> None:
    """Delete one of an offer's rounds, discounts or extra costs (``FINE_PRINT``); a round a contract was
    signed on, or an offer's last round, stays."""
    model = FINE_PRINT[entity.key]
    with db.write() as session:
        row = _get(session, model, row_id, entity.one)
        if isinstance(row, QuoteRevision):
            if session.exec(select(Contract.id).where(Contract.revision_id == row_id)).first() is not None:
                raise BadInput(_("a contract was signed on this round; it cannot be deleted"))
            rounds = select(func.count()).select_from(QuoteRevision).where(QuoteRevision.offer_id == row.offer_id)
            if session.exec(rounds).one() == 1:
                raise BadInput(_("an offer keeps at least one round; delete the offer instead"))
        session.delete(row)


def _get(session: Session, model: Any, row_id: int, what: str, *, lock: bool = False) -> Any:
    """The row, or :class:`BadInput`; ``lock`` holds it until the write commits (PostgreSQL: FOR UPDATE), so
    its version is checked and bumped by one writer at a time. ``what``: the row in words (marked ``N_``)."""
    row = session.get(model, row_id, with_for_update=lock or None)
    if row is None:
        raise BadInput(filled(_("no {what} with id {id}"), what=noun(what), id=row_id))
    return row
