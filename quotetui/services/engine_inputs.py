"""Building the engine's inputs from the database: offers (in bulk), scenarios, the catalog, FX rates and the
assumptions, read as plain tuples (``store/reader.py``) and converted once, here.

Rankings read only the current round of each offer (``domain/economics/rounds.py: current_round`` says which
it is); every round only when ``history`` is asked for.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import fields as dataclass_fields
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from quotetui.domain.cancel import EVERY, check_cancelled
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.inputs import (
    DiscountTerm,
    Evidence,
    ExtraTerm,
    OfferInput,
    PriceOption,
    Revision,
    ScenarioInput,
)
from quotetui.domain.economics.rounds import current_round
from quotetui.domain.enums import (
    ProviderKind,
)
from quotetui.domain.errors import BadInput, unnamed
from quotetui.domain.fx import FxRateFact, FxTable
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.language import N_, _
from quotetui.language.lists import clauses, labelled, quoted
from quotetui.store.catalog import load_catalog_of
from quotetui.store.keys import ASSUMPTION_PREFIX
from quotetui.store.read_model import Column, Rows, fields_of
from quotetui.store.reader import Reader, in_list, session_reader

if TYPE_CHECKING:
    from sqlmodel import Session

    from quotetui.store.models import Scenario


IN_LIST_MAX = 500
"""Up to this many ids named, a query names each as a parameter; more go as one JSON array (:func:`id_filter`)."""


def id_filter(column: str, ids: list[int], sqlite: bool, name: str = "i") -> tuple[str, dict[str, Any]]:
    """``column IN (…ids)`` and its parameters, for any number of ids: a short list as parameters, a long one
    as one JSON array the database unpacks itself (SQLite ``json_each``, PostgreSQL ``json_array_elements``), so
    naming 5,000 offers reads those 5,000, not every offer."""
    if len(ids) <= IN_LIST_MAX:
        clause, params = in_list(name, ids)
        return f"{column} IN {clause}", params
    array = json.dumps([int(i) for i in ids])
    if sqlite:
        return f"{column} IN (SELECT value FROM json_each(:{name}))", {name: array}
    return f"{column} IN (SELECT CAST(value AS INTEGER) FROM json_array_elements_text(CAST(:{name} AS JSON)))", {
        name: array
    }


def _where(column: str, ids: list[int] | None, sqlite: bool, name: str = "i") -> tuple[str, dict[str, Any]]:
    if ids is None:
        return "", {}
    clause, params = id_filter(column, ids, sqlite, name)
    return f" WHERE {clause}", params


UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/Universal", "Etc/Zulu", "UCT", "Etc/UCT", "Universal", "Zulu"})


@functools.cache
def system_zone() -> str:
    """The system's own time zone by its IANA name: ``$TZ`` (``Asia/Shanghai`` or ``:Asia/Shanghai``, or a POSIX
    fixed offset such as ``CST-8``, read as ``Etc/GMT-8``: both count hours west of UTC), else the
    zone ``/etc/localtime`` links to, else ``/etc/timezone``; "UTC" when none names a zone the system knows. A
    Beijing laptop shows Beijing days without a setting."""
    from pathlib import Path
    from zoneinfo import ZoneInfo

    found: list[str] = []
    tz = os.environ.get("TZ", "").removeprefix(":").strip()
    if tz:  # a name, or a path into the zone database (TZ=/usr/share/zoneinfo/Asia/Tokyo)
        found.append(tz.split("zoneinfo/", 1)[1] if "zoneinfo/" in tz else tz)
        fixed = re.fullmatch(r"[A-Za-z]{3,}([+-]?)(\d{1,2})", tz)  # POSIX, no DST: CST-8 is 8 hours east of UTC
        if fixed and int(fixed[2]) <= 14:
            hours = int(fixed[2])
            found.append(f"Etc/GMT{'-' if fixed[1] == '-' else '+'}{hours}" if hours else "UTC")
    try:
        link = os.readlink("/etc/localtime")
        if "zoneinfo/" in link:
            found.append(link.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    with contextlib.suppress(OSError, UnicodeDecodeError):
        found.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    for name in found:
        try:
            ZoneInfo(name)
        except (ValueError, KeyError, OSError):  # ZoneInfoNotFoundError is a KeyError
            continue
        return "UTC" if name in UTC_NAMES else name
    return "UTC"


class UnreadableSettings(BadInput):
    """Stored settings this machine cannot use (a time zone its tzdata lacks, hours a month of 0 from an older
    version), each named with how to fix it."""

    def __init__(self, problems: dict[str, str]) -> None:
        from quotetui.domain import entities as E

        self.problems = problems
        flags = {f.name: "--" + f.name.replace("_", "-") for f in E.SETTINGS.fields}
        said = clauses(
            _(
                "the setting {name} ({problem}): `quotetui settings set {flag} VALUE`, or an empty value for the "
                "default"
            ).format(name=name, problem=problem, flag=flags[name])
            for name, problem in problems.items()
        )
        super().__init__(_("this database's settings cannot be used here: {problems}").format(problems=said))


def read_settings(stored: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The settings' values from their stored text, and for each one this machine cannot use, why (its
    default is taken in its place)."""
    from zoneinfo import ZoneInfo

    from quotetui.domain import entities as E  # the field declarations: not on a listing's cached path
    from quotetui.domain.economics.ownership import parse_resale_curve
    from quotetui.domain.fields import parse_value

    values: dict[str, Any] = {"time_zone": system_zone()}
    problems: dict[str, str] = {}
    for f in E.SETTINGS.fields:
        if f.name not in stored:
            continue
        try:
            value = parse_value(f, stored[f.name], percent_input=False)  # text quotetui wrote: a fraction
            if f.name == "resale_curve":
                value = parse_resale_curve(value)
            if f.name == "time_zone" and value:
                try:
                    ZoneInfo(value)
                except (ValueError, KeyError, OSError):  # ZoneInfoNotFoundError is a KeyError
                    raise BadInput(
                        _("{zone} is not a time zone this machine knows").format(zone=quoted(value))
                    ) from None
        except BadInput as exc:
            problems[f.name] = labelled(repr(stored[f.name]), unnamed(str(exc)))
            continue
        values[f.name] = Fraction(value) if isinstance(value, Decimal) else value
    return values, problems


