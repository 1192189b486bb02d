"""Health checks: gpu-burn (its exit code is always 0, so the summary is what counts) and ``dcgmi diag``."""

from __future__ import annotations

import re

from quotetui.domain.verification.logs import DcgmDiag, DcgmTest, GpuBurn, LogError

_TESTED = re.compile(r"^\s*Tested (\d+) GPUs:\s*$")
_RESULT = re.compile(r"^\s*GPU (\d+): (OK|FAULTY)\s*$")
_NAME = re.compile(r"^GPU \d+: (.+?) \(UUID:")


def parse_gpu_burn(text: str) -> GpuBurn:
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if _TESTED.match(line)), None)
    if at is None:
        raise LogError(
            "no 'Tested N GPUs:' summary: gpu-burn did not finish (its exit code is 0 even then)", len(lines)
        )
    expected = int(_TESTED.match(lines[at]).group(1))  # type: ignore[union-attr]
    results = []
    for n, line in enumerate(lines[at + 1 :], at + 2):
        if not line.strip():
            continue
        found = _RESULT.match(line)
        if not found:
            raise LogError(f"not a 'GPU i: OK|FAULTY' line: {line.strip()[:80]!r}", n)
        results.append((int(found.group(1)), found.group(2) == "OK"))
    if len(results) != expected:
        raise LogError(f"'Tested {expected} GPUs' but {len(results)} results (cut short?)", len(lines))
    names = tuple(found.group(1) for line in lines[:at] if (found := _NAME.match(line)))
    return GpuBurn(tuple(results), names)


_ROW = re.compile(r"^\|\s*([^|]*?)\s*\|\s*(.*?)\s*\|\s*$")
_VERDICT = re.compile(r"^(Pass|Fail|Skip|Warn)\b\s*-?\s*(.*)$")
_LEVEL = re.compile(r"-r\s*(\d)")
_NOT_TESTS = {"dcgm version", "driver version detected", "gpu device ids detected", "gpu device serials"}


def parse_dcgm(text: str) -> DcgmDiag:
    lines = [line.rstrip() for line in text.splitlines()]
    body = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    for n, line in body:
        if line.lower().startswith("error"):
            raise LogError(f"dcgmi reported an error: {line[:100]!r}", n)
    if not body or not body[-1][1].startswith("+"):
        raise LogError("the results table does not end with its border (cut short?)", len(lines))
    tests: list[DcgmTest] = []
    for n, line in body:
        if not line.startswith("|") or line.startswith("|-") or line.startswith("|="):
            continue
        found = _ROW.match(line)
        if not found:
            raise LogError(f"garbled table row: {line[:80]!r}", n)
        name, cell = found.group(1), found.group(2)
        verdict = _VERDICT.match(cell)
        if verdict and name and name.lower() not in _NOT_TESTS:
            tests.append(DcgmTest(name, verdict.group(1), verdict.group(2)))
        elif tests and (not name or name.lower() in ("warning", "info")):
            last = tests[-1]
            tests[-1] = DcgmTest(last.name, last.result, f"{last.detail}; {cell}".strip("; "))
    if not tests:
        raise LogError("no test results in the table")
    level = _LEVEL.search(text)
    return DcgmDiag(tuple(tests), int(level.group(1)) if level else None)
