"""The award (issue 17 point 4, issue 29): split an RFQ's need across the compliant candidates in whole nodes at
the least total cost, under the buyer's risk constraints, with every figure from the exact engine.

Candidates are the offers on record that meet every line of the requirement (``services/rfq.py: fit_rfq``).
An offer with every line confirmed (✓) can be awarded; one with a line that cannot be told (?) is a question to
its provider, not a yes: it enters only the awards "if confirmed", shown beside the headline ones with the
questions to ask whom.

Cost enters the optimiser as the engine's own figure at every node count an offer could be given
(``domain/economics/evaluate.py: ways_to_buy`` for that many GPUs over the requirement's months, busy every hour,
in its currency: volume tiers on the GPUs billed, one-off fees once, the cheapest way to buy and mixed terms, FX at
the quote's day). The MILP (``domain/sourcing/award_milp.py``) sees those figures, so the split it returns is the
cheapest in the engine's terms; each allocation is then evaluated again by the engine for the GPUs it was
awarded, which must give the same total to the cent and more (a mismatch is a bug: it raises, never shows).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from quotetui.domain.economics.caveats import NONE as NO_CAVEATS
from quotetui.domain.economics.caveats import Caveats, merged, money_figure, with_offer
from quotetui.domain.economics.display import money_shown
from quotetui.domain.economics.evaluate import NOT_COMPARABLE, Evaluation, cost_curve, delivered_curve, evaluate
from quotetui.domain.economics.inputs import OfferInput, ScenarioInput
from quotetui.domain.enums import AwardObjective, OfferStatus
from quotetui.domain.errors import BadInput
from quotetui.domain.sourcing.award import Award, Candidate, Need, node_cap, scenarios
from quotetui.domain.sourcing.requirement import Requirement, Verdict
from quotetui.domain.timeutil import utcnow
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import clauses, listed, quoted
from quotetui.services.rfq_views import RfqView
from quotetui.store.engine import Database
from quotetui.store.reader import one_reading

NOT_CONFIRMED = N_("no candidate has every line of the requirement confirmed (✓): see the awards if confirmed")
"""Why a headline scenario has no award when every candidate has a question open (shown through ``_()``)."""


@dataclass(frozen=True, slots=True)
class AwardLine:
    offer_id: int
    provider: str
    offer: str
    nodes: int
    gpus: int
    total_cost: Fraction  # the engine's total for these GPUs over the term: what the optimiser minimised
    way: str  # the way to buy the engine costed it at ("annual prepaid", "12 × monthly", …)
    delivered_pflop_hours: Fraction  # the engine's, for these GPUs over the term
    cost_per_pflop_hour: Fraction  # the engine's, for these GPUs (what `explain` shows for them)
    caveats: Caveats = NO_CAVEATS  # the engine's for these GPUs, the offer's critical findings, a lapsed quote

    @property
    def lower_bound(self) -> bool:
        """A cost the need incurs is not priced by the offer: the cost is at least this."""
        return self.caveats.lower_bound


@dataclass(frozen=True, slots=True)
class AwardScenario:
    label: str  # in the language in use (``domain/sourcing/award.py: scenarios``)
    feasible: bool
    reason: str  # why not, when infeasible (in the language in use)
    lines: tuple[AwardLine, ...]
    gpus: int
    total_cost: Fraction | None  # the engine's, added up
    premium: Fraction | None  # what its risk constraint costs against the first scenario, in what was minimised
    cost_per_pflop_hour: Fraction | None  # total ÷ the delivered PFLOP-hours of the awarded GPUs
    caveats: Caveats = NO_CAVEATS  # every line's: a sum is at least what its lower bounds are, and so on
    beyond_need: int = 0  # nodes the need does not use, bought for a constraint or because a tier makes it cheaper
    lean: AwardScenario | None = None  # with ``beyond_need``: the cheapest split without such nodes
    premium_rough: bool = False  # this total or the first scenario's is a lower bound: the premium is approximate

    @property
    def lower_bound(self) -> bool:
        """Some allocation's cost is a lower bound (a cost not priced): the total is too."""
        return self.caveats.lower_bound


