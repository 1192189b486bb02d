"""The rules that turn evidence, claims and prices into findings (codes and thresholds: ``findings``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.claims import Audit, Verdict
from quotetui.domain.economics.exact import dec, pct, q
from quotetui.domain.enums import Metric
from quotetui.domain.errors import UnknownGpu
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.domain.verification.collectives import kind
from quotetui.domain.verification.findings import (
    ALLREDUCE_MIN_SHARE,
    CLAIM_SHORTFALL_SHARE,
    GEMM_MIN_SHARE,
    PRICE_FLOOR_SHARE,
    Finding,
    FindingCode,
    Log,
    MarketReference,
    Severity,
    Sold,
    sort_findings,
)
from quotetui.domain.verification.framework_peaks import foreign
from quotetui.domain.verification.inventory import configuration, configuration_failure, gpu_count, memory_conflict
from quotetui.domain.verification.links import host_copies, ib_links, nvlink_copies
from quotetui.domain.verification.logs import (
    LARGE_MESSAGE_BYTES,
    AllReduce,
    BusRun,
    DcgmDiag,
    DcgmTest,
    GemmSweep,
    GpuBurn,
    NpuSmi,
    RocmSmi,
    SmiList,
    SmiQuery,
    SmiTable,
    Topology,
    TrainingThroughput,
)
from quotetui.domain.verification.plausible import impossible, impossible_measurements
from quotetui.domain.verification.scaleout import scale_out_findings
from quotetui.domain.wording import plural, with_article

_VGPU = re.compile(r"^(?:NVIDIA\s+)?GRID\b|-(?:\d+-)?\d+[ABCQ]$", re.IGNORECASE)
_MIG_NAME = re.compile(r"\s+MIG\s+(\S+)$")
_INFERENCE = re.compile(r"^(?:Ascend\s*)?310[A-Z]?\d*$", re.IGNORECASE)
"""Huawei's Ascend 310 series as npu-smi names it (310, 310P3, 310B1): inference chips, never training parts."""


def _reported(logs: list[Log]) -> Iterator[tuple[str, int | None, Log]]:
    """Every GPU name a log reports, with its memory where the log gives it."""
    for log in logs:
        p = log.parsed
        if isinstance(p, SmiQuery):
            for g in p.gpus:
                yield g.name, g.memory_mib, log
        elif isinstance(p, RocmSmi):  # a partition reports its whole GPU's VRAM
            for d in p.devices:
                if d.name:
                    yield d.name, d.memory_mib, log
        else:
            for name in p.gpu_names():
                yield name, None, log


def _where(logs: list[Log]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(log.evidence_id for log in logs))


def _vgpu(logs: list[Log]) -> list[Finding]:
    hits = [(name, mib, log) for name, mib, log in _reported(logs) if _VGPU.search(name)]
    if not hits:
        return []
    names = sorted({name for name, _, _ in hits})
    lines = tuple(dict.fromkeys(f"{log.label}: {name}" + (f", {mib} MiB" if mib else "") for name, mib, log in hits))
    return [
        Finding(
            FindingCode.VGPU,
            Severity.CRITICAL,
            f"vGPU profile {', '.join(names)}",
            "The guest sees a virtual GPU profile, not a physical GPU: it gets a time- or memory-slice of a "
            "card shared with other tenants, with the profile's memory. Not what a whole-GPU price buys.",
            lines,
            _where([log for _, _, log in hits]),
        )
    ]


