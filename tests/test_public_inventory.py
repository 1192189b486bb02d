"""Issue 32, point 3: inventory from what people paste most. Real public outputs of the plain nvidia-smi table,
nvidia-smi -q, rocm-smi (both layouts, a partitioned MI300X), npu-smi (an elided 910B1 paste, a 310P3 inference
card, an A3 node), hl-smi (Gaudi 2 and 3), DCGM and dcgmi discovery, in
tests/fixtures/benchlogs/public/inventory; each expectation below is transcribed from READINGS.md there, written
by hand before any parser ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from quotetui.domain.enums import IntraFabric
from quotetui.domain.gpus import builtin_catalog
from quotetui.domain.verification.acceptance import INVENTORY_TOOLS
from quotetui.domain.verification.findings import Log, Severity, Sold
from quotetui.domain.verification.inventory import gpus_shown
from quotetui.domain.verification.logs import DcgmDiag, LogError, NpuSmi, RocmSmi, SmiTable
from quotetui.domain.verification.rules import check
from quotetui.io.benchlogs.detect import parse_log

INVENTORY = Path(__file__).parent / "fixtures" / "benchlogs" / "public" / "inventory"
CATALOG = builtin_catalog()


def _text(prefix: str) -> str:
    [path] = INVENTORY.glob(f"{prefix}-*")
    return path.read_bytes().decode("utf-8")


def _findings(prefix: str, key: str, per_node: int = 8) -> list[tuple[str, Severity, str]]:
    sold = Sold(CATALOG.get(key), per_node, IntraFabric.NVSWITCH)
    return [(f.code, f.severity, f.title) for f in check(sold, [Log(1, prefix, parse_log(_text(prefix)))], CATALOG)]


def _table(prefix: str) -> SmiTable:
    parsed = parse_log(_text(prefix))
    assert isinstance(parsed, SmiTable)
    assert parsed.tool in INVENTORY_TOOLS  # an inventory for acceptance
    return parsed


@pytest.mark.parametrize(
    "prefix, tool, rows, driver",
    [
        ("01", "nvidia-smi", [(0, "NVIDIA H100 80GB HBM3", 81559, None, "Enabled")], "590.48.01"),
        ("02", "nvidia-smi -q", [(0, "NVIDIA H200", 143771, 0, "Disabled")], "590.48.01"),
        ("03", "nvidia-smi", [(i, "NVIDIA H20", 97871, 0, "Disabled") for i in (0, 1, 7)], "535.161.03"),
        ("05", "nvidia-smi", [(i, "NVIDIA B200", 183359, 0, "Disabled") for i in range(8)], "580.95.05"),
        ("06", "nvidia-smi", [(i, "NVIDIA H800", 143771, 0, "Disabled") for i in range(8)], "560.35.03"),
        ("12", "hl-smi", [(i, "HL-225", 98304, {0: 21, 6: 176}.get(i, 0), None) for i in range(8)],
         "1.21.1-bfcec49"),
        ("13", "hl-smi", [(i, "HL-325L", 131072, 0, None) for i in range(8)], "1.20.1-366eb9c"),
        ("19", "nvidia-smi", [(0, "NVIDIA GB10", None, None, None)], "580.95.05"),  # memory: Not Supported
    ],
)  # fmt: skip
def test_each_smi_paste_reads_as_its_reading_says(prefix: str, tool: str, rows: list[tuple], driver: str) -> None:  # type: ignore[type-arg]
    table = _table(prefix)
    assert table.tool == tool and table.driver == driver
    assert [(g.index, g.name, g.memory_mib, g.ecc_uncorrected, g.mig_mode) for g in table.gpus] == rows


def test_what_the_table_adds_mig_devices_elided_rows_processes_and_the_pci_id() -> None:
    assert _table("01").mig_devices == ((0, 4),) and _table("01").processes == 0
    assert _table("03").elided and gpus_shown(_table("03")) is None  # 3 rows shown of 8: not a count
    assert not _table("05").elided and gpus_shown(_table("05")) == 8
    assert _table("19").processes == 3  # Xorg, gnome-shell, firefox
    assert _table("02").pci_ids == ("10de:2335",)


@pytest.mark.parametrize(
    "prefix, sold, per_node, found",
    [
        ("01", "h100-sxm5", 1, [("mig", Severity.CRITICAL, "MIG slice, not a whole GPU")]),
        ("02", "h100-sxm5", 1, [("model-mismatch", Severity.CRITICAL, "H200 SXM reported, H100 SXM5 sold")]),
        ("02", "h200-sxm", 1, []),
        ("03", "h20", 8, []),  # elided: no gpu-count finding from 3 rows
        ("05", "b200", 8, []),
        ("06", "h800-sxm5", 8, [("model-mismatch", Severity.WARNING,
                                 "unknown GPU 'NVIDIA H800 with 143771 MiB (the H800 SXM5 has 80 GB)'")]),
        ("12", "gaudi2", 8, [("hardware-fault", Severity.CRITICAL, "uncorrected ECC errors on 2 GPUs")]),
        ("13", "gaudi3", 8, []),
        ("13", "gaudi2", 8, [("model-mismatch", Severity.CRITICAL, "Gaudi 3 reported, Gaudi 2 sold")]),
        ("19", "h100-sxm5", 1, [("model-mismatch", Severity.WARNING, "unknown GPU 'NVIDIA GB10'")]),
    ],
)  # fmt: skip
def test_smi_pastes_are_judged_against_the_model_sold(
    prefix: str, sold: str, per_node: int, found: list[tuple[str, Severity, str]]
) -> None:
    assert _findings(prefix, sold, per_node) == found


def test_rocm_smi_both_layouts_name_an_mi300x() -> None:
    for prefix in ("07", "08"):
        parsed = parse_log(_text(prefix))
        assert isinstance(parsed, RocmSmi) and parsed.tool in INVENTORY_TOOLS
        assert [d.device_id for d in parsed.devices] == ["74a1"] * 8 and parsed.physical == 8
        assert [d.partition for d in parsed.devices] == ["SPX"] * 8
        assert _findings(prefix, "mi300x") == []
        assert _findings(prefix, "h100-sxm5") == [
            ("model-mismatch", Severity.CRITICAL, "MI300X reported, H100 SXM5 sold")
        ]
    assert parse_log(_text("07")).gpu_names() == ()  # the newer layout prints no name: the id tells
    assert set(parse_log(_text("08")).gpu_names()) == {"AMD Instinct MI300X"}


def test_a_partitioned_mi300x_is_one_gpu_shown_as_four() -> None:
    parsed = parse_log(_text("09"))
    assert isinstance(parsed, RocmSmi)
    assert [(d.partition, d.partition_id, d.memory_mib) for d in parsed.devices] == [
        ("QPX", i, 206141652992 // 2**20) for i in range(4)
    ]
    assert parsed.physical == 1
    assert [(code, severity) for code, severity, _ in _findings("09", "mi300x")] == [
        ("mig", Severity.CRITICAL),
        ("gpu-count", Severity.WARNING),
    ]


def test_npu_smi_an_elided_910b1_paste_and_a_310p3_inference_card() -> None:
    elided = parse_log(_text("04"))
    assert isinstance(elided, NpuSmi) and elided.elided
    assert [(n.index, n.name) for n in elided.npus] == [(0, "910B1"), (1, "910B1"), (7, "910B1")]
    assert _findings("04", "ascend-910b1") == []
    assert _findings("10", "ascend-910b3", 1) == [  # one card sold: only the model is at issue
        ("model-mismatch", Severity.CRITICAL, "310P3: an Ascend 310 inference part, Ascend 910B3 sold")
    ]
    node = parse_log(_text("11"))
    assert isinstance(node, NpuSmi) and len(node.npus) == 8 and set(node.gpu_names()) == {"Ascend910"}


def test_a_dcgm_test_that_failed_on_its_own_internal_error_blames_no_gpu() -> None:
    parsed = parse_log(_text("14"))
    assert isinstance(parsed, DcgmDiag) and parsed.device_ids == ("2901",) * 8
    [(code, severity, title)] = _findings("14", "b200")
    assert (code, severity) == ("hardware-fault", Severity.WARNING) and title == "DCGM: 0 failed, 1 skipped or warned"


def test_dcgmi_discovery_without_names_is_refused_as_what_it_is() -> None:
    with pytest.raises(LogError) as refused:
        parse_log(_text("15"))
    assert "every Name is <<<NULL>>>" in refused.value.message and refused.value.line == 4


def test_a_dcgm_message_repeated_for_each_gpu_is_told_once_with_the_gpu_list() -> None:
    """Shared log 17: DCGM's Persistence Mode cell repeats one message for GPUs 0, 1, … and cuts it at GPU 5."""
    from quotetui.domain.verification.logs import once_per_gpu

    shared = INVENTORY.parent.parent / "shared" / "17-dcgmi-r1-h200-persistence-fail-azdoc.txt"
    sold = Sold(CATALOG.get("h200-sxm"), 8, IntraFabric.NVSWITCH)
    [found] = [f for f in check(sold, [Log(1, "17", parse_log(shared.read_text()))], CATALOG)]
    [line] = found.evidence
    assert line.startswith("17: Persistence Mode: Fail - Persistence mode for GPUs 0–5 is currently disabled.")
    assert line.endswith("(DCGM's cell is cut short after GPU 5)") and line.count("Persistence mode for") == 1
    assert once_per_gpu("GPU 1 failed; GPU 0 passed") == "GPU 1 failed; GPU 0 passed"  # not one message twice
    assert once_per_gpu("x on GPU 0., x on GPU 2., x on GPU 3.") == "x on GPUs 0, 2–3."


