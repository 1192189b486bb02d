"""nccl-tests (and rccl-tests): the text report of any collective (current and older column layouts, MPI chatter
interleaved) and ``all_reduce_perf``'s ``-J`` JSON file. The collective is read from the log itself (its marker
line, its binary, else its rows): a run of another collective is stored under its own name, never as AllReduce
evidence."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from quotetui.domain.entities import MAX_COUNT
from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.collectives import KINDS, busbw_factors, kind
from quotetui.domain.verification.logs import AllReduce, AllReduceRow, Collective, LogError
from quotetui.io.benchlogs.common import load_json, log_number, shown
from quotetui.io.benchlogs.nccl_shape import Shape, contradiction, scaled, unnamed
from quotetui.language import _, ngettext
from quotetui.language.lists import quoted

_RANK = re.compile(
    r"^#\s+Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s+\[[^\]]*\](?:\s+(.+?))?\s*$"
)
_THREADS = re.compile(r"nThread\s+(\d+)\s+nGpus\s+(\d+)")
_FAILURE = re.compile(r"\bTest (?:(?:CUDA|NCCL|HIP|RCCL) )?failure\b.*")
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
        raise LogError(_("{what} is {value}: more than any machine has").format(what=what, value=shown(token)), line)
    return int(value)


def _within(count: int) -> None:
    if count > MAX_COUNT:
        raise LogError(
            _("{n} GPUs: more than the {most} a benchmark result may name").format(
                n=f"{count:,}", most=f"{MAX_COUNT:,}"
            )
        )


def _wrong(token: str, line: int) -> int:
    return 0 if token == "N/A" else int(log_number(token, "#wrong", line))


def collective(text: str) -> tuple[str | None, int | None]:
    """The collective the log's run measures (``all_reduce``, ``all_gather`` …) and the line that says so: its
    ``# Collective test starting:`` marker, or the nccl-tests binary its lines name; None when none says (older
    logs without a command line). A log that names two collectives (a marker and a command line that disagree, two
    runs' commands, a note naming another binary) is refused: which one its rows are cannot be taken on trust."""
    named: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if found := _STARTING.match(line.strip()):
            binary = _BINARY.search(found.group(1))
            named.setdefault(binary.group(1) if binary else found.group(1), n)
        for found in _BINARY.finditer(line):
            named.setdefault(found.group(1), n)
    if len(named) > 1:
        (a, at), (b, bt) = list(named.items())[:2]
        raise LogError(
            _(
                "names two collectives: {binary} at line {line} and {other} at line {other_line}; import one run per "
                "file, without notes naming another test"
            ).format(binary=f"{a}_perf", line=at, other=f"{b}_perf", other_line=bt),
            bt,
        )
    return next(iter(named.items())) if named else (None, None)


def _suite(text: str) -> str:
    return "rccl-tests" if re.search(r"\brccl\b|RCCL version|rccl-tests", text, re.I) else "nccl-tests"


def parse_text(text: str) -> AllReduce | Collective:
    """An nccl-tests (or rccl-tests) run of any collective; an AllReduce only where the log says so or its rows
    can be nothing else (``_unnamed``)."""
    name, where = collective(text)
    ranks: dict[int, tuple[str, str]] = {}
    threads = None
    columns: list[str] | None = None
    rows: list[AllReduceRow] = []
    shapes: list[Shape] = []
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
            avg = log_number(found.group(1), _("the average bus bandwidth"), n)
        elif line.startswith("#") and "busbw" in line and "size" in line:
            if rows:
                raise LogError(
                    _("a second column header after result rows: two runs in one file? import each alone"), n
                )
            columns = line.lstrip("#").split()
            if "type" not in columns:
                said = (
                    _(
                        "an mscclpp-test run (MSCCL++) with no type or redop columns (size count time algbw busbw …): "
                        "not nccl-tests' layout, and quotetui reads only nccl-tests' and rccl-tests' own"
                    )
                    if "MSCCL++" in text
                    else _(
                        "a table with no type or redop columns (size count time algbw busbw …): not nccl-tests' "
                        "layout, and quotetui reads only nccl-tests' and rccl-tests' own"
                    )
                )
                raise LogError(said, n)
        elif _DATA.match(line):
            if columns is None:
                raise LogError(_("a result row before the column header"), n)
            if avg is not None:
                raise LogError(
                    _(
                        "a result row after the run's '# Avg bus bandwidth' line: two runs in one file? import each "
                        "alone"
                    ),
                    n,
                )
            tokens = line.split()
            if "redop" in columns and len(tokens) == len(columns) - 1 and tokens[columns.index("redop")] not in _OPS:
                tokens.insert(columns.index("redop"), "")  # older alltoall: a redop column, its cell left blank
            rows.append(_row(tokens, columns, n))
            shapes.append(_shape(tokens, columns, n))
        elif (failed := _FAILURE.search(line)) and aborted is None and avg is None:
            aborted = (failed.group(0), n)  # before the average line: the run stopped there
        elif _ROW_SHAPE.match(line):
            raise LogError(
                _("a result row whose size or count is not a whole number: {line}").format(
                    line=quoted(line.strip()[:80])
                ),
                n,
            )
        # anything else is a comment or MPI / NCCL chatter interleaved with the report
    if aborted is not None and avg is None:
        binary = f"{name}_perf" if name else _("the test")
        said = (
            ngettext(
                "{binary} aborted after {n} result row: {failure}",
                "{binary} aborted after {n} result rows: {failure}",
                len(rows),
            )
            if rows
            else _("{binary} aborted before any result: {failure}")
        )
        raise LogError(said.format(binary=binary, n=f"{len(rows):,}", failure=aborted[0].strip()), aborted[1])
    if columns is None:
        raise LogError(_("no column header (# size count type ... busbw)"))
    if not rows:
        raise LogError(_("a header and no result rows (cut short?)"), len(lines))
    if avg is None:
        raise LogError(_("no '# Avg bus bandwidth' line: the run did not finish (cut short?)"), len(lines))
    count = len(ranks) or threads or 0
    if count < 1:
        raise LogError(_("no '# Rank' lines and no nThread/nGpus header: the number of GPUs is unknown"))
    _within(count)
    listed = len(ranks) or None
    name = _checked(name, shapes, columns, listed, where)
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


def _checked(name: str | None, shapes: list[Shape], columns: list[str], ranks: int | None, where: int | None) -> str:
    """The collective the rows are: the one the log names, unless its rows contradict it (refused), else the one
    the rows leave (``nccl_shape.unnamed``)."""
    if name is None:
        return unnamed(shapes, columns, ranks, shapes[-1].line if shapes else None)
    for shape in shapes:
        if why := contradiction(name, shape, ranks, with_factor=False):
            raise LogError(
                _("the log says {binary} (line {line}), but {why}").format(binary=f"{name}_perf", line=where, why=why),
                shape.line,
            )
    off = next((s for s in shapes if scaled(name, s, ranks)), None)
    if off is not None:  # another collective's rows under this name, or a figure edited by hand (a finding)
        other = [  # only collectives whose rows can be recognised: a known factor
            c
            for c in KINDS
            if c != name and ranks and busbw_factors(c, ranks) and not any(contradiction(c, s, ranks) for s in shapes)
        ]
        if other:
            raise LogError(
                _("the log says {binary} (line {line}), but its rows are {collective}'s: {why}").format(
                    binary=f"{name}_perf", line=where, collective=kind(other[0]).title, why=scaled(name, off, ranks)
                ),
                off.line,
            )
    return name


def _shape(tokens: list[str], columns: list[str], n: int) -> Shape:
    cell = dict(zip(columns, tokens, strict=False))
    algbw = [i for i, c in enumerate(columns) if c == "algbw"]
    busbw = [i for i, c in enumerate(columns) if c == "busbw"]
    count = cell.get("count", "")
    pairs = tuple(
        (log_number(tokens[a], "algbw", n), log_number(tokens[b], "busbw", n))
        for a, b in zip(algbw, busbw, strict=False)
    )
    return Shape(
        _("line {n}").format(n=n),
        int(log_number(tokens[0], "size", n)),
        int(count) if count.isdigit() else None,
        cell.get("type", ""),
        cell.get("redop"),
        cell.get("root"),
        pairs,
        n,
    )


def _row(tokens: list[str], columns: list[str], n: int) -> AllReduceRow:
    if len(tokens) != len(columns):
        raise LogError(
            _("{values} values for {columns} columns (a cut or garbled row)").format(
                values=len(tokens), columns=len(columns)
            ),
            n,
        )
    bus = [i for i, c in enumerate(columns) if c == "busbw"]
    wrong = [i for i, c in enumerate(columns) if c in ("#wrong", "error")]
    if not bus or len(bus) != len(wrong):
        raise LogError(_("unexpected columns: {columns}").format(columns=" ".join(columns)), n)
    alg = [i for i, c in enumerate(columns) if c == "algbw"]
    size = int(log_number(tokens[0], "size", n))
    out_bw = log_number(tokens[bus[0]], "busbw", n)
    in_bw = log_number(tokens[bus[1]], "busbw", n) if len(bus) > 1 else None
    out_alg = log_number(tokens[alg[0]], "algbw", n) if alg else None
    in_alg = log_number(tokens[alg[1]], "algbw", n) if len(alg) > 1 else None
    return AllReduceRow(size, out_bw, in_bw, sum(_wrong(tokens[i], n) for i in wrong), out_alg, in_alg)


def parse_json(text: str) -> AllReduce | Collective:
    """nccl-tests' ``-J`` file: its ``args`` name the binary (and so the collective), its results carry each row's
    op, root, count, algbw and busbw, read and cross-checked as the text report's are."""
    data = load_json(text)
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list) or not results:
        raise LogError(_("no results list: not an nccl-tests -J file, or cut short"))
    config = data.get("config") if isinstance(data.get("config"), dict) else {}
    devices = [d for d in config.get("devices", []) if isinstance(d, dict)]
    rows = [_json_row(r, i) for i, r in enumerate(results, 1)]
    shapes = [_json_shape(r, i) for i, r in enumerate(results, 1)]
    args = data.get("args") if isinstance(data.get("args"), list) else []
    name, _line = collective("\n".join(str(a) for a in args[:1]))
    threads = _json_number(config.get("nthreads", 1), "config nthreads")
    count = len(devices) or int(threads * _json_number(config.get("ngpus", 0), "config ngpus"))
    if count < 1:
        raise LogError(_("the config names no devices and no ngpus: the number of GPUs is unknown"))
    _within(count)
    avg = next((v for k, v in data.items() if "avg" in k.lower() or "average" in k.lower()), None)
    name = _checked(name, shapes, ["size", "count", "type", "redop", "root"], len(devices) or count, 1)
    run = (
        count,
        tuple(str(device) for d in devices if (device := d.get("name") or d.get("device_name"))),
        tuple(dict.fromkeys(str(d["hostname"]) for d in devices if d.get("hostname"))),
        tuple(rows),
        avg if isinstance(avg, Decimal) else None,
        "json",
        bool(devices),
    )
    suite = _suite(" ".join(str(a) for a in args[:1]))
    return AllReduce(*run, suite=suite) if name == "all_reduce" else Collective(*run, name=name, suite=suite)


