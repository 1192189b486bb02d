"""The award as a MILP for HiGHS (``highspy``), on the engine's own costs.

Each offer's cost is given at every node count (``Candidate.costs``). Cut into the runs on which it is affine
(``award_model.runs``: one run for a flat price; a run per volume tier; a one-off fee is a run's fixed part),
each run ``s`` of offer ``i`` becomes a binary ``z`` (the offer is given a count in this run) and an integer ``m``
(that count): ``first·z ≤ m ≤ last·z``, cost ``fixed·z + per_node·m``, and at most one run per offer. At every
integer count the model's cost is the engine's figure exactly (up to the float HiGHS reads it as); between runs
there is nothing to interpolate. Jobs: an integer ``j`` per offer with ``job_gpus·j ≤ GPUs of the offer``.

HiGHS only chooses the counts; ``award.py`` checks the result in Fractions and reports exact figures.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections.abc import Callable, Sequence
from fractions import Fraction

import highspy

from quotetui.domain.sourcing.award_model import Candidate, Need, caps

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


class _Model:
    """Columns and rows gathered in Python, handed to HiGHS in two calls."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.cost: list[float] = []
        self.integer: list[bool] = []
        self.rows: list[tuple[float, float, list[int], list[float]]] = []

    def var(self, upper: float, cost: float = 0.0, *, integer: bool = True, lower: float = 0.0) -> int:
        self.lower.append(lower)
        self.upper.append(upper)
        self.cost.append(cost)
        self.integer.append(integer)
        return len(self.cost) - 1

    def row(self, low: float, high: float, terms: Sequence[tuple[int, float]]) -> None:
        self.rows.append((low, high, [c for c, _ in terms], [v for _, v in terms]))

    def solve(self, h: highspy.Highs) -> list[float] | None:
        n = len(self.cost)
        h.addVars(n, self.lower, self.upper)
        h.changeColsCost(n, list(range(n)), self.cost)
        kinds = [highspy.HighsVarType.kInteger if i else highspy.HighsVarType.kContinuous for i in self.integer]
        h.changeColsIntegrality(n, list(range(n)), kinds)
        starts, index, value = [], [], []
        for _, _, idx, val in self.rows:
            starts.append(len(index))
            index.extend(idx)
            value.extend(val)
        lows, highs = [r[0] for r in self.rows], [r[1] for r in self.rows]
        h.addRows(len(self.rows), lows, highs, len(index), starts, index, value)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        return list(h.getSolution().col_value)


def _exact_max(terms: list[tuple[Fraction, Fraction, int]]) -> Fraction:
    """``max(abs(f + p × k) / k for f, p, k in terms)``, exactly, with floats ruling out what cannot be the
    largest: each float is within ``slack`` of its exact value (a few roundings of figures at most ``|f| + |p|k``),
    so only the terms whose float comes within two slacks of the largest float are worked out exactly."""
    rough = []
    for f, p, k in terms:
        ff, pk = float(f), float(p) * k
        rough.append((abs(ff + pk) / k, (abs(ff) + abs(pk)) / k * 1e-14 + 1e-300))
    top = max(value - slack for value, slack in rough)
    return max(
        abs(f + p * k) / k for (f, p, k), (value, slack) in zip(terms, rough, strict=True) if value + slack >= top
    )


