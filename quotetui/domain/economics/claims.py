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
from quotetui.domain.economics.display import grouped, is_money, stored_text
from quotetui.domain.economics.exact import dec, pct, percent_text, q, sci, share_text
from quotetui.domain.economics.units import rate_unit_words
from quotetui.domain.enums import Marked, Metric, Tone
from quotetui.domain.gpus import GpuSpec
from quotetui.language import N_, NP_, _
from quotetui.language.lists import labelled
from quotetui.language.numbers import percent

NVLS_CAPABLE = {"NV18"}  # Hopper SXM boards (and newer) reduce in the NVSwitch: busbw can exceed one link
BUSBW_TYPICAL = {True: Fraction(107, 100), False: Fraction(80, 100)}  # × one direction of NVLink
BUSBW_CEILING = {True: Fraction(120, 100), False: Fraction(1)}


class Verdict(Marked):
    """What the audit says of a claim, with its mark, tone and word."""

    PLAUSIBLE = "plausible", "✓", Tone.SUCCESS, N_("plausible")
    OPTIMISTIC = "optimistic", "!", Tone.WARNING, N_("optimistic")
    IMPOSSIBLE = "impossible", "✗", Tone.ERROR, N_("impossible")
    UNCHECKED = "unchecked", "?", Tone.MUTED, N_("unchecked")


CLAIM_UNITS = {
    "fraction": NP_("unit", "fraction"),  # what a log's MFU is stored in (``bench_import``)
    "days": NP_("unit", "days"),
    "hours": NP_("unit", "hours"),
}
"""The units quotetui writes or a claim usually states in words, as people read them; a unit of symbols (GB/s,
TFLOPS, tokens/s) or one typed otherwise is shown as typed."""


def unit_word(unit: str) -> str:
    """``unit`` in the language in use where it is a word above (``days``, ``天``), else as typed."""
    return _(CLAIM_UNITS[unit]) if unit in CLAIM_UNITS else unit


def value_words(value: Decimal | str, unit: str, high: Decimal | str | None = None) -> str:
    """A value claimed or measured with its unit (``high``: a range's top), as people read it: ``22 days``,
    ``22 天``; a share (``fraction``, a log's MFU) as a percentage, ``36.954 %``, ``36.954%``."""
    if unit == "fraction":
        return share_text(Decimal(value)) + (f"–{share_text(Decimal(high))}" if high is not None else "")
    if is_money(unit):  # a price (``cheaper_than``): as typed, in the money style, its unit in words
        currency = unit.partition("/")[0]
        shown = stored_text(Decimal(value), currency) + (
            f"–{stored_text(Decimal(high), currency)}" if high is not None else ""
        )
        return _("{value} {unit}").format(value=shown, unit=rate_unit_words(unit))
    shown = f"{value}" + (f"–{high}" if high is not None else "")
    return _("{value} {unit}").format(value=shown, unit=unit_word(unit))


def figure_words(metric: Metric, value: Decimal, unit: str, high: Decimal | None = None) -> str:
    """A figure claimed or measured with its metric: ``training_days 22 days``, ``训练天数 22 天``, ``MFU 36.954%``
    (the metric, the value and its unit in the language in use). JSON and the stored row keep the codes."""
    return _("{metric} {value}").format(metric=metric.word, value=value_words(value, unit, high))


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

    @property
    def figure(self) -> str:
        """The claimed figure, a range as claimed: ``mfu 45 %–52 %``, ``gemm_tflops 700 TFLOPS``
        (:func:`figure_words`)."""
        return figure_words(self.metric, self.value, self.unit, self.value_high)


@dataclass(frozen=True, slots=True)
class Audit:
    claim: Claim
    verdict: Verdict
    implied: Decimal | None  # the implied MFU or share of peak / of the link, as a fraction
    implied_label: str  # what ``implied`` is, in words (in the language in use when audited)
    arithmetic: list[str] = field(default_factory=list)
    explanation: str = ""

    @property
    def flag(self) -> str:
        """The verdict on what was claimed, in the language in use: ``optimistic: MFU``, ``偏乐观：MFU`` (a doubtful
        claim in a table cell: the comparison sheet, an RFQ's offers)."""
        return labelled(self.verdict.word, self.claim.metric.word)


def _mfu_verdict(mfu: Fraction) -> Verdict:
    if mfu > MFU_IMPOSSIBLE:
        return Verdict.IMPOSSIBLE
    if mfu > MFU_OPTIMISTIC:
        return Verdict.OPTIMISTIC
    return Verdict.PLAUSIBLE


def _mfu_words(mfu: Fraction) -> str:
    if mfu > 1:
        return _("that is {times}× the GPUs' peak: no hardware can do it").format(times=dec(mfu, 1))
    if mfu > MFU_IMPOSSIBLE:
        return _("no training job reaches {limit} MFU").format(limit=percent_text(MFU_IMPOSSIBLE, 0))
    if mfu > MFU_OPTIMISTIC:
        return _("better than public reports ({reported}, {excellent} is excellent)").format(
            reported=percent("35–47"), excellent=percent("~50")
        )
    return _("within what public reports show")


