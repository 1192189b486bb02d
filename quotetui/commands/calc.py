"""``quotetui calc train|rent-vs-buy|term``: the calculators, for scripts."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

import typer

from quotetui.commands.common import JsonFlag, ScenarioOpt, flag, flagged, lines, open_db, print_json
from quotetui.commands.output import say
from quotetui.domain.economics.exact import percent_text
from quotetui.domain.entities import ID, RENT_BUY, TRAIN
from quotetui.domain.enums import PowerBasis
from quotetui.language import _, ngettext
from quotetui.language.lists import filled

app = typer.Typer(help="Calculators: training run, rent vs buy, term choice.", no_args_is_help=True)
Amount = Annotated[str | None, typer.Option(metavar="AMOUNT")]
TRAIN_FLAGS = {
    "gpus": "--gpus",
    "flops": "--flops",
    "params": "--params",
    "tokens": "--tokens",
    "mfu": "--mfu",
    "scaling": "--scaling",
    "claimed_days": "--claimed-days",
}
RENT_BUY_FLAGS = {
    "capex": "--capex",
    "capex_vat_rate": "--capex-vat-rate",
    "capex_special_invoice": "--capex-special-invoice",
    "opex_monthly": "--opex-monthly",
    "colocation_monthly": "--colocation-monthly",
    "power_kw": "--power-kw",
    "pue": "--pue",
    "tariff_per_kwh": "--tariff",
    "power_monthly": "--power-monthly",
    "power_basis": "--power-basis",
    "staff_monthly": "--staff-monthly",
    "spares_share_year": "--spares",
    "idle_share": "--idle-share",
    "depreciation_years": "--depreciation-years",
    "rent_monthly": "--rent-monthly",
    "utilisation": "--utilization",
    "residual": "--residual",
    "discount_rate": "--discount-rate",
    "horizon_months": "--horizon-months",
    "gpus": "--gpus",
}
RENT_BUY_NAMES = RENT_BUY_FLAGS | {
    "rent_monthly": "--rent-monthly AMOUNT",
    "offer": "--offer ID",
    "purchase": "--purchase",
    "currency": "--currency",
}
"""How the service's messages name the inputs here: by their flags."""


