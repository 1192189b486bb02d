"""The comparison workbook's sheets, from the gathered data. Figures are the engine's, rounded once
(6 places) when written; the data sheets use the import template's headers, so the workbook imports back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.economics.caveats import Caveats, legend, number_format
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.display import sheet_format
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import dec
from quotetui.domain.money import plain
from quotetui.domain.timeutil import local_text
from quotetui.io.import_schema import sheet_tab
from quotetui.io.xlsx_write import (
    INTEGER,
    MONEY,
    MONEY_FINE,
    PERCENT,
    Column,
    Sheet,
    Styled,
)
from quotetui.language import N_, _
from quotetui.language.lists import clauses, listed, quoted
from quotetui.services.editing import credits_text
from quotetui.services.export_columns import data_row, figure_header, template_columns
from quotetui.services.export_data import ExportData


def d(value: Fraction | None, places: int = 6) -> Decimal | None:
    return None if value is None else dec(value, places)


# -- Summary -----------------------------------------------------------------------------------------------
def summary(data: ExportData) -> Sheet:
    cur = data.currency
    money = sheet_format(2, cur)
    columns = [
        Column(_("rank"), 6, INTEGER),
        Column(_("id"), 6, INTEGER),
        Column(_("provider"), 14),
        Column(_("offer"), 30),
        Column(_("GPU"), 15),
        Column(_("cost per delivered PFLOP-hour ({currency})").format(currency=cur), 16, money),
        Column(_("price per GPU-hour ({currency})").format(currency=cur), 14, money),
        Column(_("all-in per used GPU-hour ({currency})").format(currency=cur), 14, money),
        Column(_("annualised TCO ({currency})").format(currency=cur), 16, money),
        Column(_("monthly cost ({currency})").format(currency=cur), 15, money),
        Column(_("MFU"), 8, PERCENT),
        Column(_("MFU source"), 10),
        Column(_("availability"), 11, PERCENT),
        Column(_("downtime h/yr"), 10, sheet_format(1)),
        Column(_("per PFLOP-hour if the claims hold ({currency})").format(currency=cur), 16, money),
        Column(_("buy as"), 18),
        Column(_("feasible"), 9),
        Column(_("flags"), 30),
    ]
    lows, highs = data.ranking.lows, data.ranking.highs  # among the confirmed offers

    def rows() -> Iterator[list[Any]]:
        for rank, e in data.ranking.ranked:
            ok = e.feasibility.confirmed
            caveats = data.caveats(e)
            formats = {key: number_format(caveats, money) for key in _COSTS}  # ≥ ~ … ✗ ! around the number
            formats["gpu_hour"] = number_format(caveats.of_price, money)

            def mark(key: str, value: Fraction, ok: bool = ok, formats: dict[str, str] = formats) -> Styled:
                best = ok and (value == lows.get(key) or value == highs.get(key))
                return Styled(d(value), formats.get(key), best=best)

            yield [
                rank,
                e.offer.id,
                e.offer.provider,
                e.offer.name,
                e.offer.gpu.name,
                mark("pflop", e.cost_per_pflop_hour),
                mark("gpu_hour", e.price_per_gpu_hour),
                mark("all_in", e.cost_per_gpu_hour),
                mark("tco", e.annualised_tco),
                mark("monthly", e.best.monthly),
                mark("mfu", e.effective_mfu),
                e.mfu.source_word,
                mark("availability", e.availability.value),
                mark("downtime", e.downtime_hours_per_year),
                None  # unverified claims as stated: never ranked on, never green
                if e.if_claims_hold is None
                else Styled(d(e.if_claims_hold), formats["pflop"]),
                e.best.shown,
                e.feasibility.words,
                listed(caveats.flags()),
            ]

    title = _(
        "Offers ranked for scenario {scenario} by cost per delivered PFLOP-hour; "
        "best value of each column in green (confirmed offers); marks on a figure: {legend}"
    ).format(scenario=quoted(data.scenario_name), legend=legend())
    summary = N_("Summary")
    return Sheet(summary, columns, rows(), preamble=[[Styled(title, bold=True)], []], tab=sheet_tab(summary))


_COSTS = ("pflop", "all_in", "tco", "monthly")
"""The Summary's cost columns: every caveat's mark shows on them."""


# -- Offers --------------------------------------------------------------------------------------------------
def offers(data: ExportData) -> Sheet:
    cur = data.currency

    def said(header: str) -> str:
        return figure_header(E.OFFER, header, currency=cur)

    computed = [
        Column(said(N_("id")), 6, INTEGER),
        Column(said(N_("rank")), 6, INTEGER),
        Column(said(N_("quoted price")), 14, MONEY_FINE),
        Column(said(N_("quoted price high")), 14, MONEY_FINE),
        Column(said(N_("quoted unit")), 12),
        Column(said(N_("quoted currency")), 9),
        Column(said(N_("quoted per GPU-hour (own currency)")), 14, MONEY_FINE),
        Column(said(N_("effective price per GPU-hour ({currency})")), 14, MONEY_FINE),
        Column(said(N_("monthly cost ({currency})")), 14, MONEY),
        Column(said(N_("total for the scenario ({currency})")), 15, MONEY),
        Column(said(N_("annualised TCO ({currency})")), 15, MONEY),
        Column(said(N_("all-in per used GPU-hour ({currency})")), 14, MONEY_FINE),
        Column(said(N_("cost per delivered PFLOP-hour ({currency})")), 15, MONEY_FINE),
        Column(said(N_("MFU")), 8, PERCENT),
        Column(said(N_("MFU source")), 10),
        Column(said(N_("availability")), 11, PERCENT),
        Column(said(N_("availability source")), 10),
        Column(said(N_("downtime h/yr")), 10, sheet_format(1)),
        Column(said(N_("cheapest way to buy")), 18),
        Column(said(N_("feasible")), 8),
        Column(said(N_("blocking")), 30),
        Column(said(N_("unknown costs")), 30),
        Column(said(N_("not compared because")), 30),
    ]
    columns = template_columns(E.OFFER, {"name": 30, "notes": 30}) + computed
    skipped = {o.id: why for o, why in data.ranking.skipped}
    current = _current_prices(data)

    def rows() -> Iterator[list[Any]]:
        ranks = data.ranking.ranks()
        evaluations = _InIdOrder(data)
        for o in data.offers:
            assert o.id is not None
            refs = {
                "provider": data.provider_names.get(o.provider_id, ""),
                "gpu": data.gpu_names.get(o.gpu_model_id, ""),
                "source": data.sources.get(o.source_id or 0),
            }
            facts = data_row(E.OFFER, (o,), refs)
            e = evaluations.get(o.id)
            rank = ranks.get(o.id)
            price = current.get(o.id)
            figures: list[Any] = [o.id, rank]
            figures += [price.amount, price.amount_high, price.unit.value, price.currency] if price else [None] * 4
            if e is not None:
                figures += [
                    d(e.quoted_gpu_hour),
                    d(e.price_per_gpu_hour),
                    d(e.best.monthly),
                    d(e.best.total),
                    d(e.annualised_tco),
                    d(e.cost_per_gpu_hour),
                    d(e.cost_per_pflop_hour),
                    d(e.effective_mfu),
                    e.mfu.source_word,
                    d(e.availability.value),
                    e.availability.source_word,
                    d(e.downtime_hours_per_year, 2),
                    e.best.shown,
                    e.feasibility.ok,
                    clauses(e.feasibility.blocking),
                    clauses(e.unknowns),
                    None,
                ]
            else:
                figures += [None] * (len(computed) - 7) + [skipped[o.id] if o.id in skipped else _("no price recorded")]
            yield facts + figures

    return Sheet("Offers", columns, rows())


class _InIdOrder:
    """The evaluations read in offer-id order, alongside rows in that order (the Offers and Negotiation sheets):
    one at a time."""

    def __init__(self, data: ExportData) -> None:
        self._each = data.ranking.by_id()
        self._next: Evaluation | None = next(self._each, None)

    def get(self, offer_id: int) -> Evaluation | None:
        """``offer_id``'s evaluation (None if it has none); ids asked for in ascending order."""
        while self._next is not None and self._next.offer.id < offer_id:
            self._next = next(self._each, None)
        if self._next is not None and self._next.offer.id == offer_id:
            return self._next
        return None


