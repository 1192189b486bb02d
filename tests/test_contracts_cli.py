"""A contract's life through the CLI: accept an offer, key dates, the calendar, incidents and credits,
invoices against the agreed price; bad input is a clear error that saves nothing."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui.services.database import open_database
from quotetui.services.editing import save_sla
from tests.conftest import Cli, execute, sql


def _ok(cli: Cli, *args: str) -> dict:  # type: ignore[type-arg]
    result = cli(*args)
    assert result.code == 0, result.err
    return json.loads(result.out) if "--json" in args else {"out": result.out}


def _count(db: Path, table: str) -> int:
    [(n,)] = sql(db, f"SELECT COUNT(*) FROM {table}")
    return int(n)  # type: ignore[call-overload]


@pytest.fixture
def signed(cli: Cli, demo_db_path: Path) -> Path:
    """一万网络's 8×H100 (#2): an SLA with credits, then 16 GPUs for 12 months from 31 January 2026."""
    opened = open_database(str(demo_db_path))
    save_sla(opened.db, 2, {"availability": "99.9", "preemption": "none", "credits": "99.9:10, 99:25"})
    opened.db.dispose()
    _ok(
        cli, "--db", str(demo_db_path), "contracts", "add", "--offer", "2", "--start", "2026-01-31",
        "--term-months", "12", "--notice-days", "30", "--auto-renew", "--reference", "YW-H100-01",
        "--gpus", "16", "--committed", "2448000", "--json",
    )  # fmt: skip
    return demo_db_path


def test_accept_snapshots_the_agreed_terms(cli: Cli, signed: Path) -> None:
    db = str(signed)
    c = _ok(cli, "--db", db, "contracts", "show", "1", "--json")
    assert (c["start"], c["end"], c["term_months"]) == ("2026-01-31", "2027-01-31", 12)
    assert (c["notice_deadline"], c["auto_renew"], c["renewal_term_months"]) == ("2027-01-01", True, 12)
    # 8–12万 a node-month costed at the high end, annual prepay 15 % off, 2 nodes
    assert c["monthly_charge"] == {"amount": "204000.00", "currency": "CNY"}
    assert c["price"] == {"amount": "120000.00", "currency": "CNY", "unit": "node_month"}
    offers = _ok(cli, "--db", db, "offers", "--json")
    assert all(o["id"] != 2 or o["status"] == "accepted" for o in offers) or not any(o["id"] == 2 for o in offers)
    # later edits to the offer change nothing in the contract
    execute(signed, "UPDATE discount SET rate = rate * 2 WHERE offer_id = 2")
    execute(signed, "DELETE FROM sla_credit_tier")
    again = _ok(cli, "--db", db, "contracts", "show", "1", "--json")
    assert again["monthly_charge"] == c["monthly_charge"] and again["key_dates"] == c["key_dates"]


def test_month_end_start_and_key_dates(cli: Cli, signed: Path) -> None:
    db = str(signed)
    c = _ok(cli, "--db", db, "contracts", "show", "1", "--json")
    payments = [k["date"] for k in c["key_dates"] if k["kind"] == "payment"]
    assert payments[:4] == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"] and len(payments) == 12
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-10", "--json")
    assert [k["date"] for k in due["within_30_days"]] == ["2026-12-31", "2027-01-01"]
    notice = due["within_30_days"][1]
    assert (notice["kind"], notice["days_left"]) == ("notice deadline", 22)
    assert "renews for 12 months on 2027-01-31" in notice["detail"]
    assert [(k["kind"], k["days_left"]) for k in due["within_31_to_90_days"]] == [("renews", 52)]
    [unpaid] = due["overdue"]  # every monthly payment so far is unpaid: one reminder for the contract
    assert unpaid["date"] == "2026-01-31"
    said = "11 payment dates passed with no paid invoice (2026-01-31, 2026-02-28, 2026-03-31 and 8 more)"
    assert unpaid["detail"] == said
    _ok(cli, "--db", db, "contracts", "invoice", "add", "1", "--from", "2026-01-31", "--to", "2026-02-27",
        "--amount", "204000", "--currency", "CNY", "--paid")  # fmt: skip
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-10", "--json")
    [unpaid] = due["overdue"]
    assert unpaid["date"] == "2026-02-28"
    said = "10 payment dates passed with no paid invoice (2026-02-28, 2026-03-31, 2026-04-30 and 7 more)"
    assert unpaid["detail"] == said
    short = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-10", "--within", "20", "--json")
    assert short["within_30_days"] == [] and short["within_31_to_20_days"] == []
    text = cli("--db", db, "contracts", "due", "--on", "2026-12-10").out
    assert "2027-01-01    in 22 days  notice deadline: YW-H100-01" in text


def test_missed_notice_deadline_is_overdue_until_the_term_ends(cli: Cli, signed: Path) -> None:
    due = _ok(cli, "--db", str(signed), "contracts", "due", "--on", "2027-01-10", "--json")
    assert any(k["kind"] == "notice deadline" and k["days_left"] == -9 for k in due["overdue"])
    after = _ok(cli, "--db", str(signed), "contracts", "due", "--on", "2027-02-10", "--json")
    assert not any(k["kind"] == "notice deadline" for group in after.values() for k in group)


def test_an_incident_across_two_months_and_its_credits(cli: Cli, signed: Path) -> None:
    db = str(signed)
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", "--start", "2026-02-28T04:00:00+08:00",
        "--end", "2026-03-01T12:00:00+08:00", "--gpus", "8", "--description", "NVLink fault", "--json")  # fmt: skip
    c = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-03-31", "--json")
    feb, mar = c["months"][1], c["months"][2]
    # 27 Feb 20:00Z → 1 Mar 04:00Z on half the GPUs: 14 h of February's 672, 2 h of March's 744
    assert feb["downtime_hours"] == "14.0000" and feb["availability"] == "0.979167"
    assert (feb["credit_rate"], feb["credit"]) == ("0.2500", "51000.00")  # below 99 %: 25 % of 204,000
    assert mar["downtime_hours"] == "2.0000" and (mar["credit_rate"], mar["credit"]) == ("0.1000", "20400.00")
    assert c["credits_owed"] == "71400.00" and c["credits_received"] == "0.00"
    cli("--db", db, "contracts", "incident", "update", "1", "--received", "51000")
    c = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-03-31", "--json")
    assert c["incidents"][0]["claimed"] is True and c["credits_received"] == "51000.00"


