"""Creating, editing and deleting what the buyer records: providers, offers, rounds, fine print.

Each ``*_form`` returns the form to show (with current values when editing); each ``save_*`` validates
everything first (``FieldErrors`` names every bad field) and then writes in one transaction.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlmodel import Session, col, func, select

from quotetui.domain import enums as e
from quotetui.domain.errors import BadInput, QuotetuiError
from quotetui.domain.timeutil import utcnow
from quotetui.services.forms import FieldErrors, FieldSpec, FormSpec, parse, text_of
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

ZERO, ONE = Decimal(0), Decimal(1)


def shown(row: object, fields: tuple[FieldSpec, ...]) -> dict[str, Any]:
    """A stored row's values as its form shows them (fields that are not columns are left out)."""
    return {f.name: text_of(getattr(row, f.name)) for f in fields if hasattr(row, f.name)}


def _choices(enum: type[e.Choice]) -> tuple[tuple[str, str], ...]:
    return tuple((m.value.replace("_", " "), m.value) for m in enum)


PRICE_FIELDS = (
    FieldSpec("amount", "Price", "money", required=True, minimum=ZERO, help="exact, up to 6 decimal places"),
    FieldSpec("amount_high", "… up to (a range)", "money", minimum=ZERO),
    FieldSpec("unit", "Price unit", "choice", required=True, choices=_choices(e.PriceUnit)),
    FieldSpec("currency", "Currency", "currency", required=True),
    FieldSpec("term_months", "Term, months (0 = on demand)", "int", required=True, minimum=ZERO, maximum=Decimal(120)),
    FieldSpec("prepay", "Prepaid", "bool"),
)


# -- providers -------------------------------------------------------------------------------------------
PROVIDER_FIELDS = (
    FieldSpec("name", "Name", required=True, max_length=120),
    FieldSpec("kind", "Kind", "choice", required=True, choices=_choices(e.ProviderKind)),
    FieldSpec("parent", "Parent company", max_length=120),
    FieldSpec("regions", "Regions (comma separated)", "list"),
    FieldSpec("certifications", "Certifications (comma separated)", "list"),
    FieldSpec("website", "Website", max_length=300),
    FieldSpec("contacts", "Contacts"),
    FieldSpec("notes", "Notes", max_length=2000),
)


def provider_form(db: Database, provider_id: int | None = None) -> FormSpec:
    values: dict[str, Any] = {"kind": "lessor"}
    if provider_id is not None:
        with db.session() as session:
            p = _get(session, Provider, provider_id, "provider")
            values = shown(p, PROVIDER_FIELDS)
    return FormSpec("Edit provider" if provider_id else "New provider", PROVIDER_FIELDS, values)


def save_provider(db: Database, raw: dict[str, Any], provider_id: int | None = None) -> int:
    values = parse(PROVIDER_FIELDS, raw)
    with db.write() as session:
        clash = session.exec(select(Provider.id).where(Provider.name == values["name"])).first()
        if clash is not None and clash != provider_id:
            raise FieldErrors({"name": f"a provider named {values['name']!r} already exists"})
        values["kind"] = e.ProviderKind(values["kind"])
        row = Provider(**values) if provider_id is None else _get(session, Provider, provider_id, "provider")
        for name, value in values.items():
            setattr(row, name, value)
        row.updated_at = utcnow()
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id


