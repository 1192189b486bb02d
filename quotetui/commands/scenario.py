"""``quotetui scenario add|list|show|default``: the workloads every comparison is made for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import JsonFlag, open_db, print_json, table

if TYPE_CHECKING:
    from quotetui.services.scenarios import ScenarioView

app = typer.Typer(help="Workload scenarios: every comparison is made for one.", no_args_is_help=True)


def _describe(view: ScenarioView) -> list[str]:
    j = view.to_json()
    run = ""
    if j["train_flops"] or j["train_params"]:
        run = f"training run {j['train_flops'] or ''}{' FLOPs' if j['train_flops'] else ''}"
        if j["train_params"]:
            run += f" ({j['train_params']} parameters)"
    return [
        view.name + (" (default)" if view.is_default else ""),
        f"{view.gpu_count} × {view.gpu or 'any GPU'}",
        f"{view.months} months",
        f"{j['utilization']}",
        f"{j['egress_tb_month']} TB/mo, {j['storage_tb']} TB",
        view.home_currency,
        run,
    ]


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List scenarios."""
    from quotetui.services.scenarios import list_scenarios

    items = list_scenarios(open_db(ctx))
    if as_json:
        print_json([s.to_json() for s in items])
        return
    table(["scenario", "GPUs", "term", "use", "egress, storage", "currency", "training"], [_describe(s) for s in items])


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
        if value is not None:
            typer.echo(f"{key}: {value}")


@app.command()
def add(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A name for the scenario.")],
    gpus: Annotated[int, typer.Option("--gpus", help="GPUs needed.")],
    months: Annotated[int, typer.Option("--months", help="How long they are needed.")],
    utilisation: Annotated[str, typer.Option("--utilization", help="Share of hours in use, 0 < u ≤ 1.")] = "1",
    egress_tb: Annotated[str, typer.Option("--egress-tb", help="Egress TB a month.")] = "0",
    storage_tb: Annotated[str, typer.Option("--storage-tb", help="Storage TB.")] = "0",
    gpu: Annotated[str | None, typer.Option("--gpu", metavar="MODEL", help="GPU model class wanted.")] = None,
    flops: Annotated[str | None, typer.Option("--flops", help="Training run FLOPs, e.g. 3.14e23.")] = None,
    params: Annotated[str | None, typer.Option("--params", help="Training run parameters.")] = None,
    tokens: Annotated[str | None, typer.Option("--tokens", help="Training run tokens.")] = None,
    currency: Annotated[str, typer.Option("--currency", help="Currency to compare in.")] = "CNY",
    description: Annotated[str | None, typer.Option("--description")] = None,
    default: Annotated[bool, typer.Option("--default", help="Make it the default scenario.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Add a scenario (nothing is saved if any value is invalid)."""
    from quotetui.services.scenarios import NewScenario, add_scenario

    view = add_scenario(
        open_db(ctx),
        NewScenario(
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
        ),
    )
    if as_json:
        print_json(view.to_json())
    else:
        typer.echo(f"Added scenario {view.name!r}{' (now the default)' if view.is_default else ''}.")


@app.command("default")
def make_default(
    ctx: typer.Context, name: Annotated[str, typer.Argument(help="Scenario to make the default.")]
) -> None:
    """Make a scenario the default one."""
    from quotetui.services.scenarios import set_default_scenario

    view = set_default_scenario(open_db(ctx), name)
    typer.echo(f"{view.name!r} is now the default scenario.")