def test_sla_months_and_incident_times_follow_the_users_time_zone(cli: Cli, signed: Path) -> None:
    db = str(signed)
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", "--start", "2026-02-28T04:00:00+08:00",
        "--end", "2026-03-01T12:00:00+08:00", "--gpus", "8", "--description", "NVLink fault", "--json")  # fmt: skip
    assert cli("--db", db, "settings", "set", "--time-zone", "Asia/Shanghai").code == 0
    c = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-03-31", "--json")
    feb, mar = c["months"][1], c["months"][2]
    # Beijing months: 28 Feb 04:00 → 1 Mar 00:00 is 20 h, then 12 h of March, on half the GPUs: 10 h and 6 h
    assert feb["downtime_hours"] == "10.0000" and feb["availability"] == "0.985119"  # 1 − 10/672
    assert mar["downtime_hours"] == "6.0000" and mar["availability"] == "0.991935"  # 1 − 6/744
    assert (feb["credit"], mar["credit"]) == ("51000.00", "20400.00")  # still below 99 % and 99.9 %
    text = cli("--db", db, "contracts", "show", "1", "--on", "2026-03-31").out
    assert "2026-02-28 04:00+08:00 → 2026-03-01 12:00+08:00" in text
    assert c["incidents"][0]["started_at"] == "2026-02-27T20:00:00+00:00"  # JSON times stay UTC


def test_invoices_against_the_agreed_price(cli: Cli, signed: Path) -> None:
    db = str(signed)
    base = ("--db", db, "contracts", "invoice", "add", "1", "--currency", "CNY", "--json")
    exact = _ok(cli, *base, "--from", "2026-01-31", "--to", "2026-02-27", "--amount", "204000.00")
    assert (exact["expected"], exact["off"]) == ("204000.00", False)
    cent = _ok(cli, *base, "--from", "2026-02-28", "--to", "2026-03-30", "--amount", "204000.01")
    assert cent["off"] is True and cent["variance"] == "0.01"
    assert cent["spend_to_date"] == "408000.01" and cent["committed_spend"] == "2448000.00"
    text = cli("--db", db, "contracts", "show", "1").out
    assert "OFF by +0.01 CNY" in text
    assert "spent 408,000.01 CNY to date (0.00 CNY paid) of a committed 2,448,000.00 CNY (16.7 %)" in text


def test_a_one_cent_tolerance(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-01", "--term-months", "3",
        "--tolerance", "0.01", "--json")  # fmt: skip
    base = ("--db", db, "contracts", "invoice", "add", "1", "--currency", "CNY", "--json")
    inside = _ok(cli, *base, "--from", "2026-01-01", "--to", "2026-01-31", "--amount", "80000.01")
    outside = _ok(cli, *base, "--from", "2026-02-01", "--to", "2026-02-28", "--amount", "79999.98")
    assert (inside["off"], outside["off"]) == (False, True) and outside["variance"] == "-0.02"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ("--start", "2026-02-30", "--term-months", "12"),
            "'--start': '2026-02-30' is not a day of the calendar: 2026-02 has 28 days",
        ),
        (("--start", "2026-01-01", "--term-months", "0"), "'--term-months': must be at least 1"),
        (("--start", "9999-12-31", "--term-months", "12"), "'--start': 9999-12-31 is outside the years 1900–2199"),
        (("--start", "2026-01-01", "--term-months", "1", "--gpus", "9" * 25), "'--gpus': must be at most 1,000,000"),
        (("--start", "2026-01-01", "--term-months", "1", "--notice-days", "45"), "longer than the 1-month term"),
        (("--start", "2026-01-01", "--term-months", "1", "--signed", "2026-03-01"), "after the term ends"),
        (("--start", "2026-01-01", "--term-months", "1", "--billing", "weekly"), "--billing"),
        (("--start", "2026-01-01", "--term-months", "1", "--revision", "9"), "no round 9"),
        (("--start", "2026-01-01", "--term-months", "1", "--committed", "1.0000001"), "decimal places"),
    ],
)
def test_bad_contract_input_saves_nothing(cli: Cli, demo_db_path: Path, args: tuple[str, ...], words: str) -> None:
    result = cli("--db", str(demo_db_path), "contracts", "add", "--offer", "2", *args)
    assert result.code == 2 and words in result.err, result.err
    assert _count(demo_db_path, "contract") == 0


