"""Issue 32, points 1, 5 and 6: real nccl-tests and rccl-tests runs of every collective, gathered from public
sources (tests/fixtures/benchlogs/public/collectives, each source and its reading in READINGS.md there, written
by hand before any parser ran). The figures below are transcribed from those readings: the collective, ranks,
hosts, the largest size and its out-of-place / in-place busbw, the '# Avg bus bandwidth' line and the wrong
results; a log the readings call aborted or cut is refused with that reason."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Log, Sold
from quotetui.domain.verification.logs import AllReduce, BusRun, LogError
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log

PUBLIC = Path(__file__).parent / "fixtures" / "benchlogs" / "public" / "collectives"
CATALOG = builtin_catalog()


def _read(prefix: str) -> str:
    [path] = PUBLIC.glob(f"{prefix}-*")
    return path.read_bytes().decode("utf-8")


def _parse(prefix: str) -> BusRun:
    parsed = parse_log(_read(prefix), prefix)
    assert isinstance(parsed, BusRun)
    return parsed


READ = {  # prefix: (tool, ranks, hosts, largest size, out busbw, in busbw, avg, wrong)
    "01": ("nccl-tests all_gather_perf", 2, ("promaxgb10-4c75", "promaxgb10-4c99"), 17179869184, "22.94", "22.98",
           "22.9611", 0),
    "02": ("nccl-tests alltoall_perf", 8, ("localhost",), 8589934592, "224.31", "226.16", "58.6481", 0),
    "03": ("nccl-tests reduce_perf", 8, ("localhost",), 8589934592, "228.38", "228.83", "65.018", 0),
    "04": ("nccl-tests all_gather_perf", 2, ("lab",), 134217728, "2.30", "2.29", "1.54321", 0),
    "07": ("nccl-tests all_reduce_perf", 2, ("gpu-1-1", "gpu-1-7"), 134217728, "22.87", "22.80", "4.79995", 128),
    "08": ("rccl-tests alltoall_perf", 8, ("Aliyun3",), 134217728, "322.22", "316.42", "58.3947", 0),
    "09": ("rccl-tests alltoall_perf", 16, ("Aliyun3", "Aliyun1"), 17179869184, "91.09", "91.10", "36.0754", 0),
    "10": ("rccl-tests all_reduce_perf", 16, ("gpu-53", "gpu-56"), 17179869184, "357.46", "357.41", "92.3318", 0),
    "12": ("nccl-tests broadcast_perf", 2, ("autodl-container-xxxxx",), 1073741824, "11.09", "11.09", "5.07658", 0),
    "13": ("nccl-tests alltoall_perf", 16, ("R6KD-CX8aaS-GPU-11", "R6KD-CX8aaS-GPU-12"), 8589934592, "35.90",
           "38.01", "9.04853", 0),
    "14": ("nccl-tests all_gather_perf", 12, ("seville",), 8589934560, "73.75", "112.34", "30.2993", 4),
    "15": ("rccl-tests all_gather_perf", 4, ("wwk",), 33554432, "1.93", "1.96", "1.94158", 0),
    "16": ("nccl-tests reduce_scatter_perf", 8, ("localhost",), 8589934592, "231.52", "231.25", "60.168", 0),
}  # fmt: skip


@pytest.mark.parametrize("prefix", sorted(READ))
def test_each_public_run_reads_as_its_reading_says(prefix: str) -> None:
    tool, ranks, hosts, size, out, inplace, avg, wrong = READ[prefix]
    run = _parse(prefix)
    largest = max(run.rows, key=lambda r: r.size)
    assert (run.tool, run.ranks, run.hosts) == (tool, ranks, hosts)
    assert (largest.size, largest.out_busbw, largest.in_busbw) == (size, Decimal(out), Decimal(inplace))
    assert (run.avg_busbw, run.wrong) == (Decimal(avg), wrong)
    assert isinstance(run, AllReduce) == (tool.endswith("all_reduce_perf"))


@pytest.mark.parametrize(
    "prefix, line, said",
    [
        # no '# Rank' lines and no nThread line: the GPUs behind the figures are unknown
        ("05", None, "the number of GPUs is unknown"),
        # aborted before a table: named as an abort with nccl-tests' own message, never "cut short" or "garbled"
        ("06", 14, "all_reduce_perf aborted before any result: Test CUDA failure common.cu:1304 'CUDA-capable "
                   "device(s) is/are busy or unavailable'"),
        # the author cut the paste after the 8 GiB row: no '# Avg bus bandwidth' line
        ("11", None, "cut short"),
    ],
)  # fmt: skip
def test_public_runs_that_cannot_be_judged_are_refused_with_the_true_reason(
    prefix: str, line: int | None, said: str
) -> None:
    with pytest.raises(LogError) as refused:
        parse_log(_read(prefix), prefix)
    assert said in refused.value.message and "garbled" not in refused.value.message
    if line is not None:
        assert refused.value.line == line


def test_the_mi300x_rccl_run_names_its_devices() -> None:
    assert set(_parse("10").devices) == {"AMD Instinct MI300X"}


def test_wrong_results_in_a_public_all_gather_are_a_hardware_fault_named_all_gather() -> None:
    sold = Sold(CATALOG.get("h100-sxm5"), 12, IntraFabric.NVSWITCH)
    found = check(sold, [Log(1, "dgx2.txt", _parse("14"))], CATALOG)
    faults = [f.title for f in found if f.code == "hardware-fault"]
    assert faults == ["NCCL AllGather returned wrong results"]
    assert not any("AllReduce" in f.title for f in found)


def test_a100_ring_collectives_clear_the_a100_floor_and_the_others_are_not_held_to_it() -> None:
    """8× A100 40GB (NVLink 600 GB/s both ways, 300 one way; floor 70 % = 210): ReduceScatter 231.52 clears it;
    the AlltoAll (224.31) and Reduce (228.38) runs are not judged against a floor at all."""
    a100 = Sold(CATALOG.get("a100-40gb-sxm4"), 8, IntraFabric.NVSWITCH)
    for prefix in ("02", "03", "16"):
        found = check(a100, [Log(1, prefix, _parse(prefix))], CATALOG)
        assert [f.code for f in found if f.code in ("collective-low", "allreduce-low")] == []
    low = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)  # held to H100's 315 the A100 run is low
    found = check(low, [Log(1, "16", _parse("16"))], CATALOG)
    assert ("collective-low", "ReduceScatter 231.52 GB/s, 315 expected") in [(f.code, f.title) for f in found]
    assert not any(f.code == "collective-low" for f in check(low, [Log(1, "02", _parse("02"))], CATALOG))
