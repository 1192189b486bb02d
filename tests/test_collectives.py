"""Issue 32, point 1: every nccl-tests collective is named and judged as itself. The collective is read from its
marker line (`# Collective test starting: all_gather_perf`), else the binary its command line names, else its
rows (an op with root -1 and size = count × type is AllReduce, × the ranks ReduceScatter; a root is Reduce; an
unnamed `redop none` run is refused). AllGather and ReduceScatter are ring collectives, held to NVLink on one host
and to the NICs across hosts; Broadcast, Reduce, AlltoAll, SendRecv … are stored unjudged, and said to be; every
collective is held to the ceiling (no busbw above a GPU's NVLink both ways). A finding never says AllReduce about
another collective.

Figures by hand, written before the code ran: H100 SXM5 NVLink 900 GB/s both ways, 450 one way, floor 70 % =
315 GB/s. The GB10 AllGather (tests/fixtures/benchlogs/EVIDENCE-SOURCES.md): 2 ranks on 2 hosts, one 16 GiB size,
busbw 22.94 out of place and 22.98 in place (22.98 judged); with 200 Gb/s of NIC per GPU one host's NICs carry
25 GB/s and the bound is 25 × (2−1)·2 / (2·(2−1)) = 25 GB/s, 22.98 = 91.92 %; with 400 Gb/s the bound is 50 and
22.98 = 45.96 %, under 60 %."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Log, Sold
from quotetui.domain.verification.logs import AllReduce, Collective, LogError
from quotetui.domain.verification.rules import check
from quotetui.domain.verification.scaleout import scale_out_findings
from quotetui.io.benchlogs.detect import parse_log
from quotetui.io.benchlogs.nccl import collective
from quotetui.services.verification import summarise
from tests.conftest import Cli, sql

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
GATHER = FIXTURES / "all_gather_perf-gb10-2node.txt"
ALLREDUCE = Path(__file__).parent.parent / "imports" / "samples" / "h100-clean" / "all_reduce_perf.txt"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)


def _gather_text() -> str:
    return GATHER.read_text(encoding="utf-8")


def _run(rows: list[str], marker: str | None, hosts: tuple[str, ...] = ("node-a",)) -> str:
    """A run in nccl-tests' current layout: 8 ranks spread over ``hosts``, the rows given as printed."""
    ranks = [
        f"#  Rank {r:2d} Group  0 Pid {4100 + r:6d} on {hosts[r * len(hosts) // 8]} device {r % 8:2d} [0000:18:00] "
        "NVIDIA H100 80GB HBM3"
        for r in range(8)
    ]
    return "\n".join(
        ([f"# Collective test starting: {marker}"] if marker else [])
        + ["# nThread 1 nGpus 1 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20", "#",
           "# Using devices", *ranks, "#",
           "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
           "busbw #wrong",
           *rows, "# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 100.5", "#"]
    ) + "\n"  # fmt: skip


def _row(size: int, count: int, op: str, root: int, busbw: str, algbw: str, wrong: int = 0) -> str:
    """A row as nccl-tests prints it: busbw = algbw × the collective's factor over 8 ranks (7/4 AllReduce, 7/8
    AllGather, ReduceScatter and AlltoAll, 1 Broadcast, Reduce and SendRecv), each to two places, by hand."""
    out = f"100.00 {algbw:>7s} {busbw:>7s} {wrong:6d}"
    return f"{size:12d} {count:12d}     float {op:>7s} {root:7d}   {out}   100.00 {algbw:>7s} {busbw:>7s}      0"


def _findings(text: str, sold: Sold = H100) -> list[tuple[str, str]]:
    return [(f.code, f.title) for f in check(sold, [Log(1, "run.txt", parse_log(text))], CATALOG)]


def test_a_real_all_gather_run_is_stored_as_itself() -> None:
    text = _gather_text()
    assert collective(text) == ("all_gather", 2)
    run = parse_log(text, GATHER.name)
    assert isinstance(run, Collective) and not isinstance(run, AllReduce)
    assert (run.tool, run.ranks, run.hosts) == ("nccl-tests all_gather_perf", 2, ("promaxgb10-4c75", "promaxgb10-4c99"))
    large = run.large_message()
    assert large is not None and (large.size, large.out_busbw, large.in_busbw) == (17179869184, Decimal("22.94"),
                                                                                   Decimal("22.98"))  # fmt: skip
    assert run.avg_busbw == Decimal("22.9611") and run.wrong == 0


@pytest.mark.parametrize(
    "nic, low, share",
    [(Decimal(200), False, "91.9 %"), (Decimal(400), True, "46.0 %")],
)
def test_an_all_gather_across_hosts_is_held_to_the_nics_and_named(nic: Decimal, low: bool, share: str) -> None:
    sold = Sold(H100.gpu, 1, IntraFabric.NVSWITCH, InterFabric.ROCE_V2, nic)
    parsed = parse_log(_gather_text())
    found = scale_out_findings([Log(1, "gb10.txt", parsed)], sold)
    assert [f.title for f in found] == (["Scale-out AllGather 22.98 GB/s, ≤ 50 possible"] if low else [])
    assert share in summarise(parsed, sold) and "AllGather (nccl-tests all_gather_perf): scale-out" in summarise(
        parsed, sold
    )


