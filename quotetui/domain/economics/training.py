"""The training-run planner: wall time from FLOPs, and its cost under each offer's billing granularity.

wall time = FLOPs ÷ (GPUs × peak dense BF16 × MFU × scaling efficiency); FLOPs are given or 6 × parameters
× tokens. Billing follows each way to buy's rule (``billing.Billing.run``): hourly (on demand) bills ⌈hours⌉; monthly
plans bill whole months, or whole days where the provider bills part months pro rata; longer terms bill whole
terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.assumptions import SECONDS_PER_DAY, Assumed, Assumptions
from quotetui.domain.economics.billing import cheapest_first
from quotetui.domain.economics.costing import effective_node_month, nodes_needed, price_options, quote_day
from quotetui.domain.economics.display import grouped
from quotetui.domain.economics.exact import ceil, dec, percent_text, q, sci
from quotetui.domain.economics.inputs import OfferInput, PriceOption, ScenarioInput
from quotetui.domain.errors import BadInput, noun
from quotetui.domain.fx import FxQuote, FxTable
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.money import plain
from quotetui.language import N_, _


def training_flops(flops: Fraction | None, params: Fraction | None, tokens: Fraction | None) -> tuple[Fraction, str]:
    if flops is not None:
        if flops <= 0:
            raise BadInput(_("the FLOPs must be more than zero"))
        return flops, _("given")
    if params is None or tokens is None:
        raise BadInput(_("give the FLOPs, or both the parameters and the tokens"))
    if params <= 0 or tokens <= 0:
        raise BadInput(_("the parameters and the tokens must be more than zero"))
    return 6 * params * tokens, _("6 × {params} parameters × {tokens} tokens").format(
        params=grouped(params, 0), tokens=grouped(tokens, 0)
    )


def check_fraction(value: Fraction, what: str) -> Fraction:
    """``value`` if it is a share above 0 and at most 1; ``what``: its name, marked ``N_`` by the caller."""
    if not 0 < value <= 1:
        raise BadInput(
            _("{what} must be more than 0 and at most 1, not {value}").format(
                what=noun(what), value=plain(dec(value, 6))
            )
        )
    return value


@dataclass(frozen=True, slots=True)
class TrainingPlan:
    flops: Fraction
    flops_source: str
    gpus: int
    gpu: GpuSpec
    mfu: Assumed
    scaling: Assumed

    @property
    def sustained_flops(self) -> Fraction:
        """FLOP/s the job sustains: GPUs × peak × MFU × scaling."""
        return self.gpus * q(self.gpu.bf16_tflops) * 10**12 * self.mfu.value * self.scaling.value

    @property
    def seconds(self) -> Fraction:
        return self.flops / self.sustained_flops

    @property
    def wall_hours(self) -> Fraction:
        return self.seconds / 3600

    @property
    def wall_days(self) -> Fraction:
        return self.seconds / SECONDS_PER_DAY

    @property
    def gpu_hours(self) -> Fraction:
        return self.gpus * self.wall_hours

    def arithmetic(self) -> str:
        return _(
            "{flops} FLOPs ÷ ({gpus} × {peak} TFLOPS × {mfu} MFU × {scaling} scaling) = {seconds} s = {days} days"
        ).format(
            flops=sci(self.flops),
            gpus=self.gpus,
            peak=self.gpu.bf16_tflops,
            mfu=percent_text(self.mfu.value, 1),
            scaling=percent_text(self.scaling.value, 1),
            seconds=grouped(self.seconds, 0),
            days=grouped(self.wall_days, 1),
        )


def plan_training(
    flops: Fraction, flops_source: str, gpus: int, gpu: GpuSpec, mfu: Assumed, scaling: Assumed
) -> TrainingPlan:
    if gpus < 1:
        raise BadInput(_("the GPUs must be at least 1, not {gpus}").format(gpus=gpus))
    check_fraction(mfu.value, N_("MFU"))
    check_fraction(scaling.value, N_("scaling efficiency"))
    return TrainingPlan(flops, flops_source, gpus, gpu, mfu, scaling)


def implied_mfu(flops: Fraction, gpus: int, gpu: GpuSpec, days: Fraction, scaling: Fraction = Fraction(1)) -> Fraction:
    """The MFU a claimed duration needs: FLOPs ÷ (GPUs × peak × scaling × seconds)."""
    if days <= 0:
        raise BadInput(_("a claimed duration must be more than zero days"))
    return flops / (gpus * q(gpu.bf16_tflops) * 10**12 * scaling * days * SECONDS_PER_DAY)


@dataclass(frozen=True, slots=True)
class RunCost:
    option: PriceOption
    nodes: int
    billed: str  # e.g. "5,497 hours", "8 months", "230 days"
    total: Fraction  # in ``currency``
    currency: str
    fx: FxQuote | None


def cost_run(
    plan: TrainingPlan, offer: OfferInput, fx: FxTable, currency: str, assumptions: Assumptions
) -> list[RunCost]:
    """The run's compute cost under each of the offer's options, cheapest first."""
    hpm = assumptions.hours_per_month
    nodes = nodes_needed(plan.gpus, offer.gpus_per_node)
    months = max(ceil(plan.wall_hours / hpm), 1)
    scenario = ScenarioInput("training run", plan.gpus, months, Decimal(1), currency)
    costs = []
    for option in price_options(offer):
        *_parts, node_month = effective_node_month(offer, option, scenario, assumptions)
        node_months, billed = option.billing.run(plan.wall_hours, hpm, offer.prorata_days)
        amount = nodes * node_month * node_months
        converted, quote = fx.convert(amount, option.currency, currency, quote_day(offer, assumptions))
        costs.append(RunCost(option, nodes, billed, converted, currency, quote))
    costs.sort(key=lambda c: cheapest_first(c.total, c.option.term_months))
    return costs
