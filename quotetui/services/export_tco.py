"""The workbook's live sheets: TCO (each offer's breakdown as formulas over an assumptions block) and
Rent vs buy (inputs, the monthly cumulative table as formulas, a chart). Change an assumption in Excel
and everything recalculates; with the assumptions untouched the formulas give the app's figures."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.assumptions import GB_PER_TB, SCALING_BY_FABRIC
from quotetui.domain.economics.billing import EXTRA_RULES, Usage
from quotetui.domain.economics.costing import TIERED, OptionCost, discount_applies, mixed_ways
from quotetui.domain.economics.evaluate import Evaluation
from quotetui.domain.economics.exact import dec
from quotetui.domain.economics.inputs import PriceOption
from quotetui.domain.economics.ownership import ResaleCurve
from quotetui.domain.economics.units import UNITS
from quotetui.domain.enums import DiscountKind, ExtraBasis
from quotetui.domain.fx import FxQuote, FxRateFact
from quotetui.domain.money import plain
from quotetui.io.import_schema import sheet_tab
from quotetui.io.xlsx_write import (
    INTEGER,
    MONEY,
    MONEY_FINE,
    NUMBER,
    PERCENT,
    Column,
    Formula,
    LineChartSpec,
    Sheet,
    Styled,
)
from quotetui.language import N_, _
from quotetui.language.lists import quoted
from quotetui.services.export_data import ExportData

INPUTS = ("hours", "months", "gpus", "use", "egress", "storage", "gb_tb", "mfu", "availability", "net_vat")
"""The assumptions block, column B from row 3, by name (``tco`` writes it in this order and checks it)."""
HOURS, MONTHS, GPUS, USE, EGRESS, STORAGE, GB_TB, MFU, AVAIL, NET_VAT = (f"$B${3 + i}" for i in range(len(INPUTS)))
FX_HEADER_ROW = 3 + len(INPUTS) + 1

COLUMNS = (
    "id", "provider", "offer", "gpu", "tflops", "gpus_per_node", "way", "term", "by_use", "quoted", "unit",
    "currency", "list", "discount", "fx", "nodes", "months_paid", "use", "compute", "extras", "one_off", "total",
    "tco", "per_gpu_hour", "mfu", "availability", "per_pflop_hour",
)  # fmt: skip
"""The TCO sheet's columns by name, in order: every formula names its cells by them (:class:`Cells`)."""


def _letter(n: int) -> str:
    out = ""
    while n:
        n, rest = divmod(n - 1, 26)
        out = chr(65 + rest) + out
    return out


LETTER = {name: _letter(i + 1) for i, name in enumerate(COLUMNS)}


class Cells:
    """The cells of one TCO row by column name: ``Cells(7).quoted`` is ``J7`` (one property per column of
    :data:`COLUMNS`, made below: a sheet of 100,000 offers asks for millions of them)."""

    __slots__ = ("row",)

    def __init__(self, row: int) -> None:
        self.row = row

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> str: ...


def _cell_of(letter: str) -> property:
    """A :class:`Cells` column's property: the cell of that column in the row."""
    return property(lambda cells: f"{letter}{cells.row}")


for _column, _column_letter in LETTER.items():
    setattr(Cells, _column, _cell_of(_column_letter))


def _dec(value: Fraction, places: int = 10) -> Decimal:
    return dec(value, places).normalize()


