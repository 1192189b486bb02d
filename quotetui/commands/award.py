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
from quotetui.domain.wording import plural

if TYPE_CHECKING:
    from quotetui.services.award import AwardScenario


def register(app: typer.Typer) -> None:
    app.command("award")(award)


A = AWARD.field


def _split(s: AwardScenario) -> str:
    return "; ".join(f"#{a.offer_id} {a.provider} {plural(a.nodes, 'node')} ({a.gpus} GPUs)" for a in s.lines)


def award(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    max_share: Annotated[Decimal, flag(A("max_share"), "--max-share")] = Decimal("0.6"),
    min_providers: Annotated[int, flag(A("min_providers"), "--min-providers")] = 2,
    budget: Annotated[Decimal | None, flag(A("budget"), "--budget")] = None,
    include_market: Annotated[
        bool, typer.Option("--include-market", help="Offers on record that meet the requirement are candidates.")
    ] = False,
    on: Annotated[date | None, flag(AS_OF, "--on", help="The day of the figures (default: today).")] = None,
    out: OutOpt = None,
    force: ForceFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """The cheapest split of the need, and the split with each risk constraint, with what each costs."""
    from quotetui.services.award import award as compute
    from quotetui.services.economics import amount_text
    from quotetui.services.rfq import show_rfq

    db = open_db(ctx)
    with db.snapshot():  # the comparison written with the award reads what the award read
        result = compute(
            db, name, max_share=max_share, min_providers=min_providers, budget=budget, include_market=include_market,
            on=on,
        )  # fmt: skip
        compared = show_rfq(db, name, on) if out is not None else None  # the figures: only the sheet has them
    cur = result.currency
    if out is not None and compared is not None:
        written = write_sheets(out, compared, result, force=force)
        say(f"Wrote the comparison and the award to {written}.")
        return
    if as_json:
        print_json(
            {
                "rfq": result.requirement.name,
                "currency": cur,
                "candidates": result.candidates,
                "scenarios": [
                    {
                        "scenario": s.label,
                        "feasible": s.feasible,
                        "reason": s.reason or None,
                        "gpus": s.gpus,
                        "total_cost": None if s.total_cost is None else amount_text(s.total_cost, cur),
                        "lower_bound": s.lower_bound,
                        "premium": None if s.premium is None else amount_text(s.premium, cur),
                        "cost_per_pflop_hour": (
                            None if s.cost_per_pflop_hour is None else amount_text(s.cost_per_pflop_hour, cur)
                        ),
                        "allocations": [
                            {
                                "offer_id": a.offer_id,
                                "provider": a.provider,
                                "offer": a.offer,
                                "nodes": a.nodes,
                                "gpus": a.gpus,
                                "total_cost": amount_text(a.engine_cost, cur),
                                "lower_bound": a.lower_bound,
                            }
                            for a in s.lines
                        ],
                    }
                    for s in result.scenarios
                ],
            }
        )
        return

    def shown(value: object) -> str:
        return "" if value is None else money(value, cur)

    r = result.requirement
    among = plural(result.candidates, "candidate")
    say(f"Award for RFQ {r.name}: {r.gpus:,} × {r.models} for {r.months} months, among {among}")
    table(
        ["scenario", "total", "risk premium", "per PFLOP-hour", "split"],
        [
            [
                s.label,
                ("≥ " if s.lower_bound else "") + shown(s.total_cost) if s.feasible else "infeasible",
                shown(s.premium),
                shown(s.cost_per_pflop_hour),
                "; ".join(f"#{a.offer_id} {a.provider} {plural(a.nodes, 'node')} ({a.gpus} GPUs)" for a in s.lines)
                or s.reason,
            ]
            for s in result.scenarios
        ],
        right=frozenset({"total", "risk premium", "per PFLOP-hour"}),
    )
