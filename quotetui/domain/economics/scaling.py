"""Scaling efficiency: how much of a smaller-scale MFU survives when a job spans more nodes (DESIGN.md
section 3). An MFU is a whole-job figure; only one measured across fewer nodes than the job is extrapolated."""

from __future__ import annotations

from fractions import Fraction

from quotetui.domain.economics.assumptions import SCALING_BY_FABRIC, Assumed
from quotetui.domain.economics.exact import percent_text
from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.errors import BadInput
from quotetui.language import N_, _

WHOLE_JOB = Assumed(Fraction(1), "default", lambda: _("the MFU is a whole-job figure (communication included): 100 %"))
"""No scaling on top of an MFU that was measured (or assumed) for the whole job (its note in the language in use
when it is read)."""

FABRIC_WORDS = {
    InterFabric.INFINIBAND_NDR: N_("infiniband ndr across nodes: {share} assumed"),
    InterFabric.INFINIBAND_HDR: N_("infiniband hdr across nodes: {share} assumed"),
    InterFabric.ROCE_V2: N_("roce v2 across nodes: {share} assumed"),
    InterFabric.VENDOR_RDMA: N_("vendor rdma across nodes: {share} assumed"),
    InterFabric.ETHERNET: N_("ethernet across nodes: {share} assumed"),
    InterFabric.UNKNOWN: N_("unknown across nodes: {share} assumed"),
}
"""A fabric's default scaling in words, one sentence per fabric of ``SCALING_BY_FABRIC`` (the fabric named by its
code, spaced)."""


def default_scaling(gpus: int, gpus_per_node: int | None, intra: IntraFabric, inter: InterFabric) -> Assumed:
    """Scaling efficiency by fabric, for a per-GPU or smaller-scale measurement extrapolated to ``gpus``:
    1.0 inside one NVLink node; named defaults across nodes."""
    one_node = gpus_per_node is not None and gpus <= gpus_per_node
    if gpus == 1 or (one_node and intra in (IntraFabric.NVSWITCH, IntraFabric.NVLINK_BRIDGE)):
        return Assumed(Fraction(1), "default", _("one node with NVLink: no network in the way (100 %)"))
    if one_node:
        return Assumed(Fraction(9, 10), "default", _("one node over PCIe: 90 % assumed"))
    if inter is InterFabric.NONE:
        raise BadInput(_("{gpus} GPUs need several nodes, and the offer has no scale-out network").format(gpus=gpus))
    value = SCALING_BY_FABRIC[inter]
    return Assumed(value, "default", _(FABRIC_WORDS[inter]).format(share=percent_text(value, 1)))


def job_scaling(mfu: Assumed, gpus: int, gpus_per_node: int | None, intra: IntraFabric, inter: InterFabric) -> Assumed:
    """The scaling a training plan applies on top of ``mfu``. MFU is a whole-job figure (PaLM's definition:
    model FLOPs achieved over the whole cluster's peak), so a given, default or whole-job MFU already includes
    communication: 1.0. Only an MFU measured on fewer GPUs, across fewer nodes, than the plan runs on is
    extrapolated, with the fabric's scaling efficiency."""
    per_node = gpus_per_node or 8
    if gpus > per_node and inter is InterFabric.NONE:
        raise BadInput(_("{gpus} GPUs need several nodes, and the offer has no scale-out network").format(gpus=gpus))
    measured = mfu.measured_gpus
    if measured is None or measured >= gpus or -(-measured // per_node) >= -(-gpus // per_node):
        return WHOLE_JOB
    fabric = default_scaling(gpus, gpus_per_node, intra, inter)
    return Assumed(
        fabric.value,
        "default",
        _("the MFU was measured on {measured} GPUs, extrapolated to {gpus}: {note}").format(
            measured=measured, gpus=gpus, note=fabric.note
        ),
    )


__all__ = ["WHOLE_JOB", "default_scaling", "job_scaling"]
