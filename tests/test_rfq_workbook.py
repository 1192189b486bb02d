"""The RFQ response workbook and cover text (issue 17, point 1): read back with openpyxl, figures by hand."""

from __future__ import annotations

import os
import subprocess
import zipfile
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from quotetui.domain.entities import OFFER, PRICE, SLA
from quotetui.domain.enums import AcceptanceCheck, InterFabric, IntraFabric
from quotetui.domain.errors import BadInput
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.sourcing.requirement import Requirement
from quotetui.io.rfq_workbook import (
    ANSWER_FIELDS,
    ANSWER_SHEET,
    DISCOUNT_SHEET,
    EXTRA_SHEET,
    IDENTITY_CELLS,
    LISTS_SHEET,
    RFQ_SHEET,
    bilingual,
    cover_text,
    response_file_name,
    write_response_workbook,
)

CATALOG = builtin_catalog()
H100 = CATALOG.lookup("H100 SXM5")
H800 = CATALOG.lookup("H800 SXM5")

FULL = Requirement(
    name="Pretrain 2027",
    gpu_models=(H100, H800),
    gpus=256,
    months=12,
    start=date(2027, 1, 1),
    respond_by=date(2026, 12, 20),
    deliver_by=date(2026, 12, 31),
    min_availability=Decimal("0.995"),
    intra_fabric=IntraFabric.NVSWITCH,
    inter_fabric=InterFabric.INFINIBAND_NDR,
    job_gpus=64,
    region="上海",
    checklist=(AcceptanceCheck.GEMM, AcceptanceCheck.ALLREDUCE, AcceptanceCheck.BURN),
    currency="CNY",
    notes="Bare metal preferred",
    revision=3,
)
MINIMAL = Requirement(name="Small", gpu_models=(H100,), gpus=8, months=1, start=date(2027, 2, 1))

HEADERS = [  # written by hand: the label, then the first Chinese alias
    "Offer name / 方案",
    "GPU model (any name or alias) / GPU型号",
    "GPUs per node / 每节点GPU数",
    "Nodes on offer / 可用节点",
    "Form factor (empty: the GPU's) / 形态",
    "Billing / 计费方式",
    "Valid until (YYYY-MM-DD) / 有效期",
    "In-node fabric / 机内互联",
    "Scale-out network / 机间网络",
    "Network Gb/s per GPU / 每卡网络带宽",
    "Region / 地域",
    "Lead time, days / 交付周期",
    "Price / 价格",
    "Price unit / 计价单位",
    "Currency / 币种",
    "Term, months (0 = on demand) / 期限",
    "Prepaid / 预付",
    "Availability % / 可用性",
    "GPU replacement, hours / 更换时间",
    "Credits: below%:credit%, … (e.g. 99.9:10, 99:25) / 赔付",
    "Notes / 备注",
]


def written(tmp_path: Path, req: Requirement = FULL, provider: str = "Acme Cloud", rfq_id: int = 42) -> Workbook:
    path = tmp_path / response_file_name(req, provider)
    write_response_workbook(path, req, provider, rfq_id, "0123456789abcdef")
    return load_workbook(path)


def validations(book: Workbook) -> dict[str, tuple[str, str]]:
    """Header → (the list formula, the validated range)."""
    sheet = book[ANSWER_SHEET]
    found = {}
    for dv in sheet.data_validations.dataValidation:
        assert dv.type == "list"
        for rng in dv.sqref.ranges:
            header = sheet.cell(row=1, column=rng.min_col).value
            found[header] = (dv.formula1, rng.coord)
    return found


def test_answer_fields_are_the_entities_own_objects():
    names = [f.name for f in ANSWER_FIELDS]
    assert names == [
        "name", "gpu", "gpus_per_node", "nodes_available", "form_factor", "billing_basis", "valid_until",
        "intra_fabric", "inter_fabric", "inter_gbps_per_gpu", "region", "lead_time_days",
        "amount", "unit", "currency", "term_months", "prepay",
        "availability", "replacement_hours", "credits", "notes",
    ]  # fmt: skip
    for field in ANSWER_FIELDS[:12]:
        assert field is OFFER.field(field.name)
    for field in ANSWER_FIELDS[12:17]:
        assert field is PRICE.field(field.name)
    for field in ANSWER_FIELDS[17:]:
        assert field is SLA.field(field.name)


