"""Findings: what the evidence on record says against an offer, each with a stable code, a severity,
the evidence it rests on and a plain explanation. The thresholds are the named constants below."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, Self

from quotetui.domain.enums import GEMM_MIN_SHARE as GEMM_MIN_SHARE  # the acceptance item's title names it
from quotetui.domain.enums import Choice, FormFactor, InterFabric, IntraFabric, Severity
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.wording import with_article
from quotetui.language import ENGLISH, N_, NP_, _
from quotetui.language.numbers import percent

if TYPE_CHECKING:  # the parsers' types: a finding is read without them (``offers``, ``explain``)
    from quotetui.domain.verification.logs import ParsedLog


ALLREDUCE_MIN_SHARE = Fraction(7, 10)
"""Single-node AllReduce (and AllGather, ReduceScatter: ring collectives too) bus bandwidth on messages of 128 MiB
or more under 70 % of the sold model's one-way NVLink bandwidth per GPU is low: 315 GB/s for H100/H200 SXM (nodes
measure ~360-480), 210 for A100 SXM."""

PRICE_FLOOR_SHARE = Fraction(1, 2)
"""A price per GPU-hour under half the market median for the same model is too good to be a whole GPU of
that model: likely a slice, a used or a consumer card."""

MIN_PEER_OFFERS = 3
"""Without cloud catalog prices, the market median is taken over other offers of the same model in the
database, but only when there are at least this many."""

SCALE_OUT_MIN_SHARE = Fraction(6, 10)
"""A multi-host AllReduce under 60 % of the bus bandwidth the offer's NICs allow (``scaleout``: the bound from
NIC Gb/s per GPU, ranks and hosts) is a network fault or a set-up fault; published runs reach 90-99 %, and
NCCL tuning alone moves a healthy fabric by well under 40 %."""

CLAIM_SHORTFALL_SHARE = Fraction(9, 10)
"""A measurement under 90 % of what the provider claimed for the same metric contradicts the claim."""

NVLINK_COPY_MIN_SHARE = Fraction(7, 10)
"""An nvbandwidth copy between two GPUs (``device_to_device_memcpy_read_ce`` and its write, SM and
bidirectional kin: one pair at a time) under 70 % of the sold model's NVLink is a slow, degraded or missing
link: 70 % of one way (``nvlink_gbs`` / 2) for a one-direction figure, of both ways for a ``…_total``. Healthy
NVSwitch boards copy at 80-86 % of one way: 8×H100 SXM 370.9 of 450 GB/s (82 %), 8×H800 172 of 200 (86 %),
B300 765 of 900 (85 %); Azure's node health check fails an H100 pair under 335 (74 %). A pair printed ``N/A``
has no peer access at all. p2pBandwidthLatencyTest's P2P=Enabled matrices are held the same way (unidirectional
to one way, bidirectional to both: 8×H100 SXM 365-394 and 738-775 GB/s); its pairs that ``CANNOT Access Peer``
have none."""

HOST_COPY_MIN_GBS = Fraction(20)
"""An nvbandwidth host-to-device or device-to-host copy under 20 GB/s: the GPU sits on less than a PCIe Gen4
x16 link (a Gen3 or x8 slot, a riser, a bifurcated switch port) or is copied to from the far CPU socket. Gen4
x16 measures about 25-26 GB/s (nvbandwidth's README: 26.03), Gen5 x16 about 50-57 (8×H800: 55.3, 8×B300:
55.6), Gen3 x16 and Gen4 x8 about 12-13. Every datacenter GPU sold has at least Gen4 x16; whether the host
gives it Gen5 is not known from the model, so the floor is the one Gen4 clears."""

IB_MIN_SHARE = Fraction(8, 10)
"""A perftest bandwidth run's (ib_write_bw, ib_read_bw, ib_send_bw) average at its largest message under 80 % of
the offer's scale-out Gb/s per GPU (one NIC's run, held against one GPU's share; a bidirectional run against twice
that): a link trained below its rate (HDR on an NDR fabric gives 50 %), a NIC on a narrow PCIe link or the far
socket, or a misconfigured port. A healthy NIC moves 92-98 % of its line rate with large messages: 392.8 of 400
Gb/s on NDR (Azure's health checks), 92.39 of 100 on RoCE (the fixture). A timed run (-D) prints no peak: its
average is the figure either way."""

IB_MIN_MESSAGE_BYTES = 65536
"""perftest's default message size: a run whose largest message is smaller measures latency, not the link."""


class FindingCode(Choice):
    """What a finding says is wrong, with its word and what it means (``quotetui bench codes``): the code is stable
    (stored, exported, in JSON, in docs/VERIFICATION.md), the word is how a view shows it (a :class:`Choice`'s
    ``word``: the code itself in English, ``宣称不可信`` in Chinese: a few words, for a table's narrow flags column),
    the meaning is for people: an English message id (its thresholds filled in from the constants above; a
    ``share`` is a percentage), shown in the language in use by :attr:`said_meaning`. A rule makes findings only
    of these (``rules.py``)."""

    template: str
    figures: dict[str, object]

    def __new__(cls, value: str, word: str, template: str, figures: dict[str, object] | None = None) -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member._word, member.template, member.figures = word, template, figures or {}
        return member

    @property
    def meaning(self) -> str:
        """What the code means, in English (the JSON of ``bench codes``)."""
        return self.template.format(**self._figures(ENGLISH))

    @property
    def said_meaning(self) -> str:
        """What the code means, in the language in use."""
        return _(self.template).format(**self._figures())

    def _figures(self, tag: str | None = None) -> dict[str, object]:
        """The thresholds, a ``share`` written as a percentage (in the language ``tag``, else the one in use)."""
        return {name: percent(value, tag) if name == "share" else value for name, value in self.figures.items()}

    VGPU = (
        "vgpu",
        NP_("finding", "vgpu"),
        N_("a GPU name or memory shows a vGPU profile: a share of a GPU, not a whole one"),
    )
    MIG = "mig", NP_("finding", "mig"), N_("a MIG slice or MIG mode: a fraction of a GPU, not a whole one")
    PCIE_TOPOLOGY = (
        "pcie-topology",
        NP_("finding", "pcie-topology"),
        N_("sold as SXM/NVLink, but GPU-to-GPU paths are PCIe or have fewer NVLinks than the model"),
    )
    MODEL_MISMATCH = (
        "model-mismatch",
        NP_("finding", "model-mismatch"),
        N_("the GPU the machine reports is not the model sold"),
    )
    IMPOSSIBLE_MEASUREMENT = (
        "impossible-measurement",
        NP_("finding", "impossible-measurement"),
        N_("a log reports more than the hardware can: edited, or from another machine"),
    )
    GEMM_BELOW_PEAK = (
        "gemm-below-peak",
        NP_("finding", "gemm-below-peak"),
        N_("verified BF16 GEMM under {share} of the datasheet dense peak"),
        {"share": int(GEMM_MIN_SHARE * 100)},
    )
    ALLREDUCE_LOW = (
        "allreduce-low",
        NP_("finding", "allreduce-low"),
        N_("large-message AllReduce bus bandwidth far below what the model's NVLink gives"),
    )
    COLLECTIVE_LOW = (
        "collective-low",
        NP_("finding", "collective-low"),
        N_("large-message AllGather or ReduceScatter bus bandwidth far below what the model's NVLink gives"),
    )
    IMPLAUSIBLE_CLAIM = (
        "implausible-claim",
        NP_("finding", "implausible-claim"),
        N_("a claim that cannot be true, is rarely true, or that a measurement contradicts"),
    )
    PRICE_BELOW_MARKET = (
        "price-below-market",
        NP_("finding", "price-below-market"),
        N_("price under {share} of the market median for the model"),
        {"share": int(PRICE_FLOOR_SHARE * 100)},
    )
    HARDWARE_FAULT = (
        "hardware-fault",
        NP_("finding", "hardware-fault"),
        N_("gpu-burn FAULTY, a DCGM test failed or skipped, ECC errors, NCCL wrong results"),
    )
    GPU_COUNT = (
        "gpu-count",
        NP_("finding", "gpu-count"),
        N_("a log of the node shows fewer GPUs than the offer sells per node"),
    )
    SCALE_OUT_LOW = (
        "scale-out-low",
        NP_("finding", "scale-out-low"),
        N_("a multi-host AllReduce, AllGather or ReduceScatter under {share} of what the offer's NICs allow"),
        {"share": int(SCALE_OUT_MIN_SHARE * 100)},
    )
    CONFIGURATION = (
        "configuration",
        NP_("finding", "configuration"),
        N_("a DCGM deployment check failed (persistence mode, permissions …): set-up, not hardware"),
    )
    NVLINK_COPY_LOW = (
        "nvlink-copy-low",
        NP_("finding", "nvlink-copy-low"),
        N_(
            "an nvbandwidth or p2pBandwidthLatencyTest GPU-to-GPU copy under {share} of the model's NVLink, "
            "or a pair without peer access"
        ),
        {"share": int(NVLINK_COPY_MIN_SHARE * 100)},
    )
    HOST_COPY_LOW = (
        "host-copy-low",
        NP_("finding", "host-copy-low"),
        N_("an nvbandwidth host↔GPU copy under {gbs} GB/s: less than a PCIe Gen4 x16 link"),
        {"gbs": HOST_COPY_MIN_GBS},
    )
    IB_BANDWIDTH_LOW = (
        "ib-bandwidth-low",
        NP_("finding", "ib-bandwidth-low"),
        N_("ib_write_bw, ib_read_bw or ib_send_bw under {share} of the offer's scale-out Gb/s per GPU"),
        {"share": int(IB_MIN_SHARE * 100)},
    )


@dataclass(frozen=True, slots=True)
class Finding:
    code: FindingCode
    severity: Severity
    title: str
    explanation: str
    evidence: tuple[str, ...]  # the lines and figures it rests on, each naming its log
    evidence_ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", FindingCode(self.code))  # a code's text is its member; an unknown one fails

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "title": self.title,
            "explanation": self.explanation,
            "evidence": list(self.evidence),
            "evidence_ids": list(self.evidence_ids),
        }


