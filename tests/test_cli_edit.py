"""Recording a market from the command line: ``provider``, ``offer``, ``round``, ``discount``, ``extra`` and
``sla`` commands are the TUI's forms, with their options, checks and messages; a bad value names its option
and saves nothing."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from quotetui.domain import entities as E
from quotetui.services import editing
from quotetui.services.database import open_database
from quotetui.services.form_spec import FormSpec
from tests.conftest import Cli, dump, sql

TABLES = ("provider", "offer", "quote_revision", "revision_price", "discount", "extra_cost", "sla_term")


def _ok(cli: Cli, db: Path, *args: str) -> Any:
    result = cli("--db", str(db), *args)
    assert result.code == 0, result.err
    return json.loads(result.out) if "--json" in args else result.out


def _refused(cli: Cli, db: Path, *args: str) -> str:
    """The one error line of a refused command, after checking that it exited 2 and changed no row."""
    before = _counts(db)
    result = cli("--db", str(db), *args)
    assert result.code == 2, result.out
    assert result.out == ""
    assert _counts(db) == before
    [line] = result.err.strip().splitlines()[-1:]
    return line


def _counts(db: Path) -> dict[str, int]:
    return {table: int(sql(db, f"SELECT COUNT(*) FROM {table}")[0][0]) for table in TABLES}  # type: ignore[call-overload]


def _offer_form(db: Path) -> FormSpec:
    opened = open_database(str(db))
    try:
        return editing.offer_form(opened.db, 1)
    finally:
        opened.db.dispose()


@pytest.fixture
def market(cli: Cli, db_path: Path) -> Path:
    """An empty database with one provider (#1) and its offer (#1): 8×H100 at 80,000 CNY a node-month."""
    _ok(cli, db_path, "provider", "add", "--name", "Acme")
    _ok(cli, db_path, "offer", "add", "--provider", "Acme", "--name", "H100 box", "--gpu", "H100", "--amount", "80000")
    return db_path


def test_the_whole_job_from_an_empty_database(cli: Cli, db_path: Path) -> None:
    provider = _ok(cli, db_path, "provider", "add", "--name", "Acme", "--kind", "gpu_cloud", "--json")
    assert (provider["id"], provider["name"], provider["kind"]) == (1, "Acme", "gpu_cloud")
    offer = _ok(
        cli, db_path, "offer", "add", "--provider", "Acme", "--name", "H100 box", "--gpu", "h100",
        "--amount", "80,000", "--json",
    )  # fmt: skip
    assert (offer["id"], offer["gpu"], offer["amount"], offer["unit"]) == (1, "H100 SXM5", "80000", "node_month")
    assert (offer["gpus_per_node"], offer["billing_basis"], offer["currency"]) == (8, "monthly", "CNY")
    assert (offer["term_months"], offer["amount_high"], offer["valid_until"]) == (1, None, None)  # typed, as listed
    second = _ok(cli, db_path, "round", "add", "1", "--amount", "75000", "--json")
    assert (second["offer_id"], second["mover"], second["amount"]) == (1, "provider", "75000")
    assert second["unit"] == "node_month" and second["term_months"] == 1  # the last round's, kept
    counter = _ok(cli, db_path, "round", "add", "1", "--mover", "counter", "--amount", "70000")
    assert counter.startswith("Added round 3 to offer #1 (its id for `quotetui round edit`: 3): mover counter")
    assert "amount 70,000.00, currency CNY" in counter
    discount = _ok(cli, db_path, "discount", "add", "1", "--kind", "prepay", "--rate", "10", "--requires-prepay")
    assert discount.strip() == "Added discount #1 to offer #1: kind prepay, rate 10 %, requires prepay yes"
    _ok(cli, db_path, "extra", "add", "1", "--kind", "setup_fee", "--basis", "one_off", "--amount", "5000")
    _ok(cli, db_path, "sla", "set", "1", "--availability", "99.9", "--credits", "99.9:10, 99:25")
    assert _counts(db_path) == {
        "provider": 1, "offer": 1, "quote_revision": 3, "revision_price": 3, "discount": 1, "extra_cost": 1,
        "sla_term": 1,
    }  # fmt: skip

    # the default scenario: 8 GPUs for 12 months = 1 node; the price is the provider's latest (75,000, not our
    # counter), 10 % off prepaid = 67,500 a node-month; 12 × 67,500 + the 5,000 setup fee = 815,000
    [o] = _ok(cli, db_path, "offers", "--json")
    assert (o["id"], o["status"], o["quoted_price"]["amount"]) == (1, "negotiating", "75000.00")
    assert o["total_cost"] == "815000.00"
    assert o["price_per_gpu_hour"] == "11.558219"  # 67,500 ÷ (8 GPUs × 730 h)
    assert o["cost_per_gpu_hour"] == "11.629566"  # 815,000 ÷ (8 × 730 × 12) = 815,000 ÷ 70,080
    assert o["availability"] == "0.999"  # the SLA's
    explained = _ok(cli, db_path, "explain", "1")
    assert "× (1 − 10.00 %) prepay discount 10 %: 75,000.00 CNY → 67,500.00 CNY" in explained
    assert "setup fee: 5,000.00 CNY × one-off = 5,000.00 CNY once" in explained
    assert "current round 2 (provider): 75,000.00 CNY per node-month" in explained
    assert "vs first offer (round 1): 6.25 % saved" in explained  # 5,000 of 80,000


def test_edit_changes_only_the_options_given(cli: Cli, market: Path) -> None:
    _ok(cli, market, "provider", "edit", "1", "--parent", "Acme Group", "--regions", "Beijing, 上海")
    renamed = _ok(cli, market, "provider", "edit", "1", "--website", "https://acme.example", "--json")
    assert renamed == {
        "id": 1, "name": "Acme", "kind": "lessor", "parent": "Acme Group", "regions": ["Beijing", "上海"],
        "certifications": [], "website": "https://acme.example", "contacts": None, "notes": None,
    }  # fmt: skip
    [listed] = _ok(cli, market, "providers", "--json")
    assert {k: v for k, v in renamed.items() if k in listed} == {k: v for k, v in listed.items() if k in renamed}
    form = _offer_form(market)
    _ok(cli, market, "offer", "edit", "1", "--status", "rejected")
    after = _offer_form(market)
    assert {k for k in form.values if form.values[k] != after.values[k]} == {"status"}
    assert after.values["status"] == "rejected" and after.version == form.version + 1  # type: ignore[operator]
    [(status, gpus, name)] = sql(market, "SELECT status, gpus_per_node, name FROM offer")
    assert (status, gpus, name) == ("rejected", 8, "H100 box")
    # an empty option empties the field; the others stay
    _ok(cli, market, "provider", "edit", "1", "--parent", "")
    [(parent, website)] = sql(market, "SELECT parent, website FROM provider")
    assert (parent, website) == (None, "https://acme.example")


def test_a_percentage_keeps_the_places_its_fraction_is_stored_with(cli: Cli, market: Path) -> None:
    precise = _ok(cli, market, "discount", "add", "1", "--kind", "volume", "--rate", "12.3456")
    assert "rate 12.3456 %" in precise
    [(stored,)] = sql(market, "SELECT rate FROM discount")  # SQLite: millionths as an integer; PostgreSQL: NUMERIC
    assert stored in (123456, Decimal("0.123456"))  # 0.123456: six places, exactly


def test_an_edit_that_changes_nothing_says_so(cli: Cli, market: Path) -> None:
    before = sql(market, "SELECT version FROM provider")
    assert _ok(cli, market, "provider", "edit", "1").startswith("Nothing changed: provider #1: name 'Acme'")
    assert _ok(cli, market, "provider", "edit", "1", "--kind", "lessor").startswith("Nothing changed: provider #1")
    assert sql(market, "SELECT version FROM provider") == before
    assert _ok(cli, market, "offer", "edit", "1", "--status", "rejected").startswith("Updated offer #1")
    assert _ok(cli, market, "offer", "edit", "1", "--status", "rejected").startswith("Nothing changed: offer #1")
    assert _ok(cli, market, "round", "edit", "1", "--amount", "80,000.00").startswith("Nothing changed: round #1")
    assert _ok(cli, market, "sla", "set", "1").startswith("Set SLA of offer #1")  # it had none: now it has one
    assert _ok(cli, market, "sla", "set", "1", "--pue", "1.2").startswith("Set SLA of offer #1")
    assert _ok(cli, market, "sla", "set", "1", "--pue", "1.20").startswith("Nothing changed: SLA of offer #1")


def test_round_edit_and_sla_set_keep_what_is_not_given(cli: Cli, market: Path) -> None:
    fixed = _ok(cli, market, "round", "edit", "1", "--amount", "78000", "--round-note", "typo fixed", "--json")
    assert (fixed["id"], fixed["amount"], fixed["unit"], fixed["mover"]) == (1, "78000", "node_month", "provider")
    assert _counts(market)["quote_revision"] == 1
    _ok(cli, market, "sla", "set", "1", "--availability", "99.5", "--credits", "99.5:10")
    sla = _ok(cli, market, "sla", "set", "1", "--preemption", "low", "--json")
    assert (sla["offer_id"], sla["availability"], sla["credits"], sla["preemption"]) == (1, "0.995", "99.5:10", "low")
    [offer] = _ok(cli, market, "offers", "--json")
    assert offer["availability"] == sla["availability"]  # a ratio as the listing writes it: a fraction
    assert _counts(market)["sla_term"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--amount", "-5"), "--amount: must not be negative"),
        (("--amount", "0"), "--amount: must be more than zero"),
        (("--amount", "1e400"), "--amount: '1e400' is out of range"),
        (("--provider", "Nobody"), "--provider: no provider named 'Nobody' (`quotetui providers` lists them;"),
        (("--name", ""), "--name: required"),
        (("--name", "x" * 10_000), "--name: the name has 10,000 characters (at most 200)"),
        (("--name", "Evil\x1b]52;c;aGk=\x07Box"), "--name: the name contains a control character (ESCAPE"),
        (("--gpu", "H999"), "--gpu: unknown GPU model 'H999'"),
        (("--vat-rate", "60"), "--vat-rate: must be at most 25 %"),
    ],
)
def test_a_bad_offer_value_names_its_option_and_saves_nothing(
    cli: Cli, market: Path, args: tuple[str, ...], message: str
) -> None:
    good = {"--provider": "Acme", "--name": "Other box", "--gpu": "H100", "--amount": "1000"}
    good |= dict(zip(args[::2], args[1::2], strict=True))
    line = _refused(cli, market, "offer", "add", *(part for pair in good.items() for part in pair))
    assert line.startswith(f"quotetui: {message}"), line
    assert "\x1b" not in line and "\x07" not in line  # the terminal is never driven by what was typed