def _mig(logs: list[Log]) -> list[Finding]:
    lines, found = [], []
    for log in logs:
        p = log.parsed
        if isinstance(p, SmiList):
            for g in p.gpus:
                if g.mig_profiles:
                    lines.append(f"{log.label}: GPU {g.index} {g.name} has MIG devices {', '.join(g.mig_profiles)}")
                    found.append(log)
        if isinstance(p, SmiQuery):
            for row in p.gpus:
                if (row.mig_mode or "").lower() == "enabled":
                    lines.append(f"{log.label}: GPU {row.index} {row.name}: mig.mode.current = Enabled")
                    found.append(log)
        if isinstance(p, RocmSmi):
            for d in p.partitioned:
                part = f" {d.partition_id}" if d.partition_id is not None else ""
                lines.append(f"{log.label}: device {d.index} is compute partition {d.partition}{part}")
                found.append(log)
        for name in p.gpu_names():
            if _MIG_NAME.search(name):
                lines.append(f"{log.label}: device {name}")
                found.append(log)
    if not lines:
        return []
    return [
        Finding(
            FindingCode.MIG,
            Severity.CRITICAL,
            "MIG slice, not a whole GPU",
            "Multi-Instance GPU splits one card into up to seven isolated slices (1g.10gb … 7g.80gb); a slice "
            "has a fraction of the compute and memory, and no NVLink to other GPUs. AMD's compute partitions (DPX, "
            "QPX, CPX) split an Instinct GPU the same way: each device is a part of one GPU.",
            tuple(dict.fromkeys(lines)),
            _where(found),
        )
    ]


def _model(logs: list[Log], sold: Sold, catalog: GpuCatalog) -> list[Finding]:
    """One finding per model reported that is not the one sold, with every log that reports it (an Ascend NPU
    by the name npu-smi prints, 910B3, like a GPU by nvidia-smi's)."""

    def link(g: GpuSpec) -> str:  # an interconnect that is not NVLink (Ascend's HCCS) is named as such
        if g.nvlink_gbs and g.nvlink_note and g.nvlink_note != "via bridge":
            return f"{g.nvlink_note} {g.nvlink_gbs} GB/s, no NVLink"
        return f"NVLink {g.nvlink_gbs or 'none'}"

    other: dict[str, tuple[GpuSpec | None, list[str], list[int]]] = {}
    inference: dict[str, tuple[list[str], list[int]]] = {}
    for name, mib, log in _reported(logs):
        if _VGPU.search(name):
            continue
        if _INFERENCE.match(name):  # never a training part, whatever the catalog holds
            lines, ids = inference.setdefault(name, ([], []))
            lines.append(f"{log.label}: {name}" + (f", {mib} MB" if mib else ""))
            ids.append(log.evidence_id)
            continue
        parent = _MIG_NAME.sub("", name)
        try:
            spec: GpuSpec | None = catalog.lookup(parent, mib)
        except UnknownGpu:
            spec = None
        if spec is not None and mib is not None and parent == name and memory_conflict(spec, mib):
            key = f"{parent} with {mib} MiB (the {spec.name} has {spec.memory_gb} GB)"
            spec = None  # the name and the memory disagree: which part it is cannot be shown
        elif spec is not None and spec.key == sold.gpu.key:
            continue
        else:
            key = spec.key if spec is not None else parent
        _, lines, ids = other.setdefault(key, (spec, [], []))
        line = f"{log.label}: {name}" + (f", {mib} MiB" if mib else "")
        if line not in lines:
            lines.append(line)
        if log.evidence_id not in ids:
            ids.append(log.evidence_id)
    for log in logs:  # DCGM (and rocm-smi's newer layout) names no model, but gives PCI device ids
        p = log.parsed
        devices = p.device_ids if isinstance(p, DcgmDiag) else p.pci_ids if isinstance(p, SmiTable) else ()
        if isinstance(p, RocmSmi):
            devices = tuple(f"1002:{d.device_id}" for d in p.devices)  # named or not: a name is easily edited
        for dev in dict.fromkeys(devices):
            spec = catalog.by_pci_id(dev)
            if spec is not None and spec.key == sold.gpu.key:
                continue
            gpus = plural(devices.count(dev), "GPU")
            if spec is None:  # an id the catalog does not know is not the sold part's: it cannot be shown to be it
                own = "/".join(sold.gpu.pci_device_ids) or "none on record"
                _, lines, ids = other.setdefault(f"PCI device id {dev}", (None, [], []))
                lines.append(f"{log.label}: PCI device id {dev}, {gpus}; the {sold.gpu.name}'s: {own}")
            else:
                _, lines, ids = other.setdefault(spec.key, (spec, [], []))
                lines.append(f"{log.label}: PCI device id {dev} ({spec.name}), {gpus}")
            if log.evidence_id not in ids:
                ids.append(log.evidence_id)
    findings = [
        Finding(
            FindingCode.MODEL_MISMATCH,
            Severity.CRITICAL,
            f"{name}: an Ascend 310 inference part, {sold.gpu.name} sold",
            f"The {name} is an inference accelerator (an Atlas 300I / 310 card: on-board DDR, no HBM, no BF16 "
            f"training throughput), not the {sold.gpu.name} sold; no training job runs on it at a training part's "
            "speed.",
            tuple(dict.fromkeys(lines)),
            tuple(dict.fromkeys(ids)),
        )
        for name, (lines, ids) in inference.items()
    ]
    for key, (spec, lines, ids) in other.items():
        if spec is None:
            findings.append(
                Finding(
                    FindingCode.MODEL_MISMATCH,
                    Severity.WARNING,
                    f"unknown GPU {key!r}" if not key.startswith("PCI device id") else f"unknown GPU: {key}",
                    f"The machine reports a GPU the catalog does not know, so it cannot be shown to be the "
                    f"{sold.gpu.name} sold. Add an alias if it is the same part under another name.",
                    tuple(lines),
                    tuple(ids),
                )
            )
            continue
        consumer = " It is a consumer card (no ECC, no datacenter support)." if spec.consumer else ""
        findings.append(
            Finding(
                FindingCode.MODEL_MISMATCH,
                Severity.CRITICAL,
                f"{spec.name} reported, {sold.gpu.name} sold",
                f"The machine is {with_article(spec.name)} ({spec.bf16_tflops} TFLOPS dense BF16, {spec.memory_gb} GB, "
                f"{link(spec)}), not the {sold.gpu.name} sold ({sold.gpu.bf16_tflops} "
                f"TFLOPS, {sold.gpu.memory_gb} GB, {link(sold.gpu)}).{consumer}",
                tuple(lines),
                tuple(ids),
            )
        )
    return findings


