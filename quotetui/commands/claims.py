"""``quotetui claims``: the claims audit."""

from __future__ import annotations

import typer

from quotetui.commands.common import JsonFlag, open_db, print_json
from quotetui.commands.output import say


def claims(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Every claimed benchmark and training time: what it implies and whether it can be true."""
    from quotetui.services.claims import audit_claims, audit_json

    audits = audit_claims(open_db(ctx))
    if as_json:
        print_json([audit_json(a) for a in audits])
        return
    for a in audits:
        c = a.claim
        who = " / ".join(x for x in (c.provider, c.offer) if x) or "market-wide claim"
        on = f"offer #{c.offer_id} {who}" if c.offer_id is not None else who  # the id `explain` takes
        say(f"{a.verdict.mark} {a.verdict.value.upper()}  claim {c.id}: {on} — {c.metric.value}")
        if c.quote:
            say(f"    “{c.quote}” ({c.source})")
        for line in a.arithmetic:
            say(f"    {line}")
        say(f"    → {a.explanation}")


def register(app: typer.Typer) -> None:
    app.command()(claims)
