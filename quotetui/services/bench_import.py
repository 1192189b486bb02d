"""``bench import``: raw logs become evidence for an offer (raw text, sha256, tool, host, GPU names, time)
and verified results (GEMM TFLOPS, large-message AllReduce busbw, and a training run's MFU and tokens/s per GPU).
All files are read and checked first; one bad file stores nothing. The same log imported twice for the same offer
is stored once. nvbandwidth, perftest (ib_write_bw, ib_read_bw, ib_send_bw, the _lat tools) and
p2pBandwidthLatencyTest logs, and nccl-tests runs of collectives other than AllReduce, are evidence the findings
judge; no metric stores them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from quotetui.domain.economics.claims import figure_words
from quotetui.domain.enums import Metric, Provenance
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.domain.text import on_database, one_line
from quotetui.domain.verification.collectives import kind
from quotetui.domain.verification.findings import Finding, Log, Sold, a_or_an
from quotetui.domain.verification.framework_peaks import foreign
from quotetui.domain.verification.inventory import other_model
from quotetui.domain.verification.logs import (
    AllReduce,
    Collective,
    GemmSweep,
    LogError,
    ParsedLog,
    TrainingThroughput,
)
from quotetui.domain.verification.plausible import impossible
from quotetui.domain.verification.rules import machine_not_sold, training_mfu, unnamed_on_another
from quotetui.domain.wording import plural
from quotetui.io.benchlogs.common import content_digest
from quotetui.io.benchlogs.detect import ReadLog, Section, read_log
from quotetui.io.bounded import read_bounded
from quotetui.language import _, ngettext
from quotetui.language.lists import aside, listed
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import BenchmarkResult, Evidence, Offer

MAX_LOG_BYTES = 32 * 1024 * 1024


class BenchProblems(BadInput):
    """Every file that could not be read; nothing was stored."""

    listed = True

    def __init__(self, problems: list[LogError]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        n = len(problems)
        head = ngettext(
            "{n} log cannot be imported; nothing was stored:", "{n} logs cannot be imported; nothing was stored:", n
        ).format(n=f"{n:,}")
        super().__init__(f"{head}\n{lines}")


@dataclass(frozen=True, slots=True)
class Stored:
    label: str
    tool: str
    evidence_id: int
    results: tuple[tuple[Metric, Decimal, str], ...]  # each figure stored: its metric, value and unit
    duplicate: bool = False
    not_verified: str = ""  # why a figure the log holds is kept as evidence only
    same_as: str = ""  # a duplicate's file on record

    @property
    def figures(self) -> list[str]:
        """Each figure stored, as people read it (``gemm_tflops 792.8 TFLOPS``, ``GEMM TFLOPS 792.8 TFLOPS``)."""
        return [figure_words(metric, value, unit) for metric, value, unit in self.results]

    def to_json(self) -> dict[str, Any]:
        return {
            "log": self.label,
            "tool": self.tool,
            "evidence_id": self.evidence_id,
            "results": [f"{metric.value} {value} {unit}" for metric, value, unit in self.results],
            "duplicate": self.duplicate,
            "same_as": self.same_as or None,
            "not_verified": self.not_verified or None,
        }


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """A log on record whose verified figures the logs now imported withdrew (they show another model)."""

    label: str
    evidence_id: int
    why: str

    @property
    def said(self) -> str:
        """The note the import gives (``bench import`` prints it, the TUI's import dialog shows it)."""
        said = _("- evidence #{id} {log}: its figures no longer count as verified").format(
            id=self.evidence_id, log=one_line(self.label)
        )
        return aside(said, self.why)

    def to_json(self) -> dict[str, Any]:
        return {"log": self.label, "evidence_id": self.evidence_id, "not_verified": self.why}


@dataclass(frozen=True, slots=True)
class WronglyVerified:
    """A figure on record as verified that :func:`not_verified` refuses (stored by a version before the rule, or
    before the log that shows another model was on record): ``db check`` names it; ``bench recheck`` (or the
    offer's next ``bench import``) withdraws it (``_withdraw``)."""

    offer_id: int
    evidence_id: int
    label: str
    figures: tuple[str, ...]  # each verified figure of the log, as people read it
    why: str
    given_db: str | None = None  # the ``--db`` the check was given

    @property
    def mend(self) -> str:
        """The command that withdraws it: ``bench recheck`` of its offer (the logs on record judged again, no file
        needed), on the database the check read (``--db`` as given, never a password)."""
        return recheck_command(self.offer_id, self.given_db)

    @property
    def said(self) -> str:
        found = _("offer #{offer}, evidence #{id} {log}: {figures}").format(
            offer=self.offer_id, id=self.evidence_id, log=one_line(self.label), figures=listed(self.figures)
        )
        return aside(found, self.why)

    def to_json(self) -> dict[str, Any]:
        return {
            "offer_id": self.offer_id,
            "evidence_id": self.evidence_id,
            "log": self.label,
            "figures": list(self.figures),
            "not_verified": self.why,
            "mend": self.mend,
        }


@dataclass(slots=True)
class BenchImport:
    offer_id: int
    stored: list[Stored] = field(default_factory=list)
    not_run: list[str] = field(default_factory=list)
    withdrawn: list[Withdrawn] = field(default_factory=list)

    @property
    def added(self) -> list[Stored]:
        return [s for s in self.stored if not s.duplicate]

    @property
    def summary(self) -> str:
        """How many logs the import added (``bench import`` ends with it; the TUI's dialog shows it)."""
        added = len(self.added)
        return ngettext(
            "offer #{id}: {n} log added, {dupes} already on record",
            "offer #{id}: {n} logs added, {dupes} already on record",
            added,
        ).format(id=self.offer_id, n=f"{added:,}", dupes=len(self.stored) - added)

    @property
    def notes(self) -> list[str]:
        """What the import withdrew and why, a line each (said by the CLI and the TUI's dialog alike)."""
        return [w.said for w in self.withdrawn]

    def to_json(self) -> dict[str, Any]:
        return {
            "offer_id": self.offer_id,
            "added": len(self.added),
            "duplicates": len(self.stored) - len(self.added),
            "logs": [s.to_json() for s in self.stored],
            "not_run": self.not_run,
            "withdrawn": [w.to_json() for w in self.withdrawn],
        }


def read_files(paths: list[Path]) -> list[ReadLog]:
    """Reads and parses every file; collects every problem before raising."""
    read, problems = [], []
    for path in paths:
        try:  # a device or a pipe is read up to the limit, never forever
            read.append(read_log(read_bounded(path, MAX_LOG_BYTES), str(path)))
        except LogError as exc:
            problems.append(exc)
        except BadInput as exc:
            problems.append(LogError(str(exc).removeprefix(f"{path.name}: "), source=str(path)))
        except OSError as exc:
            problems.append(LogError(exc.strerror or str(exc), source=str(path)))
    if problems:
        raise BenchProblems(problems)
    return read


def _results(parsed: ParsedLog, sold: GpuSpec) -> list[dict[str, Any]]:
    if isinstance(parsed, TrainingThroughput):
        return _training(parsed, sold)
    if isinstance(parsed, GemmSweep):
        return [
            {
                "metric": Metric.GEMM_TFLOPS,
                "value": parsed.tflops,
                "unit": "TFLOPS",
                "gpu_count": 1,
                "dtype": (parsed.dtype or "")[:12] or None,
                "workload": f"GEMM {parsed.shape}"[:120],
                "conditions": f"{parsed.statistic} of the sweep",
            }
        ]
    if isinstance(parsed, AllReduce) and (large := parsed.large_message()) is not None:
        return [
            {
                "metric": Metric.ALLREDUCE_BUSBW,
                "value": large.busbw,
                "unit": "GB/s",
                "gpu_count": parsed.ranks,
                "workload": "nccl-tests all_reduce_perf",
                "conditions": f"large-message busbw at {large.size} bytes on {plural(len(parsed.hosts) or 1, 'host')}",
            }
        ]
    return []


def _training(p: TrainingThroughput, sold: GpuSpec) -> list[dict[str, Any]]:
    """A training run's MFU: its median TFLOP/s per GPU over the steady steps ÷ the dense BF16 peak of the model
    sold (never the framework's own MFU, which divides by the peak it assumes); and its tokens/s per GPU."""
    over = f"median of {len(p.steady)} steady steps (after {p.warmup} warm-up)"
    common = {"gpu_count": p.world_size, "dtype": p.dtype, "workload": f"{p.framework} training run"}
    results: list[dict[str, Any]] = [
        {
            "metric": Metric.MFU,
            "value": training_mfu(p, sold),
            "unit": "fraction",
            "conditions": f"{over}: {p.median_tflops} TFLOP/s per GPU ÷ {sold.bf16_tflops} TFLOPS dense BF16 "
            f"({sold.name})",
            **common,
        }
    ]
    if (tokens := p.median_tokens_per_sec) is not None:
        results.append(
            {"metric": Metric.TOKENS_PER_SEC_PER_GPU, "value": tokens, "unit": "tokens/s", "conditions": over, **common}
        )
    return results


def not_verified(parsed: ParsedLog, sold: GpuSpec, catalog: GpuCatalog, machine: tuple[Finding, ...] = ()) -> str:
    """Why a figure in ``parsed`` must not become the offer's verified figure ("" when it may): the one rule
    that decides which measurements feed the engine (explain, the ranking). A GEMM sweep or a training run on
    another device (it would set the offer's MFU: model-mismatch says what was measured); one that names no
    device where the offer's logs show another model (``machine``: ``rules.machine_not_sold``; asked after the
    log's own figures, which say more where they show the device), since it is then not shown to come from the
    model sold; or an AllReduce across hosts or of unknown hosts (it measures
    the scale-out network, not NVLink)."""
    if isinstance(parsed, GemmSweep | TrainingThroughput) and (other := other_model(parsed.device, sold, catalog)):
        return _("measured on {device}, not the {model} sold: kept as evidence, not a verified figure").format(
            device=other, model=sold.name
        )
    if isinstance(parsed, AllReduce | Collective) and (
        other := next((o for d in parsed.devices if (o := other_model(d, sold, catalog))), "")
    ):
        return _("run on {device}, not the {model} sold: kept as evidence, not a verified figure").format(
            device=other, model=sold.name
        )
    if isinstance(parsed, GemmSweep) and not parsed.half_precision:
        return _("a {dtype} sweep, not a BF16 one: kept as evidence, not the verified BF16 figure").format(
            dtype=parsed.dtype
        )
    if why := impossible(parsed, sold):
        return _("{why}: an impossible measurement, kept as evidence, not a verified figure").format(why=why)
    if isinstance(parsed, TrainingThroughput) and (found := foreign(parsed, sold, catalog)):
        return _("{why}: run on another device, kept as evidence, not a verified figure").format(why=found[0])
    if unnamed_on_another(parsed, machine):
        return _(
            "it names no GPU, and the offer's other logs say {finding}: not shown to be the {model} sold, kept as "
            "evidence, not a verified figure"
        ).format(finding=listed(f.title for f in machine), model=sold.name)
    if isinstance(parsed, Collective):
        return _(
            "{a_collective} run ({tool}): evidence under its own name, judged by the findings; no verified figure is "
            "kept for it, and it is never AllReduce evidence"
        ).format(a_collective=a_or_an(kind(parsed.collective).title), tool=parsed.tool)
    if isinstance(parsed, AllReduce) and not parsed.single_host:
        if parsed.ranks_listed:
            return _(
                "an AllReduce across {n} hosts: a scale-out measurement, kept as evidence, not an NVLink figure"
            ).format(n=len(parsed.hosts))
        return _(
            "an AllReduce across hosts unknown (no '# Rank' lines): a scale-out measurement, kept as evidence, not an "
            "NVLink figure"
        )
    return ""


def _store(
    session: Session, offer: Offer, section: Section, sold: GpuSpec, catalog: GpuCatalog, machine: tuple[Finding, ...]
) -> Stored:
    raw = section.raw
    hosts = getattr(section.parsed, "hosts", ())
    host = section.host or (hosts[0] if hosts else None)
    digest = content_digest(raw, host)  # one run on one machine is one piece of evidence, however it was copied
    tool = section.parsed.tool
    existing = session.exec(select(Evidence).where(Evidence.offer_id == offer.id, Evidence.sha256 == digest)).first()
    if existing is None:  # rows stored before digests were of normalised content: their raw text, normalised
        older = session.exec(select(Evidence).where(Evidence.offer_id == offer.id)).all()
        bare = content_digest(raw)  # a copy without a host of a log on record from one is that same run
        existing = next(
            (
                e
                for e in older
                if content_digest(e.raw, e.host) == digest or (host is None and content_digest(e.raw) == bare)
            ),
            None,
        )
    if existing is not None:
        assert existing.id is not None
        return Stored(section.label, tool, existing.id, (), duplicate=True, same_as=existing.filename or "")
    evidence = Evidence(
        offer_id=offer.id,
        sha256=digest,
        tool=tool,
        host=host,
        captured_at=section.captured_at,
        gpu_names=list(dict.fromkeys(section.parsed.gpu_names())),
        filename=Path(section.label).name[:300],
        raw=raw,
    )
    session.add(evidence)
    session.flush()
    results = []
    why = not_verified(section.parsed, sold, catalog, machine)
    for r in [] if why else _results(section.parsed, sold):
        session.add(
            BenchmarkResult(
                offer_id=offer.id,
                provider_id=offer.provider_id,
                gpu_model_id=offer.gpu_model_id,
                provenance=Provenance.VERIFIED,
                evidence_id=evidence.id,
                measured_at=section.captured_at or datetime.now(UTC),
                **r,
            )
        )
        results.append((r["metric"], r["value"], r["unit"]))
    assert evidence.id is not None
    return Stored(section.label, tool, evidence.id, tuple(results), not_verified=why)


def import_bench(db: Database, offer_id: int, paths: list[Path]) -> BenchImport:
    read = read_files(paths)
    report = BenchImport(offer_id)
    with db.write() as session:
        offer = _offer(session, offer_id)
        catalog, ids = load_catalog(session)
        sold = _sold(offer, catalog, ids)
        on_record = _on_record(session, offer)
        added = [Log(-i, s.label, s.parsed) for i, s in enumerate((s for log in read for s in log.sections), 1)]
        judged = Sold.of(sold, offer)
        machine = tuple(machine_not_sold(on_record + added, judged, catalog))
        for log in read:
            report.not_run += log.not_run
            for section in log.sections:
                report.stored.append(_store(session, offer, section, sold, catalog, machine))
        report.withdrawn = _withdraw(session, on_record, sold, catalog, machine)
    return report


def _offer(session: Session, offer_id: int) -> Offer:
    offer = session.get(Offer, offer_id)
    if offer is None:
        known = session.exec(select(col(Offer.id)).order_by(col(Offer.id))).all()
        raise BadInput(
            _("no offer #{id} (offers are #{first}–#{last})").format(id=offer_id, first=known[0], last=known[-1])
            if known
            else _("no offer #{id} (there are no offers yet)").format(id=offer_id)
        )
    return offer


def _sold(offer: Offer, catalog: GpuCatalog, ids: dict[str, int]) -> GpuSpec:
    """The model the offer sells."""
    return catalog.get(next(key for key, row_id in ids.items() if row_id == offer.gpu_model_id))


def _on_record(session: Session, offer: Offer) -> list[Log]:
    """The offer's logs on record, parsed again as every check reads them (``verification.offer_logs``'s read;
    one no longer readable is left out: it shows nothing)."""
    from quotetui.services.verification import logs_on_record
    from quotetui.store.reader import session_reader

    assert offer.id is not None
    return [
        Log(r.evidence_id, r.label, r.parsed)
        for r in logs_on_record(session_reader(session), offer.id)
        if r.parsed is not None
    ]


def _refused(
    session: Session, on_record: list[Log], sold: GpuSpec, catalog: GpuCatalog, machine: tuple[Finding, ...]
) -> Iterator[tuple[Log, str, list[BenchmarkResult]]]:
    """Each log on record that :func:`not_verified` now refuses, why, and the verified figures it still holds."""
    for log in on_record:
        why = not_verified(log.parsed, sold, catalog, machine)
        if not why:
            continue
        rows = session.exec(
            select(BenchmarkResult)
            .where(BenchmarkResult.evidence_id == log.evidence_id, BenchmarkResult.provenance == Provenance.VERIFIED)
            .order_by(col(BenchmarkResult.id))
        ).all()
        if rows:
            yield log, why, list(rows)


def _withdraw(
    session: Session,
    on_record: list[Log],
    sold: GpuSpec,
    catalog: GpuCatalog,
    machine: tuple[Finding, ...],
) -> list[Withdrawn]:
    """The verified figures of logs on record that :func:`not_verified` now refuses (a GEMM sweep naming no GPU,
    then an nvidia-smi listing of another model, imported now or by a version before the rule): removed, so the
    engine no longer counts them; the logs stay as evidence. An import and ``bench recheck`` both withdraw here."""
    withdrawn = []
    for log, why, rows in list(_refused(session, on_record, sold, catalog, machine)):
        withdrawn.append(Withdrawn(log.label, log.evidence_id, why))
        for row in rows:
            session.delete(row)
    return withdrawn


def _verified_offers(session: Session) -> list[int]:
    """The offers holding a verified figure measured from a log on record: those a re-judging may withdraw from."""
    return list(
        session.exec(
            select(BenchmarkResult.offer_id)
            .where(BenchmarkResult.provenance == Provenance.VERIFIED, col(BenchmarkResult.evidence_id).is_not(None))
            .distinct()
            .order_by(col(BenchmarkResult.offer_id))
        ).all()
    )


@dataclass(frozen=True, slots=True)
class Judged:
    """An offer's model sold, its logs on record, and what they show of the machine (``machine_not_sold``)."""

    sold: GpuSpec
    on_record: list[Log]
    machine: tuple[Finding, ...]


def _judged(session: Session, offer: Offer, catalog: GpuCatalog, ids: dict[str, int]) -> Judged:
    """An offer's logs on record as :func:`not_verified` judges them now (nothing being imported)."""
    sold = _sold(offer, catalog, ids)
    on_record = _on_record(session, offer)
    return Judged(sold, on_record, tuple(machine_not_sold(on_record, Sold.of(sold, offer), catalog)))


def wrongly_verified(db: Database, given_db: str | None = None) -> list[WronglyVerified]:
    """The figures on record as verified that the offer's logs, judged now, refuse (``db check``): what
    :func:`recheck` would withdraw, read and changed nothing. ``given_db``: the ``--db`` the check was given,
    for the command that mends it."""
    found = []
    with db.session() as session:
        offer_ids = _verified_offers(session)
        if not offer_ids:
            return []
        catalog, ids = load_catalog(session)
        for offer_id in offer_ids:
            offer = session.get(Offer, offer_id)
            if offer is None:
                continue
            j = _judged(session, offer, catalog, ids)
            for log, why, rows in _refused(session, j.on_record, j.sold, catalog, j.machine):
                figures = tuple(figure_words(r.metric, r.value, r.unit) for r in rows)
                found.append(WronglyVerified(offer_id, log.evidence_id, log.label, figures, why, given_db))
    return found


def recheck_command(offer_id: int | None, given_db: str | None = None) -> str:
    """``quotetui [--db DB] bench recheck [--offer N]``: ``given_db`` as the user gave it, a password in it starred
    (``text.on_database``: a command is shown, and copied into notes and tickets)."""
    offer = f" --offer {offer_id}" if offer_id is not None else ""
    return on_database(f"quotetui bench recheck{offer}", given_db)


@dataclass(frozen=True, slots=True)
class Recheck:
    """``bench recheck``: the logs on record judged again by :func:`not_verified`, offer by offer, and the
    verified figures that rule now refuses withdrawn (``_withdraw``, as an import withdraws them)."""

    offers: tuple[int, ...]  # the offers judged
    withdrawn: tuple[tuple[int, Withdrawn], ...]  # each log whose figures were withdrawn, with its offer

    @property
    def notes(self) -> list[str]:
        """What was withdrawn and why, a line each, in an import's words (``Withdrawn.said``)."""
        return [w.said for _, w in self.withdrawn]

    @property
    def summary(self) -> str:
        n = len(self.withdrawn)
        if not self.offers:
            return _("nothing to withdraw: no offer holds a verified figure measured from a log")
        if not n:
            return ngettext(
                "nothing to withdraw: the logs of {n} offer bear out its verified figures",
                "nothing to withdraw: the logs of {n} offers bear out their verified figures",
                len(self.offers),
            ).format(n=f"{len(self.offers):,}")
        return ngettext("{n} log's figures withdrawn", "{n} logs' figures withdrawn", n).format(n=f"{n:,}")

    def to_json(self) -> dict[str, Any]:
        return {
            "offers": list(self.offers),
            "withdrawn": [{"offer_id": offer, **w.to_json()} for offer, w in self.withdrawn],
        }


def recheck(db: Database, offer_id: int | None = None) -> Recheck:
    """The logs on record of ``offer_id`` (of every offer holding a verified figure from a log when None) judged
    again: what :func:`not_verified` now refuses is withdrawn as an import withdraws it (the audit trail records
    the removal); the logs stay as evidence. Running it again withdraws nothing."""
    with db.write() as session:
        offers = (
            [_offer(session, offer_id)]
            if offer_id is not None
            else [o for i in _verified_offers(session) if (o := session.get(Offer, i)) is not None]
        )
        catalog, ids = load_catalog(session)
        withdrawn: list[tuple[int, Withdrawn]] = []
        for offer in offers:
            assert offer.id is not None
            j = _judged(session, offer, catalog, ids)
            withdrawn += [(offer.id, w) for w in _withdraw(session, j.on_record, j.sold, catalog, j.machine)]
        return Recheck(tuple(o.id for o in offers if o.id is not None), tuple(withdrawn))
