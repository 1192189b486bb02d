"""Whether Ctrl+C was pressed: the console script (``launch.py``) sets it before anything is imported, and the
error boundary (``exits.py``) reads it, so that an error that follows Ctrl+C is told as the interruption."""

from __future__ import annotations

from types import FrameType

_INTERRUPTED = [False]


def interrupted() -> bool:
    """Whether Ctrl+C was pressed: an error that follows it (a module half-imported when it came) is the
    interruption, not a bug."""
    return _INTERRUPTED[0]


def on_interrupt(signum: int, frame: FrameType | None) -> None:
    """The SIGINT handler: note it, then interrupt as Python would."""
    _INTERRUPTED[0] = True
    raise KeyboardInterrupt
