"""``quotetui claims``: the claims audit."""

from __future__ import annotations

import typer

from quotetui.commands.common import JsonFlag, open_db, print_json
from quotetui.commands.output import say
from quotetui.language import _
from quotetui.language.lists import aside


def claims(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Every claimed benchmark and training time: what it implies and whether it can be true."""
    from quotetui.services.claims import audit_claims, audit_json

    audits = audit_claims(open_db(ctx))
    if as_json:  # in English: ``--json`` speaks English (``commands.common.JsonFlag``)
        print_json([audit_json(a) for a in audits])
        return
    for a in audits:
        c = a.claim
        who = " / ".join(x for x in (c.provider, c.offer) if x) or _("market-wide claim")
        # the offer's id, which `explain` takes
        on = _("offer #{id} {who}").format(id=c.offer_id, who=who) if c.offer_id is not None else who
        say(
            _("{mark} {verdict}  claim {id}: {on} — {metric}").format(
                mark=a.verdict.mark, verdict=a.verdict.word.upper(), id=c.id, on=on, metric=c.metric.word
            )
        )
        if c.quote:
            say("    " + aside(f"“{c.quote}”", c.source))
        for line in a.arithmetic:
            say(f"    {line}")
        say(f"    → {a.explanation}")


def register(app: typer.Typer) -> None:
    app.command()(claims)
