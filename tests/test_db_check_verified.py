"""``db check`` names a figure stored as verified that the offer's logs refuse (``bench_import.not_verified``): a
database an older version wrote keeps such a figure until the offer's next ``bench import``. Reproduced with the
shared logs: mamf-finder's MSMF sweep (log 33, 722 TFLOPS, names no GPU) verified on H100 offer #9, then an
nvidia-smi query of an H200 (log 11) stored beside it without withdrawing the figure, as a version before the
rule did."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tests.conftest import Cli, sql

SHARED = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
SWEEP = SHARED / "33-mamf-msmf-format-h200-mamfreadme.txt"
H200_QUERY = SHARED / "11-smi-query-h200-250fields-exporter.txt"

WHY = (
    "it names no GPU, and the offer's other logs say H200 SXM reported, H100 SXM5 sold: not shown to be the H100 "
    "SXM5 sold, kept as evidence, not a verified figure"
)


def _wrongly_verified(cli: Cli, db: Path) -> None:
    """The sweep verified (nothing said otherwise then), then the H200 listing stored through the store layer
    alone, as an older ``bench import`` stored it: the sweep's figure stays verified."""
    from quotetui.services.database import open_database
    from quotetui.store.models import Evidence

    done = cli("--db", str(db), "bench", "import", str(SWEEP), "--offer", "9")
    assert done.code == 0, done.err
    raw = H200_QUERY.read_text(encoding="utf-8")
    opened = open_database(str(db))
    try:
        with opened.db.write() as session:
            session.add(
                Evidence(
                    offer_id=9,
                    sha256=hashlib.sha256(raw.encode()).hexdigest(),
                    tool="nvidia-smi",
                    gpu_names=["NVIDIA H200"],
                    filename=H200_QUERY.name,
                    raw=raw,
                )
            )
    finally:
        opened.db.dispose()
    assert sql(db, "SELECT metric, provenance FROM benchmark_result WHERE evidence_id IS NOT NULL") == [
        ("gemm_tflops", "verified")
    ]


def test_db_check_names_the_figure_and_the_command_that_withdraws_it(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "db", "check").code == 0  # the demo market holds no such figure
    _wrongly_verified(cli, demo_db_path)
    [(sweep_id,)] = sql(demo_db_path, f"SELECT id FROM evidence WHERE filename = '{SWEEP.name}'")

    checked = cli("--db", db, "db", "check")
    assert checked.code == 2, checked.out
    assert checked.out.splitlines()[3:] == [
        f"a figure stored as verified that should not be: offer #9, evidence #{sweep_id} {SWEEP.name}: "
        f"gemm_tflops 722 TFLOPS ({WHY})",
        f"  to withdraw it: quotetui bench import {SWEEP.name} --offer 9 (the log imported again is stored once)",
    ]
    report = json.loads(cli("--db", db, "db", "check", "--json").out)
    assert report["ok"] is False and report["unknown_codes"] == []
    assert report["wrongly_verified"] == [
        {
            "offer_id": 9,
            "evidence_id": sweep_id,
            "log": SWEEP.name,
            "figures": ["gemm_tflops 722 TFLOPS"],
            "not_verified": WHY,
            "mend": f"quotetui bench import {SWEEP.name} --offer 9",
        }
    ]
    # the check changed nothing: the figure is still there, and explain still counts it
    assert "verified GEMM 722 TFLOPS" in json.loads(cli("--db", db, "explain", "9", "--json").out)["mfu_note"]

    # the command it gives, run where the log's copy is, withdraws the figure and the check passes
    here = Path.cwd()
    os.chdir(SHARED)
    try:
        mended = cli("--db", db, "bench", "import", SWEEP.name, "--offer", "9")
    finally:
        os.chdir(here)
    assert mended.code == 0, mended.err
    assert f"- evidence #{sweep_id} {SWEEP.name}: its figures no longer count as verified ({WHY})" in mended.out
    assert sql(demo_db_path, "SELECT COUNT(*) FROM benchmark_result WHERE evidence_id IS NOT NULL") == [(0,)]
    again = cli("--db", db, "db", "check")
    assert again.code == 0 and "verified" not in again.out
    assert json.loads(cli("--db", db, "explain", "9", "--json").out)["mfu_source"] == "default"


def test_a_figure_its_logs_bear_out_is_not_named(cli: Cli, demo_db_path: Path) -> None:
    """The same sweep with an nvidia-smi query of the H100 sold: verified, and rightly so."""
    db = str(demo_db_path)
    h100 = SHARED / "10-smi-query-h100-mig-250fields-exporter.txt"
    assert cli("--db", db, "bench", "import", str(SWEEP), str(h100), "--offer", "9").code == 0
    assert sql(demo_db_path, "SELECT COUNT(*) FROM benchmark_result WHERE provenance = 'verified'") == [(1,)]
    report = json.loads(cli("--db", db, "db", "check", "--json").out)
    assert (report["ok"], report["wrongly_verified"]) == (True, [])


def test_db_check_in_chinese(cli: Cli, demo_db_path: Path) -> None:
    _wrongly_verified(cli, demo_db_path)
    [(sweep_id,)] = sql(demo_db_path, f"SELECT id FROM evidence WHERE filename = '{SWEEP.name}'")
    checked = cli("--db", str(demo_db_path), "--lang", "zh-CN", "db", "check")
    assert checked.code == 2
    assert checked.out.splitlines()[3:] == [
        f"不应记为已验证的数据：报价 #9，证据 #{sweep_id} {SWEEP.name}：GEMM TFLOPS 722 TFLOPS（该日志未写明 GPU，"
        "而该报价的其他日志发现：日志报告为 H200 SXM，报价所售为 H100 SXM5；无法证明来自所售的 H100 SXM5，"
        "仅作为证据保留，不计为已验证数据）",
        f"  撤回方法：quotetui bench import {SWEEP.name} --offer 9（再次导入该日志不会重复保存）",
    ]
