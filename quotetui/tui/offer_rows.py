"""The offers table's columns and rows, formatted from the engine's figures (no arithmetic here).

Money columns sort by exact integer keys (:func:`order_keys`: each figure's place among all the figures,
equal figures sharing one), computed with the rows in the loading worker: sorting 100,000 rows then
compares integers on the UI thread, never Fractions, and the order is the exact Fractions' order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from quotetui.domain.economics.display import money_number, stored_text
from quotetui.domain.economics.exact import pct, q
from quotetui.domain.economics.units import UNITS
from quotetui.domain.enums import Tone
from quotetui.language import N_, _
from quotetui.language.lists import listed
from quotetui.tui.widgets.virtual_table import Column, TableRow

if TYPE_CHECKING:
    from quotetui.domain.economics.evaluate import Evaluation
    from quotetui.services.market_view import MarketView, OfferRow


_COLUMNS: list[tuple[str, str, Literal["left", "right"], int]] = [
    ("rank", N_("Rank"), "right", 6),
    ("id", N_("ID"), "right", 5),
    ("provider", N_("Provider"), "left", 12),
    ("name", N_("Offer"), "left", 24),
    ("gpu", N_("GPU"), "left", 14),
    ("pflop", N_("{currency}/PFLOP-h"), "right", 12),
    ("gpu_hour", N_("{currency}/GPU-h"), "right", 11),
    ("tco", N_("TCO/yr"), "right", 16),
    ("price", N_("Price (own unit)"), "right", 24),
    ("billing", N_("Billing"), "left", 10),
    ("availability", N_("Avail."), "right", 8),
    ("verification", N_("Verif."), "left", 9),
    ("status", N_("Status"), "left", 12),
    ("valid_until", N_("Valid until"), "left", 11),
    ("config", N_("Configuration"), "left", 30),
    ("flags", N_("Flags"), "left", 40),
]
"""Each column: its key, its header (an English message id; ``{currency}``: the scenario's), alignment and most
cells."""


def columns(currency: str) -> list[Column]:
    """The columns, their headers in the language in use."""
    return [Column(key, _(label).format(currency=currency), align, width) for key, label, align, width in _COLUMNS]


KEYS = [column[0] for column in _COLUMNS]
"""Each column's key in order: a row's sort values and styles are found by key (``at("gpu")``), not by number."""


def at(key: str) -> int:
    return KEYS.index(key)


PENDING = N_("pending")
"""A cell whose figure is still being computed (the claims and findings come after the offers): in English, as
:func:`pending_of` says it (cells show it translated)."""
UNKNOWN = N_("unknown")
"""A cell whose figure could not be computed (the claims and findings failed; F5 tries again); likewise."""


def pending_of(view: MarketView) -> str | None:
    """What the claim- and finding-based cells show for ``view``: PENDING, UNKNOWN, or None (their figures)."""
    if view.cards_failed is not None:
        return UNKNOWN
    return None if view.cards_ready else PENDING


def cells_of(r: OfferRow, pending: str | None = None) -> list[str]:
    from quotetui.domain.economics.costing import base_option  # not before the first frame: a kept table
    from quotetui.domain.economics.explain import cost_text  # (tui/offer_preview.py) has its cells already

    o, e = r.offer, r.evaluation
    base = base_option(o.options)
    price = stored_text(base.amount, base.currency)
    if base.amount_high is not None:
        price += f"–{stored_text(base.amount_high, base.currency)}"
    price = f"{'~' if base.is_estimate else ''}{price} {base.currency}{_(UNITS[base.unit].short)}"
    availability = f"{pct(e.availability.value, 2)}{'' if e.availability.source == 'sla' else '*'}" if e else "—"
    return [
        (f"{r.rank}{'?' if e is not None and e.feasibility.questions else ''}")
        if r.rank is not None
        else ("✗" if e is not None else "—"),
        str(o.id),
        o.provider,
        o.name,
        o.gpu.name,
        cost_text(e, e.cost_per_pflop_hour, 2) if e else "—",
        money_number(e.price_per_gpu_hour, 2) if e else "—",
        cost_text(e, e.annualised_tco, 2) if e else "—",
        price,
        o.billing_basis.word.replace("_", "-"),
        availability,
        _(pending) if pending else r.verification_word,
        o.status.word,
        o.valid_until.isoformat() if o.valid_until else "",
        o.configuration,
        listed(flags_of(r, pending)) if e is not None else r.problem or _("not compared"),
    ]


def flags_of(r: OfferRow, pending: str | None = None) -> list[str]:
    """An offer's flags, as the offers table and compare show them: the CLI's (``OfferRow.flags``), then
    ``pending`` while the findings are being computed. Why an offer cannot run the scenario (or what to ask
    before it can) is its feasibility, said apart: the ✗ or N? rank, the note above the status line on the
    highlighted offer (``Feasibility.note``), compare's Feasible row and the offer's explanation. An offer that
    could not be compared at all has its reason in the table's flags cell (:func:`cells_of`), the only place."""
    return [*r.flags, _(pending)] if pending else r.flags


FIGURES: dict[str, Callable[[Evaluation], Fraction]] = {
    "pflop": lambda e: e.cost_per_pflop_hour,
    "gpu_hour": lambda e: e.price_per_gpu_hour,
    "tco": lambda e: e.annualised_tco,
    "price": lambda e: e.quoted_gpu_hour,
    "availability": lambda e: e.availability.value,
}
"""The columns that sort by an exact figure: through :func:`order_keys`, never by comparing Fractions."""


def order_keys(values: Sequence[Fraction | None]) -> list[int | None]:
    """Each value's place in the exact order of ``values`` (equal values share one; None stays None), so
    that sorting by the keys is sorting by the values. Floats order the values first: a Fraction's float is
    correctly rounded, hence never out of order, only possibly equal for unequal values; each run of equal
    floats is then ordered exactly."""
    present = [n for n, v in enumerate(values) if v is not None]
    floats = {n: float(values[n]) for n in present}  # type: ignore[arg-type]
    present.sort(key=floats.__getitem__)
    keys: list[int | None] = [None] * len(values)
    place, start, total = 0, 0, len(present)
    while start < total:
        end, here = start + 1, floats[present[start]]
        while end < total and floats[present[end]] == here:
            end += 1
        if end - start == 1:
            place += 1
            keys[present[start]] = place
        else:  # equal floats: ordered (and told apart) exactly
            run = sorted(present[start:end], key=values.__getitem__)  # type: ignore[arg-type]
            previous: Fraction | None = None
            for n in run:
                if previous is None or values[n] != previous:
                    place += 1
                    previous = values[n]
                keys[n] = place
        start = end
    return keys


def figure_keys(rows: Sequence[OfferRow], key: str) -> dict[int, int | None]:
    """Offer id → its exact place by the figure of column ``key`` (one of :data:`FIGURES`)."""
    figure = FIGURES[key]
    places = order_keys([figure(r.evaluation) if r.evaluation is not None else None for r in rows])
    return {r.offer.id: k for r, k in zip(rows, places, strict=True)}


def table_rows(rows: Sequence[OfferRow], pending: str | None = None) -> list[TableRow]:
    """The table's rows: each only points at its offer's row; what it shows, searches and sorts by is made
    when first asked (the visible page, a filter, a sort), so 100,000 rows are ready at once."""
    return [OfferTableRow(r, pending) for r in rows]


FLAGS, RANK = at("flags"), at("rank")


def table_row(r: OfferRow, pending: str | None = None) -> TableRow:
    return OfferTableRow(r, pending)


def _flags_value(t: OfferTableRow) -> str | None:
    return None if t.pending else listed(flags_of(t.row)) or None


PLAIN: dict[str, Callable[[OfferTableRow], object]] = {
    "rank": lambda t: t.row.rank,
    "id": lambda t: t.row.offer.id,
    "provider": lambda t: t.row.offer.provider,
    "name": lambda t: t.row.offer.name,
    "gpu": lambda t: t.row.offer.gpu.name,
    "billing": lambda t: t.row.offer.billing_basis.value,
    "verification": lambda t: None if t.pending else t.row.verification,
    "status": lambda t: t.row.offer.status.value,
    "valid_until": lambda t: t.row.offer.valid_until,
    "config": lambda t: t.row.offer.configuration,
    "flags": _flags_value,
}
"""The other columns' sort values, read straight from the offer's row (no tuple of every column made)."""


class OfferTableRow(TableRow):
    """One offer in the table, made lazily from its :class:`OfferRow`.

    ``sort`` holds the plain columns' values; the figure columns' are None there (they sort by
    :func:`figure_keys`), and so are the claim- and finding-based columns' while ``pending``."""

    __slots__ = ("_search", "_sort", "pending", "row")

    def __init__(self, row: OfferRow, pending: str | None = None) -> None:  # no TableRow.__init__: all lazy
        self.row, self.pending = row, pending
        self._search: str | None = None
        self._sort: tuple[object, ...] | None = None

    @property  # type: ignore[override]
    def key(self) -> int:
        return self.row.offer.id

    @property  # type: ignore[override]
    def cells(self) -> list[str]:
        return cells_of(self.row, self.pending)

    @property  # type: ignore[override]
    def search(self) -> str:
        if self._search is None:
            o = self.row.offer
            fields = (o.provider, o.name, o.gpu.name, o.configuration, o.status.value, o.billing_basis.value)
            self._search = " ".join((*fields, o.region or "")).lower()
        return self._search

    @property
    def facets(self) -> tuple[str | None, ...]:
        """What the GPU, kind and status filters pick by."""
        o = self.row.offer
        return o.gpu.name, o.provider_kind, o.status.value

    @property  # type: ignore[override]
    def sort(self) -> tuple[object, ...]:
        if self._sort is None:
            self._sort = tuple(PLAIN[k](self) if k in PLAIN else None for k in KEYS)
        return self._sort

    @property  # type: ignore[override]
    def style(self) -> str:
        e = self.row.evaluation
        return "" if e is not None and e.feasibility.ok else Tone.MUTED

    @property  # type: ignore[override]
    def styles(self) -> dict[int, str] | None:
        r = self.row
        e = r.evaluation
        error, warning = Tone.ERROR, Tone.WARNING
        if e is None:
            return {FLAGS: warning}
        out: dict[int, str] = {}
        if not e.feasibility.ok:
            out[RANK] = error
        elif e.feasibility.questions:
            out[RANK] = warning
        if self.pending:  # of the flags only a lapsed quote's ("! quote lapsed …") is known yet
            if r.lapsed and r.offer.valid_until is not None:
                out[FLAGS] = warning
        elif (tone := r.flags_tone) is not Tone.PLAIN:
            out[FLAGS] = error if tone is Tone.ERROR else warning
        return out or None


__all__ = [
    "FIGURES",
    "PENDING",
    "PLAIN",
    "UNKNOWN",
    "OfferTableRow",
    "at",
    "cells_of",
    "columns",
    "figure_keys",
    "flags_of",
    "order_keys",
    "pending_of",
    "q",
    "table_row",
    "table_rows",
]
