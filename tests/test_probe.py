"""The portable probe: written by ``quotetui probe --write``, run with the standard library alone against
fake ``nvidia-smi`` and ``all_reduce_perf`` executables that print the sample logs; its bundle imports whole."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from quotetui.io.benchlogs.smi import QUERY_FIELDS
from tests.conftest import Cli

SAMPLES = Path(__file__).parent.parent / "imports" / "samples"


def _fake_bin(tmp_path: Path, folder: str, *, smi_exit: int = 0) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    src = SAMPLES / folder
    query = "--query-gpu=" + ",".join(QUERY_FIELDS)
    smi = bin_dir / "nvidia-smi"
    if smi_exit:
        smi.write_text(
            "#!/bin/sh\necho 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'\n"
            f"exit {smi_exit}\n"
        )
    else:
        smi.write_text(
            "#!/bin/sh\n"
            'case "$1" in\n'
            f'  {query}) [ "$2" = "--format=csv" ] || exit 1; cat "{src}/smi-query.csv" ;;\n'
            f'  -L) cat "{src}/smi-list.txt" ;;\n'
            f'  topo) cat "{src}/topo.txt" ;;\n'
            '  *) echo "unexpected arguments: $*" >&2; exit 1 ;;\n'
            "esac\n"
        )
    nccl = tmp_path / "nccl-tests" / "build"
    nccl.mkdir(parents=True)
    (nccl / "all_reduce_perf").write_text(
        f'#!/bin/sh\n[ "$7" = "-g" ] && [ "$8" = "8" ] || exit 1\ncat "{src}/all_reduce_perf.txt"\n'
    )
    for exe in (smi, nccl / "all_reduce_perf"):
        exe.chmod(0o755)
    return bin_dir


def _run_probe(script: Path, bin_dir: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(out.parent)}
    # -I -S: no site-packages, no user environment: the probe must need the standard library alone
    return subprocess.run(
        [sys.executable, "-I", "-S", str(script), "--out", str(out), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=out.parent,
        timeout=120,
        check=False,
    )


@pytest.fixture
def probe_script(cli: Cli, tmp_path: Path) -> Path:
    target = tmp_path / "probe.py"
    result = cli("probe", "--write", str(target))
    assert result.code == 0, result.err
    assert os.access(target, os.X_OK)
    return target


def test_probe_source_is_python_38_and_standard_library_only(probe_script: Path) -> None:
    tree = ast.parse(probe_script.read_text(), feature_version=(3, 8))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
    assert "quotetui" not in imported


def test_write_refuses_to_overwrite_without_force(cli: Cli, probe_script: Path) -> None:
    probe_script.write_text("mine")
    result = cli("probe", "--write", str(probe_script))
    assert result.code == 2 and "--force" in result.err
    assert probe_script.read_text() == "mine"
    assert cli("probe", "--write", str(probe_script), "--force").code == 0
    assert "quotetui_probe" in probe_script.read_text()


def test_probe_bundle_from_fake_tools_imports_whole(
    cli: Cli, probe_script: Path, tmp_path: Path, demo_db_path: Path
) -> None:
    bin_dir = _fake_bin(tmp_path, "h100-clean")
    out = tmp_path / "bundle.json"
    proc = _run_probe(probe_script, bin_dir, out, "--nccl", str(tmp_path / "nccl-tests"))
    assert proc.returncode == 0, proc.stderr
    bundle = json.loads(out.read_text())
    records = {r["name"]: r for r in bundle["commands"]}
    assert records["nvidia-smi query"]["stdout"] == (SAMPLES / "h100-clean" / "smi-query.csv").read_text()
    assert records["nccl-tests all_reduce_perf"]["returncode"] == 0
    assert records["gemm sweep"].get("skipped")  # torch is not importable under -S
    assert "gemm sweep" in proc.stdout and "skipped" in proc.stdout

    result = cli("--db", str(demo_db_path), "bench", "import", str(out), "--offer", "1", "--json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["added"] == 4
    assert [log["tool"] for log in report["logs"]] == [
        "nvidia-smi query",
        "nvidia-smi -L",
        "nvidia-smi topo -m",
        "nccl-tests all_reduce_perf",
    ]
    assert any(line.startswith("gemm sweep:") for line in report["not_run"])
    check = json.loads(cli("--db", str(demo_db_path), "bench", "check", "--offer", "1", "--json").out)
    assert {f["code"] for f in check["findings"]} == {"implausible-claim"}  # the claims, nothing from the machine
    hosts = {log["host"] for log in check["logs"]}
    assert hosts == {bundle["host"]}


def test_probe_of_a_pcie_box_shows_the_findings(
    cli: Cli, probe_script: Path, tmp_path: Path, demo_db_path: Path
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("smi-query.csv", "topo.txt", "all_reduce_perf.txt"):
        (src / name).write_text((SAMPLES / "pcie-as-sxm" / name).read_text())
    (src / "smi-list.txt").write_text("".join(f"GPU {i}: NVIDIA H100 PCIe (UUID: GPU-{i:08x})\n" for i in range(8)))
    bin_dir = _fake_bin(tmp_path, "pcie-as-sxm")
    # the pcie sample has no -L output: point the fake at the folder written above
    smi = bin_dir / "nvidia-smi"
    smi.write_text(smi.read_text().replace(str(SAMPLES / "pcie-as-sxm"), str(src)))
    out = tmp_path / "pcie.json"
    proc = _run_probe(probe_script, bin_dir, out, "--no-gemm", "--nccl", str(tmp_path / "nccl-tests" / "build"))
    assert proc.returncode == 0, proc.stderr
    assert cli("--db", str(demo_db_path), "bench", "import", str(out), "--offer", "18").code == 0
    check = json.loads(cli("--db", str(demo_db_path), "bench", "check", "--offer", "18", "--json").out)
    assert {f["code"] for f in check["findings"]} == {"pcie-topology", "model-mismatch", "allreduce-low"}


def test_missing_or_failing_tools_are_recorded_not_fatal(cli: Cli, probe_script: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    out = tmp_path / "nothing.json"
    proc = _run_probe(probe_script, empty, out, "--no-gemm", "--nvidia-smi", "nvidia-smi-not-here")
    assert proc.returncode == 0, proc.stderr
    bundle = json.loads(out.read_text())
    assert [r.get("skipped") for r in bundle["commands"][:3]] == ["nvidia-smi-not-here not found"] * 3
    result = cli("--db", str(tmp_path / "x.db"), "bench", "import", str(out), "--offer", "1")
    assert result.code == 2 and "holds no tool output" in result.err and "nvidia-smi-not-here not found" in result.err

    (tmp_path / "b").mkdir()
    broken = _fake_bin(tmp_path / "b", "h100-clean", smi_exit=9)
    out = tmp_path / "failed.json"
    proc = _run_probe(probe_script, broken, out, "--no-gemm")
    assert proc.returncode == 0
    query = json.loads(out.read_text())["commands"][0]
    assert query["returncode"] == 9 and "could not communicate" in query["stdout"]
    assert "failed: exit status 9" in proc.stdout


EVIDENCE = Path(__file__).parent / "fixtures" / "benchlogs"


def test_probe_runs_nvbandwidth_and_ib_write_bw_when_on_path(
    cli: Cli, probe_script: Path, tmp_path: Path, demo_db_path: Path
) -> None:
    bin_dir = _fake_bin(tmp_path, "h100-clean")
    nvbw = bin_dir / "nvbandwidth"  # answers only the testcases the probe asks for
    nvbw.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        '  *"-t device_to_device_memcpy_read_ce"*"-t device_to_device_bidirectional_memcpy_read_ce"*)\n'
        f'    cat "{EVIDENCE / "nvbandwidth-h100-d2d-read.txt"}" ;;\n'
        '  *) echo "unexpected arguments: $*" >&2; exit 1 ;;\n'
        "esac\n"
    )
    ib = bin_dir / "ib_write_bw"  # the server prints its banner; the client (to localhost) the results
    ib.write_text(
        "#!/bin/sh\n"
        'case "$*" in\n'
        f'  "-d mlx5_0 -a -F --report_gbits localhost") cat "{EVIDENCE / "ib_write_bw-roce-mlx5_0.txt"}" ;;\n'
        '  "-d mlx5_0 -a -F --report_gbits") echo "* Waiting for client to connect... *" ;;\n'
        '  *) echo "unexpected arguments: $*" >&2; exit 1 ;;\n'
        "esac\n"
    )
    for exe in (nvbw, ib):
        exe.chmod(0o755)
    out = tmp_path / "bundle.json"
    proc = _run_probe(probe_script, bin_dir, out, "--no-gemm", "--ib-dev", "mlx5_0", "--timeout", "60")
    assert proc.returncode == 0, proc.stderr
    records = {r["name"]: r for r in json.loads(out.read_text())["commands"]}
    assert records["nvbandwidth"]["returncode"] == 0
    assert records["nvbandwidth"]["argv"][1:] == [
        "-t",
        "host_to_device_memcpy_ce",
        "-t",
        "device_to_host_memcpy_ce",
        "-t",
        "device_to_device_memcpy_read_ce",
        "-t",
        "device_to_device_bidirectional_memcpy_read_ce",
    ]
    loop = records["ib_write_bw"]
    assert loop["returncode"] == 0 and loop["argv"][-1] == "localhost"
    assert "not the network" in loop["loopback"] and "Waiting for client" in loop["server_stdout"]
    assert loop["stdout"] == (EVIDENCE / "ib_write_bw-roce-mlx5_0.txt").read_text()

    result = cli("--db", str(demo_db_path), "bench", "import", str(out), "--offer", "2", "--json")
    assert result.code == 0, result.err
    tools = [log["tool"] for log in json.loads(result.out)["logs"]]
    assert tools[-2:] == ["nvbandwidth", "ib_write_bw"]

    # without the tools (or without an RDMA device) each is recorded as skipped, with the reason
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    out = tmp_path / "none.json"
    assert _run_probe(probe_script, empty, out, "--no-gemm", "--ib-dev", "mlx5_0").returncode == 0
    skipped = {r["name"]: r.get("skipped") for r in json.loads(out.read_text())["commands"]}
    assert (skipped["nvbandwidth"], skipped["ib_write_bw"]) == ("nvbandwidth not found", "ib_write_bw not found")
    out = tmp_path / "no-nic.json"
    proc = _run_probe(probe_script, bin_dir, out, "--no-gemm", "--no-nvbandwidth")
    skipped = {r["name"]: r.get("skipped") for r in json.loads(out.read_text())["commands"]}
    assert skipped["nvbandwidth"] == "not asked (--no-nvbandwidth)"
    if not Path("/sys/class/infiniband").is_dir():  # a machine with RDMA devices would pick the first
        assert skipped["ib_write_bw"] == "no RDMA device in /sys/class/infiniband (give --ib-dev)"


@pytest.mark.parametrize(
    ("version", "said"),
    [
        (2, "probe bundle version 2 was written by a newer probe (this quotetui reads up to version 1)"),
        ("1", "probe bundle's 'quotetui_probe' is not a version number ('1')"),
        (True, "probe bundle's 'quotetui_probe' is not a version number ('True')"),
        (0, "probe bundle's 'quotetui_probe' is not a version number ('0')"),
    ],
)
def test_a_bundle_of_a_version_this_quotetui_does_not_read_is_refused_whole(
    cli: Cli, tmp_path: Path, demo_db_path: Path, version: object, said: str
) -> None:
    """The probe writes its bundle's version (``quotetui_probe``): a bundle of a later probe may mean its
    commands differently, so it is refused with what to do, and nothing is recorded."""
    from tests.conftest import probe_bundle

    path = probe_bundle(tmp_path, "gpu-a", [SAMPLES / "h100-clean" / "smi-list.txt"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["quotetui_probe"] = version
    path.write_text(json.dumps(data), encoding="utf-8")
    before = cli("--db", str(demo_db_path), "bench", "check", "--offer", "1", "--json").out
    result = cli("--db", str(demo_db_path), "bench", "import", str(path), "--offer", "1")
    assert result.code == 2 and said in result.err, result.err
    assert cli("--db", str(demo_db_path), "bench", "check", "--offer", "1", "--json").out == before
    data["quotetui_probe"] = 1  # the version this quotetui's probe writes: read
    path.write_text(json.dumps(data), encoding="utf-8")
    assert cli("--db", str(demo_db_path), "bench", "import", str(path), "--offer", "1").code == 0