def test_two_visible_sheets_and_the_identity_cells(tmp_path):
    book = written(tmp_path)
    assert book.sheetnames == [RFQ_SHEET, ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET]
    assert book.sheetnames == ["RFQ 询价", "Answer 报价", "Discounts 折扣", "Extras 附加费用"]
    assert all(s.sheet_state == "visible" for s in book.worksheets)
    rfq = book[RFQ_SHEET]
    assert rfq["A1"].value == "Request for quotation / 询价: Pretrain 2027"
    assert IDENTITY_CELLS == {
        "rfq": "B3", "rfq_id": "B4", "revision": "B5", "provider": "B6", "respond_by": "B7", "reference": "B8"
    }  # fmt: skip
    assert [rfq[f"A{r}"].value for r in range(3, 8)] == [
        "RFQ / 询价单",
        "RFQ id / 询价编号",
        "Revision / 版本",
        "Provider / 供应商",
        "Respond by / 回复截止",
    ]
    assert rfq["B3"].value == "Pretrain 2027"
    assert rfq["B4"].value == 42
    assert rfq["B5"].value == 3
    assert rfq["B6"].value == "Acme Cloud"
    assert rfq["B7"].value == datetime(2026, 12, 20)
    assert rfq["B7"].number_format == "yyyy-mm-dd"
    assert rfq["B8"].value == "0123456789abcdef"  # the invitation's reference, which an answer must keep


def test_the_requirement_line_by_line(tmp_path):
    rfq = written(tmp_path)[RFQ_SHEET]
    lines = [(rfq.cell(row=r, column=1).value, rfq.cell(row=r, column=2).value) for r in range(10, 23)]
    assert rfq["A9"].value == "Requirement / 需求"
    assert lines == [
        ("GPU models / 可接受型号", "H100 SXM5 or H800 SXM5"),
        ("GPUs / 需求GPU数", 256),
        ("Term, months / 租期(月)", 12),
        ("Start / 开始日期", datetime(2027, 1, 1)),
        ("Deliver by / 交付截止", datetime(2026, 12, 31)),
        ("Minimum SLA availability / 最低可用性", "99.5 %"),
        ("In-node fabric / 机内互联", "nvswitch or better / 或更优"),
        ("Scale-out network / 机间网络", "infiniband ndr or better / 或更优"),
        ("One training job in one offer's fabric / 单个训练任务GPU数", "64 GPUs"),
        ("Region / 地域", "上海"),
        ("Acceptance checklist / 验收项目", "gemm, allreduce, burn"),
        ("Currency / 币种", "CNY"),
        ("Notes / 备注", "Bare metal preferred"),
    ]


def test_a_minimal_requirement_says_not_required(tmp_path):
    rfq = written(tmp_path, MINIMAL, "P", 1)[RFQ_SHEET]
    assert rfq["B5"].value == 1  # the default revision
    assert rfq["B7"].value is None  # no respond-by day
    values = {rfq.cell(row=r, column=1).value: rfq.cell(row=r, column=2).value for r in range(9, 22)}
    assert values["GPU models / 可接受型号"] == "H100 SXM5"
    assert values["Deliver by / 交付截止"] == "not required / 不限"
    assert values["Scale-out network / 机间网络"] == "not required / 不限"
    assert values["Acceptance checklist / 验收项目"] == "not required / 不限"
    assert values["Currency / 币种"] == "CNY"


