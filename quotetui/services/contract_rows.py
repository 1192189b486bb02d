"""Contracts, their incidents, invoices and amendments as plain rows, read by name through the read model
(``store/read_model.py``): the contract views (``services/contract_view.py``) of both front ends and the export
read them without the ORM (on SQLite, without SQLAlchemy). Each row has every column of its table, by the ORM
model's names."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from quotetui.domain.contracts.amendments import Amendment
from quotetui.domain.enums import BillingCadence, Choice, OfferStatus, PriceUnit
from quotetui.language import N_, _, ngettext
from quotetui.store.read_model import Column, Read, Rows
from quotetui.store.reader import Reader, in_list


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

    @property
    def affected(self) -> str:
        """What it affected, as it was declared (GPUs or nodes), in the language in use: ``4 GPUs``, ``1 node``,
        ``all GPUs``."""
        if self.affected_gpus:
            return ngettext("{n} GPU", "{n} GPUs", self.affected_gpus).format(n=f"{self.affected_gpus:,}")
        if self.affected_nodes:
            return ngettext("{n} node", "{n} nodes", self.affected_nodes).format(n=f"{self.affected_nodes:,}")
        return _("all GPUs")

    def credit_words(self, money: Callable[[Decimal], str]) -> str:
        """Where its SLA credit stands, in the language in use (``money`` shows an amount): ``credit claimed,
        500.00 CNY received``, ``credit claimed``, ``credit not claimed``."""
        if self.credit_received is not None:
            received = self.credit_received
            if self.credit_claimed:
                return _("credit claimed, {amount} received").format(amount=money(received))
            return _("credit received {amount}").format(amount=money(received))
        return _("credit claimed") if self.credit_claimed else _("credit not claimed")


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


_BY_TYPE: dict[str, Read] = {
    "int": "int",
    "bool": "bool",
    "date": "day",
    "datetime": "when",
    "Decimal": "money",  # every amount of these tables is a scaled exact decimal
    "str": "text",
}
"""How a record's field is read, by the type it is declared with (``int | None`` as ``int``)."""


def _columns(record: type, prefix: str = "", **choices: type[Choice]) -> tuple[Column, ...]:
    """Every field of ``record`` as the column of the same name (``prefix``: the table's alias), read by its
    declared type (a JSON object for a ``dict``, a code as its ``choices``, a ``currency`` as an ISO 4217 code): a
    value another program wrote that its type cannot hold is a database problem naming the table, the row and the
    column."""
    out = []
    for f in fields(record):
        kind = str(f.type).split(" | ")[0].split("[")[0]
        if f.name in choices:
            out.append(Column(f.name, prefix + f.name, "choice", choices[f.name]))
        elif f.name == "currency":  # an ISO 4217 code, as entry takes it
            out.append(Column(f.name, prefix + f.name, "currency"))
        else:
            out.append(Column(f.name, prefix + f.name, "json" if kind == "dict" else _BY_TYPE[kind]))
    return tuple(out)


AMENDMENT_ROW = N_("amendment {seq} of contract #{contract_id}")
"""An amendment as a problem names it: numbered within its contract, as ``contracts show`` and every message number
it (no command takes its row id)."""


@functools.cache
def _rows() -> tuple[Rows, Rows, Rows, Rows]:
    """The contracts (with what the views show beside them), incidents, invoices and amendments, by name: every
    column of each table, read as its ORM model stores it (``tests/test_reads_without_orm.py`` checks the
    fields against the models)."""
    contract = _columns(ContractRow, "c.", billing_cadence=BillingCadence, price_unit=PriceUnit)
    signed = Rows(
        "SignedRow",
        "contract c JOIN offer o ON o.id = c.offer_id JOIN provider p ON p.id = o.provider_id",
        (*contract, Column("provider", "p.name", "text"), Column("offer", "o.name", "text"),
         Column("gpus_per_node", "o.gpus_per_node", "int")),
        "contract",
    )  # fmt: skip
    amendment = (Column("id", "id", "int"), Column("contract_id", "contract_id", "int"), Column("seq", "seq", "int"),
                 Column("effective", "effective", "day"), Column("reason", "reason", "text"),
                 Column("recorded_by", "recorded_by", "text"), Column("changes", "changes", "json"))  # fmt: skip
    return (
        signed,
        Rows("IncidentRow", "incident", _columns(IncidentRow), "incident", record=IncidentRow),
        Rows("InvoiceRow", "invoice", _columns(InvoiceRow), "invoice", record=InvoiceRow),
        Rows("AmendmentRow", "contract_amendment", amendment, "contract_amendment", row=AMENDMENT_ROW),
    )


CONTRACT_FIELDS = tuple(f.name for f in fields(ContractRow))


def signed_contracts(reader: Reader, contract_id: int | None = None) -> list[SignedContract]:
    """Every contract (or the one with ``contract_id``), by start date."""
    where, params = ("", {}) if contract_id is None else (" WHERE c.id = :id", {"id": contract_id})
    found = []
    for r in _rows()[0].each(reader, where + " ORDER BY c.start_date, c.id", params):
        row = ContractRow(**{name: getattr(r, name) for name in CONTRACT_FIELDS})
        found.append(SignedContract(row, r.provider, r.offer, r.gpus_per_node))
    return found


def _of(contract_id: int | None) -> tuple[str, dict[str, Any]]:
    return ("", {}) if contract_id is None else (" WHERE contract_id = :id", {"id": contract_id})


def amendments_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[Amendment]]:
    """The amendments of each contract (or of the one with ``contract_id``), in the order they were recorded."""
    found: dict[int, list[Amendment]] = defaultdict(list)
    where, params = _of(contract_id)
    for r in _rows()[3].each(reader, where + " ORDER BY contract_id, seq", params):
        found[r.contract_id].append(Amendment(r.seq, r.effective, r.reason, r.recorded_by, r.changes))
    return found


def amendments_of_one(reader: Reader, contract_id: int) -> list[Amendment]:
    """The amendments of the contract ``contract_id``, in the order they were recorded."""
    return amendments_of(reader, contract_id).get(contract_id, [])


def incidents_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[IncidentRow]]:
    """The incidents of each contract (or of the one with ``contract_id``), by start."""
    found: dict[int, list[IncidentRow]] = defaultdict(list)
    where, params = _of(contract_id)
    for row in _rows()[1].each(reader, where + " ORDER BY started_at, id", params):
        found[row.contract_id].append(row)
    return found


def invoices_of(reader: Reader, contract_id: int | None = None) -> dict[int, list[InvoiceRow]]:
    """The invoices of each contract (or of the one with ``contract_id``), by period."""
    found: dict[int, list[InvoiceRow]] = defaultdict(list)
    where, params = _of(contract_id)
    for row in _rows()[2].each(reader, where + " ORDER BY period_start, id", params):
        found[row.contract_id].append(row)
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
