"""A multi-host AllReduce measures the scale-out network, not NVLink: it is judged against the offer's NICs, and
so are AllGather and ReduceScatter (ring collectives too: the bound below holds for them unchanged, since their
busbw is ``algbw × (n−1)/n`` and the data a host's NICs carry ``algbw × (N−1)/N``, the same ratio). Other
collectives across hosts are stored unjudged (``collectives.py``).

The bound. A ring AllReduce over ``n`` ranks reports ``busbw = algbw × 2(n−1)/n``; the data each host sends
over its NICs is ``algbw × 2(N−1)/N`` for ``N`` hosts. With ``r = n/N`` ranks per host, each using its share
of the node's NICs (``inter_gbps_per_gpu`` Gb/s per GPU), the host's NICs carry at most
``nic = r × inter_gbps_per_gpu / 8`` GB/s, so

    busbw ≤ nic × [2(n−1)/n] / [2(N−1)/N] = nic × (n−1)·N / (n·(N−1)).

For 8×400 Gb/s NDR per 8-GPU node the NICs give 400 GB/s a host and a large run (many hosts) tends to that
figure; two hosts could show more (×1.875 for 16 ranks), since half the reduction stays inside each host, but
never more than the hosts' own NVLink gives (one way per GPU: 450 GB/s for H100): the bound is the lower of the
two, and says which one binds.
Checked against two published runs (tests/fixtures/benchlogs/shared/): GCP A3 Mega, 2 × 8 H100 with 8×200
Gb/s: bound 375 GB/s, measured 338.82 (90 %); a DGX H100 pair running 2 GPUs each on 400 Gb/s NICs: bound
150, measured 147.98 (99 %). In-network reduction (SHARP, NVLS) can beat the bound: a figure above it is shown,
not flagged.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.economics.exact import dec, percent_text, q
from quotetui.domain.verification.collectives import kind
from quotetui.domain.verification.findings import SCALE_OUT_MIN_SHARE, Finding, FindingCode, Log, Severity, Sold
from quotetui.domain.verification.logs import BusRun
from quotetui.language import N_, _


@dataclass(frozen=True, slots=True)
class ScaleOut:
    """A multi-host run held against the offer's NICs."""

    hosts: int
    ranks_per_host: int
    nic_gbs: Fraction  # GB/s the NICs of one host carry for its ranks
    bound: Fraction  # the busbw those NICs allow, or NVLink where that is lower
    limit: str  # "NICs" or "NVLink": which one sets the bound (an English message id: shown through ``_()``)
    measured: Fraction
    size: int  # bytes of the message the figure was measured at

    @property
    def share(self) -> Fraction:
        return self.measured / self.bound

    def describe(self, gbps_per_gpu: object) -> str:
        return _(
            "{hosts} hosts × {ranks} GPUs at {gbps} Gb/s of NIC per GPU: busbw ≤ {bound} GB/s ({limit}); measured "
            "{measured} = {share}"
        ).format(
            hosts=self.hosts,
            ranks=self.ranks_per_host,
            gbps=gbps_per_gpu,
            bound=dec(self.bound, 2),
            limit=_(self.limit),
            measured=dec(self.measured, 2),
            share=percent_text(self.share, 1),
        )


def scale_out(p: BusRun, sold: Sold) -> ScaleOut | None:
    """The run against the offer's NICs; None for a collective no bound judges, a single-host run, a run whose
    hosts are not listed or uneven, one without a large message, or an offer whose NIC bandwidth per GPU is not
    recorded."""
    hosts = len(p.hosts)
    large = p.large_message()
    if not kind(p.collective).ring or not p.ranks_listed or hosts < 2 or large is None or not sold.inter_gbps_per_gpu:
        return None
    if p.ranks % hosts:
        return None  # uneven ranks per host: the slowest host bounds it, and which one is not known
    per_host = p.ranks // hosts
    nic = per_host * q(sold.inter_gbps_per_gpu) / 8
    bound, limit = nic * Fraction((p.ranks - 1) * hosts, p.ranks * (hosts - 1)), N_("NICs")
    gpu = sold.gpu
    if per_host > 1 and gpu.nvlink_gbs and not gpu.nvlink_note and Fraction(gpu.nvlink_gbs, 2) < bound:
        bound, limit = Fraction(gpu.nvlink_gbs, 2), N_("NVLink")
    return ScaleOut(hosts, per_host, nic, bound, limit, q(large.busbw), large.size)


def scale_out_findings(logs: list[Log], sold: Sold) -> list[Finding]:
    findings = []
    for log in logs:
        p = log.parsed
        if not isinstance(p, BusRun) or (run := scale_out(p, sold)) is None or run.share >= SCALE_OUT_MIN_SHARE:
            continue
        findings.append(
            Finding(
                FindingCode.SCALE_OUT_LOW,
                Severity.WARNING,
                _("Scale-out {collective} {gbs} GB/s, ≤ {bound} possible").format(
                    collective=kind(p.collective).title, gbs=dec(run.measured, 2), bound=dec(run.bound, 0)
                ),
                _(
                    "Across {hosts} hosts the NICs sold ({gbps} Gb/s per GPU) and NVLink allow about {bound} GB/s bus "
                    "bandwidth; under {floor} of that means GPUDirect RDMA off, a NIC per GPU missing, rails "
                    "crossed or a slow switch path. Multi-node training runs at this speed: ask for it fixed and "
                    "rerun before accepting."
                ).format(
                    hosts=run.hosts,
                    gbps=sold.inter_gbps_per_gpu,
                    bound=dec(run.bound, 0),
                    floor=percent_text(SCALE_OUT_MIN_SHARE, 0),
                ),
                (
                    _("{log}: {run} at {size} bytes").format(
                        log=log.label, run=run.describe(sold.inter_gbps_per_gpu), size=f"{run.size:,}"
                    ),
                ),
                (log.evidence_id,),
            )
        )
    return findings
