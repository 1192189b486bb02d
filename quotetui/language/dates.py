"""How a day reads in a sentence, in the language in use, decided once and checked against Babel's CLDR data by
the tests (``tests/test_language_dates.py``), so that writing a sentence never loads Babel: quotetui's English
writes a day as it is typed and sorts, ``2027-01-01`` (its house style since the first release); Chinese writes
CLDR's long date, ``2027年1月1日``, and a month ``2027年1月``.

Prose only (explain, the brief, findings, a contract's and its calendar's sentences, acceptance): tables, JSON,
CSV, ``.ics`` and the workbook's date cells keep ISO dates, as do messages that quote back a date as it was
typed."""

from __future__ import annotations

from datetime import UTC, date, datetime

from quotetui.language import _, current, ngettext

_DAY = {"zh-CN": "{y}年{m}月{d}日"}
"""CLDR's long date pattern of each language other than quotetui's English (``y年M月d日`` for zh_Hans_CN)."""
_MONTH = {"zh-CN": "{y}年{m}月"}
"""CLDR's year-and-month pattern (skeleton ``yMMM``: ``y年M月``)."""


def day_text(day: date) -> str:
    """``day`` in a sentence in the language in use: ``2027-01-01``, ``2027年1月1日``."""
    pattern = _DAY.get(current())
    return day.isoformat() if pattern is None else pattern.format(y=day.year, m=day.month, d=day.day)


def month_text(day: date) -> str:
    """The month of ``day`` in a sentence in the language in use: ``2027-01``, ``2027年1月``."""
    pattern = _MONTH.get(current())
    return day.isoformat()[:7] if pattern is None else pattern.format(y=day.year, m=day.month)


def time_text(moment: datetime) -> str:
    """A moment in a sentence, in UTC, to the minute: ``2026-12-06 21:14 UTC``, ``2026年12月6日 21:14 UTC``; a
    moment at midnight (a day typed without a time) is its day alone."""
    moment = moment.astimezone(UTC)
    day = day_text(moment.date())
    if (moment.hour, moment.minute, moment.second, moment.microsecond) == (0, 0, 0, 0):
        return day
    return f"{day} {moment:%H:%M} UTC"


def days_away(left: int) -> str:
    """How far a day is from today, ``left`` days ahead (negative: past), in the language in use: ``3 days ago``,
    ``today``, ``in 1 day`` (``contracts due`` and the TUI's key dates say it so)."""
    if left < 0:
        return ngettext("{n} day ago", "{n} days ago", -left).format(n=f"{-left:,}")
    if left == 0:
        return _("today")
    return ngettext("in {n} day", "in {n} days", left).format(n=f"{left:,}")
