"""Everything the CLI prints goes through here: text is data, never terminal control.

A provider's name, a file name, a log line may hold ESC, BEL or an OSC 52 clipboard payload; printed raw they
would drive the terminal of whoever runs the command. :func:`say` shows such characters as visible marks
(``␛``), JSON escapes them, and tables take every cell as plain text (never Rich markup, so ``Evil[/]Co`` is
shown as typed). On a terminal that cannot show a character (an ASCII-only locale), it is replaced, not fatal.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from typing import Any

from quotetui.domain.text import visible

_UNSAFE_JSON = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u2028\u2029]")


def say(text: object = "", *, err: bool = False) -> None:
    """One line on standard output (or error), through the stream's own encoding: on an ASCII-only terminal
    what it cannot show is escaped (``\\u4e00``), not sent as UTF-8 behind its back."""
    stream = sys.stderr if err else sys.stdout
    stream.write(visible(str(text)) + "\n")
    stream.flush()


def json_text(data: object) -> str:
    """JSON with every control, bidirectional and invisible character escaped (``\\u001b``): still the same
    strings for a program, never terminal control for a person reading it."""
    text = json.dumps(data, ensure_ascii=not _unicode_out(), indent=2)
    return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def say_json_array(items: Iterable[object]) -> None:
    """``say(json_text(list(items)))``, byte for byte, written an item at a time: a long listing is never
    held whole, neither as objects nor as text (``offers --json`` at 100k offers)."""
    say_json_items(map(json_item_text, items))


def json_item_text(item: object) -> str:
    """One item of a JSON array as :func:`say_json_array` writes it: indented inside the array, escaped."""
    return visible(json_text(item).replace("\n", "\n  "))  # JSON strings hold no line break: only the layout's


def json_item_kind() -> str:
    """What :func:`json_item_text` depends on besides the item: whether standard output takes any character."""
    return "unicode" if _unicode_out() else "ascii"


def say_json_items(texts: Iterable[str]) -> None:
    """A JSON array of items already made by :func:`json_item_text` (kept from an earlier listing)."""
    stream = sys.stdout
    opened = False
    for text in texts:
        stream.write(("[\n  " if not opened else ",\n  ") + text)
        opened = True
    stream.write("\n]\n" if opened else "[]\n")
    stream.flush()


def _unicode_out() -> bool:
    """Whether standard output takes any character (else JSON is written as ASCII with ``\\u`` escapes)."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    return encoding in ("utf8", "utf16", "utf32")


def plain_cells(rows: list[list[Any]]) -> list[list[str]]:
    return [[visible(str(cell)) for cell in row] for row in rows]


def money(amount: Any, currency: str) -> str:
    """An amount for people: 2 places, thousands separators, its currency (``250,000.00 CNY``); exact
    values are rounded half-even for display only."""
    from quotetui.domain.economics.display import money_shown

    return money_shown(amount, currency)


def percent(share: Any, places: int = 1) -> str:
    """A share (0.6) as a percentage for people: ``60 %``; up to ``places`` decimals, no needless zeros
    (``99.95 %`` with 2, ``99.9 %``, ``100 %``)."""
    from quotetui.domain.economics.exact import share_text

    return share_text(share, places)
