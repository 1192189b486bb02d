"""The rules that turn evidence, claims and prices into findings (codes and thresholds: ``findings``)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.claims import Audit, Verdict, value_words
from quotetui.domain.economics.exact import dec, percent_text, q
from quotetui.domain.enums import Metric
from quotetui.domain.errors import UnknownGpu
from quotetui.domain.gpu_table import VIA_BRIDGE
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
    a_or_an,
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
    ParsedLog,
    RocmSmi,
    SmiList,
    SmiQuery,
    SmiTable,
    Topology,
    TrainingThroughput,
)
from quotetui.domain.verification.plausible import impossible, impossible_measurements
from quotetui.domain.verification.scaleout import scale_out_findings
from quotetui.language import _, ngettext
from quotetui.language.lists import aside, detail, filled, labelled, listed, quoted
from quotetui.language.numbers import percent

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


def _reading(log: Log, name: str, mib: int | None) -> str:
    """A GPU a log names, with the memory it reports: ``smi.txt: NVIDIA H100 80GB HBM3, 81559 MiB``
    (``smi.txt：NVIDIA H100 80GB HBM3，81559 MiB``)."""
    return labelled(log.label, detail(name, f"{mib} MiB") if mib else name)


def _vgpu(logs: list[Log]) -> list[Finding]:
    hits = [(name, mib, log) for name, mib, log in _reported(logs) if _VGPU.search(name)]
    if not hits:
        return []
    names = sorted({name for name, _, _ in hits})
    lines = tuple(dict.fromkeys(_reading(log, name, mib) for name, mib, log in hits))
    return [
        Finding(
            FindingCode.VGPU,
            Severity.CRITICAL,
            _("vGPU profile {names}").format(names=listed(names)),
            _(
                "The guest sees a virtual GPU profile, not a physical GPU: it gets a time- or memory-slice of a "
                "card shared with other tenants, with the profile's memory. Not what a whole-GPU price buys."
            ),
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
                    lines.append(
                        _("{log}: GPU {index} {name} has MIG devices {profiles}").format(
                            log=log.label, index=g.index, name=g.name, profiles=listed(g.mig_profiles)
                        )
                    )
                    found.append(log)
        if isinstance(p, SmiQuery):
            for row in p.gpus:
                if (row.mig_mode or "").lower() == "enabled":
                    lines.append(labelled(log.label, f"GPU {row.index} {row.name}: mig.mode.current = Enabled"))
                    found.append(log)
        if isinstance(p, RocmSmi):
            for d in p.partitioned:
                part = f" {d.partition_id}" if d.partition_id is not None else ""
                lines.append(
                    _("{log}: device {index} is compute partition {partition}").format(
                        log=log.label, index=d.index, partition=f"{d.partition}{part}"
                    )
                )
                found.append(log)
        for name in p.gpu_names():
            if _MIG_NAME.search(name):
                lines.append(_("{log}: device {name}").format(log=log.label, name=name))
                found.append(log)
    if not lines:
        return []
    return [
        Finding(
            FindingCode.MIG,
            Severity.CRITICAL,
            _("MIG slice, not a whole GPU"),
            _(
                "Multi-Instance GPU splits one card into up to seven isolated slices (1g.10gb … 7g.80gb); a slice "
                "has a fraction of the compute and memory, and no NVLink to other GPUs. AMD's compute partitions "
                "(DPX, QPX, CPX) split an Instinct GPU the same way: each device is a part of one GPU."
            ),
            tuple(dict.fromkeys(lines)),
            _where(found),
        )
    ]


def _model(logs: list[Log], sold: Sold, catalog: GpuCatalog) -> list[Finding]:
    """One finding per model reported that is not the one sold, with every log that reports it (an Ascend NPU
    by the name npu-smi prints, 910B3, like a GPU by nvidia-smi's)."""

    def link(g: GpuSpec) -> str:  # an interconnect that is not NVLink (Ascend's HCCS) is named as such
        if g.nvlink_gbs and g.nvlink_note and g.nvlink_note != VIA_BRIDGE:
            return _("{link} {gbs} GB/s, no NVLink").format(link=g.nvlink_note, gbs=g.nvlink_gbs)
        return f"NVLink {g.nvlink_gbs}" if g.nvlink_gbs else _("NVLink none")

    other: dict[str, tuple[GpuSpec | None, list[str], list[int]]] = {}
    unknown: dict[str, str] = {}  # a key of ``other`` that names no model: its finding's title
    inference: dict[str, tuple[list[str], list[int]]] = {}
    for name, mib, log in _reported(logs):
        if _VGPU.search(name):
            continue
        if _INFERENCE.match(name):  # never a training part, whatever the catalog holds
            lines, ids = inference.setdefault(name, ([], []))
            lines.append(labelled(log.label, name) + (f", {mib} MB" if mib else ""))
            ids.append(log.evidence_id)
            continue
        parent = _MIG_NAME.sub("", name)
        try:
            spec: GpuSpec | None = catalog.lookup(parent, mib)
        except UnknownGpu:
            spec = None
        if spec is not None and mib is not None and parent == name and memory_conflict(spec, mib):
            key = f"{parent} with {mib} MiB (the {spec.name} has {spec.memory_gb} GB)"
            shown = _("{name} with {mib} MiB (the {model} has {gb} GB)").format(
                name=parent, mib=mib, model=spec.name, gb=spec.memory_gb
            )
            unknown.setdefault(key, _("unknown GPU {name}").format(name=quoted(shown)))
            spec = None  # the name and the memory disagree: which part it is cannot be shown
        elif spec is not None and spec.key == sold.gpu.key:
            continue
        else:
            key = spec.key if spec is not None else parent
            if spec is None:
                unknown.setdefault(key, _("unknown GPU {name}").format(name=quoted(parent)))
        _spec, lines, ids = other.setdefault(key, (spec, [], []))
        line = _reading(log, name, mib)
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
            count = devices.count(dev)
            gpus = ngettext("{n} GPU", "{n} GPUs", count).format(n=f"{count:,}")
            if spec is None:  # an id the catalog does not know is not the sold part's: it cannot be shown to be it
                own = "/".join(sold.gpu.pci_device_ids) or _("none on record")
                unknown.setdefault(f"PCI device id {dev}", _("unknown GPU: PCI device id {id}").format(id=dev))
                _spec, lines, ids = other.setdefault(f"PCI device id {dev}", (None, [], []))
                lines.append(
                    _("{log}: PCI device id {id}, {gpus}; the {model}'s: {own}").format(
                        log=log.label, id=dev, gpus=gpus, model=sold.gpu.name, own=own
                    )
                )
            else:
                _spec, lines, ids = other.setdefault(spec.key, (spec, [], []))
                lines.append(
                    _("{log}: PCI device id {id} ({model}), {gpus}").format(
                        log=log.label, id=dev, model=spec.name, gpus=gpus
                    )
                )
            if log.evidence_id not in ids:
                ids.append(log.evidence_id)
    findings = [
        Finding(
            FindingCode.MODEL_MISMATCH,
            Severity.CRITICAL,
            _("{name}: an Ascend 310 inference part, {sold} sold").format(name=name, sold=sold.gpu.name),
            _(
                "The {name} is an inference accelerator (an Atlas 300I / 310 card: on-board DDR, no HBM, no BF16 "
                "training throughput), not the {sold} sold; no training job runs on it at a training part's speed."
            ).format(name=name, sold=sold.gpu.name),
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
                    unknown[key],
                    _(
                        "The machine reports a GPU the catalog does not know, so it cannot be shown to be the {sold} "
                        "sold. Add an alias if it is the same part under another name."
                    ).format(sold=sold.gpu.name),
                    tuple(lines),
                    tuple(ids),
                )
            )
            continue
        consumer = _(" It is a consumer card (no ECC, no datacenter support).") if spec.consumer else ""
        findings.append(
            Finding(
                FindingCode.MODEL_MISMATCH,
                Severity.CRITICAL,
                _("{model} reported, {sold} sold").format(model=spec.name, sold=sold.gpu.name),
                _(
                    "The machine is {a_model} ({tflops} TFLOPS dense BF16, {gb} GB, {link}), not the {sold} sold "
                    "({sold_tflops} TFLOPS, {sold_gb} GB, {sold_link}).{consumer}"
                ).format(
                    a_model=a_or_an(spec.name),
                    tflops=spec.bf16_tflops,
                    gb=spec.memory_gb,
                    link=link(spec),
                    sold=sold.gpu.name,
                    sold_tflops=sold.gpu.bf16_tflops,
                    sold_gb=sold.gpu.memory_gb,
                    sold_link=link(sold.gpu),
                    consumer=consumer,
                ),
                tuple(lines),
                tuple(ids),
            )
        )
    return findings


def machine_not_sold(logs: list[Log], sold: Sold, catalog: GpuCatalog) -> list[Finding]:
    """The critical model findings of an offer's logs: they show its machine is another model than the one sold.
    A measurement whose log names no GPU of its own is then not shown to come from the model sold, and is not
    the offer's verified figure (``services/bench_import.not_verified``)."""
    found = _model(logs, sold, catalog) + _framework_peak(logs, sold, catalog) + _nvidia_tools(logs, sold)
    return [f for f in found if f.severity is Severity.CRITICAL]


def unnamed_on_another(parsed: ParsedLog, machine: list[Finding] | tuple[Finding, ...]) -> bool:
    """A measurement (a GEMM sweep, a training run, an AllReduce) that names no GPU of its own, on an offer whose
    logs show another model (``machine``: :func:`machine_not_sold`): not shown to come from the model sold, so
    neither the offer's verified figure nor an acceptance pass."""
    return bool(machine) and isinstance(parsed, GemmSweep | TrainingThroughput | AllReduce) and not parsed.gpu_names()


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
            _("NVIDIA tools' output, {sold} sold").format(sold=sold.gpu.name),
            _(
                "nvidia-smi, nvbandwidth, the CUDA samples, DCGM and nccl-tests run only on NVIDIA GPUs: these logs "
                "come from another machine than the {sold} sold."
            ).format(sold=sold.gpu.name),
            tuple(labelled(log.label, log.parsed.tool) for log in shown),
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
        named = _(" or ").join(devices[:3]) + (" …" if len(devices) > 3 else "")
        title = (
            _("training log from {devices}, {sold} sold").format(devices=named, sold=sold.gpu.name)
            if devices
            else _("training log from an unknown device, {sold} sold").format(sold=sold.gpu.name)
        )
        fits = _("it fits {devices}").format(devices=listed(devices)) if devices else _("no device is known by it")
        findings.append(
            Finding(
                FindingCode.MODEL_MISMATCH,
                Severity.CRITICAL if devices else Severity.WARNING,
                title,
                _(
                    "{framework} prints its MFU against the peak it assumes for the device it runs on, so that peak "
                    "names the device: {fits}, not the {sold} sold. The run is not the offer's MFU; it is kept as "
                    "evidence only."
                ).format(framework=p.framework, fits=fits, sold=sold.gpu.name),
                (labelled(log.label, why),),
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
                    _("{pcie} of {pairs} GPU pairs talk over PCIe").format(pcie=len(pcie), pairs=len(p.links)),
                    _(
                        "Sold as {sold} with NVLink, but the topology shows PCIe paths between GPUs ({paths}): PCIe "
                        "cards or a board without NVSwitch. GPU-to-GPU traffic (tensor parallelism, AllReduce) runs "
                        "at a fraction of NVLink speed."
                    ).format(sold=sold.gpu.name, paths=listed(f"{n} {kind}" for kind, n in sorted(kinds.items()))),
                    (
                        labelled(log.label, f"{a}↔{b} {k}"),
                        _("{log}: {n} pairs over NVLink").format(log=log.label, n=len(p.links) - len(pcie)),
                    ),
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
                    _("{links} between GPUs, {expected} expected").format(
                        links=listed(sorted(counts)), expected=signature
                    ),
                    _(
                        "A {sold} board bonds {want} NVLinks between every GPU pair ({expected}); {fewer} of {pairs} "
                        "pairs have fewer, so the NVLink bandwidth is lower than sold (an H800 shows NV8)."
                    ).format(sold=sold.gpu.name, want=want, expected=signature, fewer=len(fewer), pairs=len(p.links)),
                    (labelled(log.label, f"{a}↔{b} {k}"),),
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
        figure = labelled(log.label, f"{p.statistic_word} {p.tflops} TFLOPS @ {p.shape}")
        findings.append(
            Finding(
                FindingCode.GEMM_BELOW_PEAK,
                Severity.CRITICAL,
                _("GEMM {tflops} TFLOPS = {share} of peak").format(tflops=p.tflops, share=percent_text(share, 1)),
                _(
                    "A healthy {model} reaches {healthy} of its {peak} TFLOPS dense BF16 peak in a matmul sweep; under "
                    "{floor} it is power- or clock-throttled, shared with another job, or a slower part."
                ).format(
                    model=sold.gpu.name,
                    healthy=percent("80–87"),
                    peak=sold.gpu.bf16_tflops,
                    floor=percent_text(GEMM_MIN_SHARE, 0),
                ),
                (
                    _("{figure} on {device}").format(figure=figure, device=p.device) if p.device else figure,
                    _("{tflops} ÷ {peak} = {share} (threshold {floor})").format(
                        tflops=p.tflops,
                        peak=sold.gpu.bf16_tflops,
                        share=percent_text(share, 1),
                        floor=percent_text(GEMM_MIN_SHARE, 0),
                    ),
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
                    _("{collective} run too small to judge").format(collective=title),
                    _(
                        "No message of {mib} MiB or more: small messages measure latency, not bandwidth. Rerun "
                        "{binary} with -e 8G."
                    ).format(mib=LARGE_MESSAGE_BYTES // 2**20, binary=binary),
                    (
                        _("{log}: largest message {size} bytes").format(
                            log=log.label, size=f"{max(r.size for r in p.rows):,}"
                        ),
                    ),
                    (log.evidence_id,),
                )
            )
            continue
        if q(large.busbw) >= floor:
            continue
        seen = (
            _(
                "{log}: busbw {gbs} GB/s at {size} bytes; its '# Avg bus bandwidth' {avg} GB/s averages all sizes "
                "and is not judged"
            )
            if p.avg_busbw is not None
            else _("{log}: busbw {gbs} GB/s at {size} bytes")
        )
        findings.append(
            Finding(
                code,
                Severity.CRITICAL,
                _("{collective} {gbs} GB/s, {floor} expected").format(
                    collective=title, gbs=large.busbw, floor=dec(floor, 0)
                ),
                _(
                    "{ranks} {model} GPUs on NVLink ({nvlink} GB/s per GPU, {way} each way) should reach at least "
                    "{floor} GB/s bus bandwidth in {a_collective} on large messages; far less means PCIe paths, "
                    "missing NVSwitch, or a degraded link."
                ).format(
                    ranks=p.ranks,
                    model=sold.gpu.name,
                    nvlink=sold.gpu.nvlink_gbs,
                    way=sold.gpu.nvlink_gbs // 2,
                    floor=dec(floor, 0),
                    a_collective=a_or_an(title),
                ),
                (seen.format(log=log.label, gbs=large.busbw, size=f"{large.size:,}", avg=p.avg_busbw),),
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
                    _("{verdict} claim: {figure}").format(verdict=a.verdict.word, figure=c.figure),
                    a.explanation,
                    tuple(a.arithmetic) + ((aside(f"“{c.quote}”", c.source),) if c.quote else ()),
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
                    _("claimed {claimed}, measured {measured}").format(
                        claimed=value_words(_plain(c.boldest), c.unit), measured=value_words(value, c.unit)
                    ),
                    _(
                        "The provider claims {claimed} for {metric}; the measurement on the trial machine is "
                        "{measured} ({share} of the claim)."
                    ).format(
                        claimed=value_words(_plain(c.boldest), c.unit),
                        metric=c.metric.word,
                        measured=value_words(value, c.unit),
                        share=percent_text(q(value) / c.boldest, 0),
                    ),
                    (
                        labelled(log.label, value_words(value, c.unit)),
                        _("claim #{id} ({source})").format(id=c.id, source=c.source),
                    ),
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
            _("{share} of the market median").format(share=percent_text(share, 0)),
            _(
                "{price} {currency} per GPU-hour is under {floor} of the market median ({median} {currency}): too "
                "cheap for a whole GPU of this model. It is likely a slice, a used or a consumer card; ask for "
                "nvidia-smi output before paying."
            ).format(
                price=dec(ref.price, 2),
                currency=ref.currency,
                floor=percent_text(PRICE_FLOOR_SHARE, 0),
                median=dec(ref.median, 2),
            ),
            (
                filled(
                    _("median of {basis}: {median} {currency}/GPU-h"),
                    basis=ref.basis,
                    median=dec(ref.median, 2),
                    currency=ref.currency,
                ),
                _("offer: {price}").format(price=dec(ref.price, 2)),
            ),
        )
    ]


def _faults(logs: list[Log]) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        lines: list[str] = []
        severity = Severity.CRITICAL
        if isinstance(p, GpuBurn) and p.faulty:
            lines = [labelled(log.label, f"GPU {i}: FAULTY") for i in p.faulty]
            title = _("gpu-burn: {faulty} of {gpus} GPUs FAULTY").format(faulty=len(p.faulty), gpus=len(p.results))
            why = _("gpu-burn compares results of the same computation; a FAULTY GPU computes wrong numbers.")
        elif isinstance(p, DcgmDiag) and (bad := [t for t in p.not_passed() if not configuration_failure(t)]):
            # set-up failures are the ``configuration`` finding's
            lines = [
                (
                    _("{test} (an internal error of the test, not a GPU's result: rerun it)").format(
                        test=labelled(log.label, f"{t.name}: {t.result}")
                    )
                    if _internal(t)
                    else labelled(log.label, f"{t.name}: {t.result}")
                )
                + (f" - {t.told}" if t.detail else "")
                for t in bad
            ]
            # an Error is no pass: a test that broke; a test that failed on its own internal error blames no GPU
            failed = [t for t in bad if t.result in ("Fail", "Error") and not _internal(t)]
            severity = Severity.CRITICAL if failed else Severity.WARNING
            title = _("DCGM: {failed} failed, {other} skipped or warned").format(
                failed=len(failed), other=len(bad) - len(failed)
            )
            why = _("A failed DCGM diagnostic is a hardware fault; a skipped test proves nothing, so it is not a pass.")
        elif isinstance(p, SmiQuery) and any(g.ecc_uncorrected for g in p.gpus):
            bad_gpus = [g for g in p.gpus if g.ecc_uncorrected]
            lines = [
                _("{log}: GPU {index}: {errors} uncorrected ECC errors").format(
                    log=log.label, index=g.index, errors=g.ecc_uncorrected
                )
                for g in bad_gpus
            ]
            title = ngettext(
                "uncorrected ECC errors on {n} GPU", "uncorrected ECC errors on {n} GPUs", len(bad_gpus)
            ).format(n=f"{len(bad_gpus):,}")
            why = _("Uncorrected (double-bit) ECC errors corrupt data and crash jobs; the memory needs replacing.")
        elif isinstance(p, NpuSmi) and (sick := [n for n in p.npus if n.health != "OK"]):
            lines = [labelled(log.label, f"NPU {n.index} ({n.name}): {n.health}") for n in sick]
            severity = Severity.WARNING if all(n.health == "Warning" for n in sick) else Severity.CRITICAL
            title = _("npu-smi: {sick} of {npus} NPUs not OK").format(sick=len(sick), npus=len(p.npus))
            why = _(
                "npu-smi reports an NPU's health from its own alarms: Warning, Alarm or Critical need the provider."
            )
        elif isinstance(p, BusRun) and p.wrong:
            lines = [_("{log}: {wrong} wrong results (#wrong column)").format(log=log.label, wrong=p.wrong)]
            title = _("NCCL {collective} returned wrong results").format(collective=kind(p.collective).title)
            why = _("nccl-tests checks every result; wrong values mean faulty GPU memory, links or NICs.")
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
        return q(value) / q(gpu.bf16_tflops), _("of {tflops} TFLOPS dense BF16").format(tflops=gpu.bf16_tflops)
    if metric in (Metric.GEMM_PCT_OF_PEAK, Metric.MFU):
        return q(value), _("of dense BF16 peak")
    if metric is Metric.ALLREDUCE_BUSBW and gpu.nvlink_gbs and not gpu.nvlink_note:
        return q(value) / Fraction(gpu.nvlink_gbs, 2), _("of {gbs} GB/s one-way NVLink").format(gbs=gpu.nvlink_gbs // 2)
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
