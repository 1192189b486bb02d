"""A reproducible synthetic market for benchmarks: many providers, offers, rounds and claims.

    python -m benchmarks.market OUT.db [--offers 10000]

Offers cycle through the catalog's GPUs, billing bases and price units; each has four rounds
(list, provider, our counter, provider) with prices drawn from a seeded generator, so two runs build
the same database.
"""

from __future__ import annotations

import argparse
import random
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from quotetui.domain.contracts.dates import add_months
from quotetui.domain.enums import (
    BillingBasis,
    DiscountKind,
    ExtraBasis,
    ExtraKind,
    InterFabric,
    IntraFabric,
    Metric,
    Mover,
    OfferStatus,
    PriceUnit,
    Provenance,
    ProviderKind,
)
from quotetui.services.database import open_database
from quotetui.store.engine import Database
from quotetui.store.models import (
    BenchmarkResult,
    Contract,
    Discount,
    ExtraCost,
    GpuModel,
    Invoice,
    Offer,
    Provider,
    QuoteRevision,
    RevisionPrice,
    SlaTerm,
    Source,
)
from quotetui.store.versions import WROTE

BASE_PRICE = {  # CNY per GPU-month, roughly the market of the seeds
    "h100-sxm5": 10000,
    "h200-sxm": 13000,
    "h800-sxm5": 9000,
    "a100-80gb-sxm4": 5000,
    "a100-40gb-sxm4": 3500,
    "a100-80gb-pcie": 4200,
    "a100-40gb-pcie": 3000,
    "h100-pcie": 8000,
    "h100-nvl": 9000,
    "h20": 4000,
    "b200": 22000,
    "l40s": 3000,
    "rtx-4090": 1500,
}


MARKET_MODELS = frozenset({
    "a100-40gb-sxm4", "a100-80gb-sxm4", "a100-80gb-pcie", "a100-40gb-pcie", "h100-sxm5", "h100-pcie", "h100-nvl",
    "h800-sxm5", "h20", "h200-sxm", "b200", "l40s", "rtx-4090", "a800-80gb-sxm4", "a800-80gb-pcie", "h800-pcie",
    "l20", "l40", "rtx-4090d", "gb200", "ascend-910b3", "ascend-910b2", "ascend-910b1", "ascend-910c",
})  # fmt: skip
"""The models the synthetic market cycles through: the catalog as the market was designed (2026-12-03), so a
model added to the catalog later leaves the market, and every figure measured on it, as it was."""


def _table(model: type) -> sa.Table:
    return model.__table__  # type: ignore[attr-defined,no-any-return]