@dataclass(frozen=True, slots=True)
class Question:
    """What to ask a provider before its offer can be awarded: the requirement's lines it leaves open (?)."""

    offer_id: int
    provider: str
    offer: str
    lines: tuple[Verdict, ...]


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A compliant offer the award could not use, and why (rejected or expired; no FX rate; …)."""

    offer_id: int
    provider: str
    offer: str
    why: str  # in the language in use, but for a closed offer's status: its code (``rejected``, ``expired``)

    @property
    def reason(self) -> str:
        """:attr:`why` in the language in use (a closed offer's status: its word)."""
        try:
            return OfferStatus(self.why).word
        except ValueError:
            return self.why


@dataclass(frozen=True, slots=True)
class AwardResult:
    requirement: Requirement
    currency: str
    candidates: int  # confirmed candidates (every line ✓), costed
    scenarios: tuple[AwardScenario, ...]  # among the confirmed candidates only
    view: RfqView  # the requirement, the invitations and each offer's verdicts (``fit_rfq``: no figures)
    questioned: int = 0  # candidates with a line not confirmed (?), costed
    if_confirmed: tuple[AwardScenario, ...] = ()  # the same scenarios with those too; () when there are none
    questions: tuple[Question, ...] = ()  # for each offer the awards if confirmed use: what to ask
    minimise: AwardObjective = AwardObjective.COST  # with PFLOP_HOUR, premiums are per delivered PFLOP-hour
    left_out: tuple[LeftOut, ...] = ()  # compliant offers that are not candidates, each with why


def _scenario_of(req: Requirement, gpus: int) -> ScenarioInput:
    return ScenarioInput(f"award: {req.name}", gpus, req.months, Decimal(1), req.currency)


@one_reading
def award(
    db: Database,
    name: str,
    *,
    max_share: Decimal = Decimal("0.6"),
    min_providers: int = 2,
    budget: Decimal | None = None,
    include_market: bool = False,
    on: date | None = None,
    minimise: AwardObjective = AwardObjective.COST,
) -> AwardResult:
    """The three award scenarios (cheapest, or least per delivered PFLOP-hour with ``minimise``; at most
    ``max_share`` per provider; at least ``min_providers`` providers) for the RFQ ``name``, each within
    ``budget`` if given: among the confirmed candidates, and if any candidate has a question open, again with it
    "if confirmed"."""
    from quotetui.services.caveats import offers_caveats
    from quotetui.services.rfq import fit_rfq

    day = on or utcnow().date()
    fitted = fit_rfq(db, name, day)
    view, fx, assumptions = fitted.view, fitted.fx, fitted.assumptions
    req = view.requirement
    considered = [f for f in view.offers if f.compliant and (include_market or f.answered)]
    fits = {f.offer_id: f for f in considered if f.closed is None}
    left_out = [LeftOut(f.offer_id, f.provider, f.offer, f.closed) for f in considered if f.closed]
    if not fits and considered:
        raise BadInput(
            _("every offer that meets RFQ {name} is off the table: {offers}").format(
                name=quoted(req.name), offers=clauses(left_out_text(x) for x in left_out[:3])
            )
        )
    if not fits and include_market:
        raise BadInput(
            _(
                "neither an answer nor an offer on record meets every line of RFQ {name}: `quotetui rfq show` says why"
            ).format(name=quoted(req.name))
        )
    if not fits:
        raise BadInput(
            _(
                "no answer to RFQ {name} that meets every line is read in yet (`quotetui import ANSWER.xlsx`); "
                "--include-market adds the offers on record that meet it"
            ).format(name=quoted(req.name))
        )
    objective = AwardObjective.parse(minimise)
    per_pflop = objective is AwardObjective.PFLOP_HOUR
    need = Need(req.gpus, req.job_gpus, budget=None if budget is None else Fraction(budget), per_pflop_hour=per_pflop)
    offers = {offer_id: fitted.inputs[offer_id] for offer_id in sorted(fits)}
    candidates = []
    for offer in offers.values():
        made = candidate_of(need, offer, req, fx, assumptions)
        if isinstance(made, Candidate):
            candidates.append(made)
        else:
            left_out.append(LeftOut(offer.id, offer.provider, offer.name, made))
    if not candidates:
        why = clauses(left_out_text(x) for x in left_out[:3])
        raise BadInput(
            _("no candidate of RFQ {name} can be costed: {why} (`quotetui rfq show` lists them all)").format(
                name=quoted(req.name), why=why
            )
        )
    sure = [c for c in candidates if fits[c.offer_id].confirmed]
    share = Fraction(max_share)

    held: dict[int, Caveats] = {}  # findings, a lapsed quote: read for the offers an award uses, not every candidate

    def shown(found: list[tuple[str, Award]]) -> tuple[AwardScenario, ...]:
        used = {offer_id for _label, a in found for offer_id in _offers_used(a)}
        new = [offers[i] for i in sorted(used - held.keys())]
        held.update(offers_caveats(db, new, req.currency, day, fx))
        exact = [_exact(label, a, offers, req, fx, assumptions, held) for label, a in found]
        # the first scenario's figure (what was minimised) is what each risk constraint is measured against
        figure = (lambda s: s.cost_per_pflop_hour) if per_pflop else (lambda s: s.total_cost)
        base = exact[0]  # a lower bound on either side makes a premium rough; the base's own 0 is exact
        return tuple(
            replace(
                s,
                premium=_premium(figure(s), figure(base)),
                premium_rough=s is not base and (base.lower_bound or s.lower_bound),
            )
            for s in exact
        )

    headline = scenarios(need, sure, max_share=share, min_providers=min_providers)
    if not sure:
        headline = [(label, Award((), None, 0, False, _(NOT_CONFIRMED))) for label, _award in headline]
    result = AwardResult(
        req, req.currency, len(sure), shown(headline), view, len(candidates) - len(sure), minimise=objective,
        left_out=tuple(sorted(left_out, key=lambda x: x.offer_id)),
    )  # fmt: skip
    if len(sure) == len(candidates):
        return result
    maybe = shown(scenarios(need, candidates, max_share=share, min_providers=min_providers))
    used = sorted({line.offer_id for s in maybe for s2 in (s, s.lean) if s2 for line in s2.lines})
    questions = tuple(
        Question(f.offer_id, f.provider, f.offer, f.questions) for f in (fits[i] for i in used) if not f.confirmed
    )
    return replace(result, if_confirmed=maybe, questions=questions)


def candidate_of(need: Need, offer: OfferInput, req: Requirement, fx: Any, assumptions: Any) -> Candidate | str:
    """``offer`` priced by the engine at every node count the award could give it; or why it cannot be (no FX
    rate to the requirement's currency, not priced, delivers nothing, cannot hold one node)."""
    try:
        one = evaluate(offer, _scenario_of(req, offer.gpus_per_node), fx, assumptions)
    except NOT_COMPARABLE as exc:
        return _("not costed: {why}").format(why=exc)
    if not one.feasibility.ok:
        return clauses(one.feasibility.blocking)

    cap = node_cap(need, offer.gpus_per_node, offer.nodes_available)

    def at(n: int) -> ScenarioInput:
        return _scenario_of(req, n * offer.gpus_per_node)

    costs = cost_curve(offer, at, cap, fx, assumptions, one)
    delivered = delivered_curve(offer, at, cap, assumptions) if need.per_pflop_hour else None
    return Candidate(offer.id, offer.provider, offer.gpus_per_node, offer.nodes_available, costs, delivered)


def _offers_used(a: Award | None) -> set[int]:
    """The offers ``a`` awards nodes to, with those of its lean split (and of that split's own)."""
    return set() if a is None else {x.offer_id for x in a.allocations} | _offers_used(a.lean)


def _premium(total: Fraction | None, base: Fraction | None) -> Fraction | None:
    return None if total is None or base is None else total - base


def _exact(
    label: str,
    found: Award,
    offers: dict[int, OfferInput],
    req: Requirement,
    fx: Any,
    assumptions: Any,
    held: dict[int, Caveats],
) -> AwardScenario:
    """The scenario with each allocation evaluated again by the engine for the GPUs it was awarded: its total must
    be the optimiser's, to the cent and beyond. Each line carries the engine's caveats for those GPUs with the
    offer's own (``held``: critical findings, a lapsed quote)."""
    if not found.feasible:
        return AwardScenario(label, False, found.reason, (), 0, None, None, None)
    lines = []
    for a in found.allocations:
        e: Evaluation = evaluate(offers[a.offer_id], _scenario_of(req, a.gpus), fx, assumptions)
        if e.best.total != a.total_cost:
            raise RuntimeError(
                f"award: offer #{a.offer_id} at {a.nodes} nodes costs {e.best.total} by the engine but "
                f"{a.total_cost} in the optimiser"
            )
        lines.append(
            AwardLine(
                a.offer_id, a.provider, offers[a.offer_id].name, a.nodes, a.gpus, e.best.total, e.best.label,
                e.delivered_pflop_hours, e.cost_per_pflop_hour, with_offer(e.caveats, held.get(a.offer_id)),
            )
        )  # fmt: skip
    total = sum((line.total_cost for line in lines), Fraction(0))
    delivered = sum((line.delivered_pflop_hours for line in lines), Fraction(0))
    if found.delivered is not None and found.delivered != delivered:
        raise RuntimeError(f"award: {delivered} PFLOP-hours by the engine, {found.delivered} in the optimiser")
    lean = _exact(label, found.lean, offers, req, fx, assumptions, held) if found.lean is not None else None
    return AwardScenario(
        label, True, "", tuple(lines), found.gpus, total, None, total / delivered if delivered > 0 else None,
        merged(line.caveats for line in lines), found.beyond_need, lean,
    )  # fmt: skip


# --- words, the same on the command line, the screen and the sheet ---------------------------------------------


def split_text(s: AwardScenario) -> str:
    """ "#1 阿里云 16 nodes (128 GPUs); #3 腾讯云 1 node (8 GPUs)"."""
    return clauses(
        _("#{id} {provider} {nodes} ({gpus})").format(
            id=a.offer_id,
            provider=a.provider,
            nodes=ngettext("{n} node", "{n} nodes", a.nodes).format(n=f"{a.nodes:,}"),
            gpus=ngettext("{n} GPU", "{n} GPUs", a.gpus).format(n=f"{a.gpus:,}"),
        )
        for a in s.lines
    )


def beyond_text(s: AwardScenario) -> str:
    """ "+1 node beyond the need", or "" for a scenario whose every node the need uses."""
    if not s.beyond_need:
        return ""
    return ngettext("+{n} node beyond the need", "+{n} nodes beyond the need", s.beyond_need).format(
        n=f"{s.beyond_need:,}"
    )


def lean_text(s: AwardScenario, currency: str, minimise: AwardObjective = AwardObjective.COST) -> str:
    """What the scenario would be without the nodes beyond the need: "without buying beyond the need: … = total
    (… more)", the difference in what was minimised; or why there is no such split; "" when it has none."""
    lean = s.lean
    if lean is None:
        return ""
    if not lean.feasible or lean.total_cost is None or s.total_cost is None:
        return _("without buying beyond the need: infeasible ({reason})").format(reason=lean.reason)
    rough = "~ " if lean.lower_bound or s.lower_bound else ""
    split, total = split_text(lean), money_figure(lean.total_cost, lean.caveats, currency)
    if minimise is AwardObjective.PFLOP_HOUR and lean.cost_per_pflop_hour is not None and s.cost_per_pflop_hour:
        gap = money_shown(lean.cost_per_pflop_hour - s.cost_per_pflop_hour, currency)
        per = money_figure(lean.cost_per_pflop_hour, lean.caveats, currency)
        return _(
            "without buying beyond the need: {split} = {total}, {per} per PFLOP-hour ({gap} more per PFLOP-hour)"
        ).format(split=split, total=total, per=per, gap=rough + gap)
    return _("without buying beyond the need: {split} = {total} ({gap} more)").format(
        split=split, total=total, gap=rough + money_shown(lean.total_cost - s.total_cost, currency)
    )


def premium_head(minimise: AwardObjective) -> str:
    """The premium column's heading: what a risk constraint costs, in what was minimised (in the language in use;
    a table's header and the name ``right=`` knows it by)."""
    return _("risk premium /PFLOP-h") if minimise is AwardObjective.PFLOP_HOUR else _("risk premium")


def question_text(q: Question) -> str:
    """ "#4 D (8×H100): Scale-out network: infiniband ndr or better? scale-out network not stated"."""
    asks = clauses(_("{line}? {why}").format(line=v.line, why=v.why) for v in q.lines)
    return _("#{id} {provider} ({offer}): {why}").format(id=q.offer_id, provider=q.provider, offer=q.offer, why=asks)


LEFT_OUT_SHOWN = 5
"""How many offers left out of an award a line names (the JSON and the sheet list every one)."""


def left_out_line(left_out: tuple[LeftOut, ...]) -> str:
    """ "Not in the award: …": each offer and why, or for many the count by reason and the first few."""
    if len(left_out) <= LEFT_OUT_SHOWN:
        return _("Not in the award: {offers}").format(offers=clauses(left_out_text(x) for x in left_out))
    reasons = Counter(re.split("[:：]", x.reason)[0] for x in left_out)  # a reason's head, before its colon
    counts = listed(f"{n:,} {why}" for why, n in reasons.most_common())
    first = clauses(left_out_text(x) for x in left_out[:LEFT_OUT_SHOWN])
    return ngettext(
        "Not in the award: {n} offer ({counts}), first {first}; --json lists them all",
        "Not in the award: {n} offers ({counts}), first {first}; --json lists them all",
        len(left_out),
    ).format(n=f"{len(left_out):,}", counts=counts, first=first)


def left_out_text(x: LeftOut) -> str:
    """ "#1 A (EUR offer): not costed: no EUR→CNY exchange rate …"."""
    return _("#{id} {provider} ({offer}): {why}").format(
        id=x.offer_id, provider=x.provider, offer=x.offer, why=x.reason
    )
