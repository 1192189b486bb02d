"""Negotiation figures for one offer: savings across rounds, the BATNA, and the target price."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats, figure_text, with_offer
from quotetui.domain.economics.display import amount_text, decimal_text, money_number, money_text, target_number
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, evaluate
from quotetui.domain.economics.exact import pct, percent_text
from quotetui.domain.economics.explain import cost_text
from quotetui.domain.economics.inputs import ScenarioInput
from quotetui.domain.economics.negotiation import (
    OptionPosition,
    Savings,
    Target,
    find_batna,
    option_positions,
    savings,
    target_price,
    target_words,
)
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import mover_word
from quotetui.domain.errors import BadInput
from quotetui.domain.fx import FxTable
from quotetui.domain.money import plain
from quotetui.language import _
from quotetui.language.lists import clauses, labelled, listed
from quotetui.language.numbers import percent
from quotetui.services.caveats import offers_caveats
from quotetui.services.economics import rank_offers
from quotetui.services.engine_inputs import load_assumptions_of, offer_inputs
from quotetui.store.catalog import load_catalog_of
from quotetui.store.reader import reading

if TYPE_CHECKING:
    from quotetui.store.engine import Database


@dataclass(frozen=True, slots=True)
class Negotiation:
    evaluation: Evaluation
    savings: Savings | None
    batna: Evaluation | None
    target: Target | None
    options: tuple[OptionPosition, ...] = ()  # every option of the current round, in its own unit
    fx_sensitivity: tuple[tuple[Fraction, Fraction], ...] = ()  # (rate shift, cost per delivered PFLOP-hour)
    caveats: Caveats = NO_CAVEATS  # the offer's, findings and a lapsed quote included (``services/caveats.py``)
    batna_caveats: Caveats = NO_CAVEATS  # the BATNA's, likewise
    rank: int | None = None  # the offer's place in the ranking it was read from (None: not ranked, ✗)

    def batna_line(self) -> str:
        """The BATNA and this offer's cost per delivered PFLOP-hour, each with its caveats' marks."""
        b, e = self.batna, self.evaluation
        assert b is not None
        theirs = figure_text(b.cost_per_pflop_hour, self.batna_caveats, unit=b.currency)  # its marks after CNY
        ours = figure_text(e.cost_per_pflop_hour, self.caveats, money=True)
        return _("#{id} {provider} {name} at {cost} per delivered PFLOP-hour (this offer: {ours})").format(
            id=b.offer.id, provider=b.offer.provider, name=b.offer.name, cost=theirs, ours=ours
        )

    def lines(self) -> list[str]:
        """The negotiation position in words."""
        out = []
        e, s = self.evaluation, self.savings
        if not e.feasibility.ok:
            out.append(_("not feasible for this scenario: {reasons}").format(reasons=clauses(e.feasibility.blocking)))
        if s is not None:
            cur = s.current.option.currency
            nm = money_text(s.current.node_month, cur)  # the currency's places, as explain shows it
            out.append(
                _("current round {round} ({mover}): {amount} per node-month").format(
                    round=s.current.seq, mover=mover_word(s.current.mover), amount=nm
                )
            )
            if s.first.seq != s.current.seq and s.vs_first is not None:
                out.append(
                    _("vs first offer (round {round}): {share} saved").format(
                        round=s.first.seq, share=percent_text(s.vs_first, 2)
                    )
                )
            if s.list_price is not None and s.list_price.seq != s.current.seq and s.vs_list is not None:
                out.append(
                    _("vs list price (round {round}): {share} saved").format(
                        round=s.list_price.seq, share=percent_text(s.vs_list, 2)
                    )
                )
        if self.batna is None:
            out.append(_("no feasible offer from another provider to compare with (no BATNA)"))
            return out
        out.append(_("BATNA: {batna}").format(batna=self.batna_line()))
        t = self.target
        out.append(target_words(t))
        if t is not None and t.amount > 0 and e.best.label != t.way:
            out.append(_("(the cheapest way to buy it today is {way})").format(way=e.best.shown))
        if len(self.options) > 1:
            out.append(_("each option of the current round, in its own unit:"))
            out += [f"  {_option_line(p)}" for p in self.options]
        out += self._fx_lines()
        return out

    def _fx_lines(self) -> list[str]:
        if not self.fx_sensitivity:
            return []
        e = self.evaluation
        moves = listed(
            _("{cost} at {shift}").format(
                cost=cost_text(e, cost, 2), shift=percent(f"{'+' if shift > 1 else '−'}{float(abs(shift - 1) * 100):g}")
            )
            for shift, cost in self.fx_sensitivity
        )
        return [
            _("with the exchange rate moved (foreign currencies dearer +, cheaper −): {moves} per PFLOP-hour").format(
                moves=moves
            )
        ]

    def to_json(self) -> dict[str, Any]:
        s, t, b = self.savings, self.target, self.batna
        return {
            "savings_vs_first_pct": None if s is None or s.vs_first is None else plain(pct(s.vs_first, 4)),
            "savings_vs_list_pct": None if s is None or s.vs_list is None else plain(pct(s.vs_list, 4)),
            "batna": None
            if b is None
            else {
                "id": b.offer.id,
                "provider": b.offer.provider,
                "name": b.offer.name,
                "cost_per_pflop_hour": amount_text(b.cost_per_pflop_hour, b.currency),
                "currency": b.currency,
                "caveats": self.batna_caveats.to_json(),
            },
            "target_price": None
            if t is None
            else {
                "amount": amount_text(t.amount, t.option.currency),
                "currency": t.option.currency,
                "unit": t.option.unit.value,
                "term_months": t.option.term_months,
                "current": amount_text(t.current, t.option.currency),
                "cut_pct": plain(pct(t.cut, 4)),
                "already_beats_batna": t.already_beats,
                "way_to_buy": t.way,  # every way to buy counts: the one that reaches the target
                "whatever_price": t.whatever_price,
            },
            "options": [_option_json(p) for p in self.options],
            "fx_sensitivity": [
                {"shift": decimal_text(shift), "cost_per_pflop_hour": amount_text(cost, self.evaluation.currency)}
                for shift, cost in self.fx_sensitivity
            ],
        }


def _option_line(p: OptionPosition) -> str:
    o = p.option
    words = [labelled(o.shown, f"{money_number(o.costed_amount, 2)} {o.currency} {_(UNIT_WORDS[o.unit])}")]
    if p.vs_first is not None:
        words.append(_("{share} saved vs the first offer").format(share=percent_text(p.vs_first, 2)))
    if p.vs_list is not None:
        words.append(_("{share} vs list").format(share=percent_text(p.vs_list, 2)))
    t = p.target
    if t is not None and t.amount > 0:
        words.append(
            _("beats the BATNA up to {amount} ({headroom} headroom)").format(
                amount=target_number(t.amount, o.currency), headroom=percent_text(-t.cut, 1)
            )
            if t.already_beats
            else _("target at most {amount} ({cut} below)").format(
                amount=target_number(t.amount, o.currency), cut=percent_text(t.cut, 1)
            )
        )
    return clauses(words)


def _option_json(p: OptionPosition) -> dict[str, Any]:
    o, t = p.option, p.target
    return {
        "term_months": o.term_months,
        "unit": o.unit.value,
        "prepay": o.prepay,
        "currency": o.currency,
        "current": amount_text(o.costed_amount, o.currency),
        "savings_vs_first_pct": None if p.vs_first is None else plain(pct(p.vs_first, 4)),
        "savings_vs_list_pct": None if p.vs_list is None else plain(pct(p.vs_list, 4)),
        "target_price": None if t is None else amount_text(t.amount, o.currency),
        "cut_pct": None if t is None else plain(pct(t.cut, 4)),
        "already_beats_batna": None if t is None else t.already_beats,
    }


def negotiate(this: Evaluation, evaluations: list[Evaluation], fx: FxTable, on: date | None = None) -> Negotiation:
    """The negotiation position of ``this`` among already evaluated offers (same scenario and assumptions); as
    of ``on`` a lapsed quote is no BATNA."""
    assumptions = this.assumptions
    batna = find_batna(this, evaluations, on)
    target = target_price(this, batna, fx, assumptions) if batna is not None else None
    return Negotiation(
        this, savings(this.offer, assumptions), batna, target, option_positions(this, batna, fx, assumptions)
    )


def negotiate_offer(
    db: Database,
    offer_id: int,
    scenario: ScenarioInput,
    evaluations: list[Evaluation],
    fx: FxTable,
    on: date | None = None,
    caveats: Callable[[int], Caveats] | None = None,
) -> Negotiation | None:
    """The position of one offer, with its full round history, among a ranking's evaluations; ``caveats``: each
    offer's as the view knows them (its findings, a lapsed quote) for this offer and its BATNA."""
    with reading(db) as reader:
        _catalog, gpus = load_catalog_of(reader)
        offers = offer_inputs(reader, gpus, [offer_id])
        assumptions = load_assumptions_of(reader)
    if not offers:
        return None
    try:
        this = evaluate(offers[0], scenario, fx, assumptions)
    except NOT_COMPARABLE:
        return None
    n = negotiate(this, [e for e in evaluations if e.offer.id != offer_id], fx, on)
    if caveats is None:
        return n
    ours = replace(caveats(offer_id), unpriced=this.caveats.unpriced, estimates=this.caveats.estimates)
    return replace(n, caveats=ours, batna_caveats=NO_CAVEATS if n.batna is None else caveats(n.batna.offer.id))


