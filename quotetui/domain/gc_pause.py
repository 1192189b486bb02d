"""Python's cyclic garbage collector paused around bulk work.

Loading or ranking thousands of offers allocates hundreds of thousands of objects that all live on (rows,
inputs, evaluations). Each automatic collection walks every one of them again, so with the collector on the
work grows faster than the data (measured at 10,000 offers: ranking takes 0.67× the time with it off). None of
these objects form reference cycles that need the collector, so pausing it loses no memory.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # nested or concurrent pauses (the TUI's workers): the collector resumes when the last one ends
_was_enabled = True


@contextmanager
def gc_paused() -> Iterator[None]:
    """The collector off for the block, back on (if it was on) once the last concurrent pause ends."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