@dataclass(frozen=True, slots=True)
class Log:
    """A parsed log on record: its evidence row and the label it was imported under."""

    evidence_id: int
    label: str
    parsed: ParsedLog
    machine: str | None = None  # the host it ran on, as recorded (None: not known)


class SoldTerms(Protocol):
    """The fields of an offer the rules judge a log against."""

    gpus_per_node: int
    intra_fabric: IntraFabric
    inter_fabric: InterFabric
    inter_gbps_per_gpu: Decimal | None


@dataclass(frozen=True, slots=True)
class Sold:
    """What the offer says the buyer gets."""

    gpu: GpuSpec
    gpus_per_node: int
    intra_fabric: IntraFabric = IntraFabric.UNKNOWN
    inter_fabric: InterFabric = InterFabric.UNKNOWN
    inter_gbps_per_gpu: Decimal | None = None  # scale-out NIC bandwidth per GPU, Gb/s (None: not recorded)

    @classmethod
    def of(cls, gpu: GpuSpec, offer: SoldTerms) -> Sold:
        """What an offer (a stored row or the engine's input: both carry these fields) sells, as judged."""
        return cls(gpu, offer.gpus_per_node, offer.intra_fabric, offer.inter_fabric, offer.inter_gbps_per_gpu)

    @property
    def nvlink_sold(self) -> bool:
        return self.gpu.form_factor is FormFactor.SXM or self.intra_fabric is IntraFabric.NVSWITCH


@dataclass(frozen=True, slots=True)
class MarketReference:
    """The offer's lowest price per GPU-hour and the market median it is held against, one currency."""

    price: Fraction
    median: Fraction
    currency: str
    basis: str  # "14 cloud catalog listings (lambda, mithril)" or "5 other offers in this database"


def sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.severity.order, f.code))


def a_or_an(noun: str) -> str:
    """``noun`` after its indefinite article, in the language in use: "an H100 SXM", "a GB200", "an AllGather"
    (``wording.with_article``). Each article is a message of its own, which a language without articles
    translates as the noun alone."""
    if with_article(noun).startswith("an "):
        return _("an {noun}").format(noun=noun)
    return _("a {noun}").format(noun=noun)
