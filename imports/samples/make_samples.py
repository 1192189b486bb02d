"""Writes the sample raw logs in the tools' own formats (run from the repo root to regenerate).

Each folder is one trial machine; ``quotetui bench import imports/samples/<folder>/* --offer ID`` then
``quotetui bench check --offer ID`` shows what quotetui makes of it. The README lists what each shows.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
SMI_HEADER = (
    "index, name, uuid, pci.bus_id, memory.total [MiB], ecc.mode.current, "
    "ecc.errors.uncorrected.volatile.total, clocks.max.sm [MHz], clocks.sm [MHz], power.limit [W], "
    "power.draw [W], temperature.gpu, driver_version, mig.mode.current"
)
BUS = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]


def smi_query(
    name: str,
    mib: int,
    count: int = 8,
    *,
    units: bool = True,
    header: bool = True,
    ecc: tuple[int, ...] = (),
    mig: str = "Disabled",
    power: int = 700,
) -> str:
    lines = [SMI_HEADER] if header else []
    for i in range(count):
        mem = f"{mib} MiB" if units else str(mib)
        clocks = ("1980 MHz", "1980 MHz") if units else ("1980", "1980")
        watts = (f"{power}.00 W", f"{power * 0.1:.2f} W") if units else (f"{power}.00", f"{power * 0.1:.2f}")
        errors = str(ecc[i]) if i < len(ecc) else "0"
        lines.append(
            f"{i}, {name}, GPU-{i:08x}-4f1c-9a7e-{i:04x}-b51d2c3e{i:04x}, 00000000:{BUS[i % 8]}:00.0, {mem}, "
            f"Enabled, {errors}, {clocks[0]}, {clocks[1]}, {watts[0]}, {watts[1]}, {33 + i}, 550.90.07, {mig}"
        )
    return "\n".join(lines) + "\n"


def smi_list(name: str, count: int = 8, mig: tuple[str, ...] = ()) -> str:
    out = []
    for i in range(count):
        out.append(f"GPU {i}: {name} (UUID: GPU-{i:08x}-4f1c-9a7e-{i:04x}-b51d2c3e{i:04x})")
        for j, profile in enumerate(mig if i == 0 else ()):
            out.append(f"  MIG {profile:<14}Device  {j}: (UUID: MIG-{j:08x}-77a2-5b0e-9f1d-2c6a8e4b{j:04x})")
    return "\n".join(out) + "\n"


def topo(link: str | None, count: int = 8) -> str:
    """NVSwitch boards: ``link`` between every pair; None: a PCIe box (PIX within a switch, NODE within a
    socket, SYS across sockets)."""
    gpus = [f"GPU{i}" for i in range(count)]
    head = "\t" + "\t".join(gpus + ["NIC0", "NIC1", "CPU Affinity", "NUMA Affinity", "GPU NUMA ID"])
    rows = [head]
    for i in range(count):
        cells = []
        for j in range(count):
            if i == j:
                cells.append(" X ")
            elif link:
                cells.append(link)
            elif i // 2 == j // 2:
                cells.append("PIX")
            elif i // 4 == j // 4:
                cells.append("NODE")
            else:
                cells.append("SYS")
        socket = i // 4
        nic = ["PXB" if socket == 0 else "SYS", "SYS" if socket == 0 else "PXB"]
        cpus = "0-47,96-143" if socket == 0 else "48-95,144-191"
        rows.append(f"GPU{i}\t" + "\t".join(cells + nic + [cpus, str(socket), "N/A"]))
    for n in range(2):
        cells = ["PXB" if (i // 4) == n else "SYS" for i in range(count)]
        rows.append(f"NIC{n}\t" + "\t".join(cells + (["X", "SYS"] if n == 0 else ["SYS", "X"])))
    legend = """
Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks

NIC Legend:

  NIC0: mlx5_0
  NIC1: mlx5_1
