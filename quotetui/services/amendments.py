"""Contract amendments: the only way a signed contract's terms change, each an explicit, dated record.

An amendment names the terms it changes (GPUs, the monthly charge, the term, the notice period, the GPU model
delivered, the acceptance sample), from its effective day, with what was agreed and by whom. The contract then
reads as amended from that day — acceptance judges the nodes, model and sample in force on its day
(``acceptance.judged``) — and invoices and SLA credits are measured against the charge in force on each day
(``domain/contracts/charges.py``), so days before the amendment keep the old charge.
New GPUs with no charge stated are costed by the engine, as at signing: the signed round's way to buy for the new
count, with the discounts that count earns (never the old charge scaled).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel import Session, col, select

from quotetui.domain import entities as E
from quotetui.domain.contracts.amendments import TERMS, Amendment
from quotetui.domain.contracts.dates import notice_deadline, term_end
from quotetui.domain.economics.costing import nodes_needed
from quotetui.domain.economics.exact import dec, q
from quotetui.domain.economics.signed_terms import as_signed, signed_assumptions, signed_fx
from quotetui.domain.enums import AtTermEnd
from quotetui.domain.errors import BadInput, FieldErrors
from quotetui.domain.fields import parse_record
from quotetui.domain.timeutil import as_utc
from quotetui.language import _, ngettext
from quotetui.language.lists import listed
from quotetui.services.contracts import AMEND, agreed_charge, agreed_way, ask_beyond_stock, term_end_by
from quotetui.services.engine_inputs import fx_table, load_offer_inputs
from quotetui.services.settings import load_assumptions
from quotetui.store.audit import os_user
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database
from quotetui.store.models import Contract, ContractAmendment, Incident, Invoice


def _engine_charge(session: Session, contract: Contract, gpus: int) -> tuple[Fraction, Fraction, list[dict[str, str]]]:
    """The signed way to buy, costed by the engine for ``gpus`` on the terms the contract signed (its
    ``terms``: the round's options, the discounts and extras then on the table, the node size sold), as
    ``accept_offer`` costs it: the monthly compute charge, the extras a month adds, and the discounts applied."""
    terms = contract.snapshot.get("terms")
    if not terms:
        said = _("this contract was signed before contracts kept their terms: state the monthly charge agreed")
        raise FieldErrors({"monthly_charge": said})
    found = load_offer_inputs(session, [contract.offer_id])
    if not found:
        raise FieldErrors({"monthly_charge": _("the offer is no longer on record: state the monthly charge agreed")})
    offer, options = as_signed(found[0], terms)
    kept = contract.snapshot.get("option") or {}
    assumptions = signed_assumptions(replace(load_assumptions(session), net_of_vat=False), terms)  # as invoiced
    fx = signed_fx(terms) if "fx_on" in terms else fx_table(session, contract.start_date)
    signed = (kept.get("term_months"), kept.get("prepay"), kept.get("label"))
    way, flat = agreed_way(offer, options, gpus, contract.term_months, None, fx, assumptions, signed)
    compute, applied = agreed_charge(way, gpus, offer.gpus_per_node)
    return compute, flat, applied


def _after_the_end(session: Session, contract_id: int, end: date) -> list[str]:
    """The invoices and incidents recorded on or after ``end`` (service covers [start, end)), in words."""
    bills = session.exec(select(Invoice).where(Invoice.contract_id == contract_id, col(Invoice.period_end) >= end))
    invoice = _("invoice #{id} ({first} – {last})")
    found = [invoice.format(id=i.id, first=i.period_start.isoformat(), last=i.period_end.isoformat()) for i in bills]
    for i in session.exec(select(Incident).where(Incident.contract_id == contract_id)):
        if as_utc(i.started_at).date() >= end:
            found.append(_("incident #{id} ({day})").format(id=i.id, day=as_utc(i.started_at).date().isoformat()))
    return found


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def amend_contract(db: Database, contract_id: int, raw: dict[str, Any], *, stock_confirmed: bool = True) -> Amendment:
    """Records an amendment (the fields of ``entities.AMENDMENT``) and applies it to the contract; refused, with
    nothing changed, when it changes nothing, starts outside the term or before an earlier amendment, or
    makes the notice period longer than the term. Without ``stock_confirmed``, more GPUs than one node on an
    offer whose stock is not stated ask first (``NeedsConfirmation``), as signing does."""
    v = parse_record(E.AMENDMENT, raw)
    given = {k: v[k] for k in TERMS if v.get(k) is not None}
    if not given:
        raise BadInput(
            _(
                "an amendment changes at least one term: --gpus, --monthly-charge, --term-months, --notice-days, "
                "--gpu, --acceptance-sample, --acceptance-sample-min or --at-end"
            )
        )
    with db.write() as session:
        contract = session.get(Contract, contract_id)
        if contract is None:
            raise BadInput(_("no contract #{id}").format(id=contract_id))
        last = session.exec(
            select(ContractAmendment.seq, ContractAmendment.effective)
            .where(ContractAmendment.contract_id == contract_id)
            .order_by(col(ContractAmendment.seq).desc())
        ).first()
        effective: date = v["effective"]
        problems: dict[str, str] = {}
        if not contract.start_date <= effective < term_end_by(contract, effective):  # a renewal's day is in
            problems["effective"] = _("{day} is outside the contract's term ({start} → {end})").format(
                day=effective.isoformat(), start=contract.start_date.isoformat(), end=contract.end_date.isoformat()
            )
        elif last is not None and effective < last[1]:
            problems["effective"] = _(
                "amendment {seq} is in force from {day}: a later one cannot start before it"
            ).format(seq=last[0], day=last[1].isoformat())
        snapshot = dict(contract.snapshot or {})
        sold = dict(snapshot.get("sold") or {})
        changes: dict[str, list[Any]] = {}
        per_node = int(sold.get("gpus_per_node") or snapshot.get("gpus_per_node") or 1)
        if "gpus" in given and given["gpus"] != contract.gpu_count:
            stock = sold.get("nodes_available")
            if stock is not None and given["gpus"] > stock * per_node:
                problems["gpus"] = ngettext(
                    "{gpus} GPUs, but the offer stated {n} node × {per_node} = {total} GPUs",
                    "{gpus} GPUs, but the offer stated {n} nodes × {per_node} = {total} GPUs",
                    stock,
                ).format(gpus=f"{given['gpus']:,}", n=f"{stock:,}", per_node=per_node, total=f"{stock * per_node:,}")
            changes["gpus"] = [contract.gpu_count, given["gpus"]]
            nodes = nodes_needed(given["gpus"], per_node)
            if sold and nodes != sold.get("nodes"):
                changes["nodes"] = [sold.get("nodes"), nodes]
                sold["nodes"] = nodes
        charge = given.get("monthly_charge")
        split: tuple[Decimal, Decimal] | None = None
        if "gpus" in changes and charge is None and not problems:
            try:
                compute, extras, applied = _engine_charge(session, contract, given["gpus"])
                charge = dec(compute + extras, 6)
                split = (dec(compute, 6), dec(extras, 6))
                if applied != snapshot.get("discounts", []):  # the records, so the days before it keep theirs
                    changes["discounts"] = [snapshot.get("discounts", []), applied]
                    snapshot["discounts"] = applied
            except FieldErrors as exc:
                problems.update(exc.errors)
        if charge is not None:
            before = Decimal(snapshot.get("monthly_charge", "0"))
            if charge != before:
                changes["monthly_charge"] = [f"{before:.6f}", f"{charge:.6f}"]  # as signing writes amounts
                snapshot["monthly_charge"] = f"{charge:.6f}"
                # the engine's split; a stated charge is the whole agreed charge, its parts not stated
                compute, extras = split if split is not None else (charge, None)
                snapshot["monthly_compute"] = f"{compute:.6f}"
                snapshot["monthly_extras"] = None if extras is None else f"{extras:.6f}"
        months = given.get("term_months", contract.term_months)
        notice = given.get("notice_days", contract.notice_days)
        if "term_months" in given and months != contract.term_months:
            end = term_end(contract.start_date, months)
            if end <= effective:
                problems["term_months"] = _("a {months}-month term ends on {day}, before it is in force").format(
                    months=months, day=end.isoformat()
                )
            changes["term_months"] = [contract.term_months, months]
            changes["end"] = [contract.end_date.isoformat(), end.isoformat()]
            renews = contract.auto_renew and contract.renewal_term_months  # what falls after the end: a renewal's
            late = [] if renews else _after_the_end(session, contract_id, end)
            if late:
                problems["term_months"] = ngettext(
                    "the term would end on {day}, but {records} falls after it: the term cannot leave it outside",
                    "the term would end on {day}, but {records} fall after it: the term cannot leave them outside",
                    len(late),
                ).format(day=end.isoformat(), records=listed(late))
        if "notice_days" in given and notice != contract.notice_days:
            changes["notice_days"] = [contract.notice_days, notice]
        end = term_end(contract.start_date, months)
        deadline = notice_deadline(end, notice)
        if deadline is not None and deadline < contract.start_date:
            problems["notice_days"] = _("a {days}-day notice period is longer than the {months}-month term").format(
                days=notice, months=months
            )
        if deadline != contract.notice_deadline:
            changes["notice_deadline"] = [_text(contract.notice_deadline), _text(deadline)]
        if "gpu" in given:
            catalog, _fx = load_catalog(session)
            try:
                spec = catalog.lookup(given["gpu"])
            except Exception as exc:  # an unknown model names the catalog's closest
                problems["gpu"] = str(exc)
            else:
                if spec.key != sold.get("gpu"):
                    changes["gpu"] = [sold.get("gpu_name"), spec.name]
                    sold["gpu"], sold["gpu_name"] = spec.key, spec.name
        if "acceptance_sample" in given or "acceptance_sample_min" in given:
            old = sold.get("sample") or {}
            new = {
                "share": _text(given.get("acceptance_sample", old.get("share"))),
                "at_least": given.get("acceptance_sample_min", old.get("at_least")),
            }
            for key, term in (("share", "acceptance_sample"), ("at_least", "acceptance_sample_min")):
                if _text(old.get(key)) != _text(new[key]):
                    changes[term] = [_text(old.get(key)), _text(new[key])]
            sold["sample"] = new
        renews = contract.auto_renew if "at_end" not in given else given["at_end"] is AtTermEnd.RENEWS
        if renews != contract.auto_renew:  # notice given (ends), or a renewal agreed (renews)
            changes["auto_renew"] = [contract.auto_renew, renews]
        if problems:
            raise FieldErrors(problems)
        if not changes:
            raise BadInput(_("contract #{id} already has these terms: nothing to amend").format(id=contract_id))
        more = "gpus" in changes and changes["gpus"][1] > changes["gpus"][0]
        if more and not stock_confirmed and sold and sold.get("nodes_available") is None:
            ask_beyond_stock(AMEND, contract.offer_id, _("contract #{id}").format(id=contract_id), given["gpus"],
                             int(sold["nodes"]), q(snapshot["monthly_charge"]), contract.currency)  # fmt: skip
        if sold:
            snapshot["sold"] = sold
        contract.gpu_count = given.get("gpus", contract.gpu_count)
        contract.term_months, contract.end_date = months, end
        contract.notice_days, contract.notice_deadline = notice, deadline
        contract.auto_renew = renews
        if renews and contract.renewal_term_months is None:
            contract.renewal_term_months = months
        contract.snapshot = snapshot  # a new dict: the flush sees it changed (and the audit trail records it)
        amendment = ContractAmendment(
            contract_id=contract_id,
            seq=(last[0] if last is not None else 0) + 1,
            effective=effective,
            reason=v["reason"],
            recorded_by=v.get("by") or os_user(),
            changes=changes,
        )
        session.add(amendment)
        session.flush()
        return Amendment(amendment.seq, effective, amendment.reason, amendment.recorded_by, changes)