# -- offers ----------------------------------------------------------------------------------------------
def _offer_fields(session: Session, new: bool) -> tuple[FieldSpec, ...]:
    providers = tuple((p.name, str(p.id)) for p in session.exec(select(Provider).order_by(col(Provider.name))))
    fields = (
        FieldSpec("provider_id", "Provider", "choice", required=True, choices=providers),
        FieldSpec("name", "Offer name", required=True, max_length=200),
        FieldSpec("gpu", "GPU model (any name or alias)", required=True, max_length=80),
        FieldSpec("gpus_per_node", "GPUs per node", "int", required=True, minimum=ONE, maximum=Decimal(64)),
        FieldSpec("form_factor", "Form factor", "choice", required=True, choices=_choices(e.FormFactor)),
        FieldSpec("nodes_available", "Nodes on offer", "int", minimum=ZERO),
        FieldSpec("billing_basis", "Billing", "choice", required=True, choices=_choices(e.BillingBasis)),
        FieldSpec("status", "Status", "choice", required=True, choices=_choices(e.OfferStatus)),
        FieldSpec("valid_until", "Valid until (YYYY-MM-DD)", "date"),
        FieldSpec("intra_fabric", "In-node fabric", "choice", required=True, choices=_choices(e.IntraFabric)),
        FieldSpec("inter_fabric", "Scale-out network", "choice", required=True, choices=_choices(e.InterFabric)),
        FieldSpec("inter_gbps_per_gpu", "Network Gb/s per GPU", "decimal", minimum=ZERO),
        FieldSpec("cpu", "CPU", max_length=200),
        FieldSpec("ram_gb", "RAM GB", "int", minimum=ZERO),
        FieldSpec("nvme_tb", "Local NVMe TB", "decimal", minimum=ZERO),
        FieldSpec("region", "Region", max_length=120),
        FieldSpec("stock_note", "Stock / lead time note", max_length=200),
        FieldSpec("lead_time_days", "Lead time, days", "int", minimum=ZERO),
        FieldSpec("bare_metal", "Bare metal (not virtualised)", "bool"),
        FieldSpec("prorata_days", "Part months billed by the day", "bool"),
        FieldSpec("is_estimate", "Figures are estimates", "bool"),
        FieldSpec("notes", "Notes", max_length=2000),
    )
    return fields + PRICE_FIELDS if new else fields


def offer_form(db: Database, offer_id: int | None = None) -> FormSpec:
    with db.session() as session:
        fields = _offer_fields(session, new=offer_id is None)
        if offer_id is None:
            values: dict[str, Any] = {
                "gpus_per_node": "8",
                "form_factor": "sxm",
                "billing_basis": "monthly",
                "status": "quoted",
                "intra_fabric": "nvswitch",
                "inter_fabric": "unknown",
                "bare_metal": True,
                "unit": "node_month",
                "currency": "CNY",
                "term_months": "1",
            }
        else:
            o = _get(session, Offer, offer_id, "offer")
            catalog, ids = load_catalog(session)
            gpu = next(key for key, gid in ids.items() if gid == o.gpu_model_id)
            values = shown(o, fields)
            values["gpu"] = catalog.get(gpu).name
    return FormSpec("Edit offer" if offer_id else "New offer", fields, values)


def save_offer(db: Database, raw: dict[str, Any], offer_id: int | None = None) -> int:
    with db.session() as session:
        fields = _offer_fields(session, new=offer_id is None)
        catalog, ids = load_catalog(session)
    errors: dict[str, str] = {}
    try:
        values = parse(fields, raw)
    except FieldErrors as exc:  # keep going: the GPU name is checked too, so every problem shows at once
        errors, values = dict(exc.errors), {}
    gpu_id = None
    if str(raw.get("gpu") or "").strip():
        try:
            gpu_id = ids[catalog.lookup(str(raw["gpu"])).key]
        except QuotetuiError as exc:
            errors["gpu"] = str(exc)
    if errors:
        raise FieldErrors(errors)
    values.pop("gpu")
    price = {f.name: values.pop(f.name) for f in PRICE_FIELDS if f.name in values}
    if price:
        _check_price(price)
    with db.write() as session:
        enums = {
            "form_factor": e.FormFactor,
            "billing_basis": e.BillingBasis,
            "status": e.OfferStatus,
            "intra_fabric": e.IntraFabric,
            "inter_fabric": e.InterFabric,
        }
        for name, enum in enums.items():
            values[name] = enum(values[name])
        values["provider_id"] = int(values["provider_id"])
        values["gpu_model_id"] = gpu_id
        row = Offer.model_validate(values) if offer_id is None else _get(session, Offer, offer_id, "offer")
        for name, value in values.items():
            setattr(row, name, value)
        row.updated_at = utcnow()
        session.add(row)
        session.flush()
        assert row.id is not None
        if price:
            _add_round(session, row.id, e.Mover.PROVIDER, utcnow(), None, price)
        return row.id


