"""``quotetui scenario add|list|show|default``: the workloads every comparison is made for."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import JsonFlag, flag, flag_errors, open_db, parsed, print_json, table
from quotetui.commands.output import percent, say
from quotetui.domain.entities import SCENARIO
from quotetui.domain.errors import FieldErrors
from quotetui.domain.money import PERCENT_PLACES
from quotetui.language import N_, _, ngettext, pgettext
from quotetui.language.lists import quoted

if TYPE_CHECKING:
    from quotetui.services.scenarios import ScenarioView

app = typer.Typer(help="Workload scenarios: every comparison is made for one.", no_args_is_help=True)


def _describe(view: ScenarioView) -> list[str]:
    j = view.to_json()
    flops, params = j["train_flops"], j["train_params"]
    parameters = f"{Decimal(params):,}" if params else ""
    if flops and params:
        run = _("training run {flops} FLOPs ({parameters} parameters)").format(flops=flops, parameters=parameters)
    elif flops:
        run = _("training run {flops} FLOPs").format(flops=flops)
    elif params:
        run = _("training run  ({parameters} parameters)").format(parameters=parameters)
    else:
        run = ""
    return [
        _("{name} (default)").format(name=view.name) if view.is_default else view.name,
        f"{view.gpu_count} × {view.gpu or _('any GPU')}",
        ngettext("{count} month", "{count} months", view.months).format(count=f"{view.months:,}"),
        percent(Decimal(j["utilization"]), PERCENT_PLACES),
        _("{egress} TB/mo, {storage} TB").format(egress=j["egress_tb_month"], storage=j["storage_tb"]),
        view.home_currency,
        run,
    ]


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List scenarios."""
    from quotetui.services.scenario_list import list_scenarios

    items = list_scenarios(open_db(ctx))
    if as_json:
        print_json([s.to_json() for s in items])
        return
    table(
        [N_("scenario"), N_("GPUs"), N_("term"), N_("use"), N_("egress, storage"), N_("currency"), N_("training")],
        [_describe(s) for s in items],
    )


@app.command()
def show(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="Scenario name (default: the default one).")] = None,
    as_json: JsonFlag = False,
) -> None:
    """Show one scenario."""
    from quotetui.services.scenarios import show_scenario

    view = show_scenario(open_db(ctx), name)
    if as_json:
        print_json(view.to_json())
        return
    for key, value in view.to_json().items():
        if key == "utilization":  # a share, shown as a percentage (JSON keeps 0.6)
            value = percent(Decimal(value), PERCENT_PLACES)  # every digit typed
        if value is not None:
            shown = _("yes") if value is True else _("no") if value is False else value
            field = SCENARIO.field(SHOWN_FIELDS.get(key, key))
            if field.kind == "decimal" and field.unit:  # a quantity with its unit: "1 TB" (a count's title says it)
                shown = f"{shown} {pgettext('unit', field.unit)}"
            say(_("{setting}: {value}").format(setting=field.title, value=shown))  # the title, not the JSON key


SHOWN_FIELDS = {"gpu_model": "gpu", "utilization": "utilisation", "currency": "home_currency"}
"""The field each of ``scenario show --json``'s keys holds, where it is named otherwise (the title names it)."""
S = SCENARIO.field
FLAGS = {
    "gpu_count": "--gpus",
    "months": "--months",
    "utilisation": "--utilization",
    "egress_tb_month": "--egress-tb",
    "storage_tb": "--storage-tb",
    "gpu": "--gpu",
    "train_flops": "--flops",
    "train_params": "--params",
    "train_tokens": "--tokens",
    "home_currency": "--currency",
    "description": "--description",
    "name": "NAME",
}


@app.command()
def add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A name for the scenario.", parser=parsed(S("name")), metavar="NAME")],
    gpus: Annotated[int, flag(S("gpu_count"), "--gpus", help="GPUs needed.")],
    months: Annotated[int, flag(S("months"), "--months", help="How long they are needed.")],
    utilisation: Annotated[
        Decimal, flag(S("utilisation"), "--utilization", help="Share of hours in use, a percentage: 60 or 60%.")
    ] = Decimal(1),
    egress_tb: Annotated[Decimal, flag(S("egress_tb_month"), "--egress-tb", help="Egress TB a month.")] = Decimal(0),
    storage_tb: Annotated[Decimal, flag(S("storage_tb"), "--storage-tb", help="Storage TB.")] = Decimal(0),
    gpu: Annotated[str | None, typer.Option("--gpu", metavar="MODEL", help="GPU model class wanted.")] = None,
    flops: Annotated[
        Decimal | None, flag(S("train_flops"), "--flops", help="Training run FLOPs, e.g. 3.14e23.")
    ] = None,
    params: Annotated[Decimal | None, flag(S("train_params"), "--params", help="Training run parameters.")] = None,
    tokens: Annotated[Decimal | None, flag(S("train_tokens"), "--tokens", help="Training run tokens.")] = None,
    currency: Annotated[str, flag(S("home_currency"), "--currency", help="Currency to compare in.")] = "CNY",
    description: Annotated[str | None, flag(S("description"), "--description")] = None,
    default: Annotated[bool, typer.Option("--default", help="Make it the default scenario.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Add a scenario (nothing is saved if any value is invalid)."""
    from quotetui.services.scenarios import NewScenario, add_scenario

    new = NewScenario(
        name,
        gpus,
        months,
        utilisation,
        egress_tb,
        storage_tb,
        gpu,
        flops,
        params,
        tokens,
        currency,
        description,
        default,
    )
    try:
        view = add_scenario(open_db(ctx), new)
    except FieldErrors as exc:
        raise flag_errors(exc, FLAGS) from None
    if as_json:
        print_json(view.to_json())
    else:
        if view.is_default:
            say(_("Added scenario {name} (now the default).").format(name=quoted(view.name)))
        else:
            say(_("Added scenario {name}.").format(name=quoted(view.name)))


@app.command("default")
def make_default(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="Scenario to make the default.")]
) -> None:
    """Make a scenario the default one."""
    from quotetui.services.scenarios import set_default_scenario

    view = set_default_scenario(open_db(ctx), name)
    say(_("{name} is now the default scenario.").format(name=quoted(view.name)))
