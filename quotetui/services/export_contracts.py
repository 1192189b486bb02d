"""The Contracts sheet: each contract's agreed terms, its charge, spend against the commitment, SLA credits,
invoice checks and its next key date (the same figures as `quotetui contracts` and the TUI), in the language in
use: its name, headers and words (the codes' words; data as typed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from quotetui.domain.economics.exact import dec, q
from quotetui.io.import_schema import sheet_tab
from quotetui.io.xlsx_write import DATE, INTEGER, MONEY, MONEY_FINE, PERCENT, Column, Sheet
from quotetui.language import N_, _, pgettext
from quotetui.services.export_data import ExportData


def contracts(data: ExportData) -> Sheet:
    columns = [
        Column(_("reference"), 16),
        Column(_("provider"), 14),
        Column(_("offer"), 30),
        Column(_("signed"), 11, DATE),
        Column(_("start"), 11, DATE),
        Column(_("end"), 11, DATE),
        Column(_("term months"), 8, INTEGER),
        Column(pgettext("how often a contract is invoiced", "billing"), 10),
        Column(_("notice days"), 8, INTEGER),
        Column(_("notice deadline"), 11, DATE),
        Column(_("auto-renew"), 9),
        Column(_("renewal months"), 9, INTEGER),
        Column(_("GPUs"), 6, INTEGER),
        Column(_("price"), 14, MONEY_FINE),
        Column(_("unit"), 12),
        Column(_("currency"), 8),
        Column(_("monthly charge"), 14, MONEY),
        Column(_("committed spend"), 14, MONEY),
        Column(_("prepayment"), 12, MONEY),
        Column(_("spent to date"), 14, MONEY),
        Column(_("of commitment"), 9, PERCENT),
        Column(_("SLA credits owed"), 12, MONEY),
        Column(_("credits received"), 12, MONEY),
        Column(_("incidents"), 8, INTEGER),
        Column(_("invoices off"), 8, INTEGER),
        Column(_("next key date"), 11, DATE),
        Column(_("next"), 30),
        Column(_("early termination"), 30),
        Column(_("accepted on"), 11, DATE),
    ]
    on = data.generated_at.date()

    def rows() -> Iterator[list[Any]]:
        for v in data.contracts:
            c = v.contract
            coming = sorted((k for k in v.dates if k.day >= on), key=lambda k: k.day)
            nxt = coming[0] if coming else None
            share = dec(q(v.invoiced) / q(c.committed_spend), 6) if c.committed_spend else None
            yield [
                c.reference,
                v.provider,
                v.offer,
                c.signed_date,
                c.start_date,
                c.end_date,
                c.term_months,
                c.billing_cadence.word,
                c.notice_days,
                v.notice_by,  # the running term's: a renewed contract's next deadline
                c.auto_renew,
                c.renewal_term_months,
                v.in_force.gpus,  # on the day of the export, as its monthly charge
                c.price,
                c.price_unit.word,
                c.currency,
                dec(v.monthly_charge, 2),
                c.committed_spend,
                c.prepayment,
                v.invoiced,  # to the export's day, as ``contracts show`` says it
                share,
                dec(v.credits_owed, 2),
                v.credits_received,
                len(v.incidents),
                len(v.invoices_off),
                nxt.day if nxt else None,
                nxt.told(nxt.word) if nxt else None,  # as the TUI says it
                c.early_termination,
                c.accepted_on,
            ]

    title = N_("Contracts")
    return Sheet(title, columns, rows(), tab=sheet_tab(title))
