"""Rent vs buy as a use case (``calc rent-vs-buy``, the TUI's calculator, the export's sheet): the buy side part
by part from what the buyer typed or a recorded purchase option, the rent side typed or from an offer as it is
paid, for the same capacity, in one currency."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain import entities as E
from quotetui.domain.currency import currency_code
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import WARNING, Caveats, money_figure
from quotetui.domain.economics.costing import OptionCost
from quotetui.domain.economics.display import amount_text, decimal_text, money_number
from quotetui.domain.economics.exact import ceil, dec, q
from quotetui.domain.economics.explain import LOWER_BOUND
from quotetui.domain.economics.ownership import Ownership, PurchaseTerms, ownership
from quotetui.domain.economics.rentbuy import (
    BILLED_BY_USE,
    RentBuyInput,
    RentBuyResult,
    RentPlan,
    rent_plan,
    rent_vs_buy,
)
from quotetui.domain.errors import BadInput, FieldErrors
from quotetui.domain.fields import parse_record
from quotetui.domain.money import plain
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import clauses, listed, quoted
from quotetui.language.numbers import percent
from quotetui.services.caveats import offer_caveats
from quotetui.services.economics import evaluate_offer, exact_values
from quotetui.services.settings import assumptions_of
from quotetui.store.engine import Database

TYPED = tuple(f.name for f in E.RENT_BUY.fields)
"""The calculator's inputs, each declared once in ``entities.RENT_BUY``."""

NAMES = {
    "offer": N_("an offer to rent"),
    "purchase": N_("a recorded purchase option"),
    "currency": N_("the currency"),
}
"""How a message names an input that is not a field of ``entities.RENT_BUY`` by default (:func:`default_name`)."""


def default_name(key: str) -> str:
    """How a message names input ``key`` by default, in the language in use: a field by its form label, quoted
    (``“Capex”``); the CLI passes its flags instead."""
    if key in NAMES:
        return _(NAMES[key])
    return f"“{E.RENT_BUY.field(key).title}”"


