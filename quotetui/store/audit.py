"""The audit trail: every change to the records a buyer relies on — offers and their rounds, prices, discounts,
extras and SLA, contracts, their amendments, incidents, invoices and acceptance waivers, evidence, settings and
exchange rates — is written to ``change_log`` in the same transaction, whichever front end made it.

* **What**: an ORM flush listener (beside the row versions of ``store/versions.py``) compares each row's
  columns before and after; bulk inserts (an import's rounds and prices) are recorded by :func:`record_added`.
* **Who**: the database role on PostgreSQL (``current_user``), else the operating-system user.
* **From where**: the front end (``cli: quotetui offer edit``, ``tui``) and the file being read
  (``import offers.xlsx``), as ``store/origin.py`` says.
* **When**: UTC, to the microsecond.

Rows deleted by the database's own ``ON DELETE CASCADE`` are covered by their parent's removal.
"""

from __future__ import annotations

import getpass
import json
import re
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, UOWTransaction

from quotetui.domain.economics.exact import share_text
from quotetui.domain.enums import ChangeAction, Choice
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, NP_, _
from quotetui.language.lists import aside
from quotetui.store.keys import ASSUMPTION_PREFIX
from quotetui.store.origin import via

if TYPE_CHECKING:
    from quotetui.domain.fields import Field

TRACKED = {
    "provider": NP_("audited row", "provider"),
    "offer": NP_("audited row", "offer"),
    "quote_revision": NP_("audited row", "quote revision"),
    "revision_price": NP_("audited row", "revision price"),
    "discount": NP_("audited row", "discount"),
    "extra_cost": NP_("audited row", "extra cost"),
    "sla_term": NP_("audited row", "sla term"),
    "sla_credit_tier": NP_("audited row", "sla credit tier"),
    "contract": NP_("audited row", "contract"),
    "contract_amendment": NP_("audited row", "contract amendment"),
    "incident": NP_("audited row", "incident"),
    "invoice": NP_("audited row", "invoice"),
    "acceptance_waiver": NP_("audited row", "acceptance waiver"),
    "evidence": NP_("audited row", "evidence"),
    "benchmark_result": NP_("audited row", "benchmark result"),
    "setting": NP_("audited row", "setting"),
    "fx_rate": NP_("audited row", "fx rate"),
}
"""The tables whose every change is recorded, each with the word a history says it by (in English the table's
name spaced, as the stored subject begins: ``offer 8×H100``; :func:`table_word`)."""

SKIPPED = frozenset({"id", "version", "created_at", "updated_at", "imported_at", "raw"})
"""Columns never recorded: bookkeeping, and an evidence log's text (kept verbatim in its own row; its digest is
recorded)."""


_os_user: str | None = None


def os_user() -> str:
    global _os_user
    if _os_user is None:
        try:
            _os_user = getpass.getuser()
        except Exception:  # no user name in the environment or the password database
            _os_user = "unknown user"
    return _os_user


def who(session: Session) -> str:
    """The database role on PostgreSQL (what the server knows), else the operating-system user."""
    known = session.info.get("audit_who")
    if known is None:
        connection = session.connection()
        if connection.dialect.name == "postgresql":
            known = str(connection.execute(sa.text("SELECT current_user")).scalar())
        else:
            known = os_user()
        session.info["audit_who"] = known
    return str(known)


def plain(value: Any) -> Any:
    """A value as JSON keeps it exactly (amounts and shares as decimal text)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):  # the number, not the column's scale: 7.2000000000 and 7.2 are one rate
        return format(value.normalize(), "f") if value.is_finite() else str(value)
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else str(value.numerator)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return str(value)


def flat(key: str, value: Any) -> dict[str, Any]:
    """A value as its leaves by path: a JSON object's keys and a list's positions (``snapshot.extras.0.label``),
    so every recorded value is one plain value (bounded by its column), however large the object."""
    if isinstance(value, dict):  # an empty one has no leaves: growing from it reads as added, not as a removal
        return {p: v for name, item in value.items() for p, v in flat(f"{key}.{name}", item).items()}
    if isinstance(value, list):
        return {p: v for i, item in enumerate(value) for p, v in flat(f"{key}.{i}", item).items()}
    return {key: value}


def _diff(key: str, before: Any, after: Any) -> dict[str, list[Any]]:
    """One column's change, leaf by leaf (``flat``): only the leaves that changed."""
    old, new = flat(key, before), flat(key, after)
    return {p: [old.get(p), new.get(p)] for p in [*old, *(p for p in new if p not in old)] if old.get(p) != new.get(p)}


