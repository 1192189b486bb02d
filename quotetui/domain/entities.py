"""Every entity's fields, declared once (see :mod:`quotetui.domain.fields`), and the cross-field rules that
every front end applies with the same message.

A field object is shared wherever the same value appears: the offer form and the Offers sheet hold the very
same ``GPUS_PER_NODE``, so their bounds cannot drift apart. The tables in ``store/models`` keep the data;
``tests/test_field_declarations.py`` proves each declared field matches its column and that the form, the
import, the export and the demo files accept and refuse the same values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from itertools import pairwise
from typing import Any

from quotetui.domain import enums as e
from quotetui.domain.economics.billing import EXTRA_BASES, basis_refusal
from quotetui.domain.economics.ownership import DEFAULT_RESALE_CURVE, curve_text
from quotetui.domain.economics.units import TERM_TOTAL_NEEDS_TERM
from quotetui.domain.fields import Entity, Field, Rule
from quotetui.language import N_, NP_, _
from quotetui.language.lists import quoted
from quotetui.language.numbers import percent

D = Decimal
MAX_COUNT = D(1_000_000)  # GPUs, nodes: far beyond any quote, far inside a 64-bit column
MAX_MONTHS = D(120)
MAX_DAYS = D(3650)
MAX_QUANTITY = D(10) ** 30  # FLOPs of the largest training runs are ~1e26

# -- references and shared fields --------------------------------------------------------------------------
ID = Field("id", N_("Id"), "int", required=True, minimum=D(1), maximum=D(2**63 - 1), help=N_("a row's id"))
"""Any row's id, as a flag or argument names it (a 64-bit column: a larger number is refused, not sent)."""
AS_OF = Field("as_of", N_("As of"), "date", help=N_("a day, YYYY-MM-DD"))
"""The day a command takes its view from (``--on``, ``--as-of``)."""
PROVIDER_REF = Field(
    "provider",
    N_("Provider"),
    "ref",
    required=True,
    max_length=120,
    aliases=("供应商", "服务商", "厂商", "provider name"),
    help=N_("the provider's name, as on the Providers sheet"),
)
OFFER_REF = Field(
    "offer",
    N_("Offer"),
    "ref",
    required=True,
    max_length=200,
    aliases=("方案", "名称", "offer name", "套餐"),
    help=N_("the offer's name; provider + offer identify an offer"),
)
SOURCE_REF = Field(
    "source",
    N_("Source"),
    "ref",
    max_length=300,
    aliases=("来源", "出处"),
    help=N_("where the figure comes from (article, email, call …)"),
    form=False,
)
IS_ESTIMATE = Field("is_estimate", N_("Figures are estimates"), "bool", aliases=("预估", "估算"))
NOTES = Field("notes", N_("Notes"), max_length=2000, multiline=True, aliases=("备注",))
DESCRIPTION = Field("description", N_("Description"), max_length=500, multiline=True, aliases=("说明", "备注"))
CURRENCY = Field("currency", N_("Currency"), "currency", required=True, aliases=("币种", "货币"))
GPU = Field(
    "gpu",
    N_("GPU model (any name or alias)"),
    "gpu",
    max_length=80,
    aliases=("GPU", "GPU型号", "显卡", "gpu model"),
    help=N_("any name or alias: H100, A100-80GB …"),
)


def _count(name: str, label: str, *, minimum: int = 0, unit: str = "", **more: Any) -> Field:
    return Field(name, label, "int", minimum=D(minimum), maximum=MAX_COUNT, unit=unit, **more)


def _months(name: str, label: str, *, minimum: int = 0, **more: Any) -> Field:
    return Field(name, label, "int", minimum=D(minimum), maximum=MAX_MONTHS, unit=NP_("unit", "months"), **more)


def _days(name: str, label: str, **more: Any) -> Field:
    return Field(name, label, "int", minimum=D(0), maximum=MAX_DAYS, unit=NP_("unit", "days"), **more)


def _money(name: str, label: str, **more: Any) -> Field:
    return Field(name, label, "money", minimum=D(0), help=more.pop("help", N_("exact, up to 6 decimal places")), **more)


def _quantity(name: str, label: str, *, maximum: Decimal = MAX_QUANTITY, **more: Any) -> Field:
    return Field(name, label, "decimal", minimum=D(0), maximum=maximum, places=more.pop("places", 12), **more)


def _ratio(name: str, label: str, **more: Any) -> Field:
    return Field(name, label, "ratio", minimum=more.pop("minimum", D(0)), maximum=more.pop("maximum", D(1)), **more)


# -- providers ---------------------------------------------------------------------------------------------
PROVIDER = Entity(
    "providers",
    "Providers",
    (
        Field(
            "name",
            N_("Name"),
            "name",
            required=True,
            max_length=120,
            aliases=("供应商", "服务商", "provider", "名称"),
            help=N_("unique name, CJK welcome"),
        ),
        Field("kind", N_("Kind"), "choice", required=True, choices=e.ProviderKind, aliases=("类型",)),
        Field("parent", N_("Parent company"), max_length=120, aliases=("母公司", "集团")),
        Field("regions", N_("Regions (comma separated)"), "list", max_length=2000, aliases=("地域", "区域")),
        Field(
            "certifications", N_("Certifications (comma separated)"), "list", max_length=2000, aliases=("资质", "认证")
        ),
        Field("website", N_("Website"), max_length=300, aliases=("官网", "网站")),
        Field("contacts", N_("Contacts"), max_length=2000, multiline=True, aliases=("联系人", "联系方式")),
        NOTES,
    ),
    ("供应商",),
)