def solve(
    need: Need,
    cands: Sequence[Candidate],
    d: int,
    budget_margin: Fraction = Fraction(1, 2),
    weight: Fraction | None = None,
) -> list[int] | None:
    """HiGHS's node counts for ``need`` (rounded to integers, not yet checked exactly), or None if infeasible.

    The objective is the cost, or with ``weight`` (λ, a cost per delivered PFLOP-hour) the cost minus λ × the
    delivered PFLOP-hours (one step of Dinkelbach's method: ``award.py``). The budget row allows
    ``budget_margin / d`` above the budget rounded down to a multiple of ``1/d`` (every split's cost is such a
    multiple), so that a split within budget is never refused for a float's sake."""
    caps_ = caps(need, cands)
    used = [i for i, cap in enumerate(caps_) if cap > 0]
    if not used:
        return None
    cut: dict[int, list[tuple[int, int, Fraction, Fraction, Fraction, Fraction]]] = {}
    for i in used:
        cut[i] = []
        for first, last, pieces in cands[i].runs(caps_[i], weight is not None):
            (fixed, per_node), *rest = pieces
            aim_fixed, aim_per = fixed, per_node
            if weight is not None:
                aim_fixed, aim_per = fixed - weight * rest[0][0], per_node - weight * rest[0][1]
            cut[i].append((first, last, fixed, per_node, aim_fixed, aim_per))
    # Figures are divided by the largest figure of ONE node (not of a whole offer at its cap): a node's coefficient
    # is then about 1 and the totals about the nodes awarded, so HiGHS's tolerances, which are absolute, stay far
    # below what tells two splits apart (issue 29: scaled by an offer's cost at 625 nodes, a 5,000-GPU award came
    # out 71.28 above its optimum)
    cost_scale = max(cands[i].costs[0] for i in used)
    scale = _exact_max([(f, p, k) for i in used for first, last, _, _, f, p in cut[i] for k in (first, last)])
    scale = scale or Fraction(1)
    h = _highs()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", min(1e-6, max(1e-12, 0.25 / float(d * scale))))
    h.setOptionValue("mip_feasibility_tolerance", 1e-9)
    h.setOptionValue("primal_feasibility_tolerance", 1e-9)
    # a reduced cost within the default 1e-7 counts as optimal: on a 5,000-GPU award of 323 million that let a
    # split 71.28 dearer than the optimum through (issue 29, tests/test_award_issue29.py)
    h.setOptionValue("dual_feasibility_tolerance", 1e-10)
    inf = highspy.kHighsInf
    model = _Model()
    runs_: dict[int, list[tuple[int | None, int]]] = {}  # offer -> [(z, m)]; z None: a cost proportional to nodes
    cost_terms: list[tuple[int, float]] = []
    for i in used:
        runs_[i] = []
        pieces = cut[i]
        general = need.lean and need.job_gpus and not _whole_jobs(cands[i], need)  # its lean rows need a binary
        if len(pieces) == 1 and pieces[0][2] == 0 and pieces[0][4] == 0 and not general:
            _, last, _, per_node, _, aim = pieces[0]  # n × a node's figure: n alone says it all
            m = model.var(float(last), float(aim / scale))
            runs_[i].append((None, m))
            cost_terms.append((m, float(per_node / cost_scale)))
            continue
        for first, last, fixed, per_node, aim_fixed, aim_per in pieces:
            z = model.var(1.0, float(aim_fixed / scale))
            m = model.var(float(last), float(aim_per / scale))
            model.row(-inf, 0.0, [(m, 1.0), (z, -float(last))])
            model.row(0.0, inf, [(m, 1.0), (z, -float(first))])
            runs_[i].append((z, m))
            cost_terms += [(z, float(fixed / cost_scale)), (m, float(per_node / cost_scale))]
        if len(runs_[i]) > 1:
            model.row(-inf, 1.0, [(z, 1.0) for z, _ in runs_[i] if z is not None])

    def nodes(i: int, times: float) -> list[tuple[int, float]]:
        return [(m, times) for _, m in runs_[i]]

    def chosen(i: int, times: float) -> list[tuple[int, float]]:
        """The offer is given a node (a binary, or for a proportional cost its node count: ``y ≤ n`` suffices)."""
        return [(m if z is None else z, times) for z, m in runs_[i]]

    gpus_of = [term for i in used for term in nodes(i, float(cands[i].gpus_per_node))]
    model.row(float(need.gpus), inf, gpus_of)
    jobs: dict[int, int] = {}
    if need.job_gpus:
        for i in used:
            room = caps_[i] * cands[i].gpus_per_node // need.job_gpus
            if room:
                jobs[i] = model.var(float(room))
                model.row(-inf, 0.0, [(jobs[i], float(need.job_gpus)), *nodes(i, -float(cands[i].gpus_per_node))])
        model.row(float(need.jobs), inf, [(j, 1.0) for j in jobs.values()])
    providers = sorted({cands[i].provider for i in used})
    by_provider: dict[str, list[int]] = {p: [] for p in providers}
    for i in used:
        by_provider[cands[i].provider].append(i)
    cap = need.share_cap
    if cap is not None:
        for members in by_provider.values():
            if sum(caps_[i] * cands[i].gpus_per_node for i in members) > cap:
                model.row(-inf, float(cap), [t for i in members for t in nodes(i, float(cands[i].gpus_per_node))])
    if need.min_providers:
        ys = []
        for members in by_provider.values():
            y = model.var(1.0)
            ys.append(y)
            if need.job_gpus:  # a provider counts when it hosts a job of the need
                model.row(-inf, 0.0, [(y, 1.0), *((jobs[i], -1.0) for i in members if i in jobs)])
            else:
                model.row(-inf, 0.0, [(y, 1.0), *(t for i in members for t in chosen(i, -1.0))])
        model.row(float(need.min_providers), inf, [(y, 1.0) for y in ys])
    if need.lean:
        _lean_rows(model, need, cands, used, caps_, jobs, nodes, chosen, gpus_of)
    if need.budget is not None:
        limit = (math.floor(need.budget * d) + budget_margin) / d
        model.row(-inf, float(limit / cost_scale), cost_terms)
    x = model.solve(h)
    if x is None:
        return None
    counts = [0] * len(cands)
    for i in used:
        counts[i] = sum(round(x[m]) for _, m in runs_[i])
    return counts