def _row_values(values: dict[str, Any], action: str) -> dict[str, list[Any]]:
    """An added or removed row's values, leaf by leaf (``flat``): ``[None, value]`` added, ``[value, None]``
    removed; bookkeeping columns and empty values left out."""
    changes: dict[str, list[Any]] = {}
    for key, value in values.items():
        if key in SKIPPED or value is None:
            continue
        for path, leaf in flat(key, plain(value)).items():
            changes[path] = [None, leaf] if action == ChangeAction.ADDED else [leaf, None]
    return changes


def _columns(row: Any) -> list[str]:
    return [c.key for c in sa.inspect(row).mapper.column_attrs if c.key not in SKIPPED]


def _parent(session: Session, model: str, row_id: int | None) -> Any:
    if row_id is None:
        return None
    from quotetui.store import models

    with session.no_autoflush:
        return session.get(getattr(models, model), row_id)


def links(
    session: Session, table: str, values: dict[str, Any], rounds: dict[int, int] | None = None
) -> tuple[int | None, int | None]:
    """The offer and the contract a row belongs to (either may be None); ``rounds``: round id → offer id,
    where the caller has read them already."""
    offer_id, contract_id = values.get("offer_id"), values.get("contract_id")
    if table == "offer":
        offer_id = values.get("id")
    elif table == "contract":
        contract_id = values.get("id")
    elif table == "revision_price" and rounds is not None:
        offer_id = rounds.get(values.get("revision_id") or 0)
    elif table == "revision_price":
        revision = _parent(session, "QuoteRevision", values.get("revision_id"))
        offer_id = None if revision is None else revision.offer_id
    elif table == "sla_credit_tier":
        term = _parent(session, "SlaTerm", values.get("sla_term_id"))
        offer_id = None if term is None else term.offer_id
    if contract_id is not None and offer_id is None:
        contract = _parent(session, "Contract", contract_id)
        offer_id = None if contract is None else contract.offer_id
    return offer_id, contract_id


def table_word(table: str) -> str:
    """A recorded table's word in the language in use (``offer``, ``报价``); a table not tracked, spaced."""
    return _(TRACKED[table]) if table in TRACKED else table.replace("_", " ")


_FIELDS_OF = {
    "provider": ("PROVIDER",),
    "offer": ("OFFER",),
    "quote_revision": ("ROUND", "REVISIONS"),
    "revision_price": ("PRICE",),
    "discount": ("DISCOUNT",),
    "extra_cost": ("EXTRA",),
    "sla_term": ("SLA",),
    "benchmark_result": ("CLAIM",),
    "fx_rate": ("FX",),
    "contract": ("CONTRACT", "CONTRACT_RECORD"),
    "contract_amendment": ("AMENDMENT", "AMENDMENT_RECORD"),
    "incident": ("INCIDENT",),
    "invoice": ("INVOICE",),
    "acceptance_waiver": ("WAIVER",),
}
"""The declarations (``domain/entities.py``) whose fields name a recorded table's columns, first found first."""


@cache  # a history asks it for every value of every entry; the declarations never change while running
def _field(table: str, column: str) -> Field | None:
    """The field declared for ``column`` of ``table``: the table's own entities first, then any entity's field of
    that name (``currency``, ``notes`` mean the same everywhere)."""
    from quotetui.domain import entities

    own = [getattr(entities, name) for name in _FIELDS_OF.get(table, ())]
    for entity in own:  # a field stored under another column's name (``gpus``: ``gpu_count``) is found by it
        for f in entity.fields:
            if (f.stored_as or f.name) == column:
                return f
    for entity in (*entities.ENTITIES, entities.CONTRACT):
        for f in entity.fields:
            if f.name == column:
                return f
    return None