def _json_shape(r: dict[str, Any], i: int) -> Shape:
    out, inplace = r["out_of_place"], r.get("in_place") if isinstance(r.get("in_place"), dict) else {}
    pairs = tuple(
        (_json_number(part.get("alg_bw", 0), _of(i, "alg_bw")), _json_number(part.get("bus_bw", 0), "bus_bw"))
        for part in (out, inplace)
        if part
    )
    count = r.get("count")
    return Shape(
        _("result {n}").format(n=i),
        int(_json_number(r.get("size"), _of(i, "size"))),
        int(count) if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else None,
        str(r.get("type", "")),
        str(r["redop"]) if "redop" in r else None,
        str(r["root"]) if "root" in r else None,
        pairs,
    )


def _json_row(r: object, i: int) -> AllReduceRow:
    if not isinstance(r, dict) or not isinstance(r.get("out_of_place"), dict):
        raise LogError(_("result {n} has no out_of_place figures").format(n=i))
    out, inplace = r["out_of_place"], r.get("in_place") if isinstance(r.get("in_place"), dict) else None
    wrong = _json_number(out.get("nwrong", 0), _of(i, "nwrong"))
    if inplace is not None:
        wrong += _json_number(inplace.get("nwrong", 0), _in_place(i, "nwrong"))
    return AllReduceRow(
        int(_json_number(r.get("size"), _of(i, "size"))),
        _json_number(out.get("bus_bw"), _of(i, "bus_bw")),
        _json_number(inplace.get("bus_bw"), _in_place(i, "bus_bw")) if inplace is not None else None,
        int(wrong),
        _json_number(out["alg_bw"], _of(i, "alg_bw")) if "alg_bw" in out else None,
        _json_number(inplace["alg_bw"], _in_place(i, "alg_bw")) if inplace and "alg_bw" in inplace else None,
    )


def _of(i: int, key: str) -> str:
    """A figure of result ``i`` of a ``-J`` file, as a problem names it (``result 3 bus_bw``)."""
    return _("result {n} {key}").format(n=i, key=key)


def _in_place(i: int, key: str) -> str:
    return _("result {n} in-place {key}").format(n=i, key=key)


def _json_number(value: Any, what: str) -> Decimal:
    said = shown(str(value)) if isinstance(value, (int, Decimal)) else shown(repr(value))
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise LogError(_("{what} is {value}, not a number").format(what=what, value=said))
    try:
        number = parse_number(value, what=what)
    except BadInput:
        raise LogError(_("{what} is {value}, not a number").format(what=what, value=said)) from None
    if number < 0:
        raise LogError(_("{what} is {value}").format(what=what, value=said))
    return number
