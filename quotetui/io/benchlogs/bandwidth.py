"""Link bandwidth: NVIDIA's ``nvbandwidth`` (GPU↔GPU and host↔device copies) and perftest's ``ib_write_bw``.

nvbandwidth (every version since 0.2) prints, for each testcase, ``Running <testcase>.``, then one matrix or
three (a bidirectional testcase since 0.10: ``Read1``, ``Read2`` and ``Total``), each a title such as
``memcpy CE GPU(row) -> GPU(column) bandwidth (GB/s)``, a header of column indices, one row per source (``N/A``
on the diagonal and for a pair without peer access), then ``SUM <name> <total>``. A matrix is read only with
its ``SUM`` line, which must equal its cells to the rounding of two decimals each: a figure garbled in a
paste is refused, not judged. Versions before 0.10 list the devices (``Device 0: NVIDIA H100 80GB HBM3``).

ib_write_bw prints a header (``RDMA_Write BW Test``, ``Device : mlx5_0``, ``Mtu : 4096[B]``, ``Link type :
IB``), then ``#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]`` (``[MB/sec]`` without
``--report_gbits``; a ``CPU_Util[%]`` column with ``--cpu_util``), one row per message size, and a closing
line of dashes: a table without it was cut short.
"""

from __future__ import annotations

import re
from decimal import Decimal

from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.verification.logs import BandwidthMatrix, IbRow, IbWriteBw, LogError, NvBandwidth
from quotetui.io.benchlogs.common import log_number

NVBANDWIDTH_START = re.compile(r"^nvbandwidth Version:|^Running \w+_(?:ce|sm|tma)\.\s*$", re.M)
"""The line nvbandwidth's output is known by: its version banner, or a testcase starting."""

IB_WRITE_BW_START = re.compile(r"^\s*RDMA_Write (?:Bidirectional )?BW Test\s*$", re.M)
"""The line ib_write_bw's output is known by: the test's title in its header."""

_RUNNING = re.compile(r"^Running (\w+)\.\s*$")
_TITLE = re.compile(r"^(?:memcpy|memory latency)\b.*\((?:GB/s|ns)\)\s*$")
_COLUMNS = re.compile(r"^\s*\d+(?:\s+\d+)*\s*$")
_ROW = re.compile(r"^\s*(\d+)\s+(\S.*?)\s*$")
_SUM = re.compile(r"^SUM (\w+)\s+(\S+)\s*$")
_VERSION = re.compile(r"^nvbandwidth Version:\s*(\S+)")
_DEVICE = re.compile(r"^Device (\d+): (.+?)(?: \([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\))?\s*$")


def nvbandwidth_matches(text: str) -> bool:
    """nvbandwidth's output (its banner or a testcase), or a bare matrix of it."""
    return bool(NVBANDWIDTH_START.search(text) or re.search(r"^memcpy (?:CE|SM) (?:CPU|GPU)\(", text, re.M))


def parse_nvbandwidth(text: str) -> NvBandwidth:
    lines = text.splitlines()
    matrices: list[BandwidthMatrix] = []
    devices: dict[int, str] = {}
    version = None
    current: str | None = None  # the testcase whose matrices follow (a bidirectional one prints three)
    pending: tuple[str, int] | None = None  # a testcase started, and the line, before any result of it
    n = 0
    while n < len(lines):
        line = lines[n].rstrip()
        n += 1
        if found := _VERSION.match(line):
            version = version or found.group(1)
        elif found := _DEVICE.match(line):
            devices.setdefault(int(found.group(1)), found.group(2).strip())
        elif found := _RUNNING.match(line):
            current, pending = found.group(1), (found.group(1), n)
        elif _TITLE.match(line):
            if current is None:
                raise LogError(f"a result matrix before any 'Running <testcase>.' line: {line[:80]!r}", n)
            matrix, n = _matrix(lines, n, line, current)
            matrices.append(matrix)
            pending = None
        elif found := _SUM.match(line):
            raise LogError(f"'SUM {found.group(1)}' without a matrix before it (a garbled paste?)", n)
        elif line.strip():
            pending = None  # the testcase printed something else (Waived, an error): it ends without a matrix
    if pending is not None:  # the log ends right after a testcase started
        raise LogError(f"'Running {pending[0]}.' and no result after it (cut short?)", pending[1])
    if not matrices:
        raise LogError(
            "no result matrix: nvbandwidth ran no testcase to its SUM line (cut short, or every testcase waived?)",
            len(lines),
        )
    if len(devices) > MAX_COUNT:
        raise LogError(f"{len(devices):,} devices: more than any machine has")
    return NvBandwidth(tuple(matrices), tuple(devices[i] for i in sorted(devices)), version)


