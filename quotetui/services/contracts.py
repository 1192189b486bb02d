"""Accepting an offer into a contract, and recording what happens under it (incidents, invoices).

A contract snapshots what was agreed — the price option, the discounts and extras that apply, the SLA and
its credit schedule, and the monthly charge they make — so later edits to the offer change nothing in it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel import Session, col, select

from quotetui.domain import entities as E
from quotetui.domain.contracts.amendments import Amendment, contract_terms, term_on
from quotetui.domain.contracts.dates import notice_deadline, term_end
from quotetui.domain.contracts.invoices import currency_refused
from quotetui.domain.contracts.term import incident_in_term, invoice_in_term, invoice_overlaps
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.costing import OptionCost, nodes_needed
from quotetui.domain.economics.evaluate import require_priced, ways_to_buy
from quotetui.domain.economics.exact import dec
from quotetui.domain.economics.inputs import OfferInput, PriceOption, ScenarioInput
from quotetui.domain.economics.rounds import round_to_sign
from quotetui.domain.economics.signed_terms import terms_record
from quotetui.domain.enums import BillingCadence, OfferStatus
from quotetui.domain.errors import BadInput, FieldErrors, NeedsConfirmation
from quotetui.domain.fields import parse_record
from quotetui.domain.fx import FxTable
from quotetui.domain.text import name_key
from quotetui.domain.timeutil import as_utc, local_day
from quotetui.language import N_, _, ngettext
from quotetui.language.lists import listed, quoted
from quotetui.services.contract_view import unstated_stock
from quotetui.services.engine_inputs import fx_table, load_offer_inputs
from quotetui.services.settings import load_assumptions
from quotetui.store.engine import Database
from quotetui.store.models import Contract, Incident, Invoice, Offer, QuoteRevision, SlaCreditTier, SlaTerm


def _revision(offer: OfferInput, seq: int | None) -> tuple[int, tuple[PriceOption, ...]]:
    """The round signed: ``seq``, else the current round (never our own counter-offer)."""
    try:
        r = round_to_sign(offer.revisions, lambda r: r.seq, lambda r: r.mover, lambda r: bool(r.options), seq)
    except BadInput as exc:
        raise BadInput(_("offer #{id}: {problem}").format(id=offer.id, problem=exc)) from None
    return r.seq, r.options


def round_to_be_signed(db: Database, offer_id: int) -> int:
    """The round a contract on ``offer_id`` is signed at by default (the form says it before it opens);
    ``BadInput`` naming the rounds when the last one is our counter."""
    with db.session() as session:
        found = load_offer_inputs(session, [offer_id])
    if not found:
        raise BadInput(_("no priced offer #{id} (see `quotetui offers`)").format(id=offer_id))
    return _revision(found[0], None)[0]


def agreed_way(
    offer: OfferInput,
    options: tuple[PriceOption, ...],
    gpus: int,
    months: int,
    term_option: int | None,
    fx: FxTable,
    assumptions: Assumptions,
    way: tuple[int, bool, str] | None = None,
) -> tuple[OptionCost, Fraction]:
    """The way to buy agreed, costed by the engine (``ways_to_buy``: the cheapest single option for the
    contract, or the cheapest of ``term_option`` months, or the one ``way`` names: term, prepaid, label), and
    the extras a month of full use adds (the engine's own extra lines with no egress or storage: usage-billed
    extras cannot be known in advance) in the option's currency (other currencies at the dated rate). Its
    monthly compute charge is the way's effective node-month price × nodes, after exactly the discounts its
    steps apply."""
    probe = replace(offer, options=options)
    scenario = ScenarioInput("contract", gpus, months, Decimal(1), options[0].currency)
    ways = [c for c in ways_to_buy(probe, scenario, fx, assumptions) if not c.segments]
    if term_option is not None:
        ways = [c for c in ways if c.option.term_months == term_option]
        if not ways:
            raise BadInput(_("the round has no {months}-month price option").format(months=term_option))
    if way is not None:  # the way a contract agreed (term, prepaid, label), for another count (an amendment)
        ways = [c for c in ways if (c.option.term_months, c.option.prepay, c.option.label) == way]
        if not ways:
            said = _("the round no longer offers the way to buy signed: state the monthly charge agreed")
            raise FieldErrors({"monthly_charge": said})
    best = ways[0]
    extras = sum((line.monthly for line in best.extras), Fraction(0))
    extras = fx.convert(extras, scenario.home_currency, best.option.currency)[0]
    return best, extras


def agreed_charge(way: OptionCost, gpus: int, gpus_per_node: int) -> tuple[Fraction, list[dict[str, str]]]:
    """The way's monthly compute charge for ``gpus`` (its effective node-month price × nodes), and exactly the
    discounts its steps apply, as a contract keeps them."""
    compute = way.effective_node_month * nodes_needed(gpus, gpus_per_node)
    return compute, [{"label": s.discount.label, "rate": str(s.discount.rate)} for s in way.steps if s.applied]


SIGN, AMEND = N_("Sign"), N_("Amend")
"""What ``ask_beyond_stock`` asks to do (the confirming button's word: English message ids)."""


def ask_beyond_stock(
    verb: str, offer_id: int, subject: str, gpus: int, nodes: int, monthly: Fraction, currency: str
) -> None:
    """More than one node on an offer whose stock is not stated: ``NeedsConfirmation`` (the TUI asks "Sign …?",
    "Amend …?") naming the commitment and its monthly charge. ``verb``: :data:`SIGN` or :data:`AMEND`, the
    button's word as declared (the dialog translates it)."""
    said = unstated_stock(offer_id, subject, gpus, nodes, monthly, currency, sentence=True)
    if said is not None:
        question = (
            _("Sign beyond the offer's stated stock?") if verb == SIGN else _("Amend beyond the offer's stated stock?")
        )
        raise NeedsConfirmation(question, said, yes=verb)


def _sla(session: Session, offer_id: int) -> dict[str, Any]:
    sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == offer_id)).first()
    if sla is None:
        return {}
    tiers = session.exec(select(SlaCreditTier).where(SlaCreditTier.sla_term_id == sla.id)).all()
    return {
        "availability": None if sla.availability is None else str(sla.availability),
        "response_minutes": sla.response_minutes,
        "replacement_hours": sla.replacement_hours,
        "credits": [[str(t.below), str(t.credit)] for t in sorted(tiers, key=lambda t: t.below, reverse=True)],
    }