# -- offers ------------------------------------------------------------------------------------------------
GPUS_PER_NODE = Field(
    "gpus_per_node",
    N_("GPUs per node"),
    "int",
    required=True,
    minimum=D(1),
    maximum=D(1024),
    unit=NP_("unit", "GPUs"),
    aliases=("每节点GPU数", "GPU数", "卡数", "gpus per node"),
)
OFFER = Entity(
    "offers",
    "Offers",
    (
        PROVIDER_REF,
        Field(
            "name", N_("Offer name"), "name", required=True, max_length=200, header="offer", aliases=OFFER_REF.aliases
        ),
        replace(GPU, required=True),
        GPUS_PER_NODE,
        Field(
            "form_factor",
            N_("Form factor (empty: the GPU's)"),
            "choice",
            choices=e.FormFactor,
            aliases=("形态",),
            help=N_("{FormFactor}; empty: the GPU's own"),
        ),
        _count("nodes_available", N_("Nodes on offer"), unit=NP_("unit", "nodes"), aliases=("可用节点", "库存节点")),
        Field(
            "billing_basis",
            N_("Billing"),
            "choice",
            required=True,
            choices=e.BillingBasis,
            header="billing",
            aliases=("计费方式", "billing_basis"),
        ),
        Field(
            "status",
            N_("Status"),
            "choice",
            choices=e.OfferStatus,
            default=e.OfferStatus.QUOTED,
            aliases=("状态",),
        ),
        Field(
            "valid_until",
            N_("Valid until (YYYY-MM-DD)"),
            "date",
            aliases=("有效期", "报价有效期"),
            help=N_("YYYY-MM-DD"),
        ),
        Field(
            "intra_fabric",
            N_("In-node fabric"),
            "choice",
            choices=e.IntraFabric,
            default=e.IntraFabric.UNKNOWN,
            aliases=("机内互联",),
        ),
        Field(
            "inter_fabric",
            N_("Scale-out network"),
            "choice",
            choices=e.InterFabric,
            default=e.InterFabric.UNKNOWN,
            aliases=("机间网络", "网络"),
        ),
        _quantity(
            "inter_gbps_per_gpu",
            N_("Network Gb/s per GPU"),
            maximum=D(100_000),
            places=6,
            unit=NP_("unit", "Gb/s per GPU"),
            aliases=("每卡网络带宽",),
            help=N_("Gb/s per GPU"),
        ),
        Field("cpu", N_("CPU"), max_length=200, aliases=("CPU", "处理器")),
        _count("ram_gb", N_("RAM GB"), unit=NP_("unit", "GB"), aliases=("内存", "内存GB")),
        _quantity(
            "nvme_tb",
            N_("Local NVMe TB"),
            maximum=MAX_COUNT,
            places=6,
            unit=NP_("unit", "TB"),
            aliases=("硬盘", "存储TB"),
        ),
        Field("region", N_("Region"), max_length=120, aliases=("地域", "机房")),
        Field("stock_note", N_("Stock / lead time note"), max_length=200, aliases=("库存",)),
        _days("lead_time_days", N_("Lead time, days"), aliases=("交付周期",)),
        Field(
            "bare_metal",
            N_("Bare metal (not virtualised)"),
            "bool",
            default=True,
            aliases=("裸金属", "物理机"),
            help=N_("{yes} or {no}"),
        ),
        Field(
            "prorata_days",
            N_("Part months billed by the day"),
            "bool",
            aliases=("按天计费",),
            help=N_("monthly plans: {yes} if part months are billed by the day"),
        ),
        _ratio(
            "vat_rate",
            N_("VAT in the prices"),
            maximum=D("0.25"),
            aliases=("税率", "增值税率"),
            help=N_("the VAT the quoted prices include: {services} services, {leases} leases and hardware, 0 none"),
            help_values=(("services", "6%"), ("leases", "13%")),
        ),
        Field(
            "special_invoice",
            N_("Special VAT invoice (专票)"),
            "bool",
            aliases=("专票", "增值税专用发票"),
            help=N_("{yes} if the provider issues 增值税专用发票, so a VAT-registered buyer recovers the VAT"),
        ),
        IS_ESTIMATE,
        SOURCE_REF,
        NOTES,
    ),
    ("方案", "报价方案"),
)


def offer_form_factor(values: dict[str, Any], gpu_form_factor: e.FormFactor) -> None:
    """An offer whose form factor is given empty (or not at all, for a new one) has its GPU's own."""
    if values.get("form_factor", "absent") is None:
        values["form_factor"] = gpu_form_factor


# -- negotiation rounds and their price options ----------------------------------------------------------


def ordered(low: str, high: str, below: str) -> Rule:
    """A range (8–12万 is 80,000 to 120,000): its upper end is not below its lower one (``below``: the problem,
    marked ``N_``, ``{low}`` the lower end)."""

    def rule(values: Mapping[str, Any]) -> dict[str, str]:
        a, b = values.get(low), values.get(high)
        return {high: _(below).format(low=a)} if a is not None and b is not None and b < a else {}

    return rule


def price_rules(values: Mapping[str, Any]) -> dict[str, str]:
    """A range is ordered; a price for the whole term has a term."""
    problems = ordered("amount", "amount_high", N_("below the price {low}"))(values)
    if values.get("unit") is e.PriceUnit.TERM_TOTAL and "term_months" in values and values["term_months"] < 1:
        problems["term_months"] = _(TERM_TOTAL_NEEDS_TERM)
    return problems


AMOUNT = _money(
    "amount", N_("Price"), required=True, positive=True, header="price", aliases=("价格", "单价", "amount")
)  # a compute price of zero is not a quote: it would rank first and be everyone's BATNA
AMOUNT_HIGH = _money(
    "amount_high",
    N_("… up to (a range)"),
    header="price_high",
    aliases=("最高价",),
    help=N_("the top of a range: for 8–12万, 80000 in price and 120000 here"),
)
UNIT = Field("unit", N_("Price unit"), "choice", required=True, choices=e.PriceUnit, aliases=("计价单位", "单位"))
TERM_MONTHS = _months(
    "term_months",
    N_("Term, months (0 = on demand)"),
    required=True,
    aliases=("期限", "期限(月)", "term"),
    help=N_("0 = on demand, 1 = monthly, 12 = annual"),
)
PREPAY = Field("prepay", N_("Prepaid"), "bool", aliases=("预付",))
PRICE = Entity("prices", "Prices", (AMOUNT, AMOUNT_HIGH, UNIT, CURRENCY, TERM_MONTHS, PREPAY), rules=(price_rules,))
"""A price option of a round (a round may have several: monthly, annual prepay …)."""

SEQ = Field(
    "seq",
    N_("Round"),
    "int",
    required=True,
    minimum=D(1),
    maximum=D(100_000),
    header="round",
    aliases=("轮次", "seq"),
    help=N_("1, 2, 3 … one row per price option of a round"),
    form=False,
)
MOVER = Field(
    "mover",
    N_("Who moved"),
    "choice",
    required=True,
    choices=e.Mover,
    aliases=("谁出价", "who"),
    help=N_("{Mover}; counter: ours"),
)
QUOTED_AT = Field(
    "quoted_at",
    N_("When (YYYY-MM-DD or date-time with offset)"),
    "datetime",
    required=True,
    aliases=("日期", "报价日期", "date"),
    help=N_("date, or date-time with offset"),
)
NOTE = Field("note", N_("Note"), max_length=2000, multiline=True, aliases=("备注",), help=N_("about this price option"))
ROUND_NOTE = Field(
    "round_note",
    N_("Note"),
    max_length=2000,
    multiline=True,
    header="round note",
    aliases=("轮次备注",),
    help=N_("about the round as a whole"),
)
ROUND_ESTIMATE = Field(
    "round_is_estimate",
    N_("The round's figures are estimates"),
    "bool",
    header="round is estimate",
    aliases=("轮次预估",),
    form=False,
)
ROUND_COLUMNS = {"mover": "mover", "quoted_at": "quoted_at", "round_note": "note", "round_is_estimate": "is_estimate"}
"""The round's own fields and their columns (the other fields of a round's row belong to its price option)."""

