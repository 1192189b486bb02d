"""``bench check`` and the findings every front end shows: the evidence on record for an offer, parsed
again from its raw text (so improved rules apply to old logs), judged against what was sold, the offer's
claims and the market price of the model."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.assumptions import HOURS_PER_MONTH
from quotetui.domain.economics.claims import Audit
from quotetui.domain.economics.display import amount_text
from quotetui.domain.economics.exact import dec, percent_text, q
from quotetui.domain.economics.inputs import OfferInput
from quotetui.domain.economics.units import to_gpu_hour
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import FxTable, MissingFxRate
from quotetui.domain.gpus import GpuCatalog
from quotetui.domain.verification.collectives import kind
from quotetui.domain.verification.findings import MIN_PEER_OFFERS, Finding, Log, MarketReference, Sold
from quotetui.domain.verification.logs import (
    AllReduce,
    Collective,
    DcgmDiag,
    GemmSweep,
    GpuBurn,
    LogError,
    NpuSmi,
    NvBandwidth,
    P2pBandwidthLatency,
    ParsedLog,
    PerftestBw,
    PerftestLat,
    RocmSmi,
    SmiList,
    SmiQuery,
    SmiTable,
    Topology,
    TrainingThroughput,
)
from quotetui.domain.verification.rules import check
from quotetui.domain.verification.scaleout import scale_out
from quotetui.language import _, ngettext
from quotetui.language.lists import aside, labelled, listed
from quotetui.services import link_summaries
from quotetui.services.claims import audit_claims
from quotetui.services.economics import resolve_context
from quotetui.services.engine_inputs import id_filter, load_assumptions_of, offer_inputs
from quotetui.services.ranking import Ranking
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import Reader, reading

if TYPE_CHECKING:
    from quotetui.services.export_ranking import ExportRanking
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class LogOnRecord:
    evidence_id: int
    label: str
    tool: str
    host: str | None
    captured_at: datetime | None
    sha256: str
    summary: str
    parsed: ParsedLog | None  # None: the stored text no longer parses (see ``summary``)

    def to_json(self) -> dict[str, Any]:
        return {
            "evidence_id": self.evidence_id,
            "log": self.label,
            "tool": self.tool,
            "host": self.host,
            "captured_at": self.captured_at.isoformat() if self.captured_at else None,
            "sha256": self.sha256,
            "summary": self.summary,
        }


def summarise(parsed: ParsedLog, sold: Sold | None = None) -> str:
    """One line on what a log shows, with the share of the sold model's peak where that applies."""
    if isinstance(parsed, SmiQuery | SmiList):
        names = parsed.gpu_names()
        counts = {n: names.count(n) for n in dict.fromkeys(names)}
        said = listed(f"{n}× {name}" for name, n in counts.items())
        if isinstance(parsed, SmiTable):
            said += " " + _("(rows elided by whoever pasted it: GPUs shown, not counted)") if parsed.elided else ""
            running = [ngettext("{n} process running", "{n} processes running", n).format(n=f"{n:,}")
                       for n in (parsed.processes,) if n]  # fmt: skip
            migs = [ngettext("GPU {gpu}: {n} MIG device", "GPU {gpu}: {n} MIG devices", k).format(gpu=g, n=f"{k:,}")
                    for g, k in parsed.mig_devices]  # fmt: skip
            said = listed([said, *running, *migs])
        return said
    if isinstance(parsed, RocmSmi):
        kinds = [d.name or _("device id {id}").format(id=d.device_id) for d in parsed.devices]
        said = listed(f"{kinds.count(k)}× {k}" for k in dict.fromkeys(kinds))
        parts = parsed.partitioned
        if parts:
            gpus = ngettext("{n} GPU", "{n} GPUs", parsed.physical).format(n=f"{parsed.physical:,}")
            said += " " + _("({n} compute partitions {partition}: {gpus})").format(
                n=len(parts), partition=parts[0].partition, gpus=gpus
            )
        return said
    if isinstance(parsed, Topology):
        kinds = sorted({k for _, _, k in parsed.links})
        return _("{n} GPUs, pairs linked by {links}").format(n=len(parsed.gpus), links=listed(kinds) or _("nothing"))
    if isinstance(parsed, AllReduce | Collective):
        return _bus_run(parsed, sold)
    if isinstance(parsed, GemmSweep):
        figure = f"{parsed.statistic_word} {parsed.tflops} TFLOPS @ {parsed.shape}"
        if not parsed.half_precision:
            return _("{figure} (a {dtype} sweep: not held to the BF16 peak)").format(figure=figure, dtype=parsed.dtype)
        if sold:
            share = percent_text(q(parsed.tflops) / q(sold.gpu.bf16_tflops), 1)
            return _("{figure} = {share} of peak").format(figure=figure, share=share)
        return figure
    if isinstance(parsed, GpuBurn):
        return _("{ok} of {gpus} GPUs OK").format(ok=len(parsed.results) - len(parsed.faulty), gpus=len(parsed.results))
    if isinstance(parsed, DcgmDiag):
        bad = parsed.not_passed()
        said = _("{passed} of {tests} tests passed").format(
            passed=len(parsed.tests) - len(bad), tests=len(parsed.tests)
        )
        return aside(said, listed(labelled(t.name, t.result) for t in bad)) if bad else said
    if isinstance(parsed, NvBandwidth):
        return link_summaries.nvbandwidth(parsed)
    if isinstance(parsed, PerftestBw):
        return link_summaries.perftest_bw(parsed, sold)
    if isinstance(parsed, PerftestLat):
        return link_summaries.perftest_lat(parsed)
    if isinstance(parsed, P2pBandwidthLatency):
        return link_summaries.p2p(parsed)
    if isinstance(parsed, TrainingThroughput):
        steps = len(parsed.steady)
        if sold:
            return _("{framework}: median {tflops} TFLOP/s per GPU over {steps} steady steps = {share} MFU").format(
                framework=parsed.framework,
                tflops=parsed.median_tflops,
                steps=steps,
                share=percent_text(q(parsed.median_tflops) / q(sold.gpu.bf16_tflops), 1),
            )
        return _("{framework}: median {tflops} TFLOP/s per GPU over {steps} steady steps").format(
            framework=parsed.framework, tflops=parsed.median_tflops, steps=steps
        )
    if isinstance(parsed, NpuSmi):
        names = parsed.gpu_names()
        said = listed(f"{names.count(n)}× {n}" for n in dict.fromkeys(names))
        bad = [f"NPU {n.index} {n.health}" for n in parsed.npus if n.health != "OK"]
        return aside(said, listed(bad)) if bad else said
    raise AssertionError(type(parsed))


