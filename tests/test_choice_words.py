"""A code's word is one word (issue 35, the hostile review in zh-CN): whatever shows a code in Chinese (a table,
a sentence, a fabric's short name, ``--help``, a refusal) shows the word ``Choice.parse`` and the flag take back,
however it is typed (no space beside Chinese, full-width letters or spaces, any case); each enum flag's help
lists what may be typed, the word with its code in Chinese, the codes in English."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from quotetui import language
from quotetui.domain import entities
from quotetui.domain.entities import Entity
from quotetui.domain.enums import BillingCadence, Choice, InterFabric, IntraFabric, PriceUnit, ProviderKind
from quotetui.domain.errors import BadInput
from quotetui.domain.fields import parse_value
from quotetui.domain.verification.findings import FindingCode
from quotetui.language import cells
from tests.conftest import Cli

_HAN_SPACE = re.compile(r" (?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]) ")
"""A space beside a Chinese character, which a buyer may leave out (``GPU云``)."""


@pytest.fixture
def chinese() -> Iterator[None]:
    language.use("zh-CN")
    yield
    language.use(language.ENGLISH)


def _choices() -> list[type[Choice]]:
    found, todo = [], list(Choice.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        if len(kind):
            found.append(kind)
    return found


def _choice_fields() -> list:  # type: ignore[type-arg]
    declared = [value for value in vars(entities).values() if isinstance(value, Entity)]
    return [f for entity in declared for f in entity.fields if f.choices is not None]


@pytest.mark.usefixtures("chinese")
def test_every_form_a_code_is_shown_in_is_taken_back_by_parse_and_by_its_field() -> None:
    kinds = _choices()
    assert len(kinds) >= 20
    for kind in kinds:
        for member in kind:
            shown = {*member.said, _HAN_SPACE.sub("", member.word), member.value.upper()}
            for form in shown:
                assert kind.parse(form) is member, (kind.__name__, form)
                assert kind.parse(form.replace(" ", "\u3000")) is member, (kind.__name__, form)
        words = [member.word for member in kind]
        assert len(set(words)) == len(words), (kind.__name__, words)  # one word a code: never ambiguous
    fields = _choice_fields()
    assert len(fields) >= 15
    for field in fields:
        assert field.choices is not None
        for member in field.choices:
            for form in member.said:
                assert parse_value(field, form) is member, (field.name, form)


@pytest.mark.usefixtures("chinese")
def test_the_words_the_review_found_are_one_word_each() -> None:
    assert BillingCadence.UPFRONT.word == "一次付清"
    assert IntraFabric.NVLINK_BRIDGE.short_name == "NVLink 桥接" == IntraFabric.NVLINK_BRIDGE.word
    assert InterFabric.ETHERNET.short_name == "以太网"
    assert InterFabric.INFINIBAND_NDR.short_name == "IB NDR"
    assert InterFabric.parse("IB NDR") is InterFabric.INFINIBAND_NDR
    assert IntraFabric.parse("NVLink桥接") is IntraFabric.NVLINK_BRIDGE


def test_an_english_short_name_stays_english() -> None:
    assert IntraFabric.NVLINK_BRIDGE.short_name == "NVLink bridge"
    assert IntraFabric.parse("NVLink bridge") is IntraFabric.NVLINK_BRIDGE
    assert ProviderKind.PUBLIC_CLOUD.coded == "public_cloud"


@pytest.mark.usefixtures("chinese")
def test_parse_takes_a_word_however_it_is_spaced_and_whatever_its_width() -> None:
    assert ProviderKind.parse("GPU云") is ProviderKind.GPU_CLOUD
    assert ProviderKind.parse("GPU\u3000云") is ProviderKind.GPU_CLOUD  # a full-width space
    assert ProviderKind.parse("ＧＰＵ 云") is ProviderKind.GPU_CLOUD  # full-width letters
    assert ProviderKind.parse("gpu 云") is ProviderKind.GPU_CLOUD
    assert ProviderKind.parse(" 出租方 ") is ProviderKind.LESSOR
    assert ProviderKind.parse("Public-Cloud") is ProviderKind.PUBLIC_CLOUD
    assert PriceUnit.parse("每GPU时") is PriceUnit.GPU_HOUR
    assert PriceUnit.parse("每 GPU 时") is PriceUnit.GPU_HOUR


@pytest.mark.usefixtures("chinese")
def test_parse_still_refuses_an_unknown_word_naming_codes_and_words() -> None:
    for typed in ("云", "GPU", "出租"):
        with pytest.raises(BadInput) as refused:
            ProviderKind.parse(typed)
        assert str(refused.value) == (
            f"ProviderKind “{typed}”不是以下值之一：lessor（出租方）、public_cloud（公有云）、gpu_cloud（GPU 云）"
        )


def test_the_cli_takes_the_words_it_shows(cli: Cli, demo_db_path: Path) -> None:
    db = str(demo_db_path)
    signed = cli("--db", db, "--lang", "zh-CN", "contracts", "add", "--offer", "9", "--start", "2026-06-01",
                 "--term-months", "12", "--gpus", "16", "--billing", "一次付清")  # fmt: skip
    assert signed.code == 0, signed.err
    shown = cli("--db", db, "--lang", "zh-CN", "contracts", "show", "1")
    assert "；结算周期：一次付清\n" in shown.out  # the word the flag took, not another
    assert "billed upfront" in cli("--db", db, "contracts", "show", "1").out
    edited = cli(
        "--db",
        db,
        "--lang",
        "zh-CN",
        "offer",
        "edit",
        "2",
        "--intra-fabric",
        "NVLink桥接",
        "--inter-fabric",
        "ＩＢ　ＮＤＲ",
    )  # fmt: skip  (as typed without a space, at full width)
    assert edited.code == 0, edited.err
    brief = cli("--db", db, "--lang", "zh-CN", "brief", "2")
    assert "所售配置：8×H100 SXM5 · NVLink 桥接 · IB NDR；" in brief.out  # the word --intra-fabric took
    refused = cli("--db", db, "--lang", "zh-CN", "provider", "add", "--name", "某云", "--kind", "云")
    assert refused.code == 2
    assert "--kind：“云”不是以下值之一：lessor（出租方）、public_cloud（公有云）、gpu_cloud（GPU 云）" in refused.err


def _help_line(cli: Cli, *args: str) -> str:
    done = cli(*args, "--help")
    assert done.code == 0, done.err
    return "".join(done.out.split())  # the help is wrapped by cells: compare without the breaks


def test_each_enum_flags_help_lists_what_may_be_typed(cli: Cli) -> None:
    zh = ("--lang", "zh-CN")
    kind = (
        "--kindCHOICE类型，可选：lessor（出租方）、public_cloud（公有云）、gpu_cloud（GPU云）。"
        + "默认：lessor（出租方）。"
    )
    assert kind in _help_line(cli, *zh, "provider", "add")
    assert "可选：monthly（按月）、quarterly（按季）、half_yearly（按半年）、annually（按年）、upfront（一次付清）" in (
        _help_line(cli, *zh, "contracts", "add")
    )
    assert "nvlink_bridge（NVLink桥接）" in _help_line(cli, *zh, "offer", "add")
    assert "ITEM可选：inventory（GPU清点与型号）、topology（NVLink拓扑）" in _help_line(cli, *zh, "acceptance", "waive")
    movers = (
        "list（公开标价）、provider（供应商）、counter（我方还价）、final（最终成交价）。"
        + "默认：provider（供应商）。"
    )
    assert movers in _help_line(cli, *zh, "round", "add")
    assert "默认：node_month（每节点月）。" in _help_line(cli, *zh, "offer", "add")  # the code the flag takes, its word
    english = cli("provider", "add", "--help").out
    assert "Kind: one of: lessor, public_cloud, gpu_cloud. Default: lessor." in " ".join(english.split())
    assert "Billing: one of: monthly, quarterly, half_yearly, annually, upfront." in " ".join(
        cli("contracts", "add", "--help").out.split()
    )


@pytest.mark.usefixtures("chinese")
def test_every_finding_code_has_a_short_chinese_word_of_its_own(cli: Cli) -> None:
    """A finding is shown by its word (the offers table's flags, bench check, explain): translated, one word a
    code, short enough for the offers table's narrow flags column; ``bench codes`` gives code, word and meaning."""
    words = {code: code.word for code in FindingCode}
    assert all(re.search(r"[\u4e00-\u9fff]", word) for word in words.values()), words
    assert len(set(words.values())) == len(FindingCode) == 17
    assert max(cells.width(word) for word in words.values()) <= 16, words
    assert words[FindingCode.IMPLAUSIBLE_CLAIM] == "宣称不可信"
    assert words[FindingCode.GPU_COUNT] == "卡数不足" and words[FindingCode.SCALE_OUT_LOW] == "跨机带宽偏低"
    assert FindingCode.parse("宣称不可信") is FindingCode.IMPLAUSIBLE_CLAIM
    lines = cli("--lang", "zh-CN", "bench", "codes").out.splitlines()
    assert len(lines) == 17
    assert "implausible-claim       宣称不可信       不可能属实、极少属实或与实测结果矛盾的性能宣称" in lines
    assert "gpu-count               卡数不足         节点日志显示的 GPU 数少于报价中每节点的 GPU 数" in lines


def test_an_english_finding_word_is_its_code(cli: Cli) -> None:
    assert [code.word for code in FindingCode][:3] == ["vgpu", "mig", "pcie-topology"]
    assert all(code.word == code.value for code in FindingCode)
    out = cli("bench", "codes").out
    assert "implausible-claim       a claim that cannot be true, is rarely true, or that a measurement" in out
