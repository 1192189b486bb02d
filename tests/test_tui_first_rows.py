"""The offers first: the table shows as soon as the offers are ranked, the dashboard's cards after (issue 16).

The claims, findings and contracts come in a second step (``complete_market_view``); until then the cells
that depend on them say ``pending`` and the cards say they are being checked; if that step fails they say
so. Figure columns sort by exact integer places (``order_keys``), never by Fractions on the UI thread: the
order must be the exact Fractions' order, ties and missing figures included.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from textual.widgets import Input

import quotetui.services.market_view as market_view
from quotetui.tui.dialogs.error import ErrorDialog
from quotetui.tui.offer_rows import FIGURES, at, order_keys
from quotetui.tui.widgets.virtual_table import VirtualTable
from tests.conftest import Cli, execute
from tests.test_tui import RecordingApp, settle, text_of


async def until(pilot, condition: Callable[[], bool], seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    """Let the app run until ``condition`` holds (a worker may be blocked on purpose, so no waiting for it)."""
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never got there")


def held(monkeypatch: pytest.MonkeyPatch, step: str) -> threading.Event:
    """``market_view.STEP`` (``load_offers_view``: the offers; ``complete_market_view``: the cards) waits for
    the returned event: the test sees the app, and presses keys, before that step is done."""
    release = threading.Event()
    real = getattr(market_view, step)

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(market_view, step, slow)
    return release


def held_cards(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    return held(monkeypatch, "complete_market_view")


def column(table: VirtualTable, key: str) -> list[str]:
    return [row.cells[at(key)] for row in table.view_rows]


async def test_the_offers_show_before_the_cards(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = held_cards(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None)
        assert not app.market.cards_ready and not app.loading  # type: ignore[union-attr]
        assert "checking claims and findings…" in text_of(app, "#flags")
        assert "checking claims and findings…" in text_of(app, "#findings")
        assert "H100 SXM5" in text_of(app, "#best")  # the ranking's own cards are there already
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(VirtualTable)
        assert len(table.view_rows) == 20
        assert table.view_rows[0].cells[:3] == ["1", "18", "腾讯云"]  # the same first row as when complete
        assert set(column(table, "verification")) == {"pending"}
        assert all(
            "pending" in f for f, row in zip(column(table, "flags"), table.view_rows, strict=True) if row.sort[0]
        )
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        assert "pending" not in column(table, "verification")
        assert not any("pending" in f for f in column(table, "flags"))
        assert table.view_rows[0].cells[:3] == ["1", "18", "腾讯云"]
        await pilot.press("d")
        await pilot.pause()
        flags = text_of(app, "#flags")
        assert "impossible" in flags and "547 % MFU" in flags and "checking" not in flags


async def test_cards_that_fail_say_so_and_leave_the_offers(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the claims audit broke")

    monkeypatch.setattr(market_view, "complete_market_view", broken)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_failed is not None)
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog)  # the bug's details, as for any other
        await pilot.press("escape")
        await pilot.pause()
        flags = text_of(app, "#flags")
        assert "could not be checked" in flags and "the claims audit broke" in flags
        assert "checking" not in flags
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(VirtualTable)
        assert len(table.view_rows) == 20 and table.view_rows[0].cells[:2] == ["1", "18"]
        assert set(column(table, "verification")) == {"unknown"}
        await pilot.press("r")
        await pilot.pause()
        assert "could not be loaded" in str(app.screen.query_one("#contracts-hint").content)


async def test_o_before_the_offers_are_loaded_leaves_the_focus_on_the_table(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = held(monkeypatch, "load_offers_view")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("o")  # at the first frame, before any offer is known
        await pilot.pause()
        release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        assert app.focused is table
        await pilot.press("slash", *"aws")
        await pilot.pause()
        field = app.screen.query_one("#filter", Input)
        assert field.value == "aws"  # `/` moved to the filter, and was not typed into it
        assert app.focused is field


async def test_slash_and_a_filter_typed_while_the_offers_load_are_kept_whole(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`o /H100` typed in one go before the offers are there (hostile-user pass: the filter read "/H100" and
    matched none of 10,000 offers, as the loading table had left the focus to the filter)."""
    release = held(monkeypatch, "load_offers_view")
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        field = app.screen.query_one("#filter", Input)
        try:
            assert app.focused is not field  # nothing is typed into the filter unless `/` asks for it
            await pilot.press("slash", *"H100")
            await pilot.pause()
            assert field.value == "H100" and app.focused is field
        finally:
            release.set()
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        assert field.value == "H100" and app.focused is field  # the typing goes on where it was
        assert table.view_rows and all("H100" in " ".join(r.cells) for r in table.view_rows)
        assert len(table.view_rows) < len(table.rows)


