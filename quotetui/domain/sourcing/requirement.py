"""What a buyer needs, written down once (an RFQ's requirement), and whether an offer meets it, line by line.

Each line of a requirement gives a verdict for an offer: meets it (✓), does not (✗), or cannot be told from
what is on record (?), with the reason in words. An offer with any ✗ is not compliant: it is shown, never
ranked or awarded; one with a ? is compliant with that line to be asked about.

Fabrics are compared by the order below (a better fabric meets a lesser requirement): NVSwitch over an NVLink
bridge over PCIe inside a node; InfiniBand NDR over HDR over RoCE v2 over a vendor's RDMA over plain Ethernet
between nodes. An offer that gives only part of the GPUs needed still meets the stock line (the need can be
split across offers), unless it cannot hold one training job of the requirement's size.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from quotetui.domain.economics.exact import share_text
from quotetui.domain.enums import AcceptanceCheck, Fabric, InterFabric, IntraFabric
from quotetui.domain.gpus import GpuSpec
from quotetui.language import _, ngettext

if TYPE_CHECKING:
    from quotetui.domain.economics.inputs import OfferInput

INTRA_ORDER: tuple[IntraFabric, ...] = (IntraFabric.PCIE, IntraFabric.NVLINK_BRIDGE, IntraFabric.NVSWITCH)
"""In-node fabrics, lesser first."""
INTER_ORDER: tuple[InterFabric, ...] = (
    InterFabric.NONE,
    InterFabric.ETHERNET,
    InterFabric.VENDOR_RDMA,
    InterFabric.ROCE_V2,
    InterFabric.INFINIBAND_HDR,
    InterFabric.INFINIBAND_NDR,
)
"""Scale-out fabrics, lesser first."""


class Met(StrEnum):
    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"

    @property
    def mark(self) -> str:
        return {"yes": "✓", "no": "✗", "unknown": "?"}[self.value]


@dataclass(frozen=True, slots=True)
class Requirement:
    """One RFQ's need. ``revision`` moves with every change to it: an answer names the revision it answers."""

    name: str
    gpu_models: tuple[GpuSpec, ...]  # acceptable models, equivalents included (H100 SXM5, H800 SXM5)
    gpus: int
    months: int
    start: date
    respond_by: date | None = None
    deliver_by: date | None = None
    min_availability: Decimal | None = None  # a fraction: 0.995
    intra_fabric: IntraFabric | None = None  # at least this inside a node
    inter_fabric: InterFabric | None = None  # at least this between nodes
    job_gpus: int | None = None  # one training job of this many GPUs stays inside one offer's fabric
    region: str | None = None  # where the GPUs must be (data residency): a place named in the offer's region
    checklist: tuple[AcceptanceCheck, ...] = ()
    currency: str = "CNY"
    notes: str | None = None
    revision: int = 1

    @property
    def models(self) -> str:
        """The acceptable models as people read them ("H100 SXM5 or H800 SXM5"), in the language in use."""
        return _(" or ").join(g.name for g in self.gpu_models)


@dataclass(frozen=True, slots=True)
class Verdict:
    line: str  # the requirement's line, as a buyer reads it (in the language in use, as is ``why``)
    met: Met
    why: str


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().strip()


def _at_least(order: tuple[Fabric, ...], given: Fabric, wanted: Fabric, line: str, unstated: str) -> Verdict:
    """The verdict on a fabric line: ``line`` is its template (``{fabric}``: the fabric wanted), ``unstated``
    the reason when the offer does not say; both in the language in use."""
    shown = line.format(fabric=wanted.spaced)
    if given not in order:
        return Verdict(shown, Met.UNKNOWN, unstated)
    if order.index(given) >= order.index(wanted):
        return Verdict(shown, Met.YES, given.spaced)
    return Verdict(shown, Met.NO, _("{fabric} is below it").format(fabric=given.spaced))


def compliance(req: Requirement, offer: OfferInput) -> tuple[Verdict, ...]:
    """Every line of ``req`` for ``offer``, in the requirement's order (lines and reasons in the language in use)."""
    verdicts = []
    keys = {g.key for g in req.gpu_models}
    model_line = _("GPU model: {models}").format(models=req.models)
    if offer.gpu.key in keys:
        verdicts.append(Verdict(model_line, Met.YES, offer.gpu.name))
    else:
        verdicts.append(Verdict(model_line, Met.NO, _("{model} is not one of them").format(model=offer.gpu.name)))
    stock = None if offer.nodes_available is None else offer.nodes_available * offer.gpus_per_node
    stock_line = _("GPUs: {count}").format(count=f"{req.gpus:,}")
    if stock is None:
        verdicts.append(Verdict(stock_line, Met.UNKNOWN, _("stock not stated")))
    elif stock == 0:
        verdicts.append(Verdict(stock_line, Met.NO, _("no nodes on offer")))
    elif stock >= req.gpus:
        verdicts.append(Verdict(stock_line, Met.YES, _("{count} on offer").format(count=f"{stock:,}")))
    else:
        verdicts.append(Verdict(stock_line, Met.YES, _("{count} on offer: part of a split").format(count=f"{stock:,}")))
    if req.job_gpus is not None:
        job_line = ngettext("One job of {n} GPU in one offer", "One job of {n} GPUs in one offer", req.job_gpus).format(
            n=f"{req.job_gpus:,}"
        )
        if stock is None:
            verdicts.append(Verdict(job_line, Met.UNKNOWN, _("stock not stated")))
        elif stock >= req.job_gpus:
            verdicts.append(Verdict(job_line, Met.YES, _("{count} GPUs in one fabric").format(count=f"{stock:,}")))
        else:
            verdicts.append(Verdict(job_line, Met.NO, _("only {count} GPUs on offer").format(count=f"{stock:,}")))
    if req.intra_fabric is not None:
        verdicts.append(
            _at_least(
                INTRA_ORDER,
                offer.intra_fabric,
                req.intra_fabric,
                _("In-node fabric: {fabric} or better"),
                _("In-node fabric not stated"),
            )
        )
    if req.inter_fabric is not None:
        verdicts.append(
            _at_least(
                INTER_ORDER,
                offer.inter_fabric,
                req.inter_fabric,
                _("Scale-out network: {fabric} or better"),
                _("Scale-out network not stated"),
            )
        )
    if req.region is not None:
        region_line = _("Region: {region}").format(region=req.region)
        if not offer.region:
            verdicts.append(Verdict(region_line, Met.UNKNOWN, _("region not stated")))
        elif _key(req.region) in _key(offer.region):
            verdicts.append(Verdict(region_line, Met.YES, offer.region))
        else:
            verdicts.append(Verdict(region_line, Met.NO, _("in {region}").format(region=offer.region)))
    if req.min_availability is not None:
        sla_line = _("SLA availability ≥ {share}").format(share=share_text(req.min_availability, 3))
        if offer.availability is None:
            verdicts.append(Verdict(sla_line, Met.UNKNOWN, _("no SLA availability on record")))
        elif offer.availability >= req.min_availability:
            verdicts.append(Verdict(sla_line, Met.YES, share_text(offer.availability, 3)))
        else:
            verdicts.append(
                Verdict(sla_line, Met.NO, _("{share} promised").format(share=share_text(offer.availability, 3)))
            )
    return tuple(verdicts)


def compliant(verdicts: tuple[Verdict, ...]) -> bool:
    """No line failed (a line that cannot be told is a question, not a failure)."""
    return all(v.met is not Met.NO for v in verdicts)
