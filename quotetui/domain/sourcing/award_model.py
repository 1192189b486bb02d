"""What the award optimiser works on: candidates priced at every node count, the need, and the exact checks both
solvers share (``award.py``: the MILP and the brute force).

Cost is not linear in nodes. A volume tier lowers the price of every node once the GPUs billed reach it, a one-off
setup fee is paid once whatever the count, a prepaid or committed way to buy can be cheaper than on-demand only
from some size on. So a candidate does not carry "the cost of one node": it carries the engine's exact total for
each node count it could be given (``Candidate.costs``), and the solvers use those figures as they are.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Candidate:
    offer_id: int
    provider: str  # providers are compared by this name (already normalised by the caller)
    gpus_per_node: int  # > 0
    nodes_available: int | None  # stock; None = unknown, treated as unlimited (never more than the need uses)
    costs: tuple[Fraction, ...]  # costs[n - 1]: the exact total of n nodes for the whole term, n = 1, 2, …
    delivered: tuple[Fraction, ...] | None = None  # delivered PFLOP-hours of n nodes over the term, when known
    _runs: dict[tuple[int, bool], list[tuple[int, int, list[tuple[Fraction, Fraction]]]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )  # ``runs`` of the first counts, with or without ``delivered``: the same for every solve of one market

    def runs(self, cap: int, with_delivered: bool) -> list[tuple[int, int, list[tuple[Fraction, Fraction]]]]:
        """:func:`runs` of the costs (and the delivered PFLOP-hours) of 1..``cap`` nodes, worked out once."""
        key = (cap, with_delivered)
        if key not in self._runs:
            tables = [self.costs[:cap], *([self.delivered[:cap]] if with_delivered and self.delivered else [])]
            self._runs[key] = runs(*tables)
        return self._runs[key]

    def __post_init__(self) -> None:
        """Every figure exact and above zero: checked once, when the candidate is made."""
        for table, what in ((self.costs, "cost"), (self.delivered or (), "delivered PFLOP-hours")):
            for value in table:
                if not isinstance(value, Fraction | int):
                    raise TypeError(f"offer {self.offer_id}: every {what} must be exact: use Fraction")
                if value <= 0:
                    raise ValueError(f"offer {self.offer_id}: every {what} must be above zero")

    def cost(self, nodes: int) -> Fraction:
        """The exact total of ``nodes`` nodes (0 for none)."""
        return self.costs[nodes - 1] if nodes else Fraction(0)

    def output(self, nodes: int) -> Fraction:
        """The delivered PFLOP-hours of ``nodes`` nodes (0 for none); only for candidates that carry them."""
        assert self.delivered is not None
        return self.delivered[nodes - 1] if nodes else Fraction(0)


@dataclass(frozen=True, slots=True)
class Need:
    gpus: int  # > 0: at least this many GPUs in total
    job_gpus: int | None = None  # each job of this many GPUs sits inside ONE offer: ceil(gpus / job_gpus) jobs
    max_share: Fraction | None = None  # GPUs from one provider <= floor(max_share * gpus), 0 < max_share <= 1
    min_providers: int | None = None  # at least this many providers carry part of the need
    budget: Fraction | None = None  # total cost <= budget
    lean: bool = False  # no node beyond the need (``beyond_need``): every node is needed to meet it
    per_pflop_hour: bool = False  # minimise cost per delivered PFLOP-hour (the candidates carry ``delivered``)

    @property
    def jobs(self) -> int:
        """Jobs the need is made of (0 without ``job_gpus``)."""
        return -(-self.gpus // self.job_gpus) if self.job_gpus else 0

    @property
    def share_cap(self) -> int | None:
        """The most GPUs one provider may give, or None."""
        return math.floor(self.max_share * self.gpus) if self.max_share is not None else None


def node_cap(need: Need, gpus_per_node: int, nodes_available: int | None) -> int:
    """The most nodes of one offer an award gives: its stock, and what covers the need alone (``gpus`` in whole
    nodes, or with ``job_gpus`` the nodes that host every job alone)."""
    covered = need.jobs * need.job_gpus if need.job_gpus else need.gpus
    alone = -(-covered // gpus_per_node)
    return alone if nodes_available is None else max(0, min(alone, nodes_available))


def caps(need: Need, candidates: Sequence[Candidate]) -> list[int]:
    return [node_cap(need, c.gpus_per_node, c.nodes_available) for c in candidates]


def check_inputs(need: Need, candidates: Sequence[Candidate]) -> None:
    if need.gpus <= 0:
        raise ValueError("the need must be at least one GPU")
    if need.job_gpus is not None and need.job_gpus <= 0:
        raise ValueError("a job must be at least one GPU")
    if need.max_share is not None and not 0 < need.max_share <= 1:
        raise ValueError("the largest share per provider must be above 0 and at most 1")
    if need.min_providers is not None and need.min_providers < 0:
        raise ValueError("the least number of providers cannot be negative")
    if len({c.offer_id for c in candidates}) != len(candidates):
        raise ValueError("each offer may be a candidate once")
    for value in (need.max_share, need.budget):
        if isinstance(value, float):
            raise TypeError("floats are not exact: use Fraction")
    for c, cap in zip(candidates, caps(need, candidates), strict=True):
        if c.gpus_per_node <= 0 or (c.nodes_available is not None and c.nodes_available < 0):
            raise ValueError(f"offer {c.offer_id}: GPUs per node must be positive, stock not negative")
        if len(c.costs) < cap:
            raise ValueError(f"offer {c.offer_id}: priced for {len(c.costs)} node counts, the award may give {cap}")
        if need.per_pflop_hour and (c.delivered is None or len(c.delivered) < cap):
            raise ValueError(f"offer {c.offer_id}: its delivered PFLOP-hours are needed at every node count")


def denominator(candidates: Sequence[Candidate], caps_: Sequence[int]) -> int:
    """A common denominator ``d`` of every cost the solvers may add up: two split costs that differ, differ by at
    least ``1/d``."""
    return math.lcm(1, *(cost.denominator for c, cap in zip(candidates, caps_, strict=True) for cost in c.costs[:cap]))


def split_cost(candidates: Sequence[Candidate], counts: Mapping[int, int]) -> Fraction:
    """The exact total of a split (``counts``: candidate index → nodes)."""
    return sum((candidates[i].cost(n) for i, n in counts.items() if n), Fraction(0))


def split_delivered(candidates: Sequence[Candidate], counts: Mapping[int, int]) -> Fraction:
    """The delivered PFLOP-hours of a split."""
    return sum((candidates[i].output(n) for i, n in counts.items() if n), Fraction(0))


def meets_need(need: Need, candidates: Sequence[Candidate], counts: Mapping[int, int]) -> bool:
    """The GPUs and the jobs of ``need`` are covered by ``counts`` (no other constraint)."""
    if sum(n * candidates[i].gpus_per_node for i, n in counts.items()) < need.gpus:
        return False
    if need.job_gpus:
        jobs = sum(n * candidates[i].gpus_per_node // need.job_gpus for i, n in counts.items())
        if jobs < need.jobs:
            return False
    return True


def droppable(need: Need, candidates: Sequence[Candidate], counts: Mapping[int, int]) -> int | None:
    """The index of an offer one of whose nodes the split could give up and still meet the need's GPUs and jobs
    (a node beyond the need), or None when every node is needed. Smaller nodes first, then lower offer ids."""
    by_size = {i: (candidates[i].gpus_per_node, candidates[i].offer_id) for i, n in counts.items() if n}
    used = sorted(by_size, key=by_size.__getitem__)
    for i in used:
        fewer = dict(counts)
        fewer[i] -= 1
        if meets_need(need, candidates, fewer):
            return i
    return None


def beyond_need(need: Need, candidates: Sequence[Candidate], counts: Mapping[int, int]) -> int:
    """How many nodes of a split the need does not use: given up one at a time while the need is still met
    (``droppable``); 0 for a lean split."""
    left, dropped = dict(counts), 0
    while (i := droppable(need, candidates, left)) is not None:
        left[i] -= 1
        dropped += 1
    return dropped


def providers_carrying(need: Need, candidates: Sequence[Candidate], counts: Mapping[int, int]) -> int:
    """Providers that carry part of the need: at least one node, or with jobs at least one job."""
    carried: set[str] = set()
    for i, n in counts.items():
        c = candidates[i]
        if n and (not need.job_gpus or n * c.gpus_per_node >= need.job_gpus):
            carried.add(c.provider)
    return len(carried)


def feasible(need: Need, candidates: Sequence[Candidate], counts: Mapping[int, int], cost: Fraction) -> bool:
    """Whether a split (``counts``: candidate index → nodes, within the caps) meets every constraint of ``need``
    exactly; ``cost`` is its exact total."""
    if not meets_need(need, candidates, counts):
        return False
    if need.budget is not None and cost > need.budget:
        return False
    per_provider: dict[str, int] = {}
    for i, n in counts.items():
        if n:
            c = candidates[i]
            per_provider[c.provider] = per_provider.get(c.provider, 0) + n * c.gpus_per_node
    cap = need.share_cap
    if cap is not None and max(per_provider.values(), default=0) > cap:
        return False
    if need.min_providers is not None and providers_carrying(need, candidates, counts) < need.min_providers:
        return False
    return not (need.lean and droppable(need, candidates, counts) is not None)


def tie_key(
    need: Need, cost: Fraction, candidates: Sequence[Candidate], counts: Mapping[int, int], order: Sequence[int]
) -> tuple[object, ...]:
    """The total order of splits both solvers share: least exact cost (with ``per_pflop_hour``: least cost per
    delivered PFLOP-hour, then least cost), then fewest GPUs, then the node counts read in ``offer_id`` order
    compared from the first offer, more nodes first (lower offer ids preferred)."""
    gpus = sum(n * candidates[i].gpus_per_node for i, n in counts.items())
    head = (cost / split_delivered(candidates, counts),) if need.per_pflop_hour else ()
    return (*head, cost, gpus, tuple(-counts.get(i, 0) for i in order))


def runs(*tables: Sequence[Fraction]) -> list[tuple[int, int, list[tuple[Fraction, Fraction]]]]:
    """The node counts 1..n (n: the tables' common length) cut into maximal runs on which every table is affine,
    exactly: ``(first, last, [(fixed, per_node) per table])`` with ``table[k - 1] == fixed + per_node * k`` for
    every count k of the run. (Compared as integers over each table's common denominator: the same test,
    without Fraction arithmetic.)"""
    count = len(tables[0]) if tables else 0
    if not count:
        return []
    scaled = []
    for table in tables:
        d = math.lcm(*(v.denominator for v in table[:count]))
        scaled.append((d, [v.numerator * (d // v.denominator) for v in table[:count]]))
    out: list[tuple[int, int, list[tuple[Fraction, Fraction]]]] = []
    n = 1
    while n <= count:
        if n == count:
            out.append((n, n, [(Fraction(0), Fraction(ints[n - 1], d * n)) for d, ints in scaled]))
            break
        steps = [ints[n] - ints[n - 1] for _, ints in scaled]
        last = n + 1
        while last < count and all(
            ints[last] - ints[last - 1] == step for (_, ints), step in zip(scaled, steps, strict=True)
        ):
            last += 1
        pieces = [
            (Fraction(ints[n - 1] - step * n, d), Fraction(step, d))
            for (d, ints), step in zip(scaled, steps, strict=True)
        ]
        out.append((n, last, pieces))
        n = last + 1
    return out