def tco(data: ExportData) -> Sheet:
    s, a = data.ranking.scenario, data.ranking.assumptions
    evaluations = data.ranking.evaluations
    # one row per rate used: each offer's amounts convert at the rate of its quote day (``costing.quote_day``)
    used: dict[FxKey, FxQuote | None] = {(s.home_currency, None): None}
    offers = []  # each offer's facts and rows of ways to buy
    for e in evaluations:  # one pass for the rates and the rows (100,000 evaluations are not held)
        ways, pairs = _ways(e, 0)
        offers.append((_facts(e, e.offer.id), len(ways) + len(pairs)))
        for c in e.options:
            used.setdefault(_fx_key(c.option.currency, c.fx), c.fx)
            for line in c.extras:
                if line.included:
                    used.setdefault(_fx_key(line.extra.currency, line.fx), line.fx)
    keys = sorted(used, key=lambda k: (k[0] != s.home_currency, k[0], k[1].as_of if k[1] else None))
    fx_row = {k: FX_HEADER_ROW + 1 + i for i, k in enumerate(keys)}
    preamble: list[list[Any]] = [
        [
            Styled(
                _("TCO for scenario {scenario}: change a value in column B and every figure below recalculates").format(
                    scenario=quoted(s.name)
                ),
                bold=True,
            )
        ],
        [],
        *(
            [_(label), value]
            for label, value in _inputs(
                hours=(N_("Hours a month"), a.hours_per_month),
                months=(N_("Months"), s.months),
                gpus=(N_("GPUs"), s.gpu_count),
                use=(N_("Utilisation"), Styled(s.utilisation, PERCENT)),
                egress=(N_("Egress TB a month"), s.egress_tb_month),
                storage=(N_("Storage TB"), s.storage_tb),
                gb_tb=(N_("GB per TB"), GB_PER_TB),
                mfu=(N_("Default MFU (no evidence)"), Styled(_dec(a.default_mfu, 6), PERCENT)),
                availability=(N_("Default availability (no SLA)"), Styled(_dec(a.default_availability, 6), PERCENT)),
                net_vat=(N_("Net of VAT a 专票 recovers (1) or as invoiced (0)"), 1 if a.net_of_vat else 0),
            )
        ),
        [],
        [
            Styled(_("1 unit = … {currency}").format(currency=s.home_currency), bold=True),
            Styled(_("rate"), bold=True),
            Styled(_("as of"), bold=True),
            Styled(_("source"), bold=True),
        ],
    ]
    for key in keys:
        currency, fact = key
        quote = used[key]
        if fact is None or quote is None:
            preamble.append([currency, 1, None, _("the scenario's currency")])
            continue
        rate: Any = fact.rate if fact.base == currency else Formula(f"=1/{fact.rate}")
        preamble.append([currency, rate, fact.as_of, fact.source])
    preamble.append([])
    header_row = len(preamble) + 1

    cur = s.home_currency
    named = {
        "id": Column(_("id"), 6, INTEGER),
        "provider": Column(_("provider"), 14),
        "offer": Column(_("offer"), 28),
        "gpu": Column(_("GPU"), 14),
        "tflops": Column(_("peak BF16 TFLOPS"), 9, NUMBER),
        "gpus_per_node": Column(_("GPUs per node"), 7, INTEGER),
        "way": Column(_("way to buy"), 16),
        "term": Column(_("term months"), 7, INTEGER),
        "by_use": Column(_("billed by use"), 7, INTEGER),
        "quoted": Column(_("quoted"), 12, MONEY_FINE),
        "unit": Column(_("unit"), 11),
        "currency": Column(_("currency"), 8),
        "list": Column(_("list per node-month"), 13, MONEY_FINE),
        "discount": Column(_("discount factor"), 9, NUMBER),
        "fx": Column(_("FX to {currency}").format(currency=cur), 9, NUMBER),
        "nodes": Column(_("nodes"), 6, INTEGER),
        "months_paid": Column(_("months paid"), 7, INTEGER),
        "use": Column(_("use factor"), 7, PERCENT),
        "compute": Column(_("compute ({currency})").format(currency=cur), 14, MONEY),
        "extras": Column(_("extras a month ({currency})").format(currency=cur), 12, MONEY),
        "one_off": Column(_("one-off ({currency})").format(currency=cur), 11, MONEY),
        "total": Column(_("total ({currency})").format(currency=cur), 14, MONEY),
        "tco": Column(_("TCO a year ({currency})").format(currency=cur), 14, MONEY),
        "per_gpu_hour": Column(_("per used GPU-hour ({currency})").format(currency=cur), 11, MONEY_FINE),
        "mfu": Column(_("MFU"), 8, PERCENT),
        "availability": Column(_("availability"), 10, PERCENT),
        "per_pflop_hour": Column(_("per delivered PFLOP-hour ({currency})").format(currency=cur), 12, MONEY_FINE),
    }
    assert tuple(named) == COLUMNS, "every formula names its cells by COLUMNS"
    columns = list(named.values())

    # The offers' rows come first and take, by formula, the cheapest of their ways to buy listed below them
    # (every option of every offer, each costed by formula): change the GPUs or the months in column B and
    # the choice moves as the app's would (ties go to the shorter term, as in the app).
    # Mixed terms (whole terms of one option, the rest on a shorter one) follow each offer's options, every
    # pair whatever the months, each taking its two options' rows: the app's ties go to one option alone.
    top = header_row + 1 + len(offers) + 2

    def rows() -> Iterator[list[Any]]:
        start = top
        for i, (facts, size) in enumerate(offers):
            yield _offer_row(facts, header_row + 1 + i, start, start + size - 1)
            start += size
        yield []
        heading = _("Ways to buy: every option of every offer; each offer's row above takes the cheapest")
        yield [Styled(heading, bold=True)]
        start = top
        for e in evaluations:
            ways, pairs = _ways(e, start)
            for k, c in enumerate(ways):
                yield _tco_row(e, c, start + k, fx_row)
            for k, (a, b, long, short) in enumerate(pairs):
                yield _mixed_row(e, long, short, start + len(ways) + k, a, b)
            start += len(ways) + len(pairs)

    title = N_("TCO")
    return Sheet(title, columns, rows(), preamble=preamble, tab=sheet_tab(title))


