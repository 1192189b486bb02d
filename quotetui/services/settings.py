"""The assumptions every figure rests on, as the user set them (``quotetui settings``): stored in the
``setting`` table, read once per request into one :class:`Assumptions` that every figure, ``explain`` and the
export receive."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from sqlmodel import Session

from quotetui.domain import entities as E
from quotetui.domain.economics.assumptions import Assumptions
from quotetui.domain.economics.ownership import curve_text, parse_resale_curve
from quotetui.domain.fields import parse_record, shown_value
from quotetui.domain.money import plain
from quotetui.language import _
from quotetui.language.numbers import percent
from quotetui.services.engine_inputs import ASSUMPTION_PREFIX, assumptions_from, load_assumptions_of, read_settings
from quotetui.services.form_spec import FormSpec, parse
from quotetui.store.engine import Database
from quotetui.store.models import Setting
from quotetui.store.reader import session_reader

PREFIX = ASSUMPTION_PREFIX


def load_assumptions(session: Session) -> Assumptions:
    """The stored assumptions (the defaults for anything not set)."""
    return load_assumptions_of(session_reader(session))


def assumptions_of(db: Database) -> Assumptions:
    with db.session() as session:
        return load_assumptions(session)


def local_today(session: Session) -> date:
    """Today in the user's time zone (the ``time_zone`` setting): the day a rate or a date is checked against."""
    from quotetui.domain.timeutil import local_day, utcnow

    return local_day(utcnow(), load_assumptions(session).time_zone)


def rates_today(session: Session) -> date:
    """The latest day a rate can be dated: today in the user's zone or in the rates' zone (``fx.RATE_DAY_ZONE``),
    whichever is later (a PBOC rate for Beijing's day is published while it is still yesterday west of it)."""
    from quotetui.domain.fx import RATE_DAY_ZONE
    from quotetui.domain.timeutil import local_day, utcnow

    return max(local_today(session), local_day(utcnow(), RATE_DAY_ZONE))


@dataclass(frozen=True, slots=True)
class SettingView:
    name: str
    label: str  # the field's label as declared (a message id: ``_(label)`` where it is shown)
    value: str  # as stored: a yes/no setting says ``yes`` or ``no`` in English
    is_default: bool
    help: str
    problem: str = ""  # the stored value this machine cannot use, and why (the default is shown in its place)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(field_value(value))


def field_value(value: object) -> object:
    """A setting as its field (a form, a sheet's cell) takes it: an exact ratio as its decimal, the resale
    curve as its text."""
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, tuple):  # the resale curve
        return curve_text(value)
    return value


def lenient_assumptions(db: Database) -> tuple[Assumptions, dict[str, str]]:
    """The assumptions with the default in place of any stored value this machine cannot use, and why each
    one cannot be used: what ``settings`` shows and ``settings set`` repairs (every other command refuses,
    naming the setting: ``inputs.UnreadableSettings``)."""
    with db.session() as session:
        values, problems = read_settings(stored_settings(session))
    return Assumptions(**values), problems


def list_settings(db: Database) -> list[SettingView]:
    (a, problems), default = lenient_assumptions(db), assumptions_from({})
    views = []
    for f in E.SETTINGS.fields:
        value = getattr(a, f.name)
        views.append(
            SettingView(
                f.name, f.label, _text(value), value == getattr(default, f.name), f.note(), problems.get(f.name, "")
            )
        )
    return views


def save_settings(db: Database, raw: dict[str, Any]) -> Assumptions:
    """Set the named assumptions (each checked by its declared field: text as typed, a share as a percentage;
    a number as a value); ``None`` leaves one as it is, an empty string puts its default back."""
    with db.write() as session:
        store_settings(session, raw)
    return lenient_assumptions(db)[0]


def store_settings(session: Session, raw: dict[str, Any]) -> dict[str, Any]:
    """``save_settings`` inside the caller's transaction (an import's); the values set, typed."""
    given = {k: v for k, v in raw.items() if v is not None}
    reset = {k for k, v in given.items() if v == ""}
    values = parse_record(E.SETTINGS, {k: v for k, v in given.items() if k not in reset})
    for name in reset:
        row = session.get(Setting, PREFIX + name)
        if row is not None:
            session.delete(row)
    for name, value in values.items():
        if name not in given or name in reset:
            continue
        row = session.get(Setting, PREFIX + name) or Setting(key=PREFIX + name, value="")
        row.value = _text(parse_resale_curve(value) if name == "resale_curve" else value)  # stored as shown
        session.add(row)
    return {k: v for k, v in values.items() if k in given and k not in reset}


def setting_text(name: str, value: object) -> str:
    """A setting as people read it, whatever its form (typed, stored or an assumption): a share as a
    percentage, a curve as its points, yes/no; two values that read the same are the same setting."""
    if name == "resale_curve" and isinstance(value, str):
        value = parse_resale_curve(value)
    if isinstance(value, Decimal | Fraction) and E.SETTINGS.field(name).kind == "ratio":
        return percent(plain(Decimal(_text(Fraction(value))) * 100))
    if isinstance(value, Decimal | Fraction):
        return plain(Decimal(_text(Fraction(value))))
    return _text(value)


def stored_settings(session: Session) -> dict[str, str]:
    """The settings a database has set (the rest are the defaults), by name, as stored."""
    from sqlmodel import col, select

    rows = session.exec(select(Setting).where(col(Setting.key).startswith(PREFIX)))
    return {r.key.removeprefix(PREFIX): r.value for r in rows if r.key.removeprefix(PREFIX) in SETTING_NAMES}


SETTING_NAMES = frozenset(f.name for f in E.SETTINGS.fields)


def settings_form(db: Database) -> FormSpec:
    """The TUI's settings form, filled with the assumptions as they are (shares as percentages; a stored value
    this machine cannot use shows its default, so the form repairs it)."""
    a, _problems = lenient_assumptions(db)
    values = {
        f.name: shown_value(f, field_value(getattr(a, f.name)), percent=True)
        for f in E.SETTINGS.fields
    }  # fmt: skip
    return FormSpec(
        _("Settings: the assumptions every figure rests on"), E.SETTINGS.form_fields, values, entity=E.SETTINGS
    )


def save_settings_form(db: Database, raw: dict[str, Any]) -> Assumptions:
    """Save the settings form (shares typed as percentages, as every form takes them)."""
    values = parse(FormSpec("Settings", E.SETTINGS.form_fields, entity=E.SETTINGS), raw)
    return save_settings(db, {k: v if v is not None else "" for k, v in values.items()})  # values: fractions


__all__ = [
    "SETTING_NAMES",
    "assumptions_of",
    "list_settings",
    "load_assumptions",
    "save_settings",
    "save_settings_form",
    "settings_form",
    "store_settings",
    "stored_settings",
]
