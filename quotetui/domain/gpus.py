"""The GPU catalog: datasheet figures (dense, no sparsity) and the names each model appears under.

Figures are DESIGN.md section 4.1. ``A100 40GB PCIe`` is added because nvidia-smi reports it
(``NVIDIA A100-PCIE-40GB``) and it must not be mistaken for the SXM part.

Lookup ignores case, spaces, dashes, underscores and a leading ``NVIDIA``. A bare family name
(``A100``, ``H100``) means the variant sold under that name in the market unless a memory size
from nvidia-smi or a catalog says otherwise.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from quotetui.domain.enums import FormFactor
from quotetui.domain.errors import UnknownGpu


@dataclass(frozen=True, slots=True)
class GpuSpec:
    key: str
    name: str
    form_factor: FormFactor
    memory_gb: int
    memory_type: str
    memory_bw_tbs: Decimal
    bf16_tflops: Decimal
    fp8_tflops: Decimal | None
    fp64_tflops: Decimal | None
    nvlink_gbs: int | None  # per GPU, bidirectional; None: no NVLink
    nvlink_note: str  # "", "via bridge"
    tdp_w: int
    topo_signature: str | None  # bonded NVLinks between two GPUs in `nvidia-smi topo -m`, e.g. NV18
    consumer: bool = False
    smi_names: tuple[str, ...] = ()
    smi_memory_mib: int | None = None  # memory.total as nvidia-smi reports it, where known
    aliases: tuple[str, ...] = field(default=())

    def names(self) -> tuple[str, ...]:
        """Every name this model is known by: its display name, aliases and nvidia-smi names."""
        return (self.name, self.key, *self.aliases, *self.smi_names)


def _d(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def _spec(
    key: str,
    name: str,
    form: str,
    mem: int,
    mtype: str,
    bw: str,
    bf16: str,
    fp8: str | None,
    fp64: str | None,
    nvlink: int | None,
    note: str,
    tdp: int,
    topo: str | None,
    smi: tuple[str, ...],
    smi_mib: int | None,
    aliases: tuple[str, ...],
    consumer: bool = False,
) -> GpuSpec:
    return GpuSpec(
        key,
        name,
        FormFactor(form),
        mem,
        mtype,
        Decimal(bw),
        Decimal(bf16),
        _d(fp8),
        _d(fp64),
        nvlink,
        note,
        tdp,
        topo,
        consumer,
        smi,
        smi_mib,
        aliases,
    )


BUILTIN: tuple[GpuSpec, ...] = (
    _spec(
        "a100-40gb-sxm4",
        "A100 40GB SXM4",
        "sxm",
        40,
        "HBM2",
        "1.555",
        "312",
        None,
        "9.7",
        600,
        "",
        400,
        "NV12",
        ("NVIDIA A100-SXM4-40GB",),
        40960,
        ("A100 40GB SXM", "A100-SXM4-40GB", "A100 SXM4 40GB", "A100 40GB", "A100-40GB", "A100 40G", "A100 40GB SXM4"),
    ),
    _spec(
        "a100-80gb-sxm4",
        "A100 80GB SXM4",
        "sxm",
        80,
        "HBM2e",
        "2.039",
        "312",
        None,
        "9.7",
        600,
        "",
        400,
        "NV12",
        ("NVIDIA A100-SXM4-80GB",),
        81920,
        (
            "A100 80GB SXM",
            "A100-SXM4-80GB",
            "A100 SXM4 80GB",
            "A100 SXM4",
            "A100 SXM",
            "A100 80GB",
            "A100-80GB",
            "A100 80G",
            "A100 80GB SXM4",
        ),
    ),
    _spec(
        "a100-80gb-pcie",
        "A100 80GB PCIe",
        "pcie",
        80,
        "HBM2e",
        "1.935",
        "312",
        None,
        "9.7",
        600,
        "via bridge",
        300,
        None,
        ("NVIDIA A100 80GB PCIe",),
        81920,
        ("A100 PCIe 80GB", "A100-PCIE-80GB", "A100 80G PCIe"),
    ),
    _spec(
        "a100-40gb-pcie",
        "A100 40GB PCIe",
        "pcie",
        40,
        "HBM2",
        "1.555",
        "312",
        None,
        "9.7",
        600,
        "via bridge",
        250,
        None,
        ("NVIDIA A100-PCIE-40GB",),
        40960,
        ("A100 PCIe 40GB", "A100-PCIE-40GB", "A100 40G PCIe"),
    ),
    _spec(
        "h100-sxm5",
        "H100 SXM5",
        "sxm",
        80,
        "HBM3",
        "3.35",
        "989",
        "1979",
        "34",
        900,
        "",
        700,
        "NV18",
        ("NVIDIA H100 80GB HBM3",),
        81559,
        (
            "H100 SXM",
            "H100 SXM5 80GB",
            "H100 80GB SXM",
            "H100 80GB SXM5",
            "h100-sxm5-80gb",
            "H100-SXM",
            "H100 80GB",
            "H100 80G",
            "HGX H100",
        ),
    ),
    _spec(
        "h100-pcie",
        "H100 PCIe",
        "pcie",
        80,
        "HBM2e",
        "2.0",
        "756",
        "1513",
        "26",
        600,
        "via bridge",
        350,
        None,
        ("NVIDIA H100 PCIe",),
        None,
        ("H100 PCIe 80GB", "H100-PCIE-80GB", "H100-PCIE"),
    ),
    _spec(
        "h100-nvl",
        "H100 NVL",
        "pcie",
        94,
        "HBM3",
        "3.9",
        "835",
        "1671",
        "30",
        600,
        "via bridge",
        400,
        None,
        ("NVIDIA H100 NVL",),
        None,
        ("H100 NVL 94GB", "H100-NVL-94GB"),
    ),
    _spec(
        "h800-sxm5",
        "H800 SXM5",
        "sxm",
        80,
        "HBM3",
        "3.35",
        "989",
        "1979",
        "1",
        400,
        "",
        700,
        "NV8",
        ("NVIDIA H800",),
        None,
        ("H800", "H800 SXM", "H800 80GB", "H800-SXM5-80GB", "H800 SXM5 80GB"),
    ),
    _spec(
        "h20",
        "H20",
        "sxm",
        96,
        "HBM3",
        "4.0",
        "148",
        "296",
        "1",
        900,
        "",
        400,
        None,
        ("NVIDIA H20",),
        None,
        ("H20 96GB", "H20 SXM", "HGX H20"),
    ),
    _spec(
        "h200-sxm",
        "H200 SXM",
        "sxm",
        141,
        "HBM3e",
        "4.8",
        "989",
        "1979",
        "34",
        900,
        "",
        700,
        "NV18",
        ("NVIDIA H200",),
        None,
        ("H200", "H200 141GB", "H200 SXM5", "H200-SXM-141GB", "HGX H200"),
    ),
    _spec(
        "b200",
        "B200",
        "sxm",
        180,
        "HBM3e",
        "8.0",
        "2250",
        "4500",
        "37",
        1800,
        "",
        1000,
        None,
        ("NVIDIA B200",),
        None,
        ("B200 SXM", "B200 180GB", "HGX B200"),
    ),
    _spec(
        "l40s",
        "L40S",
        "pcie",
        48,
        "GDDR6",
        "0.864",
        "362",
        "733",
        None,
        None,
        "",
        350,
        None,
        ("NVIDIA L40S",),
        None,
        ("L40S 48GB", "L40-S"),
    ),
    _spec(
        "rtx-4090",
        "RTX 4090",
        "pcie",
        24,
        "GDDR6X",
        "1.008",
        "165",
        "330",
        "1.3",
        None,
        "",
        450,
        None,
        ("NVIDIA GeForce RTX 4090",),
        None,
        ("GeForce RTX 4090", "RTX4090", "4090"),
        consumer=True,
    ),
)

FAMILIES: dict[str, tuple[str, ...]] = {
    # bare name -> variants, the market's default first; a memory size picks among them
    "A100": ("a100-80gb-sxm4", "a100-40gb-sxm4", "a100-80gb-pcie", "a100-40gb-pcie"),
    "A100 PCIe": ("a100-80gb-pcie", "a100-40gb-pcie"),
    "H100": ("h100-sxm5", "h100-pcie", "h100-nvl"),
}

_NON_ALNUM = re.compile(r"[^0-9a-z]+")


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
        for spec in specs:
            self._specs[spec.key] = spec
            for name in spec.names():
                self._by_alias.setdefault(normalise(name), spec.key)
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
