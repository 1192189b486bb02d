"""Time rules: every timestamp is timezone-aware; storage and computation use UTC."""

from __future__ import annotations

from datetime import UTC, date, datetime

from quotetui.domain.errors import BadInput, noun
from quotetui.language import N_, _
from quotetui.language.lists import quoted


class NoTimeZone(BadInput):
    """A date-time without a time zone: its instant is unknown."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def stamp_now() -> datetime:
    """Now to the whole second: when a round is recorded without a time (``offer add``, ``round add``, the
    round form), the same stamp for each, never in the future, and one a workbook keeps exactly."""
    return utcnow().replace(microsecond=0)


def as_utc(value: datetime, *, what: str = N_("timestamp")) -> datetime:
    """``value`` converted to UTC; a naive datetime is refused because its zone is unknown."""
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise NoTimeZone(
            _("{what} {value} has no time zone; give an offset such as +08:00 or Z").format(
                what=noun(what), value=value.isoformat()
            )
        )
    return value.astimezone(UTC)


def local_day(value: datetime, zone: str) -> date:
    """The day ``value`` (stored in UTC) falls on in the time zone ``zone`` (an IANA name): a Beijing quote
    of 2026-11-30 00:00 is on the 30th there, though 2026-11-29 16:00 in UTC."""
    from zoneinfo import ZoneInfo

    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return aware.astimezone(ZoneInfo(zone)).date()


def after_today(day: date, today: date) -> str | None:
    """What a date the user could not know yet says ("2099-01-01 is after today (2026-12-02)"), or None: the
    one check behind "a rate is recorded once it is known" and "a round once it is quoted"."""
    if day <= today:
        return None
    return _("{day} is after today ({today})").format(day=day.isoformat(), today=today.isoformat())


def local_text(value: datetime, zone: str) -> str:
    """``value`` as text in ``zone`` with its offset (``2026-11-30 00:00+08:00``): what a person reads and
    what the importer reads back to the same instant."""
    from zoneinfo import ZoneInfo

    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    local = aware.astimezone(ZoneInfo(zone))
    return local.isoformat(sep=" ", timespec=timespec(local))  # every digit it has: read back, the same instant


def timespec(value: datetime) -> str:
    """As many digits as ``value`` has (minutes, seconds or microseconds): a time written so reads back the same
    instant, and one typed to the minute is not shown with ``:00``."""
    return "microseconds" if value.microsecond else "seconds" if value.second else "minutes"


def parse_timestamp(text: str, *, what: str = N_("timestamp")) -> datetime:
    """Parse ISO 8601 text with an offset (``2026-08-31T09:00:00+08:00``, ``...Z``) to UTC."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise BadInput(
            _("{what} {value} is not an ISO 8601 date-time").format(what=noun(what), value=quoted(text))
        ) from None
    return as_utc(value, what=what)