def _flops(c: Claim) -> tuple[Fraction | None, str]:
    if c.flops is not None:
        return q(c.flops), f"{sci(q(c.flops))} FLOPs"
    if c.model_params is not None and c.tokens is not None:
        f = 6 * q(c.model_params) * q(c.tokens)
        return f, f"6 × {c.model_params:,} × {c.tokens:,} = {sci(f)} FLOPs"
    return None, ""


def _unchecked(c: Claim, why: str) -> Audit:
    return Audit(c, Verdict.UNCHECKED, None, "", [], _("{why}; verify it on a trial machine").format(why=why))


def _training_days(c: Claim) -> Audit:
    flops, words = _flops(c)
    if flops is None or c.gpu is None or c.gpu_count is None:
        return _unchecked(c, _("the claim does not say how much compute or which GPUs"))
    peak = q(c.gpu.bf16_tflops) * 10**12
    days = q(c.value)
    mfu = flops / (c.gpu_count * peak * days * SECONDS_PER_DAY)
    lines = [
        _(
            "{flops} ÷ ({gpus} × {peak} TFLOPS {gpu} × {days} days × 86,400 s) = {mfu} MFU (with perfect scaling)"
        ).format(
            flops=words,
            gpus=c.gpu_count,
            peak=c.gpu.bf16_tflops,
            gpu=c.gpu.name,
            days=c.value,
            mfu=percent_text(mfu, 1),
        )
    ]
    verdict = _mfu_verdict(mfu)
    explanation = _("{days} days needs {mfu} MFU: {why}").format(
        days=c.value, mfu=percent_text(mfu, 0), why=_mfu_words(mfu)
    )
    if c.claimed_mfu is not None:
        at = q(c.claimed_mfu)
        real_days = flops / (c.gpu_count * peak * at * SECONDS_PER_DAY)
        lines.append(
            _(
                "at the stated {stated} MFU: {flops} ÷ ({gpus} × {peak} TFLOPS × {stated}) = {real} days, not {days}"
            ).format(
                stated=percent_text(at, 0),
                flops=words,
                gpus=c.gpu_count,
                peak=c.gpu.bf16_tflops,
                real=dec(real_days, 1),
                days=c.value,
            )
        )
        if real_days > days * Fraction(11, 10):
            verdict = Verdict.IMPOSSIBLE
            explanation = _(
                "the claim contradicts itself: at {stated} MFU the run takes {real} days; {days} days needs {mfu} MFU"
            ).format(stated=percent_text(at, 0), real=dec(real_days, 1), days=c.value, mfu=percent_text(mfu, 0))
    return Audit(c, verdict, dec(mfu, 6), _("implied MFU"), lines, explanation)


def _mfu(c: Claim) -> Audit:
    mfu = c.boldest
    span = percent(f"{pct(q(c.value), 1)}–{pct(mfu, 1)}" if c.value_high is not None else pct(mfu, 1))
    return Audit(
        c,
        _mfu_verdict(mfu),
        dec(mfu, 6),
        _("claimed MFU"),
        [_("claimed {span} MFU").format(span=span)],
        _("{span} MFU: {why}").format(span=span, why=_mfu_words(mfu)),
    )


def _tokens(c: Claim) -> Audit:
    if c.model_params is None or c.gpu is None:
        return _unchecked(c, _("the claim does not say the model size or the GPU"))
    achieved = 6 * q(c.model_params) * c.boldest
    mfu = achieved / (q(c.gpu.bf16_tflops) * 10**12)
    lines = [
        _("6 × {params} parameters × {tokens} tokens/s = {tflops} TFLOPS per GPU").format(
            params=f"{c.model_params:,}", tokens=c.boldest, tflops=grouped(achieved / 10**12, 0)
        ),
        _("÷ {peak} TFLOPS peak ({gpu}) = {mfu} MFU").format(
            peak=c.gpu.bf16_tflops, gpu=c.gpu.name, mfu=percent_text(mfu, 1)
        ),
    ]
    return Audit(
        c,
        _mfu_verdict(mfu),
        dec(mfu, 6),
        _("implied MFU"),
        lines,
        _("{tokens} tokens/s per GPU needs {mfu} MFU: {why}").format(
            tokens=c.boldest, mfu=percent_text(mfu, 0), why=_mfu_words(mfu)
        ),
    )


