"""The audit trail as a buyer reads it: what changed in an offer (its rounds, prices, terms, evidence), a
contract (amendments, incidents, invoices, waivers) or the settings — who, when, from where, before and after
(``store/audit.py`` writes it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from quotetui.domain.enums import ChangeAction, Metric, Provenance
from quotetui.domain.errors import BadInput
from quotetui.language import _
from quotetui.language.lists import labelled
from quotetui.store.audit import column_word, table_word, value_word, via_words
from quotetui.store.reader import reading, stored_json

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class Change:
    at: datetime
    who: str
    via: str
    entity: str
    row_id: int | None
    offer_id: int | None
    contract_id: int | None
    action: str
    subject: str
    changes: dict[str, list[Any]]
    origin: str | None = None  # an entry a workbook brought (not an event of this database)

    def values(self) -> list[str]:
        """Each value as one line in the language in use: ``Region: "深圳" → "乌兰察布"``, ``状态：已报价 → 谈判中``
        (an added or removed row: its values); the column by its field's title, a code by its word, other text in
        quotes, escaped as JSON, so a value never reads as another field or another entry (``audit.value_word``).
        ``--json`` keeps what is stored."""

        def shown(k: str, value: object) -> str:
            return value_word(self.entity, k, value)

        if self.action == ChangeAction.CHANGED:
            return [
                labelled(column_word(self.entity, k), f"{shown(k, b)} → {shown(k, a)}")
                for k, (b, a) in self.changes.items()
            ]
        side = 1 if self.action == ChangeAction.ADDED else 0
        return [labelled(column_word(self.entity, k), shown(k, v[side])) for k, v in self.changes.items()]

    @property
    def shown_via(self) -> str:
        """Where the change came from, in the language in use (``audit.via_words``)."""
        return via_words(self.via)

    @property
    def shown_subject(self) -> str:
        """What changed, in the language in use: the subject is stored in English (``offer 8×H100``, ``round 2``,
        ``claimed mfu``, ``amendment 1``: ``store/audit.py``), its own words (a name as typed) kept as stored."""
        table, subject = self.entity.replace("_", " "), self.subject
        if subject == table:
            return table_word(self.entity)
        if subject.startswith(table + " "):
            return _("{row} {name}").format(row=table_word(self.entity), name=subject[len(table) + 1 :])
        numbered = re.fullmatch(r"(round|amendment) (\d+)", subject)
        if numbered:
            said = _("round {n}") if numbered[1] == "round" else _("amendment {n}")
            return said.format(n=numbered[2])
        if self.entity == "benchmark_result":  # "claimed mfu": its provenance and metric
            try:
                return " ".join(
                    Provenance(w).word if w in ("claimed", "verified") else Metric(w).word for w in subject.split()
                )
            except ValueError:
                return subject
        return subject

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "who": self.who,
            "via": self.via,
            "entity": self.entity,
            "row_id": self.row_id,
            "offer_id": self.offer_id,
            "contract_id": self.contract_id,
            "action": self.action,
            "subject": self.subject,
            "changes": self.changes,
            "imported": self.origin,
        }


_COLUMNS = "at, who, via, entity, row_id, offer_id, contract_id, action, subject, changes, origin"


def history(
    db: Database, *, offer_id: int | None = None, contract_id: int | None = None, settings: bool = False
) -> list[Change]:
    """Every recorded change to one offer (and everything under it, its contracts included), one contract, or
    the settings, oldest first."""
    if sum((offer_id is not None, contract_id is not None, settings)) != 1:
        raise BadInput(_("name one offer (OFFER_ID), one contract (--contract N) or --settings"))
    if offer_id is not None:
        where, params = "offer_id = :id", {"id": offer_id}
    elif contract_id is not None:
        where, params = "contract_id = :id", {"id": contract_id}
    else:
        where, params = "entity = 'setting'", {}
    with reading(db) as reader:
        rows = reader.rows(f"SELECT {_COLUMNS} FROM change_log WHERE {where} ORDER BY at, id", params)
        found = [
            Change(reader.when(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], stored_json(r[9]), r[10])  # type: ignore[arg-type]
            for r in rows
        ]
        if not found and offer_id is not None:
            known = reader.rows("SELECT 1 FROM offer WHERE id = :id", {"id": offer_id})
            if not known:
                raise BadInput(
                    _("no offer #{id}, and none recorded in the history (see `quotetui offers`)").format(id=offer_id)
                )
        if not found and contract_id is not None:
            known = reader.rows("SELECT 1 FROM contract WHERE id = :id", {"id": contract_id})
            if not known:
                raise BadInput(_("no contract #{id}, and none recorded in the history").format(id=contract_id))
    return found
