"""perftest (linux-rdma/perftest): ``ib_write_bw``, ``ib_read_bw``, ``ib_send_bw`` and their ``_lat`` siblings,
as they really print.

Each prints a header between lines of dashes (``RDMA_Read BW Test``, ``Device : mlx5_0``, ``Number of qps : 16``,
``Mtu : 4096[B]``, ``Link type : Ethernet``, ``GID index : 3``; tabs or, in many pastes, spaces), the address
lines (a RoCE run adds ``GID:`` lines), then one table and a closing line of dashes: a table without it was cut
short. A bandwidth table is ``#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]`` (``[MB/sec]``
without ``--report_gbits``; the newest perftest adds ``BW min[…]``, ``--cpu_util`` a ``CPU_Util[%]``); a timed run
(``-D``) prints ``WARNING: BW peak won't be measured`` and a peak of 0.00, which is no measurement: it is judged
on its average. A latency table is ``#bytes #iterations t_min[usec] t_max[usec] t_typical[usec] …``, times that
are never a bandwidth.

A loopback run saved in one file holds the server's and the client's output interleaved line by line: two
headers, two tables, the result row twice. The server prints the client's report under its own header, so the
two tables may name two units for one figure (the server run without ``--report_gbits``): the unit is the one
the row's own message rate agrees with (average = MsgRate × size).

A run that failed (``Couldn't connect to …``, ``ethernet_read_keys: Couldn't read remote address``, ``Couldn't
allocate MR``) has no result table: it is refused as the failure it printed, naming that line and the binary
(from the header, else from the command typed), never as cut short.
"""

from __future__ import annotations

import re

from quotetui.domain.verification.linkfacts import (
    PERFTEST_VERBS,
    IbRow,
    LatencyRow,
    PerftestBw,
    PerftestLat,
    perftest_tool,
)
from quotetui.domain.verification.logs import LogError
from quotetui.io.benchlogs.common import is_prompt, log_number
from quotetui.language import _, ngettext
from quotetui.language.lists import listed, quoted

START = re.compile(
    r"^\s*(?:RDMA_Write|RDMA_Write_imm|RDMA_Read|Send|ATOMIC|Atomic)\b[\w ]*? (?:BW|Latency) Test\s*$", re.M
)
"""The line perftest's output is known by: the test's title in its header (``RDMA_Write BW Test``)."""

_TITLE = re.compile(r"^\s*(\w+)((?: \w+)*?) (BW|Latency) Test\s*$")
_BW_TABLE = re.compile(
    r"^\s*#bytes\s+#iterations\s+BW peak\[(Gb/sec|MB/sec|MiB/sec)\]\s+BW average\[(Gb/sec|MB/sec|MiB/sec)\]\s+"
    r"MsgRate\[Mpps\](.*)$"
)
_LAT_TABLE = re.compile(r"^\s*#bytes\s+#iterations\s+(t_min\[usec\].*)$")
_LAT_COLUMNS = re.compile(r"t_\w+\[usec\]|\d+(?:\.\d+)?% percentile\[usec\]")
_LAT_FIELDS = {
    "t_min[usec]": "t_min",
    "t_max[usec]": "t_max",
    "t_typical[usec]": "t_typical",
    "t_avg[usec]": "t_avg",
    "t_stdev[usec]": "t_stdev",
    "99% percentile[usec]": "p99",
    "99.9% percentile[usec]": "p999",
}
_EXTRA = re.compile(r"[A-Za-z_][\w ]*?\[[^\]]+\]")  # BW min[Gb/sec], CPU_Util[%]
_ROW = re.compile(r"^\s*\d+\s+\d+\s")
_DASHES = re.compile(r"^\s*-{20,}\s*$")
_DEVICE = re.compile(r"\bDevice\s*:\s*(\S+)")
_LINK = re.compile(r"^\s*Link type\s*:\s*(\S+)")
_MTU = re.compile(r"^\s*Mtu\s*:\s*(\d+)\s*\[B\]")
_QPS = re.compile(r"Number of qps\s*:\s*(\d+)")
_GID = re.compile(r"^\s*GID index\s*:\s*(\d+)")
_CONNECTION = re.compile(r"Connection type\s*:\s*(\S+)")
_CUDA = re.compile(r"device name = \[([^\]]+)\]")
_NO_PEAK = re.compile(r"BW peak won't be measured")
_REQUESTED = re.compile(r"(?:^|\s)(?:-d|--ib-dev)(?:\s+|=)(\S+)")
_COMMAND = re.compile(r"[$#%>]\s*(?:sudo\s+)?(?:[\w./-]*/)?(ib_(?:write|read|send|atomic)_(?:bw|lat))(?=\s|$)")
_LOCAL = re.compile(r"\s(?:127\.0\.0\.1|localhost|::1)(?:\s|$)")
"""A client pointed at its own host: a loopback pair measures the NIC and its PCIe path, not the network."""
_BIDIRECTIONAL = re.compile(r"\s(?:-b|--bidirectional)(?:\s|$)")
"""A command typed with ``-b``: the figures add both directions, whatever the title says."""
_FAILED = re.compile(r"\b(?:Couldn't|Could not|Unable to|Failed to|failed to|Problems with)\b|\b[Ee]rror\b")
"""perftest's own failure lines: ``Couldn't connect to 10.0.0.2:18515``, ``ethernet_read_keys: Couldn't read
remote address``, ``Couldn't allocate MR``, ``Completion with error``."""
_OWN_FAILURE = re.compile(
    r"Couldn't create IB resources|Unable to init the socket connection|Failed to exchange data between server and"
    r" clients|ethernet_(?:read|write)_keys|Unable to open file descriptor for socket connection"
)
"""Failure lines only perftest prints: a log of nothing but them (and the command) is a failed perftest run."""