def _ways(e: Evaluation, first: int) -> tuple[list[OptionCost], list[tuple[int, int, PriceOption, PriceOption]]]:
    """An offer's ways to buy as the sheet lists them from row ``first``: every option alone, shortest term first,
    then each mixed pair (with the rows of its two options)."""
    singles = [c for c in e.options if not c.segments]
    ways = [c for _, c in sorted(enumerate(singles), key=lambda ic: (ic[1].option.term_months, ic[0]))]
    row_of = {id(c.option): first + k for k, c in enumerate(ways)}
    return ways, [(row_of[id(a)], row_of[id(b)], a, b) for a, b in mixed_ways([c.option for c in ways])]


def _inputs(**block: tuple[str, Any]) -> list[tuple[str, Any]]:
    """The assumptions block's rows, checked against :data:`INPUTS` (the cells every formula reads)."""
    assert tuple(block) == INPUTS, "the assumptions block is written in the order of INPUTS"
    return list(block.values())


FACTS = COLUMNS[: COLUMNS.index("way")]
"""The columns of the offer itself (:func:`_facts`); an offer's row takes every later one from its cheapest way."""


def _offer_row(facts: list[Any], r: int, a: int, b: int) -> list[Any]:
    """An offer's row: its facts, then every figure of the way to buy with the lowest total (rows a to b)."""
    totals = f"{_TOTAL}{a}:{_TOTAL}{b}"
    return [*facts, *(Formula(f"=INDEX({x}{a}:{x}{b},MATCH(MIN({totals}),{totals},0))") for x in _CHOSEN)]


_TOTAL = LETTER["total"]
_CHOSEN = [LETTER[name] for name in COLUMNS[len(FACTS) :]]
"""The columns an offer's row takes from its cheapest way (every one after its facts), by letter."""


def _facts(e: Evaluation, shown_id: int | str) -> list[Any]:
    """The :data:`FACTS` of a TCO row: the offer (its id as a number on its own row, as ``#3`` on its ways to buy,
    so that only the offers' rows hold numeric ids)."""
    o = e.offer
    return [shown_id, o.provider, o.name, o.gpu.name, o.gpu.bf16_tflops, o.gpus_per_node]