def test_bad_incidents_and_invoices_save_nothing(cli: Cli, signed: Path) -> None:
    db = str(signed)
    incident = ("--db", db, "contracts", "incident", "add", "1", "--description", "x")
    cases = [
        ((*incident, "--start", "2026-03-02T00:00:00Z", "--end", "2026-03-01T00:00:00Z"), "ends"),
        ((*incident, "--start", "2026-03-02T00:00:00"), "has no time zone"),
        ((*incident, "--start", "yesterday"), "is not a date (YYYY-MM-DD) or a date-time with an offset"),
        ((*incident, "--start", "2026-03-02T00:00:00Z", "--gpus", "17"), "17 GPUs affected"),
        (("--db", db, "contracts", "incident", "add", "9", "--description", "x", "--start", "2026-03-02T00:00Z"),
         "no contract #9"),
    ]  # fmt: skip
    invoice = ("--db", db, "contracts", "invoice", "add", "1", "--amount", "1")
    cases += [
        ((*invoice, "--currency", "CNY", "--from", "2026-03-31", "--to", "2026-03-01"), "before it starts"),
        ((*invoice, "--currency", "USD", "--from", "2026-03-01", "--to", "2026-03-31"),
         "--currency: the contract is in CNY; an invoice in USD cannot be checked against it"),
        ((*invoice, "--currency", "ZZZ", "--from", "2026-03-01", "--to", "2026-03-31"),
         "'--currency': unknown currency 'ZZZ'"),
        ((*invoice, "--currency", "CNY", "--from", "2026-02-30", "--to", "2026-03-31"),
         "'2026-02-30' is not a day of the calendar: 2026-02 has 28 days"),
        ((*invoice, "--currency", "CNY", "--from", "2028-2-30", "--to", "2028-03-31"),
         "'2028-2-30' is not a day of the calendar: 2028-02 has 29 days"),
        ((*invoice, "--currency", "CNY", "--from", "2026-13-01", "--to", "2026-03-31"),
         "'2026-13-01' is not a date (YYYY-MM-DD)"),
    ]  # fmt: skip
    for args, words in cases:
        result = cli(*args)
        assert result.code == 2 and words in result.err, (args, result.err)
    assert _count(signed, "incident") == 0 and _count(signed, "invoice") == 0
    for command in (("contracts", "show", "1"), ("acceptance", "show", "--contract", "1")):  # one day parser
        shown = cli("--db", db, *command, "--on", "2026-04-31")
        assert shown.code == 2 and "'2026-04-31' is not a day of the calendar: 2026-04 has 30 days" in shown.err
    zh = cli("--db", db, "--lang", "zh-CN", "acceptance", "accept", "--contract", "1", "--on", "2026-02-29")
    assert zh.code == 2 and "“2026-02-29”不是日历上的日期：2026年2月只有 28 天" in zh.err
    dup = cli("--db", db, "contracts", "add", "--offer", "1", "--start", "2026-01-01", "--term-months", "1",
              "--reference", "YW-H100-01")  # fmt: skip
    assert dup.code == 2 and "exists already" in dup.err and _count(signed, "contract") == 1


def test_calendar_export_parses_back_with_the_same_events(cli: Cli, signed: Path, tmp_path: Path) -> None:
    from icalendar import Calendar

    db = str(signed)
    out = tmp_path / "dates.ics"
    assert cli("--db", db, "contracts", "ics", str(out)).code == 0
    events = [e for e in Calendar.from_ical(out.read_bytes()).walk("VEVENT")]
    show = _ok(cli, "--db", db, "contracts", "show", "1", "--json")
    expected = {(k["date"], f"{k['kind']}: {k['subject']}") for k in show["key_dates"]}
    got = {(e.decoded("dtstart").isoformat(), str(e["summary"])) for e in events}
    assert expected <= got and len(events) == len(got)
    notice = next(e for e in events if str(e["summary"]).startswith("notice deadline"))
    assert str(notice["uid"]) == "contract-1-notice-deadline-2027-01-01@quotetui"
    alarm = notice.walk("VALARM")[0]
    assert alarm.decoded("trigger").days == -14
    # re-exporting keeps every UID: a calendar updates the events instead of duplicating them
    again = tmp_path / "again.ics"
    cli("--db", db, "contracts", "ics", str(again))
    uids = {str(e["uid"]) for e in Calendar.from_ical(again.read_bytes()).walk("VEVENT")}
    assert uids == {str(e["uid"]) for e in events} and len(uids) == len(events)


def test_the_calendar_is_written_as_of_a_day_as_the_key_dates_are_shown(cli: Cli, signed: Path, tmp_path: Path) -> None:
    """``contracts ics --on DAY`` writes the key dates ``contracts show --on DAY`` lists (the hint for a misplaced
    ``--on`` names this very command), and the events of another day differ only as the key dates do."""
    from icalendar import Calendar

    db = str(signed)
    misplaced = cli("--db", db, "contracts", "--on", "2027-03-01", "ics", str(tmp_path / "x.ics"))
    assert misplaced.code == 2 and "`quotetui contracts ics --on …`" in misplaced.err
    for day in ("2026-06-01", "2027-03-01"):
        out = tmp_path / f"{day}.ics"
        assert cli("--db", db, "contracts", "ics", str(out), "--on", day).code == 0
        events = Calendar.from_ical(out.read_bytes()).walk("VEVENT")
        show = _ok(cli, "--db", db, "contracts", "show", "1", "--on", day, "--json")
        expected = {(k["date"], f"{k['kind']}: {k['subject']}") for k in show["key_dates"]}
        assert {(e.decoded("dtstart").isoformat(), str(e["summary"])) for e in events} >= expected
        assert len(events) == len({str(e["uid"]) for e in events})
    bad = cli("--db", db, "contracts", "ics", str(tmp_path / "bad.ics"), "--on", "2027-02-30")
    assert bad.code == 2 and "--on" in bad.err and not (tmp_path / "bad.ics").exists()


