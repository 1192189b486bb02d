"""Writing parsed import rows into the database, matched on natural keys (provider name; provider + offer;
offer + round …), inside the caller's transaction. Every problem is collected with its place; the caller
rolls everything back if there is any.

Absent is not empty: a column the file does not have leaves that field of an existing row as it is, and a
new row gets the field's declared default; a present, empty cell clears the field (or sets its default).
Every field changed on an existing row is reported, old and new value, so a dry run shows what would change.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, col, select

from quotetui.domain import entities as E
from quotetui.domain import enums as e
from quotetui.domain.economics.billing import basis_mend, basis_refusal
from quotetui.domain.economics.rounds import rounds_in_order
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.fields import shown_value
from quotetui.domain.fx import dated_by
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.text import name_key, on_database
from quotetui.domain.timeutil import utcnow
from quotetui.io.compared import parse_compared
from quotetui.io.import_rows import Parsed, Record
from quotetui.io.problems import Problem
from quotetui.io.skypilot import MarketRows
from quotetui.io.table_model import Table
from quotetui.language import N_, _
from quotetui.language.lists import clauses, filled, labelled, listed, quoted
from quotetui.services.import_history import history_
from quotetui.services.import_report import Counts, ImportReport
from quotetui.services.settings import (
    load_assumptions,
    local_today,
    rates_today,
    setting_text,
    store_settings,
    stored_settings,
)
from quotetui.store import audit
from quotetui.store import rows as stored_rows
from quotetui.store.models import (
    BenchmarkResult,
    Discount,
    ExtraCost,
    FxRate,
    GpuModel,
    MarketPrice,
    Offer,
    Provider,
    PurchaseOption,
    QuoteRevision,
    RevisionPrice,
    Scenario,
    SlaCreditTier,
    SlaTerm,
    Source,
)
from quotetui.store.rows import column_names

__all__ = ["Counts", "ImportReport", "Writer"]


@dataclass(slots=True)
class NewRound:
    """A round this import adds, before and after its bulk insert gives it an id (what the checks read)."""

    offer_id: int
    seq: int
    quoted_at: datetime
    id: int | None = None


def complete(model: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every other column of ``model`` at the default its constructor would give (a bulk
    insert skips the model's constructor, so its field defaults would otherwise be missing)."""
    out = dict(values)
    for name, info in model.model_fields.items():
        if name in out or name == "id" or name not in model.__table__.columns:
            continue
        if info.default_factory is not None:
            out[name] = info.default_factory()
        elif not info.is_required():
            out[name] = info.default
    return out


