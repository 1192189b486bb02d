"""The comparison matrix of an RFQ (issue 17, point 3), built once as values: a row per requirement line and
per figure, a column per answer or offer on record (``services/rfq.py: show_rfq`` orders them: the answers,
then the compliant ones by rank, then the rest). The command line (``rfq show``) and the Sourcing screen show
the cells as text (:func:`cell_text`); the workbook (``rfq show --out``) writes amounts as numbers.

A non-compliant offer has a column but no rank; an offer that cannot be costed in the requirement's currency
says why in its money rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats, figure_text
from quotetui.domain.enums import OfferStatus
from quotetui.language import _
from quotetui.language.lists import clauses
from quotetui.services.rfq_views import MATRIX_FIGURES, MATRIX_LISTS, OfferFit

SIDE_BY_SIDE = 8
"""Answers and offers shown side by side on the command line (the answers first, then the ranked ones);
``--json`` and the workbook have every one."""


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount of money in the requirement's currency, with what qualifies it (``caveats.py``)."""

    value: Fraction
    caveats: Caveats = NO_CAVEATS

    @property
    def at_least(self) -> bool:
        """A cost the need incurs is not priced."""
        return self.caveats.lower_bound


Cell = str | int | Amount


@dataclass(frozen=True, slots=True)
class MatrixRow:
    label: str
    cells: tuple[Cell, ...]  # one per offer, in the offers' order


def rank_cell(o: OfferFit) -> Cell:
    """The rank, or why there is none: not compliant, or compliant but not costed (—). An offer with a line not
    confirmed (?) ranks "if confirmed", as the award takes it: never inside the headline award."""
    if not o.rank:
        if not o.compliant:
            return _("not compliant")
        return OfferStatus(o.closed).word if o.closed else "—"  # a closed offer's status: why it has no rank
    return o.rank if o.confirmed else _("{rank} if confirmed").format(rank=o.rank)  # as the award qualifies it


def matrix_rows(offers: Sequence[OfferFit], currency: str) -> list[MatrixRow]:
    """Every row of the comparison for ``offers`` (all judged against the same requirement)."""

    def figure(o: OfferFit, name: str) -> Cell:
        if o.figures is None:
            return o.problem or ""
        caveats = o.figures.caveats
        return Amount(getattr(o.figures, name), caveats if name != "price_per_gpu_hour" else caveats.of_price)

    def at_least(o: OfferFit) -> str:
        return "" if o.figures is None else (_("yes") if o.figures.lower_bound else _("no"))

    rows = [
        MatrixRow("rank / 排名", tuple(rank_cell(o) for o in offers)),
        MatrixRow("offer / 方案", tuple(o.offer for o in offers)),
        MatrixRow("from / 来源", tuple(_("answer") if o.answered else _("on record") for o in offers)),
    ]
    if offers:
        for n, verdict in enumerate(offers[0].verdicts):
            rows.append(MatrixRow(verdict.line, tuple(f"{o.verdicts[n].met.mark} {o.verdicts[n].why}" for o in offers)))
    if any(o.doubts for o in offers):  # a firm, current quote: what makes a compliant offer "if confirmed" too
        rows.append(MatrixRow("quote / 报价", tuple(clauses(f"? {v.why}" for v in o.doubts) or "✓" for o in offers)))
    rows += [
        MatrixRow(
            _("{figure} ({currency})").format(figure=_(label), currency=currency),
            tuple(figure(o, name) for o in offers),
        )
        for label, name in MATRIX_FIGURES
    ]
    rows.append(MatrixRow(_("at least (a cost not priced)"), tuple(at_least(o) for o in offers)))
    rows += [
        MatrixRow(_(label), tuple(clauses(getattr(o.figures, name)) if o.figures is not None else "" for o in offers))
        for label, name in MATRIX_LISTS
    ]
    return rows


def cell_text(cell: Cell) -> str:
    """A cell for people: an amount to the cent with thousands separators and its caveats' marks (``≥ ~… ✗!``;
    the row's label names the currency), rounded half-even for display only."""
    if isinstance(cell, Amount):
        return figure_text(cell.value, cell.caveats, money=True)
    return str(cell)