"""
    return "\n".join(rows) + "\n" + legend


def _allreduce_rows(peak_busbw: float, ranks: int) -> list[tuple[int, int, float, float, float]]:
    """(size, count, time_us, algbw, busbw): latency plus size over the fabric's algorithm bandwidth."""
    factor = 2 * (ranks - 1) / ranks
    alg_peak = peak_busbw / factor
    rows = []
    for p in range(3, 34):
        size = 2**p
        time = 28.5 + size / (alg_peak * 1e3)
        alg = size / time / 1e3
        rows.append((size, size // 4, time, alg, alg * factor))
    return rows


def allreduce_text(
    peak_busbw: float,
    name: str,
    host: str = "gpu-node-01",
    ranks: int = 8,
    *,
    legacy: bool = False,
    chatter: bool = True,
    cut: int | None = None,
) -> str:
    out = [
        "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 "
        "agg iters: 1 validation: 1 graph: 0",
        "#",
        "# Using devices",
    ]
    for r in range(ranks):
        if legacy:
            out.append(f"#   Rank {r:2d} Pid {4100 + r:6d} on {host} device {r:2d} [0x{BUS[r % 8].lower()}] {name}")
        else:
            out.append(
                f"#  Rank {r:2d} Group  0 Pid {4100 + r:6d} on {host} device {r:2d} "
                f"[0000:{BUS[r % 8].lower()}:00] {name}"
            )
    if chatter:
        out.append(
            f"[{host}:04101] mca_base_component_repository_open: unable to open mca_btl_openib: "
            "librdmacm.so.1: cannot open shared object file (ignored)"
        )
    out.append("#")
    if legacy:
        out += [
            "#                                                     out-of-place                       in-place",
            "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error",  # noqa: E501
            "#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
        ]
    else:
        out += [
            "#                                                              out-of-place                       in-place",  # noqa: E501
            "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   "
            "busbw #wrong",
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  "
            "(GB/s)",
        ]
    rows = _allreduce_rows(peak_busbw, ranks)
    total = 0.0
    for i, (size, count, time, alg, bus) in enumerate(rows):
        t2, a2, b2 = time * 1.002, alg / 1.002, bus / 1.002
        total += (bus + b2) / 2
        if legacy:
            out.append(
                f"{size:12d}  {count:12d}   float     sum  {time:7.2f}  {alg:6.2f}  {bus:6.2f}  0e+00  "
                f"{t2:7.2f}  {a2:6.2f}  {b2:6.2f}  0e+00"
            )
        else:
            out.append(
                f"{size:12d}  {count:12d}     float     sum      -1  {time:7.2f}  {alg:6.2f}  {bus:6.2f}"
                f"      0  {t2:7.2f}  {a2:6.2f}  {b2:6.2f}      0"
            )
        if chatter and i == 12:
            out.append(f"{host}:4103:4190 [3] NCCL INFO comm 0x55d2c1a0 rank 3 nranks {ranks} - Init COMPLETE")
    out += [
        "# Out of bounds values : 0 OK",
        f"# Avg bus bandwidth    : {total / len(rows):.4f} ",
        "#",
    ]
    text = "\n".join(out) + "\n"
    return text if cut is None else text[:cut]


def allreduce_json(peak_busbw: float, name: str, host: str = "gpu-node-01", ranks: int = 8) -> str:
    rows = _allreduce_rows(peak_busbw, ranks)
    results = [
        {
            "size": size,
            "count": count,
            "type": "float",
            "redop": "sum",
            "root": -1,
            "out_of_place": {"time": round(time, 2), "alg_bw": round(alg, 2), "bus_bw": round(bus, 2), "nwrong": 0},
            "in_place": {
                "time": round(time * 1.002, 2),
                "alg_bw": round(alg / 1.002, 2),
                "bus_bw": round(bus / 1.002, 2),
                "nwrong": 0,
            },
            "actual_iterations": 20,
        }
        for size, count, time, alg, bus in rows
    ]
    data = {
        "version": 4,
        "args": ["./build/all_reduce_perf", "-b", "8", "-e", "8G", "-f", "2", "-g", "8", "-J", "ar.json"],
        "config": {
            "nthreads": 1,
            "ngpus": ranks,
            "minimum_bytes": 8,
            "maximum_bytes": 8589934592,
            "iterations": 20,
            "warmup_iters": 5,
            "validation": 1,
            "graph": 0,
            "devices": [{"rank": r, "device": r, "hostname": host, "name": name} for r in range(ranks)],
        },
        "results": results,
        "out_of_bounds": {"count": 0, "okay": "true"},
        "average_bus_bandwidth": round(sum(r[4] for r in rows) / len(rows), 4),
        "end_time": "2026-11-28T10:41:07Z",
    }
    return json.dumps(data, indent=1) + "\n"


def gemm(median: float, name: str) -> str:
    mean, top = median - 1.6, median + 7.3
    return f"""Benchmark started on 2026-11-28 10:12:03

** Command line:
/usr/bin/python ./mamf-finder.py --m_range 0 20480 1024 --n 4096 --k 4096 --output_file=./mamf.txt

** Dtype: torch.bfloat16

** Platform/Device info:
Linux gpu-node-01 5.15.0-105-generic #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024 x86_64
_CudaDeviceProperties(name='{name}', major=9, minor=0, total_memory=81008MB, multi_processor_count=132)

** Critical software versions:
torch=2.4.0+cu121
cuda=12.1

** Additional notes:
benchmark version: 2

--------------------------------------------------------------------------------

     20 |  {mean:6.1f}(mean)  {median:6.1f}(median)  {top:6.1f}(max) @ 12288x4096x4096     | best:  {mean:6.1f}(mean)  {median:6.1f}(median)  {top:6.1f}(max) TFLOPS

Tried  20 shapes => the best outcomes were:
mean:   {mean:.1f} TFLOPS @ 12288x4096x4096 (MxNxK)
median: {median:.1f} TFLOPS @ 12288x4096x4096 (MxNxK)
max:    {top:.1f} TFLOPS @ 12288x4096x4096 (MxNxK)

Elapsed time: 0:00:41
"""  # noqa: E501


def gpu_burn(name: str, faulty: tuple[int, ...] = (), count: int = 8, *, cut: bool = False) -> str:
    out = [f"GPU {i}: {name} (UUID: GPU-{i:08x}-4f1c-9a7e-{i:04x}-b51d2c3e{i:04x})" for i in range(count)]
    out += [
        f"Initialized device {i} with 81559 MB of memory (80800 MB available, using 72720 MB of it), "
        "using FLOATS, using Tensor Cores"
        for i in range(count)
    ]
    out.append("Results are 268435456 bytes each, thus performing 268 iterations")
    for pct in (25.0, 50.0, 75.0, 100.0):
        errors = " - ".join(("12" if i in faulty else "0") for i in range(count))
        procd = " - ".join(f"{int(pct * 51)} ({int(47000 + i * 90)} Gflop/s)" for i in range(count))
        out.append(
            f"{pct:.1f}%  proc'd: {procd}   errors: {errors}   temps: " + " - ".join("61 C" for _ in range(count))
        )
    if cut:
        return "\n".join(out) + "\n"
    out += ["Killing processes with SIGTERM (soft kill)"]
    out += [f"Freed memory for dev {i}" for i in range(count)]
    out += ["Uninitted cublas", "done", "", f"Tested {count} GPUs:"]
    out += [f"\tGPU {i}: {'FAULTY' if i in faulty else 'OK'}" for i in range(count)]
    return "\n".join(out) + "\n"


def dcgm(fail: bool = False) -> str:
    hardware = "| GPU Memory                | Pass - All                                     |\n" + (
        "| Diagnostic                | Fail - GPU: 5                                  |\n"
        "| Warning                   | GPU 5: Detected 12 double-bit ECC errors        |\n"
        if fail
        else "| Diagnostic                | Pass - All                                     |\n"
    )
    return f"""Successfully ran diagnostic for group.
+---------------------------+------------------------------------------------+
| Diagnostic                | Result                                         |
+===========================+================================================+
|-----  Metadata  ----------+------------------------------------------------|
| DCGM Version              | 3.3.5                                          |
| Driver Version Detected   | 550.90.07                                      |
| GPU Device IDs Detected   | 2330,2330,2330,2330,2330,2330,2330,2330        |
|-----  Deployment  --------+------------------------------------------------|
| Denylist                  | Pass                                           |
| NVML Library              | Pass                                           |
| CUDA Main Library         | Pass                                           |
| Permissions and OS Blocks | Pass                                           |
| Persistence Mode          | Pass                                           |
| Environment Variables     | Pass                                           |
| Page Retirement/Row Remap | Pass                                           |
| Graphics Processes        | Pass                                           |
| Inforom                   | Pass                                           |
+-----  Integration  -------+------------------------------------------------+
| PCIe                      | Pass - All                                     |
+-----  Hardware  ----------+------------------------------------------------+
{hardware}+-----  Stress  ------------+------------------------------------------------+
| Targeted Stress           | Pass - All                                     |
| Targeted Power            | Pass - All                                     |
| Memory Bandwidth          | Pass - All                                     |
+---------------------------+------------------------------------------------+
"""


H100 = "NVIDIA H100 80GB HBM3"
SAMPLES: dict[str, dict[str, str]] = {
    "h100-clean": {
        "smi-query.csv": smi_query(H100, 81559),
        "smi-query-noheader-nounits.csv": smi_query(H100, 81559, units=False, header=False),
        "smi-list.txt": smi_list(H100),
        "topo.txt": topo("NV18"),
        "all_reduce_perf.txt": allreduce_text(455.0, H100),
        "all_reduce_perf.json": allreduce_json(455.0, H100),
        "all_reduce_perf-legacy.txt": allreduce_text(455.0, H100, legacy=True, chatter=False),
        "gemm.txt": gemm(792.8, H100),
        "gpu_burn.txt": gpu_burn(H100),
        "dcgmi-diag.txt": dcgm(),
    },
    "pcie-as-sxm": {
        "smi-query.csv": smi_query("NVIDIA H100 PCIe", 81559, power=350),
        "topo.txt": topo(None),
        "all_reduce_perf.txt": allreduce_text(38.0, "NVIDIA H100 PCIe"),
    },
    "mig-slice": {
        "smi-query.csv": smi_query("NVIDIA A100-SXM4-80GB", 81920, count=1, mig="Enabled", power=400),
        "smi-list.txt": smi_list("NVIDIA A100-SXM4-80GB", count=1, mig=("1g.10gb",)),
    },
    "vgpu-guest": {
        "smi-query.csv": smi_query("GRID A100D-20C", 20480, count=1, power=400),
        "smi-list.txt": smi_list("GRID A100D-20C", count=1),
    },
    "h800-as-h100": {
        "smi-query.csv": smi_query("NVIDIA H800", 81559),
        "topo.txt": topo("NV8"),
    },
    "slow-gemm": {"gemm.txt": gemm(600.4, H100)},
    "low-busbw": {"all_reduce_perf.txt": allreduce_text(182.0, H100)},
    "faulty": {
        "gpu_burn.txt": gpu_burn(H100, faulty=(5,)),
        "dcgmi-diag.txt": dcgm(fail=True),
        "smi-query.csv": smi_query(H100, 81559, ecc=(0, 0, 0, 0, 0, 12)),
    },
}

BROKEN: dict[str, str] = {
    "all_reduce_perf-cut.txt": allreduce_text(455.0, H100, cut=3500),
    "gpu_burn-cut.txt": gpu_burn(H100, cut=True),
    "topo-cut.txt": "\n".join(topo("NV18").splitlines()[:5]) + "\n",
    "topo-garbled.txt": topo("NV18").replace("GPU3\tNV18\tNV18", "GPU3\tNV18\tNVI8", 1),
    "smi-query-garbled.csv": smi_query(H100, 81559).replace("81559 MiB", "8l559 MiB", 1),
    "smi-query-cut.csv": smi_query(H100, 81559)[:600],
    "smi-list-garbled.txt": smi_list(H100).replace("GPU 2: ", "GPU 2 ", 1),
    "gemm-cut.txt": gemm(792.8, H100).split("Tried")[0],
    "dcgmi-cut.txt": "\n".join(dcgm().splitlines()[:14]) + "\n",
    "all_reduce_perf-cut.json": allreduce_json(455.0, H100)[:1500],
    "all_reduce_perf-garbled.txt": allreduce_text(455.0, H100).replace("  430.", "  43O.", 1),
}


def main() -> None:
    for folder, files in SAMPLES.items():
        (HERE / folder).mkdir(exist_ok=True)
        for name, text in files.items():
            (HERE / folder / name).write_text(text, encoding="utf-8")
    broken = HERE.parent.parent / "tests" / "fixtures" / "benchlogs"
    broken.mkdir(parents=True, exist_ok=True)
    for name, text in BROKEN.items():
        (broken / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