def _internal(test: DcgmTest) -> bool:
    """A DCGM test that failed on an error of its own (``There was an internal error during the test``, its child
    process's output unreadable) and blames no GPU: it proves nothing either way, like a skip."""
    names_a_gpu = re.search(r"\bGPU\s*\d+\s*:\s*Fail|^GPUs?:\s*\d", test.detail)  # "GPU3: Fail", DCGM 3.x's "GPU: 1"
    return "internal error" in test.detail.lower() and not names_a_gpu


NVIDIA_ONLY = ("nvidia-smi", "nvbandwidth", "p2pBandwidthLatencyTest", "dcgmi", "nccl-tests")
"""Tools whose output only a machine with NVIDIA GPUs prints (CUDA, NVML, DCGM, NCCL): on an AMD, Gaudi or Ascend
offer they show another machine, whatever they measured."""


def _nvidia(gpu: GpuSpec) -> bool:
    return any(n.startswith("NVIDIA") for n in gpu.smi_names) or any(":" not in i for i in gpu.pci_device_ids)


def _nvidia_tools(logs: list[Log], sold: Sold) -> list[Finding]:
    """An NVIDIA-only tool's output on an offer of another vendor's part: a model finding."""
    if _nvidia(sold.gpu):
        return []
    shown = [log for log in logs if log.parsed.tool.startswith(NVIDIA_ONLY)]
    if not shown:
        return []
    return [
        Finding(
            FindingCode.MODEL_MISMATCH,
            Severity.CRITICAL,
            f"NVIDIA tools' output, {sold.gpu.name} sold",
            f"nvidia-smi, nvbandwidth, the CUDA samples, DCGM and nccl-tests run only on NVIDIA GPUs: these logs come "
            f"from another machine than the {sold.gpu.name} sold.",
            tuple(f"{log.label}: {log.parsed.tool}" for log in shown),
            _where(shown),
        )
    ]