@app.command()
def train(
    ctx: typer.Context,
    gpus: Annotated[int, flag(TRAIN.field("gpus"), "--gpus", help="GPUs in the run.")],
    flops: Annotated[str | None, typer.Option("--flops", metavar="NUMBER", help="Total FLOPs, e.g. 3.14e23.")] = None,
    params: Annotated[
        str | None, typer.Option("--params", metavar="NUMBER", help="Parameters (with --tokens: 6 × N × D FLOPs).")
    ] = None,
    tokens: Annotated[str | None, typer.Option("--tokens", metavar="NUMBER", help="Training tokens.")] = None,
    gpu: Annotated[
        str | None, typer.Option("--gpu", metavar="MODEL", help="GPU model (or take it from --offer).")
    ] = None,
    mfu: Annotated[
        str | None, typer.Option("--mfu", metavar="PERCENT", help="MFU, e.g. 40 or 40% (default: evidence, else 40 %).")
    ] = None,
    scaling: Annotated[
        str | None,
        typer.Option("--scaling", metavar="PERCENT", help="Scaling efficiency, e.g. 90 (default: by fabric)."),
    ] = None,
    offer: Annotated[int | None, flag(ID, "--offer", metavar="ID", help="Cost the run under this offer.")] = None,
    claimed_days: Annotated[str | None, typer.Option("--claimed-days", help="A claimed duration to audit.")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Wall time, GPU-hours and cost of a training run; the MFU a claimed duration implies."""
    from quotetui.domain.economics.caveats import money_figure
    from quotetui.domain.economics.display import grouped
    from quotetui.services.calc import calc_train

    with flagged(TRAIN_FLAGS):
        r = calc_train(
            open_db(ctx),
            gpus=gpus,
            flops=flops,
            params=params,
            tokens=tokens,
            gpu=gpu,
            mfu=mfu,
            scaling=scaling,
            offer_id=offer,
            claimed_days=claimed_days,
        )
    if as_json:
        print_json(r.to_json())
        return
    p = r.plan
    say(
        _("wall time: {days} days ({hours} hours); {gpu_hours} GPU-hours").format(
            days=grouped(p.wall_days, 1), hours=grouped(p.wall_hours, 1), gpu_hours=grouped(p.gpu_hours, 0)
        )
    )
    say(f"  {p.arithmetic()}")
    say(
        "  "
        + _("FLOPs: {flops}; MFU: {mfu}; scaling: {scaling}").format(
            flops=p.flops_source, mfu=p.mfu.note, scaling=p.scaling.note
        )
    )
    if r.costs:
        lines(
            _("cost under {offer}, cheapest first:").format(offer=r.offer),
            [
                ngettext("{way}: {cost} ({n} node × {billed})", "{way}: {cost} ({n} nodes × {billed})", c.nodes).format(
                    way=c.option.shown,
                    cost=money_figure(c.total, r.cost_caveats(c), c.currency),
                    n=f"{c.nodes:,}",
                    billed=c.billed,
                )
                for c in r.costs
            ],
        )
        if r.caveats:
            lines(_("What qualifies these costs"), r.caveats.words())
    implied = r.implied_mfu
    if implied is not None and r.verdict is not None:
        say(
            _("claimed {days} days implies {mfu} MFU: {verdict}").format(
                days=r.claimed_days, mfu=percent_text(implied, 1), verdict=r.verdict.word
            )
        )


def _rb(name: str, help: str) -> Any:
    """A rent-vs-buy flag, checked by its declared field before anything opens."""
    return flag(RENT_BUY.field(name), RENT_BUY_FLAGS[name], help=help)


@app.command("rent-vs-buy")
def rent_vs_buy(
    ctx: typer.Context,
    capex: Annotated[Decimal | None, _rb("capex", "Purchase cost (servers, network, installation).")] = None,
    capex_vat_rate: Annotated[
        Decimal | None, _rb("capex_vat_rate", "The VAT the capex includes, e.g. 13 (servers and equipment).")
    ] = None,
    capex_special_invoice: Annotated[
        str | None,
        typer.Option(
            "--capex-special-invoice",
            metavar="yes|no",
            help="yes: the seller issues a 专票; with costs net of VAT (setting) the capex VAT is recovered.",
        ),
    ] = None,
    opex_monthly: Annotated[
        Decimal | None, _rb("opex_monthly", "Owning costs a month as one total (else: the parts).")
    ] = None,
    colocation_monthly: Annotated[Decimal | None, _rb("colocation_monthly", "Rack space a month.")] = None,
    power_kw: Annotated[
        Decimal | None, _rb("power_kw", "All servers' draw at full load (default: 1.82 × the GPUs' TDP).")
    ] = None,
    pue: Annotated[Decimal | None, _rb("pue", "The data centre's PUE (default 1.56).")] = None,
    tariff_per_kwh: Annotated[
        Decimal | None, _rb("tariff_per_kwh", "Electricity per kWh (default ¥0.80 or $0.08).")
    ] = None,
    power_monthly: Annotated[
        Decimal | None, _rb("power_monthly", "Power a month as quoted (instead of kW × tariff).")
    ] = None,
    power_basis: Annotated[
        PowerBasis | None,
        _rb("power_basis", "What --power-monthly covers: {PowerBasis}; default servers (PUE is added)."),
    ] = None,
    staff_monthly: Annotated[Decimal | None, _rb("staff_monthly", "Operations staff a month.")] = None,
    spares_share_year: Annotated[
        Decimal | None, _rb("spares_share_year", "Spares and RMA a year, share of capex (default 5%).")
    ] = None,
    idle_share: Annotated[
        Decimal | None,
        _rb("idle_share", "The servers' idle draw, share of full load: power follows use (default: full load)."),
    ] = None,
    purchase: Annotated[
        str | None, typer.Option("--purchase", metavar="NAME|ID", help="Start from a recorded purchase option.")
    ] = None,
    rent_monthly: Annotated[Decimal | None, _rb("rent_monthly", "Rent for a month of full use.")] = None,
    offer: Annotated[int | None, flag(ID, "--offer", metavar="ID", help="Take the rent from this offer.")] = None,
    scenario: ScenarioOpt = None,
    residual: Annotated[
        Decimal | None, _rb("residual", "Resale value at the horizon (default: the resale curve's share of the capex).")
    ] = None,
    depreciation_years: Annotated[
        int | None,
        _rb(
            "depreciation_years",
            "Useful life: the residual is then the straight-line book value (default: the resale curve).",
        ),
    ] = None,
    discount_rate: Annotated[
        Decimal | None, _rb("discount_rate", "Annual rate for the NPV, e.g. 8% (default: the setting).")
    ] = None,
    horizon_months: Annotated[int | None, _rb("horizon_months", "Months compared (default 36).")] = None,
    utilisation: Annotated[Decimal | None, _rb("utilisation", "Share of hours in use.")] = None,
    currency: Annotated[
        str | None,
        typer.Option(
            "--currency",
            metavar="CODE",
            help="Currency of the typed amounts (default: the scenario's with --offer, the purchase option's "
            "with --purchase, else CNY).",
        ),
    ] = None,
    gpus: Annotated[
        int | None, _rb("gpus", "GPUs the capex buys, rented from --offer alike (default: one node).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Break-even month and utilisation, NPV of renting and of owning (part by part), and the cumulative-cost
    series."""
    from quotetui.domain.currency import currency_code
    from quotetui.domain.economics.rentbuy import breakeven_words, utilisation_words
    from quotetui.services.rent_buy import calc_rent_vs_buy, rent_buy_json

    typed = {name: value for name, value in locals().items() if name in RENT_BUY_FLAGS}
    db = open_db(ctx)  # the settings (hours a month, discount rate) and any offer or purchase option
    with flagged(RENT_BUY_FLAGS):
        a = calc_rent_vs_buy(
            db,
            typed,
            offer_id=offer,
            scenario=scenario,
            currency=currency_code(currency) if currency is not None else None,
            purchase=purchase,
            names=RENT_BUY_NAMES,
        )
    if as_json:
        print_json(rent_buy_json(a))
        return
    r = a.result
    cur = r.inputs.currency
    for note in a.notes:
        say(note)
    say(breakeven_words(r))
    say(utilisation_words(r))
    say(a.npv_words)


@app.command()
def term(
    ctx: typer.Context,
    monthly: Amount = None,
    quarterly: Amount = None,
    half_year: Amount = None,
    annual: Amount = None,
    two_year: Amount = None,
    three_year: Amount = None,
    currency: Annotated[str | None, typer.Option("--currency", metavar="CODE", help="ISO code of the amounts.")] = None,
    discount_rate: Annotated[
        str | None,
        typer.Option(
            "--discount-rate",
            metavar="RATE",
            help="Annual rate for the present-value saving, e.g. 8% (default: the setting).",
        ),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Compare term options; each amount is what ONE term costs (a month, a quarter, a year …)."""
    from quotetui.domain.currency import currency_code
    from quotetui.domain.economics.display import money_number
    from quotetui.domain.economics.inputs import term_words
    from quotetui.services.calc import TERM_FLAGS, calc_term, term_json
    from quotetui.services.settings import assumptions_of

    assumptions = assumptions_of(open_db(ctx)) if discount_rate is None else None
    with flagged({name: f"--{name.replace('_', '-')}" for name in TERM_FLAGS} | {"discount_rate": "--discount-rate"}):
        t = calc_term(
            {
                "monthly": monthly,
                "quarterly": quarterly,
                "half_year": half_year,
                "annual": annual,
                "two_year": two_year,
                "three_year": three_year,
            },
            discount_rate,
            assumptions,
        )
    if as_json:
        print_json(term_json(t, currency_code(currency) if currency else None))
        return
    code = f" {currency_code(currency)}" if currency else ""  # the amounts' currency, when it was given
    for o in t.options:
        say(
            _("{term}: {price} a term = {per_month} a month = {per_year} a year").format(
                term=term_words(o.months),
                price=f"{money_number(o.price, 2)}{code}",
                per_month=f"{money_number(o.per_month, 2)}{code}",
                per_year=f"{money_number(o.per_year, 2)}{code}",
            )
        )
    say(
        filled(
            _("cheapest: {term}, saving {saving} a year against {baseline}"),
            term=term_words(t.cheapest.months),
            saving=percent_text(t.saving, 2),
            baseline=term_words(t.baseline.months),
        )
    )
    if t.discount_rate:
        say(
            _(
                "in present value at {rate} a year, each term paid at its start over {months} months: saving {saving}"
            ).format(rate=percent_text(t.discount_rate, 2), months=t.horizon, saving=percent_text(t.pv_saving, 2))
        )
