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
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import aside, clauses, labelled, listed

LATENCY_UNJUDGED = N_("a latency, not judged against a bandwidth bound")


def _span(values: list[Decimal]) -> str:
    return str(values[0]) if min(values) == max(values) else f"{min(values)}–{max(values)}"


def nvbandwidth(parsed: NvBandwidth) -> str:
    parts = []
    for m in parsed.matrices:
        if not (values := m.figures()):
            continue
        if m.latency:
            parts.append(f"{m.name} {_span(values)} ns ({_(LATENCY_UNJUDGED)})")
        elif m.bandwidth:
            parts.append(f"{m.name} {_span(values)} GB/s")
    figures = clauses(parts) or _("no bandwidth figures")
    if parsed.waived:
        n = len(parsed.waived)
        figures = ngettext("{figures}; {n} testcase waived", "{figures}; {n} testcases waived", n).format(
            figures=figures, n=f"{n:,}"
        )
    if len(parsed.hosts) > 1:
        return _("{gpus} GPUs on {hosts} hosts: {figures}").format(
            gpus=len(parsed.devices), hosts=len(parsed.hosts), figures=figures
        )
    return figures


def perftest_bw(parsed: PerftestBw, sold: Sold | None) -> str:
    row = parsed.judged()
    where = [parsed.device or _("device not named"), parsed.link_type or _("link type not named")]
    if parsed.qps and parsed.qps > 1:
        where.append(_("{n} QPs").format(n=parsed.qps))
    if parsed.gpu:
        where.append(_("GPU memory: {gpu}").format(gpu=parsed.gpu))
    figure = f"{row.average} {parsed.unit}"
    if parsed.unit != "Gb/sec":
        figure += f" = {dec(q(parsed.gbps(row.average)), 2)} Gb/s"
    notes = ""
    if parsed.bidirectional:
        notes += _(", both directions added")
    if parsed.duration:
        notes += _(", a timed run (-D): BW peak not measured, the average is the figure")
    unjudged = "" if sold is None or sold.inter_gbps_per_gpu else _(" (NIC Gb/s per GPU not recorded: not judged)")
    if parsed.loopback:
        unjudged = _(" (a loopback pair on one host: this NIC and its PCIe path, not the network; not judged)")
    return _("BW average {figure} at {size} B ({where}){notes}{unjudged}").format(
        figure=figure, size=f"{row.size:,}", where=listed(where), notes=notes, unjudged=unjudged
    )


def perftest_lat(parsed: PerftestLat) -> str:
    first, last = parsed.smallest(), parsed.largest()
    shown = [_latency(first)] + ([_latency(last)] if last.size != first.size else [])
    where = [parsed.device or _("device not named"), parsed.link_type or _("link type not named")]
    if parsed.connection and parsed.connection != "RC":
        where.append(parsed.connection)
    return labelled(aside(clauses(shown), listed(where)), _(LATENCY_UNJUDGED))


def _latency(row: LatencyRow) -> str:
    avg = f", t_avg {row.t_avg} usec" if row.t_avg is not None else ""
    return f"{row.size:,} B: t_typical {row.t_typical} usec{avg}"


def p2p(parsed: P2pBandwidthLatency) -> str:
    gpus = parsed.gpus
    pairs = gpus * (gpus - 1)
    absent = set(parsed.no_peer)
    access = (
        _("peer access between every pair")
        if not absent
        else _("{n} of {pairs} GPU pairs without peer access (CANNOT Access Peer)").format(n=len(absent), pairs=pairs)
    )
    parts = []
    for m in parsed.matrices:
        if not m.p2p or m.side != "GPU":
            continue
        peer = [v for r, c, v in m.cells() if (r, c) not in absent]
        if peer:
            unjudged = "" if m.bandwidth else f" ({_(LATENCY_UNJUDGED)})"
            parts.append(f"{_label(m)} {_span(peer)} {m.unit}{unjudged}")
    line = ngettext("{n} GPU, {access}", "{n} GPUs, {access}", gpus).format(n=f"{gpus:,}", access=access)
    if parts:
        line += _("; P2P=Enabled between GPUs: {figures}").format(figures=listed(parts))
    if absent:
        fallback = [v for m in parsed.matrices if m.p2p and m.bandwidth for r, c, v in m.cells() if (r, c) in absent]
        if fallback:
            line += _(
                "; without peer access the P2P=Enabled copies ({span} GB/s) go through the host: not a peer-to-peer "
                "figure"
            ).format(span=_span(fallback))
    return line


def _label(m: P2pMatrix) -> str:
    reads = "(P2P Reads)" in m.title  # the sample's own title: matched as it prints it
    if not m.bandwidth:
        return _("latency")
    if m.bidirectional:
        return _("bidirectional (reads)") if reads else _("bidirectional")
    return _("unidirectional (reads)") if reads else _("unidirectional")
