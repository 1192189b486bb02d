"""The console script's entry point: Ctrl+C at any moment, even while the program is still loading, ends it
with one line ("interrupted") and exit status 130, never a traceback."""

from __future__ import annotations

import signal
import sys
from types import FrameType

_INTERRUPTED = [False]


def interrupted() -> bool:
    """Whether Ctrl+C was pressed: an error that follows it (a module half-imported when it came) is the
    interruption, not a bug."""
    return _INTERRUPTED[0]


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    _INTERRUPTED[0] = True
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGINT, _on_interrupt)
    try:
        from quotetui.cli import main as run
    except BaseException:
        if not interrupted():
            raise
        sys.stderr.write("quotetui: interrupted\n")  # whatever the interrupted import left behind
        sys.exit(130)
    run()
