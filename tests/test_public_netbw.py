"""Issue 32, point 2: perftest, nvbandwidth and CUDA samples' p2pBandwidthLatencyTest as they really print,
gathered from public sources (tests/fixtures/benchlogs/public/netbw; each file's source and its reading in
READINGS.md there, written by hand before any parser ran). The figures below are transcribed from those readings,
as printed; a run the readings call failed is refused as that failure, naming its line, never as "cut short" or
"garbled"."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Finding, Log, Sold
from quotetui.domain.verification.logs import (
    LogError,
    NvBandwidth,
    P2pBandwidthLatency,
    ParsedLog,
    PerftestBw,
    PerftestLat,
)
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log, read_log
from quotetui.services.verification import summarise
from tests.conftest import Cli

PUBLIC = Path(__file__).parent / "fixtures" / "benchlogs" / "public" / "netbw"
CATALOG = builtin_catalog()
H100 = CATALOG.get("h100-sxm5")
H100_NDR = Sold(H100, 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))  # 400 Gb/s per GPU


def _path(prefix: str) -> Path:
    [path] = PUBLIC.glob(f"{prefix}-*")
    return path


def _read(prefix: str) -> str:
    return _path(prefix).read_bytes().decode("utf-8")


def _parse(prefix: str) -> ParsedLog:
    return parse_log(_read(prefix), prefix)


def _found(sold: Sold, prefix: str, text: str | None = None) -> list[Finding]:
    parsed = parse_log(text if text is not None else _read(prefix), prefix)
    return check(sold, [Log(1, prefix, parsed)], CATALOG)


# --- perftest bandwidth --------------------------------------------------------------------------------------

BW = {  # prefix: (tool, test, device, link type, unit, QPs, timed (-D), GID index, size, iterations, peak, avg,
    #           MsgRate, how many times the largest size's row is printed)
    "01": ("ib_write_bw", "RDMA_Write", "ib0", "IB", "MB/sec", 1, False, None, 8388608, 20000, "24056.74",
           "24056.72", "0.003007", 2),
    "02": ("ib_write_bw", "RDMA_Write", "ib0", "IB", "MB/sec", 1, False, None, 8388608, 2000, "23240.68",
           "23240.68", "0.002905", 2),
    "03": ("ib_write_bw", "RDMA_Write", "mlx5_0", "Ethernet", "Gb/sec", 1, False, 5, 8388608, 5000, "92.39",
           "92.39", "0.001377", 1),
    "04": ("ib_write_bw", "RDMA_Write", "mlx5_0", "Ethernet", "Gb/sec", 1, False, 4, 8388608, 5000, "52.52",
           "52.52", "0.000783", 1),
    "05": ("ib_write_bw", "RDMA_Write", "mlx5_0", "Ethernet", "Gb/sec", 1, False, 8, 8388608, 5000, "52.52",
           "52.52", "0.000783", 1),
    "06": ("ib_write_bw", "RDMA_Write", "mlx5_1", "Ethernet", "Gb/sec", 16, True, 3, 65536, 10384867, "0.00",
           "181.46", "0.346100", 1),
    "07": ("ib_write_bw", "RDMA_Write", "mlx5_1", "Ethernet", "Gb/sec", 16, True, 3, 65536, 10384867, "0.00",
           "181.46", "0.346100", 1),
    "08": ("ib_write_bw", "RDMA_Write", "mlx5_0", "Ethernet", "Gb/sec", 1, False, 3, 65536, 5000, "368.67",
           "368.48", "0.702829", 1),
    "09": ("ib_write_bw", "RDMA_Write", "mlx5_1", "IB", "Gb/sec", 1, False, None, 65536, 5000, "94.72", "94.71",
           "0.180640", 2),
    "11": ("ib_read_bw", "RDMA_Read", "mlx5_0", "IB", "MB/sec", 1, False, None, 65536, 1000, "11709.18",
           "11708.31", "0.187333", 1),
    "12": ("ib_send_bw", "Send", "mlx5_2", "IB", "Gb/sec", 1, False, None, 8388608, 1000, "196.69", "196.69",
           "0.002931", 1),
}  # fmt: skip


@pytest.mark.parametrize("prefix", sorted(BW))
def test_each_perftest_bandwidth_run_reads_as_its_reading_says(prefix: str) -> None:
    tool, test, device, link, unit, qps, timed, gid, size, iterations, peak, avg, rate, printed = BW[prefix]
    run = _parse(prefix)
    assert isinstance(run, PerftestBw)
    assert (run.tool, run.test, run.device, run.link_type, run.unit, run.qps) == (tool, test, device, link, unit, qps)
    assert (run.duration, run.gid_index, run.bidirectional) == (timed, gid, False)
    row = run.judged()
    assert (row.size, row.iterations, row.peak, row.average, row.msg_rate) == (
        size,
        iterations,
        Decimal(peak),
        Decimal(avg),
        Decimal(rate),
    )
    assert [r for r in run.rows if r.size == size] == [row] * printed


def test_the_size_sweeps_read_every_size_and_their_best_average() -> None:
    two = _parse("02")  # 2 B … 8 MiB, the client's 23 rows and the server's final line
    assert isinstance(two, PerftestBw) and len(two.rows) == 24 and min(r.size for r in two.rows) == 2
    assert (two.best().size, two.best().average) == (4194304, Decimal("23277.91"))
    wide = next(r for r in two.rows if r.size == 4096)  # '10034.02            9948.41                   2.546793'
    assert (wide.peak, wide.average, wide.msg_rate) == (Decimal("10034.02"), Decimal("9948.41"), Decimal("2.546793"))
    three = _parse("03")
    assert isinstance(three, PerftestBw) and len(three.rows) == 23 and three.gpu is None  # no CUDA lines published
    assert (three.best().size, three.best().average) == (16384, Decimal("92.46"))
    four = _parse("04")  # the first row with 6 decimals
    assert isinstance(four, PerftestBw) and len(four.rows) == 23
    assert (four.rows[0].size, four.rows[0].peak, four.rows[0].average) == (2, Decimal("0.080755"), Decimal("0.073090"))
    twelve = _parse("12")
    assert isinstance(twelve, PerftestBw) and len(twelve.rows) == 23
    assert [(r.size, r.peak, r.average) for r in twelve.rows[:2]] == [
        (2, Decimal("0.052812"), Decimal("0.050794")),
        (4, Decimal("0.080899"), Decimal("0.080547")),
    ]
    mid = next(r for r in twelve.rows if r.size == 32768)
    assert (mid.peak, mid.average) == (Decimal("172.67"), Decimal("96.54"))
    assert twelve.best() == twelve.judged()  # the best average is also at 8 MiB


def test_the_gpudirect_runs_name_their_gpu_and_mtu() -> None:
    for prefix in ("06", "07"):
        run = _parse(prefix)
        assert isinstance(run, PerftestBw)
        assert (run.gpu, run.mtu, run.gpu_names()) == ("NVIDIA A40", 1024, ("NVIDIA A40",))
    eight = _parse("08")
    assert isinstance(eight, PerftestBw) and eight.mtu == 4096


def test_the_bw_min_column_is_read_and_its_zero_is_no_measurement() -> None:
    run = _parse("08")  # '65536 5000 368.67 368.48 \t\t 0.702829\t\t  0.00'
    assert isinstance(run, PerftestBw)
    [row] = run.rows
    assert row.bw_min == Decimal("0.00") and row.average == Decimal("368.48")
    # judged on its average: 368.48 of 400 sold per GPU = 92.1 %, healthy
    assert [f for f in _found(H100_NDR, "08") if f.code == "ib-bandwidth-low"] == []


def test_a_loopback_file_with_two_unit_headers_is_in_the_clients_unit() -> None:
    """09: the server's header says MB/sec, the client's Gb/sec, for one row printed twice. The row's own message
    rate says which: 0.180640 Mpps × 65536 B = 11,838,423,040 B/s = 94.71 Gb/s (× 8 / 10^9), not 94.71 MB/s."""
    run = _parse("09")
    assert isinstance(run, PerftestBw) and run.unit == "Gb/sec" and run.gbps(run.judged().average) == Decimal("94.71")
    assert "MB/sec" in _read("09") and "Gb/sec" in _read("09")


def test_a_timed_run_is_judged_on_its_average_not_its_unmeasured_peak() -> None:
    """06: -D 60, 'BW peak won't be measured': peak 0.00 is no measurement; the average 181.46 Gb/s is."""
    run = _parse("06")
    assert isinstance(run, PerftestBw) and run.duration and run.judged().peak == Decimal("0.00")
    on_200 = Sold(H100, 8, IntraFabric.NVSWITCH, InterFabric.ROCE_V2, Decimal(200))
    assert [f for f in _found(on_200, "06") if f.code == "ib-bandwidth-low"] == []  # 181.46 ≥ 80 % × 200 = 160
    [low] = [f for f in _found(H100_NDR, "06") if f.code == "ib-bandwidth-low"]
    assert low.title == "ib_write_bw 181.46 Gb/s, 320 expected"  # never "0.00 Gb/s"
    assert low.evidence == (
        "06: BW average 181.46 Gb/sec at 65,536 bytes on mlx5_1, Ethernet, MTU 1024, GPU NVIDIA A40 (a timed run: "
        "its BW peak is not measured)",
        "181.46 ÷ 400 Gb/s sold = 45.4 % (threshold 80 %)",  # 181.46 / 400 = 0.45365
    )
    assert "BW peak not measured" in summarise(run)


