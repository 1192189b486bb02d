"""Dates that contradict what they belong to are refused by one rule, whichever front end or import brings
them: an incident outside its contract's term, an invoice for days outside it, a negotiation round dated
before the round it follows, an exchange rate dated in the future. The CLI names the flag (exit 2), the TUI's
form path (the same service) names the field, an import names the sheet's row; nothing is saved."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from quotetui.domain.errors import FieldErrors
from quotetui.domain.timeutil import local_day, utcnow
from quotetui.services.contract_forms import save_incident, save_invoice
from quotetui.services.database import open_database
from quotetui.services.editing import revision_form, save_revision
from quotetui.services.fx import add_rate
from tests.conftest import Cli, dump, sql

# the demo's offer #9 (天下数据 8×H100 SXM 企业级): one round, quoted 2026-11-30 00:00 in Beijing
ROUND_1 = "2026-11-29 16:00+00:00"


@pytest.fixture
def contract(cli: Cli, demo_db_path: Path) -> Path:
    """A 12-month contract on offer #9 from 2026-06-01: its term is 2026-06-01 to 2027-05-31 (UTC)."""
    args = ("contracts", "add", "--offer", "9", "--start", "2026-06-01", "--term-months", "12", "--gpus", "8")
    result = cli("--db", str(demo_db_path), *args)
    assert result.code == 0, result.err
    return demo_db_path


def _count(db: Path, table: str) -> int:
    [(n,)] = sql(db, f"SELECT COUNT(*) FROM {table}")
    return int(n)  # type: ignore[call-overload]


# -- incidents ----------------------------------------------------------------------------------------------
def test_cli_refuses_an_incident_before_the_term_naming_the_flag_and_the_start(cli: Cli, contract: Path) -> None:
    result = cli(
        "--db", str(contract), "contracts", "incident", "add", "1", "--start", "2025-01-01T08:00+08:00",
        "--end", "2025-01-01T09:00+08:00", "--description", "x",
    )  # fmt: skip
    assert result.code == 2
    assert result.err == (
        "quotetui: --start: 2025-01-01 00:00+00:00 is before the contract's term starts (2026-06-01)\n"
    )
    assert _count(contract, "incident") == 0


def test_cli_refuses_an_incident_after_the_term_and_takes_one_on_its_last_day(cli: Cli, contract: Path) -> None:
    add = ("--db", str(contract), "contracts", "incident", "add", "1", "--description", "x", "--start")
    after = cli(*add, "2027-06-01T00:00Z")  # the day a renewal would begin: not this term
    assert after.code == 2
    assert "--start: 2027-06-01 00:00+00:00 is after the contract's term ends (last day 2027-05-31)" in after.err
    assert _count(contract, "incident") == 0
    last = cli(*add, "2027-05-31T23:59Z", "--end", "2027-06-01T02:00Z")  # may run past the end
    assert last.code == 0, last.err
    assert _count(contract, "incident") == 1


def test_the_tui_incident_form_is_refused_by_the_same_rule(contract: Path) -> None:
    db = open_database(str(contract)).db
    raw = {"started_at": "2026-05-31T23:00Z", "ended_at": "2026-06-01T01:00Z", "description": "x"}
    with pytest.raises(FieldErrors) as caught:
        save_incident(db, 1, raw)
    assert caught.value.errors == {
        "started_at": "2026-05-31 23:00+00:00 is before the contract's term starts (2026-06-01)"
    }
    assert save_incident(db, 1, raw | {"started_at": "2026-06-01T00:00Z"}) == 1  # the first minute is in
    db.dispose()


def test_the_term_runs_from_midnight_in_the_users_time_zone(cli: Cli, contract: Path) -> None:
    """In Beijing the term starts at 2026-06-01 00:00+08:00, which is 2026-05-31 16:00 UTC."""
    assert cli("--db", str(contract), "settings", "set", "--time-zone", "Asia/Shanghai").code == 0
    add = ("--db", str(contract), "contracts", "incident", "add", "1", "--description", "x", "--start")
    early = cli(*add, "2026-05-31T15:59Z")
    assert early.code == 2
    assert "--start: 2026-05-31 23:59+08:00 is before the contract's term starts (2026-06-01)" in early.err
    assert cli(*add, "2026-05-31T16:00Z").code == 0


# -- invoices -----------------------------------------------------------------------------------------------
def test_cli_refuses_an_invoice_for_days_outside_the_term(cli: Cli, contract: Path) -> None:
    add = ("--db", str(contract), "contracts", "invoice", "add", "1", "--amount", "250000", "--currency", "CNY")
    late = cli(*add, "--from", "2027-05-01", "--to", "2027-06-01")
    assert late.code == 2
    assert late.err == "quotetui: --to: 2027-06-01 is after the contract's term ends (last day 2027-05-31)\n"
    early = cli(*add, "--from", "2026-05-01", "--to", "2026-05-31")
    assert early.code == 2
    assert early.err == "quotetui: --from: 2026-05-01 is before the contract's term starts (2026-06-01)\n"
    backwards = cli(*add, "--from", "2026-07-31", "--to", "2026-07-01")  # the rule that was there already
    assert backwards.code == 2 and "--to: the period ends (2026-07-01) before it starts (2026-07-31)" in backwards.err
    assert _count(contract, "invoice") == 0
    assert cli(*add, "--from", "2027-05-01", "--to", "2027-05-31").code == 0  # the last month is in


