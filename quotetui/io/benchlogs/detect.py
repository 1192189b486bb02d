"""Which tool wrote a log, judged from its content (file names lie), and the probe's JSON bundle."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from quotetui.domain.verification.logs import LogError, ParsedLog
from quotetui.io.benchlogs import bandwidth, gemm, health, nccl, npu, smi, training
from quotetui.io.benchlogs.common import clean, output_lines

BUNDLE_KEY = "quotetui_probe"


def _is_nccl(t: str) -> bool:
    return "# nThread" in t or bool(re.search(r"^#.*\bbusbw\b", t, re.M))


def _is_gpu_burn(t: str) -> bool:
    return bool(re.search(r"Tested \d+ GPUs:|proc'd:|Initialized device \d+ with", t))


def _is_dcgm(t: str) -> bool:
    return bool(re.search(r"^\|\s*(Deployment|Hardware|Diagnostic|Metadata)", t, re.M | re.I))


def _is_gemm(t: str) -> bool:
    return bool(re.search(r"TFLOPS\b", t))  # 2024 mamf-finder: "715.5TFLOPS"


def _is_topology(t: str) -> bool:
    return bool(re.search(r"^\s*GPU0\s+X\b", t, re.M)) or "Legend:" in t


def _first(t: str) -> str:
    rows = output_lines(t)
    return rows[0][1] if rows else ""


def _is_list(t: str) -> bool:
    return bool(re.match(r"\s*GPU \d+: .*\(UUID:", _first(t)))


def _is_query(t: str) -> bool:
    return "," in _first(t)


_MATCHERS: tuple[tuple[str, Callable[[str], bool], Callable[[str], ParsedLog]], ...] = (
    ("nccl-tests all_reduce_perf", _is_nccl, nccl.parse_text),
    ("gpu-burn", _is_gpu_burn, health.parse_gpu_burn),
    ("dcgmi diag", _is_dcgm, health.parse_dcgm),
    ("nvbandwidth", bandwidth.nvbandwidth_matches, bandwidth.parse_nvbandwidth),
    ("ib_write_bw", bandwidth.ib_write_bw_matches, bandwidth.parse_ib_write_bw),
    ("training log (Megatron-LM, torchtitan)", training.matches, training.parse),  # before GEMM: it may say TFLOPS
    ("gemm sweep", _is_gemm, gemm.parse),
    ("npu-smi info", npu.matches, npu.parse),
    ("nvidia-smi topo -m", _is_topology, smi.parse_topology),
    ("nvidia-smi -L", _is_list, smi.parse_list),
    ("nvidia-smi query", _is_query, smi.parse_query),
)

TOOLS = tuple(name for name, _, _ in _MATCHERS) + ("nccl-tests all_reduce_perf (-J)",)


def _text(data: bytes, source: str) -> str:
    if b"\x00" in data:
        raise LogError("binary content (NUL bytes): not a text log", source=source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LogError("not UTF-8 text", line, source) from exc


_STARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("nccl-tests all_reduce_perf", re.compile(r"^# nThread\b|^#\s+size\s+count\s+type\b")),
    ("dcgmi diag", re.compile(r"^\|\s*Diagnostic\s*\|\s*Result\s*\|")),
    ("gpu-burn", re.compile(r"^Burning for\b|^Initialized device \d+ with|proc'd:|^\s*Tested \d+ GPUs:")),
    ("npu-smi info", npu.START),
    ("nvidia-smi topo -m", re.compile(r"^\s*GPU0\s+X\b")),
    ("nvidia-smi -L (MIG)", re.compile(r"^\s+MIG \S+\s+Device\s+\d+: \(UUID: MIG-")),
    ("nvidia-smi query", re.compile(r"^(timestamp|index|name|uuid|pci\.bus_id|driver_version|count)\s*,\s*\S", re.I)),
    ("nvbandwidth", bandwidth.NVBANDWIDTH_START),
    ("ib_write_bw", bandwidth.IB_WRITE_BW_START),
    ("Megatron-LM training log", training.MEGATRON_START),
    ("torchtitan training log", training.TORCHTITAN_START),
)
"""The line each tool's output is known by, to tell a file holding two tools' output (a probe run saved with
``>>``) from one tool's: such a file is refused, naming where the second one begins, never half-read."""


