"""``quotetui history OFFER_ID | --contract N | --settings``: who changed what, when, from where."""

from __future__ import annotations

from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, open_db, parsed, print_json
from quotetui.commands.output import say
from quotetui.domain.entities import ID
from quotetui.domain.text import one_line
from quotetui.language import N_, _
from quotetui.language.lists import filled

ACTIONS = {"added": N_("added {subject}"), "changed": N_("changed {subject}"), "removed": N_("removed {subject}")}
"""What a change did, said of its subject (the stored action's code is the key; the subject is shown as stored)."""


def register(app: typer.Typer) -> None:
    app.command("history")(history)


def history(
    ctx: typer.Context,
    offer_id: Annotated[
        int | None,
        typer.Argument(parser=parsed(ID), metavar="OFFER_ID", help="The offer's id (see `quotetui offers`)."),
    ] = None,
    contract: Annotated[
        int | None, typer.Option("--contract", parser=parsed(ID), metavar="ID", help="A contract's history instead.")
    ] = None,
    settings: Annotated[bool, typer.Option("--settings", help="The settings' history instead.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """The audit trail: every change to an offer (its rounds, prices, terms, evidence and contracts), a contract
    (amendments, incidents, invoices, waivers) or the settings — who, when, from which front end or file, and
    each value before and after."""
    from quotetui.domain.timeutil import local_text
    from quotetui.services import history as h
    from quotetui.services.settings import assumptions_of

    db = open_db(ctx)
    found = h.history(db, offer_id=offer_id, contract_id=contract, settings=settings)
    if as_json:
        print_json([c.to_json() for c in found])
        return
    subject = (
        _("offer #{id}").format(id=offer_id)
        if offer_id is not None
        else _("contract #{id}").format(id=contract)
        if contract
        else _("settings")
    )
    if not found:
        said = _("No changes to {subject} recorded (the trail starts at the upgrade that added it).")
        say(filled(said, subject=subject))
        return
    zone = assumptions_of(db).time_zone
    say(
        filled(
            _("History of {subject} ({n} changes, oldest first; times in {zone}):"),
            subject=subject,
            n=len(found),
            zone=zone,
        )
    )
    for c in found:  # every stored text on one line, quoted: a value never passes for a field or an entry
        say(
            filled(
                _("{at}  {who} via {via}"),
                at=local_text(c.at, zone)[:19],
                who=one_line(c.who),
                via=one_line(c.shown_via),
            )
        )
        row = f" #{c.row_id}" if c.row_id else ""
        what = f"{one_line(c.shown_subject)}{row}"  # its stored words in the language in use
        done = _(ACTIONS[c.action]).format(subject=what) if c.action in ACTIONS else f"{c.action} {what}"
        say(f"  {done}" if c.changes else "  " + _("{change}: no values").format(change=done))
        for line in c.values():
            say(f"    {one_line(line)}")
        if c.origin:  # not an event of this database: an entry a workbook brought
            say(f"  ({one_line(c.origin)})")