def test_an_ib_read_bw_run_is_named_ib_read_bw_and_held_to_the_nic() -> None:
    run = _parse("11")
    assert isinstance(run, PerftestBw) and run.tool == "ib_read_bw" and run.title == "RDMA_Read BW"
    # 11708.31 MB/s × 0.008388608 = 98,216,422,932.48 / 10^9 = 98.22 Gb/s (11708 × 8388608 = 98,213,822,464;
    # 0.31 × 8388608 = 2,600,468.48); 98.22 / 400 = 24.6 %
    [low] = [f for f in _found(H100_NDR, "11") if f.code == "ib-bandwidth-low"]
    assert low.title == "ib_read_bw 98.22 Gb/s, 320 expected" and "ib_write_bw" not in " ".join(low.evidence)
    [send] = [f for f in _found(H100_NDR, "12") if f.code == "ib-bandwidth-low"]
    assert send.title == "ib_send_bw 196.69 Gb/s, 320 expected"
    [section] = read_log(_path("11").read_bytes(), "11.txt").sections
    assert section.parsed.tool == "ib_read_bw"


# --- perftest latency ----------------------------------------------------------------------------------------

LAT = {  # prefix: (device, link type, GID index, connection, sizes, size shown, t_min, t_max, t_typical, t_avg,
    #           t_stdev, 99 %, 99.9 %)
    "10": ("mlx5_0", "IB", None, "RC", (2,), 2, "0.96", "3.45", "1.00", "1.01", "0.09", "1.06", "3.45"),
    "13": ("rdmap47s0", "IB", 0, "SRD", tuple(2**k for k in range(1, 14)), 8192, "18.05", "26.08", "19.51",
           "19.67", "0.63", "23.37", "26.08"),
}  # fmt: skip