def test_the_contracts_sheet_of_the_export(
    cli: Cli, signed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sheet as of 1 December 2026 (the export has no ``--on``): the next key date is read on that day."""
    from datetime import UTC, datetime

    from openpyxl import load_workbook

    import quotetui.services.export_data as export_data

    monkeypatch.setattr(export_data, "utcnow", lambda: datetime(2026, 12, 1, 9, 30, tzinfo=UTC))

    db = str(signed)
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", "--start", "2026-02-27T20:00:00Z",
        "--end", "2026-03-01T04:00:00Z", "--gpus", "8", "--description", "NVLink fault", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "invoice", "add", "1", "--from", "2026-01-31", "--to", "2026-02-27",
        "--amount", "204000.01", "--currency", "CNY", "--json")  # fmt: skip
    out = tmp_path / "board.xlsx"
    assert cli("--db", db, "export", str(out)).code == 0
    sheet = list(load_workbook(out, read_only=True)["Contracts"].iter_rows(values_only=True))
    row = dict(zip(sheet[0], sheet[1], strict=False))  # a read-only row stops at its last value
    assert (row["reference"], row["provider"], row["GPUs"], row["term months"]) == ("YW-H100-01", "一万网络", 16, 12)
    assert row["monthly charge"] == 204000 and row["committed spend"] == 2448000
    assert row["spent to date"] == 204000.01 and abs(row["of commitment"] - 204000.01 / 2448000) < 1e-6
    assert row["SLA credits owed"] == 71400 and row["incidents"] == 1 and row["invoices off"] == 1
    assert row["notice deadline"].date().isoformat() == "2027-01-01" and row["auto-renew"] is True
    assert row["next key date"] is not None and row["next"]


def test_the_agreed_charge_counts_extras_like_the_engine(cli: Cli, demo_db_path: Path) -> None:
    """Flat, per-node and per-hour extras count at full use; one in another currency at the dated rate (or a
    clear error without one); egress, billed by use, is not predicted."""
    from quotetui.services.editing import save_extra

    opened = open_database(str(demo_db_path))
    for kind, basis, amount, currency in (
        ("support", "per_month", "1000", "CNY"),
        ("support", "per_hour", "1", "CNY"),
        ("platform_fee", "per_month", "100", "USD"),  # one extra per kind and basis (``EXTRA.natural_key``)
    ):
        save_extra(opened.db, 18, {"kind": kind, "basis": basis, "amount": amount, "currency": currency})
    save_extra(opened.db, 18, {"kind": "egress", "basis": "per_gb", "amount": "0.5", "currency": "CNY"})
    opened.db.dispose()
    add = (
        "--db",
        str(demo_db_path),
        "contracts",
        "add",
        "--offer",
        "18",
        "--start",
        "2026-01-01",
        "--term-months",
        "3",
    )
    missing = cli(*add)
    assert missing.code == 2 and "USD" in missing.err and _count(demo_db_path, "contract") == 0
    assert (
        cli("--db", str(demo_db_path), "fx", "add", "USD", "CNY", "7.1", "--date", "2025-12-31", "--source", "t").code
        == 0
    )
    c = _ok(cli, *add, "--json")
    # 80,000 a node-month; 1,000 + 1 × 730 hours + 100 USD × 7.1 = 2,440 a month of extras
    assert c["monthly_charge"] == {"amount": "82440.00", "currency": "CNY"}


def test_the_same_outage_recorded_twice_is_refused(cli: Cli, signed: Path) -> None:
    db = str(signed)
    first = ("--start", "2026-03-10T00:00Z", "--end", "2026-03-10T10:00Z", "--gpus", "8")
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", *first, "--description", "node 2 down")
    # the same instants written in Beijing time, with another description: still the same outage
    again = cli("--db", db, "contracts", "incident", "add", "1", "--start", "2026-03-10T08:00+08:00",
                "--end", "2026-03-10T18:00+08:00", "--gpus", "8", "--description", "node 2 again")  # fmt: skip
    assert again.code == 2 and "incident #1 already records this outage" in again.err
    assert _count(signed, "incident") == 1
    # another 8 GPUs down in the same hours is a second outage (16 of 16 GPUs: 10 hours of full outage)
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", *first[:4], "--nodes", "1", "--description", "node 1")
    month = next(m for m in _ok(cli, "--db", db, "contracts", "show", "1", "--json")["months"]
                 if m["month"] == "2026-03")  # fmt: skip
    assert month["downtime_hours"] == "10.0000"
    # an open incident closed at the same end as #1 (same start and GPUs) would be #1 again: refused, left open
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", *first[:2], *first[4:], "--description", "open")
    closed = cli("--db", db, "contracts", "incident", "update", "3", "--end", "2026-03-10T10:00Z")
    assert closed.code == 2 and "incident #1 already records this outage" in closed.err
    [(end,)] = sql(signed, "SELECT ended_at FROM incident WHERE id = 3")
    assert end is None


def test_listing_flags_before_a_subcommand_are_refused_not_ignored(cli: Cli, signed: Path) -> None:
    db = str(signed)
    late = cli("--db", db, "contracts", "--on", "2027-06-01", "due")
    assert late.code == 2 and "--on before `due` would be ignored: put it after it" in late.err
    shown = cli("--db", db, "contracts", "--json", "show", "1")
    assert shown.code == 2 and "--json before `show` would be ignored" in shown.err
    assert cli("--db", db, "contracts", "due", "--on", "2027-06-01").code == 0  # where it belongs


def test_show_lists_the_next_key_dates_and_the_incidents(cli: Cli, signed: Path) -> None:
    db = str(signed)
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", "--start", "2026-03-10T00:00Z", "--end",
        "2026-03-10T10:00Z", "--gpus", "8", "--description", "node 2 down")  # fmt: skip
    shown = cli("--db", db, "contracts", "show", "1", "--on", "2026-12-15").out
    incident = "  #1 2026-03-10 00:00+00:00 → 2026-03-10 10:00+00:00, 8 GPUs: node 2 down (credit not claimed)"
    assert f"Incidents (1):\n{incident}\n" in shown
    assert "2027-01-01 notice deadline" in shown
    days = [line.split()[0] for line in shown.splitlines() if line.startswith("  20") and line[12:13] == " "]
    assert days and days == sorted(days) and days[0] >= "2026-12-15"  # the next key dates, from the as-of day


def test_a_contract_cannot_cover_more_gpus_than_the_offer_has(cli: Cli, demo_db_path: Path) -> None:
    execute(demo_db_path, "UPDATE offer SET nodes_available = 4 WHERE id = 2")  # 4 nodes × 8 = 32 GPUs on offer
    db = str(demo_db_path)
    args = ("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-06-01", "--term-months", "12")
    refused = cli(*args, "--gpus", "1000")
    assert refused.code != 0 and "--gpus: 1,000 GPUs, but the offer has 4 nodes × 8 = 32 GPUs on offer" in refused.err
    assert sql(demo_db_path, "SELECT COUNT(*) FROM contract") == [(0,)]
    assert cli(*args, "--gpus", "32").code == 0  # all of it is fine


def test_a_day_is_billed_once(cli: Cli, signed: Path) -> None:
    """The same invoice recorded twice counted June's spend twice: an invoice sharing a day with another of the
    contract is refused, naming it; the next period is taken."""
    db = str(signed)
    base = ("--db", db, "contracts", "invoice", "add", "1", "--currency", "CNY", "--amount", "204000")
    _ok(cli, *base, "--from", "2026-06-01", "--to", "2026-06-30")
    again = cli(*base, "--from", "2026-06-30", "--to", "2026-07-29")  # one shared day
    assert again.code == 2
    assert again.err == (
        "quotetui: --from: 2026-06-30 – 2026-07-29 overlaps invoice #1 (2026-06-01 – 2026-06-30): a day is billed "
        "once; correct that invoice instead\n"
    )
    assert _count(signed, "invoice") == 1
    _ok(cli, *base, "--from", "2026-07-01", "--to", "2026-07-30")
    assert _count(signed, "invoice") == 2


def test_a_contract_lists_exactly_the_discounts_its_charge_applies(cli: Cli, demo_db_path: Path) -> None:
    """Issue 30 point 5. #2 quotes 8–12万 a node-month (costed at 120,000) with 15 % off for an annual prepaid
    term. Signed on its monthly option the charge is 2 nodes × 120,000 = 240,000 and lists no discount; signed
    on the annual prepaid way it is 2 × 120,000 × 0.85 = 204,000 and lists the 15 %."""
    db = str(demo_db_path)
    base = ("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-01", "--gpus", "16", "--json")
    monthly = _ok(cli, *base, "--term-months", "12", "--term-option", "1")
    shown = _ok(cli, "--db", db, "contracts", "show", str(monthly["id"]), "--json")
    assert shown["monthly_charge"] == {"amount": "240000.00", "currency": "CNY"}
    assert shown["agreed"]["discounts"] == []
    annual = _ok(cli, *base, "--term-months", "12", "--term-option", "12")
    shown = _ok(cli, "--db", db, "contracts", "show", str(annual["id"]), "--json")
    assert shown["monthly_charge"] == {"amount": "204000.00", "currency": "CNY"}
    assert [Decimal(d["rate"]) for d in shown["agreed"]["discounts"]] == [Decimal("0.15")]


def test_an_auto_renewing_contract_is_followed_past_its_signed_end(cli: Cli, signed: Path) -> None:
    """YW-H100-01 renews by itself for 12 months on 2027-01-31 unless notice is given by 2027-01-01. On
    2027-03-01 it is in its first renewal, 2027-01-31 → 2028-01-31: its next notice deadline is 2028-01-01, its
    payments go on (2027-02-28, 2027-03-31 …), and an outage or a bill of the renewed term is recorded."""
    db = str(signed)
    shown = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-03-01", "--json")
    assert shown["running_term"] == {
        "start": "2027-01-31",
        "end": "2028-01-31",
        "renewal": 1,
        "notice_by": "2028-01-01",
        "ended": None,
        "ended_by_amendment": None,
    }
    assert (shown["end"], shown["notice_deadline"]) == ("2027-01-31", "2027-01-01")  # as signed
    dates = {(k["date"], k["kind"]) for k in shown["key_dates"]}
    assert {("2027-02-28", "payment"), ("2027-12-31", "payment"), ("2028-01-01", "notice deadline"),
            ("2028-01-31", "renews")} <= dates  # fmt: skip
    assert ("2028-01-31", "payment") not in dates  # the second renewal is not reached yet
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-03-01", "--json")
    assert [k["kind"] for k in due["overdue"]] == ["payment"]  # the signed term's deadline is past history
    assert [(k["date"], k["kind"]) for k in due["within_30_days"]] == [("2027-03-31", "payment")]
    text = cli("--db", db, "contracts", "show", "1", "--on", "2027-03-01").out
    assert "renewed by itself (1 time): the term running is 2027-01-31 → 2028-01-31 (12 months)" in text
    assert "notice by 2028-01-01 (30 days), else it auto-renews for 12 months" in text
    _ok(cli, "--db", db, "contracts", "incident", "add", "1", "--start", "2027-03-02T00:00Z", "--end",
        "2027-03-02T10:00Z", "--gpus", "8", "--description", "in the renewal", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "invoice", "add", "1", "--from", "2027-02-28", "--to", "2027-03-30",
        "--amount", "204000", "--currency", "CNY", "--json")  # fmt: skip
    # before the renewal day nothing has renewed: the signed deadline, missed, is overdue
    before = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-01-15", "--json")
    assert [(k["date"], k["kind"]) for k in before["overdue"] if k["kind"] != "payment"] == [
        ("2027-01-01", "notice deadline")
    ]


def test_a_contract_that_does_not_renew_ends_with_its_term(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
        "--notice-days", "30", "--gpus", "8", "--json")  # fmt: skip
    shown = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-03-01", "--json")
    assert shown["running_term"]["end"] == "2027-01-31" and shown["running_term"]["renewal"] == 0
    assert max(k["date"] for k in shown["key_dates"] if k["kind"] == "payment") == "2026-12-31"
    late = cli("--db", db, "contracts", "incident", "add", "1", "--start", "2027-03-02T00:00Z", "--gpus", "8",
               "--description", "after the end")  # fmt: skip
    assert late.code == 2 and "after the contract's term ends (last day 2027-01-30)" in late.err


def test_a_renewal_certain_before_it_begins_and_amended_in_its_term(cli: Cli, signed: Path) -> None:
    """Once the notice deadline has passed, the renewal is certain: its payments are key dates before it begins.
    A renewal's day can carry an amendment (renegotiating at renewal), and the list shows the running term."""
    db = str(signed)
    before = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-01-15", "--within", "90", "--json")
    coming = {(k["date"], k["kind"]) for k in before["within_30_days"] + before["within_31_to_90_days"]}
    assert {("2027-01-31", "renews"), ("2027-01-31", "payment"), ("2027-02-28", "payment")} <= coming
    listed = cli("--db", db, "contracts", "--on", "2027-06-01").out
    assert "2028-01-31 ↻" in listed and "2028-01-01" in listed  # the running term's end and notice deadline
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2027-06-01", "--reason", "renewal terms",
        "--gpus", "24", "--json")  # fmt: skip