@cache
def _choice(table: str, column: str) -> type[Choice] | None:
    """The ``Choice`` a recorded column holds the codes of (its column type says), or None."""
    from quotetui.store.models import SQLModel

    found = SQLModel.metadata.tables.get(table)
    if found is None or column not in found.c:
        return None
    enum = getattr(found.c[column].type, "enum_class", None)
    return enum if isinstance(enum, type) and issubclass(enum, Choice) else None


def column_word(table: str, column: str) -> str:
    """A recorded column as people read it, in the language in use: its field's title (``status``: ``Status``,
    ``状态``), a row's reference by the row's word (``provider_id``: ``供应商``); a column nothing declares (a
    JSON leaf, ``snapshot.extras.0.label``) as stored."""
    f = _field(table, column)
    if f is not None:  # a share's title says "%" where it is typed; its value is written with the sign
        return f.title.removesuffix("%").rstrip() if f.kind == "ratio" else f.title
    stem = _REFERENCES.get(column, column.removesuffix("_id"))
    if stem != column:
        f = _field(table, stem)
        return f.title if f is not None else table_word(stem) if stem in TRACKED else column
    return column


_REFERENCES = {"gpu_model_id": "gpu", "revision_id": "quote_revision"}
"""A column referring to another row whose field has another name than the column less its ``_id``."""
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_NUMBER_KINDS = frozenset({"int", "decimal", "money", "ratio", "rate"})