def _usage_cells(c: Cells) -> Usage[str]:
    """A month's usages in a row, for the extras' rules (``billing.EXTRA_RULES``)."""
    return Usage(f"{EGRESS}*{GB_TB}", STORAGE, c.nodes, f"{HOURS}*{c.use}")


FxKey = tuple[str, FxRateFact | None]


def _fx_key(currency: str, quote: FxQuote | None) -> FxKey:
    """An FX block row: a currency at the stored rate used (None: the scenario's own currency)."""
    return currency, quote.fact if quote is not None else None


def _in_order(facts: list[Any], figures: dict[str, Any]) -> list[Any]:
    """A row's cells in the order of :data:`COLUMNS`, the figures given by name."""
    assert tuple(figures) == COLUMNS[len(FACTS) :], "a row's figures are named in the order of COLUMNS"
    return [*facts, *figures.values()]


def _tco_row(e: Evaluation, best: OptionCost, r: int, fx_row: dict[FxKey, int]) -> list[Any]:
    """One way to buy an offer, costed by formula over the assumptions block (its id as text, ``#3``, so
    that only the offers' rows above hold numeric ids); how it bills is its rule's (``billing.py``)."""
    o, c = best.option, Cells(r)
    factors = _discount_factors(e, o, c)
    vat = ""
    if e.offer.special_invoice and e.offer.vat_rate:  # Assumptions.vat_factor, switched by the cell
        vat = f"*IF({NET_VAT}=1,1/(1+{e.offer.vat_rate}),1)"
        factors.append(vat.removeprefix("*"))
    extras, one_off = [], []
    for line in best.extras:
        if not line.included or line.extra.amount is None:
            continue
        x = line.extra
        amount = f"{x.amount}*$B${fx_row[_fx_key(x.currency, line.fx)]}{vat}"
        if x.basis is ExtraBasis.ONE_OFF:
            one_off.append(amount)
        else:
            extras.append(amount + EXTRA_RULES[x.basis].sheet_usage(_usage_cells(c)))
    mfu: Any = _dec(e.mfu.value, 6) if e.mfu.source != "default" else Formula(f"={MFU}")
    measured = e.mfu.measured_gpus
    fabric = SCALING_BY_FABRIC.get(e.offer.inter_fabric, Fraction(1))  # ``scaling.job_scaling``, by formula
    if e.mfu.source != "default" and measured is not None and fabric != 1:
        g = c.gpus_per_node
        mfu = Formula(f"={mfu}*IF(ROUNDUP({GPUS}/{g},0)>ROUNDUP({measured}/{g},0),{_dec(fabric, 6)},1)")
    availability: Any = _dec(e.availability.value, 6) if e.availability.source != "default" else Formula(f"={AVAIL}")
    rule = o.billing
    return _in_order(
        _facts(e, f"#{e.offer.id}"),
        {
            "way": o.shown,
            "term": o.term_months,
            "by_use": 1 if rule.follows_use else 0,
            "quoted": o.costed_amount,
            "unit": o.unit.value,
            "currency": o.currency,
            "list": Formula("=" + UNITS[o.unit].sheet_node_month(c.quoted, c.gpus_per_node, c.term, HOURS)),
            "discount": Formula("=" + ("*".join(factors) or "1")),
            "fx": Formula(f"=$B${fx_row[_fx_key(o.currency, best.fx)]}"),
            "nodes": Formula(f"=ROUNDUP({GPUS}/{c.gpus_per_node},0)"),
            "months_paid": Formula("=" + rule.sheet_months_paid(MONTHS, c.term)),
            "use": Formula("=" + rule.sheet_use(USE)),
            "compute": Formula(f"={c.nodes}*{c.list}*{c.discount}*{c.fx}*{c.use}*{c.months_paid}"),
            "extras": Formula("=" + ("+".join(extras) or "0")),
            "one_off": Formula("=" + ("+".join(one_off) or "0")),
            **_totals(c, f"{c.compute}+{c.extras}*{MONTHS}+{c.one_off}"),
            "mfu": mfu,
            "availability": availability,
            "per_pflop_hour": _per_pflop_hour(c),
        },
    )