def assumptions_from(stored: dict[str, str]) -> Assumptions:
    """The assumptions from their stored text (``setting`` rows without the prefix); the defaults for anything
    not set (the display time zone: the system's, ``system_zone``). A stored value this machine cannot use is
    :class:`UnreadableSettings`, named, never an internal error where it is used."""
    values, problems = read_settings(stored)
    if problems:
        raise UnreadableSettings(problems)
    return Assumptions(**values)


def load_assumptions_of(reader: Reader) -> Assumptions:
    rows = reader.rows('SELECT "key", value FROM setting WHERE "key" LIKE :p', {"p": ASSUMPTION_PREFIX + "%"})
    return assumptions_from({k.removeprefix(ASSUMPTION_PREFIX): v for k, v in rows if k.startswith(ASSUMPTION_PREFIX)})


def fx_day(day: date) -> date:
    """The last day whose exchange rates the figures of ``day`` may use: ``day`` itself, except for today, when
    it is today in the rates' zone (``fx.RATE_DAY_ZONE``: Beijing's day is already the next one from 16:00 UTC,
    and the rate a quote of that day converts at is published)."""
    from quotetui.domain.fx import RATE_DAY_ZONE
    from quotetui.domain.timeutil import local_day, utcnow

    now = utcnow()
    return max(day, local_day(now, RATE_DAY_ZONE)) if day == now.date() else day


def fx_table_of(reader: Reader, on: date) -> FxTable:
    """Every stored rate, as the declared FX fields read (``entities.FX``), in the order they were added."""
    rows = read_models().fx.each(reader, " ORDER BY id")
    return FxTable([FxRateFact(*r) for r in rows], on)


@functools.cache
def _scenario_rows() -> Rows:
    """A scenario as the engine reads it: every declared scenario field ``ScenarioInput`` has, by name."""
    from quotetui.domain import entities as E

    engine = {f.name for f in dataclass_fields(ScenarioInput)}
    names = tuple(f.name for f in E.SCENARIO.fields if f.name in engine and f.kind != "gpu")
    return Rows("ScenarioRow", "scenario", (*fields_of(E.SCENARIO, names), Column("gpu_model_id", "gpu_model_id")),
                "scenario", key="name")  # fmt: skip