def _current_prices(data: ExportData) -> dict[int, Any]:
    """The headline price of each offer's current round."""
    return {offer_id: price for offer_id, (_, price) in data.current.items()}


# -- Side by side ------------------------------------------------------------------------------------------
def side_by_side(data: ExportData) -> Sheet:
    wanted = set(data.pinned)
    chosen = data.ranking.of(i for i in data.ranking.order if i in wanted) or data.ranking.evaluations[:4]
    cur = data.currency
    columns = [Column(_("figure"), 34)] + [Column(f"#{e.offer.id} {e.offer.provider}", 22) for e in chosen]
    # each figure's label is an English message id, shown in the language in use with the scenario's currency
    figures: list[tuple[str, Any, str | None, str]] = [
        (N_("offer"), lambda e: e.offer.name, None, ""),
        (N_("GPU"), lambda e: e.offer.gpu.name, None, ""),
        (N_("configuration"), lambda e: e.offer.configuration, None, ""),
        (N_("quoted"), lambda e: _quoted(e), None, ""),
        (N_("cheapest way to buy"), lambda e: e.best.shown, None, ""),
        (N_("cost per delivered PFLOP-hour ({currency})"), lambda e: e.cost_per_pflop_hour, MONEY, "low"),
        (_PRICE, lambda e: e.price_per_gpu_hour, MONEY, "low"),
        (N_("all-in per used GPU-hour ({currency})"), lambda e: e.cost_per_gpu_hour, MONEY, "low"),
        (N_("annualised TCO ({currency})"), lambda e: e.annualised_tco, MONEY, "low"),
        (N_("monthly cost ({currency})"), lambda e: e.best.monthly, MONEY, "low"),
        (N_("MFU"), lambda e: e.effective_mfu, PERCENT, "high"),
        (N_("availability"), lambda e: e.availability.value, PERCENT, "high"),
        (N_("downtime hours a year"), lambda e: e.downtime_hours_per_year, sheet_format(1), "low"),
        (N_("per PFLOP-hour if the claims hold ({currency})"), lambda e: e.if_claims_hold, MONEY, "claims"),
        (N_("feasible"), lambda e: e.feasibility.words, None, ""),
    ]

    caveats = [data.caveats(e) for e in chosen]

    def shown(fmt: str | None, label: str, c: Caveats) -> str | None:
        if fmt != MONEY:
            return fmt
        return number_format(c.of_price if label == _PRICE else c, MONEY)  # ≥ ~ … ✗ ! around it

    def rows() -> Iterator[list[Any]]:
        for label, value, fmt, better in figures:
            values = [value(e) for e in chosen]
            said = _(label).format(currency=cur)
            if not better:
                yield [said, *values]
                continue
            if better == "claims":  # a second figure: never ranked on, never green; none without a claim
                yield [
                    said,
                    *(
                        _("no unverified claim") if v is None else Styled(d(v), shown(fmt, label, c))
                        for v, c in zip(values, caveats, strict=True)
                    ),
                ]
                continue
            best = (min(values) if better == "low" else max(values)) if len(set(values)) > 1 else None
            yield [
                said,
                *(Styled(d(v), shown(fmt, label, c), best=v == best) for v, c in zip(values, caveats, strict=True)),
            ]
        none = _("none")
        yield [_("caveats"), *(clauses(c.words(e.offer.id)) or none for e, c in zip(chosen, caveats, strict=True))]

    if data.pinned:
        title = _("pinned offers for scenario {scenario}; better value in green; marks: {legend}")
    else:
        title = _("top 4 offers for scenario {scenario}; better value in green; marks: {legend}")
    side_by_side = N_("Side by side")
    return Sheet(
        side_by_side,
        columns,
        rows(),
        preamble=[
            [Styled(title.format(scenario=quoted(data.scenario_name), legend=legend()), bold=True)],
            [],
        ],
        autofilter=False,
        tab=sheet_tab(side_by_side),
    )


