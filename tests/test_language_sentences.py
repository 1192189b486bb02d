"""Chinese sentences as a buyer reads them: no space between a filled-in CJK word and the CJK text around it (a
space stays beside Latin and digits), the glossary's units and words, shares as the language writes them, a
count with its measure word, a time for people; and the English of the same commands. Expected texts written by
hand from the demo market."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from quotetui import language
from quotetui.domain.errors import BadInput
from quotetui.domain.text import clean_name
from quotetui.language import N_
from quotetui.language.dates import time_text
from tests.conftest import run_cli

RFQ = "H100 256"
NEED = ("--gpu", "H100 SXM5", "--gpus", "256", "--months", "12", "--start", "2027-01-01")


def zh(db: Path, *args: str) -> str:
    done = run_cli("--db", str(db), "--lang", "zh-CN", *args)
    assert done.code == 0, done.err
    return done.out


def en(db: Path, *args: str) -> str:
    done = run_cli("--db", str(db), *args)
    assert done.code == 0, done.err
    return done.out


def refusal(what: str, value: str) -> str:
    with pytest.raises(BadInput) as caught:
        clean_name(value, what=what, max_length=120)
    return str(caught.value)


def test_a_refused_name_joins_its_cjk_title_without_a_space() -> None:
    language.use("zh-CN")
    assert refusal(N_("name"), "x\x1by") == "名称的第 2 位含有控制字符（ESCAPE, U+001B）"
    assert refusal(N_("name"), "a" * 300) == "名称有 300 个字符（最多 120 个）"
    language.use("en")
    assert refusal(N_("name"), "x\x1by") == "name contains a control character (ESCAPE, U+001B) at position 2"


def test_history_config_and_calc_fill_cjk_words_without_stray_spaces(demo_db_path: Path) -> None:
    assert zh(demo_db_path, "history", "--settings").startswith("没有设置的变更记录（")
    assert "（由用户配置目录确定；" in zh(demo_db_path, "config")
    term = zh(demo_db_path, "calc", "term", "--monthly", "88000", "--annual", "750000")
    assert "最便宜：包年，比包月每年节省 28.98%" in term
    assert "No changes to settings recorded" in en(demo_db_path, "history", "--settings")


def test_explain_says_units_in_the_glossarys_words_and_joins_its_clauses(demo_db_path: Path) -> None:
    eight = zh(demo_db_path, "explain", "8")
    assert "每 GPU 时报价 = 3.8356 CNY/GPU 时" in eight
    assert "每有效 PFLOP 时成本 = ≥ 31.04 CNY/有效 PFLOP 时" in eight  # the glossary's one spelling
    assert "价格最高到 3,154.70 CNY 每 GPU 月，仍可优于它（包月，余量 12.7%）" in eight
    assert "GPU-h" not in eight and "PFLOP-h" not in eight
    three = zh(demo_db_path, "explain", "3")
    assert "选型避坑攻略）未经验证：性能宣称绝不会提升排名" in three
    english = en(demo_db_path, "explain", "8")
    assert "= 3.8356 CNY/GPU-h" in english and "≥ 31.04 CNY/PFLOP-h" in english
    assert '"unit": "CNY/GPU-h"' in en(demo_db_path, "explain", "8", "--json")  # JSON keeps the code


def test_round_add_names_the_round_its_id_the_mover_and_a_time_for_people(demo_db_path: Path) -> None:
    out = zh(demo_db_path, "round", "add", "8", "--mover", "counter", "--amount", "2500", "--quoted-at", "2026-12-01")
    assert out.startswith("已为报价 #8 添加第 2 轮议价（`quotetui round edit` 用的 ID：21）：出价方为我方还价、")
    assert "报价时间为 2026年12月1日、" in out and "T00" not in out
    english = en(demo_db_path, "round", "add", "8", "--amount", "2400", "--quoted-at", "2026-12-02T09:30:00Z")
    assert english.startswith("Added round 3 to offer #8 (its id for `quotetui round edit`: 22): mover provider, ")
    assert "quoted at 2026-12-02 09:30 UTC, " in english


def test_a_time_for_people_in_each_language() -> None:
    moment = datetime(2026, 12, 6, 21, 14, 17, tzinfo=UTC)
    assert time_text(moment) == "2026-12-06 21:14 UTC"
    language.use("zh-CN")
    assert time_text(moment) == "2026年12月6日 21:14 UTC"
    assert time_text(datetime(2026, 12, 6, tzinfo=UTC)) == "2026年12月6日"


def test_invitations_count_providers_and_empty_lists_say_what_to_do(demo_db_path: Path, tmp_path: Path) -> None:
    assert zh(demo_db_path, "rfq", "list").startswith("尚无询价单：用 `quotetui rfq new NAME ")
    assert en(demo_db_path, "fx", "list").startswith("No exchange rates yet: `quotetui fx add USD CNY 7.1 --date ")
    assert zh(demo_db_path, "fx", "list").startswith("尚无汇率：")
    en(demo_db_path, "rfq", "new", RFQ, *NEED)
    sent = zh(demo_db_path, "rfq", "send", RFQ, "-p", "一万网络", "-p", "天下数据", "--out", str(tmp_path))
    assert "一万网络：" in sent and ".xlsx（询价函正文：" in sent and "  （" not in sent
    en(demo_db_path, "rfq", "decline", RFQ, "-p", "一万网络")
    listed = zh(demo_db_path, "rfq", "list")
    assert "已发送 1 家、已谢绝 1 家" in listed
    assert "1 sent, 1 declined" in en(demo_db_path, "rfq", "list")


def test_scenario_show_gives_quantities_their_unit_and_settings_name_each_column(demo_db_path: Path) -> None:
    shown = zh(demo_db_path, "scenario", "show", "8×H100 一年训练")
    assert "每月出网流量：1 TB\n" in shown and "存储容量：10 TB\n" in shown
    assert "需求 GPU 数：8\n" in shown
    english = en(demo_db_path, "scenario", "show", "8×H100 一年训练")
    assert "Egress TB a month: 1 TB\n" in english
    assert zh(demo_db_path, "settings").split("\n")[0].split() == ["设置", "值", "状态", "参数"]
    assert en(demo_db_path, "settings").split("\n")[0].split() == ["setting", "value", "state", "flag"]


def test_the_scenario_picker_writes_a_share_as_the_language_does() -> None:
    from quotetui.services.scenarios import ScenarioView
    from quotetui.tui.dialogs.scenario_picker import describe

    zero = Decimal(0)
    view = ScenarioView("A100 微调", None, "A100", 8, 3, Decimal("0.995"), zero, zero, None, None, None, "CNY", False)
    assert describe(view) == "A100 微调 — 8 × A100, 3 months at 99.5 %, CNY"
    language.use("zh-CN")
    assert "利用率 99.5%" in describe(view)


async def test_the_contract_screen_writes_a_credit_share_as_the_language_does(demo_db_path: Path) -> None:
    from quotetui.tui.screens.contract_detail import ContractDetailScreen
    from tests.test_tui import RecordingApp, settle, text_of

    db = str(demo_db_path)
    en(demo_db_path, "contracts", "add", "--offer", "2", "--start", "2026-10-01", "--term-months", "12")
    app = RecordingApp(db)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.push_screen(ContractDetailScreen(1))
        await settle(pilot)
        assert "0.0 % = 0.00" in text_of(app, "#contract-body")
        app.switch_language("zh-CN")
        await settle(pilot)
        body = text_of(app, "#contract-body")
        assert "0.0% = 0.00" in body and "0.0 %" not in body


def test_a_row_that_is_not_there_is_named_by_its_number(demo_db_path: Path) -> None:
    for args, said in (
        (("explain", "99"), "没有已定价的报价 #99；`quotetui offers` 可列出所有报价"),
        (("offer", "edit", "99", "--name", "x"), "没有报价 #99"),
        (("round", "edit", "999", "--amount", "3"), "没有轮次 #999"),
    ):
        done = run_cli("--db", str(demo_db_path), "--lang", "zh-CN", *args)
        assert done.code != 0 and said in done.err and "id 为" not in done.err
    english = run_cli("--db", str(demo_db_path), "round", "edit", "999", "--amount", "3")
    assert "no round with id 999" in english.err


def test_a_form_summary_and_a_claimed_price_read_as_chinese(demo_db_path: Path) -> None:
    out = zh(demo_db_path, "provider", "edit", "1", "--kind", "public_cloud")
    assert out.strip() == "已更新供应商 #1：名称为“一万网络”、类型为公有云"
    assert en(demo_db_path, "provider", "edit", "1", "--kind", "gpu_cloud").strip() == (
        "Updated provider #1: name '一万网络', kind gpu_cloud"
    )
    brief = zh(demo_db_path, "brief", "3")
    assert "- 性能宣称 #8 价格低于 88,000.00 CNY/节点月：**不可能**" in brief
    assert "claim #8 cheaper than 88,000.00 CNY/node-month: **impossible**" in en(demo_db_path, "brief", "3")


def test_key_dates_and_english_fabrics_in_contracts(demo_db_path: Path) -> None:
    added = en(demo_db_path, "contracts", "add", "--offer", "2", "--start", "2026-01-31", "--term-months", "12",
               "--notice-days", "30", "--auto-renew")  # fmt: skip
    assert "sold: H100 SXM5, 1 node of 8 GPUs; NVSwitch in a node, IB NDR across (400 Gb/s a GPU)" in added
    due = zh(demo_db_path, "contracts", "due", "--on", "2026-12-07", "--within", "90")
    assert "通知截止日：合同 #1（一万网络 8×H100 SXM5 整机（官网价）），否则将于 2027年1月31日按 12 个月续约" in due
    assert " — " not in due
    english = en(demo_db_path, "contracts", "due", "--on", "2026-12-07", "--within", "90")
    assert "notice deadline: contract #1 (一万网络 8×H100 SXM5 整机（官网价）) — else it renews" in english


def test_quoted_names_take_no_space_beside_cjk_and_defaults_name_their_word() -> None:
    from quotetui.domain.enums import ProviderKind, fill_choices, shown_stored
    from quotetui.language.lists import filled, quoted

    language.use("zh-CN")
    try:
        assert filled("{title} 为 {value}", title="名称", value=quoted("一万网络")) == "名称为“一万网络”"
        assert filled("{title} 为 {value}", title="MFU", value="40%") == "MFU 为 40%"
        assert filled("{title} 为 {value}", title="金额", value="12.50") == "金额为 12.50"
        assert shown_stored("cheap") == "“cheap”" and shown_stored("a\x00") == "'a\\x00'"
        assert quoted("fr", "en") == "'fr'"
        assert fill_choices("默认：" + ProviderKind.LESSOR.named + "。") == "默认：lessor（出租方）。"
    finally:
        language.use("en")
    assert shown_stored("cheap") == "'cheap'"
    assert fill_choices("Default: " + ProviderKind.LESSOR.named + ".") == "Default: lessor."