async def test_a_reload_while_on_the_offers_keeps_slash_for_the_filter(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F5 on the offers table: while the table reloads it cannot hold the focus, which must not fall to the
    filter (the next `/` would be typed into it)."""
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await pilot.press("o")
        await settle(pilot)
        release = held(monkeypatch, "load_offers_view")
        field = app.screen.query_one("#filter", Input)
        try:
            await pilot.press("f5")
            await pilot.pause()
            assert app.focused is not field
            await pilot.press("slash", *"aws")
            await pilot.pause()
            assert field.value == "aws" and app.focused is field
        finally:
            release.set()
        await settle(pilot)
        assert field.value == "aws"


def exact_order(values: list[Fraction | None]) -> list[int]:
    present = sorted((n for n, v in enumerate(values) if v is not None), key=lambda n: values[n])  # type: ignore[arg-type, return-value]
    return present + [n for n, v in enumerate(values) if v is None]


def test_order_keys_are_the_exact_order_ties_and_none_included() -> None:
    third = Fraction(1, 3)
    close = third + Fraction(1, 10**40)  # a different Fraction with the same float as 1/3
    values: list[Fraction | None] = [Fraction(5), close, None, third, Fraction(1, 3), Fraction(-2, 7), None, close]
    assert float(close) == float(third) and close > third
    keys = order_keys(values)
    assert keys == [4, 3, None, 2, 2, 1, None, 3]  # equal values share a key; 1/3 before 1/3 + 10^-40
    by_keys = sorted((n for n, k in enumerate(keys) if k is not None), key=lambda n: keys[n])  # type: ignore[arg-type, return-value]
    assert [values[n] for n in by_keys] == sorted(v for v in values if v is not None)
    assert order_keys([]) == [] and order_keys([None]) == [None]


def test_order_keys_agree_with_fractions_on_many_values() -> None:
    import random

    rng = random.Random(16)
    values: list[Fraction | None] = []
    for _ in range(3000):
        pick = rng.random()
        if pick < 0.1:
            values.append(None)
        elif pick < 0.3 and values:  # ties
            values.append(rng.choice(values))
        else:
            base = Fraction(rng.randint(1, 10**6), rng.randint(1, 10**4))
            values.append(base + Fraction(rng.randint(0, 3), 10**30))  # near-ties the floats cannot tell apart
    keys = order_keys(values)
    for a in range(0, 3000, 7):
        for b in range(1, 3000, 13):
            va, vb = values[a], values[b]
            if va is None or vb is None:
                assert (keys[a] is None) == (va is None) and (keys[b] is None) == (vb is None)
                continue
            ka, kb = keys[a], keys[b]
            assert ka is not None and kb is not None
            assert (ka < kb) == (va < vb) and (ka == kb) == (va == vb)


async def test_sorting_a_figure_column_is_the_exact_fraction_order(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        table = app.screen.query_one(VirtualTable)
        market = app.market
        assert market is not None
        evaluations = {r.offer.id: r.evaluation for r in market.rows}
        for key, figure in FIGURES.items():
            for reverse in (False, True):
                table.sort_by(at(key), reverse)
                await pilot.pause()
                shown = [row.key for row in table.view_rows]
                values = {i: figure(e) if e is not None else None for i, e in evaluations.items()}
                known = [i for i in shown if values[i] is not None]
                assert [values[i] for i in known] == sorted((values[i] for i in known), reverse=reverse)  # type: ignore[type-var]
                assert all(values[i] is None for i in shown[len(known) :])  # missing figures last
                assert len(known) == sum(v is not None for v in values.values())


async def test_a_sort_before_the_worker_made_the_places_is_still_exact(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = held_cards(monkeypatch)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None)
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(VirtualTable)
        table.sort_by(at("tco"))
        await pilot.pause()
        market = app.market
        assert market is not None
        tco = {r.offer.id: r.evaluation.annualised_tco for r in market.rows if r.evaluation is not None}
        shown = [row.key for row in table.view_rows if row.key in tco]
        assert [tco[i] for i in shown] == sorted(tco.values())
        release.set()
        await asyncio.sleep(0)
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)


async def test_keys_queued_right_after_slash_go_to_the_filter(demo_db_path: Path) -> None:
    """`/h20` typed while the UI thread is busy (a second launch decoding its kept table: hostile-user pass, 7
    tries in 13 lost the `h`): the keys are already queued when `/` is handled, and the filter must take them."""
    from textual import events

    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_ready)
        await pilot.press("o")
        await settle(pilot)
        for key, char in (
            ("slash", "/"),
            ("h", "h"),
            ("2", "2"),
            ("0", "0"),
        ):  # queued together, as a busy app gets them
            app.post_message(events.Key(key, char))
        await settle(pilot)
        field = app.screen.query_one("#filter", Input)
        assert field.value == "h20" and app.focused is field
        await pilot.press(*"/x")  # in the filter, `/` is a character like any other
        assert field.value == "h20/x" and app.focused is field


class TitledApp(RecordingApp):
    """Keeps each notification's title too."""

    def __init__(self, db: str | None) -> None:
        super().__init__(db)
        self.titled: list[tuple[str, str]] = []

    def notify(self, message: str, *, title: str = "", **kwargs) -> None:  # type: ignore[no-untyped-def, override]
        self.titled.append((title, message))
        super().notify(message, title=title, **kwargs)


async def test_a_bad_contract_row_is_the_contracts_read_failing_not_the_claims_check(
    cli: Cli, demo_db_path: Path
) -> None:
    """The cards' last step reads the contracts: a billing cadence another program wrote in one is titled as
    that read, with the row named; the claims and findings were checked."""
    done = cli("--db", str(demo_db_path), "contracts", "add", "--offer", "2", "--start", "2026-01-31",
               "--term-months", "12")  # fmt: skip
    assert done.code == 0, done.err
    execute(demo_db_path, "UPDATE contract SET billing_cadence = 'weird'")
    app = TitledApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_failed is not None)
        await pilot.pause()
        [(title, said)] = [(t, m) for t, m in app.titled if "'weird'" in m]
        assert title == "Loading the contracts" and "'weird' in contract #1, billing_cadence" in said


async def test_a_bug_in_the_contracts_step_is_titled_by_it(demo_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the contracts' read broke")

    monkeypatch.setattr(market_view, "_contracts", broken)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.market is not None and app.market.cards_failed is not None)
        await pilot.pause()
        assert isinstance(app.screen, ErrorDialog) and app.screen.title_text == "Loading the contracts failed"
        assert app.screen.message == "RuntimeError: the contracts' read broke"
