"""NVIDIA's ``nvbandwidth``: copies between GPUs and between host and GPU, and the latency testcases, as text or
as its ``-j`` JSON.

The text (every version since 0.2) prints, for each testcase, ``Running <testcase>.``, then one matrix or three
(a bidirectional testcase since 0.10: ``Read1``, ``Read2`` and ``Total``), each a title such as ``memcpy CE
GPU(row) -> GPU(column) bandwidth (GB/s)`` (a latency testcase: ``… (ns)``), a header of column indices, one row
per source (``N/A`` on the diagonal and for a pair without peer access), then ``SUM <name> <total>``. A matrix is
read only with its ``SUM`` line, which must equal its cells to the rounding of two decimals each: a figure
garbled in a paste is refused, not judged. The ``SUM`` line names the testcase, so a paste cut above ``Running``
still reads. Versions before 0.10 list the devices (``Device 0: NVIDIA H100 80GB HBM3``), a multi-node run each
process's host and device (``Process 4 (node-1): device 0: HGX GB200``); 0.10 prints ``CUDA Runtime Version: 13.2
(13020)`` where older versions print ``13000``.

A testcase whose copy came back wrong prints `` Invalid value when checking the pattern at 0x…`` and an
``ASSERT in expression …`` line, and nvbandwidth stops: such a run is refused as the failure it is, naming its
lines, never as cut short.

The JSON (``-j``, since 0.5) holds the same: per testcase its ``name``, ``status`` (``Passed``, ``Waived``),
``bandwidth_description`` (the title), ``bandwidth_matrix`` (cells as strings) and ``sum``.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.verification.linkfacts import BandwidthMatrix, NvBandwidth
from quotetui.domain.verification.links import known_copy_between_gpus
from quotetui.domain.verification.logs import LogError
from quotetui.io.benchlogs.common import load_json, log_number, shown
from quotetui.language import _
from quotetui.language.lists import quoted

START = re.compile(r"^nvbandwidth Version:|^Running \w+_(?:ce|sm|tma)\.\s*$", re.M)
"""The line nvbandwidth's output is known by: its version banner, or a testcase starting."""

_RUNNING = re.compile(r"^Running (\w+)\.\s*$")
_TITLE = re.compile(r"^[A-Za-z][\w ]*\b(?:CPU|GPU)\(row\).*\((?:GB/s|ns)\)\s*$")
_COLUMNS = re.compile(r"^\s*\d+(?:\s+\d+)*\s*$")
_ROW = re.compile(r"^\s*(\d+)\s+(\S.*?)\s*$")
_SUM = re.compile(r"^SUM (\w+)\s+(\S+)\s*$")
_VERSION = re.compile(r"^nvbandwidth Version:\s*(\S+)")
_CUDA = re.compile(r"^CUDA Runtime Version:\s*(?:[\d.]+\s*\()?(\d+)\)?\s*$")
_DRIVER = re.compile(r"^Driver Version:\s*(\S+)")
_BUS = r"(?: \([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\))?\s*$"
_DEVICE = re.compile(rf"^Device (\d+): (.+?){_BUS}")
_PROCESS = re.compile(rf"^Process (\d+) \(([^)]+)\): device \d+: (.+?){_BUS}")
_WAIVED = re.compile(r"^\s*Waived\b")
_FAILED = re.compile(
    r"^\s*(?:Invalid value when checking the pattern\b|ASSERT in expression\b|\[?CUDA_ERROR_\w+\]? in expression\b)"
)
"""nvbandwidth's own failures: a copy that came back wrong, an assertion, a CUDA call that failed."""


def matches(text: str) -> bool:
    """nvbandwidth's output (its banner or a testcase), or a bare matrix of it."""
    bare = r"^(?:memcpy (?:CE|SM)|memory latency SM|Device to Device Latency SM) (?:CPU|GPU)\("
    return bool(START.search(text) or re.search(bare, text, re.M))


def is_json(text: str) -> bool:
    """nvbandwidth's ``-j`` output: one object under the key ``nvbandwidth``."""
    return bool(re.match(r'\s*\{\s*"nvbandwidth"\s*:', text))


