"""Long work gives up when whoever started it no longer wants the result: the TUI was quit or its terminal
closed while the market was still loading, or a newer load replaced this one.

The one who starts the work says how to ask (``with cancellable(lambda: worker.is_cancelled): …``); the long
loops call :func:`check_cancelled` now and then, which raises :class:`Cancelled` once the answer is yes. The
question is kept in a context variable, so a loop far down (ranking 100,000 offers, writing a kept table)
needs no parameter for it, and work started anywhere else (the CLI, a test) is never stopped. Nothing is kept
of work given up: the ranking is not cached, a kept table is not written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_ASK: ContextVar[Callable[[], bool] | None] = ContextVar("quotetui_cancelled", default=None)

EVERY = 512
"""How many items a loop handles between two checks (a check is a function call: cheap, not free)."""


class Cancelled(BaseException):
    """The work was given up: nobody wants its result any more. Not an ``Exception`` (like asyncio's own
    ``CancelledError``): the handlers that report errors (``except Exception``) never take it for one."""


@contextmanager
def cancellable(cancelled: Callable[[], bool]) -> Iterator[None]:
    """Work inside the block stops at its next check once ``cancelled()`` is true."""
    token = _ASK.set(cancelled)
    try:
        yield
    finally:
        _ASK.reset(token)


def check_cancelled() -> None:
    """Raise :class:`Cancelled` if the work in progress is no longer wanted."""
    ask = _ASK.get()
    if ask is not None and ask():
        raise Cancelled