@pytest.mark.parametrize("prefix", sorted(LAT))
def test_each_perftest_latency_run_reads_as_its_reading_says(prefix: str) -> None:
    device, link, gid, connection, sizes, size, *times = LAT[prefix]
    run = _parse(prefix)
    assert isinstance(run, PerftestLat)
    assert (run.tool, run.test, run.device, run.link_type, run.gid_index, run.connection, run.qps) == (
        "ib_send_lat",
        "Send",
        device,
        link,
        gid,
        connection,
        1,
    )
    assert tuple(r.size for r in run.rows) == sizes and {r.iterations for r in run.rows} == {1000}
    row = run.at(size)
    assert row is not None
    assert [row.t_min, row.t_max, row.t_typical, row.t_avg, row.t_stdev, row.p99, row.p999] == [
        Decimal(t) for t in times
    ]


def test_the_efa_latency_outlier_at_2_bytes_is_kept_as_printed() -> None:
    run = _parse("13")
    assert isinstance(run, PerftestLat)
    two = run.at(2)
    assert two is not None and (two.t_typical, two.t_avg, two.t_max) == (
        Decimal("15.78"),
        Decimal("22.98"),
        Decimal("1210.34"),
    )


def test_a_latency_run_is_evidence_never_judged_against_a_bandwidth_bound() -> None:
    for prefix in ("10", "13"):
        assert _found(H100_NDR, prefix) == []
        line = summarise(_parse(prefix), H100_NDR)
        assert "usec" in line and "not judged against a bandwidth bound" in line and "Gb/s" not in line
    assert summarise(_parse("10")) == (
        "2 B: t_typical 1.00 usec, t_avg 1.01 usec (mlx5_0, IB): a latency, not judged against a bandwidth bound"
    )


