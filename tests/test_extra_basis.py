"""An extra cost's basis decides what it is billed on (``billing.EXTRA_RULES``), so each kind is charged only on
the bases that bill what it is (``billing.EXTRA_BASES``): egress per GB sent out, storage per TB stored a month, a
setup fee or a deposit once… A pair outside that is refused wherever an extra cost is entered (the CLI, the TUI's
form, whose basis drop-down lists only the kind's bases, a workbook or CSV import, the demo files); one already
stored is costed as recorded and flagged, and read back unchanged from the buyer's own export, and the "not priced
by the offer" caveats follow what the extras are billed on, never their kind."""

from __future__ import annotations

import json
import shlex
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from econ_helpers import fx, offer, option, scenario
from textual.widgets import Input, Select, Static

from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.billing import EXTRA_BASES, EXTRA_RULES, EXTRA_USAGE
from quotetui.domain.economics.evaluate import evaluate
from quotetui.domain.economics.inputs import ExtraTerm
from quotetui.domain.enums import ExtraBasis, ExtraKind
from quotetui.domain.errors import BadInput
from quotetui.language import use
from tests.conftest import BACKEND, Cli, execute, sql

A = Assumptions()
NO_FX = fx()
B = ExtraBasis


def test_each_kind_is_charged_on_the_bases_that_bill_what_it_is() -> None:
    assert EXTRA_BASES == {
        ExtraKind.EGRESS: (B.PER_GB,),
        ExtraKind.STORAGE: (B.PER_TB_MONTH,),
        ExtraKind.PLATFORM_FEE: (B.PER_MONTH, B.PER_NODE_MONTH, B.PER_HOUR, B.ONE_OFF),
        ExtraKind.PUBLIC_IP: (B.PER_MONTH, B.PER_NODE_MONTH, B.PER_HOUR),
        ExtraKind.SNAPSHOT: (B.PER_MONTH, B.PER_NODE_MONTH),
        ExtraKind.SETUP_FEE: (B.ONE_OFF,),
        ExtraKind.DEPOSIT: (B.ONE_OFF,),
        ExtraKind.SUPPORT: (B.PER_MONTH, B.PER_NODE_MONTH, B.PER_HOUR, B.ONE_OFF),
        ExtraKind.OTHER: (B.PER_MONTH, B.PER_NODE_MONTH, B.PER_HOUR, B.ONE_OFF),
    }
    assert set(EXTRA_USAGE) == set(ExtraBasis)  # every basis says what it bills
    # a volume basis bills its own kind's volume, and only that kind is charged on it
    assert EXTRA_RULES[B.PER_GB].per == ("egress_gb",) and EXTRA_RULES[B.PER_TB_MONTH].per == ("storage_tb",)


def test_egress_per_gb_is_billed_on_the_egress_sent_out() -> None:
    egress = ExtraTerm(1, ExtraKind.EGRESS, B.PER_GB, Decimal("0.5"), "CNY")
    s = scenario(months=12, egress_tb_month=Decimal("10"), storage_tb=Decimal("50"))
    e = evaluate(offer(option("80000"), extras=(egress,)), s, NO_FX, A)
    [line] = e.best.extras
    assert line.monthly == 5000  # 0.5 CNY/GB × 10 TB × 1,000 GB/TB
    assert e.best.extras_total == 60000  # × 12 months = 60,000.00 CNY
    assert line.reason == "10 TB egress a month"  # what explain says it was billed on
    # the egress is priced; the 50 TB stored are not, and the figures say so
    assert e.unpriced == ("storage: 50 TB in the scenario, not priced by the offer",)
    assert e.estimates == ()


def test_storage_per_tb_month_prices_the_storage() -> None:
    storage = ExtraTerm(1, ExtraKind.STORAGE, B.PER_TB_MONTH, Decimal("120"), "CNY")
    s = scenario(months=6, egress_tb_month=Decimal("0"), storage_tb=Decimal("50"))
    e = evaluate(offer(option("80000"), extras=(storage,)), s, NO_FX, A)
    assert e.best.extras_total == 36000  # 120 CNY × 50 TB × 6 months
    assert e.best.extras[0].reason == "50 TB stored"
    assert e.unpriced == ()