def _bus_run(parsed: AllReduce | Collective, sold: Sold | None) -> str:
    """What an nccl-tests run shows, named by its collective, and which bound judged it (or why none did)."""
    large = parsed.large_message()
    what = kind(parsed.collective)
    figure = (
        _("busbw {gbs} GB/s at {size} B").format(gbs=large.busbw, size=f"{large.size:,}")
        if large
        else _("no message ≥ 128 MiB")
    )
    title = "" if isinstance(parsed, AllReduce) else labelled(aside(what.title, parsed.tool), "")
    unjudged = _("not judged against a floor: {why}").format(why=_(what.unjudged)) if what.unjudged else ""
    if not parsed.ranks_listed:
        return ngettext(
            "{title}{n} GPU per process, hosts unknown (no '# Rank' lines), {figure}: not judged",
            "{title}{n} GPUs per process, hosts unknown (no '# Rank' lines), {figure}: not judged",
            parsed.ranks,
        ).format(title=title, n=f"{parsed.ranks:,}", figure=figure)
    if len(parsed.hosts) > 1:
        run = scale_out(parsed, sold) if sold else None
        if run:
            judged = _("{figure} = {share} of the {bound} GB/s bound ({limit})").format(
                figure=figure, share=percent_text(run.share, 1), bound=dec(run.bound, 2), limit=_(run.limit)
            )
            if run.share > 1:
                judged = aside(judged, _("above it: in-network reduction, or the offer's NIC figure is wrong"))
        else:
            judged = aside(figure, unjudged or _("NIC Gb/s per GPU not recorded: not judged"))
        return _("{title}scale-out: {ranks} ranks on {hosts} hosts, {judged}").format(
            title=title, ranks=parsed.ranks, hosts=len(parsed.hosts), judged=judged
        )
    return _("{title}{ranks} ranks on 1 host, {figure}").format(
        title=title, ranks=parsed.ranks, figure=aside(figure, unjudged) if unjudged else figure
    )