def accept_offer(
    db: Database,
    offer_id: int,
    *,
    start: date,
    term_months: int,
    revision: int | None = None,
    notice_days: int | None = None,
    auto_renew: bool = False,
    renewal_months: int | None = None,
    reference: str | None = None,
    signed: date | None = None,
    billing: BillingCadence = BillingCadence.MONTHLY,
    gpus: int | None = None,
    committed: Decimal | None = None,
    prepayment: Decimal | None = None,
    early_termination: str | None = None,
    term_option: int | None = None,
    tolerance: Decimal = Decimal(0),
    acceptance_sample: Decimal | None = None,
    acceptance_sample_min: int | None = None,
    stock_confirmed: bool = True,
) -> Contract:
    """Sign a round of an offer: the contract keeps what was agreed; the offer becomes ``accepted``. Every
    value is checked by the contract's declared fields and rules (``FieldErrors`` names each bad one).
    Without ``stock_confirmed``, more than one node of an offer whose stock is not stated is refused with
    ``NeedsConfirmation`` (nothing written) naming the commitment and its monthly charge: the TUI asks."""
    v = parse_record(
        E.CONTRACT,
        {
            "start": start,
            "term_months": term_months,
            "notice_days": notice_days,
            "auto_renew": auto_renew,
            "renewal_months": renewal_months,
            "reference": reference,
            "signed": signed,
            "billing": billing,
            "gpus": gpus,
            "committed": committed,
            "prepayment": prepayment,
            "early_termination": early_termination,
            "tolerance": tolerance,
            "acceptance_sample": acceptance_sample,
            "acceptance_sample_min": acceptance_sample_min,
        },
    )
    reference, tolerance = v["reference"], v["tolerance"]
    end = term_end(start, term_months)
    deadline = notice_deadline(end, notice_days)
    with db.write() as session:
        if reference is not None:
            taken = session.exec(select(Contract.reference).where(col(Contract.reference).is_not(None))).all()
            twin = next((r for r in taken if r is not None and name_key(r) == name_key(reference)), None)
            if twin is not None:
                said = (
                    _("a contract with reference {reference} exists already")
                    if twin == reference
                    else _("a contract with reference {reference} exists already (written {twin})")
                )
                raise FieldErrors({"reference": said.format(reference=quoted(reference), twin=quoted(twin))})
        found = load_offer_inputs(session, [offer_id])
        if not found:
            raise BadInput(_("no priced offer #{id} (see `quotetui offers`)").format(id=offer_id))
        offer = require_priced(found[0])
        count = gpus if gpus is not None else offer.gpus_per_node
        if offer.nodes_available is not None and count > offer.nodes_available * offer.gpus_per_node:
            on_offer = offer.nodes_available * offer.gpus_per_node
            said = ngettext(
                "{count} GPUs, but the offer has {n} node × {per_node} = {total} GPUs on offer",
                "{count} GPUs, but the offer has {n} nodes × {per_node} = {total} GPUs on offer",
                offer.nodes_available,
            ).format(
                count=f"{count:,}",
                n=f"{offer.nodes_available:,}",
                per_node=offer.gpus_per_node,
                total=f"{on_offer:,}",
            )
            raise FieldErrors({"gpus": said})
        seq, options = _revision(offer, revision)
        fx = fx_table(session, start)
        assumptions = replace(load_assumptions(session), net_of_vat=False)  # a contract's charges are invoiced
        way, flat = agreed_way(offer, options, count, term_months, term_option, fx, assumptions)
        option = way.option
        monthly, applied = agreed_charge(way, count, offer.gpus_per_node)
        if not stock_confirmed and offer.nodes_available is None:
            ask_beyond_stock(SIGN, offer_id, _("this contract"), count, nodes_needed(count, offer.gpus_per_node),
                             monthly + flat, option.currency)  # fmt: skip
        extras = [
            {"label": x.label, "basis": x.basis.value, "amount": str(x.amount), "currency": x.currency}
            for x in offer.extras
            if x.amount is not None
        ]
        row = session.exec(
            select(QuoteRevision).where(QuoteRevision.offer_id == offer_id, QuoteRevision.seq == seq)
        ).one()
        assert row.id is not None
        snapshot = {
            "round": seq,
            "sold": {  # what acceptance judges against, whatever the offer says later (``acceptance.sold_by``)
                "gpu": offer.gpu.key,
                "gpu_name": offer.gpu.name,
                "gpus_per_node": offer.gpus_per_node,
                "nodes": nodes_needed(count, offer.gpus_per_node),
                "intra_fabric": offer.intra_fabric.value,
                "inter_fabric": offer.inter_fabric.value,
                "inter_gbps_per_gpu": None if offer.inter_gbps_per_gpu is None else str(offer.inter_gbps_per_gpu),
                "nodes_available": offer.nodes_available,  # the stock the offer stated (None: not stated)
                "sample": None  # the nodes acceptance checks, as the contract states (None: every node)
                if v["acceptance_sample"] is None and v["acceptance_sample_min"] is None
                else {
                    "share": None if v["acceptance_sample"] is None else str(v["acceptance_sample"]),
                    "at_least": v["acceptance_sample_min"],
                },
            },
            "option": {"term_months": option.term_months, "prepay": option.prepay, "label": option.label},
            "terms": terms_record(offer, options, assumptions, fx),  # what an amendment is costed on
            "gpus_per_node": offer.gpus_per_node,
            "monthly_compute": str(dec(monthly, 6)),
            "monthly_extras": str(dec(flat, 6)),
            "monthly_charge": str(dec(monthly + flat, 6)),
            "discounts": applied,  # exactly those the charge applies (``costing.discount_steps``)
            "extras": extras,
            "sla": _sla(session, offer_id),
            "invoice_tolerance": str(tolerance),
        }
        contract = Contract(
            offer_id=offer_id,
            revision_id=row.id,
            reference=reference,
            signed_date=signed,
            start_date=start,
            term_months=term_months,
            end_date=end,
            billing_cadence=billing,
            gpu_count=count,
            price=option.costed_amount,
            price_unit=option.unit,
            currency=option.currency,
            committed_spend=committed,
            prepayment=prepayment,
            auto_renew=auto_renew,
            renewal_term_months=renewal_months if renewal_months is not None else (term_months if auto_renew else None),
            notice_days=notice_days,
            notice_deadline=deadline,
            early_termination=early_termination,
            snapshot=snapshot,
        )
        session.add(contract)
        stored = session.get(Offer, offer_id)
        assert stored is not None
        stored.status = OfferStatus.ACCEPTED
        session.flush()
        return contract


