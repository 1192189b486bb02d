"""Snapshot tests of every screen and dialog at 80x24, 120x40 and 200x60 (SVG, compared with tests/__snapshots__),
in English, and of the main screens in Chinese (``test_zh_cn``: the same keys, the catalog's zh-CN words laid out
by terminal cells).

The demo database is copied to a fixed path and the app's "today" is fixed, so the pictures only change
when the screens do. Update after a deliberate change with `pytest tests/test_snapshots.py --snapshot-update`
and look at the SVGs before committing them.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from quotetui import language
from quotetui.tui.app import QuotetuiApp

pytestmark = pytest.mark.sqlite_only  # the pictures show the SQLite file in the header

FIXED = Path(tempfile.gettempdir()) / "quotetui-snapshots" / "demo.db"
SIZES = [(80, 24), (120, 40), (200, 60)]
PIN_FOUR = ("o", "space", "down", "space", "down", "space", "down", "space")
OFFERS = ("o", "space", "down", "space")  # two offers pinned
COMPARE = ("o", "space", "down", "space", "down", "space", "c")  # three pinned, compared
OFFER = ("o", "down", "down", "enter")  # the third offer's detail (#2 一万网络, two rounds of negotiation)
TABS = {"spec": "1", "pricing": "2", "negotiation": "3", "sla": "4", "benchmarks": "5", "contract": "6"}
NEW_OFFER = ("o", "n")
HELP = ("o", "f1")


@pytest.fixture(autouse=True)
def steady_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """What changes with time alone is held still. An input's cursor blinks every half second; on a loaded
    machine the picture was taken in either half (CI failed once on the export dialog's cursor alone): it is
    kept as focus shows it, visible."""
    from textual.widgets import Input

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    # the 3-second poll for other programs' writes: a picture must not depend on whether it ran before the
    # picture was taken (a second test run's copy of the database, before the lock below, made it speak)
    monkeypatch.setattr(QuotetuiApp, "POLL_SECONDS", 3600.0)


@pytest.fixture
def app(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[QuotetuiApp]:
    """The app on a copy of the demo at ``FIXED``, held for the test: the path is in the pictures, so two test
    runs on one machine (a second checkout, a CI run beside a developer's) share it, and one's copy replaced
    the other's database under its running app. The lock makes the second wait."""
    import fcntl

    FIXED.parent.mkdir(parents=True, exist_ok=True)
    with open(FIXED.parent / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        monkeypatch.chdir(FIXED.parent)  # the export dialog proposes a file in the current folder
        for old in FIXED.parent.glob("demo.db*"):
            old.unlink()
        shutil.copy(demo_db_path, FIXED)
        yield QuotetuiApp(str(FIXED), today=date(2026, 11, 30))


@pytest.fixture
def app_with_contract(app: QuotetuiApp) -> QuotetuiApp:
    """The demo with one signed contract (offer #2), so that the contract screens have something to show."""
    from tests.conftest import run_cli

    signed = run_cli("--db", str(FIXED), "contracts", "add", "--offer", "2", "--start", "2026-01-31",
                     "--term-months", "12", "--notice-days", "30", "--reference", "YW-H100-01")  # fmt: skip
    assert signed.code == 0, signed.output
    return app


@pytest.fixture
def app_with_rfq(app: QuotetuiApp) -> QuotetuiApp:
    """The demo with the README's RFQ sent to two providers, one of which declined."""
    from tests.conftest import run_cli

    db = str(FIXED)
    made = run_cli("--db", db, "rfq", "new", "H100 256", "--gpu", "H100 SXM5,H800 SXM5", "--gpus", "256",
                   "--months", "12", "--start", "2027-01-01", "--min-availability", "99.5", "--inter-fabric",
                   "infiniband_ndr", "--respond-by", "2026-12-20")  # fmt: skip
    assert made.code == 0, made.output
    out = str(FIXED.parent / "rfq")
    sent = run_cli("--db", db, "rfq", "send", "H100 256", "-p", "一万网络", "-p", "华为云", "--out", out,
                   "--force")  # fmt: skip
    assert sent.code == 0, sent.output
    assert run_cli("--db", db, "rfq", "decline", "H100 256", "-p", "华为云").code == 0
    from tests.conftest import execute

    execute(FIXED, "UPDATE rfq_invite SET sent_at = '2026-11-29 09:00:00.000000'")  # the picture's day, not today's
    return app


def keys(*presses: str, then: str | None = None):  # type: ignore[no-untyped-def]
    """Press ``presses`` once the market is loaded, each followed by the work it starts; ``then``: an app action
    with no key of its own (Settings is in the command palette) to run last."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        for key in presses:
            await pilot.press(key)
            for _ in range(2):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()
        if then is not None:
            getattr(pilot.app, f"action_{then}")()
            for _ in range(3):
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_dashboard(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_offers(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*OFFERS))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_compare(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*COMPARE))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_offer_pricing(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*OFFER, TABS["pricing"]))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_negotiation(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*OFFER, TABS["negotiation"]))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_rent_vs_buy(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("b"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_compare_four_pins(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Four pins: at 80 columns a page of two and the 'offers 1–2 of 4 →' line; from 120 all four."""
    assert snap_compare(app, terminal_size=size, run_before=keys(*PIN_FOUR, "c"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_compare_next_page(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*PIN_FOUR, "c", "right_square_bracket"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_training(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("t"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    "tab", [TABS[t] for t in ("spec", "sla", "benchmarks", "contract")], ids=["spec", "sla", "benchmarks", "contract"]
)
def test_offer_tabs(snap_compare, app: QuotetuiApp, size: tuple[int, int], tab: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*OFFER, tab))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_contracts(snap_compare, app_with_contract: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_with_contract, terminal_size=size, run_before=keys("r"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_contract_detail(snap_compare, app_with_contract: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_with_contract, terminal_size=size, run_before=keys("r", "enter"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*HELP))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_scenario_picker(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("s"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_new_offer_form(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(*NEW_OFFER))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_settings_form(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys(then="settings"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_import_dialog(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("ctrl+o"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_export_dialog(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app, terminal_size=size, run_before=keys("ctrl+e"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fx_rates(snap_compare, app: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    from quotetui.services.database import open_database
    from quotetui.services.fx import add_rate

    opened = open_database(str(FIXED))
    add_rate(opened.db, "USD", "CNY", "7.1234", "2026-11-28", "PBOC central parity", today=date(2026, 11, 30))
    add_rate(opened.db, "EUR", "CNY", "7.6", "2026-11-02", "中国人民银行", today=date(2026, 11, 30))
    opened.db.dispose()
    assert snap_compare(app, terminal_size=size, run_before=keys(then="fx_rates"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_sourcing(snap_compare, app_with_rfq: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_with_rfq, terminal_size=size, run_before=keys("f"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_send_rfq_dialog(snap_compare, app_with_rfq: QuotetuiApp, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app_with_rfq, terminal_size=size, run_before=keys("f", "p"))


CHINESE = {
    "dashboard": ("app", ()),
    "offers": ("app", OFFERS),
    "compare": ("app", COMPARE),
    **{f"offer_{tab}": ("app", (*OFFER, TABS[tab])) for tab in ("spec", "pricing", "negotiation", "sla", "benchmarks")},
    "sourcing": ("app_with_rfq", ("f",)),
    "contracts": ("app_with_contract", ("r",)),
    "new_offer_form": ("app", NEW_OFFER),
    "help": ("app", HELP),
}
"""The screens pictured in Chinese too (the fixture that makes the app, the keys pressed, as the English tests
press them): where Chinese words, twice as wide per character, meet the narrowest layouts. Not every English
picture: each costs the suite a few seconds."""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(CHINESE))
def test_zh_cn(
    snap_compare: Callable[..., bool],
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    screen: str,
    size: tuple[int, int],
) -> None:
    fixture, presses = CHINESE[screen]
    monkeypatch.setenv("QUOTETUI_LANG", "zh-CN")  # the command lines the fixtures run choose the language again
    language.use("zh-CN")  # before the app is made: it words its title as it is made
    app = request.getfixturevalue(fixture)
    assert language.current() == "zh-CN"
    assert snap_compare(app, terminal_size=size, run_before=keys(*presses))