_PRICE = N_("effective price per GPU-hour ({currency})")
"""Side by side's one price among its costs: nothing is left out of a price, so it is never a lower bound."""


def _quoted(e: Evaluation) -> str:
    o = base_option(e.offer.options)
    high = f"–{plain(o.amount_high)}" if o.amount_high is not None else ""
    return _("{amount} {currency} per {unit}").format(
        amount=f"{plain(o.amount)}{high}", currency=o.currency, unit=o.unit.value.replace("_", "-")
    )


# -- data sheets in the template's format --------------------------------------------------------------------
def negotiation(data: ExportData) -> Sheet:
    columns = template_columns(E.REVISIONS, {"offer": 30, "note": 30}) + [
        Column(figure_header(E.REVISIONS, N_("saved vs first")), 10, PERCENT),
        Column(figure_header(E.REVISIONS, N_("saved vs list")), 10, PERCENT),
        Column(figure_header(E.REVISIONS, N_("BATNA")), 30),
        Column(figure_header(E.REVISIONS, N_("target price (same unit)")), 14, MONEY),
        Column(figure_header(E.REVISIONS, N_("target vs current")), 10, PERCENT),
    ]
    current = {offer_id: seq for offer_id, (seq, _) in data.current.items()}
    held: list[Any] = [None, None]  # the offer whose position was made last, and that position

    def rows() -> Iterator[list[Any]]:
        evaluations = _InIdOrder(data)
        for rev, price in data.rounds:
            provider, offer = data.offer_key(rev.offer_id)
            refs = {
                "provider": provider,
                "offer": offer,
                "source": data.sources.get(rev.source_id or 0),
                "round_note": rev.note,
                "round_is_estimate": rev.is_estimate,
                "quoted_at": rev.quoted_at,
            }
            row: list[Any] = data_row(E.REVISIONS, (price, rev), refs, data.ranking.assumptions.time_zone)
            position = None
            if current.get(rev.offer_id) == rev.seq:  # every option of the current round, in its own unit
                if held[0] != rev.offer_id:  # a round's options are consecutive rows
                    e = evaluations.get(rev.offer_id)
                    held[:] = [rev.offer_id, None if e is None else data.position(e)]
                position = held[1]
            if position is not None:
                b = position.batna
                here = (price.term_months, price.unit)
                p = next((p for p in position.options if (p.option.term_months, p.option.unit) == here), None)
                t = p.target if p else None
                row += [
                    d(p.vs_first) if p and p.vs_first is not None else None,
                    d(p.vs_list) if p and p.vs_list is not None else None,
                    f"#{b.offer.id} {b.offer.provider} {b.offer.name}" if b else None,
                    t.amount if t else None,
                    d(-t.cut) if t else None,
                ]
            yield row

    return Sheet("Negotiation", columns, rows())