def _check_price(price: dict[str, Any]) -> None:
    errors = {}
    if price["amount_high"] is not None and price["amount_high"] < price["amount"]:
        errors["amount_high"] = f"below the price {price['amount']}"
    if price["unit"] == e.PriceUnit.TERM_TOTAL.value and price["term_months"] < 1:
        errors["term_months"] = "a price for the whole term needs a term of at least 1 month"
    if errors:
        raise FieldErrors(errors)


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
    session.add(
        RevisionPrice(
            revision_id=rev.id,
            term_months=price["term_months"],
            unit=e.PriceUnit(price["unit"]),
            amount=price["amount"],
            amount_high=price["amount_high"],
            currency=price["currency"],
            prepay=price["prepay"],
        )
    )
    return rev.id


# -- negotiation rounds ------------------------------------------------------------------------------------
ROUND_FIELDS = (
    FieldSpec("mover", "Who moved", "choice", required=True, choices=_choices(e.Mover)),
    FieldSpec("quoted_at", "When (YYYY-MM-DD or date-time with offset)", "datetime", required=True),
    *PRICE_FIELDS,
    FieldSpec("note", "Note", max_length=2000),
)


def revision_form(db: Database, offer_id: int, mover: e.Mover) -> FormSpec:
    """A new round, pre-filled with the latest price so the buyer edits only what moved."""
    with db.session() as session:
        _get(session, Offer, offer_id, "offer")
        last = session.exec(
            select(RevisionPrice)
            .join(QuoteRevision)
            .where(QuoteRevision.offer_id == offer_id)
            .order_by(col(QuoteRevision.seq).desc(), col(RevisionPrice.term_months))
        ).first()
    values: dict[str, Any] = {
        "mover": mover.value,
        "quoted_at": utcnow().date().isoformat(),
        "unit": "node_month",
        "currency": "CNY",
        "term_months": "1",
    }
    if last is not None:
        values |= {
            "amount": text_of(last.amount),
            "unit": last.unit.value,
            "currency": last.currency,
            "term_months": str(last.term_months),
            "prepay": last.prepay,
        }
    title = {"counter": "Our counter-offer", "provider": "Provider's new offer"}.get(mover.value, "New round")
    return FormSpec(title, ROUND_FIELDS, values)


def save_revision(db: Database, offer_id: int, raw: dict[str, Any]) -> int:
    values = parse(ROUND_FIELDS, raw)
    price = {f.name: values[f.name] for f in PRICE_FIELDS}
    _check_price(price)
    with db.write() as session:
        offer = _get(session, Offer, offer_id, "offer")
        rev_id = _add_round(session, offer_id, e.Mover(values["mover"]), values["quoted_at"], values["note"], price)
        if offer.status in (e.OfferStatus.DRAFT, e.OfferStatus.REQUESTED, e.OfferStatus.QUOTED):
            offer.status = e.OfferStatus.NEGOTIATING
        offer.updated_at = utcnow()
        return rev_id


# -- discounts and extra costs ---------------------------------------------------------------------------
DISCOUNT_FIELDS = (
    FieldSpec("kind", "Kind", "choice", required=True, choices=_choices(e.DiscountKind)),
    FieldSpec("rate", "Rate % (empty: offered, not quantified)", "percent", minimum=ZERO, maximum=Decimal("99.999999")),
    FieldSpec("min_term_months", "Needs a term of at least (months)", "int", minimum=ZERO),
    FieldSpec("min_gpus", "Needs at least (GPUs)", "int", minimum=ZERO),
    FieldSpec("requires_prepay", "Needs prepayment", "bool"),
    FieldSpec("description", "Description", max_length=500),
)

EXTRA_FIELDS = (
    FieldSpec("kind", "Kind", "choice", required=True, choices=_choices(e.ExtraKind)),
    FieldSpec("basis", "Charged", "choice", required=True, choices=_choices(e.ExtraBasis)),
    FieldSpec("amount", "Amount (empty: charged, price unknown)", "money", minimum=ZERO),
    FieldSpec("currency", "Currency", "currency", required=True),
    FieldSpec("refundable", "Refundable (deposit)", "bool"),
    FieldSpec("description", "Description", max_length=500),
)


def discount_form(db: Database, discount_id: int | None = None) -> FormSpec:
    values: dict[str, Any] = {"kind": "term"}
    if discount_id is not None:
        with db.session() as session:
            d = _get(session, Discount, discount_id, "discount")
            values = shown(d, DISCOUNT_FIELDS)
            if d.rate is not None:
                values["rate"] = text_of(d.rate * 100)
    return FormSpec("Edit discount" if discount_id else "New discount", DISCOUNT_FIELDS, values)


