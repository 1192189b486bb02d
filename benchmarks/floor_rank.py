"""The exact floor of ranking: what ranking every offer costs with nothing but stdlib sqlite3 and the domain.

``floor_rank(db_path)`` reads the inputs a ranking needs (the default scenario, FX rates, assumptions, the GPU
catalog, and every offer's current round only) with plain ``sqlite3`` straight into the domain's input
dataclasses, evaluates them with the same exact-Fraction model (``domain.economics.evaluate``) and sorts them
the same way (``rank``). No SQLAlchemy, no ORM, no cache; the cyclic GC paused around the work (what any bulk
loader can do). ``measure`` compares ``rank_offers`` run cold in a fresh process (``benchmarks.rank_once``) with
it, in the suite's row format, and checks both give the same ranking (same ids, same figures).

    python -m benchmarks.floor_rank DB           # the floor's seconds (and its ranking's size)
    python -m benchmarks.floor_rank DB --measure # the row, ours against the floor
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import defaultdict
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate, rank
from quotetui.domain.economics.inputs import (
    DiscountTerm,
    Evidence,
    ExtraTerm,
    OfferInput,
    PriceOption,
    ScenarioInput,
)
from quotetui.domain.economics.rounds import current_round
from quotetui.domain.enums import (
    BillingBasis,
    DiscountKind,
    ExtraBasis,
    ExtraKind,
    FormFactor,
    InterFabric,
    IntraFabric,
    Metric,
    OfferStatus,
    PriceUnit,
    Provenance,
)
from quotetui.domain.fields import parse_value
from quotetui.domain.fx import FxRateFact, FxTable
from quotetui.domain.gc_pause import gc_paused
from quotetui.domain.gpus import BUILTIN, GpuSpec

TARGET = 1.5  # issue 16, point 4: ranking ≤ 1.5× the exact floor
FLOOR = "stdlib sqlite3 into the domain's inputs (current rounds), same exact-Fraction evaluate and sort, GC paused"


def _m(v: int | None, places: int = 6) -> Decimal | None:
    return None if v is None else Decimal(v).scaleb(-places)


def _d(v: str | None) -> Decimal | None:
    return None if v is None else Decimal(v)


def _when(v: str | None) -> datetime | None:
    return None if v is None else datetime.fromisoformat(v).replace(tzinfo=UTC)


def _inputs(conn: Any, day: date) -> tuple[ScenarioInput, FxTable, Assumptions, list[OfferInput]]:
    pci = {s.key: s.pci_device_ids for s in BUILTIN}
    aliases: dict[int, list[str]] = defaultdict(list)
    for gid, alias in conn.execute("SELECT gpu_model_id, alias FROM gpu_alias ORDER BY id"):
        aliases[gid].append(alias)
    gpus = {
        r[0]: GpuSpec(r[1], r[2], FormFactor(r[3]), r[4], r[5], Decimal(r[6]), Decimal(r[7]), _d(r[8]), _d(r[9]),
                      r[10], r[11], r[12], r[13], bool(r[14]), (), r[15], tuple(aliases[r[0]]), pci.get(r[1], ()))
        for r in conn.execute(
            "SELECT id, key, name, form_factor, memory_gb, memory_type, memory_bw_tbs, bf16_tflops, fp8_tflops, "
            "fp64_tflops, nvlink_gbs, nvlink_note, tdp_w, topo_signature, consumer, smi_memory_mib FROM gpu_model"
        )
    }  # fmt: skip
    s = conn.execute(
        "SELECT name, gpu_count, months, utilisation, home_currency, egress_tb_month, storage_tb, train_flops, "
        "train_params, train_tokens, gpu_model_id FROM scenario ORDER BY is_default DESC, id LIMIT 1"
    ).fetchone()
    scenario = ScenarioInput(s[0], s[1], s[2], _m(s[3]), s[4], Decimal(s[5]), Decimal(s[6]), _d(s[7]), _d(s[8]),
                             _d(s[9]), gpus[s[10]] if s[10] is not None else None)  # fmt: skip
    fx = FxTable(
        [
            FxRateFact(b, qu, _m(r, 10), date.fromisoformat(a), src)
            for b, qu, r, a, src in conn.execute("SELECT base, quote, rate, as_of, source FROM fx_rate")
        ],
        day,
    )
    stored = dict(conn.execute("SELECT substr(key, 12), value FROM setting WHERE key LIKE 'assumption.%'"))
    values: dict[str, Any] = {}
    for f in E.SETTINGS.fields:
        if f.name in stored:
            value = parse_value(f, stored[f.name])
            values[f.name] = Fraction(value) if isinstance(value, Decimal) else value
    assumptions = Assumptions(**values)

    rounds: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    priced = {r for (r,) in conn.execute("SELECT DISTINCT revision_id FROM revision_price")}
    revisions = "SELECT id, offer_id, mover, quoted_at, is_estimate FROM quote_revision ORDER BY offer_id, seq"
    for r in conn.execute(revisions):
        rounds[r[1]].append(r)
    current = {}  # offer id: its current round
    for oid, rs in rounds.items():
        found = current_round(rs, lambda r: r[2], lambda r: r[0] in priced)
        if found is not None:
            current[oid] = found
    current_ids = {r[0] for r in current.values()}
    options: dict[int, list[PriceOption]] = defaultdict(list)
    for p in conn.execute(
        "SELECT revision_id, term_months, unit, amount, currency, amount_high, prepay, is_estimate, note "
        "FROM revision_price ORDER BY term_months, id"
    ):
        if p[0] in current_ids:
            options[p[0]].append(
                PriceOption(p[1], PriceUnit(p[2]), _m(p[3]), p[4], _m(p[5]), bool(p[6]), bool(p[7]), p[8])  # type: ignore[arg-type]
            )
    discounts: dict[int, list[tuple[int | None, DiscountTerm]]] = defaultdict(list)
    for d in conn.execute(
        "SELECT id, offer_id, revision_id, kind, rate, min_term_months, min_gpus, requires_prepay, description "
        "FROM discount ORDER BY id"
    ):
        discounts[d[1]].append((d[2], DiscountTerm(d[0], DiscountKind(d[3]), _m(d[4]), d[5], d[6], bool(d[7]), d[8])))
    extras: dict[int, list[tuple[int | None, ExtraTerm]]] = defaultdict(list)
    for x in conn.execute(
        "SELECT id, offer_id, revision_id, kind, basis, amount, currency, refundable, description FROM extra_cost "
        "ORDER BY id"
    ):
        term = ExtraTerm(x[0], ExtraKind(x[3]), ExtraBasis(x[4]), _m(x[5]), x[6], bool(x[7]), x[8])
        extras[x[1]].append((x[2], term))
    sla = dict(conn.execute("SELECT offer_id, availability FROM sla_term"))
    evidence: dict[int, list[Evidence]] = defaultdict(list)
    for b in conn.execute(
        "SELECT b.id, b.offer_id, b.provenance, b.metric, b.value, b.value_high, b.qualifier, b.workload, "
        "b.source_id, b.gpu_count, b.model_params, s.title, e.tool, e.host FROM benchmark_result b "
        "LEFT OUTER JOIN source s ON s.id = b.source_id LEFT OUTER JOIN evidence e ON e.id = b.evidence_id "
        "WHERE b.offer_id IS NOT NULL ORDER BY b.id"
    ):
        origin = b[11] if b[8] else " on ".join(x for x in (b[12], b[13]) if x) or None
        evidence[b[1]].append(Evidence(b[0], Provenance(b[2]), Metric(b[3]), Decimal(b[4]), _d(b[5]), b[6], b[7],
                                       origin, b[9], _d(b[10])))  # fmt: skip
    offers = []
    for o in conn.execute(
        "SELECT o.id, p.name, o.name, o.gpu_model_id, o.gpus_per_node, o.billing_basis, o.status, o.nodes_available, "
        "o.intra_fabric, o.inter_fabric, o.inter_gbps_per_gpu, o.prorata_days, o.vat_rate, o.special_invoice, "
        "o.is_estimate, p.kind, o.form_factor, o.region, o.valid_until FROM offer o "
        "LEFT OUTER JOIN provider p ON p.id = o.provider_id ORDER BY o.id"
    ):
        oid = o[0]
        found = current.get(oid)
        if found is None:
            continue
        rid = found[0]
        offers.append(
            OfferInput(
                oid, o[1], o[2], gpus[o[3]], o[4], BillingBasis(o[5]), OfferStatus(o[6]), tuple(options[rid]), o[7],
                IntraFabric(o[8]), InterFabric(o[9]), _d(o[10]), bool(o[11]), _when(found[3]), _m(o[12]),
                bool(o[13]), bool(o[14]), bool(found[4]),
                tuple(t for r, t in discounts.get(oid, ()) if r in (None, rid)),
                tuple(t for r, t in extras.get(oid, ()) if r in (None, rid)),
                _m(sla.get(oid)), tuple(evidence.get(oid, ())), (), o[15], o[16], o[17],
                None if o[18] is None else date.fromisoformat(o[18]),
            )
        )  # fmt: skip
    return scenario, fx, assumptions, offers


def floor_rank(db_path: str | Path, day: date | None = None) -> tuple[list[Evaluation], list[tuple[OfferInput, str]]]:
    """Every offer of the file ranked for its default scenario, the floor's way: (ranked, not comparable)."""
    import sqlite3

    day = day or datetime.now(UTC).date()
    with gc_paused():
        conn = sqlite3.connect(f"{Path(db_path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            scenario, fx, assumptions, offers = _inputs(conn, day)
        finally:
            conn.close()
        evaluations, skipped = [], []
        for offer in offers:
            try:
                evaluations.append(evaluate(offer, scenario, fx, assumptions))
            except NOT_COMPARABLE as exc:
                skipped.append((offer, str(exc)))
        return rank(evaluations), skipped


def fingerprint(evaluations: list[Evaluation], skipped: list[tuple[OfferInput, str]]) -> list[Any]:
    """What must agree between two rankings: the order of ids and each offer's exact figures."""
    return [
        (e.offer.id, e.feasibility.ok, e.cost_per_pflop_hour, e.best.total, e.price_per_gpu_hour, e.best.label)
        for e in evaluations
    ] + [(o.id, why) for o, why in skipped]


def same_as_ours(db_path: str | Path) -> bool:
    """The floor ranks exactly as ``rank_offers`` does (same ids in the same order, same figures)."""
    from quotetui.services.database import open_database
    from quotetui.services.economics import rank_offers

    opened = open_database(str(db_path), load_demo_if_new=False)
    try:
        ours = rank_offers(opened.db, history=False)
    finally:
        opened.db.dispose()
    return fingerprint(ours.evaluations, ours.skipped) == fingerprint(*floor_rank(db_path, ours.on))


def _timed_floor(db_path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.floor_rank", db_path, "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def _timed_ours(db_path: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.rank_once", db_path], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(db: str | Path, runs: int = 3) -> list[dict[str, Any]]:
    """One row: ``rank_offers`` cold in a fresh process against the floor in a fresh process, best of ``runs``
    each (alternated, so a busy moment of the machine hits both)."""
    from benchmarks.bytecode import compiled

    compiled()  # as an installed copy runs: bytecode, not source
    ours, floor = [], []
    for _ in range(runs):
        floor.append(_timed_floor(str(db)))
        ours.append(_timed_ours(str(db)))
    best_ours = min(ours, key=lambda r: r["seconds"])
    best_floor = min(floor, key=lambda r: r["seconds"])
    return [
        {
            "measure": "rank all offers (cold)",
            "ours_s": round(best_ours["seconds"], 3),
            "floor_s": round(best_floor["seconds"], 3),
            "ours_mib": best_ours["mib"],
            "floor_mib": best_floor["mib"],
            "target": TARGET,
            "floor": FLOOR,
        }
    ]


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        raise SystemExit("usage: python -m benchmarks.floor_rank DB [--json | --measure [RUNS] | --check]")
    db = args[0]
    if "--measure" in args:
        rest = args[args.index("--measure") + 1 :]
        for row in measure(db, int(rest[0]) if rest else 3):
            ratio = row["ours_s"] / row["floor_s"]
            print(json.dumps(row), f"# ratio {ratio:.2f} (target ≤ {row['target']})")
        return
    if "--check" in args:
        same = same_as_ours(db)
        print("same ranking as rank_offers" if same else "DIFFERENT ranking from rank_offers")
        raise SystemExit(0 if same else 1)
    from benchmarks.memory import peak_mib

    started = time.perf_counter()
    ranked, skipped = floor_rank(db)
    seconds = time.perf_counter() - started
    if "--json" in args:
        print(json.dumps({"seconds": seconds, "mib": round(peak_mib(), 1), "offers": len(ranked) + len(skipped)}))
    else:
        print(f"{seconds:.3f}")


if __name__ == "__main__":
    main()