def _totals(c: Cells, total: str) -> dict[str, Formula]:
    """A row's total (``total``, an expression), its TCO a year (``OptionCost.annualised``: one-off fees counted
    once when the need is shorter than a year) and its cost per used GPU-hour."""
    return {
        "total": Formula(f"={total}"),
        "tco": Formula(f"=({c.total}-{c.one_off})*12/{MONTHS}+{c.one_off}*12/MAX({MONTHS},12)"),
        "per_gpu_hour": Formula(f"={c.total}/({GPUS}*{HOURS}*{USE}*{MONTHS})"),
    }


def _per_pflop_hour(c: Cells) -> Formula:
    """Cost per delivered PFLOP-hour: per used GPU-hour ÷ (peak × MFU × availability ÷ 1000)."""
    return Formula(f"={c.per_gpu_hour}/({c.tflops}*{c.mfu}*{c.availability}/1000)")


ANY_GPUS = 10**12
"""More GPUs than any tier asks for: ``discount_applies`` at this count says whether a discount's other
conditions (term, prepayment) hold."""


def _discount_factors(e: Evaluation, o: PriceOption, c: Cells) -> list[str]:
    """The discount factors of option ``o`` in row ``c`` as formulas (``costing.discount_steps``): a tier
    counts the GPUs billed (whole nodes × GPUs per node), so a change of GPUs in the sheet moves it; of several
    tiers of one kind only the best that applies counts (MAX); other kinds each apply."""
    factors = []
    tiers: dict[DiscountKind, list[str]] = {}
    billed = f"{c.nodes}*{c.gpus_per_node}"
    for d in e.offer.discounts:
        if d.rate is None or not discount_applies(d, o, ANY_GPUS)[0]:
            continue
        share = f"IF({billed}>={d.min_gpus},{d.rate},0)" if d.min_gpus is not None else f"{d.rate}"
        if d.kind in TIERED:
            tiers.setdefault(d.kind, []).append(share)
        elif d.min_gpus is not None:
            factors.append(f"IF({billed}>={d.min_gpus},1-{d.rate},1)")
        else:
            factors.append(f"(1-{d.rate})")
    for shares in tiers.values():
        factors.append(f"(1-{shares[0]})" if len(shares) == 1 else f"(1-MAX({','.join(shares)}))")
    return factors


def _mixed_row(e: Evaluation, long: PriceOption, short: PriceOption, r: int, a: int, b: int) -> list[Any]:
    """Whole terms of the option in row ``a``, then the months left on the one in row ``b``
    (``costing.cost_mixed``). With no whole term or no months left it equals one option alone, which the
    offer's row then takes (listed first), as the app does."""
    c, la, sb = Cells(r), Cells(a), Cells(b)
    whole = f"ROUNDDOWN({MONTHS}/{la.term},0)*{la.term}"  # the months of need the long option's whole terms cover
    left = f"({MONTHS}-{whole})"
    short_paid = short.billing.sheet_months_paid(left, sb.term)
    rest = short.billing.sheet_part_label(short.label, left, sb.term)

    def same(name: str) -> Formula:
        return Formula(f"={getattr(la, name)}")

    def compute(w: Cells) -> str:
        return f"{w.nodes}*{w.list}*{w.discount}*{w.fx}*{w.use}"

    return _in_order(
        _facts(e, f"#{e.offer.id}"),
        {
            "way": Formula(f'=ROUNDDOWN({MONTHS}/{la.term},0)&" × {long.label} + "&{rest}'),
            "term": Formula(f"={la.term}"),
            "by_use": 0,
            "quoted": None,
            "unit": _("mixed terms"),
            **{name: same(name) for name in ("currency", "list", "discount", "fx", "nodes")},
            "months_paid": Formula(f"={whole}+{short_paid}"),
            "use": same("use"),
            "compute": Formula(f"={compute(la)}*({whole})+{compute(sb)}*({short_paid})"),
            "extras": Formula(f"=({la.extras}*{whole}+{sb.extras}*{left})/{MONTHS}"),
            "one_off": same("one_off"),
            **_totals(c, f"{c.compute}+{la.extras}*{whole}+{sb.extras}*{left}+{c.one_off}"),
            "mfu": same("mfu"),
            "availability": same("availability"),
            "per_pflop_hour": _per_pflop_hour(c),
        },
    )