def save_discount(db: Database, offer_id: int, raw: dict[str, Any], discount_id: int | None = None) -> int:
    values = parse(DISCOUNT_FIELDS, raw)
    with db.write() as session:
        _get(session, Offer, offer_id, "offer")
        row = Discount(offer_id=offer_id) if discount_id is None else _get(session, Discount, discount_id, "discount")
        for name, value in values.items():
            setattr(row, name, e.DiscountKind(value) if name == "kind" else value)
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id


def extra_form(db: Database, extra_id: int | None = None) -> FormSpec:
    values: dict[str, Any] = {"kind": "egress", "basis": "per_gb", "currency": "CNY"}
    if extra_id is not None:
        with db.session() as session:
            x = _get(session, ExtraCost, extra_id, "extra cost")
            values = shown(x, EXTRA_FIELDS)
    return FormSpec("Edit extra cost" if extra_id else "New extra cost", EXTRA_FIELDS, values)


def save_extra(db: Database, offer_id: int, raw: dict[str, Any], extra_id: int | None = None) -> int:
    values = parse(EXTRA_FIELDS, raw)
    with db.write() as session:
        _get(session, Offer, offer_id, "offer")
        row = ExtraCost(offer_id=offer_id) if extra_id is None else _get(session, ExtraCost, extra_id, "extra cost")
        for name, value in values.items():
            setattr(row, name, {"kind": e.ExtraKind, "basis": e.ExtraBasis}.get(name, lambda v: v)(value))
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id


# -- SLA -------------------------------------------------------------------------------------------------
SLA_FIELDS = (
    FieldSpec("availability", "Availability %", "percent", minimum=ZERO, maximum=Decimal(100)),
    FieldSpec("response_minutes", "Response time, minutes", "int", minimum=ZERO),
    FieldSpec("replacement_hours", "GPU replacement, hours", "int", minimum=ZERO),
    FieldSpec("support_hours", "Support hours (e.g. 7x24)", max_length=40),
    FieldSpec("return_days", "Trial / return period, days", "int", minimum=ZERO),
    FieldSpec("dc_tier", "Data-centre tier", max_length=20),
    FieldSpec("pue", "PUE", "decimal", minimum=ONE, maximum=Decimal(5)),
    FieldSpec("power_redundancy", "Power redundancy", max_length=120),
    FieldSpec("preemption", "Preemption risk", "choice", required=True, choices=_choices(e.PreemptionRisk)),
    FieldSpec("credits", "Credits: below%:credit%, … (e.g. 99.9:10, 99:25)", max_length=300),
    FieldSpec("notes", "Notes", max_length=2000),
)


def credits_text(tiers: list[SlaCreditTier]) -> str:
    return ", ".join(f"{text_of(t.below * 100)}:{text_of(t.credit * 100)}" for t in tiers)


def parse_credits(text: str | None) -> list[tuple[Decimal, Decimal]]:
    tiers = []
    for part in (text or "").split(","):
        if not part.strip():
            continue
        below, sep, credit = part.partition(":")
        if not sep:
            raise BadInput(f"{part.strip()!r} needs the form below%:credit%, e.g. 99.9:10")
        values = parse(
            (
                FieldSpec("below", "", "percent", True, maximum=Decimal(100), minimum=ZERO),
                FieldSpec("credit", "", "percent", True, maximum=Decimal(100), minimum=ZERO),
            ),
            {"below": below, "credit": credit},
        )
        tiers.append((values["below"], values["credit"]))
    if len({b for b, _ in tiers}) != len(tiers):
        raise BadInput("each threshold once")
    return tiers


def sla_form(db: Database, offer_id: int) -> FormSpec:
    values: dict[str, Any] = {"preemption": "unknown"}
    with db.session() as session:
        _get(session, Offer, offer_id, "offer")
        sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == offer_id)).first()
        if sla is not None:
            values = shown(sla, SLA_FIELDS)
            if sla.availability is not None:
                values["availability"] = text_of(sla.availability * 100)
            tiers = list(
                session.exec(
                    select(SlaCreditTier)
                    .where(SlaCreditTier.sla_term_id == sla.id)
                    .order_by(col(SlaCreditTier.below).desc())
                )
            )
            values["credits"] = credits_text(tiers)
    return FormSpec("SLA terms", SLA_FIELDS, values)


