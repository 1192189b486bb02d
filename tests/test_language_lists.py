"""How shown text is joined (``quotetui/language/lists.py``): in the language in use when it is asked, English as
it always was; expected texts written by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quotetui import language
from quotetui.language.lists import aside, clauses, detail, filled, labelled, listed


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    language.use("en")


def test_english_joins_as_before() -> None:
    language.use("en")
    assert listed(["H100", "A100"]) == "H100, A100"
    assert clauses(iter(["no IB", "too small"])) == "no IB; too small"
    assert labelled("payment", "contract #1") == "payment: contract #1"
    assert aside("contract #1", "一万网络 8×H100") == "contract #1 (一万网络 8×H100)"


def test_chinese_joins_with_its_own_punctuation() -> None:
    language.use("zh-CN")
    assert listed(["H100", "A100", "H800"]) == "H100、A100、H800"
    assert clauses(["没有机间网络", "显存不足"]) == "没有机间网络；显存不足"
    assert labelled("付款", "合同 #1") == "付款：合同 #1"
    assert aside("合同 #1", "一万网络 8×H100") == "合同 #1（一万网络 8×H100）"


def test_each_join_asks_the_language_in_use_when_it_is_called() -> None:
    language.use("zh-CN")
    assert listed(["a", "b"]) == "a、b"
    language.use("en")  # the TUI's switch: the next call speaks the new language
    assert listed(["a", "b"]) == "a, b"
    assert listed([]) == "" and clauses(["one"]) == "one"


def test_a_name_and_its_detail_join_with_a_comma_not_a_list_mark() -> None:
    language.use("en")
    assert detail("80 GB HBM3", "3.35 TB/s") == "80 GB HBM3, 3.35 TB/s"
    language.use("zh-CN")
    assert detail("80 GB HBM3", "3.35 TB/s") == "80 GB HBM3，3.35 TB/s"
    assert detail("厂商 RDMA", "每 GPU 12.5 Gb/s") == "厂商 RDMA，每 GPU 12.5 Gb/s"


def test_a_filled_word_keeps_a_space_only_beside_latin_and_digits() -> None:
    template = "没有 {subject} 的变更记录（由 {source} 确定）"
    assert filled(template, subject="设置", source="用户配置目录") == "没有设置的变更记录（由用户配置目录确定）"
    assert filled(template, subject="offer #3", source="--config") == "没有 offer #3 的变更记录（由 --config 确定）"
    assert filled(template, subject="一万 网络", source="H100 集群") == "没有一万 网络的变更记录（由 H100 集群确定）"
    assert filled("{field} 的第 {n} 位", field="名称", n=2) == "名称的第 2 位"
    assert filled("{field} 的第 {n} 位", field="name", n=2) == "name 的第 2 位"
    assert filled("{a}：{b}  （正文：{c}）", a="一万网络", b="x.xlsx", c="x.txt") == "一万网络：x.xlsx  （正文：x.txt）"
    assert filled("{price:>6} {unit} 仍可", price="3.1", unit="每 GPU 月") == "   3.1 每 GPU 月仍可"
    assert filled("{what} at {n}", what="name", n=1) == "name at 1"  # English: as str.format
