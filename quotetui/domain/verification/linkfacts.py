"""What the link tools print, as parsed facts: nvbandwidth's matrices, perftest's bandwidth and latency tables
(``ib_write_bw``, ``ib_read_bw``, ``ib_send_bw`` and their ``_lat`` siblings) and CUDA samples'
``p2pBandwidthLatencyTest``. Kept apart from ``logs`` (which re-exports them into ``ParsedLog``) so neither grows
past what one reads in a sitting. Figures are ``Decimal``s as printed; a latency is never a bandwidth: each figure
keeps the unit its tool printed it in (GB/s, ns, usec, us)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class BandwidthMatrix:
    """One matrix nvbandwidth printed, under the name its ``SUM`` line gives (a bidirectional testcase prints
    three: ``…_read1``, ``…_read2`` and their ``…_total``), with every cell as printed (None: ``N/A``). A latency
    testcase prints its matrix the same way, in ns: ``bandwidth`` is False for it, and no bandwidth rule reads it."""

    name: str  # device_to_device_memcpy_read_ce, host_to_device_memcpy_ce, …_total, device_to_device_latency_sm
    title: str  # memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)
    columns: tuple[int, ...]
    rows: tuple[tuple[int, tuple[Decimal | None, ...]], ...]  # (row index, cells)
    total: Decimal  # the SUM line (of a latency matrix: a sum of latencies, which means nothing physical)

    @property
    def between_gpus(self) -> bool:
        return "GPU(row)" in self.title and "GPU(column)" in self.title

    @property
    def bandwidth(self) -> bool:
        return self.title.endswith("(GB/s)")

    @property
    def latency(self) -> bool:
        return self.title.endswith("(ns)")

    @property
    def unit(self) -> str:
        return "ns" if self.latency else "GB/s"

    def cells(self) -> tuple[tuple[int, int, Decimal | None], ...]:
        """(row, column, figure) for every cell off the diagonal of a GPU-to-GPU matrix, every cell otherwise."""
        return tuple(
            (r, c, v)
            for r, values in self.rows
            for c, v in zip(self.columns, values, strict=True)
            if not (self.between_gpus and r == c)
        )

    def figures(self) -> list[Decimal]:
        return [v for _, _, v in self.cells() if v is not None]


@dataclass(frozen=True, slots=True)
class NvBandwidth:
    """An ``nvbandwidth`` run (its text output or its ``-j`` JSON): each testcase's matrices, the devices it lists
    (versions before 0.10 do), and the hosts of a multi-node run (``Process N (host): device K: …``)."""

    tool: ClassVar[str] = "nvbandwidth"
    matrices: tuple[BandwidthMatrix, ...]
    devices: tuple[str, ...] = ()
    version: str | None = None
    hosts: tuple[str, ...] = ()  # a multi-node run's hosts, in process order; () on one machine
    cuda_version: str | None = None  # the CUDA runtime as nvbandwidth prints it: 12040, 13020
    driver: str | None = None  # 580.95.05
    waived: tuple[str, ...] = ()  # testcases that did not run (JSON ``"status": "Waived"``)
    layout: str = "text"  # or "json" (-j)

    def gpu_names(self) -> tuple[str, ...]:
        return self.devices

    def matrix(self, name: str) -> BandwidthMatrix | None:
        return next((m for m in self.matrices if m.name == name), None)


@dataclass(frozen=True, slots=True)
class IbRow:
    size: int  # bytes per message
    iterations: int
    peak: Decimal  # in the table's unit; 0.00 when the run was timed (-D): not measured, not a zero
    average: Decimal
    msg_rate: Decimal  # Mpps
    bw_min: Decimal | None = None  # the newest perftest's 6th column; 0.00 unless min-BW sampling was on

    def rate_agrees(self, unit: str) -> bool:
        """Whether the average is the message rate × the size in ``unit`` (to within a fifth: the two units differ by
        a factor of 119, so only one fits): perftest computes both from one count, so an edited average does not."""
        per_second = self.msg_rate * Decimal(10**6) * self.size  # bytes a second
        expected = per_second * 8 / Decimal(10**9) if unit == "Gb/sec" else per_second / Decimal(2**20)
        return expected > 0 and Decimal("0.8") <= self.average / expected <= Decimal("1.25")


PERFTEST_VERBS = {"RDMA_Write": "write", "RDMA_Read": "read", "Send": "send"}
"""The tests perftest's header names (``RDMA_Read BW Test``) and the binary each comes from (``ib_read_bw``)."""


def perftest_tool(test: str, kind: str) -> str:
    """The binary that prints ``test`` (``RDMA_Read``) with ``kind`` ``bw`` or ``lat``: ``ib_read_bw``; a table
    that names no test is perftest's, which binary not known."""
    verb = PERFTEST_VERBS.get(test)
    return f"ib_{verb}_{kind}" if verb else "perftest"