def test_a_short_renewal_with_a_long_notice_shows_the_deadline_to_act_on(cli: Cli, demo_db_path: Path) -> None:
    """Monthly renewals with 90 days' notice: each deadline falls before its term begins. On 2027-03-15 the
    renewals to 2027-06-30 are certain (their deadlines passed); the one to act on is 2027-04-01 (stops the
    renewal on 2027-06-30); renewals count from the start, so a term from 31 January ends on month ends."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
        "--notice-days", "90", "--auto-renew", "--renewal-months", "1", "--gpus", "8", "--json")  # fmt: skip
    shown = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-03-15", "--json")
    assert shown["running_term"]["start"] == "2027-02-28" and shown["running_term"]["end"] == "2027-03-31"
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-03-15", "--json")
    deadlines = [k["date"] for k in due["within_30_days"] if k["kind"] == "notice deadline"]
    assert deadlines == ["2027-04-01"]
    assert "for 1 month" in json.dumps(due) and "1 months" not in json.dumps(due)


def test_notice_given_ends_an_auto_renewing_contract_at_the_end_it_reaches(cli: Cli, signed: Path) -> None:
    """Notice is an amendment (``--at-end ends``). Given on 2027-06-01, in the first renewal and before its
    deadline (2028-01-01), the contract ends on 2028-01-31: no renewal, payments or incidents after it."""
    db = str(signed)
    done = cli("--db", db, "contracts", "amend", "1", "--effective", "2027-06-01", "--reason", "notice given",
               "--at-end", "ends")  # fmt: skip
    assert done.code == 0 and "renews by itself yes → no" in done.out, done.err
    later = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2028-03-01", "--json")
    kinds = [(k["date"], k["kind"]) for k in later["key_dates"] if k["kind"] != "payment"]
    assert kinds[-1] == ("2028-01-31", "ends") and ("2028-01-31", "renews") not in kinds
    assert max(k["date"] for k in later["key_dates"] if k["kind"] == "payment") == "2027-12-31"
    late = cli("--db", db, "contracts", "incident", "add", "1", "--start", "2028-03-02T00:00Z", "--gpus", "8",
               "--description", "after it ended")  # fmt: skip
    assert late.code == 2 and "after the contract's term ends (last day 2028-01-30)" in late.err
    bad = cli("--db", db, "contracts", "amend", "1", "--effective", "2027-06-02", "--reason", "x", "--at-end", "maybe")
    assert bad.code == 2 and "--at-end" in bad.err


def test_a_contract_ended_by_an_amendment_says_so_and_has_no_notice_left(cli: Cli, demo_db_path: Path) -> None:
    """3 months from 2026-01-15, renewing by itself for 3 months, 30 days' notice, billed quarterly; amendment 1
    (from 2026-07-15) ends it at the end it reaches. It renews on 2026-04-15 and 2026-07-15 (the amendment was
    not in force by 2026-06-15, that renewal's deadline); the term 2026-07-15 → 2026-10-15 is the last (notice in
    force by 2026-09-15). Inside it, notice is said given (no deadline left to meet); on 2026-12-06 it ended on
    2026-10-15, by amendment 1, with no notice to give. Before the amendment (2026-03-01) it still renews by itself."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "14", "--start", "2026-01-15", "--term-months", "3",
        "--auto-renew", "--notice-days", "30", "--billing", "quarterly", "--gpus", "8", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2026-07-15", "--at-end", "ends", "--reason",
        "x", "--json")  # fmt: skip
    inside = cli("--db", db, "contracts", "show", "1", "--on", "2026-08-01").out
    assert "renewed by itself (2 times): the term running is 2026-07-15 → 2026-10-15 (3 months)" in inside
    assert "  notice given (amendment 1, from 2026-07-15): it ends on 2026-10-15\n" in inside
    assert "notice by" not in inside
    before = cli("--db", db, "contracts", "show", "1", "--on", "2026-03-01").out
    assert "notice by 2026-03-16 (30 days), else it auto-renews for 3 months" in before
    after = cli("--db", db, "contracts", "show", "1", "--on", "2026-12-06").out
    assert "  ended on 2026-10-15: amendment 1 (from 2026-07-15) stopped its renewal\n" in after
    assert "term running" not in after and "notice by" not in after
    assert "no downtime recorded (9 months so far)" in after  # 2026-01-15 → 2026-10-15, not to December
    shown = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-12-06", "--json")["running_term"]
    assert shown == {"start": "2026-07-15", "end": "2026-10-15", "renewal": 2, "notice_by": None,
                     "ended": "2026-10-15", "ended_by_amendment": 1}  # fmt: skip
    on_the_end = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-10-15", "--json")["running_term"]
    assert (on_the_end["ended"], on_the_end["notice_by"]) == ("2026-10-15", None)
    eve = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-10-14", "--json")["running_term"]
    assert (eve["ended"], eve["notice_by"]) == (None, None)


