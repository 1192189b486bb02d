"""The claims audit: what each claimed figure implies, and whether it can be true.

Verdicts: ``impossible`` (implies MFU above 75 %, more than the hardware's peak or link bandwidth, or
contradicts figures given alongside it), ``optimistic`` (better than public reports: MFU above 50 %, GEMM
above 87 % of peak, AllReduce above the usual range), ``plausible`` (inside what is reported), and
``unchecked`` (the arithmetic cannot test it; verify on a trial machine). A range is judged by its boldest
figure. Training-time claims assume perfect scaling, which only makes the implied MFU a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.assumptions import (
    GEMM_TYPICAL_MAX,
    MFU_IMPOSSIBLE,
    MFU_OPTIMISTIC,
    SECONDS_PER_DAY,
)
from quotetui.domain.economics.display import grouped
from quotetui.domain.economics.exact import dec, pct, q, sci
from quotetui.domain.enums import Marked, Metric, Tone
from quotetui.domain.gpus import GpuSpec

NVLS_CAPABLE = {"NV18"}  # Hopper SXM boards (and newer) reduce in the NVSwitch: busbw can exceed one link
BUSBW_TYPICAL = {True: Fraction(107, 100), False: Fraction(80, 100)}  # × one direction of NVLink
BUSBW_CEILING = {True: Fraction(120, 100), False: Fraction(1)}


class Verdict(Marked):
    """What the audit says of a claim, with its mark and tone."""

    PLAUSIBLE = "plausible", "✓", Tone.SUCCESS
    OPTIMISTIC = "optimistic", "!", Tone.WARNING
    IMPOSSIBLE = "impossible", "✗", Tone.ERROR
    UNCHECKED = "unchecked", "?", Tone.MUTED


@dataclass(frozen=True, slots=True)
class ComparedPrice:
    label: str
    per_gpu_hour: Fraction
    currency: str


@dataclass(frozen=True, slots=True)
class Claim:
    id: int
    metric: Metric
    value: Decimal
    unit: str
    source: str
    value_high: Decimal | None = None
    qualifier: str = ""
    provider: str | None = None
    offer: str | None = None
    offer_id: int | None = None
    gpu: GpuSpec | None = None
    gpu_count: int | None = None
    workload: str | None = None
    model_params: Decimal | None = None
    tokens: Decimal | None = None
    flops: Decimal | None = None
    claimed_mfu: Decimal | None = None
    quote: str | None = None
    own_price: ComparedPrice | None = None  # for price comparisons
    compared: tuple[ComparedPrice, ...] = ()

    @property
    def boldest(self) -> Fraction:
        return q(self.value_high if self.value_high is not None else self.value)


@dataclass(frozen=True, slots=True)
class Audit:
    claim: Claim
    verdict: Verdict
    implied: Decimal | None  # the implied MFU or share of peak / of the link, as a fraction
    implied_label: str
    arithmetic: list[str] = field(default_factory=list)
    explanation: str = ""


def _mfu_verdict(mfu: Fraction) -> Verdict:
    if mfu > MFU_IMPOSSIBLE:
        return Verdict.IMPOSSIBLE
    if mfu > MFU_OPTIMISTIC:
        return Verdict.OPTIMISTIC
    return Verdict.PLAUSIBLE


def _mfu_words(mfu: Fraction) -> str:
    if mfu > 1:
        return f"that is {dec(mfu, 1)}× the GPUs' peak: no hardware can do it"
    if mfu > MFU_IMPOSSIBLE:
        return f"no training job reaches {pct(MFU_IMPOSSIBLE, 0)} % MFU"
    if mfu > MFU_OPTIMISTIC:
        return "better than public reports (35–47 %, ~50 % is excellent)"
    return "within what public reports show"


def _flops(c: Claim) -> tuple[Fraction | None, str]:
    if c.flops is not None:
        return q(c.flops), f"{sci(q(c.flops))} FLOPs"
    if c.model_params is not None and c.tokens is not None:
        f = 6 * q(c.model_params) * q(c.tokens)
        return f, f"6 × {c.model_params:,} × {c.tokens:,} = {sci(f)} FLOPs"
    return None, ""


def _unchecked(c: Claim, why: str) -> Audit:
    return Audit(c, Verdict.UNCHECKED, None, "", [], f"{why}; verify it on a trial machine")


def _training_days(c: Claim) -> Audit:
    flops, words = _flops(c)
    if flops is None or c.gpu is None or c.gpu_count is None:
        return _unchecked(c, "the claim does not say how much compute or which GPUs")
    peak = q(c.gpu.bf16_tflops) * 10**12
    days = q(c.value)
    mfu = flops / (c.gpu_count * peak * days * SECONDS_PER_DAY)
    lines = [
        f"{words} ÷ ({c.gpu_count} × {c.gpu.bf16_tflops} TFLOPS {c.gpu.name} × {c.value} days × 86,400 s) "
        f"= {pct(mfu, 1)} % MFU (with perfect scaling)"
    ]
    verdict = _mfu_verdict(mfu)
    explanation = f"{c.value} days needs {pct(mfu, 0)} % MFU: {_mfu_words(mfu)}"
    if c.claimed_mfu is not None:
        at = q(c.claimed_mfu)
        real_days = flops / (c.gpu_count * peak * at * SECONDS_PER_DAY)
        lines.append(
            f"at the stated {pct(at, 0)} % MFU: {words} ÷ ({c.gpu_count} × {c.gpu.bf16_tflops} TFLOPS × "
            f"{pct(at, 0)} %) = {dec(real_days, 1)} days, not {c.value}"
        )
        if real_days > days * Fraction(11, 10):
            verdict = Verdict.IMPOSSIBLE
            explanation = (
                f"the claim contradicts itself: at {pct(at, 0)} % MFU the run takes {dec(real_days, 1)} days; "
                f"{c.value} days needs {pct(mfu, 0)} % MFU"
            )
    return Audit(c, verdict, dec(mfu, 6), "implied MFU", lines, explanation)


def _mfu(c: Claim) -> Audit:
    mfu = c.boldest
    span = f"{pct(q(c.value), 1)}–{pct(mfu, 1)} %" if c.value_high is not None else f"{pct(mfu, 1)} %"
    return Audit(
        c, _mfu_verdict(mfu), dec(mfu, 6), "claimed MFU", [f"claimed {span} MFU"], f"{span} MFU: {_mfu_words(mfu)}"
    )


def _tokens(c: Claim) -> Audit:
    if c.model_params is None or c.gpu is None:
        return _unchecked(c, "the claim does not say the model size or the GPU")
    achieved = 6 * q(c.model_params) * c.boldest
    mfu = achieved / (q(c.gpu.bf16_tflops) * 10**12)
    lines = [
        f"6 × {c.model_params:,} parameters × {c.boldest} tokens/s = {grouped(achieved / 10**12, 0)} TFLOPS per GPU",
        f"÷ {c.gpu.bf16_tflops} TFLOPS peak ({c.gpu.name}) = {pct(mfu, 1)} % MFU",
    ]
    return Audit(
        c,
        _mfu_verdict(mfu),
        dec(mfu, 6),
        "implied MFU",
        lines,
        f"{c.boldest} tokens/s per GPU needs {pct(mfu, 0)} % MFU: {_mfu_words(mfu)}",
    )


def _gemm(c: Claim) -> Audit:
    if c.gpu is None:
        return _unchecked(c, "the claim does not name the GPU")
    if c.metric is Metric.GEMM_TFLOPS:
        share = c.boldest / q(c.gpu.bf16_tflops)
        lines = [f"{c.boldest} TFLOPS ÷ {c.gpu.bf16_tflops} TFLOPS dense BF16 peak = {pct(share, 1)} %"]
    else:
        share = c.boldest
        lines = [f"claimed {pct(share, 1)} % of the {c.gpu.bf16_tflops} TFLOPS dense BF16 peak"]
    if share > 1:
        verdict, words = Verdict.IMPOSSIBLE, "more than the datasheet peak (a sparse figure, or not true)"
    elif share > GEMM_TYPICAL_MAX:
        verdict, words = Verdict.OPTIMISTIC, f"above the {pct(GEMM_TYPICAL_MAX, 0)} % that published sweeps reach"
    else:
        verdict, words = Verdict.PLAUSIBLE, "within what published matmul sweeps reach (80–87 %)"
    return Audit(c, verdict, dec(share, 6), "share of dense peak", lines, f"{pct(share, 1)} % of peak is {words}")


def _allreduce(c: Claim) -> Audit:
    if c.gpu is None or c.gpu_count is None or c.gpu_count > 8:
        return _unchecked(c, "only single-node AllReduce can be checked against the NVLink datasheet")
    if c.gpu.nvlink_gbs is None or c.gpu.nvlink_note:
        return _unchecked(c, f"{c.gpu.name} has no NVSwitch fabric to compare with")
    one_way = Fraction(c.gpu.nvlink_gbs, 2)
    nvls = c.gpu.topo_signature in NVLS_CAPABLE
    typical, ceiling = one_way * BUSBW_TYPICAL[nvls], one_way * BUSBW_CEILING[nvls]
    share = c.boldest / one_way
    lines = [
        f"{c.gpu.name} NVLink: {c.gpu.nvlink_gbs} GB/s both ways = {dec(one_way, 0)} GB/s each way per GPU",
        f"{c.boldest} GB/s bus bandwidth = {pct(share, 0)} % of it; usual up to {dec(typical, 0)}, "
        f"ceiling {dec(ceiling, 0)} GB/s{' (NVLink SHARP)' if nvls else ''}",
    ]
    if c.boldest > ceiling:
        verdict, words = Verdict.IMPOSSIBLE, "more than the NVLink links can carry"
    elif c.boldest > typical:
        verdict, words = Verdict.OPTIMISTIC, "above what 8-GPU nodes of this model usually measure"
    else:
        verdict, words = Verdict.PLAUSIBLE, "within what 8-GPU nodes of this model measure"
    return Audit(c, verdict, dec(share, 6), "share of one-way NVLink", lines, f"{c.boldest} GB/s is {words}")


def _scaling(c: Claim) -> Audit:
    s = c.boldest
    lines = [f"claimed {pct(s, 0)} % scaling efficiency at {c.gpu_count or '?'} GPUs"]
    if s > 1:
        return Audit(c, Verdict.IMPOSSIBLE, dec(s, 6), "scaling efficiency", lines, "above 100 % is not possible")
    if s > Fraction(95, 100) and (c.gpu_count or 0) > 8:
        return Audit(
            c, Verdict.OPTIMISTIC, dec(s, 6), "scaling efficiency", lines, "above 95 % across nodes is rarely measured"
        )
    return Audit(c, Verdict.PLAUSIBLE, dec(s, 6), "scaling efficiency", lines, "within reported figures")


def _cheaper_than(c: Claim) -> Audit:
    if c.own_price is None or not c.compared:
        return _unchecked(c, "the compared offers are not on record")
    own = c.own_price
    lines = [f"{own.label}: {dec(own.per_gpu_hour, 2)} {own.currency} per GPU-hour"]
    lines += [f"{p.label}: {dec(p.per_gpu_hour, 2)} {p.currency} per GPU-hour" for p in c.compared]
    same = [p for p in c.compared if p.currency == own.currency]
    cheaper = [p for p in same if p.per_gpu_hour < own.per_gpu_hour]
    if cheaper:
        low = min(p.per_gpu_hour for p in cheaper)
        return Audit(
            c,
            Verdict.IMPOSSIBLE,
            dec(own.per_gpu_hour / low, 6),
            "price ratio to the cheapest",
            lines,
            f"contradicted by the prices on record: {len(cheaper)} of the compared offers cost less "
            f"(down to {dec(low, 2)} vs {dec(own.per_gpu_hour, 2)} {own.currency} per GPU-hour)",
        )
    return Audit(c, Verdict.PLAUSIBLE, None, "", lines, "the prices on record bear it out")


def audit(c: Claim) -> Audit:
    checks = {
        Metric.TRAINING_DAYS: _training_days,
        Metric.MFU: _mfu,
        Metric.TOKENS_PER_SEC_PER_GPU: _tokens,
        Metric.GEMM_TFLOPS: _gemm,
        Metric.GEMM_PCT_OF_PEAK: _gemm,
        Metric.ALLREDUCE_BUSBW: _allreduce,
        Metric.SCALING_EFFICIENCY: _scaling,
        Metric.CHEAPER_THAN: _cheaper_than,
    }
    check = checks.get(c.metric)
    return check(c) if check else _unchecked(c, f"no rule checks {c.metric.value} claims yet")