def negotiation(db: Database, offer_id: int, scenario: str | None = None, on: date | None = None) -> Negotiation:
    """The position of one offer among the ranking for ``scenario``: its rank and BATNA read from the stored
    ranking (``services/stored_ranking.py: standing``: only this offer and its BATNA evaluated), else, where the
    store cannot be used (a read-only database), from the whole ranking in one snapshot (``rank_offers``)."""
    from quotetui.services.stored_ranking import standing

    stood = standing(db, offer_id, scenario, on)
    if stood is not None:
        this, others, fx, day, rank = (
            stood.evaluation,
            [stood.batna] if stood.batna else [],
            stood.context.fx,
            stood.day,
            stood.rank,
        )
    else:
        ranking = rank_offers(db, scenario, on=on)
        found = next((e for e in ranking.evaluations if e.offer.id == offer_id), None)
        if found is None:
            why = next((reason for o, reason in ranking.skipped if o.id == offer_id), None)
            raise BadInput(why or _("no priced offer with id {id}; `quotetui offers` lists them").format(id=offer_id))
        assert ranking.fx is not None
        this, others, fx, day = found, ranking.evaluations, ranking.fx, ranking.on
        rank = next((i for i, e in ranking.ranked if e is this), None)
    n = negotiate(this, others, fx, day)
    both = [e.offer for e in (this, n.batna) if e is not None]  # their findings, read once for both
    held = offers_caveats(db, both, this.currency, day, fx)
    caveats = with_offer(this.caveats, held[this.offer.id])
    batna = NO_CAVEATS if n.batna is None else with_offer(n.batna.caveats, held[n.batna.offer.id])
    return replace(n, fx_sensitivity=fx_sensitivity(this, fx), caveats=caveats, batna_caveats=batna, rank=rank)


FX_SHIFTS = (Fraction(95, 100), Fraction(105, 100))
"""The exchange-rate moves a figure is shown at: every foreign currency 5 % cheaper and 5 % dearer."""


def fx_sensitivity(e: Evaluation, fx: FxTable) -> tuple[tuple[Fraction, Fraction], ...]:
    """(shift, cost per delivered PFLOP-hour) with every foreign currency moved by each of :data:`FX_SHIFTS`;
    empty when the offer has no amount in a foreign currency."""
    home = e.currency
    foreign = {o.currency for o in e.offer.options} | {x.currency for x in e.offer.extras if x.amount is not None}
    if foreign <= {home}:
        return ()
    return tuple(
        (shift, evaluate(e.offer, e.scenario, fx.shifted(home, shift), e.assumptions).cost_per_pflop_hour)
        for shift in FX_SHIFTS
    )
