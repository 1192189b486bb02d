"""Every figure of an offer for a scenario, each able to say where it came from, and the ranking.

* price per GPU-hour: the effective compute price (after discounts) of the cheapest option, home currency;
* cost per GPU-hour: everything paid ÷ GPU-hours the scenario uses (GPUs × 730 × utilisation × months);
* cost per delivered PFLOP-hour = cost per GPU-hour ÷ (peak dense BF16 TFLOPS × MFU × availability ÷ 1000);
* expected downtime per year = (1 − availability) × hours a year (12 × the month's hours: 8,760 by default).

Claims never buy rank. MFU comes from verified evidence, else the default 40 %: an unverified claim is shown
as a second figure, "if the claims hold", and only lowers the MFU when it is below the default (that is
conservative; the low end of a range; an impossible claim, over 75 %, or one on a much smaller model is not
taken). A verified GEMM under 80 % of peak then scales it down (the GPU itself delivers less).
Availability comes from an SLA with a credit schedule (a promise with a remedy), else the default 99 %; an SLA
figure without credits is a claim like any other: used only when below the default.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.economics.assumptions import (
    BYTES_PER_PARAMETER,
    GEMM_HEALTHY_SHARE,
    MFU_IMPOSSIBLE,
    Assumed,
    Assumptions,
)
from quotetui.domain.economics.billing import basis_flag, billed_usages, cheapest_first
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats
from quotetui.domain.economics.costing import (
    OptionCost,
    base_option,
    cost_mixed,
    cost_option,
    mixed_ways,
    node_breakpoints,
    nodes_needed,
    price_options,
)
from quotetui.domain.economics.display import grouped
from quotetui.domain.economics.exact import dec, pct, percent_text, q
from quotetui.domain.economics.inputs import Evidence, OfferInput, PriceOption, ScenarioInput
from quotetui.domain.economics.lazy import slot_cached
from quotetui.domain.economics.scaling import WHOLE_JOB, job_scaling
from quotetui.domain.economics.units import to_gpu_hour
from quotetui.domain.enums import BillingBasis, InterFabric, Metric, Provenance, Tone
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import FxTable, MissingFxRate
from quotetui.domain.money import plain
from quotetui.language import N_, _, current
from quotetui.language.lists import clauses, filled
from quotetui.language.numbers import percent


class NotPriced(BadInput):
    """An offer whose current price is zero or negative (stored before input refused it): a data error to
    correct, never the cheapest offer, a BATNA or a target."""


class DeliversNothing(BadInput):
    """An offer whose delivered compute is zero (an SLA availability of 0 %, stored before input refused it,
    or a GPU with no BF16 figure): its cost per delivered PFLOP-hour has no value, so it is not ranked."""


NOT_COMPARABLE = (MissingFxRate, NotPriced, DeliversNothing)
"""What keeps an offer out of a ranking (listed with its reason) instead of stopping it. The messages of
:class:`NotPriced` and :class:`DeliversNothing` stay in English: the stored ranking keeps a reason as written
(``stored_evaluation.reason``), to be read later in whatever language."""


def offer_estimates(offer: OfferInput) -> tuple[str, ...]:
    """Why every figure of ``offer`` rests on estimates, whichever way it is bought: the offer or its current
    round marked as estimates, a spot offer's nodes that can be reclaimed (:data:`SPOT_ESTIMATE`), an extra cost
    stored with a basis its kind is not charged on (``billing.basis_flag``: costed as recorded, on what the basis
    bills, until the record is corrected). The ranking's figures and the training planner's costs both carry
    them."""
    out = []
    if offer.is_estimate:
        out.append(_("the offer is marked as an estimate"))
    if offer.round_is_estimate:
        out.append(_("the current round's figures are marked as estimates"))
    if offer.billing_basis is BillingBasis.SPOT:
        out.append(_(SPOT_ESTIMATE))
    out += (flag for x in offer.extras if (flag := basis_flag(x.kind, x.basis, x.shown)) is not None)
    return tuple(out)


SPOT_ESTIMATE = N_("spot (preemptible): the provider can reclaim the nodes, so not every hour paid for is sure to run")
"""What the offer's billing basis means to the engine: a spot offer's figures are estimates (``~``), whatever its
prices; how each price is billed is its way to buy's rule (``billing.py``), not the basis."""


