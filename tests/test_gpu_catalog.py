"""The GPU catalog: datasheet rows of DESIGN.md 4.1 and lookup by any alias."""

from __future__ import annotations

from decimal import Decimal

import pytest

from quotetui.domain.errors import UnknownGpu
from quotetui.domain.gpus import BUILTIN, builtin_catalog, normalise
from quotetui.store.catalog import load_catalog
from quotetui.store.engine import Database

# (name, form, memory GB, TB/s, BF16, FP8, FP64, NVLink GB/s, TDP W, topo) from DESIGN.md 4.1
DATASHEET = [
    ("A100 40GB SXM4", "sxm", 40, "1.555", "312", None, "9.7", 600, 400, "NV12"),
    ("A100 80GB SXM4", "sxm", 80, "2.039", "312", None, "9.7", 600, 400, "NV12"),
    ("A100 80GB PCIe", "pcie", 80, "1.935", "312", None, "9.7", 600, 300, None),
    ("H100 SXM5", "sxm", 80, "3.35", "989", "1979", "34", 900, 700, "NV18"),
    ("H100 PCIe", "pcie", 80, "2.0", "756", "1513", "26", 600, 350, None),
    ("H100 NVL", "pcie", 94, "3.9", "835", "1671", "30", 600, 400, None),
    ("H800 SXM5", "sxm", 80, "3.35", "989", "1979", "1", 400, 700, "NV8"),
    ("H20", "sxm", 96, "4.0", "148", "296", "1", 900, 400, None),
    ("H200 SXM", "sxm", 141, "4.8", "989", "1979", "34", 900, 700, "NV18"),
    ("B200", "sxm", 180, "8.0", "2250", "4500", "37", 1800, 1000, None),
    ("L40S", "pcie", 48, "0.864", "362", "733", None, None, 350, None),
    ("RTX 4090", "pcie", 24, "1.008", "165", "330", "1.3", None, 450, None),
]


@pytest.mark.parametrize("row", DATASHEET, ids=[r[0] for r in DATASHEET])
def test_every_datasheet_row_is_in_the_catalog(row: tuple) -> None:  # type: ignore[type-arg]
    name, form, mem, bw, bf16, fp8, fp64, nvlink, tdp, topo = row
    spec = builtin_catalog().lookup(name)
    assert spec.name == name
    assert (spec.form_factor.value, spec.memory_gb, spec.tdp_w, spec.topo_signature) == (form, mem, tdp, topo)
    assert spec.memory_bw_tbs == Decimal(bw) and spec.bf16_tflops == Decimal(bf16)
    assert spec.fp8_tflops == (Decimal(fp8) if fp8 else None)
    assert spec.fp64_tflops == (Decimal(fp64) if fp64 else None)
    assert spec.nvlink_gbs == nvlink


@pytest.mark.parametrize(
    ("alias", "expected"),
    [
        ("H100", "H100 SXM5"),
        ("H100 SXM", "H100 SXM5"),
        ("h100-sxm5-80gb", "H100 SXM5"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM5"),
        ("  nvidia   h100_80gb_hbm3 ", "H100 SXM5"),
        ("NVIDIA H100 PCIe", "H100 PCIe"),
        ("NVIDIA H100 NVL", "H100 NVL"),
        ("NVIDIA H800", "H800 SXM5"),
        ("NVIDIA H20", "H20"),
        ("NVIDIA H200", "H200 SXM"),
        ("NVIDIA A100-SXM4-80GB", "A100 80GB SXM4"),
        ("NVIDIA A100 80GB PCIe", "A100 80GB PCIe"),
        ("NVIDIA A100-PCIE-40GB", "A100 40GB PCIe"),
        ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM4"),
        ("NVIDIA GeForce RTX 4090", "RTX 4090"),
        ("NVIDIA L40S", "L40S"),
        ("A100-80GB", "A100 80GB SXM4"),
        ("A100", "A100 80GB SXM4"),
    ],
)
def test_lookup_ignores_case_spaces_and_dashes(alias: str, expected: str) -> None:
    assert builtin_catalog().lookup(alias).name == expected


def test_family_name_is_narrowed_by_memory() -> None:
    catalog = builtin_catalog()
    assert catalog.lookup("A100", memory_mib=40960).name == "A100 40GB SXM4"  # Lambda's "A100"
    assert catalog.lookup("A100", memory_mib=81920).name == "A100 80GB SXM4"  # Mithril's "A100"
    assert catalog.lookup("H100", memory_mib=95830).name == "H100 NVL"
    assert catalog.lookup("H100", memory_mib=81559).name == "H100 SXM5"


def test_unknown_name_lists_the_closest_matches() -> None:
    with pytest.raises(UnknownGpu) as excinfo:
        builtin_catalog().lookup("H1000 SXM")
    assert "H100 SXM5" in excinfo.value.suggestions
    assert "unknown GPU model 'H1000 SXM'; closest matches: " in str(excinfo.value)
    with pytest.raises(UnknownGpu, match="V100"):
        builtin_catalog().lookup("V100")


def test_aliases_never_collide_between_models() -> None:
    owner: dict[str, str] = {}
    for spec in BUILTIN:
        for name in spec.names():
            key = normalise(name)
            assert owner.setdefault(key, spec.key) == spec.key, f"{name!r} names two models"


def test_catalog_is_seeded_into_the_database_and_user_aliases_count(empty_db: Database) -> None:
    from quotetui.store.models import GpuAlias

    with empty_db.write() as session:
        catalog, ids = load_catalog(session)
        assert len(catalog) == len(BUILTIN)
        session.add(GpuAlias(gpu_model_id=ids["h100-sxm5"], alias="HGX-H100-8GPU", norm=normalise("HGX-H100-8GPU")))
    with empty_db.session() as session:
        catalog, _ = load_catalog(session)
    assert catalog.lookup("hgx h100 8gpu").key == "h100-sxm5"
