"""The award optimiser (issue 17 point 4, issue 29): split a GPU need across offers in whole nodes at the least
total cost, where each offer's cost at each node count is the engine's own figure.

:func:`optimise` solves a MILP with HiGHS (``award_milp.py``); :func:`brute_force` searches every split exactly,
for tests and tiny markets; :func:`scenarios` puts the cheapest award beside two risk-limited ones. The inputs
and the exact checks both share are in ``award_model.py``.

Exactness. HiGHS only *chooses* the node counts. Every figure reported (costs, GPUs) is read from the candidates'
exact costs at those counts; HiGHS's floats are never reported. What :func:`optimise` guarantees:

- a feasible award meets every constraint exactly: checked in integers and Fractions after the solve (a split that
  HiGHS's tolerances let over the budget is refused and the budget tightened until one passes exactly);
- no split one move away (one node dropped or added, or one node of an offer traded for one node of another) is
  cheaper exactly, nor equally cheap and earlier in the tie-break order: such moves are made until none is left;
- optimality itself rests on HiGHS's branch and bound run with ``mip_rel_gap = 0`` and an absolute gap below half
  of the smallest cost difference two splits can have, on costs scaled by the largest one. It is checked against
  :func:`brute_force` with exact equality of the optimum's cost on random markets with volume tiers, one-off fees
  and several ways to buy (``tests/test_award_optimiser.py``, ``tests/test_award_engine.py``).
- "infeasible" comes from HiGHS (whose tolerances only ever admit more splits) or from the exact stock checks;
  a budget is applied after the solve without it (the least cost either fits the budget or nothing does), and
  only when that least cost is within a millionth of the budget is the MILP solved again with a budget row.

Tie-break (``award_model.tie_key``): least exact total cost, then fewest GPUs, then the node counts read in
``offer_id`` order, more nodes first. :func:`brute_force` returns the first split in that order; :func:`optimise`
the least cost, and among equal-cost splits what the local moves reach, so compare costs across the two.

Nodes the need cannot use are never bought: each offer is bounded by its stock and by the nodes that would cover
the need alone (``award_model.node_cap``). Within that bound a split can still hold a node the need does not
use: when only a constraint makes it so (a second provider given one node) or a tier makes it cheaper. Such an
award says how many nodes are beyond the need (``Award.beyond_need``) and carries the least-cost split without
any (``Award.lean``), so a buyer sees both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations

from quotetui.domain.economics.display import money_number
from quotetui.domain.economics.exact import share_text
from quotetui.domain.sourcing import award_milp
from quotetui.domain.sourcing.award_model import (
    Candidate,
    Need,
    beyond_need,
    caps,
    check_inputs,
    denominator,
    feasible,
    node_cap,
    split_cost,
    split_delivered,
    tie_key,
)
from quotetui.language import _, ngettext
from quotetui.language.lists import clauses

__all__ = [
    "Allocation",
    "Award",
    "Candidate",
    "Need",
    "brute_force",
    "node_cap",
    "optimise",
    "risk_premium",
    "scenarios",
]


@dataclass(frozen=True, slots=True)
class Allocation:
    offer_id: int
    provider: str
    nodes: int
    gpus: int
    total_cost: Fraction  # exact: the candidate's cost of ``nodes`` nodes


@dataclass(frozen=True, slots=True)
class Award:
    allocations: tuple[Allocation, ...]  # nodes > 0 only, ordered by offer_id
    total_cost: Fraction | None  # exact sum; None when infeasible
    gpus: int
    feasible: bool
    reason: str = ""  # when infeasible: which constraint(s) make it so, in words a buyer reads (the language in use)
    beyond_need: int = 0  # nodes the need does not use (bought for a constraint or a tier)
    lean: Award | None = None  # with ``beyond_need``: the least-cost split without such nodes (maybe infeasible)
    delivered: Fraction | None = None  # delivered PFLOP-hours, when the candidates carry them

    @property
    def cost_per_pflop_hour(self) -> Fraction | None:
        if self.total_cost is None or not self.delivered:
            return None
        return self.total_cost / self.delivered


def risk_premium(award: Award, cheapest: Award, need: Need | None = None) -> Fraction | None:
    """What a risk constraint costs, in what was minimised: ``award``'s total minus the cheapest award's, or with
    ``need.per_pflop_hour`` its cost per delivered PFLOP-hour minus the best one's; exactly (None if either is
    infeasible). Never negative: a constrained optimum cannot beat the unconstrained one."""
    if need is not None and need.per_pflop_hour:
        mine, best = award.cost_per_pflop_hour, cheapest.cost_per_pflop_hour
        return None if mine is None or best is None else mine - best
    if award.total_cost is None or cheapest.total_cost is None:
        return None
    return award.total_cost - cheapest.total_cost


Solver = Callable[[Need, Sequence[Candidate]], Award]


def scenarios(
    need: Need,
    candidates: Sequence[Candidate],
    *,
    max_share: Fraction = Fraction(3, 5),
    min_providers: int = 2,
    solve: Solver | None = None,
) -> list[tuple[str, Award]]:
    """Three awards side by side: the cheapest (or with ``per_pflop_hour`` the least per delivered PFLOP-hour; no
    risk constraint), at most ``max_share`` per provider, at least ``min_providers`` providers. The need's other
    constraints (budget, job size) hold in all three; the cost of each risk constraint is :func:`risk_premium`
    against the first; an infeasible one says why in ``reason``. Each is labelled in the language in use."""
    solve = solve or optimise
    base = replace(need, max_share=None, min_providers=None)
    return [
        (_("least per PFLOP-hour") if need.per_pflop_hour else _("cheapest"), solve(base, candidates)),
        (_at_most(max_share), solve(replace(base, max_share=max_share), candidates)),
        (_at_least(min_providers), solve(replace(base, min_providers=min_providers), candidates)),
    ]


def _at_most(share: Fraction) -> str:
    """ "at most 60 % per provider": the share constraint, as a scenario and a reason name it."""
    return _("at most {share} per provider").format(share=share_text(share))


def _at_least(providers: int) -> str:
    """ "at least 2 providers": the constraint on providers, as a scenario and a reason name it."""
    return _("at least {n} providers").format(n=providers)


# --- shared ----------------------------------------------------------------------------------------------------


def _award(need: Need, candidates: Sequence[Candidate], counts: Sequence[int]) -> Award:
    sparse = {i: n for i, n in enumerate(counts) if n}
    allocations = tuple(
        sorted(
            (
                Allocation(c.offer_id, c.provider, n, n * c.gpus_per_node, c.cost(n))
                for i, n in sparse.items()
                for c in (candidates[i],)
            ),
            key=lambda a: a.offer_id,
        )
    )
    total = sum((a.total_cost for a in allocations), Fraction(0))
    extra = beyond_need(need, candidates, sparse)
    delivered = split_delivered(candidates, sparse) if all(c.delivered for c in candidates) else None
    return Award(allocations, total, sum(a.gpus for a in allocations), True, beyond_need=extra, delivered=delivered)


def _with_lean(need: Need, candidates: Sequence[Candidate], award: Award, solve: Solver) -> Award:
    """``award`` with its lean alternative when it holds nodes beyond the need."""
    if not award.feasible or not award.beyond_need or need.lean:
        return award
    return replace(award, lean=solve(replace(need, lean=True), candidates))


def _infeasible(reason: str) -> Award:
    return Award((), None, 0, False, reason)


# --- brute force ---------------------------------------------------------------------------------------------


def brute_force(need: Need, candidates: Sequence[Candidate]) -> Award:
    """The first split in the tie-break order among all that meet ``need``, in exact integers and Fractions.

    Every node count of every offer from 0 to its cap is tried; a branch is skipped only when an exact lower bound
    on its cost (what is spent so far plus the GPUs still missing at the lowest cost per GPU any count of the
    offers left has) is strictly above the best split found, or it is already over the budget or a provider's
    share. Exponential: for tests and markets of a handful of offers."""
    check_inputs(need, candidates)
    cands = list(candidates)
    counts = _brute_counts(need, cands)
    if counts is None:
        return _infeasible(_diagnose(replace(need, per_pflop_hour=False), cands, _brute_counts))
    return _with_lean(need, cands, _award(need, cands, counts), brute_force)


def _brute_counts(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    caps_ = caps(need, cands)
    order = sorted(range(len(cands)), key=lambda i: cands[i].offer_id)
    # the least cost per GPU at any count among the offers from position k on (exact), for the lower bound
    tail_best: list[Fraction | None] = [None] * (len(cands) + 1)
    for k in range(len(cands) - 1, -1, -1):
        c = cands[k]
        here = min((c.cost(n) / (n * c.gpus_per_node) for n in range(1, caps_[k] + 1)), default=None)
        rest = tail_best[k + 1]
        tail_best[k] = here if rest is None or (here is not None and here < rest) else rest
    share_cap = need.share_cap
    best: list = [None, None]  # key, counts
    counts = [0] * len(cands)
    per_provider: dict[str, int] = {}

    ratio = need.per_pflop_hour  # the least cost per PFLOP-hour: no bound on cost prunes a branch

    def walk(k: int, cost: Fraction, gpus: int) -> None:
        if need.budget is not None and cost > need.budget:
            return
        missing = need.gpus - gpus
        if missing > 0:
            rate = tail_best[k]
            if rate is None:
                return
            bound = cost + missing * rate
            if need.budget is not None and bound > need.budget:
                return
            if not ratio and best[0] is not None and bound > best[0][0]:
                return
        elif not ratio and best[0] is not None and cost > best[0][0]:
            return
        if k == len(cands):
            sparse = {i: n for i, n in enumerate(counts) if n}
            if feasible(need, cands, sparse, cost):
                key = tie_key(need, cost, cands, sparse, order)
                if best[0] is None or key < best[0]:
                    best[0], best[1] = key, list(counts)
            return
        c = cands[k]
        before = per_provider.get(c.provider, 0)
        for n in range(caps_[k] + 1):
            if n and share_cap is not None and before + n * c.gpus_per_node > share_cap:
                break
            counts[k] = n
            per_provider[c.provider] = before + n * c.gpus_per_node
            walk(k + 1, cost + c.cost(n), gpus + n * c.gpus_per_node)
        counts[k] = 0
        per_provider[c.provider] = before

    walk(0, Fraction(0), 0)
    return best[1]


# --- the MILP, checked exactly -----------------------------------------------------------------------------------


def _improve(need: Need, cands: Sequence[Candidate], counts: list[int]) -> list[int]:
    """Local moves (drop one node; add one; trade one node of an offer for one of another; cut an offer by several
    nodes where its table is flat or falling), each taken when the
    result is feasible exactly and earlier in the tie-break order (``tie_key``); until none is left. ``counts``
    must be feasible. When cost is minimised a move is tried only when its exact cost is not higher: a node added
    elsewhere must cost at most what the node given up saves."""
    caps_ = caps(need, cands)
    ratio = need.per_pflop_hour
    sparse = {i: n for i, n in enumerate(counts) if n}
    cost = split_cost(cands, sparse)
    out = split_delivered(cands, sparse) if ratio else Fraction(1)
    gpus = sum(n * cands[i].gpus_per_node for i, n in sparse.items())
    open_ = [j for j in range(len(cands)) if caps_[j]]

    def add_cost(b: int) -> Fraction | None:
        n = sparse.get(b, 0)
        return cands[b].cost(n + 1) - cands[b].cost(n) if n < caps_[b] else None

    def add_out(b: int) -> Fraction:
        n = sparse.get(b, 0)
        return cands[b].output(n + 1) - cands[b].output(n) if ratio else Fraction(0)

    def key(c: Fraction, o: Fraction, g: int) -> tuple[Fraction, ...]:
        return (c / o, c, Fraction(g)) if ratio else (c, Fraction(g))

    adds = {b: extra for b in open_ if (extra := add_cost(b)) is not None}  # one more node of each: kept current

    def _readd(changed: int) -> None:
        """``adds`` kept current for an offer whose node count changed."""
        extra = add_cost(changed)
        if extra is None:
            adds.pop(changed, None)
        else:
            adds[changed] = extra

    def _move(a: int | None, b: int | None) -> bool:
        """One node of ``a`` given up and/or one of ``b`` added, when it is feasible and earlier in the order."""
        nonlocal sparse, cost, out, gpus
        if (a is not None and not sparse.get(a)) or (b is not None and b not in adds):
            return False
        now = key(cost, out, gpus)
        new_cost, new_out, new_gpus = cost, out, gpus
        if a is not None:
            na = sparse[a]
            new_cost += cands[a].cost(na - 1) - cands[a].cost(na)
            if ratio:
                new_out += cands[a].output(na - 1) - cands[a].output(na)
            new_gpus -= cands[a].gpus_per_node
        if b is not None:
            new_cost += adds[b]
            new_out += add_out(b)
            new_gpus += cands[b].gpus_per_node
        if new_out <= 0:
            return False
        then = key(new_cost, new_out, new_gpus)
        if then > now:
            return False
        if then == now and (a is None or b is None or cands[b].offer_id > cands[a].offer_id):
            return False
        trial = dict(sparse)
        if a is not None:
            trial[a] -= 1
            if not trial[a]:
                del trial[a]
        if b is not None:
            trial[b] = trial.get(b, 0) + 1
        if not feasible(need, cands, trial, new_cost):
            return False
        sparse, cost, out, gpus = trial, new_cost, new_out, new_gpus
        for changed in (a, b):
            if changed is not None:
                _readd(changed)
        return True

    def _shrink() -> bool:
        """An offer's nodes cut by two or more at once, where a tier makes fewer nodes cost no more (a flat or
        falling stretch of its cost table, which one node at a time cannot cross): taken when feasible and earlier
        in the tie-break order (fewer GPUs at the same cost)."""
        nonlocal sparse, cost, out, gpus
        for a in sorted(sparse, key=lambda i: cands[i].offer_id):
            n = sparse[a]
            for m in range(n - 2, -1, -1):
                new_cost = cost + cands[a].cost(m) - cands[a].cost(n)
                new_out = out + (cands[a].output(m) - cands[a].output(n) if ratio else Fraction(0))
                new_gpus = gpus - (n - m) * cands[a].gpus_per_node
                if new_out <= 0 or key(new_cost, new_out, new_gpus) >= key(cost, out, gpus):
                    continue
                trial = {i: k for i, k in sparse.items() if i != a} | ({a: m} if m else {})
                if feasible(need, cands, trial, new_cost):
                    sparse, cost, out, gpus = trial, new_cost, new_out, new_gpus
                    _readd(a)
                    return True
        return False

    moved = True
    while moved:
        moved = False
        moves: list[tuple[int | None, int | None]] = [(None, b) for b, extra in adds.items() if ratio or extra < 0]
        for a in sparse:
            saved = cands[a].cost(sparse[a]) - cands[a].cost(sparse[a] - 1)
            moves.append((a, None))
            moves += [(a, b) for b, extra in adds.items() if b != a and (ratio or extra <= saved)]
        for a, b in moves:
            while _move(a, b):  # the same move again while it still gains: a run of them in one pass
                moved = True
            if moved:
                break
        moved = moved or _shrink()
    return [sparse.get(i, 0) for i in range(len(cands))]


def _checked(need: Need, cands: Sequence[Candidate], weight: Fraction | None = None) -> list[int] | None:
    """HiGHS's split (``award_milp.solve``), checked exactly; None if infeasible. With a budget the row first
    allows half a 1/d above it; if a float still lets a split over it exactly, the row is tightened (at worst
    losing a split that costs the budget to within float noise, never over-spending)."""
    d = denominator(cands, caps(need, cands))
    for margin in (Fraction(1, 2), Fraction(0), Fraction(-1, 2), Fraction(-2)):
        counts = award_milp.solve(need, cands, d, margin, weight)
        if counts is None:
            return None
        sparse = {i: n for i, n in enumerate(counts) if n}
        cost = split_cost(cands, sparse)
        if feasible(need, cands, sparse, cost):
            return counts
        if need.budget is None or cost <= need.budget:
            raise RuntimeError("HiGHS returned a split that fails the exact check")  # a model error: never report it
    return None


def _optimal_counts(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    """HiGHS's optimum, checked exactly and improved locally; None if infeasible."""
    if need.per_pflop_hour:
        return _least_ratio(need, cands)
    if need.budget is not None:
        # the budget only cuts splits off and the objective is the cost itself: the optimum without it is the
        # optimum with it when it fits, and nothing fits when it is clearly over (a budget row makes HiGHS slow)
        free = _optimal_counts(replace(need, budget=None), cands)
        if free is None:
            return None
        cost = split_cost(cands, dict(enumerate(free)))
        if cost <= need.budget:
            return free
        if cost - need.budget > need.budget * Fraction(1, 10**6):
            return None
    counts = _checked(need, cands)
    return None if counts is None else _improve(need, cands, counts)


