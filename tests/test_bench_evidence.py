"""More evidence: nvbandwidth, ib_write_bw and a training run's throughput (Megatron-LM, torchtitan).

Every figure asserted here is worked out by hand from the fixture text (the arithmetic is in the comments);
the fixtures and where they were published: ``tests/fixtures/benchlogs/EVIDENCE-SOURCES.md``."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from quotetui.domain.enums import InterFabric, IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.findings import Finding, FindingCode, Log, Severity, Sold
from quotetui.domain.verification.logs import IbWriteBw, LogError, NvBandwidth, TrainingThroughput
from quotetui.domain.verification.rules import check, measured, training_mfu
from quotetui.io.benchlogs import bandwidth, training
from quotetui.io.benchlogs.detect import parse_log
from tests.conftest import Cli, sql

FIXTURES = Path(__file__).parent / "fixtures" / "benchlogs"
CATALOG = builtin_catalog()
H100 = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH)
H100_NDR = Sold(CATALOG.get("h100-sxm5"), 8, IntraFabric.NVSWITCH, InterFabric.INFINIBAND_NDR, Decimal(400))
A100 = Sold(CATALOG.get("a100-80gb-sxm4"), 8, IntraFabric.NVSWITCH)

NVBW = "nvbandwidth-h100-d2d-read.txt"
ROCE = "ib_write_bw-roce-mlx5_0.txt"
LOOPBACK = "ib_write_bw-loopback-ib0-mbsec.txt"
MEGATRON = "megatron-h100-mixtral-8x7b.txt"
TITAN = "torchtitan-h100-llama3-8b-bf16.txt"


def text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def lines(name: str) -> list[str]:
    return text(name).splitlines()


def refused(log: str, name: str = "x.txt") -> LogError:
    with pytest.raises(LogError) as caught:
        parse_log(log, name)
    return caught.value


def codes(found: list[Finding]) -> set[str]:
    return {f.code for f in found}


def one(found: list[Finding], code: str) -> Finding:
    [f] = [f for f in found if f.code == code]
    return f


# --- nvbandwidth ---------------------------------------------------------------------------------------------


def test_nvbandwidth_fixture() -> None:
    nv = parse_log(text(NVBW), NVBW)
    assert isinstance(nv, NvBandwidth)
    assert nv.version == "v0.4"
    assert nv.gpu_names() == ("NVIDIA H100 80GB HBM3",) * 8
    [m] = nv.matrices
    assert m.name == "device_to_device_memcpy_read_ce" and m.between_gpus and m.bandwidth
    assert m.total == Decimal("20785.58")
    assert m.columns == tuple(range(8))
    row0 = ("370.90", "370.90", "370.90", "370.38", "370.64", "370.26", "371.67")
    assert m.rows[0] == (0, (None, *map(Decimal, row0)))
    assert m.rows[7][1][7] is None and m.rows[7][1][0] == Decimal("370.51")
    assert len(m.cells()) == 56  # 8 × 8 less the diagonal
    # the slowest pair: row 0's 370.26 (GPU0 → GPU6); every other row's lowest is 370.38 or more
    assert min(v for _, _, v in m.cells() if v is not None) == Decimal("370.26")


HOST = """Running host_to_device_memcpy_ce.
memcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)
          0         1         2         3         4         5         6         7
0     26.03     25.94     25.97     26.00     26.19     25.95     26.00     25.97