ROUND = Entity(
    "rounds", "Rounds", (MOVER, QUOTED_AT, *PRICE.fields, ROUND_NOTE), rules=(price_rules,), noun=N_("round")
)
"""A negotiation round as the round form takes it: who moved, when, and its headline price."""

REVISIONS = Entity(
    "revisions",
    "Negotiation",
    (
        PROVIDER_REF,
        OFFER_REF,
        SEQ,
        MOVER,
        QUOTED_AT,
        *PRICE.fields,
        IS_ESTIMATE,
        SOURCE_REF,
        NOTE,
        ROUND_NOTE,
        ROUND_ESTIMATE,
    ),
    ("Revisions", "Rounds", "报价", "谈判"),
    rules=(price_rules,),
)
"""The Negotiation sheet: one row per price option of a round."""

NEW_OFFER = Entity("new_offer", "Offers", (*OFFER.fields, *PRICE.fields), rules=(price_rules,))
"""The new-offer form: the offer and its first price."""


# -- discounts, extras, SLA --------------------------------------------------------------------------------
def discount_rules(values: Mapping[str, Any]) -> dict[str, str]:
    rate = values.get("rate")
    if rate is not None and rate >= 1:
        return {"rate": _("a discount below {all} ({all} off would make the price free)").format(all=percent(100))}
    return {}


DISCOUNT = Entity(
    "discounts",
    "Discounts",
    (
        replace(PROVIDER_REF, form=False),
        replace(OFFER_REF, form=False),
        Field("kind", N_("Kind"), "choice", required=True, choices=e.DiscountKind, aliases=("类型",)),
        _ratio(
            "rate",
            N_("Rate % (empty: offered, not quantified)"),
            aliases=("折扣率", "优惠"),
            help=N_("a percentage: 15 or 15%; empty: not quoted"),
        ),
        _months("min_term_months", N_("Needs a term of at least (months)"), aliases=("最短期限",)),
        _count("min_gpus", N_("Needs at least (GPUs)"), unit=NP_("unit", "GPUs"), aliases=("最少GPU",)),
        Field("requires_prepay", N_("Needs prepayment"), "bool", aliases=("需预付",)),
        DESCRIPTION,
        IS_ESTIMATE,
        SOURCE_REF,
    ),
    ("折扣",),
    rules=(discount_rules,),
    natural_key=("kind", "min_term_months", "min_gpus", "requires_prepay"),
    noun=N_("discount"),
)


def extra_rules(values: Mapping[str, Any]) -> dict[str, str]:
    """An extra cost's basis is one its kind is charged on (``billing.EXTRA_BASES``): the basis decides what it
    is billed on, so an egress fee charged per TB-month would be billed on the TB stored."""
    kind, basis = values.get("kind"), values.get("basis")
    said = None if kind is None or basis is None else basis_refusal(kind, basis)
    return {"basis": said} if said else {}


def extra_choices(values: Mapping[str, Any]) -> dict[str, tuple[e.ExtraBasis, ...]]:
    """The bases an extra cost of the kind chosen may be charged on (``billing.EXTRA_BASES``, which
    :func:`extra_rules` holds it to): its form's drop-down lists only those."""
    kind = values.get("kind")
    return {"basis": EXTRA_BASES[kind]} if kind in EXTRA_BASES else {}


EXTRA = Entity(
    "extras",
    "Extra costs",
    (
        replace(PROVIDER_REF, form=False),
        replace(OFFER_REF, form=False),
        Field("kind", N_("Kind"), "choice", required=True, choices=e.ExtraKind, aliases=("类型",)),
        Field("basis", N_("Charged"), "choice", required=True, choices=e.ExtraBasis, aliases=("计费",)),
        _money(
            "amount",
            N_("Amount (empty: charged, price unknown)"),
            aliases=("金额", "价格"),
            help=N_("empty: charged, price unknown"),
        ),
        CURRENCY,
        Field("refundable", N_("Refundable (deposit)"), "bool", aliases=("可退",)),
        DESCRIPTION,
        IS_ESTIMATE,
        SOURCE_REF,
    ),
    ("Extras", "ExtraCosts", "额外费用", "附加费用"),
    rules=(extra_rules,),
    natural_key=("kind", "basis"),
    choices_by=extra_choices,
    noun=N_("extra cost"),
)

CREDITS = Field(
    "credits",
    N_("Credits: below%:credit%, … (e.g. 99.9:10, 99:25)"),
    max_length=300,
    aliases=("赔付", "服务赔偿"),
    help=N_("below%:credit%, … e.g. 99.9:10, 99:25"),
)
SLA = Entity(
    "sla",
    "SLA",
    (
        replace(PROVIDER_REF, form=False),
        replace(OFFER_REF, form=False),
        _ratio(
            "availability",
            N_("Availability %"),
            minimum=D("0.5"),  # as the default availability: an SLA below half the time promises nothing
            aliases=("可用性",),
            help=N_("a percentage: 99.9 or 99.9%"),
        ),
        Field(
            "response_minutes",
            N_("Response time, minutes"),
            "int",
            minimum=D(0),
            maximum=D(100_000),
            unit=NP_("unit", "minutes"),
            aliases=("响应时间",),
        ),
        Field(
            "replacement_hours",
            N_("GPU replacement, hours"),
            "int",
            minimum=D(0),
            maximum=D(100_000),
            unit=NP_("unit", "hours"),
            aliases=("更换时间",),
        ),
        Field(
            "support_hours", N_("Support hours (e.g. 7x24)"), max_length=40, aliases=("支持时间",), help=N_("e.g. 7x24")
        ),
        _days("return_days", N_("Trial / return period, days"), aliases=("无理由退机",)),
        Field("dc_tier", N_("Data-centre tier"), max_length=20, aliases=("机房等级",)),
        Field("pue", N_("PUE"), "decimal", minimum=D(1), maximum=D(5), places=6, aliases=("PUE",)),
        Field("power_redundancy", N_("Power redundancy"), max_length=120, aliases=("电力冗余",)),
        Field(
            "preemption",
            N_("Preemption risk"),
            "choice",
            choices=e.PreemptionRisk,
            default=e.PreemptionRisk.UNKNOWN,
            aliases=("抢占风险",),
        ),
        CREDITS,
        NOTES,
        IS_ESTIMATE,
        SOURCE_REF,
    ),
    ("服务等级",),
)
CREDIT_BELOW = _ratio("below", "below")
CREDIT_RATE = _ratio("credit", "credit")

# -- benchmark claims --------------------------------------------------------------------------------------
SHARE_METRICS = frozenset({e.Metric.MFU, e.Metric.GEMM_PCT_OF_PEAK, e.Metric.SCALING_EFFICIENCY,
                           e.Metric.GPU_UTILISATION})  # fmt: skip
"""Metrics whose value is a share: typed as a percentage, stored as a fraction (``claim_shares``)."""


