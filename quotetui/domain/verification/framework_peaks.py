"""The peak a training framework divides by to print its own MFU, and what it says about the device a log ran on.

torchtitan prints ``tflops: 331.82  mfu: 13.27%`` per step: its MFU is its TFLOP/s over the peak its
``get_peak_flops(device name)`` assumes, so ``tflops ÷ mfu`` is that assumed peak (331.82 ÷ 13.27 % ≈ 2,500
TFLOPS: an MI355X or a GB200, never an H100's 989); newer versions print the peak itself (``Peak FLOPS used for
computing MFU: 2.500e+15``). A log whose assumed peak is no figure any version of that table gives the model
sold ran on another device: its MFU is not the offer's.

The tables below are those of torchtitan's ``get_peak_flops`` and of the trainers that copy it (nanochat and its
forks): an older one that matches ``A100``, ``H100`` (``NVL`` 835, ``PCIe`` 756, else 989), ``H200``, ``B200``,
``MI355X``, ``MI300X``/``MI325X`` and falls back to an A100's 312 for any other device; a newer one, first match
wins, that names more devices and gives an unknown one no MFU at all; and the Ascend table of torchtitan's NPU
port (BF16 cube peaks). A model's figures are what each table gives for the names it is reported by, and its
datasheet peak.

Printed figures are rounded (tflops and mfu to two places), so the peak a step implies is an interval: from
(tflops − 0.005) ÷ (mfu + 0.005 %) to (tflops + 0.005) ÷ (mfu − 0.005 %); the steps' intervals are
intersected. A figure within it (or within 0.5 % of a printed peak) is consistent with the log.

"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.exact import dec, q
from quotetui.domain.gpus import GpuCatalog, GpuSpec
from quotetui.domain.verification.findings import a_or_an
from quotetui.domain.verification.inventory import memory_conflict
from quotetui.domain.verification.logs import TrainingThroughput
from quotetui.language import _
from quotetui.language.numbers import percent

_D = Decimal
NEWER: tuple[tuple[tuple[str, ...], Decimal, str], ...] = (
    (("gb200",), _D(2500), "GB200"), (("grace blackwell",), _D(2500), "GB200"), (("b200",), _D(2250), "B200"),
    (("b100",), _D(1800), "B100"), (("h200", "nvl"), _D(836), "H200 NVL"), (("h200", "pcie"), _D(836), "H200 PCIe"),
    (("h200",), _D(989), "H200"), (("h100", "nvl"), _D(835), "H100 NVL"), (("h100", "pcie"), _D(756), "H100 PCIe"),
    (("h100",), _D(989), "H100"), (("h800", "nvl"), _D(989), "H800 NVL"), (("h800",), _D(756), "H800"),
    (("a100",), _D(312), "A100"), (("a800",), _D(312), "A800"), (("a40",), _D("149.7"), "A40"),
    (("a30",), _D(165), "A30"), (("l40s",), _D(362), "L40S"), (("l40-s",), _D(362), "L40S"),
    (("l40 s",), _D(362), "L40S"), (("l4",), _D(121), "L4"), (("mi355",), _D(2500), "MI355X"),
    (("mi325",), _D("1307.4"), "MI325X"), (("mi300x",), _D("1307.4"), "MI300X"), (("mi300a",), _D("980.6"), "MI300A"),
    (("mi250x",), _D(383), "MI250X"), (("mi250",), _D("362.1"), "MI250"), (("5090",), _D("209.5"), "RTX 5090"),
    (("4090",), _D("165.2"), "RTX 4090"), (("3090",), _D(71), "RTX 3090"),
)  # fmt: skip
"""The newer table: the first row all of whose words are in the device's name (lower case) wins; none: no MFU."""

