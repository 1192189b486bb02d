"""Files that hold more than one output: two nodes' runs of the same tool pasted together, a plain
``nvidia-smi -L`` beside another tool, the probe's outputs appended with ``>>``. Each run is its own part, so a
failing one is never hidden behind a healthy one (each case was a silent pass before)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Finding, Log, Sold
from quotetui.domain.verification.logs import LogError
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import read_log

SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))


def _raw(path: Path) -> str:
    return path.read_bytes().decode("utf-8")  # as bench import reads it: no newline translation (gpu-burn's \r)


def _read(text: str) -> list[Log]:
    sections = read_log(text.encode(), "run.txt").sections
    return [Log(i, s.label, s.parsed) for i, s in enumerate(sections, 1)]


def _codes(found: list[Finding]) -> set[str]:
    return {f.code for f in found}


def test_two_nodes_topologies_pasted_together_are_two_logs() -> None:
    text = (
        "root@node1:~# nvidia-smi topo -m\n" + _raw(SHARED / "04-topo-h100-nv18-spaces-mlengineering.txt")
        + "root@node2:~# nvidia-smi topo -m\n" + _raw(SHARED / "05-topo-2gpu-phb-pcie-mlengineering.txt")
    )  # fmt: skip
    logs = _read(text)
    assert [log.parsed.tool for log in logs] == ["nvidia-smi topo -m"] * 2
    assert logs[1].label.startswith("run.txt lines ") and "pcie-topology" in _codes(check(H100, logs, CATALOG))


def test_a_faulty_gpu_burn_after_a_healthy_one_is_not_hidden() -> None:
    text = (
        _raw(SHARED / "02-gpuburn-a100-80gb-8gpu-ok-superbench.txt")
        + "[root@localhost gpu-burn-master]# ./gpu_burn 500\n"
    )
    text += _raw(SHARED / "20-gpuburn-t4-faulty-blogpost.txt").split("\n", 1)[1]  # its own prompt line dropped
    logs = _read(text)
    assert [log.parsed.tool for log in logs] == ["gpu-burn", "gpu-burn"]
    assert logs[0].parsed.names[0] == "NVIDIA A100-SXM4-80GB"  # type: ignore[union-attr]  # its GPU lines kept
    assert "hardware-fault" in _codes(check(H100, logs, CATALOG))


def test_a_low_all_reduce_after_a_healthy_one_is_not_hidden() -> None:
    text = _raw(SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt") + "$ ./all_reduce_perf -b 8 -e 8G -f 2 -g 8\n"
    text += _raw(SAMPLES / "low-busbw" / "all_reduce_perf.txt")
    logs = _read(text)
    assert len(logs) == 2 and "allreduce-low" in _codes(check(H100, logs, CATALOG))


def test_a_single_node_run_and_a_two_node_run_appended_stay_apart() -> None:
    text = _raw(SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt") + _raw(
        SHARED / "07-nccl-h100-16rank-2node-a3mega.txt"
    )
    one, two = (log.parsed for log in _read(text))
    assert one.single_host and one.ranks == 8 and str(one.large_message().busbw) == "480.16"  # type: ignore[union-attr]
    assert len(two.hosts) == 2 and str(two.large_message().busbw) == "338.82"  # type: ignore[union-attr]


def test_two_gemm_sweeps() -> None:
    from tests.test_bench_formats import Y2025

    slow = Y2025.replace("782.7 TFLOPS", "600.4 TFLOPS")
    logs = _read(Y2025 + slow)  # each with its header: two parts
    assert [str(log.parsed.tflops) for log in logs] == ["782.7", "600.4"]  # type: ignore[union-attr]
    bare = "median: 782.7 TFLOPS @ 19200x4096x4096\nmedian: 600.4 TFLOPS @ 19200x4096x4096\n"
    with pytest.raises(LogError, match="a second 'median' figure: two sweeps in one file"):
        _read(bare)


def test_a_plain_listing_is_its_own_log() -> None:
    vgpu = _raw(SAMPLES / "vgpu-guest" / "smi-list.txt")
    topo = "$ nvidia-smi topo -m\n" + _raw(SAMPLES / "h100-clean" / "topo.txt") + "$ nvidia-smi -L\n" + vgpu
    logs = _read(topo)
    assert [log.parsed.tool for log in logs] == ["nvidia-smi topo -m", "nvidia-smi -L"]
    assert "vgpu" in _codes(check(H100, logs, CATALOG))
    before_nccl = _read(vgpu + _raw(SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt"))
    assert [log.parsed.tool for log in before_nccl] == ["nvidia-smi -L", "nccl-tests all_reduce_perf"]


def test_the_probes_outputs_appended_in_its_own_order() -> None:
    clean = SAMPLES / "h100-clean"
    text = "".join(_raw(clean / n) for n in ("smi-query.csv", "smi-list.txt", "topo.txt", "gemm.txt", "gpu_burn.txt"))
    tools = [log.parsed.tool for log in _read(text)]
    assert tools == ["nvidia-smi query", "nvidia-smi -L", "nvidia-smi topo -m", "gemm sweep", "gpu-burn"]


def test_two_header_less_listings_are_refused_naming_the_repeat() -> None:
    rows = _raw(SAMPLES / "h100-clean" / "smi-query-noheader-nounits.csv")
    with pytest.raises(LogError, match="GPU index 0 listed twice") as err:
        _read(rows + rows)
    assert err.value.line == len(rows.splitlines()) + 1


def test_line_numbers_count_lines_as_an_editor_does() -> None:
    text = _raw(SHARED / "02-gpuburn-a100-80gb-8gpu-ok-superbench.txt")
    cut = "".join(text.split("\n")[i] + "\n" for i in range(40))  # `head -n 40`: \r repaints inside
    with pytest.raises(LogError, match="did not finish") as err:
        read_log(cut.encode(), "gb.txt")
    assert err.value.line == 40  # splitlines() counts 236 pieces there


def test_a_prompt_in_brackets_is_not_taken_for_a_colour_code() -> None:
    text = "[mike@gpu01 ~]$ nvidia-smi -L\n" + _raw(SAMPLES / "h100-clean" / "smi-list.txt")
    [log] = _read(text)
    assert log.parsed.tool == "nvidia-smi -L" and len(log.parsed.gpu_names()) == 8


def test_a_result_row_with_a_garbled_size_is_refused_not_skipped() -> None:
    text = _raw(SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt")
    row = next(i for i, line in enumerate(text.split("\n"), 1) if line.lstrip().startswith("8589934592 "))
    with pytest.raises(LogError, match="a result row whose size or count is not a whole number") as err:
        _read(text.replace("  8589934592    2147483648", "  1e30    2147483648", 1))
    assert err.value.line == row  # the 16 GiB row would have been judged instead


def test_second_review_cases() -> None:
    # a listing after gpu-burn's results, with or without the prompt typed before it
    burn, vgpu = _raw(SAMPLES / "h100-clean" / "gpu_burn.txt"), _raw(SAMPLES / "vgpu-guest" / "smi-list.txt")
    for joined in (burn + "root@node2:~# nvidia-smi -L\n" + vgpu, burn + vgpu):
        logs = _read(joined)
        assert [log.parsed.tool for log in logs] == ["gpu-burn", "nvidia-smi -L"]
        assert "vgpu" in _codes(check(H100, logs, CATALOG))
    # two dcgmi tables, two npu-smi tables: two logs each (the first table's closing border stays with it)
    dcgm = _raw(SAMPLES / "h100-clean" / "dcgmi-diag.txt") + _raw(
        SHARED / "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt"
    )
    assert [log.parsed.tool for log in _read(dcgm)] == ["dcgmi diag"] * 2
    npu = _raw(Path(__file__).parent / "fixtures" / "benchlogs" / "npu-smi-info-910b.txt")
    assert len(_read(npu + npu)) == 2
    # a blank line before a trimmed gpu-burn paste does not make its GPU lines a listing of their own
    topo_burn = (
        _raw(SHARED / "05-topo-2gpu-phb-pcie-mlengineering.txt")
        + "\n"
        + _raw(SHARED / "02-gpuburn-a100-80gb-8gpu-ok-superbench.txt")
    )
    assert [log.parsed.tool for log in _read(topo_burn)] == ["nvidia-smi topo -m", "gpu-burn"]
    # result rows after a run's average line (a rows-only second run) are refused, not merged
    rows_after = _raw(SHARED / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt") + _raw(
        SHARED / "15-nccl-h100-16rank-rows-only-nccltests294.txt"
    )
    with pytest.raises(LogError, match="a result row after the run's '# Avg bus bandwidth' line"):
        _read(rows_after)
    # two training runs appended: the step count starts again
    titan = _raw(Path(__file__).parent / "fixtures" / "benchlogs" / "torchtitan-h100-llama3-8b-bf16.txt")
    with pytest.raises(LogError, match="the step count starts again"):
        _read(titan + titan)


def test_a_multi_host_busbw_above_nvlink_is_impossible() -> None:
    text = _raw(SHARED / "07-nccl-h100-16rank-2node-a3mega.txt").replace("338.82", "5000.00")
    logs = _read(text)
    assert "impossible-measurement" in _codes(check(H100, logs, CATALOG))
    from quotetui.domain.verification.acceptance import Status, checklist

    found = check(H100, logs, CATALOG)
    [item] = [i for i in checklist(H100, logs, found, CATALOG, nodes=2) if i.key == "scale_out"]
    assert item.status is Status.FAILED and "impossible-measurement" in item.reason
