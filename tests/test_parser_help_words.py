"""The command line's own words as a buyer reads them (issue 35, a hostile review in zh-CN): the parser's
suggestion of a command, the usage line, a yes/no flag's help, Typer's bracketed tags and share defaults, and
what an import says of the wrong file; the import template's drop-downs. Expected text is written out here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from quotetui.language.cells import wrap
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _flat(text: str) -> str:
    """English help text without its line breaks and indents (``--help`` wraps to the terminal)."""
    return " ".join(text.split())


def _joined(text: str) -> str:
    """Chinese help text without its line breaks, indents and spaces (a line breaks between any two characters)."""
    return "".join(text.split())


# -- the parser ------------------------------------------------------------------------------------------------


def test_a_mistyped_command_is_suggested_in_the_language_once_punctuated() -> None:
    zh = run_cli("--lang", "zh-CN", "compare")
    assert zh.code == 2
    assert "错误：命令“compare”不存在。是否要输入“market”？\n" in zh.err
    assert "Did you mean" not in zh.err and "。." not in zh.err
    en = run_cli("compare")
    assert "Error: No such command 'compare'. Did you mean 'market'?\n" in en.err
    assert "'.." not in en.err and "'compare'.." not in en.err
    nested = run_cli("--lang", "zh-CN", "contracts", "incidnt")
    assert "错误：命令“incidnt”不存在。是否要输入“incident”？\n" in nested.err


def test_a_command_close_to_nothing_suggests_nothing() -> None:
    done = run_cli("--lang", "zh-CN", "zzzz")
    assert done.code == 2
    assert done.err.endswith("错误：命令“zzzz”不存在。\n")


def test_the_usage_line_has_a_full_width_colon_in_chinese() -> None:
    help_page = run_cli("--lang", "zh-CN", "offers", "--help")
    assert help_page.out.startswith("用法：quotetui offers [OPTIONS]\n")
    refused = run_cli("--lang", "zh-CN", "offers", "--bogus")
    assert refused.err.startswith("用法：quotetui offers [OPTIONS]\n")
    assert "用法:" not in help_page.out + refused.err
    assert run_cli("offers", "--help").out.startswith("Usage: quotetui offers [OPTIONS]\n")


# -- a yes/no field at a flag, in a form and in a sheet ----------------------------------------------------------


def test_a_yes_no_flag_is_told_by_its_flags_not_a_value_it_does_not_take() -> None:
    en = _flat(run_cli("offer", "add", "--help").out)
    assert "Bare metal (not virtualised): --bare-metal or --no-bare-metal. Default: --bare-metal." in en
    assert "Special VAT invoice (专票): --special-invoice if the provider issues" in en
    assert "monthly plans: --prorata-days if part months are billed by the day." in en
    zh = _joined(run_cli("--lang", "zh-CN", "offer", "add", "--help").out)
    assert "是否裸金属（非虚拟化）：是用--bare-metal，否用--no-bare-metal。默认：--bare-metal。" in zh
    assert "专票：供应商开具增值税专用发票则加--special-invoice，一般纳税人买方可凭票抵扣增值税。" in zh
    for page in (en, zh):
        assert not re.search(r"(?<![a-z])yes(?![a-z])", page), page
    edit = _flat(run_cli("offer", "edit", "--help").out)
    assert "Bare metal (not virtualised): --bare-metal or --no-bare-metal." in edit
    assert "Default: --bare-metal" not in edit  # an edit keeps the offer's value


def test_a_yes_no_flag_that_takes_a_value_still_says_yes() -> None:
    """``settings set --net-of-vat yes|no`` takes the word: its help says it."""
    assert "--net-of-vat yes|no" in run_cli("settings", "set", "--help").out


def test_a_yes_no_field_says_yes_and_no_in_a_form_and_a_sheet() -> None:
    from quotetui import language
    from quotetui.domain.entities import NEW_OFFER
    from quotetui.services.form_spec import hint

    fields = {f.name: f for f in NEW_OFFER.fields}
    language.use("en")
    assert hint(fields["bare_metal"]) == "yes or no; default yes"
    assert hint(fields["special_invoice"]).startswith("yes if the provider issues 增值税专用发票")
    language.use("zh-CN")
    try:
        assert hint(fields["special_invoice"]) == "供应商开具增值税专用发票则填 yes，一般纳税人买方可凭票抵扣增值税"
        assert hint(fields["bare_metal"]).startswith("yes 或 no")
    finally:
        language.use("en")


# -- Typer's bracketed tags and defaults ---------------------------------------------------------------------


def test_a_bracketed_tag_is_never_broken_inside() -> None:
    line = "带时区偏移的 ISO 时间，如 2026-03-01T08:00+08:00。 [必填]"
    for cells in range(14, 60):
        lines = wrap(line, cells)
        assert sum("[必填]" in part for part in lines) == 1, (cells, lines)
    assert wrap("很长的说明文字 [default: 90]", 20) == ["很长的说明文字", "[default: 90]"]


def test_required_stays_whole_in_a_chinese_help_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    done = run_cli("--lang", "zh-CN", "contracts", "incident", "add", "--help")
    assert done.code == 0
    lines = done.out.splitlines()
    assert all(line.count("[") == line.count("]") for line in lines), done.out
    assert done.out.count("[必填]") == 3  # the contract, --start and --description


def test_a_share_default_is_a_percentage_in_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert "[默认：100%]" in run_cli("--lang", "zh-CN", "scenario", "add", "--help").out
    assert "[default: 100 %]" in run_cli("scenario", "add", "--help").out
    assert "[默认：60%]" in run_cli("--lang", "zh-CN", "award", "--help").out
    nodes = run_cli("--lang", "zh-CN", "acceptance", "show", "--help").out
    assert "[默认：1；1<=x<=100000]" in nodes
    for path in (("scenario", "add"), ("award",), ("calc", "rent-vs-buy")):
        for lang in ("en", "zh-CN"):
            tags = re.findall(r"\[[^\[\]]*\]", run_cli("--lang", lang, *path, "--help").out)
            assert not [tag for tag in tags if "(" in tag or (lang == "zh-CN" and "; " in tag)], tags


def test_a_default_is_said_once() -> None:
    page = _flat(run_cli("contracts", "due", "--help").out)
    assert "How far ahead. [default: 90]" in page


# -- imports ------------------------------------------------------------------------------------------------------


def test_a_file_that_is_not_a_workbook_is_said_in_the_language_the_reader_quoted(tmp_path: Path) -> None:
    path = tmp_path / "notxlsx.xlsx"
    path.write_text("hello\n")
    db = str(tmp_path / "q.db")
    zh = run_cli("--db", db, "--lang", "zh-CN", "import", str(path))
    assert zh.code == 2
    assert "notxlsx.xlsx：不是 .xlsx 工作簿，或已损坏、被截断（zip 解析器提示：“File is not a zip file”）" in zh.err
    en = run_cli("--db", db, "import", str(path))
    said = 'not an .xlsx workbook, or a damaged or truncated one (the zip reader says "File is not a zip file")'
    assert said in en.err


SHEETS = (
    "Providers, Offers, Negotiation, Discounts, Extra costs, SLA, Benchmarks, FX rates, Scenarios, Purchase options, "
    "Settings, History"
)


def test_a_workbook_with_nothing_to_import_is_refused_naming_what_was_looked_for(tmp_path: Path) -> None:
    book = Workbook()
    book.active.title = "Sheet1"
    book.active["A1"] = "hello"
    book.save(tmp_path / "empty.xlsx")
    db = str(tmp_path / "q.db")
    en = run_cli("--db", db, "import", str(tmp_path / "empty.xlsx"))
    assert en.code == 2
    assert en.out == ""
    assert (
        f"empty.xlsx: nothing to import: no sheet is one of the template's ({SHEETS}), a SkyPilot catalog or an "
        "RFQ answer\n" in en.err
    )
    assert "empty.xlsx › Sheet1: not imported: cannot tell what this sheet holds" in en.err
    zh = run_cli("--db", db, "--lang", "zh-CN", "import", "--dry-run", str(tmp_path / "empty.xlsx"))
    assert zh.code == 2
    assert (
        "empty.xlsx：没有可导入的内容：没有与模板同名的工作表（Providers、Offers、Negotiation、Discounts、"
        "Extra costs、SLA、Benchmarks、FX rates、Scenarios、Purchase options、Settings、History），"
        "也没有 SkyPilot 价目表或询价单回复"
    ) in zh.err
    done = run_cli("--db", db, "import", "--json", str(tmp_path / "empty.xlsx"))
    assert done.code == 2 and '"imported": false' in done.out


def test_an_empty_template_imports_nothing_and_says_its_sheets_have_no_rows(tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    assert run_cli("--db", db, "template", str(tmp_path / "t.xlsx")).code == 0
    done = run_cli("--db", db, "import", str(tmp_path / "t.xlsx"))
    assert done.code == 0
    assert done.out == "Imported:\n  nothing: the sheets read have no rows\n"


def test_the_templates_drop_downs_name_the_field_by_its_title_in_the_language(tmp_path: Path) -> None:
    db = str(tmp_path / "q.db")
    assert run_cli("--db", db, "--lang", "zh-CN", "template", str(tmp_path / "zh.xlsx")).code == 0
    assert run_cli("--db", db, "template", str(tmp_path / "en.xlsx")).code == 0
    said = {}
    for lang in ("zh", "en"):
        sheet = load_workbook(tmp_path / f"{lang}.xlsx")["Providers"]
        headers = [cell.value for cell in sheet[1]]
        kind = sheet.cell(row=1, column=headers.index("kind") + 1).column_letter
        (check,) = [dv for dv in sheet.data_validations.dataValidation if str(dv.sqref).startswith(f"{kind}2:")]
        said[lang] = (check.errorTitle, check.error)
    assert said["zh"] == ("类型", "请从列表中选择一个值（类型）")
    assert said["en"] == ("Kind", "choose a value from the list (Kind)")


def test_the_template_has_english_headers_and_notes_in_the_language(tmp_path: Path) -> None:
    """README.zh-CN.md says so: the headers stay English (the import matches them), the notes are Chinese."""
    db = str(tmp_path / "q.db")
    assert run_cli("--db", db, "--lang", "zh-CN", "template", str(tmp_path / "t.xlsx")).code == 0
    header = load_workbook(tmp_path / "t.xlsx")["Offers"]["A1"]
    assert header.value == "provider"
    assert header.comment.text.startswith("必填。供应商名称")
    readme = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    assert "双语表头" not in readme and "（英文表头，导入按此识别；批注为中文）" in readme