OLDER: tuple[tuple[tuple[str, ...], Decimal, str], ...] = (
    (("a100",), _D(312), "A100"), (("h100", "nvl"), _D(835), "H100 NVL"), (("h100", "pcie"), _D(756), "H100 PCIe"),
    (("h100",), _D(989), "H100"), (("h200",), _D(989), "H200"), (("b200",), _D(2250), "B200"),
    (("mi355x",), _D(2500), "MI355X"), (("mi300x",), _D(1300), "MI300X"), (("mi325x",), _D(1300), "MI325X"),
)  # fmt: skip
OLDER_FALLBACK = Decimal(312)
"""The older table falls back to an A100's peak for a device it does not name (an H800, an H20, an L20)."""

ASCEND: tuple[tuple[tuple[str, ...], Decimal, str], ...] = (
    (("910b1",), _D("373.88"), "Ascend 910B1"), (("910b2",), _D("353.8944"), "Ascend 910B2"),
    (("910b3",), _D("294.912"), "Ascend 910B3"), (("910b4",), _D("245.76"), "Ascend 910B4"),
    (("910_9392",), _D("353.8944"), "Ascend 910C"), (("910_9362",), _D("353.8944"), "Ascend 910C"),
)  # fmt: skip

ROUNDING = Decimal("0.005")  # half the last place torchtitan prints tflops and mfu to
PRINTED_SLACK = Fraction(1, 200)  # a printed peak (2.500e+15) is rounded to four figures


def _first(table: tuple[tuple[tuple[str, ...], Decimal, str], ...], name: str) -> Decimal | None:
    low = name.lower()
    return next((peak for words, peak, _ in table if all(w in low for w in words)), None)


def assumed_peaks(gpu: GpuSpec) -> frozenset[Decimal]:
    """Every peak a trainer may have divided by on this model: each table's figure for each name it is reported
    by, the older table's fallback where that table does not name it, and the datasheet's."""
    peaks = {q(gpu.bf16_tflops)}
    for name in gpu.names():
        for table in (NEWER, ASCEND):
            if (peak := _first(table, name)) is not None:
                peaks.add(peak)
        peaks.add(_first(OLDER, name) or OLDER_FALLBACK)
    return frozenset(peaks)


@dataclass(frozen=True, slots=True)
class ImpliedPeak:
    """The peak a log's own MFU divided by: an interval (rounding; no upper end where the MFU printed is 0.00 %:
    the framework knew no peak for its device), or the figure the log printed. ``consistent``: False where the
    steps (or a printed peak and the steps) imply no single peak, as no framework prints: an edited log."""

    low: Fraction
    high: Fraction | None
    how: str  # "331.82 TFLOP/s ÷ 13.27 % at step 3", or where the figures disagree (in the language in use)
    consistent: bool = True

    def holds(self, peak: Decimal) -> bool:
        return self.consistent and self.low <= q(peak) and (self.high is None or q(peak) <= self.high)

    def shown(self) -> str:
        if self.high is None:
            return _("no peak at all (0.00 % MFU at over {tflops} TFLOPS)").format(tflops=dec(self.low, 0))
        return f"{dec((self.low + self.high) / 2, 1)} TFLOPS"


def _step_interval(tflops: Decimal, mfu: Decimal) -> tuple[Fraction, Fraction | None]:
    half = q(ROUNDING)
    if q(mfu) <= half:  # printed 0.00 %: the framework divided by no peak (an unknown device), or a huge one
        return (q(tflops) - half) * 100 / (q(mfu) + half), None
    return (q(tflops) - half) * 100 / (q(mfu) + half), (q(tflops) + half) * 100 / (q(mfu) - half)