def matches(text: str) -> bool:
    """perftest's header or one of its tables, or its command followed by its own failure lines."""
    if START.search(text) or re.search(_BW_TABLE.pattern, text, re.M) or re.search(_LAT_TABLE.pattern, text, re.M):
        return True
    return bool(_OWN_FAILURE.search(text)) and any(
        is_prompt(line) and _COMMAND.search(line) for line in text.splitlines()[:20]
    )


def parse(text: str) -> PerftestBw | PerftestLat:
    lines = text.splitlines()
    head = _Header()
    titles: list[tuple[str, bool, str, int]] = []  # (test, bidirectional, BW | Latency, line)
    tables: list[tuple[str, int]] = []  # (unit, line) of each table header: Gb/sec, MB/sec, or usec (latency)
    columns: list[str] = []  # the current table's columns after MsgRate (BW min, CPU_Util), or its latency columns
    rows: list[tuple[list[str], int, str, list[str]]] = []  # (tokens, line, its table's unit, its columns)
    failures: list[tuple[int, str]] = []
    command: str | None = None
    command_line = ""
    closed = False
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if found := _BW_TABLE.match(line):
            if found.group(1) != found.group(2):
                raise LogError(_("a results table in two units: {line}").format(line=quoted(line.strip()[:80])), n)
            tables.append((found.group(1).replace("MiB/sec", "MB/sec"), n))  # newer perftest says MiB: 2^20 B
            columns, closed = _EXTRA.findall(found.group(3)), False
        elif found := _LAT_TABLE.match(line):
            tables.append(("usec", n))
            columns, closed = _LAT_COLUMNS.findall(found.group(1)), False
        elif tables and _ROW.match(line) and not (closed and len(line.split()) != len(rows[-1][0])):
            rows.append((line.split(), n, tables[-1][0], columns))  # after the dashes: a loopback's other side's row
            closed = False
        elif rows and _DASHES.match(line):
            closed = True
        elif found := _TITLE.match(line):
            titles.append((found.group(1), "Bidirectional" in found.group(2), found.group(3), n))
        elif command is None and is_prompt(line) and (found := _COMMAND.search(line)):
            command, command_line = found.group(1), line
            if requested := _REQUESTED.search(line[found.end() :]):
                head.requested = requested.group(1)
        elif not head.read(line) and _FAILED.search(line):
            failures.append((n, line.strip()))
    if len(head.devices) > 1:
        raise LogError(
            _("two perftest runs in one log: on {device} and on {other}; save each run to its own file").format(
                device=head.devices[0], other=head.devices[1]
            ),
        )
    test, bidirectional, kind = _test(titles, command, tables)
    bidirectional = bidirectional or bool(command_line and _BIDIRECTIONAL.search(command_line))
    tool = perftest_tool(test, "bw" if kind == "BW" else "lat") if test in PERFTEST_VERBS else command or "perftest"
    # a run that printed its failure is refused as that failure, not as cut short; one that failed after some
    # rows (``Completion with error``) too, even where a line of dashes follows (a loopback's other side)
    first = min([n for _, n, _, _ in rows] + [len(lines) + 1])
    last = max([n for _, n, _, _ in rows] + [0])
    after = first if rows else 0
    if (not rows or not closed or failures) and (
        failed := next(((n, what) for n, what in failures if n > (last if not rows or not closed else after)), None)
    ):
        raise LogError(
            _("{tool} failed at line {line}: {failure} ({attempt})").format(
                tool=tool, line=failed[0], failure=failed[1], attempt=head.attempted()
            ),
            failed[0],
        )
    if test and test not in PERFTEST_VERBS:
        raise LogError(
            _(
                "a perftest {test} {kind} test: not read (quotetui reads perftest's Send, RDMA_Write and RDMA_Read "
                "tests; an atomic test measures 8-byte operations, not the link)"
            ).format(test=test, kind=kind),
            titles[0][3] if titles else None,
        )
    if not tables:
        columns_named = "t_min" if kind == "Latency" else "BW peak"
        raise LogError(
            _(
                "no result table ('#bytes #iterations {columns}…'): the client never connected, or the run was cut "
                "short before its results"
            ).format(columns=columns_named),
            len(lines),
        )
    if not rows:
        raise LogError(_("a result table header and no rows (cut short?)"), len(lines))
    lat = tuple(_lat_row(tokens, n, names) for tokens, n, _, names in rows) if kind == "Latency" else ()
    bw_rows = [_bw_row(tokens, n, unit, names) for tokens, n, unit, names in rows] if kind != "Latency" else []
    if not closed:
        raise LogError(_("the result table does not end with its line of dashes (cut short?)"), len(lines))
    if kind == "Latency":
        return PerftestLat(lat, test, head.device, head.link, head.mtu, head.qps, head.gpu, head.gid, head.connection)
    duration = head.no_peak or all(r.peak == 0 < r.average for r in bw_rows)
    return PerftestBw(
        tuple(bw_rows),
        _unit({unit for unit, _ in tables}, bw_rows, tables),
        head.device,
        head.link,
        head.mtu,
        head.qps,
        bidirectional,
        head.gpu,
        test,
        duration,
        head.gid,
        head.connection,
        bool(command_line and _LOCAL.search(command_line)),
    )


