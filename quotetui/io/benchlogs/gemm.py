"""A GEMM throughput sweep's summary, in each format mamf-finder has printed and quotetui's probe prints.

- 2024: ``The best outcome was 244.5TFLOPS @ 6144x4096x4096 (MxNxK) (tried 3 shapes)``;
- 2025 and the probe: ``mean|median|max: 791.2 TFLOPS @ 12288x4096x4096 (MxNxK)``;
- 2026: ``MAMF (max achievable,  boost burst): 755 TFLOPS @ 1536x2816x20480 (MxNxK)  700W 1980MHz 65C`` and
  ``MSMF (max sustainable, saturated):   690 TFLOPS @ …`` (either may be ``n/a``).

A log with none of them is refused with what it does hold: a run cut before its results, a results section
in a format quotetui does not read, or a 2026 run whose figures are both ``n/a``.
"""

from __future__ import annotations

import re
from decimal import Decimal

from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.logs import GemmSweep, LogError
from quotetui.language import _
from quotetui.language.lists import quoted

_FIGURE = r"(?P<value>\S+?)\s*TFLOPS\s*@\s*(?P<shape>\S+)"
_FORMATS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("mean/median/max", re.compile(rf"^\s*(?P<stat>mean|median|max)\s*:\s*{_FIGURE}", re.I)),
    ("mamf-finder 2024", re.compile(rf"^\s*The (?P<stat>best) outcome was\s+{_FIGURE}", re.I)),
    ("mamf-finder 2026", re.compile(rf"^\s*(?P<stat>MAMF|MSMF)\s*\([^)]*\)\s*:\s*{_FIGURE}")),
)
_NOT_MEASURED = re.compile(r"^\s*(MAMF|MSMF)\s*\([^)]*\)\s*:\s*n/a\s*$")
_RESULTS = re.compile(r"^\s*\*\*\s*Results:|^\s*Tried\s+\d+\s+shapes\b", re.I)
_STARTED = re.compile(r"^\s*Benchmark started on\b")
_PROGRESS = re.compile(r"\(mean\)|\bbest:|\d+x\d+x\d+", re.I)
_DTYPE = re.compile(r"dtype\s*:\s*(?:torch\.)?(\w+)", re.IGNORECASE)
_DEVICE = re.compile(r"^\s*(?:\*\*\s*)?(?:-|device\s*:|gpu\s*:)\s*((?:NVIDIA|GRID|Tesla)\b.*?)\s*$", re.IGNORECASE)
_SHAPE = re.compile(r"^\d+x\d+x\d+$")
_TORCH_DEVICE = re.compile(r"name='([^']+)'")
_CASE = {"best": "best", "mean": "mean", "median": "median", "max": "max", "MAMF": "MAMF", "MSMF": "MSMF"}


def _figure(found: re.Match[str], line: str, n: int) -> tuple[str, Decimal, str]:
    stat = found.group("stat")
    stat = _CASE.get(stat, stat.lower())
    value, shape = found.group("value"), found.group("shape")
    try:
        number = parse_number(value, what=f"{stat} TFLOPS")
    except BadInput:
        raise LogError(
            _("{statistic} TFLOPS is {value}, not a number").format(statistic=stat, value=quoted(value)), n
        ) from None
    if not number.is_finite() or number <= 0 or not _SHAPE.match(shape):
        raise LogError(_("garbled summary line: {line}").format(line=quoted(line.strip()[:80])), n)
    return stat, number, shape


def parse(text: str) -> GemmSweep:
    figures: dict[str, tuple[str, Decimal, str]] = {}
    fmt = ""
    device = dtype = None
    results_at = started_at = progress_at = None
    not_measured: list[int] = []
    for n, line in enumerate(text.splitlines(), 1):
        for name, pattern in _FORMATS:
            if found := pattern.match(line):
                stat, value, shape = _figure(found, line, n)
                if stat in figures:
                    raise LogError(
                        _("a second {statistic} figure: two sweeps in one file? import each alone").format(
                            statistic=quoted(stat)
                        ),
                        n,
                    )
                figures[stat] = (stat, value, shape)
                fmt = fmt or name
                break
        else:
            if _NOT_MEASURED.match(line):
                not_measured.append(n)
            elif results_at is None and _RESULTS.match(line):
                results_at = n
            elif started_at is None and _STARTED.match(line):
                started_at = n
            elif dtype is None and (found := _DTYPE.search(line)):
                dtype = found.group(1).lower()
            elif device is None and (found := _DEVICE.match(line) or _TORCH_DEVICE.search(line)):
                device = found.group(1)
            elif started_at is not None and _PROGRESS.search(line):
                progress_at = n
    if not figures:
        raise LogError(*_why_no_figures(text, results_at, started_at, progress_at, not_measured))
    return GemmSweep(tuple(figures.values()), device, dtype, fmt)


def _why_no_figures(
    text: str, results_at: int | None, started_at: int | None, progress_at: int | None, not_measured: list[int]
) -> tuple[str, int]:
    last = len(text.splitlines())
    if not_measured:
        return (
            _("MAMF and MSMF are both n/a: the run measured no shape, so there is no figure to verify"),
            not_measured[0],
        )
    if results_at is not None:
        return (
            _(
                "its results section has no figure line quotetui reads (known: 'median: N TFLOPS @ MxNxK', "
                "'The best outcome was N TFLOPS @ MxNxK', 'MSMF (…): N TFLOPS @ MxNxK')"
            ),
            results_at,
        )
    if started_at is not None:
        if progress_at:
            said = _(
                "the sweep did not finish: its last progress line is line {line} and no results follow (cut short "
                "or killed)"
            ).format(line=progress_at)
            return said, progress_at
        return _("the sweep did not finish: no shape was measured and no results follow (cut short or killed)"), last
    return _("no summary line ('median: N TFLOPS @ MxNxK'): not a finished GEMM sweep"), last