def claim_shares(values: Mapping[str, Any]) -> dict[str, Field]:
    """A share metric's claimed value is a share, read as every share is (54.3 or 54.3%; a bare 0.543 refused)
    and stored as a fraction; never capped, since an impossible claim is recorded and judged, not refused."""
    if values.get("metric") not in SHARE_METRICS:
        return {}
    return {
        name: Field(name, f.label, "ratio", required=f.required, minimum=D(0), aliases=f.aliases, header=f.header)
        for name, f in (("value", CLAIM_VALUE), ("value_high", CLAIM_VALUE_HIGH))
    }


CLAIM_VALUE = Field(
    "value", N_("Value"), "decimal", required=True, minimum=D(0), maximum=MAX_QUANTITY, aliases=("数值",)
)
CLAIM_VALUE_HIGH = _quantity("value_high", N_("Value up to"), aliases=("最高值",))

CLAIM = Entity(
    "claims",
    "Benchmarks",
    (
        replace(PROVIDER_REF, required=False, help=N_("empty for a market-wide claim")),
        replace(OFFER_REF, required=False, help=N_("empty for a provider-wide claim")),
        Field(
            "provenance",
            N_("Provenance"),
            "choice",
            choices=e.Provenance,
            aliases=("来源类型",),
            help=N_("{Provenance}; verified: from logs (`bench import`), never from sheets"),
        ),
        Field("metric", N_("Metric"), "choice", required=True, choices=e.Metric, aliases=("指标",)),
        CLAIM_VALUE,
        CLAIM_VALUE_HIGH,
        Field(
            "qualifier",
            N_("Qualifier"),
            "choice",
            choices=e.Qualifier,
            aliases=("限定",),
            help=N_("{Qualifier}, or empty"),
        ),
        Field("unit", N_("Unit"), required=True, max_length=24, aliases=("单位",)),
        GPU,
        _count("gpu_count", N_("GPUs"), minimum=1, unit=NP_("unit", "GPUs"), aliases=("卡数",)),
        Field("workload", N_("Workload"), max_length=120, aliases=("任务", "模型")),
        _quantity("model_params", N_("Model parameters"), aliases=("参数量",)),
        _quantity("tokens", N_("Tokens"), aliases=("token数",)),
        _quantity("flops", N_("Training FLOPs"), aliases=("计算量",)),
        _ratio("claimed_mfu", N_("Claimed MFU"), aliases=("声称MFU",)),
        Field("seq_len", N_("Sequence length"), "int", minimum=D(1), maximum=D(100_000_000), aliases=("序列长度",)),
        Field("dtype", N_("Data type"), max_length=12, aliases=("精度",)),
        replace(SOURCE_REF, required=True, help=N_("where the claim is made")),
        Field(
            "quote",
            NP_("a claim's words as its source wrote them", "Quote"),
            max_length=5000,
            multiline=True,
            aliases=("原文",),
            help=N_("the claim in the source's own words"),
        ),
        Field(
            "compared",
            N_("Compared offers"),
            max_length=5000,
            header="compared offers",
            aliases=("对比",),
            help=N_(
                "for a cheaper_than claim: the offers it is compared with, as 'provider / offer; provider / offer'"
            ),
        ),
    ),
    ("Claims", "声称", "性能"),
    rules=(ordered("value", "value_high", N_("below the value {low}")),),
    typed_by=claim_shares,
)


# -- FX rates ----------------------------------------------------------------------------------------------
def fx_rules(values: Mapping[str, Any]) -> dict[str, str]:
    problems = {}
    if values.get("base") is not None and values.get("base") == values.get("quote"):
        problems["quote"] = _("base and quote must be two different currencies")
    if values.get("rate") is not None and values["rate"] <= 0:
        problems["rate"] = _("the rate must be more than zero")
    return problems


FX = Entity(
    "fx",
    "FX rates",
    (
        replace(
            CURRENCY, name="base", label=N_("Base currency"), aliases=("from", "源币种"), help=N_("1 base = rate quote")
        ),
        replace(CURRENCY, name="quote", label=N_("Quote currency"), aliases=("to", "目标币种"), help=""),
        Field("rate", N_("Rate"), "rate", required=True, minimum=D(0), maximum=D(10) ** 8, aliases=("汇率",)),
        Field("as_of", N_("As of"), "date", required=True, aliases=("日期",)),
        Field("source", N_("Source"), required=True, max_length=300, aliases=("来源", "出处")),
    ),
    ("FX", "Rates", "汇率"),
    rules=(fx_rules,),
)

ENTITIES_OF_OFFERS = (PROVIDER, OFFER, REVISIONS, DISCOUNT, EXTRA, SLA, CLAIM, FX)
"""The offers' entities, in the import template's order (the planning ones follow: ``ENTITIES``)."""


# -- scenarios ---------------------------------------------------------------------------------------------
def training_rules(values: Mapping[str, Any]) -> dict[str, str]:
    flops, params, tokens = values.get("train_flops"), values.get("train_params"), values.get("train_tokens")
    if flops is None and (params is None) != (tokens is None):
        return {
            "train_tokens" if tokens is None else "train_params": _(
                "a training run needs its FLOPs, or both its parameters and its tokens"
            )
        }
    return {}


SCENARIO = Entity(
    "scenarios",
    "Scenarios",
    (
        Field("name", N_("Name"), "name", required=True, max_length=120),
        Field("description", N_("Description"), max_length=2000, multiline=True, help=N_("the need in words")),
        GPU,
        _count("gpu_count", N_("GPUs needed"), minimum=1, unit=NP_("unit", "GPUs"), required=True),
        _months("months", N_("Months needed"), minimum=1, required=True),
        _ratio(
            "utilisation",
            N_("Share of hours in use"),
            minimum=D("0.000001"),
            default=D(1),
            help=N_("a percentage: 100 = busy every hour"),
        ),
        _quantity(
            "egress_tb_month",
            N_("Egress TB a month"),
            maximum=MAX_COUNT,
            places=6,
            default=D(0),
            unit=NP_("unit", "TB"),
        ),
        _quantity("storage_tb", N_("Storage TB"), maximum=MAX_COUNT, places=6, default=D(0), unit=NP_("unit", "TB")),
        replace(_quantity("train_flops", N_("Training run FLOPs")), minimum=D(1)),
        replace(_quantity("train_params", N_("Training run parameters")), minimum=D(1)),
        replace(_quantity("train_tokens", N_("Training run tokens")), minimum=D(1)),
        replace(CURRENCY, name="home_currency", label=N_("Currency to compare in"), default="CNY", required=False),
        Field(
            "default",
            N_("The default scenario"),
            "bool",
            help=N_("{yes}: offers are ranked for it when no scenario is named"),
        ),
    ),
    rules=(training_rules,),
)


# -- the calculators ---------------------------------------------------------------------------------------
def train_rules(values: Mapping[str, Any]) -> dict[str, str]:
    if values.get("flops") is None and (values.get("params") is None or values.get("tokens") is None):
        return {"flops": _("give the FLOPs, or both the parameters and the tokens (6 × N × D)")}
    return {}