def scenario_of(reader: Reader, name: str | None, gpus: dict[int, GpuSpec]) -> ScenarioInput | None:
    """The scenario called ``name`` (its exact name), else the default one (else the oldest); None when not
    found that way (``services/scenarios.py: find_scenario`` then decides: another spelling, or the error)."""
    rows = _scenario_rows()
    if name is None:
        found = next(rows.each(reader, " ORDER BY is_default DESC, id LIMIT 1"), None)
    else:
        found = next(rows.each(reader, " WHERE name = :name ORDER BY id LIMIT 1", {"name": name}), None)
    if found is None:
        return None
    gpu = gpus[found.gpu_model_id] if found.gpu_model_id is not None else None
    return ScenarioInput(**{k: v for k, v in found._asdict().items() if k != "gpu_model_id"}, gpu=gpu)


def _scoped(items: list[tuple[int | None, Any]], current_id: int) -> tuple[Any, ...]:
    """Fine print that applies to every round, or to the current round only."""
    return tuple(item for revision_id, item in items if revision_id is None or revision_id == current_id)


class EngineRows(NamedTuple):
    """The rows the engine reads (:func:`read_models`)."""

    round: Rows
    price: Rows
    discount: Rows
    extra: Rows
    offer: Rows
    evidence: Rows
    fx: Rows
    availability: Rows
    offer_fields: tuple[str, ...]  # the declared offer fields the engine reads, each an ``OfferInput`` attribute


@functools.cache
def read_models() -> EngineRows:
    """The rows the engine reads, as named records made from the field declarations (``store/read_model.py``):
    an offer field is read for the engine once it is declared in ``domain/entities.py`` and is an attribute of
    ``OfferInput``. Made on first use: the declarations are not on a kept listing's path."""
    from quotetui.domain import entities as E

    engine = {f.name for f in dataclass_fields(OfferInput)}
    offer_fields = tuple(f.name for f in E.OFFER.fields if f.name in engine and f.kind not in ("ref", "gpu"))
    made = EngineRows(
        Rows("RoundRow", "quote_revision",
             (Column("id", "id"), Column("offer_id", "offer_id"), Column("seq", "seq"), *fields_of(E.ROUND, ("mover",)),
              Column("quoted_at", "quoted_at"), Column("is_estimate", "is_estimate", "bool")),
             "quote_revision"),
        Rows("PriceRow", "revision_price",
             (Column("revision_id", "revision_id"),
              *fields_of(E.PRICE, ("term_months", "unit", "amount", "currency", "amount_high", "prepay")),
              Column("is_estimate", "is_estimate", "bool"), Column("note", "note", "text")),
             "revision_price of round", key="revision_id"),
        Rows("DiscountRow", "discount",
             (Column("offer_id", "offer_id"), Column("revision_id", "revision_id"), Column("id", "id"),
              *fields_of(E.DISCOUNT, ("kind", "rate", "min_term_months", "min_gpus", "requires_prepay",
                                      "description"))),
             "discount"),
        Rows("ExtraRow", "extra_cost",
             (Column("offer_id", "offer_id"), Column("revision_id", "revision_id"), Column("id", "id"),
              *fields_of(E.EXTRA, ("kind", "basis", "amount", "currency", "refundable", "description"))),
             "extra_cost"),
        Rows("OfferRow", "offer o LEFT OUTER JOIN provider p ON p.id = o.provider_id",
             (Column("id", "o.id"), Column("provider", "p.name", "text"), Column("gpu_model_id", "o.gpu_model_id"),
              Column("provider_kind", "p.kind", "choice", ProviderKind, N_("provider of {row}, kind")),
              *fields_of(E.OFFER, offer_fields, "o.")),
             "offer"),
        Rows("EvidenceRow",
             "benchmark_result b LEFT OUTER JOIN source s ON s.id = b.source_id "
             "LEFT OUTER JOIN evidence e ON e.id = b.evidence_id",
             (Column("id", "b.id"), Column("offer_id", "b.offer_id"),
              *fields_of(E.CLAIM, ("provenance", "metric", "value", "value_high"), "b."),
              Column("qualifier", "b.qualifier", "text"),  # kept as written: the audit reads its words
              *fields_of(E.CLAIM, ("workload", "gpu_count", "model_params"), "b."), Column("source_id", "b.source_id"),
              Column("title", "s.title", "text"), Column("tool", "e.tool", "text"), Column("host", "e.host", "text")),
             "benchmark_result"),
        Rows("FxRow", "fx_rate", fields_of(E.FX, ("base", "quote", "rate", "as_of", "source")), "fx_rate"),
        Rows("AvailabilityRow", "sla_term t",
             (Column("offer_id", "t.offer_id"), *fields_of(E.SLA, ("availability",), "t."),
              Column("credited", "EXISTS (SELECT 1 FROM sla_credit_tier c WHERE c.sla_term_id = t.id)", "bool")),
             "sla_term", key="offer_id"),
        offer_fields,
    )  # fmt: skip
    # the records unpack into the engine's terms in their own order: checked here, once
    assert made.price.record._fields[1:] == tuple(f.name for f in dataclass_fields(PriceOption))[:8]
    assert made.discount.record._fields[2:] == tuple(f.name for f in dataclass_fields(DiscountTerm))
    assert made.extra.record._fields[2:] == tuple(f.name for f in dataclass_fields(ExtraTerm))
    assert made.fx.record._fields == tuple(f.name for f in dataclass_fields(FxRateFact))
    return made


