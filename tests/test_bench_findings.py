"""Each finding code: a case that produces it and one that does not (the rules, on the sample logs)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from quotetui.domain.economics.claims import Audit, Claim, audit
from quotetui.domain.enums import IntraFabric, Metric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Finding, FindingCode, Log, MarketReference, Severity, Sold
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
    assert f.title == "claimed 430 GB/s, measured 181.94 GB/s" and f.severity is Severity.WARNING
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
    assert "uncorrected ECC errors on 1 GPU" in titles
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


def test_every_code_means_something_is_documented_and_is_made_by_a_rule() -> None:
    """Each finding code (``FindingCode``) says what it means, has its row in docs/VERIFICATION.md's table, and
    some rule of ``domain/verification/`` makes findings of it; a finding of a code that is not one fails."""
    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "VERIFICATION.md").read_text(encoding="utf-8")
    rules = "".join(
        p.read_text(encoding="utf-8")
        for p in (root / "quotetui" / "domain" / "verification").glob("*.py")
        if p.name != "findings.py"
    )
    tests = "".join(p.read_text(encoding="utf-8") for p in (root / "tests").glob("test_*.py"))
    for code in FindingCode:
        assert len(code.meaning) > 20, code
        assert f"| `{code}` |" in guide, code
        assert f"FindingCode.{code.name}" in rules, code
        assert f'"{code}"' in tests or f"FindingCode.{code.name}" in tests, code  # some test expects it
    with pytest.raises(ValueError):
        Finding("not-a-code", Severity.INFO, "t", "e", ())  # type: ignore[arg-type]


def test_scale_out_low_against_the_offers_nics() -> None:
    from decimal import Decimal

    from quotetui.domain.enums import InterFabric
    from quotetui.domain.verification.logs import AllReduce, AllReduceRow

    # GCP A3 Mega: 2 hosts × 8 H100, 8×200 Gb/s of NIC, one per GPU. By hand: a host's NICs carry
    # 8 × 200 / 8 = 200 GB/s; busbw ≤ 200 × (16−1)·2 / (16·(2−1)) = 375 GB/s; measured 338.82 = 90.35 %.
    a3 = _shared("07-nccl-h100-16rank-2node-a3mega.txt")
    nics = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.VENDOR_RDMA, Decimal(200))
    assert "scale-out-low" not in codes(check(nics, [a3], CATALOG))
    # the same run sold as 8×400 Gb/s NDR: the NICs would allow 750, but NVLink caps it at 450 one way per GPU;
    # 338.82 is 75.29 % of that: not flagged
    ndr = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))
    assert "scale-out-low" not in codes(check(ndr, [a3], CATALOG))
    # 4 hosts × 8 on NDR measuring 200: NICs 400 × 31·4 / (32·3) = 516.67, capped at 450; 200 / 450 = 44.4 % < 60 %
    rows = (AllReduceRow(2**33, Decimal("200.00"), None, 0),)
    slow_run = Log(
        2, "4node.txt", AllReduce(32, ("NVIDIA H100 80GB HBM3",) * 32, ("a", "b", "c", "d"), rows, None, "x")
    )
    [f] = [f for f in check(ndr, [slow_run], CATALOG) if f.code == "scale-out-low"]
    assert (f.severity, f.title) == (Severity.WARNING, "Scale-out AllReduce 200.00 GB/s, ≤ 450 possible")
    assert f.evidence == (
        "4node.txt: 4 hosts × 8 GPUs at 400 Gb/s of NIC per GPU: busbw ≤ 450.00 GB/s (NVLink); measured 200.00 = "
        "44.4 % at 8,589,934,592 bytes",
    )
    # a DGX pair running 2 GPUs each on 400 Gb/s: a host's 2 NICs give 100 GB/s; bound 100 × 3·2 / (4·1) = 150;
    # measured 147.98 (98.7 %): healthy. On 100 Gb/s NICs the bound is 37.5 and 147.98 is above it (SHARP-like):
    # shown, never flagged.
    dgx = _shared("19-nccl-h100-2node-2gpu-each-dgx06.txt")
    assert "scale-out-low" not in codes(check(ndr, [dgx], CATALOG))
    slow = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.ROCE_V2, Decimal(100))
    assert "scale-out-low" not in codes(check(slow, [dgx], CATALOG))
    # no NIC figure recorded, a single-host run, a run without a rank list: not judged
    assert "scale-out-low" not in codes(check(H100, [a3], CATALOG))
    assert "scale-out-low" not in codes(check(ndr, [_shared("06-nccl-h100-8gpu-1node-healthy-exemplar.txt")], CATALOG))


def test_scale_out_bound_by_hand() -> None:
    from decimal import Decimal
    from fractions import Fraction

    from quotetui.domain.enums import InterFabric
    from quotetui.domain.verification.logs import AllReduce, AllReduceRow
    from quotetui.domain.verification.scaleout import scale_out

    # 32 hosts × 8 GPUs on 8×400 Gb/s: nic 400 GB/s; bound 400 × 255·32 / (256·31) = 411.29… GB/s (< 450 NVLink)
    hosts = tuple(f"node{i}" for i in range(32))
    run = AllReduce(256, ("NVIDIA H100 80GB HBM3",), hosts, (AllReduceRow(2**33, Decimal("370"), None, 0),), None, "x")
    ndr = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))
    found = scale_out(run, ndr)
    assert found is not None and found.bound == Fraction(400 * 255 * 32, 256 * 31) and found.nic_gbs == 400
    assert found.limit == "NICs"
    uneven = AllReduce(12, ("H100",), ("a", "b", "c", "d", "e"), run.rows, None, "x")  # 12 ranks on 5 hosts
    assert scale_out(uneven, ndr) is None


def test_dcgm_device_ids_are_checked_against_the_catalog() -> None:
    # shared 17 is an H200 run: "GPU Device IDs Detected | 2335,…" (8 times); 2335 is the H200's PCI id
    h200_log = [_shared("17-dcgmi-r1-h200-persistence-fail-azdoc.txt")]
    [f] = [f for f in check(H100, h200_log, CATALOG) if f.code == "model-mismatch"]
    assert (f.severity, f.title) == (Severity.CRITICAL, "H200 SXM reported, H100 SXM5 sold")
    assert f.evidence == ("17-dcgmi-r1-h200-persistence-fail-azdoc.txt: PCI device id 2335 (H200 SXM), 8 GPUs",)
    h200 = Sold(CATALOG.get("h200-sxm"), 8, IntraFabric.NVSWITCH)
    assert "model-mismatch" not in codes(check(h200, h200_log, CATALOG))
    # shared 14 shows 2330 (H100 SXM5) eight times: no mismatch against an H100 offer
    h100_log = [_shared("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt")]
    assert "model-mismatch" not in codes(check(H100, h100_log, CATALOG))


def test_an_npu_not_ok_is_a_hardware_fault() -> None:
    text = (Path(__file__).parent / "fixtures" / "benchlogs" / "npu-smi-info-910b.txt").read_text(encoding="utf-8")
    ascend = Sold(CATALOG.get(CATALOG.lookup("910B3").key), 8, IntraFabric.UNKNOWN)
    assert "hardware-fault" not in codes(check(ascend, [Log(1, "npu.txt", parse_log(text))], CATALOG))
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "910B3" in line and "| OK" in line)
    lines[at] = lines[at].replace("| OK    ", "| Alarm ", 1)
    sick = parse_log("\n".join(lines) + "\n")
    [f] = [f for f in check(ascend, [Log(1, "npu.txt", sick)], CATALOG) if f.code == "hardware-fault"]
    assert f.severity is Severity.CRITICAL and f.title == "npu-smi: 1 of 8 NPUs not OK"


def test_gpu_count_from_nvbandwidth() -> None:
    nvbw = Path(__file__).parent / "fixtures" / "benchlogs" / "nvbandwidth-h100-d2d-read.txt"
    logs = [Log(1, "nvbw.txt", parse_log(nvbw.read_text(encoding="utf-8")))]  # 8 devices, an 8×8 matrix
    assert "gpu-count" not in codes(check(H100, logs, CATALOG))
    sixteen = Sold(CATALOG.get("h100-sxm5"), 16, IntraFabric.NVSWITCH)
    [f] = [f for f in check(sixteen, logs, CATALOG) if f.code == "gpu-count"]
    assert f.title == "8 GPUs shown, 16 sold per node"


def test_impossible_measurements_are_flagged_and_never_count() -> None:
    from quotetui.domain.verification.acceptance import Status, checklist
    from quotetui.domain.verification.rules import measured
    from tests.test_bench_formats import Y2025

    # a GEMM "median" of 5000 TFLOPS on an H100 (989 dense BF16): more than the datasheet allows
    fast = Log(1, "gemm.txt", parse_log(Y2025.replace("782.7 TFLOPS", "5000.0 TFLOPS")))
    [f] = [f for f in check(H100, [fast], CATALOG) if f.code == "impossible-measurement"]
    assert f.severity is Severity.CRITICAL
    assert f.evidence == ("gemm.txt: median 5000.0 TFLOPS is more than the H100 SXM5's 989 TFLOPS peak",)
    assert "gemm-below-peak" not in codes(check(H100, [fast], CATALOG)) and not measured([fast], H100.gpu)
    [gemm] = [i for i in checklist(H100, [fast], [], CATALOG) if i.key == "gemm"]
    assert gemm.status is Status.FAILED and gemm.reason.startswith("impossible-measurement")
    # a single-host busbw above the 900 GB/s of NVLink an H100 has in both directions together
    text = (SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt").read_text(encoding="utf-8")
    busy = Log(2, "nccl.txt", parse_log(text.replace("479.84", "5000.00").replace("480.16", "5000.00")))
    assert "impossible-measurement" in codes(check(H100, [busy], CATALOG))
    # the healthy ones are not flagged: 480.16 GB/s busbw, 782.7 TFLOPS
    healthy = [Log(3, "n.txt", parse_log(text)), Log(4, "g.txt", parse_log(Y2025))]
    assert "impossible-measurement" not in codes(check(H100, healthy, CATALOG))


def test_a_sweep_in_another_dtype_is_not_judged_or_counted_as_bf16() -> None:
    from quotetui.domain.verification.acceptance import Status, checklist
    from quotetui.domain.verification.rules import measured
    from tests.test_bench_formats import Y2025

    fp8 = Log(
        1, "fp8.txt", parse_log(Y2025.replace("torch.bfloat16", "torch.float8_e4m3fn").replace("782.7", "1500.0"))
    )
    fp32 = Log(2, "fp32.txt", parse_log(Y2025.replace("torch.bfloat16", "torch.float32").replace("782.7", "400.0")))
    for log in (fp8, fp32):
        assert not {"gemm-below-peak", "impossible-measurement"} & codes(check(H100, [log], CATALOG))
        assert not measured([log], H100.gpu)
        [gemm] = [i for i in checklist(H100, [log], [], CATALOG) if i.key == "gemm"]
        assert gemm.status is Status.MISSING and gemm.reason == "no BF16 GEMM sweep on an H100 SXM5"