TRAIN = Entity(
    "train",
    "Training run",
    (
        _count("gpus", N_("GPUs"), minimum=1, unit=NP_("unit", "GPUs"), required=True),
        replace(_quantity("flops", N_("FLOPs (e.g. 3.14e23)")), minimum=D(1)),
        replace(_quantity("params", N_("…or parameters")), minimum=D(1)),
        replace(_quantity("tokens", N_("…and tokens")), minimum=D(1)),
        _ratio("mfu", N_("MFU (empty: evidence, else 40 %)"), minimum=D("0.000001")),
        _ratio("scaling", N_("Scaling (empty: by fabric)"), minimum=D("0.000001")),
        Field(
            "claimed_days", N_("A claimed duration, days"), "decimal", minimum=D("0.000001"), maximum=D(36500), places=6
        ),
    ),
    rules=(train_rules,),
)
"""A training run for the planner (``calc train``, the TUI's training screen)."""


CAPEX_VAT_RATE = _ratio(
    "capex_vat_rate", N_("VAT in the capex"), maximum=D("0.25"),
    help=N_("the VAT the capex includes: {equipment} for servers and equipment; 0 or empty none"),
    help_values=(("equipment", "13%"),),
)  # fmt: skip
CAPEX_SPECIAL_INVOICE = Field(
    "capex_special_invoice", N_("Capex with a 专票"), "bool",
    help=N_("{yes} if the seller issues 增值税专用发票: with costs net of VAT, the capex VAT is recovered"),
)  # fmt: skip
"""The buy side's VAT, as an offer's (``Assumptions.vat_factor``): capex ÷ (1 + rate) when costs are net of VAT."""

POWER_BASIS = Field(
    "power_basis", N_("Quoted power covers"), "choice", choices=e.PowerBasis,
    help=N_("servers: their own draw, cooling (PUE) is added; facility: cooling included; empty: servers"),
)  # fmt: skip
"""What a quoted power bill covers, so it and a computed kW × PUE × tariff count the same (``ownership.py``)."""

IDLE = _ratio(
    "idle",
    N_("Idle draw, share of full load"),
    help=N_("a server's idle draw: power follows use from it; empty: full load"),
)
"""How owned power follows use (``ownership.py: Ownership.power_by_use``)."""

OWNING_PARTS = ("colocation_monthly", "power_kw", "pue", "tariff_per_kwh", "power_monthly", "power_basis",
                "staff_monthly", "spares_share_year", "idle_share")  # fmt: skip
"""The owning costs a month, part by part (``opex_monthly`` is their total, typed instead)."""

DISCOUNT_RATE = _ratio("discount_rate", N_("Discount rate a year"), maximum=D("0.5"),
                       help=N_("for present values (rent vs buy, term choice): 8 or 8%"))  # fmt: skip
"""One bound for the rate a user sets (``settings``) and types (``calc rent-vs-buy``, ``calc term``)."""

DEPRECIATION_YEARS = Field(
    "depreciation_years", N_("Depreciation, years"), "int", minimum=D(1), maximum=D(30), unit=NP_("unit", "years"),
    help=N_("useful life; the residual at the horizon is then the straight-line book value"),
)  # fmt: skip


def rent_buy_rules(values: Mapping[str, Any]) -> dict[str, str]:
    capex, residual = values.get("capex"), values.get("residual")
    if capex is not None and residual is not None and residual > capex:
        return {"residual": _("the resale value cannot exceed the capex ({capex})").format(capex=capex)}
    if values.get("opex_monthly") is not None and any(values.get(p) is not None for p in OWNING_PARTS):
        return {
            "opex_monthly": _(
                "give the owning costs a month or their parts (colocation, power, staff, spares), not both"
            )
        }
    return {}


def settings_rules(values: Mapping[str, Any]) -> dict[str, str]:
    """A time zone is one the system knows by its IANA name (Asia/Shanghai, UTC …); a resale curve reads."""
    from quotetui.domain.economics.ownership import parse_resale_curve
    from quotetui.domain.errors import BadInput

    curve = values.get("resale_curve")
    if curve:
        try:
            parse_resale_curve(curve)
        except BadInput as exc:
            return {"resale_curve": str(exc)}
    zone = values.get("time_zone")
    if not zone:
        return {}
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return {
            "time_zone": _("{zone} is not a time zone name (e.g. Asia/Shanghai, Europe/Berlin, UTC)").format(
                zone=quoted(zone)
            )
        }
    return {}


RESALE_CURVE_TEXT = curve_text(DEFAULT_RESALE_CURVE)
"""The default resale curve as it is typed and stored (``domain/economics/ownership.py``)."""

SETTINGS = Entity(
    "settings",
    "Settings",
    (
        Field("hours_per_month", N_("Hours a month"), "int", minimum=D(672), maximum=D(744), unit=NP_("unit", "hours"),
              default=730, help=N_("the hours a monthly price is spread over: 672–744 (730 by default)")),
        _ratio("default_mfu", N_("Default MFU (no evidence)"), minimum=D("0.01"), maximum=D("0.75"), default=D("0.4")),
        _ratio("default_availability", N_("Default availability (no SLA)"), minimum=D("0.5"), default=D("0.99")),
        Field("time_zone", N_("Time zone dates are shown in"), max_length=60, default="UTC",
              help=N_("an IANA name: Asia/Shanghai, Europe/Berlin, UTC")),
        replace(DISCOUNT_RATE, default=D(0)),
        Field("net_of_vat", N_("Costs net of recoverable VAT"), "bool", default=False,
              help=N_("{yes}: an offer with a 专票 is costed without the VAT it lets you recover; {no}: as invoiced")),
        Field("resale_curve", N_("Resale curve (months:share)"), max_length=300, default=RESALE_CURVE_TEXT,
              help=N_("what owned servers resell for by age, a share of capex: 12:60, 24:40, 36:25, 48:15, 60:10")),
    ),
    rules=(settings_rules,),
)  # fmt: skip
"""What a user may change about the assumptions every figure rests on (``quotetui settings``)."""


