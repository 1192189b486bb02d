"""``quotetui award NAME``: split an RFQ's need across compliant offers in whole nodes, three ways side by side."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import ForceFlag, JsonFlag, flag, open_db, print_json, table
from quotetui.commands.output import money, say
from quotetui.commands.rfq import OutOpt, write_sheets
from quotetui.domain.entities import AS_OF, AWARD
from quotetui.domain.enums import AwardObjective
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import clauses, labelled

if TYPE_CHECKING:
    from quotetui.services.award import AwardScenario


def register(app: typer.Typer) -> None:
    app.command("award")(award)


A = AWARD.field
MAX_SHARE: Decimal = A("max_share").default


def award(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    max_share: Annotated[Decimal, flag(A("max_share"), "--max-share")] = MAX_SHARE,
    min_providers: Annotated[int, flag(A("min_providers"), "--min-providers")] = 2,
    budget: Annotated[Decimal | None, flag(A("budget"), "--budget")] = None,
    include_market: Annotated[
        bool, typer.Option("--include-market", help="Offers on record that meet the requirement are candidates.")
    ] = False,
    on: Annotated[date | None, flag(AS_OF, "--on", help="The day of the figures (default: today).")] = None,
    minimise: Annotated[AwardObjective, flag(A("minimise"), "--minimise")] = AwardObjective.COST,
    out: OutOpt = None,
    force: ForceFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """The cheapest split of the need, and the split with each risk constraint, with what each costs."""
    from quotetui.services.award import award as compute
    from quotetui.services.award import left_out_line, question_text
    from quotetui.services.rfq import show_rfq
    from quotetui.store.reader import reading

    db = open_db(ctx)
    with reading(db):  # the comparison written with the award reads what the award read (one snapshot)
        result = compute(
            db, name, max_share=max_share, min_providers=min_providers, budget=budget, include_market=include_market,
            on=on, minimise=minimise,
        )  # fmt: skip
        compared = show_rfq(db, name, on) if out is not None else None  # the figures: only the sheet has them
    cur = result.currency
    if out is not None and compared is not None:
        written = write_sheets(out, compared, result, force=force)
        say(_("Wrote the comparison and the award to {path}.").format(path=written))
        return
    if as_json:
        print_json(
            {
                "rfq": result.requirement.name,
                "currency": cur,
                "minimise": result.minimise.value,
                "candidates": result.candidates,
                "candidates_with_questions": result.questioned,
                "scenarios": [_json(s, cur) for s in result.scenarios],
                "if_confirmed": [_json(s, cur) for s in result.if_confirmed],
                "left_out": [
                    {"offer_id": x.offer_id, "provider": x.provider, "offer": x.offer, "why": x.why}
                    for x in result.left_out
                ],
                "questions": [
                    {
                        "offer_id": q.offer_id,
                        "provider": q.provider,
                        "offer": q.offer,
                        "lines": [{"line": v.line, "why": v.why} for v in q.lines],
                    }
                    for q in result.questions
                ],
            }
        )
        return
    r = result.requirement
    term = ngettext("{n} month", "{n} months", r.months).format(n=f"{r.months:,}")
    among = ngettext("{n} confirmed candidate", "{n} confirmed candidates", result.candidates).format(
        n=f"{result.candidates:,}"
    )
    if result.questioned:
        head = _("Award for RFQ {name}: {gpus} × {models} for {term}, among {among} ({more} more with questions open)")
    else:
        head = _("Award for RFQ {name}: {gpus} × {models} for {term}, among {among}")
    say(head.format(name=r.name, gpus=f"{r.gpus:,}", models=r.models, term=term, among=among, more=result.questioned))
    if result.candidates:
        _scenarios(result.scenarios, cur, result.minimise)
    else:
        say(_("No award yet: every candidate has a line of the requirement not confirmed (?)."))
    if result.left_out:
        say(left_out_line(result.left_out))
    if result.if_confirmed:
        say()
        say(_("If confirmed: the same with the offers whose open lines (?) the providers confirm"))
        _scenarios(result.if_confirmed, cur, result.minimise)
        say()
        say(_("Ask before awarding:") if result.questions else _("No question open on the offers these awards use."))
        for q in result.questions:
            say(f"  {question_text(q)}")


def _scenarios(found: tuple[AwardScenario, ...], cur: str, minimise: AwardObjective) -> None:
    """The scenarios as a table, then for each one that buys beyond the need, the split without it."""
    from quotetui.domain.economics.caveats import money_figure
    from quotetui.services.award import beyond_text, lean_text, premium_head, split_text

    def shown(value: object) -> str:
        return "" if value is None else money(value, cur)

    table(
        [N_("scenario"), N_("total"), premium_head(minimise), N_("per PFLOP-hour"), N_("split")],
        [
            [
                s.label,
                money_figure(s.total_cost, s.caveats, cur)
                if s.feasible and s.total_cost is not None
                else _("infeasible"),
                ("~ " if s.premium_rough and s.premium is not None else "") + shown(s.premium),
                "" if s.cost_per_pflop_hour is None else money_figure(s.cost_per_pflop_hour, s.caveats, cur),
                clauses(filter(None, (split_text(s), beyond_text(s)))) or s.reason,
            ]
            for s in found
        ],
        right=frozenset({"total", premium_head(minimise), "per PFLOP-hour"}),
    )
    for s in found:
        if s.lean is not None:
            say(labelled(s.label, clauses([beyond_text(s), lean_text(s, cur, minimise)])))


def _json(s: AwardScenario, cur: str) -> dict[str, object]:
    from quotetui.domain.economics.display import amount_text
    from quotetui.domain.economics.exact import dec
    from quotetui.domain.money import plain

    def amount(value: object) -> str | None:
        return None if value is None else amount_text(value, cur)

    return {
        "scenario": s.label,
        "feasible": s.feasible,
        "reason": s.reason or None,
        "gpus": s.gpus,
        "total_cost": amount(s.total_cost),
        "lower_bound": s.lower_bound,
        "caveats": s.caveats.to_json(),
        "premium": amount(s.premium),
        "premium_rough": s.premium_rough,
        "cost_per_pflop_hour": amount(s.cost_per_pflop_hour),
        "beyond_need_nodes": s.beyond_need,
        "without_beyond_need": None if s.lean is None else _json(s.lean, cur),
        "allocations": [
            {
                "offer_id": a.offer_id,
                "provider": a.provider,
                "offer": a.offer,
                "nodes": a.nodes,
                "gpus": a.gpus,
                "total_cost": amount_text(a.total_cost, cur),
                "way_to_buy": a.way,
                "delivered_pflop_hours": plain(dec(a.delivered_pflop_hours)),
                "cost_per_pflop_hour": amount_text(a.cost_per_pflop_hour, cur),
                "lower_bound": a.lower_bound,
                "caveats": a.caveats.to_json(),
            }
            for a in s.lines
        ],
    }
