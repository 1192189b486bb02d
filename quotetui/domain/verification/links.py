"""Findings about the links a node's logs measure besides AllReduce: copies between GPUs (nvbandwidth and CUDA
samples' p2pBandwidthLatencyTest: ``nvlink-copy-low``), between host and GPU (nvbandwidth: ``host-copy-low``) and
the scale-out NIC (perftest's ib_write_bw, ib_read_bw and ib_send_bw: ``ib-bandwidth-low``). A latency (nvbandwidth's
``…_latency_sm``, perftest's ``_lat`` tools, the samples' latency matrices) is evidence no bandwidth rule reads.
Thresholds: ``findings``."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.exact import dec, pct, q
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.verification.findings import (
    HOST_COPY_MIN_GBS,
    IB_MIN_MESSAGE_BYTES,
    IB_MIN_SHARE,
    NVLINK_COPY_MIN_SHARE,
    Finding,
    FindingCode,
    Log,
    Severity,
    Sold,
)
from quotetui.domain.verification.logs import (
    BandwidthMatrix,
    NvBandwidth,
    P2pBandwidthLatency,
    P2pMatrix,
    PerftestBw,
)
from quotetui.domain.wording import plural

_D2D = re.compile(
    r"^(?:multinode_)?device_to_device_(bidirectional_)?memcpy_(?:read|write)_(ce|sm)(_(?:read|write)[12]|_total)?$"
)
"""nvbandwidth's copies between two GPUs; a multi-node run's (``multinode_…``, GB200 NVL72 trays) go over NVLink
too: nvbandwidth runs them only where the GPUs share one NVLink fabric."""
_HOST = re.compile(r"^(?:host_to_device|device_to_host)_memcpy_(?:ce|sm)$")


def known_copy_between_gpus(name: str) -> bool:
    """Whether ``name`` is one of nvbandwidth's GPU-to-GPU copy testcases (``device_to_device_memcpy_read_ce`` …)."""
    return bool(_D2D.match(name))


def both_ways(m: BandwidthMatrix) -> bool:
    """Whether ``m``'s figures add both directions of a link (a ``…_total``, an SM bidirectional copy); a copy
    nvbandwidth does not name as one of its GPU-to-GPU testcases is taken as both ways (the lenient ceiling)."""
    found = _D2D.match(m.name)
    return (
        found is None
        or found.group(3) == "_total"
        or (bool(found.group(1)) and found.group(2) == "sm" and not found.group(3))
    )


def nvlink_copy_floor(gpu: GpuSpec, m: BandwidthMatrix) -> Fraction | None:
    """The slowest acceptable GPU-to-GPU copy in ``m`` on ``gpu`` (``NVLINK_COPY_MIN_SHARE``); None when ``m``
    is no copy between GPUs, or the model has no NVSwitch NVLink to hold it to (PCIe cards, bridged pairs).
    One direction is held to one-way NVLink; a ``…_total`` (and an SM bidirectional copy, which adds both
    directions) to both ways."""
    found = _D2D.match(m.name)
    if found is None or not m.between_gpus or not m.bandwidth or gpu.nvlink_gbs is None or gpu.nvlink_note:
        return None
    both = both_ways(m)
    return NVLINK_COPY_MIN_SHARE * (Fraction(gpu.nvlink_gbs) if both else Fraction(gpu.nvlink_gbs, 2))


def p2p_copy_floor(gpu: GpuSpec, m: P2pMatrix) -> Fraction | None:
    """The slowest acceptable copy between two GPUs in a p2pBandwidthLatencyTest matrix (``NVLINK_COPY_MIN_SHARE``);
    None for a matrix measured without peer access (``P2P=Disabled``: through the host), a latency, or a model
    without NVSwitch NVLink. A unidirectional figure is held to one-way NVLink, a bidirectional one (the sample
    adds both directions) to both ways."""
    if not m.p2p or not m.bandwidth or m.side != "GPU" or gpu.nvlink_gbs is None or gpu.nvlink_note:
        return None
    return NVLINK_COPY_MIN_SHARE * (Fraction(gpu.nvlink_gbs) if m.bidirectional else Fraction(gpu.nvlink_gbs, 2))


