"""What a person sees of the CLI: help that reads like prose, tables that keep their cells when piped, a quiet
end when the reader of a pipe has had enough, `contracts show` with every section its help promises, shares
as percentages and every amount with its currency."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from tests.conftest import Cli


# -- help ---------------------------------------------------------------------------------------------------
def _every_command() -> list[list[str]]:
    from quotetui.cli import app

    found = []

    def walk(command: object, path: list[str]) -> None:
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


def test_no_help_page_shows_typer_type_marks(cli: Cli) -> None:
    """No ``{OFFER_ID}``, ``<int>``, ``<str>`` in any usage line or argument or option name, in any command."""
    commands = _every_command()
    assert len(commands) > 40
    for path in commands:
        result = cli(*path, "--help")
        assert result.code == 0, (path, result.err)
        lines = result.out.splitlines()
        usage = lines[0]
        assert "{" not in usage and "<" not in usage, (path, usage)
        names = [line.split("  ")[0] for line in lines if line.startswith("  ") and not line.startswith("   ")]
        assert not [n for n in names if "<" in n or "{" in n], (path, names)


def test_arguments_and_values_are_named_in_words(cli: Cli) -> None:
    assert cli("round", "add", "--help").out.startswith("Usage: quotetui round add [OPTIONS] OFFER_ID\n")
    fx = cli("fx", "add", "--help").out
    assert fx.startswith("Usage: quotetui fx add [OPTIONS] BASE QUOTE RATE\n")
    assert "  --date DATE " in fx and "  --source TEXT " in fx
    invoice = cli("contracts", "invoice", "add", "--help").out
    assert invoice.startswith("Usage: quotetui contracts invoice add [OPTIONS] CONTRACT_ID\n")
    assert "\n  CONTRACT_ID  [required]\n" in invoice and "  --currency CODE " in invoice
    show = cli("contracts", "show", "--help").out
    assert show.startswith("Usage: quotetui contracts show [OPTIONS] ID\n") and "\n  ID  [required]\n" in show
    assert "  --nodes N " in cli("acceptance", "show", "--help").out  # an int range, not 'INT RANGE'


def test_an_option_help_does_not_repeat_its_label(cli: Cli) -> None:
    out = cli("round", "edit", "--help").out  # an edit: no default follows
    [line] = [line for line in out.splitlines() if "--quoted-at" in line]
    assert line.split("WHEN", 1)[1].strip() == "When (YYYY-MM-DD or date-time with offset)."
    gpu = " ".join(cli("offer", "edit", "--help").out.split())
    assert "GPU model: any name or alias: H100" in gpu and "alias): any name or alias" not in gpu
    assert "Term, months: 0 = on demand" in " ".join(cli("round", "edit", "--help").out.split())


# -- pipes --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["offers"], ["gpus"], ["scenario", "list"], ["explain", "9"], ["--help"]])
def test_a_reader_that_stops_early_ends_the_command_quietly(demo_db_path: Path, args: list[str]) -> None:
    """`quotetui offers | head -3`: the pipe is closed before the command writes (it is still starting), so
    every line it writes meets a closed pipe: status 0 and nothing on stderr, not Click's or Rich's status 1."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "quotetui", "--db", str(demo_db_path), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode()) == (0, "")