def _contract(session: Session, contract_id: int) -> Contract:
    found = session.get(Contract, contract_id)
    if found is None:
        ids = session.exec(select(col(Contract.id)).order_by(col(Contract.id))).all()
        if ids:
            said = _("no contract #{id} (contracts: {ids})").format(id=contract_id, ids=listed(f"#{i}" for i in ids))
            raise BadInput(said)
        raise BadInput(_("no contract #{id}").format(id=contract_id))
    return found


def add_incident(
    db: Database,
    contract_id: int,
    started_at: datetime,
    ended_at: datetime | None,
    description: str,
    affected_gpus: int | None = None,
    affected_nodes: int | None = None,
    claimed: bool = False,
    received: Decimal | None = None,
) -> Incident:
    v = parse_record(
        E.INCIDENT,
        {
            "started_at": started_at,
            "ended_at": ended_at,
            "affected_gpus": affected_gpus,
            "affected_nodes": affected_nodes,
            "description": description,
            "claimed": claimed,
            "received": received,
        },
    )
    started_at, ended_at, description = v["started_at"], v["ended_at"], v["description"]
    with db.write() as session:
        contract = _contract(session, contract_id)
        zone = load_assumptions(session).time_zone
        day = local_day(started_at, zone)
        changes = _amendments(contract)
        end = term_end_by(contract, day, changes)
        problems = incident_in_term(started_at, contract.start_date, end, zone)
        covered = int(term_on(changes, "gpus", contract.gpu_count, day))  # as in force that day
        if affected_gpus is not None and affected_gpus > covered:
            problems["affected_gpus"] = _("{n} GPUs affected; the contract covers {covered}").format(
                n=affected_gpus, covered=covered
            )
        if problems:
            raise FieldErrors(problems)
        _refuse_a_second_record(session, contract_id, (started_at, ended_at, affected_gpus, affected_nodes))
        incident = Incident(
            contract_id=contract_id,
            started_at=started_at,
            ended_at=ended_at,
            affected_gpus=affected_gpus,
            affected_nodes=affected_nodes,
            description=description,
            credit_claimed=claimed or received is not None,
            credit_received=received,
        )
        session.add(incident)
        session.flush()
        return incident