RENT_BUY = Entity(
    "rent_buy",
    "Rent vs buy",
    (
        _money("capex", N_("Capex (servers, network)")),
        CAPEX_VAT_RATE,
        CAPEX_SPECIAL_INVOICE,
        _money("opex_monthly", N_("Owning a month (or the parts)")),
        _money("colocation_monthly", N_("Colocation a month")),
        _quantity(
            "power_kw",
            N_("Power kW (servers, full load)"),
            maximum=D(1_000_000),
            places=6,
            unit=NP_("unit", "kW"),
            positive=True,
        ),
        Field("pue", N_("PUE"), "decimal", minimum=D(1), maximum=D(5), places=6),
        _money("tariff_per_kwh", N_("Electricity per kWh")),
        _money("power_monthly", N_("Power a month (or kW × tariff)")),
        POWER_BASIS,
        _money("staff_monthly", N_("Operations staff a month")),
        _ratio("spares_share_year", N_("Spares a year, share of capex")),
        replace(IDLE, name="idle_share"),
        replace(_money("rent_monthly", N_("Rent a month at full use")), minimum=D("0.000001")),
        _ratio("utilisation", N_("Utilisation %"), minimum=D("0.000001"), default=D(1)),
        _money("residual", N_("Resale (empty: the resale curve)")),
        DEPRECIATION_YEARS,
        DISCOUNT_RATE,
        _months("horizon_months", N_("Horizon, months"), minimum=1, default=36),
        _count("gpus", N_("GPUs bought (empty: one node)"), minimum=1, unit=NP_("unit", "GPUs")),
    ),
    rules=(rent_buy_rules,),
)
"""Owning against renting (``calc rent-vs-buy``, the TUI's rent-vs-buy screen)."""

TERM_PRICES = Entity(
    "terms",
    "Term options",
    tuple(
        _money(name, label)
        for name, label in (
            ("monthly", N_("A monthly term costs")),
            ("quarterly", N_("A quarterly term costs")),
            ("half_year", N_("A half-year term costs")),
            ("annual", N_("A annual term costs")),
            ("two_year", N_("A two-year term costs")),
            ("three_year", N_("A three-year term costs")),
        )
    ),
)
"""What one term of each length costs (``calc term``)."""


# -- owning instead of renting -----------------------------------------------------------------------------
PURCHASE = Entity(
    "purchases",
    "Purchase options",
    (
        Field("name", N_("Name"), "name", required=True, max_length=120),
        replace(GPU, required=True),
        _count("gpu_count", N_("GPUs"), minimum=1, unit=NP_("unit", "GPUs"), required=True),
        CURRENCY,
        _money("capex", N_("Capex"), required=True),
        _money("capex_high", N_("Capex up to")),
        CAPEX_VAT_RATE,
        CAPEX_SPECIAL_INVOICE,
        _money("colocation_month", N_("Colocation a month")),
        _money("colocation_month_high", N_("Colocation a month, up to")),
        _quantity("power_kw", N_("Power kW"), maximum=D(1_000_000), places=6, unit=NP_("unit", "kW")),
        Field("pue", N_("PUE"), "decimal", minimum=D(1), maximum=D(5), places=6),
        _money("tariff_per_kwh", N_("Tariff per kWh")),
        _money("power_month", N_("Power a month")),
        _money("power_month_high", N_("Power a month, up to")),
        POWER_BASIS,
        _money("ops_month", N_("Operations a month")),
        _ratio("spares_pct_year", N_("Spares, share of capex a year")),
        replace(IDLE, name="idle_pct"),
        _ratio("residual_pct", N_("Residual value, share of capex")),
        DEPRECIATION_YEARS,
        _months("horizon_months", N_("Horizon, months"), minimum=1),
        SOURCE_REF,
        NOTES,
    ),
    rules=(
        ordered("capex", "capex_high", N_("below the capex {low}")),
        ordered("colocation_month", "colocation_month_high", N_("below the colocation {low}")),
        ordered("power_month", "power_month_high", N_("below the power cost {low}")),
    ),
)

HISTORY = Entity(
    "history",
    "History",
    (
        Field("entry", "Entry", "int", required=True, minimum=D(1), help="the entry's number where it was written"),
        Field("at", "At", "datetime", required=True),
        Field("who", "Who", required=True, max_length=200),
        Field("via", "Via", required=True, max_length=500),
        Field("origin", "Imported", max_length=500, help="an entry an earlier import brought: which file, whose"),
        replace(PROVIDER_REF, required=False, aliases=()),
        replace(OFFER_REF, required=False, aliases=()),
        Field("contract", "Contract", max_length=140, help="the contract's reference, or its number"),
        Field("entity", "Record", required=True, max_length=40),
        Field("subject", "Subject", max_length=300),
        Field("action", "Action", "choice", required=True, choices=e.ChangeAction),
        Field("column", "Column", max_length=300),
        Field("before", "Before (JSON)", max_length=10_000),
        Field("after", "After (JSON)", max_length=10_000),
    ),
)
"""The audit trail as the workbook carries it (``store/audit.py``), one row per value changed (an entry's rows
share its number): an import keeps the entries of the offers it knows, so the trail survives an export and an
import. Not a template sheet: nobody types history."""

ENTITIES = (*ENTITIES_OF_OFFERS, SCENARIO, PURCHASE, SETTINGS)
"""The entities the import template has a sheet for, in its order: what the market is, then what is needed
(scenarios) and what owning would be (purchase options), then the assumptions (one row of settings), so a
workbook imported into a fresh database ranks as its source did."""


# -- sources -----------------------------------------------------------------------------------------------
SOURCE = Entity(
    "sources",
    "Sources",
    (
        Field("kind", N_("Kind"), "choice", required=True, choices=e.SourceKind),
        Field("title", N_("Title"), required=True, max_length=300),
        Field("reference", N_("Reference (URL, file, mail id)"), max_length=500),
        Field("published", N_("Published"), "date"),
        Field("note", N_("Note"), max_length=2000, multiline=True),
    ),
)


# -- contracts, incidents, invoices ------------------------------------------------------------------------
def contract_rules(values: Mapping[str, Any]) -> dict[str, str]:
    """The notice period fits in the term; a contract is signed before its term ends."""
    from quotetui.domain.contracts.dates import notice_deadline, term_end

    start, months = values.get("start"), values.get("term_months")
    if start is None or not months or months < 1:
        return {}
    end = term_end(start, months)
    problems = {}
    deadline = notice_deadline(end, values.get("notice_days")) if (values.get("notice_days") or 0) >= 0 else None
    if deadline is not None and deadline < start:
        problems["notice_days"] = _("a {days}-day notice period is longer than the {months}-month term").format(
            days=values["notice_days"], months=months
        )
    signed = values.get("signed")
    if signed is not None and signed > end:
        problems["signed"] = _("signed on {signed}, after the term ends ({end})").format(
            signed=signed.isoformat(), end=end.isoformat()
        )
    return problems


def incident_rules(values: Mapping[str, Any]) -> dict[str, str]:
    problems = {}
    start, end = values.get("started_at"), values.get("ended_at")
    if start is not None and end is not None and end < start:
        problems["ended_at"] = _("the incident ends ({end}) before it starts ({start})").format(
            end=end.isoformat(), start=start.isoformat()
        )
    if values.get("affected_gpus") is not None and values.get("affected_nodes") is not None:
        problems["affected_nodes"] = _("give the GPUs or the nodes affected, not both")
    return problems


