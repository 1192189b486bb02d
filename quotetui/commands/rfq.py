"""``quotetui rfq new|edit|list|status|show|send|decline``: write a requirement down once, send it to several providers,
see where each stands and which offers on record meet it (issue 17)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from quotetui.commands.common import ForceFlag, JsonFlag, flag, flagged, open_db, print_json, table
from quotetui.commands.output import say
from quotetui.domain.entities import AS_OF, REQUIREMENT
from quotetui.domain.text import shell_word
from quotetui.language import N_, _, ngettext
from quotetui.language.dates import day_text
from quotetui.language.lists import listed, quoted

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from quotetui.services.award import AwardResult
    from quotetui.services.rfq_matrix import MatrixRow
    from quotetui.services.rfq_views import InviteView, RfqView

app = typer.Typer(help="Requests for quotation: one requirement, sent to several providers.", no_args_is_help=True)

R = REQUIREMENT.field
FLAGS = {
    "name": "NAME",
    "gpu_models": "--gpu",
    "gpus": "--gpus",
    "months": "--months",
    "start": "--start",
    "respond_by": "--respond-by",
    "deliver_by": "--deliver-by",
    "min_availability": "--min-availability",
    "intra_fabric": "--intra-fabric",
    "inter_fabric": "--inter-fabric",
    "job_gpus": "--job-gpus",
    "region": "--region",
    "checklist": "--checklist",
    "currency": "--currency",
    "notes": "--notes",
}
"""Each requirement field's flag (the names a refused value is reported under)."""

On = Annotated[date | None, flag(AS_OF, "--on", help="The day to judge overdue answers on (default: today).")]


Gpu = Annotated[str | None, typer.Option("--gpu", metavar="MODELS", help=R("gpu_models").help)]
Gpus = Annotated[int | None, flag(R("gpus"), "--gpus")]
Months = Annotated[int | None, flag(R("months"), "--months")]
Start = Annotated[date | None, flag(R("start"), "--start")]
RespondBy = Annotated[date | None, flag(R("respond_by"), "--respond-by")]
DeliverBy = Annotated[date | None, flag(R("deliver_by"), "--deliver-by")]
MinAvailability = Annotated[Decimal | None, flag(R("min_availability"), "--min-availability")]
IntraFabricOpt = Annotated[str | None, flag(R("intra_fabric"), "--intra-fabric")]
InterFabricOpt = Annotated[str | None, flag(R("inter_fabric"), "--inter-fabric")]
JobGpus = Annotated[int | None, flag(R("job_gpus"), "--job-gpus")]
Region = Annotated[str | None, flag(R("region"), "--region")]
Checklist = Annotated[str | None, typer.Option("--checklist", metavar="ITEMS", help=R("checklist").help)]
Currency = Annotated[str | None, flag(R("currency"), "--currency")]
Notes = Annotated[str | None, flag(R("notes"), "--notes")]
"""The requirement's flags, shared by ``new`` (where the need's own are required) and ``edit`` (all optional)."""


OutOpt = Annotated[
    Path | None, typer.Option("--out", metavar="FILE.xlsx", help="Write it as a workbook instead of printing it.")
]


def write_sheets(out: Path, view: RfqView, result: AwardResult | None, *, force: bool) -> Path:
    """The comparison (and the award) as a workbook at ``out`` (an existing file only with ``force``)."""
    from quotetui.services.rfq_sheets import write_sourcing_workbook
    from quotetui.system.atomic import check_target

    path = check_target(out, force=force, suffixes=(".xlsx",))
    write_sourcing_workbook(path, view, result)
    return path


def _given(ctx: typer.Context, **values: object) -> dict[str, object]:
    """The flags given, by field name (``edit``: what is not given stays as it is); a flag given empty
    (``--respond-by ''``) clears its value (parsed, an empty flag is None, as one not given)."""
    given: dict[str, object] = {}
    for name, value in values.items():
        if value is not None:
            given[name] = value
        elif getattr(ctx.get_parameter_source(PARAMETERS.get(name, name)), "name", "") == "COMMANDLINE":
            given[name] = ""  # an optional field is cleared; a required one is refused, named by its flag
    return given


PARAMETERS = {"gpu_models": "gpu"}
"""A field's parameter in ``edit``, where its name differs."""


