"""One line on what a link tool's log shows (nvbandwidth, perftest, p2pBandwidthLatencyTest), for ``summarise``:
each figure in the unit its tool printed, a latency named as one and said to be unjudged (no bandwidth bound
applies to it), and a figure that is no measurement (a timed perftest run's BW peak, a P2P=Enabled copy between
GPUs without peer access) said to be what it is."""

from __future__ import annotations

from decimal import Decimal

from quotetui.domain.economics.exact import dec, q
from quotetui.domain.verification.findings import Sold
from quotetui.domain.verification.linkfacts import (
    LatencyRow,
    NvBandwidth,
    P2pBandwidthLatency,
    P2pMatrix,
    PerftestBw,
    PerftestLat,
)
from quotetui.domain.wording import plural

LATENCY_UNJUDGED = "a latency, not judged against a bandwidth bound"


def _span(values: list[Decimal]) -> str:
    return str(values[0]) if min(values) == max(values) else f"{min(values)}–{max(values)}"


def nvbandwidth(parsed: NvBandwidth) -> str:
    parts = []
    for m in parsed.matrices:
        if not (values := m.figures()):
            continue
        if m.latency:
            parts.append(f"{m.name} {_span(values)} ns ({LATENCY_UNJUDGED})")
        elif m.bandwidth:
            parts.append(f"{m.name} {_span(values)} GB/s")
    where = f"{len(parsed.devices)} GPUs on {len(parsed.hosts)} hosts: " if len(parsed.hosts) > 1 else ""
    waived = f"; {plural(len(parsed.waived), 'testcase')} waived" if parsed.waived else ""
    return where + ("; ".join(parts) or "no bandwidth figures") + waived


def perftest_bw(parsed: PerftestBw, sold: Sold | None) -> str:
    row = parsed.judged()
    where = [parsed.device or "device not named", parsed.link_type or "link type not named"]
    if parsed.qps and parsed.qps > 1:
        where.append(f"{parsed.qps} QPs")
    if parsed.gpu:
        where.append(f"GPU memory: {parsed.gpu}")
    figure = f"{row.average} {parsed.unit}"
    if parsed.unit != "Gb/sec":
        figure += f" = {dec(q(parsed.gbps(row.average)), 2)} Gb/s"
    notes = ""
    if parsed.bidirectional:
        notes += ", both directions added"
    if parsed.duration:
        notes += ", a timed run (-D): BW peak not measured, the average is the figure"
    unjudged = "" if sold is None or sold.inter_gbps_per_gpu else " (NIC Gb/s per GPU not recorded: not judged)"
    if parsed.loopback:
        unjudged = " (a loopback pair on one host: this NIC and its PCIe path, not the network; not judged)"
    return f"BW average {figure} at {row.size:,} B ({', '.join(where)}){notes}{unjudged}"


def perftest_lat(parsed: PerftestLat) -> str:
    first, last = parsed.smallest(), parsed.largest()
    shown = [_latency(first)] + ([_latency(last)] if last.size != first.size else [])
    where = [parsed.device or "device not named", parsed.link_type or "link type not named"]
    if parsed.connection and parsed.connection != "RC":
        where.append(parsed.connection)
    return f"{'; '.join(shown)} ({', '.join(where)}): {LATENCY_UNJUDGED}"


def _latency(row: LatencyRow) -> str:
    avg = f", t_avg {row.t_avg} usec" if row.t_avg is not None else ""
    return f"{row.size:,} B: t_typical {row.t_typical} usec{avg}"


def p2p(parsed: P2pBandwidthLatency) -> str:
    gpus = parsed.gpus
    pairs = gpus * (gpus - 1)
    absent = set(parsed.no_peer)
    access = (
        "peer access between every pair"
        if not absent
        else f"{len(absent)} of {pairs} GPU pairs without peer access (CANNOT Access Peer)"
    )
    parts = []
    for m in parsed.matrices:
        if not m.p2p or m.side != "GPU":
            continue
        peer = [v for r, c, v in m.cells() if (r, c) not in absent]
        if peer:
            unjudged = "" if m.bandwidth else f" ({LATENCY_UNJUDGED})"
            parts.append(f"{_label(m)} {_span(peer)} {m.unit}{unjudged}")
    line = f"{plural(gpus, 'GPU')}, {access}"
    if parts:
        line += "; P2P=Enabled between GPUs: " + ", ".join(parts)
    if absent:
        fallback = [v for m in parsed.matrices if m.p2p and m.bandwidth for r, c, v in m.cells() if (r, c) in absent]
        if fallback:
            line += (
                f"; without peer access the P2P=Enabled copies ({_span(fallback)} GB/s) go through the host: "
                "not a peer-to-peer figure"
            )
    return line


def _label(m: P2pMatrix) -> str:
    if not m.bandwidth:
        return "latency"
    way = "bidirectional" if m.bidirectional else "unidirectional"
    return f"{way}{' (reads)' if '(P2P Reads)' in m.title else ''}"
