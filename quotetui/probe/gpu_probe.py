#!/usr/bin/env python3
"""quotetui GPU probe: what a trial machine really is, in one JSON bundle.

Copy this one file to the machine on trial and run it there (Python 3.8+, standard library only):

    python3 probe.py                           # nvidia-smi queries, -L, topo -m, a BF16 GEMM sweep if torch is there
    python3 probe.py --nccl ~/nccl-tests/build # also all_reduce_perf from nccl-tests, on every GPU
    python3 probe.py --out trial.json --no-gemm
    python3 probe.py --ib-peer node2           # ib_write_bw against `ib_write_bw -d DEV -a -F --report_gbits` on node2

nvbandwidth (host<->GPU and GPU<->GPU copies) and ib_write_bw run whenever they are on PATH. Without --ib-peer,
ib_write_bw runs as a loopback pair on this host: it shows the NIC, its link type and MTU, and what its PCIe path
carries, not the network between nodes.

Then, on your own machine: ``quotetui bench import trial.json --offer ID`` and ``quotetui bench check --offer ID``.
Every command's raw output is kept verbatim; a missing tool is recorded, never fatal. Nothing is sent anywhere.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import time
from typing import Any

BUNDLE_KEY = "quotetui_probe"
BUNDLE_VERSION = 1
QUERY_FIELDS = (
    "index",
    "name",
    "uuid",
    "pci.bus_id",
    "memory.total",
    "ecc.mode.current",
    "ecc.errors.uncorrected.volatile.total",
    "clocks.max.sm",
    "clocks.sm",
    "power.limit",
    "power.draw",
    "temperature.gpu",
    "driver_version",
    "mig.mode.current",
)

GEMM_CODE = r"""
import statistics, sys
try:
    import torch
except ImportError:
    print("SKIP: torch is not installed"); sys.exit(3)
if not torch.cuda.is_available():
    print("SKIP: torch sees no CUDA GPU"); sys.exit(3)
dev = torch.cuda.get_device_properties(0)
print("** Dtype: torch.bfloat16")
print("Device: " + dev.name)
shapes = [(m, 4096, 4096) for m in (4096, 8192, 12288, 16384)] + [(8192, 8192, 8192)]
best = {}
for m, n, k in shapes:
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(10):
        torch.mm(a, b)
    torch.cuda.synchronize()
    runs = []
    for _ in range(ITERS):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(); torch.mm(a, b); end.record(); torch.cuda.synchronize()
        runs.append(2 * m * n * k / (start.elapsed_time(end) / 1000) / 1e12)
    shape = "%dx%dx%d" % (m, n, k)
    figures = {"mean": statistics.mean(runs), "median": statistics.median(runs), "max": max(runs)}
    print("%s | %.1f(mean) %.1f(median) %.1f(max) TFLOPS" % (shape, figures["mean"], figures["median"], figures["max"]))
    for stat, value in figures.items():
        if value > best.get(stat, (0, ""))[0]:
            best[stat] = (value, shape)
print("")
print("Tried %d shapes => the best outcomes were:" % len(shapes))
for stat in ("mean", "median", "max"):
    print("%s %.1f TFLOPS @ %s (MxNxK)" % ((stat + ":").ljust(7), best[stat][0], best[stat][1]))
