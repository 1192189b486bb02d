"""``nvidia-smi``: ``--query-gpu=... --format=csv[,noheader][,nounits]``, ``-L`` and ``topo -m``."""

from __future__ import annotations

import re

from quotetui.domain.errors import BadInput
from quotetui.domain.numbers import parse_number
from quotetui.domain.verification.logs import ListedGpu, LogError, SmiGpu, SmiList, SmiQuery, Topology
from quotetui.io.benchlogs.common import output_lines
from quotetui.language import _
from quotetui.language.lists import listed, quoted
from quotetui.probe.gpu_probe import QUERY_FIELDS as PROBE_QUERY_FIELDS

QUERY_FIELDS = PROBE_QUERY_FIELDS
"""The query docs/VERIFICATION.md and the probe run (the probe holds the list: it must run alone on a trial
machine); a file without a header is read with these fields, in order."""

_NOT_AVAILABLE = {"[N/A]", "N/A", "[Not Supported]", "[Unknown Error]", "[Insufficient Permissions]", ""}
_UNIT = re.compile(r"\s*\[[^\]]*\]$")
_NUMBER = re.compile(r"^(-?\d+(?:\.\d+)?)(?:\s*[A-Za-z%]+)?$")


def _field(header: str) -> str:
    return _UNIT.sub("", header.strip()).strip().lower()


def _integer(value: str, field: str, line: int) -> int | None:
    if value in _NOT_AVAILABLE:
        return None
    found = _NUMBER.match(value)
    if not found:
        raise LogError(_("{what} is {value}, not a number").format(what=field, value=quoted(value)), line)
    try:
        return int(parse_number(found.group(1), what=field))
    except BadInput:
        raise LogError(_("{what} is {value}, not a number").format(what=field, value=quoted(value)), line) from None


def _text(values: dict[str, str], field: str) -> str | None:
    value = values.get(field, "")
    return None if value in _NOT_AVAILABLE else value


def parse_query(text: str) -> SmiQuery:
    rows = [(n, line.strip()) for n, line in output_lines(text)]
    if not rows:
        raise LogError(_("empty: no GPU rows"))
    first = [_field(cell) for cell in rows[0][1].split(",")]
    if "name" in first or "index" in first:
        fields, body = first, rows[1:]
    else:
        width = len(rows[0][1].split(", "))
        if width > len(QUERY_FIELDS) or width < 2:
            raise LogError(
                _("no header and {n} columns: run with the header (format=csv) or with the query {query}").format(
                    n=width, query=",".join(QUERY_FIELDS)
                ),
                rows[0][0],
            )
        fields, body = list(QUERY_FIELDS[:width]), rows
    if "name" not in fields:
        raise LogError(_("no name column: add name to --query-gpu"), rows[0][0])
    if not body:
        raise LogError(_("a header and no GPU rows"), rows[0][0])
    gpus: list[SmiGpu] = []
    _cut_last_row(text, body, len(fields))
    for n, line in body:
        cells = [cell.strip() for cell in line.split(", ")]
        if len(cells) != len(fields):
            raise LogError(
                _("{values} values for {columns} columns (a cut or garbled line)").format(
                    values=len(cells), columns=len(fields)
                ),
                n,
            )
        values = dict(zip(fields, cells, strict=True))
        name = values["name"]
        if name in _NOT_AVAILABLE or name.replace(".", "").isdigit():
            raise LogError(_("name is {name}, not a GPU name").format(name=quoted(name)), n)
        index = _integer(values.get("index", ""), "index", n)
        if index is not None and any(g.index == index for g in gpus):
            raise LogError(
                _("GPU index {index} listed twice: two listings in one file? import each alone").format(index=index), n
            )
        gpus.append(
            SmiGpu(
                name=name,
                index=index,
                memory_mib=_integer(values.get("memory.total", ""), "memory.total", n),
                uuid=_text(values, "uuid"),
                ecc_uncorrected=_integer(
                    values.get("ecc.errors.uncorrected.volatile.total", ""), "ecc.errors.uncorrected", n
                ),
                mig_mode=_text(values, "mig.mode.current"),
                fields=tuple(values.items()),
            )
        )
    return SmiQuery(tuple(gpus))


