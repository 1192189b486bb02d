"""The forms of the app, each a :class:`FormScreen` wired to the service that validates and saves it.

Each form is made by a function that reads the row as it is now, so a form that went stale (the row was
changed elsewhere since it was opened) can be filled again from the current values.
"""

from __future__ import annotations

from typing import Any

from quotetui.domain.enums import Mover
from quotetui.language import _
from quotetui.services import editing
from quotetui.store.engine import Database
from quotetui.tui.dialogs.form_screen import FormScreen


def _text(raw: dict[str, Any], name: str) -> str:
    return str(raw.get(name) or "").strip()


def _provider_saved(raw: dict[str, Any], row_id: object) -> str:
    """``Saved provider 一万网络 (#6)``: its name as typed, the id the save returned (the save refuses a
    provider without a name and returns its id)."""
    return _("Saved provider {name} (#{id})").format(name=_text(raw, "name"), id=row_id)


def provider_form(db: Database, provider_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.provider_form(db, provider_id),
        lambda raw, version: editing.save_provider(db, raw, provider_id, version),
        _provider_saved,
    )


def offer_form(db: Database, offer_id: int | None = None) -> FormScreen:
    def said(raw: dict[str, Any], row_id: object) -> str:
        """``Saved offer 8×H200 包月 (#21) from 一万网络``: its name and provider as typed, its id."""
        name, provider = _text(raw, "name"), _text(raw, "provider")
        if provider:
            return _("Saved offer {name} (#{id}) from {provider}").format(name=name, id=row_id, provider=provider)
        return _("Saved offer {name} (#{id})").format(name=name, id=row_id)

    return FormScreen(
        lambda: editing.offer_form(db, offer_id),
        lambda raw, version: editing.save_offer(db, raw, offer_id, version),
        said,
    )


def revision_form(db: Database, offer_id: int, mover: Mover) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_form(db, offer_id, mover),
        lambda raw, _: editing.save_revision(db, offer_id, raw),
        lambda _raw, _result: _("Saved a new round of offer #{id}").format(id=offer_id),
    )


def discount_form(db: Database, offer_id: int, discount_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.discount_form(db, discount_id),
        lambda raw, version: editing.save_discount(db, offer_id, raw, discount_id, version),
        lambda _raw, _result: _("Saved a discount of offer #{id}").format(id=offer_id),
    )


def extra_form(db: Database, offer_id: int, extra_id: int | None = None) -> FormScreen:
    return FormScreen(
        lambda: editing.extra_form(db, extra_id),
        lambda raw, version: editing.save_extra(db, offer_id, raw, extra_id, version),
        lambda _raw, _result: _("Saved an extra cost of offer #{id}").format(id=offer_id),
    )


def sla_form(db: Database, offer_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.sla_form(db, offer_id),
        lambda raw, version: editing.save_sla(db, offer_id, raw, version),
        lambda _raw, _result: _("Saved the SLA terms of offer #{id}").format(id=offer_id),
    )


def round_edit_form(db: Database, revision_id: int) -> FormScreen:
    return FormScreen(
        lambda: editing.revision_edit_form(db, revision_id),
        lambda raw, version: editing.update_revision(db, revision_id, raw, version),
    )  # says "Saved: Round 3", its title
