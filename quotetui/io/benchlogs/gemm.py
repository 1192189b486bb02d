"""A GEMM throughput sweep's summary (``mean|median|max: N TFLOPS @ MxNxK``), as printed by maximum-
achievable-matmul finders and by quotetui's probe."""

from __future__ import annotations

import re
from decimal import Decimal

from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.logs import GemmSweep, LogError

_SUMMARY = re.compile(r"^\s*(mean|median|max)\s*:\s*(\S+)\s*TFLOPS\s*@\s*(\S+)", re.IGNORECASE)
_DTYPE = re.compile(r"dtype\s*:\s*(?:torch\.)?(\w+)", re.IGNORECASE)
_DEVICE = re.compile(r"^\s*(?:\*\*\s*)?(?:-|device\s*:|gpu\s*:)\s*((?:NVIDIA|GRID|Tesla)\b.*?)\s*$", re.IGNORECASE)
_SHAPE = re.compile(r"^\d+x\d+x\d+$")
_TORCH_DEVICE = re.compile(r"name='([^']+)'")


def parse(text: str) -> GemmSweep:
    figures: dict[str, Decimal] = {}
    shape = ""
    device = dtype = None
    for n, line in enumerate(text.splitlines(), 1):
        if found := _SUMMARY.match(line):
            stat, value, at = found.group(1).lower(), found.group(2), found.group(3)
            try:
                number = parse_number(value, what=f"{stat} TFLOPS")
            except BadInput:
                raise LogError(f"{stat} TFLOPS is {value!r}, not a number", n) from None
            if not number.is_finite() or number <= 0 or not _SHAPE.match(at):
                raise LogError(f"garbled summary line: {line.strip()[:80]!r}", n)
            figures[stat] = number
            shape = shape or at
        elif dtype is None and (found := _DTYPE.search(line)):
            dtype = found.group(1).lower()
        elif device is None and (found := _DEVICE.match(line) or _TORCH_DEVICE.search(line)):
            device = found.group(1)
    if not figures:
        raise LogError(
            "no summary line ('median: N TFLOPS @ MxNxK'): the sweep did not finish (cut short?)",
            len(text.splitlines()),
        )
    return GemmSweep(figures.get("median"), figures.get("mean"), figures.get("max"), shape, device, dtype)