def parse(text: str) -> NvBandwidth:
    lines = text.splitlines()
    matrices: list[BandwidthMatrix] = []
    devices: dict[int, str] = {}
    hosts: list[str] = []
    version = cuda = driver = None
    waived: list[str] = []
    current: str | None = None  # the testcase whose matrices follow (a bidirectional one prints three)
    pending: tuple[str, int] | None = None  # a testcase started, and the line, before any result of it
    said: tuple[str, int] | None = None  # the first other line it printed before a matrix
    n = 0
    while n < len(lines):
        line = lines[n].rstrip()
        n += 1
        if _FAILED.match(line):
            _failed(lines, n, current)
        elif found := _VERSION.match(line):
            version = version or found.group(1)
        elif found := _CUDA.match(line):
            cuda = cuda or found.group(1)
        elif found := _DRIVER.match(line):
            driver = driver or found.group(1)
        elif found := _DEVICE.match(line):
            devices.setdefault(int(found.group(1)), found.group(2).strip())
        elif found := _PROCESS.match(line):
            devices.setdefault(int(found.group(1)), found.group(3).strip())
            hosts.append(found.group(2))
        elif found := _RUNNING.match(line):
            if pending is not None:
                _no_result(pending, said)
            current, pending, said = found.group(1), (found.group(1), n), None
        elif _TITLE.match(line):
            matrix, n = _matrix(lines, n, line, current)
            matrices.append(matrix)
            pending = None
        elif found := _SUM.match(line):
            raise LogError(
                _("{line} without a matrix before it (a garbled paste?)").format(line=f"'SUM {found.group(1)}'"), n
            )
        elif _WAIVED.match(line) and pending is not None:
            waived.append(pending[0])
            pending = None
        elif line.strip() and pending is not None:
            said = said or (line.strip(), n)  # a line of its own before any matrix: kept to say what happened
    if pending is not None:  # the log ends after a testcase started, without its matrix or a Waived line
        _no_result(pending, said)
    if not matrices:
        raise LogError(
            _("no result matrix: nvbandwidth ran no testcase to its SUM line (cut short, or every testcase waived?)"),
            len(lines),
        )
    if len(devices) > MAX_COUNT:
        raise LogError(_("{n} devices: more than any machine has").format(n=f"{len(devices):,}"))
    seen = [m.name for m in matrices]
    if twice := next((name for name in seen if seen.count(name) > 1), None):
        raise LogError(_("{testcase} twice: two runs in one file? import each alone").format(testcase=twice))
    names = tuple(devices[i] for i in sorted(devices))
    hosts_seen = tuple(dict.fromkeys(hosts))
    return NvBandwidth(tuple(matrices), names, version, hosts_seen, cuda, driver, tuple(waived))


def _no_result(pending: tuple[str, int], said: tuple[str, int] | None) -> None:
    """A testcase that started and printed no matrix and no ``Waived``: cut short, or it failed (its failure lines
    removed: a stray line such as ``Current offset : 11136`` is what is left of one); never silently dropped."""
    if said is None:
        raise LogError(
            _("{line} and no result after it (cut short?)").format(line=f"'Running {pending[0]}.'"), pending[1]
        )
    raise LogError(
        _(
            "{line} printed no result matrix, only {said} at line {at}: a failed testcase? nvbandwidth prints a "
            "matrix or 'Waived' for each"
        ).format(line=f"'Running {pending[0]}.'", said=quoted(said[0][:60]), at=said[1]),
        said[1],
    )


def _failed(lines: list[str], n: int, testcase: str | None) -> None:
    """Refuses the run whose line ``n`` (1-based) is nvbandwidth's failure, naming it and the assertion after."""
    what = lines[n - 1].strip()
    more = next(
        (
            _("{failure}; {next} (line {line})").format(failure=_short(what), next=_short(s.strip()), line=k)
            for k, s in enumerate(lines[n:], n + 1)
            if _FAILED.match(s)
        ),
        _short(what),
    )
    if what.startswith("Invalid value when checking the pattern"):
        said = (
            _("nvbandwidth failed in {testcase} (a copy's data did not verify) at line {line}: {failure}")
            if testcase
            else _("nvbandwidth failed (a copy's data did not verify) at line {line}: {failure}")
        )
    else:
        said = (
            _("nvbandwidth failed in {testcase} at line {line}: {failure}")
            if testcase
            else _("nvbandwidth failed at line {line}: {failure}")
        )
    raise LogError(said.format(testcase=testcase, line=n, failure=more), n)


