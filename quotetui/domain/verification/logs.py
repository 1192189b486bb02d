"""What each supported tool output says, as parsed facts (the parsers live in ``quotetui.io.benchlogs``).

Measured figures are ``Decimal``s read from the text as printed, so a stored result equals the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from quotetui.domain.errors import BadInput

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
        where = self.source or "log"
        if self.line is not None:
            where += f", line {self.line}"
        return f"{where}: {self.message}"

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

    @property
    def busbw(self) -> Decimal:
        return max(self.out_busbw, self.in_busbw) if self.in_busbw is not None else self.out_busbw


@dataclass(frozen=True, slots=True)
class AllReduce:
    """An ``all_reduce_perf`` run: ranks, their devices and hosts, and the size sweep."""

    tool: ClassVar[str] = "nccl-tests all_reduce_perf"
    ranks: int
    devices: tuple[str, ...]
    hosts: tuple[str, ...]
    rows: tuple[AllReduceRow, ...]
    avg_busbw: Decimal | None
    layout: str  # current | legacy | json
    ranks_listed: bool = True  # False: no '# Rank' lines, so ``ranks`` is one process's GPUs and hosts unknown

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


GEMM_PREFERENCE = ("MSMF", "median", "mean", "best", "MAMF", "max")
"""Which of a sweep's figures is judged, first found wins: a sustained figure before a burst. mamf-finder 2026
prints MSMF (max sustainable, saturated clocks) and MAMF (max achievable, a boost-clock burst); 2025 the best
shape's mean / median / max; 2024 one "best outcome" (a mean over the iterations)."""


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


ParsedLog = SmiQuery | SmiList | Topology | AllReduce | GemmSweep | GpuBurn | DcgmDiag
