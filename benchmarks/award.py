"""Times the award optimiser on a random 10,000-offer market (need 256 GPUs, 200 providers); prints seconds.

Costs are not linear in nodes: about a third of the offers have a volume tier (20 % off from 64 GPUs) and a fifth
a one-off setup fee, so the MILP sees several cost runs per offer (``award_model.runs``). The line under the
table gives the model's size: node counts priced, and the runs HiGHS sees (two columns each).

Run: ``.venv/bin/python benchmarks/award.py [--offers N] [--providers P] [--seed S] [--linear]``
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from fractions import Fraction

from quotetui.domain.sourcing.award import Candidate, Need, node_cap, optimise
from quotetui.domain.sourcing.award_model import runs


def market(offers: int, providers: int, seed: int, need: Need, linear: bool = False) -> list[Candidate]:
    rng = random.Random(seed)
    out = []
    for offer_id in range(1, offers + 1):
        # drawn in the order the benchmark drew them before issue 29: --linear is the very market it timed
        gpn = rng.choice([1, 2, 4, 8, 8, 8])
        per_gpu_hour = Fraction(rng.randint(1000, 4500), 100)  # 10.00 to 45.00 a GPU-hour, in cents
        provider = f"provider {rng.randrange(providers)}"
        stock = rng.choice([None, *range(0, 17)])
        tier = not linear and rng.random() < 0.3
        fee = Fraction(rng.randint(10_000, 300_000)) if not linear and rng.random() < 0.2 else Fraction(0)

        def cost(
            n: int, gpn: int = gpn, rate: Fraction = per_gpu_hour, tier: bool = tier, fee: Fraction = fee
        ) -> Fraction:
            off = Fraction(8, 10) if tier and n * gpn >= 64 else 1
            return fee + n * gpn * rate * off * 8760

        cap = node_cap(need, gpn, stock)
        costs = tuple(cost(n) for n in range(1, cap + 1))
        out.append(Candidate(offer_id, provider, gpn, stock, costs))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--offers", type=int, default=10_000)
    parser.add_argument("--providers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--linear", action="store_true", help="No tiers or fees: every cost proportional to nodes.")
    args = parser.parse_args()
    need = Need(256, job_gpus=None)
    jobs = replace(need, job_gpus=64)
    candidates = market(args.offers, args.providers, args.seed, jobs, args.linear)  # priced for the larger cap (jobs)
    for label, variant in [
        ("cheapest", need),
        ("at most 60 % per provider", replace(need, max_share=Fraction(3, 5))),
        ("at least 2 providers", replace(need, min_providers=2)),
        ("64-GPU jobs in one offer", jobs),
        ("all four (+ 5 % over the cheapest as budget)", None),
    ]:
        if variant is None:
            cheapest = optimise(need, candidates).total_cost
            assert cheapest is not None
            variant = replace(need, max_share=Fraction(3, 5), min_providers=2, job_gpus=64, budget=cheapest * 105 / 100)
        start = time.perf_counter()
        award = optimise(variant, candidates)
        seconds = time.perf_counter() - start
        cost = f"{float(award.total_cost):,.2f}" if award.total_cost is not None else award.reason
        print(f"{label:<45} {seconds:7.3f} s  {len(award.allocations):3d} offers  {cost}")
    counts = sum(node_cap(need, c.gpus_per_node, c.nodes_available) for c in candidates)
    cut = sum(len(runs(c.costs[: node_cap(need, c.gpus_per_node, c.nodes_available)])) for c in candidates)
    print(f"model: {len(candidates)} offers, {counts} node counts priced, {cut} cost runs ({2 * cut} columns at most)")


if __name__ == "__main__":
    main()