@dataclass(frozen=True, slots=True)
class Feasibility:
    """Three-valued: ✗ something blocks the scenario; ? nothing blocks it but something it needs is not stated
    (the questions to ask: ranked after the confirmed offers, never a BATNA); ✓ confirmed."""

    blocking: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Nothing blocks the scenario (it may still have questions open)."""
        return not self.blocking

    @property
    def confirmed(self) -> bool:
        return not self.blocking and not self.questions

    @property
    def mark(self) -> str:
        return "✗" if self.blocking else "?" if self.questions else "✓"

    @property
    def tone(self) -> Tone:
        return Tone.ERROR if self.blocking else Tone.WARNING if self.questions else Tone.PLAIN

    @property
    def state(self) -> str:
        """The mark in a word, as JSON has it: ``confirmed``, ``question`` or ``blocked``."""
        return "blocked" if self.blocking else "question" if self.questions else "confirmed"

    @property
    def words(self) -> str:
        """For a table cell: ``yes``, ``? ask: …`` or ``no: …``."""
        if self.blocking:
            return _("no: {reasons}").format(reasons=clauses(self.blocking))
        if self.questions:
            return _("? ask: {questions}").format(questions=clauses(self.questions))
        return _("yes")

    def note(self, offer_id: int) -> str | None:
        """Why offer ``offer_id`` is not ranked, or what to ask before it is, as a note under a table of offers
        (``✗ #8: …``, ``? #5: …``): the CLI's listing ends with them, the TUI's offers table says the
        highlighted offer's; None when confirmed."""
        if self.blocking:
            return _("✗ #{id}: {reasons}").format(id=offer_id, reasons=clauses(self.blocking))
        if self.questions:
            return _("? #{id}: {questions}").format(id=offer_id, questions=clauses(self.questions))
        return None


FEASIBLE = Feasibility()
"""Nothing blocks or warns: one shared object."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """All figures are computed once, on first use (``slot_cached``): rankings sort by them."""

    offer: OfferInput
    scenario: ScenarioInput
    assumptions: Assumptions
    nodes: int
    options: tuple[OptionCost, ...]  # cheapest first
    mfu: Assumed
    availability: Assumed
    feasibility: Feasibility
    unknowns: tuple[str, ...]  # costs or discounts on offer whose amount is not known
    scaling: Assumed = WHOLE_JOB  # on top of the MFU: a claim measured across fewer nodes than the scenario
    unpriced: tuple[str, ...] = ()  # costs the scenario incurs that the offer does not price (``unpriced_costs``)
    claimed_mfu: Assumed | None = None  # the MFU if the claims hold, where it differs from ``mfu``
    claimed_scaling: Assumed | None = None  # the scaling that claimed MFU gets
    claimed_availability: Assumed | None = None  # the SLA's promise without credits, where it differs
    fx: FxTable | None = field(default=None, repr=False, compare=False)  # the rates ``options`` were costed at
    _best: Any = field(default=None, init=False, repr=False, compare=False)
    _currency: Any = field(default=None, init=False, repr=False, compare=False)
    _quoted_gpu_hour: Any = field(default=None, init=False, repr=False, compare=False)
    _price_per_gpu_hour: Any = field(default=None, init=False, repr=False, compare=False)
    _used_gpu_hours: Any = field(default=None, init=False, repr=False, compare=False)
    _cost_per_gpu_hour: Any = field(default=None, init=False, repr=False, compare=False)
    _effective_mfu: Any = field(default=None, init=False, repr=False, compare=False)
    _effective_pflops_per_gpu: Any = field(default=None, init=False, repr=False, compare=False)
    _cost_per_pflop_hour: Any = field(default=None, init=False, repr=False, compare=False)
    _delivered_pflop_hours: Any = field(default=None, init=False, repr=False, compare=False)
    _annualised_tco: Any = field(default=None, init=False, repr=False, compare=False)
    _lower_bound: Any = field(default=None, init=False, repr=False, compare=False)
    _estimates: Any = field(default=None, init=False, repr=False, compare=False)
    _downtime_hours_per_year: Any = field(default=None, init=False, repr=False, compare=False)
    _if_claims_hold: Any = field(default=None, init=False, repr=False, compare=False)
    _caveats: Any = field(default=None, init=False, repr=False, compare=False)

    @slot_cached
    def best(self) -> OptionCost:
        return self.options[0]

    @slot_cached
    def currency(self) -> str:
        return self.scenario.home_currency

    @slot_cached
    def quoted_gpu_hour(self) -> Fraction:
        """The current base price per GPU-hour before discounts, in the offer's own currency."""
        base = base_option(self.offer.options)
        return to_gpu_hour(
            q(base.costed_amount),
            base.unit,
            self.offer.gpus_per_node,
            base.term_months,
            self.assumptions.hours_per_month,
        )

    @slot_cached
    def price_per_gpu_hour(self) -> Fraction:
        return self.best.home_node_month / (self.offer.gpus_per_node * self.assumptions.hours_per_month)

    @slot_cached
    def used_gpu_hours(self) -> Fraction:
        s = self.scenario
        return q(s.utilisation) * (s.gpu_count * self.assumptions.hours_per_month * s.months)

    @slot_cached
    def cost_per_gpu_hour(self) -> Fraction:
        return self.best.total / self.used_gpu_hours

    @slot_cached
    def effective_mfu(self) -> Fraction:
        """The MFU the scenario's job reaches: the MFU chosen × the scaling to the scenario's nodes."""
        return self.mfu.value * self.scaling.value

    @slot_cached
    def effective_pflops_per_gpu(self) -> Fraction:
        """Delivered PFLOPS per GPU: peak dense BF16 × MFU × scaling × availability ÷ 1000."""
        return q(self.offer.gpu.bf16_tflops) * self.effective_mfu * self.availability.value / 1000

    @slot_cached
    def cost_per_pflop_hour(self) -> Fraction:
        return self.cost_per_gpu_hour / self.effective_pflops_per_gpu

    @slot_cached
    def delivered_pflop_hours(self) -> Fraction:
        return self.used_gpu_hours * self.effective_pflops_per_gpu

    @slot_cached
    def annualised_tco(self) -> Fraction:
        return self.best.annualised

    @slot_cached
    def lower_bound(self) -> bool:
        """Some cost the scenario incurs is not priced: every cost figure is at least what it says."""
        return bool(self.unpriced)

    @slot_cached
    def estimates(self) -> tuple[str, ...]:
        """Why the figures rest on estimates rather than quoted prices (empty: they do not): the offer's own
        (:func:`offer_estimates`) and the price of the way it is costed at."""
        out = offer_estimates(self.offer)
        if self.best.is_estimate:
            out += (_("the {way} price it is costed at is an estimate").format(way=self.best.shown),)
        return out

    @slot_cached
    def if_claims_hold(self) -> Fraction | None:
        """The cost per delivered PFLOP-hour if the unverified claims hold (a claimed MFU, an SLA's availability
        without credits): a second figure, never the ranking's; None when no claim would change it."""
        if self.claimed_mfu is None and self.claimed_availability is None:
            return None
        mfu = (self.claimed_mfu or self.mfu).value * (self.claimed_scaling or self.scaling).value
        availability = (self.claimed_availability or self.availability).value
        return self.cost_per_gpu_hour / (q(self.offer.gpu.bf16_tflops) * mfu * availability / 1000)

    @slot_cached
    def caveats(self) -> Caveats:
        """What qualifies every cost figure of this evaluation (``caveats.py``): a lower bound, an estimate, a
        VAT basis not recorded while costs are net of VAT. The offer's findings and a lapsed quote are added
        where a view knows them (``caveats.for_offer``)."""
        vat_unknown = self.assumptions.net_of_vat and self.offer.vat_rate is None
        if not (self.unpriced or self.estimates or vat_unknown):
            return NO_CAVEATS
        return Caveats(self.unpriced, self.estimates, vat_unknown=vat_unknown)

    @slot_cached
    def downtime_hours_per_year(self) -> Fraction:
        return (1 - self.availability.value) * self.assumptions.hours_per_year


def _range_low(e: Evidence) -> Fraction:
    return q(e.value)


def choose_mfu(
    evidence: tuple[Evidence, ...],
    assumptions: Assumptions,
    peak_tflops: Decimal | None = None,
    plan_params: Decimal | Fraction | None = None,
    trust_claims: bool = False,
) -> Assumed:
    """The MFU the figures rest on; with the GPU's dense BF16 peak, a verified GEMM sweep can lower it; with
    the parameters of the model planned, a claim on a much smaller model is not taken (``comparable``).
    ``trust_claims``: the MFU if the claims hold (``Evaluation.if_claims_hold``), never the ranking's."""
    base = _base_mfu(evidence, assumptions, plan_params, trust_claims)
    gemm = [e for e in evidence if e.provenance is Provenance.VERIFIED and e.metric is Metric.GEMM_TFLOPS]
    if base.source == "verified" or not gemm or peak_tflops is None:
        return base
    e = max(gemm, key=lambda g: g.id)
    share = q(e.value) / q(peak_tflops)
    if share >= GEMM_HEALTHY_SHARE:
        return Assumed(
            base.value,
            base.source,
            lambda: _("{note}; verified GEMM {tflops} TFLOPS = {share} of peak confirms the GPU ({source})").format(
                note=base.note, tflops=e.value, share=percent_text(share, 1), source=e.source or _("evidence")
            ),
            base.measured_gpus,
        )
    factor = share / GEMM_HEALTHY_SHARE
    return Assumed(
        base.value * factor,
        "verified",
        lambda: _(
            "{mfu} × {factor} = {scaled}: verified GEMM {tflops} TFLOPS is {share} of the {peak} TFLOPS peak, "
            "a healthy GPU reaches {healthy} ({source}); before: {note}"
        ).format(
            mfu=percent_text(base.value, 1),
            factor=dec(factor, 3),
            scaled=percent_text(base.value * factor, 1),
            tflops=e.value,
            share=percent_text(share, 1),
            peak=peak_tflops,
            healthy=percent_text(GEMM_HEALTHY_SHARE, 0),
            source=e.source or _("evidence"),
            note=base.note,
        ),
        base.measured_gpus,
    )


COMPARABLE_MODEL_SHARE = Fraction(1, 4)
"""A claimed MFU speaks for a plan when its model has at least a quarter of the plan's parameters: small models
reach MFUs that a 175B model's parallelism and communication do not (a 7B claim for a 175B plan does not)."""


def comparable(e: Evidence, plan_params: Decimal | Fraction | None) -> str | None:
    """Why a claim's workload is not comparable with the plan's, or None when it is (or cannot be told)."""
    if plan_params is None or e.model_params is None:
        return None
    if q(e.model_params) >= q(plan_params) * COMPARABLE_MODEL_SHARE:
        return None
    return _("measured on a {measured} model, not comparable with the {planned} planned").format(
        measured=_params(e.model_params), planned=_params(plan_params)
    )


def _params(n: Decimal | Fraction) -> str:
    billions = q(n) / 10**9
    return f"{dec(billions, 1).normalize():f}B" if billions >= 1 else f"{dec(q(n) / 10**6, 0):f}M"


def _base_mfu(
    evidence: tuple[Evidence, ...],
    assumptions: Assumptions,
    plan_params: Decimal | Fraction | None,
    trust_claims: bool = False,
) -> Assumed:
    """Verified evidence, else the default; the lowest usable claim below the default lowers it (conservative).
    With ``trust_claims`` the lowest usable claim is taken as it stands: the "if the claims hold" figure."""
    mfu = [e for e in evidence if e.metric is Metric.MFU]
    verified = [e for e in mfu if e.provenance is Provenance.VERIFIED]
    if verified:
        e = verified[-1]
        value, gpus, where = q(e.value), e.gpu_count, e.source
        return Assumed(value, "verified", lambda: _measured(value, gpus, where), e.gpu_count)
    notes = []
    default = assumptions.default_mfu
    for e in sorted((e for e in mfu if e.provenance is Provenance.CLAIMED), key=_range_low):
        value = _range_low(e)
        span = percent(f"{pct(value, 1)}–{pct(q(e.value_high), 1)}" if e.value_high is not None else pct(value, 1))
        if value > MFU_IMPOSSIBLE:
            notes.append(
                _("claimed {span} ignored: above {limit} is not achievable").format(
                    span=span, limit=percent_text(MFU_IMPOSSIBLE, 0)
                )
            )
            continue
        source = e.source or _("no source")
        where = f"{e.workload}, {source}" if e.workload else source
        unlike = comparable(e, plan_params)
        if unlike is not None:
            notes.append(
                _("claimed {span} ({source}) not used: {reason}").format(span=span, source=where, reason=unlike)
            )
            continue
        note = _claimed(span, e.value_high is not None, e.gpu_count, where)
        if trust_claims:
            return Assumed(value, "claimed", _("{claim}: if the claim holds").format(claim=note), e.gpu_count)
        if value < default:  # a claim below the default is believed: it can only make the offer dearer
            used = _("{claim}; below the default {default}: used").format(claim=note, default=percent_text(default, 0))
            return Assumed(value, "claimed", used, e.gpu_count)
        notes.append(
            filled(_("{claim} not verified: claims never buy rank (shown as 'if the claims hold')"), claim=note)
        )
        break
    if not notes:
        return _default_mfu(default, current())
    return Assumed(default, "default", lambda: _default_mfu_note(default, notes))


def _measured(value: Fraction, gpus: int | None, source: str | None) -> str:
    """A verified MFU's note: the figure, on how many GPUs, and the log it comes from."""
    where = source or _("evidence")
    if gpus:
        return _("measured {share} on {gpus} GPUs ({source})").format(
            share=percent_text(value, 1), gpus=gpus, source=where
        )
    return _("measured {share} ({source})").format(share=percent_text(value, 1), source=where)


def _claimed(span: str, ranged: bool, gpus: int | None, source: str) -> str:
    """A claimed MFU in words: its figure (``ranged``: the low end of a range), on how many GPUs, its source."""
    if ranged and gpus:
        text = _("claimed {span} (low end of the range) on {gpus} GPUs ({source})")
    elif ranged:
        text = _("claimed {span} (low end of the range) ({source})")
    elif gpus:
        text = _("claimed {span} on {gpus} GPUs ({source})")
    else:
        text = _("claimed {span} ({source})")
    return text.format(span=span, gpus=gpus, source=source)


def _default_mfu_note(mfu: Fraction, notes: list[str]) -> str:
    note = _("default {share} of dense BF16 peak: no MFU verified").format(share=percent_text(mfu, 0))
    return clauses([note, *notes])


# The same assumption for many offers is one object (immutable): a ranking of 100,000 offers holds a few. Its
# note is made in the language in use when first read and kept: one object per language (``language``).
@functools.lru_cache(maxsize=64)
def _default_mfu(mfu: Fraction, language: str) -> Assumed:
    return Assumed(mfu, "default", lambda: _default_mfu_note(mfu, []))


@functools.lru_cache(maxsize=256)
def _sla_availability(value: Fraction, language: str) -> Assumed:
    return Assumed(
        value, "sla", lambda: _("SLA promises {share} with a credit schedule").format(share=percent_text(value, 3))
    )


@functools.lru_cache(maxsize=64)
def _default_availability(value: Fraction, language: str) -> Assumed:
    return Assumed(
        value, "default", lambda: _("no SLA on record: {share} assumed").format(share=percent_text(value, 1))
    )


def choose_availability(offer: OfferInput, assumptions: Assumptions, trust_claims: bool = False) -> Assumed:
    """The SLA's availability when credits back it; without a credit schedule it is a claim: used only when
    below the default (``trust_claims``: as promised, for the "if the claims hold" figure)."""
    if offer.availability is None:
        return _default_availability(assumptions.default_availability, current())
    value, default = q(offer.availability), assumptions.default_availability
    if offer.sla_credits:
        return _sla_availability(value, current())
    promise, share = percent_text(value, 3), percent_text(default, 1)
    if trust_claims:
        return Assumed(
            value,
            "claimed",
            _("SLA promises {share} with no credit schedule: if the promise holds").format(share=promise),
        )
    if value < default:
        return Assumed(
            value,
            "claimed",
            _("SLA promises {share} with no credit schedule; below the default {default}: used").format(
                share=promise, default=share
            ),
        )
    return Assumed(
        default,
        "default",
        _(
            "SLA promises {share} with no credit schedule: a promise without a remedy never buys rank; "
            "{default} assumed (shown as 'if the claims hold')"
        ).format(share=promise, default=share),
    )


def check_feasibility(offer: OfferInput, scenario: ScenarioInput, nodes: int) -> Feasibility:
    blocking: list[str] = []
    warnings: list[str] = []
    questions: list[str] = []
    if offer.nodes_available is not None and offer.nodes_available < nodes:
        blocking.append(
            _("only {available} nodes on offer; the scenario needs {nodes}").format(
                available=offer.nodes_available, nodes=nodes
            )
        )
    if nodes > 1 and offer.inter_fabric is InterFabric.NONE:
        blocking.append(_("{nodes} nodes without a scale-out network: one job cannot span them").format(nodes=nodes))
    elif nodes > 1 and offer.inter_fabric is InterFabric.UNKNOWN:
        questions.append(
            _("{nodes} nodes and the scale-out network is not stated: which fabric joins them?").format(nodes=nodes)
        )
    paid = nodes * offer.gpus_per_node
    if paid > scenario.gpu_count:
        warnings.append(
            _("pays for {paid} GPUs to get {gpus} ({per_node} per node)").format(
                paid=paid, gpus=scenario.gpu_count, per_node=offer.gpus_per_node
            )
        )
    if scenario.train_params is not None:
        need = q(scenario.train_params) * BYTES_PER_PARAMETER
        have = Fraction(scenario.gpu_count * offer.gpu.memory_gb) * 10**9
        if need > have:
            blocking.append(
                _(
                    "training state of {params} parameters needs {need} GB at {bytes} bytes each; "
                    "{gpus} GPUs × {memory} GB = {have} GB"
                ).format(
                    params=scenario.train_params,
                    need=grouped(need / 10**9, 0),
                    bytes=BYTES_PER_PARAMETER,
                    gpus=scenario.gpu_count,
                    memory=offer.gpu.memory_gb,
                    have=grouped(have / 10**9, 0),
                )
            )
    if scenario.gpu is not None and scenario.gpu.key != offer.gpu.key:
        warnings.append(
            _("offers {gpu}; the scenario names {wanted}").format(gpu=offer.gpu.name, wanted=scenario.gpu.name)
        )
    if blocking or warnings or questions:
        return Feasibility(tuple(blocking), tuple(warnings), tuple(questions))
    return FEASIBLE


def require_priced(offer: OfferInput) -> OfferInput:
    """``offer`` if its current price is more than zero; :class:`NotPriced` otherwise (every use of a price:
    ranking, a training run's cost, signing a contract)."""
    for option in offer.options:
        if option.amount <= 0:
            raise NotPriced(
                f"offer #{offer.id}'s current price ({option.label}) is {plain(option.amount)} {option.currency}, "
                "not more than zero: correct the round"
            )
    return offer


def ranking_scaling(mfu: Assumed, offer: OfferInput, scenario: ScenarioInput) -> Assumed:
    """The scaling the ranking applies on top of ``mfu`` for the scenario's GPUs (``scaling.job_scaling``):
    only an MFU measured across fewer nodes is extrapolated; an offer that cannot span the nodes is
    infeasible (its feasibility says so), not scaled."""
    try:
        return job_scaling(mfu, scenario.gpu_count, offer.gpus_per_node, offer.intra_fabric, offer.inter_fabric)
    except BadInput:
        return WHOLE_JOB


def _every_way(offer: OfferInput, scenario: ScenarioInput, fx: FxTable, assumptions: Assumptions) -> list[OptionCost]:
    """Each price option, then each mix of terms, costed for ``scenario``, in an order that depends on the offer
    and the months only (not on the GPUs)."""
    options = price_options(offer)
    costs = [cost_option(offer, option, scenario, fx, assumptions) for option in options]
    costs += [cost_mixed(offer, a, b, scenario, fx, assumptions) for a, b in mixed_ways(options, scenario.months)]
    return costs


def ways_to_buy(
    offer: OfferInput, scenario: ScenarioInput, fx: FxTable, assumptions: Assumptions
) -> tuple[OptionCost, ...]:
    """Every way to buy ``offer`` for ``scenario`` (each price option, and mixed terms), cheapest first: the
    first one's ``total`` is the offer's cost for the scenario wherever a cost is needed (the ranking, the award)."""
    costs = _every_way(offer, scenario, fx, assumptions)
    costs.sort(key=lambda c: cheapest_first(c.total, c.option.term_months, bool(c.segments)))
    return tuple(costs)


def ways_following(
    offer: OfferInput,
    option: PriceOption,
    scenario: ScenarioInput,
    fx: FxTable,
    assumptions: Assumptions,
    now: list[OptionCost] | None = None,
) -> list[tuple[OptionCost, Fraction]]:
    """Every way to buy ``offer`` for ``scenario`` at its current prices, each with how much its total moves per
    unit of ``option``'s price (0 for a way that does not follow it). A way's total is affine in that price (the
    part bought on it is proportional to it: ``OptionCost.following``; the rest stays), so it is the way's total
    at the price quoted plus slope × the change: the negotiation's target over every way rests on it. ``now``:
    those ways at the current prices already costed, in ``_every_way``'s order (:func:`every_way_of`)."""
    if now is None:
        now = _every_way(offer, scenario, fx, assumptions)
    current = q(option.costed_amount)
    return [(c, c.following(option) / current) for c in now]


def cost_curve(
    offer: OfferInput,
    scenario_at: Callable[[int], ScenarioInput],
    most: int,
    fx: FxTable,
    assumptions: Assumptions,
    one: Evaluation | None = None,
) -> tuple[Fraction, ...]:
    """The offer's cost at 1, 2, … ``most`` nodes: ``ways_to_buy(offer, scenario_at(n), …)[0].total`` for each n,
    exactly (``scenario_at(n)`` is the scenario of n whole nodes' GPUs).

    Between two of the offer's breakpoints (``costing.node_breakpoints``: where a volume tier starts) every way to
    buy costs an affine function of the nodes (a node's price × nodes, per-node fees × nodes, plus fees that do
    not depend on them), so each way is costed at the two ends of each stretch and the counts between follow
    exactly; the cheapest way is taken at every count. ``tests/test_award_engine.py`` checks it against
    :func:`ways_to_buy` at every count of random offers. ``one``: the offer already evaluated at one node (its
    ways are not costed again)."""
    if most <= 0:
        return ()
    cuts = sorted({1, most + 1, *(b for b in node_breakpoints(offer) if 1 < b <= most)})
    out: list[Fraction] = []
    for first, after in itertools.pairwise(cuts):
        last = after - 1
        at_first = scenario_at(first)
        if one is not None and first == 1 and one.offer is offer and one.scenario == at_first:
            low = every_way_of(one, fx, assumptions)
        else:
            low = _every_way(offer, at_first, fx, assumptions)
        if last == first:
            out.append(min(w.total for w in low))
            continue
        high = _every_way(offer, scenario_at(last), fx, assumptions)
        out += _lower_envelope([(a.total, b.total) for a, b in zip(low, high, strict=True)], last - first)
    return tuple(out)


def _over(x: Fraction, d: int) -> int:
    """``x × d`` for a common denominator ``d`` of ``x``: a whole number."""
    return x.numerator * (d // x.denominator)


def _lower_envelope(ends: list[tuple[Fraction, Fraction]], span: int) -> list[Fraction]:
    """``min(a + (b - a) / span × k for a, b in ends)`` for k = 0 … ``span``, exactly: every figure is put over one
    common denominator (``span`` × the ends' denominators), so each count compares whole numbers and only its
    least becomes a Fraction again (the same value, hence the same normalised Fraction)."""
    d = math.lcm(*(x.denominator for pair in ends for x in pair))
    lines = [(_over(a, d) * span, _over(b - a, d)) for a, b in ends]
    return [Fraction(min(start + step * k for start, step in lines), d * span) for k in range(span + 1)]


def delivered_curve(
    offer: OfferInput, scenario_at: Callable[[int], ScenarioInput], most: int, assumptions: Assumptions
) -> tuple[Fraction, ...]:
    """The delivered PFLOP-hours of 1, 2, … ``most`` nodes: ``evaluate(offer, scenario_at(n), …)
    .delivered_pflop_hours`` for each n, from the same choices (MFU, availability, the scaling to n nodes) and
    the same formula, without costing the ways to buy."""
    if most <= 0:
        return ()
    mfu = choose_mfu(offer.evidence, assumptions, offer.gpu.bf16_tflops, scenario_at(1).train_params)
    availability = choose_availability(offer, assumptions)
    out = []
    for n in range(1, most + 1):
        s = scenario_at(n)
        scaling = ranking_scaling(mfu, offer, s)
        e = Evaluation(offer, s, assumptions, n, (), mfu, availability, FEASIBLE, (), scaling)
        out.append(e.delivered_pflop_hours)
    return tuple(out)


def evaluate(offer: OfferInput, scenario: ScenarioInput, fx: FxTable, assumptions: Assumptions) -> Evaluation:
    require_priced(offer)
    mfu = choose_mfu(offer.evidence, assumptions, offer.gpu.bf16_tflops, scenario.train_params)
    nodes = nodes_needed(scenario.gpu_count, offer.gpus_per_node)
    costs = ways_to_buy(offer, scenario, fx, assumptions)
    unpriced = tuple(unpriced_costs(offer, scenario))
    unknowns = [*unpriced, *(d.shown for d in offer.discounts if d.rate is None)]
    availability = choose_availability(offer, assumptions)
    claimed = choose_mfu(offer.evidence, assumptions, offer.gpu.bf16_tflops, scenario.train_params, trust_claims=True)
    claimed_mfu = None if claimed.value == mfu.value else claimed
    promised = choose_availability(offer, assumptions, trust_claims=True)
    if availability.value <= 0 or mfu.value <= 0 or offer.gpu.bf16_tflops <= 0:
        raise DeliversNothing(
            f"it delivers no compute (availability {pct(availability.value, 1)} %, MFU {pct(mfu.value, 1)} %, "
            f"{offer.gpu.name} BF16 {plain(offer.gpu.bf16_tflops)} TFLOPS): correct its SLA or GPU"
        )
    return Evaluation(
        offer,
        scenario,
        assumptions,
        nodes,
        costs,
        mfu,
        availability,
        check_feasibility(offer, scenario, nodes),
        tuple(unknowns),
        ranking_scaling(mfu, offer, scenario),
        unpriced,
        claimed_mfu,
        None if claimed_mfu is None else ranking_scaling(claimed_mfu, offer, scenario),
        None if promised.value == availability.value else promised,
        fx,
    )


def _way(c: OptionCost) -> tuple[PriceOption, PriceOption | None]:
    """Which way to buy ``c`` is: its option, and for mixed terms the shorter option the rest is bought on."""
    return c.option, c.segments[1].option if c.segments else None


def every_way_of(this: Evaluation, fx: FxTable, assumptions: Assumptions) -> list[OptionCost]:
    """``_every_way(this.offer, this.scenario, fx, assumptions)``, in its order: the costs ``evaluate`` made
    (sorted cheapest first there) put back in that order when they were made at these very rates and
    assumptions (the same function on the same inputs: the same figures), else costed now."""
    if this.fx is fx and this.assumptions is assumptions:
        made = {_way(c): c for c in this.options}
        options = price_options(this.offer)
        ways = [(o, None) for o in options] + list(mixed_ways(options, this.scenario.months))
        if len(made) == len(this.options) == len(ways) and all(w in made for w in ways):
            return [made[w] for w in ways]
    return _every_way(this.offer, this.scenario, fx, assumptions)


def costed(this: Evaluation, option: PriceOption, fx: FxTable, assumptions: Assumptions) -> OptionCost:
    """``option`` bought alone for ``this``'s scenario: the cost ``evaluate`` made of it when it was costed at
    these very rates and assumptions, else costed now (the same function, so the same figures)."""
    if this.fx is fx and this.assumptions is assumptions:
        for c in this.options:
            if c.option is option and not c.segments:
                return c
    return cost_option(this.offer, option, this.scenario, fx, assumptions)


def unpriced_costs(offer: OfferInput, scenario: ScenarioInput) -> list[str]:
    """Costs the scenario incurs that the offer does not price: a fee charged "on request", or egress or
    storage the scenario uses when none of the offer's extras is billed on it (record one of 0 when the provider
    includes it). What an extra is billed on is its basis's (``billing.billed_usages``), never its kind: a stored
    egress fee charged per TB-month bills the storage, and leaves the egress unpriced. Each makes the offer's
    figures a lower bound."""
    out = [
        _("{extra}: amount not quoted").format(extra=x.shown)
        for x in offer.extras
        if x.amount is None and not x.refundable
    ]
    billed = billed_usages(x.basis for x in offer.extras)
    if scenario.egress_tb_month > 0 and "egress_gb" not in billed:
        out.append(
            _("egress: {tb} TB a month in the scenario, not priced by the offer").format(
                tb=plain(scenario.egress_tb_month)
            )
        )
    if scenario.storage_tb > 0 and "storage_tb" not in billed:
        out.append(_("storage: {tb} TB in the scenario, not priced by the offer").format(tb=plain(scenario.storage_tb)))
    return out


def rank_key(e: Evaluation) -> tuple[bool, bool, Fraction, Fraction, int]:
    """Confirmed offers first, then those with a question open (?), then the blocked (✗); each group by cost
    per delivered PFLOP-hour, then total cost, then id."""
    f = e.feasibility
    return (not f.ok, bool(f.questions), e.cost_per_pflop_hour, e.best.total, e.offer.id)


def rank(evaluations: list[Evaluation]) -> list[Evaluation]:
    """The ranking, by :func:`rank_key`."""
    return sorted(evaluations, key=rank_key)


def positions(ranked: list[Evaluation]) -> list[int | None]:
    """The rank each offer of a :func:`rank` ordering shows: the feasible ones 1, 2, 3…; one the scenario
    cannot run on (``feasibility.blocking``) has no rank (shown ✗, with the reason), wherever it is listed."""
    return numbered(e.feasibility.ok for e in ranked)


def numbered(feasible: Iterable[bool]) -> list[int | None]:
    """:func:`positions` from each offer's feasibility alone, in ranking order."""
    out: list[int | None] = []
    n = 0
    for ok in feasible:
        n += ok
        out.append(n if ok else None)
    return out
