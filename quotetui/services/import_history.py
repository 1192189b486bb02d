"""The History sheet read back (``export_sheets.history`` writes it): the audit trail survives an export and an
import. Each entry is kept as written — when, who, from where, before and after — for the offer its provider and
offer names identify here (an unknown one is a problem, as on any sheet); an entry already on record (same time,
person, origin, record, action and changes) is not added twice. Row ids do not survive an import: an entry keeps
its subject's name, and its contract by reference where this database has that contract."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from quotetui.domain.text import name_key
from quotetui.domain.timeutil import as_utc
from quotetui.store.models import ChangeLog, Contract

if TYPE_CHECKING:
    from quotetui.services.import_writer import Parsed, Writer


def _key(at: Any, who: str, via: str, entity: str, action: str, changes: Any) -> tuple[str, ...]:
    return (as_utc(at).isoformat(), who, via, entity, str(action), json.dumps(changes or {}, sort_keys=True))


def history_(writer: Writer, parsed: Parsed) -> None:
    session = writer.session
    table = ChangeLog.__table__  # type: ignore[attr-defined]
    held = {
        _key(*row)
        for row in session.execute(
            sa.select(table.c.at, table.c.who, table.c.via, table.c.entity, table.c.action, table.c.changes)
        )
    }
    contracts = {
        name_key(ref): cid
        for cid, ref in session.execute(sa.select(Contract.id, Contract.reference))
        if ref  # type: ignore[call-overload]
    }
    new = []
    for r in writer.rows(parsed):
        v = r.values
        offer_id = None
        if v.get("provider") or v.get("offer"):
            if not (v.get("provider") and v.get("offer")):
                writer.problem(parsed, r, "offer", "an entry of an offer names its provider and the offer")
                continue
            found = writer.offer(parsed, r)
            if found is None:
                continue
            offer_id = found.id
        try:
            changes = json.loads(v["changes"]) if v.get("changes") else {}
        except ValueError as exc:
            writer.problem(parsed, r, "changes", f"not JSON ({exc.msg} at character {exc.pos})")
            continue
        if not isinstance(changes, dict):
            writer.problem(parsed, r, "changes", "a JSON object of column: [before, after] is expected")
            continue
        key = _key(v["at"], v["who"], v["via"], v["entity"], v["action"].value, changes)
        if key in held:
            writer.tally("history", False, False)
            continue
        held.add(key)
        contract = v.get("contract")
        contract_id = contracts.get(name_key(contract)) if contract else None
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
            }
        )
        writer.tally("history", True, False)
    if new:
        session.execute(sa.insert(table), new)
