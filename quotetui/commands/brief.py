"""``quotetui brief OFFER_ID | --provider NAME``: the negotiation brief, in Markdown to paste (or as data)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quotetui.commands.common import ForceFlag, JsonFlag, ScenarioOpt, open_db, parsed
from quotetui.commands.output import json_text, say
from quotetui.domain.entities import ID
from quotetui.language import _, ngettext


def register(app: typer.Typer) -> None:
    app.command("brief")(brief)


def brief(
    ctx: typer.Context,
    offer_id: Annotated[
        int | None,
        typer.Argument(parser=parsed(ID), metavar="OFFER_ID", help="The offer's id (see `quotetui offers`)."),
    ] = None,
    provider: Annotated[
        str | None, typer.Option("--provider", metavar="NAME", help="Every open offer of this provider instead.")
    ] = None,
    scenario: ScenarioOpt = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="FILE", help="Write the brief to this file (FILE.xlsx: as a workbook sheet)."),
    ] = None,
    force: ForceFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """What to take into a negotiation: their offer, our BATNA and targets, concessions, the market median,
    unknown costs, claims and findings to push on, SLA gaps (bilingual Markdown)."""
    from quotetui.domain.errors import BadInput
    from quotetui.services.brief import brief_json, markdown, md, offer_brief, provider_briefs
    from quotetui.system.atomic import check_target, replacing

    if (offer_id is None) == (provider is None):
        raise BadInput(_("give an offer id or --provider NAME (one of them)"))
    target = None if out is None else check_target(out, force=force)
    db = open_db(ctx)
    if provider is not None:
        briefs = provider_briefs(db, provider, scenario)
        title = md(briefs[0].negotiation.evaluation.offer.provider)
    else:
        assert offer_id is not None
        briefs, title = [offer_brief(db, offer_id, scenario)], None
    if as_json:
        scenario_name = briefs[0].negotiation.evaluation.scenario.name
        text = json_text({"scenario": scenario_name, "provider": provider, "briefs": [brief_json(b) for b in briefs]})
        text += "\n"
    else:
        text = markdown(briefs, title)
    if target is None:
        say(text.rstrip("\n"))
        return
    if target.suffix.lower() == ".xlsx" and not as_json:  # the brief as a workbook sheet
        from quotetui.services.rfq_sheets import write_brief_workbook

        write_brief_workbook(target, text)
    else:
        with replacing(target) as tmp:
            tmp.write_text(text, encoding="utf-8")
    n = len(briefs)
    say(
        ngettext("Wrote the brief for {n} offer to {path}", "Wrote the brief for {n} offers to {path}", n).format(
            n=n, path=target
        ),
        err=True,
    )