def save_sla(db: Database, offer_id: int, raw: dict[str, Any]) -> None:
    errors: dict[str, str] = {}
    try:
        values = parse(SLA_FIELDS, raw)
    except FieldErrors as exc:  # keep going: the credit schedule is checked too, so every problem shows
        errors, values = dict(exc.errors), {}
    try:
        tiers = parse_credits(raw.get("credits"))
    except QuotetuiError as exc:
        errors["credits"] = str(exc)
    if errors:
        raise FieldErrors(errors)
    values.pop("credits")
    with db.write() as session:
        _get(session, Offer, offer_id, "offer")
        sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == offer_id)).first() or SlaTerm(offer_id=offer_id)
        for name, value in values.items():
            setattr(sla, name, e.PreemptionRisk(value) if name == "preemption" else value)
        session.add(sla)
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
        offer = _get(session, Offer, offer_id, "offer")
        if session.exec(select(Contract.id).where(Contract.offer_id == offer_id)).first() is not None:
            raise BadInput("a contract was signed on this offer; it cannot be deleted")
        session.delete(offer)


def delete_provider(db: Database, provider_id: int) -> None:
    with db.write() as session:
        provider = _get(session, Provider, provider_id, "provider")
        if session.exec(select(Offer.id).where(Offer.provider_id == provider_id)).first() is not None:
            raise BadInput("the provider still has offers; delete them first")
        session.delete(provider)


def delete_row(db: Database, model: type[Discount] | type[ExtraCost] | type[QuoteRevision], row_id: int) -> None:
    with db.write() as session:
        row = _get(session, model, row_id, str(model.__tablename__).replace("_", " "))
        if isinstance(row, QuoteRevision):
            if session.exec(select(Contract.id).where(Contract.revision_id == row_id)).first() is not None:
                raise BadInput("a contract was signed on this round; it cannot be deleted")
            if (
                session.exec(
                    select(func.count()).select_from(QuoteRevision).where(QuoteRevision.offer_id == row.offer_id)
                ).one()
                == 1
            ):
                raise BadInput("an offer keeps at least one round; delete the offer instead")
        session.delete(row)


def _get(session: Session, model: Any, row_id: int, what: str) -> Any:
    row = session.get(model, row_id)
    if row is None:
        raise BadInput(f"no {what} with id {row_id}")
    return row


# -- editing a recorded round --------------------------------------------------------------------------
def revision_edit_form(db: Database, revision_id: int) -> FormSpec:
    """A recorded round with its headline price (the shortest-term option), to correct a typo."""
    with db.session() as session:
        rev = _get(session, QuoteRevision, revision_id, "round")
        price = session.exec(
            select(RevisionPrice)
            .where(RevisionPrice.revision_id == revision_id)
            .order_by(col(RevisionPrice.term_months))
        ).first()
    values: dict[str, Any] = {"mover": rev.mover.value, "quoted_at": text_of(rev.quoted_at), "note": rev.note or ""}
    if price is not None:
        values |= {f.name: text_of(getattr(price, f.name)) for f in PRICE_FIELDS}
    return FormSpec(f"Round {rev.seq}", ROUND_FIELDS, values)


def update_revision(db: Database, revision_id: int, raw: dict[str, Any]) -> int:
    values = parse(ROUND_FIELDS, raw)
    price = {f.name: values[f.name] for f in PRICE_FIELDS}
    _check_price(price)
    with db.write() as session:
        rev = _get(session, QuoteRevision, revision_id, "round")
        rev.mover, rev.quoted_at, rev.note = e.Mover(values["mover"]), values["quoted_at"], values["note"]
        row = session.exec(
            select(RevisionPrice)
            .where(RevisionPrice.revision_id == revision_id)
            .order_by(col(RevisionPrice.term_months))
        ).first()
        if row is None:
            row = RevisionPrice(
                revision_id=revision_id, term_months=0, unit=e.PriceUnit.NODE_MONTH, amount=Decimal(0), currency="CNY"
            )
        row.term_months, row.unit = price["term_months"], e.PriceUnit(price["unit"])
        row.amount, row.amount_high = price["amount"], price["amount_high"]
        row.currency, row.prepay = price["currency"], price["prepay"]
        session.add(row)
        return revision_id