def _framework_peak(logs: list[Log], sold: Sold, catalog: GpuCatalog) -> list[Finding]:
    """A training log whose own MFU divides by a peak no trainer takes for the model sold ran on another device
    (``framework_peaks``): a model finding, even where the log names no device."""
    findings = []
    for log in logs:
        p = log.parsed
        if not isinstance(p, TrainingThroughput) or (found := foreign(p, sold.gpu, catalog)) is None:
            continue
        why, devices = found
        named = " or ".join(devices[:3]) + (" …" if len(devices) > 3 else "")
        title = f"training log from {named}" if devices else "training log from an unknown device"
        findings.append(
            Finding(
                FindingCode.MODEL_MISMATCH,
                Severity.CRITICAL if devices else Severity.WARNING,
                f"{title}, {sold.gpu.name} sold",
                f"{p.framework} prints its MFU against the peak it assumes for the device it runs on, so that peak "
                f"names the device: {'it fits ' + ', '.join(devices) if devices else 'no device is known by it'}, "
                f"not the {sold.gpu.name} sold. The run is not the offer's MFU; it is kept as evidence only.",
                (f"{log.label}: {why}",),
                (log.evidence_id,),
            )
        )
    return findings


def _topology(logs: list[Log], sold: Sold) -> list[Finding]:
    if not sold.nvlink_sold:
        return []
    findings = []
    signature = sold.gpu.topo_signature
    for log in logs:
        p = log.parsed
        if not isinstance(p, Topology) or not p.links:
            continue
        pcie = [(a, b, k) for a, b, k in p.links if not k.startswith("NV")]
        kinds = Counter(k for _, _, k in pcie)
        if pcie:
            a, b, k = pcie[0]
            findings.append(
                Finding(
                    FindingCode.PCIE_TOPOLOGY,
                    Severity.CRITICAL,
                    f"{len(pcie)} of {len(p.links)} GPU pairs talk over PCIe",
                    f"Sold as {sold.gpu.name} with NVLink, but the topology shows PCIe paths between GPUs "
                    f"({', '.join(f'{n} {kind}' for kind, n in sorted(kinds.items()))}): PCIe cards or a board "
                    "without NVSwitch. GPU-to-GPU traffic (tensor parallelism, AllReduce) runs at a fraction of "
                    "NVLink speed.",
                    (f"{log.label}: {a}↔{b} {k}", f"{log.label}: {len(p.links) - len(pcie)} pairs over NVLink"),
                    (log.evidence_id,),
                )
            )
            continue
        if signature is None:
            continue
        want = int(signature[2:])
        fewer = [(a, b, k) for a, b, k in p.links if int(k[2:]) < want]
        if fewer:
            a, b, k = fewer[0]
            counts = Counter(k for _, _, k in fewer)
            findings.append(
                Finding(
                    FindingCode.PCIE_TOPOLOGY,
                    Severity.CRITICAL,
                    f"{', '.join(sorted(counts))} between GPUs, {signature} expected",
                    f"A {sold.gpu.name} board bonds {want} NVLinks between every GPU pair ({signature}); "
                    f"{len(fewer)} of {len(p.links)} pairs have fewer, so the NVLink bandwidth is lower than "
                    "sold (an H800 shows NV8).",
                    (f"{log.label}: {a}↔{b} {k}",),
                    (log.evidence_id,),
                )
            )
    return findings


def _gemm(logs: list[Log], sold: Sold) -> list[Finding]:
    findings = []
    peak = q(sold.gpu.bf16_tflops)
    for log in logs:
        p = log.parsed
        if not isinstance(p, GemmSweep) or not p.half_precision or impossible(p, sold.gpu):
            continue
        share = q(p.tflops) / peak
        if share >= GEMM_MIN_SHARE:
            continue
        findings.append(
            Finding(
                FindingCode.GEMM_BELOW_PEAK,
                Severity.CRITICAL,
                f"GEMM {p.tflops} TFLOPS = {pct(share, 1)} % of peak",
                f"A healthy {sold.gpu.name} reaches 80–87 % of its {sold.gpu.bf16_tflops} TFLOPS dense BF16 "
                f"peak in a matmul sweep; under {pct(GEMM_MIN_SHARE, 0)} % it is power- or clock-throttled, "
                "shared with another job, or a slower part.",
                (
                    f"{log.label}: {p.statistic} {p.tflops} TFLOPS @ {p.shape}"
                    + (f" on {p.device}" if p.device else ""),
                    f"{p.tflops} ÷ {sold.gpu.bf16_tflops} = {pct(share, 1)} % (threshold {pct(GEMM_MIN_SHARE, 0)} %)",
                ),
                (log.evidence_id,),
            )
        )
    return findings


