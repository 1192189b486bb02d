"""A bug never closes the app without a word: a failed worker is shown in a dialog and the app goes on; a crash
the app cannot survive ends the process with a non-zero status."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.widgets import Static

from quotetui.tui import workers
from quotetui.tui.dialogs.error import DEBUG_HINT, ErrorDialog
from quotetui.tui.screens.offer_detail import OfferDetailScreen
from tests.test_tui import RecordingApp, plain, settle

TUI_PACKAGE = Path(__file__).parents[1] / "quotetui" / "tui"


def _broken_detail(*args: object, **kwargs: object) -> object:
    raise KeyError("price_unit")


async def test_a_failed_offer_detail_load_shows_a_dialog_and_the_app_goes_on(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("QUOTETUI_DEBUG", raising=False)
    monkeypatch.setattr("quotetui.tui.screens.offer_detail.load_offer_detail", _broken_detail)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        shown = plain(app.screen.query_one("#error-message", Static).content)
        assert "Loading the offer failed" in plain(app.screen.query_one(".dialog-title").render())
        assert "KeyError" in shown and "price_unit" in shown
        assert DEBUG_HINT in plain(app.screen.query_one("#error-hint", Static).content)
        assert not app.screen.query("#error-details")  # no traceback without QUOTETUI_DEBUG
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, OfferDetailScreen)
        await pilot.press("escape")
        await pilot.press("o")  # the app still answers keys
        await settle(pilot)
        assert app.screen.id != "_default" and app.return_code is None
    assert app.return_code in (None, 0)


async def test_the_traceback_is_shown_with_quotetui_debug(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUOTETUI_DEBUG", "1")
    monkeypatch.setattr("quotetui.tui.screens.offer_detail.load_offer_detail", _broken_detail)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.open_offer(1)
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        details = plain(app.screen.query_one("#error-details Static", Static).content)
        assert "Traceback" in details and "_broken_detail" in details


async def test_a_user_error_in_a_worker_is_a_notification_not_a_bug(demo_db_path: Path) -> None:
    from quotetui.domain.errors import QuotetuiError

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen

        @workers.background(group="detail")
        def fails(self: object) -> None:
            raise QuotetuiError("offer #1 was deleted by another program")

        fails(screen)
        for _ in range(20):
            await pilot.pause(0.05)
        assert not isinstance(app.screen, ErrorDialog)
        assert ("offer #1 was deleted by another program", "error") in app.told


def test_every_tui_worker_goes_through_background() -> None:
    """Textual's @work exits the app on an error by default; every worker here is started by background()."""
    offenders = [
        f"{path.relative_to(TUI_PACKAGE)}:{n}"
        for path in TUI_PACKAGE.rglob("*.py")
        if path.name != "workers.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "@work" in line or "run_worker(" in line
    ]
    assert offenders == []


CRASHING = """
import sys
from quotetui.tui.app import QuotetuiApp

def boom(self):
    raise RuntimeError("a bug in a key handler")

QuotetuiApp.action_help = boom
from quotetui.cli import main
main(sys.argv[1:])
"""


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_a_crash_ends_the_process_with_a_non_zero_status(demo_db_path: Path, tmp_path: Path) -> None:
    script = tmp_path / "crashing.py"
    script.write_text(CRASHING, encoding="utf-8")
    status = tmp_path / "status"
    session = f"quotetui-crash-{os.getpid()}"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    command = f"{sys.executable} {script} --db {demo_db_path}; echo $? > {status}; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", command], env=env, check=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True)
            if "Best per GPU model" in screen.stdout:
                break
            time.sleep(0.2)
        subprocess.run(["tmux", "send-keys", "-t", session, "F1"], check=True)
        while time.monotonic() < deadline and not status.exists():
            time.sleep(0.2)
        assert status.read_text().strip() == "1"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
