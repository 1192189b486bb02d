"""Contracts, their incidents and invoices as plain rows, read as tuples (``store/reader.py``): the contract
views (``services/contract_view.py``) of both front ends and the export read them without the ORM (on SQLite,
without SQLAlchemy). Each row has every column of its table, by the ORM model's names."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from quotetui.domain.contracts.amendments import Amendment
from quotetui.domain.enums import BillingCadence, OfferStatus, PriceUnit
from quotetui.store.reader import Reader, in_list, stored_json


@dataclass(frozen=True, slots=True)
class ContractRow:
    id: int
    version: int
    offer_id: int
    revision_id: int
    reference: str | None
    signed_date: date | None
    start_date: date
    term_months: int
    end_date: date
    billing_cadence: BillingCadence
    gpu_count: int
    price: Decimal
    price_unit: PriceUnit
    currency: str
    committed_spend: Decimal | None
    prepayment: Decimal | None
    auto_renew: bool
    renewal_term_months: int | None
    notice_days: int | None
    notice_deadline: date | None
    early_termination: str | None
    snapshot: dict[str, Any] = field(hash=False)
    accepted_on: date | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class IncidentRow:
    id: int
    version: int
    contract_id: int
    started_at: datetime
    ended_at: datetime | None
    affected_gpus: int | None
    affected_nodes: int | None
    description: str
    credit_claimed: bool
    credit_received: Decimal | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class InvoiceRow:
    id: int
    version: int
    contract_id: int
    period_start: date
    period_end: date
    amount: Decimal
    currency: str
    issued_on: date | None
    reference: str | None
    paid: bool
    note: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SignedContract:
    """A contract with what the views show beside it: its provider, its offer's name and node size."""

    contract: ContractRow
    provider: str
    offer: str
    gpus_per_node: int


_CONTRACTS = (
    "SELECT c.id, c.version, c.offer_id, c.revision_id, c.reference, c.signed_date, c.start_date, c.term_months, "
    "c.end_date, c.billing_cadence, c.gpu_count, c.price, c.price_unit, c.currency, c.committed_spend, "
    "c.prepayment, c.auto_renew, c.renewal_term_months, c.notice_days, c.notice_deadline, c.early_termination, "
    "c.snapshot, c.accepted_on, c.created_at, p.name, o.name, o.gpus_per_node "
    "FROM contract c JOIN offer o ON o.id = c.offer_id JOIN provider p ON p.id = o.provider_id"
)


def signed_contracts(reader: Reader, contract_id: int | None = None) -> list[SignedContract]:
    """Every contract (or the one with ``contract_id``), by start date."""
    where, params = ("", {}) if contract_id is None else (" WHERE c.id = :id", {"id": contract_id})
    day, money = reader.day, reader.money
    found = []
    for r in reader.rows(_CONTRACTS + where + " ORDER BY c.start_date, c.id", params):
        row = ContractRow(
            r[0], r[1], r[2], r[3], r[4], day(r[5]), day(r[6]), r[7], day(r[8]),  # type: ignore[arg-type]
            BillingCadence.stored(r[9], f"contract #{r[0]}, billing_cadence"), r[10], money(r[11]),
            PriceUnit.stored(r[12], f"contract #{r[0]}, price_unit"), r[13], money(r[14]),  # type: ignore[arg-type]
            money(r[15]), bool(r[16]), r[17], r[18], day(r[19]), r[20], stored_json(r[21]), day(r[22]),
            reader.when(r[23]),  # type: ignore[arg-type]
        )  # fmt: skip
        found.append(SignedContract(row, r[24], r[25], r[26]))
    return found


def _of(contract_id: int | None) -> tuple[str, dict[str, Any]]:
    return ("", {}) if contract_id is None else (" WHERE contract_id = :id", {"id": contract_id})


def amendments_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[Amendment]]:
    """The amendments of each contract (or of the one with ``contract_id``), in the order they were recorded."""
    found: dict[int, list[Amendment]] = defaultdict(list)
    where, params = _of(contract_id)
    for r in reader.rows(
        "SELECT contract_id, seq, effective, reason, recorded_by, changes FROM contract_amendment" + where
        + " ORDER BY contract_id, seq",
        params,
    ):  # fmt: skip
        found[r[0]].append(Amendment(r[1], reader.day(r[2]), r[3], r[4], stored_json(r[5])))  # type: ignore[arg-type]
    return found


def incidents_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[IncidentRow]]:
    """The incidents of each contract (or of the one with ``contract_id``), by start."""
    when = reader.when
    found: dict[int, list[IncidentRow]] = defaultdict(list)
    where, params = _of(contract_id)
    for r in reader.rows(
        "SELECT id, version, contract_id, started_at, ended_at, affected_gpus, affected_nodes, description, "
        "credit_claimed, credit_received, created_at FROM incident" + where + " ORDER BY started_at, id",
        params,
    ):
        found[r[2]].append(
            IncidentRow(r[0], r[1], r[2], when(r[3]), when(r[4]), r[5], r[6], r[7], bool(r[8]), reader.money(r[9]),  # type: ignore[arg-type]
                        when(r[10]))  # type: ignore[arg-type]
        )  # fmt: skip
    return found


def invoices_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[InvoiceRow]]:
    """The invoices of each contract (or of the one with ``contract_id``), by period."""
    day = reader.day
    found: dict[int, list[InvoiceRow]] = defaultdict(list)
    where, params = _of(contract_id)
    for r in reader.rows(
        "SELECT id, version, contract_id, period_start, period_end, amount, currency, issued_on, reference, paid, "
        "note, created_at FROM invoice" + where + " ORDER BY period_start, id",
        params,
    ):
        found[r[2]].append(
            InvoiceRow(r[0], r[1], r[2], day(r[3]), day(r[4]), reader.money(r[5]), r[6], day(r[7]), r[8], bool(r[9]),  # type: ignore[arg-type]
                       r[10], reader.when(r[11]))  # type: ignore[arg-type]
        )  # fmt: skip
    return found


OPEN = (OfferStatus.DRAFT, OfferStatus.REQUESTED, OfferStatus.QUOTED, OfferStatus.NEGOTIATING)
"""An offer still being discussed: its quote's valid-until day is a key date."""


def open_quotes(reader: Reader) -> list[tuple[int, str, str, date]]:
    """(offer id, provider, offer name, valid until) of every open quote with a valid-until day, by offer id.
    Read as every quote not known to be closed: a status another program wrote is refused by name, never taken
    for a closed one (its expiry would drop out of the key dates in silence)."""
    clause, params = in_list("s", [s.value for s in OfferStatus if s not in OPEN])
    found = []
    for i, provider, name, until, status in reader.rows(
        "SELECT o.id, p.name, o.name, o.valid_until, o.status FROM offer o JOIN provider p ON p.id = o.provider_id "
        f"WHERE o.valid_until IS NOT NULL AND o.status NOT IN {clause} ORDER BY o.id",
        params,
    ):
        OfferStatus.stored(status, f"offer #{i}, status")
        found.append((i, provider, name, reader.day(until)))
    return found  # type: ignore[return-value]


__all__ = [
    "OPEN",
    "ContractRow",
    "IncidentRow",
    "InvoiceRow",
    "SignedContract",
    "incidents_of",
    "invoices_of",
    "open_quotes",
    "signed_contracts",
]
