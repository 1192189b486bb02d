"""What each supported tool output says, as parsed facts (the parsers live in ``quotetui.io.benchlogs``); the link
tools' facts (nvbandwidth, perftest, p2pBandwidthLatencyTest) live in ``linkfacts`` and are re-exported here.

Measured figures are ``Decimal``s read from the text as printed, so a stored result equals the log.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from typing import ClassVar

from quotetui.domain.errors import BadInput
from quotetui.domain.verification.linkfacts import (  # noqa: F401 (re-exported: where the rules import facts from)
    BandwidthMatrix,
    IbRow,
    IbWriteBw,
    LatencyRow,
    NvBandwidth,
    P2pBandwidthLatency,
    P2pMatrix,
    PerftestBw,
    PerftestLat,
)
from quotetui.language import NP_, _

LARGE_MESSAGE_BYTES = 128 * 1024 * 1024
"""AllReduce is judged on messages of at least 128 MiB: below that, latency drags bus bandwidth down and the
``# Avg bus bandwidth`` line (a plain mean over all sizes) says more about the size sweep than the fabric."""


class LogError(BadInput):
    """A log that cannot be read as a whole: names the file and the line, and nothing is stored."""

    def __init__(self, message: str, line: int | None = None, source: str = "") -> None:
        self.message = message
        self.line = line
        self.source = source
        super().__init__(self._text())

    def _text(self) -> str:
        """The problem in one line, in the language in use (``message`` is already in it: the parsers say it)."""
        where = self.source or _("log")
        if self.line is not None:
            return _("{source}, line {line}: {problem}").format(source=where, line=self.line, problem=self.message)
        return _("{source}: {problem}").format(source=where, problem=self.message)

    def within(self, source: str) -> LogError:
        return LogError(self.message, self.line, source)


@dataclass(frozen=True, slots=True)
class SmiGpu:
    """One row of ``nvidia-smi --query-gpu``: the fields quotetui judges, and every field as printed."""

    name: str
    index: int | None = None
    memory_mib: int | None = None
    uuid: str | None = None
    ecc_uncorrected: int | None = None
    mig_mode: str | None = None
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SmiQuery:
    tool: ClassVar[str] = "nvidia-smi query"
    gpus: tuple[SmiGpu, ...]

    def gpu_names(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.gpus)


@dataclass(frozen=True, slots=True)
class SmiTable(SmiQuery):
    """The plain ``nvidia-smi`` table (or Intel Gaudi's ``hl-smi``, the same box; or ``nvidia-smi -q``, which also
    gives each GPU's PCI device id): its GPUs read as a query's,
    so every rule on a query holds for it, and what the table adds. ``elided``: its author cut GPU rows (``...``),
    so the rows are the GPUs shown, not the GPUs the machine has."""

    tool_name: str = field(default="nvidia-smi", kw_only=True)
    driver: str | None = field(default=None, kw_only=True)
    elided: bool = field(default=False, kw_only=True)
    mig_devices: tuple[tuple[int, int], ...] = field(default=(), kw_only=True)  # (GPU index, MIG devices)
    processes: int = field(default=0, kw_only=True)  # processes the Processes box lists
    pci_ids: tuple[str, ...] = field(default=(), kw_only=True)  # nvidia-smi -q's "10de:2335", one per GPU

    @property
    def tool(self) -> str:  # type: ignore[override]
        return self.tool_name


@dataclass(frozen=True, slots=True)
class RocmDevice:
    """A device of ``rocm-smi``'s Concise Info: its PCI device id (AMD, vendor 1002), the name where the layout
    prints one, its compute partition (SPX: the whole GPU; DPX, QPX, CPX: one of 2, 4 or 8 partitions) and the
    VRAM ``--showmeminfo vram`` gives it."""

    index: int
    device_id: str  # "74a1", as rocm-smi prints it without 0x
    name: str | None = None
    partition: str | None = None  # SPX, DPX, QPX, CPX (None: not printed)
    partition_id: int | None = None
    memory_mib: int | None = None