@dataclass(frozen=True, slots=True)
class RentBuyAnswer:
    result: RentBuyResult
    owning: Ownership
    rent_note: str | None  # where the rent comes from (an offer), and whether it is a lower bound
    purchase: str | None = None  # the recorded purchase option the buy side started from
    offer_id: int | None = None  # the offer rented, if the rent side is one
    net_of_vat: bool = False  # the rent is costed net of the VAT its 专票 recovers (the setting)
    rent_caveats: Caveats = NO_CAVEATS  # the rented offer's (``caveats.py``): ≥ ~ ✗ ! ¤
    costs_net: bool = False  # the setting: costs net of recoverable VAT (the capex nets its VAT with a 专票)
    capex_netted: bool = False  # the capex is net of the VAT its 专票 recovers

    @property
    def rent_lower_bound(self) -> bool:
        """The offer leaves out a cost the scenario incurs."""
        return self.rent_caveats.lower_bound

    @property
    def verdict(self) -> str:
        """Which is cheaper in present value, with what could overturn it."""
        if self.result.cheaper == "rent":
            if self.rent_lower_bound:
                return _(
                    "rent is cheaper ({mark} the rent is a lower bound: price what it leaves out before deciding)"
                ).format(mark=LOWER_BOUND)
            return _("rent is cheaper")
        if self.owning.left_out:
            return _("buy is cheaper ({mark} owning leaves out {parts}: give them before deciding)").format(
                mark=LOWER_BOUND, parts=self._left_out()
            )
        return _("buy is cheaper")

    @property
    def npv_words(self) -> str:
        """The present values of renting and of owning and the verdict, one clause for every front end (the CLI
        says it as a line, the TUI as a sentence)."""
        r, n = self.result, self.result.inputs.horizon_months
        said = ngettext(
            "NPV over {n} month: rent {rent} {currency}, buy {buy} {currency} → {verdict}",
            "NPV over {n} months: rent {rent} {currency}, buy {buy} {currency} → {verdict}",
            n,
        )
        return said.format(
            n=f"{n:,}",
            rent=money_number(r.npv_rent, 2),
            buy=money_number(r.npv_buy, 2),
            currency=r.inputs.currency,
            verdict=self.verdict,
        )

    def _left_out(self) -> str:
        """The owning costs not given, in words."""
        return listed(_(name) for name in self.owning.left_out)

    @property
    def notes(self) -> list[str]:
        """What the verdict rests on, in words, for every front end."""
        out = [self.rent_note] if self.rent_note else []
        out.append(
            _("owning ({purchase}, typed values override it):").format(purchase=quoted(self.purchase))
            if self.purchase
            else _("owning:")
        )
        out += [f"  {line}" for line in self.owning.lines()]
        i = self.result.inputs
        if i.opex_by_use:  # power follows use from the idle draw
            use = plain(dec(i.utilisation * 100, 4).normalize())
            out.append(
                "  "
                + _(
                    "owning at {use} use: {amount} {currency} a month (the power above the idle draw, {full} at "
                    "full use, × {use})"
                ).format(
                    use=percent(use),
                    amount=money_number(i.own_paid_monthly, 2),
                    currency=i.currency,
                    full=money_number(i.opex_by_use, 2),
                )
            )
        if self.costs_net:
            capex = (
                _("the capex is net of the VAT its 专票 recovers")
                if self.capex_netted
                else _(
                    "the capex is as invoiced (no VAT rate and 专票 recorded for it: --capex-vat-rate 13 "
                    "--capex-special-invoice yes nets it)"
                )
            )
            if self.net_of_vat and self.offer_id is not None:
                words = _(
                    "costs are net of recoverable VAT (setting): the rent is net of its recoverable VAT; {capex}; "
                    "give owning costs a month net too"
                )
            else:
                words = _("costs are net of recoverable VAT (setting): {capex}; give owning costs a month net too")
            out.append(words.format(capex=capex))
        if self.owning.left_out:
            out.append(
                f"{LOWER_BOUND} " + _("owning costs at least this: {parts} not given").format(parts=self._left_out())
            )
        if any(p.name == "owning costs" and dec(p.monthly, 2) == 0 for p in self.owning.parts):
            out.append(
                f"{WARNING} " + _("OWNING COSTS ARE 0: power, rack space, staff and spares cost something; give them")
            )
        if any(p.name == "staff" and dec(p.monthly, 2) == 0 for p in self.owning.parts):  # 0.00 as shown
            out.append(
                f"{WARNING} "
                + _(
                    "STAFF IS 0: owning a GPU cluster takes people (hands on site, an on-call engineer, RMA and "
                    "firmware work); renting includes them. Give what they cost (--staff-monthly) before a CFO asks"
                )
            )
        return out


def recorded_purchase(db: Database, name: str | None = None) -> PurchaseTerms | None:
    """A recorded purchase option by name or id (default: the first one), as the buy side's terms."""
    from sqlmodel import col, select

    from quotetui.store.models import GpuModel, PurchaseOption

    with db.session() as session:
        query = select(PurchaseOption).order_by(col(PurchaseOption.id))
        if name is not None:
            by_id = name.isascii() and name.isdigit()
            query = query.where(col(PurchaseOption.id) == int(name) if by_id else col(PurchaseOption.name) == name)
        p = session.exec(query).first()
        if p is None:
            if name is None:
                return None
            names = listed(quoted(n) for n in session.exec(select(PurchaseOption.name))) or _("none recorded")
            raise BadInput(_("no purchase option {name} (recorded: {names})").format(name=quoted(name), names=names))
        gpu = session.get(GpuModel, p.gpu_model_id)

    def x(value: Decimal | None) -> Fraction | None:
        return None if value is None else q(value)

    return PurchaseTerms(
        gpus=p.gpu_count, currency=p.currency, capex=q(p.capex), capex_high=x(p.capex_high),
        capex_vat_rate=x(p.capex_vat_rate), capex_special_invoice=p.capex_special_invoice,
        colocation_month=x(p.colocation_month), colocation_month_high=x(p.colocation_month_high),
        power_kw=x(p.power_kw), pue=x(p.pue), tariff_per_kwh=x(p.tariff_per_kwh), power_month=x(p.power_month),
        power_month_high=x(p.power_month_high), power_basis=p.power_basis, idle_share=x(p.idle_pct),
        staff_month=x(p.ops_month),
        spares_share_year=x(p.spares_pct_year),
        residual_share=x(p.residual_pct), depreciation_years=p.depreciation_years,
        gpu_tdp_w=gpu.tdp_w if gpu is not None else None, name=p.name,
        horizon_months=p.horizon_months,
    )  # fmt: skip