@app.command()
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="A name for the RFQ.", metavar="NAME")],
    gpu: Gpu,
    gpus: Gpus,
    months: Months,
    start: Start,
    respond_by: RespondBy = None,
    deliver_by: DeliverBy = None,
    min_availability: MinAvailability = None,
    intra_fabric: IntraFabricOpt = None,
    inter_fabric: InterFabricOpt = None,
    job_gpus: JobGpus = None,
    region: Region = None,
    checklist: Checklist = None,
    currency: Currency = "CNY",
    notes: Notes = None,
    as_json: JsonFlag = False,
) -> None:
    """Write a requirement down (nothing is saved if any value is invalid)."""
    from quotetui.services.rfq import new_rfq

    raw = {"name": name, "gpu_models": gpu, "gpus": gpus, "months": months, "start": start, "respond_by": respond_by,
           "deliver_by": deliver_by, "min_availability": min_availability, "intra_fabric": intra_fabric,
           "inter_fabric": inter_fabric, "job_gpus": job_gpus, "region": region, "checklist": checklist,
           "currency": currency, "notes": notes}  # fmt: skip
    with flagged(FLAGS):
        view = new_rfq(open_db(ctx), raw)
    if as_json:
        print_json(view.to_json())
        return
    r = view.requirement
    say(
        _("RFQ {name} (#{id}): {gpus} × {models} for {months} months from {start}.").format(
            name=quoted(r.name), id=view.id, gpus=f"{r.gpus:,}", models=r.models, months=r.months,
            start=day_text(r.start),
        )
    )  # fmt: skip
    say(_("Send it: {command}").format(command=f"quotetui rfq send {shell_word(r.name)} --provider NAME --out DIR"))


@app.command()
def edit(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    gpu: Gpu = None,
    gpus: Gpus = None,
    months: Months = None,
    start: Start = None,
    respond_by: RespondBy = None,
    deliver_by: DeliverBy = None,
    min_availability: MinAvailability = None,
    intra_fabric: IntraFabricOpt = None,
    inter_fabric: InterFabricOpt = None,
    job_gpus: JobGpus = None,
    region: Region = None,
    checklist: Checklist = None,
    currency: Currency = None,
    notes: Notes = None,
    as_json: JsonFlag = False,
) -> None:
    """Change the requirement: the flags given, the rest as it is. A change is a new revision: answers to the
    revision sent before are refused, and `rfq send` sends the new one."""
    from quotetui.services.rfq import edit_rfq

    changes = _given(ctx, gpu_models=gpu, gpus=gpus, months=months, start=start, respond_by=respond_by,
                     deliver_by=deliver_by, min_availability=min_availability, intra_fabric=intra_fabric,
                     inter_fabric=inter_fabric, job_gpus=job_gpus, region=region, checklist=checklist,
                     currency=currency, notes=notes)  # fmt: skip
    with flagged(FLAGS):
        view = edit_rfq(open_db(ctx), name, changes)
    if as_json:
        print_json(view.to_json())
        return
    r = view.requirement
    outdated = [i.provider for i in view.invites if i.outdated]
    say(_("RFQ {name} is at revision {revision} now.").format(name=quoted(r.name), revision=r.revision))
    if outdated:
        say(
            _("Sent at an earlier revision to {providers}: `{command}` again.").format(
                providers=listed(outdated), command=f"quotetui rfq send {shell_word(r.name)} -p …"
            )
        )


@app.command("list")
def list_(ctx: typer.Context, on: On = None, as_json: JsonFlag = False) -> None:
    """List RFQs with where their invitations stand."""
    from quotetui.services.rfq_views import list_rfqs

    views = list_rfqs(open_db(ctx), on)
    if as_json:
        print_json([v.to_json() for v in views])
        return
    if not views:
        say(_("No RFQs yet: `quotetui rfq new NAME --gpu MODELS --gpus N --months N --start DATE`."))
        return
    rows = [
        [
            str(v.id),
            v.requirement.name,
            f"{v.requirement.gpus:,} × {v.requirement.models}",
            v.requirement.start.isoformat(),
            v.requirement.respond_by.isoformat() if v.requirement.respond_by else "",
            v.invitations_text(),
        ]
        for v in views
    ]
    table([N_("id"), N_("RFQ"), N_("need"), N_("start"), N_("answers due"), N_("invitations")], rows)