def test_the_unpriced_caveat_follows_the_basis_not_the_kind() -> None:
    """An egress fee stored "per TB-month" (before the pair was refused) is billed on the TB stored: the storage
    is then priced, the egress is not, and the extra is flagged, its figures kept as recorded."""
    stored = ExtraTerm(1, ExtraKind.EGRESS, B.PER_TB_MONTH, Decimal("100"), "CNY", description="OSS outbound")
    s = scenario(months=12, egress_tb_month=Decimal("2"), storage_tb=Decimal("50"))
    e = evaluate(offer(option("80000"), extras=(stored,)), s, NO_FX, A)
    assert e.best.extras_total == 60000  # as recorded: 100 CNY × 50 TB stored × 12 months
    assert e.best.extras[0].reason == "50 TB stored"
    assert e.unpriced == ("egress: 2 TB a month in the scenario, not priced by the offer",)
    assert e.estimates == (
        "OSS outbound is billed per TB stored a month (the scenario's storage), as its basis per tb month says, "
        "but egress is charged per gb: correct the record",
    )
    assert e.caveats.prefix == "≥ ~"
    # a fee of 0 per GB says the provider includes the egress: priced, no caveat
    free = ExtraTerm(2, ExtraKind.EGRESS, B.PER_GB, Decimal("0"), "CNY")
    both = evaluate(offer(option("80000"), extras=(stored, free)), s, NO_FX, A)
    assert both.unpriced == () and both.best.extras_total == 60000


def test_a_flag_names_the_kind_when_the_extra_has_no_description_and_speaks_chinese() -> None:
    stored = ExtraTerm(1, ExtraKind.SETUP_FEE, B.PER_MONTH, Decimal("100"), "CNY")
    e = evaluate(offer(option("80000"), extras=(stored,)), scenario(months=3), NO_FX, A)
    assert e.best.extras_total == 300  # as recorded: 100 a month × 3 months
    assert e.estimates == (
        "setup fee is billed a flat fee a month, as its basis per month says, but setup fee is charged one off: "
        "correct the record",
    )
    use("zh-CN")
    e = evaluate(offer(option("80000"), extras=(stored,)), scenario(months=3), NO_FX, A)
    assert e.estimates == (
        "开通费按每月固定费用计费（计费方式为“每月”），但开通费的计费方式只能是一次性；请更正该记录",
    )


@pytest.mark.parametrize(
    ("kind", "basis", "message"),
    [
        ("egress", "per_tb_month", "--basis: per tb month bills per TB stored a month (the scenario's storage): "
         "egress is charged per gb"),
        ("storage", "per_gb", "--basis: per gb bills per GB sent out (the scenario's egress): storage is charged "
         "per tb month"),
        ("setup_fee", "per_month", "--basis: per month bills a flat fee a month: setup fee is charged one off"),
        ("other", "per_gb", "--basis: per gb bills per GB sent out (the scenario's egress): other is charged one of "
         "per month, per node month, per hour, one off"),
    ],
)  # fmt: skip
def test_the_cli_refuses_a_basis_its_kind_is_not_charged_on(
    cli: Cli, demo_db_path: Path, kind: str, basis: str, message: str
) -> None:
    db = str(demo_db_path)
    before = sql(demo_db_path, "SELECT count(*) FROM extra_cost")
    refused = cli("--db", db, "extra", "add", "1", "--kind", kind, "--basis", basis, "--amount", "100")
    assert refused.code == 2 and refused.err.strip() == f"quotetui: {message}", refused.err
    assert sql(demo_db_path, "SELECT count(*) FROM extra_cost") == before
    chinese = cli("--lang", "zh-CN", "--db", db, "extra", "add", "1", "--kind", "egress", "--basis", "per_tb_month")
    assert chinese.err.strip() == (
        "quotetui: --basis：“每 TB 每月”按每月存储的 TB 数（场景的存储量）计费；出网流量的计费方式只能是每 GB"
    ), chinese.err
    ok = cli("--db", db, "extra", "add", "1", "--kind", "storage", "--basis", "per_tb_month", "--amount", "120")
    assert ok.code == 0, ok.err