SUM host_to_device_memcpy_ce 208.05
"""
# 26.03 + 25.94 + 25.97 + 26.00 + 26.19 + 25.95 + 26.00 + 25.97 = 208.05


def test_nvbandwidth_host_to_device_layout() -> None:
    nv = parse_log(HOST)
    assert isinstance(nv, NvBandwidth) and nv.devices == () and nv.version is None
    [m] = nv.matrices
    assert (m.name, m.between_gpus, m.total) == ("host_to_device_memcpy_ce", False, Decimal("208.05"))
    assert m.cells()[3] == (0, 3, Decimal("26.00"))  # a CPU row: every cell counts, GPU = column


def test_nvbandwidth_hostile_variants() -> None:
    fixture = lines(NVBW)
    # cut after row 4 of the matrix (line 28): no SUM line
    cut = refused("\n".join(fixture[:28]) + "\n")
    assert (cut.line, cut.message) == (
        28,
        "the matrix of device_to_device_memcpy_read_ce has no SUM line after its rows (cut short?)",
    )
    # cut in the middle of row 5 (line 29)
    mid = refused("\n".join([*fixture[:28], "5    371.02    370.51    371.9"]))
    assert (mid.line, mid.message) == (29, "3 values for 8 columns (a cut or garbled row)")
    # cut right after 'Running …' (line 21)
    started = refused("\n".join(fixture[:21]))
    assert (started.line, started.message) == (
        21,
        "'Running device_to_device_memcpy_read_ce.' and no result after it (cut short?)",
    )
    # terminal codes around figures and the SUM line are removed before parsing
    ansi = text(NVBW).replace("370.26", "\x1b[1;31m370.26\x1b[0m").replace("SUM ", "\x1b[1mSUM\x1b[0m ")
    assert parse_log(ansi) == parse_log(text(NVBW))
    # a letter for a digit in row 1 (line 25)
    letter = refused(text(NVBW).replace("1    370.90", "1    370.9O"))
    assert (letter.line, letter.message) == (25, "device_to_device_memcpy_read_ce row 1 is '370.9O', not a number")
    # a figure garbled into another number: the cells add up to 20785.66 (the 56 figures of the fixture),
    # so GPU1→GPU0 at 3709.00 instead of 370.90 adds 3338.10: 24123.76 against the SUM 20785.58 (line 33)
    shifted = refused(text(NVBW).replace("1    370.90", "1    3709.00"))
    assert shifted.line == 33
    assert shifted.message == (
        "SUM device_to_device_memcpy_read_ce is 20785.58 but its cells add up to 24123.76: a garbled figure"
    )


# --- ib_write_bw ---------------------------------------------------------------------------------------------


def test_ib_write_bw_fixture_in_gbits() -> None:
    ib = parse_log(text(ROCE), ROCE)
    assert isinstance(ib, IbWriteBw)
    assert (ib.unit, ib.device, ib.link_type, ib.mtu, ib.qps, ib.bidirectional) == (
        "Gb/sec",
        "mlx5_0",
        "Ethernet",
        1024,
        1,
        False,
    )
    assert len(ib.rows) == 23  # 2 B to 8 MiB, powers of two: 2^1 … 2^23
    row = ib.judged()
    assert (row.size, row.iterations, row.peak, row.average, row.msg_rate) == (
        8388608,
        5000,
        Decimal("92.39"),
        Decimal("92.39"),
        Decimal("0.001377"),
    )
    assert ib.gbps(row.average) == Decimal("92.39") and ib.gpu_names() == ()


def test_ib_write_bw_in_mb_per_second_interleaved_loopback() -> None:
    ib = parse_log(text(LOOPBACK), LOOPBACK)
    assert isinstance(ib, IbWriteBw)
    assert (ib.unit, ib.device, ib.link_type, ib.mtu) == ("MB/sec", "ib0", "IB", 4096)
    assert len(ib.rows) == 24  # 23 sizes, the last printed twice (server and client)
    assert ib.judged().average == Decimal("23240.68")
    # perftest's MB is 2^20 bytes: 23240.68 × 1048576 × 8 / 10^9 = 23240.68 × 0.008388608
    #   23240 × 8388608 = 194,951,249,920; 0.68 × 8388608 = 5,704,253.44; sum / 10^9 = 194.95695417344
    assert ib.gbps(ib.judged().average) == Decimal("194.95695417344")


def test_ib_write_bw_hostile_variants() -> None:
    fixture = lines(ROCE)
    # cut after the 65536-byte row (line 38: the header is line 22, 65536 = 2^16 the 16th row)
    cut = refused("\n".join(fixture[:38]) + "\n")
    assert (cut.line, cut.message) == (38, "the result table does not end with its line of dashes (cut short?)")
    mid = refused("\n".join([*fixture[:37], " 65536      5000             92.39"]))
    assert (mid.line, mid.message) == (38, "3 values for 5 columns (a cut or garbled row)")
    ansi = text(ROCE).replace(" 8388608 ", " \x1b[32m8388608\x1b[0m ").replace("RDMA_Write", "\x1b[1mRDMA_Write\x1b[0m")
    assert parse_log(ansi) == parse_log(text(ROCE))
    garbled = refused(text(ROCE).replace("92.39              0.001377", "92.3g              0.001377"))
    assert (garbled.line, garbled.message) == (45, "BW average[Gb/sec] is '92.3g', not a number")
    # a failed run is refused as the failure it printed, naming its line (issue 32: never "cut short")
    never = refused("\n".join(fixture[:16]) + "\n Couldn't connect to 192.168.38.90:18515\n")
    assert (never.line, never.message) == (
        17,
        "ib_write_bw failed at line 17: Couldn't connect to 192.168.38.90:18515 (on mlx5_0, Ethernet, 1 QP: no result)",
    )
    silent = refused("\n".join(fixture[:16]) + "\n")
    assert silent.message.startswith("no result table ('#bytes #iterations BW peak…'): the client never connected")
    # an RDMA_Read header is ib_read_bw's run, read and named as such (it was refused before issue 32)
    read = parse_log(text(ROCE).replace("RDMA_Write BW Test", "RDMA_Read BW Test"))
    assert isinstance(read, IbWriteBw) and (read.tool, read.test) == ("ib_read_bw", "RDMA_Read")


# --- training logs -------------------------------------------------------------------------------------------


def test_torchtitan_fixture() -> None:
    t = parse_log(text(TITAN), TITAN)
    assert isinstance(t, TrainingThroughput)
    assert (t.framework, [s.step for s in t.steps], t.warmup) == ("torchtitan", [1, 10, 20, 30, 40], 1)
    # warm-up: ceil(5 / 10) = 1 step (step 1, 34.47 TFLOP/s); steady: 367.39, 366.06, 364.89, 364.36
    assert [s.tflops for s in t.steady] == [Decimal(x) for x in ("367.39", "366.06", "364.89", "364.36")]
    assert t.median_tflops == Decimal("365.475")  # (366.06 + 364.89) / 2 = 730.95 / 2
    assert t.median_tokens_per_sec == Decimal("6310.5")  # tps 6,344 6,321 6,300 6,291: (6321 + 6300) / 2
    assert t.device is None and t.gpu_names() == ()


def test_megatron_fixture() -> None:
    t = parse_log(text(MEGATRON), MEGATRON)
    assert isinstance(t, TrainingThroughput)
    assert [s.step for s in t.steps] == [2, 3, 29, 30, 31, 43, 44, 45]
    # warm-up: ceil(8 / 10) = 1 (iteration 2); the 7 steady figures sorted:
    # 220.9 228.3 228.4 234.4 236.0 239.8 241.4: the 4th is the median
    assert (t.framework, t.warmup, len(t.steady), t.median_tflops) == ("Megatron-LM", 1, 7, Decimal("234.4"))
    assert t.median_tokens_per_sec is None  # Megatron-LM prints no tokens/s
    assert t.steps[1].step_ms == Decimal("5410.6")


def test_training_hostile_variants() -> None:
    megatron = lines(MEGATRON)
    # the last line cut before its throughput figure (line 9)
    cut = megatron[-1][: megatron[-1].index("| throughput")]
    late = refused("\n".join([*megatron[:-1], cut]))
    assert (late.line, late.message) == (9, "iteration 45 has no throughput figure (cut short, or a garbled line?)")
    # a run without --log-throughput (the lines of epfLLM/Megatron-LLM issue #11)
    plain = (
        " iteration      122/  250000 | consumed samples:       124928 | elapsed time per iteration (ms): 86545.2 |"
        " learning rate: 9.150E-06 | global batch size:  1024 | lm loss: 2.504220E+00 | loss scale: 1.0 |"
        " grad norm: 0.231 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
    )
    silent = refused(plain * 5)
    assert silent.line == 1 and "no 'throughput per GPU (TFLOP/s/GPU)' figure: run it with --log-throughput" in (
        silent.message
    )
    with pytest.raises(LogError, match="no throughput line"):
        training.parse("loading checkpoint …\n")
    # three torchtitan steps: one is warm-up, two are not a median
    short = refused("\n".join(lines(TITAN)[:3]))
    assert short.line == 3
    assert short.message == (
        "3 steps logged, 2 after the 1 warm-up step: a median needs at least 3 steady steps (log more often, "
        "or run longer)"
    )
    # torchtitan's own colours (one code per field) are removed first
    colours = (
        text(TITAN)
        .replace("step:", "\x1b[31mstep:")
        .replace("  loss:", "  \x1b[32mloss:")
        .replace("  tflops:", "  \x1b[34mtflops:\x1b[39m")
    )
    assert parse_log(colours) == parse_log(text(TITAN))
    garbled = refused(text(TITAN).replace("tflops: 367.39", "tflops: 36?.39"))
    assert (garbled.line, garbled.message) == (2, "step 10 tflops is '36?.39', not a number")


def test_a_step_printed_by_every_rank_counts_once() -> None:
    ranks = []
    for line in lines(TITAN):
        ranks.append(line)
        if "step:" in line:  # rank 1 prints the same step 0.02 TFLOP/s faster and 2 tokens/s more
            faster = line.replace("[rank0]", "[rank1]")
            for figure in ("34.47", "367.39", "366.06", "364.89", "364.36"):
                faster = faster.replace(f"tflops: {figure}", f"tflops: {Decimal(figure) + Decimal('0.02')}")
            for tps in ("595", "6,344", "6,321", "6,300", "6,291"):
                faster = faster.replace(f"tps: {tps} ", f"tps: {int(tps.replace(',', '')) + 2} ")
            ranks.append(faster)
    t = parse_log("\n".join(ranks))
    assert isinstance(t, TrainingThroughput) and len(t.steps) == 5
    assert t.steps[1].tflops == Decimal("367.40")  # (367.39 + 367.41) / 2
    # steady medians: (366.07 + 364.90) / 2 = 365.485; (6322 + 6301) / 2 = 6311.5
    assert (t.median_tflops, t.median_tokens_per_sec) == (Decimal("365.485"), Decimal("6311.5"))


def test_torchtitan_names_its_device() -> None:
    named = (
        "[rank0]:[titan] 2026-01-16 02:41:33,634 - root - INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.18GiB "
        "memory\n"
    )
    t = parse_log(named + text(TITAN))
    assert isinstance(t, TrainingThroughput) and t.gpu_names() == ("NVIDIA H100 80GB HBM3",)


# --- detection -----------------------------------------------------------------------------------------------


def test_parse_log_picks_the_parser() -> None:
    kinds = {
        NVBW: NvBandwidth,
        ROCE: IbWriteBw,
        LOOPBACK: IbWriteBw,
        MEGATRON: TrainingThroughput,
        TITAN: TrainingThroughput,
    }
    for name, kind in kinds.items():
        assert type(parse_log(text(name), name)) is kind, name
    assert bandwidth.nvbandwidth_matches(text(NVBW)) and not bandwidth.nvbandwidth_matches(text(ROCE))
    assert bandwidth.ib_write_bw_matches(text(ROCE)) and not bandwidth.ib_write_bw_matches(text(TITAN))
    assert training.matches(text(MEGATRON)) and training.matches(text(TITAN)) and not training.matches(text(NVBW))


def test_a_training_log_that_says_tflops_is_not_a_gemm_sweep() -> None:
    noted = text(TITAN) + "note: H100 SXM peak is 989 TFLOPS dense BF16\n"
    from quotetui.io.benchlogs.detect import _is_gemm

    assert _is_gemm(noted)  # the GEMM matcher alone would take it
    assert isinstance(parse_log(noted), TrainingThroughput)


def test_two_tools_in_one_file_are_two_sections() -> None:
    from quotetui.io.benchlogs.detect import read_log

    both = text(NVBW) + text(TITAN)  # 33 lines of nvbandwidth, then 6 of torchtitan
    err = refused(both)  # taken as one log (a bundle's command): refused, naming both
    assert (
        err.line == 34 and "nvbandwidth from line 1, training log (Megatron-LM, torchtitan) from line 34" in err.message
    )
    nv, titan = read_log(both.encode(), "run.txt").sections  # given to bench import: read as two
    assert (nv.label, nv.parsed.tool, titan.label, titan.parsed.tool) == (
        "run.txt lines 1–33",
        "nvbandwidth",
        "run.txt lines 34–39",
        "training log",
    )
    assert isinstance(titan.parsed, TrainingThroughput) and titan.parsed.median_tflops == Decimal("365.475")


# --- findings ------------------------------------------------------------------------------------------------


def log(parsed: object, label: str = "x.txt", evidence_id: int = 1) -> Log:
    return Log(evidence_id, label, parsed)  # type: ignore[arg-type]


def test_nvlink_copy_low() -> None:
    healthy = [log(parse_log(text(NVBW)), NVBW)]
    # 370.26 is the slowest pair; the floor is 70 % of 900 / 2 = 315 GB/s on H100, 210 on A100
    assert "nvlink-copy-low" not in codes(check(H100, healthy, CATALOG))
    assert check(H100, healthy, CATALOG) == []
    # one slow pair: GPU0→GPU6 at 180.26 instead of 370.26; SUM 20785.58 − 370.26 + 180.26 = 20595.58
    slow = text(NVBW).replace("370.26", "180.26").replace("20785.58", "20595.58")
    f = one(check(H100, [log(parse_log(slow), NVBW)], CATALOG), "nvlink-copy-low")
    assert (f.severity, f.title) == (Severity.CRITICAL, "GPU-to-GPU copy 180.26 GB/s, 315 expected")
    assert f.evidence == (
        f"{NVBW}: device_to_device_memcpy_read_ce: 1 of 56 pairs under 315 GB/s, the slowest GPU0→GPU6 at 180.26 GB/s",
    )
    # a pair without peer access: N/A for 370.26; SUM 20785.58 − 370.26 = 20415.32
    absent = text(NVBW).replace("370.26", "   N/A").replace("20785.58", "20415.32")
    g = one(check(H100, [log(parse_log(absent), NVBW)], CATALOG), "nvlink-copy-low")
    assert g.title == "1 GPU pair without peer access" and "GPU0→GPU6" in g.evidence[0]
    # a model without NVSwitch NVLink is not held to it
    pcie = Sold(CATALOG.get("h100-pcie"), 8, IntraFabric.PCIE)
    assert "nvlink-copy-low" not in codes(check(pcie, [log(parse_log(slow), NVBW)], CATALOG))


BIDIRECTIONAL = """Running device_to_device_bidirectional_memcpy_read_ce.
memcpy CE GPU(row) <-> GPU(column) Read1 bandwidth (GB/s)
           0         1
 0       N/A    380.10
 1    379.90       N/A