TCO_CHECKS = {
    LETTER["compute"]: "compute_total",
    LETTER["total"]: "total",
    LETTER["tco"]: "annualised_tco",
    LETTER["per_gpu_hour"]: "cost_per_gpu_hour",
    LETTER["per_pflop_hour"]: "cost_per_pflop_hour",
}
"""Columns of the TCO sheet and the engine figure each must equal (tests recalculate and compare)."""


# -- rent vs buy --------------------------------------------------------------------------------------------
RB = {
    name: f"$B${row}"
    for row, name in enumerate(
        (
            "capex",
            "colocation",
            "power",
            "idle",
            "staff",
            "spares_share",
            "spares",
            "opex",
            "rent",
            "by_use",
            "fixed",
            "use",
            "years",
            "residual",
            "rate",
            "horizon",
            "paid",
            "breakeven",
            "breakeven_use",
            "npv_rent",
            "npv_buy",
        ),
        start=3,
    )
}
RB_TABLE_HEADER = 3 + len(RB) + 1  # the inputs and results, a blank row, then the monthly table's header


def _share_at(curve: ResaleCurve | None, horizon: str, years: str) -> str:
    """The share of the capex owning gets back at the horizon, as a formula of the horizon's cell: on the resale
    curve (its points as array constants, read on the line between two, flat after the last), else the
    straight-line book value over the depreciation years (``ownership.py``)."""
    if curve is None:
        return f"(1-{horizon}/(12*{years}))"
    ages = "{" + ",".join(["0", *(str(m) for m, _ in curve)]) + "}"
    shares = "{" + ",".join(["1", *(plain(dec(s, 10).normalize()) for _, s in curve)]) + "}"
    at = f"MATCH({horizon},{ages},1)"
    low_s, high_s = f"INDEX({shares},{at})", f"INDEX({shares},{at}+1)"
    low_m, high_m = f"INDEX({ages},{at})", f"INDEX({ages},{at}+1)"
    last_m, last_s = curve[-1][0], plain(dec(curve[-1][1], 10).normalize())
    return f"IF({horizon}>={last_m},{last_s},{low_s}+({high_s}-{low_s})*({horizon}-{low_m})/({high_m}-{low_m}))"


