"""``db check`` names a figure stored as verified that the offer's logs refuse (``bench_import.not_verified``): a
database an older version wrote keeps such a figure until ``bench recheck`` (or the offer's next ``bench import``)
withdraws it. Reproduced with the
shared logs: mamf-finder's MSMF sweep (log 33, 722 TFLOPS, names no GPU) verified on H100 offer #9, then an
nvidia-smi query of an H200 (log 11) stored beside it without withdrawing the figure, as a version before the
rule did."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
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


def test_db_check_names_the_figure_and_the_command_that_withdraws_it(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "db", "check").code == 0  # the demo market holds no such figure
    _wrongly_verified(cli, demo_db_path)
    [(sweep_id,)] = sql(demo_db_path, f"SELECT id FROM evidence WHERE filename = '{SWEEP.name}'")

    checked = cli("--db", db, "db", "check")
    assert checked.code == 2, checked.out
    assert checked.out.splitlines()[3:] == [
        f"a figure stored as verified that should not be: offer #9, evidence #{sweep_id} {SWEEP.name}: "
        f"gemm_tflops 722 TFLOPS ({WHY})",
        f"  to withdraw it: quotetui --db {db} bench recheck --offer 9",
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
            "mend": f"quotetui --db {db} bench recheck --offer 9",
        }
    ]
    # the check changed nothing: the figure is still there, and explain still counts it
    assert "verified GEMM 722 TFLOPS" in json.loads(cli("--db", db, "explain", "9", "--json").out)["mfu_note"]

    # the command it gives, run as printed from another folder (no log file there): it mends this database
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = Path.cwd()
    os.chdir(elsewhere)
    try:
        mended = cli(*shlex.split(checked.out.splitlines()[-1].split(": ", 1)[1])[1:])
    finally:
        os.chdir(here)
    assert mended.code == 0, mended.err
    assert mended.out.splitlines() == [
        "offer #9:",
        f"- evidence #{sweep_id} {SWEEP.name}: its figures no longer count as verified ({WHY})",
        "1 log's figures withdrawn",
    ]
    assert list(elsewhere.iterdir()) == []  # no database made where it ran
    assert sql(demo_db_path, "SELECT COUNT(*) FROM benchmark_result WHERE evidence_id IS NOT NULL") == [(0,)]
    assert sql(demo_db_path, "SELECT COUNT(*) FROM evidence WHERE offer_id = 9") == [(2,)]  # the logs stay
    explained = json.loads(cli("--db", db, "explain", "9", "--json").out)
    assert (explained["mfu_source"], explained["mfu_note"]) == (
        "default",
        "default 40 % of dense BF16 peak: no MFU verified",
    )
    assert sql(
        demo_db_path,
        "SELECT action, subject, via, offer_id FROM change_log WHERE entity = 'benchmark_result' ORDER BY id DESC "
        "LIMIT 1",
    ) == [("removed", "verified gemm_tflops", "cli: quotetui bench recheck", 9)]

    # a second run changes nothing, and the check passes
    again = cli("--db", db, "bench", "recheck")
    assert (again.code, again.out) == (0, "nothing to withdraw: no offer holds a verified figure measured from a log\n")
    assert json.loads(cli("--db", db, "bench", "recheck", "--offer", "9", "--json").out) == {
        "offers": [9],
        "withdrawn": [],
    }
    assert sql(demo_db_path, "SELECT COUNT(*) FROM change_log WHERE via = 'cli: quotetui bench recheck'") == [(1,)]
    passed = cli("--db", db, "db", "check")
    assert passed.code == 0 and "verified" not in passed.out


def test_the_mend_names_a_server_without_its_password() -> None:
    from quotetui.services.bench_import import WronglyVerified

    figure = WronglyVerified(9, 3, "33.txt", ("gemm_tflops 722 TFLOPS",), "why", "postgresql://buyer:s3cret@db/q")
    assert figure.mend == "quotetui --db 'postgresql://buyer:***@db/q' bench recheck --offer 9"
    assert WronglyVerified(9, 3, "33.txt", (), "why").mend == "quotetui bench recheck --offer 9"


def test_recheck_of_an_offer_that_does_not_exist(cli: Cli, demo_db_path: Path) -> None:
    done = cli("--db", str(demo_db_path), "bench", "recheck", "--offer", "999")
    assert done.code != 0 and "no offer #999 (offers are #1–#20)" in done.err


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
        f"  撤回方法：quotetui --db {demo_db_path} bench recheck --offer 9",
    ]