def invoice_rules(values: Mapping[str, Any]) -> dict[str, str]:
    first, last = values.get("period_start"), values.get("period_end")
    if first is not None and last is not None and last < first:
        return {
            "period_end": _("the period ends ({end}) before it starts ({start})").format(
                end=last.isoformat(), start=first.isoformat()
            )
        }
    return {}


ACCEPTANCE_SAMPLE = _ratio(
    "acceptance_sample",
    N_("Nodes checked at acceptance, share (empty: every node)"),
    minimum=D("0.000001"),
    help=N_("a percentage: 10 checks {share} of the nodes; empty: every node"),
    help_values=(("share", "10 %"),),
)
ACCEPTANCE_SAMPLE_MIN = _count(
    "acceptance_sample_min",
    N_("…and at least, nodes (alone: check this many)"),
    minimum=1,
    unit=NP_("unit", "nodes"),
    help=N_("with a share, its floor ({share} of the nodes, at least 2); alone, the sample itself (2 nodes)"),
    help_values=(("share", "10 %"),),
)
"""The nodes acceptance checks, as a contract (or its amendment) states them."""

CONTRACT = Entity(
    "contracts",
    "Contracts",
    (
        Field("start", N_("First day of service (YYYY-MM-DD)"), "date", required=True, stored_as="start_date"),
        _months("term_months", N_("Term, months"), minimum=1, required=True),
        _days("notice_days", N_("Notice period, days")),
        Field("auto_renew", N_("Renews automatically unless notice is given"), "bool"),
        _months(
            "renewal_months",
            N_("Renewal term, months (default: the term)"),
            minimum=1,
            stored_as="renewal_term_months",
        ),
        Field("reference", N_("Reference"), "name", max_length=120),
        Field("signed", N_("Signed on"), "date", stored_as="signed_date"),
        Field(
            "billing",
            NP_("how often a contract is invoiced", "Billing"),
            "choice",
            required=True,
            choices=e.BillingCadence,
            default=e.BillingCadence.MONTHLY,
            stored_as="billing_cadence",
        ),
        _count("gpus", N_("GPUs covered"), minimum=1, unit=NP_("unit", "GPUs"), stored_as="gpu_count"),
        _money("committed", N_("Committed spend"), stored_as="committed_spend"),
        _money("prepayment", N_("Prepayment")),
        Field("early_termination", N_("Early termination terms"), max_length=2000, multiline=True),
        _money("tolerance", N_("Invoice tolerance (amount)"), default=D(0)),
        ACCEPTANCE_SAMPLE,
        ACCEPTANCE_SAMPLE_MIN,
    ),
    rules=(contract_rules,),
)

CONTRACT_RECORD = Entity(
    "contract_record",
    "Contracts as recorded",
    (
        Field("end_date", N_("Ends"), "date"),
        _money("price", N_("Agreed price")),
        Field("price_unit", N_("Price unit"), "choice", choices=e.PriceUnit),
        Field("notice_deadline", N_("Notice by"), "date"),
        Field("accepted_on", N_("Accepted on"), "date"),
    ),
)
"""A contract's columns that no form asks for (worked out at signing, or by acceptance): declared so that a history
says them by their titles (``store/audit.py: column_word``)."""

AMENDMENT = Entity(
    "amendments",
    "Contract amendments",
    (
        Field("effective", N_("In force from (YYYY-MM-DD)"), "date", required=True),
        Field("reason", N_("What was agreed, and why"), required=True, max_length=2000, multiline=True),
        Field("by", N_("Agreed by (empty: you)"), max_length=120, stored_as="recorded_by"),
        _count("gpus", N_("GPUs covered from then"), minimum=1, unit=NP_("unit", "GPUs")),
        _money("monthly_charge", N_("Monthly charge from then (empty: the engine's cost)")),
        _months("term_months", N_("Term, months (from the original start)"), minimum=1),
        _days("notice_days", N_("Notice period, days")),
        Field("gpu", N_("GPU model delivered (a swap both parties agreed)"), max_length=120),
        replace(ACCEPTANCE_SAMPLE, label=N_("Nodes checked at acceptance, share")),
        ACCEPTANCE_SAMPLE_MIN,
        Field(
            "at_end", N_("At the end of its term it (ends: notice given; empty: as now)"), "choice", choices=e.AtTermEnd
        ),
    ),
)
"""A dated change to a signed contract's terms (``contracts amend``): the terms it names, from ``effective``."""

AMENDMENT_RECORD = Entity(
    "amendment_record", "Contract amendments as recorded", (Field("seq", N_("Amendment no."), "int"),)
)
"""An amendment's number, given when it is recorded (``store/audit.py: column_word``; not a round's ``seq``)."""

INCIDENT = Entity(
    "incidents",
    "Incidents",
    (
        Field(
            "started_at", N_("Started (2026-03-01T08:00+08:00; a bare date is 00:00 UTC)"), "datetime", required=True
        ),
        Field("ended_at", N_("Ended (empty: still down)"), "datetime"),
        _count("affected_gpus", N_("GPUs affected (empty: all)"), minimum=1, unit=NP_("unit", "GPUs")),
        _count("affected_nodes", N_("Nodes affected"), minimum=1, unit=NP_("unit", "nodes"), form=False),
        Field("description", N_("What happened"), required=True, max_length=2000, multiline=True),
        Field("claimed", N_("Credit claimed"), "bool", stored_as="credit_claimed"),
        _money("received", N_("Credit received"), stored_as="credit_received"),
    ),
    rules=(incident_rules,),
)

WAIVER = Entity(
    "waivers",
    "Acceptance waivers",
    (
        Field("item", N_("Item waived"), "choice", required=True, choices=e.AcceptanceCheck),
        Field("reason", N_("Why it is accepted as it is"), required=True, max_length=2000, multiline=True),
        Field("by", N_("Who accepts the risk"), required=True, max_length=120, stored_as="waived_by"),
        Field("on", N_("Waived on (empty: today)"), "date", stored_as="waived_on"),
    ),
)
"""A written waiver of one acceptance item that failed or has no evidence (``acceptance waive``, the contract
screen's ``w``)."""

INVOICE = Entity(
    "invoices",
    "Invoices",
    (
        Field("period_start", N_("Period from"), "date", required=True),
        Field("period_end", N_("Period to (inclusive)"), "date", required=True),
        _money("amount", N_("Amount"), required=True),
        CURRENCY,
        Field("issued_on", N_("Issued on"), "date"),
        Field("reference", N_("Invoice number"), max_length=120),
        Field("paid", N_("Paid"), "bool"),
        Field("note", N_("Note"), max_length=2000, multiline=True, form=False),
    ),
    rules=(invoice_rules,),
)