def _short(line: str) -> str:
    """A failure line as a message quotes it: whole when short, else its start and its end (the file and line
    an ASSERT names)."""
    return line if len(line) <= 160 else f"{line[:90]} … {line[-60:]}"


def _matrix(lines: list[str], n: int, title: str, testcase: str | None) -> tuple[BandwidthMatrix, int]:
    """The matrix whose title is line ``n`` (1-based), up to and with its SUM line; the line after it. Without a
    ``Running`` line before it (a paste cut above it), its SUM line names the testcase."""
    started = n
    what = testcase or _("a testcase")
    while n < len(lines) and not lines[n].strip():
        n += 1
    if n >= len(lines):
        raise LogError(_("the matrix of {testcase} ends at its title (cut short?)").format(testcase=what), started)
    if not _COLUMNS.match(lines[n]):
        raise LogError(_("not the column header of a matrix: {line}").format(line=quoted(lines[n].strip()[:80])), n + 1)
    columns = tuple(int(c) for c in lines[n].split())
    if len(columns) > MAX_COUNT or columns != tuple(range(len(columns))):
        raise LogError(_("garbled column header: {line}").format(line=quoted(lines[n].strip()[:80])), n + 1)
    n += 1
    rows: list[tuple[int, tuple[Decimal | None, ...]]] = []
    while n < len(lines):
        line = lines[n].rstrip()
        if not line.strip():
            n += 1
            continue
        if found := _SUM.match(line):
            total = log_number(found.group(2), f"SUM {found.group(1)}", n + 1)
            if testcase is not None and not found.group(1).startswith(testcase):
                raise LogError(
                    _("{line} inside the testcase {testcase} (a garbled paste?)").format(
                        line=f"'SUM {found.group(1)}'", testcase=testcase
                    ),
                    n + 1,
                )
            return _checked(BandwidthMatrix(found.group(1), title.strip(), columns, tuple(rows), total), n + 1), n + 1
        if _FAILED.match(line):
            _failed(lines, n + 1, testcase)
        found = _ROW.match(line)
        if not found or _TITLE.match(line) or _RUNNING.match(line):
            break
        cells = found.group(2).split()
        if len(cells) != len(columns):
            raise LogError(
                _("{values} values for {columns} columns (a cut or garbled row)").format(
                    values=len(cells), columns=len(columns)
                ),
                n + 1,
            )
        row = _row(what, found.group(1))
        values = tuple(None if c == "N/A" else log_number(c, row, n + 1) for c in cells)
        if int(found.group(1)) != len(rows):
            raise LogError(
                _("row {row} where row {expected} belongs (a garbled paste?)").format(
                    row=found.group(1), expected=len(rows)
                ),
                n + 1,
            )
        rows.append((int(found.group(1)), values))
        n += 1
    where = n + 1 if n < len(lines) else len(lines)
    raise LogError(
        _("the matrix of {testcase} has no SUM line after its rows (cut short?)").format(testcase=what), where
    )


def _contradiction(m: BandwidthMatrix) -> str:
    """Why a testcase's name and its matrix's title cannot belong together: a latency testcase prints ns, a copy
    GB/s; a copy to or from the host has a CPU side, one between GPUs none; a name that starts like a copy between
    GPUs is one of nvbandwidth's own (a renamed one would escape the NVLink floor)."""
    if ("latency" in m.name) != m.latency:
        return _("a latency testcase's matrix is in ns, a copy's in GB/s")
    between = m.name.startswith(("device_to_device", "multinode_device_to_device"))
    if (between and not m.between_gpus) or ("host" in m.name and m.between_gpus):
        return _("a copy between GPUs is titled GPU(row) -> GPU(column), one with the host CPU(row) or CPU(column)")
    if between and not m.latency and not known_copy_between_gpus(m.name):
        return _("not one of nvbandwidth's copies between GPUs")
    return ""