def test_a_piped_table_keeps_every_cell_whole(cli: Cli, demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output here is not a terminal (as under `| cat`): a table 80 columns could not hold is as wide
    as its cells, one line per row, nothing cut with '…' nor folded onto a second line."""
    monkeypatch.setenv("COLUMNS", "80")
    db = str(demo_db_path)
    name = "Very Long Provider Name For A Piped Table Test, Incorporated (Shenzhen Branch Office)"
    assert cli("--db", db, "provider", "add", "--name", name, "--kind", "lessor").code == 0
    out = cli("--db", db, "providers").out
    rows = out.splitlines()
    assert len(rows) == 1 + 6  # the header and the six providers
    assert any(name in row for row in rows) and "…" not in out
    certified = "增值电信业务经营许可证, 国家高新技术企业, 专精特新中小企业, NVIDIA NPN 成员"
    assert any(certified in row for row in rows)
    offers = cli("--db", db, "offers").out
    assert "…" not in offers and "一万网络 8×H100 SXM5 整机（官网价）" in offers


# -- contracts show -----------------------------------------------------------------------------------------
@pytest.fixture
def contract(cli: Cli, demo_db_path: Path) -> str:
    db = str(demo_db_path)
    args = ("contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "8")
    assert cli("--db", db, *args).code == 0
    return db


def test_contracts_show_says_each_section_even_when_it_is_empty(cli: Cli, contract: str) -> None:
    out = cli("--db", contract, "contracts", "show", "1", "--on", "2027-05-15").out
    assert out.splitlines()[:4] == [
        "Contract #1: 天下数据 8×H100 SXM 企业级",
        "  8 GPUs, 2026-06-01 → 2027-06-01 (12 months)",
        "  not accepted yet (quotetui acceptance show --contract 1)",
        "  price 250,000.00 CNY a node-month (monthly, round 1); monthly charge 250,000.00 CNY; billed monthly",
    ]
    assert "\nKey dates from 2027-05-15 (1):\n  2027-06-01 ends\n" in out
    assert "\nAvailability: no downtime recorded (12 months so far)\n" in out
    assert out.endswith("\nIncidents: none\nInvoices: none\n")


def test_contracts_show_lists_key_dates_months_incidents_and_invoices(cli: Cli, contract: str) -> None:
    """4 of 8 GPUs down for 12 hours in July (744 hours): 6 full hours, 1 − 6/744 = 99.194 % available."""
    db = contract
    add = ("--db", db, "contracts", "incident", "add", "1", "--description", "NVLink fault", "--gpus", "4")
    assert cli(*add, "--start", "2026-07-03T08:00+08:00", "--end", "2026-07-03T20:00+08:00").code == 0
    invoice = ("--db", db, "contracts", "invoice", "add", "1", "--currency", "CNY", "--from", "2026-06-01")
    paid = cli(*invoice, "--to", "2026-06-30", "--amount", "250000", "--paid")
    assert paid.out == "invoice #1: 250,000.00 CNY, expected 250,000.00 CNY: matches\n"
    assert cli(*invoice[:-1], "2026-07-01", "--to", "2026-07-31", "--amount", "250100").code == 0
    out = cli("--db", db, "contracts", "show", "1", "--on", "2026-08-15").out
    # payments on the first of September … May (9) and the end: 10 to come, 6 shown
    assert "\nKey dates from 2026-08-15 (10):\n  2026-09-01 payment\n" in out
    assert "\n  … and 4 more (`quotetui contracts due --within DAYS`)\n" in out
    assert (
        "\nAvailability and credits by month (months with an incident, UTC):\n"
        "  2026-07: 99.194 % available, credit 0 % = 0.00 CNY\n"
        "  credits owed 0.00 CNY, received 0.00 CNY\n"
    ) in out
    assert (
        "\nIncidents (1):\n"
        "  #1 2026-07-03 00:00+00:00 → 2026-07-03 12:00+00:00, 4 GPUs: NVLink fault (credit not claimed)\n"
    ) in out
    assert out.endswith(
        "\nInvoices (2):\n"
        "  #1 2026-06-01 – 2026-06-30: 250,000.00 CNY (expected 250,000.00 CNY) matches, paid\n"
        "  #2 2026-07-01 – 2026-07-31: 250,100.00 CNY (expected 250,000.00 CNY) OFF by +100.00 CNY, unpaid\n"
    )
    assert "  spent 500,100.00 CNY to date (250,000.00 CNY paid)\n" in out  # both periods begun, the first paid
    updated = cli("--db", db, "contracts", "incident", "update", "1", "--received", "1234.5")
    assert updated.out == "incident #1: credit claimed, 1,234.50 CNY received\n"


def test_contracts_show_json_has_the_agreed_terms(cli: Cli, contract: str) -> None:
    shown = json.loads(cli("--db", contract, "contracts", "show", "1", "--json").out)
    agreed = shown["agreed"]
    assert (agreed["round"], agreed["option"]["label"], agreed["sla"]) == (1, "monthly", None)
    assert agreed["discounts"] == []  # the demo's two discounts have no rate: not in the charge, not listed
    assert shown["monthly_charge"] == {"amount": "250000.00", "currency": "CNY"}  # unchanged


# -- shares and amounts -------------------------------------------------------------------------------------
def test_shares_print_as_percentages(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    settings = cli("--db", db, "settings").out
    assert "Default MFU (no evidence)      40 %" in settings and "Default availability (no SLA)  99 %" in settings
    assert json.loads(cli("--db", db, "settings", "--json").out)["default_mfu"]["value"] == "0.4"  # JSON as it was
    scenarios = cli("--db", db, "scenario", "list").out
    [a100] = [line for line in scenarios.splitlines() if line.startswith("A100")]
    assert re.search(r"  3 months +60 % +0\.5 TB/mo", a100), a100
    assert "Share of hours in use: 60 %\n" in cli("--db", db, "scenario", "show", "A100 微调 (8 卡, 3 个月, 60 %)").out
    explain = cli("--db", db, "explain", "9").out
    assert "\nMFU = 40 % of peak\n" in explain and "\nAvailability = 99 %\n" in explain
    assert "  · (1 − 99 %) × 8,760\n" in explain
    assert "42.8082 CNY ÷ (989 × 40 % × 99 % ÷ 1000)" in explain


def test_contract_listing_gives_every_amount_its_currency(cli: Cli, contract: str) -> None:
    [row] = cli("--db", contract, "contracts").out.splitlines()[1:]
    assert row.endswith("  250,000.00 CNY  0.00 CNY  0.00 CNY    0")  # monthly, spent, credits, invoices off


def test_counts_agree_with_their_nouns(cli: Cli, contract: str) -> None:
    due = cli("--db", contract, "contracts", "due", "--on", "2026-06-30").out
    assert "  2026-07-01      in 1 day  payment: contract #1" in due
    assert "  2026-08-01    in 32 days  payment: contract #1" in due
    late = cli("--db", contract, "contracts", "due", "--on", "2026-06-02").out
    assert "  2026-06-01     1 day ago  payment: contract #1" in late
    assert cli("--db", contract, "offers").out.startswith(
        "Scenario '8×H100 一年训练': 8 GPUs × 12 months at 100 % use;"
    )


def test_a_saved_amount_is_grouped_and_keeps_its_cents(cli: Cli, demo_db_path: Path) -> None:
    added = cli("--db", str(demo_db_path), "round", "add", "9", "--quoted-at", "2026-12-01", "--amount", "1234567.5")
    assert "amount 1,234,567.50, currency CNY" in added.out
