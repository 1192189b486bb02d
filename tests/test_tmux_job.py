"""A whole buying job driven from the keyboard in a real terminal (tmux), as a buyer would do it:
a new provider → an offer from its quote → two more rounds (our counter, their new price) → compare →
sign → an incident → export. Every step is typed; the screen is read back, then the database and the
exported workbook are checked for what was typed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from openpyxl import load_workbook

from quotetui.domain.fields import Field
from quotetui.domain.timeutil import utcnow

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"),
    pytest.mark.sqlite_only,  # the terminal runs the app on a file
    pytest.mark.slow,
]


class Terminal:
    """A tmux session on a server of its own (``-L``): another tmux on the machine (a developer's, a parallel
    test's) cannot resize its window or share its keys."""

    def __init__(self, session: str) -> None:
        self.session = session

    def tmux(self, *args: str) -> list[str]:
        return ["tmux", "-L", self.session, *args]

    def screen(self) -> str:
        out = subprocess.run(self.tmux("capture-pane", "-p", "-t", self.session), capture_output=True, text=True)
        return out.stdout

    def wait_for(self, *needles: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if all(n in screen for n in needles):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{needles} not on screen after {timeout}s:\n{screen}")

    def opened(self, *needles: str) -> str:
        """Wait for a screen or dialog to show, then for it to take the focus (a key pressed before that
        goes to the screen underneath)."""
        screen = self.wait_for(*needles)
        time.sleep(0.8)
        return screen

    def save(self, form: str, said: str) -> str:
        """Ctrl+S, then wait for the form (its title) to close and for one more notice saying ``said``."""
        before = self.screen().count(said)
        self.press("C-s")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            screen = self.screen()
            if form not in screen and screen.count(said) > before:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{form!r} still open or {said!r} not said:\n{self.screen()}")

    def press(self, *keys: str, pause: float = 0.25) -> None:
        for key in keys:
            subprocess.run(self.tmux("send-keys", "-t", self.session, key), check=True)
            time.sleep(pause)

    def type(self, text: str) -> None:
        """Type ``text`` into the focused field and wait until it shows."""
        subprocess.run(self.tmux("send-keys", "-t", self.session, "-l", text), check=True)
        self.wait_for(text, timeout=10)

    def choose(self, option: str) -> None:
        """Pick ``option`` in the focused drop-down: open it, move down to it, Enter."""
        self.press("Enter", pause=0.4)
        lines = self.wait_for(option).splitlines()
        blank = next(i for i, line in enumerate(lines) if "Select" in line and "▲" not in line and "▼" not in line)
        target = next(i for i, line in enumerate(lines) if option in line)
        self.press(*["Down"] * (target - blank), pause=0.2)
        self.press("Enter", pause=0.8)  # the list closes before the next key


def _tabs(fields: tuple[Field, ...], after: str, to: str) -> list[str]:
    """The Tab presses from one field of a form to another, in the form's order."""
    names = [f.name for f in fields]
    return ["Tab"] * (names.index(to) - names.index(after))


def test_a_whole_job_from_the_keyboard(demo_db_path: Path, tmp_path: Path) -> None:
    from quotetui.services.contract_view import load_contracts
    from quotetui.services.database import open_database
    from quotetui.services.editing import offer_form

    session = f"quotetui-job-{os.getpid()}"
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    env.pop("QUOTETUI_DB", None)
    for size in ("COLUMNS", "LINES"):  # the terminal's own size, not a runner's (pytest-xdist's workers set 80x24)
        env.pop(size, None)
    command = f"cd {tmp_path} && {sys.executable} -m quotetui --db {demo_db_path}; echo EXITED=$?; sleep 30"
    t = Terminal(session)
    subprocess.run(t.tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command), env=env, check=True)
    offer_fields = tuple(offer_form(open_database(str(demo_db_path)).db).fields)
    today = utcnow().date()
    start, incident = today - timedelta(days=30), today - timedelta(days=20)
    try:
        t.wait_for("Best per GPU model")

        # a new provider, from the command palette
        t.press("C-p", pause=0.5)
        t.type("New provider")
        t.press("Enter")
        t.opened("Name *")
        t.type("算力云")
        t.save("New provider", "Saved provider 算力云")

        # its offer, from the offers table: provider, name, GPU, then the quoted price
        t.press("o")
        t.opened("sorted by")
        t.press("n")
        t.opened("New offer")
        t.choose("算力云")
        t.press("Tab")
        t.type("8×H100 裸金属")
        t.press("Tab")
        t.type("H100 SXM")
        t.press(*_tabs(offer_fields, "gpu", "amount"))
        t.type("160000")
        screen = t.save("New offer", "Saved offer 8×H100 裸金属")
        offer_id = int(screen.split("Saved offer 8×H100 裸金属 (#")[1].split(")")[0])

        # two more rounds on the offer's screen: our counter, then the provider's new price
        t.press("C-p", pause=0.5)
        t.type(f"offer #{offer_id}")
        t.press("Enter")
        t.opened(f"#{offer_id} 算力云")
        for key, form, price in (("k", "Our counter-offer", "140000"), ("a", "Provider's new offer", "150000")):
            t.press(key)
            t.opened(form)
            t.press("Tab", "Tab")  # who moved, when, then the price (selected: typing replaces it)
            t.type(price)
            t.save(form, f"Saved a new round of offer #{offer_id}")
        t.press("3")
        negotiation = t.wait_for("current round 3 (provider)")
        assert "6.25 % saved" in negotiation  # (160,000 − 150,000) ÷ 160,000

        # pinned and compared
        t.press("space", "c")
        compare = t.wait_for(f"#{offer_id} 算力云", "Cost per delivered PFLOP-hour")
        assert "150,000" in compare

        # signed a month ago, at the provider's last price
        t.press("C-p", pause=0.5)
        t.type(f"offer #{offer_id}")
        t.press("Enter")
        t.opened(f"#{offer_id} 算力云")
        t.press("S")
        t.opened("Term, months")
        t.type(start.isoformat())  # the start date is the first field, its text selected
        t.save("Term, months", "signed")

        # an outage on the contract's screen
        t.press("r")
        t.wait_for("Key dates")
        t.press("Enter")
        t.opened("Incidents (i adds one)")
        t.press("i")
        t.opened("What happened")
        t.type(f"{incident.isoformat()}T08:00+08:00")
        t.press("Tab")
        t.type(f"{incident.isoformat()}T12:00+08:00")
        t.press("Tab", "Tab")
        t.type("节点宕机")
        t.save("What happened", "Saved: Incident on contract")

        # the workbook, into the folder the app was started in
        t.press("C-e")
        t.opened("Export to Excel")
        t.press("Enter")
        t.wait_for("Wrote", timeout=60)
        t.press("Escape", "q")
        t.wait_for("EXITED=0")
    finally:
        subprocess.run(t.tmux("kill-server"), capture_output=True)

    db = open_database(str(demo_db_path)).db
    (view,) = [v for v in load_contracts(db, utcnow()) if v.contract.offer_id == offer_id]
    assert view.contract.start_date == start and view.contract.gpu_count == 8
    assert view.contract.price == 150000  # the provider's last round, not our counter
    assert [i.description for i in view.incidents] == ["节点宕机"]
    # 08:00–12:00 at +08:00 is 00:00–04:00 UTC: four hours down in the incident's month
    (month,) = [m for m in view.months if m.month == incident.replace(day=1)]
    assert month.downtime_hours == 4
    (written,) = tmp_path.glob("quotetui-*.xlsx")
    book = load_workbook(written, read_only=True)
    offers = [row for row in book["Offers"].iter_rows(values_only=True) if "8×H100 裸金属" in row]
    assert offers, "the new offer is in the Offers sheet"
    contracts = [row for row in book["Contracts"].iter_rows(values_only=True) if "算力云" in row]
    assert contracts, "the signed contract is in the Contracts sheet"
