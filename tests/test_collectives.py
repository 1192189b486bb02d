"""Issue 32, point 1 (first step): a run of another nccl-tests collective is never AllReduce evidence. Read from
its marker line (`# Collective test starting: all_gather_perf`), else the binary its command line names, else its
rows' `redop none`; refused as what it is, with the line that says so. Readings written before the parser ran
(tests/fixtures/benchlogs/EVIDENCE-SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quotetui.domain.verification.logs import AllReduce, LogError
from quotetui.io.benchlogs.detect import parse_log
from quotetui.io.benchlogs.nccl import collective
from tests.conftest import Cli, sql

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
GATHER = FIXTURES / "all_gather_perf-gb10-2node.txt"
ALLREDUCE = Path(__file__).parent.parent / "imports" / "samples" / "h100-clean" / "all_reduce_perf.txt"


def test_a_real_all_gather_run_is_named_and_never_read_as_an_allreduce() -> None:
    text = GATHER.read_text(encoding="utf-8")
    assert collective(text) == ("all_gather", 2)
    with pytest.raises(LogError) as refused:
        parse_log(text, GATHER.name)
    assert "an nccl-tests all_gather_perf run" in str(refused.value) and "line 2" in str(refused.value)


@pytest.mark.parametrize(
    "edit, said",
    [
        (lambda t: t.replace("# Collective test starting: all_gather_perf\n", "").replace(
            "# Collective test concluded: all_gather_perf\n", ""), "redop none"),  # rows alone tell it
        (lambda t: "$ mpirun -np 16 ./build/alltoall_perf -b 8 -e 1G\n" + t.replace(
            "# Collective test starting: all_gather_perf\n", "").replace(
            "# Collective test concluded: all_gather_perf\n", ""), "alltoall_perf"),  # the command line tells it
        (lambda t: t.replace("all_gather_perf", "all_gather_perf_mpi"), "all_gather_perf"),  # the MPI build
    ],
)  # fmt: skip
def test_the_collective_is_read_from_the_marker_the_binary_or_the_rows(edit, said: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(LogError) as refused:
        parse_log(edit(GATHER.read_text(encoding="utf-8")), "x.txt")
    assert said in str(refused.value)


def test_an_allreduce_run_still_reads_as_one() -> None:
    text = ALLREDUCE.read_text(encoding="utf-8")
    assert isinstance(parse_log(text, ALLREDUCE.name), AllReduce)
    marked = "# Collective test starting: all_reduce_perf\n" + text
    assert isinstance(parse_log(marked, ALLREDUCE.name), AllReduce)


def test_an_all_gather_log_changes_nothing_on_record(cli: Cli, demo_db_path: Path) -> None:
    before = sql(demo_db_path, "SELECT count(*) FROM evidence")
    result = cli("--db", str(demo_db_path), "bench", "import", str(GATHER), "--offer", "9", "--json")
    assert result.code == 2 and "all_gather_perf" in result.err, result.out + result.err
    assert sql(demo_db_path, "SELECT count(*) FROM evidence") == before
    shown = cli("--db", str(demo_db_path), "bench", "check", "--offer", "9", "--json")
    assert "22.98" not in json.dumps(json.loads(shown.out))