def allreduce_floor(sold: Sold) -> Fraction | None:
    """The lowest acceptable single-node large-message busbw for the sold model (None: no NVSwitch)."""
    if sold.gpu.nvlink_gbs is None or sold.gpu.nvlink_note:
        return None
    return ALLREDUCE_MIN_SHARE * Fraction(sold.gpu.nvlink_gbs, 2)


def _ring_low(logs: list[Log], sold: Sold) -> list[Finding]:
    """Single-node runs of the ring collectives (AllReduce, AllGather, ReduceScatter) held to NVLink: each
    collective's finding names it (``allreduce-low``; ``collective-low`` for the others)."""
    findings: list[Finding] = []
    floor = allreduce_floor(sold)
    if floor is None or sold.gpu.nvlink_gbs is None:
        return findings
    for log in logs:
        p = log.parsed
        if not isinstance(p, BusRun) or p.ranks < 2 or not kind(p.collective).ring:
            continue
        if not p.single_host or p.ranks > max(sold.gpus_per_node, 8):
            continue  # a multi-node run (or one of unknown hosts) measures the scale-out network: not judged
        title, binary = kind(p.collective).title, f"{p.collective}_perf"
        code = FindingCode.ALLREDUCE_LOW if isinstance(p, AllReduce) else FindingCode.COLLECTIVE_LOW
        large = p.large_message()
        if large is None:
            findings.append(
                Finding(
                    code,
                    Severity.INFO,
                    f"{title} run too small to judge",
                    f"No message of {LARGE_MESSAGE_BYTES // 2**20} MiB or more: small messages measure latency, "
                    f"not bandwidth. Rerun {binary} with -e 8G.",
                    (f"{log.label}: largest message {max(r.size for r in p.rows):,} bytes",),
                    (log.evidence_id,),
                )
            )
            continue
        if q(large.busbw) >= floor:
            continue
        avg = (
            f"; its '# Avg bus bandwidth' {p.avg_busbw} GB/s averages all sizes and is not judged"
            if (p.avg_busbw is not None)
            else ""
        )
        findings.append(
            Finding(
                code,
                Severity.CRITICAL,
                f"{title} {large.busbw} GB/s, {dec(floor, 0)} expected",
                f"{p.ranks} {sold.gpu.name} GPUs on NVLink ({sold.gpu.nvlink_gbs} GB/s per GPU, "
                f"{sold.gpu.nvlink_gbs // 2} each way) should reach at least {dec(floor, 0)} GB/s bus bandwidth "
                f"in {with_article(title)} on large messages; far less means PCIe paths, missing NVSwitch, or a "
                "degraded link.",
                (f"{log.label}: busbw {large.busbw} GB/s at {large.size:,} bytes{avg}",),
                (log.evidence_id,),
            )
        )
    return findings


def measured(logs: list[Log], gpu: GpuSpec | None = None) -> dict[Metric, tuple[Decimal, Log]]:
    """The best verified figure per metric: GEMM TFLOPS (the judged statistic), large-message busbw and, with
    the model sold, a training run's MFU (``training_mfu``)."""
    best: dict[Metric, tuple[Decimal, Log]] = {}
    for log in logs:
        p = log.parsed
        figure: tuple[Metric, Decimal] | None = None
        if gpu is not None and impossible(p, gpu):
            continue  # flagged as an impossible measurement: not held against a claim either way
        if isinstance(p, GemmSweep) and p.half_precision:
            figure = (Metric.GEMM_TFLOPS, p.tflops)
        elif isinstance(p, TrainingThroughput) and gpu is not None:
            figure = (Metric.MFU, training_mfu(p, gpu))
        elif isinstance(p, AllReduce) and p.single_host and (large := p.large_message()) is not None:
            figure = (Metric.ALLREDUCE_BUSBW, large.busbw)  # a single-host figure: what an NVLink claim means
        if figure and (figure[0] not in best or figure[1] > best[figure[0]][0]):
            best[figure[0]] = (figure[1], log)
    return best