def _gemm(c: Claim) -> Audit:
    if c.gpu is None:
        return _unchecked(c, _("the claim does not name the GPU"))
    if c.metric is Metric.GEMM_TFLOPS:
        share = c.boldest / q(c.gpu.bf16_tflops)
        lines = [
            _("{tflops} TFLOPS ÷ {peak} TFLOPS dense BF16 peak = {share}").format(
                tflops=c.boldest, peak=c.gpu.bf16_tflops, share=percent_text(share, 1)
            )
        ]
    else:
        share = c.boldest
        lines = [
            _("claimed {share} of the {peak} TFLOPS dense BF16 peak").format(
                share=percent_text(share, 1), peak=c.gpu.bf16_tflops
            )
        ]
    if share > 1:
        verdict = Verdict.IMPOSSIBLE
        explanation = _("{share} of peak is more than the datasheet peak (a sparse figure, or not true)")
    elif share > GEMM_TYPICAL_MAX:
        verdict = Verdict.OPTIMISTIC
        explanation = _("{share} of peak is above the {typical} that published sweeps reach")
    else:
        verdict = Verdict.PLAUSIBLE
        explanation = _("{share} of peak is within what published matmul sweeps reach ({sweeps})")
    return Audit(
        c,
        verdict,
        dec(share, 6),
        _("share of dense peak"),
        lines,
        explanation.format(
            share=percent_text(share, 1), typical=percent_text(GEMM_TYPICAL_MAX, 0), sweeps=percent("80–87")
        ),
    )


def _allreduce(c: Claim) -> Audit:
    if c.gpu is None or c.gpu_count is None or c.gpu_count > 8:
        return _unchecked(c, _("only single-node AllReduce can be checked against the NVLink datasheet"))
    if c.gpu.nvlink_gbs is None or c.gpu.nvlink_note:
        return _unchecked(c, _("{gpu} has no NVSwitch fabric to compare with").format(gpu=c.gpu.name))
    one_way = Fraction(c.gpu.nvlink_gbs, 2)
    nvls = c.gpu.topo_signature in NVLS_CAPABLE
    typical, ceiling = one_way * BUSBW_TYPICAL[nvls], one_way * BUSBW_CEILING[nvls]
    share = c.boldest / one_way
    bus = (
        _("{busbw} GB/s bus bandwidth = {share} of it; usual up to {typical}, ceiling {ceiling} GB/s (NVLink SHARP)")
        if nvls
        else _("{busbw} GB/s bus bandwidth = {share} of it; usual up to {typical}, ceiling {ceiling} GB/s")
    )
    lines = [
        _("{gpu} NVLink: {both} GB/s both ways = {one_way} GB/s each way per GPU").format(
            gpu=c.gpu.name, both=c.gpu.nvlink_gbs, one_way=dec(one_way, 0)
        ),
        bus.format(busbw=c.boldest, share=percent_text(share, 0), typical=dec(typical, 0), ceiling=dec(ceiling, 0)),
    ]
    if c.boldest > ceiling:
        verdict, words = Verdict.IMPOSSIBLE, _("{busbw} GB/s is more than the NVLink links can carry")
    elif c.boldest > typical:
        verdict, words = Verdict.OPTIMISTIC, _("{busbw} GB/s is above what 8-GPU nodes of this model usually measure")
    else:
        verdict, words = Verdict.PLAUSIBLE, _("{busbw} GB/s is within what 8-GPU nodes of this model measure")
    return Audit(c, verdict, dec(share, 6), _("share of one-way NVLink"), lines, words.format(busbw=c.boldest))


def _scaling(c: Claim) -> Audit:
    s = c.boldest
    lines = [
        _("claimed {share} scaling efficiency at {gpus} GPUs").format(share=percent_text(s, 0), gpus=c.gpu_count or "?")
    ]
    label = _("scaling efficiency")
    if s > 1:
        return Audit(
            c, Verdict.IMPOSSIBLE, dec(s, 6), label, lines, _("above {all} is not possible").format(all=percent(100))
        )
    if s > Fraction(95, 100) and (c.gpu_count or 0) > 8:
        return Audit(c, Verdict.OPTIMISTIC, dec(s, 6), label, lines, _("above 95 % across nodes is rarely measured"))
    return Audit(c, Verdict.PLAUSIBLE, dec(s, 6), label, lines, _("within reported figures"))


def _cheaper_than(c: Claim) -> Audit:
    if c.own_price is None or not c.compared:
        return _unchecked(c, _("the compared offers are not on record"))
    own = c.own_price
    lines = [
        _("{offer}: {price} {currency} per GPU-hour").format(
            offer=p.label, price=dec(p.per_gpu_hour, 2), currency=p.currency
        )
        for p in (own, *c.compared)
    ]
    same = [p for p in c.compared if p.currency == own.currency]
    cheaper = [p for p in same if p.per_gpu_hour < own.per_gpu_hour]
    if cheaper:
        low = min(p.per_gpu_hour for p in cheaper)
        return Audit(
            c,
            Verdict.IMPOSSIBLE,
            dec(own.per_gpu_hour / low, 6),
            _("price ratio to the cheapest"),
            lines,
            _(
                "contradicted by the prices on record: {n} of the compared offers cost less (down to {low} vs "
                "{own} {currency} per GPU-hour)"
            ).format(n=len(cheaper), low=dec(low, 2), own=dec(own.per_gpu_hour, 2), currency=own.currency),
        )
    return Audit(c, Verdict.PLAUSIBLE, None, "", lines, _("the prices on record bear it out"))


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
    return check(c) if check else _unchecked(c, _("no rule checks {metric} claims yet").format(metric=c.metric.word))
