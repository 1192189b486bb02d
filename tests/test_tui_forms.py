"""Forms and calculators, driven like a buyer drives them (Textual's pilot).

Forms: the first field has the focus, the footer shows the form's keys, Save stays in view at 80×24, a save
says what it saved. Calculators: messages in words naming the field, the horizon refused beyond its declared
bound, typing never waits for a calculation (the latest input wins), Esc leaves a field, the app's keys work
from a number field, and the inputs follow the active scenario.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Button, Input, Select
from textual.widgets._footer import FooterKey

from quotetui.domain.entities import RENT_BUY
from quotetui.store.models import Provider
from quotetui.tui.dialogs.form_screen import FormScreen
from quotetui.tui.screens.calculator import DEBOUNCE_S
from tests.test_tui import RecordingApp, count_rows, settle, text_of

GPT3 = "GPT-3 175B 预训练 (32×H100)"
A100 = "A100 微调 (8 卡, 3 个月, 60 %)"


async def calm(pilot) -> None:  # type: ignore[no-untyped-def]
    """Past the calculators' typing pause, and every worker done."""
    await pilot.pause(DEBOUNCE_S * 2)
    await settle(pilot)


def footer_keys(app: RecordingApp) -> dict[str, str]:
    return {k.key: k.description for k in app.screen.query(FooterKey)}


async def open_form(app: RecordingApp, pilot, which: str) -> FormScreen:  # type: ignore[no-untyped-def]
    getattr(app, f"action_{which}")()
    await settle(pilot)
    assert isinstance(app.screen, FormScreen)
    return app.screen


# -- forms -----------------------------------------------------------------------------------------------
async def test_a_new_provider_form_takes_the_first_keystrokes_and_says_what_it_saved(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, "new_provider")
        assert app.focused is form.query_one("#f-name", Input)  # not the scrolling area around the fields
        await pilot.press(*"一万算力")
        assert form.query_one("#f-name", Input).value == "一万算力"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        # the demo market records five providers: the new one is #6
        assert ("Saved provider 一万算力 (#6)", "information") in app.told
    assert count_rows(demo_db_path, Provider) == 6


async def test_a_saved_name_with_markup_is_told_as_typed(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, "new_provider")
        form.query_one("#f-name", Input).value = "[b]Acme[/b]"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert ("Saved provider [b]Acme[/b] (#6)", "information") in app.told


async def test_a_refused_save_says_nothing_was_saved_and_keeps_the_form(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, "new_provider")
        await pilot.press(*"一万网络")  # a provider of the demo market already has this name
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is form
        assert not any(m.startswith("Saved") for m, _ in app.told)
        assert ("Nothing was saved: 1 field to correct (Name).", "error") in app.told
    assert count_rows(demo_db_path, Provider) == 5


async def test_a_new_offer_save_says_what_it_saved(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, "new_offer")
        form.query_one("#f-provider", Select).value = "一万网络"
        form.query_one("#f-name", Input).value = "8×H200 包月"
        form.query_one("#f-gpu", Input).value = "H200"
        form.query_one("#f-amount", Input).value = "98000"
        await pilot.press("ctrl+s")
        await settle(pilot)
        # the demo market records twenty offers: the new one is #21
        assert [m for m, _ in app.told if m.startswith("Saved")] == ["Saved offer 8×H200 包月 (#21) from 一万网络"]


@pytest.mark.parametrize("which", ["new_offer", "new_provider", "settings"])
async def test_save_and_cancel_stay_in_view_at_80x24(demo_db_path: Path, which: str) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, which)
        screen = form.region
        for button in form.query(Button):
            region = button.region
            assert region.height == 3 and screen.contains_region(region), (button.id, region)
            assert region.bottom <= screen.bottom - 1  # above the footer's line
        # the footer is the form's: its keys, not the dashboard's underneath
        keys = footer_keys(app)
        assert keys.get("ctrl+s") == "Save" and keys.get("escape") == "Cancel (nothing saved)"
        assert "d" not in keys and "o" not in keys


async def test_escape_closes_a_list_first_then_the_form_and_saves_nothing(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form = await open_form(app, pilot, "new_offer")
        provider = form.query_one("#f-provider", Select)
        assert app.focused is provider  # the offer form's first field
        await pilot.press("enter")
        await pilot.pause()
        assert provider.expanded
        await pilot.press("escape")
        await pilot.pause()
        assert not provider.expanded and app.screen is form
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FormScreen)
        assert not any(m.startswith("Saved") for m, _ in app.told)


# -- calculators -----------------------------------------------------------------------------------------
async def retype(pilot, field: Input, text: str) -> None:  # type: ignore[no-untyped-def]
    field.focus()
    field.value = ""
    await pilot.press(*text)
    await calm(pilot)