# --- perftest failures ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prefix, line, said",
    [
        ("14", 20, "ib_read_bw failed at line 20: ethernet_read_keys: Couldn't read remote address (on mlx5_0, IB, "
                   "30 QPs: no result)"),
        ("15", 2, "ib_read_bw failed at line 2: Couldn't allocate MR (no result)"),
        ("16", 2, "ib_write_bw failed at line 2: Couldn't connect to 192.168.125.211:18515 (device rocep133s0f0 "
                  "asked for: no result)"),
    ],
)  # fmt: skip
def test_a_failed_perftest_run_is_refused_as_the_failure_it_printed(prefix: str, line: int, said: str) -> None:
    with pytest.raises(LogError) as refused:
        parse_log(_read(prefix), prefix)
    assert (refused.value.line, refused.value.message) == (line, said)
    assert "cut short" not in said and "garbled" not in said


def test_what_one_perftest_log_cannot_hold_is_refused_naming_it() -> None:
    read, write = _read("11"), _read("03")
    with pytest.raises(LogError) as two:  # a read run (title on its line 3) after 03 (46 lines): two runs
        parse_log(write + read, "two")
    assert two.value.message == (
        "two perftest runs in one log: RDMA_Write BW Test at line 2, RDMA_Read BW Test at line 49; save each run to "
        "its own file"
    )
    with pytest.raises(LogError) as atomic:
        parse_log(read.replace("RDMA_Read BW Test", "ATOMIC FETCH_AND_ADD BW Test"), "atomic")
    assert atomic.value.message.startswith("a perftest ATOMIC BW test: not read")
    with pytest.raises(LogError) as cut:  # cut after the header: no failure printed, so no failure claimed
        parse_log("\n".join(read.splitlines()[:14]) + "\n", "cut")
    assert cut.value.message.startswith("no result table ('#bytes #iterations BW peak…'): the client never connected")


# --- nvbandwidth ---------------------------------------------------------------------------------------------

NVBW = {  # prefix: (testcase, unit, GPUs, SUM, min, max, version, CUDA runtime, driver)
    "17": ("device_to_device_memcpy_read_ce", "GB/s", 6, "715.53", "21.80", "26.35", "v0.8", "13000", "580.95.05"),
    "19": ("device_to_device_latency_sm", "ns", 8, "46287.84", "821.94", "829.52", "v0.10.0", "13020", "595.71.05"),
    "20": ("multinode_device_to_device_memcpy_read_ce", "GB/s", 8, "44685.29", "797.65", "798.25", "v0.7", "12080",
           "570.124.06"),
}  # fmt: skip


@pytest.mark.parametrize("prefix", sorted(NVBW))
def test_each_nvbandwidth_run_reads_as_its_reading_says(prefix: str) -> None:
    name, unit, gpus, total, low, high, version, cuda, driver = NVBW[prefix]
    run = _parse(prefix)
    assert isinstance(run, NvBandwidth)
    [m] = run.matrices
    assert (m.name, m.unit, m.columns, m.total) == (name, unit, tuple(range(gpus)), Decimal(total))
    assert all(values[r] is None for r, values in m.rows)  # N/A on the diagonal
    assert (min(m.figures()), max(m.figures())) == (Decimal(low), Decimal(high))
    assert (run.version, run.cuda_version, run.driver) == (version, cuda, driver)