Terms = Callable[[int, float], list[tuple[int, float]]]


def _whole_jobs(c: Candidate, need: Need) -> bool:
    """A job of the need is a whole number of this offer's nodes (8-GPU nodes, 64-GPU jobs)."""
    return bool(need.job_gpus) and need.job_gpus % c.gpus_per_node == 0


def _lean_rows(
    model: _Model,
    need: Need,
    cands: Sequence[Candidate],
    used: list[int],
    caps_: list[int],
    jobs: dict[int, int],
    nodes: Terms,
    chosen: Terms,
    gpus_of: list[tuple[int, float]],
) -> None:
    """No node beyond the need (``award_model.droppable``): for each offer given a node, giving up one of its
    nodes would leave the need unmet. Without jobs: total GPUs − the offer's GPUs per node < the need's GPUs.
    With jobs, each offer's jobs are pinned to ``floor(GPUs / job_gpus)`` and ``p`` to the same of one node
    fewer: total jobs − (jobs − p) < the jobs needed."""
    inf = highspy.kHighsInf
    if not need.job_gpus:
        # the rule binds for the smallest node given: a binary per node size used, total GPUs < need + that size
        total = model.var(float(sum(caps_[i] * cands[i].gpus_per_node for i in used)), integer=False)
        model.row(0.0, 0.0, [(total, 1.0), *((c, -v) for c, v in gpus_of)])
        big = float(sum(caps_[i] * cands[i].gpus_per_node for i in used))
        for size in sorted({cands[i].gpus_per_node for i in used}):
            w = model.var(1.0)
            for i in (i for i in used if cands[i].gpus_per_node == size):
                model.row(-inf, 0.0, [*nodes(i, 1.0), (w, -float(caps_[i]))])
            model.row(-inf, float(need.gpus - 1 + size) + big, [(total, 1.0), (w, big)])
        return
    job = float(need.job_gpus)
    total = model.var(float(sum(caps_[i] * cands[i].gpus_per_node // need.job_gpus for i in used)), integer=False)
    model.row(0.0, 0.0, [(total, 1.0), *((j, -1.0) for j in jobs.values())])
    big = float(sum(caps_[i] * cands[i].gpus_per_node for i in used)) + 1.0
    whole = [i for i in used if i in jobs and _whole_jobs(cands[i], need)]
    if whole:
        # a job is a whole number of such nodes: a node beyond the jobs is droppable, so the nodes are exactly the
        # jobs' (g·n = job·j); each last node completes a job, droppable unless the jobs are exactly the need's
        w = model.var(1.0)
        for i in whole:
            model.row(0.0, 0.0, [(jobs[i], job), *nodes(i, -float(cands[i].gpus_per_node))])
            model.row(-inf, 0.0, [*nodes(i, 1.0), (w, -float(caps_[i]))])
        model.row(-inf, float(need.jobs) + big, [(total, 1.0), (w, big)])
    for i in used:
        g = float(cands[i].gpus_per_node)
        if i not in jobs:  # this offer can host no job: any node of it is beyond the need
            model.row(0.0, 0.0, chosen(i, 1.0))
            continue
        if i in whole:
            continue
        j = jobs[i]
        model.row(-(job - 1.0), inf, [(j, job), *nodes(i, -g)])  # j = floor(g·n / job_gpus)
        p = model.var(float(caps_[i] * cands[i].gpus_per_node // need.job_gpus))
        model.row(-inf, 0.0, [(p, job), *nodes(i, -g), *chosen(i, g)])  # job·p ≤ g·(n − 1) when used
        model.row(-(job - 1.0), inf, [(p, job), *nodes(i, -g), *chosen(i, g)])  # p = floor(g·(n − 1) / job)
        model.row(-inf, float(need.jobs - 1) + big, [(total, 1.0), (j, -1.0), (p, 1.0), *chosen(i, big)])
