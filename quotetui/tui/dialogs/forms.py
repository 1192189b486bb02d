"""The forms of the app, each a :class:`FormScreen` wired to the service that validates and saves it."""

from __future__ import annotations

from quotetui.domain.enums import Mover
from quotetui.services import editing
from quotetui.store.engine import Database
from quotetui.tui.dialogs.form import FormScreen


def provider_form(db: Database, provider_id: int | None = None) -> FormScreen:
    return FormScreen(editing.provider_form(db, provider_id), lambda raw: editing.save_provider(db, raw, provider_id))


def offer_form(db: Database, offer_id: int | None = None) -> FormScreen:
    return FormScreen(editing.offer_form(db, offer_id), lambda raw: editing.save_offer(db, raw, offer_id))


def revision_form(db: Database, offer_id: int, mover: Mover) -> FormScreen:
    return FormScreen(editing.revision_form(db, offer_id, mover), lambda raw: editing.save_revision(db, offer_id, raw))


def discount_form(db: Database, offer_id: int, discount_id: int | None = None) -> FormScreen:
    spec = editing.discount_form(db, discount_id)
    return FormScreen(spec, lambda raw: editing.save_discount(db, offer_id, raw, discount_id))


def extra_form(db: Database, offer_id: int, extra_id: int | None = None) -> FormScreen:
    return FormScreen(editing.extra_form(db, extra_id), lambda raw: editing.save_extra(db, offer_id, raw, extra_id))


def sla_form(db: Database, offer_id: int) -> FormScreen:
    return FormScreen(editing.sla_form(db, offer_id), lambda raw: editing.save_sla(db, offer_id, raw))


def round_edit_form(db: Database, revision_id: int) -> FormScreen:
    spec = editing.revision_edit_form(db, revision_id)
    return FormScreen(spec, lambda raw: editing.update_revision(db, revision_id, raw))
