"""The command line as a new user meets it: JSON listings, exit statuses, clear one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui import __version__
from quotetui.store import migrate


def test_version(cli) -> None:  # type: ignore[no-untyped-def]
    result = cli("--version")
    assert result.code == 0 and result.out.strip() == f"quotetui {__version__}"


def test_demo_then_listings_as_json(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(db_path), "demo")
    assert result.code == 0, result.err
    assert "5 providers, 20 offers" in result.out

    providers = json.loads(cli("--db", str(db_path), "providers", "--json").out)
    names = {p["name"] for p in providers}
    assert {"一万网络", "阿里云", "天下数据", "腾讯云", "华为云"} <= names

    offers = json.loads(cli("--db", str(db_path), "offers", "--json").out)
    assert len(offers) >= 15
    h100 = next(o for o in offers if o["name"] == "8×A100 80GB SXM4 整机")
    assert h100["quoted_price"] == {
        "amount": "88000.00",
        "amount_high": None,
        "currency": "CNY",
        "unit": "node_month",
        "term_months": 1,
        "is_estimate": False,
    }
    ranged = next(o for o in offers if o["provider"] == "天下数据" and "H100" in o["gpu_model"])
    assert (ranged["quoted_price"]["amount"], ranged["quoted_price"]["amount_high"]) == ("220000.00", "250000.00")
    for offer in offers:  # every money value is an exact decimal string with its currency
        assert isinstance(offer["quoted_price"]["amount"], str) and offer["quoted_price"]["currency"] == "CNY"
        assert offer["currency"] == "CNY"
        for key in ("price_per_gpu_hour", "annualized_tco", "cost_per_pflop_hour", "mfu"):
            assert isinstance(offer[key], str)
            Decimal(offer[key])


def test_human_tables_show_cjk_names(cli, demo_db_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("--db", str(demo_db_path), "offers")
    assert result.code == 0
    assert "一万网络" in result.out and "960,000" in result.out and "8×H100 一年训练" in result.out
    assert "阿里云" in cli("--db", str(demo_db_path), "providers").out


def test_gpus_json(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    gpus = json.loads(cli("--db", str(db_path), "gpus", "--json").out)
    h100 = next(g for g in gpus if g["key"] == "h100-sxm5")
    assert h100["bf16_tflops"] == "989" and h100["topo_signature"] == "NV18"
    assert "NVIDIA H100 80GB HBM3" in h100["aliases"]


def test_demo_twice_refuses_then_reset_reloads(cli, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert cli("--db", str(db_path), "demo").code == 0
    again = cli("--db", str(db_path), "demo")
    assert again.code == 2 and "already loaded" in again.err and "--reset" in again.err
    assert "Traceback" not in again.err
    reset = cli("--db", str(db_path), "demo", "--reset")
    assert reset.code == 0 and reset.out.startswith("Reloaded")
    assert len(json.loads(cli("--db", str(db_path), "offers", "--json").out)) == 20
    assert len(json.loads(cli("--db", str(db_path), "providers", "--json").out)) == 5


def test_first_run_on_default_database_loads_demo_and_says_so(cli, isolated_user_dirs: Path) -> None:  # type: ignore[no-untyped-def]
    result = cli("providers", "--json")
    assert result.code == 0
    assert "Created a new database" in result.err and "Loaded the demo market" in result.err
    assert any(p["name"] == "一万网络" for p in json.loads(result.out))
    second = cli("providers", "--json")
    assert second.err == ""  # only the first run says anything
    assert (isolated_user_dirs / ".local" / "share" / "quotetui" / "quotetui.db").exists()


@pytest.mark.sqlite_only  # SQLite storage details
def test_env_var_names_the_database(cli, db_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("QUOTETUI_DB", str(db_path))
    assert cli("demo").code == 0
    assert db_path.exists()


def test_corrupt_database_exits_2_with_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "garbage.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    text = tmp_path / "readme.txt"
    text.write_text("hello")
    for path in (bad, text):
        proc = subprocess.run(
            [sys.executable, "-m", "quotetui", "--db", str(path), "offers"], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and "not a quotetui database" in lines[0]
        assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_usage_errors_exit_2(cli) -> None:  # type: ignore[no-untyped-def]
    assert cli("offers", "--nope").code == 2
    assert cli("no-such-command").code == 2


@pytest.mark.sqlite_only  # SQLite storage details
def test_db_backup_and_check(cli, demo_db_path: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dest = tmp_path / "copy.db"
    result = cli("--db", str(demo_db_path), "db", "backup", str(dest))
    assert result.code == 0 and dest.exists()
    check = json.loads(cli("--db", str(dest), "db", "check", "--json").out)
    assert check == {
        "ok": True,
        "integrity": ["ok"],
        "foreign_key_violations": 0,
        "revision": migrate.head_revision(),
        "head": migrate.head_revision(),
        "up_to_date": True,
        "unknown_codes": [],
        "wrongly_verified": [],
        "disagreeing_extras": [],
    }
    offers = json.loads(cli("--db", str(dest), "offers", "--json").out)
    assert len(offers) == 20
    again = cli("--db", str(demo_db_path), "db", "backup", str(dest))
    assert again.code == 2 and "already exists" in again.err
    missing = cli("--db", str(tmp_path / "none.db"), "db", "check")
    assert missing.code == 2 and "no database at" in missing.err
    assert not (tmp_path / "none.db").exists()


def test_internal_errors_exit_1_without_traceback(cli, monkeypatch, db_path: Path) -> None:  # type: ignore[no-untyped-def]
    import quotetui.services.market as market

    def boom(db):  # type: ignore[no-untyped-def]
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(market, "list_providers", boom)
    result = cli("--db", str(db_path), "providers")
    assert result.code == 1
    assert "internal error: RuntimeError: simulated bug" in result.err and "Traceback" not in result.err
