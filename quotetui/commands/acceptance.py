"""``quotetui acceptance show|waive|accept``: the acceptance checklist of an offer or a contract, written
waivers, and accepting a contract once nothing blocks."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, flag, flagged, open_db, print_json
from quotetui.commands.output import say
from quotetui.domain.entities import AS_OF
from quotetui.domain.enums import WAIVER_BUYER, AcceptanceCheck
from quotetui.domain.text import one_line
from quotetui.language import _, ngettext
from quotetui.language.cells import width
from quotetui.language.dates import day_text
from quotetui.language.lists import clauses, listed

app = typer.Typer(help="Acceptance: the checklist the logs on record pass or fail, waivers, and accepting a contract.")

ContractOpt = Annotated[int, typer.Option("--contract", metavar="ID", help="The signed contract.", min=1)]
OnOpt = Annotated[date | None, flag(AS_OF, "--on", help="The day (default: today, UTC).")]


def _today() -> date:
    """Today as every command counts it (UTC: ``contracts``, ``award``, the TUI)."""
    from quotetui.domain.timeutil import utcnow

    return utcnow().date()


def _padded(text: str, cells: int) -> str:
    """``text`` filled with spaces to ``cells`` terminal cells (a Chinese character takes two)."""
    return text + " " * (cells - width(text))


def _print(state: object) -> None:
    from quotetui.services.acceptance import Acceptance

    assert isinstance(state, Acceptance)
    nodes = ngettext("{subject}: {offer} ({n} node)", "{subject}: {offer} ({n} nodes)", state.nodes)
    say(nodes.format(subject=state.subject, offer=state.offer, n=f"{state.nodes:,}"))
    wide = max((width(item.status.word) for item in state.items), default=0)  # "not required" is 12: a gap after
    for item in state.items:
        title, status = _padded(item.title, 34), _padded(item.status.word, wide + 1)
        say(f"  {item.status.mark} {title} {status} {one_line(item.reason)}")
        for label in item.evidence:
            say(f"      · {one_line(label)}")
        if item.waiver is not None:
            w = item.waiver
            was = item.underlying.word if item.underlying else ""
            waived = _("waived ({was}) by {by} on {day}: {reason}")
            by = one_line(w.by_word)
            say("      " + waived.format(was=was, by=by, day=day_text(w.on), reason=one_line(w.reason)))
    if state.accepted_on is not None:
        say(_("accepted on {day}").format(day=day_text(state.accepted_on)))
        if state.amended:
            say(f"  {state.amended}")
        if state.after:
            after = ngettext(
                "{n} log recorded after the acceptance, not part of what it rests on: {logs}",
                "{n} logs recorded after the acceptance, not part of what it rests on: {logs}",
                len(state.after),
            )
            say("  " + after.format(n=f"{len(state.after):,}", logs=clauses(one_line(a) for a in state.after)))
    elif state.blocking:
        say(_("blocking: {items}").format(items=listed(AcceptanceCheck(i.key).coded for i in state.blocking)))
    elif state.contract_id:
        say(_("nothing blocks acceptance: quotetui acceptance accept --contract {id}").format(id=state.contract_id))
    else:
        say(_("nothing blocks acceptance"))


@app.command("show")
def show(
    ctx: typer.Context,
    offer: Annotated[
        int | None, typer.Option("--offer", metavar="ID", help="An offer (its trial machine's logs).", min=1)
    ] = None,
    contract: Annotated[int | None, typer.Option("--contract", metavar="ID", help="A signed contract.", min=1)] = None,
    nodes: Annotated[int, typer.Option("--nodes", help="Nodes bought (with --offer).", min=1, max=100_000)] = 1,
    on: Annotated[
        date | None, flag(AS_OF, "--on", help="With --contract: the day whose terms are judged (default: today, UTC).")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Each item passed, failed, missing or waived, with the logs it rests on."""
    from quotetui.domain.errors import BadInput
    from quotetui.services.acceptance import contract_acceptance, offer_acceptance

    if offer is None and contract is None:
        raise BadInput(_("give --offer ID or --contract ID"))
    if offer is not None and contract is not None:
        raise BadInput(_("give --offer ID or --contract ID, not both (a contract's checklist is its offer's logs)"))
    if offer is not None and on is not None:
        raise BadInput(_("--on goes with --contract (the terms in force on a day); an offer's checklist has none"))
    db = open_db(ctx)
    if contract is not None:
        state = contract_acceptance(db, contract, on or _today())
    else:
        state = offer_acceptance(db, offer or 0, nodes)
    if as_json:
        print_json(state.to_json())
    else:
        _print(state)


@app.command("waive")
def waive_item(
    ctx: typer.Context,
    item: Annotated[str, typer.Argument(metavar="ITEM", help="One of: {AcceptanceCheck}.")],
    contract: ContractOpt,
    reason: Annotated[str, typer.Option("--reason", help="Why the item is accepted as it is (written down).")],
    by: Annotated[
        str, typer.Option("--by", help="Who accepts the risk (default: the buyer).", show_default=False)
    ] = WAIVER_BUYER,
    on: Annotated[str, typer.Option("--on", metavar="YYYY-MM-DD", help="The day (default: today).")] = "",
    as_json: JsonFlag = False,
) -> None:
    """Waive one failed or missing item in writing (a second waiver of the item replaces the first)."""
    from quotetui.services.acceptance import waive

    with flagged({"item": "ITEM", "reason": "--reason", "by": "--by", "on": "--on"}):
        state = waive(open_db(ctx), contract, {"item": item, "reason": reason, "by": by, "on": on}, _today())
    print_json(state.to_json()) if as_json else _print(state)


@app.command("accept")
def accept_contract(ctx: typer.Context, contract: ContractOpt, on: OnOpt = None, as_json: JsonFlag = False) -> None:
    """Mark the contract accepted; refused while an item failed or is missing without a waiver."""
    from quotetui.services.acceptance import accept

    with flagged({"--on": "--on"}):
        today = _today()
        state = accept(open_db(ctx), contract, on or today, today)
    print_json(state.to_json()) if as_json else _print(state)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="acceptance")