def test_a_single_host_all_gather_far_below_nvlink_is_low_under_its_own_name() -> None:
    text = _run([_row(134217728, 4194304, "none", -1, "200.00", "228.57")], "all_gather_perf")  # 228.57 × 7/8
    assert _findings(text) == [("collective-low", "AllGather 200.00 GB/s, 315 expected")]
    healthy = _run([_row(134217728, 4194304, "none", -1, "360.00", "411.43")], "all_gather_perf")
    assert _findings(healthy) == []


UNJUDGED = {  # name: (count, op, root, (busbw, algbw) healthy, (busbw, algbw) above 900 GB/s), 8 ranks, 128 MiB
    "broadcast": (33554432, "none", 0, ("120.00", "120.00"), ("950.00", "950.00")),
    "reduce": (33554432, "sum", 0, ("120.00", "120.00"), ("950.00", "950.00")),
    "alltoall": (4194304, "none", -1, ("120.00", "137.14"), ("950.00", "1085.71")),  # 137.14 × 7/8 = 119.9975
    "sendrecv": (33554432, "sum", -1, ("120.00", "120.00"), ("950.00", "950.00")),
    "hypercube": (4194304, "none", -1, ("120.00", "137.14"), ("950.00", "1085.71")),
}


@pytest.mark.parametrize("name", sorted(UNJUDGED))
def test_collectives_without_a_sound_floor_are_stored_unjudged_and_say_so(name: str) -> None:
    count, op, root, healthy, above = UNJUDGED[name]
    text = _run([_row(134217728, count, op, root, *healthy)], f"{name}_perf")
    parsed = parse_log(text)
    assert isinstance(parsed, Collective) and parsed.collective == name
    assert _findings(text) == []
    assert "not judged against a floor" in summarise(parsed, H100)
    # the ceiling holds for every collective: no busbw above 900 GB/s of NVLink per GPU
    impossible = _run([_row(134217728, count, op, root, *above)], f"{name}_perf")
    assert [code for code, _ in _findings(impossible)] == ["impossible-measurement"]


def test_wrong_results_are_named_by_their_collective() -> None:
    text = _run([_row(134217728, 4194304, "none", -1, "360.00", "411.43", wrong=3)], "all_gather_perf")
    assert _findings(text) == [("hardware-fault", "NCCL AllGather returned wrong results")]


@pytest.mark.parametrize(
    "row, name",
    [
        (_row(134217728, 33554432, "sum", -1, "400.00", "228.57"), "all_reduce"),  # 33554432 × 4; 228.57 × 7/4
        (_row(134217728, 4194304, "sum", -1, "400.00", "457.14"), "reduce_scatter"),  # 4194304 × 4 × 8; × 7/8
        (_row(134217728, 33554432, "sum", 0, "400.00", "400.00"), "reduce"),  # a root
    ],
)
def test_an_unnamed_run_is_read_from_its_rows(row: str, name: str) -> None:
    parsed = parse_log(_run([row], None))
    assert parsed.collective == name  # type: ignore[union-attr]
    assert isinstance(parsed, AllReduce) == (name == "all_reduce")


@pytest.mark.parametrize(
    "edit, said",
    [
        (lambda t: t.replace("# Collective test starting: all_gather_perf\n", "").replace(
            "# Collective test concluded: all_gather_perf\n", ""), "redop none"),  # unnamed, no reduction: refused
        (lambda t: "$ mpirun -np 16 ./build/alltoall_perf -b 8 -e 1G\n" + t.replace(
            "# Collective test starting: all_gather_perf\n", "").replace(
            "# Collective test concluded: all_gather_perf\n", ""), "alltoall"),  # the command line tells it
        (lambda t: t.replace("all_gather_perf", "all_gather_perf_mpi"), "all_gather"),  # the MPI build
    ],
)  # fmt: skip
def test_the_collective_is_read_from_the_marker_the_binary_or_the_rows(edit, said: str) -> None:  # type: ignore[no-untyped-def]
    text = edit(_gather_text())
    if said == "redop none":
        with pytest.raises(LogError, match="names no collective") as refused:
            parse_log(text, "x.txt")
        # AllGather and AlltoAll print the same rows (redop none, size = count × 4 × ranks): the rows cannot tell
        assert "could be AllGather or AlltoAll" in str(refused.value) and "line 11" in str(refused.value)
    else:
        assert parse_log(text, "x.txt").collective == said  # type: ignore[union-attr]


def test_an_allreduce_run_still_reads_as_one() -> None:
    text = ALLREDUCE.read_text(encoding="utf-8")
    assert isinstance(parse_log(text, ALLREDUCE.name), AllReduce)
    marked = "# Collective test starting: all_reduce_perf\n" + text
    assert isinstance(parse_log(marked, ALLREDUCE.name), AllReduce)