def offer_inputs(
    reader: Reader,
    gpus: dict[int, GpuSpec],
    offer_ids: Iterable[int] | None = None,
    *,
    history: bool = True,
) -> list[OfferInput]:
    """Every offer (or those named) with its current price options, fine print and evidence, in a handful of
    queries, read as named records (:func:`read_models`) converted once. Offers without any price are left
    out: there is nothing to compute for them yet. ``history=False`` keeps only the current round: the other
    rounds' prices are not even converted."""
    ids = None if offer_ids is None else list(offer_ids)
    wanted = None if ids is None else set(ids)
    model = read_models()

    where, params = _where("offer_id", ids, reader.sqlite)
    where_p, params_p = (
        ("", {}) if ids is None else (f" WHERE revision_id IN (SELECT id FROM quote_revision{where})", params)
    )
    priced = {p[0] for p in reader.each("SELECT revision_id FROM revision_price" + where_p, params_p)}
    rounds: dict[int, list[Any]] = {}  # offer id: every round (with ``history`` only)
    current: dict[int, Any] = {}  # offer id: its current round
    for offer_id, found_rounds in groupby(
        model.round.each(reader, where + " ORDER BY offer_id, seq", params), key=attrgetter("offer_id")
    ):  # one offer's rounds at a time: without ``history`` only its current one is kept
        rs = list(found_rounds)  # the round's mover decides which round is the price: read as a choice
        found = current_round(rs, attrgetter("mover"), lambda r: r.id in priced)
        if found is not None:
            current[offer_id] = found
        if history:
            rounds[offer_id] = rs
    priced.clear()  # 400,000 ids at 100k offers: not held through the rest
    keep = {r.id for rs in rounds.values() for r in rs} if history else {r.id for r in current.values()}
    options: dict[int, list[PriceOption]] = defaultdict(list)
    kept = model.price.position("revision_id")  # another round's prices are not even converted
    for p in model.price.each(reader, where_p + " ORDER BY term_months, id", params_p, lambda r: r[kept] in keep):
        options[p.revision_id].append(PriceOption(*p[1:]))  # the record's fields are PriceOption's, in order

    discounts: dict[int, list[tuple[int | None, DiscountTerm]]] = defaultdict(list)
    for x in model.discount.each(reader, where + " ORDER BY id", params):
        discounts[x.offer_id].append((x.revision_id, DiscountTerm(*x[2:])))  # DiscountTerm's fields, in order
    extras: dict[int, list[tuple[int | None, ExtraTerm]]] = defaultdict(list)
    for x in model.extra.each(reader, where + " ORDER BY id", params):
        extras[x.offer_id].append((x.revision_id, ExtraTerm(*x[2:])))  # ExtraTerm's fields, in order
    availability, credited = {}, set()
    where_t, params_t = _where("t.offer_id", ids, reader.sqlite)
    # an availability with a credit schedule is a promise with a remedy (``evaluate``)
    for r in model.availability.each(reader, where_t + " ORDER BY t.id", params_t):
        availability[r.offer_id] = r.availability
        if r.credited:
            credited.add(r.offer_id)
    evidence = _evidence(reader, ids)

    where_o, params_o = _where("o.id", ids, reader.sqlite)
    when = reader.when
    result = []

    def read(raw: Sequence[Any]) -> bool:  # an offer without a price, or not asked for, is not even converted
        if not raw[0] % EVERY:
            check_cancelled()  # the TUI quit while it loaded: stop reading
        return raw[0] in current and (wanted is None or raw[0] in wanted)

    assert model.offer.position("id") == 0
    for o in model.offer.each(reader, where_o + " ORDER BY o.id", params_o, read):
        oid = o.id
        found = current[oid]
        rid = found.id
        result.append(
            OfferInput(
                id=oid,
                provider=o.provider,
                gpu=gpus[o.gpu_model_id],
                options=tuple(options[rid]),
                quoted_at=when(found.quoted_at),
                round_is_estimate=found.is_estimate,
                discounts=_scoped(discounts.get(oid, []), rid),
                extras=_scoped(extras.get(oid, []), rid),
                availability=availability.get(oid),
                sla_credits=oid in credited,
                evidence=tuple(evidence.get(oid, ())),
                revisions=tuple(
                    Revision(r.seq, r.mover, when(r.quoted_at).date(), tuple(options.get(r.id, ())))  # type: ignore[union-attr]
                    for r in rounds.get(oid, ())
                ),
                provider_kind=o.provider_kind.value if o.provider_kind is not None else None,  # type: ignore[arg-type]
                **{name: getattr(o, name) for name in model.offer_fields},
            )
        )
    return result