def _one_tool(text: str) -> None:
    first: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        for tool, start in _STARTS:
            if tool not in first and start.search(line):
                first[tool] = n
    if len(first) > 1:
        (a, at), (b, bt) = sorted(first.items(), key=lambda kv: kv[1])[:2]
        raise LogError(
            f"two tools' output in one file: {a} from line {at}, {b} from line {bt}; save each to its own "
            "file, or import the probe's JSON bundle",
            bt,
        )


def parse_log(text: str, source: str = "") -> ParsedLog:
    """The facts in one tool's output; a log no parser recognises, or one cut short, is a ``LogError``."""
    text = clean(text)
    stripped = text.lstrip()
    try:
        if stripped.startswith("{"):
            return nccl.parse_json(text)
        _one_tool(text)
        for _, matches, parse in _MATCHERS:
            if matches(text):
                return parse(text)
    except LogError as exc:
        raise exc.within(source) from None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    raise LogError(
        f"not a log quotetui reads (first line {first[:60]!r}); it reads: {', '.join(TOOLS)} and probe bundles",
        1 if first else None,
        source,
    )


@dataclass(frozen=True, slots=True)
class Section:
    """One raw output to keep as evidence: from a plain log file, or one command of a probe bundle."""

    label: str  # the file, or ``bundle.json#nvidia-smi topo -m``
    raw: str
    parsed: ParsedLog
    host: str | None = None
    captured_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ReadLog:
    sections: tuple[Section, ...]
    not_run: tuple[str, ...] = ()  # probe commands that were missing or failed, with the reason


def read_log(data: bytes, source: str) -> ReadLog:
    """A file as the user gives it to ``bench import``: a plain log, or a probe bundle taken whole."""
    text = _text(data, source)
    if text.lstrip().startswith("{") and BUNDLE_KEY in text[:2000]:
        return _bundle(text, source)
    return ReadLog((Section(source, text, parse_log(text, source)),))


def _bundle(text: str, source: str) -> ReadLog:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"probe bundle is not valid JSON: {exc.msg} (cut short?)", exc.lineno, source) from exc
    except ValueError as exc:  # an integer of thousands of digits: no probe wrote it
        raise LogError(f"probe bundle is not one the probe wrote: {exc}".split(";")[0], source=source) from None
    commands = data.get("commands") if isinstance(data, dict) else None
    if not isinstance(commands, list):
        raise LogError("probe bundle has no commands list", source=source)
    host = str(data.get("host") or "") or None
    captured = _when(data.get("started_at"), source)
    sections, not_run = [], []
    for i, cmd in enumerate(commands, 1):
        if not isinstance(cmd, dict) or not isinstance(cmd.get("name"), str):
            raise LogError(f"probe bundle command {i} has no name", source=source)
        label = f"{source}#{cmd['name']}"
        stdout = cmd.get("stdout")
        if cmd.get("skipped") or cmd.get("returncode") != 0 or not isinstance(stdout, str) or not stdout.strip():
            reason = cmd.get("skipped") or cmd.get("error") or f"exit status {cmd.get('returncode')}"
            not_run.append(f"{cmd['name']}: {reason}")
            continue
        sections.append(Section(label, stdout, parse_log(stdout, label), host, captured))
    if not sections:
        raise LogError("probe bundle holds no tool output: " + "; ".join(not_run or ["no commands"]), source=source)
    return ReadLog(tuple(sections), tuple(not_run))


def _when(value: object, source: str) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError as exc:
        raise LogError(f"probe bundle started_at is {value!r}, not an ISO time", source=source) from exc
    return when if when.tzinfo else when.replace(tzinfo=UTC)