async def test_calculator_messages_name_the_field_in_words(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        horizon = app.screen.query_one("#rb-horizon_months", Input)
        await retype(pilot, horizon, "36x")
        shown = text_of(app, "#rb-result")
        assert "Horizon, months: '36x' is not a number" in shown
        assert "invalid literal" not in shown and "--" not in shown
        await retype(pilot, horizon, "36")
        app.screen.query_one("#rb-purchase", Input).value = ""
        app.screen.query_one("#rb-capex", Input).value = ""
        await calm(pilot)
        assert "give “Capex” or “Purchase option”" in text_of(app, "#rb-result")  # not --capex, --purchase
        app.screen.query_one("#rb-capex", Input).value = "2500000"
        app.screen.query_one("#rb-rent_monthly", Input).value = ""
        await calm(pilot)
        shown = text_of(app, "#rb-result")
        assert "give the rent side as “Rent a month at full use” or “rent offer #” (one of them)" in shown
        app.screen.query_one("#rb-offer", Input).value = "13x"
        await calm(pilot)
        assert "…or rent offer # (overrides): '13x' is not a number" in text_of(app, "#rb-result")
        await pilot.press("escape", "t")
        await calm(pilot)
        await retype(pilot, app.screen.query_one("#tr-gpus", Input), "32x")
        shown = text_of(app, "#tr-result")
        assert "GPUs: '32x' is not a number" in shown and "--" not in shown


async def test_the_rent_note_names_the_field_not_the_flag(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        app.screen.query_one("#rb-purchase", Input).value = ""
        app.screen.query_one("#rb-capex", Input).value = "2500000"
        app.screen.query_one("#rb-opex_monthly", Input).value = "19000"
        app.screen.query_one("#rb-offer", Input).value = "13"
        await calm(pilot)
        notes = text_of(app, "#rb-notes")
        assert "“GPUs bought” sets the capacity the capex buys" in notes and "--gpus" not in notes


def test_the_horizon_bound_is_declared_once_and_the_cli_refuses_beyond_it(cli) -> None:  # type: ignore[no-untyped-def]
    assert RENT_BUY.field("horizon_months").maximum == 120
    args = ("calc", "rent-vs-buy", "--capex", "2500000", "--opex-monthly", "19000", "--rent-monthly", "180000")
    refused = cli(*args, "--horizon-months", "100000000")
    assert refused.code == 2 and "must be at most 120" in refused.err
    # 2,500,000 ÷ (180,000 − 19,000) = 15.53 months, well inside 120
    assert "15.53" in cli(*args, "--horizon-months", "120").out


async def test_a_huge_horizon_is_refused_by_its_bound(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        await retype(pilot, app.screen.query_one("#rb-horizon_months", Input), "100000000")
        assert "Horizon, months: must be at most 120" in text_of(app, "#rb-result")


async def test_typing_never_waits_for_a_calculation_and_the_latest_input_wins(
    demo_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A calculation that takes a second (as a slow database would) runs while the keys go on working;
    an older, slower result arriving after a newer one is dropped."""
    import quotetui.services.rent_buy as rent_buy

    real = rent_buy.calc_rent_vs_buy

    def slow(db, typed, **kw):  # type: ignore[no-untyped-def]
        if typed.get("horizon_months") == "12":
            time.sleep(1.0)  # the older input's calculation finishes last
        return real(db, typed, **kw)

    monkeypatch.setattr(rent_buy, "calc_rent_vs_buy", slow)
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        horizon = app.screen.query_one("#rb-horizon_months", Input)
        horizon.focus()
        await pilot.press("1", "2")
        await pilot.pause(DEBOUNCE_S * 2)  # the slow calculation for 12 months has started
        started = time.perf_counter()
        await pilot.press("0")  # 120: the largest horizon allowed
        await pilot.pause(DEBOUNCE_S * 2)
        assert time.perf_counter() - started < 0.9  # the keys did not wait for the second-long calculation
        await settle(pilot)
        assert horizon.value == "120"
        assert "NPV over 120 months" in text_of(app, "#rb-result")
        await pilot.press("escape", "o")  # leave the field, go to the offers
        await pilot.pause()
        assert type(app.screen).__name__ == "OffersScreen"


async def test_escape_leaves_a_field_and_the_app_keys_work_from_a_number_field(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await calm(pilot)
        gpus = app.screen.query_one("#tr-gpus", Input)
        gpus.focus()
        await pilot.pause()
        assert footer_keys(app).get("escape") == "Leave field"
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is None and "escape" not in footer_keys(app)
        await pilot.press("b")  # the screen's keys work again
        await calm(pilot)
        assert type(app.screen).__name__ == "RentBuyScreen"
        await pilot.press("t")
        await calm(pilot)
        gpus = app.screen.query_one("#tr-gpus", Input)
        before = gpus.value
        gpus.focus()
        await pilot.press("end", "o")  # no number has an "o": it is the Offers key
        await pilot.pause()
        assert type(app.screen).__name__ == "OffersScreen" and gpus.value == before
        await pilot.press("t")
        await calm(pilot)
        gpus.focus()
        await pilot.press("end", "q")  # but a slip on "q" does not close the program: it is typed
        await calm(pilot)
        assert app.is_running and gpus.value == before + "q"
        assert f"GPUs: '{before}q' is not a number" in text_of(app, "#tr-result")
        await pilot.press("backspace", "end", "e", "2")  # "e" belongs to numbers (8e2): typed
        assert gpus.value == before + "e2"


async def test_a_text_field_types_every_letter(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        purchase = app.screen.query_one("#rb-purchase", Input)
        purchase.focus()
        purchase.value = ""
        await pilot.press(*"dots")
        assert purchase.value == "dots" and type(app.screen).__name__ == "RentBuyScreen"


async def pick_scenario(app: RecordingApp, pilot, name: str) -> None:  # type: ignore[no-untyped-def]
    from quotetui.tui.dialogs.scenario_picker import ScenarioPicker

    await pilot.press("escape")  # out of any field
    await pilot.press("s")
    await settle(pilot)
    assert isinstance(app.screen, ScenarioPicker)
    app.screen.dismiss(name)
    await settle(pilot)
    await calm(pilot)


async def test_the_training_planner_follows_the_active_scenario(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await calm(pilot)
        value = lambda name: app.screen.query_one(f"#tr-{name}", Input).value  # noqa: E731
        assert value("gpus") == "8"  # the default scenario: one 8-GPU H100 node, no training run named
        assert app.screen.query_one("#tr-gpu", Select).value == "H100 SXM5"
        assert "Scenario: 8×H100 一年训练" in text_of(app, "#tr-scenario")
        await pick_scenario(app, pilot, GPT3)
        assert (value("gpus"), value("flops"), value("params"), value("tokens")) == ("32", "3.14e+23", "", "")
        assert f"Scenario: {GPT3}" in text_of(app, "#tr-scenario")
        app.screen.query_one("#tr-mfu", Input).value = "50"
        app.screen.query_one("#tr-scaling", Input).value = "100"
        await calm(pilot)
        # 3.14e23 ÷ (32 × 989e12 × 0.5 × 1) = 19,843,300 s = 229.7 days
        shown = text_of(app, "#tr-result")
        assert "3.14E+23 FLOPs on 32 × H100 SXM5" in shown and "229.7" in shown
        await pick_scenario(app, pilot, A100)
        assert value("gpus") == "8" and value("flops") == "3.14e+23"  # no run in this scenario: the typed one stays
        assert app.screen.query_one("#tr-gpu", Select).value == "A100 80GB SXM4"
        assert "on 8 × A100 80GB SXM4" in text_of(app, "#tr-result")


async def test_rent_vs_buy_follows_the_active_scenario(demo_db_path: Path) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        utilisation = app.screen.query_one("#rb-utilisation", Input)
        assert utilisation.value == "100"  # a share typed as a percentage, as every input takes it
        await pick_scenario(app, pilot, A100)
        assert utilisation.value == "60"  # busy 60 % of the hours
        assert f"Scenario: {A100}" in text_of(app, "#rb-scenario")
        # the purchase option's owning costs, 36,782.38 a month against 180,000 rent at full use: at 60 % use the
        # rent is 108,000 and owning breaks even after 2,500,000 ÷ (108,000 − 36,782.38) = 35.10 months
        assert "Break-even after 35.10 months" in text_of(app, "#rb-result")


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("", "NPV over 36 months"),  # empty: the declared default (the demo's purchase option names none)
        ("１２", "NPV over 12 months"),  # full-width digits, as a CJK input method types them
        ("0", "Horizon, months: must be at least 1"),
        ("-5", "Horizon, months: must be at least 1"),
        ("12.5", "Horizon, months: 12.5 is not a whole number"),
        ("[b]12", "Horizon, months: '[b]12' is not a number"),  # shown as typed, not as markup
        ("121", "Horizon, months: must be at most 120"),
        ("1e999", "Horizon, months: '1e999' is out of range"),
    ],
)
async def test_absurd_horizons_get_a_plain_answer(demo_db_path: Path, typed: str, shown: str) -> None:
    app = RecordingApp(str(demo_db_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await calm(pilot)
        app.screen.query_one("#rb-horizon_months", Input).value = typed
        await calm(pilot)
        assert shown in text_of(app, "#rb-result")