_Judged = tuple[str, Fraction, list[tuple[int, int, Decimal | None]]]
"""A matrix held to a floor: its name, the floor, and its pairs' figures (None: no peer access)."""


def _copies(p: NvBandwidth | P2pBandwidthLatency, sold: Sold) -> tuple[list[_Judged], list[str]]:
    """The matrices of ``p`` held to NVLink, and the pairs it shows without peer access (a p2pBandwidthLatencyTest
    names them once, from its ``CANNOT Access Peer`` lines: their P2P=Enabled figures are copies through the
    host, never judged as NVLink)."""
    if isinstance(p, NvBandwidth):
        judged = [(m.name, f, list(m.cells())) for m in p.matrices if (f := nvlink_copy_floor(sold.gpu, m)) is not None]
        return judged, []
    absent = set(p.no_peer)
    judged = [
        (m.title, f, [(r, c, v) for r, c, v in m.cells() if (r, c) not in absent])
        for m in p.matrices
        if (f := p2p_copy_floor(sold.gpu, m)) is not None
    ]
    return judged, [f"GPU{r}→GPU{c}" for r, c in sorted(absent)] if judged else []


def nvlink_copies(logs: list[Log], sold: Sold) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        if not isinstance(p, NvBandwidth | P2pBandwidthLatency):
            continue
        lines: list[str] = []
        slowest: tuple[Fraction, Decimal, Fraction] | None = None  # (share of its floor, figure, floor)
        judged, no_peer = _copies(p, sold)
        missing = len(no_peer)
        if no_peer:
            pairs = p.gpus * (p.gpus - 1)
            lines.append(
                f"{log.label}: {len(no_peer)} of {pairs} GPU pairs without peer access (CANNOT Access Peer): "
                f"{_few(no_peer)}; their P2P=Enabled figures are copies through the host"
            )
        for name, floor, pairs_seen in judged:
            low = sorted((v, r, c) for r, c, v in pairs_seen if v is not None and q(v) < floor)
            absent = [f"GPU{r}→GPU{c}" for r, c, v in pairs_seen if v is None]
            if low:
                v, r, c = low[0]
                lines.append(
                    f"{log.label}: {name}: {len(low)} of {plural(len(pairs_seen), 'pair')} under {dec(floor, 0)} "
                    f"GB/s, the slowest GPU{r}→GPU{c} at {v} GB/s"
                )
                if slowest is None or q(v) / floor < slowest[0]:
                    slowest = (q(v) / floor, v, floor)
            if absent:
                missing += len(absent)
                lines.append(
                    f"{log.label}: {name}: {len(absent)} of {plural(len(pairs_seen), 'pair')} N/A (no peer access): "
                    f"{_few(absent)}"
                )
        if not lines:
            continue
        gpu = sold.gpu
        title = (
            f"GPU-to-GPU copy {slowest[1]} GB/s, {dec(slowest[2], 0)} expected"
            if slowest
            else f"{plural(missing, 'GPU pair')} without peer access"
        )
        findings.append(
            Finding(
                FindingCode.NVLINK_COPY_LOW,
                Severity.CRITICAL,
                title,
                f"On a healthy {gpu.name} board a copy between two GPUs runs at 80-86 % of one-way NVLink "
                f"({gpu.nvlink_gbs // 2 if gpu.nvlink_gbs else 0} GB/s); under {pct(NVLINK_COPY_MIN_SHARE, 0)} %, "
                "or no peer access at all, means a degraded or missing NVLink, PCIe paths between the GPUs or no "
                "NVSwitch. Tensor parallelism and AllReduce run at the speed of the slowest pair.",
                tuple(lines),
                (log.evidence_id,),
            )
        )
    return findings


def _few(pairs: list[str]) -> str:
    return ", ".join(pairs[:4]) + (" …" if len(pairs) > 4 else "")