def test_a_provider_is_named_as_everywhere_else(cli: Cli, market: Path) -> None:
    """The name key of every other look-up (an import, a duplicate check): case, width and spaces aside."""
    for n, typed in enumerate(("acme", "ＡＣＭＥ", "  ACME ")):
        added = _ok(cli, market, "offer", "add", "--provider", typed, "--name", f"box {n}", "--gpu", "H100",
                    "--amount", "1000", "--json")  # fmt: skip
        assert added["provider"] == "Acme"  # as recorded, not as typed
    assert "provider 'Acme'" in _ok(cli, market, "offer", "edit", "1", "--provider", "acme")
    line = _refused(cli, market, "offer", "edit", "1", "--provider", "Acme Two")
    assert "--provider: no provider named 'Acme Two' (`quotetui providers` lists them;" in line
    assert "choose" not in line


def test_every_bad_option_is_named_at_once(cli: Cli, market: Path) -> None:
    line = _refused(
        cli, market, "offer", "add", "--provider", "Nobody", "--name", "", "--gpu", "H999", "--amount", "-1",
        "--currency", "XXX", "--term-months", "1.5",
    )  # fmt: skip
    for option in ("--provider", "--name", "--gpu", "--amount", "--currency", "--term-months"):
        assert f"{option}: " in line, option


