"""nccl-tests' collectives: what each one's bus bandwidth means, and which bound may judge it.

nccl-tests normalises every collective's ``busbw`` to the traffic one rank's links carry (its PERFORMANCE.md):
``algbw`` × 2(n−1)/n for AllReduce, × (n−1)/n for AllGather, ReduceScatter and AlltoAll, × 1 for Broadcast,
Reduce and SendRecv. So two bounds hold for every collective alike, and one only for some:

- the ceiling: no collective's busbw exceeds what a GPU's links carry both ways (``plausible.py``): a figure
  above it is an impossible measurement, whatever the collective;
- the floor, judged only where NCCL's algorithm makes the link the limit it reaches: the ring collectives
  (AllReduce, AllGather, ReduceScatter) move (n−1)/n of the data through every rank's links, so on one host
  NVLink sets their busbw (a node far below it has a degraded link) and across hosts the NICs do, by the same
  bound for all three (``scaleout.py``: the data a host's NICs carry scales as busbw does);
- no floor for the others: Broadcast and Reduce run as a pipelined chain whose speed the root's copy engine and
  the chunking set, AlltoAll sends a small message to every rank at once (switch and NIC message rates, not
  bandwidth, set it), SendRecv pairs ranks that may or may not share a link, HyperCube, Gather and Scatter
  have no published healthy range. Their runs are stored as evidence under their own name and said to be
  unjudged, never held to AllReduce's figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from quotetui.language import N_


@dataclass(frozen=True, slots=True)
class Kind:
    name: str  # as the binary names it: all_gather (all_gather_perf)
    title: str  # as people say it: AllGather
    ring: bool  # judged against NVLink on one host and against the NICs across hosts
    unjudged: str = ""  # why no floor judges it (ring collectives: ""): an English message id, shown through ``_()``


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("all_reduce", "AllReduce", True),
        Kind("all_gather", "AllGather", True),
        Kind("reduce_scatter", "ReduceScatter", True),
        Kind("broadcast", "Broadcast", False, N_("a pipelined chain: the root and the chunking set its speed")),
        Kind("reduce", "Reduce", False, N_("a pipelined chain: the root and the chunking set its speed")),
        Kind("alltoall", "AlltoAll", False, N_("every rank sends to every other at once: message rates set its speed")),
        Kind("sendrecv", "SendRecv", False, N_("pairs of ranks that may or may not share a link")),
        Kind("hypercube", "HyperCube", False, N_("no published healthy range")),
        Kind("gather", "Gather", False, N_("one root receives everything: its links alone set the speed")),
        Kind("scatter", "Scatter", False, N_("one root sends everything: its links alone set the speed")),
    )
}
"""Every collective nccl-tests and rccl-tests build a ``<name>_perf`` binary for."""


def kind(name: str) -> Kind:
    """The collective called ``name``; one this table does not know is stored unjudged under its own name."""
    return KINDS.get(name) or Kind(name, name, False, N_("a collective quotetui has no bound for"))


PER_RANK = frozenset({"all_gather", "reduce_scatter", "alltoall"})
"""Collectives whose ``count`` is one rank's share: ``size`` = count × type × ranks."""


def busbw_factors(name: str, ranks: int, legacy: bool = False) -> frozenset[Fraction]:
    """busbw ÷ algbw as nccl-tests computes it for ``name`` over ``ranks`` ranks: 2(n−1)/n for AllReduce, (n−1)/n
    for AllGather, ReduceScatter and AlltoAll, 1 for Broadcast, Reduce and SendRecv (none known: empty). The
    nccl-tests of 2019 printed an AllGather's busbw equal to its algbw; a ``legacy`` layout (no root column) may
    show either factor for the collectives that count one rank's share."""
    if name == "all_reduce":
        return frozenset({Fraction(2 * (ranks - 1), ranks)})
    if name in PER_RANK:
        return frozenset({Fraction(ranks - 1, ranks)} | ({Fraction(1)} if legacy else set()))
    if name in ("broadcast", "reduce", "sendrecv"):
        return frozenset({Fraction(1)})
    return frozenset()


def busbw_agrees(name: str, ranks: int, algbw: Decimal, busbw: Decimal, legacy: bool = False) -> bool:
    """Whether a printed busbw is its printed algbw × the collective's factor; both are printed to two places, so
    within 0.005 × (1 + factor). Rows under 1 GB/s of algbw are too coarse to tell and agree."""
    factors = busbw_factors(name, ranks, legacy)
    if not factors or algbw < 1:
        return True
    return any(abs(Fraction(busbw) - Fraction(algbw) * f) <= Fraction(5, 1000) * (1 + f) for f in factors)
