"""The TUI's contract forms: sign an offer, record an incident, record an invoice. Each parses every field
first (all problems at once) and then calls the same services as ``quotetui contracts``."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.enums import BillingCadence
from quotetui.domain.errors import QuotetuiError
from quotetui.language import _
from quotetui.language.dates import day_text
from quotetui.language.lists import aside
from quotetui.services.acceptance import Acceptance, waive
from quotetui.services.amendments import amend_contract
from quotetui.services.contract_rows import ContractRow
from quotetui.services.contracts import accept_offer, add_incident, add_invoice, round_to_be_signed
from quotetui.services.form_spec import CONFIRMED, FormSpec, parse
from quotetui.store.engine import Database
from quotetui.store.models import Offer

ZERO = Decimal(0)


def contract_form(db: Database, offer_id: int, today: date) -> FormSpec:
    """The form signing ``offer_id`` at its current round; refused before it opens when the last round is our
    counter (``BadInput`` naming the rounds)."""
    seq = round_to_be_signed(db, offer_id)
    with db.session() as session:
        offer = session.get(Offer, offer_id)
        if offer is None:
            raise QuotetuiError(_("no offer #{id}").format(id=offer_id))
        values: dict[str, Any] = {
            "start": today.isoformat(),
            "term_months": "12",
            "notice_days": "30",
            "billing": BillingCadence.MONTHLY.value,
            "gpus": str(offer.gpus_per_node),
            "tolerance": "0",
        }
        title = _("Sign #{id} {name} at round {round}: a contract keeps the agreed terms").format(
            id=offer_id, name=offer.name, round=seq
        )
        return FormSpec(title, E.CONTRACT.form_fields, values, entity=E.CONTRACT)


def save_contract(db: Database, offer_id: int, raw: dict[str, Any]) -> int:
    """Signs; beyond an unstated stock it first asks (``NeedsConfirmation``), and signs when the form sends the
    values again with ``CONFIRMED``."""
    v = parse(FormSpec("Contract", E.CONTRACT.form_fields, entity=E.CONTRACT), raw)
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
        billing=v["billing"],
        gpus=v["gpus"],
        acceptance_sample=v["acceptance_sample"],
        acceptance_sample_min=v["acceptance_sample_min"],
        committed=v["committed"],
        prepayment=v["prepayment"],
        early_termination=v["early_termination"],
        tolerance=v["tolerance"] or ZERO,
        stock_confirmed=bool(raw.get(CONFIRMED)),
    )  # its problems with a field are FieldErrors by that field's name: the form shows them in place
    assert contract.id is not None
    return contract.id


def _named(contract: ContractRow) -> str:
    """The contract as a form's title names it: its reference, else ``contract #3``."""
    return contract.reference or _("contract #{id}").format(id=contract.id)


def amendment_form(contract: ContractRow, today: date) -> FormSpec:
    """An amendment of the contract's terms, in force from today unless another day is typed."""
    title = _("Amend {contract}: only the terms you fill in change").format(contract=_named(contract))
    start = max(today, contract.start_date)
    return FormSpec(title, E.AMENDMENT.form_fields, {"effective": start.isoformat()}, entity=E.AMENDMENT)


def save_amendment(db: Database, contract_id: int, raw: dict[str, Any]) -> int:
    amendment = amend_contract(db, contract_id, raw, stock_confirmed=bool(raw.get(CONFIRMED)))  # asks, as signing
    return amendment.seq


def incident_form(contract: ContractRow) -> FormSpec:
    title = _("Incident on {contract}").format(contract=_named(contract))
    return FormSpec(title, E.INCIDENT.form_fields, {}, entity=E.INCIDENT)


def save_incident(db: Database, contract_id: int, raw: dict[str, Any]) -> int:
    v = parse(FormSpec("Incident", E.INCIDENT.form_fields, entity=E.INCIDENT), raw)
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
    assert row.id is not None
    return row.id


def invoice_form(contract: ContractRow) -> FormSpec:
    values = {"currency": contract.currency}
    title = _("Invoice for {contract}").format(contract=_named(contract))
    return FormSpec(title, E.INVOICE.form_fields, values, entity=E.INVOICE)


def save_invoice(db: Database, contract_id: int, raw: dict[str, Any]) -> int:
    v = parse(FormSpec("Invoice", E.INVOICE.form_fields, entity=E.INVOICE), raw)
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
    assert row.id is not None
    return row.id


def waiver_form(state: Acceptance, today: date) -> FormSpec:
    """A waiver of one of the items that block acceptance (only those are offered)."""
    if state.accepted_on is not None:
        raise QuotetuiError(
            _("{subject} was accepted on {day}: nothing to waive now").format(
                subject=state.subject, day=day_text(state.accepted_on)
            )
        )
    blocking = tuple((aside(i.title, i.status.word), i.key) for i in state.blocking)
    if not blocking:
        said = _("nothing blocks the acceptance of {subject}: no item to waive")
        raise QuotetuiError(said.format(subject=state.subject))
    values = {"item": blocking[0][1], "on": today.isoformat()}
    title = _("Waive an acceptance item of {subject}: written down with who and why").format(subject=state.subject)
    return FormSpec(title, E.WAIVER.form_fields, values, options={"item": blocking}, entity=E.WAIVER)


def save_waiver(db: Database, contract_id: int, raw: dict[str, Any], today: date) -> int:
    waive(db, contract_id, raw, today)
    return contract_id