PARTITIONS = {"DPX": 2, "QPX": 4, "CPX": 8}
"""Compute partitions per GPU in each of AMD's modes (an MI300X's 8 XCDs: CPX gives one partition each)."""


@dataclass(frozen=True, slots=True)
class RocmSmi:
    tool: ClassVar[str] = "rocm-smi"
    devices: tuple[RocmDevice, ...]

    def gpu_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.devices if d.name)

    @property
    def partitioned(self) -> tuple[RocmDevice, ...]:
        return tuple(d for d in self.devices if d.partition not in (None, "SPX", "N/A"))

    @property
    def physical(self) -> int:
        """GPUs, not partitions: a partitioned GPU's devices number their partitions from 0; where rocm-smi prints
        no partition id, a mode's devices are counted in its partitions per GPU (DPX 2, QPX 4, CPX 8)."""
        whole = len(self.devices) - len(self.partitioned)
        numbered = sum(1 for d in self.partitioned if d.partition_id == 0)
        unnumbered: dict[str, int] = {}
        for d in self.partitioned:
            if d.partition_id is None:
                unnumbered[d.partition or ""] = unnumbered.get(d.partition or "", 0) + 1
        return whole + numbered + sum(-(-n // PARTITIONS.get(mode, 1)) for mode, n in unnumbered.items())


@dataclass(frozen=True, slots=True)
class ListedGpu:
    """A line of ``nvidia-smi -L`` and the MIG devices listed under it (their profiles, e.g. ``1g.10gb``)."""

    index: int
    name: str
    uuid: str | None = None
    mig_profiles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SmiList:
    tool: ClassVar[str] = "nvidia-smi -L"
    gpus: tuple[ListedGpu, ...]

    def gpu_names(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.gpus)


@dataclass(frozen=True, slots=True)
class Topology:
    """The GPU-to-GPU part of ``nvidia-smi topo -m``: each pair once (``GPU0``, ``GPU1``, ``NV18``)."""

    tool: ClassVar[str] = "nvidia-smi topo -m"
    gpus: tuple[str, ...]
    links: tuple[tuple[str, str, str], ...]

    def gpu_names(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class AllReduceRow:
    size: int
    out_busbw: Decimal
    in_busbw: Decimal | None
    wrong: int
    out_algbw: Decimal | None = None  # as printed beside each busbw: busbw = algbw × the collective's factor
    in_algbw: Decimal | None = None

    @property
    def busbw(self) -> Decimal:
        return max(self.out_busbw, self.in_busbw) if self.in_busbw is not None else self.out_busbw


@dataclass(frozen=True, slots=True)
class BusRun:
    """An nccl-tests (or rccl-tests) run of one collective: ranks, their devices and hosts, and the size sweep.
    Its busbw is normalised per collective by nccl-tests itself (``domain/verification/collectives.py``)."""

    ranks: int
    devices: tuple[str, ...]
    hosts: tuple[str, ...]
    rows: tuple[AllReduceRow, ...]
    avg_busbw: Decimal | None
    layout: str  # current | legacy | json
    ranks_listed: bool = True  # False: no '# Rank' lines, so ``ranks`` is one process's GPUs and hosts unknown
    suite: str = field(default="nccl-tests", kw_only=True)  # or rccl-tests (AMD): the same layout

    @property
    def collective(self) -> str:
        """The collective's name as its binary has it (``all_gather`` for ``all_gather_perf``)."""
        raise NotImplementedError  # each kind of run says which it is

    @property
    def tool(self) -> str:
        return f"{self.suite} {self.collective}_perf"

    def gpu_names(self) -> tuple[str, ...]:
        return self.devices

    @property
    def single_host(self) -> bool:
        """A run on one machine, known from its rank list: only such a run measures NVLink (a multi-host run
        measures the scale-out network; one without a rank list is not judged)."""
        return self.ranks_listed and len(self.hosts) <= 1

    def large_message(self) -> AllReduceRow | None:
        """The best bus bandwidth over messages of at least ``LARGE_MESSAGE_BYTES`` (None: none that big)."""
        large = [r for r in self.rows if r.size >= LARGE_MESSAGE_BYTES]
        return max(large, key=lambda r: (r.busbw, r.size)) if large else None

    @property
    def wrong(self) -> int:
        return sum(r.wrong for r in self.rows)


@dataclass(frozen=True, slots=True)
class AllReduce(BusRun):
    """An ``all_reduce_perf`` run: the collective the NVLink and scale-out checks and acceptance are about."""

    @property
    def collective(self) -> str:
        return "all_reduce"


@dataclass(frozen=True, slots=True)
class Collective(BusRun):
    """A run of another collective (``all_gather``, ``alltoall`` …): stored under its own name and judged
    against its own bound, never as AllReduce evidence."""

    name: str = field(default="", kw_only=True)  # all_gather, reduce_scatter, … (the binary without _perf)

    @property
    def collective(self) -> str:
        return self.name


HALF_PRECISION = frozenset({None, "bfloat16", "bf16", "float16", "fp16", "half"})
"""The dtypes a GEMM sweep is held to the dense BF16 peak in (None: the sweep did not say; the probe's is BF16)."""

GEMM_PREFERENCE = ("MSMF", "median", "mean", "best", "MAMF", "max")
"""Which of a sweep's figures is judged, first found wins: a sustained figure before a burst. mamf-finder 2026
prints MSMF (max sustainable, saturated clocks) and MAMF (max achievable, a boost-clock burst); 2025 the best
shape's mean / median / max; 2024 one "best outcome" (a mean over the iterations)."""
STATISTIC_WORDS = {
    "median": NP_("statistic", "median"),
    "mean": NP_("statistic", "mean"),
    "best": NP_("statistic", "best"),
    "max": NP_("statistic", "max"),
}
"""A sweep's statistics in words, in the language in use where shown (MSMF and MAMF are names: as printed)."""


@dataclass(frozen=True, slots=True)
class GemmSweep:
    """A matmul sweep's summary: each figure it printed (``median`` 792.8 TFLOPS…) and the shape (MxNxK) the
    judged one was reached at."""

    tool: ClassVar[str] = "gemm sweep"
    figures: tuple[tuple[str, Decimal, str], ...]  # (statistic, TFLOPS, shape), as printed
    device: str | None = None
    dtype: str | None = None
    format: str = ""  # "mamf-finder 2024", "mean/median/max" (mamf-finder 2025, the probe), "mamf-finder 2026"

    def gpu_names(self) -> tuple[str, ...]:
        return (self.device,) if self.device else ()

    def _judged(self) -> tuple[str, Decimal, str]:
        found = {stat: (stat, value, shape) for stat, value, shape in self.figures}
        for stat in GEMM_PREFERENCE:
            if stat in found:
                return found[stat]
        raise AssertionError("a sweep has at least one figure")  # the parser guarantees it

    @property
    def half_precision(self) -> bool:
        """A BF16 (or FP16: the same tensor-core peak) sweep, or one that names no dtype: the only kind held to
        the dense BF16 peak, verified, or counted for acceptance (an FP8 or FP32 sweep is evidence only)."""
        return self.dtype in HALF_PRECISION

    def figure(self, statistic: str) -> Decimal | None:
        return next((value for stat, value, _ in self.figures if stat == statistic), None)

    @property
    def tflops(self) -> Decimal:
        """The figure judged (``GEMM_PREFERENCE``): MSMF, else the median, mean, best outcome, MAMF, max."""
        return self._judged()[1]

    @property
    def statistic(self) -> str:
        return self._judged()[0]

    @property
    def statistic_word(self) -> str:
        """:attr:`statistic` in the language in use (``median``, ``中位数``; ``MSMF`` as printed)."""
        stat = self.statistic
        return _(STATISTIC_WORDS[stat]) if stat in STATISTIC_WORDS else stat

    @property
    def shape(self) -> str:
        return self._judged()[2]


@dataclass(frozen=True, slots=True)
class GpuBurn:
    tool: ClassVar[str] = "gpu-burn"
    results: tuple[tuple[int, bool], ...]  # (GPU index, OK)
    names: tuple[str, ...] = ()

    def gpu_names(self) -> tuple[str, ...]:
        return self.names

    @property
    def faulty(self) -> tuple[int, ...]:
        return tuple(i for i, ok in self.results if not ok)


@dataclass(frozen=True, slots=True)
class DcgmTest:
    name: str
    result: str  # Pass | Fail | Error | Skip | Warn (one row: DCGM 3.x gives one per group of GPUs)
    detail: str = ""
    section: str = ""  # Deployment (the software set-up), Integration, Hardware, Stress

    @property
    def told(self) -> str:
        """The detail with a message DCGM repeats for each GPU told once, with the GPUs it names ("Persistence
        mode for GPU 0 is … , Persistence mode for GPU 1 is …" becomes "Persistence mode for GPUs 0–7 is …")."""
        return once_per_gpu(self.detail)


_GPU_NUMBER = re.compile(r"\bGPU\s*(\d+)")


def once_per_gpu(text: str) -> str:
    """``text`` as one message and the GPUs it names, where it is one message repeated for several GPUs that
    differ only in the GPU's number (joined by ", ", "; ", ". " or a space; DCGM may cut the last one short);
    else ``text`` unchanged."""
    numbers = _GPU_NUMBER.findall(text)
    norm = _GPU_NUMBER.sub("GPU #", text)
    head = norm[:24]
    second = norm.find(head, 1) if len(numbers) > 1 and len(head) == 24 else -1
    for sep in (", ", "; ", ". ", " ", ""):
        if second <= len(sep) or not norm[:second].endswith(sep):
            continue
        unit = norm[: second - len(sep)]
        block = unit + sep
        whole = len(norm) // len(block)
        rest = norm[whole * len(block) :]
        if norm[: whole * len(block)] != block * whole or not unit.startswith(rest) or "GPU #" not in unit:
            continue
        cut = bool(rest) and rest != unit
        if unit.count("GPU #") != 1:
            return text  # a message naming two GPUs ("between GPU 0 and GPU 1") is not one per GPU
        gpus = [int(n) for n in numbers]
        if len(set(gpus)) != len(gpus):
            return text
        told = unit.replace("GPU #", f"GPUs {_ranges(gpus)}", 1)
        if cut:
            return _("{message} (DCGM's cell is cut short after GPU {gpu})").format(message=told, gpu=gpus[-1])
        return told
    return text


def _ranges(numbers: list[int]) -> str:
    """0, 1, 2, 3, 5 → "0–3, 5"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


@dataclass(frozen=True, slots=True)
class DcgmDiag:
    tool: ClassVar[str] = "dcgmi diag"
    tests: tuple[DcgmTest, ...]
    level: int | None = None
    device_ids: tuple[str, ...] = ()  # "GPU Device IDs Detected": the PCI device id of each GPU

    def gpu_names(self) -> tuple[str, ...]:
        return ()

    def not_passed(self) -> tuple[DcgmTest, ...]:
        return tuple(t for t in self.tests if t.result != "Pass")


@dataclass(frozen=True, slots=True)
class TrainingStep:
    step: int
    tflops: Decimal  # TFLOP/s per GPU, as the framework printed it
    tokens_per_sec: Decimal | None = None  # per GPU; Megatron-LM prints none (some forks do)
    step_ms: Decimal | None = None  # Megatron-LM's elapsed time per iteration
    mfu: Decimal | None = None  # torchtitan's own MFU in percent, as printed (its assumed peak, not the datasheet)


@dataclass(frozen=True, slots=True)
class TrainingThroughput:
    """The throughput lines of a training run (Megatron-LM or torchtitan): every step read, in step order, and
    how many of the first are warm-up (compilation, NCCL set-up, allocator growth), not judged."""

    tool: ClassVar[str] = "training log"
    framework: str  # Megatron-LM | torchtitan
    steps: tuple[TrainingStep, ...]
    warmup: int
    device: str | None = None  # torchtitan's "CUDA capacity: NVIDIA H100 80GB HBM3 with …"
    world_size: int | None = None  # Megatron-LM's argument dump
    dtype: str | None = None
    assumed_peak: Decimal | None = None  # TFLOPS: torchtitan's "Peak FLOPS used for computing MFU" line
    capacity_gib: Decimal | None = None  # the device's memory: torchtitan's "CUDA capacity: … with 79.11GiB memory",
    # else a step's "memory: 116.16GiB(83.14%)" (in use ÷ its share of the device)

    def gpu_names(self) -> tuple[str, ...]:
        return (self.device,) if self.device else ()

    @property
    def steady(self) -> tuple[TrainingStep, ...]:
        return self.steps[self.warmup :]

    @property
    def median_tflops(self) -> Decimal:
        return exact_median([s.tflops for s in self.steady])

    @property
    def median_tokens_per_sec(self) -> Decimal | None:
        """The median tokens/s per GPU over the steady steps; None unless every steady step printed one."""
        tokens = [s.tokens_per_sec for s in self.steady]
        return None if any(t is None for t in tokens) else exact_median([t for t in tokens if t is not None])


def exact_median(values: list[Decimal]) -> Decimal:
    """The median, exact: the middle figure, or the mean of the two middle ones (a half is always exact)."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    with localcontext() as exact:
        exact.prec = 100  # figures have at most 40 digits (parse_number): the sum and its half are exact
        return (ordered[mid - 1] + ordered[mid]) / 2


@dataclass(frozen=True, slots=True)
class NpuChip:
    """A chip of ``npu-smi info`` (its two rows): a 910B NPU has one, a 910C (Atlas A3) two, each with its HBM."""

    chip: int
    health: str  # OK | Warning | Alarm | Critical …, as printed
    bus_id: str
    power_w: Decimal | None  # None: "-" (a 910C's second chip; the module's power is on the first) or NA
    temp_c: int | None
    aicore_pct: int | None
    hbm_used_mib: int | None  # None: no HBM-Usage column (an Atlas 300I card's memory is DDR, not HBM)
    hbm_total_mib: int | None
    phy_id: int | None = None  # the "Chip  Phy-ID" layout (Atlas A3)


@dataclass(frozen=True, slots=True)
class Npu:
    """One NPU of ``npu-smi info`` (its NPU column) and its chips."""

    index: int
    name: str  # as npu-smi prints it: 910B3, Ascend910 (a 910C) …
    chips: tuple[NpuChip, ...]

    @property
    def health(self) -> str:
        """OK, or the first of its chips' states that is not."""
        return next((c.health for c in self.chips if c.health != "OK"), "OK")

    @property
    def power_w(self) -> Decimal | None:
        powers = [c.power_w for c in self.chips if c.power_w is not None]
        return sum(powers, Decimal(0)) if powers else None

    @property
    def temp_c(self) -> int | None:
        return max((c.temp_c for c in self.chips if c.temp_c is not None), default=None)

    @property
    def hbm_used_mib(self) -> int | None:
        used = [c.hbm_used_mib for c in self.chips if c.hbm_used_mib is not None]
        return sum(used) if len(used) == len(self.chips) else None

    @property
    def hbm_total_mib(self) -> int | None:
        total = [c.hbm_total_mib for c in self.chips if c.hbm_total_mib is not None]
        return sum(total) if len(total) == len(self.chips) else None


@dataclass(frozen=True, slots=True)
class NpuSmi:
    """``npu-smi info`` of Huawei Ascend NPUs: what nvidia-smi is to an NVIDIA GPU."""

    tool: ClassVar[str] = "npu-smi info"
    npus: tuple[Npu, ...]
    version: str | None = None  # the banner's "npu-smi 23.0.7"
    elided: bool = False  # whoever pasted it cut NPU rows ("..."): the NPUs shown, not the machine's

    def gpu_names(self) -> tuple[str, ...]:
        return tuple(n.name for n in self.npus)


ParsedLog = (
    SmiQuery
    | SmiList
    | Topology
    | AllReduce
    | Collective
    | GemmSweep
    | GpuBurn
    | DcgmDiag
    | NvBandwidth
    | PerftestBw
    | PerftestLat
    | P2pBandwidthLatency
    | TrainingThroughput
    | NpuSmi
    | RocmSmi
)
