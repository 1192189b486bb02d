"""Findings about the links a node's logs measure besides AllReduce: copies between GPUs (nvbandwidth and CUDA
samples' p2pBandwidthLatencyTest: ``nvlink-copy-low``), between host and GPU (nvbandwidth: ``host-copy-low``) and
the scale-out NIC (perftest's ib_write_bw, ib_read_bw and ib_send_bw: ``ib-bandwidth-low``). A latency (nvbandwidth's
``…_latency_sm``, perftest's ``_lat`` tools, the samples' latency matrices) is evidence no bandwidth rule reads.
Thresholds: ``findings``."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.exact import dec, percent_text, q
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
from quotetui.language import _, ngettext
from quotetui.language.lists import listed
from quotetui.language.numbers import percent

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
                _(
                    "{log}: {n} of {pairs} GPU pairs without peer access (CANNOT Access Peer): {few}; their "
                    "P2P=Enabled figures are copies through the host"
                ).format(log=log.label, n=len(no_peer), pairs=pairs, few=_few(no_peer))
            )
        for name, floor, pairs_seen in judged:
            low = sorted((v, r, c) for r, c, v in pairs_seen if v is not None and q(v) < floor)
            absent = [f"GPU{r}→GPU{c}" for r, c, v in pairs_seen if v is None]
            seen = len(pairs_seen)
            if low:
                v, r, c = low[0]
                lines.append(
                    ngettext(
                        "{log}: {name}: {n} of {pairs} pair under {floor} GB/s, the slowest {slowest} at {gbs} GB/s",
                        "{log}: {name}: {n} of {pairs} pairs under {floor} GB/s, the slowest {slowest} at {gbs} GB/s",
                        seen,
                    ).format(
                        log=log.label,
                        name=name,
                        n=len(low),
                        pairs=f"{seen:,}",
                        floor=dec(floor, 0),
                        slowest=f"GPU{r}→GPU{c}",
                        gbs=v,
                    )
                )
                if slowest is None or q(v) / floor < slowest[0]:
                    slowest = (q(v) / floor, v, floor)
            if absent:
                missing += len(absent)
                lines.append(
                    ngettext(
                        "{log}: {name}: {n} of {pairs} pair N/A (no peer access): {few}",
                        "{log}: {name}: {n} of {pairs} pairs N/A (no peer access): {few}",
                        seen,
                    ).format(log=log.label, name=name, n=len(absent), pairs=f"{seen:,}", few=_few(absent))
                )
        if not lines:
            continue
        gpu = sold.gpu
        title = (
            _("GPU-to-GPU copy {gbs} GB/s, {floor} expected").format(gbs=slowest[1], floor=dec(slowest[2], 0))
            if slowest
            else ngettext("{n} GPU pair without peer access", "{n} GPU pairs without peer access", missing).format(
                n=f"{missing:,}"
            )
        )
        findings.append(
            Finding(
                FindingCode.NVLINK_COPY_LOW,
                Severity.CRITICAL,
                title,
                _(
                    "On a healthy {model} board a copy between two GPUs runs at {healthy} of one-way NVLink ({gbs} "
                    "GB/s); under {floor}, or no peer access at all, means a degraded or missing NVLink, PCIe paths "
                    "between the GPUs or no NVSwitch. Tensor parallelism and AllReduce run at the speed of the "
                    "slowest pair."
                ).format(
                    model=gpu.name,
                    healthy=percent("80-86"),
                    gbs=gpu.nvlink_gbs // 2 if gpu.nvlink_gbs else 0,
                    floor=percent_text(NVLINK_COPY_MIN_SHARE, 0),
                ),
                tuple(lines),
                (log.evidence_id,),
            )
        )
    return findings


def _few(pairs: list[str]) -> str:
    return listed(pairs[:4]) + (" …" if len(pairs) > 4 else "")


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
                    ngettext(
                        "{log}: {name}: {n} of {gpus} GPU under {floor} GB/s, the slowest {slowest} at {gbs} GB/s",
                        "{log}: {name}: {n} of {gpus} GPUs under {floor} GB/s, the slowest {slowest} at {gbs} GB/s",
                        len(cells),
                    ).format(
                        log=log.label,
                        name=m.name,
                        n=len(low),
                        gpus=f"{len(cells):,}",
                        floor=HOST_COPY_MIN_GBS,
                        slowest=f"GPU{low[0][1]}",
                        gbs=low[0][0],
                    )
                )
                slowest = min(slowest, low[0][0]) if slowest is not None else low[0][0]
        if lines:
            findings.append(
                Finding(
                    FindingCode.HOST_COPY_LOW,
                    Severity.WARNING,
                    _("host↔GPU copy {gbs} GB/s, under {floor}").format(gbs=slowest, floor=HOST_COPY_MIN_GBS),
                    _(
                        "A PCIe Gen4 x16 link copies 25-26 GB/s between host memory and a GPU, Gen5 x16 about 50-57; "
                        "under {floor} GB/s the GPU sits on a narrower or older link (Gen3, x8, a riser) or is fed "
                        "from the far CPU socket. Data loading, checkpoints and offload run at this speed."
                    ).format(floor=HOST_COPY_MIN_GBS),
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
        on = _(" on {link}").format(link=listed(link)) if link else ""
        if row.size < IB_MIN_MESSAGE_BYTES:
            findings.append(
                Finding(
                    FindingCode.IB_BANDWIDTH_LOW,
                    Severity.INFO,
                    _("{tool} run too small to judge").format(tool=p.tool),
                    _(
                        "No message of {size} bytes or more: small messages measure latency, not the link. Rerun "
                        "{tool} with -a (every size to 8 MiB) or -s 8388608."
                    ).format(size=f"{IB_MIN_MESSAGE_BYTES:,}", tool=p.tool),
                    (_("{log}: largest message {size} bytes{on}").format(log=log.label, size=f"{row.size:,}", on=on),),
                    (log.evidence_id,),
                )
            )
            continue
        got = q(p.gbps(row.average))
        per = q(sold.inter_gbps_per_gpu) * (2 if p.bidirectional else 1)
        if got >= IB_MIN_SHARE * per:
            continue
        shown = f"{row.average} {p.unit}" + (f" = {dec(got, 2)} Gb/s" if p.unit != "Gb/sec" else "")
        both = _(" (both directions)") if p.bidirectional else ""
        timed = _(" (a timed run: its BW peak is not measured)") if p.duration else ""
        findings.append(
            Finding(
                FindingCode.IB_BANDWIDTH_LOW,
                Severity.WARNING,
                _("{tool} {gbps} Gb/s, {floor} expected").format(
                    tool=p.tool, gbps=dec(got, 2), floor=dec(IB_MIN_SHARE * per, 0)
                ),
                _(
                    "The offer sells {sold} Gb/s of scale-out network per GPU; a healthy NIC moves {healthy} of its "
                    "line rate with large messages, and under {floor} the link trained below its rate, the NIC "
                    "sits on a narrow PCIe link or the far socket, or the port is misconfigured. Multi-node training "
                    "is bound by it."
                ).format(sold=sold.inter_gbps_per_gpu, healthy=percent("92-98"), floor=percent_text(IB_MIN_SHARE, 0)),
                (
                    _("{log}: BW average {figure} at {size} bytes{on}{both}{timed}").format(
                        log=log.label, figure=shown, size=f"{row.size:,}", on=on, both=both, timed=timed
                    ),
                    _("{gbps} ÷ {per} Gb/s sold = {share} (threshold {floor})").format(
                        gbps=dec(got, 2), per=per, share=percent_text(got / per, 1), floor=percent_text(IB_MIN_SHARE, 0)
                    ),
                ),
                (log.evidence_id,),
            )
        )
    return findings
