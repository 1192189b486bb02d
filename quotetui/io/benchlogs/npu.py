"""``npu-smi info``: the table Huawei's tool prints for Ascend NPUs (what ``nvidia-smi`` is to NVIDIA GPUs).

Each chip takes two rows under the header: ``| 0     910B3 | OK | 102.8  55  0 / 0 |`` (NPU, name | health |
power, temperature, hugepages) then ``| 0 | 0000:C1:00.0 | 0  0 / 0  3338 / 65536 |`` (chip | Bus-Id | AICore %,
memory, HBM used / total in MB). A 910B NPU has one chip; a 910C (Atlas A3, ``Chip  Phy-ID`` header) lists two
pairs under the same NPU number, the second one's power ``-``. The processes table that follows is not read. A
table cut short, or a row cut or garbled, is refused with its line: a half-read table would undercount NPUs.
"""

from __future__ import annotations

import re
from decimal import Decimal

from quotetui.domain.verification.logs import LogError, Npu, NpuChip, NpuSmi
from quotetui.io.benchlogs.common import is_prompt
from quotetui.language import _
from quotetui.language.lists import quoted

START = re.compile(r"^\|\s*npu-smi\s+\S+\s+Version:|^\|\s*NPU\s+Name\s*\|\s*Health\s*\|", re.M)
"""The line npu-smi info is known by: its banner (``| npu-smi 23.0.rc2  Version: 23.0.rc2 |``), or the header
row a paste without the banner starts with (``| NPU   Name  | Health  | …``)."""

_BANNER = re.compile(r"^\|\s*npu-smi\s+(\S+)\s+Version:")
_HEADER = re.compile(r"^\|\s*NPU\s+Name\s*\|\s*Health\s*\|")
_CHIP_HEADER = re.compile(r"^\|\s*Chip\b")
_PROCESSES = re.compile(r"^\|\s*NPU\s+Chip\s*\|\s*Process id\s*\|", re.I)
_BORDER = re.compile(r"^\+[-=+]+\+$")
_NPU = re.compile(r"^(\d+)\s+([A-Za-z0-9][\w.-]*)$")  # "0     910B3"
_CHIP = re.compile(r"^(\d+)(?:\s+(\d+))?$")  # "0", or "1     1" (chip and Phy-ID, or chip and device)
_HEALTH = re.compile(r"^[A-Za-z][A-Za-z ]*$")
_BUS_ID = re.compile(r"^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]$")
_STATUS = re.compile(r"^(\S+)\s+(\S+)\s+\d+\s*/\s*\d+$")  # power, temperature, hugepages used / total
_USAGE = re.compile(r"^(\S+)\s+(\d+)\s*/\s*(\d+)(?:\s+(\d+)\s*/\s*(\d+))?$")  # AICore, memory [, HBM]
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_NOT_SHOWN = {"-", "NA", "N/A"}
_ELIDED = {"...", "…"}


def matches(text: str) -> bool:
    return bool(START.search(text))


def _figure(text: str, what: str, line: int) -> Decimal | None:
    if text in _NOT_SHOWN:
        return None
    if not _NUMBER.match(text):
        raise LogError(_("{what} is {value}, not a number").format(what=what, value=quoted(text)), line)
    return Decimal(text)


def _whole(text: str, what: str, line: int) -> int | None:
    value = _figure(text, what, line)
    if value is not None and value != value.to_integral_value():
        raise LogError(_("{what} is {value}, not a whole number").format(what=what, value=quoted(text)), line)
    return None if value is None else int(value)


def _cells(line: str, n: int) -> list[str]:
    if not line.endswith("|"):
        raise LogError(_("a row cut short (no closing '|'): {line}").format(line=quoted(line[:80])), n)
    return [cell.strip() for cell in line[1:-1].split("|")]


