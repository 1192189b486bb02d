"""Measurements no hardware can produce: a log edited by hand, or taken from another machine and relabelled.
Such a figure is flagged (``impossible-measurement``), kept as evidence, and never becomes a verified figure,
an acceptance pass or a better price per delivered PFLOP-hour.

The bounds are the datasheet's own ceilings, so no healthy run comes near them: a GEMM sweep or a training run
above the model's dense BF16 peak (an MFU above 1); a collective's bus bandwidth, whichever collective (nccl-tests
normalises each to one rank's link traffic; on one host or across hosts: the network never beats NVLink), or a
copy between two GPUs (nvbandwidth, p2pBandwidthLatencyTest; a GPU's copy to itself on the diagonal is its memory,
not a link), above the model's NVLink bandwidth per GPU both ways together (a healthy H100 node measures 480 GB/s
of busbw against 900, a copy 371 against 900, a bidirectional P2P copy 775 against 900). A latency is never
compared with it.
"""

from __future__ import annotations

from decimal import Decimal

from quotetui.domain.economics.exact import q
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.verification.collectives import busbw_agrees, kind
from quotetui.domain.verification.findings import Finding, FindingCode, Log, Severity, a_or_an
from quotetui.domain.verification.links import both_ways
from quotetui.domain.verification.logs import (
    BusRun,
    GemmSweep,
    NvBandwidth,
    P2pBandwidthLatency,
    ParsedLog,
    PerftestBw,
    TrainingThroughput,
)
from quotetui.language import _
from quotetui.language.lists import labelled


def impossible(parsed: ParsedLog, gpu: GpuSpec) -> str:
    """Why ``parsed`` reports more than a ``gpu`` can do ("" when it does not)."""
    peak = q(gpu.bf16_tflops)
    if isinstance(parsed, GemmSweep) and parsed.half_precision and q(parsed.tflops) > peak:
        return _("{statistic} {tflops} TFLOPS is more than the {model}'s {peak} TFLOPS peak").format(
            statistic=parsed.statistic_word, tflops=parsed.tflops, model=gpu.name, peak=gpu.bf16_tflops
        )
    if isinstance(parsed, TrainingThroughput) and q(parsed.median_tflops) > peak:
        return _("{tflops} TFLOP/s per GPU is more than the {model}'s {peak} TFLOPS peak (an MFU above 100 %)").format(
            tflops=parsed.median_tflops, model=gpu.name, peak=gpu.bf16_tflops
        )
    if isinstance(parsed, BusRun) and (edited := _edited(parsed)):
        return edited
    if isinstance(parsed, PerftestBw) and (edited := _edited_perftest(parsed)):
        return edited
    links = Decimal(gpu.nvlink_gbs) if gpu.nvlink_gbs and not gpu.nvlink_note else None
    if links is None:
        return ""
    large = parsed.large_message() if isinstance(parsed, BusRun) else None  # any collective, across hosts too
    if large is not None and large.busbw > links:
        return _("busbw {gbs} GB/s is more than the {model}'s {links} GB/s of NVLink per GPU").format(
            gbs=large.busbw, model=gpu.name, links=links
        )
    # a copy in one direction is held to one-way NVLink (450 GB/s on an H100), one that adds both to both ways
    cells: list[tuple[Decimal, bool]] = []
    if isinstance(parsed, NvBandwidth):
        cells = [(v, both_ways(m)) for m in parsed.matrices if m.between_gpus and m.bandwidth
                 for _, _, v in m.cells() if v is not None]  # fmt: skip
    elif isinstance(parsed, P2pBandwidthLatency):
        cells = [(v, m.bidirectional) for m in parsed.matrices if m.bandwidth for _, _, v in m.cells()]
    for value, both in sorted(cells, reverse=True):
        ceiling = links if both else links / 2
        if value > ceiling:
            said = (
                _("a copy of {gbs} GB/s between two GPUs is more than the {model}'s {ceiling} GB/s of NVLink both ways")
                if both
                else _(
                    "a copy of {gbs} GB/s between two GPUs is more than the {model}'s {ceiling} GB/s of NVLink one way"
                )
            )
            return said.format(gbs=value, model=gpu.name, ceiling=ceiling)
    return ""


def _edited(p: BusRun) -> str:
    """A judged row whose busbw is not its algbw × the collective's factor: nccl-tests computes one from the other,
    so a figure that breaks the rule was edited by hand (``collectives.busbw_agrees``)."""
    large = p.large_message()
    if large is None or not p.ranks_listed:
        return ""
    for algbw, busbw in ((large.out_algbw, large.out_busbw), (large.in_algbw, large.in_busbw)):
        if (
            algbw is not None
            and busbw is not None
            and not busbw_agrees(p.collective, p.ranks, algbw, busbw, legacy=p.layout == "legacy")
        ):
            return _(
                "busbw {busbw} GB/s at {size} bytes is not its algbw {algbw} GB/s × {a_collective}'s factor over "
                "{ranks} ranks: a figure edited by hand"
            ).format(
                busbw=busbw,
                size=f"{large.size:,}",
                algbw=algbw,
                a_collective=a_or_an(kind(p.collective).title),
                ranks=p.ranks,
            )
    return ""


def _edited_perftest(p: PerftestBw) -> str:
    """A judged perftest row whose average is above its own peak (a timed run's peak is 0.00: not measured) or is
    not its message rate × size: perftest computes them from one count, so such a figure was edited by hand."""
    row = p.judged()
    if row.peak > 0 and row.average > row.peak + Decimal("0.01"):
        return _("BW average {average} {unit} above its own BW peak {peak}: a figure edited by hand").format(
            average=row.average, unit=p.unit, peak=row.peak
        )
    if row.msg_rate > 0 and row.average > 0 and not row.rate_agrees(p.unit):
        return _(
            "BW average {average} {unit} at {size} bytes is not its message rate {rate} Mpps × the size: a figure "
            "edited by hand"
        ).format(average=row.average, unit=p.unit, size=f"{row.size:,}", rate=row.msg_rate)
    return ""


def impossible_measurements(logs: list[Log], gpu: GpuSpec) -> list[Finding]:
    found = []
    for log in logs:
        if why := impossible(log.parsed, gpu):
            found.append(
                Finding(
                    FindingCode.IMPOSSIBLE_MEASUREMENT,
                    Severity.CRITICAL,
                    _("impossible measurement: {why}").format(why=why),
                    _(
                        "No healthy or unhealthy machine reports more than the datasheet's ceiling: the log was "
                        "edited, or comes from another machine. It is kept as evidence, but never counts as a verified "
                        "figure or for acceptance. Ask for the run again, in front of you or through the probe."
                    ),
                    (labelled(log.label, why),),
                    (log.evidence_id,),
                )
            )
    return found
