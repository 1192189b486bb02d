"""``quotetui settings [show|set]``: the assumptions every figure rests on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import JsonFlag, flag_errors, open_db, print_json, table
from quotetui.commands.output import say
from quotetui.language import N_, _

if TYPE_CHECKING:
    from quotetui.services.settings import SettingView

app = typer.Typer(
    help="The assumptions every figure rests on (hours a month, default MFU and availability, time zone, "
    "discount rate, VAT).",
    invoke_without_command=True,
)
FLAGS = {
    "hours_per_month": "--hours-per-month",
    "default_mfu": "--default-mfu",
    "default_availability": "--default-availability",
    "time_zone": "--time-zone",
    "discount_rate": "--discount-rate",
    "resale_curve": "--resale-curve",
    "net_of_vat": "--net-of-vat",
}


def _shown(v: SettingView) -> str:
    """A setting for people: a share as a percentage (``40 %``, not ``0.4``), yes or no in words; JSON keeps the
    value's text."""
    from decimal import Decimal

    from quotetui.commands.output import percent
    from quotetui.domain.entities import SETTINGS
    from quotetui.domain.money import PERCENT_PLACES

    kind = SETTINGS.field(v.name).kind
    if kind == "bool" and v.value in _YES_NO:  # yes or no, in words
        return _(_YES_NO[v.value])
    return percent(Decimal(v.value), PERCENT_PLACES) if kind == "ratio" and v.value else v.value


_YES_NO = {"yes": N_("yes"), "no": N_("no")}


@app.callback()
def show(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Show each assumption, and whether it is the default."""
    if ctx.invoked_subcommand is not None:
        return
    from quotetui.services.settings import list_settings

    views = list_settings(open_db(ctx))
    if as_json:
        print_json(
            {
                v.name: {"value": v.value, "default": v.is_default} | ({"unreadable": v.problem} if v.problem else {})
                for v in views
            }
        )
        return
    table(
        [N_("setting"), N_("value"), N_("state"), N_("flag")],
        [[_(v.label), _shown(v), _(_STATE[_state(v)]), FLAGS[v.name]] for v in views],
    )
    for v in views:
        if v.problem:
            say(
                _(
                    "! {setting} as stored cannot be used here ({problem}): the default is shown; set it again "
                    "(`quotetui settings set {flag} VALUE`)"
                ).format(setting=_(v.label), problem=v.problem, flag=FLAGS[v.name]),
                err=True,
            )
    say(_("`quotetui settings set --FLAG VALUE` changes one (an empty value puts the default back)."))


_STATE = {"unreadable": N_("unreadable"), "default": N_("default"), "set": N_("set")}
"""A setting's state in the table, in words."""


def _state(v: SettingView) -> str:
    return "unreadable" if v.problem else "default" if v.is_default else "set"


@app.command("set")
def set_(
    ctx: typer.Context,
    hours_per_month: Annotated[
        str | None, typer.Option("--hours-per-month", metavar="N", help="672–744 (default 730).")
    ] = None,
    default_mfu: Annotated[str | None, typer.Option("--default-mfu", metavar="PERCENT", help="e.g. 40 or 40%.")] = None,
    default_availability: Annotated[
        str | None, typer.Option("--default-availability", metavar="PERCENT", help="e.g. 99 or 99%.")
    ] = None,
    time_zone: Annotated[
        str | None, typer.Option("--time-zone", metavar="ZONE", help="e.g. Asia/Shanghai (default: the system's zone).")
    ] = None,
    discount_rate: Annotated[
        str | None,
        typer.Option("--discount-rate", metavar="PERCENT", help="A year, for present values: 8 or 8% (default 0)."),
    ] = None,
    net_of_vat: Annotated[
        str | None,
        typer.Option(
            "--net-of-vat", metavar="yes|no", help="yes: cost 专票 offers without the VAT recovered (default no)."
        ),
    ] = None,
    resale_curve: Annotated[
        str | None,
        typer.Option(
            "--resale-curve",
            metavar="MONTHS:PERCENT,…",
            help="What owned servers resell for by age, e.g. 12:60, 24:40, 36:25 (rent vs buy's residual).",
        ),
    ] = None,
) -> None:
    """Change assumptions; every figure, `explain` and the export use them from now on."""
    from quotetui.domain.errors import FieldErrors
    from quotetui.services.settings import list_settings, save_settings

    raw = {
        "hours_per_month": hours_per_month,
        "default_mfu": default_mfu,
        "default_availability": default_availability,
        "time_zone": time_zone,
        "discount_rate": discount_rate,
        "net_of_vat": net_of_vat,
        "resale_curve": resale_curve,
    }
    if all(v is None for v in raw.values()):
        raise typer.BadParameter(_("name at least one setting to change (see `quotetui settings set --help`)"))
    db = open_db(ctx)
    try:
        save_settings(db, raw)
    except FieldErrors as exc:
        raise flag_errors(exc, FLAGS) from None
    for v in list_settings(db):
        if raw[v.name] is not None:
            shown = _("{setting}: {value} (default)") if v.is_default else _("{setting}: {value}")
            say(shown.format(setting=_(v.label), value=_shown(v)))