def parse(text: str) -> NpuSmi:
    lines = [line.strip() for line in text.splitlines()]
    at = next((i for i, line in enumerate(lines) if line.startswith(("+", "|"))), None)
    if at is None:
        raise LogError(_("no npu-smi table (its lines start with '+' or '|')"))
    end = at
    while end < len(lines) and (lines[end].startswith(("+", "|")) or lines[end] in _ELIDED):
        end += 1
    for n, line in enumerate(lines[end:], end + 1):
        if line and not is_prompt(line):
            raise LogError(_("not a line of npu-smi info's table: {line}").format(line=quoted(line[:80])), n)
    table = [(n, line) for n, line in enumerate(lines[at:end], at + 1) if line not in _ELIDED]
    elided = len(table) < end - at  # whoever pasted it cut NPU rows and wrote "..." in their place
    version = next((found.group(1) for _, line in table if (found := _BANNER.match(line))), None)
    head = next((i for i, (_, line) in enumerate(table) if _HEADER.match(line)), None)
    if head is None:
        raise LogError(_("no 'NPU  Name | Health' header row: not npu-smi info's table"), table[0][0])
    if head + 1 >= len(table) or not _CHIP_HEADER.match(table[head + 1][1]):
        raise LogError(_("the header's second row ('Chip | Bus-Id | …') is missing"), table[head][0])
    chip_header = table[head + 1][1]
    has_hbm, has_phy_id = "HBM-Usage" in chip_header, "Phy-ID" in chip_header
    npus: list[Npu] = []
    pending: tuple[int, int, str, str, Decimal | None, int | None] | None = None  # line, NPU, name, health …
    in_processes = False
    for n, line in table[head + 2 :]:
        if _BORDER.match(line):
            if pending is not None:
                raise LogError(
                    _("NPU {index} {name}: its chip row (Bus-Id, HBM) is missing").format(
                        index=pending[1], name=pending[2]
                    ),
                    pending[0],
                )
            continue
        if in_processes or _PROCESSES.match(line):
            in_processes = True  # the processes table: only checked for a cut row
            _cells(line, n)
            continue
        cells = _cells(line, n)
        if pending is None:
            npu = _NPU.match(cells[0]) if len(cells) == 3 else None
            status = _STATUS.match(cells[2]) if npu else None
            if not npu or not status or not _HEALTH.match(cells[1]) or not re.search("[A-Za-z]", npu.group(2)):
                raise LogError(
                    _("not an NPU row (NPU  Name | Health | Power  Temp …): {line}").format(line=quoted(line[:80])), n
                )
            power = _figure(status.group(1), "Power(W)", n)
            pending = (n, int(npu.group(1)), npu.group(2), cells[1], power, _whole(status.group(2), "Temp(C)", n))
            continue
        row_n, index, name, health, power, temp = pending
        chip = _CHIP.match(cells[0]) if len(cells) == 3 else None
        usage = _USAGE.match(cells[2]) if chip else None
        if not chip or not usage or not _BUS_ID.match(cells[1]) or (has_hbm and usage.group(4) is None):
            raise LogError(
                _("not the chip row of NPU {index} (Chip | Bus-Id | AICore  Memory  HBM): {line}").format(
                    index=index, line=quoted(line[:80])
                ),
                n,
            )
        found = NpuChip(
            chip=int(chip.group(1)),
            health=health,
            bus_id=cells[1],
            power_w=power,
            temp_c=temp,
            aicore_pct=_whole(usage.group(1), "AICore(%)", n),
            hbm_used_mib=int(usage.group(4)) if has_hbm else None,
            hbm_total_mib=int(usage.group(5)) if has_hbm else None,
            phy_id=int(chip.group(2)) if has_phy_id and chip.group(2) is not None else None,
        )
        pending = None
        if npus and npus[-1].index == index:
            last = npus[-1]
            if last.name != name:
                raise LogError(
                    _("NPU {index} is named {name} and {other}").format(index=index, name=last.name, other=name), row_n
                )
            npus[-1] = Npu(index, name, (*last.chips, found))
        elif any(p.index == index for p in npus):
            raise LogError(_("NPU {index} is listed twice").format(index=index), row_n)
        else:
            npus.append(Npu(index, name, (found,)))
    if pending is not None:
        raise LogError(
            _("NPU {index} {name}: its chip row (Bus-Id, HBM) is missing (cut short?)").format(
                index=pending[1], name=pending[2]
            ),
            pending[0],
        )
    if not _BORDER.match(table[-1][1]):
        raise LogError(_("the table does not end with its closing border (cut short?)"), table[-1][0])
    if not npus:
        raise LogError(_("no NPU rows under the header"), table[head][0])
    return NpuSmi(tuple(npus), version, elided)
