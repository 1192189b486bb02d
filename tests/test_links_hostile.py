"""Issue 32's second hostile pass on the link tools (perftest, nvbandwidth) and on what an NVIDIA tool proves.
Figures by hand, written before the code ran:
- perftest computes BW average and MsgRate from one count: at 8,388,608 B a rate of 0.001377 Mpps is
  0.001377 × 10^6 × 8,388,608 × 8 / 10^9 = 92.41 Gb/s, so an average of 392.39 beside it was edited; an average
  above its own peak likewise;
- nvbandwidth's device_to_device_memcpy_read_ce is one direction: an H100 carries at most 900 ÷ 2 = 450 GB/s one
  way, so a cell of 800.00 is impossible (the SUM 20,785.58 + 800.00 − 370.90 = 21,214.68 kept consistent)."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.acceptance import Status, checklist
from quotetui.domain.verification.findings import Log, Severity, Sold
from quotetui.domain.verification.logs import LogError, PerftestBw
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log, read_log

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
NETBW = FIXTURES / "public" / "netbw"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, None)


def _text(prefix: str) -> str:
    [path] = NETBW.glob(f"{prefix}-*")
    return path.read_bytes().decode("utf-8")


def _codes(text: str, sold: Sold = H100) -> list[tuple[str, Severity]]:
    return [(f.code, f.severity) for f in check(sold, [Log(1, "x", parse_log(text))], CATALOG)]


ROW = " 8388608    5000             92.39              92.39              0.001377"


@pytest.mark.parametrize(
    "row",
    [
        " 8388608    5000             92.39              392.39              0.001377",  # the average alone
        " 8388608    5000             392.39              392.39              0.001377",  # peak and average
        " 8388608    5000             11013.50              11013.50              0.001377",  # MB-sized in Gb/sec
    ],
)
def test_a_perftest_figure_edited_by_hand_is_an_impossible_measurement(row: str) -> None:
    text = _text("03")
    assert ROW in text
    assert ("impossible-measurement", Severity.CRITICAL) in _codes(text.replace(ROW, row))
    assert ("impossible-measurement", Severity.CRITICAL) not in _codes(text)  # the real run


def test_current_perftest_says_mib_per_second() -> None:
    run = parse_log(_text("11").replace("MB/sec", "MiB/sec"))
    assert isinstance(run, PerftestBw) and run.unit == "MB/sec" and str(run.judged().average) == "11708.31"


def test_two_runs_on_two_devices_are_two_logs_never_one() -> None:
    first = _text("03")
    second = first.replace("mlx5_0", "mlx5_1")
    with pytest.raises(LogError, match="two perftest runs in one log: on mlx5_0 and on mlx5_1"):
        parse_log(first + second)


def test_a_bidirectional_command_is_judged_both_ways_and_a_bare_table_is_perftest_s() -> None:
    bidir = "$ ib_write_bw -d mlx5_0 -b -a -F --report_gbits 10.0.0.2\n" + _text("03")
    run = parse_log(bidir)
    assert isinstance(run, PerftestBw) and run.bidirectional
    table = _text("03")
    bare = table[table.index(" #bytes") :]  # no title, no command: which binary is not known, and no crash
    assert parse_log(bare).tool == "perftest"


def test_a_failure_after_some_rows_is_a_failed_run_even_with_dashes_after_it() -> None:
    text = _text("03")
    cut = text.index(" 2097152")
    failed = text[:cut] + " Completion with error at client\n Failed to complete run_iter_bw function successfully\n"
    failed += "---------------------------------------------------------------------------------------\n"
    with pytest.raises(LogError, match="failed at line"):
        parse_log(failed)


def test_a_one_way_copy_above_one_way_nvlink_is_impossible_and_a_slow_one_fails_the_topology_item() -> None:
    text = (FIXTURES / "nvbandwidth-h100-d2d-read.txt").read_text(encoding="utf-8")
    fast = text.replace("0       N/A    370.90", "0       N/A    800.00", 1).replace("20785.58", "21214.68")
    found = check(H100, [Log(1, "n", parse_log(fast))], CATALOG)
    [why] = [f.evidence[0] for f in found if f.code == "impossible-measurement"]
    assert "800.00 GB/s" in why and "450 GB/s of NVLink one way" in why
    slow = text.replace("0       N/A    370.90", "0       N/A    180.26", 1).replace("20785.58", "20594.94")
    topo = (FIXTURES / "shared" / "04-topo-h100-nv18-spaces-mlengineering.txt").read_text(encoding="utf-8")
    logs = [Log(1, "n", parse_log(slow)), Log(2, "t", parse_log(topo))]
    items = {i.key: i for i in checklist(H100, logs, check(H100, logs, CATALOG), CATALOG)}
    assert items["topology"].status is Status.FAILED and "nvlink-copy-low" in items["topology"].reason


def test_an_nvidia_tool_on_another_vendors_offer_shows_another_machine() -> None:
    mi300x = Sold(CATALOG.get("mi300x"), 8, IntraFabric.NVSWITCH)
    text = (FIXTURES / "nvbandwidth-h100-d2d-read.txt").read_text(encoding="utf-8")
    found = [(f.severity, f.title) for f in check(mi300x, [Log(1, "n", parse_log(text))], CATALOG)]
    assert (Severity.CRITICAL, "NVIDIA tools' output, MI300X sold") in found


@pytest.mark.parametrize("head", ['{"results": ', '{"nvbandwidth": ', '{"quotetui_probe": 1, "commands": '])
def test_json_nested_a_hundred_thousand_deep_is_refused_not_a_crash(head: str) -> None:
    with pytest.raises(LogError, match="nested thousands deep"):
        read_log((head + "[" * 100_000).encode(), "deep.json")


NVB = (FIXTURES / "nvbandwidth-h100-d2d-read.txt").read_text(encoding="utf-8")


def test_a_testcase_whose_failure_lines_were_removed_is_never_dropped_silently() -> None:
    stray = NVB.replace(
        "Running device_to_device_memcpy_read_ce.\n",
        "Running device_to_device_memcpy_write_ce.\n Current offset : 11136 \n\n"
        "Running device_to_device_memcpy_read_ce.\n",
    )
    with pytest.raises(LogError) as refused:
        parse_log(stray)
    assert "'Running device_to_device_memcpy_write_ce.' printed no result matrix, only 'Current offset : 11136'" in (
        refused.value.message
    )


def test_a_matrix_row_twice_or_a_testcase_twice_is_refused() -> None:
    lines = NVB.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("2    372.05"))
    doubled = "".join(lines[:at] + [lines[at - 1]] + lines[at + 1 :])  # row 1 again where row 2 belongs
    with pytest.raises(LogError, match="row 1 where row 2 belongs"):
        parse_log(doubled)
    start = NVB.index("Running device_to_device_memcpy_read_ce.")
    with pytest.raises(LogError, match="device_to_device_memcpy_read_ce twice"):
        parse_log(NVB + "\n" + NVB[start:])


def test_a_matrix_narrower_than_the_devices_listed_counts_the_gpus_it_ran_between() -> None:
    from quotetui.domain.verification.inventory import gpus_shown

    assert gpus_shown(parse_log(NVB)) == 8  # 8 listed, 8 × 8: the GPUs shown
    # the same 8 devices listed over a 2 × 2 matrix (2 × 370.90 = 741.80): 2 GPUs shown, not 8
    two = NVB[: NVB.index("memcpy CE GPU(row)")] + (
        "memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)\n           0         1\n"
        "0       N/A    370.90\n1    370.90       N/A\n\nSUM device_to_device_memcpy_read_ce 741.80\n"
    )
    assert gpus_shown(parse_log(two)) == 2


def test_a_loopback_pair_is_the_nic_not_the_network_and_is_not_judged_as_it() -> None:
    from quotetui.services.verification import summarise

    sold = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))
    local = "$ ib_write_bw -d mlx5_0 -a -F --report_gbits 127.0.0.1\n" + _text("03")  # 92.39 Gb/s on 400 sold
    run = parse_log(local)
    assert isinstance(run, PerftestBw) and run.loopback
    assert [f.code for f in check(sold, [Log(1, "l", run)], CATALOG)] == []
    assert "a loopback pair on one host" in summarise(run, sold)
    remote = parse_log("$ ib_write_bw -d mlx5_0 -a -F --report_gbits 10.0.0.2\n" + _text("03"))
    assert [f.code for f in check(sold, [Log(1, "r", remote)], CATALOG)] == ["ib-bandwidth-low"]


def test_a_p2p_paste_without_its_enabled_matrices_or_with_a_contradicting_connectivity_is_refused() -> None:
    lines = _text("23").splitlines(keepends=True)
    # lines 90-99 and 110-119: the two P2P=Enabled bandwidth matrices (title, header, 8 rows)
    cut = "".join(lines[:89] + lines[99:109] + lines[119:])
    with pytest.raises(LogError, match="no P2P=Enabled bandwidth matrix"):
        parse_log(cut)
    zeroed = [f"     {line.split()[0]}" + "     0" * 8 + "\n" for line in lines[71:79]]  # every pair 0, rows kept
    none = "".join(lines[:71] + zeroed + lines[79:])
    with pytest.raises(LogError, match="disagree about which pairs reach each other"):
        parse_log(none)


@pytest.mark.parametrize(
    "old, new, said",
    [
        ("bandwidth (GB/s)", "bandwidth (ns)", "a latency testcase's matrix is in ns, a copy's in GB/s"),
        ("GPU(row) -> GPU(column)", "CPU(row) -> GPU(column)", "a copy between GPUs is titled GPU(row)"),
        ("device_to_device_memcpy_read_ce", "device_to_device_memcpy_read_cex", "not one of nvbandwidth's copies"),
    ],
)
def test_a_testcase_name_its_title_contradicts_is_refused(old: str, new: str, said: str) -> None:
    with pytest.raises(LogError, match=re.escape(said)):
        parse_log(NVB.replace(old, new))


def test_what_follows_a_run_is_not_its_rows_and_a_prompt_above_json_is_read_past() -> None:
    followed = _text("03") + "$ ip -s link show ib0\n    RX: bytes packets errors dropped missed mcast\n"
    followed += "    123456 789 0 0 0 0\n"
    run = parse_log(followed)
    assert isinstance(run, PerftestBw) and str(run.judged().average) == "92.39"
    [path] = NETBW.glob("21-*")
    assert parse_log("$ ./nvbandwidth -j\n" + path.read_text(encoding="utf-8")).tool == "nvbandwidth"


def test_a_file_with_old_mac_line_ends_reads_as_its_lines() -> None:
    for text in (NVB, _text("03")):
        sections = read_log(text.replace("\n", "\r").encode(), "cr.txt").sections
        assert [s.parsed.tool for s in sections] == [parse_log(text).tool]
