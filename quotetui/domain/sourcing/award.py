"""The award optimiser (issue 17, point 4): split a GPU need across offers in whole nodes at the least total cost.

:func:`optimise` builds a MILP and solves it with HiGHS (``highspy``); :func:`brute_force` searches every split
exactly, for tests and tiny markets; :func:`scenarios` puts the cheapest award beside two risk-limited ones.

Exactness. HiGHS only *chooses* the node counts. Every figure reported (costs, GPUs) is recomputed from those
integers with ``Fraction``; HiGHS's floats are never reported. What :func:`optimise` guarantees:

- a feasible award meets every constraint exactly: checked in integers and Fractions after the solve (a split that
  HiGHS's tolerances let over the budget is refused and the budget tightened until one passes exactly);
- no split one move away (one node dropped, or one node of an offer traded for one node of another) is cheaper
  exactly, nor equally cheap and earlier in the tie-break order below: such moves are made until none is left;
- optimality itself rests on HiGHS's branch and bound run with ``mip_rel_gap = 0`` and an absolute gap below half
  of the smallest cost difference two splits can have (all node costs over their common denominator ``D``: two
  split costs that differ, differ by at least ``1/D``), on costs scaled by the largest node cost. It is checked
  against :func:`brute_force` with exact equality of the optimum's cost on random small markets.
- "infeasible" comes from HiGHS (whose tolerances only ever admit more splits) or from the exact stock checks;
  a budget is applied after the solve without it (the least cost either fits the budget or nothing does), and
  only when that least cost is within a millionth of the budget is the MILP solved again with a budget row.

Tie-break (total order of splits, the same in both functions): least exact total cost, then fewest GPUs, then
the node counts read in ``offer_id`` order compared from the first offer, more nodes first (so lower offer ids
are preferred). :func:`brute_force` always returns the first split in that order; :func:`optimise` returns the
least cost, and among equal-cost splits only what the local moves above reach, so compare costs across the two.

Nodes that the need cannot use are never bought: each offer is bounded by its stock and by the nodes that would
cover the need alone (``ceil(gpus / gpus_per_node)``, or with ``job_gpus`` the nodes that host every job alone).
An optimum never needs more (all costs are positive and dropping such a node keeps every constraint).
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations

import highspy

from quotetui.domain.economics.exact import dec, share_text


@dataclass(frozen=True, slots=True)
class Candidate:
    offer_id: int
    provider: str  # providers are compared by this name (already normalised by the caller)
    gpus_per_node: int  # > 0
    nodes_available: int | None  # stock; None = unknown, treated as unlimited (never more than the need uses)
    node_cost: Fraction  # exact cost of ONE node for the whole term, in the requirement's currency, > 0
    pflops_per_node: Fraction | None = None  # delivered PFLOP/s of one node, when known


@dataclass(frozen=True, slots=True)
class Need:
    gpus: int  # > 0: at least this many GPUs in total
    job_gpus: int | None = None  # each job of this many GPUs sits inside ONE offer: ceil(gpus / job_gpus) jobs
    max_share: Fraction | None = None  # GPUs from one provider <= floor(max_share * gpus), 0 < max_share <= 1
    min_providers: int | None = None  # at least this many providers get at least one node
    budget: Fraction | None = None  # total cost <= budget
    hours: Fraction | None = None  # hours of the term (only for the cost per delivered PFLOP-hour figure)

    @property
    def jobs(self) -> int:
        """Jobs the need is made of (0 without ``job_gpus``)."""
        return -(-self.gpus // self.job_gpus) if self.job_gpus else 0


@dataclass(frozen=True, slots=True)
class Allocation:
    offer_id: int
    provider: str
    nodes: int
    gpus: int
    total_cost: Fraction  # exact: nodes * node_cost


@dataclass(frozen=True, slots=True)
class Award:
    allocations: tuple[Allocation, ...]  # nodes > 0 only, ordered by offer_id
    total_cost: Fraction | None  # exact sum; None when infeasible
    gpus: int
    feasible: bool
    reason: str = ""  # when infeasible: which constraint(s) make it so, in words a buyer reads

    def cost_per_pflop_hour(self, candidates: Sequence[Candidate], hours: Fraction | None) -> Fraction | None:
        """Total cost over the delivered PFLOP-hours of the awarded nodes, exactly; None when infeasible or when
        ``hours`` or an awarded offer's PFLOP/s is unknown."""
        if not self.feasible or self.total_cost is None or hours is None or hours <= 0:
            return None
        by_id = {c.offer_id: c for c in candidates}
        pflops = Fraction(0)
        for a in self.allocations:
            per_node = by_id[a.offer_id].pflops_per_node
            if per_node is None:
                return None
            pflops += a.nodes * per_node
        return self.total_cost / (pflops * hours) if pflops > 0 else None