def scenarios(data: ExportData) -> Sheet:
    """Every scenario, as the importer reads it back (the default one marked): a workbook imported into a fresh
    database compares offers for the same needs."""
    rows = (
        data_row(E.SCENARIO, (s,), {"gpu": data.gpu_names.get(s.gpu_model_id or 0), "default": s.is_default})
        for s in data.scenarios
    )
    return Sheet("Scenarios", template_columns(E.SCENARIO, {"name": 24, "description": 40}), rows)


def settings(data: ExportData) -> Sheet:
    """The assumptions the figures rest on, one row, as the importer reads them back (a fresh database takes
    them; ``import_writer.settings_``). The display time zone only where it is set: else each machine's own."""
    from types import SimpleNamespace

    from quotetui.services.engine_inputs import system_zone
    from quotetui.services.settings import field_value

    a = data.ranking.assumptions
    values = {f.name: field_value(getattr(a, f.name)) for f in E.SETTINGS.fields}
    values["time_zone"] = a.time_zone if a.time_zone != system_zone() else None
    row = data_row(E.SETTINGS, (SimpleNamespace(**values),), {})
    return Sheet("Settings", template_columns(E.SETTINGS, {"resale_curve": 40, "time_zone": 20}), iter([row]))


def purchases(data: ExportData) -> Sheet:
    """Every purchase option (the buy side of rent vs buy), as the importer reads it back."""

    def refs(p: Any) -> dict[str, Any]:
        return {"gpu": data.gpu_names.get(p.gpu_model_id), "source": data.sources.get(p.source_id or 0)}

    rows = (data_row(E.PURCHASE, (p,), refs(p)) for p in data.purchases)
    return Sheet("Purchase options", template_columns(E.PURCHASE, {"name": 24, "notes": 40}), rows)