POWER_INPUTS = ("power_kw", "pue", "tariff_per_kwh", "power_monthly", "power_basis")


def _terms(
    v: dict[str, Any],
    base: PurchaseTerms | None,
    gpus: int,
    currency: str,
    tdp: int | None,
    n: Callable[[str], str] = default_name,
) -> PurchaseTerms:
    """The buy side: the recorded option's terms with each typed part in the place of its recorded one (any
    typed power input replaces the recorded power inputs; a typed total replaces every part)."""
    if v["capex"] is None and base is None:
        raise BadInput(_("give {capex} or {purchase}").format(capex=n("capex"), purchase=n("purchase")))
    kept = base or PurchaseTerms(gpus, currency, Fraction(0))
    typed_power = any(v[name] is not None for name in POWER_INPUTS)
    colocation_typed = v["colocation_monthly"] is not None
    return PurchaseTerms(
        gpus=gpus,
        currency=currency,
        capex=v["capex"] if v["capex"] is not None else kept.capex,
        capex_high=None if v["capex"] is not None else kept.capex_high,
        capex_vat_rate=v["capex_vat_rate"] if v["capex_vat_rate"] is not None else kept.capex_vat_rate,
        capex_special_invoice=v["capex_special_invoice"] or kept.capex_special_invoice,
        opex_month=v["opex_monthly"],
        colocation_month=v["colocation_monthly"] if colocation_typed else kept.colocation_month,
        colocation_month_high=None if colocation_typed else kept.colocation_month_high,
        power_kw=v["power_kw"] if typed_power else kept.power_kw,
        pue=v["pue"] if typed_power else kept.pue,
        tariff_per_kwh=v["tariff_per_kwh"] if typed_power else kept.tariff_per_kwh,
        power_month=v["power_monthly"] if typed_power else kept.power_month,
        power_month_high=None if typed_power else kept.power_month_high,
        power_basis=v["power_basis"] if typed_power else kept.power_basis,
        staff_month=v["staff_monthly"] if v["staff_monthly"] is not None else kept.staff_month,
        spares_share_year=v["spares_share_year"] if v["spares_share_year"] is not None else kept.spares_share_year,
        idle_share=v["idle_share"] if v["idle_share"] is not None else kept.idle_share,
        residual=v["residual"],
        residual_share=None if v["residual"] is not None else kept.residual_share,
        depreciation_years=v["depreciation_years"] or kept.depreciation_years,
        gpu_tdp_w=tdp,
        name=kept.name,
    )


