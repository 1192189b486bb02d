"""Dated FX rates: recording, editing and listing them (the CLI's ``fx add|list`` and the TUI's FX rates
screen call the same functions, with the same declared fields and rules)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlmodel import Session, select

from quotetui.domain.entities import FX
from quotetui.domain.errors import BadInput, FieldErrors
from quotetui.domain.fields import parse_record
from quotetui.domain.fx import dated_by
from quotetui.language import _
from quotetui.services.form_spec import FormSpec, shown
from quotetui.services.fx_rates import RateView, rate_views
from quotetui.services.fx_rates import list_rates as list_rates  # the listing, where it always was
from quotetui.services.settings import local_today, rates_today
from quotetui.store.engine import Database
from quotetui.store.models import FxRate
from quotetui.store.reader import session_reader


def _view(session: Session, row: FxRate) -> RateView:
    """``row`` (flushed) as the listing reads it: one query, one conversion (``services/fx_rates.py``)."""
    assert row.id is not None
    return rate_views(session_reader(session), row.id)[0]


def add_rate(
    db: Database, base: str, quote: str, rate: object, as_of: object, source: str, *, today: date | None = None
) -> RateView:
    """Record 1 ``base`` = ``rate`` ``quote`` on ``as_of``; replaces the same pair on the same day."""
    return save_rate(db, {"base": base, "quote": quote, "rate": rate, "as_of": as_of, "source": source}, today=today)


def save_rate(db: Database, raw: dict[str, Any], rate_id: int | None = None, *, today: date | None = None) -> RateView:
    """A new rate (the same pair on the same day is replaced), or rate ``rate_id`` changed; all or nothing. The
    values are checked as an FX rates sheet's row is (the declared fields and rules), the date not after
    ``today`` (the front end's day; by default today in the user's time zone)."""
    v = parse_record(FX, raw)
    with db.write() as session:
        problems = dated_by(v["as_of"], today or rates_today(session))
        if problems:
            raise FieldErrors(problems)
        key = (FxRate.base == v["base"], FxRate.quote == v["quote"], FxRate.as_of == v["as_of"])
        twin = session.exec(select(FxRate).where(*key)).first()
        if rate_id is None:
            row = twin or FxRate(**v)
        else:
            row = session.get(FxRate, rate_id, with_for_update=True)
            if row is None:
                raise BadInput(_("no FX rate with id {id} (deleted meanwhile?); nothing was saved").format(id=rate_id))
            if twin is not None and twin.id != rate_id:
                pair = f"{v['base']}→{v['quote']}"
                raise FieldErrors(
                    {
                        "as_of": _("another rate of {pair} is recorded on {day}").format(
                            pair=pair, day=v["as_of"].isoformat()
                        )
                    }
                )
        for name, value in v.items():
            setattr(row, name, value)
        session.add(row)
        session.flush()
        return _view(session, row)


def rate_form(db: Database, rate_id: int | None = None, *, today: date | None = None) -> FormSpec:
    """The form of a new rate (dated today) or of rate ``rate_id`` as it is now."""
    fields = FX.form_fields
    with db.session() as session:
        if rate_id is None:
            day = today or local_today(session)
            return FormSpec(_("New FX rate"), fields, {"as_of": day.isoformat()}, entity=FX)
        row = session.get(FxRate, rate_id)
        if row is None:
            raise BadInput(_("no FX rate with id {id}").format(id=rate_id))
        title = _("Edit FX rate {base}→{quote}").format(base=row.base, quote=row.quote)
        return FormSpec(title, fields, shown(row, fields), entity=FX)
