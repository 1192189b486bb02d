"""Spreadsheet formula injection, both ways: a text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return would be run as a formula by Excel or LibreOffice when a CSV is opened; the export guards it
with an apostrophe, and the import takes exactly that apostrophe off again, so a CSV round trip is exact."""

from __future__ import annotations

from typing import Any

RISKY = ("=", "+", "-", "@", "\t", "\r")

GUARD = "'"
"""The apostrophe that keeps a CSV cell from being a formula; a text that starts with one gets one more, so
:func:`unguard` gives back exactly what was written."""


def neutralise(value: Any) -> Any:
    """For CSV: a text that a spreadsheet would run as a formula (or that starts with the guard itself) gets
    a leading apostrophe."""
    if isinstance(value, str) and value.startswith((*RISKY, GUARD)):
        return GUARD + value
    return value


def unguard(text: str) -> str:
    """A CSV cell as it was before :func:`neutralise` (a hand-typed ``'=1+1`` is read as the text ``=1+1``)."""
    if text.startswith(GUARD) and len(text) > 1 and text[1] in (*RISKY, GUARD):
        return text[1:]
    return text
