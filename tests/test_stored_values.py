"""A value quotetui never writes, written into the database by another program (the sqlite3 shell, a script),
is a database problem that names the table, the row, the column and the allowed values, on every read path
(the CLI's, the export's, the TUI's), never an internal error; nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Cli, execute, sql
from tests.test_rfq import _new
from tests.test_tui import RecordingApp, settle

ALLOWED_BASES = "one of: on_demand, monthly, reserved, spot"


@pytest.fixture
def weird_offer(demo_db_path: Path) -> Path:
    execute(demo_db_path, "UPDATE offer SET billing_basis = 'weird' WHERE id = 3")
    return demo_db_path


@pytest.mark.parametrize(
    "command",
    [("offers",), ("offers", "--json"), ("explain", "3"), ("explain", "5"), ("claims",), ("export", "{out}")],
)
def test_a_value_another_program_wrote_is_named_where_it_is(
    cli: Cli, weird_offer: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    out = tmp_path / "board.xlsx"
    before = sql(weird_offer, "SELECT COUNT(*) FROM change_log")
    done = cli("--db", str(weird_offer), *(c.format(out=out) for c in command))
    assert done.code == 2, done.err
    assert "internal error" not in done.err and "Traceback" not in done.err
    assert "'weird' in offer #3, billing_basis" in done.err and ALLOWED_BASES in done.err
    assert "another program changed it" in done.err
    assert not out.exists()
    assert sql(weird_offer, "SELECT COUNT(*) FROM change_log") == before


def test_an_invitation_state_another_program_wrote_is_named(cli: Cli, demo_db_path: Path, tmp_path: Path) -> None:
    _new(cli, demo_db_path)
    db = str(demo_db_path)
    assert cli("--db", db, "rfq", "send", "H100 256", "-p", "阿里云", "--out", str(tmp_path)).code == 0
    execute(demo_db_path, "UPDATE rfq_invite SET state = 'weird'")
    for command in (("rfq", "show", "H100 256"), ("rfq", "status", "H100 256"), ("rfq", "list")):
        done = cli("--db", db, *command)
        assert done.code == 2, (command, done.out, done.err)
        assert "'weird' in rfq_invite (RFQ 'H100 256' to 阿里云), state" in done.err, command
        assert "answered" in done.err, command
        assert "internal error" not in done.err


async def test_the_tui_tells_the_buyer_and_goes_on(weird_offer: Path) -> None:
    app = RecordingApp(str(weird_offer))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        told = [m for m, _ in app.told if "'weird' in offer #3, billing_basis" in m]
        assert told and ALLOWED_BASES in told[0]
        await pilot.press("o")  # the app still answers keys
        await settle(pilot)
        assert app.return_code is None


def test_db_check_lists_every_value_quotetui_never_writes(cli: Cli, weird_offer: Path) -> None:
    execute(weird_offer, "UPDATE revision_price SET unit = 'per_fortnight' WHERE id = 1")
    done = cli("--db", str(weird_offer), "db", "check", "--json")
    assert done.code == 2
    report = json.loads(done.out)
    assert not report["ok"] and report["integrity"] == ["ok"] and report["foreign_key_violations"] == 0
    assert report["unknown_codes"] == [
        f"offer #3, billing_basis: 'weird' ({ALLOWED_BASES})",
        "revision_price #1, unit: 'per_fortnight' (one of: gpu_hour, node_hour, gpu_month, node_month, term_total)",
    ]
    execute(weird_offer, "UPDATE offer SET billing_basis = 'on_demand' WHERE id = 3")
    execute(weird_offer, "UPDATE revision_price SET unit = 'gpu_hour' WHERE id = 1")
    assert cli("--db", str(weird_offer), "db", "check").code == 0


def test_a_form_that_reads_the_row_through_the_orm_names_the_value_too(cli: Cli, weird_offer: Path) -> None:
    """A read through the ORM names the value, the table and the column (the row: ``db check``)."""
    before = sql(weird_offer, "SELECT notes, version FROM offer WHERE id = 3")
    done = cli("--db", str(weird_offer), "offer", "edit", "3", "--notes", "hi")
    assert done.code == 2 and "internal error" not in done.err
    assert f"'weird' in offer, billing_basis, a value quotetui never writes ({ALLOWED_BASES})" in done.err
    assert "`quotetui db check` lists every such value" in done.err
    assert sql(weird_offer, "SELECT notes, version FROM offer WHERE id = 3") == before
    execute(weird_offer, "UPDATE offer SET billing_basis = 'on_demand' WHERE id = 3")
    execute(weird_offer, "UPDATE sla_term SET preemption = 'weird' WHERE offer_id = 3")
    for command in (("brief", "3"), ("sla", "set", "3", "--availability", "99.9")):
        done = cli("--db", str(weird_offer), *command)
        assert done.code == 2, (command, done.out)
        assert "'weird' in sla_term, preemption, a value quotetui never writes (one of: none, low, high" in done.err


@pytest.mark.parametrize(
    ("statement", "command", "where"),
    [
        ("UPDATE provider SET kind = 'weird' WHERE id = 1", ("providers",), "provider #1, kind"),
        ("UPDATE quote_revision SET mover = 'weird' WHERE id = 1", ("explain", "1"), "quote_revision #1, mover"),
        ("UPDATE offer SET form_factor = 'weird' WHERE id = 2", ("offers",), "offer #2, form_factor"),
    ],
)
def test_codes_a_listing_shows_or_decides_by_are_refused_too(
    cli: Cli, demo_db_path: Path, statement: str, command: tuple[str, ...], where: str
) -> None:
    """A hostile pass found these printed as they were (a provider kind 'weird'), or deciding which round is the
    price (a mover 'weird' is neither the provider's nor ours)."""
    execute(demo_db_path, statement)
    done = cli("--db", str(demo_db_path), *command)
    assert done.code == 2, done.out
    assert f"'weird' in {where}, a value quotetui never writes" in done.err


def test_db_check_says_how_many_more_past_twenty_a_column(cli: Cli, demo_db_path: Path) -> None:
    execute(demo_db_path, "UPDATE revision_price SET unit = 'zz'")
    [(prices,)] = sql(demo_db_path, "SELECT COUNT(*) FROM revision_price")
    assert prices > 20
    codes = json.loads(cli("--db", str(demo_db_path), "db", "check", "--json").out)["unknown_codes"]
    assert sum(c.startswith("revision_price #") for c in codes) == 20
    assert codes[-1] == f"revision_price, unit: {prices - 20:,} more rows like these"


@pytest.mark.sqlite_only  # PostgreSQL's VARCHAR(24) refuses such a value: only SQLite stores it
def test_a_huge_value_is_cut_in_every_message(cli: Cli, demo_db_path: Path) -> None:
    execute(demo_db_path, "UPDATE offer SET billing_basis = :v WHERE id = 4", {"v": "x" * 10_000})
    codes = json.loads(cli("--db", str(demo_db_path), "db", "check", "--json").out)["unknown_codes"]
    assert codes == ["offer #4, billing_basis: '" + "x" * 57 + f"…' ({ALLOWED_BASES})"]  # cut inside its quotes
    done = cli("--db", str(demo_db_path), "offers")
    assert done.code == 2 and "x" * 56 + "…" in done.err and len(done.err) < 400  # not 10,000 characters


def test_a_claim_whose_provenance_another_program_changed_is_named_not_left_out(cli: Cli, demo_db_path: Path) -> None:
    """The claims audit read ``provenance = 'claimed'``: a claim set to 'guessed' by another program was left
    out of the audit in silence; it is named, with the values allowed."""
    [(claim,)] = sql(demo_db_path, "SELECT MIN(id) FROM benchmark_result WHERE provenance = 'claimed'")
    listed = cli("--db", str(demo_db_path), "claims", "--json")
    assert listed.code == 0 and claim in {a["id"] for a in json.loads(listed.out)}
    execute(demo_db_path, f"UPDATE benchmark_result SET provenance = 'guessed' WHERE id = {claim}")
    for command in (("claims",), ("claims", "--json")):
        done = cli("--db", str(demo_db_path), *command)
        assert done.code == 2, (command, done.out)
        assert f"'guessed' in benchmark_result #{claim}, provenance" in done.err
        assert "one of: claimed, verified" in done.err and "internal error" not in done.err


def test_an_offer_edit_is_not_failed_by_another_contracts_strange_value(cli: Cli, demo_db_path: Path) -> None:
    """After an offer edit was saved, the note on which contracts keep what was sold read every contract whole:
    a billing cadence another program wrote in a contract of another offer made the saved edit exit 2."""
    db = str(demo_db_path)
    done = cli("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12")
    assert done.code == 0, done.err
    execute(demo_db_path, "UPDATE contract SET billing_cadence = 'weird'")
    for offer in ("5", "2"):  # another offer's edit, and the edit of the contracted offer itself
        edited = cli("--db", db, "offer", "edit", offer, "--notes", f"edited {offer}")
        assert edited.code == 0 and "weird" not in edited.err, (offer, edited.err)
    shown = cli("--db", db, "contracts", "show", "1")  # where the cadence is used, it is refused by its name
    assert shown.code == 2 and "'weird' in contract #1, billing_cadence" in shown.err


def test_a_quote_whose_status_another_program_wrote_is_named_not_dropped_from_the_key_dates(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db = str(demo_db_path)
    assert cli("--db", db, "offer", "edit", "5", "--valid-until", "2027-02-01").code == 0
    due = cli("--db", db, "contracts", "due", "--within", "2000", "--on", "2026-12-01", "--json")
    assert due.code == 0 and "#5" in due.out
    execute(demo_db_path, "UPDATE offer SET status = 'weird' WHERE id = 5")
    for command in (("contracts", "due", "--within", "2000"), ("contracts", "ics", str(tmp_path / "k.ics"))):
        done = cli("--db", db, *command)
        assert done.code == 2, (command, done.out)
        assert "'weird' in offer #5, status" in done.err and "one of: draft, requested" in done.err


def test_an_import_never_adds_a_claim_beside_one_whose_provenance_another_program_changed(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    db, book = str(demo_db_path), tmp_path / "all.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    [(claim,)] = sql(demo_db_path, "SELECT MIN(id) FROM benchmark_result WHERE provenance = 'claimed'")
    execute(demo_db_path, f"UPDATE benchmark_result SET provenance = 'guessed' WHERE id = {claim}")
    before = sql(demo_db_path, "SELECT COUNT(*), MAX(id) FROM benchmark_result")
    done = cli("--db", db, "import", str(book))
    assert done.code == 2, done.out
    assert f"'guessed' in benchmark_result #{claim}, provenance" in done.err
    assert sql(demo_db_path, "SELECT COUNT(*), MAX(id) FROM benchmark_result") == before


@pytest.mark.parametrize("peak", ["0", "-5"])
@pytest.mark.parametrize("command", [("offers",), ("claims",), ("explain", "3"), ("gpus",)])
def test_a_gpu_peak_of_zero_another_program_wrote_is_named_not_divided_by(
    cli: Cli, demo_db_path: Path, command: tuple[str, ...], peak: str
) -> None:
    """Every figure divides by a model's peak: a stored peak of zero or below stops the command with where it is
    (the table, the model's row, the column, as the read model names any stored value it cannot read), not a
    division by zero."""
    db = str(demo_db_path)
    execute(demo_db_path, f"UPDATE gpu_model SET bf16_tflops = '{peak}' WHERE key = 'h100-sxm5'")
    done = cli("--db", db, *command)
    assert done.code == 2, done.err
    assert "internal error" not in done.err and "ZeroDivision" not in done.err
    ((gid,),) = sql(demo_db_path, "SELECT id FROM gpu_model WHERE key = 'h100-sxm5'")
    assert f"holds '{peak}' in gpu_model #{gid}, bf16_tflops, which is not a number above zero" in done.err


def test_a_contracts_or_invoices_currency_another_program_wrote_is_named_where_it_is(
    cli: Cli, demo_db_path: Path
) -> None:
    """A currency entry would refuse, stored by another program, stops the contract's views with the table, the row
    and the column (as the read model names any stored value): an unknown code in the contract or its invoice,
    and an invoice in a known currency that is not its contract's (never checked as if it were)."""
    db = str(demo_db_path)
    assert cli("--db", db, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12").code == 0
    done = cli("--db", db, "contracts", "invoice", "add", "1", "--from", "2026-01-31", "--to", "2026-02-27",
               "--amount", "1", "--currency", "CNY")  # fmt: skip
    assert done.code == 0, done.err
    fails = "another program wrote it; correct it there, or restore a backup, and try again"
    for update, said in (
        ("UPDATE invoice SET currency = 'USD'",
         "the database holds 'USD' in invoice #1, currency: the contract is in CNY; an invoice in USD cannot be "
         f"checked against it; {fails}"),
        ("UPDATE invoice SET currency = 'ZZZ'",
         f"the database holds 'ZZZ' in invoice #1, currency, which is not an ISO 4217 currency code: {fails}"),
        ("UPDATE contract SET currency = 'ZZZ'",
         f"the database holds 'ZZZ' in contract #1, currency, which is not an ISO 4217 currency code: {fails}"),
    ):  # fmt: skip
        execute(demo_db_path, update)
        for command in (("contracts",), ("contracts", "show", "1", "--json"), ("contracts", "due")):
            shown = cli("--db", db, *command)
            assert shown.code == 2 and shown.err.strip() == f"quotetui: {said}", (command, shown.err)


@pytest.mark.sqlite_only  # PostgreSQL's date column refuses 'soon': only SQLite stores such a value
def test_an_amendment_another_program_changed_is_named_as_every_message_numbers_it(
    cli: Cli, demo_db_path: Path
) -> None:
    """Amendments are numbered within their contract (``Amendment 1 of contract #1``, ``contracts show``'s ``1.``);
    no command takes their row id. Contract #2's amendment is recorded first (row 1), so contract #1's first
    amendment is row 2: a date another program broke in it is named amendment 1 of contract #1, as the
    amendment's own messages name it, beside its table."""
    db = str(demo_db_path)
    for offer in ("2", "5"):
        added = cli("--db", db, "contracts", "add", "--offer", offer, "--start", "2026-01-31", "--term-months", "12")
        assert added.code == 0, added.err
    for contract in ("2", "1"):
        amended = cli("--db", db, "contracts", "amend", contract, "--effective", "2026-06-01", "--reason", "x",
                      "--notice-days", "10")  # fmt: skip
        assert amended.code == 0 and f"Amendment 1 of contract #{contract}," in amended.out, amended.err
    assert sql(demo_db_path, "SELECT id, seq FROM contract_amendment WHERE contract_id = 1") == [(2, 1)]
    execute(demo_db_path, "UPDATE contract_amendment SET effective = 'soon' WHERE contract_id = 1")
    for command in (("contracts", "show", "1"), ("contracts",)):
        shown = cli("--db", db, *command)
        assert shown.code == 2, shown.out
        assert "holds 'soon' in contract_amendment (amendment 1 of contract #1), effective, which is not a date" in (
            shown.err
        )
