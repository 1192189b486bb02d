"""The forms of the app, each a :class:`FormScreen` wired to the service that validates and saves it.

Each form is made by a function that reads the row as it is now, so a form that went stale (the row was
changed elsewhere since it was opened) can be filled again from the current values.
"""

from __future__ import annotations

from quotetui.domain.enums import Mover
from quotetui.services import editing
from quotetui.store.engine import Database
from quotetui.tui.dialogs.form import FormScreen


def provider_form(db: Database, provider_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.provider_form(db, provider_id),
        lambda raw, version: editing.save_provider(db, raw, provider_id, version),
    )


def offer_form(db: Database, offer_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.offer_form(db, offer_id), lambda raw, version: editing.save_offer(db, raw, offer_id, version)
    )


def revision_form(db: Database, offer_id: int, mover: Mover) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_form(db, offer_id, mover), lambda raw, _: editing.save_revision(db, offer_id, raw)
    )


def discount_form(db: Database, offer_id: int, discount_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.discount_form(db, discount_id),
        lambda raw, version: editing.save_discount(db, offer_id, raw, discount_id, version),
    )


def extra_form(db: Database, offer_id: int, extra_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.extra_form(db, extra_id),
        lambda raw, version: editing.save_extra(db, offer_id, raw, extra_id, version),
    )


def sla_form(db: Database, offer_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.sla_form(db, offer_id), lambda raw, version: editing.save_sla(db, offer_id, raw, version)
    )


def round_edit_form(db: Database, revision_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_edit_form(db, revision_id),
        lambda raw, version: editing.update_revision(db, revision_id, raw, version),
    )
