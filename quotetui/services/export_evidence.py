"""The evidence sheets of the workbook: Benchmarks (claimed and verified figures, importable columns first)
and Findings (what `bench check` says about each offer)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.economics.caveats import NONE, with_findings
from quotetui.domain.economics.exact import dec
from quotetui.domain.gpus import GpuSpec
from quotetui.domain.verification.rules import peak_share
from quotetui.io.import_schema import sheet_tab
from quotetui.io.xlsx_write import DATE, NUMBER, PERCENT, Column, Sheet, Styled
from quotetui.language import N_, _
from quotetui.language.lists import clauses, listed
from quotetui.services.export_columns import data_row, figure_header, template_columns
from quotetui.services.export_data import ExportData
from quotetui.services.verification import LogOnRecord
from quotetui.store.models import BenchmarkResult


def _finding_codes(data: ExportData, offer_id: int | None) -> str | None:
    """The offer's findings as every flags cell says them (``Caveats.flags``: ``✗ 2× 宣称不可信``)."""
    return listed(with_findings(NONE, data.findings.get(offer_id or 0, [])).flags()) or None


_SHARE_CELLS = [i for i, f in enumerate(E.CLAIM.sheet_fields) if f.name in ("value", "value_high")]


def _claim_cells(claim: Any, cells: list[Any]) -> list[Any]:
    """A share metric's values shown as the percentages they are (``E.claim_shares``), read back alike."""
    if claim.metric in E.SHARE_METRICS:
        for i in _SHARE_CELLS:
            if cells[i] is not None:
                cells[i] = Styled(cells[i], PERCENT)
    return cells


def benchmarks(data: ExportData) -> Sheet:
    """Every claimed and verified figure (the importable columns first), its share of the datasheet, the
    verdict on a claim or the log behind a measurement, and the offer's findings (detailed on Findings)."""
    columns = template_columns(E.CLAIM, {"quote": 50, "source": 30}) + [
        Column(figure_header(E.CLAIM, N_("verdict")), 11),
        Column(figure_header(E.CLAIM, N_("implied")), 10, NUMBER),
        Column(figure_header(E.CLAIM, N_("explanation")), 60),
        Column(figure_header(E.CLAIM, N_("of datasheet peak")), 9, PERCENT),
        Column(figure_header(E.CLAIM, N_("evidence")), 40),
        Column(figure_header(E.CLAIM, N_("offer findings")), 40),
    ]
    audits = {a.claim.id: a for a in data.audits}
    logs = {log.evidence_id: log for records in data.logs.values() for log in records}
    priced, gpus = data.ranking.priced(), data.ranking.gpus
    specs = {o.id: gpus.get(o.gpu_model_id) for o in data.offers if o.id in priced}  # each priced offer's GPU

    def rows() -> Iterator[list[Any]]:
        for b in data.claims:
            provider, offer = data.offer_key(b.offer_id)
            if not provider and b.provider_id:
                provider = data.provider_names.get(b.provider_id, "")
            a = audits.get(b.id or 0)
            refs = {
                "provider": provider or None,
                "offer": offer or None,
                "gpu": data.gpu_names.get(b.gpu_model_id or 0),
                "source": data.sources.get(b.source_id or 0) or _log_source(logs.get(b.evidence_id or 0)),
                "compared": data.compared(b) or None,
            }
            yield [
                *_claim_cells(b, data_row(E.CLAIM, (b,), refs)),
                a.verdict.word if a else None,
                a.implied if a else None,
                a.explanation if a else None,
                _share(b, specs.get(b.offer_id or 0)),
                _evidence(logs.get(b.evidence_id or 0)),
                _finding_codes(data, b.offer_id),
            ]

    return Sheet("Benchmarks", columns, rows())


def _share(b: BenchmarkResult, gpu: GpuSpec | None) -> Decimal | None:
    found = peak_share(b.metric, b.value, gpu) if gpu is not None else None
    return dec(found[0], 6) if found else None


def _log_source(log: LogOnRecord | None) -> str | None:
    """A verified figure's source is its log (an import skips such rows: they come from `bench import`)."""
    return f"log {log.label}" if log is not None else None


def _evidence(log: LogOnRecord | None) -> str | None:
    if log is None:
        return None
    return _("{tool} on {host}: {log}, sha256 {digest}…").format(
        tool=log.tool, host=log.host or "?", log=log.label, digest=log.sha256[:12]
    )


def findings(data: ExportData) -> Sheet:
    """The same findings as `bench check`, the offers table and the Benchmarks tab: one row each."""
    columns = [
        Column(_("provider"), 14),
        Column(_("offer"), 30),
        Column(_("severity"), 9),
        Column(_("code"), 18),
        Column(_("finding"), 40),
        Column(_("explanation"), 70),
        Column(_("evidence"), 70),
    ]

    def rows() -> Iterator[list[Any]]:
        for offer_id in sorted(data.findings):
            provider, offer = data.offer_key(offer_id)
            for f in data.findings[offer_id]:
                yield [provider, offer, f.severity.word, f.code.coded, f.title, f.explanation, "\n".join(f.evidence)]

    title = N_("Findings")
    return Sheet(title, columns, rows(), tab=sheet_tab(title))


def acceptance(data: ExportData) -> Sheet:
    """One row per checklist item: each contract's (its nodes, waivers, the day it was accepted), then each
    offer's with logs on record (as one node): the same checklist as `quotetui acceptance show`."""
    columns = [
        Column(_("contract"), 9),
        Column(_("offer"), 30),
        Column(_("nodes"), 6),
        Column(_("item"), 30),
        Column(_("status"), 11),
        Column(_("why"), 60),
        Column(_("evidence"), 50),
        Column(_("waived by"), 14),
        Column(_("waived on"), 11, DATE),
        Column(_("waiver"), 50),
        Column(_("accepted on"), 11, DATE),
    ]

    def rows() -> Iterator[list[Any]]:
        for state in data.acceptance:
            for item in state.items:
                w = item.waiver
                yield [
                    f"#{state.contract_id}" if state.contract_id is not None else "",
                    f"#{state.offer_id} {state.offer}",
                    state.nodes,
                    item.title,
                    item.status.word,
                    _("{reason} (was {status})").format(reason=item.reason, status=item.underlying.word)
                    if item.underlying
                    else item.reason,
                    clauses(item.evidence),
                    w.by_word if w else None,
                    w.on if w else None,
                    w.reason if w else None,
                    state.accepted_on,
                ]

    title = N_("Acceptance")
    return Sheet(title, columns, rows(), tab=sheet_tab(title))
