"""How shown text is joined (``quotetui/language/lists.py``): in the language in use when it is asked, English as
it always was; expected texts written by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from quotetui import language
from quotetui.language.lists import aside, clauses, labelled, listed


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