def calc_rent_vs_buy(
    db: Database | None,
    typed: dict[str, Any],
    *,
    offer_id: int | None = None,
    scenario: str | None = None,
    currency: str | None = None,
    purchase: str | None = None,
    names: Mapping[str, str] | None = None,
) -> RentBuyAnswer:
    """``typed``: the calculator's inputs as text (names in :data:`TYPED`; absent or ``None``: not given).
    The rent side is typed or an offer rented as it is paid (in the scenario's currency) for the capacity the
    capex buys: ``gpus``, else the purchase option's GPUs, else one node of the offer. ``names``: how messages
    name the inputs (the CLI: its flags; default: :func:`default_name`)."""

    def n(key: str) -> str:
        return (names or {}).get(key) or default_name(key)

    raw = {name: typed.get(name) for name in TYPED}
    if (raw["rent_monthly"] is None) == (offer_id is None):
        raise BadInput(
            _("give the rent side as {rent} or {offer} (one of them)").format(rent=n("rent_monthly"), offer=n("offer"))
        )
    v = exact_values(parse_record(E.RENT_BUY, raw))
    base = recorded_purchase(db, purchase) if db is not None and purchase is not None else None
    assumptions = assumptions_of(db) if db is not None else None
    horizon = int(v["horizon_months"])
    if raw["horizon_months"] in (None, "") and base is not None and base.horizon_months:
        horizon = base.horizon_months
    if base is not None and v["gpus"] is not None and v["gpus"] != base.gpus:
        raise FieldErrors(
            {
                "gpus": _(
                    "purchase option {name} buys {gpus} GPUs; renting {renting} against its capex compares different "
                    "capacities (leave it out, or type the buy side for that many)"
                ).format(name=quoted(base.name), gpus=base.gpus, renting=v["gpus"])
            }
        )
    gpus = v["gpus"] or (base.gpus if base else None)
    discount_rate = v["discount_rate"]
    if discount_rate is None:
        discount_rate = assumptions.discount_rate if assumptions else Fraction(0)
    note, plan, tdp = None, RentPlan(v["rent_monthly"] or Fraction(0), True, Fraction(0), (), _(BILLED_BY_USE)), None
    net, caveats = False, NO_CAVEATS
    if base is not None:
        currency = currency or base.currency
        if currency_code(currency) != base.currency:
            raise BadInput(
                _("purchase option {name} is in {currency}; leave {flag} out").format(
                    name=quoted(base.name), currency=base.currency, flag=n("currency")
                )
            )
        tdp = base.gpu_tdp_w
    if offer_id is not None:
        assert db is not None
        e = evaluate_offer(db, offer_id, scenario, full_use_months=horizon, gpus=gpus)
        if currency is not None and currency_code(currency) != e.currency:
            raise BadInput(
                _(
                    "the offer is costed in {currency} (scenario {scenario}); give the buy side in {currency}, or "
                    "leave {flag} out"
                ).format(currency=e.currency, scenario=quoted(e.scenario.name), flag=n("currency"))
            )
        plan = rent_plan(e.best, horizon)
        currency, tdp = e.currency, tdp or e.offer.gpu.tdp_w
        caveats = offer_caveats(db, e, utcnow().date(), scenario)
        if gpus is not None:
            rented = ngettext(
                "rent: {offer} for {gpus} GPUs ({n} node), {way}, {billing}; {total} over {months} months at full use",
                "rent: {offer} for {gpus} GPUs ({n} nodes), {way}, {billing}; {total} over {months} months at full use",
                e.nodes,
            )
        else:
            rented = ngettext(
                "rent: {offer} for {gpus} GPUs ({n} node; {flag} sets the capacity the capex buys), {way}, {billing}; "
                "{total} over {months} months at full use",
                "rent: {offer} for {gpus} GPUs ({n} nodes; {flag} sets the capacity the capex buys), {way}, "
                "{billing}; {total} over {months} months at full use",
                e.nodes,
            )
        note = rented.format(
            offer=f"#{e.offer.id} {e.offer.provider} {e.offer.name}",
            gpus=e.scenario.gpu_count,
            n=f"{e.nodes:,}",
            flag=n("gpus"),
            way=_way(e.best),
            billing=plan.words,
            total=money_figure(e.best.total, caveats, currency),
            months=horizon,
        )
        gpus = gpus or e.scenario.gpu_count
        net = e.assumptions.vat_factor(e.offer.vat_rate, e.offer.special_invoice) != 1
        beside = [w for w in caveats.words(e.offer.id) if not w.startswith(LOWER_BOUND)]
        if e.lower_bound:  # renting costs at least this: say so beside any verdict
            costs = clauses(e.unpriced)
            beside.insert(0, f"{LOWER_BOUND} " + _("a lower bound: the rent leaves out {costs}").format(costs=costs))
        note = clauses([note, *beside])
    currency = currency_code(currency) if currency else "CNY"
    held = assumptions or Assumptions()
    terms = _terms(v, base, int(gpus or 0), currency, tdp, n)
    capex_factor = held.vat_factor(terms.capex_vat_rate, terms.capex_special_invoice)
    own = ownership(terms, horizon, held.hours_per_month, held.resale_curve, capex_factor)
    if own.residual > own.capex:
        raise FieldErrors(
            {
                "residual": _("the resale value cannot exceed the capex ({capex})").format(
                    capex=money_number(own.capex, 2)
                )
            }
        )
    inputs = RentBuyInput(
        capex=own.capex,
        opex_monthly=own.opex_monthly - own.power_by_use,
        opex_by_use=own.power_by_use,
        rent_monthly=plan.monthly,
        currency=currency,
        residual=own.residual,
        discount_rate=discount_rate,
        horizon_months=horizon,
        utilisation=v["utilisation"],
        rent_usage_billed=plan.usage_billed,
        rent_fixed_monthly=plan.fixed_monthly,
        upfront=plan.upfront,
    )
    result = rent_vs_buy(inputs)
    return RentBuyAnswer(
        result, own, note, base.name if base else None, offer_id, net, caveats, held.net_of_vat, capex_factor != 1
    )


