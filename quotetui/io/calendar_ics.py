"""Key dates as an iCalendar file (RFC 5545): one all-day event each, with a reminder before it.

UIDs are stable (the thing, the kind of date and the day), so importing a newer export into a calendar
updates the events instead of adding copies; DTSTAMP is the export time, as RFC 5545 asks.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from icalendar import Alarm, Calendar, Event

from quotetui.domain.contracts.dates import KeyDate
from quotetui.domain.errors import BadInput
from quotetui.system.atomic import check_target, replacing

REMINDER_DAYS = {"notice deadline": 14, "quote expires": 3, "payment": 3, "renews": 30, "ends": 30}
"""How long before each kind of date the calendar reminds you: a notice deadline needs time to act."""


def calendar_bytes(dates: list[KeyDate], stamp: datetime) -> bytes:
    cal = Calendar()
    cal.add("prodid", "-//quotetui//key dates//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", "quotetui key dates")
    for k in sorted(dates, key=lambda k: (k.day, k.uid)):
        event = Event()
        event.add("uid", k.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", k.day)
        event.add("dtend", k.day + timedelta(days=1))
        event.add("summary", f"{k.kind}: {k.subject}")
        if k.detail:
            event.add("description", k.detail)
        event.add("categories", ["quotetui", k.kind])
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"{k.kind}: {k.subject}")
        alarm.add("trigger", timedelta(days=-REMINDER_DAYS.get(k.kind, 7)))
        event.add_component(alarm)
        cal.add_component(event)
    return cal.to_ical()


def write_calendar(out: Path, dates: list[KeyDate], stamp: datetime, *, force: bool = False) -> Path:
    """The calendar written whole (a temporary file renamed into place); an existing file only with ``force``."""
    out = check_target(out, force=force, suffixes=(".ics",))
    data = calendar_bytes(dates, stamp)
    try:
        with replacing(out) as tmp:
            tmp.write_bytes(data)
    except OSError as exc:
        raise BadInput(f"cannot write {out}: {exc.strerror or exc}") from exc
    return out