def test_an_import_with_one_incoherent_pair_imports_nothing_and_names_its_row(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Extra costs"
    offer_name = "ecs.gn7e 8×A100 80GB（按量）"
    sheet.append(["provider", "offer", "kind", "basis", "amount", "currency"])
    sheet.append(["阿里云", offer_name, "storage", "per_tb_month", 100, "CNY"])
    sheet.append(["阿里云", offer_name, "egress", "per_tb_month", 500, "CNY"])
    path = tmp_path / "extras.xlsx"
    book.save(path)
    before = sql(demo_db_path, "SELECT count(*) FROM extra_cost")
    result = cli("--db", str(demo_db_path), "import", str(path))
    assert result.code == 2
    assert result.err.splitlines() == [
        "quotetui: 1 problem; nothing was imported:",
        "  extras.xlsx › Extra costs › row 3 › column 'basis' (D): per tb month bills per TB stored a month "
        "(the scenario's storage): egress is charged per gb",
    ]
    assert sql(demo_db_path, "SELECT count(*) FROM extra_cost") == before  # the good row 2 is not saved either


def test_the_demo_files_refuse_an_incoherent_pair(tmp_path: Path) -> None:
    from quotetui.io.demo_files import load_demo_files
    from quotetui.resources import demo_dir

    folder = tmp_path / "demo"
    shutil.copytree(demo_dir(), folder)
    aliyun = folder / "providers" / "03_aliyun.toml"
    text = aliyun.read_text(encoding="utf-8")
    assert text.count('basis = "per_gb"') == 4
    aliyun.write_text(text.replace('basis = "per_gb"', 'basis = "per_tb_month"', 1), encoding="utf-8")
    with pytest.raises(BadInput, match="per tb month bills per TB stored a month") as refused:
        load_demo_files(folder)
    assert "imports/demo/providers/03_aliyun.toml" in str(refused.value)
    load_demo_files(demo_dir())  # the demo's own extras are coherent


def test_a_stored_pair_keeps_its_figures_and_explain_flags_it(cli: Cli, demo_db_path: Path) -> None:
    """A database written before the rule: offer #12's egress fee stored at 100 CNY "per TB-month". The A100
    fine-tuning scenario stores 5 TB and sends out 0.5 TB a month for 3 months."""
    stored = 100 * 10**6 if BACKEND == "sqlite" else 100  # SQLite keeps an amount in millionths, PostgreSQL exact
    execute(
        demo_db_path, "UPDATE extra_cost SET basis = 'per_tb_month', amount = :amount WHERE id = 3", {"amount": stored}
    )
    scenario_name = "A100 微调 (8 卡, 3 个月, 60 %)"
    out = cli("--db", str(demo_db_path), "explain", "12", "--scenario", scenario_name, "--json")
    assert out.code == 0, out.err
    data = json.loads(out.out)
    extras = next(f for f in data["figures"] if f["key"] == "extras")
    assert Decimal(extras["value"]) == Decimal("1500")  # as recorded: 100 CNY × 5 TB stored × 3 months
    assert any("× 5 TB stored = 500.00 CNY a month" in line for line in extras["inputs"])
    caveats = data["caveats"]
    assert caveats["unpriced"] == [
        "PAI平台使用费 — 未公布金额: amount not quoted",
        "egress: 0.5 TB a month in the scenario, not priced by the offer",
    ]  # the 5 TB stored are billed (by the egress fee), the egress is not
    assert caveats["estimates"] == [
        "OSS数据传出流量费（0.5元/GB） is billed per TB stored a month (the scenario's storage), as its basis "
        "per tb month says, but egress is charged per gb: correct the record"
    ]


def _older_version_stored(db: Path) -> None:
    """Offer #12's egress fee (extra #3) stored at 100 CNY "per TB-month", as a version before the rule wrote it."""
    stored = 100 * 10**6 if BACKEND == "sqlite" else 100  # SQLite keeps an amount in millionths, PostgreSQL exact
    execute(db, "UPDATE extra_cost SET basis = 'per_tb_month', amount = :amount WHERE id = 3", {"amount": stored})


EXTRAS = "SELECT * FROM extra_cost ORDER BY id"
EXTRA_LOG = "SELECT count(*) FROM change_log WHERE entity = 'extra_cost'"


def test_the_buyers_own_export_of_a_stored_pair_imports_again_and_changes_nothing(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """A database an older version wrote: its workbook's Extra costs sheet repeats the stored pair, which the import
    refused (the export could not be read back). The row changes nothing: it is kept as stored, still flagged, and
    the import says so on its row."""
    db = str(demo_db_path)
    _older_version_stored(demo_db_path)
    book = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    before, logged = sql(demo_db_path, EXTRAS), sql(demo_db_path, EXTRA_LOG)
    again = cli("--db", db, "import", str(book))
    assert again.code == 0, again.err
    assert "  extra costs: 0 added, 0 changed, 7 unchanged" in again.out.splitlines()
    assert [line for line in again.err.splitlines() if "Extra costs" in line] == [
        "warning: market.xlsx › Extra costs › row 4 › column 'basis' (D): the stored extra cost is kept as it is "
        "(this row changes nothing), but per tb month bills per TB stored a month (the scenario's storage): egress "
        "is charged per gb"
    ]
    assert sql(demo_db_path, EXTRAS) == before and sql(demo_db_path, EXTRA_LOG) == logged
    out = cli("--db", db, "explain", "12", "--scenario", "A100 微调 (8 卡, 3 个月, 60 %)", "--json")
    assert json.loads(out.out)["caveats"]["estimates"] == [  # still flagged ~ where it is costed
        "OSS数据传出流量费（0.5元/GB） is billed per TB stored a month (the scenario's storage), as its basis "
        "per tb month says, but egress is charged per gb: correct the record"
    ]
    chinese = cli("--lang", "zh-CN", "--db", db, "import", str(book), "--dry-run")
    assert chinese.code == 0, chinese.err
    [said] = [line for line in chinese.err.splitlines() if "Extra costs" in line]
    assert said.startswith("警告：market.xlsx › Extra costs › 第 4 行 ") and said.endswith(
        "（D）：已保存的附加费用保持原样（此行未作任何更改），但“每 TB 每月”按每月存储的 TB 数（场景的存储量）计费；"
        "出网流量的计费方式只能是每 GB"
    ), said


def test_a_stored_pair_changed_or_a_new_one_is_still_refused_on_its_row(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """Only a row that repeats the stored one as it is passes: a new amount on the stored pair enters a figure on a
    basis its kind is not charged on, and so does a new disagreeing row; each is refused on its sheet, row and
    column, and nothing is imported."""
    from openpyxl import load_workbook

    db = str(demo_db_path)
    _older_version_stored(demo_db_path)
    book = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    workbook = load_workbook(book)
    sheet = workbook["Extra costs"]
    assert [c.value for c in sheet[4]][2:5] == ["egress", "per_tb_month", 100]
    sheet.cell(4, 5, 120)  # the stored pair at a new amount
    sheet.append(["阿里云", "ecs.gn7e 8×A100 80GB（按量）", "storage", "per_gb", 0.12, "CNY"])  # a new pair, row 9
    workbook.save(book)
    before = sql(demo_db_path, EXTRAS)
    refused = cli("--db", db, "import", str(book))
    assert refused.code == 2
    assert refused.err.splitlines()[:3] == [
        "quotetui: 2 problems; nothing was imported:",
        "  market.xlsx › Extra costs › row 4 › column 'basis' (D): this row changes column 'amount' (E) of the "
        "stored extra cost, but per tb month bills per TB stored a month (the scenario's storage): egress is charged "
        "per gb; correct column 'basis' (D) too, or leave the row as exported",
        "  market.xlsx › Extra costs › row 9 › column 'basis' (D): per gb bills per GB sent out (the scenario's "
        "egress): storage is charged per tb month",
    ]
    assert sql(demo_db_path, EXTRAS) == before


def _stored_disagreeing(db: Path, offer_id: int, rows: list[tuple[str, str, int, bool, str | None]]) -> list[int]:
    """Extra costs of ``offer_id`` (kind, basis, amount in CNY, refundable, description) stored as a version before
    the rule wrote them; their ids."""
    millionths = 10**6 if BACKEND == "sqlite" else 1  # SQLite keeps an amount in millionths, PostgreSQL exact
    for kind, basis, amount, refundable, description in rows:
        execute(
            db,
            "INSERT INTO extra_cost (offer_id, kind, basis, amount, currency, refundable, description, is_estimate, "
            "version) VALUES (:offer, :kind, :basis, :amount, 'CNY', :refundable, :description, false, 1)",
            {
                "offer": offer_id,
                "kind": kind,
                "basis": basis,
                "amount": amount * millionths,
                "refundable": refundable,
                "description": description,
            },
        )
    return [i for (i,) in sql(db, f"SELECT id FROM extra_cost ORDER BY id DESC LIMIT {len(rows)}")][::-1]


def _rebased(book: Path, out: Path, bases: dict[tuple[str, str], str]) -> Path:
    """The workbook ``book`` with the Extra costs rows of each (kind, basis) given on another basis."""
    from openpyxl import load_workbook

    workbook = load_workbook(book)
    for row in workbook["Extra costs"].iter_rows(min_row=2):
        new = bases.get((row[2].value, row[3].value))
        if new is not None:
            row[3].value = new
    workbook.save(out)
    return out


def test_a_stored_pair_whose_basis_the_workbook_corrects_is_changed_not_doubled(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """Offer #14 with a 5,000 CNY setup fee and a 1 CNY deposit an older version stored per month and per hour; the
    buyer sets both rows' basis to one-off in their own export. Each stored row is corrected, its id kept and the
    change logged as its change: the setup fee is billed once, 5,000.00 CNY, not monthly and once."""
    db = str(demo_db_path)
    setup, deposit = _stored_disagreeing(
        demo_db_path, 14, [("setup_fee", "per_month", 5000, False, "安装费"), ("deposit", "per_hour", 1, True, None)]
    )
    book = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    fixed = _rebased(
        book, tmp_path / "e.xlsx", {("setup_fee", "per_month"): "one_off", ("deposit", "per_hour"): "one_off"}
    )
    done = cli("--db", db, "import", str(fixed))
    assert done.code == 0, done.err
    assert "  extra costs: 0 added, 2 changed, 7 unchanged" in done.out.splitlines()
    assert sql(demo_db_path, "SELECT id, kind, basis FROM extra_cost WHERE offer_id = 14 AND kind <> 'egress'") == [
        (setup, "setup_fee", "one_off"),
        (deposit, "deposit", "one_off"),
    ]
    logged = "SELECT row_id, action FROM change_log WHERE entity = 'extra_cost' ORDER BY id DESC LIMIT 2"
    assert sql(demo_db_path, logged) == [(deposit, "changed"), (setup, "changed")]
    out = cli("--db", db, "explain", "14", "--json")
    extras = next(f for f in json.loads(out.out)["figures"] if f["key"] == "extras")
    assert [line for line in extras["inputs"] if "安装费" in line] == [
        "安装费: 5,000.00 CNY × one-off = 5,000.00 CNY once"
    ]
    assert cli("--db", db, "db", "check").code == 0  # nothing left to correct


def test_a_correction_onto_a_basis_the_offer_has_already_is_refused_with_the_commands_that_correct_it(
    cli: Cli, demo_db_path: Path, tmp_path: Path
) -> None:
    """Offer #12 has its egress fee per GB (extra #3) and a second one an older version stored per TB-month: set to
    per GB in the workbook it would be a second egress-per-GB row, which an import cannot tell apart. Refused, and
    the message names the command that removes the stored row (its amount belongs in the per-GB one)."""
    db = str(demo_db_path)
    [stale] = _stored_disagreeing(demo_db_path, 12, [("egress", "per_tb_month", 100, False, "旧出网费")])
    book = tmp_path / "market.xlsx"
    assert cli("--db", db, "export", str(book)).code == 0
    fixed = _rebased(book, tmp_path / "e.xlsx", {("egress", "per_tb_month"): "per_gb"})
    before = sql(demo_db_path, EXTRAS)
    refused = cli("--db", db, "import", str(fixed))
    assert refused.code == 2
    assert refused.err.splitlines()[:2] == [
        "quotetui: 1 problem; nothing was imported:",
        "  e.xlsx › Extra costs › row 6: the egress / per_gb row is also on row 4: each appears once in an import; "
        f"extra cost #{stale} (egress, per tb month) cannot become a second egress / per_gb row of the offer: remove "
        f"it once that row prices what it charged: `quotetui --db {shlex.quote(db)} extra remove {stale}`",
    ]
    assert sql(demo_db_path, EXTRAS) == before
    chinese = cli("--lang", "zh-CN", "--db", db, "import", str(fixed))
    assert chinese.err.splitlines()[1].endswith(
        f"附加费用 #{stale}（出网流量，每 TB 每月）不能成为该报价的第二个 egress / per_gb 行："
        f"请在那一行也计入它所收的费用后将其删除：`quotetui --db {shlex.quote(db)} extra remove {stale}`"
    ), chinese.err
    printed = refused.err.splitlines()[1].rsplit("`", 2)[1]  # the command as printed acts on this database
    assert cli(*shlex.split(printed)[1:]).code == 0
    assert stale not in [r[0] for r in sql(demo_db_path, "SELECT id FROM extra_cost")]


def test_db_check_names_each_stored_pair_with_the_command_that_corrects_it(cli: Cli, demo_db_path: Path) -> None:
    """A setup fee stored per month (its kind's one basis free: edited to one-off) and an egress fee per TB-month
    beside the offer's per-GB one (removed): each named with the rule's words; exit 2 until both are corrected."""
    db = str(demo_db_path)
    run = f"quotetui --db {shlex.quote(db)}"  # the command says which database: run elsewhere, it would open another
    [setup] = _stored_disagreeing(demo_db_path, 14, [("setup_fee", "per_month", 5000, False, "安装费")])
    [egress] = _stored_disagreeing(demo_db_path, 12, [("egress", "per_tb_month", 100, False, None)])
    checked = cli("--db", db, "db", "check")
    assert checked.code == 2
    assert checked.out.splitlines()[3:] == [
        f"an extra cost on a basis its kind is not charged on: offer #12, extra cost #{egress} (per tb month bills per "
        "TB stored a month (the scenario's storage): egress is charged per gb)",
        f"  to correct it: {run} extra remove {egress} (its kind's basis is on another extra cost of the offer: "
        "remove this one once that one prices what it charged)",
        f"an extra cost on a basis its kind is not charged on: offer #14, extra cost #{setup} (per month bills a flat "
        "fee a month: setup fee is charged one off)",
        f"  to correct it: {run} extra edit {setup} --basis one_off",
    ]
    chinese = cli("--lang", "zh-CN", "--db", db, "db", "check")
    assert chinese.out.splitlines()[5:] == [
        f"计费依据与类型不符的附加费用：报价 #14，附加费用 #{setup}（“每月”按每月固定费用计费；"
        "开通费的计费方式只能是一次性）",
        f"  更正方法：{run} extra edit {setup} --basis one_off",
    ]
    report = json.loads(cli("--db", db, "db", "check", "--json").out)
    assert report["ok"] is False and [(x["extra_id"], x["mend"]) for x in report["disagreeing_extras"]] == [
        (egress, f"{run} extra remove {egress}"),
        (setup, f"{run} extra edit {setup} --basis one_off"),
    ]
    remove, edit = (shlex.split(x["mend"])[1:] for x in report["disagreeing_extras"])  # run as printed
    edited = cli(*edit)
    assert edited.code == 0, edited.err
    assert edited.out.startswith(f"Updated extra cost #{setup}: kind setup_fee, basis one_off, amount 5,000.00")
    removed = cli(*remove)
    assert removed.code == 0 and removed.out.strip() == f"Removed extra cost #{egress} of offer #12.", removed.err
    assert cli("--db", db, "db", "check").code == 0


async def _listed(pilot, select: Select) -> list[str]:  # type: ignore[no-untyped-def]
    """What the drop-down ``select`` lists when opened (its first line, the blank shown as its prompt, left out),
    closed again after."""
    from textual.widgets._select import SelectOverlay

    select.focus()
    await pilot.press("enter")
    await pilot.pause()
    overlay = select.query_one(SelectOverlay)
    assert str(overlay.get_option_at_index(0).prompt) == "Select"
    shown = [str(overlay.get_option_at_index(i).prompt) for i in range(1, overlay.option_count)]
    await pilot.press("escape")
    await pilot.pause()
    return shown


async def test_the_basis_drop_down_lists_the_bases_the_kind_is_charged_on(demo_db_path: Path) -> None:
    """The extra cost form at 80x24: the basis lists only what the kind chosen is charged on, again as the kind
    changes; a basis no longer listed gives way to the kind's one basis, or to none where it has several."""
    from quotetui.store.models import ExtraCost
    from quotetui.tui.dialogs.form_screen import FormScreen
    from tests.test_tui import RecordingApp, count_rows, settle

    before = count_rows(demo_db_path, ExtraCost)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_offer(12)
        await settle(pilot)
        await pilot.press("x")  # a new extra cost: egress, per GB to start with
        await pilot.pause()
        form = app.screen
        assert isinstance(form, FormScreen)
        kind, basis = form.query_one("#f-kind", Select), form.query_one("#f-basis", Select)
        assert await _listed(pilot, basis) == ["per gb"]
        assert await _listed(pilot, kind) == [
            "egress", "platform fee", "storage", "public ip", "snapshot", "setup fee", "deposit", "support", "other"
        ]  # fmt: skip
        kind.focus()  # the kind picked as a buyer does: open, five down to setup fee, enter
        await pilot.press("enter", *["down"] * 5, "enter")
        await pilot.pause()
        assert kind.value == "setup_fee" and basis.value == "one_off"  # its one basis, picked
        assert await _listed(pilot, basis) == ["one off"]
        kind.value = "other"  # one off is one of its bases: kept
        await pilot.pause()
        assert basis.value == "one_off"
        assert await _listed(pilot, basis) == ["per month", "per node month", "per hour", "one off"]
        basis.value = "per_hour"
        kind.value = "public_ip"
        await pilot.pause()
        assert basis.value == "per_hour"
        assert await _listed(pilot, basis) == ["per month", "per node month", "per hour"]
        kind.value = "storage"
        await pilot.pause()
        assert basis.value == "per_tb_month" and await _listed(pilot, basis) == ["per tb month"]
        kind.clear()  # no kind: every basis
        await pilot.pause()
        assert await _listed(pilot, basis) == [
            "per gb", "per tb month", "per month", "per node month", "per hour", "one off"
        ]  # fmt: skip
        kind.value = "snapshot"  # per TB-month is not a snapshot's basis, and it has two: none picked
        await pilot.pause()
        assert basis.value is Select.NULL and await _listed(pilot, basis) == ["per month", "per node month"]
        basis.value = "per_node_month"
        form.query_one("#f-amount", Input).value = "30"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not form
    assert count_rows(demo_db_path, ExtraCost) == before + 1
    assert sql(demo_db_path, "SELECT kind, basis FROM extra_cost ORDER BY id DESC LIMIT 1") == [
        ("snapshot", "per_node_month")
    ]


async def test_a_stored_pair_opened_in_the_form_shows_its_basis_as_stored(demo_db_path: Path) -> None:
    """An egress fee an older version stored per TB-month: its form shows the basis as stored (never a silent
    change to per GB, which would bill the amount on another usage), beside the one its kind is charged on; a
    save as it is says why not."""
    from quotetui.domain.entities import EXTRA
    from tests.test_tui import RecordingApp, plain, settle

    _older_version_stored(demo_db_path)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_offer(12)
        await settle(pilot)
        app.screen._picked(EXTRA, ("edit", 3))  # type: ignore[attr-defined]  # as its pick dialog's Edit
        await settle(pilot)
        form = app.screen
        basis = form.query_one("#f-basis", Select)
        assert basis.value == "per_tb_month"
        assert await _listed(pilot, basis) == ["per gb", "per tb month"]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
        said = plain(form.query_one("#e-basis", Static).content).strip()
        assert said == "per tb month bills per TB stored a month (the scenario's storage): egress is charged per gb"
    assert sql(demo_db_path, "SELECT basis FROM extra_cost WHERE id = 3") == [("per_tb_month",)]
