"""A plain, non-editable install finds its migrations and demo data (package data, not the checkout)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("quotetui-*.whl")
    return built


def test_wheel_carries_migrations_demo_and_styles(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "quotetui/_data/db/env.py" in names
    assert "quotetui/_data/db/versions/0001_initial.py" in names
    assert "quotetui/_data/imports/demo/providers/01_yiwan.toml" in names
    assert "quotetui/_data/imports/demo/sources/000_b3150208b455060b.txt" in names
    assert "quotetui/tui/app.tcss" in names
    assert "quotetui/locale/zh_CN/LC_MESSAGES/quotetui.mo" in names  # compiled catalogs ship; no build step
    assert not any(n.startswith(("tests/", "db/", "imports/")) for n in names)


@pytest.mark.slow
def test_fresh_non_editable_install_runs_the_demo(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # dependencies come from this environment's site-packages (a path entry: its .pth files, such as an
    # editable install of quotetui itself, are not processed)
    site = Path(
        subprocess.run(
            [str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "outer_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "QUOTETUI_DB")}
    env["HOME"] = str(tmp_path / "home")
    env["XDG_DATA_HOME"] = str(tmp_path / "home" / "data")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(bin_dir / "quotetui"), *args], cwd=work, env=env, capture_output=True, text=True, timeout=120
        )

    where = subprocess.run(
        [
            str(bin_dir / "python"),
            "-c",
            "import quotetui, quotetui.resources as r; "
            "print(quotetui.__file__); print(r.migrations_dir()); print(r.demo_dir())",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(str(venv) in line for line in where), where

    demo = run("--db", "t.db", "demo")
    assert demo.returncode == 0, demo.stderr
    providers = json.loads(run("--db", "t.db", "providers", "--json").stdout)
    assert {"一万网络", "阿里云"} <= {p["name"] for p in providers}
    offers = json.loads(run("--db", "t.db", "offers", "--json").stdout)
    assert len(offers) >= 15
    assert run("--version").stdout.startswith("quotetui ")
    check = run("--db", "t.db", "db", "check")
    assert check.returncode == 0 and "up to date" in check.stdout
    env["LANG"] = "zh_CN.UTF-8"  # the installed catalog, chosen by the locale
    for var in ("QUOTETUI_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(var, None)
    chinese = run("--help")
    assert chinese.returncode == 0 and chinese.stdout.startswith("用法：quotetui"), chinese.stdout