def rent_buy(data: ExportData) -> Sheet:
    rent_vs_buy = N_("Rent vs buy")
    if data.rent_buy is None:
        return Sheet(
            rent_vs_buy,
            [Column("", 60)],
            iter(()),
            preamble=[[data.rent_buy_why]],
            autofilter=False,
            tab=sheet_tab(rent_vs_buy),
        )
    answer = data.rent_buy
    r, own = answer.result, answer.owning
    i = r.inputs
    b = RB
    first, last = RB_TABLE_HEADER + 1, RB_TABLE_HEADER + 1 + i.horizon_months
    be_range, up_range = f"H{first}:H{last}", f"G{first}:G{last}"
    months = f"A{first}:A{last}"
    rate, horizon = b["rate"], b["horizon"]
    annuity = f"IF({rate}=0,{horizon},(1-(1+{rate}/12)^(-{horizon}))/({rate}/12))"  # a month-end payment's PV
    parts = {p.name: p for p in own.parts}
    idle = own.terms.idle_share if own.terms.opex_month is None else None
    by_use = f'IF({b["idle"]}="",1,{b["idle"]}+(1-{b["idle"]})*{b["use"]})'  # ``Ownership.paid_monthly``
    follows = f'IF({b["idle"]}="",0,{b["power"]}*(1-{b["idle"]}))'  # ``Ownership.power_by_use``
    assert set(parts) == {"colocation", "power", "staff", "spares"}, "the sheet shows owning part by part"
    note = " · ".join(n for n in answer.notes if not n.startswith("  "))
    residual: Any = Styled(_dec(i.residual, 2), MONEY)
    if own.terms.residual is None and own.terms.residual_share is None:  # the rule follows capex and horizon
        curve = own.resale_curve
        residual = Styled(Formula(f"=MAX(0,{b['capex']}*{_share_at(curve, b['horizon'], b['years'])})"), MONEY)
    preamble: list[list[Any]] = [
        [Styled(_("Rent vs buy: change a value in column B and the table and chart follow"), bold=True), None, note],
        [],
        [_("Capex"), Styled(_dec(i.capex, 2), MONEY), own.capex_how],
        *(
            [_(label), Styled(_dec(parts[name].monthly, 6), MONEY), parts[name].how]
            for name, label in (("colocation", N_("Colocation a month")), ("power", N_("Power a month")))
        ),
        [
            _("Idle draw, share of full load (empty: full load every hour)"),
            Styled(_dec(idle, 6), PERCENT) if idle is not None else None,
            _("power follows use from the idle draw: power × (idle + (1 − idle) × utilisation)"),
        ],
        [_("Staff a month"), Styled(_dec(parts["staff"].monthly, 6), MONEY), parts["staff"].how],
        [_("Spares and RMA a year, share of capex"), Styled(_dec(own.spares_share, 6), PERCENT), parts["spares"].how],
        [_("Spares a month"), Styled(Formula(f"={b['capex']}*{b['spares_share']}/12"), MONEY)],
        [
            _("Owning costs a month (at the utilisation)"),
            Styled(Formula(f"={b['colocation']}+{b['power']}*{by_use}+{b['staff']}+{b['spares']}"), MONEY),
        ],
        [_("Rent a month at full use"), Styled(_dec(i.rent_monthly, 6), MONEY)],
        [_("Rent billed by use (1) or fixed (0)"), 1 if i.rent_usage_billed else 0],
        [_("Charges a month whatever the use (egress, storage, fees)"), Styled(_dec(i.rent_fixed_monthly, 6), MONEY)],
        [_("Utilisation"), Styled(_dec(i.utilisation, 6), PERCENT)],
        [_("Depreciation, years"), own.depreciation_years],
        [_("Resale value at the horizon"), residual, own.residual_how],
        [_("Discount rate a year"), Styled(_dec(i.discount_rate, 6), PERCENT)],
        [_("Horizon, months"), i.horizon_months],
        [
            _("Rent paid a month (sums up front aside)"),
            Styled(Formula(f"={b['rent']}*IF({b['by_use']}=1,{b['use']},1)+{b['fixed']}"), MONEY),
        ],
        [
            _("Break-even month (0: never within the horizon)"),
            Styled(Formula(f"=IF(COUNT({be_range})=0,0,MIN({be_range}))"), "0.00"),
        ],
        [
            _("Break-even utilisation"),
            Styled(
                Formula(
                    f'=IF(OR({b["by_use"]}=0,{b["rent"]}=0),"n/a: no part of the rent follows use",'
                    f'IF({b["rent"]}<={follows},"n/a: owning\'s power grows with use as fast as the rent or faster",'
                    f"({b['npv_buy']}-{follows}*{b['use']}*{annuity}-{b['fixed']}*{annuity}"
                    f"-SUMPRODUCT({up_range}/(1+{b['rate']}/12)^{months}))"
                    f"/(({b['rent']}-{follows})*{annuity})))"
                ),
                PERCENT,
            ),
        ],
        [
            _("NPV of renting"),
            Styled(Formula(f"=SUM(E{RB_TABLE_HEADER + 1}:E{RB_TABLE_HEADER + 1 + i.horizon_months})"), MONEY),
        ],
        [
            _("NPV of owning"),
            Styled(
                Formula(
                    f"={b['capex']}-{b['residual']}/(1+{b['rate']}/12)^{b['horizon']}"
                    f"+SUM(F{RB_TABLE_HEADER + 1}:F{RB_TABLE_HEADER + 1 + i.horizon_months})"
                ),
                MONEY,
            ),
        ],
    ]
    preamble.append([])
    assert len(preamble) + 1 == RB_TABLE_HEADER
    columns = [
        Column(_("month"), 8, INTEGER),
        Column(_("rent, cumulative ({currency})").format(currency=i.currency), 16, MONEY),
        Column(_("own, cumulative ({currency})").format(currency=i.currency), 16, MONEY),
        Column("", 4),
        Column(_("rent, discounted"), 14, MONEY),
        Column(_("owning costs, discounted"), 14, MONEY),
        Column(_("paid up front at the month's start"), 14, MONEY),
        Column(_("break-even in this month"), 12, "0.00"),
    ]

    def rows() -> Iterator[list[Any]]:
        for m in range(i.horizon_months + 1):
            row = first + m
            discount = f"(1+{b['rate']}/12)^A{row}"
            rent = f"=G{row}" if m == 0 else f"=B{row - 1}+{b['paid']}+G{row}"
            # the month's crossing: monthly flows accrue through it, sums up front at its start
            start, slope = f"(B{row - 1}-C{row - 1})", f"({b['paid']}-{b['opex']})"
            paid_so_far = f"({b['capex']}+{b['opex']}*A{row})"  # ``rentbuy.own_paid``: the resale aside
            crossing = (
                Formula(f'=IF(B{row}>={paid_so_far},0,"")')
                if m == 0
                else Formula(
                    f'=IF({start}>=0,"",IF(AND({start}+{slope}>=0,{slope}>0),A{row}-1-{start}/{slope},'
                    f'IF(B{row}>={paid_so_far},A{row},"")))'
                )
            )
            yield [
                m,
                Formula(rent),
                Formula(f"={b['capex']}+{b['opex']}*A{row}-IF(A{row}={b['horizon']},{b['residual']},0)"),
                None,
                Formula(f"=IF(A{row}=0,0,{b['paid']}/{discount})+G{row}/{discount}"),
                Formula(f"=IF(A{row}=0,0,{b['opex']}/{discount})"),
                Styled(_dec(i.upfront_at(m), 6), MONEY) if m < i.horizon_months else 0,
                crossing,
            ]

    crossing = dec(r.breakeven_months, 2) if r.breakeven_months is not None else _("none")
    chart = LineChartSpec(
        _("Cumulative cost ({currency}): the curves cross at the break-even month ({month} with these inputs)").format(
            currency=i.currency, month=crossing
        ),
        "H3",
        RB_TABLE_HEADER,
        RB_TABLE_HEADER + 1,
        last,
        1,
        (2, 3),
        _("month"),
        i.currency,
    )
    return Sheet(
        rent_vs_buy, columns, rows(), preamble=preamble, charts=[chart], autofilter=False, tab=sheet_tab(rent_vs_buy)
    )


RB_CHECKS = {
    "paid": "rent_paid",
    "breakeven": "breakeven_months",
    "breakeven_use": "breakeven_utilisation",
    "npv_rent": "npv_rent",
    "npv_buy": "npv_buy",
}