SUM device_to_device_bidirectional_memcpy_read_ce_read1 760.00

memcpy CE GPU(row) <-> GPU(column) Total bandwidth (GB/s)
           0         1
 0       N/A    760.20
 1    759.80       N/A

SUM device_to_device_bidirectional_memcpy_read_ce_total 1520.00
COEFFICIENT_OF_VARIATION device_to_device_bidirectional_memcpy_read_ce_total 0.00
"""
# nvbandwidth 0.10's layout for a bidirectional testcase (two GPUs here): 380.10 + 379.90 = 760.00,
# 760.20 + 759.80 = 1520.00


def test_a_bidirectional_total_is_held_to_both_ways_of_nvlink() -> None:
    nv = parse_log(BIDIRECTIONAL)
    assert isinstance(nv, NvBandwidth)
    assert [m.name for m in nv.matrices] == [
        "device_to_device_bidirectional_memcpy_read_ce_read1",
        "device_to_device_bidirectional_memcpy_read_ce_total",
    ]
    two = Sold(H100.gpu, 2, IntraFabric.NVSWITCH)
    assert check(two, [log(nv)], CATALOG) == []
    # one direction is held to 70 % of 450 = 315, the total to 70 % of 900 = 630; 500.00 + 759.80 = 1259.80
    slow = BIDIRECTIONAL.replace("760.20", "500.00").replace("1520.00", "1259.80")
    f = one(check(two, [log(parse_log(slow))], CATALOG), "nvlink-copy-low")
    assert f.title == "GPU-to-GPU copy 500.00 GB/s, 630 expected"


def test_host_copy_low() -> None:
    assert check(H100, [log(parse_log(HOST))], CATALOG) == []  # 25.94 GB/s at the slowest: Gen4 x16
    # GPU 3 on a Gen3 or x8 link: 12.31 for 26.00; SUM 208.05 − 26.00 + 12.31 = 194.36
    narrow = HOST.replace("25.97     26.00     26.19", "25.97     12.31     26.19").replace("208.05", "194.36")
    f = one(check(H100, [log(parse_log(narrow))], CATALOG), "host-copy-low")
    assert (f.severity, f.title) == (Severity.WARNING, "host↔GPU copy 12.31 GB/s, under 20")
    assert f.evidence == ("x.txt: host_to_device_memcpy_ce: 1 of 8 GPUs under 20 GB/s, the slowest GPU3 at 12.31 GB/s",)


def test_ib_bandwidth_low() -> None:
    roce = [log(parse_log(text(ROCE)), ROCE)]
    assert check(H100, roce, CATALOG) == []  # no NIC figure on the offer: not judged
    # 92.39 Gb/s against 400 sold per GPU: floor 80 % × 400 = 320; 92.39 / 400 = 23.0975 %
    f = one(check(H100_NDR, roce, CATALOG), "ib-bandwidth-low")
    assert (f.severity, f.title) == (Severity.WARNING, "ib_write_bw 92.39 Gb/s, 320 expected")
    assert f.evidence == (
        f"{ROCE}: BW average 92.39 Gb/sec at 8,388,608 bytes on mlx5_0, Ethernet, MTU 1024",
        "92.39 ÷ 400 Gb/s sold = 23.1 % (threshold 80 %)",
    )
    hundred = Sold(H100.gpu, 8, IntraFabric.NVSWITCH, InterFabric.ROCE_V2, Decimal(100))
    assert check(hundred, roce, CATALOG) == []  # 92.39 of 100: a healthy 100 GbE RoCE link
    # MB/sec: 23240.68 MB/s = 194.96 Gb/s (see above) on an HDR-class link; against 400 it is 48.7 %
    loop = one(check(H100_NDR, [log(parse_log(text(LOOPBACK)), LOOPBACK)], CATALOG), "ib-bandwidth-low")
    assert loop.title == "ib_write_bw 194.96 Gb/s, 320 expected"
    assert loop.evidence[0] == (
        f"{LOOPBACK}: BW average 23240.68 MB/sec = 194.96 Gb/s at 8,388,608 bytes on ib0, IB, MTU 4096"
    )
    # a run that stopped at 4 KiB measures latency: not judged, said so
    small = "\n".join(
        line
        for line in lines(ROCE)
        if not line.split()[0:1] or not line.split()[0].isdigit() or int(line.split()[0]) <= 4096
    )
    info = one(check(H100_NDR, [log(parse_log(small))], CATALOG), "ib-bandwidth-low")
    assert (info.severity, info.title) == (Severity.INFO, "ib_write_bw run too small to judge")


def test_training_mfu_against_a_claim() -> None:
    from quotetui.domain.economics.claims import Claim, audit
    from quotetui.domain.enums import Metric

    titan = log(parse_log(text(TITAN)), TITAN)
    assert isinstance(titan.parsed, TrainingThroughput)
    # 365.475 ÷ 989 = 0.36953994 → 0.369540 (six places)
    assert training_mfu(titan.parsed, H100.gpu) == Decimal("0.369540")
    assert abs(Fraction("365.475") / 989 - Fraction("0.369540")) < Fraction(1, 2 * 10**6)
    assert measured([titan], H100.gpu)[Metric.MFU] == (Decimal("0.369540"), titan)
    assert Metric.MFU not in measured([titan])  # without the model sold there is no peak to divide by
    claim = audit(Claim(7, Metric.MFU, Decimal("0.45"), "fraction", "brochure", gpu=H100.gpu, gpu_count=8))
    f = one(check(H100, [titan], CATALOG, (claim,)), "implausible-claim")
    # 0.369540 < 90 % × 0.45 = 0.405; 0.36954 / 0.45 = 82 %
    assert (f.severity, f.title) == (Severity.WARNING, "claimed 45 %, measured 36.954 %")
    assert "(82 % of the claim)" in f.explanation
    kept = audit(Claim(8, Metric.MFU, Decimal("0.40"), "fraction", "brochure", gpu=H100.gpu, gpu_count=8))
    assert check(H100, [titan], CATALOG, (kept,)) == []  # 0.369540 ≥ 0.9 × 0.40 = 0.36
    # torchtitan's own mfu (37.15 % … 36.84 %) is never what is compared: it assumes its own peak
    own = text(TITAN).replace("mfu: 37.01%", "mfu: 99.00%")
    assert training_mfu(parse_log(own), H100.gpu) == Decimal("0.369540")  # type: ignore[arg-type]


def test_every_new_code_is_documented_and_tested_here() -> None:
    source = Path(__file__).read_text()
    for code in ("nvlink-copy-low", "host-copy-low", "ib-bandwidth-low"):
        assert FindingCode(code) and f'"{code}"' in source
    guide = (Path(__file__).parent.parent / "docs" / "VERIFICATION.md").read_text()
    for code in ("nvlink-copy-low", "host-copy-low", "ib-bandwidth-low"):
        assert f"| `{code}` |" in guide


# --- end to end ----------------------------------------------------------------------------------------------


def _ok(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_a_training_log_sets_the_offers_verified_mfu_and_meets_its_claim(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    # demo offer #1 sells 8×H100 SXM5 (989 TFLOPS dense BF16) and claims 54.3 % MFU
    stored = _ok(cli, "--db", db, "bench", "import", str(FIXTURES / TITAN), "--offer", "1", "--json")
    [entry] = stored["logs"]
    assert entry["tool"] == "training log" and entry["not_verified"] is None
    assert entry["results"] == ["mfu 0.369540 fraction", "tokens_per_sec_per_gpu 6310.5 tokens/s"]
    rows = sql(
        demo_db_path,
        "SELECT metric, value, unit, conditions, evidence_id FROM benchmark_result "
        "WHERE provenance = 'verified' ORDER BY id",
    )
    (mfu, mfu_value, unit, conditions, evidence_id), tokens = rows
    assert (mfu, Decimal(str(mfu_value)), unit) == ("mfu", Decimal("0.369540"), "fraction")
    assert conditions == (
        "median of 4 steady steps (after 1 warm-up): 365.475 TFLOP/s per GPU ÷ 989 TFLOPS dense BF16 (H100 SXM5)"
    )
    assert (tokens[0], Decimal(str(tokens[1]))) == ("tokens_per_sec_per_gpu", Decimal("6310.5"))
    explained = _ok(cli, "--db", db, "explain", "1", "--json")
    assert explained["mfu_source"] == "verified" and Decimal(explained["mfu"]) == Decimal("0.36954")

    # the claims audit holds the offer's claim (0.543) against the verified MFU from the raw log on record
    from quotetui.services.claims import audit_claims
    from quotetui.services.database import open_database

    opened = open_database(db)
    try:
        audits = tuple(a for a in audit_claims(opened.db) if a.claim.offer_id == 1)
    finally:
        opened.db.dispose()
    [(raw,)] = sql(demo_db_path, f"SELECT raw FROM evidence WHERE id = {evidence_id}")
    found = check(H100, [Log(int(str(evidence_id)), TITAN, parse_log(str(raw)))], CATALOG, audits)
    contradiction = [f for f in found if f.code == "implausible-claim" and "measured" in f.title]
    # 0.369540 < 90 % × 0.543 = 0.4887; 0.36954 / 0.543 = 68 %
    assert [f.title for f in contradiction] == ["claimed 54.3 %, measured 36.954 %"]
    assert "(68 % of the claim)" in contradiction[0].explanation


def test_a_training_log_from_another_gpu_is_evidence_only(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "titan-4090.txt"
    named = (
        "[titan] 2026-01-09 19:01:15,186 - root - INFO - CUDA capacity: NVIDIA GeForce RTX 4090 with 23.55GiB memory\n"
    )
    other.write_text(named + text(TITAN), encoding="utf-8")
    stored = _ok(cli, "--db", str(demo_db_path), "bench", "import", str(other), "--offer", "1", "--json")
    [entry] = stored["logs"]
    assert entry["results"] == [] and "not the H100 SXM5 sold" in entry["not_verified"]


def test_bandwidth_logs_are_evidence_without_a_metric(cli: Cli, demo_db_path: Path) -> None:
    logs = [str(FIXTURES / name) for name in (NVBW, ROCE)]
    stored = _ok(cli, "--db", str(demo_db_path), "bench", "import", *logs, "--offer", "2", "--json")
    assert [(e["tool"], e["results"]) for e in stored["logs"]] == [("nvbandwidth", []), ("ib_write_bw", [])]
    [(names,)] = sql(demo_db_path, "SELECT gpu_names FROM evidence WHERE tool = 'nvbandwidth'")
    assert (json.loads(names) if isinstance(names, str) else names) == ["NVIDIA H100 80GB HBM3"]
    # offer #2 sells 400 Gb/s per GPU: the RoCE run's 92.39 is under 320
    found = check(H100_NDR, [log(parse_log(text(NVBW)), NVBW, 1), log(parse_log(text(ROCE)), ROCE, 2)], CATALOG)
    assert codes(found) == {"ib-bandwidth-low"}
