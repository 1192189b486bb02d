"""Issue 32, point 4: no foreign device verifies an offer. A DCGM device id that is not the sold model's is a
model finding even when the catalog does not know it; a training log's own MFU divides by the peak its framework
assumes for the device it ran on, so tflops ÷ mfu names that device. Also the shared logs 23-33 (issue 32,
point 6), read as ../shared/benchlogs/README.md says.

Figures by hand, written before the code ran:
- the issue's MI355X torchtitan line, tflops 331.82 at mfu 13.27 %: the peak lies between 331.815 ÷ 13.275 % =
  2,499.55 and 331.825 ÷ 13.265 % = 2,501.51 TFLOPS (printed to two places), so 2,500: torchtitan's figure for
  a GB200 and an MI355X, not an H100's 989 (nor anything else an H100 is taken at);
- public/inventory/16 (8× H200, torchtitan): step 3, 332.35 at 33.60 % = 989.1; step 18, 315.69 at 31.92 % = 989.0:
  989, an H100's or an H200's figure: an H100 offer cannot tell it apart (the log names no device); an A100
  (312) can;
- public/inventory/17 (GB200): it prints "Peak FLOPS used for computing MFU: 2.500e+15": 2,500 TFLOPS;
- shared log 23 (4× A10G, DCGM): device id 2237, not the H100 SXM5's 2330, and not in the catalog.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Log, Severity, Sold
from quotetui.domain.verification.framework_peaks import foreign, implied_peak
from quotetui.domain.verification.logs import DcgmDiag, GemmSweep, GpuBurn, TrainingThroughput
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log
from tests.conftest import Cli

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
SHARED = FIXTURES / "shared"
INVENTORY = FIXTURES / "public" / "inventory"
CATALOG = builtin_catalog()


def _sold(key: str, per_node: int = 8) -> Sold:
    return Sold(CATALOG.get(key), per_node, IntraFabric.NVSWITCH)


def _titan(lines: list[tuple[str, str]]) -> str:
    return "".join(
        f"[rank0]:[titan] 2026-11-02 10:00:{i:02d},000 - root - INFO - step: {i:2d}  loss: 9.1000  "
        f"tps: 1,234  tflops: {tflops}  mfu: {mfu}%\n"  # no memory figure: the device's memory is not at issue here
        for i, (tflops, mfu) in enumerate(lines, 1)
    )


MI355X = _titan([("12.50", "0.50")] + [("331.82", "13.27")] * 11)


def _model_findings(text: str, sold: Sold) -> list[tuple[Severity, str]]:
    found = check(sold, [Log(1, "run.txt", parse_log(text))], CATALOG)
    return [(f.severity, f.title) for f in found if f.code == "model-mismatch"]


def _file(folder: Path, prefix: str) -> str:
    [path] = folder.glob(f"{prefix}-*")
    return path.read_bytes().decode("utf-8")


def test_the_issues_mi355x_log_never_becomes_an_h100_offers_mfu() -> None:
    parsed = parse_log(MI355X)
    assert isinstance(parsed, TrainingThroughput)
    peak = implied_peak(parsed)
    assert peak is not None and Decimal("2499.5") < peak.low < 2500 < peak.high < Decimal("2501.6")
    assert _model_findings(MI355X, _sold("h100-sxm5")) == [
        (Severity.CRITICAL, "training log from GB200 or MI355X, H100 SXM5 sold")
    ]
    assert _model_findings(MI355X, _sold("gb200", 4)) == []  # 2,500 is what a GB200 is taken at


def test_the_issues_mi355x_log_is_kept_as_evidence_not_a_verified_mfu(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    log = tmp_path / "mi355x.txt"
    log.write_text(MI355X, encoding="utf-8")
    result = cli("--db", str(demo_db_path), "bench", "import", str(log), "--offer", "9", "--json")
    assert result.code == 0, result.err
    [stored] = json.loads(result.out)["logs"]
    assert stored["results"] == [] and "run on another device" in stored["not_verified"]
    assert "2500.5 TFLOPS (331.82 TFLOP/s ÷ 13.27 % at step 3)" in stored["not_verified"]


def test_a_public_h200_torchtitan_run_is_an_h200_by_its_memory_and_never_an_h100_offers_mfu() -> None:
    text = _file(INVENTORY, "16")
    parsed = parse_log(text)
    assert isinstance(parsed, TrainingThroughput)
    # its peak (989) is an H100's too; its memory is not: 116.16 GiB in use = 83.14 % → 139.7 GiB, an H200's 141 GB
    assert foreign(parsed, CATALOG.get("h100-sxm5"), CATALOG) == (
        "its device holds 139.7 GiB (as the log prints or its memory share implies); an H100 SXM5 has 80 GB",
        ["H200 SXM"],
    )
    assert _model_findings(text, _sold("h100-sxm5")) == [
        (Severity.CRITICAL, "training log from H200 SXM, H100 SXM5 sold")
    ]
    assert foreign(parsed, CATALOG.get("h200-sxm"), CATALOG) is None
    assert _model_findings(text, _sold("a100-80gb-sxm4")) == [
        (Severity.CRITICAL, "training log from H200 or H100 or H800 NVL, A100 80GB SXM4 sold")
    ]


def test_a_printed_peak_names_the_device_outright() -> None:
    text = _file(INVENTORY, "17")
    parsed = parse_log(text)
    assert isinstance(parsed, TrainingThroughput) and parsed.assumed_peak == 2500
    assert foreign(parsed, CATALOG.get("gb200"), CATALOG) is None
    found = foreign(parsed, CATALOG.get("b200"), CATALOG)
    assert found is not None and found[1] == ["GB200", "MI355X"]


def test_an_unknown_dcgm_device_id_cannot_be_shown_to_be_the_sold_part() -> None:
    text = _file(SHARED, "23")
    parsed = parse_log(text)
    assert isinstance(parsed, DcgmDiag) and set(parsed.device_ids) == {"2237"}
    found = [f for f in check(_sold("h100-sxm5"), [Log(1, "23.txt", parsed)], CATALOG) if f.code == "model-mismatch"]
    assert [(f.severity, f.title) for f in found] == [(Severity.WARNING, "unknown GPU: PCI device id 2237")]
    assert found[0].evidence == ("23.txt: PCI device id 2237, 4 GPUs; the H100 SXM5's: 2330",)
    hardware = [f for f in check(_sold("h100-sxm5"), [Log(1, "23.txt", parsed)], CATALOG) if f.code == "hardware-fault"]
    assert [f.severity for f in hardware] == [Severity.CRITICAL]  # Targeted Power failed on GPU 1


@pytest.mark.parametrize(
    "prefix, statistic, tflops, shape",
    [
        ("31", "median", "22.3", "3072x3072x1024"),  # mamf-finder 2025 on an AMD iGPU, stopped with ^C
        ("33", "MSMF", "722", None),  # mamf-finder 2026: MSMF judged before MAMF (842)
    ],
)
def test_shared_gemm_sweeps_read_their_figures(prefix: str, statistic: str, tflops: str, shape: str | None) -> None:
    parsed = parse_log(_file(SHARED, prefix))
    assert isinstance(parsed, GemmSweep)
    assert (parsed.statistic, parsed.tflops) == (statistic, Decimal(tflops))
    if shape:
        assert parsed.shape == shape


def test_shared_sweep_33_keeps_its_mamf_too_and_30_its_best_outcome() -> None:
    msmf = parse_log(_file(SHARED, "33"))
    assert isinstance(msmf, GemmSweep) and ("MAMF", Decimal(842)) in [(s, v) for s, v, _ in msmf.figures]
    old = parse_log(_file(SHARED, "30"))
    assert isinstance(old, GemmSweep) and Decimal("821.0") in [v for _, v, _ in old.figures]


def test_shared_gpu_burn_26_records_sixteen_faulty_gpus() -> None:
    parsed = parse_log(_file(SHARED, "26"))
    assert isinstance(parsed, GpuBurn) and len(parsed.results) == 16 and len(parsed.faulty) == 16


def test_the_mscclpp_look_alike_is_refused_as_what_it_is() -> None:
    from quotetui.domain.verification.logs import LogError

    with pytest.raises(LogError) as refused:
        parse_log(_file(SHARED, "29"))
    assert "mscclpp-test" in refused.value.message and "garbled" not in refused.value.message
    assert refused.value.line == 17  # the column header


def test_steps_that_imply_no_single_peak_are_an_edited_log_not_an_offers_mfu() -> None:
    # one steady step edited from 13.27 % to 33.55 %: 331.82 ÷ 33.55 % ≈ 989 there, 2,500 elsewhere
    lines = MI355X.splitlines(keepends=True)
    lines[5] = lines[5].replace("mfu: 13.27%", "mfu: 33.55%")
    edited = "".join(lines)
    assert _model_findings(edited, _sold("h100-sxm5")) == [
        (Severity.WARNING, "training log from an unknown device, H100 SXM5 sold")
    ]
    printed = "Peak FLOPS used for computing MFU: 9.890e+14\n" + MI355X  # a printed peak the steps contradict
    assert _model_findings(printed, _sold("h100-sxm5")) == [
        (Severity.WARNING, "training log from an unknown device, H100 SXM5 sold")
    ]


def test_an_mfu_above_100_percent_is_refused_and_zero_mfu_means_a_device_the_trainer_did_not_know() -> None:
    from quotetui.domain.verification.logs import LogError

    with pytest.raises(LogError, match=r"mfu 150\.00%: more than 100 %"):
        parse_log(_titan([("331.82", "13.27")] * 11 + [("331.82", "150.00")]))
    zero = _titan([("68.89", "0.00")] * 12)  # torchtitan's newer table gives an unknown device no peak: 0.00 %
    assert _model_findings(zero, _sold("h100-sxm5")) == [
        (Severity.WARNING, "training log from an unknown device, H100 SXM5 sold")  # it knows the H100's 989
    ]
    assert _model_findings(zero, _sold("h20")) == []  # it names no H20: 0.00 % is what it prints there