def risk_premium(award: Award, cheapest: Award) -> Fraction | None:
    """What a risk constraint costs: ``award``'s total minus the cheapest award's, exactly (None if either is
    infeasible)."""
    if award.total_cost is None or cheapest.total_cost is None:
        return None
    return award.total_cost - cheapest.total_cost


def scenarios(
    need: Need, candidates: Sequence[Candidate], *, max_share: Fraction = Fraction(3, 5), min_providers: int = 2
) -> list[tuple[str, Award]]:
    """Three awards side by side: the cheapest (no risk constraint), at most ``max_share`` per provider, at least
    ``min_providers`` providers. The need's other constraints (budget, job size) hold in all three; the cost of
    each risk constraint is :func:`risk_premium` against the first; an infeasible one says why in ``reason``."""
    base = replace(need, max_share=None, min_providers=None)
    return [
        ("cheapest", optimise(base, candidates)),
        (f"at most {share_text(max_share)} per provider", optimise(replace(base, max_share=max_share), candidates)),
        (f"at least {min_providers} providers", optimise(replace(base, min_providers=min_providers), candidates)),
    ]


# --- shared exact helpers ------------------------------------------------------------------------------------

_OPTIONAL = ("max_share", "min_providers", "budget", "job_gpus")


def _check_inputs(need: Need, candidates: Sequence[Candidate]) -> None:
    if need.gpus <= 0:
        raise ValueError("the need must be at least one GPU")
    if need.job_gpus is not None and need.job_gpus <= 0:
        raise ValueError("a job must be at least one GPU")
    if need.max_share is not None and not 0 < need.max_share <= 1:
        raise ValueError("the largest share per provider must be above 0 and at most 1")
    if need.min_providers is not None and need.min_providers < 0:
        raise ValueError("the least number of providers cannot be negative")
    for value in (need.max_share, need.budget, need.hours, *(c.node_cost for c in candidates)):
        if isinstance(value, float):
            raise TypeError("floats are not exact: use Fraction")
    if len({c.offer_id for c in candidates}) != len(candidates):
        raise ValueError("each offer may be a candidate once")
    for c in candidates:
        if c.gpus_per_node <= 0 or c.node_cost <= 0 or (c.nodes_available is not None and c.nodes_available < 0):
            raise ValueError(f"offer {c.offer_id}: GPUs per node and node cost must be positive, stock not negative")


