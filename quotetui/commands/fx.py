"""``quotetui fx add|list``: dated exchange rates."""

from __future__ import annotations

from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, flag_errors, open_db, print_json, table
from quotetui.commands.output import say
from quotetui.language import N_, _
from quotetui.language.dates import day_text

app = typer.Typer(help="Dated exchange rates used for conversions (never a silent 1.0).", no_args_is_help=True)


@app.command()
def add(
    ctx: typer.Context,
    base: Annotated[str, typer.Argument(help="Currency converted from, e.g. USD.")],
    quote: Annotated[str, typer.Argument(help="Currency converted to, e.g. CNY.")],
    rate: Annotated[str, typer.Argument(help="1 BASE = RATE QUOTE.")],
    on: Annotated[str, typer.Option("--date", metavar="DATE", help="Date of the rate, YYYY-MM-DD.")],
    source: Annotated[str, typer.Option("--source", help="Where the rate comes from.")],
) -> None:
    """Record a dated rate (the same pair on the same day is replaced)."""
    from quotetui.domain.errors import FieldErrors
    from quotetui.domain.fx import RATE_ON
    from quotetui.domain.money import plain
    from quotetui.services.fx import add_rate

    try:
        view = add_rate(open_db(ctx), base, quote, rate, on, source)
    except FieldErrors as exc:
        flags = {"base": "BASE", "quote": "QUOTE", "rate": "RATE", "as_of": "--date", "source": "--source"}
        raise flag_errors(exc, flags) from None
    say(
        _(RATE_ON).format(
            base=view.base, rate=plain(view.rate), quote=view.quote, day=day_text(view.as_of), source=view.source
        )
    )


@app.command("list")
def list_(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """List the recorded rates."""
    from quotetui.domain.money import plain
    from quotetui.services.fx_rates import list_rates

    rates = list_rates(open_db(ctx))
    if as_json:
        print_json([r.to_json() for r in rates])
        return
    if not rates:
        say(_("No exchange rates yet: `quotetui fx add USD CNY 7.1 --date YYYY-MM-DD`."))
        return
    table(
        [N_("base"), N_("quote"), N_("rate"), N_("date"), N_("source")],
        [[r.base, r.quote, plain(r.rate), r.as_of.isoformat(), r.source] for r in rates],
        right=frozenset({"rate"}),
    )