def lowest_gpu_hour(offer: OfferInput, currency: str, fx: FxTable, hours_per_month: int) -> Fraction | None:
    """The offer's lowest quoted price per GPU-hour (low end of ranges), in ``currency``; None without FX."""
    prices = []
    for option in offer.options:
        per_hour = to_gpu_hour(q(option.amount), option.unit, offer.gpus_per_node, option.term_months, hours_per_month)
        try:
            prices.append(fx.convert(per_hour, option.currency, currency)[0])
        except MissingFxRate:
            return None
    return min(prices) if prices else None


def sold_as(offer: OfferInput) -> Sold:
    """What the offer says the buyer gets, as the rules judge it."""
    return Sold.of(offer.gpu, offer)


def _family(offer: OfferInput) -> str:
    return offer.gpu.name.split()[0]


@dataclass(slots=True)
class Verifier:
    """Everything the rules need for many offers, loaded once (the TUI checks every offer per load)."""

    catalog: GpuCatalog
    currency: str
    fx: FxTable
    logs: dict[int, list[LogOnRecord]] = field(default_factory=dict)
    hours_per_month: int = HOURS_PER_MONTH  # the user's assumption (settings)
    audits: dict[int, list[Audit]] = field(default_factory=dict)
    cloud: dict[str, tuple[Fraction, str]] = field(default_factory=dict)  # gpu key -> (median, basis)
    peers: dict[str, list[Fraction]] = field(default_factory=dict)  # gpu key -> every offer's lowest price
    family: dict[str, list[Fraction]] = field(default_factory=dict)

    medians: dict[str, tuple[Fraction, str] | None] = field(default_factory=dict)  # computed once per model
    prices: dict[int, Fraction | None] = field(default_factory=dict)  # each offer's lowest, computed once

    def price(self, offer: OfferInput) -> Fraction | None:
        if offer.id not in self.prices:
            self.prices[offer.id] = lowest_gpu_hour(offer, self.currency, self.fx, self.hours_per_month)
        return self.prices[offer.id]

    def _median(self, offer: OfferInput) -> tuple[Fraction, str] | None:
        """Cloud catalogs first, else the database's offers of the model, else of its family."""
        key = offer.gpu.key
        if key not in self.medians:
            peers, family = self.peers.get(key, []), self.family.get(_family(offer), [])
            if key in self.cloud:
                self.medians[key] = self.cloud[key]
            elif len(peers) > MIN_PEER_OFFERS:
                basis = _("{n} {model} offers in this database").format(n=len(peers), model=offer.gpu.name)
                self.medians[key] = statistics.median(peers), basis
            elif len(family) > MIN_PEER_OFFERS:
                basis = _("{n} {family} offers (any variant) here").format(n=len(family), family=_family(offer))
                self.medians[key] = statistics.median(family), basis
            else:
                self.medians[key] = None
        return self.medians[key]

    def reference(self, offer: OfferInput) -> MarketReference | None:
        price, median = self.price(offer), self._median(offer)
        if price is None or median is None:
            return None
        return MarketReference(price, median[0], self.currency, median[1])

    def sold(self, offer: OfferInput) -> Sold:
        return sold_as(offer)

    def findings(self, offer: OfferInput) -> list[Finding]:
        logs = [Log(r.evidence_id, r.label, r.parsed) for r in self.logs.get(offer.id, []) if r.parsed is not None]
        return check(self.sold(offer), logs, self.catalog, tuple(self.audits.get(offer.id, ())), self.reference(offer))


def _logs(reader: Reader, offer_ids: list[int] | None, sold: Sold | None = None) -> dict[int, list[LogOnRecord]]:
    """Each offer's logs, parsed again from their raw text; summaries against ``sold`` when given."""
    where, params = "", {}
    if offer_ids is not None:  # any number of offers (``rfq show``: every offer of the RFQ's models)
        clause, params = id_filter("offer_id", offer_ids, reader.sqlite, "o")
        where = f" AND {clause}"
    found: dict[int, list[LogOnRecord]] = defaultdict(list)
    for i, offer_id, filename, raw, tool, host, captured_at, sha256 in reader.rows(
        "SELECT id, offer_id, filename, raw, tool, host, captured_at, sha256 FROM evidence "
        "WHERE offer_id IS NOT NULL" + where + " ORDER BY id",
        params,
    ):
        label = filename or _("evidence #{id}").format(id=i)
        parsed: ParsedLog | None
        from quotetui.io.benchlogs.detect import parse_log  # every log parser: only once a log is on record

        try:
            parsed = parse_log(raw, label)
            summary = summarise(parsed, sold)
        except LogError as exc:
            parsed, summary = None, _("no longer readable: {error}").format(error=exc)
        found[offer_id].append(LogOnRecord(i, label, tool, host, reader.when(captured_at), sha256, summary, parsed))
    return found