def test_the_multinode_run_names_its_hosts_and_devices() -> None:
    run = _parse("20")
    assert isinstance(run, NvBandwidth)
    assert run.hosts == ("nvbandwidth-test-worker-0", "nvbandwidth-test-worker-1")
    assert run.devices == ("HGX GB200",) * 8
    # two hosts × 4 GB200: no per-node GPU count, copies over the NVLink fabric held to GB200's (70 % × 900)
    gb200 = Sold(CATALOG.get("gb200"), 4, IntraFabric.NVSWITCH)
    assert _found(gb200, "20") == []
    slow = _read("20").replace("797.65", "597.65").replace("44685.29", "44485.29")  # SUM − 200.00
    [f] = [f for f in _found(gb200, "20", slow) if f.code == "nvlink-copy-low"]
    assert f.title == "GPU-to-GPU copy 597.65 GB/s, 630 expected"
    assert "8 GPUs on 2 hosts" in summarise(run)


def test_the_json_output_reads_into_the_same_facts() -> None:
    run = _parse("21")
    assert isinstance(run, NvBandwidth) and run.layout == "json"
    assert (run.version, run.cuda_version, run.driver) == ("v0.5", "12070", "565.02")
    assert len(run.matrices) + len(run.waived) == 32
    h2d, d2h = run.matrix("host_to_device_memcpy_ce"), run.matrix("device_to_host_memcpy_ce")
    latency = run.matrix("host_device_latency_sm")
    assert h2d is not None and d2h is not None and latency is not None
    assert (h2d.rows, h2d.total) == (((0, (Decimal("12.3964"),)),), Decimal("12.396361291250001"))
    assert d2h.rows[0][1] == (Decimal("13.2001"),)
    assert (latency.rows[0][1], latency.unit, latency.bandwidth) == ((Decimal("649.879"),), "ns", False)
    assert latency.title == "memory latency SM CPU(row) <-> GPU(column) (ns)"
    waived = set(run.waived)
    assert {n for n in waived if n.startswith("device_to_device_")} == {
        f"device_to_device_{kind}_{engine}"
        for kind in ("memcpy_read", "memcpy_write", "bidirectional_memcpy_read", "bidirectional_memcpy_write")
        for engine in ("ce", "sm")
    } | {"device_to_device_latency_sm"}
    spread = ("all_to_one_write", "all_to_one_read", "one_to_all_write", "one_to_all_read")
    assert {f"{w}_{e}" for w in spread for e in ("ce", "sm")} <= waived


def test_the_json_runs_host_copy_is_judged_and_its_latency_is_not() -> None:
    """One GPU at 12.3964 GB/s host→device (PCIe Gen3 x16 speed) is under the 20 GB/s floor; its 649.879 ns
    latency is above an A100's 600 GB/s NVLink as a number and must never be read as a copy."""
    a100 = Sold(CATALOG.get("a100-80gb-sxm4"), 1, IntraFabric.NVSWITCH)
    found = _found(a100, "21")
    assert [(f.code, f.title) for f in found] == [("host-copy-low", "host↔GPU copy 12.3964 GB/s, under 20")]
    assert "host_device_latency_sm 649.879 ns (a latency, not judged against a bandwidth bound)" in summarise(
        _parse("21")
    )


def test_a_latency_testcase_is_never_mixed_with_bandwidth() -> None:
    """19: 8 × 7 latencies of 821.94-829.52 ns. Held to an A100's 600 GB/s of NVLink as if they were GB/s they
    would be impossible copies, and held to its 210 GB/s floor all healthy: neither may happen."""
    a100 = Sold(CATALOG.get("a100-80gb-sxm4"), 8, IntraFabric.NVSWITCH)
    assert _found(a100, "19") == []
    assert _found(Sold(H100, 8, IntraFabric.NVSWITCH), "19") == []
    line = summarise(_parse("19"))
    assert line == "device_to_device_latency_sm 821.94–829.52 ns (a latency, not judged against a bandwidth bound)"