DINKELBACH_ROUNDS = 100
"""More rounds than a ratio objective on a real market takes (each one strictly lowers the ratio)."""


def _least_ratio(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    """The least cost per delivered PFLOP-hour by Dinkelbach's method: from the cheapest split, with λ its ratio,
    find the split least in cost − λ × PFLOP-hours (a MILP of the same shape); while that is below zero exactly,
    its ratio is lower: take it and repeat. When it is not, no split has a lower ratio than λ."""
    counts = _optimal_counts(replace(need, per_pflop_hour=False), cands)
    if counts is None:
        return None
    for _round in range(DINKELBACH_ROUNDS):
        sparse = {i: n for i, n in enumerate(counts) if n}
        weight = split_cost(cands, sparse) / split_delivered(cands, sparse)
        better = _checked(need, cands, weight)
        if better is None:
            break
        trial = {i: n for i, n in enumerate(better) if n}
        if split_cost(cands, trial) - weight * split_delivered(cands, trial) >= 0:
            break
        counts = better
    else:
        raise RuntimeError("the least cost per PFLOP-hour did not settle")  # never reported as a result
    return _improve(need, cands, counts)


def optimise(need: Need, candidates: Sequence[Candidate]) -> Award:
    """The least-cost split of ``need`` across ``candidates`` in whole nodes (see the module's note on exactness),
    or an infeasible award whose ``reason`` names the constraint(s) that make it so."""
    check_inputs(need, candidates)
    cands = list(candidates)
    counts = _optimal_counts(need, cands) if cands else None
    if counts is None:
        return _infeasible(_diagnose(replace(need, per_pflop_hour=False), cands, _solve_quiet))
    return _with_lean(need, cands, _award(need, cands, counts), optimise)


# --- why infeasible ------------------------------------------------------------------------------------------

_OPTIONAL = ("max_share", "min_providers", "budget", "job_gpus")


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


def _jobs_within(sizes: list[tuple[int, int]], limit: int, job: int) -> int:
    """The most ``job``-GPU jobs one provider can host, each inside one offer ((GPUs per node, nodes) pairs),
    with at most ``limit`` GPUs in all: the fewest GPUs for k jobs, offer by offer."""
    most = limit // job
    if most > 256:  # a small job under a large share: an upper bound (a message built on it stays true)
        return _fill(sizes, limit) // job
    fewest = [0] + [limit + 1] * most  # fewest GPUs to host k jobs so far
    for size, count in sizes:
        cost = [0] + [-(-k * job // size) * size for k in range(1, most + 1)]  # GPUs for k jobs in this offer
        hosts = count * size // job
        fewest = [min(fewest[k - t] + cost[t] for t in range(min(k, hosts) + 1)) for k in range(most + 1)]
    return max(k for k in range(most + 1) if fewest[k] <= limit)


Counts = Callable[[Need, Sequence[Candidate]], "list[int] | None"]


def _diagnose(need: Need, cands: Sequence[Candidate], solve: Counts) -> str:
    """Which constraint(s) leave no split: stock first (alone), then buying beyond the need (for a lean split),
    then each optional constraint whose removal makes the need feasible (re-solved with ``solve``), then pairs."""
    if not cands:
        return _("no offers to choose from")
    caps_ = caps(need, cands)
    on_offer = sum(cap * c.gpus_per_node for cap, c in zip(caps_, cands, strict=True))
    if on_offer < need.gpus:
        return _("not enough stock: {offered} GPUs on offer for {needed} needed").format(
            offered=on_offer, needed=need.gpus
        )
    if need.job_gpus:
        room = [cap * c.gpus_per_node // need.job_gpus for cap, c in zip(caps_, cands, strict=True)]
        if sum(room) < need.jobs:
            hosts = len({c.provider for r, c in zip(room, cands, strict=True) if r})
            return ngettext(
                "only {n} provider can host a {job}-GPU job, with room for {room} of the {jobs} jobs needed",
                "only {n} providers can host a {job}-GPU job, with room for {room} of the {jobs} jobs needed",
                hosts,
            ).format(n=f"{hosts:,}", job=need.job_gpus, room=sum(room), jobs=need.jobs)
    if need.lean and solve(replace(need, lean=False), cands) is not None:
        return _("every split that meets the constraints buys nodes beyond the need")
    present = [name for name in _OPTIONAL if getattr(need, name) is not None]
    without = {name: solve(replace(need, **{name: None}), cands) for name in present}
    single = [name for name in present if without[name] is not None]
    if single:
        return clauses(_words(need, cands, name, without[name]) for name in single)
    for a, b in combinations(present, 2):
        if solve(replace(need, **{a: None, b: None}), cands) is not None:
            return _("{first}, together with {second}").format(
                first=_words(need, cands, a, None), second=_words(need, cands, b, None)
            )
    return _("no split meets all the constraints together")


def _solve_quiet(need: Need, cands: Sequence[Candidate]) -> list[int] | None:
    try:
        return _optimal_counts(need, cands)
    except RuntimeError:
        return None


def _words(need: Need, cands: Sequence[Candidate], name: str, relaxed: list[int] | None) -> str:
    """What constraint ``name`` does to the need, in a buyer's words (``relaxed``: the optimum without it). GPUs
    are counted as the need counts them: with jobs, the GPUs in whole jobs."""
    caps_ = caps(need, cands)
    if name == "max_share":
        assert need.max_share is not None and need.share_cap is not None
        limit = need.share_cap
        sizes: dict[str, list[tuple[int, int]]] = {}
        for cap, c in zip(caps_, cands, strict=True):
            sizes.setdefault(c.provider, []).append((c.gpus_per_node, cap))
        if not need.job_gpus:
            head = _("at most {share} per provider ({limit} GPUs each)").format(
                share=share_text(need.max_share), limit=limit
            )
            reachable = sum(_fill(s, limit) for s in sizes.values())
            if reachable < need.gpus:
                return _("{constraint} leaves {reachable} GPUs reachable for {needed} needed").format(
                    constraint=head, reachable=reachable, needed=need.gpus
                )
        else:
            job = need.job_gpus
            in_jobs = limit // job * job
            if in_jobs == limit:
                head = _("at most {share} per provider ({limit} GPUs each)")
            else:
                head = _("at most {share} per provider ({limit} GPUs each, {in_jobs} of them in {job}-GPU jobs)")
            head = head.format(share=share_text(need.max_share), limit=limit, in_jobs=in_jobs, job=job)
            usable = sum(_jobs_within(s, limit, job) * job for s in sizes.values())
            if usable < need.jobs * job:
                return _("{constraint} leaves {usable} GPUs in whole jobs reachable for {needed} needed").format(
                    constraint=head, usable=usable, needed=need.jobs * job
                )
        return _("{constraint} rules out every split that meets the other constraints").format(constraint=head)
    if name == "min_providers":
        least = _at_least(need.min_providers or 0)
        if need.job_gpus:
            able = {c.provider for cap, c in zip(caps_, cands, strict=True) if cap * c.gpus_per_node >= need.job_gpus}
            only = ngettext(
                "{constraint}: only {n} provider can host a {job}-GPU job",
                "{constraint}: only {n} providers can host a {job}-GPU job",
                len(able),
            )
        else:
            able = {c.provider for cap, c in zip(caps_, cands, strict=True) if cap}
            only = ngettext(
                "{constraint}: only {n} provider has nodes on offer",
                "{constraint}: only {n} providers have nodes on offer",
                len(able),
            )
        if len(able) < (need.min_providers or 0):
            return only.format(constraint=least, n=f"{len(able):,}", job=need.job_gpus)
        return _("{constraint} rules out every split that meets the other constraints").format(constraint=least)
    if name == "budget":
        assert need.budget is not None
        if relaxed is not None:
            cheapest = split_cost(cands, dict(enumerate(relaxed)))
            return _("the budget of {budget} is below the cheapest split ({cheapest})").format(
                budget=money_number(need.budget, 2), cheapest=money_number(cheapest, 2)
            )
        return _("the budget of {budget}").format(budget=money_number(need.budget, 2))
    hosts = {c.provider for cap, c in zip(caps_, cands, strict=True) if cap * c.gpus_per_node >= (need.job_gpus or 0)}
    return ngettext(
        "keeping each {job}-GPU job inside one offer (only {n} provider can host one)",
        "keeping each {job}-GPU job inside one offer (only {n} providers can host one)",
        len(hosts),
    ).format(job=need.job_gpus, n=f"{len(hosts):,}")
