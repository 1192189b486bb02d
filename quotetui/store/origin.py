"""Where a change comes from, for the audit trail (``store/audit.py``): the front end of this process and the
file being read. Standard library only: the CLI names itself before anything heavy is imported."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_front_end: str | Callable[[], str] = "api"
_source: ContextVar[str | None] = ContextVar("quotetui_change_source", default=None)


def set_front_end(name: str | Callable[[], str]) -> None:
    """The front end of this process: ``tui``, or a function naming the CLI command running."""
    global _front_end
    _front_end = name


@contextmanager
def source(text: str) -> Iterator[None]:
    """Changes made inside come from ``text`` (``import offers.xlsx``, ``rfq answer a.xlsx``)."""
    token = _source.set(text)
    try:
        yield
    finally:
        _source.reset(token)


def via() -> str:
    """``cli: quotetui offer edit``, ``tui: import offers.xlsx``, …"""
    front = _front_end() if callable(_front_end) else _front_end
    given = _source.get()
    return f"{front}: {given}" if given else front