def _claims(audits: list[Audit], logs: list[Log], gpu: GpuSpec | None = None) -> list[Finding]:
    findings = []
    for a in audits:
        c = a.claim
        if a.verdict in (Verdict.IMPOSSIBLE, Verdict.OPTIMISTIC):
            findings.append(
                Finding(
                    FindingCode.IMPLAUSIBLE_CLAIM,
                    Severity.CRITICAL if a.verdict is Verdict.IMPOSSIBLE else Severity.WARNING,
                    f"{a.verdict.value} claim: {c.metric.value} {c.value}"
                    + (f"–{c.value_high}" if c.value_high is not None else "")
                    + f" {c.unit}",
                    a.explanation,
                    tuple(a.arithmetic) + ((f"“{c.quote}” ({c.source})",) if c.quote else ()),
                )
            )
    best = measured(logs, gpu)
    for a in audits:
        c = a.claim
        if c.metric in best and q(best[c.metric][0]) < CLAIM_SHORTFALL_SHARE * c.boldest:
            value, log = best[c.metric]
            findings.append(
                Finding(
                    FindingCode.IMPLAUSIBLE_CLAIM,
                    Severity.WARNING,
                    f"claimed {_plain(c.boldest)} {c.unit}, measured {value}",
                    f"The provider claims {_plain(c.boldest)} {c.unit} for {c.metric.value}; the measurement on "
                    f"the trial machine is {value} ({pct(q(value) / c.boldest, 0)} % of the claim).",
                    (f"{log.label}: {value} {c.unit}", f"claim #{c.id} ({c.source})"),
                    (log.evidence_id,),
                )
            )
    return findings


def _price(ref: MarketReference | None) -> list[Finding]:
    if ref is None or ref.median <= 0 or ref.price >= PRICE_FLOOR_SHARE * ref.median:
        return []
    share = ref.price / ref.median
    return [
        Finding(
            FindingCode.PRICE_BELOW_MARKET,
            Severity.WARNING,
            f"{pct(share, 0)} % of the market median",
            f"{dec(ref.price, 2)} {ref.currency} per GPU-hour is under {pct(PRICE_FLOOR_SHARE, 0)} % of the "
            f"market median ({dec(ref.median, 2)} {ref.currency}): too cheap for a whole GPU of this model. It is "
            "likely a slice, a used or a consumer card; ask for nvidia-smi output before paying.",
            (f"median of {ref.basis}: {dec(ref.median, 2)} {ref.currency}/GPU-h", f"offer: {dec(ref.price, 2)}"),
        )
    ]


