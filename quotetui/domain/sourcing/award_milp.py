"""The award as a MILP for HiGHS (``highspy``), on the engine's own costs.

Each offer's cost is given at every node count (``Candidate.costs``). Cut into the runs on which it is affine
(``award_model.segments``: one run for a flat price; a run per volume tier; a one-off fee is a run's fixed part),
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

from quotetui.domain.sourcing.award_model import Candidate, Need, caps, segments

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


def solve(need: Need, cands: Sequence[Candidate], d: int, budget_margin: Fraction = Fraction(1, 2)) -> list[int] | None:
    """HiGHS's node counts for ``need`` (rounded to integers, not yet checked exactly), or None if infeasible.

    The budget row allows ``budget_margin / d`` above the budget rounded down to a multiple of ``1/d`` (every
    split's cost is such a multiple), so that a split within budget is never refused for a float's sake."""
    caps_ = caps(need, cands)
    used = [i for i, cap in enumerate(caps_) if cap > 0]
    if not used:
        return None
    scale = max(cands[i].costs[caps_[i] - 1] for i in used)
    h = _highs()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", min(1e-6, max(1e-12, 0.25 / float(d * scale))))
    h.setOptionValue("mip_feasibility_tolerance", 1e-9)
    h.setOptionValue("primal_feasibility_tolerance", 1e-9)
    inf = highspy.kHighsInf
    model = _Model()
    runs: dict[int, list[tuple[int | None, int]]] = {}  # offer -> [(z, m)]; z None: a cost proportional to nodes
    cost_terms: list[tuple[int, float]] = []
    for i in used:
        runs[i] = []
        cut = segments(cands[i].costs[: caps_[i]])
        if len(cut) == 1 and cut[0][2] == 0 and not need.lean:  # n × a node's price: n alone says it all
            m = model.var(float(cut[0][1]), float(cut[0][3] / scale))
            runs[i].append((None, m))
            cost_terms.append((m, float(cut[0][3] / scale)))
            continue
        for first, last, fixed, per_node in cut:
            z = model.var(1.0, float(fixed / scale))
            m = model.var(float(last), float(per_node / scale))
            model.row(-inf, 0.0, [(m, 1.0), (z, -float(last))])
            model.row(0.0, inf, [(m, 1.0), (z, -float(first))])
            runs[i].append((z, m))
            cost_terms += [(z, float(fixed / scale)), (m, float(per_node / scale))]
        if len(runs[i]) > 1:
            model.row(-inf, 1.0, [(z, 1.0) for z, _ in runs[i] if z is not None])

    def nodes(i: int, times: float) -> list[tuple[int, float]]:
        return [(m, times) for _, m in runs[i]]

    def chosen(i: int, times: float) -> list[tuple[int, float]]:
        """The offer is given a node (a binary, or for a proportional cost its node count: ``y ≤ n`` suffices)."""
        return [(m if z is None else z, times) for z, m in runs[i]]

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
        model.row(-inf, float(limit / scale), cost_terms)
    x = model.solve(h)
    if x is None:
        return None
    counts = [0] * len(cands)
    for i in used:
        counts[i] = sum(round(x[m]) for _, m in runs[i])
    return counts


Terms = Callable[[int, float], list[tuple[int, float]]]


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
        total = model.var(float(sum(caps_[i] * cands[i].gpus_per_node for i in used)), integer=False)
        model.row(0.0, 0.0, [(total, 1.0), *((c, -v) for c, v in gpus_of)])
        big = float(sum(caps_[i] * cands[i].gpus_per_node for i in used))
        for i in used:
            g = cands[i].gpus_per_node
            model.row(-inf, float(need.gpus - 1 + g) + big, [(total, 1.0), *chosen(i, big)])
        return
    job = float(need.job_gpus)
    total = model.var(float(sum(caps_[i] * cands[i].gpus_per_node // need.job_gpus for i in used)), integer=False)
    model.row(0.0, 0.0, [(total, 1.0), *((j, -1.0) for j in jobs.values())])
    big = float(sum(caps_[i] * cands[i].gpus_per_node for i in used)) + 1.0
    for i in used:
        g = float(cands[i].gpus_per_node)
        if i not in jobs:  # this offer can host no job: any node of it is beyond the need
            model.row(0.0, 0.0, chosen(i, 1.0))
            continue
        j = jobs[i]
        model.row(-(job - 1.0), inf, [(j, job), *nodes(i, -g)])  # j = floor(g·n / job_gpus)
        p = model.var(float(caps_[i] * cands[i].gpus_per_node // need.job_gpus))
        model.row(-inf, 0.0, [(p, job), *nodes(i, -g), *chosen(i, g)])  # job·p ≤ g·(n − 1) when used
        model.row(-(job - 1.0), inf, [(p, job), *nodes(i, -g), *chosen(i, g)])  # p = floor(g·(n − 1) / job)
        model.row(-inf, float(need.jobs - 1) + big, [(total, 1.0), (j, -1.0), (p, 1.0), *chosen(i, big)])
