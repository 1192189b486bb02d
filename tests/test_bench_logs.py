"""Raw-log parsers: every supported format read from the content, and a cut or garbled log refused whole
with its line number (never a half-parsed result)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.verification.logs import (
    AllReduce,
    DcgmDiag,
    GemmSweep,
    GpuBurn,
    LogError,
    SmiList,
    SmiQuery,
    Topology,
)
from quotetui.io.benchlogs.detect import parse_log, read_log

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
BROKEN = Path(__file__).parent / "fixtures" / "benchlogs"


def parse(folder: str, name: str):  # type: ignore[no-untyped-def]
    return parse_log((SAMPLES / folder / name).read_text(encoding="utf-8"), name)


def test_smi_query_with_header_and_units() -> None:
    q = parse("h100-clean", "smi-query.csv")
    assert isinstance(q, SmiQuery)
    assert len(q.gpus) == 8
    g = q.gpus[0]
    assert (g.index, g.name, g.memory_mib, g.ecc_uncorrected, g.mig_mode) == (
        0,
        "NVIDIA H100 80GB HBM3",
        81559,
        0,
        "Disabled",
    )
    assert dict(g.fields)["power.limit"] == "700.00 W"


def test_smi_query_without_header_or_units_reads_the_documented_fields() -> None:
    bare = parse("h100-clean", "smi-query-noheader-nounits.csv")
    full = parse("h100-clean", "smi-query.csv")
    assert isinstance(bare, SmiQuery) and isinstance(full, SmiQuery)
    assert [(g.name, g.memory_mib, g.uuid) for g in bare.gpus] == [(g.name, g.memory_mib, g.uuid) for g in full.gpus]


def test_smi_query_na_fields_and_a_short_query() -> None:
    text = "name, memory.total [MiB], ecc.errors.uncorrected.volatile.total\nNVIDIA L40S, 46068 MiB, [N/A]\n"
    q = parse_log(text)
    assert isinstance(q, SmiQuery)
    assert (q.gpus[0].name, q.gpus[0].memory_mib, q.gpus[0].ecc_uncorrected) == ("NVIDIA L40S", 46068, None)


def test_smi_list_with_mig_children() -> None:
    listed = parse("mig-slice", "smi-list.txt")
    assert isinstance(listed, SmiList)
    assert listed.gpus[0].name == "NVIDIA A100-SXM4-80GB"
    assert listed.gpus[0].mig_profiles == ("1g.10gb",)
    clean = parse("h100-clean", "smi-list.txt")
    assert isinstance(clean, SmiList) and len(clean.gpus) == 8 and not clean.gpus[0].mig_profiles


def test_topology_reads_the_gpu_matrix_not_the_legend() -> None:
    t = parse("h100-clean", "topo.txt")
    assert isinstance(t, Topology)
    assert len(t.gpus) == 8 and len(t.links) == 28 and {k for *_, k in t.links} == {"NV18"}
    pcie = parse("pcie-as-sxm", "topo.txt")
    assert isinstance(pcie, Topology)
    assert ("GPU0", "GPU1", "PIX") in pcie.links and ("GPU0", "GPU7", "SYS") in pcie.links


def test_topology_with_spaces_and_terminal_colours() -> None:
    text = "\x1b[4m\tGPU0\tGPU1\tCPU Affinity\x1b[0m\nGPU0     X      NV12    0-63\nGPU1     NV12    X      0-63\n"
    t = parse_log(text)
    assert isinstance(t, Topology) and t.links == (("GPU0", "GPU1", "NV12"),)


@pytest.mark.parametrize("name", ["all_reduce_perf.txt", "all_reduce_perf-legacy.txt", "all_reduce_perf.json"])
def test_allreduce_layouts_agree(name: str) -> None:
    r = parse("h100-clean", name)
    assert isinstance(r, AllReduce)
    assert r.ranks == 8 and r.hosts == ("gpu-node-01",) and r.devices[0] == "NVIDIA H100 80GB HBM3"
    assert len(r.rows) == 31
    large = r.large_message()
    assert large is not None and large.size == 8589934592 and large.busbw == Decimal("454.61")
    assert r.avg_busbw is not None and r.avg_busbw < 160  # the average line is dragged down by small messages
    assert r.layout == {"all_reduce_perf.txt": "current", "all_reduce_perf-legacy.txt": "legacy"}.get(name, "json")


def test_allreduce_ignores_interleaved_mpi_and_nccl_lines() -> None:
    text = (SAMPLES / "h100-clean" / "all_reduce_perf.txt").read_text()
    assert "mca_base_component_repository_open" in text and "NCCL INFO" in text
    r = parse_log(text)
    assert isinstance(r, AllReduce) and len(r.rows) == 31 and r.wrong == 0


def test_gemm_gpu_burn_and_dcgm() -> None:
    g = parse("h100-clean", "gemm.txt")
    assert isinstance(g, GemmSweep)
    assert (g.tflops, g.statistic, g.shape, g.dtype, g.device) == (
        Decimal("792.8"),
        "median",
        "12288x4096x4096",
        "bfloat16",
        "NVIDIA H100 80GB HBM3",
    )
    burn = parse("faulty", "gpu_burn.txt")
    assert isinstance(burn, GpuBurn) and burn.faulty == (5,) and len(burn.results) == 8
    diag = parse("faulty", "dcgmi-diag.txt")
    assert isinstance(diag, DcgmDiag)
    [failed] = diag.not_passed()
    assert failed.name == "Diagnostic" and failed.result == "Fail" and "double-bit ECC" in failed.detail
    clean = parse("h100-clean", "dcgmi-diag.txt")
    assert isinstance(clean, DcgmDiag) and len(clean.tests) == 15 and not clean.not_passed()


def test_dcgm_skip_is_not_a_pass() -> None:
    text = (
        (SAMPLES / "h100-clean" / "dcgmi-diag.txt")
        .read_text()
        .replace("| Targeted Power            | Pass - All", "| Targeted Power            | Skip - All", 1)
    )
    diag = parse_log(text)
    assert isinstance(diag, DcgmDiag) and [t.name for t in diag.not_passed()] == ["Targeted Power"]


BROKEN_CASES = {
    "all_reduce_perf-cut.txt": (35, "values for 13 columns"),
    "all_reduce_perf-garbled.txt": (None, "busbw is '43O."),
    "all_reduce_perf-cut.json": (None, "not valid JSON"),
    "gpu_burn-cut.txt": (21, "gpu-burn did not finish"),
    "topo-cut.txt": (5, "no row for GPU4"),
    "topo-garbled.txt": (5, "'NVI8'"),
    "smi-query-garbled.csv": (2, "memory.total is '8l559 MiB'"),
    "smi-query-cut.csv": (4, "3 values for 14 columns"),
    "smi-list-garbled.txt": (3, "not a GPU or MIG line"),
    "gemm-cut.txt": (None, "the sweep did not finish"),
    "dcgmi-cut.txt": (14, "does not end with its closing border"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_cut_or_garbled_logs_are_errors_with_the_line(name: str) -> None:
    line, words = BROKEN_CASES[name]
    with pytest.raises(LogError) as caught:
        read_log((BROKEN / name).read_bytes(), name)
    err = caught.value
    assert words in str(err) and str(err).startswith(name)
    if line is not None:
        assert err.line == line and f"line {line}" in str(err)
    else:
        assert err.line is not None


def test_garbled_allreduce_names_its_line() -> None:
    text = (BROKEN / "all_reduce_perf-garbled.txt").read_text()
    with pytest.raises(LogError) as caught:
        parse_log(text)
    assert text.splitlines()[caught.value.line - 1].count("43O.") == 1  # type: ignore[operator]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty: no tool output"),
        (b"root@node1:~# \n\n", "empty: no tool output"),
        (b"hello world\nthis is not a log\n", "not a log quotetui reads (first line 'hello world')"),
        (b"\x00\x01\x02binary", "binary content"),
        (b"GPU 0: \xff\xfe broken", "not UTF-8 text"),
    ],
)
def test_unknown_or_binary_content(data: bytes, words: str) -> None:
    with pytest.raises(LogError, match=words.replace("(", r"\(").replace(")", r"\)")):
        read_log(data, "x.log")


_ROW = '{"size": 8, "out_of_place": {"bus_bw": 1.5, "nwrong": 0}}'
_HUGE = "9" * 5000  # past Python's 4,300-digit limit for int(): a ValueError, not a JSON error


def _json(config: str, row: str = _ROW) -> str:
    return '{"config": ' + config + ', "results": [' + row + "]}"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (_json('{"ngpus": 8}', '{"size": ' + _HUGE + "}"), "not a log a machine wrote"),
        (_json('{"ngpus": -3, "nthreads": -1}'), "config nthreads is '-1'"),  # two negatives: not 3 GPUs
        (_json('{"ngpus": 1e400}'), "config ngpus is '1E+400', not a number"),
        (_json('{"ngpus": "8"}'), "config ngpus is \"'8'\", not a number"),
        (_json('{"ngpus": 2000000}'), "2,000,000 GPUs: more than the 1,000,000"),
        ("# nThread 1 nGpus " + _HUGE + "\n", "nGpus is '9999"),
        ('{"quotetui_probe": 1, "commands": [], "n": ' + _HUGE + "}", "probe bundle is not a log a machine wrote"),
    ],
)
def test_absurd_counts_in_a_log_are_refused_not_computed_with(data: str, words: str) -> None:
    with pytest.raises(LogError) as caught:
        read_log(data.encode(), "x.json")
    assert words in str(caught.value) and len(str(caught.value)) < 200


def test_a_gpu_count_from_the_json_config_is_nthreads_times_ngpus() -> None:
    named = '{"args": ["./build/all_reduce_perf", "-g", "4"], ' + _json('{"nthreads": 2, "ngpus": 4}')[1:]
    parsed = read_log(named.encode(), "x.json")
    assert parsed.sections[0].parsed.ranks == 8  # type: ignore[union-attr]
