"""Peak memory of the running process, for the benchmarks (imports nothing heavy)."""

from __future__ import annotations

import resource
from pathlib import Path


def peak_mib() -> float:
    """This process's peak resident memory: VmHWM, which starts afresh at exec (ru_maxrss would carry the
    parent's peak over into each child)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
