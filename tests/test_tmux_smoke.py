"""Smoke test: the real app in a real terminal (tmux) on the demo database; we read the screen."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")


def _screen(session: str) -> str:
    return subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout


def _wait_for(session: str, *needles: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _screen(session)
        if all(n in screen for n in needles):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{needles} not on screen after {timeout}s:\n{screen}")


def test_the_app_runs_in_a_real_terminal(demo_db_path: Path, tmp_path: Path) -> None:
    session = f"quotetui-smoke-{os.getpid()}"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    command = f"{sys.executable} -m quotetui --db {demo_db_path}; echo EXITED=$?; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command], env=env, check=True)
    try:
        # the offers' cards first, the claims' after them ("checking claims and findings…" meanwhile)
        dashboard = _wait_for(session, "Best per GPU model", "Red flags", "impossible")
        assert "13.70" in dashboard and "checking" not in dashboard
        subprocess.run(["tmux", "send-keys", "-t", session, "o"], check=True)
        offers = _wait_for(session, "· sorted by Rank", "腾讯云")
        assert "20 of 20 offers" in offers
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        _wait_for(session, "EXITED=0")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
