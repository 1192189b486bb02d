"""``nvidia-smi -q``: the long form, one indented block per GPU (``GPU 00000000:83:00.0``), read into the same
facts as the table: the product name, framebuffer memory (``FB Memory Usage`` › ``Total``), the MIG mode now,
the volatile uncorrectable ECC count (``ECC Errors`` › ``Volatile`` › ``DRAM Uncorrectable``, or the older
``Double Bit`` › ``Device Memory``), and the PCI device id (``0x233510DE``: device 2335, vendor 10de), which names
the part whatever the name says."""

from __future__ import annotations

import re

from quotetui.domain.verification.logs import LogError, SmiGpu, SmiTable
from quotetui.language import _
from quotetui.language.lists import quoted

START = re.compile(r"^=+\s*NVSMI LOG\s*=+\s*$")
_GPU = re.compile(r"^GPU\s+([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)\s*$")
_FIELD = re.compile(r"^(\s*)(\S.*?)\s*:\s*(.*?)\s*$")
_SECTION = re.compile(r"^(\s*)(\S.*?)\s*$")
_ECC = ("ECC Errors/Volatile/DRAM Uncorrectable", "ECC Errors/Volatile/SRAM Uncorrectable Parity",
        "ECC Errors/Volatile/SRAM Uncorrectable SEC-DED", "ECC Errors/Volatile/SRAM Uncorrectable")  # fmt: skip
_ECC_OLD = ("ECC Errors/Volatile/Double Bit/Device Memory", "ECC Errors/Volatile/Double Bit/Register File",
            "ECC Errors/Volatile/Double Bit/L1 Cache", "ECC Errors/Volatile/Double Bit/L2 Cache")  # fmt: skip
_DEVICE_ID = re.compile(r"^0x([0-9A-Fa-f]{4})([0-9A-Fa-f]{4})$")


def _fields(block: list[tuple[int, str]]) -> dict[str, tuple[str, int]]:
    """Each value under its path of section names (``FB Memory Usage/Total``), first one kept."""
    out: dict[str, tuple[str, int]] = {}
    path: list[tuple[int, str]] = []
    for n, line in block:
        found = _FIELD.match(line) if ":" in line else None
        indent = len(line) - len(line.lstrip())
        while path and path[-1][0] >= indent:
            path.pop()
        if found:
            key = "/".join([p for _, p in path] + [found.group(2)])
            out.setdefault(key, (found.group(3), n))
        elif section := _SECTION.match(line):
            path.append((indent, section.group(2)))
    return out


def _number(fields: dict[str, tuple[str, int]], *keys: str) -> int | None:
    for key in keys:
        if key in fields:
            value, n = fields[key]
            figure = value.split()[0] if value else ""
            if figure.isdigit():
                return int(figure)
            if figure not in ("N/A", "[N/A]", "Not", "Unknown"):
                raise LogError(_("{what} is {value}, not a number").format(what=key, value=quoted(value)), n)
    return None


def _uncorrectable(fields: dict[str, tuple[str, int]]) -> int | None:
    """Volatile uncorrectable errors, DRAM and SRAM (as ``ecc.errors.uncorrected.volatile.total`` counts them),
    or the older Double Bit counts; None where none is printed."""
    for keys in (_ECC, _ECC_OLD):
        counts = [c for key in keys if (c := _number(fields, key)) is not None]
        if counts:
            return sum(counts)
    return None


def parse(text: str) -> SmiTable:
    lines = text.splitlines()
    starts = [(n, m.group(1)) for n, line in enumerate(lines, 1) if (m := _GPU.match(line.strip()))]
    if not starts:
        raise LogError(_("no 'GPU 00000000:…' block: not nvidia-smi -q, or cut short"))
    gpus, ids = [], []
    for k, (n, _bus) in enumerate(starts):
        end = starts[k + 1][0] - 1 if k + 1 < len(starts) else len(lines)
        fields = _fields([(i, lines[i - 1]) for i in range(n + 1, end + 1) if lines[i - 1].strip()])
        name = fields.get("Product Name", ("", n))[0]
        if not name:
            raise LogError(_("a GPU block with no 'Product Name' (cut short?)"), n)
        device = fields.get("PCI/Device Id", ("", n))[0]
        if found := _DEVICE_ID.match(device):
            ids.append(f"{found.group(2).lower()}:{found.group(1).lower()}")
        mig = fields.get("MIG Mode/Current", ("", n))[0]
        gpus.append(
            SmiGpu(
                name,
                _number(fields, "Minor Number"),
                _number(fields, "FB Memory Usage/Total"),
                fields.get("GPU UUID", (None, n))[0],
                _uncorrectable(fields),
                mig if mig in ("Enabled", "Disabled") else None,
            )
        )
    buses = [bus for _, bus in starts]
    if (twice := next((b for b in buses if buses.count(b) > 1), None)) is not None:
        raise LogError(_("GPU {gpu} twice: two runs pasted together? import each alone").format(gpu=twice))
    driver = next((m.group(1) for line in lines if (m := re.match(r"^Driver Version\s*:\s*(\S+)", line))), None)
    attached = next((int(m.group(1)) for line in lines if (m := re.match(r"^Attached GPUs\s*:\s*(\d+)", line))), None)
    cut = attached is not None and attached != len(gpus)  # the paste holds fewer blocks than the GPUs attached
    return SmiTable(tuple(gpus), tool_name="nvidia-smi -q", driver=driver, pci_ids=tuple(ids), elided=cut)