def implied_peak(p: TrainingThroughput) -> ImpliedPeak | None:
    """The peak ``p``'s own MFU implies (None: the log prints no MFU, as Megatron-LM's does not)."""
    low, high, first = Fraction(0), None, ""
    for s in p.steady:
        if s.mfu is None or q(s.tflops) < q(ROUNDING) * 2:
            continue
        lo, hi = _step_interval(s.tflops, s.mfu)
        here = _("{tflops} TFLOP/s ÷ {mfu} at step {step}").format(tflops=s.tflops, mfu=percent(s.mfu), step=s.step)
        first = first or here
        low, high = max(low, lo), hi if high is None else (high if hi is None else min(high, hi))
        if high is not None and low > high:
            return ImpliedPeak(low, high, _("{first}, but {then}").format(first=first, then=here), consistent=False)
    if p.assumed_peak is not None:
        peak = q(p.assumed_peak)
        if first and not (low <= peak * (1 + PRINTED_SLACK) and (high is None or peak * (1 - PRINTED_SLACK) <= high)):
            how = _("the log prints {peak} TFLOPS, but {first}").format(peak=p.assumed_peak, first=first)
            return ImpliedPeak(low, high, how, consistent=False)
        return ImpliedPeak(peak * (1 - PRINTED_SLACK), peak * (1 + PRINTED_SLACK), _("the peak the log prints"))
    return ImpliedPeak(low, high, first) if first else None


def devices_with(implied: ImpliedPeak, catalog: GpuCatalog) -> list[str]:
    """The devices whose assumed peak the interval holds: the tables' rows, else the catalog's models (a trainer
    that divides by the datasheet)."""
    named = [label for table in (NEWER, OLDER, ASCEND) for _, peak, label in table if implied.holds(peak)]
    if not named:
        named = [g.name for g in catalog if implied.holds(g.bf16_tflops)]
    return list(dict.fromkeys(named))


def foreign(p: TrainingThroughput, sold: GpuSpec, catalog: GpuCatalog) -> tuple[str, list[str]] | None:
    """Why ``p``'s own MFU shows it ran on a device other than ``sold``, and which devices its peak fits (none: an
    unknown device); None when it fits the model sold or prints no MFU."""
    implied = implied_peak(p)
    if implied is None:
        return _memory(p, sold, catalog, None)
    if not implied.consistent:
        why = _("its own MFU figures imply no single peak ({how}): an edited log, or several devices'")
        return why.format(how=implied.how), []
    unknown_to_trainers = not any(_first(NEWER, name) for name in sold.names())  # they print 0.00 % on it
    if any(implied.holds(peak) for peak in assumed_peaks(sold)) or (implied.high is None and unknown_to_trainers):
        return _memory(p, sold, catalog, implied)
    mine = "/".join(str(x) for x in sorted(assumed_peaks(sold)))
    return (
        _("its own MFU divides by {peak} ({how}); {a_model} is taken at {peaks}").format(
            peak=implied.shown(), how=implied.how, a_model=a_or_an(sold.name), peaks=mine
        ),
        devices_with(implied, catalog) if implied.high is not None else [],
    )


def _memory(
    p: TrainingThroughput, sold: GpuSpec, catalog: GpuCatalog, implied: ImpliedPeak | None
) -> tuple[str, list[str]] | None:
    """A training log whose device memory (torchtitan's capacity line, or a step's use ÷ its share: 116.16 GiB =
    83.14 % → 139.7 GiB) is far from the sold model's (``inventory.memory_conflict``: an H200's 141 GB on an 80 GB
    H100 offer) ran on another device, whatever peak it divided by; the models whose memory and peak fit it."""
    mib = None if p.capacity_gib is None else int(p.capacity_gib * 1024)
    if mib is None or not memory_conflict(sold, mib):
        return None
    fits = [
        g.name
        for g in catalog
        if not memory_conflict(g, mib) and (implied is None or any(implied.holds(peak) for peak in assumed_peaks(g)))
    ]
    return (
        _("its device holds {gib} GiB (as the log prints or its memory share implies); {a_model} has {gb} GB").format(
            gib=dec(q(p.capacity_gib), 1), a_model=a_or_an(sold.name), gb=sold.memory_gb
        ),
        fits,
    )
