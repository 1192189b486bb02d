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


def _start_app(
    session: str, db: Path, home: Path, width: int, height: int, *, then: str, program: str = "-m quotetui"
) -> None:
    """quotetui on ``db`` in a new tmux session of that size, with its own home folder; ``then`` runs after
    it in the same shell (``; echo EXITED=$?; sleep 30`` shows its exit status); ``program``: what Python runs."""
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "TERM": "xterm-256color"}
    for name in ("COLUMNS", "LINES"):  # the session's size, not a runner's (pytest-xdist's workers set 80x24)
        env.pop(name, None)
    command = f"{sys.executable} {program} --db {db}{then}"
    size = ["-x", str(width), "-y", str(height)]
    subprocess.run(["tmux", "new-session", "-d", "-s", session, *size, command], env=env, check=True)


def test_the_app_runs_in_a_real_terminal(demo_db_path: Path, tmp_path: Path) -> None:
    session = f"quotetui-smoke-{os.getpid()}"
    _start_app(session, demo_db_path, tmp_path, 100, 30, then="; echo EXITED=$?; sleep 30")
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


def _app_pid(session: str) -> int:
    shell = subprocess.run(
        ["tmux", "list-panes", "-t", session, "-F", "#{pane_pid}"], capture_output=True, text=True, check=True
    ).stdout.split()[0]
    children = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True).stdout.split()
    assert children, "the app is not running"
    return int(children[0])


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":  # ended, not yet reaped by its shell
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("when", ["at the first frame", "once the offers show"])
def test_a_closed_terminal_ends_the_app(demo_db_path: Path, tmp_path: Path, when: str) -> None:
    """Closing the terminal (SIGHUP) while the market is still loading, or once it is shown, ends the app: it
    must not live on without a terminal (it once did, its terminal threads spinning on the dead terminal)."""
    session = f"quotetui-hangup-{os.getpid()}"
    _start_app(session, demo_db_path, tmp_path, 120, 40, then="; sleep 30")
    try:
        _wait_for(session, "quotetui") if when == "at the first frame" else _wait_for(session, "Best per GPU model")
        pid = _app_pid(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    assert _gone(pid, timeout=15), f"quotetui ({pid}) still running after its terminal closed"


def test_sigterm_ends_the_app_with_its_status(demo_db_path: Path, tmp_path: Path) -> None:
    session = f"quotetui-term-{os.getpid()}"
    _start_app(session, demo_db_path, tmp_path, 120, 40, then="; echo EXITED=$?; sleep 30")
    try:
        _wait_for(session, "Best per GPU model")
        os.kill(_app_pid(session), 15)
        _wait_for(session, "EXITED=143", timeout=15)  # 128 + SIGTERM, the terminal given back
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


SLOW_RANKING = (
    "-c 'import time; import quotetui.services.economics as s; real = s.evaluate; "
    "s.evaluate = lambda *a: (time.sleep(0.5), real(*a))[1]; s.EVERY = 1; "
    "from quotetui.launch import main; main()'"
)
"""quotetui whose ranking takes 10 s on the demo's 20 offers (half a second an offer, checked after each)."""


def test_quitting_while_the_market_loads_ends_at_once(demo_db_path: Path, tmp_path: Path) -> None:
    """`q` while the offers are still being ranked gives the terminal back at once: the loading worker stops
    at its next check (``domain/cancel.py``) instead of ranking on, unseen, for the rest of its work."""
    session = f"quotetui-quit-{os.getpid()}"
    _start_app(session, demo_db_path, tmp_path, 120, 40, then="; echo EXITED=$?; sleep 30", program=SLOW_RANKING)
    try:
        _wait_for(session, "quotetui")
        pid = _app_pid(session)
        time.sleep(1.0)  # ranking: a few offers in, many to go
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        pressed = time.monotonic()
        assert _gone(pid, timeout=15), "quotetui still running 15 s after q"
        assert time.monotonic() - pressed < 3.0  # the ranking alone had ~8 s to go
        _wait_for(session, "EXITED=0", timeout=5)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
