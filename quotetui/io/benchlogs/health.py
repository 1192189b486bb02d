"""Health checks: gpu-burn (its exit code is always 0, so the summary is what counts) and ``dcgmi diag``."""

from __future__ import annotations

import re

from quotetui.domain.verification.logs import DcgmDiag, DcgmTest, GpuBurn, LogError
from quotetui.io.benchlogs.common import is_prompt
from quotetui.language import _
from quotetui.language.lists import listed, quoted

_TESTED = re.compile(r"^\s*Tested (\d+) GPUs:\s*$")
_RESULT = re.compile(r"^\s*GPU (\d+): (OK|FAULTY)\s*$")
_NAME = re.compile(r"^GPU \d+: (.+?) \(UUID:")


_PROGRESS = re.compile(r"proc'd:\s*(.+?)\s+errors:")
_DONE = re.compile(r"^(\d+) \(")


def parse_gpu_burn(text: str) -> GpuBurn:
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if _TESTED.match(line)), None)
    if at is None:
        raise LogError(
            _("no 'Tested N GPUs:' summary: gpu-burn did not finish (its exit code is 0 even then)"), len(lines)
        )
    again = next((i for i, line in enumerate(lines[at + 1 :], at + 1) if _TESTED.match(line)), None)
    if again is not None:
        raise LogError(
            _("a second 'Tested N GPUs:' summary: two gpu-burn runs in one file? import each alone"), again + 1
        )
    expected = int(_TESTED.match(lines[at]).group(1))  # type: ignore[union-attr]
    results = []
    for n, line in enumerate(lines[at + 1 :], at + 2):
        if not line.strip():
            continue
        found = _RESULT.match(line)
        if not found and results and is_prompt(line):  # the shell prompt a paste ends with
            break
        if not found:
            raise LogError(_("not a 'GPU i: OK|FAULTY' line: {line}").format(line=quoted(line.strip()[:80])), n)
        results.append((int(found.group(1)), found.group(2) == "OK"))
    if len(results) != expected:
        raise LogError(
            _("'Tested {expected} GPUs' but {results} results (cut short?)").format(
                expected=expected, results=len(results)
            ),
            len(lines),
        )
    _work_done(text[: sum(len(line) + 1 for line in lines[:at])], expected, at + 1)
    names = tuple(found.group(1) for line in lines[:at] if (found := _NAME.match(line)))
    return GpuBurn(tuple(results), names)


def _work_done(before: str, gpus: int, line: int) -> None:
    """gpu-burn says OK for a GPU that never computed: its progress lines (repainted with ``\r``) must show
    work done on every GPU tested."""
    progress = [found.group(1) for part in re.split(r"[\r\n]", before) if (found := _PROGRESS.search(part))]
    if not progress:
        raise LogError(_("no progress line (proc'd: …): gpu-burn did no work, so its OK proves nothing"), line)
    counts = [int(m.group(1)) for part in progress[-1].split(" - ") if (m := _DONE.match(part.strip()))]
    if len(counts) != gpus:
        raise LogError(
            _("the last progress line shows {shown} GPUs, not the {gpus} tested").format(shown=len(counts), gpus=gpus),
            line,
        )
    idle = [i for i, done in enumerate(counts) if done == 0]
    if idle:
        raise LogError(
            _("GPU {gpus} did no work (proc'd 0): its OK proves nothing").format(gpus=listed(map(str, idle))), line
        )


_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*(.*?)\s*\|\s*$")
_VERDICT = re.compile(r"^(Pass|Fail|Skip|Warn|Error)\b\s*-?\s*(.*)$")
_PER_GPU = re.compile(r"^(Pass|Fail|Skip|Warn|Error)\s*-\s*GPUs?:\s*\d[\d, ]*$")
"""DCGM 3.x splits a test's result by GPU: ``| Targeted Power | Pass - GPUs: 0, 2, 3 |`` then a row with an
empty name, ``|  | Fail - GPU: 1 |``; each row is a result of its own (the worst counts)."""
_SECTION = re.compile(r"^[|+]-+\s+(\w[\w ]*?)\s+-+[+|]")
_BORDER = re.compile(r"^\+[-=+]+\+$")
"""The table's closing border; a section separator (``+-----  Integration  ---+``) has a name in it."""
_LEVEL = re.compile(r"(?:-r|--run)[\s=]*(\d)\b")
_NOT_TESTS = {"dcgm version", "driver version detected", "gpu device ids detected", "gpu device serials"}


