"""The offers table's columns and rows, formatted from the engine's figures (no arithmetic here)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.exact import dec, pct, q
from quotetui.domain.economics.explain import cost_text
from quotetui.domain.money import Money
from quotetui.tui.widgets.virtual_table import Column, TableRow

if TYPE_CHECKING:
    from quotetui.services.market_view import OfferRow

UNIT_SHORT = {
    "gpu_hour": "/GPU-h",
    "node_hour": "/node-h",
    "gpu_month": "/GPU-mo",
    "node_month": "/node-mo",
    "term_total": "/term",
}


def columns(currency: str) -> list[Column]:
    return [
        Column("rank", "Rank", "right", 6),
        Column("id", "ID", "right", 5),
        Column("provider", "Provider", max_width=12),
        Column("name", "Offer", max_width=24),
        Column("gpu", "GPU", max_width=14),
        Column("pflop", f"{currency}/PFLOP-h", "right", 12),
        Column("gpu_hour", f"{currency}/GPU-h", "right", 11),
        Column("tco", "TCO/yr", "right", 16),
        Column("price", "Price (own unit)", "right", 24),
        Column("billing", "Billing", max_width=10),
        Column("availability", "Avail.", "right", 8),
        Column("verification", "Verif.", max_width=9),
        Column("status", "Status", max_width=12),
        Column("valid_until", "Valid until", max_width=11),
        Column("config", "Configuration", max_width=30),
        Column("flags", "Flags", max_width=40),
    ]


KEYS = [c.key for c in columns("")]
"""Each column's key in order: a row's sort values and styles are found by key (``at("gpu")``), not by number."""


def at(key: str) -> int:
    return KEYS.index(key)


def cells(r: OfferRow) -> list[str]:
    o, e = r.offer, r.evaluation
    base = base_option(o.options)
    price = Money(base.amount, base.currency).display()
    if base.amount_high is not None:
        price += f"–{Money(base.amount_high, base.currency).display()}"
    price = f"{'~' if base.is_estimate else ''}{price} {base.currency}{UNIT_SHORT[base.unit.value]}"
    availability = f"{pct(e.availability.value, 2)}{'' if e.availability.source == 'sla' else '*'}" if e else "—"
    return [
        str(r.rank) if r.rank is not None else ("✗" if e is not None else "—"),
        str(o.id),
        o.provider,
        o.name,
        o.gpu.name,
        cost_text(e, e.cost_per_pflop_hour, 2) if e else "—",
        f"{dec(e.price_per_gpu_hour, 2):,}" if e else "—",
        cost_text(e, e.annualised_tco, 2) if e else "—",
        price,
        o.billing_basis.value.replace("_", "-"),
        availability,
        r.verification,
        o.status.value,
        o.valid_until.isoformat() if o.valid_until else "",
        o.configuration,
        ", ".join(flags_of(r)),
    ]


def flags_of(r: OfferRow) -> list[str]:
    """The Flags cell: why an offer is not ranked comes first (the blocking reasons, or why it cannot be
    compared at all), then the findings."""
    e = r.evaluation
    if e is None:
        return [r.problem or "not compared"]
    if not e.feasibility.ok:
        return [f"✗ {'; '.join(e.feasibility.blocking)}", *(f for f in r.flags if f != "blocked")]
    return r.flags


def table_row(r: OfferRow) -> TableRow:
    """A row whose cells are formatted only when drawn; sort values are the engine's own figures."""
    o, e = r.offer, r.evaluation
    flags = flags_of(r)
    sort = (
        r.rank,
        o.id,
        o.provider,
        o.name,
        o.gpu.name,
        e.cost_per_pflop_hour if e else None,
        e.price_per_gpu_hour if e else None,
        e.annualised_tco if e else None,
        e.quoted_gpu_hour if e else None,
        o.billing_basis.value,
        e.availability.value if e else None,
        r.verification,
        o.status.value,
        o.valid_until,
        o.configuration,
        ", ".join(flags) or None,
    )
    search = " ".join(
        (o.provider, o.name, o.gpu.name, o.configuration, o.status.value, o.billing_basis.value, o.region or "")
    ).lower()
    style = "" if e is not None and e.feasibility.ok else "dim"
    styles = None
    if e is None:
        styles = {at("flags"): "yellow"}
    elif not e.feasibility.ok:
        styles = {at("rank"): "bold red", at("flags"): "bold red"}
    elif r.critical or any("impossible" in f for f in flags):
        styles = {at("flags"): "bold red"}
    elif any(f.startswith("!") or "optimistic" in f for f in flags):
        styles = {at("flags"): "yellow"}
    return TableRow(o.id, None, sort, search, style, styles, make=partial(cells, r))


__all__ = ["at", "cells", "columns", "flags_of", "q", "table_row"]
