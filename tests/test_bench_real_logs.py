"""Logs that other people ran on real hardware and published (tests/fixtures/benchlogs/shared, byte-exact copies
of ../shared/benchlogs with their README naming each source), and variants of them made the way real pastes
go wrong: DCGM's per-GPU rows and Error rows, a table cut after a section separator, ANSI codes with and
without their ESC byte. Each asserts what is read, not only that something parsed."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.verification.logs import DcgmDiag, LogError, Topology
from quotetui.io.benchlogs.common import strip_ansi
from quotetui.io.benchlogs.detect import parse_log

SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"


def _text(name: str) -> str:
    return (SHARED / name).read_bytes().decode("utf-8")


def _dcgm(text: str) -> DcgmDiag:
    parsed = parse_log(text)
    assert isinstance(parsed, DcgmDiag)
    return parsed


def test_the_shared_logs_are_byte_exact_copies() -> None:
    source = Path(__file__).parents[2] / "shared" / "benchlogs"
    if not source.is_dir():
        pytest.skip("../shared/benchlogs is not next to this checkout")
    for log in source.glob("*.txt"):
        assert (SHARED / log.name).read_bytes() == log.read_bytes(), log.name


def test_dcgm_level_3_with_a_memory_failure_and_skips() -> None:
    diag = _dcgm(_text("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt"))
    assert diag.level == 3
    assert [(t.name, t.result) for t in diag.not_passed()] == [
        ("PCIe", "Skip"),
        ("GPU Memory", "Fail"),
        ("Memory Bandwidth", "Skip"),
        ("EUD Test", "Skip"),
    ]
    memory = next(t for t in diag.tests if t.name == "GPU Memory")
    # a Warning cell wrapped over rows at the column's width is read back word for word
    assert "Reset GPU. Restart DCGM. Rerun diagnostics. Unable to initialize CUDA library" in memory.detail


def test_dcgm_error_cell_is_kept_whole() -> None:
    diag = _dcgm(_text("17-dcgmi-r1-h200-persistence-fail-azdoc.txt"))
    [failed] = diag.not_passed()
    assert (failed.name, failed.result) == ("Persistence Mode", "Fail")
    assert failed.detail.startswith("Persistence mode for GPU 0 is currently disabled. The DCGM diagnostic requires")
    assert "Persistence mode for GPU 5 is currently disabled" in failed.detail  # the Error row was dropped


PER_GPU = (
    "| Targeted Power            | Pass - GPUs: 0, 2, 3                           |\n"
    "|                           | Fail - GPU: 1                                  |\n"
    "| Targeted Stress           | Pass - GPUs: 0, 1, 3                           |\n"
    "|                           | Error - GPU: 2                                 |\n"
)


def _with_rows(rows: str) -> str:
    text = _text("17-dcgmi-r1-h200-persistence-fail-azdoc.txt").replace(
        "| Persistence Mode          | Fail", "| Persistence Mode          | Pass"
    )
    border = "+---------------------------+------------------------------------------------+\n"
    assert text.endswith(border)
    return (
        text[: -len(border)]
        + "+-----  Stress  ------------+------------------------------------------------+\n"
        + rows
        + border
    )


def test_dcgm_3_per_gpu_rows_each_count() -> None:
    diag = _dcgm(_with_rows(PER_GPU))
    # the Fail row was glued onto the Pass and the test counted as passed; an Error row was dropped
    assert [(t.name, t.result, t.detail) for t in diag.not_passed()] == [
        ("Targeted Power", "Fail", "GPU: 1"),
        ("Targeted Stress", "Error", "GPU: 2"),
    ]


def test_a_dcgm_table_cut_after_a_section_separator_is_refused() -> None:
    text = _text("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt")
    cut = text[
        : text.index("+-----  Integration")
        + len("+-----  Integration  -------+------------------------------------------------+\n")
    ]
    assert cut.rstrip().endswith("+")
    with pytest.raises(LogError, match="does not end with its closing border"):
        parse_log(cut)


def test_ansi_codes_are_stripped_once_with_or_without_their_esc_byte() -> None:
    topo = _text("12-topo-l40s-1gpu-ansi-exporter.txt")
    assert "\x1b[4m" in topo
    for text in (topo, topo.replace("\x1b", "")):  # a paste that lost the ESC byte: "[4mGPU0"
        parsed = parse_log(text)
        assert isinstance(parsed, Topology) and parsed.gpus == ("GPU0",)
    coloured = _text("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt").replace(
        "Fail", "\x1b[01;31m\x1b[KFail\x1b[m\x1b[K"
    )
    assert [t.name for t in _dcgm(coloured).not_passed() if t.result == "Fail"] == ["GPU Memory"]  # grep --color
    assert strip_ansi("[1,0]<stdout>: # nThread 1") == "[1,0]<stdout>: # nThread 1"  # mpirun tags are kept


def test_gpu_burn_ok_and_faulty_as_published() -> None:
    from quotetui.domain.verification.logs import GpuBurn

    ok = parse_log(_text("02-gpuburn-a100-80gb-8gpu-ok-superbench.txt"))
    assert isinstance(ok, GpuBurn) and len(ok.results) == 8 and not ok.faulty
    faulty = parse_log(_text("20-gpuburn-t4-faulty-blogpost.txt") + "root@gpu-node:~/gpu-burn# ")
    assert isinstance(faulty, GpuBurn) and faulty.faulty == (0,)  # a trailing shell prompt no longer refuses it


def test_gpu_burn_ok_without_work_is_refused() -> None:
    text = _text("20-gpuburn-t4-faulty-blogpost.txt")
    summary = text[text.index("Tested 1 GPUs:") :].replace("FAULTY", "OK")
    with pytest.raises(LogError, match="no progress line"):
        parse_log("Initialized device 0 with 15109 MB of memory\n" + summary)  # nothing ran: OK proves nothing
    eight = _text("02-gpuburn-a100-80gb-8gpu-ok-superbench.txt")
    first = eight[: eight.index("Tested 8 GPUs:")]
    last = first.rsplit("100.0%", 1)[0]  # keep only progress where GPUs 1-7 show proc'd 0 (the 50 % line)
    idle = last[: last.index("proc'd") + 400].rsplit("\r", 1)[0] + "\n" + eight[eight.index("Tested 8 GPUs:") :]
    with pytest.raises(LogError, match=r"GPU 1, 2, 3, 4, 5, 6, 7 did no work"):
        parse_log(idle)


def test_multi_host_all_reduce_is_not_held_against_a_single_node_claim() -> None:
    from quotetui.domain.economics.claims import Claim, audit
    from quotetui.domain.enums import IntraFabric, Metric
    from quotetui.domain.gpus import builtin_catalog
    from quotetui.domain.verification.findings import Log, Sold
    from quotetui.domain.verification.logs import AllReduce
    from quotetui.domain.verification.rules import check

    catalog = builtin_catalog()
    h100 = catalog.get("h100-sxm5")
    sold = Sold(h100, 8, IntraFabric.NVSWITCH)
    claim = audit(Claim(1, Metric.ALLREDUCE_BUSBW, Decimal(486), "GB/s", "brochure", gpu=h100, gpu_count=8))
    for name, busbw, hosts in (
        ("19-nccl-h100-2node-2gpu-each-dgx06.txt", "147.98", 2),
        ("07-nccl-h100-16rank-2node-a3mega.txt", "338.82", 2),
    ):
        run = parse_log(_text(name))
        assert isinstance(run, AllReduce) and len(run.hosts) == hosts and not run.single_host
        assert str(run.large_message().busbw) == busbw  # type: ignore[union-attr]
        found = check(sold, [Log(1, name, run)], catalog, (claim,))
        held = [f for f in found if f.code == "allreduce-low" or "measured" in f.title]  # "claimed 486, measured …"
        assert not held, held
    one = parse_log(_text("06-nccl-h100-8gpu-1node-healthy-exemplar.txt"))
    assert isinstance(one, AllReduce) and one.single_host and str(one.large_message().busbw) == "480.16"  # type: ignore[union-attr]
    rows_only = _text("06-nccl-h100-8gpu-1node-healthy-exemplar.txt")
    unlisted = "\n".join(line for line in rows_only.splitlines() if not line.startswith("#  Rank"))
    bare = parse_log(unlisted)  # no '# Rank' list: one process's GPUs, hosts unknown, not judged
    assert isinstance(bare, AllReduce) and not bare.ranks_listed and not bare.single_host


READ_AS = {
    "01": "AllReduce", "02": "GpuBurn", "03": "Topology", "04": "Topology", "05": "Topology", "06": "AllReduce",
    "07": "AllReduce", "08": "SmiList", "09": "SmiList", "10": "SmiQuery", "11": "SmiQuery", "12": "Topology",
    "13": "all_reduce_perf aborted before any result: Test CUDA failure common.cu:941 'system not yet initialized'",
    "14": "DcgmDiag", "15": "not a log quotetui reads", "16": "number of GPUs is unknown",
    "17": "DcgmDiag", "18": "AllReduce", "19": "AllReduce", "20": "GpuBurn", "21": "Topology", "22": "SmiQuery",
    # 23-33 (issue 32): the README's correct results, written before these tests ran; where the README allows
    # either a reading or a refusal, the test below says which one quotetui gives
    "23": "DcgmDiag", "24": "Topology", "25": "Topology", "26": "GpuBurn|line 21", "27": "refused",
    "28": "refused", "29": "refused", "30": "GemmSweep|refused", "31": "GemmSweep", "32": "AllReduce|refused",
    "33": "GemmSweep|refused",
}  # fmt: skip
"""What each shared log is read as, or why it is refused (its README's "correct result")."""


@pytest.mark.parametrize("name", sorted(p.name for p in SHARED.glob("*.txt")))
def test_each_shared_log_is_read_as_its_readme_says(name: str) -> None:
    want = READ_AS[name[:2]].split("|")
    try:
        parsed = type(parse_log(_text(name))).__name__
    except LogError as refused:
        assert any(w == "refused" or (not w[0].isupper() and w in refused.message) for w in want), refused
        assert refused.line is not None or "refused" not in want or name[:2] not in ("29",), refused
    else:
        assert parsed in want


@pytest.mark.parametrize(
    ("first", "second", "tools"),
    [
        ("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt", "06-nccl-h100-8gpu-1node-healthy-exemplar.txt",
         "dcgmi diag from line 1, nccl-tests from line 96"),
        ("06-nccl-h100-8gpu-1node-healthy-exemplar.txt", "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt",
         "dcgmi diag from line"),  # a DCGM failure after a healthy AllReduce was silently lost
        ("04-topo-h100-nv18-spaces-mlengineering.txt", "08-smi-L-h100-mig-exporter.txt", "nvidia-smi -L from"),
        ("02-gpuburn-a100-80gb-8gpu-ok-superbench.txt", "10-smi-query-h100-mig-250fields-exporter.txt",
         "nvidia-smi query"),
    ],
)  # fmt: skip
def test_two_tools_taken_as_one_log_are_refused_naming_where_the_second_begins(
    first: str, second: str, tools: str
) -> None:
    """One log (a probe bundle's command, stored evidence) must be one tool's; a file given to bench import is
    split instead (below)."""
    joined = _text(first).rstrip("\n") + "\n" + _text(second)
    with pytest.raises(LogError, match="two tools' output in one file") as err:
        parse_log(joined)
    assert tools in str(err.value) and err.value.line is not None and err.value.line > 2


@pytest.mark.parametrize(
    ("first", "second", "tools"),
    [
        ("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt", "06-nccl-h100-8gpu-1node-healthy-exemplar.txt",
         ("dcgmi diag", "nccl-tests all_reduce_perf")),
        ("06-nccl-h100-8gpu-1node-healthy-exemplar.txt", "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt",
         ("nccl-tests all_reduce_perf", "dcgmi diag")),
        ("04-topo-h100-nv18-spaces-mlengineering.txt", "08-smi-L-h100-mig-exporter.txt",
         ("nvidia-smi topo -m", "nvidia-smi -L")),
        ("02-gpuburn-a100-80gb-8gpu-ok-superbench.txt", "10-smi-query-h100-mig-250fields-exporter.txt",
         ("gpu-burn", "nvidia-smi query")),
    ],
)  # fmt: skip
def test_a_file_of_two_tools_is_read_as_two_sections_with_their_lines(
    first: str, second: str, tools: tuple[str, str]
) -> None:
    from quotetui.io.benchlogs.detect import read_log

    a, b = _text(first).rstrip("\n"), _text(second)
    joined = a + "\n" + b
    n_a, n_all = a.count("\n") + 1, joined.count("\n") + (not joined.endswith("\n"))  # as an editor counts
    sections = read_log(joined.encode(), "run.txt").sections
    assert tuple(s.parsed.tool for s in sections) == tools
    # each part ends where the next tool's output (or the prompt typed before it) begins; a lone '#' ending
    # the nccl-tests output reads as a prompt and goes with the DCGM part, which starts with its command
    cut = int(sections[0].label.rsplit(" ", 1)[1].split("–")[1])
    assert cut in (n_a, n_a - 1) and sections[1].label == f"run.txt lines {cut + 1}–{n_all}"
    assert "".join(s.raw for s in sections) == joined  # nothing lost, nothing repeated
    for s in sections:
        assert parse_log(s.raw).tool == s.parsed.tool  # each part is stored alone and reads again as itself


def test_the_dcgm_failure_after_a_healthy_all_reduce_is_kept(tmp_path: Path) -> None:
    from quotetui.domain.verification.logs import DcgmDiag
    from quotetui.io.benchlogs.detect import read_log

    joined = _text("06-nccl-h100-8gpu-1node-healthy-exemplar.txt") + _text(
        "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt"
    )
    _, dcgm = read_log(joined.encode(), "probe.txt").sections
    assert isinstance(dcgm.parsed, DcgmDiag) and dcgm.parsed.level == 3  # the typed command came with it
    assert dcgm.raw.startswith("sh-5.1# /usr/bin/dcgmi diag --run 3")
    assert [t.name for t in dcgm.parsed.not_passed() if t.result == "Fail"]


def test_a_bad_part_refuses_the_file_naming_the_files_line() -> None:
    from quotetui.io.benchlogs.detect import read_log

    a = _text("04-topo-h100-nv18-spaces-mlengineering.txt").rstrip("\n")
    b = _text("06-nccl-h100-8gpu-1node-healthy-exemplar.txt")
    lines = b.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.strip().startswith("8589934592"))
    lines[row] = lines[row].replace("479.84", "47O.84", 1)
    joined = a + "\n" + "".join(lines)
    with pytest.raises(LogError) as err:
        read_log(joined.encode(), "run.txt")
    assert err.value.source == "run.txt" and err.value.line == len(a.splitlines()) + row + 1
    assert "in the nccl-tests output at lines" in err.value.message