def _caps(need: Need, candidates: Sequence[Candidate]) -> list[int]:
    """The most nodes of each offer a cheapest split can use: stock, and what covers the need alone."""
    covered = need.jobs * need.job_gpus if need.job_gpus else need.gpus
    out = []
    for c in candidates:
        alone = -(-covered // c.gpus_per_node)
        out.append(alone if c.nodes_available is None else min(alone, c.nodes_available))
    return out


def _denominator(candidates: Sequence[Candidate]) -> int:
    return math.lcm(1, *(c.node_cost.denominator for c in candidates))


def _feasible(need: Need, candidates: Sequence[Candidate], counts: Sequence[int], cost_d: int, d: int) -> bool:
    """Whether a split meets every constraint of ``need`` exactly (``cost_d`` is its cost times ``d``)."""
    gpus = sum(n * c.gpus_per_node for n, c in zip(counts, candidates, strict=True))
    if gpus < need.gpus:
        return False
    if (
        need.job_gpus
        and sum(n * c.gpus_per_node // need.job_gpus for n, c in zip(counts, candidates, strict=True)) < need.jobs
    ):
        return False
    if need.budget is not None and Fraction(cost_d, d) > need.budget:
        return False
    per_provider: dict[str, int] = {}
    for n, c in zip(counts, candidates, strict=True):
        if n:
            per_provider[c.provider] = per_provider.get(c.provider, 0) + n * c.gpus_per_node
    if need.min_providers is not None and len(per_provider) < need.min_providers:
        return False
    return not (need.max_share is not None and max(per_provider.values()) > math.floor(need.max_share * need.gpus))


def _key(cost_d: int, candidates: Sequence[Candidate], counts: Sequence[int], order: Sequence[int]) -> tuple:
    gpus = sum(n * c.gpus_per_node for n, c in zip(counts, candidates, strict=True))
    return (cost_d, gpus, tuple(-counts[i] for i in order))


def _award(candidates: Sequence[Candidate], counts: Sequence[int]) -> Award:
    allocations = tuple(
        sorted(
            (
                Allocation(c.offer_id, c.provider, n, n * c.gpus_per_node, n * c.node_cost)
                for n, c in zip(counts, candidates, strict=True)
                if n
            ),
            key=lambda a: a.offer_id,
        )
    )
    return Award(
        allocations, sum((a.total_cost for a in allocations), Fraction(0)), sum(a.gpus for a in allocations), True
    )


def _infeasible(reason: str) -> Award:
    return Award((), None, 0, False, reason)


def _money(value: Fraction) -> str:
    return f"{dec(value, 2):,}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- brute force ---------------------------------------------------------------------------------------------


def brute_force(need: Need, candidates: Sequence[Candidate]) -> Award:
    """The first split in the tie-break order among all that meet ``need``, in exact integers and Fractions.

    Every node count of every offer from 0 to its cap (stock, and what covers the need alone) is tried; a branch
    is skipped only when an exact lower bound on its cost (what is spent so far plus the GPUs still missing at
    the lowest cost per GPU left) is strictly above the best split found, or it is already over the budget or a
    provider's share. Exponential: for tests and markets of a handful of offers."""
    _check_inputs(need, candidates)
    cands = list(candidates)
    counts = _brute_counts(need, cands)
    if counts is None:
        return _infeasible(_diagnose(need, cands, _brute_counts))
    return _award(cands, counts)


def _brute_counts(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    d = _denominator(cands)
    costs = [int(c.node_cost * d) for c in cands]
    caps = _caps(need, cands)
    order = sorted(range(len(cands)), key=lambda i: cands[i].offer_id)
    # cheapest cost per GPU among the offers from position k on (exact), for the lower bound
    tail_best: list[Fraction | None] = [None] * (len(cands) + 1)
    for k in range(len(cands) - 1, -1, -1):
        here = Fraction(costs[k], cands[k].gpus_per_node) if caps[k] else None
        rest = tail_best[k + 1]
        tail_best[k] = here if rest is None or (here is not None and here < rest) else rest
    share_cap = math.floor(need.max_share * need.gpus) if need.max_share is not None else None
    budget_d = need.budget * d if need.budget is not None else None
    best: list = [None, None]  # key, counts
    counts = [0] * len(cands)
    per_provider: dict[str, int] = {}

    def walk(k: int, cost_d: int, gpus: int) -> None:
        if budget_d is not None and cost_d > budget_d:
            return
        missing = need.gpus - gpus
        if missing > 0:
            rate = tail_best[k]
            if rate is None:
                return
            bound = cost_d + missing * rate
            if (best[0] is not None and bound > best[0][0]) or (budget_d is not None and bound > budget_d):
                return
        elif best[0] is not None and cost_d > best[0][0]:
            return
        if k == len(cands):
            if _feasible(need, cands, counts, cost_d, d):
                key = _key(cost_d, cands, counts, order)
                if best[0] is None or key < best[0]:
                    best[0], best[1] = key, list(counts)
            return
        c = cands[k]
        before = per_provider.get(c.provider, 0)
        for n in range(caps[k] + 1):
            if n and share_cap is not None and before + n * c.gpus_per_node > share_cap:
                break
            counts[k] = n
            per_provider[c.provider] = before + n * c.gpus_per_node
            walk(k + 1, cost_d + n * costs[k], gpus + n * c.gpus_per_node)
        counts[k] = 0
        per_provider[c.provider] = before

    walk(0, 0, 0)
    return best[1]


# --- the MILP ------------------------------------------------------------------------------------------------

_BANNER_LOCK = threading.Lock()
_BANNER_DONE = False


def _highs() -> highspy.Highs:
    """A silent HiGHS. Its first construction in a process prints a banner on the C-level stdout: that one is sent
    to /dev/null so that a ``--json`` output stays clean."""
    global _BANNER_DONE
    with _BANNER_LOCK:
        if _BANNER_DONE:
            h = highspy.Highs()
        else:
            sys.stdout.flush()
            saved = os.dup(1)
            try:
                with open(os.devnull, "w") as null:
                    os.dup2(null.fileno(), 1)
                    h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _BANNER_DONE = True
    h.setOptionValue("output_flag", False)
    return h


def _solve(
    need: Need, cands: Sequence[Candidate], d: int, budget_margin: Fraction = Fraction(1, 2)
) -> list[int] | None:
    """HiGHS's node counts for ``need`` (rounded to integers, not yet checked exactly), or None if infeasible.

    The budget row allows ``budget_margin / d`` above the budget rounded down to a multiple of ``1/d`` (every
    split's cost is such a multiple), so that a split within budget is never refused for a float's sake."""
    caps = _caps(need, cands)
    scale = max(c.node_cost for c in cands)
    h = _highs()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", min(1e-6, max(1e-12, 0.25 / float(d * scale))))
    h.setOptionValue("mip_feasibility_tolerance", 1e-9)
    h.setOptionValue("primal_feasibility_tolerance", 1e-9)
    inf = highspy.kHighsInf
    used = [i for i, cap in enumerate(caps) if cap > 0]
    if not used:
        return None
    col: dict[int, int] = {}
    lower: list[float] = []
    upper: list[float] = []
    cost: list[float] = []
    for i in used:
        col[i] = len(cost)
        cost.append(float(cands[i].node_cost / scale))
        lower.append(0.0)
        upper.append(float(caps[i]))
    jobs: dict[int, int] = {}
    if need.job_gpus:
        for i in used:
            room = caps[i] * cands[i].gpus_per_node // need.job_gpus
            if room:
                jobs[i] = len(cost)
                cost.append(0.0)
                lower.append(0.0)
                upper.append(float(room))
    providers = sorted({cands[i].provider for i in used})
    chosen: dict[str, int] = {}
    if need.min_providers:
        for p in providers:
            chosen[p] = len(cost)
            cost.append(0.0)
            lower.append(0.0)
            upper.append(1.0)
    h.addVars(len(cost), lower, upper)
    h.changeColsCost(len(cost), list(range(len(cost))), cost)
    h.changeColsIntegrality(len(cost), list(range(len(cost))), [highspy.HighsVarType.kInteger] * len(cost))

    rows: list[tuple[float, float, list[int], list[float]]] = []
    rows.append((float(need.gpus), inf, [col[i] for i in used], [float(cands[i].gpus_per_node) for i in used]))
    if need.job_gpus:
        for i, j in jobs.items():
            rows.append((-inf, 0.0, [j, col[i]], [float(need.job_gpus), -float(cands[i].gpus_per_node)]))
        rows.append((float(need.jobs), inf, list(jobs.values()), [1.0] * len(jobs)))
    by_provider: dict[str, list[int]] = {p: [] for p in providers}
    for i in used:
        by_provider[cands[i].provider].append(i)
    if need.max_share is not None:
        share_cap = math.floor(need.max_share * need.gpus)
        for members in by_provider.values():
            if sum(caps[i] * cands[i].gpus_per_node for i in members) > share_cap:
                rows.append(
                    (
                        -inf,
                        float(share_cap),
                        [col[i] for i in members],
                        [float(cands[i].gpus_per_node) for i in members],
                    )
                )
    if need.min_providers:
        for p, y in chosen.items():
            members = by_provider[p]
            rows.append((-inf, 0.0, [y] + [col[i] for i in members], [1.0] + [-1.0] * len(members)))
        rows.append((float(need.min_providers), inf, list(chosen.values()), [1.0] * len(chosen)))
    if need.budget is not None:
        limit = (math.floor(need.budget * d) + budget_margin) / d
        rows.append((-inf, float(limit / scale), [col[i] for i in used], [cost[col[i]] for i in used]))
    starts, index, value = [], [], []
    for _, _, idx, val in rows:
        starts.append(len(index))
        index.extend(idx)
        value.extend(val)
    h.addRows(len(rows), [r[0] for r in rows], [r[1] for r in rows], len(index), starts, index, value)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    x = h.getSolution().col_value
    counts = [0] * len(cands)
    for i in used:
        counts[i] = round(x[col[i]])
    return counts


def _improve(need: Need, cands: Sequence[Candidate], counts: list[int], d: int) -> list[int]:
    """Local moves (drop one node; trade one node of an offer for one of another), each taken when the result is
    feasible exactly and earlier in the tie-break order; until none is left. ``counts`` must be feasible; each move
    is checked incrementally in integers (O(1)), so a pass costs O(offers used × offers)."""
    costs = [int(c.node_cost * d) for c in cands]
    gpn = [c.gpus_per_node for c in cands]
    caps = _caps(need, cands)
    by_cost = sorted(range(len(cands)), key=lambda i: costs[i])
    job = need.job_gpus or 0
    share_cap = math.floor(need.max_share * need.gpus) if need.max_share is not None else None
    budget_d = need.budget * d if need.budget is not None else None
    per_provider: dict[str, int] = {}
    for i, n in enumerate(counts):
        if n:
            per_provider[cands[i].provider] = per_provider.get(cands[i].provider, 0) + n * gpn[i]
    gpus = sum(n * g for n, g in zip(counts, gpn, strict=True))
    jobs = sum(n * g // job for n, g in zip(counts, gpn, strict=True)) if job else 0
    cost_d = sum(n * k for n, k in zip(counts, costs, strict=True))

    def jobs_lost(i: int) -> int:
        return (counts[i] * gpn[i] // job - (counts[i] - 1) * gpn[i] // job) if job else 0

    def jobs_won(j: int) -> int:
        return ((counts[j] + 1) * gpn[j] // job - counts[j] * gpn[j] // job) if job else 0

    moved = True
    while moved:
        moved = False
        for a in [i for i in range(len(cands)) if counts[i]]:
            pa = cands[a].provider
            for b in [None, *(j for j in by_cost if costs[j] <= costs[a] and j != a and counts[j] < caps[j])]:
                new_cost = cost_d - costs[a] + (costs[b] if b is not None else 0)
                new_gpus = gpus - gpn[a] + (gpn[b] if b is not None else 0)
                # earlier in the tie-break order: cheaper; or as cheap with fewer GPUs; or more nodes on a lower id
                if b is not None and (new_cost, new_gpus) == (cost_d, gpus):
                    if cands[b].offer_id > cands[a].offer_id:
                        continue
                elif (new_cost, new_gpus) >= (cost_d, gpus):
                    continue
                if new_gpus < need.gpus or (budget_d is not None and new_cost > budget_d):
                    continue
                if job and jobs - jobs_lost(a) + (jobs_won(b) if b is not None else 0) < need.jobs:
                    continue
                pb = cands[b].provider if b is not None else None
                left_a = per_provider[pa] - gpn[a]
                if pb is not None and pb != pa:
                    if share_cap is not None and per_provider.get(pb, 0) + gpn[b] > share_cap:
                        continue
                    providers = len(per_provider) - (left_a == 0) + (pb not in per_provider)
                else:
                    if pb is not None and share_cap is not None and left_a + gpn[b] > share_cap:
                        continue
                    providers = len(per_provider) - (left_a == 0 and pb is None)
                if need.min_providers is not None and providers < need.min_providers:
                    continue
                jobs += -jobs_lost(a) + (jobs_won(b) if b is not None else 0)
                counts[a] -= 1
                per_provider[pa] = left_a
                if not left_a:
                    del per_provider[pa]
                if b is not None:
                    counts[b] += 1
                    per_provider[pb] = per_provider.get(pb, 0) + gpn[b]
                cost_d, gpus, moved = new_cost, new_gpus, True
                break
            if moved:
                break
    return counts


def _optimal_counts(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    """HiGHS's optimum, checked exactly and improved locally; None if infeasible."""
    d = _denominator(cands)
    if need.budget is not None:
        # the budget only cuts splits off and the objective is the cost itself: the optimum without it is the
        # optimum with it when it fits, and nothing fits when it is clearly over (a budget row makes HiGHS slow)
        free = _optimal_counts(replace(need, budget=None), cands)
        if free is None:
            return None
        cost = sum((n * c.node_cost for n, c in zip(free, cands, strict=True)), Fraction(0))
        if cost <= need.budget:
            return free
        if cost - need.budget > need.budget * Fraction(1, 10**6):
            return None
    # within float noise of the budget: solve with a budget row; it first allows half a 1/d above the budget; if
    # a float still lets a split over it exactly, the row is tightened (at worst losing a split that costs the
    # budget to within float noise, never over-spending)
    for margin in (Fraction(1, 2), Fraction(0), Fraction(-1, 2), Fraction(-2)):
        counts = _solve(need, cands, d, margin)
        if counts is None:
            return None
        cost_d = sum(n * int(c.node_cost * d) for n, c in zip(counts, cands, strict=True))
        if _feasible(need, cands, counts, cost_d, d):
            return _improve(need, cands, counts, d)
        if need.budget is None or Fraction(cost_d, d) <= need.budget:
            raise RuntimeError("HiGHS returned a split that fails the exact check")  # a model error: never report it
    return None


def optimise(need: Need, candidates: Sequence[Candidate]) -> Award:
    """The least-cost split of ``need`` across ``candidates`` in whole nodes (see the module's note on exactness),
    or an infeasible award whose ``reason`` names the constraint(s) that make it so."""
    _check_inputs(need, candidates)
    cands = list(candidates)
    counts = _optimal_counts(need, cands) if cands else None
    if counts is None:
        return _infeasible(_diagnose(need, cands, _solve_quiet))
    return _award(cands, counts)


# --- why infeasible ------------------------------------------------------------------------------------------


def _fill(sizes: list[tuple[int, int]], limit: int) -> int:
    """The most GPUs at or below ``limit`` that whole nodes can make up ((GPUs per node, nodes) pairs): a bounded
    knapsack over a bitset of reachable totals."""
    mask = (1 << (limit + 1)) - 1
    reach = 1
    for size, count in sizes:
        step = 1
        while count > 0:
            take = min(step, count)
            reach = (reach | (reach << (size * take))) & mask
            count -= take
            step *= 2
    return reach.bit_length() - 1


Solver = Callable[[Need, Sequence[Candidate]], "list[int] | None"]


def _diagnose(need: Need, cands: Sequence[Candidate], solve: Solver) -> str:
    """Which constraint(s) leave no split: stock first (alone), then each optional constraint whose removal makes
    the need feasible (re-solved with ``solve``), then pairs of them."""
    if not cands:
        return "no offers to choose from"
    caps = _caps(need, cands)
    on_offer = sum(cap * c.gpus_per_node for cap, c in zip(caps, cands, strict=True))
    if on_offer < need.gpus:
        return f"not enough stock: {on_offer} GPUs on offer for {need.gpus} needed"
    if need.job_gpus:
        room = [cap * c.gpus_per_node // need.job_gpus for cap, c in zip(caps, cands, strict=True)]
        if sum(room) < need.jobs:
            hosts = len({c.provider for r, c in zip(room, cands, strict=True) if r})
            return (
                f"only {_plural(hosts, 'provider')} can host a {need.job_gpus}-GPU job, with room for "
                f"{sum(room)} of the {need.jobs} jobs needed"
            )
    present = [name for name in _OPTIONAL if getattr(need, name) is not None]
    without = {name: solve(replace(need, **{name: None}), cands) for name in present}
    single = [name for name in present if without[name] is not None]
    if single:
        return "; ".join(_words(need, cands, name, without[name]) for name in single)
    for a, b in combinations(present, 2):
        if solve(replace(need, **{a: None, b: None}), cands) is not None:
            return f"{_words(need, cands, a, None)}, together with {_words(need, cands, b, None)}"
    return "no split meets all the constraints together"


def _solve_quiet(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    try:
        return _optimal_counts(need, cands)
    except RuntimeError:
        return None


def _words(need: Need, cands: Sequence[Candidate], name: str, relaxed: list[int] | None) -> str:
    """What constraint ``name`` does to the need, in a buyer's words (``relaxed``: the optimum without it)."""
    caps = _caps(need, cands)
    if name == "max_share":
        assert need.max_share is not None
        limit = math.floor(need.max_share * need.gpus)
        sizes: dict[str, list[tuple[int, int]]] = {}
        for cap, c in zip(caps, cands, strict=True):
            sizes.setdefault(c.provider, []).append((c.gpus_per_node, cap))
        reachable = sum(_fill(s, limit) for s in sizes.values())
        head = f"at most {share_text(need.max_share)} per provider ({limit} GPUs each)"
        if reachable < need.gpus:
            return f"{head} leaves {reachable} GPUs reachable for {need.gpus} needed"
        return f"{head} rules out every split that meets the other constraints"
    if name == "min_providers":
        stocked = len({c.provider for cap, c in zip(caps, cands, strict=True) if cap})
        if stocked < (need.min_providers or 0):
            has = "has" if stocked == 1 else "have"
            return f"at least {need.min_providers} providers: only {_plural(stocked, 'provider')} {has} nodes on offer"
        return f"at least {need.min_providers} providers rules out every split that meets the other constraints"
    if name == "budget":
        assert need.budget is not None
        if relaxed is not None:
            cheapest = sum((n * c.node_cost for n, c in zip(relaxed, cands, strict=True)), Fraction(0))
            return f"the budget of {_money(need.budget)} is below the cheapest split ({_money(cheapest)})"
        return f"the budget of {_money(need.budget)}"
    hosts = {c.provider for cap, c in zip(caps, cands, strict=True) if cap * c.gpus_per_node >= (need.job_gpus or 0)}
    return (
        f"keeping each {need.job_gpus}-GPU job inside one offer (only {_plural(len(hosts), 'provider')} can host one)"
    )
