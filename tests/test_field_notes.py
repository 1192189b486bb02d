"""What a form, the import template and a command's help say of a field (``Field.note``, ``bounds``, ``title``),
in the language in use: each shape of the line is one message with named placeholders, so the Chinese reads as
Chinese ("介于 1 和 1024 之间", a share "75%") and not as English words around translated labels."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from quotetui import language
from quotetui.domain import entities as E
from quotetui.domain.errors import BadInput
from quotetui.domain.fields import Field, parse_value
from quotetui.services.form_spec import hint


@pytest.fixture
def chinese() -> None:
    language.use("zh-CN")


def test_english_notes_are_as_before() -> None:
    assert E.GPUS_PER_NODE.note() == "a whole number, GPUs, at least 1 and at most 1024"
    assert E.SETTINGS.field("default_mfu").note() == "at least 1 % and at most 75 %"
    assert E.RENT_BUY.field("power_kw").note() == "kW, more than 0 and at most 1,000,000"
    assert (
        E.CONTRACT.field("billing").note()
        == "one of: monthly, quarterly, half_yearly, annually, upfront; default monthly"
    )
    assert (
        E.OFFER.field("vat_rate").note()
        == "the VAT the quoted prices include: 6% services, 13% leases and hardware, 0 none"
    )
    assert E.ACCEPTANCE_SAMPLE.note() == "a percentage: 10 checks 10 % of the nodes; empty: every node"
    assert hint(E.SLA.field("availability")) == "a percentage, e.g. 99.9 for 99.9 %"
    assert E.OFFER.field("gpu").title == "GPU model"  # "GPU model (any name or alias)"


@pytest.mark.usefixtures("chinese")
def test_chinese_notes_are_whole_chinese_sentences() -> None:
    assert E.GPUS_PER_NODE.note() == "整数，单位：块，介于 1 和 1024 之间"
    assert E.SETTINGS.field("default_mfu").note() == "介于 1% 和 75% 之间"
    assert E.RENT_BUY.field("power_kw").note() == "单位：kW，大于 0 且不超过 1,000,000"
    assert E.OFFER.field("nvme_tb").note() == "单位：TB，介于 0 和 1,000,000 之间"
    assert E.SLA.field("replacement_hours").note() == "整数，单位：小时，介于 0 和 100,000 之间"
    assert (
        E.CONTRACT.field("billing").note()
        == "可选值：monthly（按月）、quarterly（按季）、half_yearly（按半年）、annually（按年）、"
        "upfront（一次付清）；默认：monthly"
    )
    assert E.PROVIDER.field("regions").note() == "以逗号分隔"
    assert E.PROVIDER.field("name").note() == "名称唯一，可用中文"  # a declared help, translated
    assert E.OFFER.field("vat_rate").note() == "报价所含增值税：服务 6%，租赁和硬件 13%，0 表示不含"
    assert E.ACCEPTANCE_SAMPLE.note() == "百分比：10 表示抽检 10% 的节点；留空：检查所有节点"
    assert hint(E.SLA.field("availability")) == "百分比，如 99.9 表示 99.9%"


@pytest.mark.usefixtures("chinese")
def test_a_commands_help_keeps_the_english_it_is_translated_from() -> None:
    """A command's option help is built once, in English, and translated as a whole where it is written out:
    the note it is made of stays English whatever the language in use."""
    assert E.SETTINGS.field("default_mfu").note(english=True) == "at least 1 % and at most 75 %"
    assert E.GPUS_PER_NODE.note(english=True) == "a whole number, GPUs, at least 1 and at most 1024"
    assert hint(E.SLA.field("availability"), english=True) == "a percentage, e.g. 99.9 for 99.9 %"


@pytest.mark.usefixtures("chinese")
def test_a_message_names_a_field_by_its_chinese_label_without_the_hint() -> None:
    assert E.OFFER.field("gpu").title == "GPU 型号"  # 「GPU 型号（任意名称或别名）」


@pytest.mark.usefixtures("chinese")
def test_a_bad_share_is_refused_with_the_share_written_the_chinese_way() -> None:
    mfu = E.SETTINGS.field("default_mfu")
    with pytest.raises(BadInput) as refused:
        parse_value(mfu, "80")
    assert str(refused.value) == "不得大于 75%"
    with pytest.raises(BadInput) as refused:
        parse_value(mfu, "0.5")
    assert str(refused.value) == "0.5 将被视为 0.5%：是否想输入 50%？（如确指 0.5%，请输入 0.5%）"


def test_every_shape_of_note_is_one_message() -> None:
    fields = [
        Field("a", "A", "int", minimum=Decimal(1)),
        Field("a", "A", "decimal", maximum=Decimal(5)),
        Field("a", "A", "decimal", positive=True),
        Field("a", "A", "int", unit="GPUs"),
        Field("a", "A", "decimal", unit="TB"),
        Field("a", "A", "bool", default=True),
        Field("a", "A"),
    ]
    english = [
        "a whole number, at least 1",
        "at most 5",
        "more than 0",
        "a whole number, GPUs",
        "TB",
        "default yes",
        "",
    ]
    assert [f.note() for f in fields] == english
    language.use("zh-CN")
    assert [f.note() for f in fields] == [
        "整数，不小于 1",
        "不超过 5",
        "大于 0",
        "整数，单位：块",
        "TB",
        "默认：是",
        "",
    ]
    assert [f.note(english=True) for f in fields] == english


def test_the_import_templates_notes_are_chinese(tmp_path: Path) -> None:
    import openpyxl

    from quotetui.io.xlsx_template import write_template

    language.use("zh-CN")
    path = write_template(tmp_path / "template.xlsx", ["H100"])
    offers = openpyxl.load_workbook(path)["Offers"]
    notes = {cell.value: cell.comment.text for cell in offers[1] if cell.comment}
    assert notes["gpus_per_node"].startswith("必填。整数，单位：块，介于 1 和 1024 之间\n")
    assert notes["lead_time_days"].startswith("整数，单位：天，介于 0 和 3650 之间\n")