def test_mpirun_tag_output_prefixes_are_removed() -> None:
    from quotetui.domain.verification.logs import AllReduce

    plain = _text("06-nccl-h100-8gpu-1node-healthy-exemplar.txt")
    tagged = "".join(f"[1,0]<stdout>:{line}" for line in plain.splitlines(keepends=True))  # mpirun --tag-output
    run = parse_log(tagged)
    assert isinstance(run, AllReduce) and run.ranks == 8 and run.single_host
    assert str(run.large_message().busbw) == "480.16"  # type: ignore[union-attr]


def test_the_a800_logs_are_an_a800_node_not_an_a100_one() -> None:
    """README 21/22: against the 8×A100 80GB SXM4 offer, the NV8 matrix is fewer NVLinks than an A100 board bonds
    (NV12) and the query names an A800, now a catalog model (it was an unknown GPU); sold as an A800, both fit."""
    from quotetui.domain.enums import IntraFabric
    from quotetui.domain.gpus import builtin_catalog
    from quotetui.domain.verification.findings import Log, Severity, Sold
    from quotetui.domain.verification.rules import check

    catalog = builtin_catalog()
    topo = "21-topo-a800-nv8-8gpu-envsnapshot.txt"
    query = "22-smi-query-a800-6fields-envsnapshot.txt"
    logs = [Log(1, topo, parse_log(_text(topo))), Log(2, query, parse_log(_text(query)))]
    a100 = check(Sold(catalog.get("a100-80gb-sxm4"), 8, IntraFabric.NVSWITCH), logs, catalog)
    assert [(f.code, f.severity, f.title) for f in a100] == [
        ("model-mismatch", Severity.CRITICAL, "A800 80GB SXM4 reported, A100 80GB SXM4 sold"),
        ("pcie-topology", Severity.CRITICAL, "NV8 between GPUs, NV12 expected"),
    ]
    assert a100[0].evidence == (f"{query}: NVIDIA A800-SXM4-80GB, 81920 MiB",)
    assert "NVLink 400), not the A100 80GB SXM4 sold (312 TFLOPS, 80 GB, NVLink 600)" in a100[0].explanation
    assert check(Sold(catalog.get("a800-80gb-sxm4"), 8, IntraFabric.NVSWITCH), logs, catalog) == []
