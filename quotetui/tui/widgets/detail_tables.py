"""Rich tables for the offer detail tabs, built from recorded facts and the engine's figures."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType

from quotetui.domain.economics.claims import Audit
from quotetui.domain.economics.display import stored_text
from quotetui.domain.economics.exact import pct
from quotetui.domain.economics.explain import Figure
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import Mover, Provenance, Tone
from quotetui.domain.money import plain
from quotetui.domain.timeutil import local_day
from quotetui.domain.verification.acceptance import Item, checklist
from quotetui.domain.verification.findings import Finding, Log
from quotetui.domain.verification.rules import peak_share
from quotetui.services.offer_detail import OfferDetail
from quotetui.tui.safe import Table, Text
from quotetui.tui.tones import STYLE


def kv(title: str, rows: Iterable[tuple[str, object]]) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", box=None, show_header=False, pad_edge=False)
    table.add_column(style=STYLE[Tone.MUTED], no_wrap=True)
    table.add_column(overflow="fold")
    for key, value in rows:
        if value not in (None, "", []):
            table.add_row(key, value if isinstance(value, Text) else str(value))
    return table


def spec(d: OfferDetail) -> RenderableType:
    o, g, p = d.offer, d.gpu, d.provider
    offer = kv(
        f"#{o.id} {p.name} — {o.name}",
        [
            ("provider", f"{p.name} ({p.kind.value.replace('_', ' ')}){' · ' + p.parent if p.parent else ''}"),
            ("certifications", ", ".join(p.certifications)),
            ("GPU", f"{o.gpus_per_node} × {g.name} ({o.form_factor.value.upper()})"),
            ("in-node fabric", o.intra_fabric.value.replace("_", " ")),
            (
                "scale-out",
                o.inter_fabric.value.replace("_", " ")
                + (f", {plain(o.inter_gbps_per_gpu)} Gb/s per GPU" if o.inter_gbps_per_gpu else ""),
            ),
            ("CPU", o.cpu),
            ("RAM", f"{o.ram_gb} GB" if o.ram_gb else None),
            ("local NVMe", f"{plain(o.nvme_tb)} TB" if o.nvme_tb else None),
            ("bare metal", "yes" if o.bare_metal else "no (virtualised)"),
            ("region", o.region),
            ("nodes on offer", o.nodes_available),
            ("stock", o.stock_note),
            ("lead time", f"{o.lead_time_days} days" if o.lead_time_days is not None else None),
            (
                "billing",
                o.billing_basis.value.replace("_", " ") + (" · part months by the day" if o.prorata_days else ""),
            ),
            ("status", o.status.value),
            ("valid until", o.valid_until.isoformat() if o.valid_until else None),
            ("source", d.source),
            ("estimate", "yes: the provider's figures are estimates" if o.is_estimate else None),
            ("notes", o.notes),
        ],
    )
    sheet = kv(
        f"{g.name} datasheet (dense)",
        [
            ("memory", f"{g.memory_gb} GB {g.memory_type}, {plain(g.memory_bw_tbs)} TB/s"),
            ("BF16", f"{plain(g.bf16_tflops)} TFLOPS"),
            ("FP8", f"{plain(g.fp8_tflops)} TFLOPS" if g.fp8_tflops else "–"),
            ("FP64", f"{plain(g.fp64_tflops)} TFLOPS" if g.fp64_tflops else "–"),
            ("NVLink", f"{g.nvlink_gbs} GB/s {g.nvlink_note}".strip() if g.nvlink_gbs else "none"),
            ("TDP", f"{g.tdp_w} W"),
            ("topology signature", g.topo_signature or "–"),
        ],
    )
    return Group(offer, Text(""), sheet)


def figures(items: list[Figure]) -> RenderableType:
    table = Table(box=None, show_header=False, pad_edge=False, expand=True)
    table.add_column(style="bold", no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(overflow="fold")
    for f in items:
        detail = Text(f.formula, style=STYLE[Tone.MUTED])
        for line in f.inputs:
            detail.append("\n· " + line, style="")
        table.add_row(f.label, f.display(), detail)
        table.add_row("", "", "")
    return table


def fine_print(d: OfferDetail) -> RenderableType:
    discounts = Table(title="Discounts", title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in ("id", "kind", "rate", "condition", "description"):
        discounts.add_column(name)
    for x in d.discounts:
        condition = ", ".join(
            filter(
                None,
                [
                    f"≥ {x.min_term_months} months" if x.min_term_months else "",
                    f"≥ {x.min_gpus} GPUs" if x.min_gpus else "",
                    "prepaid" if x.requires_prepay else "",
                ],
            )
        )
        rate = Text(f"{plain(x.rate * 100)} %") if x.rate is not None else Text("not quoted", style=STYLE[Tone.WARNING])
        discounts.add_row(str(x.id), x.kind.value, rate, condition or "—", x.description or "")
    extras = Table(title="Extra costs", title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in ("id", "kind", "amount", "charged", "description"):
        extras.add_column(name)
    for c in d.extras:
        amount = (
            Text(f"{stored_text(c.amount, c.currency)} {c.currency}")
            if c.amount is not None
            else Text("not priced", style=STYLE[Tone.WARNING])
        )
        extras.add_row(
            str(c.id),
            c.kind.value,
            amount,
            c.basis.value.replace("_", " ") + (" (refundable)" if c.refundable else ""),
            c.description or "",
        )
    parts: list[RenderableType] = []
    parts.append(discounts if d.discounts else Text("No discounts recorded (i adds one).", style=STYLE[Tone.MUTED]))
    parts.append(Text(""))
    parts.append(extras if d.extras else Text("No extra costs recorded (x adds one).", style=STYLE[Tone.MUTED]))
    return Group(*parts)


def rounds(d: OfferDetail) -> Table:
    table = Table(box=None, pad_edge=False, expand=True)
    for name, justify in (
        ("#", "right"),
        ("date", "left"),
        ("who", "left"),
        ("price", "right"),
        ("unit", "left"),
        ("term", "left"),
        ("note", "left"),
    ):
        # the figures stay on one line; the note (free text) takes what room is left and wraps
        table.add_column(
            name, justify=justify, overflow="fold", no_wrap=name != "note", ratio=1 if name == "note" else None
        )  # type: ignore[arg-type]
    for r in d.rounds:
        style = STYLE[Tone.NOTE] if r.revision.mover is Mover.COUNTER else ""
        for i, p in enumerate(r.prices or [None]):
            if p is None:
                table.add_row(
                    str(r.revision.seq),
                    local_day(r.revision.quoted_at, d.time_zone).isoformat(),
                    r.revision.mover.value,
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
                r.revision.mover.value if i == 0 else "",
                f"{price} {p.currency}",
                UNIT_WORDS[p.unit],
                f"{p.term_months} mo{' prepaid' if p.prepay else ''}" if p.term_months else "on demand",
                (r.revision.note or p.note or "") if i == 0 else (p.note or ""),
                style=style,
            )
    return table


def sla(d: OfferDetail, downtime: str | None) -> RenderableType:
    s = d.sla
    if s is None:
        return Text(
            "No SLA on record: figures assume 99 % availability (l records the SLA).", style=STYLE[Tone.WARNING]
        )
    terms = kv(
        "SLA",
        [
            ("availability", f"{plain(s.availability * 100)} %" if s.availability is not None else "not promised"),
            ("expected downtime", downtime),
            ("response", f"{s.response_minutes} minutes" if s.response_minutes is not None else None),
            ("GPU replacement", f"{s.replacement_hours} hours" if s.replacement_hours is not None else None),
            ("support", s.support_hours),
            ("trial / return", f"{s.return_days} days" if s.return_days else None),
            ("data centre", s.dc_tier),
            ("PUE", plain(s.pue) if s.pue else None),
            ("power", s.power_redundancy),
            ("preemption risk", s.preemption.value),
            ("notes", s.notes),
        ],
    )
    if not d.credits:
        return Group(
            terms, Text(""), Text("No credit schedule: downtime earns nothing back.", style=STYLE[Tone.WARNING])
        )
    credits = Table(title="Credit schedule", title_justify="left", title_style="bold", box=None, pad_edge=False)
    credits.add_column("monthly availability below")
    credits.add_column("credit of the month's fee", justify="right")
    for t in d.credits:
        credits.add_row(f"{plain(t.below * 100)} %", f"{plain(t.credit * 100)} %")
    return Group(terms, Text(""), credits)


def findings_text(findings: list[Finding]) -> Text:
    if not findings:
        return Text("No findings: nothing on record contradicts what was sold.", style=STYLE[Tone.SUCCESS])
    text = Text()
    for f in findings:
        text.append(f"{f.severity.mark} {f.severity.value.upper()} ", style=STYLE[f.severity.tone])
        text.append(f"{f.code}", style="bold")
        text.append(f": {f.title}\n")
        text.append(f"    {f.explanation}\n", style="")
        for line in f.evidence:
            text.append(f"    · {line}\n", style=STYLE[Tone.MUTED])
    return text


def _logs(d: OfferDetail) -> RenderableType:
    if not d.logs:
        return Text(
            "No raw logs on record. On the trial machine: `quotetui probe --write probe.py`, run it, then "
            f"press v here (or `quotetui bench import BUNDLE --offer {d.offer.id}`).",
            style=STYLE[Tone.MUTED],
        )
    table = Table(title="Evidence on record", title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in ("#", "log", "tool", "host", "captured", "what it shows"):
        table.add_column(name, overflow="fold")
    for log in d.logs:
        when = log.captured_at.strftime("%Y-%m-%d %H:%M") if log.captured_at else ""
        table.add_row(str(log.evidence_id), log.label, log.tool, log.host or "", when, log.summary)
    return table


def acceptance_table(title: str, items: Iterable[Item]) -> Table:
    """The acceptance checklist: each item, its status, why, and the logs (or the waiver) it rests on."""
    table = Table(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    for name in ("item", "status", "why", "evidence"):
        table.add_column(name, overflow="fold")
    for item in items:
        why = item.reason
        if item.waiver is not None:
            w = item.waiver
            why += f" — waived by {w.by} on {w.on.isoformat()}: {w.reason}"
        style = STYLE[item.status.tone]
        table.add_row(item.title, Text(item.status.value, style=style), why, ", ".join(item.evidence))
    return table


def _acceptance(d: OfferDetail, findings: list[Finding]) -> RenderableType:
    if d.sold is None or d.catalog is None:
        return Text("")
    logs = [Log(r.evidence_id, r.label, r.parsed) for r in d.logs if r.parsed is not None]
    items = checklist(d.sold, logs, findings, d.catalog)
    title = "Acceptance of one node (a contract counts its nodes: quotetui acceptance show --contract ID)"
    return acceptance_table(title, items)


def benchmarks(d: OfferDetail, audits: list[Audit], findings: list[Finding]) -> RenderableType:
    """Findings first, the acceptance checklist, the raw logs, then every figure claimed or verified with its
    share of the datasheet."""
    parts: list[RenderableType] = [
        Text("Findings", style="bold"),
        findings_text(findings),
        _acceptance(d, findings),
        _logs(d),
        Text(""),
    ]
    if not d.benchmarks:
        parts.append(Text("No benchmark figure claimed or verified for this offer.", style=STYLE[Tone.MUTED]))
        return Group(*parts)
    by_id = {a.claim.id: a for a in audits}
    table = Table(
        title="Claimed and verified figures",
        title_justify="left",
        title_style="bold",
        box=None,
        pad_edge=False,
        expand=True,
    )
    for name in ("kind", "metric", "value", "of peak", "conditions", "verdict / evidence"):
        table.add_column(name, overflow="fold")
    for line in d.benchmarks:
        b = line.result
        value = plain(b.value) + (f"–{plain(b.value_high)}" if b.value_high is not None else "") + f" {b.unit}"
        conditions = ", ".join(
            filter(None, [f"{b.gpu_count} GPUs" if b.gpu_count else "", b.workload or "", b.dtype or ""])
        )
        share = peak_share(b.metric, b.value, d.gpu)
        of_peak = f"{pct(share[0], 1)} % {share[1]}" if share else ""
        if b.provenance is Provenance.VERIFIED and line.evidence is not None:
            e = line.evidence
            verdict = Text(
                f"{e.tool} on {e.host or '?'}, {e.filename or ''} sha256 {e.sha256[:12]}…", style=STYLE[Tone.SUCCESS]
            )
        else:
            a = by_id.get(b.id or 0)
            verdict = Text(a.verdict.value, style=STYLE[a.verdict.tone]) if a else Text("")
            if a is not None:
                verdict.append(f": {a.explanation}", style="")
            if line.source:
                verdict.append(f"\nsource: {line.source}", style=STYLE[Tone.MUTED])
        table.add_row(b.provenance.value, b.metric.value, value, of_peak, conditions, verdict)
    parts.append(table)
    return Group(*parts)


def contracts(d: OfferDetail) -> RenderableType:
    if not d.contracts:
        return Text("No contract signed on this offer yet.", style=STYLE[Tone.MUTED])
    parts = []
    for c in d.contracts:
        parts.append(
            kv(
                c.reference or f"Contract #{c.id}",
                [
                    ("price", f"{stored_text(c.price, c.currency)} {c.currency} {UNIT_WORDS[c.price_unit]}"),
                    ("GPUs", c.gpu_count),
                    ("start", c.start_date.isoformat()),
                    ("end", c.end_date.isoformat()),
                    ("term", f"{c.term_months} months"),
                    ("billing", c.billing_cadence.value.replace("_", " ")),
                    ("notice deadline", c.notice_deadline.isoformat() if c.notice_deadline else None),
                    ("auto-renews", "yes" if c.auto_renew else "no"),
                    (
                        "committed spend",
                        f"{stored_text(c.committed_spend, c.currency)} {c.currency}"
                        if c.committed_spend is not None
                        else None,
                    ),
                ],
            )
        )
    return Group(*parts)
