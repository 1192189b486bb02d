"""Dates by locale in prose (issue 35): a sentence in Chinese writes 2027年1月1日 (CLDR's long date, without
loading Babel: ``language/dates.py``), quotetui's English keeps its ISO days; tables, JSON, .ics and typed-back
dates stay ISO. Expected texts are written by hand."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from babel.dates import format_date, format_skeleton
from conftest import Cli

from quotetui import language
from quotetui.domain.economics.caveats import Caveats
from quotetui.domain.fx import FxQuote, FxRateFact
from quotetui.language.dates import day_text, month_text

DAYS = [date(2027, 1, 1), date(2026, 12, 31), date(2028, 2, 29), date(1999, 10, 5)]


@pytest.mark.parametrize("day", DAYS)
def test_a_day_in_a_chinese_sentence_is_cldrs_long_date(day: date) -> None:
    assert day_text(day) == day.isoformat()  # English, as ever
    assert month_text(day) == day.isoformat()[:7]
    language.use("zh-CN")
    assert day_text(day) == format_date(day, "long", locale="zh_Hans_CN")
    assert month_text(day) == format_skeleton("yMMM", day, locale="zh_Hans_CN")


def test_by_hand() -> None:
    language.use("zh-CN")
    assert day_text(date(2027, 1, 1)) == "2027年1月1日"
    assert day_text(date(2026, 12, 31)) == "2026年12月31日"
    assert month_text(date(2027, 3, 1)) == "2027年3月"


def test_a_caveats_sentence_reads_the_day_and_its_flag_keeps_iso() -> None:
    lapsed = Caveats(lapsed=date(2026, 12, 1))
    language.use("zh-CN")
    assert any("2026年12月1日" in w for w in lapsed.words())
    assert any("2026-12-01" in f for f in lapsed.flags())  # a table's flags cell: ISO, as its columns
    assert lapsed.to_json()["lapsed"] == "2026-12-01"


def test_an_fx_rate_is_said_in_the_language_and_stays_iso_for_json() -> None:
    fact = FxRateFact("USD", "CNY", Decimal("7.1"), date(2026, 11, 30), "PBOC")
    rate = FxQuote("USD", "CNY", Fraction(71, 10), fact, wanted=date(2026, 11, 29))
    language.use("zh-CN")
    assert "2026年11月30日" in rate.said() and "2026年11月29日" in rate.said()
    assert "2026-11-30" in rate.text() and "2026-11-29" in rate.text()


@pytest.fixture
def contract(cli: Cli, demo_db_path: Path) -> Path:
    done = cli("--db", str(demo_db_path), "contracts", "add", "--offer", "18", "--start", "2027-01-01",
               "--term-months", "12", "--notice-days", "30", "--auto-renew", "--signed", "2026-12-20")  # fmt: skip
    assert done.code == 0, done.err
    return demo_db_path


def test_a_contracts_sentences_read_chinese_days_and_its_lists_stay_iso(cli: Cli, contract: Path) -> None:
    db = ("--db", str(contract))
    shown = cli(*db, "contracts", "show", "1", "--on", "2027-04-15", "--lang", "zh-CN")
    assert shown.code == 0, shown.err
    assert "2027年1月1日 → 2028年1月1日（12 个月），签署于 2026年12月20日" in shown.out
    assert "通知截止日 2027年12月2日（提前 30 天）" in shown.out
    assert "  2027-05-01 付款" in shown.out  # the key dates' list: a column of ISO days
    overdue = "4 个付款日已过，尚无已付发票（2027年1月1日、2027年2月1日、2027年3月1日，另有 1 个）"
    assert f"已逾期：{overdue}" in shown.out  # the payment dates passed, said as `contracts due` says them
    due = cli(*db, "contracts", "due", "--on", "2027-04-15", "--lang", "zh-CN")
    assert "  2027-01-01" in due.out and overdue in due.out
    english = cli(*db, "contracts", "show", "1", "--on", "2027-04-15")
    assert "2027-01-01 → 2028-01-01 (12 months), signed 2026-12-20" in english.out
    as_json = json.loads(cli(*db, "contracts", "show", "1", "--json", "--lang", "zh-CN").out)
    assert (as_json["start"], as_json["signed"]) == ("2027-01-01", "2026-12-20")


def test_the_brief_dates_its_rounds_in_chinese(cli: Cli, demo_db_path: Path) -> None:
    done = cli("--db", str(demo_db_path), "brief", "3", "--lang", "zh-CN")
    assert done.code == 0, done.err
    assert "当前轮次：第 1 轮（公开标价），2026年11月29日，按对方的计价单位和币种：" in done.out
    english = cli("--db", str(demo_db_path), "brief", "3")
    assert "Current round 1 (list), 2026-11-29, in their unit and currency:" in english.out


def test_how_far_a_day_is_reads_as_contracts_due_says_it() -> None:
    """One helper for ``contracts due`` and the TUI's key dates: never a bare ``-339``."""
    from quotetui.language.dates import days_away

    assert [days_away(n) for n in (-339, -1, 0, 1, 24)] == ["339 days ago", "1 day ago", "today", "in 1 day",
                                                            "in 24 days"]  # fmt: skip
    language.use("zh-CN")
    assert [days_away(n) for n in (-339, 0, 24)] == ["339 天前", "今天", "24 天后"]