@dataclass(frozen=True, slots=True)
class PerftestBw:
    """A perftest bandwidth run (``ib_write_bw``, ``ib_read_bw``, ``ib_send_bw``): its result rows in the unit
    printed, the test its header names, and the link it ran on. Every one of them moves data at the NIC's line
    rate with large messages, so each is judged the same way (``ib-bandwidth-low``)."""

    rows: tuple[IbRow, ...]
    unit: str  # "Gb/sec" (--report_gbits) or "MB/sec" (2^20 bytes a second, perftest's default)
    device: str | None = None  # mlx5_0
    link_type: str | None = None  # IB | Ethernet (RoCE)
    mtu: int | None = None  # bytes
    qps: int | None = None
    bidirectional: bool = False  # -b: the figures add both directions
    gpu: str | None = None  # the GPU of a GPUDirect run (--use_cuda), as perftest names it
    test: str = "RDMA_Write"  # RDMA_Write | RDMA_Read | Send: the header's "<test> BW Test"
    duration: bool = False  # -D: a timed run; BW peak is not measured (printed 0.00), the average is
    gid_index: int | None = None  # RoCE
    connection: str | None = None  # RC, UD, SRD (AWS EFA)
    loopback: bool = False  # server and client on one host (127.0.0.1, the probe's pair): the NIC, not the network

    @property
    def tool(self) -> str:
        return perftest_tool(self.test, "bw")

    @property
    def title(self) -> str:
        return f"{self.test}{' Bidirectional' if self.bidirectional else ''} BW"

    def gpu_names(self) -> tuple[str, ...]:
        return (self.gpu,) if self.gpu else ()

    def judged(self) -> IbRow:
        """The row judged: the largest message (the lower average where two processes printed it twice)."""
        largest = max(r.size for r in self.rows)
        return min((r for r in self.rows if r.size == largest), key=lambda r: r.average)

    def best(self) -> IbRow:
        """The row with the highest average (a size sweep often peaks below its largest message)."""
        return max(self.rows, key=lambda r: (r.average, r.size))

    def gbps(self, value: Decimal) -> Decimal:
        """A figure of this run in Gb/s: perftest's MB/sec is 2^20 bytes a second, its Gb/sec 10^9 bits."""
        return value if self.unit == "Gb/sec" else value * Decimal("0.008388608")


IbWriteBw = PerftestBw
"""The name from before ``ib_read_bw`` and ``ib_send_bw`` were read (one type reads all three)."""


@dataclass(frozen=True, slots=True)
class LatencyRow:
    """One row of a perftest latency table, in microseconds as printed; None for a column the version lacks."""

    size: int
    iterations: int
    t_min: Decimal
    t_max: Decimal
    t_typical: Decimal
    t_avg: Decimal | None = None
    t_stdev: Decimal | None = None
    p99: Decimal | None = None  # 99% percentile
    p999: Decimal | None = None  # 99.9% percentile


@dataclass(frozen=True, slots=True)
class PerftestLat:
    """A perftest latency run (``ib_send_lat``, ``ib_write_lat``, ``ib_read_lat``): one-way times in usec per
    message size. Evidence of the fabric's latency, never judged against a bandwidth bound."""

    rows: tuple[LatencyRow, ...]
    test: str = "Send"
    device: str | None = None
    link_type: str | None = None
    mtu: int | None = None
    qps: int | None = None
    gpu: str | None = None
    gid_index: int | None = None
    connection: str | None = None  # RC, UD, SRD (AWS EFA)

    @property
    def tool(self) -> str:
        return perftest_tool(self.test, "lat")

    def gpu_names(self) -> tuple[str, ...]:
        return (self.gpu,) if self.gpu else ()

    def at(self, size: int) -> LatencyRow | None:
        return next((r for r in self.rows if r.size == size), None)

    def smallest(self) -> LatencyRow:
        return min(self.rows, key=lambda r: r.size)

    def largest(self) -> LatencyRow:
        return max(self.rows, key=lambda r: r.size)


@dataclass(frozen=True, slots=True)
class P2pMatrix:
    """One matrix of p2pBandwidthLatencyTest: square, one row and column per GPU, every cell as printed. The
    diagonal is a copy inside one GPU (its memory bandwidth), never a link between two."""

    title: str  # Bidirectional P2P=Enabled Bandwidth Matrix (GB/s); P2P=Enabled Latency (P2P Writes) Matrix (us)
    rows: tuple[tuple[int, tuple[Decimal, ...]], ...]
    side: str = "GPU"  # a latency matrix has a GPU part and a CPU part (the time the CPU sees)

    @property
    def bandwidth(self) -> bool:
        return self.title.endswith("(GB/s)")

    @property
    def unit(self) -> str:
        return "GB/s" if self.bandwidth else "us"

    @property
    def bidirectional(self) -> bool:
        return self.title.startswith("Bidirectional")

    @property
    def p2p(self) -> bool:
        """Measured with peer access asked for (``P2P=Enabled``): between GPUs that have it, over NVLink or PCIe
        peer-to-peer; between GPUs that do not, through host memory like ``P2P=Disabled``."""
        return "P2P=Enabled" in self.title

    @property
    def name(self) -> str:
        return self.title if self.side == "GPU" else f"{self.title} [{self.side}]"

    def cells(self) -> tuple[tuple[int, int, Decimal], ...]:
        """(row, column, figure) for every cell off the diagonal."""
        return tuple((r, c, v) for r, values in self.rows for c, v in enumerate(values) if r != c)

    def diagonal(self) -> tuple[Decimal, ...]:
        return tuple(values[r] for r, values in self.rows)


@dataclass(frozen=True, slots=True)
class P2pBandwidthLatency:
    """A run of CUDA samples' ``p2pBandwidthLatencyTest``: its GPUs, which pairs have no peer access (``Device=0
    CANNOT Access Peer Device=1``), and its bandwidth (GB/s) and latency (us) matrices."""

    tool: ClassVar[str] = "p2pBandwidthLatencyTest"
    devices: tuple[str, ...]
    matrices: tuple[P2pMatrix, ...]
    no_peer: tuple[tuple[int, int], ...] = ()  # (from, to): pairs without peer access

    def gpu_names(self) -> tuple[str, ...]:
        return self.devices

    @property
    def gpus(self) -> int:
        return len(self.devices) or max((len(m.rows) for m in self.matrices), default=0)

    def matrix(self, title: str, side: str = "GPU") -> P2pMatrix | None:
        return next((m for m in self.matrices if m.title == title and m.side == side), None)
