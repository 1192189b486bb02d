"""The negotiation brief (``quotetui brief``): what a negotiator takes into the room for one offer, in plain,
bilingual Markdown (or the same content as data).

Every figure is one another service already makes, read from it, never worked out again here: the position
(BATNA, target per option, savings) is :func:`quotetui.services.negotiation.negotiation`, the one ``explain``
prints; the market median and the offer's price against it are ``bench check``'s (:func:`check_offer`); the
claims are the claims audit's verdicts; the unknown costs are the evaluation's. Text from the database (names,
notes, quotes) is data: :func:`md` shows it inert, never as Markdown structure or terminal control.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from quotetui.domain.economics.claims import Audit, Verdict, value_words
from quotetui.domain.economics.costing import base_option
from quotetui.domain.economics.display import money_number, stored_text, target_number
from quotetui.domain.economics.exact import dec, percent_text, q, share_text
from quotetui.domain.economics.explain import cost_text, quoted_option
from quotetui.domain.economics.inputs import OPEN_STATUSES, PriceOption, Revision
from quotetui.domain.economics.negotiation import target_words
from quotetui.domain.economics.units import UNIT_WORDS
from quotetui.domain.enums import mover_word
from quotetui.domain.errors import BadInput
from quotetui.domain.text import markdown_text as md
from quotetui.domain.text import name_key
from quotetui.domain.verification.findings import Finding, FindingCode
from quotetui.language import _
from quotetui.language.dates import day_text
from quotetui.language.lists import aside, clauses, labelled, quoted

if TYPE_CHECKING:
    from quotetui.services.negotiation import Negotiation
    from quotetui.services.verification import OfferCheck
    from quotetui.store.engine import Database
    from quotetui.store.models.market import SlaCreditTier, SlaTerm


@dataclass(frozen=True, slots=True)
class OfferBrief:
    negotiation: Negotiation
    check: OfferCheck
    claims: list[Audit]  # the offer's claims the audit does not find plausible
    sla: SlaTerm | None
    credits: list[SlaCreditTier]

    @property
    def round(self) -> Revision | None:
        """The current round (by the one definition :class:`Negotiation`'s savings use)."""
        s = self.negotiation.savings
        if s is None:
            return None
        return next((r for r in self.negotiation.evaluation.offer.revisions if r.seq == s.current.seq), None)

    @property
    def findings(self) -> list[Finding]:
        """``bench check``'s findings, less those that only repeat a claim listed on its own."""
        return [f for f in self.check.findings if f.code is not FindingCode.IMPLAUSIBLE_CLAIM]

    def sla_gaps(self) -> list[str]:
        e = self.negotiation.evaluation
        default = e.assumptions.default_availability
        if self.sla is None:
            return [
                _("no SLA on record: availability assumed at the default {share}").format(share=share_text(default))
            ]
        gaps = []
        if self.sla.availability is None:
            gaps.append(_("no availability commitment"))
        elif q(self.sla.availability) < default:
            gaps.append(
                _("availability {share} is below the default {default}").format(
                    share=share_text(self.sla.availability), default=share_text(default)
                )
            )
        if not self.credits:
            gaps.append(_("no credit schedule: nothing is owed when availability is missed"))
        if self.sla.replacement_hours is None:
            gaps.append(_("no replacement time for a failed GPU or node"))
        return gaps


def offer_brief(db: Database, offer_id: int, scenario: str | None = None, on: date | None = None) -> OfferBrief:
    from quotetui.services.claims import audit_claims
    from quotetui.services.negotiation import negotiation
    from quotetui.services.offer_detail import load_offer_detail
    from quotetui.services.verification import check_offer

    n = negotiation(db, offer_id, scenario, on)
    detail = load_offer_detail(db, offer_id)
    claims = [a for a in audit_claims(db) if a.claim.offer_id == offer_id and a.verdict is not Verdict.PLAUSIBLE]
    return OfferBrief(n, check_offer(db, offer_id, scenario, on), claims, detail.sla, list(detail.credits))


def provider_briefs(
    db: Database, provider: str, scenario: str | None = None, on: date | None = None
) -> list[OfferBrief]:
    """A brief for every open offer of ``provider`` (named as recorded, in any case or width)."""
    from quotetui.services.economics import rank_offers
    from quotetui.services.market import list_providers

    key = name_key(provider)
    if not any(name_key(p.name) == key for p in list_providers(db)):
        raise BadInput(_("no provider named {name}; `quotetui providers` lists them").format(name=quoted(provider)))
    ranking = rank_offers(db, scenario, on=on)
    ids = sorted(
        e.offer.id for e in ranking.evaluations if name_key(e.offer.provider) == key and e.offer.status in OPEN_STATUSES
    )
    if not ids:
        raise BadInput(_("provider {name} has no open priced offer to brief").format(name=quoted(provider)))
    return [offer_brief(db, i, scenario, on) for i in ids]


# --- Markdown -------------------------------------------------------------------------------------------------


def _round_words(r: Revision) -> str:
    return _("round {seq} ({mover}), {day}").format(seq=r.seq, mover=md(mover_word(r.mover)), day=day_text(r.quoted_on))


def _price(o: PriceOption, amount: Decimal, *, target: bool = False) -> str:
    """A price in ``o``'s unit: as quoted (exact), or a ``target`` to stay under (``display.target_number``)."""
    shown = target_number(amount, o.currency) if target else stored_text(amount, o.currency)
    return f"{shown} {o.currency} {_(UNIT_WORDS[o.unit])}"


def markdown(briefs: list[OfferBrief], title: str | None = None) -> str:
    """The whole brief: one section per offer."""
    if title is None:
        o = briefs[0].negotiation.evaluation.offer
        title = aside(f"{md(o.provider)} — {md(o.name)}", f"#{o.id}")
    out = ["# " + _("Negotiation brief / 谈判简报: {title}").format(title=title), ""]
    for b in briefs:
        out += _section(b)
    return "\n".join(out).rstrip("\n") + "\n"


def _section(b: OfferBrief) -> list[str]:
    n = b.negotiation
    e = n.evaluation
    o = e.offer
    out = [
        f"## #{o.id} {md(o.provider)} — {md(o.name)}",
        "",
        "- "
        + _("Scenario / 场景: {scenario} ({gpus} GPUs × {months} months)").format(
            scenario=md(e.scenario.name), gpus=e.scenario.gpu_count, months=e.scenario.months
        ),
        "- "
        + _("Sold as / 配置: {configuration}; status {status}").format(
            configuration=md(o.configuration), status=o.status.word
        ),
        *("- " + _("Caveat / 注意: {caveat}").format(caveat=md(w)) for w in n.caveats.words(o.id)),
        "",
        "### " + _("Their current offer / 对方当前报价"),
        "",
    ]
    r = b.round
    if r is not None:
        out.append(
            _("Current round {seq} ({mover}), {day}, in their unit and currency:").format(
                seq=r.seq, mover=md(mover_word(r.mover)), day=day_text(r.quoted_on)
            )
        )
        out.append("")
    out += [f"- {md(quoted_option(option))}" for option in o.options]
    out += ["", "### " + _("Our BATNA and target prices / 我方替代方案与目标价"), ""]
    out += _position(n)
    out += ["", "### " + _("Concessions so far / 让步记录"), ""]
    out += _concessions(n)
    out += ["", "### " + _("Market median / 市场中位价"), ""]
    out += _market(b)
    out += ["", "### " + _("Unknown costs to ask about / 待询问的未定价费用"), ""]
    out += [f"- {md(u)}" for u in e.unknowns] or ["- " + _("none: every cost of the scenario is priced / 无")]
    out += ["", "### " + _("Claims and findings to push on / 需追问的宣称与核查问题"), ""]
    out += _claims(b)
    out += ["", "### " + _("SLA gaps / SLA 缺口"), ""]
    out += [f"- {gap}" for gap in b.sla_gaps()] or [
        "- " + _("none: SLA, credit schedule and replacement time on record / 无")
    ]
    return [*out, ""]


def _position(n: Negotiation) -> list[str]:
    e, b = n.evaluation, n.batna
    if not e.feasibility.ok:
        lines = [
            "- " + _("not feasible for this scenario: {reasons}").format(reasons=md(clauses(e.feasibility.blocking)))
        ]
    else:
        lines = []
    if b is None:
        return [*lines, "- " + _("no feasible offer from another provider to compare with (no BATNA)")]
    lines.append("- " + _("BATNA / 最佳替代方案: {batna}").format(batna=md(n.batna_line())))
    if e.if_claims_hold is not None:
        lines.append(
            "- "
            + _(
                "if their claims hold / 若宣称属实: {cost} {currency} per delivered PFLOP-hour; ranked on the figure "
                "above until a log verifies them (ask for the logs)"
            ).format(cost=cost_text(e, e.if_claims_hold, 2), currency=e.currency)
        )
    lines.append("- " + _("headline / 总目标 (every way to buy): {target}").format(target=md(target_words(n.target))))
    for p in n.options:
        t = p.target
        way, now = md(p.option.shown), _price(p.option, dec(q(p.option.costed_amount), 2))
        if t is None:
            line = _("{way}: now {price}; no target (the price is zero)").format(way=way, price=now)
        elif t.amount <= 0:
            line = _(
                "{way}: now {price}; price alone cannot beat the BATNA (the extra costs already exceed it)"
            ).format(way=way, price=now)
        elif t.already_beats:
            line = _("{way}: now {price}; already beats the BATNA, up to {target} ({share} headroom)").format(
                way=way, price=now, target=_price(t.option, t.amount, target=True), share=percent_text(-t.cut, 1)
            )
        else:
            line = _("{way}: now {price}; target at most {target} ({share} below)").format(
                way=way, price=now, target=_price(t.option, t.amount, target=True), share=percent_text(t.cut, 1)
            )
        lines.append(f"- {line}")
    return lines


def _concessions(n: Negotiation) -> list[str]:
    offer = n.evaluation.offer
    lines = [
        "- " + labelled(_round_words(r), md(quoted_option(base_option(r.options))))
        for r in offer.revisions
        if r.options
    ] or ["- " + _("no priced round on record")]
    s = n.savings
    if s is None or s.first.seq == s.current.seq:
        lines.append("- " + _("no concession yet: the current round is the provider's first priced one / 尚无让步"))
    elif s.vs_first is not None:
        lines.append(
            "- "
            + _("saved since the first offer (round {seq}): {share}").format(
                seq=s.first.seq, share=percent_text(s.vs_first, 2)
            )
        )
    if s is not None and s.list_price is not None and s.list_price.seq != s.current.seq and s.vs_list is not None:
        lines.append(
            "- "
            + _("saved against the list price (round {seq}): {share}").format(
                seq=s.list_price.seq, share=percent_text(s.vs_list, 2)
            )
        )
    for p in n.options:
        if p.vs_first is not None:
            lines.append(
                "- "
                + _("{way}: {share} saved since the first offer").format(
                    way=md(p.option.shown), share=percent_text(p.vs_first, 2)
                )
            )
    return lines


def _market(b: OfferBrief) -> list[str]:
    ref = b.check.reference
    gpu = md(b.negotiation.evaluation.offer.gpu.name)
    if ref is None:
        return ["- " + _("no market median for {gpu} on record").format(gpu=gpu)]
    gap = (ref.price - ref.median) / ref.median
    if gap == 0:
        where = _("at the median")
    elif gap > 0:
        where = _("{share} above the median").format(share=percent_text(abs(gap), 1))
    else:
        where = _("{share} below the median").format(share=percent_text(abs(gap), 1))
    return [
        "- "
        + _("{gpu}: median {price} {currency} per GPU-hour ({basis})").format(
            gpu=gpu, price=money_number(ref.median, 4), currency=ref.currency, basis=md(ref.basis)
        ),
        "- "
        + _("this offer's lowest price: {price} {currency} per GPU-hour, {where}").format(
            price=money_number(ref.price, 4), currency=ref.currency, where=where
        ),
    ]


def _claims(b: OfferBrief) -> list[str]:
    lines = [
        "- "
        + _("claim #{id} {metric} {value}: **{verdict}**, {explanation}").format(
            id=a.claim.id,
            metric=a.claim.metric.spaced,
            value=md(value_words(a.claim.value, a.claim.unit, a.claim.value_high)),
            verdict=a.verdict.word,
            explanation=md(a.explanation),
        )
        for a in b.claims
    ]
    finding = _("{severity} {code}: {title}, {explanation}")
    lines += [
        "- "
        + finding.format(
            severity=f.severity.word.upper(), code=md(f.code.word), title=md(f.title), explanation=md(f.explanation)
        )
        for f in b.findings
    ]
    return lines or ["- " + _("none: no doubtful claim or finding on record / 无")]


# --- data -----------------------------------------------------------------------------------------------------


def brief_json(b: OfferBrief) -> dict[str, Any]:
    """The same content as :func:`markdown`, as data: the offer's figures and its negotiation position are
    ``explain --json``'s, the market reference ``bench check --json``'s, each claim the claims audit's."""
    from quotetui.services.claims import audit_json
    from quotetui.services.economics import evaluation_json

    e = b.negotiation.evaluation
    r = b.round
    return evaluation_json(e, b.negotiation.rank) | {
        "scenario": e.scenario.name,
        "caveats": b.negotiation.caveats.to_json(),  # as explain --json has them
        "current_round": None if r is None else {"seq": r.seq, "mover": r.mover, "quoted_on": r.quoted_on.isoformat()},
        "current_options": [quoted_option(o) for o in e.offer.options],
        "negotiation": b.negotiation.to_json(),
        "rounds": [
            {
                "seq": x.seq,
                "mover": x.mover,
                "quoted_on": x.quoted_on.isoformat(),
                "options": list(map(quoted_option, x.options)),
            }
            for x in e.offer.revisions
            if x.options
        ],
        "market": b.check.to_json()["market"],
        "claims": [audit_json(a) for a in b.claims],
        "findings": [f.to_json() for f in b.findings],
        "sla_gaps": b.sla_gaps(),
    }


__all__ = ["OfferBrief", "brief_json", "markdown", "md", "offer_brief", "provider_briefs"]