def test_answer_headers_notes_widths_and_frozen_panes(tmp_path):
    sheet = written(tmp_path)[ANSWER_SHEET]
    assert [c.value for c in sheet[1]] == HEADERS
    for header in HEADERS:
        english, _, chinese = header.rpartition(" / ")
        assert english and chinese and any("\u4e00" <= ch <= "\u9fff" for ch in chinese)
    notes = [c.value for c in sheet[2]]
    assert notes[0] == "required"  # the offer name: required, no help of its own
    assert notes[1] == "required; any name or alias: H100, A100-80GB …"
    assert notes[2] == "required; a whole number, GPUs, at least 1 and at most 1024"
    assert notes[8] == (
        "one of: infiniband_ndr, infiniband_hdr, roce_v2, vendor_rdma, ethernet, none, unknown; default unknown"
    )
    assert notes[16] == "yes or no / 是或否"
    assert notes[17] == "a percentage: 99.9 or 99.9%"  # the header says %, the note agrees
    for field, note in zip(ANSWER_FIELDS, notes, strict=True):
        assert field.note() in (note or "")
    assert sheet.freeze_panes == "B3"
    assert sheet.max_row == 2  # the answer rows are left empty
    for letter in ("A", "B", "T"):
        assert 12 <= sheet.column_dimensions[letter].width <= 36
    assert sheet.column_dimensions["B"].width == 36  # a long bilingual header is capped
    assert sheet.column_dimensions["A"].width == 19  # "Offer name / " is 13, 方案 two wide characters (4), + 2


def test_every_choice_column_has_its_drop_down(tmp_path):
    found = validations(written(tmp_path))
    assert found == {
        "GPU model (any name or alias) / GPU型号": ('"H100 SXM5,H800 SXM5"', "B3:B202"),
        "Form factor (empty: the GPU's) / 形态": ('"sxm,pcie,module"', "E3:E202"),
        "Billing / 计费方式": ('"on_demand,monthly,reserved,spot"', "F3:F202"),
        "In-node fabric / 机内互联": ('"nvswitch,nvlink_bridge,pcie,unknown"', "H3:H202"),
        "Scale-out network / 机间网络": (
            '"infiniband_ndr,infiniband_hdr,roce_v2,vendor_rdma,ethernet,none,unknown"',
            "I3:I202",
        ),
        "Price unit / 计价单位": ('"gpu_hour,node_hour,gpu_month,node_month,term_total"', "N3:N202"),
        "Prepaid / 预付": ('"yes,no"', "Q3:Q202"),
    }
    sheet = written(tmp_path, MINIMAL, "P", 1)[ANSWER_SHEET]  # another RFQ: the GPU list follows it
    gpu = next(dv for dv in sheet.data_validations.dataValidation if "B3:B202" in str(dv.sqref))
    assert gpu.formula1 == '"H100 SXM5"'
    assert gpu.allow_blank is False  # the GPU is required; a form factor may be left empty
    form = next(dv for dv in sheet.data_validations.dataValidation if "E3:E202" in str(dv.sqref))
    assert form.allow_blank is True
    assert form.showErrorMessage is True
    assert form.error == "choose a value from the list / 请从列表中选择 (Form factor (empty: the GPU's))"


def test_a_model_name_with_a_comma_goes_to_a_visible_lists_sheet(tmp_path):
    odd = replace(H100, name='H100, "custom"')
    book = written(tmp_path, replace(MINIMAL, gpu_models=(odd, H800)))
    assert book.sheetnames == [RFQ_SHEET, ANSWER_SHEET, DISCOUNT_SHEET, EXTRA_SHEET, LISTS_SHEET]
    assert all(s.sheet_state == "visible" for s in book.worksheets)
    formula, rng = validations(book)["GPU model (any name or alias) / GPU型号"]
    assert (formula, rng) == ("'Lists 选项'!$A$2:$A$3", "B3:B202")
    lists = book[LISTS_SHEET]
    assert [lists["A2"].value, lists["A3"].value] == ['H100, "custom"', "H800 SXM5"]


