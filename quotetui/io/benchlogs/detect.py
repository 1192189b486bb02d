"""Which tool wrote a log, judged from its content (file names lie), and the probe's JSON bundle."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from quotetui.domain.verification.logs import LogError, ParsedLog, PerftestBw
from quotetui.io.benchlogs import (
    gemm,
    health,
    nccl,
    npu,
    nvbandwidth,
    p2p,
    perftest,
    rocm,
    smi,
    smi_detail,
    smi_table,
    training,
)
from quotetui.io.benchlogs.common import PASTED_PROMPT, clean, load_json, output_lines, physical, physical_lines
from quotetui.language import N_, _
from quotetui.language.lists import aside, clauses, listed, quoted
from quotetui.probe.gpu_probe import (  # the probe writes them; it runs alone, so it holds them
    BUNDLE_KEY,
    BUNDLE_VERSION,
)


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


@dataclass(frozen=True, slots=True)
class Tool:
    """One tool quotetui reads: how its output is recognised and parsed, and where it begins in a file that
    holds several tools' output."""

    name: str
    matches: Callable[[str], bool]
    parse: Callable[[str], ParsedLog]
    start: re.Pattern[str] | None = None  # the lines its output is known by (None: it has no such line)
    lead_in: re.Pattern[str] | None = None  # lines just before ``start`` that are its output too (a header)
    again: re.Pattern[str] | None = None  # the line one run begins with: a second one is a second run
    own: re.Pattern[str] | None = None  # other lines that are its output wherever they stand (nccl's ``#``)
    end: re.Pattern[str] | None = None  # the line a run ends with: after it, a start line is another run
    lead_max: int = 1  # how many ``lead_in`` lines a run begins with at most (a header, a top border)
    word: str | None = None  # its name where that is words (an English message id), not a program's name
    kinds: tuple[str, ...] = ()  # the programs (or layouts) it stands for: ib_write_bw, torchtitan …

    @property
    def shown(self) -> str:
        """Its name as a user reads it, in the language in use, with the programs it stands for: ``perftest
        (ib_write_bw, …)``, ``训练日志（Megatron-LM、torchtitan）``."""
        name = _(self.word) if self.word else self.name
        return aside(name, listed(self.kinds)) if self.kinds else name

    def claims(self, line: str, ended: bool = False) -> bool:
        """Whether ``line`` is this tool's output; once its run has ended only its ``own`` lines are (gpu-burn's
        GPU lines after its results are another tool's listing)."""
        patterns = (self.own,) if ended else (self.start, self.lead_in, self.own)
        return any(p is not None and p.search(line) for p in patterns)