def test_notice_given_by_an_amendment_leaves_no_notice_deadline_from_its_effective_day(
    cli: Cli, demo_db_path: Path
) -> None:
    """12 months from 2026-01-01 (to 2027-01-01), renewing by itself, 30 days' notice: the deadline is 2026-12-02.
    Amendment 1, from 2026-09-01, gives notice (``--at-end ends``). From 2026-09-01 no notice is left to give: on
    2026-12-07 the contract says notice was given and that it ends on 2027-01-01, with no deadline to list, none
    overdue; on 2026-08-31, before it is in force, no deadline is left either (the amendment recorded ends the
    contract before it): it is said as coming."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-01", "--term-months", "12",
        "--notice-days", "30", "--auto-renew", "--reference", "A4", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2026-09-01", "--reason", "stop", "--at-end",
        "ends", "--json")  # fmt: skip
    for day in ("2026-09-01", "2026-12-07"):
        shown = cli("--db", db, "contracts", "show", "1", "--on", day).out
        assert "\n  notice given (amendment 1, from 2026-09-01): it ends on 2027-01-01\n" in shown, day
        assert "notice by" not in shown and "notice deadline" not in shown
        view = _ok(cli, "--db", db, "contracts", "show", "1", "--on", day, "--json")
        assert view["running_term"]["notice_by"] is None
        assert [k["kind"] for k in view["key_dates"] if k["kind"] != "payment"] == ["ends"]
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-07", "--json")
    assert [(k["date"], k["kind"]) for g in due.values() for k in g if k["kind"] != "payment"] == [
        ("2027-01-01", "ends")
    ]
    assert "notice" not in cli("--db", db, "contracts", "due", "--on", "2026-12-07").out
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", "--on", "2026-12-07").out
    assert "\n  已发出不续约通知（第 1 次合同变更，自 2026年9月1日起）：将于 2027年1月1日终止\n" in zh
    before = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-08-31", "--json")
    assert before["running_term"]["notice_by"] is None
    coming = cli("--db", db, "contracts", "show", "1", "--on", "2026-08-31").out
    assert "\n  from 2026-09-01 (amendment 1): renews by itself yes → no\n" in coming and "notice by" not in coming


def test_notice_given_after_the_deadline_ends_the_contract_after_one_renewal(cli: Cli, demo_db_path: Path) -> None:
    """12 months from 2026-01-15 (to 2027-01-15), renewing by itself for 12 months, 30 days' notice: the deadline
    is 2026-12-16. Amendment 1 gives notice from 2026-12-20, too late for that renewal: the contract renews on
    2027-01-15 and ends on 2028-01-15 (the next deadline, 2027-12-16, finds the notice in force). On 2026-12-18,
    before the amendment, the deadline is missed (overdue); from 2026-12-20 notice has been given: no deadline,
    nothing overdue about notice, the renewal and the end said."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-15", "--term-months", "12",
        "--notice-days", "30", "--auto-renew", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2026-12-20", "--at-end", "ends", "--reason",
        "late", "--json")  # fmt: skip
    missed = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-18", "--json")
    assert [k["date"] for k in missed["overdue"] if k["kind"] == "notice deadline"] == ["2026-12-16"]
    shown = cli("--db", db, "contracts", "show", "1", "--on", "2026-12-21").out
    said = "\n  notice given (amendment 1, from 2026-12-20): it renews on 2027-01-15 and ends on 2028-01-15\n"
    assert said in shown and "notice by" not in shown
    view = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-12-21", "--json")
    assert view["running_term"]["notice_by"] is None
    assert [(k["date"], k["kind"]) for k in view["key_dates"] if k["kind"] != "payment"] == [
        ("2027-01-15", "renews"),
        ("2028-01-15", "ends"),
    ]
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-12-21", "--within", "400", "--json")
    assert [(k["date"], k["kind"]) for g in due.values() for k in g if k["kind"] != "payment"] == [
        ("2027-01-15", "renews"),
        ("2028-01-15", "ends"),
    ]
    assert "notice" not in cli("--db", db, "contracts", "due", "--on", "2026-12-21").out
    renewed = cli("--db", db, "contracts", "show", "1", "--on", "2027-02-01").out
    assert "\n  notice given (amendment 1, from 2026-12-20): it ends on 2028-01-15\n" in renewed
    zh = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", "--on", "2026-12-21").out
    zh_said = "已发出不续约通知（第 1 次合同变更，自 2026年12月20日起）：将于 2027年1月15日续约，并于 2028年1月15日终止"
    assert zh_said in zh