def _cut_last_row(text: str, body: list[tuple[int, str]], width: int) -> None:
    """nvidia-smi ends every row with a line end: a last row without one, whose last value is shorter than that
    column in every row above (``81559 MiB`` cut to ``815``), is a file cut mid-row, not a GPU."""
    if text.endswith(("\n", "\r")) or len(body) < 2:
        return
    n, line = body[-1]
    last = line.split(", ")[-1].strip()
    above = [row.split(", ") for _, row in body[:-1]]
    lengths = [len(cells[-1].strip()) for cells in above if len(cells) == width]
    if lengths and len(line.split(", ")) == width and len(last) < min(lengths):
        raise LogError(
            _(
                "the last row ends without a line end and its last value {value} is shorter than in every row above: "
                "the file was cut mid-row"
            ).format(value=quoted(last)),
            n,
        )


_GPU_LINE = re.compile(r"^GPU (\d+): (.+?) \(UUID: ([^)]+)\)$")
_MIG_LINE = re.compile(r"^\s+MIG (\S+)\s+Device\s+\d+: \(UUID: ([^)]+)\)$")


def parse_list(text: str) -> SmiList:
    gpus: list[ListedGpu] = []
    for n, line in output_lines(text):
        line = line.rstrip()
        if found := _GPU_LINE.match(line):
            gpus.append(ListedGpu(int(found.group(1)), found.group(2).strip(), found.group(3)))
        elif (mig := _MIG_LINE.match(line)) and gpus:
            parent = gpus[-1]
            gpus[-1] = ListedGpu(parent.index, parent.name, parent.uuid, (*parent.mig_profiles, mig.group(1)))
        else:
            raise LogError(
                _("not a GPU or MIG line of nvidia-smi -L: {line}").format(line=quoted(line.strip()[:80])), n
            )
    if not gpus:
        raise LogError(_("no GPU lines"))
    return SmiList(tuple(gpus))


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_GPU_LABEL = re.compile(r"^GPU\d+$")
_LINK = re.compile(r"^(NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$")


def parse_topology(text: str) -> Topology:
    """Reads the GPU columns of the matrix (they come first, tab- or space-separated); the NIC and
    affinity columns and the legend, whose wording varies by driver, are left alone."""
    lines = _ANSI.sub("", text).splitlines()
    header_at = next((i for i, line in enumerate(lines) if "GPU0" in line.split() and "X" not in line.split()), None)
    if header_at is None:
        raise LogError(_("no matrix header with GPU0"))
    gpus = tuple(t for t in lines[header_at].split() if _GPU_LABEL.match(t))
    seen: dict[str, dict[str, str]] = {}
    for n, line in enumerate(lines[header_at + 1 :], header_at + 2):
        cells = line.split()
        if not cells or not _GPU_LABEL.match(cells[0]):
            break
        row, values = cells[0], cells[1 : 1 + len(gpus)]
        if row not in gpus:
            raise LogError(
                _("row {row} is not one of the header's columns {columns}").format(row=row, columns=" ".join(gpus)), n
            )
        if len(values) < len(gpus):
            raise LogError(
                _("{row} has {cells} cells for {gpus} GPU columns (a cut line)").format(
                    row=row, cells=len(values), gpus=len(gpus)
                ),
                n,
            )
        links = {}
        for col, kind in zip(gpus, values, strict=True):
            if col == row:
                if kind != "X":
                    raise LogError(_("{row} to itself is {link}, not X").format(row=row, link=quoted(kind)), n)
            elif not _LINK.match(kind):
                raise LogError(
                    _("{row} to {column} is {link}, not NV# or a PCIe path (PIX PXB PHB NODE SYS)").format(
                        row=row, column=col, link=quoted(kind)
                    ),
                    n,
                )
            else:
                links[col] = kind
        seen[row] = links
    missing = [g for g in gpus if g not in seen]
    if missing:
        raise LogError(_("the matrix has no row for {gpus} (cut short?)").format(gpus=listed(missing)), len(lines))
    pairs = tuple((a, b, seen[a][b]) for i, a in enumerate(gpus) for b in gpus[i + 1 :])
    return Topology(gpus, pairs)