def load_verifier(
    db: Database,
    offers: Iterable[OfferInput],
    currency: str,
    on: date,
    fx: FxTable,
    audits: list[Audit] | None = None,
    only: list[int] | None = None,
) -> Verifier:
    """``offers``: the market the prices are compared with; ``only``: the offers whose logs to load."""
    from quotetui.services.market_prices import market_medians

    with reading(db) as reader:
        catalog, _gpus = load_catalog_of(reader)
        logs = _logs(reader, only)
        hours = load_assumptions_of(reader).hours_per_month
    verifier = Verifier(catalog, currency, fx, logs, hours_per_month=hours)
    for a in audits if audits is not None else audit_claims(db, only):
        if a.claim.offer_id is not None:
            verifier.audits.setdefault(a.claim.offer_id, []).append(a)
    medians, _skipped = market_medians(db, currency, on, fx)
    verifier.cloud = {
        m.gpu_key: (
            m.median_gpu_hour,
            _("{n} cloud catalog listings ({catalogs})").format(n=m.listings, catalogs=listed(m.catalogs)),
        )
        for m in medians
    }
    for offer in offers:
        price = verifier.price(offer)
        if price is not None:
            verifier.peers.setdefault(offer.gpu.key, []).append(price)
            verifier.family.setdefault(_family(offer), []).append(price)
    return verifier


def offer_logs(db: Database, offer_id: int, sold: Sold) -> list[LogOnRecord]:
    """The logs on record for one offer, each summarised against what was sold."""
    with reading(db) as reader:
        return logs_on_record(reader, offer_id, sold)


def logs_on_record(reader: Reader, offer_id: int, sold: Sold | None = None) -> list[LogOnRecord]:
    """The logs on record for one offer, parsed again (``reader``: a write's session may read its own)."""
    return _logs(reader, [offer_id], sold).get(offer_id, [])


def market_findings(
    db: Database, ranking: Ranking | ExportRanking, audits: list[Audit]
) -> tuple[Verifier, dict[int, list[Finding]]]:
    """Findings for every offer of a ranking (the TUI and the export show the same ones); its offers are read
    twice (the market's prices, then each offer's findings): the export's are read again, not held."""
    assert ranking.fx is not None
    offers = ranking.offers
    verifier = load_verifier(db, offers, ranking.scenario.home_currency, ranking.on, ranking.fx, audits)
    return verifier, {o.id: verifier.findings(o) for o in offers}


@dataclass(frozen=True, slots=True)
class OfferCheck:
    offer: OfferInput
    findings: list[Finding]
    logs: list[LogOnRecord]
    reference: MarketReference | None

    def to_json(self) -> dict[str, Any]:
        ref = self.reference
        return {
            "offer_id": self.offer.id,
            "offer": f"{self.offer.provider} {self.offer.name}",
            "sold": self.offer.configuration,
            "findings": [f.to_json() for f in self.findings],
            "logs": [log.to_json() for log in self.logs],
            "market": None
            if ref is None
            else {
                "price_per_gpu_hour": amount_text(q(ref.price), ref.currency),
                "median_per_gpu_hour": amount_text(q(ref.median), ref.currency),
                "currency": ref.currency,
                "basis": ref.basis,
            },
        }


def check_offer(db: Database, offer_id: int, scenario: str | None = None, on: date | None = None) -> OfferCheck:
    """``bench check``: the findings for one offer, read in one snapshot (on SQLite without SQLAlchemy)."""
    with reading(db) as reader:
        scenario_input, fx, day = resolve_context(db, scenario, on)
        _catalog, gpus = load_catalog_of(reader)
        offers = offer_inputs(reader, gpus, history=False)
        offer = next((o for o in offers if o.id == offer_id), None)
        if offer is None:
            raise BadInput(_("no priced offer #{id} (see `quotetui offers`)").format(id=offer_id))
        verifier = load_verifier(db, offers, scenario_input.home_currency, day, fx, only=[offer_id])
        logs = offer_logs(db, offer_id, verifier.sold(offer))
    return OfferCheck(offer, verifier.findings(offer), logs, verifier.reference(offer))
