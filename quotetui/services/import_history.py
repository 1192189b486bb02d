"""The History sheet read back (``export_sheets.history`` writes it, one row per value changed): the audit
trail survives an export and an import. Each entry is kept as written — when, who, from where, each value before
and after — for the offer its provider and offer names identify here (an unknown one is a problem, as on any
sheet), and marked as imported (which file, by whom, when): it is what the workbook says happened elsewhere, not
an event of this database. An entry already on record (same time, person, origin, record, action and changes) is
not added again, so a workbook imported twice, or a trail that went out and came back, adds nothing. Row ids do
not survive an import: the entry's own and those among its values (``provider_id`` …, which would name other rows
here) are left out; it keeps its subject's name, and its contract where this database has one with that reference
on that same offer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa

from quotetui.domain.text import name_key
from quotetui.domain.timeutil import as_utc, utcnow
from quotetui.language import N_, _
from quotetui.language.lists import quoted
from quotetui.store.audit import who
from quotetui.store.models import ChangeLog, Contract

if TYPE_CHECKING:
    from sqlmodel import Session

    from quotetui.io.import_rows import Parsed, Record


class Writer(Protocol):
    """What reading the History sheet asks of the import's writer (``services/import_writer.py: Writer``)."""

    session: Session

    def rows(self, parsed: Parsed) -> Iterator[Record]: ...

    def problem(self, parsed: Parsed, record: Record, column: str | None, reason: str) -> None: ...

    def offer(self, parsed: Parsed, record: Record) -> Any: ...

    def tally(self, entity: str, added: bool, differs: bool) -> None: ...


def _own_ids(column: str) -> bool:
    """A row id of the database that wrote the entry (``provider_id``, ``snapshot.…``'s are kept): meaningless in
    another database, where the same number names another row."""
    top = column.split(".", 1)[0]
    return top == "id" or top.endswith("_id")


def _key(at: Any, by: str, via: str, entity: str, action: str, changes: Any) -> tuple[str, ...]:
    """An entry's identity across databases: ids left out (they differ in each)."""
    kept = {k: v for k, v in (changes or {}).items() if not _own_ids(k)}
    return (as_utc(at).isoformat(), by, via, entity, str(action), json.dumps(kept, sort_keys=True))


def _value(writer: Writer, parsed: Parsed, record: Record, name: str) -> tuple[bool, Any]:
    text = record.values.get(name)
    if text is None:
        return True, None
    try:
        return True, json.loads(text)
    except ValueError as exc:
        said = _("not JSON ({error}; character {position}): write text in quotes")
        writer.problem(parsed, record, name, said.format(error=exc.msg, position=exc.pos + 1))
        return False, None


def _entries(writer: Writer, parsed: Parsed) -> dict[int, list[Record]]:
    """The sheet's rows by entry, in order; rows of one entry that disagree on the entry's own columns are a
    problem (a hand edit of one of them)."""
    found: dict[int, list[Record]] = {}
    shared = ("at", "who", "via", "origin", "provider", "offer", "contract", "entity", "subject", "action")
    for r in writer.rows(parsed):
        rows = found.setdefault(r.values["entry"], [])
        if rows and any(rows[0].values.get(k) != r.values.get(k) for k in shared):
            said = _("entry {entry} says otherwise on row {row}").format(entry=r.values["entry"], row=rows[0].row)
            writer.problem(parsed, r, "entry", said)
            continue
        rows.append(r)
    return found


def history_(writer: Writer, parsed: Parsed) -> None:
    session = writer.session
    table = ChangeLog.__table__  # type: ignore[attr-defined]
    held = {_key(*row) for row in session.execute(sa.select(table.c.at, table.c.who, table.c.via, table.c.entity,
                                                            table.c.action, table.c.changes))}  # fmt: skip
    contracts = {  # a contract is the same one only on the same offer with the same reference
        (offer, name_key(ref)): cid
        for cid, offer, ref in session.execute(sa.select(Contract.id, Contract.offer_id, Contract.reference))  # type: ignore[call-overload]
        if ref
    }
    brought = f"imported from {parsed.table.file} by {who(session)} on {utcnow().isoformat(timespec='seconds')}"
    new = []
    for rows in _entries(writer, parsed).values():
        first, v = rows[0], rows[0].values
        offer_id = None
        if v.get("provider") or v.get("offer"):
            if not (v.get("provider") and v.get("offer")):
                writer.problem(parsed, first, "offer", _("an entry of an offer names its provider and the offer"))
                continue
            found = writer.offer(parsed, first)
            if found is None:
                continue
            offer_id = found.id
        changes: dict[str, list[Any]] = {}
        readable = True
        for r in rows:
            column = r.values.get("column")
            good_before, before = _value(writer, parsed, r, "before")
            good_after, after = _value(writer, parsed, r, "after")
            readable = readable and good_before and good_after
            if column and column in changes:  # one value twice in one entry: which one happened is not known
                said = _("{column} is on another row of entry {entry} too")
                writer.problem(parsed, r, "column", said.format(column=quoted(column), entry=r.values["entry"]))
                readable = False
            elif column and not _own_ids(column):  # ids of the database that wrote it name other rows here
                changes[column] = [before, after]
        if not readable:
            continue
        key = _key(v["at"], v["who"], v["via"], v["entity"], v["action"].value, changes)
        if key in held:
            writer.tally(N_("history"), False, False)
            continue
        held.add(key)
        contract = v.get("contract")
        contract_id = contracts.get((offer_id, name_key(contract))) if contract else None
        subject = v.get("subject") or ""
        if contract and contract_id is None:  # the contract is not in this database: its name stays with the entry
            subject = f"{subject} (contract {contract})"[:300]
        new.append(
            {
                "at": v["at"],
                "who": v["who"],
                "via": v["via"],
                "entity": v["entity"],
                "row_id": None,
                "offer_id": offer_id,
                "contract_id": contract_id,
                "action": v["action"].value,
                "subject": subject,
                "changes": changes,
                "origin": (v.get("origin") or brought)[:500],
            }
        )
        writer.tally(N_("history"), True, False)
    if new:
        session.execute(sa.insert(table), new)
