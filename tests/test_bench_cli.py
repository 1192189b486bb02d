"""``bench import`` / ``bench check`` end to end on the demo market: evidence stored once, all or nothing,
findings as JSON, and a verified GEMM changing the cost per delivered PFLOP-hour."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import Cli, sql

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"
BROKEN = Path(__file__).parent / "fixtures" / "benchlogs"


def _ok(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out)


def _counts(db: Path) -> tuple[object, object]:
    [(evidence,)] = sql(db, "SELECT COUNT(*) FROM evidence")
    [(verified,)] = sql(db, "SELECT COUNT(*) FROM benchmark_result WHERE provenance = 'verified'")
    return evidence, verified


def test_import_stores_raw_text_hash_tool_host_and_gpu_names_once(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    logs = [str(p) for p in sorted((SAMPLES / "h100-clean").iterdir())]
    report = _ok(cli, "--db", db, "bench", "import", *logs, "--offer", "1", "--json")
    assert (report["added"], report["duplicates"]) == (10, 0)
    assert _counts(demo_db_path) == (10, 4)  # three AllReduce runs and one GEMM sweep give figures
    [(tool, host, names, raw, sha, offer)] = sql(
        demo_db_path,
        "SELECT tool, host, gpu_names, raw, sha256, offer_id FROM evidence WHERE filename = 'all_reduce_perf.txt'",
    )
    assert (tool, host, offer) == ("nccl-tests all_reduce_perf", "gpu-node-01", 1)
    assert (json.loads(names) if isinstance(names, str) else names) == ["NVIDIA H100 80GB HBM3"]
    assert raw == (SAMPLES / "h100-clean" / "all_reduce_perf.txt").read_text()
    import hashlib

    # the digest of the run: its text with line ends and blanks around lines normalised (one run, one piece of evidence)
    # (and of the machine it ran on: two identical nodes print one log twice, two pieces of evidence)
    # and a last line that could be a shell prompt (nccl-tests' closing lone "#") left out, as a paste's prompt is
    normalised = "\n".join(line.strip() for line in raw.replace("\r\n", "\n").split("\n")).strip("\n")
    normalised = normalised.removesuffix("\n#").rstrip("\n")
    assert isinstance(raw, str) and sha == hashlib.sha256(f"host {host}\n{normalised}".encode()).hexdigest()

    again = _ok(cli, "--db", db, "bench", "import", *logs, "--offer", "1", "--json")
    assert (again["added"], again["duplicates"]) == (0, 10)
    assert _counts(demo_db_path) == (10, 4)
    # the same log for another offer (an identical node) is that offer's evidence too
    other = _ok(cli, "--db", db, "bench", "import", logs[0], "--offer", "2", "--json")
    assert other["added"] == 1


def test_one_bad_log_stores_nothing(cli: Cli, demo_db_path: Path) -> None:
    before = _counts(demo_db_path)
    result = cli(
        "--db",
        str(demo_db_path),
        "bench",
        "import",
        str(SAMPLES / "slow-gemm" / "gemm.txt"),
        str(BROKEN / "gpu_burn-cut.txt"),
        str(BROKEN / "topo-garbled.txt"),
        "--offer",
        "1",
    )
    assert result.code == 2
    assert "2 logs cannot be imported; nothing was stored" in result.err
    assert "gpu_burn-cut.txt, line 21" in result.err and "topo-garbled.txt, line 5" in result.err
    assert _counts(demo_db_path) == before


def test_unknown_offer_and_missing_file(cli: Cli, demo_db_path: Path) -> None:
    gemm = str(SAMPLES / "slow-gemm" / "gemm.txt")
    result = cli("--db", str(demo_db_path), "bench", "import", gemm, "--offer", "999")
    assert result.code == 2 and "no offer #999" in result.err
    result = cli("--db", str(demo_db_path), "bench", "import", "/nonexistent/log.txt", "--offer", "1")
    assert result.code == 2 and "/nonexistent/log.txt" in result.err
    assert _counts(demo_db_path) == (0, 0)


def test_check_json_lists_findings_with_code_severity_evidence(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    logs = [str(p) for p in sorted((SAMPLES / "pcie-as-sxm").iterdir())]
    _ok(cli, "--db", db, "bench", "import", *logs, "--offer", "18", "--json")
    report = _ok(cli, "--db", db, "bench", "check", "--offer", "18", "--json")
    found = {f["code"]: f for f in report["findings"]}
    assert set(found) == {"pcie-topology", "model-mismatch", "allreduce-low"}
    assert all(f["severity"] == "critical" for f in found.values())
    assert found["allreduce-low"]["evidence"][0].startswith("all_reduce_perf.txt: busbw 38.00 GB/s")
    assert found["model-mismatch"]["evidence_ids"]
    assert [log["tool"] for log in report["logs"]] == [
        "nccl-tests all_reduce_perf",
        "nvidia-smi query",
        "nvidia-smi topo -m",
    ]
    text = cli("--db", db, "bench", "check", "--offer", "18")
    assert "✗ CRITICAL pcie-topology: 28 of 28 GPU pairs talk over PCIe" in text.out


def test_demo_market_findings_without_logs(cli: Cli, demo_db_path: Path) -> None:
    """DESIGN 4.4: the 1×A100 40G at ¥2,800/month is far below the market; 一万网络's claims are optimistic."""
    db = str(demo_db_path)
    cheap = _ok(cli, "--db", db, "bench", "check", "--offer", "8", "--json")
    [price] = cheap["findings"]
    assert price["code"] == "price-below-market" and "3.84 CNY per GPU-hour" in price["explanation"]
    assert cheap["logs"] == []
    own = _ok(cli, "--db", db, "bench", "check", "--offer", "1", "--json")
    assert {f["code"] for f in own["findings"]} == {"implausible-claim"}
    tencent = _ok(cli, "--db", db, "bench", "check", "--offer", "18", "--json")
    assert tencent["findings"] == []