def test_the_tui_invoice_form_is_refused_by_the_same_rule(contract: Path) -> None:
    db = open_database(str(contract)).db
    raw = {"period_start": "2027-06-01", "period_end": "2027-06-30", "amount": "250000", "currency": "CNY"}
    with pytest.raises(FieldErrors) as caught:
        save_invoice(db, 1, raw)
    assert caught.value.errors == {"period_start": "2027-06-01 is after the contract's term ends (last day 2027-05-31)"}
    with pytest.raises(FieldErrors) as negative:  # amounts are 0 or more in both front ends
        save_invoice(db, 1, raw | {"period_start": "2026-06-01", "period_end": "2026-06-30", "amount": "-1"})
    assert list(negative.value.errors) == ["amount"]
    db.dispose()
    assert _count(contract, "invoice") == 0


def test_a_negative_credit_is_refused_in_both_front_ends(cli: Cli, contract: Path) -> None:
    add = ("--db", str(contract), "contracts", "incident", "add", "1", "--description", "x")
    result = cli(*add, "--start", "2026-07-01T00:00Z", "--received", "-5")
    assert result.code == 2 and "--received" in result.err
    db = open_database(str(contract)).db
    with pytest.raises(FieldErrors) as caught:
        save_incident(db, 1, {"started_at": "2026-07-01T00:00Z", "description": "x", "received": "-5"})
    assert list(caught.value.errors) == ["received"]
    db.dispose()
    assert _count(contract, "incident") == 0