def _way(cost: OptionCost) -> str:
    """The way to buy an offer is rented at, in words: one option as people read it (``PriceOption.shown``);
    mixed terms as ``OptionCost.label`` has them."""
    return cost.shown


def rent_buy_json(a: RentBuyAnswer) -> dict[str, Any]:
    r, i, o = a.result, a.result.inputs, a.owning
    cur = i.currency
    return {
        "currency": cur,
        "capex": amount_text(i.capex, cur),
        "opex_monthly": amount_text(i.own_paid_monthly, cur),  # at the utilisation
        "opex_by_use_monthly": amount_text(i.opex_by_use, cur),  # at full use: the power above the idle draw
        "opex_full_use_monthly": amount_text(i.opex_monthly + i.opex_by_use, cur),  # the parts' sum
        "capex_how": o.capex_how,
        "notes": a.notes,
        "owning_parts": [
            {"part": p.name, "monthly": amount_text(p.monthly, cur), "kind": p.kind, "how": p.how} for p in o.parts
        ],
        "owning_left_out": list(o.left_out),
        "residual_how": o.residual_how,
        "depreciation_years": o.depreciation_years,
        "owning_booked_a_year": amount_text(o.booked_a_year, cur),
        "purchase": a.purchase,
        "rent_net_of_vat": a.net_of_vat,
        "rent_lower_bound": a.rent_lower_bound,
        "rent_caveats": a.rent_caveats.to_json(),
        "rent_monthly": amount_text(i.rent_monthly, cur),
        "rent_fixed_monthly": amount_text(i.rent_fixed_monthly, cur),
        "rent_paid_monthly": amount_text(i.rent_paid_monthly, cur),
        "rent_upfront": [{"month": m, "amount": amount_text(x, cur)} for m, x in i.upfront],
        "rent_source": a.rent_note,
        "utilization": decimal_text(i.utilisation),
        "residual": amount_text(i.residual, cur),
        "discount_rate": decimal_text(i.discount_rate),
        "horizon_months": i.horizon_months,
        "breakeven_months": None if r.breakeven_months is None else decimal_text(r.breakeven_months, 2),
        "breakeven_month": None if r.breakeven_months is None else ceil(r.breakeven_months),
        "breakeven_utilization": None if r.breakeven_utilisation is None else decimal_text(r.breakeven_utilisation, 4),
        "npv_rent": amount_text(r.npv_rent, cur),
        "npv_buy": amount_text(r.npv_buy, cur),
        "cheaper": r.cheaper,
        "verdict": a.verdict,
        "series": [
            {"month": p.month, "rent": amount_text(p.rent, cur), "own": amount_text(p.own, cur)} for p in r.series
        ],
    }