@app.command()
def show(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    on: On = None,
    out: OutOpt = None,
    force: ForceFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """The requirement, where each invitation stands, and the comparison of the answers and offers on record
    (✓ meets a line, ✗ does not, ? not on record; the engine's figures; compliant ones ranked)."""
    from quotetui.io.rfq_workbook import line_text, requirement_lines
    from quotetui.services.rfq import show_rfq

    view = show_rfq(open_db(ctx), name, on)
    if out is not None:
        written = write_sheets(out, view, None, force=force)
        say(_("Wrote the comparison to {path}.").format(path=written))
        return
    if as_json:
        print_json(view.to_json())
        return
    r = view.requirement
    say(
        _("RFQ {name} (#{id}, revision {revision}); {due}").format(
            name=r.name, id=view.id, revision=r.revision, due=view.due_text()
        )
    )
    for label, value in requirement_lines(r):
        say(f"  {label}: {line_text(value)}")
    say("")
    _invitations(view)
    if not view.offers:
        say(_("No answer yet, and no offer on record of {models}.").format(models=r.models))
        return
    from quotetui.services.rfq_matrix import SIDE_BY_SIDE, cell_text, matrix_rows

    shown = view.offers[:SIDE_BY_SIDE]
    matrix = matrix_rows(shown, r.currency)
    headers = [f"#{o.offer_id} {o.provider}" for o in shown]
    room = _columns_that_fit(matrix, headers)
    shown = shown[:room]
    rows = [[row.label, *map(cell_text, row.cells[:room])] for row in matrix]
    table(["", *headers[:room]], rows, title=_("Comparison"))
    if len(view.offers) > len(shown):
        more = len(view.offers) - len(shown)
        say(
            ngettext(
                "… and {n} more offer on record: --json or --out FILE.xlsx has every one",
                "… and {n} more offers on record: --json or --out FILE.xlsx has every one",
                more,
            ).format(n=f"{more:,}")
        )


def _columns_that_fit(matrix: Sequence[MatrixRow], headers: Sequence[str]) -> int:
    """How many offers a terminal shows side by side with no figure or rank cut: each column given room for
    its longest word (Rich may still cut a long code word, never a figure); to a pipe or a file, all."""
    import shutil

    from rich.cells import cell_len

    from quotetui.commands.common import to_terminal
    from quotetui.services.rfq_matrix import cell_text

    count = len(headers)
    if not to_terminal() or count == 0:
        return count

    def longest(texts: Iterable[str]) -> int:
        return max((cell_len(word) for text in texts for word in text.split()), default=1)

    used = longest(row.label for row in matrix)
    width = shutil.get_terminal_size().columns
    for n in range(count):
        need = longest([headers[n], *(cell_text(row.cells[n]) for row in matrix)]) + 2  # a space each side
        if used + need > width:
            return max(n, 1)
        used += need
    return count


def _invitations(view: RfqView) -> None:
    from quotetui.services.rfq_views import state_word

    if not view.invites:
        command = f"quotetui rfq send {shell_word(view.requirement.name)} --provider NAME --out DIR"
        say(_("Not sent yet: {command}").format(command=command))
        return

    def state(i: InviteView) -> str:
        word = state_word(i.state)
        return _("{state} (requirement changed since)").format(state=word) if i.outdated else word

    table(
        [N_("provider"), N_("state"), N_("revision sent"), N_("sent"), N_("answered or declined"), N_("note")],
        [
            [i.provider, state(i), str(i.revision), i.sent_at.date().isoformat(),
             i.replied_at.date().isoformat() if i.replied_at else "", i.note or ""]
            for i in view.invites
        ],
        title=_("Invitations"),
    )  # fmt: skip


@app.command()
def status(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    on: On = None,
    as_json: JsonFlag = False,
) -> None:
    """Where each invitation stands: sent, answered, declined, or overdue (sent, and the answers were due
    before today or --on)."""
    from quotetui.services.rfq_views import rfq_status

    view = rfq_status(open_db(ctx), name, on)
    if as_json:
        print_json(view.to_json())
        return
    r = view.requirement
    say(
        _("RFQ {name} (#{id}, revision {revision}): {invitations}; {due}").format(
            name=r.name, id=view.id, revision=r.revision, invitations=view.invitations_text(), due=view.due_text()
        )
    )
    _invitations(view)


@app.command()
def send(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    provider: Annotated[
        list[str], typer.Option("--provider", "-p", metavar="NAME", help="A provider to ask (repeat for more).")
    ],
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder for the workbooks and cover texts.")],
    force: ForceFlag = False,
    as_json: JsonFlag = False,
) -> None:
    """Write a response workbook and a cover text for each provider, and record them as sent."""
    from quotetui.services.rfq import send_rfq

    view, sent = send_rfq(open_db(ctx), name, provider, out, force=force)
    if as_json:
        print_json({"rfq": view.to_json(), "sent": [s.to_json() for s in sent]})
        return
    for s in sent:
        if s.answered_at:
            line = _("{provider}: {workbook}  (cover text: {cover}); its answer of {day} is kept")
        else:
            line = _("{provider}: {workbook}  (cover text: {cover})")
        day = day_text(s.answered_at.date()) if s.answered_at else ""
        say(line.format(provider=s.provider, workbook=s.workbook, cover=s.cover, day=day))
    r = view.requirement
    say(
        _("Recorded as sent at revision {revision}; `{command}` shows where each stands.").format(
            revision=r.revision, command=f"quotetui rfq show {shell_word(r.name)}"
        )
    )


@app.command()
def decline(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The RFQ's name.", metavar="NAME")],
    provider: Annotated[str, typer.Option("--provider", "-p", metavar="NAME", help="The provider that declined.")],
    note: Annotated[str | None, typer.Option("--note", metavar="TEXT", help="Why, if they said.")] = None,
) -> None:
    """Record that a provider declined to answer."""
    from quotetui.services.rfq import decline as record

    with flagged({"provider": "--provider", "note": "--note"}):
        invite = record(open_db(ctx), name, provider, note)
    say(_("{provider} declined RFQ {name}.").format(provider=invite.provider, name=quoted(name)))
