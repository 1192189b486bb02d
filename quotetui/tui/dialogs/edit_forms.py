"""The forms of the app, each a :class:`FormScreen` wired to the service that validates and saves it.

Each form is made by a function that reads the row as it is now, so a form that went stale (the row was
changed elsewhere since it was opened) can be filled again from the current values.
"""

from __future__ import annotations

from typing import Any

from quotetui.domain.enums import Mover
from quotetui.services import editing
from quotetui.store.engine import Database
from quotetui.tui.dialogs.form_screen import FormScreen, Notice


def _text(raw: dict[str, Any], name: str) -> str:
    return str(raw.get(name) or "").strip()


def _saved(what: str, name: str = "") -> Notice:
    """``Saved provider 一万网络 (#6)``: what, its name as typed (if it has one), the id the save returned."""

    def say(raw: dict[str, Any], row_id: object) -> str:
        named = f" {_text(raw, name)}" if name and _text(raw, name) else ""
        return f"Saved {what}{named}" + (f" (#{row_id})" if isinstance(row_id, int) else "")

    return say


def provider_form(db: Database, provider_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.provider_form(db, provider_id),
        lambda raw, version: editing.save_provider(db, raw, provider_id, version),
        _saved("provider", "name"),
    )


def offer_form(db: Database, offer_id: int | None = None) -> FormScreen:
    def said(raw: dict[str, Any], row_id: object) -> str:
        by = f" from {_text(raw, 'provider')}" if _text(raw, "provider") else ""
        return _saved("offer", "name")(raw, row_id) + by

    return FormScreen(
        lambda: editing.offer_form(db, offer_id),
        lambda raw, version: editing.save_offer(db, raw, offer_id, version),
        said,
    )


def revision_form(db: Database, offer_id: int, mover: Mover) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_form(db, offer_id, mover),
        lambda raw, _: editing.save_revision(db, offer_id, raw),
        lambda raw, _: f"Saved a new round of offer #{offer_id}",
    )


def discount_form(db: Database, offer_id: int, discount_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.discount_form(db, discount_id),
        lambda raw, version: editing.save_discount(db, offer_id, raw, discount_id, version),
        lambda raw, _: f"Saved a discount of offer #{offer_id}",
    )


def extra_form(db: Database, offer_id: int, extra_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.extra_form(db, extra_id),
        lambda raw, version: editing.save_extra(db, offer_id, raw, extra_id, version),
        lambda raw, _: f"Saved an extra cost of offer #{offer_id}",
    )


def sla_form(db: Database, offer_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.sla_form(db, offer_id),
        lambda raw, version: editing.save_sla(db, offer_id, raw, version),
        lambda raw, _: f"Saved the SLA terms of offer #{offer_id}",
    )


def round_edit_form(db: Database, revision_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_edit_form(db, revision_id),
        lambda raw, version: editing.update_revision(db, revision_id, raw, version),
    )  # says "Saved: Round 3", its title
