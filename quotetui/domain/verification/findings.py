"""Findings: what the evidence on record says against an offer, each with a stable code, a severity,
the evidence it rests on and a plain explanation. The thresholds are the named constants below."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.verification.logs import ParsedLog

GEMM_MIN_SHARE = Fraction(7, 10)
"""A verified dense BF16 GEMM under 70 % of the sold model's datasheet peak is throttled, shared or another
part: healthy GPUs reach 80-87 % (DESIGN.md section 4.1)."""

ALLREDUCE_MIN_SHARE = Fraction(7, 10)
"""Single-node AllReduce bus bandwidth on messages of 128 MiB or more under 70 % of the sold model's one-way
NVLink bandwidth per GPU is low: 315 GB/s for H100/H200 SXM (nodes measure ~360-480), 210 for A100 SXM."""

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


class Severity(StrEnum):
    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"

    @property
    def order(self) -> int:
        return {"critical": 0, "warning": 1, "info": 2}[self.value]


CODES: dict[str, str] = {
    "vgpu": "a GPU name or memory shows a vGPU profile: a share of a GPU, not a whole one",
    "mig": "a MIG slice or MIG mode: a fraction of a GPU, not a whole one",
    "pcie-topology": "sold as SXM/NVLink, but GPU-to-GPU paths are PCIe or have fewer NVLinks than the model",
    "model-mismatch": "the GPU the machine reports is not the model sold",
    "gemm-below-peak": f"verified BF16 GEMM under {int(GEMM_MIN_SHARE * 100)} % of the datasheet dense peak",
    "allreduce-low": "large-message AllReduce bus bandwidth far below what the model's NVLink gives",
    "implausible-claim": "a claim that cannot be true, is rarely true, or that a measurement contradicts",
    "price-below-market": f"price under {int(PRICE_FLOOR_SHARE * 100)} % of the market median for the model",
    "hardware-fault": "gpu-burn FAULTY, a DCGM test failed or skipped, ECC errors, NCCL wrong results",
    "gpu-count": "a log of the node shows fewer GPUs than the offer sells per node",
    "scale-out-low": f"a multi-host AllReduce under {int(SCALE_OUT_MIN_SHARE * 100)} % of what the offer's NICs allow",
    "configuration": "a DCGM deployment check failed (persistence mode, permissions …): set-up, not hardware",
}


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    title: str
    explanation: str
    evidence: tuple[str, ...]  # the lines and figures it rests on, each naming its log
    evidence_ids: tuple[int, ...] = ()

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


@dataclass(frozen=True, slots=True)
class Sold:
    """What the offer says the buyer gets."""

    gpu: GpuSpec
    gpus_per_node: int
    intra_fabric: IntraFabric = IntraFabric.UNKNOWN
    inter_fabric: InterFabric = InterFabric.UNKNOWN
    inter_gbps_per_gpu: Decimal | None = None  # scale-out NIC bandwidth per GPU, Gb/s (None: not recorded)

    @property
    def nvlink_sold(self) -> bool:
        return self.gpu.form_factor.value == "sxm" or self.intra_fabric is IntraFabric.NVSWITCH


@dataclass(frozen=True, slots=True)
class MarketReference:
    """The offer's lowest price per GPU-hour and the market median it is held against, one currency."""

    price: Fraction
    median: Fraction
    currency: str
    basis: str  # "14 cloud catalog listings (lambda, mithril)" or "5 other offers in this database"


def sort_findings(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (f.severity.order, f.code))
