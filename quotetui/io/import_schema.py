"""What the importer reads: one entity per sheet (or CSV file), its columns, their aliases and types.

The template (``quotetui template``) and the export write these same headers, so an exported workbook
imports back. Columns are found by header name in any order; Chinese aliases are accepted where buyers
naturally write them. A header's note in the template is its ``note`` here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

from quotetui.domain import enums as e

Kind = Literal[
    "text",
    "int",
    "decimal",
    "rate",
    "money",
    "fraction",
    "date",
    "datetime",
    "bool",
    "choice",
    "currency",
    "list",
    "gpu",
]


@dataclass(frozen=True, slots=True)
class Col:
    key: str
    label: str
    kind: Kind = "text"
    required: bool = False
    aliases: tuple[str, ...] = ()
    note: str = ""
    choices: type[e.Choice] | None = None
    default: Any = None  # the value of an empty cell


@dataclass(frozen=True, slots=True)
class Entity:
    key: str
    sheet: str
    columns: tuple[Col, ...]
    aliases: tuple[str, ...] = ()
    note: str = ""

    def names(self) -> tuple[str, ...]:
        return (self.sheet, self.key, *self.aliases)


def _choice(
    key: str,
    label: str,
    enum: type[e.Choice],
    required: bool = False,
    aliases: tuple[str, ...] = (),
    note: str = "",
    default: e.Choice | None = None,
) -> Col:
    values = ", ".join(m.value for m in enum)
    return Col(key, label, "choice", required, aliases, note or f"one of: {values}", enum, default)


PROVIDER = Col(
    "provider",
    "provider",
    "text",
    True,
    ("供应商", "服务商", "厂商", "provider name"),
    "the provider's name, as on the Providers sheet",
)
OFFER = Col(
    "offer",
    "offer",
    "text",
    True,
    ("方案", "名称", "offer name", "套餐"),
    "the offer's name; provider + offer identify an offer",
)
SOURCE = Col(
    "source", "source", "text", False, ("来源", "出处"), "where the figure comes from (article, email, call …)"
)

PROVIDERS = Entity(
    "providers",
    "Providers",
    (
        Col("name", "name", "text", True, ("供应商", "服务商", "provider", "名称"), "unique name, CJK welcome"),
        _choice("kind", "kind", e.ProviderKind, True, ("类型",)),
        Col("parent", "parent", aliases=("母公司", "集团")),
        Col("regions", "regions", "list", aliases=("地域", "区域"), note="comma separated"),
        Col("certifications", "certifications", "list", aliases=("资质", "认证"), note="comma separated"),
        Col("website", "website", aliases=("官网", "网站")),
        Col("contacts", "contacts", aliases=("联系人", "联系方式")),
        Col("notes", "notes", aliases=("备注",)),
    ),
    ("供应商",),
)

OFFERS = Entity(
    "offers",
    "Offers",
    (
        PROVIDER,
        OFFER,
        Col("gpu", "gpu", "gpu", True, ("GPU", "GPU型号", "显卡", "gpu model"), "any name or alias: H100, A100-80GB …"),
        Col("gpus_per_node", "gpus_per_node", "int", True, ("每节点GPU数", "GPU数", "卡数", "gpus per node")),
        _choice("form_factor", "form_factor", e.FormFactor, False, ("形态",), "sxm or pcie (default: the GPU's)"),
        Col("nodes_available", "nodes_available", "int", aliases=("可用节点", "库存节点")),
        _choice("billing_basis", "billing", e.BillingBasis, True, ("计费方式", "billing_basis")),
        _choice("status", "status", e.OfferStatus, False, ("状态",), "default quoted", e.OfferStatus.QUOTED),
        Col("valid_until", "valid_until", "date", aliases=("有效期", "报价有效期"), note="YYYY-MM-DD"),
        _choice("intra_fabric", "intra_fabric", e.IntraFabric, False, ("机内互联",)),
        _choice("inter_fabric", "inter_fabric", e.InterFabric, False, ("机间网络", "网络")),
        Col("inter_gbps_per_gpu", "inter_gbps_per_gpu", "decimal", aliases=("每卡网络带宽",), note="Gb/s per GPU"),
        Col("cpu", "cpu", aliases=("CPU", "处理器")),
        Col("ram_gb", "ram_gb", "int", aliases=("内存", "内存GB")),
        Col("nvme_tb", "nvme_tb", "decimal", aliases=("硬盘", "存储TB")),
        Col("region", "region", aliases=("地域", "机房")),
        Col("stock_note", "stock_note", aliases=("库存",)),
        Col("lead_time_days", "lead_time_days", "int", aliases=("交付周期",)),
        Col(
            "bare_metal",
            "bare_metal",
            "bool",
            aliases=("裸金属", "物理机"),
            note="yes / no (default yes)",
            default=True,
        ),
        Col("prorata_days", "prorata_days", "bool", aliases=("按天计费",), note="part months billed by the day"),
        Col("is_estimate", "is_estimate", "bool", aliases=("预估", "估算")),
        SOURCE,
        Col("notes", "notes", aliases=("备注",)),
    ),
    ("方案", "报价方案"),
)

REVISIONS = Entity(
    "revisions",
    "Negotiation",
    (
        PROVIDER,
        OFFER,
        Col("round", "round", "int", True, ("轮次", "seq"), "1, 2, 3 … one row per price option of a round"),
        _choice("mover", "mover", e.Mover, True, ("谁出价", "who"), "list, provider, counter (ours) or final"),
        Col("quoted_at", "quoted_at", "datetime", True, ("日期", "报价日期", "date"), "date, or date-time with offset"),
        Col("price", "price", "money", True, ("价格", "单价", "amount"), "exact, up to 6 decimal places"),
        Col("price_high", "price_high", "money", aliases=("最高价",), note="for a range: 8–12万 is 80000 and 120000"),
        _choice("unit", "unit", e.PriceUnit, True, ("计价单位", "单位")),
        Col("currency", "currency", "currency", True, ("币种", "货币")),
        Col(
            "term_months",
            "term_months",
            "int",
            True,
            ("期限", "期限(月)", "term"),
            "0 = on demand, 1 = monthly, 12 = annual",
        ),
        Col("prepay", "prepay", "bool", aliases=("预付",)),
        Col("is_estimate", "is_estimate", "bool", aliases=("预估",)),
        SOURCE,
        Col("note", "note", aliases=("备注",)),
    ),
    ("Revisions", "Rounds", "报价", "谈判"),
)

DISCOUNTS = Entity(
    "discounts",
    "Discounts",
    (
        PROVIDER,
        OFFER,
        _choice("kind", "kind", e.DiscountKind, True, ("类型",)),
        Col(
            "rate",
            "rate",
            "fraction",
            aliases=("折扣率", "优惠"),
            note="a fraction: 15 % is 0.15 (or the text 15%); empty: not quoted",
        ),
        Col("min_term_months", "min_term_months", "int", aliases=("最短期限",)),
        Col("min_gpus", "min_gpus", "int", aliases=("最少GPU",)),
        Col("requires_prepay", "requires_prepay", "bool", aliases=("需预付",)),
        Col("description", "description", aliases=("说明", "备注")),
        SOURCE,
    ),
    ("折扣",),
)

EXTRAS = Entity(
    "extras",
    "Extra costs",
    (
        PROVIDER,
        OFFER,
        _choice("kind", "kind", e.ExtraKind, True, ("类型",)),
        _choice("basis", "basis", e.ExtraBasis, True, ("计费",)),
        Col("amount", "amount", "money", aliases=("金额", "价格"), note="empty: charged, price unknown"),
        Col("currency", "currency", "currency", True, ("币种",)),
        Col("refundable", "refundable", "bool", aliases=("可退",)),
        Col("description", "description", aliases=("说明", "备注")),
        SOURCE,
    ),
    ("Extras", "ExtraCosts", "额外费用", "附加费用"),
)

SLA = Entity(
    "sla",
    "SLA",
    (
        PROVIDER,
        OFFER,
        Col("availability", "availability", "fraction", aliases=("可用性",), note="a fraction: 99.9 % is 0.999"),
        Col("response_minutes", "response_minutes", "int", aliases=("响应时间",)),
        Col("replacement_hours", "replacement_hours", "int", aliases=("更换时间",)),
        Col("support_hours", "support_hours", aliases=("支持时间",), note="e.g. 7x24"),
        Col("return_days", "return_days", "int", aliases=("无理由退机",)),
        Col("dc_tier", "dc_tier", aliases=("机房等级",)),
        Col("pue", "pue", "decimal", aliases=("PUE",)),
        Col("power_redundancy", "power_redundancy", aliases=("电力冗余",)),
        _choice("preemption", "preemption", e.PreemptionRisk, False, ("抢占风险",), default=e.PreemptionRisk.UNKNOWN),
        Col("credits", "credits", aliases=("赔付", "服务赔偿"), note="below%:credit%, … e.g. 99.9:10, 99:25"),
        Col("notes", "notes", aliases=("备注",)),
        SOURCE,
    ),
    ("服务等级",),
)

CLAIMS = Entity(
    "claims",
    "Benchmarks",
    (
        Col("provider", "provider", aliases=PROVIDER.aliases, note="empty for a market-wide claim"),
        Col("offer", "offer", aliases=OFFER.aliases, note="empty for a provider-wide claim"),
        _choice(
            "provenance",
            "provenance",
            e.Provenance,
            False,
            ("来源类型",),
            "claimed (imported) or verified (from logs: `bench import`, not from sheets)",
        ),
        _choice("metric", "metric", e.Metric, True, ("指标",)),
        Col("value", "value", "decimal", True, ("数值",)),
        Col("value_high", "value_high", "decimal", aliases=("最高值",)),
        Col("qualifier", "qualifier", aliases=("限定",), note="about, at_least, at_most, or empty"),
        Col("unit", "unit", "text", True, ("单位",)),
        Col("gpu", "gpu", "gpu", aliases=("GPU", "显卡")),
        Col("gpu_count", "gpu_count", "int", aliases=("卡数",)),
        Col("workload", "workload", aliases=("任务", "模型")),
        Col("model_params", "model_params", "decimal", aliases=("参数量",)),
        Col("tokens", "tokens", "decimal", aliases=("token数",)),
        Col("flops", "flops", "decimal", aliases=("计算量",)),
        Col("claimed_mfu", "claimed_mfu", "fraction", aliases=("声称MFU",)),
        Col("dtype", "dtype", aliases=("精度",)),
        Col("source", "source", "text", True, SOURCE.aliases, "where the claim is made"),
        Col("quote", "quote", aliases=("原文",), note="the claim in the source's own words"),
        Col(
            "compared",
            "compared offers",
            aliases=("对比",),
            note="for a cheaper_than claim: the offers it is compared with, as 'provider / offer; provider / offer'",
        ),
    ),
    ("Claims", "声称", "性能"),
)

FX = Entity(
    "fx",
    "FX rates",
    (
        Col("base", "base", "currency", True, ("from", "源币种"), "1 base = rate quote"),
        Col("quote", "quote", "currency", True, ("to", "目标币种")),
        Col("rate", "rate", "rate", True, ("汇率",)),
        Col("as_of", "as_of", "date", True, ("日期",)),
        Col("source", "source", "text", True, SOURCE.aliases),
    ),
    ("FX", "Rates", "汇率"),
)

ENTITIES: tuple[Entity, ...] = (PROVIDERS, OFFERS, REVISIONS, DISCOUNTS, EXTRAS, SLA, CLAIMS, FX)

SKYPILOT_HEADERS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")


def norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _by_name(name: str) -> Entity | None:
    key = norm(name)
    for entity in ENTITIES:
        if key in {norm(n) for n in entity.names()}:
            return entity
    # a file called "2026-11 阿里云 offers.csv" or "extra_costs_lambda.csv": a word (or two) of its name
    words = [w for w in re.split(r"[\W_]+", name.casefold()) if w]
    phrases = {norm(w) for w in words} | {norm(a + b) for a, b in pairwise(words)}
    found = {entity.key: entity for entity in ENTITIES for n in entity.names() if norm(n) in phrases}
    return next(iter(found.values())) if len(found) == 1 else None


def _matched(entity: Entity, present: set[str]) -> set[str]:
    return {c.key for c in entity.columns if present & {norm(n) for n in (c.label, c.key, *c.aliases)}}


def entity_for(name: str, header: list[str] | None = None) -> Entity | None:
    """The entity a sheet (or CSV file) holds: by its name or a word of it, else by its header — the one
    entity that knows every column and finds its required ones there."""
    entity = _by_name(name)
    if entity is not None or not header:
        return entity
    present = {norm(h) for h in header if h}
    fits = []
    for candidate in ENTITIES:
        matched = _matched(candidate, present)
        if len(matched) == len(present) and all(c.key in matched for c in candidate.columns if c.required):
            fits.append(candidate)
    return fits[0] if len(fits) == 1 else None


def closest_entity(header: list[str]) -> tuple[Entity, list[str]] | None:
    """For a table no entity fits: the entity sharing most columns with it, and its required columns missing."""
    present = {norm(h) for h in header if h}
    best = max(ENTITIES, key=lambda entity: len(_matched(entity, present)))
    matched = _matched(best, present)
    if len(matched) < 2:
        return None
    return best, [c.label for c in best.columns if c.required and c.key not in matched]


WORKBOOK_SHEETS = (
    "Summary",
    "Offers",
    "Side by side",
    "TCO",
    "Negotiation",
    "SLA",
    "Benchmarks",
    "Findings",
    "Rent vs buy",
    "Contracts",
    "Providers",
    "Discounts",
    "Extra costs",
    "FX rates",
)
"""The sheets of the exported comparison workbook, in order."""

COMPUTED_SHEETS = tuple(title for title in WORKBOOK_SHEETS if _by_name(title) is None)
"""Its sheets of figures quotetui computes: an import skips them without reading them."""