def _evidence(reader: Reader, ids: list[int] | None) -> dict[int, list[Evidence]]:
    found: dict[int, list[Evidence]] = defaultdict(list)
    where, params = _where("b.offer_id", ids, reader.sqlite)
    s = reader.text
    for b in read_models().evidence.each(reader, where + " ORDER BY b.id", params):
        if b.offer_id is None:
            continue
        origin = b.title if b.source_id else " on ".join(x for x in (b.tool, b.host) if x) or None
        found[b.offer_id].append(
            Evidence(
                b.id,
                b.provenance,
                b.metric,
                b.value,
                b.value_high,
                b.qualifier,
                b.workload,
                s(origin),
                b.gpu_count,
                b.model_params,
            )
        )
    return found


def load_offer_inputs(
    session: Session, offer_ids: Iterable[int] | None = None, *, history: bool = True
) -> list[OfferInput]:
    """:func:`offer_inputs` read inside ``session``'s transaction."""
    reader = session_reader(session)
    _, gpus = load_catalog_of(reader)
    return offer_inputs(reader, gpus, offer_ids, history=history)


def gpu_keys(session: Session) -> dict[int, str]:
    """Catalog key of each GPU model row id."""
    from sqlmodel import select

    from quotetui.store.models import GpuModel

    return {row.id: row.key for row in session.exec(select(GpuModel)) if row.id is not None}


def scenario_input(row: Scenario, catalog: GpuCatalog, keys: dict[int, str]) -> ScenarioInput:
    return ScenarioInput(
        name=row.name,
        gpu_count=row.gpu_count,
        months=row.months,
        utilisation=row.utilisation,
        home_currency=row.home_currency,
        egress_tb_month=row.egress_tb_month,
        storage_tb=row.storage_tb,
        train_flops=row.train_flops,
        train_params=row.train_params,
        train_tokens=row.train_tokens,
        gpu=catalog.get(keys[row.gpu_model_id]) if row.gpu_model_id is not None else None,
    )


def fx_table(session: Session, on: date) -> FxTable:
    return fx_table_of(session_reader(session), on)
