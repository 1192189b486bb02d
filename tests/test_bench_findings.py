"""Each finding code: a case that produces it and one that does not (the rules, on the sample logs)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from quotetui.domain.economics.claims import Audit, Claim, audit
from quotetui.domain.enums import IntraFabric, Metric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import CODES, Finding, Log, MarketReference, Severity, Sold
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)
A100 = Sold(CATALOG.get("a100-80gb-sxm4"), 8, IntraFabric.NVSWITCH)


def logs(*names: str) -> list[Log]:
    return [
        Log(i, name, parse_log((SAMPLES / name).read_text(encoding="utf-8"), name)) for i, name in enumerate(names, 1)
    ]


CLEAN = [f"h100-clean/{p.name}" for p in sorted((SAMPLES / "h100-clean").iterdir())]


def codes(found: list[Finding], severity: Severity | None = None) -> set[str]:
    return {f.code for f in found if severity is None or f.severity is severity}


def test_a_clean_h100_node_has_no_findings() -> None:
    assert check(H100, logs(*CLEAN), CATALOG) == []


def test_vgpu() -> None:
    found = check(A100, logs("vgpu-guest/smi-query.csv", "vgpu-guest/smi-list.txt"), CATALOG)
    [f] = [f for f in found if f.code == "vgpu"]
    assert f.severity is Severity.CRITICAL and "GRID A100D-20C" in f.title
    assert "vgpu-guest/smi-query.csv: GRID A100D-20C, 20480 MiB" in f.evidence
    assert f.evidence_ids == (1, 2)
    assert "vgpu" not in codes(check(A100, logs("mig-slice/smi-query.csv"), CATALOG))


@pytest.mark.parametrize("name", ["NVIDIA L40S-4Q", "GRID A100D-2-20C", "NVIDIA A100D-20C"])
def test_vgpu_profile_names(name: str) -> None:
    log = Log(1, "q.csv", parse_log(f"name, memory.total [MiB]\n{name}, 20480 MiB\n"))
    assert "vgpu" in codes(check(A100, [log], CATALOG))


def test_mig() -> None:
    found = check(A100, logs("mig-slice/smi-list.txt", "mig-slice/smi-query.csv"), CATALOG)
    [f] = [f for f in found if f.code == "mig"]
    assert f.severity is Severity.CRITICAL
    assert any("MIG devices 1g.10gb" in line for line in f.evidence)
    assert any("mig.mode.current = Enabled" in line for line in f.evidence)
    assert "model-mismatch" not in codes(found)  # the parent is the A100 80GB that was sold
    assert "mig" not in codes(check(H100, logs("h100-clean/smi-list.txt", "h100-clean/smi-query.csv"), CATALOG))


def test_mig_device_name_in_a_benchmark() -> None:
    text = "name, memory.total [MiB]\nNVIDIA A100-SXM4-80GB MIG 1g.10gb, 9984 MiB\n"
    found = check(A100, [Log(1, "q.csv", parse_log(text))], CATALOG)
    assert codes(found) == {"mig", "gpu-count"}  # one GPU listed of the 8 sold


def test_pcie_topology_when_sold_as_sxm() -> None:
    found = check(H100, logs("pcie-as-sxm/topo.txt"), CATALOG)
    [f] = found
    assert (f.code, f.severity) == ("pcie-topology", Severity.CRITICAL)
    assert f.title == "28 of 28 GPU pairs talk over PCIe"
    assert "GPU0↔GPU1 PIX" in f.evidence[0]
    # a PCIe card sold as PCIe: the same topology is what was sold
    pcie_sold = Sold(CATALOG.get("h100-pcie"), 8, IntraFabric.PCIE)
    assert check(pcie_sold, logs("pcie-as-sxm/topo.txt"), CATALOG) == []


def test_pcie_topology_fewer_bonded_links() -> None:
    [f] = [f for f in check(H100, logs("h800-as-h100/topo.txt"), CATALOG) if f.code == "pcie-topology"]
    assert f.title == "NV8 between GPUs, NV18 expected"
    assert "pcie-topology" not in codes(check(H100, logs("h100-clean/topo.txt"), CATALOG))
    h800 = Sold(CATALOG.get("h800-sxm5"), 8, IntraFabric.NVSWITCH)
    assert check(h800, logs("h800-as-h100/topo.txt", "h800-as-h100/smi-query.csv"), CATALOG) == []


def test_model_mismatch() -> None:
    found = check(H100, logs("h800-as-h100/smi-query.csv"), CATALOG)
    [f] = found
    assert (f.code, f.severity, f.title) == ("model-mismatch", Severity.CRITICAL, "H800 SXM5 reported, H100 SXM5 sold")
    pcie = check(H100, logs("pcie-as-sxm/smi-query.csv"), CATALOG)
    assert [f.title for f in pcie] == ["H100 PCIe reported, H100 SXM5 sold"]
    consumer = Log(1, "q.csv", parse_log("name, memory.total [MiB]\nNVIDIA GeForce RTX 4090, 24564 MiB\n"))
    [c] = [f for f in check(H100, [consumer], CATALOG) if f.code == "model-mismatch"]
    assert "consumer card" in c.explanation
    unknown = Log(1, "q.csv", parse_log("name, memory.total [MiB]\nNVIDIA Z9000, 24564 MiB\n"))
    [u] = [f for f in check(H100, [unknown], CATALOG) if f.code == "model-mismatch"]
    assert (u.code, u.severity) == ("model-mismatch", Severity.WARNING)
    assert "model-mismatch" not in codes(check(H100, logs("h100-clean/smi-query.csv"), CATALOG))


def test_gemm_below_peak() -> None:
    [f] = check(H100, logs("slow-gemm/gemm.txt"), CATALOG)
    assert (f.code, f.severity) == ("gemm-below-peak", Severity.CRITICAL)
    assert f.title == "GEMM 600.4 TFLOPS = 60.7 % of peak"
    assert check(H100, logs("h100-clean/gemm.txt"), CATALOG) == []  # 80.2 %


def test_allreduce_low_is_judged_on_large_messages_not_the_average() -> None:
    [f] = check(H100, logs("low-busbw/all_reduce_perf.txt"), CATALOG)
    assert (f.code, f.severity, f.title) == ("allreduce-low", Severity.CRITICAL, "AllReduce 181.94 GB/s, 315 expected")
    assert "averages all sizes and is not judged" in f.evidence[0]
    # the clean node's average line (156.6 GB/s) is far under 315, yet its large messages reach 454.61
    clean = logs("h100-clean/all_reduce_perf.txt", "h100-clean/all_reduce_perf.json")
    assert check(H100, clean, CATALOG) == []


def test_allreduce_too_small_to_judge_and_multi_node_runs() -> None:
    text = (SAMPLES / "low-busbw" / "all_reduce_perf.txt").read_text()
    small = "\n".join(line for line in text.splitlines() if not line.strip()[:1].isdigit() or len(line.split()[0]) < 9)
    [f] = check(H100, [Log(1, "small.txt", parse_log(small))], CATALOG)
    assert (f.code, f.severity) == ("allreduce-low", Severity.INFO)
    two_hosts = text.replace("on gpu-node-01 device  4", "on gpu-node-02 device  4")
    assert check(H100, [Log(1, "multi.txt", parse_log(two_hosts))], CATALOG) == []


def _claim(metric: Metric, value: str, **kw: object) -> Audit:
    from decimal import Decimal

    return audit(Claim(id=7, metric=metric, value=Decimal(value), unit=kw.pop("unit", ""), source="brochure", **kw))  # type: ignore[arg-type]


def test_implausible_claim() -> None:
    impossible = _claim(Metric.GEMM_TFLOPS, "1500", unit="TFLOPS", gpu=CATALOG.get("h100-sxm5"))
    [f] = check(H100, [], CATALOG, (impossible,))
    assert (f.code, f.severity) == ("implausible-claim", Severity.CRITICAL)
    plausible = _claim(Metric.GEMM_TFLOPS, "790", unit="TFLOPS", gpu=CATALOG.get("h100-sxm5"))
    assert check(H100, [], CATALOG, (plausible,)) == []


def test_a_measurement_contradicting_a_claim() -> None:
    claimed = _claim(Metric.ALLREDUCE_BUSBW, "430", unit="GB/s", gpu=CATALOG.get("h100-sxm5"), gpu_count=8)
    found = check(H100, logs("low-busbw/all_reduce_perf.txt"), CATALOG, (claimed,))
    [f] = [f for f in found if f.code == "implausible-claim"]
    assert f.title == "claimed 430 GB/s, measured 181.94" and f.severity is Severity.WARNING
    assert "implausible-claim" not in codes(check(H100, logs("h100-clean/all_reduce_perf.txt"), CATALOG, (claimed,)))


def test_price_below_market() -> None:
    low = MarketReference(Fraction(384, 100), Fraction(916, 100), "CNY", "9 cloud catalog listings (lambda)")
    [f] = check(A100, [], CATALOG, (), low)
    assert (f.code, f.severity, f.title) == ("price-below-market", Severity.WARNING, "42 % of the market median")
    fair = MarketReference(Fraction(5), Fraction(916, 100), "CNY", "…")
    assert check(A100, [], CATALOG, (), fair) == []


def test_hardware_fault() -> None:
    found = check(H100, logs("faulty/gpu_burn.txt", "faulty/dcgmi-diag.txt", "faulty/smi-query.csv"), CATALOG)
    assert [(f.code, f.severity) for f in found] == [("hardware-fault", Severity.CRITICAL)] * 3
    titles = {f.title for f in found}
    assert "gpu-burn: 1 of 8 GPUs FAULTY" in titles
    assert "DCGM: 1 failed, 0 skipped or warned" in titles
    assert "uncorrected ECC errors on 1 GPU(s)" in titles
    wrong = (SAMPLES / "h100-clean" / "all_reduce_perf.txt").read_text().replace("      0  ", "      3  ", 1)
    [w] = check(H100, [Log(1, "ar.txt", parse_log(wrong))], CATALOG)
    assert w.title == "NCCL AllReduce returned wrong results"
    healthy = logs("h100-clean/gpu_burn.txt", "h100-clean/dcgmi-diag.txt", "h100-clean/smi-query.csv")
    assert "hardware-fault" not in codes(check(H100, healthy, CATALOG))


SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"


def _shared(name: str) -> Log:
    return Log(1, name, parse_log((SHARED / name).read_text(encoding="utf-8"), name))


def test_gpu_count() -> None:
    [f] = [f for f in check(H100, [_shared("12-topo-l40s-1gpu-ansi-exporter.txt")], CATALOG) if f.code == "gpu-count"]
    assert (f.severity, f.title) == (Severity.WARNING, "1 GPU shown, 8 sold per node")
    assert f.evidence == ("12-topo-l40s-1gpu-ansi-exporter.txt: 1 of 8 GPUs",)
    assert "gpu-count" not in codes(check(H100, logs(*CLEAN), CATALOG))  # every format shows 8


def test_configuration() -> None:
    found = check(H100, [_shared("17-dcgmi-r1-h200-persistence-fail-azdoc.txt")], CATALOG)
    [f] = [f for f in found if f.code == "configuration"]
    assert (f.severity, f.title) == (Severity.WARNING, "DCGM deployment: Persistence Mode not passed")
    assert "hardware-fault" not in codes(found)  # persistence mode off is a set-up fault, not a broken GPU
    memory = check(H100, [_shared("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt")], CATALOG)
    assert "configuration" not in codes(memory) and "hardware-fault" in codes(memory, Severity.CRITICAL)


def test_every_code_is_documented_and_tested_here() -> None:
    source = Path(__file__).read_text()
    for code in CODES:
        assert f'"{code}"' in source