# The hostile pass on issue 32: a provider who edits or cuts a paste must not pass what it hides.


def test_an_elided_listing_passes_neither_inventory_nor_ecc() -> None:
    from quotetui.domain.verification.acceptance import Status, checklist

    sold = Sold(CATALOG.get("h20"), 8, IntraFabric.NVSWITCH)
    logs = [Log(1, "03", parse_log(_text("03")))]  # GPUs 0, 1 and 7 shown, 2-6 cut by "..."
    items = {i.key: i for i in checklist(sold, logs, check(sold, logs, CATALOG), CATALOG)}
    assert items["inventory"].status is Status.MISSING
    assert items["inventory"].reason == "no nvidia-smi listing (1 listing with rows cut by '...': not counted)"
    assert items["ecc"].status is Status.MISSING
    whole = [Log(2, "05", parse_log(_text("05")))]
    b200 = Sold(CATALOG.get("b200"), 8, IntraFabric.NVSWITCH)
    passed = {i.key: i for i in checklist(b200, whole, check(b200, whole, CATALOG), CATALOG)}
    assert (passed["inventory"].status, passed["inventory"].reason) == (Status.PASSED, "8× B200 listed")


def test_a_gpu_twice_is_refused_and_a_gpu_missing_is_not_counted() -> None:
    with pytest.raises(LogError, match="GPU 0 twice in one table"):
        parse_log(_text("05").replace("|   1  NVIDIA B200", "|   0  NVIDIA B200"))
    lines = _text("05").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "00000000:63:00.0" in line)  # GPU 3's block: 3 rows, a border
    gap = parse_log("".join(lines[:at] + lines[at + 4 :]))
    assert isinstance(gap, SmiTable) and gap.elided and [g.index for g in gap.gpus] == [0, 1, 2, 4, 5, 6, 7]
    text = _text("02")
    block = text[text.index("GPU 00000000:83:00.0") :]
    with pytest.raises(LogError, match=r"GPU 00000000:83:00\.0 twice"):
        parse_log(text + block)