class _Header:
    """The header's facts, first found wins (a loopback file prints the server's and the client's header)."""

    def __init__(self) -> None:
        self.device: str | None = None
        self.devices: list[str] = []  # every device a header names: a loopback file names one twice, two runs two
        self.link: str | None = None
        self.gpu: str | None = None
        self.connection: str | None = None
        self.mtu: int | None = None
        self.qps: int | None = None
        self.gid: int | None = None
        self.no_peak = False
        self.requested: str | None = None  # the device the command asked for (-d), where no header names one

    def attempted(self) -> str:
        """What a failed run was to measure, as far as it printed it: ``on mlx5_0, IB, 30 QPs: no result``."""
        qps = self.qps and ngettext("{n} QP", "{n} QPs", self.qps).format(n=f"{self.qps:,}")
        said = [x for x in (self.device, self.link, qps) if x]
        if said:
            return _("on {what}: no result").format(what=listed(said))
        if self.requested:
            return _("device {device} asked for: no result").format(device=self.requested)
        return _("no result")

    def read(self, line: str) -> bool:
        """Takes what ``line`` says; whether it was a header line."""
        if found := _LINK.match(line):
            self.link = self.link or found.group(1)
        elif found := _MTU.match(line):
            self.mtu = self.mtu or int(found.group(1))
        elif found := _GID.match(line):
            self.gid = self.gid if self.gid is not None else int(found.group(1))
        elif found := _CUDA.search(line):
            self.gpu = self.gpu or found.group(1).strip()
        elif _NO_PEAK.search(line):
            self.no_peak = True
        else:
            taken = False
            if found := _DEVICE.search(line):
                self.device, taken = self.device or found.group(1), True
                if found.group(1) not in self.devices:
                    self.devices.append(found.group(1))
            if found := _QPS.search(line):
                self.qps, taken = self.qps or int(found.group(1)), True
            if found := _CONNECTION.search(line):
                self.connection, taken = self.connection or found.group(1), True
            return taken
        return True