def test_names_are_data(cli: Cli, db_path: Path) -> None:
    _ok(cli, db_path, "provider", "add", "--name", "[b]markup[/b]")
    [p] = _ok(cli, db_path, "providers", "--json")
    assert p["name"] == "[b]markup[/b]"
    assert "[b]markup[/b]" in _ok(cli, db_path, "providers")
    for bad in ("Evil\x1bCo", "line\nbreak", "a\u202eb", "x" * 10_000, "   "):
        line = _refused(cli, db_path, "provider", "add", "--name", bad)
        assert line.startswith("quotetui: --name: "), line
    line = _refused(cli, db_path, "provider", "add", "--name", "[B]MARKUP[/B]")  # one name, whatever its case
    assert "--name: a provider named '[B]MARKUP[/B]' already exists" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("provider", "edit", "1", "--kind", "landlord"), "--kind: 'landlord' is not one of: lessor"),
        (("provider", "edit", "1", "--name", ""), "--name: required"),
        (("offer", "edit", "1", "--gpus-per-node", "1025"), "--gpus-per-node: must be at most 1024"),
        (("round", "add", "1", "--amount", "-1"), "--amount: must not be negative"),
        (("round", "add", "1", "--mover", "them"), "--mover: 'them' is not one of: list, provider"),
        (("round", "add", "1", "--unit", "term_total", "--term-months", "0"), "--term-months: a price for the"),
        (("round", "edit", "1", "--amount", "1e400"), "--amount: '1e400' is out of range"),
        (("discount", "add", "1", "--rate", "100"), "--rate: a discount below 100 % (100 % off would make the"),
        (("discount", "add", "1", "--rate", "12.34567"), "--rate: 12.34567 % has more than 4 decimal places;"),
        (("sla", "set", "1", "--availability", "99.99999%"), "--availability: 99.99999 % has more than 4 decimal"),
        (("round", "add", "1", "--amount", "0.0000001"), "--amount: 0.0000001 has more than 6 decimal places"),
        (("round", "add", "1", "--amount", "1e-7"), "--amount: 0.0000001 has more than 6 decimal places"),
        (("discount", "add", "1", "--min-gpus", "-8"), "--min-gpus: must not be negative"),
        (("extra", "add", "1", "--amount", "-5"), "--amount: must not be negative"),
        (("extra", "add", "1", "--currency", ""), "--currency: required"),
        (("sla", "set", "1", "--availability", "101"), "--availability: must be at most 100 %"),
        (("sla", "set", "1", "--credits", "99.9"), "--credits: '99.9' needs the form below%:credit%"),
        (("discount", "add", "9", "--rate", "5"), "no offer with id 9"),
        (("offer", "edit", "9", "--name", "x"), "no offer with id 9"),
    ],
)
def test_each_command_refuses_a_bad_value(cli: Cli, market: Path, args: tuple[str, ...], message: str) -> None:
    line = _refused(cli, market, *args)
    assert line.startswith(f"quotetui: {message}"), line