def _matrix(lines: list[str], n: int, title: str, testcase: str) -> tuple[BandwidthMatrix, int]:
    """The matrix whose title is line ``n`` (1-based), up to and with its SUM line; the line after it."""
    started = n
    while n < len(lines) and not lines[n].strip():
        n += 1
    if n >= len(lines):
        raise LogError(f"the matrix of {testcase} ends at its title (cut short?)", started)
    if not _COLUMNS.match(lines[n]):
        raise LogError(f"not the column header of a matrix: {lines[n].strip()[:80]!r}", n + 1)
    columns = tuple(int(c) for c in lines[n].split())
    if len(columns) > MAX_COUNT or columns != tuple(range(len(columns))):
        raise LogError(f"garbled column header: {lines[n].strip()[:80]!r}", n + 1)
    n += 1
    rows: list[tuple[int, tuple[Decimal | None, ...]]] = []
    while n < len(lines):
        line = lines[n].rstrip()
        if not line.strip():
            n += 1
            continue
        if found := _SUM.match(line):
            total = log_number(found.group(2), f"SUM {found.group(1)}", n + 1)
            if not found.group(1).startswith(testcase):
                raise LogError(f"'SUM {found.group(1)}' inside the testcase {testcase} (a garbled paste?)", n + 1)
            return _checked(BandwidthMatrix(found.group(1), title.strip(), columns, tuple(rows), total), n + 1), n + 1
        found = _ROW.match(line)
        if not found or _TITLE.match(line) or _RUNNING.match(line):
            break
        cells = found.group(2).split()
        if len(cells) != len(columns):
            raise LogError(f"{len(cells)} values for {len(columns)} columns (a cut or garbled row)", n + 1)
        values = tuple(None if c == "N/A" else log_number(c, f"{testcase} row {found.group(1)}", n + 1) for c in cells)
        rows.append((int(found.group(1)), values))
        n += 1
    where = n + 1 if n < len(lines) else len(lines)
    raise LogError(f"the matrix of {testcase} has no SUM line after its rows (cut short?)", where)


def _checked(m: BandwidthMatrix, line: int) -> BandwidthMatrix:
    """Each cell is printed to two decimals from the value SUM adds: the two agree to 0.005 a cell (and the
    SUM's own rounding); anything further apart is a figure garbled between the machine and the paste."""
    if not m.rows:
        raise LogError(f"the matrix of {m.name} has no rows", line)
    if m.between_gpus and len(m.rows) != len(m.columns):
        raise LogError(f"the GPU matrix of {m.name} has {len(m.rows)} rows for {len(m.columns)} GPUs", line)
    added = sum((v for _, _, v in _all(m) if v is not None), Decimal(0))
    slack = Decimal("0.005") * (sum(1 for _, _, v in _all(m) if v is not None) + 1)
    if abs(added - m.total) > slack:
        raise LogError(f"SUM {m.name} is {m.total} but its cells add up to {added}: a garbled figure", line)
    return m


def _all(m: BandwidthMatrix) -> list[tuple[int, int, Decimal | None]]:
    return [(r, c, v) for r, values in m.rows for c, v in zip(m.columns, values, strict=True)]