def term_end_by(contract: Contract, day: date, amendments: list[Amendment] | None = None) -> date:
    """The end of the term running on ``day``: the signed end, or, for a contract that renews by itself, the end
    of the renewal ``day`` falls in (an outage or a bill of a renewed term belongs to the contract).
    ``amendments``: the contract's, when the caller has read them already."""
    terms = contract_terms(contract, day, _amendments(contract) if amendments is None else amendments)
    return next((t.end for t in terms if day < t.end), terms[-1].end)


def _amendments(contract: Contract) -> list[Amendment]:
    """The contract's amendments, read in its session."""
    from quotetui.services.contract_rows import amendments_of_one
    from quotetui.store.reader import session_reader

    assert contract.id is not None
    return amendments_of_one(session_reader(Session.object_session(contract)), contract.id)


def _outage(incident: Incident) -> tuple[datetime, datetime | None, int | None, int | None]:
    """What an incident records of an outage: its start, end and the GPUs and nodes down."""
    end = as_utc(incident.ended_at) if incident.ended_at is not None else None
    return as_utc(incident.started_at), end, incident.affected_gpus, incident.affected_nodes


def _refuse_a_second_record(
    session: Session, contract_id: int, outage: tuple[datetime, datetime | None, int | None, int | None], *,
    but: int | None = None,
) -> None:  # fmt: skip
    """An outage one of the contract's incidents (other than ``but``) already records is refused: its downtime
    would count twice (a partial outage's shares add up)."""
    for other in session.exec(select(Incident).where(Incident.contract_id == contract_id)):
        if other.id != but and _outage(other) == outage:
            said = _(
                "incident #{id} already records this outage (same start, end and GPUs): update it rather than "
                "counting the downtime twice (other GPUs down at the same time: record them in that incident, with "
                "the total)"
            )
            raise FieldErrors({"started_at": said.format(id=other.id)})