def test_notice_recorded_before_the_deadline_leaves_none_to_give_before_it_is_in_force(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """12 months from 2026-01-15, renewing by itself, 30 days' notice (deadline 2026-12-16); amendment 1 gives
    notice from 2026-06-01. On 2026-05-31 the contract ends on 2027-01-15 whatever the buyer does: no deadline
    (none shown, listed, in the calendar), the amendment said as coming."""
    from icalendar import Calendar

    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-15", "--term-months", "12",
        "--notice-days", "30", "--auto-renew", "--json")  # fmt: skip
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2026-06-01", "--at-end", "ends", "--reason",
        "we leave", "--json")  # fmt: skip
    shown = cli("--db", db, "contracts", "show", "1", "--on", "2026-05-31").out
    assert "\n  from 2026-06-01 (amendment 1): renews by itself yes → no\n" in shown
    assert "notice by" not in shown and "else it ends" not in shown
    view = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-05-31", "--json")
    assert view["running_term"]["notice_by"] is None
    due = _ok(cli, "--db", db, "contracts", "due", "--on", "2026-05-31", "--within", "400", "--json")
    assert [(k["date"], k["kind"]) for g in due.values() for k in g if k["kind"] != "payment"] == [
        ("2027-01-15", "ends")
    ]
    out = tmp_path / "dates.ics"
    assert cli("--db", db, "contracts", "ics", str(out), "--on", "2026-05-31").code == 0
    summaries = [str(e["summary"]) for e in Calendar.from_ical(out.read_bytes()).walk("VEVENT")]
    assert "ends: contract #1 (腾讯云 GN10Xp 8×H100 80GB（包月）)" in summaries
    assert not [s for s in summaries if s.startswith("notice deadline")]