def test_an_edit_over_a_change_made_meanwhile_is_refused(
    cli: Cli, market: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = editing.provider_form

    def read_then_someone_else_saves(db: Any, provider_id: int | None = None) -> Any:
        form = real(db, provider_id)
        if provider_id is not None:  # another window saves between the command's read and its save
            other = open_database(str(market)).db
            editing.save_provider(
                other, real(other, provider_id).values | {"notes": "theirs"}, provider_id, form.version
            )
            other.dispose()
        return form

    monkeypatch.setattr(editing, "provider_form", read_then_someone_else_saves)
    line = _refused(cli, market, "provider", "edit", "1", "--notes", "mine")
    assert "this provider was changed since you opened it" in line and "nothing was saved" in line
    assert sql(market, "SELECT notes FROM provider") == [("theirs",)]


def test_an_id_must_be_a_row_id(cli: Cli, market: Path) -> None:
    for bad in ("0", "-1", "x", str(2**63)):
        result = cli("--db", str(market), "round", "add", bad, "--amount", "1")
        assert result.code == 2 and result.out == ""
    assert _counts(market)["quote_revision"] == 1


COMMANDS = {
    ("provider", "add"): E.PROVIDER,
    ("provider", "edit"): E.PROVIDER,
    ("offer", "add"): E.NEW_OFFER,
    ("offer", "edit"): E.OFFER,
    ("round", "add"): E.ROUND,
    ("round", "edit"): E.ROUND,
    ("discount", "add"): E.DISCOUNT,
    ("extra", "add"): E.EXTRA,
    ("sla", "set"): E.SLA,
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_lists_every_field_of_the_form(cli: Cli, command: tuple[str, str]) -> None:
    result = cli(*command, "--help")
    assert result.code == 0
    for f in COMMANDS[command].form_fields:
        option = "--" + f.name.replace("_", "-")
        assert option in result.out, option
        assert f.label.split(" ")[0] in result.out, f.label
    assert "--json" in result.out


def test_help_reads_well(cli: Cli) -> None:
    top = cli("--help").out
    for group in ("providers", "provider ", "offers", "offer ", "round", "discount", "extra", "sla"):
        assert f"  {group}" in top, group
    offer = cli("offer", "add", "--help").out
    for shown in ("--amount AMOUNT", "--valid-until DATE", "--vat-rate PERCENT", "--unit CHOICE", "--gpu MODEL"):
        assert shown in offer, shown
    assert "one of: gpu_hour, node_hour, gpu_month, node_month, term_total" in " ".join(offer.split())
    assert "--bare-metal / --no-bare-metal" in offer
    assert "--vat-rate PERCENT VAT in the prices: a percentage, e.g. 6 for 6 %." in " ".join(offer.split())
    assert "OFFER_ID" in cli("sla", "set", "--help").out


def _option_help(cli: Cli, command: tuple[str, ...], option: str) -> str:
    """An option's help as one line (Click wraps it under the option), without its metavar."""
    after = cli(*command, "--help").out.split(f"\n  {option} ", 1)[1]
    block = re.split(r"\n  (?=--)", after)[0]  # up to the next option
    return re.sub(r"^(/ --no-\S+|[A-Z,]+) ", "", " ".join(block.split()))


@pytest.mark.parametrize(
    ("command", "option", "shown"),
    [
        # an add command: what the form starts with is the default, not "(required)"
        (
            ("offer", "add"),
            "--gpus-per-node",
            "GPUs per node: a whole number, GPUs, at least 1 and at most 1024. Default: 8.",
        ),
        (("offer", "add"), "--billing-basis", "Billing: one of: on_demand, monthly, reserved, spot. Default: monthly."),
        (
            ("offer", "add"),
            "--intra-fabric",
            "In-node fabric: one of: nvswitch, nvlink_bridge, pcie, unknown. Default: nvswitch.",
        ),  # the form's start, not the import's empty value (unknown)
        (("offer", "add"), "--currency", "Currency: CNY, USD … Default: CNY."),
        (("offer", "add"), "--term-months", "Term, months: 0 = on demand, 1 = monthly, 12 = annual. Default: 1."),
        (
            ("offer", "add"),
            "--bare-metal",
            "Bare metal (not virtualised): --bare-metal or --no-bare-metal. Default: --bare-metal.",
        ),
        (("offer", "add"), "--amount", "Price: exact, up to 6 decimal places. Required."),
        (("offer", "add"), "--provider", "Provider: the provider's name, as on the Providers sheet. Required."),
        (
            ("round", "add"),
            "--unit",
            "Price unit: one of: gpu_hour, node_hour, gpu_month, node_month, term_total. Default: the latest round's.",
        ),
        # an edit command keeps the current value: no default, nothing required
        (
            ("offer", "edit"),
            "--status",
            "Status: one of: draft, requested, quoted, negotiating, accepted, rejected, expired.",
        ),
        (("offer", "edit"), "--bare-metal", "Bare metal (not virtualised): --bare-metal or --no-bare-metal."),
        (("offer", "edit"), "--gpus-per-node", "GPUs per node: a whole number, GPUs, at least 1 and at most 1024."),
        # the label and the note, each said once
        (("offer", "edit"), "--gpu", "GPU model: any name or alias: H100, A100-80GB …"),
        (("offer", "edit"), "--form-factor", "Form factor: sxm, pcie, module; empty: the GPU's own."),
        (("sla", "set"), "--availability", "Availability %: a percentage, e.g. 99.9 for 99.9 %."),
        (("sla", "set"), "--credits", "Credits: below%:credit%, … (e.g. 99.9:10, 99:25)."),
        (("extra", "add"), "--amount", "Amount (empty: charged, price unknown)."),
        (("discount", "add"), "--rate", "Rate % (empty: offered, not quantified): a percentage, e.g. 15 for 15 %."),
    ],
)
def test_an_option_says_its_label_note_and_default_once(
    cli: Cli, command: tuple[str, ...], option: str, shown: str
) -> None:
    assert _option_help(cli, command, option) == shown


def test_an_sla_credit_schedule_where_a_deeper_outage_earns_less_is_refused(cli: Cli, market: Path) -> None:
    before = dump(market)
    result = cli("--db", str(market), "sla", "set", "1", "--availability", "99.9", "--credits", "99.9:10, 99:5")
    assert result.code == 2
    assert result.err == (
        "quotetui: --credits: below 99 % the credit (5 %) is smaller than below 99.9 % (10 %): a deeper outage "
        "earns at least as much\n"
    )
    assert dump(market) == before
    _ok(cli, market, "sla", "set", "1", "--availability", "99.9", "--credits", "99:25, 99.9:10")  # any order
