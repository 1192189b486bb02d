"""Writing parsed import rows into the database, matched on natural keys (provider name; provider + offer;
offer + round …), inside the caller's transaction. Every problem is collected with its place; the caller
rolls everything back if there is any."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any

from sqlmodel import Session, select

from quotetui.domain import enums as e
from quotetui.domain.errors import QuotetuiError
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.timeutil import utcnow
from quotetui.io.import_rows import Parsed, Record
from quotetui.io.problems import Problem
from quotetui.io.skypilot import MarketRows
from quotetui.services.editing import parse_credits
from quotetui.store.models import (
    BenchmarkResult,
    Discount,
    ExtraCost,
    FxRate,
    GpuModel,
    MarketPrice,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    SlaCreditTier,
    SlaTerm,
    Source,
)


@dataclass(slots=True)
class Counts:
    added: int = 0
    changed: int = 0
    unchanged: int = 0

    def __str__(self) -> str:
        return f"{self.added} added, {self.changed} changed, {self.unchanged} unchanged"


@dataclass(slots=True)
class ImportReport:
    files: list[str]
    dry_run: bool
    counts: dict[str, Counts] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = "Would import (dry run, nothing written):" if self.dry_run else "Imported:"
        out = [head] + [f"  {name}: {c}" for name, c in self.counts.items() if c.added or c.changed or c.unchanged]
        if len(out) == 1:
            out.append("  nothing: no sheet or file quotetui imports")
        out += [f"warning: {w}" for w in self.warnings]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "dry_run": self.dry_run,
            "counts": {
                k: {"added": c.added, "changed": c.changed, "unchanged": c.unchanged} for k, c in self.counts.items()
            },
            "imported": not self.dry_run,
            "warnings": [w.to_json() for w in self.warnings],
        }


def _changed(row: Any, values: dict[str, Any]) -> bool:
    """Set ``values`` on ``row``; True if anything differed."""
    differs = False
    for name, value in values.items():
        if getattr(row, name) != value:
            setattr(row, name, value)
            differs = True
    return differs


class Writer:
    def __init__(
        self, session: Session, catalog: GpuCatalog, report: ImportReport, problems: list[Problem], as_of: date
    ) -> None:
        self.session, self.catalog, self.report, self.problems, self.as_of = session, catalog, report, problems, as_of
        self.gpu_ids = {row.key: row.id for row in session.exec(select(GpuModel))}
        self.sources = {s.title: s.id for s in session.exec(select(Source))}
        self.providers = {p.name: p for p in session.exec(select(Provider))}
        offers = list(session.exec(select(Offer)))
        names = {p.id: n for n, p in self.providers.items()}
        self.offers: dict[tuple[str, str], Offer] = {}
        self.failed: set[tuple[str, str] | str] = set()  # providers and offers whose rows had problems
        for o in offers:
            self.offers.setdefault((names.get(o.provider_id, ""), o.name), o)

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

    def upsert(self, entity: str, existing: dict[Any, Any], key: Any, values: dict[str, Any], make: Any) -> None:
        """Add the row ``make(**values)`` under its natural ``key``, or update the one there; count which."""
        row = existing.get(key)
        if row is None:
            row = existing[key] = make(**values)
            self.session.add(row)
            self.tally(entity, True, False)
        else:
            self.tally(entity, False, _changed(row, values))

    def problem(self, parsed: Parsed, record: Record, column: str, reason: str) -> None:
        self.problems.append(parsed.table.where(record.row, parsed.columns.get(column), reason))

    def source(self, title: str | None, file: str) -> int | None:
        if not title:
            return None
        if title not in self.sources:
            row = Source(kind=e.SourceKind.SPREADSHEET, title=title, reference=file)
            self.session.add(row)
            self.session.flush()
            self.sources[title] = row.id
        return self.sources[title]

    def offer(self, parsed: Parsed, record: Record) -> Offer | None:
        key = (record.values["provider"], record.values["offer"])
        found = self.offers.get(key)
        if found is None and key not in self.failed and key[0] not in self.failed:
            self.problem(
                parsed, record, "offer", f"no offer {key[1]!r} of {key[0]!r} in the database or on the Offers sheet"
            )
        return found

    # -- the entities, in dependency order ------------------------------------------------------------
    def run(self, by_entity: dict[str, list[Parsed]], market: list[MarketRows]) -> None:
        for parsed in (*by_entity.get("providers", []), *by_entity.get("offers", [])):
            self.failed |= parsed.failed
        for key, step in (
            ("providers", self.providers_),
            ("offers", self.offers_),
            ("revisions", self.revisions_),
            ("discounts", self.discounts_),
            ("extras", self.extras_),
            ("sla", self.sla_),
            ("claims", self.claims_),
            ("fx", self.fx_),
        ):
            for parsed in by_entity.get(key, []):
                step(parsed)
                self.session.flush()  # the ids of new rows, for the entities that refer to them
        for rows in market:
            self.market_(rows)
        self.session.flush()

    def providers_(self, parsed: Parsed) -> None:
        for r in parsed.records:
            v = dict(r.values)
            name = v.pop("name")
            row = self.providers.get(name)
            if row is None:
                row = Provider(name=name, **v)
                self.session.add(row)
                self.providers[name] = row
                self.tally("providers", True, False)
            else:
                differs = _changed(row, v)
                if differs:
                    row.updated_at = utcnow()
                self.tally("providers", False, differs)

    def offers_(self, parsed: Parsed) -> None:
        for r in parsed.records:
            v = dict(r.values)
            provider = self.providers.get(v["provider"])
            if provider is None:
                if v["provider"] not in self.failed:
                    self.problem(
                        parsed, r, "provider", f"unknown provider {v['provider']!r}: add it on the Providers sheet"
                    )
                continue
            spec = self.catalog.get(v.pop("gpu"))
            values = {
                "gpu_model_id": self.gpu_ids[spec.key],
                "gpus_per_node": v["gpus_per_node"],
                "form_factor": v["form_factor"] or spec.form_factor,
                "nodes_available": v["nodes_available"],
                "billing_basis": v["billing_basis"],
                "status": v["status"],
                "valid_until": v["valid_until"],
                "intra_fabric": v["intra_fabric"],
                "inter_fabric": v["inter_fabric"],
                "inter_gbps_per_gpu": v["inter_gbps_per_gpu"],
                "cpu": v["cpu"],
                "ram_gb": v["ram_gb"],
                "nvme_tb": v["nvme_tb"],
                "region": v["region"],
                "stock_note": v["stock_note"],
                "lead_time_days": v["lead_time_days"],
                "bare_metal": v["bare_metal"],
                "prorata_days": v["prorata_days"],
                "is_estimate": v["is_estimate"],
                "source_id": self.source(v["source"], parsed.table.file),
                "notes": v["notes"],
            }
            if values["gpus_per_node"] < 1:
                self.problem(parsed, r, "gpus_per_node", "at least 1")
                continue
            key = (provider.name, v["offer"])
            row = self.offers.get(key)
            if row is None:
                assert provider.id is not None
                row = Offer(provider_id=provider.id, name=v["offer"], **values)
                self.session.add(row)
                self.offers[key] = row
                self.tally("offers", True, False)
            else:
                differs = _changed(row, values)
                if differs:
                    row.updated_at = utcnow()
                self.tally("offers", False, differs)

    def revisions_(self, parsed: Parsed) -> None:
        rounds: dict[tuple[int, int], list[Record]] = defaultdict(list)
        for r in parsed.records:
            offer = self.offer(parsed, r)
            if offer is None:
                continue
            v = r.values
            if v["price_high"] is not None and v["price_high"] < v["price"]:
                self.problem(parsed, r, "price_high", f"below the price {v['price']}")
                continue
            if v["unit"] is e.PriceUnit.TERM_TOTAL and v["term_months"] < 1:
                self.problem(parsed, r, "term_months", "a price for the whole term needs a term of at least 1")
                continue
            if v["round"] < 1:
                self.problem(parsed, r, "round", "rounds count from 1")
                continue
            assert offer.id is not None
            rounds[(offer.id, v["round"])].append(r)
        existing = {(rev.offer_id, rev.seq): rev for rev in self.session.exec(select(QuoteRevision))}
        options: dict[int, dict[tuple[int, e.PriceUnit], RevisionPrice]] = defaultdict(dict)
        for p in self.session.exec(select(RevisionPrice)):
            options[p.revision_id][(p.term_months, p.unit)] = p
        staged = []
        for (offer_id, seq), records in rounds.items():
            first = records[0].values
            values = {
                "mover": first["mover"],
                "quoted_at": first["quoted_at"],
                "is_estimate": first["is_estimate"],
                "note": first["note"],
                "source_id": self.source(first["source"], parsed.table.file),
            }
            rev = existing.get((offer_id, seq))
            if rev is None:
                rev = QuoteRevision(offer_id=offer_id, seq=seq, **values)
                self.session.add(rev)
                staged.append((rev, records, True, False))
            else:
                staged.append((rev, records, False, _changed(rev, values)))
        self.session.flush()  # one flush gives every new round its id
        for rev, records, added, differs in staged:
            assert rev.id is not None
            prices = options.get(rev.id, {})
            seen = set()
            for record in records:
                v = record.values
                key = (v["term_months"], v["unit"])
                if key in seen:
                    self.problem(parsed, record, "term_months", "the same term and unit twice in one round")
                    continue
                seen.add(key)
                pv = {
                    "amount": v["price"],
                    "amount_high": v["price_high"],
                    "currency": v["currency"],
                    "prepay": v["prepay"],
                    "is_estimate": v["is_estimate"],
                }
                price = prices.get(key)
                if price is None:
                    self.session.add(RevisionPrice(revision_id=rev.id, term_months=key[0], unit=key[1], **pv))
                    differs = True
                else:
                    differs = _changed(price, pv) or differs
            for key, price in prices.items():  # the sheet lists every option of the rounds it mentions
                if key not in seen:
                    self.session.delete(price)
                    differs = True
            self.tally("revisions", added, differs and not added)

    def discounts_(self, parsed: Parsed) -> None:
        existing: dict[Any, Discount] = {
            (d.offer_id, d.kind, d.min_term_months, d.min_gpus, d.requires_prepay): d
            for d in self.session.exec(select(Discount))
        }
        for r in parsed.records:
            offer = self.offer(parsed, r)
            if offer is None:
                continue
            v = r.values
            if v["rate"] is not None and v["rate"] >= 1:
                self.problem(parsed, r, "rate", "a discount below 1 (100 %)")
                continue
            key = (offer.id, v["kind"], v["min_term_months"], v["min_gpus"], v["requires_prepay"])
            values = {
                "rate": v["rate"],
                "description": v["description"],
                "source_id": self.source(v["source"], parsed.table.file),
            }
            assert offer.id is not None
            make = partial(
                Discount,
                offer_id=offer.id,
                kind=v["kind"],
                min_term_months=v["min_term_months"],
                min_gpus=v["min_gpus"],
                requires_prepay=v["requires_prepay"],
            )
            self.upsert("discounts", existing, key, values, make)

    def extras_(self, parsed: Parsed) -> None:
        existing: dict[Any, ExtraCost] = {
            (x.offer_id, x.kind, x.basis): x for x in self.session.exec(select(ExtraCost))
        }
        for r in parsed.records:
            offer = self.offer(parsed, r)
            if offer is None:
                continue
            v = r.values
            key = (offer.id, v["kind"], v["basis"])
            values = {
                "amount": v["amount"],
                "currency": v["currency"],
                "refundable": v["refundable"],
                "description": v["description"],
                "source_id": self.source(v["source"], parsed.table.file),
            }
            assert offer.id is not None
            make = partial(ExtraCost, offer_id=offer.id, kind=v["kind"], basis=v["basis"])
            self.upsert("extra costs", existing, key, values, make)

    def sla_(self, parsed: Parsed) -> None:
        existing: dict[Any, SlaTerm] = {s.offer_id: s for s in self.session.exec(select(SlaTerm))}
        tiers_of: dict[int, list[SlaCreditTier]] = defaultdict(list)
        for t in self.session.exec(select(SlaCreditTier)):
            tiers_of[t.sla_term_id].append(t)
        staged = []
        for r in parsed.records:
            offer = self.offer(parsed, r)
            if offer is None:
                continue
            v = dict(r.values)
            try:
                tiers = parse_credits(v.pop("credits"))
            except QuotetuiError as exc:
                self.problem(parsed, r, "credits", str(exc))
                continue
            for name in ("provider", "offer"):
                v.pop(name)
            v["source_id"] = self.source(v.pop("source"), parsed.table.file)
            row = existing.get(offer.id)
            if row is None:
                assert offer.id is not None
                row = existing[offer.id] = SlaTerm(offer_id=offer.id, **v)
                self.session.add(row)
                staged.append((row, tiers, True, False))
            else:
                staged.append((row, tiers, False, _changed(row, v)))
        self.session.flush()
        for row, tiers, added, differs in staged:
            assert row.id is not None
            old = tiers_of.get(row.id, [])
            if sorted((t.below, t.credit) for t in old) != sorted(tiers):
                for t in old:
                    self.session.delete(t)
                self.session.flush()
                for below, credit in tiers:
                    self.session.add(SlaCreditTier(sla_term_id=row.id, below=below, credit=credit))
                differs = True
            self.tally("SLA", added, differs and not added)

    def claims_(self, parsed: Parsed) -> None:
        existing = {
            (b.offer_id, b.provider_id, b.metric, b.source_id, b.workload, b.gpu_count): b
            for b in self.session.exec(
                select(BenchmarkResult).where(BenchmarkResult.provenance == e.Provenance.CLAIMED)
            )
        }
        for r in parsed.records:
            v = dict(r.values)
            if v["provenance"] is e.Provenance.VERIFIED:
                self.report.warnings.append(
                    parsed.table.where(
                        r.row, None, "verified results come from raw logs (`quotetui bench import`); row skipped"
                    )
                )
                continue
            offer_id = provider_id = None
            if v["offer"]:
                offer = self.offer(parsed, r)
                if offer is None:
                    continue
                offer_id, provider_id = offer.id, offer.provider_id
            elif v["provider"]:
                provider = self.providers.get(v["provider"])
                if provider is None:
                    self.problem(parsed, r, "provider", f"unknown provider {v['provider']!r}")
                    continue
                provider_id = provider.id
            conditions = None
            if v["compared"]:
                ids = []
                for item in v["compared"].split(";"):
                    provider_name, _, offer_name = (part.strip() for part in item.partition("/"))
                    compared = self.offers.get((provider_name, offer_name))
                    if compared is None:
                        self.problem(parsed, r, "compared", f"no offer {offer_name!r} of {provider_name!r}")
                        break
                    ids.append(compared.id)
                else:
                    conditions = json.dumps({"compared_offer_ids": ids})
                if conditions is None:
                    continue
            source_id = self.source(v["source"], parsed.table.file)
            values = {
                "value": v["value"],
                "value_high": v["value_high"],
                "unit": v["unit"],
                "qualifier": v["qualifier"] or "",
                "gpu_model_id": self.gpu_ids[v["gpu"]] if v["gpu"] else None,
                "model_params": v["model_params"],
                "tokens": v["tokens"],
                "flops": v["flops"],
                "claimed_mfu": v["claimed_mfu"],
                "dtype": v["dtype"],
                "quote": v["quote"],
                "conditions": conditions,
            }
            key = (offer_id, provider_id, v["metric"], source_id, v["workload"], v["gpu_count"])
            make = partial(
                BenchmarkResult,
                offer_id=offer_id,
                provider_id=provider_id,
                provenance=e.Provenance.CLAIMED,
                metric=v["metric"],
                source_id=source_id,
                workload=v["workload"],
                gpu_count=v["gpu_count"],
            )
            self.upsert("claims", existing, key, values, make)

    def fx_(self, parsed: Parsed) -> None:
        existing = {(f.base, f.quote, f.as_of): f for f in self.session.exec(select(FxRate))}
        for r in parsed.records:
            v = r.values
            if v["base"] == v["quote"] or v["rate"] <= 0:
                self.problem(
                    parsed, r, "rate", "base and quote must be two different currencies, and the rate above zero"
                )
                continue
            key = (v["base"], v["quote"], v["as_of"])
            make = partial(FxRate, base=v["base"], quote=v["quote"], as_of=v["as_of"])
            self.upsert("FX rates", existing, key, {"rate": v["rate"], "source": v["source"]}, make)

    def market_(self, rows: MarketRows) -> None:
        source_id = self.source(f"SkyPilot catalog: {rows.catalog}", rows.file)
        existing = {
            (m.catalog, m.instance_type, m.region): m
            for m in self.session.exec(select(MarketPrice).where(MarketPrice.catalog == rows.catalog))
        }
        for item in rows.items:
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
                self.tally("market prices", True, False)
            else:
                differs = _changed(row, values)
                if differs:
                    row.as_of = self.as_of
                self.tally("market prices", False, differs)
