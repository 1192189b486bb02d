"""The GPU catalog: datasheet figures (dense, no sparsity) and the names each model appears under.

The rows (``GpuSpec`` and ``BUILTIN``) live in ``gpu_table``, with where each figure comes from; this module
is the lookup over them, by name and by PCI device id.

Lookup ignores case, spaces, dashes, underscores and a leading ``NVIDIA``. A bare family name
(``A100``, ``H100``) means the variant sold under that name in the market unless a memory size
from nvidia-smi or a catalog says otherwise.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator

from quotetui.domain.errors import UnknownGpu
from quotetui.domain.gpu_table import BUILTIN, GpuSpec

__all__ = ["BUILTIN", "FAMILIES", "GpuCatalog", "GpuSpec", "builtin_catalog", "normalise"]

FAMILIES: dict[str, tuple[str, ...]] = {
    # bare name -> variants, the market's default first; a memory size picks among them
    "A100": ("a100-80gb-sxm4", "a100-40gb-sxm4", "a100-80gb-pcie", "a100-40gb-pcie"),
    "A100 PCIe": ("a100-80gb-pcie", "a100-40gb-pcie"),
    "H100": ("h100-sxm5", "h100-pcie", "h100-nvl"),
    "A800": ("a800-80gb-sxm4", "a800-80gb-pcie"),
    "H800": ("h800-sxm5", "h800-pcie"),
    "H20": ("h20", "h20-141gb"),
    # npu-smi never prints a bare 910B, but offers and quotes do: the Atlas 800T A2's 910B3 first
    "910B": ("ascend-910b3", "ascend-910b2", "ascend-910b1"),
    "Ascend 910B": ("ascend-910b3", "ascend-910b2", "ascend-910b1"),
}

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_PCI_ID = re.compile(r"[0-9a-f]{1,4}")


def normalise(name: str) -> str:
    """Key used for lookup: lower case, only letters and digits, no leading ``nvidia``."""
    key = _NON_ALNUM.sub("", name.casefold())
    return key.removeprefix("nvidia") or key


def _memory_matches(spec: GpuSpec, memory_mib: int) -> bool:
    if spec.smi_memory_mib is not None and abs(spec.smi_memory_mib - memory_mib) <= 1024:
        return True
    nominal = spec.memory_gb * 1024
    return abs(nominal - memory_mib) <= nominal * 0.06


class GpuCatalog:
    """Lookup over catalog models plus any extra aliases (user-added ones live in the database)."""

    def __init__(self, specs: Iterable[GpuSpec], extra_aliases: Iterable[tuple[str, str]] = ()) -> None:
        self._specs: dict[str, GpuSpec] = {}
        self._by_alias: dict[str, str] = {}
        self._families: dict[str, tuple[str, ...]] = {}
        self._by_pci: dict[str, str] = {}
        for spec in specs:
            self._specs[spec.key] = spec
            for name in spec.names():
                self._by_alias.setdefault(normalise(name), spec.key)
            for dev_id in spec.pci_device_ids:
                self._by_pci.setdefault(dev_id.lower(), spec.key)
        for alias, key in extra_aliases:
            if key in self._specs:
                self._by_alias.setdefault(normalise(alias), key)
        for family, keys in FAMILIES.items():
            present = tuple(k for k in keys if k in self._specs)
            if present:
                self._families[normalise(family)] = present

    def __iter__(self) -> Iterator[GpuSpec]:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def get(self, key: str) -> GpuSpec:
        return self._specs[key]

    def by_pci_id(self, dev_id: str) -> GpuSpec | None:
        """The model with this PCI device id as DCGM prints it (``2330``); ``0x2330``, ``2330h`` and an NVIDIA
        ``10de:2330`` (as ``lspci -nn`` shows it) work too, in any case; another vendor's id needs its vendor
        (``1002:74a1``, an AMD MI300X). None: no model has it."""
        text = dev_id.strip().lower()
        vendor, _, device = text.rpartition(":")
        vendor = vendor.removeprefix("0x")
        device = device.removeprefix("0x").removesuffix("h")
        if not _PCI_ID.fullmatch(device) or (vendor and not _PCI_ID.fullmatch(vendor)):
            return None
        own = device.zfill(4) if vendor in ("", "10de") else f"{vendor.zfill(4)}:{device.zfill(4)}"
        key = self._by_pci.get(own)
        return self._specs[key] if key is not None else None

    def lookup(self, name: str, memory_mib: int | None = None) -> GpuSpec:
        """The model ``name`` refers to; ``memory_mib`` disambiguates a bare family name."""
        key = normalise(name)
        family = self._families.get(key)
        if family:
            if memory_mib is not None:
                for candidate in family:
                    if _memory_matches(self._specs[candidate], memory_mib):
                        return self._specs[candidate]
            return self._specs[family[0]]
        found = self._by_alias.get(key)
        if found is None:
            raise UnknownGpu(name, self.suggest(name))
        return self._specs[found]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Display names of the models whose aliases are closest to ``name``."""
        key = normalise(name)
        pool = list(self._by_alias) + list(self._families)
        close = difflib.get_close_matches(key, pool, n=12, cutoff=0.5)
        if key:
            close += [alias for alias in pool if key in alias or alias in key]
        names: list[str] = []
        for alias in close:
            target = self._by_alias.get(alias) or self._families[alias][0]
            display = self._specs[target].name
            if display not in names:
                names.append(display)
        return names[:limit]


_DEFAULT: GpuCatalog | None = None


def builtin_catalog() -> GpuCatalog:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = GpuCatalog(BUILTIN)
    return _DEFAULT
