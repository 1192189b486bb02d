"""AMD's ``rocm-smi``: the Concise Info table, in its two layouts, and ``--showmeminfo vram``.

The newer layout prints a device's PCI device id and no name::

    Device  Node  IDs              Temp   …  Partitions          …
                  (DID,     GUID)          (Mem, Compute, ID)
    0       2     0x74a1,   60024  46.0°C … NPS1, SPX, 0        …

the older one the id with its revision, and the name on a line of its own under it::

    0       [0x74a1 : 0x00]       47.0°C … NPS1, SPX       …
            AMD Instinct MI300X

The compute partition says whether a device is a whole GPU (SPX) or one of 2, 4 or 8 partitions of one (DPX,
QPX, CPX), whose VRAM rocm-smi reports whole for each: a partitioned MI300X is one GPU shown as several.
"""

from __future__ import annotations

import re

from quotetui.domain.verification.logs import LogError, RocmDevice, RocmSmi
from quotetui.language import _

START = re.compile(r"^=+\s*ROCm System Management Interface\s*=+\s*$")
_NEW_ROW = re.compile(r"^(\d+)\s+\d+\s+0x([0-9a-fA-F]{1,4}),\s+\d+\s")
_OLD_ROW = re.compile(r"^(\d+)\s+\[0x([0-9a-fA-F]{1,4})\s*:\s*0x[0-9a-fA-F]+\]\s")
_PARTITION = re.compile(r"\b(?:NPS\d|N/A),\s*([A-Z]PX|N/A)(?:,\s*(\d+))?")
_NAME = re.compile(r"^\s{4,}(\S.*?)\s*$")
_VRAM = re.compile(r"^GPU\[(\d+)\]\s*:\s*VRAM Total Memory \(B\):\s*(\d+)\s*$")


def matches(text: str) -> bool:
    return "ROCm System Management Interface" in text


def parse(text: str) -> RocmSmi:
    lines = text.splitlines()
    devices: dict[int, RocmDevice] = {}
    memory: dict[int, int] = {}
    last: int | None = None
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        row = _NEW_ROW.match(line) or _OLD_ROW.match(line)
        if row:
            index = int(row.group(1))
            if index in devices:
                raise LogError(
                    _("device {index} twice: two runs in one file? import each alone").format(index=index), n
                )
            part = _PARTITION.search(line)
            devices[index] = RocmDevice(
                index,
                row.group(2).lower().zfill(4),
                None,
                part.group(1) if part else None,
                int(part.group(2)) if part and part.group(2) else None,
            )
            last = index if _OLD_ROW.match(line) else None
        elif last is not None and (name := _NAME.match(line)) and not line.lstrip().startswith("="):
            device = devices[last]
            devices[last] = RocmDevice(device.index, device.device_id, name.group(1), device.partition,
                                       device.partition_id)  # fmt: skip
            last = None
        elif vram := _VRAM.match(line.strip()):
            memory[int(vram.group(1))] = int(vram.group(2)) // 2**20
        else:
            last = None
    if not devices:
        raise LogError(_("rocm-smi output with no Concise Info rows (run plain rocm-smi, or cut short?)"), len(lines))
    return RocmSmi(
        tuple(
            RocmDevice(d.index, d.device_id, d.name, d.partition, d.partition_id, memory.get(d.index))
            for d in sorted(devices.values(), key=lambda d: d.index)
        )
    )
