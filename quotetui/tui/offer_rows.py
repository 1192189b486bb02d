"""The offers table's columns and rows, formatted from the engine's figures (no arithmetic here).

Money columns sort by exact integer keys (:func:`order_keys`: each figure's place among all the figures,
equal figures sharing one), computed with the rows in the loading worker: sorting 100,000 rows then
compares integers on the UI thread, never Fractions, and the order is the exact Fractions' order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.exact import dec, pct, q
from quotetui.domain.economics.explain import cost_text
from quotetui.domain.money import Money
from quotetui.tui.widgets.virtual_table import Column, TableRow

if TYPE_CHECKING:
    from quotetui.domain.economics.evaluate import Evaluation
    from quotetui.services.market_view import MarketView, OfferRow

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


PENDING = "pending"
"""A cell whose figure is still being computed (the claims and findings come after the offers)."""
UNKNOWN = "unknown"
"""A cell whose figure could not be computed (the claims and findings failed; F5 tries again)."""


def pending_of(view: MarketView) -> str | None:
    """What the claim- and finding-based cells show for ``view``: PENDING, UNKNOWN, or None (their figures)."""
    if view.cards_failed is not None:
        return UNKNOWN
    return None if view.cards_ready else PENDING


def cells_of(r: OfferRow, pending: str | None = None) -> list[str]:
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
        pending or r.verification,
        o.status.value,
        o.valid_until.isoformat() if o.valid_until else "",
        o.configuration,
        ", ".join(flags_of(r, pending)),
    ]


def flags_of(r: OfferRow, pending: str | None = None) -> list[str]:
    """The Flags cell: why an offer is not ranked comes first (the blocking reasons, or why it cannot be
    compared at all), then the findings (``pending`` in their place while they are being computed)."""
    e = r.evaluation
    if e is None:
        return [r.problem or "not compared"]
    flags = [*r.flags, pending] if pending else r.flags
    if not e.feasibility.ok:
        return [f"✗ {'; '.join(e.feasibility.blocking)}", *(f for f in flags if f != "blocked")]
    return flags


def order_keys(values: Sequence[Fraction | None]) -> list[int | None]:
    """Each value's place in the exact order of ``values`` (equal values share one; None stays None), so
    that sorting by the keys is sorting by the values. Floats order the values first: a Fraction's float is
    correctly rounded, hence never out of order, only possibly equal for unequal values; each run of equal
    floats is then ordered exactly."""
    present = [(float(v), v, n) for n, v in enumerate(values) if v is not None]
    present.sort(key=lambda t: t[0])
    keys: list[int | None] = [None] * len(values)
    place, start, total = 0, 0, len(present)
    while start < total:
        end = start + 1
        while end < total and present[end][0] == present[start][0]:
            end += 1
        run = present[start:end]
        if end - start > 1:
            run.sort(key=lambda t: t[1])  # exact, only among values whose floats are equal
        previous: Fraction | None = None
        for _, value, n in run:
            if previous is None or value != previous:
                place += 1
                previous = value
            keys[n] = place
        start = end
    return keys


def table_rows(rows: Sequence[OfferRow], pending: str | None = None) -> list[TableRow]:
    """The table's rows, with exact integer sort keys for the money columns (run in the loading worker)."""
    figures: dict[str, Callable[[Evaluation], Fraction]] = {
        "pflop": lambda e: e.cost_per_pflop_hour,
        "gpu_hour": lambda e: e.price_per_gpu_hour,
        "tco": lambda e: e.annualised_tco,
        "price": lambda e: e.quoted_gpu_hour,
        "availability": lambda e: e.availability.value,
    }
    keys = {
        key: order_keys([figure(r.evaluation) if r.evaluation is not None else None for r in rows])
        for key, figure in figures.items()
    }
    return [table_row(r, pending, {key: column[n] for key, column in keys.items()}) for n, r in enumerate(rows)]


def table_row(r: OfferRow, pending: str | None = None, keys: dict[str, int | None] | None = None) -> TableRow:
    """A row whose cells are formatted only when drawn. Sort values are the engine's own figures, or their
    exact integer places among all rows (``keys``, from :func:`table_rows`); columns still ``pending`` sort
    as missing."""
    o, e = r.offer, r.evaluation
    flags = flags_of(r, pending)

    def figure(key: str, value: Callable[[Evaluation], Fraction]) -> Fraction | int | None:
        if keys is not None:
            return keys[key]
        return value(e) if e is not None else None

    sort = (
        r.rank,
        o.id,
        o.provider,
        o.name,
        o.gpu.name,
        figure("pflop", lambda e: e.cost_per_pflop_hour),
        figure("gpu_hour", lambda e: e.price_per_gpu_hour),
        figure("tco", lambda e: e.annualised_tco),
        figure("price", lambda e: e.quoted_gpu_hour),
        o.billing_basis.value,
        figure("availability", lambda e: e.availability.value),
        None if pending else r.verification,
        o.status.value,
        o.valid_until,
        o.configuration,
        None if pending else (", ".join(flags) or None),
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
    return TableRow(o.id, None, sort, search, style, styles, make=partial(cells_of, r, pending))


__all__ = [
    "PENDING",
    "UNKNOWN",
    "at",
    "cells_of",
    "columns",
    "flags_of",
    "order_keys",
    "pending_of",
    "q",
    "table_row",
    "table_rows",
]