def parse_credits(text: str | None) -> list[tuple[Decimal, Decimal]]:
    """An SLA credit schedule written ``below%:credit%, …`` (``99.9:10, 99:25``) as (below, credit) fractions."""
    from quotetui.domain.errors import BadInput
    from quotetui.domain.fields import parse_value

    tiers = []
    for part in (text or "").replace("，", ",").replace("、", ",").replace("：", ":").split(","):
        if not part.strip():
            continue
        below, sep, credit = part.partition(":")
        if not sep:
            raise BadInput(_("{value} needs the form below%:credit%, e.g. 99.9:10").format(value=quoted(part.strip())))
        tiers.append(
            (
                parse_value(replace(CREDIT_BELOW, required=True), below),
                parse_value(replace(CREDIT_RATE, required=True), credit),
            )
        )
    from quotetui.domain.economics.exact import share_text

    if len({b for b, _ in tiers}) != len(tiers):
        raise BadInput(_("each threshold once"))
    ordered = sorted(tiers, reverse=True)  # from the mildest shortfall to the deepest
    for (b1, c1), (b2, c2) in pairwise(ordered):
        if c2 < c1:
            raise BadInput(
                _(
                    "below {deeper} the credit ({deeper_credit}) is smaller than below {milder} ({milder_credit}): "
                    "a deeper outage earns at least as much"
                ).format(
                    deeper=share_text(b2),
                    deeper_credit=share_text(c2),
                    milder=share_text(b1),
                    milder_credit=share_text(c1),
                )
            )
    return tiers


def credits_text(tiers: list[tuple[Decimal, Decimal]]) -> str:
    """The schedule as :func:`parse_credits` reads it, highest threshold first (each share as a form shows it: a
    credit under 1 % keeps its sign, ``99.9:0.5%``, so it reads back as typed)."""
    from quotetui.domain.fields import shown_value

    def share(field: Field, value: Decimal) -> str:
        return str(shown_value(field, value, percent=True))

    return ", ".join(f"{share(CREDIT_BELOW, b)}:{share(CREDIT_RATE, c)}" for b, c in sorted(tiers, reverse=True))


# -- sourcing: requirements and RFQs -----------------------------------------------------------------------
NOT_A_REQUIREMENT = frozenset({e.IntraFabric.UNKNOWN.value, e.InterFabric.UNKNOWN.value})
"""Choices that ask for nothing ("unknown" fabric): refused as a requirement's line, and never offered."""


def requirement_rules(values: Mapping[str, Any]) -> dict[str, str]:
    """A job fits in the need; answers are due before the start, and before the delivery; "unknown" is not
    a requirement."""
    problems: dict[str, str] = {}
    job, gpus = values.get("job_gpus"), values.get("gpus")
    if job is not None and gpus is not None and job > gpus:
        problems["job_gpus"] = _("a job of {job} GPUs is more than the {gpus} GPUs needed").format(job=job, gpus=gpus)
    respond_by, start, deliver_by = values.get("respond_by"), values.get("start"), values.get("deliver_by")
    if respond_by is not None and start is not None and respond_by > start:
        problems["respond_by"] = _("answers due after the start ({start})").format(start=start.isoformat())
    if respond_by is not None and deliver_by is not None and deliver_by < respond_by:
        problems["deliver_by"] = _("delivered before the answers are due ({respond_by})").format(
            respond_by=respond_by.isoformat()
        )
    for name in ("intra_fabric", "inter_fabric"):
        if values.get(name) in NOT_A_REQUIREMENT:
            problems[name] = _("name the fabric wanted, or leave it out")
    return problems


REQUIREMENT = Entity(
    "requirements",
    "Requirements",
    (
        Field("name", N_("RFQ name"), "name", required=True, max_length=120, aliases=("询价", "需求")),
        Field(
            "gpu_models",
            N_("Acceptable GPU models (comma separated)"),
            "list",
            required=True,
            max_length=500,
            aliases=("可接受GPU型号",),
            help=N_("any names or aliases, equivalents included: H100 SXM5, H800 SXM5"),
        ),
        _count("gpus", N_("GPUs needed"), minimum=1, unit=NP_("unit", "GPUs"), required=True, aliases=("需求GPU数",)),
        _months("months", N_("Term, months"), minimum=1, required=True, aliases=("租期",)),
        Field("start", N_("Start date"), "date", required=True, aliases=("开始日期",), help=N_("YYYY-MM-DD")),
        Field("respond_by", N_("Answers due by"), "date", aliases=("报价截止",), help=N_("YYYY-MM-DD")),
        Field("deliver_by", N_("Delivered by"), "date", aliases=("交付截止",), help=N_("YYYY-MM-DD")),
        _ratio(
            "min_availability",
            N_("Minimum SLA availability"),
            minimum=D("0.5"),
            aliases=("最低可用性",),
            help=N_("a percentage: 99.5 or 99.5%"),
        ),
        Field("intra_fabric", N_("In-node fabric, at least"), "choice", choices=e.IntraFabric, aliases=("机内互联",)),
        Field(
            "inter_fabric", N_("Scale-out network, at least"), "choice", choices=e.InterFabric, aliases=("机间网络",)
        ),
        _count(
            "job_gpus", N_("GPUs of one training job"), minimum=1, unit=NP_("unit", "GPUs"), aliases=("单任务GPU数",)
        ),
        Field("region", N_("Region / data residency"), max_length=120, aliases=("地域", "数据驻留")),
        Field(
            "checklist",
            N_("Acceptance checklist (comma separated)"),
            "list",
            max_length=500,
            aliases=("验收项",),
            help=N_("any of: {AcceptanceCheck}"),
        ),
        replace(CURRENCY, name="currency", label=N_("Currency to compare in"), default="CNY", required=False),
        NOTES,
    ),
    rules=(requirement_rules,),
)
"""What a buyer asks several providers (``quotetui rfq new``): the lines every answer is checked against
(``domain/sourcing/requirement.py``)."""


AWARD = Entity(
    "award",
    "Award",
    (
        _ratio(
            "max_share",
            N_("Most of the need from one provider"),
            minimum=D("0.01"),
            default=D("0.6"),
            help=N_("a percentage: 60 or 60%"),
        ),
        _count("min_providers", N_("Fewest providers"), minimum=1, default=2, unit=NP_("unit", "providers")),
        _money("budget", N_("Budget for the term"), help=N_("in the RFQ's currency; empty: none")),
        Field(
            "minimise",
            N_("Minimise"),
            "choice",
            required=True,
            choices=e.AwardObjective,
            default=e.AwardObjective.COST,
            help=N_("{AwardObjective}: the total for the term, or the cost per delivered PFLOP-hour"),
        ),
    ),
)
"""The award's risk constraints (``quotetui award``): a share of the need per provider, a number of providers,
a budget; and what it minimises."""

DECLINE = Entity(
    "decline",
    "Decline",
    (
        replace(
            PROVIDER_REF, label=N_("Provider that declined"), aliases=(), help=N_("a provider the RFQ was sent to")
        ),
        replace(NOTES, name="note", label=N_("Why, if they said"), aliases=()),
    ),
)
"""A provider's decline of an RFQ (``quotetui rfq decline``, the Sourcing screen's ``x``)."""