def test_an_all_gather_log_is_evidence_under_its_own_name_and_never_allreduce(cli: Cli, demo_db_path: Path) -> None:
    before = sql(demo_db_path, "SELECT count(*) FROM evidence")
    result = cli("--db", str(demo_db_path), "bench", "import", str(GATHER), "--offer", "9", "--json")
    assert result.code == 0, result.out + result.err
    [log] = json.loads(result.out)["logs"]
    assert (log["tool"], log["results"]) == ("nccl-tests all_gather_perf", [])
    assert "GB10" in log["not_verified"]  # the device first: another model's run
    assert sql(demo_db_path, "SELECT count(*) FROM evidence")[0][0] == before[0][0] + 1
    assert sql(demo_db_path, "SELECT tool FROM evidence ORDER BY id DESC LIMIT 1") == [("nccl-tests all_gather_perf",)]
    shown = json.loads(cli("--db", str(demo_db_path), "bench", "check", "--offer", "9", "--json").out)
    about = [f for f in shown["findings"] if any("all_gather" in e for e in f["evidence"])]
    assert about and all("AllReduce" not in f["title"] for f in about), about
    assert any(f["code"] == "model-mismatch" for f in about)


# A name is a line anyone can edit; the rows are what nccl-tests computed (issue 32's hostile pass). Figures by
# hand: over 8 ranks AllReduce prints busbw = algbw × 7/4, AllGather and ReduceScatter × 7/8; AllReduce's size is
# count × 4 bytes (float), ReduceScatter's and AllGather's count × 4 × 8.
AG_ROW = _row(134217728, 4194304, "none", -1, "360.00", "411.43")
RS_ROW = _row(134217728, 4194304, "sum", -1, "400.00", "457.14")


def test_a_name_that_contradicts_the_rows_is_refused() -> None:
    with pytest.raises(LogError) as relabelled:
        parse_log(_run([AG_ROW], "all_reduce_perf"))
    assert "says all_reduce_perf (line 1), but its rows reduce nothing (redop none)" in relabelled.value.message
    noted = "# compare with all_reduce_perf numbers from last week\n" + _run([RS_ROW], None)
    with pytest.raises(LogError) as commented:
        parse_log(noted)
    assert "is 8 × count × float bytes" in commented.value.message
    assert "an AllReduce over 8 ranks prints 1 ×" in commented.value.message
    both = _run([AG_ROW], "all_gather_perf").replace(
        "# nThread", "$ mpirun -np 8 ./build/all_reduce_perf -b 8 -e 128M\n# nThread", 1
    )
    with pytest.raises(LogError) as two:
        parse_log(both)
    assert two.value.message.startswith(
        "names two collectives: all_gather_perf at line 1 and all_reduce_perf at line 2"
    )


def test_a_json_file_is_read_by_its_args_and_rows_never_as_allreduce_by_default() -> None:
    data = json.loads(ALLREDUCE.with_suffix(".json").read_text(encoding="utf-8"))
    assert isinstance(parse_log(json.dumps(data)), AllReduce)  # the sample as the probe wrote it
    data["args"][0] = "./build/all_gather_perf"
    for result in data["results"]:
        result["redop"], result["count"] = "none", result["size"] // 32
    parsed = parse_log(json.dumps(data))
    assert isinstance(parsed, Collective) and parsed.collective == "all_gather"
    # its busbw is still AllReduce's 7/4 × algbw, not AllGather's 7/8: a figure edited by hand, never counted
    found = check(H100, [Log(1, "ag.json", parsed)], CATALOG)
    assert [f.code for f in found] == ["impossible-measurement"] and "edited by hand" in found[0].evidence[0]
    assert not any("AllReduce" in f.title for f in found)


def test_a_busbw_edited_below_the_ceiling_is_an_impossible_measurement() -> None:
    text = (FIXTURES / "shared" / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt").read_text(encoding="utf-8")
    edited = text.replace("480.16", "495.00")  # the 8 GiB out-of-place busbw; its algbw 274.38 is unchanged
    parsed = parse_log(edited)
    assert isinstance(parsed, AllReduce)  # no other collective's rows: still AllReduce, flagged
    found = [f for f in check(H100, [Log(1, "06.txt", parsed)], CATALOG) if f.code == "impossible-measurement"]
    assert len(found) == 1 and "495.00" in found[0].evidence[0] and "edited by hand" in found[0].evidence[0]
    assert not [f for f in check(H100, [Log(1, "06.txt", parse_log(text))], CATALOG)]  # the real one: healthy


def test_a_run_that_fails_is_refused_with_the_failure_it_printed() -> None:
    head = _run([AG_ROW], "all_gather_perf").split("#       size")[0]
    with pytest.raises(LogError) as before:
        parse_log(head + " .. node-a pid 4100: Test failure common.cu:1189\n")
    assert "all_gather_perf aborted before any result: Test failure common.cu:1189" in before.value.message
    body = _run([AG_ROW], "all_gather_perf").split("# Out of bounds")[0]
    with pytest.raises(LogError) as during:
        parse_log(body + "node-a: Test NCCL failure common.cu:1005 'unhandled system error'\n")
    assert during.value.message == (
        "all_gather_perf aborted after 1 result row: Test NCCL failure common.cu:1005 'unhandled system error'"
    )