_TABLE_BORDER = r"^\s*\+[-=+]+\+\s*$"
_GPU_LINE = r"^GPU \d+: .*\(UUID: GPU-"
_QUERY_HEADER = r"^(timestamp|index|name|uuid|pci\.bus_id|driver_version|count)\s*,\s*\S"
TOOLS_READ: tuple[Tool, ...] = (
    Tool(
        "nccl-tests",
        _is_nccl,
        nccl.parse_text,
        re.compile(r"^# nThread\b|^#\s+size\s+count\s+type\b"),
        re.compile(r"^# Collective test starting"),
        re.compile(r"^# nThread\b"),
        re.compile(r"^#"),
        re.compile(r"^#\s*Avg bus bandwidth\b"),
    ),
    Tool(
        "gpu-burn",
        _is_gpu_burn,
        health.parse_gpu_burn,
        re.compile(r"^Burning for\b|^Initialized device \d+ with|proc'd:|^\s*Tested \d+ GPUs:"),
        re.compile(rf"^(?:Using compare file|Run length not specified)|{_GPU_LINE}"),
        re.compile(r"^Burning for\b"),
        end=re.compile(r"^\s*Tested \d+ GPUs:"),
        lead_max=3,
    ),
    Tool(
        "dcgmi diag",
        _is_dcgm,
        health.parse_dcgm,
        re.compile(r"^\|\s*Diagnostic\s*\|\s*Result\s*\|"),
        re.compile(rf"^Successfully ran diagnostic|{_TABLE_BORDER}"),
        re.compile(r"^\|\s*Diagnostic\s*\|\s*Result\s*\|"),
        lead_max=2,
    ),
    Tool("dcgmi discovery -l", health.discovery_matches, health.parse_discovery, health.DISCOVERY),
    Tool(
        "nvidia-smi",
        lambda t: bool(re.search(r"^\s*\|\s*(?:NVIDIA-SMI\s+\d|HL-SMI Version:)", t, re.M)),
        smi_table.parse,
        smi_table.BANNER,
        re.compile(_TABLE_BORDER),
        smi_table.BANNER,
        lead_max=1,
    ),
    Tool("rocm-smi", rocm.matches, rocm.parse, rocm.START),  # its --showmeminfo banner too: one part
    Tool("nvidia-smi -q", lambda t: "NVSMI LOG" in t, smi_detail.parse, smi_detail.START, again=smi_detail.START),
    Tool(
        "nvbandwidth",
        nvbandwidth.matches,
        nvbandwidth.parse,
        nvbandwidth.START,
        again=re.compile(r"^nvbandwidth Version:"),
    ),
    Tool(
        "perftest",
        perftest.matches,
        perftest.parse,
        perftest.START,
        re.compile(r"^\s*-{20,}\s*$|^\*{20,}\s*$"),
        kinds=("ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_*_lat"),
    ),  # no ``again``: a loopback run prints the server's and the client's header, one table each
    Tool("p2pBandwidthLatencyTest", p2p.matches, p2p.parse, p2p.START, again=p2p.START),
    # before the GEMM sweep: a training log may say TFLOPS
    Tool(
        "training log",
        training.matches,
        training.parse,
        training.START,
        word=N_("training log"),
        kinds=("Megatron-LM", "torchtitan"),
    ),
    Tool(
        "gemm sweep",
        _is_gemm,
        gemm.parse,
        re.compile(r"^\s*Benchmark started on\b"),
        again=re.compile(r"^\s*Benchmark started on\b"),
    ),
    Tool(
        "npu-smi info",
        npu.matches,
        npu.parse,
        npu.START,
        re.compile(_TABLE_BORDER),
        re.compile(r"^\|\s*npu-smi\s+\S+\s+Version:"),
    ),
    Tool(
        "nvidia-smi topo -m",
        _is_topology,
        smi.parse_topology,
        re.compile(r"^\s*GPU0\s+X\b"),
        re.compile(r"^\s+GPU0\b"),
        re.compile(r"^\s*GPU0\s+X\b"),
    ),
    Tool(  # gpu-burn prints the same GPU lines: a listing directly before its progress is its own (``split``)
        "nvidia-smi -L",
        _is_list,
        smi.parse_list,
        re.compile(rf"{_GPU_LINE}|^\s+MIG \S+\s+Device\s+\d+: \(UUID: MIG-"),
        again=re.compile(r"^GPU 0: "),
    ),
    Tool(  # with its header, or without (``noheader``): the probe's field order starts with the index and name
        "nvidia-smi query",
        _is_query,
        smi.parse_query,
        re.compile(rf"{_QUERY_HEADER}|^\d+\s*,\s*(?:NVIDIA|Tesla|Quadro|GRID)\b", re.I),
        again=re.compile(_QUERY_HEADER, re.I),  # two header-less listings: the parser refuses a repeated index
    ),
)
"""Every tool, in the order a text is tried against them (the first that matches parses it)."""

JSON_FORMATS = (("nccl-tests all_reduce_perf", "-J"), ("nvbandwidth", "-j"))
"""The JSON outputs read beside the tools' text (``parse_log``), each a program and its flag."""


def formats_read() -> list[str]:
    """Every format read, as a refusal names them in the language in use."""
    return [*(t.shown for t in TOOLS_READ), *(aside(name, flag) for name, flag in JSON_FORMATS)]


