"""The Contracts sheet: each contract's agreed terms, its charge, spend against the commitment, SLA credits,
invoice checks and its next key date (the same figures as `quotetui contracts` and the TUI)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from quotetui.domain.economics.exact import dec, q
from quotetui.io.xlsx_write import DATE, INTEGER, MONEY, MONEY_FINE, PERCENT, Column, Sheet
from quotetui.services.export_data import ExportData


def contracts(data: ExportData) -> Sheet:
    columns = [
        Column("reference", 16),
        Column("provider", 14),
        Column("offer", 30),
        Column("signed", 11, DATE),
        Column("start", 11, DATE),
        Column("end", 11, DATE),
        Column("term months", 8, INTEGER),
        Column("billing", 10),
        Column("notice days", 8, INTEGER),
        Column("notice deadline", 11, DATE),
        Column("auto-renew", 9),
        Column("renewal months", 9, INTEGER),
        Column("GPUs", 6, INTEGER),
        Column("price", 14, MONEY_FINE),
        Column("unit", 12),
        Column("currency", 8),
        Column("monthly charge", 14, MONEY),
        Column("committed spend", 14, MONEY),
        Column("prepayment", 12, MONEY),
        Column("spent to date", 14, MONEY),
        Column("of commitment", 9, PERCENT),
        Column("SLA credits owed", 12, MONEY),
        Column("credits received", 12, MONEY),
        Column("incidents", 8, INTEGER),
        Column("invoices off", 8, INTEGER),
        Column("next key date", 11, DATE),
        Column("next", 30),
        Column("early termination", 30),
        Column("accepted on", 11, DATE),
    ]
    on = data.generated_at.date()

    def rows() -> Iterator[list[Any]]:
        for v in data.contracts:
            c = v.contract
            coming = sorted((k for k in v.dates if k.day >= on), key=lambda k: k.day)
            nxt = coming[0] if coming else None
            share = dec(q(v.spend) / q(c.committed_spend), 6) if c.committed_spend else None
            yield [
                c.reference,
                v.provider,
                v.offer,
                c.signed_date,
                c.start_date,
                c.end_date,
                c.term_months,
                c.billing_cadence.value,
                c.notice_days,
                v.notice_by,  # the running term's: a renewed contract's next deadline
                c.auto_renew,
                c.renewal_term_months,
                c.gpu_count,
                c.price,
                c.price_unit.value,
                c.currency,
                dec(v.monthly_charge, 2),
                c.committed_spend,
                c.prepayment,
                v.spend,
                share,
                dec(v.credits_owed, 2),
                v.credits_received,
                len(v.incidents),
                len(v.invoices_off),
                nxt.day if nxt else None,
                (nxt.word + (f" — {nxt.detail}" if nxt.detail else "")) if nxt else None,  # as the TUI says it
                c.early_termination,
                c.accepted_on,
            ]

    return Sheet("Contracts", columns, rows())