def test_a_clipped_text_is_never_cut_inside_a_figure_or_a_date() -> None:
    """The TUI's key dates fit the screen: the reviewer's lines were cut at ``，1`` (of ``12 个付款日``) and at
    ``（2026年1月1``."""
    from quotetui.language.cells import clipped, width

    line = "付款：合同 #1（阿里云 8×H100（包月）），12 个付款日已过，尚无已付发票（2026年1月15日、2026年4月15日）"
    assert clipped(line, 200) == line
    # 付款：合同 is 10 cells, " #1" 3, （阿里云 8, " 8×H100" 7, （包月）） 10, ， 2: 40; "12 个" 5 more
    assert clipped(line, 46) == "付款：合同 #1（阿里云 8×H100（包月）），12 个…"  # a count keeps its word
    assert clipped(line, 45) == "付款：合同 #1（阿里云 8×H100（包月）），…"  # not "），1…"
    # a date is one unit (a hostile review: ``（2026年1月…`` and ``（2026年…``): its head alone is never left
    assert clipped(line, 84) == "付款：合同 #1（阿里云 8×H100（包月）），12 个付款日已过，尚无已付发票…"
    assert clipped(line, 92).endswith("，尚无已付发票（2026年1月15日、…")
    paid = (
        "付款：合同 #2（腾讯云 GN10Xp 8×H100 80GB（包月）），仅部分付款（2026年1月1日：少付 4,870.97 CNY），"
        "租期 12 个月"
    )
    # 付款：合同 #2（腾讯云 is 22 cells, " GN10Xp 8×H100 80GB" 19, （包月）），仅部分付款 22: 63; （2026年1月1日： 16
    assert clipped(paid, 78) == "付款：合同 #2（腾讯云 GN10Xp 8×H100 80GB（包月）），仅部分付款…"
    assert clipped(paid, 79) == "付款：合同 #2（腾讯云 GN10Xp 8×H100 80GB（包月）），仅部分付款（2026年1月1日：…"
    assert clipped(paid, 110).endswith("），租期…")  # "12 个月" is one word too: not "租期 12 个…"
    for text in (line, paid):
        for cells in range(8, 120):
            cut = clipped(text, cells)
            head = len(cut.removesuffix("…"))
            assert width(cut) <= cells and not text[head - 1 : head + 1].isdigit(), (cells, cut)  # not "，1…"
            for unit in ("2026年1月15日", "2026年4月15日", "2026年1月1日", "4,870.97 CNY", "12 个月", "12 个"):
                at = text.find(unit)  # a unit is left whole or not at all
                assert at < 0 or not at < head < at + len(unit), (cells, cut, unit)
    assert clipped("OFF by 5,161.29 CNY", 12) == "OFF by…"