def test_nvidia_smi_q_counts_sram_uncorrectable_errors_too() -> None:
    text = _text("02")
    volatile = text.index("SRAM Uncorrectable SEC-DED")  # the first one is under Volatile
    edited = text[:volatile] + text[volatile:].replace(": 0", ": 5", 1)
    table = parse_log(edited)
    assert isinstance(table, SmiTable) and table.gpus[0].ecc_uncorrected == 5
    sold = Sold(CATALOG.get("h200-sxm"), 1, IntraFabric.NVSWITCH)
    assert [f.title for f in check(sold, [Log(1, "q", table)], CATALOG)] == ["uncorrected ECC errors on 1 GPU"]


def test_rocm_smi_device_ids_are_checked_whatever_the_name_says() -> None:
    renamed = _text("08").replace("AMD Instinct MI300X", "AMD Instinct MI325X")  # the id is still 0x74a1
    sold = Sold(CATALOG.get("mi325x"), 8, IntraFabric.NVSWITCH)
    found = check(sold, [Log(1, "08", parse_log(renamed))], CATALOG)
    assert [(f.code, f.severity, f.title) for f in found] == [
        ("model-mismatch", Severity.CRITICAL, "MI300X reported, MI325X sold")
    ]


def test_cpx_partitions_without_ids_count_as_one_gpu_per_eight() -> None:
    parsed = parse_log(_text("08").replace("NPS1, SPX", "NPS1, CPX"))  # the older layout prints no partition id
    assert isinstance(parsed, RocmSmi) and parsed.physical == 1
    found = check(Sold(CATALOG.get("mi300x"), 8, IntraFabric.NVSWITCH), [Log(1, "08", parsed)], CATALOG)
    [mig] = [f for f in found if f.code == "mig"]
    assert mig.evidence[0] == "08: device 0 is compute partition CPX"
    assert "gpu-count" in [f.code for f in found]


def test_a_dcgm_failure_that_names_its_gpu_is_never_excused_as_an_internal_error() -> None:
    shared = INVENTORY.parent.parent / "shared" / "23-dcgmi-r3-a10g-targeted-power-gpu1-fail.txt"
    edited = shared.read_text().replace("GPU 1 Max power of 224.1 did not reach desire", "There was an internal error ")
    sold = Sold(CATALOG.get("h100-sxm5"), 4, IntraFabric.NVSWITCH)
    faults = [f for f in check(sold, [Log(1, "23", parse_log(edited))], CATALOG) if f.code == "hardware-fault"]
    assert [(f.severity, f.title) for f in faults] == [(Severity.CRITICAL, "DCGM: 1 failed, 1 skipped or warned")]


def test_a_message_naming_two_gpus_is_not_told_once() -> None:
    from quotetui.domain.verification.logs import once_per_gpu

    text = "NVLink between GPU 0 and GPU 1 is down, NVLink between GPU 2 and GPU 3 is down"
    assert once_per_gpu(text) == text
    assert once_per_gpu("x on GPU 0, x on GPU 0") == "x on GPU 0, x on GPU 0"  # the same GPU twice: left as is