def test_a_failed_nvbandwidth_run_is_refused_as_failed_naming_its_lines() -> None:
    with pytest.raises(LogError) as refused:
        parse_log(_read("18"), "18")
    message = refused.value.message
    assert refused.value.line == 18
    assert message.startswith(
        "nvbandwidth failed in device_to_device_memcpy_read_ce (a copy's data did not verify) at line 18: Invalid "
        "value when checking the pattern at 0x70a640000000; ASSERT in expression h_errorFlag == 0 in void "
        "memcmpPatternHelper("
    )
    assert message.endswith("/mnt/project/cuda_related/nvbandwidth/memcpy.cpp:165 (line 20)")
    assert "cut short" not in message and "garbled" not in message


# --- p2pBandwidthLatencyTest ---------------------------------------------------------------------------------

ENABLED_BI = "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)"
ENABLED_UNI = "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)"
DISABLED_BI = "Bidirectional P2P=Disabled Bandwidth Matrix (GB/s)"
DISABLED_UNI = "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)"
ENABLED_LAT = "P2P=Enabled Latency (P2P Writes) Matrix (us)"
DISABLED_LAT = "P2P=Disabled Latency Matrix (us)"

P2P = {  # prefix: (GPUs, device, pairs without peer access, {matrix: (off-diagonal min, max)}, diagonal of ENABLED_BI)
    "22": (2, "NVIDIA GeForce RTX 2080 Ti", ((0, 1), (1, 0)),
           {ENABLED_BI: ("6.10", "6.10"), ENABLED_UNI: ("5.72", "5.72"), ENABLED_LAT: ("13.63", "14.99")},
           ("533.34", "534.01")),
    "23": (8, "NVIDIA H100 80GB HBM3", (),
           {ENABLED_BI: ("737.95", "775.34"), ENABLED_UNI: ("365.30", "393.78"), DISABLED_UNI: ("36.70", "38.40"),
            DISABLED_BI: ("45.25", "53.30"), ENABLED_LAT: ("2.26", "3.35"), DISABLED_LAT: ("14.13", "19.23")},
           ("2938.76", "2950.81")),
}  # fmt: skip


@pytest.mark.parametrize("prefix", sorted(P2P))
def test_each_p2p_run_reads_as_its_reading_says(prefix: str) -> None:
    gpus, device, no_peer, spans, diagonal = P2P[prefix]
    run = _parse(prefix)
    assert isinstance(run, P2pBandwidthLatency)
    assert (run.gpus, run.devices, run.no_peer) == (gpus, (device,) * gpus, no_peer)
    for title, (low, high) in spans.items():
        m = run.matrix(title)
        assert m is not None, title
        figures = [v for _, _, v in m.cells()]
        assert (min(figures), max(figures)) == (Decimal(low), Decimal(high)), title
    bidirectional = run.matrix(ENABLED_BI)
    assert bidirectional is not None
    diagonal_read = bidirectional.diagonal()
    assert (min(diagonal_read), max(diagonal_read)) == (Decimal(diagonal[0]), Decimal(diagonal[1]))
    assert not any(m.title.endswith("(P2P Reads) Matrix (GB/s)") for m in run.matrices)  # no --p2p_read
    cpu = run.matrix(ENABLED_LAT, "CPU")
    assert cpu is not None and len(cpu.rows) == gpus and cpu.unit == "us"