# -- negotiation rounds -------------------------------------------------------------------------------------
def test_cli_refuses_a_round_dated_before_the_previous_one(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    result = cli("--db", db, "round", "add", "9", "--quoted-at", "2020-01-01", "--amount", "200000")
    assert result.code == 2
    assert result.err == (
        f"quotetui: --quoted-at: 2020-01-01 00:00+00:00 is before round 1 ({ROUND_1}): "
        "a round is dated on or after the rounds before it\n"
    )
    assert sql(demo_db_path, "SELECT COUNT(*) FROM quote_revision WHERE offer_id = 9") == [(1,)]
    # the same day (UTC) as round 1 is in order, whatever the hour
    assert cli("--db", db, "round", "add", "9", "--quoted-at", "2026-11-29", "--amount", "200000").code == 0


def test_cli_refuses_a_round_edit_that_moves_it_past_the_next_round(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    added = cli("--db", db, "round", "add", "9", "--quoted-at", "2026-12-01", "--amount", "200000", "--json")
    assert added.code == 0, added.err
    [(first,)] = sql(demo_db_path, "SELECT id FROM quote_revision WHERE offer_id = 9 AND seq = 1")
    moved = cli("--db", db, "round", "edit", str(first), "--quoted-at", "2026-12-02")
    assert moved.code == 2
    assert moved.err == (
        "quotetui: --quoted-at: 2026-12-02 00:00+00:00 is after round 2 (2026-12-01 00:00+00:00): "
        "a round is dated on or before the rounds after it\n"
    )
    [(kept,)] = sql(demo_db_path, f"SELECT quoted_at FROM quote_revision WHERE id = {first}")
    # SQLite keeps the text, PostgreSQL a timestamp: either way round 1 is still 2026-11-29 16:00 UTC
    assert (kept if isinstance(kept, str) else kept.strftime("%Y-%m-%d %H:%M:%S.%f")) == "2026-11-29 16:00:00.000000"


def test_a_round_dated_after_today_is_refused_everywhere(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    """A round from the future would become the offer's current price (a 5 CNY node-month ranked the offer
    second) and refuse every round recorded before its day."""
    db = str(demo_db_path)
    before = sql(demo_db_path, "SELECT COUNT(*) FROM quote_revision")
    today = utcnow().date()
    later = (today + timedelta(days=1)).isoformat()
    added = cli("--db", db, "round", "add", "9", "--quoted-at", later, "--amount", "5")
    assert added.code == 2
    assert added.err == (
        f"quotetui: --quoted-at: {later} is after today ({today.isoformat()}): record a round once it is quoted\n"
    )
    assert cli("--db", db, "round", "add", "9", "--quoted-at", today.isoformat(), "--amount", "200000").code == 0
    sheet = tmp_path / "negotiation.csv"
    sheet.write_text(
        "provider,offer,round,quoted_at,mover,price,unit,currency,term_months\n"
        f"天下数据,8×H100 SXM 企业级,9,{later},provider,5,node_month,CNY,1\n",
        encoding="utf-8",
    )
    imported = cli("--db", db, "import", str(sheet))
    assert imported.code == 2 and "record a round once it is quoted" in imported.err, imported.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM quote_revision")[0][0] == before[0][0] + 1


def test_the_tui_round_form_is_refused_by_the_same_rule(demo_db: object) -> None:
    from quotetui.domain.enums import Mover

    spec = revision_form(demo_db, 9, Mover.COUNTER)  # type: ignore[arg-type]
    with pytest.raises(FieldErrors) as caught:
        save_revision(demo_db, 9, spec.values | {"quoted_at": "2026-11-28T23:00Z", "amount": "200000"})  # type: ignore[arg-type]
    assert caught.value.errors == {
        "quoted_at": f"2026-11-28 23:00+00:00 is before round 1 ({ROUND_1}): "
        "a round is dated on or after the rounds before it"
    }


ROUND_HEAD = "provider,offer,round,mover,quoted_at,price,unit,currency,term_months\n"
OFFER_9 = "天下数据,8×H100 SXM 企业级"


def test_an_import_of_rounds_out_of_order_names_each_row_and_writes_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """Round 2 before the stored round 1; rounds 3 and 4 of the file in the wrong order with each other."""
    before = dump(demo_db_path)
    path = tmp_path / "negotiation.csv"
    path.write_text(
        ROUND_HEAD + f"{OFFER_9},2,provider,2026-11-01,240000,node_month,CNY,1\n"
        f"{OFFER_9},3,counter,2026-12-01,200000,node_month,CNY,1\n"
        f"{OFFER_9},4,provider,2026-11-30,230000,node_month,CNY,1\n",
        encoding="utf-8",
    )
    result = cli("--db", str(demo_db_path), "import", str(path), "--json")
    assert result.code == 2
    problems = [(p["row"], p["column"], p["reason"]) for p in json.loads(result.out)["problems"]]
    assert problems == [
        (2, "column 'quoted_at'", f"2026-11-01 00:00+00:00 is before round 1 ({ROUND_1}): "
         "a round is dated on or after the rounds before it"),
        (3, "column 'quoted_at'", "2026-12-01 00:00+00:00 is after round 4 (2026-11-30 00:00+00:00): "
         "a round is dated on or before the rounds after it"),
        (4, "column 'quoted_at'", "2026-11-30 00:00+00:00 is before round 3 (2026-12-01 00:00+00:00): "
         "a round is dated on or after the rounds before it"),
    ]  # fmt: skip
    assert dump(demo_db_path) == before


# -- exchange rates -----------------------------------------------------------------------------------------
def test_cli_refuses_a_rate_dated_in_the_future(cli: Cli, demo_db_path: Path) -> None:
    from datetime import timedelta

    from quotetui.domain.timeutil import utcnow

    # A rate may be dated up to today in the user's zone (the demo's is UTC) or in Beijing's (UTC+8, no daylight
    # saving), whichever is later: from 16:00 UTC that is already tomorrow in UTC.
    today = max(utcnow().date(), (utcnow() + timedelta(hours=8)).date()).isoformat()
    result = cli("--db", str(demo_db_path), "fx", "add", "USD", "CNY", "7.1", "--date", "2099-01-01", "--source", "x")
    assert result.code == 2
    assert result.err == f"quotetui: --date: 2099-01-01 is after today ({today}): record a rate once it is known\n"
    assert _count(demo_db_path, "fx_rate") == 0
    assert cli("--db", str(demo_db_path), "fx", "add", "USD", "CNY", "7.1", "--date", today, "--source", "x").code == 0


def test_the_rate_service_refuses_it_by_field(demo_db: object) -> None:
    with pytest.raises(FieldErrors) as caught:
        add_rate(demo_db, "USD", "CNY", "7.1", "2099-01-01", "x")  # type: ignore[arg-type]
    assert list(caught.value.errors) == ["as_of"] and "2099-01-01 is after today" in caught.value.errors["as_of"]


def test_an_import_with_a_future_rate_names_its_row_and_writes_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "fx.csv"
    path.write_text("base,quote,rate,as_of,source\nUSD,CNY,7.1,2026-01-02,bank\nUSD,CNY,7.2,2099-01-01,guess\n")
    result = cli("--db", str(demo_db_path), "import", str(path), "--json")
    assert result.code == 2
    [problem] = json.loads(result.out)["problems"]
    assert (problem["row"], problem["column"]) == (3, "column 'as_of'")
    assert problem["reason"].startswith("2099-01-01 is after today (")
    assert _count(demo_db_path, "fx_rate") == 0  # the good row is not written either: all or nothing


def test_a_bare_date_after_today_is_refused_west_of_utc_too(cli: Cli, demo_db_path: Path) -> None:
    """In Los Angeles a bare 'tomorrow' is stored as 00:00 UTC, which is still today there: it was accepted."""
    db = str(demo_db_path)
    assert cli("--db", db, "settings", "set", "--time-zone", "America/Los_Angeles").code == 0
    today = local_day(utcnow(), "America/Los_Angeles")
    tomorrow = (today + timedelta(days=1)).isoformat()
    result = cli("--db", db, "round", "add", "9", "--quoted-at", tomorrow, "--amount", "200000")
    assert result.code == 2
    assert f"--quoted-at: {tomorrow} is after today ({today.isoformat()})" in result.err
    assert cli("--db", db, "round", "add", "9", "--quoted-at", today.isoformat(), "--amount", "200000").code == 0