def test_price_below_market_uses_cloud_catalogs_when_imported(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    market = Path(__file__).parent / "fixtures" / "market"
    _ok(cli, "--db", db, "import", str(market / "skypilot-lambda-vms.csv"), "--as-of", "2026-11-01", "--json")
    assert cli("--db", db, "fx", "add", "USD", "CNY", "7.10", "--date", "2026-11-01", "--source", "test").code == 0
    report = _ok(cli, "--db", db, "bench", "check", "--offer", "8", "--json")
    [price] = report["findings"]
    assert "cloud catalog listings (lambda)" in price["evidence"][0]
    assert report["market"]["basis"].endswith("(lambda)")


def test_a_verified_gemm_replaces_the_assumed_mfu(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    before = _ok(cli, "--db", db, "explain", "18", "--json")
    assert before["mfu_source"] == "default"
    _ok(cli, "--db", db, "bench", "import", str(SAMPLES / "h100-clean" / "gemm.txt"), "--offer", "18", "--json")
    healthy = _ok(cli, "--db", db, "explain", "18", "--json")
    assert healthy["mfu"] == before["mfu"] and "confirms the GPU" in healthy["mfu_note"]
    assert healthy["cost_per_pflop_hour"] == before["cost_per_pflop_hour"]

    _ok(cli, "--db", db, "bench", "import", str(SAMPLES / "slow-gemm" / "gemm.txt"), "--offer", "18", "--json")
    slow = _ok(cli, "--db", db, "explain", "18", "--json")
    assert slow["mfu_source"] == "verified"
    # 40 % × (600.4 / 989 ÷ 80 %) = 30.36 %; the cost per PFLOP-hour rises by the same factor
    from decimal import Decimal

    factor = Decimal("600.4") / Decimal("989") / Decimal("0.8")
    assert abs(Decimal(slow["mfu"]) - Decimal("0.4") * factor) < Decimal("1e-6")
    assert abs(Decimal(slow["cost_per_pflop_hour"]) - Decimal(before["cost_per_pflop_hour"]) / factor) < Decimal("0.01")
    assert "verified GEMM 600.4 TFLOPS is 60.7 %" in slow["mfu_note"]


SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
H200_SWEEP = str(SHARED / "33-mamf-msmf-format-h200-mamfreadme.txt")  # mamf-finder's MSMF 722 TFLOPS, no device named
H200_QUERY = str(SHARED / "11-smi-query-h200-250fields-exporter.txt")  # nvidia-smi: NVIDIA H200, 143771 MiB


def test_a_sweep_naming_no_gpu_is_not_verified_once_the_offers_logs_show_another_model(
    cli: Cli, demo_db_path: Path
) -> None:
    """Offer #9 sells H100s. A GEMM sweep that names no device is verified while nothing says otherwise; once an
    nvidia-smi listing of the trial machine shows an H200, the sweep is not shown to be the model sold: its figure is
    withdrawn, and explain, the ranking and bench check agree (default MFU, a model-mismatch)."""
    db = str(demo_db_path)
    alone = _ok(cli, "--db", db, "bench", "import", H200_SWEEP, "--offer", "9", "--json")
    assert alone["logs"][0]["results"] == ["gemm_tflops 722 TFLOPS"]
    assert "verified GEMM 722 TFLOPS" in _ok(cli, "--db", db, "explain", "9", "--json")["mfu_note"]

    result = cli("--db", db, "bench", "import", H200_QUERY, "--offer", "9")
    assert result.code == 0, result.err
    assert (
        "- evidence #1 33-mamf-msmf-format-h200-mamfreadme.txt: its figures no longer count as verified (it names no "
        "GPU, and the offer's other logs say H200 SXM reported, H100 SXM5 sold: not shown to be the H100 SXM5 sold, "
        "kept as evidence, not a verified figure)"
    ) in result.out
    assert sql(demo_db_path, "SELECT COUNT(*) FROM benchmark_result WHERE evidence_id IS NOT NULL") == [(0,)]
    after = _ok(cli, "--db", db, "explain", "9", "--json")
    assert (after["mfu_source"], after["mfu"]) == ("default", "0.4")
    [ranked] = [o for o in _ok(cli, "--db", db, "offers", "--json") if o["id"] == 9]
    assert ranked["mfu"] == "0.4"
    check = _ok(cli, "--db", db, "bench", "check", "--offer", "9", "--json")
    assert "H200 SXM reported, H100 SXM5 sold" in [f["title"] for f in check["findings"]]


def test_a_sweep_naming_no_gpu_imported_with_a_listing_of_another_model_is_evidence_only(
    cli: Cli, demo_db_path: Path
) -> None:
    db = str(demo_db_path)
    report = _ok(cli, "--db", db, "bench", "import", H200_SWEEP, H200_QUERY, "--offer", "1", "--json")
    assert [log["results"] for log in report["logs"]] == [[], []]
    assert report["logs"][0]["not_verified"].startswith("it names no GPU, and the offer's other logs say H200 SXM")
    assert _ok(cli, "--db", db, "explain", "1", "--json")["mfu_source"] != "verified"


def test_the_export_shows_the_same_findings(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    db = str(demo_db_path)
    pcie = [str(p) for p in (SAMPLES / "pcie-as-sxm").iterdir()]
    _ok(cli, "--db", db, "bench", "import", *pcie, "--offer", "18", "--json")
    _ok(cli, "--db", db, "bench", "import", str(SAMPLES / "h100-clean" / "gemm.txt"), "--offer", "1", "--json")
    out = tmp_path / "board.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    book = load_workbook(out, read_only=True)
    sheet = list(book["Findings"].iter_rows(values_only=True))
    assert sheet[0][:5] == ("provider", "offer", "severity", "code", "finding")
    exported = {(r[1], r[3], r[4]) for r in sheet[1:]}
    for offer_id in (1, 8, 18):
        check = _ok(cli, "--db", db, "bench", "check", "--offer", str(offer_id), "--json")
        name = check["offer"].split(" ", 1)[1]
        assert {(name, f["code"], f["title"]) for f in check["findings"]} <= exported
    assert ("GN10Xp 8×H100 80GB（包月）", "pcie-topology", "28 of 28 GPU pairs talk over PCIe") in exported

    bench = list(book["Benchmarks"].iter_rows(values_only=True))
    header = list(bench[0])
    at = {
        name: header.index(name) for name in ("provenance", "metric", "of datasheet peak", "evidence", "offer findings")
    }
    [gemm] = [r for r in bench[1:] if r[at["provenance"]] == "verified" and r[at["metric"]] == "gemm_tflops"]
    assert abs(gemm[at["of datasheet peak"]] - 792.8 / 989) < 1e-6
    assert gemm[at["evidence"]].startswith("gemm sweep on ?: gemm.txt, sha256 ")
    assert gemm[at["offer findings"]] == "! 3× implausible-claim"  # #1's three optimistic claims, counted
    # the AllReduce ran on H100 PCIe, not the H100 SXM5 sold: evidence for its findings, never a verified figure
    assert not [r for r in bench[1:] if r[at["provenance"]] == "verified" and r[at["metric"]] == "allreduce_busbw"]
    findings = {r[3] for r in sheet[1:] if r[1] == "GN10Xp 8×H100 80GB（包月）"}
    assert {"allreduce-low", "model-mismatch", "pcie-topology"} <= findings

    # the workbook still imports: the Findings sheet is computed, verified rows come from logs only
    result = cli("--db", str(tmp_path / "new.db"), "import", str(out), "--json")
    assert result.code == 0, result.out


def test_a_gemm_sweep_from_another_device_never_sets_the_offers_mfu(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    before = _ok(cli, "--db", db, "explain", "18", "--json")
    sweep = (SAMPLES / "slow-gemm" / "gemm.txt").read_text(encoding="utf-8")
    amd = tmp_path / "mamf-igpu.txt"  # an interrupted run on a laptop's AMD iGPU, imported for the H100 offer
    amd.write_text(sweep.replace("name='NVIDIA H100 80GB HBM3'", "name='AMD Radeon 780M'"), encoding="utf-8")
    stored = _ok(cli, "--db", db, "bench", "import", str(amd), "--offer", "18", "--json")
    [log] = stored["logs"]
    assert log["results"] == [] and "measured on 'AMD Radeon 780M', not the H100 SXM5 sold" in log["not_verified"]
    after = _ok(cli, "--db", db, "explain", "18", "--json")
    assert after["mfu"] == before["mfu"] and after["mfu_source"] == "default"  # not a "verified" 30 % (or 1.1 %)
    found = _ok(cli, "--db", db, "bench", "check", "--offer", "18", "--json")
    assert any(f["code"] == "model-mismatch" and "AMD Radeon 780M" in f["title"] for f in found["findings"])


def test_a_multi_host_all_reduce_is_kept_as_evidence_not_as_an_nvlink_figure(cli: Cli, demo_db_path: Path) -> None:
    shared = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
    stored = _ok(cli, "--db", str(demo_db_path), "bench", "import",
                 str(shared / "19-nccl-h100-2node-2gpu-each-dgx06.txt"), "--offer", "1", "--json")  # fmt: skip
    [log] = stored["logs"]
    assert log["results"] == [] and "an AllReduce across 2 hosts: a scale-out measurement" in log["not_verified"]
    one = _ok(cli, "--db", str(demo_db_path), "bench", "import",
              str(shared / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt"), "--offer", "9", "--json")  # fmt: skip
    assert one["logs"][0]["results"] == ["allreduce_busbw 480.16 GB/s"] and one["logs"][0]["not_verified"] is None


def test_a_multi_host_all_reduce_is_shown_against_the_offers_nics(cli: Cli, demo_db_path: Path) -> None:
    a3 = str(Path(__file__).parent / "fixtures" / "benchlogs" / "shared" / "07-nccl-h100-16rank-2node-a3mega.txt")
    db = str(demo_db_path)
    # offer #2 sells 8×H100 on NDR at 400 Gb/s per GPU: NVLink's 450 GB/s binds; 338.82 / 450 = 75.3 %
    _ok(cli, "--db", db, "bench", "import", a3, "--offer", "2", "--json")
    [log] = _ok(cli, "--db", db, "bench", "check", "--offer", "2", "--json")["logs"]
    assert log["summary"] == (
        "scale-out: 16 ranks on 2 hosts, busbw 338.82 GB/s at 8,589,934,592 B = 75.3 % of the 450.00 GB/s bound "
        "(NVLink)"
    )
    # offer #13 records 12.5 Gb/s per GPU: 8 × 12.5 / 8 = 12.5 GB/s a host, × 15·2/16 = 23.44; the run is far above
    _ok(cli, "--db", db, "bench", "import", a3, "--offer", "13", "--json")
    report = _ok(cli, "--db", db, "bench", "check", "--offer", "13", "--json")
    assert report["logs"][0]["summary"].endswith(
        "= 1445.6 % of the 23.44 GB/s bound (NICs) (above it: in-network reduction, or the offer's NIC figure is wrong)"
    )
    assert "scale-out-low" not in {f["code"] for f in report["findings"]}
    # offer #1 records no NIC figure: shown, not judged
    _ok(cli, "--db", db, "bench", "import", a3, "--offer", "1", "--json")
    [one] = _ok(cli, "--db", db, "bench", "check", "--offer", "1", "--json")["logs"]
    assert one["summary"].endswith("(NIC Gb/s per GPU not recorded: not judged)")


def test_a_file_of_two_tools_is_stored_as_two_logs(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    shared = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
    nccl = (shared / "06-nccl-h100-8gpu-1node-healthy-exemplar.txt").read_text(encoding="utf-8")
    dcgm = (shared / "14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt").read_text(encoding="utf-8")
    run = tmp_path / "probe-run.txt"  # `all_reduce_perf … >> run.txt; dcgmi diag -r 3 >> run.txt`
    run.write_text(nccl + dcgm, encoding="utf-8")
    n = len(nccl.splitlines())
    db = str(demo_db_path)
    stored = _ok(cli, "--db", db, "bench", "import", str(run), "--offer", "1", "--json")
    assert [(log["log"], log["tool"]) for log in stored["logs"]] == [
        (f"{run} lines 1–{n}", "nccl-tests all_reduce_perf"),
        (f"{run} lines {n + 1}–{n + len(dcgm.splitlines())}", "dcgmi diag"),
    ]
    assert stored["logs"][0]["results"] == ["allreduce_busbw 480.16 GB/s"]
    found = {f["code"] for f in _ok(cli, "--db", db, "bench", "check", "--offer", "1", "--json")["findings"]}
    assert "hardware-fault" in found  # the DCGM failure after a healthy AllReduce is not lost
    again = _ok(cli, "--db", db, "bench", "import", str(run), "--offer", "1", "--json")
    assert again["added"] == 0 and again["duplicates"] == 2


def test_an_impossible_or_other_dtype_figure_is_never_verified(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    fixtures = Path(__file__).parent / "fixtures" / "benchlogs"
    titan = (fixtures / "torchtitan-h100-llama3-8b-bf16.txt").read_text(encoding="utf-8")
    edited = tmp_path / "titan-5000.txt"
    edited.write_text(re.sub(r"tflops: [\d.]+", "tflops: 5000.00", titan), encoding="utf-8")
    sweep = (SAMPLES / "h100-clean" / "gemm.txt").read_text(encoding="utf-8")
    fp32 = tmp_path / "fp32.txt"
    fp32.write_text(sweep.replace("bfloat16", "float32"), encoding="utf-8")
    db = str(demo_db_path)
    stored = _ok(cli, "--db", db, "bench", "import", str(edited), str(fp32), "--offer", "1", "--json")
    first, second = stored["logs"]
    assert first["results"] == [] and "(an MFU above 100 %): an impossible measurement" in first["not_verified"]
    assert second["results"] == [] and second["not_verified"].startswith("a float32 sweep, not a BF16 one")
    assert _counts(demo_db_path) == (2, 0)
    report = _ok(cli, "--db", db, "bench", "check", "--offer", "1", "--json")
    assert "impossible-measurement" in {f["code"] for f in report["findings"]}


def test_a_utf16_log_and_a_file_name_with_a_line_break(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    listing = (SAMPLES / "h100-clean" / "smi-list.txt").read_text(encoding="utf-8")
    u16 = tmp_path / "smi-list-powershell.txt"
    u16.write_bytes(listing.encode("utf-16"))  # PowerShell's `nvidia-smi -L > file`: UTF-16 with its BOM
    odd = tmp_path / "node\n1.txt"
    odd.write_text(listing, encoding="utf-8")
    db = str(demo_db_path)
    stored = _ok(cli, "--db", db, "bench", "import", str(u16), "--offer", "9", "--json")
    assert stored["logs"][0]["tool"] == "nvidia-smi -L"
    text = cli("--db", db, "bench", "import", str(odd), "--offer", "2")
    assert text.code == 0 and "node␤1.txt" in text.out and "node\n1.txt" not in text.out
    ib = Path(__file__).parent / "fixtures" / "benchlogs" / "ib_write_bw-roce-mlx5_0.txt"
    _ok(cli, "--db", db, "bench", "import", str(ib), "--offer", "9", "--json")  # offer 9 records no NIC figure
    logs = _ok(cli, "--db", db, "bench", "check", "--offer", "9", "--json")["logs"]
    assert logs[-1]["summary"].endswith("(NIC Gb/s per GPU not recorded: not judged)")


def test_chinese_bench_words_join_as_chinese_does(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """zh-CN: the formats a refusal lists name each with its programs in a full-width aside; a scale-out run's
    asides follow one another without a blank; codes and their meanings line up by terminal cells; logs are 份."""
    db = str(demo_db_path)
    zh = ("--db", db, "--lang", "zh-CN")
    text = tmp_path / "hostname"
    text.write_text("node01\n")
    refused = cli(*zh, "bench", "import", str(text), "--offer", "9")
    assert refused.code == 2
    assert "quotetui: 1 份日志无法导入；未保存任何内容：" in refused.err
    assert (
        "、perftest（ib_write_bw、ib_read_bw、ib_send_bw、ib_*_lat）、p2pBandwidthLatencyTest、"
        "训练日志（Megatron-LM、torchtitan）、gemm sweep、"
    ) in refused.err
    assert "、nccl-tests all_reduce_perf（-J）、nvbandwidth（-j）以及探测脚本结果包" in refused.err
    assert "(" not in refused.err.split("可读取：")[1]

    added = cli(*zh, "bench", "import", str(SHARED / "07-nccl-h100-16rank-2node-a3mega.txt"), "--offer", "9")
    assert "报价 #9：新增 1 份日志，0 份此前已有记录" in added.out
    check = cli(*zh, "bench", "check", "--offer", "9").out
    assert (
        "跨机：2 台主机共 16 个 rank，busbw 338.82 GB/s（8,589,934,592 B）（未记录每 GPU 的网卡 Gb/s：不作判定）"
    ) in check

    codes = cli("--lang", "zh-CN", "bench", "codes").out.splitlines()
    from quotetui.language.cells import width

    assert codes[0].startswith("vgpu" + " " * 20 + "vGPU 分片")
    assert codes[4].startswith("impossible-measurement  实测值")
    assert len({width(line[: line.index(line.split()[1])]) for line in codes}) == 1  # the words: one column