def test_an_h100_p2p_run_is_held_to_nvlink_one_way_and_both_ways() -> None:
    """23 on 8×H100 SXM (900 GB/s both ways): unidirectional 365.30 is over 70 % × 450 = 315, bidirectional 737.95
    over 70 % × 900 = 630; the 2,900 GB/s diagonal is a GPU's own memory, never an impossible link."""
    sold = Sold(H100, 8, IntraFabric.NVSWITCH)
    assert _found(sold, "23") == []
    text = _read("23")
    assert text.count(" 739.22 ") == 1 and text.count(" 365.30 ") == 1
    both = [f for f in _found(sold, "23", text.replace(" 739.22 ", " 600.00 ")) if f.code == "nvlink-copy-low"]
    assert [f.title for f in both] == ["GPU-to-GPU copy 600.00 GB/s, 630 expected"]
    assert both[0].evidence == (
        f"23: {ENABLED_BI}: 1 of 56 pairs under 630 GB/s, the slowest GPU0→GPU1 at 600.00 GB/s",
    )
    one = [f for f in _found(sold, "23", text.replace(" 365.30 ", " 300.00 ")) if f.code == "nvlink-copy-low"]
    assert [f.title for f in one] == ["GPU-to-GPU copy 300.00 GB/s, 315 expected"]
    assert summarise(_parse("23")) == (
        "8 GPUs, peer access between every pair; P2P=Enabled between GPUs: unidirectional 365.30–393.78 GB/s, "
        "bidirectional 737.95–775.34 GB/s, latency 2.26–3.35 us (a latency, not judged against a bandwidth bound)"
    )


def test_a_p2p_run_without_peer_access_is_reported_as_such() -> None:
    """22: 2080 Ti pair, 'CANNOT Access Peer': its P2P=Enabled 6.10 GB/s is the copy through the host. On an
    NVSwitch offer that is two pairs without peer access, not a 6.10 GB/s NVLink."""
    sold = Sold(H100, 2, IntraFabric.NVSWITCH)
    [f] = [f for f in _found(sold, "22") if f.code == "nvlink-copy-low"]
    assert f.title == "2 GPU pairs without peer access"
    assert f.evidence == (
        "22: 2 of 2 GPU pairs without peer access (CANNOT Access Peer): GPU0→GPU1, GPU1→GPU0; their P2P=Enabled "
        "figures are copies through the host",
    )
    assert summarise(_parse("22")) == (
        "2 GPUs, 2 of 2 GPU pairs without peer access (CANNOT Access Peer); without peer access the P2P=Enabled "
        "copies (5.72–6.10 GB/s) go through the host: not a peer-to-peer figure"
    )


def test_a_p2p_matrix_cut_short_is_refused() -> None:
    lines = _read("23").splitlines()
    at = lines.index(ENABLED_BI)  # its header, then rows 0-7: keep rows 0-4
    with pytest.raises(LogError) as refused:
        parse_log("\n".join(lines[: at + 7]) + "\n", "23")
    assert refused.value.message == f"{ENABLED_BI}: 5 rows for 8 GPUs (cut short?)"


# --- end to end ----------------------------------------------------------------------------------------------


def test_link_logs_are_stored_under_their_own_tools_and_summarised(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    paths = [str(_path(p)) for p in ("11", "10", "19", "23", "21")]
    # demo offer #2 sells 8×H100 SXM5 with 400 Gb/s of NIC per GPU
    stored = cli("--db", db, "bench", "import", *paths, "--offer", "2", "--json")
    assert stored.code == 0, stored.err
    tools = [e["tool"] for e in json.loads(stored.out)["logs"]]
    assert tools == ["ib_read_bw", "ib_send_lat", "nvbandwidth", "p2pBandwidthLatencyTest", "nvbandwidth"]
    report = cli("--db", db, "bench", "check", "--offer", "2", "--json")
    assert report.code == 0, report.err
    checked = json.loads(report.out)
    summaries = {e["tool"] + " " + e["log"][:2]: e["summary"] for e in checked["logs"]}
    assert summaries["ib_read_bw 11"] == "BW average 11708.31 MB/sec = 98.22 Gb/s at 65,536 B (mlx5_0, IB)"
    assert summaries["ib_send_lat 10"].endswith("a latency, not judged against a bandwidth bound")
    titles = {(f["code"], f["title"]) for f in checked["findings"]}
    assert ("ib-bandwidth-low", "ib_read_bw 98.22 Gb/s, 320 expected") in titles
    assert not any(code in ("nvlink-copy-low", "impossible-measurement") for code, _ in titles)
    refused = cli("--db", db, "bench", "import", str(_path("14")), "--offer", "2")
    assert refused.code != 0 and "ib_read_bw failed at line 20" in refused.err + refused.out