def _faults(logs: list[Log]) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        lines: list[str] = []
        severity = Severity.CRITICAL
        if isinstance(p, GpuBurn) and p.faulty:
            lines = [f"{log.label}: GPU {i}: FAULTY" for i in p.faulty]
            title = f"gpu-burn: {len(p.faulty)} of {len(p.results)} GPUs FAULTY"
            why = "gpu-burn compares results of the same computation; a FAULTY GPU computes wrong numbers."
        elif isinstance(p, DcgmDiag) and (bad := [t for t in p.not_passed() if not configuration_failure(t)]):
            # set-up failures are the ``configuration`` finding's
            lines = [
                f"{log.label}: {t.name}: {t.result}"
                + (" (an internal error of the test, not a GPU's result: rerun it)" if _internal(t) else "")
                + (f" - {t.told}" if t.detail else "")
                for t in bad
            ]
            # an Error is no pass: a test that broke; a test that failed on its own internal error blames no GPU
            failed = [t for t in bad if t.result in ("Fail", "Error") and not _internal(t)]
            severity = Severity.CRITICAL if failed else Severity.WARNING
            title = f"DCGM: {len(failed)} failed, {len(bad) - len(failed)} skipped or warned"
            why = "A failed DCGM diagnostic is a hardware fault; a skipped test proves nothing, so it is not a pass."
        elif isinstance(p, SmiQuery) and any(g.ecc_uncorrected for g in p.gpus):
            bad_gpus = [g for g in p.gpus if g.ecc_uncorrected]
            lines = [f"{log.label}: GPU {g.index}: {g.ecc_uncorrected} uncorrected ECC errors" for g in bad_gpus]
            title = f"uncorrected ECC errors on {plural(len(bad_gpus), 'GPU')}"
            why = "Uncorrected (double-bit) ECC errors corrupt data and crash jobs; the memory needs replacing."
        elif isinstance(p, NpuSmi) and (sick := [n for n in p.npus if n.health != "OK"]):
            lines = [f"{log.label}: NPU {n.index} ({n.name}): {n.health}" for n in sick]
            severity = Severity.WARNING if all(n.health == "Warning" for n in sick) else Severity.CRITICAL
            title = f"npu-smi: {len(sick)} of {len(p.npus)} NPUs not OK"
            why = "npu-smi reports an NPU's health from its own alarms: Warning, Alarm or Critical need the provider."
        elif isinstance(p, BusRun) and p.wrong:
            lines = [f"{log.label}: {p.wrong} wrong results (#wrong column)"]
            title = f"NCCL {kind(p.collective).title} returned wrong results"
            why = "nccl-tests checks every result; wrong values mean faulty GPU memory, links or NICs."
        else:
            continue
        findings.append(Finding(FindingCode.HARDWARE_FAULT, severity, title, why, tuple(lines), (log.evidence_id,)))
    return findings


def check(
    sold: Sold,
    logs: list[Log],
    catalog: GpuCatalog,
    audits: tuple[Audit, ...] = (),
    market: MarketReference | None = None,
) -> list[Finding]:
    """Every finding for one offer, most severe first."""
    found = (
        _vgpu(logs)
        + _mig(logs)
        + _model(logs, sold, catalog)
        + _framework_peak(logs, sold, catalog)
        + _nvidia_tools(logs, sold)
        + _topology(logs, sold)
        + _gemm(logs, sold)
        + impossible_measurements(logs, sold.gpu)
        + _ring_low(logs, sold)
        + scale_out_findings(logs, sold)
        + nvlink_copies(logs, sold)
        + host_copies(logs)
        + ib_links(logs, sold)
        + _claims(list(audits), logs, sold.gpu)
        + _price(market)
        + _faults(logs)
        + gpu_count(logs, sold)
        + configuration(logs)
    )
    return sort_findings(found)


def peak_share(metric: Metric, value: Decimal, gpu: GpuSpec) -> tuple[Fraction, str] | None:
    """A benchmark figure as a share of the datasheet: GEMM and MFU of dense BF16 peak, AllReduce busbw of
    one-way NVLink bandwidth per GPU; None for metrics without a datasheet counterpart."""
    if metric is Metric.GEMM_TFLOPS:
        return q(value) / q(gpu.bf16_tflops), f"of {gpu.bf16_tflops} TFLOPS dense BF16"
    if metric in (Metric.GEMM_PCT_OF_PEAK, Metric.MFU):
        return q(value), "of dense BF16 peak"
    if metric is Metric.ALLREDUCE_BUSBW and gpu.nvlink_gbs and not gpu.nvlink_note:
        return q(value) / Fraction(gpu.nvlink_gbs, 2), f"of {gpu.nvlink_gbs // 2} GB/s one-way NVLink"
    return None


def _plain(value: Fraction) -> str:
    """A claimed figure as its decimals (0.543, 430), not as a ratio of integers (543/1000)."""
    return f"{dec(value, 6).normalize():f}"


MFU_PLACES = 6
"""A training run's MFU is kept to six decimal places (0.369541): a ten-thousandth of a percent."""


def training_mfu(p: TrainingThroughput, gpu: GpuSpec) -> Decimal:
    """A training run's MFU on ``gpu``: its median TFLOP/s per GPU over the steady steps ÷ the model's dense BF16
    peak. Never the framework's own MFU figure: torchtitan divides by the peak it assumes for its device."""
    return dec(q(p.median_tflops) / q(gpu.bf16_tflops), MFU_PLACES)
