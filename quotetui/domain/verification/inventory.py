"""Findings about what a node is set up as, beside what it is: how many GPUs the logs show against the GPUs
sold per node (``gpu-count``), and a DCGM deployment check that failed because of the software set-up, such as
persistence mode off (``configuration``): fixable by the provider, not a hardware fault."""

from __future__ import annotations

from fractions import Fraction

from quotetui.domain.errors import UnknownGpu
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.domain.verification.findings import Finding, FindingCode, Log, Severity, Sold
from quotetui.domain.verification.logs import (
    BusRun,
    DcgmDiag,
    DcgmTest,
    GpuBurn,
    NpuSmi,
    NvBandwidth,
    P2pBandwidthLatency,
    RocmSmi,
    SmiList,
    SmiQuery,
    SmiTable,
    Topology,
)
from quotetui.language import _, ngettext
from quotetui.language.lists import labelled, listed

HARDWARE_DEPLOYMENT_TESTS = frozenset({"page retirement/row remap", "inforom"})
"""DCGM deployment checks that speak about the hardware (retired memory pages, a damaged InfoROM)."""


def configuration_failure(test: DcgmTest) -> bool:
    """A DCGM deployment check (persistence mode, permissions, environment, a denylisted driver …) that did not
    pass: the node is set up wrong, which the provider fixes without a hardware swap."""
    return (
        test.section.lower() == "deployment"
        and test.result in ("Fail", "Error", "Warn")
        and test.name.lower() not in HARDWARE_DEPLOYMENT_TESTS
    )


def other_model(device: str | None, sold: GpuSpec, catalog: GpuCatalog) -> str:
    """The model a measurement names when it is not the one sold ("" when it is, or it names none): such a
    figure (a GEMM sweep, a training run) is evidence, never the offer's verified figure or an acceptance pass."""
    if not device:
        return ""
    try:
        spec: GpuSpec | None = catalog.lookup(device)
    except UnknownGpu:
        spec = None
    if spec is not None and spec.key == sold.key:
        return ""
    return spec.name if spec is not None else repr(device)


MEMORY_CONFLICT_SHARE = Fraction(1, 4)
"""A reported memory this far from the named model's nominal size is another part under that name (an "H800"
with an H200's 143,771 MiB); nearer, it is how the driver counts (46,068 MiB on a 48 GB L40S)."""


def memory_conflict(spec: GpuSpec, mib: int) -> bool:
    if spec.smi_memory_mib is not None and abs(spec.smi_memory_mib - mib) <= 1024:
        return False
    nominal = spec.memory_gb * 1024
    return abs(nominal - mib) > nominal * MEMORY_CONFLICT_SHARE


def gpus_shown(p: object) -> int | None:
    """The GPUs a log shows on its machine (None: it does not say, or spans several machines)."""
    if isinstance(p, SmiTable) and p.elided:
        return None  # its author cut rows: the rows are the GPUs shown, not the machine's
    if isinstance(p, SmiQuery | SmiList):
        return len(p.gpus)
    if isinstance(p, Topology):
        return len(p.gpus)
    if isinstance(p, RocmSmi):
        return p.physical  # GPUs, not the partitions of one
    if isinstance(p, NpuSmi):
        return None if p.elided else len(p.npus)  # NPUs as npu-smi numbers them: a 910C module (two chips) is one
    if isinstance(p, GpuBurn):
        return len(p.results)
    if isinstance(p, DcgmDiag):
        return len(p.device_ids) or None
    if isinstance(p, BusRun):
        return p.ranks if p.single_host else None
    if isinstance(p, NvBandwidth):  # the GPUs its copies ran between (fewer than it lists: those), else its list
        widths = [len(m.columns) for m in p.matrices if m.between_gpus]
        if len(p.hosts) > 1:
            return None  # a multi-node run: GPUs of several machines
        return (
            min(len(p.devices), max(widths))
            if p.devices and widths
            else len(p.devices) or max(widths, default=0) or None
        )
    if isinstance(p, P2pBandwidthLatency):
        return p.gpus
    return None


def gpu_count(logs: list[Log], sold: Sold) -> list[Finding]:
    short = [(log, n) for log in logs if (n := gpus_shown(log.parsed)) is not None and n < sold.gpus_per_node]
    if not short:
        return []
    fewest = min(n for _, n in short)
    return [
        Finding(
            FindingCode.GPU_COUNT,
            Severity.WARNING,
            ngettext("{n} GPU shown, {sold} sold per node", "{n} GPUs shown, {sold} sold per node", fewest).format(
                n=f"{fewest:,}", sold=sold.gpus_per_node
            ),
            _(
                "A log of the node shows fewer GPUs than the offer sells per node: a GPU missing or fallen off the "
                "bus, or the tool ran on a subset (CUDA_VISIBLE_DEVICES). Rerun it on every GPU before accepting."
            ),
            tuple(
                _("{log}: {n} of {sold} GPUs").format(log=log.label, n=n, sold=sold.gpus_per_node) for log, n in short
            ),
            tuple(log.evidence_id for log, _ in short),
        )
    ]


def configuration(logs: list[Log]) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        if not isinstance(p, DcgmDiag):
            continue
        bad = [t for t in p.tests if configuration_failure(t)]
        if not bad:
            continue
        findings.append(
            Finding(
                FindingCode.CONFIGURATION,
                Severity.WARNING,
                _("DCGM deployment: {tests} not passed").format(tests=listed(dict.fromkeys(t.name for t in bad))),
                _(
                    "A deployment check of DCGM failed: the node's software set-up (persistence mode off, "
                    "permissions, environment, a denylisted driver) is wrong. The provider fixes it without a "
                    "hardware swap; the diagnostics that need it did not run, so rerun them after the fix."
                ),
                tuple(labelled(log.label, f"{t.name}: {t.result}") + (f" - {t.told}" if t.detail else "") for t in bad),
                (log.evidence_id,),
            )
        )
    return findings
