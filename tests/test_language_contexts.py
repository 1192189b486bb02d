"""One English word, two meanings (issue 35): "monthly" is 包月 as a way to buy and 月费 as the contracts list's
monthly charge; "who" is the round's mover (出价方) or the claim's maker (宣称方), never 人员; "rate" is an FX rate
(汇率) or a discount's rate (折扣率). Each meaning is its own catalog entry, told apart by a context
(``pgettext``; declared ``NP_`` where the word is a module constant or a column name)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from babel.messages.pofile import read_po
from rich.console import Console

from quotetui import language
from quotetui.domain import entities as E
from quotetui.language import LOCALE_DIR, NP_, _, pgettext
from quotetui.store.engine import Database
from tests.conftest import run_cli

PO = Path(LOCALE_DIR) / "zh_CN" / "LC_MESSAGES" / "quotetui.po"


def test_each_meaning_of_a_word_reads_as_itself_in_chinese() -> None:
    language.use("zh-CN")
    assert (_("monthly"), _(NP_("monthly charge", "monthly"))) == ("包月", "月费")
    assert pgettext("monthly charge", "monthly") == "月费"
    assert (_("rate"), _(NP_("discount", "rate"))) == ("汇率", "折扣率")
    assert (_(NP_("who moved", "who")), _(NP_("who claims", "who"))) == ("出价方", "宣称方")
    assert (_("what"), _(NP_("key binding", "what"))) == ("事项", "功能")
    assert (_("offers"), _(NP_("count", "offers"))) == ("报价", "报价数")
    assert (_("GPUs"), pgettext("unit", "GPUs")) == ("卡数", "块")
    assert _(E.CONTRACT.field("billing").label) == "结算周期"  # how often it is invoiced, not 计费方式
    assert _(E.OFFER.field("billing_basis").label) == "计费方式"


def test_a_word_declared_with_its_context_is_the_english_word_everywhere_else() -> None:
    monthly = NP_("monthly charge", "monthly")
    assert monthly == "monthly" and {monthly: 1}["monthly"] == 1  # a column's name, a dict's key
    assert _(monthly) == "monthly" and pgettext("monthly charge", "monthly") == "monthly"  # English


def test_every_context_of_an_id_has_its_own_chinese() -> None:
    with open(PO, "rb") as handle:
        catalog = read_po(handle)
    meanings: dict[str, dict[str | None, str]] = defaultdict(dict)
    for entry in catalog:
        if entry.id and isinstance(entry.id, str):
            meanings[entry.id][entry.context] = entry.string
    shared = {word: said for word, said in meanings.items() if len(said) > 1}
    assert {"monthly", "who", "rate", "what", "from", "offers", "Billing"} <= set(shared)
    # a code's word has its own context (``NP_("offer status", "quoted")``) even where its Chinese is the plain
    # word's; the words with two meanings read at least two ways
    for word in ("monthly", "who", "rate", "what", "from", "offers", "Billing", "claimed"):
        said = shared[word]
        assert len(set(said.values())) >= 2, (word, said)


def test_the_rounds_table_heads_the_mover_column_as_the_mover(demo_db: Database) -> None:
    from quotetui.services.offer_detail import load_offer_detail
    from quotetui.tui.widgets.detail_tables import rounds

    language.use("zh-CN")
    console = Console(width=160, record=True)
    console.print(rounds(load_offer_detail(demo_db, 1)))
    heads = console.export_text().splitlines()[0].split()
    assert "出价方" in heads and "人员" not in heads


def test_the_providers_list_counts_offers(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    assert run_cli("--db", db, "demo").code == 0
    heads = run_cli("--db", db, "--lang", "zh-CN", "providers").out.splitlines()[0].split()
    assert "报价数" in heads
    assert run_cli("--db", db, "providers").out.splitlines()[0].split()[4] == "offers"