def value_word(table: str, column: str, value: Any) -> str:
    """A recorded value as people read it: a code by its word (``quoted``, ``已报价``), a row's reference as ``#1``,
    none as ``—``, yes or no in words, a number kept as text as a number (a share in %); anything else as JSON
    writes it, text in quotes, so that a value never reads as another field or entry."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int) and column.endswith("_id"):
        return f"#{value}"
    choice = _choice(table, column) if isinstance(value, str) else None
    if choice is not None:
        try:
            return choice(value).word
        except ValueError:
            pass  # a code this version does not know: as stored
    if isinstance(value, str | int) and _NUMBER.fullmatch(str(value)):  # an exact number kept as text: a number
        f = _field(table, column)
        if f is not None and f.kind == "ratio":  # a share as every form shows it: 99.9 %
            return share_text(Decimal(str(value)))
        if f is not None and f.kind in _NUMBER_KINDS:
            return str(value)
    return json.dumps(value, ensure_ascii=False)


_ORIGIN = re.compile(r"(?:cli: (?P<command>quotetui[^:]*)|(?P<front>tui|api|cli))(?:: (?P<source>.+))?", re.DOTALL)
_SOURCES = {"the demo market": N_("the demo market")}
"""What the program itself reads from (``store/origin.py: source``), stored in English."""


def via_words(origin: str) -> str:
    """Where a change came from (``store/origin.py: via``, stored in English: ``cli: quotetui demo: the demo
    market``) in the language in use: the command as typed, or the front end's word, with what was being read in
    an aside (``quotetui demo（演示市场数据）``, ``终端界面（导入 offers.xlsx）``). Another program's words as
    stored."""
    found = _ORIGIN.fullmatch(origin)
    if found is None:
        return origin
    front = found["command"] or _(_FRONT_ENDS[found["front"]])
    given = found["source"]
    if not given:
        return front
    if given in _SOURCES:
        given = _(_SOURCES[given])
    elif given.startswith("import "):
        given = _("import of {files}").format(files=given.removeprefix("import "))
    return aside(front, given)


_FRONT_ENDS = {"tui": N_("the TUI"), "api": N_("a program using quotetui"), "cli": N_("the command line")}


def _subject(table: str, values: dict[str, Any]) -> str:
    for name in ("name", "reference", "label", "key", "item", "filename"):
        if values.get(name):
            return f"{table.replace('_', ' ')} {str(values[name])[:200]}"
    if table == "quote_revision" and values.get("seq") is not None:
        return f"round {values['seq']}"
    if table == "benchmark_result" and values.get("metric") is not None:  # "claimed mfu", "verified nccl_busbw"
        return " ".join(str(getattr(values[k], "value", values[k])) for k in ("provenance", "metric") if values.get(k))
    if table == "contract_amendment" and values.get("seq") is not None:  # numbered as `contracts show` numbers it
        return f"amendment {values['seq']}"
    return table.replace("_", " ")


def _entry(session: Session, table: str, row_id: int | None, action: str, values: dict[str, Any],
           changes: dict[str, list[Any]], stamp: tuple[datetime, str, str],
           rounds: dict[int, int] | None = None) -> dict[str, Any]:  # fmt: skip
    offer_id, contract_id = links(session, table, {**values, "id": row_id}, rounds)
    at, by, where = stamp
    return {
        "at": at,
        "who": by[:200],
        "via": where[:500],
        "entity": table,
        "row_id": row_id,
        "offer_id": offer_id,
        "contract_id": contract_id,
        "action": action,
        "subject": _subject(table, values)[:300],
        "changes": changes,
    }


@sa.event.listens_for(Session, "after_flush")
def _record(session: Session, _context: UOWTransaction) -> None:
    """Every added, changed and removed tracked row of this flush, in ``change_log`` (same transaction)."""
    from quotetui.store.models import ChangeLog

    found: list[tuple[Any, str]] = [
        *((r, ChangeAction.ADDED.value) for r in session.new),
        *((r, ChangeAction.CHANGED.value) for r in session.dirty),
        *((r, ChangeAction.REMOVED.value) for r in session.deleted),
    ]
    found = [(r, a) for r, a in found if getattr(r, "__tablename__", None) in TRACKED]
    if not found:
        return
    stamp = (utcnow(), who(session), via())
    entries = []
    for row, action in found:
        table = row.__tablename__
        if table == "setting" and not row.key.startswith(ASSUMPTION_PREFIX):
            continue  # the program's own bookkeeping (data version, catalog fingerprint)
        state = sa.inspect(row)
        # read through the state's dict and ``get_history``, never ``state.attrs``: that memoizes an attribute
        # object per column pointing back at the state, a cycle that keeps every row an import wrote alive while
        # the import pauses the collector (100,000 offers: hundreds of MiB)
        loaded = state.dict
        values = {c.key: loaded.get(c.key) for c in state.mapper.column_attrs}
        if action != ChangeAction.CHANGED:
            changes = _row_values(values, action)
        else:
            changes = {}
            for key in _columns(row):
                history = sa.orm.attributes.get_history(row, key, passive=sa.orm.attributes.PASSIVE_NO_INITIALIZE)
                if history.has_changes():  # the leaves that changed (none when the value is the same number)
                    before = history.deleted[0] if history.deleted else None
                    after = history.added[0] if history.added else None
                    changes.update(_diff(key, plain(before), plain(after)))
            if not changes:
                continue
        entries.append(_entry(session, table, values.get("id"), action, values, changes, stamp))
    if entries:
        session.connection().execute(sa.insert(ChangeLog.__table__), entries)  # type: ignore[attr-defined]


def record_added(session: Session, table: str, rows: list[dict[str, Any]], ids: list[int] | None = None) -> None:
    """Rows a bulk insert added (no ORM flush sees them): one ``added`` entry each, as the listener writes."""
    if table not in TRACKED or not rows:
        return
    from quotetui.store.models import ChangeLog

    stamp = (utcnow(), who(session), via())
    rounds: dict[int, int] | None = None
    if table == "revision_price":  # their offers in one read per thousand rounds, not one per price
        wanted = sorted({int(v["revision_id"]) for v in rows})
        rounds = {}
        for i in range(0, len(wanted), 1000):
            query = sa.text("SELECT id, offer_id FROM quote_revision WHERE id IN :ids").bindparams(
                sa.bindparam("ids", expanding=True)
            )
            rounds.update((r[0], r[1]) for r in session.connection().execute(query, {"ids": wanted[i : i + 1000]}))
    entries = []
    with session.no_autoflush:
        for i, values in enumerate(rows):
            row_id = ids[i] if ids else None
            changes = _row_values(values, ChangeAction.ADDED)
            entries.append(_entry(session, table, row_id, ChangeAction.ADDED.value, values, changes, stamp, rounds))
    session.connection().execute(sa.insert(ChangeLog.__table__), entries)  # type: ignore[attr-defined]
