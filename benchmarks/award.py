"""Times the award optimiser on a random 10,000-offer market (need 256 GPUs, 200 providers); prints seconds.

Run: ``.venv/bin/python benchmarks/award.py [--offers N] [--providers P] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from fractions import Fraction

from quotetui.domain.sourcing.award import Candidate, Need, optimise


def market(offers: int, providers: int, seed: int) -> list[Candidate]:
    rng = random.Random(seed)
    out = []
    for offer_id in range(1, offers + 1):
        gpn = rng.choice([1, 2, 4, 8, 8, 8])
        per_gpu_hour = Fraction(rng.randint(1000, 4500), 100)  # 10.00 to 45.00 a GPU-hour, in cents
        out.append(
            Candidate(
                offer_id=offer_id,
                provider=f"provider {rng.randrange(providers)}",
                gpus_per_node=gpn,
                nodes_available=rng.choice([None, *range(0, 17)]),
                node_cost=per_gpu_hour * gpn * 8760,
            )
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--offers", type=int, default=10_000)
    parser.add_argument("--providers", type=int, default=200)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    candidates = market(args.offers, args.providers, args.seed)
    need = Need(256)
    for label, variant in [
        ("cheapest", need),
        ("at most 60 % per provider", replace(need, max_share=Fraction(3, 5))),
        ("at least 2 providers", replace(need, min_providers=2)),
        ("64-GPU jobs in one offer", replace(need, job_gpus=64)),
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


if __name__ == "__main__":
    main()