_DEVICE_IB = re.compile(r"\bDevice\s*:\s*(\S+)")
_LINK = re.compile(r"^\s*Link type\s*:\s*(\S+)")
_MTU = re.compile(r"^\s*Mtu\s*:\s*(\d+)\s*\[B\]")
_QPS = re.compile(r"Number of qps\s*:\s*(\d+)")
_TEST = re.compile(r"^\s*(\w+(?: \w+)*?) BW Test\s*$")
_TABLE = re.compile(
    r"^\s*#bytes\s+#iterations\s+BW peak\[(Gb/sec|MB/sec)\]\s+BW average\[(Gb/sec|MB/sec)\]\s+MsgRate\[Mpps\](.*)$"
)
_IB_ROW = re.compile(r"^\s*\d+\s+\d+\s")
_DASHES = re.compile(r"^\s*-{20,}\s*$")
_CUDA = re.compile(r"device name = \[([^\]]+)\]")


def ib_write_bw_matches(text: str) -> bool:
    """ib_write_bw's header, or a perftest bandwidth table (another perftest test is refused by name)."""
    return bool(IB_WRITE_BW_START.search(text) or re.search(_TABLE.pattern, text, re.M))


def parse_ib_write_bw(text: str) -> IbWriteBw:
    lines = text.splitlines()
    device = link = gpu = None
    mtu = qps = None
    tests: list[tuple[str, int]] = []
    unit: str | None = None
    extra = 0
    rows: list[IbRow] = []
    closed = False
    header_at = 0
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if found := _TABLE.match(line):
            if found.group(1) != found.group(2) or (unit is not None and found.group(1) != unit):
                raise LogError(f"a results table in two units: {line.strip()[:80]!r}", n)
            unit, extra, header_at = found.group(1), len(found.group(3).split()), n
            closed = False
        elif unit is not None and _IB_ROW.match(line):
            rows.append(_ib_row(line.split(), extra, unit, n))
            closed = False
        elif rows and _DASHES.match(line):
            closed = True
        elif found := _TEST.match(line):
            tests.append((found.group(1), n))
        elif found := _LINK.match(line):
            link = link or found.group(1)
        elif found := _MTU.match(line):
            mtu = mtu or int(found.group(1))
        elif found := _CUDA.search(line):
            gpu = gpu or found.group(1).strip()
        else:
            if device is None and (found := _DEVICE_IB.search(line)):
                device = found.group(1)
            if qps is None and (found := _QPS.search(line)):
                qps = int(found.group(1))
    other = [(name, n) for name, n in tests if not name.startswith("RDMA_Write")]
    if other:
        raise LogError(f"a {other[0][0]} BW test, not ib_write_bw's RDMA_Write", other[0][1])
    if unit is None:
        raise LogError(
            "no result table ('#bytes #iterations BW peak…'): the client never connected, or the run was cut "
            "short before its results",
            len(lines),
        )
    if not rows:
        raise LogError("a result table header and no rows (cut short?)", len(lines) or header_at)
    if not closed:
        raise LogError("the result table does not end with its line of dashes (cut short?)", len(lines))
    bidirectional = any("Bidirectional" in name for name, _ in tests)
    return IbWriteBw(tuple(rows), unit, device, link, mtu, qps, bidirectional, gpu)


def _ib_row(tokens: list[str], extra: int, unit: str, n: int) -> IbRow:
    if len(tokens) != 5 + extra:
        raise LogError(f"{len(tokens)} values for {5 + extra} columns (a cut or garbled row)", n)
    size = log_number(tokens[0], "#bytes", n)
    iterations = log_number(tokens[1], "#iterations", n)
    if size > 1 << 40 or iterations > 10**15:
        raise LogError(f"{tokens[0]} bytes × {tokens[1]} iterations: no run sends that", n)
    return IbRow(
        int(size),
        int(iterations),
        log_number(tokens[2], f"BW peak[{unit}]", n),
        log_number(tokens[3], f"BW average[{unit}]", n),
        log_number(tokens[4], "MsgRate[Mpps]", n),
    )
