"""A training run's throughput lines: Megatron-LM and torchtitan, the TFLOP/s (and tokens/s) per GPU it reached.

Megatron-LM run with ``--log-throughput`` prints, every ``--log-interval`` iterations (some forks add
``tokens per GPU (tokens/s/GPU): …``)::

    [2024-04-06 02:55:50] iteration        3/     100 | consumed samples:          384 | elapsed time per
    iteration (ms): 5410.6 | throughput per GPU (TFLOP/s/GPU): 241.4 | learning rate: 6.000000E-07 | …

torchtitan prints, every ``--metrics.log_freq`` steps, on each rank it logs (``[rank0]:`` when torchrun tags
them; the same step once per rank when it does not)::

    [rank0]:[titan] 2025-06-04 11:02:49,027 - root - INFO - step: 10  loss: 10.4260  memory: 30.89GiB(32.51%)
    tps: 6,344  tflops: 367.39  mfu: 37.15%

Only the TFLOP/s per GPU and tokens/s per GPU are figures. torchtitan's own ``mfu:`` is not one: it divides by
the peak torchtitan assumes for the device it runs on, not by the datasheet of the model sold. It is kept for
what it tells: ``tflops ÷ mfu`` is that assumed peak, which names the device (``framework_peaks.py``), as does
the ``Peak FLOPS used for computing MFU:`` line newer versions print.

Warm-up. The first steps of a run are slow for reasons that are not the machine: kernel compilation
(``torch.compile``, CUDA graphs), NCCL communicator set-up, the allocator growing, the data loader filling
(the torchtitan run in the fixture does 34.47 TFLOP/s at step 1, 367.39 at step 10). The first tenth of the
steps logged, rounded up and at least one, is warm-up; the median over the rest is the figure. A log with no
throughput line, or with fewer than ``MIN_STEADY_STEPS`` steps after the warm-up, is refused: a median of one
or two steps says nothing about a sustained rate. A step printed by several ranks counts once, at the median of
what they printed.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from quotetui.domain.economics.exact import ceil
from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.verification.logs import LogError, TrainingStep, TrainingThroughput, exact_median
from quotetui.io.benchlogs.common import log_number
from quotetui.language import _, ngettext

WARMUP_SHARE = Fraction(1, 10)
"""The share of the steps logged that is warm-up (rounded up, at least one step), before the steady steps."""

MIN_STEADY_STEPS = 3
"""The fewest steps after the warm-up whose median is taken as the run's throughput."""

MEGATRON_START = re.compile(r"\biteration\s+\d+\s*/\s*\d+\s*\|")
"""The line a Megatron-LM log is known by: an iteration's log line."""

TORCHTITAN_START = re.compile(r"(?<!validate )\bstep:\s*\d+\s+loss:")
"""The line a torchtitan log is known by: a training step's metrics (not a validation step's)."""

START = re.compile(f"{MEGATRON_START.pattern}|{TORCHTITAN_START.pattern}")

_TFLOPS = re.compile(r"throughput per GPU \(TFLOP/s/GPU\):\s*([^\s|]+)")
_MS = re.compile(r"elapsed time per iteration \(ms\):\s*([^\s|]+)")
_TOKENS = re.compile(r"tokens per GPU \(tokens/s/GPU\):\s*([^\s|]+)")
_ITERATION = re.compile(r"\biteration\s+(\d+)\s*/\s*(\d+)\s*\|")
_STEP = re.compile(r"(?<!validate )\bstep:\s*(\d+)\s+loss:")
_TITAN_TFLOPS = re.compile(r"\btflops:\s*(\S+)")
_TITAN_MFU = re.compile(r"\bmfu:\s*(\S+?)%")
_TITAN_PEAK = re.compile(r"Peak FLOPS used for computing MFU:\s*(\S+)")
_TITAN_TOKENS = re.compile(r"\b(?:tps|wps):\s*(\S+)")
_CAPACITY = re.compile(r"\b(?:CUDA|GPU|ROCm|XPU) capacity:\s*(.+?)(?:\s+\(\d+\))?\s+with\s+([\d.]+)\s*GiB memory")
_TITAN_MEMORY = re.compile(r"\bmemory:\s*([\d.]+)GiB\(([\d.]+)%\)")
_WORLD = re.compile(r"^\s*world_size\s*\.{3,}\s*(\d+)\s*$")
_ARG = re.compile(r"^\s*(fp8|bf16|fp16)\s*\.{3,}\s*(\S+)\s*$")


def matches(text: str) -> bool:
    """A Megatron-LM iteration line or a torchtitan step line (checked before the GEMM sweep: a training log
    may say TFLOPS too)."""
    return bool(START.search(text))


def _number(token: str, what: str, line: int) -> Decimal:
    return log_number(token.rstrip("|,"), what, line)  # "6,344," as torchtitan prints it