def update_incident(
    db: Database,
    incident_id: int,
    *,
    claimed: bool | None = None,
    received: Decimal | None = None,
    ended_at: datetime | None = None,
) -> Incident:
    with db.write() as session:
        incident = session.get(Incident, incident_id)
        if incident is None:
            raise BadInput(_("no incident #{id}").format(id=incident_id))
        if ended_at is not None:
            end = parse_record((E.INCIDENT.field("ended_at"),), {"ended_at": ended_at})["ended_at"]
            problems = E.incident_rules({"started_at": as_utc(incident.started_at), "ended_at": end})
            if problems:
                raise FieldErrors(problems)
            incident.ended_at = end
            _refuse_a_second_record(session, incident.contract_id, _outage(incident), but=incident.id)
        if claimed is not None:
            incident.credit_claimed = claimed
        if received is not None:
            incident.credit_received = parse_record((E.INCIDENT.field("received"),), {"received": received})["received"]
            incident.credit_claimed = True
        session.flush()
        return incident


def add_invoice(
    db: Database,
    contract_id: int,
    period_start: date,
    period_end: date,
    amount: Decimal,
    currency: str,
    *,
    issued_on: date | None = None,
    reference: str | None = None,
    paid: bool = False,
) -> Invoice:
    v = parse_record(
        E.INVOICE,
        {
            "period_start": period_start,
            "period_end": period_end,
            "amount": amount,
            "currency": currency,
            "issued_on": issued_on,
            "reference": reference,
            "paid": paid,
        },
    )
    amount, code, reference = v["amount"], v["currency"], v["reference"]
    with db.write() as session:
        contract = _contract(session, contract_id)
        end = term_end_by(contract, v["period_end"])
        problems = invoice_in_term(v["period_start"], v["period_end"], contract.start_date, end)
        billed = session.exec(
            select(Invoice.id, Invoice.period_start, Invoice.period_end).where(Invoice.contract_id == contract_id)
        ).all()
        problems = invoice_overlaps(v["period_start"], v["period_end"], list(billed)) or problems
        if refused := currency_refused(contract.currency, code):
            problems["currency"] = refused
        if problems:
            raise FieldErrors(problems)
        invoice = Invoice(
            contract_id=contract_id,
            period_start=period_start,
            period_end=period_end,
            amount=amount,
            currency=code,
            issued_on=issued_on,
            reference=reference,
            paid=paid,
        )
        session.add(invoice)
        session.flush()
        return invoice