def host_copies(logs: list[Log]) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        if not isinstance(p, NvBandwidth):
            continue
        lines, slowest = [], None
        for m in p.matrices:
            if not _HOST.match(m.name) or not m.bandwidth:
                continue
            cells = [(v, c) for _, c, v in m.cells() if v is not None]
            low = sorted((v, c) for v, c in cells if q(v) < HOST_COPY_MIN_GBS)
            if low:
                lines.append(
                    f"{log.label}: {m.name}: {len(low)} of {plural(len(cells), 'GPU')} under {HOST_COPY_MIN_GBS} "
                    f"GB/s, the slowest GPU{low[0][1]} at {low[0][0]} GB/s"
                )
                slowest = min(slowest, low[0][0]) if slowest is not None else low[0][0]
        if lines:
            findings.append(
                Finding(
                    FindingCode.HOST_COPY_LOW,
                    Severity.WARNING,
                    f"host↔GPU copy {slowest} GB/s, under {HOST_COPY_MIN_GBS}",
                    "A PCIe Gen4 x16 link copies 25-26 GB/s between host memory and a GPU, Gen5 x16 about 50-57; "
                    f"under {HOST_COPY_MIN_GBS} GB/s the GPU sits on a narrower or older link (Gen3, x8, a riser) "
                    "or is fed from the far CPU socket. Data loading, checkpoints and offload run at this speed.",
                    tuple(lines),
                    (log.evidence_id,),
                )
            )
    return findings


def ib_links(logs: list[Log], sold: Sold) -> list[Finding]:
    """Each perftest bandwidth run (write, read or send: all move data at the NIC's line rate with large messages)
    against the offer's scale-out Gb/s per GPU, on its BW average (a timed run's peak is not measured)."""
    findings: list[Finding] = []
    if not sold.inter_gbps_per_gpu:
        return findings  # no NIC figure on the offer: nothing to hold the run to
    for log in logs:
        p = log.parsed
        if not isinstance(p, PerftestBw) or p.loopback:
            continue  # a loopback pair measures this NIC and its PCIe path, not the network sold
        row = p.judged()
        link = [x for x in (p.device, p.link_type, f"MTU {p.mtu}" if p.mtu else None, p.gpu and f"GPU {p.gpu}") if x]
        on = f" on {', '.join(link)}" if link else ""
        if row.size < IB_MIN_MESSAGE_BYTES:
            findings.append(
                Finding(
                    FindingCode.IB_BANDWIDTH_LOW,
                    Severity.INFO,
                    f"{p.tool} run too small to judge",
                    f"No message of {IB_MIN_MESSAGE_BYTES:,} bytes or more: small messages measure latency, not "
                    f"the link. Rerun {p.tool} with -a (every size to 8 MiB) or -s 8388608.",
                    (f"{log.label}: largest message {row.size:,} bytes{on}",),
                    (log.evidence_id,),
                )
            )
            continue
        got = q(p.gbps(row.average))
        per = q(sold.inter_gbps_per_gpu) * (2 if p.bidirectional else 1)
        if got >= IB_MIN_SHARE * per:
            continue
        shown = f"{row.average} {p.unit}" + (f" = {dec(got, 2)} Gb/s" if p.unit != "Gb/sec" else "")
        both = " (both directions)" if p.bidirectional else ""
        timed = " (a timed run: its BW peak is not measured)" if p.duration else ""
        findings.append(
            Finding(
                FindingCode.IB_BANDWIDTH_LOW,
                Severity.WARNING,
                f"{p.tool} {dec(got, 2)} Gb/s, {dec(IB_MIN_SHARE * per, 0)} expected",
                f"The offer sells {sold.inter_gbps_per_gpu} Gb/s of scale-out network per GPU; a healthy NIC moves "
                f"92-98 % of its line rate with large messages, and under {pct(IB_MIN_SHARE, 0)} % the link trained "
                "below its rate, the NIC sits on a narrow PCIe link or the far socket, or the port is misconfigured. "
                "Multi-node training is bound by it.",
                (
                    f"{log.label}: BW average {shown} at {row.size:,} bytes{on}{both}{timed}",
                    f"{dec(got, 2)} ÷ {per} Gb/s sold = {pct(got / per, 1)} % (threshold {pct(IB_MIN_SHARE, 0)} %)",
                ),
                (log.evidence_id,),
            )
        )
    return findings