def _checked(m: BandwidthMatrix, line: int | None) -> BandwidthMatrix:
    """Each cell is printed to two decimals from the value SUM adds: the two agree to 0.005 a cell (and the
    SUM's own rounding); anything further apart is a figure garbled between the machine and the paste."""
    if not m.rows:
        raise LogError(_("the matrix of {testcase} has no rows").format(testcase=m.name), line)
    if why := _contradiction(m):
        raise LogError(
            _("{testcase} under the title {title}: {why} (an edited paste?)").format(
                testcase=m.name, title=quoted(m.title), why=why
            ),
            line,
        )
    if m.between_gpus and len(m.rows) != len(m.columns):
        raise LogError(
            _("the GPU matrix of {testcase} has {rows} rows for {gpus} GPUs").format(
                testcase=m.name, rows=len(m.rows), gpus=len(m.columns)
            ),
            line,
        )
    cells = [v for _, values in m.rows for v in values if v is not None]
    added = sum(cells, Decimal(0))
    if abs(added - m.total) > Decimal("0.005") * (len(cells) + 1):
        raise LogError(
            _("{sum} is {total} but its cells add up to {added}: a garbled figure").format(
                sum=f"SUM {m.name}", total=m.total, added=added
            ),
            line,
        )
    return m


def parse_json(text: str) -> NvBandwidth:
    """``nvbandwidth -j``: the same facts as the text. Its cells are strings (``"12.3964"``), its sums full
    doubles (read as printed, never through a float)."""
    data = load_json(text)
    body = data.get("nvbandwidth") if isinstance(data, dict) else None
    cases = body.get("testcases") if isinstance(body, dict) else None
    if not isinstance(body, dict) or not isinstance(cases, list):
        raise LogError(_("no 'testcases' list under 'nvbandwidth': not an nvbandwidth -j file, or cut short"))
    matrices, waived = [], []
    for i, case in enumerate(cases, 1):
        if not isinstance(case, dict) or not isinstance(case.get("name"), str):
            raise LogError(_("testcase {n} has no name").format(n=i))
        name, status = case["name"], case.get("status")
        if status == "Waived":
            if case.get("bandwidth_matrix"):
                raise LogError(
                    _("{testcase} is marked Waived and still carries a matrix: an edited file").format(testcase=name)
                )
            waived.append(name)
        elif status != "Passed":
            raise LogError(
                _("nvbandwidth failed in {testcase}: its status is {status}, not Passed").format(
                    testcase=name, status=shown(str(status))
                )
            )
        else:
            matrices.append(_json_matrix(name, case))
    if not matrices:
        raise LogError(_("no result matrix: every testcase of the nvbandwidth -j file was waived"))
    cuda, driver = body.get("CUDA Runtime Version"), body.get("Driver Version")
    version = body.get("version")
    return NvBandwidth(
        tuple(matrices),
        version=str(version) if version else None,
        cuda_version=None if cuda is None else str(cuda),
        driver=None if driver is None else str(driver),
        waived=tuple(waived),
        layout="json",
    )


def _json_matrix(name: str, case: dict[str, Any]) -> BandwidthMatrix:
    title, cells, total = case.get("bandwidth_description"), case.get("bandwidth_matrix"), case.get("sum")
    if not isinstance(title, str) or not _TITLE.match(title.strip()):
        raise LogError(
            _("{testcase}: its bandwidth_description is {title}, not one nvbandwidth prints").format(
                testcase=name, title=shown(str(title))
            )
        )
    if not isinstance(cells, list) or not cells or not all(isinstance(r, list) for r in cells):
        raise LogError(_("{testcase}: no bandwidth_matrix (cut short?)").format(testcase=name))
    if len(cells) > MAX_COUNT or any(len(r) != len(cells[0]) for r in cells):
        raise LogError(
            _("{testcase}: its bandwidth_matrix rows differ in length (a garbled file)").format(testcase=name)
        )
    if not isinstance(total, Decimal | int):
        raise LogError(_("{testcase}: its sum is {total}, not a number").format(testcase=name, total=shown(str(total))))
    rows = tuple(
        (r, tuple(None if str(c).strip() == "N/A" else _json_number(str(c).strip(), _row(name, r)) for c in row))
        for r, row in enumerate(cells)
    )
    total_number = _json_number(str(total), _("{testcase} sum").format(testcase=name))
    return _checked(BandwidthMatrix(name, title.strip(), tuple(range(len(cells[0]))), rows, total_number), None)


def _row(matrix: str, row: object) -> str:
    """A row of a matrix, as a problem names it (``device_to_device_memcpy_read_ce row 3``)."""
    return _("{matrix} row {row}").format(matrix=matrix, row=row)


def _json_number(token: str, what: str) -> Decimal:
    try:
        return log_number(token, what, 0)
    except LogError as exc:  # a JSON file has no line to name: the testcase names it
        raise LogError(exc.message) from None