def _text(data: bytes, source: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # PowerShell's `>` writes UTF-16 with a byte-order mark
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise LogError(_("UTF-16 text (PowerShell's >) that does not decode: cut short?"), source=source) from exc
    if b"\x00" in data:
        raise LogError(_("binary content (NUL bytes): not a text log"), source=source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LogError(_("not UTF-8 text"), line, source) from exc


@dataclass(frozen=True, slots=True)
class Part:
    """One tool's output inside a file: lines ``first``–``last`` (1-based, inclusive)."""

    tool: str
    first: int
    last: int
    text: str


def split(text: str) -> list[Part]:
    """A file cut where another tool's output, or another run of the same tool, begins (a probe run saved with
    ``>>``, two nodes' outputs pasted together, a terminal session pasted whole). A part begins at its tool's
    ``start`` line (for the same tool: at an ``again`` line, or at a start line once the run's ``end`` line has
    passed), moved up over the lead-in lines just above it (a table's top border, at most ``lead_max``) and the
    prompt and blank lines above those (the command typed); lines before the first start belong to the first
    part. One run of one tool is one part."""
    lines = text.splitlines(keepends=True)
    starts: list[tuple[int, Tool]] = []  # (0-based line, tool) where a part begins
    current: Tool | None = None
    ended = False
    for i, line in enumerate(lines):
        if current is not None:
            again = current.again is not None and current.again.search(line)
            if again or (ended and current.start is not None and current.start.search(line)):
                starts.append((_walk_back(lines, i, starts[-1][0], current, current), current))
                ended = False
                continue
            if current.end is not None and current.end.search(line):
                ended = True
                continue
            if current.claims(line, ended):
                continue
        tool = next((t for t in TOOLS_READ if t.start is not None and t.start.search(line)), None)
        if tool is None:
            continue
        at = 0 if current is None else _walk_back(lines, i, starts[-1][0], tool, current)
        if current is not None and _absorbs(tool, current, lines, starts[-1][0], i):
            starts[-1] = (starts[-1][0], tool)  # a trimmed gpu-burn paste begins with its own GPU lines
        else:
            starts.append((at, tool))
        current, ended = tool, bool(tool.end is not None and tool.end.search(line))
    if len(starts) <= 1:
        return [Part(starts[0][1].name if starts else "", 1, len(lines), text)]
    parts = []
    for k, (at, tool) in enumerate(starts):
        stop = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        parts.append(Part(tool.shown, at + 1, stop, "".join(lines[at:stop])))
    return parts


def _walk_back(lines: list[str], i: int, part_start: int, tool: Tool, before: Tool) -> int:
    """Where ``tool``'s output that is known at line ``i`` begins: its lead-in lines directly above (at most
    ``lead_max``, none the output before claims), then the prompt and blank lines above those."""
    lead = 0
    while i > part_start + 1 and lead < tool.lead_max and _lead_in(lines[i - 1], tool, before):
        i, lead = i - 1, lead + 1
    while (
        i > part_start + 1
        and _blank_or_prompt(lines[i - 1])
        and not (before is not tool and before.claims(lines[i - 1]))
    ):
        i -= 1
    return i


def _lead_in(line: str, tool: Tool, before: Tool) -> bool:
    if before is not tool and before.claims(line):
        return False  # nccl-tests ends with a lone '#': the output before keeps its own lines
    return tool.lead_in is not None and bool(tool.lead_in.search(line))


def _blank_or_prompt(line: str) -> bool:
    return (not line.strip() and line != "\r") or bool(PASTED_PROMPT.match(line))


def _absorbs(tool: Tool, before: Tool, lines: list[str], part_start: int, i: int) -> bool:
    """gpu-burn prints ``GPU 0: … (UUID: …)`` lines like ``nvidia-smi -L``: a listing directly followed (no blank
    or prompt line) by gpu-burn's progress, without its ``Burning for`` banner, is gpu-burn's own beginning."""
    if tool.name != "gpu-burn" or before.name != "nvidia-smi -L" or (tool.again and tool.again.search(lines[i])):
        return False
    between = [line for line in lines[part_start:i] if line != "\r"]  # a \r repaint is no blank line
    while between and _blank_or_prompt(between[0]):  # the blank and prompt lines the listing's part began with
        between.pop(0)
    return bool(between) and all(line.strip() and not PASTED_PROMPT.match(line) for line in between)


def _one_tool(text: str) -> None:
    """A text taken as one log (a probe bundle's command, stored evidence) must be one tool's output."""
    parts = split(text)
    if len(parts) > 1:
        a, b = parts[0], parts[1]
        raise LogError(
            _(
                "two tools' output in one file: {tool} from line {line}, {other} from line {other_line}; save "
                "each to its own file, or import the probe's JSON bundle"
            ).format(tool=a.tool, line=a.first, other=b.tool, other_line=b.first),
            b.first,
        )


def parse_log(text: str, source: str = "") -> ParsedLog:
    """The facts in one tool's output; a log no parser recognises, or one cut short, is a ``LogError``."""
    text = clean(text)
    stripped = text.lstrip()
    first, _sep, rest = stripped.partition("\n")
    if PASTED_PROMPT.match(first) and rest.lstrip().startswith("{"):  # `$ ./nvbandwidth -j` above its JSON
        text = stripped = rest.lstrip()
    try:
        if stripped.startswith("{"):
            return nvbandwidth.parse_json(text) if nvbandwidth.is_json(text) else nccl.parse_json(text)
        _one_tool(text)
        for tool in TOOLS_READ:
            if tool.matches(text):
                return tool.parse(text)
    except LogError as exc:  # its line as an editor counts them (gpu-burn's \r repaints are no line ends)
        raise LogError(exc.message, physical(physical_lines(text), exc.line), source) from None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not first or all(not line.strip() or PASTED_PROMPT.match(line) for line in text.splitlines()):
        raise LogError(_("empty: no tool output (nothing, or only a shell prompt)"), None, source)
    raise LogError(
        _("not a log quotetui reads (first line {line}); it reads: {tools} and probe bundles").format(
            line=quoted(first[:60]), tools=listed(formats_read())
        ),
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
    """A file as the user gives it to ``bench import``: a plain log, a file holding several tools' output (each
    part a section labelled with its lines, ``run.txt lines 41–80``), or a probe bundle taken whole. A part
    that cannot be read refuses the whole file, naming the file's line."""
    text = _text(data, source)
    if text.lstrip().startswith("{") and BUNDLE_KEY in text[:2000]:
        return _bundle(text, source)
    parts = split(clean(text))
    if len(parts) == 1:
        return ReadLog((Section(source, text, parse_log(text, source)),))
    raw = text.splitlines(keepends=True)
    numbers = physical_lines(text)
    sections = []
    for k, part in enumerate(parts):
        last = part.last if k + 1 < len(parts) else len(raw)  # the prompts clean() dropped stay in the raw text
        first_at, last_at = physical(numbers, part.first) or 1, physical(numbers, last) or 1
        label = f"{source} lines {first_at}–{last_at}"
        body = "".join(raw[part.first - 1 : last])
        try:
            sections.append(Section(label, body, parse_log(body, label)))
        except LogError as exc:
            line = exc.line + first_at - 1 if exc.line is not None else None
            where = (
                _("{problem} (in the {tool} output at lines {first}–{last})").format(
                    problem=exc.message, tool=part.tool, first=first_at, last=last_at
                )
                if part.tool
                else _("{problem} (in the unrecognised output at lines {first}–{last})").format(
                    problem=exc.message, first=first_at, last=last_at
                )
            )
            raise LogError(where, line, source) from None
    return ReadLog(tuple(sections))


def _bundle(text: str, source: str) -> ReadLog:
    data = load_json(text, _("probe bundle"), source, exact=False)
    version = data.get(BUNDLE_KEY) if isinstance(data, dict) else None
    if type(version) is not int or version < 1:
        raise LogError(
            _("probe bundle's {key} is not a version number ({value})").format(
                key=quoted(BUNDLE_KEY), value=quoted(str(version)[:40])
            ),
            source=source,
        )
    if version > BUNDLE_VERSION:
        raise LogError(
            _(
                "probe bundle version {version} was written by a newer probe (this quotetui reads up to version "
                "{newest}): upgrade quotetui, or take the probe this one writes (`quotetui probe`)"
            ).format(version=version, newest=BUNDLE_VERSION),
            source=source,
        )
    commands = data.get("commands")
    if not isinstance(commands, list):
        raise LogError(_("probe bundle has no commands list"), source=source)
    host = str(data.get("host") or "") or None
    captured = _when(data.get("started_at"), source)
    sections, not_run = [], []
    for i, cmd in enumerate(commands, 1):
        if not isinstance(cmd, dict) or not isinstance(cmd.get("name"), str):
            raise LogError(_("probe bundle command {n} has no name").format(n=i), source=source)
        label = f"{source}#{cmd['name']}"
        stdout = cmd.get("stdout")
        if cmd.get("skipped") or cmd.get("returncode") != 0 or not isinstance(stdout, str) or not stdout.strip():
            reason = (
                cmd.get("skipped") or cmd.get("error") or _("exit status {code}").format(code=cmd.get("returncode"))
            )
            not_run.append(f"{cmd['name']}: {reason}")
            continue
        parsed = parse_log(stdout, label)
        if cmd.get("loopback") and isinstance(parsed, PerftestBw):  # the probe ran server and client on this host
            parsed = replace(parsed, loopback=True)
        sections.append(Section(label, stdout, parsed, host, captured))
    if not sections:
        said = clauses(not_run) if not_run else _("no commands")
        raise LogError(_("probe bundle holds no tool output: {reasons}").format(reasons=said), source=source)
    return ReadLog(tuple(sections), tuple(not_run))


def _when(value: object, source: str) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError as exc:
        raise LogError(
            _("probe bundle started_at is {value}, not an ISO time").format(value=quoted(value)), source=source
        ) from exc
    return when if when.tzinfo else when.replace(tzinfo=UTC)
