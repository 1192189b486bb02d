"""Rich tables for the offer detail tabs, built from recorded facts and the engine's figures."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType

from quotetui.domain.contracts.dates import notice_deadline
from quotetui.domain.economics.claims import Audit, value_words
from quotetui.domain.economics.display import stored_text
from quotetui.domain.economics.exact import pct
from quotetui.domain.economics.explain import Figure
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import Mover, Provenance, Tone, mover_word
from quotetui.domain.gpu_table import nvlink_note_word
from quotetui.domain.money import plain
from quotetui.domain.timeutil import local_day
from quotetui.domain.verification.acceptance import Item, checklist
from quotetui.domain.verification.findings import Finding, Log
from quotetui.domain.verification.rules import peak_share
from quotetui.language import N_, NP_, _
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, detail, labelled, listed
from quotetui.language.numbers import percent
from quotetui.services.offer_detail import OfferDetail
from quotetui.tui.safe import Table, Text
from quotetui.tui.tones import STYLE


def kv(title: str, rows: Iterable[tuple[str, object]]) -> Table:
    """``rows``: each a name (English, marked ``N_``: shown in the language in use) and its value."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, show_header=False, pad_edge=False)
    table.add_column(style=STYLE[Tone.MUTED], no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in rows:
        if value not in (None, "", []):
            table.add_row(_(key), value if isinstance(value, Text) else str(value))
    return table


def spec(d: OfferDetail) -> RenderableType:
    o, g, p = d.offer, d.gpu, d.provider
    offer = kv(
        f"#{o.id} {p.name} — {o.name}",
        [
            (N_("provider"), aside(p.name, p.kind.spaced) + (f" · {p.parent}" if p.parent else "")),
            (N_("certifications"), listed(p.certifications)),
            (N_("GPU"), aside(f"{o.gpus_per_node} × {g.name}", o.form_factor.shown)),
            (N_("in-node fabric"), o.intra_fabric.spaced),
            (
                N_("scale-out"),
                detail(o.inter_fabric.spaced, _("{gbps} Gb/s per GPU").format(gbps=plain(o.inter_gbps_per_gpu)))
                if o.inter_gbps_per_gpu
                else o.inter_fabric.spaced,
            ),
            (N_("CPU"), o.cpu),
            (N_("RAM"), f"{o.ram_gb} GB" if o.ram_gb else None),
            (N_("local NVMe"), f"{plain(o.nvme_tb)} TB" if o.nvme_tb else None),
            (N_("bare metal"), _("yes") if o.bare_metal else _("no (virtualised)")),
            (N_("region"), o.region),
            (N_("nodes on offer"), o.nodes_available),
            (N_("stock"), o.stock_note),
            (N_("lead time"), _days(o.lead_time_days) if o.lead_time_days is not None else None),
            (
                N_("billing"),
                o.billing_basis.spaced + (" · " + _("part months by the day") if o.prorata_days else ""),
            ),
            (N_("status"), o.status.word),
            (N_("valid until"), o.valid_until.isoformat() if o.valid_until else None),
            (N_("source"), d.source),
            (N_("estimate"), _("yes: the provider's figures are estimates") if o.is_estimate else None),
            (N_("notes"), o.notes),
        ],
    )
    sheet = kv(
        _("{gpu} datasheet (dense)").format(gpu=g.name),
        [
            (N_("memory"), detail(f"{g.memory_gb} GB {g.memory_type}", f"{plain(g.memory_bw_tbs)} TB/s")),
            (N_("BF16"), f"{plain(g.bf16_tflops)} TFLOPS"),
            (N_("FP8"), f"{plain(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else "–"),
            (N_("FP64"), f"{plain(g.fp64_tflops)} TFLOPS" if g.fp64_tflops else "–"),
            (
                N_("NVLink"),
                f"{g.nvlink_gbs} GB/s {nvlink_note_word(g.nvlink_note)}".strip() if g.nvlink_gbs else _("none"),
            ),
            (N_("TDP"), f"{g.tdp_w} W"),
            (N_("topology signature"), g.topo_signature or "–"),
        ],
    )
    return Group(offer, Text(""), sheet)


def _days(n: int) -> str:
    return _("{n} days").format(n=n)


def figures(items: list[Figure]) -> RenderableType:
    table = Table(box=None, show_header=False, pad_edge=False, expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(overflow="fold")
    for f in items:
        detail = Text(f.formula, style=STYLE[Tone.MUTED])
        for line in f.inputs:
            detail.append("\n· " + line, style="")
        table.add_row(_(f.label), f.display(), detail)
        table.add_row("", "", "")
    return table


def fine_print(d: OfferDetail) -> RenderableType:
    discounts = Table(title=_("Discounts"), title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in (N_("id"), N_("kind"), NP_("discount", "rate"), N_("condition"), N_("description")):
        discounts.add_column(_(name))
    for x in d.discounts:
        condition = listed(
            filter(
                None,
                [
                    "≥ " + _("{n} months").format(n=x.min_term_months) if x.min_term_months else "",
                    "≥ " + _("{n} GPUs").format(n=x.min_gpus) if x.min_gpus else "",
                    _("prepaid") if x.requires_prepay else "",
                ],
            )
        )
        rate = (
            Text(percent(plain(x.rate * 100)))
            if x.rate is not None
            else Text(_("not quoted"), style=STYLE[Tone.WARNING])
        )
        discounts.add_row(str(x.id), x.kind.spaced, rate, condition or "—", x.description or "")
    extras = Table(title=_("Extra costs"), title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in (N_("id"), N_("kind"), N_("amount"), N_("charged"), N_("description")):
        extras.add_column(_(name))
    for c in d.extras:
        amount = (
            Text(f"{stored_text(c.amount, c.currency)} {c.currency}")
            if c.amount is not None
            else Text(_("not priced"), style=STYLE[Tone.WARNING])
        )
        extras.add_row(
            str(c.id),
            c.kind.spaced,
            amount,
            c.basis.spaced + (" " + _("(refundable)") if c.refundable else ""),
            c.description or "",
        )
    parts: list[RenderableType] = []
    parts.append(discounts if d.discounts else Text(_("No discounts recorded (i adds one)."), style=STYLE[Tone.MUTED]))
    parts.append(Text(""))
    parts.append(extras if d.extras else Text(_("No extra costs recorded (x adds one)."), style=STYLE[Tone.MUTED]))
    return Group(*parts)


def rounds(d: OfferDetail) -> Table:
    table = Table(box=None, pad_edge=False, expand=True)
    for name, justify in (
        ("#", "right"),
        (N_("date"), "left"),
        (NP_("who moved", "who"), "left"),
        (N_("price"), "right"),
        (N_("unit"), "left"),
        (N_("term"), "left"),
        (N_("note"), "left"),
    ):
        # the figures stay on one line; the note (free text) takes what room is left and wraps
        table.add_column(
            _(name), justify=justify, overflow="fold", no_wrap=name != "note", ratio=1 if name == "note" else None
        )  # type: ignore[arg-type]
    for r in d.rounds:
        style = STYLE[Tone.NOTE] if r.revision.mover is Mover.COUNTER else ""
        for i, p in enumerate(r.prices or [None]):
            if p is None:
                table.add_row(
                    str(r.revision.seq),
                    local_day(r.revision.quoted_at, d.time_zone).isoformat(),
                    mover_word(r.revision.mover),
                    "—",
                    "",
                    "",
                    r.revision.note or "",
                    style=style,
                )
                continue
            price = stored_text(p.amount, p.currency)
            if p.amount_high is not None:
                price += f"–{stored_text(p.amount_high, p.currency)}"
            table.add_row(
                str(r.revision.seq) if i == 0 else "",
                local_day(r.revision.quoted_at, d.time_zone).isoformat() if i == 0 else "",
                mover_word(r.revision.mover) if i == 0 else "",
                f"{price} {p.currency}",
                _(UNIT_WORDS[p.unit]),
                _term(p.term_months, p.prepay) if p.term_months else _("on demand"),
                (r.revision.note or p.note or "") if i == 0 else (p.note or ""),
                style=style,
            )
    return table


def _term(months: int, prepaid: bool) -> str:
    """A round's term: ``12 mo``, ``12 mo prepaid``."""
    return _("{n} mo prepaid").format(n=months) if prepaid else _("{n} mo").format(n=months)


def sla(d: OfferDetail, downtime: str | None) -> RenderableType:
    s = d.sla
    if s is None:
        return Text(
            _("No SLA on record: figures assume {share} availability (l records the SLA).").format(share=percent("99")),
            style=STYLE[Tone.WARNING],
        )
    terms = kv(
        _("SLA"),
        [
            (
                N_("availability"),
                percent(plain(s.availability * 100)) if s.availability is not None else _("not promised"),
            ),
            (N_("expected downtime"), downtime),
            (
                N_("response"),
                _("{n} minutes").format(n=s.response_minutes) if s.response_minutes is not None else None,
            ),
            (
                N_("GPU replacement"),
                _("{n} hours").format(n=s.replacement_hours) if s.replacement_hours is not None else None,
            ),
            (NP_("SLA", "support"), s.support_hours),
            (N_("trial / return"), _days(s.return_days) if s.return_days else None),
            (N_("data centre"), s.dc_tier),
            (N_("PUE"), plain(s.pue) if s.pue else None),
            (NP_("SLA", "power"), s.power_redundancy),
            (N_("preemption risk"), s.preemption.spaced),
            (N_("notes"), s.notes),
        ],
    )
    if not d.credits:
        return Group(
            terms, Text(""), Text(_("No credit schedule: downtime earns nothing back."), style=STYLE[Tone.WARNING])
        )
    credits = Table(title=_("Credit schedule"), title_justify="left", title_style="bold", box=None, pad_edge=False)
    credits.add_column(_("monthly availability below"))
    credits.add_column(_("credit of the month's fee"), justify="right")
    for t in d.credits:
        credits.add_row(percent(plain(t.below * 100)), percent(plain(t.credit * 100)))
    return Group(terms, Text(""), credits)


def findings_text(findings: list[Finding]) -> Text:
    if not findings:
        return Text(_("No findings: nothing on record contradicts what was sold."), style=STYLE[Tone.SUCCESS])
    text = Text()
    for f in findings:
        text.append(f"{f.severity.mark} {f.severity.word.upper()} ", style=STYLE[f.severity.tone])
        text.append(f.code.word, style="bold")
        text.append(labelled("", f.title) + "\n")  # after the code in bold
        text.append(f"    {f.explanation}\n", style="")
        for line in f.evidence:
            text.append(f"    · {line}\n", style=STYLE[Tone.MUTED])
    return text


def _logs(d: OfferDetail) -> RenderableType:
    if not d.logs:
        return Text(
            _(
                "No raw logs on record. On the trial machine: `quotetui probe --write probe.py`, run it, then "
                "press v here (or `quotetui bench import BUNDLE --offer {id}`)."
            ).format(id=d.offer.id),
            style=STYLE[Tone.MUTED],
        )
    table = Table(title=_("Evidence on record"), title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in ("#", N_("log"), N_("tool"), N_("host"), N_("captured"), N_("what it shows")):
        table.add_column(_(name), overflow="fold")
    for log in d.logs:
        when = log.captured_at.strftime("%Y-%m-%d %H:%M") if log.captured_at else ""
        table.add_row(str(log.evidence_id), log.label, log.tool, log.host or "", when, log.summary)
    return table


def acceptance_table(title: str, items: Iterable[Item]) -> Table:
    """The acceptance checklist: each item, its status, why, and the logs (or the waiver) it rests on (``title``:
    shown as given)."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in (N_("item"), N_("status"), N_("why"), N_("evidence")):
        table.add_column(_(name), overflow="fold")
    for item in items:
        why = item.reason
        if item.waiver is not None:
            w = item.waiver
            waived = _("waived by {who} on {day}: {reason}")
            why += " — " + waived.format(who=w.by_word, day=day_text(w.on), reason=w.reason)
        style = STYLE[item.status.tone]
        table.add_row(item.title, Text(item.status.word, style=style), why, listed(item.evidence))
    return table


def _acceptance(d: OfferDetail, findings: list[Finding]) -> RenderableType:
    if d.sold is None or d.catalog is None:
        return Text("")
    logs = [Log(r.evidence_id, r.label, r.parsed) for r in d.logs if r.parsed is not None]
    items = checklist(d.sold, logs, findings, d.catalog)
    title = _("Acceptance of one node (a contract counts its nodes: quotetui acceptance show --contract ID)")
    return acceptance_table(title, items)


def benchmarks(d: OfferDetail, audits: list[Audit], findings: list[Finding]) -> RenderableType:
    """Findings first, the acceptance checklist, the raw logs, then every figure claimed or verified with its
    share of the datasheet."""
    parts: list[RenderableType] = [
        Text(_("Findings"), style="bold"),
        findings_text(findings),
        _acceptance(d, findings),
        _logs(d),
        Text(""),
    ]
    if not d.benchmarks:
        parts.append(Text(_("No benchmark figure claimed or verified for this offer."), style=STYLE[Tone.MUTED]))
        return Group(*parts)
    by_id = {a.claim.id: a for a in audits}
    table = Table(
        title=_("Claimed and verified figures"),
        title_justify="left",
        title_style="bold",
        box=None,
        pad_edge=False,
        expand=True,
    )
    for name in (N_("kind"), N_("metric"), N_("value"), N_("of peak"), N_("conditions"), N_("verdict / evidence")):
        table.add_column(_(name), overflow="fold")
    for line in d.benchmarks:
        b = line.result
        value = value_words(plain(b.value), b.unit, None if b.value_high is None else plain(b.value_high))
        conditions = listed(
            filter(None, [_("{n} GPUs").format(n=b.gpu_count) if b.gpu_count else "", b.workload or "", b.dtype or ""])
        )
        share = peak_share(b.metric, b.value, d.gpu)
        of_peak = f"{percent(str(pct(share[0], 1)))} {share[1]}" if share else ""
        if b.provenance is Provenance.VERIFIED and line.evidence is not None:
            e = line.evidence
            verdict = Text(
                _("{tool} on {host}, {file} sha256 {digest}…").format(
                    tool=e.tool, host=e.host or "?", file=e.filename or "", digest=e.sha256[:12]
                ),
                style=STYLE[Tone.SUCCESS],
            )
        else:
            a = by_id.get(b.id or 0)
            verdict = Text(a.verdict.word, style=STYLE[a.verdict.tone]) if a else Text("")
            if a is not None:
                verdict.append(labelled("", a.explanation), style="")  # after the styled word: ": …", "：…"
            if line.source:
                verdict.append("\n" + _("source: {source}").format(source=line.source), style=STYLE[Tone.MUTED])
        table.add_row(b.provenance.spaced, b.metric.spaced, value, of_peak, conditions, verdict)
    parts.append(table)
    return Group(*parts)


def contracts(d: OfferDetail) -> RenderableType:
    if not d.contracts:
        return Text(_("No contract signed on this offer yet."), style=STYLE[Tone.MUTED])
    parts = []
    for c in d.contracts:
        notice = notice_deadline(c.end_date, c.notice_days)  # the rule: a row stored before it can differ
        parts.append(
            kv(
                c.reference or _("Contract #{id}").format(id=c.id),
                [
                    (N_("price"), f"{stored_text(c.price, c.currency)} {c.currency} {_(UNIT_WORDS[c.price_unit])}"),
                    (N_("GPUs"), c.gpu_count),
                    (N_("start"), c.start_date.isoformat()),
                    (N_("end"), c.end_date.isoformat()),
                    (N_("term"), _("{n} months").format(n=c.term_months)),
                    (NP_("how often a contract is invoiced", "billing"), c.billing_cadence.spaced),
                    (N_("notice deadline"), notice.isoformat() if notice else None),
                    (N_("auto-renews"), _("yes") if c.auto_renew else _("no")),
                    (
                        N_("committed spend"),
                        f"{stored_text(c.committed_spend, c.currency)} {c.currency}"
                        if c.committed_spend is not None
                        else None,
                    ),
                ],
            )
        )
    return Group(*parts)