def parse(text: str) -> TrainingThroughput:
    lines = text.splitlines()
    found: dict[int, list[tuple[Decimal, Decimal | None, Decimal | None, Decimal | None]]] = {}
    assumed: Decimal | None = None
    printed: Decimal | None = None  # the device's memory as the capacity line prints it (GiB)
    share: Decimal | None = None  # the device's memory a step's "memory: …GiB(…%)" implies (GiB)
    frameworks: dict[str, int] = {}
    last_line: dict[int, int] = {}
    device = world = None
    args: dict[str, str] = {}
    for n, line in enumerate(lines, 1):
        if megatron := _ITERATION.search(line):
            frameworks.setdefault("Megatron-LM", n)
            step = _step(megatron.group(1), n)
            tflops = _TFLOPS.search(line)
            if tflops is None:
                if _TFLOPS.search(text) is None:
                    raise LogError(
                        _(
                            "Megatron-LM iteration lines but no 'throughput per GPU (TFLOP/s/GPU)' figure: run it "
                            "with --log-throughput"
                        ),
                        n,
                    )
                raise LogError(
                    _("iteration {step} has no throughput figure (cut short, or a garbled line?)").format(step=step), n
                )
            ms, tokens = _MS.search(line), _TOKENS.search(line)
            figures = (
                _number(tflops.group(1), _("iteration {step} TFLOP/s per GPU").format(step=step), n),
                _number(tokens.group(1), _("iteration {step} tokens/s per GPU").format(step=step), n)
                if tokens
                else None,
                _number(ms.group(1), _("iteration {step} elapsed ms").format(step=step), n) if ms else None,
                None,
            )
        elif titan := _STEP.search(line):
            frameworks.setdefault("torchtitan", n)
            step = _step(titan.group(1), n)
            tflops, tokens = _TITAN_TFLOPS.search(line), _TITAN_TOKENS.search(line)
            if tflops is None:
                if _TITAN_TFLOPS.search(text) is None:
                    raise LogError(
                        _(
                            "torchtitan step lines but no 'tflops:' figure (an older torchtitan prints wps and its "
                            "own mfu only): the TFLOP/s per GPU are unknown"
                        ),
                        n,
                    )
                raise LogError(
                    _("step {step} has no tflops figure (cut short, or a garbled line?)").format(step=step), n
                )
            figures = (
                _number(tflops.group(1), _("step {step} tflops").format(step=step), n),
                _number(tokens.group(1), _("step {step} tps").format(step=step), n) if tokens else None,
                None,
                _mfu(mfu.group(1), step, n) if (mfu := _TITAN_MFU.search(line)) else None,
            )
            if share is None and (used := _TITAN_MEMORY.search(line)) and (pct := _number(used.group(2), "", n)):
                used_gib = _number(used.group(1), _("step {step} memory").format(step=step), n)
                share = used_gib * 100 / pct  # GiB in use ÷ its share
        else:
            if peak := _TITAN_PEAK.search(line):
                assumed = _number(peak.group(1), _("the peak FLOPS used for MFU"), n) / 10**12
            if device is None and (capacity := _CAPACITY.search(line)):
                device = capacity.group(1).strip()
                printed = _number(capacity.group(2), _("the device's memory"), n)
            elif world is None and (size := _WORLD.match(line)):
                world = int(size.group(1))
            elif arg := _ARG.match(line):
                args.setdefault(arg.group(1), arg.group(2))
            continue
        if found and step <= min(found) < max(found):  # the count started again: a second run appended
            raise LogError(
                _(
                    "step {step} after step {last}: the step count starts again, so two runs are in one file; import "
                    "each alone"
                ).format(step=step, last=max(found)),
                n,
            )
        found.setdefault(step, []).append(figures)
        last_line[step] = n
    if len(frameworks) > 1:
        second, at = max(frameworks.items(), key=lambda kv: kv[1])
        raise LogError(
            _("Megatron-LM and torchtitan lines in one log ({framework} from line {line})").format(
                framework=second, line=at
            ),
            at,
        )
    if not found:
        raise LogError(_("no throughput line (a Megatron-LM iteration or a torchtitan step)"), len(lines) or None)
    if world is not None and not 0 < world <= MAX_COUNT:
        raise LogError(_("world_size {n}: not a number of GPUs").format(n=world))
    steps = tuple(_merged(step, found[step]) for step in sorted(found))
    warmup = max(1, ceil(len(steps) * WARMUP_SHARE))
    if len(steps) - warmup < MIN_STEADY_STEPS:
        logged = ngettext("{n} step logged", "{n} steps logged", len(steps)).format(n=f"{len(steps):,}")
        warm = ngettext("the {n} warm-up step", "the {n} warm-up steps", warmup).format(n=f"{warmup:,}")
        raise LogError(
            _(
                "{logged}, {after} after {warmup}: a median needs at least {least} steady steps (log more often, or "
                "run longer)"
            ).format(logged=logged, after=len(steps) - warmup, warmup=warm, least=MIN_STEADY_STEPS),
            max(last_line.values()),
        )
    capacity = printed if printed is not None else share
    return TrainingThroughput(next(iter(frameworks)), steps, warmup, device, world, _dtype(args), assumed, capacity)


def _mfu(token: str, step: int, n: int) -> Decimal:
    value = _number(token, _("step {step} mfu").format(step=step), n)
    if value > 100:
        raise LogError(
            _("step {step} mfu {value}%: more than 100 %, which no framework prints").format(step=step, value=token), n
        )
    return value


def _step(token: str, n: int) -> int:
    if len(token) > 12:
        raise LogError(_("step {step}…: not a step number").format(step=token[:20]), n)
    return int(token)


def _merged(step: int, printed: list[tuple[Decimal, Decimal | None, Decimal | None, Decimal | None]]) -> TrainingStep:
    """One step, from each rank that printed it: the median of their figures (one rank: its own)."""

    def mid(values: list[Decimal | None]) -> Decimal | None:
        known = [v for v in values if v is not None]
        return exact_median(known) if known and len(known) == len(values) else None

    tflops = mid([p[0] for p in printed])
    assert tflops is not None  # every line read has its TFLOP/s
    return TrainingStep(
        step, tflops, mid([p[1] for p in printed]), mid([p[2] for p in printed]), mid([p[3] for p in printed])
    )


def _dtype(args: dict[str, str]) -> str | None:
    """The precision Megatron-LM's argument dump names: FP8 when set, else BF16 or FP16 when True."""
    if args.get("fp8", "None") != "None":
        return "fp8"
    return next((name for name in ("bf16", "fp16") if args.get(name) == "True"), None)