HOSTILE = ['=HYPERLINK("http://evil.example","click")', "+1", "-2+3", "@SUM(A1:A9)", "=1+1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_formula_like_text_stays_text(tmp_path, text):
    req = replace(FULL, name=text, region=text, notes=text)
    path = tmp_path / "answer.xlsx"
    write_response_workbook(path, req, text, 7, "ref")
    rfq = load_workbook(path)[RFQ_SHEET]
    for ref in ("B3", "B6", "B19", "B22"):  # the RFQ name, the provider, the region, the notes
        assert rfq[ref].value == text
        assert rfq[ref].data_type == "s"
    with zipfile.ZipFile(path) as z:  # no formula anywhere in the file
        assert not any("<f>" in z.read(n).decode() or "<f " in z.read(n).decode() for n in z.namelist())


NAMES = [
    "a/b",
    "../../etc/passwd",
    "..",
    ".hidden",
    "tab\there\x1b[31mred\x07",
    "x" * 300,
    "华东算力/上海 二期",
    'a\\b:c*?<>|"`d',
    "‮gpj.exe",
    "",
]


@pytest.mark.parametrize("name", NAMES)
def test_a_hostile_name_gives_a_safe_file_name(tmp_path, name):
    req = replace(MINIMAL, name=name)
    file = response_file_name(req, name)
    assert file.startswith("rfq-") and file.endswith(".xlsx")
    assert "/" not in file and "\\" not in file and ".." not in file
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F or ch == "\u202e" for ch in file)
    assert len(file.encode()) <= 210
    path = tmp_path / file
    path.write_bytes(b"")  # the file system takes it, in the folder asked for
    assert path.parent == tmp_path


def test_file_names_by_hand():
    assert response_file_name(FULL, "Acme Cloud") == "rfq-Pretrain_2027-Acme_Cloud.xlsx"
    assert (
        response_file_name(replace(FULL, name="华东算力/上海 二期"), "阿里云") == "rfq-华东算力_上海_二期-阿里云.xlsx"
    )
    assert response_file_name(FULL, "..") == "rfq-Pretrain_2027-provider.xlsx"
    assert response_file_name(FULL, ".hidden") == "rfq-Pretrain_2027-hidden.xlsx"
    long = response_file_name(FULL, "供" * 300)  # 3 bytes each: 33 whole characters in 100 bytes
    assert long == "rfq-Pretrain_2027-" + "供" * 33 + ".xlsx"


def test_a_chinese_and_a_long_provider_name_are_written_whole(tmp_path):
    name = "华东算力（上海）" + "x" * 112  # 120 characters: the provider's longest name
    rfq = written(tmp_path, FULL, name, 5)[RFQ_SHEET]
    assert rfq["B6"].value == name


def test_a_provider_name_with_a_control_character_is_refused(tmp_path):
    path = tmp_path / "answer.xlsx"
    with pytest.raises(BadInput, match="control character"):
        write_response_workbook(path, FULL, "evil\x1b[2J", 1, "ref")
    assert list(tmp_path.iterdir()) == []


def test_written_whole_or_not_at_all(tmp_path, monkeypatch):
    path = tmp_path / "answer.xlsx"
    path.write_bytes(b"the previous answer")

    def broken(self, filename):
        Path(filename).write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Workbook, "save", broken)
    with pytest.raises(BadInput, match="No space left"):
        write_response_workbook(path, FULL, "Acme", 1, "ref")
    assert path.read_bytes() == b"the previous answer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer.xlsx"]  # no temporary file left


