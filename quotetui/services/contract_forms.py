"""The TUI's contract forms: sign an offer, record an incident, record an invoice. Each parses every field
first (all problems at once) and then calls the same services as ``quotetui contracts``."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from quotetui.domain.enums import BillingCadence
from quotetui.domain.errors import QuotetuiError
from quotetui.services.contracts import accept_offer, add_incident, add_invoice
from quotetui.services.forms import FieldErrors, FieldSpec, FormSpec, parse
from quotetui.store.engine import Database
from quotetui.store.models import Contract, Offer

ZERO, ONE = Decimal(0), Decimal(1)
CADENCES = tuple((c.value.replace("_", " "), c.value) for c in BillingCadence)

CONTRACT_FIELDS = (
    FieldSpec("start", "First day of service (YYYY-MM-DD)", "date", required=True),
    FieldSpec("term_months", "Term, months", "int", required=True, minimum=ONE, maximum=Decimal(120)),
    FieldSpec("notice_days", "Notice period, days", "int", minimum=ZERO, maximum=Decimal(3650)),
    FieldSpec("auto_renew", "Renews automatically unless notice is given", "bool"),
    FieldSpec("renewal_months", "Renewal term, months (default: the term)", "int", minimum=ONE),
    FieldSpec("reference", "Reference", max_length=120),
    FieldSpec("signed", "Signed on", "date"),
    FieldSpec("billing", "Billing", "choice", required=True, choices=CADENCES),
    FieldSpec("gpus", "GPUs covered", "int", required=True, minimum=ONE),
    FieldSpec("committed", "Committed spend", "money", minimum=ZERO),
    FieldSpec("prepayment", "Prepayment", "money", minimum=ZERO),
    FieldSpec("early_termination", "Early termination terms", max_length=2000),
    FieldSpec("tolerance", "Invoice tolerance (amount)", "money", minimum=ZERO),
)


def contract_form(db: Database, offer_id: int, today: date) -> FormSpec:
    with db.session() as session:
        offer = session.get(Offer, offer_id)
        if offer is None:
            raise QuotetuiError(f"no offer #{offer_id}")
        values: dict[str, Any] = {
            "start": today.isoformat(),
            "term_months": "12",
            "notice_days": "30",
            "billing": BillingCadence.MONTHLY.value,
            "gpus": str(offer.gpus_per_node),
            "tolerance": "0",
        }
        return FormSpec(f"Sign #{offer_id} {offer.name}: a contract keeps the agreed terms", CONTRACT_FIELDS, values)


def save_contract(db: Database, offer_id: int, raw: dict[str, Any]) -> int:
    v = parse(CONTRACT_FIELDS, raw)
    try:
        contract = accept_offer(
            db,
            offer_id,
            start=v["start"],
            term_months=v["term_months"],
            notice_days=v["notice_days"],
            auto_renew=v["auto_renew"],
            renewal_months=v["renewal_months"],
            reference=v["reference"],
            signed=v["signed"],
            billing=BillingCadence(v["billing"]),
            gpus=v["gpus"],
            committed=v["committed"],
            prepayment=v["prepayment"],
            early_termination=v["early_termination"],
            tolerance=v["tolerance"] or ZERO,
        )
    except FieldErrors:
        raise
    except QuotetuiError as exc:
        raise FieldErrors({_field_for(str(exc)): str(exc)}) from exc
    assert contract.id is not None
    return contract.id


def _field_for(message: str) -> str:
    """The field a service's message is about, so the form can show it there."""
    for words, name in (
        ("notice", "notice_days"),
        ("reference", "reference"),
        ("signed", "signed"),
        ("renewal", "renewal_months"),
        ("GPU", "gpus"),
        ("term", "term_months"),
    ):
        if words in message:
            return name
    return "start"


INCIDENT_FIELDS = (
    FieldSpec("started_at", "Started (2026-03-01T08:00+08:00; a bare date is 00:00 UTC)", "datetime", required=True),
    FieldSpec("ended_at", "Ended (empty: still down)", "datetime"),
    FieldSpec("affected_gpus", "GPUs affected (empty: all)", "int", minimum=ONE),
    FieldSpec("description", "What happened", required=True, max_length=2000),
    FieldSpec("claimed", "Credit claimed", "bool"),
    FieldSpec("received", "Credit received", "money", minimum=ZERO),
)


def incident_form(contract: Contract) -> FormSpec:
    return FormSpec(f"Incident on {contract.reference or f'contract #{contract.id}'}", INCIDENT_FIELDS, {})


def save_incident(db: Database, contract_id: int, raw: dict[str, Any]) -> int:
    v = parse(INCIDENT_FIELDS, raw)
    try:
        row = add_incident(
            db,
            contract_id,
            v["started_at"],
            v["ended_at"],
            v["description"],
            v["affected_gpus"],
            None,
            v["claimed"],
            v["received"],
        )
    except QuotetuiError as exc:
        name = "ended_at" if "ends" in str(exc) else "affected_gpus" if "GPU" in str(exc) else "started_at"
        raise FieldErrors({name: str(exc)}) from exc
    assert row.id is not None
    return row.id


INVOICE_FIELDS = (
    FieldSpec("period_start", "Period from", "date", required=True),
    FieldSpec("period_end", "Period to (inclusive)", "date", required=True),
    FieldSpec("amount", "Amount", "money", required=True, minimum=ZERO),
    FieldSpec("currency", "Currency", "currency", required=True),
    FieldSpec("issued_on", "Issued on", "date"),
    FieldSpec("reference", "Invoice number", max_length=120),
    FieldSpec("paid", "Paid", "bool"),
)


def invoice_form(contract: Contract) -> FormSpec:
    values = {"currency": contract.currency}
    return FormSpec(f"Invoice for {contract.reference or f'contract #{contract.id}'}", INVOICE_FIELDS, values)


def save_invoice(db: Database, contract_id: int, raw: dict[str, Any]) -> int:
    v = parse(INVOICE_FIELDS, raw)
    try:
        row = add_invoice(
            db,
            contract_id,
            v["period_start"],
            v["period_end"],
            v["amount"],
            v["currency"],
            issued_on=v["issued_on"],
            reference=v["reference"],
            paid=v["paid"],
        )
    except QuotetuiError as exc:
        name = "currency" if "currency" in str(exc) or " in " in str(exc) else "period_end"
        raise FieldErrors({name: str(exc)}) from exc
    assert row.id is not None
    return row.id