def in_columns(model: Any, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` in the order of ``model``'s columns: the order an ORM row's change-log entry lists them in."""
    return {c.key: values[c.key] for c in model.__table__.columns if c.key in values}


def bulk_insert(session: Session, model: Any, rows: list[dict[str, Any]], returning: bool = False) -> list[int]:
    """Insert ``rows`` (complete column values) in one executemany through SQLAlchemy Core; their new ids,
    in the order of ``rows``, when ``returning``. Same column types (and so the same stored text) as the ORM."""
    if not rows:
        return []
    table = model.__table__
    if not returning:
        session.execute(sa.insert(table), rows)
        audit.record_added(session, table.name, rows)
        return []
    statement = sa.insert(table).returning(table.c.id, sort_by_parameter_order=True)
    ids = list(session.execute(statement, rows).scalars())
    audit.record_added(session, table.name, rows, ids)
    return ids


class OfferRef(NamedTuple):
    """What the steps after the offers' read of an offer: its id and its provider's (the offers' ORM rows, 100,000
    of them in a big import, are let go once written)."""

    id: int
    provider_id: int


INSERT_CHUNK = 5_000
"""Rounds an import inserts at a time (with their prices and change-log entries)."""


class Writer:
    def __init__(
        self,
        session: Session,
        catalog: GpuCatalog,
        report: ImportReport,
        problems: list[Problem],
        as_of: date,
        tick: Callable[[], None] | None = None,
        db_named: str | None = None,
    ) -> None:
        self.session, self.catalog, self.report, self.problems, self.as_of = session, catalog, report, problems, as_of
        self.tick = tick  # called once per row written (a progress count; it may raise to roll everything back)
        self.db_named = db_named  # the database as a command names it (None: the default one): commands it proposes
        self.gpu_ids = {row.key: row.id for row in session.exec(select(GpuModel))}
        self.gpu_names = {row.id: row.name for row in session.exec(select(GpuModel))}  # what a change report shows
        self.sources = {s.title: s.id for s in session.exec(select(Source))}
        # names match by their NFKC, case-folded key: a look-alike of a known name is that name
        self.providers = {name_key(p.name): p for p in session.exec(select(Provider))}
        names = {p.id: k for k, p in self.providers.items()}
        # the stored offers as light records (an ORM row is loaded only for one the file changes)
        self.offers: dict[tuple[str, str], Any] = {}
        for o in stored_rows.stored(session, Offer):
            self.offers.setdefault((names.get(o.provider_id, ""), name_key(o.name)), o)
        self.failed: set[tuple[str, str] | str] = set()  # providers and offers whose rows had problems
        # natural keys met in this import: where first (its table, not its records: an entity's records are let go
        # once it is written)
        self.seen: dict[tuple[str, Any], tuple[Table, int]] = {}

    # -- bookkeeping ------------------------------------------------------------------------------------
    def count(self, entity: str) -> Counts:
        return self.report.counts.setdefault(entity, Counts())

    def tally(self, entity: str, added: bool, differs: bool) -> None:
        c = self.count(entity)
        if added:
            c.added += 1
        elif differs:
            c.changed += 1
        else:
            c.unchanged += 1

    def problem(self, parsed: Parsed, record: Record, column: str | None, reason: str) -> None:
        self.problems.append(parsed.table.where(record.row, parsed.columns.get(column or ""), reason))

    def once(self, parsed: Parsed, record: Record, key: Any, what: str, hint: str | None = None) -> bool:
        """False (and a problem naming both rows, then ``hint``) when another row of this import has the same
        natural key."""
        full = (parsed.entity.key, key)
        first = self.seen.get(full)
        if first is None:
            self.seen[full] = (parsed.table, record.row)
            return True
        self.again(parsed, record, first, what, hint)
        return False

    def again(
        self, parsed: Parsed, record: Record, first: tuple[Table, int], what: str, hint: str | None = None
    ) -> None:
        """The problem of a row whose natural key an earlier row (``first``: its table and row) has; ``hint``: what
        the buyer can do instead, after it."""
        other, row = first
        place = other.sheet or other.file
        if other.file != parsed.table.file:  # another file of this import: named, so both files are
            place = f"{other.file} › {other.sheet}" if other.sheet else other.file
        if other is parsed.table:
            said = _("{what} is also on row {row}: each appears once in an import")
        else:
            said = _("{what} is also on row {row} of {place}: each appears once in an import")
        said = filled(said, what=what, row=row, place=place)
        self.problem(parsed, record, None, clauses([said, hint]) if hint else said)

    def apply(self, parsed: Parsed, row: Any, label: str, values: dict[str, Any], record: Record | None = None) -> bool:
        """Set ``values`` on an existing ``row``; report each field that changes; True if any did. The entity's
        cross-field rules see the row as it would be — the stored fields the file leaves alone included (a
        new price above a stored upper bound is a problem on its row, not a refusal by the database)."""
        if record is not None and not self.fits(parsed, row, values, record):
            return False  # not applied: the import fails on these problems, the row stays valid until then
        differs = False
        for name, value in values.items():
            old = getattr(row, name)
            if old != value:
                if name == "gpu_model_id":  # reported as the GPU models it refers to, never their row ids
                    shown = (self.gpu_names.get(old) if old is not None else None, self.gpu_names.get(value))
                    gpu = next((f for f in parsed.entity.fields if f.name == "gpu"), None)
                    self.report.change(parsed.entity.sheet, label, gpu, "gpu", *shown)
                else:
                    field = next((f for f in parsed.entity.fields if f.name == name), None)
                    self.report.change(parsed.entity.sheet, label, field, name, old, value)
                setattr(row, name, value)
                differs = True
        return differs

    def fits(self, parsed: Parsed, row: Any, values: dict[str, Any], record: Record) -> bool:
        """Whether ``row`` with ``values`` set keeps the entity's cross-field rules; each broken one a problem."""
        merged = {f.name: getattr(row, f.name) for f in parsed.entity.fields if hasattr(row, f.name)} | values
        broken = parsed.entity.check(merged)
        for name, message in broken.items():
            if name in values:
                self.problem(parsed, record, name, message)
            else:
                kept = _("{problem} (the stored {field} the file leaves as it is)")
                self.problem(parsed, record, None, kept.format(problem=message, field=name.replace("_", " ")))
        return not broken

    def update(
        self,
        parsed: Parsed,
        model: Any,
        stored: Any,
        label: str,
        values: dict[str, Any],
        record: Record | None = None,
        *,
        touch: bool = False,
    ) -> bool:
        """:meth:`apply` to a stored row read as a light record (``store.rows.records``): its ORM row is loaded
        only when a value differs, so a re-import of 100,000 unchanged offers and 400,000 rounds builds none.
        ``touch``: a row that changed gets a new ``updated_at``."""
        if record is not None and not self.fits(parsed, stored, values, record):
            return False
        if all(getattr(stored, name) == value for name, value in values.items()):
            return False
        row = self.session.get(model, stored.id)
        differs = self.apply(parsed, row, label, values)
        if differs and touch:
            row.updated_at = utcnow()
        return differs

    def values(self, parsed: Parsed, record: Record, model: Any, new: bool) -> dict[str, Any]:
        """The record's values for ``model``'s columns: what the file has, and for a new row the declared
        default of every field it lacks (absent columns leave an existing row's fields as they are)."""
        columns = column_names(model)
        out = {name: value for name, value in record.values.items() if name in columns}
        if new:
            for f in parsed.entity.fields:
                if f.name in columns and f.name not in out:
                    out[f.name] = f.empty
        return out

    def source(self, parsed: Parsed, record: Record, values: dict[str, Any], new: bool) -> None:
        """``source_id`` from the record's source title, when the file has the column (or the row is new)."""
        if "source" not in record.values and not new:
            return
        title = record.values.get("source")
        if not title:
            values["source_id"] = None
            return
        if title not in self.sources:
            row = Source(kind=e.SourceKind.SPREADSHEET, title=title, reference=parsed.table.file)
            self.session.add(row)
            self.session.flush()
            self.sources[title] = row.id
        values["source_id"] = self.sources[title]

    def provider(self, name: str) -> Provider | None:
        return self.providers.get(name_key(name))

    def offer(self, parsed: Parsed, record: Record) -> Any:
        """The offer ``record`` names: a stored offer's record (``store.rows.records``) while the Offers sheets are
        written, an :class:`OfferRef` after; None (with a problem) when there is none."""
        named = (record.values["provider"], record.values["offer"])
        found = self.offers.get((name_key(named[0]), name_key(named[1])))
        if found is None and named not in self.failed and named[0] not in self.failed:
            said = _("no offer {offer} of {provider} in the database or on the Offers sheet")
            self.problem(parsed, record, "offer", said.format(offer=quoted(named[1]), provider=quoted(named[0])))
        return found

    def rows(self, parsed: Parsed) -> Iterator[Record]:
        """The table's records, each counted once it is written."""
        for record in parsed.records:
            yield record
            if self.tick is not None:
                self.tick()

    # -- the entities, in dependency order ------------------------------------------------------------
    def each(self, step: Callable[[Parsed], None]) -> Callable[[list[Parsed]], None]:
        """A step that takes one table at a time, flushing after each (later tables refer to its new rows)."""

        def tables(parsed_tables: list[Parsed]) -> None:
            for parsed in parsed_tables:
                step(parsed)
                self.session.flush()

        return tables

    def run(self, by_entity: dict[str, list[Parsed]], market: list[MarketRows]) -> None:
        for parsed in (*by_entity.get("providers", []), *by_entity.get("offers", [])):
            self.failed |= parsed.failed
        for key, step in (
            ("providers", self.each(self.providers_)),
            ("offers", self.each(self.offers_)),
            ("revisions", self.revisions_),  # a round's rows may come from several files: read together
            ("discounts", self.each(self.discounts_)),
            ("extras", self.each(self.extras_)),
            ("sla", self.each(self.sla_)),
            ("claims", self.each(self.claims_)),
            ("fx", self.each(self.fx_)),
            ("scenarios", self.each(self.scenarios_)),
            ("purchases", self.each(self.purchases_)),
            ("settings", self.each(self.settings_)),
            ("history", self.each(lambda parsed: history_(self, parsed))),
        ):
            step(by_entity.pop(key, []))  # popped: the entity's records go once it is written
            self.session.flush()  # the ids of new rows, for the entities that refer to them
            if key == "offers":  # written: the later steps read only ids
                self.offers = {k: OfferRef(o.id, o.provider_id) for k, o in self.offers.items()}
        for rows in market:
            self.market_(rows)
        self.session.flush()

    def providers_(self, parsed: Parsed) -> None:
        for r in self.rows(parsed):
            name = r.values["name"]
            if not self.once(parsed, r, name_key(name), _("provider {name}").format(name=quoted(name))):
                continue
            row = self.provider(name)
            values = self.values(parsed, r, Provider, row is None)
            if row is None:
                row = self.providers[name_key(name)] = Provider(**values)
                self.session.add(row)
                self.tally(N_("providers"), True, False)
                continue
            values.pop("name")  # the name is the row's key: a look-alike spelling does not rename it
            differs = self.apply(parsed, row, row.name, values)
            if differs:
                row.updated_at = utcnow()
            self.tally(N_("providers"), False, differs)

    def offers_(self, parsed: Parsed) -> None:
        # new offers are inserted in bulk, not as ORM rows; the changed ones are flushed once the new ones are in
        # (the change log lists a sheet's added offers, then its changed ones, as one ORM flush did)
        with self.session.no_autoflush:
            self._offers(parsed)
        self.session.flush()

    def _offers(self, parsed: Parsed) -> None:
        new: list[tuple[tuple[str, str], dict[str, Any]]] = []
        for r in self.rows(parsed):
            v = r.values
            provider = self.provider(v["provider"])
            if provider is None:
                if v["provider"] not in self.failed:
                    said = _("unknown provider {name}: add it on the Providers sheet")
                    self.problem(parsed, r, "provider", said.format(name=quoted(v["provider"])))
                continue
            key = (name_key(provider.name), name_key(v["name"]))
            what = _("offer {offer} of {provider}").format(offer=quoted(v["name"]), provider=quoted(provider.name))
            if not self.once(parsed, r, key, what):
                continue
            row = self.offers.get(key)
            assert not isinstance(row, OfferRef)  # refs replace the rows only once every Offers sheet is written
            values = self.values(parsed, r, Offer, row is None)
            if row is not None:
                values.pop("name")  # the key, as for providers
            spec = self.catalog.get(v["gpu"])
            values["gpu_model_id"] = self.gpu_ids[spec.key]
            E.offer_form_factor(values, spec.form_factor)
            self.source(parsed, r, values, row is None)
            if row is None:
                assert provider.id is not None
                new.append((key, in_columns(Offer, complete(Offer, {"provider_id": provider.id, **values}))))
                self.tally(N_("offers"), True, False)
                if len(new) == INSERT_CHUNK:
                    self.insert_offers(new)
                continue
            differs = self.update(parsed, Offer, row, f"{provider.name} / {v['name']}", values, touch=True)
            self.tally(N_("offers"), False, differs)
        self.insert_offers(new)

    def insert_offers(self, new: list[tuple[tuple[str, str], dict[str, Any]]]) -> None:
        """New offers (their keys and complete rows) inserted in one executemany, then known by id; ``new``
        emptied (a chunk at a time: 100,000 offers' rows are never all held)."""
        ids = bulk_insert(self.session, Offer, [values for _, values in new], returning=True)
        for (key, values), offer_id in zip(new, ids, strict=True):
            self.offers[key] = OfferRef(offer_id, values["provider_id"])
        new.clear()

    def revisions_(self, tables: list[Parsed]) -> None:
        """Every Negotiation table of the import at once: a round is one thing even when its options come
        from two files, so its rows must agree wherever they are."""
        rounds: dict[tuple[int, int], list[tuple[Parsed, Record]]] = defaultdict(list)
        labels: dict[int, str] = {}
        # an option appears once in an import: found among its round's rows (not in ``seen``: 400,000 keys), or
        # among the rows that did not agree with their round
        disagreed: dict[tuple[int, int, int, Any], tuple[Table, int]] = {}
        for parsed in tables:
            for r in self.rows(parsed):
                offer = self.offer(parsed, r)
                if offer is None:
                    continue
                v = r.values
                option = (v["term_months"], v["unit"])
                same = rounds[(offer.id, v["seq"])]
                first = next(
                    ((p.table, x.row) for p, x in same if (x.values["term_months"], x.values["unit"]) == option),
                    None,
                ) or disagreed.get((offer.id, v["seq"], *option))
                if first is not None:
                    what = _("round {seq}'s {months}-month {unit} price").format(
                        seq=v["seq"], months=v["term_months"], unit=v["unit"].value
                    )
                    self.again(parsed, r, first, what)
                    continue
                labels[offer.id] = f"{v['provider']} / {v['offer']}"
                if same and not self.agrees(same[0], parsed, r):
                    disagreed[(offer.id, v["seq"], *option)] = (parsed.table, r.row)
                    continue
                same.append((parsed, r))
        self.session.flush()
        # the stored rounds' keys and dates (the order check); their rows and prices are read chunk by chunk below
        t = QuoteRevision.__table__
        dates: dict[tuple[int, int], tuple[int, Any]] = {
            (o, s): (i, q)
            for o, s, i, q in self.session.execute(sa.select(t.c.offer_id, t.c.seq, t.c.id, t.c.quoted_at))
        }
        self.rounds_in_order(dates, rounds)
        # a chunk of rounds at a time: staged, the new ones and their prices inserted in bulk (executemany), not
        # built as ORM objects one by one; 400,000 rounds' values and change-log entries are never all held
        for parsed in tables:  # ``rounds`` holds the records now: each chunk's are let go once it is written
            parsed.records = []
        keys = iter(list(rounds))
        while chunk := [(k, rounds.pop(k)) for k in itertools.islice(keys, INSERT_CHUNK)]:
            staged: list[tuple[Any, list[tuple[Parsed, Record]], bool, bool, str]] = []
            new_rounds: list[dict[str, Any]] = []
            # the chunk's stored rounds and prices, as light records: ORM rows only for those the file changes
            stored_ids = [dates[k][0] for k, _ in chunk if k in dates]
            existing = {(r.offer_id, r.seq): r for r in self.stored(QuoteRevision, "id", stored_ids)}
            options: dict[int, dict[tuple[int, e.PriceUnit], Any]] = defaultdict(dict)
            for p in self.stored(RevisionPrice, "revision_id", stored_ids):
                options[p.revision_id][(p.term_months, p.unit)] = p
            # on the change log, as one ORM flush per step wrote it: the changed rounds, the added rounds, the
            # added prices, the changed prices (over 5,000 rounds: chunk by chunk)
            with self.session.no_autoflush:
                for (offer_id, seq), records in chunk:
                    parsed, first = records[0]
                    rev = existing.get((offer_id, seq))
                    values = self.round_values(parsed, first, rev is None)
                    self.source(parsed, first, values, rev is None)
                    if rev is None:  # no label: a new round's prices are new too, never reported as changes
                        new_rounds.append(complete(QuoteRevision, {"offer_id": offer_id, "seq": seq, **values}))
                        staged.append((NewRound(offer_id, seq, values["quoted_at"]), records, True, False, ""))
                    else:
                        label = _("{offer} round {seq}").format(offer=labels[offer_id], seq=seq)
                        changed = self.update(parsed, QuoteRevision, rev, label, values)
                        staged.append((rev, records, False, changed, label))
            self.session.flush()
            ids = bulk_insert(self.session, QuoteRevision, new_rounds, returning=True)
            for (rev, *_rest), new_id in zip((s for s in staged if s[2]), ids, strict=True):
                rev.id = new_id
            with self.session.no_autoflush:
                prices = self.prices_of(staged, options)
            bulk_insert(self.session, RevisionPrice, prices)
            self.session.flush()

    @staticmethod
    def round_values(parsed: Parsed, first: Record, new: bool) -> dict[str, Any]:
        """A round's own columns as its first row gives them: every one for a new round (empty where the row has
        none), only those the row has for a stored one (absent is not empty)."""
        return {
            column: first.values.get(name, parsed.entity.field(name).empty)
            for name, column in E.ROUND_COLUMNS.items()
            if name in first.values or new
        }

    def prices_of(
        self,
        staged: list[tuple[Any, list[tuple[Parsed, Record]], bool, bool, str]],
        options: dict[int, dict[tuple[int, e.PriceUnit], Any]],
    ) -> list[dict[str, Any]]:
        """The price options of ``staged`` rounds (their ids known): existing ones updated in place, new ones
        returned as complete rows to insert; each round tallied."""
        new_prices: list[dict[str, Any]] = []
        for rev, records, added, differs, label in staged:
            assert rev.id is not None
            prices = options.get(rev.id, {})
            for parsed, record in records:
                key = (record.values["term_months"], record.values["unit"])
                price = prices.get(key)
                values = self.values(parsed, record, RevisionPrice, price is None)
                option = _("{months} months, {unit}").format(months=key[0], unit=key[1].value)
                if price is None:
                    values |= {"revision_id": rev.id, "term_months": key[0], "unit": key[1]}
                    new_prices.append(complete(RevisionPrice, values))
                    if not added:
                        self.report.change(parsed.entity.sheet, label, None, _("price option"), _("(none)"), option)
                    differs = True
                else:
                    differs = (
                        self.update(parsed, RevisionPrice, price, f"{label} ({option})", values, record) or differs
                    )
            # an option the file does not list is left as it is (absent is not empty): a sheet that adds one
            # option to a round must not delete the others; an option is removed in the round's form
            self.tally(N_("revisions"), added, differs and not added)
        return new_prices

    def stored(self, model: Any, column: str, values: list[Any]) -> list[Any]:
        """``model``'s stored rows whose ``column`` is one of ``values``, as light records (``store.rows.records``);
        a chunk's worth at a time (a few thousand values: far from any bound-parameter limit)."""
        return stored_rows.stored(self.session, model, model.__table__.c[column].in_(values)) if values else []

    def rounds_in_order(
        self,
        existing: dict[tuple[int, int], tuple[int, Any]],
        staged: dict[tuple[int, int], list[tuple[Parsed, Record]]],
    ) -> None:
        """Each round the import adds or changes (``staged``: its rows by (offer, seq)) is dated in the order of
        its offer's rounds (those stored and those on the sheet): the same rule as the round form and ``round add``
        (``rounds_in_order``); a round out of order is a problem on its row, and the import, all or nothing,
        writes nothing. A round's date is its first row's, else the stored one's (absent is not empty);
        ``existing``: the stored rounds' (id, date) by (offer, seq)."""
        rounds: dict[int, dict[int, Any]] = defaultdict(dict)  # offer -> seq -> quoted_at (one pass, not n²)
        for (offer_id, seq), (_id, quoted_at) in existing.items():
            rounds[offer_id][seq] = quoted_at
        dated: list[tuple[int, int, Any, Parsed, Record]] = []
        for (offer_id, seq), records in staged.items():
            parsed, first = records[0]
            stored = existing.get((offer_id, seq))
            when = self.round_values(parsed, first, stored is None).get("quoted_at", stored[1] if stored else None)
            rounds[offer_id][seq] = when
            dated.append((offer_id, seq, when, parsed, first))
        zone, today, now = load_assumptions(self.session).time_zone, local_today(self.session), utcnow()
        for offer_id, seq, when, parsed, first in dated:
            others = [(other, at) for other, at in rounds[offer_id].items() if other != seq]
            for name, message in rounds_in_order(seq, when, others, zone, today, now).items():
                self.problem(parsed, first, name, message)

    ROUND_OWN = (*E.ROUND_COLUMNS, "source")
    """The fields a round has once, whichever of its rows carries them (its source included)."""

    def agrees(self, earlier: tuple[Parsed, Record], parsed: Parsed, record: Record) -> bool:
        """A round's own fields (who moved, when, its note, its source) are one value: every row of the round
        must agree, in one file or across the files of one import."""
        first_parsed, first = earlier
        if first_parsed is not parsed:
            where = _("row {row} of {place}").format(
                row=first.row, place=first_parsed.table.sheet or first_parsed.table.file
            )
        else:
            where = _("row {row}").format(row=first.row)
        ok = True
        for name in self.ROUND_OWN:
            if name in first.values and name in record.values and first.values[name] != record.values[name]:
                f = parsed.entity.field(name)
                there, here = (shown_value(f, r.values[name], percent=True) for r in (first, record))
                said = _("round {seq} has {column} {there} on {where} but {here} here: every row of a round must agree")
                self.problem(
                    parsed,
                    record,
                    name,
                    said.format(
                        seq=record.values["seq"], column=f.column, there=quoted(there), where=where, here=quoted(here)
                    ),
                )
                ok = False
        return ok

    def refuse(self, parsed: Parsed, record: Record) -> None:
        """The entity's cross-field rules ``record`` breaks (``Record.broken``), each a problem on its row."""
        for name, message in record.broken.items():
            self.problem(parsed, record, name, message)

    def carried(self, parsed: Parsed) -> set[Any]:
        """The natural keys (offer id first) of the rows of ``parsed`` and of the tables of its entity written
        before it in this import: what the import carries, whatever it changes."""
        key_fields = parsed.entity.natural_key
        keys = {key for (entity, key) in self.seen if entity == parsed.entity.key}
        for r in parsed.records:
            offer = self.offers.get(
                (name_key(str(r.values.get("provider", ""))), name_key(str(r.values.get("offer", ""))))
            )
            if offer is not None:
                keys.add((offer.id, *(r.values.get(f, parsed.entity.field(f).empty) for f in key_fields)))
        return keys

    def changes_refused(self, parsed: Parsed, record: Record, changed: list[str]) -> None:
        """A row that changes the fields ``changed`` of a stored row that breaks the entity's rules: each broken rule
        a problem on its column, naming the columns the row changes (the cells the buyer edited)."""
        cells = [
            parsed.table.where(record.row, parsed.columns[c]).column
            for c in (name.removesuffix("_id") if name.endswith("_id") else name for name in changed)
            if c in parsed.columns
        ]
        said = _(
            "this row changes {cells} of the stored {what}, but {problem}; correct {column} too, or leave the row "
            "as exported"
        )
        for name, message in record.broken.items():
            column = parsed.columns.get(name)
            cell = parsed.table.where(record.row, column).column if column is not None else name.replace("_", " ")
            self.problem(
                parsed,
                record,
                name,
                said.format(cells=listed(cells), what=_(parsed.entity.one), problem=message, column=cell),
            )

    def taken(self, stale: Any, named: str, taken: list[Any]) -> str:
        """Why the stored extra cost ``stale`` cannot be corrected into a row (``named``: its key in words) that
        the offer or the import has already, and the commands that correct it instead (``taken``: the bases of
        its kind the offer has), on this database (``text.on_database``)."""
        kind = e.ExtraKind(stale.kind)
        said = _("extra cost #{id} ({kind}, {basis}) cannot become a second {key} row of the offer").format(
            id=stale.id, kind=kind.spaced, basis=e.ExtraBasis(stale.basis).spaced, key=named
        )
        mend = on_database(basis_mend(stale.id, kind, taken), self.db_named)
        remove = on_database(f"quotetui extra remove {stale.id}", self.db_named)
        if mend == remove:  # not its amount added to that row's: their bases bill different quantities
            how = _("remove it once that row prices what it charged: `{remove}`").format(remove=remove)
        else:
            how = _("remove it once that row prices what it charged (`{remove}`), or correct its basis: `{edit}`")
            how = how.format(remove=remove, edit=mend)
        return labelled(said, how)

    def _keyed(self, parsed: Parsed, model: Any, entity: str, *, corrects: bool = False) -> None:
        """Discounts and extra costs: an offer's row per natural key (``Entity.natural_key``; the key's fields
        absent count as empty). A row that breaks the entity's rules is refused, unless it matches a stored row
        and changes nothing of it (the buyer's own export of a row an older version stored): nothing is entered,
        so it is kept as stored, with a warning saying what is wrong with it.

        ``corrects`` (extra costs): a row whose key is not stored corrects the offer's one stored row of its kind
        on a basis the kind is not charged on, when the import does not carry that row's own key (the buyer
        changed its basis in the workbook): that row changes, its id kept, rather than a second one billing the
        same cost on another basis. A row that cannot be that correction (its new key is taken) is refused with
        the commands that correct the stored row."""
        key_fields = parsed.entity.natural_key
        existing: dict[Any, Any] = {
            (x.offer_id, *(getattr(x, f) for f in key_fields)): x for x in stored_rows.stored(self.session, model)
        }
        carried = self.carried(parsed) if corrects else set()
        # the stored extra costs on a basis their kind is not charged on (``billing.basis_refusal``), by offer and
        # kind: what an imported row of that kind may be the correction of
        disagreeing: dict[Any, list[Any]] = defaultdict(list)
        for k in existing if corrects else ():
            if basis_refusal(k[1], k[2]) is not None:
                disagreeing[k[:2]].append(k)
        for r in self.rows(parsed):
            offer = self.offer(parsed, r)
            if offer is None:
                self.refuse(parsed, r)
                continue
            parts = tuple(r.values.get(f, parsed.entity.field(f).empty) for f in key_fields)
            key = (offer.id, *parts)
            named = " / ".join(str(getattr(p, "value", p)) for p in parts)
            # a stored one the import does not carry (a row the file keeps is not the one it corrects)
            stale = [existing[k] for k in disagreeing.get(key[:2], ()) if k in existing and k not in carried]
            hint = None
            if stale:
                taken = [k[2] for k in existing if k[:2] == key[:2]]
                hint = clauses(self.taken(x, named, taken) for x in stale)
            if not self.once(parsed, r, key, _("the {key} row").format(key=named), hint):
                self.refuse(parsed, r)
                continue
            row = existing.get(key)
            if row is None and len(stale) == 1:  # the stored row corrected: it moves to its new key
                row = stale[0]
                del existing[(row.offer_id, *(getattr(row, f) for f in key_fields))]
                existing[key] = row
            values = self.values(parsed, r, model, row is None)
            self.source(parsed, r, values, row is None)
            if r.broken:
                if row is None:
                    self.refuse(parsed, r)
                    continue
                changed = [name for name, value in values.items() if getattr(row, name) != value]
                if changed:
                    self.changes_refused(parsed, r, changed)
                    continue
                kept = _("the stored {what} is kept as it is (this row changes nothing), but {problem}")
                what = _(parsed.entity.one)
                for name, message in r.broken.items():
                    self.report.warnings.append(
                        parsed.table.where(r.row, parsed.columns.get(name), kept.format(what=what, problem=message))
                    )
                self.tally(entity, False, False)
                continue
            if row is None:
                row = existing[key] = model(offer_id=offer.id, **values)
                self.session.add(row)
                self.tally(entity, True, False)
                continue
            label = (
                f"{r.values['provider']} / {r.values['offer']} {' / '.join(str(getattr(p, 'value', p)) for p in parts)}"
            )
            self.tally(entity, False, self.update(parsed, model, row, label, values, r))

    def discounts_(self, parsed: Parsed) -> None:
        self._keyed(parsed, Discount, N_("discounts"))

    def extras_(self, parsed: Parsed) -> None:
        self._keyed(parsed, ExtraCost, N_("extra costs"), corrects=True)

    def sla_(self, parsed: Parsed) -> None:
        # stored terms and tiers as light records: ORM rows only for those the file changes
        existing: dict[Any, Any] = {s.offer_id: s for s in stored_rows.stored(self.session, SlaTerm)}
        tiers_of: dict[int, list[Any]] = defaultdict(list)
        for t in stored_rows.stored(self.session, SlaCreditTier):
            tiers_of[t.sla_term_id].append(t)
        staged = []
        for r in self.rows(parsed):
            offer = self.offer(parsed, r)
            if offer is None or not self.once(parsed, r, offer.id, _("the SLA of this offer")):
                continue
            tiers = None
            if "credits" in r.values:
                try:
                    tiers = E.parse_credits(r.values["credits"])
                except QuotetuiError as exc:
                    self.problem(parsed, r, "credits", str(exc))
                    continue
            row = existing.get(offer.id)
            values = self.values(parsed, r, SlaTerm, row is None)
            self.source(parsed, r, values, row is None)
            label = f"{r.values['provider']} / {r.values['offer']}"
            if row is None:
                assert offer.id is not None
                row = existing[offer.id] = SlaTerm(offer_id=offer.id, **values)
                self.session.add(row)
                staged.append((row, tiers, True, False, label))
            else:
                staged.append((row, tiers, False, self.update(parsed, SlaTerm, row, label, values), label))
        self.session.flush()
        for row, tiers, added, differs, label in staged:
            assert row.id is not None
            old = tiers_of.get(row.id, [])
            before = sorted((t.below, t.credit) for t in old)
            if tiers is not None and before != sorted(tiers):
                if not added:
                    self.report.change(
                        "SLA", label, E.CREDITS, "credits", E.credits_text(before), E.credits_text(tiers)
                    )
                for t in old:
                    self.session.delete(self.session.get(SlaCreditTier, t.id))
                self.session.flush()
                for below, credit in tiers:
                    self.session.add(SlaCreditTier(sla_term_id=row.id, below=below, credit=credit))
                differs = True
            self.tally(N_("SLA"), added, differs and not added)

    def claims_(self, parsed: Parsed) -> None:
        # stored claims as light records: ORM rows only for those that change. A row whose provenance another
        # program changed (neither claimed nor verified) is refused by name: left out of the comparison, the
        # file's claim would be added beside it as a new one
        table = BenchmarkResult.__table__  # type: ignore[attr-defined]
        provenance, unknown = stored_rows.unknown_values(table.c.provenance)
        strange = self.session.execute(
            sa.select(table.c.id, provenance).where(unknown).order_by(table.c.id).limit(1)
        ).first()
        if strange is not None:
            e.Provenance.stored(strange[1], f"benchmark_result #{strange[0]}, provenance")
        claimed = stored_rows.stored(
            self.session, BenchmarkResult, col(BenchmarkResult.provenance) == e.Provenance.CLAIMED
        )
        existing: dict[Any, Any] = {
            (b.offer_id, b.provider_id, b.metric, b.source_id, b.workload, b.gpu_count): b for b in claimed
        }
        del claimed  # the dict holds what is used
        for r in self.rows(parsed):
            v = r.values
            if v.get("provenance") is e.Provenance.VERIFIED:
                self.report.warnings.append(
                    parsed.table.where(
                        r.row, None, _("verified results come from raw logs (`quotetui bench import`); row skipped")
                    )
                )
                continue
            offer_id = provider_id = None
            if v.get("offer"):
                offer = self.offer(parsed, r) if v.get("provider") else None
                if offer is None:
                    if not v.get("provider"):
                        self.problem(parsed, r, "provider", _("an offer's claim names the offer's provider too"))
                    continue
                offer_id, provider_id = offer.id, offer.provider_id
            elif v.get("provider"):
                provider = self.provider(v["provider"])
                if provider is None:
                    self.problem(parsed, r, "provider", _("unknown provider {name}").format(name=quoted(v["provider"])))
                    continue
                provider_id = provider.id
            values = self.values(parsed, r, BenchmarkResult, True)
            if "compared" in v:
                try:
                    pairs = parse_compared(v["compared"] or "")
                except QuotetuiError as exc:
                    self.problem(parsed, r, "compared", str(exc))
                    continue
                ids = []
                for pair in pairs:
                    compared = self.offers.get((name_key(pair[0]), name_key(pair[1])))
                    if compared is None:
                        said = _("no offer {offer} of {provider}").format(
                            offer=quoted(pair[1]), provider=quoted(pair[0])
                        )
                        self.problem(parsed, r, "compared", said)
                        break
                    ids.append(compared.id)
                else:
                    values["conditions"] = json.dumps({"compared_offer_ids": ids}) if ids else None
                if len(ids) != len(pairs):
                    continue
            if "gpu" in v:
                values["gpu_model_id"] = self.gpu_ids[v["gpu"]] if v["gpu"] else None
            values["qualifier"] = v["qualifier"].value if v.get("qualifier") else ""
            self.source(parsed, r, values, True)
            key = (offer_id, provider_id, v["metric"], values["source_id"], values["workload"], values["gpu_count"])
            if not self.once(parsed, r, key, _("the {metric} claim of this source").format(metric=v["metric"].value)):
                continue
            row = existing.get(key)
            if row is None:
                values.pop("provenance", None)
                row = existing[key] = BenchmarkResult(
                    **values, offer_id=offer_id, provider_id=provider_id, provenance=e.Provenance.CLAIMED
                )
                self.session.add(row)
                self.tally(N_("claims"), True, False)
                continue
            present = {name: values[name] for name in self.values(parsed, r, BenchmarkResult, False)}
            present |= {k: values[k] for k in ("conditions", "gpu_model_id", "qualifier") if k in values}
            present.pop("provenance", None)
            label = f"{v.get('provider') or _('market')} {v['metric'].value}"
            self.tally(N_("claims"), False, self.update(parsed, BenchmarkResult, row, label, present, r))

    def fx_(self, parsed: Parsed) -> None:
        existing = {(f.base, f.quote, f.as_of): f for f in self.session.exec(select(FxRate))}
        today = rates_today(self.session)
        for r in self.rows(parsed):
            v = r.values
            future = dated_by(v["as_of"], today)
            for name, message in future.items():
                self.problem(parsed, r, name, message)
            if future:
                continue
            key = (v["base"], v["quote"], v["as_of"])
            what = _("the {base}→{quote} rate of {day}").format(base=v["base"], quote=v["quote"], day=v["as_of"])
            if not self.once(parsed, r, key, what):
                continue
            row = existing.get(key)
            values = self.values(parsed, r, FxRate, row is None)
            if row is None:
                row = existing[key] = FxRate(**values)
                self.session.add(row)
                self.tally(N_("FX rates"), True, False)
                continue
            self.tally(N_("FX rates"), False, self.apply(parsed, row, f"{v['base']}→{v['quote']} {v['as_of']}", values))

    def _named(
        self,
        parsed: Parsed,
        model: Any,
        entity: str,
        what: str,
        columns: Callable[[dict[str, Any], dict[str, Any], Any, dict[Any, Any]], None],
    ) -> None:
        """Rows keyed by their name alone (a look-alike spelling is the same row, and does not rename it);
        ``columns`` sets what the fields do not map to by name (the GPU's row id …)."""
        existing = {name_key(x.name): x for x in self.session.exec(select(model))}
        for r in self.rows(parsed):
            v = r.values
            key = name_key(v["name"])
            if not self.once(parsed, r, key, _(what).format(name=quoted(v["name"]))):
                continue
            row = existing.get(key)
            values = self.values(parsed, r, model, row is None)
            columns(v, values, row, existing)
            if "source_id" in column_names(model):
                self.source(parsed, r, values, row is None)
            if row is None:
                existing[key] = model(**values)
                self.session.add(existing[key])
                self.tally(entity, True, False)
                continue
            values.pop("name")
            self.tally(entity, False, self.apply(parsed, row, row.name, values, r))

    def scenarios_(self, parsed: Parsed) -> None:
        """Scenarios by name; the one marked default becomes the default, every other one stops being it
        (reported as a change)."""

        marked = [r for r in parsed.records if r.values.get("default")]
        for r in marked[1:]:  # one scenario is the default: two marked is a problem, never the last one winning
            said = _("scenario {name} is marked default too (row {row}): mark one")
            self.problem(parsed, r, "default", said.format(name=quoted(marked[0].values["name"]), row=marked[0].row))

        def columns(v: dict[str, Any], values: dict[str, Any], row: Any, existing: dict[Any, Any]) -> None:
            if "gpu" in v or row is None:
                values["gpu_model_id"] = self.gpu_ids[v["gpu"]] if v.get("gpu") else None
            if "default" in v:
                values["is_default"] = bool(v["default"])
                for other in existing.values() if v["default"] else ():
                    if other is not row and other.is_default:
                        self.apply(parsed, other, other.name, {"is_default": False})

        self._named(parsed, Scenario, N_("scenarios"), N_("scenario {name}"), columns)

    def purchases_(self, parsed: Parsed) -> None:
        """Purchase options by name."""

        def columns(v: dict[str, Any], values: dict[str, Any], row: Any, existing: dict[Any, Any]) -> None:
            if "gpu" in v:
                values["gpu_model_id"] = self.gpu_ids[v["gpu"]]

        self._named(parsed, PurchaseOption, N_("purchase options"), N_("purchase option {name}"), columns)

    def settings_(self, parsed: Parsed) -> None:
        """The assumptions a workbook was made with (one row): taken by a database that has set none of its own
        (a fresh one ranks as the source did), else this database's are kept and any difference is said. A file
        whose values are the ones this database uses already (its own export) sets nothing."""
        records = list(self.rows(parsed))
        for extra in records[1:]:
            self.problem(
                parsed, extra, None, _("one row of settings (the first is row {row})").format(row=records[0].row)
            )
        if not records or len(records) > 1:
            return
        given = records[0].values
        held = load_assumptions(self.session)
        different = [
            name
            for name, value in given.items()
            if value not in (None, "") and setting_text(name, value) != setting_text(name, getattr(held, name))
        ]
        if not stored_settings(self.session) and different:  # the same values as its defaults: nothing to set
            self.tally(N_("settings"), bool(store_settings(self.session, given)), False)
            return
        self.tally(N_("settings"), False, False)
        differ = [
            _("{setting}: {here} here, {there} in the file").format(
                setting=E.SETTINGS.field(name).title,
                here=setting_text(name, getattr(held, name)),
                there=setting_text(name, given[name]),
            )
            for name in different
        ]
        if differ:
            self.report.warnings.append(
                parsed.table.where(
                    records[0].row,
                    None,
                    _(
                        "this database's settings are kept ({differences}): figures may differ from the file's; "
                        "`quotetui settings set` takes the file's"
                    ).format(differences=clauses(differ)),
                )
            )

    def market_(self, rows: MarketRows) -> None:
        source_id = self.source_title(f"SkyPilot catalog: {rows.catalog}", rows.file)
        existing = {
            (m.catalog, m.instance_type, m.region): m
            for m in self.session.exec(select(MarketPrice).where(MarketPrice.catalog == rows.catalog))
        }
        for item in rows.items:
            if self.tick is not None:
                self.tick()
            key = (rows.catalog, item.instance_type, item.region)
            values: dict[str, Any] = {
                "gpu_model_id": self.gpu_ids[item.gpu_key],
                "gpu_count": item.gpu_count,
                "vcpus": item.vcpus,
                "memory_gib": item.memory_gib,
                "price": item.price,
                "spot_price": item.spot_price,
                "currency": "USD",
                "source_id": source_id,
            }
            row = existing.get(key)
            if row is None:
                self.session.add(
                    MarketPrice(
                        catalog=rows.catalog,
                        instance_type=item.instance_type,
                        region=item.region,
                        as_of=self.as_of,
                        **values,
                    )
                )
                self.tally(N_("market prices"), True, False)
            else:
                differs = False
                for name, value in values.items():
                    if getattr(row, name) != value:
                        setattr(row, name, value)
                        differs = True
                if differs:
                    row.as_of = self.as_of
                self.tally(N_("market prices"), False, differs)

    def source_title(self, title: str, file: str) -> int | None:
        if title not in self.sources:
            row = Source(kind=e.SourceKind.SPREADSHEET, title=title, reference=file)
            self.session.add(row)
            self.session.flush()
            self.sources[title] = row.id
        return self.sources[title]