def test_libreoffice_is_not_needed(tmp_path, monkeypatch):
    """Nothing is run to write the file, and it holds no formula that an office suite would have to compute."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"ran {args[0]!r}")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setenv("PATH", os.devnull)
    book = written(tmp_path)
    assert book[RFQ_SHEET]["B3"].value == "Pretrain 2027"
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            assert all(c.data_type != "f" for c in row)


def test_cover_text_for_a_full_requirement():
    text = cover_text(FULL, "Acme Cloud", 42)
    assert text == (
        "**RFQ 询价: Pretrain 2027** (RFQ #42, revision 版本 3)\n"
        "\n"
        "Acme Cloud 您好 / Hello Acme Cloud,\n"
        "\n"
        "We would like your quote for the GPU capacity below. 我们需要以下 GPU 算力，请报价：\n"
        "\n"
        "- GPU models / 可接受型号: H100 SXM5 or H800 SXM5\n"
        "- GPUs / 需求GPU数: 256\n"
        "- Term, months / 租期(月): 12\n"
        "- Start / 开始日期: 2027-01-01\n"
        "- Deliver by / 交付截止: 2026-12-31\n"
        "- Minimum SLA availability / 最低可用性: 99.5 %\n"
        "- In-node fabric / 机内互联: nvswitch or better / 或更优\n"
        "- Scale-out network / 机间网络: infiniband ndr or better / 或更优\n"
        "- One training job in one offer's fabric / 单个训练任务GPU数: 64 GPUs\n"
        "- Region / 地域: 上海\n"
        "- Acceptance checklist / 验收项目: gemm, allreduce, burn\n"
        "- Currency / 币种: CNY\n"
        "- Notes / 备注: Bare metal preferred\n"
        "\n"
        "Please fill in the attached file `rfq-Pretrain_2027-Acme_Cloud.xlsx` (sheet “Answer 报价”, one row per "
        "price option) and send it back by **2026-12-20**.\n"
        "请填写附件 `rfq-Pretrain_2027-Acme_Cloud.xlsx`（“Answer 报价”表，每个价格方案一行），"
        "请于 **2026-12-20** 前回复。\n"
    )


def test_cover_text_for_a_minimal_requirement():
    text = cover_text(replace(MINIMAL, gpus=1_024), "P", 1)
    lines = text.splitlines()
    assert [line for line in lines if line.startswith("- ")] == [
        "- GPU models / 可接受型号: H100 SXM5",
        "- GPUs / 需求GPU数: 1,024",
        "- Term, months / 租期(月): 1",
        "- Start / 开始日期: 2027-02-01",
        "- Currency / 币种: CNY",
    ]
    assert lines[-2].endswith("and send it back as soon as you can.")
    assert lines[-1].endswith("请尽快回复。")
    assert "`rfq-Small-P.xlsx`" in lines[-1]


def test_cover_text_shows_hostile_text_harmlessly():
    text = cover_text(replace(MINIMAL, notes="line one\nline two"), "evil\x1b]52;c;AAAA\x07", 9)
    assert "\x1b" not in text and "\x07" not in text
    assert "evil␛\\]52;c;AAAA␇ 您好" in text  # shown as marks, and its bracket escaped for Markdown
    assert "- Notes / 备注: line one line two" in text


def test_cover_text_names_never_make_markdown_structure():
    text = cover_text(replace(MINIMAL, name="# hd | a *b*"), "# H | *x*", 9)
    assert not any(line.startswith("#") for line in text.splitlines())
    assert "\\# H \\| \\*x\\* 您好" in text and "\\# hd \\| a \\*b\\*" in text


def test_a_list_too_long_for_the_validation_goes_to_the_lists_sheet(tmp_path):
    many = tuple(replace(H100, key=f"h100-{i}", name=f"H100 SXM5 variant number {i:02}") for i in range(12))
    assert len(",".join(g.name for g in many)) > 255
    book = written(tmp_path, replace(MINIMAL, gpu_models=many))
    formula, _ = validations(book)["GPU model (any name or alias) / GPU型号"]
    assert formula == f"'Lists 选项'!$A$2:$A${len(many) + 1}"
    lists = book[LISTS_SHEET]
    assert lists["A1"].value == "GPU model (any name or alias) / GPU型号"
    assert [lists.cell(row=r, column=1).value for r in range(2, len(many) + 2)] == [g.name for g in many]
    assert validations(book)["Prepaid / 预付"][0] == '"yes,no"'  # the short lists stay in the validation


def test_discounts_and_extras_have_their_own_sheets_from_the_entities_fields(tmp_path):
    from quotetui.domain.entities import DISCOUNT, EXTRA

    book = written(tmp_path)
    for sheet, entity in ((DISCOUNT_SHEET, DISCOUNT), (EXTRA_SHEET, EXTRA)):
        headers = [c.value for c in book[sheet][1]]
        assert headers[0] == "Offer name / 方案"  # which offer of the answer sheet it is for
        names = ("kind", "rate", "min_term_months", "min_gpus", "requires_prepay", "description")
        if entity is EXTRA:
            names = ("kind", "basis", "amount", "currency", "refundable", "description")
        assert headers[1:] == [bilingual(entity.field(n)) for n in names]
    kinds = validations(book)  # the answer sheet's; the discount sheet has its own drop-downs
    assert kinds
    discount_lists = [str(dv.formula1) for dv in book[DISCOUNT_SHEET].data_validations.dataValidation]
    assert any("term" in f for f in discount_lists)  # the discount kinds
