"""The GPU catalog: datasheet rows of DESIGN.md 4.1 and lookup by any alias."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

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
    ("H20", "sxm", 96, "4.0", "148", "296", "1", 900, 400, "NV18"),
    ("H200 SXM", "sxm", 141, "4.8", "989", "1979", "34", 900, 700, "NV18"),
    ("B200", "sxm", 180, "8.0", "2250", "4500", "37", 1800, 1000, "NV18"),
    ("L40S", "pcie", 48, "0.864", "362", "733", None, None, 350, None),
    ("RTX 4090", "pcie", 24, "1.008", "165", "330", "1.3", None, 450, None),
    # added later: NVIDIA datasheets (A800 = A100 with NVLink cut to 400; H800 PCIe = H100 PCIe with FP64 cut)
    ("A800 80GB SXM4", "sxm", 80, "2.039", "312", None, "9.7", 400, 400, "NV8"),
    ("A800 80GB PCIe", "pcie", 80, "1.935", "312", None, "9.7", 400, 300, None),
    ("H800 PCIe", "pcie", 80, "2.0", "756", "1513", "0.8", 400, 350, None),
    ("L20", "pcie", 48, "0.864", "119.5", "239", None, None, 275, None),
    ("L40", "pcie", 48, "0.864", "181.05", "362", None, None, 300, None),
    ("RTX 4090 D", "pcie", 24, "1.008", "147.1", None, None, None, 425, None),  # 165.2 × 114/128 SMs
    ("GB200", "sxm", 186, "8.0", "2500", "5000", "45", 1800, 1200, "NV18"),  # NVL72 totals ÷ 72
    # Huawei publishes no per-variant datasheet: the figures gpu_table names the source of; no FP8, no FP64
    ("Ascend 910B3", "module", 64, "1.6", "313", None, None, 392, 400, None),
    ("Ascend 910B2", "module", 64, "1.6", "376", None, None, 392, 400, None),
    ("Ascend 910B1", "module", 64, "1.6", "414", None, None, 392, 400, None),
    ("Ascend 910C", "module", 128, "3.2", "752", None, None, 784, 800, None),
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


NEW_NAMES = [
    # (a name the model is sold or reported under, the model): nvidia-smi / npu-smi names, market aliases
    ("NVIDIA A800-SXM4-80GB", "A800 80GB SXM4"),
    ("A800 SXM4 80GB", "A800 80GB SXM4"),
    ("A800-80GB", "A800 80GB SXM4"),
    ("A800 80G", "A800 80GB SXM4"),
    ("A800", "A800 80GB SXM4"),  # the bare name: the SXM4 board sold in China
    ("NVIDIA A800 80GB PCIe", "A800 80GB PCIe"),
    ("NVIDIA A800 80GB PCIe LC", "A800 80GB PCIe"),
    ("A800 PCIe", "A800 80GB PCIe"),
    ("NVIDIA H800 PCIe", "H800 PCIe"),
    ("H800-PCIE-80GB", "H800 PCIe"),
    ("H800", "H800 SXM5"),
    ("NVIDIA H800", "H800 SXM5"),
    ("NVIDIA L20", "L20"),
    ("L20 48G", "L20"),
    ("NVIDIA L40", "L40"),
    ("NVIDIA L40S", "L40S"),  # not taken for the L40
    ("NVIDIA GeForce RTX 4090 D", "RTX 4090 D"),
    ("RTX 4090D", "RTX 4090 D"),
    ("4090D", "RTX 4090 D"),
    ("NVIDIA GeForce RTX 4090", "RTX 4090"),  # not taken for the 4090 D
    ("NVIDIA GB200", "GB200"),
    ("GB200 NVL72", "GB200"),
    ("NVIDIA B200", "B200"),  # not taken for the GB200
    ("910B3", "Ascend 910B3"),  # npu-smi info
    ("Ascend910B3", "Ascend 910B3"),  # torch_npu's soc name
    ("昇腾910B3", "Ascend 910B3"),
    ("910B2C", "Ascend 910B2"),
    ("Ascend910B2C", "Ascend 910B2"),
    ("910B1", "Ascend 910B1"),
    ("910B", "Ascend 910B3"),  # a quote's bare 910B: the Atlas 800T A2's part
    ("Ascend 910B", "Ascend 910B3"),
    ("昇腾910B", "Ascend 910B3"),
    ("Ascend910", "Ascend 910C"),  # npu-smi info on an Atlas A3 node
    ("910C", "Ascend 910C"),
    ("Ascend910_9392", "Ascend 910C"),
]


@pytest.mark.parametrize(("name", "expected"), NEW_NAMES, ids=[n for n, _ in NEW_NAMES])
def test_added_models_by_every_name_they_are_sold_and_reported_under(name: str, expected: str) -> None:
    assert builtin_catalog().lookup(name).name == expected


def test_added_models_memory_as_the_tools_report_it() -> None:
    catalog = builtin_catalog()
    mib = {
        "A800 80GB SXM4": 81920,  # ../shared/benchlogs/22: memory.total 81920 MiB
        "A800 80GB PCIe": 81920,
        "H800 PCIe": 81559,
        "H20": 97871,
        "L20": 46068,
        "L40": 46068,
        "B200": 183359,
        "GB200": 189471,
        "Ascend 910B3": 65536,  # npu-smi: HBM 65536 MB
        "Ascend 910C": 131072,  # two chips of 65536 MB
    }
    assert {name: catalog.lookup(name).smi_memory_mib for name in mib} == mib
    assert catalog.lookup("RTX 4090 D").consumer and not catalog.lookup("L20").consumer
    assert catalog.lookup("A800", memory_mib=81920).name == "A800 80GB SXM4"
    assert catalog.lookup("H800", memory_mib=81559).name == "H800 SXM5"  # same memory: the family's first


def test_the_910b4_is_left_out_rather_than_guessed() -> None:
    # 32 GB, Atlas 800I A2: Huawei publishes no bandwidth or power for it, so the catalog has no row to invent
    with pytest.raises(UnknownGpu):
        builtin_catalog().lookup("910B4")


def test_ascend_npus_are_modules_on_hccs_not_nvlink() -> None:
    from quotetui.domain.enums import FormFactor, IntraFabric
    from quotetui.domain.verification.findings import Sold
    from quotetui.domain.verification.rules import allreduce_floor

    for key in ("ascend-910b1", "ascend-910b2", "ascend-910b3", "ascend-910c"):
        spec = builtin_catalog().get(key)
        assert spec.form_factor is FormFactor.MODULE and spec.nvlink_note == "HCCS"
        assert spec.fp8_tflops is None and spec.fp64_tflops is None and spec.pci_device_ids == ()
        sold = Sold(spec, 8, IntraFabric.UNKNOWN)
        assert not sold.nvlink_sold and allreduce_floor(sold) is None  # no NVLink judgement of an HCCS board
    assert FormFactor.parse("module") is FormFactor.MODULE


@pytest.mark.parametrize(
    ("dev_id", "expected"),
    [
        ("2330", "H100 SXM5"),  # DCGM's "GPU Device IDs Detected" (../shared/benchlogs/14)
        ("0x2335", "H200 SXM"),
        ("0X2335", "H200 SXM"),
        (" 2335 ", "H200 SXM"),
        ("10de:2322", "H800 PCIe"),  # as lspci -nn prints it
        ("20F3", "A800 80GB SXM4"),
        ("20b2", "A100 80GB SXM4"),
        ("20f1", "A100 40GB PCIe"),
        ("2321", "H100 NVL"),
        ("2324", "H800 SXM5"),
        ("2329", "H20"),
        ("2901", "B200"),
        ("2941", "GB200"),
        ("26b5", "L40"),
        ("26b9", "L40S"),
        ("26ba", "L20"),
        ("26b7", "L20"),
        ("2684", "RTX 4090"),
        ("2685", "RTX 4090 D"),
    ],
)
def test_a_model_by_its_pci_device_id(dev_id: str, expected: str) -> None:
    found = builtin_catalog().by_pci_id(dev_id)
    assert found is not None and found.name == expected


@pytest.mark.parametrize("dev_id", ["", "zz", "12345", "d802", "19e5:d802", "2909", "0x"])
def test_an_unknown_or_another_vendors_pci_id_is_none(dev_id: str) -> None:
    assert builtin_catalog().by_pci_id(dev_id) is None


def test_pci_ids_are_lower_case_hex_and_never_name_two_models() -> None:
    import re

    owner: dict[str, str] = {}
    for spec in BUILTIN:
        for dev_id in spec.pci_device_ids:
            # NVIDIA's bare, as DCGM prints them; another vendor's with its vendor (AMD 1002, Habana 1da3)
            assert re.fullmatch("[0-9a-f]{4}|(?!10de)[0-9a-f]{4}:[0-9a-f]{4}", dev_id), dev_id
            assert owner.setdefault(dev_id, spec.key) == spec.key, f"{dev_id} names two models"


def test_dcgm_device_ids_of_the_shared_logs_name_their_gpus() -> None:
    from quotetui.domain.verification.logs import DcgmDiag
    from quotetui.io.benchlogs.detect import parse_log

    shared = Path(__file__).parent / "fixtures" / "benchlogs" / "shared"
    for name, model in (
        ("14-dcgmi-r3-h100-cuinit-fail-nccltests264.txt", "H100 SXM5"),
        ("17-dcgmi-r1-h200-persistence-fail-azdoc.txt", "H200 SXM"),
    ):
        diag = parse_log((shared / name).read_text(encoding="utf-8"))
        assert isinstance(diag, DcgmDiag) and len(diag.device_ids) == 8
        assert {getattr(builtin_catalog().by_pci_id(d), "name", None) for d in diag.device_ids} == {model}


def test_an_a800_log_is_not_taken_for_an_a100() -> None:
    from quotetui.domain.verification.logs import SmiQuery
    from quotetui.io.benchlogs.detect import parse_log

    log = Path(__file__).parent / "fixtures" / "benchlogs" / "shared" / "22-smi-query-a800-6fields-envsnapshot.txt"
    query = parse_log(log.read_text(encoding="utf-8"))
    assert isinstance(query, SmiQuery) and len(query.gpus) == 8
    catalog = builtin_catalog()
    assert {catalog.lookup(g.name, g.memory_mib).key for g in query.gpus} == {"a800-80gb-sxm4"}
    # the A100 80GB SXM4 has the same 81920 MiB: memory never turns one into the other
    assert catalog.lookup("NVIDIA A100-SXM4-80GB", 81920).key == "a100-80gb-sxm4"
    assert catalog.lookup("A100", 81920).key == "a100-80gb-sxm4"


def test_the_catalog_read_from_the_database_keeps_the_pci_ids(empty_db: Database) -> None:
    with empty_db.session() as session:
        catalog, _ = load_catalog(session)
    assert {s.key: s.pci_device_ids for s in catalog} == {s.key: s.pci_device_ids for s in BUILTIN}
    assert catalog.get("h100-sxm5").pci_device_ids == ("2330",)
    found = catalog.by_pci_id("0x2335")
    assert found is not None and found.key == "h200-sxm"


NEW_KEYS = ("a800-80gb-sxm4", "a800-80gb-pcie", "h800-pcie", "l20", "l40", "rtx-4090d", "gb200", "ascend-910b3",
            "ascend-910b2", "ascend-910b1", "ascend-910c", "b300", "h20-141gb", "mi300x", "mi325x", "mi355x",
            "gaudi2", "gaudi3")  # fmt: skip


def test_an_existing_database_gains_the_new_models_and_the_corrected_figures(db_path: Path) -> None:
    """A database seeded by the release before: none of the new models, B200 and H20 without their topology,
    and a user's alias. Opening it with this release adds the models and corrects the figures; the alias stays."""
    from quotetui.services.database import open_database
    from tests.conftest import execute, sql

    open_database(str(db_path)).db.dispose()
    keys = ", ".join(f"'{k}'" for k in NEW_KEYS)
    execute(db_path, f"DELETE FROM gpu_alias WHERE gpu_model_id IN (SELECT id FROM gpu_model WHERE key IN ({keys}))")
    execute(db_path, f"DELETE FROM gpu_model WHERE key IN ({keys})")
    execute(db_path, "UPDATE gpu_model SET topo_signature = NULL, smi_memory_mib = NULL WHERE key IN ('b200', 'h20')")
    execute(db_path, "UPDATE setting SET value = '589e633714e42c21' WHERE key = 'catalog_version'")  # the old one
    [(h100,)] = sql(db_path, "SELECT id FROM gpu_model WHERE key = 'h100-sxm5'")
    execute(
        db_path,
        "INSERT INTO gpu_alias (gpu_model_id, alias, norm, builtin) VALUES (:id, 'HGX-H100-8GPU', 'hgxh1008gpu', :f)",
        {"id": h100, "f": False},
    )
    assert sql(db_path, "SELECT COUNT(*) FROM gpu_model") == [(len(BUILTIN) - len(NEW_KEYS),)]

    opened = open_database(str(db_path))
    with opened.db.session() as session:
        catalog, _ = load_catalog(session)
    opened.db.dispose()
    assert [s.key for s in catalog] == [s.key for s in BUILTIN]
    assert (catalog.get("b200").topo_signature, catalog.get("b200").smi_memory_mib) == ("NV18", 183359)
    assert catalog.get("h20").topo_signature == "NV18"
    assert catalog.lookup("NVIDIA A800-SXM4-80GB").key == "a800-80gb-sxm4"
    assert catalog.lookup("910B3").key == "ascend-910b3"
    assert catalog.lookup("HL-325L").key == "gaudi3" and catalog.by_pci_id("1002:74a1").key == "mi300x"  # type: ignore[union-attr]
    assert catalog.lookup("hgx h100 8gpu").key == "h100-sxm5"  # the user's alias is left alone
    [(form,)] = sql(db_path, "SELECT form_factor FROM gpu_model WHERE key = 'ascend-910c'")
    assert form == "module"


@pytest.mark.sqlite_only
def test_the_first_released_schema_upgrades_with_the_whole_catalog(tmp_path: Path) -> None:
    import shutil

    from quotetui.services.database import open_database

    db = tmp_path / "old.db"
    shutil.copy(Path(__file__).parent / "fixtures" / "upgrade" / "schema-0001.db", db)
    opened = open_database(str(db))
    with opened.db.session() as session:
        catalog, _ = load_catalog(session)
    opened.db.dispose()
    assert {s.key for s in catalog} == {s.key for s in BUILTIN}
    assert catalog.lookup("A800").key == "a800-80gb-sxm4" and catalog.get("b200").topo_signature == "NV18"