def test_a_contract_that_does_not_renew_has_no_notice_to_give(cli: Cli, demo_db_path: Path) -> None:
    """12 months from 2026-01-01, 30 days' notice, not renewing by itself: it ends on 2027-01-01 anyway, so there
    is no notice deadline (2026-12-02) to meet, said or listed; the signed field stays as stored."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-01", "--term-months", "12",
        "--notice-days", "30", "--json")  # fmt: skip
    shown = cli("--db", db, "contracts", "show", "1", "--on", "2026-12-07").out
    assert "notice" not in shown and "\n  2027-01-01 ends\n" in shown
    view = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-11-01", "--json")
    assert view["running_term"]["notice_by"] is None and view["notice_deadline"] == "2026-12-02"
    assert [k["kind"] for k in view["key_dates"] if k["kind"] != "payment"] == ["ends"]
    due = cli("--db", db, "contracts", "due", "--on", "2026-12-07").out
    assert "notice" not in due and "ends: contract #1" in due
    assert "通知" not in cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1", "--on", "2026-11-01").out


def test_months_so_far_stop_at_the_end_of_service(cli: Cli, demo_db_path: Path) -> None:
    """6 months from 2026-01-31 (to 2026-07-31): the months begun are counted from the start (31 Jan, 28 Feb, 31
    Mar …), never past the end; its SLA table still lists the 7 calendar months it touches."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "18", "--start", "2026-01-31", "--term-months", "6",
        "--gpus", "8", "--json")  # fmt: skip
    for day, said in [("2026-01-31", "1 month"), ("2026-02-28", "2 months"), ("2026-02-27", "1 month"),
                      ("2026-07-30", "6 months"), ("2026-12-06", "6 months")]:  # fmt: skip
        out = cli("--db", db, "contracts", "show", "1", "--on", day).out
        assert f"no downtime recorded ({said} so far)" in out, (day, out)
        assert "ended on" not in out if day != "2026-12-06" else "  ended on 2026-07-31\n" in out
    months = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2026-12-06", "--json")["months"]
    assert [m["month"] for m in months] == ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06",
                                            "2026-07"]  # fmt: skip
    assert months[0]["downtime_hours"] == "0.0000"


def test_with_no_notice_period_notice_is_due_by_the_last_day_of_the_term(cli: Cli, demo_db_path: Path) -> None:
    """0 notice days, a term 2026-01-31 → 2027-01-31 renewing by itself: the renewal begins on 2027-01-31, so
    notice given that day is too late; the last day to give it is 2027-01-30. On the renewal day only the renewal
    is due (no deadline "today" that can no longer be met); notice in force on 2027-01-30 still stops it, on
    2027-01-31 it stops the next one (2028-01-31)."""
    db = str(demo_db_path)
    _ok(cli, "--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
        "--notice-days", "0", "--auto-renew", "--gpus", "8", "--json")  # fmt: skip
    shown = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-01-30", "--json")
    assert shown["notice_deadline"] == "2027-01-30" and shown["running_term"]["end"] == "2027-01-31"
    execute(demo_db_path, "UPDATE contract SET notice_deadline = '2027-01-31'")  # as a version before the rule kept it
    again = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-01-30", "--json")
    assert again["notice_deadline"] == again["running_term"]["notice_by"] == "2027-01-30"
    eve = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-01-30", "--json")["within_30_days"]
    assert [(k["date"], k["kind"], k["days_left"]) for k in eve if k["kind"] != "payment"] == [
        ("2027-01-30", "notice deadline", 0),
        ("2027-01-31", "renews", 1),
    ]
    day = _ok(cli, "--db", db, "contracts", "due", "--on", "2027-01-31", "--json")["within_30_days"]
    assert [(k["date"], k["kind"]) for k in day if k["kind"] != "payment"] == [("2027-01-31", "renews")]
    renewed = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2027-01-31", "--json")["running_term"]
    assert renewed["notice_by"] == "2028-01-30"
    _ok(cli, "--db", db, "contracts", "amend", "1", "--effective", "2027-01-31", "--reason", "too late",
        "--at-end", "ends", "--json")  # fmt: skip
    ended = _ok(cli, "--db", db, "contracts", "show", "1", "--on", "2028-03-01", "--json")
    assert [(k["date"], k["kind"]) for k in ended["key_dates"] if k["kind"] in ("ends", "renews")] == [
        ("2027-01-31", "renews"),
        ("2028-01-31", "ends"),
    ]


def test_the_invoice_form_refuses_a_currency_by_its_field(signed: Path) -> None:
    """The TUI's invoice form saves through the same rule as the command line: an unknown code, or a known one
    that is not the contract's (CNY), is the currency field's problem, and nothing is saved."""
    from quotetui.domain.errors import FieldErrors
    from quotetui.services.contract_forms import save_invoice

    opened = open_database(str(signed))
    raw = {"period_start": "2026-03-01", "period_end": "2026-03-31", "amount": "204000"}
    try:
        for code, problem in (
            ("ZZZ", "unknown currency 'ZZZ': expected an ISO 4217 code such as CNY, USD or EUR"),
            ("USD", "the contract is in CNY; an invoice in USD cannot be checked against it"),
        ):
            with pytest.raises(FieldErrors) as refused:
                save_invoice(opened.db, 1, {**raw, "currency": code})
            assert refused.value.errors == {"currency": problem}
    finally:
        opened.db.dispose()
    assert _count(signed, "invoice") == 0
