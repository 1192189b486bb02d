"""The editing services behind the forms: validation of every field, all-or-nothing writes."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlmodel import select

from quotetui.domain import entities
from quotetui.domain.enums import BillingCadence, Mover, PriceUnit
from quotetui.domain.errors import BadInput
from quotetui.services import editing
from quotetui.services.form_spec import FieldErrors
from quotetui.store.engine import Database
from quotetui.store.models import Contract, Offer, Provider, QuoteRevision, RevisionPrice, SlaCreditTier, SlaTerm


def test_provider_names_are_unique_and_required(demo_db: Database) -> None:
    with pytest.raises(FieldErrors) as excinfo:
        editing.save_provider(demo_db, {"name": "阿里云", "kind": "public_cloud"})
    assert "already exists" in excinfo.value.errors["name"]
    with pytest.raises(FieldErrors) as excinfo:
        editing.save_provider(demo_db, {"name": " ", "kind": "nonsense"})
    assert set(excinfo.value.errors) == {"name", "kind"}
    new = editing.save_provider(demo_db, {"name": "Lambda", "kind": "gpu_cloud", "regions": "us-east, us-west"})
    with demo_db.session() as session:
        assert session.get(Provider, new).regions == ["us-east", "us-west"]  # type: ignore[union-attr]


def test_a_new_offer_gets_its_first_round(demo_db: Database) -> None:
    raw = editing.offer_form(demo_db).values | {
        "provider": "一万网络",
        "name": "test",
        "gpu": "h200",
        "amount": "95000",
        "amount_high": "99000",
    }
    offer_id = editing.save_offer(demo_db, raw)
    with demo_db.session() as session:
        offer = session.get(Offer, offer_id)
        assert offer is not None and offer.gpus_per_node == 8
        price = session.exec(select(RevisionPrice).join(QuoteRevision).where(QuoteRevision.offer_id == offer_id)).one()
        assert (price.amount, price.amount_high, price.unit) == (Decimal(95000), Decimal(99000), PriceUnit.NODE_MONTH)


def test_an_offer_names_its_provider_by_the_name_key_of_every_other_look_up(demo_db: Database) -> None:
    editing.save_provider(demo_db, {"name": "Lambda Labs", "kind": "gpu_cloud"})
    raw = editing.offer_form(demo_db).values | {"name": "x", "gpu": "h100", "amount": "10"}
    offer_id = editing.save_offer(demo_db, raw | {"provider": "ｌａｍｂｄａ  LABS"})  # width, case, spaces
    assert editing.offer_form(demo_db, offer_id).values["provider"] == "Lambda Labs"
    with pytest.raises(FieldErrors) as excinfo:
        editing.save_offer(demo_db, raw | {"name": "y", "provider": " Lambda  Lab "})
    assert excinfo.value.errors == {"provider": "no provider named 'Lambda Lab'"}  # what was typed, tidied


def test_a_range_must_be_ordered_and_a_term_total_needs_a_term(demo_db: Database) -> None:
    raw = editing.offer_form(demo_db).values | {
        "provider": "一万网络",
        "name": "x",
        "gpu": "h100",
        "amount": "10",
        "amount_high": "5",
        "unit": "term_total",
        "term_months": "0",
    }
    with pytest.raises(FieldErrors) as excinfo:
        editing.save_offer(demo_db, raw)
    assert set(excinfo.value.errors) == {"amount_high", "term_months"}


def test_a_round_moves_the_offer_into_negotiation_and_can_be_corrected(demo_db: Database) -> None:
    spec = editing.revision_form(demo_db, 12, Mover.COUNTER)
    assert spec.values["amount"] == "42000" and spec.values["mover"] == "counter"
    rev = editing.save_revision(demo_db, 12, spec.values | {"amount": "35000"})
    with demo_db.session() as session:
        assert session.get(Offer, 12).status.value == "negotiating"  # type: ignore[union-attr]
    fix = editing.revision_edit_form(demo_db, rev)
    editing.update_revision(demo_db, rev, fix.values | {"amount": "36000", "round_note": "typo fixed"})
    with demo_db.session() as session:
        price = session.exec(select(RevisionPrice).where(RevisionPrice.revision_id == rev)).one()
        assert price.amount == Decimal(36000) and session.get(QuoteRevision, rev).note == "typo fixed"  # type: ignore[union-attr]


def test_sla_credits_are_parsed_and_replace_the_old_schedule(demo_db: Database) -> None:
    editing.save_sla(demo_db, 12, {"availability": "99.95", "preemption": "none", "credits": "99.9:10, 99:25"})
    editing.save_sla(demo_db, 12, {"availability": "99.95", "preemption": "none", "credits": "99.5:30"})
    with demo_db.session() as session:
        sla = session.exec(select(SlaTerm).where(SlaTerm.offer_id == 12)).one()
        tiers = session.exec(select(SlaCreditTier).where(SlaCreditTier.sla_term_id == sla.id)).all()
    assert sla.availability == Decimal("0.9995")
    assert [(t.below, t.credit) for t in tiers] == [(Decimal("0.995"), Decimal("0.3"))]
    with pytest.raises(FieldErrors) as excinfo:
        editing.save_sla(demo_db, 12, {"availability": "101", "preemption": "none", "credits": "99.9"})
    assert set(excinfo.value.errors) == {"availability", "credits"}


def test_deletions_that_would_lose_signed_facts_are_refused(demo_db: Database) -> None:
    with demo_db.write() as session:
        rev = session.exec(select(QuoteRevision).where(QuoteRevision.offer_id == 1)).one()
        session.add(
            Contract(
                offer_id=1,
                revision_id=rev.id,
                start_date=date(2026, 12, 1),
                term_months=12,
                end_date=date(2027, 12, 1),
                billing_cadence=BillingCadence.MONTHLY,
                gpu_count=8,
                price=Decimal(180000),
                price_unit=PriceUnit.NODE_MONTH,
                currency="CNY",
            )
        )
    with pytest.raises(BadInput, match="contract"):
        editing.delete_offer(demo_db, 1)
    with pytest.raises(BadInput, match="at least one round"):
        rev_id = next(iter(demo_db.session().exec(select(QuoteRevision.id).where(QuoteRevision.offer_id == 5))))
        editing.delete_fine_print(demo_db, entities.ROUND, rev_id)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="no extra cost with id 99999"):
        editing.delete_fine_print(demo_db, entities.EXTRA, 99999)
    with pytest.raises(BadInput, match="still has offers"):
        editing.delete_provider(demo_db, 1)
    editing.delete_offer(demo_db, 5)
    with demo_db.session() as session:
        assert session.get(Offer, 5) is None
