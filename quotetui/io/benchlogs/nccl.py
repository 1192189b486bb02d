"""nccl-tests (and rccl-tests): the text report of any collective (current and older column layouts, MPI chatter
interleaved) and ``all_reduce_perf``'s ``-J`` JSON file. The collective is read from the log itself (its marker
line, its binary, else its rows): a run of another collective is stored under its own name, never as AllReduce
evidence."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.logs import AllReduce, AllReduceRow, Collective, LogError
from quotetui.io.benchlogs.common import log_number, shown

_RANK = re.compile(
    r"^#\s+Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\](?:\s+(.+?))?\s*$"
)
_THREADS = re.compile(r"nThread\s+(\d+)\s+nGpus\s+(\d+)")
_FAILURE = re.compile(r"\bTest (?:CUDA|NCCL|HIP|RCCL) failure\b.*")
"""nccl-tests' (rccl-tests') abort: ``Test CUDA failure common.cu:1304 'system not yet initialized'``."""
_OPS = frozenset({"sum", "prod", "max", "min", "avg", "none", "mulsum"})
_AVG = re.compile(r"^#\s*Avg bus bandwidth\s*:\s*(\S+)")
_DATA = re.compile(r"^\s*\d+\s+\d+\s")
_STARTING = re.compile(r"^#\s*Collective test starting:\s*(\S+)")
_BINARY = re.compile(
    r"\b(all_reduce|all_gather|reduce_scatter|broadcast|reduce|alltoall|sendrecv|hypercube|gather|scatter)_perf"
    r"(?:_mpi)?\b"
)
"""nccl-tests' (and rccl-tests') binaries: the collective a run measures is read from its own marker line, else
from the binary its command line names."""
_ROW_SHAPE = re.compile(
    r"^\s*\S+\s+\S+\s+(?:float|half|bfloat16|double|u?int(?:8|32|64)|f8e4m3|f8e5m2)\s+(?:sum|prod|max|min|avg|none)\s"
)
"""A result row by its type and op columns: one whose size or count is not a whole number is garbled, not chatter."""


def _count(token: str, what: str, line: int) -> int:
    value = log_number(token, what, line)
    if value > MAX_COUNT:
        raise LogError(f"{what} is {shown(token)}: more than any machine has", line)
    return int(value)


def _within(count: int) -> None:
    if count > MAX_COUNT:
        raise LogError(f"{count:,} GPUs: more than the {MAX_COUNT:,} a benchmark result may name")


def _wrong(token: str, line: int) -> int:
    return 0 if token == "N/A" else int(log_number(token, "#wrong", line))


def collective(text: str) -> tuple[str | None, int | None]:
    """The collective the log's run measures (``all_reduce``, ``all_gather`` …) and the line that says so: its
    ``# Collective test starting:`` marker, else the one nccl-tests binary its lines name; None when neither
    says (older logs without a command line)."""
    named: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if found := _STARTING.match(line.strip()):
            binary = _BINARY.search(found.group(1))
            return (binary.group(1) if binary else found.group(1)), n
        for found in _BINARY.finditer(line):
            named.setdefault(found.group(1), n)
    return next(iter(named.items())) if len(named) == 1 else (None, None)


_TYPE_BYTES = {"float": 4, "half": 2, "bfloat16": 2, "double": 8, "int8": 1, "uint8": 1, "int32": 4, "uint32": 4,
               "int64": 8, "uint64": 8, "f8e4m3": 1, "f8e5m2": 1}  # fmt: skip
"""Bytes per element of nccl-tests' types: its ``size`` column is ``count`` × these for AllReduce and × the ranks too
for AllGather and ReduceScatter (``count`` is one rank's share there)."""


def _unnamed(row: list[str], columns: list[str], ranks: int, n: int) -> str:
    """The collective of a log that names none (older logs, a paste without its command line), from its columns and
    its last row. Older nccl-tests print only the columns a collective has: no ``redop`` and no ``root`` is
    AllGather, ``root`` alone Broadcast, ``redop`` and ``root`` Reduce, a ``redop`` left blank AlltoAll. Otherwise a
    root of 0 or more is Reduce (with an op) or Broadcast (none); with root -1, ``size`` = ``count`` × type is
    AllReduce (SendRecv without an op), × the ranks ReduceScatter. AllGather and AlltoAll print the same rows in
    the current layout, so such a run is refused."""
    cell = dict(zip(columns, row, strict=False))
    op, root = cell.get("redop"), cell.get("root", "-1")
    if op is None:
        return "all_gather" if "root" not in columns else "broadcast"
    if op == "":
        return "alltoall"
    if root != "-1":
        return "broadcast" if op == "none" else "reduce"
    element = _TYPE_BYTES.get(cell.get("type", ""))
    size, count = cell.get("size", ""), cell.get("count", "")
    per_rank = (
        element and count.isdigit() and int(count) > 0 and ranks > 1 and size == str(int(count) * element * ranks)
    )
    if op != "none":
        return "reduce_scatter" if per_rank else "all_reduce"
    if element and count.isdigit() and int(count) > 0 and size == str(int(count) * element):
        return "sendrecv"
    raise LogError(
        "a run with no reduction (redop none) that names no collective (no '# Collective test starting' line "
        "and no binary in a command line): AllGather or AlltoAll, never AllReduce evidence; import the run with "
        "its command line or its marker lines",
        n,
    )


def _suite(text: str) -> str:
    return "rccl-tests" if re.search(r"\brccl\b|RCCL version|rccl-tests", text, re.I) else "nccl-tests"


def parse_text(text: str) -> AllReduce | Collective:
    """An nccl-tests (or rccl-tests) run of any collective; an AllReduce only where the log says so or its rows
    can be nothing else (``_unnamed``)."""
    name, _ = collective(text)
    ranks: dict[int, tuple[str, str]] = {}
    threads = None
    columns: list[str] | None = None
    rows: list[AllReduceRow] = []
    last: tuple[list[str], int] | None = None
    aborted: tuple[str, int] | None = None
    avg: Decimal | None = None
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if found := _RANK.match(line):
            ranks[_count(found.group(1), "rank", n)] = (found.group(2), found.group(3) or "")  # rccl: may name none
        elif found := _THREADS.search(line):
            threads = _count(found.group(1), "nThread", n) * _count(found.group(2), "nGpus", n)
        elif found := _AVG.match(line):
            avg = log_number(found.group(1), "the average bus bandwidth", n)
        elif line.startswith("#") and "busbw" in line and "size" in line:
            if rows:
                raise LogError("a second column header after result rows: two runs in one file? import each alone", n)
            columns = line.lstrip("#").split()
            if "type" not in columns:
                tool = "an mscclpp-test run (MSCCL++)" if "MSCCL++" in text else "a table"
                raise LogError(
                    f"{tool} with no type or redop columns (size count time algbw busbw …): not nccl-tests' layout, "
                    "and quotetui reads only nccl-tests' and rccl-tests' own",
                    n,
                )
        elif _DATA.match(line):
            if columns is None:
                raise LogError("a result row before the column header", n)
            if avg is not None:
                raise LogError(
                    "a result row after the run's '# Avg bus bandwidth' line: two runs in one file? import each alone",
                    n,
                )
            tokens = line.split()
            if "redop" in columns and len(tokens) == len(columns) - 1 and tokens[columns.index("redop")] not in _OPS:
                tokens.insert(columns.index("redop"), "")  # older alltoall: a redop column, its cell left blank
            last = (tokens, n)
            rows.append(_row(tokens, columns, n))
        elif (failed := _FAILURE.search(line)) and not rows and aborted is None:
            aborted = (failed.group(0), n)
        elif _ROW_SHAPE.match(line):
            raise LogError(f"a result row whose size or count is not a whole number: {line.strip()[:80]!r}", n)
        # anything else is a comment or MPI / NCCL chatter interleaved with the report
    if aborted is not None and not rows:
        binary = f"{name}_perf" if name else "the test"
        raise LogError(f"{binary} aborted before any result: {aborted[0].strip()}", aborted[1])
    if columns is None:
        raise LogError("no column header (# size count type ... busbw)")
    if not rows or last is None:
        raise LogError("a header and no result rows (cut short?)", len(lines))
    if avg is None:
        raise LogError("no '# Avg bus bandwidth' line: the run did not finish (cut short?)", len(lines))
    count = len(ranks) or threads or 0
    if count < 1:
        raise LogError("no '# Rank' lines and no nThread/nGpus header: the number of GPUs is unknown")
    _within(count)
    name = name or _unnamed(last[0], columns, count, last[1])
    run = (
        count,
        tuple(device for r in sorted(ranks) if (device := ranks[r][1])),
        tuple(dict.fromkeys(ranks[r][0] for r in sorted(ranks))),
        tuple(rows),
        avg,
        "current" if "root" in columns else "legacy",
        bool(ranks),
    )
    if name == "all_reduce":
        return AllReduce(*run, suite=_suite(text))
    return Collective(*run, name=name, suite=_suite(text))


def _row(tokens: list[str], columns: list[str], n: int) -> AllReduceRow:
    if len(tokens) != len(columns):
        raise LogError(f"{len(tokens)} values for {len(columns)} columns (a cut or garbled row)", n)
    bus = [i for i, c in enumerate(columns) if c == "busbw"]
    wrong = [i for i, c in enumerate(columns) if c in ("#wrong", "error")]
    if not bus or len(bus) != len(wrong):
        raise LogError(f"unexpected columns: {' '.join(columns)}", n)
    size = int(log_number(tokens[0], "size", n))
    out_bw = log_number(tokens[bus[0]], "busbw", n)
    in_bw = log_number(tokens[bus[1]], "busbw", n) if len(bus) > 1 else None
    return AllReduceRow(size, out_bw, in_bw, sum(_wrong(tokens[i], n) for i in wrong))


def parse_json(text: str) -> AllReduce:
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise LogError(f"not valid JSON: {exc.msg}", exc.lineno) from exc
    except ValueError as exc:  # an integer of thousands of digits: no machine wrote it
        raise LogError(f"not a log a machine wrote: {exc}".split(";")[0]) from None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list) or not results:
        raise LogError("no results list: not an nccl-tests -J file, or cut short")
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    devices = [d for d in config.get("devices", []) if isinstance(d, dict)]
    rows = [_json_row(r, i) for i, r in enumerate(results, 1)]
    threads = _json_number(config.get("nthreads", 1), "config nthreads")
    count = len(devices) or int(threads * _json_number(config.get("ngpus", 0), "config ngpus"))
    if count < 1:
        raise LogError("the config names no devices and no ngpus: the number of GPUs is unknown")
    _within(count)
    avg = next((v for k, v in data.items() if "avg" in k.lower() or "average" in k.lower()), None)
    return AllReduce(
        count,
        tuple(str(name) for d in devices if (name := d.get("name") or d.get("device_name"))),
        tuple(dict.fromkeys(str(d["hostname"]) for d in devices if d.get("hostname"))),
        tuple(rows),
        avg if isinstance(avg, Decimal) else None,
        "json",
        bool(devices),
    )


def _json_row(r: object, i: int) -> AllReduceRow:
    if not isinstance(r, dict) or not isinstance(r.get("out_of_place"), dict):
        raise LogError(f"result {i} has no out_of_place figures")
    out, inplace = r["out_of_place"], r.get("in_place") if isinstance(r.get("in_place"), dict) else None
    wrong = _json_number(out.get("nwrong", 0), f"result {i} nwrong")
    if inplace is not None:
        wrong += _json_number(inplace.get("nwrong", 0), f"result {i} in-place nwrong")
    return AllReduceRow(
        int(_json_number(r.get("size"), f"result {i} size")),
        _json_number(out.get("bus_bw"), f"result {i} bus_bw"),
        _json_number(inplace.get("bus_bw"), f"result {i} in-place bus_bw") if inplace is not None else None,
        int(wrong),
    )


def _json_number(value: Any, what: str) -> Decimal:
    said = shown(str(value)) if isinstance(value, (int, Decimal)) else shown(repr(value))
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise LogError(f"{what} is {said}, not a number")
    try:
        number = parse_number(value, what=what)
    except BadInput:
        raise LogError(f"{what} is {said}, not a number") from None
    if number < 0:
        raise LogError(f"{what} is {said}")
    return number