def build(db: Database, offers: int, seed: int = 7) -> dict[str, int]:
    rng = random.Random(seed)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    providers = max(offers // 50, 1)
    with db.write() as session:
        session.info[WROTE] = True  # Core inserts on the connection: a write as an import's (data version, refresh)
        conn = session.connection()
        gpus = {key: gid for gid, key in conn.execute(sa.select(_table(GpuModel).c.id, _table(GpuModel).c.key))}
        keys = sorted(k for k in gpus if k in MARKET_MODELS)
        source_id = conn.execute(
            sa.insert(_table(Source)).values(kind="article", title="synthetic benchmark market", created_at=now)
        ).inserted_primary_key[0]
        conn.execute(
            sa.insert(_table(Provider)),
            [
                {
                    "name": f"Provider {i:04d}",
                    "kind": rng.choice(list(ProviderKind)),
                    "regions": [],
                    "certifications": [],
                    "created_at": now,
                    "updated_at": now,
                }
                for i in range(providers)
            ],
        )
        provider_ids = [pid for (pid,) in conn.execute(sa.select(_table(Provider).c.id))]
        offer_rows, plans = [], []
        for i in range(offers):
            key = keys[i % len(keys)]
            gpn = rng.choice((1, 4, 8, 8, 8))
            basis = rng.choice(list(BillingBasis))
            unit = (
                PriceUnit.NODE_HOUR
                if basis in (BillingBasis.ON_DEMAND, BillingBasis.SPOT)
                else rng.choice((PriceUnit.NODE_MONTH, PriceUnit.GPU_MONTH, PriceUnit.GPU_HOUR))
            )
            offer_rows.append(
                {
                    "provider_id": provider_ids[i % providers],
                    "gpu_model_id": gpus[key],
                    "name": f"{gpn}×{key} #{i}",
                    "form_factor": "pcie" if "pcie" in key or key in ("l40s", "rtx-4090", "h100-nvl") else "sxm",
                    "gpus_per_node": gpn,
                    "nodes_available": rng.choice((None, 2, 8, 64)),
                    "intra_fabric": IntraFabric.NVSWITCH if gpn == 8 else IntraFabric.UNKNOWN,
                    "inter_fabric": rng.choice(list(InterFabric)),
                    "bare_metal": True,
                    "billing_basis": basis,
                    "prorata_days": False,
                    "status": rng.choice(list(OfferStatus)),
                    "valid_until": date(2026, 11, 30) + timedelta(days=rng.randint(-30, 120)),
                    "is_estimate": False,
                    "created_at": now,
                    "updated_at": now,
                }
            )
            per_gpu_month = Decimal(BASE_PRICE.get(key, 5000)) * Decimal(rng.randint(70, 140)) / 100
            plans.append((unit, gpn, per_gpu_month))
        conn.execute(sa.insert(_table(Offer)), offer_rows)
        offer_ids = [oid for (oid,) in conn.execute(sa.select(_table(Offer).c.id).order_by(_table(Offer).c.id))]

        revisions = []
        for oid in offer_ids:
            for seq, mover in enumerate((Mover.LIST, Mover.PROVIDER, Mover.COUNTER, Mover.PROVIDER), start=1):
                revisions.append(
                    {
                        "offer_id": oid,
                        "seq": seq,
                        "quoted_at": now + timedelta(days=seq),
                        "mover": mover,
                        "is_estimate": False,
                        "created_at": now,
                    }
                )
        conn.execute(sa.insert(_table(QuoteRevision)), revisions)
        rev_ids = conn.execute(
            sa.select(_table(QuoteRevision).c.id, _table(QuoteRevision).c.offer_id, _table(QuoteRevision).c.seq)
        ).all()
        plan_by_offer = dict(zip(offer_ids, plans, strict=True))
        prices = []
        factors = {1: Decimal("1.10"), 2: Decimal("1.00"), 3: Decimal("0.85"), 4: Decimal("0.95")}
        for rid, oid, seq in rev_ids:
            unit, gpn, per_gpu_month = plan_by_offer[oid]
            monthly = per_gpu_month * factors[seq]
            amount = {
                PriceUnit.NODE_HOUR: monthly * gpn / 730,
                PriceUnit.GPU_HOUR: monthly / 730,
                PriceUnit.GPU_MONTH: monthly,
                PriceUnit.NODE_MONTH: monthly * gpn,
            }[unit]
            prices.append(
                {
                    "revision_id": rid,
                    "term_months": 0 if unit is PriceUnit.NODE_HOUR else 1,
                    "unit": unit,
                    "amount": amount.quantize(Decimal("0.01")),
                    "currency": "CNY",
                    "prepay": False,
                    "is_estimate": False,
                }
            )
        conn.execute(sa.insert(_table(RevisionPrice)), prices)
        conn.execute(
            sa.insert(_table(Discount)),
            [
                {
                    "offer_id": oid,
                    "kind": DiscountKind.TERM,
                    "rate": Decimal("0.1"),
                    "min_term_months": 12,
                    "requires_prepay": True,
                    "is_estimate": False,
                }
                for oid in offer_ids[::3]
            ],
        )
        conn.execute(
            sa.insert(_table(ExtraCost)),
            [
                {
                    "offer_id": oid,
                    "kind": ExtraKind.EGRESS,
                    "basis": ExtraBasis.PER_GB,
                    "amount": Decimal("0.5"),
                    "currency": "CNY",
                    "refundable": False,
                    "is_estimate": False,
                }
                for oid in offer_ids[::2]
            ],
        )
        conn.execute(
            sa.insert(_table(SlaTerm)),
            [
                {"offer_id": oid, "availability": Decimal("0.999"), "preemption": "none", "is_estimate": False}
                for oid in offer_ids[::2]
            ],
        )
        claims = offers // 2
        conn.execute(
            sa.insert(_table(BenchmarkResult)),
            [
                {
                    "offer_id": offer_ids[i % offers],
                    "provenance": Provenance.CLAIMED,
                    "metric": Metric.MFU,
                    "value": str(Decimal(rng.randint(30, 60)) / 100),
                    "unit": "fraction",
                    "qualifier": "",
                    "source_id": source_id,
                    "created_at": now,
                }
                for i in range(claims)
            ],
        )
        contracts = _contracts(conn, rng, offer_ids, rev_ids, plan_by_offer, now)
    return {
        "providers": providers,
        "offers": offers,
        "revisions": len(revisions),
        "benchmark_results": claims,
        "contracts": contracts,
    }


def _contracts(
    conn: sa.Connection,
    rng: random.Random,
    offer_ids: list[int],
    rev_ids: list[Any],
    plans: dict[int, tuple[PriceUnit, int, Decimal]],
    now: datetime,
) -> int:
    """One offer in twenty signed: a 12-month contract on its last round, with an invoice a month."""
    last_round = {oid: rid for rid, oid, seq in rev_ids if seq == 4}
    rows = []
    for n, oid in enumerate(offer_ids[::20]):
        _, gpn, per_gpu_month = plans[oid]
        monthly = (per_gpu_month * Decimal("0.95") * gpn).quantize(Decimal("0.01"))
        start = date(2026, 1, 1) + timedelta(days=rng.randint(0, 300))
        rows.append(
            {
                "offer_id": oid,
                "revision_id": last_round[oid],
                "reference": f"C-{n:05d}",
                "start_date": start,
                "term_months": 12,
                "end_date": add_months(start, 12),
                "billing_cadence": "monthly",
                "gpu_count": gpn,
                "price": monthly,
                "price_unit": PriceUnit.NODE_MONTH,
                "currency": "CNY",
                "auto_renew": n % 2 == 0,
                "renewal_term_months": 12 if n % 2 == 0 else None,
                "notice_days": 30,
                "notice_deadline": add_months(start, 12) - timedelta(days=30),
                "snapshot": {"monthly_charge": str(monthly), "invoice_tolerance": "0"},
                "created_at": now,
            }
        )
    conn.execute(sa.insert(_table(Contract)), rows)
    contract_ids = [cid for (cid,) in conn.execute(sa.select(_table(Contract).c.id))]
    conn.execute(
        sa.insert(_table(Invoice)),
        [
            {
                "contract_id": cid,
                "period_start": row["start_date"],
                "period_end": row["start_date"] + timedelta(days=27),
                "amount": row["price"],
                "currency": "CNY",
                "paid": True,
                "created_at": now,
            }
            for cid, row in zip(contract_ids, rows, strict=True)
        ],
    )
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--offers", type=int, default=10_000)
    args = parser.parse_args()
    if args.out.exists():
        raise SystemExit(f"{args.out} exists; choose a new file")
    opened = open_database(str(args.out))
    print(build(opened.db, args.offers))
    opened.db.dispose()


if __name__ == "__main__":
    main()