def _test(
    titles: list[tuple[str, bool, str, int]], command: str | None, tables: list[tuple[str, int]]
) -> tuple[str, bool, str]:
    """The test the header names (else the command typed; "" when neither says), whether it is bidirectional,
    and its kind (BW or Latency), which its tables must be: two tests in one log are two runs, which one log
    cannot hold."""
    named = list(dict.fromkeys((t, b, k) for t, b, k, _ in titles))
    if len(named) > 1:
        first, other = titles[0], next(t for t in titles if t[:3] != titles[0][:3])
        raise LogError(
            _(
                "two perftest runs in one log: {test} at line {line}, {other} at line {other_line}; save each run to "
                "its own file"
            ).format(test=f"{_shown(first)} Test", line=first[3], other=f"{_shown(other)} Test", other_line=other[3]),
            other[3],
        )
    if named:
        test, bidirectional, kind = named[0]
    elif command is not None:
        verb, binary_kind = command.removeprefix("ib_").split("_")
        test = next((t for t, v in PERFTEST_VERBS.items() if v == verb), verb.upper())
        bidirectional, kind = False, "BW" if binary_kind == "bw" else "Latency"
    else:
        test, bidirectional, kind = "", False, ""
    kinds = {"Latency" if unit == "usec" else "BW" for unit, _ in tables}
    if len(kinds) > 1 or (kind and kinds and kinds != {kind}):
        at = next(n for unit, n in tables if ("Latency" if unit == "usec" else "BW") != (kind or "BW"))
        raise LogError(_("a bandwidth table and a latency table in one log: two runs; save each to its own file"), at)
    return test, bidirectional, kind or (kinds.pop() if kinds else "BW")


def _shown(title: tuple[str, bool, str, int]) -> str:
    return f"{title[0]}{' Bidirectional' if title[1] else ''} {title[2]}"


def _unit(units: set[str], rows: list[IbRow], tables: list[tuple[str, int]]) -> str:
    """The unit of the rows: the one unit the table headers name; where a loopback file's two headers name two
    (the server prints the client's figures under its own unit), the one its message rate agrees with."""
    if len(units) == 1:
        return units.pop()
    fits = [unit for unit in sorted(units) if all(r.rate_agrees(unit) for r in rows if r.average and r.msg_rate)]
    if len(fits) != 1:
        lines = listed(_("{unit} at line {line}").format(unit=unit, line=n) for unit, n in tables)
        raise LogError(
            _("results tables in two units ({tables}) and figures that do not say which").format(tables=lines),
            tables[-1][1],
        )
    return fits[0]


def _bw_row(tokens: list[str], n: int, unit: str, extra: list[str]) -> IbRow:
    if len(tokens) != 5 + len(extra):
        raise LogError(
            _("{values} values for {columns} columns (a cut or garbled row)").format(
                values=len(tokens), columns=5 + len(extra)
            ),
            n,
        )
    size, iterations = _size(tokens, n)
    bw_min = next((5 + i for i, name in enumerate(extra) if name.startswith("BW min")), None)
    return IbRow(
        size,
        iterations,
        log_number(tokens[2], f"BW peak[{unit}]", n),
        log_number(tokens[3], f"BW average[{unit}]", n),
        log_number(tokens[4], "MsgRate[Mpps]", n),
        None if bw_min is None else log_number(tokens[bw_min], extra[bw_min - 5], n),
    )


def _lat_row(tokens: list[str], n: int, columns: list[str]) -> LatencyRow:
    if len(tokens) != 2 + len(columns):
        raise LogError(
            _("{values} values for {columns} columns (a cut or garbled row)").format(
                values=len(tokens), columns=2 + len(columns)
            ),
            n,
        )
    size, iterations = _size(tokens, n)
    fields = {_LAT_FIELDS[c]: log_number(v, c, n) for c, v in zip(columns, tokens[2:], strict=True) if c in _LAT_FIELDS}
    missing = [c for c in ("t_min", "t_max", "t_typical") if c not in fields]
    if missing:
        raise LogError(
            _("a latency table without {columns}: not one perftest prints").format(columns=listed(missing)), n
        )
    return LatencyRow(size, iterations, **fields)


def _size(tokens: list[str], n: int) -> tuple[int, int]:
    size = log_number(tokens[0], "#bytes", n)
    iterations = log_number(tokens[1], "#iterations", n)
    if size > 1 << 40 or iterations > 10**15 or size != int(size) or iterations != int(iterations):
        raise LogError(
            _("{size} bytes × {iterations} iterations: no run sends that").format(size=tokens[0], iterations=tokens[1]),
            n,
        )
    return int(size), int(iterations)
