"""``quotetui bench import|recheck|check`` (raw logs as evidence, findings) and ``quotetui probe --write``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quotetui.commands.common import JsonFlag, ScenarioOpt, flag, open_db, print_json
from quotetui.commands.output import say
from quotetui.domain.entities import ID
from quotetui.domain.text import one_line
from quotetui.language import _
from quotetui.language.lists import aside, clauses, labelled

app = typer.Typer(help="Verify claims: import raw benchmark logs as evidence and check an offer against them.")

OfferOpt = Annotated[int, flag(ID, "--offer", metavar="ID", help="The offer whose trial machine ran the logs.")]


@app.command("import")
def import_logs(
    ctx: typer.Context,
    logs: Annotated[list[Path], typer.Argument(metavar="LOG", help="Raw tool outputs or probe bundles.")],
    offer: OfferOpt,
    as_json: JsonFlag = False,
) -> None:
    """Store raw logs (nvidia-smi, topo -m, nccl-tests, GEMM sweep, gpu-burn, dcgmi, probe bundles) as
    evidence for an offer; the format is read from the content. One unreadable log stores nothing."""
    from quotetui.services.bench_import import import_bench

    report = import_bench(open_db(ctx), offer, logs)
    if as_json:
        print_json(report.to_json())
        return
    for s in report.stored:
        if s.duplicate:
            what = _("already on record as evidence #{id}").format(id=s.evidence_id)
            what = aside(what, one_line(s.same_as)) if s.same_as else what
        else:
            what = clauses(s.figures) or _("stored")
        if s.not_verified and not s.duplicate:
            what = aside(what, s.not_verified)
        say(f"{'=' if s.duplicate else '+'} {one_line(s.label)}  [{s.tool}]  {what}")
    for line in report.not_run:
        say(_("- not run on the machine: {line}").format(line=line))
    for line in report.notes:
        say(line)
    say(report.summary)
    say(_("next: {command}").format(command=f"quotetui bench check --offer {offer}"))


@app.command("recheck")
def recheck(
    ctx: typer.Context,
    offer: Annotated[
        int | None,
        flag(ID, "--offer", metavar="ID", help="The offer whose logs to judge again (default: every offer)."),
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Judge the logs on record again and withdraw the verified figures they do not bear out (stored by an older
    version; `db check` names them); no file needed, the logs stay as evidence. Running it twice changes nothing."""
    from quotetui.services.bench_import import recheck as recheck_logs

    report = recheck_logs(open_db(ctx), offer)
    if as_json:
        print_json(report.to_json())
        return
    shown = None
    for offer_id, withdrawn in report.withdrawn:
        if offer_id != shown:
            say(_("offer #{id}:").format(id=offer_id))
            shown = offer_id
        say(withdrawn.said)
    say(report.summary)


@app.command("check")
def check(ctx: typer.Context, offer: OfferOpt, scenario: ScenarioOpt = None, as_json: JsonFlag = False) -> None:
    """Findings for an offer: each with a stable code, a severity, the evidence and a plain explanation."""
    from quotetui.services.verification import check_offer

    result = check_offer(open_db(ctx), offer, scenario)
    if as_json:
        print_json(result.to_json())
        return
    o = result.offer
    say(
        _("#{id} {provider} {offer} — sold as {sold}").format(
            id=o.id, provider=o.provider, offer=o.name, sold=o.configuration
        )
    )
    if result.logs:
        say(_("Evidence:"))
        for log in result.logs:
            say("  " + labelled(f"#{log.evidence_id} {one_line(log.label)} [{log.tool}]", one_line(log.summary)))
    else:
        say(
            _(
                "No logs on record: run `quotetui probe --write probe.py` on the trial machine, then "
                "`quotetui bench import BUNDLE --offer {id}`."
            ).format(id=o.id)
        )
    if not result.findings:
        say(_("No findings."))
    for f in result.findings:
        say(f"{f.severity.mark} " + labelled(f"{f.severity.word.upper()} {f.code.word}", f.title))
        say(f"    {f.explanation}")
        for line in f.evidence:
            say(f"    · {one_line(line)}")


@app.command("codes")
def codes(as_json: JsonFlag = False) -> None:
    """The finding codes and what each means (the thresholds are in docs/VERIFICATION.md)."""
    from quotetui.domain.verification.findings import FindingCode
    from quotetui.language import cells

    if as_json:
        print_json({code.value: code.meaning for code in FindingCode})  # English: read by scripts
        return
    worded = any(code.coded != code.value for code in FindingCode)  # a language with words of its own: 宣称不可信
    wide, room = max(len(code.value) for code in FindingCode), max(cells.width(code.word) for code in FindingCode)
    for code in FindingCode:
        if worded:  # the code, its word (as the offers table shows it), its meaning: columns by terminal cells
            say(f"{code:<{wide + 1}} {code.word}{' ' * (room + 1 - cells.width(code.word))} {code.said_meaning}")
        else:
            say(f"{code:<{wide + 1}} {code.said_meaning}")


def probe(
    write: Annotated[Path, typer.Option("--write", metavar="PATH", help="Where to write the probe script.")],
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Write the portable GPU probe: one Python 3.8+ script (standard library only) to copy to a trial machine."""
    from quotetui.probe import write_probe

    target = write_probe(write, force=force)
    say(
        _("wrote {path}: copy it alone to the trial machine and run `python3 {name}`").format(
            path=target, name=target.name
        )
    )
    say(_("(add --nccl PATH for nccl-tests); then `quotetui bench import probe-*.json --offer ID`"))


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="bench")
    root.command()(probe)