def parse_dcgm(text: str) -> DcgmDiag:
    lines = [line.rstrip() for line in text.splitlines()]
    body = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    for n, line in body:
        if line.lower().startswith("error"):
            raise LogError(_("dcgmi reported an error: {line}").format(line=quoted(line[:100])), n)
    if not body or not _BORDER.match(body[-1][1].strip()):
        raise LogError(_("the results table does not end with its closing border (cut short?)"), len(lines))
    tests: list[DcgmTest] = []
    block: list[str] | None = None  # a Warning/Info/Error cell, wrapped over rows at the column's width
    section, device_ids = "", ""

    def flush() -> None:
        nonlocal block
        if block is not None and tests:
            last, text = tests[-1], "".join(block).strip()
            tests[-1] = DcgmTest(last.name, last.result, f"{last.detail}; {text}".strip("; "), last.section)
        block = None

    for n, line in body:
        if not line.startswith("|") or line.startswith("|-") or line.startswith("|="):
            flush()
            if named := _SECTION.match(line):
                section = named.group(1)
            continue
        found = _ROW.match(line)
        if not found:
            raise LogError(_("garbled table row: {line}").format(line=quoted(line[:80])), n)
        name, cell = found.group(1), found.group(2)
        raw = line.split("|")[2] if line.count("|") == 3 else f" {cell}  "
        piece = raw[1:-2]  # the cell's text as wrapped: one space of padding before, two after
        verdict = _VERDICT.match(cell)
        if name.lower() == "gpu device ids detected":
            device_ids = cell
        if verdict and name and name.lower() not in _NOT_TESTS:
            flush()
            tests.append(DcgmTest(name, verdict.group(1), verdict.group(2), section))
        elif tests and not name and block is None and verdict and _PER_GPU.match(cell):  # the same test, other GPUs
            tests.append(DcgmTest(tests[-1].name, verdict.group(1), verdict.group(2), section))
        elif tests and name.lower() in ("warning", "info", "error"):
            flush()
            block = [piece]
        elif tests and not name:
            if block is None:
                block = []
            block.append(piece)
    flush()
    if not tests:
        raise LogError(_("no test results in the table"))
    level = _LEVEL.search(text)
    ids = tuple(x.strip() for x in device_ids.split(",") if x.strip())
    return DcgmDiag(tuple(tests), int(level.group(1)) if level else None, ids)


DISCOVERY = re.compile(r"^\|\s*GPU ID\s*\|\s*Device Information\s*\|")


def discovery_matches(text: str) -> bool:
    return bool(re.search(DISCOVERY.pattern, text, re.M))


def parse_discovery(text: str) -> DcgmDiag:
    """``dcgmi discovery -l`` is refused as what it is: a list of GPUs whose names DCGM may not know."""
    names = re.findall(r"^\|\s*\d+\s*\|\s*Name:\s*(.*?)\s*\|", text, re.M)
    at = next((n for n, line in enumerate(text.splitlines(), 1) if DISCOVERY.match(line.strip())), None)
    if names and all(name == "<<<NULL>>>" for name in names):
        raise LogError(
            _(
                "dcgmi discovery -l lists {n} GPUs and names none (every Name is <<<NULL>>>): it cannot show which "
                "GPU this is; import nvidia-smi -L or the nvidia-smi table for the inventory"
            ).format(n=len(names)),
            at,
        )
    raise LogError(
        _(
            "dcgmi discovery -l ({n} GPUs listed): quotetui takes the inventory from nvidia-smi (-L, its table, -q "
            "or a --query-gpu CSV), not from DCGM's list"
        ).format(n=len(names)),
        at,
    )
