"""Key dates as an iCalendar file (RFC 5545): one all-day event each, with a reminder before it.

UIDs are stable (the thing, the kind of date and the day), so importing a newer export into a calendar
updates the events instead of adding copies; DTSTAMP is the export time, as RFC 5545 asks.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from icalendar import Alarm, Calendar, Event

from quotetui.domain.contracts.dates import ENDS, NOTICE_DEADLINE, PAYMENT, QUOTE_EXPIRES, RENEWS, KeyDate
from quotetui.domain.errors import BadInput
from quotetui.language import _
from quotetui.system.atomic import check_target, replacing

REMINDER_DAYS = {NOTICE_DEADLINE: 14, QUOTE_EXPIRES: 3, PAYMENT: 3, RENEWS: 30, ENDS: 30}
"""How long before each kind of date the calendar reminds you: a notice deadline needs time to act."""


def calendar_bytes(dates: list[KeyDate], stamp: datetime) -> bytes:
    """The calendar: its name, each event's title, description and category in the language in use (a calendar
    app shows them to the buyer; quotetui never reads them back), its UIDs and product id in English (codes)."""
    cal = Calendar()
    cal.add("prodid", "-//quotetui//key dates//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", _("quotetui key dates"))
    for k in sorted(dates, key=lambda k: (k.day, k.uid)):
        event = Event()
        event.add("uid", k.uid)
        event.add("dtstamp", stamp)
        event.add("dtstart", k.day)
        event.add("dtend", k.day + timedelta(days=1))
        event.add("summary", k.said)
        if k.detail:
            event.add("description", k.detail)
        event.add("categories", ["quotetui", k.word])
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", k.said)
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
        raise BadInput(_("cannot write {path}: {problem}").format(path=out, problem=exc.strerror or exc)) from exc
    return out