"""


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def _text(data: bytes | None) -> str:
    return data.decode("utf-8", errors="replace") if data else ""


def run(name: str, argv: list[str], timeout: int) -> dict[str, Any]:
    """Runs one command and records it whole; a missing tool or a timeout is a record, not an error."""
    record: dict[str, Any] = {"name": name, "argv": list(argv)}
    exe = argv[0] if os.path.sep in argv[0] else shutil.which(argv[0])
    if not exe or not os.access(exe, os.X_OK):
        record["skipped"] = f"{argv[0]} not found"
        return record
    started = time.time()
    try:
        proc = subprocess.run([exe, *argv[1:]], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        record.update(error=f"timed out after {timeout}s", stdout=_text(exc.stdout), returncode=None)
        return record
    except OSError as exc:
        record.update(error=str(exc), returncode=None)
        return record
    record.update(
        returncode=proc.returncode,
        stdout=_text(proc.stdout),
        stderr=_text(proc.stderr)[-20000:],
        seconds=round(time.time() - started, 3),
    )
    if proc.returncode == 3 and record["stdout"].startswith("SKIP:"):
        record["skipped"] = record["stdout"][5:].strip()
    return record


def _gpu_count(records: list[dict[str, Any]]) -> int:
    listed: dict[str, Any] = next((r for r in records if r["name"] == "nvidia-smi -L"), {})
    lines = (listed.get("stdout") or "").splitlines()
    return sum(1 for line in lines if line.startswith("GPU ")) or 1


NVBANDWIDTH_TESTCASES = (
    "host_to_device_memcpy_ce",
    "device_to_host_memcpy_ce",
    "device_to_device_memcpy_read_ce",
    "device_to_device_bidirectional_memcpy_read_ce",
)
IB_WRITE_BW_ARGS = ["-a", "-F", "--report_gbits"]  # every message size to 8 MiB, in Gb/s; -F: no CPU-clock warning
LOOPBACK = "server and client on this host: it measures this NIC and its PCIe path, not the network"


def _rdma_device(chosen: str | None) -> str | None:
    """The RDMA device to test: the one asked for, else the first in /sys/class/infiniband."""
    if chosen:
        return chosen
    try:
        names = sorted(os.listdir("/sys/class/infiniband"))
    except OSError:
        return None
    return names[0] if names else None


def run_ib_write_bw(exe_name: str, device: str | None, peer: str | None, timeout: int) -> dict[str, Any]:
    """ib_write_bw against ``peer`` (where the buyer started the server), else a loopback pair on this host: the
    server in the background, the client to localhost; the client's output is the record's, the server's kept."""
    name = "ib_write_bw"
    exe = exe_name if os.path.sep in exe_name else shutil.which(exe_name)
    if not exe or not os.access(exe, os.X_OK):
        return {"name": name, "argv": [exe_name], "skipped": f"{exe_name} not found"}
    if device is None:
        return {"name": name, "argv": [exe_name], "skipped": "no RDMA device in /sys/class/infiniband (give --ib-dev)"}
    base = [exe, "-d", device, *IB_WRITE_BW_ARGS]
    if peer:
        return run(name, [*base, peer], timeout)
    try:
        server = subprocess.Popen(base, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as exc:
        return {"name": name, "argv": base, "error": str(exc), "returncode": None}
    time.sleep(1)  # the server listens before the client connects
    record = run(name, [*base, "localhost"], timeout)
    try:
        served, _ = server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        served, _ = server.communicate()
    record.update(loopback=LOOPBACK, server_stdout=_text(served)[-20000:], server_returncode=server.returncode)
    return record


def _nccl_binary(path: str) -> str:
    path = os.path.expanduser(path)
    if os.path.isdir(path):
        for candidate in (os.path.join(path, "all_reduce_perf"), os.path.join(path, "build", "all_reduce_perf")):
            if os.path.exists(candidate):
                return candidate
        return os.path.join(path, "all_reduce_perf")
    return path


def probe(args: argparse.Namespace) -> dict[str, Any]:
    bundle: dict[str, Any] = {
        BUNDLE_KEY: BUNDLE_VERSION,
        "host": socket.gethostname(),
        "started_at": _now(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commands": [],
    }
    commands: list[dict[str, Any]] = bundle["commands"]
    smi = args.nvidia_smi
    commands.append(run("nvidia-smi query", [smi, "--query-gpu=" + ",".join(QUERY_FIELDS), "--format=csv"], 60))
    commands.append(run("nvidia-smi -L", [smi, "-L"], 60))
    commands.append(run("nvidia-smi topo -m", [smi, "topo", "-m"], 60))
    if args.no_gemm:
        commands.append({"name": "gemm sweep", "argv": [], "skipped": "not asked (--no-gemm)"})
    else:
        code = GEMM_CODE.replace("ITERS", str(args.gemm_iters))
        commands.append(run("gemm sweep", [sys.executable, "-c", code], args.timeout))
    if args.nccl:
        argv = [_nccl_binary(args.nccl), "-b", "8", "-e", "8G", "-f", "2", "-g", str(_gpu_count(commands))]
        commands.append(run("nccl-tests all_reduce_perf", argv, args.timeout))
    else:
        commands.append({"name": "nccl-tests all_reduce_perf", "argv": [], "skipped": "not asked (--nccl PATH)"})
    if args.no_nvbandwidth:
        commands.append({"name": "nvbandwidth", "argv": [], "skipped": "not asked (--no-nvbandwidth)"})
    else:
        argv = [args.nvbandwidth] + [arg for case in NVBANDWIDTH_TESTCASES for arg in ("-t", case)]
        commands.append(run("nvbandwidth", argv, args.timeout))
    if args.no_ib:
        commands.append({"name": "ib_write_bw", "argv": [], "skipped": "not asked (--no-ib)"})
    else:
        commands.append(run_ib_write_bw(args.ib_write_bw, _rdma_device(args.ib_dev), args.ib_peer, args.timeout))
    bundle["finished_at"] = _now()
    return bundle


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Collect raw GPU facts into one JSON bundle for quotetui.")
    parser.add_argument("--out", help="bundle file (default: probe-HOST-TIME.json in this folder)")
    parser.add_argument("--nccl", metavar="PATH", help="nccl-tests build folder or all_reduce_perf binary")
    parser.add_argument("--no-gemm", action="store_true", help="skip the torch BF16 GEMM sweep")
    parser.add_argument("--gemm-iters", type=int, default=50, help="timed matmuls per shape (default 50)")
    parser.add_argument(
        "--timeout", type=int, default=900, help="seconds allowed for each GEMM, NCCL, nvbandwidth, ib_write_bw run"
    )
    parser.add_argument("--nvidia-smi", default="nvidia-smi", help="the nvidia-smi to run (default: from PATH)")
    parser.add_argument("--nvbandwidth", default="nvbandwidth", help="the nvbandwidth to run (default: from PATH)")
    parser.add_argument("--no-nvbandwidth", action="store_true", help="skip nvbandwidth")
    parser.add_argument("--ib-write-bw", default="ib_write_bw", help="the ib_write_bw to run (default: from PATH)")
    parser.add_argument("--ib-dev", help="RDMA device for ib_write_bw (default: the first in /sys/class/infiniband)")
    parser.add_argument("--ib-peer", metavar="HOST", help="run ib_write_bw against a server on HOST, not a loopback")
    parser.add_argument("--no-ib", action="store_true", help="skip ib_write_bw")
    args = parser.parse_args(argv)
    bundle = probe(args)
    out = args.out or f"probe-{bundle['host']}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(bundle, handle, indent=1, ensure_ascii=False)
        handle.write("\n")
    for record in bundle["commands"]:
        if record.get("skipped"):
            state = "skipped: " + record["skipped"]
        elif record.get("returncode") == 0:
            state = f"ok ({record.get('seconds')} s)"
        else:
            state = "failed: " + (record.get("error") or f"exit status {record.get('returncode')}")
        print(f"{record['name']:<28} {state}")
    print(f"wrote {out}; import it with: quotetui bench import {out} --offer ID")
    return 0


if __name__ == "__main__":
    sys.exit(main())
