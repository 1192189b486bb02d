"""The table people paste most: plain ``nvidia-smi`` (and Intel Gaudi's ``hl-smi``, which prints the same box).

Each GPU is a block of two or three rows between ``+---+`` borders::

    |   0  NVIDIA B200                    On  |   00000000:51:00.0 Off |                    0 |
    | N/A   27C    P0            136W / 1000W |       0MiB / 183359MiB |      0%      Default |
    |                                         |                        |             Disabled |

the index and the model's name (as nvidia-smi shortens it) in the first cell, the uncorrected ECC count in the
last cell of the first row (hl-smi: "Volatile Uncor-Events"), memory used / total in the middle cell of the second
and the MIG mode in the last cell of the third (older drivers print no third row). A ``MIG devices:`` box lists
each MIG instance under its GPU; a ``Processes:`` box the processes running. A paste whose author cut GPU rows
and wrote ``...`` in their place is read as such: its rows are the GPUs shown, and it is marked elided, so a count
of GPUs is never taken from it. Memory that nvidia-smi does not report (``Not Supported``: a GB10's unified
memory) is left unknown, never 0.
"""

from __future__ import annotations

import re

from quotetui.domain.verification.logs import LogError, SmiGpu, SmiTable
from quotetui.language import _
from quotetui.language.lists import quoted

BANNER = re.compile(r"^\|\s*(NVIDIA-SMI\s+\S+|HL-SMI Version:)")
"""The first line inside the table's box: the line the tool is known by."""
_HEADER = re.compile(r"^\|\s*(GPU|AIP)\s+Name\b")
_DOUBLE = re.compile(r"^\|=+[=+|]*\|?\s*$")
_BORDER = re.compile(r"^[+|][-+=]+[+|]\s*$")
_FIRST = re.compile(r"^\s*(\d+)\s+(.+?)\s+(On|Off|N/A)\s*$")
_MEMORY = re.compile(r"(\d+)\s*MiB\s*/\s*(\d+)\s*MiB")
_ELIDED = re.compile(r"^[|\s]*(?:\.\.\.|…)[|\s]*$")
_MIG_ROW = re.compile(r"^\|\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\|")
_PROCESS_ROW = re.compile(r"^\|\s*(\d+)\s+\S+\s+\S+\s+(\d+)\s+\S+\s+")
_NEXT_BOX = re.compile(r"^\|\s*(?:MIG devices|Processes|Compute Processes):")
_DRIVER = re.compile(r"Driver Version:\s*(\S+)")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _ecc(cell: str, n: int) -> int | None:
    if cell.isdigit():
        return int(cell)
    if cell in ("N/A", "On", "Off", "", "[N/A]"):  # under MIG the column says On: the count is per MIG device
        return None
    raise LogError(_("an ECC count of {value}: not a number").format(value=quoted(cell)), n)


def parse(text: str) -> SmiTable:
    lines = text.splitlines()
    banner = next(((n, m) for n, line in enumerate(lines, 1) if (m := BANNER.match(line.strip()))), None)
    if banner is None:
        raise LogError(_("no 'NVIDIA-SMI' (or 'HL-SMI Version:') line: not nvidia-smi's table"))
    tool = "hl-smi" if banner[1].group(1).startswith("HL-SMI") else "nvidia-smi"
    driver = next((m.group(1) for line in lines if (m := _DRIVER.search(line))), None)
    header = next((n for n, line in enumerate(lines, 1) if n > banner[0] and _HEADER.match(line.strip())), None)
    if header is None:
        raise LogError(_("no column header ('| GPU  Name …'): cut short?"), len(lines))
    start = next((n for n, line in enumerate(lines, 1) if n > header and _DOUBLE.match(line.strip())), None)
    if start is None:
        raise LogError(_("no '|=====|' line under the column header: cut short?"), len(lines))
    gpus: list[SmiGpu] = []
    block: list[tuple[int, list[str]]] = []
    elided = False

    def flush() -> None:
        if block:
            gpus.append(_gpu(block))
            block.clear()

    n = start
    for n, raw in enumerate(lines[start:], start + 1):
        line = raw.strip()
        if _ELIDED.match(line):
            block.clear()  # a GPU whose rows the author cut part-way is not shown either
            elided = True
            continue
        if not line or not line.startswith(("|", "+")) or _NEXT_BOX.match(line):
            break  # the GPU box ends: a blank line, the MIG / Processes boxes, or what followed the paste
        if _BORDER.match(line):
            flush()
            continue
        cells = _cells(line)
        if _FIRST.match(cells[0]):
            flush()
        elif not block:
            raise LogError(_("a row that starts no GPU: {line}").format(line=quoted(line[:80])), n)
        block.append((n, cells))
    flush()
    if not gpus:
        raise LogError(_("a table with no GPU rows (cut short?)"), n)
    indices = [g.index for g in gpus]
    if (twice := next((i for i in indices if indices.count(i) > 1), None)) is not None:
        raise LogError(
            _("GPU {gpu} twice in one table: two machines' tables pasted together? import each alone").format(gpu=twice)
        )
    elided = elided or sorted(i for i in indices if i is not None) != list(range(len(gpus)))  # rows gone, no "..."
    mig = _mig_devices(lines)
    return SmiTable(
        tuple(gpus),
        tool_name=tool,
        driver=driver,
        elided=elided,
        mig_devices=tuple(sorted(mig.items())),
        processes=_processes(lines),
    )


def _gpu(block: list[tuple[int, list[str]]]) -> SmiGpu:
    (n, first), rest = block[0], block[1:]
    found = _FIRST.match(first[0])
    assert found is not None  # a block begins at its first row
    if len(first) < 3 or not rest:
        raise LogError(_("GPU {gpu}'s rows are cut (a cut or garbled row)").format(gpu=found.group(1)), n)
    memory = _MEMORY.search(rest[0][1][1]) if len(rest[0][1]) > 1 else None
    if memory is None and "Not Supported" not in rest[0][1][1]:
        raise LogError(
            _("GPU {gpu}: no memory 'used / total MiB' in {cell}").format(
                gpu=found.group(1), cell=quoted(rest[0][1][1])
            ),
            rest[0][0],
        )
    mig = rest[1][1][-1] if len(rest) > 1 and rest[1][1][-1] in ("Enabled", "Disabled") else None
    return SmiGpu(
        found.group(2),
        int(found.group(1)),
        int(memory.group(2)) if memory and int(memory.group(2)) else None,  # a total of 0 MiB is no reading
        None,
        _ecc(first[-1], n),
        mig,
    )


def _mig_devices(lines: list[str]) -> dict[int, int]:
    """How many MIG devices the ``MIG devices:`` box lists under each GPU."""
    count: dict[int, int] = {}
    inside = False
    for line in lines:
        text = line.strip()
        if text.startswith("| MIG devices:"):
            inside = True
        elif inside and (text.startswith("| Processes:") or not text):
            inside = False
        elif inside and (row := _MIG_ROW.match(text)):
            gpu = int(row.group(1))
            count[gpu] = count.get(gpu, 0) + 1
    return count


def _processes(lines: list[str]) -> int:
    """The processes the ``Processes:`` box lists (0: "No running processes found", or no box)."""
    inside, found = False, 0
    for line in lines:
        text = line.strip()
        if text.startswith("| Processes:") or text.startswith("| Compute Processes:"):
            inside = True
        elif inside and not text.startswith(("|", "+")):
            inside = False
        elif inside and _PROCESS_ROW.match(text):
            found += 1
    return found
