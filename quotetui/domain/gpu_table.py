"""The built-in catalog rows: one ``GpuSpec`` per model, datasheet figures dense (no sparsity).

NVIDIA figures are the datasheets' (DESIGN.md section 4.1 for the first thirteen). ``A100 40GB PCIe`` is there
because nvidia-smi reports it (``NVIDIA A100-PCIE-40GB``) and it must not be mistaken for the SXM part.

``pci_device_ids`` are the PCI device ids of vendor 10de as DCGM prints them under "GPU Device IDs Detected"
(``2330``), each confirmed in NVIDIA's list of supported products with their PCI ids (the "Compatible GPUs"
table of NVIDIA/open-gpu-kernel-modules' README, which names them as nvidia-smi does) and in the pci.ids
database (pciutils/pciids); another vendor's id is written with its vendor (``1002:74a1``, AMD's MI300X, as
rocm-smi and lspci show it). A model without a confirmed id has none. Huawei's NPUs are PCI vendor 19e5, and
no id of theirs is confirmed, so they carry none.

Huawei publishes no per-variant datasheet for the Ascend 910B or 910C. Their rows carry the figures published
elsewhere, each named where it is given; a figure nobody published for the part (FP8: neither has FP8 units;
FP64) is None. They are ``module`` (an OAM-class mezzanine module, not NVIDIA's SXM) with the HCCS interconnect
in ``nvlink_gbs`` and ``nvlink_note`` saying so, which keeps the NVLink rules (AllReduce floor, NVLink share of
a claim) off them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from quotetui.domain.enums import FormFactor
from quotetui.language import N_, _

VIA_BRIDGE = N_("via bridge")
"""``nvlink_note`` of a PCIe card whose NVLink joins it to one other card by a bridge (stored as this English
code, compared in the rules; shown through :func:`nvlink_note_word`)."""


def nvlink_note_word(note: str) -> str:
    """A GPU's ``nvlink_note`` as people read it: the bridge in the language in use (``经桥接器``); a vendor's
    interconnect (``HCCS``, ``Infinity Fabric``) is its name, as typed."""
    return _(VIA_BRIDGE) if note == VIA_BRIDGE else note


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
    nvlink_gbs: int | None  # per GPU, bidirectional; None: no NVLink (or the interconnect nvlink_note names)
    nvlink_note: str  # "", VIA_BRIDGE, or a vendor's interconnect that is not NVLink ("HCCS")
    tdp_w: int
    topo_signature: str | None  # bonded NVLinks between two GPUs in `nvidia-smi topo -m`, e.g. NV18
    consumer: bool = False
    smi_names: tuple[str, ...] = ()  # the names nvidia-smi (or npu-smi, for an NPU) reports
    smi_memory_mib: int | None = None  # memory.total as nvidia-smi (npu-smi: HBM total) reports it, where known
    aliases: tuple[str, ...] = field(default=())
    pci_device_ids: tuple[str, ...] = ()  # lower-case 4-hex PCI device ids (vendor 10de), where confirmed

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
    pci: tuple[str, ...] = (),
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
        pci,
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
        pci=("20b0",),
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
        pci=("20b2",),
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
        VIA_BRIDGE,
        300,
        None,
        ("NVIDIA A100 80GB PCIe",),
        81920,
        ("A100 PCIe 80GB", "A100-PCIE-80GB", "A100 80G PCIe"),
        pci=("20b5",),
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
        VIA_BRIDGE,
        250,
        None,
        ("NVIDIA A100-PCIE-40GB",),
        40960,
        ("A100 PCIe 40GB", "A100-PCIE-40GB", "A100 40G PCIe"),
        pci=("20f1", "20b1"),  # 20f1 in NVIDIA's list; pci.ids names 20b1 "A100 PCIe 40GB" too
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
        pci=("2330",),
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
        VIA_BRIDGE,
        350,
        None,
        ("NVIDIA H100 PCIe",),
        None,
        ("H100 PCIe 80GB", "H100-PCIE-80GB", "H100-PCIE"),
        pci=("2331",),
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
        VIA_BRIDGE,
        400,
        None,
        ("NVIDIA H100 NVL",),
        None,
        ("H100 NVL 94GB", "H100-NVL-94GB"),
        pci=("2321",),
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
        pci=("2324",),
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
        "NV18",  # 900 GB/s = 18 NVLink 4 links, as on HGX H100; a 2 x H20 node recorded NV18 between its GPUs
        ("NVIDIA H20",),
        97871,  # nvidia-smi memory.total on H20 nodes (published environment records)
        ("H20 96GB", "H20 SXM", "HGX H20"),
        pci=("2329",),
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
        143771,  # nvidia-smi -q "FB Memory Usage Total" (public/inventory/02)
        ("H200", "H200 141GB", "H200 SXM5", "H200-SXM-141GB", "HGX H200"),
        pci=("2335",),
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
        "NV18",  # 18 NVLink 5 links; HGX B200 nodes show NV18 (unslothai/unsloth#3872, vllm-project/vllm#31594)
        ("NVIDIA B200",),
        183359,
        ("B200 SXM", "B200 180GB", "HGX B200"),
        pci=("2901",),  # 2909 is also named NVIDIA B200 but is another memory size (pci.ids: HGX B200 168GB)
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
        pci=("26b9",),
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
        pci=("2684",),
    ),
    # The models below were added after the first release, at the end so the first thirteen keep their ids.
    _spec(
        "a800-80gb-sxm4",
        "A800 80GB SXM4",  # an A100 80GB SXM4 with NVLink cut to 400 GB/s (8 links: NV8) for China
        "sxm",
        80,
        "HBM2e",
        "2.039",
        "312",
        None,
        "9.7",
        400,
        "",
        400,
        "NV8",
        ("NVIDIA A800-SXM4-80GB",),
        81920,
        (
            "A800 SXM4 80GB",
            "A800-SXM4-80GB",
            "A800 80GB SXM",
            "A800 SXM4",
            "A800 SXM",
            "A800 80GB",
            "A800-80GB",
            "A800 80G",
            "HGX A800",
        ),
        pci=("20f3",),
    ),
    _spec(
        "a800-80gb-pcie",
        "A800 80GB PCIe",
        "pcie",
        80,
        "HBM2e",
        "1.935",
        "312",
        None,
        "9.7",
        400,
        VIA_BRIDGE,
        300,
        None,
        ("NVIDIA A800 80GB PCIe", "NVIDIA A800 80GB PCIe LC"),
        81920,
        ("A800 PCIe 80GB", "A800-PCIE-80GB", "A800 PCIe", "A800 80G PCIe"),
        pci=("20f5",),
    ),
    _spec(
        "h800-pcie",
        "H800 PCIe",
        "pcie",
        80,
        "HBM2e",
        "2.0",
        "756",
        "1513",
        "0.8",
        400,
        VIA_BRIDGE,
        350,
        None,
        ("NVIDIA H800 PCIe",),
        81559,
        ("H800 PCIe 80GB", "H800-PCIE-80GB", "H800-PCIE", "H800 80G PCIe"),
        pci=("2322",),
    ),
    _spec(
        "l20",
        "L20",
        "pcie",
        48,
        "GDDR6",
        "0.864",
        "119.5",
        "239",
        None,
        None,
        "",
        275,
        None,
        ("NVIDIA L20",),
        46068,  # with ECC on; 49140 MiB with ECC off, within the nominal 48 GB's tolerance
        ("L20 48GB", "L20 48G"),
        pci=("26ba", "26b7"),
    ),
    _spec(
        "l40",
        "L40",
        "pcie",
        48,
        "GDDR6",
        "0.864",
        "181.05",
        "362",
        None,
        None,
        "",
        300,
        None,
        ("NVIDIA L40",),
        46068,
        ("L40 48GB", "L40 48G"),
        pci=("26b5",),
    ),
    _spec(
        "rtx-4090d",
        "RTX 4090 D",
        "pcie",
        24,
        "GDDR6X",
        "1.008",
        # NVIDIA publishes no tensor TFLOPS for the 4090 D: 114 of the 4090's 128 SMs at the same 2.52 GHz boost
        # (its spec page: 14,592 CUDA cores, 425 W) give 165.2 x 114/128 = 147.1 (its 1,177 AI TOPS are the
        # 4090's 1,321 x 114/128 too). FP8 and FP64 are not published for it: None.
        "147.1",
        None,
        None,
        None,
        "",
        425,
        None,
        ("NVIDIA GeForce RTX 4090 D",),
        None,
        ("RTX 4090D", "GeForce RTX 4090 D", "GeForce RTX 4090D", "RTX4090D", "4090D", "4090 D"),
        consumer=True,
        pci=("2685",),
    ),
    _spec(
        "gb200",
        "GB200",
        # the Blackwell GPU of a GB200 superchip (GB200 NVL72): not on an SXM socket but on the superchip board,
        # NVLink-switched like one, hence sxm. Figures per GPU: the NVL72 datasheet's totals / 72 (BF16 360 and
        # FP8 720 PFLOPS sparse, FP64 3,240 TFLOPS, 13.4 TB HBM3e at 576 TB/s, 130 TB/s NVLink).
        "sxm",
        186,
        "HBM3e",
        "8.0",
        "2500",
        "5000",
        "45",
        1800,
        "",
        1200,  # no per-GPU TDP in the NVL72 datasheet; 1,200 W is the GPU power limit GB200 nodes report
        "NV18",  # the 4 GPUs of a compute tray: NV18 (NVIDIA/k8s-test-infra#371)
        ("NVIDIA GB200",),
        189471,
        # "HGX GB200": the CUDA device name nvbandwidth prints on GB200 NVL72 trays (NVIDIA's cloud-native-docs,
        # gpu-operator/dra-cds.rst: "Process 0 (…): device 0: HGX GB200 (00000008:01:00)")
        ("GB200 NVL72", "GB200 NVL", "GB200 186GB", "HGX GB200"),
        pci=("2941",),
    ),
    # Huawei Ascend (npu-smi, not nvidia-smi). BF16 = FP16 on the cube units. The variant figures are the table
    # of mitsea.com's "华为昇腾 Ascend 910B 一览" (2025-03: 910B1 414T, 910B2 376T, 910B3 313T, 910B4 280T,
    # 64/64/64/32 GB), consistent with the 48 AI cores of a 910B1/B2 and the 40 of a 910B3 in CANN's platform
    # tables (376 x 40/48 = 313) and with the 376 TFLOPS per die of the 910C in Huawei's CloudMatrix384 paper
    # (arXiv 2506.12708). HCCS: 7 links of 56 GB/s to the other 7 NPUs of an Atlas 800T A2 = 392 GB/s, and the
    # 400 W module power, as arthurchiao.art's "GPU Performance (Data Sheets) Quick Reference" gives them.
    # Memory bandwidth: 1.6 TB/s per 64 GB die, from the CloudMatrix384 paper (910C: 3.2 TB/s, 2 dies): not a
    # 910B datasheet figure. The 910B4 (32 GB, Atlas 800I A2) is left out: no bandwidth or power is published.
    _spec(
        "ascend-910b3",
        "Ascend 910B3",
        "module",
        64,
        "HBM2e",
        "1.6",
        "313",
        None,
        None,
        392,
        "HCCS",
        400,
        None,
        ("910B3",),
        65536,  # HBM total as npu-smi prints it (MB, 64 x 1024)
        ("Ascend910B3", "昇腾910B3"),
    ),
    _spec(
        "ascend-910b2",
        "Ascend 910B2",
        "module",
        64,
        "HBM2e",
        "1.6",
        "376",
        None,
        None,
        392,
        "HCCS",
        400,
        None,
        ("910B2", "910B2C"),
        65536,
        ("Ascend910B2", "Ascend910B2C", "Ascend 910B2C", "昇腾910B2"),
    ),
    _spec(
        "ascend-910b1",
        "Ascend 910B1",
        "module",
        64,
        "HBM2e",
        "1.6",
        "414",
        None,
        None,
        392,
        "HCCS",
        400,
        None,
        ("910B1",),
        65536,
        ("Ascend910B1", "昇腾910B1"),
    ),
    _spec(
        "ascend-910c",
        "Ascend 910C",
        # two 910B-class dies in one module (npu-smi lists each NPU as two chips, name Ascend910, 2 x 65536 MB):
        # the figures are per module, as Atlas A3 servers count NPUs. CloudMatrix384 paper: 752 TFLOPS dense
        # BF16 (2 x 376), 128 GB at 3.2 TB/s; Huawei Connect 2025 keynote: 784 GB/s interconnect (2.5 times less
        # than the Ascend 950's 2 TB/s). No FP8 (the 950 is the first Ascend with it). Huawei publishes no
        # power: 800 W is two dies at the 910B's 400 W, an estimate.
        "module",
        128,
        "HBM2e",
        "3.2",
        "752",
        None,
        None,
        784,
        "HCCS",
        800,
        None,
        ("Ascend910",),
        131072,
        (
            "910C",
            "Ascend910C",
            "昇腾910C",
            "Ascend910_9391",
            "Ascend910_9392",
            "Ascend910_9381",
            "Ascend910_9382",
        ),
    ),
    # Issue 32's parts, each figure from tests/fixtures/benchlogs/public/inventory/PEAKS.md (which quotes its
    # sources: AMD's and Intel's datasheets through stas00/ml-engineering's tables, NVIDIA's Blackwell datasheet,
    # torchtitan's peak table, the pci.ids database). AMD's and Habana's PCI ids carry their vendor (1002, 1da3):
    # DCGM never prints them, rocm-smi and lspci do. The GB10 (DGX Spark) is left out: NVIDIA publishes no dense
    # BF16 figure for it (third parties estimate ~100 TFLOPS).
    _spec(
        "b300",
        "B300",
        "sxm",
        288,
        "HBM3e",
        "8.0",
        "2250",
        "4500",
        None,
        1800,
        "",
        1100,
        "NV18",
        ("NVIDIA B300 SXM6 AC",),
        None,
        ("B300 SXM", "B300 288GB", "HGX B300", "B300 SXM6"),
        pci=("3182",),
    ),
    _spec(
        "h20-141gb",
        "H20 141GB",
        "sxm",
        141,
        "HBM3e",
        "4.8",
        "148",
        "296",
        "1",
        900,
        "",
        400,
        "NV18",
        (),  # nvidia-smi names it NVIDIA H20 too: the memory size tells it apart (FAMILIES)
        None,
        ("H20 141G", "H20 HBM3e"),
        pci=("232c",),
    ),
    _spec(
        "mi300x",
        "MI300X",
        "module",  # an OAM module on an Infinity Fabric baseboard: no NVLink, so the NVLink rules leave it alone
        192,
        "HBM3",
        "5.3",
        "1307.4",  # AMD's figure (torchtitan rounds it to 1300)
        "2614.9",
        "163.4",
        896,  # 7 Infinity Fabric links of 128 GB/s to the other 7 GPUs of a platform
        "Infinity Fabric",
        750,
        None,
        ("AMD Instinct MI300X",),
        196592,  # rocm-smi --showmeminfo vram: 206,141,652,992 B (public/inventory/09)
        ("Instinct MI300X", "MI300X OAM"),
        pci=("1002:74a1",),
    ),
    _spec(
        "mi325x",
        "MI325X",
        "module",
        256,
        "HBM3e",
        "6.0",
        "1307.4",
        "2614.9",
        "163.4",
        896,
        "Infinity Fabric",
        1000,
        None,
        ("AMD Instinct MI325X",),
        None,
        ("Instinct MI325X",),
        pci=("1002:74a5",),
    ),
    _spec(
        "mi355x",
        "MI355X",
        "module",
        288,
        "HBM3e",
        "8.0",
        "2500",
        "5000",
        "78.6",
        1075,  # 7 Infinity Fabric links of 153.6 GB/s
        "Infinity Fabric",
        1400,
        None,
        ("AMD Instinct MI355X",),
        None,
        ("Instinct MI355X",),
        pci=("1002:75a3",),
    ),
    _spec(
        "gaudi2",
        "Gaudi 2",
        "module",
        96,
        "HBM2e",
        "2.46",
        "432",
        "865",
        None,
        600,  # 24 on-chip 100 GbE RoCE ports: 300 GB/s each way
        "RoCE",
        600,
        None,
        ("HL-225",),
        98304,  # hl-smi (public/inventory/12)
        ("Gaudi2", "Intel Gaudi 2", "HL-225"),
        pci=("1da3:1020",),
    ),
    _spec(
        "gaudi3",
        "Gaudi 3",
        "module",
        128,
        "HBM2e",
        "3.7",
        "1835",  # Intel's white paper; shipping parts run the MME at 1,600 MHz: 1,677 (stas00/ml-engineering)
        "1835",
        None,
        1200,  # 24 on-chip 200 GbE RoCE ports: 600 GB/s each way
        "RoCE",
        900,
        None,
        ("HL-325L", "HL-325"),
        131072,  # hl-smi (public/inventory/13)
        ("Gaudi3", "Intel Gaudi 3"),
        pci=("1da3:1060",),
    ),
)