def providers(data: ExportData) -> Sheet:
    rows = (data_row(E.PROVIDER, (p,), {}) for p in data.providers)
    return Sheet("Providers", template_columns(E.PROVIDER, {"name": 16, "certifications": 40}), rows)


def _offer_refs(data: ExportData, row: Any) -> dict[str, Any]:
    provider, offer = data.offer_key(row.offer_id)
    return {"provider": provider, "offer": offer, "source": data.sources.get(row.source_id or 0)}


def discounts(data: ExportData) -> Sheet:
    rows = (data_row(E.DISCOUNT, (x,), _offer_refs(data, x)) for x in data.discounts)
    return Sheet("Discounts", template_columns(E.DISCOUNT, {"offer": 30, "description": 40}), rows)


def extras(data: ExportData) -> Sheet:
    rows = (data_row(E.EXTRA, (x,), _offer_refs(data, x)) for x in data.extras)
    return Sheet("Extra costs", template_columns(E.EXTRA, {"offer": 30, "description": 40}), rows)


def sla(data: ExportData) -> Sheet:
    downtime_column = Column(figure_header(E.SLA, N_("downtime h/yr")), 10, sheet_format(1))
    columns = template_columns(E.SLA, {"offer": 30, "notes": 40}) + [downtime_column]
    downtime = data.ranking.downtime
    rows = (
        [
            *data_row(E.SLA, (s,), _offer_refs(data, s) | {"credits": credits_text(tiers) or None}),
            d(downtime.get(s.offer_id), 2),
        ]
        for s, tiers in data.slas
    )
    return Sheet("SLA", columns, rows)


def fx(data: ExportData) -> Sheet:
    rows = (data_row(E.FX, (r,), {}) for r in data.fx)
    return Sheet("FX rates", template_columns(E.FX, {"source": 30}), rows)


def history(data: ExportData) -> Sheet:
    """The audit trail, oldest first (``store/audit.py``), one row per value changed, an entry's rows sharing
    its number: times as exact text in UTC, offers by name (ids do not survive an import), each value as JSON
    (so text, numbers and nothing stay apart); ``import_history`` reads it back."""
    references = {v.id: v.contract.reference or f"#{v.id}" for v in data.contracts}

    def rows(h: Any) -> Iterator[list[Any]]:
        provider, offer = data.offer_key(h.offer_id)
        refs = {
            "entry": h.id,
            "at": local_text(h.at, "UTC"),
            "provider": provider or None,
            "offer": offer or None,
            "contract": references.get(h.contract_id) or (f"#{h.contract_id}" if h.contract_id else None),
        }
        for column, (before, after) in (h.changes or {"": [None, None]}).items():
            values = {"column": column or None, "before": _json(before), "after": _json(after)}
            yield data_row(E.HISTORY, (h,), refs | values)

    widths = {"at": 26, "via": 30, "offer": 30, "subject": 30, "column": 24, "before": 30, "after": 30}
    return Sheet("History", template_columns(E.HISTORY, widths), (row for h in data.history for row in rows(h)))


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)
